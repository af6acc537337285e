#include "cluster_cost.h"

#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "prices.h"

const char *cluster_region(const struct cluster *c)
{
	return yd_str(c->doc, yd_get(c->doc, c->root, "Region"), NULL);
}

long long cluster_cr_count(const struct cluster *c, yd_node cr, const char *key)
{
	long long n = strcmp(key, "MaxCount") == 0 ? 10 : 0; /* ParallelCluster's defaults */
	yd_node v = yd_get(c->doc, cr, key);
	if (v && !yd_int(c->doc, v, &n))
		return -1;
	return n < 0 ? -1 : n;
}

bool cluster_cr_reserved(const struct cluster *c, yd_node queue, yd_node cr)
{
	const char *capacity = cluster_capacity_type(c, queue); /* NULL: a placeholder */
	return (capacity && !strcmp(capacity, "CAPACITY_BLOCK")) ||
	       yd_get(c->doc, cr, "CapacityReservationTarget") ||
	       yd_get(c->doc, queue, "CapacityReservationTarget");
}

static void from_price(const struct price *p, const char *kind, const char *region,
		       struct cluster_rate *r)
{
	r->usd = p->usd_per_hour;
	r->kind = kind;
	r->region = region;
	snprintf(r->date, sizeof r->date, "%s", p->as_of);
	r->imported = p->origin == ORIGIN_IMPORTED;
}

/* The config region's price (spot, else on demand: ParallelCluster's
 * default SpotPrice is the on-demand price), else the catalog's on-demand
 * price of its own region, said to be another region's. */
static void type_rate(const struct cluster *c, const struct instance_type *it, bool spot,
		      struct cluster_rate *r)
{
	const char *region = cluster_region(c);
	struct price p;

	r->type = it->name;
	if (region && spot && price_find(it->name, region, TERM_SPOT, NULL, &p)) {
		from_price(&p, "spot", region, r);
	} else if (region && price_find(it->name, region, TERM_ON_DEMAND, NULL, &p)) {
		from_price(&p, "on-demand", region, r);
		r->at_most = spot;
	} else {
		r->usd = it->price_on_demand, r->kind = "on-demand", r->at_most = spot;
		r->region = it->price_region;
		snprintf(r->date, sizeof r->date, "%s", it->price_date ? it->price_date : "");
	}
	if (r->usd < 0)
		r->why = "the catalog has no price for";
}

void cluster_cr_rate(const struct cluster *c, yd_node queue, yd_node cr, struct cluster_rate *out)
{
	*out = (struct cluster_rate){ .usd = -1, .why = "the compute resource names no instance type" };
	const char *capacity = cluster_capacity_type(c, queue);
	double spot_price;
	yd_node types[64];
	size_t n = cluster_instance_types(c, cr, types, sizeof types / sizeof types[0]);
	if (n)
		out->type = yd_str(c->doc, types[0], NULL);
	bool placeholder = !capacity;
	for (size_t i = 0; i < n; i++)
		placeholder |= cluster_unknown(c, types[i]);
	if (placeholder) {
		/* the price of a template's node is known once it is rendered */
		*out = (struct cluster_rate){ .usd = -1, .placeholder = true,
					      .why = "a template placeholder without a value: render it or --define it" };
		return;
	}
	bool spot = !strcmp(capacity, "SPOT");
	if (!strcmp(capacity, "CAPACITY_BLOCK")) {
		out->why = "a Capacity Block is paid for when it is bought";
		return;
	}
	if (spot && yd_number(c->doc, yd_get(c->doc, cr, "SpotPrice"), &spot_price) && spot_price > 0) {
		*out = (struct cluster_rate){ .usd = spot_price, .at_most = true, .kind = "SpotPrice",
					      .type = out->type };
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct instance_type *it = cluster_instance(c, types[i]);
		struct cluster_rate r = { 0 };
		if (!it) {
			out->usd = -1;
			out->type = yd_str(c->doc, types[i], NULL);
			out->why = "the catalog does not have";
			return;
		}
		type_rate(c, it, spot, &r);
		if (r.usd < 0) {
			*out = r;
			return;
		}
		if (i && r.usd != out->usd)
			r.at_most = true;
		if (!i || r.usd > out->usd)
			*out = r;
		else
			out->at_most |= r.at_most;
	}
}

void cluster_rate_unknown(const struct cluster_rate *r, struct buf *b)
{
	buf_puts(b, r->why ? r->why : "unknown");
	if (r->why && !strncmp(r->why, "the catalog", 11) && r->type)
		buf_printf(b, " %s", r->type);
}

void cluster_money(struct buf *b, double usd)
{
	if (usd >= 1000)
		buf_printf(b, "$%.0f", usd);
	else
		buf_printf(b, "$%.2f", usd);
}

void cluster_rate_source(const struct cluster *c, const struct cluster_rate *r, struct buf *b)
{
	if (!r->region) {
		buf_puts(b, "the queue's SpotPrice");
		return;
	}
	long age = prices_age_days(r->date);
	buf_printf(b, "%s %s%s price of %s", r->region, r->imported ? "imported " : "", r->kind,
		   r->date[0] ? r->date : "an unknown date");
	if (age >= 0)
		buf_printf(b, ", %ld day%s old", age, age == 1 ? "" : "s");
	const char *region = cluster_region(c);
	if (region && strcmp(region, r->region) != 0)
		buf_printf(b, "; the config is in %s, where prices differ", region);
}
