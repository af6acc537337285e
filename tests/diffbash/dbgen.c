/* The generator's frame: the random source, the writer, here-document
 * bodies, lists and pipelines, the shape of a whole script and the
 * text-level mutations. The words, simple commands and compound
 * commands it strings together are in dbgen_word.c, dbgen_cmd.c and
 * dbgen_compound.c. */
#include "dbgen_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const construct_names[] = {
#define CONSTRUCT(id, name, what) name,
#include "constructs.def"
#undef CONSTRUCT
};

static const char *const mutation_names[] = {
#define MUTATION(id, name, what) name,
#include "mutations.def"
#undef MUTATION
};

const char *dbg_construct_name(enum dbg_construct c) { return construct_names[c]; }
const char *dbg_mutation_name(enum dbg_mutation m) { return mutation_names[m]; }

bool dbg_uses(const struct dbg_script *s, enum dbg_construct c)
{
	return (s->used[c / 64] >> (c % 64)) & 1;
}

/* ---- random choices ---- */

/* splitmix64: one state word, so (seed, index) is a cheap fresh start. */
uint64_t g_rand(struct gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

unsigned g_below(struct gen *g, unsigned n)
{
	return n ? (unsigned)(g_rand(g) % n) : 0;
}

bool g_pct(struct gen *g, unsigned pct)
{
	return g_below(g, 100) < pct;
}

const char *g_pick_(struct gen *g, const char *const *v, size_t n)
{
	return v[g_below(g, (unsigned)n)];
}

unsigned g_weighted(struct gen *g, const unsigned *w, size_t n)
{
	unsigned total = 0;
	for (size_t i = 0; i < n; i++)
		total += w[i];
	unsigned r = g_below(g, total);
	for (size_t i = 0; i < n; i++) {
		if (r < w[i])
			return (unsigned)i;
		r -= w[i];
	}
	return 0;
}

/* ---- writing ---- */

void g_put(struct gen *g, const char *s)
{
	buf_puts(g->out, s);
}

void g_printf(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(g->out, fmt, ap);
	va_end(ap);
}

void g_use(struct gen *g, enum dbg_construct c)
{
	g->s->used[c / 64] |= (uint64_t)1 << (c % 64);
}

void g_chained(struct gen *g)
{
	if (g->out->len == g->dbracket_end && (g->depth || g->in_func))
		g_use(g, DBC_DBRACKET_CHAIN);
}

bool g_mut(struct gen *g, enum dbg_mutation m)
{
	if (g->mutation != (int)m || g->mutated || !g_pct(g, 35))
		return false;
	g->mutated = true;
	return true;
}

static bool at_line_start(const struct gen *g)
{
	return !g->out->len || g->out->p[g->out->len - 1] == '\n';
}

void g_indent(struct gen *g)
{
	if (!at_line_start(g))
		return;
	for (unsigned i = 0; i < g->indent && i < 12; i++)
		g_put(g, "  ");
}

bool g_pending(const struct gen *g)
{
	return g->level < G_LEVELS && g->hd[g->level].n > 0;
}

bool g_oneline(const struct gen *g)
{
	for (unsigned l = 0; l < g->level && l < G_LEVELS; l++)
		if (g->hd[l].n)
			return true;
	return false;
}

bool g_heredoc(struct gen *g, bool strip, bool quoted)
{
	static const char *const delims[] = { "EOF", "EOT", "END", "CONFIG", "PY", "JSON", "SCRIPT", "_EOF_" };
	if (g->level >= G_LEVELS || g->hd[g->level].n >= G_HEREDOCS)
		return false;
	struct g_heredoc *h = &g->hd[g->level].v[g->hd[g->level].n++];
	snprintf(h->delim, sizeof h->delim, "%s", g_pick(g, delims));
	h->strip = strip;
	h->quoted = quoted;
	h->broken = g_mut(g, DBM_HEREDOC_UNTERMINATED);
	g_use(g, DBC_HEREDOC);
	if (strip)
		g_use(g, DBC_HEREDOC_STRIP);
	if (quoted)
		g_use(g, DBC_HEREDOC_QUOTED);
	if (g->level)
		g_use(g, DBC_HEREDOC_CMDSUB);
	if (g->depth)
		g_use(g, DBC_HEREDOC_COMPOUND);
	if (g->hd[g->level].n == 2)
		g_use(g, DBC_HEREDOC_MULTI);
	const char *op = strip ? "<<-" : "<<";
	if (!quoted)
		g_printf(g, "%s%s%s", op, g_pct(g, 20) ? " " : "", h->delim);
	else if (g_pct(g, 60))
		g_printf(g, "%s'%s'", op, h->delim);
	else if (g_pct(g, 50))
		g_printf(g, "%s\"%s\"", op, h->delim);
	else
		g_printf(g, "%s\\%s", op, h->delim);
	return true;
}

/* Lines of a body: configs, Python, and text that looks like shell
 * (a closing paren, an apostrophe, a keyword) and must stay data. */
static void heredoc_body(struct gen *g, const struct g_heredoc *h)
{
	static const char *const plain[] = {
		"{", "  \"train_micro_batch_size_per_gpu\": 1,", "  \"zero_optimization\": {\"stage\": 3}", "}",
		"import os, sys", "print(os.environ.get('RANK'), sys.argv)", "if __name__ == '__main__':",
		"    main()", "it's done", ")", "fi", "esac", "done", "}", "EOFX", "x=$(", "`", "\"", "'",
		"# not a comment", "case $x in", "[[ a b ]]", "name: llama-7b", "lr: 3.0e-4",
		"données d'entraînement — ✓", "λ = 0.1", "\\", "  indented text",
	};
	static const char *const expanding[] = {
		"host=$(hostname)", "nodes=${SLURM_NNODES:-1}", "world=$((SLURM_NNODES * 8))",
		"job $SLURM_JOB_ID on ${SLURM_JOB_NODELIST}", "rank \\$RANK stays literal", "`date +%s`",
	};
	unsigned n = g_below(g, 6);
	for (unsigned i = 0; i < n; i++) {
		if (h->strip && g_pct(g, 70))
			g_put(g, "\t");
		const char *line = !h->quoted && g_pct(g, 30) ? g_pick(g, expanding) : g_pick(g, plain);
		g_printf(g, "%s%s", line, g->eol);
	}
	if (h->broken)
		return;
	if (h->strip && g_pct(g, 50))
		g_put(g, "\t\t");
	g_printf(g, "%s%s", h->delim, g->eol);
}

void g_nl(struct gen *g)
{
	g_put(g, g->eol);
	if (g->level >= G_LEVELS)
		return;
	for (unsigned i = 0; i < g->hd[g->level].n; i++)
		heredoc_body(g, &g->hd[g->level].v[i]);
	g->hd[g->level].n = 0;
}

void g_comment(struct gen *g)
{
	static const char *const text[] = {
		"# launch the job", "# NCCL / EFA settings", "#", "# shellcheck disable=SC2086",
		"# trainforge: this is only a comment (it's fine)", "# ---- data ----",
		"#   $(not run) `nor this` ${x", "# données — λ ✓", "## TODO: tune the batch size",
		"# if then fi done esac", "#!not a shebang",
	};
	g_indent(g);
	g_put(g, g_pick(g, text));
	g_nl(g);
	g_use(g, DBC_COMMENT);
	if (g->depth || g->level)
		g_use(g, DBC_COMMENT_BODY);
}

/* ---- lists and pipelines ---- */

void g_end(struct gen *g)
{
	if (g_oneline(g) || g_pct(g, 25)) {
		g_chained(g);
		g_put(g, "; ");
		return;
	}
	if (g_pct(g, 6)) {
		static const char *const eol_comments[] = { "  # why", " # it's ok", "\t# ✓ done", " #; fi )" };
		g_put(g, g_pick(g, eol_comments));
		g_use(g, DBC_COMMENT_EOL);
		if (g->depth || g->level)
			g_use(g, DBC_COMMENT_BODY);
	}
	g_nl(g);
}

/* One command: mostly simple, compound ones less often the deeper we are. */
static void command(struct gen *g)
{
	unsigned compound_pct = g->depth >= g->max_depth ? 0 : (g->rich ? 26 : 12) - 6 * g->depth;
	if (g_pct(g, compound_pct))
		g_compound(g);
	else
		g_simple(g);
}

static void pipeline(struct gen *g)
{
	if (g_pct(g, 3)) {
		g_put(g, g_pct(g, 30) ? "time -p " : "time ");
		g_use(g, DBC_TIME);
		if (g_pct(g, 30))
			g_use(g, DBC_TIME_P);
	}
	if (g_pct(g, 5)) {
		g_put(g, "! ");
		g_use(g, DBC_NEGATION);
	}
	command(g);
	unsigned n = g_pct(g, 12) ? 1 + g_below(g, 3) : 0;
	for (unsigned i = 0; i < n; i++) {
		bool amp = g_pct(g, 15);
		g_put(g, amp ? " |& " : " | ");
		g_use(g, amp ? DBC_PIPE_AMP : DBC_PIPELINE);
		if (g_mut(g, DBM_MISSING_OPERAND))
			g_put(g, "| ");
		if (!g_oneline(g) && g_pct(g, 10)) {
			g_nl(g);
			g_put(g, "    ");
		}
		g->pipe_tail = true;
		command(g);
		g->pipe_tail = false;
	}
}

void g_and_or(struct gen *g)
{
	if (g_mut(g, DBM_MISSING_OPERAND))
		g_put(g, g_pct(g, 50) ? "&& " : "| ");
	pipeline(g);
	unsigned n = g_pct(g, 18) ? 1 + g_below(g, 2) : 0;
	for (unsigned i = 0; i < n; i++) {
		g_chained(g);
		g_put(g, g_pct(g, 55) ? " && " : " || ");
		g_use(g, DBC_AND_OR);
		if (g_mut(g, DBM_MISSING_OPERAND)) {
			if (g_pct(g, 50))
				return; /* "a &&" then the terminator */
			g_put(g, "&& ");
		}
		if (!g_oneline(g) && g_pct(g, 10)) {
			g_nl(g);
			g_put(g, "  ");
		}
		pipeline(g);
	}
}

static void terminator(struct gen *g)
{
	if (g_pct(g, 6)) {
		g_put(g, " &");
		g_use(g, DBC_BACKGROUND);
		if (g_oneline(g) || g_pct(g, 40))
			g_put(g, " ");
		else
			g_nl(g);
		return;
	}
	g_end(g);
}

void g_body(struct gen *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (!g_oneline(g) && g_pct(g, 8))
			g_comment(g);
		g_indent(g);
		g_and_or(g);
		terminator(g);
	}
}

void g_inline_list(struct gen *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (i)
			g_end(g);
		g_indent(g);
		g_and_or(g);
	}
}

/* ---- the script ---- */

static void top_statement(struct gen *g)
{
	enum { T_COMMENT, T_BLANK, T_SIMPLE, T_LAUNCH, T_LIST, T_COMPOUND, T_FUNCTION, T_DEEP };
	static const unsigned weights[] = {
		[T_COMMENT] = 10, [T_BLANK] = 8, [T_SIMPLE] = 40, [T_LAUNCH] = 7, [T_LIST] = 12,
		[T_COMPOUND] = 16, [T_FUNCTION] = 5, [T_DEEP] = 1,
	};
	unsigned k = g_weighted(g, weights, sizeof weights / sizeof weights[0]);
	if (k == T_DEEP && !g->rich)
		k = T_SIMPLE;
	switch (k) {
	case T_COMMENT:
		g_comment(g);
		return;
	case T_BLANK:
		g_nl(g);
		return;
	case T_SIMPLE:
		g_simple(g);
		break;
	case T_LAUNCH:
		g_launcher(g);
		break;
	case T_LIST:
		g_and_or(g);
		break;
	case T_COMPOUND:
		g_compound(g);
		break;
	case T_FUNCTION:
		g_function(g);
		break;
	case T_DEEP:
		g_deep(g, false);
		break;
	}
	terminator(g);
}

static void text_mutation(struct gen *g, enum dbg_mutation m)
{
	struct buf *b = g->out;
	/* leave the shebang alone: the mutation is in the script's body */
	const char *nl1 = memchr(b->p, '\n', b->len);
	size_t from = nl1 ? (size_t)(nl1 - b->p) + 1 : 0;
	if (from >= b->len)
		return;
	if (m == DBM_TEXT_DROP_CHAR) {
		static const char structural[] = "\"'(){}[];&|`$";
		size_t hits = 0;
		for (size_t i = from; i < b->len; i++)
			hits += b->p[i] && strchr(structural, b->p[i]) != NULL;
		if (!hits)
			return;
		size_t pick = g_below(g, (unsigned)hits);
		for (size_t i = from; i < b->len; i++) {
			if (!b->p[i] || !strchr(structural, b->p[i]) || pick--)
				continue;
			memmove(b->p + i, b->p + i + 1, b->len - i);
			b->len--;
			break;
		}
		g->mutated = true;
		return;
	}
	/* a line: [a, e) including its newline */
	size_t lines = 0;
	for (size_t i = from; i < b->len; i++)
		lines += b->p[i] == '\n';
	if (!lines)
		return;
	size_t pick = g_below(g, (unsigned)lines), a = from;
	while (pick--)
		a = (size_t)((char *)memchr(b->p + a, '\n', b->len - a) - b->p) + 1;
	size_t e = (size_t)((char *)memchr(b->p + a, '\n', b->len - a) - b->p) + 1;
	if (m == DBM_TEXT_DROP_LINE) {
		memmove(b->p + a, b->p + e, b->len - e + 1);
		b->len -= e - a;
	} else {
		struct buf line = BUF_INIT;
		buf_put(&line, b->p + a, e - a);
		struct buf rest = BUF_INIT;
		buf_put(&rest, b->p + a, b->len - a);
		b->len = a;
		buf_put(b, line.p, line.len);
		buf_put(b, rest.p, rest.len);
		buf_free(&line);
		buf_free(&rest);
	}
	g->mutated = true;
}

/* Facts of the finished text: CRLF, UTF-8, size, word count. */
static void text_facts(struct gen *g)
{
	const struct buf *b = g->out;
	size_t words = 0;
	bool in_word = false, high = false;
	for (size_t i = 0; i < b->len; i++) {
		unsigned char c = (unsigned char)b->p[i];
		high |= c >= 0x80;
		bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
		words += !blank && !in_word;
		in_word = !blank;
	}
	if (strcmp(g->eol, "\r\n") == 0)
		g_use(g, DBC_CRLF);
	if (high)
		g_use(g, DBC_UNICODE);
	if (b->len >= 1000000)
		g_use(g, DBC_BIG);
	if (words > 50000)
		g_use(g, DBC_MANY_WORDS);
}

static bool text_kind(int m)
{
	return m == DBM_TEXT_DROP_CHAR || m == DBM_TEXT_DROP_LINE || m == DBM_TEXT_DUP_LINE;
}

void dbg_generate(uint64_t seed, uint64_t index, const struct dbg_opts *o, struct dbg_script *out)
{
	struct gen g;
	memset(&g, 0, sizeof g);
	g.rng = seed * 0x9e3779b97f4a7c15u ^ (index + 1) * 0xd1b54a32d192ed03u;
	(void)g_rand(&g);
	buf_reset(&out->text);
	memset(out->used, 0, sizeof out->used);
	g.out = &out->text;
	g.s = out;
	/* one script in 400 is large: 1 MB of plain statements, whole so
	 * that bash accepts it; one in 60 nests a thousand levels deep */
	bool big = g_below(&g, 400) == 0;
	bool huge = !big && g_below(&g, 60) == 0;
	g.rich = !big && g_pct(&g, 50);
	g.eol = !big && g_pct(&g, 4) ? "\r\n" : "\n";
	g.max_depth = g.rich ? 2 + g_below(&g, 4) : 1 + g_below(&g, 2);
	g.mutation = !big && o && g_pct(&g, o->broken_pct) ? (int)g_below(&g, DBM__COUNT) : -1;
	g_header(&g);
	unsigned n = 4 + g_below(&g, 36);
	for (unsigned i = 0; i < n || (big && g.out->len < 1100000); i++) {
		if (huge && i == n / 2) {
			g_deep(&g, true);
			g_end(&g);
		}
		top_statement(&g);
	}
	if (g_pending(&g))
		g_nl(&g);
	/* a structural mutation that found no site becomes a text one */
	if (g.mutation >= 0 && !text_kind(g.mutation) && !g.mutated)
		g.mutation = DBM_TEXT_DROP_CHAR;
	if (g.mutation >= 0 && text_kind(g.mutation))
		text_mutation(&g, (enum dbg_mutation)g.mutation);
	out->mutation = g.mutated ? g.mutation : -1;
	text_facts(&g);
}
