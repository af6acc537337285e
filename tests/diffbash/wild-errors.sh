#!/bin/sh
# Every error-level finding of trainforge on the real scripts of
# ../shared/corpus/wild (every file of its MANIFEST.tsv, linted in one
# run as `trainforge lint --isolated --shellcheck off` lints them) is
# listed in wild-errors.tsv with a one-line reason, after a person read
# the script at that line: PATH<TAB>LINE:COL<TAB>ID<TAB>REASON. A finding
# judged false has a reason that starts with FALSE: (it is reported as a
# skip, so it stays in sight until the rule or the model is fixed). The
# suite fails on an error that is not listed (review it), on a listed one
# that is no longer reported (remove it), and on a line whose reason is
# still UNREVIEWED. Skips, saying so, when the corpus is not there.
#
#   sh tests/diffbash/wild-errors.sh            the check (wild.sh runs it)
#   sh tests/diffbash/wild-errors.sh --report   the lines to add and to remove
#   sh tests/diffbash/wild-errors.sh --write    rewrite wild-errors.tsv: the
#       reviewed reasons kept, gone lines dropped, new ones UNREVIEWED with
#       the finding's message (make wild-errors [WRITE=1] runs these)
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
dir=${TF_WILD_CORPUS:-../shared/corpus/wild}
list=tests/diffbash/wild-errors.tsv
mode=${1:---check}
mode=${mode#--}
if [ ! -f "$dir/MANIFEST.tsv" ]; then
	skip "wild-errors: $dir/MANIFEST.tsv not found (the corpus of real scripts is not here)"
	exit 0
fi
if [ ! -f "$list" ]; then
	no "wild-errors: $list is missing"
	exit 1
fi
awk -F'\t' 'NR > 1 && $1 != "" { print $1 }' "$dir/MANIFEST.tsv" >"$t/files"
# shellcheck disable=SC2046 # one argument per manifest path (none has blanks)
(cd "$dir" && "$TF" lint --isolated --shellcheck off --format concise -q --fail-level never \
	$(cat "$t/files")) >"$t/found" 2>"$t/err"
rc=$?
if [ "$rc" != 0 ]; then
	no "wild-errors: trainforge lint exited $rc: $(head -1 "$t/err")"
	exit 1
fi
# PATH:LINE:COL: error: MESSAGE [ID] -> PATH<TAB>LINE:COL<TAB>ID<TAB>MESSAGE
sed -n 's/^\([^:]*\):\([0-9]*\):\([0-9]*\): error: \(.*\) \[\([A-Z][A-Z][0-9]\{4\}\)\]$/\1	\2:\3	\5	\4/p' \
	"$t/found" >"$t/errors"

# Listed and found keys are matched as multisets: a key listed twice needs
# two findings.
awk -F'\t' -v mode="$mode" -v list="$list" -v out="$t/new" '
FNR == NR {
	if ($0 ~ /^#/ || $0 == "") { if (mode == "write") header[++nh] = $0; next }
	key = $1 "\t" $2 "\t" $3
	want[key]++
	reason[key, want[key]] = $4
	order[++nl] = key
	next
}
{
	key = $1 "\t" $2 "\t" $3
	seen[key]++
	if (seen[key] <= want[key]) {
		r = reason[key, seen[key]]
		if (r == "" || r ~ /^UNREVIEWED/) {
			bad++
			if (mode == "check")
				printf "RESULT fail wild-errors/%s:%s %s: listed in %s but not reviewed: read the line, then give the reason\n", $1, $2, $3, list
		} else if (r ~ /^FALSE:/) {
			if (mode == "check")
				printf "RESULT skip wild-errors/%s:%s %s: a false finding, listed: %s\n", $1, $2, $3, substr(r, 8)
		} else if (mode == "check") {
			printf "RESULT pass wild-errors/%s:%s %s\n", $1, $2, $3
		}
		kept[key, seen[key]] = r
	} else {
		bad++
		added[++na] = key "\tUNREVIEWED: " $4
		if (mode == "check")
			printf "RESULT fail wild-errors/%s:%s %s: an error not in %s (%s): review it and add a line\n", $1, $2, $3, list, $4
	}
}
END {
	for (i = 1; i <= nl; i++) {
		key = order[i]
		n[key]++
		if (n[key] > seen[key]) {
			bad++
			gone[++ng] = key
			split(key, f, "\t")
			if (mode == "check")
				printf "RESULT fail wild-errors/%s:%s %s: listed in %s but no longer reported: remove the line\n", f[1], f[2], f[3], list
		}
	}
	if (mode == "report") {
		for (i = 1; i <= na; i++) print "+" added[i]
		for (i = 1; i <= ng; i++) print "-" gone[i]
	}
	if (mode == "write") {
		for (i = 1; i <= nh; i++) print header[i] >out
		delete n
		for (i = 1; i <= nl; i++) {
			key = order[i]
			n[key]++
			if (n[key] <= seen[key]) print key "\t" kept[key, n[key]] >out
		}
		for (i = 1; i <= na; i++) print added[i] >out
	}
	exit (bad > 0)
}' "$list" "$t/errors"
rc=$?
case $mode in
check)
	errors=$(wc -l <"$t/errors")
	judged_false=$(grep -c '	FALSE:' "$list")
	echo "wild-errors: $errors error-level findings on $(wc -l <"$t/files") files; $judged_false listed as false"
	exit "$rc" ;;
report)
	[ "$rc" = 0 ] && echo "wild-errors: $list is current" >&2
	exit 0 ;;
write)
	# the comments at the top, then the lines by path and line
	{ grep '^#' "$t/new"; grep -v '^#' "$t/new" | grep -v '^$' | sort -t'	' -k1,1 -k2,2n; } >"$list"
	echo "wild-errors: wrote $list ($(grep -c UNREVIEWED "$list") lines to review)" >&2
	exit 0 ;;
esac
