#include "shellcheck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "ln.h"
#include "proc.h"
#include "xalloc.h"
#include "yamldoc.h"

/* Codes that misfire on batch scripts linted away from the cluster: a
 * file sourced on the nodes (modules, venvs) does not exist here. */
static const char excluded[] = "SC1090,SC1091";

static char *const fixed_args[] = { "--norc", "-f", "json1", "-e", (char *)excluded };
enum { N_FIXED = sizeof fixed_args / sizeof fixed_args[0] };

bool shellcheck_wanted(const bool *enabled)
{
	return enabled[R_SC0000];
}

double shellcheck_bound(double timeout, size_t bytes)
{
	return timeout + (double)bytes / SHELLCHECK_BYTES_PER_SECOND;
}

static bool write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static const struct {
	const char *level;
	enum severity sev;
} levels[] = {
	{ "error", SEV_ERROR }, { "warning", SEV_WARNING },
	{ "info", SEV_INFO }, { "style", SEV_INFO },
};

static long long num(const yamldoc *d, yd_node obj, const char *key)
{
	long long v = 0;
	yd_int(d, yd_get(d, obj, key), &v);
	return v;
}

/* SC0000 shellcheck: maps json1 comments (columns count a tab as one)
 * to diagnostics of the script whose temporary file name (its index)
 * they name. */
static void add_comments(const char *json, size_t len, struct source *const *scripts,
			 size_t n, const char *dir, struct diag_list *diags)
{
	yamldoc *d = yamldoc_parse(json, len, NULL);
	yd_node list = yd_get(d, yd_root(d), "comments");
	size_t dir_len = strlen(dir);
	for (size_t i = 0; i < yd_len(d, list); i++) {
		yd_node c = yd_item(d, list, i);
		const char *file = yd_str(d, yd_get(d, c, "file"), NULL);
		if (!file || strncmp(file, dir, dir_len) != 0)
			continue;
		size_t ix = strtoul(file + dir_len + 1, NULL, 10);
		if (ix >= n)
			continue;
		enum severity sev = SEV_INFO;
		for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
			if (yd_str_eq(d, yd_get(d, c, "level"), levels[l].level))
				sev = levels[l].sev;
		const char *msg = yd_str(d, yd_get(d, c, "message"), NULL);
		struct diag *g = diag_add(diags, scripts[ix], R_SC0000,
					  (uint32_t)num(d, c, "line"), (uint32_t)num(d, c, "column"),
					  (uint32_t)num(d, c, "endLine"), (uint32_t)num(d, c, "endColumn"),
					  "%s", msg ? msg : "shellcheck finding");
		g->sev = sev;
		g->ext_code = (int)num(d, c, "code");
		diag_set_help(g, "https://www.shellcheck.net/wiki/SC%04d", g->ext_code);
	}
	yamldoc_free(d);
}

/* ---- batches ----------------------------------------------------------- */

/* The scripts one shellcheck process checks, in input order. */
struct batch {
	size_t *ix, n;
	size_t bytes;
	char **argv;
};

struct sized {
	size_t len, ix;
};

static int larger_first(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Splits the scripts into nb batches of about equal bytes (the largest
 * script first, each into the lightest batch so far): shellcheck's time
 * follows the bytes, and the run lasts as long as its slowest batch. */
static struct batch *plan(struct source *const *scripts, size_t n, size_t nb)
{
	struct sized *order = xcalloc(n, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (struct sized){ scripts[i]->len, i };
	qsort(order, n, sizeof *order, larger_first);
	struct batch *b = xcalloc(nb, sizeof *b);
	for (size_t k = 0; k < nb; k++)
		b[k].ix = xcalloc(n, sizeof *b[k].ix);
	for (size_t i = 0; i < n; i++) {
		size_t light = 0;
		for (size_t k = 1; k < nb; k++)
			if (b[k].bytes < b[light].bytes)
				light = k;
		b[light].ix[b[light].n++] = order[i].ix;
		b[light].bytes += order[i].len;
	}
	for (size_t k = 0; k < nb; k++)
		qsort(b[k].ix, b[k].n, sizeof *b[k].ix, by_index);
	free(order);
	return b;
}

static char **batch_argv(const struct batch *b, const char *program, char **paths)
{
	char **argv = xcalloc(1 + N_FIXED + b->n + 1, sizeof *argv);
	size_t argc = 0;
	argv[argc++] = (char *)(program ? program : "shellcheck");
	for (size_t i = 0; i < N_FIXED; i++)
		argv[argc++] = fixed_args[i];
	for (size_t i = 0; i < b->n; i++)
		argv[argc++] = paths[b->ix[i]];
	return argv;
}

/* The scripts as temporary files named by their index, which is how
 * shellcheck's findings name them. False when one could not be written. */
static bool write_scripts(char *dir, struct source *const *scripts, size_t n, char **paths)
{
	bool ok = mkdtemp(dir) != NULL;
	for (size_t i = 0; i < n; i++) {
		struct buf path = BUF_INIT;
		buf_printf(&path, "%s/%zu", dir, i);
		ok = ok && write_file(path.p, scripts[i]->text, scripts[i]->len);
		paths[i] = buf_detach(&path);
	}
	return ok;
}

static void remove_scripts(const char *dir, size_t n, char **paths)
{
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(dir);
}

/* Stopped at its time bound, or out of its memory. */
static bool stalled(const struct proc *p)
{
	return p->timed_out || p->status == SHELLCHECK_HEAP_EXHAUSTED;
}

/* What each batch came to, in batch order whichever finished first (the
 * same run gives the same findings in the same order): its findings,
 * LN2001 on each of its scripts when it was stopped, or a failure. The
 * result: 0, the errno of a batch that could not start, or -1 for one
 * that failed. */
static int collect(const struct batch *b, const struct proc *procs, size_t nb,
		   struct source *const *scripts, size_t n, const char *dir,
		   struct diag_list *diags, size_t *unfinished)
{
	int failure = 0;
	for (size_t k = 0; k < nb; k++) {
		const struct proc *p = &procs[k];
		if (stalled(p)) {
			for (size_t i = 0; i < b[k].n; i++)
				ln_shellcheck_timeout(diags, scripts[b[k].ix[i]], p->timeout,
						      p->timed_out ? 0 : p->max_memory);
			*unfinished += b[k].n;
		} else if (p->status == 0 || p->status == 1) { /* clean, or findings */
			add_comments(p->out.p ? p->out.p : "", p->out.len, scripts, n, dir, diags);
		} else if (!failure) {
			failure = p->start_error ? p->start_error : -1;
		}
	}
	return failure;
}

/* A run under way: its scripts and their files, the batches and the
 * processes checking them. */
struct shellcheck_batches {
	struct source **scripts;
	size_t n, nb;
	enum shellcheck_mode mode;
	char dir[sizeof "/tmp/trainforge-sc.XXXXXX"];
	char **paths;
	bool written;
	struct batch *b;
	struct proc *procs;
	struct proc_pool *pool;
	const char *program;
	double timeout;
	unsigned jobs;
};

struct shellcheck_batches *shellcheck_start(struct source *const *scripts, size_t n,
					    const struct shellcheck_setup *how)
{
	if (how->mode == SHELLCHECK_OFF || n == 0)
		return NULL;
	struct shellcheck_batches *r = xcalloc(1, sizeof *r);
	r->scripts = xcalloc(n, sizeof *r->scripts);
	memcpy(r->scripts, scripts, n * sizeof *scripts);
	r->n = n;
	r->mode = how->mode;
	memcpy(r->dir, "/tmp/trainforge-sc.XXXXXX", sizeof r->dir);
	r->paths = xcalloc(n, sizeof *r->paths);
	r->written = write_scripts(r->dir, scripts, n, r->paths);
	unsigned jobs = how->jobs ? how->jobs : proc_cores();
	size_t nb = n < jobs ? n : jobs, least = (n + SHELLCHECK_MAX_FILES - 1) / SHELLCHECK_MAX_FILES;
	if (nb < least) /* more batches than jobs: proc_run runs jobs at a time */
		nb = least;
	r->nb = nb;
	r->program = how->program;
	r->timeout = how->timeout;
	r->jobs = jobs;
	r->b = plan(scripts, n, nb);
	r->procs = xcalloc(nb, sizeof *r->procs);
	for (size_t k = 0; k < nb; k++) {
		r->b[k].argv = batch_argv(&r->b[k], how->program, r->paths);
		r->procs[k].argv = r->b[k].argv;
		r->procs[k].timeout = shellcheck_bound(how->timeout, r->b[k].bytes);
		r->procs[k].max_memory = SHELLCHECK_MAX_MEMORY;
	}
	if (r->written)
		r->pool = proc_start(r->procs, nb, jobs);
	return r;
}

/* A batch of several scripts stopped at its bound is run again a script
 * at a time, so that LN2001 lands on the scripts shellcheck stalls on and
 * the others get their findings (a stall costs its bound once more).
 * Each script takes the place of its batch in r's arrays, the first in
 * the batch's own slot, so collect reads them in the same order. */
static void retry_alone(struct shellcheck_batches *r)
{
	size_t m = 0;
	for (size_t k = 0; k < r->nb; k++)
		m += stalled(&r->procs[k]) && r->b[k].n > 1 ? r->b[k].n - 1 : 0;
	if (!m)
		return;
	size_t nb = r->nb + m, j = 0;
	struct batch *b = xcalloc(nb, sizeof *b);
	struct proc *procs = xcalloc(nb, sizeof *procs);
	size_t n_again = 0, *again = xcalloc(nb, sizeof *again);
	for (size_t k = 0; k < r->nb; k++) {
		if (!(stalled(&r->procs[k]) && r->b[k].n > 1)) {
			b[j] = r->b[k];
			procs[j++] = r->procs[k];
			continue;
		}
		for (size_t i = 0; i < r->b[k].n; i++, j++) {
			size_t ix = r->b[k].ix[i];
			b[j].ix = xcalloc(1, sizeof *b[j].ix);
			b[j].ix[0] = ix;
			b[j].n = 1;
			b[j].bytes = r->scripts[ix]->len;
			b[j].argv = batch_argv(&b[j], r->program, r->paths);
			procs[j].argv = b[j].argv;
			procs[j].timeout = shellcheck_bound(r->timeout, b[j].bytes);
			procs[j].max_memory = SHELLCHECK_MAX_MEMORY;
			again[n_again++] = j;
		}
		buf_free(&r->procs[k].out);
		free(r->b[k].argv);
		free(r->b[k].ix);
	}
	struct proc *run = xcalloc(n_again, sizeof *run);
	for (size_t i = 0; i < n_again; i++)
		run[i] = procs[again[i]];
	proc_run(run, n_again, r->jobs);
	for (size_t i = 0; i < n_again; i++)
		procs[again[i]] = run[i];
	free(run);
	free(again);
	free(r->b);
	free(r->procs);
	r->b = b;
	r->procs = procs;
	r->nb = nb;
}

bool shellcheck_finish(struct shellcheck_batches *r, struct diag_list *diags,
		       struct trouble *trouble, size_t *unfinished)
{
	*unfinished = 0;
	if (!r)
		return true;
	int failure = -1;
	if (r->written) {
		proc_wait(r->pool);
		retry_alone(r);
		failure = collect(r->b, r->procs, r->nb, r->scripts, r->n, r->dir, diags, unfinished);
	}
	if (failure && r->mode == SHELLCHECK_AUTO)
		trouble_add(trouble, "trainforge: shellcheck %s; batch scripts got trainforge's checks only (--shellcheck off silences this)",
			failure == ENOENT ? "is not installed" : failure > 0 ? "could not be started" : "did not run");
	for (size_t k = 0; k < r->nb; k++) {
		buf_free(&r->procs[k].out);
		free(r->b[k].argv);
		free(r->b[k].ix);
	}
	remove_scripts(r->dir, r->n, r->paths);
	free(r->paths);
	free(r->procs);
	free(r->b);
	free(r->scripts);
	free(r);
	return !failure;
}

bool shellcheck_run(struct source *const *scripts, size_t n, const struct shellcheck_setup *how,
		    struct diag_list *diags, struct trouble *trouble, size_t *unfinished)
{
	return shellcheck_finish(shellcheck_start(scripts, n, how), diags, trouble, unfinished);
}
