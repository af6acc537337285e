/* UTF-8, edit distance and look-alikes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "text.h"

static void decode(void **state)
{
	(void)state;
	size_t adv;
	assert_int_equal(utf8_decode("\xe2\x80\x91", 3, &adv), 0x2011);
	assert_int_equal(adv, 3);
	assert_int_equal(utf8_decode("\xc0\xaf", 2, &adv), -1);  /* overlong */
	assert_int_equal(utf8_decode("\xed\xa0\x80", 3, &adv), -1); /* surrogate */
	assert_int_equal(utf8_decode("\xe2\x80", 2, &adv), -1);  /* truncated */
	assert_int_equal(utf8_count("caf\xc3\xa9", 5), 4);
	assert_int_equal(utf8_offset_of_col("caf\xc3\xa9x", 6, 5), 5);
}

static void input_problems(void **state)
{
	(void)state;
	size_t where = 99;
	assert_int_equal(text_check_input("ok\n", 3, &where), INPUT_OK);
	assert_int_equal(text_check_input("a\0b", 3, &where), INPUT_BINARY);
	assert_int_equal(where, 1);
	assert_int_equal(text_check_input("ab\xff", 3, &where), INPUT_BAD_UTF8);
	assert_int_equal(where, 2);
	/* ASCII is read eight bytes at a time: a NUL, a bad byte or a valid
	 * sequence at every offset of a longer text is still found there */
	for (size_t at = 0; at < 24; at++) {
		char text[32];
		memset(text, 'x', sizeof text);
		text[at] = '\0';
		assert_int_equal(text_check_input(text, sizeof text, &where), INPUT_BINARY);
		assert_int_equal(where, at);
		text[at] = (char)0xff;
		assert_int_equal(text_check_input(text, sizeof text, &where), INPUT_BAD_UTF8);
		assert_int_equal(where, at);
		memcpy(text + at, "\xc3\xa9", 2); /* é */
		assert_int_equal(text_check_input(text, sizeof text, &where), INPUT_OK);
		text[at + 1] = 'x'; /* a lead byte without its continuation */
		assert_int_equal(text_check_input(text, sizeof text, &where), INPUT_BAD_UTF8);
		assert_int_equal(where, at);
	}
}

static void edit_distance(void **state)
{
	(void)state;
	assert_int_equal(text_edit_distance("Scheduler", 9, "scheduler", 9, 3), 0);
	assert_int_equal(text_edit_distance("Schedular", 9, "Scheduler", 9, 3), 1);
	assert_int_equal(text_edit_distance("abc", 3, "abcdefgh", 8, 2), 3); /* over limit */
}

static void lookalikes(void **state)
{
	(void)state;
	assert_string_equal(text_lookalike(0x2011)->ascii, "-");
	assert_string_equal(text_lookalike(0x201c)->ascii, "\"");
	assert_string_equal(text_lookalike(0x00a0)->ascii, " ");
	assert_null(text_lookalike('-'));
	assert_null(text_lookalike(0x00e9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode),
		cmocka_unit_test(input_problems),
		cmocka_unit_test(edit_distance),
		cmocka_unit_test(lookalikes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
