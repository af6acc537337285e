#!/bin/sh
# Builds a Slurm release from its source tarball, once, into a cache
# outside the clone, and prints the install prefix:
#
#   sh tests/e2e/slurm_build.sh TARBALL      e.g. ../shared/vendor/slurm-25.11.7.tar.gz
#
# The build takes minutes (5 of CPU, 11 wall on a busy 2-core machine), so
# a second run, or CI in a fresh clone of the same machine, reuses it. The
# prefix is named after the tarball and a key, the sha256 of the tarball's
# sha256 and the configure flags: a new tarball or new flags are a new
# build, never a stale one. Slurm compiles its prefix into its binaries
# (plugin directory, libslurm's rpath), so it is configured for the final
# place, installed with DESTDIR into a temporary directory beside it and
# renamed there only once complete: an interrupted build is never taken
# for a cached one, and its leftovers are removed by the next build.
# Builds of one cache are serialised (flock), so two runs that both miss
# build once.
#
# Environment: TF_SLURM_CACHE (default /var/cache/trainforge/slurm),
# TF_SLURM_JOBS (make -j, default 2). Build dependencies: tests/e2e/deps.sh.
# Progress goes to stderr; stdout is only the prefix.
set -eu

# No munge: the test clusters use auth/none and cred/none. Several slurmd
# -N on one host need --enable-multiple-slurmd (otherwise slurmctld skips
# nodes that share a NodeHostname).
FLAGS="--without-munge --disable-debug --enable-multiple-slurmd"

log() { echo "slurm_build: $*" >&2; }

[ $# = 1 ] || { log "usage: slurm_build.sh TARBALL"; exit 2; }
tarball=$(realpath "$1") || exit 2
[ -f "$tarball" ] || { log "no tarball at $1"; exit 2; }
cache=${TF_SLURM_CACHE:-/var/cache/trainforge/slurm}
jobs=${TF_SLURM_JOBS:-2}

name=$(basename "$tarball")
name=${name%.tar.gz}
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
key=$(printf '%s\n%s\n' "$sum" "$FLAGS" | sha256sum | cut -c1-16)
prefix=$cache/$name-$key
stamp=$prefix/.trainforge-build

# A prefix exists only once it is complete: its stamp says it is ours.
cached() {
	[ -d "$prefix" ] || return 1
	if [ ! -f "$stamp" ] || [ ! -x "$prefix/sbin/slurmctld" ]; then
		log "$prefix exists but is not a complete build (no stamp or no slurmctld); remove it"
		exit 1
	fi
}

if cached; then
	echo "$prefix"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if cached; then # built by another run while this one waited
	echo "$prefix"
	exit 0
fi
# Under the lock no other build runs: what is left is from an interrupted one.
rm -rf "$cache"/.build-*
tmp=$(mktemp -d "$cache/.build-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
started=$(date +%s)
log "building $name ($FLAGS) into $prefix; log in $tmp/build.log"
# (set -e does not reach into a condition: each step is chained.)
# shellcheck disable=SC2086 # FLAGS is a list of words
if ! (cd "$tmp" && tar xzf "$tarball" && cd "$name" &&
	./configure --prefix="$prefix" --sysconfdir="$prefix/etc" $FLAGS &&
	make -j"$jobs" && make install DESTDIR="$tmp/dest") >"$tmp/build.log" 2>&1; then
	cp "$tmp/build.log" "$cache/failed-build.log"
	log "the build failed; its log's end follows (all of it in $cache/failed-build.log)"
	tail -n 40 "$tmp/build.log" >&2
	exit 1
fi
{
	echo "tarball $name.tar.gz"
	echo "sha256 $sum"
	echo "flags $FLAGS"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - started)) s"
} >"$tmp/dest$prefix/.trainforge-build"
mv "$tmp/dest$prefix" "$prefix"
log "built in $(($(date +%s) - started)) s"
echo "$prefix"
