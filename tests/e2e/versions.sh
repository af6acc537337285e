# shellcheck shell=bash
# The e2e group "versions", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# What a Slurm does differently from another, held against the one under
# test. Each claim names the release that changed it; the check expects the
# old behaviour before that release and the new one from it on, and leaves
# a row of what really happened (observe). The options that releases added
# or removed are the options group's (options.sh); here, after a check
# that the jobs' srun is the Slurm under test:
#
#   output-dir-created  23.02 creates missing directories of --output and
#                       --error ("Automatically create directories for
#                       stdout/stderr output files"); before, the job fails
#   srun-cpu-bind-rank  24.11 dropped rank binding: srun --cpu-bind=rank is
#                       a binding type before, ignored with a message from it

# A batch job that only writes a line to each of its files.
versions_script() { # FILE DIRECTIVE...
	local f=$1 l
	shift
	{
		echo "#!/bin/bash"
		echo "#SBATCH --partition=$DEFAULT_PART"
		for l in "$@"; do echo "#SBATCH $l"; done
		echo "echo out; echo err >&2"
	} >"$f"
}

# Submits a script from DIR, waits for its end; sets V_ID and V_STATE and
# V_DETAIL (state, reason and exit code as scontrol shows them).
versions_run() { # DIR SCRIPT
	V_ID=$(cd "$1" && timeout 60 sbatch --parsable "$2" 2>"$1/sbatch.err")
	V_STATE=SUBMIT-REFUSED V_DETAIL="sbatch: $(head -1 "$1/sbatch.err")"
	[ -n "$V_ID" ] || return 0
	V_STATE=$(job_wait "$V_ID" "${TF_E2E_JOB_LIMIT:-300}")
	V_DETAIL="job $V_ID $V_STATE, Reason=$(job_field "$V_ID" Reason), ExitCode=$(job_field "$V_ID" ExitCode)"
}

# A missing directory of --output (relative to the submission directory)
# and one of --error (absolute): from 23.02 the job COMPLETED and the
# directory holds its file; before, the job fails at launch and nothing
# is created.
versions_output_dirs() {
	local d=$TMP/versions/outdir kind dir want got s made_it
	local -A directive=(
		[relative]="--output=rel-missing/sub/%x-%j.out"
		[absolute]="--error=$d/abs-missing/sub/%j.err"
	)
	local -A made=([relative]=$d/submit/rel-missing/sub [absolute]=$d/abs-missing/sub)
	want=reject
	slurm_at_least 23.02 && want=accept
	mkdir -p "$d/submit"
	for kind in relative absolute; do
		s=$d/submit/$kind.sbatch
		versions_script "$s" "--output=$kind-%j.out" "${directive[$kind]}"
		versions_run "$d/submit" "$s"
		dir=${made[$kind]}
		got=reject
		if [ "$V_STATE" = COMPLETED ] && [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
			got=accept
		fi
		made_it="not created"
		[ -d "$dir" ] && made_it=created
		# (The row names the test's directory DIR: it is new each run.)
		observe output-dir-created "$kind ${directive[$kind]//$d/DIR}" "$want" "$got" "$V_DETAIL; directory $made_it"
		tf_target_check output-dir-created "$s" "$got"
		# Before 23.02 the job must fail, not just not complete.
		if [ "$got" = "$want" ] && { [ "$want" = accept ] || [ "$V_STATE" = FAILED ]; }; then
			result pass "versions/output-dir-created/$kind" "${directive[$kind]}: $V_DETAIL; directory $made_it"
		else
			result fail "versions/output-dir-created/$kind" "${directive[$kind]}: expected $want (the directory is created from 23.02 on), got $V_DETAIL, directory $made_it"
			indent <"$d/submit/sbatch.err"
		fi
	done
}

# srun --cpu-bind=rank in a batch step, and a value no srun knows as the
# control: srun must refuse that one, so rank's verdict is srun's parse.
# (task/none here: 22.05's srun also says the cluster binds nothing.)
versions_cpu_bind_rank() {
	local d=$TMP/versions/cpubind s want got msg
	mkdir -p "$d"
	s=$d/cpubind.sbatch
	{
		echo "#!/bin/bash"
		echo "#SBATCH --partition=$DEFAULT_PART"
		echo "#SBATCH --nodes=2"
		echo "#SBATCH --output=$d/%j.out"
		echo 'srun --ntasks-per-node=1 --cpu-bind=rank true 2>rank.err; echo "rank $?"'
		echo 'srun --ntasks-per-node=1 --cpu-bind=no-such-type true 2>bogus.err; echo "bogus $?"'
	} >"$s"
	versions_run "$d" "$s"
	want=accept
	slurm_at_least 24.11 && want=ignore
	got=accept
	if ! grep -qx 'rank 0' "$d/$V_ID.out" 2>/dev/null; then
		got=reject
	elif grep -qi 'ignoring --cpu-bind=rank' "$d/rank.err"; then
		got=ignore
	fi
	msg=$(tr '\n' ' ' <"$d/rank.err" 2>/dev/null)
	observe srun-cpu-bind-rank "srun --cpu-bind=rank" "$want" "$got" "$V_DETAIL; srun said: ${msg:-nothing}"
	tf_target_check srun-cpu-bind-rank "$s" "$got"
	if [ "$V_STATE" != COMPLETED ] || ! grep -qx 'bogus [1-9][0-9]*' "$d/$V_ID.out" 2>/dev/null ||
		! grep -q 'cpu-bind' "$d/bogus.err"; then
		result fail versions/srun-cpu-bind-rank "the control --cpu-bind=no-such-type did not fail srun alone ($V_DETAIL)"
		cat "$d/$V_ID.out" "$d/bogus.err" 2>/dev/null | indent
	elif [ "$got" = "$want" ]; then
		result pass versions/srun-cpu-bind-rank "srun --cpu-bind=rank: $got (srun said: ${msg:-nothing}); --cpu-bind=no-such-type fails srun: $(head -1 "$d/bogus.err"); $V_DETAIL"
	else
		result fail versions/srun-cpu-bind-rank "expected $want (rank binding went in 24.11), got $got; srun said: ${msg:-nothing}"
	fi
}

# The jobs must find the Slurm under test first on PATH (they inherit the
# submitter's): another release's srun cannot talk to this controller.
versions_job_srun() {
	local d=$TMP/versions/path s said
	mkdir -p "$d"
	s=$d/path.sbatch
	{
		echo "#!/bin/bash"
		echo "#SBATCH --partition=$DEFAULT_PART"
		echo "#SBATCH --output=$d/%j.out"
		# shellcheck disable=SC2016 # expanded in the job
		echo 'echo "srun $(command -v srun) $(srun --version)"'
	} >"$s"
	versions_run "$d" "$s"
	said=$(grep -m1 '^srun ' "$d/$V_ID.out" 2>/dev/null)
	case $said in
	"srun $(command -v srun) "*" $SLURM_VERSION")
		result pass versions/job-srun "the batch step's srun is this Slurm's: ${said#srun }" ;;
	*) result fail versions/job-srun "the batch step found '${said#srun }' ($V_DETAIL), not $(command -v srun) of $SLURM_VERSION" ;;
	esac
}

group_versions() {
	versions_job_srun
	versions_output_dirs
	versions_cpu_bind_rank
}
