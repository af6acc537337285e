#!/bin/bash
# tests/e2e/slurm_build.sh's cache, on a stand-in release: a tarball whose
# configure and Makefile only install a fake sbin/slurmctld, and log each
# configure run, so that a rebuild shows. A build is cached once complete
# and reused; a failed or killed build leaves no cache entry, and the next
# build clears what it left; another tarball is another entry; an entry
# that is not a complete build is refused. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
t=$(mktemp -d)
bg=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "$bg" ] || kill -KILL "$bg" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
ok() { echo "RESULT pass $1"; }
no() { echo "RESULT fail $1"; }
for c in flock sha256sum tar make; do
	command -v "$c" >/dev/null 2>&1 || { no "slurmbuild: $c missing"; exit 1; }
done

# The stand-in: FAKE_FAIL=1 makes `make` fail, FAKE_HANG=1 makes `make
# install` wait (for a kill) half-way. (bash: its kill takes a process
# group, so the build's make and sleep go with it.)
mkdir -p "$t/src/slurm-9.9.9"
cat >"$t/src/slurm-9.9.9/configure" <<'EOF'
#!/bin/sh
echo "configure $*" >>"$FAKE_LOG"
prefix=${1#--prefix=}
printf 'PREFIX = %s\n' "$prefix" >Makefile
cat Makefile.in >>Makefile
EOF
cat >"$t/src/slurm-9.9.9/Makefile.in" <<'EOF'
all:
	@[ "$$FAKE_FAIL" != 1 ] || { echo "fake: failing"; exit 1; }
install:
	mkdir -p $(DESTDIR)$(PREFIX)/sbin
	@if [ "$$FAKE_HANG" = 1 ]; then touch "$$FAKE_LOG.hang"; sleep 60; fi
	printf '#!/bin/sh\necho slurm 9.9.9\n' >$(DESTDIR)$(PREFIX)/sbin/slurmctld
	chmod +x $(DESTDIR)$(PREFIX)/sbin/slurmctld
EOF
chmod +x "$t/src/slurm-9.9.9/configure"
(cd "$t/src" && tar czf "$t/slurm-9.9.9.tar.gz" slurm-9.9.9)

export FAKE_LOG="$t/configure.log" FAKE_FAIL=0 FAKE_HANG=0
export TF_SLURM_CACHE="$t/cache"
build() { sh tests/e2e/slurm_build.sh "$1" 2>"$t/err"; }
configures() { if [ -f "$FAKE_LOG" ]; then wc -l <"$FAKE_LOG" | tr -d ' '; else echo 0; fi; }
entries() { find "$TF_SLURM_CACHE" -mindepth 1 -maxdepth 1 -name 'slurm-*' 2>/dev/null | wc -l | tr -d ' '; }
leftovers() { find "$TF_SLURM_CACHE" -mindepth 1 -maxdepth 1 -name '.build-*' 2>/dev/null | wc -l | tr -d ' '; }

# A failed build: no entry, nothing left over, its log kept.
FAKE_FAIL=1 build "$t/slurm-9.9.9.tar.gz" >"$t/out"
rc=$?
[ $rc != 0 ] && [ ! -s "$t/out" ] && [ "$(entries)" = 0 ] && [ "$(leftovers)" = 0 ] &&
	grep -q 'fake: failing' "$TF_SLURM_CACHE/failed-build.log" && ok failed-build-not-cached ||
	{ no "failed-build-not-cached: exit $rc, prefix '$(cat "$t/out")', $(entries) entries, $(leftovers) leftovers"; cat "$t/err"; }

# A build killed mid-way: no entry; its temporary directory stays until
# the next build, which removes it and builds.
FAKE_HANG=1 setsid sh tests/e2e/slurm_build.sh "$t/slurm-9.9.9.tar.gz" >/dev/null 2>&1 &
bg=$!
i=0
while [ ! -e "$FAKE_LOG.hang" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL -- "-$bg" 2>/dev/null
wait "$bg" 2>/dev/null
bg=""
[ -e "$FAKE_LOG.hang" ] && [ "$(entries)" = 0 ] && [ "$(leftovers)" = 1 ] && ok killed-build-not-cached ||
	no "killed-build-not-cached: $(entries) entries, $(leftovers) leftovers"

# A complete build: the prefix is an entry named after the tarball and the
# key, with its stamp and slurmctld; the leftover is gone.
before=$(configures)
prefix=$(build "$t/slurm-9.9.9.tar.gz")
rc=$?
case $prefix in "$TF_SLURM_CACHE"/slurm-9.9.9-[0-9a-f]*) named=1 ;; *) named=0 ;; esac
[ $rc = 0 ] && [ $named = 1 ] && [ -x "$prefix/sbin/slurmctld" ] &&
	grep -q "^sha256 $(sha256sum "$t/slurm-9.9.9.tar.gz" | cut -d' ' -f1)\$" "$prefix/.trainforge-build" &&
	grep -q -e "--prefix=$prefix .*--enable-multiple-slurmd" "$FAKE_LOG" &&
	[ "$(leftovers)" = 0 ] && [ "$(configures)" = $((before + 1)) ] && ok build-cached ||
	{ no "build-cached: exit $rc, prefix '$prefix', $(leftovers) leftovers"; cat "$t/err"; }

# The second run reuses it: the same prefix, no configure.
before=$(configures)
again=$(build "$t/slurm-9.9.9.tar.gz")
rc=$?
[ $rc = 0 ] && [ "$again" = "$prefix" ] && [ "$(configures)" = "$before" ] && ok second-run-reuses ||
	no "second-run-reuses: '$again' after '$prefix', configure ran $(($(configures) - before)) more times"

# Another tarball of the same release is another entry.
mkdir -p "$t/other"
(cd "$t/src" && echo changed >slurm-9.9.9/NEWS && tar czf "$t/other/slurm-9.9.9.tar.gz" slurm-9.9.9)
other=$(build "$t/other/slurm-9.9.9.tar.gz")
rc=$?
[ $rc = 0 ] && [ -n "$other" ] && [ "$other" != "$prefix" ] && [ "$(entries)" = 2 ] && ok other-tarball-other-entry ||
	no "other-tarball-other-entry: '$other' beside '$prefix'"

# An entry that is not a complete build is refused, not used or rebuilt.
rm "$other/.trainforge-build"
before=$(configures)
out=$(build "$t/other/slurm-9.9.9.tar.gz")
rc=$?
[ $rc != 0 ] && [ -z "$out" ] && [ "$(configures)" = "$before" ] && grep -q 'not a complete build' "$t/err" &&
	ok incomplete-entry-refused || no "incomplete-entry-refused: printed '$out'"
