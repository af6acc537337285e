#include "rules.h"

#include <string.h>
#include <strings.h>

const struct rule rule_table[RULE__COUNT] = {
#define RULE(id, name, level, summary) \
	[R_##id] = { #id, name, SEV_##level, summary },
#include "rules.def"
#undef RULE
};

static const struct {
	enum rule_id rule;
	enum fixability fix;
} fixable[] = {
	{ R_LN0001, FIX_SAFE }, { R_PC1004, FIX_SAFE }, { R_SB0004, FIX_SAFE },
	{ R_SB2104, FIX_SAFE }, { R_SB0002, FIX_UNSAFE }, { R_SB0003, FIX_UNSAFE },
	{ R_SB2103, FIX_UNSAFE },
};

enum fixability rule_fixability(enum rule_id rule)
{
	for (size_t i = 0; i < sizeof fixable / sizeof fixable[0]; i++)
		if (fixable[i].rule == rule)
			return fixable[i].fix;
	return FIX_NONE;
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
