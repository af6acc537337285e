# shellcheck shell=bash
# The e2e group "job", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# A generated job runs: 2 nodes x 2 processes, torchrun via srun.
group_job() {
	local name=e2e-dist spec dir sub shared sb id state limit ckpt run_dir f n problems
	dir=$TMP/job
	shared=$TMP/shared
	sub=$dir/submit
	mkdir -p "$dir/out" "$sub" "$shared"
	# The entry point on the shared storage, where every node finds it
	# (JS5022: a path elsewhere exists on no node of the cluster).
	cp "$ROOT/tests/e2e/check_dist.py" "$shared/check_dist.py"
	ckpt=$shared/checkpoints/$name
	# The value checks escaping end to end: the worker must see it verbatim.
	local mark="a b'c \$HOME \"q\""
	spec=$dir/$name.yaml
	# Two processes a node on a type of two GPUs (g7.12xlarge, with EFA):
	# fewer than its GPUs would leave some idle, which gen reports (SB3203).
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$ROOT/examples/jobs/bert-g5.yaml" "$spec" \
		"name=$name" nodes=2 processes_per_node=2 instance=g7.12xlarge framework=plain \
		-parallel -batch -model "storage.mount=$shared" \
		"entry.script=$shared/check_dist.py" \
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
	local got=reject
	[ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ] && got=accept
	observe gen-job-completed "$name: 2 nodes x 2 workers, torchrun via srun" accept "$got" \
		"job $id $state, ExitCode=$(job_field "$id" ExitCode)"
	tf_target_check gen-job-completed "$sb" "$got"
	if [ "$got" = accept ]; then
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

# A generated job with software.python.venv runs to COMPLETED with torch
# from the virtualenv: made with --system-site-packages (Debian's
# python3-torch is the only torch here), its torchrun the console script
# pip would write, which notes the interpreter's prefix and torch's file.
group_job_venv() {
	local name=e2e-venv dir=$TMP/job-venv shared=$TMP/shared venv spec sb id state sub problems
	venv=$shared/envs/train
	sub=$dir/submit
	mkdir -p "$dir/out" "$sub" "$shared"
	cp "$ROOT/tests/e2e/check_dist.py" "$shared/check_dist.py"
	rm -f "$shared/venv-torchrun.log"
	if ! $PY -m venv --system-site-packages "$venv" >"$dir/venv.log" 2>&1; then
		result fail job-venv/venv "python3 -m venv --system-site-packages failed"
		indent <"$dir/venv.log"
		return
	fi
	# Debian's torch 1.13 launcher needs tests/e2e/torchrun.py's patch
	# under Python 3.11 (see there); the virtualenv's interpreter runs it.
	cat >"$venv/bin/torchrun" <<PYEOF
#!$venv/bin/python3
import os, runpy, sys
import torch
with open("$shared/venv-torchrun.log", "a") as f:
    print(os.environ.get("SLURMD_NODENAME", "?"), sys.prefix, torch.__file__, file=f, flush=True)
runpy.run_path("$ROOT/tests/e2e/torchrun.py", run_name="__main__")
PYEOF
	chmod +x "$venv/bin/torchrun"
	spec=$dir/$name.yaml
	if ! $PY "$ROOT/tests/e2e/spec_override.py" "$ROOT/examples/jobs/bert-g5-venv.yaml" "$spec" \
		"name=$name" nodes=2 processes_per_node=2 instance=g7.12xlarge framework=plain \
		-parallel -batch -model -path_prepend "storage={type: ebs, mount: '$shared'}" \
		"entry.script=$shared/check_dist.py" \
		"entry.args=[--out, $shared/venv-results, --world, '4']" \
		"software={python: {venv: '$venv'}}" time_limit=30 ||
		! tf_gen --force -o "$dir/out" "$spec" >"$dir/gen.log" 2>&1; then
		result fail job-venv/generate "spec_override.py or trainforge gen failed"
		indent <"$dir/gen.log" 2>/dev/null
		return
	fi
	sb=$dir/out/$name.sbatch
	result pass job-venv/generate "$(grep -c '^export VIRTUAL_ENV=' "$sb") VIRTUAL_ENV export, venv $venv"
	# The shims come first on the submitting PATH; the script puts the
	# virtualenv's bin before them.
	id=$(cd "$sub" && PATH=$SHIM_PATH TF_E2E_SHIM_LOG=$shared/torchrun.log \
		timeout 60 sbatch --parsable "$sb" 2>"$dir/sbatch.err")
	if [ -z "$id" ]; then
		result fail job-venv/submit "sbatch refused the generated script"
		indent <"$dir/sbatch.err"
		return
	fi
	state=$(job_wait "$id" "${TF_E2E_JOB_LIMIT:-300}")
	if [ "$state" = COMPLETED ] && [ "$(job_field "$id" ExitCode)" = 0:0 ]; then
		result pass job-venv/completed "job $id COMPLETED, exit 0:0"
	else
		result fail job-venv/completed "job $id $state, exit $(job_field "$id" ExitCode)"
		tail -n 30 "$sub"/*.out "$shared/logs/$name/$id"/*.log 2>/dev/null | indent 60
		[[ $state == *-after-* ]] && timeout 20 scancel "$id"
		return
	fi
	problems=$($PY - "$shared/venv-torchrun.log" "$venv" "$shared/venv-results" <<'PYEOF'
import json, os, sys
log, venv, results = sys.argv[1:]
lines = [l.split() for l in open(log)] if os.path.exists(log) else []
if len(lines) != 2 or len({l[0] for l in lines}) != 2:
    print(f"the virtualenv's torchrun started {len(lines)} times: {lines}, expected once on each of 2 nodes")
for node, prefix, torch_file in lines:
    if os.path.realpath(prefix) != os.path.realpath(venv):
        print(f"{node}: torchrun's interpreter prefix {prefix}, not the virtualenv {venv}")
files = sorted(f for f in os.listdir(results) if f.startswith("rank-")) if os.path.isdir(results) else []
if len(files) != 4:
    print(f"{len(files)} rank results, expected 4")
for f in files:
    env = json.load(open(os.path.join(results, f)))["environ"]
    if env.get("VIRTUAL_ENV") != venv or not env.get("PATH", "").startswith(venv + "/bin:"):
        print(f"{f}: VIRTUAL_ENV={env.get('VIRTUAL_ENV')!r}, PATH={env.get('PATH', '')[:60]!r}")
if not lines:
    sys.exit(1)
print(f"torchrun from {venv}/bin on {' '.join(sorted(l[0] for l in lines))}, torch {lines[0][2]} through it; 4 workers with VIRTUAL_ENV and its bin first on PATH")
PYEOF
	)
	if [ "$(printf '%s\n' "$problems" | wc -l)" = 1 ] && [ -n "$problems" ] && case $problems in torchrun\ from*) true ;; *) false ;; esac; then
		result pass job-venv/torch-from-venv "$problems"
	else
		result fail job-venv/torch-from-venv "$(printf '%s' "$problems" | head -1)"
		printf '%s\n' "$problems" | indent
	fi
}
