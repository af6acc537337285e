#!/bin/sh
# Editor support. `trainforge lsp` driven by a real LSP client:
# vscode-languageserver-protocol's node StreamMessageReader/Writer against
# a spawned server (client.js), and raw malformed input (malformed.js);
# the VS Code problem matcher against real output (matcher.js). The npm
# packages go into a cache outside the repository. Prints RESULT lines.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
PROTOCOL_VERSION=3.17.5
cache=$tool_cache/npm-lsp
if ! have node || ! have npm; then
	skip "lsp: node and npm are not installed (apt-get install nodejs npm)"
	exit 0
fi
rc=0
node tests/lsp/matcher.js || rc=1
if [ "$(npm_version "$cache" vscode-languageserver-protocol)" != "$PROTOCOL_VERSION" ] &&
	! npm_install "$cache" "vscode-languageserver-protocol@$PROTOCOL_VERSION"; then
	skip "lsp: npm install vscode-languageserver-protocol@$PROTOCOL_VERSION failed (see $cache/install.log)"
	exit $rc
fi
export NODE_PATH="$cache/node_modules"
node tests/lsp/client.js || rc=1
node tests/lsp/malformed.js || rc=1
python3 tests/lsp/config.py "$TF" examples/broken/cluster.yaml || rc=1
exit $rc
