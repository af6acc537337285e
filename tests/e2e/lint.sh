# shellcheck shell=bash
# The e2e group "lint", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# The linter's claims about scripts hold on the real Slurm.
# tests/e2e/lint/RULE-{bad,good}.sbatch are tests/cases/RULE/*.sbatch made
# to run here (2 processes per node, the check_dist.py entry point, the
# shim), each keeping its one mistake. The linter must show RULE on the bad
# copy and not on the good one, and Slurm must show the consequence.
lint_shows() { # FILE RULE -> 0 when the finding is there
	"$TF" lint --format concise -q --shellcheck off --target "$TF_TARGET" --select "$2" "$1" 2>/dev/null |
		grep -q "\[$2\]\$"
}
lint_pair() { # RULE: the linter agrees with the fixtures
	local f=$ROOT/tests/e2e/lint/$1
	if lint_shows "$f-bad.sbatch" "$1" && ! lint_shows "$f-good.sbatch" "$1"; then
		result pass "lint/$1/linter" "trainforge lint shows $1 on the bad copy only"
	else
		result fail "lint/$1/linter" "trainforge lint does not show $1 on the bad copy only"
		"$TF" lint --format concise --shellcheck off --target "$TF_TARGET" "$f-bad.sbatch" "$f-good.sbatch" 2>&1 | indent
	fi
}
# Submits a fixture; prints the job id (empty when sbatch refused it).
submit() { # RULE bad|good [sbatch options...]
	local rule=$1 kind=$2 d
	shift 2
	d=$TMP/lint/$rule-$kind
	mkdir -p "$d/out"
	(cd "$d" && PATH=$SHIM_PATH TF_E2E_SHIM_LOG=$d/torchrun.log E2E_ROOT=$ROOT E2E_OUT=$d/out \
		timeout 60 sbatch --parsable "$@" "$ROOT/tests/e2e/lint/$rule-$kind.sbatch" 2>"$d/sbatch.err")
}
# Runs a good fixture to the end: COMPLETED, 4 ranks verified.
good_runs() { # RULE
	local rule=$1 id state d=$TMP/lint/$1-good v
	id=$(submit "$rule" good)
	if [ -z "$id" ]; then
		result fail "lint/$rule/good" "sbatch refused it"
		indent <"$d/sbatch.err"
		return
	fi
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	if [ "$state" = COMPLETED ] && v=$($PY "$ROOT/tests/e2e/check_dist.py" --verify "$d/out" --world 4 --nodes 2 2>&1); then
		result pass "lint/$rule/good" "job $id COMPLETED, 4 ranks on 2 nodes"
	else
		result fail "lint/$rule/good" "job $id: $state"
		printf '%s\n' "$v" | indent
		tail -n 20 "$d"/*.out 2>/dev/null | indent 30
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
}

group_lint() {
	local id state d tl out
	mkdir -p "$TMP/lint"

	# SB0001: an #SBATCH line after the first command is ignored. The
	# copies set --time late (bad) or in place (good); held jobs show it.
	lint_pair SB0001
	for kind in bad good; do
		id=$(submit SB0001 $kind --hold)
		tl=$(job_field "$id" TimeLimit)
		[ -n "$id" ] && timeout 20 scancel "$id"
		case $kind:$tl in
		bad:UNLIMITED) result pass lint/SB0001/bad "the late --time=01:00:00 was ignored: TimeLimit=$tl" ;;
		good:01:00:00) result pass lint/SB0001/good "TimeLimit=$tl" ;;
		*) result fail "lint/SB0001/$kind" "job '$id' has TimeLimit=$tl"; indent <"$TMP/lint/SB0001-$kind/sbatch.err" ;;
		esac
	done

	# SB0002: a lost backslash ends the command early: torchrun runs
	# without the entry point and the job fails.
	lint_pair SB0002
	d=$TMP/lint/SB0002-bad
	id=$(submit SB0002 bad)
	state=$(job_wait "$id" 300)
	if [ "$state" = FAILED ] && [ -z "$(ls "$d/out" 2>/dev/null)" ]; then
		result pass lint/SB0002/bad "job $id FAILED, no worker ran ($(grep -h -m1 -o 'error: .*' "$d"/*.out 2>/dev/null | head -1))"
	else
		result fail lint/SB0002/bad "job '$id': $state"
		tail -n 20 "$d"/*.out 2>/dev/null | indent
	fi
	good_runs SB0002

	# SB2002: torchrun without srun runs on the batch node only; its
	# rendezvous waits for a second node that never comes. The job must
	# still be running, with no worker started, well after torchrun began.
	lint_pair SB2002
	d=$TMP/lint/SB2002-bad
	id=$(submit SB2002 bad)
	if [ -n "$id" ] && wait_lines "$d/torchrun.log" 1 180; then
		sleep "${TF_E2E_HANG_WATCH:-45}"
		state=$(job_state "$id")
		out=$(find "$d/out" -name 'rank-*' 2>/dev/null | wc -l)
		if [ "$state" = RUNNING ] && [ "$(wc -l <"$d/torchrun.log")" = 1 ] && [ "$out" = 0 ] &&
			[ "$(awk '{print $2}' "$d/torchrun.log")" = batch ]; then
			result pass lint/SB2002/bad "job $id hangs: one torchrun, outside srun, waiting on its rendezvous; cancelled"
		else
			result fail lint/SB2002/bad "job $id: state $state, $(wc -l <"$d/torchrun.log") torchrun starts, $out rank files"
		fi
	else
		result fail lint/SB2002/bad "job '$id': torchrun did not start"
	fi
	[ -n "$id" ] && timeout 20 scancel "$id"
	[ -n "$id" ] && note "SB2002 bad after scancel: $(job_wait "$id" 60)"
	good_runs SB2002

	# SB1001: sbatch refuses a script with an unknown option.
	lint_pair SB1001
	d=$TMP/lint/SB1001-bad
	id=$(submit SB1001 bad)
	if [ -z "$id" ] && grep -q 'nodse' "$d/sbatch.err"; then
		result pass lint/SB1001/bad "sbatch refused it: $(head -1 "$d/sbatch.err")"
	else
		result fail lint/SB1001/bad "sbatch accepted it (job '$id')"
		[ -n "$id" ] && timeout 20 scancel "$id"
	fi
	good_runs SB1001
}
