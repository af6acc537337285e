#!/bin/sh
# `trainforge schema`: prints the embedded schemas byte for byte, refuses
# unknown names; then yaml-language-server (npm, in a cache outside the
# repository) validates the examples against what it printed
# (yamlls.js). Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=schema/
YAMLLS_VERSION=1.25.0    # the last 1.x; 2.x needs node 22
PROTOCOL_VERSION=3.17.5

for name in jobspec parallelcluster; do
	"$TF" schema "$name" >"$t/$name.schema.json" 2>"$t/err"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$t/err" ] && ok "$name-exit-0" || no "$name-exit-0: exit $rc"
	cmp -s "$t/$name.schema.json" "schemas/$name.schema.json" && ok "$name-is-the-embedded-file" ||
		no "$name-is-the-embedded-file: differs from schemas/$name.schema.json"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$t/$name.schema.json" 2>/dev/null &&
		ok "$name-is-json" || no "$name-is-json"
done
"$TF" schema nope >"$t/out" 2>"$t/err"
rc=$?
[ "$rc" = 2 ] && [ ! -s "$t/out" ] && grep -q "unknown schema 'nope'" "$t/err" && ok unknown-name-exit-2 ||
	no "unknown-name-exit-2: exit $rc"
"$TF" schema >"$t/out" 2>"$t/err"
rc=$?
[ "$rc" = 2 ] && grep -q "usage" "$t/err" && ok no-name-exit-2 || no "no-name-exit-2: exit $rc"
"$TF" schema --help >"$t/out" 2>&1 && grep -q "usage" "$t/out" && ok help || no help

if ! have node || ! have npm; then
	skip "yaml-language-server: node and npm are not installed (apt-get install nodejs npm)"
	exit 0
fi
cache=$tool_cache/npm-yamlls
if { [ "$(npm_version "$cache" yaml-language-server)" != "$YAMLLS_VERSION" ] ||
	[ "$(npm_version "$cache" vscode-languageserver-protocol)" != "$PROTOCOL_VERSION" ]; } &&
	! npm_install "$cache" "yaml-language-server@$YAMLLS_VERSION" "vscode-languageserver-protocol@$PROTOCOL_VERSION"; then
	skip "yaml-language-server: npm install yaml-language-server@$YAMLLS_VERSION failed (see $cache/install.log)"
	exit 0
fi
NODE_PATH="$cache/node_modules" SCHEMA_DIR="$t" node tests/schema/yamlls.js
