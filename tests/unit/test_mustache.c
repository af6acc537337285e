/* The Mustache engine: the spec's required modules (from
 * ../shared/mustache-spec or $TF_MUSTACHE_SPEC), then our own cases:
 * errors with positions, limits, the data model and the escapers
 * against hostile values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "escape.h"
#include "mustache.h"
#include "tvalue.h"
#include "yamldoc.h"

/* ---- helpers ----------------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return b.p ? buf_detach(&b) : calloc(1, 1);
}

/* Parses YAML/JSON text into a context. */
static struct tv *ctx_of(const char *yaml)
{
	yamldoc *doc = yamldoc_parse(yaml, strlen(yaml), NULL);
	assert_false(yamldoc_broken(doc));
	struct tv *v = tv_from_yaml(doc, yd_root(doc));
	yamldoc_free(doc);
	return v;
}

/* Renders and returns the output (caller frees) or NULL with *err set. */
static char *render(const char *tmpl, const char *data,
		    const struct tpl_partials *partials,
		    const struct tpl_render_opts *opts, struct tpl_error *err)
{
	struct tpl *t = tpl_compile("t", tmpl, strlen(tmpl), err);
	assert_non_null(t);
	struct tv *ctx = data ? ctx_of(data) : NULL;
	struct buf out = BUF_INIT;
	bool ok = tpl_render(t, ctx, partials, opts, &out, err);
	tv_free(ctx);
	tpl_free(t);
	if (!ok) {
		assert_int_equal(out.len, 0); /* nothing left behind on failure */
		buf_free(&out);
		return NULL;
	}
	return out.p ? buf_detach(&out) : strdup("");
}

static void expect_render(const char *tmpl, const char *data,
			  const struct tpl_render_opts *opts, const char *want)
{
	struct tpl_error err;
	char *got = render(tmpl, data, NULL, opts, &err);
	if (!got)
		fail_msg("render failed: %s:%u:%u: %s", err.name, err.line,
			 err.col, err.msg);
	assert_string_equal(got, want);
	free(got);
}

static void expect_compile_error(const char *tmpl, uint32_t line,
				 uint32_t col, const char *msg)
{
	struct tpl_error err;
	memset(&err, 0, sizeof err);
	struct tpl *t = tpl_compile("cluster.yaml.mustache", tmpl, strlen(tmpl), &err);
	assert_null(t);
	assert_string_equal(err.name, "cluster.yaml.mustache");
	assert_int_equal(err.line, line);
	assert_int_equal(err.col, col);
	assert_string_equal(err.msg, msg);
}

/* ---- the spec ---------------------------------------------------------- */

static const char *const spec_files[] = {
	"comments", "delimiters", "interpolation", "inverted", "partials",
	"sections",
};

static bool spec_case(const yamldoc *doc, yd_node test, const char *file)
{
	size_t tlen, elen;
	const char *name = yd_str(doc, yd_get(doc, test, "name"), NULL);
	const char *tmpl = yd_str(doc, yd_get(doc, test, "template"), &tlen);
	const char *want = yd_str(doc, yd_get(doc, test, "expected"), &elen);
	struct tpl_error err = { .msg = "" };
	struct tpl_partials *partials = tpl_partials_new();
	yd_node pmap = yd_get(doc, test, "partials");
	bool ok = true;
	for (size_t i = 0; pmap && i < yd_len(doc, pmap); i++) {
		size_t plen;
		const char *ptext = yd_str(doc, yd_value(doc, pmap, i), &plen);
		ok = ok && tpl_partials_add(partials, yd_str(doc, yd_key(doc, pmap, i), NULL),
					    ptext, plen, &err);
	}
	struct tpl *t = ok ? tpl_compile(name, tmpl, tlen, &err) : NULL;
	struct tv *ctx = tv_from_yaml(doc, yd_get(doc, test, "data"));
	struct tpl_render_opts opts = { .escaper = esc_html };
	struct buf out = BUF_INIT;
	ok = t && tpl_render(t, ctx, partials, &opts, &out, &err);
	bool pass = ok && out.len == elen && memcmp(out.p ? out.p : "", want, elen) == 0;
	if (!pass)
		printf("spec %s / %s: FAILED\n  want: \"%s\"\n  got:  \"%s\" %s\n",
		       file, name, want, out.p ? out.p : "", err.msg);
	buf_free(&out);
	tv_free(ctx);
	tpl_free(t);
	tpl_partials_free(partials);
	return pass;
}

static void mustache_spec(void **state)
{
	(void)state;
	const char *dir = getenv("TF_MUSTACHE_SPEC");
	if (!dir)
		dir = "../shared/mustache-spec";
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		printf("mustache spec: %s not found (set TF_MUSTACHE_SPEC); "
		       "skipping the spec run\n", dir);
		skip();
	}
	size_t passed = 0, total = 0;
	for (size_t f = 0; f < sizeof spec_files / sizeof *spec_files; f++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s.json", dir, spec_files[f]);
		size_t len = 0;
		char *text = read_all(path, &len);
		if (!text)
			fail_msg("mustache spec: cannot read %s", path);
		yamldoc *doc = yamldoc_parse(text, len, NULL);
		assert_false(yamldoc_broken(doc));
		yd_node tests = yd_get(doc, yd_root(doc), "tests");
		assert_int_equal(yd_kind(doc, tests), YD_SEQUENCE);
		for (size_t i = 0; i < yd_len(doc, tests); i++, total++)
			passed += spec_case(doc, yd_item(doc, tests, i), spec_files[f]);
		yamldoc_free(doc);
		free(text);
	}
	printf("mustache spec: %zu of %zu passed\n", passed, total);
	assert_true(total > 0);
	assert_int_equal(passed, total);
}

/* ---- errors with positions --------------------------------------------- */

static void strict_missing_variable(void **state)
{
	(void)state;
	struct tpl_render_opts opts = { .strict = true, .escaper = esc_yaml };
	struct tpl_error err;
	char *got = render("a: 1\nb: {{present}}\n  c: {{missing}}\n",
			   "{present: x}", NULL, &opts, &err);
	assert_null(got);
	assert_string_equal(err.name, "t");
	assert_int_equal(err.line, 3);
	assert_int_equal(err.col, 6);
	assert_string_equal(err.msg, "missing variable 'missing'");

	/* a broken dotted chain is missing; a null value is not */
	assert_null(render("{{a.b.c}}", "{a: {b: {}}}", NULL, &opts, &err));
	assert_string_equal(err.msg, "missing variable 'a.b.c'");
	expect_render("[{{a}}]", "{a: null}", &opts, "[]");
	/* columns count code points, not bytes */
	assert_null(render("\xc3\xa9\xc3\xa9{{#q}}{{/q}}", "{}", NULL, &opts, &err));
	assert_int_equal(err.col, 3);
	assert_string_equal(err.msg, "missing section 'q'");
	assert_null(render("{{^q}}{{/q}}", "{}", NULL, &opts, &err));
	assert_null(render("x\n {{> nope}}", "{}", NULL, &opts, &err));
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 2);
	assert_string_equal(err.msg, "unknown partial 'nope'");
	assert_null(render("{{list}}", "{list: [1]}", NULL, &opts, &err));
	assert_string_equal(err.msg, "'list' is a list, not a value to print");

	/* lenient (the spec's mode): all of these render as empty */
	expect_render("[{{missing}}{{#q}}x{{/q}}{{> nope}}{{list}}]",
		      "{list: [1]}", NULL, "[]");

	struct buf line = BUF_INIT;
	assert_null(render("\n{{x}}", "{}", NULL, &opts, &err));
	tpl_error_format(&err, &line);
	assert_string_equal(line.p, "t:2:1: missing variable 'x'");
	buf_free(&line);
}

static void compile_errors(void **state)
{
	(void)state;
	expect_compile_error("HeadNode:\n{{#queues}}\n  - {{name}}\n", 2, 1,
			     "unclosed section 'queues' opened at 2:1");
	expect_compile_error("x\n  {{#a}}\n  {{^b}}\n  {{/b}}\n", 2, 3,
			     "unclosed section 'a' opened at 2:3");
	expect_compile_error("{{#a}}\n  {{#b}}\n  {{/a}}\n{{/b}}\n", 3, 3,
			     "mismatched close 'a' for section 'b' opened at 2:3");
	expect_compile_error("ok\n{{/a}}", 2, 1,
			     "close tag 'a' without an open section");
	expect_compile_error("a {{name", 1, 3, "unclosed tag: no '}}' after '{{'");
	expect_compile_error("a {{{name}}", 1, 3, "unclosed tag: no '}}}' after '{{'");
	expect_compile_error("{{=<% %>=}}\n<%name", 2, 1,
			     "unclosed tag: no '%>' after '<%'");
	expect_compile_error("{{a b}}", 1, 1, "invalid name 'a b'");
	expect_compile_error("{{a..b}}", 1, 1, "invalid name 'a..b'");
	expect_compile_error("{{ }}", 1, 1, "empty tag");
	expect_compile_error("{{=<%=}}", 1, 1,
			     "invalid set-delimiters tag: expected two delimiters "
			     "without spaces or '=', as in {{=<% %>=}}");
	struct tpl_partials *p = tpl_partials_new();
	struct tpl_error err;
	assert_false(tpl_partials_add(p, "efa", "{{#x}}", 6, &err));
	assert_string_equal(err.name, "efa");
	tpl_partials_free(p);
	tpl_free(NULL);
	tpl_partials_free(NULL);
}

/* ---- limits ------------------------------------------------------------ */

static void recursive_partial_stops(void **state)
{
	(void)state;
	struct tpl_partials *p = tpl_partials_new();
	struct tpl_error err;
	assert_true(tpl_partials_add(p, "self", "x\n  {{>self}}\n", 14, &err));
	char *got = render("{{>self}}", "{}", p, NULL, &err);
	assert_null(got);
	assert_string_equal(err.name, "self");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 3);
	assert_string_equal(err.msg, "sections and partials nested deeper than 64");

	/* two calls per level: depth alone would allow 2^60 visits with no
	 * output, the step budget ends it */
	assert_true(tpl_partials_add(p, "fork", "{{#a}}{{>fork}}{{>fork}}{{/a}}", 30, &err));
	struct buf nest = BUF_INIT;
	for (int i = 0; i < 60; i++)
		buf_puts(&nest, "{a: ");
	buf_puts(&nest, "false");
	for (int i = 0; i < 60; i++)
		buf_puts(&nest, "}");
	struct tpl_render_opts opts = { .max_depth = 200, .max_steps = 100000 };
	assert_null(render("{{>fork}}", nest.p, p, &opts, &err));
	assert_string_equal(err.msg, "render took more than 100000 steps");
	buf_free(&nest);
	tpl_partials_free(p);
}

static void depth_limit(void **state)
{
	(void)state;
	struct buf t = BUF_INIT;
	for (int i = 0; i < 100; i++)
		buf_puts(&t, "{{#a}}");
	buf_puts(&t, "x");
	for (int i = 0; i < 100; i++)
		buf_puts(&t, "{{/a}}");
	struct tpl_error err;
	assert_null(render(t.p, "{a: true}", NULL, NULL, &err));
	assert_int_equal(err.col, 64 * 6 + 1); /* the 65th section */
	assert_string_equal(err.msg, "sections and partials nested deeper than 64");
	struct tpl_render_opts deep = { .max_depth = 128 };
	char *got = render(t.p, "{a: true}", NULL, &deep, &err);
	assert_string_equal(got, "x");
	free(got);
	buf_free(&t);

	/* 100k nested sections compile without recursion; rendering stops */
	for (int i = 0; i < 100000; i++)
		buf_puts(&t, "{{#a}}");
	for (int i = 0; i < 100000; i++)
		buf_puts(&t, "{{/a}}");
	struct tpl_render_opts huge = { .max_depth = 1u << 30 };
	assert_null(render(t.p, "{a: [1]}", NULL, &huge, &err));
	assert_string_equal(err.msg, "sections and partials nested deeper than 1024");
	buf_free(&t);
}

static void output_limit(void **state)
{
	(void)state;
	struct tpl_render_opts opts = { .max_output = 100, .escaper = esc_shell };
	struct tpl_error err;
	assert_null(render("{{#l}}0123456789{{/l}}", "{l: [1,2,3,4,5,6,7,8,9,10,11]}",
			   NULL, &opts, &err));
	assert_string_equal(err.msg, "output larger than 100 bytes");
	assert_null(render("{{v}}", "{v: \"''''''''''''''''''''''''''''\"}", NULL, &opts, &err));
	char *got = render("{{#l}}0123456789{{/l}}", "{l: [1,2,3,4,5,6,7,8,9,10]}",
			   NULL, &opts, &err);
	assert_int_equal(strlen(got), 100);
	free(got);

	/* a failed render leaves what was already in out alone */
	struct tpl *t = tpl_compile("t", "{{x}}", 5, &err);
	struct buf out = BUF_INIT;
	buf_puts(&out, "keep");
	struct tpl_render_opts strict = { .strict = true };
	assert_false(tpl_render(t, NULL, NULL, &strict, &out, &err));
	assert_string_equal(out.p, "keep");
	buf_free(&out);
	tpl_free(t);
}

/* ---- engine behaviour beyond the spec ----------------------------------- */

static void escaper_only_for_plain_tags(void **state)
{
	(void)state;
	struct tpl_render_opts sh = { .escaper = esc_shell };
	expect_render("{{v}} {{{v}}} {{&v}}", "{v: \"a b\"}", &sh, "'a b' a b a b");
	struct tpl_render_opts yaml = { .escaper = esc_yaml };
	expect_render("name: {{v}}\n", "{v: \"a: b\"}", &yaml, "name: \"a: b\"\n");
	/* numbers, booleans and null keep their type; a numeric string is
	 * still a string */
	expect_render("[{{n}}, {{b}}, {{z}}, {{s}}]", "{n: 64, b: false, z: null, s: '64'}",
		      &yaml, "[64, false, , \"64\"]");
	expect_render("{{#v}}{{.}} {{/v}}", "{v: [1, 2.5, true, x]}", &sh, "1 2.5 true 'x' ");
}

static void partial_indentation(void **state)
{
	(void)state;
	struct tpl_partials *p = tpl_partials_new();
	struct tpl_error err;
	const char *outer = "env:\n  {{>inner}}\n{{#more}}\n  x\n{{/more}}\n";
	const char *inner = "- {{a}}\n- {{b}}\n";
	assert_true(tpl_partials_add(p, "outer", outer, strlen(outer), &err));
	assert_true(tpl_partials_add(p, "inner", inner, strlen(inner), &err));
	char *got = render("q:\n  {{>outer}}\n", "{a: 1, b: 2, more: true}", p, NULL, &err);
	assert_string_equal(got, "q:\n  env:\n    - 1\n    - 2\n    x\n");
	free(got);
	/* re-adding a name replaces the partial */
	assert_true(tpl_partials_add(p, "inner", "z", 1, &err));
	got = render("{{>inner}}", "{}", p, NULL, &err);
	assert_string_equal(got, "z");
	free(got);
	tpl_partials_free(p);
}

static void values(void **state)
{
	(void)state;
	static const struct {
		double d;
		const char *want;
	} nums[] = {
		{ 85, "85" }, { 1.21, "1.21" }, { -3, "-3" }, { -0.0, "0" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 1e20, "1e+20" },
		{ 1.5e-7, "1.5e-07" }, { 4096, "4096" }, { 9007199254740991.0, "9007199254740991" },
	};
	for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
		struct buf b = BUF_INIT;
		struct tv *v = tv_num(nums[i].d);
		assert_true(tv_format(v, &b));
		assert_string_equal(b.p, nums[i].want);
		tv_free(v);
		buf_free(&b);
	}

	struct tv *m = tv_map_new();
	tv_map_set(m, "name", tv_str("train"));
	tv_map_set(m, "nodes", tv_num(64));
	tv_map_set(m, "name", tv_str("moe")); /* replaces, keeps its place */
	tv_map_set(m, "opt", tv_str(NULL));
	struct tv *l = tv_list_new();
	tv_list_push(l, tv_bool(true));
	tv_list_push(l, tv_null());
	tv_map_set(m, "list", l);
	assert_int_equal(tv_len(m), 4);
	assert_string_equal(tv_map_key(m, 0), "name");
	assert_string_equal(tv_str_get(tv_map_value(m, 0), NULL), "moe");
	assert_int_equal(tv_kind(tv_map_get(m, "opt", 3)), TV_NULL);
	assert_null(tv_map_get(m, "absent", 6));
	assert_true(tv_bool_get(tv_item(l, 0)));
	struct buf b = BUF_INIT;
	assert_false(tv_format(l, &b));
	assert_int_equal(b.len, 0);
	tv_free(m);
	tv_free(NULL);

	/* truthiness we chose where the spec is silent */
	expect_render("{{#e}}E{{/e}}{{#z}}Z{{/z}}{{#m}}M{{/m}}", "{e: '', z: 0, m: {}}",
		      NULL, "ZM");

	/* YAML types; a number too big for an integer keeps its text */
	struct tv *y = ctx_of("{i: 12, f: 1.5, b: yes, n: ~, s: '12', big: 123456789012345678901234567890,"
			      " l: [a, {k: v}], 7: seven}");
	assert_int_equal(tv_kind(tv_map_get(y, "i", 1)), TV_NUM);
	assert_true(tv_num_get(tv_map_get(y, "f", 1)) == 1.5);
	assert_true(tv_bool_get(tv_map_get(y, "b", 1)));
	assert_int_equal(tv_kind(tv_map_get(y, "n", 1)), TV_NULL);
	assert_int_equal(tv_kind(tv_map_get(y, "s", 1)), TV_STR);
	assert_string_equal(tv_str_get(tv_map_get(y, "big", 3), NULL),
			    "123456789012345678901234567890");
	const struct tv *yl = tv_map_get(y, "l", 1);
	assert_string_equal(tv_str_get(tv_map_get(tv_item(yl, 1), "k", 1), NULL), "v");
	assert_string_equal(tv_str_get(tv_map_get(y, "7", 1), NULL), "seven");
	tv_free(y);

	/* a deep tree converts and frees without recursion */
	struct buf deep = BUF_INIT;
	for (int i = 0; i < 200; i++)
		buf_putc(&deep, '[');
	for (int i = 0; i < 200; i++)
		buf_putc(&deep, ']');
	tv_free(ctx_of(deep.p));
	buf_free(&deep);
}

/* ---- escapers ----------------------------------------------------------- */

static const char *const hostile[] = {
	"", "plain", "a: b", "#x", "!!python/object:os.system", "- x", "{", "}",
	"[1, 2]", "&anchor", "*alias", "|", ">", "'", "\"", "\\", "a\nb",
	"line\n- injected: true", "\r\n", "\t", "x # comment", "%TAG", "---",
	"...", "$(touch /tmp/tf_pwned)", "`id`", "$HOME", "${HOME}", "*", "?",
	"[a-z]*", "~root", "a'b\"c", "''", "\\'", "!", "a;b", "a|b", "a&b",
	"a>b", "<(x)", "yes", "null", "~", "0x1F", "1e3", "\xc3\xa9t\xc3\xa9",
	"\xe2\x80\xa8", "\xef\xbb\xbf" "bom", "\x01\x1b\x7f", "\xc2\x85", " lead",
	"trail ", "-", "\xe2\x80\x91" "dash",
};

static void escape_html(void **state)
{
	(void)state;
	struct buf b = BUF_INIT;
	const char *s = "<a href=\"x\">&amp;'</a>";
	esc_html(&b, s, strlen(s));
	assert_string_equal(b.p, "&lt;a href=&quot;x&quot;&gt;&amp;amp;'&lt;/a&gt;");
	buf_reset(&b);
	esc_none(&b, s, strlen(s));
	assert_string_equal(b.p, s);
	buf_free(&b);
}

static void escape_yaml_round_trips(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
		struct buf b = BUF_INIT;
		buf_puts(&b, "key: ");
		esc_yaml(&b, hostile[i], strlen(hostile[i]));
		buf_puts(&b, "\nnext: 1\n");
		yamldoc *doc = yamldoc_parse(b.p, b.len, NULL);
		if (yamldoc_broken(doc))
			fail_msg("esc_yaml broke YAML for payload %zu: %s", i, b.p);
		yd_node root = yd_root(doc);
		assert_int_equal(yd_len(doc, root), 2); /* no extra keys */
		yd_node v = yd_get(doc, root, "key");
		size_t len;
		const char *got = yd_str(doc, v, &len);
		assert_non_null(got);
		assert_int_equal(yd_type(doc, v), YD_T_STRING);
		assert_int_equal(len, strlen(hostile[i]));
		assert_memory_equal(got, hostile[i], len);
		yamldoc_free(doc);
		buf_free(&b);
	}
	/* controls, NUL, invalid UTF-8 */
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
		{ "a\0b", 3, "\"a\\x00b\"" },
		{ "\x1b[31m", 5, "\"\\x1B[31m\"" },
		{ "\xff", 1, "\"\\uFFFD\"" },
		{ "\xe2\x80\xa9", 3, "\"\\u2029\"" },
		{ "q\"\\", 3, "\"q\\\"\\\\\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct buf b = BUF_INIT;
		esc_yaml(&b, cases[i].in, cases[i].len);
		assert_string_equal(b.p, cases[i].want);
		buf_free(&b);
	}
}

static void escape_shell_is_one_inert_word(void **state)
{
	(void)state;
	char marker[64];
	snprintf(marker, sizeof marker, "/tmp/tf_pwned_%ld", (long)getpid());
	char sub[128], tick[128], semi[128];
	snprintf(sub, sizeof sub, "$(touch %s)", marker);
	snprintf(tick, sizeof tick, "`touch %s`", marker);
	snprintf(semi, sizeof semi, "x'; touch %s; echo '", marker);
	const char *extra[] = { sub, tick, semi, "a\n\nb\n", "'''", "*.c /*", "\\" };
	size_t n = sizeof hostile / sizeof *hostile;
	for (size_t i = 0; i < n + sizeof extra / sizeof *extra; i++) {
		const char *payload = i < n ? hostile[i] : extra[i - n];
		struct buf cmd = BUF_INIT;
		buf_puts(&cmd, "printf %s ");
		esc_shell(&cmd, payload, strlen(payload));
		FILE *sh = popen(cmd.p, "r");
		assert_non_null(sh);
		struct buf got = BUF_INIT;
		char chunk[256];
		size_t k;
		while ((k = fread(chunk, 1, sizeof chunk, sh)) > 0)
			buf_put(&got, chunk, k);
		assert_int_equal(pclose(sh), 0);
		if (got.len != strlen(payload) ||
		    memcmp(got.p ? got.p : "", payload, got.len) != 0)
			fail_msg("esc_shell changed payload %zu: %s", i, cmd.p);
		buf_free(&got);
		buf_free(&cmd);
	}
	assert_int_not_equal(access(marker, F_OK), 0);

	struct buf b = BUF_INIT;
	esc_shell(&b, "", 0);
	assert_string_equal(b.p, "''");
	buf_reset(&b);
	esc_shell(&b, "it's", 4);
	assert_string_equal(b.p, "'it'\\''s'");
	buf_reset(&b);
	esc_shell(&b, "a\0b", 3); /* no shell word holds NUL */
	assert_string_equal(b.p, "'ab'");
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mustache_spec),
		cmocka_unit_test(strict_missing_variable),
		cmocka_unit_test(compile_errors),
		cmocka_unit_test(recursive_partial_stops),
		cmocka_unit_test(depth_limit),
		cmocka_unit_test(output_limit),
		cmocka_unit_test(escaper_only_for_plain_tags),
		cmocka_unit_test(partial_indentation),
		cmocka_unit_test(values),
		cmocka_unit_test(escape_html),
		cmocka_unit_test(escape_yaml_round_trips),
		cmocka_unit_test(escape_shell_is_one_inert_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
