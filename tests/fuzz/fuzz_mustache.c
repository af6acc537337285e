/* Mustache: the input is NUL-separated segments
 *     template \0 data (YAML) \0 partial a \0 partial b \0 ...
 * The template is compiled and rendered against tv_from_yaml(data), in
 * strict and lenient modes, with each escaper, with the segments after
 * the data as partials named a, b, c... and the template itself as the
 * partial "self". Limits are lower than the defaults so that a run stays
 * fast; the limit paths are the same code. */
#include <stdbool.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "fuzz.h"
#include "mustache.h"
#include "tvalue.h"
#include "yamldoc.h"

enum { MAX_PARTIALS = 8 };

static void check_error(const struct tpl_error *err)
{
	FUZZ_CHECK(memchr(err->name, '\0', sizeof err->name) != NULL);
	FUZZ_CHECK(memchr(err->msg, '\0', sizeof err->msg) != NULL);
	FUZZ_CHECK(err->line >= 1 && err->col >= 1);
	struct buf b = BUF_INIT;
	tpl_error_format(err, &b);
	buf_free(&b);
}

static void render(const struct tpl *t, const struct tv *ctx,
		   const struct tpl_partials *ps, const struct tpl_render_opts *o)
{
	struct buf out = BUF_INIT;
	buf_puts(&out, "prefix");
	struct tpl_error err;
	memset(&err, 0, sizeof err);
	if (tpl_render(t, ctx, ps, o, &out, &err)) {
		FUZZ_CHECK(out.len >= 6 && memcmp(out.p, "prefix", 6) == 0);
		FUZZ_CHECK(out.len - 6 <= o->max_output);
	} else {
		/* "On error out is left as it was" */
		FUZZ_CHECK(out.len == 6 && memcmp(out.p, "prefix", 6) == 0);
		check_error(&err);
	}
	buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	const char *nul = memchr(p, '\0', size);
	size_t tlen = nul ? (size_t)(nul - p) : size;

	struct tpl_error err;
	memset(&err, 0, sizeof err);
	struct tpl *t = tpl_compile("fuzz", p, tlen, &err);
	if (!t) {
		check_error(&err);
		return 0;
	}
	FUZZ_CHECK(strcmp(tpl_name(t), "fuzz") == 0);

	const char *d = nul ? nul + 1 : end;
	const char *dnul = memchr(d, '\0', (size_t)(end - d));
	size_t dlen = dnul ? (size_t)(dnul - d) : (size_t)(end - d);
	yamldoc *doc = yamldoc_parse(d, dlen, NULL);
	struct tv *ctx = tv_from_yaml(doc, yd_root(doc));

	struct tpl_partials *ps = tpl_partials_new();
	FUZZ_CHECK(tpl_partials_add(ps, "self", p, tlen, &err));
	const char *q = dnul ? dnul + 1 : end;
	for (int i = 0; i < MAX_PARTIALS && q < end; i++) {
		const char *qn = memchr(q, '\0', (size_t)(end - q));
		size_t qlen = qn ? (size_t)(qn - q) : (size_t)(end - q);
		char name[2] = { (char)('a' + i), 0 };
		memset(&err, 0, sizeof err);
		if (!tpl_partials_add(ps, name, q, qlen, &err))
			check_error(&err);
		q = qn ? qn + 1 : end;
	}

	struct tpl_render_opts strict = {
		.strict = true, .escaper = esc_yaml,
		.max_output = 1 << 16, .max_steps = 50000,
	};
	struct tpl_render_opts lenient = {
		.escaper = esc_shell, .max_depth = 16,
		.max_output = 1 << 16, .max_steps = 50000,
	};
	struct tpl_render_opts html = {
		.escaper = esc_html, .max_output = 4096, .max_steps = 20000,
	};
	render(t, ctx, ps, &strict);
	render(t, ctx, ps, &lenient);
	render(t, ctx, NULL, &html);

	tpl_partials_free(ps);
	tv_free(ctx);
	yamldoc_free(doc);
	tpl_free(t);
	return 0;
}
