#!/bin/sh
# The Debian packages make deb left in build/dist, for both architectures:
# lintian at every level (pedantic included) reports no tag but those
# packaging/debian/lintian-overrides explains; each installs into an
# empty root with dpkg, runs there (arm64 under qemu-user) and purges
# clean (tests/dist/lib.sh's check_deb); the same tarball gives the same
# package. .ci/run runs it after make deb (sh tests/run.sh dist/deb).
# Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/dist/lib.sh
. tests/dist/lib.sh
d=$root/build/dist
[ -f "$d/SHA256SUMS" ] || { no "deb: build/dist has no release (make deb)"; exit 0; }
have lintian || { no "deb: lintian is not installed (sh tools/deps.sh dist)"; exit 0; }
for tarball in $(release_tarballs "$d"); do
	release_parse "$tarball"
	debarch=$(arch_debian "$arch")
	deb=$d/trainforge_$(deb_version "$version")_$debarch.deb
	[ -f "$deb" ] || { no "$debarch: no ${deb##*/} (make deb)"; continue; }
	grep -q "  ${deb##*/}\$" "$d/SHA256SUMS" && ok "$debarch/in-sums" || no "$debarch/in-sums"
	lintian -I --pedantic --fail-on error,warning,info,pedantic "$deb" >"$t/lintian" 2>&1 &&
		ok "$debarch/lintian-clean" || { no "$debarch/lintian-clean"; cat "$t/lintian"; }
	check_deb "$debarch" "$deb" "$tarball"
	same_again "$debarch" deb.sh "$tarball" "$deb"
done
