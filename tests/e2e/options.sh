# shellcheck shell=bash
# The e2e group "options", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# The linter's option table agrees with the real sbatch.
# Options whose example needs something this cluster cannot have; each is
# reported as a skip with its reason. (--bb, --bbf, --cluster-constraint,
# --context, --mcs-label, --network and --power pass --test-only here.)
declare -A OPT_EXCLUDE=(
	[clusters]="needs slurmdbd and the named cluster: sbatch asks the database ('Problem talking to database')"
	[cluster]="alias of --clusters: needs slurmdbd and the named cluster"
)
# Options sbatch 22.05 takes only together with another; the test adds the
# companion. The linter accepts each alone (it checks values, not pairs).
declare -A OPT_WITH=(
	[batch]="--constraint=haswell"         # --batch must be a subset of --constraint
	[gpus-per-socket]="--sockets-per-node=2"
	[gpus-per-task]="--ntasks=2"           # or --gpus
	[mem-per-gpu]="--gpus=1"
	[ntasks-per-gpu]="--gpus=1"
	[ntasks-per-tres]="--gpus=1"
)

# A script with one directive; the partition is given unless tested.
opt_script() { # FILE DIRECTIVE...
	local f=$1 l
	shift
	{
		echo "#!/bin/bash"
		for l in "$@"; do echo "#SBATCH $l"; done
		echo "true"
	} >"$f"
}
sbatch_accepts() { # SCRIPT [sbatch options...] -> sets SB_OUT
	local s=$1
	shift
	SB_OUT=$(cd "$TMP/opts" && timeout 60 sbatch --test-only "$@" "$s" 2>&1 </dev/null)
}
lint_flags() { # SCRIPT RULES -> prints the matching findings
	"$TF" lint --format concise -q --shellcheck off --select "$2" "$1" 2>/dev/null </dev/null | grep -E "\[(${2//,/|})\]\$"
}

group_options() {
	local dump=$TMP/sbopt_dump name short arg since flags ex long shortv with s rc lint_out names2205 m
	mkdir -p "$TMP/opts"
	# shellcheck disable=SC2046
	if ! cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I"$ROOT/lint" -I"$ROOT/core" -I"$BUILD" \
		-o "$dump" "$ROOT/tests/e2e/sbopt_dump.c" "$BUILD/libtf.a" \
		$(pkg-config --libs yaml-0.1 libcyaml libpcre2-8) 2>"$TMP/opts/cc.err"; then
		result fail options/table "cannot build tests/e2e/sbopt_dump.c against $BUILD/libtf.a"
		indent <"$TMP/opts/cc.err"
		return
	fi
	"$dump" >"$TMP/opts/table.tsv" || { result fail options/table "sbopt_dump failed"; return; }
	result pass options/table "$(wc -l <"$TMP/opts/table.tsv") options"
	# What the examples name: files in the submission directory, a
	# reservation (on the last node, so that node[1-2] stay free).
	(cd "$TMP/opts" && printf 'node1\nnode2\n' >hosts.txt && printf 'A=1\0' >env.txt && echo 'capacity=1G' >bb.conf)
	timeout 20 scontrol create reservation ReservationName=maint StartTime=now Duration=60 \
		Users=root Nodes="node$NNODES" Flags=MAINT,IGNORE_JOBS >/dev/null 2>&1 ||
		note "could not create reservation maint"
	names2205=$(awk -F'\t' '$4 == "-" {print $1}' "$TMP/opts/table.tsv")

	# The table comes in on fd 3: nothing in the loop may eat it.
	while IFS=$'\t' read -r -u 3 name short arg since flags ex; do
		[ "$ex" = - ] && ex=""
		if [ -n "${OPT_EXCLUDE[$name]:-}" ]; then
			result skip "options/--$name" "${OPT_EXCLUDE[$name]}"
			continue
		fi
		# The directive as a script would write it (values quoted, as
		# sbatch's directive parser splits on blanks), and the short form.
		long="--$name"
		[ "$arg" != none ] && [ -n "$ex" ] && long="--$name=\"$ex\""
		shortv=""
		if [ "$short" != - ]; then
			shortv="-$short"
			[ "$arg" = required ] && shortv="-$short $ex"
		fi
		with=${OPT_WITH[$name]:-}
		s=$TMP/opts/$name.sbatch

		if [ "$since" != - ]; then
			# Added after 22.05: this sbatch must not run it as that
			# option, and the linter must say which release added it.
			opt_script "$s" "--partition=$DEFAULT_PART" "$long"
			sbatch_accepts "$s"
			rc=$?
			lint_out=$(lint_flags "$s" SB1001,SB1002,SB1003)
			local prefix_of
			prefix_of=$(printf '%s\n' "$names2205" | grep "^$name" | head -2)
			if [ "$(printf '%s\n' "$prefix_of" | grep -c .)" = 1 ]; then
				# getopt_long: a unique prefix of a 22.05 option is that option.
				note "--$name is a prefix of 22.05's --$prefix_of: sbatch 22.05 reads it as that ($(printf '%s' "$SB_OUT" | head -1))"
				if printf '%s' "$lint_out" | grep -q 'SB1003'; then
					result pass "options/--$name" "added in $since; 22.05 takes it as --$prefix_of (rc $rc); SB1003 from the linter"
				else
					result fail "options/--$name" "added in $since, a prefix of --$prefix_of in 22.05; lint: ${lint_out:-nothing}"
				fi
			elif printf '%s' "$SB_OUT" | grep -q "unrecognized option" && printf '%s' "$lint_out" | grep -q 'SB1003' &&
				! printf '%s' "$lint_out" | grep -q 'SB100[12]'; then
				result pass "options/--$name" "added in $since: unknown to sbatch 22.05, SB1003 from the linter"
			else
				result fail "options/--$name" "since $since: sbatch said: $(printf '%s' "$SB_OUT" | head -1); lint: ${lint_out:-nothing}"
			fi
			continue
		fi

		case ,$flags, in
		*,client,*)
			# Options that change what sbatch does go on its command line.
			opt_script "$s" "--partition=$DEFAULT_PART"
			case $name in
			help | usage | version)
				SB_OUT=$(timeout 60 sbatch "--$name" 2>&1 </dev/null); rc=$?
				check_opt "--$name" $rc ""
				if [ -n "$shortv" ]; then
					SB_OUT=$(timeout 60 sbatch "$shortv" 2>&1 </dev/null); rc=$?
					check_opt "$shortv" $rc "" "--$name"
				fi
				continue ;;
			wrap)
				SB_OUT=$(cd "$TMP/opts" && timeout 60 sbatch --test-only -p "$DEFAULT_PART" "--wrap=$ex" 2>&1 </dev/null); rc=$?
				check_opt "--wrap=$ex" $rc ""
				continue ;;
			test-only) sbatch_accepts "$s"; rc=$? ;;
			*) if [ "$arg" = none ] || [ -z "$ex" ]; then sbatch_accepts "$s" "--$name"; else sbatch_accepts "$s" "--$name=$ex"; fi; rc=$? ;;
			esac
			check_opt "$long" $rc ""
			if [ -n "$shortv" ]; then
				# shellcheck disable=SC2086
				sbatch_accepts "$s" $shortv; rc=$?
				check_opt "$shortv" $rc "" "--$name"
			fi
			continue ;;
		esac

		# Everything else as #SBATCH directives, as the linter sees them.
		if [ "$name" = partition ]; then
			opt_script "$s" "$long" ${with:+"$with"}
		else
			opt_script "$s" "--partition=$DEFAULT_PART" "$long" ${with:+"$with"}
		fi
		sbatch_accepts "$s"; rc=$?
		check_opt "$long" $rc "$s" "" "$with"
		if [ -n "$shortv" ]; then
			if [ "$name" = partition ]; then
				opt_script "$s" "$shortv" ${with:+"$with"}
			else
				opt_script "$s" "--partition=$DEFAULT_PART" "$shortv" ${with:+"$with"}
			fi
			sbatch_accepts "$s"; rc=$?
			check_opt "$shortv" $rc "$s" "--$name" "$with"
		fi
	done 3<"$TMP/opts/table.tsv"
	timeout 20 scontrol delete ReservationName=maint >/dev/null 2>&1

	# Misspellings: sbatch and SB1001 must agree on each. getopt_long takes
	# a unique prefix of a long option as that option, so a truncated name
	# is not unknown to sbatch, and the linter must not call it unknown.
	for m in --nodse=2 --ntask-per-node=1 "--parition=$DEFAULT_PART" --gpus-per-nod=1 --exclusiv; do
		s=$TMP/opts/misspelt${m%%=*}.sbatch
		if [ "${m%%=*}" = --parition ]; then opt_script "$s" "$m"; else opt_script "$s" "--partition=$DEFAULT_PART" "$m"; fi
		sbatch_accepts "$s"
		rc=$?
		lint_out=$(lint_flags "$s" SB1001)
		if [ $rc != 0 ] && printf '%s' "$SB_OUT" | grep -q 'unrecognized option'; then
			if [ -n "$lint_out" ]; then
				result pass "options/misspelt/${m%%=*}" "sbatch: $(printf '%s' "$SB_OUT" | head -1); linter: SB1001"
			else
				result fail "options/misspelt/${m%%=*}" "sbatch rejects it, the linter does not show SB1001"
			fi
		elif [ $rc = 0 ] && ! printf '%s' "$SB_OUT" | grep -q 'sbatch: error:'; then
			if [ -z "$lint_out" ]; then
				result pass "options/misspelt/${m%%=*}" "sbatch 22.05 takes it as an abbreviation (a unique prefix, getopt_long); no SB1001 either"
			else
				result fail "options/misspelt/${m%%=*}" "sbatch accepts it (a unique prefix), the linter shows SB1001: $lint_out"
			fi
		else
			result fail "options/misspelt/${m%%=*}" "sbatch: $(printf '%s' "$SB_OUT" | head -1)"
		fi
	done
}

# One option's verdict: sbatch took it (exit 0, no "sbatch: error:" line,
# which is how it reports an option it ignores) and, for a directive, the
# linter does not call it unknown or invalid.
check_opt() { # SHOWN RC SCRIPT|"" [LONG-NAME-OF-SHORT] [COMPANION]
	local shown=$1 rc=$2 s=$3 of=${4:-} with=${5:-} lint_out="" label
	label=${shown%%=*}
	label=${label%% *}
	local extra="${of:+ ($of)}${with:+ with $with}"
	if [ "$rc" != 0 ] || printf '%s' "$SB_OUT" | grep -q 'sbatch: error:\|unrecognized option'; then
		result fail "options/$label" "sbatch rejects $shown$extra: $(printf '%s' "$SB_OUT" | grep -v '^Usage\|^ ' | head -2 | tr '\n' ' ')"
		return
	fi
	[ -n "$s" ] && lint_out=$(lint_flags "$s" SB1001,SB1002)
	if [ -n "$lint_out" ]; then
		result fail "options/$label" "sbatch accepts $shown$extra, the linter flags it: $lint_out"
	else
		result pass "options/$label" "$shown$extra"
	fi
}
