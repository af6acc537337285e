/* Cost while idle: static nodes (MinCount above zero) run, and are
 * billed, from the update that starts them until MinCount drops, with
 * or without jobs. */
#include <stdio.h>

#include "cluster_cost.h"
#include "pc.h"

/* Static nodes whose price is not already paid: a capacity block or a
 * capacity reservation is billed whatever its nodes do. */
static bool billed_idle(const struct pc *pc, yd_node queue, yd_node cr, long long *min)
{
	*min = cluster_cr_count(pc->cl, cr, "MinCount");
	return *min > 0 && !cluster_cr_reserved(pc->cl, queue, cr);
}

/* USD per hour of every static node of the config whose price is known. */
static double idle_total(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	double total = 0;
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i), crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			struct cluster_rate r;
			long long min;
			yd_node cr = yd_item(d, crs, j);
			if (!billed_idle(pc, q, cr, &min))
				continue;
			cluster_cr_rate(pc->cl, q, cr, &r);
			if (r.usd >= 0)
				total += r.usd * (double)min;
		}
	}
	return total;
}

/* PC6001 static-nodes-billed-idle */
static void static_nodes_billed_idle(const struct pc *pc, yd_node queue, yd_node cr, double total)
{
	struct cluster_rate r;
	long long min;
	if (!billed_idle(pc, queue, cr, &min))
		return;
	cluster_cr_rate(pc->cl, queue, cr, &r);
	if (r.placeholder)
		return; /* a value check: the template's value is unknown */
	struct buf m = BUF_INIT;
	buf_printf(&m, "MinCount %lld x %s: ", min, r.type ? r.type : "an unknown instance type");
	if (r.usd < 0) {
		buf_puts(&m, "static nodes are billed while idle; the price is unknown (");
		cluster_rate_unknown(&r, &m);
		buf_putc(&m, ')');
	} else {
		buf_puts(&m, r.at_most ? "up to " : "");
		cluster_money(&m, r.usd * (double)min);
		buf_puts(&m, "/h while idle (");
		cluster_money(&m, r.usd * (double)min * CLUSTER_HOURS_PER_MONTH);
		buf_puts(&m, " a month), ");
		cluster_rate_source(pc->cl, &r, &m);
	}
	double limit = pc->idle_cost_warning;
	bool over = limit >= 0 && total > limit;
	if (over) {
		buf_puts(&m, "; the config's static nodes cost ");
		cluster_money(&m, total);
		buf_puts(&m, "/h in all, above idle-cost-warning ");
		cluster_money(&m, limit);
		buf_puts(&m, "/h");
	}
	yd_node at = yd_get(pc->cl->doc, cr, "MinCount");
	struct diag *g = pc_report(pc, R_PC6001, at, "%s", m.p);
	buf_free(&m);
	if (over)
		g->sev = SEV_WARNING;
	diag_set_help(g, "static nodes run until MinCount drops; with MinCount: 0 the nodes are "
		      "started for jobs and stopped after ScaledownIdletime");
}

void pc_check_cost(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	double total = idle_total(pc);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i), crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++)
			static_nodes_billed_idle(pc, q, yd_item(d, crs, j), total);
	}
}
