/* Builds a yamldoc from libyaml events: positions for every node, the
 * input limits (nesting, alias expansion) and duplicate keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "xalloc.h"
#include "yamldoc_internal.h"

const struct yd_limits yd_default_limits = {
	.max_depth = 256,
	.max_alias_nodes = 1000000,
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
				    ? yd_resolve_plain(doc->strings + r->off)
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
