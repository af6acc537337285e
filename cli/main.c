/* trainforge: generate and lint ParallelCluster configs and Slurm batch
 * scripts for distributed training. main only dispatches. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cli_options.h"

int cmd_version(int argc, char **argv)
{
	struct options p;
	options_init(&p, CMD_VERSION, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;)
		if (id == OPTS_HELP || id == OPTS_ERROR)
			return id == OPTS_HELP ? EXIT_CLEAN : EXIT_TROUBLE;
	options_version(stdout);
	return EXIT_CLEAN;
}

/* The functions of cli_options.def's COMMAND rows, in its order. */
static int (*const run[CMD__COUNT])(int argc, char **argv) = {
#define COMMAND(id, name, fn, args, synopsis, summary, about) [CMD_##id] = fn,
#define OPTION(cmd, id, s, l, metavar, values, help)
#define ALSO(cmd, id, s, l, metavar, values, help)
#define GROUP(cmd, heading)
#include "cli_options.def"
#undef COMMAND
#undef OPTION
#undef ALSO
#undef GROUP
};

static void usage(FILE *out)
{
	fputs("usage: trainforge COMMAND [OPTIONS] [ARGS]\n\ncommands:\n", out);
	options_commands(out);
	fputs("\n'trainforge COMMAND --help' describes a command's options.\n", out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	if (strcmp(argv[1], "--version") == 0)
		return cmd_version(argc - 1, argv + 1);
	int cmd = command_find(argv[1]);
	if (cmd >= 0)
		return run[cmd](argc - 1, argv + 1);
	fprintf(stderr, "trainforge: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_TROUBLE;
}
