/* SB2208, SB2209, SB2211: an elastic torchrun (--nnodes=MIN:MAX) in a
 * Slurm job. The elasticity is torchrun restarting the workers of the
 * nodes that are left, at a smaller world, after one is lost (a spot
 * node reclaimed, a node failed). Under Slurm that takes three settings
 * that are off by default (measured on Slurm 22.05.8 by setting a node
 * DOWN under a running step):
 *
 *  - the job's --no-kill: without it Slurm cancels (and requeues) the
 *    whole job when one of its nodes fails. A heterogeneous job is
 *    cancelled when a node of any component fails, so every component
 *    needs it; sbatch carries it from one component into the next.
 *  - srun's --no-kill: without it srun aborts the whole step and kills
 *    torchrun on the surviving nodes too, although the job lives on.
 *  - torchrun's --max-restarts above its default of 0: a lost node fails
 *    the survivors' worker group, and each restart uses one up (nodes
 *    that join do not).
 *
 * SB2210 holds the training script's layout to the world at both ends of
 * the range, and SB2211 the range to the nodes srun starts torchrun on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "sb.h"
#include "values.h"
#include "xalloc.h"

struct elastic {
	const sb_cmd *cmd;
	const sb_part *torch;
	const sb_part *srun;    /* NULL when no srun starts this torchrun */
	const sb_word *nnodes;
	long long min, max;
};

static const sb_part *srun_around(const sb_cmd *cmd)
{
	for (const sb_cmd *at = cmd; at; at = sb_cmd_parent(at)) {
		const sb_part *srun = sb_cmd_find(at, SB_PROG_SRUN);
		if (srun)
			return srun;
	}
	return NULL;
}

static bool read_elastic(const struct sbc *c, const sb_cmd *cmd, struct elastic *e)
{
	e->torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
	if (!e->torch || sb_cmd_assumed(cmd) ||
	    !sbc_nnodes(c, e->torch, cmd, &e->min, &e->max) || e->min == e->max)
		return false;
	e->cmd = cmd;
	e->nnodes = sb_flag(e->torch, "nnodes");
	e->srun = srun_around(cmd);
	return true;
}

/* "off" is the one value --no-kill takes, and it means the opposite. */
static bool says_off(const char *value)
{
	return value && !strcasecmp(value, "off");
}

/* The first component in which the job does not run with --no-kill
 * (its own, or carried from the component before), or -1 when every one
 * does; *later: whether a component after it sets it. */
static int component_without_no_kill(const struct sbc *c, const struct sb_directive **off,
				     bool *later)
{
	const struct sb_directive *in_effect = NULL;
	int first = -1;
	*later = false;
	for (unsigned k = 0; k < c->ncomp; k++) {
		const struct sb_directive *d = sb_directive_in(c->alloc, k, "no-kill");
		if (d)
			in_effect = d;
		if (first >= 0) {
			*later = *later || d;
		} else if (!in_effect || says_off(in_effect->value)) {
			first = (int)k;
			*off = in_effect;
		}
	}
	return first;
}

/* The job's --no-kill: one finding per job, at its first elastic step. */
static void job_no_kill(struct sbc *c, const struct elastic *e)
{
	const struct sb_directive *off = NULL;
	bool later;
	int k = component_without_no_kill(c, &off, &later);
	if (k < 0)
		return;
	char who[96] = "the job has no --no-kill";
	if (off && c->ncomp > 1)
		snprintf(who, sizeof who, "hetjob component %d turns --no-kill off", k);
	else if (off)
		snprintf(who, sizeof who, "the job turns --no-kill off");
	else if (later)
		snprintf(who, sizeof who,
			 "hetjob component %d has no --no-kill (sbatch carries it only into later components)", k);
	struct diag *g = sbc_report(c, R_SB2208, sb_word_span(e->nnodes),
		"torchrun --nnodes=%lld:%lld can go on without a lost node, but %s: Slurm cancels the whole job when one of its nodes fails, so the survivors never re-form the group",
		e->min, e->max, who);
	diag_set_help(g, "add '#SBATCH --no-kill' to the first component (sbatch carries it into the later ones)");
}

static void step_no_kill(struct sbc *c, const struct elastic *e)
{
	if (!e->srun || c->per_node)
		return;
	const struct sb_flag *f = sb_flag_find(e->srun, "no-kill");
	if (f ? !says_off(f->value ? sb_word_value(f->value) : NULL)
	      : sbc_env_value(c, "SLURM_NO_KILL", NULL) != NULL)
		return;
	struct diag *g = sbc_report(c, R_SB2208, sb_word_span(sb_part_program(e->srun)),
		"srun without --no-kill aborts the whole step when one of its nodes fails: torchrun is killed on every node, so --nnodes=%lld:%lld never goes on with fewer",
		e->min, e->max);
	diag_set_help(g, "add --no-kill to srun; the job's own --no-kill keeps the allocation, not the step");
}

/* The job's --no-kill and each step's. */
/* SB2208 elastic-without-no-kill */
static void elastic_without_no_kill(struct sbc *c, const struct elastic *all, size_t n)
{
	if (n)
		job_no_kill(c, &all[0]);
	for (size_t i = 0; i < n; i++)
		step_no_kill(c, &all[i]);
}

/* SB2209 elastic-without-restarts */
static void elastic_without_restarts(struct sbc *c, const struct elastic *e)
{
	const struct sb_flag *f = sb_flag_find(e->torch, "max-restarts");
	long long n = -1;
	if (f && !sbc_word_int(c, f->value, e->cmd, &n))
		return; /* set, to something only the run knows */
	if (n > 0)
		return;
	char how[64] = "without --max-restarts (its default is 0)";
	if (f)
		snprintf(how, sizeof how, "with %s=%lld", f->written, n);
	struct diag *g = sbc_report(c, R_SB2209, f ? sb_word_span(f->value) : sb_word_span(e->nnodes),
		"torchrun --nnodes=%lld:%lld %s: a lost node fails the survivors' workers, and with no restart left torchrun exits instead of going on with fewer nodes",
		e->min, e->max, how);
	diag_set_help(g, "allow at least one restart per node the job may lose (%lld here), plus some for worker failures",
		      e->max - e->min);
}

/* srun --het-group=0,1 (or 0-1; --pack-group before Slurm 20.02): the
 * components a step runs in. Without one, srun in a heterogeneous job's
 * batch step runs in component 0 only. False when it cannot be read. */
static bool step_components(const struct sbc *c, const struct elastic *e, bool *in)
{
	const sb_word *w = sb_flag(e->srun, "het-group");
	if (!w)
		w = sb_flag(e->srun, "pack-group");
	if (!w) {
		in[0] = true;
		return true;
	}
	const char *p = sb_word_value(w);
	if (!p)
		return false;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return false;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return false;
		}
		if (a < 0 || b < a || b >= (long)c->ncomp)
			return false;
		for (long k = a; k <= b; k++)
			in[k] = true;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return false;
	}
	return true;
}

/* The nodes srun starts torchrun on: its own --nodes, else the nodes of
 * the components the step runs in; false when they are not one number. */
static bool step_nodes(const struct sbc *c, const struct elastic *e, long long *out, char *how,
		       size_t cap)
{
	uint64_t lo, hi;
	const sb_word *n = sb_flag(e->srun, "nodes");
	if (n) {
		const char *v = sb_word_value(n);
		if (!v || !sbv_node_range(v, &lo, &hi) || lo != hi)
			return false;
		*out = (long long)lo;
		snprintf(how, cap, " (srun --nodes)");
		return true;
	}
	bool *in = xcalloc(c->ncomp, sizeof *in);
	bool known = step_components(c, e, in);
	long long sum = 0;
	for (unsigned k = 0; k < c->ncomp && known; k++) {
		const struct sbc_component *comp = &c->comp[k];
		if (in[k] && (!comp->min_nodes || comp->min_nodes != comp->max_nodes))
			known = false;
		else if (in[k])
			sum += comp->min_nodes;
	}
	free(in);
	if (!known)
		return false;
	*out = sum;
	how[0] = '\0';
	if (c->ncomp > 1 && !sb_flag(e->srun, "het-group") && !sb_flag(e->srun, "pack-group"))
		snprintf(how, cap, " (without --het-group, srun runs in hetjob component 0 only)");
	return true;
}

/* The rendezvous a torchrun joins: its --rdzv_endpoint and --rdzv_id as
 * written. Steps that write the same ones (one per hetjob component, say)
 * form one group, so their nodes add up. */
static bool same_rendezvous(const struct elastic *a, const struct elastic *b)
{
	static const char *const keys[] = { "rdzv_endpoint", "rdzv_id" };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const sb_word *x = sb_flag(a->torch, keys[k]), *y = sb_flag(b->torch, keys[k]);
		size_t xn, yn;
		const char *xs = x ? sb_word_raw(x, &xn) : NULL, *ys = y ? sb_word_raw(y, &yn) : NULL;
		if (!xs || !ys || xn != yn || memcmp(xs, ys, xn))
			return false;
	}
	return true;
}

/* The nodes of every step in e's rendezvous; false when one is unknown. */
static bool group_nodes(const struct sbc *c, const struct elastic *all, size_t n, size_t i,
			long long *out, char *how, size_t cap)
{
	long long sum = 0;
	size_t steps = 0;
	for (size_t j = 0; j < n; j++) {
		long long nodes;
		if (j != i && (!all[j].srun || !same_rendezvous(&all[i], &all[j])))
			continue;
		if (!step_nodes(c, &all[j], &nodes, how, cap))
			return false;
		sum += nodes;
		steps++;
	}
	if (steps > 1)
		snprintf(how, cap, " (the %zu srun steps of this rendezvous together)", steps);
	*out = sum;
	return true;
}

/* SB2211 elastic-range-not-allocation */
static void elastic_range_not_allocation(struct sbc *c, const struct elastic *all, size_t n,
					 size_t i)
{
	const struct elastic *e = &all[i];
	long long nodes;
	char how[96];
	if (!e->srun || c->per_node || !group_nodes(c, all, n, i, &nodes, how, sizeof how) ||
	    e->max == nodes)
		return;
	struct diag *g;
	if (e->min > nodes)
		g = sbc_report(c, R_SB2211, sb_word_span(e->nnodes),
			"--nnodes=%lld:%lld needs at least %lld nodes, but srun starts torchrun on %lld%s: the group never forms",
			e->min, e->max, e->min, nodes, how);
	else if (e->max > nodes)
		g = sbc_report(c, R_SB2211, sb_word_span(e->nnodes),
			"--nnodes=%lld:%lld waits for up to %lld nodes, but srun starts torchrun on %lld%s: the job never reaches its full size",
			e->min, e->max, e->max, nodes, how);
	else
		g = sbc_report(c, R_SB2211, sb_word_span(e->nnodes),
			"--nnodes=%lld:%lld admits at most %lld nodes, but srun starts torchrun on %lld%s: the other %lld cannot join the group",
			e->min, e->max, e->max, nodes, how, nodes - e->max);
	diag_set_help(g, "make MAX the nodes of the allocation (the sum of the hetjob components' --nodes) and MIN the nodes the job can run on alone");
}

/* Why a world breaks the layout, for SB2210's message. */
static void say_fault(struct buf *b, const struct sbc_layout *s, long long nodes,
		      const struct layout_finding *f, const char *end)
{
	struct layout l = sbc_layout_at(s, nodes);
	buf_printf(b, "at the %s world size (%lld nodes x %lld = %lld processes), ", end, nodes,
		   s->ppn, l.world);
	switch (f->fault) {
	case LAYOUT_WORLD:
		buf_printf(b, "TP %lld x PP %lld x CP %lld = %lld does not divide it", l.tp, l.pp, l.cp,
			   f->divisor);
		break;
	case LAYOUT_DP:
		buf_printf(b, "world / (TP x PP x CP) is %lld, not the data-parallel degree %lld",
			   f->divisor, f->value);
		break;
	case LAYOUT_BATCH:
		buf_printf(b, "the global batch %lld is not a multiple of micro batch %lld x DP %lld",
			   f->value, l.micro, layout_dp(&l));
		break;
	default:
		break;
	}
}

/* torchrun restarts the workers at any size from MIN to MAX nodes, and
 * the layout must hold at both ends. One finding at --nnodes, naming
 * the first end that breaks. */
/* SB2210 elastic-world-not-divisible */
static void elastic_world_not_divisible(struct sbc *c, const sb_cmd *cmd)
{
	struct sbc_layout s;
	if (!sbc_read_layout(c, cmd, &s) || !s.nodes || !s.ppn || s.nodes >= s.nodes_max)
		return;
	struct layout_finding small, large;
	bool small_breaks = sbc_world_fault(&s, s.nodes, &small) != LAYOUT_OK;
	bool large_breaks = sbc_world_fault(&s, s.nodes_max, &large) != LAYOUT_OK;
	if (!small_breaks && !large_breaks)
		return;
	struct buf msg = BUF_INIT;
	if (small_breaks) {
		say_fault(&msg, &s, s.nodes, &small, "smallest");
		if (large_breaks)
			buf_printf(&msg, "; the largest (%lld processes) breaks it too",
				   layout_world_of(s.nodes_max, s.ppn));
	} else {
		say_fault(&msg, &s, s.nodes_max, &large, "largest");
	}
	struct diag *g = sbc_report(c, R_SB2210, sb_word_span(sb_flag(s.torch, "nnodes")), "%s",
				    msg.p);
	diag_set_help(g, "torchrun may run at any size from %lld to %lld nodes: choose a layout that holds at both, or narrow the range",
		      s.nodes, s.nodes_max);
	buf_free(&msg);
}

void sbc_check_elastic(struct sbc *c)
{
	size_t n = 0, cmds = sb_cmd_count(c->m);
	struct elastic *all = xcalloc(cmds ? cmds : 1, sizeof *all);
	for (size_t i = 0; i < cmds; i++)
		if (read_elastic(c, sb_cmd_at(c->m, i), &all[n]))
			n++;
	elastic_without_no_kill(c, all, n);
	for (size_t i = 0; i < n; i++) {
		elastic_world_not_divisible(c, all[i].cmd);
		elastic_without_restarts(c, &all[i]);
		elastic_range_not_allocation(c, all, n, i);
	}
	free(all);
}
