#!/bin/sh
# The releases make dist left in build/dist, for both architectures: a
# second build of the same commit in another directory gives the same
# bytes; each tarball's members and binary (static, stripped, of its
# architecture); the CLI and rule-case suites on each release binary, the
# aarch64 one under Debian's qemu-user; install.sh of each from loopback;
# and the two source builds a user may ask for, each from a clean tree:
# the Action's (install: source) and the pre-commit hook's (no release,
# no trainforge on PATH). .ci/run runs it after make dist
# (sh tests/run.sh dist/release). Prints RESULT lines.
# shellcheck disable=SC2015,SC2030,SC2031 # subshells set their own environment
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/dist/lib.sh
. tests/dist/lib.sh
d=$root/build/dist
if ! [ -f "$d/SHA256SUMS" ] || ! [ -f "$d/work/commit" ]; then
	no "release: build/dist has no release (make dist)"
	exit 0
fi
commit=$(cat "$d/work/commit")
version=$(pkg_version "$d/work/src")
when=$(git log -1 --format=%ct "$commit")
tarballs=$(release_tarballs "$d")
[ "$(echo "$tarballs" | wc -l)" = 2 ] && ok release/two-tarballs || no "release/two-tarballs: $tarballs"

# The same commit again, elsewhere (another source directory: the
# prefix map has something to do), gives the same bytes.
if DIST_REV=$commit sh packaging/dist.sh "$t/again" >"$t/again.log" 2>&1; then
	for f in $tarballs; do
		f=${f##*/}
		cmp "$d/$f" "$t/again/$f" && ok "reproducible/$f" || no "reproducible/$f"
	done
	grep '\.tar\.gz$' "$d/SHA256SUMS" | cmp -s - "$t/again/SHA256SUMS" && ok reproducible/sums || no reproducible/sums
else
	no "reproducible: the second build failed"
	tail -20 "$t/again.log"
fi
rm -rf "$t/again"

for tarball in $tarballs; do
	release_parse "$tarball"
	check_tarball "$arch" "$tarball" "$when"
	grep -q "^commit $commit\$" "$t/x-$arch/$rname/share/doc/trainforge/build-info.txt" && ok "$arch/build-info-names-the-commit" ||
		no "$arch/build-info-names-the-commit"
	# The suites that drive the command line, on the release binary.
	if ! can_run "$arch"; then
		skip "$arch/suites: no qemu-user for $arch (sh tools/deps.sh dist installs it)"
		continue
	fi
	runner "$arch" "$t/x-$arch/$rname/bin/trainforge" "$t/tf-$arch"
	for suite in cli cases; do
		TF=$t/tf-$arch/trainforge sh "tests/$suite/run.sh" 2>&1 | sed "s|^RESULT \([a-z]*\) |RESULT \1 $arch/$suite/|"
	done
done

# install.sh of each release from loopback, where it runs.
mkdir -p "$t/www/v$version"
for f in $tarballs "$d/SHA256SUMS"; do ln -s "$f" "$t/www/v$version/"; done
serve "$t/www" && ok serve || { no serve; exit 0; }
for tarball in $tarballs; do
	release_parse "$tarball"
	expect_rc "$arch/install" 0 sh packaging/install.sh --version "$version" --arch "$arch" --dir "$t/inst" --base-url "$url"
	installed=$(cat "$t/out")
	runner "$arch" "$installed" "$t/inst-$arch"
	expect_rc "$arch/installed-runs" 0 "$t/inst-$arch/trainforge" version
	has "$arch/installed-version" "^trainforge $version " "$t/out"
done

# The Action, asked to build from source: its checkout is the commit's
# tree, as the runner downloads it.
act=$t/runner/_actions/acme/trainforge/v$version
mkdir -p "$act" && git archive "$commit" | tar -x -C "$act"
w=$t/workspace
mkdir -p "$w" && cp examples/broken/cluster.yaml "$w/"
run_dir=$w
expect_rc action/source-build 1 python3 "$root/tests/dist/action_run.py" "$act" --runner-temp "$t/rt" \
	--outputs "$t/outputs" --with install=source --with paths=cluster.yaml
run_dir=
has action/source-build-lints '^::error file=cluster.yaml,.*PC2101' "$t/out"
json_check action/source-build-outputs "$t/outputs" "
assert d['outputs']['path'] == '$act/trainforge', d
assert d['outputs']['version'] == '$version', d
"

# The hook with no release to be had and no trainforge on PATH builds one
# in pre-commit's clone.
hooks=$t/hooks
(
	hook_env "$t/home"
	TRAINFORGE_RELEASE_URL=$url/none
	hooks_repo "$hooks" all >"$t/out" 2>&1 || { no "hook/repo"; cat "$t/out"; exit 0; }
	hook hook/source-build-refuses fail examples/broken/cluster.yaml
	has hook/source-build-says 'building trainforge from' "$t/log"
	has hook/source-build-finds '\[PC2101\]' "$t/log"
	built=$(ls "$HOME"/.cache/pre-commit/repo*/trainforge 2>/dev/null)
	[ -x "$built" ] && "$built" version | grep -q "^trainforge $version " && ok hook/source-build-kept ||
		no hook/source-build-kept
)
