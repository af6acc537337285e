#!/bin/sh
# The target versions end to end: --target on lint, gen, plan and schema
# (exit 2 with the known versions for a bad one); target: in
# .trainforge.yaml, layered with extends and the flags, as --show-config
# shows it; findings that depend on the version naming it; the json and
# sarif run properties; every example job generated for every
# ParallelCluster line and for Slurm 22.05 linting clean. Prints RESULT
# lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=targets/
cases=$root/tests/cases

# ---- bad values: exit 2, a message that lists what is known --------------
for cmd in "lint $cases/PC0010/bad.yaml" "gen -o $t examples/jobs/bert-g5.yaml" \
	"plan examples/jobs/bert-g5.yaml" "schema parallelcluster"; do
	c=${cmd%% *}
	# shellcheck disable=SC2086
	expect_rc "$c-bad-pc" 2 "$TF" $cmd --target parallelcluster=3.9
	has "$c-bad-pc-lists-known" "known: 3.11 to 3.16, or a release: 3.11.0" "$t/err"
	[ -s "$t/out" ] && no "$c-bad-pc-no-output" || ok "$c-bad-pc-no-output"
	# shellcheck disable=SC2086
	expect_rc "$c-bad-slurm" 2 "$TF" $cmd --target slurm=21.08
	has "$c-bad-slurm-lists-known" "known: 22.05, 23.02, 23.11, 24.05, 24.11, 25.05, 25.11, 26.05" "$t/err"
	# shellcheck disable=SC2086
	expect_rc "$c-bad-kind" 2 "$TF" $cmd --target pcluster=3.13
	has "$c-bad-kind-says-how" "parallelcluster=VERSION, slurm=VERSION" "$t/err"
done
expect_rc unlisted-patch 2 "$TF" lint --target parallelcluster=3.14.2 "$cases/PC0010/bad.yaml"
has unlisted-patch-names-the-line "no source gives its Slurm); name its line, parallelcluster=3.14" "$t/err"
expect_rc target-without-value 2 "$TF" lint "$cases/PC0010/bad.yaml" --target
expect_rc target-equals-form 1 "$TF" lint --format concise --target=parallelcluster=3.13 "$cases/PC0008/bad.yaml"
has target-equals-form-applies "needs ParallelCluster 3.15 or later; the target is 3.13" "$t/out"

# ---- .trainforge.yaml -----------------------------------------------------
r=$t/repo
mkdir -p "$r/.git" "$r/old" "$r/local"
cp "$cases/PC0008/bad.yaml" "$r/lto.yaml"
cp "$cases/PC0008/bad.yaml" "$r/old/lto.yaml"
cp "$cases/SB2009/bad.sbatch" "$r/local/logs.sbatch"
cp "$cases/SB2009/bad.sbatch" "$r/logs.sbatch"
printf 'target:\n  parallelcluster: 3.13\n' >"$r/.trainforge.yaml"
printf 'extends: ../.trainforge.yaml\ntarget:\n  parallelcluster: "3.11"\n' >"$r/old/.trainforge.yaml"
printf 'extends: ../.trainforge.yaml\ntarget: {slurm: 22.05}\n' >"$r/local/.trainforge.yaml"
run_dir=$r
expect_rc config-target 1 "$TF" lint --format concise lto.yaml
has config-target-applies "the target is 3.13 \[PC0008\]" "$t/out"
expect_rc config-target-child 1 "$TF" lint --format concise old/lto.yaml
has config-target-child-wins "the target is 3.11 \[PC0008\]" "$t/out"
expect_rc flag-over-config 0 "$TF" lint --format concise --target parallelcluster=3.15 lto.yaml old/lto.yaml
expect_rc show-config-target 0 "$TF" lint --show-config lto.yaml
has show-config-pc '^  parallelcluster: "3.13"  # .trainforge.yaml:2$' "$t/out"
has show-config-slurm-of-pc '^  slurm: "24.05.8"  # what ParallelCluster 3.13.1 ships, by .trainforge.yaml:2$' "$t/out"
expect_rc show-config-slurm-only 0 "$TF" lint --show-config local/logs.sbatch
# the parent names ParallelCluster 3.13, the child Slurm alone: both hold
has show-config-slurm-only-pc '^  parallelcluster: "3.13"  # .trainforge.yaml:2$' "$t/out"
has show-config-slurm-only-slurm '^  slurm: "22.05"  # local/.trainforge.yaml:2$' "$t/out"
expect_rc show-config-flag 0 "$TF" lint --show-config lto.yaml --target slurm=25.11 --target parallelcluster=3.16.0
has show-config-flag-pc '^  parallelcluster: "3.16.0"  # --target$' "$t/out"
has show-config-flag-slurm '^  slurm: "25.11"  # --target$' "$t/out"
expect_rc show-config-default 0 "$TF" lint --isolated --show-config lto.yaml
has show-config-default-pc '^  parallelcluster: "3.16"  # default$' "$t/out"
has show-config-default-slurm '^  slurm: "25.11.8"  # what ParallelCluster 3.16.3 ships, by default$' "$t/out"
# SB2009 holds for the local 22.05 cluster only
expect_rc slurm-only-target 0 "$TF" lint --format concise --shellcheck off --fail-level error local/logs.sbatch
has slurm-only-target-sb2009 "Slurm 22.05 does not create logs/ (23.02 and later do) \[SB2009\]" "$t/out"
expect_rc default-target-no-sb2009 0 "$TF" lint --format concise --shellcheck off logs.sbatch
hasnt default-target-no-sb2009-finding "SB2009" "$t/out"
# an unquoted 3.10 is still 3.10 (YAML reads 3.1), and names the known versions
mkdir -p "$r/bad"
printf 'target:\n  parallelcluster: 3.10\n' >"$r/bad/.trainforge.yaml"
cp "$cases/PC0008/bad.yaml" "$r/bad/c.yaml"
expect_rc config-bad-target 2 "$TF" lint --format concise bad/c.yaml
has config-bad-target-position "bad/.trainforge.yaml:2:20: error: target.parallelcluster: unknown ParallelCluster version '3.10'" "$t/err"
printf 'target:\n  parallelcluster: "3.13"\n  pcluster: "3.13"\n' >"$r/bad/.trainforge.yaml"
expect_rc config-unknown-target-key 2 "$TF" lint --format concise bad/c.yaml
has config-unknown-target-key-says "unknown key 'pcluster'" "$t/err"
run_dir=

# ---- machine formats carry the targets ------------------------------------
"$TF" lint --isolated --format json --target slurm=22.05 "$cases/SB2009/bad.sbatch" >"$t/one.json" 2>/dev/null
json_check json-target "$t/one.json" 'p = d["properties"]
assert p["target"] == {"parallelcluster": "3.16", "slurm": "22.05"}, p
assert p["targets"] == [p["target"]], p'
(cd "$r" && "$TF" lint --format json lto.yaml old/lto.yaml) >"$t/two.json" 2>/dev/null
json_check json-two-targets "$t/two.json" 'p = d["properties"]
assert "target" not in p, p
assert {(x["parallelcluster"], x["slurm"]) for x in p["targets"]} == {("3.13", "24.05.8"), ("3.11", "23.11.10")}, p'
"$TF" lint --isolated --format sarif --target parallelcluster=3.14 "$cases/PC0008/bad.yaml" >"$t/one.sarif" 2>/dev/null
json_check sarif-target "$t/one.sarif" 'p = d["runs"][0]["properties"]
assert p["target"] == {"parallelcluster": "3.14", "slurm": "24.11.6"}, p'
"$TF" lint --isolated --format sarif "$t/nothing-here" >"$t/none.sarif" 2>/dev/null
json_check sarif-target-without-files "$t/none.sarif" 'p = d["runs"][0]["properties"]
assert p["target"] == {"parallelcluster": "3.16", "slurm": "25.11.8"}, p'

# ---- generated files lint clean for every target ------------------------
mkdir -p "$t/gen"
for target in parallelcluster=3.11 parallelcluster=3.12 parallelcluster=3.13 parallelcluster=3.14 \
	parallelcluster=3.15 parallelcluster=3.16 slurm=22.05 slurm=26.05; do
	failed=
	for job in examples/jobs/*.yaml; do
		rm -rf "$t/gen" && mkdir "$t/gen"
		# a Trainium example on Ubuntu 24.04 (its Neuron release needs
		# it) stops gen before ParallelCluster 3.13, at the os line
		case "$target" in parallelcluster=3.1[12])
			if grep -q 'os: ubuntu2404' "$job"; then
				if "$TF" gen --target "$target" -o "$t/gen" "$job" >/dev/null 2>"$t/err" ||
					! grep -q "'ubuntu2404' needs ParallelCluster 3.13 or later.*\[JS0005\]" "$t/err"; then
					failed="$failed $job(not refused at os)"
					head -5 "$t/err"
				fi
				continue
			fi ;;
		esac
		if ! "$TF" gen --target "$target" -o "$t/gen" "$job" >/dev/null 2>"$t/err"; then
			failed="$failed $job"
			head -5 "$t/err"
			continue
		fi
		# the written files, checked again by lint for the same target
		"$TF" lint --isolated --shellcheck off --format concise --target "$target" "$t/gen" >"$t/out" 2>/dev/null ||
			{ failed="$failed $job(lint)"; cat "$t/out"; }
	done
	[ -z "$failed" ] && ok "gen-clean-at-$target" || no "gen-clean-at-$target:$failed"
done
# a spec value newer than the target stops gen, at the spec's line
sed 's/^cluster: {/cluster: {os: ubuntu2404, /' examples/jobs/bert-g5.yaml >"$t/spec.yaml"
expect_rc gen-spec-value-newer 1 "$TF" gen --target parallelcluster=3.12 -o "$t/gen" "$t/spec.yaml"
has gen-spec-value-newer-says "'ubuntu2404' needs ParallelCluster 3.13 or later; the target is 3.12 \[JS0005\]" "$t/err"
rm -rf "$t/gen" && mkdir "$t/gen"
expect_rc gen-spec-value-at-target 0 "$TF" gen --target parallelcluster=3.13 -o "$t/gen" "$t/spec.yaml"
has gen-spec-value-written "Os: ubuntu2404" "$t/gen/bert-large-cluster.yaml"
expect_rc plan-spec-value-newer 1 "$TF" plan --target parallelcluster=3.11 "$t/spec.yaml"
expect_rc plan-at-target 0 "$TF" plan --target parallelcluster=3.13 "$t/spec.yaml"
expect_rc lint-spec-value-newer 1 "$TF" lint --isolated --format concise --target parallelcluster=3.12 "$t/spec.yaml"
has lint-spec-value-newer-says "the target is 3.12 \[JS0005\]" "$t/out"

# ---- Neuron on alinux2: what to use instead is what the target has -------
expect_rc neuron-os-3.12 1 "$TF" lint --isolated --shellcheck off --target parallelcluster=3.12 "$cases/PC3001/bad.yaml"
has neuron-os-3.12-finding "\[PC3001\]" "$t/out"
has neuron-os-3.12-help "help: use Os alinux2023 or ubuntu2204$" "$t/out"
expect_rc neuron-os-3.13 1 "$TF" lint --isolated --shellcheck off --target parallelcluster=3.13 "$cases/PC3001/bad.yaml"
has neuron-os-3.13-help "help: use Os alinux2023, ubuntu2204 or ubuntu2404$" "$t/out"
