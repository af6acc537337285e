#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "regex.h"
#include "text.h"
#include "xalloc.h"

enum kw {
	KW_TYPE, KW_PROPERTIES, KW_REQUIRED, KW_ADDITIONAL, KW_ENUM, KW_CONST,
	KW_PATTERN, KW_MINIMUM, KW_MAXIMUM, KW_XMINIMUM, KW_XMAXIMUM,
	KW_MINLENGTH, KW_MAXLENGTH, KW_ITEMS, KW_MINITEMS, KW_MAXITEMS,
	KW_UNIQUE, KW_ONEOF, KW_ANYOF, KW_ALLOF, KW_NOT, KW_IF, KW_THEN,
	KW_ELSE, KW_DEPREQ, KW_REF, KW_SINCE, KW_MESSAGE, KW__COUNT
};

static const char *const kw_names[KW__COUNT] = {
	[KW_TYPE] = "type", [KW_PROPERTIES] = "properties",
	[KW_REQUIRED] = "required", [KW_ADDITIONAL] = "additionalProperties",
	[KW_ENUM] = "enum", [KW_CONST] = "const", [KW_PATTERN] = "pattern",
	[KW_MINIMUM] = "minimum", [KW_MAXIMUM] = "maximum",
	[KW_XMINIMUM] = "exclusiveMinimum", [KW_XMAXIMUM] = "exclusiveMaximum",
	[KW_MINLENGTH] = "minLength", [KW_MAXLENGTH] = "maxLength",
	[KW_ITEMS] = "items", [KW_MINITEMS] = "minItems",
	[KW_MAXITEMS] = "maxItems", [KW_UNIQUE] = "uniqueItems",
	[KW_ONEOF] = "oneOf", [KW_ANYOF] = "anyOf", [KW_ALLOF] = "allOf",
	[KW_NOT] = "not", [KW_IF] = "if", [KW_THEN] = "then", [KW_ELSE] = "else",
	[KW_DEPREQ] = "dependentRequired", [KW_REF] = "$ref",
	[KW_SINCE] = "x-since", [KW_MESSAGE] = "x-message",
};

/* JSON Schema types, in the order of their bits in a type mask. */
enum { T_OBJECT, T_ARRAY, T_STRING, T_INTEGER, T_NUMBER, T_BOOLEAN, T_NULL, T__COUNT };

static const struct {
	const char *schema;
	const char *human;
} type_names[T__COUNT] = {
	[T_OBJECT] = { "object", "a mapping" }, [T_ARRAY] = { "array", "a list" },
	[T_STRING] = { "string", "a string" }, [T_INTEGER] = { "integer", "an integer" },
	[T_NUMBER] = { "number", "a number" },
	[T_BOOLEAN] = { "boolean", "a boolean (true or false)" }, [T_NULL] = { "null", "null" },
};

static unsigned type_bit(const char *name)
{
	for (unsigned t = 0; name && t < T__COUNT; t++)
		if (strcmp(type_names[t].schema, name) == 0)
			return 1u << t;
	return 0;
}

/* A schema object with its keywords looked up once. */
struct compiled {
	yd_node kw[KW__COUNT];
	yd_node ref;        /* resolved $ref target */
	struct regex *re;   /* compiled pattern */
	unsigned types;     /* bits of the `type` keyword */
	bool bad;           /* pattern or $ref could not be used */
};

struct schema {
	const yamldoc *doc;
	struct compiled **cache; /* indexed by schema node */
	size_t n;
};

/* Schemas may refer to themselves; real instances are bounded by the YAML
 * depth limit, so this only stops a $ref loop that consumes no input. */
enum { MAX_DEPTH = 1024 };

struct run {
	schema *s;
	const yamldoc *doc;
	unsigned depth;
};

schema *schema_new(const yamldoc *doc)
{
	schema *s = xcalloc(1, sizeof *s);
	s->doc = doc;
	s->n = yamldoc_node_count(doc) + 1;
	s->cache = xcalloc(s->n, sizeof *s->cache);
	return s;
}

void schema_free(schema *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		if (s->cache[i])
			regex_free(s->cache[i]->re);
		free(s->cache[i]);
	}
	free(s->cache);
	free(s);
}

static yd_node resolve_ref(const yamldoc *sd, yd_node ref)
{
	const char *p = yd_str(sd, ref, NULL);
	if (!p || p[0] != '#')
		return 0;
	yd_node at = yd_root(sd);
	p++;
	while (*p == '/' && at) {
		p++;
		size_t n = strcspn(p, "/");
		char *seg = xstrndup(p, n);
		at = yd_get(sd, at, seg);
		free(seg);
		p += n;
	}
	return at;
}

static struct compiled *compile(schema *s, yd_node sn)
{
	if (sn >= s->n)
		return NULL;
	if (s->cache[sn])
		return s->cache[sn];
	struct compiled *c = xcalloc(1, sizeof *c);
	const yamldoc *sd = s->doc;
	size_t pairs = yd_len(sd, sn);
	for (size_t i = 0; yd_kind(sd, sn) == YD_MAPPING && i < pairs; i++) {
		size_t len;
		const char *k = yd_str(sd, yd_key(sd, sn, i), &len);
		for (int w = 0; k && w < KW__COUNT; w++)
			if (strcmp(k, kw_names[w]) == 0)
				c->kw[w] = yd_value(sd, sn, i);
	}
	yd_node t = c->kw[KW_TYPE];
	if (yd_kind(sd, t) == YD_SEQUENCE)
		for (size_t i = 0; i < yd_len(sd, t); i++)
			c->types |= type_bit(yd_str(sd, yd_item(sd, t, i), NULL));
	else if (t)
		c->types = type_bit(yd_str(sd, t, NULL));
	c->bad |= t && !c->types;
	if (c->kw[KW_REF]) {
		c->ref = resolve_ref(sd, c->kw[KW_REF]);
		c->bad |= !c->ref;
	}
	if (c->kw[KW_PATTERN]) {
		size_t len;
		const char *pat = yd_str(sd, c->kw[KW_PATTERN], &len);
		char err[256];
		c->re = pat ? regex_new(pat, len, err, sizeof err) : NULL;
		c->bad |= !c->re;
	}
	s->cache[sn] = c;
	return c;
}

/* ---- errors ---------------------------------------------------------- */

static void err_add(struct schema_errors *out, enum schema_fault fault,
		    yd_node node, yd_node pos, const char *help,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void err_add(struct schema_errors *out, enum schema_fault fault,
		    yd_node node, yd_node pos, const char *help,
		    const char *fmt, ...)
{
	out->v = xgrow(out->v, &out->cap, out->len + 1, sizeof *out->v);
	struct schema_error *e = &out->v[out->len++];
	e->fault = fault;
	e->node = node;
	e->pos = pos ? pos : node;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	e->msg = buf_detach(&b);
	e->help = help ? xstrdup(help) : NULL;
}

void schema_errors_free(struct schema_errors *errs)
{
	for (size_t i = 0; i < errs->len; i++) {
		free(errs->v[i].msg);
		free(errs->v[i].help);
	}
	free(errs->v);
	errs->v = NULL;
	errs->len = errs->cap = 0;
}

static void errs_move(struct schema_errors *to, struct schema_errors *from)
{
	for (size_t i = 0; i < from->len; i++) {
		to->v = xgrow(to->v, &to->cap, to->len + 1, sizeof *to->v);
		to->v[to->len++] = from->v[i];
	}
	free(from->v);
	from->v = NULL;
	from->len = from->cap = 0;
}

/* ---- instance facts -------------------------------------------------- */

static const char *describe(const yamldoc *doc, yd_node n)
{
	static const char *const by_type[] = {
		[YD_T_NULL] = "no value (null)", [YD_T_BOOL] = "a boolean",
		[YD_T_INT] = "an integer", [YD_T_FLOAT] = "a number",
		[YD_T_STRING] = "a string",
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
	case YD_T_INT: return 1u << T_INTEGER | 1u << T_NUMBER;
	case YD_T_FLOAT:
		if (yd_number(doc, n, &d) && isfinite(d) && d == floor(d))
			return 1u << T_INTEGER | 1u << T_NUMBER;
		return 1u << T_NUMBER;
	}
	return 0;
}

/* Equality of two scalars by their YAML meaning, across documents. */
static bool scalar_equal(const yamldoc *da, yd_node a, const yamldoc *db, yd_node b)
{
	if (yd_kind(da, a) != YD_SCALAR || yd_kind(db, b) != YD_SCALAR)
		return false;
	enum yd_type ta = yd_type(da, a), tb = yd_type(db, b);
	double x, y;
	bool bx, by;
	if (yd_number(da, a, &x) && yd_number(db, b, &y))
		return x == y;
	if (ta != tb)
		return false;
	if (ta == YD_T_BOOL)
		return yd_bool(da, a, &bx) && yd_bool(db, b, &by) && bx == by;
	if (ta == YD_T_NULL)
		return true;
	size_t la, lb;
	const char *sa = yd_str(da, a, &la), *sb = yd_str(db, b, &lb);
	return la == lb && memcmp(sa, sb, la) == 0;
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

/* ---- validation ------------------------------------------------------ */

static void validate(struct run *r, yd_node sn, yd_node n, yd_node holder,
		     struct schema_errors *out);

/* Validates without reporting; true when n matches sn. */
static bool matches(struct run *r, yd_node sn, yd_node n, yd_node holder,
		    struct schema_errors *keep)
{
	struct schema_errors tmp = { 0 };
	validate(r, sn, n, holder, &tmp);
	bool ok = tmp.len == 0;
	if (keep)
		errs_move(keep, &tmp);
	else
		schema_errors_free(&tmp);
	return ok;
}

static yd_node where(const yamldoc *doc, yd_node n, yd_node holder)
{
	return holder && yd_kind(doc, n) != YD_SCALAR ? holder : n;
}

static bool check_type(struct run *r, struct compiled *c, yd_node n,
		       yd_node holder, struct schema_errors *out)
{
	if (!c->kw[KW_TYPE] || (c->types & instance_types(r->doc, n)))
		return true;
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
		err_add(out, SF_TYPE, n, where(r->doc, n, holder), help,
			"expected %s, found %s ('%s')", want.p, describe(r->doc, n), v);
	else
		err_add(out, SF_TYPE, n, where(r->doc, n, holder), help,
			"expected %s, found %s", want.p, describe(r->doc, n));
	buf_free(&want);
	return false;
}

static void check_enum(struct run *r, struct compiled *c, yd_node n,
		       struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node e = c->kw[KW_ENUM];
	if (c->kw[KW_CONST]) {
		if (!scalar_equal(sd, c->kw[KW_CONST], r->doc, n))
			err_add(out, SF_VALUE, n, n, NULL, "value must be '%s'",
				yd_str(sd, c->kw[KW_CONST], NULL));
	}
	if (!e)
		return;
	for (size_t i = 0; i < yd_len(sd, e); i++)
		if (scalar_equal(sd, yd_item(sd, e, i), r->doc, n))
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
	err_add(out, SF_VALUE, n, n, near ? help : NULL,
		"'%s' is not one of: %s", v ? v : describe(r->doc, n), list.p);
	buf_free(&list);
}

static void check_since(struct run *r, struct compiled *c, yd_node n,
			struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const char *v = yd_str(r->doc, n, NULL);
	if (!c->kw[KW_SINCE] || !v)
		return;
	yd_node rel = yd_get(sd, c->kw[KW_SINCE], v);
	if (rel)
		err_add(out, SF_SINCE, n, n, NULL,
			"'%s' needs ParallelCluster %s or later; 3.11 rejects it",
			v, yd_str(sd, rel, NULL));
}

static void check_string(struct run *r, struct compiled *c, yd_node n,
			 yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	size_t len;
	const char *v = yd_str(r->doc, n, &len);
	if (!v || yd_type(r->doc, n) != YD_T_STRING)
		return;
	size_t cps = utf8_count(v, len);
	long long lim;
	if (c->kw[KW_MINLENGTH] && yd_int(sd, c->kw[KW_MINLENGTH], &lim) &&
	    (long long)cps < lim)
		err_add(out, SF_VALUE, n, n, NULL,
			"'%s' is too short: at least %lld characters", v, lim);
	if (c->kw[KW_MAXLENGTH] && yd_int(sd, c->kw[KW_MAXLENGTH], &lim) &&
	    (long long)cps > lim)
		err_add(out, SF_VALUE, n, n, NULL,
			"'%.60s' is too long: %zu characters, at most %lld", v, cps, lim);
	if (c->re && !regex_match(c->re, v, len)) {
		char help[512];
		snprintf(help, sizeof help, "expected a value matching %s",
			 yd_str(sd, c->kw[KW_PATTERN], NULL));
		const char *key = holder ? yd_str(r->doc, holder, NULL) : NULL;
		if (key)
			err_add(out, SF_VALUE, n, n, help, "'%.80s' is not a valid %s", v, key);
		else
			err_add(out, SF_VALUE, n, n, help, "'%.80s' is not a valid value here", v);
	}
}

static void check_number(struct run *r, struct compiled *c, yd_node n,
			 struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	double v, lim;
	if (!yd_number(r->doc, n, &v))
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
		yd_node b = c->kw[bounds[i].kw];
		if (!b || !yd_number(sd, b, &lim))
			continue;
		bool bad = bounds[i].sign < 0
			? (bounds[i].exclusive ? v <= lim : v < lim)
			: (bounds[i].exclusive ? v >= lim : v > lim);
		if (bad)
			err_add(out, SF_VALUE, n, n, NULL, "%s is out of range: must be %s %s",
				yd_str(r->doc, n, NULL), bounds[i].what, yd_str(sd, b, NULL));
	}
}

static void check_array(struct run *r, struct compiled *c, yd_node n,
			yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const yamldoc *d = r->doc;
	if (yd_kind(d, n) != YD_SEQUENCE)
		return;
	size_t len = yd_len(d, n);
	long long lim;
	if (c->kw[KW_MINITEMS] && yd_int(sd, c->kw[KW_MINITEMS], &lim) && (long long)len < lim)
		err_add(out, SF_VALUE, n, where(d, n, holder), NULL,
			"the list has %zu item%s; at least %lld needed", len,
			len == 1 ? "" : "s", lim);
	if (c->kw[KW_MAXITEMS] && yd_int(sd, c->kw[KW_MAXITEMS], &lim) && (long long)len > lim)
		err_add(out, SF_VALUE, n, where(d, n, holder), NULL,
			"the list has %zu items; at most %lld allowed", len, lim);
	bool unique;
	if (c->kw[KW_UNIQUE] && yd_bool(sd, c->kw[KW_UNIQUE], &unique) && unique) {
		for (size_t i = 1; i < len && i < 4096; i++)
			for (size_t j = 0; j < i; j++)
				if (node_equal(d, yd_item(d, n, i), yd_item(d, n, j), 64)) {
					err_add(out, SF_VALUE, yd_item(d, n, i), yd_item(d, n, i), NULL,
						"item %zu repeats item %zu; items must be unique", i, j);
					break;
				}
	}
	if (c->kw[KW_ITEMS])
		for (size_t i = 0; i < len; i++)
			validate(r, c->kw[KW_ITEMS], yd_item(d, n, i), 0, out);
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

static void check_object(struct run *r, struct compiled *c, yd_node n,
			 yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const yamldoc *d = r->doc;
	if (yd_kind(d, n) != YD_MAPPING)
		return;
	yd_node props = c->kw[KW_PROPERTIES], extra = c->kw[KW_ADDITIONAL];
	bool closed = false;
	if (extra && yd_kind(sd, extra) == YD_SCALAR) {
		bool allow;
		closed = yd_bool(sd, extra, &allow) && !allow;
		extra = 0;
	}
	for (size_t i = 0; i < yd_len(d, n); i++) {
		yd_node k = yd_key(d, n, i), v = yd_value(d, n, i);
		size_t kl;
		const char *key = yd_str(d, k, &kl);
		if (!key) {
			err_add(out, SF_TYPE, k, k, NULL, "a key must be a plain string");
			continue;
		}
		yd_node ps = props ? yd_get(sd, props, key) : 0;
		if (ps) {
			validate(r, ps, v, k, out);
		} else if (extra) {
			validate(r, extra, v, k, out);
		} else if (closed) {
			const char *near = props ? closest(sd, props, key, kl) : NULL;
			char help[200];
			if (near)
				snprintf(help, sizeof help, "did you mean '%s'?%s", near,
					 strcasecmp(near, key) == 0 ? " (keys are case-sensitive)" : "");
			err_add(out, SF_UNKNOWN_KEY, k, k, near ? help : NULL,
				"unknown key '%s'", key);
		}
	}
	yd_node req = c->kw[KW_REQUIRED];
	for (size_t i = 0; req && i < yd_len(sd, req); i++) {
		const char *want = yd_str(sd, yd_item(sd, req, i), NULL);
		if (want && !yd_get_key(d, n, want) && !(closed && typo_of(d, n, want)))
			err_add(out, SF_MISSING, n, where(d, n, holder), NULL,
				"missing required key '%s'", want);
	}
	yd_node dep = c->kw[KW_DEPREQ];
	for (size_t i = 0; dep && i < yd_len(sd, dep); i++) {
		const char *if_key = yd_str(sd, yd_key(sd, dep, i), NULL);
		yd_node needs = yd_value(sd, dep, i);
		yd_node present = if_key ? yd_get_key(d, n, if_key) : 0;
		for (size_t j = 0; present && j < yd_len(sd, needs); j++) {
			const char *want = yd_str(sd, yd_item(sd, needs, j), NULL);
			if (want && !yd_get_key(d, n, want))
				err_add(out, SF_MISSING, n, present, NULL,
					"'%s' needs '%s' in the same mapping", if_key, want);
		}
	}
}

/* The message for a failed `not`: names the keys when it forbids a set. */
static void not_failed(struct run *r, yd_node inner, yd_node n, yd_node holder,
		       struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node req = yd_get(sd, inner, "required");
	if (req && yd_len(sd, inner) == 1 && yd_len(sd, req) >= 2) {
		struct buf keys = BUF_INIT;
		for (size_t i = 0; i < yd_len(sd, req); i++)
			buf_printf(&keys, "%s'%s'", i == 0 ? "" :
				   i + 1 == yd_len(sd, req) ? " and " : ", ",
				   yd_str(sd, yd_item(sd, req, i), NULL));
		err_add(out, SF_CONFLICT, n, where(r->doc, n, holder), NULL,
			"%s cannot be used together", keys.p);
		buf_free(&keys);
		return;
	}
	err_add(out, SF_CONFLICT, n, where(r->doc, n, holder), NULL,
		"this combination of keys is not allowed");
}

/* Reports a failed rule with its x-message, classifying it by what failed. */
static void message_failed(struct run *r, yd_node msg, struct schema_errors *inner,
			   yd_node n, yd_node holder, struct schema_errors *out)
{
	enum schema_fault f = SF_MISSING;
	for (size_t i = 0; i < inner->len; i++)
		if (inner->v[i].fault != SF_MISSING)
			f = SF_CONFLICT;
	if (!inner->len)
		f = SF_CONFLICT;
	err_add(out, f, n, where(r->doc, n, holder), NULL, "%s",
		yd_str(r->s->doc, msg, NULL));
}

/* Validates a rule subschema; its x-message, when it has one, replaces
 * the low-level reasons. */
static void validate_rule(struct run *r, yd_node sn, yd_node n, yd_node holder,
			  struct schema_errors *out)
{
	struct compiled *c = compile(r->s, sn);
	if (!c || !c->kw[KW_MESSAGE]) {
		validate(r, sn, n, holder, out);
		return;
	}
	struct schema_errors tmp = { 0 };
	validate(r, sn, n, holder, &tmp);
	if (tmp.len)
		message_failed(r, c->kw[KW_MESSAGE], &tmp, n, holder, out);
	schema_errors_free(&tmp);
}

static void check_combinators(struct run *r, struct compiled *c, yd_node n,
			      yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node msg = c->kw[KW_MESSAGE];
	if (c->kw[KW_ALLOF])
		for (size_t i = 0; i < yd_len(sd, c->kw[KW_ALLOF]); i++)
			validate_rule(r, yd_item(sd, c->kw[KW_ALLOF], i), n, holder, out);
	if (c->kw[KW_NOT] && matches(r, c->kw[KW_NOT], n, holder, NULL)) {
		struct compiled *nc = compile(r->s, c->kw[KW_NOT]);
		yd_node m = nc && nc->kw[KW_MESSAGE] ? nc->kw[KW_MESSAGE] : msg;
		if (m)
			err_add(out, SF_CONFLICT, n, where(r->doc, n, holder), NULL,
				"%s", yd_str(sd, m, NULL));
		else
			not_failed(r, c->kw[KW_NOT], n, holder, out);
	}
	if (c->kw[KW_IF]) {
		yd_node branch = matches(r, c->kw[KW_IF], n, holder, NULL)
			? c->kw[KW_THEN] : c->kw[KW_ELSE];
		if (branch)
			validate_rule(r, branch, n, holder, out);
	}
	for (int w = KW_ONEOF; w <= KW_ANYOF; w++) {
		yd_node alts = c->kw[w];
		if (!alts)
			continue;
		size_t count = yd_len(sd, alts), passed = 0, best = 0;
		struct schema_errors *trial = xcalloc(count ? count : 1, sizeof *trial);
		for (size_t i = 0; i < count; i++) {
			passed += matches(r, yd_item(sd, alts, i), n, holder, &trial[i]);
			if (trial[i].len < trial[best].len)
				best = i;
		}
		if (passed == 0 || (w == KW_ONEOF && passed > 1)) {
			if (msg)
				message_failed(r, msg, &trial[best], n, holder, out);
			else if (passed > 1)
				err_add(out, SF_CONFLICT, n, where(r->doc, n, holder), NULL,
					"the value fits more than one of the allowed forms");
			else
				errs_move(out, &trial[best]);
		}
		for (size_t i = 0; i < count; i++)
			schema_errors_free(&trial[i]);
		free(trial);
	}
}

static void validate(struct run *r, yd_node sn, yd_node n, yd_node holder,
		     struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	bool allow;
	if (yd_kind(sd, sn) == YD_SCALAR && yd_bool(sd, sn, &allow)) {
		if (!allow)
			err_add(out, SF_VALUE, n, where(r->doc, n, holder), NULL,
				"no value is allowed here");
		return;
	}
	struct compiled *c = compile(r->s, sn);
	if (!c || r->depth >= MAX_DEPTH)
		return;
	if (c->bad) {
		err_add(out, SF_SCHEMA, n, where(r->doc, n, holder), NULL,
			"the schema has a bad pattern or $ref here");
		return;
	}
	r->depth++;
	if (c->ref)
		validate(r, c->ref, n, holder, out);
	if (check_type(r, c, n, holder, out)) {
		check_enum(r, c, n, out);
		check_since(r, c, n, out);
		check_string(r, c, n, holder, out);
		check_number(r, c, n, out);
		check_array(r, c, n, holder, out);
		check_object(r, c, n, holder, out);
		check_combinators(r, c, n, holder, out);
	}
	r->depth--;
}

void schema_validate(schema *s, const yamldoc *doc, yd_node root,
		     struct schema_errors *errs)
{
	struct run r = { s, doc, 0 };
	if (root)
		validate(&r, yd_root(s->doc), root, 0, errs);
}
