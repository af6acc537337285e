#!/bin/sh
# The real scripts of ../shared/corpus/wild linted as a user would (the
# directory walked, shellcheck off): every error-level finding must be
# listed, with the reason it is right, in tests/corpus/wild-errors.tsv.
# An error not listed fails until it is reviewed (listed, or the rule
# fixed); a listed one that is not found any more fails too, so the list
# stays the truth. tests/diffbash/wild.sh checks the same files against
# bash -n. Skips, saying so, when the corpus is not there.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
dir=${TF_WILD_CORPUS:-../shared/corpus/wild}
list=tests/corpus/wild-errors.tsv
if [ ! -f "$dir/MANIFEST.tsv" ]; then
	skip "wild-errors: $dir not found (set TF_WILD_CORPUS)"
	exit 0
fi
"$TF" lint --format concise -q --shellcheck off "$dir" >"$t/out" 2>"$t/err"
rc=$?
if [ "$rc" -gt 1 ]; then
	no "wild-errors: trainforge lint exited $rc"
	cat "$t/err"
	exit 1
fi
# FILE<TAB>LINE<TAB>RULE of each error, FILE relative to the corpus
sed -n 's|^'"$dir"'/\([^:]*\):\([0-9]*\):[0-9]*: error: .*\[\([A-Z][A-Z][0-9]*\)\]$|\1\t\2\t\3|p' "$t/out" |
	sort -u >"$t/found"
grep -v '^#' "$list" | grep . | cut -f1-3 | sort -u >"$t/listed"
comm -23 "$t/found" "$t/listed" >"$t/new"
comm -13 "$t/found" "$t/listed" >"$t/gone"
comm -12 "$t/found" "$t/listed" >"$t/both"
tab=$(printf '\t')
while IFS=$tab read -r f l r; do
	ok "wild-errors/$f:$l $r (listed)"
done <"$t/both"
while IFS=$tab read -r f l r; do
	no "wild-errors/$f:$l $r: an error not in $list; review it"
	grep -F "$dir/$f:$l:" "$t/out" | grep -F "[$r]"
done <"$t/new"
while IFS=$tab read -r f l r; do
	no "wild-errors/$f:$l $r: listed in $list but not found any more"
done <"$t/gone"
[ -s "$t/both" ] || no "wild-errors: no error found on the corpus at all"
