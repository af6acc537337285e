/* The JSON price and instance files (import.h), told apart by the keys
 * at their top: products and terms (a Price List or Savings Plans offer
 * file), PriceList (`aws pricing get-products`), SpotPriceHistory (`aws
 * ec2 describe-spot-price-history`), InstanceTypes (`aws ec2
 * describe-instance-types`).
 *
 * An offer file's terms name its products by SKU, so the products kept
 * (Linux, shared tenancy, ...) are held by SKU until the terms come: the
 * memory grows with them, not with the file. AWS writes products before
 * terms; a file with terms first is read twice. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "import_internal.h"
#include "jsonscan.h"
#include "xalloc.h"

/* ---- what was kept of the products ---------------------------------------- */

struct product {
	char *sku;
	char type[64], region[32];
	struct price_offer offer;    /* Savings Plans products */
	enum price_term term;
};

struct products {
	struct product *slots;
	size_t cap, n;
};

static size_t hash(const char *s, size_t n)
{
	size_t h = 1469598103934665603u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	return h;
}

static struct product *products_find(const struct products *ps, const char *sku, size_t n)
{
	if (ps->cap == 0)
		return NULL;
	for (size_t i = hash(sku, n) & (ps->cap - 1);; i = (i + 1) & (ps->cap - 1)) {
		struct product *p = &ps->slots[i];
		if (p->sku == NULL)
			return NULL;
		if (strlen(p->sku) == n && memcmp(p->sku, sku, n) == 0)
			return p;
	}
}

static struct product *products_add(struct products *ps, const char *sku, size_t n)
{
	struct product *p;

	if ((ps->n + 1) * 2 > ps->cap) {
		struct products grown = { xcalloc(ps->cap ? 2 * ps->cap : 1024, sizeof *grown.slots),
					  ps->cap ? 2 * ps->cap : 1024, 0 };
		for (size_t i = 0; i < ps->cap; i++)
			if (ps->slots[i].sku != NULL) {
				size_t j = hash(ps->slots[i].sku, strlen(ps->slots[i].sku)) & (grown.cap - 1);
				while (grown.slots[j].sku != NULL)
					j = (j + 1) & (grown.cap - 1);
				grown.slots[j] = ps->slots[i];
				grown.n++;
			}
		free(ps->slots);
		*ps = grown;
	}
	if ((p = products_find(ps, sku, n)) != NULL)
		return p;
	size_t i = hash(sku, n) & (ps->cap - 1);
	while (ps->slots[i].sku != NULL)
		i = (i + 1) & (ps->cap - 1);
	p = &ps->slots[i];
	p->sku = xmalloc(n + 1);
	memcpy(p->sku, sku, n);
	p->sku[n] = '\0';
	ps->n++;
	return p;
}

static void products_free(struct products *ps)
{
	for (size_t i = 0; i < ps->cap; i++)
		free(ps->slots[i].sku);
	free(ps->slots);
	memset(ps, 0, sizeof *ps);
}

/* ---- the reader's state ---------------------------------------------------- */

struct jr {
	struct sink *k;
	struct json_scan *s;
	struct products products;
	bool seen_products, seen_terms, terms_first, second_pass;
	bool ec2, sp, get_products, spot, types;
	char offer_code[64];
	char region[32];  /* a Savings Plans file's own regionCode, for rates without one */
};

static bool jfail(struct jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool jfail(struct jr *r, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return sink_fail(r->k, json_line(r->s), json_col(r->s), "%s", msg);
}

static bool scan_fail(struct jr *r)
{
	return jfail(r, "%s", json_error(r->s) ? json_error(r->s) : "the input ends too early");
}

/* The next token, which must be tok. */
static bool expect(struct jr *r, enum json_tok tok, const char *what)
{
	enum json_tok t = json_next(r->s);

	if (t == tok)
		return true;
	if (t == JT_ERROR)
		return scan_fail(r);
	return jfail(r, "expected %s", what);
}

static bool text_is(struct jr *r, const char *lit)
{
	size_t n;
	const char *t = json_text(r->s, &n);

	return import_eq(t, n, lit);
}

/* Copies the text of the last token into out (cut to cap - 1). */
static void text_copy(struct jr *r, char *out, size_t cap)
{
	size_t n;
	const char *t = json_text(r->s, &n);

	if (n >= cap)
		n = cap - 1;
	memcpy(out, t, n);
	out[n] = '\0';
}

/* A string member's value into out; false (and a failure) when the value
 * is not a string. */
static bool string_member(struct jr *r, const char *key, char *out, size_t cap)
{
	enum json_tok t = json_next(r->s);

	if (t == JT_STRING) {
		text_copy(r, out, cap);
		return true;
	}
	if (t == JT_ERROR)
		return scan_fail(r);
	return jfail(r, "%s is not a string", key);
}

/* A member of an object whose string value is kept: where it goes in a
 * struct, and (unless NO_FLAG) a bool there set when the member is. */
struct member {
	const char *key;
	size_t at, cap, seen;
};
#define NO_FLAG ((size_t)-1)
#define MEMBER(type, key, field) { key, offsetof(type, field), sizeof ((type *)0)->field, NO_FLAG }
#define MEMBER_SEEN(type, key, field, flag) \
	{ key, offsetof(type, field), sizeof ((type *)0)->field, offsetof(type, flag) }

/* An object (its '{' next) whose members of table m with string values
 * are copied into the struct at into; other members and values are
 * skipped. */
static bool string_members(struct jr *r, const char *what, const struct member *m, size_t n, void *into)
{
	enum json_tok t;

	if (!expect(r, JT_OBJECT, what))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		const struct member *hit = NULL;
		for (size_t i = 0; i < n && hit == NULL; i++)
			if (text_is(r, m[i].key))
				hit = &m[i];
		t = json_next(r->s);
		if (hit && t == JT_STRING) {
			text_copy(r, (char *)into + hit->at, hit->cap);
			if (hit->seen != NO_FLAG)
				*(bool *)((char *)into + hit->seen) = true;
		} else if (!json_skip(r->s, t)) {
			return scan_fail(r);
		}
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* ---- the filter of EC2 products (the same as the CSV's) ------------------- */

struct attrs {
	char family[48], type[64], region[32], os[24], tenancy[16], software[16], capacity[16];
	char location_type[24], license[40], market[24];
	bool have_software, have_capacity, have_market;
};

static const struct member attr_members[] = {
	MEMBER(struct attrs, "instanceType", type), MEMBER(struct attrs, "regionCode", region),
	MEMBER(struct attrs, "operatingSystem", os), MEMBER(struct attrs, "tenancy", tenancy),
	MEMBER_SEEN(struct attrs, "preInstalledSw", software, have_software),
	MEMBER_SEEN(struct attrs, "capacitystatus", capacity, have_capacity),
	MEMBER(struct attrs, "locationType", location_type), MEMBER(struct attrs, "licenseModel", license),
	MEMBER_SEEN(struct attrs, "marketoption", market, have_market),
};

static bool ec2_kept(const struct attrs *a)
{
	return (!strcmp(a->family, "Compute Instance") || !strcmp(a->family, "Compute Instance (bare metal)")) &&
	       !strcmp(a->os, "Linux") && !strcmp(a->tenancy, "Shared") &&
	       !strcmp(a->location_type, "AWS Region") &&
	       (!a->have_software || !strcmp(a->software, "NA")) &&
	       (!a->have_capacity || !strcmp(a->capacity, "Used")) &&
	       (!a->license[0] || !strcmp(a->license, "No License required")) &&
	       (!a->market[0] || !strcmp(a->market, "OnDemand"));
}

/* An EC2 product object (its sku key already read); kept ones go into
 * the map. */
static bool ec2_product(struct jr *r, const char *sku_key, size_t sku_n, struct attrs *a)
{
	enum json_tok t;

	memset(a, 0, sizeof *a);
	if (!expect(r, JT_OBJECT, "a product object"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "productFamily")) {
			if (!string_member(r, "productFamily", a->family, sizeof a->family))
				return false;
		} else if (text_is(r, "attributes")) {
			if (!string_members(r, "attributes to be an object", attr_members,
					    sizeof attr_members / sizeof *attr_members, a))
				return false;
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	if (t != JT_OBJECT_END)
		return scan_fail(r);
	if (!ec2_kept(a))
		return true;
	if (!catalog_name_plausible(a->type, strlen(a->type)))
		return jfail(r, "product %.*s: instanceType '%s' is not an EC2 instance type", (int)sku_n, sku_key, a->type);
	if (!import_region_ok(a->region, strlen(a->region)))
		return jfail(r, "product %.*s: regionCode '%s' is not an AWS Region (price lists published since 2021 have it)",
			     (int)sku_n, sku_key, a->region);
	struct product *p = products_add(&r->products, sku_key, sku_n);
	snprintf(p->type, sizeof p->type, "%s", a->type);
	snprintf(p->region, sizeof p->region, "%s", a->region);
	return true;
}

static bool ec2_products(struct jr *r)
{
	enum json_tok t;
	struct attrs a;

	while ((t = json_next(r->s)) == JT_KEY) {
		char sku[80];
		text_copy(r, sku, sizeof sku);
		r->k->report->records++;
		if (!ec2_product(r, sku, strlen(sku), &a))
			return false;
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* ---- EC2 offer terms ------------------------------------------------------- */

#define MAX_DIMENSIONS 8

struct offer {
	char effective[32], lease[16], purchase[24], cls[16];
	struct { char unit[16], usd[40]; unsigned long line, col; } dim[MAX_DIMENSIONS];
	int ndim;
	unsigned long line, col;
};

static bool price_dimension(struct jr *r, struct offer *o)
{
	enum json_tok t;
	int d = o->ndim;

	if (d == MAX_DIMENSIONS)
		return jfail(r, "more than %d price dimensions in one offer", MAX_DIMENSIONS);
	o->ndim++;
	memset(&o->dim[d], 0, sizeof o->dim[d]);
	o->dim[d].line = json_line(r->s);
	o->dim[d].col = json_col(r->s);
	if (!expect(r, JT_OBJECT, "a price dimension object"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "unit")) {
			if (!string_member(r, "unit", o->dim[d].unit, sizeof o->dim[d].unit))
				return false;
		} else if (text_is(r, "pricePerUnit")) {
			if (!expect(r, JT_OBJECT, "pricePerUnit to be an object"))
				return false;
			while ((t = json_next(r->s)) == JT_KEY) {
				bool usd = text_is(r, "USD");
				t = json_next(r->s);
				if (usd && t == JT_STRING) {
					size_t n;
					const char *v = json_text(r->s, &n);
					if (!import_price_ok(v, n))
						return jfail(r, "pricePerUnit USD '%.*s' is not a price (a decimal number)", (int)(n > 40 ? 40 : n), v);
					text_copy(r, o->dim[d].usd, sizeof o->dim[d].usd);
				} else if (usd) {
					/* the documented quirk: prices are strings */
					return jfail(r, "pricePerUnit USD is not a string (AWS writes prices as strings)");
				} else if (!json_skip(r->s, t)) {
					return scan_fail(r);
				}
			}
			if (t != JT_OBJECT_END)
				return scan_fail(r);
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

static bool offer_object(struct jr *r, struct offer *o)
{
	enum json_tok t;

	memset(o, 0, sizeof *o);
	o->line = json_line(r->s);
	o->col = json_col(r->s);
	if (!expect(r, JT_OBJECT, "an offer object"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "effectiveDate")) {
			if (!string_member(r, "effectiveDate", o->effective, sizeof o->effective))
				return false;
		} else if (text_is(r, "priceDimensions")) {
			if (!expect(r, JT_OBJECT, "priceDimensions to be an object"))
				return false;
			while ((t = json_next(r->s)) == JT_KEY)
				if (!price_dimension(r, o))
					return false;
			if (t != JT_OBJECT_END)
				return scan_fail(r);
		} else if (text_is(r, "termAttributes")) {
			static const struct member m[] = {
				MEMBER(struct offer, "LeaseContractLength", lease),
				MEMBER(struct offer, "PurchaseOption", purchase),
				MEMBER(struct offer, "OfferingClass", cls),
			};
			if (!string_members(r, "termAttributes to be an object", m, sizeof m / sizeof *m, o))
				return false;
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* The parts of one offer of a kept product. */
static bool offer_parts(struct jr *r, const struct product *p, bool reserved, const char *sku,
			const char *term_code, const struct offer *o, const char *as_of)
{
	struct part part = { 0 };
	char id[96];

	part.term = reserved ? TERM_RESERVED : TERM_ON_DEMAND;
	if (reserved) {
		part.offer.years = import_years(o->lease, strlen(o->lease));
		part.offer.purchase = import_purchase(o->purchase, strlen(o->purchase));
		part.offer.cls = !strcmp(o->cls, "standard") ? CLASS_STANDARD :
				 !strcmp(o->cls, "convertible") ? CLASS_CONVERTIBLE : CLASS_ANY;
		if (part.offer.years == 0 || part.offer.purchase == PURCHASE_ANY || part.offer.cls == CLASS_ANY)
			return sink_fail(r->k, o->line, o->col,
					 "reserved offer %s.%s: termAttributes LeaseContractLength '%s', PurchaseOption '%s', OfferingClass '%s' are not 1yr or 3yr, an upfront option and standard or convertible",
					 sku, term_code, o->lease, o->purchase, o->cls);
	}
	snprintf(id, sizeof id, "%.40s.%.40s", sku, term_code);
	part.type = p->type, part.type_len = strlen(p->type);
	part.region = p->region, part.region_len = strlen(p->region);
	part.offer_id = id, part.offer_len = strlen(id);
	part.effective = o->effective, part.effective_len = strlen(o->effective);
	part.as_of = as_of;
	for (int d = 0; d < o->ndim; d++) {
		if (!o->dim[d].usd[0])
			continue; /* priced in another currency only */
		part.value = o->dim[d].usd, part.value_len = strlen(o->dim[d].usd);
		part.line = o->dim[d].line;
		if (!strcmp(o->dim[d].unit, "Hrs"))
			part.comp = reserved ? PART_HOURLY : PART_RATE;
		else if (!strcmp(o->dim[d].unit, "Quantity") && reserved)
			part.comp = PART_UPFRONT;
		else
			return sink_fail(r->k, o->dim[d].line, o->dim[d].col,
					 "offer %s.%s: a price dimension in '%s', not Hrs or (upfront) Quantity",
					 sku, term_code, o->dim[d].unit);
		if (!sink_part(r->k, &part))
			return false;
	}
	return true;
}

/* terms.OnDemand or terms.Reserved: { SKU: { CODE: offer } } */
static bool ec2_terms_of(struct jr *r, bool reserved, const char *as_of)
{
	enum json_tok t;

	if (!expect(r, JT_OBJECT, "an object of SKUs"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		char sku[80];
		const struct product *p;
		text_copy(r, sku, sizeof sku);
		p = products_find(&r->products, sku, strlen(sku));
		if (p == NULL) { /* a product not kept */
			if (!json_skip(r->s, json_next(r->s)))
				return scan_fail(r);
			continue;
		}
		if (!expect(r, JT_OBJECT, "an object of offers"))
			return false;
		while ((t = json_next(r->s)) == JT_KEY) {
			char code[80];
			struct offer o;
			const char *dot;
			text_copy(r, code, sizeof code);
			dot = strchr(code, '.');
			if (!offer_object(r, &o) ||
			    !offer_parts(r, p, reserved, sku, dot ? dot + 1 : code, &o, as_of))
				return false;
		}
		if (t != JT_OBJECT_END)
			return scan_fail(r);
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* ---- Savings Plans offer files (JSON) ------------------------------------- */

/* A product of a Savings Plans offer file, its '{' read. */
static bool sp_product_body(struct jr *r)
{
	enum json_tok t;
	char sku[80] = "", family[48] = "";
	struct sp_attrs { char term[16], purchase[24], region[32]; } a = { "", "", "" };
	static const struct member m[] = {
		MEMBER(struct sp_attrs, "purchaseTerm", term),
		MEMBER(struct sp_attrs, "purchaseOption", purchase),
		MEMBER(struct sp_attrs, "regionCode", region),
	};

	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "sku")) {
			if (!string_member(r, "sku", sku, sizeof sku))
				return false;
		} else if (text_is(r, "productFamily")) {
			if (!string_member(r, "productFamily", family, sizeof family))
				return false;
		} else if (text_is(r, "attributes")) {
			if (!string_members(r, "attributes to be an object", m, sizeof m / sizeof *m, &a))
				return false;
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	if (t != JT_OBJECT_END)
		return scan_fail(r);
	r->k->report->records++;
	enum price_class cls = !strcmp(family, "ComputeSavingsPlans") ? CLASS_COMPUTE :
			       !strcmp(family, "EC2InstanceSavingsPlans") ? CLASS_EC2_INSTANCE : CLASS_ANY;
	if (cls == CLASS_ANY || !sku[0])
		return true;
	struct product *p = products_add(&r->products, sku, strlen(sku));
	p->term = TERM_SAVINGS_PLAN;
	p->offer.cls = cls;
	p->offer.years = import_years(a.term, strlen(a.term));
	p->offer.purchase = import_purchase(a.purchase, strlen(a.purchase));
	snprintf(p->region, sizeof p->region, "%s", a.region);
	return true;
}

struct sp_rate {
	char usage[96], operation[48], service[32], price[40], region[32], type[64], currency[8];
	unsigned long line, col;
};

static bool sp_rate_object(struct jr *r, struct sp_rate *rt)
{
	enum json_tok t;

	memset(rt, 0, sizeof *rt);
	rt->line = json_line(r->s);
	rt->col = json_col(r->s);
	while ((t = json_next(r->s)) == JT_KEY) {
		char *into = text_is(r, "discountedUsageType") ? rt->usage :
			     text_is(r, "discountedOperation") ? rt->operation :
			     text_is(r, "discountedServiceCode") ? rt->service :
			     text_is(r, "discountedRegionCode") ? rt->region :
			     text_is(r, "discountedInstanceType") ? rt->type : NULL;
		size_t cap = into == rt->usage ? sizeof rt->usage : into == rt->operation ? sizeof rt->operation :
			     into == rt->service ? sizeof rt->service : into == rt->region ? sizeof rt->region :
			     sizeof rt->type;
		if (text_is(r, "discountedRate")) {
			if (!expect(r, JT_OBJECT, "discountedRate to be an object"))
				return false;
			while ((t = json_next(r->s)) == JT_KEY) {
				char *v = text_is(r, "price") ? rt->price : text_is(r, "currency") ? rt->currency : NULL;
				size_t vc = v == rt->price ? sizeof rt->price : sizeof rt->currency;
				t = json_next(r->s);
				if (v && t == JT_STRING)
					text_copy(r, v, vc);
				else if (v == rt->price && t == JT_NUMBER)
					return jfail(r, "discountedRate price is not a string (AWS writes prices as strings)");
				else if (!json_skip(r->s, t))
					return scan_fail(r);
			}
			if (t != JT_OBJECT_END)
				return scan_fail(r);
			continue;
		}
		t = json_next(r->s);
		if (into && t == JT_STRING)
			text_copy(r, into, cap);
		else if (!json_skip(r->s, t))
			return scan_fail(r);
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* "USE1-BoxUsage:c5.large" -> "c5.large"; NULL unless shared tenancy. */
static const char *box_type(const char *usage)
{
	const char *colon = strchr(usage, ':'), *dash;
	size_t at = 0;

	if (colon == NULL)
		return NULL;
	dash = memchr(usage, '-', (size_t)(colon - usage));
	if (dash != NULL)
		at = (size_t)(dash - usage) + 1;
	return import_eq(usage + at, (size_t)(colon - usage) - at, "BoxUsage") ? colon + 1 : NULL;
}

/* A term of a Savings Plans offer file, its '{' read. */
static bool sp_term_body(struct jr *r, const char *as_of)
{
	enum json_tok t;
	char sku[80] = "", effective[32] = "";
	const struct product *p = NULL;
	unsigned long line = json_line(r->s), col = json_col(r->s);

	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "sku")) {
			if (!string_member(r, "sku", sku, sizeof sku))
				return false;
			p = products_find(&r->products, sku, strlen(sku));
		} else if (text_is(r, "effectiveDate")) {
			if (!string_member(r, "effectiveDate", effective, sizeof effective))
				return false;
		} else if (text_is(r, "rates")) {
			if (!expect(r, JT_ARRAY, "rates to be an array"))
				return false;
			while ((t = json_next(r->s)) == JT_OBJECT) {
				struct sp_rate rt;
				const char *type;
				if (!sp_rate_object(r, &rt))
					return false;
				if (p == NULL) {
					if (!sku[0])
						return sink_fail(r->k, line, col, "a Savings Plans term whose rates come before its sku");
					continue; /* another kind of plan */
				}
				type = rt.type[0] ? rt.type : box_type(rt.usage);
				if (strcmp(rt.service, "AmazonEC2") || strcmp(rt.operation, "RunInstances") ||
				    !box_type(rt.usage) || !type || (rt.currency[0] && strcmp(rt.currency, "USD")))
					continue;
				const char *region = rt.region[0] ? rt.region : p->region[0] ? p->region : r->region;
				if (!import_region_ok(region, strlen(region)))
					continue; /* no Region named, or a Local Zone */
				if (!import_price_ok(rt.price, strlen(rt.price)))
					return sink_fail(r->k, rt.line, rt.col, "discountedRate price '%s' is not a price (a decimal number)", rt.price);
				if (p->offer.years == 0 || p->offer.purchase == PURCHASE_ANY)
					return sink_fail(r->k, rt.line, rt.col, "Savings Plan %s has no purchaseTerm of 1yr or 3yr and purchase option", sku);
				struct part part = {
					.type = type, .type_len = strlen(type), .region = region,
					.region_len = strlen(region), .offer_id = sku, .offer_len = strlen(sku),
					.value = rt.price, .value_len = strlen(rt.price), .effective = effective,
					.effective_len = strlen(effective), .term = TERM_SAVINGS_PLAN,
					.offer = p->offer, .comp = PART_RATE, .as_of = as_of, .line = rt.line,
				};
				if (!sink_part(r->k, &part))
					return false;
			}
			if (t != JT_ARRAY_END)
				return t == JT_ERROR ? scan_fail(r) : jfail(r, "a rate that is not an object");
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* ---- terms, of either offer file ------------------------------------------- */

static bool terms(struct jr *r)
{
	enum json_tok t;

	if (!expect(r, JT_OBJECT, "terms to be an object"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		bool od = text_is(r, "OnDemand"), res = text_is(r, "Reserved"), sp = text_is(r, "savingsPlan");
		if (od || res) {
			r->ec2 = true;
			if (!ec2_terms_of(r, res, r->k->published))
				return false;
		} else if (sp) {
			r->sp = true;
			if (!expect(r, JT_ARRAY, "savingsPlan to be an array"))
				return false;
			while ((t = json_next(r->s)) != JT_ARRAY_END) {
				if (t != JT_OBJECT)
					return t == JT_ERROR ? scan_fail(r) : jfail(r, "a Savings Plans term that is not an object");
				if (!sp_term_body(r, r->k->published))
					return false;
			}
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	return t == JT_OBJECT_END || scan_fail(r);
}

/* ---- a generic walk, for the small objects of the AWS CLI's outputs ------ */

#define PATH_CAP 160

typedef bool (*leaf_fn)(struct jr *r, const char *path, enum json_tok t, void *ctx);

/* Walks the value whose first token is t, calling fn on each scalar with
 * its path ("GpuInfo.Gpus[].Count"). Depth is the scanner's to bound. */
static bool walk(struct jr *r, enum json_tok t, char *path, size_t plen, leaf_fn fn, void *ctx)
{
	if (t == JT_ERROR)
		return scan_fail(r);
	if (t == JT_OBJECT) {
		while ((t = json_next(r->s)) == JT_KEY) {
			size_t n, np = plen;
			const char *key = json_text(r->s, &n);
			if (np && np < PATH_CAP - 1)
				path[np++] = '.';
			for (size_t i = 0; i < n && np < PATH_CAP - 1; i++)
				path[np++] = key[i];
			path[np] = '\0';
			if (!walk(r, json_next(r->s), path, np, fn, ctx))
				return false;
			path[plen] = '\0';
		}
		return t == JT_OBJECT_END || scan_fail(r);
	}
	if (t == JT_ARRAY) {
		size_t np = plen;
		if (np + 2 < PATH_CAP)
			path[np++] = '[', path[np++] = ']';
		path[np] = '\0';
		while ((t = json_next(r->s)) != JT_ARRAY_END)
			if (!walk(r, t, path, np, fn, ctx))
				return false;
		path[plen] = '\0';
		return true;
	}
	return fn(r, path, t, ctx);
}

static double leaf_number(struct jr *r)
{
	size_t n;
	const char *t = json_text(r->s, &n);
	char buf[48];

	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, t, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

/* ---- aws ec2 describe-spot-price-history ---------------------------------- */

struct spot {
	char zone[48], type[64], product[48], price[40], time[48];
	bool price_not_string;
};

static bool spot_leaf(struct jr *r, const char *path, enum json_tok t, void *ctx)
{
	struct spot *sp = ctx;
	char *into = !strcmp(path, "AvailabilityZone") ? sp->zone : !strcmp(path, "InstanceType") ? sp->type :
		     !strcmp(path, "ProductDescription") ? sp->product : !strcmp(path, "SpotPrice") ? sp->price :
		     !strcmp(path, "Timestamp") ? sp->time : NULL;
	size_t cap = into == sp->zone ? sizeof sp->zone : into == sp->type ? sizeof sp->type :
		     into == sp->product ? sizeof sp->product : into == sp->price ? sizeof sp->price : sizeof sp->time;

	if (into == sp->price && t == JT_NUMBER)
		sp->price_not_string = true;
	if (into && t == JT_STRING)
		text_copy(r, into, cap);
	return true;
}

/* An ISO 8601 time with a zone ("2026-09-01T12:00:00+00:00",
 * "2026-09-01T12:00:00.000Z") as UTC, "YYYY-MM-DDTHH:MM:SSZ". */
static bool utc_time(const char *s, char out[21])
{
	int y, mo, d, h, mi, sec, n = 0;
	struct tm tm = { 0 };
	time_t t;
	const char *z;

	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 || n != 19 ||
	    y < 2000 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return false;
	z = s + 19;
	if (*z == '.')
		for (z++; *z >= '0' && *z <= '9'; z++)
			;
	tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d;
	tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = sec;
	t = timegm(&tm);
	if (!strcmp(z, "Z") || !strcmp(z, "+00:00") || !strcmp(z, "-00:00")) {
		;
	} else {
		int zh, zm, zn = 0;
		if ((z[0] != '+' && z[0] != '-') || sscanf(z + 1, "%2d:%2d%n", &zh, &zm, &zn) != 2 || zn != 5 ||
		    z[6] != '\0' || zh > 14 || zm > 59)
			return false;
		t -= (z[0] == '+' ? 1 : -1) * (time_t)(zh * 3600 + zm * 60);
	}
	gmtime_r(&t, &tm);
	strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return true;
}

static bool spot_history(struct jr *r)
{
	enum json_tok t;
	char path[PATH_CAP];

	r->spot = true;
	if (!expect(r, JT_ARRAY, "SpotPriceHistory to be an array"))
		return false;
	while ((t = json_next(r->s)) == JT_OBJECT) {
		struct spot sp = { 0 };
		unsigned long line = json_line(r->s), col = json_col(r->s);
		char when[21];
		size_t zl;
		path[0] = '\0';
		r->k->report->records++;
		if (!walk(r, t, path, 0, spot_leaf, &sp))
			return false;
		if (strcmp(sp.product, "Linux/UNIX") && strcmp(sp.product, "Linux/UNIX (Amazon VPC)")) {
			if (!sp.product[0])
				return sink_fail(r->k, line, col, "a spot price without ProductDescription");
			continue;
		}
		if (sp.price_not_string)
			return sink_fail(r->k, line, col, "SpotPrice is not a string (the AWS CLI writes it as one)");
		if (!import_price_ok(sp.price, strlen(sp.price)))
			return sink_fail(r->k, line, col, "SpotPrice '%s' is not a price (a decimal number)", sp.price);
		if (!utc_time(sp.time, when))
			return sink_fail(r->k, line, col, "Timestamp '%s' is not an ISO 8601 time with its zone", sp.time);
		/* the Region is the zone less its letter: us-east-1a -> us-east-1 */
		zl = strlen(sp.zone);
		while (zl > 0 && sp.zone[zl - 1] >= 'a' && sp.zone[zl - 1] <= 'z')
			zl--;
		if (zl == 0 || zl == strlen(sp.zone))
			return sink_fail(r->k, line, col, "AvailabilityZone '%s' is not a zone of a Region", sp.zone);
		if (!import_region_ok(sp.zone, zl))
			continue; /* a Local Zone's price */
		struct part p = {
			.type = sp.type, .type_len = strlen(sp.type), .region = sp.zone, .region_len = zl,
			.zone = sp.zone, .zone_len = strlen(sp.zone), .offer_id = when, .offer_len = strlen(when),
			.value = sp.price, .value_len = strlen(sp.price), .term = TERM_SPOT, .comp = PART_RATE,
			.as_of = when, .line = line,
		};
		if (!catalog_name_plausible(p.type, p.type_len))
			return sink_fail(r->k, line, col, "InstanceType '%s' is not an EC2 instance type", sp.type);
		if (!sink_part(r->k, &p))
			return false;
	}
	if (t != JT_ARRAY_END)
		return t == JT_ERROR ? scan_fail(r) : jfail(r, "a spot price that is not an object");
	return true;
}

/* ---- aws ec2 describe-instance-types -------------------------------------- */

struct figs {
	char type[64], gpu_name[48], gpu_maker[32], neuron_name[48], inf_name[48], net_perf[48];
	double vcpus, mem, gpu_count, gpu_mem, neuron_count, neuron_cores, neuron_mem, inf_count;
	double max_efa, net_gbps;
	int efa; /* -1 unknown */
	bool arm, x86, gpu_set, neuron_set, inf_set;
};

static bool figs_leaf(struct jr *r, const char *path, enum json_tok t, void *ctx)
{
	struct figs *f = ctx;
	double v = t == JT_NUMBER ? leaf_number(r) : -1;

	if (!strcmp(path, "InstanceType") && t == JT_STRING)
		text_copy(r, f->type, sizeof f->type);
	else if (!strcmp(path, "VCpuInfo.DefaultVCpus"))
		f->vcpus = v;
	else if (!strcmp(path, "MemoryInfo.SizeInMiB"))
		f->mem = v;
	else if (!strcmp(path, "ProcessorInfo.SupportedArchitectures[]") && t == JT_STRING) {
		f->arm |= text_is(r, "arm64");
		f->x86 |= text_is(r, "x86_64");
	} else if (!strncmp(path, "GpuInfo.Gpus[].", 15) && !f->gpu_set) {
		const char *k = path + 15;
		if (!strcmp(k, "Name") && t == JT_STRING)
			text_copy(r, f->gpu_name, sizeof f->gpu_name);
		else if (!strcmp(k, "Manufacturer") && t == JT_STRING)
			text_copy(r, f->gpu_maker, sizeof f->gpu_maker);
		else if (!strcmp(k, "Count"))
			f->gpu_count = v;
		else if (!strcmp(k, "MemoryInfo.SizeInMiB"))
			f->gpu_mem = v;
	} else if (!strncmp(path, "NeuronInfo.NeuronDevices[].", 27) && !f->neuron_set) {
		const char *k = path + 27;
		if (!strcmp(k, "Name") && t == JT_STRING)
			text_copy(r, f->neuron_name, sizeof f->neuron_name);
		else if (!strcmp(k, "Count"))
			f->neuron_count = v;
		else if (!strcmp(k, "CoreInfo.Count"))
			f->neuron_cores = v;
		else if (!strcmp(k, "MemoryInfo.SizeInMiB"))
			f->neuron_mem = v;
	} else if (!strncmp(path, "InferenceAcceleratorInfo.Accelerators[].", 40) && !f->inf_set) {
		const char *k = path + 40;
		if (!strcmp(k, "Name") && t == JT_STRING)
			text_copy(r, f->inf_name, sizeof f->inf_name);
		else if (!strcmp(k, "Count"))
			f->inf_count = v;
	} else if (!strcmp(path, "NetworkInfo.EfaSupported")) {
		f->efa = t == JT_TRUE ? 1 : t == JT_FALSE ? 0 : f->efa;
	} else if (!strcmp(path, "NetworkInfo.EfaInfo.MaximumEfaInterfaces")) {
		f->max_efa = v;
	} else if (!strcmp(path, "NetworkInfo.NetworkCards[].PeakBandwidthInGbps") && v >= 0) {
		f->net_gbps = (f->net_gbps < 0 ? 0 : f->net_gbps) + v;
	} else if (!strcmp(path, "NetworkInfo.NetworkPerformance") && t == JT_STRING) {
		text_copy(r, f->net_perf, sizeof f->net_perf);
	}
	/* the first GPU, Neuron device or accelerator entry names the kind */
	if (!strcmp(path, "GpuInfo.Gpus[].MemoryInfo.SizeInMiB"))
		f->gpu_set = true;
	return true;
}

static const char *neuron_kind(const char *name)
{
	return !strcmp(name, "Trainium") ? "trainium" : !strcmp(name, "Trainium2") ? "trainium2" :
	       !strcmp(name, "Trainium3") ? "trainium3" : !strcmp(name, "Inferentia2") ? "inferentia2" :
	       !strcmp(name, "Inferentia") ? "inferentia" : "other";
}

/* A whole number >= 0 from the API, or false. */
static bool whole(double v, long *out)
{
	if (!(v >= 0 && v < 1e12) || v != (double)(long)v)
		return false;
	*out = (long)v;
	return true;
}

static void figs_text(const struct figs *f, struct buf *b)
{
	long n, m;
	const char *kind = NULL, *model = NULL;

#define PUT(key, fmt, v) buf_printf(b, "%s" key "=" fmt, b->len ? ";" : "", v)
	if (whole(f->vcpus, &n))
		PUT("vcpus", "%ld", n);
	if (whole(f->mem, &n))
		PUT("memory_mib", "%ld", n);
	if (f->arm || f->x86)
		PUT("arch", "%s", f->arm ? "arm64" : "x86_64");
	if (f->gpu_name[0]) {
		kind = !strcmp(f->gpu_maker, "NVIDIA") ? "nvidia-gpu" : !strcmp(f->gpu_maker, "AMD") ? "amd-gpu" : "other";
		model = f->gpu_name;
		PUT("accel", "%s", kind);
		PUT("accel_model", "%s", model);
		if (whole(f->gpu_count, &n) && n > 0)
			PUT("accel_count", "%ld", n);
		if (!strcmp(kind, "nvidia-gpu") && whole(f->gpu_mem, &n) && n > 0)
			PUT("gpu_memory_mib", "%ld", n);
	} else if (f->neuron_name[0]) {
		PUT("accel", "%s", neuron_kind(f->neuron_name));
		PUT("accel_model", "%s", f->neuron_name);
		if (whole(f->neuron_count, &n) && n > 0) {
			PUT("accel_count", "%ld", n);
			if (whole(f->neuron_cores, &m) && m > 0)
				PUT("neuron_cores", "%ld", n * m);
			if (whole(f->neuron_mem, &m) && m > 0)
				PUT("accel_memory_gib", "%ld", n * m / 1024);
		}
	} else if (f->inf_name[0]) {
		PUT("accel", "%s", neuron_kind(f->inf_name));
		PUT("accel_model", "%s", f->inf_name);
		if (whole(f->inf_count, &n) && n > 0)
			PUT("accel_count", "%ld", n);
	} else if (f->vcpus >= 0) {
		PUT("accel", "%s", "none");
	}
	if (f->efa >= 0)
		PUT("efa", "%s", f->efa ? "yes" : "no");
	if (f->efa == 1 && whole(f->max_efa, &n) && n > 0)
		PUT("max_efa_interfaces", "%ld", n);
	if (f->net_gbps > 0)
		PUT("network_mbps", "%ld", (long)(f->net_gbps * 1000 + 0.5));
	else if (f->net_perf[0] && strtod(f->net_perf + strcspn(f->net_perf, "0123456789"), NULL) > 0)
		PUT("network_mbps", "%ld", (long)(strtod(f->net_perf + strcspn(f->net_perf, "0123456789"), NULL) * 1000 + 0.5));
#undef PUT
}

static bool instance_types(struct jr *r)
{
	enum json_tok t;
	char path[PATH_CAP];
	struct buf b = BUF_INIT;

	r->types = true;
	if (!expect(r, JT_ARRAY, "InstanceTypes to be an array"))
		return false;
	while ((t = json_next(r->s)) == JT_OBJECT) {
		struct figs f = { .vcpus = -1, .mem = -1, .gpu_count = -1, .gpu_mem = -1, .neuron_count = -1,
				  .neuron_cores = -1, .neuron_mem = -1, .inf_count = -1, .max_efa = -1,
				  .net_gbps = -1, .efa = -1 };
		unsigned long line = json_line(r->s), col = json_col(r->s);
		path[0] = '\0';
		r->k->report->records++;
		if (!walk(r, t, path, 0, figs_leaf, &f)) {
			buf_free(&b);
			return false;
		}
		if (!f.type[0]) {
			buf_free(&b);
			return sink_fail(r->k, line, col, "an instance type without InstanceType");
		}
		buf_reset(&b);
		figs_text(&f, &b);
		if (b.len == 0)
			continue;
		if (!sink_figures(r->k, f.type, strlen(f.type), r->k->published, b.p, line)) {
			buf_free(&b);
			return false;
		}
	}
	buf_free(&b);
	if (t != JT_ARRAY_END)
		return t == JT_ERROR ? scan_fail(r) : jfail(r, "an instance type that is not an object");
	return true;
}

/* ---- aws pricing get-products ---------------------------------------------- */

/* One PriceList item: a JSON document inside a JSON string. Read twice:
 * its product and date first (they may follow its terms), then its terms. */
static bool price_item(struct jr *outer, const char *text, size_t len)
{
	struct jr r = { .k = outer->k, .s = json_scan_mem(text, len) };
	struct attrs a;
	struct product p = { 0 };
	char sku[80] = "", date[32] = "", published[11];
	enum json_tok t;
	bool ok = false, kept = false, ec2 = false;

	snprintf(published, sizeof published, "%s", outer->k->published);
	if (!expect(&r, JT_OBJECT, "a PriceList item to be an object"))
		goto out;
	while ((t = json_next(r.s)) == JT_KEY) {
		if (text_is(&r, "product")) {
			if (!ec2_product(&r, "", 0, &a))
				goto out;
			kept = ec2_kept(&a);
		} else if (text_is(&r, "publicationDate")) {
			if (!string_member(&r, "publicationDate", date, sizeof date))
				goto out;
		} else if (text_is(&r, "serviceCode")) {
			char code[32];
			if (!string_member(&r, "serviceCode", code, sizeof code))
				goto out;
			ec2 = !strcmp(code, "AmazonEC2");
		} else if (!json_skip(r.s, json_next(r.s))) {
			scan_fail(&r);
			goto out;
		}
	}
	if (t != JT_OBJECT_END || json_next(r.s) != JT_END) {
		scan_fail(&r);
		goto out;
	}
	if (!ec2 || !kept) {
		ok = true; /* another service, or a product not kept */
		goto out;
	}
	if (date[0] && !import_date(date, strlen(date), published)) {
		jfail(&r, "publicationDate '%s' is not a date", date);
		goto out;
	}
	if (!catalog_name_plausible(a.type, strlen(a.type)) || !import_region_ok(a.region, strlen(a.region))) {
		jfail(&r, "instanceType '%s' and regionCode '%s' are not an EC2 type and an AWS Region", a.type, a.region);
		goto out;
	}
	snprintf(p.type, sizeof p.type, "%s", a.type);
	snprintf(p.region, sizeof p.region, "%s", a.region);
	json_rewind(r.s);
	json_next(r.s);
	while ((t = json_next(r.s)) == JT_KEY) {
		if (!text_is(&r, "terms")) {
			json_skip(r.s, json_next(r.s));
			continue;
		}
		if (!expect(&r, JT_OBJECT, "terms to be an object"))
			goto out;
		while ((t = json_next(r.s)) == JT_KEY) {
			bool res = text_is(&r, "Reserved");
			if (!res && !text_is(&r, "OnDemand")) {
				json_skip(r.s, json_next(r.s));
				continue;
			}
			if (!expect(&r, JT_OBJECT, "an object of offers"))
				goto out;
			while ((t = json_next(r.s)) == JT_KEY) {
				char code[80];
				const char *dot;
				struct offer o;
				text_copy(&r, code, sizeof code);
				dot = strchr(code, '.');
				snprintf(sku, sizeof sku, "%.*s", dot ? (int)(dot - code) : (int)strlen(code), code);
				if (!offer_object(&r, &o) ||
				    !offer_parts(&r, &p, res, sku, dot ? dot + 1 : code, &o, published))
					goto out;
			}
		}
	}
	ok = true;
out:
	products_free(&r.products);
	json_scan_free(r.s);
	return ok;
}

static bool get_products(struct jr *r)
{
	enum json_tok t;
	unsigned long index = 0;

	r->get_products = true;
	if (!expect(r, JT_ARRAY, "PriceList to be an array"))
		return false;
	while ((t = json_next(r->s)) == JT_STRING) {
		size_t n;
		const char *text = json_text(r->s, &n);
		char *copy = xmalloc(n + 1);
		unsigned long line = json_line(r->s), col = json_col(r->s);
		struct buf inner = BUF_INIT, *saved = r->k->err;
		bool ok;
		memcpy(copy, text, n);
		copy[n] = '\0';
		r->k->report->records++;
		r->k->err = &inner;
		ok = price_item(r, copy, n);
		r->k->err = saved;
		free(copy);
		if (!ok) {
			/* the item's own position, inside the string, goes into the message */
			const char *msg = inner.p ? inner.p : "";
			const char *rest = strchr(msg, ':');
			r->k->failed = false;
			sink_fail(r->k, line, col, "PriceList[%lu], at %s", index, rest ? rest + 1 : msg);
			buf_free(&inner);
			return false;
		}
		buf_free(&inner);
		index++;
	}
	if (t != JT_ARRAY_END)
		return t == JT_ERROR ? scan_fail(r) : jfail(r, "a PriceList item that is not a JSON string (the AWS CLI writes each as one)");
	return true;
}

/* ---- the top level ----------------------------------------------------------- */

static bool top_level(struct jr *r)
{
	enum json_tok t;

	if (!expect(r, JT_OBJECT, "a JSON object at the top of the file"))
		return false;
	while ((t = json_next(r->s)) == JT_KEY) {
		if (text_is(r, "products")) {
			if (r->second_pass) {
				if (!json_skip(r->s, json_next(r->s)))
					return scan_fail(r);
				continue;
			}
			r->seen_products = true;
			t = json_next(r->s);
			if (t == JT_OBJECT) {
				r->ec2 = true;
				if (!ec2_products(r))
					return false;
			} else if (t == JT_ARRAY) {
				r->sp = true;
				while ((t = json_next(r->s)) == JT_OBJECT)
					if (!sp_product_body(r))
						return false;
				if (t != JT_ARRAY_END)
					return t == JT_ERROR ? scan_fail(r) : jfail(r, "a product that is not an object");
			} else {
				return t == JT_ERROR ? scan_fail(r) : jfail(r, "products is neither an object nor an array");
			}
		} else if (text_is(r, "terms")) {
			if (!r->seen_products) {
				/* terms before products: read them on a second pass */
				r->terms_first = true;
				if (!json_skip(r->s, json_next(r->s)))
					return scan_fail(r);
				continue;
			}
			r->seen_terms = true;
			if (!terms(r))
				return false;
		} else if (text_is(r, "publicationDate")) {
			char date[40];
			if (!string_member(r, "publicationDate", date, sizeof date))
				return false;
			if (!import_date(date, strlen(date), r->k->published))
				return jfail(r, "publicationDate '%s' is not a date", date);
			snprintf(r->k->report->published, sizeof r->k->report->published, "%s", r->k->published);
		} else if (text_is(r, "offerCode")) {
			if (!string_member(r, "offerCode", r->offer_code, sizeof r->offer_code))
				return false;
			/* Savings Plans files are documented without one; accepted as
			 * the CSV's preamble names them */
			if (strcmp(r->offer_code, "AmazonEC2") && strcmp(r->offer_code, "AWSComputeSavingsPlan") &&
			    strcmp(r->offer_code, "AmazonComputeSavingsPlan"))
				return jfail(r, "the offer is '%s', not AmazonEC2: EC2 instance prices are in the AmazonEC2 offer file", r->offer_code);
		} else if (!r->second_pass && text_is(r, "regionCode")) {
			if (!string_member(r, "regionCode", r->region, sizeof r->region))
				return false;
		} else if (!r->second_pass && text_is(r, "PriceList")) {
			if (!get_products(r))
				return false;
		} else if (!r->second_pass && text_is(r, "SpotPriceHistory")) {
			if (!spot_history(r))
				return false;
		} else if (!r->second_pass && text_is(r, "InstanceTypes")) {
			if (!instance_types(r))
				return false;
		} else if (!json_skip(r->s, json_next(r->s))) {
			return scan_fail(r);
		}
	}
	if (t != JT_OBJECT_END)
		return scan_fail(r);
	if (json_next(r->s) != JT_END)
		return scan_fail(r);
	return true;
}

bool import_json(struct sink *k, int fd)
{
	struct jr r = { .k = k, .s = json_scan_fd(fd) };
	bool ok = top_level(&r);
	const char *format;

	if (ok && r.terms_first) {
		/* the products are known now: read the terms */
		if (!json_rewind(r.s)) {
			ok = sink_fail(k, 1, 1, "the terms come before the products and the file cannot be read twice");
		} else {
			r.second_pass = true;
			r.seen_products = true;
			ok = top_level(&r);
		}
	}
	format = r.get_products ? "get-products" : r.spot ? "spot-price-history" :
		 r.types ? "instance-types" : r.sp ? "savings-plans-json" : r.ec2 ? "price-list-json" : NULL;
	if (ok && format == NULL)
		ok = sink_fail(k, 1, 1, "not a file trainforge imports: its top level has none of products and terms (a Price List or Savings Plans offer file), PriceList (aws pricing get-products), SpotPriceHistory (aws ec2 describe-spot-price-history) or InstanceTypes (aws ec2 describe-instance-types)");
	if (format)
		snprintf(k->report->format, sizeof k->report->format, "%s", format);
	if (!k->report->published[0] && (r.ec2 || r.sp))
		snprintf(k->report->published, sizeof k->report->published, "%s", k->published);
	products_free(&r.products);
	json_scan_free(r.s);
	return ok && !k->failed;
}
