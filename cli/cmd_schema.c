/* trainforge schema jobspec|parallelcluster|tco|config [--target T] [--all-releases]:
 * prints an embedded JSON Schema, for editors (yaml-language-server) and
 * other validators, as the target release has it. */
#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "buf.h"
#include "commands.h"
#include "cli_options.h"
#include "schema.h"
#include "targets.h"
#include "yamldoc.h"

static const struct {
	const char *name, *asset;
} schemas[] = {
	{ "jobspec", "jobspec.schema.json" },
	{ "parallelcluster", "parallelcluster.schema.json" },
	{ "tco", "tco.schema.json" },
	{ "config", "trainforge-config.schema.json" },
};

static int write_out(const char *text, size_t len)
{
	if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		perror("trainforge: writing the schema");
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static int print(const struct asset *a, bool all, struct version release)
{
	if (all)
		return write_out(a->text, a->len);
	yamldoc *doc = yamldoc_parse(a->text, a->len, NULL);
	struct buf out = BUF_INIT;
	schema_print_release(doc, release, &out);
	int rc = write_out(out.p, out.len);
	buf_free(&out);
	yamldoc_free(doc);
	return rc;
}

int cmd_schema(int argc, char **argv)
{
	const char *name = NULL;
	bool all = false;
	struct target_request req = { 0 };
	struct options p;
	options_init(&p, CMD_SCHEMA, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPTS_ERROR: return EXIT_TROUBLE;
		case OPT_ALL_RELEASES: all = true; break;
		case OPT_TARGET:
			if (!targets_add(&req, p.value))
				return EXIT_TROUBLE;
			break;
		case OPTS_OPERAND:
			if (name) {
				fprintf(stderr, "trainforge: unexpected '%s'\n", p.value);
				options_usage(stderr, CMD_SCHEMA);
				return EXIT_TROUBLE;
			}
			name = p.value;
			break;
		}
	}
	if (!name) {
		options_usage(stderr, CMD_SCHEMA);
		return EXIT_TROUBLE;
	}
	struct target t = target_apply(target_default(), &req);
	for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
		if (strcmp(name, schemas[i].name) != 0)
			continue;
		const struct asset *a = asset_find(schemas[i].asset);
		if (!a) {
			fprintf(stderr, "trainforge: the %s schema is not built in\n", name);
			return EXIT_TROUBLE;
		}
		/* a job spec's versioned values are the config's: the same release */
		return print(a, all, t.pc);
	}
	fprintf(stderr, "trainforge: unknown schema '%s' (jobspec, parallelcluster, tco, config)\n", name);
	options_usage(stderr, CMD_SCHEMA);
	return EXIT_TROUBLE;
}
