#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

int32_t utf8_decode(const char *s, size_t len, size_t *adv)
{
	const unsigned char *u = (const unsigned char *)s;
	*adv = 1;
	if (len == 0)
		return -1;
	if (u[0] < 0x80)
		return u[0];
	size_t n;
	int32_t cp, min;
	if ((u[0] & 0xe0) == 0xc0) {
		n = 2; cp = u[0] & 0x1f; min = 0x80;
	} else if ((u[0] & 0xf0) == 0xe0) {
		n = 3; cp = u[0] & 0x0f; min = 0x800;
	} else if ((u[0] & 0xf8) == 0xf0) {
		n = 4; cp = u[0] & 0x07; min = 0x10000;
	} else {
		return -1;
	}
	if (len < n)
		return -1;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (u[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*adv = n;
	return cp;
}

size_t utf8_count(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

size_t utf8_offset_of_col(const char *line, size_t len, uint32_t col)
{
	size_t off = 0;
	for (uint32_t c = 1; c < col && off < len; c++) {
		off++;
		while (off < len && ((unsigned char)line[off] & 0xc0) == 0x80)
			off++;
	}
	return off;
}

enum input_problem text_check_input(const char *s, size_t len, size_t *where)
{
	size_t i = 0;
	while (i < len) {
		/* eight ASCII bytes, none of them NUL, at a time: most text */
		uint64_t w;
		if (len - i >= 8) {
			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080u) &&
			    !((w - 0x0101010101010101u) & ~w & 0x8080808080808080u)) {
				i += 8;
				continue;
			}
		}
		unsigned char c = (unsigned char)s[i];
		if (c == 0) {
			*where = i;
			return INPUT_BINARY;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t adv;
		if (utf8_decode(s + i, len - i, &adv) < 0) {
			*where = i;
			return INPUT_BAD_UTF8;
		}
		i += adv;
	}
	return INPUT_OK;
}

/* Only the cells within limit + 1 of the diagonal are computed: a cell
 * off it is at least that far, and a distance up to limit + 1 never
 * leaves it, so every answer up to limit + 1 is exact (a caller may
 * accept limit + 1) and a larger one stays larger. Callers try a name
 * against hundreds (environment variables, flags), so the band, and a
 * row on the stack, are most of a lint's suggestion cost. */
static size_t banded_distance(const char *a, size_t alen, const char *b, size_t blen,
			      size_t limit)
{
	const size_t far = SIZE_MAX / 2, w = limit + 1;
	size_t stack_row[64];
	size_t *row = blen < 64 ? stack_row : xmalloc((blen + 1) * sizeof *row);
	/* row i - 1 is read up to column i - 1 + w, which it wrote */
	for (size_t j = 0; j <= blen && j <= w; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t lo = i > w ? i - w : 1, hi = i + w < blen ? i + w : blen;
		size_t diag = row[lo - 1], left = far, best = i;
		if (lo == 1)
			row[0] = left = i;
		for (size_t j = lo; j <= hi; j++) {
			size_t up = j == i + w ? far : row[j];
			int same = tolower((unsigned char)a[i - 1]) ==
				   tolower((unsigned char)b[j - 1]);
			size_t v = diag + !same;
			if (up + 1 < v)
				v = up + 1;
			if (left + 1 < v)
				v = left + 1;
			row[j] = left = v;
			diag = up;
			if (v < best)
				best = v;
		}
		if (best > limit) {
			if (row != stack_row)
				free(row);
			return limit + 1;
		}
	}
	size_t d = row[blen];
	if (row != stack_row)
		free(row);
	return d;
}

/* Most names a caller tries differ in length by more than the limit:
 * they are answered before a row is set up. */
size_t text_edit_distance(const char *a, size_t alen, const char *b,
			  size_t blen, size_t limit)
{
	if ((alen > blen ? alen - blen : blen - alen) > limit)
		return limit + 1;
	return banded_distance(a, alen, b, blen, limit);
}

/* Characters that render like ASCII punctuation but are not, so a config
 * or script that contains them looks right and fails. Sorted by code point. */
static const struct lookalike lookalikes[] = {
	{ 0x00a0, " ", "no-break space" },
	{ 0x00ad, "", "soft hyphen" },
	{ 0x2010, "-", "hyphen" },
	{ 0x2011, "-", "non-breaking hyphen" },
	{ 0x2012, "-", "figure dash" },
	{ 0x2013, "-", "en dash" },
	{ 0x2014, "-", "em dash" },
	{ 0x2015, "-", "horizontal bar" },
	{ 0x2018, "'", "left single quotation mark" },
	{ 0x2019, "'", "right single quotation mark" },
	{ 0x201c, "\"", "left double quotation mark" },
	{ 0x201d, "\"", "right double quotation mark" },
	{ 0x2212, "-", "minus sign" },
	{ 0xff0d, "-", "fullwidth hyphen-minus" },
};

const struct lookalike *text_lookalike(int32_t cp)
{
	size_t lo = 0, hi = sizeof lookalikes / sizeof lookalikes[0];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (lookalikes[mid].cp == cp)
			return &lookalikes[mid];
		if (lookalikes[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
