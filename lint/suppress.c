#include "suppress.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ln.h"
#include "text.h"
#include "xalloc.h"

struct directive {
	uint32_t line, col, end_col; /* the directive text */
	uint32_t first, last;        /* lines it covers */
	const char *text;            /* from its '#' to the reason (or the line end) */
	size_t ids_at, len;          /* where its ID list starts; its length */
	bool file_wide;
	int rules[32];
	bool used[32];
	size_t at[32];               /* each rule's token, from text */
	size_t n_rules;
};

struct directives {
	struct directive *v;
	size_t len, cap;
};

/* The lines an own-line directive covers: the largest node that starts
 * on the next line with content (a mapping pair or a list item with all
 * it holds). Visits are bounded because aliases make the tree a DAG. */
static uint32_t node_extent(const yamldoc *doc, uint32_t line)
{
	uint32_t last = line;
	size_t cap = 0, n = 0, visits = 0;
	yd_node *stack = NULL;
	if (!doc || !yd_root(doc))
		return last;
	stack = xgrow(stack, &cap, 1, sizeof *stack);
	stack[n++] = yd_root(doc);
	while (n && visits++ < 1000000) {
		yd_node at = stack[--n];
		enum yd_kind k = yd_kind(doc, at);
		if (k != YD_MAPPING && k != YD_SEQUENCE)
			continue;
		for (size_t i = 0; i < yd_len(doc, at); i++) {
			yd_node head = k == YD_MAPPING ? yd_key(doc, at, i) : yd_item(doc, at, i);
			yd_node body = k == YD_MAPPING ? yd_value(doc, at, i) : head;
			struct yd_span s = yd_span(doc, head);
			if (s.line == line) {
				uint32_t end = yd_last_line(doc, body);
				if (end > last)
					last = end;
			}
			if (s.line <= line && yd_last_line(doc, body) >= line) {
				stack = xgrow(stack, &cap, n + 1, sizeof *stack);
				stack[n++] = body;
			}
		}
	}
	free(stack);
	return last;
}

/* In a script a command runs on while its lines end with a backslash. */
static uint32_t command_extent(struct source *src, uint32_t line)
{
	size_t len;
	const char *p;
	while ((p = source_line(src, line, &len)) && len && p[len - 1] == '\\')
		line++;
	return line;
}

/* A line a directive looks past for what it covers. In a script an
 * #SBATCH line is not a comment but a directive of its own, which a
 * suppression on the line above covers. */
static bool line_is_blank_or_comment(const char *p, size_t len, bool script)
{
	size_t i = 0;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (script && i == 0 && len >= 7 && memcmp(p, "#SBATCH", 7) == 0)
		return false;
	return i == len || p[i] == '#';
}

static void parse_ids(struct source *src, struct diag_list *diags,
		      struct directive *d, const char *p, size_t len,
		      uint32_t line, uint32_t col)
{
	size_t base = (size_t)(p - d->text);
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && p[j] != ',')
			j++;
		size_t a = i, b = j;
		while (a < b && isspace((unsigned char)p[a]))
			a++;
		while (b > a && isspace((unsigned char)p[b - 1]))
			b--;
		int r = rule_find(p + a, b - a);
		uint32_t c = col + (uint32_t)utf8_count(p, a);
		if (b == a) {
			ln_malformed_directive(diags, src, line, c, c + 1,
					       "empty rule ID in trainforge directive");
		} else if (r < 0) {
			ln_unknown_rule_in_directive(diags, src, line, c,
						     c + (uint32_t)utf8_count(p + a, b - a),
						     p + a, b - a);
		} else if (d->n_rules < sizeof d->rules / sizeof d->rules[0]) {
			d->at[d->n_rules] = base + a;
			d->rules[d->n_rules++] = r;
		}
		i = j + 1;
	}
}

/* Reads one directive from a comment that starts at p; returns false when
 * the comment is not a trainforge directive at all. */
static bool parse_directive(struct source *src, struct diag_list *diags,
			    const char *p, size_t len, uint32_t line, uint32_t col,
			    struct directive *d)
{
	size_t i = 1;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (len - i < 11 || strncmp(p + i, "trainforge", 10) != 0 ||
	    !isspace((unsigned char)p[i + 10]))
		return false;
	i += 11;
	while (i < len && isspace((unsigned char)p[i]))
		i++;
	size_t verb = i;
	while (i < len && (islower((unsigned char)p[i]) || p[i] == '-'))
		i++;
	size_t verb_len = i - verb;
	if (verb_len == 0)
		return false; /* prose that mentions the tool */
	size_t end = i;
	while (end < len && p[end] != '#')
		end++;
	memset(d, 0, sizeof *d);
	d->line = line;
	d->col = col;
	d->end_col = col + (uint32_t)utf8_count(p, end);
	d->text = p;
	d->len = end;
	d->ids_at = i + 1;
	bool is_disable = verb_len == 7 && strncmp(p + verb, "disable", 7) == 0;
	bool is_file = verb_len == 12 && strncmp(p + verb, "disable-file", 12) == 0;
	bool is_cluster = verb_len == 7 && strncmp(p + verb, "cluster", 7) == 0;
	if (is_cluster)
		return false; /* pairing, read by the batch-script checks */
	if ((!is_disable && !is_file) || i >= len || p[i] != '=') {
		/* "# trainforge lint settings for ..." is prose: a directive
		 * gone wrong has its '=' or ':', or a verb near "disable" */
		bool meant = (i < len && (p[i] == '=' || p[i] == ':')) || is_disable || is_file ||
			     text_edit_distance(p + verb, verb_len, "disable", 7, 2) <= 2 ||
			     text_edit_distance(p + verb, verb_len, "disable-file", 12, 2) <= 2;
		if (!meant)
			return false;
		ln_malformed_directive(diags, src, line, col, d->end_col,
			"malformed trainforge directive; expected 'disable=ID[,ID]' or 'disable-file=ID[,ID]'");
		return false;
	}
	d->file_wide = is_file;
	parse_ids(src, diags, d, p + i + 1, end - i - 1, line,
		  col + (uint32_t)utf8_count(p, i + 1));
	return d->n_rules > 0;
}

/* The '#' that starts the line's comment, or NULL: in a script the
 * model's comment on the line (*next walks them in order); otherwise the
 * first '#' at the line's start or after a blank that is not inside a
 * quoted or block scalar of doc. */
static const char *comment_on(const struct source *src, const yamldoc *doc, const sb_model *script,
			      size_t *next, const char *p, size_t len, uint32_t line)
{
	if (!script) {
		for (size_t i = 0; i < len; i++) {
			if (p[i] != '#' || (i && p[i - 1] != ' ' && p[i - 1] != '\t'))
				continue;
			yd_node in = doc ? yd_at(doc, line, (uint32_t)utf8_count(p, i) + 1) : 0;
			if (!in || !yd_quoted(doc, in))
				return p + i;
		}
		return NULL;
	}
	const struct sb_comment *c = NULL;
	while (*next < sb_comment_count(script) &&
	       (c = sb_comment_at(script, *next))->span.line < line)
		++*next;
	if (*next >= sb_comment_count(script) || c->span.line != line || c->span.off >= src->len)
		return NULL;
	return src->text + c->span.off;
}

static void collect(struct source *src, const yamldoc *doc, const sb_model *script,
		    struct diag_list *diags, struct directives *out)
{
	size_t len, next_comment = 0;
	/* the lines are walked in the text: most hold no '#', fewer still
	 * "trainforge" after one, and only those are looked at closer */
	uint32_t line = 0;
	for (size_t at = 0, next; at < src->len || !line; at = next) {
		const char *p = src->text + at;
		const char *nl = memchr(p, '\n', src->len - at);
		line++;
		len = nl ? (size_t)(nl - p) : src->len - at;
		next = at + len + 1;
		while (len && p[len - 1] == '\r')
			len--;
		const char *any = memchr(p, '#', len);
		const char *hash = any && memmem(any, len - (size_t)(any - p), "trainforge", 10)
			? comment_on(src, doc, script, &next_comment, p, len, line) : NULL;
		if (!hash || !memmem(hash, len - (size_t)(hash - p), "trainforge", 10))
			continue;
		struct directive d;
		uint32_t col = (uint32_t)utf8_count(p, (size_t)(hash - p)) + 1;
		if (!parse_directive(src, diags, hash, len - (size_t)(hash - p), line, col, &d))
			continue;
		bool own_line = line_is_blank_or_comment(p, len, false);
		if (d.file_wide) {
			d.first = 1;
			d.last = UINT32_MAX;
		} else if (own_line) {
			uint32_t next = line + 1;
			size_t nl;
			const char *np;
			while ((np = source_line(src, next, &nl)) &&
			       line_is_blank_or_comment(np, nl, doc == NULL))
				next++;
			d.first = next;
			d.last = !np ? next : doc ? node_extent(doc, next) : command_extent(src, next);
		} else {
			d.first = d.last = line;
		}
		out->v = xgrow(out->v, &out->cap, out->len + 1, sizeof *out->v);
		out->v[out->len++] = d;
	}
}

static bool covers(struct directive *d, const struct diag *g)
{
	if (g->line < d->first || g->line > d->last)
		return false;
	for (size_t i = 0; i < d->n_rules; i++)
		if (d->rules[i] == (int)g->rule) {
			d->used[i] = true;
			return true;
		}
	return false;
}

/* The directive without the IDs that suppressed nothing, keeping the
 * others as written: the fix of LN0001 (empty: remove the directive). */
static char *without_stale(const struct directive *d, const bool *stale)
{
	struct buf kept = BUF_INIT;
	size_t i = d->ids_at, tail = d->len;
	while (tail > i && isspace((unsigned char)d->text[tail - 1]))
		tail--;
	while (i < tail) {
		size_t j = i;
		while (j < tail && d->text[j] != ',')
			j++;
		size_t a = i, b = j;
		while (a < b && isspace((unsigned char)d->text[a]))
			a++;
		while (b > a && isspace((unsigned char)d->text[b - 1]))
			b--;
		bool drop = a == b;
		for (size_t k = 0; k < d->n_rules && !drop; k++)
			drop = d->at[k] == a && stale[k];
		if (!drop) {
			if (kept.len)
				buf_putc(&kept, ',');
			buf_put(&kept, d->text + a, b - a);
		}
		i = j + 1;
	}
	if (!kept.len)
		return buf_detach(&kept);
	struct buf out = BUF_INIT;
	buf_put(&out, d->text, d->ids_at);
	buf_put(&out, kept.p, kept.len);
	buf_put(&out, d->text + tail, d->len - tail);
	buf_free(&kept);
	return buf_detach(&out);
}

void suppress_apply(struct source *src, const yamldoc *doc, const sb_model *script,
		    struct diag_list *diags, size_t first, const bool *enabled, bool complete)
{
	struct directives ds = { 0 };
	size_t before = diags->len;
	collect(src, doc, script, diags, &ds);
	for (size_t i = first; i < before;) {
		if (diags->v[i].src != src) {
			i++;
			continue;
		}
		bool hit = false;
		for (size_t j = 0; j < ds.len; j++)
			hit |= covers(&ds.v[j], &diags->v[i]);
		if (hit) {
			diag_remove(diags, i);
			before--;
		} else {
			i++;
		}
	}
	for (size_t j = 0; j < ds.len; j++) {
		struct directive *d = &ds.v[j];
		bool stale[32] = { false }, any = false;
		for (size_t i = 0; i < d->n_rules; i++)
			any |= stale[i] = !d->used[i] && enabled[d->rules[i]];
		char *fix = any ? without_stale(d, stale) : NULL;
		for (size_t i = 0; i < d->n_rules; i++)
			if (stale[i])
				ln_unused_suppression(diags, src, d->line, d->col, d->end_col,
						      (enum rule_id)d->rules[i], complete ? fix : NULL);
		free(fix);
	}
	free(ds.v);
}
