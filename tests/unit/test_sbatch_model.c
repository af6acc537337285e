/* The batch-script model: directives as sbatch reads them, commands with
 * positions, continuation facts, here-documents, launcher chains,
 * assignments and their resolution, hostile input, and every script of
 * ../shared/corpus/sbatch (skipped, with a message, when absent). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "script.h"

static sb_model *parse(const char *s)
{
	return sb_parse(s, strlen(s), NULL);
}

static void assert_span(struct sb_span s, uint32_t line, uint32_t col, uint32_t end_line,
			uint32_t end_col)
{
	assert_int_equal(s.line, line);
	assert_int_equal(s.col, col);
	assert_int_equal(s.end_line, end_line);
	assert_int_equal(s.end_col, end_col);
}

static void assert_raw(const sb_word *w, const char *expect)
{
	assert_non_null(w);
	size_t n;
	const char *r = sb_word_raw(w, &n);
	char buf[512];
	snprintf(buf, sizeof buf, "%.*s", (int)n, r);
	assert_string_equal(buf, expect);
}

/* The first command whose first word has this value, or NULL. */
static const sb_cmd *cmd_named(const sb_model *m, const char *name)
{
	for (size_t i = 0; i < sb_cmd_count(m); i++) {
		const sb_cmd *c = sb_cmd_at(m, i);
		const sb_word *w = sb_cmd_word(c, 0);
		if (w && sb_word_value(w) && strcmp(sb_word_value(w), name) == 0)
			return c;
	}
	return NULL;
}

static const struct sb_directive *dir(const sb_model *m, size_t i)
{
	const struct sb_directive *d = sb_directive_at(m, i);
	assert_non_null(d);
	return d;
}

/* ---- directives ---- */

static void directives_before_first_command(void **state)
{
	(void)state;
	sb_model *m = parse("#!/bin/bash\n"
			    "#SBATCH --nodes=4\n"
			    "\n"
			    "  # indented comment\n"
			    "##SBATCH --nodes=9\n"
			    "# SBATCH --nodes=9\n"
			    "  #SBATCH --nodes=9\n"
			    "#SBATCH --ntasks-per-node 8\n"
			    "set -e\n"
			    "#SBATCH --time=10\n"
			    "cat <<EOF\n"
			    "#SBATCH --mem=1G\n"
			    "EOF\n");
	assert_true(sb_complete(m));
	assert_int_equal(sb_first_command_line(m), 9);
	assert_int_equal(sb_directive_count(m), 3);
	assert_string_equal(dir(m, 0)->long_name, "nodes");
	assert_false(dir(m, 0)->after_command);
	assert_string_equal(dir(m, 1)->long_name, "ntasks-per-node");
	assert_string_equal(dir(m, 1)->value, "8");
	/* After the first command: recorded, marked ignored; a line inside
	 * a here-document is data, not a directive. */
	assert_string_equal(dir(m, 2)->long_name, "time");
	assert_true(dir(m, 2)->after_command);
	assert_int_equal(dir(m, 2)->line, 10);
	assert_null(sb_directive_find(m, "time"));
	assert_string_equal(sb_directive_find(m, "nodes")->value, "4");
	assert_int_equal(sb_line_kind(m, 2), SB_LINE_DIRECTIVE);
	assert_int_equal(sb_line_kind(m, 3), SB_LINE_BLANK);
	assert_int_equal(sb_line_kind(m, 5), SB_LINE_COMMENT);
	assert_int_equal(sb_line_kind(m, 9), SB_LINE_CODE);
	assert_int_equal(sb_line_kind(m, 10), SB_LINE_DIRECTIVE);
	assert_int_equal(sb_line_kind(m, 12), SB_LINE_HEREDOC);
	assert_string_equal(sb_shebang(m)->interp, "bash");
	sb_free(m);
}

static void directive_forms_and_spans(void **state)
{
	(void)state;
	sb_model *m = parse("#SBATCH --nodes=2 -N4 -N 3 --time 10 -HJjob --exclusive\n"
			    "#SBATCH --job-name\n"
			    "#SBATCH next-line-value\n"
			    "#SLURM --qos=high\n"
			    "echo\n");
	static const struct { const char *name, *lng, *value; enum sb_dform form; } want[] = {
		{ "--nodes", "nodes", "2", SB_DFORM_EQ },
		{ "-N", "nodes", "4", SB_DFORM_SHORT_JOINED },
		{ "-N", "nodes", "3", SB_DFORM_SHORT_SPACE },
		{ "--time", "time", "10", SB_DFORM_SPACE },
		{ "-H", "hold", NULL, SB_DFORM_FLAG },
		{ "-J", "job-name", "job", SB_DFORM_SHORT_JOINED },
		{ "--exclusive", "exclusive", NULL, SB_DFORM_FLAG },
		{ "--job-name", "job-name", "next-line-value", SB_DFORM_SPACE },
		{ "--qos", "qos", "high", SB_DFORM_EQ },
	};
	assert_int_equal(sb_directive_count(m), sizeof want / sizeof want[0]);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct sb_directive *d = dir(m, i);
		assert_string_equal(d->name, want[i].name);
		assert_string_equal(d->long_name, want[i].lng);
		assert_int_equal(d->form, want[i].form);
		if (want[i].value)
			assert_string_equal(d->value, want[i].value);
		else
			assert_null(d->value);
	}
	/* Positions: option, value, and several options on one line. */
	assert_span(dir(m, 0)->span, 1, 9, 1, 18);
	assert_span(dir(m, 0)->value_span, 1, 17, 1, 18);
	assert_span(dir(m, 2)->value_span, 1, 26, 1, 27);
	assert_span(dir(m, 4)->name_span, 1, 38, 1, 40);
	assert_span(dir(m, 5)->name_span, 1, 40, 1, 41);
	assert_int_equal(dir(m, 3)->index_on_line, 3);
	assert_int_equal(dir(m, 3)->count_on_line, 7);
	/* A value on the next #SBATCH line, as getopt takes it. */
	assert_span(dir(m, 7)->value_span, 3, 9, 3, 24);
	assert_true(dir(m, 8)->slurm_prefix);
	assert_ptr_equal(dir(m, 0)->opt, sbopt_find("nodes"));
	sb_free(m);
}

static void directive_quoting_comments_and_errors(void **state)
{
	(void)state;
	sb_model *m = parse("#SBATCH --job-name=\"a b\" --comment='x y' # trailing\n"
			    "#SBATCH --output=a#b --nodes=3\n"
			    "#SBATCH --partit=trn --nod=2 foo\n"
			    "#SBATCH --tasks-per-node=4 --mem\n"
			    "true\n");
	assert_string_equal(dir(m, 0)->value, "a b");
	assert_span(dir(m, 0)->value_span, 1, 21, 1, 24);
	assert_string_equal(dir(m, 1)->value, "x y");
	/* An unquoted '#' ends the line for sbatch. */
	assert_string_equal(dir(m, 2)->value, "a");
	assert_int_equal(dir(m, 2)->count_on_line, 1);
	/* getopt abbreviations: unique prefix accepted, ambiguous refused. */
	assert_true(dir(m, 3)->abbreviated);
	assert_string_equal(dir(m, 3)->long_name, "partition");
	assert_true(dir(m, 4)->ambiguous);
	assert_null(dir(m, 4)->long_name);
	assert_int_equal(dir(m, 5)->form, SB_DFORM_STRAY);
	assert_string_equal(dir(m, 5)->name, "foo");
	/* A hidden alias reads as its documented name; a missing value. */
	assert_string_equal(dir(m, 6)->long_name, "ntasks-per-node");
	assert_string_equal(dir(m, 6)->name, "--tasks-per-node");
	assert_true(dir(m, 7)->missing_value);
	sb_free(m);

	/* After "--" getopt reads no more options: sbatch rejects the rest. */
	m = parse("#SBATCH --time=10 -- --nodes=3\necho\n");
	assert_int_equal(sb_directive_count(m), 2);
	assert_int_equal(dir(m, 1)->form, SB_DFORM_STRAY);
	assert_null(sb_directive_find(m, "nodes"));
	sb_free(m);

	m = parse("#SBATCH --job-name=\"open\n#SBATCH --nodes=1\necho\n");
	assert_int_equal(sb_problem_count(m), 1);
	assert_int_equal(sb_problem_at(m, 0)->kind, SB_PROB_UNTERMINATED_QUOTE);
	assert_int_equal(sb_problem_at(m, 0)->span.line, 1);
	assert_string_equal(sb_directive_find(m, "nodes")->value, "1");
	sb_free(m);

	m = parse("#SBATCH -N 2\n#SBATCH hetjob\n#SBATCH -N 3\nsrun x\n");
	assert_int_equal(dir(m, 0)->component, 0);
	assert_int_equal(dir(m, 1)->component, 1);
	assert_string_equal(sb_directive_find(m, "nodes")->value, "2");
	sb_free(m);
}

/* ---- lines, continuations ---- */

static void continuation_joins_lines_with_positions(void **state)
{
	(void)state;
	sb_model *m = parse("srun --nodes=2 \\\n"
			    "    torchrun \\\n"
			    "\t--nnodes=2 caf\xc3\xa9.py \\\n"
			    "    --lr 1\n"
			    "echo done\n");
	assert_int_equal(sb_cmd_count(m), 2);
	const sb_cmd *c = sb_cmd_at(m, 0);
	assert_span(sb_cmd_span(c), 1, 1, 4, 11);
	assert_true(sb_line_continues(m, 1));
	assert_true(sb_line_continues(m, 3));
	assert_false(sb_line_continues(m, 4));
	assert_int_equal(sb_cmd_word_count(c), 7);
	assert_span(sb_word_span(sb_cmd_word(c, 2)), 2, 5, 2, 13);
	/* A tab is one column; the é of café one code point. */
	assert_span(sb_word_span(sb_cmd_word(c, 3)), 3, 2, 3, 12);
	assert_span(sb_word_span(sb_cmd_word(c, 4)), 3, 13, 3, 20);
	assert_span(sb_word_span(sb_cmd_word(c, 6)), 4, 10, 4, 11);
	assert_int_equal(sb_fact_count(m), 0);
	assert_span(sb_cmd_span(sb_cmd_at(m, 1)), 5, 1, 5, 10);
	sb_free(m);
}

static void lost_continuation(void **state)
{
	(void)state;
	sb_model *m = parse("torchrun \\\n"
			    "    --nnodes 2 \\\n"
			    "    --nproc_per_node 8\n"
			    "    --rdzv_backend c10d \\\n"
			    "    train.py\n"
			    "echo -n ok\n"
			    "\n"
			    "-x FOO=1\n");
	assert_int_equal(sb_fact_count(m), 2);
	const struct sb_fact *f = sb_fact_at(m, 0);
	assert_int_equal(f->kind, SB_FACT_LOST_CONTINUATION);
	assert_span(f->span, 4, 5, 4, 19);
	assert_true(f->adjacent);
	assert_int_equal(sb_cmd_span(f->prev).end_line, 3);
	assert_ptr_equal(f->prev, sb_cmd_at(m, 0));
	/* The lost line runs as its own command, flags and all. */
	assert_int_equal(sb_cmd_span(f->cmd).line, 4);
	assert_int_equal(sb_cmd_span(f->cmd).end_line, 5);
	f = sb_fact_at(m, 1);
	assert_span(f->span, 8, 1, 8, 3);
	assert_false(f->adjacent);
	sb_free(m);
}

static void backslash_space(void **state)
{
	(void)state;
	sb_model *m = parse("srun torchrun \\  \n"
			    "    --nnodes 2 train.py\n"
			    "echo 'x \\ ' \"y \\ \"\n"
			    "a=b\\ c\n");
	assert_int_equal(sb_fact_count(m), 2);
	const struct sb_fact *f = sb_fact_at(m, 0);
	assert_int_equal(f->kind, SB_FACT_BACKSLASH_SPACE);
	assert_span(f->span, 1, 15, 1, 18);
	assert_false(sb_line_continues(m, 1));
	/* Bash ran "torchrun ' '": the escaped space is a word. */
	const sb_part *t = sb_cmd_find(sb_cmd_at(m, 0), SB_PROG_TORCHRUN);
	assert_non_null(t);
	assert_int_equal(sb_fact_at(m, 1)->kind, SB_FACT_LOST_CONTINUATION);
	/* Quoted backslashes and a mid-word escaped space are no fact. */
	sb_free(m);
}

static void heredocs(void **state)
{
	(void)state;
	sb_model *m = parse("cat <<'EOF' > a.json\n"
			    "srun inside \"quote\n"
			    "EOF\n"
			    "cat <<-END | grep x\n"
			    "\t$(srun y)\n"
			    "\tEND\n"
			    "srun after\n");
	assert_true(sb_complete(m));
	assert_int_equal(sb_heredoc_count(m), 2);
	const struct sb_heredoc *h = sb_heredoc_at(m, 0);
	assert_string_equal(h->delim, "EOF");
	assert_true(h->quoted);
	assert_true(h->terminated);
	assert_int_equal(h->span.line, 2);
	assert_ptr_equal(h->cmd, sb_cmd_at(m, 0));
	h = sb_heredoc_at(m, 1);
	assert_true(h->strip_tabs);
	assert_false(h->quoted);
	assert_int_equal(sb_line_kind(m, 2), SB_LINE_HEREDOC);
	assert_int_equal(sb_line_kind(m, 6), SB_LINE_HEREDOC);
	/* Nothing in a body is a command. */
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		assert_int_not_equal(sb_cmd_span(sb_cmd_at(m, i)).line, 2);
	assert_int_equal(sb_cmd_count(m), 4);
	assert_int_equal(sb_cmd_span(sb_cmd_at(m, 3)).line, 7);
	sb_free(m);
}

/* ---- words ---- */

static void quotes_and_expansions(void **state)
{
	(void)state;
	sb_model *m = parse("echo plain 'sin $X' \"dq $Y\" \"$Z\" ${W} a\\ b $(hostname -i $H) "
			    "$((N + 1)) ~/x \"~/y\" *.py ${V:-$D} $'a\\tb' \"\"\n");
	const sb_cmd *c = sb_cmd_at(m, sb_cmd_count(m) - 1);
	assert_int_equal(sb_cmd_word_count(c), 15);
	const sb_word *w = sb_cmd_word(c, 1);
	assert_string_equal(sb_word_value(w), "plain");
	assert_int_equal(sb_word_flags(w), 0);
	w = sb_cmd_word(c, 2);
	assert_string_equal(sb_word_value(w), "sin $X");
	assert_int_equal(sb_word_flags(w), SB_W_QUOTED);
	assert_int_equal(sb_word_ref_count(w), 0);
	w = sb_cmd_word(c, 3);
	assert_null(sb_word_value(w));
	assert_true(sb_word_flags(w) & SB_W_EXPANSION);
	assert_string_equal(sb_word_ref(w, 0), "Y");
	assert_null(sb_word_var(w));
	assert_string_equal(sb_word_var(sb_cmd_word(c, 4)), "Z");
	assert_string_equal(sb_word_var(sb_cmd_word(c, 5)), "W");
	assert_string_equal(sb_word_value(sb_cmd_word(c, 6)), "a b");
	w = sb_cmd_word(c, 7);
	assert_true(sb_word_flags(w) & SB_W_CMDSUB);
	assert_string_equal(sb_word_ref(w, 0), "H");
	assert_string_equal(sb_word_ref(sb_cmd_word(c, 8), 0), "N");
	assert_true(sb_word_flags(sb_cmd_word(c, 9)) & SB_W_EXPANSION);
	assert_string_equal(sb_word_value(sb_cmd_word(c, 10)), "~/y");
	assert_true(sb_word_flags(sb_cmd_word(c, 11)) & SB_W_GLOB);
	w = sb_cmd_word(c, 12);
	assert_int_equal(sb_word_ref_count(w), 2);
	assert_string_equal(sb_word_value(sb_cmd_word(c, 13)), "a\tb");
	assert_string_equal(sb_word_value(sb_cmd_word(c, 14)), "");
	assert_true(sb_word_flags(sb_cmd_word(c, 14)) & SB_W_QUOTED);
	/* The command substitution's command comes first, inside it. */
	const sb_cmd *h = cmd_named(m, "hostname");
	assert_non_null(h);
	assert_true(sb_cmd_context(h) & SB_CTX_CMDSUB);
	assert_ptr_equal(sb_cmd_parent(h), c);
	assert_true(sb_cmd_index(h) < sb_cmd_index(c));
	assert_span(sb_cmd_span(h), 1, 46, 1, 60);
	sb_free(m);
}

static void compound_contexts(void **state)
{
	(void)state;
	sb_model *m = parse("if [ -n \"$A\" ]; then\n"
			    "  srun a\n"
			    "elif true; then b; else c; fi\n"
			    "for h in x y; do d \"$h\"; done\n"
			    "while read l; do e; done < f\n"
			    "case $1 in a|b) g ;; *) h ;; esac\n"
			    "f() { i; }\n"
			    "function k { j; }\n"
			    "( l ) | m &\n"
			    "n && o || p\n"
			    "! q\n"
			    "[[ -f x && -d y ]] || { r; }\n");
	assert_true(sb_complete(m));
	struct { const char *name; unsigned has, hasnt; } want[] = {
		{ "[", SB_CTX_IF | SB_CTX_CONDITION, SB_CTX_LOOP },
		{ "srun", SB_CTX_IF, SB_CTX_CONDITION },
		{ "true", SB_CTX_IF | SB_CTX_CONDITION, 0 },
		{ "c", SB_CTX_IF, SB_CTX_CONDITION },
		{ "d", SB_CTX_LOOP, SB_CTX_IF },
		{ "read", SB_CTX_LOOP | SB_CTX_CONDITION, 0 },
		{ "e", SB_CTX_LOOP, SB_CTX_CONDITION },
		{ "g", SB_CTX_CASE, 0 },
		{ "i", SB_CTX_FUNCTION | SB_CTX_BRACE, 0 },
		{ "j", SB_CTX_FUNCTION, 0 },
		{ "l", SB_CTX_SUBSHELL | SB_CTX_PIPELINE | SB_CTX_BACKGROUND, 0 },
		{ "m", SB_CTX_PIPELINE | SB_CTX_BACKGROUND, SB_CTX_SUBSHELL },
		{ "n", 0, SB_CTX_AND_OR },
		{ "o", SB_CTX_AND_OR, 0 },
		{ "p", SB_CTX_AND_OR, 0 },
		{ "q", SB_CTX_NEGATED, 0 },
		{ "[[", 0, SB_CTX_AND_OR },
		{ "r", SB_CTX_AND_OR | SB_CTX_BRACE, 0 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const sb_cmd *c = cmd_named(m, want[i].name);
		assert_non_null(c);
		assert_int_equal(sb_cmd_context(c) & want[i].has, want[i].has);
		assert_int_equal(sb_cmd_context(c) & want[i].hasnt, 0);
	}
	assert_string_equal(sb_cmd_function(cmd_named(m, "i")), "f");
	assert_string_equal(sb_cmd_function(cmd_named(m, "j")), "k");
	/* [[ ]] reads && and < as its own words. */
	assert_int_equal(sb_cmd_word_count(cmd_named(m, "[[")), 7);
	sb_free(m);
}

/* ---- launchers ---- */

static void srun_torchrun_chain(void **state)
{
	(void)state;
	sb_model *m = parse("srun -lN2 --ntasks-per-node=1 --mpi pmix --container-image img \\\n"
			    "  torchrun --nnodes=2 --nproc_per_node 8 --rdzv-backend=c10d \\\n"
			    "  --rdzv_endpoint \"$(hostname):29500\" --standalone -m pkg.train \\\n"
			    "  --lr 3e-4 --layers=8 -v\n");
	const sb_cmd *c = sb_cmd_at(m, sb_cmd_count(m) - 1);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_SRUN);
	assert_false(sb_cmd_assumed(c));
	assert_int_equal(sb_cmd_part_count(c), 3);
	const sb_part *s = sb_cmd_part(c, 0);
	assert_string_equal(sb_part_name(s), "srun");
	assert_non_null(sb_flag_find(s, "label"));
	assert_null(sb_flag(s, "label"));
	assert_string_equal(sb_word_value(sb_flag(s, "nodes")), "2");
	assert_string_equal(sb_word_value(sb_flag(s, "N")), "2");
	assert_string_equal(sb_word_value(sb_flag(s, "ntasks_per_node")), "1");
	assert_string_equal(sb_word_value(sb_flag(s, "mpi")), "pmix");
	assert_string_equal(sb_word_value(sb_flag(s, "container-image")), "img");
	assert_span(sb_word_span(sb_flag(s, "nodes")), 1, 9, 1, 10);

	const sb_part *t = sb_cmd_find(c, SB_PROG_TORCHRUN);
	assert_ptr_equal(t, sb_cmd_part(c, 1));
	/* Both spellings, "=" or a space. */
	assert_string_equal(sb_word_value(sb_flag(t, "nnodes")), "2");
	assert_string_equal(sb_word_value(sb_flag(t, "nproc-per-node")), "8");
	assert_string_equal(sb_word_value(sb_flag(t, "nproc_per_node")), "8");
	assert_string_equal(sb_word_value(sb_flag(t, "rdzv_backend")), "c10d");
	assert_string_equal(sb_flag_find(t, "rdzv-backend")->written, "--rdzv-backend");
	assert_true(sb_flag_find(t, "rdzv-backend")->joined);
	const sb_word *ep = sb_flag(t, "rdzv-endpoint");
	assert_true(sb_word_flags(ep) & SB_W_CMDSUB);
	assert_span(sb_word_span(ep), 3, 19, 3, 38);
	assert_non_null(sb_flag_find(t, "standalone"));
	assert_non_null(sb_flag_find(t, "module"));
	assert_span(sb_word_span(sb_flag(t, "nnodes")), 2, 21, 2, 22);

	const sb_part *p = sb_cmd_part(c, 2);
	assert_int_equal(sb_part_kind(p), SB_PROG_PYTHON);
	assert_string_equal(sb_word_value(sb_part_entry(p)), "pkg.train");
	/* The application's own flags: arity unknown, never guessed. */
	assert_null(sb_flag(p, "lr"));
	assert_string_equal(sb_word_value(sb_flag_next(p, "lr")), "3e-4");
	assert_string_equal(sb_word_value(sb_flag(p, "layers")), "8");
	assert_int_equal(sb_flag_find(p, "lr")->arity, SB_ARITY_UNKNOWN);
	assert_int_equal(sb_part_arg_count(p), 4);
	sb_free(m);
}

static void python_module_torchrun(void **state)
{
	(void)state;
	sb_model *m = parse("srun python -u -m torch.distributed.run --nnodes 4 pretrain.py --tp 8\n"
			    "python3 -m torch.distributed.launch --use_env --nproc_per_node=2 t.py\n"
			    "python3.11 -m mypkg.main --x 1\n"
			    "python -c 'print(1)'\n"
			    "/opt/venv/bin/torchrun --no-python ./run.sh\n");
	const sb_cmd *c = sb_cmd_at(m, 0);
	const sb_part *t = sb_cmd_find(c, SB_PROG_TORCHRUN);
	assert_non_null(t);
	assert_string_equal(sb_part_name(t), "python");
	assert_string_equal(sb_word_value(sb_part_entry(t)), "torch.distributed.run");
	assert_string_equal(sb_word_value(sb_flag(t, "nnodes")), "4");
	const sb_part *p = sb_cmd_find(c, SB_PROG_PYTHON);
	assert_string_equal(sb_word_value(sb_part_entry(p)), "pretrain.py");
	assert_string_equal(sb_word_value(sb_flag_next(p, "tp")), "8");

	c = sb_cmd_at(m, 1);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_TORCHRUN);
	t = sb_cmd_part(c, 0);
	assert_non_null(sb_flag_find(t, "use-env"));
	assert_string_equal(sb_word_value(sb_flag(t, "nproc_per_node")), "2");
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_part(c, 1))), "t.py");

	c = sb_cmd_at(m, 2);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_PYTHON);
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_part(c, 0))), "mypkg.main");
	c = sb_cmd_at(m, 3);
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_part(c, 0))), "print(1)");

	c = sb_cmd_at(m, 4);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_TORCHRUN);
	assert_string_equal(sb_part_name(sb_cmd_part(c, 0)), "torchrun");
	assert_int_equal(sb_part_kind(sb_cmd_part(c, 1)), SB_PROG_SCRIPT);
	sb_free(m);
}

static void bash_c_nested_positions(void **state)
{
	(void)state;
	sb_model *m = parse("X=1\n"
			    "srun --ntasks-per-node=1 bash -c 'cd /w &&\n"
			    "  torchrun --node_rank=$SLURM_NODEID t.py'\n"
			    "mpirun -N 1 sh -lc \"echo $X $(hostname)\"\n");
	assert_true(sb_complete(m));
	const sb_cmd *c = cmd_named(m, "srun");
	const sb_part *sh = sb_cmd_find(c, SB_PROG_SHELL_C);
	assert_non_null(sh);
	assert_string_equal(sb_part_name(sh), "bash");
	/* The string's commands follow their command, at their own place. */
	const sb_cmd *cd = sb_cmd_at(m, sb_cmd_index(c) + 1);
	assert_string_equal(sb_word_value(sb_cmd_word(cd, 0)), "cd");
	assert_span(sb_cmd_span(cd), 2, 35, 2, 40);
	const sb_cmd *t = cmd_named(m, "torchrun");
	assert_ptr_equal(sb_cmd_parent(t), c);
	assert_int_equal(sb_cmd_nest_quote(t), '\'');
	assert_true(sb_cmd_context(t) & SB_CTX_NESTED);
	assert_true(sb_cmd_context(t) & SB_CTX_AND_OR);
	const sb_word *rank = sb_flag(sb_cmd_part(t, 0), "node-rank");
	assert_span(sb_word_span(rank), 3, 24, 3, 37);
	/* Evaluated by the task's shell: the batch script did not set it. */
	struct sb_resolved r;
	assert_int_equal(sb_resolve_word(m, rank, t, &r), SB_RES_ENV);
	assert_string_equal(r.var, "SLURM_NODEID");

	const sb_cmd *mp = cmd_named(m, "mpirun");
	assert_int_equal(sb_cmd_launcher(mp), SB_PROG_MPIRUN);
	const sb_cmd *echo = cmd_named(m, "echo");
	assert_non_null(echo);
	assert_int_equal(sb_cmd_nest_quote(echo), '"');
	/* In double quotes the batch shell expands $X first. */
	assert_int_equal(sb_resolve_word(m, sb_cmd_word(echo, 1), echo, &r), SB_RES_VALUE);
	assert_string_equal(r.value, "1");
	assert_non_null(cmd_named(m, "hostname"));
	sb_free(m);
}

/* The launch strings of large GPU repositories: the launcher and the
 * program in exported strings that a bash -c string names. */
static void bash_c_launch_strings(void **state)
{
	(void)state;
	sb_model *m = parse("N=8\n"
			    "ARGS=\" \\\n    --num-layers 24 \\\n    \"\n"
			    "export LAUNCHER=\"torchrun --nproc_per_node $N \\\n    --nnodes 2\"\n"
			    "export CMD=\"train.py --tp 2 $ARGS\"\n"
			    "LOCAL=3\n"
			    "srun bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD --x $LOCAL'\n"
			    "srun bash -c \"$LAUNCHER --node_rank \\$SLURM_PROCID $CMD\"\n"
			    "srun bash -c \"$LAUNCHER --node_rank $SLURM_NODEID\"\n");
	assert_true(sb_complete(m));
	const sb_cmd *nested[3];
	size_t n = 0;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_parent(sb_cmd_at(m, i)) && n < 3)
			nested[n++] = sb_cmd_at(m, i);
	assert_int_equal(n, 3);
	/* Single quotes: the task's shell splits what the batch shell
	 * exported, backslash-newlines gone, $ARGS inside $CMD split too. */
	const sb_part *t = sb_cmd_find(nested[0], SB_PROG_TORCHRUN);
	assert_non_null(t);
	assert_string_equal(sb_word_value(sb_flag(t, "nnodes")), "2");
	assert_string_equal(sb_word_value(sb_flag(t, "nproc-per-node")), "8");
	struct sb_resolved r;
	assert_int_equal(sb_resolve_word(m, sb_flag(t, "node-rank"), nested[0], &r), SB_RES_ENV);
	assert_false(sb_word_batch_expanded(m, sb_flag(t, "node-rank"), nested[0]));
	const sb_part *py = sb_cmd_find(nested[0], SB_PROG_PYTHON);
	assert_non_null(py);
	assert_non_null(sb_flag_find(py, "num-layers"));
	/* LOCAL was never exported: the task's shell may not have it. */
	assert_int_equal(sb_resolve(m, "LOCAL", nested[0], &r), SB_RES_UNKNOWN);
	/* Double quotes: \$ is the task's; $NAME the batch step's. */
	t = sb_cmd_find(nested[1], SB_PROG_TORCHRUN);
	assert_non_null(t);
	assert_null(sb_word_ref_count(sb_flag(t, "node-rank")) ? "ref" : NULL);
	t = sb_cmd_find(nested[2], SB_PROG_TORCHRUN);
	assert_non_null(t);
	assert_true(sb_word_batch_expanded(m, sb_flag(t, "node-rank"), nested[2]));
	assert_string_equal(sb_word_ref(sb_flag(t, "node-rank"), 0), "SLURM_NODEID");
	sb_free(m);
}

/* accelerate launch and deepspeed are launchers with flag tables: their
 * rank, node and rendezvous flags answer to torchrun's names. */
static void accelerate_and_deepspeed(void **state)
{
	(void)state;
	sb_model *m = parse("srun accelerate launch --multi_gpu --num-machines 2 --num_processes 16 "
			    "--machine_rank 1 --main_process_ip h0 --main_process_port 29500 t.py --lr 1\n"
			    "deepspeed -H hosts --num_nodes 2 --num_gpus 8 --master_addr h0 t.py --ds c.json\n"
			    "python -m deepspeed.launcher.runner --num_gpus=4 t.py\n"
			    "accelerate config default\n");
	const sb_cmd *c = sb_cmd_at(m, 0);
	const sb_part *a = sb_cmd_find(c, SB_PROG_LAUNCHER);
	assert_non_null(a);
	assert_string_equal(sb_part_name(a), "accelerate");
	assert_string_equal(sb_word_value(sb_flag(a, "node-rank")), "1");
	assert_string_equal(sb_word_value(sb_flag(a, "nnodes")), "2");
	assert_string_equal(sb_word_value(sb_flag(a, "master-addr")), "h0");
	assert_string_equal(sb_word_value(sb_flag(a, "num-processes")), "16");
	assert_string_equal(sb_flag_find(a, "node-rank")->written, "--machine_rank");
	const sb_part *py = sb_cmd_find(c, SB_PROG_PYTHON);
	assert_non_null(py);
	assert_string_equal(sb_word_value(sb_part_entry(py)), "t.py");
	c = sb_cmd_at(m, 1);
	a = sb_cmd_find(c, SB_PROG_LAUNCHER);
	assert_string_equal(sb_word_value(sb_flag(a, "hostfile")), "hosts");
	assert_string_equal(sb_word_value(sb_flag(a, "nproc-per-node")), "8");
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_find(c, SB_PROG_PYTHON))), "t.py");
	c = sb_cmd_at(m, 2);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_LAUNCHER);
	assert_string_equal(sb_word_value(sb_flag(sb_cmd_part(c, 0), "nproc-per-node")), "4");
	assert_int_equal(sb_cmd_launcher(sb_cmd_at(m, 3)), SB_PROG_OTHER);
	sb_free(m);
}

/* ssh and pdsh run the rest of the command on other nodes: the host
 * (an expansion, often) is not an option, and one quoted string is
 * read as the remote shell will. */
static void remote_shells(void **state)
{
	(void)state;
	sb_model *m = parse("for n in a b; do\n"
			    "  ssh -p 2222 -q $n torchrun --nnodes 2 t.py\n"
			    "  ssh -o X=1 $n \"cd /w && torchrun --nnodes 2 t.py\" &\n"
			    "done\n"
			    "pdsh -w a,b hostname\n");
	const sb_cmd *c = sb_cmd_at(m, 1);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_REMOTE);
	assert_string_equal(sb_word_value(sb_flag(sb_cmd_part(c, 0), "p")), "2222");
	assert_non_null(sb_cmd_find(c, SB_PROG_TORCHRUN));
	size_t nested = 0;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_parent(sb_cmd_at(m, i)) && sb_cmd_find(sb_cmd_at(m, i), SB_PROG_TORCHRUN))
			nested++;
	assert_int_equal(nested, 1);
	const sb_cmd *p = cmd_named(m, "pdsh");
	assert_string_equal(sb_word_value(sb_flag(sb_cmd_part(p, 0), "hosts")), "a,b");
	sb_free(m);
}

/* What decides a variable set in the branches of an if: each branch's
 * condition, the earlier ones to fail and its own to hold. */
static void if_branch_conditions(void **state)
{
	(void)state;
	sb_model *m = parse("PP=1\n"
			    "if [ \"$N\" -ge 8 ]; then\n  PP=4\n"
			    "elif [ \"$N\" -ge 4 ]; then\n  PP=2\n"
			    "else\n  PP=3\nfi\n"
			    "for i in 1 2; do PP=9; done\n"
			    "echo \"$PP\"\n");
	const sb_cmd *use = cmd_named(m, "echo");
	const struct sb_assign *cand[8];
	bool base;
	/* the loop's assignment comes last, and makes the answer unknown */
	size_t n = sb_assign_candidates(m, "PP", use, cand, 8, &base);
	assert_true(n != SIZE_MAX);
	const sb_cmd *conds[4];
	bool taken[4];
	assert_int_equal(sb_assign_conditions(m, cand[0], use, conds, taken, 4), SIZE_MAX);
	/* the elif's PP=2: the if's test fails, its own holds */
	size_t k = SIZE_MAX;
	for (size_t i = 0; i < n; i++)
		if (cand[i]->value && sb_word_value(cand[i]->value) &&
		    !strcmp(sb_word_value(cand[i]->value), "2"))
			k = sb_assign_conditions(m, cand[i], use, conds, taken, 4);
	assert_int_equal(k, 2);
	assert_false(taken[0]);
	assert_true(taken[1]);
	assert_string_equal(sb_word_value(sb_cmd_word(conds[1], 3)), "4");
	/* the else's PP=3: both tests fail; PP=1 runs whenever reached */
	for (size_t i = 0; i < n; i++) {
		const char *v = cand[i]->value ? sb_word_value(cand[i]->value) : NULL;
		if (v && !strcmp(v, "3"))
			assert_int_equal(sb_assign_conditions(m, cand[i], use, conds, taken, 4), 2);
		if (v && !strcmp(v, "1"))
			assert_int_equal(sb_assign_conditions(m, cand[i], use, conds, taken, 4), 0);
	}
	sb_free(m);
}

/* A case item knows its case's word and the patterns up to its own. */
static void case_item_patterns(void **state)
{
	(void)state;
	sb_model *m = parse("case \"$N\" in\n  2|4) PP=2 ;;\n  (8) PP=4 ;;\n  *) PP=1 ;&\nesac\necho $PP\n");
	const sb_cmd *use = cmd_named(m, "echo");
	const sb_word *subject;
	const char *pats[4];
	for (size_t i = 0; i < sb_assign_count(m); i++) {
		const struct sb_assign *a = sb_assign_at(m, i);
		const char *v = a->value ? sb_word_value(a->value) : "";
		size_t n = sb_assign_case(m, a, use, &subject, pats, 4);
		if (!strcmp(v, "4")) {
			assert_int_equal(n, 2);
			assert_string_equal(pats[0], "2|4");
			assert_string_equal(pats[1], "8");
			assert_string_equal(sb_word_var(subject), "N");
		}
		if (!strcmp(v, "1")) /* falls through: not told */
			assert_int_equal(n, SIZE_MAX);
	}
	sb_free(m);
}

static void wrappers_scripts_and_unknowns(void **state)
{
	(void)state;
	sb_model *m = parse("time srun hostname\n"
			    "/usr/bin/time -v env A=1 srun -n 4 ./run.sh arg\n"
			    "COMPILE=1 ./llama.sh\n"
			    "bash train.sh --x\n"
			    "command -v srun\n"
			    "srun neuron_parallel_compile ./run_zero.sh MIXED\n"
			    "$MAYBE torchrun --nnodes 2 t.py\n"
			    "srun $1\n"
			    "deepspeed --num_gpus 8 t.py\n");
	assert_int_equal(sb_cmd_launcher(sb_cmd_at(m, 0)), SB_PROG_SRUN);
	assert_int_equal(sb_part_kind(sb_cmd_part(sb_cmd_at(m, 0), 0)), SB_PROG_WRAPPER);
	const sb_cmd *c = sb_cmd_at(m, 1);
	assert_int_equal(sb_cmd_part_count(c), 4);
	assert_string_equal(sb_word_value(sb_flag(sb_cmd_find(c, SB_PROG_SRUN), "ntasks")), "4");
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_find(c, SB_PROG_SCRIPT))), "./run.sh");
	c = sb_cmd_at(m, 2);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_SCRIPT);
	const struct sb_assign *a = sb_assign_at(m, 0);
	assert_string_equal(a->name, "COMPILE");
	assert_int_equal(a->kind, SB_ASSIGN_PREFIX);
	assert_ptr_equal(a->cmd, c);
	assert_int_equal(sb_cmd_assign_count(c), 1);
	assert_ptr_equal(sb_cmd_assign(c, 0), a);
	assert_null(sb_cmd_assign(c, 1));
	c = sb_cmd_at(m, 3);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_SCRIPT);
	assert_string_equal(sb_word_value(sb_part_entry(sb_cmd_part(c, 0))), "train.sh");
	/* "command -v srun" runs nothing. */
	assert_int_equal(sb_cmd_launcher(sb_cmd_at(m, 4)), SB_PROG_OTHER);
	c = sb_cmd_at(m, 5);
	assert_int_equal(sb_cmd_part_count(c), 3);
	assert_int_equal(sb_part_kind(sb_cmd_part(c, 1)), SB_PROG_NEURON_PARALLEL_COMPILE);
	assert_int_equal(sb_part_kind(sb_cmd_part(c, 2)), SB_PROG_SCRIPT);
	/* An unknown word where the program would be: read on, marked. */
	c = sb_cmd_at(m, 6);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_UNKNOWN);
	assert_true(sb_cmd_assumed(c));
	assert_non_null(sb_cmd_find(c, SB_PROG_TORCHRUN));
	c = sb_cmd_at(m, 7);
	assert_int_equal(sb_part_kind(sb_cmd_part(c, 1)), SB_PROG_UNKNOWN);
	c = sb_cmd_at(m, 8);
	assert_int_equal(sb_cmd_launcher(c), SB_PROG_LAUNCHER);
	assert_string_equal(sb_part_name(sb_cmd_part(c, 0)), "deepspeed");
	sb_free(m);
}

static void mpirun_chain(void **state)
{
	(void)state;
	sb_model *m = parse("mpirun -np 16 -N 8 -x FI_PROVIDER=efa --mca pml ^ucx --bind-to none "
			    "./all_reduce_perf -b 8\n");
	const sb_part *p = sb_cmd_part(sb_cmd_at(m, 0), 0);
	assert_int_equal(sb_part_kind(p), SB_PROG_MPIRUN);
	assert_string_equal(sb_word_value(sb_flag(p, "np")), "16");
	assert_string_equal(sb_word_value(sb_flag(p, "npernode")), "8");
	assert_string_equal(sb_word_value(sb_flag(p, "x")), "FI_PROVIDER=efa");
	const struct sb_flag *mca = sb_flag_find(p, "mca");
	assert_int_equal(mca->arity, SB_ARITY_TWO);
	assert_string_equal(sb_word_value(mca->value), "pml");
	assert_string_equal(sb_word_value(mca->value2), "^ucx");
	const sb_part *prog = sb_cmd_part(sb_cmd_at(m, 0), 1);
	assert_string_equal(sb_part_name(prog), "all_reduce_perf");
	sb_free(m);
}

/* ---- assignments ---- */

static void assignments_and_resolution(void **state)
{
	(void)state;
	sb_model *m = parse("NNODES=$SLURM_JOB_NUM_NODES\n"
			    "export FI_PROVIDER=efa\n"
			    "GPUS=8\n"
			    "export GPUS\n"
			    ": \"${IMAGE:=/fsx/img.sqsh}\"\n"
			    "declare -a ARGS=(--nnodes $NNODES\n"
			    "   --nproc_per_node=$GPUS  # a comment\n"
			    ")\n"
			    "ARGS+=(--max-restarts 3)\n"
			    "PORT=$((RANDOM + 1000))\n"
			    "unset GONE\n"
			    "srun torchrun \"${ARGS[@]}\" t.py\n");
	const sb_cmd *srun = cmd_named(m, "srun");
	struct sb_resolved r;
	assert_int_equal(sb_resolve(m, "NNODES", srun, &r), SB_RES_ENV);
	assert_string_equal(r.var, "SLURM_JOB_NUM_NODES");
	assert_int_equal(r.hops, 1);
	assert_string_equal(r.assign->name, "NNODES");
	assert_int_equal(sb_resolve(m, "FI_PROVIDER", srun, &r), SB_RES_VALUE);
	assert_string_equal(r.value, "efa");
	assert_true(r.exported);
	assert_int_equal(sb_resolve(m, "GPUS", srun, &r), SB_RES_VALUE);
	assert_true(r.exported);
	assert_int_equal(sb_resolve(m, "GPUS", sb_cmd_at(m, 2), &r), SB_RES_ENV); /* before it */
	assert_int_equal(sb_resolve(m, "IMAGE", srun, &r), SB_RES_VALUE);
	assert_string_equal(r.value, "/fsx/img.sqsh");
	assert_true(r.overridable);
	assert_int_equal(sb_resolve(m, "PORT", srun, &r), SB_RES_WORD);
	assert_true(r.assign->refs_vars);
	assert_int_equal(sb_resolve(m, "GONE", srun, &r), SB_RES_VALUE);
	assert_string_equal(r.value, "");

	/* Records: kinds, names, values with spans. */
	const struct sb_assign *a = sb_assign_at(m, 1);
	assert_string_equal(a->name, "FI_PROVIDER");
	assert_int_equal(a->kind, SB_ASSIGN_EXPORT);
	assert_span(sb_word_span(a->value), 2, 20, 2, 23);
	assert_raw(a->value, "efa");
	assert_span(a->name_span, 2, 8, 2, 19);
	size_t arrays = 0;
	for (size_t i = 0; i < sb_assign_count(m); i++)
		arrays += sb_assign_at(m, i)->array;
	assert_int_equal(arrays, 2);

	/* The array splices into torchrun's flags, with their own spans. */
	const sb_part *t = sb_cmd_find(srun, SB_PROG_TORCHRUN);
	const sb_word *nn = sb_flag(t, "nnodes");
	assert_span(sb_word_span(nn), 6, 27, 6, 34);
	assert_true(sb_word_flags(nn) & SB_W_SPLICED);
	assert_int_equal(sb_resolve_word(m, nn, srun, &r), SB_RES_ENV);
	assert_string_equal(r.var, "SLURM_JOB_NUM_NODES");
	assert_string_equal(sb_word_value(sb_flag(t, "max-restarts")), "3");
	const struct sb_flag *np = sb_flag_find(t, "nproc_per_node");
	assert_non_null(sb_word_origin(np->word));
	assert_string_equal(sb_word_var(np->value), "GPUS");
	assert_int_equal(sb_comment_count(m), 1);
	sb_free(m);
}

/* A string of flags written over lines with backslash-newlines between
 * them splits as bash splits it; in single quotes the backslash stays,
 * a field of its own, and the flags after it are still flags. */
static void flag_string_over_lines(void **state)
{
	(void)state;
	sb_model *m = parse("ARGS=\" \\\n"
			    "    --num-layers 24 \\\n"
			    "    --log-interval 10 \\\n"
			    "    \"\n"
			    "KEPT=' \\\n"
			    "    --log-interval 10'\n"
			    "srun python pretrain_gpt.py $ARGS\n"
			    "srun python pretrain_gpt.py $KEPT\n");
	const sb_part *py[2] = { NULL, NULL };
	for (size_t i = 0, n = 0; i < sb_cmd_count(m) && n < 2; i++)
		if ((py[n] = sb_cmd_find(sb_cmd_at(m, i), SB_PROG_PYTHON)))
			n++;
	const sb_part *p = py[0];
	assert_non_null(p);
	assert_non_null(sb_flag_find(p, "num-layers"));
	const struct sb_flag *li = sb_flag_find(p, "log-interval");
	assert_non_null(li);
	assert_string_equal(sb_word_value(sb_flag_next(p, "log-interval")), "10");
	assert_span(sb_word_span(li->word), 3, 5, 3, 19);
	assert_int_equal(sb_part_opaque_count(p), 0);
	p = py[1];
	assert_non_null(p);
	assert_non_null(sb_flag_find(p, "log-interval"));
	assert_string_equal(sb_word_value(sb_flag_next(p, "log-interval")), "10");
	sb_free(m);
}

static void resolution_is_never_guessed(void **state)
{
	(void)state;
	sb_model *m = parse("A=1\n"
			    "if [ -n \"$X\" ]; then A=2; fi\n"
			    "B=1\n"
			    "true && B=2\n"
			    "C=1\n"
			    "for i in 1 2; do echo $C; C=2; done\n"
			    "D=1\n"
			    "f() { echo $D; }\n"
			    "D=3\n"
			    "E=1\n"
			    "( E=2 )\n"
			    "echo $E | cat\n"
			    "G=1\n"
			    "source ./env.sh\n"
			    "echo end\n");
	const sb_cmd *end = cmd_named(m, "cat");
	struct sb_resolved r;
	assert_int_equal(sb_resolve(m, "A", end, &r), SB_RES_UNKNOWN);
	assert_int_equal(sb_resolve(m, "B", end, &r), SB_RES_UNKNOWN);
	/* Inside the loop, C may be 2 from the pass before. */
	const sb_cmd *loop_echo = NULL;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_context(sb_cmd_at(m, i)) & SB_CTX_LOOP)
			loop_echo = sb_cmd_at(m, i);
	assert_int_equal(sb_resolve(m, "C", loop_echo, &r), SB_RES_UNKNOWN);
	/* The function runs when called, after D=3 perhaps. */
	const sb_cmd *fe = NULL;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_context(sb_cmd_at(m, i)) & SB_CTX_FUNCTION)
			fe = sb_cmd_at(m, i);
	assert_int_equal(sb_resolve(m, "D", fe, &r), SB_RES_UNKNOWN);
	assert_int_equal(sb_resolve(m, "D", end, &r), SB_RES_VALUE);
	/* A subshell's assignment does not reach outside; it stays unknown. */
	assert_int_equal(sb_resolve(m, "E", end, &r), SB_RES_UNKNOWN);
	/* After `source`, values stand but say a file may have changed them. */
	assert_int_equal(sb_resolve(m, "G", NULL, &r), SB_RES_VALUE);
	assert_true(r.after_source);
	sb_free(m);
}

static void opaque_options(void **state)
{
	(void)state;
	sb_model *m = parse("AUTO_RESUME=\"\"\n"
			    "if [ -d /opt/x ]; then AUTO_RESUME=\"--auto-resume=1\"; fi\n"
			    "if [ -n \"$C\" ]; then declare -a ARGS=(--container-image $C); fi\n"
			    "srun ${AUTO_RESUME} -l \"${ARGS[@]}\" torchrun --nnodes 2 t.py\n"
			    "srun $EXTRA torchrun --nnodes 2 t.py\n");
	/* Every value the expansions may hold is a complete set of srun
	 * options: the chain is exact. */
	const sb_cmd *c = sb_cmd_at(m, sb_cmd_count(m) - 2);
	assert_false(sb_cmd_assumed(c));
	assert_int_equal(sb_part_opaque_count(sb_cmd_part(c, 0)), 2);
	assert_non_null(sb_cmd_find(c, SB_PROG_TORCHRUN));
	/* $EXTRA comes from the environment: anything. */
	c = sb_cmd_at(m, sb_cmd_count(m) - 1);
	assert_true(sb_cmd_assumed(c));
	assert_non_null(sb_cmd_find(c, SB_PROG_TORCHRUN));
	sb_free(m);
}

/* ---- hostile input ---- */

static void hostile_unterminated(void **state)
{
	(void)state;
	static const struct { const char *text; enum sb_problem_kind kind; uint32_t line, col; } cases[] = {
		{ "echo ok\necho 'open\nmore\n", SB_PROB_UNTERMINATED_QUOTE, 2, 6 },
		{ "echo \"open $X\n", SB_PROB_UNTERMINATED_QUOTE, 1, 6 },
		{ "x=$(echo a\n", SB_PROB_UNTERMINATED_EXPANSION, 1, 3 },
		{ "x=$(echo (\n", SB_PROB_SYNTAX, 1, 11 },
		{ "x=${A\n", SB_PROB_UNTERMINATED_EXPANSION, 1, 3 },
		{ "echo `date\n", SB_PROB_UNTERMINATED_QUOTE, 1, 6 },
		{ "cat <<EOF\nbody\n", SB_PROB_HEREDOC_UNTERMINATED, 1, 5 },
		{ "if true; then\n  echo\n", SB_PROB_SYNTAX, 1, 1 },
		{ "fi\n", SB_PROB_SYNTAX, 1, 1 },
		{ "for; do\n", SB_PROB_SYNTAX, 1, 1 },
		{ "A=(a b\n", SB_PROB_SYNTAX, 1, 1 },
		{ "echo $'x\n", SB_PROB_UNTERMINATED_QUOTE, 1, 6 },
		{ "a[", SB_PROB_UNTERMINATED_EXPANSION, 1, 2 }, /* a one-byte opener at the end */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sb_model *m = parse(cases[i].text);
		assert_true(sb_problem_count(m) >= 1);
		const struct sb_problem *p = sb_problem_at(m, 0);
		assert_int_equal(p->kind, cases[i].kind);
		assert_int_equal(p->span.line, cases[i].line);
		assert_int_equal(p->span.col, cases[i].col);
		assert_true(p->span.off < p->span.end && p->span.end <= strlen(cases[i].text));
		assert_non_null(p->msg);
		if (cases[i].kind != SB_PROB_HEREDOC_UNTERMINATED)
			assert_false(sb_complete(m));
		sb_free(m);
	}
	/* Facts before the problem stay. */
	sb_model *m = parse("#SBATCH -N 2\nsrun a\necho 'open\n");
	assert_int_equal(sb_cmd_launcher(sb_cmd_at(m, 0)), SB_PROG_SRUN);
	assert_string_equal(sb_directive_find(m, "nodes")->value, "2");
	sb_free(m);
}

static char *repeat(const char *head, const char *unit, size_t n, const char *tail)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, head);
	for (size_t i = 0; i < n; i++)
		buf_puts(&b, unit);
	buf_puts(&b, tail);
	return buf_detach(&b);
}

static void hostile_limits(void **state)
{
	(void)state;
	struct sb_limits lim = { .max_bytes = 100 };
	char *big = repeat("", "echo x\n", 100, "");
	sb_model *m = sb_parse(big, strlen(big), &lim);
	assert_int_equal(sb_problem_at(m, 0)->kind, SB_PROB_LIMIT);
	assert_int_equal(sb_cmd_count(m), 0);
	assert_false(sb_complete(m));
	sb_free(m);
	free(big);

	static const struct { const char *head, *unit, *tail; size_t n; } deep[] = {
		{ "x=", "$(", "", 5000 },
		{ "x=\"", "${A:-\"", "", 5000 },
		{ "", "if true; then ", "", 5000 },
		{ "", "( ", "", 5000 },
		{ "", "{ ", "", 5000 },
		{ "srun ", "bash -c 'srun ", "", 50 },
		{ "A=(", "B=(", "", 5000 },
		{ "echo ", "[", "\n", 200000 },
		{ "", "a|", "a\n", 100000 },
		{ "", "x $(y) ", "\n", 60000 },
	};
	for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
		char *t = repeat(deep[i].head, deep[i].unit, deep[i].n, deep[i].tail);
		m = parse(t);
		/* Reads to the end or stops with a problem; never crashes. */
		assert_true(sb_complete(m) || sb_problem_count(m) > 0);
		sb_free(m);
		free(t);
	}
	/* Nested bash -c strings beyond the nest limit are left unread. */
	m = parse("srun bash -c 'bash -c \"bash -c echo\"'\n");
	assert_true(sb_complete(m));
	sb_free(m);
	lim = (struct sb_limits){ .max_nest = 1 };
	const char *nested = "echo $(echo $(echo x))\n";
	m = sb_parse(nested, strlen(nested), &lim);
	assert_int_equal(sb_problem_at(m, 0)->kind, SB_PROB_LIMIT);
	assert_false(sb_complete(m));
	sb_free(m);
	/* NUL bytes and invalid UTF-8 are just bytes here. */
	static const char nul[] = "echo a\0b\n\xff\xfe srun x\n";
	m = sb_parse(nul, sizeof nul - 1, NULL);
	assert_true(sb_cmd_count(m) >= 2);
	sb_free(m);
}

static void hostile_random(void **state)
{
	(void)state;
	static const char *const atoms[] = {
		"'", "\"", "$(", ")", "${", "}", "$((", "))", "`", "\\", "\n", " ", "#", "<<EOF\n",
		"EOF\n", "if ", "then ", "fi ", "for ", "do ", "done ", "case ", "in ", "esac ", ";;",
		"{ ", "(", "|", "&&", "&", ";", "srun ", "torchrun ", "--nnodes=", "-N", "bash -c ",
		"X=", "A=(", "\"${A[@]}\"", "$X", "#SBATCH ", "[[ ", " ]]", "$'", "<(", "f() ",
		"\xe2\x80\x91", ": ${Y:=", "source x\n", "\\ \n", "export ",
	};
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	char buf[2048];
	for (int it = 0; it < 3000; it++) {
		size_t len = 0;
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		int n = (int)(s % 60);
		for (int k = 0; k < n; k++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			const char *a = atoms[s % (sizeof atoms / sizeof atoms[0])];
			size_t l = strlen(a);
			if (len + l > sizeof buf)
				break;
			memcpy(buf + len, a, l);
			len += l;
		}
		sb_model *m = sb_parse(buf, len, NULL);
		for (size_t i = 0; i < sb_cmd_count(m); i++) {
			const sb_cmd *c = sb_cmd_at(m, i);
			struct sb_span sp = sb_cmd_span(c);
			assert_true(sp.off <= sp.end && sp.end <= len);
			for (size_t k = 0; k < sb_cmd_part_count(c); k++)
				(void)sb_flag(sb_cmd_part(c, k), "nnodes");
		}
		for (size_t i = 0; i < sb_assign_count(m); i++) {
			struct sb_resolved r;
			(void)sb_resolve(m, sb_assign_at(m, i)->name, NULL, &r);
		}
		sb_free(m);
	}
}


/* ---- bash's grammar, and what a syntax error costs ---- */

static void grammar_as_bash_reads_it(void **state)
{
	(void)state;
	static const char *const accepted[] = {
		"if [[ -n x ]] then :; fi\n", "{ [[ -n x ]] }\n", "case a in a) [[ -n x ]];; esac\n",
		"for x do :; done\n", "for x in a; { :; }\n", "for ((i = 0; i < 2; i++)) { :; }\n",
		"time { :; }\n", "time a=(1)\n", "cat 0<(ls)\n", "coproc W { :; }\n", "eval a=(x)\n",
		"f() [[ -n x ]]\n", "f() (( x++ ))\n", "x=$(case $1 in a) echo;; esac)\n",
		"x=$(cat <<EOF\nit's )\nEOF\n)\n", "a=($(cat <<'EOF'\n)(\nEOF\n))\n",
		"function f\n{ :; }\n", "! ;\n", "time\n", "case x in (esac) ;; esac\n",
		">f a=(1)\n", "declare -A m=([k]=v [j]=\"w x\")\n", "[[ x =~ ^(a|b)$ ]]\n",
	};
	for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		sb_model *m = parse(accepted[i]);
		if (sb_problem_count(m))
			print_error("%s: %s\n", accepted[i], sb_problem_at(m, 0)->msg);
		assert_int_equal(sb_problem_count(m), 0);
		assert_true(sb_complete(m));
		sb_free(m);
	}
	static const char *const refused[] = {
		"(a) b\n", "if true; then :; fi c\n", "&& a\n", "a && && b\n", "a | ! b\n",
		"{ }\n", "if true; then\nfi\n", "for t i; do :; done\n", "x=$([[ ]])\n",
		"echo $((())\n", "for (()); do :; done\n", "case a in a) ; esac\n", "a=([)\n",
		"> {fd}>\"\"\n", "x=$(time { :; })\n", "echo a=(1)\n", "{ in; }\n", "if true; then\r\n:; fi\r\n",
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		sb_model *m = parse(refused[i]);
		if (!sb_problem_count(m))
			print_error("%s: no problem\n", refused[i]);
		assert_true(sb_problem_count(m) > 0);
		assert_false(sb_complete(m));
		sb_free(m);
	}
}

static void syntax_error_costs_one_statement(void **state)
{
	(void)state;
	sb_model *m = parse("#SBATCH -N 2\n"
			    "export A=1\n"
			    "export WANDB_API_KEY=<paste your key>\n"
			    "srun torchrun --nnodes 2 t.py\n"
			    "if true; then\n"
			    "  echo )\n"
			    "  srun b\n"
			    "fi\n"
			    "export B=2\n");
	assert_int_equal(sb_problem_count(m), 2);
	const struct sb_problem *p = sb_problem_at(m, 0);
	assert_string_equal(p->msg, "looks like a placeholder; bash reads < as a redirection");
	assert_span(p->span, 3, 22, 3, 38);
	assert_int_equal(sb_problem_at(m, 1)->span.line, 6);
	assert_false(sb_complete(m));
	/* the statements around the broken ones are there, in their constructs */
	assert_int_equal(sb_cmd_launcher(cmd_named(m, "srun")), SB_PROG_SRUN);
	const sb_cmd *b = NULL;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_span(sb_cmd_at(m, i)).line == 7)
			b = sb_cmd_at(m, i);
	assert_non_null(b);
	assert_true(sb_cmd_context(b) & SB_CTX_IF);
	struct sb_resolved r;
	assert_int_equal(sb_resolve(m, "B", NULL, &r), SB_RES_VALUE);
	/* the broken statement is a command of no words; what it sets is unknown */
	const sb_cmd *broken = NULL;
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sb_cmd_broken(sb_cmd_at(m, i)))
			broken = broken ? broken : sb_cmd_at(m, i);
	assert_non_null(broken);
	assert_int_equal(sb_cmd_span(broken).line, 3);
	assert_int_equal(sb_cmd_word_count(broken), 0);
	assert_int_equal(sb_resolve(m, "WANDB_API_KEY", NULL, &r), SB_RES_UNKNOWN);
	assert_int_equal(sb_resolve(m, "A", NULL, &r), SB_RES_VALUE);
	sb_free(m);
	/* the lines a backslash joins to the broken one are its words, not
	 * commands whose line before lost its backslash */
	m = parse("srun python t.py \\\n  --a ${X/y.json \\\n  --b ${B} \\\n  --c 2\necho after\n");
	assert_int_equal(sb_problem_count(m), 1);
	assert_string_equal(sb_problem_at(m, 0)->msg, "${ without its closing }");
	for (size_t i = 0; i < sb_fact_count(m); i++)
		assert_int_not_equal(sb_fact_at(m, i)->kind, SB_FACT_LOST_CONTINUATION);
	assert_int_equal(sb_cmd_span(cmd_named(m, "echo")).line, 5);
	assert_null(cmd_named(m, "--b"));
	sb_free(m);
	/* one problem each, and the constructs around go on: an empty body
	 * (its own closer ends it), a quote left open in a body's first
	 * word, an error in a $( ), a blank line after a broken statement,
	 * an operator that starts a body (on the closer's line too) */
	static const char *const empty[] = { "if true; then\nfi\n", "{ }\n", "( )\n", "f() { }\n",
					     "while true; do\ndone\n", "if true; then :; else\nfi\n",
					     "x=$(if true; then\nfi)\n", "{ if true; then\nfi; }\n",
					     "if true; then\n  n='$X\nfi\n", "if true; then\n  n=$(kill '$X)\nfi\n",
					     "if true; then\n  n=$(echo a && )\nfi\n",
					     "if true; then\n  a && && c\n\n  b\nfi\n", "if true; then\n  | a\nfi\n",
					     "if true; then ; fi\n", "{ && a; }\n", "while true; do & done\n",
					     "case x in\n a)\n ;\n ;;\nesac\n", "case x in\n a)\n  n='$X\n ;;\nesac\n" };
	for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
		char text[128];
		snprintf(text, sizeof text, "%secho after\n", empty[i]);
		m = parse(text);
		if (sb_problem_count(m) != 1)
			print_error("%s: %zu problems\n", empty[i], sb_problem_count(m));
		assert_int_equal(sb_problem_count(m), 1);
		assert_non_null(cmd_named(m, "echo"));
		assert_false(sb_complete(m));
		sb_free(m);
	}
}

static void real_causes(void **state)
{
	(void)state;
	static const struct { const char *text; uint32_t line, col; const char *msg; } cases[] = {
		{ "while true; do\n  if x; then\n    y\ndone\n", 2, 3, "if without its fi" },
		{ "if true; then\nfi\n", 1, 1, "then with no command after it" },
		{ "for i in 1; do :; done x\n", 1, 24, NULL },
		{ "a &&\n}\n", 1, 3, NULL },
		{ "x=$(echo a\n", 1, 3, "$( without its closing )" },
		{ "case x in a) echo\n", 1, 1, "case without its esac" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sb_model *m = parse(cases[i].text);
		assert_true(sb_problem_count(m) >= 1);
		const struct sb_problem *p = sb_problem_at(m, 0);
		if (p->span.line != cases[i].line || p->span.col != cases[i].col)
			print_error("%s: %u:%u %s\n", cases[i].text, p->span.line, p->span.col, p->msg);
		assert_int_equal(p->span.line, cases[i].line);
		assert_int_equal(p->span.col, cases[i].col);
		if (cases[i].msg)
			assert_string_equal(p->msg, cases[i].msg);
		sb_free(m);
	}
}

static void heredocs_where_bash_reads_them(void **state)
{
	(void)state;
	/* a $( ) that closes before its newline: the body is the next line,
	 * and the rest of the line goes on after it */
	sb_model *m = parse("x=$(cat <<EOF) rest\nbody )\nEOF\necho after\n");
	assert_int_equal(sb_problem_count(m), 0);
	assert_int_equal(sb_heredoc_count(m), 1);
	assert_int_equal(sb_heredoc_at(m, 0)->span.line, 2);
	assert_true(sb_heredoc_at(m, 0)->terminated);
	assert_non_null(cmd_named(m, "rest"));
	assert_int_equal(sb_cmd_span(cmd_named(m, "echo")).line, 4);
	sb_free(m);
	/* bash only warns about a body that runs to the end */
	m = parse("cat <<EOF\nbody\n");
	assert_int_equal(sb_problem_at(m, 0)->kind, SB_PROB_HEREDOC_UNTERMINATED);
	assert_true(sb_complete(m));
	sb_free(m);
	/* with an unquoted delimiter a backslash-newline joins body lines */
	m = parse("cat <<EOF\na \\\nEOF\nb\nEOF\necho x\n");
	assert_int_equal(sb_problem_count(m), 0);
	assert_int_equal(sb_heredoc_at(m, 0)->span.end_line, 5);
	sb_free(m);
}

static void template_tags_are_words(void **state)
{
	(void)state;
	const char *t = "#SBATCH --nodes={{ nodes }}\n{% if efa %}\nexport FI_PROVIDER=efa\n{% endif %}\n"
			"srun {{ launcher | default('torchrun') }} --nnodes {{ n }} t.py\n";
	struct sb_limits lim = { .flags = SB_PARSE_TEMPLATE };
	sb_model *m = sb_parse(t, strlen(t), &lim);
	assert_int_equal(sb_problem_count(m), 0);
	assert_null(sb_directive_find(m, "nodes")->value);
	assert_true(sb_directive_find(m, "nodes")->placeholder);
	const sb_cmd *c = cmd_named(m, "srun");
	assert_true(sb_word_flags(sb_cmd_word(c, 1)) & SB_W_OPAQUE);
	assert_raw(sb_cmd_word(c, 1), "{{ launcher | default('torchrun') }}");
	sb_free(m);
	/* without the flag, the same text is shell: a | and a ( */
	m = parse(t);
	assert_true(sb_problem_count(m) > 0);
	sb_free(m);
}

static void deep_nesting(void **state)
{
	(void)state;
	static const struct { const char *head, *unit, *inner, *close; } kinds[] = {
		{ "x=", "$(echo ", "$(hostname)", ")" }, { "", "( ", ":", " )" }, { "", "{ ", ":;", " };" },
	};
	for (size_t k = 0; k < 3; k++) {
		char *open = repeat(kinds[k].head, kinds[k].unit, 1600, kinds[k].inner);
		char *t = repeat(open, kinds[k].close, 1600, "\n");
		sb_model *m = parse(t);
		if (sb_problem_count(m))
			print_error("%zu: %s\n", k, sb_problem_at(m, 0)->msg);
		assert_int_equal(sb_problem_count(m), 0);
		sb_free(m);
		free(open);
		free(t);
	}
	/* past the limit: a finding at the limit, never a crash */
	char *t = repeat("x=", "$(", 200000, "");
	sb_model *m = parse(t);
	assert_int_equal(sb_problem_at(m, 0)->kind, SB_PROB_LIMIT);
	sb_free(m);
	free(t);
}

/* ---- the corpus ---- */

static const char *corpus_dir(void)
{
	const char *env = getenv("TF_SBATCH_CORPUS");
	return env ? env : "../shared/corpus/sbatch";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

/* What each corpus script launches with, as EXPECT.md describes it. */
static const struct {
	const char *file;
	enum sb_prog launcher;  /* of the main launch command */
	enum sb_prog inner;     /* a part it must have, or SB_PROG_NONE */
	bool assumed;
} corpus[] = {
	{ "adt_bionemo2.5_train-esm.sbatch", SB_PROG_SRUN, SB_PROG_PYTHON, false },
	{ "adt_composer_stable-diffusion_2.train.sbatch", SB_PROG_SRUN, SB_PROG_LAUNCHER, false },
	{ "adt_ddp_1.venv-train.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_deepspeed_finetune_llama.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_fsdp_2024_1.distributed-training.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_fsdp_llama3_1_8b-training.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_jax_paxml_jax.sbatch", SB_PROG_SRUN, SB_PROG_SCRIPT, false },
	{ "adt_megatron-lm_llama2_pretrain-llama2.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_nccl-tests-ami.sbatch", SB_PROG_MPIRUN, SB_PROG_NONE, false },
	{ "adt_nnm-gpt_run.slurm", SB_PROG_SRUN, SB_PROG_UNKNOWN, false },
	{ "adt_nnm-llama2_03-precompile.sbatch", SB_PROG_SCRIPT, SB_PROG_NONE, false },
	{ "adt_nxd-olmo_run_zero_compile.sbatch", SB_PROG_SRUN, SB_PROG_NEURON_PARALLEL_COMPILE, false },
	{ "adt_optimum-neuron_finetune-llama3-8B.sh", SB_PROG_UNKNOWN, SB_PROG_TORCHRUN, true },
	{ "adt_picotron_train.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_smhp-trn-llama3_run_llama_8B_tp_pp.sh", SB_PROG_TORCHRUN, SB_PROG_NONE, true },
	{ "adt_torch-screen.sbatch", SB_PROG_SRUN, SB_PROG_SHELL_C, false },
	{ "adt_torchtitan_2024_pretrain.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
	{ "adt_transformer-engine_1.train_llama.sbatch", SB_PROG_SRUN, SB_PROG_TORCHRUN, false },
};

/* The launch command: the last one that starts a launcher or script,
 * outside $( ) and bash -c strings. */
static const sb_cmd *launch_command(const sb_model *m)
{
	const sb_cmd *hit = NULL;
	for (size_t i = 0; i < sb_cmd_count(m); i++) {
		const sb_cmd *c = sb_cmd_at(m, i);
		enum sb_prog k = sb_cmd_launcher(c);
		if (sb_cmd_context(c) & (SB_CTX_CMDSUB | SB_CTX_NESTED))
			continue;
		if (k == SB_PROG_SRUN || k == SB_PROG_MPIRUN || k == SB_PROG_TORCHRUN ||
		    k == SB_PROG_SCRIPT || (k == SB_PROG_UNKNOWN && sb_cmd_assumed(c)))
			hit = c;
	}
	return hit;
}

static void corpus_files(void **state)
{
	(void)state;
	DIR *d = opendir(corpus_dir());
	if (!d) {
		printf("skipped: no corpus at %s (set TF_SBATCH_CORPUS)\n", corpus_dir());
		skip();
	}
	closedir(d);
	for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", corpus_dir(), corpus[i].file);
		size_t len;
		char *text = slurp(path, &len);
		if (!text) {
			print_error("missing corpus file %s\n", path);
			fail();
		}
		sb_model *m = sb_parse(text, len, NULL);
		if (sb_problem_count(m)) {
			const struct sb_problem *p = sb_problem_at(m, 0);
			print_error("%s:%u:%u: %s\n", corpus[i].file, p->span.line, p->span.col, p->msg);
			fail();
		}
		assert_true(sb_complete(m));
		assert_true(sb_directive_count(m) > 0 || strstr(corpus[i].file, ".sh"));
		const sb_cmd *c = launch_command(m);
		if (!c || sb_cmd_launcher(c) != corpus[i].launcher) {
			print_error("%s: launcher %s, want %s\n", corpus[i].file,
				    c ? sb_prog_name(sb_cmd_launcher(c)) : "none",
				    sb_prog_name(corpus[i].launcher));
			fail();
		}
		if (corpus[i].inner != SB_PROG_NONE)
			assert_non_null(sb_cmd_find(c, corpus[i].inner));
		assert_int_equal(sb_cmd_assumed(c), corpus[i].assumed);
		sb_free(m);
		free(text);
	}
}

/* What the rules will read in two corpus scripts, checked in detail. */
static void corpus_details(void **state)
{
	(void)state;
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%s/adt_torchtitan_2024_pretrain.sbatch", corpus_dir());
	char *text = slurp(path, &len);
	if (!text) {
		printf("skipped: no corpus at %s\n", corpus_dir());
		skip();
	}
	sb_model *m = sb_parse(text, len, NULL);
	const sb_part *t = sb_cmd_find(launch_command(m), SB_PROG_TORCHRUN);
	/* --nnodes given twice (L75, L76), static and c10d flags mixed. */
	assert_int_equal(sb_flag_occurrences(t, "nnodes"), 2);
	assert_string_equal(sb_word_var(sb_flag(t, "nnodes")), "SLURM_JOB_NUM_NODES");
	assert_int_equal(sb_word_span(sb_flag(t, "nnodes")).line, 76);
	assert_non_null(sb_flag(t, "master_addr"));
	assert_string_equal(sb_word_var(sb_flag(t, "master_port")), "RANDOM");
	assert_string_equal(sb_word_value(sb_flag(t, "rdzv_backend")), "c10d");
	assert_string_equal(sb_directive_find(m, "nodes")->value, "2");
	sb_free(m);
	free(text);

	snprintf(path, sizeof path, "%s/adt_nnm-llama2_03-precompile.sbatch", corpus_dir());
	text = slurp(path, &len);
	assert_non_null(text);
	m = sb_parse(text, len, NULL);
	const sb_cmd *c = launch_command(m);
	assert_int_equal(sb_cmd_span(c).line, 8);
	assert_null(sb_cmd_find(c, SB_PROG_SRUN));
	assert_int_equal(sb_assign_at(m, 0)->kind, SB_ASSIGN_PREFIX);
	assert_string_equal(sb_directive_find(m, "nodes")->value, "2");
	assert_string_equal(sb_directive_find(m, "cpus-per-task")->value, "96");
	sb_free(m);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(directives_before_first_command),
		cmocka_unit_test(directive_forms_and_spans),
		cmocka_unit_test(directive_quoting_comments_and_errors),
		cmocka_unit_test(continuation_joins_lines_with_positions),
		cmocka_unit_test(lost_continuation),
		cmocka_unit_test(backslash_space),
		cmocka_unit_test(heredocs),
		cmocka_unit_test(quotes_and_expansions),
		cmocka_unit_test(compound_contexts),
		cmocka_unit_test(srun_torchrun_chain),
		cmocka_unit_test(python_module_torchrun),
		cmocka_unit_test(bash_c_nested_positions),
		cmocka_unit_test(bash_c_launch_strings),
		cmocka_unit_test(accelerate_and_deepspeed),
		cmocka_unit_test(remote_shells),
		cmocka_unit_test(if_branch_conditions),
		cmocka_unit_test(case_item_patterns),
		cmocka_unit_test(wrappers_scripts_and_unknowns),
		cmocka_unit_test(mpirun_chain),
		cmocka_unit_test(assignments_and_resolution),
		cmocka_unit_test(resolution_is_never_guessed),
		cmocka_unit_test(flag_string_over_lines),
		cmocka_unit_test(opaque_options),
		cmocka_unit_test(hostile_unterminated),
		cmocka_unit_test(hostile_limits),
		cmocka_unit_test(hostile_random),
		cmocka_unit_test(grammar_as_bash_reads_it),
		cmocka_unit_test(syntax_error_costs_one_statement),
		cmocka_unit_test(real_causes),
		cmocka_unit_test(heredocs_where_bash_reads_them),
		cmocka_unit_test(template_tags_are_words),
		cmocka_unit_test(deep_nesting),
		cmocka_unit_test(corpus_files),
		cmocka_unit_test(corpus_details),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
