/* Owned cluster against cloud over some years. The owned cluster's work
 * (the PFLOP-hours it delivers at the user's utilization) is the yard
 * stick: every cloud option is priced for delivering the same work with
 * the spec's fleet. Each option's cost a year is linear in the
 * utilization, fixed + per_u x u, so the break-even utilization has a
 * closed form. A cloud option's cost per run is its own: the bill's
 * expected finish at the spec's interruption rate, a commitment's year
 * spread over the runs the fleet's own utilization holds, whatever the
 * owned cluster. docs/plan.md, "Owned against cloud". */
#include "tco.h"

#include <string.h>

#include "plan_out.h"

#define HOURS_A_YEAR 8760.0 /* 365 days; the model has no leap years */

const char *tco_kind_name(enum tco_kind k)
{
	static const char *const names[] = {
		[TCO_OWNED] = "owned", [TCO_ON_DEMAND] = "on-demand",
		[TCO_CAPACITY_BLOCK] = "capacity-block", [TCO_RESERVED] = "reserved",
		[TCO_SPOT] = "spot", [TCO_MIX] = "mix",
	};
	return names[k];
}

static double achieved(const struct instance_type *it, double units, int per_unit, double mfu)
{
	return it && it->accel_peak_bf16_tflops > 0 && per_unit > 0
		? units * per_unit * it->accel_peak_bf16_tflops * 1e12 * mfu : -1;
}

/* Owning: depreciation while it lasts, energy for the busy and the idle
 * hours, operations every year. */
static void owned(struct tco_result *r, const struct tco_spec *t)
{
	const struct tco_owned *o = t->owned;
	struct tco_option *op = &r->opt[TCO_OWNED];
	double kwh = o->servers * o->pue * o->usd_per_kwh * HOURS_A_YEAR;
	double idle = o->idle_given ? o->idle_power_kw_per_server : o->power_kw_per_server;
	r->capex_year = (o->servers * o->purchase_usd_per_server + o->networking_storage_usd) /
			o->depreciation_years;
	op->kind = TCO_OWNED;
	op->known = true;
	op->feasible = true;
	op->hours_needed = -1;
	op->nodes = o->servers;
	op->per_u = kwh * (o->power_kw_per_server - idle);
	for (int y = 0; y < t->years; y++)
		op->fixed[y] = (y < o->depreciation_years ? r->capex_year : 0) + kwh * idle +
			       o->operations_usd_per_year;
	r->energy_busy_year = kwh * o->power_kw_per_server * o->utilization;
	r->energy_idle_year = kwh * idle * (1 - o->utilization);
}

/* A cloud option: `committed` nodes paid every hour at rate c, `used`
 * nodes paid for the hours the work needs at rate u_rate. */
static void cloud(struct tco_result *r, const struct tco_spec *t, struct tco_option *op,
		  int committed, const struct plan_rate *c, int used, const struct plan_rate *u_rate)
{
	int nodes = committed + used;
	double fleet = nodes == r->opt[TCO_ON_DEMAND].nodes ? r->cloud_flops
		: r->cloud_flops / r->opt[TCO_ON_DEMAND].nodes * nodes;
	op->nodes = nodes;
	op->reserved = committed;
	op->spot = u_rate && committed ? used : 0;
	if (c)
		op->rate[0] = *c;
	if (u_rate)
		op->rate[c ? 1 : 0] = *u_rate;
	if ((c && c->usd < 0) || (u_rate && u_rate->usd < 0)) {
		op->bad_rate = c && c->usd < 0 ? 0 : c ? 1 : 0;
		return;
	}
	if (!(fleet > 0) || !(r->owned_flops > 0)) {
		op->why = !(fleet > 0) ? "no sourced peak for the cloud type" : "no sourced peak for the owned servers";
		return;
	}
	/* hours a year the fleet needs for the owned cluster's work, per
	 * unit of utilization */
	double hours_per_u = HOURS_A_YEAR * r->owned_flops / fleet;
	op->known = true;
	op->hours_needed = hours_per_u * t->owned->utilization;
	op->feasible = op->hours_needed <= HOURS_A_YEAR * (1 + 1e-9);
	op->per_u = used && u_rate ? used * u_rate->usd * hours_per_u : 0;
	for (int y = 0; y < t->years; y++)
		op->fixed[y] = committed && c ? committed * c->usd * HOURS_A_YEAR : 0;
}

/* Where owning costs what the option costs over the whole horizon:
 * sum F_own + Y E u = sum F_opt + Y B u. */
static void breakeven(const struct tco_spec *t, const struct tco_option *own, struct tco_option *op)
{
	double df = 0, years = t->years;
	for (int y = 0; y < t->years; y++)
		df += own->fixed[y] - op->fixed[y];
	double slope = years * (own->per_u - op->per_u); /* owning minus option, per unit u */
	op->breakeven = -1;
	if (slope < 1e-9 && slope > -1e-9) {
		op->owning_cheaper = df < 0 ? 2 : -2;
		return;
	}
	op->breakeven = -df / slope;
	op->owning_cheaper = slope < 0 ? 1 : -1;
}

static void totals(struct tco_result *r, const struct tco_spec *t, struct tco_option *op)
{
	double u = t->owned->utilization;
	op->total = 0;
	for (int y = 0; y < t->years; y++) {
		op->year[y] = op->fixed[y] + op->per_u * u;
		op->total += op->year[y];
	}
	if (op->kind != TCO_OWNED) {
		/* the cloud's own figures (per_run), not the owned work's */
		op->usd_per_pflop_hour = op->usd_per_run >= 0 && r->run_pflop_hours > 0
			? op->usd_per_run / r->run_pflop_hours : -1;
		return;
	}
	double work = r->pflop_hours_year * t->years;
	op->usd_per_pflop_hour = work > 0 ? op->total / work : -1;
	op->usd_per_run = op->usd_per_pflop_hour >= 0 && r->run_pflop_hours > 0
		? op->usd_per_pflop_hour * r->run_pflop_hours : -1;
}

/* One run on the cloud fleet, from the bill at the comparison's rates
 * (gen/plan_bill.c): each way of buying for its own expected finish
 * (all spot: every node reclaimed at the spec's interruption rate); a
 * commitment pays every hour, so a run carries its share of the year at
 * the fleet's own utilization: rate x nodes x hours / utilization. */
static void per_run(struct tco_result *r, const struct plan *p, const struct plan_rate rate[PRICE__COUNT])
{
	struct plan q = *p;
	struct plan_bill bill;
	memcpy(q.rate, rate, sizeof q.rate);
	plan_bill_derive(&q, &bill);
	static const struct { enum tco_kind kind; enum plan_price price; } pay[] = {
		{ TCO_ON_DEMAND, PRICE_ON_DEMAND }, { TCO_CAPACITY_BLOCK, PRICE_CAPACITY_BLOCK },
		{ TCO_RESERVED, PRICE_RESERVED }, { TCO_SPOT, PRICE_SPOT },
	};
	double u = r->cloud_utilization;
	for (size_t i = 0; i < sizeof pay / sizeof pay[0]; i++) {
		struct tco_option *op = &r->opt[pay[i].kind];
		double usd = bill.compute_usd[pay[i].price];
		bool committed = pay[i].kind == TCO_RESERVED;
		op->run_hours = bill.alt_s[pay[i].price] > 0 ? bill.alt_s[pay[i].price] / 3600 : -1;
		op->usd_per_run = usd >= 0 ? (committed ? usd / u : usd) : -1;
		op->runs_per_year = op->run_hours > 0 ? HOURS_A_YEAR * (committed ? u : 1) / op->run_hours : -1;
	}
	struct tco_option *mix = &r->opt[TCO_MIX];
	mix->run_hours = mix->usd_per_run = mix->runs_per_year = -1;
	/* the bill knows the spec's own fleet only */
	if (!p->fleet.mixed || r->mix_reserved != p->fleet.reserved || r->mix_spot != p->fleet.spot) {
		return;
	}
	mix->run_hours = bill.run_s > 0 ? bill.run_s / 3600 : -1;
	mix->usd_per_run = bill.reserved_usd >= 0 && bill.spot_usd >= 0 ? bill.reserved_usd / u + bill.spot_usd : -1;
	mix->runs_per_year = mix->run_hours > 0 ? HOURS_A_YEAR * u / mix->run_hours : -1;
}

void plan_tco_compute(const struct plan *p, const struct tco_spec *t, struct tco_result *r)
{
	const struct tco_owned *o = t->owned;
	const struct tco_cloud *c = t->cloud;
	memset(r, 0, sizeof *r);
	r->in = t;
	r->owned_it = catalog_find(o->like_instance, strlen(o->like_instance));
	r->cloud_it = p->it;
	r->cloud_mfu = plan_utilization(p);
	r->owned_mfu = o->training_utilization > 0 ? o->training_utilization : r->cloud_mfu;
	r->owned_accelerators = o->accelerators_per_server > 0 ? o->accelerators_per_server
				: r->owned_it ? r->owned_it->accel_count : 0;
	r->cloud_utilization = c->utilization > 0 ? c->utilization : 1;
	r->owned_flops = achieved(r->owned_it, o->servers, r->owned_accelerators, r->owned_mfu);
	r->cloud_flops = achieved(r->cloud_it, p->nodes, r->cloud_it ? r->cloud_it->accel_count : 0, r->cloud_mfu);
	r->busy_hours = HOURS_A_YEAR * o->utilization;
	r->pflop_hours_year = r->owned_flops > 0 ? r->owned_flops / 1e15 * r->busy_hours : -1;
	struct plan_est e;
	plan_estimate(p, p->it, 0, &e);
	r->run_pflop_hours = e.total_flops > 0 ? e.total_flops / 1e15 / 3600 : -1;

	/* the spec's prices, discounts and offer, so that spot is one
	 * assumption; the file adds an on-demand rate where the catalog has
	 * none, and the commitment's discount */
	struct plan_price_inputs in;
	struct plan_rate rate[PRICE__COUNT];
	plan_price_inputs_of(p->job, &in);
	if (c->reserved_discount > 0) {
		in.reserved_discount = c->reserved_discount;
		in.reserved_key = "cloud.reserved_discount";
	}
	in.on_demand_usd = c->on_demand_usd_per_node_hour;
	in.on_demand_key = "cloud.on_demand_usd_per_node_hour";
	plan_rates(p->it, &in, rate);

	owned(r, t);
	r->opt[TCO_OWNED].bad_rate = -1;
	r->opt[TCO_ON_DEMAND].nodes = p->nodes;
	static const struct { enum tco_kind kind; enum plan_price price; bool committed; } fleets[] = {
		{ TCO_ON_DEMAND, PRICE_ON_DEMAND, false }, { TCO_CAPACITY_BLOCK, PRICE_CAPACITY_BLOCK, false },
		{ TCO_RESERVED, PRICE_RESERVED, true }, { TCO_SPOT, PRICE_SPOT, false },
	};
	for (int k = 0; k < TCO__COUNT; k++)
		r->opt[k].bad_rate = -1;
	for (size_t i = 0; i < sizeof fleets / sizeof fleets[0]; i++) {
		struct tco_option *op = &r->opt[fleets[i].kind];
		op->kind = fleets[i].kind;
		cloud(r, t, op, fleets[i].committed ? p->nodes : 0, fleets[i].committed ? &rate[fleets[i].price] : NULL,
		      fleets[i].committed ? 0 : p->nodes, fleets[i].committed ? NULL : &rate[fleets[i].price]);
	}
	struct tco_option *mix = &r->opt[TCO_MIX];
	mix->kind = TCO_MIX;
	if (c->reserved && c->spot) {
		r->mix_reserved = c->reserved, r->mix_spot = c->spot, r->mix_from = "the file";
	} else if (p->fleet.mixed) {
		r->mix_reserved = p->fleet.reserved, r->mix_spot = p->fleet.spot, r->mix_from = "the spec";
	}
	if (r->mix_from)
		cloud(r, t, mix, r->mix_reserved, &rate[PRICE_RESERVED], r->mix_spot, &rate[PRICE_SPOT]);
	else
		mix->why = "no mix: give cloud.reserved and cloud.spot";
	per_run(r, p, rate);
	for (int k = 0; k < TCO__COUNT; k++) {
		if (!r->opt[k].known)
			continue;
		totals(r, t, &r->opt[k]);
		if (k != TCO_OWNED)
			breakeven(t, &r->opt[TCO_OWNED], &r->opt[k]);
	}
}

/* ---- text ---------------------------------------------------------------- */

static void option_name(const struct tco_result *r, const struct tco_option *op, char *buf, size_t cap)
{
	if (op->kind == TCO_OWNED)
		snprintf(buf, cap, "owned (%d)", op->nodes);
	else if (op->kind == TCO_MIX && r->mix_from)
		snprintf(buf, cap, "%d reserved + %d spot", r->mix_reserved, r->mix_spot);
	else
		snprintf(buf, cap, "%s (%d)", tco_kind_name(op->kind), op->nodes ? op->nodes : r->opt[TCO_ON_DEMAND].nodes);
}

static void text_assumptions(const struct plan *p, const struct tco_result *r, struct buf *b)
{
	const struct tco_owned *o = r->in->owned;
	const struct tco_cloud *c = r->in->cloud;
	const struct plan_survival *sv = &p->survival;
	buf_printf(b, "  assumptions      the file's, every one (trainforge has no figures for owned hardware):\n");
	buf_printf(b, "    owned          %d servers of %d x %s (like %s%s)", o->servers, r->owned_accelerators,
		   r->owned_it && r->owned_it->accel_model ? r->owned_it->accel_model : "accelerator", o->like_instance,
		   o->accelerators_per_server > 0 ? "; owned.accelerators_per_server" : "");
	buf_printf(b, " at $%.10g each, depreciated over %d years; networking and storage $%.10g; operations $%.10g a year\n",
		   o->purchase_usd_per_server, o->depreciation_years, o->networking_storage_usd,
		   o->operations_usd_per_year);
	buf_printf(b, "                   power %.4g kW per server training, ", o->power_kw_per_server);
	if (o->idle_given)
		buf_printf(b, "%.4g kW idle", o->idle_power_kw_per_server);
	else
		buf_puts(b, "idle not given: idle hours counted at the training draw");
	buf_printf(b, "; PUE %.4g; $%.4g per kWh\n", o->pue, o->usd_per_kwh);
	buf_printf(b, "                   in use %.4g%% of the hours; %.3g of peak while training (%s)\n",
		   100 * o->utilization, r->owned_mfu,
		   o->training_utilization > 0 ? "owned.training_utilization" : "the spec's training.utilization");
	buf_printf(b, "    cloud          %d x %s in %s (the spec's), %.3g of peak (the spec's)", p->nodes, p->it->name,
		   p->job->cluster->region, r->cloud_mfu);
	if (c->on_demand_usd_per_node_hour > 0)
		buf_printf(b, "; on demand $%.6g per node-hour if the catalog has none there (cloud.on_demand_usd_per_node_hour)",
			   c->on_demand_usd_per_node_hour);
	if (c->reserved_discount > 0)
		buf_printf(b, "; reserved at on demand less %.3g%% (cloud.reserved_discount)", 100 * c->reserved_discount);
	if (r->mix_from)
		buf_printf(b, "; mix %d reserved + %d spot (%s)", r->mix_reserved, r->mix_spot, r->mix_from);
	buf_printf(b, "\n                   in use %.4g%% of the committed hours (%s)\n", 100 * r->cloud_utilization,
		   c->utilization > 0 ? "cloud.utilization" : "an assumption: every hour; give cloud.utilization");
	buf_printf(b, "    spot           the spec's, one assumption for the bill and this comparison: ");
	if (p->job->capacity->prices && p->job->capacity->prices->spot > 0)
		buf_printf(b, "$%.6g per node-hour (capacity.prices.spot)", p->job->capacity->prices->spot);
	else if (p->job->capacity->spot_discount > 0)
		buf_printf(b, "on demand less %.3g%% (capacity.spot_discount)", 100 * p->job->capacity->spot_discount);
	else
		buf_puts(b, "the catalog's or imported spot price");
	buf_printf(b, "; %.3g reclaims per spot node-month (%s)\n", sv->spot_rate,
		   sv->spot_rate_given ? "capacity.spot_interruption_rate" : "the plan's default, an assumption");
}

static void text_work(const struct plan *p, const struct tco_result *r, struct buf *b)
{
	buf_puts(b, "  work             ");
	if (r->owned_flops < 0) {
		buf_printf(b, "unknown: no sourced peak for %s, so no delivered PFLOP-hours to compare by\n",
			   r->in->owned->like_instance);
		return;
	}
	buf_printf(b, "owned %.4g PFLOP/s achieved x %.0f busy hours a year = %.4g PFLOP-hours a year",
		   r->owned_flops / 1e15, r->busy_hours, r->pflop_hours_year);
	if (r->cloud_flops > 0)
		buf_printf(b, "; %d x %s achieve %.4g PFLOP/s and need %.0f hours a year for the same work",
			   p->nodes, p->it->name, r->cloud_flops / 1e15, r->opt[TCO_ON_DEMAND].hours_needed >= 0
			   ? r->opt[TCO_ON_DEMAND].hours_needed
			   : HOURS_A_YEAR * r->in->owned->utilization * r->owned_flops / r->cloud_flops);
	buf_puts(b, r->run_pflop_hours > 0 ? "" : "; per run unknown: give model.tokens");
	if (r->run_pflop_hours > 0)
		buf_printf(b, "; one run %.4g PFLOP-hours", r->run_pflop_hours);
	buf_putc(b, '\n');
	buf_printf(b, "  owned a year     depreciation $%.0f, energy $%.0f training + $%.0f idle, operations $%.0f\n",
		   r->capex_year, r->energy_busy_year, r->energy_idle_year, r->in->owned->operations_usd_per_year);
}

static void breakeven_text(const struct tco_option *op, struct buf *b)
{
	if (op->kind == TCO_OWNED)
		buf_puts(b, "-");
	else if (op->owning_cheaper == 2)
		buf_puts(b, "owning is cheaper at any utilization");
	else if (op->owning_cheaper == -2)
		buf_puts(b, "owning costs more at any utilization");
	else if (op->breakeven > 1)
		buf_printf(b, "%s (break-even %.0f%% of hours is above 100%%)",
			   op->owning_cheaper > 0 ? "owning costs more at any utilization" : "owning is cheaper at any utilization",
			   100 * op->breakeven);
	else if (op->breakeven < 0)
		buf_puts(b, op->owning_cheaper > 0 ? "owning is cheaper at any utilization" : "owning costs more at any utilization");
	else
		buf_printf(b, "owning is cheaper %s %.1f%% of hours", op->owning_cheaper > 0 ? "above" : "below",
			   100 * op->breakeven);
}

void plan_tco_text(const struct plan *p, const struct tco_spec *t, struct buf *b)
{
	struct tco_result r;
	plan_tco_compute(p, t, &r);
	buf_printf(b, "owned against cloud over %d years (--tco %s): %s\n", t->years, t->path,
		   t->owned->label ? t->owned->label : "the owned cluster");
	text_assumptions(p, &r, b);
	if (!r.owned_it)
		buf_printf(b, "  (%s is not in the catalog: its peak is unknown)\n", t->owned->like_instance);
	text_work(p, &r, b);
	buf_printf(b, "  %-22s", "cost (USD)");
	for (int y = 0; y < t->years; y++)
		buf_printf(b, " %11s%-2d", "year ", y + 1);
	buf_printf(b, " %13s %10s %12s  %s\n", "total", "$/PFLOP-h", "$/run", "break-even utilization");
	for (int k = 0; k < TCO__COUNT; k++) {
		const struct tco_option *op = &r.opt[k];
		char name[40];
		option_name(&r, op, name, sizeof name);
		buf_printf(b, "  %-22s", name);
		if (!op->known) {
			buf_puts(b, " unknown: ");
			if (op->bad_rate >= 0)
				plan_rate_text(&op->rate[op->bad_rate], b);
			else
				buf_puts(b, op->why);
			buf_putc(b, '\n');
			continue;
		}
		for (int y = 0; y < t->years; y++)
			buf_printf(b, " %13.0f", op->year[y]);
		buf_printf(b, " %13.0f ", op->total);
		if (op->usd_per_pflop_hour >= 0)
			buf_printf(b, "%10.3f", op->usd_per_pflop_hour);
		else
			buf_printf(b, "%10s", "-");
		if (op->usd_per_run >= 0)
			buf_printf(b, " %12.0f  ", op->usd_per_run);
		else
			buf_printf(b, " %12s  ", "-");
		breakeven_text(op, b);
		if (!op->feasible)
			buf_printf(b, "; cannot deliver the work: needs %.0f h a year", op->hours_needed);
		buf_putc(b, '\n');
	}
	/* a run on the cloud fleet: its hours, and a commitment's runs a year */
	buf_printf(b, "  a cloud run      the bill's expected finish at the spec's interruption rate:");
	const char *sep = " ";
	for (int k = TCO_ON_DEMAND; k < TCO__COUNT; k++) {
		const struct tco_option *op = &r.opt[k];
		if (!op->known || op->run_hours < 0)
			continue;
		buf_printf(b, "%s%s %.1f h", sep, tco_kind_name((enum tco_kind)k), op->run_hours);
		sep = "; ";
		if ((k == TCO_RESERVED || k == TCO_MIX) && op->runs_per_year > 0)
			buf_printf(b, " (its commitment's year holds %.1f runs at %.4g%% of the hours)", op->runs_per_year,
				   100 * r.cloud_utilization);
	}
	buf_puts(b, *sep == ';' ? "\n" : " unknown\n");
	buf_puts(b, "  prices           ");
	bool any = false;
	for (int k = TCO_ON_DEMAND; k < TCO__COUNT; k++) {
		const struct tco_option *op = &r.opt[k];
		for (int i = 0; i < 2 && op->known; i++) {
			const struct plan_rate *rt = &op->rate[i];
			if (!rt->region || rt->usd < 0 || (k == TCO_MIX))
				continue;
			buf_printf(b, "%s%s $%.6g/node-hour (", any ? "; " : "", tco_kind_name((enum tco_kind)k), rt->usd);
			plan_rate_text(rt, b);
			buf_putc(b, ')');
			any = true;
		}
	}
	buf_puts(b, any ? "\n" : "none known\n");
	if (r.owned_it && r.owned_it->peak_source)
		buf_printf(b, "  owned peak       %.6g TFLOPS per %s: %s\n", r.owned_it->accel_peak_bf16_tflops,
			   r.owned_it->accel_model ? r.owned_it->accel_model : "accelerator", r.owned_it->peak_source);
}

/* ---- JSON ---------------------------------------------------------------- */

void plan_tco_json(const struct plan *p, const struct tco_spec *t, struct buf *b)
{
	struct tco_result r;
	const struct tco_owned *o = t->owned;
	const struct tco_cloud *c = t->cloud;
	plan_tco_compute(p, t, &r);
	out_jobj(b, "tco");
	out_jstr(b, "file", t->path);
	out_jint(b, "years", t->years);
	out_jobj(b, "assumptions");
	out_jstr(b, "label", o->label);
	out_jint(b, "servers", o->servers);
	out_jstr(b, "likeInstance", o->like_instance);
	out_jnum(b, "purchaseUsdPerServer", o->purchase_usd_per_server);
	out_jint(b, "depreciationYears", o->depreciation_years);
	out_jnum(b, "powerKwPerServer", o->power_kw_per_server);
	out_jnum(b, "idlePowerKwPerServer", o->idle_given ? o->idle_power_kw_per_server : -1);
	out_jnum(b, "pue", o->pue);
	out_jnum(b, "usdPerKwh", o->usd_per_kwh);
	out_jnum(b, "networkingStorageUsd", o->networking_storage_usd);
	out_jnum(b, "operationsUsdPerYear", o->operations_usd_per_year);
	out_jnum(b, "utilization", o->utilization);
	out_jnum(b, "ownedTrainingUtilization", r.owned_mfu);
	out_jnum(b, "cloudTrainingUtilization", r.cloud_mfu);
	out_jnum(b, "onDemandUsdPerNodeHour", c->on_demand_usd_per_node_hour > 0 ? c->on_demand_usd_per_node_hour : -1);
	out_jnum(b, "reservedDiscount", c->reserved_discount > 0 ? c->reserved_discount : -1);
	out_jnum(b, "spotDiscount", p->job->capacity->spot_discount > 0 ? p->job->capacity->spot_discount : -1);
	out_jstr(b, "spotFrom", "the spec");
	out_jnum(b, "spotInterruptionRate", p->survival.spot_rate);
	out_jbool(b, "spotInterruptionRateGiven", p->survival.spot_rate_given);
	out_jint(b, "acceleratorsPerServer", r.owned_accelerators);
	out_jnum(b, "cloudUtilization", r.cloud_utilization);
	out_jint(b, "mixReserved", r.mix_reserved);
	out_jint(b, "mixSpot", r.mix_spot);
	out_jstr(b, "mixFrom", r.mix_from);
	buf_putc(b, '}');
	out_jobj(b, "work");
	out_jnum(b, "ownedAchievedFlops", r.owned_flops);
	out_jnum(b, "cloudAchievedFlops", r.cloud_flops);
	out_jnum(b, "busyHoursPerYear", r.busy_hours);
	out_jnum(b, "pflopHoursPerYear", r.pflop_hours_year);
	out_jnum(b, "pflopHoursPerRun", r.run_pflop_hours);
	out_jnum(b, "ownedDepreciationPerYear", r.capex_year);
	out_jnum(b, "ownedEnergyBusyPerYear", r.energy_busy_year);
	out_jnum(b, "ownedEnergyIdlePerYear", r.energy_idle_year);
	out_jstr(b, "ownedPeakSource", r.owned_it ? r.owned_it->peak_source : NULL);
	buf_putc(b, '}');
	out_jarr(b, "options");
	for (int k = 0; k < TCO__COUNT; k++) {
		const struct tco_option *op = &r.opt[k];
		if (k)
			buf_putc(b, ',');
		buf_putc(b, '{');
		out_jstr(b, "option", tco_kind_name(op->kind));
		out_jbool(b, "known", op->known);
		char why[200];
		if (op->bad_rate >= 0)
			plan_rate_why(&op->rate[op->bad_rate], why, sizeof why);
		out_jstr(b, "why", op->known ? NULL : op->bad_rate >= 0 ? why : op->why);
		out_jint(b, "nodes", op->nodes);
		if (op->kind == TCO_MIX) {
			out_jint(b, "reserved", r.mix_reserved);
			out_jint(b, "spot", r.mix_spot);
		}
		out_jarr(b, "usdPerYear");
		for (int y = 0; y < t->years; y++)
			buf_printf(b, "%s%.10g", y ? "," : "", op->known ? op->year[y] : 0);
		buf_putc(b, ']');
		out_jnum(b, "usdTotal", op->known ? op->total : -1);
		out_jnum(b, "usdPerPflopHour", op->known ? op->usd_per_pflop_hour : -1);
		out_jnum(b, "usdPerRun", op->known ? op->usd_per_run : -1);
		if (op->kind != TCO_OWNED) {
			out_jnum(b, "runHours", op->known ? op->run_hours : -1);
			out_jnum(b, "runsPerYear", op->known ? op->runs_per_year : -1);
		}
		out_jnum(b, "fixedUsdFirstYear", op->known ? op->fixed[0] : -1);
		out_jnum(b, "usdPerYearPerUtilization", op->known ? op->per_u : -1);
		out_jnum(b, "hoursNeededPerYear", op->known ? op->hours_needed : -1);
		out_jbool(b, "feasible", op->known && op->feasible);
		if (op->known && op->kind != TCO_OWNED) {
			buf_printf(b, ",\"breakEvenUtilization\":");
			if (op->owning_cheaper == 2 || op->owning_cheaper == -2)
				buf_puts(b, "null");
			else
				buf_printf(b, "%.10g", op->breakeven);
			out_jstr(b, "owningCheaper", op->owning_cheaper == 2 ? "always" : op->owning_cheaper == -2 ? "never"
				 : op->owning_cheaper > 0 ? "above" : "below");
		}
		if (k != TCO_OWNED) {
			out_jarr(b, "rates");
			for (int i = 0; i < 2; i++) {
				if (!op->rate[i].region)
					continue;
				if (i && op->rate[0].region)
					buf_putc(b, ',');
				buf_putc(b, '{');
				plan_rate_json(&op->rate[i], b);
				buf_putc(b, '}');
			}
			buf_putc(b, ']');
		}
		buf_putc(b, '}');
	}
	buf_puts(b, "]}");
}
