/* SB2010 and SB2014: the order a job's launchers run in. A blocking
 * line starts the next one only when it ends, so the launchers of one job
 * must run at once (&) and the batch script must then wait for them: it
 * is the job, and Slurm ends the job, every step with it, when the
 * script ends. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"
#include "text.h"
#include "xalloc.h"

/* Whether a command, or one its string runs, starts a job: a launcher,
 * a training script or a script that may hold one. */
static bool starts_job(const sb_cmd *cmd)
{
	for (size_t i = 0; i < sb_cmd_part_count(cmd); i++)
		switch (sb_part_kind(sb_cmd_part(cmd, i))) {
		case SB_PROG_TORCHRUN: case SB_PROG_LAUNCHER: case SB_PROG_MPIRUN:
		case SB_PROG_NEURON_PARALLEL_COMPILE: case SB_PROG_PYTHON: case SB_PROG_SCRIPT:
			return true;
		default:
			break;
		}
	return false;
}

static bool holds(const sb_cmd *outer, const sb_cmd *cmd)
{
	for (const sb_cmd *at = sb_cmd_parent(cmd); at; at = sb_cmd_parent(at))
		if (at == outer)
			return true;
	return false;
}

/* The fixed --node_rank a command's launcher is given, started by srun
 * or a remote shell; -1 when it has none. */
static long long fixed_rank(const sb_cmd *cmd)
{
	if (!sb_cmd_find(cmd, SB_PROG_SRUN) && !sb_cmd_find(cmd, SB_PROG_REMOTE))
		return -1;
	for (size_t i = 0; i < sb_cmd_part_count(cmd); i++) {
		const sb_part *p = sb_cmd_part(cmd, i);
		enum sb_prog k = sb_part_kind(p);
		const sb_word *w = k == SB_PROG_TORCHRUN || k == SB_PROG_LAUNCHER ? sb_flag(p, "node-rank") : NULL;
		if (sbc_fixed_number(w))
			return strtoll(sb_word_value(w), NULL, 10);
	}
	return -1;
}

/* A command's --nnodes as written, which two launch lines must share to
 * be parts of one job; NULL when it gives none. */
static const char *nnodes_text(const sb_cmd *cmd, size_t *len)
{
	const sb_word *w = NULL;
	for (size_t i = 0; i < sb_cmd_part_count(cmd) && !w; i++)
		w = sb_flag(sb_cmd_part(cmd, i), "nnodes");
	return w ? sb_word_raw(w, len) : NULL;
}

/* A top-level launch line with a fixed --node_rank and an --nnodes. */
struct ranked {
	long long rank;
	const char *nnodes;
	size_t len;
};

/* Per --nnodes text, the nearest later ranked line (a) and the nearest
 * later one whose rank differs from a's (b), within one group of steps:
 * an open-addressing table, entries of an older group left stale. */
struct later {
	const char *nnodes;
	size_t len;
	unsigned group;
	size_t a, b; /* command indices; SIZE_MAX: none */
};

static struct later *later_slot(struct later *t, size_t cap, const struct ranked *r, unsigned group)
{
	for (size_t i = (size_t)text_hash(r->nnodes, r->len, 0) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (t[i].group != group || (t[i].len == r->len && !memcmp(t[i].nnodes, r->nnodes, r->len)))
			return &t[i];
}

/* Steps of one job written one a line: srun (or ssh) returns when its
 * launcher ends, so a blocking line with a fixed --node_rank keeps the
 * lines after it, the other ranks, from starting. For each blocking line
 * the first later line of the group (up to a top-level wait) with the
 * same --nnodes and another rank, found in one pass from the end. */
static void ranks_in_sequence(struct sbc *c)
{
	size_t n = sb_cmd_count(c->m), cap = 16;
	while (cap < 2 * n)
		cap *= 2;
	struct ranked *r = xcalloc(n ? n : 1, sizeof *r);
	struct later *t = xcalloc(cap, sizeof *t);
	unsigned group = 1;
	/* the first blocking line is the last one the pass from the end finds */
	size_t first = SIZE_MAX, its_later = SIZE_MAX;
	for (size_t k = n; k-- > 0;) {
		const sb_cmd *cmd = sb_cmd_at(c->m, k);
		const sb_word *w0 = sb_cmd_word(cmd, 0);
		if (!sb_cmd_parent(cmd) && w0 && sb_word_value(w0) && !strcmp(sb_word_value(w0), "wait")) {
			group++; /* the steps before have ended: a new group */
			continue;
		}
		long long rank = sb_cmd_parent(cmd) ? -1 : fixed_rank(cmd);
		size_t len;
		const char *nnodes = rank < 0 ? NULL : nnodes_text(cmd, &len);
		if (!nnodes)
			continue;
		r[k] = (struct ranked){ rank, nnodes, len };
		struct later *e = later_slot(t, cap, &r[k], group);
		bool known = e->group == group;
		size_t a = known ? e->a : SIZE_MAX, b = known ? e->b : SIZE_MAX;
		size_t other = a != SIZE_MAX && r[a].rank != rank ? a : b;
		if (other != SIZE_MAX && !(sb_cmd_context(cmd) & (SB_CTX_BACKGROUND | SB_CTX_LOOP))) {
			first = k;
			its_later = other;
		}
		*e = (struct later){ nnodes, len, group, k, other };
	}
	if (first != SIZE_MAX) {
		const sb_cmd *cmd = sb_cmd_at(c->m, first), *later = sb_cmd_at(c->m, its_later);
		struct diag *g = sbc_report(c, R_SB2010, sb_word_span(sb_part_program(sb_cmd_part(cmd, 0))),
			"this line waits for its --node_rank %lld launcher to end, so the --node_rank %lld one on line %u starts only after it gave up waiting for its peers",
			r[first].rank, r[its_later].rank, sb_cmd_span(later).line);
		diag_set_help(g, "end each of these lines but the last with & and wait after them, or start one task per node with a single srun");
	}
	free(r);
	free(t);
}

/* ssh waits for its remote command, so a loop of them without & starts
 * the nodes one after another. */
static void remote_loop_in_sequence(struct sbc *c, size_t index)
{
	const sb_cmd *cmd = sb_cmd_at(c->m, index);
	const sb_part *r = sb_cmd_find(cmd, SB_PROG_REMOTE);
	unsigned ctx = sb_cmd_context(cmd);
	if (!r || !(ctx & SB_CTX_LOOP) || (ctx & SB_CTX_BACKGROUND) || sb_flag_find(r, "f") ||
	    (sb_cmd_parent(cmd) && (sb_cmd_context(sb_cmd_parent(cmd)) & SB_CTX_BACKGROUND)))
		return;
	bool job = starts_job(cmd);
	for (size_t i = index + 1; !job && i < sb_cmd_count(c->m) && holds(cmd, sb_cmd_at(c->m, i)); i++)
		job = starts_job(sb_cmd_at(c->m, i));
	if (!job)
		return;
	struct diag *g = sbc_report(c, R_SB2010, sb_word_span(sb_part_program(r)),
		"%s waits for the launcher it starts to end, so this loop starts one node at a time: the first waits for peers the loop has not started",
		sb_part_name(r));
	diag_set_help(g, "end the %s line with & and wait after the loop, or start one task per node with srun",
		      sb_part_name(r));
}

/* SB2010 launch-in-sequence: the launchers of one job started one after
 * another, each waiting for the one before to end. */
static void launch_in_sequence(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		remote_loop_in_sequence(c, i);
	ranks_in_sequence(c);
}

/* bash's wait, or Slurm's swait (26.05), which waits for the job's
 * steps, --async ones included. */
static bool is_wait(const sb_cmd *cmd)
{
	const sb_word *w0 = sb_cmd_word(cmd, 0);
	const char *v = w0 ? sb_word_value(w0) : NULL;
	return v && (!strcmp(v, "wait") || !strcmp(v, "swait"));
}

/* Started and left: with & or as srun --async (26.05), which returns
 * once the step is queued. */
static bool left_running(const sb_cmd *cmd)
{
	const sb_part *srun = sb_cmd_find(cmd, SB_PROG_SRUN);
	return (sb_cmd_context(cmd) & SB_CTX_BACKGROUND) || (srun && sb_flag_find(srun, "async"));
}

static bool word_is(const sb_cmd *cmd, size_t i, const char *what)
{
	const sb_word *w = i < sb_cmd_word_count(cmd) ? sb_cmd_word(cmd, i) : NULL;
	const char *v = w ? sb_word_value(w) : NULL;
	return v && !strcmp(v, what);
}

static bool has_word(const sb_cmd *cmd, const char *what)
{
	for (size_t i = 1; i < sb_cmd_word_count(cmd); i++)
		if (word_is(cmd, i, what))
			return true;
	return false;
}

/* tail's follow option in any spelling: -f, -F, -n 5 -f, -fn5, --follow. */
static bool tail_follows(const sb_cmd *cmd)
{
	for (size_t i = 1; i < sb_cmd_word_count(cmd); i++) {
		const char *v = sb_word_value(sb_cmd_word(cmd, i));
		if (!v || v[0] != '-')
			continue;
		if (!strncmp(v, "--follow", 8))
			return true;
		if (v[1] != '-' && strpbrk(v + 1, "fF"))
			return true;
	}
	return false;
}

/* A command in the foreground that does not end while the job's steps
 * run: a while or until loop (its condition runs each turn), tail -f,
 * sleep infinity, a Ray client that waits for the job it submits (ray
 * job submit without --no-wait; ray start --block). */
static bool keeps_alive(const sb_cmd *cmd)
{
	unsigned ctx = sb_cmd_context(cmd);
	if (ctx & (SB_CTX_BACKGROUND | SB_CTX_FUNCTION | SB_CTX_CMDSUB | SB_CTX_NESTED))
		return false;
	if ((ctx & SB_CTX_LOOP) && (ctx & SB_CTX_CONDITION) && !(ctx & SB_CTX_IF))
		return true;
	if (word_is(cmd, 0, "tail"))
		return tail_follows(cmd);
	if (word_is(cmd, 0, "sleep"))
		return word_is(cmd, 1, "infinity") || word_is(cmd, 1, "inf");
	if (word_is(cmd, 0, "ray") && word_is(cmd, 1, "job") && word_is(cmd, 2, "submit"))
		return !has_word(cmd, "--no-wait");
	if (word_is(cmd, 0, "ray") && word_is(cmd, 1, "start"))
		return has_word(cmd, "--block");
	return false;
}

/* The last command that keeps the batch script running to it: a wait,
 * a command in the foreground that starts nodes or a job, which the
 * script waits for (and which may itself be the job's main step), or
 * one that does not end while the steps run (keeps_alive). A launch
 * left running before it is waited for; SIZE_MAX when none. */
static size_t last_holder(const sb_model *m)
{
	for (size_t k = sb_cmd_count(m); k-- > 0;) {
		const sb_cmd *cmd = sb_cmd_at(m, k);
		if (is_wait(cmd) || keeps_alive(cmd) ||
		    (!left_running(cmd) && !(sb_cmd_context(cmd) & (SB_CTX_FUNCTION | SB_CTX_CMDSUB)) &&
		     (sbc_starts_nodes(cmd) || starts_job(cmd))))
			return k;
	}
	return SIZE_MAX;
}

/* SB2014 launch-not-waited: a launcher started in the background (or as
 * an --async step) with nothing after it that waits: the script runs on to its end at once,
 * and the job ends there. A function's body runs where it is called,
 * which is not followed here; a loop's `wait` after the loop counts, as
 * does one inside the loop after the &. */
static void launch_not_waited(struct sbc *c)
{
	size_t held = last_holder(c->m);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		unsigned ctx = sb_cmd_context(cmd);
		if ((held != SIZE_MAX && i < held) || !left_running(cmd) ||
		    (ctx & (SB_CTX_FUNCTION | SB_CTX_CMDSUB | SB_CTX_NESTED)) ||
		    !(sbc_starts_nodes(cmd) || starts_job(cmd)))
			continue;
		const sb_part *p = sb_cmd_part(cmd, 0);
		struct diag *g = sbc_report(c, R_SB2014, sb_word_span(sb_part_program(p)),
			"%s %s and nothing after it waits: the script ends at once, and Slurm ends the job with it, stopping this step",
			sb_part_name(p), (ctx & SB_CTX_BACKGROUND) ? "runs in the background"
								   : "--async returns once the step is queued");
		diag_set_help(g, (ctx & SB_CTX_BACKGROUND) ? "add `wait` after the launchers the script starts with &"
							   : "add `swait` after the steps the script starts with srun --async");
		return;
	}
}

void sbc_check_order(struct sbc *c)
{
	launch_in_sequence(c);
	launch_not_waited(c);
}
