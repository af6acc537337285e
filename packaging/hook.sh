#!/bin/sh
# The hooks of .pre-commit-hooks.yaml (language: script). pre-commit runs
# this file from its own clone of the trainforge repository, at the rev a
# .pre-commit-config.yaml pins:
#
#   packaging/hook.sh lint|gen-check|update-check [ARG...] [FILE...]
#
# The trainforge it runs is, in this order:
#   1. one an earlier run put in the clone (pre-commit's cache: `pre-commit
#      clean` or `gc` removes it with the clone);
#   2. the release of the clone's version for this machine, downloaded and
#      checked against the release's SHA256SUMS (packaging/install.sh);
#   3. the trainforge on PATH;
#   4. one built from the clone (make: a C compiler, pkg-config, and
#      libyaml, libcyaml and PCRE2 with their headers).
# TRAINFORGE_HOOK_BINARY=release, system or source keeps to one of 2, 3 or 4
# (default auto: each in turn). The releases are read from
# TRAINFORGE_RELEASE_URL, by default those of the GitHub repository
# pre-commit cloned (https://github.com/OWNER/REPO/releases/download).
# A download that is not the release (its checksum differs) stops the
# hook: nothing falls back from it. docs/release.md has the details.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=packaging/lib.sh
. "$here/packaging/lib.sh"
mode=${1:-}
[ $# -gt 0 ] && shift
say() { echo "trainforge hook: $*" >&2; }

from_release() {
	origin=$(git -C "$here" config --get remote.origin.url 2>/dev/null || true)
	sh "$here/packaging/install.sh" --version "$(pkg_version "$here")" --dir "$here/build/release" \
		--repo-url "$origin"
}
from_path() {
	command -v trainforge 2>/dev/null || { say "no trainforge on PATH"; return 1; }
}
from_source() {
	say "building trainforge from $here (make)"
	mkdir -p "$here/build"
	if make -C "$here" -j"$(nproc 2>/dev/null || echo 2)" trainforge >"$here/build/hook-make.log" 2>&1; then
		echo "$here/trainforge"
	else
		tail -20 "$here/build/hook-make.log" >&2
		say "the build failed (all of it in $here/build/hook-make.log)"
		return 1
	fi
}

# find_trainforge: the path of the trainforge to run
find_trainforge() {
	choice=${TRAINFORGE_HOOK_BINARY:-auto}
	case $choice in
	release) from_release; return ;;
	system) from_path; return ;;
	source) [ -x "$here/trainforge" ] && echo "$here/trainforge" && return; from_source; return ;;
	auto) ;;
	*) say "TRAINFORGE_HOOK_BINARY=$choice: expected auto, release, system or source"; return 2 ;;
	esac
	# installed by an earlier run: a source build here, or a release
	# (install.sh finds it without a download)
	[ -x "$here/trainforge" ] && echo "$here/trainforge" && return
	from_release
	rc=$?
	# 1: no release to be had here; 2 (a bad setting) and 3 (a download
	# that is not the release) stop the hook
	[ "$rc" = 1 ] || return $rc
	say "no release binary; trying trainforge on PATH"
	from_path && return
	from_source
}

tf=$(find_trainforge) || exit 2
case $mode in
lint)
	exec "$tf" lint "$@" ;;
# Every tracked job spec (a YAML file with a top-level `trainforge:` key)
# against the files gen wrote from it: beside it, or in the directory of
# `-o DIR`.
gen-check)
	out=
	if [ "${1:-}" = "-o" ]; then out=${2:-}; fi
	git ls-files -- "*.yaml" "*.yml" | {
		rc=0
		while IFS= read -r f; do
			grep -q "^trainforge:" "$f" || continue
			"$tf" gen --check "$f" -o "${out:-$(dirname "$f")}" || rc=1
		done
		exit $rc
	} ;;
# Each staged cluster config against its version at HEAD; the first
# commit has nothing to compare with.
update-check)
	git rev-parse --verify --quiet HEAD >/dev/null || exit 0
	exec "$tf" lint --base HEAD --select PC5 "$@" ;;
*)
	say "usage: hook.sh lint|gen-check|update-check [ARG...]"
	exit 2 ;;
esac
