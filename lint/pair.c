/* Which cluster config each batch script is checked against, and which
 * shell scripts run on every node because a batch script starts them
 * (docs/design.md, "Pairing"): --cluster, then a `# trainforge
 * cluster=PATH` comment, then `cluster:` in the settings, then the only
 * cluster config among the inputs, then the one among the inputs whose
 * queues hold the script's partition, then (hooks and editors, which see
 * one file at a time) the only cluster config git tracks. */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "buf.h"
#include "fileio.h"
#include "lint_internal.h"
#include "ln.h"
#include "sbatch.h"
#include "xalloc.h"

/* path without empty and "." segments, and "dir/.." pairs: out//x.yaml,
 * ./out/x.yaml and jobs/../out/x.yaml are out/x.yaml. */
static void lexical(const char *path, struct buf *out)
{
	if (path[0] == '/')
		buf_putc(out, '/');
	size_t root = out->len;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, "/");
		const char *last = out->len > root ? out->p + root : NULL;
		if (last) { /* the last segment so far */
			const char *slash = strrchr(out->p + root, '/');
			last = slash ? slash + 1 : out->p + root;
		}
		if (n == 2 && !memcmp(p, "..", 2) && last && strcmp(last, "..")) {
			out->len = (size_t)(last - out->p);
			if (out->len > root)
				out->len--; /* its slash */
			out->p[out->len] = '\0';
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (out->len > root)
				buf_putc(out, '/');
			buf_put(out, p, n);
		}
		p += n + (p[n] == '/');
	}
}

/* Two names of one file, also before it is written (gen lints the files
 * it is about to write under the names it will give them). */
static bool same_file(const char *a, const char *b)
{
	struct buf la = BUF_INIT, lb = BUF_INIT;
	lexical(a, &la);
	lexical(b, &lb);
	bool same = la.len == lb.len && !memcmp(la.p, lb.p, la.len);
	buf_free(&la);
	buf_free(&lb);
	char ra[PATH_MAX], rb[PATH_MAX];
	return same || (realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb));
}

static struct lint_file *find_cluster(const struct lint_run *run, const char *path)
{
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		if (f->kind == KIND_PCLUSTER && f->complete && strcmp(f->src->path, path) == 0)
			return f;
	}
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		if (f->kind == KIND_PCLUSTER && f->complete && same_file(f->src->path, path))
			return f;
	}
	return NULL;
}

/* Reads the cluster config a script names; NULL when it cannot be used.
 * Relative paths are relative to the script. */
static const struct cluster *load_cluster(struct lint_run *run, const char *path,
					  const char *relative_to)
{
	struct buf full = BUF_INIT;
	if (path[0] != '/' && relative_to) {
		char *copy = xstrdup(relative_to);
		buf_printf(&full, "%s/%s", dirname(copy), path);
		free(copy);
	} else {
		buf_puts(&full, path);
	}
	struct lint_file *f = find_cluster(run, full.p);
	if (f) {
		buf_free(&full);
		return &f->cluster;
	}
	size_t len;
	bool too_big;
	char *text = file_read(full.p, run->opt->max_bytes, &len, &too_big);
	if (!text || too_big) {
		free(text);
		buf_free(&full);
		return NULL;
	}
	f = lint_add_file(run, full.p, text, len, false);
	buf_free(&full);
	f->input = false;
	if (lint_parse_yaml(run, f, KIND_AUTO) != KIND_PCLUSTER || yamldoc_broken(f->doc))
		return NULL;
	f->kind = f->src->kind = KIND_PCLUSTER;
	f->complete = true;
	f->cluster = cluster_of(f->src, f->doc);
	return &f->cluster;
}

static bool is_batch_script(const struct lint_file *f)
{
	return f->kind == KIND_SBATCH && !f->shell && f->model;
}

/* The one input config with a queue named as the script's partition. */
static struct lint_file *by_partition(struct lint_run *run, const struct lint_file *script,
				      const char **partition)
{
	const struct sb_directive *d = sb_directive_find_in(script->model, 0, "partition");
	if (!d || !d->value || !d->value[0] || strchr(d->value, ','))
		return NULL;
	struct lint_file *found = NULL;
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		if (!f->input || f->kind != KIND_PCLUSTER || !f->complete)
			continue;
		yd_node queues = cluster_queues(&f->cluster);
		for (size_t q = 0; q < yd_len(f->doc, queues); q++)
			if (yd_str_eq(f->doc, yd_get(f->doc, yd_item(f->doc, queues, q), "Name"), d->value)) {
				if (found && found != f)
					return NULL; /* two configs have it: neither */
				found = f;
			}
	}
	*partition = d->value;
	return found;
}

/* Whether text looks like a cluster config: top-level HeadNode and
 * Scheduling keys (the parse decides; this only spares parsing the
 * repository's other YAML). */
static bool has_top_key(const char *text, size_t len, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text, *end = text + len; p && p + k < end;) {
		if (!memcmp(p, key, k) && p[k] == ':')
			return true;
		p = memchr(p, '\n', (size_t)(end - p));
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* The only cluster config git tracks in the script's repository, as a
 * path the run can open; NULL when there is none or more than one. */
static char *only_tracked(const struct lint_run *run, const struct lint_file *script)
{
	char *copy = xstrdup(script->src->path);
	char *dir = xstrdup(strchr(copy, '/') ? dirname(copy) : ".");
	free(copy);
	/* an editor's new file may be in a directory not made yet */
	for (char *slash; access(dir, F_OK) != 0 && (slash = strrchr(dir, '/')) && slash > dir;)
		*slash = '\0';
	size_t len;
	char *list = base_tracked_yaml(dir, &len);
	char *found = NULL;
	int n = 0;
	for (size_t at = 0; list && at < len && n < 2; at += strlen(list + at) + 1) {
		struct buf joined = BUF_INIT, path = BUF_INIT;
		if (strcmp(dir, "."))
			buf_printf(&joined, "%s/", dir);
		buf_puts(&joined, list + at);
		lexical(joined.p, &path); /* jobs/../a.yaml is a.yaml */
		buf_free(&joined);
		size_t tlen;
		bool too_big;
		char *text = file_read(path.p, run->opt->max_bytes, &tlen, &too_big);
		if (text && !too_big && has_top_key(text, tlen, "HeadNode") &&
		    has_top_key(text, tlen, "Scheduling")) {
			n++;
			free(found);
			found = buf_detach(&path);
		}
		free(text);
		buf_free(&path);
	}
	free(list);
	free(dir);
	if (n != 1) {
		free(found);
		return NULL;
	}
	return found;
}

const struct cluster *lint_pair(struct lint_run *run, struct lint_file *script,
				size_t known_clusters, struct lint_pairing *how)
{
	char named[4096];
	const struct lint_options *opt = lint_options_of(run, script->src);
	*how = (struct lint_pairing){ PAIR_NAMED, NULL, NULL };
	if (opt->cluster_path)
		return load_cluster(run, opt->cluster_path, NULL);
	if (sbatch_cluster_directive(script->src, named, sizeof named)) {
		const struct cluster *c = load_cluster(run, named, script->src->path);
		if (!c)
			sbatch_report_unreadable_cluster(script->src, named, &run->diags);
		return c;
	}
	if (opt->cluster_fallback) {
		const struct cluster *c = load_cluster(run, opt->cluster_fallback, NULL);
		if (!c)
			sbatch_report_unreadable_cluster(script->src, opt->cluster_fallback, &run->diags);
		return c;
	}
	for (size_t i = 0; known_clusters == 1 && i < run->n_files; i++)
		if (run->files[i]->input && run->files[i]->kind == KIND_PCLUSTER &&
		    run->files[i]->complete) {
			*how = (struct lint_pairing){ PAIR_ONLY_INPUT, run->files[i]->src->path, NULL };
			return &run->files[i]->cluster;
		}
	const char *partition = NULL;
	struct lint_file *f = known_clusters > 1 ? by_partition(run, script, &partition) : NULL;
	if (f) {
		*how = (struct lint_pairing){ PAIR_PARTITION, f->src->path, partition };
		return &f->cluster;
	}
	char *tracked = known_clusters == 0 && opt->pair_tracked ? only_tracked(run, script) : NULL;
	const struct cluster *c = tracked ? load_cluster(run, tracked, NULL) : NULL;
	if (c) {
		struct lint_file *loaded = find_cluster(run, tracked);
		*how = (struct lint_pairing){ PAIR_TRACKED, loaded ? loaded->src->path : NULL, NULL };
	}
	free(tracked);
	if (!c)
		how->by = PAIR_NONE;
	return c;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* No other input of the run has sh's basename. */
static bool only_of_its_name(const struct lint_run *run, const struct lint_file *sh)
{
	for (size_t i = 0; i < run->n_files; i++) {
		const struct lint_file *f = run->files[i];
		if (f != sh && f->input && !strcmp(base_name(f->src->path), base_name(sh->src->path)))
			return false;
	}
	return true;
}

/* A batch script that starts sh with srun: by sh's path, else by the
 * absolute path sh is deployed at when sh's basename is the run's only
 * one (by_name then). */
static const struct lint_file *caller_in(const struct lint_run *run,
					 struct lint_file *const *files, size_t n,
					 const struct lint_file *sh, bool batch_only, bool *by_name)
{
	*by_name = false;
	for (size_t k = 0; k < n; k++) {
		const struct lint_file *f = files[k];
		if (f != sh && f->model && (!batch_only || is_batch_script(f)) &&
		    sbatch_calls_with_srun(f->model, f->src->path, sh->src->path))
			return f;
	}
	if (!only_of_its_name(run, sh))
		return NULL;
	for (size_t k = 0; k < n; k++) {
		const struct lint_file *f = files[k];
		const char *entry;
		struct sb_span at;
		if (f != sh && is_batch_script(f) &&
		    sbatch_calls_by_basename(f->model, sh->src->path, &entry, &at)) {
			*by_name = true;
			return f;
		}
	}
	return NULL;
}

const struct lint_file *lint_caller_of(const struct lint_run *run, struct lint_file *const *scripts,
				       size_t n, const struct lint_file *script, bool *by_name)
{
	return caller_in(run, scripts, n, script, false, by_name);
}

void lint_adopt_shells(struct lint_run *run)
{
	size_t n = run->n_files;
	for (size_t i = 0; i < n; i++) {
		struct lint_file *sh = run->files[i];
		if (!sh->shell)
			continue;
		bool by_name;
		bool called = caller_in(run, run->files, n, sh, true, &by_name) != NULL;
		if (!called) {
			lint_parse_script(sh);
			if (sbatch_runs_launcher(sh->model)) {
				/* a run.sh that a wrapper submits, or that is
				 * started by hand on each node: its own flags
				 * make the world */
				run->files_checked++;
				sh->kind = sh->src->kind = KIND_SBATCH;
				sh->launch = true;
				continue;
			}
			sb_free(sh->model);
			sh->model = NULL;
			lint_template_free(sh->tmpl);
			sh->tmpl = NULL;
			sh->complete = false;
		}
		if (called) {
			run->files_checked++;
			sh->kind = sh->src->kind = KIND_SBATCH;
			lint_parse_script(sh);
		} else if (sh->named && !run->opt->skip_unknown) {
			size_t first = run->diags.len;
			run->files_checked++;
			ln_unknown_kind(&run->diags, sh->src,
				"a shell script without #SBATCH lines that runs no launcher and that no batch script among the inputs starts with srun; only input checks ran");
			lint_apply_selection(run, first);
		} else {
			run->skipped[SKIP_NO_KIND]++;
		}
	}
}
