/* Rule explanations: why a rule matters, a bad and a good example, and
 * the ParallelCluster validator it mirrors (explain.def), and the page
 * that `trainforge explain` prints and docs/rules.md is made of. */
#ifndef TF_EXPLAIN_H
#define TF_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct explain {
	const char *why;
	/* Whole files, which may hold any bytes (even NUL): use the lengths. */
	const char *bad, *good;
	size_t bad_len, good_len;
	/* ParallelCluster validator types, comma-separated, or NULL. */
	const char *validators;
	/* A change rule's examples are changes: each holds the version the
	 * bad or good file changes from (NULL for other rules). */
	const char *bad_old, *good_old;
	size_t bad_old_len, good_old_len;
};

/* The explanation of rule (an enum rule_id), or NULL when it has none. */
const struct explain *explain_find(int rule);

/* Where a rule belongs in the docs: its family ("ParallelCluster
 * config") and area ("EFA"), from rules.def; the family's place in the
 * docs order. */
int explain_family_rank(int rule);
const char *explain_family(int rule);
const char *explain_area(int rule);

/* Whether the rule's findings are shell (a batch script) rather than YAML,
 * and whether an inline directive can suppress them at all. */
bool explain_is_shell(int rule);
bool explain_suppressible(int rule);

/* For rules whose examples are checked against a cluster config (they
 * hold `# trainforge cluster=cluster.yaml`), that config; else NULL. */
const char *explain_cluster(int rule, size_t *len);

enum explain_format { EXPLAIN_TEXT, EXPLAIN_MARKDOWN };

/* Appends rule's page to b. In Markdown the title is a heading of level
 * heading (1 to 6); heading is ignored for text. */
void explain_write(struct buf *b, int rule, enum explain_format fmt, int heading);

#endif
