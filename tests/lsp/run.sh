#!/bin/sh
# Editor support. `trainforge lsp` driven by a real LSP client:
# vscode-languageserver-protocol's node StreamMessageReader/Writer against
# a spawned server (client.js), and raw malformed input (malformed.js);
# the VS Code problem matcher against real output (matcher.js). The npm
# packages go into a cache outside the repository. Prints RESULT lines.
set -u
cd "$(dirname "$0")/../.." || exit 2
TF=${TF:-build/rel/trainforge}
case $TF in /*) ;; *) TF=$(pwd)/$TF ;; esac
export TF
PROTOCOL_VERSION=3.17.5
cache=${TF_TOOL_CACHE:-${HOME:-/tmp}/.cache/trainforge}/npm-lsp
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	echo "RESULT skip lsp: node and npm are not installed (apt-get install nodejs npm)"
	exit 0
fi
rc=0
node tests/lsp/matcher.js || rc=1
installed=$(node -p "require('$cache/node_modules/vscode-languageserver-protocol/package.json').version" 2>/dev/null)
if [ "$installed" != "$PROTOCOL_VERSION" ]; then
	mkdir -p "$cache"
	if ! npm install --prefix "$cache" --no-audit --no-fund --silent \
		"vscode-languageserver-protocol@$PROTOCOL_VERSION" >"$cache/install.log" 2>&1; then
		echo "RESULT skip lsp: npm install vscode-languageserver-protocol@$PROTOCOL_VERSION failed (see $cache/install.log)"
		exit $rc
	fi
fi
export NODE_PATH="$cache/node_modules"
node tests/lsp/client.js || rc=1
node tests/lsp/malformed.js || rc=1
python3 tests/lsp/config.py "$TF" examples/broken/cluster.yaml || rc=1
exit $rc
