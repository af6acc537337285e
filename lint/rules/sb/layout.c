/* SB22xx: the parallel layout the training script is given, against the
 * world that srun and torchrun create (research (e) invariants). Only
 * literal or resolvable numbers count; anything else stays silent.
 *
 * The node count is torchrun's --nnodes (through $SLURM_JOB_NUM_NODES
 * when the script passes that). An elastic --nnodes=MIN:MAX makes two
 * worlds that must both hold the layout: MIN x procs when the job has
 * lost every node it can spare, MAX x procs when all are there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sb.h"

/* The flags each framework spells its layout with (research (d)). */
struct spelling {
	const char *tp, *pp, *cp, *ep, *dp, *micro, *global, *layers, *experts, *heads, *groups;
};

static const struct spelling spellings[] = {
	{ "tensor-model-parallel-size", "pipeline-model-parallel-size", "context-parallel-size",
	  "expert-model-parallel-size", NULL, "micro-batch-size", "global-batch-size", "num-layers",
	  "num-experts", "num-attention-heads", "num-query-groups" },
	{ "tensor-parallel-size", "pipeline-parallel-size", "context-parallel-size",
	  "expert-parallel-size", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "parallelism.tensor-parallel-degree", "parallelism.pipeline-parallel-degree",
	  "parallelism.context-parallel-degree", "parallelism.expert-parallel-degree",
	  "parallelism.data-parallel-shard-degree", NULL, NULL, NULL, NULL, NULL, NULL },
};

struct layout {
	const sb_cmd *cmd;
	const sb_part *torch, *entry;
	long long nodes, nodes_max; /* --nnodes, or MIN and MAX of MIN:MAX */
	long long ppn, tp, pp, cp, ep, dp, micro, global, layers, experts, heads, groups;
	const struct spelling *sp;
};

static long long flag_int(const struct sbc *c, const struct layout *l, const char *name)
{
	if (!name)
		return 0;
	const sb_word *w = sb_flag(l->entry, name);
	if (!w)
		w = sb_flag_next(l->entry, name);
	long long v = 0;
	return sbc_word_int(c, w, l->cmd, &v) ? v : 0;
}

static const sb_word *flag_word(const struct layout *l, const char *name)
{
	const sb_word *w = sb_flag(l->entry, name);
	return w ? w : sb_flag_next(l->entry, name);
}

static bool read_layout(const struct sbc *c, const sb_cmd *cmd, struct layout *l)
{
	const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
	const sb_part *entry = sb_cmd_find(cmd, SB_PROG_PYTHON);
	if (!torch || !entry || sb_cmd_assumed(cmd))
		return false;
	memset(l, 0, sizeof *l);
	l->cmd = cmd;
	l->torch = torch;
	l->entry = entry;
	long long v;
	sbc_nnodes(c, torch, cmd, &l->nodes, &l->nodes_max);
	if (sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &v))
		l->ppn = v;
	for (size_t i = 0; i < sizeof spellings / sizeof spellings[0] && !l->sp; i++)
		if (sb_flag_find(entry, spellings[i].tp) || sb_flag_find(entry, spellings[i].pp))
			l->sp = &spellings[i];
	if (!l->sp)
		return false;
	l->tp = flag_int(c, l, l->sp->tp);
	l->pp = flag_int(c, l, l->sp->pp);
	l->cp = flag_int(c, l, l->sp->cp);
	l->ep = flag_int(c, l, l->sp->ep);
	l->dp = flag_int(c, l, l->sp->dp);
	l->micro = flag_int(c, l, l->sp->micro);
	l->global = flag_int(c, l, l->sp->global);
	l->layers = flag_int(c, l, l->sp->layers);
	l->experts = flag_int(c, l, l->sp->experts);
	l->heads = flag_int(c, l, l->sp->heads);
	l->groups = flag_int(c, l, l->sp->groups);
	return true;
}

static struct sb_span at_flag(const struct layout *l, const char *name)
{
	const sb_word *w = name ? flag_word(l, name) : NULL;
	return sb_word_span(w ? w : sb_part_program(l->entry));
}

/* What a world of nodes x processes per node makes of the layout. */
enum world_fault { WORLD_FITS, WORLD_GRID, WORLD_DP, WORLD_BATCH };
struct world {
	long long nodes, procs, tp, pp, cp, grid, dp; /* dp: 0 when the grid does not divide */
	enum world_fault fault;
};

static struct world world_at(const struct layout *l, long long nodes)
{
	struct world w = { .nodes = nodes, .procs = nodes * l->ppn };
	w.tp = l->tp ? l->tp : 1;
	w.pp = l->pp ? l->pp : 1;
	w.cp = l->cp ? l->cp : 1;
	w.grid = w.tp * w.pp * w.cp;
	if (w.procs % w.grid) {
		w.fault = WORLD_GRID;
		return w;
	}
	w.dp = w.procs / w.grid;
	if (l->dp > 0 && l->dp != w.dp)
		w.fault = WORLD_DP;
	else if (l->micro && l->global && l->global % (l->micro * w.dp))
		w.fault = WORLD_BATCH;
	return w;
}

/* Megatron derives DP; a flag for it is refused at start-up. */
static void megatron_dp_flag(struct sbc *c, const struct layout *l, const char *dp_text)
{
	if (l->sp == &spellings[0] && sb_flag_find(l->entry, "data-parallel-size"))
		sbc_report(c, R_SB2202, at_flag(l, "data-parallel-size"),
			   "Megatron has no --data-parallel-size: DP is always world / (TP x PP x CP) = %s",
			   dp_text);
}

/* A fixed --nnodes: one world. */
static void world_checks(struct sbc *c, const struct layout *l)
{
	struct world w = world_at(l, l->nodes);
	if (w.fault == WORLD_GRID) {
		sbc_report(c, R_SB2201, at_flag(l, l->sp->tp),
			   "TP %lld x PP %lld x CP %lld = %lld does not divide the world of %lld nodes x %lld processes = %lld",
			   w.tp, w.pp, w.cp, w.grid, l->nodes, l->ppn, w.procs);
		return;
	}
	char dp[32];
	snprintf(dp, sizeof dp, "%lld", w.dp);
	megatron_dp_flag(c, l, dp);
	if (l->dp > 0 && l->dp != w.dp)
		sbc_report(c, R_SB2202, at_flag(l, l->sp->dp),
			   "data-parallel degree %lld, but world / (TP x PP x CP) is %lld", l->dp, w.dp);
	if (l->micro && l->global && l->global % (l->micro * w.dp))
		sbc_report(c, R_SB2203, at_flag(l, l->sp->global),
			   "global batch %lld is not a multiple of micro batch %lld x DP %lld", l->global,
			   l->micro, w.dp);
}

/* Why a world breaks the layout, for SB2210's message. */
static void say_fault(struct buf *b, const struct layout *l, const struct world *w, const char *end)
{
	buf_printf(b, "at the %s world size (%lld nodes x %lld = %lld processes), ", end, w->nodes,
		   l->ppn, w->procs);
	switch (w->fault) {
	case WORLD_GRID:
		buf_printf(b, "TP %lld x PP %lld x CP %lld = %lld does not divide it", w->tp, w->pp,
			   w->cp, w->grid);
		break;
	case WORLD_DP:
		buf_printf(b, "world / (TP x PP x CP) is %lld, not the data-parallel degree %lld",
			   w->dp, l->dp);
		break;
	case WORLD_BATCH:
		buf_printf(b, "the global batch %lld is not a multiple of micro batch %lld x DP %lld",
			   l->global, l->micro, w->dp);
		break;
	case WORLD_FITS:
		break;
	}
}

/* An elastic --nnodes=MIN:MAX: torchrun restarts the workers at any size
 * from MIN to MAX nodes, and the layout must hold at both ends. One
 * finding at --nnodes, naming the first end that breaks. */
static void elastic_world_checks(struct sbc *c, const struct layout *l)
{
	struct world small = world_at(l, l->nodes), large = world_at(l, l->nodes_max);
	if (small.fault == WORLD_FITS && large.fault == WORLD_FITS) {
		char dp[48];
		snprintf(dp, sizeof dp, "%lld to %lld as nodes come and go", small.dp, large.dp);
		megatron_dp_flag(c, l, dp);
		return;
	}
	struct buf msg = BUF_INIT;
	if (small.fault != WORLD_FITS) {
		say_fault(&msg, l, &small, "smallest");
		if (large.fault != WORLD_FITS)
			buf_printf(&msg, "; the largest (%lld processes) breaks it too", large.procs);
	} else {
		say_fault(&msg, l, &large, "largest");
	}
	struct diag *g = sbc_report(c, R_SB2210, sb_word_span(sb_flag(l->torch, "nnodes")), "%s",
				    msg.p);
	diag_set_help(g, "torchrun may run at any size from %lld to %lld nodes: choose a layout that holds at both, or narrow the range",
		      l->nodes, l->nodes_max);
	buf_free(&msg);
}

static void model_checks(struct sbc *c, const struct layout *l)
{
	if (l->layers && l->pp > 1 && l->layers % l->pp)
		sbc_report(c, R_SB2204, at_flag(l, l->sp->layers),
			   "%lld layers do not split into %lld pipeline stages", l->layers, l->pp);
	if (l->ep > 1 && l->experts && l->experts % l->ep)
		sbc_report(c, R_SB2205, at_flag(l, l->sp->experts),
			   "%lld experts do not divide among %lld expert-parallel ranks", l->experts, l->ep);
	if (l->tp > 1 && l->heads && l->heads % l->tp)
		sbc_report(c, R_SB2206, at_flag(l, l->sp->heads),
			   "%lld attention heads do not divide among %lld tensor-parallel ranks", l->heads, l->tp);
	if (l->tp > 1 && l->groups && l->groups % l->tp && l->tp % l->groups)
		sbc_report(c, R_SB2206, at_flag(l, l->sp->groups),
			   "%lld query groups and TP %lld: one must divide the other", l->groups, l->tp);
}

/* Processes per node against the accelerators of the paired queue's type,
 * LNC-aware on Trainium2. */
static void accelerator_checks(struct sbc *c, const sb_cmd *cmd)
{
	const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
	long long ppn;
	if (!c->it || !torch || !sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &ppn))
		return;
	const char *lnc = sbc_env_value(c, "NEURON_LOGICAL_NC_CONFIG", NULL);
	int cores = catalog_procs_per_node(c->it, lnc ? atoi(lnc) : 0);
	if (cores > 0 && ppn > cores)
		sbc_report(c, R_SB2207, sb_word_span(sb_flag(torch, "nproc-per-node")),
			   "%lld processes per node, but %s has %d %s", ppn, c->it->name, cores,
			   catalog_is_neuron(c->it) ? "logical NeuronCores at this LNC" : "GPUs");
}

void sbc_check_parallel(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		struct layout l;
		accelerator_checks(c, cmd);
		if (!read_layout(c, cmd, &l))
			continue;
		if (l.nodes && l.ppn && l.nodes < l.nodes_max)
			elastic_world_checks(c, &l);
		else if (l.nodes && l.ppn)
			world_checks(c, &l);
		model_checks(c, &l);
	}
}
