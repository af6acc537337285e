#!/bin/sh
# Data-driven rule cases. Each rule has a folder named by its ID holding
# inputs (bad*.yaml, good*.yaml, ...) and, next to each, NAME.expect: the
# exact `trainforge lint --format concise` output. A bad case must show
# its folder's rule; a good case must not. Folders not named by a rule ID
# (_clusters) hold inputs the cases refer to. shellcheck is off here: its
# findings are tested on their own. A case of a change rule is a pair: the
# new version NAME and, beside it, NAME.base, the old one; NAME.expect is
# then the output of `trainforge diff --format concise NAME.base NAME`.
# Prints RESULT lines.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
out=$t/out
for input in tests/cases/*/*; do
	case $input in *.expect|*.args|*.base) continue ;; esac
	[ -f "$input" ] || continue
	rule=$(basename "$(dirname "$input")")
	case $rule in [A-Z][A-Z][0-9][0-9][0-9][0-9]) ;; *) continue ;; esac
	expect=$input.expect
	name=$rule/$(basename "$input")
	if [ ! -f "$expect" ]; then
		no "$name: no $expect"
		continue
	fi
	# how a lone script was paired (LN3002, LN3003) is said on every
	# case; it is shown only in its own folders
	args="--ignore LN3002,LN3003"
	case $rule in LN3002 | LN3003) args="" ;; esac
	[ -f "$input.args" ] && args="$args $(cat "$input.args")"
	if [ -f "$input.base" ]; then
		# shellcheck disable=SC2086
		"$TF" diff --format concise -q $args "$input.base" "$input" >"$out" 2>/dev/null
	else
		# shellcheck disable=SC2086
		"$TF" lint --format concise -q --shellcheck off $args "$input" >"$out" 2>/dev/null
	fi
	if ! diff -u "$expect" "$out" >/dev/null; then
		no "$name: output differs"
		diff -u "$expect" "$out" | head -20
		continue
	fi
	case $(basename "$input") in
	bad*)
		if grep -q "\[$rule\]\$" "$out"; then ok "$name"
		else no "$name: does not show $rule"; fi ;;
	good*)
		if grep -q "\[$rule\]\$" "$out"; then no "$name: shows $rule"
		else ok "$name"; fi ;;
	*) ok "$name" ;;
	esac
done
# Every rule in the table has a bad and a good case.
"$TF" rules | awk 'NR > 1 && $1 != "SC0000" { print $1 }' | while read -r id; do
	if ls tests/cases/"$id"/bad* >/dev/null 2>&1 && ls tests/cases/"$id"/good* >/dev/null 2>&1; then
		ok "coverage/$id"
	else
		no "coverage/$id: needs tests/cases/$id/bad* and good*"
	fi
done
