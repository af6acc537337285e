/* Compiling a schema object: its keywords looked up once, `properties`
 * sorted for lookups, `required`, the numbers and the $ref target read.
 * A run does this on demand for a schema it was given; the build does it
 * for every embedded schema (tools/embed.c), so that a run only reads the
 * result. Nothing here compiles a pattern (schema.c: sch_pattern). */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "xalloc.h"
#include "yamldoc_internal.h"

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

static const char *const type_names[T__COUNT] = {
	[T_OBJECT] = "object", [T_ARRAY] = "array", [T_STRING] = "string",
	[T_INTEGER] = "integer", [T_NUMBER] = "number", [T_BOOLEAN] = "boolean",
	[T_NULL] = "null",
};

unsigned sch_type_bit(const char *name)
{
	for (unsigned t = 0; name && t < T__COUNT; t++)
		if (strcmp(type_names[t], name) == 0)
			return 1u << t;
	return 0;
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

static const char *sort_text; /* the document's text, while qsort runs */

static int prop_cmp(const void *pa, const void *pb)
{
	const struct sch_prop *a = pa, *b = pb;
	return key_cmp(sort_text + a->name, a->len, sort_text + b->name, b->len);
}

/* The offset of yd_str's text in the document's text. */
static uint32_t text_at(const yamldoc *sd, const char *p)
{
	return p ? (uint32_t)(p - sd->strings) : 0;
}

static void index_properties(const yamldoc *sd, struct compiled *c, struct sch_lists *out)
{
	yd_node props = c->kw[KW_PROPERTIES];
	if (yd_kind(sd, props) != YD_MAPPING)
		return;
	c->props = (uint32_t)out->n_props;
	c->n_props = (uint32_t)yd_len(sd, props);
	out->props = xgrow(out->props, &out->cap_props, out->n_props + c->n_props + 1,
			   sizeof *out->props);
	struct sch_prop *v = out->props + out->n_props;
	for (size_t i = 0; i < c->n_props; i++) {
		size_t len = 0;
		const char *name = yd_str(sd, yd_key(sd, props, i), &len);
		v[i] = (struct sch_prop){ text_at(sd, name), name ? (uint32_t)len : 0,
					  yd_value(sd, props, i) };
	}
	sort_text = sd->strings;
	qsort(v, c->n_props, sizeof *v, prop_cmp);
	out->n_props += c->n_props;
}

yd_node sch_property_in(const struct sch_prop *props, const char *text, const struct compiled *c,
			const char *key, size_t len)
{
	size_t lo = c->props, hi = (size_t)c->props + c->n_props;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = key_cmp(key, len, text + props[mid].name, props[mid].len);
		if (!cmp)
			return props[mid].schema;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* The object keywords every mapping is checked against, read once. */
static void read_object(const yamldoc *sd, struct compiled *c, struct sch_lists *out)
{
	yd_node extra = c->kw[KW_ADDITIONAL], req = c->kw[KW_REQUIRED];
	bool allow;
	if (yd_kind(sd, extra) == YD_SCALAR)
		c->closed = yd_bool(sd, extra, &allow) && !allow;
	else
		c->extra = extra;
	c->required = (uint32_t)out->n_required;
	out->required = xgrow(out->required, &out->cap_required,
			      out->n_required + yd_len(sd, req) + 1, sizeof *out->required);
	for (size_t i = 0; i < yd_len(sd, req); i++) {
		const char *name = yd_str(sd, yd_item(sd, req, i), NULL);
		if (name) {
			out->required[out->n_required++] = text_at(sd, name);
			c->n_required++;
		}
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

void sch_compile_node(const yamldoc *sd, yd_node sn, struct compiled *c, struct sch_lists *lists)
{
	memset(c, 0, sizeof *c);
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
	index_properties(sd, c, lists);
	read_object(sd, c, lists);
	read_numbers(sd, c);
	if (c->kw[KW_REF]) {
		c->ref = resolve_ref(sd, c->kw[KW_REF]);
		c->bad |= !c->ref;
	}
	c->bad |= c->kw[KW_PATTERN] && yd_type(sd, c->kw[KW_PATTERN]) != YD_T_STRING;
}

void sch_lists_free(struct sch_lists *l)
{
	free(l->props);
	free(l->required);
	memset(l, 0, sizeof *l);
}

