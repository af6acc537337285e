/* The tables of cli_options.def, the --help printer and the argv parser. */
#include "cli_options.h"

#include <string.h>

const struct command_row command_table[CMD__COUNT] = {
#define COMMAND(id, name, fn, args, synopsis, summary, about) \
	[CMD_##id] = { name, args, synopsis, summary, about },
#define OPTION(cmd, id, s, l, metavar, values, help)
#define ALSO(cmd, id, s, l, metavar, values, help)
#define GROUP(cmd, heading)
#include "cli_options.def"
#undef COMMAND
#undef OPTION
#undef ALSO
#undef GROUP
};

const struct option_row option_table[] = {
#define COMMAND(id, name, fn, args, synopsis, summary, about)
#define OPTION(cmd, id, s, l, metavar, values, help) \
	{ CMD_##cmd, OPT_##id, s, l, metavar, values, help },
#define ALSO OPTION
#define GROUP(cmd, heading) { CMD_##cmd, -1, 0, heading, NULL, NULL, NULL },
#include "cli_options.def"
#undef COMMAND
#undef OPTION
#undef ALSO
#undef GROUP
};

const size_t option_count = sizeof option_table / sizeof option_table[0];

int command_find(const char *name)
{
	for (int i = 0; i < CMD__COUNT; i++)
		if (!strcmp(command_table[i].name, name))
			return i;
	return -1;
}

/* ---- --help ----------------------------------------------------------- */

enum { WIDTH = 80, HELP_COL = 25 };

/* Prints s[0..len) from column col, breaking at spaces before WIDTH and
 * going on at column indent; returns the column it ends at. */
static int put_wrapped(FILE *out, const char *s, size_t len, int col, int indent)
{
	const char *end = s + len;
	while (s < end) {
		while (s < end && *s == ' ')
			s++;
		size_t word = 0;
		while (s + word < end && s[word] != ' ')
			word++;
		if (!word)
			break;
		bool first = col <= indent;
		if (!first && col + 1 + (int)word > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, word, out);
		col += (int)word;
		s += word;
	}
	return col;
}

static void put_row(FILE *out, char short_name, const char *long_name, const char *metavar,
		    const char *help)
{
	char names[128];
	if (short_name)
		snprintf(names, sizeof names, "  -%c, --%s%s%s", short_name, long_name,
			 metavar ? " " : "", metavar ? metavar : "");
	else
		snprintf(names, sizeof names, "      --%s%s%s", long_name, metavar ? " " : "",
			 metavar ? metavar : "");
	fputs(names, out);
	int col = (int)strlen(names);
	if (col + 1 > HELP_COL) {
		fputc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s", HELP_COL - col, "");
	put_wrapped(out, help, strlen(help), HELP_COL, HELP_COL);
	fputc('\n', out);
}

void options_usage(FILE *out, enum command cmd)
{
	const struct command_row *c = &command_table[cmd];
	for (const char *line = c->synopsis;;) {
		size_t len = strcspn(line, "\n");
		int col = fprintf(out, "usage: trainforge %s%s", c->name, len ? " " : "");
		put_wrapped(out, line, len, col, col);
		fputc('\n', out);
		if (!line[len])
			break;
		line += len + 1;
	}
	fputs("  ", out);
	put_wrapped(out, c->about, strlen(c->about), 2, 2);
	fputc('\n', out);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd != cmd)
			continue;
		if (r->id < 0) {
			put_wrapped(out, r->long_name, strlen(r->long_name), 0, 0);
			fputc('\n', out);
		} else {
			put_row(out, r->short_name, r->long_name, r->metavar, r->help);
		}
	}
	put_row(out, 'h', "help", NULL, "print this help");
	put_row(out, 0, "version", NULL, "print the version and exit");
}

void options_commands(FILE *out)
{
	for (int i = 0; i < CMD__COUNT; i++) {
		int col = fprintf(out, "  %-10s ", command_table[i].name);
		put_wrapped(out, command_table[i].summary, strlen(command_table[i].summary), col, col);
		fputc('\n', out);
	}
}

/* ---- parsing ---------------------------------------------------------- */

void options_init(struct options *p, enum command cmd, int argc, char **argv)
{
	*p = (struct options){ .cmd = cmd, .argc = argc, .argv = argv, .i = 1 };
}

static int fail(struct options *p, const char *fmt, const char *what)
{
	fputs("trainforge: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	options_usage(stderr, p->cmd);
	return OPTS_ERROR;
}

static int help(struct options *p)
{
	options_usage(stdout, p->cmd);
	return OPTS_HELP;
}

void options_version(FILE *out)
{
	fprintf(out, "trainforge %s (C11, built %s with %s)\n", TF_VERSION, __DATE__,
#ifdef __clang__
		"clang " __clang_version__
#else
		"gcc " __VERSION__
#endif
	);
}

/* Installers ask `trainforge lsp --version` of every command they run;
 * it answers as --help does: on stdout, then exit 0. */
static int version(void)
{
	options_version(stdout);
	return OPTS_HELP;
}

/* The value of a flag that takes one: inline (after = or the letter),
 * else the next argument. */
static int take_value(struct options *p, const struct option_row *r, const char *inline_value)
{
	if (inline_value) {
		p->value = inline_value;
	} else if (p->i < p->argc) {
		p->value = p->argv[p->i++];
	} else {
		return fail(p, "%s needs a value", p->flag);
	}
	return r->id;
}

static int long_flag(struct options *p, const char *arg)
{
	const char *name = arg + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	snprintf(p->flag_buf, sizeof p->flag_buf, "--%.*s", (int)len, name);
	p->flag = p->flag_buf;
	if (len == 4 && !strncmp(name, "help", 4) && !eq)
		return help(p);
	if (len == 7 && !strncmp(name, "version", 7) && !eq)
		return version();
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd != p->cmd || r->id < 0 || strlen(r->long_name) != len ||
		    strncmp(r->long_name, name, len))
			continue;
		if (r->metavar)
			return take_value(p, r, eq ? eq + 1 : NULL);
		if (eq)
			return fail(p, "%s takes no value", p->flag);
		p->value = NULL;
		return r->id;
	}
	return fail(p, "unknown option '%s'", p->flag);
}

static int short_flag(struct options *p)
{
	char c = *p->bundle++;
	snprintf(p->flag_buf, sizeof p->flag_buf, "-%c", c);
	p->flag = p->flag_buf;
	const char *rest = *p->bundle ? p->bundle : NULL;
	p->bundle = NULL;
	if (c == 'h' && !rest)
		return help(p);
	for (size_t i = 0; i < option_count; i++) {
		const struct option_row *r = &option_table[i];
		if (r->cmd != p->cmd || r->id < 0 || r->short_name != c)
			continue;
		if (r->metavar)
			return take_value(p, r, rest);
		p->bundle = rest; /* -qf json: the next letters are flags too */
		p->value = NULL;
		return r->id;
	}
	return fail(p, "unknown option '%s'", p->flag);
}

int options_next(struct options *p)
{
	if (p->bundle)
		return short_flag(p);
	if (p->i >= p->argc)
		return OPTS_DONE;
	const char *a = p->argv[p->i++];
	if (p->operands_only || a[0] != '-' || !a[1]) {
		p->value = a;
		return OPTS_OPERAND;
	}
	if (!strcmp(a, "--")) {
		p->operands_only = true;
		return options_next(p);
	}
	if (a[1] == '-')
		return long_flag(p, a);
	p->bundle = a + 1;
	return short_flag(p);
}

int options_bad_value(const struct options *p)
{
	fprintf(stderr, "trainforge: invalid value '%s' for %s\n", p->value, p->flag);
	return 2;
}
