/* SB2601: sizes computed from a variable that nothing the script shows
 * sets. Under the open world of docs/design.md ("An open world"), such a
 * name is an input: the submitting shell may export it (sbatch passes
 * its environment on by default). So this is a warning that names the
 * assumption, in the places where an empty value breaks the layout:
 * arithmetic whose result the launchers read ($((NNODES * 8)) is 0), a
 * [ ] or [[ ]] test that picks the layout (if [ $NODES -le 4 ]: with
 * NODES empty, [ fails with "unary operator expected" and the other
 * branch always runs, whatever the node count), and a parallel-size
 * flag of the program (--tp-size $TP: the flag takes the next word as
 * its value). Who can set a name is the open world's one answer
 * (sbc_var_origin): a file the script sources or one beside it that
 * sets the name silences the finding, and the message states the same
 * assumption as every other finding about a variable. A launcher's
 * count and a framework flag the tables know are SB2012's (launch.c).
 * A script started on each node by another
 * gets its environment from its starter, and is not judged here. */
#include <ctype.h>
#include <string.h>

#include "sb.h"

/* ${NAME:-8}, ${NAME:?}, ${NAME=8}: the word reads NAME with care. */
static bool guarded(const sb_word *w, const char *name)
{
	size_t len, n = strlen(name);
	const char *raw = sb_word_raw(w, &len);
	for (size_t i = 0; raw && i + 2 + n < len; i++)
		if (raw[i] == '$' && raw[i + 1] == '{' && !strncmp(raw + i + 2, name, n) &&
		    strchr(":-=?+", raw[i + 2 + n]))
			return true;
	return false;
}

/* Who can set name when `at` runs (the open world's one answer,
 * world.c): an input nothing visible sets is ORIGIN_SUBMITTER or after.
 * $1, $# and $? are the shell's; a near miss of a Slurm name is SB2012's
 * wherever it stands. */
static enum sbc_origin origin_of(struct sbc *c, const char *name, const sb_cmd *at)
{
	const char *file;
	if ((!isalpha((unsigned char)name[0]) && name[0] != '_') || sbc_slurm_misspelt(name))
		return ORIGIN_ENVIRONMENT;
	return sbc_var_origin(c, name, at, &file);
}

/* The first name a word reads that nothing visible sets, or NULL;
 * *o: who can then set it. */
static const char *unset_ref(struct sbc *c, const sb_word *w, const sb_cmd *at, enum sbc_origin *o)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++) {
		const char *name = sb_word_ref(w, r);
		if (guarded(w, name))
			continue;
		*o = origin_of(c, name, at);
		if (*o >= ORIGIN_SUBMITTER)
			return name;
	}
	return NULL;
}

static bool starts_work(const sb_cmd *cmd)
{
	return sb_cmd_find(cmd, SB_PROG_SRUN) || sb_cmd_find(cmd, SB_PROG_TORCHRUN) ||
	       sb_cmd_find(cmd, SB_PROG_MPIRUN) || sb_cmd_find(cmd, SB_PROG_LAUNCHER) ||
	       sb_cmd_find(cmd, SB_PROG_PYTHON);
}

static bool arithmetic(const sb_word *w)
{
	size_t len;
	const char *raw = sb_word_raw(w, &len);
	for (size_t i = 0; raw && i + 2 < len; i++)
		if (raw[i] == '$' && raw[i + 1] == '(' && raw[i + 2] == '(')
			return true;
	return false;
}

/* NNODES=4 ... $((NNODES*8)): arithmetic that feeds a launcher. */
/* SB2601 size-from-unset-variable */
static void unset_in_arithmetic(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!a->value || !arithmetic(a->value) || (sb_cmd_context(a->cmd) & SB_CTX_NESTED))
			continue;
		enum sbc_origin o;
		const char *name = unset_ref(c, a->value, a->cmd, &o);
		if (!name || !sbc_launchers_read(c, a->name))
			continue;
		struct diag *g = sbc_report(c, R_SB2601, sb_word_span(a->value),
			"$%s is set nowhere the linter can see (not in the script, a file it sources or a file beside it): its value is %s, and if empty %s is computed as if it were 0, a size the launcher then reads",
			name, sbc_origin_assumption(o), a->name);
		diag_set_help(g, "set %s in the script, or read it as ${%s:?set %s before sbatch} so that an empty value stops the job at once",
			      name, name, name);
	}
}

static bool is_test(const sb_cmd *cmd)
{
	const char *w0 = sb_cmd_word_count(cmd) ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
	return w0 && (!strcmp(w0, "[") || !strcmp(w0, "[[") || !strcmp(w0, "test"));
}

/* if [ $NODES -le 4 ]; then TP=...: a test that decides an assignment
 * the launchers read. */
/* SB2601 size-from-unset-variable, in a test */
static void unset_in_test(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		const sb_cmd *conds[8];
		bool taken[8];
		if (!sbc_launchers_read(c, a->name))
			continue;
		size_t n = sb_assign_conditions(c->m, a, NULL, conds, taken, 8);
		if (n == 0 || n == SIZE_MAX)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (!is_test(conds[k]))
				continue;
			for (size_t w = 1; w < sb_cmd_word_count(conds[k]); w++) {
				const sb_word *word = sb_cmd_word(conds[k], w);
				enum sbc_origin o;
				const char *name = unset_ref(c, word, conds[k], &o);
				if (!name)
					continue;
				struct diag *g = sbc_report(c, R_SB2601, sb_word_span(word),
					"$%s is set nowhere the linter can see (not in the script, a file it sources or a file beside it): its value is %s, and if empty this test cannot compare it (%s), so the branch it picks (%s=... on line %u among them) does not follow the node count",
					name, sbc_origin_assumption(o),
					sb_word_flags(word) & SB_W_QUOTED ? "an empty string is no number" : "[ sees no operand: unary operator expected",
					a->name, a->span.line);
				diag_set_help(g, "compare a count Slurm sets ($SLURM_JOB_NUM_NODES), or set %s first", name);
				break;
			}
		}
	}
}

/* --tp-size $TP: a parallel-size flag of the program left empty. */
static void unset_in_size_flag(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		if (!starts_work(cmd) || (sb_cmd_context(cmd) & SB_CTX_NESTED))
			continue;
		size_t n = sb_cmd_word_count(cmd);
		for (size_t w = 0; w + 1 < n; w++) {
			size_t len;
			const char *raw = sb_word_raw(sb_cmd_word(cmd, w), &len);
			if (!raw || memchr(raw, '=', len) || !sbc_size_flag(raw, len))
				continue;
			const sb_word *v = sb_cmd_word(cmd, w + 1);
			const char *var = sb_word_var(v);
			enum sbc_origin o = var && !guarded(v, var) ? origin_of(c, var, cmd) : ORIGIN_SCRIPT;
			if (o < ORIGIN_SUBMITTER)
				continue;
			struct diag *g = sbc_report(c, R_SB2601, sb_word_span(v),
				"$%s is set nowhere the linter can see (not in the script, a file it sources or a file beside it): its value is %s, and if empty %.*s takes the next word as its size, or none",
				var, sbc_origin_assumption(o), (int)len, raw);
			diag_set_help(g, "set %s in the script, or write ${%s:?} so that an empty value stops the job at once", var, var);
		}
	}
}

void sbc_check_sizes(struct sbc *c)
{
	if (c->per_node)
		return;
	unset_in_arithmetic(c);
	unset_in_test(c);
	unset_in_size_flag(c);
}
