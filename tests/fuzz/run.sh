#!/bin/sh
# Runs libFuzzer targets built by `make fuzz-build` (build/fuzz/fuzz_*).
# For each target: first replays every file in tests/fuzz/regressions/
# <target>/ (inputs that once crashed), then fuzzes for FUZZ_S seconds
# from the seeds in tests/fuzz/corpus/<target>/ with the dictionary
# tests/fuzz/dict/<target>.dict when there is one; new inputs go to
# build/fuzz/corpus/<target>/, crashes to build/fuzz/artifacts/<target>/.
# FUZZ_S=0 replays the regressions and the seeds only. FUZZ_JOBS targets
# run at a time. Prints "RESULT pass|fail fuzz/NAME" lines and ends with
# "N passed, N failed"; exits 1 when any target failed.
#   usage: sh tests/fuzz/run.sh [TARGET...]    (default: every one built)
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=fuzz/
FUZZ_S=${FUZZ_S:-30}
FUZZ_JOBS=${FUZZ_JOBS:-2}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-65536}
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

if [ $# = 0 ]; then
	for b in "$FUZZ_DIR"/fuzz_*; do
		[ -x "$b" ] && set -- "$@" "${b##*/fuzz_}"
	done
fi
[ $# = 0 ] && { echo "no fuzz targets in $FUZZ_DIR (make fuzz-build)" >&2; exit 2; }
mkdir -p "$FUZZ_DIR/logs"

# target: writes the log, and the verdict into logs/TARGET.result
one() {
	target=$1
	bin=$FUZZ_DIR/fuzz_$target
	log=$FUZZ_DIR/logs/$target.log
	res=$FUZZ_DIR/logs/$target.result
	: >"$log"
	if [ ! -x "$bin" ]; then
		echo "fail not built ($bin)" >"$res"
		return
	fi
	# Replays: libFuzzer runs files given as arguments, once each.
	regs=$(find "tests/fuzz/regressions/$target" -type f ! -name '*.md' ! -name '.*' 2>/dev/null | sort)
	nreg=$(printf '%s' "$regs" | grep -c .)
	if [ "$nreg" -gt 0 ]; then
		# shellcheck disable=SC2086
		if ! "$bin" -timeout=10 -rss_limit_mb=2048 $regs >>"$log" 2>&1; then
			echo "fail a regression input crashes again" >"$res"
			return
		fi
	fi
	mkdir -p "$FUZZ_DIR/corpus/$target" "$FUZZ_DIR/artifacts/$target"
	set -- -timeout=10 -rss_limit_mb=2048 -max_len="$FUZZ_MAX_LEN" \
		-artifact_prefix="$FUZZ_DIR/artifacts/$target/" -print_final_stats=1
	[ -f "tests/fuzz/dict/$target.dict" ] && set -- "$@" -dict="tests/fuzz/dict/$target.dict"
	seeds=tests/fuzz/corpus/$target
	[ -d "$seeds" ] || seeds=
	if [ "$FUZZ_S" -gt 0 ]; then
		# shellcheck disable=SC2086
		"$bin" "$@" -max_total_time="$FUZZ_S" "$FUZZ_DIR/corpus/$target" $seeds >>"$log" 2>&1
	else
		# shellcheck disable=SC2086
		"$bin" "$@" -runs=0 $seeds >>"$log" 2>&1
	fi
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	info="$nreg regressions replayed, ${runs:-0} runs, ${rate:-0}/s"
	if [ "$rc" = 0 ]; then
		echo "pass $info" >"$res"
	else
		# shellcheck disable=SC2012 # libFuzzer names are hex digests
		art=$(ls -t "$FUZZ_DIR/artifacts/$target"/ 2>/dev/null | head -1)
		echo "fail exit $rc, $info; input: $FUZZ_DIR/artifacts/$target/$art (keep it in tests/fuzz/regressions/$target/)" >"$res"
	fi
}

running=0
for target in "$@"; do
	one "$target" &
	running=$((running + 1))
	if [ "$running" -ge "$FUZZ_JOBS" ]; then
		wait
		running=0
	fi
done
wait

passed=0
failed=0
for target in "$@"; do
	res=$(cat "$FUZZ_DIR/logs/$target.result" 2>/dev/null || echo "fail no result")
	verdict=${res%% *}
	result "$verdict" "$target: ${res#* }"
	if [ "$verdict" = pass ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		grep -E 'ERROR|SUMMARY|contract broken|runtime error|^ *#[0-9]+ ' "$FUZZ_DIR/logs/$target.log" | head -30 | sed 's/^/    /'
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
