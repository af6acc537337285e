#!/bin/sh
# Runs every test suite and ends with one line: "N passed, N failed".
# BUILD is the build directory of the binaries under test.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build/rel}
TF=${TF:-$BUILD/trainforge}
export TF BUILD
passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # suite-name, command...: the command prints "RESULT pass|fail|skip NAME" lines
	name=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	p=$(grep -c '^RESULT pass' "$log")
	f=$(grep -c '^RESULT fail' "$log")
	s=$(grep -c '^RESULT skip' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "RESULT fail $name exited $rc" >>"$log"; fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	printf '%-12s %4d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
	grep -E '^RESULT (fail|skip)' "$log" | sed 's/^RESULT /  /'
	if [ "$f" != 0 ]; then grep -v '^RESULT' "$log" | tail -40 | sed 's/^/    /'; fi
}

# cmocka binaries, each test reported. Each test's verdict is read from
# standard output (cmocka's summary on standard error names failed and
# skipped tests again); a binary that exits non-zero without a failed
# test (a crash, a failed group setup) is a failure of its own.
unit() {
	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		"$t" >"$log.out" 2>"$log.err"
		rc=$?
		cat "$log.out" "$log.err" >&2
		sed -n \
			-e 's/^\[       OK \] \(.*\)/RESULT pass \1/p' \
			-e 's/^\[  FAILED  \] \(.*\)/RESULT fail \1/p' \
			-e 's/^\[  SKIPPED \] \(.*\)/RESULT skip \1/p' "$log.out"
		if [ "$rc" != 0 ] && ! grep -q '^\[  FAILED  \]' "$log.out"; then
			echo "RESULT fail ${t##*/}: exited $rc"
		fi
	done 2>"$log.raw"
	grep -v '^RESULT' "$log.raw" >&2
	rm -f "$log.raw" "$log.out" "$log.err"
}

# `sh tests/run.sh SUITE...` runs those alone (tests/SUITE.sh, else
# tests/SUITE/run.sh): the release stages of .ci/run run theirs so.
if [ $# -gt 0 ]; then
	for suite in "$@"; do
		if [ -f "tests/$suite.sh" ]; then count "$suite" sh "tests/$suite.sh"; else count "$suite" sh "tests/$suite/run.sh"; fi
	done
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
	exit
fi

count unit unit
count arch sh tests/arch/run.sh
count cases sh tests/cases/run.sh
count hostile sh tests/hostile/run.sh
count cli sh tests/cli/run.sh
count plan sh tests/plan/run.sh
count gen sh tests/gen/run.sh
count survival sh tests/gen/survival.sh
count watcher sh tests/watcher/run.sh
count slurmbuild bash tests/slurmbuild/run.sh
count fleet sh tests/plan/fleet.sh
count checkpoints sh tests/plan/survival.sh
count moe sh tests/plan/moe.sh
count bill sh tests/plan/bill.sh
count compare sh tests/plan/compare.sh
count tco sh tests/plan/tco.sh
count prices sh tests/prices/run.sh
count svg sh tests/plan/svg.sh
count docs sh tests/docs/run.sh
count formats sh tests/formats/run.sh
count corpus sh tests/corpus/sbatch.sh
count precision sh tests/corpus/precision.sh
count recall sh tests/recall/run.sh
count recall-corpus sh tests/corpus/recall.sh
count lsp sh tests/lsp/run.sh
count mcp sh tests/mcp/run.sh
count schema sh tests/schema/run.sh
count config sh tests/config/run.sh
count targets sh tests/targets/run.sh
count versions sh tests/versions/run.sh
count oracle sh tests/oracle/run.sh
count frameworks sh tests/frameworks/run.sh
count fix sh tests/fix/run.sh
count precommit sh tests/precommit/run.sh
count update sh tests/update/run.sh
count diffbash sh tests/diffbash/run.sh
count wild sh tests/diffbash/wild.sh
count wiring sh tests/wiring/run.sh
count ci sh tests/ci/run.sh
count nvim sh tests/nvim/run.sh
count dist sh tests/dist/run.sh

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
