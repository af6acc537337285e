#include "issues.h"

/* A duplicate key is the rule of the kind whose loader rejects it:
 * ParallelCluster refuses the file, and a job spec is ours. */
static const enum rule_id issue_rules[] = {
	[YD_ISSUE_SYNTAX] = R_LN1001,      /* LN1001 yaml-syntax */
	[YD_ISSUE_DEPTH] = R_LN1006,       /* LN1006 nesting-too-deep */
	[YD_ISSUE_ALIAS_BUDGET] = R_LN1007, /* LN1007 alias-expansion-limit */
	[YD_ISSUE_MULTI_DOC] = R_LN1009,   /* LN1009 multiple-documents */
};

enum rule_id issue_rule(enum yd_issue_code code, enum file_kind kind)
{
	if (code != YD_ISSUE_DUPLICATE_KEY)
		return issue_rules[code];
	switch (kind) {
	case KIND_PCLUSTER:
		return R_PC0001; /* PC0001 duplicate-key */
	case KIND_JOBSPEC:
		return R_JS0001; /* JS0001 spec-duplicate-key */
	case KIND_UNKNOWN:
	case KIND_SETTINGS:
		/* a fragment merged into a config carries its repeat along */
		return R_LN1012; /* LN1012 yaml-duplicate-key */
	default:
		return RULE__COUNT;
	}
}

void issues_report(struct diag_list *diags, struct source *src, const yamldoc *doc,
		   enum file_kind kind)
{
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		enum rule_id rule = issue_rule(is->code, kind);
		if (rule == RULE__COUNT)
			continue;
		struct diag *d = diag_add(diags, src, rule, is->span.line, is->span.col,
					  is->span.end_line, is->span.end_col, "%s%s",
					  is->code == YD_ISSUE_SYNTAX ? "YAML syntax error: " : "",
					  is->msg);
		if (is->code == YD_ISSUE_DUPLICATE_KEY)
			diag_set_help(d, "%s", kind == KIND_PCLUSTER
				      ? "ParallelCluster rejects duplicate keys; keep one"
				      : kind == KIND_UNKNOWN
				      ? "ParallelCluster's loader rejects duplicate keys, and others keep only the last; keep one"
				      : "a YAML loader keeps only one of them; keep one");
	}
}
