#!/bin/sh
# `trainforge schema`: prints the embedded schemas byte for byte with
# --all-releases, and for one release (the newest by default) as
# for_release.py writes them from the tagged file; refuses unknown names
# and targets; then yaml-language-server (npm, in a cache outside the
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

for name in jobspec parallelcluster tco; do
	"$TF" schema "$name" >"$t/$name.schema.json" 2>"$t/err"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$t/err" ] && ok "$name-exit-0" || no "$name-exit-0: exit $rc"
	"$TF" schema "$name" --all-releases >"$t/all.json" 2>/dev/null
	cmp -s "$t/all.json" "schemas/$name.schema.json" && ok "$name-all-releases-is-the-embedded-file" ||
		no "$name-all-releases-is-the-embedded-file: differs from schemas/$name.schema.json"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$t/$name.schema.json" 2>/dev/null &&
		ok "$name-is-json" || no "$name-is-json"
	for release in 3.11 3.12 3.13 3.14 3.15.0 3.16 default; do
		if [ "$release" = default ]; then
			cp "$t/$name.schema.json" "$t/got.json"
			want=3.16
		else
			"$TF" schema "$name" --target parallelcluster="$release" >"$t/got.json" 2>/dev/null
			want=$release
		fi
		python3 tests/schema/for_release.py "schemas/$name.schema.json" "$want" >"$t/want.json"
		cmp -s "$t/got.json" "$t/want.json" && ok "$name-for-$release" ||
			{ no "$name-for-$release: differs from for_release.py"; diff "$t/want.json" "$t/got.json" | head -10; }
	done
done
# what each release has, in the printed schema
"$TF" schema parallelcluster --target parallelcluster=3.13 >"$t/313.json"
"$TF" schema parallelcluster --target parallelcluster=3.15 >"$t/315.json"
# shellcheck disable=SC2016 # $defs is Python's
json_check schema-3.13-lacks-3.15-keys "$t/313.json" 'd = d["$defs"]
assert "LaunchTemplateOverrides" not in d["SlurmComputeResource"]["properties"]
assert "EfaInterfaceType" not in d["DevSettings"]["properties"]
assert "KeyName" in d["LoginNodesPool"]["properties"]["Ssh"]["properties"]
os = d["Image"]["properties"]["Os"]["enum"]
assert "ubuntu2404" in os and "ubuntu2004" in os, os
assert "prioritized" not in d["SlurmQueue"]["properties"]["AllocationStrategy"]["enum"]'
# shellcheck disable=SC2016
json_check schema-3.15-has-them "$t/315.json" 'import json
d = d["$defs"]
assert "LaunchTemplateOverrides" in d["SlurmComputeResource"]["properties"]
assert "KeyName" not in d["LoginNodesPool"]["properties"]["Ssh"]["properties"]
assert "ubuntu2004" not in d["Image"]["properties"]["Os"]["enum"]
assert "x-since" not in json.dumps(d)'
expect_rc schema-bad-target 2 "$TF" schema parallelcluster --target parallelcluster=2.11
has schema-bad-target-says-known "known: 3.11 to 3.16" "$t/err"
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
