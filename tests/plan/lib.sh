# shellcheck shell=sh
# What tests/plan/run.sh and tests/plan/fleet.sh share: a scratch
# directory $t, RESULT printers, an exit-code check and a JSON check.
TF=${TF:-build/rel/trainforge}
# shellcheck disable=SC2034 # used by the scripts that source this
S=tests/plan/specs
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

ok() { echo "RESULT pass $1"; }
no() { echo "RESULT fail $1"; }
expect_rc() { # name, expected rc, command...
	name=$1 want=$2
	shift 2
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else no "$name: exit $rc, expected $want"; head -5 "$t/err"; fi
}
# check NAME PYTHON: runs PYTHON with d = the JSON in $t/out, e = its
# first estimate and f = its mixed fleet (None for one fleet)
check() {
	name=$1
	if python3 - "$t/out" "$2" >"$t/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
e = d["estimates"][0]
f = d["fleet"]
exec(sys.argv[2])
PY
	then ok "$name"; else no "$name"; cat "$t/py"; fi
}
