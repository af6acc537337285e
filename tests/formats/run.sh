#!/bin/sh
# The machine-readable output formats: sarif (checked with Microsoft's
# SARIF validator, GitHub's rules included, and against json), github,
# checkstyle, gitlab and jsonl, each compared finding by finding with the json
# output of the same run, which is itself compared with concise.
# Prints RESULT lines. ok and no only print, so "A && ok || no" is an
# if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built formats || exit 0

check() { # name, check.py arguments...: pass when the check holds
	name=$1
	shift
	if why=$(python3 "$root/tests/formats/check.py" "$@" 2>&1); then ok "$name"
	else no "$name: $(echo "$why" | tail -1)"; fi
}

FORMATS="json concise sarif github checkstyle gitlab jsonl"

# lint_all SET DIR ARGS...: one run per format from DIR into $t/SET.FORMAT
lint_all() {
	set_name=$1 dir=$2
	shift 2
	for f in $FORMATS; do
		# colour is asked of every machine format, which must not obey;
		# concise is a human format (coloured on request) read as text here
		color=always
		[ "$f" = concise ] && color=never
		(cd "$dir" && "$TF" lint -q --color "$color" --format "$f" "$@") \
			>"$t/$set_name.$f" 2>"$t/$set_name.$f.err"
		echo $? >"$t/$set_name.$f.rc"
	done
}

# check_set SET: every format of SET against its json
check_set() {
	s=$1
	rcs=$(for f in $FORMATS; do cat "$t/$s.$f.rc"; done | sort -u)
	case $rcs in
	0|1) ok "$s-exit-code-same-in-every-format" ;;
	*) no "$s-exit-code-same-in-every-format: exit codes $(echo "$rcs" | tr '\n' ' ')"; head -3 "$t/$s.json.err" ;;
	esac
	# -q leaves stderr empty; anything there is a crash or a sanitizer report.
	if cat "$t/$s".*.err | grep -q .; then no "$s-stderr-empty"; head -5 "$t/$s".*.err
	else ok "$s-stderr-empty"; fi
	if cat "$t/$s".* | grep -q "$(printf '\033')"; then no "$s-never-coloured"
	else ok "$s-never-coloured"; fi
	check "$s-json-matches-concise" json "$t/$s.json" "$t/$s.concise"
	check "$s-sarif" sarif "$t/$s.sarif" "$t/$s.json" "$t/rules"
	check "$s-github" github "$t/$s.github" "$t/$s.json"
	check "$s-checkstyle" checkstyle "$t/$s.checkstyle" "$t/$s.json"
	check "$s-gitlab" gitlab "$t/$s.gitlab" "$t/$s.json"
	check "$s-jsonl" jsonl "$t/$s.jsonl" "$t/$s.json"
}

count_is() { # name, jsonl output, want: findings
	n=$(wc -l <"$2" | tr -d ' ')
	if [ "$n" = "$3" ]; then ok "$1"; else no "$1: $n findings, expected $3"; fi
}

"$TF" rules >"$t/rules" || no "rules-table"

# The inputs: the broken example (12 findings), the clean examples, one
# file per rule case, and a file whose path and messages need escaping in
# every format: a space, ',', '%' and ':' in the path; quotes, commas,
# percent signs, a colon, a control character, a tab and newlines in the
# messages; an info finding; a range over several lines; a fix.
lint_all broken "$root" examples/broken/cluster.yaml
count_is broken-has-14 "$t/broken.jsonl" 14
lint_all clean "$root" examples/clusters/*.yaml
count_is clean-has-0 "$t/clean.jsonl" 0
cases=$(for f in tests/cases/*/bad*.yaml; do [ -f "$f.args" ] || echo "$f"; done)
# shellcheck disable=SC2086 # case paths have no spaces
lint_all cases "$root" $cases
mkdir -p "$t/work/dir with space"
odd="dir with space/odd,50%:name.yaml"
sed 's/^            Enabled: true$/&\n            GdrSupport: true/' \
	tests/cases/PC1004/bad.yaml >"$t/work/$odd"
cat >>"$t/work/$odd" <<'EOF'
'Odd%key, "q": x': 1
"ctl\x01key\ttab": 2
Imds: |
  x
  y
EOF
lint_all odd "$t/work" "$odd"
count_is odd-has-5 "$t/odd.jsonl" 5
lint_all abs "$t" "$t/work/$odd"
lint_all dotslash "$root" ./examples/broken/cluster.yaml

for s in broken clean cases odd abs dotslash; do check_set "$s"; done

# Findings of shellcheck pass through under their own SC codes: each code
# is one SARIF rule (documented on shellcheck's wiki) and every format
# shows SCnnnn, never SC0000.
if ! have shellcheck; then
	skip "shellcheck-ids: shellcheck is not installed"
elif ! "$TF" lint --help 2>&1 | grep -q -- --shellcheck; then
	skip "shellcheck-ids: this build has no --shellcheck"
else
	# shellcheck disable=SC2016 # $dir belongs to the script under test
	printf '#!/bin/bash\n#SBATCH --nodes=1\nrm -rf $dir/*\n' >"$t/work/train job.sbatch"
	lint_all sc "$t/work" --shellcheck required "train job.sbatch"
	check_set sc
	if grep -q 'title=trainforge SC2086::' "$t/sc.github" && grep -q '"id": "SC2086"' "$t/sc.sarif" &&
		grep -q 'wiki/SC2086"' "$t/sc.sarif" && ! grep -q SC0000 "$t/sc.github" "$t/sc.jsonl" "$t/sc.checkstyle"
	then ok shellcheck-ids; else no shellcheck-ids; fi
	sets_sc=sc
fi

# SARIF specifics
grep -q '"results": \[\]' "$t/clean.sarif" && grep -q '"rules": \[\]' "$t/clean.sarif" \
	&& ok sarif-clean-results-empty || no sarif-clean-results-empty
grep -qF '"uri": "dir%20with%20space/odd%2C50%25%3Aname.yaml",' "$t/odd.sarif" \
	&& ok sarif-uri-percent-encoded || no sarif-uri-percent-encoded
grep -qF '"uri": "file:///' "$t/abs.sarif" && ! grep -q '%SRCROOT%' "$t/abs.sarif" \
	&& ok sarif-absolute-path-file-uri || no sarif-absolute-path-file-uri
grep -q '"uri": "examples/broken/cluster.yaml"' "$t/dotslash.sarif" \
	&& ok sarif-dot-slash-dropped || no sarif-dot-slash-dropped
grep -q '"insertedContent"' "$t/odd.sarif" && ok sarif-fix-present || no sarif-fix-present
(cd "$root" && "$TF" lint -q --format sarif examples/broken/cluster.yaml) >"$t/again.sarif"
# shellcheck disable=SC2086
(cd "$root" && "$TF" lint -q --format sarif $cases) >"$t/again-cases.sarif"
cmp -s "$t/broken.sarif" "$t/again.sarif" && cmp -s "$t/cases.sarif" "$t/again-cases.sarif" \
	&& ok sarif-deterministic || no sarif-deterministic

# github specifics: the escapes GitHub documents, notice for info,
# no columns on a range over several lines.
gh=$t/odd.github
p='file=dir with space/odd%2C50%25%3Aname.yaml,'
grep -qF "::notice $p" "$gh" && grep -qF "title=trainforge PC2003::" "$gh" \
	&& ok github-notice-for-info || no github-notice-for-info
grep -qF "::error ${p}line=30,col=1,endLine=30,endColumn=18,title=trainforge PC0002::dir with space/odd,50%25:name.yaml:30:1: unknown key 'Odd%25key, \"q\": x' [PC0002]" "$gh" \
	&& ok github-escapes-property-and-data || no github-escapes-property-and-data
grep -qF "::error ${p}line=32,endLine=35,title=trainforge PC0003::" "$gh" \
	&& grep -qF "found a string ('x%0Ay%0A') [PC0003]" "$gh" \
	&& ok github-multiline-range-and-newlines || no github-multiline-range-and-newlines
[ ! -s "$t/clean.github" ] && ok github-clean-is-empty || no github-clean-is-empty

# checkstyle specifics
cs=$t/odd.checkstyle
grep -qF 'message="unknown key &apos;ctl'"$(printf '\357\277\275')"'key&#9;tab&apos;"' "$cs" \
	&& ok checkstyle-control-chars || no checkstyle-control-chars
grep -qF "message=\"unknown key &apos;Odd%key, &quot;q&quot;: x&apos;\"" "$cs" && grep -qF '&#10;' "$cs" \
	&& ok checkstyle-escapes || no checkstyle-escapes
[ "$(grep -c '<file ' "$t/cases.checkstyle")" -gt 50 ] && ok checkstyle-one-file-per-path || no checkstyle-one-file-per-path
[ ! -s "$t/clean.jsonl" ] && ok jsonl-clean-is-empty || no jsonl-clean-is-empty

# A file name that is not UTF-8 still gives valid JSON, SARIF and XML.
bad=$(printf 'bad\377name.yaml')
cp tests/cases/PC1004/bad.yaml "$t/work/$bad"
for f in json jsonl sarif checkstyle; do
	(cd "$t/work" && "$TF" lint -q --format $f "$bad") >"$t/u8.$f" 2>/dev/null
	py_check "non-utf8-path-$f" "$t/u8.$f" "$f" <<'PY'
import json, sys, xml.etree.ElementTree as ET
raw = open(sys.argv[1], "rb").read()
if sys.argv[2] == "checkstyle":
    assert ET.fromstring(raw).find("file").get("name") == "bad\ufffdname.yaml"
else:
    for line in raw.decode("utf-8").splitlines() if sys.argv[2] == "jsonl" else [raw.decode("utf-8")]:
        json.loads(line)
    if sys.argv[2] == "sarif":
        assert '"uri": "bad%FFname.yaml"' in raw.decode("utf-8")
PY
done

# Microsoft's SARIF validator, with GitHub Advanced Security's rules. It
# exits 0 whatever it finds, so its own SARIF log is read: notes pass,
# warnings and errors fail. npm's launcher passes arguments through a
# shell, which would split "Sarif;Ghas", so the binary is run directly;
# the file comes first because list options swallow the words after them.
cache=$tool_cache/sarif-multitool
find_mt() { find "$cache/node_modules/@microsoft" -maxdepth 2 -name Sarif.Multitool -type f 2>/dev/null | head -1; }
mt=$(find_mt)
why=""
if [ -z "$mt" ]; then
	if ! have npm; then why="npm is not installed"
	elif ! npm_install "$cache" @microsoft/sarif-multitool@5.7.0; then
		why="npm install @microsoft/sarif-multitool failed: $(tail -1 "$cache/install.log")"
	fi
	mt=$(find_mt)
	[ -z "$mt" ] && [ -z "$why" ] && why="no Sarif.Multitool binary for this platform"
fi
validate() { # SARIF LOG: the validator's report on SARIF into LOG, console on stdout
	DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 timeout 300 "$mt" validate "$1" \
		--rule-kind "Sarif;Ghas" --level "Error;Warning;Note" -o "$2" --log ForceOverwrite 2>&1
}
if [ -n "$mt" ]; then
	chmod u+x "$mt"
	for s in broken clean cases odd abs ${sets_sc:-}; do
		validate "$t/$s.sarif" "$t/$s.validation.sarif" >"$t/$s.validation.out"
		rc=$?
		grep -v ': note [A-Z]' "$t/$s.validation.out" | grep . | sed "s/^/sarif-multitool ($s): /"
		echo "sarif-multitool ($s): notes: $(grep -o ': note [A-Z]*[0-9]*' "$t/$s.validation.out" |
			cut -d' ' -f3 | sort | uniq -c | awk '{ s = s (s ? ", " : "") $2 " x" $1 } END { print s }')"
		if [ "$rc" != 0 ] || ! grep -q '^Analysis completed successfully' "$t/$s.validation.out"; then
			no "sarif-validator-$s: exit $rc"
		else
			check "sarif-validator-$s" validator-log "$t/$s.validation.sarif"
		fi
	done
	# A control: a log GitHub would reject must fail the same check.
	python3 - "$t/broken.sarif" "$t/reject.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
run = log["runs"][0]
del run["tool"]["driver"]["rules"][0]["fullDescription"]
run["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
json.dump(log, open(sys.argv[2], "w"), indent=2)
PY
	validate "$t/reject.sarif" "$t/reject.validation.sarif" >/dev/null
	if python3 "$root/tests/formats/check.py" validator-log "$t/reject.validation.sarif" >"$t/reject.why" 2>&1; then
		no "sarif-validator-rejects-bad-log: a log without fullDescription and with startLine 0 passed"
	elif grep -q 'GH[0-9]' "$t/reject.why" && grep -q JSON1008 "$t/reject.why"; then
		ok sarif-validator-rejects-bad-log
	else
		no "sarif-validator-rejects-bad-log: $(cat "$t/reject.why")"
	fi
	schema=$(dirname "$mt")/sarif-2.1.0.json
	if python3 -c 'import jsonschema' 2>/dev/null && [ -f "$schema" ]; then
		for s in broken clean cases odd abs ${sets_sc:-}; do
			check "sarif-schema-$s" schema "$t/$s.sarif" "$schema"
		done
	else
		skip "sarif-schema: python3 has no jsonschema module, or the validator ships no sarif-2.1.0.json"
	fi
else
	skip "sarif-validator: $why"
fi
