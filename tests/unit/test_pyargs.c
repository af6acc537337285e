/* Unit tests for the reader of Python command-line definitions
 * (lint/program/pyargs.c): what it reads, what stops it, and the flag
 * matching argparse does. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyargs.h"

static void read_text(const char *text, struct py_args *a)
{
	py_args_read(text, strlen(text), a);
}

static const struct py_arg *match(const struct py_args *a, const char *flag)
{
	bool amb;
	return py_args_match(a, flag, strlen(flag), &amb);
}

static void flags_and_keywords(void **state)
{
	(void)state;
	struct py_args a;
	read_text("import argparse\n"
		  "p = argparse.ArgumentParser(description='x, (y)')\n"
		  "# p.add_argument('--commented')\n"
		  "p.add_argument('--lr', \"--learning-rate\", dest='lr', type=float)\n"
		  "p.add_argument(r'--raw\\d', required=True)\n"
		  "p.add_argument('''--triple''', action='store_true', help=\"\"\"a\n(multi-line) help\"\"\")\n"
		  "g = p.add_argument_group('g')\n"
		  "g.add_argument('--in-group', nargs='?')\n"
		  "p.add_argument('--bool', action=argparse.BooleanOptionalAction)\n"
		  "p.add_argument('files', nargs='*')\n"
		  "args = p.parse_args()\n", &a);
	assert_true(a.parser && a.complete && !a.known_args && a.abbrev);
	assert_int_equal(a.n, 6);
	assert_int_equal(a.positionals, 1);
	assert_null(match(&a, "--commented"));
	assert_string_equal(match(&a, "--learning-rate")->dest, "lr");
	assert_true(match(&a, "--raw\\d")->required);
	assert_int_equal(match(&a, "--triple")->action, PY_SWITCH);
	assert_int_equal(match(&a, "--triple")->line, 6);
	assert_true(match(&a, "--in-group")->nargs_zero);
	assert_int_equal(match(&a, "--no-bool")->action, PY_SWITCH);
	py_args_free(&a);
}

/* argparse takes a unique prefix of a long flag, unless allow_abbrev=False */
static void prefixes(void **state)
{
	(void)state;
	struct py_args a;
	read_text("p = ArgumentParser()\np.add_argument('--save-dir')\np.add_argument('--save-every')\n"
		  "p.add_argument('--seed')\n", &a);
	bool amb;
	assert_non_null(match(&a, "--se"));   /* --seed only */
	assert_null(py_args_match(&a, "--save", 6, &amb));
	assert_true(amb);
	assert_non_null(match(&a, "--save-d"));
	py_args_free(&a);
	read_text("p = ArgumentParser(allow_abbrev=False)\np.add_argument('--seed')\n", &a);
	assert_null(match(&a, "--se"));
	py_args_free(&a);
}

static void what_stops_it(void **state)
{
	(void)state;
	struct py_args a;
	read_text("p = ArgumentParser()\nfor f in FLAGS:\n    p.add_argument(f)\n", &a);
	assert_false(a.complete);
	assert_int_equal(a.why_line, 3);
	py_args_free(&a);
	read_text("p = ArgumentParser()\np.add_argument(f'--{name}')\n", &a);
	assert_false(a.complete);
	py_args_free(&a);
	read_text("p = ArgumentParser()\np.add_argument('--x', **opts)\n", &a);
	assert_false(a.complete);
	py_args_free(&a);
	read_text("p = HfArgumentParser((Args,))\n", &a);
	assert_true(a.parser && !a.complete);
	py_args_free(&a);
	read_text("p = ArgumentParser()\np.add_argument('--x)\n", &a);
	assert_false(a.complete); /* a string that does not close */
	py_args_free(&a);
	read_text("p = ArgumentParser()\nargs, rest = p.parse_known_args()\n", &a);
	assert_true(a.complete && a.known_args);
	py_args_free(&a);
}

/* Deep nesting stops the reader with a reason; a large file is read. */
static void bounds(void **state)
{
	(void)state;
	size_t n = 100000;
	char *deep = malloc(2 * n + 1);
	memset(deep, '(', n);
	memset(deep + n, ')', n);
	deep[2 * n] = '\0';
	struct py_args a;
	read_text(deep, &a);
	assert_false(a.complete);
	assert_non_null(a.why);
	py_args_free(&a);
	free(deep);
	/* a 1 MiB file of add_argument calls, 42 bytes each */
	size_t each = strlen("p.add_argument('--flag-000000', type=int)\n"), count = (1u << 20) / each;
	char *big = malloc(count * each + 32);
	size_t len = (size_t)snprintf(big, 32, "p = ArgumentParser()\n");
	for (size_t i = 0; i < count; i++)
		len += (size_t)snprintf(big + len, each + 1, "p.add_argument('--flag-%06zu', type=int)\n", i);
	py_args_read(big, len, &a);
	assert_true(a.complete);
	assert_int_equal(a.n, count);
	py_args_free(&a);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags_and_keywords),
		cmocka_unit_test(prefixes),
		cmocka_unit_test(what_stops_it),
		cmocka_unit_test(bounds),
	};
	return cmocka_run_group_tests_name("pyargs", tests, NULL, NULL);
}
