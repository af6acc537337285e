#!/bin/sh
# make dist: the release tarballs of one commit, for x86_64 and aarch64,
# and SHA256SUMS (docs/release.md).
#
#   sh packaging/dist.sh [OUT]                  (default build/dist)
#   sh packaging/dist.sh --binary PATH [OUT]
#
# The commit is HEAD, which must have no uncommitted change, or the one
# DIST_REV names. Its tree is exported with git archive into OUT/work/src
# and built there from nothing; aarch64 with Debian's cross compiler and
# the arm64 libraries of multiarch (sh tools/deps.sh dist installs them).
# Each tarball holds, as make install lays them out, the stripped static
# binary, the man page, the bash, zsh and fish completions, and in share/doc/trainforge
# README.md, CHANGELOG.md, licenses/ (the notices of the libraries linked
# in) and build-info.txt (the commit and the Debian packages that made
# the binary). --binary packs a binary built otherwise
# for this machine (a `make`) with the working tree's files instead: a
# release to try the installers with, not one to publish.
#
# Two runs on the same commit with the same packages give the same bytes:
# SOURCE_DATE_EPOCH is the commit's time (gcc's __DATE__ reads it),
# -ffile-prefix-map drops the directory of the export, the linker writes
# no build id, ar is deterministic (Debian's default), and tar_reproducible
# fixes order, owners, modes and times. tests/dist/release.sh builds a
# second time elsewhere and compares. A commit already built in OUT is not
# built again.
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=packaging/lib.sh
. packaging/lib.sh
binary=
if [ "${1:-}" = --binary ]; then
	binary=$(readlink -f "$2")
	shift 2
fi
out=${1:-build/dist}
arches=${DIST_ARCHES:-x86_64 aarch64}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$out/work

# owners FILE...: the Debian package that installed each FILE (a program
# is looked up on PATH first), one a line, in order, from one dpkg -S
owners() {
	for f in "$@"; do readlink -f "$(command -v "$f" || echo "$f")"; done >"$work/files"
	xargs dpkg -S <"$work/files" 2>/dev/null | sed -n 's/^\([^ ,]*\)[^/]*: \(\/.*\)$/\2 \1/p' >"$work/owners"
	while read -r f; do
		p=$(awk -v f="$f" '$1 == f { print $2; exit }' "$work/owners")
		[ -n "$p" ] || { echo "trainforge: no Debian package holds $f" >&2; return 1; }
		echo "$p"
	done <"$work/files"
}
# described PACKAGE...: each package, its version and its source package
described() {
	dpkg-query -W -f='${binary:Package} ${Version} (source ${source:Package} ${source:Version})\n' "$@"
}
# tools ARCH: sets cc and strip, the compiler and strip for ARCH
tools() {
	if [ "$(uname -m)" = "$1" ]; then cc=gcc strip=strip; else cc=$1-linux-gnu-gcc strip=$1-linux-gnu-strip; fi
	command -v "$cc" >/dev/null ||
		{ echo "trainforge: no $cc to build for $1 (sh tools/deps.sh dist installs it)" >&2; exit 2; }
}

# compile ARCH: builds src's trainforge for ARCH into src/build/ARCH
compile() {
	log=$work/$1.log
	echo "dist: building $(release_name "$version" "$1") from $commit"
	# HOSTCC builds the programs that run during the build.
	if ! make -C "$src" -j"$(nproc)" BUILD="build/$1" CC="$cc -ffile-prefix-map=$src=." HOSTCC=gcc \
		LDFLAGS=-Wl,--build-id=none "build/$1/trainforge" >"$log" 2>&1; then
		tail -30 "$log" >&2
		echo "trainforge: the $1 build failed (all of it in $log)" >&2
		exit 1
	fi
}

# pack ARCH BINARY: OUT's tarball of BINARY for ARCH, with src's files
pack() {
	arch=$1 bin=$2
	# Without the static libraries the Makefile links dynamically, and the
	# binary would need libraries a release cannot bring.
	if readelf -lW "$bin" | grep -q 'program interpreter' || readelf -dW "$bin" | grep -q NEEDED; then
		echo "trainforge: the $arch binary is not static: are the static libraries and libc.a for $arch installed? (sh tools/deps.sh dist)" >&2
		exit 1
	fi
	name=$(release_name "$version" "$arch")
	stage=$work/stage/$name
	rm -rf "$work/stage"
	doc=$stage/share/doc/trainforge
	mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
		"$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d" "$doc/licenses"
	"$strip" --strip-all --remove-section=.comment --remove-section=.note.gnu.build-id -o "$stage/bin/trainforge" "$bin"
	cp "$src/docs/trainforge.1" "$stage/share/man/man1/trainforge.1"
	cp "$src/completions/trainforge.bash" "$stage/share/bash-completion/completions/trainforge"
	cp "$src/completions/_trainforge" "$stage/share/zsh/site-functions/_trainforge"
	cp "$src/completions/trainforge.fish" "$stage/share/fish/vendor_completions.d/trainforge.fish"
	cp "$src/README.md" "$src/CHANGELOG.md" "$doc/"
	# The libraries linked in, whose licenses ask that their notices go
	# with the binary: each one's copyright file as Debian ships it.
	# shellcheck disable=SC2046 # one path a word
	libs=$(owners $(for a in libc.a libyaml.a libcyaml.a libpcre2-8.a; do $cc -print-file-name=$a; done)) || exit 1
	for p in $libs; do
		cp "/usr/share/doc/${p%%:*}/copyright" "$doc/licenses/$(dpkg-query -W -f='${source:Package}' "$p").copyright"
	done
	tools=$(owners "$cc" "$($cc -print-prog-name=cc1)" "$($cc -print-prog-name=as)" "$($cc -print-prog-name=ld)") || exit 1
	{
		echo "trainforge $version $arch"
		echo "commit $commit"
		echo "SOURCE_DATE_EPOCH $SOURCE_DATE_EPOCH"
		echo "built with:"
		# shellcheck disable=SC2046,SC2086 # one package a word
		described $(echo "$tools" | LC_ALL=C sort -u) | sed 's/^/  /'
		echo "linked in:"
		# shellcheck disable=SC2086
		described $libs | sed 's/^/  /'
	} >"$doc/build-info.txt"
	find "$stage" -type d -exec chmod 755 {} +
	find "$stage" -type f -exec chmod 644 {} +
	chmod 755 "$stage/bin/trainforge"
	tar_reproducible "$work/stage" "$name" >"$out/$name.tar"
	gzip -9nf "$out/$name.tar"
}

if [ -n "$binary" ]; then
	src=$(pwd)
	commit="$(git rev-parse HEAD) with the working tree's changes"
	SOURCE_DATE_EPOCH=$(git log -1 --format=%ct HEAD)
	export SOURCE_DATE_EPOCH
	version=$(pkg_version "$src")
	arch=$(uname -m)
	work=$(mktemp -d)
	tools "$arch"
	pack "$arch" "$binary"
	rm -rf "$work"
	sums_write "$out" "$version"
	exit 0
fi

if [ -z "${DIST_REV:-}" ] && [ -n "$(git status --porcelain)" ]; then
	echo "trainforge: make dist builds a commit, and the working tree has changes:" >&2
	git status --short | head -10 >&2
	echo "commit them, or name a commit: make dist DIST_REV=HEAD" >&2
	exit 2
fi
# The build below is a make of its own, whatever make runs this.
unset MAKEFLAGS MFLAGS MAKELEVEL
commit=$(git rev-parse --verify "${DIST_REV:-HEAD}^{commit}")
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct "$commit")
export SOURCE_DATE_EPOCH
src=$work/src

# A new commit replaces everything built from another one.
if [ "$(cat "$work/commit" 2>/dev/null)" != "$commit" ]; then
	rm -rf "$work"
	mkdir -p "$src"
	git archive "$commit" | tar -x -C "$src"
	echo "$commit" >"$work/commit"
fi
version=$(pkg_version "$src")
[ -n "$version" ] || { echo "trainforge: no VERSION in the Makefile of $commit" >&2; exit 2; }

# Files of this version from an earlier commit go; those of other
# versions stay, outside SHA256SUMS.
for arch in $arches; do
	name=$(release_name "$version" "$arch")
	if [ "$(cat "$work/$arch.done" 2>/dev/null)" = "$commit" ] && [ -f "$out/$name.tar.gz" ]; then
		echo "dist: $name.tar.gz is built from $commit"
		continue
	fi
	rm -f "$out/trainforge-$version-"*.oci.tar "$out/trainforge_$(deb_version "$version")_"*.deb
	tools "$arch"
	compile "$arch"
	pack "$arch" "$src/build/$arch/trainforge"
	echo "$commit" >"$work/$arch.done"
done
sums_write "$out" "$version"
echo "dist: $out/SHA256SUMS"
sed 's/^/  /' "$out/SHA256SUMS"
