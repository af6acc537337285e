#!/bin/sh
# Hostile inputs: each must end fast with its diagnostic and documented
# exit code, never a crash or a hang, and the other inputs of the run are
# still linted. Time is bounded by `timeout` (a hang guard, not a
# measurement) and memory by `ulimit -v` outside sanitizer builds.
set -u
cd "$(dirname "$0")/../.." || exit 2
TF=${TF:-build/rel/trainforge}
TF=$(realpath "$TF")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
case $TF in */san/*) mem="" ;; *) mem=1000000 ;; esac # KiB

# name, expected exit code, expected rule (or -), args...
check() {
	name=$1 want=$2 rule=$3
	shift 3
	(
		[ -n "$mem" ] && ulimit -v "$mem"
		exec timeout 10 "$TF" lint --format concise "$@"
	) >"$dir/out" 2>"$dir/err"
	rc=$?
	if [ "$rc" = 124 ]; then
		echo "RESULT fail $name: still running after 10 s"
	elif [ "$rc" != "$want" ]; then
		echo "RESULT fail $name: exit $rc, expected $want"
		cat "$dir/out" "$dir/err" | head -5
	elif [ "$rule" != - ] && ! grep -q "\[$rule\]" "$dir/out"; then
		echo "RESULT fail $name: no $rule finding"
		cat "$dir/out" | head -5
	else
		echo "RESULT pass $name"
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
} >"$dir/laughs.yaml"
check alias-bomb 1 LN1007 "$dir/laughs.yaml"

# 10,000-deep nesting, flow and block.
python3 -c 'print("HeadNode: " + "[" * 10000 + "]" * 10000)' >"$dir/deep-flow.yaml"
check deep-flow 1 LN1006 "$dir/deep-flow.yaml"
# block style: "- - - ... x" nests sequences on one line
python3 -c 'print("HeadNode:\n  " + "- " * 10000 + "x")' >"$dir/deep-block.yaml"
check deep-block 1 LN1006 "$dir/deep-block.yaml"

# A 100 MB file is refused from its size, without reading it.
truncate -s 100M "$dir/huge.yaml"
check huge-file 1 LN1005 "$dir/huge.yaml"
# The same through stdin, where the size is not known in advance.
(
	[ -n "$mem" ] && ulimit -v "$mem"
	head -c 20000000 /dev/zero | tr '\0' 'a' | timeout 10 "$TF" lint --format concise --max-file-size 1000000 - >"$dir/out" 2>&1
)
if grep -q LN1005 "$dir/out"; then echo "RESULT pass huge-stdin"; else echo "RESULT fail huge-stdin"; fi

# A 1 MB single line: a cluster config whose head node type is a 1 MB
# string. It is linted (an invalid instance type), fast.
python3 -c '
print("Image: {Os: alinux2023}")
print("HeadNode: {InstanceType: \"" + "x" * 1048576 + "\", Networking: {SubnetId: subnet-12345678}}")
print("Scheduling: {Scheduler: slurm, SlurmQueues: [{Name: q, Networking: {SubnetIds: [subnet-12345678]}, ComputeResources: [{Name: c, InstanceType: c5.xlarge}]}]}")
' >"$dir/long-line.yaml"
check long-line 1 PC1002 "$dir/long-line.yaml"

printf 'HeadNode:\n  InstanceType: c5\000.xlarge\n' >"$dir/nul.yaml"
check nul-bytes 1 LN1003 "$dir/nul.yaml"
printf 'HeadNode:\n  InstanceType: caf\351\n' >"$dir/latin1.yaml"
check invalid-utf8 1 LN1002 "$dir/latin1.yaml"
: >"$dir/empty.yaml"
check empty 1 LN1004 "$dir/empty.yaml"

# Inputs the tool cannot read: exit 2 with a message, and the other
# inputs are still linted (the NUL file's finding must still appear).
check missing 2 LN1003 "$dir/does-not-exist.yaml" "$dir/nul.yaml"
grep -q "does-not-exist.yaml" "$dir/err" && echo "RESULT pass missing-message" || echo "RESULT fail missing-message"
mkfifo "$dir/fifo.yaml"
check fifo 2 LN1003 "$dir/fifo.yaml" "$dir/nul.yaml"
grep -q "not a regular file" "$dir/err" && echo "RESULT pass fifo-message" || echo "RESULT fail fifo-message"
mkdir "$dir/tree"
check directory 0 - "$dir/tree"
# An unreadable file: as root every mode is readable, so drop to nobody.
printf 'x: 1\n' >"$dir/secret.yaml"
chmod 000 "$dir/secret.yaml"
chmod 755 "$dir"
cp "$dir/nul.yaml" "$dir/nul2.yaml" && chmod 644 "$dir/nul2.yaml"
if [ "$(id -u)" = 0 ]; then
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
else
	as_user=""
fi
# shellcheck disable=SC2086
timeout 10 $as_user "$TF" lint --format concise "$dir/secret.yaml" "$dir/nul2.yaml" >"$dir/out" 2>"$dir/err"
rc=$?
if [ "$rc" = 2 ] && grep -q LN1003 "$dir/out" && grep -q "secret.yaml: Permission denied" "$dir/err"; then
	echo "RESULT pass unreadable"
else
	echo "RESULT fail unreadable: exit $rc"; cat "$dir/err"
fi

# A recursive alias and an undefined alias are syntax errors, not loops.
printf 'HeadNode: &a [*a]\nScheduling: 1\n' >"$dir/cycle.yaml"
check alias-cycle 1 LN1001 "$dir/cycle.yaml"
printf 'HeadNode: *nowhere\nScheduling: 1\n' >"$dir/undef.yaml"
check alias-undefined 1 LN1001 "$dir/undef.yaml"

# Batch scripts: deep nesting, unterminated quotes and here-documents, a
# long line; each ends with a finding, fast.
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\necho " + "$(" * 100000 + "x" + ")" * 100000)' >"$dir/deep.sbatch"
check script-deep-nesting 1 SB0005 --shellcheck off "$dir/deep.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=2\necho "never closed\nsrun torchrun train.py\n' >"$dir/quote.sbatch"
check script-unterminated-quote 1 SB0005 --shellcheck off "$dir/quote.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=2\ncat <<EOF\nno end\n' >"$dir/heredoc.sbatch"
check script-unterminated-heredoc 1 SB0005 --shellcheck off "$dir/heredoc.sbatch"
python3 -c 'print("#!/bin/bash\n#SBATCH --nodes=2\nsrun echo " + "a " * 500000)' >"$dir/wide.sbatch"
check script-long-line 1 SB0005 --shellcheck off "$dir/wide.sbatch"

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
' >"$dir/placeholders.yaml"
check template-1mb-placeholders 1 LN1010 --fail-level info "$dir/placeholders.yaml"
python3 -c '
n = 100000
print("Image: {Os: alinux2023}")
print("HeadNode: {InstanceType: c5.xlarge, Networking: {SubnetId: subnet-12345678}}")
print("Scheduling:\n  Scheduler: {{ scheduler }}")
print("{% if a %}\n" * n, end="")
print("  SlurmQueues: []")
print("{% endif %}\n" * n, end="")
' >"$dir/nested-tags.yaml"
check template-nested-tags 1 LN1010 --fail-level info "$dir/nested-tags.yaml"
python3 -c 'print("{{" * 500000)' >"$dir/open-braces.yaml"
check template-unclosed-braces 1 LN1006 "$dir/open-braces.yaml"
