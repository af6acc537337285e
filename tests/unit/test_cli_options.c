/* The command-line parser (cli/cli_options.c) on the lint and gen rows of
 * cli/cli_options.def: every form a flag may take, operands, and the errors,
 * whose messages go to stderr (captured here). And the table itself:
 * every command's --help fits in 80 columns and has each of its rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_options.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))

/* What the parser made of argv: "id=value" or "@operand" per step, "!"
 * for an error, "?" for help, space-separated. */
static char *parse(enum command cmd, int argc, char **argv)
{
	static char out[512];
	out[0] = '\0';
	struct options p;
	options_init(&p, cmd, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		size_t n = strlen(out);
		if (id == OPTS_ERROR || id == OPTS_HELP) {
			snprintf(out + n, sizeof out - n, "%s%s", n ? " " : "", id == OPTS_ERROR ? "!" : "?");
			break;
		}
		if (id == OPTS_OPERAND)
			snprintf(out + n, sizeof out - n, "%s@%s", n ? " " : "", p.value);
		else
			snprintf(out + n, sizeof out - n, "%s%d=%s", n ? " " : "", id, p.value ? p.value : "");
	}
	return out;
}

/* stderr and stdout into files while a parse runs. */
static char captured[8192];
static char *run_captured(enum command cmd, int argc, char **argv, int fd)
{
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	fflush(fd == 1 ? stdout : stderr);
	int saved = dup(fd);
	dup2(fileno(tmp), fd);
	char *result = parse(cmd, argc, argv);
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	size_t n = fread(captured, 1, sizeof captured - 1, tmp);
	captured[n] = '\0';
	fclose(tmp);
	return result;
}

static void expect(enum command cmd, int argc, char **argv, const char *want)
{
	assert_string_equal(run_captured(cmd, argc, argv, 2), want);
}

static char want[128];
static const char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(want, sizeof want, f, ap);
	va_end(ap);
	return want;
}

static void value_forms(void **state)
{
	(void)state;
	expect(CMD_LINT, ARGC("lint", "--format", "json"), ARGV("lint", "--format", "json"), fmt("%d=json", OPT_FORMAT));
	expect(CMD_LINT, ARGC("lint", "--format=json"), ARGV("lint", "--format=json"), fmt("%d=json", OPT_FORMAT));
	expect(CMD_LINT, ARGC("lint", "-f", "json"), ARGV("lint", "-f", "json"), fmt("%d=json", OPT_FORMAT));
	expect(CMD_LINT, ARGC("lint", "-fjson"), ARGV("lint", "-fjson"), fmt("%d=json", OPT_FORMAT));
	/* a value may begin with a dash or be empty; = is only split once */
	expect(CMD_LINT, ARGC("lint", "--select", "-x"), ARGV("lint", "--select", "-x"),
	       fmt("%d=-x", OPT_SELECT));
	expect(CMD_LINT, ARGC("lint", "--define=A=1"), ARGV("lint", "--define=A=1"), fmt("%d=A=1", OPT_DEFINE));
	expect(CMD_LINT, ARGC("lint", "--base="), ARGV("lint", "--base="), fmt("%d=", OPT_BASE));
}

static void switches_and_bundles(void **state)
{
	(void)state;
	expect(CMD_LINT, ARGC("lint", "--fix", "-q"), ARGV("lint", "--fix", "-q"),
	       fmt("%d= %d=", OPT_FIX, OPT_QUIET));
	/* -qf json: a switch, then a flag that takes the next argument */
	expect(CMD_LINT, ARGC("lint", "-qf", "json"), ARGV("lint", "-qf", "json"),
	       fmt("%d= %d=json", OPT_QUIET, OPT_FORMAT));
	expect(CMD_LINT, ARGC("lint", "-qfjson"), ARGV("lint", "-qfjson"),
	       fmt("%d= %d=json", OPT_QUIET, OPT_FORMAT));
}

static void operands(void **state)
{
	(void)state;
	expect(CMD_LINT, ARGC("lint", "a.yaml", "-", "b.sbatch"), ARGV("lint", "a.yaml", "-", "b.sbatch"),
	       "@a.yaml @- @b.sbatch");
	/* after --, everything is an operand, -- itself and flags too */
	expect(CMD_LINT, ARGC("lint", "-q", "--", "--fix", "--", "-q"), ARGV("lint", "-q", "--", "--fix", "--", "-q"),
	       fmt("%d= @--fix @-- @-q", OPT_QUIET));
	expect(CMD_GEN, ARGC("gen", "job.yaml", "-o", "out"), ARGV("gen", "job.yaml", "-o", "out"),
	       fmt("@job.yaml %d=out", OPT_OUTPUT));
}

static void errors(void **state)
{
	(void)state;
	expect(CMD_LINT, ARGC("lint", "--frobnicate"), ARGV("lint", "--frobnicate"), "!");
	assert_non_null(strstr(captured, "trainforge: unknown option '--frobnicate'\n"));
	assert_non_null(strstr(captured, "usage: trainforge lint"));
	expect(CMD_LINT, ARGC("lint", "--frobnicate=1"), ARGV("lint", "--frobnicate=1"), "!");
	assert_non_null(strstr(captured, "unknown option '--frobnicate'"));
	expect(CMD_LINT, ARGC("lint", "-z"), ARGV("lint", "-z"), "!");
	assert_non_null(strstr(captured, "unknown option '-z'"));
	expect(CMD_LINT, ARGC("lint", "-qz"), ARGV("lint", "-qz"), fmt("%d= !", OPT_QUIET));
	assert_non_null(strstr(captured, "unknown option '-z'"));
	expect(CMD_LINT, ARGC("lint", "x.yaml", "--format"), ARGV("lint", "x.yaml", "--format"), "@x.yaml !");
	assert_non_null(strstr(captured, "trainforge: --format needs a value\n"));
	expect(CMD_LINT, ARGC("lint", "-f"), ARGV("lint", "-f"), "!");
	assert_non_null(strstr(captured, "trainforge: -f needs a value\n"));
	expect(CMD_LINT, ARGC("lint", "--fix=yes"), ARGV("lint", "--fix=yes"), "!");
	assert_non_null(strstr(captured, "--fix takes no value"));
	/* a flag of another command is not one of this command's */
	expect(CMD_GEN, ARGC("gen", "--fix"), ARGV("gen", "--fix"), "!");
	assert_non_null(strstr(captured, "usage: trainforge gen"));
	/* prefixes are not abbreviations */
	expect(CMD_LINT, ARGC("lint", "--form", "json"), ARGV("lint", "--form", "json"), "!");
}

static void help(void **state)
{
	(void)state;
	assert_string_equal(run_captured(CMD_LINT, ARGC("lint", "-q", "--help"), ARGV("lint", "-q", "--help"), 1),
			    fmt("%d= ?", OPT_QUIET));
	assert_non_null(strstr(captured, "usage: trainforge lint"));
	assert_string_equal(run_captured(CMD_GEN, ARGC("gen", "-h"), ARGV("gen", "-h"), 1), "?");
	assert_non_null(strstr(captured, "  -o, --output DIR"));
}

/* Every command's --help: lines of at most 80 columns, and every row. */
static void usage_covers_the_table(void **state)
{
	(void)state;
	for (int cmd = 0; cmd < CMD__COUNT; cmd++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		options_usage(f, (enum command)cmd);
		fclose(f);
		for (const char *line = text; *line;) {
			size_t n = strcspn(line, "\n");
			if (n > 80)
				fail_msg("trainforge %s --help: a line of %zu columns: %.*s", command_table[cmd].name, n,
					 (int)n, line);
			line += n + (line[n] != '\0');
		}
		for (size_t i = 0; i < option_count; i++) {
			const struct option_row *r = &option_table[i];
			if ((int)r->cmd != cmd)
				continue;
			char flag[96];
			snprintf(flag, sizeof flag, r->id < 0 ? "%s" : " --%s", r->long_name);
			if (r->id < 0)
				flag[40] = '\0'; /* a heading wraps; its start is on one line */
			if (!strstr(text, flag))
				fail_msg("trainforge %s --help lacks '%s'", command_table[cmd].name, flag);
		}
		free(text);
	}
}

/* One command per name, one long and one short name per command. */
static void table_is_unambiguous(void **state)
{
	(void)state;
	for (int a = 0; a < CMD__COUNT; a++)
		assert_int_equal(command_find(command_table[a].name), a);
	for (size_t i = 0; i < option_count; i++)
		for (size_t j = i + 1; j < option_count; j++) {
			const struct option_row *x = &option_table[i], *y = &option_table[j];
			if (x->cmd != y->cmd || x->id < 0 || y->id < 0)
				continue;
			if (!strcmp(x->long_name, y->long_name) || (x->short_name && x->short_name == y->short_name) ||
			    x->id == y->id)
				fail_msg("%s: --%s and --%s clash", command_table[x->cmd].name, x->long_name,
					 y->long_name);
			assert_int_not_equal(x->short_name, 'h');
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(value_forms),
		cmocka_unit_test(switches_and_bundles),
		cmocka_unit_test(operands),
		cmocka_unit_test(errors),
		cmocka_unit_test(help),
		cmocka_unit_test(usage_covers_the_table),
		cmocka_unit_test(table_is_unambiguous),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
