/* The CSV price files: the Price List bulk offer file for AmazonEC2 and
 * the Savings Plans offer files, one record at a time (import.h).
 *
 * Both start with a preamble of "name","value" lines (FormatVersion,
 * Disclaimer, Publication Date, Version, OfferCode), then a header row
 * that names the columns; AWS adds and reorders columns between
 * publications, so columns are found by name. A reserved offer is two
 * rows of one SKU and offer term: its upfront fee (Unit Quantity) and its
 * hourly rate (Unit Hrs). */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "csvscan.h"
#include "import_internal.h"

enum ec2_col {
	C_SKU, C_TERM_CODE, C_TERM_TYPE, C_EFFECTIVE, C_UNIT, C_PRICE, C_CURRENCY, C_LEASE,
	C_PURCHASE, C_CLASS, C_FAMILY, C_LOCATION_TYPE, C_TYPE, C_TENANCY, C_OS, C_SOFTWARE,
	C_CAPACITY, C_REGION, C_MARKET, C_LICENSE, C__COUNT
};

static const struct { const char *name; bool required; } ec2_cols[C__COUNT] = {
	[C_SKU] = { "SKU", true }, [C_TERM_CODE] = { "OfferTermCode", true },
	[C_TERM_TYPE] = { "TermType", true }, [C_EFFECTIVE] = { "EffectiveDate", true },
	[C_UNIT] = { "Unit", true }, [C_PRICE] = { "PricePerUnit", true },
	[C_CURRENCY] = { "Currency", true }, [C_LEASE] = { "LeaseContractLength", true },
	[C_PURCHASE] = { "PurchaseOption", true }, [C_CLASS] = { "OfferingClass", true },
	[C_FAMILY] = { "Product Family", true }, [C_LOCATION_TYPE] = { "Location Type", true },
	[C_TYPE] = { "Instance Type", true }, [C_TENANCY] = { "Tenancy", true },
	[C_OS] = { "Operating System", true }, [C_SOFTWARE] = { "Pre Installed S/W", false },
	[C_CAPACITY] = { "CapacityStatus", false }, [C_REGION] = { "Region Code", true },
	[C_MARKET] = { "MarketOption", false }, [C_LICENSE] = { "License Model", false },
};

enum sp_col {
	S_SKU, S_UNIT, S_EFFECTIVE, S_RATE, S_CURRENCY, S_SERVICE, S_USAGE, S_OPERATION,
	S_PURCHASE, S_LEASE, S_FAMILY, S_REGION, S_TYPE, S_LOCATION_TYPE, S__COUNT
};

static const struct { const char *name; bool required; } sp_cols[S__COUNT] = {
	[S_SKU] = { "SKU", true }, [S_UNIT] = { "Unit", true },
	[S_EFFECTIVE] = { "EffectiveDate", true }, [S_RATE] = { "DiscountedRate", true },
	[S_CURRENCY] = { "Currency", true }, [S_SERVICE] = { "DiscountedServiceCode", true },
	[S_USAGE] = { "DiscountedUsageType", true }, [S_OPERATION] = { "DiscountedOperation", true },
	[S_PURCHASE] = { "PurchaseOption", true }, [S_LEASE] = { "LeaseContractLength", true },
	[S_FAMILY] = { "Product Family", true }, [S_REGION] = { "DiscountedRegionCode", true },
	[S_TYPE] = { "DiscountedInstanceType", false }, [S_LOCATION_TYPE] = { "Location Type", false },
};

#define EQ(f, lit) import_eq((f).p, (f).len, lit)
#define MAX_COLS ((int)C__COUNT > (int)S__COUNT ? (int)C__COUNT : (int)S__COUNT)

static bool csv_fail(struct sink *k, struct csv_scan *s)
{
	return sink_fail(k, csv_line(s), 1, "%s", csv_error(s));
}

/* The columns of names in the header; a missing required one is an error. */
static bool find_columns(struct sink *k, struct csv_scan *s, const struct csv_field *h, int n,
			 const char *const *names, const bool *required, int count, int *at)
{
	for (int c = 0; c < count; c++) {
		at[c] = -1;
		for (int i = 0; i < n; i++)
			if (import_eq(h[i].p, h[i].len, names[c]))
				at[c] = i;
		if (at[c] < 0 && required[c])
			return sink_fail(k, csv_line(s), 1, "the header has no '%s' column%s", names[c],
					 c == C_REGION && count == C__COUNT
					 ? " (price lists published since 2021 have it: download a current one)" : "");
	}
	return true;
}

/* A field of the row or "" when the file has no such column. */
static struct csv_field col(const struct csv_field *f, const int *at, int c)
{
	static const char empty[] = "";
	return at[c] >= 0 ? f[at[c]] : (struct csv_field){ empty, 0 };
}

static bool bad_value(struct sink *k, struct csv_scan *s, const char *column, struct csv_field v,
		      const char *what)
{
	return sink_fail(k, csv_line(s), 1, "record %lu: %s '%.*s' is not %s", csv_record(s), column,
			 (int)(v.len > 60 ? 60 : v.len), v.p, what);
}

static bool ec2_row(struct sink *k, struct csv_scan *s, const struct csv_field *f, const int *at)
{
	struct csv_field term = col(f, at, C_TERM_TYPE), unit = col(f, at, C_UNIT), price = col(f, at, C_PRICE);
	struct csv_field fam = col(f, at, C_FAMILY), market = col(f, at, C_MARKET);
	struct csv_field sw = col(f, at, C_SOFTWARE), cap = col(f, at, C_CAPACITY), lic = col(f, at, C_LICENSE);
	struct part p = { 0 };
	char offer[80];
	bool reserved = EQ(term, "Reserved");

	/* the cheap tests first: most rows are other systems and tenancies */
	if (!(reserved || EQ(term, "OnDemand")) || !EQ(col(f, at, C_OS), "Linux") ||
	    !EQ(col(f, at, C_TENANCY), "Shared") ||
	    !(EQ(fam, "Compute Instance") || EQ(fam, "Compute Instance (bare metal)")) ||
	    !EQ(col(f, at, C_LOCATION_TYPE), "AWS Region") ||
	    (at[C_SOFTWARE] >= 0 && !EQ(sw, "NA")) || (at[C_CAPACITY] >= 0 && !EQ(cap, "Used")) ||
	    (at[C_LICENSE] >= 0 && lic.len > 0 && !EQ(lic, "No License required")) ||
	    (market.len > 0 && !EQ(market, "OnDemand")) || !EQ(col(f, at, C_CURRENCY), "USD"))
		return true;
	if (!import_price_ok(price.p, price.len))
		return bad_value(k, s, "PricePerUnit", price, "a price (a decimal number)");
	if (EQ(unit, "Hrs"))
		p.comp = reserved ? PART_HOURLY : PART_RATE;
	else if (EQ(unit, "Quantity") && reserved)
		p.comp = PART_UPFRONT;
	else
		return bad_value(k, s, "Unit", unit, "Hrs or, for a reserved offer's upfront fee, Quantity");
	if (reserved) {
		struct csv_field lease = col(f, at, C_LEASE), po = col(f, at, C_PURCHASE), oc = col(f, at, C_CLASS);
		p.term = TERM_RESERVED;
		p.offer.years = import_years(lease.p, lease.len);
		p.offer.purchase = import_purchase(po.p, po.len);
		p.offer.cls = EQ(oc, "standard") ? CLASS_STANDARD : EQ(oc, "convertible") ? CLASS_CONVERTIBLE : CLASS_ANY;
		if (p.offer.years == 0)
			return bad_value(k, s, "LeaseContractLength", lease, "1yr or 3yr");
		if (p.offer.purchase == PURCHASE_ANY)
			return bad_value(k, s, "PurchaseOption", po, "No Upfront, Partial Upfront or All Upfront");
		if (p.offer.cls == CLASS_ANY)
			return bad_value(k, s, "OfferingClass", oc, "standard or convertible");
	} else {
		p.term = TERM_ON_DEMAND;
	}
	snprintf(offer, sizeof offer, "%.*s.%.*s", (int)(f[at[C_SKU]].len > 38 ? 38 : f[at[C_SKU]].len),
		 f[at[C_SKU]].p, (int)(f[at[C_TERM_CODE]].len > 38 ? 38 : f[at[C_TERM_CODE]].len),
		 f[at[C_TERM_CODE]].p);
	p.type = f[at[C_TYPE]].p, p.type_len = f[at[C_TYPE]].len;
	p.region = f[at[C_REGION]].p, p.region_len = f[at[C_REGION]].len;
	p.offer_id = offer, p.offer_len = strlen(offer);
	p.value = price.p, p.value_len = price.len;
	p.effective = f[at[C_EFFECTIVE]].p, p.effective_len = f[at[C_EFFECTIVE]].len;
	p.as_of = k->published;
	p.line = csv_line(s);
	if (!catalog_name_plausible(p.type, p.type_len))
		return bad_value(k, s, "Instance Type", f[at[C_TYPE]], "an EC2 instance type");
	if (!import_region_ok(p.region, p.region_len)) {
		/* a Local Zone's code starts with its Region's: not kept */
		const char *dash = p.region_len > 0 ? memchr(p.region, '-', p.region_len) : NULL;
		for (; dash; dash = memchr(dash + 1, '-', p.region_len - (size_t)(dash + 1 - p.region)))
			if (import_region_ok(p.region, (size_t)(dash - p.region)))
				return true;
		return bad_value(k, s, "Region Code", f[at[C_REGION]], "an AWS Region");
	}
	return sink_part(k, &p);
}

/* "USE1-BoxUsage:c5.large" or "BoxUsage:c5.large": shared tenancy (not
 * DedicatedUsage, HostBoxUsage or UnusedBox); the type after the colon. */
static bool box_usage(struct csv_field u, struct csv_field *type)
{
	const char *colon = memchr(u.p, ':', u.len);
	const char *dash;
	size_t kind_at = 0;

	if (colon == NULL)
		return false;
	dash = memchr(u.p, '-', (size_t)(colon - u.p));
	if (dash != NULL)
		kind_at = (size_t)(dash - u.p) + 1;
	if (!import_eq(u.p + kind_at, (size_t)(colon - u.p) - kind_at, "BoxUsage"))
		return false;
	type->p = colon + 1;
	type->len = u.len - (size_t)(colon - u.p) - 1;
	return true;
}

static bool sp_row(struct sink *k, struct csv_scan *s, const struct csv_field *f, const int *at)
{
	struct csv_field rate = col(f, at, S_RATE), type, fam = col(f, at, S_FAMILY);
	struct csv_field lease = col(f, at, S_LEASE), po = col(f, at, S_PURCHASE);
	struct part p = { 0 };

	if (!EQ(col(f, at, S_SERVICE), "AmazonEC2") || !EQ(col(f, at, S_OPERATION), "RunInstances") ||
	    !box_usage(col(f, at, S_USAGE), &type) || !EQ(col(f, at, S_UNIT), "Hrs") ||
	    !EQ(col(f, at, S_CURRENCY), "USD") ||
	    (at[S_LOCATION_TYPE] >= 0 && !EQ(col(f, at, S_LOCATION_TYPE), "AWS Region")))
		return true;
	if (at[S_TYPE] >= 0 && f[at[S_TYPE]].len > 0)
		type = f[at[S_TYPE]];
	p.term = TERM_SAVINGS_PLAN;
	p.offer.cls = EQ(fam, "ComputeSavingsPlans") ? CLASS_COMPUTE :
		      EQ(fam, "EC2InstanceSavingsPlans") ? CLASS_EC2_INSTANCE : CLASS_ANY;
	if (p.offer.cls == CLASS_ANY)
		return true; /* another kind of plan (SageMaker, database) */
	if (!import_price_ok(rate.p, rate.len))
		return bad_value(k, s, "DiscountedRate", rate, "a price (a decimal number)");
	p.offer.years = import_years(lease.p, lease.len);
	p.offer.purchase = import_purchase(po.p, po.len);
	if (p.offer.years == 0)
		return bad_value(k, s, "LeaseContractLength", lease, "1 or 3 (years)");
	if (p.offer.purchase == PURCHASE_ANY)
		return bad_value(k, s, "PurchaseOption", po, "No Upfront, Partial Upfront or All Upfront");
	if (!catalog_name_plausible(type.p, type.len))
		return bad_value(k, s, "DiscountedInstanceType", type, "an EC2 instance type");
	if (!import_region_ok(f[at[S_REGION]].p, f[at[S_REGION]].len))
		return true; /* a Local Zone's or Wavelength Zone's rate */
	p.type = type.p, p.type_len = type.len;
	p.region = f[at[S_REGION]].p, p.region_len = f[at[S_REGION]].len;
	p.offer_id = f[at[S_SKU]].p, p.offer_len = f[at[S_SKU]].len;
	p.comp = PART_RATE;
	p.value = rate.p, p.value_len = rate.len;
	p.effective = f[at[S_EFFECTIVE]].p, p.effective_len = f[at[S_EFFECTIVE]].len;
	p.as_of = k->published;
	p.line = csv_line(s);
	return sink_part(k, &p);
}

bool import_csv(struct sink *k, int fd)
{
	struct csv_scan *s = csv_scan_fd(fd);
	struct csv_field *f;
	char offer[64] = "";
	int n, header_n = 0, at[MAX_COLS];
	bool sp, ok = true;

	/* the preamble, then the header */
	for (int lines = 0;; lines++) {
		n = csv_next(s, &f);
		if (n < 0) {
			ok = csv_fail(k, s);
			goto out;
		}
		if (n >= 2 && import_eq(f[0].p, f[0].len, "SKU"))
			break;
		if (n != 2 || lines >= 16) {
			ok = sink_fail(k, csv_line(s), 1, "not a Price List or Savings Plans CSV file: no header row starting with SKU after its preamble of \"name\",\"value\" lines");
			goto out;
		}
		if (import_eq(f[0].p, f[0].len, "Publication Date") &&
		    !import_date(f[1].p, f[1].len, k->published)) {
			ok = sink_fail(k, csv_line(s), 1, "Publication Date '%.*s' is not a date", (int)(f[1].len > 40 ? 40 : f[1].len), f[1].p);
			goto out;
		}
		if (import_eq(f[0].p, f[0].len, "OfferCode"))
			snprintf(offer, sizeof offer, "%.*s", (int)f[1].len, f[1].p);
	}
	header_n = n;
	sp = !strcmp(offer, "AmazonComputeSavingsPlan") || !strcmp(offer, "AWSComputeSavingsPlan");
	if (!sp && strcmp(offer, "AmazonEC2") != 0) {
		ok = sink_fail(k, 1, 1, "the offer is '%s', not AmazonEC2 or a Savings Plans offer: EC2 instance prices are in the AmazonEC2 offer file", offer[0] ? offer : "not named");
		goto out;
	}
	snprintf(k->report->format, sizeof k->report->format, sp ? "savings-plans-csv" : "price-list-csv");
	snprintf(k->report->published, sizeof k->report->published, "%s", k->published);
	{
		const char *names[MAX_COLS];
		bool req[MAX_COLS];
		int count = sp ? S__COUNT : C__COUNT;
		for (int c = 0; c < count; c++) {
			names[c] = sp ? sp_cols[c].name : ec2_cols[c].name;
			req[c] = sp ? sp_cols[c].required : ec2_cols[c].required;
		}
		if (!find_columns(k, s, f, n, names, req, count, at)) {
			ok = false;
			goto out;
		}
	}
	csv_watch(s, sp ? "BoxUsage" : "Linux");
	for (;;) {
		char *rec;
		size_t len;
		int r = csv_raw(s, &rec, &len);
		if (r <= 0) {
			n = r;
			break;
		}
		k->report->records++;
		/* most rows are other systems and tenancies: a row whose bytes
		 * lack the words a kept row has is not split at all */
		bool candidate = csv_holds(s) &&
				 (sp ? memmem(rec, len, "RunInstances", 12) != NULL
				     : memmem(rec, len, "Shared", 6) != NULL);
		/* a row cut short (a download that stopped) has too few commas:
		 * split it to say so; commas in quoted text only add */
		if (!candidate && csv_commas(s) + 1 >= (size_t)header_n)
			continue;
		n = csv_split(s, rec, len, &f);
		if (n < 0)
			break;
		if (n != header_n) {
			ok = sink_fail(k, csv_line(s), 1, "record %lu has %d fields where the header has %d",
				       csv_record(s), n, header_n);
			goto out;
		}
		if (!(sp ? sp_row(k, s, f, at) : ec2_row(k, s, f, at))) {
			ok = false;
			goto out;
		}
	}
	if (n < 0)
		ok = csv_fail(k, s);
out:
	csv_scan_free(s);
	return ok;
}
