#!/bin/sh
# The OCI images make image left in build/dist, for both architectures:
# skopeo (another reader than umoci) inspects each and copies it, which
# checks every digest; each unpacks with umoci and its binary runs from
# the unpacked root (arm64 under qemu-user; tests/dist/lib.sh's
# check_image); the same tarball gives the same image. .ci/run runs it
# after make image (sh tests/run.sh dist/image). Prints RESULT lines.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/dist/lib.sh
. tests/dist/lib.sh
d=$root/build/dist
[ -f "$d/SHA256SUMS" ] || { no "image: build/dist has no release (make image)"; exit 0; }
have skopeo || { no "image: skopeo is not installed (sh tools/deps.sh dist)"; exit 0; }
for tarball in $(release_tarballs "$d"); do
	release_parse "$tarball"
	ociarch=$(arch_debian "$arch")
	image=$d/$rname.oci.tar
	[ -f "$image" ] || { no "$ociarch: no ${image##*/} (make image)"; continue; }
	grep -q "  ${image##*/}\$" "$d/SHA256SUMS" && ok "$ociarch/in-sums" || no "$ociarch/in-sums"
	expect_rc "$ociarch/skopeo-inspect" 0 skopeo inspect --config "oci-archive:$image:$version"
	json_check "$ociarch/skopeo-sees-the-platform" "$t/out" "
assert d['architecture'] == '$ociarch' and d['os'] == 'linux', d
assert d['config']['Entrypoint'] == ['/usr/bin/trainforge'], d['config']
"
	expect_rc "$ociarch/skopeo-copy" 0 skopeo copy -q "oci-archive:$image:$version" "dir:$t/copy-$ociarch"
	check_image "$ociarch" "$image" "$tarball"
	same_again "$ociarch" image.sh "$tarball" "$image"
done
