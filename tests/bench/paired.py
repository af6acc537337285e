#!/usr/bin/env python3
"""Two commands run in turn, ROUNDS times each: on a busy machine a
difference of a few milliseconds between two medians measured one after
the other is the load moving, while the difference within each round,
both commands under the same load, is what the first one adds.

usage: paired.py ROUNDS 'COMMAND A' 'COMMAND B'
prints: A's median wall and mean CPU ms, B's, the median of A - B per round
"""
import os
import resource
import statistics
import subprocess
import sys
import time


def once(argv, sink):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=sink, stderr=sink, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall * 1000, cpu * 1000


def main():
    rounds = int(sys.argv[1])
    a, b = sys.argv[2].split(), sys.argv[3].split()
    walls, cpus = ([], []), ([], [])
    with open(os.devnull, "w") as sink:
        for _ in range(3):  # warm the caches
            once(a, sink)
            once(b, sink)
        for _ in range(rounds):
            for k, argv in enumerate((a, b)):
                w, c = once(argv, sink)
                walls[k].append(w)
                cpus[k].append(c)
    diff = statistics.median(x - y for x, y in zip(walls[0], walls[1]))
    print("%.3f %.3f %.3f %.3f %+.3f" % (statistics.median(walls[0]), statistics.mean(cpus[0]),
                                         statistics.median(walls[1]), statistics.mean(cpus[1]), diff))


main()
