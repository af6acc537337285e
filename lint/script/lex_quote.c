/* What the parts of a shell word mean: a literal run once its quotes and
 * escapes are removed, a ${ } with its name and operator, a word cut at
 * a raw offset; and the lexer's problem and line bookkeeping. Where each
 * part ends is lex_word.c's. */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

uint32_t lex_line_of(struct lexer *lx, size_t off)
{
	return sbm_line_of(lx->m, off);
}

size_t lex_line_after(const struct lexer *lx, size_t off)
{
	for (;;) {
		const char *nl = memchr(lx->s + off, '\n', lx->end - off);
		if (!nl)
			return SIZE_MAX;
		size_t at = (size_t)(nl - lx->s), k = 0;
		while (k < at - off && lx->s[at - 1 - k] == '\\')
			k++;
		if (k % 2 == 0)
			return at + 1;
		off = at + 1;
	}
}

void lex_fail(struct lexer *lx, enum sb_problem_kind kind, size_t off, size_t end,
		 const char *msg)
{
	if (!lx->failed && !lx->quiet) {
		sbm_problem(lx->m, kind, off, end, msg);
		/* what the construct swallowed was never read: the list goes
		 * on at the line after its opener (and after the lines that
		 * continue it: they are words of the same command) */
		lx->err_resume = lex_line_after(lx, off);
	}
	lx->failed = true;
}

/* Lines strictly after the first line of [off, end) lie inside a string. */
void lex_mark_string_lines(struct lexer *lx, size_t off, size_t end)
{
	if (end <= off || !memchr(lx->s + off, '\n', end - off))
		return; /* one line, or read out of order (lex_after_newline) */
	uint32_t a = lex_line_of(lx, off), b = lex_line_of(lx, end);
	for (uint32_t l = a + 1; l <= b; l++)
		sbm_mark_line(lx->m, l, SB_LINE_STRING);
}

/* ---- literal values ---- */

static void put_ansi_escape(struct buf *b, const char *s, size_t n, size_t *i)
{
	static const char from[] = "ntrabefv\\'\"?E";
	static const char to[] = "\n\t\r\a\b\033\f\v\\'\"?\033";
	char c = s[*i];
	const char *k = strchr(from, c);
	if (c && k) {
		buf_putc(b, to[k - from]);
		return;
	}
	if (c == 'x') {
		unsigned v = 0, digits = 0;
		while (digits < 2 && *i + 1 < n && strchr("0123456789abcdefABCDEF", s[*i + 1])) {
			char h = s[++*i];
			v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
			digits++;
		}
		if (digits) {
			buf_putc(b, (char)v);
			return;
		}
	}
	buf_putc(b, '\\');
	buf_putc(b, c);
}

/* The value of a literal run written raw[0..n) in the given quoting. */
static char *lex_lit_value(sb_model *m, char quote, const char *raw, size_t n, size_t *len)
{
	if (quote == '\'' || !memchr(raw, '\\', n)) {
		*len = n;
		return sbm_strndup(m, raw, n);
	}
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		char c = raw[i];
		if (c != '\\' || i + 1 >= n) {
			buf_putc(&b, c);
			continue;
		}
		char next = raw[++i];
		if (next == '\n' && quote != '$')
			continue;
		if (quote == 0)
			buf_putc(&b, next);
		else if (quote == '"' && strchr("$`\"\\", next))
			buf_putc(&b, next);
		else if (quote == '$')
			put_ansi_escape(&b, raw, n, &i);
		else {
			buf_putc(&b, '\\');
			buf_putc(&b, next);
		}
	}
	*len = b.len;
	char *v = sbm_strndup(m, b.p ? b.p : "", b.len);
	buf_free(&b);
	return v;
}

struct wpart *lex_add_part(struct lexer *lx, uint8_t kind, char quote, size_t off, size_t end)
{
	struct wpart p = { 0 };
	/* a part that went back to the rest of a line after a here-document
	 * (lex_after_newline) ends before it starts: it holds no text */
	if (end < off)
		end = off;
	p.kind = kind;
	p.quote = quote;
	p.off = off;
	p.end = end;
	VEC_PUSH(lx->tmp, p);
	return &lx->tmp.v[lx->tmp.len - 1];
}

void lex_add_lit(struct lexer *lx, char quote, size_t off, size_t end)
{
	struct wpart *p = lex_add_part(lx, WP_LIT, quote, off, end);
	p->text = lex_lit_value(lx->m, quote, lx->s + off, p->end - off, &p->tlen);
}

/* ---- expansions ---- */

/* ${...} with content [a, b). */
void lex_add_brace(struct lexer *lx, size_t start, size_t a, size_t b, char quote)
{
	const char *s = lx->s;
	struct wpart *p = lex_add_part(lx, WP_PARAM, quote, start, b + 1);
	p->in_off = a;
	p->in_end = b;
	size_t i = a;
	bool op = false;
	if (i < b && (s[i] == '#' || s[i] == '!') && i + 1 < b) {
		op = true;
		i++;
	}
	size_t name = i;
	if (i < b && text_is_name_start((unsigned char)s[i])) {
		while (i < b && text_is_name_char((unsigned char)s[i]))
			i++;
	} else if (i < b && s[i] >= '0' && s[i] <= '9') {
		while (i < b && s[i] >= '0' && s[i] <= '9')
			i++;
	} else if (i < b && strchr("@*#?$!-", s[i])) {
		i++;
	}
	if (i > name) {
		p->text = sbm_strndup(lx->m, s + name, i - name);
		p->tlen = i - name;
	}
	bool subscript = false;
	if (i < b && s[i] == '[') {
		const char *close = memchr(s + i, ']', b - i);
		if (close) {
			size_t in = (size_t)(close - s) - i - 1;
			p->array_all = in == 1 && (s[i + 1] == '@' || s[i + 1] == '*');
			subscript = true;
			i = (size_t)(close - s) + 1;
		}
	}
	if (i < b) {
		op = true;
		if (s[i] == ':' && i + 1 < b && s[i + 1] == '=') {
			p->op = WOP_DEFAULT_ASSIGN;
			p->in_off = i + 2;
		} else if (s[i] == '=') {
			p->op = WOP_DEFAULT_ASSIGN;
			p->in_off = i + 1;
		} else {
			p->op = WOP_OTHER;
		}
	} else if (op) {
		p->op = WOP_OTHER;
	}
	bool special = p->text && !text_is_name_start((unsigned char)p->text[0]);
	if (op || subscript || !p->text)
		p->kind = WP_PARAM_OP;
	else if (special)
		p->kind = WP_SPECIAL;
}

/* The part of w from raw offset a to b, as a word of its own: the value
 * after "--flag=" or "NAME=", or one field of a split variable. Literal
 * parts are cut (their values recomputed from the raw text); expansions
 * are kept whole or dropped, never cut. */
sb_word *sbl_word_sub(sb_model *m, const sb_word *w, size_t a, size_t b)
{
	if (a < w->off)
		a = w->off;
	if (b > w->end)
		b = w->end;
	if (a > b) /* a cut past the end of a word cut short (an open quote) */
		a = b;
	sb_word *n = sbm_alloc(m, sizeof *n);
	n->m = m;
	n->off = a;
	n->end = b;
	n->flags = w->flags & (SB_W_GLOB | SB_W_BRACE);
	n->parts = sbm_alloc(m, (w->nparts ? w->nparts : 1) * sizeof *n->parts);
	for (unsigned i = 0; i < w->nparts; i++) {
		struct wpart p = w->parts[i];
		if (p.kind != WP_LIT) {
			if (p.off >= a && p.end <= b)
				n->parts[n->nparts++] = p;
			continue;
		}
		size_t lo = p.off > a ? p.off : a, hi = p.end < b ? p.end : b;
		if (lo > hi || (lo == hi && !(p.off == p.end && p.off >= a && p.off <= b)))
			continue;
		if (lo != p.off || hi != p.end) {
			p.off = lo;
			p.end = hi;
			p.text = lex_lit_value(m, p.quote, m->text + lo, hi - lo, &p.tlen);
		}
		n->parts[n->nparts++] = p;
	}
	sbl_word_finish(m, n);
	return n;
}
