#!/bin/sh
# `make bench`: trainforge against the tools users run today, side by side
# in one run. Prints median wall time, peak memory and the ratio per case.
# Budgets are in the design document; this measures, it does not assert.
set -eu
cd "$(dirname "$0")/../.."
TF=./trainforge
B=build/bench
mkdir -p "$B"
cc -O2 -o "$B/peakrss" tests/bench/peakrss.c
cc -O2 -o "$B/mcp_latency" tests/bench/mcp_latency.c
# shellcheck disable=SC2046 # pkg-config prints several words
cc -O2 -o "$B/yaml_events" tests/bench/yaml_events.c $(pkg-config --cflags --libs yaml-0.1)
# made again when its generator changes
[ -n "$(find "$B/large.yaml" -newer tests/bench/make_large.py 2>/dev/null)" ] ||
	python3 tests/bench/make_large.py "$B/large.yaml" 5300000
# the same queues without JobExclusiveAllocation: a finding on each
grep -v 'JobExclusiveAllocation: true' "$B/large.yaml" >"$B/large-findings.yaml"
runs=${BENCH_RUNS:-30}

median_ms() { # command string [runs] [warmup] -> median milliseconds (hyperfine)
	hyperfine -N -i --warmup "${3:-3}" --runs "${2:-$runs}" --export-json "$B/h.json" "$1" >/dev/null 2>&1 || true
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.3f" % (r["median"]*1000))' "$B/h.json"
}
peak_kib() { "$B/peakrss" sh -c "$1 >/dev/null 2>&1" 2>&1 >/dev/null | awk '/^peakrss/ {print $2}'; }
cpu_ms() { # the CPU time (user + system, mean) of the last median_ms
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.3f" % ((r["user"]+r["system"])*1000))' "$B/h.json"
}

row() { # case, ours, theirs-name, theirs [runs warmup]
	ours_ms=$(median_ms "$2" "${5:-$runs}" "${6:-3}")
	theirs_ms=$(median_ms "$4" "${5:-$runs}" "${6:-3}")
	ours_kb=$(peak_kib "$2")
	theirs_kb=$(peak_kib "$4")
	ratio=$(python3 -c "print('%.1fx' % ($theirs_ms / $ours_ms))")
	printf '%-30s %9s ms %7s KiB | %-14s %9s ms %7s KiB | %s faster\n' \
		"$1" "$ours_ms" "$ours_kb" "$3" "$theirs_ms" "$theirs_kb" "$ratio"
}

config=examples/clusters/trn2-48xlarge.yaml
files=$(find examples -name '*.yaml' -o -name '*.sbatch' | sort | tr '\n' ' ')
echo "trainforge lint vs peers: median of $runs runs (hyperfine -N), peak RSS"
row "typical config" "$TF lint -q $config" "yamllint" "yamllint -d relaxed $config"
pair="examples/jobs/out/moe-176b-cluster.yaml examples/jobs/out/moe-176b.sbatch"
row "config + script, shellcheck off" "$TF lint -q --shellcheck off $pair" "shellcheck" "shellcheck examples/jobs/out/moe-176b.sbatch"
row "config + script, shellcheck off" "$TF lint -q --shellcheck off $pair" "yamllint" "yamllint -d relaxed examples/jobs/out/moe-176b-cluster.yaml"
# The start-up budget: within 1.5x of a process that only event-parses
# the config, by wall time and by CPU time (steadier on a busy machine).
floor_ms=$(median_ms "$B/yaml_events examples/jobs/out/moe-176b-cluster.yaml")
floor_cpu=$(cpu_ms)
pair_ms=$(median_ms "$TF lint -q --shellcheck off $pair")
pair_cpu=$(cpu_ms)
printf '%-30s %9s ms (CPU %s ms) | %-14s %9s ms (CPU %s ms) | %s of the floor (CPU %s; budget 1.5x)\n' \
	"config + script, the floor" "$pair_ms" "$pair_cpu" "libyaml events" "$floor_ms" "$floor_cpu" \
	"$(python3 -c "print('%.2fx' % ($pair_ms / $floor_ms))")" "$(python3 -c "print('%.2fx' % ($pair_cpu / $floor_cpu))")"
row "config + script, shellcheck on" "$TF lint -q --shellcheck required $pair" "shellcheck" "shellcheck examples/jobs/out/moe-176b.sbatch"
# The same two commands in turn, so that both meet the same load: the
# budget is read from the median difference within a round.
# shellcheck disable=SC2046 # five numbers
set -- $(python3 tests/bench/paired.py "$runs" "$TF lint -q --shellcheck required $pair" "shellcheck examples/jobs/out/moe-176b.sbatch")
printf '%-30s %9s ms (CPU %s ms) | %-14s %9s ms (CPU %s ms) | %s ms a round\n' \
	"shellcheck on, in turn" "$1" "$2" "shellcheck" "$3" "$4" "$5"
echo "(with shellcheck on, the budget is at most 2 ms above shellcheck alone)"
# Many scripts: shellcheck in one batch per core against one shellcheck
# over every file, as `shellcheck $(find ...)` runs it. Fewer runs: each
# takes seconds.
python3 tests/bench/make_tree.py "$B/tree" 500 >/dev/null
tree_files=$(find "$B/tree" -name '*.sbatch' | sort | tr '\n' ' ')
tree_runs=${BENCH_TREE_RUNS:-5}
# shellcheck disable=SC2086 # a list of paths
echo "(500-script tree: $(cat $tree_files | wc -c) bytes, $(getconf _NPROCESSORS_ONLN) cores, median of $tree_runs runs)"
row "500 scripts, shellcheck on" "$TF lint -q --isolated --fail-level never --shellcheck required $B/tree" \
	"shellcheck" "shellcheck $tree_files" "$tree_runs" 1
off_ms=$(median_ms "$TF lint -q --isolated --fail-level never --shellcheck off $B/tree")
printf '%-30s %9s ms (trainforge'"'"'s own checks of the same tree)\n' "500 scripts, shellcheck off" "$off_ms"
yamls=$(find examples -name '*.yaml' | sort | tr '\n' ' ')
row "examples/ (pre-commit style)" "$TF lint -q --shellcheck off --fail-level never $files" "yamllint" "yamllint -d relaxed $yamls"
row "large YAML ($(($(wc -c <"$B/large.yaml") / 1024)) KiB)" "$TF lint -q --fail-level never --kind pcluster $B/large.yaml" "libyaml events" "$B/yaml_events $B/large.yaml"
large_findings=$(./trainforge lint --fail-level never --kind pcluster --format concise "$B/large-findings.yaml" 2>/dev/null | grep -c ': warning: \|: error: ' || true)
row "large YAML, $large_findings findings" "$TF lint -q --fail-level never --kind pcluster $B/large-findings.yaml" "libyaml events" "$B/yaml_events $B/large-findings.yaml"
echo "(for the large file the ratio is the libyaml event parse over trainforge: 0.5x or more meets the budget;"
echo " memory: under 4x the input plus 4 MiB, $(($(wc -c <"$B/large.yaml") * 4 / 1024 + 4096)) KiB for the first file,"
echo " $(($(wc -c <"$B/large-findings.yaml") * 4 / 1024 + 4096)) KiB for the one with findings)"
mkdir -p "$B/gen"
gen_ms=$(median_ms "$TF gen --force -o $B/gen examples/jobs/moe-176b-trn2.yaml")
gen_kb=$(peak_kib "$TF gen --force -o $B/gen examples/jobs/moe-176b-trn2.yaml")
printf '%-30s %9s ms %7s KiB | (budget: under 5 ms)\n' "gen of the reference job" "$gen_ms" "$gen_kb"
# The change review: two versions of a typical config against linting one
# (the budget: about the same), and --base, which reads the old version
# with `git show` (two git processes).
sed -e 's/MaxCount: 64/MaxCount: 96/' -e 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' \
	"$config" >"$B/changed.yaml"
lint_ms=$(median_ms "$TF lint -q --fail-level never $B/changed.yaml")
diff_ms=$(median_ms "$TF diff -q --fail-level never $config $B/changed.yaml")
rm -rf "$B/repo" && mkdir -p "$B/repo"
cp "$config" "$B/repo/cluster.yaml"
git -C "$B/repo" init -q && git -C "$B/repo" add cluster.yaml &&
	git -C "$B/repo" -c user.name=bench -c user.email=bench@example.invalid commit -qm bench
cp "$B/changed.yaml" "$B/repo/cluster.yaml"
base_ms=$(median_ms "$TF lint -q --fail-level never --base HEAD $B/repo/cluster.yaml")
printf '%-30s %9s ms | lint of the new one %s ms; lint --base HEAD %s ms\n' \
	"diff of two configs" "$diff_ms" "$lint_ms" "$base_ms"
# The MCP server: a lint call on the reference pair against the CLI's lint
# of the same files, in turn (tests/bench/mcp_latency.c), 100 rounds: the
# server is warm, the CLI pays its start-up (the budget: the call is
# faster); with shellcheck on, both wait for shellcheck.
# shellcheck disable=SC2046,SC2086 # five numbers; a list of paths
set -- $("$B/mcp_latency" "$TF" 100 off $pair)
printf '%-30s %9s ms (%s to %s) | %-14s %9s ms | %s ms a round (budget: faster than the CLI)\n' \
	"MCP lint call, shellcheck off" "$1" "$4" "$5" "trainforge lint" "$2" "$3"
# shellcheck disable=SC2046,SC2086
set -- $("$B/mcp_latency" "$TF" "$runs" auto $pair)
printf '%-30s %9s ms (%s to %s) | %-14s %9s ms | %s ms a round\n' \
	"MCP lint call, shellcheck auto" "$1" "$4" "$5" "trainforge lint" "$2" "$3"
sh tests/bench/prices.sh
