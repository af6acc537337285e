#include "noqa.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lint.h"
#include "xalloc.h"

/* Where one directive goes and the IDs it names. */
struct place {
	uint32_t line;      /* trailing: this line; else the line it goes above */
	bool trailing, shellcheck;
	bool file_wide;     /* disable-file=, under the #! line */
	struct buf ids;
};

static size_t indent_of(const char *p, size_t len)
{
	size_t i = 0;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

/* The first line of the command line `line` is part of: lines before it
 * that end in a backslash continue into it. */
static uint32_t command_start(struct source *src, uint32_t line)
{
	size_t len;
	const char *p;
	while (line > 1 && (p = source_line(src, line - 1, &len)) && len && p[len - 1] == '\\')
		line--;
	return line;
}

static void place_of(struct source *src, bool yaml, const struct diag *g, struct place *pl)
{
	size_t len;
	uint32_t line = g->line ? g->line : 1;
	const char *p = source_line(src, line, &len);
	*pl = (struct place){ line, false, g->ext_code != 0, false, BUF_INIT };
	if (yaml) {
		pl->trailing = p && len && !memchr(p, '#', len) && indent_of(p, len) < len;
		return;
	}
	pl->line = command_start(src, line);
	size_t ind = p ? indent_of(p, len) : 0;
	bool comment = p && ind < len && p[ind] == '#' && !(len - ind >= 7 && !memcmp(p + ind, "#SBATCH", 7));
	if ((pl->line == 1 && p && len >= 2 && !memcmp(p, "#!", 2)) || comment) {
		/* a finding on the #! line is about the whole script (a
		 * variable set nowhere), and one on a comment (a pairing line)
		 * has no command a directive above could cover */
		size_t flen;
		const char *first = source_line(src, 1, &flen);
		pl->line = first && flen >= 2 && !memcmp(first, "#!", 2) ? 2 : 1;
		pl->file_wide = true;
	}
}

static void add_id(struct buf *ids, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = ids->p; p && *p;) {
		size_t k = strcspn(p, ",");
		if (k == n && !memcmp(p, id, n))
			return;
		p += k + (p[k] == ',');
	}
	if (ids->len)
		buf_putc(ids, ',');
	buf_puts(ids, id);
}

static int by_offset(const void *a, const void *b)
{
	const struct noqa_edit *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The byte offset of the start of line (its end with `end`), or the
 * text's end past the last line. */
static size_t offset_of(struct source *src, uint32_t line, bool end)
{
	size_t len;
	const char *p = source_line(src, line, &len);
	if (!p)
		return src->len;
	size_t at = (size_t)(p - src->text);
	if (!end)
		return at;
	while (len && p[len - 1] == '\r')
		len--;
	return at + len;
}

static char *directive(struct source *src, const struct place *pl, bool file_wide,
		       const char *reason)
{
	struct buf b = BUF_INIT;
	size_t len = 0;
	const char *p = source_line(src, pl->line, &len);
	if (pl->trailing)
		buf_puts(&b, "  ");
	else if (p && !file_wide)
		buf_put(&b, p, indent_of(p, len));
	if (pl->shellcheck)
		buf_printf(&b, "# shellcheck disable=%s", pl->ids.p);
	else
		buf_printf(&b, "# trainforge disable%s=%s", file_wide ? "-file" : "", pl->ids.p);
	if (reason && *reason)
		buf_printf(&b, " # %s", reason);
	if (!pl->trailing)
		buf_putc(&b, '\n');
	return buf_detach(&b);
}

size_t noqa_edits(struct source *src, bool yaml, const struct diag *const *v, size_t n,
		  bool file_wide, const char *reason, struct noqa_edit **out)
{
	struct place *pl = xcalloc(n ? n : 1, sizeof *pl);
	size_t np = 0;
	for (size_t i = 0; i < n; i++) {
		struct place here;
		place_of(src, yaml, v[i], &here);
		if (file_wide) {
			size_t len;
			const char *first = source_line(src, 1, &len);
			here.line = !yaml && first && len >= 2 && !memcmp(first, "#!", 2) ? 2 : 1;
			here.trailing = false;
			here.file_wide = true;
		}
		size_t k = 0;
		while (k < np && !(pl[k].line == here.line && pl[k].trailing == here.trailing &&
				   pl[k].shellcheck == here.shellcheck && pl[k].file_wide == here.file_wide))
			k++;
		if (k == np)
			pl[np++] = here;
		char id[8];
		add_id(&pl[k].ids, v[i]->ext_code ? diag_id(v[i], id) : rule_table[v[i]->rule].id);
	}
	struct noqa_edit *e = xcalloc(np ? np : 1, sizeof *e);
	for (size_t k = 0; k < np; k++) {
		e[k].line = pl[k].line;
		e[k].offset = offset_of(src, pl[k].line, pl[k].trailing);
		e[k].text = directive(src, &pl[k], pl[k].file_wide && !pl[k].shellcheck, reason);
		buf_free(&pl[k].ids);
	}
	free(pl);
	qsort(e, np, sizeof *e, by_offset);
	*out = e;
	return np;
}

void noqa_edits_free(struct noqa_edit *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].text);
	free(e);
}

char *noqa_apply(const struct source *src, const struct noqa_edit *e, size_t n, size_t *len)
{
	struct buf b = BUF_INIT;
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		buf_put(&b, src->text + at, e[i].offset - at);
		/* a directive above a last line without a newline still ends its own */
		if (e[i].offset == src->len && src->len && src->text[src->len - 1] != '\n' &&
		    e[i].text[strlen(e[i].text) - 1] == '\n')
			buf_putc(&b, '\n');
		buf_puts(&b, e[i].text);
		at = e[i].offset;
	}
	buf_put(&b, src->text + at, src->len - at);
	*len = b.len;
	return buf_detach(&b);
}

/* Files whose comments start with '#' and whose kind a directive is read in. */
static bool takes_directives(const struct lint_file *f)
{
	switch (f->kind) {
	case KIND_PCLUSTER: case KIND_JOBSPEC: case KIND_SBATCH: case KIND_SETTINGS:
		return true;
	default:
		return f->kind == KIND_UNKNOWN && (f->fragment || f->doc);
	}
}

void noqa_run(const struct lint_run *run, const char *reason, struct fix_result *out)
{
	memset(out, 0, sizeof *out);
	out->converged = true;
	const struct diag **v = xcalloc(run->diags.len ? run->diags.len : 1, sizeof *v);
	for (size_t i = 0; i < run->n_files; i++) {
		const struct lint_file *f = run->files[i];
		if (!f->input || !takes_directives(f) || !strcmp(f->src->path, "-"))
			continue;
		size_t n = 0;
		for (size_t k = 0; k < run->diags.len; k++)
			if (run->diags.v[k].src == f->src)
				v[n++] = &run->diags.v[k];
		if (!n)
			continue;
		struct noqa_edit *e;
		size_t ne = noqa_edits(f->src, f->kind != KIND_SBATCH, v, n, false, reason, &e);
		out->v = xrealloc(out->v, (out->len + 1) * sizeof *out->v);
		struct fix_file *ff = &out->v[out->len++];
		*ff = (struct fix_file){ .path = f->src->path, .before_len = f->src->len, .fixes = ne };
		ff->before = xmalloc(f->src->len + 1);
		memcpy(ff->before, f->src->text, f->src->len);
		ff->before[f->src->len] = '\0';
		ff->after = noqa_apply(f->src, e, ne, &ff->after_len);
		out->fixes += ne;
		noqa_edits_free(e, ne);
	}
	free(v);
}
