/* Reading a yamldoc: node access, typed values and positions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "yamldoc_internal.h"

/* ---- reading --------------------------------------------------------- */

size_t yamldoc_issue_count(const yamldoc *doc) { return doc->n_issues; }
const struct yd_issue *yamldoc_issue(const yamldoc *doc, size_t i) { return &doc->issues[i]; }
bool yamldoc_broken(const yamldoc *doc) { return doc->broken; }
size_t yamldoc_node_count(const yamldoc *doc) { return doc->n_cells - 1; }
yd_node yd_root(const yamldoc *doc) { return doc->root; }

static const struct yd_cell *cell(const yamldoc *doc, yd_node n)
{
	return &doc->cells[n < doc->n_cells ? n : 0];
}

enum yd_kind yd_kind(const yamldoc *doc, yd_node n)
{
	return (enum yd_kind)cell(doc, n)->kind;
}

size_t yd_len(const yamldoc *doc, yd_node n)
{
	const struct yd_cell *c = cell(doc, n);
	if (c->kind == YD_MAPPING)
		return c->len / 2;
	return c->kind == YD_NONE ? 0 : c->len;
}

static yd_node kid(const yamldoc *doc, yd_node n, size_t i)
{
	const struct yd_cell *c = cell(doc, n);
	if ((c->kind != YD_MAPPING && c->kind != YD_SEQUENCE) || i >= c->len)
		return 0;
	return doc->kids[c->off + i];
}

yd_node yd_key(const yamldoc *doc, yd_node map, size_t i) { return kid(doc, map, 2 * i); }
yd_node yd_value(const yamldoc *doc, yd_node map, size_t i) { return kid(doc, map, 2 * i + 1); }

yd_node yd_item(const yamldoc *doc, yd_node seq, size_t i)
{
	return cell(doc, seq)->kind == YD_SEQUENCE ? kid(doc, seq, i) : 0;
}

const yd_node *yd_children(const yamldoc *doc, yd_node n, size_t *count)
{
	const struct yd_cell *c = cell(doc, n);
	if ((c->kind != YD_MAPPING && c->kind != YD_SEQUENCE) || !c->len) {
		*count = 0;
		return NULL;
	}
	*count = c->len; /* even for a mapping: pairs */
	return doc->kids + c->off;
}

/* Rules and the schema walk look keys up by name all the time: measure
 * the name once and compare lengths before bytes. */
static size_t find_key(const yamldoc *doc, yd_node map, const char *key)
{
	const struct yd_cell *m = cell(doc, map);
	if (m->kind != YD_MAPPING || m->len < 2)
		return (size_t)-1;
	size_t len = strlen(key), pairs = m->len / 2;
	const uint32_t *kids = doc->kids + m->off;
	for (size_t i = 0; i < pairs; i++) {
		const struct yd_cell *k = &doc->cells[kids[2 * i]];
		if (k->len == len && k->kind == YD_SCALAR &&
		    memcmp(doc->strings + k->off, key, len) == 0)
			return i;
	}
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
	const struct yd_cell *c = cell(doc, n);
	if (c->kind != YD_SCALAR)
		return NULL;
	if (len)
		*len = c->len;
	return doc->strings + c->off;
}

bool yd_str_eq(const yamldoc *doc, yd_node n, const char *s)
{
	const struct yd_cell *c = cell(doc, n);
	size_t len = strlen(s);
	return c->kind == YD_SCALAR && c->len == len &&
	       memcmp(doc->strings + c->off, s, len) == 0;
}

enum yd_type yd_type(const yamldoc *doc, yd_node n)
{
	unsigned t = cell(doc, n)->type;
	if (t == YD_T__NUM12)
		return doc->pyyaml ? YD_T_STRING : YD_T_FLOAT;
	if (t == YD_T_TIMESTAMP && !doc->pyyaml)
		return YD_T_STRING;
	return (enum yd_type)t;
}

void yamldoc_set_pyyaml(yamldoc *doc, bool on)
{
	doc->pyyaml = on;
}

bool yd_quoted(const yamldoc *doc, yd_node n)
{
	return cell(doc, n)->quoted;
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

/* s without its underscores (which YAML 1.1 allows between digits) in
 * out; false when it does not fit. */
static bool strip_underscores(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	for (; *s; s++) {
		if (*s == '_')
			continue;
		if (n + 1 >= cap)
			return false;
		out[n++] = *s;
	}
	out[n] = '\0';
	return true;
}

/* The value of a sexagesimal 1:30:05 (base 60 digits after the first
 * part), as PyYAML computes it. */
static double sexagesimal_value(const char *s)
{
	double v = 0;
	char *end;
	for (;;) {
		double part = strtod(s, &end);
		if (*end != ':')
			return v * 60 + part;
		v = v * 60 + part;
		s = end + 1;
	}
}

bool yd_int(const yamldoc *doc, yd_node n, long long *out)
{
	if (yd_kind(doc, n) != YD_SCALAR || yd_type(doc, n) != YD_T_INT)
		return false;
	char s[96];
	if (!strip_underscores(yd_str(doc, n, NULL), s, sizeof s))
		return false;
	const char *p = s + (s[0] == '-' || s[0] == '+');
	bool neg = s[0] == '-';
	errno = 0;
	char *end;
	long long v;
	if (strchr(p, ':')) {
		double d = sexagesimal_value(p);
		if (d > 9e15)
			return false;
		v = (long long)d;
		end = "";
	} else if (p[0] == '0' && p[1] == 'b') {
		v = strtoll(p + 2, &end, 2);
	} else {
		v = strtoll(p, &end, 0); /* 0x.. hex, 0.. octal, as YAML 1.1 */
	}
	if (errno || *end)
		return false;
	*out = neg ? -v : v;
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
	char s[96];
	if (!strip_underscores(yd_str(doc, n, NULL), s, sizeof s))
		return false;
	const char *p = s + (s[0] == '-' || s[0] == '+');
	double v;
	char *end = "";
	if (p[0] == '.' && (p[1] == 'i' || p[1] == 'I'))
		v = HUGE_VAL;
	else if (p[0] == '.' && (p[1] == 'n' || p[1] == 'N'))
		v = NAN;
	else if (strchr(p, ':'))
		v = sexagesimal_value(p);
	else
		v = strtod(p, &end);
	if (*end)
		return false;
	*out = s[0] == '-' ? -v : v;
	return true;
}

/* The index of node n's entry in a list of records sorted by their
 * leading node field (n has one): a binary search. */
static size_t by_node(const void *list, size_t count, size_t size, yd_node n)
{
	const char *base = list;
	size_t lo = 0, hi = count;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t node;
		memcpy(&node, base + mid * size, sizeof node);
		if (node <= n)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Node n's entry in doc->ends (it has one). */
static const struct yd_end *listed_end(const yamldoc *doc, yd_node n)
{
	return &doc->ends[by_node(doc->ends, doc->n_ends, sizeof *doc->ends, n)];
}

/* Node n's start column when it did not fit its cell. */
static uint32_t wide_col(const yamldoc *doc, yd_node n)
{
	return doc->wide[by_node(doc->wide, doc->n_wide, sizeof *doc->wide, n)].col;
}

struct yd_span yd_span(const yamldoc *doc, yd_node n)
{
	if (n >= doc->n_cells)
		n = 0;
	if (doc->image) {
		const struct yd_rec *r = &doc->image[n];
		return (struct yd_span){ r->line, r->col, r->end_line, r->end_col };
	}
	const struct yd_cell *c = &doc->cells[n];
	struct yd_span s = { c->line, c->col ? c->col : wide_col(doc, n), c->line, 0 };
	if (c->kind == YD_MAPPING || c->kind == YD_SEQUENCE) {
		/* stored before its children (yamldoc_load.c) */
		s.end_line = doc->kids[c->off - 2];
		s.end_col = doc->kids[c->off - 1];
	} else if (c->end_listed) {
		const struct yd_end *e = listed_end(doc, n);
		s.end_line = e->line;
		s.end_col = e->col;
	} else {
		s.end_col = s.col + c->len + (c->quoted ? 2 : 0);
	}
	return s;
}

uint32_t yd_last_line(const yamldoc *doc, yd_node n)
{
	/* descend through last children: bounded by the nesting limit */
	for (unsigned depth = 0; depth < 100000; depth++) {
		const struct yd_cell *c = cell(doc, n);
		if (c->kind == YD_SCALAR || c->len == 0) {
			struct yd_span s = yd_span(doc, n);
			if (s.end_line > s.line && s.end_col == 1)
				return s.end_line - 1;
			return s.end_line;
		}
		n = doc->kids[c->off + c->len - 1];
	}
	return yd_span(doc, n).end_line;
}

/* The build-time program wants full records; they are made once and
 * belong to the document (which is why const is cast away). */
void yamldoc_image_of(const yamldoc *doc, struct yd_image *out)
{
	yamldoc *d = (yamldoc *)doc;
	if (!d->image && !d->image_of) {
		d->image_of = xcalloc(d->n_cells, sizeof *d->image_of);
		for (size_t i = 0; i < d->n_cells; i++) {
			const struct yd_cell *c = &d->cells[i];
			struct yd_span s = yd_span(d, (yd_node)i);
			d->image_of[i] = (struct yd_rec){
				c->kind, c->type, c->quoted, 0, s.line, s.col,
				s.end_line, s.end_col, c->off, c->len,
			};
		}
	}
	out->nodes = d->image ? d->image : d->image_of;
	out->cells = d->cells;
	out->n_nodes = (uint32_t)d->n_cells;
	out->kids = d->kids;
	out->strings = d->strings;
	out->root = d->root;
}

static bool span_holds(struct yd_span s, uint32_t line, uint32_t col)
{
	if (line < s.line || line > s.end_line)
		return false;
	if (line == s.line && col < s.col)
		return false;
	return !(line == s.end_line && col >= s.end_col);
}

/* Whether child k of a container holds line:col; a block container is
 * taken to end with its last line, not where the next token starts. */
static bool kid_holds(const yamldoc *doc, yd_node k, uint32_t line, uint32_t col)
{
	struct yd_span s = yd_span(doc, k);
	if (cell(doc, k)->kind != YD_SCALAR && s.end_col == 1 && s.end_line > s.line)
		s.end_line--, s.end_col = UINT32_MAX;
	return span_holds(s, line, col);
}

/* The last of n kids that starts at or before line:col, if kids were in
 * document order. */
static size_t kid_before(const yamldoc *doc, const uint32_t *kids, size_t n,
			 uint32_t line, uint32_t col)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		struct yd_span s = yd_span(doc, kids[mid]);
		if (s.line < line || (s.line == line && s.col <= col))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The first kid that holds the position, in turn at each level. Kids are
 * in document order unless an alias (which has its anchor's span) breaks
 * it, so a long list is first searched by halves: a kid found that way
 * holds the same scalar as the first one (an alias here can only repeat
 * an earlier kid or part of one), and when none is found the kids are
 * scanned in order. */
yd_node yd_at(const yamldoc *doc, uint32_t line, uint32_t col)
{
	yd_node at = doc->root;
	for (unsigned depth = 0; at && depth < 100000; depth++) {
		const struct yd_cell *c = cell(doc, at);
		if (c->kind == YD_SCALAR)
			return span_holds(yd_span(doc, at), line, col) ? at : 0;
		size_t n;
		const yd_node *kids = yd_children(doc, at, &n);
		yd_node next = 0;
		if (n > 16) {
			yd_node k = kids[kid_before(doc, kids, n, line, col)];
			next = kid_holds(doc, k, line, col) ? k : 0;
		}
		for (size_t i = 0; i < n && !next; i++)
			if (kid_holds(doc, kids[i], line, col))
				next = kids[i];
		at = next;
	}
	return 0;
}
