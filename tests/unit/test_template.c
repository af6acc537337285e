/* Template tags in batch scripts (lint/template.c): the text the script
 * model and shellcheck read, with each tag a stand-in of the same bytes,
 * and what is left as bash's own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lint_internal.h"
#include "xalloc.h"

/* The text of `in` as the model reads it; NULL when it holds no tag. */
static char *masked(const char *in)
{
	struct source *src = source_new("job.sbatch.j2", xstrdup(in), strlen(in));
	struct lint_template *tp = lint_template_new(src);
	char *out = NULL;
	if (tp) {
		lint_template_swap(tp, src);
		out = xstrdup(src->text);
		assert_int_equal(strlen(out), strlen(in));
		lint_template_swap(tp, src);
		assert_string_equal(src->text, in);
	}
	lint_template_free(tp);
	source_free(src);
	return out;
}

static void expect(const char *in, const char *want)
{
	char *out = masked(in);
	if (!want) {
		assert_null(out);
		return;
	}
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void output_tags_are_unknown_words(void **state)
{
	(void)state;
	expect("#SBATCH --nodes={{ nodes }}\n", "#SBATCH --nodes=${________}\n");
	expect("srun x {{ a | join(\" \") }} y\n", "srun x ${________________} y\n");
	expect("x={{x}}{{{ raw }}}\n", "x=${__}${________}\n");
	expect("echo ${{ env.X }}\n", "echo ${_________}\n");
	expect("a{% if x %}--efa{% endif %}\n", "a${_______}--efa${________}\n");
}

/* Text that renders nothing, alone on its line, is a comment: a tag
 * line between #SBATCH lines must not end the directives. */
static void lone_statements_are_comments(void **state)
{
	(void)state;
	expect("  {% if efa %}\r\n", "  #           \r\n");
	expect("{# note #}\n{{/section}}\n", "#         \n#           \n");
	expect("{{ x }}\n", "${____}\n");
}

/* A tag that holds other than ASCII keeps its code points, so that
 * columns after it on the line stay right. */
static void other_text_keeps_its_columns(void **state)
{
	(void)state;
	expect("echo {{ \"\xc3\xa9\" }} $x\n", "echo '___\xc3\xa9___' $x\n");
}

static void bash_is_left_alone(void **state)
{
	(void)state;
	expect("n=${#a[@]} b=${x%.*} c={a,b} { :; }\n", NULL);
	expect("echo {{ not closed\n}}\n", NULL);
	expect("awk '{print $1}'\n", NULL);
}

static void covers_the_tags_only(void **state)
{
	(void)state;
	const char *in = "a={{ x }} b\n";
	struct source *src = source_new("t.sbatch", xstrdup(in), strlen(in));
	struct lint_template *tp = lint_template_new(src);
	assert_non_null(tp);
	assert_false(lint_template_covers(tp, 1));
	assert_true(lint_template_covers(tp, 2));
	assert_true(lint_template_covers(tp, 8));
	assert_false(lint_template_covers(tp, 9));
	assert_false(lint_template_covers(NULL, 2));
	lint_template_free(tp);
	source_free(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(output_tags_are_unknown_words),
		cmocka_unit_test(lone_statements_are_comments),
		cmocka_unit_test(other_text_keeps_its_columns),
		cmocka_unit_test(bash_is_left_alone),
		cmocka_unit_test(covers_the_tags_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
