#!/bin/bash
# End-to-end tests on a real Slurm: trainforge's generated batch scripts and
# the linter's claims, held against Debian 12's Slurm 22.05 running here.
#
#   bash tests/e2e/run.sh [GROUP...]    groups: testonly job lint options
#                                       elastic (default: these five, in that
#                                       order) and requeue (opt-in, see
#                                       group_requeue)
#
# Needs root and the packages of tests/e2e/deps.sh. Prints one
# "RESULT pass|fail|skip NAME" line per check and ends with
# "N passed, N failed, N skipped"; exits 1 when a check failed.
#
# Everything runs in private network and PID namespaces (unshare): the
# network has only loopback addresses (lo, plus 127.0.0.2 on a veth pair so
# that `hostname -I`, which generated scripts use for the rendezvous
# endpoint, has an address to print), and every process the run starts,
# daemons, job steps and workers alike, ends with the namespace. The
# cluster's daemons are also stopped by PID on exit (tests/e2e/cluster.sh).
#
# Environment: BUILD (default build/rel: libtf.a for the option table
# dump), TF (default $BUILD/trainforge), TF_E2E_NODES (default 4),
# TF_E2E_JOB_LIMIT (seconds a job may take, default 300; one takes ~15 here),
# TF_E2E_KEEP=1 keeps the temporary directory (kept anyway after a failure),
# TF_E2E_TEMPLATES=DIR generates with `trainforge gen --templates DIR`,
# TF_E2E_ELASTIC="kill drain" the elastic group's variants (see there).
# Every wait is a bounded hang guard, never a timing measurement.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
BUILD=${BUILD:-build/rel}
TF=${TF:-$BUILD/trainforge}
case $TF in /*) ;; *) TF=$ROOT/$TF ;; esac
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
NNODES=${TF_E2E_NODES:-4}
PY=/usr/bin/python3 # Debian's torch and yaml are importable only by this one

if [ -z "${TF_E2E_INNER:-}" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "RESULT skip e2e: needs root (slurmctld and slurmd run as SlurmUser=root)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
	missing=""
	for c in slurmctld slurmd sbatch scontrol sinfo unshare nsenter mount ip timeout hostname cc curl; do
		PATH=$PATH:/usr/sbin:/sbin command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	$PY -c 'import torch.distributed, yaml' >/dev/null 2>&1 || missing="$missing python3-torch/python3-yaml"
	if [ -n "$missing" ]; then
		echo "e2e: missing:$missing (run: sh tests/e2e/deps.sh)" >&2
		echo "RESULT fail e2e: missing$missing"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	if ! unshare --net --pid --fork --mount-proc true >/dev/null 2>&1; then
		echo "RESULT skip e2e: cannot make private network and PID namespaces (unshare), and the cluster must not use a real network"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
	TF_E2E_INNER=1 exec unshare --net --pid --fork --mount-proc -- bash "$ROOT/tests/e2e/run.sh" "$@"
fi

# --- inside the namespaces -------------------------------------------------
export PATH=$PATH:/usr/sbin:/sbin
if ! { ip link set lo up &&
	ip link add tfe2e0 type veth peer name tfe2e1 &&
	ip link set tfe2e0 up && ip link set tfe2e1 up &&
	ip addr add 127.0.0.2/32 dev tfe2e0; }; then
	echo "e2e: network setup failed" >&2
	exit 1
fi
HEAD_IP=$(hostname -I | awk '{print $1}')
[ -n "$HEAD_IP" ] || { echo "e2e: hostname -I prints nothing in the namespace" >&2; exit 1; }
for a in $(hostname -I); do
	case $a in 127.*) ;; *) echo "e2e: non-loopback address $a in the namespace" >&2; exit 1 ;; esac
done

GROUPS_RUN=${*:-testonly job lint options elastic}
TMP=$(mktemp -d /tmp/tf-e2e.XXXXXX)
passed=0 failed=0 skipped=0
START=$(date +%s)

# shellcheck source=tests/e2e/cluster.sh
. "$ROOT/tests/e2e/cluster.sh"

cleanup() {
	trap - EXIT INT TERM HUP
	cluster_stop
	if [ "$failed" = 0 ] && [ -z "${TF_E2E_KEEP:-}" ]; then
		rm -rf "$TMP"
	else
		echo "e2e: kept $TMP" >&2
	fi
}
trap cleanup EXIT
trap 'echo "e2e: interrupted" >&2; exit 130' INT TERM HUP

result() { # pass|fail|skip NAME [REASON]
	local r=$1 name=$2
	shift 2
	case $r in
	pass) passed=$((passed + 1)) ;;
	fail) failed=$((failed + 1)) ;;
	skip) skipped=$((skipped + 1)) ;;
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

# The torchrun shim, first in PATH for the jobs: Debian's torch is
# importable only by /usr/bin/python3, and its torchrun needs a fix under
# Python 3.11 (tests/e2e/torchrun.py). It records where and how it was
# started, one line per start: node, job step (batch outside srun), args.
# On a real cluster only the first node's agent owns the endpoint address
# and hosts the c10d store; here every node has that address, so the shim
# says which one hosts (is_host, unless the script set --rdzv_conf itself),
# as the address would there: the first node of the job, of its first
# component in a heterogeneous job (the batch step's node either way). The
# log line shows that choice among the arguments.
mkdir -p "$TMP/bin"
cat >"$TMP/bin/torchrun" <<EOF
#!/bin/sh
first=\$(scontrol show hostnames "\${SLURM_JOB_NODELIST_HET_GROUP_0:-\${SLURM_JOB_NODELIST:-}}" 2>/dev/null | head -n 1)
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

if ! "$TF" version >/dev/null 2>&1; then
	result fail e2e "no working trainforge at $TF (make first)"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi

# trainforge gen, with TF_E2E_TEMPLATES as --templates when set (to try a
# template change on the real Slurm before making it).
tf_gen() {
	if [ -n "${TF_E2E_TEMPLATES:-}" ]; then
		"$TF" gen --templates "$TF_E2E_TEMPLATES" "$@"
	else
		"$TF" gen "$@"
	fi
}

# --- generate every example first: its queue becomes a partition -----------
# Sets FITTED to the spec (a modified copy in DIR when needed) whose script
# fits in NNODES nodes and SHRUNK to what was changed ("" when nothing).
FITTED="" SHRUNK=""
fit_spec() { # SPEC DIR
	local spec=$1 dir=$2 nodes k tier edits out size
	# A mixed fleet's script asks for nodes in each hetjob component.
	nodes=$(sed -n 's/^#SBATCH --nodes=//p' "$dir/orig"/*.sbatch | awk '{n += $1} END {print n}')
	if [ -n "$nodes" ] && [ "$nodes" -le "$NNODES" ]; then
		FITTED=$spec SHRUNK=""
		return 0
	fi
	# The fewest changes that still make a valid spec: the node count
	# alone (a fleet's: one spot node, the rest reserved), then also the
	# layout sizes that need many nodes.
	for tier in 1 2 3; do
		for ((k = NNODES; k >= 1; k--)); do
			size="nodes=$k"
			if grep -q '^#SBATCH hetjob' "$dir/orig"/*.sbatch; then
				[ "$k" -ge 2 ] || continue
				size="capacity.reserved=$((k - 1)) capacity.spot=1 -nodes"
			fi
			case $tier in
			1) edits=$size ;;
			2) edits="$size -parallel.data -parallel.pipeline -parallel.virtual_stages -parallel.expert" ;;
			3) edits="$size -parallel -batch" ;;
			esac
			out=$dir/shrunk-$tier-$k.yaml
			# shellcheck disable=SC2086
			$PY "$ROOT/tests/e2e/spec_override.py" "$spec" "$out" $edits || continue
			if "$TF" plan "$out" >/dev/null 2>&1; then
				FITTED=$out SHRUNK=$edits
				return 0
			fi
		done
	done
	return 1
}

declare -A QUEUE_OF
QUEUES=""
for spec in "$ROOT"/examples/jobs/*.yaml; do
	base=$(basename "$spec" .yaml)
	dir=$TMP/gen/$base
	mkdir -p "$dir/orig"
	if ! tf_gen --force -o "$dir/orig" "$spec" >"$dir/gen.log" 2>&1; then
		result fail "testonly/$base" "trainforge gen failed"
		indent <"$dir/gen.log"
		continue
	fi
	QUEUE_OF[$base]=$(sed -n 's/^#SBATCH --partition=//p' "$dir/orig"/*.sbatch | head -1)
	# A mixed fleet's script names a queue in each hetjob component.
	while read -r q; do
		case " $QUEUES " in *" $q "*) ;; *) QUEUES="$QUEUES $q" ;; esac
	done < <(sed -n 's/^#SBATCH --partition=//p' "$dir/orig"/*.sbatch)
done
[ -n "$QUEUES" ] || QUEUES=train

# shellcheck disable=SC2086
if ! cluster_start "$TMP/slurm" "$NNODES" $QUEUES; then
	result fail e2e/cluster "the local Slurm did not come up"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi
result pass e2e/cluster "slurmctld and $NNODES slurmd, partitions:$QUEUES debug"
SHARED_UP=1
# The first queue is the default partition (for the lint fixtures).
DEFAULT_PART=${QUEUES# }
DEFAULT_PART=${DEFAULT_PART%% *}

# --- 1. every example's batch script passes sbatch --test-only --------------
sbatch_test_only() { # SCRIPT NAME EXPECT_PARTITION
	local out rc want="to start at .* in partition $3\$"
	# A heterogeneous job's answer names its nodes, not a partition.
	grep -q '^#SBATCH hetjob' "$1" && want="to start at .* using [0-9]* processors on [^ ]*\$"
	out=$(cd "$TMP/submit" && timeout 60 sbatch --test-only "$1" 2>&1)
	rc=$?
	if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q "$want"; then
		result pass "$2"
	else
		result fail "$2" "sbatch --test-only exited $rc"
		printf '%s\n' "$out" | indent
	fi
}

group_testonly() {
	local spec base dir s1 s2
	mkdir -p "$TMP/submit"
	for spec in "$ROOT"/examples/jobs/*.yaml; do
		base=$(basename "$spec" .yaml)
		dir=$TMP/gen/$base
		[ -n "${QUEUE_OF[$base]:-}" ] || continue
		if ! fit_spec "$spec" "$dir"; then
			result fail "testonly/$base" "no spec with at most $NNODES nodes passes trainforge plan"
			continue
		fi
		if [ -z "$SHRUNK" ]; then
			sbatch_test_only "$(ls "$dir/orig"/*.sbatch)" "testonly/$base" "${QUEUE_OF[$base]}"
			# The checked-in output too, when it fits as it is.
			s1=$ROOT/examples/jobs/out/$(basename "$(ls "$dir/orig"/*.sbatch)")
			[ -f "$s1" ] && sbatch_test_only "$s1" "testonly/out/$(basename "$s1")" "${QUEUE_OF[$base]}"
			continue
		fi
		mkdir -p "$dir/shrunk"
		if ! tf_gen --force -o "$dir/shrunk" "$FITTED" >"$dir/gen-shrunk.log" 2>&1; then
			result fail "testonly/$base" "trainforge gen of the shrunk spec failed ($SHRUNK)"
			indent <"$dir/gen-shrunk.log"
			continue
		fi
		# The shrunk script must ask Slurm for the same things but nodes.
		s1=$(grep '^#SBATCH' "$dir/orig"/*.sbatch | grep -v -e '--nodes=')
		s2=$(grep '^#SBATCH' "$dir/shrunk"/*.sbatch | grep -v -e '--nodes=')
		if [ "$s1" != "$s2" ]; then
			result fail "testonly/$base" "the shrunk spec ($SHRUNK) changed #SBATCH lines other than --nodes"
			diff <(echo "$s1") <(echo "$s2") | indent
			continue
		fi
		note "$base: shrunk with $SHRUNK"
		sbatch_test_only "$(ls "$dir/shrunk"/*.sbatch)" "testonly/$base" "${QUEUE_OF[$base]}"
	done
}

# --- 2. a generated job runs: 2 nodes x 2 processes, torchrun via srun -------
group_job() {
	local name=e2e-dist spec dir sub shared sb id state limit ckpt run_dir f n problems
	dir=$TMP/job
	shared=$TMP/shared
	sub=$dir/submit
	mkdir -p "$dir/out" "$sub" "$shared"
	ckpt=$shared/checkpoints/$name
	# The value checks escaping end to end: the worker must see it verbatim.
	local mark="a b'c \$HOME \"q\""
	spec=$dir/$name.yaml
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$ROOT/examples/jobs/bert-g5.yaml" "$spec" \
		"name=$name" nodes=2 processes_per_node=2 instance=g5.48xlarge framework=plain \
		-parallel -batch -model "storage.mount=$shared" \
		"entry.script=$ROOT/tests/e2e/check_dist.py" \
		"entry.args=[--out, $shared/results, --world, '4', --env, FI_PROVIDER=efa, --env, 'CHECKPOINT_DIR=$ckpt', --env, 'E2E_MARK=${mark//\'/\'\'}', --env, NCCL_DEBUG=WARN]" \
		"env.E2E_MARK='${mark//\'/\'\'}'" time_limit=30; then
		result fail job/generate "spec_override.py failed"
		return
	fi
	if ! tf_gen --force -o "$dir/out" "$spec" >"$dir/gen.log" 2>&1; then
		result fail job/generate "trainforge gen failed"
		indent <"$dir/gen.log"
		return
	fi
	sb=$dir/out/$name.sbatch
	result pass job/generate
	# Every variable the script exports must reach every worker.
	local envargs=()
	while read -r n; do
		envargs+=("$n")
	done < <(sed -n 's/^export \([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' "$sb" | sort -u)
	note "the script exports: ${envargs[*]}"
	id=$(cd "$sub" && PATH=$SHIM_PATH TF_E2E_SHIM_LOG=$shared/torchrun.log \
		timeout 60 sbatch --parsable "$sb" 2>"$dir/sbatch.err")
	if [ -z "$id" ]; then
		result fail job/submit "sbatch refused the generated script"
		indent <"$dir/sbatch.err"
		return
	fi
	result pass job/submit "job $id"
	limit=${TF_E2E_JOB_LIMIT:-300}
	state=$(job_wait "$id" "$limit")
	if [ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ]; then
		result pass job/completed
	else
		result fail job/completed "state $state, exit code $(job_field "$id" ExitCode)"
		timeout 20 scontrol show job "$id" | indent 40
		tail -n 30 "$sub"/*.out "$shared/logs/$name/$id"/*.log 2>/dev/null | indent 60
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
	fi

	# torchrun once per node, through srun, with c10d on the first node.
	local want_ep="$HEAD_IP:29500" batch_host lines nodes_seen
	batch_host=$(job_field "$id" BatchHost)
	lines=$(wc -l <"$shared/torchrun.log" 2>/dev/null || echo 0)
	nodes_seen=$(awk '{print $1}' "$shared/torchrun.log" 2>/dev/null | sort -u | tr '\n' ' ')
	problems=""
	[ "$lines" = 2 ] || problems="$problems; torchrun started $lines times, expected 2"
	[ "$(echo "$nodes_seen" | wc -w)" = 2 ] || problems="$problems; torchrun ran on nodes '$nodes_seen'"
	case " $nodes_seen" in *" $batch_host "*) ;; *) problems="$problems; not on the batch host $batch_host" ;; esac
	while read -r node step args; do
		for want in --nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d "--rdzv_endpoint=$want_ep" "--rdzv_id=$id"; do
			case " $args " in *" $want "*) ;; *) problems="$problems; $node: no $want in: $args" ;; esac
		done
		[ "$step" = batch ] && problems="$problems; $node: started in the batch step, not by srun"
	done <"$shared/torchrun.log"
	if [ -z "$problems" ]; then
		result pass job/torchrun-per-node "2 starts ($nodes_seen), c10d at $want_ep, the batch host's address"
	else
		result fail job/torchrun-per-node "${problems#; }"
	fi

	# Ranks, collectives and the promised environment, from every worker.
	local vargs=(--verify "$shared/results" --world 4 --nodes 2)
	if problems=$($PY "$ROOT/tests/e2e/check_dist.py" "${vargs[@]}" 2>&1); then
		result pass job/workers "world 4 on 2 nodes: RANK, LOCAL_RANK, unique ranks (all_gather), all_reduce sum, FI_PROVIDER=efa, CHECKPOINT_DIR=$ckpt"
	else
		result fail job/workers "rank results"
		printf '%s\n' "$problems" | indent
	fi
	# Every variable the script exports, in every worker's environment,
	# and the spec's tricky value exactly as the test wrote it.
	if problems=$(E2E_MARK_WANT=$mark $PY - "$shared/results" "${envargs[@]}" 2>&1 <<'PYEOF'
import json, os, sys
d, names = sys.argv[1], sys.argv[2:]
want = os.environ["E2E_MARK_WANT"]
files = [] if not os.path.isdir(d) else sorted(f for f in os.listdir(d) if f.startswith("rank-") and f.endswith(".json"))
if not files:
    print("no rank files")
for f in files:
    environ = json.load(open(os.path.join(d, f))).get("environ", {})
    for n in names:
        if n not in environ:
            print(f"{f}: {n} is not set")
    if environ.get("E2E_MARK") != want:
        print(f"{f}: E2E_MARK is {environ.get('E2E_MARK')!r}, the spec says {want!r}")
sys.exit(0 if files else 1)
PYEOF
	) && [ -z "$problems" ]; then
		result pass job/env "${envargs[*]} in all 4 workers; E2E_MARK=$mark verbatim"
	else
		result fail job/env "exported variables missing in workers"
		printf '%s\n' "$problems" | indent
	fi

	# Logs where the script says: RUN_DIR=paths.logs/JOBID/node-*.log, and
	# Slurm's own %x-%j.out in the submission directory.
	run_dir=$shared/logs/$name/$id
	problems=""
	n=$(find "$run_dir" -maxdepth 1 -name 'node-*.log' 2>/dev/null | wc -l)
	[ "$n" = 2 ] || problems="$problems; $n node logs in $run_dir, expected 2"
	for ((r = 0; r < 4; r++)); do
		f=$(grep -l "check_dist rank $r " "$run_dir"/node-*.log 2>/dev/null | wc -l)
		[ "$f" = 1 ] || problems="$problems; rank $r's line is in $f node logs"
	done
	# (A traceback of "Error waiting on exit barrier" may be there: torch
	# 1.13's agents race at exit when the store's host leaves first. It is
	# logged, not fatal, and not the script's doing.)
	[ -f "$sub/$name-$id.out" ] || problems="$problems; no $name-$id.out in the submission directory"
	[ -d "$ckpt" ] || problems="$problems; CHECKPOINT_DIR $ckpt was not created"
	if [ -z "$problems" ]; then
		result pass job/logs "$(cd "$run_dir" && echo node-*.log) in paths.logs/$id, $name-$id.out in the submission directory"
	else
		result fail job/logs "${problems#; }"
		find "$shared/logs" "$sub" 2>&1 | indent 30
	fi
}

# --- 3. the linter's claims about scripts hold on the real Slurm -------------
# tests/e2e/lint/RULE-{bad,good}.sbatch are tests/cases/RULE/*.sbatch made
# to run here (2 processes per node, the check_dist.py entry point, the
# shim), each keeping its one mistake. The linter must show RULE on the bad
# copy and not on the good one, and Slurm must show the consequence.
# The linter judges for the Slurm under test: Debian 12's 22.05.
TF_TARGET=${TF_TARGET:-slurm=22.05}
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

# --- 4. the linter's option table agrees with the real sbatch ---------------
# Options whose example needs something this cluster cannot have; each is
# reported as a skip with its reason. (--bb, --bbf, --cluster-constraint,
# --context, --mcs-label, --network and --power pass --test-only here.)
declare -A OPT_EXCLUDE=(
	[clusters]="needs slurmdbd and the named cluster: sbatch asks the database ('Problem talking to database')"
	[cluster]="alias of --clusters: needs slurmdbd and the named cluster"
)
# Options sbatch 22.05 takes only together with another; the test adds the
# companion. The linter accepts each alone (it checks values, not pairs).
declare -A OPT_WITH=(
	[batch]="--constraint=haswell"         # --batch must be a subset of --constraint
	[gpus-per-socket]="--sockets-per-node=2"
	[gpus-per-task]="--ntasks=2"           # or --gpus
	[mem-per-gpu]="--gpus=1"
	[ntasks-per-gpu]="--gpus=1"
	[ntasks-per-tres]="--gpus=1"
)

# A script with one directive; the partition is given unless tested.
opt_script() { # FILE DIRECTIVE...
	local f=$1 l
	shift
	{
		echo "#!/bin/bash"
		for l in "$@"; do echo "#SBATCH $l"; done
		echo "true"
	} >"$f"
}
sbatch_accepts() { # SCRIPT [sbatch options...] -> sets SB_OUT
	local s=$1
	shift
	SB_OUT=$(cd "$TMP/opts" && timeout 60 sbatch --test-only "$@" "$s" 2>&1 </dev/null)
}
lint_flags() { # SCRIPT RULES -> prints the matching findings
	"$TF" lint --format concise -q --shellcheck off --target "$TF_TARGET" --select "$2" "$1" 2>/dev/null </dev/null |
		grep -E "\[(${2//,/|})\]\$"
}

group_options() {
	local dump=$TMP/sbopt_dump name short arg since flags ex long shortv with s rc lint_out names2205 m
	mkdir -p "$TMP/opts"
	# shellcheck disable=SC2046
	# the include list of the test programs, from the Makefile's layers
	if ! (cd "$ROOT" && cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(make -s print-inc LAYER=all) \
		-o "$dump" "$ROOT/tests/e2e/sbopt_dump.c" "$BUILD/libtf.a" \
		$(pkg-config --libs yaml-0.1 libcyaml libpcre2-8)) 2>"$TMP/opts/cc.err"; then
		result fail options/table "cannot build tests/e2e/sbopt_dump.c against $BUILD/libtf.a"
		indent <"$TMP/opts/cc.err"
		return
	fi
	"$dump" >"$TMP/opts/table.tsv" || { result fail options/table "sbopt_dump failed"; return; }
	result pass options/table "$(wc -l <"$TMP/opts/table.tsv") options"
	# What the examples name: files in the submission directory, a
	# reservation (on the last node, so that node[1-2] stay free).
	(cd "$TMP/opts" && printf 'node1\nnode2\n' >hosts.txt && printf 'A=1\0' >env.txt && echo 'capacity=1G' >bb.conf)
	timeout 20 scontrol create reservation ReservationName=maint StartTime=now Duration=60 \
		Users=root Nodes="node$NNODES" Flags=MAINT,IGNORE_JOBS >/dev/null 2>&1 ||
		note "could not create reservation maint"
	names2205=$(awk -F'\t' '$4 == "-" {print $1}' "$TMP/opts/table.tsv")

	# The table comes in on fd 3: nothing in the loop may eat it.
	while IFS=$'\t' read -r -u 3 name short arg since flags ex; do
		[ "$ex" = - ] && ex=""
		if [ -n "${OPT_EXCLUDE[$name]:-}" ]; then
			result skip "options/--$name" "${OPT_EXCLUDE[$name]}"
			continue
		fi
		# The directive as a script would write it (values quoted, as
		# sbatch's directive parser splits on blanks), and the short form.
		long="--$name"
		[ "$arg" != none ] && [ -n "$ex" ] && long="--$name=\"$ex\""
		shortv=""
		if [ "$short" != - ]; then
			shortv="-$short"
			[ "$arg" = required ] && shortv="-$short $ex"
		fi
		with=${OPT_WITH[$name]:-}
		s=$TMP/opts/$name.sbatch

		if [ "$since" != - ]; then
			# Added after 22.05: this sbatch must not run it as that
			# option, and the linter must say which release added it.
			opt_script "$s" "--partition=$DEFAULT_PART" "$long"
			sbatch_accepts "$s"
			rc=$?
			lint_out=$(lint_flags "$s" SB1001,SB1002,SB1003)
			local prefix_of
			prefix_of=$(printf '%s\n' "$names2205" | grep "^$name" | head -2)
			if [ "$(printf '%s\n' "$prefix_of" | grep -c .)" = 1 ]; then
				# getopt_long: a unique prefix of a 22.05 option is that option.
				note "--$name is a prefix of 22.05's --$prefix_of: sbatch 22.05 reads it as that ($(printf '%s' "$SB_OUT" | head -1))"
				if printf '%s' "$lint_out" | grep -q 'SB1003'; then
					result pass "options/--$name" "added in $since; 22.05 takes it as --$prefix_of (rc $rc); SB1003 from the linter"
				else
					result fail "options/--$name" "added in $since, a prefix of --$prefix_of in 22.05; lint: ${lint_out:-nothing}"
				fi
			elif printf '%s' "$SB_OUT" | grep -q "unrecognized option" && printf '%s' "$lint_out" | grep -q 'SB1003' &&
				! printf '%s' "$lint_out" | grep -q 'SB100[12]'; then
				result pass "options/--$name" "added in $since: unknown to sbatch 22.05, SB1003 from the linter"
			else
				result fail "options/--$name" "since $since: sbatch said: $(printf '%s' "$SB_OUT" | head -1); lint: ${lint_out:-nothing}"
			fi
			continue
		fi

		case ,$flags, in
		*,client,*)
			# Options that change what sbatch does go on its command line.
			opt_script "$s" "--partition=$DEFAULT_PART"
			case $name in
			help | usage | version)
				SB_OUT=$(timeout 60 sbatch "--$name" 2>&1 </dev/null); rc=$?
				check_opt "--$name" $rc ""
				if [ -n "$shortv" ]; then
					SB_OUT=$(timeout 60 sbatch "$shortv" 2>&1 </dev/null); rc=$?
					check_opt "$shortv" $rc "" "--$name"
				fi
				continue ;;
			wrap)
				SB_OUT=$(cd "$TMP/opts" && timeout 60 sbatch --test-only -p "$DEFAULT_PART" "--wrap=$ex" 2>&1 </dev/null); rc=$?
				check_opt "--wrap=$ex" $rc ""
				continue ;;
			test-only) sbatch_accepts "$s"; rc=$? ;;
			*) if [ "$arg" = none ] || [ -z "$ex" ]; then sbatch_accepts "$s" "--$name"; else sbatch_accepts "$s" "--$name=$ex"; fi; rc=$? ;;
			esac
			check_opt "$long" $rc ""
			if [ -n "$shortv" ]; then
				# shellcheck disable=SC2086
				sbatch_accepts "$s" $shortv; rc=$?
				check_opt "$shortv" $rc "" "--$name"
			fi
			continue ;;
		esac

		# Everything else as #SBATCH directives, as the linter sees them.
		if [ "$name" = partition ]; then
			opt_script "$s" "$long" ${with:+"$with"}
		else
			opt_script "$s" "--partition=$DEFAULT_PART" "$long" ${with:+"$with"}
		fi
		sbatch_accepts "$s"; rc=$?
		check_opt "$long" $rc "$s" "" "$with"
		if [ -n "$shortv" ]; then
			if [ "$name" = partition ]; then
				opt_script "$s" "$shortv" ${with:+"$with"}
			else
				opt_script "$s" "--partition=$DEFAULT_PART" "$shortv" ${with:+"$with"}
			fi
			sbatch_accepts "$s"; rc=$?
			check_opt "$shortv" $rc "$s" "--$name" "$with"
		fi
	done 3<"$TMP/opts/table.tsv"
	timeout 20 scontrol delete ReservationName=maint >/dev/null 2>&1

	# Misspellings: sbatch and SB1001 must agree on each. getopt_long takes
	# a unique prefix of a long option as that option, so a truncated name
	# is not unknown to sbatch, and the linter must not call it unknown.
	for m in --nodse=2 --ntask-per-node=1 "--parition=$DEFAULT_PART" --gpus-per-nod=1 --exclusiv; do
		s=$TMP/opts/misspelt${m%%=*}.sbatch
		if [ "${m%%=*}" = --parition ]; then opt_script "$s" "$m"; else opt_script "$s" "--partition=$DEFAULT_PART" "$m"; fi
		sbatch_accepts "$s"
		rc=$?
		lint_out=$(lint_flags "$s" SB1001)
		if [ $rc != 0 ] && printf '%s' "$SB_OUT" | grep -q 'unrecognized option'; then
			if [ -n "$lint_out" ]; then
				result pass "options/misspelt/${m%%=*}" "sbatch: $(printf '%s' "$SB_OUT" | head -1); linter: SB1001"
			else
				result fail "options/misspelt/${m%%=*}" "sbatch rejects it, the linter does not show SB1001"
			fi
		elif [ $rc = 0 ] && ! printf '%s' "$SB_OUT" | grep -q 'sbatch: error:'; then
			if [ -z "$lint_out" ]; then
				result pass "options/misspelt/${m%%=*}" "sbatch 22.05 takes it as an abbreviation (a unique prefix, getopt_long); no SB1001 either"
			else
				result fail "options/misspelt/${m%%=*}" "sbatch accepts it (a unique prefix), the linter shows SB1001: $lint_out"
			fi
		else
			result fail "options/misspelt/${m%%=*}" "sbatch: $(printf '%s' "$SB_OUT" | head -1)"
		fi
	done
}

# One option's verdict: sbatch took it (exit 0, no "sbatch: error:" line,
# which is how it reports an option it ignores) and, for a directive, the
# linter does not call it unknown or invalid.
check_opt() { # SHOWN RC SCRIPT|"" [LONG-NAME-OF-SHORT] [COMPANION]
	local shown=$1 rc=$2 s=$3 of=${4:-} with=${5:-} lint_out="" label
	label=${shown%%=*}
	label=${label%% *}
	local extra="${of:+ ($of)}${with:+ with $with}"
	if [ "$rc" != 0 ] || printf '%s' "$SB_OUT" | grep -q 'sbatch: error:\|unrecognized option'; then
		result fail "options/$label" "sbatch rejects $shown$extra: $(printf '%s' "$SB_OUT" | grep -v '^Usage\|^ ' | head -2 | tr '\n' ' ')"
		return
	fi
	[ -n "$s" ] && lint_out=$(lint_flags "$s" SB1001,SB1002)
	if [ -n "$lint_out" ]; then
		result fail "options/$label" "sbatch accepts $shown$extra, the linter flags it: $lint_out"
	else
		result pass "options/$label" "$shown$extra"
	fi
}

# --- 5. opt-in (`run.sh requeue`): a requeued job keeps its first logs -----
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

# --- 6. elastic: a mixed reserved+spot job survives losing its spot node --
# (tests/e2e/elastic.sh)
# shellcheck source=tests/e2e/elastic.sh
. "$ROOT/tests/e2e/elastic.sh"

for g in $GROUPS_RUN; do
	# After the elastic group, the shared cluster starts again.
	if [ "$g" != elastic ] && [ -z "$SHARED_UP" ]; then
		# shellcheck disable=SC2086
		if ! cluster_start "$TMP/slurm" "$NNODES" $QUEUES; then
			result fail "e2e/$g" "the shared local Slurm did not come up again"
			continue
		fi
		SHARED_UP=1
	fi
	case $g in
	testonly) group_testonly ;;
	job) group_job ;;
	lint) group_lint ;;
	options) group_options ;;
	requeue) group_requeue ;;
	elastic) group_elastic ;;
	*) result fail "e2e/$g" "unknown group (testonly job lint options elastic requeue)" ;;
	esac
done

note "e2e took $(($(date +%s) - START)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
