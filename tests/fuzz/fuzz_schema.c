/* Arbitrary bytes parsed as YAML, then validated against the embedded
 * ParallelCluster schema and the job spec schema, with the path and
 * position of every error read as the rules read them. */
#include <stdbool.h>
#include <string.h>

#include "assets.h"
#include "buf.h"
#include "fuzz.h"
#include "schema.h"
#include "yamldoc.h"

static schema *load(const char *name, yamldoc **doc)
{
	const struct asset *a = asset_find(name);
	FUZZ_CHECK(a != NULL && a->image != NULL);
	*doc = yamldoc_from_image(a->image);
	schema *s = schema_new(*doc);
	FUZZ_CHECK(s != NULL);
	return s;
}

static void validate(schema *s, const yamldoc *doc, yd_node root)
{
	struct schema_errors errs = { 0 };
	schema_validate(s, doc, root, &errs);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < errs.len; i++) {
		const struct schema_error *e = &errs.v[i];
		FUZZ_CHECK(e->fault <= SF_SCHEMA);
		/* the embedded schemas are fine, so this is about the validator */
		FUZZ_CHECK(e->fault != SF_SCHEMA);
		FUZZ_CHECK(e->msg != NULL);
		(void)strlen(e->msg);
		if (e->help)
			(void)strlen(e->help);
		(void)yd_span(doc, e->pos);
		if (i < 16) {
			buf_reset(&b);
			yd_path_json(doc, e->node, &b);
		}
	}
	buf_free(&b);
	schema_errors_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static yamldoc *pc_doc, *js_doc;
	static schema *pc, *js;
	if (!pc) {
		pc = load("parallelcluster.schema.json", &pc_doc);
		js = load("jobspec.schema.json", &js_doc);
	}
	yamldoc *doc = yamldoc_parse((const char *)data, size, NULL);
	yd_node root = yd_root(doc);
	validate(pc, doc, root);
	validate(js, doc, root);
	yamldoc_free(doc);
	return 0;
}
