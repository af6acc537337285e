#!/bin/sh
# Installs the Debian packages trainforge needs, only those missing, so
# that `make` works on a fresh Debian 12 machine and costs nothing after.
# Optional groups, for the targets that need them:
#   sh tools/deps.sh fuzz       also clang with libFuzzer (make fuzz)
#   sh tools/deps.sh valgrind   also valgrind (make test VALGRIND=1)
#   sh tools/deps.sh dist       also the aarch64 cross compiler, the arm64
#                               libraries (multiarch), qemu-user, lintian
#                               and skopeo (make dist, deb, image)
set -e
missing=""
need_pkg() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
# libFuzzer ships apart from clang (libclang-rt-14-dev), so link a fuzzer.
need_libfuzzer() {
	command -v clang >/dev/null 2>&1 || { missing="$missing clang libclang-rt-14-dev"; return; }
	probe=$(mktemp)
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }\n' |
		clang -x c -fsanitize=fuzzer,address,undefined -o "$probe" - >/dev/null 2>&1 ||
		missing="$missing libclang-rt-14-dev"
	rm -f "$probe"
}
need_cmd pkg-config pkg-config
need_cmd cc gcc
need_pkg yaml-0.1 libyaml-dev
need_pkg libcyaml libcyaml-dev
need_pkg libpcre2-8 libpcre2-dev
need_pkg cmocka libcmocka-dev
need_cmd python3 python3
# ParallelCluster's own package, which tests/update loads, runs on
# Debian's python3 with Debian's modules.
need_py() { /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing="$missing $2"; }
need_py marshmallow python3-marshmallow
need_py yaml python3-yaml
need_py boto3 python3-boto3
need_py pkg_resources python3-pkg-resources
need_py jinja2 python3-jinja2 # tests/oracle renders the templates of the rule cases
# tests/frameworks: the frameworks' own argument parsers and counts
# (../shared/tools/megatron_oracle.py, argparse_oracle.py) import these
need_py numpy python3-numpy
need_py packaging python3-packaging
need_py psutil python3-psutil
need_py typing_extensions python3-typing-extensions
need_cmd node nodejs   # the lsp and schema suites drive real editor clients
need_cmd npm npm
need_cmd shellcheck shellcheck
need_cmd fi_info libfabric-bin # tests/unit/test_envvars checks the FI_ table against fi_info -e
need_cmd yamllint yamllint
need_cmd hyperfine hyperfine
need_cmd curl curl # the spot watcher's tests
need_cmd rsvg-convert librsvg2-bin # renders the plan's SVG charts in their tests
need_cmd groff groff-base # renders docs/trainforge.1 with every warning on (tests/docs)
need_cmd nvim neovim      # Debian's Neovim runs docs/editors.md's recipe (tests/nvim)
need_cmd zsh zsh          # the zsh and fish completions, run by their shells (tests/wiring)
need_cmd fish fish
need_cmd xmllint libxml2-utils # the Checkstyle recipe of docs/ci.md (tests/ci)
need_cmd umoci umoci # tests/dist builds and unpacks the OCI image
need_cmd pre-commit pre-commit # tests/precommit and tests/dist run the hooks
# need_arm64 FILE PACKAGE: an arm64 library of multiarch (the package is
# named PACKAGE:arm64, and apt needs the architecture first)
foreign=""
need_arm64() {
	[ -f "/usr/lib/aarch64-linux-gnu/$1" ] && return
	missing="$missing $2:arm64"
	foreign=arm64
}
for group in "$@"; do
	case $group in
	fuzz)
		need_libfuzzer
		need_cmd llvm-symbolizer llvm ;; # symbolized sanitizer stacks
	valgrind)
		need_cmd valgrind valgrind ;;
	dist)
		need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
		need_arm64 libc.a libc6-dev
		need_arm64 libyaml.a libyaml-dev
		need_arm64 libcyaml.a libcyaml-dev
		need_arm64 libpcre2-8.a libpcre2-dev
		need_cmd qemu-aarch64-static qemu-user-static
		need_cmd lintian lintian
		need_cmd skopeo skopeo ;;
	*)
		echo "trainforge: tools/deps.sh: unknown group '$group' (fuzz, valgrind, dist)" >&2
		exit 2 ;;
	esac
done
# The npm packages the editor suites use, at the versions their scripts
# pin, in the cache they read (tests/lib.sh's tool_cache): installed once,
# so that those suites run instead of skipping on a fresh machine.
npm_packages() {
	cache=${TF_TOOL_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/trainforge}
	here=$(dirname "$0")/..
	protocol=$(sed -n 's/^PROTOCOL_VERSION=\([0-9.]*\).*/\1/p' "$here/tests/lsp/run.sh")
	yamlls=$(sed -n 's/^YAMLLS_VERSION=\([0-9.]*\).*/\1/p' "$here/tests/schema/run.sh")
	npm_need "$cache/npm-lsp" "vscode-languageserver-protocol@$protocol"
	npm_need "$cache/npm-yamlls" "yaml-language-server@$yamlls" "vscode-languageserver-protocol@$protocol"
	sdk=$(sed -n 's/^SDK_VERSION=\([0-9.]*\).*/\1/p' "$here/tests/mcp/run.sh")
	npm_need "$cache/npm-mcp" "@modelcontextprotocol/sdk@$sdk"
}
npm_need() { # DIR PACKAGE@VERSION...: installs the ones missing from DIR
	dir=$1
	shift
	for want in "$@"; do
		name=${want%@*}
		have=$(node -p "require('$dir/node_modules/$name/package.json').version" 2>/dev/null || true)
		[ "$name@$have" = "$want" ] && continue
		mkdir -p "$dir"
		echo "installing (npm): $*" >&2
		timeout 600 npm install --prefix "$dir" --no-audit --no-fund --silent "$@" >"$dir/install.log" 2>&1 ||
			echo "trainforge: npm install $* failed (see $dir/install.log); the editor suites will skip" >&2
		return 0
	done
}
if [ -z "$missing" ]; then
	npm_packages
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "trainforge: missing packages:$missing (run as root or install them)" >&2
	exit 2
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
[ -z "$foreign" ] || dpkg --add-architecture "$foreign"
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
npm_packages
