#!/bin/sh
# make deb: a Debian package of each release tarball, made with dpkg-deb
# from the tarball's files (docs/release.md).
#
#   sh packaging/deb.sh TARBALL|DIR...
#
# A directory stands for the tarballs its SHA256SUMS lists. Each package,
# trainforge_VERSION_ARCH.deb, is written beside its tarball, and the
# SHA256SUMS there is written again. The package holds /usr/bin/trainforge,
# the man page, the bash, zsh and fish completions, and in /usr/share/doc/trainforge the
# copyright file (with the notices of the libraries linked in), the Debian
# changelog and the project's CHANGELOG.md, and lintian's overrides (each
# tag explained in packaging/debian/lintian-overrides). The binary is static: the
# package depends on nothing. Its times are SOURCE_DATE_EPOCH, else the
# tarball's, so the same tarball gives the same package.
# DEB_MAINTAINER sets the Maintainer field.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/lib.sh
. "$here/lib.sh"
maintainer=${DEB_MAINTAINER:-trainforge developers <trainforge@users.noreply.github.com>}

deb_build() {
	debarch=$(arch_debian "$arch") || { echo "trainforge: $tarball: no Debian architecture for '$arch'" >&2; exit 2; }
	debv=$(deb_version "$version")
	root=$work/root
	doc=$root/usr/share/doc/trainforge
	mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" \
		"$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
		"$root/usr/share/fish/vendor_completions.d" "$root/usr/share/lintian/overrides" "$doc"
	cp "$here/debian/lintian-overrides" "$root/usr/share/lintian/overrides/trainforge"
	cp "$from/bin/trainforge" "$root/usr/bin/trainforge"
	gzip -9n <"$from/share/man/man1/trainforge.1" >"$root/usr/share/man/man1/trainforge.1.gz"
	cp "$from/share/bash-completion/completions/trainforge" "$root/usr/share/bash-completion/completions/"
	cp "$from/share/zsh/site-functions/_trainforge" "$root/usr/share/zsh/vendor-completions/"
	cp "$from/share/fish/vendor_completions.d/trainforge.fish" "$root/usr/share/fish/vendor_completions.d/"
	gzip -9n <"$from/share/doc/trainforge/CHANGELOG.md" >"$doc/CHANGELOG.md.gz"
	{
		cat "$here/debian/copyright"
		for f in "$from"/share/doc/trainforge/licenses/*.copyright; do
			printf '\n%s\n\n' "-- $(basename "$f" .copyright), linked into /usr/bin/trainforge --"
			cat "$f"
		done
	} >"$doc/copyright"
	{
		echo "trainforge ($debv) unstable; urgency=medium"
		echo
		echo "  * Release $version; /usr/share/doc/trainforge/CHANGELOG.md.gz says what changed."
		echo
		echo " -- $maintainer  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
	} | gzip -9n >"$doc/changelog.gz"

	# Built-Using names the source packages of the libraries linked in
	# (Debian Policy 7.8), from the tarball's build-info.txt.
	built_using=$(sed -n '/^linked in:/,$s/.*(source \([^ ]*\) \([^)]*\))$/\1 (= \2)/p' "$from/share/doc/trainforge/build-info.txt" |
		LC_ALL=C sort -u | paste -sd, - | sed 's/,/, /g')
	size=$(du -sk --apparent-size "$root/usr" | cut -f1)
	sed -e "s/@VERSION@/$debv/" -e "s/@ARCH@/$debarch/" -e "s|@MAINTAINER@|$maintainer|" \
		-e "s/@SIZE@/$size/" -e "s/@BUILT_USING@/$built_using/" "$here/debian/control" >"$root/DEBIAN/control"
	(cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"

	find "$root" -type d -exec chmod 755 {} +
	find "$root" -type f -exec chmod 644 {} +
	chmod 755 "$root/usr/bin/trainforge"
	find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	deb=$(dirname "$tarball")/trainforge_${debv}_$debarch.deb
	dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
	echo "deb: $deb"
}

[ $# -gt 0 ] || { echo "usage: sh packaging/deb.sh TARBALL|DIR..." >&2; exit 2; }
release_each deb_build "$@"
