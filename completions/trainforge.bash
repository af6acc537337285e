# bash completion for trainforge, printed by `trainforge completion bash`
# from the command table (cli/cli_options.def); do not edit.
_trainforge_reply() { # WORDS or @SOURCE: COMPREPLY for the word being completed
	local cur=${COMP_WORDS[COMP_CWORD]} words
	case $1 in
	@files) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
	@dirs) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	@none) COMPREPLY=(); return ;;
	@rules) words=$(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1, $2}') ;;
	@selectors) words="ALL PC JS SB LN SC $(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1, $2}')" ;;
	@families) words=$(trainforge instances 2>/dev/null | awk 'NR > 1 && /\./ {sub(/\..*/, "", $1); print $1}' | sort -u) ;;
	@types) words=$(trainforge instances 2>/dev/null | awk 'NR > 1 && /\./ {print $1}') ;;
	@targets) words="parallelcluster=3.11 parallelcluster=3.12 parallelcluster=3.13 parallelcluster=3.14 parallelcluster=3.15 parallelcluster=3.16 slurm=22.05 slurm=23.02 slurm=23.11 slurm=24.05 slurm=24.11 slurm=25.05 slurm=25.11 slurm=26.05 megatron=0.20 nxd=fbac349 torchtitan=0.2 torchtitan=0.3" ;;
	*) words=$1 ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}

_trainforge() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} flags args
	if [ "$COMP_CWORD" -eq 1 ]; then
		_trainforge_reply "--help --version gen plan lint diff rules instances prices explain docs init schema completion lsp version mcp"
		return
	fi
	case ${COMP_WORDS[1]} in
	gen)
		case $prev in
		-o|--output) _trainforge_reply "@dirs"; return ;;
		--templates) _trainforge_reply "@dirs"; return ;;
		--target) _trainforge_reply "@targets"; return ;;
		--prices) _trainforge_reply "@files"; return ;;
		esac
		flags="--help --version --output --force --check --templates --target --prices --isolated"
		args="@files" ;;
	plan)
		case $prev in
		--compare) _trainforge_reply "@types"; return ;;
		--same) _trainforge_reply "peak nodes ranks"; return ;;
		--deadline) _trainforge_reply "@none"; return ;;
		--hours) _trainforge_reply "@none"; return ;;
		--tco) _trainforge_reply "@files"; return ;;
		--format) _trainforge_reply "text json markdown"; return ;;
		--svg) _trainforge_reply "@files"; return ;;
		--target) _trainforge_reply "@targets"; return ;;
		--prices) _trainforge_reply "@files"; return ;;
		esac
		flags="--help --version --compare --same --deadline --hours --tco --format --verbose --svg --target --prices --isolated"
		args="@files" ;;
	lint)
		case $prev in
		-f|--format) _trainforge_reply "text concise json jsonl sarif github checkstyle gitlab"; return ;;
		--kind) _trainforge_reply "auto pcluster jobspec sbatch settings"; return ;;
		--cluster) _trainforge_reply "@files"; return ;;
		--base) _trainforge_reply "@none"; return ;;
		--shellcheck) _trainforge_reply "auto off required"; return ;;
		--shellcheck-timeout) _trainforge_reply "@none"; return ;;
		--stdin-filename) _trainforge_reply "@files"; return ;;
		--select) _trainforge_reply "@selectors"; return ;;
		--ignore) _trainforge_reply "@selectors"; return ;;
		--severity) _trainforge_reply "@none"; return ;;
		--fail-level) _trainforge_reply "error warning info never"; return ;;
		--max-file-size) _trainforge_reply "@none"; return ;;
		--target) _trainforge_reply "@targets"; return ;;
		--color) _trainforge_reply "auto always never"; return ;;
		--define) _trainforge_reply "@none"; return ;;
		--env-file) _trainforge_reply "@files"; return ;;
		--config) _trainforge_reply "@files"; return ;;
		--show-config) _trainforge_reply "@files"; return ;;
		--prices) _trainforge_reply "@files"; return ;;
		esac
		flags="--help --version --no-ignore --format --kind --cluster --base --shellcheck --shellcheck-timeout --stdin-filename --select --ignore --severity --fail-level --max-file-size --target --color --quiet --define --env-file --config --isolated --show-config --fix --unsafe-fixes --diff --skip-unknown --pair-tracked --add-noqa --statistics --prices"
		args="@files" ;;
	diff)
		case $prev in
		-f|--format) _trainforge_reply "text concise json jsonl sarif github checkstyle gitlab"; return ;;
		--select) _trainforge_reply "@selectors"; return ;;
		--ignore) _trainforge_reply "@selectors"; return ;;
		--severity) _trainforge_reply "@none"; return ;;
		--fail-level) _trainforge_reply "error warning info never"; return ;;
		--target) _trainforge_reply "@targets"; return ;;
		--stdin-filename) _trainforge_reply "@files"; return ;;
		--max-file-size) _trainforge_reply "@none"; return ;;
		--color) _trainforge_reply "auto always never"; return ;;
		--kind) _trainforge_reply "auto pcluster jobspec sbatch settings"; return ;;
		--shellcheck) _trainforge_reply "auto off required"; return ;;
		--shellcheck-timeout) _trainforge_reply "@none"; return ;;
		--cluster) _trainforge_reply "@files"; return ;;
		--define) _trainforge_reply "@none"; return ;;
		--env-file) _trainforge_reply "@files"; return ;;
		--config) _trainforge_reply "@files"; return ;;
		--show-config) _trainforge_reply "@files"; return ;;
		--prices) _trainforge_reply "@files"; return ;;
		esac
		flags="--help --version --format --select --ignore --severity --fail-level --target --stdin-filename --max-file-size --color --quiet --kind --shellcheck --shellcheck-timeout --cluster --no-ignore --define --env-file --config --isolated --show-config --prices"
		args="@files" ;;
	rules)
		case $prev in
		esac
		flags="--help --version --where"
		args="@none" ;;
	instances)
		case $prev in
		--family) _trainforge_reply "@families"; return ;;
		-f|--format) _trainforge_reply "text json"; return ;;
		--region) _trainforge_reply "@none"; return ;;
		--prices) _trainforge_reply "@files"; return ;;
		esac
		flags="--help --version --family --format --region --prices --isolated"
		args="@none" ;;
	prices)
		case $prev in
		--prices) _trainforge_reply "@files"; return ;;
		--region) _trainforge_reply "@none"; return ;;
		-f|--format) _trainforge_reply "text json"; return ;;
		esac
		flags="--help --version --prices --region --format"
		args="import list where" ;;
	explain)
		case $prev in
		--format) _trainforge_reply "text markdown"; return ;;
		--example) _trainforge_reply "bad good cluster bad-old good-old"; return ;;
		esac
		flags="--help --version --format --example"
		args="@rules" ;;
	docs)
		case $prev in
		esac
		flags="--help --version"
		args="rules update-policy versions man" ;;
	init)
		case $prev in
		esac
		flags="--help --version --force"
		args="@dirs" ;;
	schema)
		case $prev in
		--target) _trainforge_reply "@targets"; return ;;
		esac
		flags="--help --version --target --all-releases"
		args="jobspec parallelcluster tco config" ;;
	completion)
		case $prev in
		esac
		flags="--help --version"
		args="bash zsh fish" ;;
	lsp)
		case $prev in
		--shellcheck) _trainforge_reply "auto off required"; return ;;
		--select) _trainforge_reply "@selectors"; return ;;
		--ignore) _trainforge_reply "@selectors"; return ;;
		--clientProcessId) _trainforge_reply "@none"; return ;;
		esac
		flags="--help --version --shellcheck --select --ignore --stdio --clientProcessId"
		args="@none" ;;
	version)
		case $prev in
		esac
		flags="--help --version"
		args="@none" ;;
	mcp)
		case $prev in
		--shellcheck) _trainforge_reply "auto off required"; return ;;
		--timeout) _trainforge_reply "@none"; return ;;
		esac
		flags="--help --version --shellcheck --timeout"
		args="@none" ;;
	*) return ;;
	esac
	if [[ $cur == -* ]]; then
		_trainforge_reply "$flags"
	else
		_trainforge_reply "$args"
	fi
}
complete -o filenames -F _trainforge trainforge
