#!/bin/sh
# The lint command line: exit codes, formats, selection, stdin, walking,
# determinism. Prints RESULT lines. ok and no only print, so
# "A && ok || no" is an if-then-else here; the scripts' $1 and $UNQUOTED_x
# are meant literally.
# shellcheck disable=SC2015,SC2016
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
clean=examples/clusters/trn2-48xlarge.yaml
broken=examples/broken/cluster.yaml

expect_rc clean-exits-0 0 "$TF" lint "$clean"
grep -q "No problems found in 1 file" "$t/err" && ok summary-clean || no summary-clean
expect_rc findings-exit-1 1 "$TF" lint "$broken"
grep -q "^Found 14 problems (9 errors, 4 warnings, 1 info) in 1 file.$" "$t/err" && ok summary-counts || no summary-counts
[ -s "$t/out" ] && ! grep -q "^Found" "$t/out" && ok summary-on-stderr-only || no summary-on-stderr-only
expect_rc quiet 1 "$TF" lint -q "$broken"
[ ! -s "$t/err" ] && ok quiet-no-summary || no quiet-no-summary
expect_rc unknown-flag 2 "$TF" lint --frobnicate "$clean"
expect_rc bad-format 2 "$TF" lint --format xml "$clean"
expect_rc bad-fail-level 2 "$TF" lint --fail-level sometimes "$clean"
expect_rc unknown-selector 2 "$TF" lint --select PC9999 "$clean"
grep -q "unknown rule selector 'PC9999'" "$t/err" && ok unknown-selector-message || no unknown-selector-message
expect_rc missing-file 2 "$TF" lint "$t/nope.yaml"
expect_rc unknown-command 2 "$TF" frobnicate
expect_rc define-without-equals 2 "$TF" lint --define NODES "$clean"
grep -q "invalid value 'NODES' for --define: expected NAME=VALUE" "$t/err" && ok define-message || no define-message
expect_rc define-two-lines 2 "$TF" lint --define "$(printf 'A=1\n2')" "$clean"
expect_rc env-file-missing 2 "$TF" lint --env-file "$t/nope.env" "$clean"
printf 'A=1\nnot one\n' >"$t/bad.env"
expect_rc env-file-bad-line 2 "$TF" lint --env-file "$t/bad.env" "$clean"
grep -q "bad.env:2: not NAME=VALUE" "$t/err" && ok env-file-line || no env-file-line

# Selection and levels
expect_rc select-one 1 "$TF" lint --format concise --select PC2201 "$broken"
[ "$(wc -l <"$t/out")" = 1 ] && grep -q '\[PC2201\]$' "$t/out" && ok select-only-that-rule || no select-only-that-rule
expect_rc select-prefix 1 "$TF" lint --format concise --select PC4 "$broken"
[ "$(grep -vc '\[PC4' "$t/out")" = 0 ] && ok select-prefix-only || no select-prefix-only
expect_rc select-name 1 "$TF" lint --format concise --select min-count-above-max "$broken"
grep -q '\[PC2201\]$' "$t/out" && ok select-by-name || no select-by-name
expect_rc ignore-all-errors 0 "$TF" lint --ignore ALL "$broken"
expect_rc fail-level-error 0 "$TF" lint --select PC4003,PC2002 --fail-level error "$broken"
expect_rc fail-level-never 0 "$TF" lint --fail-level never "$broken"
expect_rc severity-override 1 "$TF" lint --format concise --select PC4003 --severity PC4003=error "$broken"
grep -q 'error: MountDir' "$t/out" && ok severity-relevels || no severity-relevels
expect_rc severity-info-passes 0 "$TF" lint --select PC4003 --severity PC4003=info "$broken"

# Formats
expect_rc json 1 "$TF" lint --format json "$broken"
json_check json-shape "$t/out" '
assert d["schemaVersion"] == 1 and d["tool"]["name"] == "trainforge"
diags = d["diagnostics"]
assert len(diags) == 14  # with PC6001, the idle cost of MinCount 8, and PC2220 on both queues
first = diags[0]
for k in ("path", "kind", "rule", "name", "severity", "message", "line", "column", "endLine", "endColumn", "yamlPath", "help", "fix"):
    assert k in first, k
assert first["kind"] == "pcluster"
mm = [x for x in diags if x["rule"] == "PC2201"][0]
assert mm["yamlPath"] == ["Scheduling", "SlurmQueues", 0, "ComputeResources", 0, "MinCount"], mm["yamlPath"]
hy = [x for x in diags if x["rule"] == "PC1004"][0]
assert hy["fix"]["edits"][0]["content"] == "-"
assert hy["fix"]["applicability"] == "safe"'
expect_rc concise 1 "$TF" lint --format concise "$broken"
grep -Eq '^examples/broken/cluster.yaml:19:21: error: MinCount 8 is above MaxCount 4 \[PC2201\]$' "$t/out" && ok concise-line || no concise-line
grep -vqE '^[^:]+:[0-9]+:[0-9]+: (error|warning|info): .* \[[A-Z]{2}[0-9]{4}\]$' "$t/out" && no concise-grammar || ok concise-grammar
expect_rc text 1 "$TF" lint --color never "$broken"
grep -q '^ 19 |           MinCount: 8$' "$t/out" && grep -q '^    |                     ^$' "$t/out" && ok text-caret || no text-caret
expect_rc color 1 "$TF" lint --color always "$broken"
grep -q "$(printf '\033')\[1;31merror" "$t/out" && ok color-always || no color-always
NO_COLOR=1 "$TF" lint "$broken" >"$t/out" 2>/dev/null
grep -q "$(printf '\033')" "$t/out" && no no-color-on-pipe || ok no-color-on-pipe

# stdin
"$TF" lint --format concise --stdin-filename clusters/prod.yaml - <"$broken" >"$t/out" 2>/dev/null
[ $? = 1 ] && grep -q '^clusters/prod.yaml:19:21:' "$t/out" && ok stdin-filename || no stdin-filename
"$TF" lint --format concise - <"$clean" >"$t/out" 2>/dev/null && ok stdin-clean || no stdin-clean

# Walking: other YAML is skipped when found, reported (info) when named.
mkdir -p "$t/tree/sub" "$t/tree/.hidden"
printf 'name: not a cluster\n' >"$t/tree/other.yaml"
cp "$broken" "$t/tree/sub/c.yaml"
cp "$broken" "$t/tree/.hidden/c.yaml"
printf 'HeadNode: {}\n' >"$t/tree/notes.txt"
"$TF" lint --format concise "$t/tree" >"$t/out" 2>"$t/err"
[ "$(cut -d: -f1 "$t/out" | sort -u)" = "$t/tree/sub/c.yaml" ] && ok walk-skips-others || no walk-skips-others
grep -q "in 1 file" "$t/err" && ok walk-counts || no walk-counts
expect_rc named-other-yaml 0 "$TF" lint --format concise "$t/tree/other.yaml"
grep -q '\[LN1008\]$' "$t/out" && ok named-other-is-info || no named-other-is-info
expect_rc kind-forced 1 "$TF" lint --format concise --kind pcluster "$t/tree/other.yaml"
grep -q "missing required key 'HeadNode'" "$t/out" && ok kind-forced-schema || no kind-forced-schema

# Walking finds fragments of a cluster config (keys under their usual
# parent, checked by the schema from there, did-you-mean on their keys,
# no missing keys) and leaves other YAML alone: docker-compose, a
# Kubernetes manifest, a GitHub workflow, a file of shared keys only.
f=$t/frag
mkdir -p "$f/.github/workflows" "$f/deploy"
printf 'SlurmQueues:\n  - Name: train\n    ComputeResources:\n      - Name: trn2\n        InstanceTyp: trn2.48xlarge\n        MaxCount: 4\n' >"$f/queues.yaml"
printf 'Name: p5\nInstanceType: p5.48xlarge\nMinCount: 0\nMaxCount: 4\n' >"$f/deploy/p5.yaml"
printf 'HeadNode:\n  InstanceType: m7i.4xlarge\n  Ssh:\n    KeyNam: team\n' >"$f/head.yml"
printf 'services:\n  web:\n    image: nginx\n' >"$f/docker-compose.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers: []\n' >"$f/deploy/pod.yaml"
printf 'name: ci\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps: []\n' >"$f/.github/workflows/ci.yml"
printf 'Region: us-east-1\nTags:\n  - Key: team\n    Value: ml\n' >"$f/tags.yaml"
"$TF" lint --format concise "$f" >"$t/out" 2>"$t/err"
[ "$(cut -d: -f1,2,3 "$t/out" | sort | tr '\n' ' ')" = "$f/head.yml:4:5 $f/queues.yaml:5:9 " ] &&
	ok walk-fragments || { no walk-fragments; cat "$t/out"; }
grep -q "unknown key 'InstanceTyp'.*\[PC0002\]$" "$t/out" && ok walk-fragment-did-you-mean ||
	no walk-fragment-did-you-mean
grep -q "in 3 files" "$t/err" && ok walk-fragments-counted || { no walk-fragments-counted; cat "$t/err"; }
"$TF" lint "$f/queues.yaml" >"$t/out" 2>/dev/null
grep -q "help: did you mean 'InstanceType'? (read as a part of a cluster config: its top-level keys as those of Scheduling)" "$t/out" &&
	ok fragment-help-names-its-place || { no fragment-help-names-its-place; cat "$t/out"; }
expect_rc named-compose-is-no-fragment 0 "$TF" lint --format concise "$f/docker-compose.yaml"
grep -q '\[LN1008\]$' "$t/out" && ok named-compose-is-info || no named-compose-is-info

# Walking a repository honours .gitignore (nested files, negation, a
# worktree's .git file) and .git/info/exclude; a named directory is walked
# even when ignored, a named file is linted; --no-ignore walks everything.
g=$t/repo
mkdir -p "$g/.git/info" "$g/build" "$g/node_modules/pkg" "$g/sub/gen" "$g/logs" "$g/wt"
for f in build/a.yaml node_modules/pkg/a.yaml sub/a.yaml sub/gen/a.yaml logs/x.tmp.yaml \
	logs/keep.tmp.yaml top.yaml secret.yaml wt/local.yaml wt/a.yaml; do
	cp "$broken" "$g/$f"
done
printf 'build/\nnode_modules\n*.tmp.yaml\n!keep.tmp.yaml\n# a comment\n\n' >"$g/.gitignore"
printf 'gen/\n' >"$g/sub/.gitignore"
printf 'secret.yaml\n' >"$g/.git/info/exclude"
walked() { (cd "$1" && shift && "$TF" lint --format concise "$@" 2>/dev/null | cut -d: -f1 | sort -u | tr '\n' ' '); }
[ "$(walked "$g" .)" = "logs/keep.tmp.yaml sub/a.yaml top.yaml wt/a.yaml wt/local.yaml " ] &&
	ok walk-gitignore || no "walk-gitignore: $(walked "$g" .)"
[ "$(walked "$g" --no-ignore . | wc -w)" = 10 ] && ok walk-no-ignore || no "walk-no-ignore: $(walked "$g" --no-ignore .)"
[ "$(walked "$g/sub" .)" = "a.yaml " ] && ok walk-gitignore-from-below || no "walk-gitignore-from-below: $(walked "$g/sub" .)"
[ "$(walked "$g" build)" = "build/a.yaml " ] && ok walk-named-ignored-dir || no walk-named-ignored-dir
[ "$(walked "$g" secret.yaml)" = "secret.yaml " ] && ok walk-named-ignored-file || no walk-named-ignored-file
# a worktree: .git is a file naming the git directory, whose common
# directory holds info/exclude
mkdir -p "$t/gitdir/worktrees/wt/x" "$t/gitdir/info"
printf 'gitdir: %s\n' "$t/gitdir/worktrees/wt" >"$g/wt/.git"
printf '../..\n' >"$t/gitdir/worktrees/wt/commondir"
printf 'local.yaml\n' >"$t/gitdir/info/exclude"
[ "$(walked "$g/wt" .)" = "a.yaml " ] && ok walk-worktree-exclude || no "walk-worktree-exclude: $(walked "$g/wt" .)"
# Kinds by name and #! line: a file in another language is no batch
# script, whatever #SBATCH text it holds (skipped when walked, noted when
# named); templates of batch scripts are batch scripts, and walked.
mkdir -p "$t/kinds"
job='#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\ntorchrun train.py\n'
printf "T = '''\\n%b'''\\n" "$job" >"$t/kinds/launch.py"
printf '#!/usr/bin/env python3\n%b' "$job" >"$t/kinds/py.sbatch"
printf '#!/usr/bin/perl\n%b' "$job" >"$t/kinds/perl.sh"
for f in train.sbatch.j2 job.slurm.template run.j2 run.py.j2; do
	printf '#!/bin/bash\n%b' "$job" >"$t/kinds/$f"
done
printf 'worker_processes {{ n }};\n' >"$t/kinds/nginx.conf.j2"
"$TF" lint --format concise --shellcheck off "$t/kinds" >"$t/out" 2>"$t/err"
[ "$(grep '\[SB2002\]$' "$t/out" | cut -d: -f1 | sort | tr '\n' ' ')" = \
	"$t/kinds/job.slurm.template $t/kinds/run.j2 $t/kinds/train.sbatch.j2 " ] &&
	ok walk-templates-are-scripts || { no walk-templates-are-scripts; cat "$t/out"; }
grep -q "in 3 files" "$t/err" && ok walk-skips-other-languages || { no walk-skips-other-languages; cat "$t/err"; }
for f in launch.py py.sbatch perl.sh run.py.j2; do
	expect_rc "named-$f" 0 "$TF" lint --format concise --shellcheck off "$t/kinds/$f"
	[ "$(wc -l <"$t/out")" = 1 ] && grep -q 'not a shell script: .*\[LN1008\]$' "$t/out" &&
		ok "named-$f-noted" || { no "named-$f-noted"; cat "$t/out"; }
done
"$TF" lint --format concise --shellcheck off "$t/kinds/perl.sh" >"$t/out" 2>&1
has named-says-why 'perl.sh:1:1: info: not a shell script: its #! line runs perl' "$t/out"
expect_rc kind-sbatch-forces-script 1 "$TF" lint --format concise --shellcheck off --kind sbatch "$t/kinds/py.sbatch"
grep -q '\[SB2002\]$' "$t/out" && ok kind-sbatch-forces-script-checked || no kind-sbatch-forces-script-checked

# Determinism: same bytes twice, sorted by path, line, column.
"$TF" lint --format concise "$broken" "$clean" examples >"$t/a" 2>/dev/null
"$TF" lint --format concise examples "$clean" "$broken" >"$t/b" 2>/dev/null
cmp -s "$t/a" "$t/b" && ok deterministic || no deterministic
sort -t: -k1,1 -k2,2n -k3,3n -s "$t/a" | cmp -s - "$t/a" && ok sorted || no sorted

# instances: the catalog, all of it or one family, as text or JSON
expect_rc instances 0 "$TF" instances
grep -q '^p5.48xlarge  *8 x H100 ' "$t/out" && grep -q '^trn2.48xlarge ' "$t/out" && ok instances-table || no instances-table
expect_rc instances-family 0 "$TF" instances --family trn2
[ "$(grep -c '^trn2' "$t/out")" -ge 1 ] && ! grep -q '^p5' "$t/out" && ok instances-family-only || no instances-family-only
expect_rc instances-json 0 "$TF" instances --family p5 --format json
json_check instances-json-shape "$t/out" '
assert d["schemaVersion"] == 1
names = [i["name"] for i in d["instances"]]
assert "p5.48xlarge" in names and all(i["family"] == "p5" for i in d["instances"]), names
p5 = [i for i in d["instances"] if i["name"] == "p5.48xlarge"][0]
assert p5["accelerators"]["count"] == 8 and p5["efa"]["supported"] == "yes", p5
od = p5["price"]["onDemand"]
assert od["usdPerHour"] > 0 and od["region"] and od["date"] and od["source"], od
cb = p5["price"]["capacityBlock"]
assert cb and all(r["usdPerHour"] > 0 and r["region"] and r["date"] and r["source"] for r in cb), cb
assert p5["source"]
'
# a type with no on-demand price shows its Capacity Block rate, dated
expect_rc instances-capacity-block 0 "$TF" instances --family trn2
grep -q '^trn2.48xlarge .* unknown  *[0-9.]* (us-east-2, 20[0-9-]*)  *[0-9,]*$' "$t/out" && ok instances-capacity-block-rate || no instances-capacity-block-rate
# a job spec's type written short gets the catalog's full name
printf 'trainforge: 1\nname: j\ninstance: trn1.32xl\nnodes: 2\nentry: {script: /fsx/t.py}\ncluster: {subnet: subnet-0123456789abcdef0, ssh_key: k}\n' >"$t/short-type.yaml"
expect_rc spec-short-type 1 "$TF" lint "$t/short-type.yaml"
grep -q "help: did you mean 'trn1.32xlarge'? (\`trainforge instances\` lists the catalog)" "$t/out" && ok spec-short-type-did-you-mean || no spec-short-type-did-you-mean
expect_rc instances-unknown-family 2 "$TF" instances --family zz9
grep -q "no family 'zz9' in the catalog (families: .*trn2" "$t/err" && ok instances-unknown-family-message || no instances-unknown-family-message
expect_rc instances-bad-format 2 "$TF" instances --format xml

# rules
expect_rc rules 0 "$TF" rules
grep -q '^PC2101 *efa-without-placement-group *error' "$t/out" && ok rules-table || no rules-table
expect_rc version 0 "$TF" version

# plan: goldens (the one screen, -v, JSON, markdown), bad specs, usage
for fmt in txt verbose.txt json md; do
	case $fmt in txt) a="--format text" ;; verbose.txt) a="-v" ;; json) a="--format json" ;; md) a="--format markdown" ;; esac
	gold=tests/golden/plan-moe-176b-trn2.$fmt
	[ "$fmt" = verbose.txt ] && gold=tests/golden/plan-moe-176b-trn2-verbose.txt
	# shellcheck disable=SC2086 # $a is two words
	if "$TF" plan --hours 288 $a examples/jobs/moe-176b-trn2.yaml >"$t/plan" 2>"$t/err" &&
		cmp -s "$t/plan" "$gold"; then ok "plan-golden-$fmt"
	else no "plan-golden-$fmt"; diff "$gold" "$t/plan" | head -5; fi
done
# the one screen is five lines under its title, and -v adds to it
[ "$(grep -c '' tests/golden/plan-moe-176b-trn2.txt)" = 7 ] &&
	cmp -s tests/golden/plan-moe-176b-trn2.txt "$(head -7 tests/golden/plan-moe-176b-trn2-verbose.txt >"$t/head"; echo "$t/head")" &&
	grep -q '^  risk    ' tests/golden/plan-moe-176b-trn2.txt && ok plan-one-screen || no plan-one-screen
expect_rc plan-bad-format 2 "$TF" plan --format yaml examples/jobs/moe-176b-trn2.yaml
expect_rc plan-bad-spec 1 "$TF" plan tests/cases/JS2001/bad.yaml
grep -q 'JS2001' "$t/err" && ok plan-bad-spec-diagnostic || no plan-bad-spec-diagnostic
expect_rc plan-missing 2 "$TF" plan "$t/nope.yaml"
expect_rc plan-bad-hours 2 "$TF" plan --hours -3 examples/jobs/moe-176b-trn2.yaml
expect_rc lint-jobspec 0 "$TF" lint examples/jobs/moe-176b-trn2.yaml

# A per-node script started with srun by a batch script among the inputs
# is checked as running on every node; alone it is only noted.
mkdir -p "$t/pn"
printf '#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nset -euo pipefail\nsrun ./node.sh\n' >"$t/pn/job.sbatch"
printf '#!/bin/bash\ntorchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint="$1:29500" train.py\n' >"$t/pn/node.sh"
chmod +x "$t/pn/node.sh" # srun execs it as it is (SB2013)
# alone, it runs a launcher: a launch script, checked as if srun started
# it on each node (no SB2002); one that runs none gets the note
expect_rc per-node-alone 0 "$TF" lint --format concise --shellcheck off "$t/pn/node.sh"
[ ! -s "$t/out" ] && ok per-node-alone-is-launch-script || { no per-node-alone-is-launch-script; cat "$t/out"; }
printf '#!/bin/bash\nrsync -a /fsx/data/ /scratch/data/\n' >"$t/pn/stage.sh"
expect_rc per-node-no-launcher 0 "$TF" lint --format concise --shellcheck off "$t/pn/stage.sh"
grep -q '\[LN1008\]$' "$t/out" && ok per-node-alone-noted || no per-node-alone-noted
expect_rc per-node-with-caller 0 "$TF" lint --format concise --shellcheck off --ignore LN3002 "$t/pn/job.sbatch" "$t/pn/node.sh"
[ ! -s "$t/out" ] && ok per-node-runs-under-srun || { no per-node-runs-under-srun; cat "$t/out"; }
expect_rc per-node-forced 1 "$TF" lint --format concise --shellcheck off --kind sbatch "$t/pn/node.sh"
grep -q '\[SB2002\]$' "$t/out" && ok per-node-forced-is-checked || no per-node-forced-is-checked

# Findings of shellcheck: merged under SC codes, honoured by its own
# directives, and `required` fails the run when it cannot start.
if have shellcheck; then
	printf '#!/bin/bash\n#SBATCH --nodes=1\necho $UNQUOTED_x\n' >"$t/sc.sbatch"
	"$TF" lint --format concise --shellcheck auto "$t/sc.sbatch" >"$t/out" 2>/dev/null
	grep -q '\[SC2154\]$' "$t/out" && ok shellcheck-merged || { no shellcheck-merged; cat "$t/out"; }
	printf '#!/bin/bash\n#SBATCH --nodes=1\n# shellcheck disable=SC2154,SC2086\necho $UNQUOTED_x\n' >"$t/sc2.sbatch"
	"$TF" lint --format concise --shellcheck auto "$t/sc2.sbatch" >"$t/out" 2>/dev/null
	! grep -q 'SC2154' "$t/out" && ok shellcheck-own-directive || no shellcheck-own-directive
	"$TF" lint --format concise --ignore SC0000 "$t/sc.sbatch" >"$t/out" 2>/dev/null
	! grep -q '\[SC' "$t/out" && ok shellcheck-ignored || no shellcheck-ignored
	# a template's tags reach shellcheck as stand-ins of unknown value, and
	# what it finds at them is about the stand-in: only line 4 is the file's
	printf '#!/bin/bash\n#SBATCH --nodes={{ n }}\n{%% if x %%}\necho $UNQUOTED_x {{ a | join(" ") }}\n{%% endif %%}\n' >"$t/sc.sbatch.j2"
	"$TF" lint --format concise --shellcheck auto --ignore LN3002 "$t/sc.sbatch.j2" >"$t/out" 2>/dev/null
	# (LN1010 names the tags, at the first)
	[ "$(grep -v '\[LN1010\]$' "$t/out" | cut -d: -f2-3 | sort -u | tr '\n' ' ')" = "4:6 " ] &&
		grep -q '\[SC2154\]$' "$t/out" && grep -q ':2:17: .*\[LN1010\]$' "$t/out" &&
		ok shellcheck-template-tags || { no shellcheck-template-tags; cat "$t/out"; }
else
	skip "shellcheck-merged: shellcheck is not installed"
fi
expect_rc shellcheck-required-missing 2 "$TF" lint --shellcheck /nonexistent/shellcheck "$t/pn/job.sbatch"

# The time bound of shellcheck, against a stand-in that never finishes on a
# script saying STALL (in a child of its own, which only the end of its
# process group stops) and records the scripts it was given. A stalled
# batch is an LN2001 finding on each of its scripts; in auto mode that is
# all (exit 1), with `required` it is also trouble (exit 2). The stand-in
# is shell builtins up to its stall, done at once otherwise, well within
# the 2 s bound; timeout(1) is the hang guard.
mkdir -p "$t/scbin"
cat >"$t/scbin/shellcheck" <<EOF
#!/bin/sh
for f; do
	[ -f "\$f" ] || continue
	echo "\$f" >>"$t/sc-files"
	while IFS= read -r line; do
		case \$line in *STALL*) sleep 60 & echo \$! >"$t/sc-child"; wait ;; esac
	done <"\$f"
done
echo '{"comments":[]}'
EOF
chmod +x "$t/scbin/shellcheck"
printf '#!/bin/bash\n#SBATCH --nodes=1\n# STALL\nsrun hostname\n' >"$t/stall.sbatch"
printf '#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n' >"$t/quick.sbatch"
PATH="$t/scbin:$PATH" timeout 30 "$TF" lint --format concise --shellcheck auto --shellcheck-timeout 2 \
	--ignore LN3002 "$t/stall.sbatch" >"$t/out" 2>"$t/err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$t/out")" = 1 ] &&
	grep -q '^.*/stall.sbatch:1:1: warning: shellcheck did not finish on this script within 2.* s, so its findings are missing \[LN2001\]$' "$t/out" &&
	! grep -q 'required' "$t/err" && ok shellcheck-timeout-auto || { no "shellcheck-timeout-auto: exit $rc"; cat "$t/out" "$t/err"; }
child=$(cat "$t/sc-child" 2>/dev/null)
if [ -n "$child" ] && { ! kill -0 "$child" 2>/dev/null || grep -q ') Z ' "/proc/$child/stat" 2>/dev/null; }; then
	ok shellcheck-timeout-stops-the-group
else
	no "shellcheck-timeout-stops-the-group: the stand-in's child ${child:-(none)} is still running"
	[ -n "$child" ] && kill "$child" 2>/dev/null
fi
timeout 30 "$TF" lint --format concise --shellcheck "$t/scbin/shellcheck" --shellcheck-timeout 2 \
	"$t/stall.sbatch" "$t/quick.sbatch" >"$t/out" 2>"$t/err"
rc=$?
# one batch per core: on two or more, the quick script's batch finished
if [ "$(nproc)" -ge 2 ]; then stopped="1 script" quick_lost=0; else stopped="2 scripts" quick_lost=1; fi
[ "$rc" = 2 ] && grep -q 'stall.sbatch:1:1: .*\[LN2001\]$' "$t/out" &&
	[ "$(grep -c 'quick.sbatch:1:1: .*\[LN2001\]$' "$t/out")" = "$quick_lost" ] &&
	grep -q "shellcheck is required .*but it did not finish on $stopped within its time or memory bound" "$t/err" &&
	ok shellcheck-timeout-required || { no "shellcheck-timeout-required: exit $rc"; cat "$t/out" "$t/err"; }
# per-file-ignores of SC0000 (here --ignore) keep a script away from shellcheck
: >"$t/sc-files"
timeout 30 "$TF" lint --format concise --shellcheck "$t/scbin/shellcheck" --shellcheck-timeout 2 \
	--ignore SC0000,LN3002 "$t/stall.sbatch" >"$t/out" 2>"$t/err"
rc=$?
[ "$rc" = 0 ] && [ ! -s "$t/sc-files" ] && [ ! -s "$t/out" ] && ok shellcheck-off-where-sc-ignored ||
	{ no "shellcheck-off-where-sc-ignored: exit $rc"; cat "$t/out" "$t/sc-files"; }
expect_rc shellcheck-timeout-zero 2 "$TF" lint --shellcheck-timeout 0 "$t/quick.sbatch"
expect_rc shellcheck-timeout-word 2 "$TF" lint --shellcheck-timeout soon "$t/quick.sbatch"

# make install puts the binary, the man page and the bash completion in place.
make -s install PREFIX="$t/inst" >/dev/null 2>&1 && "$t/inst/bin/trainforge" version >/dev/null 2>&1 \
	&& [ -s "$t/inst/share/man/man1/trainforge.1" ] && [ -s "$t/inst/share/bash-completion/completions/trainforge" ] \
	&& ok make-install || no make-install
grep -q '^\.TH TRAINFORGE 1' docs/trainforge.1 && ok man-page || no man-page
bash -c '
	PATH='"$(dirname "$TF")"':$PATH
	. completions/trainforge.bash
	COMP_WORDS=(trainforge li); COMP_CWORD=1; _trainforge; [ "${COMPREPLY[*]}" = lint ] || exit 1
	COMP_WORDS=(trainforge lint --format sa); COMP_CWORD=3; _trainforge; [ "${COMPREPLY[*]}" = sarif ] || exit 1
	COMP_WORDS=(trainforge explain SB200); COMP_CWORD=2; _trainforge; [ "${#COMPREPLY[@]}" -ge 9 ] || exit 1
' && ok bash-completion || no bash-completion

# The command table: every flag accepted, listed by --help and completed.
sh tests/cli/table.sh
sh tests/cli/walk.sh
