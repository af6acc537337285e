#!/bin/sh
# Every example's generated launch line saves periodically, saves on the
# signal its framework handles and resumes, as the framework's own code
# reads it: Megatron-LM's parser (../shared/tools/megatron_oracle.py over
# the vendored tree) and NeuronX Distributed's run_llama_nxd.py argparse
# (../shared/tools/argparse_oracle.py); torchtitan, which has no oracle
# here, by its flag table (core/facts/frameworks/torchtitan.c). One oracle
# run per example. The interval is the plan's (plan --format json:
# checkpoints.intervalSteps). Prints RESULT lines.
# shellcheck disable=SC2015,SC2016 # "A && ok || no"; the lines' own $CHECKPOINT_DIR
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=survival/
tf_built survival || exit 0
shared=${TF_SHARED:-../shared}
megatron=$(find "$shared/vendor" -maxdepth 1 -name 'megatron-lm-*.tar.gz' 2>/dev/null | head -1)
nxd_tar=$(find "$shared/vendor" -maxdepth 1 -name 'neuronx-distributed-*.tar.gz' 2>/dev/null | head -1)
py=/usr/bin/python3

# The words of an example's train_args, one a line, with $CHECKPOINT_DIR
# as the script sets it.
line_words() { # SBATCH
	$py - "$1" <<'PY'
import re, shlex, sys
text = open(sys.argv[1]).read()
ckpt = re.search(r"^export CHECKPOINT_DIR=(.*)$", text, re.M).group(1)
ckpt = shlex.split(ckpt)[0]
body = re.search(r"^\s*train_args=\(\n(.*?)^\s*\)", text, re.S | re.M).group(1)
for w in shlex.split(body.replace('"$CHECKPOINT_DIR"', ckpt).replace('"$dp"', "1")):
    print(w)
PY
}

nxd_script=""
if [ -n "$nxd_tar" ]; then
	mkdir "$t/nxd"
	tar xzf "$nxd_tar" -C "$t/nxd" 2>/dev/null
	nxd_script=$(find "$t/nxd" -name run_llama_nxd.py | head -1)
fi

for spec in examples/jobs/*.yaml; do
	name=$(basename "$spec" .yaml)
	"$TF" plan --format json "$spec" >"$t/plan.json" 2>/dev/null
	fw=$($py -c 'import json, sys; print(json.load(open(sys.argv[1]))["framework"])' "$t/plan.json")
	sb=examples/jobs/out/$(sed -n 's/^name: //p' "$spec").sbatch
	line_words "$sb" >"$t/words" || { no "$name: cannot read the train_args of $sb"; continue; }
	case $fw in
	megatron)
		if [ -z "$megatron" ] || ! $py -c 'import numpy, packaging, psutil, typing_extensions, yaml' 2>/dev/null; then
			skip "$name/megatron-oracle: no $shared/vendor/megatron-lm-*.tar.gz or Debian's python3-numpy, -packaging, -psutil, -typing-extensions, -yaml"
			continue
		fi
		world=$($py -c 'import json, sys; print(json.load(open(sys.argv[1]))["world"])' "$t/plan.json")
		# shellcheck disable=SC2046 # one flag or value a line
		$py "$shared/tools/megatron_oracle.py" "$megatron" "$world" -- $(sed 1d "$t/words") >"$t/oracle" 2>"$t/err"
		py_check "$name/megatron-saves-resumes" "$t/oracle" "$t/plan.json" "$t/words" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
plan = json.load(open(sys.argv[2]))
words = open(sys.argv[3]).read().split()
assert "refused" not in o, o
a = o["args"]
ckpt = words[words.index("--save") + 1]
assert a["save"] == ckpt and a["load"] == ckpt, (a["save"], a["load"])
assert a["save_interval"] == plan["checkpoints"]["intervalSteps"] > 0, (a["save_interval"], plan["checkpoints"])
assert a["exit_signal_handler"] is True and a["exit_signal"] == 10, (a["exit_signal_handler"], a["exit_signal"])
PY
		;;
	nxd)
		if [ -z "$nxd_script" ]; then
			skip "$name/nxd-oracle: no run_llama_nxd.py in $shared/vendor"
			continue
		fi
		# shellcheck disable=SC2046
		$py "$shared/tools/argparse_oracle.py" "$nxd_script" $(sed 1d "$t/words") >"$t/oracle" 2>"$t/err"
		py_check "$name/nxd-saves-resumes" "$t/oracle" "$t/plan.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
plan = json.load(open(sys.argv[2]))
assert "refused" not in o, o
a = o["args"]
assert a["checkpoint_dir"], a
assert a["checkpoint_freq"] == plan["checkpoints"]["intervalSteps"] > 0, (a["checkpoint_freq"], plan["checkpoints"])
assert a["loading_step"] == "latest_if_exists", a["loading_step"]
PY
		;;
	torchtitan)
		py_check "$name/torchtitan-saves-resumes" "$t/words" "$t/plan.json" <<'PY'
import json, sys
words = open(sys.argv[1]).read().split()
plan = json.load(open(sys.argv[2]))
# 0.3: --checkpoint.enable, 0.2: --checkpoint.enable_checkpoint; the folder
# holds its saves, and it loads the newest step there by itself
assert "--checkpoint.enable" in words or "--checkpoint.enable_checkpoint" in words, words
assert "--checkpoint.folder" in words
n = plan["checkpoints"]["intervalSteps"]
if n:
    assert words[words.index("--checkpoint.interval") + 1] == str(n), (n, words)
else:
    assert "--checkpoint.interval" not in words  # its own default, 500 steps
PY
		;;
	*)
		# a plain entry point: the script says so and tells it where
		grep -q '^# The entry point (framework plain) saves and resumes on its own' "$sb" &&
			grep -q '^export CHECKPOINT_DIR=' "$sb" && ok "$name/plain-told-where" ||
			no "$name/plain-told-where" ;;
	esac
done
exit 0
