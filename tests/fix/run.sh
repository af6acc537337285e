#!/bin/sh
# lint --fix, --unsafe-fixes and --diff. Each fixable rule case of
# tests/cases is copied to a temporary directory and fixed: its finding is
# gone and no finding appears that was not there before; the --diff of the
# same copy applies with `patch -p1` to the same bytes. Files with nothing
# to fix keep their bytes and mtime. tests/fix/*.fixed hold the expected
# text of the inputs beside them. Prints RESULT lines. ok and no only
# print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
export XDG_CONFIG_HOME="$t/xdg" # no user config
mkdir "$t/.git"                  # no config discovery above the copies

# how a script was paired (LN3002, LN3003) is not what these tests are about
lint() { "$TF" lint --format concise --shellcheck off -q --ignore LN3002,LN3003 "$@" 2>/dev/null; }
# "severity: message [ID]" of each finding: positions move when lines go
findings() { lint "$@" | sed 's/^[^ ]*: //' | sort; }
only_old() { # after, before: every finding of after is in before
	[ -z "$(comm -23 "$1" "$2")" ]
}

# rule, case file, flags the fix needs
while read -r rule file flags; do
	name=$rule/$(basename "$file")
	d=$t/$rule
	mkdir -p "$d/fix" "$d/diff"
	base=$(basename "$file")
	cp "tests/cases/$rule/$file" "$d/fix/$base"
	cp "tests/cases/$rule/$file" "$d/diff/$base"
	(cd "$d/fix" && findings "$base") >"$d/before"
	grep -q "\[$rule\]\$" "$d/before" || { no "$name: the case does not show $rule"; continue; }
	# shellcheck disable=SC2086
	(cd "$d/fix" && "$TF" lint --fix $flags --shellcheck off -q "$base" >/dev/null 2>&1)
	(cd "$d/fix" && findings "$base") >"$d/after"
	if grep -q "\[$rule\]\$" "$d/after"; then no "$name: $rule remains after --fix"
	elif ! only_old "$d/after" "$d/before"; then no "$name: --fix brought new findings"; comm -23 "$d/after" "$d/before"
	else ok "$name: fixed"; fi
	# shellcheck disable=SC2086
	(cd "$d/diff" && "$TF" lint --diff $flags --shellcheck off -q "$base" >"$d/patch" 2>/dev/null)
	rc=$?
	if ! cmp -s "$d/diff/$base" "tests/cases/$rule/$file"; then no "$name: --diff wrote the file"
	elif [ "$rc" != 1 ]; then no "$name: --diff exited $rc, expected 1"
	elif ! (cd "$d/diff" && patch -s -p1 <"$d/patch" >/dev/null 2>&1); then no "$name: the diff does not apply"; cat "$d/patch"
	elif ! cmp -s "$d/diff/$base" "$d/fix/$base"; then no "$name: the patched file differs from the fixed one"
	else ok "$name: diff applies"; fi
done <<'EOF'
PC1004 bad.yaml
PC1006 bad.yaml
PC0011 bad-quoted-number.yaml
PC0011 bad-boolean-y.yaml
PC0011 bad-fraction.yaml
PC1004 bad-region.yaml
PC1004 bad-curly-quotes.yaml
PC1004 bad-nbsp-value.yaml
PC1004 bad-instance-still-invalid.yaml --unsafe-fixes
PC1004 bad-enum-still-invalid.yaml --unsafe-fixes
PC1004 bad-key-still-invalid.yaml --unsafe-fixes
PC0002 bad.yaml --unsafe-fixes
PC0005 bad.yaml --unsafe-fixes
PC1002 bad.yaml --unsafe-fixes
PC1003 bad.yaml --unsafe-fixes
SB0004 bad.sbatch
SB2104 bad.sbatch
LN0001 bad.yaml
SB0002 bad.sbatch --unsafe-fixes
SB0003 bad.sbatch --unsafe-fixes
SB0001 bad.sbatch --unsafe-fixes
SB2002 bad.sbatch --unsafe-fixes
PC2101 bad.yaml --unsafe-fixes
PC2220 bad.yaml --unsafe-fixes
SB2616 bad.sbatch --unsafe-fixes
SB2616 bad-srun.sbatch --unsafe-fixes
SB2616 bad-deepspeed.sbatch --unsafe-fixes
SB2616 bad-both.sbatch --unsafe-fixes
EOF

# Inputs with an exact expected result (own-line and trailing directives,
# one stale ID of two, a script; *.unsafe.* with --unsafe-fixes).
for input in tests/fix/*.yaml tests/fix/*.sbatch; do
	base=$(basename "$input")
	flags=
	case $base in *.unsafe.*) flags=--unsafe-fixes ;; esac
	cp "$input" "$t/$base"
	(cd "$t" && "$TF" lint --fix $flags --shellcheck off -q "$base" >/dev/null 2>&1)
	if cmp -s "$t/$base" "$input.fixed"; then ok "expected/$base"
	else no "expected/$base"; diff -u "$input.fixed" "$t/$base"; fi
done

# Nothing to fix: the same bytes and the same mtime.
u=$t/untouched
mkdir "$u"
cp tests/cases/PC1004/good.yaml "$u/clean.yaml"
cp tests/cases/PC2101/bad.yaml "$u/unfixable.yaml"
touch -d '2020-01-02 03:04:05' "$u/clean.yaml" "$u/unfixable.yaml"
(cd "$u" && "$TF" lint --fix --shellcheck off -q clean.yaml unfixable.yaml >/dev/null 2>&1)
rc=$?
[ "$rc" = 1 ] && ok "untouched: exit 1 for what remains" || no "untouched: exit $rc, expected 1"
for f in clean.yaml unfixable.yaml; do
	if [ "$(stat -c %Y "$u/$f")" = "$(date -d '2020-01-02 03:04:05' +%s)" ] &&
	   cmp -s "$u/$f" "tests/cases/$( [ $f = clean.yaml ] && echo PC1004/good.yaml || echo PC2101/bad.yaml)"
	then ok "untouched/$f"; else no "untouched/$f: changed"; fi
done

# Exit status after --fix reflects what remains; unsafe fixes need the flag.
w=$t/status
mkdir "$w"
cp tests/cases/PC1004/bad.yaml "$w/all-fixed.yaml"
(cd "$w" && "$TF" lint --fix --shellcheck off -q all-fixed.yaml >/dev/null 2>&1)
rc=$?
[ "$rc" = 0 ] && ok "status: 0 when everything was fixed" || no "status: exit $rc after fixing everything"
cp tests/cases/SB0002/bad.sbatch "$w/unsafe.sbatch"
(cd "$w" && "$TF" lint --fix --shellcheck off unsafe.sbatch >/dev/null 2>"$w/err")
rc=$?
if [ "$rc" = 1 ] && cmp -s "$w/unsafe.sbatch" tests/cases/SB0002/bad.sbatch && grep -q -- '--unsafe-fixes' "$w/err"
then ok "status: an unsafe fix waits for --unsafe-fixes, with a hint"
else no "status: unsafe fix without --unsafe-fixes (exit $rc)"; fi

# The file's mode survives, and a symlink stays a link to the fixed file.
m=$t/mode
mkdir "$m"
cp tests/cases/SB0004/bad.sbatch "$m/train.sbatch"
chmod 750 "$m/train.sbatch"
ln -s train.sbatch "$m/link.sbatch"
(cd "$m" && "$TF" lint --fix --shellcheck off -q link.sbatch >/dev/null 2>&1)
if [ "$(stat -c %a "$m/train.sbatch")" = 750 ] && [ -L "$m/link.sbatch" ] &&
   ! grep -q "$(printf '\342\200\223')" "$m/train.sbatch"
then ok "mode-and-symlink"; else no "mode-and-symlink"; ls -l "$m"; fi

# Several files in one run; a last line without a newline.
s=$t/several
mkdir "$s"
cp tests/cases/PC1004/bad.yaml "$s/a.yaml"
cp tests/cases/SB2104/bad.sbatch "$s/b.sbatch"
head -c -1 tests/cases/PC2101/good.yaml >"$s/c.yaml"
printf '  # trainforge disable=PC2201' >>"$s/c.yaml"
cp -r "$s" "$t/several-diff"
(cd "$s" && "$TF" lint --fix --shellcheck off -q . >/dev/null 2>&1)
(cd "$t/several-diff" && { "$TF" lint --diff --shellcheck off -q . >"$t/several.patch" 2>/dev/null
	patch -s -p1 <"$t/several.patch" >/dev/null 2>&1; })
if [ "$(grep -c '^+++ ' "$t/several.patch")" = 3 ] && diff -r "$s" "$t/several-diff" >/dev/null &&
   [ -z "$(lint "$s/a.yaml" "$s/b.sbatch" "$s/c.yaml")" ]
then ok "several-files"; else no "several-files"; cat "$t/several.patch"; fi

# stdin cannot be rewritten; --diff of stdin works.
"$TF" lint --fix - <tests/cases/PC1004/bad.yaml >/dev/null 2>&1
[ $? = 2 ] && ok "stdin: --fix refused" || no "stdin: --fix not refused"
"$TF" lint --diff --stdin-filename x.yaml - <tests/cases/PC1004/bad.yaml >"$t/stdin.patch" 2>/dev/null
grep -q '^+++ b/x.yaml$' "$t/stdin.patch" && ok "stdin: --diff" || no "stdin: --diff"

# A name EC2 could have is never rewritten to another type, safe fixes or
# unsafe: c6i.large is a head node, not a misspelt c6i.xlarge at twice the
# price, and c6i.64xlarge, which the catalog lacks, is most likely newer
# than it. A name that cannot be a type still gets its repair.
n=$t/names
mkdir "$n"
printf 'Region: us-east-1\nImage: {Os: alinux2023}\nHeadNode:\n  InstanceType: c6i.large\n  Networking: {SubnetId: subnet-0123456789abcdef0}\n  Ssh: {KeyName: k}\nScheduling:\n  Scheduler: slurm\n  SlurmQueues:\n  - Name: q\n    ComputeResources:\n    - {Name: a, InstanceType: c6i.64xlarge, MinCount: 0, MaxCount: 2}\n    - {Name: b, InstanceType: c6i.larg, MinCount: 0, MaxCount: 2}\n    Networking: {SubnetIds: [subnet-0123456789abcdef0]}\n' >"$n/c.yaml"
cp "$n/c.yaml" "$n/before.yaml"
"$TF" lint --fix --unsafe-fixes --isolated --shellcheck off -q "$n/c.yaml" >/dev/null 2>&1
grep -q '^  InstanceType: c6i.large$' "$n/c.yaml" && ok "names: c6i.large kept" || no "names: c6i.large rewritten"
grep -q 'InstanceType: c6i.64xlarge,' "$n/c.yaml" && ok "names: an unknown EC2-shaped name kept" ||
	no "names: an unknown EC2-shaped name rewritten"
grep -q 'InstanceType: c6i.large, MinCount' "$n/c.yaml" && ok "names: a name that cannot be a type repaired" ||
	no "names: a name that cannot be a type not repaired"
lint --isolated "$n/before.yaml" >"$t/names.out"
grep -q "instance type 'c6i.64xlarge' is not in the catalog" "$t/names.out" &&
	! grep -q "c6i.large.*not in the catalog" "$t/names.out" && ok "names: findings" || { no "names: findings"; cat "$t/names.out"; }
