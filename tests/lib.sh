# shellcheck shell=sh
# What the shell suites share. A suite starts at the repository root and
# sources this file:
#
#   cd "$(dirname "$0")/../.." || exit 2
#   . tests/lib.sh
#
# It then has:
#   root       the repository root (absolute)
#   TF         the binary under test, absolute and exported (from $TF, or
#              $BUILD/trainforge, or build/rel/trainforge)
#   t          a scratch directory, removed on exit; background processes
#              whose ids are added to $pids are killed first
#   tool_cache where suites keep the npm packages they install
#   result_prefix  put before every RESULT name (schema/, valgrind/, ...)
# and the functions below. Every check prints one line
# "RESULT pass|fail|skip NAME" (tests/run.sh counts them) and, when it
# fails, what it saw. ok, no and skip only print, so "A && ok X || no X"
# is an if-then-else (shellcheck's SC2015 does not apply).
set -u
root=$(pwd)
TF=${TF:-${BUILD:-build/rel}/trainforge}
case $TF in /*) ;; *) TF=$root/$TF ;; esac
export TF
# shellcheck disable=SC2034 # read by the suites
tool_cache=${TF_TOOL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/trainforge}
result_prefix=
pids=

# The trap removes the directory made here, whatever a suite does to $t.
tf_scratch=$(mktemp -d) || exit 2
t=$tf_scratch
# Outputs the suites compare do not depend on the day they run or on the
# tester's own imported prices: "today" is fixed (prices' ages,
# docs/prices.md) and the user's price store is an empty scratch one.
SOURCE_DATE_EPOCH=${TF_TEST_EPOCH:-1796083200} # 2026-12-01
XDG_DATA_HOME=$tf_scratch/xdg-data
export SOURCE_DATE_EPOCH XDG_DATA_HOME
# shellcheck disable=SC2317 # run by the EXIT trap
tf_cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$tf_scratch"
}
trap tf_cleanup EXIT

# result pass|fail|skip NAME[: WHY]
result() { echo "RESULT $1 $result_prefix$2"; }
ok() { result pass "$1"; }
no() { result fail "$1"; }
skip() { result skip "$1"; }

# have COMMAND: it is on PATH
have() { command -v "$1" >/dev/null 2>&1; }

# tf_built SUITE: fails the suite's one check when there is no binary
tf_built() {
	[ -x "$TF" ] && return 0
	no "$1: no binary at $TF (run make)"
	return 1
}

# expect_rc NAME WANT COMMAND...: passes when COMMAND exits WANT. It runs
# in $run_dir (default: the repository root); its output is left in
# $t/out and $t/err for the checks that follow.
run_dir=
expect_rc() {
	name=$1 want=$2
	shift 2
	(cd "${run_dir:-$root}" && "$@") >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else no "$name: exit $rc, expected $want"; head -5 "$t/err"; fi
}

# has NAME PATTERN FILE, hasnt NAME PATTERN FILE: a grep pattern is (is
# not) in FILE
has() {
	if grep -q -- "$2" "$3"; then ok "$1"; else no "$1: no '$2'"; sed 's/^/    /' "$3" | head -20; fi
}
hasnt() {
	if grep -q -- "$2" "$3"; then no "$1: '$2' is there"; sed 's/^/    /' "$3" | head -20; else ok "$1"; fi
}

# py_check NAME ARGS... <<'PY' ... PY: the Python program on stdin, with
# ARGS as sys.argv[1:], passes when it exits 0; what it printed is shown
# when it fails.
py_check() {
	tf_name=$1
	shift
	if python3 - "$@" >"$t/py" 2>&1; then ok "$tf_name"; else no "$tf_name"; cat "$t/py"; fi
}

# json_check NAME FILE PYTHON: PYTHON runs with d = the JSON in FILE
json_check() {
	py_check "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
PY
}

# npm_version DIR PACKAGE: the version of PACKAGE installed in DIR, or
# nothing
npm_version() {
	node -p "require('$1/node_modules/$2/package.json').version" 2>/dev/null
}
# npm_install DIR PACKAGE@VERSION...: installs into DIR (bounded in
# time); npm's output goes to DIR/install.log
npm_install() {
	tf_npm_dir=$1
	shift
	mkdir -p "$tf_npm_dir"
	timeout 600 npm install --prefix "$tf_npm_dir" --no-audit --no-fund "$@" >"$tf_npm_dir/install.log" 2>&1
}

# hooks_repo DIR [all]: a git repository in DIR with one commit of the
# working tree's files that pre-commit's clone of trainforge needs to run
# the hooks (.pre-commit-hooks.yaml, packaging/, the Makefile that sets
# the version), or of every file git would track (all: for a source
# build), tagged v$VERSION. Git's settings for the commit are the caller's.
hooks_repo() {
	mkdir -p "$1" &&
		(
			cd "$root" || exit 2
			if [ "${2:-}" = all ]; then
				git ls-files -z --cached --others --exclude-standard
			else
				printf '%s\0' .pre-commit-hooks.yaml Makefile
				find packaging -type f -print0
			fi | tar --null -T - -cf -
		) | tar -xf - -C "$1" &&
		git -C "$1" init -q && git -C "$1" add -A && git -C "$1" commit -qm hooks &&
		git -C "$1" tag "v$(sed -n 's/^VERSION *:= *//p' "$root/Makefile")"
}
