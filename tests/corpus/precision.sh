#!/bin/sh
# Precision on real repositories trainforge was not written against:
# ../shared/corpus/wild-more and ../shared/corpus/wild, each walked as a
# user would (`trainforge lint --isolated --shellcheck off DIR`). Every
# error and a fixed sample of the warnings (up to SAMPLE of them, by
# the cksum of their keys) were read at their lines, and the verdicts are
# tests/corpus/CORPUS.tsv (PATH, LINE:COL, ID, LEVEL, true|false, why).
# The suite fails on an error or sampled warning that is not reviewed, on
# a reviewed-true finding that is gone, on a reviewed-false one that is
# back, and when a corpus misses the goal: at least 95% of its errors
# true, at most 5% of its sampled warnings false. It prints the precision
# of each corpus. Skips, saying so, when a corpus is not there.
#
#   sh tests/corpus/precision.sh            the check and the figures
#   sh tests/corpus/precision.sh --report   the findings to review, as TSV lines
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
mode=${1:---check}
SAMPLE=40
status=0
for corpus in wild-more wild; do
	dir=${TF_CORPUS_ROOT:-../shared/corpus}/$corpus
	list=tests/corpus/$corpus.tsv
	if [ ! -f "$dir/MANIFEST.tsv" ]; then
		skip "precision/$corpus: $dir not found (the corpus of real scripts is not here)"
		continue
	fi
	(cd "$dir/.." && "$TF" lint --isolated --shellcheck off --format concise -q --fail-level never "$corpus") \
		>"$t/found" 2>"$t/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		no "precision/$corpus: trainforge lint exited $rc: $(head -1 "$t/err")"
		status=1
		continue
	fi
	# PATH:LINE:COL: LEVEL: MESSAGE [ID] -> PATH<TAB>LINE:COL<TAB>ID<TAB>LEVEL
	sed -n "s#^$corpus/\([^:]*\):\([0-9]*\):\([0-9]*\): \(error\|warning\): .* \[\([A-Z][A-Z][0-9]\{4\}\)\]\$#\1	\2:\3	\5	\4#p" \
		"$t/found" >"$t/all"
	grep '	error$' "$t/all" >"$t/errors"
	# the sample: the first SAMPLE warnings by the cksum of their key
	grep '	warning$' "$t/all" | while IFS= read -r key; do
		printf '%s\t%s\n' "$(printf '%s' "$key" | cksum | cut -d' ' -f1)" "$key"
	done | sort -n | head -n "$SAMPLE" | cut -f2- >"$t/sample"
	cat "$t/errors" "$t/sample" >"$t/judged"
	awk -F'\t' -v corpus="$corpus" -v mode="$mode" -v list="$list" '
	FNR == NR {
		if ($0 ~ /^#/ || $0 == "") next
		key = $1 "\t" $2 "\t" $3 "\t" $4
		verdict[key] = $5
		reason[key] = $6
		order[++n] = key
		next
	}
	{
		key = $0
		seen[key] = 1
		if (!(key in verdict)) {
			bad++
			if (mode == "report") print key "\ttrue\tUNREVIEWED"
			else printf "RESULT fail precision/%s/%s:%s %s: a finding nobody reviewed: read it, then add its verdict to %s\n", corpus, $1, $2, $3, list
			next
		}
		if (verdict[key] == "false") {
			bad++
			if (mode != "report")
				printf "RESULT fail precision/%s/%s:%s %s: a finding reviewed as false is back (%s)\n", corpus, $1, $2, $3, reason[key]
			false_[$4]++
		} else {
			true_[$4]++
			if (mode != "report") printf "RESULT pass precision/%s/%s:%s %s\n", corpus, $1, $2, $3
		}
		count[$4]++
	}
	END {
		for (i = 1; i <= n; i++) {
			key = order[i]
			if (verdict[key] == "true" && !(key in seen)) {
				bad++
				split(key, f, "\t")
				if (mode != "report")
					printf "RESULT fail precision/%s/%s:%s %s: a finding reviewed as true is gone\n", corpus, f[1], f[2], f[3]
			}
		}
		e = count["error"] + 0; w = count["warning"] + 0
		et = true_["error"] + 0; wf = false_["warning"] + 0
		ep = e ? 100 * et / e : 100
		wp = w ? 100 * wf / w : 0
		if (mode != "report") {
			printf "precision %s: errors %d of %d true (%.1f%%); sampled warnings %d of %d false (%.1f%%)\n", corpus, et, e, ep, wf, w, wp
			if (ep < 95) { bad++; printf "RESULT fail precision/%s: %.1f%% of errors true, under the goal of 95%%\n", corpus, ep }
			else printf "RESULT pass precision/%s/errors-95\n", corpus
			if (wp > 5) { bad++; printf "RESULT fail precision/%s: %.1f%% of sampled warnings false, over the goal of 5%%\n", corpus, wp }
			else printf "RESULT pass precision/%s/warnings-5\n", corpus
		}
		exit bad > 0
	}' "$list" "$t/judged" || status=1
done
exit "$status"
