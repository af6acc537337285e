/* yamldoc_parse on arbitrary bytes, then every public reader over the
 * whole tree (with a visit budget: aliases make it a DAG), positions,
 * and the paths of a few nodes. */
#include <stdbool.h>
#include <string.h>

#include "buf.h"
#include "fuzz.h"
#include "yamldoc.h"

enum { VISIT_BUDGET = 4096, STACK_MAX = 4096, PATHS = 4 };

static void read_scalar(const yamldoc *doc, yd_node n)
{
	size_t len = 0;
	const char *s = yd_str(doc, n, &len);
	FUZZ_CHECK(s != NULL);
	FUZZ_CHECK(s[len] == '\0'); /* "NUL-terminated" */
	FUZZ_CHECK(yd_len(doc, n) == len);
	if (strlen(s) == len)
		FUZZ_CHECK(yd_str_eq(doc, n, s));
	FUZZ_CHECK((unsigned)yd_type(doc, n) <= YD_T_UNKNOWN);
	(void)yd_quoted(doc, n);
	bool b;
	long long i;
	double d;
	if (yd_bool(doc, n, &b))
		FUZZ_CHECK(yd_type(doc, n) == YD_T_BOOL);
	if (yd_int(doc, n, &i)) {
		FUZZ_CHECK(yd_type(doc, n) == YD_T_INT);
		FUZZ_CHECK(yd_number(doc, n, &d));
	}
	(void)yd_number(doc, n, &d);
}

static void read_node(const yamldoc *doc, yd_node n)
{
	enum yd_kind k = yd_kind(doc, n);
	FUZZ_CHECK(k == YD_SCALAR || k == YD_MAPPING || k == YD_SEQUENCE);
	if (k == YD_SCALAR) {
		read_scalar(doc, n);
		return;
	}
	FUZZ_CHECK(yd_str(doc, n, NULL) == NULL);
	size_t len = yd_len(doc, n);
	if (k == YD_MAPPING) {
		for (size_t i = 0; i < len; i++) {
			yd_node key = yd_key(doc, n, i);
			FUZZ_CHECK(key != 0 && yd_value(doc, n, i) != 0);
			size_t klen = 0;
			const char *ks = yd_str(doc, key, &klen);
			if (ks && i < 2 && strlen(ks) == klen) { /* yd_get finds the first pair with that key */
				yd_node v = yd_get(doc, n, ks), kk = yd_get_key(doc, n, ks);
				FUZZ_CHECK(v != 0 && kk != 0);
			}
		}
		FUZZ_CHECK(yd_key(doc, n, len) == 0 && yd_item(doc, n, 0) == 0);
	} else {
		for (size_t i = 0; i < len; i++)
			FUZZ_CHECK(yd_item(doc, n, i) != 0);
		FUZZ_CHECK(yd_item(doc, n, len) == 0);
	}
	(void)yd_get(doc, n, "HeadNode");
}

static void one_path(const yamldoc *doc, yd_node n)
{
	struct buf b = BUF_INIT;
	yd_path_json(doc, n, &b);
	FUZZ_CHECK(b.len > 0 && (b.p[0] == '[' || strcmp(b.p, "null") == 0));
	buf_reset(&b);
	yd_path_dotted(doc, n, &b); /* "" for a top-level key "" */
	buf_free(&b);
}

static void walk(const yamldoc *doc)
{
	static yd_node stack[STACK_MAX];
	yd_node picked[PATHS] = { 0 };
	size_t top = 0, visits = 0;
	yd_node root = yd_root(doc);
	if (root)
		stack[top++] = root;
	while (top && visits < VISIT_BUDGET) {
		yd_node n = stack[--top];
		visits++;
		read_node(doc, n);
		if (visits % 97 == 1) {
			picked[(visits / 97) % PATHS] = n;
			struct yd_span s = yd_span(doc, n);
			(void)yd_last_line(doc, n);
			(void)yd_at(doc, s.line, s.col);
			(void)yd_at(doc, s.end_line, s.end_col);
		}
		size_t len = yd_len(doc, n);
		if (yd_kind(doc, n) == YD_MAPPING)
			len *= 2;
		else if (yd_kind(doc, n) != YD_SEQUENCE)
			len = 0;
		for (size_t i = 0; i < len && top < STACK_MAX; i++) {
			yd_node c = yd_kind(doc, n) == YD_MAPPING
				? (i % 2 ? yd_value(doc, n, i / 2) : yd_key(doc, n, i / 2))
				: yd_item(doc, n, i);
			stack[top++] = c;
		}
	}
	for (int i = 0; i < PATHS; i++)
		if (picked[i])
			one_path(doc, picked[i]);
	one_path(doc, root);
	/* nodes that do not exist read as "no node" */
	yd_node past = (yd_node)yamldoc_node_count(doc) + 1;
	FUZZ_CHECK(yd_kind(doc, past) == YD_NONE && yd_len(doc, past) == 0);
	FUZZ_CHECK(yd_str(doc, 0, NULL) == NULL);
	(void)yd_at(doc, 1, 1);
	(void)yd_at(doc, 0, 0);
}

static void check_issues(const yamldoc *doc)
{
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		FUZZ_CHECK(is->code <= YD_ISSUE_MULTI_DOC);
		FUZZ_CHECK(is->msg != NULL);
		(void)strlen(is->msg);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	yamldoc *doc = yamldoc_parse((const char *)data, size, NULL);
	FUZZ_CHECK(doc != NULL);
	check_issues(doc);
	(void)yamldoc_broken(doc);
	walk(doc);
	yamldoc_free(doc);

	/* Tight limits reach the depth and alias-budget paths. */
	if (size <= 4096) {
		struct yd_limits tight = { .max_depth = 6, .max_alias_nodes = 50 };
		doc = yamldoc_parse((const char *)data, size, &tight);
		check_issues(doc);
		walk(doc);
		yamldoc_free(doc);
	}
	return 0;
}
