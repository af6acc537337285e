/* PC100x: single values that need facts beyond the schema: instance
 * types (the catalog), regions (ParallelCluster's list), and characters
 * that only look like ASCII (checked last: pc_check_lookalikes). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pc.h"
#include "regions.h"
#include "schema.h"
#include "text.h"
#include "xalloc.h"

/* PC1003 unsupported-region */
static void unsupported_region(const struct pc *pc)
{
	yd_node r = yd_get(pc->cl->doc, pc->cl->root, "Region");
	const char *s = yd_str(pc->cl->doc, r, NULL);
	if (!s || yd_type(pc->cl->doc, r) != YD_T_STRING || region_supported(s))
		return;
	struct diag *d = pc_report(pc, R_PC1003, r,
				   "region '%s' is not one ParallelCluster supports", s);
	const char *near = region_nearest(s);
	if (near) {
		diag_set_help(d, "did you mean '%s'?", near);
		diag_set_fix(d, near);
	}
}

/* PC1001 unknown-instance-type: a name EC2 could have is most likely a
 * type newer than the catalog, never a typo of another type to rewrite
 * (catalog.h); the family's sizes say what the catalog has instead. */
static void unknown_instance_type(const struct pc *pc, yd_node t, const char *s, size_t len)
{
	struct diag *d = pc_report(pc, R_PC1001, t,
		"instance type '%s' is not in the catalog; EFA and accelerator checks skip it", s);
	char sizes[200];
	if (catalog_family_sizes(s, len, sizes, sizeof sizes))
		diag_set_help(d, "the catalog's %.*s sizes are %s; a newer type's figures come from aws ec2 describe-instance-types output (trainforge prices import)",
			      (int)catalog_family_len(s, len), s, sizes);
	else
		diag_set_help(d, "a newer type's figures come from aws ec2 describe-instance-types output (trainforge prices import); `trainforge instances` lists the catalog");
}

/* PC1005 provisional-instance-type: the checks run on the catalog's
 * figures; this says they are not yet EC2's. */
static void provisional_instance_type(const struct pc *pc, yd_node t, const struct instance_type *it)
{
	struct diag *d = pc_report(pc, R_PC1005, t,
		"instance type '%s' is provisional in the catalog, its name and per-instance figures not yet confirmed by EC2: %s",
		it->name, it->provisional);
	diag_set_help(d, "`trainforge plan` shows which figures are derived; check them against AWS's page for the type");
}

/* PC1002 invalid-instance-type */
static void invalid_instance_type(const struct pc *pc, yd_node t, const char *s,
				  const char *suggestion)
{
	struct diag *d = pc_report(pc, R_PC1002, t, "'%s' cannot be an EC2 instance type", s);
	if (suggestion[0]) {
		diag_set_help(d, "did you mean '%s'?", suggestion);
		diag_set_fix(d, suggestion);
	} else {
		diag_set_help(d, "types are family.size, such as p5.48xlarge; `trainforge instances` lists the catalog");
	}
}

static void check_type(const struct pc *pc, yd_node t)
{
	size_t len;
	const char *s = yd_str(pc->cl->doc, t, &len);
	if (!s || yd_type(pc->cl->doc, t) != YD_T_STRING)
		return;
	char suggestion[64];
	switch (catalog_check_name(s, len, suggestion, sizeof suggestion)) {
	case CATALOG_KNOWN: {
		const struct instance_type *it = catalog_find(s, len);
		if (it->provisional)
			provisional_instance_type(pc, t, it);
		return;
	}
	case CATALOG_UNKNOWN_PLAUSIBLE:
		unknown_instance_type(pc, t, s, len);
		return;
	case CATALOG_INVALID:
		invalid_instance_type(pc, t, s, suggestion);
		return;
	}
}

static void check_types_in(const struct pc *pc, yd_node list, const char *key)
{
	const yamldoc *d = pc->cl->doc;
	for (size_t i = 0; yd_kind(d, list) == YD_SEQUENCE && i < yd_len(d, list); i++) {
		yd_node item = yd_item(d, list, i);
		yd_node t = yd_get(d, item, key);
		/* AWS Batch also takes "optimal" and bare families such as c5 */
		for (size_t j = 0; yd_kind(d, t) == YD_SEQUENCE && j < yd_len(d, t); j++) {
			const char *s = yd_str(d, yd_item(d, t, j), NULL);
			if (s && strchr(s, '.'))
				check_type(pc, yd_item(d, t, j));
		}
		if (yd_kind(d, t) == YD_SCALAR)
			check_type(pc, t);
	}
}

static void check_instance_types(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	check_type(pc, yd_get(d, yd_get(d, pc->cl->root, "HeadNode"), "InstanceType"));
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node crs = cluster_compute_resources(pc->cl, yd_item(d, queues, i));
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node types[64];
			size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, j), types, 64);
			for (size_t k = 0; k < n; k++)
				check_type(pc, types[k]);
		}
	}
	check_types_in(pc, yd_get(d, yd_get(d, pc->cl->root, "LoginNodes"), "Pools"), "InstanceType");
	yd_node batch = yd_get(d, yd_get(d, pc->cl->root, "Scheduling"), "AwsBatchQueues");
	for (size_t i = 0; yd_kind(d, batch) == YD_SEQUENCE && i < yd_len(d, batch); i++)
		check_types_in(pc, yd_get(d, yd_item(d, batch, i), "ComputeResources"),
			       "InstanceTypes");
}

/* ---- look-alike characters ------------------------------------------ */

/* The look-alikes of one value (or, outside any value, of one line). */
struct lookalikes {
	const struct tmpl_fold *first, *last;
	yd_node node;
	int32_t cps[4]; /* the distinct ones, for the message */
	size_t n_cps, count;
};

/* The findings PC1004 may stand for (rules.def), sorted by where they
 * start: looked up once per value, not scanned for each. */
struct effects {
	const struct diag **v;
	size_t n;
};

static int effect_cmp(const void *pa, const void *pb)
{
	const struct diag *a = *(const struct diag *const *)pa, *b = *(const struct diag *const *)pb;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->col < b->col ? -1 : a->col > b->col;
}

static void effects_of(const struct pc *pc, struct effects *out)
{
	out->v = xmalloc((pc->diags->len - pc->first + 1) * sizeof *out->v);
	out->n = 0;
	for (size_t i = pc->first; i < pc->diags->len; i++) {
		const struct diag *d = &pc->diags->v[i];
		if (d->src == pc->cl->src && rule_implies(R_PC1004, d->rule))
			out->v[out->n++] = d;
	}
	qsort(out->v, out->n, sizeof *out->v, effect_cmp);
}

/* The finding another check made on this value once read in ASCII (one
 * that starts inside its span): one with a fix (a did-you-mean) first,
 * else the first. */
static const struct diag *effect_on(const struct effects *e, struct yd_span s)
{
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct diag *d = e->v[mid];
		if (d->line < s.line || (d->line == s.line && d->col < s.col))
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct diag *best = NULL;
	for (size_t i = lo; i < e->n; i++) {
		const struct diag *d = e->v[i];
		if (d->line > s.end_line || (d->line == s.end_line && d->col >= s.end_col))
			break;
		if (!best || (d->fix && !best->fix))
			best = d;
	}
	return best;
}

/* What the characters are: "U+2011 (non-breaking hyphen) looks like '-'
 * but is not ASCII" for one, "3 characters look like ASCII but are not:
 * U+2011 (non-breaking hyphen) for '-', ..." for more. */
static void describe_chars(const struct lookalikes *g, struct buf *out)
{
	if (g->count == 1) {
		const struct lookalike *l = text_lookalike(g->cps[0]);
		buf_printf(out, "U+%04X (%s) looks like '%s' but is not ASCII", (unsigned)g->cps[0],
			   l->name, l->ascii);
		return;
	}
	buf_printf(out, "%zu characters look like ASCII but are not: ", g->count);
	for (size_t i = 0; i < g->n_cps; i++) {
		const struct lookalike *l = text_lookalike(g->cps[i]);
		buf_printf(out, "%sU+%04X (%s) for '%s'", i ? ", " : "", (unsigned)g->cps[i],
			   l->name, l->ascii);
	}
}

/* The safe fix: the bytes from the first look-alike to the last, with
 * each one written in ASCII. */
static void ascii_fix(const struct pc *pc, struct diag *d, const struct lookalikes *g)
{
	const char *text = pc->cl->src->text;
	struct buf b = BUF_INIT;
	size_t at = g->first->start;
	for (const struct tmpl_fold *f = g->first; f <= g->last; f++) {
		buf_put(&b, text + at, f->start - at);
		buf_puts(&b, text_lookalike(f->cp)->ascii);
		at = f->end;
	}
	diag_set_fix_bytes(d, g->first->start, g->last->end, b.p ? b.p : "");
	buf_free(&b);
}

/* Where the document as written fails the schema: a look-alike there is
 * in a value ParallelCluster refuses. */
struct refused {
	struct yd_span *v;
	size_t n;
};

static void refused_of(const struct pc *pc, struct refused *out)
{
	memset(out, 0, sizeof *out);
	schema *s = schema_embedded("parallelcluster.schema.json");
	if (!pc->as_written || !s)
		return;
	struct schema_errors errs = { 0 };
	schema_validate_release(s, pc->as_written, yd_root(pc->as_written), pc->target->pc, &errs);
	out->v = xmalloc((errs.len + 1) * sizeof *out->v);
	for (size_t i = 0; i < errs.len; i++)
		if (errs.v[i].fault != SF_COERCED)
			out->v[out->n++] = yd_span(pc->as_written, errs.v[i].pos);
	schema_errors_free(&errs);
}

static bool spans_overlap(struct yd_span a, struct yd_span b)
{
	return (a.line < b.end_line || (a.line == b.end_line && a.col < b.end_col)) &&
	       (b.line < a.end_line || (b.line == a.end_line && b.col < a.end_col));
}

/* Whether ParallelCluster refuses the value as written: its schema does,
 * or it is a value its validators look up (a region, an instance type). */
static bool refused_here(const struct pc *pc, const struct refused *r, const struct lookalikes *g,
			 struct yd_span s, bool effect)
{
	if (!pc->as_written || effect)
		return true;
	for (size_t i = 0; i < r->n; i++)
		if (spans_overlap(r->v[i], s))
			return true;
	if (!g->node)
		return false;
	struct buf path = BUF_INIT;
	yd_path_dotted(pc->cl->doc, g->node, &path);
	const char *p = path.p ? path.p : "";
	size_t n = strlen(p);
	bool looked_up = !strcmp(p, "Region") ||
			 (n >= 13 && !strcmp(p + n - 13, ".InstanceType")) ||
			 strstr(p, ".InstanceTypes[") != NULL;
	buf_free(&path);
	return looked_up;
}

/* The span of a run of look-alikes: its node's, or the characters' own
 * where no node holds them. */
static struct yd_span lookalike_span(const struct pc *pc, const struct lookalikes *g)
{
	return g->node ? yd_span(pc->cl->doc, g->node)
		: (struct yd_span){ g->first->line, g->first->col, g->last->line, g->last->col + 1 };
}

/* One finding for a run of look-alikes, of PC1004 or PC1006. */
static void lookalike_report(const struct pc *pc, enum rule_id rule, const struct effects *effects,
			     const struct lookalikes *g)
{
	const yamldoc *doc = pc->cl->doc;
	struct buf chars = BUF_INIT;
	describe_chars(g, &chars);
	size_t len = 0;
	const char *ascii = g->node ? yd_str(doc, g->node, &len) : NULL;
	struct yd_span s = lookalike_span(pc, g);
	struct diag *d;
	const struct diag *effect = g->node ? effect_on(effects, s) : NULL;
	char *effect_msg = effect ? xstrdup(effect->msg) : NULL;
	char *effect_help = effect && effect->help ? xstrdup(effect->help) : NULL;
	char *alt = effect && effect->fix ? xstrdup(effect->fix) : NULL;
	size_t alt_start = effect ? effect->fix_start : 0, alt_end = effect ? effect->fix_end : 0;
	if (!ascii || len > 120)
		d = diag_add(pc->diags, pc->cl->src, rule, s.line, s.col, s.end_line, s.end_col,
			     "%s", chars.p);
	else if (effect_msg)
		d = diag_add(pc->diags, pc->cl->src, rule, s.line, s.col, s.end_line, s.end_col,
			     "%s; in ASCII the value is '%s', which is still not valid: %s", chars.p,
			     ascii, effect_msg);
	else if (rule == R_PC1006)
		d = diag_add(pc->diags, pc->cl->src, rule, s.line, s.col, s.end_line, s.end_col,
			     "%s; ParallelCluster takes the text as it is, which in ASCII is '%s'",
			     chars.p, ascii);
	else
		d = diag_add(pc->diags, pc->cl->src, rule, s.line, s.col, s.end_line, s.end_col,
			     "%s; in ASCII the value is '%s', which is valid here", chars.p, ascii);
	if (effect_help && alt)
		diag_set_help(d, "the fix writes ASCII; %s (--unsafe-fixes writes '%s')", effect_help, alt);
	else if (effect_help)
		diag_set_help(d, "the fix writes ASCII; %s", effect_help);
	else
		diag_set_help(d, "replace %s with ASCII (the fix does)", g->count == 1 ? "it" : "them");
	ascii_fix(pc, d, g);
	if (alt)
		diag_set_alt_fix_bytes(d, alt_start, alt_end, alt);
	if (g->node)
		diag_set_path(d, doc, g->node);
	free(effect_msg);
	free(effect_help);
	free(alt);
	buf_free(&chars);
}

/* PC1004 non-ascii-lookalike: a hyphen pasted from a web page turns
 * `p5-48xlarge` into a string no AWS API knows, and the file still looks
 * right. One finding per value: the checks read the value in ASCII (the
 * loader folded it), so this finding says what the value is then and
 * whether that is valid, and stands for what they found on it. */
static void non_ascii_lookalike(const struct pc *pc, const struct effects *effects,
				const struct lookalikes *g)
{
	lookalike_report(pc, R_PC1004, effects, g);
}

/* PC1006 non-ascii-lookalike-text: the same characters in text
 * ParallelCluster takes as it is (a tag value) are a warning. */
static void non_ascii_lookalike_text(const struct pc *pc, const struct effects *effects,
				     const struct lookalikes *g)
{
	lookalike_report(pc, R_PC1006, effects, g);
}

void pc_check_lookalikes(const struct pc *pc)
{
	const struct tmpl *t = pc->tmpl;
	if (!t || !t->n_folds)
		return;
	const yamldoc *doc = pc->cl->doc;
	struct effects effects;
	effects_of(pc, &effects);
	struct refused refused;
	refused_of(pc, &refused);
	/* the findings made here come after the effects: effects_of's
	 * pointers into the list would not survive its growing */
	struct diag_list made = { 0 };
	struct pc out = *pc;
	out.diags = &made;
	struct lookalikes g = { 0 };
	for (size_t i = 0; i <= t->n_folds; i++) {
		const struct tmpl_fold *f = i < t->n_folds ? &t->folds[i] : NULL;
		yd_node node = f ? yd_at(doc, f->line, f->col) : 0;
		bool same = g.first && f && (node ? node == g.node : !g.node && f->line == g.first->line);
		if (g.first && !same) {
			struct yd_span span = lookalike_span(pc, &g);
			bool effect = g.node && effect_on(&effects, span);
			if (refused_here(pc, &refused, &g, span, effect))
				non_ascii_lookalike(&out, &effects, &g);
			else
				non_ascii_lookalike_text(&out, &effects, &g);
			memset(&g, 0, sizeof g);
		}
		if (!f)
			break;
		if (!g.first) {
			g.first = f;
			g.node = node;
		}
		g.last = f;
		g.count++;
		bool seen = false;
		for (size_t k = 0; k < g.n_cps; k++)
			seen |= g.cps[k] == f->cp;
		if (!seen && g.n_cps < sizeof g.cps / sizeof g.cps[0])
			g.cps[g.n_cps++] = f->cp;
	}
	free(effects.v);
	free(refused.v);
	diag_list_move(pc->diags, &made);
}

void pc_check_values(const struct pc *pc)
{
	unsupported_region(pc);
	check_instance_types(pc);
}
