/* Reviewing a change to a cluster config: its old version comes from a
 * git revision (--base, base: in .trainforge.yaml) or from diff's OLD
 * file, and the PC5 rules judge what changed. A file the revision does
 * not have is new: nothing to review. A revision that cannot be read is
 * the tool failing (exit 2), once per revision. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "lint_internal.h"
#include "pcluster.h"
#include "text.h"
#include "tmpl.h"

/* Why the old text cannot be reviewed against, or NULL. */
static const char *unusable(const char *text, size_t len, const yamldoc *doc, struct buf *why)
{
	size_t where;
	if (text_check_input(text, len, &where) != INPUT_OK)
		return "is not text";
	if (yamldoc_broken(doc)) {
		const struct yd_issue *is = yamldoc_issue(doc, 0);
		buf_printf(why, "is not valid YAML (line %u: %s)", is ? is->span.line : 1,
			   is ? is->msg : "unreadable");
		return why->p;
	}
	yd_node root = yd_root(doc);
	if (yd_kind(doc, root) != YD_MAPPING || !yd_get_key(doc, root, "HeadNode") ||
	    !yd_get_key(doc, root, "Scheduling"))
		return "is not a ParallelCluster config (no top-level HeadNode and Scheduling)";
	return NULL;
}

static void failed(struct lint_run *run, const struct lint_options *opt, const char *why)
{
	const char *what = opt->base_path ? opt->base_path : opt->base_rev;
	if (run->base_failed && !strcmp(run->base_failed, what))
		return;
	trouble_add(&run->trouble, "trainforge: %s %s: %s", opt->base_path ? "diff" : "--base", what, why);
	run->base_failed = what;
	run->io_failed = true;
}

bool lint_review(struct lint_run *run, struct source *src, const yamldoc *doc)
{
	const struct lint_options *opt = lint_options_of(run, src);
	if (!opt->base_path && !opt->base_rev)
		return false;
	char *text = NULL;
	size_t len = 0;
	struct buf why = BUF_INIT, name = BUF_INIT;
	enum base_status st;
	if (opt->base_path) {
		st = base_from_file(opt->base_path, opt->max_bytes, &text, &len, &why);
		buf_puts(&name, opt->base_path);
	} else {
		st = base_from_git(opt->base_rev, src->path, opt->max_bytes, &text, &len, &why);
		buf_printf(&name, "%s:%s", opt->base_rev, src->path);
	}
	if (st == BASE_FAILED) {
		failed(run, opt, why.p ? why.p : "cannot be read");
	} else if (st == BASE_TOO_LARGE) {
		buf_printf(&why, "is larger than %zu bytes", opt->max_bytes);
		pcluster_review_unusable(src, name.p, why.p, &run->diags);
	} else if (st == BASE_OK) {
		/* read as the new version is: a template with the same values */
		struct tmpl tm;
		tmpl_prepare(text, len, opt->defines, 0, &tm);
		yamldoc *old = yamldoc_parse_tmpl(&tm, NULL);
		tmpl_free(&tm);
		yamldoc_set_pyyaml(old, true);
		const char *bad = unusable(text, len, old, &why);
		struct pc_settings set = { &opt->target, opt->idle_cost_warning, NULL };
		struct pc_base base = { old, name.p };
		if (bad)
			pcluster_review_unusable(src, name.p, bad, &run->diags);
		else
			pcluster_review(src, doc, &base, &set, &run->diags);
		yamldoc_free(old);
	}
	free(text);
	buf_free(&why);
	buf_free(&name);
	return st == BASE_OK;
}
