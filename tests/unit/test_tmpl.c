/* Templates: placeholders found, values given, positions kept, {% if %}
 * arms, definitions, and hostile text in linear time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "buf.h"
#include "tmpl.h"
#include "yamldoc.h"

static void prepare(struct tmpl *t, const char *text, const struct tmpl_defs *defs)
{
	tmpl_prepare(text, strlen(text), defs, 0, t);
}

static const char *name_of(const struct tmpl *t, const char *text, size_t i, size_t *len)
{
	*len = t->ph[i].name_len;
	return text + t->ph[i].name;
}

static void every_style_is_found(void **state)
{
	(void)state;
	const char *text =
		"a: ${SUBNET}\n"
		"b: $NODES\n"
		"c: {{ instance }}\n"
		"d: <YOUR REGION>\n"
		"e: subnet-<ID>\n"
		"f: arn:aws:iam::${AWS_ACCOUNT}:role/x\n"
		"g: ${TYPE:-c5.xlarge}\n"
		"h: x # ${NOT_ME} in a comment\n"
		"i: a<b\n";
	struct tmpl t;
	prepare(&t, text, NULL);
	static const struct {
		const char *name;
		enum tmpl_style style;
		uint32_t line, col;
		bool valued;
	} want[] = {
		{ "SUBNET", TMPL_BRACED, 1, 4, false }, { "NODES", TMPL_BARE, 2, 4, false },
		{ "instance", TMPL_JINJA, 3, 4, false }, { "YOUR REGION", TMPL_ANGLE, 4, 4, false },
		{ "ID", TMPL_ANGLE, 5, 11, false }, { "AWS_ACCOUNT", TMPL_BRACED, 6, 17, false },
		{ "TYPE", TMPL_BRACED, 7, 4, true },
	};
	assert_int_equal(t.n_ph, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < t.n_ph; i++) {
		size_t len;
		const char *n = name_of(&t, text, i, &len);
		assert_int_equal(len, strlen(want[i].name));
		assert_memory_equal(n, want[i].name, len);
		assert_int_equal(t.ph[i].style, want[i].style);
		assert_int_equal(t.ph[i].line, want[i].line);
		assert_int_equal(t.ph[i].col, want[i].col);
		assert_int_equal(t.ph[i].valued, want[i].valued);
	}
	assert_int_equal(t.n_unvalued, 6);
	/* {{ }} is masked so that YAML reads one scalar; the default is used */
	assert_non_null(strstr(tmpl_text(&t), "c: (( instance ))\n"));
	assert_non_null(strstr(tmpl_text(&t), "g: c5.xlarge\n"));
	tmpl_free(&t);
}

static void placeholders_are_unknown_values(void **state)
{
	(void)state;
	const char *text = "a: ${SUBNET}\nb: {{ n }}\nc: subnet-<ID>\nd: \"${Q}\"\ne: plain\n";
	struct tmpl t;
	prepare(&t, text, NULL);
	yamldoc *d = yamldoc_parse_tmpl(&t, NULL);
	assert_int_equal(yamldoc_issue_count(d), 0);
	yd_node r = yd_root(d);
	const char *keys[] = { "a", "b", "c", "d" };
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(yd_type(d, yd_get(d, r, keys[i])), YD_T_UNKNOWN);
	assert_int_equal(yd_type(d, yd_get(d, r, "e")), YD_T_STRING);
	yamldoc_free(d);
	tmpl_free(&t);
}

static void values_keep_original_positions(void **state)
{
	(void)state;
	const char *text = "MaxCount: ${NODES}\nName: x-${Q}-y # ${Q}\nRegion: <R>\n";
	struct tmpl_defs defs = { 0 };
	const char *why;
	assert_true(tmpl_defs_parse(&defs, "NODES=4", &why));
	assert_true(tmpl_defs_parse(&defs, "Q=train", &why));
	assert_true(tmpl_defs_parse(&defs, "R=us-east-1", &why));
	struct tmpl t;
	prepare(&t, text, &defs);
	assert_string_equal(tmpl_text(&t), "MaxCount: 4\nName: x-train-y # ${Q}\nRegion: us-east-1\n");
	yamldoc *d = yamldoc_parse_tmpl(&t, NULL);
	yd_node r = yd_root(d);
	yd_node max = yd_get(d, r, "MaxCount");
	long long n = 0;
	assert_true(yd_int(d, max, &n));
	assert_int_equal(n, 4);
	struct yd_span s = yd_span(d, max);
	assert_int_equal(s.col, 11);
	assert_int_equal(s.end_col, 19); /* the end of ${NODES} */
	s = yd_span(d, yd_get(d, r, "Name"));
	assert_int_equal(s.col, 7);
	assert_int_equal(s.end_col, 15);
	s = yd_span(d, yd_get(d, r, "Region"));
	assert_int_equal(s.col, 9);
	assert_int_equal(s.end_col, 12);
	yamldoc_free(d);
	tmpl_free(&t);
	tmpl_defs_free(&defs);
}

static void if_arms_are_not_duplicates(void **state)
{
	(void)state;
	const char *text =
		"HeadNode:\n"
		"{% if gpu %}\n"
		"  InstanceType: p5.48xlarge\n"
		"{% elif trn %}\n"
		"  InstanceType: trn2.48xlarge\n"
		"{%- else -%}\n"
		"  InstanceType: c5.xlarge\n"
		"{% endif %}\n"
		"  Name: a\n"
		"  Name: b\n"
		"{# a comment\n"
		"   over two lines #}\n";
	struct tmpl t;
	prepare(&t, text, NULL);
	assert_int_equal(t.n_tag_lines, 5);
	assert_int_equal(t.first_tag_line, 2);
	assert_true(tmpl_exclusive(&t, 3, 5));
	assert_true(tmpl_exclusive(&t, 5, 7));
	assert_false(tmpl_exclusive(&t, 3, 9));
	assert_false(tmpl_exclusive(&t, 9, 10));
	yamldoc *d = yamldoc_parse_tmpl(&t, NULL);
	assert_false(yamldoc_broken(d));
	assert_int_equal(yamldoc_issue_count(d), 1); /* Name, not InstanceType */
	assert_int_equal(yamldoc_issue(d, 0)->span.line, 10);
	yamldoc_free(d);
	tmpl_free(&t);
}

static void nested_and_sibling_ifs(void **state)
{
	(void)state;
	const char *text =
		"{% if a %}\n"    /* 1 */
		"x: 1\n"          /* 2 */
		"{% if b %}\n"    /* 3 */
		"y: 1\n"          /* 4 */
		"{% else %}\n"    /* 5 */
		"y: 2\n"          /* 6 */
		"{% endif %}\n"   /* 7 */
		"{% else %}\n"    /* 8 */
		"x: 2\n"          /* 9 */
		"{% endif %}\n"   /* 10 */
		"{% if c %}\n"    /* 11 */
		"z: 1\n"          /* 12 */
		"{% endif %}\n"   /* 13 */
		"{% if d %}\n"    /* 14 */
		"z: 2\n"          /* 15 */
		"{% endif %}\n";  /* 16 */
	struct tmpl t;
	prepare(&t, text, NULL);
	assert_true(tmpl_exclusive(&t, 4, 6));
	assert_true(tmpl_exclusive(&t, 4, 9));
	assert_true(tmpl_exclusive(&t, 2, 9));
	assert_false(tmpl_exclusive(&t, 2, 4));
	assert_false(tmpl_exclusive(&t, 12, 15)); /* two ifs: both may hold */
	tmpl_free(&t);
}

static void definitions(void **state)
{
	(void)state;
	struct tmpl_defs d = { 0 };
	const char *why = NULL;
	assert_false(tmpl_defs_parse(&d, "NOEQUALS", &why));
	assert_non_null(why);
	assert_false(tmpl_defs_parse(&d, "=x", &why));
	assert_false(tmpl_defs_parse(&d, "A=two\nlines", &why));
	assert_true(tmpl_defs_parse(&d, "A=1", &why));
	assert_true(tmpl_defs_parse(&d, "A=2", &why));
	assert_true(tmpl_defs_parse(&d, "EMPTY=", &why));
	const char *env = "# comment\n\nexport B=\"two words\"\nC='x=y'\r\nD=plain\n";
	uint32_t bad = 0;
	assert_true(tmpl_defs_read_env(&d, env, strlen(env), &bad));
	assert_string_equal(tmpl_defs_get(&d, "A", 1), "2");
	assert_string_equal(tmpl_defs_get(&d, "B", 1), "two words");
	assert_string_equal(tmpl_defs_get(&d, "C", 1), "x=y");
	assert_string_equal(tmpl_defs_get(&d, "D", 1), "plain");
	assert_string_equal(tmpl_defs_get(&d, "EMPTY", 5), "");
	assert_null(tmpl_defs_get(&d, "AB", 2));
	assert_null(tmpl_defs_get(&d, "", 0));
	const char *broken = "A=1\nnot a definition\n";
	assert_false(tmpl_defs_read_env(&d, broken, strlen(broken), &bad));
	assert_int_equal(bad, 2);
	tmpl_defs_free(&d);
}

static void lookalikes_fold_outside_comments(void **state)
{
	(void)state;
	const char *text = "Region: us\xe2\x80\x91" "east-1 # caf\xe2\x80\x93\nName: a\xc2\xad" "b\n";
	struct tmpl t;
	tmpl_prepare(text, strlen(text), NULL, TMPL_FOLD, &t);
	assert_int_equal(t.n_folds, 2);
	assert_int_equal(t.folds[0].line, 1);
	assert_int_equal(t.folds[0].col, 11);
	assert_int_equal(t.folds[0].cp, 0x2011);
	assert_int_equal(t.folds[1].line, 2);
	assert_int_equal(t.folds[1].col, 8);
	assert_string_equal(tmpl_text(&t), "Region: us-east-1 # caf\xe2\x80\x93\nName: ab\n");
	yamldoc *d = yamldoc_parse_tmpl(&t, NULL);
	yd_node name = yd_get(d, yd_root(d), "Name");
	assert_int_equal(yd_span(d, name).end_col, 10); /* the soft hyphen still counts */
	yamldoc_free(d);
	tmpl_free(&t);
}

static void no_copy_without_a_template(void **state)
{
	(void)state;
	const char *text = "a: 1\nb: [x, y]\n";
	struct tmpl t;
	prepare(&t, text, NULL);
	assert_false(t.changed);
	assert_null(t.text);
	assert_ptr_equal(tmpl_text(&t), text);
	tmpl_free(&t);
}

/* Hang guards, not measurements: the budget is generous. */
static void hostile_text_is_linear(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 200000; i++)
		buf_puts(&b, "{{${<");
	buf_putc(&b, '\n');
	for (int i = 0; i < 50000; i++)
		buf_puts(&b, "{% x\n");
	for (int i = 0; i < 1000; i++)
		buf_puts(&b, "{% if a %}\n");
	for (int i = 0; i < 1000; i++)
		buf_puts(&b, "k: v\n{% endif %}\n");
	clock_t t0 = clock();
	struct tmpl t;
	tmpl_prepare(b.p, b.len, NULL, TMPL_FOLD, &t);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_true(secs < 2.0);
	assert_true(t.too_deep);
	tmpl_free(&t);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_style_is_found),
		cmocka_unit_test(placeholders_are_unknown_values),
		cmocka_unit_test(values_keep_original_positions),
		cmocka_unit_test(if_arms_are_not_duplicates),
		cmocka_unit_test(nested_and_sibling_ifs),
		cmocka_unit_test(definitions),
		cmocka_unit_test(lookalikes_fold_outside_comments),
		cmocka_unit_test(no_copy_without_a_template),
		cmocka_unit_test(hostile_text_is_linear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
