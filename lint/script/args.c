/* The arguments of a launcher in the batch-script model: words
 * expanded as bash would where the script decides it, flags read with
 * the launcher's table (known arity, or unknown and never guessed), and
 * the flag questions rules ask of a part. */
#include "chain.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* ---- words ---- */

static sb_word *copy_word(sb_model *m, const sb_word *w, const sb_word *origin, unsigned add)
{
	sb_word *n = sbm_alloc(m, sizeof *n);
	*n = *w;
	n->origin = origin;
	n->flags |= add;
	return n;
}

static void push_arg(struct chain *ch, const sb_word *w, bool opaque, const char *name, bool array)
{
	if (ch->a.len >= MAX_ARGS)
		return;
	struct arg a = { w, w->value, opaque, name, array };
	if (opaque)
		a.v = NULL;
	VEC_PUSH(ch->a, a);
}

/* Field splitting of a value word at the blanks of its literal parts,
 * as an unquoted $VAR is split. A backslash-newline outside single
 * quotes is gone from the value (the usual "... \<newline> --flag" of a
 * long option string); an escaped character is a character of a field.
 * Returns the number of fields written (at most max), or SIZE_MAX when
 * the split cannot be trusted (a backslash before a blank, which the
 * value keeps and the split would not see) or there are too many
 * fields. */
static size_t fields_of(sb_model *m, const sb_word *val, const sb_word **out, size_t max)
{
	const char *s = m->text;
	size_t n = 0, start = SIZE_MAX;
	for (unsigned i = 0; i < val->nparts; i++) {
		const struct wpart *p = &val->parts[i];
		if (p->kind != WP_LIT) {
			if (start == SIZE_MAX)
				start = p->off;
			continue;
		}
		for (size_t k = p->off; k < p->end; k++) {
			if (s[k] == '\\' && p->quote != '\'' && p->quote != '$' && k + 1 < p->end) {
				if (s[k + 1] == '\n') {
					k++;
					continue;
				}
				if (s[k + 1] == ' ' || s[k + 1] == '\t')
					return SIZE_MAX;
				if (start == SIZE_MAX)
					start = k;
				k++;
				continue;
			}
			if (s[k] == '\\' && p->quote == '$')
				return SIZE_MAX;
			bool blank = s[k] == ' ' || s[k] == '\t' || s[k] == '\n';
			if (!blank && start == SIZE_MAX)
				start = k;
			if (blank && start != SIZE_MAX) {
				if (n == max)
					return SIZE_MAX;
				out[n++] = sbl_word_sub(m, val, start, k);
				start = SIZE_MAX;
			}
		}
	}
	if (start != SIZE_MAX) {
		if (n == max)
			return SIZE_MAX;
		out[n++] = sbl_word_sub(m, val, start, val->end);
	}
	return n;
}

#define MAX_SPLIT_DEPTH 8

static bool split_fields(struct chain *ch, const sb_word *val, const sb_cmd *set_at,
			 const sb_word *use, unsigned depth);

/* A field that is one unquoted $NAME of a value bash expanded when it
 * ran the assignment (CMD="... $GPT_ARGS ..."): the splitting of $CMD
 * splits what $GPT_ARGS held then, so its fields are spliced too. */
static bool split_inner(struct chain *ch, const sb_word *field, const sb_cmd *set_at,
			const sb_word *use, unsigned depth)
{
	struct sb_resolved r;
	if (!field->var || depth >= MAX_SPLIT_DEPTH)
		return false;
	enum sb_res k = sbr_resolve(ch->m, field->var, set_at, &r);
	const sb_word *val = r.assign ? r.assign->value : NULL;
	if ((k != SB_RES_VALUE && k != SB_RES_WORD) || !val || r.overridable)
		return false;
	return split_fields(ch, val, r.assign->cmd, use, depth + 1);
}

static bool split_fields(struct chain *ch, const sb_word *val, const sb_cmd *set_at,
			 const sb_word *use, unsigned depth)
{
	const sb_word *f[256];
	size_t n = fields_of(ch->m, val, f, 256);
	if (n == SIZE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!split_inner(ch, f[i], set_at, use, depth))
			push_arg(ch, copy_word(ch->m, f[i], use, SB_W_SPLICED), false, NULL, false);
	return true;
}

static bool array_word(const sb_word *w)
{
	return w->nparts == 1 && w->parts[0].kind == WP_PARAM_OP && w->parts[0].array_all &&
	       w->parts[0].op == WOP_NONE && w->parts[0].text;
}

void sbx_expand(struct chain *ch)
{
	sb_model *m = ch->m;
	sb_cmd *c = ch->c;
	for (size_t i = 0; i < c->nwords; i++) {
		const sb_word *w = c->words[i];
		if (array_word(w)) {
			const sb_word **el;
			size_t n;
			if (sbr_array(m, w->parts[0].text, c, &el, &n)) {
				for (size_t k = 0; k < n; k++)
					push_arg(ch, copy_word(m, el[k], w, SB_W_SPLICED), false, NULL, false);
			} else {
				push_arg(ch, copy_word(m, w, NULL, SB_W_OPAQUE), true, w->parts[0].text, true);
			}
			continue;
		}
		if (w->nparts == 1 && w->parts[0].kind == WP_SPECIAL &&
		    (w->parts[0].text[0] == '@' || w->parts[0].text[0] == '*')) {
			push_arg(ch, copy_word(m, w, NULL, SB_W_OPAQUE), true, NULL, false);
			continue;
		}
		if (w->var) {
			struct sb_resolved r;
			enum sb_res k = sbr_resolve(m, w->var, c, &r);
			const sb_word *val = r.assign ? r.assign->value : NULL;
			bool quoted = (w->flags & SB_W_QUOTED) != 0;
			if ((k == SB_RES_VALUE || k == SB_RES_WORD) && val && !r.overridable) {
				if (quoted) {
					push_arg(ch, copy_word(m, val, w, SB_W_SPLICED), false, NULL, false);
					continue;
				}
				if (split_fields(ch, val, r.assign->cmd, w, 0))
					continue;
			}
			if (!quoted) {
				push_arg(ch, copy_word(m, w, NULL, SB_W_OPAQUE), true, w->var, false);
				continue;
			}
		}
		push_arg(ch, w, false, NULL, false);
	}
}

/* The literal text a word starts with (up to its first expansion). */
size_t sbx_lit_prefix(const sb_word *w, char *out, size_t cap)
{
	size_t n = 0;
	for (unsigned i = 0; i < w->nparts && w->parts[i].kind == WP_LIT; i++) {
		size_t k = w->parts[i].tlen < cap - 1 - n ? w->parts[i].tlen : cap - 1 - n;
		memcpy(out + n, w->parts[i].text, k);
		n += k;
	}
	out[n] = '\0';
	return n;
}

/* The raw offset of the idx-th character of a word's literal prefix;
 * just past the prefix, where the first expansion starts. */
size_t sbx_raw_of(const sb_model *m, const sb_word *w, size_t idx)
{
	for (unsigned i = 0; i < w->nparts; i++) {
		const struct wpart *p = &w->parts[i];
		if (p->kind != WP_LIT)
			return idx == 0 ? p->off : w->end;
		if (idx < p->tlen) {
			size_t r = p->off;
			for (size_t k = 0; k < idx && r < p->end; k++)
				r += (m->text[r] == '\\' && p->quote != '\'') ? 2 : 1;
			return r;
		}
		idx -= p->tlen;
	}
	return w->end;
}

/* The program name of a word whose value is not literal but ends in a
 * literal path: "${VENV}/bin/torchrun" is torchrun. */
const char *sbx_tail_name(const sb_word *w)
{
	if (!w->nparts || w->parts[w->nparts - 1].kind != WP_LIT)
		return NULL;
	const char *t = w->parts[w->nparts - 1].text, *slash = strrchr(t, '/');
	return slash && slash[1] ? slash + 1 : NULL;
}

/* ---- parts and flags ---- */

struct sb_part *sbx_new_part(struct chain *ch, enum sb_prog kind, const sb_word *program)
{
	struct sb_part p = { 0 };
	p.kind = kind;
	p.program = program;
	p.name = !program ? "" : program->value ? sbf_basename(program->value)
		: sbx_tail_name(program) ? sbx_tail_name(program) : "";
	VEC_PUSH(ch->parts, p);
	ch->flags.len = ch->args.len = 0;
	return &ch->parts.v[ch->parts.len - 1];
}

void sbx_close_part(struct chain *ch)
{
	if (!ch->parts.len)
		return;
	struct sb_part *p = &ch->parts.v[ch->parts.len - 1];
	if (ch->flags.len) {
		p->flags = sbm_alloc(ch->m, ch->flags.len * sizeof *p->flags);
		memcpy(p->flags, ch->flags.v, ch->flags.len * sizeof *p->flags);
		p->nflags = ch->flags.len;
	}
	if (ch->args.len) {
		p->args = sbm_alloc(ch->m, ch->args.len * sizeof *p->args);
		memcpy(p->args, ch->args.v, ch->args.len * sizeof *p->args);
		p->nargs = ch->args.len;
	}
	ch->flags.len = ch->args.len = 0;
}

struct sb_part *sbx_cur(struct chain *ch)
{
	return &ch->parts.v[ch->parts.len - 1];
}

struct sb_flag *sbx_add_flag(struct chain *ch, const sb_word *w, const char *written,
				size_t wlen, const struct flagdef *def)
{
	struct sb_flag f = { 0 };
	char norm[128];
	sbf_normalize(written, wlen, norm, sizeof norm);
	f.written = sbm_strndup(ch->m, written, wlen);
	f.name = def ? (def->canon ? def->canon : def->name) : sbm_strndup(ch->m, norm, strlen(norm));
	f.word = w;
	f.arity = !def ? SB_ARITY_UNKNOWN
		: def->arity == A_NONE ? SB_ARITY_NONE
		: def->arity == A_ONE ? SB_ARITY_ONE
		: def->arity == A_OPT ? SB_ARITY_OPTIONAL : SB_ARITY_TWO;
	VEC_PUSH(ch->flags, f);
	return &ch->flags.v[ch->flags.len - 1];
}

bool sbx_known_program(const char *v)
{
	const struct wrapdef *wd;
	return v && sbf_classify(v, &wd) != PC_OTHER;
}

/* Does this list of words read as complete options of fs, with nothing
 * left over? Used for the values an opaque word may hold. */
static bool all_options(const struct flagset *fs, const sb_word *const *w, size_t n)
{
	for (size_t i = 0; i < n;) {
		const char *v = w[i]->value;
		if (!v || v[0] != '-' || !v[1])
			return false;
		const char *eq = strchr(v, '=');
		size_t need = 0;
		if (v[1] == '-' || fs->single_dash_long) {
			char norm[128];
			sbf_normalize(v, eq ? (size_t)(eq - v) : strlen(v), norm, sizeof norm);
			const struct flagdef *d = sbf_long(fs, norm);
			if (!d && !eq)
				return false; /* unknown arity: cannot tell */
			if (d && !eq)
				need = d->arity == A_ONE ? 1 : d->arity == A_TWO ? 2 : 0;
		} else {
			for (size_t k = 1; v[k]; k++) {
				const struct flagdef *d = sbf_short(fs, v[k]);
				if (!d)
					return false;
				if (d->arity == A_NONE)
					continue;
				need = d->arity == A_ONE && !v[k + 1] ? 1 : 0;
				break;
			}
		}
		i += 1 + need;
		if (i > n)
			return false;
	}
	return true;
}

static bool options_only(struct chain *ch, const struct flagset *fs, const struct arg *a)
{
	if (!a->name)
		return false;
	struct cands cs;
	sbr_candidates(ch->m, a->name, ch->c, a->array, &cs);
	if (cs.any)
		return false;
	for (size_t i = 0; i < cs.n; i++) {
		const struct sb_assign *as = &cs.v[i]->pub;
		if (as->kind == SB_ASSIGN_UNSET)
			continue;
		if (as->kind == SB_ASSIGN_UNKNOWN)
			return false;
		if (as->array) {
			if (!all_options(fs, as->elems, as->n_elems))
				return false;
			continue;
		}
		const sb_word *f[64];
		size_t n = as->value ? fields_of(ch->m, as->value, f, 64) : SIZE_MAX;
		if (n == SIZE_MAX || !all_options(fs, f, n))
			return false;
	}
	return true;
}

/* Reads the options of the current part from ch->a[*i]; stops at the
 * first positional word, which is left at *i. Returns true when "--"
 * ended the options. */
void sbx_parse_options(struct chain *ch, const struct flagset *fs, size_t *i)
{
	sb_model *m = ch->m;
	char text[256];
	while (*i < ch->a.len) {
		const struct arg *a = &ch->a.v[*i];
		if (a->opaque) {
			if (options_only(ch, fs, a)) {
				sbx_cur(ch)->nopaque++;
				(*i)++;
				continue;
			}
			const struct arg *nx = *i + 1 < ch->a.len ? &ch->a.v[*i + 1] : NULL;
			if (nx && !nx->opaque && nx->v && (nx->v[0] == '-' || sbx_known_program(nx->v))) {
				sbx_cur(ch)->nopaque++;
				ch->c->assumed = true;
				(*i)++;
				continue;
			}
			return;
		}
		size_t n = sbx_lit_prefix(a->w, text, sizeof text);
		if (!n || text[0] != '-' || n == 1)
			return;
		if (strcmp(text, "--") == 0 && a->v) {
			(*i)++;
			return;
		}
		bool is_long = text[1] == '-' || fs->single_dash_long;
		if (is_long) {
			size_t nl = strcspn(text, "=");
			char norm[128];
			sbf_normalize(text, nl, norm, sizeof norm);
			const struct flagdef *d = sbf_long(fs, norm);
			if (!d && fs->getopt_short && text[1] != '-')
				is_long = false;
			else {
				struct sb_flag *f = sbx_add_flag(ch, a->w, text, nl, d);
				(*i)++;
				if (text[nl] == '=') {
					f->joined = true;
					f->value = sbl_word_sub(m, a->w, sbx_raw_of(m, a->w, nl + 1), a->w->end);
				} else if (f->arity == SB_ARITY_ONE || f->arity == SB_ARITY_TWO) {
					if (*i < ch->a.len)
						f->value = ch->a.v[(*i)++].w;
					if (f->arity == SB_ARITY_TWO && *i < ch->a.len)
						f->value2 = ch->a.v[(*i)++].w;
				} else if (f->arity == SB_ARITY_UNKNOWN && *i < ch->a.len) {
					const struct arg *nx = &ch->a.v[*i];
					if (!nx->opaque && (!nx->v || nx->v[0] != '-') && !sbx_known_program(nx->v)) {
						f->bare_next = true;
						ch->c->assumed = true;
					}
				}
				continue;
			}
		}
		/* getopt short options: -l, -N2, -N 2, -lN2. */
		for (size_t k = 1; k < n; k++) {
			const struct flagdef *d = sbf_short(fs, text[k]);
			struct sb_flag *f = sbx_add_flag(ch, a->w, (char[]){ '-', text[k] }, 2, d);
			if (!d || d->arity == A_NONE)
				continue;
			if (k + 1 < n || a->w->end > sbx_raw_of(m, a->w, k + 1)) {
				f->joined = true;
				f->value = sbl_word_sub(m, a->w, sbx_raw_of(m, a->w, k + 1), a->w->end);
			} else if (d->arity == A_ONE && *i + 1 < ch->a.len) {
				f->value = ch->a.v[++*i].w;
			}
			break;
		}
		(*i)++;
	}
}

/* The rest of the words as the part's positional words, with flags read
 * where they can be (an application's own arguments). */
void sbx_rest_args(struct chain *ch, size_t i)
{
	sb_model *m = ch->m;
	char text[256];
	for (; i < ch->a.len; i++) {
		const struct arg *a = &ch->a.v[i];
		VEC_PUSH(ch->args, a->w);
		if (a->opaque) {
			sbx_cur(ch)->nopaque++;
			continue;
		}
		size_t n = sbx_lit_prefix(a->w, text, sizeof text);
		if (n < 2 || text[0] != '-' || strcmp(text, "--") == 0)
			continue;
		size_t nl = strcspn(text, "=");
		struct sb_flag *f = sbx_add_flag(ch, a->w, text, nl, NULL);
		if (text[nl] == '=') {
			f->joined = true;
			f->value = sbl_word_sub(m, a->w, sbx_raw_of(m, a->w, nl + 1), a->w->end);
		} else if (i + 1 < ch->a.len && !ch->a.v[i + 1].opaque) {
			char nx[8];
			sbx_lit_prefix(ch->a.v[i + 1].w, nx, sizeof nx);
			f->bare_next = nx[0] != '-' || !nx[1] || isdigit((unsigned char)nx[1]);
		}
	}
}

/* ---- part accessors ---- */

enum sb_prog sb_part_kind(const sb_part *p) { return p->kind; }
const sb_word *sb_part_program(const sb_part *p) { return p->program; }
const char *sb_part_name(const sb_part *p) { return p->name ? p->name : ""; }
const sb_word *sb_part_entry(const sb_part *p) { return p->entry; }
size_t sb_part_flag_count(const sb_part *p) { return p->nflags; }
const struct sb_flag *sb_part_flag(const sb_part *p, size_t i)
{
	return i < p->nflags ? &p->flags[i] : NULL;
}
size_t sb_part_arg_count(const sb_part *p) { return p->nargs; }
const sb_word *sb_part_arg(const sb_part *p, size_t i)
{
	return i < p->nargs ? p->args[i] : NULL;
}
size_t sb_part_opaque_count(const sb_part *p) { return p->nopaque; }

/* A query matches a flag by its normalized name, by its spelling, or by
 * the short letter of a table flag ("N" finds -N, which is --nodes).
 * The query is normalized once, not once per flag it is compared with;
 * a flag's name is normalized already (sbx_add_flag, the tables). */
struct flag_query {
	char letter; /* a short letter, or 0 */
	char norm[128];
};

static void flag_query(const char *name, struct flag_query *q)
{
	size_t n = strlen(name);
	q->letter = 0;
	q->norm[0] = '\0';
	if (n == 1 || (n == 2 && name[0] == '-' && name[1] != '-'))
		q->letter = name[n - 1];
	else
		sbf_normalize(name, n, q->norm, sizeof q->norm);
}

static bool flag_is(const struct sb_flag *f, const struct flag_query *q)
{
	if (q->letter)
		return f->written[0] == '-' && f->written[1] == q->letter && f->written[2] == '\0';
	if (f->name[0] != '-') /* a normalized name normalizes to itself */
		return q->norm[0] == f->name[0] && strcmp(q->norm, f->name) == 0;
	/* "--_x" is named "-x", which normalizes on to "x": the query went
	 * that far, so the name goes as far too */
	char norm[sizeof q->norm];
	sbf_normalize(f->name, strlen(f->name), norm, sizeof norm);
	return strcmp(q->norm, norm) == 0;
}

const struct sb_flag *sb_flag_find(const sb_part *p, const char *name)
{
	const struct sb_flag *hit = NULL;
	struct flag_query q;
	if (!p || !name)
		return NULL;
	flag_query(name, &q);
	for (size_t i = 0; i < p->nflags; i++)
		if (flag_is(&p->flags[i], &q))
			hit = &p->flags[i];
	return hit;
}

const sb_word *sb_flag(const sb_part *p, const char *name)
{
	const struct sb_flag *f = sb_flag_find(p, name);
	return f ? f->value : NULL;
}

size_t sb_flag_occurrences(const sb_part *p, const char *name)
{
	size_t n = 0;
	struct flag_query q;
	if (!p || !name)
		return 0;
	flag_query(name, &q);
	for (size_t i = 0; i < p->nflags; i++)
		n += flag_is(&p->flags[i], &q);
	return n;
}

const sb_word *sb_flag_next(const sb_part *p, const char *name)
{
	const struct sb_flag *f = sb_flag_find(p, name);
	if (!f || f->value || f->arity != SB_ARITY_UNKNOWN || !f->bare_next)
		return NULL;
	for (size_t i = 0; i + 1 < p->nargs; i++)
		if (p->args[i] == f->word)
			return p->args[i + 1];
	return NULL;
}
