#include "jobspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "fileio.h"
#include "format.h"
#include "lint.h"
#include "output.h"
#include "render.h"
#include "issues.h"
#include "suppress.h"
#include "xalloc.h"

/* Only a document without issues is bound: libcyaml would stop at the
 * first duplicate key that our loader has already reported. */
static bool check(struct source *src, const yamldoc *doc, const struct target *target,
		  struct spec *spec, struct plan *plan, struct diag_list *diags)
{
	memset(spec, 0, sizeof *spec);
	spec->target = target ? *target : target_default();
	if (yamldoc_issue_count(doc) || !spec_load(spec, src, doc, diags))
		return false;
	return plan_derive(plan, spec, diags);
}

bool jobspec_open(struct jobspec *js, const char *path, const struct target *target,
		  struct diag_list *diags)
{
	memset(js, 0, sizeof *js);
	size_t len;
	bool too_big;
	char *text = file_read(path, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	if (text && too_big) {
		free(text);
		text = NULL;
		errno = EFBIG;
	}
	if (!text) {
		fprintf(stderr, "trainforge: %s: %s\n", path, strerror(errno ? errno : EIO));
		return false;
	}
	js->src = source_new(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len);
	js->src->kind = KIND_JOBSPEC;
	js->doc = yamldoc_parse(js->src->text, js->src->len, NULL);
	size_t before = diags->len;
	issues_report(diags, js->src, js->doc, KIND_JOBSPEC);
	js->ok = check(js->src, js->doc, target, &js->spec, &js->plan, diags);
	/* `# trainforge disable=` holds for gen and plan as it does for lint;
	 * a suppressed error still stops gen (check returned false). */
	static bool every_rule[RULE__COUNT];
	for (size_t i = 0; i < RULE__COUNT; i++)
		every_rule[i] = true;
	diag_collapse(diags, before, js->src, every_rule);
	suppress_apply(js->src, js->doc, NULL, diags, before, every_rule, !yamldoc_broken(js->doc));
	for (size_t i = before; i < diags->len; i++)
		js->ok &= diags->v[i].sev != SEV_ERROR;
	return true;
}

void jobspec_close(struct jobspec *js)
{
	spec_free(&js->spec);
	yamldoc_free(js->doc);
	/* the source outlives the spec: diagnostics point into it */
}

void jobspec_lint(struct source *src, const yamldoc *doc, struct diag_list *diags)
{
	jobspec_lint_at(src, doc, NULL, diags);
}

/* As gen does, the files it would write are linted too: what a spec
 * value causes in them is the spec's finding (JS4006). */
void jobspec_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		     struct diag_list *diags)
{
	struct jobspec js = { .src = src, .doc = (yamldoc *)doc };
	if (check(src, doc, target, &js.spec, &js.plan, diags)) {
		struct gen_files files = { 0 };
		struct jobspec_templates templates;
		char err[256];
		jobspec_outputs_check(&js, src->path, NULL, ".", target, &files, diags, NULL, &templates,
				      err, sizeof err);
		gen_files_free(&files);
		jobspec_templates_free(&templates);
	}
	spec_free(&js.spec);
}

/* ---- the files gen would write -------------------------------------------
 * A generated file that does not lint clean is either the user's doing
 * (a spec value on the line, a line of a template given with --templates)
 * or trainforge's. The first is reported where the user can change it. */

static const char *line_of(const char *text, size_t len, uint32_t line, size_t *n)
{
	const char *s = text, *end = text + len;
	for (uint32_t l = 1; l < line && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	*n = (size_t)((nl ? nl : end) - s);
	return s;
}

/* Whether the line holds the value as gen writes it: as it is (a value
 * of two characters or more: one character is on most lines), or as one
 * of gen's escapers makes it a shell word or a YAML scalar, quoted. */
static bool line_holds(const char *line, size_t len, const char *s, size_t sl)
{
	static const esc_fn escapers[] = { esc_shell, esc_yaml };
	if (sl >= 2 && memmem(line, len, s, sl))
		return true;
	for (size_t i = 0; i < sizeof escapers / sizeof escapers[0]; i++) {
		struct buf b = BUF_INIT;
		escapers[i](&b, s, sl);
		bool found = b.len && memmem(line, len, b.p, b.len);
		buf_free(&b);
		if (found)
			return true;
	}
	return false;
}

/* The spec node whose text is on the line, the longest: any value, and
 * the names under env and path_prepend. */
static void value_on_line(const yamldoc *d, yd_node n, bool names, const char *line, size_t len,
			  yd_node *best, size_t *best_len, int depth)
{
	if (!n || depth > 32)
		return;
	if (yd_kind(d, n) == YD_SCALAR) {
		size_t sl;
		const char *s = yd_str(d, n, &sl);
		if (s && sl && sl > *best_len && line_holds(line, len, s, sl)) {
			*best = n;
			*best_len = sl;
		}
		return;
	}
	for (size_t i = 0; i < yd_len(d, n); i++) {
		if (yd_kind(d, n) == YD_SEQUENCE) {
			value_on_line(d, yd_item(d, n, i), false, line, len, best, best_len, depth + 1);
			continue;
		}
		yd_node k = yd_key(d, n, i);
		if (names)
			value_on_line(d, k, false, line, len, best, best_len, depth + 1);
		bool sub = depth == 0 && (yd_str_eq(d, k, "env") || yd_str_eq(d, k, "path_prepend"));
		value_on_line(d, yd_value(d, n, i), sub, line, len, best, best_len, depth + 1);
	}
}

static size_t indent_of(const char *line, size_t len)
{
	size_t n = 0;
	while (n < len && (line[n] == ' ' || line[n] == '-'))
		n++;
	return n;
}

/* The line of a user template that is the generated line itself, or 0. */
static uint32_t template_line(const struct source *t, const char *line, size_t len)
{
	uint32_t l = 1;
	for (const char *s = t->text, *end = t->text + t->len; s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		if (n == len && len && !memcmp(s, line, len))
			return l;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

static struct source *user_template(const char *dir, const char *name, struct jobspec_templates *t)
{
	if (!dir)
		return NULL;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	for (size_t i = 0; i < t->len; i++)
		if (!strcmp(t->v[i]->path, path))
			return t->v[i];
	size_t len;
	bool too_big;
	char *text = file_read(path, 1u << 22, &len, &too_big);
	if (!text || t->len == sizeof t->v / sizeof t->v[0]) {
		free(text);
		return NULL;
	}
	return t->v[t->len++] = source_new(path, text, len);
}

/* Generated words that carry a spec key's value, which may be too short
 * to find on the line by itself (processes_per_node: 2). */
static const struct {
	const char *word;
	const char *key;
} word_keys[] = {
	{ "--nproc_per_node=", "processes_per_node" },
};

static yd_node key_on_line(const yamldoc *d, const char *line, size_t len)
{
	for (size_t i = 0; i < sizeof word_keys / sizeof word_keys[0]; i++)
		if (memmem(line, len, word_keys[i].word, strlen(word_keys[i].word)))
			return yd_get(d, yd_root(d), word_keys[i].key);
	return 0;
}

/* JS4006 generated-file-finding */
static bool generated_file_finding(struct jobspec *js, const struct gen_file *f, const struct diag *g,
				   const char *templates_dir, struct jobspec_templates *templates,
				   struct diag_list *diags)
{
	size_t len;
	const char *line = line_of(f->text, f->len, g->line, &len);
	char id[8];
	struct diag *d = NULL;
	struct source *t = user_template(templates_dir, f->template, templates);
	uint32_t tl = t ? template_line(t, line, len) : 0;
	if (tl) {
		d = diag_add(diags, t, R_JS4006, tl, 1, tl, (uint32_t)len + 1,
			     "this line of your template makes %s:%u:%u: %s [%s]", f->name, g->line, g->col,
			     g->msg, diag_id(g, id));
	} else {
		yd_node best = 0;
		size_t best_len = 0;
		value_on_line(js->doc, yd_root(js->doc), false, line, len, &best, &best_len, 0);
		/* a finding at a key that opens a mapping of the config is about
		 * what the mapping holds: the lines indented under it */
		const char *end = f->text + f->len, *next = line + len;
		while (!best && strcmp(f->kind, "pcluster") == 0 && next < end) {
			next++; /* past the newline */
			const char *nl = memchr(next, '\n', (size_t)(end - next));
			size_t n = (size_t)((nl ? nl : end) - next);
			if (!n || indent_of(next, n) <= indent_of(line, len))
				break;
			value_on_line(js->doc, yd_root(js->doc), false, next, n, &best, &best_len, 0);
			next += n;
		}
		if (!best)
			best = key_on_line(js->doc, line, len);
		if (!best)
			return false;
		d = spec_report_at(&js->spec, diags, R_JS4006, best,
				   "this value makes the generated %s:%u:%u: %s [%s]", f->name, g->line,
				   g->col, g->msg, diag_id(g, id));
	}
	d->sev = g->sev;
	if (g->help)
		diag_set_help(d, "%s", g->help);
	return true;
}

int jobspec_outputs_check(struct jobspec *js, const char *spec_path, const char *templates_dir,
			  const char *dir, const struct target *target, struct gen_files *files,
			  struct diag_list *diags, FILE *internal,
			  struct jobspec_templates *templates, char *err, size_t cap)
{
	memset(templates, 0, sizeof *templates);
	if (!render_all(&js->plan, &js->spec, spec_path, templates_dir, files, err, cap))
		return -1;
	struct lint_options opt;
	lint_options_init(&opt);
	opt.target = target ? *target : target_default();
	opt.shellcheck = SHELLCHECK_OFF; /* the tests run shellcheck on every output */
	struct lint_run run;
	lint_run_init(&run, &opt);
	/* the config first, so that the script pairs with it; the spot
	 * watcher and Pyxis's set-up are plain shell scripts, which
	 * shellcheck lints in the tests, and the image config is
	 * ParallelCluster's build-image format, which the tests give to its
	 * own schema */
	char paths[GEN_FILES_MAX][4096];
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < files->len; i++) {
			if ((strcmp(files->v[i].kind, "pcluster") == 0) != (pass == 0) ||
			    (strcmp(files->v[i].kind, "pcluster") && strcmp(files->v[i].kind, "sbatch")))
				continue;
			struct buf path = BUF_INIT;
			output_path(&path, dir, files->v[i].name);
			snprintf(paths[i], sizeof paths[i], "%s", path.p);
			buf_free(&path);
			lint_text(&run, paths[i], files->v[i].text, files->v[i].len, true);
		}
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	struct diag_list unexplained = { 0 };
	for (size_t i = 0; i < run.diags.len; i++) {
		const struct diag *g = &run.diags.v[i];
		if (g->sev < SEV_WARNING)
			continue; /* notes (a type newer than the catalog) are not defects */
		const struct gen_file *f = NULL;
		for (size_t k = 0; k < files->len; k++)
			if (g->src && !strcmp(g->src->path, paths[k]) &&
			    (!strcmp(files->v[k].kind, "pcluster") || !strcmp(files->v[k].kind, "sbatch")))
				f = &files->v[k];
		if (f && generated_file_finding(js, f, g, templates_dir, templates, diags))
			continue;
		struct diag *u = diag_add(&unexplained, g->src, g->rule, g->line, g->col, g->end_line,
					  g->end_col, "%s", g->msg);
		u->sev = g->sev;
		u->ext_code = g->ext_code;
	}
	if (unexplained.len && internal) {
		fputs("trainforge: the generated files have findings that no input explains; this is a trainforge bug:\n",
		      internal);
		format_write(internal, FMT_CONCISE, &unexplained, false);
	}
	int n = (int)unexplained.len;
	diag_list_free(&unexplained);
	lint_run_fini(&run);
	return n;
}

void jobspec_templates_free(struct jobspec_templates *t)
{
	for (size_t i = 0; i < t->len; i++)
		source_free(t->v[i]);
	t->len = 0;
}

int jobspec_generate(struct jobspec *js, const char *spec_path, const char *templates_dir,
		     const char *dir, const struct target *target, struct diag_list *diags,
		     struct jobspec_output *out)
{
	memset(out, 0, sizeof *out);
	if (!js->ok)
		return 0;
	FILE *internal = open_memstream(&out->bug, &out->bug_len);
	size_t before = diags->len;
	out->unexplained = jobspec_outputs_check(js, spec_path, templates_dir, dir, target, &out->files,
						 diags, internal, &out->templates, out->err,
						 sizeof out->err);
	if (internal)
		fclose(internal);
	for (size_t i = before; i < diags->len; i++)
		js->ok &= diags->v[i].sev < SEV_WARNING;
	return out->unexplained;
}

void jobspec_output_free(struct jobspec_output *out)
{
	gen_files_free(&out->files);
	jobspec_templates_free(&out->templates);
	free(out->bug);
	memset(out, 0, sizeof *out);
}
