/* The schemas' build-time tables (tools/embed.c) say what compiling the
 * schemas at run time says: every object, field by field, with the same
 * properties and required names; and a run compiles a pattern only when
 * a value reaches it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "assets.h"
#include "regex.h"
#include "schema_internal.h"

static const char *const schemas[] = {
	"parallelcluster.schema.json", "jobspec.schema.json", "trainforge-config.schema.json",
};

static void same_object(schema *built, schema *run, yd_node sn)
{
	const struct compiled *a = sch_compile(built, sn), *b = sch_compile(run, sn);
	assert_non_null(a);
	assert_non_null(b);
	assert_memory_equal(a->kw, b->kw, sizeof a->kw);
	assert_int_equal(a->ref, b->ref);
	assert_int_equal(a->types, b->types);
	assert_int_equal(a->checks, b->checks);
	assert_int_equal(a->bad, b->bad);
	assert_int_equal(a->boolean, b->boolean);
	assert_int_equal(a->allow, b->allow);
	assert_int_equal(a->extra, b->extra);
	assert_int_equal(a->closed, b->closed);
	assert_int_equal(a->n_props, b->n_props);
	assert_int_equal(a->n_required, b->n_required);
	const struct sch_prop *pa = built->table->props + a->props, *pb = run->lists.props + b->props;
	for (uint32_t i = 0; i < a->n_props; i++) {
		assert_int_equal(pa[i].len, pb[i].len);
		assert_memory_equal(built->text + pa[i].name, run->text + pb[i].name, pa[i].len);
		assert_int_equal(pa[i].schema, pb[i].schema);
	}
	for (uint32_t i = 0; i < a->n_required; i++)
		assert_string_equal(sch_required(built, a, i), sch_required(run, b, i));
	const struct sch_int *ia[] = { &a->min_length, &a->max_length, &a->min_items, &a->max_items };
	const struct sch_int *ib[] = { &b->min_length, &b->max_length, &b->min_items, &b->max_items };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(ia[i]->set, ib[i]->set);
		assert_int_equal(ia[i]->v, ib[i]->v);
	}
	for (int i = 0; i <= KW_XMAXIMUM - KW_MINIMUM; i++) {
		assert_int_equal(a->bound[i].set, b->bound[i].set);
		assert_true(a->bound[i].v == b->bound[i].v);
	}
}

static void tables_match_a_compile_at_run_time(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof schemas / sizeof schemas[0]; k++) {
		const struct asset *a = asset_find(schemas[k]);
		assert_non_null(a);
		assert_non_null(a->schema);
		yamldoc *doc = yamldoc_from_image(a->image);
		schema *built = schema_from_table(doc, a->schema), *run = schema_new(doc);
		size_t objects = 0;
		for (yd_node sn = 1; sn <= yamldoc_node_count(doc); sn++) {
			if (yd_kind(doc, sn) != YD_MAPPING)
				continue;
			same_object(built, run, sn);
			objects++;
		}
		assert_true(objects > 20);
		schema_free(built);
		schema_free(run);
		yamldoc_free(doc);
	}
}

/* A config with one subnet id compiles that one pattern, of the schema's
 * forty. */
static void patterns_compile_on_first_use(void **state)
{
	(void)state;
	const struct asset *a = asset_find("parallelcluster.schema.json");
	yamldoc *sd = yamldoc_from_image(a->image);
	schema *s = schema_from_table(sd, a->schema);
	const char *text = "HeadNode:\n  Networking:\n    SubnetId: subnet-12345678\n";
	yamldoc *doc = yamldoc_parse(text, strlen(text), NULL);
	struct schema_errors errs = { 0 };
	schema_validate(s, doc, yd_root(doc), &errs);
	size_t compiled = 0, patterns = 0;
	for (size_t i = 0; i < s->re_cap; i++)
		compiled += s->re[i].re != NULL;
	for (size_t i = 0; i < s->n; i++)
		patterns += yd_kind(sd, (yd_node)i) == YD_MAPPING && sch_compile(s, (yd_node)i)->kw[KW_PATTERN];
	assert_true(patterns > 30);
	assert_int_equal(compiled, 1);
	assert_int_equal(s->re_len, 1);
	/* every pattern once: the table grows and finds each again */
	for (size_t i = 0; i < s->n; i++) {
		const struct compiled *c = yd_kind(sd, (yd_node)i) == YD_MAPPING ? sch_compile(s, (yd_node)i) : NULL;
		if (c && c->kw[KW_PATTERN])
			assert_ptr_equal(sch_pattern(s, c), sch_pattern(s, c));
	}
	assert_true(s->re_len >= 30 && s->re_len <= patterns && 2 * s->re_len <= s->re_cap);
	schema_errors_free(&errs);
	yamldoc_free(doc);
	schema_free(s);
	yamldoc_free(sd);
}

/* Every pattern of every schema is in its table as PCRE2 encoded it, and
 * reads back as a pattern that says what a compile of its text says, on
 * strings it matches and strings it does not. */
static void patterns_read_back_as_compiled(void **state)
{
	(void)state;
	static const char *const probes[] = {
		"", "subnet-12345678", "subnet-0123456789abcdef0", "s3://bucket/key", "https://x/y",
		"us-iso-east-1", "a", "A-Za-z", "/shared", "NONE", "p5.48xlarge", "x\n", "sg-1234",
		"arn:aws:iam::123456789012:role/r", "ami-0123456789abcdef0", "ondemand", "64",
	};
	for (size_t k = 0; k < sizeof schemas / sizeof schemas[0]; k++) {
		const struct asset *a = asset_find(schemas[k]);
		yamldoc *doc = yamldoc_from_image(a->image);
		size_t patterns = 0;
		for (yd_node sn = 1; sn <= yamldoc_node_count(doc); sn++)
			if (yd_kind(doc, sn) == YD_MAPPING)
				patterns += a->schema->v[a->schema->index[sn]].kw[KW_PATTERN] != 0;
		assert_int_equal(a->schema->n_codes, patterns);
		for (uint32_t i = 0; i < a->schema->n_codes; i++) {
			const struct sch_code *c = &a->schema->codes[i];
			if (i)
				assert_true(c->node > a->schema->codes[i - 1].node);
			size_t len;
			const char *text = yd_str(doc, c->node, &len);
			char err[256];
			struct regex *built = regex_decode(c->bytes, c->len), *run = regex_new(text, len, err, sizeof err);
			assert_non_null(built);
			assert_non_null(run);
			for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++)
				assert_int_equal(regex_match(built, probes[p], strlen(probes[p])),
						 regex_match(run, probes[p], strlen(probes[p])));
			regex_free(built);
			regex_free(run);
		}
		yamldoc_free(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tables_match_a_compile_at_run_time),
		cmocka_unit_test(patterns_compile_on_first_use),
		cmocka_unit_test(patterns_read_back_as_compiled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
