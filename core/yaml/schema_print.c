/* A schema with release tags, printed for one release (schema.h): the
 * keys and enum values that release lacks left out, the tags dropped,
 * as JSON with two-space indentation. For editors, which know nothing of
 * x-since. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "schema.h"

enum { PRINT_MAX_DEPTH = 128 };

struct printer {
	const yamldoc *d;
	struct version release;
	struct buf *out;
};

static void indent(struct printer *p, unsigned depth)
{
	buf_putc(p->out, '\n');
	for (unsigned i = 0; i < depth; i++)
		buf_puts(p->out, "  ");
}

static void json_string(struct buf *b, const char *s, size_t len)
{
	buf_putc(b, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c < 0x20)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '"');
}

static void scalar(struct printer *p, yd_node n)
{
	size_t len;
	const char *s = yd_str(p->d, n, &len);
	if (yd_type(p->d, n) == YD_T_STRING)
		json_string(p->out, s, len);
	else
		buf_put(p->out, s, len); /* numbers, true, false, null as written */
}

/* Whether a tag map or scalar leaves `what` out of the release. */
static bool lacks(const struct printer *p, yd_node tag, bool since)
{
	size_t len;
	const char *s = yd_str(p->d, tag, &len);
	struct version v;
	if (!s || !version_parse(s, len, &v))
		return false;
	int c = version_cmp(p->release, v);
	return since ? c < 0 : c >= 0;
}

/* A property schema the release does not have. */
static bool key_gone(const struct printer *p, yd_node schema)
{
	if (yd_kind(p->d, schema) != YD_MAPPING)
		return false;
	return lacks(p, yd_get(p->d, schema, "x-since"), true) ||
	       lacks(p, yd_get(p->d, schema, "x-until"), false);
}

/* An enum value the release does not have, by the tags beside it. */
static bool value_gone(const struct printer *p, yd_node holder, yd_node value)
{
	const char *v = yd_str(p->d, value, NULL);
	if (!v)
		return false;
	yd_node since = yd_get(p->d, holder, "x-since"), until = yd_get(p->d, holder, "x-until");
	return (yd_kind(p->d, since) == YD_MAPPING && lacks(p, yd_get(p->d, since, v), true)) ||
	       (yd_kind(p->d, until) == YD_MAPPING && lacks(p, yd_get(p->d, until, v), false));
}

static void node(struct printer *p, yd_node n, yd_node parent, const char *parent_key,
		 unsigned depth);

/* The members of a mapping, without the release tags; `properties`
 * without the keys the release lacks. */
static void mapping(struct printer *p, yd_node n, const char *key_of_n, unsigned depth)
{
	bool props = key_of_n && !strcmp(key_of_n, "properties");
	size_t count = 0;
	buf_putc(p->out, '{');
	for (size_t i = 0; i < yd_len(p->d, n); i++) {
		const char *k = yd_str(p->d, yd_key(p->d, n, i), NULL);
		yd_node v = yd_value(p->d, n, i);
		if (!k || (!props && (!strcmp(k, "x-since") || !strcmp(k, "x-until"))))
			continue;
		if (props && key_gone(p, v))
			continue;
		if (count++)
			buf_putc(p->out, ',');
		indent(p, depth + 1);
		json_string(p->out, k, strlen(k));
		buf_puts(p->out, ": ");
		node(p, v, n, k, depth + 1);
	}
	if (count)
		indent(p, depth);
	buf_putc(p->out, '}');
}

/* `required` names that are keys the release lacks go too. */
static bool required_gone(const struct printer *p, yd_node object, yd_node name)
{
	const char *k = yd_str(p->d, name, NULL);
	yd_node props = yd_get(p->d, object, "properties");
	yd_node schema = k && props ? yd_get(p->d, props, k) : 0;
	return schema && key_gone(p, schema);
}

static void sequence(struct printer *p, yd_node n, yd_node parent, const char *key,
		     unsigned depth)
{
	bool is_enum = key && !strcmp(key, "enum");
	bool is_required = key && !strcmp(key, "required");
	size_t count = 0;
	buf_putc(p->out, '[');
	for (size_t i = 0; i < yd_len(p->d, n); i++) {
		yd_node item = yd_item(p->d, n, i);
		if ((is_enum && value_gone(p, parent, item)) ||
		    (is_required && required_gone(p, parent, item)))
			continue;
		if (count++)
			buf_putc(p->out, ',');
		indent(p, depth + 1);
		node(p, item, n, NULL, depth + 1);
	}
	if (count)
		indent(p, depth);
	buf_putc(p->out, ']');
}

static void node(struct printer *p, yd_node n, yd_node parent, const char *parent_key,
		 unsigned depth)
{
	if (depth > PRINT_MAX_DEPTH) {
		buf_puts(p->out, "null");
		return;
	}
	switch (yd_kind(p->d, n)) {
	case YD_MAPPING:
		mapping(p, n, parent_key, depth);
		break;
	case YD_SEQUENCE:
		sequence(p, n, parent, parent_key, depth);
		break;
	case YD_SCALAR:
		scalar(p, n);
		break;
	default:
		buf_puts(p->out, "null");
		break;
	}
}

void schema_print_release(const yamldoc *schema_doc, struct version release, struct buf *out)
{
	struct printer p = { schema_doc, release, out };
	if (yd_root(schema_doc))
		node(&p, yd_root(schema_doc), 0, NULL, 0);
	buf_putc(out, '\n');
}
