# shellcheck shell=sh
# What the release suites share (tests/dist/run.sh in make test, and
# release.sh, deb.sh and image.sh, the release stages of .ci/run): a
# release served from loopback, running a binary of either architecture
# (aarch64 under Debian's qemu-user), and the checks of a tarball, a
# Debian package and an OCI image. Sourced after tests/lib.sh, whose root,
# t, ok and no it uses (ok and no only print: "A && ok || no" is an
# if-then-else); url and version are for the suites.
# shellcheck disable=SC2015,SC2034,SC2154
# shellcheck source=packaging/lib.sh
. "$root/packaging/lib.sh"
version=$(pkg_version "$root")

# serve DIR: an HTTP server on 127.0.0.1 for DIR, its address in $url and
# its log (one line per request) in $t/http.log
serve() {
	: >"$t/http.log"
	python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 >"$t/http.out" 2>>"$t/http.log" &
	pids="$pids $!"
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.* port \([0-9][0-9]*\) .*/\1/p' "$t/http.out")
		[ -n "$port" ] && break
		sleep 0.05
	done
	url=http://127.0.0.1:$port
	[ -n "$port" ]
}
# gets PATTERN: how many requests of the server's log match PATTERN
gets() { grep -c -- "$1" "$t/http.log"; }

# qemu ARCH: Debian's qemu-user for ARCH, static or not
qemu() {
	command -v "qemu-$1-static" || command -v "qemu-$1"
}
# can_run ARCH: a binary for ARCH runs here
can_run() {
	[ "$1" = "$(uname -m)" ] || [ -n "$(qemu "$1")" ]
}
# runner ARCH BINARY DIR: DIR/trainforge, a program that runs BINARY with
# its arguments on this machine (for another architecture, under
# qemu-user; the suites find trainforge by that name)
runner() {
	mkdir -p "$3"
	if [ "$1" = "$(uname -m)" ]; then
		ln -sf "$2" "$3/trainforge"
	else
		printf '#!/bin/sh\nexec %s %s "$@"\n' "$(qemu "$1")" "$2" >"$3/trainforge"
		chmod 755 "$3/trainforge"
	fi
}

# check_binary NAME ARCH BINARY: a release binary: static, stripped, of
# ARCH, without a build id or .comment, and it runs and says its version
check_binary() {
	readelf -hW "$3" >"$t/elf" 2>&1
	case $2 in x86_64) machine='X86-64' ;; aarch64) machine='AArch64' ;; esac
	has "$1/machine" "Machine: *.*$machine" "$t/elf"
	readelf -lW "$3" >"$t/elf" 2>&1
	hasnt "$1/no-interpreter" "program interpreter" "$t/elf"
	readelf -dW "$3" >"$t/elf" 2>&1
	hasnt "$1/no-shared-libraries" "NEEDED" "$t/elf"
	readelf -SW "$3" >"$t/elf" 2>&1
	hasnt "$1/stripped" '\.symtab\|\.debug_' "$t/elf"
	hasnt "$1/no-build-id-or-comment" '\.note\.gnu\.build-id\|\.comment' "$t/elf"
	if can_run "$2"; then
		runner "$2" "$3" "$t/run-$2"
		expect_rc "$1/runs" 0 "$t/run-$2/trainforge" version
		has "$1/version" "^trainforge $version " "$t/out"
	else
		skip "$1/runs: no qemu-user for $2 (sh tools/deps.sh dist installs it)"
	fi
}

# check_tarball NAME TARBALL COMMIT_TIME: a release tarball's members,
# owners, modes and times, and its binary
check_tarball() {
	release_parse "$2"
	LC_ALL=C TZ=UTC0 tar -tvzf "$2" >"$t/list" 2>&1 || { no "$1/lists: $(head -1 "$t/list")"; return; }
	for f in bin/trainforge share/man/man1/trainforge.1 share/bash-completion/completions/trainforge \
		share/doc/trainforge/README.md share/doc/trainforge/CHANGELOG.md share/doc/trainforge/build-info.txt \
		share/doc/trainforge/licenses/glibc.copyright share/doc/trainforge/licenses/libyaml.copyright \
		share/doc/trainforge/licenses/libcyaml.copyright share/doc/trainforge/licenses/pcre2.copyright; do
		grep -q " $rname/$f\$" "$t/list" || { no "$1/holds: no $rname/$f"; return; }
	done
	ok "$1/holds"
	awk '{print $2}' "$t/list" | sort -u >"$t/owners"
	[ "$(cat "$t/owners")" = 0/0 ] && ok "$1/owned-by-0" || no "$1/owned-by-0: $(tr '\n' ' ' <"$t/owners")"
	stamp=$(date -u -d "@$3" '+%Y-%m-%d %H:%M')
	[ "$(awk '{print $4, $5}' "$t/list" | sort -u)" = "$stamp" ] && ok "$1/times-are-the-commit-time" ||
		no "$1/times-are-the-commit-time: not all $stamp"
	grep -q "^-rwxr-xr-x .* $rname/bin/trainforge\$" "$t/list" && ! grep -v "$rname/bin/trainforge\$" "$t/list" |
		grep -q '^-..x' && ok "$1/modes" || no "$1/modes"
	mkdir -p "$t/x-$arch" && tar -xzf "$2" -C "$t/x-$arch"
	check_binary "$1" "$arch" "$t/x-$arch/$rname/bin/trainforge"
}

# same_again NAME SCRIPT TARBALL FILE: packaging/SCRIPT makes FILE's bytes
# again from a copy of TARBALL elsewhere. Its times come from the tarball,
# as in `make deb` and `make image`: the tests' pinned SOURCE_DATE_EPOCH
# (tests/lib.sh) is not the one those were made with.
same_again() {
	mkdir -p "$t/again/$1"
	cp "$3" "$t/again/$1/"
	env -u SOURCE_DATE_EPOCH sh "packaging/$2" "$t/again/$1/${3##*/}" >/dev/null 2>&1 &&
		cmp -s "$4" "$t/again/$1/${4##*/}" &&
		ok "$1/reproducible" || no "$1/reproducible"
}

# dpkg_root DIR ARCH: an empty system for dpkg --root, which takes ARCH
dpkg_root() {
	rm -rf "$1"
	mkdir -p "$1/var/lib/dpkg/info" "$1/var/lib/dpkg/updates"
	: >"$1/var/lib/dpkg/status"
	[ "$2" = "$(dpkg --print-architecture)" ] || dpkg --root="$1" --add-architecture "$2"
}

# check_deb NAME DEB TARBALL: the package's fields and files; it installs
# into an empty root with dpkg, where its binary (the tarball's) runs and
# lints, and it purges leaving nothing
check_deb() {
	release_parse "$3"
	debarch=$(arch_debian "$arch")
	dpkg-deb -f "$2" Package Version Architecture Depends Built-Using >"$t/fields" 2>&1
	has "$1/package" "^Package: trainforge$" "$t/fields"
	has "$1/version" "^Version: $(deb_version "$version")$" "$t/fields"
	has "$1/architecture" "^Architecture: $debarch$" "$t/fields"
	hasnt "$1/depends-on-nothing" "^Depends:" "$t/fields"
	has "$1/built-using-glibc" "^Built-Using: .*glibc (= " "$t/fields"
	r=$t/root-$debarch
	dpkg_root "$r" "$debarch"
	expect_rc "$1/dpkg-install" 0 dpkg --root="$r" -i "$2"
	dpkg --root="$r" -s trainforge 2>&1 | grep -q '^Status: install ok installed$' && ok "$1/installed" ||
		no "$1/installed"
	for f in usr/bin/trainforge usr/share/man/man1/trainforge.1.gz usr/share/bash-completion/completions/trainforge \
		usr/share/doc/trainforge/copyright usr/share/doc/trainforge/changelog.gz usr/share/doc/trainforge/CHANGELOG.md.gz \
		usr/share/lintian/overrides/trainforge; do
		[ -f "$r/$f" ] || { no "$1/files: no /$f"; break; }
	done && ok "$1/files"
	tar -xzOf "$3" "$rname/bin/trainforge" | cmp -s - "$r/usr/bin/trainforge" && ok "$1/the-tarball-binary" ||
		no "$1/the-tarball-binary"
	gzip -dc "$r/usr/share/man/man1/trainforge.1.gz" | grep -q '^\.TH TRAINFORGE 1' && ok "$1/man-page" || no "$1/man-page"
	grep -q 'libyaml' "$r/usr/share/doc/trainforge/copyright" && grep -q 'PCRE2' "$r/usr/share/doc/trainforge/copyright" &&
		ok "$1/copyright-has-the-notices" || no "$1/copyright-has-the-notices"
	if can_run "$arch"; then
		runner "$arch" "$r/usr/bin/trainforge" "$t/run-deb-$arch"
		expect_rc "$1/installed-binary-lints" 1 "$t/run-deb-$arch/trainforge" lint --format concise "$root/examples/broken/cluster.yaml"
		has "$1/installed-binary-finds" '\[PC2101\]$' "$t/out"
	else
		skip "$1/installed-binary-lints: no qemu-user for $arch"
	fi
	expect_rc "$1/dpkg-purge" 0 dpkg --root="$r" --purge trainforge
	[ -z "$(find "$r/usr" -type f 2>/dev/null)" ] && ok "$1/purge-leaves-nothing" || no "$1/purge-leaves-nothing"
}

# check_image NAME OCI TARBALL: the image's configuration, and its
# binary run from the unpacked root (chroot; for aarch64 elsewhere,
# qemu-user copied in): it lints a file in its working directory
check_image() {
	release_parse "$3"
	ociarch=$(arch_debian "$arch")
	i=$t/image-$ociarch
	rm -rf "$i" && mkdir -p "$i/layout" && tar -xf "$2" -C "$i/layout" || { no "$1/unpacks"; return; }
	umoci unpack --image "$i/layout:$version" "$i/bundle" >"$t/out" 2>&1 && ok "$1/umoci-unpack" ||
		{ no "$1/umoci-unpack"; cat "$t/out"; return; }
	py_check "$1/runtime-config" "$i/bundle/config.json" "$ociarch" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
p = c["process"]
assert p["args"] == ["/usr/bin/trainforge"], p["args"]
assert p["cwd"] == "/work", p["cwd"]
assert "PATH=/usr/bin" in p["env"], p["env"]
PY
	blob=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["digest"].split(":")[1])' "$i/layout/index.json")
	json_check "$1/image-config" "$i/layout/blobs/sha256/$blob" "
cfg = json.load(open('$i/layout/blobs/sha256/' + d['config']['digest'].split(':')[1]))
assert cfg['architecture'] == '$ociarch' and cfg['os'] == 'linux', cfg
assert cfg['config']['Entrypoint'] == ['/usr/bin/trainforge'], cfg['config']
assert cfg['config']['WorkingDir'] == '/work', cfg['config']
assert cfg['config']['Labels']['org.opencontainers.image.version'] == '$version', cfg['config']
assert len(d['layers']) == 1, d['layers']
"
	rootfs=$i/bundle/rootfs
	tar -xzOf "$3" "$rname/bin/trainforge" | cmp -s - "$rootfs/usr/bin/trainforge" && ok "$1/the-tarball-binary" ||
		no "$1/the-tarball-binary"
	[ "$(find "$rootfs" -type f | sed "s|^$rootfs||" | grep -v '^/usr/share/doc/trainforge/[a-z0-9]*\.copyright$')" = /usr/bin/trainforge ] &&
		ok "$1/holds-the-binary-alone" || no "$1/holds-the-binary-alone"
	cp "$root/examples/broken/cluster.yaml" "$rootfs/work/cluster.yaml"
	check=$1
	set --
	if [ "$arch" != "$(uname -m)" ]; then
		if [ -z "$(qemu "$arch")" ]; then skip "$check/runs-in-its-root: no qemu-user for $arch"; return; fi
		# qemu-user-static's program runs in a root that has nothing else
		cp "$(qemu "$arch")" "$rootfs/qemu"
		set -- /qemu
	fi
	# chroot leaves the working directory at /, as a runtime would not
	chroot=$(command -v chroot)
	(cd "$rootfs/work" && env -i PATH=/usr/bin "$chroot" "$rootfs" "$@" /usr/bin/trainforge lint --format concise \
		--shellcheck off /work/cluster.yaml) >"$t/out" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -q '^/work/cluster.yaml:.*\[PC2101\]$' "$t/out" && ok "$check/runs-in-its-root" ||
		{ no "$check/runs-in-its-root: exit $rc"; head -5 "$t/out"; }
}

# hook NAME WANT FILE...: a commit of FILEs in a new repository whose
# .pre-commit-config.yaml pins the hooks of the repository $hooks to
# v$version; the output is in $t/log, the repository in $r
hook_repo_n=0
hook() {
	n=$1 want=$2
	shift 2
	hook_repo_n=$((hook_repo_n + 1))
	r=$t/hr$hook_repo_n
	git init -q "$r"
	cat >"$r/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $hooks
    rev: v$version
    hooks:
      - id: trainforge
      - id: trainforge-update-check
EOF
	printf 'shellcheck: off\n' >"$r/.trainforge.yaml"
	for f in "$@"; do cp "$f" "$r/"; done
	(cd "$r" && git add -A && pre-commit install >/dev/null && git commit -qm "$n") >"$t/log" 2>&1
	rc=$?
	if { [ "$want" = pass ] && [ "$rc" = 0 ]; } || { [ "$want" = fail ] && [ "$rc" != 0 ]; }; then
		ok "$n"
	else
		no "$n: commit exited $rc, expected the hooks to $want"
		sed 's/^/    /' "$t/log" | tail -20
	fi
}
# hook_env HOME: the environment (for a subshell) of a new user with that
# HOME, whose PATH has no trainforge, and whose releases are on loopback
hook_env() {
	clean_path=
	for d in $(echo "$PATH" | tr ':' ' '); do
		[ -x "$d/trainforge" ] || clean_path=$clean_path${clean_path:+:}$d
	done
	HOME=$1 PATH=$clean_path GIT_CONFIG_NOSYSTEM=1 TRAINFORGE_RELEASE_URL=$url
	export HOME PATH GIT_CONFIG_NOSYSTEM TRAINFORGE_RELEASE_URL
	unset PRE_COMMIT_HOME XDG_CACHE_HOME XDG_CONFIG_HOME GIT_CONFIG_GLOBAL TRAINFORGE_HOOK_BINARY
	mkdir -p "$HOME"
	git config --global user.name trainforge-test
	git config --global user.email test@example.invalid
	git config --global init.defaultBranch main
}
