/* The batch-script model (lint/script/script.h) on arbitrary bytes: every
 * public reader over the whole model, variable resolution at each
 * command, and the sbatch option table's lookups and value checks on
 * each directive; read plain, as a template, and under tight limits.
 * Bounded: the parser has its own limits, and the walk stops after a
 * fixed number of records of each kind. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "script.h"
#include "options.h"

enum { MAX_RECORDS = 4096, MAX_RESOLVE = 256 };

static size_t text_len;

static void check_span(struct sb_span s)
{
	if (!fuzz_skip("span-offsets"))
		FUZZ_CHECK(s.off <= s.end && s.end <= text_len);
	FUZZ_CHECK(s.line >= 1 && s.col >= 1);
	FUZZ_CHECK(s.end_line > s.line || (s.end_line == s.line && s.end_col >= s.col));
}

static void read_word(const sb_word *w)
{
	if (!w)
		return;
	size_t len = 0;
	const char *raw = sb_word_raw(w, &len);
	FUZZ_CHECK(raw != NULL);
	check_span(sb_word_span(w));
	unsigned flags = sb_word_flags(w);
	const char *v = sb_word_value(w);
	if (v)
		(void)strlen(v);
	FUZZ_CHECK(!(v && (flags & SB_W_EXPANSION)));
	size_t refs = sb_word_ref_count(w);
	for (size_t i = 0; i < refs && i < 64; i++)
		FUZZ_CHECK(sb_word_ref(w, i) != NULL);
	const char *var = sb_word_var(w);
	if (var)
		(void)strlen(var);
	const sb_word *o = sb_word_origin(w);
	FUZZ_CHECK(!o || (flags & SB_W_SPLICED));
}

static void read_part(const sb_part *p)
{
	enum sb_prog k = sb_part_kind(p);
	FUZZ_CHECK(k < SB_PROG__COUNT && sb_prog_name(k) != NULL);
	read_word(sb_part_program(p));
	FUZZ_CHECK(sb_part_name(p) != NULL);
	read_word(sb_part_entry(p));
	size_t nf = sb_part_flag_count(p);
	for (size_t i = 0; i < nf && i < 256; i++) {
		const struct sb_flag *f = sb_part_flag(p, i);
		FUZZ_CHECK(f && f->written && f->name);
		read_word(f->word);
		read_word(f->value);
		read_word(f->value2);
		if (i < 4) {
			/* a one-letter query ("N", "-N") means a short flag,
			 * so "--n" (normalized "n") or "-_x" (normalized
			 * "-x") is not found by its own name */
			bool findable = strlen(f->name) > 2 ||
					(strlen(f->name) == 2 && f->name[0] != '-');
			(void)sb_flag(p, f->name);
			FUZZ_CHECK(!findable || sb_flag_find(p, f->name) != NULL);
			FUZZ_CHECK(!findable || sb_flag_occurrences(p, f->name) >= 1);
			(void)sb_flag_next(p, f->name);
		}
	}
	size_t na = sb_part_arg_count(p);
	for (size_t i = 0; i < na && i < 256; i++)
		read_word(sb_part_arg(p, i));
	(void)sb_part_opaque_count(p);
	static const char *const names[] = { "nnodes", "nproc_per_node", "N", "ntasks", "rdzv-endpoint" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		(void)sb_flag(p, names[i]);
}

static void resolve(const sb_model *m, const char *name, const sb_cmd *at)
{
	struct sb_resolved r;
	memset(&r, 0, sizeof r);
	enum sb_res k = sb_resolve(m, name, at, &r);
	FUZZ_CHECK(k <= SB_RES_UNKNOWN);
	if (k == SB_RES_VALUE)
		FUZZ_CHECK(r.value != NULL);
	if (k == SB_RES_ENV)
		FUZZ_CHECK(r.var != NULL);
}

static void read_cmds(const sb_model *m, size_t *budget)
{
	size_t n = sb_cmd_count(m);
	for (size_t i = 0; i < n && i < MAX_RECORDS; i++) {
		const sb_cmd *c = sb_cmd_at(m, i);
		FUZZ_CHECK(c != NULL && sb_cmd_index(c) == i);
		check_span(sb_cmd_span(c));
		(void)sb_cmd_context(c);
		(void)sb_cmd_function(c);
		const sb_cmd *parent = sb_cmd_parent(c);
		char q = sb_cmd_nest_quote(c);
		FUZZ_CHECK(q == 0 || q == '\'' || q == '"');
		(void)parent;
		size_t nw = sb_cmd_word_count(c);
		for (size_t k = 0; k < nw && k < 256; k++) {
			const sb_word *w = sb_cmd_word(c, k);
			read_word(w);
			if (*budget && sb_word_var(w)) {
				struct sb_resolved r;
				(void)sb_resolve_word(m, w, c, &r);
				(*budget)--;
			}
		}
		size_t np = sb_cmd_part_count(c);
		for (size_t k = 0; k < np && k < 64; k++)
			read_part(sb_cmd_part(c, k));
		(void)sb_cmd_find(c, SB_PROG_SRUN);
		(void)sb_cmd_find(c, SB_PROG_TORCHRUN);
		FUZZ_CHECK(sb_cmd_launcher(c) < SB_PROG__COUNT);
		(void)sb_cmd_assumed(c);
		/* a statement that did not parse: no words, and the model says
		 * it is not the whole script */
		FUZZ_CHECK(!sb_cmd_broken(c) || (nw == 0 && !sb_complete(m)));
		if (*budget) {
			resolve(m, "NNODES", c);
			resolve(m, "SLURM_JOB_NUM_NODES", c);
			(*budget)--;
		}
	}
}

static void read_directives(const sb_model *m)
{
	size_t n = sb_directive_count(m);
	char why[256];
	for (size_t i = 0; i < n && i < MAX_RECORDS; i++) {
		const struct sb_directive *d = sb_directive_at(m, i);
		FUZZ_CHECK(d && d->name);
		check_span(d->span);
		check_span(d->name_span);
		if (d->value) {
			check_span(d->value_span);
			if (d->opt)
				(void)sbopt_check_value(d->opt, d->value, strlen(d->value), why, sizeof why);
		}
		FUZZ_CHECK(!d->opt || d->long_name);
		FUZZ_CHECK(!d->placeholder || !d->value);
		bool amb = false;
		const char *nm = d->name;
		while (*nm == '-')
			nm++;
		(void)sbopt_match(nm, strlen(nm), &amb);
		if (i < 2 && !d->opt)
			(void)sbopt_suggest(nm);
	}
	static const char *const names[] = { "nodes", "ntasks-per-node", "partition", "output", "time", "gpus" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		(void)sb_directive_find(m, names[i]);
}

static void read_model(const sb_model *m, size_t len)
{
	text_len = len;
	(void)sb_complete(m);
	size_t np = sb_problem_count(m);
	for (size_t i = 0; i < np && i < MAX_RECORDS; i++) {
		const struct sb_problem *p = sb_problem_at(m, i);
		FUZZ_CHECK(p && p->msg && p->kind <= SB_PROB_LIMIT);
		FUZZ_CHECK(p->scope <= SB_SCOPE_DIRECTIVE);
		/* only a warning or a directive's problem leaves it complete */
		FUZZ_CHECK(!sb_complete(m) || p->kind == SB_PROB_HEREDOC_UNTERMINATED ||
			   p->scope == SB_SCOPE_DIRECTIVE);
		check_span(p->span);
	}
	uint32_t lines = sb_line_count(m);
	for (uint32_t l = 1; l <= lines && l <= 100000; l++) {
		FUZZ_CHECK(sb_line_kind(m, l) <= SB_LINE_HEREDOC);
		(void)sb_line_continues(m, l);
	}
	(void)sb_line_kind(m, lines + 1);
	FUZZ_CHECK(sb_first_command_line(m) <= lines);
	const struct sb_shebang *sh = sb_shebang(m);
	if (sh) {
		check_span(sh->span);
		FUZZ_CHECK(sh->text && sh->interp);
	}
	size_t nc = sb_comment_count(m);
	for (size_t i = 0; i < nc && i < MAX_RECORDS; i++) {
		const struct sb_comment *c = sb_comment_at(m, i);
		FUZZ_CHECK(c && c->text);
		check_span(c->span);
	}
	read_directives(m);
	size_t budget = MAX_RESOLVE;
	read_cmds(m, &budget);
	size_t na = sb_assign_count(m);
	for (size_t i = 0; i < na && i < MAX_RECORDS; i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		FUZZ_CHECK(a && a->name);
		check_span(a->span);
		read_word(a->value);
		for (size_t k = 0; k < a->n_elems && k < 256; k++)
			read_word(a->elems[k]);
		if (budget) {
			resolve(m, a->name, a->cmd);
			resolve(m, a->name, NULL);
			budget--;
		}
	}
	size_t nh = sb_heredoc_count(m);
	for (size_t i = 0; i < nh && i < MAX_RECORDS; i++) {
		const struct sb_heredoc *h = sb_heredoc_at(m, i);
		FUZZ_CHECK(h && h->delim);
		if (!fuzz_skip("heredoc-span"))
			check_span(h->span);
	}
	size_t nf = sb_fact_count(m);
	for (size_t i = 0; i < nf && i < MAX_RECORDS; i++) {
		const struct sb_fact *f = sb_fact_at(m, i);
		FUZZ_CHECK(f && f->kind <= SB_FACT_LOST_CONTINUATION);
		check_span(f->span);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sb_model *m = sb_parse((const char *)data, size, NULL);
	FUZZ_CHECK(m != NULL);
	read_model(m, size);
	sb_free(m);
	/* {{ }} and {% %} as words of unknown value */
	struct sb_limits tpl = { .flags = SB_PARSE_TEMPLATE };
	m = sb_parse((const char *)data, size, &tpl);
	read_model(m, size);
	sb_free(m);
	/* Tight limits reach the limit paths. */
	if (size <= 4096) {
		struct sb_limits tight = { .max_depth = 3, .max_nest = 1, .max_words = 64 };
		m = sb_parse((const char *)data, size, &tight);
		read_model(m, size);
		sb_free(m);
	}
	return 0;
}
