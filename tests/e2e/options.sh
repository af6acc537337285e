# shellcheck shell=bash
# The e2e group "options", sourced by tests/e2e/run.sh (bash): it uses the
# helpers of tests/e2e/lib.sh and the cluster run.sh started.

# The linter's option table agrees with the real sbatch under test. The
# table is 22.05's options plus, with the release that added them, later
# ones: an option added after the Slurm under test must be unknown to its
# sbatch, any other must be accepted, except where a later release changed
# it (OPT_LATER). (--bb, --bbf, --cluster-constraint, --context,
# --mcs-label and --network pass --test-only here.)

# Options sbatch resolves through slurmdbd, which this cluster does not
# run: sbatch must parse them and then ask the database ("Problem talking
# to database"), and the linter must not flag them.
declare -A OPT_NEEDS_DB=([clusters]=1 [cluster]=1)
# Options of the 22.05 table that later releases changed; the check
# expects the old behaviour before the release and the new one from it on,
# and leaves a row of what really happened (observe):
#   removed V   sbatch V and later do not know the option
#   novalue V   from V on the option takes no value: the table's example
#               value is refused, the bare option is checked instead
#   kept V      the release notes of V say it was removed, yet sbatch
#               still takes it (the check holds it to what sbatch does)
declare -A OPT_LATER=(
	[power]="removed 24.05"          # gone by 25.11 (docs/versions.md)
	[get-user-env]="novalue 25.05"   # CHANGELOG 25.05: its timeout and mode deprecated
	[export-file]="kept 23.11"       # CHANGELOG 23.11: "removed --export-file option"
)
# Options sbatch takes only together with another; the test adds the
# companion. The linter accepts each alone (it checks values, not pairs).
declare -A OPT_WITH=(
	[batch]="--constraint=haswell"         # --batch must be a subset of --constraint
	[cpus-per-gpu]="--gpus=1"              # 23.02 and later: no GPU, no --cpus-per-gpu
	[resv-ports]="--stepmgr"               # "Slurmstepd step management must be enabled"
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
	"$TF" lint --format concise -q --shellcheck off --target "$TF_TARGET" --select "$2" "$1" 2>/dev/null </dev/null |
		grep -E "\[(${2//,/|})\]\$"
}
# sbatch's answer in SB_OUT as a verdict: accept or reject.
sb_verdict() { # RC
	if [ "$1" = 0 ] && ! printf '%s' "$SB_OUT" | grep -q 'sbatch: error:\|unrecognized option'; then
		echo accept
	else
		echo reject
	fi
}
sb_said() { printf '%s' "$SB_OUT" | grep -v '^Usage\|^ \|^Try ' | head -2 | tr '\n' ' '; }

# An OPT_LATER row on the Slurm under test, as the directive LONG in
# SCRIPT. Sets OPT_THEN to what the table check does next: "table" (the
# option behaves as in 22.05 here), "bare" (check it without a value) or
# "done" (this was the check).
opt_later() { # NAME CHANGE LONG SCRIPT
	local name=$1 kind=${2%% *} v=${2#* } long=$3 s=$4 want=accept got rc
	case $kind in removed | novalue) slurm_at_least "$v" && want=reject ;; esac
	opt_script "$s" "--partition=$DEFAULT_PART" "$long"
	sbatch_accepts "$s"
	rc=$?
	got=$(sb_verdict $rc)
	observe "option-$kind-$v" "$long" "$want" "$got" "sbatch --test-only exit $rc: $(sb_said)"
	tf_target_check "option-$kind-$v" "$s" "$got"
	OPT_THEN=table
	[ "$want" = accept ] && return
	OPT_THEN="done"
	local says="unrecognized option"
	[ "$kind" = novalue ] && says="doesn't allow an argument"
	if [ "$got" = reject ] && printf '%s' "$SB_OUT" | grep -q "$says"; then
		result pass "options/${long//\"/}" "$kind in $v: sbatch $SLURM_SERIES refuses $long: $(sb_said)"
		[ "$kind" = novalue ] && OPT_THEN=bare
	else
		result fail "options/${long//\"/}" "$kind in $v: sbatch $SLURM_SERIES was expected to say '$says' for $long, exit $rc: $(sb_said)"
	fi
}

group_options() {
	local dump=$TMP/sbopt_dump name short arg since flags ex long shortv with s rc lint_out known="" m got
	mkdir -p "$TMP/opts"
	# shellcheck disable=SC2046
	# the include list of the test programs, from the Makefile's layers
	if ! (cd "$ROOT" && cc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L $(make -s print-inc LAYER=all) \
		-o "$dump" "$ROOT/tests/e2e/sbopt_dump.c" "$BUILD/libtf.a" \
		$(pkg-config --libs yaml-0.1 libcyaml libpcre2-8)) 2>"$TMP/opts/cc.err"; then
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
	# The options this sbatch knows, as the table has them.
	while IFS=$'\t' read -r name short arg since flags ex; do
		if [ "$since" = - ] || slurm_at_least "$since"; then known="$known$name"$'\n'; fi
	done <"$TMP/opts/table.tsv"

	# The table comes in on fd 3: nothing in the loop may eat it.
	while IFS=$'\t' read -r -u 3 name short arg since flags ex; do
		[ "$ex" = - ] && ex=""
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

		if [ -n "${OPT_NEEDS_DB[$name]:-}" ]; then
			opt_needs_db "$name" "$long" "$s"
			[ -n "$shortv" ] && opt_needs_db "$name" "$shortv" "$s"
			continue
		fi
		if [ -n "${OPT_LATER[$name]:-}" ]; then
			opt_later "$name" "${OPT_LATER[$name]}" "$long" "$s"
			case $OPT_THEN in
			done) continue ;;
			bare) long="--$name" shortv="" ;;
			esac
		fi

		if [ "$since" != - ] && slurm_at_least "$since"; then
			# Added in this release or before: sbatch takes it (SB1003,
			# the linter's note that 22.05 does not, is no finding here).
			opt_script "$s" "--partition=$DEFAULT_PART" "$long" ${with:+"$with"}
			sbatch_accepts "$s"
			rc=$?
			observe option-added-"$since" "$long" accept "$(sb_verdict $rc)" "sbatch --test-only exit $rc: $(sb_said)"
			tf_target_check option-added-"$since" "$s" "$(sb_verdict $rc)"
			check_opt "$long" $rc "$s" "" "$with"
			continue
		fi
		if [ "$since" != - ]; then
			# Added after this release: its sbatch must not run it as
			# that option, and the linter must say which release added it.
			opt_script "$s" "--partition=$DEFAULT_PART" "$long"
			sbatch_accepts "$s"
			rc=$?
			lint_out=$(lint_flags "$s" SB1001,SB1002,SB1003)
			local prefix_of
			prefix_of=$(printf '%s' "$known" | grep "^$name" | head -2)
			got=$(sb_verdict $rc)
			if [ "$(printf '%s\n' "$prefix_of" | grep -c .)" = 1 ]; then
				# getopt_long: a unique prefix of a known option is that option.
				note "--$name is a prefix of $SLURM_SERIES's --$prefix_of: sbatch $SLURM_SERIES reads it as that ($(printf '%s' "$SB_OUT" | head -1))"
				observe option-added-"$since" "$long" reject "$got" "read as --$prefix_of; sbatch --test-only exit $rc: $(sb_said)"
				if printf '%s' "$lint_out" | grep -q 'SB1003'; then
					result pass "options/--$name" "added in $since; $SLURM_SERIES takes it as --$prefix_of (rc $rc); SB1003 from the linter"
				else
					result fail "options/--$name" "added in $since, a prefix of --$prefix_of in $SLURM_SERIES; lint: ${lint_out:-nothing}"
				fi
			elif printf '%s' "$SB_OUT" | grep -q "unrecognized option" && printf '%s' "$lint_out" | grep -q 'SB1003' &&
				! printf '%s' "$lint_out" | grep -q 'SB100[12]'; then
				observe option-added-"$since" "$long" reject "$got" "sbatch --test-only exit $rc: $(sb_said)"
				result pass "options/--$name" "added in $since: unknown to sbatch $SLURM_SERIES ($(sb_said)), SB1003 from the linter"
			else
				observe option-added-"$since" "$long" reject "$got" "sbatch --test-only exit $rc: $(sb_said)"
				result fail "options/--$name" "since $since: sbatch said: $(printf '%s' "$SB_OUT" | head -1); lint: ${lint_out:-nothing}"
			fi
			tf_target_check option-added-"$since" "$s" "$got"
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
				result pass "options/misspelt/${m%%=*}" "sbatch $SLURM_SERIES takes it as an abbreviation (a unique prefix, getopt_long); no SB1001 either"
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
	if [ "$(sb_verdict "$rc")" != accept ]; then
		result fail "options/$label" "sbatch rejects $shown$extra: $(sb_said)"
		return
	fi
	[ -n "$s" ] && lint_out=$(lint_flags "$s" SB1001,SB1002)
	if [ -n "$lint_out" ]; then
		result fail "options/$label" "sbatch accepts $shown$extra, the linter flags it: $lint_out"
	else
		result pass "options/$label" "$shown$extra"
	fi
}

# An OPT_NEEDS_DB option: sbatch parses it (no "unrecognized option") and
# then needs the database this cluster does not run.
opt_needs_db() { # NAME SHOWN SCRIPT
	local lint_out label=${2%%=*}
	label=${label%% *}
	opt_script "$3" "--partition=$DEFAULT_PART" "$2"
	sbatch_accepts "$3"
	lint_out=$(lint_flags "$3" SB1001,SB1002)
	if printf '%s' "$SB_OUT" | grep -q 'Problem talking to database' &&
		! printf '%s' "$SB_OUT" | grep -q 'unrecognized option' && [ -z "$lint_out" ]; then
		result pass "options/$label" "$2: sbatch parses it and asks slurmdbd ($(sb_said)); the linter does not flag it"
	else
		result fail "options/$label" "$2: sbatch said: $(sb_said); lint: ${lint_out:-nothing}"
	fi
}
