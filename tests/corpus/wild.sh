#!/bin/sh
# The real scripts of ../shared/corpus/wild linted as a directory walk
# finds them: every error-level finding (but SB0005, which
# tests/diffbash/wild.sh holds to bash -n) is one reviewed in
# tests/corpus/wild-errors.tsv, true or false, and every listed one is
# still reported. Prints the count of false ones and of warnings. Skips,
# saying so, when the corpus is not there.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
dir=${TF_WILD_CORPUS:-../shared/corpus/wild}
list=tests/corpus/wild-errors.tsv
if [ ! -f "$dir/MANIFEST.tsv" ]; then
	skip "wild-review: $dir not found (set TF_WILD_CORPUS)"
	exit 0
fi
(cd "$dir" && "$TF" lint --format concise --shellcheck off .) >"$t/out" 2>/dev/null
# PATH:LINE:COL: LEVEL: MESSAGE [RULE] -> PATH LINE RULE
sed -n 's|^\([^:]*\):\([0-9]*\):[0-9]*: error: .*\[\([A-Z0-9]*\)\]$|\1	\2	\3|p' "$t/out" |
	grep -v '	SB0005$' | sort -u >"$t/errors"
grep -v '^#' "$list" | cut -f1-3 | sort -u >"$t/listed"
comm -23 "$t/errors" "$t/listed" | while IFS='	' read -r path line rule; do
	no "wild-review/$path:$line/$rule: an error not reviewed in $list"
	grep -F "$path:$line:" "$t/out"
done
comm -13 "$t/errors" "$t/listed" | while IFS='	' read -r path line rule; do
	no "wild-review/$path:$line/$rule: listed in $list but no longer reported: remove the line"
done
comm -12 "$t/errors" "$t/listed" | while IFS='	' read -r path line rule; do
	ok "wild-review/$path:$line/$rule"
done
false_n=$(grep -v '^#' "$list" | awk -F'\t' '$4 == "false"' | wc -l)
warn_n=$(grep -c ': warning: ' "$t/out")
echo "wild-review: $(wc -l <"$t/errors") errors reviewed, $false_n of them false; $warn_n warnings" >&2
