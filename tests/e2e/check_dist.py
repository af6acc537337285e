#!/usr/bin/python3
"""The e2e entry point: what a generated batch script starts on every node.

Run by torchrun (gloo on CPU), each worker checks what torchrun and the
batch script promise it: WORLD_SIZE, a RANK and LOCAL_RANK in range, ranks
unique across the job (all_gather), an all_reduce that sums right, and the
variables the script exports. Each rank writes OUT/rank-R.json (through a
temporary file and a rename) and prints one line to its node's log; it
exits 1 when a check fails, so the job fails too.

    check_dist.py --out DIR --world N [--env NAME=VALUE]... [--env NAME]...
                  [--hold-first-attempt SECONDS]

`--verify DIR --world N` (no torch needed) reads the rank files back and
prints one line per problem; it exits 0 only when all N ranks are there,
each passed, and they agree with each other.

--hold-first-attempt makes the first attempt of a job (SLURM_RESTART_COUNT
unset or 0) print a line and wait, so that the test can requeue the job
while it runs; a requeued attempt runs the checks as usual.
"""
import argparse
import json
import os
import socket
import sys


def parse_args(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="shared directory for rank-R.json")
    ap.add_argument("--world", type=int, required=True, help="expected WORLD_SIZE")
    ap.add_argument("--nodes", type=int, default=0, help="expected node count (verify)")
    ap.add_argument("--env", action="append", default=[],
                    help="NAME (must be set) or NAME=VALUE (must equal)")
    ap.add_argument("--verify", help="check the rank files in this directory")
    ap.add_argument("--hold-first-attempt", type=float, default=0,
                    help="on the job's first attempt, wait this long before anything else")
    return ap.parse_args(argv)


def env_int(name, problems):
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        problems.append(f"{name} is {os.environ.get(name)!r}, not an integer")
        return -1


def worker(args):
    import time
    from datetime import timedelta

    attempt = int(os.environ.get("SLURM_RESTART_COUNT") or 0)
    if args.hold_first_attempt and attempt == 0:
        print(f"check_dist rank {os.environ.get('RANK')} attempt 0: holding for a requeue",
              flush=True)
        time.sleep(args.hold_first_attempt)
        print(f"check_dist rank {os.environ.get('RANK')} attempt 0: not requeued", flush=True)
        return 1

    import torch
    import torch.distributed as dist

    problems = []
    rank = env_int("RANK", problems)
    local_rank = env_int("LOCAL_RANK", problems)
    world = env_int("WORLD_SIZE", problems)
    local_world = env_int("LOCAL_WORLD_SIZE", problems)
    group_rank = env_int("GROUP_RANK", problems)
    if world != args.world:
        problems.append(f"WORLD_SIZE is {world}, expected {args.world}")
    if not 0 <= rank < world:
        problems.append(f"RANK {rank} outside [0, {world})")
    if not 0 <= local_rank < local_world:
        problems.append(f"LOCAL_RANK {local_rank} outside [0, {local_world})")

    env = {}
    for item in args.env:
        name, eq, want = item.partition("=")
        have = os.environ.get(name)
        env[name] = have
        if have is None:
            problems.append(f"{name} is not set")
        elif eq and have != want:
            problems.append(f"{name} is {have!r}, expected {want!r}")

    dist.init_process_group("gloo", timeout=timedelta(seconds=180))
    if dist.get_rank() != rank or dist.get_world_size() != world:
        problems.append(f"process group says rank {dist.get_rank()} of "
                        f"{dist.get_world_size()}, env says {rank} of {world}")
    mine = torch.tensor([rank, local_rank, group_rank], dtype=torch.int64)
    gathered = [torch.zeros(3, dtype=torch.int64) for _ in range(world)]
    dist.all_gather(gathered, mine)
    ranks = [int(t[0]) for t in gathered]
    if sorted(ranks) != list(range(world)):
        problems.append(f"ranks are not unique: {ranks}")
    total = torch.tensor([rank + 1], dtype=torch.int64)
    dist.all_reduce(total, op=dist.ReduceOp.SUM)
    want = world * (world + 1) // 2
    if int(total[0]) != want:
        problems.append(f"all_reduce sum is {int(total[0])}, expected {want}")
    dist.barrier()
    dist.destroy_process_group()

    result = {
        "rank": rank, "local_rank": local_rank, "group_rank": group_rank,
        "world_size": world, "local_world_size": local_world,
        "node": os.environ.get("SLURMD_NODENAME"), "attempt": attempt,
        "slurm_job_id": os.environ.get("SLURM_JOB_ID"),
        "run_id": os.environ.get("TORCHELASTIC_RUN_ID"),
        "hostname": socket.gethostname(), "pid": os.getpid(),
        "gathered": [[int(x) for x in t] for t in gathered],
        "all_reduce": int(total[0]), "env": env, "environ": dict(os.environ),
        "problems": problems,
    }
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"rank-{rank}.json")
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    print(f"check_dist rank {rank} (local {local_rank}, node {result['node']}, "
          f"attempt {attempt}): {status}", flush=True)
    return 0 if not problems else 1


def verify(args):
    problems = []
    results = []
    if not os.path.isdir(args.verify):
        print(f"no result directory {args.verify}: no worker got that far")
        return 1
    for r in range(args.world):
        path = os.path.join(args.verify, f"rank-{r}.json")
        try:
            with open(path) as f:
                results.append(json.load(f))
        except (OSError, ValueError) as e:
            problems.append(f"rank {r}: no result ({e})")
    extra = sorted(n for n in os.listdir(args.verify)
                   if n.startswith("rank-") and n.endswith(".json")
                   and n not in {f"rank-{r}.json" for r in range(args.world)})
    if extra:
        problems.append(f"unexpected rank files: {extra}")
    for res in results:
        for p in res["problems"]:
            problems.append(f"rank {res['rank']}: {p}")
    if results:
        nodes = {res["node"] for res in results}
        if args.nodes and len(nodes) != args.nodes:
            problems.append(f"ranks ran on {sorted(map(str, nodes))}, expected {args.nodes} nodes")
        per_node = {}
        for res in results:
            per_node.setdefault(res["node"], set()).add(res["group_rank"])
        for node, groups in per_node.items():
            if len(groups) != 1:
                problems.append(f"node {node} has workers of several torchrun agents {groups}")
        if len({res["group_rank"] for res in results}) != len(nodes):
            problems.append("one torchrun agent's workers are on several nodes")
        for key in ("slurm_job_id", "run_id"):
            vals = {res[key] for res in results}
            if len(vals) != 1:
                problems.append(f"{key} differs between ranks: {sorted(map(str, vals))}")
        if results[0]["run_id"] != results[0]["slurm_job_id"]:
            problems.append(f"rendezvous id {results[0]['run_id']} is not the job id "
                            f"{results[0]['slurm_job_id']}")
        locals_ = sorted((res["node"], res["local_rank"]) for res in results)
        if len(set(locals_)) != len(locals_):
            problems.append(f"LOCAL_RANK repeats on a node: {locals_}")
    for p in problems:
        print(p)
    return 0 if not problems else 1


def main(argv):
    args = parse_args(argv)
    if args.verify:
        return verify(args)
    if not args.out:
        print("check_dist.py: --out DIR is required", file=sys.stderr)
        return 2
    return worker(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
