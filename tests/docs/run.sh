#!/bin/sh
# The rules reference. docs/rules.md must be what `trainforge docs rules`
# prints; every rule must have an explanation; `explain` finds rules by ID,
# lower-case ID and name; and every example must do what it says: saved
# to a file, the bad one makes `trainforge lint --select ID` report ID and
# the good one does not. Prints RESULT lines.
#
# Examples that need more than a plain lint: a line '# $ trainforge lint
# ARGS FILE' among the first three gives the lint options (LN1005's size
# limit); LN0001 also selects the rules its directive names, because an
# unused suppression is only reported for rules that are enabled; paired
# examples name cluster.yaml, which `explain --example cluster` prints;
# a change rule's examples are changes: `explain --example bad-old` (and
# good-old) prints the version each changes, and `trainforge diff
# --select ID OLD NEW` must report ID for the bad one and not the good;
# SC0000 is reported under shellcheck's own codes; a script an example's
# lint line names (SB2020's per-node script) is written beside it, and so
# is a program it names (SB23xx): train.py defines --log_every, a required
# --data-dir and a switch --fp16; hf_train.py builds its parser with
# HfArgumentParser. LN1004's bad example is
# empty on purpose. Batch-script examples are skipped until lint reads
# batch scripts, SC0000's also without shellcheck; LN2001's are batch
# scripts that need shellcheck (which runs on files with SC0000 enabled).
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

# ---- docs/rules.md is current -------------------------------------------
if "$TF" docs rules >"$t/rules.md" 2>"$t/err"; then
	if cmp -s "$t/rules.md" docs/rules.md; then
		ok docs-rules-md-current
	else
		no "docs-rules-md-current: docs/rules.md is stale; regenerate it with: $TF docs rules > docs/rules.md"
		diff -u docs/rules.md "$t/rules.md" | head -20
	fi
else
	no "docs-rules-md-current: '$TF docs rules' failed"
	head -3 "$t/err"
fi
# ---- the man page and the bash completion are current -------------------
# Both are printed from cli/cli_options.def; make install installs them.
for generated in "docs man:docs/trainforge.1" "completion bash:completions/trainforge.bash"; do
	args=${generated%%:*} file=${generated#*:}
	# shellcheck disable=SC2086 # args is two words
	if "$TF" $args >"$t/generated" 2>"$t/err" && cmp -s "$t/generated" "$file"; then
		ok "current/$file"
	else
		no "current/$file: $file is stale; regenerate it with: $TF $args > $file"
		diff -u "$file" "$t/generated" | head -20
	fi
done
# groff is Debian's man renderer (groff-base, which tools/deps.sh installs);
# -ww -z reports every warning and prints nothing.
if have groff; then
	groff -man -Tutf8 -ww -z docs/trainforge.1 >"$t/groff" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$t/groff" ] && ok man-renders-clean ||
		{ no "man-renders-clean: groff exit $rc"; head -5 "$t/groff"; }
else
	skip "man-renders-clean: groff is not installed"
fi

"$TF" docs >/dev/null 2>"$t/err"
[ $? = 2 ] && [ -s "$t/err" ] && ok docs-without-topic-exits-2 || no docs-without-topic-exits-2
"$TF" docs frobnicate >/dev/null 2>"$t/err"
[ $? = 2 ] && [ -s "$t/err" ] && ok docs-unknown-topic-exits-2 || no docs-unknown-topic-exits-2

# ---- explain finds rules ------------------------------------------------
"$TF" explain PC2101 >"$t/by-id" 2>/dev/null
rc=$?
[ "$rc" = 0 ] && head -1 "$t/by-id" | grep -q '^PC2101  efa-without-placement-group ' &&
	ok explain-by-id || no "explain-by-id: exit $rc"
"$TF" explain pc2101 >"$t/by-lower" 2>/dev/null && cmp -s "$t/by-id" "$t/by-lower" &&
	ok explain-by-lower-case-id || no explain-by-lower-case-id
"$TF" explain efa-without-placement-group >"$t/by-name" 2>/dev/null && cmp -s "$t/by-id" "$t/by-name" &&
	ok explain-by-name || no explain-by-name
for section in 'Why it matters:' 'ParallelCluster validator:' 'EfaPlacementGroupValidator' 'Bad:' 'Good:' \
	'# trainforge disable=PC2101 # reason' '# trainforge disable-file=PC2101' '--select PC2101' '--ignore PC2101'; do
	grep -qF -- "$section" "$t/by-id" && ok "explain-shows/$section" || no "explain-shows/$section"
done
"$TF" explain PC9999 >"$t/out" 2>"$t/err"
rc=$?
[ "$rc" = 2 ] && [ ! -s "$t/out" ] && grep -q "unknown rule 'PC9999'" "$t/err" &&
	ok explain-unknown-exits-2 || no "explain-unknown-exits-2: exit $rc"
"$TF" explain Efa-Without-Placement-Group >/dev/null 2>&1
[ $? = 2 ] && ok explain-names-are-exact || no explain-names-are-exact
"$TF" explain >/dev/null 2>&1
[ $? = 2 ] && ok explain-without-rule-exits-2 || no explain-without-rule-exits-2
"$TF" explain --example worst PC2101 >/dev/null 2>&1
[ $? = 2 ] && ok explain-bad-example-flag-exits-2 || no explain-bad-example-flag-exits-2
"$TF" explain --format markdown PC2101 >"$t/md" 2>/dev/null && head -1 "$t/md" | grep -q '^# PC2101 efa-without-placement-group$' &&
	ok explain-markdown || no explain-markdown

# ---- every rule is explained, and its examples work ----------------------
# Batch-script examples can only be checked once lint reads batch scripts:
# until then a named script is a file of no known kind (LN1008).
sb_rules=$("$TF" rules | grep -c '^SB')
printf '#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n' >"$t/probe.sbatch"
"$TF" lint --format concise -q --fail-level never "$t/probe.sbatch" >"$t/probe.out" 2>/dev/null
probe_rc=$?
sb_lint=yes
if [ "$probe_rc" = 2 ] || grep -q '\[LN1008\]$' "$t/probe.out"; then sb_lint=no; fi

lint_example() { # id, file in $t [, its old version]: prints the concise findings of --select ID
	id=$1 file=$2 old=${3:-}
	if [ -n "$old" ]; then
		(cd "$t" && "$TF" diff --format concise -q --color never --select "$id" \
			"$(basename "$old")" "$(basename "$file")") 2>"$t/lint-err"
		[ $? != 2 ] || echo "trainforge exited 2: $(head -1 "$t/lint-err")"
		return
	fi
	select=$id
	args=$(sed -n '1,3s/^# \$ trainforge lint \(.*\) [^ ]*$/\1/p' "$file")
	# a per-node script the example names with `# $ trainforge lint NAME.sh
	# FILE` is written beside it: a torchrun line, as the run's other input
	for sh in $args; do
		case $sh in
		*.sh) printf '#!/bin/bash\ntorchrun --standalone --nproc_per_node=8 /fsx/train.py\n' >"$t/$sh" ;;
		hf_*.py) printf 'from transformers import HfArgumentParser\nargs = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()\n' >"$t/$sh" ;;
		*.py) printf 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--log_every", type=int, default=10)\np.add_argument("--data-dir", required=True)\np.add_argument("--fp16", action="store_true")\nargs = p.parse_args()\n' >"$t/$sh" ;;
		esac
	done
	[ "$id" = LN2001 ] && select=$select,SC0000
	if [ "$id" = LN0001 ]; then
		for other in $(sed -n 's/.*# trainforge disable\(-file\)\{0,1\}=\([A-Za-z0-9,-]*\).*/\2/p' "$file" | tr ',' ' '); do
			select=$select,$other
		done
	fi
	# shellcheck disable=SC2086
	(cd "$t" && "$TF" lint --format concise -q --color never --select "$select" $args "$(basename "$file")") 2>"$t/lint-err"
	[ $? != 2 ] || echo "trainforge exited 2: $(head -1 "$t/lint-err")"
}

"$TF" rules | awk 'NR > 1 { print $1 }' >"$t/ids"
[ -s "$t/ids" ] && ok rules-listed || no rules-listed
while read -r id; do
	"$TF" explain "$id" >"$t/page" 2>/dev/null
	why=$(sed -n '/^Why it matters:$/{n;p;}' "$t/page")
	"$TF" explain --example bad "$id" >"$t/bad" 2>/dev/null
	rc_bad=$?
	"$TF" explain --example good "$id" >"$t/good" 2>/dev/null
	rc_good=$?
	if [ -z "$why" ] || [ "$rc_bad" != 0 ] || [ "$rc_good" != 0 ]; then
		no "explained/$id: add EXPLAIN($id, why, bad, good, validator) to core/report/explain.def"
		continue
	fi
	if [ ! -s "$t/good" ] || { [ ! -s "$t/bad" ] && [ "$id" != LN1004 ]; }; then
		no "explained/$id: an example is empty"
		continue
	fi
	ok "explained/$id"

	ext=yaml
	shows="\[$id\]\$"
	case $id in
	SB* | SC* | LN2001 | LN3002 | LN3003)
		if [ "$sb_rules" = 0 ] || [ "$sb_lint" = no ]; then
			skip "examples/$id: trainforge lint does not read batch scripts yet"
			continue
		fi
		ext=sbatch ;;
	esac
	rm -f "$t/cluster.yaml"
	"$TF" explain --example cluster "$id" >"$t/cluster.yaml" 2>/dev/null || rm -f "$t/cluster.yaml"
	case $id in
	SB2013)
		# its examples start train.py, which is looked for beside them:
		# a Python file as people write it, no #! line, not executable
		printf 'import torch\n' >"$t/train.py"
		chmod 644 "$t/train.py" ;;
	SC0000 | LN2001)
		[ "$id" = SC0000 ] && shows='\[SC[0-9][0-9][0-9][0-9]\]$'
		if ! have shellcheck; then
			skip "examples/$id: shellcheck is not installed"
			continue
		fi ;;
	esac
	for which in bad good; do
		f=$t/$id-$which.$ext
		cp "$t/$which" "$f"
		old=
		if "$TF" explain --example "$which-old" "$id" >"$t/$id-$which-old.$ext" 2>/dev/null; then
			old=$t/$id-$which-old.$ext
		fi
		cmd="lint"
		[ -z "$old" ] || cmd="diff"
		lint_example "$id" "$f" "$old" >"$t/found"
		if grep -q '^trainforge exited 2' "$t/found"; then
			no "examples/$id/$which: $(cat "$t/found")"
		elif [ "$which" = bad ] && ! grep -q "$shows" "$t/found"; then
			no "examples/$id/bad: 'trainforge $cmd --select $id' does not report $id"
			cat "$t/found"
		elif [ "$which" = good ] && grep -q "$shows" "$t/found"; then
			no "examples/$id/good: 'trainforge $cmd --select $id' reports $id"
			cat "$t/found"
		else
			ok "examples/$id/$which"
		fi
	done
done <"$t/ids"
