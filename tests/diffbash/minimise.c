/* Delta debugging over units of a text: try the text without each
 * chunk of units, keep every removal after which the predicate still
 * holds, then halve the chunks. Units are slices
 * of the current text: lines (with their newline), then tokens (a run
 * of non-blanks with the blanks after it), then single characters of
 * a text already small. */
#include "minimise.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum grain { GR_LINE, GR_TOKEN, GR_CHAR };

struct unit {
	size_t off, len;
};

struct units {
	struct unit *v;
	size_t n, cap;
};

static void add_unit(struct units *u, size_t off, size_t len)
{
	u->v = xgrow(u->v, &u->cap, u->n + 1, sizeof *u->v);
	u->v[u->n++] = (struct unit){ off, len };
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits [keep, len) into units of a grain. */
static void split(const struct buf *t, size_t keep, enum grain gr, struct units *u)
{
	u->n = 0;
	for (size_t i = keep; i < t->len;) {
		size_t e = i + 1;
		if (gr == GR_LINE) {
			while (e < t->len && t->p[e - 1] != '\n')
				e++;
		} else if (gr == GR_TOKEN) {
			bool sep = t->p[i] == '\n';
			while (!sep && e < t->len && !blank(t->p[e]) && t->p[e] != '\n')
				e++;
			while (!sep && e < t->len && blank(t->p[e]))
				e++;
		} else {
			/* a whole UTF-8 sequence: half a character is not text */
			while (e < t->len && ((unsigned char)t->p[e] & 0xc0) == 0x80)
				e++;
		}
		add_unit(u, i, e - i);
		i = e;
	}
}

/* The text with units [a, b) left out. */
static void without(const struct buf *t, size_t keep, const struct units *u, size_t a, size_t b,
		    struct buf *out)
{
	out->len = 0;
	buf_put(out, t->p, keep);
	for (size_t i = 0; i < u->n; i++)
		if (i < a || i >= b)
			buf_put(out, t->p + u->v[i].off, u->v[i].len);
}

/* One grain: chunks of half the units, then of a quarter..., each
 * chunk tried away once per pass; a pass that removed something is
 * repeated at its size. Returns false when the budget ran out. */
static bool ddmin(struct buf *t, size_t keep, enum grain gr, dbm_pred pred, void *ctx,
		  unsigned budget, unsigned *calls)
{
	struct units u = { NULL, 0, 0 };
	struct buf cand = BUF_INIT;
	split(t, keep, gr, &u);
	size_t chunk = u.n > 1 ? u.n / 2 : 1;
	bool ok = true;
	while (u.n) {
		bool shrank = false;
		for (size_t a = 0; a < u.n;) {
			if (*calls >= budget) {
				ok = false;
				goto out;
			}
			size_t b = a + chunk < u.n ? a + chunk : u.n;
			without(t, keep, &u, a, b, &cand);
			++*calls;
			if (!pred(ctx, cand.p, cand.len)) {
				a = b;
				continue;
			}
			/* the units after the chunk now start at a */
			t->len = 0;
			buf_put(t, cand.p, cand.len);
			split(t, keep, gr, &u);
			shrank = true;
		}
		if (!shrank && chunk == 1)
			break;
		if (!shrank)
			chunk /= 2;
		if (chunk > u.n)
			chunk = u.n ? u.n : 1;
	}
out:
	free(u.v);
	buf_free(&cand);
	return ok;
}

unsigned dbm_minimise(struct buf *text, size_t keep, dbm_pred pred, void *ctx, unsigned budget)
{
	unsigned calls = 0;
	if (!text->p)
		buf_put(text, "", 0);
	if (keep > text->len)
		keep = text->len;
	/* rounds until one removes nothing: a token gone may free a line */
	for (int round = 0; round < 4; round++) {
		size_t before = text->len;
		if (!ddmin(text, keep, GR_LINE, pred, ctx, budget, &calls) ||
		    !ddmin(text, keep, GR_TOKEN, pred, ctx, budget, &calls))
			return calls;
		/* characters only once the text is small: a call per byte at least */
		if (text->len - keep <= 400 && !ddmin(text, keep, GR_CHAR, pred, ctx, budget, &calls))
			return calls;
		if (text->len == before)
			break;
	}
	return calls;
}
