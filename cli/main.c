/* trainforge: generate and lint ParallelCluster configs and Slurm batch
 * scripts for distributed training. main only dispatches. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("trainforge %s (C11, built %s with %s)\n", TF_VERSION, __DATE__,
#ifdef __clang__
	       "clang " __clang_version__
#else
	       "gcc " __VERSION__
#endif
	);
	return EXIT_CLEAN;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "gen", cmd_gen, "write a cluster config and batch script from a job spec" },
	{ "plan", cmd_plan, "print a job spec's derived layout, checks and cost, or a cluster config's cost by queue" },
	{ "lint", cmd_lint, "check ParallelCluster configs and job specs (files, directories, - for stdin)" },
	{ "diff", cmd_diff, "review a cluster config change as pcluster update-cluster would: diff OLD NEW" },
	{ "rules", cmd_rules, "list every rule: ID, name, default level, summary" },
	{ "instances", cmd_instances, "list the instance catalog: accelerators, memory, EFA, prices with their sources" },
	{ "explain", cmd_explain, "explain a rule: why it matters, a bad and a good example, how to suppress it" },
	{ "docs", cmd_docs, "print the rules reference: trainforge docs rules > docs/rules.md" },
	{ "init", cmd_init, "write a commented .trainforge.yaml and a starter job spec; print a pre-commit stanza" },
	{ "schema", cmd_schema, "print a JSON Schema for editors: jobspec or parallelcluster" },
	{ "lsp", cmd_lsp, "run a language server on stdio (diagnostics and their fixes)" },
	{ "version", cmd_version, "print the version" },
};

static void usage(FILE *out)
{
	fputs("usage: trainforge COMMAND [OPTIONS] [ARGS]\n\ncommands:\n", out);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
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
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "trainforge: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_TROUBLE;
}
