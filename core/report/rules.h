/* Rule metadata shared by lint, gen, `rules`, `explain` and the docs:
 * one table (rules.def) of areas and the rules in each. */
#ifndef TF_RULES_H
#define TF_RULES_H

#include <stddef.h>

#include "buf.h"

enum severity { SEV_INFO, SEV_WARNING, SEV_ERROR };

/* What --fix can do about a rule's findings: nothing, a fix that cannot
 * change what the file does (applied by --fix), or one that can (needs
 * --unsafe-fixes). */
enum fixability { FIX_NONE, FIX_SAFE, FIX_UNSAFE };

#define IMPLIES(cause, effect, scope, told)

enum rule_id {
#define AREA(key, family, title, file)
#define RULE(id, name, level, fix, summary) R_##id,
#include "rules.def"
#undef RULE
#undef AREA
	RULE__COUNT
};

enum rule_area {
#define AREA(key, family, title, file) AREA_##key,
#define RULE(id, name, level, fix, summary)
#include "rules.def"
#undef RULE
#undef AREA
	AREA__COUNT
};

#undef IMPLIES

struct rule {
	const char *id;
	const char *name;
	enum severity level;
	enum fixability fix;
	const char *summary;
};

/* A group of rules that one file implements. */
struct area {
	const char *family; /* "ParallelCluster config" */
	const char *title;  /* "EFA" */
	const char *file;   /* "lint/rules/pc/efa.c" */
};

extern const struct rule rule_table[RULE__COUNT];
extern const struct area area_table[AREA__COUNT];

/* Where a cause must be for its effect to be dropped (rules.def). */
enum implies_scope { IMPLIES_SPAN, IMPLIES_LINE, IMPLIES_FILE };

/* What the dropped effect's message becomes: nothing (the cause's own
 * message already says it), or a sentence of the cause's help. */
enum implies_told { IMPLIES_SAID, IMPLIES_HELP };

struct implication {
	enum rule_id cause, effect;
	enum implies_scope scope;
	enum implies_told told;
};

extern const struct implication implications[];
extern const size_t n_implications;
/* The implication of cause for effect, or NULL. */
const struct implication *rule_implies(enum rule_id cause, enum rule_id effect);

enum fixability rule_fixability(enum rule_id rule);
/* The area a rule belongs to (an index into area_table). */
enum rule_area rule_area_of(enum rule_id rule);

/* The page of a rule: base (NULL: TF_DOCS_URL, the build's) followed by
 * /docs/rules.md#ID-NAME, the heading docs/rules.md gives it; a
 * shellcheck code's page is shellcheck's wiki. */
void rule_url(struct buf *out, enum rule_id rule, int ext_code, const char *base);
/* Where the build says the repository's files are published (DOCS_URL). */
extern const char rule_docs_url[];

const char *severity_name(enum severity sev);
/* Parses "error", "warning" or "info"; returns -1 otherwise. */
int severity_parse(const char *s);
/* Finds a rule by ID (case-insensitive) or by name; -1 if none. */
int rule_find(const char *s, size_t len);

#endif
