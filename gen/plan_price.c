/* What one node-hour of an instance type costs in the spec's region,
 * under each way of buying it. A catalog price is for one region only:
 * used there and nowhere else. docs/plan.md, "Prices and regions". */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

const char *plan_price_name(enum plan_price k)
{
	static const char *const names[] = {
		[PRICE_ON_DEMAND] = "on-demand", [PRICE_CAPACITY_BLOCK] = "capacity-block",
		[PRICE_RESERVED] = "reserved", [PRICE_SPOT] = "spot",
	};
	return names[k];
}

const char *plan_price_key(enum plan_price k)
{
	static const char *const keys[] = {
		[PRICE_ON_DEMAND] = "onDemand", [PRICE_CAPACITY_BLOCK] = "capacityBlock",
		[PRICE_RESERVED] = "reserved", [PRICE_SPOT] = "spot",
	};
	return keys[k];
}

const char *plan_rate_from_name(enum rate_from f)
{
	static const char *const names[] = {
		[RATE_NONE] = "none", [RATE_CATALOG] = "catalog", [RATE_DISCOUNT] = "discount",
		[RATE_USER] = "user",
	};
	return names[f];
}

void plan_price_inputs_of(const struct job_spec *j, struct plan_price_inputs *in)
{
	memset(in, 0, sizeof *in);
	in->region = j->cluster->region;
	in->reserved_discount = j->capacity->reserved_discount;
	in->spot_discount = j->capacity->spot_discount;
	in->reserved_key = "capacity.reserved_discount";
	in->spot_key = "capacity.spot_discount";
}

/* How near two regions are by name: the dash-separated parts they share
 * from the start (us-west-2 and us-west-1 share two, us-east-1 one).
 * Names are all there is to go on: the catalog carries no geography. */
static int affinity(const char *a, const char *b)
{
	int parts = 0;
	for (;;) {
		size_t la = strcspn(a, "-"), lb = strcspn(b, "-");
		if (la != lb || memcmp(a, b, la))
			return parts;
		parts++;
		if (!a[la] || !b[lb])
			return parts;
		a += la + 1, b += lb + 1;
	}
}

/* One rate as the catalog gives it: region, date, source. */
struct listed {
	double usd;
	const char *region, *date, *source;
};

/* The listed rate for region, else the one nearest to it kept apart. */
static void pick(struct plan_rate *r, const struct listed *v, size_t n, const char *region)
{
	const struct listed *near = NULL;
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].region || v[i].usd < 0)
			continue;
		if (!strcmp(v[i].region, region)) {
			/* a later date for the same region wins: lists are by date */
			r->usd = v[i].usd;
			r->from = RATE_CATALOG;
			r->date = v[i].date;
			r->source = v[i].source;
			continue;
		}
		/* ties: the first name in order; the same region: its latest */
		int a = affinity(v[i].region, region);
		int c = near ? strcmp(v[i].region, near->region) : 0;
		if (!near || a > best || (a == best && c <= 0)) {
			best = a;
			near = &v[i];
		}
	}
	if (r->from == RATE_CATALOG || !near)
		return;
	r->other_usd = near->usd;
	r->other_region = near->region;
	r->other_date = near->date;
	r->other_source = near->source;
}

static void discounted(struct plan_rate *r, const struct plan_rate *od, double discount,
		       const char *key)
{
	if (r->from != RATE_NONE)
		return;
	r->assumption = key;
	r->discount = discount;
	if (discount > 0 && od->usd >= 0) {
		r->usd = od->usd * (1 - discount);
		r->from = RATE_DISCOUNT;
	}
}

void plan_rate_why(const struct plan_rate *r, char *buf, size_t cap)
{
	const char *name = plan_price_name(r->kind);
	if (r->from != RATE_NONE)
		snprintf(buf, cap, "%s", "");
	else if (r->kind == PRICE_ON_DEMAND || r->kind == PRICE_CAPACITY_BLOCK)
		snprintf(buf, cap, "no %s price for %s in the catalog", name, r->region);
	else if (r->discount > 0)
		snprintf(buf, cap, "no %s price in the catalog, and no on-demand price for %s to take %s %.3g from",
			 name, r->region, r->assumption, r->discount);
	else
		snprintf(buf, cap, "no %s price in the catalog: give %s", name, r->assumption);
}

void plan_rates(const struct instance_type *it, const struct plan_price_inputs *in,
		struct plan_rate r[PRICE__COUNT])
{
	for (int k = 0; k < PRICE__COUNT; k++) {
		memset(&r[k], 0, sizeof r[k]);
		r[k].kind = (enum plan_price)k;
		r[k].usd = r[k].other_usd = -1;
		r[k].region = in->region;
	}
	const struct listed od = { it->price_on_demand, it->price_region, it->price_date, it->price_source };
	const struct listed res = { it->price_reserved, it->price_reserved_region, it->price_reserved_date,
				    it->price_reserved_source };
	const struct listed spot = { it->price_spot, it->price_spot_region, it->price_spot_date,
				     it->price_spot_source };
	pick(&r[PRICE_ON_DEMAND], &od, 1, in->region);
	if (r[PRICE_ON_DEMAND].from == RATE_NONE && in->on_demand_usd > 0) {
		r[PRICE_ON_DEMAND].usd = in->on_demand_usd;
		r[PRICE_ON_DEMAND].from = RATE_USER;
		r[PRICE_ON_DEMAND].assumption = in->on_demand_key;
	}
	/* Capacity Block rates: one per region and date, by region, then date
	 * (the catalog's build sorts them), every one of them considered */
	size_t ncb = it->capacity_block_count > 0 ? (size_t)it->capacity_block_count : 0;
	struct listed *cb = ncb ? xcalloc(ncb, sizeof *cb) : NULL;
	for (size_t i = 0; i < ncb; i++) {
		const struct catalog_price *c = &it->capacity_block[i];
		cb[i] = (struct listed){ c->usd_per_hour, c->region, c->date, c->source };
	}
	pick(&r[PRICE_CAPACITY_BLOCK], cb, ncb, in->region);
	free(cb);
	pick(&r[PRICE_RESERVED], &res, 1, in->region);
	discounted(&r[PRICE_RESERVED], &r[PRICE_ON_DEMAND], in->reserved_discount, in->reserved_key);
	pick(&r[PRICE_SPOT], &spot, 1, in->region);
	discounted(&r[PRICE_SPOT], &r[PRICE_ON_DEMAND], in->spot_discount, in->spot_key);
}
