#!/bin/sh
# The architecture as tests: each folder compiles with its own include
# list, so an upward include fails (a probe source proves it both ways);
# every rule is emitted only in the file that rules.def names for its
# area, and carries its /* ID name */ marker there. Prints RESULT lines.
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
CC=${CC:-cc}

# probe LAYER HEADER yes|no: whether a source in LAYER may include HEADER
probe() {
	printf '#include "%s"\nint probe_symbol;\n' "$2" >"$t/probe.c"
	# shellcheck disable=SC2046 # the include list is several words
	if $CC -std=c11 -fsyntax-only -D_POSIX_C_SOURCE=200809L -D_GNU_SOURCE \
		$(make -s print-inc LAYER="$1") $(pkg-config --cflags yaml-0.1 2>/dev/null) \
		"$t/probe.c" 2>"$t/err"; then
		built=yes
	else
		built=no
	fi
	if [ "$built" = "$3" ]; then
		ok "include/$1/$2=$3"
	else
		no "include/$1/$2: expected $3, compiled: $built"
		head -3 "$t/err"
	fi
}

# What each layer may and may not include (docs/design.md, "Layout").
while read -r layer header verdict; do
	probe "$layer" "$header" "$verdict"
done <<'TABLE'
core buf.h yes
core yamldoc.h no
core diag.h no
core catalog.h no
core/yaml yamldoc.h yes
core/yaml diag.h no
core/report diag.h yes
core/report yamldoc.h yes
core/report catalog.h no
core/report lint.h no
core/facts catalog.h yes
core/facts yamldoc.h no
core/facts diag.h no
core/facts frameworks.h yes
core/facts/frameworks frameworks.h yes
core/facts/frameworks catalog.h yes
core/facts/frameworks neuron.h yes
core/facts/frameworks yamldoc.h no
core/facts/frameworks diag.h no
core/facts/frameworks plan.h no
core/facts import.h no
core/prices import.h yes
core/prices prices.h yes
core/prices diag.h no
core/prices plan.h no
gen import.h no
lint/slurm options.h yes
lint/slurm script.h no
lint/slurm diag.h no
lint/script script.h yes
lint/script diag.h no
lint/script cluster.h no
lint/script lint.h no
lint/cluster cluster.h yes
lint/cluster diag.h no
lint/cluster script.h no
lint/rules/pc pc.h yes
lint/rules/pc lint.h no
lint/rules/pc sb.h no
lint/rules/pc plan.h no
lint/rules/sb sb.h yes
lint/rules/sb lint.h no
lint/rules/sb pc.h no
lint/rules/sb settings.h no
lint/rules/ln ln.h yes
lint/rules/ln lint.h no
lint lint.h yes
lint sb.h yes
lint plan.h no
lint commands.h no
gen plan.h yes
gen diag.h yes
gen lint.h no
gen script.h no
gen cluster.h no
cli commands.h yes
cli lint.h yes
cli plan.h yes
lint/program buf.h yes
lint/program pyargs.h yes
lint/program script.h no
lint/program diag.h no
lint/program catalog.h no
TABLE

# Rules against their areas: `trainforge rules --where` gives each rule's
# file; R_<ID> may appear there, in core/report (the tables, the issue
# map) and nowhere else, and the /* ID name */ marker must be there.
sources=$(git ls-files 'cli/*.[ch]' 'core/*.[ch]' 'gen/*.[ch]' 'lint/*.[ch]' 'tools/*.c' 2>/dev/null)
[ -n "$sources" ] || sources=$(find cli core gen lint tools -name '*.[ch]')
"$TF" rules --where | awk 'NR > 1 { print $1, $2, $3 }' >"$t/where"
[ -s "$t/where" ] || no "rules/where: trainforge rules --where printed nothing"
while read -r id name file; do
	# shellcheck disable=SC2086 # a list of paths
	users=$(grep -lw "R_$id" $sources 2>/dev/null | grep -v '^core/report/' | sort -u | tr '\n' ' ')
	case $users in
	"" | "$file ") ok "area/$id" ;;
	*) no "area/$id: emitted outside $file: $users" ;;
	esac
	# shellcheck disable=SC2086
	marks=$(grep -l "/\* $id $name\b" $sources 2>/dev/null | sort -u | tr '\n' ' ')
	case $marks in
	"$file " | core/report/*) ok "marker/$id" ;;
	"") no "marker/$id: no /* $id $name */ above its entry in $file" ;;
	*) no "marker/$id: marked in $marks, not only in $file" ;;
	esac
done <"$t/where"
