/* Templates: tmpl_prepare on arbitrary bytes, with and without values
 * and look-alike folding, then the loader over the prepared text. The
 * contracts: every placeholder lies on one line inside the input, in
 * order; the shifts are sorted; a text with no change is not copied;
 * every position the loader gives is inside the original text. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "tmpl.h"
#include "yamldoc.h"

static void check_prepared(const struct tmpl *t, const char *text, size_t size)
{
	FUZZ_CHECK(t->orig == text && t->orig_len == size);
	FUZZ_CHECK(t->changed == (t->text != NULL));
	FUZZ_CHECK(!t->changed || t->text[t->len] == '\0');
	size_t unvalued = 0;
	for (size_t i = 0; i < t->n_ph; i++) {
		const struct tmpl_ph *p = &t->ph[i];
		FUZZ_CHECK(p->start < p->end && p->end <= size);
		FUZZ_CHECK(p->name >= p->start && p->name + p->name_len <= p->end);
		FUZZ_CHECK(!memchr(text + p->start, '\n', p->end - p->start));
		FUZZ_CHECK(p->line >= 1 && p->col >= 1 && p->end_col > p->col);
		FUZZ_CHECK(i == 0 || t->ph[i - 1].end <= p->start);
		unvalued += !p->valued;
	}
	FUZZ_CHECK(unvalued == t->n_unvalued);
	for (size_t i = 1; i < t->n_shifts; i++) {
		const struct tmpl_shift *a = &t->shifts[i - 1], *b = &t->shifts[i];
		FUZZ_CHECK(a->line < b->line || (a->line == b->line && a->col + a->cols <= b->col));
	}
	FUZZ_CHECK(!t->n_tag_lines || t->first_tag_line >= 1);
	for (uint32_t a = 1; a <= 8; a++)
		(void)tmpl_exclusive(t, a, a + 1);
}

/* Positions stay on the original text: no line past its last, as
 * libyaml counts lines (a lone CR, NEL, LS and PS break them too). */
static void check_doc(const yamldoc *doc, const char *text, size_t size)
{
	uint32_t lines = 2;
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n' || text[i] == '\r' || (unsigned char)text[i] == 0x85;
	size_t n = yamldoc_node_count(doc);
	for (yd_node i = 1; i <= n && i < 4096; i++) {
		struct yd_span s = yd_span(doc, i);
		FUZZ_CHECK(s.line >= 1 && s.line <= lines && s.end_line <= lines);
		if (yd_kind(doc, i) == YD_SCALAR)
			FUZZ_CHECK((unsigned)yd_type(doc, i) <= YD_T_UNKNOWN);
	}
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++)
		FUZZ_CHECK(yamldoc_issue(doc, i)->span.line <= lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tmpl_defs defs = { 0 };
	const char *why;
	FUZZ_CHECK(tmpl_defs_parse(&defs, "SUBNET=subnet-0123456789abcdef0", &why));
	FUZZ_CHECK(tmpl_defs_parse(&defs, "NODES=4", &why));
	FUZZ_CHECK(tmpl_defs_parse(&defs, "instance=p5.48xlarge", &why));
	FUZZ_CHECK(tmpl_defs_parse(&defs, "WIDE=\xe2\x80\x91\xe2\x80\x91", &why));
	FUZZ_CHECK(tmpl_defs_parse(&defs, "EMPTY=", &why));
	for (int pass = 0; pass < 3; pass++) {
		struct tmpl t;
		tmpl_prepare(text, size, pass ? &defs : NULL, pass == 2 ? TMPL_FOLD : 0, &t);
		check_prepared(&t, text, size);
		yamldoc *doc = yamldoc_parse_tmpl(&t, NULL);
		check_doc(doc, text, size);
		yamldoc_free(doc);
		tmpl_free(&t);
	}
	/* the env-file reader on the same bytes */
	uint32_t bad = 0;
	struct tmpl_defs env = { 0 };
	if (!tmpl_defs_read_env(&env, text, size, &bad))
		FUZZ_CHECK(bad >= 1);
	tmpl_defs_free(&env);
	tmpl_defs_free(&defs);
	return 0;
}
