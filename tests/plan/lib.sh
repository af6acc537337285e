# shellcheck shell=sh
# What tests/plan/run.sh and tests/plan/fleet.sh share beyond tests/lib.sh:
# the spec folder and a check of the plan's JSON.
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck disable=SC2034 # used by the scripts that source this
S=tests/plan/specs

# check NAME PYTHON: runs PYTHON with d = the JSON in $t/out, e = its
# first estimate and f = its mixed fleet (None for one fleet)
check() {
	json_check "$1" "$t/out" 'e = d["estimates"][0]
f = d["fleet"]
'"$2"
}
