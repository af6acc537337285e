/* The launcher chain of a command: "time srun -l "${ARGS[@]}" torchrun
 * "${TORCHRUN_ARGS[@]}" train.py --lr 1" becomes the parts WRAPPER, SRUN,
 * TORCHRUN, PYTHON, each with its flags parsed by that tool's table.
 *
 * Words are first expanded the way bash would where the script decides
 * it: "${ARR[@]}" splices the array's elements, an unquoted $VAR splits
 * its value into fields, when the resolver says the value is certain.
 * Where it is not, the word stays opaque. An opaque word among a
 * launcher's options is harmless when every value the variable may hold
 * is a complete set of that launcher's options (the usual AUTO_RESUME=""
 * or "--auto-resume=1"); otherwise the chain is marked assumed. A bash -c
 * string that is a literal is parsed as a script of its own, and its
 * commands are placed right after the command. */
#include "chain.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define MAX_PARTS 16
#define MAX_NESTED_SCRIPTS 1000

/* ---- bash -c ---- */

/* Whether the text of a quoted bash -c string, read as a script where
 * it stands, is what the inner shell parses. In single quotes it is.
 * In double quotes the batch shell expands $NAME and ${...} first
 * (the resolver reads those in the batch step, at the command) and
 * unescapes \$, \` and backslash-newline, which leaves a $ or ` for
 * each task to expand: read in place, that is a literal $, no
 * expansion of the batch step, which is what the checks need to know.
 * A \" or \\ would change where the inner shell's words end: those
 * strings are not read. */
static bool string_readable(const sb_word *str, char q)
{
	const sb_model *m = str->m;
	for (unsigned i = 0; i < str->nparts; i++) {
		const struct wpart *p = &str->parts[i];
		if (p->quote != q || (q == '\'' && p->kind != WP_LIT))
			return false;
		if (p->kind != WP_LIT || q != '"')
			continue;
		for (size_t k = p->off; k + 1 < p->end; k++)
			if (m->text[k] == '\\') {
				char e = m->text[++k];
				if (e == '"' || e == '\\')
					return false;
			}
	}
	return true;
}

static void nested_script(struct chain *ch, const sb_word *str, size_t index)
{
	sb_model *m = ch->m;
	sb_cmd *c = ch->c;
	const char *raw = m->text + str->off;
	size_t len = str->end - str->off;
	if (len < 2 || (raw[0] != '\'' && raw[0] != '"') || raw[len - 1] != raw[0])
		return;
	char q = raw[0];
	if (!string_readable(str, q))
		return;
	if (c->nest + 1 > m->lim.max_nest) {
		m->in_nested++;
		sbm_problem(m, SB_PROB_LIMIT, str->off, str->end,
			    "bash -c nested deeper than the limit: not modelled");
		m->in_nested--;
		return;
	}
	struct parse_env env = { 0 };
	env.nest = c->nest + 1;
	env.block = sbm_block_new(m, c->block, BK_SCOPE, true);
	env.scope = ++m->next_scope;
	env.ctx = c->ctx | SB_CTX_NESTED;
	env.func = c->func;
	env.parent = c;
	env.quote = q;
	env.in_string = true;
	size_t first = m->cmds.len;
	m->in_nested++;
	if (++m->nested_scripts > MAX_NESTED_SCRIPTS) {
		if (m->nested_scripts == MAX_NESTED_SCRIPTS + 1)
			sbm_problem(m, SB_PROB_LIMIT, str->off, str->end,
				    "more bash -c strings than the limit: the rest not modelled");
		m->in_nested--;
		return;
	}
	sbp_parse_range(m, str->off + 1, str->end - 1, &env);
	m->in_nested--;
	sbr_index_update(m);
	size_t n = m->cmds.len - first;
	if (!n)
		return;
	/* Move the new commands right after their command. Their
	 * assignments stay at the end of the list: they belong to a scope
	 * of their own, so no order between them and others matters. */
	sb_cmd **tmp = xmalloc(n * sizeof *tmp);
	memcpy(tmp, m->cmds.v + first, n * sizeof *tmp);
	memmove(m->cmds.v + index + 1 + n, m->cmds.v + index + 1, (first - index - 1) * sizeof *tmp);
	memcpy(m->cmds.v + index + 1, tmp, n * sizeof *tmp);
	free(tmp);
	for (size_t i = index + 1; i < m->cmds.len; i++)
		m->cmds.v[i]->index = i;
}

/* ---- the chain ---- */

static void python_part(struct chain *ch, size_t *i, const sb_word *program);

/* After torchrun's options: the training script, run with python (or a
 * module with -m). Returns true when, with --no-python, the next word is
 * a program of its own that the chain goes on with. */
static bool torchrun_tail(struct chain *ch, size_t i)
{
	bool no_python = false;
	for (size_t k = 0; k < ch->flags.len; k++)
		no_python |= strcmp(ch->flags.v[k].name, "no-python") == 0;
	sbx_close_part(ch);
	if (i >= ch->a.len || no_python)
		return no_python;
	struct sb_part *p = sbx_new_part(ch, SB_PROG_PYTHON, ch->a.v[i].w);
	p->entry = ch->a.v[i].w;
	if (ch->a.v[i].opaque)
		ch->c->assumed = true;
	sbx_rest_args(ch, i + 1);
	sbx_close_part(ch);
	return false;
}

/* The launchers python -m starts, by module, with their flag tables. */
static const struct flagset *module_launcher(const char *module)
{
	static const struct { const char *module; const struct flagset *fs; } mods[] = {
		{ "torch.distributed.run", &sbf_torchrun },
		{ "torch.distributed.launch", &sbf_torchrun },
		{ "accelerate.commands.launch", &sbf_accelerate },
		{ "deepspeed.launcher.runner", &sbf_deepspeed },
	};
	for (size_t k = 0; module && k < sizeof mods / sizeof mods[0]; k++)
		if (!strcmp(module, mods[k].module))
			return mods[k].fs;
	return NULL;
}

/* accelerate launch (or accelerate-launch) and deepspeed: their options, then the training
 * script as torchrun's is (python, or the program itself with
 * --no_python). Any other accelerate subcommand runs nothing. */
static bool launcher_part(struct chain *ch, size_t *i, const sb_word *prog, enum pclass pc)
{
	const char *name = prog->value ? sbf_basename(prog->value) : sbx_tail_name(prog);
	if (pc == PC_ACCELERATE && (!name || strcmp(name, "accelerate-launch") != 0)) {
		const char *sub = *i < ch->a.len ? ch->a.v[*i].v : NULL;
		if (!sub || strcmp(sub, "launch") != 0) {
			sbx_new_part(ch, SB_PROG_OTHER, prog);
			sbx_rest_args(ch, *i);
			sbx_close_part(ch);
			*i = ch->a.len;
			return false;
		}
		(*i)++;
	}
	sbx_new_part(ch, SB_PROG_LAUNCHER, prog);
	sbx_parse_options(ch, pc == PC_ACCELERATE ? &sbf_accelerate : &sbf_deepspeed, i);
	return torchrun_tail(ch, *i);
}

/* ssh [options] HOST [command...] and pdsh -w HOSTS [command...]: the
 * command runs on the other nodes. One quoted word is a string the
 * remote shell parses, read as a bash -c string is; several words go
 * on as the parts of this command. Returns true when the chain goes on
 * at *i. */
static bool remote_part(struct chain *ch, size_t *i, const sb_word *prog, enum pclass pc,
			size_t index)
{
	const struct flagset *fs = pc == PC_SSH ? &sbf_ssh : &sbf_pdsh;
	sbx_new_part(ch, SB_PROG_REMOTE, prog);
	/* The options end at the first word that is not one: the host is
	 * often an expansion ($node), which must not be read as options. */
	size_t end = *i, len = ch->a.len;
	char text[64];
	while (end < len && !ch->a.v[end].opaque &&
	       sbx_lit_prefix(ch->a.v[end].w, text, sizeof text) > 1 && text[0] == '-') {
		size_t step = 1;
		for (size_t k = 1; text[k]; k++) {
			const struct flagdef *d = sbf_short(fs, text[k]);
			if (d && d->arity == A_ONE) {
				step = text[k + 1] || ch->a.v[end].w->end > sbx_raw_of(ch->m, ch->a.v[end].w, k + 1)
					? 1 : 2;
				break;
			}
		}
		end += step;
	}
	ch->a.len = end < len ? end : len;
	sbx_parse_options(ch, fs, i);
	ch->a.len = len;
	if (pc == PC_SSH && *i < ch->a.len)
		VEC_PUSH(ch->args, ch->a.v[(*i)++].w);
	if (*i + 1 == ch->a.len && !ch->a.v[*i].opaque) {
		const sb_word *w = ch->a.v[*i].w;
		struct sb_part *p = sbx_cur(ch);
		p->entry = w;
		VEC_PUSH(ch->args, w);
		sbx_close_part(ch);
		if (sb_word_flags(w) & SB_W_QUOTED)
			nested_script(ch, w, index);
		return false;
	}
	sbx_close_part(ch);
	return true;
}

static void python_part(struct chain *ch, size_t *i, const sb_word *program)
{
	sb_model *m = ch->m;
	struct sb_part *p = sbx_new_part(ch, SB_PROG_PYTHON, program);
	char text[256];
	while (*i < ch->a.len) {
		const struct arg *a = &ch->a.v[*i];
		size_t n = a->opaque ? 0 : sbx_lit_prefix(a->w, text, sizeof text);
		if (n < 2 || text[0] != '-' || text[1] == '-') {
			if (n > 2 && text[1] == '-')
				sbx_add_flag(ch, a->w, text, strcspn(text, "="), NULL), (*i)++;
			else
				break;
			continue;
		}
		(*i)++;
		for (size_t k = 1; k < n; k++) {
			char o = text[k];
			if (o != 'm' && o != 'c' && o != 'W' && o != 'X') {
				sbx_add_flag(ch, a->w, (char[]){ '-', o }, 2, NULL)->arity = SB_ARITY_NONE;
				continue;
			}
			const sb_word *val = NULL;
			if (k + 1 < n)
				val = sbl_word_sub(m, a->w, sbx_raw_of(m, a->w, k + 1), a->w->end);
			else if (*i < ch->a.len)
				val = ch->a.v[(*i)++].w;
			struct sb_flag *f = sbx_add_flag(ch, a->w, (char[]){ '-', o }, 2, NULL);
			f->arity = SB_ARITY_ONE;
			f->value = val;
			const struct flagset *fs = o == 'm' && val ? module_launcher(val->value) : NULL;
			if (fs) {
				p->kind = fs == &sbf_torchrun ? SB_PROG_TORCHRUN : SB_PROG_LAUNCHER;
				p->entry = val;
				ch->flags.len = 0;
				sbx_parse_options(ch, fs, i);
				if (!torchrun_tail(ch, *i))
					*i = ch->a.len;
				return;
			}
			if (o == 'm' || o == 'c') {
				p->entry = val;
				sbx_rest_args(ch, *i);
				sbx_close_part(ch);
				*i = ch->a.len;
				return;
			}
			break;
		}
	}
	if (*i < ch->a.len) {
		p->entry = ch->a.v[*i].w;
		sbx_rest_args(ch, *i + 1);
	}
	sbx_close_part(ch);
	*i = ch->a.len;
}

static void shell_part(struct chain *ch, size_t *i, const sb_word *program, size_t index)
{
	char text[64];
	while (*i < ch->a.len) {
		const struct arg *a = &ch->a.v[*i];
		size_t n = a->opaque ? 0 : sbx_lit_prefix(a->w, text, sizeof text);
		if (n < 2 || (text[0] != '-' && text[0] != '+') || !strcmp(text, "--"))
			break;
		(*i)++;
		if (text[1] != '-' && strchr(text + 1, 'c')) {
			struct sb_part *p = sbx_new_part(ch, SB_PROG_SHELL_C, program);
			if (*i < ch->a.len) {
				p->entry = ch->a.v[*i].w;
				sbx_rest_args(ch, *i + 1);
			}
			sbx_close_part(ch);
			if (p->entry && !ch->a.v[*i].opaque)
				nested_script(ch, p->entry, index);
			*i = ch->a.len;
			return;
		}
		if (!strcmp(text, "-o") || !strcmp(text, "+o"))
			(*i)++;
	}
	if (*i >= ch->a.len || ch->a.v[*i].opaque) {
		sbx_new_part(ch, SB_PROG_OTHER, program);
		sbx_rest_args(ch, *i);
	} else {
		struct sb_part *p = sbx_new_part(ch, SB_PROG_SCRIPT, program);
		p->entry = ch->a.v[*i].w;
		sbx_rest_args(ch, *i + 1);
	}
	sbx_close_part(ch);
	*i = ch->a.len;
}

static bool wrapper_part(struct chain *ch, size_t *i, const struct wrapdef *wd)
{
	char text[64];
	if (wd->query)
		for (size_t k = *i; k < ch->a.len; k++) {
			size_t n = ch->a.v[k].opaque ? 0 : sbx_lit_prefix(ch->a.v[k].w, text, sizeof text);
			if (n < 2 || text[0] != '-')
				break;
			if (strpbrk(text + 1, wd->query))
				return false;
		}
	sbx_parse_options(ch, &wd->flags, i);
	while (wd->assigns && *i < ch->a.len && ch->a.v[*i].v && strchr(ch->a.v[*i].v, '=') &&
	       text_is_name_start((unsigned char)ch->a.v[*i].v[0]))
		VEC_PUSH(ch->args, ch->a.v[(*i)++].w);
	for (unsigned k = 0; k < wd->positionals && *i < ch->a.len; k++)
		VEC_PUSH(ch->args, ch->a.v[(*i)++].w);
	sbx_close_part(ch);
	return true;
}

void sbx_analyse(sb_model *m, size_t index)
{
	sb_cmd *c = m->cmds.v[index];
	if (c->analysed)
		return;
	c->analysed = true;
	struct chain ch = { .m = m, .c = c };
	if (c->arith) {
		/* (( ... )) is the shell's own arithmetic. */
		struct sb_part part = { .kind = SB_PROG_OTHER, .program = c->words[0], .name = "((" };
		c->parts = sbm_alloc(m, sizeof *c->parts);
		c->parts[0] = part;
		c->nparts = 1;
		return;
	}
	sbx_expand(&ch);
	size_t i = 0;
	while (i < ch.a.len && ch.parts.len < MAX_PARTS) {
		const struct arg *a = &ch.a.v[i];
		const char *pname = a->v ? a->v : a->opaque ? NULL : sbx_tail_name(a->w);
		if (!pname) {
			const struct arg *nx = i + 1 < ch.a.len ? &ch.a.v[i + 1] : NULL;
			sbx_new_part(&ch, SB_PROG_UNKNOWN, a->w);
			if (a->opaque && nx && !nx->opaque && sbx_known_program(nx->v)) {
				/* "$MAYBE_COMPILE torchrun ...": read on as if the
				 * expansion were empty or a wrapper. */
				sbx_cur(&ch)->nopaque++;
				sbx_close_part(&ch);
				c->assumed = true;
				i++;
				continue;
			}
			sbx_rest_args(&ch, i + 1);
			sbx_close_part(&ch);
			break;
		}
		const struct wrapdef *wd;
		enum pclass pc = sbf_classify(pname, &wd);
		const sb_word *prog = a->w;
		i++;
		switch (pc) {
		case PC_WRAPPER:
			sbx_new_part(&ch, SB_PROG_WRAPPER, prog);
			if (!wrapper_part(&ch, &i, wd)) {
				sbx_cur(&ch)->kind = SB_PROG_OTHER;
				sbx_rest_args(&ch, i);
				sbx_close_part(&ch);
				i = ch.a.len;
			}
			continue;
		case PC_SRUN:
			sbx_new_part(&ch, SB_PROG_SRUN, prog);
			sbx_parse_options(&ch, &sbf_srun, &i);
			sbx_close_part(&ch);
			continue;
		case PC_MPIRUN:
			sbx_new_part(&ch, SB_PROG_MPIRUN, prog);
			sbx_parse_options(&ch, &sbf_mpirun, &i);
			sbx_close_part(&ch);
			continue;
		case PC_NPC:
			sbx_new_part(&ch, SB_PROG_NEURON_PARALLEL_COMPILE, prog);
			sbx_parse_options(&ch, &sbf_npc, &i);
			sbx_close_part(&ch);
			continue;
		case PC_TORCHRUN:
			sbx_new_part(&ch, SB_PROG_TORCHRUN, prog);
			sbx_parse_options(&ch, &sbf_torchrun, &i);
			if (!torchrun_tail(&ch, i))
				i = ch.a.len;
			continue;
		case PC_PYTHON:
			python_part(&ch, &i, prog);
			continue;
		case PC_SSH:
		case PC_PDSH:
			if (!remote_part(&ch, &i, prog, pc, index))
				i = ch.a.len;
			continue;
		case PC_ACCELERATE:
		case PC_DEEPSPEED:
			if (!launcher_part(&ch, &i, prog, pc))
				i = ch.a.len;
			continue;
		case PC_SHELL:
			shell_part(&ch, &i, prog, index);
			continue;
		case PC_SCRIPT:
			sbx_new_part(&ch, SB_PROG_SCRIPT, prog)->entry = prog;
			break;
		case PC_LAUNCHER:
			sbx_new_part(&ch, SB_PROG_LAUNCHER, prog);
			break;
		case PC_OTHER:
			sbx_new_part(&ch, SB_PROG_OTHER, prog);
			break;
		}
		sbx_rest_args(&ch, i);
		sbx_close_part(&ch);
		i = ch.a.len;
	}
	/* "env" or "time" alone runs nothing. */
	if (ch.parts.len && ch.parts.v[ch.parts.len - 1].kind == SB_PROG_WRAPPER)
		ch.parts.v[ch.parts.len - 1].kind = SB_PROG_OTHER;
	if (ch.parts.len) {
		c->parts = sbm_alloc(m, ch.parts.len * sizeof *c->parts);
		memcpy(c->parts, ch.parts.v, ch.parts.len * sizeof *c->parts);
		c->nparts = ch.parts.len;
	}
	free(ch.a.v);
	free(ch.parts.v);
	free(ch.flags.v);
	free(ch.args.v);
}

