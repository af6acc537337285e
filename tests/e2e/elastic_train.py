#!/usr/bin/python3
"""The e2e entry point of the `elastic` group: a training loop that
survives losing nodes, as a mixed reserved+spot job's must.

Run by torchrun (gloo on CPU). Every step sleeps a little (the work),
all-reduces a tensor (the gradients) and has rank 0 save a checkpoint,
CHECKPOINT_DIR/step-S.pt, written to a temporary file and renamed into
place, so that a reader never sees half a checkpoint. A worker group
starts from the latest checkpoint there (rank 0 reads it and broadcasts
the step) and prints, from every rank, one line

    elastic_train rank=R local_rank=L node=N world_size=W restart=C resumed_step=S

with C the agent's TORCHELASTIC_RESTART_COUNT: a node lost mid-run shows
as a second group with a smaller W, a larger C and S > 0. A peer that dies
makes the collective fail, the worker exits 1, and torchrun restarts the
group with the nodes that are left.

SIGUSR1 is the spot watcher's contract: the worker that gets it sets a
flag that rides the next step's all_reduce, so that at that step boundary
every rank, the signalled ones or not, saves its own shard,
CHECKPOINT_DIR/signal-S/rank-R.pt (and rank 0 the usual step-S.pt), and
prints "elastic_train rank=R saved signal checkpoint step=S".

    elastic_train.py --steps N [--step-time SECONDS] [Megatron's layout flags]

It takes Megatron-LM's layout flags as the generated launch line writes
them (--tensor-model-parallel-size, --pipeline-model-parallel-size,
--context-parallel-size, --micro-batch-size, --global-batch-size; others
are ignored) and rejects a world they do not fit as Megatron's
validate_args does, before any collective: every rank prints

    elastic_train rank=R rejects world_size=W: REASON

and exits 1, so a worker group at a size the layout does not allow
shows in the log and costs torchrun a restart, as it would in a real run.

Rank 0 prints "elastic_train done step=N world_size=W" at the end.
"""
import argparse
import glob
import os
import re
import signal
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist

signalled = False


def on_usr1(signum, frame):
    global signalled
    signalled = True


def log(msg):
    # One write of the whole line: torchrun starts the workers with
    # python -u, where print() writes the text and the newline apart, and
    # the workers of a node share one log.
    sys.stdout.write(f"elastic_train {msg}\n")
    sys.stdout.flush()


def save(obj, path):
    """torch.save through a temporary file and a rename, synced."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        torch.save(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def latest(ckpt_dir):
    """The highest step with a complete checkpoint, and its state."""
    best = None
    for path in glob.glob(os.path.join(ckpt_dir, "step-*.pt")):
        m = re.fullmatch(r"step-(\d+)\.pt", os.path.basename(path))
        if m and (best is None or int(m.group(1)) > best[0]):
            best = (int(m.group(1)), path)
    if best is None:
        return 0, 0.0
    state = torch.load(best[1])
    return int(state["step"]), float(state["total"])


def layout_problem(args, world):
    """What Megatron's validate_args would refuse at this world, or None."""
    model = (args.tensor_model_parallel_size * args.pipeline_model_parallel_size
             * args.context_parallel_size)
    if world % model:
        return f"world size is not divisible by TP x PP x CP = {model}"
    dp = world // model
    if args.global_batch_size is not None and args.micro_batch_size is not None \
            and args.global_batch_size % (args.micro_batch_size * dp):
        return (f"global batch {args.global_batch_size} is not a multiple of "
                f"micro batch {args.micro_batch_size} x DP {dp}")
    return None


def main(argv):
    global signalled
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--steps", type=int, required=True, help="total steps of the run")
    ap.add_argument("--step-time", type=float, default=0.5, help="seconds of work per step")
    ap.add_argument("--keep", type=int, default=3, help="step checkpoints to keep")
    ap.add_argument("--tensor-model-parallel-size", type=int, default=1)
    ap.add_argument("--pipeline-model-parallel-size", type=int, default=1)
    ap.add_argument("--context-parallel-size", type=int, default=1)
    ap.add_argument("--micro-batch-size", type=int, default=None)
    ap.add_argument("--global-batch-size", type=int, default=None)
    args, _ = ap.parse_known_args(argv)
    signal.signal(signal.SIGUSR1, on_usr1)

    rank = int(os.environ["RANK"])
    problem = layout_problem(args, int(os.environ["WORLD_SIZE"]))
    if problem:
        log(f"rank={rank} rejects world_size={os.environ['WORLD_SIZE']}: {problem}")
        return 1

    ckpt_dir = os.environ["CHECKPOINT_DIR"]
    local_rank = int(os.environ["LOCAL_RANK"])
    node = os.environ.get("SLURMD_NODENAME", "?")
    restart = os.environ.get("TORCHELASTIC_RESTART_COUNT", "?")
    # A lost peer normally fails the collective at once (its sockets
    # close); the timeout bounds the case where it does not.
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    world = dist.get_world_size()

    state = torch.zeros(2, dtype=torch.float64)
    if rank == 0:
        step, total = latest(ckpt_dir)
        state[0], state[1] = step, total
    dist.broadcast(state, src=0)
    step, total = int(state[0]), float(state[1])
    log(f"rank={rank} local_rank={local_rank} node={node} "
        f"world_size={world} restart={restart} resumed_step={step}")

    while step < args.steps:
        time.sleep(args.step_time)
        step += 1
        # [this rank's contribution, the signal flag]: one collective
        # carries both, so every rank learns of a signal at the same step.
        t = torch.tensor([float(rank + 1), 1.0 if signalled else 0.0], dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.SUM)
        want = world * (world + 1) / 2
        if t[0] != want:
            log(f"rank={rank} step={step}: all_reduce sum {float(t[0])}, expected {want}")
            return 1
        total += float(t[0])
        if rank == 0:
            save({"step": step, "total": total, "world_size": world},
                 os.path.join(ckpt_dir, f"step-{step}.pt"))
            for path in glob.glob(os.path.join(ckpt_dir, "step-*.pt")):
                m = re.fullmatch(r"step-(\d+)\.pt", os.path.basename(path))
                if m and int(m.group(1)) <= step - args.keep:
                    os.remove(path)
            log(f"step={step} world_size={world}")
        if t[1] > 0:
            shard = os.path.join(ckpt_dir, f"signal-{step}")
            os.makedirs(shard, exist_ok=True)
            save({"step": step, "rank": rank, "world_size": world},
                 os.path.join(shard, f"rank-{rank}.pt"))
            log(f"rank={rank} saved signal checkpoint step={step}")
            signalled = False
    dist.barrier()
    dist.destroy_process_group()
    if rank == 0:
        log(f"done step={step} world_size={world}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
