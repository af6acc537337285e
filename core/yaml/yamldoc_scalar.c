/* Scalar text: where it is stored, and how a plain scalar resolves under
 * YAML 1.1, as PyYAML (and so ParallelCluster) reads it. A large config
 * is mostly the same few hundred key names, so key text is stored and
 * resolved once per name. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "yamldoc_internal.h"

enum {
	INTERN_MAX_LEN = 64,  /* longer keys are rare: copied */
	INTERN_MAX = 1 << 14, /* distinct keys interned; later ones are copied */
};

uint32_t yd_text_add(yamldoc *doc, const char *s, size_t len)
{
	if (len >= UINT32_MAX || doc->n_strings >= UINT32_MAX - len - 1)
		xalloc_die();
	if (doc->n_strings + len + 1 > doc->cap_strings)
		doc->strings = xgrow(doc->strings, &doc->cap_strings,
				     doc->n_strings + len + 1, 1);
	uint32_t off = (uint32_t)doc->n_strings;
	memcpy(doc->strings + off, s, len);
	doc->strings[off + len] = '\0';
	doc->n_strings += len + 1;
	return off;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct yd_intern *intern_slot(struct yd_interns *t, const yamldoc *doc,
				     uint32_t hash, const char *s, size_t len)
{
	size_t mask = t->cap - 1;
	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct yd_intern *in = &t->v[i];
		if (!in->used || (in->hash == hash && in->len == len &&
				  memcmp(doc->strings + in->off, s, len) == 0))
			return in;
	}
}

const struct yd_intern *yd_intern(struct yd_interns *t, yamldoc *doc,
				  const char *s, size_t len)
{
	if (len > INTERN_MAX_LEN)
		return NULL;
	uint32_t hash = hash_bytes(s, len);
	if (t->cap) {
		struct yd_intern *in = intern_slot(t, doc, hash, s, len);
		if (in->used)
			return in;
	}
	if (t->n >= INTERN_MAX)
		return NULL;
	if ((t->n + 1) * 2 > t->cap) {
		struct yd_intern *old = t->v;
		size_t old_cap = t->cap;
		t->cap = old_cap ? old_cap * 2 : 64;
		t->v = xcalloc(t->cap, sizeof *t->v);
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].used)
				*intern_slot(t, doc, old[i].hash, doc->strings + old[i].off,
					     old[i].len) = old[i];
		free(old);
	}
	struct yd_intern *in = intern_slot(t, doc, hash, s, len);
	in->off = yd_text_add(doc, s, len);
	in->len = (uint32_t)len;
	in->hash = hash;
	in->type = (uint8_t)yd_resolve_plain(doc->strings + in->off, len);
	in->used = true;
	t->n++;
	return in;
}

static bool is_one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (**words == *s && strcmp(s, *words) == 0)
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

static bool digit_or_underscore(char c)
{
	return (c >= '0' && c <= '9') || c == '_';
}

/* [0-9][0-9_]* at p: the end of the run, or p when there is none. */
static const char *digits_(const char *p)
{
	if (!(*p >= '0' && *p <= '9'))
		return p;
	while (digit_or_underscore(*p))
		p++;
	return p;
}

/* (?::[0-5]?[0-9])+ at p: the end, or p when there is none. */
static const char *sexagesimal(const char *p)
{
	const char *q = p;
	while (q[0] == ':' && q[1] >= '0' && q[1] <= '9') {
		if (q[1] <= '5' && q[2] >= '0' && q[2] <= '9')
			q += 3;
		else
			q += 2;
	}
	return q;
}

/* [eE][-+][0-9]+ at p (YAML 1.1 wants the sign); the end, or p. */
static const char *exponent11(const char *p)
{
	if ((*p == 'e' || *p == 'E') && (p[1] == '-' || p[1] == '+') &&
	    p[2] >= '0' && p[2] <= '9') {
		p += 2;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

/* A date or a date and time, as PyYAML's timestamp resolver reads them:
 * 2024-01-01, 2024-1-1 10:00:00, 2024-01-01T10:00:00.5Z. */
static bool timestamp(const char *s)
{
	static const char *const date = "dddd-dd-dd";
	const char *p = s;
	size_t i = 0;
	for (; date[i] && (date[i] == 'd' ? (*p >= '0' && *p <= '9') : *p == date[i]); i++)
		p++;
	if (!date[i] && !*p)
		return true;
	/* the long form: [0-9]{4}-[0-9]{1,2}-[0-9]{1,2} then a time */
	p = s;
	for (i = 0; i < 4; i++, p++)
		if (!(*p >= '0' && *p <= '9'))
			return false;
	for (int part = 0; part < 2; part++) {
		if (*p++ != '-' || !(*p >= '0' && *p <= '9'))
			return false;
		p += p[1] >= '0' && p[1] <= '9' ? 2 : 1;
	}
	if (*p == 'T' || *p == 't')
		p++;
	else if (*p == ' ' || *p == '\t')
		while (*p == ' ' || *p == '\t')
			p++;
	else
		return false;
	if (!(*p >= '0' && *p <= '9'))
		return false;
	p += p[1] >= '0' && p[1] <= '9' ? 2 : 1;
	for (int part = 0; part < 2; part++) {
		if (p[0] != ':' || !(p[1] >= '0' && p[1] <= '9' && p[2] >= '0' && p[2] <= '9'))
			return false;
		p += 3;
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == 'Z') {
		p++;
	} else if (*p == '-' || *p == '+') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		p += p[1] >= '0' && p[1] <= '9' ? 2 : 1;
		if (p[0] == ':' && p[1] >= '0' && p[1] <= '9' && p[2] >= '0' && p[2] <= '9')
			p += 3;
	}
	return !*p;
}

/* PyYAML's YAML 1.1 resolver for plain scalars, which is what
 * ParallelCluster's loader sees (docs/versions.md, "pc-yaml-loader"),
 * plus the numbers only YAML 1.2 reads (7.5e9, 176e9: how people write
 * parameter counts), which come back as YD_T__NUM12 for the reader to
 * take as numbers or strings. Most scalars of a config are names and
 * words, which the first tests settle. */
unsigned yd_resolve_plain(const char *s, size_t len)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const bools[] = {
		"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
		NULL,
	};
	static const char *const floats[] = {
		".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf", "+.Inf",
		"+.INF", ".nan", ".NaN", ".NAN", NULL,
	};
	if (len <= 6) { /* the longest of the words above */
		if ((!*s || strchr("~nN", *s)) && is_one_of(s, nulls))
			return YD_T_NULL;
		if (*s && strchr("yYnNtTfFoO", *s) && is_one_of(s, bools))
			return YD_T_BOOL;
		if (*s && strchr(".-+", *s) && is_one_of(s, floats))
			return YD_T_FLOAT;
	}
	/* every number below starts, after its sign, with one of these */
	bool sign = *s == '-' || *s == '+';
	const char *p = s + sign;
	if (!digit_or_underscore(*p) && *p != '.')
		return YD_T_STRING;
	/* integers: 0b.., 0x.., 0[0-7_]+, 0, [1-9][0-9_]*, and sexagesimal */
	if (p[0] == '0' && p[1] == 'b' && all_digits(p + 2, "01_"))
		return YD_T_INT;
	if (p[0] == '0' && p[1] == 'x' && all_digits(p + 2, "0123456789abcdefABCDEF_"))
		return YD_T_INT;
	if (p[0] == '0' && (!p[1] || all_digits(p + 1, "01234567_")))
		return YD_T_INT;
	if (p[0] >= '1' && p[0] <= '9') {
		const char *q = digits_(p);
		if (!*q || (q = sexagesimal(q), *q == '\0' && q != digits_(p)))
			return YD_T_INT;
	}
	/* floats: [0-9][0-9_]*\.[0-9_]*(exp)?, \.[0-9][0-9_]*(exp)?, and
	 * sexagesimal [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* */
	const char *q = digits_(p);
	if (q > p && *q == ':') {
		const char *r = sexagesimal(q);
		if (r > q && *r == '.') {
			for (r++; digit_or_underscore(*r); r++)
				;
			if (!*r)
				return YD_T_FLOAT;
		}
	}
	if (*q == '.' && (q > p || (!sign && q[1] >= '0' && q[1] <= '9'))) {
		const char *r = q + 1;
		while (digit_or_underscore(*r))
			r++;
		if (!*exponent11(r))
			return YD_T_FLOAT;
		/* 1.2 reads 7.5e9 (no sign) and 1.5e+3 the same way */
		if ((*r == 'e' || *r == 'E') && q > p) {
			r += 1 + (r[1] == '-' || r[1] == '+');
			const char *e = r;
			while (*r >= '0' && *r <= '9')
				r++;
			if (r > e && !*r)
				return YD_T__NUM12;
		}
	}
	/* 1.2 also reads 176e9; 1.1 keeps it a string */
	q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q > p && (*q == 'e' || *q == 'E')) {
		q++;
		if (*q == '-' || *q == '+')
			q++;
		const char *e = q;
		while (*q >= '0' && *q <= '9')
			q++;
		if (q > e && !*q)
			return YD_T__NUM12;
	}
	if (!sign && timestamp(s))
		return YD_T_TIMESTAMP;
	return YD_T_STRING;
}
