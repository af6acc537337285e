#!/bin/sh
# Installs a trainforge release binary: downloads the release tarball for
# this machine (or --arch) and the release's SHA256SUMS, checks the
# tarball's SHA-256 against it (and against --sha256 when given), unpacks
# it into DIR and prints the path of the binary. The pre-commit hooks
# (packaging/hook.sh) and the GitHub Action (action.yml) install with it;
# docs/release.md describes the release it reads.
#
#   sh packaging/install.sh --version V [--dir DIR] [--arch x86_64|aarch64]
#       [--base-url URL | --repo-url URL] [--sha256 HEX] [--dry-run]
#
# The files are BASE/vV/trainforge-V-ARCH-linux.tar.gz and
# BASE/vV/SHA256SUMS. BASE is --base-url, else $TRAINFORGE_RELEASE_URL,
# else the releases of the GitHub repository that --repo-url names
# (https://github.com/OWNER/REPO/releases/download). It is https:, file:,
# or http: to this machine alone, since over http the checksums would come
# by the same unchecked road as the tarball. DIR (default
# ~/.cache/trainforge/releases) keeps each release it installed:
# an installed one is not downloaded again. Needs curl or wget, tar,
# gzip and sha256sum (or shasum). --dry-run prints what it would fetch.
#
# Exit status: 0 installed; 1 no release to be had here (no URL, an
# architecture or system without releases, a download that failed: the
# hooks then try other ways); 2 a bad argument; 3 a download that is not
# the release (a checksum that differs, a tarball without the binary),
# which nothing should fall back from silently.
set -u
version='' dir='' arch='' base=${TRAINFORGE_RELEASE_URL:-} repo='' pin='' dry=''

say() { echo "trainforge install: $*" >&2; }
usage() {
	say "usage: install.sh --version V [--dir DIR] [--arch ARCH] [--base-url URL | --repo-url URL] [--sha256 HEX] [--dry-run]"
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--version | --dir | --arch | --base-url | --repo-url | --sha256)
		[ $# -ge 2 ] || usage
		case $1 in
		--version) version=$2 ;;
		--dir) dir=$2 ;;
		--arch) arch=$2 ;;
		--base-url) base=$2 ;;
		--repo-url) repo=$2 ;;
		--sha256) pin=$2 ;;
		esac
		shift 2 ;;
	--dry-run) dry=1; shift ;;
	*) usage ;;
	esac
done
[ -n "$version" ] || usage
dir=${dir:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/trainforge/releases}

# The release names the architecture as the kernel does on Linux.
if [ -z "$arch" ]; then
	[ "$(uname -s)" = Linux ] || { say "releases are built for Linux, not $(uname -s)"; exit 1; }
	arch=$(uname -m)
fi
case $arch in
x86_64 | amd64) arch=x86_64 ;;
aarch64 | arm64) arch=aarch64 ;;
*) say "no release is built for $arch (x86_64 and aarch64 are)"; exit 1 ;;
esac

name=trainforge-$version-$arch-linux
bin=$dir/$name/bin/trainforge
if [ -z "$dry" ] && [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

# A GitHub repository's address, in the forms git accepts, gives its
# releases' address.
if [ -z "$base" ] && [ -n "$repo" ]; then
	r=${repo%/}
	base=$(echo "${r%.git}" | sed -n -E \
		's#^(https://|ssh://git@|git@)github\.com[:/]([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)$#https://github.com/\2/\3/releases/download#p')
	[ -n "$base" ] || { say "no release address for $repo: set TRAINFORGE_RELEASE_URL"; exit 1; }
fi
[ -n "$base" ] || { say "no release address: set TRAINFORGE_RELEASE_URL (or give --base-url or --repo-url)"; exit 1; }
case $base in
https://* | file://*) ;;
http://127.0.0.1[:/]* | http://localhost[:/]* | http://\[::1\][:/]*) ;;
*) say "refusing $base: the release address must be https: (http: only to this machine)"; exit 2 ;;
esac
base=${base%/}

url=$base/v$version/$name.tar.gz
sums=$base/v$version/SHA256SUMS
if [ -n "$dry" ]; then
	printf '%s\n%s\n%s\n' "$url" "$sums" "$bin"
	exit 0
fi

fetch() { # URL FILE
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 1 --connect-timeout 10 --proto-redir =https -o "$2" "$1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -T 10 -t 2 -O "$2" "$1"
	else
		say "neither curl nor wget is installed"
		return 1
	fi
}
sha256() { # FILE: its SHA-256 in hex
	if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}

mkdir -p "$dir" || exit 1
tmp=$(mktemp -d "$dir/.install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
say "downloading $url"
fetch "$sums" "$tmp/SHA256SUMS" || { say "could not download $sums"; exit 1; }
fetch "$url" "$tmp/$name.tar.gz" || { say "could not download $url"; exit 1; }
want=$(sed -n "s/^\([0-9a-f]\{64\}\)  $name\.tar\.gz\$/\1/p" "$tmp/SHA256SUMS")
[ -n "$want" ] || { say "$sums lists no $name.tar.gz"; exit 3; }
got=$(sha256 "$tmp/$name.tar.gz")
if [ "$got" != "$want" ]; then
	say "$name.tar.gz has SHA-256 $got, but SHA256SUMS says $want: not installed"
	exit 3
fi
if [ -n "$pin" ] && [ "$got" != "$pin" ]; then
	say "$name.tar.gz has SHA-256 $got, not the $pin asked for: not installed"
	exit 3
fi
tar -xzf "$tmp/$name.tar.gz" -C "$tmp" || { say "could not unpack $name.tar.gz"; exit 3; }
[ -f "$tmp/$name/bin/trainforge" ] || { say "$name.tar.gz holds no $name/bin/trainforge"; exit 3; }
# The rename makes it whole at once; a second installer at the same time
# keeps the first one's copy.
mv "$tmp/$name" "$dir/$name" 2>/dev/null || [ -x "$bin" ] || { say "could not install into $dir"; exit 1; }
say "installed $name (SHA-256 $got) in $dir"
echo "$bin"
