/* The checks of single keywords: type, enum/const, string, number,
 * array and object keywords (the release tags: schema_versions.c). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "schema_internal.h"
#include "text.h"
#include "xalloc.h"

static const struct {
	const char *schema;
	const char *human;
} type_names[T__COUNT] = {
	[T_OBJECT] = { "object", "a mapping" }, [T_ARRAY] = { "array", "a list" },
	[T_STRING] = { "string", "a string" }, [T_INTEGER] = { "integer", "an integer" },
	[T_NUMBER] = { "number", "a number" },
	[T_BOOLEAN] = { "boolean", "a boolean (true or false)" }, [T_NULL] = { "null", "null" },
};


/* ---- instance facts -------------------------------------------------- */

static const char *describe(const yamldoc *doc, yd_node n)
{
	static const char *const by_type[] = {
		[YD_T_NULL] = "no value (null)", [YD_T_BOOL] = "a boolean",
		[YD_T_INT] = "an integer", [YD_T_FLOAT] = "a number",
		[YD_T_STRING] = "a string", [YD_T_TIMESTAMP] = "a date",
		[YD_T_UNKNOWN] = "a placeholder",
	};
	switch (yd_kind(doc, n)) {
	case YD_MAPPING: return "a mapping";
	case YD_SEQUENCE: return "a list";
	case YD_SCALAR: return by_type[yd_type(doc, n)];
	default: return "nothing";
	}
}

/* The types an instance node has: an integer is also a number, and so is
 * a float with no fraction (JSON Schema's rule). */
static unsigned instance_types(const yamldoc *doc, yd_node n)
{
	double d;
	switch (yd_kind(doc, n)) {
	case YD_MAPPING: return 1u << T_OBJECT;
	case YD_SEQUENCE: return 1u << T_ARRAY;
	case YD_SCALAR: break;
	default: return 0;
	}
	switch (yd_type(doc, n)) {
	case YD_T_STRING: return 1u << T_STRING;
	case YD_T_BOOL: return 1u << T_BOOLEAN;
	case YD_T_NULL: return 1u << T_NULL;
	case YD_T_TIMESTAMP: return 0; /* a date is none of JSON's types */
	case YD_T_UNKNOWN: return (1u << T__COUNT) - 1;
	case YD_T_INT: return 1u << T_INTEGER | 1u << T_NUMBER;
	case YD_T_FLOAT:
		if (yd_number(doc, n, &d) && isfinite(d) && d == floor(d))
			return 1u << T_INTEGER | 1u << T_NUMBER;
		return 1u << T_NUMBER;
	}
	return 0;
}

static bool same_text(const yamldoc *da, yd_node a, const yamldoc *db, yd_node b)
{
	size_t la, lb;
	const char *sa = yd_str(da, a, &la), *sb = yd_str(db, b, &lb);
	return la == lb && memcmp(sa, sb, la) == 0;
}

/* Equality of two scalars by their YAML meaning, across documents. */
static bool scalar_equal(const yamldoc *da, yd_node a, const yamldoc *db, yd_node b)
{
	if (yd_kind(da, a) != YD_SCALAR || yd_kind(db, b) != YD_SCALAR)
		return false;
	enum yd_type ta = yd_type(da, a), tb = yd_type(db, b);
	double x, y;
	bool bx, by;
	/* a string is never a number: the usual enum of words is settled
	 * by the text alone */
	if (ta == YD_T_STRING || tb == YD_T_STRING)
		return ta == tb && same_text(da, a, db, b);
	if (yd_number(da, a, &x) && yd_number(db, b, &y))
		return x == y;
	if (ta != tb)
		return false;
	if (ta == YD_T_BOOL)
		return yd_bool(da, a, &bx) && yd_bool(db, b, &by) && bx == by;
	if (ta == YD_T_NULL)
		return true;
	return same_text(da, a, db, b);
}

static bool node_equal(const yamldoc *d, yd_node a, yd_node b, unsigned budget)
{
	enum yd_kind k = yd_kind(d, a);
	if (k != yd_kind(d, b) || budget == 0)
		return false;
	if (k == YD_SCALAR)
		return scalar_equal(d, a, d, b);
	size_t n = yd_len(d, a);
	if (n != yd_len(d, b))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (k == YD_SEQUENCE) {
			if (!node_equal(d, yd_item(d, a, i), yd_item(d, b, i), budget - 1))
				return false;
			continue;
		}
		size_t ks;
		const char *key = yd_str(d, yd_key(d, a, i), &ks);
		yd_node other = key ? yd_get(d, b, key) : 0;
		if (!other || !node_equal(d, yd_value(d, a, i), other, budget - 1))
			return false;
	}
	return true;
}

/* The closest candidate within a small edit distance, or NULL. */
static const char *closest(const yamldoc *sd, yd_node names_map, const char *s,
			   size_t len)
{
	const char *best = NULL;
	size_t best_d = len / 3 + 1;
	if (best_d < 2)
		best_d = 2;
	size_t limit = best_d;
	for (size_t i = 0; i < yd_len(sd, names_map); i++) {
		yd_node k = yd_kind(sd, names_map) == YD_MAPPING
			? yd_key(sd, names_map, i) : yd_item(sd, names_map, i);
		size_t kl;
		const char *name = yd_str(sd, k, &kl);
		if (!name)
			continue;
		size_t d = text_edit_distance(s, len, name, kl, limit);
		if (d < best_d || (d == best_d && !best && d <= limit)) {
			best = name;
			best_d = d;
		}
	}
	return best_d <= limit ? best : NULL;
}

/* x-coerce: a value of another type that the loader converts is a
 * warning, and the checks after this one see it converted. */
static bool coerced(struct run *r, const struct compiled *c, yd_node n, struct schema_errors *out)
{
	struct sch_coerced v;
	if (!r->coerce || !sch_coerce(r->doc, n, c->types, &v))
		return false;
	r->coerced = n;
	r->coerced_number = v.boolean ? 1 : v.number;
	/* a warning: whether a branch matches does not depend on it */
	if (out->mode != SCHEMA_ERRS_KEEP)
		return true;
	char help[96];
	snprintf(help, sizeof help, "write %s (the fix does)", v.as);
	sch_err_add(out, SF_COERCED, n, n, help,
		"'%.60s' is %s; ParallelCluster reads it as the %s %s", yd_str(r->doc, n, NULL),
		v.why, v.type_bit == 1u << T_BOOLEAN ? "boolean" :
		v.type_bit == 1u << T_INTEGER ? "integer" : "number", v.as);
	sch_err_suggest(out, v.as);
	return true;
}

bool sch_check_type(struct run *r, const struct compiled *c, yd_node n,
		       yd_node holder, struct schema_errors *out)
{
	long long odd;
	if (r->coerce && out->mode == SCHEMA_ERRS_KEEP && (c->types & (1u << T_INTEGER)) &&
	    sch_int_surprise(r->doc, n, &odd)) {
		sch_err_add(out, SF_COERCED, n, n,
			"YAML 1.1 reads a leading 0 as octal, and a:b as base 60; quote the value or write the number meant",
			"'%s' is read as %lld", yd_str(r->doc, n, NULL), odd);
	}
	if (!c->kw[KW_TYPE] || (c->types & instance_types(r->doc, n)))
		return true;
	if (coerced(r, c, n, out))
		return true;
	if (sch_err_counted(out))
		return false;
	struct buf want = BUF_INIT;
	for (unsigned t = 0; t < T__COUNT; t++)
		if (c->types & (1u << t))
			buf_printf(&want, "%s%s", want.len ? " or " : "", type_names[t].human);
	const char *help = NULL;
	if (yd_type(r->doc, n) == YD_T_NULL && yd_kind(r->doc, n) == YD_SCALAR)
		help = "give it a value or remove the key";
	else if (yd_kind(r->doc, n) == YD_SCALAR && (c->types & (1u << T_STRING)))
		help = "quote the value to make it a string";
	size_t len = 0;
	const char *v = yd_str(r->doc, n, &len);
	if (v && len && len <= 60 && yd_type(r->doc, n) != YD_T_NULL)
		sch_err_add(out, SF_TYPE, n, sch_where(r->doc, n, holder), help,
			"expected %s, found %s ('%s')", want.p, describe(r->doc, n), v);
	else
		sch_err_add(out, SF_TYPE, n, sch_where(r->doc, n, holder), help,
			"expected %s, found %s", want.p, describe(r->doc, n));
	buf_free(&want);
	return false;
}

/* A value the loader converted (x-coerce) against a number or a boolean
 * of the schema. */
static bool coerced_equal(struct run *r, yd_node item, yd_node n)
{
	const yamldoc *sd = r->s->doc;
	double x;
	bool b;
	if (!n || r->coerced != n)
		return false;
	if (yd_type(sd, item) == YD_T_BOOL && yd_bool(sd, item, &b))
		return (b ? 1 : 0) == r->coerced_number;
	return yd_number(sd, item, &x) && x == r->coerced_number;
}

void sch_check_enum(struct run *r, const struct compiled *c, yd_node n,
		       struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node e = c->kw[KW_ENUM];
	if (c->kw[KW_CONST]) {
		if (!scalar_equal(sd, c->kw[KW_CONST], r->doc, n) &&
		    !coerced_equal(r, c->kw[KW_CONST], n))
			sch_err_add(out, SF_VALUE, n, n, NULL, "value must be '%s'",
				yd_str(sd, c->kw[KW_CONST], NULL));
	}
	if (!e)
		return;
	for (size_t i = 0; i < yd_len(sd, e); i++)
		if (scalar_equal(sd, yd_item(sd, e, i), r->doc, n) ||
		    coerced_equal(r, yd_item(sd, e, i), n))
			return;
	if (sch_err_counted(out))
		return;
	struct buf list = BUF_INIT;
	for (size_t i = 0; i < yd_len(sd, e); i++)
		buf_printf(&list, "%s%s", i ? ", " : "", yd_str(sd, yd_item(sd, e, i), NULL));
	size_t len = 0;
	const char *v = yd_str(r->doc, n, &len);
	const char *near = v ? closest(sd, e, v, len) : NULL;
	char help[160];
	if (near)
		snprintf(help, sizeof help, "did you mean '%s'?", near);
	sch_err_add(out, SF_VALUE, n, n, near ? help : NULL,
		"'%s' is not one of: %s", v ? v : describe(r->doc, n), list.p);
	sch_err_suggest(out, near);
	buf_free(&list);
}

void sch_check_string(struct run *r, const struct compiled *c, yd_node n,
			 yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	size_t len;
	const char *v = yd_str(r->doc, n, &len);
	if (!v || yd_type(r->doc, n) != YD_T_STRING)
		return;
	size_t cps = c->min_length.set || c->max_length.set ? utf8_count(v, len) : 0;
	if (c->min_length.set && (long long)cps < c->min_length.v)
		sch_err_add(out, SF_VALUE, n, n, NULL,
			"'%s' is too short: at least %lld characters", v, c->min_length.v);
	if (c->max_length.set && (long long)cps > c->max_length.v)
		sch_err_add(out, SF_VALUE, n, n, NULL,
			"'%.60s' is too long: %zu characters, at most %lld", v, cps,
			c->max_length.v);
	struct regex *re = c->kw[KW_PATTERN] ? sch_pattern(r->s, c) : NULL;
	if (c->kw[KW_PATTERN] && !re && !sch_err_counted(out)) {
		sch_err_add(out, SF_SCHEMA, n, n, NULL, "the schema has a bad pattern here");
		return;
	}
	if (re && !regex_match(re, v, len) && !sch_err_counted(out)) {
		/* A pattern is a poor explanation; x-message beside it says
		 * the same in words. */
		char help[512];
		if (c->kw[KW_MESSAGE])
			snprintf(help, sizeof help, "expected %s", yd_str(sd, c->kw[KW_MESSAGE], NULL));
		else
			snprintf(help, sizeof help, "expected a value matching %s",
				 yd_str(sd, c->kw[KW_PATTERN], NULL));
		const char *key = holder ? yd_str(r->doc, holder, NULL) : NULL;
		if (key)
			sch_err_add(out, SF_VALUE, n, n, help, "'%.80s' is not a valid %s", v, key);
		else
			sch_err_add(out, SF_VALUE, n, n, help, "'%.80s' is not a valid value here", v);
	}
}

void sch_check_number(struct run *r, const struct compiled *c, yd_node n,
			 struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	double v;
	if (r->coerced == n && n)
		v = r->coerced_number; /* as the loader converted it */
	else if (!yd_number(r->doc, n, &v))
		return;
	static const struct {
		enum kw kw;
		int sign; /* -1: v must be >= (or >) lim; +1: <= (or <) */
		bool exclusive;
		const char *what;
	} bounds[] = {
		{ KW_MINIMUM, -1, false, "at least" },
		{ KW_MAXIMUM, 1, false, "at most" },
		{ KW_XMINIMUM, -1, true, "above" },
		{ KW_XMAXIMUM, 1, true, "below" },
	};
	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
		const struct sch_num *b = &c->bound[bounds[i].kw - KW_MINIMUM];
		if (!b->set)
			continue;
		bool bad = bounds[i].sign < 0
			? (bounds[i].exclusive ? v <= b->v : v < b->v)
			: (bounds[i].exclusive ? v >= b->v : v > b->v);
		if (bad)
			sch_err_add(out, SF_VALUE, n, n, NULL, "%s is out of range: must be %s %s",
				yd_str(r->doc, n, NULL), bounds[i].what,
				yd_str(sd, c->kw[bounds[i].kw], NULL));
	}
}

void sch_check_array(struct run *r, const struct compiled *c, yd_node n,
			yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const yamldoc *d = r->doc;
	if (yd_kind(d, n) != YD_SEQUENCE)
		return;
	size_t len = yd_len(d, n);
	if (c->min_items.set && (long long)len < c->min_items.v)
		sch_err_add(out, SF_VALUE, n, sch_where(d, n, holder), NULL,
			"the list has %zu item%s; at least %lld needed", len,
			len == 1 ? "" : "s", c->min_items.v);
	if (c->max_items.set && (long long)len > c->max_items.v)
		sch_err_add(out, SF_VALUE, n, sch_where(d, n, holder), NULL,
			"the list has %zu items; at most %lld allowed", len, c->max_items.v);
	bool unique;
	if (c->kw[KW_UNIQUE] && yd_bool(sd, c->kw[KW_UNIQUE], &unique) && unique) {
		for (size_t i = 1; i < len && i < 4096; i++)
			for (size_t j = 0; j < i; j++)
				if (node_equal(d, yd_item(d, n, i), yd_item(d, n, j), 64)) {
					sch_err_add(out, SF_VALUE, yd_item(d, n, i), yd_item(d, n, i), NULL,
						"item %zu repeats item %zu; items must be unique", i, j);
					break;
				}
	}
	size_t count;
	const yd_node *items = yd_children(d, n, &count);
	for (size_t i = 0; c->kw[KW_ITEMS] && i < count && !sch_err_enough(out); i++)
		sch_validate(r, c->kw[KW_ITEMS], items[i], 0, out);
}

/* A missing key that an unknown key in the same mapping was probably meant
 * to be is not reported twice. */
static bool typo_of(const yamldoc *d, yd_node n, const char *want)
{
	size_t wl = strlen(want);
	for (size_t i = 0; i < yd_len(d, n); i++) {
		size_t kl;
		const char *k = yd_str(d, yd_key(d, n, i), &kl);
		if (k && text_edit_distance(k, kl, want, wl, wl / 3 + 1) <= (wl / 3 + 1 > 2 ? wl / 3 + 1 : 2))
			return true;
	}
	return false;
}

void sch_check_object(struct run *r, const struct compiled *c, yd_node n,
			 yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const yamldoc *d = r->doc;
	if (yd_kind(d, n) != YD_MAPPING)
		return;
	yd_node props = c->kw[KW_PROPERTIES];
	size_t count;
	const yd_node *kids = yd_children(d, n, &count);
	bool placeholder_key = false; /* may be any key, the required one too */
	for (size_t i = 0; i < count && !sch_err_enough(out); i += 2) {
		yd_node k = kids[i], v = kids[i + 1];
		size_t kl;
		const char *key = yd_str(d, k, &kl);
		if (!key) {
			sch_err_add(out, SF_TYPE, k, k, NULL, "a key must be a plain string");
			continue;
		}
		if (yd_type(d, k) == YD_T_UNKNOWN) {
			placeholder_key = r->unknown = true;
			continue;
		}
		if (c->kw[KW_PROPNAMES])
			sch_validate(r, c->kw[KW_PROPNAMES], k, 0, out);
		yd_node ps = props ? sch_property(r->s, c, key, kl) : 0;
		if (ps) {
			sch_validate(r, ps, v, k, out);
		} else if (c->extra) {
			sch_validate(r, c->extra, v, k, out);
		} else if (c->closed && !sch_err_counted(out)) {
			const char *near = props ? closest(sd, props, key, kl) : NULL;
			char help[200];
			if (near)
				snprintf(help, sizeof help, "did you mean '%s'?%s", near,
					 strcasecmp(near, key) == 0 ? " (keys are case-sensitive)" : "");
			sch_err_add(out, SF_UNKNOWN_KEY, k, k, near ? help : NULL,
				"unknown key '%s'", key);
			sch_err_suggest(out, near);
		}
	}
	for (size_t i = 0; i < c->n_required && !placeholder_key && !sch_err_enough(out); i++) {
		const char *want = sch_required(r->s, c, i);
		if (!yd_get_key(d, n, want) && !(c->closed && typo_of(d, n, want)))
			sch_err_add(out, SF_MISSING, n, sch_where(d, n, holder), NULL,
				"missing required key '%s'", want);
	}
	yd_node dep = c->kw[KW_DEPREQ];
	for (size_t i = 0; dep && i < yd_len(sd, dep) && !sch_err_enough(out); i++) {
		const char *if_key = yd_str(sd, yd_key(sd, dep, i), NULL);
		yd_node needs = yd_value(sd, dep, i);
		yd_node present = if_key ? yd_get_key(d, n, if_key) : 0;
		for (size_t j = 0; present && j < yd_len(sd, needs); j++) {
			const char *want = yd_str(sd, yd_item(sd, needs, j), NULL);
			if (want && !yd_get_key(d, n, want))
				sch_err_add(out, SF_MISSING, n, present, NULL,
					"'%s' needs '%s' in the same mapping", if_key, want);
		}
	}
}
