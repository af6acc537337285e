#!/bin/sh
# Hostile inputs: each must end fast with its diagnostic and documented
# exit code, never a crash or a hang, and the other inputs of the run are
# still linted. Time is bounded by `timeout` (a hang guard, not a
# measurement) and memory by `ulimit -v` outside sanitizer builds (POSIX
# leaves -v out; dash and bash have it).
# shellcheck disable=SC3045
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
case $TF in */san/*) mem="" ;; *) mem=1000000 ;; esac # KiB

# name, expected exit code, expected rule (or -), args...
check() {
	name=$1 want=$2 rule=$3
	shift 3
	(
		[ -n "$mem" ] && ulimit -v "$mem"
		exec timeout 10 "$TF" lint --format concise "$@"
	) >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = 124 ]; then
		no "$name: still running after 10 s"
	elif [ "$rc" != "$want" ]; then
		no "$name: exit $rc, expected $want"
		cat "$t/out" "$t/err" | head -5
	elif [ "$rule" != - ] && ! grep -q "\[$rule\]" "$t/out"; then
		no "$name: no $rule finding"
		head -5 "$t/out"
	else
		ok "$name"
	fi
}

# A billion laughs: nine levels of ten aliases each.
{
	echo 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
	i=1
	while [ $i -le 9 ]; do
		p=$((i - 1))
		echo "a$i: &a$i [*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p]"
		i=$((i + 1))
	done
	echo 'HeadNode: *a9'
	echo 'Scheduling: *a9'
} >"$t/laughs.yaml"
check alias-bomb 1 LN1007 "$t/laughs.yaml"

# 10,000-deep nesting, flow and block.
python3 -c 'print("HeadNode: " + "[" * 10000 + "]" * 10000)' >"$t/deep-flow.yaml"
check deep-flow 1 LN1006 "$t/deep-flow.yaml"
# block style: "- - - ... x" nests sequences on one line
python3 -c 'print("HeadNode:\n  " + "- " * 10000 + "x")' >"$t/deep-block.yaml"
check deep-block 1 LN1006 "$t/deep-block.yaml"

# A 100 MB file is refused from its size, without reading it.
truncate -s 100M "$t/huge.yaml"
check huge-file 1 LN1005 "$t/huge.yaml"
# The same through stdin, where the size is not known in advance.
(
	[ -n "$mem" ] && ulimit -v "$mem"
	head -c 20000000 /dev/zero | tr '\0' 'a' | timeout 10 "$TF" lint --format concise --max-file-size 1000000 - >"$t/out" 2>&1
)
if grep -q LN1005 "$t/out"; then ok huge-stdin; else no huge-stdin; fi

# A 1 MB single line: a cluster config whose head node type is a 1 MB
# string. It is linted (an invalid instance type), fast.
python3 -c '
print("Image: {Os: alinux2023}")
print("HeadNode: {InstanceType: \"" + "x" * 1048576 + "\", Networking: {SubnetId: subnet-12345678}}")
print("Scheduling: {Scheduler: slurm, SlurmQueues: [{Name: q, Networking: {SubnetIds: [subnet-12345678]}, ComputeResources: [{Name: c, InstanceType: c5.xlarge}]}]}")
' >"$t/long-line.yaml"
check long-line 1 PC1002 "$t/long-line.yaml"

printf 'HeadNode:\n  InstanceType: c5\000.xlarge\n' >"$t/nul.yaml"
check nul-bytes 1 LN1003 "$t/nul.yaml"
printf 'HeadNode:\n  InstanceType: caf\351\n' >"$t/latin1.yaml"
check invalid-utf8 1 LN1002 "$t/latin1.yaml"
: >"$t/empty.yaml"
check empty 1 LN1004 "$t/empty.yaml"

# Inputs the tool cannot read: exit 2 with a message, and the other
# inputs are still linted (the NUL file's finding must still appear).
check missing 2 LN1003 "$t/does-not-exist.yaml" "$t/nul.yaml"
has missing-message "does-not-exist.yaml" "$t/err"
mkfifo "$t/fifo.yaml"
check fifo 2 LN1003 "$t/fifo.yaml" "$t/nul.yaml"
has fifo-message "not a regular file" "$t/err"
mkdir "$t/tree"
check directory 0 - "$t/tree"
# An unreadable file: as root every mode is readable, so drop to nobody.
printf 'x: 1\n' >"$t/secret.yaml"
chmod 000 "$t/secret.yaml"
chmod 755 "$t"
cp "$t/nul.yaml" "$t/nul2.yaml" && chmod 644 "$t/nul2.yaml"
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as_user=""
fi
# shellcheck disable=SC2086
timeout 10 $as_user "$TF" lint --format concise "$t/secret.yaml" "$t/nul2.yaml" >"$t/out" 2>"$t/err"
rc=$?
if [ "$rc" = 2 ] && grep -q LN1003 "$t/out" && grep -q "secret.yaml: Permission denied" "$t/err"; then
	ok unreadable
else
	no "unreadable: exit $rc"; cat "$t/err"
fi

# A recursive alias and an undefined alias are syntax errors, not loops.
printf 'HeadNode: &a [*a]\nScheduling: 1\n' >"$t/cycle.yaml"
check alias-cycle 1 LN1001 "$t/cycle.yaml"
printf 'HeadNode: *nowhere\nScheduling: 1\n' >"$t/undef.yaml"
check alias-undefined 1 LN1001 "$t/undef.yaml"

# Batch scripts: deep nesting, unterminated quotes and here-documents, a
# long line, a megabyte of script; each ends fast, with a finding where
# bash would refuse or warn.
# shellcheck disable=SC2016 # the $( is the script's text
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\necho " + "$(" * 100000 + "x" + ")" * 100000)' >"$t/deep.sbatch"
check script-deep-nesting 1 SB0005 --shellcheck off "$t/deep.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=2\necho "never closed\nsrun torchrun train.py\n' >"$t/quote.sbatch"
check script-unterminated-quote 1 SB0005 --shellcheck off "$t/quote.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=2\ncat <<EOF\nno end\n' >"$t/heredoc.sbatch"
check script-unterminated-heredoc 1 SB0006 --shellcheck off "$t/heredoc.sbatch"
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=1\nsrun echo " + "a " * 500000)' >"$t/wide.sbatch"
check script-long-line 0 - --shellcheck off "$t/wide.sbatch"
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=1\n" + "srun --ntasks-per-node=8 python train.py --lr 1e-4 \\\n  --batch 8\n" * 20000)' >"$t/big.sbatch"
check script-megabyte 0 - --shellcheck off "$t/big.sbatch"
# the order checks (SB2010, SB2014) look at every launch line against the
# ones after it: one pass each, not one per pair
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\n" + "srun torchrun --nnodes=2 --node_rank=0 --master_addr=h /fsx/train.py\n" * 40000)' >"$t/ranks.sbatch"
check script-many-ranked-launches 0 - --shellcheck off "$t/ranks.sbatch"
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\n" + "srun --ntasks-per-node=1 python /fsx/train.py &\n" * 40000)' >"$t/background.sbatch"
check script-many-background-launches 1 SB2014 --shellcheck off "$t/background.sbatch"

# Templates: a 1 MB config of placeholders in every style, and 100,000
# nested {% if %} blocks. Both end fast (the scan is one pass; the if
# nesting has a depth budget) with the one template finding, LN1010.
python3 -c '
import sys
out = ["Image: {Os: ${OS}}", "HeadNode: {InstanceType: {{ head }}, Networking: {SubnetId: subnet-<ID>}}",
       "Scheduling:", "  Scheduler: slurm", "  SlurmQueues:"]
i = 0
while sum(len(l) + 1 for l in out) < 1048576:
    out.append("    - {Name: ${Q%d}, ComputeResources: [{Name: $C%d, InstanceType: {{ t%d }}, MaxCount: ${N%d:-4}}], Networking: {SubnetIds: [subnet-<S%d>]}}" % (i, i, i, i, i))
    i += 1
print("\n".join(out))
' >"$t/placeholders.yaml"
check template-1mb-placeholders 1 LN1010 --fail-level info "$t/placeholders.yaml"
python3 -c '
n = 100000
print("Image: {Os: alinux2023}")
print("HeadNode: {InstanceType: c5.xlarge, Networking: {SubnetId: subnet-12345678}}")
print("Scheduling:\n  Scheduler: {{ scheduler }}")
print("{% if a %}\n" * n, end="")
print("  SlurmQueues: []")
print("{% endif %}\n" * n, end="")
' >"$t/nested-tags.yaml"
check template-nested-tags 1 LN1010 --fail-level info "$t/nested-tags.yaml"
python3 -c 'print("{{" * 500000)' >"$t/open-braces.yaml"
check template-unclosed-braces 1 LN1006 "$t/open-braces.yaml"

# A .gitignore made to be slow: 20,000 lines of ** patterns over a tree 30
# directories deep. The walk still ends fast (each ** match has a step
# budget), and what the patterns leave is linted.
mkdir -p "$t/gi/.git"
python3 -c '
import os, sys
root = sys.argv[1]
with open(os.path.join(root, ".gitignore"), "w") as f:
    for i in range(20000):
        f.write("**/" * 12 + "x%d/**/y\n" % i)
d = root
for i in range(30):
    d = os.path.join(d, "d%d" % i)
os.makedirs(d)
open(os.path.join(d, "bad.yaml"), "w").write("HeadNode: {}\nScheduling: {}\n")
' "$t/gi"
check gitignore-slow-patterns 1 PC0004 "$t/gi"
# The Python program a script starts: a 1 MB file of add_argument calls
# is read (its flags checked: one unknown is found), and 100,000 nested
# brackets stop the reader with a note, fast.
mkdir -p "$t/py"
printf '#!/bin/bash\n#SBATCH --nodes=1\nsrun python big.py --flag-000001 1 --no-such-flag 2\n' >"$t/py/big.sbatch"
python3 -c '
print("import argparse\np = argparse.ArgumentParser()")
for i in range(25000):
    print("p.add_argument(\"--flag-%06d\", type=int, help=\"(%d)\")" % (i, i))
print("p.parse_args()")' >"$t/py/big.py"
check program-1mb 1 SB2301 --shellcheck off "$t/py/big.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=1\nsrun python deep.py --x 1\n' >"$t/py/deep.sbatch"
python3 -c 'print("import argparse\np = argparse.ArgumentParser()\nx = " + "(" * 100000 + ")" * 100000)' >"$t/py/deep.py"
check program-deep-nesting 0 SB2305 --shellcheck off "$t/py/deep.sbatch"

# A run is never hung by shellcheck: 5,000 nested $( take it minutes,
# trainforge's own parse milliseconds. With a 1 s bound (plus the
# per-byte allowance) the run ends with the script's LN2001 finding.
# timeout is the hang guard; shellcheck runs without the memory limit,
# as its runtime reserves more address space than the limit allows.
if have shellcheck; then
	# shellcheck disable=SC2016 # the $( is the script's text
	python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\necho " + "$(" * 5000 + "x" + ")" * 5000)' >"$t/deep5000.sbatch"
	timeout 60 "$TF" lint --format concise --shellcheck auto --shellcheck-timeout 1 "$t/deep5000.sbatch" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = 124 ]; then
		no "script-deep-nesting-shellcheck: still running after 60 s"
	elif [ "$rc" != 1 ] || ! grep -q 'deep5000.sbatch:1:1: .*\[LN2001\]$' "$t/out" || ! grep -q '\[SB0005\]$' "$t/out"; then
		no "script-deep-nesting-shellcheck: exit $rc, expected 1 with LN2001 and SB0005"
		cat "$t/out" "$t/err" | cut -c1-200 | head -5
	else
		ok script-deep-nesting-shellcheck
	fi
else
	skip "script-deep-nesting-shellcheck: shellcheck is not installed"
fi
# Neuron pins: 4,000 pip installs, a 100 KB version, an image tag and a
# DLAMI name of digits; the pins are bounded and each ends with findings.
python3 -c '
print("#!/bin/bash\n#SBATCH --nodes=1\nexport NEURON_CC_FLAGS=\"--target=trn2\"")
for i in range(4000):
    print("pip install neuronx-cc==2.14.227.0 torch-neuronx==" + str(i) + "." * 50)
print("pip install neuronx-cc==" + "9." * 50000 + "0")
print("module load neuron/" + "2." * 50000)
print("IMG=neuron:" + "-sdk" * 20000 + "2.18.2")
print("X=\"Deep Learning AMI Neuron " + "2" * 100000 + " 20241027\"")
' >"$t/pins.sbatch"
check script-many-neuron-pins 1 SB2109 --shellcheck off "$t/pins.sbatch"
# A job spec's Neuron release of 100 KB of digits: the schema refuses it
# before any version is read.
python3 -c '
print("trainforge: 1\nname: j\ninstance: trn2.48xlarge\nnodes: 2")
print("entry: {script: /fsx/t.py}\ncluster: {subnet: subnet-0123456789abcdef0, ssh_key: k}")
print("software: {neuron: \"2." + "1" * 100000 + "\"}")
' >"$t/neuron-spec.yaml"
check spec-long-neuron-release 1 JS0005 "$t/neuron-spec.yaml"

# The --tco file of `plan`: each hostile file stops the plan with exit 2
# and a message that names the file, fast and within the memory bound;
# nothing is printed on stdout.
tco_check() { # name, file, expected message
	(
		[ -n "$mem" ] && ulimit -v "$mem"
		exec timeout 10 "$TF" plan --tco "$2" examples/jobs/moe-176b-trn2-mixed.yaml
	) >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = 124 ]; then
		no "tco/$1: still running after 10 s"
	elif [ "$rc" != 2 ] || [ -s "$t/out" ] || ! grep -q -- "$3" "$t/err"; then
		no "tco/$1: exit $rc, expected 2 with '$3'"
		head -3 "$t/err"
	else
		ok "tco/$1"
	fi
}
{
	echo 'a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'
	i=1
	while [ $i -le 9 ]; do
		p=$((i - 1))
		echo "a$i: &a$i [*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p]"
		i=$((i + 1))
	done
	echo 'owned: *a9'
} >"$t/tco-laughs.yaml"
tco_check alias-bomb "$t/tco-laughs.yaml" "tco-laughs.yaml:[0-9]*:[0-9]*: error: .*alias"
python3 -c 'print("owned: " + "[" * 10000 + "]" * 10000)' >"$t/tco-deep.yaml"
tco_check deep-nesting "$t/tco-deep.yaml" "tco-deep.yaml:1:[0-9]*: error: .*deep"
truncate -s 100M "$t/tco-huge.yaml"
tco_check huge-file "$t/tco-huge.yaml" "larger than 1048576 bytes"
printf 'trainforge_tco: 1\nyears: 3\x00\n' >"$t/tco-nul.yaml"
tco_check nul-bytes "$t/tco-nul.yaml" "tco-nul.yaml:2:[0-9]*: error:"
printf 'trainforge_tco: 1\nyears: caf\351\n' >"$t/tco-latin1.yaml"
tco_check invalid-utf8 "$t/tco-latin1.yaml" "tco-latin1.yaml:[0-9]*:[0-9]*: error:"
: >"$t/tco-empty.yaml"
tco_check empty "$t/tco-empty.yaml" "tco-empty.yaml:1:1: error: the file is empty"
printf 'owned: [\n' >"$t/tco-syntax.yaml"
tco_check syntax-error "$t/tco-syntax.yaml" "tco-syntax.yaml:2:1: error:"
printf -- '- 1\n- 2\n' >"$t/tco-list.yaml"
tco_check not-a-mapping "$t/tco-list.yaml" "tco-list.yaml:1:1: error:"
python3 -c 'print("trainforge_tco: 1\nyears: 3\nowned:\n  label: \"" + "x" * 500000 + "\"")' >"$t/tco-long.yaml"
tco_check long-string "$t/tco-long.yaml" "tco-long.yaml:4:10: error:"
mkfifo "$t/tco-fifo.yaml"
tco_check fifo "$t/tco-fifo.yaml" "tco-fifo.yaml: not a regular file"
tco_check directory "$t" "not a regular file"
tco_check missing "$t/tco-nope.yaml" "tco-nope.yaml: No such file or directory"
