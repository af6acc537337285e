/* SB2201-SB2207: the parallel layout a torchrun command gives its
 * training script, against the world that srun and torchrun create. The
 * flags are read with the framework table and held to the layout
 * invariants of core/facts (docs/frameworks.md). Only literal or
 * resolvable numbers count; anything else stays silent.
 *
 * The node count is torchrun's --nnodes (through $SLURM_JOB_NUM_NODES
 * when the script passes that). An elastic --nnodes=MIN:MAX makes two
 * worlds, which SB2210 (elastic.c) holds to the layout; here, only the
 * faults that hold at any world. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"

static const sb_word *flag_word(const sb_part *entry, const char *flag)
{
	if (!flag)
		return NULL;
	const sb_word *w = sb_flag(entry, flag);
	return w ? w : sb_flag_next(entry, flag);
}

static const char *read_flag(enum framework fw, enum fw_knob k)
{
	const struct fw_flag *f = fw_read_flag(fw, k);
	return f ? f->flag : NULL;
}

static struct sb_span span_at(const sb_part *entry, const char *flag)
{
	const sb_word *w = flag_word(entry, flag);
	return sb_word_span(w ? w : sb_part_program(entry));
}

/* Whether a script's flag (its normalized name) is a table spelling, by
 * sb_flag_find's rule (no leading dashes, '_' as '-'). The layout is
 * read in one pass over the flags rather than with a lookup per knob:
 * every torchrun command is read here, and an elastic one again for
 * SB2210. */
static bool same_flag(const char *name, const char *spelling)
{
	while (*name == '-')
		name++;
	while (*spelling == '-')
		spelling++;
	for (; *name && *spelling; name++, spelling++)
		if ((*name == '_' ? '-' : *name) != (*spelling == '_' ? '-' : *spelling))
			return false;
	return !*name && !*spelling;
}

/* The first framework (in table order) whose TP or PP flag the script
 * passes. */
static bool script_framework(const sb_part *entry, enum framework *out)
{
	int best = FW__COUNT;
	for (size_t i = 0; i < sb_part_flag_count(entry); i++) {
		const char *name = sb_part_flag(entry, i)->name;
		for (int f = 0; f < best; f++) {
			const char *tp = read_flag(f, FK_TP), *pp = read_flag(f, FK_PP);
			if ((tp && same_flag(name, tp)) || (pp && same_flag(name, pp)))
				best = f;
		}
	}
	*out = best;
	return best < FW__COUNT;
}

/* The value of each knob the framework's table reads, 0 when the script
 * does not give it as a number. Like sb_flag, the last occurrence wins;
 * like sb_flag_next, a flag that took no value may own the next word. */
static void read_knobs(const struct sbc *c, const sb_cmd *cmd, const sb_part *entry,
		       enum framework fw, long long value[FK__COUNT])
{
	const struct fw_def *d = fw_def(fw);
	const struct sb_flag *last[FK__COUNT] = { 0 };
	for (size_t i = 0; i < sb_part_flag_count(entry); i++) {
		const struct sb_flag *f = sb_part_flag(entry, i);
		for (size_t r = 0; r < d->nflags; r++) {
			const struct fw_flag *row = &d->flags[r];
			if (row->read && same_flag(f->name, row->flag))
				last[row->knob] = f;
		}
	}
	for (int k = 0; k < FK__COUNT; k++) {
		const sb_word *w = !last[k] ? NULL
			: last[k]->value ? last[k]->value : sb_flag_next(entry, read_flag(fw, k));
		/* -1 is "from the checkpoint" (Megatron-DeepSpeed's eval
		 * scripts): no size at all */
		if (!w || !sbc_word_int(c, w, cmd, &value[k]) || value[k] < 0)
			value[k] = 0;
	}
}

/* A degree the script does not give is 1, and the messages say so. */
static long long degree(long long d)
{
	return d ? d : 1;
}

bool sbc_read_layout(const struct sbc *c, const sb_cmd *cmd, struct sbc_layout *s)
{
	const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
	const sb_part *entry = sb_cmd_find(cmd, SB_PROG_PYTHON);
	enum framework fw;
	if (!torch || !entry || sb_cmd_assumed(cmd) || !script_framework(entry, &fw))
		return false;
	memset(s, 0, sizeof *s);
	s->cmd = cmd;
	s->torch = torch;
	s->entry = entry;
	sbc_nnodes(c, torch, cmd, &s->nodes, &s->nodes_max);
	long long v;
	if (sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &v))
		s->ppn = v;
	long long k[FK__COUNT];
	read_knobs(c, cmd, entry, fw, k);
	s->l = (struct layout){
		.fw = fw, .tp = degree(k[FK_TP]), .pp = degree(k[FK_PP]), .cp = degree(k[FK_CP]),
		.ep = k[FK_EP], .dp = k[FK_DP], .micro = k[FK_MICRO], .global = k[FK_GLOBAL],
		.layers = k[FK_LAYERS], .experts = k[FK_EXPERTS], .heads = k[FK_HEADS],
		.groups = k[FK_GROUPS],
	};
	/* Megatron-DeepSpeed (a Megatron entry point given --deepspeed)
	 * runs the pipeline with DeepSpeed's engine, which balances the
	 * transformer layers over the stages unevenly (BLOOM: 70 layers on
	 * 12 stages): no layer count to hold to PP. */
	if (fw == FW_MEGATRON && sb_flag_find(entry, "deepspeed"))
		s->l.layers = 0;
	return true;
}

struct sb_span sbc_layout_span(const struct sbc_layout *s, enum fw_knob k)
{
	return span_at(s->entry, read_flag(s->l.fw, k));
}

struct layout sbc_layout_at(const struct sbc_layout *s, long long nodes)
{
	struct layout l = s->l;
	l.world = layout_world_of(nodes, s->ppn);
	return l;
}

enum layout_fault sbc_world_fault(const struct sbc_layout *s, long long nodes,
				  struct layout_finding *found)
{
	static const enum layout_fault script_world[] = { LAYOUT_WORLD, LAYOUT_DP, LAYOUT_BATCH };
	struct layout l = sbc_layout_at(s, nodes);
	struct layout_faults fs;
	layout_faults_find(&l, &fs);
	const struct layout_finding *f =
		layout_faults_first(&fs, script_world, sizeof script_world / sizeof script_world[0]);
	if (!f)
		return LAYOUT_OK;
	*found = *f;
	return f->fault;
}

/* One world when --nnodes is one number (and the processes per node are
 * known); none (0) when it is MIN:MAX or unknown. */
static bool fixed_world(const struct sbc_layout *s)
{
	return s->nodes && s->ppn && !(s->nodes < s->nodes_max);
}

/* One command's layout, at its world when --nnodes is one number, with
 * the faults the rules below report. */
struct script_check {
	const struct sbc_layout *s;
	const char *counts;   /* the node counts of a range that fail, or NULL */
	struct layout l;
	struct layout_faults fs;
};

/* SB2201 script-world-not-divisible */
static void script_world_not_divisible(struct sbc *c, const struct script_check *k)
{
	const struct sbc_layout *s = k->s;
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_WORLD);
	if (f && k->counts)
		sbc_report(c, R_SB2201, sbc_layout_span(s, FK_TP),
			   "with %s nodes (the job runs on %lld to %lld), TP x PP x CP does not divide the world: at %lld, TP %lld x PP %lld x CP %lld = %lld and the world is %lld nodes x %lld processes = %lld",
			   k->counts, c->per_node ? c->nodes : c->comp[0].min_nodes,
			   c->per_node ? c->nodes_max : c->comp[0].max_nodes, s->nodes,
			   s->l.tp, s->l.pp, s->l.cp, f->divisor, s->nodes, s->ppn, f->value);
	else if (f)
		sbc_report(c, R_SB2201, sbc_layout_span(s, FK_TP),
			   "TP %lld x PP %lld x CP %lld = %lld does not divide the world of %lld nodes x %lld processes = %lld",
			   s->l.tp, s->l.pp, s->l.cp, f->divisor, s->nodes, s->ppn, f->value);
}

/* The DP that the world, or both ends of an elastic range, derive; false
 * when one of them breaks the layout. */
static bool derived_dp(const struct script_check *k, char *out, size_t cap)
{
	const struct sbc_layout *s = k->s;
	struct layout_finding f;
	if (fixed_world(s)) {
		snprintf(out, cap, "%lld", layout_dp(&k->l));
		return layout_dp(&k->l) != 0;
	}
	if (!s->nodes || !s->ppn || sbc_world_fault(s, s->nodes, &f) ||
	    sbc_world_fault(s, s->nodes_max, &f))
		return false;
	struct layout small = sbc_layout_at(s, s->nodes), large = sbc_layout_at(s, s->nodes_max);
	snprintf(out, cap, "%lld to %lld as nodes come and go", layout_dp(&small), layout_dp(&large));
	return true;
}

/* A data-parallel flag the framework rejects at start-up (Megatron
 * derives DP), or one that differs from the DP the world derives. */
/* SB2202 script-data-parallel-flag */
static void script_data_parallel_flag(struct sbc *c, const struct script_check *k)
{
	const struct sbc_layout *s = k->s;
	const struct fw_def *fw = fw_def(s->l.fw);
	char dp[48];
	if (fw->refused_dp_flag && sb_flag_find(s->entry, fw->refused_dp_flag) &&
	    derived_dp(k, dp, sizeof dp))
		sbc_report(c, R_SB2202, span_at(s->entry, fw->refused_dp_flag),
			   "%s has no %s: DP is always world / (TP x PP x CP) = %s", fw->title,
			   fw->refused_dp_flag, dp);
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_DP);
	if (f)
		sbc_report(c, R_SB2202, sbc_layout_span(s, FK_DP),
			   "data-parallel degree %lld, but world / (TP x PP x CP) is %lld", f->value, f->divisor);
}

/* SB2203 script-global-batch */
static void script_global_batch(struct sbc *c, const struct script_check *k)
{
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_BATCH);
	if (f)
		sbc_report(c, R_SB2203, sbc_layout_span(k->s, FK_GLOBAL),
			   "global batch %lld is not a multiple of micro batch %lld x DP %lld", f->value,
			   k->l.micro, layout_dp(&k->l));
}

/* SB2204 script-layers-not-divisible */
static void script_layers_not_divisible(struct sbc *c, const struct script_check *k)
{
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_LAYERS_PP);
	if (f)
		sbc_report(c, R_SB2204, sbc_layout_span(k->s, FK_LAYERS),
			   "%lld layers do not split into %lld pipeline stages", f->value, f->divisor);
}

/* SB2205 script-experts-not-divisible */
static void script_experts_not_divisible(struct sbc *c, const struct script_check *k)
{
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_EXPERTS_EP);
	if (f)
		sbc_report(c, R_SB2205, sbc_layout_span(k->s, FK_EXPERTS),
			   "%lld experts do not divide among %lld expert-parallel ranks", f->value, f->divisor);
}

/* SB2206 script-heads-not-divisible */
static void script_heads_not_divisible(struct sbc *c, const struct script_check *k)
{
	const struct layout_finding *f = layout_faults_get(&k->fs, LAYOUT_HEADS_TP);
	if (f)
		sbc_report(c, R_SB2206, sbc_layout_span(k->s, FK_HEADS),
			   "%lld attention heads do not divide among %lld tensor-parallel ranks",
			   f->value, f->divisor);
	if ((f = layout_faults_get(&k->fs, LAYOUT_GROUPS_TP)))
		sbc_report(c, R_SB2206, sbc_layout_span(k->s, FK_GROUPS),
			   "%lld query groups and TP %lld: one must divide the other", f->value, f->divisor);
}

/* Processes per node against the accelerators of the paired queue's
 * type, LNC-aware on Trainium2. */
/* SB2207 script-processes-exceed-accelerators */
static void script_processes_exceed_accelerators(struct sbc *c, const sb_cmd *cmd)
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

/* The node counts the batch step can see in $SLURM_JOB_NUM_NODES: each
 * of an --nodes=MIN-MAX range (component 0's in a heterogeneous job),
 * or the one count. At most MAX_COUNTS of them, the ends always. */
#define MAX_COUNTS 64

static size_t node_counts(const struct sbc *c, long long *out)
{
	long long lo = c->per_node ? c->nodes : c->comp ? c->comp[0].min_nodes : 0;
	long long hi = c->per_node ? c->nodes_max : c->comp ? c->comp[0].max_nodes : 0;
	if (lo < 1 || hi <= lo)
		return 0;
	size_t n = 0;
	long long step = (hi - lo) / (MAX_COUNTS - 1) + 1;
	for (long long v = lo; v < hi && n < MAX_COUNTS - 1; v += step)
		out[n++] = v;
	out[n++] = hi;
	return n;
}

/* The counts at which a command's layout (its sizes computed from the
 * node count, or --nnodes from $SLURM_JOB_NUM_NODES) does not divide
 * the world: the first failing count is left in c->eval_nodes for the
 * checks to report at, and the failing ones written as text. Returns
 * false when every count holds, or the layout does not vary. */
static bool failing_counts(struct sbc *c, const sb_cmd *cmd, char *text, size_t cap)
{
	long long counts[MAX_COUNTS];
	size_t n = node_counts(c, counts), bad = 0, known = 0;
	long long first = 0;
	text[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		c->eval_nodes = counts[i];
		struct sbc_layout s;
		struct layout_finding f;
		if (!sbc_read_layout(c, cmd, &s) || !fixed_world(&s))
			continue;
		known++;
		if (sbc_world_fault(&s, s.nodes, &f) != LAYOUT_WORLD)
			continue;
		if (!bad++)
			first = counts[i];
		size_t len = strlen(text);
		if (len + 24 < cap)
			snprintf(text + len, cap - len, "%s%lld", len ? ", " : "", counts[i]);
	}
	/* "5, 7" reads "5 or 7" */
	char *last = strrchr(text, ',');
	if (last && strlen(text) + 4 < cap) {
		memmove(last + 3, last + 1, strlen(last + 1) + 1);
		memcpy(last, " or", 3);
	}
	c->eval_nodes = bad && bad < known ? first : 0;
	return bad && bad < known;
}

static void check_command(struct sbc *c, const sb_cmd *cmd, const char *counts)
{
	struct sbc_layout s;
	if (!sbc_read_layout(c, cmd, &s))
		return;
	struct script_check k = { .s = &s, .counts = counts };
	k.l = fixed_world(&s) ? sbc_layout_at(&s, s.nodes) : s.l;
	layout_faults_find(&k.l, &k.fs);
	script_world_not_divisible(c, &k);
	script_data_parallel_flag(c, &k);
	script_global_batch(c, &k);
	script_layers_not_divisible(c, &k);
	script_experts_not_divisible(c, &k);
	script_heads_not_divisible(c, &k);
}

void sbc_check_parallel(struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		char counts[256];
		script_processes_exceed_accelerators(c, cmd);
		bool some = failing_counts(c, cmd, counts, sizeof counts);
		check_command(c, cmd, some ? counts : NULL);
		c->eval_nodes = 0;
	}
}
