#!/bin/sh
# make image: an OCI image of each release tarball, made with umoci
# without a container daemon (docs/release.md).
#
#   sh packaging/image.sh TARBALL|DIR...
#
# A directory stands for the tarballs its SHA256SUMS lists. Each image is
# written beside its tarball as trainforge-VERSION-ARCH-linux.oci.tar, an
# OCI image layout in a tar with the tag VERSION (skopeo's and podman's
# oci-archive:FILE:VERSION), and the SHA256SUMS there is written again. Like a FROM scratch image, it holds the static
# binary alone, the notices of the libraries linked into it, /tmp and the
# working directory /work; its entry point is the binary, so
#   podman run --rm -v "$PWD:/work" IMAGE lint .
# lints the current directory. Times are SOURCE_DATE_EPOCH, else the
# tarball's: the same tarball gives the same bytes. The Containerfile
# builds the same image from source.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/lib.sh
. "$here/lib.sh"

image_build() {
	ociarch=$(arch_debian "$arch") || { echo "trainforge: $tarball: no OCI architecture for '$arch'" >&2; exit 2; }
	created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
	commit=$(sed -n 's/^commit //p' "$from/share/doc/trainforge/build-info.txt")

	layout=$work/layout
	bundle=$work/bundle
	umoci init --layout "$layout"
	umoci new --image "$layout:$version"
	umoci unpack --image "$layout:$version" "$bundle" >/dev/null
	root=$bundle/rootfs
	mkdir -p "$root/usr/bin" "$root/usr/share/doc/trainforge" "$root/tmp" "$root/work"
	cp "$from/bin/trainforge" "$root/usr/bin/trainforge"
	cp "$from"/share/doc/trainforge/licenses/*.copyright "$root/usr/share/doc/trainforge/"
	find "$root" -type d -exec chmod 755 {} +
	find "$root" -type f -exec chmod 644 {} +
	chmod 755 "$root/usr/bin/trainforge"
	chmod 1777 "$root/tmp"
	find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	umoci repack --image "$layout:$version" --history.created="$created" \
		--history.created_by="make image: trainforge $version for $arch" "$bundle"
	umoci config --image "$layout:$version" --no-history --created="$created" \
		--architecture="$ociarch" --os=linux \
		--config.entrypoint=/usr/bin/trainforge --config.workingdir=/work \
		--config.env=PATH=/usr/bin \
		--config.label=org.opencontainers.image.title=trainforge \
		--config.label=org.opencontainers.image.description="Generate and lint AWS ParallelCluster configs and Slurm batch scripts" \
		--config.label=org.opencontainers.image.version="$version" \
		--config.label=org.opencontainers.image.revision="$commit" \
		--config.label=org.opencontainers.image.created="$created"
	umoci gc --layout "$layout"
	image=$(dirname "$tarball")/$rname.oci.tar
	tar_reproducible "$layout" . >"$image"
	echo "image: $image"
}

[ $# -gt 0 ] || { echo "usage: sh packaging/image.sh TARBALL|DIR..." >&2; exit 2; }
release_each image_build "$@"
