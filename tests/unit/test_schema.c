/* The JSON Schema subset over yamldoc: every keyword, with positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdbool.h>

#include "schema.h"

struct result {
	yamldoc *sd, *d;
	schema *s;
	struct schema_errors errs;
};

/* release NULL: schema_validate, which ignores the release tags. */
static void run_at(struct result *r, const char *schema_json, const char *yaml,
		   const char *release)
{
	r->sd = yamldoc_parse(schema_json, strlen(schema_json), NULL);
	assert_int_equal(yamldoc_issue_count(r->sd), 0);
	r->d = yamldoc_parse(yaml, strlen(yaml), NULL);
	r->s = schema_new(r->sd);
	memset(&r->errs, 0, sizeof r->errs);
	struct version v;
	if (release && version_parse(release, strlen(release), &v))
		schema_validate_release(r->s, r->d, yd_root(r->d), v, &r->errs);
	else
		schema_validate(r->s, r->d, yd_root(r->d), &r->errs);
}

static void run(struct result *r, const char *schema_json, const char *yaml)
{
	run_at(r, schema_json, yaml, NULL);
}

static void done(struct result *r)
{
	schema_errors_free(&r->errs);
	schema_free(r->s);
	yamldoc_free(r->d);
	yamldoc_free(r->sd);
}

static const struct schema_error *find(struct result *r, enum schema_fault f)
{
	for (size_t i = 0; i < r->errs.len; i++)
		if (r->errs.v[i].fault == f)
			return &r->errs.v[i];
	return NULL;
}

static const char obj[] =
	"{\"type\":\"object\",\"additionalProperties\":false,"
	"\"required\":[\"Name\"],"
	"\"properties\":{\"Name\":{\"type\":\"string\",\"pattern\":\"^[a-z]+$\",\"maxLength\":5},"
	"\"Count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},"
	"\"Kind\":{\"enum\":[\"ONDEMAND\",\"SPOT\"]},"
	"\"Os\":{\"enum\":[\"alinux2023\",\"ubuntu2404\"],\"x-since\":{\"ubuntu2404\":\"3.13.0\"}},"
	"\"List\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"uniqueItems\":true}}}";

static void clean_instance(void **state)
{
	(void)state;
	struct result r;
	run(&r, obj, "Name: abc\nCount: 3\nKind: SPOT\nList: [a, b]\n");
	assert_int_equal(r.errs.len, 0);
	done(&r);
}

static void unknown_key_with_suggestion_and_no_double_missing(void **state)
{
	(void)state;
	struct result r;
	run(&r, obj, "name: abc\n");
	const struct schema_error *e = find(&r, SF_UNKNOWN_KEY);
	assert_non_null(e);
	assert_non_null(strstr(e->help, "'Name'"));
	assert_non_null(strstr(e->help, "case-sensitive"));
	assert_int_equal(yd_span(r.d, e->pos).line, 1);
	assert_null(find(&r, SF_MISSING));
	done(&r);
}

static void every_error_is_reported(void **state)
{
	(void)state;
	struct result r;
	run_at(&r, obj, "Name: ABCDEFG\nCount: 11\nKind: spot\nList: [a, a]\nOs: ubuntu2404\n", "3.11");
	/* pattern + maxLength, maximum, enum, uniqueItems, x-since */
	assert_int_equal(r.errs.len, 6);
	const struct schema_error *e = find(&r, SF_SINCE);
	assert_non_null(e);
	assert_non_null(strstr(e->msg, "3.13"));
	for (size_t i = 0; i < r.errs.len; i++)
		if (strstr(r.errs.v[i].msg, "spot"))
			assert_string_equal(r.errs.v[i].help, "did you mean 'SPOT'?");
	done(&r);
}

/* Keys and values tagged with the releases that added or removed them. */
static const char tagged[] =
	"{\"x-product\":\"Product\",\"type\":\"object\",\"additionalProperties\":false,"
	"\"properties\":{"
	"\"New\":{\"type\":\"object\",\"x-since\":\"3.15.0\",\"properties\":{\"Id\":{\"type\":\"string\"}},"
	"\"additionalProperties\":false},"
	"\"Old\":{\"type\":\"string\",\"x-until\":\"3.15.0\"},"
	"\"Span\":{\"type\":\"string\",\"x-since\":\"3.12.0\",\"x-until\":\"3.14.0\"},"
	"\"Os\":{\"enum\":[\"a\",\"b\",\"c\"],\"x-since\":{\"c\":\"3.13.0\"},\"x-until\":{\"a\":\"3.14.0\"}},"
	"\"Bad\":{\"type\":\"string\",\"x-since\":\"soon\"}}}";

static size_t count(struct result *r, enum schema_fault f)
{
	size_t n = 0;
	for (size_t i = 0; i < r->errs.len; i++)
		n += r->errs.v[i].fault == f;
	return n;
}

static void release_tags(void **state)
{
	(void)state;
	struct result r;
	/* without a release the tags are not checked */
	run(&r, tagged, "New: {Id: x}\nOld: y\nOs: a\n");
	assert_int_equal(r.errs.len, 0);
	done(&r);
	/* before the key: one finding at the key, none for what is under it */
	run_at(&r, tagged, "New: {Id: 1, Extra: 2}\nOld: y\nOs: c\n", "3.13");
	assert_int_equal(r.errs.len, 1);
	const struct schema_error *e = find(&r, SF_KEY_SINCE);
	assert_non_null(e);
	assert_string_equal(e->msg, "'New' needs Product 3.15 or later; the target is 3.13");
	assert_int_equal(yd_span(r.d, e->pos).line, 1);
	assert_int_equal(yd_span(r.d, e->pos).col, 1);
	done(&r);
	/* at and after the removal */
	run_at(&r, tagged, "New: {Id: x}\nOld: y\nOs: a\n", "3.15.0");
	assert_int_equal(r.errs.len, 2);
	e = find(&r, SF_KEY_UNTIL);
	assert_non_null(e);
	assert_string_equal(e->msg, "'Old' was removed in Product 3.15; the target is 3.15.0");
	e = find(&r, SF_UNTIL);
	assert_non_null(e);
	assert_string_equal(e->msg, "'a' was removed in Product 3.14; the target is 3.15.0");
	done(&r);
	/* a value before its release; a key inside its span, and outside */
	run_at(&r, tagged, "Os: c\nSpan: s\n", "3.12");
	assert_int_equal(r.errs.len, 1);
	assert_int_equal(count(&r, SF_SINCE), 1);
	done(&r);
	run_at(&r, tagged, "Span: s\n", "3.11.1");
	assert_int_equal(count(&r, SF_KEY_SINCE), 1);
	done(&r);
	run_at(&r, tagged, "Span: s\n", "3.14");
	assert_int_equal(count(&r, SF_KEY_UNTIL), 1);
	done(&r);
	/* a line is above each of its releases: 3.13 has what 3.13.0 added */
	run_at(&r, tagged, "Os: c\nSpan: s\n", "3.13");
	assert_int_equal(r.errs.len, 0);
	done(&r);
	/* a tag that is not a version is the schema's fault */
	run_at(&r, tagged, "Bad: x\n", "3.13");
	assert_int_equal(count(&r, SF_SCHEMA), 1);
	done(&r);
}

static void types_follow_yaml_11(void **state)
{
	(void)state;
	struct result r;
	run(&r, obj, "Name: yes\nCount: '3'\n");
	assert_int_equal(r.errs.len, 2);
	assert_int_equal(r.errs.v[0].fault, SF_TYPE);
	assert_non_null(strstr(r.errs.v[0].help, "quote"));
	assert_int_equal(r.errs.v[1].fault, SF_TYPE);
	done(&r);
}

static void null_is_not_a_value(void **state)
{
	(void)state;
	struct result r;
	run(&r, obj, "Name:\n");
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].help, "give it a value or remove the key");
	done(&r);
}

static void combinators_and_messages(void **state)
{
	(void)state;
	const char *s =
		"{\"$defs\":{\"Action\":{\"type\":\"object\",\"properties\":{\"Script\":{\"type\":\"string\"},"
		"\"Sequence\":{\"type\":\"array\"}},\"additionalProperties\":false,"
		"\"allOf\":[{\"oneOf\":[{\"required\":[\"Script\"]},{\"required\":[\"Sequence\"]}],"
		"\"x-message\":\"Script or Sequence, not both\"}]}},"
		"\"type\":\"object\",\"properties\":{\"A\":{\"$ref\":\"#/$defs/Action\"},"
		"\"SG\":{},\"ASG\":{}},"
		"\"allOf\":[{\"not\":{\"required\":[\"SG\",\"ASG\"]}},"
		"{\"if\":{\"properties\":{\"SG\":{\"const\":1}},\"required\":[\"SG\"]},"
		"\"then\":{\"required\":[\"A\"]},\"x-message\":\"SG 1 needs A\"}],"
		"\"dependentRequired\":{\"ASG\":[\"A\"]}}";
	struct result r;
	run(&r, s, "A:\n  Script: x\n  Sequence: []\n");
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].msg, "Script or Sequence, not both");
	assert_int_equal(yd_span(r.d, r.errs.v[0].pos).line, 1); /* at the key A */
	done(&r);
	run(&r, s, "SG: 1\nASG: 2\n");
	assert_int_equal(r.errs.len, 3);
	bool conflict = false, message = false, dependent = false;
	for (size_t i = 0; i < r.errs.len; i++) {
		const struct schema_error *e = &r.errs.v[i];
		conflict |= e->fault == SF_CONFLICT &&
			    strstr(e->msg, "'SG' and 'ASG' cannot be used together");
		message |= e->fault == SF_MISSING && !strcmp(e->msg, "SG 1 needs A");
		dependent |= e->fault == SF_MISSING && strstr(e->msg, "'ASG' needs 'A'");
	}
	assert_true(conflict && message && dependent);
	done(&r);
}

static void ref_loops_end(void **state)
{
	(void)state;
	struct result r;
	run(&r, "{\"$defs\":{\"L\":{\"$ref\":\"#/$defs/L\"}},\"$ref\":\"#/$defs/L\"}", "a: 1\n");
	done(&r);
	run(&r, "{\"$ref\":\"#/$defs/Missing\"}", "a: 1\n");
	assert_int_equal(r.errs.len, 1);
	assert_int_equal(r.errs.v[0].fault, SF_SCHEMA);
	done(&r);
}

/* When no alternative fits, the reasons are those of the one that fails
 * least, whole; alternatives are only counted while looking. */
static void alternatives_report_the_closest(void **state)
{
	(void)state;
	const char *s =
		"{\"oneOf\":[{\"type\":\"object\",\"required\":[\"a\",\"b\",\"c\"]},"
		"{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\",\"minimum\":5}},"
		"\"required\":[\"x\"],\"additionalProperties\":false}]}";
	struct result r;
	run(&r, s, "x: 2\ny: 1\n");
	/* the first misses three keys, the second has two faults */
	assert_int_equal(r.errs.len, 2);
	assert_non_null(find(&r, SF_VALUE));
	const struct schema_error *e = find(&r, SF_UNKNOWN_KEY);
	assert_non_null(e);
	assert_string_equal(e->msg, "unknown key 'y'");
	done(&r);
	run(&r, s, "a: 1\nb: 2\nc: 3\n");
	assert_int_equal(r.errs.len, 0);
	done(&r);
	const char *both = "{\"oneOf\":[{\"type\":\"object\"},{\"required\":[\"a\"]}]}";
	run(&r, both, "a: 1\n");
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].msg, "the value fits more than one of the allowed forms");
	done(&r);
	/* ties go to the first alternative */
	const char *any = "{\"anyOf\":[{\"type\":\"integer\",\"maximum\":3},{\"type\":\"string\"},"
			  "{\"type\":\"boolean\"}]}";
	run(&r, any, "7\n");
	assert_int_equal(r.errs.len, 1);
	assert_non_null(strstr(r.errs.v[0].msg, "out of range"));
	done(&r);
	run(&r, any, "true\n");
	assert_int_equal(r.errs.len, 0);
	done(&r);
}

/* Matching inside matching (an if whose condition holds a oneOf and a
 * not) decides the same way as validating does. */
static void nested_conditions(void **state)
{
	(void)state;
	const char *s =
		"{\"if\":{\"properties\":{\"k\":{\"oneOf\":[{\"pattern\":\"^a\"},{\"pattern\":\"b$\"}],"
		"\"not\":{\"const\":\"ax\"}}},\"required\":[\"k\"]},"
		"\"then\":{\"required\":[\"t\"]},\"else\":{\"required\":[\"e\"]}}";
	struct result r;
	run(&r, s, "k: az\n"); /* one pattern, not ax: then */
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].msg, "missing required key 't'");
	done(&r);
	run(&r, s, "k: ab\n"); /* both patterns: else */
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].msg, "missing required key 'e'");
	done(&r);
	run(&r, s, "k: ax\n"); /* the not fails: else */
	assert_string_equal(r.errs.v[0].msg, "missing required key 'e'");
	done(&r);
}

/* Keywords read once when the schema object is compiled. */
static void bounds_and_other_keys(void **state)
{
	(void)state;
	const char *s =
		"{\"type\":\"object\",\"properties\":{\"s\":{\"minLength\":2,\"maxLength\":3},"
		"\"l\":{\"minItems\":2,\"maxItems\":2},\"n\":{\"exclusiveMinimum\":0,\"exclusiveMaximum\":1.5},"
		"\"no\":false},\"additionalProperties\":{\"type\":\"integer\"}}";
	struct result r;
	run(&r, s, "s: abcd\nl: [1]\nn: 1.5\nother: x\nfine: 3\n");
	assert_int_equal(r.errs.len, 4);
	assert_non_null(strstr(r.errs.v[0].msg, "too long"));
	assert_non_null(strstr(r.errs.v[1].msg, "at least 2 needed"));
	assert_non_null(strstr(r.errs.v[2].msg, "must be below 1.5"));
	assert_int_equal(r.errs.v[3].fault, SF_TYPE);
	done(&r);
	run(&r, s, "s: \xc3\xa9\xc3\xa9\nl: [1, 2]\nn: 0.5\nno: 1\n");
	assert_int_equal(r.errs.len, 1);
	assert_string_equal(r.errs.v[0].msg, "no value is allowed here");
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_instance),
		cmocka_unit_test(unknown_key_with_suggestion_and_no_double_missing),
		cmocka_unit_test(every_error_is_reported),
		cmocka_unit_test(release_tags),
		cmocka_unit_test(types_follow_yaml_11),
		cmocka_unit_test(null_is_not_a_value),
		cmocka_unit_test(combinators_and_messages),
		cmocka_unit_test(ref_loops_end),
		cmocka_unit_test(alternatives_report_the_closest),
		cmocka_unit_test(nested_conditions),
		cmocka_unit_test(bounds_and_other_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
