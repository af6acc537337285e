/* Diagnostics: every problem a user sees is one of these, with a
 * position. Modules add them to a list; only the CLI prints them. */
#ifndef TF_DIAG_H
#define TF_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "source.h"

/* A fix beside the finding's own: the unsafe one that --unsafe-fixes
 * writes instead when the safe fix leaves the defect half repaired (a
 * look-alike whose ASCII value is still not valid). */
struct diag_alt {
	char *text;
	size_t start, end;                /* the bytes it replaces */
	uint32_t line, col, end_line, end_col;
};

struct diag {
	struct source *src;
	uint32_t line, col;         /* 1-based; col counts code points */
	uint32_t end_line, end_col; /* exclusive end */
	enum severity sev;
	enum rule_id rule;
	char *msg;
	const char *help;           /* optional; freed when help_owned */
	bool help_owned;
	char *fix;                  /* optional replacement text for the fix range */
	size_t fix_start, fix_end;  /* the bytes it replaces: the finding's own */
	uint32_t fix_line, fix_col; /* range unless set apart, and where they */
	uint32_t fix_end_line, fix_end_col; /* are as the user counts */
	bool fix_safe;              /* the fix cannot change what the file does */
	char *yaml_path;            /* optional JSON array of path segments; else */
	const struct yamldoc *path_doc; /* the node whose path it is, written */
	uint32_t path_node;         /* when a format asks (diag_set_path) */
	int ext_code;               /* a shellcheck code (rule R_SC0000), else 0 */
	struct diag_alt *alt;       /* optional: an unsafe fix beside a safe one */
};

struct diag_list {
	struct diag *v;
	size_t len, cap;
};

/* The finding's YAML path is node's in doc, written only when a format
 * asks for it (JSON): text output of a file with thousands of findings
 * needs neither the paths nor the index that finds them. doc must
 * outlive the finding's formatting; a lint run frees its findings before
 * its documents. */
void diag_set_path(struct diag *d, const struct yamldoc *doc, uint32_t node);
/* Writes the path as a JSON array, or null when the finding has none. */
struct buf;
void diag_write_path(const struct diag *d, struct buf *out);

/* Appends a diagnostic at the rule's default level and returns it so the
 * caller can add help, fix or path; the list owns its strings. The
 * pointer is valid until the next diag_add or diag_remove on the same
 * list (the array grows): use it at once, never keep it. */
struct diag *diag_add(struct diag_list *list, struct source *src,
		      enum rule_id rule, uint32_t line, uint32_t col,
		      uint32_t end_line, uint32_t end_col, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* A help without conversions is kept as the caller's literal, not
 * copied: a rule that finds the same thing on thousands of nodes says
 * the same help each time. The old help may be an argument: it is
 * freed after the new one is written. */
void diag_set_help(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The ID users see: the rule's, or SCnnnn for a shellcheck finding.
 * buf must hold 8 bytes; the result may point into it. */
const char *diag_id(const struct diag *d, char buf[8]);

/* Sets (or replaces) the fix: replacement text for the finding's range,
 * or for another range of the same file. Whether it is safe is the rule's
 * (rules.def); a rule without a fix there must not set one. */
void diag_set_fix(struct diag *d, const char *text);
void diag_set_fix_bytes(struct diag *d, size_t start, size_t end, const char *text);

/* A did-you-mean that only changes the case of what it replaces (ondemand
 * to ONDEMAND, for a value or key the reader rejects as written) is safe
 * whatever its rule's other fixes are: nothing but the finding changes. */
void diag_set_fix_case_only(struct diag *d);

/* Sets the unsafe fix beside d's safe one (rules.def: a SAFE rule). */
void diag_set_alt_fix_bytes(struct diag *d, size_t start, size_t end, const char *text);

/* Removes entry i, keeping order. */
void diag_remove(struct diag_list *list, size_t i);
/* Appends every entry of from to list, leaving from empty. */
void diag_list_move(struct diag_list *list, struct diag_list *from);
/* One root cause, one finding (rules.def, IMPLIES): drops each finding
 * of src (NULL: of any file) from index first on that an enabled finding
 * of the same file implies. enabled may be NULL (every rule). */
void diag_collapse(struct diag_list *list, size_t first, const struct source *src,
		   const bool *enabled);
/* The same with another table of implications (tests). */
void diag_collapse_by(struct diag_list *list, size_t first, const struct source *src,
		      const bool *enabled, const struct implication *table, size_t n_table);
/* Keeps, in order, the entries from first on for which keep says so and
 * removes the others, in one pass: a run that drops tens of thousands of
 * findings must not move the list once for each. */
void diag_list_filter(struct diag_list *list, size_t first,
		      bool (*keep)(struct diag *d, void *ctx), void *ctx);
/* Sorts by path, line, column, rule: the order users and tools rely on. */
void diag_list_sort(struct diag_list *list);
void diag_list_free(struct diag_list *list);

#endif
