#!/bin/sh
# docs/ci.md's recipes, run as they are written: every line of its code
# blocks that starts with `trainforge` runs in a git repository made here
# (a cluster config committed on main, then changed in a way pcluster
# update-cluster refuses, and a broken batch script), and what each writes
# is checked by the reader it is for: SARIF with Microsoft's validator and
# GitHub's rules (tests/formats/check.py reads its log), annotations with
# GitHub's workflow-command grammar, GitLab's Code Quality fields,
# Checkstyle with xmllint; each against the json output of the same
# command. Then the adoption commands: --statistics, and --add-noqa after
# which the same lint is clean. Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built ci || exit 0

check() { # name, check.py arguments...
	name=$1
	shift
	if why=$(python3 "$root/tests/formats/check.py" "$@" 2>&1); then ok "$name"
	else no "$name: $(echo "$why" | tail -1)"; fi
}

# The repository: main has a clean cluster config; the branch changes its
# head node's instance type and adds a broken batch script.
r=$t/repo
mkdir -p "$t/bin" "$r/clusters" "$r/jobs"
ln -s "$TF" "$t/bin/trainforge"
PATH=$t/bin:$PATH
export PATH
git init -q "$r"
git -C "$r" config user.email test@example.invalid
git -C "$r" config user.name trainforge-test
cp examples/clusters/trn2-48xlarge.yaml "$r/clusters/prod.yaml"
printf 'shellcheck: off\n' >"$r/.trainforge.yaml"
git -C "$r" add . && git -C "$r" commit -qm main
git -C "$r" update-ref refs/remotes/origin/main HEAD
sed 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' examples/clusters/trn2-48xlarge.yaml >"$r/clusters/prod.yaml"
grep -v '^# trainforge cluster=' examples/broken/train.sbatch >"$r/jobs/train.sbatch"
git -C "$r" add . && git -C "$r" commit -qm change

# The commands, in the page's order: a line of a fenced block that starts
# with `trainforge` (a YAML list item's `- ` and indentation aside).
awk '/^```/ { inside = !inside; next } inside { sub(/^[ \t]*(- )?/, ""); if ($0 ~ /^trainforge /) print }' \
	docs/ci.md >"$t/commands"
[ "$(wc -l <"$t/commands")" -ge 8 ] && ok commands-found || no "commands-found: $(wc -l <"$t/commands") in docs/ci.md"

n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	case $cmd in *--add-noqa*) continue ;; esac # changes the files: last
	(cd "$r" && GITHUB_BASE_REF=main sh -c "$cmd" >"$t/out.$n" 2>"$t/err.$n")
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] && ok "runs/$n" || { no "runs/$n: exit $rc: $cmd"; cat "$t/err.$n"; continue; }
	# the same command as json, for the comparison
	json=$(printf '%s\n' "$cmd" | sed 's/--format [a-z]*/--format json/; s/> *\([^ ]*\)$/> \1.json/')
	case $cmd in *--statistics*) json= ;; esac
	if [ -n "$json" ]; then
		(cd "$r" && GITHUB_BASE_REF=main sh -c "$json" >"$t/out.$n.json" 2>/dev/null)
	fi
	file=$(printf '%s\n' "$cmd" | sed -n 's/.*> *\([^ ]*\)$/\1/p')
	case $cmd in
	*"--format sarif"*)
		cp "$r/$file" "$t/ci.sarif"
		"$TF" rules >"$t/rules"
		check "sarif-matches-json/$n" sarif "$t/ci.sarif" "$r/$file.json" "$t/rules" ;;
	*"--format github"*)
		check "github-grammar/$n" github "$t/out.$n" "$t/out.$n.json"
		grep -q '^::error file=clusters/prod.yaml,.*PC5001' "$t/out.$n" && ok "github-base-review/$n" ||
			{ no "github-base-review/$n: no PC5001 annotation on clusters/prod.yaml"; head -5 "$t/out.$n"; } ;;
	*"--format gitlab"*)
		check "gitlab-code-quality/$n" gitlab "$r/$file" "$r/$file.json" ;;
	*"--format checkstyle"*)
		if have xmllint; then
			xmllint --noout "$r/$file" 2>"$t/xmllint" && ok "checkstyle-xmllint/$n" ||
				{ no "checkstyle-xmllint/$n"; cat "$t/xmllint"; }
		else
			skip "checkstyle-xmllint/$n: xmllint is not installed (apt-get install libxml2-utils)"
		fi
		check "checkstyle-matches-json/$n" checkstyle "$r/$file" "$r/$file.json" ;;
	*--statistics*)
		[ "$rc" = 1 ] && grep -Eq '^ +[0-9]+  SB0001  error +directive-after-command \[fix\]$' "$t/out.$n" &&
			! grep -Evq '^ +[0-9]+  [A-Z]{2}[0-9]{4}  (error|warning|info) +[a-z0-9-]+( \[fix\])?$' "$t/out.$n" &&
			ok "statistics/$n" || { no "statistics/$n: exit $rc"; cat "$t/out.$n"; } ;;
	esac
done <"$t/commands"

# Microsoft's SARIF validator with GitHub's rules, as tests/formats runs it.
mt=$(find "$tool_cache/sarif-multitool/node_modules/@microsoft" -maxdepth 2 -name Sarif.Multitool -type f 2>/dev/null | head -1)
if [ -z "$mt" ] || [ ! -f "$t/ci.sarif" ]; then
	skip "sarif-validator: the SARIF multitool is not in $tool_cache (tests/formats installs it), or no recipe wrote SARIF"
else
	DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 timeout 300 "$mt" validate "$t/ci.sarif" \
		--rule-kind "Sarif;Ghas" --level "Error;Warning;Note" -o "$t/ci.validation.sarif" --log ForceOverwrite >/dev/null 2>&1
	check sarif-validator validator-log "$t/ci.validation.sarif"
fi

# Adoption: accept what is there, then the same lint is clean.
grep -q 'trainforge lint --add-noqa \.$' "$t/commands" && ok adoption-documented || no adoption-documented
(cd "$r" && trainforge lint --add-noqa . >/dev/null 2>"$t/noqa.err")
rc=$?
[ "$rc" = 0 ] && grep -Eq '^Added [0-9]+ directives to [0-9]+ files?\.$' "$t/noqa.err" && ok add-noqa ||
	{ no "add-noqa: exit $rc"; cat "$t/noqa.err"; }
(cd "$r" && trainforge lint --format concise .) >"$t/after" 2>&1 && ok add-noqa-then-clean ||
	{ no add-noqa-then-clean; cat "$t/after"; }
grep -q '^# trainforge disable=SB3001 # accepted (trainforge lint --add-noqa)$' "$r/jobs/train.sbatch" &&
	ok add-noqa-directive || no add-noqa-directive
# and a new finding still fails
printf 'export NEURON_COMPILE_CACHE_DIR=/fsx/cache\n' >>"$r/jobs/train.sbatch"
(cd "$r" && trainforge lint --format concise . >"$t/new" 2>&1)
[ $? = 1 ] && grep -q 'SB2104' "$t/new" && ok add-noqa-new-finding-fails || { no add-noqa-new-finding-fails; cat "$t/new"; }
