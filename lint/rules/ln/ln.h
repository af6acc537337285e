/* The LN rules: what the linter itself finds about an input before any
 * kind's rules run (bytes, size, kind; input.c), about its own
 * directives (directives.c), about the tools it runs (tools.c), about
 * its own settings file (settings.c) and about which cluster config a
 * batch script was checked against (pairing.c). */
#ifndef TF_LN_H
#define TF_LN_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "tmpl.h"
#include "yamldoc.h"

/* The checks on bytes before any parse (LN1002-LN1004); false stops the
 * file. Findings only for a named file: a walk skips such files. */
bool ln_check_bytes(struct diag_list *diags, struct source *src, bool named);
/* LN1005, for a file of `size` bytes above `limit`. */
void ln_file_too_large(struct diag_list *diags, struct source *src, unsigned long long size,
		       size_t limit);
/* LN1008: src is of no kind; why says what was done instead. */
void ln_unknown_kind(struct diag_list *diags, struct source *src, const char *why);
/* The YAML loader's issues as the file's kind reads them (LN1001,
 * LN1006, LN1007, LN1009, and the kind's duplicate-key rule); in a
 * Jinja template, a syntax error is LN1011. t: how the text was read. */
void ln_yaml_issues(struct diag_list *diags, struct source *src, const yamldoc *doc,
		    enum file_kind kind, const struct tmpl *t);
/* LN1010: the placeholders of t left without a value, in one finding. */
void ln_template_placeholders(struct diag_list *diags, struct source *src, const struct tmpl *t);
/* LN1010 for a batch script: its n placeholders (lint/template.c). */
void ln_script_placeholders(struct diag_list *diags, struct source *src, const struct tmpl_ph *ph,
			    size_t n);

/* Directive findings at line, columns col..end_col of src. */
void ln_malformed_directive(struct diag_list *diags, struct source *src, uint32_t line,
			    uint32_t col, uint32_t end_col, const char *what);
void ln_unknown_rule_in_directive(struct diag_list *diags, struct source *src, uint32_t line,
				  uint32_t col, uint32_t end_col, const char *id, size_t id_len);
/* LN0001 for rule at the directive; fix: the directive's text without the
 * stale IDs (NULL: no fix; ""): the directive goes. A directive that goes
 * takes its line with it when it was the line's only content. */
void ln_unused_suppression(struct diag_list *diags, struct source *src, uint32_t line,
			   uint32_t col, uint32_t end_col, enum rule_id rule, const char *fix);

/* LN2001 on src: shellcheck was stopped at its bound (seconds) while it
 * checked src among batch scripts in all, or (memory > 0) ran out of the
 * address space it may map (bytes). */
void ln_shellcheck_timeout(struct diag_list *diags, struct source *src, double bound,
			   size_t memory);

/* LN3001 at `at` in a settings file: what its reader says is wrong. */
void ln_invalid_settings(struct diag_list *diags, struct source *src, struct yd_span at,
			 const char *msg, const char *help);

/* LN3002 on a batch script no cluster config was paired with, naming
 * the checks against a cluster that are enabled (enabled[rule]; all of
 * them when none is) and so did not run. */
void ln_script_not_paired(struct diag_list *diags, struct source *src, const bool *enabled);
/* How a script was paired when nothing named its config (LN3003). */
enum ln_pairing { LN_PAIRED_ONLY_INPUT, LN_PAIRED_PARTITION, LN_PAIRED_TRACKED };
/* LN3003: src was paired with the config at `config` in that way;
 * partition: the script's, for LN_PAIRED_PARTITION. */
void ln_script_paired(struct diag_list *diags, struct source *src, enum ln_pairing how,
		      const char *config, const char *partition);

#endif
