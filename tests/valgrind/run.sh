#!/bin/sh
# Memory checks under valgrind memcheck, PCRE2's JIT off: the unit test
# binaries, the CLI on every rule case (with its .args, as
# tests/cases/run.sh runs it), gen, plan and lint on the examples in
# every output format, and the fuzz regression inputs through the CLI. A run passes with no memory error and no leaked
# block of any kind: --errors-for-leak-kinds=all counts blocks still
# reachable at exit too. Prints "RESULT pass|fail valgrind/NAME" lines
# and ends with "N passed, N failed". Logs of failed runs are kept in
# $BUILD/valgrind/. VALGRIND_JOBS runs that many at a time (default 2).
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
BUILD=${BUILD:-build/rel}
JOBS=${VALGRIND_JOBS:-2}
export TRAINFORGE_NO_JIT=1
case $BUILD in */san|*/san/) skip "valgrind: $BUILD is a sanitizer build; valgrind needs an uninstrumented one"; exit 0 ;; esac
have valgrind || { no "valgrind: not installed (sh tools/deps.sh valgrind)"; exit 1; }
tf_built valgrind || exit 1
result_prefix=valgrind/
logs=$BUILD/valgrind
rm -rf "$logs"
mkdir -p "$logs"

# One line per run, "NAME<TAB>COMMAND..." with words split on spaces, so
# the runs can be spread over JOBS processes.
list=$t/list
: >"$list"
add() { name=$1; shift; printf '%s\t%s\n' "$name" "$*" >>"$list"; }

for b in "$BUILD"/tests/test_*; do
	[ -x "$b" ] && add "unit/${b##*/}" "$b"
done
for input in tests/cases/*/*; do
	case $input in *.expect|*.args) continue ;; esac
	[ -f "$input" ] || continue
	args=""
	[ -f "$input.args" ] && args=$(cat "$input.args")
	add "case/${input#tests/cases/}" "$TF" lint --format concise -q "$args" "$input"
done
for spec in examples/jobs/*.yaml; do
	n=$(basename "$spec" .yaml)
	add "gen-check/$n" "$TF" gen --check -o examples/jobs/out "$spec"
	add "plan/$n" "$TF" plan --hours 288 "$spec"
	add "plan-json/$n" "$TF" plan --format json "$spec"
done
for f in text concise json jsonl sarif github checkstyle; do
	add "lint-examples/$f" "$TF" lint --format "$f" examples
done
# Inputs that once crashed a fuzz target, through the CLI.
for f in tests/fuzz/regressions/lint/* tests/fuzz/regressions/sbatch/*; do
	[ -f "$f" ] || continue
	for k in pcluster jobspec sbatch; do
		add "fuzz-regression/${f#tests/fuzz/regressions/}/$k" "$TF" lint --shellcheck off --kind "$k" "$f"
	done
done
for f in tests/fuzz/regressions/jobspec/* tests/fuzz/regressions/gen/*; do
	[ -f "$f" ] || continue
	add "fuzz-regression/${f#tests/fuzz/regressions/}/plan" "$TF" plan "$f"
	add "fuzz-regression/${f#tests/fuzz/regressions/}/gen" "$TF" gen --check -o examples/jobs/out "$f"
done
add "rules" "$TF" rules
add "explain" "$TF" explain PC2101
add "bad-flag" "$TF" lint --frobnicate examples
add "missing-file" "$TF" lint "$t/none.yaml"

# NAME COMMAND...: one run; writes NAME's verdict line into $t/res/
one() {
	name=$1
	shift
	safe=$(printf '%s' "$name" | tr '/' '_')
	log=$t/$safe.vg
	# A forked child that did not exec (posix_spawn of a program that is
	# not there, which valgrind runs as fork and exec) holds the parent's
	# memory when it exits: it is left out of the log, and no
	# --error-exitcode replaces its exit status (127, which the program
	# reads as "not installed"); errors come from the log's summary.
	valgrind --leak-check=full --errors-for-leak-kinds=all --child-silent-after-fork=yes \
		--track-origins=yes --show-leak-kinds=all --num-callers=30 \
		--log-file="$log" "$@" >/dev/null 2>&1 </dev/null
	rc=$?
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tr -d , | tail -1)
	leaks=$(grep -c 'in loss record' "$log")
	lost() { sed -n "s/.*$1: \([0-9,]*\) bytes.*/\1/p" "$log" | tr -d , | tail -1; }
	what="${errors:-?} errors (${leaks} leak records: definitely $(lost 'definitely lost'), indirectly $(lost 'indirectly lost'), possibly $(lost 'possibly lost'), reachable $(lost 'still reachable') bytes)"
	if [ "$rc" -gt 128 ] || [ "${errors:-1}" != 0 ]; then
		cp "$log" "$logs/$safe.log"
		no "$name: exit $rc, $what; log: $logs/$safe.log"
		# the first error or leak record, its frames in our code
		awk '/^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|Source and|Argument)|loss record/ {p=1}
		     p && /^==[0-9]+== *$/ {exit} p' "$log" | head -16 | sed 's/^==[0-9]*==/   /'
	else
		ok "$name"
	fi
}

# Spread the list over JOBS workers; results are printed in list order.
mkdir -p "$t/res"
i=0
while IFS='	' read -r name cmd; do
	i=$((i + 1))
	echo "$i	$name	$cmd"
done <"$list" >"$t/numbered"
w=0
while [ "$w" -lt "$JOBS" ]; do
	(
		while IFS='	' read -r n name cmd; do
			[ $(((n - 1) % JOBS)) = "$w" ] || continue
			# shellcheck disable=SC2086 # commands are space-separated words
			one "$name" $cmd >"$t/res/$n" 2>&1
		done <"$t/numbered"
	) &
	w=$((w + 1))
done
wait
n=1
while [ "$n" -le "$i" ]; do
	cat "$t/res/$n" 2>/dev/null || no "run-$n: no result"
	n=$((n + 1))
done >"$t/all"
cat "$t/all"
passed=$(grep -c '^RESULT pass' "$t/all")
failed=$(grep -c '^RESULT fail' "$t/all")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
