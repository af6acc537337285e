# shellcheck shell=sh
# What the release scripts (dist.sh, deb.sh, image.sh) share: the version,
# the architectures' names, a tar that gives the same bytes for the same
# files, and the checksum file. docs/release.md describes the release.

# pkg_version DIR: the version DIR/Makefile sets, the one place it is set
pkg_version() {
	sed -n 's/^VERSION *:= *\([^ ]*\) *$/\1/p' "$1/Makefile"
}

# arch_debian ARCH: Debian's and OCI's name of a release architecture,
# which is the kernel's (uname -m)
arch_debian() {
	case $1 in
	x86_64) echo amd64 ;;
	aarch64) echo arm64 ;;
	*) return 1 ;;
	esac
}

# deb_version VERSION: the version as Debian orders it: a pre-release
# (0.2.0-dev) sorts before its release with ~, where - would begin a
# Debian revision
deb_version() {
	echo "$1" | tr - '~'
}

# release_name VERSION ARCH: the name of a release tarball without .tar.gz,
# and of the directory it holds
release_name() {
	echo "trainforge-$1-$2-linux"
}

# release_parse TARBALL: sets rname (the tarball's name without .tar.gz),
# version and arch from a name release_name made
# shellcheck disable=SC2034 # read by the callers
release_parse() {
	rname=$(basename "$1" .tar.gz)
	version=${rname#trainforge-}
	version=${version%-linux}
	arch=${version##*-}
	version=${version%-*}
}

# release_tarballs ARG...: the tarballs the arguments name, one a line; a
# directory stands for the tarballs its SHA256SUMS lists
release_tarballs() {
	for a in "$@"; do
		if [ -d "$a" ]; then
			sed -n 's/^[0-9a-f]\{64\}  \(.*\.tar\.gz\)$/\1/p' "$a/SHA256SUMS" | while read -r f; do echo "$a/$f"; done
		else
			echo "$a"
		fi
	done
}

# release_each FUNCTION ARG...: FUNCTION once for each release tarball
# the arguments name (release_tarballs), with tarball, rname, version and
# arch set, the tarball unpacked in the scratch directory work (removed
# after) as from, and SOURCE_DATE_EPOCH, when unset, the time of its
# binary; then the SHA256SUMS beside the tarball is written again
release_each() {
	each=$1
	shift
	for tarball in $(release_tarballs "$@"); do
		release_parse "$tarball"
		work=$(mktemp -d)
		trap 'rm -rf "$work"' EXIT
		tar -xzf "$tarball" -C "$work"
		from=$work/$rname
		[ -x "$from/bin/trainforge" ] || { echo "trainforge: $tarball holds no $rname/bin/trainforge" >&2; exit 2; }
		: "${SOURCE_DATE_EPOCH:=$(stat -c %Y "$from/bin/trainforge")}"
		export SOURCE_DATE_EPOCH
		"$each"
		rm -rf "$work"
		trap - EXIT
		sums_write "$(dirname "$tarball")" "$version"
	done
}

# tar_reproducible DIR MEMBER: DIR/MEMBER as a tar on standard output
# whose bytes depend on the files' contents, names and modes alone:
# members sorted, owned by 0:0 without names, every mtime
# SOURCE_DATE_EPOCH. (gzip -n then records no name or time either.)
tar_reproducible() {
	LC_ALL=C tar -C "$1" --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
		--mtime="@$SOURCE_DATE_EPOCH" -cf - "$2"
}

# sums_write DIR VERSION: DIR/SHA256SUMS, the checksums of the release
# files of VERSION in DIR (tarballs, Debian packages, images), sorted by
# name, in the format `sha256sum -c` reads
sums_write() {
	(
		cd "$1" || exit 2
		debv=$(deb_version "$2")
		set -- "trainforge-$2-"*-linux.tar.gz "trainforge_${debv}_"*.deb "trainforge-$2-"*-linux.oci.tar
		for f in "$@"; do [ -f "$f" ] && echo "$f"; done | LC_ALL=C sort | xargs -r sha256sum >SHA256SUMS.tmp &&
			mv SHA256SUMS.tmp SHA256SUMS
	)
}
