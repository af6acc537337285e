/* The user's price store: the prices and instance figures `trainforge
 * prices import` took from AWS's own files, in one sorted text file
 * (docs/prices.md, "The store"). A run maps the file and finds a type's
 * lines by binary search, so that a store of every type, region and term
 * costs a lookup nothing like its size; nothing is parsed up front but
 * the first lines, which name the files the facts came from.
 *
 *   trainforge-prices 1
 *   source  ID  FORMAT  PUBLISHED  IMPORTED  FILE
 *   ...
 *   TYPE  REGION  KIND  VARIANT  AS-OF  USD/H  HOURLY  UPFRONT  EFFECTIVE  SOURCE [FIGURES]
 *
 * fields separated by one tab, fact lines sorted bytewise, "-" for
 * unknown. A line that does not read as a fact is skipped where a lookup
 * meets it (price_store_check counts them all). */
#ifndef TF_PRICE_STORE_H
#define TF_PRICE_STORE_H

#include <stdbool.h>
#include <stddef.h>

#define PRICE_STORE_MAGIC "trainforge-prices 1"

/* One fact line, its fields as slices of the mapped file. */
struct price_line {
	const char *type, *region, *kind, *variant, *as_of;
	const char *usd, *hourly, *upfront, *effective, *figures;
	size_t type_len, region_len, kind_len, variant_len, as_of_len;
	size_t usd_len, hourly_len, upfront_len, effective_len, figures_len;
	unsigned source;
};

struct price_store_source {
	unsigned id;
	char format[32], published[11], imported[11];
	char *file;
};

struct price_store;

/* Maps path. NULL when it cannot be read or is not a store; *why (static
 * text) says which, and *missing says the file does not exist. */
struct price_store *price_store_open(const char *path, const char **why, bool *missing);
void price_store_close(struct price_store *s);
const char *price_store_path(const struct price_store *s);

/* Calls fn for each fact line of type (its lines only, in file order),
 * until fn returns false. */
void price_store_each(const struct price_store *s, const char *type, size_t type_len,
		      bool (*fn)(const struct price_line *l, void *ctx), void *ctx);
/* Every fact line, in file order; *bad counts the lines that are not facts. */
void price_store_all(const struct price_store *s, bool (*fn)(const struct price_line *l, void *ctx),
		     void *ctx, size_t *bad);
const struct price_store_source *price_store_source(const struct price_store *s, unsigned id);
/* The fact lines as mapped: from the first to the end of the file. */
const char *price_store_facts(const struct price_store *s, size_t *len);
size_t price_store_source_count(const struct price_store *s);
const struct price_store_source *price_store_source_at(const struct price_store *s, size_t i);

/* Splits one line (without its newline) into l; false when it is not a
 * fact line. Shared with the writer, which checks what it merges. */
bool price_line_parse(const char *p, size_t n, struct price_line *l);

/* A line's tab-separated fields, at most max: their count (the rest of
 * a line with more is left out). */
size_t price_fields(const char *p, size_t n, const char **f, size_t *len, size_t max);
/* Whether a slice equals a C string. */
bool price_field_is(const char *p, size_t n, const char *s);

#endif
