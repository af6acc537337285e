#!/usr/bin/python3
"""The e2e entry point of the `fleet` group: a tiny training loop that
saves, resumes and reacts to its save signal as Megatron-LM does, from
the launch line trainforge writes for framework megatron.

Run by torchrun (gloo on CPU). It reads Megatron-LM's own flags
(parse_known_args: the model's flags are ignored):

  --save DIR --load DIR --save-interval N   a checkpoint every N iterations
      into DIR/iter_%07d/ (one file per rank and rank 0's common.pt), and
      DIR/latest_checkpointed_iteration.txt written by rank 0 once every
      rank has written its part, as megatron/training/checkpointing.py
      does; --load resumes from the iteration that file names, or from 0
      when there is none.
  --exit-signal-handler --exit-signal NAME  the signal (a signal.Signals
      member name, SIGTERM by default) sets a flag that every iteration
      all-reduces, so that at one iteration's end every rank saves and
      the program exits 0, as DistributedSignalHandler and
      checkpoint_and_decide_exit do. Without the handler the signal's
      default action applies.
  --train-samples N | --train-iters N       the run's length, with
      --global-batch-size: iterations = samples / global batch.
  --tensor-model-parallel-size, --pipeline-model-parallel-size,
  --context-parallel-size, --micro-batch-size, --global-batch-size
      the world is held to them as validate_args does: a world they do
      not fit prints "fleet_train rank=R rejects world_size=W: REASON"
      and exits 1 before any collective.
  --step-time SECONDS                       the work of an iteration (this
      test's own flag).
  --hold-file PATH                          while PATH holds a number N and
      the run is at iteration N or later, iterations do not advance (the
      test's own flag, so that each event of the test meets the run at a
      known iteration); the signal is still all-reduced at every tick.

Every rank prints at its start

    fleet_train rank=R local_rank=L node=N world_size=W resumed_iteration=I

and rank 0 prints "fleet_train iteration=I world_size=W" after each
iteration, "fleet_train saved iteration=I signal=0|1" after each save and
"fleet_train done iteration=I world_size=W" at the end (where, as
Megatron does, it saves once more unless the last iteration just saved).
"""
import argparse
import os
import signal
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist

flag = False


def on_signal(signum, frame):
    global flag
    flag = True


def log(msg):
    # One write per line: the workers of a node share one log.
    sys.stdout.write(f"fleet_train {msg}\n")
    sys.stdout.flush()


def write(path, data):
    """Through a temporary file and a rename, synced: a reader never sees half."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def tracker(ckpt):
    return os.path.join(ckpt, "latest_checkpointed_iteration.txt")


def save(ckpt, iteration, rank, world, total):
    d = os.path.join(ckpt, f"iter_{iteration:07d}")
    os.makedirs(d, exist_ok=True)
    write(os.path.join(d, f"rank_{rank:05d}.txt"), f"{iteration} {total!r} {world}\n".encode())
    if rank == 0:
        torch.save({"iteration": iteration, "total": total, "world_size": world}, os.path.join(d, "common.pt"))
    dist.barrier()
    if rank == 0:
        write(tracker(ckpt), f"{iteration}\n".encode())
    dist.barrier()


def load(ckpt, rank):
    """The iteration and total the tracker names, from rank 0, for all."""
    state = torch.zeros(2, dtype=torch.float64)
    if rank == 0 and ckpt and os.path.isfile(tracker(ckpt)):
        with open(tracker(ckpt)) as f:
            iteration = int(f.read().strip())
        common = torch.load(os.path.join(ckpt, f"iter_{iteration:07d}", "common.pt"))
        state[0], state[1] = iteration, common["total"]
    dist.broadcast(state, src=0)
    return int(state[0]), float(state[1])


def hold_at(path):
    try:
        with open(path) as f:
            return float(f.read().strip() or 0)
    except (OSError, TypeError, ValueError):
        return 0.0


def layout_problem(a, world):
    model = a.tensor_model_parallel_size * a.pipeline_model_parallel_size * a.context_parallel_size
    if world % model:
        return f"world size is not divisible by TP x PP x CP = {model}"
    dp = world // model
    if a.global_batch_size % (a.micro_batch_size * dp):
        return f"global batch {a.global_batch_size} is not a multiple of micro batch {a.micro_batch_size} x DP {dp}"
    return None


def main(argv):
    global flag
    ap = argparse.ArgumentParser(allow_abbrev=False)
    ap.add_argument("--save")
    ap.add_argument("--load")
    ap.add_argument("--save-interval", type=int)
    ap.add_argument("--exit-signal-handler", action="store_true")
    ap.add_argument("--exit-signal", default="SIGTERM", type=lambda s: signal.Signals[s])
    ap.add_argument("--train-samples", type=int)
    ap.add_argument("--train-iters", type=int)
    ap.add_argument("--tensor-model-parallel-size", type=int, default=1)
    ap.add_argument("--pipeline-model-parallel-size", type=int, default=1)
    ap.add_argument("--context-parallel-size", type=int, default=1)
    ap.add_argument("--micro-batch-size", type=int, default=1)
    ap.add_argument("--global-batch-size", type=int, default=1)
    ap.add_argument("--step-time", type=float, default=0.2)
    ap.add_argument("--hold-file")
    a, _ = ap.parse_known_args(argv)
    if a.exit_signal_handler:
        signal.signal(a.exit_signal, on_signal)
    if a.save and not a.save_interval:
        log("rejects: --save needs --save-interval (validate_args)")
        return 1
    iters = a.train_iters or (a.train_samples // a.global_batch_size if a.train_samples else 0)
    if not iters:
        log("rejects: no --train-iters or --train-samples")
        return 1

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    problem = layout_problem(a, world)
    if problem:
        log(f"rank={rank} rejects world_size={world}: {problem}")
        return 1
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    iteration, total = load(a.load, rank)
    log(f"rank={rank} local_rank={os.environ['LOCAL_RANK']} node={os.environ.get('SLURMD_NODENAME', '?')} "
        f"world_size={world} resumed_iteration={iteration}")
    if a.save:
        os.makedirs(a.save, exist_ok=True)
    saved = iteration
    while iteration < iters:
        time.sleep(a.step_time)
        t = torch.tensor([float(rank + 1), 1.0 if flag else 0.0, hold_at(a.hold_file) if rank == 0 else 0.0],
                         dtype=torch.float64)
        dist.all_reduce(t)
        want = world * (world + 1) / 2
        if t[0] != want:
            log(f"rank={rank} iteration={iteration}: all_reduce {float(t[0])}, expected {want}")
            return 1
        held = 0 < t[2] <= iteration
        if not held:
            iteration += 1
            total += float(t[0])
            if rank == 0:
                log(f"iteration={iteration} world_size={world}")
        if t[1] > 0:
            if a.save:
                save(a.save, iteration, rank, world, total)
                if rank == 0:
                    log(f"saved iteration={iteration} signal=1")
            dist.barrier()
            dist.destroy_process_group()
            return 0
        if held:
            continue
        if a.save and iteration % a.save_interval == 0:
            save(a.save, iteration, rank, world, total)
            saved = iteration
            if rank == 0:
                log(f"saved iteration={iteration} signal=0")
    if a.save and saved != iteration:
        save(a.save, iteration, rank, world, total)
        if rank == 0:
            log(f"saved iteration={iteration} signal=0")
    dist.barrier()
    dist.destroy_process_group()
    if rank == 0:
        log(f"done iteration={iteration} world_size={world}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
