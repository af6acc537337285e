/* The command line as one table (cli_options.def) and the parser every
 * command reads its argv with: --flag VALUE, --flag=VALUE, -f VALUE,
 * -fVALUE, bundled short switches (-qf json), -- before operands only,
 * and - as an operand (stdin). */
#ifndef TF_OPTIONS_H
#define TF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum command {
#define COMMAND(id, name, fn, args, synopsis, summary, about) CMD_##id,
#define OPTION(cmd, id, s, l, metavar, values, help)
#define ALSO(cmd, id, s, l, metavar, values, help)
#define GROUP(cmd, heading)
#include "cli_options.def"
#undef COMMAND
#undef OPTION
#undef ALSO
#undef GROUP
	CMD__COUNT
};

enum option_id {
#define COMMAND(id, name, fn, args, synopsis, summary, about)
#define OPTION(cmd, id, s, l, metavar, values, help) OPT_##id,
#define ALSO(cmd, id, s, l, metavar, values, help)
#define GROUP(cmd, heading)
#include "cli_options.def"
#undef COMMAND
#undef OPTION
#undef ALSO
#undef GROUP
	OPT__COUNT
};

struct command_row {
	const char *name;
	const char *args;      /* what operands complete to (cli_options.def) */
	const char *synopsis;  /* after "trainforge NAME"; '\n' between forms */
	const char *summary, *about;
};

/* A flag of one command, or (id < 0) a group heading over the rows after it. */
struct option_row {
	enum command cmd;
	int id;                /* enum option_id, or -1 for a GROUP row */
	char short_name;       /* 0: none */
	const char *long_name; /* without the dashes; a GROUP row's heading */
	const char *metavar;   /* NULL: a switch */
	const char *values;    /* for completion (cli_options.def) */
	const char *help;
};

extern const struct command_row command_table[CMD__COUNT];
extern const struct option_row option_table[];
extern const size_t option_count;

/* The command called name, or -1. */
int command_find(const char *name);

/* `trainforge CMD --help`: the usage lines, the about paragraph and each
 * row with its help, wrapped at 80 columns. */
void options_usage(FILE *out, enum command cmd);

/* `trainforge --version` and `trainforge COMMAND --version`. */
void options_version(FILE *out);

/* The command list of `trainforge --help`: each name and its summary. */
void options_commands(FILE *out);

/* What options_next returns besides an option id. */
enum {
	OPTS_OPERAND = -1, /* a positional argument: in p->value */
	OPTS_DONE = -2,
	OPTS_HELP = -3,    /* -h, --help or --version: answered on stdout; exit 0 */
	OPTS_ERROR = -4,   /* a message and the usage are on stderr; exit 2 */
};

struct options {
	enum command cmd;
	int argc;
	char **argv;
	int i;                /* the next argv element */
	const char *bundle;   /* the rest of a short-flag bundle, or NULL */
	bool operands_only;   /* after -- */
	const char *value;    /* the flag's value, or the operand */
	const char *flag;     /* the flag as written, for messages: "--format" */
	char flag_buf[64];
};

/* argv[0] is the command's name; parsing starts at argv[1]. */
void options_init(struct options *p, enum command cmd, int argc, char **argv);
/* The next flag (an enum option_id; its value in p->value when it takes
 * one) or one of OPTS_* above. */
int options_next(struct options *p);

/* "trainforge: invalid value 'V' for --flag\n" on stderr; returns 2. */
int options_bad_value(const struct options *p);

#endif
