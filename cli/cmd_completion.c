/* trainforge completion bash: a bash completion script made from the
 * command table (cli_options.def), so that it offers exactly the commands,
 * flags and values the parser accepts. Rule names and instance types
 * are asked of trainforge when completing, so they need no regeneration. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cli_options.h"
#include "frameworks.h"
#include "releases.h"
#include "version.h"

/* What each @source of cli_options.def completes to, for $cur. */
static const char helpers[] =
	"# bash completion for trainforge, printed by `trainforge completion bash`\n"
	"# from the command table (cli/cli_options.def); do not edit.\n"
	"_trainforge_reply() { # WORDS or @SOURCE: COMPREPLY for the word being completed\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} words\n"
	"\tcase $1 in\n"
	"\t@files) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return ;;\n"
	"\t@dirs) mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); return ;;\n"
	"\t@none) COMPREPLY=(); return ;;\n"
	"\t@rules) words=$(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1, $2}') ;;\n"
	"\t@selectors) words=\"ALL PC JS SB LN SC $(trainforge rules 2>/dev/null | awk 'NR > 1 {print $1, $2}')\" ;;\n"
	"\t@families) words=$(trainforge instances 2>/dev/null | awk 'NR > 1 && /\\./ {sub(/\\..*/, \"\", $1); print $1}' | sort -u) ;;\n"
	"\t@types) words=$(trainforge instances 2>/dev/null | awk 'NR > 1 && /\\./ {print $1}') ;;\n";
static const char helpers_tail[] =
	"\t*) words=$1 ;;\n"
	"\tesac\n"
	"\tmapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n"
	"}\n\n";

/* @targets: every ParallelCluster line from the oldest target on, every
 * Slurm line and every framework version, as --target spells them. */
static void put_targets(FILE *out)
{
	struct version oldest = pc_oldest_target(), last = { 0 };
	const char *sep = "";
	for (size_t i = 0; i < pc_release_count(); i++) {
		struct version line = version_line_of(pc_release_at(i)->pc);
		if (version_cmp(line, oldest) < 0 || !version_cmp(line, last))
			continue;
		last = line;
		fprintf(out, "%sparallelcluster=%s", sep, PC_TEXT(line));
		sep = " ";
	}
	for (size_t i = 0; i < slurm_line_count(); i++)
		fprintf(out, " slurm=%s", SLURM_TEXT(slurm_line_at(i)));
	for (int f = 0; f < FW__COUNT; f++)
		for (size_t i = 0; f != FW_PLAIN && i < fw_version_count(f); i++)
			fprintf(out, " %s=%s", fw_name(f), fw_version_at(f, i)->name);
}

static void put_values(FILE *out, const char *values)
{
	fprintf(out, "\"%s\"", values ? values : "@files");
}

static void put_command(FILE *out, enum command cmd)
{
	const struct command_row *c = &command_table[cmd];
	fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd != cmd || r->id < 0 || !r->metavar)
			continue;
		fputs("\t\t", out);
		if (r->short_name)
			fprintf(out, "-%c|", r->short_name);
		fprintf(out, "--%s) _trainforge_reply ", r->long_name);
		put_values(out, r->values);
		fputs("; return ;;\n", out);
	}
	fputs("\t\tesac\n\t\tflags=\"--help", out);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd == cmd && r->id >= 0)
			fprintf(out, " --%s", r->long_name);
	}
	fputs("\"\n\t\targs=", out);
	put_values(out, c->args);
	fputs(" ;;\n", out);
}

static void write_bash(FILE *out)
{
	fputs(helpers, out);
	fputs("\t@targets) words=\"", out);
	put_targets(out);
	fputs("\" ;;\n", out);
	fputs(helpers_tail, out);
	fputs("_trainforge() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} flags args\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\t_trainforge_reply \"--help --version", out);
	for (int i = 0; i < CMD__COUNT; i++)
		fprintf(out, " %s", command_table[i].name);
	fputs("\"\n\t\treturn\n\tfi\n\tcase ${COMP_WORDS[1]} in\n", out);
	for (int i = 0; i < CMD__COUNT; i++)
		put_command(out, (enum command)i);
	fputs("\t*) return ;;\n"
	      "\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\t_trainforge_reply \"$flags\"\n"
	      "\telse\n"
	      "\t\t_trainforge_reply \"$args\"\n"
	      "\tfi\n"
	      "}\n"
	      "complete -o filenames -F _trainforge trainforge\n", out);
}

int cmd_completion(int argc, char **argv)
{
	const char *shell = NULL;
	struct options p;
	options_init(&p, CMD_COMPLETION, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		if (id == OPTS_HELP)
			return EXIT_CLEAN;
		if (id != OPTS_OPERAND || shell) {
			if (id == OPTS_OPERAND)
				options_usage(stderr, CMD_COMPLETION);
			return EXIT_TROUBLE;
		}
		shell = p.value;
	}
	if (!shell || strcmp(shell, "bash") != 0) {
		if (shell)
			fprintf(stderr, "trainforge: no completion for '%s' (bash)\n", shell);
		options_usage(stderr, CMD_COMPLETION);
		return EXIT_TROUBLE;
	}
	write_bash(stdout);
	return ferror(stdout) ? EXIT_TROUBLE : EXIT_CLEAN;
}
