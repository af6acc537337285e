/* Values of two cluster configs compared as ParallelCluster compares
 * them: it loads both files with PyYAML and tests the Python values with
 * `!=`, so 10 and 10.0 are equal, true is 1, a null is an absent key,
 * mappings compare by key and sequences in order. */
#include <math.h>
#include <string.h>

#include "cluster_diff.h"

/* Deeper than any config; the loader's own depth limit is lower. */
enum { EQ_MAX_DEPTH = 128 };
/* Aliases make the tree a DAG: bound the nodes one comparison visits. */
enum { EQ_BUDGET = 1 << 20 };

bool cluster_value_absent(const yamldoc *d, yd_node n)
{
	return !n || yd_kind(d, n) == YD_NONE ||
	       (yd_kind(d, n) == YD_SCALAR && yd_type(d, n) == YD_T_NULL);
}

static bool numeric(enum yd_type t)
{
	return t == YD_T_BOOL || t == YD_T_INT || t == YD_T_FLOAT;
}

/* A number's value: false when the text does not fit (a huge integer). */
static bool number_of(const yamldoc *d, yd_node n, double *v, long long *i, bool *is_int)
{
	bool b;
	*is_int = true;
	if (yd_bool(d, n, &b)) {
		*i = b;
		return true;
	}
	if (yd_int(d, n, i))
		return true;
	*is_int = false;
	return yd_number(d, n, v);
}

bool cluster_value_truthy(const yamldoc *d, yd_node n)
{
	if (cluster_value_absent(d, n))
		return false;
	if (yd_kind(d, n) != YD_SCALAR)
		return yd_len(d, n) > 0;
	double v;
	size_t len;
	yd_str(d, n, &len);
	return cluster_value_number(d, n, &v) ? v != 0 : len > 0;
}

bool cluster_value_number(const yamldoc *d, yd_node n, double *out)
{
	double v;
	long long i;
	bool is_int;
	if (yd_kind(d, n) != YD_SCALAR || !numeric(yd_type(d, n)) || !number_of(d, n, &v, &i, &is_int))
		return false;
	*out = is_int ? (double)i : v;
	return true;
}

static bool scalar_eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y)
{
	enum yd_type tx = yd_type(a, x), ty = yd_type(b, y);
	size_t lx, ly;
	const char *sx = yd_str(a, x, &lx), *sy = yd_str(b, y, &ly);
	if (numeric(tx) && numeric(ty)) {
		double vx = 0, vy = 0;
		long long ix = 0, iy = 0;
		bool intx, inty;
		if (!number_of(a, x, &vx, &ix, &intx) || !number_of(b, y, &vy, &iy, &inty))
			return tx == ty && lx == ly && memcmp(sx, sy, lx) == 0;
		if (intx && inty)
			return ix == iy;
		vx = intx ? (double)ix : vx;
		vy = inty ? (double)iy : vy;
		if (isnan(vx) || isnan(vy)) /* .nan: by its text, as in the test */
			return tx == ty && lx == ly && memcmp(sx, sy, lx) == 0;
		return vx == vy;
	}
	if (tx != ty)
		return false;
	return lx == ly && memcmp(sx, sy, lx) == 0;
}

static bool eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y, unsigned depth,
	       size_t *budget);

/* Keys that appear once, or the first of a duplicate (which PC0001
 * reports): the walk and the comparison read the same one. */
static size_t distinct_keys(const yamldoc *d, yd_node m)
{
	size_t n = 0;
	for (size_t i = 0; i < yd_len(d, m); i++) {
		const char *key = yd_str(d, yd_key(d, m, i), NULL);
		n += !key || yd_get_key(d, m, key) == yd_key(d, m, i);
	}
	return n;
}

static bool mapping_eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y, unsigned depth,
		       size_t *budget)
{
	if (distinct_keys(a, x) != distinct_keys(b, y))
		return false;
	for (size_t i = 0; i < yd_len(a, x); i++) {
		yd_node k = yd_key(a, x, i);
		const char *key = yd_str(a, k, NULL);
		if (!key) { /* a key that is not a scalar: matched by its place */
			if (i >= yd_len(b, y) || !eq(a, k, b, yd_key(b, y, i), depth + 1, budget) ||
			    !eq(a, yd_value(a, x, i), b, yd_value(b, y, i), depth + 1, budget))
				return false;
			continue;
		}
		if (yd_get_key(a, x, key) != k)
			continue;
		yd_node other = yd_get_key(b, y, key);
		if (!other || !scalar_eq(a, k, b, other) ||
		    !eq(a, yd_value(a, x, i), b, yd_get(b, y, key), depth + 1, budget))
			return false;
	}
	return true;
}

static bool eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y, unsigned depth,
	       size_t *budget)
{
	if (depth > EQ_MAX_DEPTH || *budget == 0)
		return false; /* too much to tell: call it a change */
	(*budget)--;
	bool nx = cluster_value_absent(a, x), ny = cluster_value_absent(b, y);
	if (nx || ny)
		return nx && ny;
	enum yd_kind kx = yd_kind(a, x), ky = yd_kind(b, y);
	if (kx != ky)
		return false;
	if (kx == YD_SCALAR)
		return scalar_eq(a, x, b, y);
	if (kx == YD_MAPPING)
		return mapping_eq(a, x, b, y, depth, budget);
	size_t n = yd_len(a, x);
	if (n != yd_len(b, y))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!eq(a, yd_item(a, x, i), b, yd_item(b, y, i), depth + 1, budget))
			return false;
	return true;
}

bool cluster_value_eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y)
{
	size_t budget = EQ_BUDGET;
	return eq(a, x, b, y, 0, &budget);
}

/* At most this much of a scalar goes into a message. */
enum { TEXT_MAX = 60 };

static void put_scalar(const yamldoc *doc, yd_node n, struct buf *out)
{
	size_t len;
	const char *s = yd_str(doc, n, &len);
	size_t cut = len > TEXT_MAX ? TEXT_MAX : len;
	for (size_t i = 0; i < cut; i++)
		buf_putc(out, s[i] == '\n' || s[i] == '\t' ? ' ' : s[i]);
	if (cut < len)
		buf_puts(out, "...");
}

void cluster_value_text(const yamldoc *doc, yd_node n, struct buf *out)
{
	if (cluster_value_absent(doc, n)) {
		buf_puts(out, "null");
		return;
	}
	switch (yd_kind(doc, n)) {
	case YD_SCALAR:
		put_scalar(doc, n, out);
		return;
	case YD_MAPPING:
		buf_printf(out, "{%zu key%s}", yd_len(doc, n), yd_len(doc, n) == 1 ? "" : "s");
		return;
	default:
		break;
	}
	size_t len = yd_len(doc, n);
	bool short_scalars = len <= 4;
	for (size_t i = 0; short_scalars && i < len; i++)
		short_scalars = yd_kind(doc, yd_item(doc, n, i)) == YD_SCALAR;
	if (!short_scalars) {
		buf_printf(out, "[%zu item%s]", len, len == 1 ? "" : "s");
		return;
	}
	buf_putc(out, '[');
	for (size_t i = 0; i < len; i++) {
		if (i)
			buf_puts(out, ", ");
		put_scalar(doc, yd_item(doc, n, i), out);
	}
	buf_putc(out, ']');
}
