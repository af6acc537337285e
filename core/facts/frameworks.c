#include "frameworks.h"

#include <stddef.h>

#define N(a) (sizeof (a) / sizeof (a)[0])

/* Megatron-LM's arguments.py (docs/frameworks.md, "Megatron-LM"). Sizes
 * of 1 are its defaults and stay unwritten; the experts go with EP, the
 * model shape with the spec's model. It has no data-parallel flag. */
static const struct fw_flag megatron[] = {
	{ "--tensor-model-parallel-size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--pipeline-model-parallel-size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--num-virtual-stages-per-pipeline-rank", FK_VPP, FW_INT, FW_ABOVE_ONE, FK_NONE, false },
	{ "--context-parallel-size", FK_CP, FW_INT, FW_ABOVE_ONE, FK_NONE, true },
	{ "--expert-model-parallel-size", FK_EP, FW_INT, FW_ABOVE_ONE, FK_NONE, true },
	{ "--num-experts", FK_EXPERTS, FW_INT, FW_ABOVE_ONE, FK_EP, true },
	{ "--num-layers", FK_LAYERS, FW_INT, FW_GIVEN, FK_NONE, true },
	{ "--hidden-size", FK_HIDDEN, FW_INT, FW_GIVEN, FK_NONE, false },
	{ "--num-attention-heads", FK_HEADS, FW_INT, FW_GIVEN, FK_NONE, true },
	{ "--group-query-attention", FK_NONE, FW_SWITCH, FW_GIVEN, FK_GROUPS, false },
	{ "--num-query-groups", FK_GROUPS, FW_INT, FW_GIVEN, FK_NONE, true },
	{ "--seq-length", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false },
	{ "--max-position-embeddings", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false },
	{ "--micro-batch-size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--global-batch-size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--save", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false },
	{ "--load", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false },
};

/* NeuronX Distributed's example training scripts (docs/frameworks.md,
 * "NeuronX Distributed"): the batch is a data-parallel rank's, and the
 * micro-batches matter only to a pipeline. gen has no CP for it, but a
 * hand-written script's CP counts in the world. */
static const struct fw_flag nxd[] = {
	{ "--tensor_parallel_size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--pipeline_parallel_size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--num_microbatches", FK_MICRO_BATCHES, FW_INT, FW_ABOVE_ONE, FK_PP, false },
	{ "--train_batch_size", FK_RANK_BATCH, FW_INT, FW_ALWAYS, FK_NONE, false },
	{ "--context_parallel_size", FK_CP, FW_INT, FW_NEVER, FK_NONE, true },
};

/* torchtitan's job config as command-line overrides (docs/frameworks.md,
 * "torchtitan"): every degree stated, DP as the sharded degree. Its
 * global batch defaults to -1 (derived), so lint leaves the batch alone,
 * and no script rule looks at EP without the experts, which it leaves to
 * the model flavor. */
static const struct fw_flag torchtitan[] = {
	{ "--parallelism.tensor_parallel_degree", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--parallelism.pipeline_parallel_degree", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--parallelism.context_parallel_degree", FK_CP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--parallelism.expert_parallel_degree", FK_EP, FW_INT, FW_ALWAYS, FK_NONE, false },
	{ "--parallelism.data_parallel_shard_degree", FK_DP, FW_INT, FW_ALWAYS, FK_NONE, true },
	{ "--training.local_batch_size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, false },
	{ "--training.global_batch_size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, false },
};

static const struct fw_def defs[FW__COUNT] = {
	[FW_PLAIN] = { .name = "plain", .title = "plain", .expert_grid = FW_GRID_EP_PP_TP },
	[FW_MEGATRON] = {
		.name = "megatron", .title = "Megatron", .flags = megatron, .nflags = N(megatron),
		.virtual_stages = true, .even_stages = true, .expert_grid = FW_GRID_EP_PP_TP,
		.cuda_max_connections = true, .refused_dp_flag = "--data-parallel-size",
	},
	[FW_NXD] = {
		.name = "nxd", .title = "NeuronX Distributed", .flags = nxd, .nflags = N(nxd),
		.virtual_stages = true, .expert_grid = FW_GRID_EP_PP_TP, .batch_per_rank = true,
	},
	[FW_TORCHTITAN] = {
		.name = "torchtitan", .title = "torchtitan", .flags = torchtitan, .nflags = N(torchtitan),
		.expert_grid = FW_GRID_EP_IN_DP_CP_TP,
	},
};

const struct fw_def *fw_def(enum framework f) { return &defs[f]; }
const char *fw_name(enum framework f) { return defs[f].name; }

static const struct fw_flag *find(enum framework f, enum fw_knob k, bool read_only)
{
	for (size_t i = 0; i < defs[f].nflags; i++)
		if (defs[f].flags[i].knob == k && (defs[f].flags[i].read || !read_only))
			return &defs[f].flags[i];
	return NULL;
}

const struct fw_flag *fw_flag(enum framework f, enum fw_knob k) { return find(f, k, false); }
const struct fw_flag *fw_read_flag(enum framework f, enum fw_knob k) { return find(f, k, true); }

bool fw_flag_written(const struct fw_flag *f, const long long value[FK__COUNT])
{
	long long gate = value[f->gate != FK_NONE ? f->gate : f->knob];
	switch (f->when) {
	case FW_ALWAYS: return true;
	case FW_ABOVE_ONE: return gate > 1;
	case FW_GIVEN: return gate != 0;
	case FW_NEVER: return false;
	}
	return false;
}
