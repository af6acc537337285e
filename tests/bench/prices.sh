#!/bin/sh
# `make bench`, the price import: `trainforge prices import` of a
# generated Price List bulk offer file for AmazonEC2 (CSV, the shape AWS
# publishes: tests/bench/make_price_list.py) against a Python script that
# keeps the same rows with the standard library's csv module
# (tests/bench/price_filter.py), at two sizes, for the budget in the
# design document: at least 10x faster, peak memory independent of the
# file's size. The files are written under $TMPDIR (never in the
# repository) and deleted at the end. Measures; does not assert.
#   BENCH_PRICES_MB="1024 2048" (the sizes, MiB; the first is compared)
#   BENCH_PRICES_RUNS=3 (runs of trainforge per size; Python runs once)
set -eu
cd "$(dirname "$0")/../.."
TF=${TF:-./trainforge}
sizes=${BENCH_PRICES_MB:-1024 2048}
runs=${BENCH_PRICES_RUNS:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trainforge-bench-prices.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

B=build/bench
mkdir -p "$B"
[ -x "$B/peakrss" ] || cc -O2 -o "$B/peakrss" tests/bench/peakrss.c

# measure STORE RUNS COMMAND...: median wall and CPU seconds and the
# largest peak RSS of RUNS runs, one line "wall cpu kib". The peak is
# peakrss's (a small process forks the command: a Python parent's own
# pages would count as the child's high-water mark); STORE is removed
# before each run, so every run imports into an empty store.
measure() {
	python3 - "$B/peakrss" "$@" <<'PY'
import os, statistics, subprocess, sys, time
peakrss, store, runs, cmd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
walls, cpus, peak = [], [], 0
for _ in range(runs):
    if store != "-" and os.path.exists(store):
        os.remove(store)
    t0 = time.monotonic()
    p = subprocess.Popen([peakrss] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    walls.append(time.monotonic() - t0)
    cpus.append(ru.ru_utime + ru.ru_stime)  # the command's, reaped by peakrss
    kib = [int(l.split()[1]) for l in err.splitlines() if l.startswith("peakrss ")]
    peak = max([peak] + kib)
    if status != 0 or not kib:
        sys.exit("%s failed (%d): %s" % (" ".join(cmd), status, err[-500:]))
print("%.3f %.3f %d" % (statistics.median(walls), statistics.median(cpus), peak))
PY
}

echo "prices import of a Price List bulk CSV (AmazonEC2) against Python's csv module:"
echo "median of $runs runs (trainforge) and 1 run (Python); wall and CPU seconds; peak RSS"
# CPU time is the steadier measure on a shared machine: wall time there
# is mostly waiting for a core (the load average says how much)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
first=
for mb in $sizes; do
	csv=$dir/index-$mb.csv
	python3 tests/bench/make_price_list.py "$csv" $((mb * 1048576))
	bytes=$(wc -c <"$csv")
	rows=$(wc -l <"$csv")
	# shellcheck disable=SC2046 # three numbers
	set -- $(measure "$dir/store.tsv" "$runs" "$TF" prices import --prices "$dir/store.tsv" "$csv")
	tf_wall=$1 tf_cpu=$2 tf_kib=$3
	kept=$(grep -c . "$dir/store.tsv")
	# shellcheck disable=SC2046
	set -- $(measure - 1 python3 tests/bench/price_filter.py "$csv" "$dir/kept.csv")
	py_wall=$1 py_cpu=$2 py_kib=$3
	printf '%5d MiB (%d bytes, %d rows; %d facts kept)\n' "$mb" "$bytes" "$rows" "$kept"
	printf '      trainforge %8.2f s wall %8.2f s CPU %8d KiB | python csv %8.2f s wall %8.2f s CPU %8d KiB | %s faster (wall), %s (CPU)\n' \
		"$tf_wall" "$tf_cpu" "$tf_kib" "$py_wall" "$py_cpu" "$py_kib" \
		"$(python3 -c "print('%.1fx' % ($py_wall / $tf_wall))")" "$(python3 -c "print('%.1fx' % ($py_cpu / $tf_cpu))")"
	[ -n "$first" ] || first="$mb $tf_kib $py_kib"
	last="$mb $tf_kib $py_kib"
	rm -f "$csv" "$dir/kept.csv" "$dir/store.tsv"
done
# shellcheck disable=SC2086 # two lists of three numbers
set -- $first $last
echo "(budget: 10x or more faster; trainforge's peak RSS $2 KiB at $1 MiB and $5 KiB at $4 MiB, independent of the size)"
