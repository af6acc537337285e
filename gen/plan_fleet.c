/* A mixed fleet: reserved nodes in one queue, spot nodes in another, one
 * job that trains on the reserved nodes alone (every spot node lost, or
 * none there yet) and on them with spot units that join when their
 * capacity exists. The planner's invariants must hold at both ends. The
 * spot nodes go in units at which every count trains (choose_unit): the
 * generated job takes a unit in or leaves it out as a whole
 * (docs/jobspec.md, "Mixed fleet"). */
#include "plan.h"

#include <string.h>

#include "buf.h"

#define GAP_SHOWN (sizeof ((struct plan_fleet *)0)->gap / sizeof (int))

/* Why a world of n nodes cannot train (LAYOUT_OK: it can), and its DP. */
static enum layout_fault size_problem(const struct plan *p, int n, int *dp)
{
	struct plan_world w;
	plan_world_at(p, n, &w);
	*dp = w.dp;
	return plan_world_stop(&w);
}

/* The spec's node count is the fleet's: nodes, when given, must agree,
 * and DP cannot be pinned, since it changes with the fleet. */
bool plan_fleet_nodes(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	const struct spec_capacity *c = j->capacity;
	struct plan_fleet *f = &p->fleet;
	if (!spec_mixed_fleet(j))
		return true;
	f->mixed = true;
	f->reserved = c->reserved;
	f->spot = c->spot;
	f->max_restarts = c->max_restarts;
	bool ok = true;
	const yamldoc *d = spec->doc;
	if (yd_get(d, yd_root(d), "nodes") && j->nodes != c->reserved + c->spot) {
		spec_conflicting_keys(spec, diags, spec_node(spec, "nodes"),
			"nodes %d differs from capacity.reserved %d + capacity.spot %d", j->nodes,
			c->reserved, c->spot);
		ok = false;
	}
	if (j->parallel->data) {
		struct diag *g = spec_conflicting_keys(spec, diags, spec_node(spec, "parallel.data"),
			"a mixed fleet's data-parallel size changes with its node count; parallel.data cannot pin it");
		diag_set_help(g, "leave parallel.data out: the plan shows DP at the smallest and the largest fleet");
		ok = false;
	}
	/* ParallelCluster queue names have at most 25 characters. */
	if (strlen(j->cluster->queue) + strlen("-reserved") > 25) {
		spec_invalid_value(spec, diags, spec_node(spec, "cluster.queue"),
			"queue %s is too long for a mixed fleet: %s-reserved would pass ParallelCluster's 25 characters",
			j->cluster->queue, j->cluster->queue);
		ok = false;
	}
	if (fw_def(j->framework)->batch_per_rank) {
		struct diag *g = spec_conflicting_keys(spec, diags, spec_node(spec, "framework"),
			"%s takes a batch per data-parallel rank (%s), so its global batch would shrink with the fleet",
			fw_name(j->framework), fw_flag(j->framework, FK_RANK_BATCH)->flag);
		diag_set_help(g, "use megatron, torchtitan or plain, whose global batch stays and whose gradient accumulation adjusts");
		ok = false;
	}
	return ok;
}

/* Counts strictly between the ends that cannot train, and a global batch
 * that would divide at every count, when a modest one exists. */
static void find_gaps(struct plan *p)
{
	struct plan_fleet *f = &p->fleet;
	long long lcm = 1;
	bool layout_everywhere = true;
	for (int n = f->reserved; n <= f->reserved + f->spot; n++) {
		int dp;
		enum layout_fault why = size_problem(p, n, &dp);
		if (dp) {
			long long need = (long long)p->micro * dp, g = lcm, r = need;
			while (r) {
				long long t = g % r;
				g = r, r = t;
			}
			if (lcm <= (long long)p->global * 16)
				lcm = lcm / g * need;
		}
		if (why == LAYOUT_OK || n == f->reserved || n == f->reserved + f->spot)
			continue;
		if (why != LAYOUT_BATCH)
			layout_everywhere = false, f->gap_layout++;
		else
			f->gap_batch++;
		if (f->gap_count < (int)GAP_SHOWN)
			f->gap[f->gap_count++] = n;
		f->gap_total++;
	}
	f->batch_everywhere = layout_everywhere && f->gap_batch && lcm <= (long long)p->global * 16
		? lcm * ((p->global + lcm - 1) / lcm) : 0;
}

/* Whether reserved + k x unit trains for every k (layout_only: the
 * batch aside), and the least common multiple of micro x DP over those
 * counts (capped: 0 past a batch no one would take). */
static bool unit_trains(const struct plan *p, int unit, bool layout_only, long long *lcm)
{
	const struct plan_fleet *f = &p->fleet;
	*lcm = p->micro;
	for (int n = f->reserved; n <= f->reserved + f->spot; n += unit) {
		int dp;
		enum layout_fault why = size_problem(p, n, &dp);
		if (why != LAYOUT_OK && (!layout_only || why != LAYOUT_BATCH))
			return false;
		if (!dp || !*lcm)
			continue;
		long long need = (long long)p->micro * dp, g = *lcm, r = need;
		while (r) {
			long long t = g % r;
			g = r, r = t;
		}
		*lcm = *lcm / g * need;
		if (*lcm > (long long)p->global * 16)
			*lcm = 0;
	}
	return true;
}

/* The spot nodes' unit: the smallest divisor of the spot count at
 * which every count reserved + k x unit trains, so that losing a unit
 * (or all of them) always leaves a world that trains. The whole spot
 * queue always qualifies, as both ends train. layout_unit is the same
 * with the batch aside: the expert grid or TP x PP x CP spanning nodes
 * needs it whatever the batch. When the batch makes the unit larger, a
 * modest batch that would allow layout_unit is kept for JS2014. */
static void choose_unit(struct plan *p)
{
	struct plan_fleet *f = &p->fleet;
	long long lcm;
	f->unit = f->layout_unit = f->spot;
	for (int u = 1; u < f->spot; u++)
		if (f->spot % u == 0 && unit_trains(p, u, true, &lcm)) {
			f->layout_unit = u;
			if (lcm && u < f->spot && !unit_trains(p, u, false, &lcm)) {
				unit_trains(p, u, true, &lcm);
				f->batch_for_units = lcm * ((p->global + lcm - 1) / lcm);
			}
			break;
		}
	for (int u = f->layout_unit; u < f->spot; u++)
		if (f->spot % u == 0 && unit_trains(p, u, false, &lcm)) {
			f->unit = u;
			break;
		}
	f->units = f->spot / f->unit;
	if (f->unit == f->layout_unit)
		f->batch_for_units = 0;
}

/* JS2014 elastic-gap-sizes */
static void elastic_gap_sizes(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct plan_fleet *f = &p->fleet;
	struct buf list = BUF_INIT;
	for (int i = 0; i < f->gap_count; i++)
		buf_printf(&list, "%s%d", i ? ", " : "", f->gap[i]);
	if (f->gap_total > f->gap_count)
		buf_printf(&list, " and %d more", f->gap_total - f->gap_count);
	char how_many[48];
	if (f->gap_total == f->spot - 1)
		snprintf(how_many, sizeof how_many, "every node count");
	else
		snprintf(how_many, sizeof how_many, "%d of the %d node counts", f->gap_total, f->spot - 1);
	char unit[96];
	if (f->units == 1)
		snprintf(unit, sizeof unit, "one unit of all %d", f->spot);
	else
		snprintf(unit, sizeof unit, "%d groups of %d", f->units, f->unit);
	struct diag *d = spec_report(spec, diags, R_JS2014, "capacity.spot",
		"%s between %d and %d cannot train (%s%s%s), so the %d spot nodes join and leave as %s: a reclaim notice for one of them stops %d, and training goes on at %d nodes",
		how_many, f->reserved, f->reserved + f->spot, list.p,
		f->gap_layout ? "; the layout does not divide" : "",
		f->gap_batch ? "; the global batch does not divide" : "",
		f->spot, unit, f->unit, f->reserved + f->spot - f->unit);
	if (f->batch_everywhere)
		diag_set_help(d, "global batch %lld divides at every count from %d to %d nodes: the spot nodes would then go one by one",
			      f->batch_everywhere, f->reserved, f->reserved + f->spot);
	else if (f->batch_for_units)
		diag_set_help(d, "global batch %lld divides at every %d nodes from %d to %d: the spot nodes would then go in groups of %d, as the layout allows",
			      f->batch_for_units, f->layout_unit, f->reserved, f->reserved + f->spot,
			      f->layout_unit);
	else
		diag_set_help(d, "the layout alone allows groups of %d, but no global batch up to 16 x %d divides at all of those counts; a batch that does lets the spot nodes go in smaller groups",
			      f->layout_unit, p->global);
	buf_free(&list);
}

/* JS2015 fleets-cross-placement-groups */
static void fleets_cross_placement_groups(const struct spec *spec, struct diag_list *diags)
{
	if (spec->job->capacity->placement_group)
		return;
	struct diag *d = spec_report(spec, diags, R_JS2015, "capacity.spot",
		"the reserved and the spot queue get a managed placement group each, so traffic between the two fleets crosses groups");
	diag_set_help(d, "create one cluster placement group and name it in capacity.placement_group: both queues then share it");
}

bool plan_fleet_check(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct plan_fleet *f = &p->fleet;
	if (!f->mixed)
		return true;
	bool ok = true;
	struct plan_world smallest;
	plan_world_at(p, f->reserved, &smallest);
	f->min_world = f->reserved * p->ppn;
	f->min_dp = smallest.dp;
	if (!plan_check_smallest(p, spec, diags, &smallest)) {
		ok = false;
	} else {
		f->min_micro_batches = (int)layout_micro_batches(&smallest.layout);
		find_gaps(p);
		choose_unit(p);
		if (f->unit > f->layout_unit)
			elastic_gap_sizes(p, spec, diags);
	}
	fleets_cross_placement_groups(spec, diags);
	return ok;
}

/* Per-node prices of the two fleets; < 0 unknown. Reserved Instances and
 * Savings Plans bill on-demand use (and an On-Demand Capacity
 * Reservation's) at their own rate, so the reserved nodes cost the
 * reserved price when one is known, else the on-demand one; a Capacity
 * Block has its own rate, which the catalog keeps per region. */
static double reserved_price(const struct plan *p, const char **how)
{
	const struct plan_rate *res = &p->rate[PRICE_RESERVED], *od = &p->rate[PRICE_ON_DEMAND];
	switch (p->job->capacity->type) {
	case CAP_ONDEMAND:
	case CAP_RESERVATION:
		if (res->usd >= 0) {
			*how = res->from == RATE_USER ? "reserved, your own price"
			     : res->from == RATE_DISCOUNT ? "reserved: on demand less the spec's capacity.reserved_discount"
			     : res->from == RATE_IMPORTED ? "reserved, imported price" : "reserved, built-in price";
			return res->usd;
		}
		if (od->usd >= 0) {
			*how = p->job->capacity->type == CAP_RESERVATION
				? "capacity reservation at the on-demand rate: no reserved price known"
				: "on demand: no reserved price known";
			return od->usd;
		}
		*how = p->rate[PRICE_CAPACITY_BLOCK].usd >= 0
			? "no reserved or on-demand price known; capacity.type: capacity-block prices them at the region's Capacity Block rate"
			: "no reserved or on-demand price known: import one (trainforge prices import) or give capacity.prices";
		return -1;
	default:
		if (p->rate[PRICE_CAPACITY_BLOCK].usd >= 0) {
			*how = "Capacity Block rate in the spec's region";
			return p->rate[PRICE_CAPACITY_BLOCK].usd;
		}
		*how = "Capacity Block: no rate for this type in the spec's region";
		return -1;
	}
}

static double spot_price(const struct plan *p, const char **how)
{
	const struct plan_rate *r = &p->rate[PRICE_SPOT];
	switch (r->from) {
	case RATE_USER: *how = "your own price"; break;
	case RATE_IMPORTED: *how = "imported spot price history"; break;
	case RATE_CATALOG: *how = "built-in price"; break;
	case RATE_DISCOUNT: *how = "on demand less the spec's capacity.spot_discount"; break;
	case RATE_NONE:
		*how = p->job->capacity->spot_discount > 0
			? "capacity.spot_discount applies to an on-demand price, which is not known"
			: "no spot price known: import spot price history, or set capacity.prices.spot or capacity.spot_discount";
		break;
	}
	return r->usd;
}

void plan_fleet_costs(const struct plan *p, struct plan_fleet_cost *c)
{
	const struct plan_fleet *f = &p->fleet;
	double r = reserved_price(p, &c->reserved_how), s = spot_price(p, &c->spot_how);
	c->reserved_hour = r >= 0 ? r * f->reserved : -1;
	c->spot_hour = s >= 0 ? s * f->spot : -1;
	c->total_hour = r >= 0 && s >= 0 ? c->reserved_hour + c->spot_hour : -1;
	c->blended_node_hour = c->total_hour >= 0 ? c->total_hour / (f->reserved + f->spot) : -1;
	/* Losing one spot node stops its unit: training goes on at the full
	 * fleet less one unit; the step takes as much longer as each rank's
	 * share of the global batch grows. */
	c->after_loss_nodes = f->reserved + f->spot - (f->unit ? f->unit : f->spot);
	int dp_after;
	size_problem(p, c->after_loss_nodes, &dp_after);
	c->step_factor_one = dp_after ? (double)p->dp / dp_after : -1;
	c->step_factor_all = f->min_dp ? (double)p->dp / f->min_dp : -1;
}

static void money(struct buf *b, double usd, const char *per)
{
	if (usd < 0)
		buf_puts(b, "unknown");
	else
		buf_printf(b, usd >= 1000 ? "$%.0f%s" : "$%.2f%s", usd, per);
}

void plan_fleet_text(const struct plan *p, struct buf *b)
{
	const struct plan_fleet *f = &p->fleet;
	const struct job_spec *j = p->job;
	if (!f->mixed)
		return;
	struct plan_fleet_cost c;
	plan_fleet_costs(p, &c);
	buf_printf(b, "  fleet            %d reserved (%s, queue %s-reserved) + %d spot (%s, queue %s-spot): trains from %d to %d nodes in rounds, starting on the reserved alone; %d failures allowed\n",
		   f->reserved, capacity_name(j->capacity->type), j->cluster->queue, f->spot,
		   spot_strategy_name(j->capacity->spot_strategy), j->cluster->queue, f->reserved,
		   f->reserved + f->spot, f->max_restarts);
	if (f->units == 1)
		buf_printf(b, "  spot units       one unit of all %d spot nodes (no smaller group trains at every count): a job of its own on the spot queue, which the reserved job starts a step in\n",
			   f->spot);
	else
		buf_printf(b, "  spot units       %d groups of %d nodes (%d + %d k nodes train for every k): a job of its own each on the spot queue, which the reserved job starts a step in\n",
			   f->units, f->unit, f->reserved, f->unit);
	buf_printf(b, "  smallest fleet   %d nodes x %d = world %d -> DP %d; micro %d x DP %d x %d micro-batches = global %d\n",
		   f->reserved, p->ppn, f->min_world, f->min_dp, p->micro, f->min_dp,
		   f->min_micro_batches, p->global);
	if (f->gap_total)
		buf_printf(b, "  between          %d of %d node counts cannot train (%d layout, %d batch)\n",
			   f->gap_total, f->spot - 1, f->gap_layout, f->gap_batch);
	buf_puts(b, "  fleet cost       reserved ");
	money(b, c.reserved_hour, "/h");
	buf_printf(b, " (%s); spot ", c.reserved_how);
	money(b, c.spot_hour, "/h");
	buf_printf(b, " (%s); together ", c.spot_how);
	money(b, c.total_hour, "/h");
	buf_puts(b, ", blended ");
	money(b, c.blended_node_hour, " per node-hour");
	buf_putc(b, '\n');
	const char *how = p->survival.notice_saves ? "the watcher drains the node and every rank saves on the signal"
						     : "the watcher drains the node and stops the unit's step";
	if (f->units == 1)
		buf_printf(b, "  spot loss        a reclaim notice for one spot node stops all %d (%s): training goes on at %d nodes from the latest checkpoint, step x %.3g, and the unit waits for capacity to join again\n",
			   f->spot, how, c.after_loss_nodes, c.step_factor_one);
	else
		buf_printf(b, "  spot loss        a reclaim notice for one spot node stops its group of %d (%s): training goes on at %d nodes from the latest checkpoint, step x %.3g; every group lost: %d nodes, step x %.3g\n",
			   f->unit, how, c.after_loss_nodes, c.step_factor_one, f->reserved, c.step_factor_all);
}

static void jnum(struct buf *b, const char *key, double v)
{
	if (v >= 0)
		buf_printf(b, "\"%s\":%.10g", key, v);
	else
		buf_printf(b, "\"%s\":null", key);
}

void plan_fleet_json(const struct plan *p, struct buf *b)
{
	const struct plan_fleet *f = &p->fleet;
	if (!f->mixed) {
		buf_puts(b, ",\"fleet\":null");
		return;
	}
	struct plan_fleet_cost c;
	plan_fleet_costs(p, &c);
	buf_printf(b, ",\"fleet\":{\"reserved\":%d,\"spot\":%d,\"reservedCapacity\":\"%s\",\"spotStrategy\":\"%s\",\"maxRestarts\":%d",
		   f->reserved, f->spot, capacity_name(p->job->capacity->type),
		   spot_strategy_name(p->job->capacity->spot_strategy), f->max_restarts);
	buf_printf(b, ",\"smallest\":{\"nodes\":%d,\"world\":%d,\"data\":%d,\"microBatchesPerStep\":%d}",
		   f->reserved, f->min_world, f->min_dp, f->min_micro_batches);
	buf_printf(b, ",\"countsThatCannotTrain\":%d,", f->gap_total);
	jnum(b, "reservedUsdPerHour", c.reserved_hour);
	buf_putc(b, ',');
	jnum(b, "spotUsdPerHour", c.spot_hour);
	buf_putc(b, ',');
	jnum(b, "usdPerHour", c.total_hour);
	buf_putc(b, ',');
	jnum(b, "blendedUsdPerNodeHour", c.blended_node_hour);
	buf_printf(b, ",\"spotUnitNodes\":%d,\"spotUnits\":%d", f->unit, f->units);
	buf_printf(b, ",\"afterOneLossNodes\":%d,", c.after_loss_nodes);
	jnum(b, "stepFactorOneLoss", c.step_factor_one);
	buf_putc(b, ',');
	jnum(b, "stepFactorAllLost", c.step_factor_all);
	buf_putc(b, '}');
}

/* What one lost spot node costs in time, when the estimate knows the
 * step: the step grows with each rank's share of the global batch. */
void plan_fleet_loss_text(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	if (!p->fleet.mixed || e->step_seconds < 0)
		return;
	struct plan_fleet_cost c;
	plan_fleet_costs(p, &c);
	buf_printf(b, "  spot loss        step %.3g s -> %.3g s at %d nodes (one spot unit of %d lost), %.3g s at %d (all)",
		   e->step_seconds, e->step_seconds * c.step_factor_one, c.after_loss_nodes,
		   p->fleet.unit, e->step_seconds * c.step_factor_all, p->fleet.reserved);
	if (e->run_seconds > 0)
		buf_printf(b, "; lost at the start, one unit adds %.1f h to the %.1f h run",
			   e->run_seconds * (c.step_factor_one - 1) / 3600, e->run_seconds / 3600);
	buf_putc(b, '\n');
}
