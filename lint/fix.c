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
#include "script.h"
#include "xalloc.h"

struct edit {
	size_t start, end;   /* bytes of the text replaced */
	const char *text;    /* what replaces them */
	size_t len;
};

static bool rule_safe(enum rule_id rule)
{
	return rule_fixability(rule) == FIX_SAFE;
}

static bool at_line_end(const struct source *src, size_t at)
{
	return at >= src->len || src->text[at] == '\n' || src->text[at] == '\r';
}

static size_t line_start(const struct source *src, size_t at)
{
	while (at > 0 && src->text[at - 1] != '\n')
		at--;
	return at;
}

static size_t content_end(const struct source *src, size_t at)
{
	while (at < src->len && src->text[at] != '\n' && src->text[at] != '\r')
		at++;
	return at;
}

/* LN0001 with nothing left to suppress: the comment goes (with its
 * reason), and the line with it when the comment was all it held. */
static bool remove_directive(struct source *src, const struct diag *d, struct edit *e)
{
	size_t hash = source_offset(src, d->line, d->col);
	size_t start = line_start(src, hash), end = content_end(src, hash);
	size_t lead = start;
	while (lead < hash && (src->text[lead] == ' ' || src->text[lead] == '\t'))
		lead++;
	/* a continued command ends at a comment line; an empty line ends
	 * it just the same, but deleting the line would join the commands */
	bool continued = start >= 2 && src->text[start - 2] == '\\';
	if (lead == hash && !continued) {
		if (end < src->len && src->text[end] == '\r')
			end++;
		if (end < src->len && src->text[end] == '\n')
			end++;
	} else if (lead != hash) {
		start = hash;
		while (start > lead && (src->text[start - 1] == ' ' || src->text[start - 1] == '\t'))
			start--;
		if (start > 0 && src->text[start - 1] == '\\')
			start++; /* keep the escaped space it was */
	} else {
		start = hash;
	}
	*e = (struct edit){ start, end, "", 0 };
	return true;
}

/* SB0002: the flag line was meant to continue the command on the line
 * above; that line gets ` \` when it is plain command text. */
static bool restore_continuation(struct source *src, const struct diag *d, struct edit *e)
{
	size_t len;
	const char *prev = d->line > 1 ? source_line(src, d->line - 1, &len) : NULL;
	if (!prev || !len)
		return false;
	size_t i = 0;
	while (i < len && (prev[i] == ' ' || prev[i] == '\t'))
		i++;
	if (i == len || prev[i] == '#' || prev[len - 1] == '\\')
		return false;
	for (size_t k = 1; k < len; k++)
		if (prev[k] == '#' && (prev[k - 1] == ' ' || prev[k - 1] == '\t'))
			return false; /* a comment would swallow the backslash */
	size_t at = (size_t)(prev - src->text) + len;
	*e = (struct edit){ at, at, " \\", 2 };
	return true;
}

static bool edit_for(struct source *src, const struct diag *d, bool unsafe, struct edit *e)
{
	if ((!d->fix && d->rule != R_SB0002) || (!rule_safe(d->rule) && !unsafe))
		return false;
	if (d->rule == R_SB0002)
		return restore_continuation(src, d, e);
	if (d->rule == R_LN0001 && !*d->fix)
		return remove_directive(src, d, e);
	size_t start = source_offset(src, d->line, d->col);
	size_t end = source_offset(src, d->end_line, d->end_col);
	if (end < start || (d->rule == R_SB0003 && !at_line_end(src, end)))
		return false; /* a backslash before a comment would escape the '#' */
	*e = (struct edit){ start, end, d->fix, strlen(d->fix) };
	return true;
}

/* Stale suppressions are only known when every check ran: in a file that
 * does not parse, every directive looks unused. */
static bool checks_complete(const struct source *src)
{
	bool complete;
	if (src->kind && strcmp(src->kind, "sbatch") == 0) {
		sb_model *m = sb_parse(src->text, src->len, NULL);
		complete = sb_problem_count(m) == 0;
		sb_free(m);
	} else {
		yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
		complete = !yamldoc_broken(doc);
		yamldoc_free(doc);
	}
	return complete;
}

bool fix_available(const struct diag *d, bool *safe)
{
	struct edit e;
	*safe = rule_safe(d->rule);
	return edit_for(d->src, d, true, &e);
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
	int complete = -1;
	for (size_t i = 0; i < run->diags.len; i++) {
		const struct diag *d = &run->diags.v[i];
		struct edit e;
		if (d->src != src || !edit_for(src, d, unsafe, &e))
			continue;
		if (d->rule == R_LN0001 && complete < 0)
			complete = checks_complete(src);
		if (d->rule == R_LN0001 && !complete)
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

void fix_run(const struct lint_options *opt, const struct lint_run *first, bool unsafe,
	     struct fix_result *out)
{
	size_t n = first->n_inputs;
	memset(out, 0, sizeof *out);
	struct fix_file *files = xcalloc(n ? n : 1, sizeof *files);
	for (size_t i = 0; i < n; i++)
		files[i].path = first->inputs[i].src->path;
	const struct lint_run *run = first;
	struct lint_run again;
	for (unsigned pass = 0;; pass++) {
		bool any = false;
		for (size_t i = 0; i < n && i < run->n_inputs; i++) {
			struct buf fixed = BUF_INIT;
			size_t k = fix_source(run, run->inputs[i].src, unsafe, &fixed);
			if (!k)
				continue;
			struct fix_file *f = &files[i];
			if (!f->before) {
				f->before = xstrndup(first->inputs[i].src->text, first->inputs[i].src->len);
				f->before_len = first->inputs[i].src->len;
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
			const struct source *src = first->inputs[i].src;
			const struct fix_file *f = &files[i];
			lint_text(&again, src->path, f->after ? f->after : src->text,
				  f->after ? f->after_len : src->len, first->inputs[i].named);
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
static bool write_one(const struct fix_file *f)
{
	char *real = realpath(f->path, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0) {
		fprintf(stderr, "trainforge: %s: %s\n", f->path, strerror(errno));
		free(real);
		return false;
	}
	bool ok = file_write_atomic(real, f->after, f->after_len, st.st_mode & 07777);
	if (!ok)
		fprintf(stderr, "trainforge: %s: cannot write the fixed file: %s\n", f->path,
			strerror(errno));
	free(real);
	return ok;
}

bool fix_write(const struct fix_result *r)
{
	bool ok = true;
	for (size_t i = 0; i < r->len; i++)
		ok = write_one(&r->v[i]) && ok;
	return ok;
}

void fix_diff(const struct fix_result *r, FILE *out)
{
	for (size_t i = 0; i < r->len; i++)
		fix_diff_texts(r->v[i].path, r->v[i].before, r->v[i].before_len, r->v[i].after,
			       r->v[i].after_len, out);
}
