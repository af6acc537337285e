# bash completion for trainforge
_trainforge() {
	local cur prev cmd
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=${COMP_WORDS[1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "lint diff gen plan rules instances explain docs schema init lsp version" -- "$cur")
		return
	fi
	case $prev in
	-f|--format) mapfile -t COMPREPLY < <(compgen -W "text concise json jsonl sarif github checkstyle" -- "$cur"); return ;;
	--fail-level) mapfile -t COMPREPLY < <(compgen -W "error warning info never" -- "$cur"); return ;;
	--kind) mapfile -t COMPREPLY < <(compgen -W "auto pcluster jobspec sbatch" -- "$cur"); return ;;
	--shellcheck) mapfile -t COMPREPLY < <(compgen -W "auto off required" -- "$cur"); return ;;
	--color) mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur"); return ;;
	--family)
		mapfile -t COMPREPLY < <(compgen -W "$(trainforge instances 2>/dev/null | awk 'NR > 1 && /\./ {sub(/\..*/, "", $1); print $1}' | sort -u)" -- "$cur")
		return ;;
	--select|--ignore)
		mapfile -t COMPREPLY < <(compgen -W "ALL PC JS SB LN SC $(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur")
		return ;;
	-o|--output|--templates) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	--target)
		mapfile -t COMPREPLY < <(compgen -W "parallelcluster=3.11 parallelcluster=3.12 parallelcluster=3.13 parallelcluster=3.14 parallelcluster=3.15 parallelcluster=3.16 slurm=22.05 slurm=23.02 slurm=23.11 slurm=24.05 slurm=24.11 slurm=25.05 slurm=25.11 slurm=26.05" -- "$cur")
		return ;;
	esac
	case $cmd in
	explain)
		mapfile -t COMPREPLY < <(compgen -W "$(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1, $2}')" -- "$cur") ;;
	schema) mapfile -t COMPREPLY < <(compgen -W "jobspec parallelcluster tco --target --all-releases" -- "$cur") ;;
	docs) mapfile -t COMPREPLY < <(compgen -W "rules update-policy versions" -- "$cur") ;;
	rules) mapfile -t COMPREPLY < <(compgen -W "--where" -- "$cur") ;;
	instances) mapfile -t COMPREPLY < <(compgen -W "--family --format" -- "$cur") ;;
	lint)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--format --select --ignore --severity --fail-level --kind --cluster --base --shellcheck --shellcheck-timeout --stdin-filename --config --isolated --show-config --fix --unsafe-fixes --diff --color --quiet --max-file-size --target --define --env-file --no-ignore" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi ;;
	diff)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--format --select --ignore --severity --fail-level --stdin-filename --config --isolated --color --quiet --max-file-size --target --define --env-file" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi ;;
	gen|plan)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "-o --force --check --templates --compare --same --deadline --hours --tco --format --svg --target" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi ;;
	esac
}
complete -o filenames -F _trainforge trainforge
