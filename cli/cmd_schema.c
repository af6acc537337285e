/* trainforge schema jobspec|parallelcluster|tco [--target T] [--all-releases]:
 * prints an embedded JSON Schema, for editors (yaml-language-server) and
 * other validators, as the target release has it. */
#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "buf.h"
#include "commands.h"
#include "schema.h"
#include "targets.h"
#include "yamldoc.h"

static const char schema_usage[] =
	"usage: trainforge schema jobspec|parallelcluster|tco [--target T] [--all-releases]\n"
	"  Prints the JSON Schema (draft 2020-12) of a job spec, a ParallelCluster 3\n"
	"  config or the cost inputs of plan --tco,\n"
	"  e.g. trainforge schema parallelcluster > parallelcluster.schema.json\n"
	"  --target T       parallelcluster=V: the schema of that release (default: the\n"
	"                   newest, 3.16); keys and values it lacks are left out\n"
	"  --all-releases   the schema of every release, with its release tags\n"
	"                   (x-since, x-until), byte for byte as built in\n";

static const struct {
	const char *name, *asset;
} schemas[] = {
	{ "jobspec", "jobspec.schema.json" },
	{ "parallelcluster", "parallelcluster.schema.json" },
	{ "tco", "tco.schema.json" },
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
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			fputs(schema_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(s, "--all-releases")) {
			all = true;
		} else if ((!strcmp(s, "--target") && i + 1 < argc) || !strncmp(s, "--target=", 9)) {
			if (!targets_add(&req, s[8] == '=' ? s + 9 : argv[++i]))
				return EXIT_TROUBLE;
		} else if (s[0] == '-' || name) {
			fprintf(stderr, "trainforge: unexpected '%s'\n%s", s, schema_usage);
			return EXIT_TROUBLE;
		} else {
			name = s;
		}
	}
	if (!name) {
		fputs(schema_usage, stderr);
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
	fprintf(stderr, "trainforge: unknown schema '%s' (jobspec, parallelcluster, tco)\n%s",
		name, schema_usage);
	return EXIT_TROUBLE;
}
