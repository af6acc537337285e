/* The real ParallelCluster corpus in ../shared/corpus/parallelcluster:
 * valid/ lints without errors; every file in invalid/ gets an error at the
 * YAML path its .expect.txt names under `where:`; every file in
 * valid-schema-only/ (which ParallelCluster's validators reject) gets an
 * error. The verdicts are ParallelCluster 3.11's, so the files are linted
 * with that target. Skipped, with a message, when the corpus is not
 * there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lint.h"

static const char *corpus_dir(void)
{
	const char *env = getenv("TF_CORPUS");
	return env ? env : "../shared/corpus/parallelcluster";
}

/* Warnings that valid/ may show, and why they are right there. */
static const struct {
	const char *rule;
	const char *why;
} accepted_warnings[] = {
	{ "PC4003", "relative MountDirs, which the integration tests use on purpose" },
	{ "PC2102", "EFA with the placement group switched off; ParallelCluster warns too" },
	{ "PC2002", "EFA-capable types without EFA; ParallelCluster's EfaValidator warns too" },
	{ "PC2220", "multi-node queues that let jobs share nodes, linted without the scripts that run there: valid, and a risk to the jobs" },
	{ "PC2702", "custom action scripts in a bucket the same config lets nodes write: valid, and a risk (any job there can replace them)" },
};

/* The options the corpus is linted with: ParallelCluster 3.11's. */
static void corpus_options(struct lint_options *opt)
{
	lint_options_init(opt);
	struct target_request r = { .pc = VERSION_LINE(3, 11) };
	opt->target = target_apply(opt->target, &r);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .yaml files of a corpus folder, sorted; NULL-terminated. */
static char **list_yaml(const char *sub)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/%s", corpus_dir(), sub);
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char **v = calloc(1024, sizeof *v);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 1023) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
			v[n] = malloc(strlen(dir) + len + 2);
			sprintf(v[n], "%s/%s", dir, e->d_name);
			n++;
		}
	}
	closedir(d);
	qsort(v, n, sizeof *v, name_cmp);
	return v;
}

static void free_list(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void lint_one(struct lint_run *run, struct lint_options *opt, const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	assert_non_null(text);
	lint_run_init(run, opt);
	lint_text(run, path, text, len, true);
	lint_run_finish(run);
	free(text);
}

/* The finding's path ["A","B",0,"C"] as A.B[0].C */
static void dotted(const struct diag *d, char *out, size_t cap)
{
	size_t o = 0;
	out[0] = '\0';
	struct buf path = BUF_INIT;
	diag_write_path(d, &path);
	const char *json = path.p;
	if (!json || json[0] != '[') {
		buf_free(&path);
		return;
	}
	for (const char *p = json + 1; *p && *p != ']' && o + 2 < cap;) {
		if (*p == ',') {
			p++;
		} else if (*p == '"') {
			if (o)
				out[o++] = '.';
			for (p++; *p && *p != '"' && o + 1 < cap; p++)
				out[o++] = *p == '\\' ? *++p : *p;
			p++;
		} else {
			out[o++] = '[';
			while (*p >= '0' && *p <= '9' && o + 2 < cap)
				out[o++] = *p++;
			out[o++] = ']';
		}
	}
	out[o] = '\0';
	buf_free(&path);
}

/* The where: line as an fnmatch pattern: [i] literal, [anything else] and
 * * wildcards; NULL for <root> (anything matches). */
static int where_pattern(const char *expect_path, char *pat, size_t cap)
{
	size_t len;
	char *text = slurp(expect_path, &len);
	if (!text)
		return -1;
	char *w = strstr(text, "\nwhere: ");
	w = w ? w + 8 : (strncmp(text, "where: ", 7) == 0 ? text + 7 : NULL);
	if (!w) {
		free(text);
		return -1;
	}
	w[strcspn(w, "\n")] = '\0';
	char *cut = strstr(w, " (");
	if (cut)
		*cut = '\0';
	cut = strstr(w, " + ");
	if (cut)
		*cut = '\0';
	int root = strcmp(w, "<root>") == 0;
	size_t o = 0;
	for (char *p = w; *p && o + 4 < cap; p++) {
		if (*p == '[') {
			char *close = strchr(p, ']');
			bool digits = close && close > p + 1 && strspn(p + 1, "0123456789") == (size_t)(close - p - 1);
			if (digits) {
				pat[o++] = '\\';
				pat[o++] = '[';
				continue;
			}
			memcpy(pat + o, "\\[*\\]", 5);
			o += 5;
			p = close ? close : p + strlen(p) - 1;
			continue;
		}
		if (*p == ']')
			pat[o++] = '\\';
		pat[o++] = *p;
	}
	pat[o] = '\0';
	free(text);
	return root;
}

/* A finding is at the named place, under it, or at its parent (a missing
 * key is reported on the mapping that lacks it). */
static bool path_matches(const char *pat, const char *path)
{
	char with_tail[1100];
	if (fnmatch(pat, path, 0) == 0)
		return true;
	snprintf(with_tail, sizeof with_tail, "%s.*", pat);
	if (fnmatch(with_tail, path, 0) == 0)
		return true;
	snprintf(with_tail, sizeof with_tail, "%s\\[*", pat);
	if (fnmatch(with_tail, path, 0) == 0)
		return true;
	const char *last_dot = strrchr(pat, '.');
	if (!last_dot)
		return false;
	char parent[1100];
	snprintf(parent, sizeof parent, "%.*s", (int)(last_dot - pat), pat);
	return fnmatch(parent, path, 0) == 0;
}

static bool corpus_present(void)
{
	char **v = list_yaml("valid");
	bool ok = v && v[0];
	free_list(v);
	if (!ok)
		printf("corpus not found at %s (set TF_CORPUS); skipping\n", corpus_dir());
	return ok;
}

static void valid_configs_have_no_errors(void **state)
{
	(void)state;
	if (!corpus_present())
		skip();
	char **files = list_yaml("valid");
	struct lint_options opt;
	corpus_options(&opt);
	int bad = 0, n = 0;
	size_t accepted[sizeof accepted_warnings / sizeof accepted_warnings[0]] = { 0 };
	for (size_t i = 0; files[i]; i++, n++) {
		struct lint_run run;
		lint_one(&run, &opt, files[i]);
		for (size_t j = 0; j < run.diags.len; j++) {
			const struct diag *d = &run.diags.v[j];
			if (d->sev == SEV_INFO)
				continue;
			bool ok = false;
			for (size_t k = 0; k < sizeof accepted_warnings / sizeof accepted_warnings[0]; k++)
				if (d->sev == SEV_WARNING && strcmp(rule_table[d->rule].id, accepted_warnings[k].rule) == 0) {
					accepted[k]++;
					ok = true;
				}
			if (!ok) {
				printf("  %s:%u:%u: %s: %s [%s]\n", files[i], d->line, d->col,
				       severity_name(d->sev), d->msg, rule_table[d->rule].id);
				bad++;
			}
		}
		lint_run_fini(&run);
	}
	for (size_t k = 0; k < sizeof accepted_warnings / sizeof accepted_warnings[0]; k++)
		printf("valid/: accepted %zu %s warning(s): %s\n", accepted[k],
		       accepted_warnings[k].rule, accepted_warnings[k].why);
	printf("valid/: %d files, %d unexpected findings\n", n, bad);
	free_list(files);
	assert_int_equal(bad, 0);
}

static void invalid_configs_fail_at_the_named_path(void **state)
{
	(void)state;
	if (!corpus_present())
		skip();
	char **files = list_yaml("invalid");
	struct lint_options opt;
	corpus_options(&opt);
	int n = 0, at_path = 0;
	for (size_t i = 0; files[i]; i++, n++) {
		char expect[1024], pat[1024];
		snprintf(expect, sizeof expect, "%.*s.expect.txt",
			 (int)(strlen(files[i]) - 5), files[i]);
		int root = where_pattern(expect, pat, sizeof pat);
		struct lint_run run;
		lint_one(&run, &opt, files[i]);
		bool found = false;
		for (size_t j = 0; j < run.diags.len && !found; j++) {
			const struct diag *d = &run.diags.v[j];
			char path[1024];
			dotted(d, path, sizeof path);
			found = d->sev == SEV_ERROR && (root == 1 || (root == 0 && path_matches(pat, path)));
		}
		if (found) {
			at_path++;
		} else {
			printf("  no error at %s in %s; found:\n", pat, files[i]);
			for (size_t j = 0; j < run.diags.len; j++) {
				char path[1024];
				dotted(&run.diags.v[j], path, sizeof path);
				printf("    %s %s [%s]\n", path, run.diags.v[j].msg,
				       rule_table[run.diags.v[j].rule].id);
			}
		}
		lint_run_fini(&run);
	}
	printf("invalid/: %d of %d files have an error at the expected path\n", at_path, n);
	free_list(files);
	assert_int_equal(at_path, n);
}

static void schema_only_configs_fail_validation(void **state)
{
	(void)state;
	if (!corpus_present())
		skip();
	char **files = list_yaml("valid-schema-only");
	struct lint_options opt;
	corpus_options(&opt);
	int n = 0, rejected = 0;
	for (size_t i = 0; files[i]; i++, n++) {
		struct lint_run run;
		lint_one(&run, &opt, files[i]);
		int errors = 0;
		for (size_t j = 0; j < run.diags.len; j++)
			errors += run.diags.v[j].sev == SEV_ERROR;
		if (errors)
			rejected++;
		else
			printf("  no error in %s\n", files[i]);
		lint_run_fini(&run);
	}
	printf("valid-schema-only/: %d of %d files rejected\n", rejected, n);
	free_list(files);
	assert_int_equal(rejected, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_configs_have_no_errors),
		cmocka_unit_test(invalid_configs_fail_at_the_named_path),
		cmocka_unit_test(schema_only_configs_fail_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
