/* Reading a yamldoc: node access, typed values, positions and paths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "yamldoc_internal.h"

/* ---- reading --------------------------------------------------------- */

size_t yamldoc_issue_count(const yamldoc *doc) { return doc->n_issues; }
const struct yd_issue *yamldoc_issue(const yamldoc *doc, size_t i) { return &doc->issues[i]; }
bool yamldoc_broken(const yamldoc *doc) { return doc->broken; }
size_t yamldoc_node_count(const yamldoc *doc) { return doc->n_nodes - 1; }
yd_node yd_root(const yamldoc *doc) { return doc->root; }

static const struct yd_rec *rec(const yamldoc *doc, yd_node n)
{
	return &doc->nodes[n < doc->n_nodes ? n : 0];
}

enum yd_kind yd_kind(const yamldoc *doc, yd_node n)
{
	return (enum yd_kind)rec(doc, n)->kind;
}

size_t yd_len(const yamldoc *doc, yd_node n)
{
	const struct yd_rec *r = rec(doc, n);
	if (r->kind == YD_MAPPING)
		return r->len / 2;
	return r->kind == YD_NONE ? 0 : r->len;
}

static yd_node kid(const yamldoc *doc, yd_node n, size_t i)
{
	const struct yd_rec *r = rec(doc, n);
	if ((r->kind != YD_MAPPING && r->kind != YD_SEQUENCE) || i >= r->len)
		return 0;
	return doc->kids[r->off + i];
}

yd_node yd_key(const yamldoc *doc, yd_node map, size_t i) { return kid(doc, map, 2 * i); }
yd_node yd_value(const yamldoc *doc, yd_node map, size_t i) { return kid(doc, map, 2 * i + 1); }

yd_node yd_item(const yamldoc *doc, yd_node seq, size_t i)
{
	return rec(doc, seq)->kind == YD_SEQUENCE ? kid(doc, seq, i) : 0;
}

static size_t find_key(const yamldoc *doc, yd_node map, const char *key)
{
	if (rec(doc, map)->kind != YD_MAPPING)
		return (size_t)-1;
	size_t pairs = yd_len(doc, map);
	for (size_t i = 0; i < pairs; i++)
		if (yd_str_eq(doc, yd_key(doc, map, i), key))
			return i;
	return (size_t)-1;
}

yd_node yd_get(const yamldoc *doc, yd_node map, const char *key)
{
	size_t i = find_key(doc, map, key);
	return i == (size_t)-1 ? 0 : yd_value(doc, map, i);
}

yd_node yd_get_key(const yamldoc *doc, yd_node map, const char *key)
{
	size_t i = find_key(doc, map, key);
	return i == (size_t)-1 ? 0 : yd_key(doc, map, i);
}

const char *yd_str(const yamldoc *doc, yd_node n, size_t *len)
{
	const struct yd_rec *r = rec(doc, n);
	if (r->kind != YD_SCALAR)
		return NULL;
	if (len)
		*len = r->len;
	return doc->strings + r->off;
}

bool yd_str_eq(const yamldoc *doc, yd_node n, const char *s)
{
	size_t len;
	const char *v = yd_str(doc, n, &len);
	return v && strlen(s) == len && memcmp(v, s, len) == 0;
}

enum yd_type yd_type(const yamldoc *doc, yd_node n)
{
	return (enum yd_type)rec(doc, n)->type;
}

bool yd_quoted(const yamldoc *doc, yd_node n)
{
	return rec(doc, n)->quoted;
}

bool yd_bool(const yamldoc *doc, yd_node n, bool *out)
{
	if (yd_kind(doc, n) != YD_SCALAR || yd_type(doc, n) != YD_T_BOOL)
		return false;
	char c = yd_str(doc, n, NULL)[0];
	*out = c == 'y' || c == 'Y' || c == 't' || c == 'T' ||
	       strcmp(yd_str(doc, n, NULL), "on") == 0 ||
	       strcmp(yd_str(doc, n, NULL), "On") == 0 ||
	       strcmp(yd_str(doc, n, NULL), "ON") == 0;
	return true;
}

bool yd_int(const yamldoc *doc, yd_node n, long long *out)
{
	if (yd_kind(doc, n) != YD_SCALAR || yd_type(doc, n) != YD_T_INT)
		return false;
	const char *s = yd_str(doc, n, NULL);
	if (strchr(s, '_') || strchr(s, ':') || strstr(s, "0b"))
		return false; /* valid YAML 1.1, but no real config writes these */
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 0);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool yd_number(const yamldoc *doc, yd_node n, double *out)
{
	long long i;
	if (yd_int(doc, n, &i)) {
		*out = (double)i;
		return true;
	}
	if (yd_kind(doc, n) != YD_SCALAR || yd_type(doc, n) != YD_T_FLOAT)
		return false;
	char *end;
	double v = strtod(yd_str(doc, n, NULL), &end);
	if (*end)
		return false;
	*out = v;
	return true;
}

struct yd_span yd_span(const yamldoc *doc, yd_node n)
{
	const struct yd_rec *r = rec(doc, n);
	struct yd_span s = { r->line, r->col, r->end_line, r->end_col };
	return s;
}

uint32_t yd_last_line(const yamldoc *doc, yd_node n)
{
	/* descend through last children: bounded by the nesting limit */
	for (unsigned depth = 0; depth < 100000; depth++) {
		const struct yd_rec *r = rec(doc, n);
		if (r->kind == YD_SCALAR || r->len == 0) {
			if (r->end_line > r->line && r->end_col == 1)
				return r->end_line - 1;
			return r->end_line;
		}
		n = doc->kids[r->off + r->len - 1];
	}
	return rec(doc, n)->end_line;
}

/* ---- paths ----------------------------------------------------------- */

struct path_step {
	yd_node node;
	size_t next; /* next child index to visit */
};

/* Fills steps[0..depth] with the route to target; returns depth+1 or 0. */
static size_t path_find(const yamldoc *doc, yd_node target,
			struct path_step **out)
{
	size_t cap = 0, n = 0, visits = 0;
	struct path_step *st = NULL;
	if (!doc->root)
		return 0;
	st = xgrow(st, &cap, 1, sizeof *st);
	st[n++] = (struct path_step){ doc->root, 0 };
	while (n && visits++ < 4000000) {
		struct path_step *top = &st[n - 1];
		if (top->node == target) {
			*out = st;
			return n;
		}
		const struct yd_rec *r = rec(doc, top->node);
		size_t step = r->kind == YD_MAPPING ? 2 : 1;
		if ((r->kind != YD_MAPPING && r->kind != YD_SEQUENCE) || top->next >= r->len) {
			n--;
			continue;
		}
		/* for mappings, look at the key as well as the value */
		yd_node child;
		if (r->kind == YD_MAPPING && doc->kids[r->off + top->next] == target)
			child = doc->kids[r->off + top->next];
		else
			child = doc->kids[r->off + top->next + step - 1];
		top->next += step;
		st = xgrow(st, &cap, n + 1, sizeof *st);
		st[n++] = (struct path_step){ child, 0 };
	}
	free(st);
	return 0;
}

static void path_write(const yamldoc *doc, yd_node n, struct buf *out, bool json)
{
	struct path_step *st = NULL;
	size_t depth = path_find(doc, n, &st);
	if (!depth) {
		buf_puts(out, json ? "null" : "<unknown>");
		return;
	}
	if (json)
		buf_putc(out, '[');
	else if (depth == 1)
		buf_puts(out, "<root>");
	for (size_t i = 0; i + 1 < depth; i++) {
		const struct yd_rec *r = rec(doc, st[i].node);
		if (r->kind == YD_MAPPING) {
			size_t pair = (st[i].next - 2) / 2;
			size_t len;
			const char *k = yd_str(doc, yd_key(doc, st[i].node, pair), &len);
			if (json) {
				buf_puts(out, i ? ",\"" : "\"");
				buf_put_json(out, k ? k : "?", k ? len : 1);
				buf_putc(out, '"');
			} else {
				if (i)
					buf_putc(out, '.');
				buf_put(out, k ? k : "?", k ? len : 1);
			}
		} else {
			buf_printf(out, json ? (i ? ",%zu" : "%zu") : "[%zu]",
				   st[i].next - 1);
		}
	}
	if (json)
		buf_putc(out, ']');
	free(st);
}

void yd_path_json(const yamldoc *doc, yd_node n, struct buf *out)
{
	path_write(doc, n, out, true);
}

void yd_path_dotted(const yamldoc *doc, yd_node n, struct buf *out)
{
	path_write(doc, n, out, false);
}

void yamldoc_image_of(const yamldoc *doc, struct yd_image *out)
{
	out->nodes = doc->nodes;
	out->n_nodes = (uint32_t)doc->n_nodes;
	out->kids = doc->kids;
	out->strings = doc->strings;
	out->root = doc->root;
}

static bool span_holds(struct yd_span s, uint32_t line, uint32_t col)
{
	if (line < s.line || line > s.end_line)
		return false;
	if (line == s.line && col < s.col)
		return false;
	return !(line == s.end_line && col >= s.end_col);
}

yd_node yd_at(const yamldoc *doc, uint32_t line, uint32_t col)
{
	yd_node at = doc->root;
	for (unsigned depth = 0; at && depth < 100000; depth++) {
		const struct yd_rec *r = rec(doc, at);
		if (r->kind == YD_SCALAR)
			return span_holds(yd_span(doc, at), line, col) ? at : 0;
		yd_node next = 0;
		for (size_t i = 0; i < r->len && !next; i++) {
			yd_node k = doc->kids[r->off + i];
			const struct yd_rec *kr = rec(doc, k);
			struct yd_span s = yd_span(doc, k);
			if (kr->kind != YD_SCALAR && s.end_col == 1 && s.end_line > s.line)
				s.end_line--, s.end_col = UINT32_MAX;
			if (span_holds(s, line, col))
				next = k;
		}
		at = next;
	}
	return 0;
}
