/* A validator for the JSON Schema subset our schema files use, run over a
 * yamldoc so that every error has the position of the key or value it is
 * about. All errors are reported, not only the first.
 *
 * Keywords: type, properties, required, additionalProperties, enum,
 * const, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
 * minLength, maxLength, items, minItems, maxItems, uniqueItems, oneOf,
 * anyOf, allOf, not, if/then/else, dependentRequired, propertyNames,
 * $ref (local), and
 * three of our own: x-message (a sentence shown instead of the low-level
 * reasons when a cross-key rule fails), x-since (values accepted only
 * by newer releases, mapped to the release that added them), and, at the
 * root, x-coerce: "marshmallow" (the values ParallelCluster's loader
 * converts to the type a key takes, a quoted number or a yes for a
 * boolean, are SF_COERCED instead of SF_TYPE, and checked as converted). */
#ifndef TF_SCHEMA_H
#define TF_SCHEMA_H

#include <stddef.h>

#include "yamldoc.h"

enum schema_fault {
	SF_UNKNOWN_KEY,
	SF_TYPE,
	SF_MISSING,
	SF_VALUE,
	SF_CONFLICT,
	SF_SINCE,
	SF_SCHEMA, /* the schema itself is broken (a bad pattern, a bad $ref) */
	SF_COERCED, /* not of its type, but the loader converts it (x-coerce) */
};

struct schema_error {
	enum schema_fault fault;
	yd_node node; /* the instance node the error is about (for its path) */
	yd_node pos;  /* where to point: a key, or the node itself */
	char *msg;
	char *help;   /* optional */
	char *suggest; /* optional: what the value or key was most likely meant to be */
};

struct schema_errors {
	struct schema_error *v;
	size_t len, cap;
	/* Callers leave this SCHEMA_ERRS_KEEP. Inside the walk, where only
	 * the number of errors matters (which alternative fails least),
	 * they are counted and v stays NULL; where only their presence does
	 * (does a branch match), the walk stops at the first. */
	enum { SCHEMA_ERRS_KEEP, SCHEMA_ERRS_COUNT, SCHEMA_ERRS_ANY } mode;
};

typedef struct schema schema;

/* The schema document must outlive the schema. */
schema *schema_new(const yamldoc *doc);
void schema_free(schema *s);
/* Validates the instance rooted at root; appends to errs. */
void schema_validate(schema *s, const yamldoc *doc, yd_node root,
		     struct schema_errors *errs);
void schema_errors_free(struct schema_errors *errs);
/* A scalar as marshmallow's Integer and Boolean fields read it, which is
 * how ParallelCluster reads the numbers and flags of its config: "10" and
 * 10.0 are 10, 5.5 is 5; true, yes, "true", y and 1 are true. False (and
 * *out untouched) when the field would refuse it. */
bool schema_read_int(const yamldoc *doc, yd_node n, long long *out);
bool schema_read_bool(const yamldoc *doc, yd_node n, bool *out);
/* The schema of an embedded file ("parallelcluster.schema.json"),
 * compiled on first use and kept for the run; NULL if there is none. */
schema *schema_embedded(const char *name);

#endif
