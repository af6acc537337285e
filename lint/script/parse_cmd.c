/* Simple commands of the batch-script model: words, the assignments
 * they make (NAME=value, NAME=( ), export, declare, read, ${NAME:=x}...),
 * the backquoted commands they hold (read as scripts of their own, one
 * level deeper: bash parses them only when it runs them), and the
 * lost-continuation fact. The $( ) of a word were parsed when the word
 * was read; their commands come before the command holding them. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const struct { const char *name; enum decl d; } decls[] = {
	{ "export", DECL_EXPORT }, { "declare", DECL_DECLARE }, { "typeset", DECL_DECLARE },
	{ "local", DECL_DECLARE }, { "readonly", DECL_DECLARE }, { "unset", DECL_UNSET },
	{ "read", DECL_READ }, { "getopts", DECL_GETOPTS }, { "mapfile", DECL_MAPFILE },
	{ "readarray", DECL_MAPFILE }, { "printf", DECL_PRINTF }, { "source", DECL_SOURCE },
	{ ".", DECL_SOURCE }, { "eval", DECL_SOURCE }, { "let", DECL_LET },
};

/* ---- assignments ---- */

static struct assign_rec *new_assign(struct parser *p, const char *name, size_t noff,
				     size_t nend, size_t off, size_t end,
				     enum sb_assign_kind kind)
{
	sb_model *m = p->m;
	struct assign_rec *a = sbm_alloc(m, sizeof *a);
	a->pub.name = name ? name : sbm_strndup(m, m->text + noff, nend - noff);
	a->pub.name_span = sbm_span(m, noff, nend);
	a->pub.span = sbm_span(m, off, end);
	a->pub.kind = kind;
	a->scope = p->env->scope;
	VEC_PUSH(p->pending, a);
	return a;
}

/* "NAME=value", "NAME+=value" or "NAME[i]=value" at the start of an
 * unquoted word: returns the offset of '=' or 0. */
static size_t assignment_eq(const sb_model *m, const sb_word *w, size_t *name_end, bool *append,
			    bool *subscript)
{
	if (!w->nparts || w->parts[0].kind != WP_LIT || w->parts[0].quote || w->parts[0].off != w->off)
		return 0;
	const char *s = m->text;
	size_t i = w->off, lim = w->parts[0].end;
	if (i >= lim || !text_is_name_start((unsigned char)s[i]))
		return 0;
	while (i < lim && text_is_name_char((unsigned char)s[i]))
		i++;
	*name_end = i;
	*subscript = false;
	if (i < lim && s[i] == '[') {
		const char *close = memchr(s + i, ']', lim - i);
		if (!close)
			return 0;
		*subscript = true;
		i = (size_t)(close - s) + 1;
	}
	*append = i < lim && s[i] == '+';
	if (*append)
		i++;
	return i < lim && s[i] == '=' ? i : 0;
}

void sbp_unknown_assign(struct parser *p, size_t noff, size_t nend)
{
	new_assign(p, NULL, noff, nend, noff, nend, SB_ASSIGN_UNKNOWN);
}

static bool refs_other(const sb_word *w)
{
	return w && w->nrefs > 0;
}

static void scalar_assign(struct parser *p, const sb_word *w, size_t eq, size_t name_end,
			  bool append, bool subscript, enum sb_assign_kind kind)
{
	struct assign_rec *a = new_assign(p, NULL, w->off, name_end, w->off, w->end,
					  subscript ? SB_ASSIGN_UNKNOWN : kind);
	a->pub.append = append;
	if (!subscript) {
		a->pub.value = sbl_word_sub(p->m, w, eq + 1, w->end);
		a->pub.refs_vars = refs_other(a->pub.value);
	}
	a->pub.exported = kind == SB_ASSIGN_EXPORT || (kind == SB_ASSIGN_DECLARE && p->decl_export);
}

static void array_assign(struct parser *p, const struct token *t, enum sb_assign_kind kind)
{
	const struct array_lit *arr = t->arr;
	struct assign_rec *a = new_assign(p, arr->name, arr->name_off, arr->name_end, t->off,
					  t->end, arr->subscript ? SB_ASSIGN_UNKNOWN : kind);
	if (kind == SB_ASSIGN_PLAIN && p->prefix.len)
		a->pub.kind = SB_ASSIGN_UNKNOWN; /* time a=(1): runs, but in no command */
	a->pub.array = true;
	a->pub.append = arr->append;
	a->pub.elems = (const sb_word *const *)arr->elems;
	a->pub.n_elems = arr->n;
	for (size_t i = 0; i < arr->n; i++)
		a->pub.refs_vars |= refs_other(arr->elems[i]);
	a->pub.exported = kind == SB_ASSIGN_EXPORT || p->decl_export;
}

void sbp_name_record(struct parser *p, const sb_word *w, enum sb_assign_kind kind)
{
	if (!w->value || !text_is_name_start((unsigned char)w->value[0]))
		return;
	for (const char *c = w->value; *c; c++)
		if (!text_is_name_char((unsigned char)*c))
			return;
	struct assign_rec *a = new_assign(p, w->value, w->off, w->end, w->off, w->end, kind);
	a->pub.exported = kind == SB_ASSIGN_MARK && p->decl_export;
}

/* Arithmetic that changes variables: NAME=, NAME+=, NAME++, ++NAME... */
void sbp_arith_assigns(struct parser *p, size_t a, size_t b)
{
	const char *s = p->m->text;
	for (size_t i = a; i < b; i++) {
		if (!text_is_name_start((unsigned char)s[i]) || (i > a && text_is_name_char((unsigned char)s[i - 1])))
			continue;
		size_t e = i;
		while (e < b && text_is_name_char((unsigned char)s[e]))
			e++;
		size_t k = e;
		while (k < b && (s[k] == ' ' || s[k] == '\t'))
			k++;
		bool set = (k < b && s[k] == '=' && (k + 1 >= b || s[k + 1] != '=')) ||
			   (k + 1 < b && strchr("+-*/%&|^", s[k]) && s[k + 1] == '=' ) ||
			   (k + 1 < b && ((s[k] == '+' && s[k + 1] == '+') || (s[k] == '-' && s[k + 1] == '-'))) ||
			   (i >= a + 2 && ((s[i - 1] == '+' && s[i - 2] == '+') || (s[i - 1] == '-' && s[i - 2] == '-')));
		if (set && !(k < b && s[k] == '<') && !(k < b && s[k] == '>'))
			new_assign(p, NULL, i, e, i, e, SB_ASSIGN_UNKNOWN);
		i = e;
	}
}

static void default_assigns(struct parser *p, const sb_word *w)
{
	for (unsigned i = 0; w && i < w->nparts; i++) {
		const struct wpart *part = &w->parts[i];
		if (part->kind != WP_PARAM_OP || part->op != WOP_DEFAULT_ASSIGN || !part->text ||
		    !text_is_name_start((unsigned char)part->text[0]))
			continue;
		size_t noff = part->off + (p->m->text[part->off + 1] == '{' ? 2 : 1);
		struct assign_rec *a = new_assign(p, part->text, noff, noff + part->tlen, part->off,
						  part->end, SB_ASSIGN_DEFAULT);
		a->pub.value = sbl_word_range(p->m, part->in_off, part->in_end, part->quote == '"');
		a->pub.refs_vars = refs_other(a->pub.value);
	}
}

/* A word of a declaration command (export, declare, unset, read...). */
static void decl_word(struct parser *p, const sb_word *w)
{
	if (p->decl_stop)
		return;
	const char *v = w->value;
	if (p->decl == DECL_SOURCE) {
		struct assign_rec *a = new_assign(p, "*", w->off, w->end, w->off, w->end, SB_ASSIGN_UNKNOWN);
		a->source_barrier = true;
		p->decl_stop = true;
		return;
	}
	if (v && (v[0] == '-' || v[0] == '+') && v[1]) {
		if ((p->decl == DECL_DECLARE && strpbrk(v + 1, "fF")) ||
		    (p->decl == DECL_EXPORT && strchr(v + 1, 'f')))
			p->decl_stop = true;
		if (p->decl == DECL_UNSET && strchr(v + 1, 'f'))
			p->decl_stop = true;
		if (p->decl == DECL_DECLARE && v[0] == '-' && strchr(v + 1, 'x'))
			p->decl_export = true;
		if (p->decl == DECL_EXPORT && v[0] == '-' && strchr(v + 1, 'n'))
			p->decl_export = false; /* export -n removes the export */
		if (p->decl == DECL_PRINTF && strcmp(v, "-v") == 0)
			p->decl = DECL_ONE_NAME; /* the next word is the target name */
		return;
	}
	size_t name_end, eq;
	bool append, subscript;
	switch (p->decl) {
	case DECL_EXPORT:
	case DECL_DECLARE:
		eq = assignment_eq(p->m, w, &name_end, &append, &subscript);
		if (eq)
			scalar_assign(p, w, eq, name_end, append, subscript,
				      p->decl == DECL_EXPORT ? SB_ASSIGN_EXPORT : SB_ASSIGN_DECLARE);
		else
			sbp_name_record(p, w, SB_ASSIGN_MARK);
		break;
	case DECL_UNSET:
		sbp_name_record(p, w, SB_ASSIGN_UNSET);
		break;
	case DECL_READ:
	case DECL_MAPFILE:
		sbp_name_record(p, w, SB_ASSIGN_UNKNOWN);
		if (p->decl == DECL_MAPFILE)
			p->decl_stop = true;
		break;
	case DECL_GETOPTS:
		/* getopts OPTSTRING NAME: the second word is the name. */
		if (p->words.len == 3)
			sbp_name_record(p, w, SB_ASSIGN_UNKNOWN);
		break;
	case DECL_LET:
		sbp_arith_assigns(p, w->off, w->end);
		break;
	case DECL_ONE_NAME:
		sbp_name_record(p, w, SB_ASSIGN_UNKNOWN);
		p->decl_stop = true;
		break;
	default:
		break;
	}
}

/* ---- nested scripts ---- */

/* Backquoted text is parsed only when bash runs it: a problem inside is
 * a finding at that text, not a failure of the script. Read only when
 * it holds no backslash (it has its own escaping). */
void sbp_parse_backquotes(struct parser *p, const struct where *w, const sb_word *word)
{
	sb_model *m = p->m;
	for (unsigned i = 0; word && i < word->nparts; i++) {
		const struct wpart *part = &word->parts[i];
		if (part->kind != WP_BACKTICK || part->in_end <= part->in_off ||
		    memchr(m->text + part->in_off, '\\', part->in_end - part->in_off))
			continue;
		struct parse_env env = *p->env;
		if (++env.nest > m->lim.max_nest)
			continue;
		env.block = sbm_block_new(m, w->block, BK_CMDSUB, true);
		env.ctx = w->ctx | SB_CTX_CMDSUB;
		env.func = w->func;
		env.quote = 0;
		m->in_nested++;
		sbp_parse_range(m, part->in_off, part->in_end, &env);
		m->in_nested--;
	}
}

/* ---- simple commands ---- */

void sbp_reset_cmd(struct parser *p)
{
	p->cmd_first = p->m->cmds.len;
	p->words.len = p->extra.len = p->pending.len = p->heredocs.len = 0;
	p->decl = DECL_NONE;
	p->decl_export = p->decl_stop = false;
}

void sbp_add_word(struct parser *p, const struct token *t)
{
	VEC_PUSH(p->words, t->word);
}

static bool starts_flag(const sb_word *w)
{
	const char *s = w->m->text + w->off;
	size_t n = w->end - w->off;
	return n >= 2 && s[0] == '-' && (s[1] == '-' || text_is_name_start((unsigned char)s[1]));
}

/* time -p, coproc NAME: words of the command they run, before its own. */
static size_t take_prefix(struct parser *p, size_t off)
{
	if (!p->prefix.len)
		return off;
	for (size_t i = 0; i < p->words.len; i++)
		VEC_PUSH(p->prefix, p->words.v[i]);
	p->words.len = 0;
	for (size_t i = 0; i < p->prefix.len; i++)
		VEC_PUSH(p->words, p->prefix.v[i]);
	if (p->prefix.v[0]->off < off)
		off = p->prefix.v[0]->off;
	p->prefix.len = 0;
	return off;
}

/* The assignments of the command, in the order bash makes them:
 * ${NAME:=x} while the words expand, before the rest. */
static void emit_assigns(struct parser *p, sb_cmd *c, size_t word0)
{
	sb_model *m = p->m;
	size_t nword_assigns = p->pending.len;
	for (size_t i = 0; i < p->words.len; i++)
		default_assigns(p, p->words.v[i]);
	for (size_t i = 0; i < nword_assigns; i++) {
		const struct assign_rec *a = p->pending.v[i];
		if (a->pub.span.off < word0)
			default_assigns(p, a->pub.value);
		for (size_t k = 0; k < a->pub.n_elems; k++)
			default_assigns(p, a->pub.elems[k]);
	}
	size_t first = m->assigns.len;
	for (size_t k = 0; k < p->pending.len; k++) {
		size_t i = (k + nword_assigns) % p->pending.len;
		struct assign_rec *a = p->pending.v[i];
		a->pub.cmd = c;
		a->block = c->block;
		/* Before a command word, NAME=value is that command's
		 * environment, not the shell's. */
		if (c->nwords && a->pub.kind == SB_ASSIGN_PLAIN && a->pub.span.off < c->words[0]->off)
			a->pub.kind = SB_ASSIGN_PREFIX;
		VEC_PUSH(m->assigns, a);
	}
	c->nassigns = m->assigns.len - first;
	if (c->nassigns) {
		c->assigns = sbm_alloc(m, c->nassigns * sizeof *c->assigns);
		for (size_t i = 0; i < c->nassigns; i++)
			c->assigns[i] = &m->assigns.v[first + i]->pub;
	}
}

/* A command that starts with -flag: the line before lost its backslash.
 * starts_flag reads the raw text, so "--x" (quoted) does not count,
 * while --x="$V" (quoted later in the word) does. */
static void lost_continuation(struct parser *p, sb_cmd *c, size_t off)
{
	if (!c->nwords || c->words[0]->off != off || !starts_flag(c->words[0]) || !p->last)
		return;
	struct sb_fact f = { 0 };
	f.kind = SB_FACT_LOST_CONTINUATION;
	f.span = c->words[0]->span;
	f.cmd = c;
	f.prev = p->last;
	f.adjacent = p->last->span.end_line + 1 == c->span.line;
	VEC_PUSH(p->m->facts, f);
}

sb_cmd *sbp_emit(struct parser *p, const struct where *w, size_t off, size_t end)
{
	sb_model *m = p->m;
	size_t first_child = p->cmd_first;
	off = take_prefix(p, off);
	size_t word0 = p->words.len ? p->words.v[0]->off : SIZE_MAX;
	for (size_t i = 0; i < p->pending.len; i++) {
		const struct assign_rec *a = p->pending.v[i];
		if (a->pub.span.off < word0)
			sbp_parse_backquotes(p, w, a->pub.value);
		for (size_t k = 0; k < a->pub.n_elems; k++)
			sbp_parse_backquotes(p, w, a->pub.elems[k]);
	}
	for (size_t i = 0; i < p->words.len; i++)
		sbp_parse_backquotes(p, w, p->words.v[i]);
	for (size_t i = 0; i < p->extra.len; i++)
		sbp_parse_backquotes(p, w, p->extra.v[i]);

	sb_cmd *c = sbm_alloc(m, sizeof *c);
	c->index = m->cmds.len;
	c->span = sbm_span(m, off, end);
	c->ctx = w->ctx;
	c->func = w->func;
	c->parent = p->env->parent;
	c->nest_quote = p->env->quote;
	c->nest = p->env->nest;
	c->block = w->block;
	c->scope = p->env->scope;
	c->nwords = p->words.len;
	if (c->nwords) {
		c->words = sbm_alloc(m, c->nwords * sizeof *c->words);
		memcpy(c->words, p->words.v, c->nwords * sizeof *c->words);
	}
	/* the commands of its $( ) and backquotes came first */
	for (size_t i = first_child; i < m->cmds.len; i++)
		if (!m->cmds.v[i]->parent || m->cmds.v[i]->parent == p->env->parent)
			m->cmds.v[i]->parent = c;
	VEC_PUSH(m->cmds, c);
	p->cmd_first = m->cmds.len;
	emit_assigns(p, c, word0);
	for (size_t i = 0; i < p->heredocs.len; i++)
		m->heredocs.v[p->heredocs.v[i]].cmd = c;
	lost_continuation(p, c, off);
	p->last = c;
	return c;
}

static enum decl decl_of(const sb_word *w)
{
	if (!w->value || (w->flags & SB_W_QUOTED))
		return DECL_NONE;
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++)
		if (strcmp(w->value, decls[i].name) == 0)
			return decls[i].d;
	return DECL_NONE;
}

/* One word of the command: an assignment before the command word, the
 * command word, or an argument (a declaration's names and values). */
static void element(struct parser *p, const struct token *t)
{
	size_t name_end, eq;
	bool append, subscript;
	const sb_word *w = t->word;
	if (t->arr) {
		if (!p->words.len)
			array_assign(p, t, SB_ASSIGN_PLAIN);
		else if (p->decl == DECL_EXPORT || p->decl == DECL_DECLARE)
			array_assign(p, t, p->decl == DECL_EXPORT ? SB_ASSIGN_EXPORT : SB_ASSIGN_DECLARE);
		else
			VEC_PUSH(p->words, w);
		return;
	}
	if (!p->words.len && (eq = assignment_eq(p->m, w, &name_end, &append, &subscript))) {
		scalar_assign(p, w, eq, name_end, append, subscript, SB_ASSIGN_PLAIN);
		return;
	}
	VEC_PUSH(p->words, w);
	if (p->words.len == 1 && !p->prefix.len) {
		p->decl = decl_of(w);
		p->decl_export = p->decl == DECL_EXPORT;
	} else if (p->words.len == 1) {
		p->decl = DECL_NONE;
	} else if (p->decl) {
		decl_word(p, w);
	}
}

bool sbp_simple_command(struct parser *p, const struct where *w, const struct token *first)
{
	sbp_reset_cmd(p);
	if (!first)
		p->cmd_first = p->la_first;
	struct where saved = p->here;
	p->here = *w;
	size_t off = first ? first->off : sbp_peek(p)->off, end = off;
	if (first) {
		element(p, first);
		end = first->end;
	}
	bool ok = true;
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind == T_WORD || t->kind == T_ASSIGN) {
			struct token cur = *t;
			sbp_next(p);
			element(p, &cur);
			end = cur.end;
			p->lx->st.pst &= ~(unsigned)PST_REDIRLIST;
		} else if (tok_is_redir(t->kind) || t->kind == T_NUMBER || t->kind == T_REDIR_WORD) {
			if (!sbp_redirection(p, false)) {
				ok = false;
				break;
			}
			end = p->prev_end;
		} else {
			break;
		}
	}
	p->lx->st.pst &= ~(unsigned)PST_REDIRLIST;
	p->here = saved;
	/* a command cut short by a syntax error never runs: the broken
	 * statement stands for it (parse.c, recover) */
	if (!ok || sbp_failed(p))
		return false;
	sbp_emit(p, w, off, end);
	return true;
}
