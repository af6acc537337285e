/* Words of the batch-script model: what a word is once its parts are
 * known (literal value, flags, the variables it reads), and the
 * accessors rules use. */
#include "lex.h"

#include <string.h>

#include "buf.h"
#include "xalloc.h"

#define MAX_REFS 64

struct refs {
	const char *v[MAX_REFS];
	unsigned n;
};

static void add_ref(sb_model *m, struct refs *r, const char *s, size_t n)
{
	for (unsigned i = 0; i < r->n; i++)
		if (strlen(r->v[i]) == n && memcmp(r->v[i], s, n) == 0)
			return;
	if (r->n < MAX_REFS)
		r->v[r->n++] = sbm_strndup(m, s, n);
}

/* Variables read inside $( ), ` `, $(( )) or an operator's operand:
 * $NAME and ${NAME...}, and in arithmetic also bare names. Single-quoted
 * text reads nothing. */
static void scan_refs(sb_model *m, size_t a, size_t b, bool arith, struct refs *r)
{
	const char *s = m->text;
	for (size_t i = a; i < b; i++) {
		char c = s[i];
		if (c == '\\') {
			i++;
		} else if (c == '\'' && !arith) {
			const char *q = memchr(s + i + 1, '\'', b - i - 1);
			if (!q)
				return;
			i = (size_t)(q - s);
		} else if (c == '$' || (arith && text_is_name_start((unsigned char)c) &&
					(i == a || !text_is_name_char((unsigned char)s[i - 1])))) {
			size_t n = c == '$' ? i + 1 : i;
			if (c == '$' && n < b && s[n] == '{') {
				n++;
				if (n < b && (s[n] == '#' || s[n] == '!'))
					n++;
			}
			size_t e = n;
			while (e < b && text_is_name_char((unsigned char)s[e]))
				e++;
			if (e > n && text_is_name_start((unsigned char)s[n]))
				add_ref(m, r, s + n, e - n);
			i = e > i ? e - 1 : i;
		}
	}
}

void sbl_word_finish(sb_model *m, sb_word *w)
{
	struct refs r = { .n = 0 };
	bool expansion = false;
	for (unsigned i = 0; i < w->nparts; i++) {
		const struct wpart *p = &w->parts[i];
		if (p->quote)
			w->flags |= SB_W_QUOTED;
		switch (p->kind) {
		case WP_LIT:
			continue;
		case WP_PARAM:
			add_ref(m, &r, p->text, p->tlen);
			break;
		case WP_PARAM_OP:
			if (p->text && text_is_name_start((unsigned char)p->text[0]))
				add_ref(m, &r, p->text, p->tlen);
			if (p->in_end > p->in_off)
				scan_refs(m, p->in_off, p->in_end, false, &r);
			break;
		case WP_CMDSUB:
		case WP_BACKTICK:
		case WP_PROCSUB:
			w->flags |= SB_W_CMDSUB;
			scan_refs(m, p->in_off, p->in_end, false, &r);
			break;
		case WP_ARITH:
			scan_refs(m, p->in_off, p->in_end, true, &r);
			break;
		case WP_TEMPLATE:
			w->flags |= SB_W_OPAQUE;
			break;
		default:
			break;
		}
		expansion = true;
	}
	if (expansion) {
		w->flags |= SB_W_EXPANSION;
		w->value = NULL;
	} else {
		struct buf b = BUF_INIT;
		for (unsigned i = 0; i < w->nparts; i++)
			buf_put(&b, w->parts[i].text, w->parts[i].tlen);
		w->value = sbm_strndup(m, b.p ? b.p : "", b.len);
		buf_free(&b);
	}
	if (w->nparts == 1 && w->parts[0].kind == WP_PARAM)
		w->var = w->parts[0].text;
	if (r.n) {
		w->refs = sbm_alloc(m, r.n * sizeof *w->refs);
		memcpy(w->refs, r.v, r.n * sizeof *w->refs);
		w->nrefs = r.n;
	}
	w->span = sbm_span(m, w->off, w->end);
}

sb_word *lex_make_word(struct lexer *lx, size_t base, size_t off, size_t end, unsigned flags)
{
	sb_model *m = lx->m;
	sb_word *w = sbm_alloc(m, sizeof *w);
	size_t n = lx->tmp.len - base;
	w->m = m;
	w->off = off;
	w->end = end;
	w->flags = flags;
	w->nparts = (unsigned)n;
	if (n) {
		w->parts = sbm_alloc(m, n * sizeof *w->parts);
		memcpy(w->parts, lx->tmp.v + base, n * sizeof *w->parts);
	}
	lx->tmp.len = base;
	sbl_word_finish(m, w);
	if (++m->nwords > m->lim.max_words)
		lex_fail(lx, SB_PROB_LIMIT, off, end, "more words than the limit");
	return w;
}

sb_word *sbl_word_range(sb_model *m, size_t off, size_t end, bool in_dquote)
{
	struct parse_env env = { .in_string = true };
	struct lexer lx;
	lex_init(&lx, m, off, end, &env);
	lx.quiet = true;
	size_t words = m->nwords;
	sb_word *w = lex_word_all(&lx, in_dquote);
	m->nwords = words;
	lex_fini(&lx);
	return w;
}

/* ---- accessors ---- */

const char *sb_word_raw(const sb_word *w, size_t *len)
{
	*len = w->end - w->off;
	return w->m->text + w->off;
}

const char *sb_word_value(const sb_word *w) { return w->value; }
struct sb_span sb_word_span(const sb_word *w) { return w->span; }
unsigned sb_word_flags(const sb_word *w) { return w->flags; }
size_t sb_word_ref_count(const sb_word *w) { return w->nrefs; }
const char *sb_word_ref(const sb_word *w, size_t i)
{
	return i < w->nrefs ? w->refs[i] : NULL;
}
const char *sb_word_var(const sb_word *w) { return w->var; }
const sb_word *sb_word_origin(const sb_word *w) { return w->origin; }
