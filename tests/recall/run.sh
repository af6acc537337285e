#!/bin/sh
# The reference scenario's script (shared/research/reference-scenario.md,
# rewritten in tests/recall/reference/ with its look-alike hyphens made
# ASCII and the line before the script name left without its backslash),
# against its cluster on trn2.48xlarge with EFA: each of the six mistakes
# lint used to pass is found at its line, the module is blamed and not
# its version, and --fix --unsafe-fixes gives torchrun its program back.
# Then every launcher case whose line before the program lost its
# backslash (SB0002, SB2616) is fixed the same way, and no launcher is
# left without its program. Prints RESULT lines. ok and no only print,
# so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built recall || exit 1
export XDG_CONFIG_HOME="$t/xdg"
mkdir "$t/.git"
ref=tests/recall/reference

lint() { "$TF" lint --format concise -q --shellcheck off --color never "$@" 2>/dev/null; }
# rule, line, what: the finding of rule at that line of $t/out
at() {
	if grep -q "^[^:]*:$2:[0-9]*: [a-z]*: .*\[$1\]\$" "$t/out"; then ok "reference/$1 ($3)"
	else no "reference/$1 ($3): not at line $2"; cat "$t/out"; fi
}
lint "$ref/run_pretrain.sh" >"$t/out"
at SB2614 13 "module load neuron/2.20: no ParallelCluster AMI has a neuron module"
at SB2611 14 "NEURON_RT_NUM_CORES=32 with 32 processes a node"
at SB2613 15 "NCCL_DEBUG=INFO on Neuron"
at SB2612 20 "32 processes on a 64-core trn2.48xlarge"
at SB2616 22 "the lost continuation before train_moe.py"
at SB2615 23 "DP 16 x PP 4 against a world of 64 x 32"
at SB3201 11 "--output under /shared, which the cluster does not mount"
grep -q 'warning: .*\[SB2614\]$' "$t/out" && ok "reference/SB2614 is a warning" ||
	no "reference/SB2614 is a warning"
hasnt "reference/no-SB2109: the module is missing, not old" '\[SB2109\]$' "$t/out"
# Every finding of a class that fails or hangs the job is at least a
# warning: none of them is an info.
hasnt "reference/no-info" ': info: ' "$t/out"

# --fix --unsafe-fixes: the backslash goes back, torchrun gets train_moe.py
mkdir "$t/fix"
cp "$ref/run_pretrain.sh" "$ref/cluster.yaml" "$t/fix/"
(cd "$t/fix" && "$TF" lint --fix --unsafe-fixes --shellcheck off -q run_pretrain.sh >/dev/null 2>&1)
bash -n "$t/fix/run_pretrain.sh" && ok "reference/fixed: bash -n accepts it" || no "reference/fixed: bash -n refuses it"
has "reference/fixed: the torchrun line continues" '--master_port=8888 \\$' "$t/fix/run_pretrain.sh"
(cd "$t/fix" && lint run_pretrain.sh) >"$t/out"
hasnt "reference/fixed: no lost continuation is left" '\[SB2616\]$\|\[SB0002\]$' "$t/out"
# the program now rides on torchrun's line: its layout is judged there
if grep -q '^run_pretrain.sh:23:.*\[SB22..\]$\|^run_pretrain.sh:23:.*\[SB2615\]$' "$t/out"; then
	ok "reference/fixed: the layout is judged against torchrun's world"
else
	no "reference/fixed: the layout is judged against torchrun's world"
	cat "$t/out"
fi

# No launcher is left without its program by --fix: every lost line of
# the SB0002 and SB2616 cases, fixed, leaves neither finding.
for f in tests/cases/SB0002/bad*.sbatch tests/cases/SB2616/bad*.sbatch; do
	name=fix-keeps-program/$(basename "$(dirname "$f")")/$(basename "$f")
	cp "$f" "$t/case.sbatch"
	(cd "$t" && "$TF" lint --fix --unsafe-fixes --shellcheck off -q case.sbatch >/dev/null 2>&1)
	(cd "$t" && lint case.sbatch) >"$t/out"
	if grep -q '\[SB2616\]$\|\[SB0002\]$' "$t/out"; then no "$name"; cat "$t/out"
	elif ! bash -n "$t/case.sbatch"; then no "$name: bash -n refuses the fixed script"
	else ok "$name"; fi
done
