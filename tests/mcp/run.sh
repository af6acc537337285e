#!/bin/sh
# The Model Context Protocol server. `trainforge mcp` driven by the
# official TypeScript SDK's client over its stdio transport (client.js:
# every tool, resource and prompt, the reference scenario against the
# CLI's output, roots, the time bound, cancellation) and by raw lines
# (raw.js: each protocol revision, batches, JSON-RPC errors, hostile
# input). The npm package goes into a cache outside the repository, as
# tools/deps.sh installs it. Prints RESULT lines.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
SDK_VERSION=1.32.2
cache=$tool_cache/npm-mcp
tf_built mcp || exit 1
if ! have node || ! have npm; then
	skip "mcp: node and npm are not installed (apt-get install nodejs npm)"
	exit 0
fi
if [ "$(npm_version "$cache" @modelcontextprotocol/sdk)" != "$SDK_VERSION" ] &&
	! npm_install "$cache" "@modelcontextprotocol/sdk@$SDK_VERSION"; then
	skip "mcp: npm install @modelcontextprotocol/sdk@$SDK_VERSION failed (see $cache/install.log)"
	exit 0
fi
export NODE_PATH="$cache/node_modules"
rc=0
node tests/mcp/client.js || rc=1
node tests/mcp/raw.js || rc=1
exit $rc
