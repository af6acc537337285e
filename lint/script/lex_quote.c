/* Quotes and expansions inside a shell word, for the lexer: where a
 * quoted string, $( ), ${ }, $(( )) or backquote ends, and what a literal
 * run means once its quotes and escapes are removed. Nesting is followed
 * with an explicit stack bounded by the depth limit, never recursion. */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

#define MAX_STACK 256

uint32_t lex_line_of(struct lexer *lx, size_t off)
{
	uint32_t line, col;
	sbm_locate(lx->m, off, &line, &col);
	return line;
}

void lex_fail(struct lexer *lx, enum sb_problem_kind kind, size_t off, size_t end,
		 const char *msg)
{
	if (!lx->failed)
		sbm_problem(lx->m, kind, off, end, msg);
	lx->failed = true;
}

/* Lines strictly after the first line of [off, end) lie inside a string. */
void lex_mark_string_lines(struct lexer *lx, size_t off, size_t end)
{
	if (!memchr(lx->s + off, '\n', end - off))
		return;
	uint32_t a = lex_line_of(lx, off), b = lex_line_of(lx, end);
	for (uint32_t l = a + 1; l <= b; l++)
		sbm_mark_line(lx->m, l, SB_LINE_STRING);
}

size_t lex_skip_single(const struct lexer *lx, size_t p)
{
	const char *q = memchr(lx->s + p, '\'', lx->end - p);
	return q ? (size_t)(q - lx->s) + 1 : SIZE_MAX;
}

size_t lex_skip_ansi(const struct lexer *lx, size_t p)
{
	while (p < lx->end) {
		if (lx->s[p] == '\\')
			p += 2;
		else if (lx->s[p] == '\'')
			return p + 1;
		else
			p++;
	}
	return SIZE_MAX;
}

static size_t lex_skip_backtick(const struct lexer *lx, size_t p)
{
	while (p < lx->end) {
		if (lx->s[p] == '\\')
			p += 2;
		else if (lx->s[p] == '`')
			return p + 1;
		else
			p++;
	}
	return SIZE_MAX;
}

/* Finds the end of a construct opened just before p: the position after
 * its closer, or SIZE_MAX when the input ends first or nests too deep. */
size_t lex_skip_balanced(struct lexer *lx, size_t p, int kind)
{
	uint8_t st[MAX_STACK];
	size_t limit = lx->m->lim.max_depth < MAX_STACK ? lx->m->lim.max_depth : MAX_STACK;
	size_t d = 0;
	st[d++] = (uint8_t)kind;
#define PUSH(k)                                                                        \
	do {                                                                           \
		if (d >= limit) {                                                      \
			lex_fail(lx, SB_PROB_LIMIT, p, p + 1, "nesting deeper than the limit"); \
			return SIZE_MAX;                                               \
		}                                                                      \
		st[d++] = (k);                                                         \
	} while (0)
	while (p < lx->end) {
		char c = lx->s[p];
		int top = st[d - 1];
		if (top == SK_DQ || top == SK_BT) {
			if (c == '\\') {
				p += 2;
			} else if ((top == SK_DQ && c == '"') || (top == SK_BT && c == '`')) {
				d--, p++;
				if (!d)
					return p;
			} else if (top == SK_DQ && c == '`') {
				PUSH(SK_BT);
				p++;
			} else if (top == SK_DQ && c == '$' && p + 1 < lx->end &&
				   (lx->s[p + 1] == '(' || lx->s[p + 1] == '{')) {
				bool arith = lx->s[p + 1] == '(' && p + 2 < lx->end && lx->s[p + 2] == '(';
				PUSH(arith ? SK_ARITH : lx->s[p + 1] == '(' ? SK_PAREN : SK_BRACE);
				p += arith ? 3 : 2;
			} else {
				p++;
			}
			continue;
		}
		switch (c) {
		case '\\':
			p += 2;
			continue;
		case '\'':
			/* Inside "${...}" a single quote is an ordinary character. */
			if (top == SK_BRACE && d >= 2 && st[d - 2] == SK_DQ) {
				p++;
				continue;
			}
			p = lex_skip_single(lx, p + 1);
			if (p == SIZE_MAX)
				return SIZE_MAX;
			continue;
		case '"':
			PUSH(SK_DQ);
			p++;
			continue;
		case '`':
			PUSH(SK_BT);
			p++;
			continue;
		case '$':
			if (p + 1 < lx->end && lx->s[p + 1] == '\'') {
				p = lex_skip_ansi(lx, p + 2);
				if (p == SIZE_MAX)
					return SIZE_MAX;
			} else if (p + 1 < lx->end && (lx->s[p + 1] == '(' || lx->s[p + 1] == '{')) {
				bool arith = lx->s[p + 1] == '(' && p + 2 < lx->end && lx->s[p + 2] == '(';
				PUSH(arith ? SK_ARITH : lx->s[p + 1] == '(' ? SK_PAREN : SK_BRACE);
				p += arith ? 3 : 2;
			} else {
				p++;
			}
			continue;
		case '(':
			if (top != SK_BRACE)
				PUSH(SK_PAREN);
			p++;
			continue;
		case ')':
			if (top == SK_PAREN || top == SK_ARITH) {
				p += (top == SK_ARITH && p + 1 < lx->end && lx->s[p + 1] == ')') ? 2 : 1;
				if (!--d)
					return p;
			} else {
				p++;
			}
			continue;
		case '}':
			p++;
			if (top == SK_BRACE && !--d)
				return p;
			continue;
		case '#':
			if (top == SK_PAREN && p > 0 && strchr(" \t\n;&|(", lx->s[p - 1])) {
				while (p < lx->end && lx->s[p] != '\n')
					p++;
				continue;
			}
			p++;
			continue;
		default:
			p++;
		}
	}
#undef PUSH
	return SIZE_MAX;
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
	p->text = lex_lit_value(lx->m, quote, lx->s + off, end - off, &p->tlen);
}

/* ---- expansions ---- */

/* ${...} with content [a, b). */
static void parse_brace(struct lexer *lx, size_t start, size_t a, size_t b, char quote)
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
	if (i < b && sb_is_name_start((unsigned char)s[i])) {
		while (i < b && sb_is_name_char((unsigned char)s[i]))
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
	bool special = p->text && !sb_is_name_start((unsigned char)p->text[0]);
	if (op || subscript || !p->text)
		p->kind = WP_PARAM_OP;
	else if (special)
		p->kind = WP_SPECIAL;
}

/* A '$' at p; returns the position after the expansion. */
size_t lex_scan_dollar(struct lexer *lx, size_t p, char quote)
{
	const char *s = lx->s;
	size_t q = p + 1;
	if (q >= lx->end) {
		lex_add_lit(lx, quote, p, q);
		return q;
	}
	char c = s[q];
	if (c == '(') {
		if (q + 1 < lx->end && s[q + 1] == '(') {
			size_t e = lex_skip_balanced(lx, q + 2, SK_ARITH);
			if (e != SIZE_MAX && s[e - 1] == ')' && s[e - 2] == ')') {
				struct wpart *w = lex_add_part(lx, WP_ARITH, quote, p, e);
				w->in_off = q + 2, w->in_end = e - 2;
				return e;
			}
			if (lx->failed)
				return lx->end;
		}
		size_t e = lex_skip_balanced(lx, q + 1, SK_PAREN);
		if (e == SIZE_MAX) {
			lex_fail(lx, SB_PROB_UNTERMINATED_EXPANSION, p, q + 1, "$( without its closing )");
			lex_add_part(lx, WP_CMDSUB, quote, p, lx->end);
			return lx->end;
		}
		struct wpart *w = lex_add_part(lx, WP_CMDSUB, quote, p, e);
		w->in_off = q + 1, w->in_end = e - 1;
		return e;
	}
	if (c == '[') {
		const char *close = memchr(s + q, ']', lx->end - q);
		if (close) {
			size_t e = (size_t)(close - s) + 1;
			struct wpart *w = lex_add_part(lx, WP_ARITH, quote, p, e);
			w->in_off = q + 1, w->in_end = e - 1;
			return e;
		}
	}
	if (c == '{') {
		size_t e = lex_skip_balanced(lx, q + 1, SK_BRACE);
		if (e == SIZE_MAX) {
			lex_fail(lx, SB_PROB_UNTERMINATED_EXPANSION, p, q + 1, "${ without its closing }");
			lex_add_part(lx, WP_PARAM_OP, quote, p, lx->end);
			return lx->end;
		}
		parse_brace(lx, p, q + 1, e - 1, quote);
		return e;
	}
	if (sb_is_name_start((unsigned char)c)) {
		size_t e = q;
		while (e < lx->end && sb_is_name_char((unsigned char)s[e]))
			e++;
		struct wpart *w = lex_add_part(lx, WP_PARAM, quote, p, e);
		w->text = sbm_strndup(lx->m, s + q, e - q);
		w->tlen = e - q;
		return e;
	}
	if ((c >= '0' && c <= '9') || strchr("@*#?$!-", c)) {
		struct wpart *w = lex_add_part(lx, WP_SPECIAL, quote, p, q + 1);
		w->text = sbm_strndup(lx->m, s + q, 1);
		w->tlen = 1;
		return q + 1;
	}
	lex_add_lit(lx, quote, p, q);
	return q;
}

size_t lex_scan_backtick(struct lexer *lx, size_t p, char quote)
{
	size_t e = lex_skip_backtick(lx, p + 1);
	if (e == SIZE_MAX) {
		lex_fail(lx, SB_PROB_UNTERMINATED_QUOTE, p, p + 1, "` without its closing `");
		lex_add_part(lx, WP_BACKTICK, quote, p, lx->end);
		return lx->end;
	}
	struct wpart *w = lex_add_part(lx, WP_BACKTICK, quote, p, e);
	w->in_off = p + 1, w->in_end = e - 1;
	lex_mark_string_lines(lx, p, e);
	return e;
}

/* Double-quoted text from p (after the quote); returns the position after
 * the closing quote. */
size_t lex_scan_dq_body(struct lexer *lx, size_t open, size_t p, bool closed)
{
	size_t run = p, parts = lx->tmp.len;
	while (p < lx->end) {
		char c = lx->s[p];
		if (c == '"' && closed) {
			if (p > run || lx->tmp.len == parts)
				lex_add_lit(lx, '"', run, p);
			lex_mark_string_lines(lx, open, p);
			return p + 1;
		}
		if (c == '\\') {
			p += 2;
		} else if (c == '$' || c == '`') {
			if (p > run)
				lex_add_lit(lx, '"', run, p);
			p = c == '$' ? lex_scan_dollar(lx, p, '"') : lex_scan_backtick(lx, p, '"');
			run = p;
			if (lx->failed)
				return lx->end;
		} else {
			p++;
		}
	}
	if (closed)
		lex_fail(lx, SB_PROB_UNTERMINATED_QUOTE, open, open + 1, "\" without its closing \"");
	if (run < lx->end || lx->tmp.len == parts)
		lex_add_lit(lx, '"', run, lx->end);
	return lx->end;
}

size_t lex_scan_dquote(struct lexer *lx, size_t open, size_t p)
{
	return lex_scan_dq_body(lx, open, p, true);
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
