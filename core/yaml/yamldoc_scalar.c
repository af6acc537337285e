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

/* PyYAML's YAML 1.1 resolver for plain scalars, which is what
 * ParallelCluster's loader sees. Most scalars of a config are names and
 * words, which the first two tests settle. */
enum yd_type yd_resolve_plain(const char *s, size_t len)
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
	if (len <= 5) { /* the longest of the words above */
		if ((!*s || strchr("~nN", *s)) && is_one_of(s, nulls))
			return YD_T_NULL;
		if (*s && strchr("yYnNtTfFoO", *s) && is_one_of(s, bools))
			return YD_T_BOOL;
		if (*s && strchr(".-+", *s) && is_one_of(s, floats))
			return YD_T_FLOAT;
	}
	/* every number below starts, after its sign, with one of these */
	const char *p = s + (*s == '-' || *s == '+');
	if (!digit_or_underscore(*p) && *p != '.')
		return YD_T_STRING;
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
		while (digit_or_underscore(*q))
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
	while (digit_or_underscore(*q))
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
