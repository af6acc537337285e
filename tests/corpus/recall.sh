#!/bin/sh
# Recall on the real scripts: the defects of the recall rules' classes
# found by reading ../shared/corpus/wild and ../shared/corpus/wild-more,
# listed in tests/corpus/recall-*.tsv, are each found at their line, as a
# warning or an error (each fails or hangs a job, so never an info). A
# line whose rule is - is a defect no rule finds yet (reported as a skip,
# so it stays in sight). Ends with the recall on each corpus. Prints
# RESULT lines; skips, saying so, when a corpus is not there.
#
#   sh tests/corpus/recall.sh        the check, and the measurement
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
tf_built recall-corpus || exit 1
total=0
found=0
for corpus in wild wild-more; do
	dir=../shared/corpus/$corpus
	list=tests/corpus/recall-$corpus.tsv
	if [ ! -f "$dir/MANIFEST.tsv" ]; then
		skip "recall/$corpus: $dir not found (the corpus of real scripts is not here)"
		continue
	fi
	n=0
	hit=0
	tab=$(printf '\t')
	while IFS=$tab read -r path line rule flags what; do
		case $path in '#'* | '') continue ;; esac
		n=$((n + 1))
		name="recall/$corpus/$path:$line"
		if [ "$rule" = - ]; then
			skip "$name: no rule finds it yet: $what"
			continue
		fi
		[ "$flags" = - ] && flags=
		# shellcheck disable=SC2086 # the flags are words
		(cd "$dir" && "$TF" lint --isolated --shellcheck off --format concise -q --fail-level never \
			$flags "$path") >"$t/out" 2>/dev/null
		if grep -Eq "^[^:]*:$line:[0-9]*: (warning|error): .*\\[$rule\\]\$" "$t/out"; then
			hit=$((hit + 1))
			ok "$name $rule"
		else
			no "$name $rule: not found ($what)"
			cat "$t/out"
		fi
	done <"$list"
	echo "recall on $corpus: $hit of $n defects found"
	total=$((total + n))
	found=$((found + hit))
done
echo "recall: $found of $total defects found"
