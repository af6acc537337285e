/* .trainforge.yaml (lint/settings/settings.h): the input is written as the config
 * file of a private directory tree and read through --config, then the
 * options of a few paths in that tree are resolved (globs of exclude and
 * per-file-ignores, extends, cluster) and --show-config is written to
 * /dev/null; the input's first line is also tried as a rule selector. The
 * same text is checked as `lint .trainforge.yaml` does (settings_check,
 * its problems as findings), and under a lenient discovery (the editor's). 
 * The tree holds a second config file, so `extends: b.yaml` reaches one. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "settings.h"
#include "fuzz.h"
#include "lint.h"

static char dir[64], settings_path[128];
static const char *const paths[] = {
	"c.yaml", "clusters/test-1.yaml", "build/x/bad.yaml", "jobs/train.sbatch",
};

static void cleanup(void)
{
	char p[160];
	snprintf(p, sizeof p, "%s/b.yaml", dir);
	unlink(p);
	unlink(settings_path);
	rmdir(dir);
}

static void setup(void)
{
	strcpy(dir, "/tmp/tf-fuzz-config-XXXXXX");
	FUZZ_CHECK(mkdtemp(dir) != NULL);
	snprintf(settings_path, sizeof settings_path, "%s/.trainforge.yaml", dir);
	char p[160];
	snprintf(p, sizeof p, "%s/b.yaml", dir);
	FILE *f = fopen(p, "w");
	FUZZ_CHECK(f != NULL);
	fputs("ignore: [PC1004]\nseverity: {PC2101: info}\nper-file-ignores:\n  \"*.yaml\": [PC2]\n", f);
	fclose(f);
	/* the config must not find the user's own file */
	setenv("XDG_CONFIG_HOME", dir, 1);
	atexit(cleanup);
}

static void count_problem(void *ctx, struct yd_span at, const char *msg, const char *help)
{
	FUZZ_CHECK(at.line >= 1 && msg && *msg);
	(void)help;
	++*(size_t *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	FILE *f = fopen(settings_path, "w");
	FUZZ_CHECK(f != NULL);
	fwrite(data, 1, size, f);
	fclose(f);

	struct lint_options base;
	lint_options_init(&base);
	base.shellcheck = SHELLCHECK_OFF;
	struct settings_flags flags = { .config_path = settings_path, .fail_level = -1 };
	struct trouble trouble = { 0 };
	settings *cfg = settings_new(&base, &flags, &trouble);
	if (cfg) {
		FILE *null = fuzz_devnull();
		for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
			char p[192];
			snprintf(p, sizeof p, "%s/%s", dir, paths[i]);
			const struct lint_options *o = settings_options_for(cfg, p);
			FUZZ_CHECK(o != NULL);
			(void)settings_fail_level(cfg, p);
			if (i == 0)
				(void)settings_show(cfg, p, null);
		}
		fflush(null);
		settings_free(cfg);
	}
	trouble_free(&trouble);

	/* as lint checks a named .trainforge.yaml: each problem a finding */
	yamldoc *doc = yamldoc_parse((const char *)data, size, NULL);
	size_t problems = 0;
	settings_check(settings_path, (const char *)data, size, doc, count_problem, &problems);
	yamldoc_free(doc);
	/* the editor's discovery: a broken file is set aside */
	struct settings_flags lenient = { .fail_level = -1, .lenient = true };
	struct trouble t2 = { 0 };
	settings *found = settings_new(&base, &lenient, &t2);
	char p[192];
	snprintf(p, sizeof p, "%s/%s", dir, paths[0]);
	FUZZ_CHECK(found && settings_options_for(found, p) != NULL && !settings_failed(found));
	settings_free(found);
	trouble_free(&t2);

	bool mark[RULE__COUNT];
	const char *nl = memchr(data, '\n', size);
	size_t len = nl ? (size_t)(nl - (const char *)data) : size;
	(void)settings_select((const char *)data, len, mark, true);
	return 0;
}
