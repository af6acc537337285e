# shellcheck shell=bash
# shellcheck disable=SC2034 # SHARED_UP is read by run.sh
# The e2e group "fleet", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh (result, note, job_wait...) and cluster.sh.
#
# The generated mixed-fleet job, trained for real: the mixed fleet
# example's spec shrunk to 2 reserved and 2 spot p5.4xlarge nodes of one
# worker each (one GPU each; framework megatron, TP 2, global batch 4: it
# trains at 2 and 4 nodes, not 3), with tests/e2e/fleet_train.py as the entry point, a loop
# that saves, resumes and saves on its signal as Megatron-LM does, from
# the line gen wrote. A cluster of its own: the reserved queue on node1 and
# node2, the spot queue on node3 and node4, each node a host of its own
# name (cluster.sh), a SlurmdTimeout short enough that a lost node is
# declared down within the run. The loop holds at an iteration the test
# names (--hold-file), so every event meets it at a known one.
#
# fleet/survive, one job through the life the design promises:
#   start     no spot node available (both drained): the reserved part
#             starts and trains at 2 nodes; the spot unit's job waits.
#   join      the spot nodes come back: the unit's job starts, the job asks
#             for a save (SIGUSR1: every rank saves at iteration 10) and
#             the next round trains at 4 nodes from iteration 10.
#   reclaim   a notice for node3 (the generated watcher against
#             tests/watcher/fake_imds.py on loopback): node3 drained, every
#             rank saves at iteration 20 and exits 0, which the job takes
#             as a round's end, not as done: the next round trains at 2
#             nodes from iteration 20, and the unit's job waits again.
#   rejoin    node3 comes back: the unit joins again from iteration 30.
#   completed the job ends COMPLETED at the planned iterations, with the
#             periodic saves of --save-interval 7 on the way.
# fleet/fault, a second job: a reserved node lost leaves 1 node (3 with
# the unit), which the layout cannot train: the job stops with its
# message and FAILED, without starting another round.
FLEET_ITERS=60
FLEET_INTERVAL=7

# Generates the variant's files into DIR/out from the mixed example; sets
# FL_SB, FL_WATCHER, FL_CKPT and FL_HOLD, or reports why not.
fleet_generate() { # NAME DIR
	local name=$1 dir=$2 example spec step
	example=$(grep -l '^ *spot: *[0-9]' "$ROOT"/examples/jobs/*.yaml 2>/dev/null | head -1)
	if [ -z "$example" ]; then
		result fail "fleet/$name/generate" "no example job spec with capacity.spot in examples/jobs"
		return 1
	fi
	spec=$dir/$name.yaml
	mkdir -p "$dir/out" "$dir/shared"
	FL_HOLD=$dir/shared/hold
	# p5.4xlarge, one GPU and so one worker a node: Megatron-LM runs on GPUs
	# only. Llama 3.2 1B's shape gives a save that fits in the notice (72 s
	# at the storage's write throughput); the tokens make 60 iterations.
	local edits=("name=$name" instance=p5.4xlarge -nodes capacity.reserved=2 capacity.spot=2
		capacity.max_restarts=2 processes_per_node=1 framework=megatron -software -cluster.os
		"parallel={tensor: 2}" "batch={micro: 1, global: 4}" -training
		"model={layers: 16, hidden_size: 2048, attention_heads: 32, query_groups: 8, ffn_hidden_size: 8192, vocab_size: 128256, tokens: $((FLEET_ITERS * 4 * 1024)), seq_length: 1024}"
		"storage.mount=$dir/shared" -storage.size_gib -time_limit -checkpoint
		"entry.script=$ROOT/tests/e2e/fleet_train.py"
		"entry.args=[--lr, '1e-4', --tokenizer-type, NullTokenizer, --mock-data, --step-time, '0.2', --hold-file, '$FL_HOLD']")
	# The interval: FLEET_INTERVAL steps at the plan's step time.
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$example" "$spec" "${edits[@]}" ||
		! step=$("$TF" plan --format json "$spec" 2>"$dir/plan.err" |
			$PY -c 'import json, sys; print(json.load(sys.stdin)["checkpoints"]["stepSeconds"])') ||
		! $PY "$ROOT/tests/e2e/spec_override.py" "$spec" "$spec" \
			"checkpoint={interval_minutes: $($PY -c "print(repr($FLEET_INTERVAL * $step / 60))")}" ||
		! tf_gen --force -o "$dir/out" "$spec" >"$dir/gen.log" 2>&1; then
		result fail "fleet/$name/generate" "spec_override.py, trainforge plan or gen failed ($(basename "$example"))"
		indent <"$dir/gen.log" 2>/dev/null
		indent <"$dir/plan.err" 2>/dev/null
		return 1
	fi
	FL_SB=$dir/out/$name.sbatch
	FL_WATCHER=$dir/out/$name-spot-watcher.sh
	FL_CKPT=$dir/shared/checkpoints/$name
	local problems=""
	grep -q '^#SBATCH hetjob' "$FL_SB" && problems="$problems; a heterogeneous job"
	grep -q -e "--save-interval $FLEET_INTERVAL\$" "$FL_SB" || problems="$problems; no --save-interval $FLEET_INTERVAL"
	grep -q -e '--exit-signal SIGUSR1$' "$FL_SB" || problems="$problems; no --exit-signal SIGUSR1"
	grep -q "^signal=USR1\$" "$FL_WATCHER" || problems="$problems; the watcher does not send USR1 (the plan says no save fits in the notice)"
	if [ -n "$problems" ]; then
		result fail "fleet/$name/generate" "${problems#; }"
		return 1
	fi
	result pass "fleet/$name/generate" "from $(basename "$example"): 2 reserved + a unit of 2 spot nodes, one worker each; --save-interval $FLEET_INTERVAL, --exit-signal SIGUSR1, the watcher sends USR1"
}

# The start lines of worker groups in the node logs, one per rank:
# "NODE WORLD RESUMED" (the node each rank ran on).
fleet_starts() { # RUN_DIR
	local f
	for f in "$1"/node-*.log; do
		[ -f "$f" ] || continue
		grep -o 'fleet_train rank=[0-9]* local_rank=[0-9]* node=[^ ]* world_size=[0-9]* resumed_iteration=[0-9]*' "$f" |
			sed 's/.* node=\([^ ]*\) world_size=\([0-9]*\) resumed_iteration=\([0-9]*\)/\1 \2 \3/'
	done
}

# Waits (bounded) until PATTERN is in the run's node logs; prints the match count.
fleet_wait_log() { # RUN_DIR PATTERN LIMIT
	local t n=0
	for ((t = 0; t < $3; t++)); do
		n=$(cat "$1"/node-*.log 2>/dev/null | grep -c -e "$2")
		[ "$n" -gt 0 ] && break
		sleep 1
	done
	echo "$n"
}

# Waits (bounded) until WORLD ranks have started at world WORLD, resumed at RESUMED.
fleet_wait_group() { # RUN_DIR WORLD RESUMED LIMIT
	local t
	for ((t = 0; t < $4; t++)); do
		[ "$(fleet_starts "$1" | awk -v w="$2" -v r="$3" '$2 == w && $3 == r' | wc -l)" -ge "$2" ] && return 0
		sleep 1
	done
	return 1
}

# Whether the ranks that started at world W resumed at I are exactly one on
# each of NODES (every rank's start line); prints what was seen when not.
fleet_group_is() { # RUN_DIR WORLD RESUMED NODES...
	local run_dir=$1 world=$2 resumed=$3 got want
	shift 3
	want=$(for n in "$@"; do echo "$n $world $resumed"; done | sort)
	got=$(fleet_starts "$run_dir" | awk -v w="$world" -v r="$resumed" '$2 == w && $3 == r' | sort)
	[ "$got" = "$want" ] && return 0
	echo "start lines (node world resumed): $(fleet_starts "$run_dir" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
	return 1
}

# The controller's own lines matching PATTERN in the job's log, counted.
fleet_job_lines() { # OUT_FILE PATTERN
	grep -c -e "$2" "$1" 2>/dev/null
}

fleet_unit_state() { # JOBNAME
	timeout 20 squeue -h -n "$1" -o %T 2>/dev/null | head -1
}

# The generated watcher, once, on node I (its UTS namespace: its own
# hostname, as a spot node's service sees it), against a notice served on
# loopback; prints its output.
fleet_notice() { # DIR I
	local dir=$1 i=$2 pid t ep out
	mkdir -p "$dir/imds"
	$PY "$ROOT/tests/watcher/fake_imds.py" "$dir/imds/port" "$dir/imds" &
	pid=$!
	for ((t = 0; t < 100; t++)); do [ -s "$dir/imds/port" ] && break; sleep 0.1; done
	ep=http://127.0.0.1:$(cat "$dir/imds/port" 2>/dev/null)
	printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$dir/imds/notice"
	out=$(nsenter --uts --target "${CLUSTER_PIDS[$i]}" -- timeout 120 bash "$FL_WATCHER" --once --endpoint "$ep" 2>&1)
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	printf '%s\n' "$out"
}

# Generates NAME's files into DIR and starts its cluster with no spot
# capacity (both spot nodes drained), the loop held at iteration HOLD, then
# submits the job: sets FL_ID, FL_SUB (the submit directory) and FL_RUN
# (the run's log directory), or reports why not (CASE's result) and
# returns 1 with no cluster left.
fleet_submit() { # CASE NAME DIR HOLD
	local case=$1 name=$2 dir=$3 rq sq
	fleet_generate "$name" "$dir" || return 1
	rq=$(sed -n 's/^#SBATCH --partition=//p' "$FL_SB" | head -1)
	sq=$(sed -n 's/.*--partition=\([^ ]*-spot\) .*/\1/p' "$FL_SB" | head -1)
	if ! CLUSTER_NODE_HOSTNAMES=1 CLUSTER_CONF_EXTRA=$'SlurmdTimeout=10\nSchedulerParameters=bf_interval=1' \
		cluster_start "$dir/slurm" 4 "$rq=node[1-2]" "$sq=node[3-4]"; then
		result fail "fleet/$case/cluster" "the local Slurm did not come up"
		return 1
	fi
	timeout 20 scontrol update nodename=node3,node4 state=DRAIN reason="no spot capacity"
	echo "$4" >"$FL_HOLD"
	FL_SUB=$dir/submit
	mkdir -p "$FL_SUB"
	FL_ID=$(cd "$FL_SUB" && PATH=$SHIM_PATH TF_E2E_SHIM_LOG=$dir/torchrun.log timeout 60 sbatch --parsable "$FL_SB" 2>"$dir/sbatch.err")
	if [ -z "$FL_ID" ]; then
		result fail "fleet/$case/submit" "sbatch refused the generated script"
		indent <"$dir/sbatch.err"
		cluster_stop
		return 1
	fi
	FL_RUN=$dir/shared/logs/$name/$FL_ID
}

fleet_survive() {
	local name=e2e-fleet dir=$TMP/fleet/survive id sub run_dir unit n out state t k seen=""
	fleet_submit survive "$name" "$dir" 10 || return
	id=$FL_ID sub=$FL_SUB run_dir=$FL_RUN
	unit=$name-spot-1

	# start: training at 2 nodes up to the hold, the unit waiting.
	n=$(fleet_wait_log "$run_dir" "fleet_train iteration=10 world_size=2" "${TF_E2E_JOB_LIMIT:-300}")
	state=$(fleet_unit_state "$unit")
	if [ "$n" -gt 0 ] && [ "$state" = PENDING ] && seen=$(fleet_group_is "$run_dir" 2 0 node1 node2); then
		result pass fleet/survive/start "job $id trains at world 2 on node1 and node2 (every rank from iteration 0) with no spot node; the unit's job $state"
	else
		result fail fleet/survive/start "iteration 10 at world 2: $n line(s); the unit's job '$state'; job $(job_state "$id"); $seen"
		tail -n 30 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
		timeout 20 scancel "$id"
		cluster_stop
		return
	fi

	# join: the spot nodes come back.
	timeout 20 scontrol update nodename=node3,node4 state=RESUME
	n=0
	fleet_wait_group "$run_dir" 4 10 180 && n=1
	if [ "$n" -gt 0 ] && grep -q "fleet_train saved iteration=10 signal=1" "$run_dir"/node-*.log &&
		seen=$(fleet_group_is "$run_dir" 4 10 node1 node2 node3 node4); then
		result pass fleet/survive/join "the unit's job $(timeout 20 squeue -h -n "$unit" -o %i) started: every rank saved at iteration 10 on SIGUSR1, and world 4 on node1-node4 resumed at 10"
	else
		result fail fleet/survive/join "signal save at iteration 10 and world 4 resumed there: ${seen:-not seen}"
		tail -n 30 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
	fi
	echo 20 >"$FL_HOLD"

	# reclaim: a notice for node3.
	n=$(fleet_wait_log "$run_dir" "fleet_train iteration=20 world_size=4" 120)
	out=$(fleet_notice "$dir" 3)
	n=0
	fleet_wait_group "$run_dir" 2 20 180 && n=1
	local nstate
	nstate=$(timeout 20 scontrol show node node3 | sed -n 's/.* State=\([^ ]*\).*/\1/p')
	if [ "$n" -gt 0 ] && printf '%s\n' "$out" | grep -q 'sent SIGUSR1 to 1 worker(s)' &&
		printf '%s\n' "$out" | grep -q 'the workers saved and exited' &&
		grep -q "fleet_train saved iteration=20 signal=1" "$run_dir"/node-*.log && [[ $nstate == *DRAIN* ]] &&
		seen=$(fleet_group_is "$run_dir" 2 20 node1 node2); then
		result pass fleet/survive/reclaim "the watcher drained node3 ($nstate) and sent SIGUSR1; every rank saved at iteration 20 and exited 0; world 2 on node1 and node2 resumed at 20"
	else
		result fail fleet/survive/reclaim "watcher: $(printf '%s' "$out" | tr '\n' ' '); node3 $nstate; ${seen:-}"
		tail -n 30 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
	fi
	state=$(fleet_unit_state "$unit")
	[ "$state" = PENDING ] || note "after the reclaim the unit's job is '$state', expected PENDING"
	echo 30 >"$FL_HOLD"

	# rejoin: node3 comes back.
	n=$(fleet_wait_log "$run_dir" "fleet_train iteration=30 world_size=2" 120)
	timeout 20 scontrol update nodename=node3 state=RESUME
	n=0
	fleet_wait_group "$run_dir" 4 30 180 && n=1
	if [ "$n" -gt 0 ] && grep -q "fleet_train saved iteration=30 signal=1" "$run_dir"/node-*.log &&
		seen=$(fleet_group_is "$run_dir" 4 30 node1 node2 node3 node4); then
		result pass fleet/survive/rejoin "node3 back: the unit joined again; every rank saved at iteration 30, world 4 resumed there"
	else
		result fail fleet/survive/rejoin "signal save at iteration 30 and world 4 resumed there: ${seen:-not seen}"
		tail -n 30 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
	fi
	rm -f "$FL_HOLD"

	# completed
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	local problems="" latest
	latest=$(cat "$FL_CKPT/latest_checkpointed_iteration.txt" 2>/dev/null)
	[ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ] || problems="$problems; job $state, exit $(job_field "$id" ExitCode)"
	grep -q "fleet_train done iteration=$FLEET_ITERS world_size=4" "$run_dir"/node-*.log || problems="$problems; no 'done iteration=$FLEET_ITERS' at world 4"
	[ "$latest" = "$FLEET_ITERS" ] || problems="$problems; latest checkpoint '$latest', expected $FLEET_ITERS"
	for k in 7 14 35; do
		[ -d "$FL_CKPT/iter_$(printf %07d "$k")" ] || problems="$problems; no periodic save at iteration $k"
	done
	for ((t = 0; t < 30; t++)); do
		state=$(fleet_unit_state "$unit")
		[ -z "$state" ] && break
		sleep 1
	done
	[ -z "$state" ] || problems="$problems; the unit's job is still $state after the job"
	if [ -z "$problems" ]; then
		result pass fleet/survive/completed "job $id COMPLETED 0:0 at iteration $FLEET_ITERS (latest checkpoint $latest; periodic saves at 7, 14, 35; $(fleet_job_lines "$sub/$name-$id.out" 'trainforge: .* round [0-9]*: [0-9]* nodes') rounds); the unit's job ended with it"
	else
		result fail fleet/survive/completed "${problems#; }"
		timeout 20 scontrol show job "$id" | indent 40
		tail -n 40 "$sub"/*.out 2>/dev/null | indent 80
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
	observe gen-fleet-survives "reserved start, join, reclaim notice, rejoin" accept \
		"$([ -z "$problems" ] && echo accept || echo reject)" "job $id $(job_state "$id"), ExitCode=$(job_field "$id" ExitCode)"
	tf_target_check gen-fleet-survives "$FL_SB" "$([ -z "$problems" ] && echo accept || echo reject)"
	note "survive: $(grep -h '^trainforge:' "$sub"/*.out 2>/dev/null | sed 's/^trainforge: [^ ]* //' | tr '\n' '|' | cut -c1-600)"
	cluster_stop
}

# A reserved node lost: the job stops with its message, once.
fleet_fault() {
	local name=e2e-fleet-fault dir=$TMP/fleet/fault id sub run_dir n state lost msg rounds
	fleet_submit fault "$name" "$dir" 5 || return
	id=$FL_ID sub=$FL_SUB run_dir=$FL_RUN
	n=$(fleet_wait_log "$run_dir" "fleet_train iteration=5 world_size=2" "${TF_E2E_JOB_LIMIT:-300}")
	if [ "$n" = 0 ]; then
		result fail fleet/fault/start "job $id did not train at world 2"
		tail -n 30 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
		cluster_stop
		return
	fi
	# node2 vanishes: its slurmd, slurmstepd, torchrun and workers at once.
	local pids=()
	mapfile -t pids < <(cluster_node_pids 2)
	lost="SIGKILL to the ${#pids[@]} processes of node2"
	kill -KILL "${pids[@]}" 2>/dev/null
	wait "${CLUSTER_PIDS[2]}" 2>/dev/null
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	msg=$(grep -h 'The job stops here' "$sub/$name-$id.out" 2>/dev/null | head -1)
	rounds=$(grep -c 'trainforge: .* round [0-9]*: [0-9]* nodes' "$sub/$name-$id.out" 2>/dev/null)
	if [ "$state" = FAILED ] && [ -n "$msg" ] && [ "$rounds" = 1 ]; then
		result pass fleet/fault/stopped "$lost; job $id FAILED after 1 round: ${msg#trainforge: }"
	else
		result fail fleet/fault/stopped "$lost; job $id $state after $rounds round(s); message '${msg:-none}'"
		tail -n 30 "$sub"/*.out 2>/dev/null | indent 80
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
	observe gen-fleet-untrainable-stops "a reserved node lost: 1 of 2 left" reject \
		"$([ "$state" = FAILED ] && echo reject || echo accept)" "job $id $state after $rounds round(s)"
	cluster_stop
}

group_fleet() {
	# This group's clusters replace the shared one, for as long as it runs.
	cluster_stop
	SHARED_UP="" # read by run.sh's group loop
	fleet_survive
	fleet_fault
}
