/* How a plain scalar resolves under YAML 1.1, as PyYAML (and so
 * ParallelCluster) reads it. */
#include <stdbool.h>
#include <string.h>

#include "yamldoc_internal.h"

static bool is_one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(s, *words) == 0)
			return true;
	return false;
}

static bool all_digits(const char *s, const char *set)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(set, *s))
			return false;
	return true;
}

/* PyYAML's YAML 1.1 resolver for plain scalars, which is what
 * ParallelCluster's loader sees. */
enum yd_type yd_resolve_plain(const char *s)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const bools[] = {
		"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
		NULL,
	};
	static const char *const floats[] = {
		".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf",
		".nan", ".NaN", ".NAN", NULL,
	};
	/* the first character rules out most strings before any compare */
	if ((!*s || strchr("~nN", *s)) && is_one_of(s, nulls))
		return YD_T_NULL;
	if (*s && strchr("yYnNtTfFoO", *s) && is_one_of(s, bools))
		return YD_T_BOOL;
	if (*s && strchr(".-+", *s) && is_one_of(s, floats))
		return YD_T_FLOAT;
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (strcmp(p, "0") == 0)
		return YD_T_INT;
	if (p[0] == '0' && p[1] == 'b' && all_digits(p + 2, "01_"))
		return YD_T_INT;
	if (p[0] == '0' && p[1] == 'x' && all_digits(p + 2, "0123456789abcdefABCDEF_"))
		return YD_T_INT;
	if (p[0] == '0' && all_digits(p + 1, "01234567_"))
		return YD_T_INT;
	if (p[0] >= '1' && p[0] <= '9') {
		const char *q = p + 1;
		while (*q && strchr("0123456789_", *q))
			q++;
		if (!*q)
			return YD_T_INT;
		/* sexagesimal 1:30 */
		bool sexa = *q == ':';
		while (sexa && *q == ':') {
			q++;
			if (!(*q >= '0' && *q <= '9'))
				sexa = false;
			else if (q[0] <= '5' && q[1] >= '0' && q[1] <= '9')
				q += 2;
			else
				q += 1;
		}
		if (sexa && !*q)
			return YD_T_INT;
	}
	/* [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)? */
	const char *q = p;
	while (*q && strchr("0123456789_", *q))
		q++;
	if (*q == '.' && (q > p || (q[1] >= '0' && q[1] <= '9'))) {
		q++;
		while (*q && strchr("0123456789._", *q))
			q++;
		/* 1.1 wants a sign after e; 1.2 (and every writer of 7.5e9)
		 * does not */
		if ((*q == 'e' || *q == 'E') && (q[1] == '-' || q[1] == '+') &&
		    q[2] >= '0' && q[2] <= '9') {
			q += 2;
			while (*q >= '0' && *q <= '9')
				q++;
		} else if ((*q == 'e' || *q == 'E') && q[1] >= '0' && q[1] <= '9') {
			q += 1;
			while (*q >= '0' && *q <= '9')
				q++;
		}
		if (!*q)
			return YD_T_FLOAT;
	}
	/* YAML 1.2 also reads 176e9 as a number, which is how people write
	 * parameter counts; 1.1 would keep it a string. */
	q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q > p && (*q == 'e' || *q == 'E')) {
		q++;
		if (*q == '-' || *q == '+')
			q++;
		const char *digits = q;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q > digits && !*q)
			return YD_T_FLOAT;
	}
	return YD_T_STRING;
}
