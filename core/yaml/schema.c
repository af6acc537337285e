/* The validation walk: schema objects compiled once, error lists, the
 * combinators (allOf, anyOf, oneOf, not, if/then/else) and $ref. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "schema_internal.h"
#include "xalloc.h"
#include "yamldoc_internal.h"

schema *schema_new(const yamldoc *doc)
{
	schema *s = xcalloc(1, sizeof *s);
	s->doc = doc;
	s->text = doc->strings;
	s->n = yamldoc_node_count(doc) + 1;
	s->cache = xcalloc(s->n, sizeof *s->cache);
	return s;
}

schema *schema_from_table(const yamldoc *doc, const struct sch_table *table)
{
	schema *s = xcalloc(1, sizeof *s);
	s->doc = doc;
	s->text = doc->strings;
	s->n = yamldoc_node_count(doc) + 1;
	s->table = table;
	return s;
}

void schema_free(schema *s)
{
	if (!s)
		return;
	for (size_t i = 0; s->cache && i < s->n; i++)
		free(s->cache[i]);
	sch_lists_free(&s->lists);
	for (size_t i = 0; i < s->re_cap; i++)
		regex_free(s->re[i].re);
	free(s->re);
	free(s->cache);
	sch_places_free(s->places);
	free(s);
}

const struct compiled *sch_compile(schema *s, yd_node sn)
{
	if (sn >= s->n)
		return NULL;
	if (s->table) /* compiled at build time (tools/embed.c) */
		return &s->table->v[sn < s->table->n ? s->table->index[sn] : 0];
	if (!s->cache[sn]) {
		s->cache[sn] = xcalloc(1, sizeof *s->cache[sn]);
		sch_compile_node(s->doc, sn, s->cache[sn], &s->lists);
	}
	return s->cache[sn];
}

yd_node sch_property(const schema *s, const struct compiled *c, const char *key, size_t len)
{
	return sch_property_in(s->table ? s->table->props : s->lists.props, s->text, c, key, len);
}

const char *sch_required(const schema *s, const struct compiled *c, size_t i)
{
	const uint32_t *names = s->table ? s->table->required : s->lists.required;
	return s->text + names[c->required + i];
}

/* The slot of pattern node pat in the table: its own, or the free one
 * where it goes. */
static struct sch_re *re_slot(const schema *s, yd_node pat)
{
	size_t mask = s->re_cap - 1;
	for (size_t i = ((size_t)pat * 2654435761u) & mask;; i = (i + 1) & mask)
		if (s->re[i].node == pat || !s->re[i].node)
			return &s->re[i];
}

/* Doubles the table (it is kept at most half full). */
static void re_grow(schema *s)
{
	struct sch_re *old = s->re;
	size_t old_cap = s->re_cap;
	s->re_cap = old_cap ? old_cap * 2 : 64;
	s->re = xcalloc(s->re_cap, sizeof *s->re);
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].node)
			*re_slot(s, old[i].node) = old[i];
	free(old);
}

/* The pattern at node pat as the build compiled it, or NULL (a schema
 * read at run time, or a PCRE2 other than the build's). */
static struct regex *decoded(const schema *s, yd_node pat)
{
	if (!s->table)
		return NULL;
	size_t lo = 0, hi = s->table->n_codes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sch_code *c = &s->table->codes[mid];
		if (c->node == pat)
			return regex_decode(c->bytes, c->len);
		if (c->node < pat)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* A pattern is read back (or compiled, for a schema read at run time)
 * when a value first reaches it, not when its schema object is: most
 * patterns of a schema meet no value in a run. */
struct regex *sch_pattern(schema *s, const struct compiled *c)
{
	yd_node pat = c->kw[KW_PATTERN];
	if (!pat || pat >= s->n)
		return NULL;
	if (s->re_cap) {
		struct sch_re *e = re_slot(s, pat);
		if (e->node)
			return e->re;
	}
	if (2 * (s->re_len + 1) > s->re_cap)
		re_grow(s);
	struct sch_re *e = re_slot(s, pat);
	size_t len;
	const char *p = yd_str(s->doc, pat, &len);
	char err[256];
	e->node = pat;
	e->re = decoded(s, pat);
	if (!e->re && p)
		e->re = regex_new(p, len, err, sizeof err);
	s->re_len++;
	return e->re;
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
	const struct compiled *c = sch_compile(r->s, sn);
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

static void check_combinators(struct run *r, const struct compiled *c, yd_node n,
			      yd_node holder, struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	yd_node msg = c->kw[KW_MESSAGE];
	if (c->kw[KW_ALLOF])
		for (size_t i = 0; i < yd_len(sd, c->kw[KW_ALLOF]) && !sch_err_enough(out); i++)
			validate_rule(r, yd_item(sd, c->kw[KW_ALLOF], i), n, holder, out);
	if (c->kw[KW_NOT] && sch_verdict(r, c->kw[KW_NOT], n, holder) == SCH_YES) {
		const struct compiled *nc = sch_compile(r->s, c->kw[KW_NOT]);
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
	const struct compiled *c = sch_compile(r->s, sn);
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

const yamldoc *schema_document(const schema *s)
{
	return s->doc;
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
