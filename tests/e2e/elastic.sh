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
# COMPLETED. Two variants have spot units of more than one node, with
# Megatron's layout flags (TP 2 x PP 2, which elastic_train.py holds the
# world to as Megatron does), so that a world the layout does not allow
# would show as a rejected worker group:
#   unit   2 reserved + 2 spot nodes, where 3 nodes cannot train: the spot
#          nodes are one unit. A notice for node3 (as drain) stops the
#          unit's step on node3 and node4; world 8 -> 4, never 6.
#   groups 2 reserved + 4 spot nodes with a batch that trains at 2, 4 and
#          6 nodes but not 3 or 5: two groups of 2. A notice for a node of
#          the second group stops that group; world 12 -> 8, never 10.
# Two more variants take a flag out of the generated script and
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
# Each variant's spot nodes, and the spec keys that differ from the
# single-node variants' (framework plain, every size trains).
declare -A ELASTIC_SPOT=([unit]=2 [groups]=4)
declare -A ELASTIC_SHAPE=(
	[unit]="framework=megatron|parallel={tensor: 2, pipeline: 2}|batch={micro: 1, global: 4}"
	[groups]="framework=megatron|parallel={tensor: 2, pipeline: 2}|batch={micro: 1, global: 12}"
)
# The spot units the plan must choose (nodes each), by variant.
declare -A ELASTIC_UNIT=([unit]=2 [groups]=2)
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
	local v=$1 dir=$2 example spec spot=${ELASTIC_SPOT[$1]:-1} shape=() part
	example=$(grep -l '^ *spot: *[0-9]' "$ROOT"/examples/jobs/*.yaml 2>/dev/null | head -1)
	if [ -z "$example" ]; then
		result fail "elastic/$v/generate" "no example job spec with capacity.spot in examples/jobs"
		return 1
	fi
	spec=$dir/e2e-elastic-$v.yaml
	mkdir -p "$dir/out" "$dir/shared"
	if [ -n "${ELASTIC_SHAPE[$v]:-}" ]; then
		IFS='|' read -r -a shape <<<"${ELASTIC_SHAPE[$v]}"
	else
		shape=(framework=plain -parallel "batch={micro: 1, global: 12}")
	fi
	# g5: a Trainium spec would put its Neuron compile cache on the
	# temporary (node-local) storage, which gen refuses. The single-node
	# variants' batch divides at both ends: DP 4 (2 nodes) and DP 6 (3).
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$example" "$spec" \
		"name=e2e-elastic-$v" instance=g5.48xlarge -nodes capacity.reserved=2 "capacity.spot=$spot" \
		capacity.max_restarts=3 processes_per_node=2 "${shape[@]}" -model \
		"storage.mount=$dir/shared" -time_limit \
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
	EL_SPOT=$spot
	EL_UNIT=${ELASTIC_UNIT[$v]:-1}
	EL_COMPONENTS=$((1 + spot / EL_UNIT))
	if ! grep -q '^#SBATCH hetjob' "$EL_SB" || [ "$(grep -c '^#SBATCH --partition=' "$EL_SB")" != "$EL_COMPONENTS" ]; then
		result fail "elastic/$v/generate" "$(basename "$EL_SB") is not a heterogeneous job of $EL_COMPONENTS components"
		return 1
	fi
	if [ "$EL_UNIT" -gt 1 ]; then
		part=" *spot units "
		if ! grep -q "^$part" "$dir/gen.log" || [ "$(grep -c "^srun --het-group=[1-9]" "$EL_SB")" != $((EL_COMPONENTS - 1)) ] ||
			[ "$(grep -c "^#SBATCH --nodes=$EL_UNIT\$" "$EL_SB")" -lt $((EL_COMPONENTS - 1)) ]; then
			result fail "elastic/$v/generate" "expected $((EL_COMPONENTS - 1)) spot unit(s) of $EL_UNIT nodes, each a component and an srun step"
			grep -e "^$part" -e "spot loss" "$dir/gen.log" | indent
			return 1
		fi
		result pass "elastic/$v/plan" "$(grep -e "^$part" "$dir/gen.log" | sed 's/^ *//')"
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
	result pass "elastic/$v/generate" "from $(basename "$example"): 2 reserved + $spot spot node(s), 2 workers each$without"
}

# The workers' start lines and the end of the run, from the node logs:
# prints one line per problem, or the summary on the last line.
#   start NODES...          every node's 2 workers in one world of 2 x NODES
#   end LOST_AT ALLOWED SURVIVORS...
#                           the survivors' last worker group: world 2 x
#                           SURVIVORS, restarted, resumed at LOST_AT or
#                           later; done. No worker group, on any node, of a
#                           world not in ALLOWED (comma-separated): the
#                           sizes the plan says train.
elastic_logs() { # RUN_DIR start|end ARGS...
	$PY - "$@" <<'PYEOF'
import glob, os, re, sys
run_dir, phase, args = sys.argv[1], sys.argv[2], sys.argv[3:]
start = re.compile(r"elastic_train rank=(\d+) local_rank=(\d+) node=(\S+) "
                   r"world_size=(\d+) restart=(\d+) resumed_step=(\d+)")
rejected = re.compile(r"elastic_train rank=\d+ rejects world_size=(\d+)")
def records(node):
    # By match, not by line: a record may share a line with another.
    try:
        with open(os.path.join(run_dir, f"node-{node}.log"), errors="replace") as f:
            return f.read()
    except OSError:
        return None
problems = []
if phase == "start":
    ranks, world = set(), 2 * len(args)
    for node in args:
        text = records(node)
        if text is None:
            problems.append(f"no node-{node}.log")
            continue
        first = [tuple(map(int, (m[1], m[2], m[4], m[5], m[6]))) + (m[3],)
                 for m in start.finditer(text) if m[5] == "0"]
        if sorted(f[1] for f in first) != [0, 1] or any(f[2] != world or f[4] != 0 or f[5] != node for f in first):
            problems.append(f"node-{node}.log: first worker group {first}, expected local ranks 0 and 1 "
                            f"of world {world} at step 0 on {node}")
        ranks.update(f[0] for f in first)
    if sorted(ranks) != list(range(world)):
        problems.append(f"global ranks {sorted(ranks)}, expected 0-{world - 1}")
    summary = f"world {world}: 2 workers on each of {' '.join(args)} (node-NODE.log each)"
else:
    lost_at, allowed, survivors = int(args[0]), {int(w) for w in args[1].split(",")}, args[2:]
    world = 2 * len(survivors)
    resumed, ranks, done = set(), set(), False
    for node in survivors:
        text = records(node) or ""
        groups = list(start.finditer(text))
        # The node's last worker group: its last two start lines (a log is
        # appended to in order). Not by restart count: an agent whose
        # workers had not failed yet when the others re-formed the group
        # restarts them as a membership change, which torchrun does not
        # count (TORCHELASTIC_RESTART_COUNT stays).
        final = groups[-2:]
        if len(groups) < 4 or sorted(m[2] for m in final) != ["0", "1"] \
                or any(int(m[4]) != world for m in final):
            problems.append(f"node-{node}.log: last worker group "
                            f"{[m.group(0).split(' ', 1)[1] for m in final]}, expected 2 workers "
                            f"of world {world} after a restart")
        resumed.update(int(m[6]) for m in final)
        ranks.update(int(m[1]) for m in final)
        done = done or re.search(rf"elastic_train done step=\d+ world_size={world}\b", text) is not None
    if len(resumed) != 1 or min(resumed, default=0) < lost_at:
        problems.append(f"resumed at steps {sorted(resumed)}, expected one step, {lost_at} or later")
    if sorted(ranks) != list(range(world)):
        problems.append(f"the restarted ranks are {sorted(ranks)}, expected 0-{world - 1}")
    if not done:
        problems.append(f"no 'elastic_train done ... world_size={world}' line: training did not finish at world {world}")
    seen, refused = set(), set()
    for path in glob.glob(os.path.join(run_dir, "node-*.log")):
        with open(path, errors="replace") as f:
            text = f.read()
        seen.update(int(m[4]) for m in start.finditer(text))
        refused.update(int(m[1]) for m in rejected.finditer(text))
    bad = sorted((seen | refused) - allowed)
    if bad:
        problems.append(f"worker groups at world {bad}, which the layout does not allow "
                        f"(allowed {sorted(allowed)}; rejected by the entry point: {sorted(refused)})")
    summary = (f"world {max(seen, default=0)} -> {world} on {' '.join(survivors)}, restarted, resumed at step "
               f"{min(resumed, default=0)} (lost after step {lost_at} or later), finished at world {world}; "
               f"worlds seen {sorted(seen)}, none rejected")
for p in problems:
    print(p)
if not problems:
    print(summary)
sys.exit(1 if problems else 0)
PYEOF
}

# Takes node I away: SIGKILL to all its processes (kill and the variants
# like it), or (drain and the unit variants) SIGTERM first and SIGKILL to
# what is left after 5 s. Prints what it did. After a drain the watcher
# has already stopped the node's job step: slurmd alone may be left.
elastic_lose_node() { # I drain|VARIANT
	local i=$1 pids=() p t left least=2
	mapfile -t pids < <(cluster_node_pids "$i")
	local comms=()
	for p in "${pids[@]}"; do comms+=("$(cat "/proc/$p/comm" 2>/dev/null)"); done
	[ "$2" = kill ] || [ "$2" = unguarded ] || [ "$2" = requeued ] || least=1
	if [ ${#pids[@]} -lt $least ]; then
		echo "node$i has ${#pids[@]} processes (pids ${pids[*]}), expected slurmd and a job step"
		return 1
	fi
	if [ $least = 1 ]; then
		kill -TERM "${pids[@]}" 2>/dev/null
		for ((t = 0; t < 10; t++)); do
			left=0
			for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
			[ $left = 0 ] && break
			sleep 0.5
		done
		echo "SIGTERM to the ${#pids[@]} processes of node$i (${comms[*]}), SIGKILL to the $left left after it"
	else
		echo "SIGKILL to the ${#pids[@]} processes of node$i: ${comms[*]}"
	fi
	kill -KILL "${pids[@]}" 2>/dev/null
	return 0
}

# The nodes of one component of the heterogeneous job, one a line.
elastic_component_nodes() { # JOBID OFFSET
	local list
	list=$(timeout 20 scontrol show job -o "$1" 2>/dev/null | grep " HetJobOffset=$2 " | tr ' ' '\n' | sed -n 's/^NodeList=//p')
	[ -n "$list" ] && timeout 20 scontrol show hostnames "$list"
}

elastic_variant() { # kill|drain|unguarded|requeued|unit|groups
	local v=$1 dir=$TMP/elastic/$1 rq sq id t run_dir problems state spot_state lost step imds_pid=""
	local sub=$dir/submit ep out lost_at nodes world all=() k
	elastic_generate "$v" "$dir" || return
	nodes=$((2 + EL_SPOT))
	world=$((2 * nodes))
	for ((k = 1; k <= nodes; k++)); do all+=("node$k"); done
	rq=$(sed -n 's/^#SBATCH --partition=//p' "$EL_SB" | sed -n 1p)
	sq=$(sed -n 's/^#SBATCH --partition=//p' "$EL_SB" | sed -n 2p)
	local spot_nodes=node3
	[ "$nodes" -gt 3 ] && spot_nodes="node[3-$nodes]"
	if ! CLUSTER_NODE_HOSTNAMES=1 CLUSTER_CONF_EXTRA=$'SlurmdTimeout=10\nSchedulerParameters=bf_interval=1' \
		cluster_start "$dir/slurm" "$nodes" "$rq=node[1-2]" "$sq=$spot_nodes"; then
		result fail "elastic/$v/cluster" "the local Slurm did not come up"
		return
	fi
	result pass "elastic/$v/cluster" "$rq on node1 and node2, $sq on $spot_nodes, each node its own host"
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

	# Wait (bounded) until training runs on every node, past step
	# ELASTIC_LOST_AT (rank 0's "step=N world_size=W" lines).
	step=0
	for ((t = 0; t < ${TF_E2E_JOB_LIMIT:-300}; t++)); do
		step=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o "elastic_train step=[0-9]* world_size=$world\b" | sed 's/.*step=\([0-9]*\) .*/\1/' | sort -n | tail -1)
		step=${step:-0}
		[ "$step" -ge "$ELASTIC_LOST_AT" ] && break
		case $(job_state "$id") in PENDING | RUNNING | CONFIGURING | "") ;; *) break ;; esac
		sleep 1
	done
	if problems=$(elastic_logs "$run_dir" start "${all[@]}") && [ "$step" -ge "$ELASTIC_LOST_AT" ]; then
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
	# first reserved node; one torchrun per node, the spot nodes' included.
	local batch_host want_ep="$HEAD_IP:29500" nodes_seen hosts
	batch_host=$(job_field "$id" BatchHost)
	nodes_seen=$(awk '{print $1}' "$dir/torchrun.log" 2>/dev/null | sort -V | tr '\n' ' ')
	hosts=$(grep -e '--rdzv_conf=is_host=1 ' "$dir/torchrun.log" 2>/dev/null | awk '{print $1}' | tr '\n' ' ')
	problems=""
	[ "$batch_host" = node1 ] || problems="$problems; the batch step runs on '$batch_host', not node1"
	[ "$nodes_seen" = "${all[*]} " ] || problems="$problems; torchrun started on '$nodes_seen'"
	[ "$hosts" = "node1 " ] || problems="$problems; the c10d store is on '$hosts'"
	grep -v -e "--rdzv_endpoint=$want_ep " "$dir/torchrun.log" | grep -q . &&
		problems="$problems; a torchrun without --rdzv_endpoint=$want_ep"
	grep -v -e "--nnodes=2:$nodes " "$dir/torchrun.log" | grep -q . && problems="$problems; a torchrun without --nnodes=2:$nodes"
	if [ -z "$problems" ]; then
		result pass "elastic/$v/rendezvous" "batch step and c10d store on node1 (reserved), endpoint $want_ep, torchrun --nnodes=2:$nodes on ${all[*]}"
	else
		result fail "elastic/$v/rendezvous" "${problems#; }"
		indent <"$dir/torchrun.log"
	fi

	# The node to lose: the first of the last spot component, and the
	# nodes that train on without its unit.
	local offset=$((EL_COMPONENTS - 1)) unit_nodes=() survivors=() lose n allowed=""
	mapfile -t unit_nodes < <(elastic_component_nodes "$id" "$offset")
	lose=${unit_nodes[0]:-node3}
	for n in "${all[@]}"; do
		case " ${unit_nodes[*]} " in *" $n "*) ;; *) survivors+=("$n") ;; esac
	done
	for ((k = 0; k <= EL_SPOT / EL_UNIT; k++)); do allowed="$allowed,$((2 * (2 + k * EL_UNIT)))"; done
	allowed=${allowed#,}
	local li=${lose#node}

	if [ "$v" != kill ] && [ "$v" != unguarded ] && [ "$v" != requeued ]; then
		# The notice, then the generated watcher, run once on the node (its
		# UTS namespace: its own hostname, as a spot node's service sees it).
		mkdir -p "$dir/imds"
		$PY "$ROOT/tests/watcher/fake_imds.py" "$dir/imds/port" "$dir/imds" &
		imds_pid=$!
		for ((t = 0; t < 100; t++)); do [ -s "$dir/imds/port" ] && break; sleep 0.1; done
		ep=http://127.0.0.1:$(cat "$dir/imds/port" 2>/dev/null)
		printf '{"action": "terminate", "time": "2026-11-30T16:00:00Z"}' >"$dir/imds/notice"
		out=$(nsenter --uts --target "${CLUSTER_PIDS[$li]}" -- timeout 60 bash "$EL_WATCHER" --once --endpoint "$ep" --stop-after 5 2>&1)
		kill "$imds_pid" 2>/dev/null
		wait "$imds_pid" 2>/dev/null
		local nstate reason
		nstate=$(timeout 20 scontrol show node "$lose" | sed -n 's/.* State=\([^ ]*\).*/\1/p')
		reason=$(timeout 20 scontrol show node "$lose" | sed -n 's/^ *Reason=//p')
		if [[ $nstate == *DRAIN* ]] && [[ $reason == "spot interruption notice"* ]] &&
			printf '%s\n' "$out" | grep -q 'sent SIGUSR1 to 2 worker(s)' &&
			printf '%s\n' "$out" | grep -q '^spot-watcher: stopped step '; then
			result pass "elastic/$v/watcher" "$lose $nstate ($reason); $(printf '%s\n' "$out" | tail -2 | tr '\n' ' ')"
		else
			result fail "elastic/$v/watcher" "$lose $nstate, reason '$reason'"
			printf '%s\n' "$out" | indent
		fi
		# Every rank saves at the same step boundary, signalled or not.
		local sig="" saved=0 r
		for ((t = 0; t < 60; t++)); do
			saved=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o 'saved signal checkpoint step=' | wc -l)
			[ "$saved" -ge "$world" ] && break
			sleep 1
		done
		sig=$(cat "$run_dir"/node-*.log 2>/dev/null | grep -o 'saved signal checkpoint step=[0-9]*' | sed 's/.*=//' | sort -u | tr '\n' ' ')
		problems=""
		[ "$saved" = "$world" ] || problems="$problems; $saved ranks saved on the signal, expected $world"
		[ "$(echo "$sig" | wc -w)" = 1 ] || problems="$problems; at steps '$sig', expected one"
		for ((r = 0; r < world; r++)); do
			[ -f "$EL_CKPT/signal-${sig% }/rank-$r.pt" ] || problems="$problems; no signal-${sig% }/rank-$r.pt"
		done
		if [ -z "$problems" ]; then
			result pass "elastic/$v/checkpoint" "SIGUSR1 on $lose's 2 workers: all $world ranks saved at step ${sig% } (CHECKPOINT_DIR/signal-${sig% }/rank-R.pt)"
		else
			result fail "elastic/$v/checkpoint" "${problems#; }"
		fi
		# Training resumes from there or later.
		lost_at=${sig% }
		lost_at=${lost_at:-0}
	else
		# The latest checkpoint is this step's or a later one.
		lost_at=$step
	fi

	if lost=$(elastic_lose_node "$li" "$v"); then
		result pass "elastic/$v/node-lost" "$lost"
	else
		result fail "elastic/$v/node-lost" "$lost"
	fi
	# Collect the node's slurmd here, quietly (bash reports a killed job).
	wait "${CLUSTER_PIDS[$li]}" 2>/dev/null
	if [ "$v" = unguarded ]; then
		elastic_unguarded_end "$id" "$sub"
		cluster_stop
		return
	fi
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	# The lost node's component ends when Slurm declares the node down,
	# or, without --no-requeue, is requeued (PENDING again, one restart).
	local spot_restarts want_spot=ended got_spot
	[ "$v" = requeued ] && want_spot=requeued
	for ((t = 0; t < 60; t++)); do
		spot_state=$(elastic_spot_field "$id" JobState "$offset")
		spot_restarts=$(elastic_spot_field "$id" Restarts "$offset")
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
			"job $id $state; spot component $spot_state, Restarts=$spot_restarts, Reason=$(elastic_spot_field "$id" Reason "$offset")"
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
		result pass "elastic/$v/completed" "job $id COMPLETED, exit 0:0; the lost node's component (hetjob offset $offset) ${spot_state}, Restarts=$spot_restarts ($lose $(timeout 20 sinfo -h -n "$lose" -o %T | head -1))"
	else
		result fail "elastic/$v/completed" "job $id $state, exit $(job_field "$id" ExitCode); spot component $offset '$spot_state', Restarts=$spot_restarts, expected it $want_spot"
		timeout 20 scontrol show job "$id" | indent 60
		tail -n 20 "$sub"/*.out "$run_dir"/*.log 2>/dev/null | indent 80
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi
	if problems=$(elastic_logs "$run_dir" end "$lost_at" "$allowed" "${survivors[@]}"); then
		result pass "elastic/$v/resumed" "$problems"
	else
		result fail "elastic/$v/resumed" "$(printf '%s' "$problems" | head -1)"
		printf '%s\n' "$problems" | indent
		grep -h -e 'elastic_train rank' "$run_dir"/node-*.log 2>/dev/null | indent 40
	fi
	note "$v: $(grep -h '^srun: error' "$sub"/*.out 2>/dev/null | sort -u | tr '\n' ' ')"
	cluster_stop
}

# A field of a spot component (by default the second of the heterogeneous job).
elastic_spot_field() { # JOBID FIELD [OFFSET]
	timeout 20 scontrol show job -o "$1" 2>/dev/null | grep " HetJobOffset=${3:-1} " | tr ' ' '\n' | sed -n "s/^$2=//p"
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
	for v in ${TF_E2E_ELASTIC:-kill drain unit groups unguarded requeued}; do
		case $v in
		kill | drain | unit | groups | unguarded | requeued) elastic_variant "$v" ;;
		*) result fail "elastic/$v" "unknown variant (kill drain unit groups unguarded requeued)" ;;
		esac
	done
}

