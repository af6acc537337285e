/* The YAML document: positions, types, duplicate keys, limits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "buf.h"
#include "yamldoc.h"

static yamldoc *parse(const char *s)
{
	return yamldoc_parse(s, strlen(s), NULL);
}

static void positions_of_keys_and_values(void **state)
{
	(void)state;
	yamldoc *d = parse("a: 1\nbb:\n  c: [x, \"y\"]\n");
	assert_int_equal(yamldoc_issue_count(d), 0);
	yd_node root = yd_root(d);
	assert_int_equal(yd_kind(d, root), YD_MAPPING);
	yd_node bb = yd_get_key(d, root, "bb");
	struct yd_span s = yd_span(d, bb);
	assert_int_equal(s.line, 2);
	assert_int_equal(s.col, 1);
	yd_node c = yd_get(d, yd_get(d, root, "bb"), "c");
	assert_int_equal(yd_kind(d, c), YD_SEQUENCE);
	yd_node y = yd_item(d, c, 1);
	s = yd_span(d, y);
	assert_int_equal(s.line, 3);
	assert_int_equal(s.col, 10);
	assert_int_equal(s.end_col, 13);
	assert_true(yd_quoted(d, y));
	yamldoc_free(d);
}

static void columns_count_code_points(void **state)
{
	(void)state;
	yamldoc *d = parse("k: \"caf\xc3\xa9\"\nx: \xe2\x80\x91y\n");
	yd_node x = yd_get(d, yd_root(d), "x");
	assert_int_equal(yd_span(d, x).col, 4);
	assert_int_equal(yd_span(d, x).end_col, 6);
	yamldoc_free(d);
}

static void yaml11_types(void **state)
{
	(void)state;
	yamldoc *d = parse("a: yes\nb: 12\nc: 1.5\nd: ~\ne: '12'\nf: hello\ng: 0x1f\nh:\ni: 1:30\nj: Off\n"
			   "k: 7.5e9\nl: 176e9\nm: 1e5x\n");
	yd_node r = yd_root(d);
	assert_int_equal(yd_type(d, yd_get(d, r, "a")), YD_T_BOOL);
	assert_int_equal(yd_type(d, yd_get(d, r, "b")), YD_T_INT);
	assert_int_equal(yd_type(d, yd_get(d, r, "c")), YD_T_FLOAT);
	assert_int_equal(yd_type(d, yd_get(d, r, "d")), YD_T_NULL);
	assert_int_equal(yd_type(d, yd_get(d, r, "e")), YD_T_STRING);
	assert_int_equal(yd_type(d, yd_get(d, r, "f")), YD_T_STRING);
	assert_int_equal(yd_type(d, yd_get(d, r, "g")), YD_T_INT);
	assert_int_equal(yd_type(d, yd_get(d, r, "h")), YD_T_NULL);
	assert_int_equal(yd_type(d, yd_get(d, r, "i")), YD_T_INT);
	assert_int_equal(yd_type(d, yd_get(d, r, "k")), YD_T_FLOAT);
	assert_int_equal(yd_type(d, yd_get(d, r, "l")), YD_T_FLOAT);
	assert_int_equal(yd_type(d, yd_get(d, r, "m")), YD_T_STRING);
	bool v = true;
	assert_true(yd_bool(d, yd_get(d, r, "j"), &v));
	assert_false(v);
	long long n = 0;
	assert_true(yd_int(d, yd_get(d, r, "g"), &n));
	assert_int_equal(n, 31);
	yamldoc_free(d);
}

/* Each plain scalar form as PyYAML 6's safe_load types it (the table of
 * docs/versions.md, "pc-yaml-coercion", and the resolver's regexes), and
 * as a document in the default mode reads it. */
static void scalar_forms_as_pyyaml_reads_them(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		enum yd_type pyyaml, plain;
		double value; /* for numbers */
	} forms[] = {
		{ "10", YD_T_INT, YD_T_INT, 10 },
		{ "010", YD_T_INT, YD_T_INT, 8 },
		{ "0x10", YD_T_INT, YD_T_INT, 16 },
		{ "0b101", YD_T_INT, YD_T_INT, 5 },
		{ "1_0", YD_T_INT, YD_T_INT, 10 },
		{ "-7", YD_T_INT, YD_T_INT, -7 },
		{ "1:30", YD_T_INT, YD_T_INT, 90 },
		{ "1:30:05", YD_T_INT, YD_T_INT, 5405 },
		{ "01:30", YD_T_STRING, YD_T_STRING, 0 },
		{ "09", YD_T_STRING, YD_T_STRING, 0 },
		{ "10.0", YD_T_FLOAT, YD_T_FLOAT, 10 },
		{ "5.5", YD_T_FLOAT, YD_T_FLOAT, 5.5 },
		{ "3.10", YD_T_FLOAT, YD_T_FLOAT, 3.1 },
		{ "1.", YD_T_FLOAT, YD_T_FLOAT, 1 },
		{ ".5", YD_T_FLOAT, YD_T_FLOAT, 0.5 },
		{ "1.0e+1", YD_T_FLOAT, YD_T_FLOAT, 10 },
		{ "1:30.5", YD_T_FLOAT, YD_T_FLOAT, 90.5 },
		{ "-.inf", YD_T_FLOAT, YD_T_FLOAT, -HUGE_VAL },
		{ "7.5e9", YD_T_STRING, YD_T_FLOAT, 7.5e9 },
		{ "176e9", YD_T_STRING, YD_T_FLOAT, 176e9 },
		{ "1e1", YD_T_STRING, YD_T_FLOAT, 10 },
		{ "1.2.3", YD_T_STRING, YD_T_STRING, 0 },
		{ "10.0.0.10", YD_T_STRING, YD_T_STRING, 0 },
		{ "-.5", YD_T_STRING, YD_T_STRING, 0 },
		{ "2024-01-01", YD_T_TIMESTAMP, YD_T_STRING, 0 },
		{ "2024-1-1 10:00:00", YD_T_TIMESTAMP, YD_T_STRING, 0 },
		{ "2024-01-01T10:00:00.5Z", YD_T_TIMESTAMP, YD_T_STRING, 0 },
		{ "2024-01-01x", YD_T_STRING, YD_T_STRING, 0 },
		{ "yes", YD_T_BOOL, YD_T_BOOL, 0 },
		{ "On", YD_T_BOOL, YD_T_BOOL, 0 },
		{ "y", YD_T_STRING, YD_T_STRING, 0 },
		{ "~", YD_T_NULL, YD_T_NULL, 0 },
		{ "subnet-12345678", YD_T_STRING, YD_T_STRING, 0 },
	};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char text[96];
		snprintf(text, sizeof text, "k: %s\n", forms[i].text);
		yamldoc *d = parse(text);
		yd_node k = yd_get(d, yd_root(d), "k");
		if (yd_type(d, k) != forms[i].plain)
			fail_msg("'%s' reads as type %d by default, not %d", forms[i].text,
				 yd_type(d, k), forms[i].plain);
		yamldoc_set_pyyaml(d, true);
		if (yd_type(d, k) != forms[i].pyyaml)
			fail_msg("'%s' reads as type %d as PyYAML, not %d", forms[i].text,
				 yd_type(d, k), forms[i].pyyaml);
		double v;
		if (forms[i].pyyaml == YD_T_INT || forms[i].pyyaml == YD_T_FLOAT) {
			assert_true(yd_number(d, k, &v));
			if (v != forms[i].value)
				fail_msg("'%s' is %g, not %g", forms[i].text, v, forms[i].value);
		}
		yamldoc_free(d);
	}
}

static void byte_order_mark_is_no_content(void **state)
{
	(void)state;
	yamldoc *d = parse("\xef\xbb\xbf" "a: 1\nb: 2\n");
	assert_int_equal(yamldoc_issue_count(d), 0);
	yd_node a = yd_get_key(d, yd_root(d), "a");
	assert_int_equal(yd_span(d, a).line, 1);
	assert_int_equal(yd_span(d, a).col, 1);
	yamldoc_free(d);
}

static void duplicate_keys_are_issues_at_the_second(void **state)
{
	(void)state;
	yamldoc *d = parse("a: 1\nb: 2\na: 3\n");
	assert_int_equal(yamldoc_issue_count(d), 1);
	const struct yd_issue *is = yamldoc_issue(d, 0);
	assert_int_equal(is->code, YD_ISSUE_DUPLICATE_KEY);
	assert_int_equal(is->span.line, 3);
	assert_non_null(strstr(is->msg, "first at line 1"));
	assert_false(yamldoc_broken(d));
	yamldoc_free(d);
}

static void syntax_error_has_the_real_position(void **state)
{
	(void)state;
	yamldoc *d = parse("a:\n  b: 1\n c: d: e\n");
	assert_true(yamldoc_broken(d));
	const struct yd_issue *is = yamldoc_issue(d, 0);
	assert_int_equal(is->code, YD_ISSUE_SYNTAX);
	assert_int_equal(is->span.line, 3);
	yamldoc_free(d);
}

static void alias_bomb_stops_fast(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	buf_puts(&b, "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n");
	for (int i = 1; i < 10; i++) {
		buf_printf(&b, "a%d: &a%d [", i, i);
		for (int j = 0; j < 10; j++)
			buf_printf(&b, "%s*a%d", j ? "," : "", i - 1);
		buf_puts(&b, "]\n");
	}
	clock_t t0 = clock();
	yamldoc *d = yamldoc_parse(b.p, b.len, NULL);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_true(yamldoc_broken(d));
	assert_int_equal(yamldoc_issue(d, 0)->code, YD_ISSUE_ALIAS_BUDGET);
	assert_true(secs < 1.0);
	assert_true(yamldoc_node_count(d) < 1000);
	yamldoc_free(d);
	buf_free(&b);
}

static void small_aliases_are_shared(void **state)
{
	(void)state;
	yamldoc *d = parse("base: &b {x: 1}\nuse: *b\n");
	assert_int_equal(yamldoc_issue_count(d), 0);
	yd_node r = yd_root(d);
	assert_int_equal(yd_get(d, r, "base"), yd_get(d, r, "use"));
	yamldoc_free(d);
}

static void depth_limit(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 5000; i++)
		buf_putc(&b, '[');
	for (int i = 0; i < 5000; i++)
		buf_putc(&b, ']');
	yamldoc *d = yamldoc_parse(b.p, b.len, NULL);
	assert_true(yamldoc_broken(d));
	assert_int_equal(yamldoc_issue(d, 0)->code, YD_ISSUE_DEPTH);
	yamldoc_free(d);
	buf_free(&b);
}

static void cycles_and_undefined_aliases(void **state)
{
	(void)state;
	yamldoc *d = parse("a: &x [1, *x]\n");
	assert_true(yamldoc_broken(d));
	yamldoc_free(d);
	d = parse("a: *nope\n");
	assert_true(yamldoc_broken(d));
	yamldoc_free(d);
}

static void second_document_is_an_issue(void **state)
{
	(void)state;
	yamldoc *d = parse("a: 1\n---\nb: 2\n");
	assert_int_equal(yamldoc_issue(d, 0)->code, YD_ISSUE_MULTI_DOC);
	assert_int_equal(yamldoc_issue(d, 0)->span.line, 2);
	yamldoc_free(d);
}

static void paths(void **state)
{
	(void)state;
	yamldoc *d = parse("Scheduling:\n  SlurmQueues:\n    - Name: a\n    - Name: b\n");
	yd_node q = yd_get(d, yd_get(d, yd_root(d), "Scheduling"), "SlurmQueues");
	yd_node name = yd_get(d, yd_item(d, q, 1), "Name");
	struct buf b = BUF_INIT;
	yd_path_json(d, name, &b);
	assert_string_equal(b.p, "[\"Scheduling\",\"SlurmQueues\",1,\"Name\"]");
	buf_reset(&b);
	yd_path_dotted(d, name, &b);
	assert_string_equal(b.p, "Scheduling.SlurmQueues[1].Name");
	buf_free(&b);
	assert_int_equal(yd_at(d, 4, 13), name);
	yamldoc_free(d);
}

static void empty_document(void **state)
{
	(void)state;
	yamldoc *d = parse("");
	assert_int_equal(yd_root(d), 0);
	assert_int_equal(yd_kind(d, yd_root(d)), YD_NONE);
	assert_int_equal(yd_len(d, 0), 0);
	yamldoc_free(d);
}

static void last_line_of_block_collections(void **state)
{
	(void)state;
	yamldoc *d = parse("a:\n  b: 1\n  c:\n    - 2\nd: 3\n");
	assert_int_equal(yd_last_line(d, yd_get(d, yd_root(d), "a")), 4);
	yamldoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(positions_of_keys_and_values),
		cmocka_unit_test(columns_count_code_points),
		cmocka_unit_test(yaml11_types),
		cmocka_unit_test(scalar_forms_as_pyyaml_reads_them),
		cmocka_unit_test(byte_order_mark_is_no_content),
		cmocka_unit_test(duplicate_keys_are_issues_at_the_second),
		cmocka_unit_test(syntax_error_has_the_real_position),
		cmocka_unit_test(alias_bomb_stops_fast),
		cmocka_unit_test(small_aliases_are_shared),
		cmocka_unit_test(depth_limit),
		cmocka_unit_test(cycles_and_undefined_aliases),
		cmocka_unit_test(second_document_is_an_issue),
		cmocka_unit_test(paths),
		cmocka_unit_test(empty_document),
		cmocka_unit_test(last_line_of_block_collections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
