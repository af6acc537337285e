/* Builds a yamldoc from libyaml events: positions for every node, the
 * input limits (nesting, alias expansion) and duplicate keys, which
 * compare interned keys (yamldoc_scalar.c) by offset. Text prepared from
 * a template (tmpl.h) is read with its positions mapped back to the
 * original, its placeholders marked as values of no known type, and
 * keys in two arms of one {% if %} taken for what they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "tmpl.h"
#include "text.h"
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
	uint32_t weight; /* the nodes an alias to it re-exposes */
};

/* A child of an open container, with its expanded size: what it weighs
 * when an alias repeats a node that holds it. */
struct pending {
	yd_node node;
	uint32_t weight;
};

struct frame {
	yd_node node;
	size_t first_pending; /* index into pending of the first child */
	size_t self;          /* its own entry in pending, or SIZE_MAX at the root */
	yaml_mark_t end;      /* where its start event ends: its end if
				 parsing stops before it closes */
	const char *anchor;   /* its anchor (the table's copy), or NULL */
};

struct loader {
	yamldoc *doc;
	const struct yd_limits *limits;
	struct frame *frames;
	size_t n_frames, cap_frames;
	struct pending *pending; /* children of open containers, in order */
	size_t n_pending, cap_pending;
	struct anchor *anchors; /* open-addressing hash table */
	size_t cap_anchors, n_anchors;
	struct yd_interns interns;
	size_t alias_nodes;
	const struct tmpl *tmpl; /* the template the text was prepared from, or NULL */
	size_t ph_next;          /* its first placeholder not before the current scalar */
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

static struct anchor *anchor_slot(struct loader *ld, const char *name)
{
	size_t mask = ld->cap_anchors - 1;
	for (size_t i = text_hash(name, strlen(name), 0) & mask;; i = (i + 1) & mask)
		if (!ld->anchors[i].name || strcmp(ld->anchors[i].name, name) == 0)
			return &ld->anchors[i];
}

static struct anchor *anchor_set(struct loader *ld, const char *name, yd_node node)
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
	if (!a->name) {
		a->name = xstrdup(name);
		ld->n_anchors++;
	}
	a->node = node; /* YAML lets a later anchor of the same name win */
	a->weight = 1;  /* a container's is set when it closes */
	return a;
}

static const struct anchor *anchor_get(struct loader *ld, const char *name)
{
	if (!ld->cap_anchors)
		return NULL;
	struct anchor *a = anchor_slot(ld, name);
	return a->name ? a : NULL;
}

/* Appends a cell; a start column too wide for it is listed beside. */
static yd_node cell_add(yamldoc *doc, enum yd_kind kind, uint32_t line, uint32_t col)
{
	if (doc->n_cells >= UINT32_MAX - 1)
		xalloc_die();
	if (doc->n_cells == doc->cap_cells)
		doc->cells = xgrow(doc->cells, &doc->cap_cells, doc->n_cells + 1,
				   sizeof *doc->cells);
	yd_node n = (yd_node)doc->n_cells++;
	doc->cells[n] = (struct yd_cell){
		.kind = kind,
		.line = line,
		.col = col <= CELL_COL_MAX ? col : 0,
	};
	if (col > CELL_COL_MAX) {
		doc->wide = xgrow(doc->wide, &doc->cap_wide, doc->n_wide + 1,
				  sizeof *doc->wide);
		doc->wide[doc->n_wide++] = (struct yd_wide){ n, col };
	}
	return n;
}

static yd_node node_new(struct loader *ld, enum yd_kind kind, yaml_mark_t start)
{
	return cell_add(ld->doc, kind, (uint32_t)start.line + 1,
			(uint32_t)start.column + 1);
}

/* Lists the end of scalar n (the latest node, so the list stays sorted). */
static void end_list(yamldoc *doc, yd_node n, yaml_mark_t end)
{
	if (doc->n_ends == doc->cap_ends)
		doc->ends = xgrow(doc->ends, &doc->cap_ends, doc->n_ends + 1, sizeof *doc->ends);
	doc->ends[doc->n_ends++] = (struct yd_end){
		n, (uint32_t)end.line + 1, (uint32_t)end.column + 1,
	};
	doc->cells[n].end_listed = true;
}

/* A scalar whose end yd_span derives exactly is not listed: one line,
 * as many columns as bytes (so ASCII, unescaped), plus its quotes. */
static void scalar_end(yamldoc *doc, yd_node n, yaml_mark_t start, yaml_mark_t end)
{
	const struct yd_cell *c = &doc->cells[n];
	size_t quotes = c->quoted ? 2 : 0;
	if (end.line != start.line || end.column < start.column ||
	    end.column - start.column != c->len + quotes)
		end_list(doc, n, end);
}

static void child_add(struct loader *ld, yd_node child, uint32_t weight)
{
	if (!ld->n_frames) {
		if (!ld->doc->root)
			ld->doc->root = child;
		return;
	}
	if (ld->n_pending == ld->cap_pending)
		ld->pending = xgrow(ld->pending, &ld->cap_pending, ld->n_pending + 1,
				    sizeof *ld->pending);
	ld->pending[ld->n_pending++] = (struct pending){ child, weight };
}

/* The next scalar is a key when the innermost container is a mapping
 * holding an even number of children. */
static bool at_key(const struct loader *ld)
{
	if (!ld->n_frames)
		return false;
	const struct frame *f = &ld->frames[ld->n_frames - 1];
	return ld->doc->cells[f->node].kind == YD_MAPPING &&
	       (ld->n_pending - f->first_pending) % 2 == 0;
}

/* A position in the prepared text as the original text has it: lines
 * are where they were; columns move where a value replaced a
 * placeholder (a position inside the replacement goes to its start or,
 * past the start, to its end). */
static void map_mark(const struct loader *ld, yaml_mark_t *m)
{
	const struct tmpl *t = ld->tmpl;
	if (!t || !t->n_shifts)
		return;
	uint32_t line = (uint32_t)m->line + 1, col = (uint32_t)m->column + 1;
	size_t lo = 0, hi = t->n_shifts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tmpl_shift *sh = &t->shifts[mid];
		if (sh->line < line || (sh->line == line && sh->col <= col))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t->shifts[lo - 1].line != line)
		return;
	const struct tmpl_shift *sh = &t->shifts[lo - 1];
	uint32_t to;
	if (col < sh->col + sh->cols)
		to = col == sh->col ? sh->orig_col : sh->orig_col + sh->orig_cols;
	else
		to = col - (sh->col + sh->cols) + sh->orig_col + sh->orig_cols;
	m->column = to - 1;
}

static bool mark_before(uint32_t line, uint32_t col, yaml_mark_t m)
{
	return line < m.line + 1 || (line == m.line + 1 && col <= m.column + 1);
}

/* Whether a scalar from start to end holds a placeholder without a
 * value. Scalars come in document order, so one cursor walks the
 * placeholders once. */
static bool holds_placeholder(struct loader *ld, yaml_mark_t start, yaml_mark_t end)
{
	const struct tmpl *t = ld->tmpl;
	if (!t || !t->n_unvalued)
		return false;
	while (ld->ph_next < t->n_ph &&
	       mark_before(t->ph[ld->ph_next].line, t->ph[ld->ph_next].end_col, start))
		ld->ph_next++;
	for (size_t i = ld->ph_next; i < t->n_ph; i++) {
		const struct tmpl_ph *p = &t->ph[i];
		if (!mark_before(p->line, p->col + 1, end))
			return false;
		if (!p->valued)
			return true;
	}
	return false;
}

static void scalar_add(struct loader *ld, yaml_event_t *ev)
{
	yamldoc *doc = ld->doc;
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const struct yd_intern *in = at_key(ld) ? yd_intern(&ld->interns, doc, text, len) : NULL;
	uint32_t off = in ? in->off : yd_text_add(doc, text, len);
	yd_node n = node_new(ld, YD_SCALAR, ev->start_mark);
	struct yd_cell *c = &doc->cells[n];
	c->off = off;
	c->len = (uint32_t)len;
	c->interned = in != NULL;
	const char *tag = (const char *)ev->data.scalar.tag;
	bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ||
		     ev->data.scalar.style == YAML_ANY_SCALAR_STYLE;
	c->quoted = !plain;
	if (!plain || (tag && (strcmp(tag, "tag:yaml.org,2002:str") == 0 ||
			       strcmp(tag, "!") == 0)))
		c->type = YD_T_STRING;
	else
		c->type = in ? in->type : yd_resolve_plain(doc->strings + off, len);
	if (holds_placeholder(ld, ev->start_mark, ev->end_mark))
		c->type = YD_T_UNKNOWN;
	scalar_end(doc, n, ev->start_mark, ev->end_mark);
	if (ev->data.scalar.anchor)
		anchor_set(ld, (const char *)ev->data.scalar.anchor, n);
	child_add(ld, n, 1);
}

static bool container_open(struct loader *ld, yaml_event_t *ev, enum yd_kind kind)
{
	if (ld->n_frames >= ld->limits->max_depth) {
		doc_issue(ld->doc, YD_ISSUE_DEPTH,
			  mark_span(ev->start_mark, ev->end_mark),
			  "nesting deeper than %u levels", ld->limits->max_depth);
		return false;
	}
	yd_node n = node_new(ld, kind, ev->start_mark);
	ld->doc->cells[n].off = CELL_OPEN;
	const yaml_char_t *anchor = kind == YD_MAPPING
		? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	const struct anchor *a = anchor ? anchor_set(ld, (const char *)anchor, n) : NULL;
	size_t self = ld->n_frames ? ld->n_pending : SIZE_MAX;
	child_add(ld, n, 1);
	if (ld->n_frames == ld->cap_frames)
		ld->frames = xgrow(ld->frames, &ld->cap_frames, ld->n_frames + 1,
				   sizeof *ld->frames);
	ld->frames[ld->n_frames++] = (struct frame){
		n, ld->n_pending, self, ev->end_mark, a ? a->name : NULL,
	};
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

/* Whether a small mapping may repeat a key. Interned keys are equal
 * exactly when their offsets are, so the usual mapping of a config is
 * checked without comparing any text. */
static bool may_repeat(const yamldoc *doc, const uint32_t *kids, size_t pairs)
{
	for (size_t i = 1; i < pairs; i++) {
		const struct yd_cell *a = &doc->cells[kids[2 * i]];
		if (a->kind != YD_SCALAR)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct yd_cell *b = &doc->cells[kids[2 * j]];
			if (b->kind != YD_SCALAR ||
			    (a->off != b->off && a->interned && b->interned))
				continue;
			if (a->len == b->len &&
			    memcmp(doc->strings + a->off, doc->strings + b->off, a->len) == 0)
				return true;
		}
	}
	return false;
}

/* ParallelCluster's loader rejects duplicate keys; libyaml keeps both.
 * Sorting reports each repeat once, in an order that does not depend on
 * how the keys were stored. */
static void mapping_check_duplicates(struct loader *ld, yd_node map)
{
	yamldoc *doc = ld->doc;
	size_t pairs = yd_len(doc, map);
	if (pairs < 2)
		return;
	const uint32_t *kids = doc->kids + doc->cells[map].off;
	if (pairs <= 16 && !may_repeat(doc, kids, pairs))
		return;
	struct keyref *refs = xmalloc(pairs * sizeof *refs);
	size_t n = 0;
	for (size_t i = 0; i < pairs; i++) {
		const struct yd_cell *k = &doc->cells[kids[2 * i]];
		if (k->kind != YD_SCALAR)
			continue;
		refs[n].s = doc->strings + k->off;
		refs[n].len = k->len;
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
		/* the earliest key this one repeats: in a template, a key in
		 * another arm of the same {% if %} is not repeated by it */
		yd_node dup = kids[2 * refs[i].pair];
		yd_node orig = 0;
		for (size_t j = first; j < i && !orig; j++) {
			yd_node k = kids[2 * refs[j].pair];
			if (!tmpl_exclusive(ld->tmpl, doc->cells[k].line, doc->cells[dup].line))
				orig = k;
		}
		if (!orig)
			continue;
		doc_issue(doc, YD_ISSUE_DUPLICATE_KEY, yd_span(doc, dup),
			  "duplicate key '%s' (first at line %u)", refs[i].s,
			  doc->cells[orig].line);
	}
	free(refs);
}

/* Stores the children of the innermost container after its end position
 * (two words: every container has one, and this costs no node index). */
static void container_close(struct loader *ld, const yaml_mark_t *end)
{
	yamldoc *doc = ld->doc;
	struct frame f = ld->frames[--ld->n_frames];
	size_t count = ld->n_pending - f.first_pending;
	if (doc->n_kids + count + 2 >= UINT32_MAX)
		xalloc_die();
	if (doc->n_kids + count + 2 > doc->cap_kids)
		doc->kids = xgrow(doc->kids, &doc->cap_kids, doc->n_kids + count + 2,
				  sizeof *doc->kids);
	yaml_mark_t at = end ? *end : f.end;
	doc->kids[doc->n_kids++] = (uint32_t)at.line + 1;
	doc->kids[doc->n_kids++] = (uint32_t)at.column + 1;
	uint64_t w = 1;
	for (size_t i = 0; i < count; i++) {
		doc->kids[doc->n_kids + i] = ld->pending[f.first_pending + i].node;
		w += ld->pending[f.first_pending + i].weight;
	}
	uint32_t weight = w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
	if (f.self != SIZE_MAX)
		ld->pending[f.self].weight = weight;
	if (f.anchor) {
		struct anchor *a = anchor_slot(ld, f.anchor);
		if (a->node == f.node)
			a->weight = weight;
	}
	struct yd_cell *c = &doc->cells[f.node];
	c->off = (uint32_t)doc->n_kids;
	c->len = (uint32_t)count;
	if (c->kind == YD_MAPPING && count % 2) {
		/* only when parsing stopped between a key and its value */
		c->len--;
	}
	doc->n_kids += count;
	ld->n_pending = f.first_pending;
	if (c->kind == YD_MAPPING)
		mapping_check_duplicates(ld, f.node);
}

static void alias_add(struct loader *ld, yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct yd_span span = mark_span(ev->start_mark, ev->end_mark);
	const struct anchor *a = anchor_get(ld, name);
	if (!a) {
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span,
			  "alias '*%s' refers to no anchor defined before it", name);
		return;
	}
	if (ld->doc->cells[a->node].off == CELL_OPEN) {
		doc_issue(ld->doc, YD_ISSUE_SYNTAX, span,
			  "alias '*%s' refers to a node that contains it", name);
		return;
	}
	ld->alias_nodes += a->weight;
	if (ld->alias_nodes > ld->limits->max_alias_nodes) {
		doc_issue(ld->doc, YD_ISSUE_ALIAS_BUDGET, span,
			  "aliases expand to more than %zu nodes",
			  ld->limits->max_alias_nodes);
		return;
	}
	child_add(ld, a->node, a->weight);
}

static void syntax_issue(struct loader *ld, yaml_parser_t *p)
{
	yaml_mark_t m = p->problem ? p->problem_mark : p->mark;
	map_mark(ld, &m);
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
	map_mark(ld, &ev->start_mark);
	map_mark(ld, &ev->end_mark);
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

static yamldoc *parse(const char *text, size_t len, const struct yd_limits *limits,
		      const struct tmpl *tmpl)
{
	yamldoc *doc = xcalloc(1, sizeof *doc);
	struct loader ld = { .doc = doc, .limits = limits ? limits : &yd_default_limits,
			     .tmpl = tmpl };
	yaml_mark_t zero = { 0, 0, 0 };
	node_new(&ld, YD_NONE, zero); /* index 0 means "no node" */
	/* a byte-order mark is no content: columns of line 1 start after it,
	 * as editors show them (source.c agrees) */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}

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
	free(ld.interns.v);
	return doc;
}

yamldoc *yamldoc_parse(const char *text, size_t len, const struct yd_limits *limits)
{
	return parse(text, len, limits, NULL);
}

yamldoc *yamldoc_parse_tmpl(const struct tmpl *t, const struct yd_limits *limits)
{
	return parse(tmpl_text(t), t->len, limits, t);
}

/* Wraps a compiled-in tree: its cells, kids and text are used where they
 * are (the build wrote the cells as a loaded document holds them), and
 * spans are read from its records. Nothing is copied. */
yamldoc *yamldoc_from_image(const struct yd_image *image)
{
	yamldoc *doc = xcalloc(1, sizeof *doc);
	doc->n_cells = doc->cap_cells = image->n_nodes;
	doc->cells = (struct yd_cell *)image->cells; /* never written: an image's */
	doc->kids = (uint32_t *)image->kids;
	doc->strings = (char *)image->strings;
	doc->n_strings = 0;
	doc->image = image->nodes;
	doc->root = image->root;
	return doc;
}

void yamldoc_free(yamldoc *doc)
{
	if (!doc)
		return;
	if (!doc->image) {
		free(doc->kids);
		free(doc->strings);
		free(doc->cells);
	}
	free(doc->ends);
	free(doc->wide);
	free(doc->met);
	free(doc->met_keys);
	free(doc->image_of);
	for (size_t i = 0; i < doc->n_issues; i++)
		free(doc->issues[i].msg);
	free(doc->issues);
	free(doc);
}
