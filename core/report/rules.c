#include "rules.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#define IMPLIES(cause, effect, scope, told)

/* The table in file order: a rule's area is the last AREA row above it. */
static const struct {
	enum rule_area area; /* for AREA rows */
	int rule;            /* for RULE rows; -1 for AREA rows */
} rows[] = {
#define AREA(key, family, title, file) { AREA_##key, -1 },
#define RULE(id, name, level, fix, summary) { 0, R_##id },
#include "rules.def"
#undef RULE
#undef AREA
};

const struct area area_table[AREA__COUNT] = {
#define AREA(key, family, title, file) [AREA_##key] = { family, title, file },
#define RULE(id, name, level, fix, summary)
#include "rules.def"
#undef RULE
#undef AREA
};

const struct rule rule_table[RULE__COUNT] = {
#define AREA(key, family, title, file)
#define RULE(id, name, level, fix, summary) \
	[R_##id] = { #id, name, SEV_##level, FIX_##fix, summary },
#include "rules.def"
#undef RULE
#undef AREA
};

#undef IMPLIES
#define AREA(key, family, title, file)
#define RULE(id, name, level, fix, summary)
#define IMPLIES(cause, effect, scope, told) \
	{ R_##cause, R_##effect, IMPLIES_##scope, IMPLIES_##told },
const struct implication implications[] = {
#include "rules.def"
};
#undef IMPLIES
#undef RULE
#undef AREA
const size_t n_implications = sizeof implications / sizeof implications[0];

const struct implication *rule_implies(enum rule_id cause, enum rule_id effect)
{
	for (size_t i = 0; i < n_implications; i++)
		if (implications[i].cause == cause && implications[i].effect == effect)
			return &implications[i];
	return NULL;
}

enum fixability rule_fixability(enum rule_id rule)
{
	return rule_table[rule].fix;
}

enum rule_area rule_area_of(enum rule_id rule)
{
	/* read from the rows once: a run asks for every rule of every file */
	_Static_assert(AREA__COUNT <= 256, "an area fits a byte");
	static unsigned char area_of[RULE__COUNT];
	static bool ready;
	if (!ready) {
		enum rule_area area = 0;
		for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
			if (rows[i].rule < 0)
				area = rows[i].area;
			else
				area_of[rows[i].rule] = (unsigned char)area;
		}
		ready = true;
	}
	return (enum rule_area)area_of[rule];
}

static const char *const severity_names[] = {
	[SEV_INFO] = "info",
	[SEV_WARNING] = "warning",
	[SEV_ERROR] = "error",
};

const char *severity_name(enum severity sev)
{
	return severity_names[sev];
}

int severity_parse(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, severity_names[i]) == 0)
			return i;
	return -1;
}

int rule_find(const char *s, size_t len)
{
	for (int i = 0; i < RULE__COUNT; i++) {
		const struct rule *r = &rule_table[i];
		if ((strlen(r->id) == len && strncasecmp(r->id, s, len) == 0) ||
		    (strlen(r->name) == len && strncmp(r->name, s, len) == 0))
			return i;
	}
	return -1;
}

#ifndef TF_DOCS_URL /* the Makefile's DOCS_URL */
#define TF_DOCS_URL "https://github.com/trainforge/trainforge/blob/main"
#endif
const char rule_docs_url[] = TF_DOCS_URL;

void rule_url(struct buf *out, enum rule_id rule, int ext_code, const char *base)
{
	if (ext_code) {
		buf_printf(out, "https://www.shellcheck.net/wiki/SC%04d", ext_code % 10000);
		return;
	}
	base = base && *base ? base : rule_docs_url;
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	/* GitHub's anchor of "#### PC2101 efa-without-placement-group" */
	buf_printf(out, "%.*s/docs/rules.md#", (int)n, base);
	for (const char *p = rule_table[rule].id; *p; p++)
		buf_putc(out, (char)tolower((unsigned char)*p));
	buf_printf(out, "-%s", rule_table[rule].name);
}
