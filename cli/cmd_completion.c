/* trainforge completion bash|zsh|fish: a completion script made from the
 * command table (cli_options.def), so that each shell offers exactly the
 * commands, flags and values the parser accepts. Rule names and instance
 * types are asked of trainforge when completing, so they need no
 * regeneration. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
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

/* The case arms of cmd's flags that take a value, each "-f|--format)
 * CALL VALUES; return ;;" (values prints what the shell offers), and the
 * words of all its flags: what every shell's script is made of. */
static void put_value_arms(FILE *out, enum command cmd, const char *call,
			   void (*values)(FILE *out, const char *values))
{
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd != cmd || r->id < 0 || !r->metavar)
			continue;
		fputs("\t\t", out);
		if (r->short_name)
			fprintf(out, "-%c|", r->short_name);
		fprintf(out, "--%s) %s", r->long_name, call);
		values(out, r->values);
		fputs("; return ;;\n", out);
	}
}

static void put_flag_words(FILE *out, enum command cmd)
{
	fputs("--help --version", out);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd == cmd && r->id >= 0)
			fprintf(out, " --%s", r->long_name);
	}
}

static void put_command(FILE *out, enum command cmd)
{
	const struct command_row *c = &command_table[cmd];
	fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
	put_value_arms(out, cmd, "_trainforge_reply ", put_values);
	fputs("\t\tesac\n\t\tflags=\"", out);
	put_flag_words(out, cmd);
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

/* The shell commands that list what each @source offers, one word a
 * line, for zsh and fish (bash's are in helpers above). */
static const struct {
	const char *source, *words;
} sources[] = {
	{ "@rules", "trainforge rules 2>/dev/null | awk 'NR > 1 {print $1; print $2}'" },
	{ "@selectors", "{ printf '%s\\n' ALL PC JS SB LN SC; trainforge rules 2>/dev/null | awk 'NR > 1 {print $1; print $2}'; }" },
	{ "@families", "trainforge instances 2>/dev/null | awk 'NR > 1 && /\\./ {sub(/\\..*/, \"\", $1); print $1}' | sort -u" },
	{ "@types", "trainforge instances 2>/dev/null | awk 'NR > 1 && /\\./ {print $1}'" },
};

static const char *source_words(const char *values)
{
	for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
		if (values && !strcmp(values, sources[i].source))
			return sources[i].words;
	return NULL;
}

/* s in single quotes for a shell: ' becomes '\''. */
static void put_quoted(FILE *out, const char *s, size_t len)
{
	fputc('\'', out);
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\'')
			fputs("'\\''", out);
		else
			fputc(s[i], out);
	fputc('\'', out);
}

/* A help line cut to its first clause and about 60 columns at a space,
 * for the shells' descriptions. */
static void put_summary(FILE *out, const char *help)
{
	size_t n = strcspn(help, ";");
	if (n > 60) {
		n = 60;
		while (n > 20 && help[n] != ' ')
			n--;
	}
	while (n && (help[n - 1] == ' ' || help[n - 1] == ','))
		n--;
	put_quoted(out, help, n);
}

/* ---- zsh ----------------------------------------------------------------- */

static void zsh_values(FILE *out, const char *values)
{
	const char *words = source_words(values);
	if (!values || !strcmp(values, "@files"))
		fputs("_files", out);
	else if (!strcmp(values, "@dirs"))
		fputs("_files -/", out);
	else if (!strcmp(values, "@none"))
		fputs("_message value", out);
	else if (!strcmp(values, "@targets")) {
		fputs("compadd -- ", out);
		put_targets(out);
	} else if (words)
		fprintf(out, "compadd -- ${(f)\"$(%s)\"}", words);
	else
		fprintf(out, "compadd -- %s", values);
}

static void zsh_command(FILE *out, enum command cmd)
{
	const struct command_row *c = &command_table[cmd];
	fprintf(out, "\t%s)\n\t\tcase $prev in\n", c->name);
	put_value_arms(out, cmd, "", zsh_values);
	fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n\t\t\tcompadd -- ", out);
	put_flag_words(out, cmd);
	fputs("\n\t\telse\n\t\t\t", out);
	zsh_values(out, c->args);
	fputs("\n\t\tfi ;;\n", out);
}

static void write_zsh(FILE *out)
{
	fputs("#compdef trainforge\n"
	      "# zsh completion for trainforge, printed by `trainforge completion zsh`\n"
	      "# from the command table (cli/cli_options.def); do not edit. Save it as\n"
	      "# _trainforge in a directory of $fpath, or source it after compinit.\n"
	      "_trainforge() {\n"
	      "\tlocal cur=${words[CURRENT]} prev=${words[CURRENT-1]}\n"
	      "\tif (( CURRENT == 2 )); then\n"
	      "\t\tlocal -a commands\n"
	      "\t\tcommands=(\n", out);
	for (int i = 0; i < CMD__COUNT; i++) {
		fputs("\t\t\t", out);
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s:", command_table[i].name);
		size_t n = strcspn(command_table[i].summary, ":");
		buf_put(&b, command_table[i].summary, n);
		put_quoted(out, b.p, b.len);
		buf_free(&b);
		fputc('\n', out);
	}
	fputs("\t\t)\n"
	      "\t\tif [[ $cur == -* ]]; then compadd -- --help --version; else _describe command commands; fi\n"
	      "\t\treturn\n\tfi\n\tcase ${words[2]} in\n", out);
	for (int i = 0; i < CMD__COUNT; i++)
		zsh_command(out, (enum command)i);
	fputs("\tesac\n}\n"
	      "if [[ ${funcstack[1]} == _trainforge ]]; then\n"
	      "\t_trainforge \"$@\"\n"
	      "else\n"
	      "\tcompdef _trainforge trainforge\n"
	      "fi\n", out);
}

/* ---- fish ---------------------------------------------------------------- */

static void fish_values(FILE *out, const char *values)
{
	const char *words = source_words(values);
	if (!values || !strcmp(values, "@files"))
		fputs(" -F", out);
	else if (!strcmp(values, "@dirs"))
		fputs(" -f -a '(__fish_complete_directories)'", out);
	else if (!strcmp(values, "@none"))
		fputs(" -f", out);
	else if (!strcmp(values, "@targets")) {
		fputs(" -f -a '", out);
		put_targets(out);
		fputc('\'', out);
	} else if (words) {
		fputs(" -f -a ", out);
		struct buf b = BUF_INIT;
		buf_printf(&b, "(%s)", words);
		put_quoted(out, b.p, b.len);
		buf_free(&b);
	} else {
		fprintf(out, " -f -a '%s'", values);
	}
}

static void write_fish(FILE *out)
{
	fputs("# fish completion for trainforge, printed by `trainforge completion fish`\n"
	      "# from the command table (cli/cli_options.def); do not edit. Save it as\n"
	      "# ~/.config/fish/completions/trainforge.fish.\n"
	      "complete -c trainforge -f\n"
	      "complete -c trainforge -s h -l help -d 'print the help'\n"
	      "complete -c trainforge -l version -d 'print the version'\n", out);
	for (int i = 0; i < CMD__COUNT; i++) {
		fprintf(out, "complete -c trainforge -n __fish_use_subcommand -a %s -d ", command_table[i].name);
		put_summary(out, command_table[i].summary);
		fputc('\n', out);
	}
	for (int i = 0; i < CMD__COUNT; i++) {
		const struct command_row *c = &command_table[i];
		fprintf(out, "complete -c trainforge -n '__fish_seen_subcommand_from %s'", c->name);
		fish_values(out, c->args);
		fputc('\n', out);
		for (size_t k = 0; k < option_count; k++) {
			const struct option_row *r = &option_table[k];
			if ((int)r->cmd != i || r->id < 0)
				continue;
			fprintf(out, "complete -c trainforge -n '__fish_seen_subcommand_from %s'", c->name);
			if (r->short_name)
				fprintf(out, " -s %c", r->short_name);
			fprintf(out, " -l %s", r->long_name);
			if (r->metavar) {
				fputs(" -r", out);
				fish_values(out, r->values);
			}
			fputs(" -d ", out);
			put_summary(out, r->help);
			fputc('\n', out);
		}
	}
}

static const struct {
	const char *name;
	void (*write)(FILE *out);
} shells[] = {
	{ "bash", write_bash }, { "zsh", write_zsh }, { "fish", write_fish },
};

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
	for (size_t i = 0; shell && i < sizeof shells / sizeof shells[0]; i++)
		if (!strcmp(shell, shells[i].name)) {
			shells[i].write(stdout);
			return ferror(stdout) ? EXIT_TROUBLE : EXIT_CLEAN;
		}
	if (shell)
		fprintf(stderr, "trainforge: no completion for '%s' (bash, zsh, fish)\n", shell);
	options_usage(stderr, CMD_COMPLETION);
	return EXIT_TROUBLE;
}
