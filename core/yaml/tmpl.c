/* Finding the placeholders of a template and preparing the text the YAML
 * loader reads (tmpl.h): one pass, line by line. */
#include "tmpl.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "text.h"
#include "xalloc.h"

enum {
	TAG_LOOKAHEAD = 4096, /* bytes a {% tag may run over lines before it is none */
	NAME_MAX_LEN = 256,   /* longer "names" in angles or braces are not placeholders */
};

struct scan {
	const char *s;
	size_t len;
	const struct tmpl_defs *defs;
	unsigned flags;
	struct tmpl *t;
	struct buf out;   /* written from the first change on (see materialize) */
	bool writing;
	size_t pos;       /* original bytes before this are done */
	uint32_t line;
	/* Columns are counted only where something needs one (a placeholder,
	 * a replacement), forward from the last one counted on the line: most
	 * of a large config has none. */
	size_t col_pos;   /* a byte of the current line ... */
	uint32_t col_at;  /* ... and its code-point column, 0-based */
	int64_t out_delta; /* prepared minus original columns so far on the line */
	/* {% if %} arms open, innermost last; ifs past the depth budget */
	uint32_t stack[TMPL_MAX_DEPTH];
	unsigned depth, overflow;
	uint32_t n_ifs;
	int block_indent; /* the indent of the line that opened a block scalar, or -1 */
	size_t clean[3];     /* find_close's start for }}, %}, #} on this line */
	size_t tag_clean[2]; /* ... and for %}, #} of tag lines, over the text */
};

static bool is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* ---- output ------------------------------------------------------------ */

/* Most files are no template: the prepared text is written only from
 * the first change on, starting with the unchanged bytes before it, and
 * a file without one costs no copy. */
static void materialize(struct scan *sc)
{
	if (sc->writing)
		return;
	sc->writing = true;
	sc->t->changed = true;
	buf_put(&sc->out, sc->s, sc->pos);
}

/* The 0-based column of byte pos of the current line (pos at or after
 * the last asked). */
static uint32_t col_of(struct scan *sc, size_t pos)
{
	sc->col_at += (uint32_t)utf8_count(sc->s + sc->col_pos, pos - sc->col_pos);
	sc->col_pos = pos;
	return sc->col_at;
}

static void line_begin(struct scan *sc, size_t at)
{
	sc->col_pos = at;
	sc->col_at = 0;
	sc->out_delta = 0;
}

static void shift_add(struct scan *sc, uint32_t col, uint32_t cols, uint32_t orig_cols)
{
	struct tmpl *t = sc->t;
	t->shifts = xgrow(t->shifts, &t->cap_shifts, t->n_shifts + 1, sizeof *t->shifts);
	t->shifts[t->n_shifts++] = (struct tmpl_shift){
		sc->line, (uint32_t)(col + sc->out_delta) + 1, cols, col + 1, orig_cols,
	};
}

/* Copies original bytes [a, b) unchanged. */
static void copy(struct scan *sc, size_t a, size_t b)
{
	if (sc->writing)
		buf_put(&sc->out, sc->s + a, b - a);
	sc->pos = b;
}

/* Writes text in place of original bytes [a, b), columns col..end_col. */
static void replace(struct scan *sc, size_t a, size_t b, uint32_t col, uint32_t end_col,
		    const char *text, size_t len)
{
	(void)a;
	uint32_t orig = end_col - col;
	uint32_t now = (uint32_t)utf8_count(text, len);
	if (now != orig) {
		shift_add(sc, col, now, orig);
		sc->out_delta += (int64_t)now - orig;
	}
	materialize(sc);
	buf_put(&sc->out, text, len);
	sc->pos = b;
}

/* {{ x }} as (( x )): the same width, and nothing in it that YAML reads
 * as structure, so the value parses as one plain scalar. */
static void mask(struct scan *sc, size_t a, size_t b, uint32_t col, uint32_t end_col)
{
	struct buf m = BUF_INIT;
	for (size_t i = a; i < b; i++) {
		char c = sc->s[i];
		if (c == '{')
			c = '(';
		else if (c == '}')
			c = ')';
		else if (strchr(":#,[]\"'&*!|>%@`", c))
			c = '_';
		buf_putc(&m, c);
	}
	replace(sc, a, b, col, end_col, m.p, m.len);
	buf_free(&m);
}

/* ---- placeholders ------------------------------------------------------ */

/* Records the placeholder at bytes [a, b) and returns its columns. */
static void ph_add(struct scan *sc, size_t a, size_t b, size_t name, size_t name_len,
		   enum tmpl_style style, bool valued, uint32_t *col, uint32_t *end_col)
{
	struct tmpl *t = sc->t;
	*col = col_of(sc, a);
	*end_col = col_of(sc, b);
	t->ph = xgrow(t->ph, &t->cap_ph, t->n_ph + 1, sizeof *t->ph);
	t->ph[t->n_ph++] = (struct tmpl_ph){
		(uint32_t)a, (uint32_t)b, sc->line, *col + 1, *end_col + 1,
		(uint32_t)name, (uint32_t)name_len, (uint8_t)style, valued,
	};
	t->n_unvalued += !valued;
}

/* The end of the first `close` (two bytes) in [at, end), or 0. *clean
 * is where the search may start: no close begins before it (a failed
 * search moves it on), so that a line of a hundred thousand {{ without
 * a }} is scanned once, not once per {{. */
static size_t find_close(const char *s, size_t at, size_t end, const char *close,
			 size_t *clean)
{
	size_t i = at > *clean ? at : *clean;
	for (; i + 1 < end; i++)
		if (s[i] == close[0] && s[i + 1] == close[1])
			return i + 2;
	if (i > *clean)
		*clean = i;
	return 0;
}

/* Placeholder [a, b), named by len bytes at name: listed, and replaced by
 * its value when it has one; without, masked (a tag YAML cannot read)
 * or kept as written (text YAML reads as a plain string). */
enum unvalued { UNVALUED_MASKED, UNVALUED_KEPT };
static void placeholder(struct scan *sc, size_t a, size_t b, size_t name, size_t len,
			enum tmpl_style style, const char *value, enum unvalued otherwise)
{
	uint32_t c0, c1;
	ph_add(sc, a, b, name, len, style, value != NULL, &c0, &c1);
	if (value)
		replace(sc, a, b, c0, c1, value, strlen(value));
	else if (otherwise == UNVALUED_MASKED)
		mask(sc, a, b, c0, c1);
	else
		copy(sc, a, b);
}

/* {{ expr }} or an inline {% %} / {# #} at i; returns its end, or 0. */
static size_t jinja_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	char kind = s[i + 1];
	int k = kind == '{' ? 0 : kind == '%' ? 1 : 2;
	static const char *const closes[] = { "}}", "%}", "#}" };
	size_t stop = find_close(s, i + 2, end, closes[k], &sc->clean[k]);
	if (!stop)
		return 0;
	size_t a = i + 2, b = stop - 2;
	while (a < b && (s[a] == ' ' || s[a] == '-' || s[a] == '+'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '-' || s[b - 1] == '+'))
		b--;
	const char *value = kind == '{' ? tmpl_defs_get(sc->defs, s + a, b - a) : NULL;
	placeholder(sc, i, stop, a, b - a, kind == '{' ? TMPL_JINJA : TMPL_TAG, value, UNVALUED_MASKED);
	return stop;
}

/* ${NAME}, ${NAME:-default} or ${NAME-default} at i; its end, or 0. */
static size_t braced_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	size_t n = i + 2;
	if (n >= end || !text_is_name_start(s[n]))
		return 0;
	while (n < end && text_is_name_char(s[n]) && n - i < NAME_MAX_LEN)
		n++;
	size_t name_end = n, dflt = 0, dflt_end = 0;
	if (n < end && (s[n] == ':' || s[n] == '-')) {
		n += s[n] == ':' ? 1 : 0;
		if (n >= end || s[n] != '-')
			return 0;
		dflt = ++n;
		while (n < end && s[n] != '}' && n - i < NAME_MAX_LEN)
			n++;
		dflt_end = n;
	}
	if (n >= end || s[n] != '}')
		return 0;
	size_t stop = n + 1;
	const char *value = tmpl_defs_get(sc->defs, s + i + 2, name_end - i - 2);
	uint32_t c0, c1;
	ph_add(sc, i, stop, i + 2, name_end - i - 2, TMPL_BRACED, value || dflt, &c0, &c1);
	if (value)
		replace(sc, i, stop, c0, c1, value, strlen(value));
	else if (dflt)
		replace(sc, i, stop, c0, c1, s + dflt, dflt_end - dflt);
	else
		mask(sc, i, stop, c0, c1);
	return stop;
}

/* $NAME at i; its end, or 0. */
static size_t bare_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	size_t n = i + 1;
	if (n >= end || !text_is_name_start(s[n]) || (i > 0 && (s[i - 1] == '$' || s[i - 1] == '\\')))
		return 0;
	while (n < end && text_is_name_char(s[n]) && n - i < NAME_MAX_LEN)
		n++;
	placeholder(sc, i, n, i + 1, n - i - 1, TMPL_BARE, tmpl_defs_get(sc->defs, s + i + 1, n - i - 1),
		    UNVALUED_KEPT);
	return n;
}

/* <SOME TEXT> at i: words, digits and - _ . : / inside, at least one
 * letter, no space at either end; its end, or 0. */
static size_t angle_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	size_t n = i + 1;
	bool letter = false;
	while (n < end && n - i < NAME_MAX_LEN && s[n] != '>') {
		char c = s[n];
		if (!(text_is_name_char(c) || strchr(" -.:/", c)))
			return 0;
		letter |= text_is_name_start(c) && c != '_';
		n++;
	}
	if (n >= end || s[n] != '>' || !letter || s[i + 1] == ' ' || s[n - 1] == ' ')
		return 0;
	size_t stop = n + 1;
	placeholder(sc, i, stop, i + 1, n - i - 1, TMPL_ANGLE,
		    tmpl_defs_get(sc->defs, s + i + 1, n - i - 1), UNVALUED_KEPT);
	return stop;
}

/* {NAME} at i (not ${ or {{, not }}): a letter or _ first, then
 * letters, digits, _ - and .; its end, or 0. Unquoted, YAML reads it
 * as a flow mapping; a placeholder written so is masked. */
static size_t brace_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	size_t n = i + 1;
	if ((i > 0 && (s[i - 1] == '$' || s[i - 1] == '{')) || n >= end || !text_is_name_start(s[n]))
		return 0;
	while (n < end && (text_is_name_char(s[n]) || s[n] == '-' || s[n] == '.') && n - i < NAME_MAX_LEN)
		n++;
	if (n >= end || s[n] != '}' || (n + 1 < end && s[n + 1] == '}'))
		return 0;
	size_t stop = n + 1;
	placeholder(sc, i, stop, i + 1, n - i - 1, TMPL_BRACE,
		    tmpl_defs_get(sc->defs, s + i + 1, n - i - 1), UNVALUED_MASKED);
	return stop;
}

static bool starts_ci(const char *w, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	if (len < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((w[i] | 0x20) != (prefix[i] | 0x20))
			return false;
	return true;
}

/* Whether a word [w, w + len) says it is to be replaced. */
static bool placeholder_word(const char *w, size_t len)
{
	static const char *const words[] = { "CHANGEME", "CHANGE_ME", "REPLACE_ME", "REPLACEME", "FIXME" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (len == strlen(words[i]) && starts_ci(w, len, words[i]))
			return true;
	if (starts_ci(w, len, "PLACEHOLDER") || (len > 5 && !memcmp(w, "YOUR_", 5)))
		return true;
	size_t x = 0;
	while (x < len && (w[x] == 'X' || w[x] == 'x'))
		x++;
	if (x == len && len >= 4 && len <= 64)
		return true; /* XXXX, xxxxxxxx (a megabyte of x is no one's placeholder) */
	const char *second = len >= 7 && !memcmp(w, "XXX", 3) ? memmem(w + 4, len - 4, "XXX", 3) : NULL;
	return second && second + 3 == w + len; /* XXXqueueXXX */
}

/* The body of a made-up resource id that no EC2 id has (8 or 17 hex
 * digits): 0, 000, 1, 12, 123456, 1234567 (zeros, or counting up from
 * 0 or 1). A made-up id of a real id's length (subnet-12345678) passes
 * every check and stays a value, so that a change of it is still one. */
static bool dummy_id_body(const char *b, size_t len)
{
	if (!len || len >= 8)
		return false;
	bool zeros = true, counting = b[0] == '0' || b[0] == '1';
	for (size_t i = 0; i < len; i++) {
		zeros &= b[i] == '0';
		counting &= b[i] == (char)('0' + (b[0] - '0' + i) % 10);
	}
	return zeros || counting;
}

/* A word at i (at a word start) that says it is a placeholder, or the
 * body of a made-up id after one of EC2's id prefixes; its end, or 0. */
static size_t word_at(struct scan *sc, size_t i, size_t end)
{
	static const char *const id_prefixes[] = { "subnet", "sg", "ami", "vpc", "fs", "key", "cr", "lt", "pg" };
	const char *s = sc->s;
	size_t n = i;
	while (n < end && (text_is_name_char(s[n])))
		n++;
	size_t a = i, b = n;
	/* only these letters start a placeholder word or an id prefix */
	if (!strchr("PpYyCcRrFfXxSsAaVvKkLl", s[i]))
		return 0;
	bool found = placeholder_word(s + i, n - i);
	bool id = n < end && s[n] == '-' && n - i <= 6;
	for (size_t k = 0; !found && id && k < sizeof id_prefixes / sizeof id_prefixes[0]; k++) {
		size_t pl = strlen(id_prefixes[k]);
		if (n - i != pl || memcmp(s + i, id_prefixes[k], pl) || n >= end || s[n] != '-')
			continue;
		size_t body = n + 1, e = body;
		while (e < end && text_is_name_char(s[e]))
			e++;
		if (dummy_id_body(s + body, e - body) || placeholder_word(s + body, e - body)) {
			found = true;
			a = body, b = e;
		}
	}
	if (!found)
		return 0;
	/* the whole id is the placeholder: subnet-1234567 */
	placeholder(sc, i, b, a, b - a, TMPL_WORD, tmpl_defs_get(sc->defs, s + i, b - i), UNVALUED_KEPT);
	return b;
}

/* @NAME@ at i (autoconf's and many installers' form); its end, or 0.
 * YAML reserves @ at the start of a plain scalar, so it is masked. */
static size_t at_at(struct scan *sc, size_t i, size_t end)
{
	const char *s = sc->s;
	size_t n = i + 1;
	if (n >= end || !text_is_name_start(s[n]))
		return 0;
	while (n < end && text_is_name_char(s[n]) && n - i < NAME_MAX_LEN)
		n++;
	if (n >= end || s[n] != '@')
		return 0;
	placeholder(sc, i, n + 1, i + 1, n - i - 1, TMPL_BRACE,
		    tmpl_defs_get(sc->defs, s + i + 1, n - i - 1), UNVALUED_MASKED);
	return n + 1;
}

/* A look-alike character at i read as its ASCII; its end, or 0. */
static size_t fold_at(struct scan *sc, size_t i, size_t end)
{
	size_t adv;
	int32_t cp = utf8_decode(sc->s + i, end - i, &adv);
	const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
	if (!l)
		return 0;
	struct tmpl *t = sc->t;
	uint32_t c0 = col_of(sc, i), c1 = col_of(sc, i + adv);
	t->folds = xgrow(t->folds, &t->cap_folds, t->n_folds + 1, sizeof *t->folds);
	t->folds[t->n_folds++] = (struct tmpl_fold){
		(uint32_t)i, (uint32_t)(i + adv), sc->line, c0 + 1, cp,
	};
	replace(sc, i, i + adv, c0, c1, l->ascii, strlen(l->ascii));
	return i + adv;
}

/* Scans [a, b) of the current line for placeholders, copying the rest. */
static void scan_text(struct scan *sc, size_t a, size_t b)
{
	const char *s = sc->s;
	size_t plain = a; /* start of bytes not yet copied */
	sc->clean[0] = sc->clean[1] = sc->clean[2] = a;
	size_t i = a;
	while (i < b) {
		char c = s[i];
		size_t stop = 0;
		if (c == '{' && i + 1 < b && (s[i + 1] == '{' || s[i + 1] == '%' || s[i + 1] == '#')) {
			copy(sc, plain, i);
			stop = jinja_at(sc, i, b);
		} else if (c == '$' && i + 1 < b && !(sc->flags & TMPL_LITERAL_DOLLAR)) {
			copy(sc, plain, i);
			stop = s[i + 1] == '{' ? braced_at(sc, i, b) : bare_at(sc, i, b);
		} else if (c == '<' && i + 1 < b) {
			copy(sc, plain, i);
			stop = angle_at(sc, i, b);
		} else if (c == '{' && i + 1 < b) {
			copy(sc, plain, i);
			stop = brace_at(sc, i, b);
		} else if (c == '@' && i + 1 < b && (sc->flags & TMPL_WORDS)) {
			copy(sc, plain, i);
			stop = at_at(sc, i, b);
		} else if (text_is_name_char(c) && (i == a || !text_is_name_char(s[i - 1])) &&
			   (sc->flags & TMPL_WORDS)) {
			copy(sc, plain, i);
			stop = word_at(sc, i, b);
			if (!stop) { /* the whole word is plain */
				plain = i;
				while (i < b && text_is_name_char(s[i]))
					i++;
				continue;
			}
		} else if ((unsigned char)c >= 0x80 && (sc->flags & TMPL_FOLD)) {
			copy(sc, plain, i);
			stop = fold_at(sc, i, b);
		} else {
			i++;
			continue;
		}
		if (stop) {
			plain = i = stop;
		} else {
			plain = i;
			i++;
			while (i < b && is_cont(s[i]))
				i++;
		}
	}
	copy(sc, plain, b);
}

/* ---- lines ------------------------------------------------------------- */

/* Where a YAML comment starts in line [a, b), or b: a # at the start or
 * after a blank, outside quotes. */
static size_t comment_at(const char *p, size_t a, size_t b)
{
	char quote = 0;
	for (size_t i = a; i < b; i++) {
		if (quote) {
			if (p[i] == quote)
				quote = 0;
		} else if (p[i] == '"' || p[i] == '\'') {
			if (i == a || strchr(" \t:[{,-", p[i - 1]))
				quote = p[i];
		} else if (p[i] == '#' && (i == a || p[i - 1] == ' ' || p[i - 1] == '\t')) {
			return i;
		}
	}
	return b;
}

/* Whether content [a, b) ends by opening a block scalar (| or >, with
 * its indicators). */
static bool opens_block(const char *p, size_t a, size_t b)
{
	while (b > a && (p[b - 1] == ' ' || p[b - 1] == '\t'))
		b--;
	size_t ind = b;
	while (ind > a && b - ind < 2 && strchr("+-0123456789", p[ind - 1]))
		ind--;
	if (ind == a || (p[ind - 1] != '|' && p[ind - 1] != '>'))
		return false;
	return ind - 1 == a || p[ind - 2] == ' ' || p[ind - 2] == '\t';
}

static uint32_t arm_new(struct tmpl *t, uint32_t parent, uint32_t if_id, uint16_t arm)
{
	if (!t->n_arms) {
		t->arms = xgrow(t->arms, &t->cap_arms, 1, sizeof *t->arms);
		t->arms[t->n_arms++] = (struct tmpl_branch){ 0, 0, 0, 0 };
	}
	t->arms = xgrow(t->arms, &t->cap_arms, t->n_arms + 1, sizeof *t->arms);
	t->arms[t->n_arms] = (struct tmpl_branch){
		parent, if_id, arm, (uint16_t)(t->arms[parent].depth + 1),
	};
	return (uint32_t)t->n_arms++;
}

/* The {% if %} structure a tag changes; kw is its first word. */
static void tag_structure(struct scan *sc, const char *kw, size_t len)
{
	struct tmpl *t = sc->t;
	uint32_t cur = sc->depth ? sc->stack[sc->depth - 1] : 0;
	if (len == 2 && memcmp(kw, "if", 2) == 0) {
		if (sc->depth == TMPL_MAX_DEPTH) {
			sc->overflow++;
			t->too_deep = true;
			return;
		}
		if (!t->line_arm)
			t->line_arm = xcalloc(t->n_lines + 2, sizeof *t->line_arm);
		sc->stack[sc->depth++] = arm_new(t, cur, ++sc->n_ifs, 0);
	} else if ((len == 4 && memcmp(kw, "elif", 4) == 0) || (len == 4 && memcmp(kw, "else", 4) == 0)) {
		if (sc->overflow || !sc->depth)
			return;
		const struct tmpl_branch b = t->arms[cur];
		sc->stack[sc->depth - 1] = arm_new(t, b.parent, b.if_id, (uint16_t)(b.arm + 1));
	} else if (len == 5 && memcmp(kw, "endif", 5) == 0) {
		if (sc->overflow)
			sc->overflow--;
		else if (sc->depth)
			sc->depth--;
	}
}

/* A line that is only a {% %} or {# #} tag (which may run over the next
 * lines): blanked, its structure noted. Returns the end of its last line
 * (at the newline), or 0 when the line is not one. */
static size_t tag_line(struct scan *sc, size_t a, size_t line_end)
{
	const char *s = sc->s;
	if (a + 1 >= line_end || s[a] != '{' || (s[a + 1] != '%' && s[a + 1] != '#'))
		return 0;
	int k = s[a + 1] == '%' ? 0 : 1;
	size_t limit = a + TAG_LOOKAHEAD < sc->len ? a + TAG_LOOKAHEAD : sc->len;
	size_t stop = find_close(s, a + 2, limit, k ? "#}" : "%}", &sc->tag_clean[k]);
	if (!stop)
		return 0;
	size_t end = stop;
	while (end < sc->len && (s[end] == ' ' || s[end] == '\t' || s[end] == '\r'))
		end++;
	if (end < sc->len && s[end] != '\n') {
		sc->tag_clean[k] = stop - 1; /* a close with text after it ends no tag line */
		return 0;
	}
	if (s[a + 1] == '%') {
		size_t k = a + 2;
		while (k < stop && (s[k] == '-' || s[k] == '+' || s[k] == ' ' || s[k] == '\t'))
			k++;
		size_t kw = k;
		while (k < stop && s[k] >= 'a' && s[k] <= 'z')
			k++;
		tag_structure(sc, s + kw, k - kw);
	}
	return end;
}

/* Blanks bytes [a, b) but their line breaks: the lines stay where they
 * were, with no content. */
static void blank(struct scan *sc, size_t a, size_t b)
{
	materialize(sc);
	for (size_t i = a; i < b; i++) {
		char c = sc->s[i];
		if (c == '\n') {
			buf_putc(&sc->out, '\n');
			sc->line++;
			if (sc->t->line_arm)
				sc->t->line_arm[sc->line] = sc->depth ? sc->stack[sc->depth - 1] : 0;
		} else {
			buf_putc(&sc->out, c == '\r' ? '\r' : ' ');
		}
	}
	sc->pos = b;
}

/* Whether the line at [a, b) with content at indent `ind` starts a key
 * of a block mapping: `name:` then a blank or the end. */
static bool key_line(const char *s, size_t ind, size_t b)
{
	if (ind >= b || s[ind] == '-' || s[ind] == '#')
		return false;
	for (size_t i = ind; i < b; i++) {
		if (s[i] == ':' && (i + 1 == b || s[i + 1] == ' ' || s[i + 1] == '\r'))
			return true;
		if (s[i] == ' ' && (i + 1 < b && s[i + 1] == '#'))
			return false;
	}
	return false;
}

/* Whether a line of `width` indent at [a, b) is among the keys of a
 * block mapping: the nearest line before or after it at that indent
 * (deeper ones skipped, a shallower one ends the search) is a key. */
static bool among_keys(const char *s, size_t len, size_t a, size_t b, size_t width)
{
	for (int dir = -1; dir <= 1; dir += 2) {
		size_t at = dir < 0 ? a : b;
		for (int seen = 0; seen < 256; seen++) {
			size_t ls, le;
			if (dir < 0) {
				if (at == 0)
					break;
				le = at - 1;
				ls = le;
				while (ls > 0 && s[ls - 1] != '\n')
					ls--;
				at = ls;
			} else {
				if (at >= len)
					break;
				ls = at + 1;
				le = ls;
				while (le < len && s[le] != '\n')
					le++;
				at = le;
			}
			size_t ind = ls;
			while (ind < le && s[ind] == ' ')
				ind++;
			if (ind >= le || s[ind] == '#' || s[ind] == '\r')
				continue; /* blank or comment */
			if (ind - ls > width)
				continue;
			if (ind - ls < width)
				break;
			if (key_line(s, ind, le))
				return true;
			break;
		}
	}
	return false;
}

/* A line that is one placeholder among the keys of a mapping stands for
 * the keys an installer writes there: its last byte becomes the ':' of
 * a key that is a placeholder, the same width. */
static void placeholder_as_key(struct scan *sc, size_t a, size_t ind, size_t end, size_t n_before)
{
	struct tmpl *t = sc->t;
	while (end > ind && (sc->s[end - 1] == ' ' || sc->s[end - 1] == '\t' || sc->s[end - 1] == '\r'))
		end--;
	if (t->n_ph != n_before + 1 || t->ph[n_before].start != ind || t->ph[n_before].end != end ||
	    t->ph[n_before].valued || !among_keys(sc->s, sc->len, a, end, ind - a))
		return;
	materialize(sc);
	size_t back = sc->pos - end; /* bytes after the placeholder already written */
	sc->out.p[sc->out.len - back - 1] = ':';
}

static void scan_line(struct scan *sc, size_t a, size_t b)
{
	const char *s = sc->s;
	line_begin(sc, a);
	size_t ind = a;
	while (ind < b && s[ind] == ' ')
		ind++;
	if (sc->t->line_arm)
		sc->t->line_arm[sc->line] = sc->depth ? sc->stack[sc->depth - 1] : 0;
	bool blank_line = ind == b || (ind + 1 == b && s[ind] == '\r');
	if (sc->block_indent >= 0 && (blank_line || (int)(ind - a) > sc->block_indent)) {
		scan_text(sc, a, b); /* block scalar content: no comments */
		return;
	}
	sc->block_indent = -1;
	size_t c = comment_at(s, a, b);
	size_t n_before = sc->t->n_ph;
	scan_text(sc, a, c);
	if (ind < c)
		placeholder_as_key(sc, a, ind, c, n_before);
	copy(sc, c, b);
	if (opens_block(s, a, c))
		sc->block_indent = (int)(ind - a);
}

/* Whether text may hold a word placeholder or a made-up id: the rare
 * words by memmem, and each id of a prefix looked at where it stands, so
 * that a large config full of real ids costs no scan (one fast pass a
 * pattern). */
static bool maybe_words(const char *s, size_t len)
{
	static const char *const words[] = {
		"PLACEHOLDER", "laceholder", "XXX", "xxxx", "YOUR_", "CHANGE", "REPLACE", "FIXME",
	};
	static const char *const ids[] = { "subnet-", "sg-", "ami-", "vpc-", "fs-", "key-", "cr-", "lt-", "pg-" };
	const char *end = s + len;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (memmem(s, len, words[i], strlen(words[i])))
			return true;
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		size_t n = strlen(ids[i]);
		for (const char *p = s; (p = memmem(p, (size_t)(end - p), ids[i], n)); p += n) {
			if (p > s && text_is_name_char(p[-1]))
				continue;
			const char *b = p + n, *e = b;
			while (e < end && text_is_name_char(*e))
				e++;
			if (dummy_id_body(b, (size_t)(e - b)))
				return true;
		}
	}
	for (const char *p = s; (p = memchr(p, '@', (size_t)(end - p))); p++)
		if (p + 1 < end && text_is_name_start(p[1]))
			return true;
	return false;
}

/* Whether text may hold a placeholder, a tag or (with TMPL_FOLD) a
 * look-alike at all: memchr jumps over a large config that has none,
 * which is most of them, without the scan. */
static bool maybe_template(const char *s, size_t len, unsigned flags)
{
	if (!(flags & TMPL_LITERAL_DOLLAR) && memchr(s, '$', len))
		return true;
	for (const char *p = s, *end = s + len; (p = memchr(p, '{', (size_t)(end - p))); p++)
		if (p + 1 < end && (p[1] == '{' || p[1] == '%' || p[1] == '#' || text_is_name_start(p[1])))
			return true; /* {{ }}, {% %}, {# #}, {NAME} */
	for (const char *p = s, *end = s + len; (p = memchr(p, '<', (size_t)(end - p))); p++)
		if (p + 1 < end && text_is_name_char(p[1]))
			return true;
	for (size_t i = 0; (flags & TMPL_FOLD) && i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return true;
	return (flags & TMPL_WORDS) && maybe_words(s, len);
}

void tmpl_prepare(const char *text, size_t len, const struct tmpl_defs *defs, unsigned flags,
		  struct tmpl *out)
{
	memset(out, 0, sizeof *out);
	if (!maybe_template(text, len, flags)) {
		out->orig = text;
		out->orig_len = out->len = len;
		return;
	}
	struct scan sc = { .s = text, .len = len, .defs = defs, .flags = flags, .t = out,
			   .line = 1, .block_indent = -1 };
	out->n_lines = 1;
	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p))); p++)
		out->n_lines++;
	size_t at = 0;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		at = sc.pos = 3; /* no column: the loader skips it too */
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t ind = at;
		while (ind < end && (text[ind] == ' ' || text[ind] == '\t'))
			ind++;
		size_t tag_end = sc.block_indent < 0 ? tag_line(&sc, ind, end) : 0;
		if (tag_end) {
			if (!out->n_tag_lines++)
				out->first_tag_line = sc.line;
			blank(&sc, at, tag_end);
			at = tag_end;
			continue;
		}
		scan_line(&sc, at, end);
		if (end < len) {
			copy(&sc, end, end + 1);
			sc.line++;
		}
		at = end + 1;
	}
	out->orig = text;
	out->orig_len = len;
	if (sc.writing) {
		out->len = sc.out.len;
		out->text = buf_detach(&sc.out);
	} else {
		out->len = len;
	}
}

const char *tmpl_text(const struct tmpl *t)
{
	return t->text ? t->text : t->orig;
}

void tmpl_free(struct tmpl *t)
{
	free(t->text);
	free(t->ph);
	free(t->shifts);
	free(t->folds);
	free(t->line_arm);
	free(t->arms);
	memset(t, 0, sizeof *t);
}

bool tmpl_exclusive(const struct tmpl *t, uint32_t a, uint32_t b)
{
	if (!t || !t->line_arm || !a || !b || a > t->n_lines || b > t->n_lines)
		return false;
	uint32_t x = t->line_arm[a], y = t->line_arm[b];
	while (x != y) {
		const struct tmpl_branch *bx = &t->arms[x], *by = &t->arms[y];
		if (bx->depth == by->depth && bx->parent == by->parent)
			return bx->if_id == by->if_id && bx->arm != by->arm;
		if (bx->depth >= by->depth)
			x = bx->parent;
		else
			y = by->parent;
	}
	return false;
}
