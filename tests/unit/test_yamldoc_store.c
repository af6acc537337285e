/* How a yamldoc stores what it read, and what that must not change: ends
 * derived or kept, interned keys, columns too wide for a cell, paths from
 * the index, positions in long lists with aliases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "buf.h"
#include "yamldoc.h"

static yamldoc *parse(const char *s)
{
	return yamldoc_parse(s, strlen(s), NULL);
}

static void assert_span(const yamldoc *d, yd_node n, uint32_t line, uint32_t col,
			uint32_t end_line, uint32_t end_col)
{
	struct yd_span s = yd_span(d, n);
	assert_int_equal(s.line, line);
	assert_int_equal(s.col, col);
	assert_int_equal(s.end_line, end_line);
	assert_int_equal(s.end_col, end_col);
}

/* Each kind of scalar end: derived from the text (plain, quoted) or kept
 * (escapes, non-ASCII, several lines); containers end where libyaml says. */
static void ends_of_every_kind(void **state)
{
	(void)state;
	yamldoc *d = parse("plain: word\n"
			   "quoted: \"two words\"\n"
			   "single: 'it''s'\n"
			   "escaped: \"a\\tb\"\n"
			   "accent: caf\xc3\xa9\n"
			   "folded: one\n  two\n"
			   "block: |\n  text\n"
			   "flow: {a: [1, 2]}\n"
			   "empty: {}\n"
			   "last:\n  - x\n");
	yd_node r = yd_root(d);
	assert_int_equal(yamldoc_issue_count(d), 0);
	assert_span(d, yd_get(d, r, "plain"), 1, 8, 1, 12);
	assert_span(d, yd_get_key(d, r, "plain"), 1, 1, 1, 6);
	assert_span(d, yd_get(d, r, "quoted"), 2, 9, 2, 20);
	assert_span(d, yd_get(d, r, "single"), 3, 9, 3, 16);
	assert_span(d, yd_get(d, r, "escaped"), 4, 10, 4, 16);
	assert_span(d, yd_get(d, r, "accent"), 5, 9, 5, 13);
	assert_span(d, yd_get(d, r, "folded"), 6, 9, 7, 6);
	assert_span(d, yd_get(d, r, "block"), 8, 8, 10, 1);
	yd_node flow = yd_get(d, r, "flow");
	assert_span(d, flow, 10, 7, 10, 18);
	assert_span(d, yd_get(d, flow, "a"), 10, 11, 10, 17);
	assert_span(d, yd_get(d, r, "empty"), 11, 8, 11, 10);
	assert_span(d, yd_get(d, r, "last"), 13, 3, 14, 1);
	assert_span(d, r, 1, 1, 14, 1);
	yamldoc_free(d);
}

/* Keys are stored once, but each key node keeps its own position, style
 * and type. */
static void interned_keys_keep_their_own_nodes(void **state)
{
	(void)state;
	yamldoc *d = parse("- {Name: a, true: 1}\n- {Name: b, 'true': 2}\n");
	yd_node a = yd_item(d, yd_root(d), 0), b = yd_item(d, yd_root(d), 1);
	yd_node ka = yd_key(d, a, 1), kb = yd_key(d, b, 1);
	assert_int_equal(yd_type(d, ka), YD_T_BOOL);
	assert_int_equal(yd_type(d, kb), YD_T_STRING);
	assert_true(yd_quoted(d, kb));
	assert_span(d, yd_get_key(d, b, "Name"), 2, 4, 2, 8);
	assert_string_equal(yd_str(d, ka, NULL), "true");
	assert_ptr_equal(yd_str(d, ka, NULL), yd_str(d, kb, NULL));
	assert_ptr_equal(yd_str(d, yd_key(d, a, 0), NULL), yd_str(d, yd_key(d, b, 0), NULL));
	yamldoc_free(d);
}

static size_t count_duplicates(const char *yaml)
{
	yamldoc *d = parse(yaml);
	size_t n = 0;
	for (size_t i = 0; i < yamldoc_issue_count(d); i++)
		n += yamldoc_issue(d, i)->code == YD_ISSUE_DUPLICATE_KEY;
	yamldoc_free(d);
	return n;
}

/* Duplicates are found whether keys are interned or copied (long ones),
 * in small mappings and in large ones. */
static void duplicates_in_every_storage(void **state)
{
	(void)state;
	assert_int_equal(count_duplicates("a: 1\nb: 2\nc: 3\n"), 0);
	assert_int_equal(count_duplicates("a: 1\nb: 2\n'a': 3\n"), 1);
	struct buf b = BUF_INIT;
	char long_key[100];
	memset(long_key, 'k', sizeof long_key - 1);
	long_key[sizeof long_key - 1] = '\0';
	buf_printf(&b, "%s: 1\nx: 2\n%s: 3\n", long_key, long_key);
	assert_int_equal(count_duplicates(b.p), 1);
	buf_reset(&b);
	for (int i = 0; i < 40; i++)
		buf_printf(&b, "key%d: %d\n", i, i);
	assert_int_equal(count_duplicates(b.p), 0);
	buf_puts(&b, "key7: again\nkey30: again\n");
	assert_int_equal(count_duplicates(b.p), 2);
	buf_free(&b);
	/* a key that is a mapping is not text: it repeats nothing */
	assert_int_equal(count_duplicates("? {a: 1}\n: x\n? {a: 1}\n: y\n"), 0);
}

/* The weight of an anchored container is known once it closes: aliases
 * to it count all its nodes against the budget. */
static void aliases_to_containers_weigh_their_nodes(void **state)
{
	(void)state;
	struct yd_limits lim = yd_default_limits;
	lim.max_alias_nodes = 10;
	const char *yaml = "a: &a [1, 2, 3, 4]\nb: [*a, *a]\n";
	yamldoc *d = yamldoc_parse(yaml, strlen(yaml), &lim);
	assert_false(yamldoc_broken(d)); /* 2 x 5 nodes */
	yamldoc_free(d);
	yaml = "a: &a [1, 2, 3, 4]\nb: [*a, *a, *a]\n";
	d = yamldoc_parse(yaml, strlen(yaml), &lim);
	assert_true(yamldoc_broken(d));
	assert_int_equal(yamldoc_issue(d, 0)->code, YD_ISSUE_ALIAS_BUDGET);
	yamldoc_free(d);
	yaml = "a: &a [1, &a 2]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n";
	d = yamldoc_parse(yaml, strlen(yaml), &lim);
	assert_false(yamldoc_broken(d)); /* the later anchor, a scalar, wins */
	yamldoc_free(d);
}

/* A node that starts past column 16,777,215 keeps its exact column. */
static void columns_wider_than_a_cell(void **state)
{
	(void)state;
	size_t pad = ((size_t)1 << 24) + 5;
	char *s = malloc(pad + 16);
	s[0] = '[';
	memset(s + 1, ' ', pad);
	strcpy(s + 1 + pad, "b, \"c\"]");
	yamldoc *d = yamldoc_parse(s, strlen(s), NULL);
	assert_int_equal(yamldoc_issue_count(d), 0);
	uint32_t col = (uint32_t)pad + 2;
	assert_span(d, yd_item(d, yd_root(d), 0), 1, col, 1, col + 1);
	assert_span(d, yd_item(d, yd_root(d), 1), 1, col + 3, 1, col + 6);
	assert_span(d, yd_root(d), 1, 1, 1, col + 7);
	assert_int_equal(yd_at(d, 1, col + 4), yd_item(d, yd_root(d), 1));
	yamldoc_free(d);
	free(s);
}

static char *path_of(const yamldoc *d, yd_node n)
{
	struct buf b = BUF_INIT;
	yd_path_json(d, n, &b);
	return buf_detach(&b);
}

/* After a few searches, paths come from an index; they must be the same
 * paths, including where aliases and keys that are mappings meet a node
 * first. */
static void paths_from_the_index_match_the_search(void **state)
{
	(void)state;
	const char *yaml = "? &k [a, {b: c}]\n: 1\nx: *k\n"
			   "y: [*k, &m {p: q}]\nz: *m\nlist: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
	yamldoc *d = parse(yaml);
	size_t n = yamldoc_node_count(d);
	char **first = calloc(n + 2, sizeof *first);
	for (yd_node i = 0; i <= n + 1; i++)
		first[i] = path_of(d, i); /* the first ones search, the rest use the index */
	for (yd_node i = 0; i <= n + 1; i++) {
		char *again = path_of(d, i);
		assert_string_equal(again, first[i]);
		free(again);
	}
	yd_node x = yd_get(d, yd_root(d), "x");
	yd_node inner = yd_item(d, x, 1);
	char *p = path_of(d, inner);
	assert_string_equal(p, "[\"x\",1]"); /* not inside the key, which is not walked */
	free(p);
	p = path_of(d, yd_key(d, yd_root(d), 0));
	assert_string_equal(p, "[\"?\"]");
	free(p);
	p = path_of(d, yd_get(d, yd_item(d, yd_get(d, yd_root(d), "y"), 1), "p"));
	assert_string_equal(p, "[\"y\",1,\"p\"]");
	free(p);
	p = path_of(d, 0);
	assert_string_equal(p, "null");
	free(p);
	for (yd_node i = 0; i <= n + 1; i++)
		free(first[i]);
	free(first);
	yamldoc_free(d);
}

/* yd_at halves long lists; aliases among the items (which have their
 * anchors' spans) must not lead it astray. */
static void positions_in_long_lists_with_aliases(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	buf_puts(&b, "a: &x {k: v}\nlist:\n");
	for (int i = 0; i < 100; i++) {
		if (i % 3)
			buf_printf(&b, "  - item%d\n", i);
		else
			buf_puts(&b, "  - *x\n");
	}
	yamldoc *d = yamldoc_parse(b.p, b.len, NULL);
	yd_node list = yd_get(d, yd_root(d), "list");
	assert_int_equal(yd_at(d, 1, 8), yd_get_key(d, yd_get(d, yd_root(d), "a"), "k"));
	for (int i = 0; i < 100; i++) {
		yd_node want = i % 3 ? yd_item(d, list, (size_t)i) : 0;
		assert_int_equal(yd_at(d, (uint32_t)i + 3, 6), want);
	}
	assert_int_equal(yd_at(d, 2, 1), yd_key(d, yd_root(d), 1));
	assert_int_equal(yd_at(d, 200, 1), 0);
	yamldoc_free(d);
	buf_free(&b);
}

static void children_as_an_array(void **state)
{
	(void)state;
	yamldoc *d = parse("m: {a: 1, b: 2}\ns: [x, y, z]\nv: 1\ne: []\n");
	size_t n;
	const yd_node *kids = yd_children(d, yd_get(d, yd_root(d), "m"), &n);
	assert_int_equal(n, 4);
	assert_string_equal(yd_str(d, kids[2], NULL), "b");
	assert_string_equal(yd_str(d, kids[3], NULL), "2");
	kids = yd_children(d, yd_get(d, yd_root(d), "s"), &n);
	assert_int_equal(n, 3);
	assert_string_equal(yd_str(d, kids[2], NULL), "z");
	assert_null(yd_children(d, yd_get(d, yd_root(d), "v"), &n));
	assert_int_equal(n, 0);
	assert_null(yd_children(d, yd_get(d, yd_root(d), "e"), &n));
	assert_int_equal(n, 0);
	yamldoc_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ends_of_every_kind),
		cmocka_unit_test(interned_keys_keep_their_own_nodes),
		cmocka_unit_test(duplicates_in_every_storage),
		cmocka_unit_test(aliases_to_containers_weigh_their_nodes),
		cmocka_unit_test(columns_wider_than_a_cell),
		cmocka_unit_test(paths_from_the_index_match_the_search),
		cmocka_unit_test(positions_in_long_lists_with_aliases),
		cmocka_unit_test(children_as_an_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
