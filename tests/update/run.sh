#!/bin/sh
# Reviewing a config change as `pcluster update-cluster` judges it: the
# policy table against ParallelCluster's own schema (policy_agree.py, with
# the vendored 3.11 package and Debian's python3-marshmallow) and
# docs/update-policy.md; the review against ParallelCluster's own
# ConfigPatch (configpatch_agree.py); `trainforge diff`'s arguments and
# exit codes; `lint --base` in a git repository made here; the cluster
# plan; hostile input.
# Prints RESULT lines. ok and no only print, so "A && ok || no" is an
# if-then-else here, and '$' in single quotes is a dollar sign.
# shellcheck disable=SC2015,SC2016
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=update/
tf_built update || exit 0

# ---- the table -------------------------------------------------------------
if "$TF" docs update-policy >"$t/table.md" 2>"$t/err" && cmp -s "$t/table.md" docs/update-policy.md; then
	ok docs-update-policy-current
else
	no "docs-update-policy-current: regenerate it with: $TF docs update-policy > docs/update-policy.md"
fi
if [ -x /usr/bin/python3 ]; then
	/usr/bin/python3 tests/update/policy_agree.py "$t/table.md"
else
	skip "policy-agree: /usr/bin/python3 is missing (tools/deps.sh installs it)"
fi

# ---- the review against ParallelCluster's own ConfigPatch ---------------------
# Every change case both ways, every pair of example configs, and the
# corpus's valid configs each against the next, both ways.
if [ -x /usr/bin/python3 ]; then
	set --
	for f in tests/cases/*/*.yaml.base; do set -- "$@" "$f" "${f%.base}" "${f%.base}" "$f"; done
	for a in examples/clusters/*.yaml examples/jobs/out/*-cluster.yaml; do
		for b in examples/clusters/*.yaml examples/jobs/out/*-cluster.yaml; do
			[ "$a" = "$b" ] || set -- "$@" "$a" "$b"
		done
	done
	prev=
	for f in ../shared/corpus/parallelcluster/valid/*.yaml; do
		[ -f "$f" ] || continue
		[ -z "$prev" ] || set -- "$@" "$prev" "$f" "$f" "$prev"
		prev=$f
	done
	/usr/bin/python3 tests/update/configpatch_agree.py "$TF" "$@"
	[ -n "$prev" ] || skip "configpatch-corpus: ../shared/corpus/parallelcluster/valid is absent"
else
	skip "configpatch: /usr/bin/python3 is missing (tools/deps.sh installs it)"
fi

# contains NAME FILE TEXT, omits NAME FILE TEXT: a fixed string is (is
# not) in FILE
contains() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else no "$1: no '$3' in"; sed 's/^/    /' "$2" | head -5; fi
}
omits() {
	if grep -qF -- "$3" "$2"; then no "$1: '$3' in"; sed 's/^/    /' "$2" | head -5; else ok "$1"; fi
}

cases=tests/cases
old=$cases/PC5001/bad-head-instance-type.yaml.base
new=$cases/PC5001/bad-head-instance-type.yaml

# ---- trainforge diff: arguments and exit codes -------------------------------
expect_rc diff-refused-change-exits-1 1 "$TF" diff --format concise "$old" "$new"
contains diff-names-the-key "$t/out" 'HeadNode.InstanceType c5.xlarge -> c5.2xlarge'
contains diff-finding-in-new "$t/out" "$new:5:17: error"
expect_rc diff-fail-level-never 0 "$TF" diff --fail-level never "$old" "$new"
expect_rc diff-unchanged-exits-0 0 "$TF" diff "$old" "$old"
contains diff-unchanged-summary "$t/err" 'No problems found in 1 file'
expect_rc diff-one-path-exits-2 2 "$TF" diff "$new"
expect_rc diff-three-paths-exits-2 2 "$TF" diff "$old" "$new" "$new"
expect_rc diff-missing-old-exits-2 2 "$TF" diff "$t/absent.yaml" "$new"
contains diff-missing-old-says-so "$t/err" "absent.yaml"
expect_rc diff-missing-new-exits-2 2 "$TF" diff "$old" "$t/absent.yaml"
expect_rc diff-no-fix 2 "$TF" diff --fix "$old" "$new"
expect_rc diff-stdin-new 1 sh -c '"$1" diff --format concise --stdin-filename n.yaml "$2" - <"$3"' sh "$TF" "$old" "$new"
contains diff-stdin-named "$t/out" 'n.yaml:5:17: error'
printf 'just: text\n' >"$t/plain.yaml"
expect_rc diff-new-not-a-cluster 0 "$TF" diff --format concise "$old" "$t/plain.yaml"
contains diff-new-not-a-cluster-note "$t/out" '[LN1008]'
expect_rc diff-select-replaces 0 "$TF" diff --select PC5007 "$old" "$new"
expect_rc diff-json 1 "$TF" diff --format json "$old" "$new"
python3 - "$t/out" <<'PY' && ok diff-json-shape || no diff-json-shape
import json, sys
d = json.load(open(sys.argv[1]))["diagnostics"]
assert [x["rule"] for x in d] == ["PC5001"], d
assert d[0]["yamlPath"] == ["HeadNode", "InstanceType"], d[0]["yamlPath"]
assert "was line 5 of" in d[0]["help"], d[0]["help"]
PY

# ---- a template's placeholder: the change is known once it is rendered ------
# (ParallelCluster only reads rendered configs: the ConfigPatch pairs above
# render the template cases; these are the placeholders left open)
tmpl=$cases/PC5001/good-template.yaml
expect_rc diff-to-placeholder-exits-0 0 "$TF" diff --format concise "$old" "$tmpl"
omits diff-to-placeholder-not-judged "$t/out" '[PC5001]'
contains diff-to-placeholder-listed "$t/out" '[LN1010]'
expect_rc diff-from-placeholder-exits-0 0 "$TF" diff --format concise "$tmpl.base" "$new"
omits diff-from-placeholder-not-judged "$t/out" '[PC5001]'
expect_rc diff-placeholder-defined 1 "$TF" diff --format concise --define HEAD_TYPE=c5.xlarge "$tmpl.base" "$new"
contains diff-placeholder-defined-judged "$t/out" 'HeadNode.InstanceType c5.xlarge -> c5.2xlarge'

# ---- a directive on the changed key acknowledges the finding ---------------
sed 's/^          MaxCount: 8$/          # trainforge disable=PC5002 # the fleet is stopped first\n          MaxCount: 8/' \
	"$cases/PC5002/bad-max-count-down.yaml" >"$t/acknowledged.yaml"
expect_rc directive-suppresses-change 0 "$TF" diff --format concise "$cases/PC5002/bad-max-count-down.yaml.base" "$t/acknowledged.yaml"
omits directive-suppresses-change-finding "$t/out" '[PC5002]'
expect_rc directive-not-unused-without-review 0 "$TF" lint --format concise --select PC5,LN0001 "$t/acknowledged.yaml"
omits directive-not-unused-without-review-note "$t/out" '[LN0001]'
expect_rc directive-unused-when-no-change 0 "$TF" diff --format concise --select PC5,LN0001 "$t/acknowledged.yaml" "$t/acknowledged.yaml"
contains directive-unused-when-no-change-note "$t/out" 'suppression of PC5002 matches no finding [LN0001]'

# ---- the release a change is judged for: --target and target: --------------
# top-level Tags are updatable from 3.15; LaunchTemplateOverrides is a
# key of 3.15 (docs/updates.md, "Per release")
printf 'Tags:\n  - Key: team\n    Value: a\n' | cat "$old" - >"$t/tags-old.yaml"
sed 's/Value: a$/Value: b/' "$t/tags-old.yaml" >"$t/tags-new.yaml"
expect_rc release-tags-3.11-refused 1 "$TF" diff --format concise --target parallelcluster=3.11 "$t/tags-old.yaml" "$t/tags-new.yaml"
contains release-tags-3.11-finding "$t/out" 'Tags[team].Value a -> b: not updatable'
expect_rc release-tags-3.14-refused 1 "$TF" diff --target parallelcluster=3.14.0 "$t/tags-old.yaml" "$t/tags-new.yaml"
expect_rc release-tags-3.15-live 0 "$TF" diff --format concise --target parallelcluster=3.15 "$t/tags-old.yaml" "$t/tags-new.yaml"
omits release-tags-3.15-no-finding "$t/out" 'Tags[team]'
expect_rc release-tags-newest-live 0 "$TF" diff "$t/tags-old.yaml" "$t/tags-new.yaml"
mkdir -p "$t/at311"
cp "$t/tags-new.yaml" "$t/at311/c.yaml"
printf 'target:\n  parallelcluster: "3.11"\n' >"$t/at311/.trainforge.yaml"
expect_rc release-target-setting 1 "$TF" diff --format concise "$t/tags-old.yaml" "$t/at311/c.yaml"
contains release-target-setting-finding "$t/out" '[PC5001]'
expect_rc release-target-flag-over-setting 0 "$TF" diff --target parallelcluster=3.16 "$t/tags-old.yaml" "$t/at311/c.yaml"
sed 's/^          MaxCount: 16$/          MaxCount: 16\n          LaunchTemplateOverrides:\n            LaunchTemplateId: lt-0123456789abcdef0\n            Version: 1/' \
	"$old" >"$t/lto-old.yaml"
sed 's/Version: 1$/Version: 2/' "$t/lto-old.yaml" >"$t/lto-new.yaml"
expect_rc release-new-key-3.15 1 "$TF" diff --format concise --target parallelcluster=3.15 "$t/lto-old.yaml" "$t/lto-new.yaml"
contains release-new-key-3.15-strategy "$t/out" 'LaunchTemplateOverrides.Version 1 -> 2 needs the compute fleet stopped'
expect_rc release-new-key-3.14-unknown 0 "$TF" diff --format concise --target parallelcluster=3.14 "$t/lto-old.yaml" "$t/lto-new.yaml"
contains release-new-key-3.14-unknown-finding "$t/out" 'in ParallelCluster 3.14; `pcluster update-cluster --dryrun true` decides [PC5008]'
expect_rc release-new-section-unconfirmed 0 "$TF" diff --format concise "$old" "$t/lto-new.yaml"
contains release-new-section-unconfirmed-finding "$t/out" 'LaunchTemplateOverrides added: no update policy is known'
expect_rc release-bad-target-exits-2 2 "$TF" diff --target parallelcluster=3.10 "$old" "$new"

# ---- lint --base REV in a real repository --------------------------------------
r=$t/repo
mkdir -p "$r/clusters"
git -C "$r" init -q
git -C "$r" config user.email test@example.invalid
git -C "$r" config user.name trainforge-test
cp "$old" "$r/clusters/a.yaml"
git -C "$r" add . && git -C "$r" commit -qm one
cp "$new" "$r/clusters/a.yaml"
cp "$old" "$r/clusters/new.yaml"
expect_rc base-refused-change 1 "$TF" lint --format concise --select PC5 --base HEAD "$r/clusters/a.yaml"
contains base-names-the-key "$t/out" 'HeadNode.InstanceType c5.xlarge -> c5.2xlarge'
contains base-help-names-revision "$t/out" '[PC5001]'
expect_rc base-text-help 1 "$TF" lint --select PC5 --base HEAD "$r/clusters/a.yaml"
contains base-help-old-line "$t/out" "was line 5 of HEAD:$r/clusters/a.yaml"
expect_rc base-new-file-clean 0 "$TF" lint --select PC5 --base HEAD "$r/clusters/new.yaml"
(cd "$r/clusters" && "$TF" lint --format concise --select PC5 --base HEAD a.yaml) >"$t/out" 2>&1
contains base-relative-path "$t/out" 'a.yaml:5:17: error'
# shellcheck disable=SC2094 # the name stdin is reported as, not a file written
(cd "$r" && "$TF" lint --format concise --select PC5 --base HEAD --stdin-filename clusters/a.yaml - <clusters/a.yaml) >"$t/out" 2>&1
contains base-stdin-filename "$t/out" 'clusters/a.yaml:5:17: error'
git -C "$r" add . && git -C "$r" commit -qm two
expect_rc base-head-is-clean 0 "$TF" lint --select PC5 --base HEAD "$r/clusters/a.yaml"
expect_rc base-older-revision 1 "$TF" lint --select PC5 --base HEAD~1 "$r/clusters/a.yaml"
expect_rc base-bad-revision-exits-2 2 "$TF" lint --format concise --base no-such-rev "$r/clusters/a.yaml" "$r/clusters/new.yaml"
contains base-bad-revision-says-so "$t/err" "--base no-such-rev: unknown revision 'no-such-rev'"
[ "$(grep -c 'no-such-rev' "$t/err")" = 1 ] && ok base-bad-revision-once || no base-bad-revision-once
contains base-bad-revision-still-lints "$t/err" 'in 2 files'
expect_rc base-option-like-revision 2 "$TF" lint "--base=--output=$t/written" "$r/clusters/a.yaml"
[ ! -e "$t/written" ] && ok base-option-not-passed-to-git || no base-option-not-passed-to-git
mkdir -p "$t/norepo"
cp "$new" "$t/norepo/a.yaml"
GIT_CEILING_DIRECTORIES=$t expect_rc base-not-a-repository 2 "$TF" lint --base HEAD "$t/norepo/a.yaml"
contains base-not-a-repository-says-git "$t/err" 'not a git repository'
# base: in .trainforge.yaml, and --base over it
printf 'base: HEAD~1\n' >"$r/.trainforge.yaml"
expect_rc base-setting 1 "$TF" lint --format concise --select PC5 "$r/clusters/a.yaml"
contains base-setting-reviews "$t/out" '[PC5001]'
expect_rc base-flag-wins 0 "$TF" lint --select PC5 --base HEAD "$r/clusters/a.yaml"
"$TF" lint --show-config "$r/clusters/a.yaml" >"$t/out" 2>&1
contains base-show-config "$t/out" 'base: HEAD~1  # '
rm "$r/.trainforge.yaml"
# the old version of a file that git has but that is not a config
printf 'HeadNode: [\n' >"$r/clusters/broken.yaml"
git -C "$r" add . && git -C "$r" commit -qm three
cp "$new" "$r/clusters/broken.yaml"
expect_rc base-unreadable-old 0 "$TF" lint --format concise --select PC5 --base HEAD "$r/clusters/broken.yaml"
contains base-unreadable-old-info "$t/out" "the change is not reviewed: HEAD:$r/clusters/broken.yaml is not valid YAML"
# a change findings' place on the changed line, for pull-request annotations
expect_rc base-github 1 "$TF" lint --format github --select PC5 --base HEAD~2 "$r/clusters/a.yaml"
contains base-github-line "$t/out" "::error file=$r/clusters/a.yaml,line=5,col=17"
expect_rc base-sarif 1 "$TF" lint --format sarif --select PC5 --base HEAD~2 "$r/clusters/a.yaml"
python3 - "$t/out" <<'PY' && ok base-sarif-region || no base-sarif-region
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert [r["ruleId"] for r in res] == ["PC5001"], res
reg = res[0]["locations"][0]["physicalLocation"]["region"]
assert reg["startLine"] == 5 and reg["startColumn"] == 17, reg
PY

# ---- plan CLUSTER.yaml -------------------------------------------------------
expect_rc plan-cluster 0 "$TF" plan "$cases/PC5007/bad.yaml"
contains plan-cluster-ceiling "$t/out" '$3523/h'
contains plan-cluster-price-source "$t/out" 'p5.48xlarge        $55.04/h a node, us-east-1 on-demand price of 2026-07-20'
contains plan-cluster-idle-month "$t/out" 'while idle: $0.00 a month'
expect_rc plan-cluster-json 0 "$TF" plan --format json "$cases/PC6001/bad.yaml"
python3 - "$t/out" <<'PY' && ok plan-cluster-json-figures || no plan-cluster-json-figures
import json, sys
d = json.load(open(sys.argv[1]))
train = d["queues"][0]
assert train["name"] == "train" and d["region"] == "us-east-1"
cr = train["computeResources"][0]
assert cr["minCount"] == 4 and cr["maxCount"] == 16
assert abs(cr["usdPerHourAtMinCount"] - 4 * 55.04) < 1e-6 and abs(cr["usdPerHourAtMaxCount"] - 16 * 55.04) < 1e-6
assert abs(d["usdPerMonthAtMinCount"] - 4 * 55.04 * 730) < 0.01
assert cr["price"] == {"usdPerHour": 55.04, "kind": "on-demand", "atMost": False, "region": "us-east-1", "date": "2026-07-20"}
PY
expect_rc plan-cluster-unknown-price 0 "$TF" plan "$cases/PC6001/bad-unknown-price.yaml"
contains plan-cluster-unknown "$t/out" 'unknown  (the catalog has no price for p5e.48xlarge)'
contains plan-cluster-total-without-unknown "$t/out" '>= $0.68/h  (prices unknown: >= counts the known ones alone)'
# unknown is never $0.00: the idle cost of 2 nodes at an unknown price
contains plan-cluster-idle-unknown "$t/out" 'while idle: unknown a month'
hasnt plan-cluster-unknown-not-zero 'while idle: \$0.00' "$t/out"
expect_rc plan-cluster-unknown-json 0 "$TF" plan --format json "$cases/PC6001/bad-unknown-price.yaml"
python3 - "$t/out" <<'PY' && ok plan-cluster-unknown-json-null || no plan-cluster-unknown-json-null
import json, sys
d = json.load(open(sys.argv[1]))
assert d["usdPerMonthAtMinCount"] is None and d["usdPerHourAtMinCount"] is None, d
assert d["usdPerHourAtMaxCount"] is None
assert abs(d["knownUsdPerHourAtMaxCount"] - 4 * 0.17) < 0.01, d
train = d["queues"][0]
assert train["usdPerHourAtMinCount"] is None and train["pricesUnknown"] is True
PY
expect_rc plan-cluster-region "0" "$TF" plan "$cases/PC6001/bad-region.yaml"
contains plan-cluster-region-note "$t/out" 'the config is in us-west-2, where prices differ'
expect_rc plan-cluster-spec-flags 2 "$TF" plan --hours 10 "$cases/PC6001/bad.yaml"
printf 'HeadNode: {InstanceType: c5.large}\nScheduling: [\n' >"$t/broken-cluster.yaml"
expect_rc plan-cluster-broken-yaml 1 "$TF" plan "$t/broken-cluster.yaml"

# ---- hostile input: the change review stays bounded and says what it can -----
head_of() { sed -n '1,/^  SlurmQueues:/p' "$cases/PC5007/bad.yaml.base"; }
python3 - "$t" <<'PY'
import sys
t = sys.argv[1]
queue = "    - Name: q%d\n      ComputeResources:\n        - Name: c\n          InstanceType: c5.large\n          MaxCount: %d\n      Networking:\n        SubnetIds: [subnet-0fedcba9876543210]\n"
n = 20000
open(t + "/many-old.part", "w").write("".join(queue % (i, 4) for i in range(n)))
open(t + "/many-new.part", "w").write("".join(queue % (i, 4 if i % 1000 else 8) for i in reversed(range(n))))
subnets = "".join("          - subnet-%017x\n" % i for i in range(30000))
open(t + "/subnets-old.part", "w").write("    - Name: big\n      ComputeResources: [{Name: c, InstanceType: c5.large}]\n      Networking:\n        SubnetIds:\n" + subnets)
open(t + "/subnets-new.part", "w").write("    - Name: big\n      ComputeResources: [{Name: c, InstanceType: c5.large}]\n      Networking:\n        SubnetIds:\n" + subnets + "          - subnet-0aaaaaaaaaaaaaaaa\n")
open(t + "/dupes-new.part", "w").write("".join("    - {Name: same, ComputeResources: [{Name: c, MaxCount: %d}], Networking: {SubnetIds: [subnet-0fedcba9876543210]}}\n" % i for i in range(20000)))
PY
{ head_of; cat "$t/many-old.part"; } >"$t/many-old.yaml"
{ head_of; cat "$t/many-new.part"; } >"$t/many-new.yaml"
expect_rc hostile-many-queues-reordered 0 timeout 60 "$TF" diff --format concise "$t/many-old.yaml" "$t/many-new.yaml"
[ "$(grep -c 'MaxCount 4 -> 8' "$t/out")" = 20 ] && ok hostile-many-queues-found-the-20 ||
	no "hostile-many-queues-found-the-20: $(grep -c 'MaxCount' "$t/out") MaxCount findings"
{ head_of; cat "$t/subnets-old.part"; } >"$t/subnets-old.yaml"
{ head_of; cat "$t/subnets-new.part"; } >"$t/subnets-new.yaml"
expect_rc hostile-long-subnet-list 1 timeout 60 "$TF" diff --format concise "$t/subnets-old.yaml" "$t/subnets-new.yaml"
contains hostile-long-subnet-list-judged "$t/out" 'SubnetIds [30000 items] -> [30001 items] needs the compute fleet stopped'
{ head_of; cat "$t/dupes-new.part"; } >"$t/dupes-new.yaml"
expect_rc hostile-items-sharing-a-name 1 timeout 60 "$TF" diff --format concise "$t/dupes-new.yaml" "$t/dupes-new.yaml"
contains hostile-items-sharing-a-name-pair-first "$t/out" 'SlurmQueues[same] removed'
bomb='a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]'
printf '%s\n' "$bomb" >"$t/bomb.yaml"
expect_rc hostile-old-alias-bomb 0 timeout 30 "$TF" diff --format concise "$t/bomb.yaml" "$new"
contains hostile-old-alias-bomb-unreviewed "$t/out" 'the change is not reviewed'
{ cat "$new"; printf 'Tags:\n  - {Key: k, Value: v}\nDevSettings: {InstanceTypesData: "x"}\nx: &x [1,1,1,1,1,1,1,1,1,1]\ny: &y [*x,*x,*x,*x,*x,*x,*x,*x,*x,*x]\nz: [*y,*y,*y,*y,*y,*y,*y,*y,*y,*y]\n'; } >"$t/aliased.yaml"
expect_rc hostile-aliases-in-both 0 timeout 30 "$TF" diff --format concise "$t/aliased.yaml" "$t/aliased.yaml"
omits hostile-aliases-in-both-unchanged "$t/out" '[PC5'
python3 -c 'print("HeadNode: " + "[" * 5000 + "]" * 5000)' >"$t/deep.yaml"
expect_rc hostile-old-too-deep 0 timeout 30 "$TF" diff --format concise "$t/deep.yaml" "$new"
contains hostile-old-too-deep-unreviewed "$t/out" "$t/deep.yaml is not valid YAML"
printf 'HeadNode:\0\n' >"$t/binary.yaml"
expect_rc hostile-old-binary 0 "$TF" diff --format concise "$t/binary.yaml" "$new"
contains hostile-old-binary-unreviewed "$t/out" 'is not text'
{ cat "$old"; python3 -c 'print("# " + "x" * 400)'; } >"$t/padded-old.yaml"
limit=$(($(wc -c <"$new") + 10))
expect_rc hostile-old-over-the-limit 0 "$TF" diff --format concise --max-file-size "$limit" "$t/padded-old.yaml" "$new"
contains hostile-old-over-the-limit-says-so "$t/out" "is larger than $limit bytes"
expect_rc hostile-old-is-a-directory 2 "$TF" diff "$t" "$new"
sed 's/MaxCount: 16/MaxCount: 99999999999999999999999/' "$cases/PC5007/bad.yaml.base" >"$t/huge.yaml"
expect_rc hostile-huge-count 1 timeout 30 "$TF" diff --format concise "$cases/PC5007/bad.yaml.base" "$t/huge.yaml"
contains hostile-huge-count-judged "$t/out" 'MaxCount 16 -> 99999999999999999999999'
