/* Compiling Mustache templates into flat node arrays, and partials. */
#include "mustache_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "xalloc.h"

/* ---- errors ------------------------------------------------------------ */

static void pos_of(const char *src, size_t off, uint32_t *line, uint32_t *col)
{
	uint32_t l = 1;
	size_t start = 0;
	for (size_t i = 0; i < off; i++)
		if (src[i] == '\n') {
			l++;
			start = i + 1;
		}
	*line = l;
	*col = (uint32_t)utf8_count(src + start, off - start) + 1;
}

void tpl_verror(struct tpl_error *err, const struct tpl *t, size_t off,
		   const char *fmt, va_list ap)
{
	if (!err)
		return;
	snprintf(err->name, sizeof err->name, "%s", t->name);
	pos_of(t->src, off, &err->line, &err->col);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

static void set_error(struct tpl_error *err, const struct tpl *t, size_t off,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void set_error(struct tpl_error *err, const struct tpl *t, size_t off,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tpl_verror(err, t, off, fmt, ap);
	va_end(ap);
}

void tpl_error_format(const struct tpl_error *err, struct buf *out)
{
	buf_printf(out, "%s:%u:%u: %s", err->name, (unsigned)err->line,
		   (unsigned)err->col, err->msg);
}

/* Names quoted in messages are cut so a message stays one line. */

/* ---- compiling --------------------------------------------------------- */

enum tag_type {
	T_VAR, T_RAW, T_SECTION, T_INVERTED, T_CLOSE, T_PARTIAL, T_COMMENT,
	T_DELIMS,
};

/* What the character after the opening delimiter means: the tag type,
 * the character that must precede the closing delimiter, and whether a
 * tag of the type may stand alone on a line (and so take the line with
 * it). Anything else is a variable, which never stands alone. */
static const struct {
	char sigil, closer;
	enum tag_type type;
	bool can_stand;
} sigils[] = {
	{ '#', 0, T_SECTION, true },  { '^', 0, T_INVERTED, true },
	{ '/', 0, T_CLOSE, true },    { '>', 0, T_PARTIAL, true },
	{ '!', 0, T_COMMENT, true },  { '=', '=', T_DELIMS, true },
	{ '&', 0, T_RAW, false },     { '{', '}', T_RAW, false },
};

struct tag {
	enum tag_type type;
	bool can_stand;
	size_t start, end;  /* the whole tag, delimiters included */
	size_t name, nlen;  /* the content, padding trimmed */
};

struct compiler {
	struct tpl *t;
	struct tpl_error *err;
	const char *otag, *ctag; /* current delimiters */
	size_t olen, clen;
	size_t *open; /* nodes of sections not closed yet, innermost last */
	size_t nopen, capopen;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool at_bol(const char *s, size_t off)
{
	return off == 0 || s[off - 1] == '\n';
}

static size_t add_node(struct compiler *c, enum node_kind kind, size_t off,
		       size_t len, size_t tag)
{
	struct tpl *t = c->t;
	t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
	t->v[t->n] = (struct node){ .kind = kind, .off = off, .len = len, .tag = tag };
	return t->n++;
}

static void add_text(struct compiler *c, size_t from, size_t to)
{
	if (from >= to)
		return;
	if (at_bol(c->t->src, from))
		add_node(c, N_BOL, from, 0, from);
	add_node(c, N_TEXT, from, to - from, from);
}

static bool scan_tag(struct compiler *c, size_t at, struct tag *tg)
{
	const char *s = c->t->src;
	size_t n = c->t->len, p = at + c->olen;
	char closer = 0;
	*tg = (struct tag){ .type = T_VAR, .start = at };
	for (size_t i = 0; p < n && i < sizeof sigils / sizeof *sigils; i++)
		if (s[p] == sigils[i].sigil) {
			tg->type = sigils[i].type;
			tg->can_stand = sigils[i].can_stand;
			closer = sigils[i].closer;
			p++;
			break;
		}
	size_t q = p, h, cend;
	for (;;) {
		const char *hit = memmem(s + q, n - q, c->ctag, c->clen);
		if (!hit) {
			set_error(c->err, c->t, at, "unclosed tag: no '%s%.*s' after '%.*s'",
				  closer ? (char[]){ closer, 0 } : "",
				  (int)c->clen, c->ctag, (int)c->olen, c->otag);
			return false;
		}
		h = (size_t)(hit - s);
		cend = h;
		if (!closer)
			break;
		if (h > p && s[h - 1] == closer) {
			cend = h - 1;
			break;
		}
		q = h + 1;
	}
	tg->end = h + c->clen;
	while (p < cend && is_space(s[p]))
		p++;
	while (cend > p && is_space(s[cend - 1]))
		cend--;
	tg->name = p;
	tg->nlen = cend - p;
	return true;
}

/* A standalone tag is alone on its line but for spaces and tabs; the
 * whole line goes, newline included. [*ls, *le) is that line. */
static bool standalone(const char *s, size_t n, size_t pos,
		       const struct tag *tg, size_t *ls, size_t *le)
{
	size_t a = tg->start, b = tg->end;
	while (a > pos && (s[a - 1] == ' ' || s[a - 1] == '\t'))
		a--;
	if (!at_bol(s, a))
		return false;
	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	if (b < n && s[b] == '\n')
		b++;
	else if (b + 1 < n && s[b] == '\r' && s[b + 1] == '\n')
		b += 2;
	else if (b < n)
		return false;
	*ls = a;
	*le = b;
	return true;
}

/* "." alone, or dot-separated parts that are neither empty nor hold
 * spaces: "a b" or "a..b" is a typo, not a key. */
static bool name_ok(const char *s, size_t len, bool dotted)
{
	if (len == 1 && s[0] == '.')
		return dotted;
	if (len == 0 || (dotted && (s[0] == '.' || s[len - 1] == '.')))
		return false;
	for (size_t i = 0; i < len; i++)
		if (is_space(s[i]) || (dotted && s[i] == '.' && s[i + 1] == '.'))
			return false;
	return true;
}

static bool set_delims(struct compiler *c, const struct tag *tg)
{
	const char *s = c->t->src + tg->name;
	size_t len = tg->nlen, a = 0;
	while (a < len && !is_space(s[a]))
		a++;
	size_t b = a;
	while (b < len && is_space(s[b]))
		b++;
	bool ok = a > 0 && b > a && b < len && !memchr(s, '=', len) &&
		  name_ok(s + b, len - b, false);
	if (!ok) {
		set_error(c->err, c->t, tg->start,
			  "invalid set-delimiters tag: expected two delimiters "
			  "without spaces or '=', as in {{=<%% %%>=}}");
		return false;
	}
	c->otag = s;
	c->olen = a;
	c->ctag = s + b;
	c->clen = len - b;
	return true;
}

/* How errors name an open section: "'queues' opened at 12:3". */
static const char *opened(const struct tpl *t, const struct node *open,
			  char *buf, size_t size)
{
	uint32_t line, col;
	pos_of(t->src, open->tag, &line, &col);
	snprintf(buf, size, "'%.*s' opened at %u:%u", SHOW(open->len),
		 t->src + open->off, (unsigned)line, (unsigned)col);
	return buf;
}

static bool close_section(struct compiler *c, const struct tag *tg)
{
	const char *s = c->t->src;
	if (!c->nopen) {
		set_error(c->err, c->t, tg->start,
			  "close tag '%.*s' without an open section",
			  SHOW(tg->nlen), s + tg->name);
		return false;
	}
	struct node *open = &c->t->v[c->open[c->nopen - 1]];
	char what[128];
	if (open->len != tg->nlen || memcmp(s + open->off, s + tg->name, tg->nlen)) {
		set_error(c->err, c->t, tg->start, "mismatched close '%.*s' for section %s",
			  SHOW(tg->nlen), s + tg->name, opened(c->t, open, what, sizeof what));
		return false;
	}
	open->end = c->t->n;
	c->nopen--;
	return true;
}

static bool add_tag(struct compiler *c, const struct tag *tg, bool alone,
		    size_t ls)
{
	if (tg->type == T_COMMENT)
		return true;
	if (tg->type == T_DELIMS)
		return set_delims(c, tg);
	const char *name = c->t->src + tg->name;
	if (!name_ok(name, tg->nlen, tg->type != T_PARTIAL)) {
		if (tg->nlen)
			set_error(c->err, c->t, tg->start, "invalid name '%.*s'",
				  SHOW(tg->nlen), name);
		else
			set_error(c->err, c->t, tg->start, "empty tag");
		return false;
	}
	static const enum node_kind kinds[] = {
		[T_VAR] = N_VAR, [T_RAW] = N_RAW, [T_SECTION] = N_SECTION,
		[T_INVERTED] = N_INVERTED, [T_PARTIAL] = N_PARTIAL,
	};
	if (tg->type == T_CLOSE)
		return close_section(c, tg);
	size_t i = add_node(c, kinds[tg->type], tg->name, tg->nlen, tg->start);
	if (tg->type == T_PARTIAL) {
		struct node *nd = &c->t->v[i];
		nd->standalone = alone;
		nd->ind_off = alone ? ls : 0;
		nd->ind_len = alone ? tg->start - ls : 0;
	} else if (tg->type == T_SECTION || tg->type == T_INVERTED) {
		c->open = xgrow(c->open, &c->capopen, c->nopen + 1, sizeof *c->open);
		c->open[c->nopen++] = i;
	}
	return true;
}

static bool compile_all(struct compiler *c)
{
	const char *s = c->t->src;
	size_t n = c->t->len, pos = 0;
	for (;;) {
		const char *hit = memmem(s + pos, n - pos, c->otag, c->olen);
		if (!hit)
			break;
		struct tag tg;
		if (!scan_tag(c, (size_t)(hit - s), &tg))
			return false;
		size_t ls = 0, le = 0;
		bool alone = tg.can_stand && standalone(s, n, pos, &tg, &ls, &le);
		add_text(c, pos, alone ? ls : tg.start);
		pos = alone ? le : tg.end;
		if (!alone && at_bol(s, tg.start))
			add_node(c, N_BOL, tg.start, 0, tg.start);
		if (!add_tag(c, &tg, alone, ls))
			return false;
	}
	add_text(c, pos, n);
	if (!c->nopen)
		return true;
	const struct node *open = &c->t->v[c->open[c->nopen - 1]];
	char what[128];
	set_error(c->err, c->t, open->tag, "unclosed section %s",
		  opened(c->t, open, what, sizeof what));
	return false;
}

struct tpl *tpl_compile(const char *name, const char *text, size_t len,
			struct tpl_error *err)
{
	struct tpl *t = xcalloc(1, sizeof *t);
	t->name = xstrdup(name ? name : "<template>");
	t->src = xstrndup(text ? text : "", text ? len : 0);
	t->len = text ? len : 0;
	struct compiler c = { .t = t, .err = err, .otag = "{{", .olen = 2,
			      .ctag = "}}", .clen = 2 };
	bool ok = compile_all(&c);
	free(c.open);
	if (!ok) {
		tpl_free(t);
		return NULL;
	}
	return t;
}

void tpl_free(struct tpl *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->src);
	free(t->v);
	free(t);
}

const char *tpl_name(const struct tpl *t)
{
	return t->name;
}

/* ---- partials ---------------------------------------------------------- */

struct tpl_partials *tpl_partials_new(void)
{
	return xcalloc(1, sizeof(struct tpl_partials));
}

struct tpl **tpl_partial_slot(const struct tpl_partials *p,
				 const char *name, size_t len)
{
	for (size_t i = 0; p && i < p->len; i++)
		if (strlen(p->v[i]->name) == len && !memcmp(p->v[i]->name, name, len))
			return &p->v[i];
	return NULL;
}

bool tpl_partials_add(struct tpl_partials *p, const char *name,
		      const char *text, size_t len, struct tpl_error *err)
{
	struct tpl *t = tpl_compile(name, text, len, err);
	if (!t)
		return false;
	struct tpl **slot = tpl_partial_slot(p, name, strlen(name));
	if (slot) {
		tpl_free(*slot);
	} else {
		p->v = xgrow(p->v, &p->cap, p->len + 1, sizeof *p->v);
		slot = &p->v[p->len++];
	}
	*slot = t;
	return true;
}

void tpl_partials_free(struct tpl_partials *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->len; i++)
		tpl_free(p->v[i]);
	free(p->v);
	free(p);
}
