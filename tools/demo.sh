#!/bin/sh
# `make demo`: lint the bundled examples. The clean clusters pass; the
# broken one shows what trainforge catches. Exits 0 when both are true.
set -u
cd "$(dirname "$0")/.." || exit 2
echo "== trainforge lint examples/clusters (hand-written, expected clean)"
./trainforge lint examples/clusters || { echo "demo: the clean examples have findings" >&2; exit 1; }
echo
echo "== trainforge lint examples/broken (expected to fail)"
./trainforge lint examples/broken
rc=$?
if [ "$rc" != 1 ]; then
	echo "demo: the broken example should exit 1, got $rc" >&2
	exit 1
fi
echo
echo "demo: clean examples pass, the broken one fails with the findings above"
