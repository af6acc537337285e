/* Fair comparisons: each instance type at a node count chosen by a rule
 * a buyer would use (the same peak, the same nodes, the same ranks, or
 * the fewest nodes that finish in time), with the layout nearest the
 * spec's that the layout rules allow there. docs/plan.md, "Comparing
 * instance types", has the rules and the bounds of the search. */
#include "plan.h"
#include "slurm_time.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define MAX_NODES 4096  /* the job spec's own bound on nodes */
#define MAX_CHOICES 24  /* values of one degree the search tries */
#define MAX_DEGREE 1024 /* the job spec's own bound on every degree */

const char *plan_same_name(enum plan_same s)
{
	static const char *const names[] = {
		[SAME_PEAK] = "peak", [SAME_NODES] = "nodes", [SAME_RANKS] = "ranks",
	};
	return names[s];
}

/* ---- one layout at one node count ----------------------------------------
 * A candidate is the spec with another type, node count and degrees; it
 * is valid when core/facts' layout invariants hold and the plan's own
 * derivation accepts it, so the rules live in one place. */

struct candidate {
	struct job_spec job;
	struct spec_parallel par;
	struct spec_batch batch;
	struct spec_capacity cap;
	struct spec spec;
	struct plan plan;
};

static void candidate_init(struct candidate *c, const struct spec *spec,
			   const struct instance_type *it, int nodes, int lnc)
{
	const struct job_spec *j = spec->job;
	memset(c, 0, sizeof *c);
	c->job = *j;
	c->par = *j->parallel;
	c->par.data = 0; /* derived from the node count */
	c->batch = *j->batch;
	c->cap = *j->capacity;
	c->cap.reserved = c->cap.spot = 0; /* one fleet of `nodes` */
	c->job.parallel = &c->par;
	c->job.batch = &c->batch;
	c->job.capacity = &c->cap;
	c->job.instance = (char *)it->name;
	c->job.nodes = nodes;
	if (strcmp(it->name, j->instance)) {
		c->job.processes_per_node = 0;
		c->cap.prices = NULL; /* the user's prices are for the spec's own type */
	}
	/* the spec's LNC as the plan resolved it, where the type has it */
	c->job.lnc = catalog_lnc_valid(it, lnc) ? lnc : 0;
	c->spec = *spec;
	c->spec.job = &c->job;
	c->spec.candidate = strcmp(it->name, j->instance) != 0;
	c->spec.compare = true;
}

/* Derives the candidate's plan; on failure, the first error's message
 * goes to why (when given). */
static bool candidate_derive(struct candidate *c, char *why, size_t cap)
{
	struct diag_list diags = { 0 };
	bool ok = plan_derive(&c->plan, &c->spec, &diags);
	for (size_t i = 0; i < diags.len && ok; i++)
		ok = diags.v[i].sev != SEV_ERROR;
	if (!ok && why) {
		why[0] = '\0';
		for (size_t i = 0; i < diags.len; i++)
			if (diags.v[i].sev == SEV_ERROR) {
				snprintf(why, cap, "%s", diags.v[i].msg);
				break;
			}
	}
	diag_list_free(&diags);
	return ok;
}

/* The values of one degree to try: the spec's first, then the others,
 * no more than MAX_CHOICES. Divisors of `of` when it is known (layers,
 * experts), else powers of two; never above `most`. */
static int choices(int spec, int of, int most, int *v)
{
	int n = 0;
	most = most < MAX_DEGREE ? most : MAX_DEGREE;
	if (spec <= most)
		v[n++] = spec;
	for (int d = 1; d <= most && n < MAX_CHOICES; d = of > 0 ? d + 1 : d * 2) {
		if ((of > 0 && of % d) || d == spec)
			continue;
		v[n++] = d;
	}
	return n;
}

static double log2_ratio(int a, int b)
{
	double r = 0;
	for (double x = a > b ? (double)a / b : (double)b / a; x > 1.0001; x /= 2)
		r++;
	return r;
}

/* Better candidates fit, keep the spec's global batch, differ least
 * from the spec's degrees, and need the least memory, in that order. */
struct score {
	int fit, global_changed;
	double distance, memory;
};

static int fit_class(int fits)
{
	return fits == 1 ? 0 : fits < 0 ? 1 : 2;
}

static bool better(const struct score *a, const struct score *b)
{
	if (a->fit != b->fit)
		return a->fit < b->fit;
	if (a->global_changed != b->global_changed)
		return a->global_changed < b->global_changed;
	if (a->distance != b->distance)
		return a->distance < b->distance;
	return a->memory < b->memory;
}

/* The global batch at dp: the spec's when it divides, else the nearest
 * multiple of micro x DP (at least one). */
static int global_at(int global, int micro, long long dp, bool *changed)
{
	long long unit = (long long)micro * dp;
	*changed = false;
	if (unit <= 0 || global % unit == 0)
		return global;
	long long n = (global + unit / 2) / unit;
	*changed = true;
	n = n < 1 ? 1 : n;
	return n * unit > 0x7fffffff ? global : (int)(n * unit);
}

static void row_take(struct plan_row *r, const struct candidate *c, const struct plan *spec_plan,
		     bool global_changed)
{
	const struct plan *p = &c->plan;
	r->tp = p->tp, r->pp = p->pp, r->vpp = p->vpp, r->cp = p->cp, r->ep = p->ep;
	r->dp = p->dp, r->micro = p->micro, r->global = p->global;
	r->micro_batches = p->micro_batches;
	r->global_changed = global_changed;
	r->layout_changed = p->tp != spec_plan->tp || p->pp != spec_plan->pp ||
			    p->vpp != spec_plan->vpp || p->ep != spec_plan->ep;
}

/* What one search at one node count carries from candidate to candidate. */
struct search {
	const struct plan *sp;
	const struct plan_request *rq;
	const struct instance_type *it;
	int nodes, ppn;
	struct plan_row *r;
	struct candidate *c;
	struct score best;
	bool found;
};

/* One candidate: the layout invariants first (core/facts' check, which
 * costs nothing), then, for one that holds them, the plan's own
 * derivation, which the estimate needs and which applies the rest of
 * the spec's checks. The spec's own degrees are always derived, so that
 * their failure has the plan's wording. */
static void try_layout(struct search *x, int tp, int pp, int ep, int vpp, bool first)
{
	const struct plan *sp = x->sp;
	const struct spec_model *m = sp->job->model;
	struct plan_row *r = x->r;
	struct layout l = {
		.fw = sp->job->framework, .world = layout_world_of(x->nodes, x->ppn),
		.tp = tp, .pp = pp, .vpp = vpp, .cp = sp->cp, .ep = ep, .micro = sp->micro,
		.global = sp->global, .layers = m->layers, .experts = m->experts,
		.heads = m->attention_heads, .groups = m->query_groups, .seq = m->seq_length,
	};
	bool changed = false;
	long long dp = layout_dp(&l);
	if (dp)
		l.global = global_at(sp->global, sp->micro, dp, &changed);
	if (!first && layout_check(&l, NULL, NULL))
		return;
	if (r->tried >= PLAN_SEARCH_BUDGET) {
		r->budget_spent = true;
		return;
	}
	r->tried++;
	struct candidate *c = x->c;
	candidate_init(c, x->rq->spec, x->it, x->nodes, sp->lnc);
	c->par.tensor = tp, c->par.pipeline = pp, c->par.expert = ep, c->par.virtual_stages = vpp;
	c->batch.global = (int)l.global;
	if (!candidate_derive(c, first ? r->why_buf : NULL, sizeof r->why_buf)) {
		if (first)
			r->why = r->why_buf;
		return;
	}
	struct plan_est est;
	plan_estimate_at(&c->plan, x->it, x->nodes, x->ppn, x->rq->hours, &est);
	struct score s = {
		fit_class(est.fits), changed,
		log2_ratio(tp, sp->tp) + log2_ratio(pp, sp->pp) + log2_ratio(ep, sp->ep) + (vpp != sp->vpp),
		est.total >= 0 ? est.total : 0,
	};
	if (x->found && !better(&s, &x->best))
		return;
	x->best = s;
	x->found = true;
	row_take(r, c, sp, changed);
	r->est = est;
}

/* The best layout of the spec's model on nodes nodes of it. False when
 * none is valid (why says why the spec's own degrees are not). */
static bool search(const struct plan *sp, const struct plan_request *rq,
		   const struct instance_type *it, int nodes, struct plan_row *r)
{
	const struct spec_model *m = sp->job->model;
	int ppn = catalog_procs_per_node(it, catalog_lnc_valid(it, sp->lnc) ? sp->lnc : 0);
	int tps[MAX_CHOICES], pps[MAX_CHOICES], eps[MAX_CHOICES], vpps[2] = { sp->vpp, 1 };
	/* tensor parallelism stays within a node (docs/plan.md) */
	int ntp = choices(sp->tp, 0, ppn, tps);
	int npp = choices(sp->pp, m->layers, m->layers > 0 ? m->layers : 64, pps);
	int nep = sp->ep > 1 || m->experts > 1
		? choices(sp->ep, m->experts, m->experts > 0 ? m->experts : sp->ep, eps) : 1;
	int nvpp = sp->vpp > 1 ? 2 : 1;
	struct search x = { sp, rq, it, nodes, ppn, r, malloc(sizeof *x.c), { 3, 1, 0, 0 }, false };
	if (!x.c)
		return false;
	if (sp->ep <= 1 && m->experts <= 1)
		eps[0] = sp->ep;
	r->why = NULL;
	for (int a = 0; a < ntp && !r->budget_spent; a++)
		for (int b = 0; b < npp && !r->budget_spent; b++)
			for (int e = 0; e < nep && !r->budget_spent; e++)
				for (int v = 0; v < nvpp && !r->budget_spent; v++) {
					int vpp = pps[b] > 1 ? vpps[v] : 1;
					if (!v || vpp != vpps[0])
						try_layout(&x, tps[a], pps[b], eps[e], vpp, !a && !b && !e && !v);
				}
	free(x.c);
	return x.found;
}

/* ---- node counts -------------------------------------------------------- */

static double node_peak(const struct instance_type *it)
{
	return it->accel_peak_bf16_tflops > 0 && it->accel_count > 0
		? it->accel_peak_bf16_tflops * 1e12 * it->accel_count : -1;
}

/* The row at `nodes`, with time and cost even without a valid layout. */
static void size_at(const struct plan *p, const struct plan_request *rq, struct plan_row *r, int nodes)
{
	r->nodes = nodes;
	r->ppn = catalog_procs_per_node(r->it, catalog_lnc_valid(r->it, p->lnc) ? p->lnc : 0);
	if (search(p, rq, r->it, nodes, r)) {
		r->status = ROW_OK;
		return;
	}
	r->status = ROW_NO_LAYOUT;
	if (!r->why)
		r->why = "no layout of the model divides this node count";
	/* the spec's own degrees, for time and cost: memory is not known */
	struct plan alt = *p;
	alt.nodes = nodes;
	alt.world = nodes * r->ppn;
	plan_estimate_at(&alt, r->it, nodes, r->ppn, rq->hours, &r->est);
	r->est.fits = -1;
	r->tp = p->tp, r->pp = p->pp, r->vpp = p->vpp, r->cp = p->cp, r->ep = p->ep;
	r->dp = 0;
}

/* Whether n nodes keep the degrees: TP x PP x CP x EP divides the
 * world, and the spec's global batch divides by micro x DP, DP being the
 * world over TP x PP x CP (experts are carved from the data-parallel
 * ranks); *dp gets DP. */
static bool keeps(const struct plan *p, const struct plan_row *r, int n, int *dp)
{
	long long world = (long long)n * r->ppn, model = (long long)r->keep_tp * r->keep_pp * r->keep_cp;
	if (world <= 0 || model <= 0 || world % (model * r->keep_ep))
		return false;
	long long unit = (long long)p->micro * (world / model);
	*dp = (int)(world / model);
	return unit > 0 && p->global % unit == 0;
}

/* --same nodes and --same peak: the count nearest to target at which the
 * spec's degrees still divide the world and its global batch still
 * divides, so that the row is a layout a buyer would run rather than
 * one whose data or expert parallelism collapsed; a tie goes up (more
 * peak, never a later finish). The spec's EP where the framework runs
 * it on the type, else 1, with the framework's reason in the row.
 * TP stays within a node. 0 when no count up to MAX_NODES keeps them. */
static int usable_nodes(const struct plan *p, struct plan_row *r, double target)
{
	r->keep_tp = p->tp <= r->ppn ? p->tp : r->ppn;
	r->keep_pp = p->pp, r->keep_cp = p->cp > 0 ? p->cp : 1;
	r->keep_ep = p->ep > 0 ? p->ep : 1;
	r->ep_why = NULL;
	if (r->keep_ep > 1 && !fw_ep_runs_on(p->job->framework, r->it, r->keep_ep, r->ep_why_buf, sizeof r->ep_why_buf)) {
		r->ep_why = r->ep_why_buf;
		r->keep_ep = 1;
	}
	int dp;
	r->round_below = r->round_above = 0;
	for (int n = 1; n <= MAX_NODES; n++) {
		if (!keeps(p, r, n, &dp))
			continue;
		if (n <= target)
			r->round_below = n;
		else if (!r->round_above)
			r->round_above = n;
	}
	int n = !r->round_below ? r->round_above : !r->round_above ? r->round_below
		: target - r->round_below < r->round_above - target ? r->round_below : r->round_above;
	if (n)
		keeps(p, r, n, &r->keep_dp);
	return n;
}

/* The row at the rounded count, else (none keeps the degrees) at the
 * plain rounding, said so in the row. */
static void size_rounded(const struct plan *p, const struct plan_request *rq, struct plan_row *r, double target)
{
	r->ppn = catalog_procs_per_node(r->it, catalog_lnc_valid(r->it, p->lnc) ? p->lnc : 0);
	int n = r->ppn > 0 ? usable_nodes(p, r, target) : 0;
	r->rounded = n > 0;
	if (!n) {
		double t = target + 0.5; /* rounded to the nearest by the cast */
		n = t < 1 ? 1 : t > MAX_NODES ? MAX_NODES : (int)t;
	}
	size_at(p, rq, r, n);
}

/* The fewest nodes, from the count whose peak meets the deadline, at
 * which a layout is valid and fits (or has an unknown fit). */
static void size_deadline(const struct plan *p, const struct plan_request *rq, struct plan_row *r,
			  double flops)
{
	double per_node = node_peak(r->it) * plan_utilization(p);
	double need = flops / (rq->deadline_days * 86400 * per_node);
	r->target_nodes = need;
	/* rounded up, without libm: need is at most MAX_NODES here */
	int from = !(need <= MAX_NODES) ? MAX_NODES + 1 : need < 1 ? 1 : (int)need;
	if (from <= MAX_NODES && from < need - 1e-9)
		from++;
	r->ppn = catalog_procs_per_node(r->it, catalog_lnc_valid(r->it, p->lnc) ? p->lnc : 0);
	for (int n = from; n < from + PLAN_DEADLINE_SPAN && n <= MAX_NODES && !r->budget_spent; n++) {
		if (search(p, rq, r->it, n, r) && r->est.fits != 0) {
			r->nodes = n;
			r->status = ROW_OK;
			return;
		}
	}
	r->status = ROW_NOT_IN_TIME;
	r->nodes = from;
	r->why = r->budget_spent ? "the search's budget of layouts was spent before one fit"
		 : from > MAX_NODES ? "more than 4096 nodes would be needed"
		 : "no layout that fits within the search";
}

static void size_row(const struct plan *p, const struct plan_request *rq, struct plan_row *r,
		     double flops)
{
	if (r->own && rq->deadline_days <= 0) {
		/* the spec's own plan, as the spec has it */
		r->nodes = p->nodes, r->ppn = p->ppn;
		r->tp = p->tp, r->pp = p->pp, r->vpp = p->vpp, r->cp = p->cp, r->ep = p->ep;
		r->dp = p->dp, r->micro = p->micro, r->global = p->global;
		r->micro_batches = p->micro_batches;
		plan_estimate(p, p->it, rq->hours, &r->est);
		r->status = ROW_OK;
		return;
	}
	if (r->it->accel == ACCEL_NONE || r->it->accel_count <= 0) {
		r->status = ROW_NO_ACCEL;
		return;
	}
	if (rq->deadline_days > 0) {
		if (!(flops > 0)) {
			r->status = ROW_NO_RUN;
		} else if (node_peak(r->it) < 0) {
			r->status = ROW_NO_PEAK;
		} else {
			size_deadline(p, rq, r, flops);
		}
		return;
	}
	int ppn = catalog_procs_per_node(r->it, catalog_lnc_valid(r->it, p->lnc) ? p->lnc : 0);
	switch (rq->same) {
	case SAME_NODES:
		r->target_nodes = p->nodes;
		size_rounded(p, rq, r, p->nodes);
		return;
	case SAME_RANKS:
		size_at(p, rq, r, ppn > 0 ? (p->world + ppn - 1) / ppn : 1);
		return;
	case SAME_PEAK:
		if (node_peak(r->it) < 0 || node_peak(p->it) < 0) {
			r->status = ROW_NO_PEAK;
			if (node_peak(r->it) >= 0)
				r->why = "the spec's type has no sourced peak: cannot size by peak (--same nodes or ranks can)";
			return;
		}
		r->target_nodes = p->nodes * node_peak(p->it) / node_peak(r->it);
		size_rounded(p, rq, r, r->target_nodes);
		return;
	}
}

/* ---- ranking ------------------------------------------------------------
 * Rows that fit are ranked by the cheapest catalog price in the spec's
 * region (on demand or Capacity Block): per run when the run length is
 * known, else per PFLOP-hour. Prices from the user's discounts are
 * shown but not ranked: they are assumptions. A row that does not fit,
 * or whose fit or layout is unknown, is never ranked; nor is one whose
 * run is longer than the spec's time limit: a buyer cannot use it. */
static void rank(struct plan_compare *c)
{
	static const enum plan_price ranked[] = { PRICE_ON_DEMAND, PRICE_CAPACITY_BLOCK };
	/* per run, unless a row that could be ranked per PFLOP-hour has no
	 * run length (a type without a sourced peak has neither, so it
	 * changes nothing) */
	c->rank_per_run = true;
	for (size_t i = 0; i < c->n; i++) {
		const struct plan_row *r = &c->rows[i];
		bool per_pflop = r->est.usd_per_pflop_hour[PRICE_ON_DEMAND] >= 0 ||
				 r->est.usd_per_pflop_hour[PRICE_CAPACITY_BLOCK] >= 0;
		if (r->status == ROW_OK && r->est.fits == 1 && per_pflop && r->est.run_hours < 0)
			c->rank_per_run = false;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct plan_row *r = &c->rows[i];
		r->rank_cost = -1;
		r->past_limit = c->limit_s > 0 && !r->est.hours_from_flag && r->est.run_seconds > c->limit_s;
		if (r->status != ROW_OK || r->est.fits != 1 || r->past_limit)
			continue;
		for (size_t k = 0; k < sizeof ranked / sizeof ranked[0]; k++) {
			enum plan_price pk = ranked[k];
			double v = c->rank_per_run ? r->est.run_cost[pk] : r->est.usd_per_pflop_hour[pk];
			if (v >= 0 && (r->rank_cost < 0 || v < r->rank_cost)) {
				r->rank_cost = v;
				r->rank_price = pk;
			}
		}
	}
	for (size_t i = 0; i < c->n; i++) {
		struct plan_row *r = &c->rows[i];
		if (r->rank_cost < 0)
			continue;
		r->rank = 1;
		for (size_t j = 0; j < c->n; j++)
			if (c->rows[j].rank_cost >= 0 &&
			    (c->rows[j].rank_cost < r->rank_cost || (c->rows[j].rank_cost == r->rank_cost && j < i)))
				r->rank++;
	}
}

bool plan_compare_run(const struct plan *p, const struct plan_request *rq, struct plan_compare *c)
{
	size_t n = rq->ntypes ? rq->ntypes : 1;
	memset(c, 0, sizeof *c);
	c->same = rq->same;
	c->deadline_days = rq->deadline_days;
	c->global = p->global, c->micro = p->micro, c->ep = p->ep;
	c->limit_s = -1;
	if (p->job->time_limit && (!slurm_time_seconds(p->job->time_limit, strlen(p->job->time_limit), &c->limit_s) ||
				   c->limit_s <= 0))
		c->limit_s = -1;
	c->rows = calloc(n, sizeof *c->rows);
	if (!c->rows)
		return false;
	c->n = n;
	struct plan_est own;
	plan_estimate(p, p->it, rq->hours, &own);
	for (size_t i = 0; i < n; i++) {
		struct plan_row *r = &c->rows[i];
		r->it = rq->ntypes ? rq->types[i] : p->it;
		r->own = r->it == p->it;
		size_row(p, rq, r, own.total_flops);
		r->est.own = r->own;
	}
	rank(c);
	return true;
}

void plan_compare_free(struct plan_compare *c)
{
	free(c->rows);
	c->rows = NULL;
	c->n = 0;
}

void plan_row_layout(const struct plan_row *r, char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "TP %d x PP %d", r->tp, r->pp);
	if (r->vpp > 1 && n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, " (v %d)", r->vpp);
	if (r->cp > 1 && n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, " x CP %d", r->cp);
	if (r->ep > 1 && n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, " x EP %d", r->ep);
	if (r->dp > 0 && n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - n, " -> DP %d", r->dp);
}
