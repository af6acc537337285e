/* The comparison as a table (text) and as rows (JSON): one row per
 * instance type, sized by the comparison's rule, with its layout, fit,
 * time, cost per run under each price, cost per PFLOP-hour and the
 * region the prices are for. Rows that cannot be sized say why. */
#include "plan.h"

#include <string.h>

#include "plan_out.h"

static const char *status_text(const struct plan_row *r)
{
	switch (r->status) {
	case ROW_NO_PEAK:     return r->why ? r->why : "no sourced peak: cannot size";
	case ROW_NO_ACCEL:    return "no accelerators: cannot run the layout";
	case ROW_NO_RUN:      return "no run length: give model.tokens";
	case ROW_NOT_IN_TIME: return r->why;
	default:              return NULL;
	}
}

static const char *status_name(enum row_status s)
{
	static const char *const names[] = {
		[ROW_OK] = "ok", [ROW_NO_PEAK] = "no-peak", [ROW_NO_ACCEL] = "no-accelerators",
		[ROW_NO_LAYOUT] = "no-layout", [ROW_NO_RUN] = "no-run-length",
		[ROW_NOT_IN_TIME] = "not-in-time",
	};
	return names[s];
}

static void header(const struct plan *p, const struct plan_compare *c, struct buf *b)
{
	struct plan_est own;
	plan_estimate(p, p->it, 0, &own);
	buf_puts(b, "comparison: ");
	if (c->deadline_days > 0)
		buf_printf(b, "the fewest nodes that finish within %.4g days at utilization %.3g, within the layout rules (searched from the count whose peak meets the deadline, at most %d counts)",
			   c->deadline_days, plan_utilization(p), PLAN_DEADLINE_SPAN);
	else if (c->same == SAME_PEAK && own.node_peak > 0)
		buf_printf(b, "the same peak dense BF16 as %d x %s (%.4g PFLOP/s), rounded to the nearest node count that keeps the spec's degrees and global batch",
			   p->nodes, p->it->name, own.node_peak * p->nodes / 1e15);
	else if (c->same == SAME_PEAK)
		buf_printf(b, "the same peak dense BF16 as %d x %s, whose peak the catalog lacks", p->nodes, p->it->name);
	else if (c->same == SAME_NODES)
		buf_printf(b, "the same %d nodes, or the nearest count that keeps the spec's degrees and global batch", p->nodes);
	else
		buf_printf(b, "the same %d ranks, rounded up to whole nodes", p->world);
	buf_printf(b, "\n  cost per run for %s (- unknown); ranked by the cheapest catalog price there (on-demand or capacity-block) %s; reserved and spot rest on the user's discounts and are shown, not ranked\n",
		   p->job->cluster->region, c->rank_per_run ? "per run" : "per PFLOP-hour");
}

static void cell_money(char *cell, size_t cap, double usd)
{
	if (usd < 0)
		snprintf(cell, cap, "-");
	else
		snprintf(cell, cap, "$%.0f", usd);
}

static void table_row(const struct plan_row *r, struct buf *b)
{
	const struct plan_est *e = &r->est;
	char rank[8], layout[96], days[16], cost[PRICE__COUNT][24], per[24];
	const char *st = status_text(r);
	if (r->rank)
		snprintf(rank, sizeof rank, "%d", r->rank);
	else
		snprintf(rank, sizeof rank, "-");
	if (st) {
		buf_printf(b, "  %-5s %-18s %s\n", rank, r->it->name, st);
		return;
	}
	if (r->status == ROW_NO_LAYOUT)
		snprintf(layout, sizeof layout, "none valid");
	else
		plan_row_layout(r, layout, sizeof layout);
	if (r->global_changed && strlen(layout) + 2 < sizeof layout)
		strcat(layout, " *");
	if (e->run_hours > 0)
		snprintf(days, sizeof days, "%.1f", e->run_hours / 24);
	else
		snprintf(days, sizeof days, "-");
	for (int k = 0; k < PRICE__COUNT; k++)
		cell_money(cost[k], sizeof cost[k], e->run_cost[k]);
	/* the price the row is ranked by, else the first catalog price it
	 * has; a type without a sourced peak has no PFLOP-hour at any price */
	enum plan_price k = r->rank_cost >= 0 ? r->rank_price
		: e->usd_per_pflop_hour[PRICE_ON_DEMAND] >= 0 ? PRICE_ON_DEMAND : PRICE_CAPACITY_BLOCK;
	if (e->usd_per_pflop_hour[k] >= 0)
		snprintf(per, sizeof per, "%.2f %s", e->usd_per_pflop_hour[k], k == PRICE_ON_DEMAND ? "od" : "cb");
	else
		snprintf(per, sizeof per, "-");
	bool priced = false;
	for (int k = 0; k < PRICE__COUNT; k++)
		priced |= e->rate[k].from != RATE_NONE;
	const char *fits = r->status == ROW_NO_LAYOUT ? "?" : e->fits == 1 ? "yes" : e->fits == 0 ? "NO" : "?";
	/* processes per node unknown (a type no source gives a default for):
	 * so are its ranks */
	char ranks[16] = "?";
	int n_ranks = e->ranks ? e->ranks : r->nodes * r->ppn;
	if (n_ranks > 0)
		snprintf(ranks, sizeof ranks, "%d", n_ranks);
	buf_printf(b, "  %-5s %-18s %5d %6s  %-34s %-4s %6s %12s %14s %12s %12s %11s  %s\n", rank,
		   r->it->name, r->nodes, ranks, layout, fits, days,
		   cost[PRICE_ON_DEMAND], cost[PRICE_CAPACITY_BLOCK], cost[PRICE_RESERVED], cost[PRICE_SPOT],
		   per, priced ? e->rate[0].region : "none");
}

/* How --same nodes and --same peak took the row's count (gen/plan_compare.c). */
static void round_note(const struct plan_compare *c, const struct plan_row *r, struct buf *b)
{
	if (c->same == SAME_PEAK)
		buf_printf(b, "  %s: %.4g nodes have the same peak, %d taken", r->it->name, r->target_nodes, r->nodes);
	else
		buf_printf(b, "  %s: the spec's %.0f nodes, %d taken", r->it->name, r->target_nodes, r->nodes);
	if (!r->rounded && !r->keep_tp) {
		buf_puts(b, " (the nearest whole count)\n");
		return;
	}
	if (!r->rounded) {
		buf_printf(b, " (the nearest whole count: none up to 4096 keeps TP %d x PP %d x CP %d x EP %d and the global batch)\n",
			   r->keep_tp, r->keep_pp, r->keep_cp, r->keep_ep);
		return;
	}
	buf_printf(b, ": the nearest count (");
	if (r->round_below)
		buf_printf(b, "%d below", r->round_below);
	if (r->round_below && r->round_above)
		buf_puts(b, ", ");
	if (r->round_above)
		buf_printf(b, "%d above", r->round_above);
	buf_printf(b, "; a tie goes up) at which TP %d x PP %d x CP %d x EP %d = %d divides the world and the global batch %d divides by micro %d x DP %d\n",
		   r->keep_tp, r->keep_pp, r->keep_cp, r->keep_ep, r->keep_tp * r->keep_pp * r->keep_cp * r->keep_ep,
		   c->global, c->micro, r->keep_dp);
	if (r->ep_why)
		buf_printf(b, "  %s: the spec's EP %d cannot run here (%s): sized at EP 1, the nearest layout the framework runs\n",
			   r->it->name, c->ep, r->ep_why);
}

static void notes(const struct plan_compare *c, struct buf *b)
{
	bool starred = false;
	for (size_t i = 0; i < c->n; i++) {
		const struct plan_row *r = &c->rows[i];
		starred |= r->global_changed;
		if (r->it->provisional)
			buf_printf(b, "  %s is provisional: %s\n", r->it->name, r->it->provisional);
		if (r->status == ROW_OK && r->est.fits == 0)
			buf_printf(b, "  %s does NOT fit in memory at this layout (%.1f of %.1f GiB per rank): never ranked\n",
				   r->it->name, r->est.total / PLAN_GIB, r->est.capacity / PLAN_GIB);
		else if (r->status == ROW_OK && r->est.fits < 0)
			buf_printf(b, "  %s: fit unknown (no memory figure or model shape): not ranked\n", r->it->name);
		if (r->status == ROW_NO_LAYOUT)
			buf_printf(b, "  %s at %d nodes: no valid layout (%s): not ranked\n", r->it->name, r->nodes, r->why);
		if (r->past_limit)
			buf_printf(b, "  %s: MISSES the time limit (%.1f days against %.1f): shown, not ranked\n", r->it->name,
				   r->est.run_seconds / 86400, c->limit_s / 86400);
		if (c->deadline_days <= 0 && !r->own && (c->same == SAME_PEAK ? r->target_nodes > 0 : c->same == SAME_NODES))
			round_note(c, r, b);
		for (int k = 0; k < PRICE__COUNT && r->status != ROW_NO_PEAK && r->status != ROW_NO_ACCEL; k++) {
			const struct plan_rate *rt = &r->est.rate[k];
			if (rt->from == RATE_NONE && rt->other_usd >= 0)
				buf_printf(b, "  %s %s: no price for %s; nearest region with one: %s, $%.6g/node-hour (a separate figure, not in the table)\n",
					   r->it->name, plan_price_name((enum plan_price)k), rt->region,
					   rt->other_region, rt->other_usd);
		}
	}
	if (starred)
		buf_puts(b, "  * the global batch changes to the nearest multiple of micro x DP at this node count\n");
}

void plan_compare_text(const struct plan *p, const struct plan_compare *c, struct buf *b)
{
	header(p, c, b);
	buf_printf(b, "  %-5s %-18s %5s %6s  %-34s %-4s %6s %12s %14s %12s %12s %11s  %s\n", "rank", "type",
		   "nodes", "ranks", "layout", "fits", "days", "on-demand", "capacity-block", "reserved",
		   "spot", "$/PFLOP-h", "prices for");
	for (size_t i = 0; i < c->n; i++)
		table_row(&c->rows[i], b);
	notes(c, b);
}

void plan_compare_json(const struct plan_compare *c, struct buf *b)
{
	out_jobj(b, "comparison");
	out_jstr(b, "mode", c->deadline_days > 0 ? "deadline" : "same");
	out_jstr(b, "same", c->deadline_days > 0 ? NULL : plan_same_name(c->same));
	out_jnum(b, "deadlineDays", c->deadline_days > 0 ? c->deadline_days : -1);
	out_jint(b, "deadlineSpan", PLAN_DEADLINE_SPAN);
	out_jstr(b, "rankedBy", c->rank_per_run ? "usdPerRun" : "usdPerPflopHour");
	buf_putc(b, '}');
	out_jarr(b, "estimates");
	for (size_t i = 0; i < c->n; i++) {
		const struct plan_row *r = &c->rows[i];
		if (i)
			buf_putc(b, ',');
		buf_putc(b, '{');
		if (r->status == ROW_OK || r->status == ROW_NO_LAYOUT) {
			plan_est_json(&r->est, b);
		} else {
			out_jstr(b, "instance", r->it->name);
			out_jbool(b, "own", r->own);
		}
		out_jstr(b, "status", status_name(r->status));
		out_jstr(b, "why", r->status == ROW_NO_LAYOUT ? r->why : status_text(r));
		out_jnum(b, "targetNodes", r->target_nodes > 0 ? r->target_nodes : -1);
		if (c->deadline_days <= 0 && !r->own && (c->same == SAME_NODES || r->target_nodes > 0)) {
			out_jobj(b, "rounding");
			out_jbool(b, "keepsDegrees", r->rounded);
			out_jint(b, "below", r->round_below);
			out_jint(b, "above", r->round_above);
			out_jint(b, "tensor", r->keep_tp);
			out_jint(b, "pipeline", r->keep_pp);
			out_jint(b, "context", r->keep_cp);
			out_jint(b, "expert", r->keep_ep);
			out_jint(b, "data", r->keep_dp);
			out_jstr(b, "expertWhy", r->ep_why);
			buf_putc(b, '}');
		}
		out_jobj(b, "layout");
		if (r->status == ROW_OK) {
			out_jint(b, "tensor", r->tp);
			out_jint(b, "pipeline", r->pp);
			out_jint(b, "virtualStages", r->vpp);
			out_jint(b, "context", r->cp);
			out_jint(b, "expert", r->ep);
			out_jint(b, "data", r->dp);
			out_jint(b, "microBatch", r->micro);
			out_jint(b, "globalBatch", r->global);
			out_jbool(b, "specDegrees", !r->layout_changed);
			out_jbool(b, "globalBatchChanged", r->global_changed);
		}
		buf_putc(b, '}');
		out_jint(b, "layoutsTried", r->tried);
		out_jbool(b, "missesTimeLimit", r->past_limit);
		if (r->rank) {
			out_jint(b, "rank", r->rank);
			out_jstr(b, "rankPrice", plan_price_key(r->rank_price));
		} else {
			out_jstr(b, "rank", NULL);
			out_jstr(b, "rankPrice", NULL);
		}
		buf_putc(b, '}');
	}
	buf_putc(b, ']');
}
