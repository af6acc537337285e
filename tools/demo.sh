#!/bin/sh
# `make demo`: generate the reference job (64 x trn2.48xlarge MoE) into a
# temporary directory, show its plan, then lint the bundled examples: the
# clean ones pass, the broken one shows what trainforge catches.
set -u
cd "$(dirname "$0")/.." || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== trainforge gen examples/jobs/moe-176b-trn2.yaml -o $out"
./trainforge gen examples/jobs/moe-176b-trn2.yaml -o "$out" || { echo "demo: gen failed" >&2; exit 1; }
echo
echo "== the batch script it wrote ($out/moe-176b.sbatch)"
sed -n '/^#SBATCH/p;/^srun/,$p' "$out/moe-176b.sbatch"
echo
echo "== trainforge lint $out examples/clusters examples/jobs (expected clean)"
./trainforge lint "$out" examples/clusters examples/jobs || { echo "demo: the clean examples have findings" >&2; exit 1; }
echo
echo "== trainforge lint examples/broken (expected to fail)"
./trainforge lint examples/broken
rc=$?
if [ "$rc" != 1 ]; then
	echo "demo: the broken example should exit 1, got $rc" >&2
	exit 1
fi
echo
echo "demo: generated files and clean examples pass; the broken one fails with the findings above"
