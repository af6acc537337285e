# shellcheck shell=bash
# The e2e group "requeue", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# Opt-in (`run.sh requeue`): a requeued job keeps its first logs.
# A job on spot capacity is requeued when its nodes are reclaimed, and a
# job with --requeue after a node failure; the same job id runs again. The
# first attempt's logs say why it died, so they must survive the second.
# Not in the default groups: generated scripts lose them today (see the
# e2e report: --open-mode=append is the proposed fix).
group_requeue() {
	local name=e2e-requeue dir=$TMP/requeue spec sb id state run_dir shared sub t r problems held
	shared=$dir/shared
	sub=$dir/submit
	mkdir -p "$dir/out" "$sub" "$shared"
	spec=$dir/$name.yaml
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$ROOT/examples/jobs/gpt-13b-p4d.yaml" "$spec" \
		"name=$name" nodes=2 processes_per_node=2 framework=plain -parallel -batch -model \
		"storage.mount=$shared" "entry.script=$ROOT/tests/e2e/check_dist.py" \
		"entry.args=[--out, $shared/results, --world, '4', --hold-first-attempt, '900']" time_limit=30 ||
		! tf_gen --force -o "$dir/out" "$spec" >"$dir/gen.log" 2>&1; then
		result fail requeue/generate "spec_override.py or trainforge gen failed"
		indent <"$dir/gen.log" 2>/dev/null
		return
	fi
	sb=$dir/out/$name.sbatch
	id=$(cd "$sub" && PATH=$SHIM_PATH timeout 60 sbatch --parsable "$sb" 2>"$dir/sbatch.err")
	if [ -z "$id" ]; then
		result fail requeue/submit "sbatch refused the generated script"
		indent <"$dir/sbatch.err"
		return
	fi
	run_dir=$shared/logs/$name/$id
	# Wait (bounded) until all four workers of the first attempt hold.
	for ((t = 0; t < 300; t++)); do
		held=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -c 'attempt 0: holding')
		[ "$held" -ge 4 ] && break
		sleep 1
	done
	if [ "$held" -lt 4 ]; then
		result fail requeue/first-attempt "$held of 4 workers started in job $id"
		timeout 20 scancel "$id"
		return
	fi
	timeout 20 scontrol requeue "$id"
	# A requeued job waits before it is eligible again; make it eligible now.
	for ((t = 0; t < 60; t++)); do
		[ "$(job_state "$id")" = PENDING ] && timeout 20 scontrol update JobId="$id" StartTime=now >/dev/null 2>&1 && break
		sleep 1
	done
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	if [ "$state" = COMPLETED ] && [ "$(job_field "$id" Restarts)" = 1 ] &&
		problems=$($PY "$ROOT/tests/e2e/check_dist.py" --verify "$shared/results" --world 4 --nodes 2 2>&1); then
		result pass requeue/completed "job $id requeued once, then COMPLETED with 4 ranks"
	else
		result fail requeue/completed "job $id: $state, Restarts=$(job_field "$id" Restarts)"
		printf '%s\n' "${problems:-}" | indent
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
	problems=""
	for ((r = 0; r < 4; r++)); do
		grep -q "check_dist rank $r attempt 0: holding" "$run_dir"/node-*.log 2>/dev/null ||
			problems="$problems; rank $r's first-attempt line is gone"
		grep -q "check_dist rank $r .*attempt 1): ok" "$run_dir"/node-*.log 2>/dev/null ||
			problems="$problems; rank $r's second-attempt line is missing"
	done
	if [ -z "$problems" ]; then
		result pass requeue/node-logs "both attempts in $(cd "$run_dir" && echo node-*.log)"
	else
		result fail requeue/node-logs "the requeued attempt overwrote $run_dir/node-*.log:${problems#;}"
	fi
	if grep -q 'DUE TO JOB REQUEUE' "$sub/$name-$id.out" 2>/dev/null; then
		result pass requeue/slurm-log "$name-$id.out still says why the first attempt ended"
	else
		result fail requeue/slurm-log "the requeued attempt overwrote $name-$id.out (no 'DUE TO JOB REQUEUE' left)"
	fi
}
