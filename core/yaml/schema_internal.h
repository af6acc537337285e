/* What the files of the schema validator share: the keyword table of a
 * compiled schema object, the run state and the checks. Not an API. */
#ifndef TF_SCHEMA_INTERNAL_H
#define TF_SCHEMA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "regex.h"
#include "schema.h"

enum kw {
	KW_TYPE, KW_PROPERTIES, KW_REQUIRED, KW_ADDITIONAL, KW_ENUM, KW_CONST,
	KW_PATTERN, KW_MINIMUM, KW_MAXIMUM, KW_XMINIMUM, KW_XMAXIMUM,
	KW_MINLENGTH, KW_MAXLENGTH, KW_ITEMS, KW_MINITEMS, KW_MAXITEMS,
	KW_UNIQUE, KW_ONEOF, KW_ANYOF, KW_ALLOF, KW_NOT, KW_IF, KW_THEN,
	KW_ELSE, KW_DEPREQ, KW_PROPNAMES, KW_REF, KW_SINCE, KW_UNTIL, KW_MESSAGE, KW__COUNT
};

/* JSON Schema types, in the order of their bits in a type mask. */
enum { T_OBJECT, T_ARRAY, T_STRING, T_INTEGER, T_NUMBER, T_BOOLEAN, T_NULL, T__COUNT };

/* Groups of keywords checked together; a schema object lists the groups
 * it has, so the walk skips the checks that have nothing to do (most
 * objects have two or three keywords). */
enum {
	CK_ENUM = 1 << 0,   /* const, enum */
	CK_SINCE = 1 << 1,  /* x-since, x-until */
	CK_STRING = 1 << 2, /* minLength, maxLength, pattern */
	CK_NUMBER = 1 << 3, /* minimum, maximum and the exclusive ones */
	CK_ARRAY = 1 << 4,  /* minItems, maxItems, uniqueItems, items */
	CK_COMBINE = 1 << 5, /* allOf, not, if, oneOf, anyOf */
};

/* A name of `properties` (an offset into the schema document's text)
 * and its schema. */
struct sch_prop {
	uint32_t name, len;
	yd_node schema;
};

/* What compiled objects refer to beside themselves: the sorted properties
 * and the names of `required` (offsets into the document's text) of every
 * object, one object's after the other's. Indices, not pointers: the
 * build-time tables are then plain data, with nothing to relocate. */
struct sch_lists {
	struct sch_prop *props;
	size_t n_props, cap_props;
	uint32_t *required;
	size_t n_required, cap_required;
};

/* A schema object with its keywords looked up once: at build time for
 * the embedded schemas (tools/embed.c writes these as static tables), on
 * first use for the others. Its pattern is compiled apart (sch_pattern). */
struct compiled {
	yd_node kw[KW__COUNT];
	yd_node ref;        /* resolved $ref target */
	unsigned types;     /* bits of the `type` keyword */
	unsigned checks;    /* CK_* groups present */
	bool bad;           /* pattern or $ref could not be used */
	bool boolean;       /* the schema is true or false */
	bool allow;         /* ... and which */
	uint32_t props, n_props;       /* `properties` sorted by name, in the lists */
	uint32_t required, n_required; /* the names of `required`, in the lists */
	yd_node extra;          /* `additionalProperties` when a schema */
	bool closed;            /* `additionalProperties: false` */
	/* Numeric keywords read once; one that is absent or not a number
	 * is not set, and not checked. */
	struct sch_int {
		bool set;
		long long v;
	} min_length, max_length, min_items, max_items;
	struct sch_num {
		bool set;
		double v;
	} bound[KW_XMAXIMUM - KW_MINIMUM + 1]; /* minimum ... exclusiveMaximum */
};

/* The schema of property key (len bytes) in c's `properties`, or 0:
 * sch_property in s, sch_property_in in the lists of a document's text. */
yd_node sch_property(const schema *s, const struct compiled *c, const char *key, size_t len);
yd_node sch_property_in(const struct sch_prop *props, const char *text, const struct compiled *c,
			const char *key, size_t len);
/* The name of c's i-th required key. */
const char *sch_required(const schema *s, const struct compiled *c, size_t i);

/* A pattern compiled at build time, as PCRE2 encodes it (regex_encode). */
struct sch_code {
	yd_node node; /* the pattern's node */
	const unsigned char *bytes;
	uint32_t len;
};

/* The compiled objects of a schema document, made at build time: index
 * gives each node's entry in v (0, an empty object, for the nodes that
 * are none); codes its patterns, sorted by node. */
struct sch_table {
	const struct compiled *v;
	const uint32_t *index;
	uint32_t n;
	const struct sch_prop *props;
	const uint32_t *required;
	const struct sch_code *codes;
	uint32_t n_codes;
};

struct schema {
	const yamldoc *doc;
	size_t n;                   /* nodes of doc, and one */
	const struct sch_table *table; /* compiled at build time, or NULL: */
	struct compiled **cache;    /* ... compiled on first use, by node, */
	struct sch_lists lists;     /* ... with their lists */
	const char *text;           /* the document's text, which names are offsets into */
	/* patterns compiled on first use, by node: a hash table, as a run
	 * meets a few dozen patterns of a schema of tens of thousands of nodes */
	struct sch_re {
		yd_node node;           /* 0: a free slot */
		struct regex *re;       /* NULL: the pattern does not compile */
	} *re;
	size_t re_len, re_cap;      /* re_cap: a power of two */
	struct schema_places *places; /* on first use (schema_places.c) */
};
void sch_places_free(struct schema_places *p);

/* A schema over a document with its build-time table (both outlive it). */
schema *schema_from_table(const yamldoc *doc, const struct sch_table *table);
/* Compiles schema object sn of sd into c, adding its properties and
 * required names to lists (schema_compile.c). */
void sch_compile_node(const yamldoc *sd, yd_node sn, struct compiled *c, struct sch_lists *lists);
void sch_lists_free(struct sch_lists *l);
/* c's pattern, compiled on first use; NULL when it has none or it does
 * not compile. */
struct regex *sch_pattern(schema *s, const struct compiled *c);

/* Schemas may refer to themselves; real instances are bounded by the YAML
 * depth limit, so this only stops a $ref loop that consumes no input. */
enum { MAX_DEPTH = 1024 };

struct run {
	schema *s;
	const yamldoc *doc;
	unsigned depth;
	/* A check met a placeholder (a value not known until the template is
	 * rendered) and did not decide: set by the walk, read and restored
	 * by the combinators, so that a condition on an unknown value is
	 * neither taken nor refused. */
	bool unknown;
	/* x-coerce: what a value is once the loader converted it, for the
	 * checks after the type's (the node it is for, 0 for none). */
	bool coerce;
	yd_node coerced;
	double coerced_number;
	bool versions;          /* check the release tags against release */
	struct version release;
	const char *product;    /* the root's x-product, for messages */
};

/* A value marshmallow converts to one of types (schema_coerce.c). */
struct sch_coerced {
	unsigned type_bit; /* the type it becomes */
	double number;
	bool boolean;
	const char *why;   /* what it is now: "a string" */
	char as[40];       /* the converted value as YAML writes it */
};
bool sch_coerce(const yamldoc *doc, yd_node n, unsigned types, struct sch_coerced *out);
/* An integer that YAML 1.1 reads in a way its writer rarely means (010,
 * 1:30, 0b10, 1_000), with its value. */
bool sch_int_surprise(const yamldoc *doc, yd_node n, long long *value);

const struct compiled *sch_compile(schema *s, yd_node sn);
unsigned sch_type_bit(const char *name);
void sch_validate(struct run *r, yd_node sn, yd_node n, yd_node holder,
		  struct schema_errors *out);
/* Whether n matches sn; nothing is reported. */
bool sch_matches(struct run *r, yd_node sn, yd_node n, yd_node holder);
/* The same in three values: whether n matches, does not, or may (a
 * placeholder decides it). */
enum sch_verdict { SCH_NO, SCH_YES, SCH_MAYBE };
enum sch_verdict sch_verdict(struct run *r, yd_node sn, yd_node n, yd_node holder);
void sch_err_add(struct schema_errors *out, enum schema_fault fault,
		 yd_node node, yd_node pos, const char *help,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Sets what the last error's value or key was most likely meant to be. */
void sch_err_suggest(struct schema_errors *out, const char *suggest);
/* When out only counts: counts one error and returns true, so that the
 * caller skips composing a message (suggestions, lists of values). */
bool sch_err_counted(struct schema_errors *out);
/* True when out wants no more errors: it asks only whether there is one. */
static inline bool sch_err_enough(const struct schema_errors *out)
{
	return out->mode == SCHEMA_ERRS_ANY && out->len;
}
/* Where to point for an error about n: its key when n is a container. */
yd_node sch_where(const yamldoc *doc, yd_node n, yd_node holder);

/* Keyword checks (schema_keywords.c). */
bool sch_check_type(struct run *r, const struct compiled *c, yd_node n,
		    yd_node holder, struct schema_errors *out);
void sch_check_enum(struct run *r, const struct compiled *c, yd_node n,
		    struct schema_errors *out);
/* Release tags (schema_versions.c). The key tags first: true when the
 * key does not exist in the release (reported; its value is not
 * checked further). Then the value tags. */
bool sch_check_key_release(struct run *r, const struct compiled *c, yd_node n, yd_node holder,
			   struct schema_errors *out);
void sch_check_value_release(struct run *r, const struct compiled *c, yd_node n,
			     struct schema_errors *out);
void sch_check_string(struct run *r, const struct compiled *c, yd_node n,
		      yd_node holder, struct schema_errors *out);
void sch_check_number(struct run *r, const struct compiled *c, yd_node n,
		      struct schema_errors *out);
void sch_check_array(struct run *r, const struct compiled *c, yd_node n,
		     yd_node holder, struct schema_errors *out);
void sch_check_object(struct run *r, const struct compiled *c, yd_node n,
		      yd_node holder, struct schema_errors *out);

#endif
