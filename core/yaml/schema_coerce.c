/* What a schema that says "x-coerce": "marshmallow" accepts beside its
 * exact types: ParallelCluster loads its config with PyYAML and then
 * marshmallow, whose Integer, Float and Boolean fields convert what they
 * are given (docs/versions.md, "pc-yaml-coercion"): int("10"), int(5.5)
 * == 5, float("1e1"), and the truthy and falsy words and numbers. Such a
 * value is not refused, so it is not an error; it is sloppy, and may not
 * read as meant, so it is a finding of its own (SF_COERCED). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

/* Python's int() of a str: blanks around, a sign, decimal digits with
 * single underscores between them. */
static bool python_int(const char *s, size_t len, double *out)
{
	size_t a = 0, b = len;
	while (a < b && strchr(" \t\n\r\f\v", s[a]))
		a++;
	while (b > a && strchr(" \t\n\r\f\v", s[b - 1]))
		b--;
	bool neg = a < b && s[a] == '-';
	a += a < b && (s[a] == '-' || s[a] == '+');
	if (a == b || s[a] == '_' || s[b - 1] == '_')
		return false;
	double v = 0;
	for (size_t i = a; i < b; i++) {
		if (s[i] == '_' && s[i + 1] != '_')
			continue;
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return true;
}

/* Python's float() of a str, close enough: what strtod takes, whole. */
static bool python_float(const char *s, size_t len, double *out)
{
	if (!len || len > 64)
		return false;
	char buf[72];
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	double v = strtod(buf, &end);
	while (*end && strchr(" \t\n\r\f\v", *end))
		end++;
	if (end == buf || *end || strpbrk(buf, "xX"))
		return false;
	*out = v;
	return true;
}

/* marshmallow's Boolean: these strings, and 0 and 1. */
static int python_bool(const char *s, size_t len)
{
	static const char *const truthy[] = { "t", "T", "true", "True", "TRUE", "on", "On", "ON",
					      "y", "Y", "yes", "Yes", "YES", "1" };
	static const char *const falsy[] = { "f", "F", "false", "False", "FALSE", "off", "Off",
					     "OFF", "n", "N", "no", "No", "NO", "0" };
	for (size_t i = 0; i < sizeof truthy / sizeof truthy[0]; i++) {
		if (strlen(truthy[i]) == len && memcmp(truthy[i], s, len) == 0)
			return 1;
		if (strlen(falsy[i]) == len && memcmp(falsy[i], s, len) == 0)
			return 0;
	}
	return -1;
}

bool sch_coerce(const yamldoc *doc, yd_node n, unsigned types, struct sch_coerced *out)
{
	if (yd_kind(doc, n) != YD_SCALAR)
		return false;
	size_t len;
	const char *s = yd_str(doc, n, &len);
	enum yd_type t = yd_type(doc, n);
	double v;
	memset(out, 0, sizeof *out);
	if (types & (1u << T_INTEGER)) {
		if (t == YD_T_STRING && python_int(s, len, &v)) {
			out->number = v;
			out->why = "a string";
		} else if (t == YD_T_FLOAT && yd_number(doc, n, &v) && isfinite(v) && v != floor(v)) {
			out->number = trunc(v);
			out->why = "a number with a fraction";
		}
		if (out->why) {
			out->type_bit = 1u << T_INTEGER;
			snprintf(out->as, sizeof out->as, "%.0f", out->number);
			return true;
		}
	}
	if ((types & (1u << T_NUMBER)) && t == YD_T_STRING && python_float(s, len, &v)) {
		out->type_bit = 1u << T_NUMBER;
		out->number = v;
		out->why = "a string";
		snprintf(out->as, sizeof out->as, "%.15g", v);
		return true;
	}
	if (types & (1u << T_BOOLEAN)) {
		int b = -1;
		if (t == YD_T_STRING)
			b = python_bool(s, len);
		else if ((t == YD_T_INT || t == YD_T_FLOAT) && yd_number(doc, n, &v) && (v == 0 || v == 1))
			b = v == 1;
		if (b >= 0) {
			out->type_bit = 1u << T_BOOLEAN;
			out->boolean = b;
			out->why = t == YD_T_STRING ? "a string" : "a number";
			snprintf(out->as, sizeof out->as, "%s", b ? "true" : "false");
			return true;
		}
	}
	return false;
}

bool schema_read_int(const yamldoc *doc, yd_node n, long long *out)
{
	struct sch_coerced v;
	double d;
	if (yd_type(doc, n) == YD_T_BOOL)
		return false;
	if (yd_number(doc, n, &d) && isfinite(d) && d == floor(d) && fabs(d) < 9e18) {
		*out = (long long)d;
		return true;
	}
	if (!sch_coerce(doc, n, 1u << T_INTEGER, &v) || fabs(v.number) >= 9e18)
		return false;
	*out = (long long)v.number;
	return true;
}

bool schema_read_bool(const yamldoc *doc, yd_node n, bool *out)
{
	struct sch_coerced v;
	if (yd_bool(doc, n, out))
		return true;
	if (!sch_coerce(doc, n, 1u << T_BOOLEAN, &v))
		return false;
	*out = v.boolean;
	return true;
}

/* An integer that YAML 1.1 reads in a way its writer rarely means: 010
 * is octal 8, 1:30 is 90, 0b10 is 2, 1_000 is 1000. */
bool sch_int_surprise(const yamldoc *doc, yd_node n, long long *value)
{
	if (yd_kind(doc, n) != YD_SCALAR || yd_type(doc, n) != YD_T_INT)
		return false;
	const char *s = yd_str(doc, n, NULL);
	const char *p = s + (*s == '-' || *s == '+');
	bool odd = (p[0] == '0' && p[1] >= '0' && p[1] <= '9') || strchr(p, ':') || p[1] == 'b' ||
		   strchr(p, '_');
	return odd && yd_int(doc, n, value);
}
