#!/bin/sh
# The framework's own code is the judge of the launch lines gen writes
# (docs/frameworks.md; ../shared/vendor/README.md describes the oracles).
# For every example of examples/jobs and every proof spec of tests/plan/specs
# of these frameworks, the line its batch script runs, as
# bash expands it (../shared/tools/launchline.sh), is read by:
# - Megatron-LM's own argument parser and memory model
#   (../shared/tools/megatron_oracle.py over the vendored d98e8a6): the
#   parameters and active parameters within 2% of the plan's, weights +
#   gradients + optimizer state per rank within 10% of the plan's figure
#   for the same three, a training length of the spec's tokens, and the
#   save interval --save needs;
# - run_llama_nxd.py's own argparse (../shared/tools/argparse_oracle.py
#   over the vendored NxD examples): nothing refused, nothing left unknown
#   (parse_known_args would drop it), a learning rate, a step count from
#   the tokens, the KV replication TP needs, a resume from the latest save;
# - torchtitan 0.3's fields as transcribed in torchtitan-0.3-fields.tsv:
#   every flag a field of its section, a switch given no value, --module
#   and --config given, a step count from the tokens.
# One oracle run per example. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=frameworks/
shared=${TF_SHARED:-../shared}
megatron=$shared/vendor/megatron-lm-d98e8a6.tar.gz
nxd=$shared/vendor/neuronx-distributed-fbac349-llama-examples.tar.gz
for f in "$shared/tools/megatron_oracle.py" "$shared/tools/argparse_oracle.py" "$shared/tools/launchline.sh" "$megatron" "$nxd"; do
	if [ ! -f "$f" ]; then
		skip "oracles: $f not found (set TF_SHARED to the shared folder)"
		exit 0
	fi
done
if ! /usr/bin/python3 -c 'import numpy, packaging, psutil, typing_extensions, yaml' 2>/dev/null; then
	skip "oracles: /usr/bin/python3 lacks numpy, packaging, psutil, typing_extensions or yaml (sh tools/deps.sh installs them)"
	exit 0
fi
tf_built frameworks || exit 0
mkdir -p "$t/nxd" && tar -xzf "$nxd" -C "$t/nxd" || { no "oracles: $nxd does not unpack"; exit 0; }
run_llama=$t/nxd/neuronx-distributed/examples/training/llama/tp_pp_llama_hf_pretrain/run_llama_nxd.py
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-${tool_cache:-$t}}"

# the examples, and the planner's proof specs that gen writes a line for
for spec in examples/jobs/*.yaml tests/plan/specs/*.yaml; do
	name=$(basename "$spec" .yaml)
	fw=$(sed -n 's/^framework: //p' "$spec")
	case $fw in megatron | nxd | torchtitan) ;; *) continue ;; esac
	d=$t/$name
	mkdir -p "$d"
	if ! "$TF" gen -o "$d" "$spec" >/dev/null 2>"$d/err" || ! "$TF" plan -v --format json "$spec" >"$d/plan.json" 2>>"$d/err"; then
		no "$name/gen"; cat "$d/err"; continue
	fi
	script=$(ls "$d"/*.sbatch)
	# A Neuron script stops unless its compile cache is writable (gen's
	# check, docs/jobspec.md); launchline.sh's stand-ins make no
	# directory, so a directory of the test's stands for /fsx's.
	if grep -q "^export NEURON_COMPILE_CACHE_URL='/" "$script"; then
		mkdir -p "$d/neuron-cache"
		sed -i "s|^export NEURON_COMPILE_CACHE_URL=.*|export NEURON_COMPILE_CACHE_URL='$d/neuron-cache'|" "$script"
	fi
	# A mixed fleet's batch step trains in rounds at the nodes it finds
	# usable (squeue, sinfo), which the stand-ins answer with nothing: here
	# its reserved nodes are, and no spot unit is ready, so the line read is
	# the first round's, at the reserved size; its log goes to the test's.
	if grep -q '^round=0 failures=0$' "$script"; then
		mkdir -p "$d/run"
		# shellcheck disable=SC2016 # the script's own variables
		sed -i -e "s|^readonly RUN_DIR=.*|readonly RUN_DIR='$d/run'|" \
			-e 's/^round=0 failures=0$/usable_nodes() { [ "$1" != "$SLURM_JOB_ID" ] || scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n "$RESERVED"; }\n&/' "$script"
	fi
	nodes=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["nodes"])' "$d/plan.json")
	if ! bash "$shared/tools/launchline.sh" "$script" "$nodes" >"$d/lines" 2>"$d/err" || [ ! -s "$d/lines" ]; then
		no "$name/launchline"; cat "$d/err"; continue
	fi
	head -n 1 "$d/lines" >"$d/line.json"
	case $fw in
	megatron)
		python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
print(p["world"]); print("\n".join(json.loads(open(sys.argv[2]).read())["args"]))' \
			"$d/plan.json" "$d/line.json" >"$d/argv"
		world=$(head -n 1 "$d/argv")
		if ! tail -n +2 "$d/argv" | tr '\n' '\0' |
			xargs -0 /usr/bin/python3 "$shared/tools/megatron_oracle.py" "$megatron" "$world" -- >"$d/oracle.json" 2>"$d/err"; then
			no "$name/megatron-reads-the-line"; cat "$d/oracle.json" "$d/err"; continue
		fi
		ok "$name/megatron-reads-the-line"
		py_check "$name/megatron-builds-the-plans-model" "$d/plan.json" "$d/oracle.json" <<'PY'
import json, sys
p, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
m, e = p["model"], p["estimates"][0]
gap = lambda a, b: abs(a - b) / b
print("%s: parameters plan %.6g megatron %.6g (%.3f%%), active plan %.6g megatron %.6g (%.3f%%)" % (
    p["name"], m["parameters"], o["parameters"], 100 * gap(m["parameters"], o["parameters"]),
    m["activeParameters"], o["active_parameters"], 100 * gap(m["activeParameters"], o["active_parameters"])))
assert gap(m["parameters"], o["parameters"]) <= 0.02
assert gap(m["activeParameters"], o["active_parameters"]) <= 0.02
PY
		py_check "$name/megatron-memory-per-rank" "$d/plan.json" "$d/oracle.json" <<'PY'
import json, sys
p, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
stage = p["assumptions"]["zeroStage"]
plan = p["estimates"][0]["memory"]["zeroStageBytes"][stage]
meg = o["weight_and_optimizer_bytes_per_rank"]
print("%s: weights + gradients + optimizer per rank, plan %.4f GiB, megatron %.4f GiB (%.2f%%)" % (
    p["name"], plan / 2**30, meg / 2**30, 100 * (plan - meg) / meg))
assert abs(plan - meg) <= 0.10 * meg
PY
		py_check "$name/megatron-trains-the-tokens" "$d/plan.json" "$d/oracle.json" <<'PY'
import json, sys
p, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a, m = o["args"], p["model"]
assert a["train_samples"] == m["trainSamples"] or a["train_iters"], a
assert a["train_samples"] * a["seq_length"] >= m["tokens"], (a["train_samples"], a["seq_length"], m["tokens"])
assert a["save"] and a["load"] == a["save"] and a["save_interval"] and a["save_interval"] > 0, a
assert a["lr"] and a["tokenizer_type"] and (a["data_path"] or a["mock_data"]), a
assert a["bf16"] and not a["fp16"], a
print("train_samples", a["train_samples"], "save_interval", a["save_interval"])
PY
		;;
	nxd)
		if ! python3 -c 'import json, sys; print("\n".join(json.loads(open(sys.argv[1]).read())["args"]))' "$d/line.json" |
			tr '\n' '\0' | xargs -0 /usr/bin/python3 "$shared/tools/argparse_oracle.py" "$run_llama" >"$d/oracle.json" 2>"$d/err"; then
			no "$name/run_llama_nxd-reads-the-line"; cat "$d/oracle.json" "$d/err"; continue
		fi
		ok "$name/run_llama_nxd-reads-the-line"
		groups=$(sed -n 's/.*query_groups: \([0-9]*\).*/\1/p' "$spec")
		py_check "$name/run_llama_nxd-trains-the-plan" "$d/plan.json" "$d/oracle.json" "${groups:-0}" <<'PY'
import json, sys
p, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
a, m = o["args"], p["model"]
assert o["unknown"] == [], o["unknown"]          # parse_known_args drops these
assert a["lr"] is not None and a["training_dir"] and a["training_config"], a
assert a["max_steps"] == m["trainSteps"], (a["max_steps"], m["trainSteps"])
assert a["max_steps"] * a["train_batch_size"] * (p["world"] // (p["tensor"] * p["pipeline"])) * a["seq_len"] >= m["tokens"]
tp, kv = a["tensor_parallel_size"], int(sys.argv[3])
assert kv > 0, "the example gives its query groups"
assert (kv * a["kv_replicator"]) % tp == 0, (kv, a["kv_replicator"], tp)   # modeling_llama_nxd.py divides them
assert a["kv_replicator"] == 1 or a["qkv_linear"] == 1, a
assert a["checkpoint_dir"] and a["loading_step"] == "latest_if_exists" and 0 < a["checkpoint_freq"] <= a["max_steps"], a
assert a["use_meta_device_init"] == 1, a
print("max_steps", a["max_steps"], "kv_replicator", a["kv_replicator"], "checkpoint_freq", a["checkpoint_freq"])
PY
		;;
	torchtitan)
		py_check "$name/torchtitan-0.3-fields" "$d/plan.json" "$d/line.json" tests/frameworks/torchtitan-0.3-fields.tsv <<'PY'
import json, sys
p, line = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fields = {}
for row in open(sys.argv[3]):
    if row.startswith("#") or not row.strip():
        continue
    sec, name, ty, _ = row.rstrip("\n").split("\t")
    fields[(sec + "." if sec else "") + name] = ty
args, i, seen = line["args"], 0, {}
while i < len(args):
    a = args[i]
    assert a.startswith("--"), "a word that is no flag's value: %r" % a
    key = a[2:].split("=", 1)[0].replace("-", "_")
    assert key in fields, "torchtitan 0.3 has no field %s" % key
    if fields[key] == "bool":
        assert "=" not in a, "%s is a switch" % a
        seen[key] = True
        i += 1
        continue
    value = a.split("=", 1)[1] if "=" in a else args[i + 1]
    if fields[key] == "int":
        int(value)
    seen[key] = value
    i += 1 if "=" in a else 2
assert seen.get("module") and seen.get("config"), seen
assert int(seen["training.steps"]) == p["model"]["trainSteps"], (seen["training.steps"], p["model"]["trainSteps"])
assert int(seen["training.steps"]) * int(seen["training.global_batch_size"]) * int(seen["training.seq_len"]) >= p["model"]["tokens"]
assert seen.get("checkpoint.enable") is True and seen.get("checkpoint.folder") and int(seen["checkpoint.interval"]) > 0, seen
degrees = [int(seen["parallelism." + k]) for k in ("tensor_parallel_degree", "pipeline_parallel_degree", "context_parallel_degree")]
shard = int(seen["parallelism.data_parallel_shard_degree"])
# a mixed fleet's first round runs at the reserved size alone
world = p["fleet"]["smallest"]["world"] if p.get("fleet") else p["world"]
assert shard == -1 or degrees[0] * degrees[1] * degrees[2] * shard == world, (degrees, shard, world)
print(len(seen), "fields, steps", seen["training.steps"])
PY
		;;
	esac
done
