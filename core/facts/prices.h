/* What an instance-hour costs: one price per type, region and term, with
 * where it came from and how old it is. Two places hold prices: the
 * catalog built into the program (on-demand in us-east-1 for every type,
 * Capacity Block rates from AWS's page) and the user's price store, which
 * `trainforge prices import` fills from AWS's own files (price_store.h).
 * For the same type, region and term the newer of the two wins, the
 * store on a tie; unknown is unknown (usd_per_hour < 0), never zero.
 * docs/prices.md has the rules and the formats. */
#ifndef TF_PRICES_H
#define TF_PRICES_H

#include <stdbool.h>
#include <stddef.h>

enum price_term {
	TERM_ON_DEMAND, TERM_RESERVED, TERM_SAVINGS_PLAN, TERM_SPOT, TERM_CAPACITY_BLOCK,
	TERM__COUNT
};

enum price_purchase { PURCHASE_ANY, PURCHASE_NO_UPFRONT, PURCHASE_PARTIAL, PURCHASE_ALL };

/* Reserved Instances: standard or convertible; Savings Plans: compute or
 * EC2 instance (one family in one region). */
enum price_class { CLASS_ANY, CLASS_STANDARD, CLASS_CONVERTIBLE, CLASS_COMPUTE, CLASS_EC2_INSTANCE };

/* Which reserved offer: all zeros is the default, 1 year, no upfront,
 * standard (a Savings Plan: compute). */
struct price_offer {
	int years; /* 1 or 3; 0: the default */
	enum price_purchase purchase;
	enum price_class cls;
};

enum price_origin { ORIGIN_NONE, ORIGIN_BUILTIN, ORIGIN_IMPORTED, ORIGIN_SPEC };

struct price {
	enum price_term term;
	struct price_offer offer;       /* reserved and Savings Plans, resolved */
	char region[32];
	double usd_per_hour;            /* one instance; hourly + upfront over the term; < 0 unknown */
	double hourly_usd, upfront_usd; /* the parts, < 0 when the source gives none */
	/* spot: the highest of the zones' latest prices (a subnet's zone is not
	 * known offline), with the lowest and how many zones */
	double low_usd;
	int zones;
	enum price_origin origin;
	/* built-in: "title <location> (date)"; imported: the file as given to
	 * `prices import`; spec: the key */
	const char *source;
	const char *format;             /* imported: price-list-csv, spot-price-history, ... */
	char as_of[11];                 /* YYYY-MM-DD the price was known to hold */
	char effective[11];             /* YYYY-MM-DD it took effect; "" unknown */
	char imported[11];              /* YYYY-MM-DD of the import; "" built-in */
};

/* The price of one instance-hour of type in region for term; for
 * reserved and Savings Plans, of offer (NULL: the default). False, with
 * out->usd_per_hour -1 and origin ORIGIN_NONE, when neither the catalog
 * nor the store has one. */
bool price_find(const char *type, const char *region, enum price_term term,
		const struct price_offer *offer, struct price *out);

/* The store a run reads: path, or NULL for none (--isolated). Opened on
 * first use; a missing file is an empty store. Call once, before any
 * lookup; prices_release closes it. */
void prices_use_store(const char *path);
const char *prices_store_in_use(void);
/* Why the store named could not be read (static text), or NULL. */
const char *prices_store_problem(void);
struct price_store;
const struct price_store *prices_store(void);
void prices_release(void);

/* Today as YYYY-MM-DD: $SOURCE_DATE_EPOCH when set (reproducible
 * outputs, as reproducible builds use it), else the clock (UTC). */
void prices_today(char out[11]);
/* Whole days from date (YYYY-MM-DD) to today; -1 when date is not one. */
long prices_age_days(const char *date);

const char *price_term_name(enum price_term t);     /* "on-demand", "reserved", ... */
const char *price_purchase_name(enum price_purchase p); /* "no-upfront", ... */
const char *price_class_name(enum price_class c);   /* "standard", "compute", ... */
/* The store's variant of an offer: "1yr/no-upfront/standard". */
void price_offer_variant(const struct price_offer *o, char *out, size_t cap);
/* The default filled in: years 1, no upfront, standard or compute. */
void price_offer_resolve(enum price_term term, const struct price_offer *in, struct price_offer *out);
/* "1-year no-upfront standard Reserved Instance", for messages. */
void price_offer_text(enum price_term term, const struct price_offer *o, char *out, size_t cap);
/* Where a price came from and how old it is, one line:
 * "imported from index.csv (price-list-csv, as of 2026-09-01, 97 days old, imported 2026-12-07)". */
void price_origin_text(const struct price *p, char *out, size_t cap);

#endif
