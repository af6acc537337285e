#!/bin/sh
# The script model against bash -n: the regression files, then 3,000
# generated scripts of a fixed seed (a share of them broken on purpose),
# each judged by bash -n and by the model. Prints per-construct counts
# and RESULT lines; fails on a disagreement that known.tsv does not
# list, on a listed one that agrees now, and on a construct or mutation
# no script exercised. known.tsv lists the disagreements being worked
# on; it is empty when the model agrees with bash everywhere.
#   sh tests/diffbash/run.sh --write-known   rewrite known.tsv and known-wild.tsv
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
DB=${BUILD:-build/rel}/tests/diffbash/diffbash
WILD=${TF_WILD_CORPUS:-../shared/corpus/wild}
RUN="--seed 1 --count 3000 --broken 30"
if [ ! -x "$DB" ]; then
	no "diffbash: $DB is not built (make $DB)"
	exit 1
fi
if [ "${1:-}" = --write-known ]; then
	# shellcheck disable=SC2086 # RUN is a list of options
	"$DB" run $RUN --regressions tests/diffbash/regressions --minimise 0 \
		--write-known tests/diffbash/known.tsv >/dev/null
	"$DB" wild "$WILD" --write-known tests/diffbash/known-wild.tsv >/dev/null
	exit 0
fi
# shellcheck disable=SC2086
"$DB" run $RUN --regressions tests/diffbash/regressions --known tests/diffbash/known.tsv \
	--coverage --selftest --minimise 3
