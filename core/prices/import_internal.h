/* What the format readers share: the sink they hand their facts to. */
#ifndef TF_IMPORT_INTERNAL_H
#define TF_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "import.h"
#include "prices.h"

/* A part is one row's share of a fact: the hourly rate or the upfront fee
 * of one offer (a reserved offer takes two rows of a price list), or a
 * whole rate. Parts are sorted so that those of one offer meet, then
 * combined into the store's fact lines (import.c). */
enum part_comp { PART_HOURLY = 'h', PART_UPFRONT = 'u', PART_RATE = 'r', PART_FIGURES = 'f' };

struct sink {
	struct sorter *sorter;
	unsigned source;             /* the store's id of the file being read */
	const char *path;
	struct import_file_report *report;
	char published[11];          /* the file's date, the as-of of its prices */
	struct buf line;
	struct buf *err;
	bool failed;
};

/* One part. type, region, offer id and effective date come from the
 * file and are checked by sink_part (a type of EC2's shape, a Region, a
 * date); value is a decimal >= 0; line is the row's, for messages. */
struct part {
	const char *type, *region, *zone, *offer_id, *value, *effective;
	size_t type_len, region_len, zone_len, offer_len, value_len, effective_len;
	enum price_term term;
	struct price_offer offer;    /* reserved and Savings Plans */
	enum part_comp comp;
	const char *as_of;           /* YYYY-MM-DD, or a spot price's UTC time */
	unsigned long line;
};
bool sink_part(struct sink *k, const struct part *p);
/* A type's figures (describe-instance-types): "key=value;..." */
bool sink_figures(struct sink *k, const char *type, size_t type_len, const char *as_of,
		  const char *figures, unsigned long line);
/* A malformed file: "PATH:LINE:COL: message" into k->err, k->failed. */
bool sink_fail(struct sink *k, unsigned long line, unsigned long col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether s[0..n) is a decimal >= 0 as AWS writes prices ("0.0850000000",
 * "3162", "1.2e-05"). */
bool import_price_ok(const char *s, size_t n);
/* YYYY-MM-DD at the start of s[0..n) (a date or an ISO 8601 time), into out. */
bool import_date(const char *s, size_t n, char out[11]);
/* us-east-1, ap-southeast-5, us-gov-west-1: a Region, not a Local Zone. */
bool import_region_ok(const char *s, size_t n);
/* "1yr", "3 yr", "3yr" -> 1 or 3; 0 otherwise. */
int import_years(const char *s, size_t n);
/* "No Upfront", "NoUpfront", "Partial Upfront", "All Upfront", "AllUpfront". */
enum price_purchase import_purchase(const char *s, size_t n);
bool import_eq(const char *s, size_t n, const char *lit);
bool import_ieq(const char *s, size_t n, const char *lit);

/* The readers: false after sink_fail. The CSV one reads price lists and
 * Savings Plans files, the JSON one every JSON format. */
bool import_csv(struct sink *k, int fd);
bool import_json(struct sink *k, int fd);

#endif
