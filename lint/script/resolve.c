/* What a variable holds when a command runs, as far as the text can
 * tell. An assignment decides only when it certainly ran before the
 * command and nothing after it may have changed the variable: it sits in
 * a block that encloses the command (or in transparent blocks up to one
 * that does), it is not behind && or ||, in a pipeline or in the
 * background, no loop around the command assigns the variable later in
 * the loop, and, for a command in a function body, nothing outside the
 * function assigns it after the function is defined. Anything else is
 * unknown. */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define MAX_HOPS 16

static bool ancestor_or_self(const sb_model *m, unsigned anc, unsigned b)
{
	/* A block's parent always has a smaller index, so this ends. */
	for (;;) {
		if (b == anc)
			return true;
		if (b == 0)
			return false;
		b = m->blocks.v[b].parent;
	}
}

static bool certain(const sb_model *m, const struct assign_rec *a, unsigned use_block)
{
	if (a->pub.cmd->ctx & (SB_CTX_AND_OR | SB_CTX_PIPELINE | SB_CTX_BACKGROUND))
		return false;
	unsigned b = a->block;
	while (!ancestor_or_self(m, b, use_block)) {
		if (m->blocks.v[b].opaque)
			return false;
		b = m->blocks.v[b].parent;
	}
	return true;
}

/* ---- the index: assignments by (scope, name), in command order ---- */

/* Past this many assignments of one name, the answer is "unknown"
 * rather than a long walk: hostile input must not make lint slow. */
#define MAX_VISITS 4096

struct nlist {
	const char *name;   /* "*" holds the source barriers of a scope */
	unsigned scope;
	VEC(const struct assign_rec *) v;
};

struct name_index {
	struct nlist *slot;
	size_t cap, used;
	size_t done;        /* m->assigns already indexed */
};

static struct nlist *find_slot(struct nlist *slot, size_t cap, const char *name, unsigned scope)
{
	size_t i = (size_t)text_hash(name, strlen(name), scope) & (cap - 1);
	while (slot[i].name && (slot[i].scope != scope || strcmp(slot[i].name, name) != 0))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct name_index *x)
{
	size_t cap = x->cap ? x->cap * 2 : 256;
	struct nlist *slot = xcalloc(cap, sizeof *slot);
	for (size_t i = 0; i < x->cap; i++)
		if (x->slot[i].name)
			*find_slot(slot, cap, x->slot[i].name, x->slot[i].scope) = x->slot[i];
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
}

void sbr_index_update(sb_model *m)
{
	if (!m->names)
		m->names = xcalloc(1, sizeof *m->names);
	struct name_index *x = m->names;
	for (; x->done < m->assigns.len; x->done++) {
		const struct assign_rec *a = m->assigns.v[x->done];
		if (a->pub.kind == SB_ASSIGN_PREFIX)
			continue; /* a command's own environment, never the shell's */
		if ((x->used + 1) * 2 > x->cap)
			grow(x);
		const char *name = a->source_barrier ? "*" : a->pub.name;
		struct nlist *l = find_slot(x->slot, x->cap, name, a->scope);
		if (!l->name) {
			l->name = name;
			l->scope = a->scope;
			x->used++;
		}
		VEC_PUSH(l->v, a);
	}
}

void sbr_index_free(sb_model *m)
{
	struct name_index *x = m->names;
	if (!x)
		return;
	for (size_t i = 0; i < x->cap; i++)
		free(x->slot[i].v.v);
	free(x->slot);
	free(x);
}

static const struct nlist *list_of(const sb_model *m, const char *name, unsigned scope)
{
	const struct name_index *x = m->names;
	if (!x || !x->cap)
		return NULL;
	const struct nlist *l = find_slot(x->slot, x->cap, name, scope);
	return l->name ? l : NULL;
}

struct use {
	size_t index;
	unsigned block, scope;
};

static struct use use_of(const sb_model *m, const sb_cmd *at)
{
	struct use u = { m->cmds.len, 0, 0 };
	if (at) {
		u.index = at->index;
		u.block = at->block;
		u.scope = at->scope;
	}
	return u;
}

/* How many entries of l belong to commands before index. */
static size_t before(const struct nlist *l, size_t index)
{
	size_t lo = 0, hi = l ? l->v.len : 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->v.v[mid]->pub.cmd->index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Walks the assignments of a name and the source barriers of its scope
 * that come before a use, latest first. */
struct walk {
	const struct nlist *a, *b;
	size_t ia, ib;
	size_t visits;
};

static struct walk walk_start(const sb_model *m, const char *name, struct use u)
{
	struct walk w = { list_of(m, name, u.scope), list_of(m, "*", u.scope), 0, 0, 0 };
	w.ia = before(w.a, u.index);
	w.ib = before(w.b, u.index);
	return w;
}

/* NULL at the start of the script, or when the budget is spent (then
 * *over is set). */
static const struct assign_rec *prev(struct walk *w, bool *over)
{
	if (++w->visits > MAX_VISITS) {
		*over = true;
		return NULL;
	}
	const struct assign_rec *x = w->ia ? w->a->v.v[w->ia - 1] : NULL;
	const struct assign_rec *y = w->ib ? w->b->v.v[w->ib - 1] : NULL;
	if (x && (!y || x->pub.cmd->index >= y->pub.cmd->index)) {
		w->ia--;
		return x;
	}
	if (y)
		w->ib--;
	return y;
}

/* A loop around the use that assigns the name after it, or a function
 * around the use whose variable may be set after its definition: then
 * the text order does not tell the run order. */
static bool reassigned_later(const sb_model *m, const char *name, struct use u)
{
	const struct nlist *l = list_of(m, name, u.scope);
	if (!l)
		return false;
	for (unsigned b = u.block; b; b = m->blocks.v[b].parent) {
		const struct block *blk = &m->blocks.v[b];
		if (blk->kind != BK_LOOP && blk->kind != BK_FUNCTION)
			continue;
		if (l->v.len > MAX_VISITS)
			return true;
		for (size_t i = before(l, u.index); i < l->v.len; i++) {
			const struct assign_rec *a = l->v.v[i];
			bool inside = ancestor_or_self(m, b, a->block);
			if (blk->kind == BK_LOOP && inside)
				return true;
			if (blk->kind == BK_FUNCTION && (!inside || a->pub.cmd->index > u.index))
				return true;
		}
	}
	return false;
}

static bool exported_at(const sb_model *m, const char *name, struct use u)
{
	struct walk w = walk_start(m, name, u);
	const struct assign_rec *a;
	bool over = false;
	while ((a = prev(&w, &over)))
		if (!a->source_barrier && a->pub.exported && certain(m, a, u.block))
			return true;
	return false;
}

static enum sb_res resolve_in(const sb_model *m, const char *name, const sb_cmd *at,
			      struct sb_resolved *out, unsigned hops);

static enum sb_res finish(struct sb_resolved *out, enum sb_res kind)
{
	out->kind = kind;
	return kind;
}

/* The command of a bash -c string that holds at (out of the $( )
 * inside the string), or at itself in the batch shell. */
static const sb_cmd *string_cmd(const sb_cmd *at)
{
	const sb_cmd *outer = at;
	while (outer && outer->scope == at->scope && outer->parent &&
	       outer->nest_quote == 0 && outer->parent->scope == at->scope)
		outer = outer->parent;
	return outer;
}

/* A bash -c string: in double quotes the batch shell expanded it; in
 * single quotes the inner shell sees its own assignments, then what the
 * batch shell exported (outer_exported). */
static enum sb_res resolve_nested(const sb_model *m, const char *name, const sb_cmd *at,
				  struct sb_resolved *out, unsigned hops, bool *done)
{
	*done = false;
	if (!at || !at->scope)
		return SB_RES_UNKNOWN;
	const sb_cmd *outer = string_cmd(at);
	if (outer->nest_quote == '"' && outer->parent) {
		*done = true;
		return resolve_in(m, name, outer->parent, out, hops);
	}
	return SB_RES_UNKNOWN;
}

/* A name a single-quoted bash -c string does not assign: the inner
 * shell's environment, which holds what the shell around it exported
 * when it ran the string. A value the outer shell set without export
 * may still be exported (a name it inherited is), so it is unknown. */
static bool single_string(const sb_cmd *at)
{
	const sb_cmd *outer = at && at->scope ? string_cmd(at) : NULL;
	return outer && outer->nest_quote == '\'' && outer->parent;
}

static enum sb_res outer_exported(const sb_model *m, const char *name, const sb_cmd *at,
				  struct sb_resolved *out, unsigned hops)
{
	enum sb_res r = resolve_in(m, name, string_cmd(at)->parent, out, hops);
	if ((r == SB_RES_VALUE || r == SB_RES_WORD) && !out->exported)
		return finish(out, SB_RES_UNKNOWN);
	return r;
}


static enum sb_res resolve_in(const sb_model *m, const char *name, const sb_cmd *at,
			      struct sb_resolved *out, unsigned hops)
{
	bool done;
	enum sb_res r = resolve_nested(m, name, at, out, hops, &done);
	if (done)
		return r;
	struct use u = use_of(m, at);
	memset(out, 0, sizeof *out);
	out->hops = hops;
	if (reassigned_later(m, name, u))
		return finish(out, SB_RES_UNKNOWN);
	struct walk w = walk_start(m, name, u);
	const struct assign_rec *a, *deflt = NULL;
	bool over = false;
	while ((a = prev(&w, &over))) {
		if (a->source_barrier) {
			out->after_source = true;
			continue;
		}
		if (a->pub.kind == SB_ASSIGN_MARK)
			continue;
		out->assign = &a->pub;
		if (!certain(m, a, u.block) || a->pub.kind == SB_ASSIGN_UNKNOWN || a->pub.array ||
		    a->pub.append)
			return finish(out, SB_RES_UNKNOWN);
		if (a->pub.kind == SB_ASSIGN_DEFAULT) {
			/* Takes effect only if nothing earlier set a value. */
			if (!deflt)
				deflt = a;
			continue;
		}
		if (a->pub.kind == SB_ASSIGN_UNSET) {
			if (deflt)
				goto use_default;
			out->value = "";
			return finish(out, SB_RES_VALUE);
		}
		if (deflt) {
			if (!a->pub.value || !a->pub.value->value)
				return finish(out, SB_RES_UNKNOWN);
			if (!a->pub.value->value[0])
				goto use_default;
		}
		goto decided;
	}
	if (over)
		return finish(out, SB_RES_UNKNOWN);
	if (!deflt) {
		bool sourced = out->after_source;
		if (!sourced && single_string(at))
			return outer_exported(m, name, at, out, hops);
		memset(out, 0, sizeof *out);
		out->hops = hops;
		out->after_source = sourced;
		out->var = name;
		out->exported = true;
		return finish(out, SB_RES_ENV);
	}
	/* ${NAME:=x} with nothing before it: the environment may hold NAME. */
	out->overridable = true;
use_default:
	a = deflt;
	out->assign = &a->pub;
decided:
	out->exported = out->exported || a->pub.exported || exported_at(m, name, u);
	if (a->pub.value && a->pub.value->value) {
		out->value = a->pub.value->value;
		return finish(out, SB_RES_VALUE);
	}
	if (a->pub.value && a->pub.value->var && hops < MAX_HOPS) {
		bool overridable = out->overridable, exported = out->exported;
		bool after_source = out->after_source;
		const struct sb_assign *first = out->assign;
		enum sb_res next = resolve_in(m, a->pub.value->var, a->pub.cmd, out, hops + 1);
		out->overridable |= overridable;
		out->after_source |= after_source;
		out->exported |= exported;
		/* Keep the last link of the chain when nothing later decides. */
		if (!out->assign)
			out->assign = first;
		return next;
	}
	return finish(out, SB_RES_WORD);
}

enum sb_res sbr_resolve(const sb_model *m, const char *name, const sb_cmd *at,
			struct sb_resolved *out)
{
	return resolve_in(m, name, at, out, 0);
}

enum sb_res sb_resolve(const sb_model *m, const char *name, const sb_cmd *at,
		       struct sb_resolved *out)
{
	struct sb_resolved tmp;
	if (!out)
		out = &tmp;
	if (!name) {
		memset(out, 0, sizeof *out);
		return finish(out, SB_RES_UNKNOWN);
	}
	return resolve_in(m, name, at, out, 0);
}

enum sb_res sb_resolve_word(const sb_model *m, const sb_word *w, const sb_cmd *at,
			    struct sb_resolved *out)
{
	struct sb_resolved tmp;
	if (!out)
		out = &tmp;
	if (w && w->var)
		return resolve_in(m, w->var, at, out, 0);
	memset(out, 0, sizeof *out);
	if (w && w->value) {
		out->value = w->value;
		return finish(out, SB_RES_VALUE);
	}
	return finish(out, SB_RES_UNKNOWN);
}

bool sb_word_batch_expanded(const sb_model *m, const sb_word *w, const sb_cmd *at)
{
	if (!at || !at->scope)
		return true;
	const sb_cmd *outer = string_cmd(at);
	if (outer->nest_quote == '"')
		return true;
	const sb_word *origin = w ? w->origin : NULL;
	struct sb_resolved r;
	if (!origin || !origin->var || resolve_in(m, origin->var, at, &r, 0) == SB_RES_UNKNOWN ||
	    !r.assign)
		return false;
	return r.assign->cmd->scope == 0;
}

bool sbr_array(sb_model *m, const char *name, const sb_cmd *at, const sb_word ***elems,
	       size_t *n)
{
	struct use u = use_of(m, at);
	*elems = NULL;
	*n = 0;
	if (reassigned_later(m, name, u))
		return false;
	const struct assign_rec *chain[64];
	size_t nchain = 0;
	struct walk w = walk_start(m, name, u);
	const struct assign_rec *a;
	bool sourced = false, over = false;
	while ((a = prev(&w, &over))) {
		/* A sourced file is assumed not to redefine what the script
		 * itself assigns; an array the script never assigns may come
		 * from it. */
		if (a->source_barrier) {
			sourced = true;
			continue;
		}
		if (a->pub.kind == SB_ASSIGN_MARK)
			continue;
		if (!certain(m, a, u.block) || nchain == 64)
			return false;
		if (a->pub.kind == SB_ASSIGN_UNSET)
			break;
		if (!a->pub.array || a->pub.kind == SB_ASSIGN_UNKNOWN)
			return false;
		chain[nchain++] = a;
		if (!a->pub.append)
			break;
	}
	/* Arrays are not inherited from the environment: an array never
	 * set is empty. */
	if (over || (!nchain && sourced))
		return false;
	size_t total = 0;
	for (size_t i = 0; i < nchain; i++)
		total += chain[i]->pub.n_elems;
	if (!total)
		return true;
	const sb_word **v = sbm_alloc(m, total * sizeof *v);
	size_t k = 0;
	for (size_t i = nchain; i-- > 0;)
		for (size_t j = 0; j < chain[i]->pub.n_elems; j++)
			v[k++] = chain[i]->pub.elems[j];
	*elems = v;
	*n = total;
	return true;
}

void sbr_candidates(const sb_model *m, const char *name, const sb_cmd *at, bool is_array,
		    struct cands *out)
{
	struct use u = use_of(m, at);
	memset(out, 0, sizeof *out);
	if (reassigned_later(m, name, u)) {
		out->any = true;
		return;
	}
	struct walk w = walk_start(m, name, u);
	const struct assign_rec *a;
	const struct assign_rec *tmp[32];
	size_t n = 0;
	bool base = false, sourced = false, over = false;
	while ((a = prev(&w, &over))) {
		if (a->source_barrier) {
			sourced = true;
			continue;
		}
		if (a->pub.kind == SB_ASSIGN_MARK)
			continue;
		if (n == 32) {
			out->any = true;
			return;
		}
		tmp[n++] = a;
		if (certain(m, a, u.block) && !a->pub.append && a->pub.kind != SB_ASSIGN_DEFAULT) {
			base = true;
			break;
		}
	}
	/* Without a base, a scalar may come from the environment; an array
	 * is then simply empty. */
	out->any = over || (!base && (!is_array || sourced));
	out->certain = base;
	for (size_t i = n; i-- > 0;)
		out->v[out->n++] = tmp[i];
}

size_t sb_assign_candidates(const sb_model *m, const char *name, const sb_cmd *at,
			    const struct sb_assign **out, size_t max, bool *base)
{
	struct cands c;
	*base = false;
	if (reassigned_later(m, name, use_of(m, at)))
		return SIZE_MAX;
	sbr_candidates(m, name, at, false, &c);
	*base = c.certain;
	if (c.n > max || (c.n == 32 && c.any))
		return SIZE_MAX;
	for (size_t i = 0; i < c.n; i++)
		out[i] = &c.v[c.n - 1 - i]->pub;
	return c.n;
}

/* The one condition command of an if branch, or NULL. */
static const sb_cmd *branch_condition(const sb_model *m, unsigned block, bool *several)
{
	const sb_cmd *found = NULL;
	*several = false;
	for (size_t i = m->blocks.v[block].first_cmd; i < m->cmds.len; i++) {
		const sb_cmd *c = m->cmds.v[i];
		if (c->block != block || !(c->ctx & SB_CTX_CONDITION))
			continue;
		if (found || (c->ctx & (SB_CTX_AND_OR | SB_CTX_NEGATED | SB_CTX_PIPELINE)))
			*several = true;
		found = c;
	}
	return found;
}

/* The one block between an assignment and a use that decides whether
 * the assignment ran: an if branch or a case item; 0 when none does;
 * UINT_MAX when another or more than one does. */
static unsigned deciding_block(const sb_model *m, const struct sb_assign *a, const sb_cmd *use)
{
	const struct assign_rec *rec = (const struct assign_rec *)a;
	unsigned use_block = use ? use->block : 0, found = 0;
	if (rec->source_barrier || (rec->pub.cmd->ctx & (SB_CTX_AND_OR | SB_CTX_PIPELINE | SB_CTX_BACKGROUND)))
		return UINT_MAX;
	for (unsigned b = rec->block; !ancestor_or_self(m, b, use_block); b = m->blocks.v[b].parent) {
		const struct block *blk = &m->blocks.v[b];
		if (!blk->opaque)
			continue;
		if (found || (!blk->if_first && !blk->case_cmd))
			return UINT_MAX;
		found = b;
	}
	return found;
}

size_t sb_assign_case(const sb_model *m, const struct sb_assign *a, const sb_cmd *use,
		      const sb_word **subject, const char **patterns, size_t max)
{
	unsigned item = deciding_block(m, a, use);
	if (!item)
		return 0;
	if (item == UINT_MAX || !m->blocks.v[item].case_cmd)
		return SIZE_MAX;
	const sb_cmd *cmd = m->blocks.v[item].case_cmd;
	if (cmd->nwords < 2)
		return SIZE_MAX;
	*subject = cmd->words[1];
	size_t n = 0;
	for (unsigned k = 0; k <= item; k++) {
		const struct block *b = &m->blocks.v[k];
		if (b->case_cmd != cmd)
			continue;
		if (b->falls_through || n == max)
			return SIZE_MAX;
		size_t lo = b->pat_off, hi = b->pat_end;
		if (hi > lo && m->text[hi - 1] == ')')
			hi--;
		if (lo < hi && m->text[lo] == '(')
			lo++;
		patterns[n++] = sbm_strndup((sb_model *)m, m->text + lo, hi - lo);
	}
	return n;
}

size_t sb_assign_conditions(const sb_model *m, const struct sb_assign *a, const sb_cmd *use,
			    const sb_cmd **conds, bool *taken, size_t max)
{
	unsigned branch = deciding_block(m, a, use);
	if (branch == UINT_MAX || (branch && !m->blocks.v[branch].if_first))
		return SIZE_MAX;
	if (!branch)
		return 0;
	size_t n = 0;
	bool several;
	for (unsigned k = m->blocks.v[branch].if_first; k <= branch; k++) {
		if (m->blocks.v[k].if_first != m->blocks.v[branch].if_first)
			continue;
		const sb_cmd *cond = branch_condition(m, k, &several);
		if (several || (!cond && k != branch) || n + 1 > max)
			return SIZE_MAX;
		if (!cond)
			break; /* the else */
		conds[n] = cond;
		taken[n++] = k == branch;
	}
	return n;
}
