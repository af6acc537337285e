#!/bin/sh
# The steps of the GitHub Action (action.yml), one per command:
#
#   sh packaging/action.sh install   the release binary for the runner's
#                                    architecture (packaging/install.sh:
#                                    SHA-256 checked), or a build from the
#                                    action's own source; its directory
#                                    goes on PATH
#   sh packaging/action.sh lint      trainforge lint of the inputs' paths,
#                                    as annotations or a SARIF file, with
#                                    config changes reviewed against the
#                                    base revision (lint --base)
#
# Each input comes as INPUT_<NAME> (action.yml sets them); outputs go to
# $GITHUB_OUTPUT, the PATH entry to $GITHUB_PATH. tests/dist runs
# action.yml's steps as the runner does, against a release on loopback.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=packaging/lib.sh
. "$here/packaging/lib.sh"
say() { echo "trainforge action: $*" >&2; }
output() { echo "$1=$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }

# The packages a source build needs, on Debian and Ubuntu runners.
build_deps() {
	command -v cc >/dev/null && command -v make >/dev/null &&
		pkg-config --exists yaml-0.1 libcyaml libpcre2-8 2>/dev/null && return
	sudo=
	[ "$(id -u)" = 0 ] || sudo="sudo -n"
	say "installing the build's packages"
	$sudo apt-get update -qq &&
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			gcc libc6-dev make pkg-config libyaml-dev libcyaml-dev libpcre2-dev >/dev/null
}

install() {
	case ${INPUT_INSTALL:-release} in
	release)
		set -- --version "${INPUT_VERSION:-$(pkg_version "$here")}" \
			--dir "${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/trainforge"
		[ -z "${INPUT_SHA256:-}" ] || set -- "$@" --sha256 "$INPUT_SHA256"
		if [ -n "${INPUT_RELEASE_URL:-}" ]; then
			set -- "$@" --base-url "$INPUT_RELEASE_URL"
		else
			# github.action_repository is empty in a composite action
			# (actions/runner#2525); the runner keeps an action in
			# _actions/OWNER/REPO/REF, which names its repository.
			case $here in
			*/_actions/*/*/*)
				r=${here##*/_actions/}
				set -- "$@" --repo-url "https://github.com/${r%%/*}/$(echo "$r" | cut -d/ -f2)" ;;
			esac
		fi
		bin=$(sh "$here/packaging/install.sh" "$@") || exit 1 ;;
	source)
		build_deps || { say "could not install the packages the build needs"; exit 1; }
		say "building trainforge from $here"
		make -C "$here" -j"$(nproc)" trainforge >&2 || { say "the build failed"; exit 1; }
		bin=$here/trainforge ;;
	*)
		say "install: '$INPUT_INSTALL' is neither release nor source"
		exit 2 ;;
	esac
	got=$("$bin" version) || { say "$bin does not run here"; exit 1; }
	say "$got"
	dirname "$bin" >>"${GITHUB_PATH:-/dev/null}"
	output path "$bin"
	output version "$(echo "$got" | cut -d' ' -f2)"
}

lint() {
	bin=${TRAINFORGE_BIN:-trainforge}
	format=${INPUT_FORMAT:-github}
	case $format in
	github | sarif) ;;
	*) say "format: '$format' is neither github nor sarif"; exit 2 ;;
	esac
	set -- --format "$format" --fail-level "${INPUT_FAIL_LEVEL:-warning}"
	base=${INPUT_BASE:-}
	if [ -n "$base" ]; then
		# actions/checkout fetches one commit unless told otherwise: the
		# base may have to be fetched first.
		if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
			say "fetching the base $base"
			git fetch -q --no-tags --depth=1 origin "$base" || { say "could not fetch the base $base"; exit 2; }
		fi
		set -- "$@" --base "$base"
	fi
	# The paths and extra arguments are words split at blanks, not globbed.
	set -f
	# shellcheck disable=SC2086
	set -- "$@" ${INPUT_ARGS:-} -- ${INPUT_PATHS:-.}
	set +f
	if [ "$format" = sarif ]; then
		sarif=${INPUT_SARIF_FILE:-trainforge.sarif}
		"$bin" lint "$@" >"$sarif"
		rc=$?
		output sarif-file "$sarif"
	else
		"$bin" lint "$@"
		rc=$?
	fi
	output exit-code "$rc"
	exit "$rc"
}

case ${1:-} in
install) install ;;
lint) lint ;;
*) say "usage: action.sh install|lint"; exit 2 ;;
esac
