/* The PC rules' driver: the areas in order, each over one cluster model,
 * and the one way they report (a span and a YAML path). */
#include "pc.h"

#include <stdarg.h>
#include <stdlib.h>

#include "buf.h"

struct diag *pc_report(const struct pc *pc, enum rule_id rule, yd_node at,
		       const char *fmt, ...)
{
	struct yd_span s = yd_span(pc->cl->doc, at);
	struct buf msg = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	/* a container's span runs to where the next token starts; point at
	 * its first line only */
	if (yd_kind(pc->cl->doc, at) != YD_SCALAR && s.end_line > s.line) {
		s.end_line = s.line;
		s.end_col = s.col + 1;
	}
	struct diag *d = diag_add(pc->diags, pc->cl->src, rule, s.line, s.col,
				  s.end_line, s.end_col, "%s", msg.p);
	buf_free(&msg);
	diag_set_path(d, pc->cl->doc, at);
	return d;
}

static void (*const checks[])(const struct pc *) = {
	pc_check_schema,
	pc_check_values,
	pc_check_efa,
	pc_check_placement,
	pc_check_capacity,
	pc_check_platform,
	pc_check_storage,
	pc_check_cost,
	pc_check_network,
	pc_check_bootstrap,
	pc_check_lookalikes,
};

void pcluster_lint_with(struct source *src, const yamldoc *doc, const struct pc_settings *set,
			struct diag_list *diags)
{
	struct target t = target_default();
	struct cluster cl = cluster_of(src, doc);
	const struct pc_reading *how = set->how;
	struct pc pc = { &cl, diags, diags->len, how ? how->tmpl : NULL,
			 how ? how->as_written : NULL, set->target ? set->target : &t,
			 set->idle_cost_warning };
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
		checks[i](&pc);
}

void pcluster_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		      struct diag_list *diags)
{
	struct pc_settings set = { target, -1, NULL };
	pcluster_lint_with(src, doc, &set, diags);
}

void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags)
{
	pcluster_lint_at(src, doc, NULL, diags);
}
