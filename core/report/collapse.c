/* One root cause, one finding (rules.def, IMPLIES): after a file's rules
 * ran, a finding that an enabled finding of the same file implies is
 * dropped. The causes are sorted by file and start, each with the
 * furthest end reached so far, so that the causes over an effect's range
 * are a binary search and a short walk back, not a scan of every pair. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "xalloc.h"

struct cause {
	const struct diag *d;
	uint32_t reach_line, reach_col; /* the furthest end of this and the causes before it */
};

/* The causes of one file: a range of the sorted array, and which rules
 * they are (for FILE scope). */
struct group {
	const struct source *src;
	size_t from, to;
	bool present[RULE__COUNT];
};

static int pos_cmp(uint32_t al, uint32_t ac, uint32_t bl, uint32_t bc)
{
	return al != bl ? (al < bl ? -1 : 1) : ac != bc ? (ac < bc ? -1 : 1) : 0;
}

static int cause_cmp(const void *pa, const void *pb)
{
	const struct diag *a = ((const struct cause *)pa)->d, *b = ((const struct cause *)pb)->d;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return pos_cmp(a->line, a->col, b->line, b->col);
}

/* The first cause in [from, to) that starts at or after line:col. */
static size_t first_at(const struct cause *v, size_t from, size_t to, uint32_t line, uint32_t col)
{
	while (from < to) {
		size_t mid = from + (to - from) / 2;
		if (pos_cmp(v[mid].d->line, v[mid].d->col, line, col) < 0)
			from = mid + 1;
		else
			to = mid;
	}
	return from;
}

struct table {
	const struct implication *v;
	size_t n;
};

static const struct implication *implies(const struct table *t, const struct diag *c,
					 const struct diag *e, enum implies_scope scope)
{
	for (size_t i = 0; c != e && i < t->n; i++)
		if (t->v[i].cause == c->rule && t->v[i].effect == e->rule && t->v[i].scope == scope)
			return &t->v[i];
	return NULL;
}

/* What dropped an effect: the cause and the row that says so. */
struct because {
	const struct diag *cause;
	const struct implication *row;
};

static bool implied(const struct table *t, const struct cause *v, const struct group *g,
		    const struct diag *e, struct because *why)
{
	/* SPAN: a cause that starts before e ends and ends after e starts */
	for (size_t i = first_at(v, g->from, g->to, e->end_line, e->end_col); i-- > g->from;) {
		if (pos_cmp(v[i].reach_line, v[i].reach_col, e->line, e->col) <= 0)
			break; /* nothing from here back reaches e */
		const struct diag *c = v[i].d;
		if (pos_cmp(e->line, e->col, c->end_line, c->end_col) < 0 &&
		    (why->row = implies(t, c, e, IMPLIES_SPAN))) {
			why->cause = c;
			return true;
		}
	}
	/* LINE: a cause that starts on e's line */
	for (size_t i = first_at(v, g->from, g->to, e->line, 0);
	     i < g->to && v[i].d->line == e->line; i++)
		if ((why->row = implies(t, v[i].d, e, IMPLIES_LINE))) {
			why->cause = v[i].d;
			return true;
		}
	/* FILE: any cause of the file; the first of them takes the effect */
	for (size_t k = 0; k < t->n; k++)
		if (t->v[k].effect == e->rule && t->v[k].scope == IMPLIES_FILE &&
		    g->present[t->v[k].cause] && t->v[k].cause != e->rule) {
			why->row = &t->v[k];
			for (size_t i = g->from; i < g->to; i++)
				if (v[i].d->rule == t->v[k].cause) {
					why->cause = v[i].d;
					break;
				}
			return true;
		}
	return false;
}

/* The cause's help, with what the effect it stands for said. */
static void tell(struct diag *cause, const struct diag *effect, bool again)
{
	const char *was = cause->help;
	diag_set_help(cause, "%s%s%s [%s]", was ? was : "",
		      again ? "; " : was ? "; found with it: " : "found with it: ",
		      effect->msg, rule_table[effect->rule].id);
}

struct scope {
	const struct source *src;
	const bool *enabled;
};

static bool counts(const struct diag *d, const bool *is_cause, const struct scope *s)
{
	return is_cause[d->rule] && (!s->src || d->src == s->src) &&
	       (!s->enabled || s->enabled[d->rule]);
}

void diag_collapse(struct diag_list *list, size_t first, const struct source *src,
		   const bool *enabled)
{
	diag_collapse_by(list, first, src, enabled, implications, n_implications);
}

/* diag_list_filter's test: the mark of the finding's index. */
struct keep_ctx {
	const bool *keep;
	const struct diag *first;
};
static bool keep_marked(struct diag *d, void *ctx)
{
	const struct keep_ctx *k = ctx;
	return k->keep[d - k->first];
}

void diag_collapse_by(struct diag_list *list, size_t first, const struct source *src,
		      const bool *enabled, const struct implication *table, size_t n_table)
{
	const struct scope scope = { src, enabled };
	const struct table t = { table, n_table };
	bool is_cause[RULE__COUNT] = { false }, is_effect[RULE__COUNT] = { false };
	for (size_t i = 0; i < n_table; i++) {
		is_cause[table[i].cause] = true;
		is_effect[table[i].effect] = true;
	}
	size_t n = 0;
	for (size_t i = first; i < list->len; i++)
		n += counts(&list->v[i], is_cause, &scope);
	if (!n)
		return;
	struct cause *v = xmalloc(n * sizeof *v);
	n = 0;
	for (size_t i = first; i < list->len; i++)
		if (counts(&list->v[i], is_cause, &scope))
			v[n++].d = &list->v[i];
	qsort(v, n, sizeof *v, cause_cmp);
	struct group *groups = NULL;
	size_t n_groups = 0, cap_groups = 0;
	for (size_t i = 0; i < n; i++) {
		const struct diag *c = v[i].d;
		bool fresh = i == 0 || v[i - 1].d->src != c->src;
		if (fresh) {
			groups = xgrow(groups, &cap_groups, n_groups + 1, sizeof *groups);
			memset(&groups[n_groups], 0, sizeof *groups);
			groups[n_groups].src = c->src;
			groups[n_groups++].from = i;
		}
		struct group *g = &groups[n_groups - 1];
		g->to = i + 1;
		g->present[c->rule] = true;
		bool further = fresh || pos_cmp(c->end_line, c->end_col, v[i - 1].reach_line,
						v[i - 1].reach_col) > 0;
		v[i].reach_line = further ? c->end_line : v[i - 1].reach_line;
		v[i].reach_col = further ? c->end_col : v[i - 1].reach_col;
	}
	/* decided for every finding first (the causes point into the list),
	 * then dropped in one pass */
	bool *keep = xmalloc((list->len - first) * sizeof *keep);
	struct because *why = xcalloc(list->len - first, sizeof *why);
	for (size_t i = first; i < list->len; i++) {
		const struct diag *e = &list->v[i];
		keep[i - first] = true;
		for (size_t k = 0; is_effect[e->rule] && k < n_groups; k++)
			if (groups[k].src == e->src) {
				keep[i - first] = !implied(&t, v, &groups[k], e, &why[i - first]);
				break;
			}
	}
	/* a dropped effect whose row says HELP: its message, with its ID,
	 * becomes a sentence of its cause's help, in the order of the list */
	bool *told = xcalloc(list->len - first, sizeof *told);
	for (size_t i = first; i < list->len; i++)
		if (!keep[i - first] && why[i - first].row->told == IMPLIES_HELP) {
			size_t c = (size_t)(why[i - first].cause - list->v) - first;
			tell(&list->v[first + c], &list->v[i], told[c]);
			told[c] = true;
		}
	free(told);
	free(why);
	free(v);
	free(groups);
	struct keep_ctx k = { keep, list->v + first };
	diag_list_filter(list, first, keep_marked, &k);
	free(keep);
}
