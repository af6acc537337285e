/* Rule metadata shared by lint, gen, `rules`, `explain` and the docs. */
#ifndef TF_RULES_H
#define TF_RULES_H

#include <stddef.h>

enum severity { SEV_INFO, SEV_WARNING, SEV_ERROR };

enum rule_id {
#define RULE(id, name, level, summary) R_##id,
#include "rules.def"
#undef RULE
	RULE__COUNT
};

struct rule {
	const char *id;
	const char *name;
	enum severity level;
	const char *summary;
};

extern const struct rule rule_table[RULE__COUNT];

/* What --fix can do about a rule's findings: nothing, a fix that cannot
 * change what the file does (applied by --fix), or one that can (needs
 * --unsafe-fixes). */
enum fixability { FIX_NONE, FIX_SAFE, FIX_UNSAFE };
enum fixability rule_fixability(enum rule_id rule);

const char *severity_name(enum severity sev);
/* Parses "error", "warning" or "info"; returns -1 otherwise. */
int severity_parse(const char *s);
/* Finds a rule by ID (case-insensitive) or by name; -1 if none. */
int rule_find(const char *s, size_t len);

#endif
