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
 * its value). A launcher's count and a framework flag the tables know
 * are SB2012's (launch.c). A script started on each node by another
 * gets its environment from its starter, and is not judged here. */
#include <ctype.h>
#include <string.h>

#include "sb.h"

/* Names every job's environment has without the script. */
static bool environment_name(const char *n)
{
	static const char *const prefixes[] = { "SLURM_", "SBATCH_", "SRUN_", "PMI_", "PMIX_", "OMPI_" };
	static const char *const names[] = {
		"HOME", "USER", "LOGNAME", "PATH", "PWD", "OLDPWD", "HOSTNAME", "SHELL", "TMPDIR",
		"RANDOM", "SECONDS", "LINENO", "UID", "EUID", "PPID", "BASHPID", "RANK", "LOCAL_RANK",
		"WORLD_SIZE", "LOCAL_WORLD_SIZE", "NODE_RANK", "CUDA_VISIBLE_DEVICES",
	};
	if (!isalpha((unsigned char)n[0]) && n[0] != '_')
		return true; /* $1, $#, $? */
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

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

/* A name nothing visible sets when `at` runs: not the script (anywhere,
 * nor a file it sources before), not Slurm, not the login. */
static bool unset_input(struct sbc *c, const char *name, const sb_cmd *at)
{
	struct sb_resolved r;
	return !environment_name(name) && !sbc_assigned(c, name) &&
	       sb_resolve(c->m, name, at, &r) == SB_RES_ENV && !r.after_source && r.var &&
	       !strcmp(r.var, name);
}

/* The first name a word reads that nothing sets, or NULL. */
static const char *unset_ref(struct sbc *c, const sb_word *w, const sb_cmd *at)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++) {
		const char *name = sb_word_ref(w, r);
		if (unset_input(c, name, at) && !guarded(w, name))
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

static const char *assumption = "unless the submitting shell exports it (sbatch passes its environment on), it is empty";

/* NNODES=4 ... $((NNODES*8)): arithmetic that feeds a launcher. */
/* SB2601 size-from-unset-variable */
static void unset_in_arithmetic(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!a->value || !arithmetic(a->value) || (sb_cmd_context(a->cmd) & SB_CTX_NESTED))
			continue;
		const char *name = unset_ref(c, a->value, a->cmd);
		if (!name || !sbc_launchers_read(c, a->name))
			continue;
		struct diag *g = sbc_report(c, R_SB2601, sb_word_span(a->value),
			"$%s is set by nothing the script shows: %s, and %s is computed as if it were 0, a size the launcher then reads",
			name, assumption, a->name);
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
				const char *name = unset_ref(c, word, conds[k]);
				if (!name)
					continue;
				struct diag *g = sbc_report(c, R_SB2601, sb_word_span(word),
					"$%s is set by nothing the script shows: %s, and then this test cannot compare it (%s), so the branch it picks (%s=... on line %u among them) does not follow the node count",
					name, assumption,
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
			if (!var || !unset_input(c, var, cmd) || guarded(v, var))
				continue;
			struct diag *g = sbc_report(c, R_SB2601, sb_word_span(v),
				"$%s is set by nothing the script shows: %s, and %.*s then takes the next word as its size, or none",
				var, assumption, (int)len, raw);
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
