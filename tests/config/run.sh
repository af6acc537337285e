#!/bin/sh
# .trainforge.yaml: discovery from each file up to the repository root,
# extends, per-file-ignores, exclude (named files too), the cluster
# and shellcheck keys, the user file, --config, --isolated, flags over files,
# errors with positions, --show-config with origins; and `trainforge
# init`. Everything runs in a temporary tree with its own .git and
# XDG_CONFIG_HOME. Prints RESULT lines. ok and no only print, so
# "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
export XDG_CONFIG_HOME="$t/xdg"
cases=$root/tests/cases
lint() { "$TF" lint --format concise --shellcheck off "$@"; }

r=$t/repo
run_dir=$r # where expect_rc runs its command
mkdir -p "$r/.git" "$r/sub/deep" "$r/other" "$r/near" "$r/clusters" "$r/build/x" "$r/a/generated" "$r/jobs"
cp "$cases/PC1004/bad.yaml" "$r/c.yaml"
cp "$cases/PC1004/bad.yaml" "$r/sub/deep/c.yaml"
cp "$cases/PC1004/bad.yaml" "$r/other/c.yaml"
cp "$cases/PC1004/bad.yaml" "$r/near/c.yaml"
cp "$cases/PC2101/bad.yaml" "$r/other/pg.yaml"
cp "$cases/PC2101/bad.yaml" "$r/clusters/test-a.yaml"
cp "$cases/PC2101/bad.yaml" "$r/clusters/prod.yaml"
cp "$cases/PC2101/bad.yaml" "$r/build/x/bad.yaml"
cp "$cases/PC2101/bad.yaml" "$r/a/generated/bad.yaml"
cp "$cases/_clusters/trn2.yaml" "$r/clusters/trn2.yaml"
grep -v 'trainforge cluster=' "$cases/SB3001/bad.sbatch" >"$r/jobs/train.sbatch"
cat >"$r/.trainforge.yaml" <<'EOF'
# the project's settings
ignore: [PC1004]
per-file-ignores:
  "clusters/test-*.yaml": [PC2101]
exclude: ["build/**", generated]
EOF
cat >"$r/other/.trainforge.yaml" <<'EOF'
extends: ../.trainforge.yaml
severity:
  PC2101: info
fail-level: error
EOF
cat >"$r/near/.trainforge.yaml" <<'EOF'
severity: {PC1004: warning}
EOF

# Discovery: the closest file, from the file's directory up to the root.
expect_rc discovery-root 0 lint c.yaml
expect_rc discovery-upward 0 lint sub/deep/c.yaml
hasnt discovery-upward-ignores "PC1004" "$t/out"
expect_rc discovery-from-another-cwd 0 sh -c "cd sub && $TF lint --shellcheck off deep/c.yaml"
expect_rc discovery-closest-wins 1 lint near/c.yaml
has discovery-closest-no-merge "warning: .*\[PC1004\]" "$t/out"
expect_rc discovery-stdin-filename 0 sh -c "$TF lint --shellcheck off --stdin-filename sub/deep/c.yaml - <c.yaml"

# extends: the child over its parent.
expect_rc extends-inherits 0 lint other/c.yaml
hasnt extends-inherits-ignore "PC1004" "$t/out"
expect_rc extends-child-overrides 0 lint other/pg.yaml
has extends-child-severity "info: .*\[PC2101\]" "$t/out"

# per-file-ignores and exclude (which holds for named files too).
expect_rc per-file-ignores-match 0 lint clusters/test-a.yaml
expect_rc per-file-ignores-other 1 lint clusters/prod.yaml
has per-file-ignores-other-shows "\[PC2101\]" "$t/out"
expect_rc exclude-named-file 0 lint build/x/bad.yaml
hasnt exclude-named-file-silent "PC2101" "$t/out"
expect_rc exclude-bare-name 0 lint a/generated/bad.yaml
expect_rc exclude-walk 1 lint .
hasnt exclude-walk-skips "build/\|generated/" "$t/out"
has exclude-walk-lints-others "clusters/prod.yaml" "$t/out"

# cluster and shellcheck keys.
expect_rc cluster-key-unset 0 lint jobs/train.sbatch
printf 'cluster: ../clusters/trn2.yaml\n' >"$r/jobs/.trainforge.yaml"
expect_rc cluster-key 1 lint jobs/train.sbatch
has cluster-key-pairs "not a queue of .*clusters/trn2.yaml.*\[SB3001\]" "$t/out"
printf 'shellcheck: ./no-such-shellcheck\n' >"$r/jobs/.trainforge.yaml"
expect_rc shellcheck-key 2 "$TF" lint jobs/train.sbatch
has shellcheck-key-message "shellcheck could not run" "$t/err"
expect_rc shellcheck-flag-wins 0 "$TF" lint --shellcheck off --select SB3 jobs/train.sbatch
printf 'shellcheck-timeout: 2.5\n' >"$r/jobs/.trainforge.yaml"
expect_rc shellcheck-timeout-key 0 "$TF" lint --show-config jobs/train.sbatch
has shellcheck-timeout-key-shown "^shellcheck-timeout: 2.5  # jobs/.trainforge.yaml:1$" "$t/out"
expect_rc shellcheck-timeout-flag-wins 0 "$TF" lint --show-config jobs/train.sbatch --shellcheck-timeout 7
has shellcheck-timeout-flag-shown "^shellcheck-timeout: 7  # --shellcheck-timeout$" "$t/out"
printf 'shellcheck-timeout: 0\n' >"$r/jobs/.trainforge.yaml"
expect_rc shellcheck-timeout-zero 2 "$TF" lint --shellcheck off jobs/train.sbatch
has shellcheck-timeout-zero-message "jobs/.trainforge.yaml:1:21: error: 0 is out of range" "$t/err"
printf 'shellcheck-timeout: soon\n' >"$r/jobs/.trainforge.yaml"
expect_rc shellcheck-timeout-string 2 "$TF" lint --shellcheck off jobs/train.sbatch
rm "$r/jobs/.trainforge.yaml"

# Flags win: --select replaces, --ignore adds, --severity, --fail-level.
expect_rc flag-select-replaces 1 lint --select PC1004 c.yaml
has flag-select-shows "\[PC1004\]" "$t/out"
expect_rc flag-ignore-adds 0 lint --ignore PC2101 clusters/prod.yaml
expect_rc flag-severity 0 lint --severity PC2101=info clusters/prod.yaml
expect_rc flag-fail-level 1 lint --fail-level info other/pg.yaml
expect_rc config-fail-level 0 lint --select PC2101 --severity PC2101=warning other/pg.yaml

# --config FILE for every input; --isolated; the user file.
printf 'select: [PC1004]\n' >"$t/alt.yaml"
expect_rc config-flag 1 lint --config "$t/alt.yaml" c.yaml other/pg.yaml
has config-flag-applies "\[PC1004\]" "$t/out"
hasnt config-flag-no-discovery "PC2101" "$t/out"
expect_rc config-flag-missing 2 lint --config "$t/none.yaml" c.yaml
expect_rc isolated 1 lint --isolated c.yaml
has isolated-no-config "\[PC1004\]" "$t/out"
expect_rc isolated-with-config 2 lint --isolated --config "$t/alt.yaml" c.yaml
mkdir -p "$t/xdg/trainforge" "$t/plain/.git"
cp "$cases/PC1004/bad.yaml" "$t/plain/c.yaml"
printf 'ignore: [PC1004]\n' >"$t/xdg/trainforge/config.yaml"
expect_rc user-file 0 lint "$t/plain/c.yaml"
printf 'select: [PC1004]\n' >"$t/xdg/trainforge/config.yaml"
expect_rc user-file-not-over-project 0 lint c.yaml
expect_rc user-file-isolated 1 lint --isolated "$t/plain/c.yaml"
rm -r "$t/xdg/trainforge"

# --show-config: the resolved settings with the origin of each.
expect_rc show-config 0 "$TF" lint --show-config other/pg.yaml --severity PC1001=info
has show-config-chain "^  - other/.trainforge.yaml$" "$t/out"
has show-config-extends "^  - .trainforge.yaml  # extended by other/.trainforge.yaml$" "$t/out"
has show-config-fail-level "^fail-level: error  # other/.trainforge.yaml:4$" "$t/out"
has show-config-ignore "^  PC1004: ignore  # .trainforge.yaml:2$" "$t/out"
has show-config-severity "^  PC2101: info  # other/.trainforge.yaml:3$" "$t/out"
has show-config-flag "^  PC1001: info  # --severity$" "$t/out"
has show-config-default "^shellcheck: auto  # default$" "$t/out"
has show-config-timeout-default "^shellcheck-timeout: 10  # default$" "$t/out"
expect_rc show-config-per-file 0 "$TF" lint --show-config clusters/test-a.yaml
has show-config-per-file-origin "^  PC2101: per-file-ignores  # .trainforge.yaml:4$" "$t/out"
expect_rc show-config-exclude 0 "$TF" lint --show-config build/x/bad.yaml
has show-config-exclude-origin "^excluded: true  # .trainforge.yaml:5$" "$t/out"
expect_rc show-config-isolated 0 "$TF" lint --isolated --show-config c.yaml
has show-config-isolated-none "^config: \[\]  # --isolated$" "$t/out"

# Templates: define and env-file give placeholders their values, per
# directory; --define wins over both; --show-config says where each came from.
mkdir -p "$r/tpl"
cp "$cases/PC0005/bad-template-define.yaml" "$r/tpl/cluster.yaml"
printf 'export SUBNET=subnet-xyz\nAWS_REGION=us-east-2\n' >"$r/tpl/values.env"
cat >"$r/tpl/.trainforge.yaml" <<'EOF2'
env-file: values.env
define:
  NODES: 4
EOF2
expect_rc define-env-file 1 lint tpl/cluster.yaml
has define-env-file-checked "^tpl/cluster.yaml:7:15: error: 'subnet-xyz' is not a valid SubnetId \[PC0005\]$" "$t/out"
hasnt define-env-file-no-placeholders "LN1010" "$t/out"
expect_rc define-flag-wins 0 lint --define SUBNET=subnet-0123456789abcdef0 tpl/cluster.yaml
expect_rc define-show-config 0 "$TF" lint --show-config tpl/cluster.yaml --define AWS_REGION=us-west-2
has define-show-env "^  SUBNET: \"subnet-xyz\"  # tpl/.trainforge.yaml:1$" "$t/out"
has define-show-map "^  NODES: \"4\"  # tpl/.trainforge.yaml:3$" "$t/out"
has define-show-flag "^  AWS_REGION: \"us-west-2\"  # --define$" "$t/out"
printf 'env-file: nowhere.env\n' >"$r/tpl/.trainforge.yaml"
expect_rc define-env-file-missing 2 lint tpl/cluster.yaml
has define-env-file-missing-message "^tpl/.trainforge.yaml:1:11: error: env-file: cannot read 'nowhere.env'" "$t/err"
printf 'not a definition\n' >"$r/tpl/values.env"
printf 'env-file: values.env\n' >"$r/tpl/.trainforge.yaml"
expect_rc define-env-file-bad-line 2 lint tpl/cluster.yaml
has define-env-file-bad-line-message "env-file: line 1 of 'values.env' is not a definition" "$t/err"
printf 'define: {NODES: [4]}\n' >"$r/tpl/.trainforge.yaml"
expect_rc define-not-scalar 2 lint tpl/cluster.yaml
rm -r "$r/tpl"

# Mistakes in a config: exit 2, file:line:col on stderr, the others linted.
bad() { # name, config text, expected message
	printf '%s\n' "$2" >"$r/near/.trainforge.yaml"
	expect_rc "$1" 2 lint near/c.yaml c.yaml
	has "$1-message" "$3" "$t/err"
}
bad unknown-key 'ignore: [PC2101]
selcet: [PC]' "^near/.trainforge.yaml:2:1: error: unknown key 'selcet'"
has unknown-key-hint "did you mean 'select'" "$t/err"
bad unknown-rule 'ignore: [PC2101, PC9999]' "^near/.trainforge.yaml:1:18: error: unknown rule selector 'PC9999'"
bad unknown-severity-rule 'severity: {efa-without-placment-group: info}' "^near/.trainforge.yaml:1:12: error: unknown rule"
bad bad-fail-level 'fail-level: fatal' "^near/.trainforge.yaml:1:13: error: 'fatal' is not one of"
bad bad-type 'exclude: build' "^near/.trainforge.yaml:1:10: error: expected a list"
bad bad-yaml 'select: [PC' "^near/.trainforge.yaml:2:1: error: YAML syntax error"
bad extends-missing 'extends: nope.yaml' "^near/.trainforge.yaml:1:10: error: extends: cannot read 'nope.yaml'"
bad extends-cycle 'extends: .trainforge.yaml' "extends this file again (a cycle)"
(cd "$r" && lint near/c.yaml near/c.yaml c.yaml) >/dev/null 2>"$t/err"
[ "$(grep -c 'a cycle' "$t/err")" = 1 ] && ok "errors-reported-once" || no "errors-reported-once"
printf '# nothing but a comment\n' >"$r/near/.trainforge.yaml"
expect_rc empty-config 1 lint near/c.yaml

# trainforge init
i=$t/init
expect_rc init 0 "$TF" init "$i"
[ -f "$i/.trainforge.yaml" ] && [ -f "$i/job.yaml" ] && ok init-writes || no init-writes
has init-stanza "id: trainforge" "$t/err"
has init-stanza-system "language: system" "$t/err"
expect_rc init-config-loads 0 "$TF" lint --show-config "$i/job.yaml"
has init-config-used "^  - .*init/.trainforge.yaml$" "$t/out"
expect_rc init-job-lints-clean 0 "$TF" lint --shellcheck off "$i/job.yaml"
mkdir "$i/out"
expect_rc init-job-generates 0 "$TF" gen "$i/job.yaml" -o "$i/out"
expect_rc init-again-unchanged 0 "$TF" init "$i"
echo "# mine" >>"$i/.trainforge.yaml"
cp "$i/job.yaml" "$t/job.before"
expect_rc init-refuses 2 "$TF" init "$i"
has init-refuses-message "exists and differs; not overwritten without --force" "$t/err"
grep -q '# mine' "$i/.trainforge.yaml" && ok init-refuses-keeps || no init-refuses-keeps
expect_rc init-force 0 "$TF" init --force "$i"
hasnt init-force-overwrites "# mine" "$i/.trainforge.yaml"
