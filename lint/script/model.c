/* The batch-script model's entry point, memory and positions, and the
 * accessors of the records the other stages fill in. The stages:
 * sbatch_lex.c and sbatch_lex_quote.c cut the text into words and
 * operators; sbatch_parse.c and sbatch_parse_cmd.c make them commands,
 * blocks and assignments (sbatch_word.c finishes each word);
 * sbatch_model_directives.c reads #SBATCH lines as sbatch does;
 * sbatch_model_launch.c, sbatch_model_args.c and sbatch_model_flags.c
 * find the launcher chain of each command; sbatch_model_resolve.c
 * answers what a variable holds. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "xalloc.h"

/* ---- arena: every record lives until sb_free ---- */

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

#define ARENA_CHUNK ((size_t)64 * 1024)

void *sbm_alloc(sb_model *m, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct arena_block *b = m->arena;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		b = xmalloc(sizeof *b + cap);
		b->next = m->arena;
		b->used = 0;
		b->cap = cap;
		m->arena = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

char *sbm_strndup(sb_model *m, const char *s, size_t n)
{
	char *p = sbm_alloc(m, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* ---- positions ---- */

static uint32_t line_index(const sb_model *m, size_t off)
{
	size_t lo = 0, hi = m->line_start.len;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (m->line_start.v[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* Whether a line has bytes past ASCII is found when a position on it
 * is first asked for. */
enum { LINE_UNSEEN, LINE_ASCII, LINE_WIDE };

static bool line_is_ascii(const sb_model *m, uint32_t line)
{
	size_t i = m->line_start.v[line - 1];
	size_t end = line < m->line_start.len ? m->line_start.v[line] : m->len;
	unsigned char any = 0;
	for (; i < end; i++)
		any |= (unsigned char)m->text[i];
	return !(any & 0x80);
}

/* Columns count code points: every byte that is not a UTF-8
 * continuation byte starts one. On a line of ASCII, which is nearly
 * every line of a script, that is the offset from the line's start.
 * Elsewhere lookups mostly move a little within a line (a word, the
 * start of its command), so the last answer is kept and walked from; a
 * lookup on another line starts from that line's start, found in the
 * line index, so no lookup walks more than a line. */
void sbm_locate(sb_model *m, size_t off, uint32_t *line, uint32_t *col)
{
	if (off > m->len)
		off = m->len;
	const unsigned char *t = (const unsigned char *)m->text;
	size_t n = m->line_start.len;
	size_t ls = m->loc.line ? m->line_start.v[m->loc.line - 1] : 0;
	size_t next = m->loc.line && m->loc.line < n ? m->line_start.v[m->loc.line] : SIZE_MAX;
	if (!m->loc.line || off < ls || off >= next) {
		uint32_t li = line_index(m, off);
		ls = m->line_start.v[li];
		m->loc.off = ls;
		m->loc.line = li + 1;
		m->loc.col = 1;
	}
	/* A final newline ends the last line without starting one, as in
	 * source_locate: it is counted as a column of the last line. */
	if (!m->line_wide[m->loc.line])
		m->line_wide[m->loc.line] = line_is_ascii(m, m->loc.line) ? LINE_ASCII : LINE_WIDE;
	if (m->line_wide[m->loc.line] == LINE_ASCII) {
		m->loc.col = (uint32_t)(off - ls + 1);
	} else {
		if (off < m->loc.off) {
			for (size_t i = off; i < m->loc.off; i++)
				if ((t[i] & 0xC0) != 0x80)
					m->loc.col--;
			m->loc.off = off;
		}
		for (size_t i = m->loc.off; i < off; i++)
			if ((t[i] & 0xC0) != 0x80)
				m->loc.col++;
	}
	m->loc.off = off;
	*line = m->loc.line;
	*col = m->loc.col;
}

/* The line alone, for marking lines as tokens pass: a cursor of its own
 * that mostly moves forward a line or none, so the column cache of
 * sbm_locate stays where the words are. */
uint32_t sbm_line_of(sb_model *m, size_t off)
{
	size_t n = m->line_start.len, i = m->lcur;
	const size_t *ls = m->line_start.v;
	if (i >= n || off < ls[i]) {
		i = line_index(m, off);
	} else {
		for (int step = 0; i + 1 < n && ls[i + 1] <= off; step++, i++)
			if (step == 8) {
				i = line_index(m, off);
				break;
			}
	}
	m->lcur = i;
	return (uint32_t)i + 1;
}

struct sb_span sbm_span(sb_model *m, size_t off, size_t end)
{
	struct sb_span s;
	if (end < off)
		end = off;
	/* a finding at the end of the input has no byte under it */
	if (end > m->len)
		end = m->len;
	if (off > end)
		off = end;
	sbm_locate(m, off, &s.line, &s.col);
	sbm_locate(m, end, &s.end_line, &s.end_col);
	s.off = off;
	s.end = end;
	return s;
}

void sbm_problem(sb_model *m, enum sb_problem_kind kind, size_t off, size_t end,
		 const char *msg)
{
	sbm_problem_in(m, m->in_nested ? SB_SCOPE_STRING : SB_SCOPE_SCRIPT, kind, off, end, msg);
}

void sbm_problem_in(sb_model *m, enum sb_problem_scope scope, enum sb_problem_kind kind,
		    size_t off, size_t end, const char *msg)
{
	struct sb_problem p = { kind, sbm_span(m, off, end), msg, scope };
	VEC_PUSH(m->problems, p);
}

struct sbm_mark sbm_mark(const sb_model *m)
{
	return (struct sbm_mark){ m->cmds.len, m->assigns.len, m->heredocs.len, m->facts.len,
				  m->comments.len, m->blocks.len, m->problems.len, m->nwords };
}

void sbm_rollback(sb_model *m, const struct sbm_mark *k)
{
	m->cmds.len = k->cmds;
	m->assigns.len = k->assigns;
	m->heredocs.len = k->heredocs;
	m->facts.len = k->facts;
	m->comments.len = k->comments;
	m->blocks.len = k->blocks;
	m->problems.len = k->problems;
	m->nwords = k->nwords;
}

/* A line keeps the strongest kind it is given, in enum order: a line that
 * starts inside a string stays STRING even if a command starts on it. */
void sbm_mark_line(sb_model *m, uint32_t line, enum sb_line_kind kind)
{
	if (line >= 1 && line <= m->line_start.len && m->line_kind[line] < kind)
		m->line_kind[line] = (uint8_t)kind;
}

unsigned sbm_block_new(sb_model *m, unsigned parent, enum block_kind kind, bool opaque)
{
	struct block b = { .parent = parent, .kind = (uint8_t)kind, .opaque = opaque,
			   .first_cmd = m->cmds.len };
	VEC_PUSH(m->blocks, b);
	return (unsigned)(m->blocks.len - 1);
}

/* ---- parse ---- */

/* The stack the parse may use: the soft limit less a megabyte for the
 * frames below sb_parse and above the deepest level. */
static size_t stack_budget(void)
{
	struct rlimit r;
	size_t lim = (size_t)8 << 20;
	if (getrlimit(RLIMIT_STACK, &r) == 0)
		lim = r.rlim_cur == RLIM_INFINITY || r.rlim_cur > ((rlim_t)64 << 20)
		      ? (size_t)64 << 20 : (size_t)r.rlim_cur;
	return lim > ((size_t)2 << 20) ? lim - ((size_t)1 << 20) : lim / 2;
}

static void map_lines(sb_model *m)
{
	VEC_PUSH(m->line_start, (size_t)0);
	for (size_t i = 0; i < m->len; i++)
		if (m->text[i] == '\n' && i + 1 < m->len)
			VEC_PUSH(m->line_start, i + 1);
	m->line_kind = xcalloc(m->line_start.len + 2, 1);
	m->line_cont = xcalloc(m->line_start.len + 2, 1);
	m->line_wide = xcalloc(m->line_start.len + 2, 1);
}

static const char *basename_of(const char *s)
{
	const char *slash = strrchr(s, '/');
	return slash ? slash + 1 : s;
}

static void read_shebang(sb_model *m)
{
	if (m->len < 2 || m->text[0] != '#' || m->text[1] != '!')
		return;
	size_t e = strcspn(m->text, "\n");
	m->has_shebang = true;
	m->shebang.span = sbm_span(m, 0, e);
	m->shebang.text = sbm_strndup(m, m->text + 2, e - 2);
	/* "#!/usr/bin/env -S bash -l" names bash. */
	const char *p = m->shebang.text;
	char word[256] = "";
	for (int k = 0; k < 4; k++) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t\r");
		if (!n)
			break;
		snprintf(word, sizeof word, "%.*s", (int)(n < 255 ? n : 255), p);
		p += n;
		const char *base = basename_of(word);
		if (strcmp(base, "env") != 0 && word[0] != '-') {
			m->shebang.interp = sbm_strndup(m, base, strlen(base));
			return;
		}
	}
	m->shebang.interp = "";
}

static int by_offset(size_t a, size_t b)
{
	return a < b ? -1 : a > b;
}

static int comment_cmp(const void *a, const void *b)
{
	return by_offset(((const struct sb_comment *)a)->span.off,
			 ((const struct sb_comment *)b)->span.off);
}

static int fact_cmp(const void *a, const void *b)
{
	return by_offset(((const struct sb_fact *)a)->span.off,
			 ((const struct sb_fact *)b)->span.off);
}

sb_model *sb_parse(const char *text, size_t len, const struct sb_limits *limits)
{
	sb_model *m = xcalloc(1, sizeof *m);
	m->lim = limits ? *limits : (struct sb_limits){ 0 };
	if (!m->lim.max_bytes)
		m->lim.max_bytes = (size_t)8 << 20;
	if (!m->lim.max_depth)
		m->lim.max_depth = 10000;
	if (!m->lim.max_nest)
		m->lim.max_nest = 4000;
	if (!m->lim.max_words)
		m->lim.max_words = 4000000;
	m->templates = (m->lim.flags & SB_PARSE_TEMPLATE) != 0;
	m->stack_base = (uintptr_t)__builtin_frame_address(0);
	m->stack_budget = stack_budget();
	bool too_big = len > m->lim.max_bytes;
	m->len = too_big ? 0 : len;
	m->text = xmalloc(m->len + 1);
	if (m->len)
		memcpy(m->text, text, m->len);
	m->text[m->len] = '\0';
	map_lines(m);
	sbm_block_new(m, 0, BK_ROOT, false);
	if (too_big) {
		sbm_problem(m, SB_PROB_LIMIT, 0, 0, "the script is larger than the size limit");
		return m;
	}
	read_shebang(m);
	struct parse_env env = { 0 };
	sbp_parse_range(m, 0, m->len, &env);
	sbd_scan(m);
	sbr_index_update(m);
	/* The launcher analysis may insert the commands of a bash -c string
	 * right after their command; the loop then reaches them too. */
	for (size_t i = 0; i < m->cmds.len; i++)
		sbx_analyse(m, i);
	if (m->comments.len)
		qsort(m->comments.v, m->comments.len, sizeof *m->comments.v, comment_cmp);
	if (m->facts.len)
		qsort(m->facts.v, m->facts.len, sizeof *m->facts.v, fact_cmp);
	/* bash -c strings were read by the launcher analysis: their
	 * problems count too (sb_complete) */
	m->complete = true;
	for (size_t i = 0; i < m->problems.len; i++)
		m->complete &= m->problems.v[i].kind == SB_PROB_HEREDOC_UNTERMINATED ||
			       m->problems.v[i].scope == SB_SCOPE_DIRECTIVE;
	return m;
}

void sb_free(sb_model *m)
{
	if (!m)
		return;
	struct arena_block *b = m->arena;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	free(m->text);
	free(m->line_start.v);
	free(m->line_kind);
	free(m->line_cont);
	free(m->line_wide);
	free(m->problems.v);
	free(m->comments.v);
	free(m->directives.v);
	free(m->cmds.v);
	free(m->assigns.v);
	free(m->heredocs.v);
	free(m->facts.v);
	free(m->blocks.v);
	sbr_index_free(m);
	free(m);
}

bool sb_complete(const sb_model *m)
{
	return m->complete;
}

/* ---- accessors ---- */

size_t sb_problem_count(const sb_model *m) { return m->problems.len; }
const struct sb_problem *sb_problem_at(const sb_model *m, size_t i)
{
	return i < m->problems.len ? &m->problems.v[i] : NULL;
}

uint32_t sb_line_count(const sb_model *m)
{
	return m->len ? (uint32_t)m->line_start.len : 0;
}

enum sb_line_kind sb_line_kind(const sb_model *m, uint32_t line)
{
	return line >= 1 && line <= m->line_start.len ? (enum sb_line_kind)m->line_kind[line]
						      : SB_LINE_BLANK;
}

bool sb_line_continues(const sb_model *m, uint32_t line)
{
	return line >= 1 && line <= m->line_start.len && m->line_cont[line];
}

uint32_t sb_first_command_line(const sb_model *m) { return m->first_cmd_line; }

const struct sb_shebang *sb_shebang(const sb_model *m)
{
	return m->has_shebang ? &m->shebang : NULL;
}

size_t sb_comment_count(const sb_model *m) { return m->comments.len; }
const struct sb_comment *sb_comment_at(const sb_model *m, size_t i)
{
	return i < m->comments.len ? &m->comments.v[i] : NULL;
}

size_t sb_directive_count(const sb_model *m) { return m->directives.len; }
const struct sb_directive *sb_directive_at(const sb_model *m, size_t i)
{
	return i < m->directives.len ? &m->directives.v[i] : NULL;
}

const struct sb_directive *sb_directive_find(const sb_model *m, const char *long_name)
{
	return sb_directive_find_in(m, 0, long_name);
}

size_t sb_heredoc_count(const sb_model *m) { return m->heredocs.len; }
const struct sb_heredoc *sb_heredoc_at(const sb_model *m, size_t i)
{
	return i < m->heredocs.len ? &m->heredocs.v[i] : NULL;
}

size_t sb_fact_count(const sb_model *m) { return m->facts.len; }
const struct sb_fact *sb_fact_at(const sb_model *m, size_t i)
{
	return i < m->facts.len ? &m->facts.v[i] : NULL;
}

size_t sb_assign_count(const sb_model *m) { return m->assigns.len; }
const struct sb_assign *sb_assign_at(const sb_model *m, size_t i)
{
	return i < m->assigns.len ? &m->assigns.v[i]->pub : NULL;
}

size_t sb_cmd_count(const sb_model *m) { return m->cmds.len; }
const sb_cmd *sb_cmd_at(const sb_model *m, size_t i)
{
	return i < m->cmds.len ? m->cmds.v[i] : NULL;
}
size_t sb_cmd_index(const sb_cmd *c) { return c->index; }
struct sb_span sb_cmd_span(const sb_cmd *c) { return c->span; }
unsigned sb_cmd_context(const sb_cmd *c) { return c->ctx; }
const char *sb_cmd_function(const sb_cmd *c) { return c->func; }
const sb_cmd *sb_cmd_parent(const sb_cmd *c) { return c->parent; }
char sb_cmd_nest_quote(const sb_cmd *c) { return c->nest_quote; }
size_t sb_cmd_word_count(const sb_cmd *c) { return c->nwords; }
const sb_word *sb_cmd_word(const sb_cmd *c, size_t i)
{
	return i < c->nwords ? c->words[i] : NULL;
}
size_t sb_cmd_assign_count(const sb_cmd *c) { return c->nassigns; }
const struct sb_assign *sb_cmd_assign(const sb_cmd *c, size_t i)
{
	return i < c->nassigns ? c->assigns[i] : NULL;
}
size_t sb_cmd_part_count(const sb_cmd *c) { return c->nparts; }
const sb_part *sb_cmd_part(const sb_cmd *c, size_t i)
{
	return i < c->nparts ? &c->parts[i] : NULL;
}
bool sb_cmd_assumed(const sb_cmd *c) { return c->assumed; }
bool sb_cmd_broken(const sb_cmd *c) { return c->broken; }

const sb_part *sb_cmd_find(const sb_cmd *c, enum sb_prog kind)
{
	for (size_t i = 0; i < c->nparts; i++)
		if (c->parts[i].kind == kind)
			return &c->parts[i];
	return NULL;
}

enum sb_prog sb_cmd_launcher(const sb_cmd *c)
{
	for (size_t i = 0; i < c->nparts; i++)
		if (c->parts[i].kind != SB_PROG_WRAPPER)
			return c->parts[i].kind;
	return c->nparts ? SB_PROG_WRAPPER : SB_PROG_NONE;
}

const char *sb_prog_name(enum sb_prog kind)
{
	static const char *const names[SB_PROG__COUNT] = {
		[SB_PROG_NONE] = "none", [SB_PROG_UNKNOWN] = "unknown",
		[SB_PROG_OTHER] = "program", [SB_PROG_WRAPPER] = "wrapper",
		[SB_PROG_SRUN] = "srun", [SB_PROG_MPIRUN] = "mpirun",
		[SB_PROG_TORCHRUN] = "torchrun",
		[SB_PROG_NEURON_PARALLEL_COMPILE] = "neuron_parallel_compile",
		[SB_PROG_LAUNCHER] = "launcher", [SB_PROG_SHELL_C] = "shell -c",
		[SB_PROG_SCRIPT] = "script", [SB_PROG_PYTHON] = "python",
		[SB_PROG_REMOTE] = "remote shell",
	};
	return (unsigned)kind < SB_PROG__COUNT ? names[kind] : "?";
}
