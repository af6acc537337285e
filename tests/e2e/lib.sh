# shellcheck shell=bash
# shellcheck disable=SC2034 # SHIM_PATH and TF_TARGET are read by the groups
# What every e2e group shares, sourced by tests/e2e/run.sh (bash) inside
# its namespaces once ROOT, TMP, TF, PY and the Slurm (tests/e2e/slurm.sh)
# are set: RESULT printers named after the Slurm under test, job states,
# bounded waits, trainforge gen, the torchrun shim, and the record of what
# the real Slurm did (observe) with its hook for trainforge's own verdict
# (tf_target_check).

passed=0 failed=0 skipped=0
# The linter judges for the Slurm under test (lint.sh, options.sh).
TF_TARGET=slurm=$SLURM_SERIES

# Every check is named after the Slurm it ran on: "RESULT pass 25.11/job/completed".
result() { # pass|fail|skip NAME [REASON]
	local r=$1 name=$SLURM_SERIES/$2
	shift 2
	case $r in
	pass) passed=$((passed + 1)) ;;
	fail) failed=$((failed + 1)) ;;
	skip)
		if [ -n "${TF_E2E_NO_SKIP:-}" ]; then
			r=fail
			set -- "skipped, and TF_E2E_NO_SKIP is set:" "$@"
			failed=$((failed + 1))
		else
			skipped=$((skipped + 1))
		fi ;;
	esac
	if [ $# -gt 0 ]; then echo "RESULT $r $name: $*"; else echo "RESULT $r $name"; fi
}
note() { echo "    $*"; }
indent() { sed 's/^/    /' | head -n "${1:-20}"; }

# A job's state from `scontrol show job` ("" when unknown).
job_field() { # JOBID FIELD
	timeout 20 scontrol show job -o "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}
job_state() { job_field "$1" JobState; }
# Waits (bounded) until the job has ended; prints the final state.
job_wait() { # JOBID LIMIT_SECONDS
	local id=$1 limit=$2 t s
	for ((t = 0; t < limit; t++)); do
		s=$(job_state "$id")
		case $s in
		COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
			echo "$s"
			return 0 ;;
		esac
		sleep 1
	done
	echo "${s:-UNKNOWN}-after-${limit}s"
	return 1
}
# Waits (bounded) until FILE has at least N lines.
wait_lines() { # FILE N LIMIT
	local t
	for ((t = 0; t < $3; t++)); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 1
	done
	return 1
}

# trainforge gen, with TF_E2E_TEMPLATES as --templates when set (to try a
# template change on the real Slurm before making it).
tf_gen() {
	if [ -n "${TF_E2E_TEMPLATES:-}" ]; then
		"$TF" gen --templates "$TF_E2E_TEMPLATES" "$@"
	else
		"$TF" gen "$@"
	fi
}

# The torchrun shim, first in PATH for the jobs: Debian's torch is
# importable only by /usr/bin/python3, and its torchrun needs a fix under
# Python 3.11 (tests/e2e/torchrun.py). It records where and how it was
# started, one line per start: node, job step (batch outside srun), args.
# On a real cluster only the node whose address is the endpoint (the batch
# step's, where generated scripts resolve it) hosts the c10d store; here
# every node has that address, so the shim says which one hosts (is_host,
# unless the script set --rdzv_conf itself), as the address would there:
# the batch host of the job the rendezvous ID names (JOBID or JOBID.ROUND,
# the job whose batch step started it: a mixed fleet's steps in its spot
# units' jobs included), else the first node of the job, of its first
# component in a heterogeneous job. The log line shows that choice among
# the arguments. SHIM_PATH is PATH with the shim first; the Slurm under
# test comes next (slurm_use).
shim_install() {
	mkdir -p "$TMP/bin"
	cat >"$TMP/bin/torchrun" <<EOF
#!/bin/sh
rid=""
for a in "\$@"; do
	case \$a in --rdzv_id=* | --rdzv-id=*) rid=\${a#*=} ;; esac
done
first=""
[ -z "\$rid" ] || first=\$(scontrol show job "\${rid%%.*}" 2>/dev/null | tr ' ' '\\n' | sed -n 's/^BatchHost=//p' | head -n 1)
[ -n "\$first" ] || first=\$(scontrol show hostnames "\${SLURM_JOB_NODELIST_HET_GROUP_0:-\${SLURM_JOB_NODELIST:-}}" 2>/dev/null | head -n 1)
case " \$* " in
*" --rdzv_conf"* | *" --rdzv-conf"*) ;;
*) if [ -n "\$first" ] && [ "\$first" = "\${SLURMD_NODENAME:-}" ]; then
	set -- --rdzv_conf=is_host=1 "\$@"
elif [ -n "\$first" ]; then
	set -- --rdzv_conf=is_host=0 "\$@"
fi ;;
esac
if [ -n "\${TF_E2E_SHIM_LOG:-}" ]; then
	printf '%s %s %s\\n' "\${SLURMD_NODENAME:-none}" "\${SLURM_STEP_ID:-batch}" "\$*" >>"\$TF_E2E_SHIM_LOG"
fi
exec /usr/bin/python3 '$ROOT/tests/e2e/torchrun.py' "\$@"
EOF
	chmod +x "$TMP/bin/torchrun"
	SHIM_PATH=$TMP/bin:$PATH
}

# --- what the real Slurm did -------------------------------------------------
# Each version-dependent claim the tests hold against a real Slurm leaves
# one row in OBSERVED (a TSV file; run.sh prints the rows of every run at
# the end and keeps them in $BUILD/e2e/observed.tsv):
#
#   slurm  claim  subject  expected  observed  detail
#
# slurm is the full version (25.11.7); claim names what is claimed (e.g.
# output-dir-created); subject what was tried (an option, a directory);
# expected and observed are verdicts: accept or reject (the job or command
# worked, or Slurm refused or failed it), or, where Slurm has more answers
# than two, the answer (ignore: srun took a value and ignored it;
# requeued, cancelled, ended: what became of a job or a component); detail
# the job state and what Slurm said, in a line. A row is written whether or not the two verdicts
# agree: the check's RESULT line says which.
observe() { # CLAIM SUBJECT EXPECTED OBSERVED DETAIL
	local detail=${5//$'\t'/ }
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$SLURM_VERSION" "$1" "$2" "$3" "$4" "${detail//$'\n'/ }" >>"$OBSERVED"
}

# trainforge's side of each observed claim: with --target slurm=SERIES,
# `trainforge lint` must give the script a claim was observed on the
# verdict the real Slurm gave. A refusal (reject, or a job requeued or
# cancelled where it should go on) must be a finding of the claim's rules
# at its level; an accept must be none. Claims no rule speaks to are named
# in one note at the end of the run (TF_TARGET_UNCHECKED).
tf_target_check() { # CLAIM SCRIPT OBSERVED
	local rules level refused found
	case $1 in
	option-* | srun-cpu-bind-rank) rules=SB1001,SB1002,SB1003,SB1004 level=error ;;
	output-dir-created) rules=SB2009 level=warning ;;
	hetjob-node-lost-without-job-no-kill) rules=SB2208 level=error ;;
	gen-*) rules=ALL level=error ;;
	*)
		case " ${TF_TARGET_UNCHECKED:-} " in
		*" $1 "*) ;;
		*) TF_TARGET_UNCHECKED="${TF_TARGET_UNCHECKED:+$TF_TARGET_UNCHECKED }$1" ;;
		esac
		return ;;
	esac
	case $3 in accept | ignore | ended) refused=no ;; *) refused=yes ;; esac
	found=$("$TF" lint --format concise -q --shellcheck off --target "$TF_TARGET" --select "$rules" \
		"$2" 2>/dev/null </dev/null | grep -E ": (error$([ "$level" = warning ] && echo '|warning')): ")
	if { [ -n "$found" ] && [ "$refused" = yes ]; } || { [ -z "$found" ] && [ "$refused" = no ]; }; then
		result pass "target/$1/$(basename "$2")" "Slurm $SLURM_VERSION: $3; trainforge --target $TF_TARGET: ${found:-no $level of $rules}"
	else
		result fail "target/$1/$(basename "$2")" "Slurm $SLURM_VERSION: $3; trainforge --target $TF_TARGET: ${found:-no $level of $rules}"
	fi
}
