#!/bin/sh
# The command table (cli/cli_options.def) against the binary: each row's flag
# is accepted by its command (long and short name), its --help lists it
# and the bash completion offers it; `trainforge --help` lists every
# command; and the completion script, sourced into bash, completes
# commands, flags and flag values. Prints RESULT lines.
# ok and no only print, so "A && ok || no" is an if-then-else here.
# shellcheck disable=SC2015
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

# "ID name" per command, and "ID short long metavar first-value" per row,
# read from the rows' first lines (a test in tests/unit/test_cli_options.c
# checks the same table from C).
sed -nE 's/^COMMAND\(([A-Z_]+), "([^"]+)".*/\1 \2/p' cli/cli_options.def >"$t/commands"
sed -nE "s/^(OPTION|ALSO)\(([A-Z_]+), [A-Z_]+, ('(.)'|0), \"([^\"]+)\", (NULL|\"([^\"]*)\"), (NULL|\"([^\"]*)\"),\$/\2 \4. \5 \7. \9./p" \
	cli/cli_options.def >"$t/rows"
[ "$(wc -l <"$t/rows")" = "$(grep -cE '^(OPTION|ALSO)\(' cli/cli_options.def)" ] && [ -s "$t/commands" ] &&
	ok table/read || no "table/read: a row of cli/cli_options.def is not on one first line as this test expects"

"$TF" --help >"$t/top" 2>&1
while read -r id name; do
	grep -q "^  $name " "$t/top" && ok "table/listed/$name" || no "table/listed/$name: not in trainforge --help"
	"$TF" "$name" --help >"$t/help.$id" 2>"$t/err" && grep -q "^usage: trainforge $name" "$t/help.$id" &&
		ok "table/help/$name" || no "table/help/$name: trainforge $name --help failed"
done <"$t/commands"

# The script as the binary prints it (tests/docs checks that the
# committed completions/trainforge.bash is the same).
"$TF" completion bash >"$t/completion.bash" && ok table/completion-script || no table/completion-script

# What the completion offers after "trainforge NAME --".
T=$t bash -c '
	PATH='"$(dirname "$TF")"':$PATH
	. "$T/completion.bash"
	while read -r id name; do
		COMP_WORDS=(trainforge "$name" --); COMP_CWORD=2; _trainforge
		printf "%s\n" "${COMPREPLY[@]}" >"$1/complete.$id"
	done <"$1/commands"
' sh "$t"

# A row's flag with a value (its first listed value, else "x"), then
# --help: the parser must know the flag, whatever the value's check says.
while read -r cmd short long metavar value; do
	name=$(awk -v id="$cmd" '$1 == id { print $2 }' "$t/commands")
	short=${short%.} metavar=${metavar%.} value=${value%.}
	case $value in "" | @*) value=x ;; esac
	why=
	for flag in "--$long" ${short:+"-$short"}; do
		if [ -n "$metavar" ]; then
			"$TF" "$name" "$flag" "$value" --help >/dev/null 2>"$t/err"
		else
			"$TF" "$name" "$flag" --help >/dev/null 2>"$t/err"
		fi
		! grep -qE "unknown option|needs a value|takes no value" "$t/err" || why="$why; $flag: $(head -1 "$t/err")"
	done
	if [ -n "$short" ]; then
		grep -qF -- "-$short, --$long${metavar:+ $metavar}" "$t/help.$cmd" || why="$why; --help lacks -$short, --$long"
	else
		grep -qF -- "    --$long${metavar:+ $metavar}" "$t/help.$cmd" || why="$why; --help lacks --$long"
	fi
	grep -qx -- "--$long" "$t/complete.$cmd" || why="$why; the completion does not offer --$long"
	[ -z "$why" ] && ok "table/$name/--$long" || no "table/$name/--$long${why}"
done <"$t/rows"

# Completion, as bash calls it: COMP_WORDS and COMP_CWORD set, then the
# function; each case prints what COMPREPLY holds, space-separated.
complete_words() { # the words of the command line; the last is being completed
	T=$t bash -c '
		PATH='"$(dirname "$TF")"':$PATH
		. "$T/completion.bash"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _trainforge
		echo "${COMPREPLY[*]}"
	' sh "$@"
}
expect_completion() { # name, expected, words...
	name=$1 want=$2
	shift 2
	got=$(complete_words "$@")
	[ "$got" = "$want" ] && ok "completion/$name" || no "completion/$name: '$*' gave '$got', not '$want'"
}
expect_completion command plan trainforge pl
expect_completion flag --format trainforge lint --form
expect_completion flag-values "text concise json jsonl sarif github checkstyle gitlab" trainforge lint --format ""
expect_completion short-flag-values "text json" trainforge instances -f ""
expect_completion enum-prefix sarif trainforge lint --format sa
expect_completion plan-same "peak nodes ranks" trainforge plan --same ""
expect_completion operand-words man trainforge docs m
expect_completion completion-shell "bash zsh fish" trainforge completion ""
expect_completion schema-names "jobspec parallelcluster tco config" trainforge schema ""
expect_completion no-value-words "" trainforge lint --max-file-size ""
expect_completion targets "slurm=25.05 slurm=25.11" trainforge gen --target slurm=25
got=$(complete_words trainforge lint --select PC210)
case " $got " in *" PC2101 "*) ok completion/rule-ids ;; *) no "completion/rule-ids: '$got'" ;; esac
mkdir -p "$t/cwd/outdir" && : >"$t/cwd/outfile"
got=$(cd "$t/cwd" && complete_words trainforge gen -o out)
[ "$got" = outdir ] && ok completion/dirs || no "completion/dirs: '$got'"
got=$(cd "$t/cwd" && complete_words trainforge lint --cluster out)
[ "$got" = "outdir outfile" ] && ok completion/files || no "completion/files: '$got'"
got=$(cd "$t/cwd" && complete_words trainforge lint out)
[ "$got" = "outdir outfile" ] && ok completion/operand-files || no "completion/operand-files: '$got'"
