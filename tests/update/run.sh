#!/bin/sh
# Reviewing a config change as `pcluster update-cluster` judges it. The
# policy table agrees with ParallelCluster's own schema (policy_agree.py,
# with the vendored 3.11 package and Debian's python3-marshmallow), and
# docs/update-policy.md is what `trainforge docs update-policy` prints.
# Prints RESULT lines.
set -u
cd "$(dirname "$0")/../.." || exit 2
TF=${TF:-build/rel/trainforge}
case $TF in /*) ;; *) TF=$(pwd)/$TF ;; esac
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

ok() { echo "RESULT pass update/$1"; }
no() { echo "RESULT fail update/$1"; }

# ---- the table -------------------------------------------------------------
if "$TF" docs update-policy >"$t/table.md" 2>"$t/err" && cmp -s "$t/table.md" docs/update-policy.md; then
	ok docs-update-policy-current
else
	no "docs-update-policy-current: regenerate it with: $TF docs update-policy > docs/update-policy.md"
fi
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 tests/update/policy_agree.py "$t/table.md"
else
	echo "RESULT skip update/policy-agree: /usr/bin/python3 is missing (tools/deps.sh installs it)"
fi
