/* PC000x: what ParallelCluster's own schema rejects, from the embedded
 * JSON Schema (schemas/parallelcluster.schema.json), for the target
 * release: its release tags say which keys and values each release
 * added or removed (docs/versions.md, "pc-schema-changes"). Duplicate
 * keys (PC0001) are the YAML loader's finding: core/report/issues.c. */
#include <stdlib.h>
#include <string.h>

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
	[SF_KEY_SINCE] = R_PC0008,   /* PC0008 newer-release-key */
	[SF_KEY_UNTIL] = R_PC0009,   /* PC0009 removed-key */
	[SF_UNTIL] = R_PC0010,       /* PC0010 removed-value */
	[SF_SCHEMA] = R_PC0005,
	[SF_COERCED] = R_PC0011,     /* PC0011 converted-value */
};

/* The help of a finding about the release: what to do either way. */
static const char *release_help(enum schema_fault f)
{
	switch (f) {
	case SF_SINCE:
	case SF_KEY_SINCE:
		return "upgrade ParallelCluster, or target the release you run (--target parallelcluster=VERSION or target: in .trainforge.yaml)";
	case SF_UNTIL:
	case SF_KEY_UNTIL:
		return "remove it for this release, or target the release you run (--target parallelcluster=VERSION or target: in .trainforge.yaml)";
	default:
		return NULL;
	}
}

/* The walk's errors as findings. place: where a fragment was read, said
 * in each finding's help; a fragment is an excerpt, so that the keys it
 * lacks (a queue's Networking, a compute resource's InstanceType, the
 * config's HeadNode) are in the parts of the config it does not hold,
 * and not reported. */
static void report(const struct pc *pc, struct schema_errors *errs, const char *place)
{
	for (size_t i = 0; i < errs->len; i++) {
		const struct schema_error *e = &errs->v[i];
		if (place && e->fault == SF_MISSING)
			continue; /* what a fragment leaves out is elsewhere */
		struct diag *d = pc_report(pc, fault_rule[e->fault], e->pos, "%s", e->msg);
		const char *help = e->help ? e->help : release_help(e->fault);
		if (place && help)
			diag_set_help(d, "%s (read as a part of a cluster config: %s)", help, place);
		else if (place)
			diag_set_help(d, "read as a part of a cluster config: %s", place);
		else if (help)
			diag_set_help(d, "%s", help);
		/* a did-you-mean is a fix that changes what the file says; the
		 * value as the loader converts it one that does not */
		if (e->suggest && rule_fixability(d->rule) != FIX_NONE) {
			diag_set_fix(d, e->suggest);
			diag_set_fix_case_only(d);
		}
		if (e->node != e->pos)
			diag_set_path(d, pc->cl->doc, e->node);
	}
}

void pc_check_schema(const struct pc *pc)
{
	/* parsed at build time: the first config of a run only wraps it */
	schema *s = schema_embedded("parallelcluster.schema.json");
	if (!s)
		return;
	struct schema_errors errs = { 0 };
	schema_validate_release(s, pc->cl->doc, pc->cl->root, pc->target->pc, &errs);
	report(pc, &errs, NULL);
	schema_errors_free(&errs);
}

/* A fragment (docs/design.md, "Kinds"): the walk from the place its keys
 * belong to: a top-level mapping holds keys of the object there, a
 * top-level list items of the list there. */
void pcluster_lint_fragment(struct source *src, const yamldoc *doc, const struct schema_place *at,
			    const struct target *target, struct diag_list *diags)
{
	schema *s = schema_embedded("parallelcluster.schema.json");
	if (!s)
		return;
	struct target t = target_default();
	struct cluster cl = { src, doc, yd_root(doc) };
	struct pc pc = { &cl, diags, diags->len, NULL, NULL, target ? target : &t, -1 };
	struct buf place = BUF_INIT;
	if (!*at->path)
		buf_puts(&place, "its top-level keys as a config's own");
	else if (at->item && yd_kind(doc, cl.root) == YD_SEQUENCE)
		buf_printf(&place, "its items as those of %.*s", (int)(strlen(at->path) - 2), at->path);
	else
		buf_printf(&place, "its top-level keys as those of %s", at->path);
	yd_node root = cl.root;
	struct schema_errors errs = { 0 };
	if (yd_kind(doc, root) == YD_SEQUENCE) {
		for (size_t i = 0; i < yd_len(doc, root); i++)
			schema_validate_at(s, doc, yd_item(doc, root, i), at->schema, &pc.target->pc, &errs);
		report(&pc, &errs, place.p);
	} else {
		schema_validate_at(s, doc, root, at->schema, &pc.target->pc, &errs);
		report(&pc, &errs, place.p);
	}
	schema_errors_free(&errs);
	buf_free(&place);
}
