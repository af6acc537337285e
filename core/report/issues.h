/* What the YAML loader finds before any kind's rules run (syntax, limits,
 * duplicate keys) as findings: one map from issue to rule, per kind of
 * file, for lint and for gen. */
#ifndef TF_ISSUES_H
#define TF_ISSUES_H

#include "diag.h"
#include "yamldoc.h"

/* The rule of an issue in a file of the given kind; RULE__COUNT when it
 * is no finding there (a kind not decided yet). */
enum rule_id issue_rule(enum yd_issue_code code, enum file_kind kind);
/* Reports every issue of doc, as issue_rule maps it. */
void issues_report(struct diag_list *diags, struct source *src, const yamldoc *doc,
		   enum file_kind kind);

#endif
