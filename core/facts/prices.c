/* Price lookups over the built-in catalog and the user's store: the
 * newer of the two for a type, region and term (prices.h). */
#include "prices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "catalog_overlay.h"
#include "price_store.h"
#include "xalloc.h"

/* Hours AWS bills a year of a reservation for: 365 days. */
#define HOURS_PER_YEAR 8760.0

static struct {
	bool chosen, opened;
	char *path;
	struct price_store *store;
	const char *problem;
} g;

void prices_use_store(const char *path)
{
	prices_release();
	g.chosen = true;
	g.path = path ? xstrdup(path) : NULL;
}

const char *prices_store_in_use(void)
{
	return g.path;
}

const struct price_store *prices_store(void)
{
	if (!g.opened && g.path != NULL) {
		bool missing;
		g.opened = true;
		g.store = price_store_open(g.path, &g.problem, &missing);
		if (missing)
			g.problem = NULL; /* nothing imported yet */
	}
	return g.store;
}

const char *prices_store_problem(void)
{
	prices_store();
	return g.problem;
}

void prices_release(void)
{
	/* the overlay is made from a store only: without one its memory was
	 * never touched, and a run need not fault its pages in to clear them */
	if (g.store != NULL)
		catalog_overlay_release();
	price_store_close(g.store);
	free(g.path);
	memset(&g, 0, sizeof g);
}

/* ---- dates -------------------------------------------------------------- */

void prices_today(char out[11])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t now = time(NULL);
	struct tm tm;

	if (epoch != NULL && *epoch != '\0') {
		char *end;
		long long v = strtoll(epoch, &end, 10);
		if (*end == '\0' && v >= 0)
			now = (time_t)v;
	}
	gmtime_r(&now, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool parse_date(const char *s, long *days)
{
	int y, m, d, n = 0;

	if (s == NULL || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10 ||
	    m < 1 || m > 12 || d < 1 || d > 31)
		return false;
	*days = days_from_civil(y, m, d);
	return true;
}

long prices_age_days(const char *date)
{
	char today[11];
	long a, b;

	prices_today(today);
	if (!parse_date(date, &a) || !parse_date(today, &b))
		return -1;
	return b - a < 0 ? 0 : b - a;
}

/* ---- names -------------------------------------------------------------- */

const char *price_term_name(enum price_term t)
{
	static const char *const names[TERM__COUNT] = {
		"on-demand", "reserved", "savings-plan", "spot", "capacity-block",
	};
	return (unsigned)t < TERM__COUNT ? names[t] : "?";
}

const char *price_purchase_name(enum price_purchase p)
{
	static const char *const names[] = { "any", "no-upfront", "partial-upfront", "all-upfront" };
	return (unsigned)p < 4 ? names[p] : "?";
}

const char *price_class_name(enum price_class c)
{
	static const char *const names[] = { "any", "standard", "convertible", "compute", "ec2-instance" };
	return (unsigned)c < 5 ? names[c] : "?";
}

void price_offer_resolve(enum price_term term, const struct price_offer *in, struct price_offer *out)
{
	*out = in ? *in : (struct price_offer){ 0 };
	if (out->years != 3)
		out->years = 1;
	if (out->purchase == PURCHASE_ANY)
		out->purchase = PURCHASE_NO_UPFRONT;
	if (out->cls == CLASS_ANY)
		out->cls = term == TERM_SAVINGS_PLAN ? CLASS_COMPUTE : CLASS_STANDARD;
}

void price_offer_variant(const struct price_offer *o, char *out, size_t cap)
{
	snprintf(out, cap, "%dyr/%s/%s", o->years, price_purchase_name(o->purchase),
		 price_class_name(o->cls));
}

void price_offer_text(enum price_term term, const struct price_offer *o, char *out, size_t cap)
{
	struct price_offer r;

	price_offer_resolve(term, o, &r);
	if (term == TERM_SAVINGS_PLAN)
		snprintf(out, cap, "%d-year %s %s Savings Plan", r.years, price_purchase_name(r.purchase),
			 r.cls == CLASS_EC2_INSTANCE ? "EC2 Instance" : "Compute");
	else
		snprintf(out, cap, "%d-year %s %s Reserved Instance", r.years,
			 price_purchase_name(r.purchase), price_class_name(r.cls));
}

void price_origin_text(const struct price *p, char *out, size_t cap)
{
	long age = prices_age_days(p->as_of);
	char days[32] = "";

	if (age >= 0)
		snprintf(days, sizeof days, ", %ld day%s old", age, age == 1 ? "" : "s");
	switch (p->origin) {
	case ORIGIN_NONE:
		snprintf(out, cap, "unknown");
		return;
	case ORIGIN_SPEC:
		snprintf(out, cap, "the job spec's own price (%s)", p->source ? p->source : "?");
		return;
	case ORIGIN_IMPORTED:
		snprintf(out, cap, "imported from %s (%s, as of %s%s%s%s, imported %s)",
			 p->source ? p->source : "?", p->format ? p->format : "?", p->as_of, days,
			 p->effective[0] ? ", effective " : "", p->effective, p->imported);
		return;
	case ORIGIN_BUILTIN:
		snprintf(out, cap, "built in, as of %s%s: %s", p->as_of, days, p->source ? p->source : "?");
		return;
	}
}

/* ---- lookups ------------------------------------------------------------ */

static void unknown(struct price *out, const char *region, enum price_term term,
		    const struct price_offer *offer)
{
	memset(out, 0, sizeof *out);
	out->term = term;
	price_offer_resolve(term, offer, &out->offer);
	snprintf(out->region, sizeof out->region, "%s", region ? region : "");
	out->usd_per_hour = out->hourly_usd = out->upfront_usd = out->low_usd = -1;
}

static void copy_date(char out[11], const char *p, size_t n)
{
	n = n >= 10 ? 10 : 0; /* a timestamp's date; anything else is no date */
	memcpy(out, p, n);
	out[n] = '\0';
}

static double number(const char *p, size_t n)
{
	char buf[40];
	char *end;
	double v;

	if (n == 0 || n >= sizeof buf || (n == 1 && p[0] == '-'))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	v = strtod(buf, &end);
	return *end == '\0' && v >= 0 ? v : -1;
}

static bool builtin(const struct instance_type *t, const char *region, enum price_term term,
		    struct price *out)
{
	double usd = -1;
	const char *r = NULL, *date = NULL, *src = NULL;

	switch (term) {
	case TERM_ON_DEMAND:
		usd = t->price_on_demand, r = t->price_region, date = t->price_date, src = t->price_source;
		break;
	case TERM_SPOT:
		usd = t->price_spot, r = t->price_spot_region, date = t->price_spot_date,
		src = t->price_spot_source;
		break;
	case TERM_RESERVED:
		/* the catalog's reserved figure states no offer: only the default */
		if (out->offer.years == 1 && out->offer.purchase == PURCHASE_NO_UPFRONT &&
		    out->offer.cls == CLASS_STANDARD)
			usd = t->price_reserved, r = t->price_reserved_region,
			date = t->price_reserved_date, src = t->price_reserved_source;
		break;
	case TERM_CAPACITY_BLOCK: {
		const struct catalog_price *cb = catalog_capacity_block(t, region, NULL);
		if (cb)
			usd = cb->usd_per_hour, r = cb->region, date = cb->date, src = cb->source;
		break;
	}
	default:
		break;
	}
	if (usd < 0 || r == NULL || strcmp(r, region) != 0)
		return false;
	out->usd_per_hour = out->hourly_usd = usd;
	out->origin = ORIGIN_BUILTIN;
	out->source = src;
	copy_date(out->as_of, date ? date : "", date ? strlen(date) : 0);
	return true;
}

struct find {
	const char *region;
	enum price_term term;
	char variant[48];
	struct price best;       /* ORIGIN_NONE until found */
	/* spot: the zone whose latest line is held in zone_* */
	char zone[32];
	double zone_usd;
	char zone_as_of[32];
	unsigned zone_source;
	bool have_zone;
	double high, low;
	int zones;
	char latest[32];
	unsigned latest_source;
};

static void store_fill(struct price *p, const struct price_line *l)
{
	const struct price_store_source *src = price_store_source(prices_store(), l->source);

	p->origin = ORIGIN_IMPORTED;
	p->source = src ? src->file : "?";
	p->format = src ? src->format : "?";
	snprintf(p->imported, sizeof p->imported, "%s", src ? src->imported : "");
	copy_date(p->as_of, l->as_of, l->as_of_len);
	if (l->effective_len == 10)
		copy_date(p->effective, l->effective, l->effective_len);
	else
		p->effective[0] = '\0';
}

static void zone_close(struct find *f)
{
	if (!f->have_zone)
		return;
	f->zones++;
	if (f->zone_usd > f->high)
		f->high = f->zone_usd;
	if (f->low < 0 || f->zone_usd < f->low)
		f->low = f->zone_usd;
	if (strcmp(f->zone_as_of, f->latest) > 0) {
		snprintf(f->latest, sizeof f->latest, "%s", f->zone_as_of);
		f->latest_source = f->zone_source;
	}
	f->have_zone = false;
}

static bool store_line(const struct price_line *l, void *ctx)
{
	struct find *f = ctx;
	double usd;

	if (!price_field_is(l->region, l->region_len, f->region) ||
	    !price_field_is(l->kind, l->kind_len, price_term_name(f->term)))
		return true;
	usd = number(l->usd, l->usd_len);
	if (usd < 0)
		return true;
	if (f->term == TERM_SPOT) {
		/* lines by zone, then time: the last of a zone is its latest */
		if (f->have_zone && !(l->variant_len == strlen(f->zone) &&
				      memcmp(l->variant, f->zone, l->variant_len) == 0))
			zone_close(f);
		if (l->variant_len >= sizeof f->zone || l->as_of_len >= sizeof f->zone_as_of)
			return true;
		memcpy(f->zone, l->variant, l->variant_len);
		f->zone[l->variant_len] = '\0';
		memcpy(f->zone_as_of, l->as_of, l->as_of_len);
		f->zone_as_of[l->as_of_len] = '\0';
		f->zone_usd = usd;
		f->zone_source = l->source;
		f->have_zone = true;
		return true;
	}
	if ((f->term == TERM_RESERVED || f->term == TERM_SAVINGS_PLAN) &&
	    !price_field_is(l->variant, l->variant_len, f->variant))
		return true;
	/* lines of one key by as-of: a later one replaces */
	f->best.usd_per_hour = usd;
	f->best.hourly_usd = number(l->hourly, l->hourly_len);
	f->best.upfront_usd = number(l->upfront, l->upfront_len);
	store_fill(&f->best, l);
	return true;
}

bool price_find(const char *type, const char *region, enum price_term term,
		const struct price_offer *offer, struct price *out)
{
	const struct price_store *s = prices_store();
	const struct instance_type *t;
	struct price built;
	struct find f;

	unknown(out, region, term, offer);
	if (type == NULL || region == NULL || (unsigned)term >= TERM__COUNT)
		return false;
	built = *out;
	t = catalog_find(type, strlen(type));
	if (t == NULL || !builtin(t, region, term, &built))
		built.origin = ORIGIN_NONE;
	memset(&f, 0, sizeof f);
	f.region = region;
	f.term = term;
	f.best = *out;
	f.high = -1;
	f.low = -1;
	price_offer_variant(&out->offer, f.variant, sizeof f.variant);
	if (s != NULL)
		price_store_each(s, type, strlen(type), store_line, &f);
	if (term == TERM_SPOT) {
		zone_close(&f);
		if (f.zones > 0) {
			struct price_line l = { .as_of = f.latest, .as_of_len = strlen(f.latest),
						.effective = "-", .effective_len = 1,
						.source = f.latest_source };
			f.best.usd_per_hour = f.best.hourly_usd = f.high;
			f.best.low_usd = f.low;
			f.best.zones = f.zones;
			store_fill(&f.best, &l);
		}
	}
	/* the newer wins; the store, which the user chose to import, on a tie */
	if (f.best.origin == ORIGIN_IMPORTED &&
	    (built.origin == ORIGIN_NONE || strcmp(f.best.as_of, built.as_of) >= 0))
		*out = f.best;
	else if (built.origin != ORIGIN_NONE)
		*out = built;
	return out->origin != ORIGIN_NONE;
}
