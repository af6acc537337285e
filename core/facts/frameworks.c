#include "frameworks.h"

#include <stddef.h>

#define N(a) (sizeof (a) / sizeof (a)[0])

/* Megatron-LM's arguments.py (docs/frameworks.md, "Megatron-LM"). Sizes
 * of 1 are its defaults and stay unwritten; the experts go with EP, the
 * model shape with the spec's model. It has no data-parallel flag. */
static const struct fw_flag megatron[] = {
	{ "--tensor-model-parallel-size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--pipeline-model-parallel-size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--num-virtual-stages-per-pipeline-rank", FK_VPP, FW_INT, FW_ABOVE_ONE, FK_NONE, false, 0, NULL },
	{ "--context-parallel-size", FK_CP, FW_INT, FW_ABOVE_ONE, FK_NONE, true, 0, NULL },
	{ "--expert-model-parallel-size", FK_EP, FW_INT, FW_ABOVE_ONE, FK_NONE, true, 0, NULL },
	{ "--num-experts", FK_EXPERTS, FW_INT, FW_ABOVE_ONE, FK_EP, true, 0, NULL },
	{ "--num-layers", FK_LAYERS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL },
	{ "--hidden-size", FK_HIDDEN, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL },
	{ "--num-attention-heads", FK_HEADS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL },
	{ "--group-query-attention", FK_NONE, FW_SWITCH, FW_GIVEN, FK_GROUPS, false, 0, NULL },
	{ "--num-query-groups", FK_GROUPS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL },
	{ "--seq-length", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL },
	{ "--max-position-embeddings", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL },
	{ "--micro-batch-size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--global-batch-size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	/* What the plan's memory and time assume (docs/frameworks.md,
	 * "What the plan assumes"): bf16, sequence parallelism with TP, the
	 * distributed optimizer for ZeRO, the recompute mode. */
	{ "--bf16", FK_NONE, FW_SWITCH, FW_ALWAYS, FK_NONE, false, 0, NULL },
	{ "--fp16", FK_NONE, FW_SWITCH, FW_AGAINST, FK_NONE, false, 0, NULL },
	{ "--sequence-parallel", FK_NONE, FW_SWITCH, FW_ABOVE_ONE, FK_TP, false, 0, NULL },
	{ "--use-distributed-optimizer", FK_NONE, FW_SWITCH, FW_AT_LEAST, FK_ZERO, false, 1, NULL },
	{ "--recompute-granularity", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "selective" },
	{ "--recompute-granularity", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "full" },
	{ "--recompute-method", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "uniform" },
	{ "--recompute-num-layers", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "1" },
	{ "--recompute-activations", FK_NONE, FW_SWITCH, FW_AGAINST, FK_NONE, false, 0, NULL },
	{ "--save", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL },
	{ "--load", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL },
};

/* NeuronX Distributed's Llama pretraining script, run_llama_nxd.py of
 * tp_pp_llama_hf_pretrain (docs/frameworks.md, "NeuronX Distributed"):
 * the batch is a data-parallel rank's, and the micro-batches matter only
 * to a pipeline. gen has no CP for it, but a hand-written script's CP
 * counts in the world. The other example scripts spell the same switches
 * otherwise (--use_zero_1, --sequence_parallel_enabled, ...). */
static const struct fw_flag nxd[] = {
	{ "--tensor_parallel_size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--pipeline_parallel_size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--num_microbatches", FK_MICRO_BATCHES, FW_INT, FW_ABOVE_ONE, FK_PP, false, 0, NULL },
	{ "--train_batch_size", FK_RANK_BATCH, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL },
	{ "--context_parallel_size", FK_CP, FW_INT, FW_NEVER, FK_NONE, true, 0, NULL },
	/* What the plan assumes, each an integer 0 or 1 to the script:
	 * ZeRO-1 (it partitions the optimizer state), sequence parallelism
	 * with TP, and the checkpointing, which is full unless selective is
	 * asked for (so the plan's none has no flag that runs it). It has
	 * no precision flag: bf16 comes from its environment. */
	{ "--use_zero1_optimizer", FK_ZERO, FW_WORD, FW_IS, FK_NONE, false, 0, "0" },
	{ "--use_zero1_optimizer", FK_ZERO, FW_WORD, FW_IS, FK_NONE, false, 1, "1" },
	{ "--use_sequence_parallel", FK_TP, FW_WORD, FW_ABOVE_ONE, FK_NONE, false, 0, "1" },
	{ "--use_selective_checkpoint", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "1" },
	{ "--use_selective_checkpoint", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "0" },
};

/* torchtitan's job config as command-line overrides (docs/frameworks.md,
 * "torchtitan"): every degree stated, DP as the sharded degree. Its
 * global batch defaults to -1 (derived), so lint leaves the batch alone,
 * and no script rule looks at EP without the experts, which it leaves to
 * the model flavor. */
static const struct fw_flag torchtitan[] = {
	{ "--parallelism.tensor_parallel_degree", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--parallelism.pipeline_parallel_degree", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--parallelism.context_parallel_degree", FK_CP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--parallelism.expert_parallel_degree", FK_EP, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL },
	{ "--parallelism.data_parallel_shard_degree", FK_DP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL },
	{ "--training.local_batch_size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL },
	{ "--training.global_batch_size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL },
	/* the plan's recompute mode; selective as op-level (the matmuls kept) */
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_NONE, "none" },
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "selective" },
	{ "--activation_checkpoint.selective_ac_option", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "op" },
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "full" },
};

static const struct fw_def defs[FW__COUNT] = {
	[FW_PLAIN] = { .name = "plain", .title = "plain", .expert_grid = FW_GRID_EP_PP_TP },
	[FW_MEGATRON] = {
		.name = "megatron", .title = "Megatron", .flags = megatron, .nflags = N(megatron),
		.virtual_stages = true, .even_stages = true, .expert_grid = FW_GRID_EP_PP_TP,
		.cuda_max_connections = true, .refused_dp_flag = "--data-parallel-size",
		.zero_stages = 1u << 0 | 1u << 1 | 1u << 2,
		.zero_how = "its distributed optimizer (--use-distributed-optimizer) partitions the optimizer state and gradients, not the parameters",
	},
	[FW_NXD] = {
		.name = "nxd", .title = "NeuronX Distributed", .flags = nxd, .nflags = N(nxd),
		.virtual_stages = true, .expert_grid = FW_GRID_EP_PP_TP, .batch_per_rank = true,
		.zero_stages = 1u << 0 | 1u << 1,
		.zero_how = "its ZeRO-1 optimizer (--use_zero1_optimizer 1) partitions the optimizer state only",
	},
	[FW_TORCHTITAN] = {
		.name = "torchtitan", .title = "torchtitan", .flags = torchtitan, .nflags = N(torchtitan),
		.expert_grid = FW_GRID_EP_IN_DP_CP_TP,
		.zero_stages = 1u << 3,
		.zero_how = "FSDP over --parallelism.data_parallel_shard_degree, as gen writes it, partitions parameters, gradients and optimizer state (stage 3)",
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
	case FW_IS: return gate == f->is;
	case FW_AT_LEAST: return gate >= f->is;
	case FW_AGAINST: return false;
	}
	return false;
}
