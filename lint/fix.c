/* Turning diagnostics into edits, applying them, linting again until
 * nothing is left to fix, and writing the result safely. */
#include "fix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "xalloc.h"

struct edit {
	size_t start, end;   /* bytes of the text replaced */
	const char *text;    /* what replaces them */
	size_t len;
};

/* The edit a finding's fix makes: rules build their fixes (with the
 * range each replaces) when they report; safety is the rule's. */
enum fix_choice fix_chosen(const struct diag *d, bool unsafe)
{
	if (unsafe && d->alt) /* the unsafe fix beside a safe one goes further */
		return FIX_CHOSEN_ALT;
	return !d->fix || (!d->fix_safe && !unsafe) ? FIX_CHOSEN_NONE : FIX_CHOSEN_OWN;
}

static bool edit_for(const struct diag *d, bool unsafe, struct edit *e)
{
	switch (fix_chosen(d, unsafe)) {
	case FIX_CHOSEN_ALT:
		*e = (struct edit){ d->alt->start, d->alt->end, d->alt->text, strlen(d->alt->text) };
		return true;
	case FIX_CHOSEN_OWN:
		*e = (struct edit){ d->fix_start, d->fix_end, d->fix, strlen(d->fix) };
		return true;
	default:
		return false;
	}
}

bool fix_available(const struct diag *d, bool *safe)
{
	*safe = d->fix_safe && !d->alt;
	return d->fix != NULL;
}

static int edit_cmp(const void *pa, const void *pb)
{
	const struct edit *a = pa, *b = pb;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* The fixed text of src, from the diagnostics of run that are about it;
 * returns the number of edits applied (0: out is untouched). */
static size_t fix_source(const struct lint_run *run, struct source *src, bool unsafe,
			 struct buf *out)
{
	struct edit *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < run->diags.len; i++) {
		const struct diag *d = &run->diags.v[i];
		struct edit e;
		if (d->src != src || !edit_for(d, unsafe, &e))
			continue;
		v = xgrow(v, &cap, n + 1, sizeof *v);
		v[n++] = e;
	}
	if (n > 1)
		qsort(v, n, sizeof *v, edit_cmp);
	size_t applied = 0, at = 0;
	const struct edit *last = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct edit *e = &v[i];
		if (last && e->start == last->start && e->end == last->end && !strcmp(e->text, last->text))
			continue; /* the same edit from another finding */
		if (e->start < at || (last && e->start == at && e->start == e->end))
			continue; /* overlaps one applied (or inserts where it ended):
				     the next pass sees it again */
		buf_put(out, src->text + at, e->start - at);
		buf_put(out, e->text, e->len);
		at = e->end;
		last = e;
		applied++;
	}
	if (applied)
		buf_put(out, src->text + at, src->len - at);
	free(v);
	return applied;
}

/* The i-th input of a later pass, which lints the same inputs in order. */
static struct source *input_src(const struct lint_run *run, size_t i)
{
	for (size_t k = 0; k < run->n_files; k++)
		if (run->files[k]->input && i-- == 0)
			return run->files[k]->src;
	return NULL;
}

void fix_run(const struct lint_options *opt, const struct lint_run *first, bool unsafe,
	     struct fix_result *out)
{
	/* the inputs whose text was read, in order; a pass reads the same */
	size_t n = 0;
	struct lint_file **inputs = xcalloc(first->n_files ? first->n_files : 1, sizeof *inputs);
	for (size_t i = 0; i < first->n_files; i++)
		if (first->files[i]->input)
			inputs[n++] = first->files[i];
	memset(out, 0, sizeof *out);
	struct fix_file *files = xcalloc(n ? n : 1, sizeof *files);
	for (size_t i = 0; i < n; i++)
		files[i].path = inputs[i]->src->path;
	const struct lint_run *run = first;
	struct lint_run again;
	for (unsigned pass = 0;; pass++) {
		bool any = false;
		for (size_t i = 0; i < n; i++) {
			struct source *src = run == first ? inputs[i]->src : input_src(run, i);
			struct buf fixed = BUF_INIT;
			size_t k = src ? fix_source(run, src, unsafe, &fixed) : 0;
			if (!k)
				continue;
			struct fix_file *f = &files[i];
			if (!f->before) {
				f->before = xstrndup(inputs[i]->src->text, inputs[i]->src->len);
				f->before_len = inputs[i]->src->len;
			}
			free(f->after);
			f->after_len = fixed.len;
			f->after = buf_detach(&fixed);
			f->fixes += k;
			out->fixes += k;
			any = true;
		}
		if (run != first)
			lint_run_fini(&again);
		out->converged = !any;
		if (!any || pass + 1 >= FIX_MAX_PASSES)
			break;
		lint_run_init(&again, opt);
		for (size_t i = 0; i < n; i++) {
			const struct source *src = inputs[i]->src;
			const struct fix_file *f = &files[i];
			lint_text(&again, src->path, f->after ? f->after : src->text,
				  f->after ? f->after_len : src->len, inputs[i]->named);
		}
		lint_run_finish(&again);
		run = &again;
	}
	for (size_t i = 0; i < n; i++)
		if (files[i].after && (files[i].after_len != files[i].before_len ||
				       memcmp(files[i].after, files[i].before, files[i].after_len)))
			files[out->len++] = files[i];
		else {
			free(files[i].before);
			free(files[i].after);
		}
	out->v = files;
	free(inputs);
}

void fix_result_free(struct fix_result *r)
{
	for (size_t i = 0; i < r->len; i++) {
		free(r->v[i].before);
		free(r->v[i].after);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}

/* Through a symlink to the file it names, so the link stays a link. */
static bool write_one(const struct fix_file *f, struct trouble *trouble)
{
	char *real = realpath(f->path, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0) {
		trouble_add(trouble, "trainforge: %s: %s", f->path, strerror(errno));
		free(real);
		return false;
	}
	bool ok = file_write_atomic(real, f->after, f->after_len, st.st_mode & 07777);
	if (!ok)
		trouble_add(trouble, "trainforge: %s: cannot write the fixed file: %s", f->path,
			strerror(errno));
	free(real);
	return ok;
}

bool fix_write(const struct fix_result *r, struct trouble *trouble)
{
	bool ok = true;
	for (size_t i = 0; i < r->len; i++)
		ok = write_one(&r->v[i], trouble) && ok;
	return ok;
}

void fix_diff(const struct fix_result *r, FILE *out)
{
	for (size_t i = 0; i < r->len; i++)
		fix_diff_texts(r->v[i].path, r->v[i].before, r->v[i].before_len, r->v[i].after,
			       r->v[i].after_len, out);
}
