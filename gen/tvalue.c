#include "tvalue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct tv_pair {
	char *key;
	size_t klen;
	struct tv *val;
};

struct tv {
	enum tv_kind kind;
	union {
		bool b;
		double n;
		struct {
			char *p;
			size_t len;
		} s;
		struct {
			struct tv **v;
			size_t len, cap;
		} list;
		struct {
			struct tv_pair *v;
			size_t len, cap;
		} map;
	} u;
};

static struct tv *tv_new(enum tv_kind kind)
{
	struct tv *v = xcalloc(1, sizeof *v);
	v->kind = kind;
	return v;
}

struct tv *tv_null(void)
{
	return tv_new(TV_NULL);
}

struct tv *tv_bool(bool b)
{
	struct tv *v = tv_new(TV_BOOL);
	v->u.b = b;
	return v;
}

struct tv *tv_num(double n)
{
	struct tv *v = tv_new(TV_NUM);
	v->u.n = n;
	return v;
}

struct tv *tv_strn(const char *s, size_t len)
{
	struct tv *v = tv_new(TV_STR);
	v->u.s.p = xstrndup(s, len);
	v->u.s.len = len;
	return v;
}

struct tv *tv_str(const char *s)
{
	return s ? tv_strn(s, strlen(s)) : tv_null();
}

struct tv *tv_list_new(void)
{
	return tv_new(TV_LIST);
}

struct tv *tv_map_new(void)
{
	return tv_new(TV_MAP);
}

/* Building a context wrongly is a bug in the generator, not in any
 * input, so it stops loudly instead of growing an error path. */
static _Noreturn void misuse(const char *what)
{
	fprintf(stderr, "trainforge: internal error: %s\n", what);
	abort();
}

void tv_list_push(struct tv *list, struct tv *item)
{
	if (!list || list->kind != TV_LIST)
		misuse("tv_list_push on a non-list");
	list->u.list.v = xgrow(list->u.list.v, &list->u.list.cap,
			       list->u.list.len + 1, sizeof *list->u.list.v);
	list->u.list.v[list->u.list.len++] = item;
}

static struct tv_pair *pair_find(const struct tv *map, const char *key,
				 size_t len)
{
	/* contexts are small and built once; a scan beats hashing here */
	for (size_t i = 0; i < map->u.map.len; i++) {
		struct tv_pair *p = &map->u.map.v[i];
		if (p->klen == len && memcmp(p->key, key, len) == 0)
			return p;
	}
	return NULL;
}

static void map_append(struct tv *map, const char *key, size_t len,
		       struct tv *value)
{
	map->u.map.v = xgrow(map->u.map.v, &map->u.map.cap,
			     map->u.map.len + 1, sizeof *map->u.map.v);
	struct tv_pair *p = &map->u.map.v[map->u.map.len++];
	p->key = xstrndup(key, len);
	p->klen = len;
	p->val = value;
}

void tv_map_set(struct tv *map, const char *key, struct tv *value)
{
	if (!map || map->kind != TV_MAP || !key)
		misuse("tv_map_set on a non-map or without a key");
	size_t len = strlen(key);
	struct tv_pair *p = pair_find(map, key, len);
	if (p) {
		tv_free(p->val);
		p->val = value;
		return;
	}
	map_append(map, key, len, value);
}

void tv_free(struct tv *v)
{
	/* an explicit stack: a deep tree must not exhaust the C stack */
	struct tv **todo = NULL;
	size_t len = 0, cap = 0;
	while (v) {
		size_t kids = v->kind == TV_LIST  ? v->u.list.len
			      : v->kind == TV_MAP ? v->u.map.len
						  : 0;
		todo = xgrow(todo, &cap, len + kids + 1, sizeof *todo);
		if (v->kind == TV_LIST) {
			for (size_t i = 0; i < kids; i++)
				todo[len++] = v->u.list.v[i];
			free(v->u.list.v);
		} else if (v->kind == TV_MAP) {
			for (size_t i = 0; i < kids; i++) {
				todo[len++] = v->u.map.v[i].val;
				free(v->u.map.v[i].key);
			}
			free(v->u.map.v);
		} else if (v->kind == TV_STR) {
			free(v->u.s.p);
		}
		free(v);
		v = len ? todo[--len] : NULL;
	}
	free(todo);
}

enum tv_kind tv_kind(const struct tv *v)
{
	return v ? v->kind : TV_NULL;
}

size_t tv_len(const struct tv *v)
{
	switch (tv_kind(v)) {
	case TV_LIST:
		return v->u.list.len;
	case TV_MAP:
		return v->u.map.len;
	case TV_STR:
		return v->u.s.len;
	default:
		return 0;
	}
}

const struct tv *tv_item(const struct tv *list, size_t i)
{
	if (tv_kind(list) != TV_LIST || i >= list->u.list.len)
		return NULL;
	return list->u.list.v[i];
}

const char *tv_map_key(const struct tv *map, size_t i)
{
	if (tv_kind(map) != TV_MAP || i >= map->u.map.len)
		return NULL;
	return map->u.map.v[i].key;
}

const struct tv *tv_map_value(const struct tv *map, size_t i)
{
	if (tv_kind(map) != TV_MAP || i >= map->u.map.len)
		return NULL;
	return map->u.map.v[i].val;
}

const struct tv *tv_map_get(const struct tv *v, const char *key, size_t len)
{
	if (tv_kind(v) != TV_MAP)
		return NULL;
	const struct tv_pair *p = pair_find(v, key, len);
	return p ? p->val : NULL;
}

const char *tv_str_get(const struct tv *v, size_t *len)
{
	if (tv_kind(v) != TV_STR)
		return NULL;
	if (len)
		*len = v->u.s.len;
	return v->u.s.p;
}

double tv_num_get(const struct tv *v)
{
	return tv_kind(v) == TV_NUM ? v->u.n : 0;
}

bool tv_bool_get(const struct tv *v)
{
	return tv_kind(v) == TV_BOOL && v->u.b;
}

bool tv_truthy(const struct tv *v)
{
	switch (tv_kind(v)) {
	case TV_NULL:
		return false;
	case TV_BOOL:
		return v->u.b;
	case TV_STR:
		/* an empty string is "not set" to a template author:
		 * {{#partition}}--partition={{partition}}{{/partition}} */
		return v->u.s.len > 0;
	case TV_LIST:
		return v->u.list.len > 0;
	default:
		/* a count of 0 is still a value; templates test flags */
		return true;
	}
}

static void num_format(double d, struct buf *out)
{
	/* beyond 2^53 not every integer is exact, so only smaller ones get
	 * the plain integer form; -0 prints as 0 */
	if (d == 0) {
		buf_putc(out, '0');
		return;
	}
	if (d > -9007199254740992.0 && d < 9007199254740992.0 &&
	    d == (double)(long long)d) {
		buf_printf(out, "%lld", (long long)d);
		return;
	}
	char tmp[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, d);
		if (strtod(tmp, NULL) == d)
			break; /* NaN never compares equal: it ends at 17 */
	}
	buf_puts(out, tmp);
}

bool tv_format(const struct tv *v, struct buf *out)
{
	switch (tv_kind(v)) {
	case TV_NULL:
		return true;
	case TV_BOOL:
		buf_puts(out, v->u.b ? "true" : "false");
		return true;
	case TV_NUM:
		num_format(v->u.n, out);
		return true;
	case TV_STR:
		buf_put(out, v->u.s.p, v->u.s.len);
		return true;
	default:
		return false;
	}
}

/* ---- from a YAML/JSON document ---------------------------------------- */

static struct tv *scalar_from_yaml(const yamldoc *doc, yd_node n)
{
	size_t len;
	const char *s = yd_str(doc, n, &len);
	bool b;
	double d;
	switch (yd_type(doc, n)) {
	case YD_T_NULL:
		return tv_null();
	case YD_T_BOOL:
		if (yd_bool(doc, n, &b))
			return tv_bool(b);
		break;
	case YD_T_INT:
	case YD_T_FLOAT:
		if (yd_number(doc, n, &d))
			return tv_num(d);
		break;
	default:
		break;
	}
	return tv_strn(s, len); /* 0x_1, 1:30, 1e999: keep what was written */
}

static struct tv *node_from_yaml(const yamldoc *doc, yd_node n)
{
	switch (yd_kind(doc, n)) {
	case YD_SCALAR:
		return scalar_from_yaml(doc, n);
	case YD_MAPPING:
		return tv_map_new();
	case YD_SEQUENCE:
		return tv_list_new();
	default:
		return tv_null();
	}
}

struct conv_frame {
	yd_node src;
	struct tv *dst;
	size_t next;
};

struct tv *tv_from_yaml(const yamldoc *doc, yd_node n)
{
	struct tv *root = node_from_yaml(doc, n);
	struct conv_frame *stack = NULL;
	size_t len = 0, cap = 0;
	if (root->kind == TV_LIST || root->kind == TV_MAP) {
		stack = xgrow(stack, &cap, 1, sizeof *stack);
		stack[len++] = (struct conv_frame){ n, root, 0 };
	}
	/* iterative, so document depth never becomes C stack depth */
	while (len) {
		struct conv_frame *f = &stack[len - 1];
		if (f->next >= yd_len(doc, f->src)) {
			len--;
			continue;
		}
		size_t i = f->next++;
		struct tv *dst = f->dst;
		yd_node child;
		if (dst->kind == TV_LIST) {
			child = yd_item(doc, f->src, i);
		} else {
			child = yd_value(doc, f->src, i);
			yd_node key = yd_key(doc, f->src, i);
			if (yd_kind(doc, key) != YD_SCALAR)
				continue;
		}
		struct tv *v = node_from_yaml(doc, child);
		if (dst->kind == TV_LIST) {
			tv_list_push(dst, v);
		} else {
			size_t klen;
			const char *k = yd_str(doc, yd_key(doc, f->src, i), &klen);
			/* duplicates are the loader's issue to report; last wins */
			struct tv_pair *p = pair_find(dst, k, klen);
			if (p) {
				tv_free(p->val);
				p->val = v;
			} else {
				map_append(dst, k, klen, v);
			}
		}
		if (v->kind == TV_LIST || v->kind == TV_MAP) {
			stack = xgrow(stack, &cap, len + 1, sizeof *stack);
			stack[len++] = (struct conv_frame){ child, v, 0 };
		}
	}
	free(stack);
	return root;
}
