/* Arbitrary bytes parsed as YAML, then validated against the embedded
 * ParallelCluster schema and the job spec schema (with the release tags
 * checked for a release the input's size picks), with the path and
 * position of every error read as the rules read them; and the input,
 * taken as a schema with release tags, printed for that release. */
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

static void validate(schema *s, const yamldoc *doc, yd_node root, const struct version *release)
{
	struct schema_errors errs = { 0 };
	if (release)
		schema_validate_release(s, doc, root, *release, &errs);
	else
		schema_validate(s, doc, root, &errs);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < errs.len; i++) {
		const struct schema_error *e = &errs.v[i];
		FUZZ_CHECK(e->fault <= SF_COERCED);
		if (e->suggest)
			(void)strlen(e->suggest);
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
	static const struct version releases[] = {
		VERSION_LINE(3, 11), VERSION_LINE(3, 13), VERSION_AT(3, 15, 0), VERSION_LINE(3, 16),
	};
	const struct version *release = size % 5 ? &releases[size % 4] : NULL;
	yamldoc *doc = yamldoc_parse((const char *)data, size, NULL);
	yd_node root = yd_root(doc);
	validate(pc, doc, root, release);
	validate(js, doc, root, release);
	struct buf printed = BUF_INIT;
	schema_print_release(doc, releases[size % 4], &printed);
	FUZZ_CHECK(printed.len >= 1 && printed.p[printed.len - 1] == '\n');
	buf_free(&printed);
	yamldoc_free(doc);
	return 0;
}
