/* The validation walk: schema objects compiled once, error lists, the
 * combinators (allOf, anyOf, oneOf, not, if/then/else) and $ref. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "schema_internal.h"
#include "xalloc.h"

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
	[KW_DEPREQ] = "dependentRequired", [KW_PROPNAMES] = "propertyNames",
	[KW_REF] = "$ref",
	[KW_SINCE] = "x-since", [KW_UNTIL] = "x-until", [KW_MESSAGE] = "x-message",
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
		if (s->cache[i]) {
			regex_free(s->cache[i]->re);
			free(s->cache[i]->props);
			free(s->cache[i]->required);
		}
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

/* `properties` as a sorted array: a config looks up every one of its
 * keys, and a linear scan of 30 names per key dominated lint time. */
static int key_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);
	return c ? c : (al > bl) - (al < bl);
}

static int prop_cmp(const void *pa, const void *pb)
{
	const struct sch_prop *a = pa, *b = pb;
	return key_cmp(a->name, a->len, b->name, b->len);
}

static void index_properties(const yamldoc *sd, struct compiled *c)
{
	yd_node props = c->kw[KW_PROPERTIES];
	if (yd_kind(sd, props) != YD_MAPPING)
		return;
	c->n_props = yd_len(sd, props);
	c->props = xmalloc((c->n_props ? c->n_props : 1) * sizeof *c->props);
	for (size_t i = 0; i < c->n_props; i++) {
		struct sch_prop *p = &c->props[i];
		p->name = yd_str(sd, yd_key(sd, props, i), &p->len);
		if (!p->name) {
			p->name = "";
			p->len = 0;
		}
		p->schema = yd_value(sd, props, i);
	}
	qsort(c->props, c->n_props, sizeof *c->props, prop_cmp);
}

yd_node sch_property(const struct compiled *c, const char *key, size_t len)
{
	size_t lo = 0, hi = c->n_props;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = key_cmp(key, len, c->props[mid].name, c->props[mid].len);
		if (!cmp)
			return c->props[mid].schema;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* The object keywords every mapping is checked against, read once. */
static void read_object(const yamldoc *sd, struct compiled *c)
{
	yd_node extra = c->kw[KW_ADDITIONAL], req = c->kw[KW_REQUIRED];
	bool allow;
	if (yd_kind(sd, extra) == YD_SCALAR)
		c->closed = yd_bool(sd, extra, &allow) && !allow;
	else
		c->extra = extra;
	c->required = xmalloc((yd_len(sd, req) + 1) * sizeof *c->required);
	for (size_t i = 0; i < yd_len(sd, req); i++) {
		const char *name = yd_str(sd, yd_item(sd, req, i), NULL);
		if (name)
			c->required[c->n_required++] = name;
	}
}

static struct sch_int read_int(const yamldoc *sd, yd_node n)
{
	struct sch_int i = { false, 0 };
	i.set = n && yd_int(sd, n, &i.v);
	return i;
}

static void read_numbers(const yamldoc *sd, struct compiled *c)
{
	c->min_length = read_int(sd, c->kw[KW_MINLENGTH]);
	c->max_length = read_int(sd, c->kw[KW_MAXLENGTH]);
	c->min_items = read_int(sd, c->kw[KW_MINITEMS]);
	c->max_items = read_int(sd, c->kw[KW_MAXITEMS]);
	for (unsigned w = KW_MINIMUM; w <= KW_XMAXIMUM; w++) {
		struct sch_num *b = &c->bound[w - KW_MINIMUM];
		b->set = c->kw[w] && yd_number(sd, c->kw[w], &b->v);
	}
}

struct compiled *sch_compile(schema *s, yd_node sn)
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
			if (k[0] == kw_names[w][0] && strcmp(k, kw_names[w]) == 0)
				c->kw[w] = yd_value(sd, sn, i);
	}
	static const struct {
		enum kw first, last;
		unsigned check;
	} groups[] = {
		{ KW_ENUM, KW_CONST, CK_ENUM }, { KW_SINCE, KW_UNTIL, CK_SINCE },
		{ KW_PATTERN, KW_PATTERN, CK_STRING },
		{ KW_MINLENGTH, KW_MAXLENGTH, CK_STRING },
		{ KW_MINIMUM, KW_XMAXIMUM, CK_NUMBER },
		{ KW_ITEMS, KW_UNIQUE, CK_ARRAY }, { KW_ONEOF, KW_ELSE, CK_COMBINE },
	};
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		for (unsigned w = groups[g].first; w <= groups[g].last; w++)
			if (c->kw[w])
				c->checks |= groups[g].check;
	c->boolean = yd_kind(sd, sn) == YD_SCALAR && yd_bool(sd, sn, &c->allow);
	yd_node t = c->kw[KW_TYPE];
	if (yd_kind(sd, t) == YD_SEQUENCE)
		for (size_t i = 0; i < yd_len(sd, t); i++)
			c->types |= sch_type_bit(yd_str(sd, yd_item(sd, t, i), NULL));
	else if (t)
		c->types = sch_type_bit(yd_str(sd, t, NULL));
	c->bad |= t && !c->types;
	index_properties(sd, c);
	read_object(sd, c);
	read_numbers(sd, c);
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

void sch_err_add(struct schema_errors *out, enum schema_fault fault,
		    yd_node node, yd_node pos, const char *help,
		    const char *fmt, ...)
{
	if (sch_err_counted(out))
		return;
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
	e->suggest = NULL;
}

void sch_err_suggest(struct schema_errors *out, const char *suggest)
{
	if (out->mode == SCHEMA_ERRS_KEEP && out->len && suggest && !out->v[out->len - 1].suggest)
		out->v[out->len - 1].suggest = xstrdup(suggest);
}

bool sch_err_counted(struct schema_errors *out)
{
	if (out->mode == SCHEMA_ERRS_KEEP)
		return false;
	out->len++;
	return true;
}

void schema_errors_free(struct schema_errors *errs)
{
	for (size_t i = 0; errs->v && i < errs->len; i++) {
		free(errs->v[i].msg);
		free(errs->v[i].help);
		free(errs->v[i].suggest);
	}
	free(errs->v);
	errs->v = NULL;
	errs->len = errs->cap = 0;
}

/* Moves the errors of from (which must hold them, unless to only
 * counts) to the end of to. */
static void errs_move(struct schema_errors *to, struct schema_errors *from)
{
	if (to->mode != SCHEMA_ERRS_KEEP) {
		to->len += from->len;
		schema_errors_free(from);
		return;
	}
	for (size_t i = 0; i < from->len; i++) {
		to->v = xgrow(to->v, &to->cap, to->len + 1, sizeof *to->v);
		to->v[to->len++] = from->v[i];
	}
	free(from->v);
	from->v = NULL;
	from->len = from->cap = 0;
}

/* ---- validation ------------------------------------------------------ */


/* Matching is asked far more often than it fails (every if, not and
 * alternative), so it formats nothing and stops at the first error; a
 * branch that fails is validated again where its reasons are reported. */
bool sch_matches(struct run *r, yd_node sn, yd_node n, yd_node holder)
{
	return sch_verdict(r, sn, n, holder) != SCH_NO;
}

/* A branch that fails only where it met no placeholder fails; one that
 * passes after skipping a placeholder may pass or not. */
enum sch_verdict sch_verdict(struct run *r, yd_node sn, yd_node n, yd_node holder)
{
	struct schema_errors tmp = { .mode = SCHEMA_ERRS_ANY };
	bool outer = r->unknown;
	r->unknown = false;
	sch_validate(r, sn, n, holder, &tmp);
	bool unknown = r->unknown;
	r->unknown = outer || unknown;
	if (tmp.len)
		return SCH_NO;
	return unknown ? SCH_MAYBE : SCH_YES;
}

static size_t count_errors(struct run *r, yd_node sn, yd_node n, yd_node holder)
{
	struct schema_errors tmp = { .mode = SCHEMA_ERRS_COUNT };
	sch_validate(r, sn, n, holder, &tmp);
	return tmp.len;
}

yd_node sch_where(const yamldoc *doc, yd_node n, yd_node holder)
{
	return holder && yd_kind(doc, n) != YD_SCALAR ? holder : n;
}

/* The message for a failed `not`: names the keys when it forbids a set. */
static void not_failed(struct run *r, yd_node inner, yd_node n, yd_node holder,
		       struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node req = yd_get(sd, inner, "required");
	if (sch_err_counted(out))
		return;
	if (req && yd_len(sd, inner) == 1 && yd_len(sd, req) >= 2) {
		struct buf keys = BUF_INIT;
		for (size_t i = 0; i < yd_len(sd, req); i++)
			buf_printf(&keys, "%s'%s'", i == 0 ? "" :
				   i + 1 == yd_len(sd, req) ? " and " : ", ",
				   yd_str(sd, yd_item(sd, req, i), NULL));
		sch_err_add(out, SF_CONFLICT, n, sch_where(r->doc, n, holder), NULL,
			"%s cannot be used together", keys.p);
		buf_free(&keys);
		return;
	}
	sch_err_add(out, SF_CONFLICT, n, sch_where(r->doc, n, holder), NULL,
		"this combination of keys is not allowed");
}

/* Reports a failed rule with its x-message, classifying it by what failed. */
static void message_failed(struct run *r, yd_node msg, struct schema_errors *inner,
			   yd_node n, yd_node holder, struct schema_errors *out)
{
	if (sch_err_counted(out))
		return;
	enum schema_fault f = SF_MISSING;
	for (size_t i = 0; i < inner->len; i++)
		if (inner->v[i].fault != SF_MISSING)
			f = SF_CONFLICT;
	if (!inner->len)
		f = SF_CONFLICT;
	sch_err_add(out, f, n, sch_where(r->doc, n, holder), NULL, "%s",
		yd_str(r->s->doc, msg, NULL));
}

/* Validates a rule subschema; its x-message, when it has one, replaces
 * the low-level reasons. */
static void validate_rule(struct run *r, yd_node sn, yd_node n, yd_node holder,
			  struct schema_errors *out)
{
	struct compiled *c = sch_compile(r->s, sn);
	if (!c || !c->kw[KW_MESSAGE]) {
		sch_validate(r, sn, n, holder, out);
		return;
	}
	struct schema_errors tmp = { .mode = out->mode };
	sch_validate(r, sn, n, holder, &tmp);
	if (tmp.len)
		message_failed(r, c->kw[KW_MESSAGE], &tmp, n, holder, out);
	schema_errors_free(&tmp);
}

/* oneOf and anyOf: anyOf stops at the first alternative that matches
 * and oneOf at the second. When none matches (rare), the one with the
 * fewest errors is validated again for its reasons. */
static void check_alternatives(struct run *r, yd_node alts, bool one_of, yd_node msg,
			       yd_node n, yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	size_t count = yd_len(sd, alts), passed = 0, maybe = 0;
	for (size_t i = 0; i < count && passed < (one_of ? 2 : 1); i++) {
		enum sch_verdict v = sch_verdict(r, yd_item(sd, alts, i), n, holder);
		passed += v == SCH_YES;
		maybe += v == SCH_MAYBE;
	}
	if (passed == 1 || (!one_of && passed))
		return;
	/* a placeholder may make one alternative the one */
	if (maybe && passed <= 1)
		return;
	struct schema_errors reasons = { .mode = out->mode };
	if (!passed && count) {
		size_t best = 0, best_errors = SIZE_MAX;
		for (size_t i = 0; i < count; i++) {
			size_t errors = count_errors(r, yd_item(sd, alts, i), n, holder);
			if (errors < best_errors) {
				best = i;
				best_errors = errors;
			}
		}
		sch_validate(r, yd_item(sd, alts, best), n, holder, &reasons);
	}
	if (msg)
		message_failed(r, msg, &reasons, n, holder, out);
	else if (passed > 1)
		sch_err_add(out, SF_CONFLICT, n, sch_where(r->doc, n, holder), NULL,
			"the value fits more than one of the allowed forms");
	else
		errs_move(out, &reasons);
	schema_errors_free(&reasons);
}

static void check_combinators(struct run *r, struct compiled *c, yd_node n,
			      yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node msg = c->kw[KW_MESSAGE];
	if (c->kw[KW_ALLOF])
		for (size_t i = 0; i < yd_len(sd, c->kw[KW_ALLOF]) && !sch_err_enough(out); i++)
			validate_rule(r, yd_item(sd, c->kw[KW_ALLOF], i), n, holder, out);
	if (c->kw[KW_NOT] && sch_verdict(r, c->kw[KW_NOT], n, holder) == SCH_YES) {
		struct compiled *nc = sch_compile(r->s, c->kw[KW_NOT]);
		yd_node m = nc && nc->kw[KW_MESSAGE] ? nc->kw[KW_MESSAGE] : msg;
		if (m)
			sch_err_add(out, SF_CONFLICT, n, sch_where(r->doc, n, holder), NULL,
				"%s", yd_str(sd, m, NULL));
		else
			not_failed(r, c->kw[KW_NOT], n, holder, out);
	}
	if (c->kw[KW_IF]) {
		/* a condition on a placeholder takes neither branch */
		enum sch_verdict v = sch_verdict(r, c->kw[KW_IF], n, holder);
		yd_node branch = v == SCH_YES ? c->kw[KW_THEN] : v == SCH_NO ? c->kw[KW_ELSE] : 0;
		if (branch)
			validate_rule(r, branch, n, holder, out);
	}
	for (int w = KW_ONEOF; w <= KW_ANYOF; w++)
		if (c->kw[w])
			check_alternatives(r, c->kw[w], w == KW_ONEOF, msg, n, holder, out);
}

void sch_validate(struct run *r, yd_node sn, yd_node n, yd_node holder,
		     struct schema_errors *out)
{
	struct compiled *c = sch_compile(r->s, sn);
	if (c && c->boolean) {
		if (!c->allow)
			sch_err_add(out, SF_VALUE, n, sch_where(r->doc, n, holder), NULL,
				"no value is allowed here");
		return;
	}
	if (!c || r->depth >= MAX_DEPTH || sch_err_enough(out))
		return;
	/* a placeholder is any value: nothing about it can be checked */
	if (yd_kind(r->doc, n) == YD_SCALAR && yd_type(r->doc, n) == YD_T_UNKNOWN) {
		r->unknown = true;
		return;
	}
	if (c->bad) {
		sch_err_add(out, SF_SCHEMA, n, sch_where(r->doc, n, holder), NULL,
			"the schema has a bad pattern or $ref here");
		return;
	}
	if ((c->checks & CK_SINCE) && sch_check_key_release(r, c, n, holder, out))
		return; /* one finding for a key the release lacks, not one per child */
	r->depth++;
	if (c->ref)
		sch_validate(r, c->ref, n, holder, out);
	if (sch_check_type(r, c, n, holder, out)) {
		if (c->checks & CK_ENUM)
			sch_check_enum(r, c, n, out);
		if (c->checks & CK_SINCE)
			sch_check_value_release(r, c, n, out);
		if (c->checks & CK_STRING)
			sch_check_string(r, c, n, holder, out);
		if (c->checks & CK_NUMBER)
			sch_check_number(r, c, n, out);
		if (c->checks & CK_ARRAY)
			sch_check_array(r, c, n, holder, out);
		sch_check_object(r, c, n, holder, out);
		if (c->checks & CK_COMBINE)
			check_combinators(r, c, n, holder, out);
	}
	r->depth--;
}

/* x-coerce at the root: the consumer converts values as marshmallow does. */
static bool coerces(const schema *s)
{
	return yd_str_eq(s->doc, yd_get(s->doc, yd_root(s->doc), "x-coerce"), "marshmallow");
}

void schema_validate(schema *s, const yamldoc *doc, yd_node root,
		     struct schema_errors *errs)
{
	struct run r = { .s = s, .doc = doc };
	r.coerce = coerces(s);
	if (root)
		sch_validate(&r, yd_root(s->doc), root, 0, errs);
}

void schema_validate_release(schema *s, const yamldoc *doc, yd_node root,
			     struct version release, struct schema_errors *errs)
{
	const char *product = yd_str(s->doc, yd_get(s->doc, yd_root(s->doc), "x-product"), NULL);
	struct run r = { .s = s, .doc = doc, .versions = true, .release = release,
			 .product = product ? product : "release" };
	r.coerce = coerces(s);
	if (root)
		sch_validate(&r, yd_root(s->doc), root, 0, errs);
}
