# shellcheck shell=bash
# shellcheck disable=SC2034 # SHARED_UP is read by run.sh
# The e2e group "elastic", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh (result, note, job_wait...) and cluster.sh.

# A mixed reserved+spot job survives losing its spot node.
# The mixed fleet example's generated script, shrunk to 2 reserved and 1
# spot node of 2 workers each, with tests/e2e/elastic_train.py as the entry
# point (a checkpoint every step, the latest resumed at every start, and
# SIGUSR1 makes every rank save at the next step), on a cluster of its
# own: the reserved queue on node1 and node2, the spot queue on node3,
# every node a host of its own name (cluster.sh), a SlurmdTimeout short
# enough that the lost node is declared down within the run, and a
# backfill pass every second (Slurm starts heterogeneous jobs only there).
# Each variant runs on a fresh cluster and takes node3 away mid-run:
#   kill   the node vanishes: its slurmd, slurmstepd, torchrun and workers
#          are SIGKILLed at once.
#   drain  a spot interruption: the generated spot watcher runs on node3
#          against a stand-in metadata service with a notice
#          (tests/watcher/fake_imds.py); it drains node3 and sends SIGUSR1
#          to the workers there, and every rank saves a checkpoint at the
#          next step. Then the node shuts down: SIGTERM to its processes,
#          as at a shutdown (torchrun exits with an error, which srun
#          reports), SIGKILL to what is left after 5 seconds.
# Either way the reserved nodes must go on alone (torchrun restarts their
# workers: world 6 -> 4, from the latest checkpoint) and the job must end
# COMPLETED. Two more variants take a flag out of the generated script and
# lose node3 as kill does, to show on each real Slurm why the flag is there:
#   unguarded  without the first component's --no-kill (the job's): the
#          job does not go on. What Slurm does instead differs by release
#          (ELASTIC_UNGUARDED, observed): 22.05 requeues the whole job, 25.11
#          cancels it.
#   requeued   without the spot component's --no-requeue: the job still
#          COMPLETES, but Slurm requeues the spot component alone, and it
#          is left PENDING after the job.
# The shared cluster is stopped first; the next group that needs it starts
# it again.
ELASTIC_STEPS=40 # 0.5 s each: about 20 s of training at world 6
ELASTIC_LOST_AT=8
# The variant's line taken out of the generated script (its first one).
declare -A ELASTIC_WITHOUT=(
	[unguarded]="#SBATCH --no-kill"
	[requeued]="#SBATCH --no-requeue"
)
# How the unguarded job ends, by Slurm release: as the real ones did.
declare -A ELASTIC_UNGUARDED=([22.05]=requeued [25.11]=cancelled)

# Generates the variant's script into DIR/out; sets EL_SB, EL_WATCHER and
# EL_CKPT, or reports why not.
elastic_generate() { # VARIANT DIR
	local v=$1 dir=$2 example spec
	example=$(grep -l '^ *spot: *[0-9]' "$ROOT"/examples/jobs/*.yaml 2>/dev/null | head -1)
	if [ -z "$example" ]; then
		result fail "elastic/$v/generate" "no example job spec with capacity.spot in examples/jobs"
		return 1
	fi
	spec=$dir/e2e-elastic-$v.yaml
	mkdir -p "$dir/out" "$dir/shared"
	# g5: a Trainium spec would put its Neuron compile cache on the
	# temporary (node-local) storage, which gen refuses. The batch divides
	# at both ends: DP 4 (2 nodes) and DP 6 (3 nodes).
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$example" "$spec" \
		"name=e2e-elastic-$v" instance=g5.48xlarge -nodes capacity.reserved=2 capacity.spot=1 \
		capacity.max_restarts=3 processes_per_node=2 framework=plain -parallel -model \
		"batch={micro: 1, global: 12}" "storage.mount=$dir/shared" -time_limit \
		"entry.script=$ROOT/tests/e2e/elastic_train.py" \
		"entry.args=[--steps, '$ELASTIC_STEPS', --step-time, '0.5']" ||
		! tf_gen --force -o "$dir/out" "$spec" >"$dir/gen.log" 2>&1; then
		result fail "elastic/$v/generate" "spec_override.py or trainforge gen failed ($(basename "$example"))"
		indent <"$dir/gen.log" 2>/dev/null
		return 1
	fi
	EL_SB=$dir/out/e2e-elastic-$v.sbatch
	EL_WATCHER=$dir/out/e2e-elastic-$v-spot-watcher.sh
	EL_CKPT=$dir/shared/checkpoints/e2e-elastic-$v
	if ! grep -q '^#SBATCH hetjob' "$EL_SB" || [ "$(grep -c '^#SBATCH --partition=' "$EL_SB")" != 2 ]; then
		result fail "elastic/$v/generate" "$(basename "$EL_SB") is not a heterogeneous job of two queues"
		return 1
	fi
	local without=${ELASTIC_WITHOUT[$v]:-} at het whose="the spot component's"
	if [ -n "$without" ]; then
		at=$(grep -n -x -F -m1 -e "$without" "$EL_SB" | cut -d: -f1)
		het=$(grep -n -m1 '^#SBATCH hetjob' "$EL_SB" | cut -d: -f1)
		if [ -z "$at" ] || ! { awk -v l="$without" '!gone && $0 == l {gone = 1; next} 1' "$EL_SB" >"$EL_SB.new" &&
			mv "$EL_SB.new" "$EL_SB"; }; then
			result fail "elastic/$v/generate" "$(basename "$EL_SB") has no line '$without' to take out"
			return 1
		fi
		[ "$at" -lt "$het" ] && whose="the first component's"
		without=", without $whose '$without' (line $at)"
	fi
	result pass "elastic/$v/generate" "from $(basename "$example"): 2 reserved + 1 spot node, 2 workers each$without"
}

# The workers' start lines and the end of the run, from the node logs:
# prints one line per problem, or the summary on the last line.
#   start NODES...          every node's 2 workers in one world of 6
#   end LOST_AT RESERVED... the reserved nodes' last worker group: world 4,
#                           restarted, resumed at LOST_AT or later; done
elastic_logs() { # RUN_DIR start|end ARGS...
	$PY - "$@" <<'PYEOF'
import os, re, sys
run_dir, phase, args = sys.argv[1], sys.argv[2], sys.argv[3:]
start = re.compile(r"elastic_train rank=(\d+) local_rank=(\d+) node=(\S+) "
                   r"world_size=(\d+) restart=(\d+) resumed_step=(\d+)")
def records(node):
    # By match, not by line: a record may share a line with another.
    try:
        with open(os.path.join(run_dir, f"node-{node}.log"), errors="replace") as f:
            return f.read()
    except OSError:
        return None
problems = []
if phase == "start":
    ranks = set()
    for node in args:
        text = records(node)
        if text is None:
            problems.append(f"no node-{node}.log")
            continue
        first = [tuple(map(int, (m[1], m[2], m[4], m[5], m[6]))) + (m[3],)
                 for m in start.finditer(text) if m[5] == "0"]
        if sorted(f[1] for f in first) != [0, 1] or any(f[2] != 6 or f[4] != 0 or f[5] != node for f in first):
            problems.append(f"node-{node}.log: first worker group {first}, expected local ranks 0 and 1 "
                            f"of world 6 at step 0 on {node}")
        ranks.update(f[0] for f in first)
    if sorted(ranks) != list(range(6)):
        problems.append(f"global ranks {sorted(ranks)}, expected 0-5")
    summary = f"world 6: 2 workers on each of {' '.join(args)} (node-NODE.log each)"
else:
    lost_at, reserved = int(args[0]), args[1:]
    resumed, ranks, done = set(), set(), False
    for node in reserved:
        text = records(node) or ""
        groups = list(start.finditer(text))
        last = max((int(m[5]) for m in groups), default=0)
        final = [m for m in groups if int(m[5]) == last]
        if last < 1 or len(final) != 2 or any(m[4] != "4" for m in final):
            problems.append(f"node-{node}.log: last worker group "
                            f"{[m.group(0).split(' ', 1)[1] for m in final]}, expected 2 workers "
                            "of world 4 after a restart")
        resumed.update(int(m[6]) for m in final)
        ranks.update(int(m[1]) for m in final)
        done = done or re.search(r"elastic_train done step=\d+ world_size=4\b", text) is not None
    if len(resumed) != 1 or min(resumed, default=0) < lost_at:
        problems.append(f"resumed at steps {sorted(resumed)}, expected one step, {lost_at} or later")
    if sorted(ranks) != [0, 1, 2, 3]:
        problems.append(f"the restarted ranks are {sorted(ranks)}, expected 0-3")
    if not done:
        problems.append("no 'elastic_train done ... world_size=4' line: training did not finish at world 4")
    summary = (f"world 6 -> 4 on {' '.join(reserved)}, restarted, resumed at step "
               f"{min(resumed, default=0)} (lost after step {lost_at} or later), finished at world 4")
for p in problems:
    print(p)
if not problems:
    print(summary)
sys.exit(1 if problems else 0)
PYEOF
}

# Takes node3 away: SIGKILL to all its processes (kill and the variants
# like it), or (drain) SIGTERM first and SIGKILL to what is left after
# 5 s. Prints what it did.
elastic_lose_node() { # drain|VARIANT
	local pids=() p t left
	mapfile -t pids < <(cluster_node_pids 3)
	local comms=()
	for p in "${pids[@]}"; do comms+=("$(cat "/proc/$p/comm" 2>/dev/null)"); done
	if [ ${#pids[@]} -lt 2 ]; then
		echo "node3 has ${#pids[@]} processes (pids ${pids[*]}), expected slurmd and a job step"
		return 1
	fi
	if [ "$1" = drain ]; then
		kill -TERM "${pids[@]}" 2>/dev/null
		for ((t = 0; t < 10; t++)); do
			left=0
			for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
			[ $left = 0 ] && break
			sleep 0.5
		done
		echo "SIGTERM to the ${#pids[@]} processes of node3 (${comms[*]}), SIGKILL to the $left left after it"
	else
		echo "SIGKILL to the ${#pids[@]} processes of node3: ${comms[*]}"
	fi
	kill -KILL "${pids[@]}" 2>/dev/null
	return 0
}

elastic_variant() { # kill|drain|unguarded|requeued
	local v=$1 dir=$TMP/elastic/$1 rq sq id t run_dir problems state spot_state lost step imds_pid=""
	local sub=$dir/submit ep out lost_at
	elastic_generate "$v" "$dir" || return
	rq=$(sed -n 's/^#SBATCH --partition=//p' "$EL_SB" | sed -n 1p)
	sq=$(sed -n 's/^#SBATCH --partition=//p' "$EL_SB" | sed -n 2p)
	if ! CLUSTER_NODE_HOSTNAMES=1 CLUSTER_CONF_EXTRA=$'SlurmdTimeout=10\nSchedulerParameters=bf_interval=1' \
		cluster_start "$dir/slurm" 3 "$rq=node[1-2]" "$sq=node3"; then
		result fail "elastic/$v/cluster" "the local Slurm did not come up"
		return
	fi
	result pass "elastic/$v/cluster" "$rq on node1 and node2, $sq on node3, each node its own host"
	mkdir -p "$sub"
	id=$(cd "$sub" && PATH=$SHIM_PATH TF_E2E_SHIM_LOG=$dir/torchrun.log \
		timeout 60 sbatch --parsable "$EL_SB" 2>"$dir/sbatch.err")
	if [ -z "$id" ]; then
		result fail "elastic/$v/submit" "sbatch refused the generated script"
		indent <"$dir/sbatch.err"
		cluster_stop
		return
	fi
	result pass "elastic/$v/submit" "heterogeneous job $id"
	run_dir=$dir/shared/logs/e2e-elastic-$v/$id

	# Wait (bounded) until training runs on all three nodes, past step
	# ELASTIC_LOST_AT (rank 0's "step=N world_size=6" lines).
	step=0
	for ((t = 0; t < ${TF_E2E_JOB_LIMIT:-300}; t++)); do
		step=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o 'elastic_train step=[0-9]* world_size=6' | sed 's/.*step=\([0-9]*\) .*/\1/' | sort -n | tail -1)
		step=${step:-0}
		[ "$step" -ge "$ELASTIC_LOST_AT" ] && break
		case $(job_state "$id") in PENDING | RUNNING | CONFIGURING | "") ;; *) break ;; esac
		sleep 1
	done
	if problems=$(elastic_logs "$run_dir" start node1 node2 node3) && [ "$step" -ge "$ELASTIC_LOST_AT" ]; then
		result pass "elastic/$v/start" "$problems; at step $step"
	else
		result fail "elastic/$v/start" "training at step $step, job $(job_state "$id")"
		printf '%s\n' "$problems" | indent
		tail -n 20 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 60
		timeout 20 scancel "$id"
		cluster_stop
		return
	fi

	# The batch step, the rendezvous endpoint and the c10d store are on the
	# first reserved node; one torchrun per node, the spot node's included.
	local batch_host want_ep="$HEAD_IP:29500" nodes_seen hosts
	batch_host=$(job_field "$id" BatchHost)
	nodes_seen=$(awk '{print $1}' "$dir/torchrun.log" 2>/dev/null | sort | tr '\n' ' ')
	hosts=$(grep -e '--rdzv_conf=is_host=1 ' "$dir/torchrun.log" 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
	problems=""
	[ "$batch_host" = node1 ] || problems="$problems; the batch step runs on '$batch_host', not node1"
	[ "$nodes_seen" = "node1 node2 node3 " ] || problems="$problems; torchrun started on '$nodes_seen'"
	[ "$hosts" = "node1 " ] || problems="$problems; the c10d store is on '$hosts'"
	grep -v -e "--rdzv_endpoint=$want_ep " "$dir/torchrun.log" | grep -q . &&
		problems="$problems; a torchrun without --rdzv_endpoint=$want_ep"
	grep -v -e "--nnodes=2:3 " "$dir/torchrun.log" | grep -q . && problems="$problems; a torchrun without --nnodes=2:3"
	if [ -z "$problems" ]; then
		result pass "elastic/$v/rendezvous" "batch step and c10d store on node1 (reserved), endpoint $want_ep, torchrun --nnodes=2:3 on node1 node2 node3"
	else
		result fail "elastic/$v/rendezvous" "${problems#; }"
		indent <"$dir/torchrun.log"
	fi

	if [ "$v" = drain ]; then
		# The notice, then the generated watcher, run once on node3 (its
		# UTS namespace: hostname node3, as a spot node's service sees it).
		mkdir -p "$dir/imds"
		$PY "$ROOT/tests/watcher/fake_imds.py" "$dir/imds/port" "$dir/imds" &
		imds_pid=$!
		for ((t = 0; t < 100; t++)); do [ -s "$dir/imds/port" ] && break; sleep 0.1; done
		ep=http://127.0.0.1:$(cat "$dir/imds/port" 2>/dev/null)
		printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$dir/imds/notice"
		out=$(nsenter --uts --target "${CLUSTER_PIDS[3]}" -- timeout 30 bash "$EL_WATCHER" --once --endpoint "$ep" 2>&1)
		kill "$imds_pid" 2>/dev/null
		wait "$imds_pid" 2>/dev/null
		local nstate reason
		nstate=$(timeout 20 scontrol show node node3 | sed -n 's/.* State=\([^ ]*\).*/\1/p')
		reason=$(timeout 20 scontrol show node node3 | sed -n 's/^ *Reason=//p')
		if [[ $nstate == *DRAIN* ]] && [[ $reason == "spot interruption notice"* ]] &&
			printf '%s\n' "$out" | grep -q 'sent SIGUSR1 to 2 worker(s)'; then
			result pass "elastic/drain/watcher" "node3 $nstate ($reason); $(printf '%s\n' "$out" | tail -1)"
		else
			result fail "elastic/drain/watcher" "node3 $nstate, reason '$reason'"
			printf '%s\n' "$out" | indent
		fi
		# Every rank saves at the same step boundary, signalled or not.
		local sig="" saved=0 r
		for ((t = 0; t < 60; t++)); do
			saved=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o 'saved signal checkpoint step=' | wc -l)
			[ "$saved" -ge 6 ] && break
			sleep 1
		done
		sig=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o 'saved signal checkpoint step=[0-9]*' | sed 's/.*=//' | sort -u | tr '\n' ' ')
		problems=""
		[ "$saved" = 6 ] || problems="$problems; $saved ranks saved on the signal, expected 6"
		[ "$(echo "$sig" | wc -w)" = 1 ] || problems="$problems; at steps '$sig', expected one"
		for ((r = 0; r < 6; r++)); do
			[ -f "$EL_CKPT/signal-${sig% }/rank-$r.pt" ] || problems="$problems; no signal-${sig% }/rank-$r.pt"
		done
		if [ -z "$problems" ]; then
			result pass "elastic/drain/checkpoint" "SIGUSR1 on node3's 2 workers: all 6 ranks saved at step ${sig% } (CHECKPOINT_DIR/signal-${sig% }/rank-R.pt)"
		else
			result fail "elastic/drain/checkpoint" "${problems#; }"
		fi
		# Training resumes from there or later.
		lost_at=${sig% }
		lost_at=${lost_at:-0}
	else
		# The latest checkpoint is this step's or a later one.
		lost_at=$step
	fi

	if lost=$(elastic_lose_node "$v"); then
		result pass "elastic/$v/node-lost" "$lost"
	else
		result fail "elastic/$v/node-lost" "$lost"
	fi
	# Collect node3's slurmd here, quietly (bash reports a killed job).
	wait "${CLUSTER_PIDS[3]}" 2>/dev/null
	if [ "$v" = unguarded ]; then
		elastic_unguarded_end "$id" "$sub"
		cluster_stop
		return
	fi
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	# The spot component ends when Slurm declares node3 down, or, without
	# --no-requeue, is requeued (PENDING again, one restart).
	local spot_restarts want_spot=ended got_spot
	[ "$v" = requeued ] && want_spot=requeued
	for ((t = 0; t < 60; t++)); do
		spot_state=$(elastic_spot_field "$id" JobState)
		spot_restarts=$(elastic_spot_field "$id" Restarts)
		case $spot_state in
		PENDING) [ "${spot_restarts:-0}" -ge 1 ] && break ;;
		RUNNING | COMPLETING | CONFIGURING | "") ;;
		*) break ;;
		esac
		sleep 1
	done
	case $spot_state in
	PENDING) got_spot=requeued ;;
	RUNNING | COMPLETING | CONFIGURING | "") got_spot=running ;;
	*) got_spot=ended ;;
	esac
	if [ "$v" = requeued ]; then
		observe hetjob-spot-requeued "spot component without --no-requeue, its node lost" requeued "$got_spot" \
			"job $id $state; spot component $spot_state, Restarts=$spot_restarts, Reason=$(elastic_spot_field "$id" Reason)"
		tf_target_check hetjob-spot-requeued "$EL_SB" "$got_spot"
	fi
	if [ "$v" = kill ] || [ "$v" = drain ]; then
		local got_job=reject
		[ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ] && got_job=accept
		observe gen-fleet-goes-on "$v: the generated mixed-fleet job loses its spot node" accept "$got_job" \
			"job $id $state, ExitCode=$(job_field "$id" ExitCode); spot component $spot_state"
		tf_target_check gen-fleet-goes-on "$EL_SB" "$got_job"
	fi
	if [ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ] && [ "$got_spot" = "$want_spot" ]; then
		result pass "elastic/$v/completed" "job $id COMPLETED, exit 0:0; the spot component ${spot_state}, Restarts=$spot_restarts (node3 $(timeout 20 sinfo -h -n node3 -o %T | head -1))"
	else
		result fail "elastic/$v/completed" "job $id $state, exit $(job_field "$id" ExitCode); spot component '$spot_state', Restarts=$spot_restarts, expected it $want_spot"
		timeout 20 scontrol show job "$id" | indent 60
		tail -n 20 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
	if problems=$(elastic_logs "$run_dir" end "$lost_at" node1 node2); then
		result pass "elastic/$v/resumed" "$problems"
	else
		result fail "elastic/$v/resumed" "$(printf '%s' "$problems" | head -1)"
		printf '%s\n' "$problems" | indent
		grep -h 'elastic_train rank' "$run_dir"/node-*.log 2>/dev/null | indent 40
	fi
	note "$v: $(grep -h '^srun: error' "$sub"/*.out 2>/dev/null | sort -u | tr '\n' ' ')"
	cluster_stop
}

# A field of the spot component (the second of the heterogeneous job).
elastic_spot_field() { # JOBID FIELD
	timeout 20 scontrol show job -o "$1" 2>/dev/null | grep ' HetJobOffset=1 ' | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# The unguarded job after node3 is lost: it must not go on, and it must
# end as this Slurm release ends it (ELASTIC_UNGUARDED): requeued (the job
# PENDING again, one restart) or cancelled (CANCELLED for good).
elastic_unguarded_end() { # JOBID SUBMIT_DIR
	local id=$1 t s r="" got="" want=${ELASTIC_UNGUARDED[$SLURM_SERIES]:-} said detail
	for ((t = 0; t < ${TF_E2E_JOB_LIMIT:-300}; t++)); do
		s=$(job_state "$id")
		r=$(job_field "$id" Restarts)
		case $s in
		PENDING) [ "${r:-0}" -ge 1 ] && got=requeued ;;
		COMPLETED | CANCELLED | FAILED | NODE_FAIL | TIMEOUT) got=${s,,} ;;
		esac
		[ -n "$got" ] && break
		sleep 1
	done
	said=$(grep -h -o '\*\*\* JOB .* \*\*\*' "$2"/*.out 2>/dev/null | head -1)
	[ -n "$said" ] || said="no '*** JOB' line in the job's log"
	detail="job $id $s, Restarts=$r, ExitCode=$(job_field "$id" ExitCode); spot component $(elastic_spot_field "$id" JobState); $said"
	observe hetjob-node-lost-without-job-no-kill "job without --no-kill on its first component, a spot node lost" \
		"${want:-unknown}" "${got:-running}" "$detail"
	tf_target_check hetjob-node-lost-without-job-no-kill "$EL_SB" "${got:-running}"
	if [ -z "$want" ]; then
		result fail elastic/unguarded/lost "no expectation for Slurm $SLURM_SERIES in ELASTIC_UNGUARDED; it did: ${got:-nothing in time}, $detail"
	elif [ "$got" = "$want" ]; then
		result pass elastic/unguarded/lost "the job did not go on: $got ($detail)"
	else
		result fail elastic/unguarded/lost "expected $want, got ${got:-nothing in time}: $detail"
	fi
	timeout 20 scancel "$id" 2>/dev/null
}

group_elastic() {
	local v
	# This group's cluster replaces the shared one, for as long as it runs.
	cluster_stop
	SHARED_UP="" # read by run.sh's group loop
	for v in ${TF_E2E_ELASTIC:-kill drain unguarded requeued}; do
		case $v in
		kill | drain | unguarded | requeued) elastic_variant "$v" ;;
		*) result fail "elastic/$v" "unknown variant (kill drain unguarded requeued)" ;;
		esac
	done
}

