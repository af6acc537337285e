#include "yamldoc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "xalloc.h"
#include "yamldoc_image.h"

const struct yd_limits yd_default_limits = {
	.max_depth = 256,
	.max_alias_nodes = 1000000,
};

enum { REC_OPEN = 1 }; /* container not closed yet: an alias to it is a cycle */

struct yamldoc {
	struct yd_rec *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t *kids;
	size_t n_kids, cap_kids;
	char *strings;
	size_t n_strings, cap_strings;
	struct yd_issue *issues;
	size_t n_issues, cap_issues;
	yd_node root;
	bool broken;
	bool is_image; /* storage is static: free nothing but the struct */
};

/* ---- loading --------------------------------------------------------- */

struct anchor {
	char *name;
	yd_node node;
};

struct frame {
	yd_node node;
	size_t first_pending; /* index into pending of the first child */
};

struct loader {
	yamldoc *doc;
	const struct yd_limits *limits;
	struct frame *frames;
	size_t n_frames, cap_frames;
	uint32_t *pending; /* children of open containers, in order */
	size_t n_pending, cap_pending;
	uint32_t *weight;  /* expanded size of each node, saturating */
	size_t cap_weight;
	struct anchor *anchors; /* open-addressing hash table */
	size_t cap_anchors, n_anchors;
	size_t alias_nodes;
};

static void doc_issue(yamldoc *doc, enum yd_issue_code code, struct yd_span span,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void doc_issue(yamldoc *doc, enum yd_issue_code code, struct yd_span span,
		      const char *fmt, ...)
{
	doc->issues = xgrow(doc->issues, &doc->cap_issues, doc->n_issues + 1,
			    sizeof *doc->issues);
	struct yd_issue *is = &doc->issues[doc->n_issues++];
	is->code = code;
	is->span = span;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	is->msg = buf_detach(&b);
	if (code != YD_ISSUE_DUPLICATE_KEY)
		doc->broken = true;
}

static struct yd_span mark_span(yaml_mark_t start, yaml_mark_t end)
{
	struct yd_span s = {
		(uint32_t)start.line + 1, (uint32_t)start.column + 1,
		(uint32_t)end.line + 1, (uint32_t)end.column + 1,
	};
	return s;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct anchor *anchor_slot(struct loader *ld, const char *name)
{
	size_t mask = ld->cap_anchors - 1;
	for (size_t i = hash_str(name) & mask;; i = (i + 1) & mask)
		if (!ld->anchors[i].name || strcmp(ld->anchors[i].name, name) == 0)
			return &ld->anchors[i];
}

static void anchor_set(struct loader *ld, const char *name, yd_node node)
{
	if ((ld->n_anchors + 1) * 2 > ld->cap_anchors) {
		struct anchor *old = ld->anchors;
		size_t old_cap = ld->cap_anchors;
		ld->cap_anchors = old_cap ? old_cap * 2 : 16;
		ld->anchors = xcalloc(ld->cap_anchors, sizeof *ld->anchors);
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].name)
				*anchor_slot(ld, old[i].name) = old[i];
		free(old);
	}
	struct anchor *a = anchor_slot(ld, name);
	if (a->name) {
		a->node = node; /* YAML lets a later anchor of the same name win */
		return;
	}
	a->name = xstrdup(name);
	a->node = node;
	ld->n_anchors++;
}

static yd_node anchor_get(struct loader *ld, const char *name)
{
	if (!ld->cap_anchors)
		return 0;
	struct anchor *a = anchor_slot(ld, name);
	return a->name ? a->node : 0;
}

static yd_node node_new(struct loader *ld, enum yd_kind kind, yaml_mark_t start,
			yaml_mark_t end)
{
	yamldoc *doc = ld->doc;
	if (doc->n_nodes >= UINT32_MAX - 1)
		xalloc_die();
	doc->nodes = xgrow(doc->nodes, &doc->cap_nodes, doc->n_nodes + 1,
			   sizeof *doc->nodes);
	ld->weight = xgrow(ld->weight, &ld->cap_weight, doc->n_nodes + 1,
			   sizeof *ld->weight);
	yd_node n = (yd_node)doc->n_nodes++;
	struct yd_rec *r = &doc->nodes[n];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	struct yd_span s = mark_span(start, end);
	r->line = s.line;
	r->col = s.col;
	r->end_line = s.end_line;
	r->end_col = s.end_col;
	ld->weight[n] = 1;
	return n;
}

static void child_add(struct loader *ld, yd_node child)
{
	if (!ld->n_frames) {
		if (!ld->doc->root)
			ld->doc->root = child;
		return;
	}
	ld->pending = xgrow(ld->pending, &ld->cap_pending, ld->n_pending + 1,
			    sizeof *ld->pending);
	ld->pending[ld->n_pending++] = child;
}

static bool is_one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

static bool all_digits(const char *s, const char *set)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(set, *s))
			return false;
	return true;
}

/* PyYAML's YAML 1.1 resolver for plain scalars, which is what
 * ParallelCluster's loader sees. */
static enum yd_type resolve_plain(const char *s)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const bools[] = {
		"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
		NULL,
	};
	static const char *const floats[] = {
		".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf",
		".nan", ".NaN", ".NAN", NULL,
	};
	/* the first character rules out most strings before any compare */
	if ((!*s || strchr("~nN", *s)) && is_one_of(s, nulls))
		return YD_T_NULL;
	if (*s && strchr("yYnNtTfFoO", *s) && is_one_of(s, bools))
		return YD_T_BOOL;
	if (*s && strchr(".-+", *s) && is_one_of(s, floats))
		return YD_T_FLOAT;
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (strcmp(p, "0") == 0)
		return YD_T_INT;
	if (p[0] == '0' && p[1] == 'b' && all_digits(p + 2, "01_"))
		return YD_T_INT;
	if (p[0] == '0' && p[1] == 'x' && all_digits(p + 2, "0123456789abcdefABCDEF_"))
		return YD_T_INT;
	if (p[0] == '0' && all_digits(p + 1, "01234567_"))
		return YD_T_INT;
	if (p[0] >= '1' && p[0] <= '9') {
		const char *q = p + 1;
		while (*q && strchr("0123456789_", *q))
			q++;
		if (!*q)
			return YD_T_INT;
		/* sexagesimal 1:30 */
		bool sexa = *q == ':';
		while (sexa && *q == ':') {
			q++;
			if (!(*q >= '0' && *q <= '9'))
				sexa = false;
			else if (q[0] <= '5' && q[1] >= '0' && q[1] <= '9')
				q += 2;
			else
				q += 1;
		}
		if (sexa && !*q)
			return YD_T_INT;
	}
	/* [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)? */
	const char *q = p;
	while (*q && strchr("0123456789_", *q))
		q++;
	if (*q == '.' && (q > p || (q[1] >= '0' && q[1] <= '9'))) {
		q++;
		while (*q && strchr("0123456789._", *q))
			q++;
		if ((*q == 'e' || *q == 'E') && (q[1] == '-' || q[1] == '+') &&
		    q[2] >= '0' && q[2] <= '9') {
			q += 2;
			while (*q >= '0' && *q <= '9')
				q++;
		}
		if (!*q)
			return YD_T_FLOAT;
	}
	return YD_T_STRING;
}

static void scalar_add(struct loader *ld, yaml_event_t *ev)
{
	yamldoc *doc = ld->doc;
	yd_node n = node_new(ld, YD_SCALAR, ev->start_mark, ev->end_mark);
	size_t len = ev->data.scalar.length;
	if (len >= UINT32_MAX || doc->n_strings >= UINT32_MAX - len - 1)
		xalloc_die();
	doc->strings = xgrow(doc->strings, &doc->cap_strings,
			     doc->n_strings + len + 1, 1);
	memcpy(doc->strings + doc->n_strings, ev->data.scalar.value, len);
	doc->strings[doc->n_strings + len] = '\0';
	struct yd_rec *r = &doc->nodes[n];
	r->off = (uint32_t)doc->n_strings;
	r->len = (uint32_t)len;
	doc->n_strings += len + 1;
	const char *tag = (const char *)ev->data.scalar.tag;
	bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
		     ev->data.scalar.style == YAML_ANY_SCALAR_STYLE;
	r->quoted = !plain;
	if (tag && strcmp(tag, "tag:yaml.org,2002:str") == 0)
		r->type = YD_T_STRING;
	else
		r->type = (uint8_t)(plain && !(tag && strcmp(tag, "!") == 0)
				    ? resolve_plain(doc->strings + r->off)
				    : YD_T_STRING);
	if (ev->data.scalar.anchor)
		anchor_set(ld, (const char *)ev->data.scalar.anchor, n);
	child_add(ld, n);
}

static bool container_open(struct loader *ld, yaml_event_t *ev, enum yd_kind kind)
{
	if (ld->n_frames >= ld->limits->max_depth) {
		doc_issue(ld->doc, YD_ISSUE_DEPTH,
			  mark_span(ev->start_mark, ev->end_mark),
			  "nesting deeper than %u levels", ld->limits->max_depth);
		return false;
	}
	yd_node n = node_new(ld, kind, ev->start_mark, ev->end_mark);
	ld->doc->nodes[n].flags |= REC_OPEN;
	const yaml_char_t *anchor = kind == YD_MAPPING
		? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	if (anchor)
		anchor_set(ld, (const char *)anchor, n);
	child_add(ld, n);
	ld->frames = xgrow(ld->frames, &ld->cap_frames, ld->n_frames + 1,
			   sizeof *ld->frames);
	ld->frames[ld->n_frames].node = n;
	ld->frames[ld->n_frames].first_pending = ld->n_pending;
	ld->n_frames++;
	return true;
}

struct keyref {
	const char *s;
	uint32_t len;
	uint32_t pair;
};

static int keyref_cmp(const void *pa, const void *pb)
{
	const struct keyref *a = pa, *b = pb;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	int c = memcmp(a->s, b->s, a->len);
	if (c)
		return c;
	return a->pair < b->pair ? -1 : a->pair > b->pair;
}

/* ParallelCluster's loader rejects duplicate keys; libyaml keeps both. */
static void mapping_check_duplicates(struct loader *ld, yd_node map)
{
	yamldoc *doc = ld->doc;
	size_t pairs = yd_len(doc, map);
	if (pairs < 2)
		return;
	struct keyref *refs = xmalloc(pairs * sizeof *refs);
	size_t n = 0;
	for (size_t i = 0; i < pairs; i++) {
		yd_node k = yd_key(doc, map, i);
		if (doc->nodes[k].kind != YD_SCALAR)
			continue;
		refs[n].s = doc->strings + doc->nodes[k].off;
		refs[n].len = doc->nodes[k].len;
		refs[n].pair = (uint32_t)i;
		n++;
	}
	qsort(refs, n, sizeof *refs, keyref_cmp);
	for (size_t i = 1; i < n; i++) {
		if (refs[i].len != refs[i - 1].len ||
		    memcmp(refs[i].s, refs[i - 1].s, refs[i].len) != 0)
			continue;
		size_t first = i - 1;
		while (first > 0 && refs[first - 1].len == refs[i].len &&
		       memcmp(refs[first - 1].s, refs[i].s, refs[i].len) == 0)
			first--;
		yd_node dup = yd_key(doc, map, refs[i].pair);
		yd_node orig = yd_key(doc, map, refs[first].pair);
		doc_issue(doc, YD_ISSUE_DUPLICATE_KEY, yd_span(doc, dup),
			  "duplicate key '%s' (first at line %u)", refs[i].s,
			  doc->nodes[orig].line);
	}
	free(refs);
}

static void container_close(struct loader *ld, const yaml_mark_t *end)
{
	yamldoc *doc = ld->doc;
	struct frame f = ld->frames[--ld->n_frames];
	struct yd_rec *r = &doc->nodes[f.node];
	size_t count = ld->n_pending - f.first_pending;
	if (doc->n_kids + count >= UINT32_MAX)
		xalloc_die();
	doc->kids = xgrow(doc->kids, &doc->cap_kids, doc->n_kids + count,
			  sizeof *doc->kids);
	if (count)
		memcpy(doc->kids + doc->n_kids, ld->pending + f.first_pending,
		       count * sizeof *doc->kids);
	uint64_t w = 1;
	for (size_t i = 0; i < count; i++)
		w += ld->weight[ld->pending[f.first_pending + i]];
	ld->weight[f.node] = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
	r = &doc->nodes[f.node];
	r->off = (uint32_t)doc->n_kids;
	r->len = (uint32_t)count;
	r->flags &= (uint8_t)~REC_OPEN;
	if (r->kind == YD_MAPPING && count % 2) {
		/* only when parsing stopped between a key and its value */
		r->len--;
	}
	doc->n_kids += count;
	ld->n_pending = f.first_pending;
	if (end) {
		r->end_line = (uint32_t)end->line + 1;
		r->end_col = (uint32_t)end->column + 1;
	}
	if (r->kind == YD_MAPPING)
		mapping_check_duplicates(ld, f.node);
}

static void alias_add(struct loader *ld, yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct yd_span span = mark_span(ev->start_mark, ev->end_mark);
	yd_node target = anchor_get(ld, name);
	if (!target) {
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span,
			  "alias '*%s' refers to no anchor defined before it", name);
		return;
	}
	if (ld->doc->nodes[target].flags & REC_OPEN) {
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span,
			  "alias '*%s' refers to a node that contains it", name);
		return;
	}
	ld->alias_nodes += ld->weight[target];
	if (ld->alias_nodes > ld->limits->max_alias_nodes) {
		doc_issue(ld->doc, YD_ISSUE_ALIAS_BUDGET, span,
			  "aliases expand to more than %zu nodes",
			  ld->limits->max_alias_nodes);
		return;
	}
	child_add(ld, target);
}

static void syntax_issue(struct loader *ld, yaml_parser_t *p)
{
	yaml_mark_t m = p->problem ? p->problem_mark : p->mark;
	struct yd_span span = mark_span(m, m);
	span.end_col = span.col + 1;
	if (p->context)
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span, "%s %s (line %zu)",
			  p->problem ? p->problem : "syntax error", p->context,
			  p->context_mark.line + 1);
	else
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span, "%s",
			  p->problem ? p->problem : "syntax error");
}

/* Handles one event; false stops the load. */
static bool loader_event(struct loader *ld, yaml_event_t *ev, int *documents)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++*documents > 1) {
			doc_issue(ld->doc, YD_ISSUE_MULTI_DOC,
				  mark_span(ev->start_mark, ev->end_mark),
				  "a second YAML document starts here; only one is allowed");
			return false;
		}
		return true;
	case YAML_SCALAR_EVENT:
		scalar_add(ld, ev);
		return true;
	case YAML_SEQUENCE_START_EVENT:
		return container_open(ld, ev, YD_SEQUENCE);
	case YAML_MAPPING_START_EVENT:
		return container_open(ld, ev, YD_MAPPING);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (ld->n_frames)
			container_close(ld, &ev->end_mark);
		return true;
	case YAML_ALIAS_EVENT:
		alias_add(ld, ev);
		return !ld->doc->broken;
	case YAML_STREAM_END_EVENT:
		return false;
	default:
		return true;
	}
}

yamldoc *yamldoc_parse(const char *text, size_t len,
		       const struct yd_limits *limits)
{
	yamldoc *doc = xcalloc(1, sizeof *doc);
	struct loader ld = { .doc = doc, .limits = limits ? limits : &yd_default_limits };
	yaml_mark_t zero = { 0, 0, 0 };
	node_new(&ld, YD_NONE, zero, zero); /* index 0 means "no node" */

	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		xalloc_die();
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	int documents = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			syntax_issue(&ld, &parser);
			break;
		}
		bool more = loader_event(&ld, &ev, &documents);
		yaml_event_delete(&ev);
		if (!more)
			break;
	}
	yaml_parser_delete(&parser);
	while (ld.n_frames)
		container_close(&ld, NULL);
	for (size_t i = 0; i < ld.cap_anchors; i++)
		free(ld.anchors[i].name);
	free(ld.anchors);
	free(ld.frames);
	free(ld.pending);
	free(ld.weight);
	return doc;
}

yamldoc *yamldoc_from_image(const struct yd_image *image)
{
	yamldoc *doc = xcalloc(1, sizeof *doc);
	doc->nodes = (struct yd_rec *)image->nodes;
	doc->n_nodes = image->n_nodes;
	doc->kids = (uint32_t *)image->kids;
	doc->strings = (char *)image->strings;
	doc->root = image->root;
	doc->is_image = true;
	return doc;
}

void yamldoc_free(yamldoc *doc)
{
	if (!doc)
		return;
	if (!doc->is_image) {
		free(doc->nodes);
		free(doc->kids);
		free(doc->strings);
	}
	for (size_t i = 0; i < doc->n_issues; i++)
		free(doc->issues[i].msg);
	free(doc->issues);
	free(doc);
}

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
