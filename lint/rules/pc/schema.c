/* PC000x: what ParallelCluster's own schema rejects, from the embedded
 * JSON Schema (schemas/parallelcluster.schema.json). Duplicate keys
 * (PC0001) are the YAML loader's finding: core/report/issues.c. */
#include <stdlib.h>

#include "buf.h"
#include "pc.h"
#include "schema.h"

/* Each fault of the schema walk is one rule; the schema's own messages
 * say what is wrong. */
static const enum rule_id fault_rule[] = {
	[SF_UNKNOWN_KEY] = R_PC0002, /* PC0002 unknown-key */
	[SF_TYPE] = R_PC0003,        /* PC0003 wrong-type */
	[SF_MISSING] = R_PC0004,     /* PC0004 missing-key */
	[SF_VALUE] = R_PC0005,       /* PC0005 invalid-value */
	[SF_CONFLICT] = R_PC0006,    /* PC0006 conflicting-keys */
	[SF_SINCE] = R_PC0007,       /* PC0007 newer-release-value */
	[SF_SCHEMA] = R_PC0005,
	[SF_COERCED] = R_PC0008,     /* PC0008 converted-value */
};

void pc_check_schema(const struct pc *pc)
{
	/* parsed at build time: the first config of a run only wraps it */
	schema *s = schema_embedded("parallelcluster.schema.json");
	if (!s)
		return;
	struct schema_errors errs = { 0 };
	schema_validate(s, pc->cl->doc, pc->cl->root, &errs);
	for (size_t i = 0; i < errs.len; i++) {
		const struct schema_error *e = &errs.v[i];
		struct diag *d = pc_report(pc, fault_rule[e->fault], e->pos, "%s", e->msg);
		if (e->help)
			diag_set_help(d, "%s", e->help);
		/* a did-you-mean is a fix that changes what the file says; the
		 * value as the loader converts it one that does not */
		if (e->suggest && rule_fixability(d->rule) != FIX_NONE)
			diag_set_fix(d, e->suggest);
		if (e->node != e->pos) {
			struct buf path = BUF_INIT;
			yd_path_json(pc->cl->doc, e->node, &path);
			free(d->yaml_path);
			d->yaml_path = buf_detach(&path);
		}
	}
	schema_errors_free(&errs);
}

