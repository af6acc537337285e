#!/bin/sh
# The generator: examples in sync, outputs that lint clean and pass
# bash -n and shellcheck, safe writes, template overrides, injection, and
# a sweep over the whole catalog. Prints RESULT lines. ok and no only
# print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

# Every example's outputs are checked in and in sync with its spec.
for spec in examples/jobs/*.yaml; do
	name=$(basename "$spec" .yaml)
	if "$TF" gen --check -o examples/jobs/out "$spec" >"$t/out" 2>&1; then ok "in-sync/$name"
	else no "in-sync/$name"; cat "$t/out"; fi
done
# ... lint with zero findings with every rule on, and pass shellcheck;
# the spec of a type the catalog holds provisionally has the note that
# says so (JS1005), on its instance line, and its cluster config the
# same note where the type is written (PC1005, never suppressed by gen),
# and nothing else.
"$TF" lint --format concise --select ALL --ignore JS1005,PC1005 --fail-level info examples/jobs >"$t/out" 2>&1 \
	&& ok lint-examples-clean || { no lint-examples-clean; cat "$t/out"; }
"$TF" lint --format concise -q --select ALL --fail-level never examples/jobs >"$t/out" 2>&1
if [ "$(grep -c '' "$t/out")" = 3 ] &&
	grep -q '^examples/jobs/moe-176b-trn3-mixed.yaml:12:11: info: trn3.48xlarge is provisional in the catalog.*\[JS1005\]$' "$t/out" &&
	[ "$(grep -c '^examples/jobs/out/moe-176b-trn3-cluster.yaml:[0-9]*:[0-9]*: info: instance type .trn3.48xlarge. is provisional.*\[PC1005\]$' "$t/out")" = 2 ]
then ok examples-provisional-notes; else no examples-provisional-notes; cat "$t/out"; fi
for f in examples/jobs/out/*.sbatch; do
	n=$(basename "$f")
	shellcheck "$f" >"$t/out" 2>&1 && ok "shellcheck/$n" || { no "shellcheck/$n"; head "$t/out"; }
	bash -n "$f" && ok "bash-n/$n" || no "bash-n/$n"
	head -n 20 "$f" | awk '/^[^#]/ {cmd=1} cmd && /^#SBATCH/ {bad=1} END {exit bad}' \
		&& ok "sbatch-lines-first/$n" || no "sbatch-lines-first/$n"
done

# Every example's launch line says what its plan assumes: the layout and
# batch (the table's rows), bf16, sequence parallelism, ZeRO and the
# recompute mode, each flag once.
for spec in examples/jobs/*.yaml; do
	name=$(basename "$spec" .yaml)
	"$TF" plan --format json "$spec" >"$t/plan.json" 2>/dev/null
	out=$(sed -n 's/^name: //p' "$spec")
	if python3 - "$t/plan.json" "examples/jobs/out/$out.sbatch" >"$t/out" 2>&1 <<'PY'; then ok "launch-line-matches-plan/$name"; else no "launch-line-matches-plan/$name"; cat "$t/out"; fi
import json, re, sys
plan = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
# a mixed fleet's are set in a function, per round
args = re.search(r"^\s*train_args=\(\n(.*?)^\s*\)", text, re.S | re.M).group(1)
words = [w.strip("'") for line in args.splitlines() for w in line.split()]
a, fw = plan["assumptions"], plan["framework"]
def value(flag):
    assert words.count(flag) == 1, f"{flag} {words.count(flag)} times in {words}"
    i = words.index(flag)
    return words[i + 1] if i + 1 < len(words) and not words[i + 1].startswith("--") else True
want = {}
if fw == "megatron":
    want = {"--tensor-model-parallel-size": str(plan["tensor"]), "--pipeline-model-parallel-size": str(plan["pipeline"]),
            "--micro-batch-size": str(plan["microBatch"]), "--global-batch-size": str(plan["globalBatch"]), "--bf16": True}
    if plan["tensor"] > 1:
        want["--sequence-parallel"] = True
    if plan["expert"] > 1:
        want["--expert-model-parallel-size"] = str(plan["expert"])
    if a["zeroStage"] in (1, 2):
        want["--use-distributed-optimizer"] = True
    else:
        assert "--use-distributed-optimizer" not in words
    if a["recompute"] == "none":
        assert "--recompute-granularity" not in words
    else:
        want["--recompute-granularity"] = a["recompute"]
    if a["recompute"] == "full":
        want.update({"--recompute-method": "uniform", "--recompute-num-layers": "1"})
    # the shape the plan counted, and the training length from the tokens
    m = plan["model"]
    if m["experts"] > 1:
        want.update({"--num-experts": str(m["experts"]), "--moe-router-topk": str(m["expertsPerToken"])})
    if plan["assumptions"]["gatedFfn"]:
        want["--swiglu"] = True
    if m["vocabSize"]:
        want["--vocab-size"] = str(m["vocabSize"])
    want["--train-samples"] = str(m["trainSamples"])
    want["--save-interval"] = str(m["saveInterval"])
elif fw == "torchtitan":
    # a mixed fleet sets the DP of each round's size ("$dp")
    want = {"--parallelism.tensor_parallel_degree": str(plan["tensor"]),
            "--parallelism.data_parallel_shard_degree": '"$dp"' if plan.get("fleet") else str(plan["data"]),
            "--activation_checkpoint.mode": a["recompute"],
            "--training.steps": str(plan["model"]["trainSteps"])}
    assert a["zeroStage"] == 3, "torchtitan's FSDP is stage 3"
elif fw == "nxd":
    # run_llama_nxd.py's 0/1 switches (docs/frameworks.md); no bf16 flag
    want = {"--tensor_parallel_size": str(plan["tensor"]), "--pipeline_parallel_size": str(plan["pipeline"]),
            "--train_batch_size": str(plan["globalBatch"] // plan["data"])}
    assert a["zeroStage"] in (0, 1), "run_llama_nxd.py runs ZeRO-1 or none"
    want["--use_zero1_optimizer"] = str(a["zeroStage"])
    if plan["tensor"] > 1:
        want["--use_sequence_parallel"] = "1"
    assert a["recompute"] != "none", "run_llama_nxd.py checkpoints every layer unless selective"
    want["--use_selective_checkpoint"] = "1" if a["recompute"] == "selective" else "0"
    for w in ("--use_zero_1", "--sequence_parallel_enabled", "--selective_checkpoint_enabled", "--bf16"):
        assert w not in words, f"{w}: another script's spelling"
    want["--max_steps"] = str(plan["model"]["trainSteps"])
    want["--loading_step"] = "latest_if_exists"
# ... and saves periodically at the plan's interval, on the signal it
# handles, and resumes (core/facts/frameworks: fw_checkpoint)
ck = plan["checkpoints"]
if fw == "megatron":
    want.update({"--save": '"$CHECKPOINT_DIR"', "--load": '"$CHECKPOINT_DIR"',
                 "--save-interval": str(ck["intervalSteps"]), "--exit-signal-handler": True,
                 "--exit-signal": "SIGUSR1"})
elif fw == "torchtitan":
    # without a step count, its own interval (500 steps) applies
    want["--checkpoint.folder"] = '"$CHECKPOINT_DIR"'
    if ck["intervalSteps"]:
        want["--checkpoint.interval"] = str(ck["intervalSteps"])
    assert "--checkpoint.enable" in words or "--checkpoint.enable_checkpoint" in words, "checkpointing off"
elif fw == "nxd":
    want.update({"--checkpoint_dir": '"$CHECKPOINT_DIR"', "--checkpoint_freq": str(ck["intervalSteps"]),
                 "--loading_step": "latest_if_exists"})
assert "RESUME=latest" not in text, "RESUME=latest, which no framework reads"
for flag, v in want.items():
    assert value(flag) == v, f"{flag}: {value(flag)}, the plan says {v}"
print(fw, a, "ok")
PY
done

# entry.args that repeat a generated flag are not written twice; ones
# that contradict the spec are refused at their line, and nothing is written.
cat >"$t/dup.yaml" <<'EOF2'
trainforge: 1
name: dup
instance: p5.48xlarge
nodes: 2
framework: megatron
parallel: {tensor: 8}
training: {zero_stage: 1, recompute: full}
model: {layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 4096, tokens: 1e9}
entry: {script: /fsx/Megatron-LM/pretrain_gpt.py, args: [--bf16, --tensor-model-parallel-size, "8", --recompute-method=uniform,
  --lr, "3e-4", --tokenizer-type, NullTokenizer, --vocab-size, "32000", --mock-data]}
cluster: {subnet: subnet-0a1b2c3d4e5f60004, head_subnet: subnet-0a1b2c3d4e5f6a0b1, ssh_key: key}
EOF2
"$TF" gen -o "$t/od" "$t/dup.yaml" >/dev/null 2>&1
[ "$(grep -c -e '--bf16' "$t/od/dup.sbatch")" = 1 ] && [ "$(grep -c -e '--tensor-model-parallel-size' "$t/od/dup.sbatch")" = 1 ] \
	&& [ "$(grep -c -e '--recompute-method' "$t/od/dup.sbatch")" = 1 ] && grep -q -- '--use-distributed-optimizer' "$t/od/dup.sbatch" \
	&& ok args-not-written-twice || { no args-not-written-twice; cat "$t/od/dup.sbatch"; }
sed 's/"8", --recompute-method=uniform/"4", --recompute-method=uniform/' "$t/dup.yaml" >"$t/contra.yaml"
"$TF" gen -o "$t/oc" "$t/contra.yaml" >/dev/null 2>"$t/err"; rc=$?
[ $rc = 1 ] && grep -q 'contra.yaml:9:.*JS4003' "$t/err" && [ ! -e "$t/oc" ] && ok args-contradiction-refused || { no "args-contradiction-refused ($rc)"; cat "$t/err"; }
"$TF" lint --format concise "$t/contra.yaml" >"$t/lint" 2>&1; grep -q 'contra.yaml:9:.*JS4003' "$t/lint" \
	&& ok args-contradiction-in-lint || { no args-contradiction-in-lint; cat "$t/lint"; }

# path_prepend: the old value kept, on purpose; run with stand-ins, PATH
# still finds srun.
cat >"$t/pp.yaml" <<EOF2
trainforge: 1
name: pp
instance: g5.48xlarge
nodes: 2
entry: {script: $t/ppshared/train.py}
cluster: {subnet: subnet-0a1b2c3d4e5f60004, ssh_key: key}
storage: {type: ebs, mount: $t/ppshared}
path_prepend: {PATH: [/home/envs/train/bin], PYTHONPATH: [/home/code, /home/lib]}
EOF2
mkdir -p "$t/opp" "$t/ppbin"
"$TF" gen -o "$t/opp" "$t/pp.yaml" >/dev/null 2>&1 && grep -qxF "export PATH='/home/envs/train/bin'\"\${PATH:+:\${PATH}}\"" "$t/opp/pp.sbatch" \
	&& ok path-prepend-rendered || { no path-prepend-rendered; grep -n PATH "$t/opp/pp.sbatch"; }
shellcheck "$t/opp/pp.sbatch" >"$t/out" 2>&1 && bash -n "$t/opp/pp.sbatch" && ok path-prepend-shellcheck || { no path-prepend-shellcheck; cat "$t/out"; }
# shellcheck disable=SC2016 # the stand-in's own $PATH
printf '#!/bin/sh\nprintf "%%s\\n" "$PATH" >"%s/srun-path"; printf "%%s\\n" "$PYTHONPATH" >>"%s/srun-path"\n' "$t" "$t" >"$t/ppbin/srun"
printf '#!/bin/sh\necho 127.0.0.1\n' >"$t/ppbin/hostname"
chmod +x "$t/ppbin/srun" "$t/ppbin/hostname"
(unset PYTHONPATH; SLURM_JOB_ID=7 PATH="$t/ppbin:$PATH" bash "$t/opp/pp.sbatch" >/dev/null 2>&1) \
	&& [ "$(sed -n 1p "$t/srun-path")" = "/home/envs/train/bin:$t/ppbin:$PATH" ] && [ "$(sed -n 2p "$t/srun-path")" = "/home/code:/home/lib" ] \
	&& ok path-prepend-runs || { no path-prepend-runs; cat "$t/srun-path"; }
printf 'env: {PATH: "/home/envs/train/bin:$PATH"}\n' >>"$t/pp.yaml"
"$TF" gen -o "$t/opp2" "$t/pp.yaml" >/dev/null 2>"$t/err"; [ $? = 1 ] && grep -q 'JS4001' "$t/err" && [ ! -e "$t/opp2" ] \
	&& ok env-path-refused || { no env-path-refused; cat "$t/err"; }

# software.neuron with the install script the spec confirms (u22 is the
# samples' pattern, not a sample): Neuron's install action on every
# compute queue and not on the head node (it has no Neuron device), with
# read access to its bucket, a root volume of 512 GiB, and a Sequence with
# the spot watcher on a mixed fleet's spot queue. Lint clean at the
# default target, and ParallelCluster 3.11's own schema and offline
# validators accept it at target 3.11.
shared=${TF_SHARED:-../shared}
for sw in trn1:plain trn2:mixed; do
	ty=${sw%%:*}; kind=${sw#*:}
	d="$t/neuron-$ty"
	mkdir -p "$d/default" "$d/311"
	{
		printf 'trainforge: 1\nname: nrn\ninstance: %s.%s\n' "$ty" "$([ "$ty" = trn1 ] && echo 32xlarge || echo 48xlarge)"
		[ "$kind" = mixed ] && printf 'capacity: {type: reservation, reservation_id: cr-0123456789abcdef0, reserved: 2, spot: 2, placement_group: nrn-pg}\nbatch: {micro: 1, global: 768}\ns3_buckets: [nrn-artifacts]\n' || printf 'nodes: 2\n'
		printf 'entry: {script: /fsx/train.py}\ncluster: {subnet: subnet-0a1b2c3d4e5f60004, head_subnet: subnet-0a1b2c3d4e5f60005, ssh_key: key, bootstrap: s3://nrn-bootstrap/trainforge}\n'
		printf 'storage: {type: fsx-lustre, mount: /fsx}\nsoftware: {neuron: "2.29.0", neuron_script: extrapolated, python: {venv: /fsx/envs/neuron}}\n'
	} >"$d/spec.yaml"
	url=s3://neuron-s3/pcluster/post-install-scripts/neuron-installation/v2.29.0/u22/pt/install_neuron.sh
	"$TF" gen -o "$d/default" "$d/spec.yaml" >"$d/out" 2>&1 && "$TF" gen --target parallelcluster=3.11 -o "$d/311" "$d/spec.yaml" >>"$d/out" 2>&1 \
		|| { no "neuron-install-gen/$ty"; cat "$d/out"; continue; }
	if python3 - "$d/default/nrn-cluster.yaml" "$url" "$kind" >"$d/out" 2>&1 <<'PY'; then ok "neuron-install-action/$ty"; else no "neuron-install-action/$ty"; cat "$d/out"; fi
import sys, yaml
c, url, kind = yaml.safe_load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
h = c["HeadNode"]
assert "CustomActions" not in h, h
assert all(a["BucketName"] != "neuron-s3" for a in h.get("Iam", {}).get("S3Access", [])), h
assert "LocalStorage" not in h, h
qs = c["Scheduling"]["SlurmQueues"]
assert len(qs) == (2 if kind == "mixed" else 1), qs
for q in qs:
    a = q["CustomActions"]["OnNodeConfigured"]
    scripts = [x["Script"] for x in a["Sequence"]] if "Sequence" in a else [a["Script"]]
    assert scripts[0] == url, a
    assert len(scripts) == (2 if q["CapacityType"] == "SPOT" and kind == "mixed" else 1), a
    assert {"BucketName": "neuron-s3", "EnableWriteAccess": False} in q["Iam"]["S3Access"], q
    assert q["ComputeSettings"]["LocalStorage"]["RootVolume"]["Size"] == 512, q
PY
	"$TF" lint --select ALL --fail-level info --format concise "$d/default/nrn-cluster.yaml" "$d/default/nrn.sbatch" >"$d/out" 2>&1 \
		&& "$TF" lint --target parallelcluster=3.11 --fail-level info --format concise "$d/311/nrn-cluster.yaml" "$d/311/nrn.sbatch" >>"$d/out" 2>&1 \
		&& ok "neuron-install-lint-clean/$ty" || { no "neuron-install-lint-clean/$ty"; cat "$d/out"; }
	if [ -x "$shared/tools/pcluster_schema_check.py" ] && [ -x "$shared/tools/pcluster_offline_validate.py" ]; then
		"$shared/tools/pcluster_schema_check.py" "$d/311/nrn-cluster.yaml" >"$d/out" 2>&1 \
			&& "$shared/tools/pcluster_offline_validate.py" "$d/311/nrn-cluster.yaml" >>"$d/out" 2>&1 \
			&& ok "neuron-install-pcluster-3.11/$ty" || { no "neuron-install-pcluster-3.11/$ty"; cat "$d/out"; }
	else
		skip "neuron-install-pcluster-3.11/$ty: no $shared/tools (set TF_SHARED)"
	fi
done
# The path a sample shows (u20, until ParallelCluster 3.14 removed
# ubuntu2004) needs no confirmation; u22 without it is refused, nothing
# written.
sed 's/neuron_script: extrapolated, //; s/ssh_key: key,/ssh_key: key, os: ubuntu2004,/' "$t/neuron-trn1/spec.yaml" >"$t/neuron-u20.yaml"
"$TF" gen --target parallelcluster=3.13 -o "$t/neuron-u20" "$t/neuron-u20.yaml" >"$t/out" 2>&1 \
	&& grep -q 'neuron-installation/v2.29.0/u20/pt/install_neuron.sh' "$t/neuron-u20/nrn-cluster.yaml" && ! grep -q 'JS500[12]' "$t/out" \
	&& ok neuron-install-documented-u20 || { no neuron-install-documented-u20; cat "$t/out"; }
sed 's/neuron_script: extrapolated, //' "$t/neuron-trn1/spec.yaml" >"$t/neuron-u22.yaml"
"$TF" gen -o "$t/neuron-u22" "$t/neuron-u22.yaml" >/dev/null 2>"$t/err"; [ $? = 1 ] && grep -q JS5001 "$t/err" && [ ! -e "$t/neuron-u22" ] \
	&& ok neuron-install-extrapolation-refused || { no neuron-install-extrapolation-refused; cat "$t/err"; }
# The prebuilt route: the AMI on the compute queues alone, nothing
# installed at boot; the build-image config ParallelCluster 3.11's own
# image schema accepts.
sed 's/neuron_script: extrapolated, python: {venv: \/fsx\/envs\/neuron}/neuron_image: {parent: ami-0123456789abcdef1}/; s/ssh_key: key,/ssh_key: key, ami: ami-0123456789abcdef0,/' \
	"$t/neuron-trn1/spec.yaml" >"$t/neuron-ami.yaml"
"$TF" gen -o "$t/neuron-ami" "$t/neuron-ami.yaml" >"$t/out" 2>&1 || { no neuron-ami-gen; cat "$t/out"; }
py_check neuron-ami-compute-only "$t/neuron-ami/nrn-cluster.yaml" <<'PY'
import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
assert "CustomAmi" not in c["Image"] and "CustomActions" not in c["HeadNode"], c
for q in c["Scheduling"]["SlurmQueues"]:
    assert q["Image"] == {"CustomAmi": "ami-0123456789abcdef0"}, q
    assert "CustomActions" not in q, q
PY
if [ -d "$shared/vendor/aws-parallelcluster-3.11/cli/src" ] && /usr/bin/python3 -c 'import marshmallow, yaml' 2>/dev/null; then
	/usr/bin/python3 - "$shared/vendor/aws-parallelcluster-3.11/cli/src" "$t/neuron-ami/nrn-image.yaml" >"$t/out" 2>&1 <<'PY' \
		&& ok neuron-image-config-pcluster-3.11 || { no neuron-image-config-pcluster-3.11; cat "$t/out"; }
import sys, yaml
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from pcluster.schemas.imagebuilder_schema import ImageBuilderSchema
conf = yaml.safe_load(open(sys.argv[2]))
ImageBuilderSchema().load(conf)
assert conf["Build"]["ParentImage"] == "ami-0123456789abcdef1" and conf["Image"]["Name"] == "nrn-neuron-2-29-0", conf
PY
else
	skip "neuron-image-config-pcluster-3.11: no $shared/vendor/aws-parallelcluster-3.11 or marshmallow (set TF_SHARED)"
fi
# Without cluster.ami the image comes first: the image config and the
# batch script, no cluster config yet, and the build in the next steps.
sed 's/ ami: ami-0123456789abcdef0,//' "$t/neuron-ami.yaml" >"$t/neuron-pending.yaml"
"$TF" gen -o "$t/neuron-pending" "$t/neuron-pending.yaml" >"$t/out" 2>"$t/err" \
	&& [ -e "$t/neuron-pending/nrn-image.yaml" ] && [ -e "$t/neuron-pending/nrn.sbatch" ] && [ ! -e "$t/neuron-pending/nrn-cluster.yaml" ] \
	&& grep -q JS5006 "$t/err" && grep -q "pcluster build-image --image-configuration $t/neuron-pending/nrn-image.yaml --image-id nrn-neuron-2-29-0" "$t/out" \
	&& ! grep -q 'create-cluster' "$t/out" && ok neuron-image-pending || { no neuron-image-pending; cat "$t/out" "$t/err"; }

# Every example's cluster, generated at target 3.11, lints clean there and
# passes ParallelCluster 3.11's schema and offline validators (the Neuron
# ones with the install action JS3003 asks for). An example on Ubuntu
# 24.04 (the Neuron releases with native PyTorch have no 22.04) needs
# ParallelCluster 3.13, and gen says so at 3.11.
for spec in examples/jobs/*.yaml; do
	name=$(basename "$spec" .yaml)
	d="$t/ex311-$name"
	if grep -q 'os: ubuntu2404' "$spec"; then
		expect_rc "example-pcluster-3.11-refused/$name" 1 "$TF" gen --target parallelcluster=3.11 -o "$d" "$spec"
		has "example-pcluster-3.11-says-why/$name" "'ubuntu2404' needs ParallelCluster 3.13 or later; the target is 3.11 \\[JS0005\\]" "$t/err"
		continue
	fi
	if ! "$TF" gen --target parallelcluster=3.11 -o "$d" "$spec" >"$t/out" 2>&1; then
		no "example-pcluster-3.11/$name"; cat "$t/out"; continue
	fi
	c=$(ls "$d"/*-cluster.yaml)
	# (the provisional type's note, PC1005, is the one info they may have)
	"$TF" lint --target parallelcluster=3.11 --fail-level info --ignore PC1005 --format concise "$c" "$d"/*.sbatch >"$t/out" 2>&1 \
		|| { no "example-lint-3.11/$name"; cat "$t/out"; continue; }
	if [ -x "$shared/tools/pcluster_schema_check.py" ] && [ -x "$shared/tools/pcluster_offline_validate.py" ]; then
		"$shared/tools/pcluster_schema_check.py" "$c" >"$t/out" 2>&1 \
			&& "$shared/tools/pcluster_offline_validate.py" "$c" >>"$t/out" 2>&1 \
			&& ok "example-pcluster-3.11/$name" || { no "example-pcluster-3.11/$name"; cat "$t/out"; }
	else
		skip "example-pcluster-3.11/$name: no $shared/tools (set TF_SHARED)"
	fi
done
sed 's/^cluster: {\(.*\)}$/cluster: {\1, os: rhel9}/' "$t/neuron-trn1/spec.yaml" >"$t/neuron-rhel.yaml"
"$TF" gen -o "$t/neuron-rhel" "$t/neuron-rhel.yaml" >/dev/null 2>"$t/err"; [ $? = 1 ] && grep -q JS3002 "$t/err" \
	&& ok neuron-install-unavailable || { no neuron-install-unavailable; cat "$t/err"; }

# software.python and software.container: shellcheck and bash -n clean
# (the examples above), the venv activated, the image on every srun.
grep -qxF "export VIRTUAL_ENV='/fsx/envs/train'" examples/jobs/out/bert-large-venv.sbatch \
	&& grep -qF 'export PATH="$VIRTUAL_ENV/bin${PATH:+:${PATH}}"' examples/jobs/out/bert-large-venv.sbatch \
	&& ok venv-activated || no venv-activated
[ "$(grep -c "^	--container-image='/fsx/images/pytorch-24.12-efa.sqsh' --container-mounts='/fsx:/fsx,/fsx/data:/data:ro' \\\\$" examples/jobs/out/gpt-8b.sbatch)" = "$(grep -c '^srun ' examples/jobs/out/gpt-8b.sbatch)" ] \
	&& ok container-on-every-srun || { no container-on-every-srun; grep -n -A2 '^srun' examples/jobs/out/gpt-8b.sbatch; }

# A finding in a generated file that a spec value or a user template
# causes is the user's (JS4006), at that value or template line; nothing
# is written, and lint of the spec says the same.
"$TF" gen -o "$t/ou" tests/cases/JS4006/bad.yaml >/dev/null 2>"$t/err"; rc=$?
[ $rc = 1 ] && [ "$(grep -c 'bad.yaml:10:.*\[SB210[24]\] \[JS4006\]' "$t/err")" = 2 ] && ! grep -q 'trainforge bug' "$t/err" \
	&& [ ! -e "$t/ou" ] && ok user-value-finding-at-spec || { no "user-value-finding-at-spec ($rc)"; cat "$t/err"; }
"$TF" lint --format concise tests/cases/JS4006/bad.yaml >"$t/lint" 2>&1
[ "$(grep -c 'bad.yaml:10:.*\[JS4006\]' "$t/lint")" = 2 ] && ok user-value-finding-in-lint || { no user-value-finding-in-lint; cat "$t/lint"; }
mkdir -p "$t/utpl"
sed 's|^set -euo pipefail$|set -euo pipefail\nexport PATH=/opt/venv/bin|' templates/batch.sbatch.mustache >"$t/utpl/batch.sbatch.mustache"
at=$(grep -n '^export PATH=/opt/venv/bin$' "$t/utpl/batch.sbatch.mustache" | cut -d: -f1)
"$TF" gen --templates "$t/utpl" -o "$t/out-utpl" examples/jobs/bert-g5.yaml >/dev/null 2>"$t/err"; rc=$?
[ $rc = 1 ] && grep -q "utpl/batch.sbatch.mustache:$at:1: warning: this line of your template .*\[SB2113\] \[JS4006\]" "$t/err" \
	&& [ ! -e "$t/out-utpl" ] && ok user-template-finding-at-line || { no "user-template-finding-at-line ($rc)"; cat "$t/err"; }

# Safe writes: no overwrite without --force, drift is exit 1, no temp files.
spec=examples/jobs/bert-g5.yaml
mkdir "$t/o"
"$TF" gen -o "$t/o" "$spec" >/dev/null 2>&1 && ok gen-writes || no gen-writes
echo "# edited" >>"$t/o/bert-large.sbatch"
"$TF" gen -o "$t/o" "$spec" >/dev/null 2>"$t/err"; rc=$?
[ $rc = 2 ] && grep -q "not overwritten without --force" "$t/err" && grep -q '# edited' "$t/o/bert-large.sbatch" \
	&& ok refuses-overwrite || no "refuses-overwrite ($rc)"
"$TF" gen --check -o "$t/o" "$spec" >/dev/null 2>&1; [ $? = 1 ] && ok check-drift || no check-drift
"$TF" gen --force -o "$t/o" "$spec" >/dev/null 2>&1 && ! grep -q '# edited' "$t/o/bert-large.sbatch" \
	&& ok force-overwrites || no force-overwrites
[ "$(find "$t/o" -name '.*' -type f | wc -l)" = 0 ] && ok no-temp-files || no no-temp-files
"$TF" gen --check -o "$t/o" "$spec" >/dev/null 2>&1 && ok check-clean || no check-clean
# -o DIR makes DIR and its parents, only when something is written.
"$TF" gen --check -o "$t/new/a/b" "$spec" >/dev/null 2>&1; rc=$?
[ $rc = 1 ] && [ ! -e "$t/new" ] && ok check-makes-no-dir || no "check-makes-no-dir ($rc)"
"$TF" gen -o "$t/new/a/b" tests/cases/JS2001/bad.yaml >/dev/null 2>&1
[ ! -e "$t/new" ] && ok findings-make-no-dir || no findings-make-no-dir
"$TF" gen -o "$t/new/a/b/" "$spec" >/dev/null 2>&1 && [ -f "$t/new/a/b/bert-large.sbatch" ] \
	&& ok missing-dir-made || no missing-dir-made
: >"$t/plainfile"
"$TF" gen -o "$t/plainfile" "$spec" >/dev/null 2>"$t/err"; [ $? = 2 ] && grep -q 'not a directory' "$t/err" \
	&& ok file-not-dir || no file-not-dir
"$TF" gen -o "$t/plainfile/sub" "$spec" >/dev/null 2>"$t/err"; [ $? = 2 ] && grep -q 'plainfile/sub' "$t/err" \
	&& ok under-file-not-dir || { no under-file-not-dir; cat "$t/err"; }
"$TF" gen -o "$t/o" tests/cases/JS2001/bad.yaml >/dev/null 2>"$t/err"; rc=$?
[ $rc = 1 ] && grep -q JS2001 "$t/err" && ok bad-spec-diagnostic || no bad-spec-diagnostic

# --templates overrides a template by name; a broken one is reported.
mkdir "$t/tpl" "$t/o2"
sed 's/^set -euo pipefail$/set -euo pipefail\n# custom template/' templates/batch.sbatch.mustache >"$t/tpl/batch.sbatch.mustache"
"$TF" gen --templates "$t/tpl" -o "$t/o2" "$spec" >/dev/null 2>&1 && grep -q '^# custom template$' "$t/o2/bert-large.sbatch" \
	&& ok template-override || no template-override
printf '#!/bin/bash\n{{#nodes}}\n' >"$t/tpl/batch.sbatch.mustache"
"$TF" gen --force --templates "$t/tpl" -o "$t/o2" "$spec" >/dev/null 2>"$t/err"; rc=$?
[ $rc = 2 ] && grep -q 'batch.sbatch.mustache:2:1' "$t/err" && ok template-error-position || { no template-error-position; cat "$t/err"; }
printf '#!/bin/bash\necho {{no_such_key}}\n' >"$t/tpl/batch.sbatch.mustache"
"$TF" gen --force --templates "$t/tpl" -o "$t/o2" "$spec" >/dev/null 2>"$t/err"; rc=$?
[ $rc = 2 ] && grep -q 'no_such_key' "$t/err" && ok template-strict-missing || { no template-strict-missing; cat "$t/err"; }

# Injection: hostile words in args and env are data, never code. Run the
# generated script with stand-ins for srun, torchrun and hostname.
mark="$t/pwned"
cat >"$t/evil.yaml" <<EOF2
trainforge: 1
name: evil
instance: g5.48xlarge
nodes: 2
entry:
  script: $t/shared/train.py
  args: ["\$(touch $mark)", "\`touch $mark\`", "a'b\"c", "two
lines", "*", "--x=\${HOME}", "; touch $mark", "# not a comment"]
cluster: {subnet: subnet-0a1b2c3d4e5f60004, ssh_key: key}
storage: {type: ebs, mount: $t/shared}
env: {PAYLOAD: "\$(touch $mark)", QUOTE: "it's"}
EOF2
mkdir "$t/o3" "$t/bin"
"$TF" gen -o "$t/o3" "$t/evil.yaml" >/dev/null 2>&1 && ok injection-generates || no injection-generates
bash -n "$t/o3/evil.sbatch" && ok injection-bash-n || no injection-bash-n
shellcheck "$t/o3/evil.sbatch" >/dev/null && ok injection-shellcheck || no injection-shellcheck
# shellcheck disable=SC2016 # the stand-in's own $@ and $PAYLOAD
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/srun-args"\nprintf "%%s\\n" "$PAYLOAD" >"%s/payload"\n' "$t" "$t" >"$t/bin/srun"
printf '#!/bin/sh\necho 127.0.0.1\n' >"$t/bin/hostname"
chmod +x "$t/bin/srun" "$t/bin/hostname"
SLURM_JOB_ID=7 PATH="$t/bin:$PATH" bash "$t/o3/evil.sbatch" >/dev/null 2>&1 && ok injection-runs || no injection-runs
[ ! -e "$mark" ] && ok injection-nothing-executed || no injection-nothing-executed
grep -qxF "\$(touch $mark)" "$t/srun-args" && grep -qxF "a'b\"c" "$t/srun-args" && grep -qxF '*' "$t/srun-args" \
	&& grep -qxF "\$(touch $mark)" "$t/payload" && ok injection-words-intact || { no injection-words-intact; cat "$t/srun-args"; }
cat >"$t/evil2.yaml" <<'EOF2'
trainforge: 1
name: "evil: {x}"
instance: p5.48xlarge
nodes: 2
entry: {script: "/opt/train.py; rm -rf /"}
cluster: {subnet: subnet-0a1b2c3d4e5f60004, head_subnet: subnet-0a1b2c3d4e5f6a0b1, ssh_key: "key\n#SBATCH --x"}
EOF2
"$TF" gen -o "$t/o3" "$t/evil2.yaml" >/dev/null 2>"$t/err"; rc=$?
[ $rc = 1 ] && [ "$(grep -c JS0005 "$t/err")" = 3 ] && ok injection-rejected-by-schema || { no injection-rejected-by-schema; cat "$t/err"; }

# Sweep: every catalog instance type, one and two nodes, two frameworks.
# Each spec either generates files that lint clean and pass shellcheck,
# or is refused with JS findings; nothing else.
types=$(awk '/^  - name: / {print $3}' schemas/instances.yaml)
bad=0
n=0
for ty in $types; do
	for nodes in 1 2; do
		for fw in plain megatron; do
			n=$((n + 1))
			d="$t/sweep/$ty-$nodes-$fw"
			mkdir -p "$d"
			printf 'trainforge: 1\nname: sweep\ninstance: %s\nnodes: %s\nframework: %s\nentry: {script: /fsx/train.py}\ncluster: {subnet: subnet-0a1b2c3d4e5f60004, ssh_key: key}\n' \
				"$ty" "$nodes" "$fw" >"$d/spec.yaml"
			"$TF" gen -o "$d" "$d/spec.yaml" >"$d/out" 2>&1
			rc=$?
			if [ $rc = 0 ]; then
				"$TF" lint -q --select ALL "$d/sweep-cluster.yaml" >>"$d/out" 2>&1 &&
					shellcheck "$d/sweep.sbatch" >>"$d/out" 2>&1 || { bad=$((bad + 1)); echo "  $ty $nodes $fw: findings"; }
			elif [ $rc = 1 ] && grep -q '\[JS[0-9]*\]' "$d/out"; then
				:
			else
				bad=$((bad + 1))
				echo "  $ty $nodes $fw: exit $rc"; head -3 "$d/out"
			fi
		done
	done
done
[ "$bad" = 0 ] && ok "catalog-sweep ($n specs)" || no "catalog-sweep: $bad of $n"

# A provisional type generates, with one note: JS1005 for the spec; the
# config names the type as it is, and lint of it says the same (PC1005)
# where it stands: gen never suppresses it.
mkdir -p "$t/trn3"
"$TF" gen -o "$t/trn3" examples/jobs/moe-176b-trn3-mixed.yaml >"$t/out" 2>"$t/err" && ok trn3-generates || no trn3-generates
[ "$(grep -c 'info: .*\[' "$t/err")" = 1 ] && grep -q '\[JS1005\]' "$t/err" \
	&& ok trn3-gen-one-note || { no trn3-gen-one-note; cat "$t/err"; }
grep -q 'InstanceType: "trn3.48xlarge"$' "$t/trn3/moe-176b-trn3-cluster.yaml" && ! grep -q 'disable=' "$t/trn3/moe-176b-trn3-cluster.yaml" \
	&& ok trn3-config-names-type-unsuppressed || no trn3-config-names-type-unsuppressed
grep -q '^export NEURON_LOGICAL_NC_CONFIG=2$' "$t/trn3/moe-176b-trn3.sbatch" \
	&& ok trn3-script-sets-lnc || no trn3-script-sets-lnc
"$TF" lint --format concise --select ALL --fail-level never "$t/trn3/moe-176b-trn3-cluster.yaml" "$t/trn3/moe-176b-trn3.sbatch" >"$t/out" 2>&1
[ "$(grep -c '\[PC1005\]$' "$t/out")" = 2 ] && [ "$(grep -c ': \(error\|warning\|info\): ' "$t/out")" = 2 ] \
	&& ok trn3-output-says-provisional || { no trn3-output-says-provisional; cat "$t/out"; }

# ---- the cluster around the job -------------------------------------------
# Data survives the cluster: Retain for FSx for Lustre and EFS, Snapshot
# for EBS, Delete only when the spec asks; none for a storage mounted by id.
for st in "fsx-lustre|Retain|FsxLustreSettings" "efs|Retain|EfsSettings" "ebs|Snapshot|EbsSettings" \
	"fsx-lustre, deletion_policy: delete|Delete|FsxLustreSettings" "ebs, id: vol-0123456789abcdef0|none|EbsSettings"; do
	type=${st%%|*}; rest=${st#*|}; want=${rest%%|*}; key=${rest#*|}
	d="$t/storage-$want-$key"
	mkdir -p "$d"
	printf 'trainforge: 1\nname: keep\ninstance: g5.48xlarge\nnodes: 2\nentry: {script: /fsx/train.py}\ncluster: {subnet: subnet-0a1b2c3d4e5f60004, ssh_key: key}\nstorage: {type: %s, mount: /fsx}\n' \
		"$type" >"$d/spec.yaml"
	"$TF" gen -o "$d" "$d/spec.yaml" >"$d/out" 2>&1 || { no "deletion-policy/$type"; cat "$d/out"; continue; }
	/usr/bin/python3 - "$d/keep-cluster.yaml" "$want" "$key" >"$d/check" 2>&1 <<'PY' && ok "deletion-policy/$want/$key" || { no "deletion-policy/$want/$key"; cat "$d/check"; }
import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))["SharedStorage"][0][sys.argv[3]]
want = sys.argv[2]
assert s.get("DeletionPolicy", "none") == want, s
PY
done
grep -q 'after the run    pcluster delete-cluster keeps the 1200 GiB FSx for Lustre file system (DeletionPolicy Retain)' \
	"$t/storage-Retain-FsxLustreSettings/out" && ok storage-kept-in-summary || { no storage-kept-in-summary; cat "$t/storage-Retain-FsxLustreSettings/out"; }
sed 's/storage: {type: fsx-lustre, mount: \/fsx}/storage: {type: fsx-lustre, mount: \/fsx, usd_per_gib_month: 0.21}/' \
	"$t/storage-Retain-FsxLustreSettings/spec.yaml" >"$t/keep-priced.yaml"
"$TF" plan -v "$t/keep-priced.yaml" 2>/dev/null | grep -q 'at most \$252 a month (1200 GiB x \$0.21, storage.usd_per_gib_month) until you delete it' \
	&& ok storage-kept-cost || { no storage-kept-cost; "$TF" plan -v "$t/keep-priced.yaml" | grep 'after the run'; }

# Containers: Pyxis enabled by the tutorial's actions (the head node's
# OnNodeConfigured, every queue's OnNodeStart), fetched from the bootstrap
# prefix with read access to it alone; the scripts pass bash -n and
# shellcheck.
d="$t/pyxis"
"$TF" gen -o "$d" examples/jobs/gpt-8b-p5-container.yaml >"$t/pyxis.out" 2>&1 || { no pyxis-gen; cat "$t/pyxis.out"; }
py_check pyxis-actions "$d/gpt-8b-cluster.yaml" <<'PY'
import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
base = "s3://gpt-8b-cluster-bootstrap/trainforge/"
h = c["HeadNode"]
assert h["CustomActions"] == {"OnNodeConfigured": {"Script": base + "gpt-8b-pyxis-head.sh"}}, h
assert {"BucketName": "gpt-8b-cluster-bootstrap", "KeyName": "trainforge/*", "EnableWriteAccess": False} in h["Iam"]["S3Access"], h
for q in c["Scheduling"]["SlurmQueues"]:
    assert q["CustomActions"] == {"OnNodeStart": {"Script": base + "gpt-8b-pyxis-compute.sh"}}, q
    assert q["Iam"]["S3Access"] == [{"BucketName": "gpt-8b-cluster-bootstrap", "KeyName": "trainforge/*", "EnableWriteAccess": False}], q
PY
for f in "$d/gpt-8b-pyxis-head.sh" "$d/gpt-8b-pyxis-compute.sh"; do
	n=$(basename "$f")
	bash -n "$f" && shellcheck "$f" >"$t/out" 2>&1 && ok "pyxis-script-clean/$n" || { no "pyxis-script-clean/$n"; cat "$t/out"; }
done
grep -q 'cp "$examples/pyxis/pyxis.conf" /opt/slurm/etc/plugstack.conf.d/pyxis.conf' "$d/gpt-8b-pyxis-head.sh" \
	&& grep -q '/opt/slurm/bin/scontrol reconfigure' "$d/gpt-8b-pyxis-head.sh" && ok pyxis-enabled-by-head || no pyxis-enabled-by-head
grep -q 'container        /fsx/images/pytorch-24.12-efa.sqsh through Pyxis and enroot (gen.s set-up scripts enable them); EFA: libfabric and aws-ofi-nccl in the image, as the spec states' "$t/pyxis.out" \
	&& ok container-efa-in-summary || { no container-efa-in-summary; cat "$t/pyxis.out"; }

# Next steps: the exact commands in order, with gen's names and paths, and
# no doubled slash whatever -o ends with.
d="$t/nextsteps"
"$TF" gen -o "$d/" examples/jobs/moe-176b-trn2-mixed.yaml >"$t/out" 2>"$t/err" || { no next-steps-gen; cat "$t/err"; }
! grep -q '//' "$t/err" && ! sed -n '/^next steps$/,$p' "$t/out" | grep -v 'https\?://\|s3://' | grep -q '//' \
	&& grep -q "^$d/moe-176b-mixed-cluster.yaml: wrote$" "$t/err" && ok no-doubled-slash || { no no-doubled-slash; cat "$t/err" "$t/out"; }
sed -n '/^next steps$/,$p' "$t/out" >"$t/steps.txt"
awk -v d="$d" '
	/aws s3 cp / { if ($4 == d "/moe-176b-mixed-spot-watcher.sh" && $5 == "s3://moe-176b-cluster-bootstrap/trainforge/moe-176b-mixed/moe-176b-mixed-spot-watcher.sh") up = NR }
	/pcluster build-image / { build = NR }
	/pcluster create-cluster --cluster-name moe-176b-mixed --cluster-configuration / { if (index($0, d "/moe-176b-mixed-cluster.yaml --region us-east-2")) create = NR }
	/pcluster ssh .* sbatch moe-176b-mixed.sbatch$/ { submit = NR }
	END { exit !(up && build && create && submit && up < build && build < create && create < submit) }' "$t/steps.txt" \
	&& ok next-steps-in-order || { no next-steps-in-order; cat "$t/steps.txt"; }
grep -q 'it may be up to 19 long' "$t/steps.txt" && ok next-steps-name-limit || { no next-steps-name-limit; cat "$t/steps.txt"; }

# The batch script: the compile cache made and checked before any worker
# starts (a cache that cannot be made stops the job with the reason),
# NEURON_CC_FLAGS extended and never replaced, and the precompile step
# under neuron_parallel_compile before training.
# The script runs here with /fsx moved under the test's directory.
d="$t/cache"
mkdir -p "$d/bin" "$d/shared"
cat >"$d/spec.yaml" <<EOF2
trainforge: 1
name: cc
instance: trn2.48xlarge
nodes: 2
entry: {script: /fsx/train.py}
cluster: {subnet: subnet-0a1b2c3d4e5f60004, head_subnet: subnet-0a1b2c3d4e5f60005, ssh_key: key, ami: ami-0123456789abcdef0}
storage: {type: fsx-lustre, mount: /fsx}
training: {precompile: true}
env: {NEURON_CC_FLAGS: --model-type=transformer}
software: {neuron: "2.29.0"}
EOF2
"$TF" gen -o "$d/o" "$d/spec.yaml" >"$t/out" 2>&1 || { no cache-gen; cat "$t/out"; }
bash -n "$d/o/cc.sbatch" && shellcheck "$d/o/cc.sbatch" >"$t/out" 2>&1 && ok cache-script-clean || { no cache-script-clean; cat "$t/out"; }
sed "s|/fsx|$d/shared|g" "$d/o/cc.sbatch" >"$d/cc.sbatch"
# shellcheck disable=SC2016 # the stand-in's own variables
printf '#!/bin/sh\nprintf "%%s\\n" "$NEURON_CC_FLAGS" "$*" >>"%s/srun.log"\n' "$d" >"$d/bin/srun"
printf '#!/bin/sh\necho 127.0.0.1\n' >"$d/bin/hostname"
chmod +x "$d/bin/srun" "$d/bin/hostname"
(SLURM_JOB_ID=7 NEURON_CC_FLAGS=--from-launcher PATH="$d/bin:$PATH" bash "$d/cc.sbatch" >/dev/null 2>"$t/err") \
	&& [ -d "$d/shared/neuron-cache" ] && ok cache-made || { no cache-made; cat "$t/err"; }
[ "$(sed -n 1p "$d/srun.log")" = "--from-launcher --logical-nc-config=2 --model-type=transformer" ] \
	&& ok cc-flags-extended || { no cc-flags-extended; cat "$d/srun.log"; }
sed -n 2p "$d/srun.log" | grep -q 'neuron_parallel_compile torchrun --nnodes=2 ' && sed -n 4p "$d/srun.log" | grep -q -v neuron_parallel_compile \
	&& [ "$(grep -c '' "$d/srun.log")" = 4 ] && ok precompile-first || { no precompile-first; cat "$d/srun.log"; }
# a cache that cannot be made (a file is in the way; root can write
# anywhere else): the job stops before srun, saying why
: >"$d/srun.log"
rm -rf "$d/shared/neuron-cache"
: >"$d/shared/neuron-cache"
(SLURM_JOB_ID=8 PATH="$d/bin:$PATH" bash "$d/cc.sbatch" >/dev/null 2>"$t/err"); rc=$?
[ $rc = 1 ] && grep -q "error: the Neuron compile cache $d/shared/neuron-cache is not writable by $(id -un)" "$t/err" && [ ! -s "$d/srun.log" ] \
	&& ok cache-unwritable-stops || { no "cache-unwritable-stops ($rc)"; cat "$t/err"; }

# A mixed fleet precompiles in its batch step, at the reserved size,
# before its first round (the units' sizes compile when first reached).
sed 's/^training: {zero_stage: 3, recompute: full}$/training: {zero_stage: 3, recompute: full, precompile: true}/' \
	examples/jobs/moe-176b-trn2-mixed.yaml >"$t/pc.yaml"
grep -q 'precompile: true' "$t/pc.yaml" || no "fleet-precompile-spec: the example's training line changed"
"$TF" gen -o "$t/pc" "$t/pc.yaml" >"$t/out" 2>&1 || { no fleet-precompile-gen; cat "$t/out"; }
bash -n "$t/pc/moe-176b-mixed.sbatch" && shellcheck "$t/pc/moe-176b-mixed.sbatch" >"$t/out" 2>&1 \
	&& ok fleet-precompile-clean || { no fleet-precompile-clean; cat "$t/out"; }
awk '/neuron_parallel_compile torchrun/ { pc = NR } /--nnodes="\$RESERVED"/ { n = NR } /^round=0 failures=0$/ { r = NR }
	END { exit !(pc && n == pc + 1 && r && pc < r) }' "$t/pc/moe-176b-mixed.sbatch" \
	&& ok fleet-precompile-first || { no fleet-precompile-first; grep -n 'neuron_parallel_compile\|RESERVED\|^round=' "$t/pc/moe-176b-mixed.sbatch"; }
