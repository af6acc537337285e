#!/bin/sh
# The ways to get trainforge without compiling, on a release made from the
# built binary (packaging/dist.sh --binary) and served from 127.0.0.1:
# packaging/install.sh (checksums, a pinned SHA-256, the address rules,
# curl and wget), the Debian package (make deb's script; dpkg --root), the
# OCI image (make image's; umoci, chroot), the GitHub Action (action.yml's
# steps as the runner runs them, tests/dist/action_run.py) and the
# pre-commit hooks that install themselves (Debian's pre-commit, a clean
# HOME, no trainforge on PATH). Nothing reaches beyond loopback: where a
# default address on github.com is checked, the proxy is a closed port of
# 127.0.0.1. The release stages of .ci/run check the real releases of
# both architectures (release.sh, deb.sh, image.sh). Prints RESULT lines.
# shellcheck disable=SC2015,SC2030,SC2031 # subshells set their own environment
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=tests/dist/lib.sh
. tests/dist/lib.sh
tf_built dist || exit 0

# The version scheme (docs/release.md): the CHANGELOG has a section for
# the Makefile's version (Unreleased for a -dev one), and a release tag on
# HEAD names it.
case $version in
*-dev) heading="## Unreleased" ;;
*) heading="## $version - " ;;
esac
grep -q "^$heading" CHANGELOG.md && ok version/changelog || no "version/changelog: no '$heading' in CHANGELOG.md"
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-dev)?$' && ok version/form || no "version/form: $version"
tags=$(git tag --points-at HEAD 2>/dev/null | grep '^v[0-9]*\.' || true)
[ -z "$tags" ] || [ "$tags" = "v$version" ] && ok version/tag || no "version/tag: HEAD is tagged $tags, the Makefile says $version"

# A static binary to release: the one under test, or the plain build's
# (SAN and VALGRIND builds link dynamically).
bin=$TF
readelf -dW "$bin" 2>/dev/null | grep -q NEEDED && bin=$root/build/rel/trainforge
if ! [ -x "$bin" ] || readelf -dW "$bin" 2>/dev/null | grep -q NEEDED; then
	skip "dist: no static build to release (run make)"
	exit 0
fi
arch=$(uname -m)
rname=$(release_name "$version" "$arch")
www=$t/www
rel=$www/v$version
sh packaging/dist.sh --binary "$bin" "$rel" >"$t/out" 2>&1 && ok release/packs || { no release/packs; cat "$t/out"; exit 0; }
tarball=$rel/$rname.tar.gz
check_tarball release "$tarball" "$(git log -1 --format=%ct HEAD)"
(cd "$rel" && sha256sum -c --quiet SHA256SUMS) >"$t/out" 2>&1 && ok release/sums || no release/sums
for n in deb image; do
	sh "packaging/$n.sh" "$rel" >"$t/out" 2>&1 && ok "release/$n" || { no "release/$n"; cat "$t/out"; }
done
deb=$rel/trainforge_$(deb_version "$version")_$(arch_debian "$arch").deb
check_deb deb "$deb" "$tarball"
check_image image "$rel/$rname.oci.tar" "$tarball"
# The Containerfile's image runs as make image's does.
py_check image/containerfile-agrees "$root/Containerfile" "$t/image-$(arch_debian "$arch")/layout" <<'PY'
import json, re, sys
text = re.sub(r"\\\n", " ", open(sys.argv[1]).read())
stage = re.split(r"(?m)^FROM ", text)[-1]
assert stage.startswith("scratch"), "the last stage is not FROM scratch"
got = {}
for line in stage.splitlines():
    word, _, rest = line.partition(" ")
    if word == "ENTRYPOINT":
        got["Entrypoint"] = json.loads(rest)
    elif word == "WORKDIR":
        got["WorkingDir"] = rest.strip()
    elif word == "ENV":
        got["Env"] = [rest.strip()]
layout = sys.argv[2]
blob = lambda digest: json.load(open(f"{layout}/blobs/sha256/{digest.split(':')[1]}"))
manifest = blob(json.load(open(f"{layout}/index.json"))["manifests"][0]["digest"])
config = blob(manifest["config"]["digest"])["config"]
want = {k: config[k] for k in ("Entrypoint", "WorkingDir", "Env")}
assert got == want, (got, want)
PY
[ "$(cut -d' ' -f3 "$rel/SHA256SUMS" | tr '\n' ' ')" = "$rname.oci.tar $rname.tar.gz ${deb##*/} " ] &&
	(cd "$rel" && sha256sum -c --quiet SHA256SUMS) && ok release/sums-of-all || no release/sums-of-all
serve "$www" && ok serve || { no serve; exit 0; }

# install.sh
inst() { expect_rc "$@"; }
inst install/installs 0 sh packaging/install.sh --version "$version" --dir "$t/i" --base-url "$url"
got=$(cat "$t/out")
[ "$got" = "$t/i/$rname/bin/trainforge" ] && "$got" version | grep -q "^trainforge $version " &&
	ok install/runs || no "install/runs: '$got'"
[ "$(gets "GET /v$version/$rname.tar.gz")" = 1 ] && ok install/one-download || no install/one-download
inst install/again 0 sh packaging/install.sh --version "$version" --dir "$t/i" --base-url "$url"
[ "$(gets "GET /v$version/$rname.tar.gz")" = 1 ] && ok install/kept || no install/kept
inst install/pinned 0 sh packaging/install.sh --version "$version" --dir "$t/i2" --base-url "$url/" \
	--sha256 "$(sha256sum "$tarball" | cut -d' ' -f1)"
inst install/pin-differs 3 sh packaging/install.sh --version "$version" --dir "$t/i3" --base-url "$url" --sha256 "$(printf '%064d' 0)"
has install/pin-differs-says "not the 0000" "$t/err"
[ ! -e "$t/i3/$rname" ] && ok install/pin-differs-installs-nothing || no install/pin-differs-installs-nothing
# a tarball that is not the one SHA256SUMS lists
mkdir -p "$www/bad/v$version"
cp "$rel/SHA256SUMS" "$www/bad/v$version/"
{ cat "$tarball"; printf x; } >"$www/bad/v$version/$rname.tar.gz"
inst install/checksum-differs 3 sh packaging/install.sh --version "$version" --dir "$t/i4" --base-url "$url/bad"
has install/checksum-differs-says "but SHA256SUMS says" "$t/err"
[ -z "$(ls -A "$t/i4")" ] && ok install/checksum-differs-installs-nothing || no install/checksum-differs-installs-nothing
inst install/no-release 1 sh packaging/install.sh --version 9.9.9 --dir "$t/i5" --base-url "$url"
inst install/no-such-arch 1 sh packaging/install.sh --version "$version" --dir "$t/i5" --base-url "$url" --arch riscv64
inst install/http-elsewhere-refused 2 sh packaging/install.sh --version "$version" --base-url http://example.invalid/r
inst install/no-address 1 env -u TRAINFORGE_RELEASE_URL sh packaging/install.sh --version "$version" --repo-url /srv/trainforge.git
inst install/aarch64 0 sh packaging/install.sh --version "$version" --arch arm64 --base-url "$url" --dry-run
has install/aarch64-url "/v$version/trainforge-$version-aarch64-linux.tar.gz$" "$t/out"
for repo in https://github.com/acme/trainforge https://github.com/acme/trainforge.git git@github.com:acme/trainforge.git \
	ssh://git@github.com/acme/trainforge/; do
	env -u TRAINFORGE_RELEASE_URL sh packaging/install.sh --version "$version" --repo-url "$repo" --dry-run >"$t/out" 2>&1
	grep -qx "https://github.com/acme/trainforge/releases/download/v$version/SHA256SUMS" "$t/out" || { no "install/repo-url: $repo"; cat "$t/out"; }
done
ok install/repo-urls
# with wget alone: a PATH of the commands install.sh uses, curl left out
if have wget; then
	mkdir "$t/nocurl"
	for c in sh uname mkdir mktemp rm mv tar gzip sha256sum sed cut cat wget; do ln -s "$(command -v "$c")" "$t/nocurl/$c"; done
	inst install/wget 0 env PATH="$t/nocurl" sh packaging/install.sh --version "$version" --dir "$t/i6" --base-url "$url"
else
	skip "install/wget: wget is not installed"
fi

# The Action, as the runner runs it: kept where the runner keeps actions
# (_actions/OWNER/REPO/REF), on a pull request that changes the head node.
act=$t/runner/_actions/acme/trainforge/v$version
mkdir -p "$act" && cp -r action.yml Makefile packaging "$act/"
w=$t/workspace
git init -q "$w" && git -C "$w" config user.name t && git -C "$w" config user.email t@example.invalid
cp examples/clusters/trn2-48xlarge.yaml "$w/cluster.yaml"
git -C "$w" add . && git -C "$w" commit -qm base
base=$(git -C "$w" rev-parse HEAD)
sed 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' examples/clusters/trn2-48xlarge.yaml >"$w/cluster.yaml"
git -C "$w" commit -qam change
action_n=0
action() { # NAME WANT ARGS...: action_run.py in the workspace $w
	action_n=$((action_n + 1))
	run_dir=$w
	n=$1 want=$2
	shift 2
	expect_rc "$n" "$want" python3 "$root/tests/dist/action_run.py" "$act" --runner-temp "$t/runner-temp-$action_n" \
		--outputs "$t/outputs" "$@"
	run_dir=
}
action action/annotations 1 --base-sha "$base" --with release-url="$url"
has action/annotation-of-the-change '^::error file=cluster.yaml,line=[0-9]*,.*PC5001' "$t/out"
json_check action/outputs "$t/outputs" "
o = d['outputs']
assert o['version'] == '$version', o
assert o['path'].endswith('/tool-cache/trainforge/$rname/bin/trainforge'), o
assert o['exit-code'] == '1', o
assert d['path'] == [o['path'].rsplit('/', 1)[0]], d['path']
"
action action/sarif 0 --base-sha "$base" --with release-url="$url" --with format=sarif --with fail-level=never \
	--with sarif-file=out.sarif
json_check action/sarif-file "$w/out.sarif" "
assert d['version'] == '2.1.0'
rules = {r['ruleId'] for r in d['runs'][0]['results']}
assert 'PC5001' in rules, rules
"
action action/no-base 0 --with release-url="$url"
hasnt action/no-base-no-review 'PC5001' "$t/out"
# a checkout of one commit: the base is fetched
git clone -q --depth 1 "file://$w" "$t/shallow" 2>/dev/null
w=$t/shallow
action action/fetches-the-base 1 --base-sha "$base" --with release-url="$url" --with paths=cluster.yaml
has action/fetched-base-reviewed 'PC5001' "$t/out"
action action/sha256-differs 1 --with release-url="$url" --with sha256="$(printf '%064d' 0)"
json_check action/sha256-differs-stops "$t/outputs" "assert d['steps'] == {'install': 1} and d['path'] == [], d"
# the default address: the action's repository on github.com, through a
# proxy that is a closed port here
HTTPS_PROXY=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 action action/default-url 1
has action/default-url-is-the-repository "https://github.com/acme/trainforge/releases/download/v$version/SHA256SUMS" "$t/err"

# The pre-commit hooks, from a clean HOME with no trainforge on PATH. The
# hooks repository is tagged v$version and pinned by that tag.
hooks=$t/hooks
(hook_env "$t/home-hooks" && hooks_repo "$hooks") >"$t/out" 2>&1 && ok hook/repo || { no hook/repo; cat "$t/out"; }
(
	hook_env "$t/home"
	command -v trainforge >/dev/null && no "hook/no-trainforge-on-path: $(command -v trainforge)" || ok hook/no-trainforge-on-path
	before=$(gets "GET /v$version/$rname.tar.gz")
	hook hook/bad-config-refused fail examples/broken/cluster.yaml
	has hook/finding-from-the-release '\[PC2101\]' "$t/log"
	cached=$(ls "$HOME"/.cache/pre-commit/repo*/build/release/"$rname"/bin/trainforge 2>/dev/null)
	[ -x "$cached" ] && ok hook/cached-in-the-pre-commit-cache || no "hook/cached-in-the-pre-commit-cache"
	[ "$(gets "GET /v$version/$rname.tar.gz")" = $((before + 1)) ] && ok hook/one-download || no hook/one-download
	hook hook/good-config-passes pass examples/clusters/trn2-48xlarge.yaml
	[ "$(gets "GET /v$version/$rname.tar.gz")" = $((before + 1)) ] && ok hook/no-second-download || no hook/no-second-download
	# update-check with the installed binary: a new head node is refused
	sed 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' "$r/trn2-48xlarge.yaml" >"$t/changed"
	cp "$t/changed" "$r/trn2-48xlarge.yaml"
	(cd "$r" && git commit -qam head-node) >"$t/log" 2>&1 && no hook/update-check-refuses ||
		{ grep -q '\[PC5001\]' "$t/log" && ok hook/update-check-refuses || no hook/update-check-refuses; }
)
# a download that is not the release stops the hook, even with a
# trainforge on PATH to fall back to
mkdir "$t/pathbin" && ln -s "$bin" "$t/pathbin/trainforge"
(
	hook_env "$t/home-bad"
	TRAINFORGE_RELEASE_URL=$url/bad PATH=$t/pathbin:$PATH
	hook hook/checksum-differs-refused fail examples/clusters/trn2-48xlarge.yaml
	has hook/checksum-differs-says 'but SHA256SUMS says' "$t/log"
	[ -z "$(ls "$HOME"/.cache/pre-commit/repo*/build/release/ 2>/dev/null)" ] && ok hook/checksum-differs-caches-nothing ||
		no hook/checksum-differs-caches-nothing
)
# no release to be had: the trainforge on PATH
(
	hook_env "$t/home-path"
	TRAINFORGE_RELEASE_URL=$url/none PATH=$t/pathbin:$PATH
	hook hook/falls-back-to-path fail examples/broken/cluster.yaml
	has hook/falls-back-says 'trying trainforge on PATH' "$t/log"
	has hook/path-binary-finds '\[PC2101\]' "$t/log"
)
(
	hook_env "$t/home-system"
	TRAINFORGE_HOOK_BINARY=system
	export TRAINFORGE_HOOK_BINARY
	hook hook/system-without-path-fails fail examples/clusters/trn2-48xlarge.yaml
	has hook/system-without-path-says 'no trainforge on PATH' "$t/log"
)
# The default address: the GitHub repository pre-commit cloned, through a
# proxy that is a closed port here.
(
	hook_env "$t/home-default"
	unset TRAINFORGE_RELEASE_URL
	HTTPS_PROXY=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9
	export HTTPS_PROXY https_proxy
	c=$t/clone
	git clone -q "$hooks" "$c" && git -C "$c" remote set-url origin https://github.com/acme/trainforge
	TRAINFORGE_HOOK_BINARY=release "$c/packaging/hook.sh" lint "$root/examples/clusters/trn2-48xlarge.yaml" >"$t/out" 2>&1
	rc=$?
	[ "$rc" != 0 ] && grep -q "https://github.com/acme/trainforge/releases/download/v$version/SHA256SUMS" "$t/out" &&
		ok "hook/default-url-is-the-repository" || { no "hook/default-url-is-the-repository: exit $rc"; cat "$t/out"; }
)
# pre-commit autoupdate moves a pinned rev to the newest release tag
(
	hook_env "$t/home-update"
	u=$t/hooks-tags
	git clone -q "$hooks" "$u" && git -C "$u" tag v0.0.1 && git -C "$u" -c user.name=t -c user.email=t@example.invalid \
		commit -q --allow-empty -m next && git -C "$u" tag -f "v$version" >/dev/null && git -C "$u" tag v0 &&
		git init -q "$t/upd" && printf 'repos:\n  - repo: %s\n    rev: v0.0.1\n    hooks:\n      - id: trainforge\n' "$u" \
		>"$t/upd/.pre-commit-config.yaml" && (cd "$t/upd" && pre-commit autoupdate >"$t/out" 2>&1)
	grep -q "rev: v$version\$" "$t/upd/.pre-commit-config.yaml" && ok hook/autoupdate-to-the-release-tag ||
		{ no hook/autoupdate-to-the-release-tag; cat "$t/out" "$t/upd/.pre-commit-config.yaml"; }
)
