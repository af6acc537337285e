/* `trainforge prices import`: AWS's own price and instance files into the
 * user's price store, all of them or none (docs/prices.md).
 *
 * Formats, told apart by their content:
 *   price-list-csv      the Price List bulk offer file for AmazonEC2 (index.csv), read
 *                       as a stream in constant memory
 *   price-list-json     the same as JSON (index.json): memory grows with the products
 *                       kept (its terms name products by SKU)
 *   savings-plans-csv   a Savings Plans offer file (AmazonComputeSavingsPlan), CSV
 *   savings-plans-json  the same as JSON
 *   get-products        `aws pricing get-products --service-code AmazonEC2` output
 *   spot-price-history  `aws ec2 describe-spot-price-history` output
 *   instance-types      `aws ec2 describe-instance-types` output: figures that extend
 *                       or correct the built-in catalog
 * Kept: Linux, shared tenancy, no pre-installed software, capacity used,
 * AWS Regions (not Local Zones or Outposts), USD. */
#ifndef TF_IMPORT_H
#define TF_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

struct import_file_report {
	const char *path;
	char format[32];
	char published[11];          /* "" when the file has no date */
	unsigned long long records;  /* rows or products read */
	unsigned long long kept;     /* parts or facts kept */
};

struct import_report {
	struct import_file_report *files;
	size_t nfiles;
	unsigned long long facts_before, facts_after, facts_new;
	size_t runs;                 /* temporary runs of the sort (0: it all fitted) */
	bool malformed;              /* the failure was a file's content (exit 1), not trouble */
};

struct import_options {
	const char *store;           /* the store to write (made with its directory) */
	size_t sort_memory;          /* bytes of the sort buffer; 0: the default */
};

/* Small enough that a big import's memory does not grow with its files
 * (a full AmazonEC2 list keeps some 400,000 facts, tens of megabytes: a
 * few dozen runs of this size), large enough that most imports never
 * write a run. */
#define IMPORT_SORT_MEMORY (2u << 20)

/* Reads every file, then merges what they hold into the store in one
 * rename. False when a file is malformed or cannot be read, or the store
 * cannot be written: err then holds "FILE:LINE:COL: message" (or a path
 * and a reason) and the store is as it was. */
bool prices_import(const char *const *files, size_t nfiles, const struct import_options *o,
		   struct import_report *report, struct buf *err);
void import_report_free(struct import_report *r);

#endif
