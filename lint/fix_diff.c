/* Unified diffs for --diff: Myers' O(ND) line diff between the common
 * prefix and suffix, three lines of context, `patch -p1` and
 * `git apply` compatible. Fixes touch few lines; past DIFF_MAX_EDITS the
 * changed middle becomes one hunk, which is still a correct patch. */
#include "fix.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

enum { DIFF_CONTEXT = 3, DIFF_MAX_EDITS = 1000 };

struct lines {
	const char **p;
	size_t *len;  /* with the newline, when there is one */
	size_t n;
};

static void split_lines(const char *t, size_t len, struct lines *out)
{
	size_t cap = 0;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(t + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - t) + 1 : len;
		size_t cap2 = cap;
		out->p = xgrow(out->p, &cap, out->n + 1, sizeof *out->p);
		out->len = xgrow(out->len, &cap2, out->n + 1, sizeof *out->len);
		out->p[out->n] = t + i;
		out->len[out->n++] = end - i;
		i = end;
	}
}

static bool same(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && memcmp(a->p[i], b->p[j], a->len[i]) == 0;
}

/* Edit script for a[a0..a0+n) against b[b0..b0+m): '=' '-' '+' per step,
 * written to s; returns its length, or 0 when it needs more edits than
 * DIFF_MAX_EDITS. */
static size_t myers(const struct lines *a, size_t a0, long n, const struct lines *b, size_t b0,
		    long m, char *s)
{
	long dmax = n + m < DIFF_MAX_EDITS ? n + m : DIFF_MAX_EDITS, off = dmax + 1, found = -1;
	long *v = xcalloc((size_t)(2 * dmax + 3), sizeof *v);
	long **trace = xcalloc((size_t)dmax + 1, sizeof *trace);
	for (long d = 0; d <= dmax && found < 0; d++) {
		trace[d] = xmalloc((size_t)(2 * d + 3) * sizeof **trace);
		memcpy(trace[d], v + off - d - 1, (size_t)(2 * d + 3) * sizeof **trace);
		for (long k = -d; k <= d; k += 2) {
			long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				 ? v[off + k + 1] : v[off + k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && same(a, a0 + (size_t)x, b, b0 + (size_t)y))
				x++, y++;
			v[off + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
	}
	size_t len = 0;
	if (found >= 0) {
		long x = n, y = m;
		for (long d = found; d > 0; d--) {
			const long *vp = trace[d] + d + 1; /* vp[k], k in [-d-1, d+1] */
			long k = x - y;
			long pk = (k == -d || (k != d && vp[k - 1] < vp[k + 1])) ? k + 1 : k - 1;
			long px = vp[pk], py = px - pk;
			while (x > px && y > py)
				s[len++] = '=', x--, y--;
			s[len++] = x == px ? '+' : '-';
			x = px;
			y = py;
		}
		while (x > 0 && y > 0)
			s[len++] = '=', x--, y--;
		for (size_t i = 0; i < len / 2; i++) {
			char t = s[i];
			s[i] = s[len - 1 - i];
			s[len - 1 - i] = t;
		}
	}
	for (long d = 0; d <= dmax; d++)
		free(trace[d]);
	free(trace);
	free(v);
	return len;
}

static void put_line(FILE *out, char mark, const char *p, size_t len)
{
	fputc(mark, out);
	fwrite(p, 1, len, out);
	if (!len || p[len - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

static void hunk(FILE *out, const char *s, size_t from, size_t to, const struct lines *a,
		 const struct lines *b, size_t ai, size_t bi)
{
	size_t an = 0, bn = 0;
	for (size_t i = from; i < to; i++) {
		an += s[i] != '+';
		bn += s[i] != '-';
	}
	fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", an ? ai + 1 : ai, an, bn ? bi + 1 : bi, bn);
	for (size_t i = from; i < to; i++) {
		if (s[i] == '=') {
			put_line(out, ' ', a->p[ai], a->len[ai]);
			ai++, bi++;
		} else if (s[i] == '-') {
			put_line(out, '-', a->p[ai], a->len[ai]);
			ai++;
		} else {
			put_line(out, '+', b->p[bi], b->len[bi]);
			bi++;
		}
	}
}

void fix_diff_texts(const char *path, const char *at, size_t alen, const char *bt, size_t blen,
		    FILE *out)
{
	struct lines a, b;
	split_lines(at, alen, &a);
	split_lines(bt, blen, &b);
	size_t pre = 0, suf = 0;
	while (pre < a.n && pre < b.n && same(&a, pre, &b, pre))
		pre++;
	while (suf < a.n - pre && suf < b.n - pre && same(&a, a.n - 1 - suf, &b, b.n - 1 - suf))
		suf++;
	size_t n = a.n - pre - suf, m = b.n - pre - suf;
	char *s = xmalloc(a.n + b.n + 1);
	memset(s, '=', pre);
	size_t len = myers(&a, pre, (long)n, &b, pre, (long)m, s + pre);
	if (!len && n + m) {
		memset(s + pre, '-', n);
		memset(s + pre + n, '+', m);
		len = n + m;
	}
	len += pre;
	memset(s + len, '=', suf);
	len += suf;
	fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
	size_t ai = 0, bi = 0, i = 0;
	while (i < len) {
		if (s[i] == '=') {
			ai++, bi++, i++;
			continue;
		}
		size_t from = i > DIFF_CONTEXT ? i - DIFF_CONTEXT : 0, last = i, j = i;
		for (; j < len; j++) {
			if (s[j] != '=')
				last = j;
			else if (j - last > 2 * DIFF_CONTEXT)
				break;
		}
		size_t to = last + 1 + DIFF_CONTEXT < len ? last + 1 + DIFF_CONTEXT : len;
		size_t back = i - from;
		hunk(out, s, from, to, &a, &b, ai - back, bi - back);
		for (size_t k = i; k < to; k++) {
			ai += s[k] != '+';
			bi += s[k] != '-';
		}
		i = to;
	}
	free(s);
	free(a.p);
	free(a.len);
	free(b.p);
	free(b.len);
}
