#!/bin/sh
# ParallelCluster 3.11's own package as the oracle for target 3.11: its
# schema and offline validators (../shared/tools/pcluster_offline_validate.py
# over ../shared/vendor) and `trainforge lint --target
# parallelcluster=3.11` judge the same files, and must agree. The files:
# the shared config corpus (valid, invalid, valid-schema-only), every
# cluster config in examples/, the configs `trainforge gen` writes for
# examples/jobs at that target, the version cases of the PC000x rules
# (keys and values of later releases, which 3.11 rejects, and those later
# releases removed, which it accepts), the cases of how values read (each
# scalar form, converted values, a byte-order mark, look-alikes, near-miss
# kinds), and the templates of the rule cases: the oracle judges each as
# rendered with the values of templates.tsv (render.py: Jinja, envsubst,
# <NAME>), trainforge the template itself with those values (--define). A verdict is OK or INVALID: for the
# oracle, any schema error or validator ERROR; for trainforge, a finding
# at error level. Both are printed per file. A disagreement fails unless
# expected.tsv lists it with a reason; a listed one that agrees fails
# too. Prints RESULT lines and the counts.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
result_prefix=oracle/
shared=${TF_SHARED:-../shared}
oracle=$shared/tools/pcluster_offline_validate.py
corpus=$shared/corpus/parallelcluster
expected=tests/oracle/expected.tsv
if [ ! -f "$oracle" ] || [ ! -d "$corpus" ]; then
	skip "pcluster-3.11: $oracle or $corpus not found (set TF_SHARED)"
	exit 0
fi
if ! /usr/bin/python3 -c 'import marshmallow, yaml, boto3' 2>/dev/null; then
	skip "pcluster-3.11: /usr/bin/python3 lacks marshmallow, yaml or boto3 (sh tools/deps.sh installs them)"
	exit 0
fi

# name (as expected.tsv and the report say it) <TAB> path, one per line
list=$t/files
: >"$list"
for sub in valid invalid valid-schema-only; do
	for f in "$corpus/$sub"/*.yaml; do printf 'corpus/%s/%s\t%s\n' "$sub" "${f##*/}" "$f" >>"$list"; done
done
for f in examples/clusters/*.yaml examples/broken/cluster.yaml examples/jobs/out/*-cluster.yaml; do
	printf '%s\t%s\n' "$f" "$f" >>"$list"
done
mkdir -p "$t/gen"
for job in examples/jobs/*.yaml; do
	# Ubuntu 24.04 needs ParallelCluster 3.13 (tests/gen/run.sh checks
	# that gen says so at 3.11): no config of such a job is 3.11's
	grep -q 'os: ubuntu2404' "$job" && continue
	if ! "$TF" gen --target parallelcluster=3.11 -o "$t/gen" "$job" >/dev/null 2>"$t/err"; then
		no "gen-$job: trainforge gen --target parallelcluster=3.11 failed"
		head -5 "$t/err"
	fi
done
for f in "$t/gen"/*-cluster.yaml; do printf 'gen/%s\t%s\n' "${f##*/}" "$f" >>"$list"; done
for f in tests/cases/PC0007/*.yaml tests/cases/PC0008/*.yaml tests/cases/PC0009/*.yaml tests/cases/PC0010/*.yaml \
	tests/cases/PC0003/*-string-*.yaml tests/cases/PC0003/*-integer-*.yaml tests/cases/PC0003/*-boolean-*.yaml \
	tests/cases/PC0003/bad-null.yaml tests/cases/PC0011/*.yaml tests/cases/LN1001/good-byte-order-mark.yaml \
	tests/cases/PC1004/*.yaml tests/cases/PC0002/bad-near-kind-*.yaml tests/cases/LN1008/good-near-miss.yaml; do
	printf '%s\t%s\n' "$f" "$f" >>"$list"
done
# templates: name, the rendered file, the template, its --define values
if ! /usr/bin/python3 -c 'import jinja2' 2>/dev/null; then
	no "templates: /usr/bin/python3 lacks jinja2 (sh tools/deps.sh installs python3-jinja2)"
elif ! /usr/bin/python3 tests/oracle/render.py tests/oracle/templates.tsv "$t/rendered" >>"$list" 2>"$t/err"; then
	no "templates: tests/oracle/render.py failed"
	head -5 "$t/err"
fi

# The oracle, once over every file: "OK|INVALID PATH" lines.
cut -f2 "$list" | tr '\n' '\0' | xargs -0 /usr/bin/python3 "$oracle" -q >"$t/oracle.out" 2>"$t/oracle.err"
if ! grep -q '^\(OK\|INVALID\) ' "$t/oracle.out"; then
	no "pcluster-3.11: the oracle gave no verdict"
	head -5 "$t/oracle.err"
	exit 0
fi

agree=0 differ=0 listed=0
while IFS="$(printf '\t')" read -r name path template defines; do
	want=$(awk -v p="$path" '($1 == "OK" || $1 == "INVALID") && substr($0, length($1) + 2) == p { print $1 }' "$t/oracle.out")
	set --
	if [ -n "$defines" ]; then
		while IFS= read -r d; do set -- "$@" --define "$d"; done <"$defines"
	fi
	"$TF" lint --isolated --kind pcluster --shellcheck off --fail-level error --format concise \
		--target parallelcluster=3.11 "$@" "${template:-$path}" >"$t/tf.out" 2>"$t/tf.err"
	rc=$?
	case $rc in
	0) got=OK ;;
	1) got=INVALID ;;
	*) got="exit $rc" ;;
	esac
	echo "  $name: pcluster 3.11 ${want:-none}, trainforge $got"
	reason=$(awk -F '\t' -v n="$name" '$1 == n { print $4 }' "$expected")
	if [ "$want" = "$got" ]; then
		agree=$((agree + 1))
		if [ -n "$reason" ]; then
			no "$name: listed in expected.tsv, but both say $got now: remove the line"
		else
			ok "$name"
		fi
	else
		differ=$((differ + 1))
		listed_want=$(awk -F '\t' -v n="$name" '$1 == n { print $2 "/" $3 }' "$expected")
		if [ -n "$reason" ] && [ "$listed_want" = "$want/$got" ]; then
			listed=$((listed + 1))
			ok "$name: differs as expected.tsv says ($reason)"
		else
			no "$name: pcluster 3.11 says ${want:-nothing}, trainforge $got"
			grep ': error: ' "$t/tf.out" | head -3
			awk -v p="$path" 'f && /^  / { print; next } { f = 0 } substr($0, index($0, " ") + 1) == p { f = 1 }' "$t/oracle.out" | head -3
		fi
	fi
done <"$list"
total=$((agree + differ))
echo "agreement: $agree of $total files the same; $differ differ ($listed listed in expected.tsv with a reason)"

# The pcluster build-image configs gen writes for the examples
# (software.neuron_image): ParallelCluster 3.11's own image schema must
# load each, all in one run.
for f in "$t/gen"/*-image.yaml; do
	[ -e "$f" ] || continue
	printf '%s\n' "$f"
done >"$t/images"
if [ -s "$t/images" ]; then
	cat >"$t/images.py" <<'PY'
import sys, yaml
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from marshmallow import ValidationError
from pcluster.schemas.imagebuilder_schema import ImageBuilderSchema
for path in sys.argv[2:]:
    try:
        ImageBuilderSchema().load(yaml.safe_load(open(path)))
        print("OK", path)
    except ValidationError as e:
        print("INVALID", path, e.messages)
PY
	tr '\n' '\0' <"$t/images" >"$t/images0"
	xargs -0 /usr/bin/python3 "$t/images.py" "$shared/vendor/aws-parallelcluster-3.11/cli/src" <"$t/images0" >"$t/images.out" 2>&1
	while IFS= read -r f; do
		name="gen/${f##*/}"
		if grep -qxF "OK $f" "$t/images.out"; then ok "image/$name"
		else no "image/$name: ParallelCluster 3.11's image schema refuses it"; grep -F "$f" "$t/images.out" | head -3; fi
	done <"$t/images"
else
	no "image-configs: gen wrote no build-image config for the examples that name software.neuron_image"
fi
