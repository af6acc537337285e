/* Rendering compiled templates against a tv context, within the depth,
 * output and work limits. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mustache_internal.h"
#include "xalloc.h"

/* ---- rendering --------------------------------------------------------- */

struct render {
	const struct tpl_partials *partials;
	bool strict;
	esc_fn esc;
	unsigned max_depth, depth;
	size_t max_output, max_steps, steps;
	struct buf *out;
	size_t start;             /* out->len before the render */
	const struct tv **stack;  /* contexts, root first; max_depth + 1 */
	size_t nstack;
	struct buf scratch;
	struct tpl_error *err;
	const struct tpl *at;     /* where the render is, for errors */
	size_t at_off;
};

static bool fail(struct render *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool fail(struct render *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tpl_verror(r->err, r->at, r->at_off, fmt, ap);
	va_end(ap);
	return false;
}

static bool room(struct render *r, size_t len)
{
	size_t used = r->out->len - r->start;
	if (used <= r->max_output && len <= r->max_output - used)
		return true;
	return fail(r, "output larger than %zu bytes", r->max_output);
}

static bool emit(struct render *r, const char *s, size_t len)
{
	if (!len)
		return true; /* s may be NULL: an empty scratch buffer */
	if (!room(r, len))
		return false;
	buf_put(r->out, s, len);
	return true;
}

/* Literal text of an indented partial gets the indentation after every
 * newline inside it; a newline that ends the node is followed by an
 * N_BOL node instead, so that a line removed as standalone is not. */
static bool put_text(struct render *r, const char *s, size_t len,
		     const char *ind, size_t indlen)
{
	while (len) {
		const char *nl = indlen ? memchr(s, '\n', len) : NULL;
		size_t k = nl ? (size_t)(nl - s) + 1 : len;
		if (!emit(r, s, k))
			return false;
		s += k;
		len -= k;
		if (len && !emit(r, ind, indlen))
			return false;
	}
	return true;
}

/* The first part of a dotted name is looked up through the context
 * stack, innermost first; the rest only inside what it found (spec
 * "Broken Chains", "Context Precedence"). False when missing. */
static bool lookup(const struct render *r, const struct tpl *t,
		   const struct node *nd, const struct tv **out)
{
	const char *name = t->src + nd->off;
	size_t len = nd->len;
	if (len == 1 && name[0] == '.') {
		*out = r->stack[r->nstack - 1];
		return true;
	}
	const char *dot = memchr(name, '.', len);
	size_t part = dot ? (size_t)(dot - name) : len;
	const struct tv *v = NULL;
	for (size_t i = r->nstack; i-- > 0 && !v;)
		v = tv_map_get(r->stack[i], name, part);
	while (v && dot) {
		len -= part + 1;
		name = dot + 1;
		dot = memchr(name, '.', len);
		part = dot ? (size_t)(dot - name) : len;
		v = tv_map_get(v, name, part);
	}
	*out = v;
	return v != NULL;
}

static bool render_range(struct render *r, const struct tpl *t, size_t from,
			 size_t to, const char *ind, size_t indlen);

/* One nesting level: a section body (pushing v when push) or a partial.
 * The depth check is what bounds the recursion of the renderer. */
static bool enter(struct render *r, const struct tpl *t, size_t from,
		  size_t to, bool push, const struct tv *v, const char *ind,
		  size_t indlen)
{
	if (r->depth >= r->max_depth)
		return fail(r, "sections and partials nested deeper than %u",
			    r->max_depth);
	r->depth++;
	if (push)
		r->stack[r->nstack++] = v;
	bool ok = render_range(r, t, from, to, ind, indlen);
	if (push)
		r->nstack--;
	r->depth--;
	return ok;
}

static bool interpolate(struct render *r, const struct tpl *t,
			const struct node *nd)
{
	const struct tv *v;
	const char *name = t->src + nd->off;
	if (!lookup(r, t, nd, &v))
		return r->strict ? fail(r, "missing variable '%.*s'",
					SHOW(nd->len), name)
				 : true;
	/* Only strings go through the escaper. The text of a number, bool
	 * or null ([-+.0-9e], inf, nan, true, false, "") cannot change the
	 * structure of YAML, shell or HTML, and printed bare it keeps its
	 * type: "MinCount: {{n}}" stays an integer in the YAML. */
	size_t len;
	const char *s = tv_str_get(v, &len);
	bool typed = !s;
	if (typed) {
		buf_reset(&r->scratch);
		if (!tv_format(v, &r->scratch))
			return r->strict ? fail(r, "'%.*s' is a %s, not a value to print",
						SHOW(nd->len), name,
						tv_kind(v) == TV_LIST ? "list" : "map")
					 : true;
		s = r->scratch.p ? r->scratch.p : "";
		len = r->scratch.len;
	}
	if (nd->kind == N_RAW || typed || !r->esc)
		return emit(r, s, len);
	/* an escaper grows a value by a bounded factor, so checking after
	 * it ran cannot overshoot by much; a failed render is cut back */
	r->esc(r->out, s, len);
	return room(r, 0);
}

static bool section(struct render *r, const struct tpl *t, size_t i,
		    const char *ind, size_t indlen)
{
	const struct node *nd = &t->v[i];
	const struct tv *v;
	if (!lookup(r, t, nd, &v) && r->strict)
		return fail(r, "missing section '%.*s'", SHOW(nd->len),
			    t->src + nd->off);
	if (nd->kind == N_INVERTED)
		return tv_truthy(v) ||
		       enter(r, t, i + 1, nd->end, false, NULL, ind, indlen);
	if (!tv_truthy(v))
		return true;
	if (tv_kind(v) != TV_LIST)
		return enter(r, t, i + 1, nd->end, true, v, ind, indlen);
	for (size_t k = 0; k < tv_len(v); k++) {
		r->at = t;
		r->at_off = nd->tag;
		if (!enter(r, t, i + 1, nd->end, true, tv_item(v, k), ind, indlen))
			return false;
	}
	return true;
}

static bool partial(struct render *r, const struct tpl *t,
		    const struct node *nd, const char *ind, size_t indlen)
{
	struct tpl **slot = tpl_partial_slot(r->partials, t->src + nd->off, nd->len);
	if (!slot)
		return r->strict ? fail(r, "unknown partial '%.*s'",
					SHOW(nd->len), t->src + nd->off)
				 : true;
	/* a standalone partial is indented by its tag's indentation on top
	 * of any it is already in; an inline one is not indented at all */
	size_t n = nd->standalone ? indlen + nd->ind_len : 0;
	char *own = xmalloc(n + 1);
	if (nd->standalone) {
		memcpy(own, ind, indlen);
		memcpy(own + indlen, t->src + nd->ind_off, nd->ind_len);
	}
	bool ok = enter(r, *slot, 0, (*slot)->n, false, NULL, own, n);
	free(own);
	return ok;
}

static bool render_range(struct render *r, const struct tpl *t, size_t from,
			 size_t to, const char *ind, size_t indlen)
{
	for (size_t i = from; i < to; i++) {
		const struct node *nd = &t->v[i];
		r->at = t;
		r->at_off = nd->tag;
		if (++r->steps > r->max_steps)
			return fail(r, "render took more than %zu steps", r->max_steps);
		bool ok = true;
		switch (nd->kind) {
		case N_TEXT:
			ok = put_text(r, t->src + nd->off, nd->len, ind, indlen);
			break;
		case N_BOL:
			ok = emit(r, ind, indlen);
			break;
		case N_VAR:
		case N_RAW:
			ok = interpolate(r, t, nd);
			break;
		case N_SECTION:
		case N_INVERTED:
			ok = section(r, t, i, ind, indlen);
			i = nd->end - 1;
			break;
		case N_PARTIAL:
			ok = partial(r, t, nd, ind, indlen);
			break;
		}
		if (!ok)
			return false;
	}
	return true;
}

bool tpl_render(const struct tpl *t, const struct tv *ctx,
		const struct tpl_partials *partials,
		const struct tpl_render_opts *opts, struct buf *out,
		struct tpl_error *err)
{
	static const struct tpl_render_opts defaults = { 0 };
	if (!opts)
		opts = &defaults;
	struct render r = {
		.partials = partials,
		.strict = opts->strict,
		.esc = opts->escaper,
		.max_depth = opts->max_depth ? opts->max_depth : TPL_DEFAULT_DEPTH,
		.max_output = opts->max_output ? opts->max_output : TPL_DEFAULT_OUTPUT,
		.max_steps = opts->max_steps ? opts->max_steps : TPL_DEFAULT_STEPS,
		.out = out,
		.start = out->len,
		.err = err,
		.at = t,
	};
	if (r.max_depth > TPL_MAX_DEPTH)
		r.max_depth = TPL_MAX_DEPTH;
	r.stack = xmalloc((r.max_depth + 1) * sizeof *r.stack);
	r.stack[r.nstack++] = ctx;
	bool ok = render_range(&r, t, 0, t->n, "", 0);
	if (!ok) {
		out->len = r.start;
		if (out->p)
			out->p[out->len] = '\0';
	}
	free(r.stack);
	buf_free(&r.scratch);
	return ok;
}
