#!/bin/sh
# The hooks of .pre-commit-hooks.yaml under Debian's pre-commit: a
# temporary git repository uses them (repo: a one-commit copy of the files
# they need, as tests/lib.sh's hooks_repo makes it), with the built binary
# first on PATH and TRAINFORGE_HOOK_BINARY=system (tests/dist/run.sh
# tests how they install a release). A bad
# cluster config is refused and its fix accepted; a generated file edited
# by hand is refused by trainforge-gen-check; a staged change to a cluster
# config that pcluster update-cluster refuses is refused by
# trainforge-update-check (against HEAD), and one it allows passes.
# Installs pre-commit with
# apt-get when it is missing. Prints RESULT lines. ok and no only print,
# so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

if ! have pre-commit && [ "$(id -u)" = 0 ] && have apt-get; then
	apt-get install -y pre-commit >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && apt-get install -y pre-commit >/dev/null 2>&1; }
fi
if ! have pre-commit; then
	skip "precommit: pre-commit is missing and apt-get could not install it"
	exit 0
fi

mkdir "$t/bin"
ln -s "$TF" "$t/bin/trainforge"
PATH=$t/bin:$PATH
PRE_COMMIT_HOME=$t/cache
XDG_CONFIG_HOME=$t/xdg
GIT_CONFIG_GLOBAL=$t/gitconfig
GIT_CONFIG_NOSYSTEM=1
export PATH PRE_COMMIT_HOME XDG_CONFIG_HOME GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
git config --global user.name trainforge-test
git config --global user.email test@example.invalid
git config --global init.defaultBranch main

# The hooks of the working tree, in a repository of their own, with the
# built binary on PATH as the one to run.
TRAINFORGE_HOOK_BINARY=system
export TRAINFORGE_HOOK_BINARY
hooks=$t/hooks
hooks_repo "$hooks" && rev=$(git -C "$hooks" rev-parse HEAD) && ok "hooks-repo" || { no "hooks-repo"; exit 0; }

r=$t/repo
git init -q "$r"
cat >"$r/.pre-commit-config.yaml" <<EOF
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: trainforge
      - id: trainforge-gen-check
      - id: trainforge-update-check
EOF
printf 'shellcheck: off\nexclude: [legacy]\n' >"$r/.trainforge.yaml"
(cd "$r" && pre-commit install >/dev/null 2>&1) && ok "install" || no "install"

commit() { # name, expected outcome (pass|fail), files to add...
	name=$1 want=$2
	shift 2
	(cd "$r" && git add -- "$@" && git commit -qm "$name") >"$t/log" 2>&1
	rc=$?
	if { [ "$want" = pass ] && [ "$rc" = 0 ]; } || { [ "$want" = fail ] && [ "$rc" != 0 ]; }; then
		ok "$name"
	else
		no "$name: commit exited $rc, expected the hooks to $want"
		sed 's/^/    /' "$t/log" | tail -30
	fi
}

commit plain-files-pass pass .pre-commit-config.yaml .trainforge.yaml
cp "$root/examples/broken/cluster.yaml" "$r/cluster.yaml"
commit bad-config-refused fail cluster.yaml
grep -q '\[PC2101\]' "$t/log" && ok "bad-config-shows-finding" || no "bad-config-shows-finding"
[ -z "$(cd "$r" && git log --oneline -- cluster.yaml)" ] && ok "bad-config-not-committed" || no "bad-config-not-committed"
cp "$root/examples/clusters/trn2-48xlarge.yaml" "$r/cluster.yaml"
commit fixed-config-passes pass cluster.yaml
mkdir "$r/legacy"
cp "$root/examples/broken/cluster.yaml" "$r/legacy/old.yaml"
commit excluded-file-passes pass legacy/old.yaml

# trainforge-gen-check: a spec beside the files gen wrote from it.
mkdir "$r/jobs"
cp "$root/examples/jobs/bert-g5.yaml" "$r/jobs/bert.yaml"
# from the repository root, as the hook runs it: the spec path is in the header
(cd "$r" && trainforge gen jobs/bert.yaml -o jobs >/dev/null 2>&1)
commit generated-files-pass pass jobs
echo "# edited by hand" >>"$r/jobs/bert-large.sbatch"
commit hand-edit-refused fail jobs/bert-large.sbatch
grep -q 'differs from the spec' "$t/log" && ok "hand-edit-says-why" || no "hand-edit-says-why"
(cd "$r" && trainforge gen --force jobs/bert.yaml -o jobs >/dev/null 2>&1 && git add jobs &&
	pre-commit run --all-files) >"$t/log" 2>&1 && ok "regenerated-passes" || no "regenerated-passes"
sed 's/^nodes: 2$/nodes: 4/' "$r/jobs/bert.yaml" >"$t/spec" && cp "$t/spec" "$r/jobs/bert.yaml"
commit spec-change-without-gen-refused fail jobs/bert.yaml
(cd "$r" && trainforge gen --force jobs/bert.yaml -o jobs >/dev/null 2>&1)
commit spec-change-with-gen-passes pass jobs

# trainforge-update-check: the staged version against HEAD's. The first
# commit above had no HEAD to compare with, and passed.
sed 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' "$r/cluster.yaml" >"$t/head-changed"
cp "$t/head-changed" "$r/cluster.yaml"
commit head-node-change-refused fail cluster.yaml
grep -q '\[PC5001\]' "$t/log" && grep -q 'HeadNode.InstanceType c5.4xlarge -> c5.9xlarge' "$t/log" &&
	ok "head-node-change-says-why" || no "head-node-change-says-why"
(cd "$r" && git reset -q && git checkout -q -- cluster.yaml) || no "restore cluster.yaml"
# what is judged is what is staged: an unstaged head node change is
# stashed by pre-commit while a larger MaxCount is committed
sed 's/MaxCount: 64/MaxCount: 96/' "$r/cluster.yaml" >"$t/grown"
cp "$t/grown" "$r/cluster.yaml"
(cd "$r" && git add cluster.yaml)
sed 's/InstanceType: c5.4xlarge/InstanceType: c5.9xlarge/' "$t/grown" >"$r/cluster.yaml"
if (cd "$r" && git commit -qm larger-max-count) >"$t/log" 2>&1; then
	ok "staged-larger-max-count-passes"
else
	no "staged-larger-max-count-passes"
	sed 's/^/    /' "$t/log" | tail -20
fi
(cd "$r" && git show HEAD:cluster.yaml) | grep -q 'MaxCount: 96' && grep -q 'c5.9xlarge' "$r/cluster.yaml" &&
	ok "unstaged-change-kept-out" || no "unstaged-change-kept-out"

# Noise and silence: a YAML file of no known kind is skipped without a
# word (--skip-unknown); a batch script committed alone is checked
# against the only cluster config git tracks (--pair-tracked), and says
# so.
printf 'services:\n  web:\n    image: nginx\n' >"$r/compose.yaml"
(cd "$r" && git add compose.yaml && pre-commit run trainforge --verbose --files compose.yaml) >"$t/log" 2>&1 &&
	! grep -q 'LN1008' "$t/log" && ok unrelated-yaml-silent || { no unrelated-yaml-silent; tail -20 "$t/log"; }
commit unrelated-yaml-passes pass compose.yaml
# (in a repository of its own, whose only cluster config is committed)
full=$r
r=$t/pair-repo
git init -q "$r"
cp "$full/.pre-commit-config.yaml" "$full/.trainforge.yaml" "$r/"
cp "$root/examples/clusters/trn2-48xlarge.yaml" "$r/cluster.yaml"
(cd "$r" && pre-commit install >/dev/null 2>&1)
commit pair-repo-config pass .pre-commit-config.yaml .trainforge.yaml cluster.yaml
mkdir -p "$r/jobs"
printf '#!/bin/bash\n#SBATCH --partition=nope\n#SBATCH --nodes=2\n#SBATCH --exclusive\nsrun hostname\n' >"$r/jobs/alone.sbatch"
commit script-alone-paired-refused fail jobs/alone.sbatch
grep -q "partition 'nope' is not a queue of cluster.yaml" "$t/log" && grep -q '\[LN3003\]' "$t/log" &&
	ok script-alone-paired-with-tracked-config || { no script-alone-paired-with-tracked-config; tail -20 "$t/log"; }
# on its queue it is a Neuron job over EFA: checks that ran only because it was paired
printf '#!/bin/bash\n#SBATCH --partition=trn2\n#SBATCH --nodes=2\n#SBATCH --exclusive\nexport FI_PROVIDER=efa FI_EFA_USE_DEVICE_RDMA=1 NEURON_COMPILE_CACHE_URL=/fsx/neuron-cache\nsrun hostname\n' >"$r/jobs/alone.sbatch"
commit script-alone-right-partition-passes pass jobs/alone.sbatch
r=$full

# The stanza `trainforge init` prints, as it prints it, in a repository of
# its own: init's files commit cleanly through it.
i=$t/init-repo
git init -q "$i"
(cd "$i" && trainforge init . 2>"$t/init.err" >/dev/null)
sed -n '/^repos:$/,/^Then:$/p' "$t/init.err" | sed '$d' >"$i/.pre-commit-config.yaml"
grep -q 'require_serial: true' "$i/.pre-commit-config.yaml" && grep -q '^  pre-commit install$' "$t/init.err" &&
	ok init-stanza-printed || { no init-stanza-printed; cat "$t/init.err"; }
(cd "$i" && pre-commit install >/dev/null 2>&1 && git add . && git commit -qm init) >"$t/log" 2>&1 &&
	ok init-files-commit-through-init-stanza || { no init-files-commit-through-init-stanza; tail -20 "$t/log"; }
