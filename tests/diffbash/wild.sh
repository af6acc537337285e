#!/bin/sh
# The script model on the real batch scripts of ../shared/corpus/wild,
# against bash -n's verdict in its MANIFEST.tsv: no SB0005 on a file
# bash accepts, SB0005 on each file bash rejects, the not-shell files
# (Python with #SBATCH text) not taken for batch scripts. Files where
# the model is wrong today are listed in known-wild.tsv (reported as
# skips); any other failure, or a listed file that is right now, fails.
# Then every error-level finding on the corpus must be a reviewed line
# of wild-errors.tsv (wild-errors.sh). Skips, saying so, when the corpus
# is not there.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
DB=${BUILD:-build/rel}/tests/diffbash/diffbash
if [ ! -x "$DB" ]; then
	no "wild: $DB is not built (make $DB)"
	exit 1
fi
"$DB" wild "${TF_WILD_CORPUS:-../shared/corpus/wild}" --known tests/diffbash/known-wild.tsv
rc=$?
sh tests/diffbash/wild-errors.sh || rc=1
exit "$rc"
