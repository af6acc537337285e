#!/bin/sh
# The version tables: docs/versions-table.md is what `trainforge docs
# versions` prints from them, and check.py holds every row against the
# sourced facts of docs/versions-data.tsv (and those against the rows).
# Prints RESULT lines.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=versions/
if "$TF" docs versions >"$t/table.md" 2>"$t/err"; then
	if cmp -s "$t/table.md" docs/versions-table.md; then
		ok table-current
	else
		no "table-current: docs/versions-table.md is stale; regenerate it with: trainforge docs versions > docs/versions-table.md"
		diff -u docs/versions-table.md "$t/table.md" | head -20
	fi
else
	no "table-current: trainforge docs versions failed"
	head -3 "$t/err"
fi
python3 tests/versions/check.py docs/versions-data.tsv "$t/table.md" schemas/parallelcluster.schema.json
