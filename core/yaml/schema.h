/* A validator for the JSON Schema subset our schema files use, run over a
 * yamldoc so that every error has the position of the key or value it is
 * about. All errors are reported, not only the first.
 *
 * Keywords: type, properties, required, additionalProperties, enum,
 * const, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
 * minLength, maxLength, items, minItems, maxItems, uniqueItems, oneOf,
 * anyOf, allOf, not, if/then/else, dependentRequired, propertyNames,
 * $ref (local), and
 * our own: x-message (a sentence shown instead of the low-level reasons
 * when a cross-key rule fails), and the release tags that
 * schema_validate_release checks against a release of the product the
 * schema describes (named by x-product at the root):
 *   x-since: "3.15.0" on the schema of a property: the key exists from
 *     that release; x-until: "3.15.0": that release removed it;
 *   x-since: {"ubuntu2404": "3.13.0"} beside an enum: the values added
 *     by later releases; x-until: {"ubuntu2004": "3.14.0"}: the values a
 *     release removed.
 * schema_validate ignores the tags. At the root, x-coerce: "marshmallow"
 * says how the schema's consumer loads values: those ParallelCluster's
 * loader converts to the type a key takes (a quoted number, a yes for a
 * boolean) are SF_COERCED instead of SF_TYPE, and checked as converted. */
#ifndef TF_SCHEMA_H
#define TF_SCHEMA_H

#include <stddef.h>

#include "version.h"
#include "yamldoc.h"

enum schema_fault {
	SF_UNKNOWN_KEY,
	SF_TYPE,
	SF_MISSING,
	SF_VALUE,
	SF_CONFLICT,
	SF_SINCE,     /* a value newer than the release */
	SF_KEY_SINCE, /* a key newer than the release */
	SF_UNTIL,     /* a value the release no longer has */
	SF_KEY_UNTIL, /* a key the release no longer has */
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
/* The same, and keys and values checked against the release tags for
 * release (a line or a release of the product). */
void schema_validate_release(schema *s, const yamldoc *doc, yd_node root,
			     struct version release, struct schema_errors *errs);
void schema_errors_free(struct schema_errors *errs);
/* A scalar as marshmallow's Integer and Boolean fields read it, which is
 * how ParallelCluster reads the numbers and flags of its config: "10" and
 * 10.0 are 10, 5.5 is 5; true, yes, "true", y and 1 are true. False (and
 * *out untouched) when the field would refuse it. */
bool schema_read_int(const yamldoc *doc, yd_node n, long long *out);
bool schema_read_bool(const yamldoc *doc, yd_node n, bool *out);
struct buf;
/* Prints a schema document as JSON (two-space indentation) for one
 * release: without the keys and enum values the release lacks, and
 * without the release tags. */
void schema_print_release(const yamldoc *schema_doc, struct version release, struct buf *out);

/* The object schemas (with properties) an instance can meet, each at
 * the first path that reaches it from the root through properties,
 * items and $ref ("Scheduling.SlurmQueues[].ComputeResources[]"; "" for
 * the root), shortest first; item: the path ends in a list's items.
 * Computed once per schema and kept with it. */
struct schema_place {
	yd_node schema;
	char *path;
	bool item;
};
struct schema_places {
	struct schema_place *v;
	size_t len;
};
const struct schema_places *schema_places(schema *s);
/* The property names of object schema sn. */
size_t schema_property_count(schema *s, yd_node sn);
const char *schema_property_name(schema *s, yd_node sn, size_t i, size_t *len);
bool schema_has_property(schema *s, yd_node sn, const char *key, size_t len);
/* schema_validate_release (schema_validate when release is NULL), with
 * root checked against schema node sn (a place) instead of the root. */
void schema_validate_at(schema *s, const yamldoc *doc, yd_node root, yd_node sn,
			const struct version *release, struct schema_errors *errs);

/* The schema of an embedded file ("parallelcluster.schema.json"),
 * compiled on first use and kept for the run; NULL if there is none. */
schema *schema_embedded(const char *name);
/* The document a schema was made from (for the nodes of schema_validate_at). */
const yamldoc *schema_document(const schema *s);

#endif
