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
		[RATE_USER] = "user", [RATE_IMPORTED] = "imported",
	};
	return names[f];
}

void plan_price_inputs_of(const struct job_spec *j, struct plan_price_inputs *in)
{
	const struct spec_capacity *c = j->capacity;
	memset(in, 0, sizeof *in);
	in->region = j->cluster->region;
	in->reserved_discount = c->reserved_discount;
	in->spot_discount = c->spot_discount;
	in->reserved_key = "capacity.reserved_discount";
	in->spot_key = "capacity.spot_discount";
	in->own_type = j->instance;
	if (c->prices) {
		in->user_usd[PRICE_ON_DEMAND] = c->prices->on_demand;
		in->user_usd[PRICE_RESERVED] = c->prices->reserved;
		in->user_usd[PRICE_SPOT] = c->prices->spot;
		in->user_usd[PRICE_CAPACITY_BLOCK] = c->prices->capacity_block;
	}
	in->user_key[PRICE_ON_DEMAND] = "capacity.prices.on_demand";
	in->user_key[PRICE_RESERVED] = "capacity.prices.reserved";
	in->user_key[PRICE_SPOT] = "capacity.prices.spot";
	in->user_key[PRICE_CAPACITY_BLOCK] = "capacity.prices.capacity_block";
	spec_reserved_offer(j, &in->reserved_term, &in->reserved_offer);
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

/* The catalog's rate in the region nearest to region, kept apart (the
 * region's own came from price_find, which found none). */
static void other(struct plan_rate *r, const struct listed *v, size_t n, const char *region)
{
	const struct listed *near = NULL;
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].region || v[i].usd < 0 || !strcmp(v[i].region, region))
			continue;
		/* ties: the first name in order; the same region: its latest */
		int a = affinity(v[i].region, region);
		int c = near ? strcmp(v[i].region, near->region) : 0;
		if (!near || a > best || (a == best && c <= 0)) {
			best = a;
			near = &v[i];
		}
	}
	if (!near)
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
		snprintf(buf, cap, "no %s price for %s in the catalog or the imported prices", name, r->region);
	else if (r->discount > 0)
		snprintf(buf, cap, "no %s price in the catalog or the imported prices, and no on-demand price for %s to take %s %.3g from",
			 name, r->region, r->assumption, r->discount);
	else
		snprintf(buf, cap, "no %s price in the catalog or the imported prices: import one (trainforge prices import) or give capacity.prices.%s or %s",
			 name, r->kind == PRICE_SPOT ? "spot" : "reserved", r->assumption);
}

void plan_rate_offer(const struct plan_rate *r, char *buf, size_t cap)
{
	if (r->kind == PRICE_RESERVED && (r->from == RATE_CATALOG || r->from == RATE_IMPORTED))
		price_offer_text(r->price.term, &r->price.offer, buf, cap);
	else
		snprintf(buf, cap, "%s", plan_price_name(r->kind));
}

/* The price data's rate of it for a term, when there is one. */
static bool priced(struct plan_rate *r, const struct instance_type *it, enum price_term term,
		   const struct price_offer *offer)
{
	if (!price_find(it->name, r->region, term, offer, &r->price))
		return false;
	r->usd = r->price.usd_per_hour;
	r->from = r->price.origin == ORIGIN_IMPORTED ? RATE_IMPORTED : RATE_CATALOG;
	r->source = r->price.source;
	return true;
}

static bool user(struct plan_rate *r, const struct plan_price_inputs *in, const struct instance_type *it)
{
	double usd = in->user_usd[r->kind];
	if (!(usd > 0) || !in->own_type || strcmp(in->own_type, it->name) != 0)
		return false;
	r->usd = usd;
	r->from = RATE_USER;
	r->assumption = in->user_key[r->kind];
	return true;
}

void plan_rates(const struct instance_type *it, const struct plan_price_inputs *in,
		struct plan_rate r[PRICE__COUNT])
{
	for (int k = 0; k < PRICE__COUNT; k++) {
		memset(&r[k], 0, sizeof r[k]);
		r[k].kind = (enum plan_price)k;
		r[k].usd = r[k].other_usd = -1;
		r[k].region = in->region;
		r[k].price.usd_per_hour = -1;
	}
	/* the catalog's rates of other regions, kept apart for the reader */
	const struct listed od = { it->price_on_demand, it->price_region, it->price_date, it->price_source };
	const struct listed res = { it->price_reserved, it->price_reserved_region, it->price_reserved_date,
				    it->price_reserved_source };
	const struct listed spot = { it->price_spot, it->price_spot_region, it->price_spot_date,
				     it->price_spot_source };
	size_t ncb = it->capacity_block_count > 0 ? (size_t)it->capacity_block_count : 0;
	struct listed *cb = ncb ? xcalloc(ncb, sizeof *cb) : NULL;
	for (size_t i = 0; i < ncb; i++) {
		const struct catalog_price *c = &it->capacity_block[i];
		cb[i] = (struct listed){ c->usd_per_hour, c->region, c->date, c->source };
	}
	if (!user(&r[PRICE_ON_DEMAND], in, it) && !priced(&r[PRICE_ON_DEMAND], it, TERM_ON_DEMAND, NULL)) {
		other(&r[PRICE_ON_DEMAND], &od, 1, in->region);
		if (in->on_demand_usd > 0) {
			r[PRICE_ON_DEMAND].usd = in->on_demand_usd;
			r[PRICE_ON_DEMAND].from = RATE_USER;
			r[PRICE_ON_DEMAND].assumption = in->on_demand_key;
		}
	}
	if (!user(&r[PRICE_CAPACITY_BLOCK], in, it) &&
	    !priced(&r[PRICE_CAPACITY_BLOCK], it, TERM_CAPACITY_BLOCK, NULL))
		other(&r[PRICE_CAPACITY_BLOCK], cb, ncb, in->region);
	free(cb);
	if (!user(&r[PRICE_RESERVED], in, it) &&
	    !priced(&r[PRICE_RESERVED], it, in->reserved_term == TERM_SAVINGS_PLAN ? TERM_SAVINGS_PLAN : TERM_RESERVED,
		    &in->reserved_offer)) {
		other(&r[PRICE_RESERVED], &res, 1, in->region);
		discounted(&r[PRICE_RESERVED], &r[PRICE_ON_DEMAND], in->reserved_discount, in->reserved_key);
	}
	if (!user(&r[PRICE_SPOT], in, it) && !priced(&r[PRICE_SPOT], it, TERM_SPOT, NULL)) {
		other(&r[PRICE_SPOT], &spot, 1, in->region);
		discounted(&r[PRICE_SPOT], &r[PRICE_ON_DEMAND], in->spot_discount, in->spot_key);
	}
}
