/* NVIDIA Megatron-LM (framework: megatron): the facts of the version
 * trainforge pins, NVIDIA/Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553
 * (2026-08-22; megatron-core 0.20.0 by its package_info.py), the tree
 * ../shared/vendor holds and ../shared/tools/megatron_oracle.py reads.
 * docs/frameworks.md, "Megatron-LM", has each with its source. */
#include "frameworks_internal.h"


static const struct fw_version versions[] = {
	{ "0.20", "d98e8a6", "Megatron-LM 0.20 (d98e8a6)",
	  "NVIDIA/Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553 (2026-08-22): "
	  "megatron/training/arguments.py, training.py, theoretical_memory_usage.py", NULL },
};

/* arguments.py (add_megatron_arguments) and validate_args. Sizes of 1
 * are its defaults and stay unwritten. It has no data-parallel flag. */
static const struct fw_flag flags[] = {
	{ "--tensor-model-parallel-size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--pipeline-model-parallel-size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--num-virtual-stages-per-pipeline-rank", FK_VPP, FW_INT, FW_ABOVE_ONE, FK_NONE, false, 0, NULL, 0 },
	{ "--context-parallel-size", FK_CP, FW_INT, FW_ABOVE_ONE, FK_NONE, true, 0, NULL, 0 },
	{ "--expert-model-parallel-size", FK_EP, FW_INT, FW_ABOVE_ONE, FK_NONE, true, 0, NULL, 0 },
	/* The model's shape: each size the spec gives, and the defaults of
	 * Megatron's that differ from the spec's (top-2 routing, an FFN of
	 * 4 x hidden, no SwiGLU, tied embeddings) overridden. */
	{ "--num-experts", FK_EXPERTS, FW_INT, FW_ABOVE_ONE, FK_NONE, true, 0, NULL, 0 },
	{ "--moe-router-topk", FK_TOPK, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--num-layers", FK_LAYERS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL, 0 },
	{ "--hidden-size", FK_HIDDEN, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--ffn-hidden-size", FK_FFN, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--moe-ffn-hidden-size", FK_EXPERT_FFN, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--swiglu", FK_NONE, FW_SWITCH, FW_IS, FK_GATED, false, 1, NULL, 0 },
	{ "--num-attention-heads", FK_HEADS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL, 0 },
	{ "--group-query-attention", FK_NONE, FW_SWITCH, FW_GIVEN, FK_GROUPS, false, 0, NULL, 0 },
	{ "--num-query-groups", FK_GROUPS, FW_INT, FW_GIVEN, FK_NONE, true, 0, NULL, 0 },
	{ "--seq-length", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--max-position-embeddings", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--vocab-size", FK_VOCAB, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--untie-embeddings-and-output-weights", FK_NONE, FW_SWITCH, FW_IS, FK_UNTIED, false, 1, NULL, 0 },
	{ "--micro-batch-size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--global-batch-size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	/* The training length: samples, so that a smaller fleet with the
	 * same global batch trains for the same tokens. */
	{ "--train-samples", FK_TRAIN_SAMPLES, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	/* What the plan's memory and time assume (docs/frameworks.md,
	 * "What the plan assumes"): bf16, sequence parallelism with TP, the
	 * distributed optimizer for ZeRO, the recompute mode. */
	{ "--bf16", FK_NONE, FW_SWITCH, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--fp16", FK_NONE, FW_SWITCH, FW_AGAINST, FK_NONE, false, 0, NULL, 0 },
	{ "--sequence-parallel", FK_NONE, FW_SWITCH, FW_ABOVE_ONE, FK_TP, false, 0, NULL, 0 },
	{ "--use-distributed-optimizer", FK_NONE, FW_SWITCH, FW_AT_LEAST, FK_ZERO, false, 1, NULL, 0 },
	{ "--recompute-granularity", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "selective", 0 },
	{ "--recompute-granularity", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "full", 0 },
	{ "--recompute-method", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "uniform", 0 },
	{ "--recompute-num-layers", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "1", 0 },
	{ "--recompute-activations", FK_NONE, FW_SWITCH, FW_AGAINST, FK_NONE, false, 0, NULL, 0 },
	/* Saving and resuming: --save needs --save-interval (validate_args
	 * asserts it), and --load resumes from the latest save there. */
	{ "--save", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--load", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--save-interval", FK_SAVE_INTERVAL, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
};

static const struct fw_need needs[] = {
	{ "the number of layers", { "--num-layers" },
	  "validate_args checks it is given (required_args)", 0, "model.layers" },
	{ "the hidden size", { "--hidden-size" },
	  "validate_args checks it is given (required_args)", 0, "model.hidden_size" },
	{ "the attention heads", { "--num-attention-heads" },
	  "validate_args checks it is given (required_args)", 0, "model.attention_heads" },
	{ "the sequence length", { "--max-position-embeddings" },
	  "validate_args checks it is given (required_args)", 0, "model.seq_length" },
	{ "a training length", { "--train-samples", "--train-iters" },
	  "with neither, the training loop has no end (training.py sizes its datasets from one of them)", 0,
	  "model.tokens and model.seq_length" },
	{ "a learning rate", { "--lr" },
	  "--lr has no default, and the learning-rate scheduler it builds takes float(None) "
	  "(megatron/core/optimizer_param_scheduler.py, OptimizerParamScheduler)", 0, NULL },
	{ "a tokenizer", { "--tokenizer-type" },
	  "build_tokenizer raises ValueError for a tokenizer type that is not one it knows, None included "
	  "(megatron/core/tokenizers/utils/build_tokenizer.py)", 0, NULL },
	{ "training data", { "--data-path", "--train-data-path", "--data-args-path",
			     "--per-split-data-args-path", "--mock-data" },
	  "the dataset builder has no data to read without one of them (--mock-data is synthetic)", 0, NULL },
};

static const struct fw_default defaults[] = {
	{ "--moe-router-topk", "2", "model.experts_per_token; gen writes it with the experts", 0 },
	{ "--ffn-hidden-size", "4 x hidden; with --swiglu, 8/3 x hidden rounded down to a multiple of 64",
	  "model.ffn_hidden_size; gen writes it for a model with dense layers, this default when not given, so the line says the size the plan counted", 0 },
	{ "--moe-ffn-hidden-size", "--ffn-hidden-size", "model.expert_ffn_hidden_size; gen writes it when given", 0 },
	{ "--swiglu", "off (a two-matrix GELU block)", "model.gated_ffn, true unless the spec says false; gen writes --swiglu", 0 },
	{ "--untie-embeddings-and-output-weights", "off (the output layer shares the input embedding)",
	  "model.tied_embeddings, false unless the spec says true; gen writes the switch", 0 },
	{ "--num-query-groups", "the attention heads (no grouped-query attention)",
	  "model.query_groups; gen writes it with --group-query-attention when given", 0 },
	{ "--vocab-size", "the tokenizer's", "model.vocab_size; gen writes it when given, and the plan pads it as Megatron does (to a multiple of 128 x TP)", 0 },
	{ "--train-iters, --train-samples", "none: validate_args needs one",
	  "gen writes --train-samples = model.tokens / model.seq_length", 0 },
	{ "--save-interval", "none: validate_args asserts one with --save",
	  "gen writes the plan's interval with --save", 0 },
	{ "--exit-signal-handler", "off: a signal kills the process without a save",
	  "gen writes it with --exit-signal SIGUSR1, the signal the job and the spot watcher send", 0 },
	{ "--exit-signal", "SIGTERM, which torchrun and Slurm also send to stop a process",
	  "gen writes SIGUSR1", 0 },
	{ "--normalization", "LayerNorm (a weight and a bias per norm)",
	  "not written; the plan counts LayerNorm as Megatron does", 0 },
};

static const struct fw_checkpoint checkpoints[] = {
	{ .save_dir = "--save", .load_dir = "--load", .interval = "--save-interval",
	  .resumes_by_itself = true, .interval_required = true,
	  .signal_switch = "--exit-signal-handler", .signal_flag = "--exit-signal", .signal_default = 15,
	  .signal_how = "every rank saves a checkpoint (the signal is gathered across ranks) and the program exits 0",
	  .source = "megatron/training/arguments.py (validate_args: --save asserts --save-interval), "
		    "training.py (the exit-signal handler), checkpointing.py (--load reads the latest iteration)",
	  /* SIGUSR1, not its default SIGTERM: torchrun stops its workers
	   * with SIGTERM (and SIGKILL 30 s later) whenever it restarts
	   * them, and Slurm sends SIGTERM at a time limit or a cancel, none
	   * of which leaves the time a save takes. */
	  .signal_written = "SIGUSR1", .signal_number = 10,
	  .signal_source = "megatron/training/config/training_config.py (exit_signal: signal.Signals, default SIGTERM), "
			   "argument_utils.py (_get_enum_kwargs: the member's name, such as SIGUSR1), "
			   "dist_signal_handler.py (DistributedSignalHandler all-gathers the flag), "
			   "training.py (checkpoint_and_decide_exit saves at the iteration's end; train() then calls sys.exit(0))",
	  .saved_marker = "latest_checkpointed_iteration.txt",
	  .saved_marker_source = "megatron/training/checkpointing.py (get_checkpoint_tracker_filename: written once the save is complete; --load reads it)",
	  .resize_how = "its checkpoint (--ckpt-format torch_dist, the default) keeps the distributed optimizer's state DP-reshardable, so it loads at another data-parallel size; the sampler resumes from the samples consumed, so every global batch holds the same samples at any size",
	  .resize_source = "megatron/training/config/training_config.py (ckpt_format torch_dist; dist_ckpt_optim_fully_reshardable: \"as opposed to plain DP reshardability\"), checkpointing.py (distrib_optim_sharding_type dp_reshardable)" },
};

/* theoretical_memory_usage.py, num_bytes_per_parameter: bf16 weights,
 * fp32 main gradients, fp32 main weights and Adam moments, 18 bytes;
 * the distributed optimizer divides the 12 of the last three over DP
 * (6 + 12/d). Its gradient buffer stays whole, so stage 2 is stage 1. */
static void bytes(int zero_stage, struct fw_bytes *out)
{
	*out = (struct fw_bytes){
		.weights = 2, .grads = 4, .optim = 12, .optim_sharded = zero_stage >= 1,
		.how = zero_stage >= 1
			? "bf16 weights and fp32 gradients on every rank, fp32 main weights and Adam moments divided over DP (--use-distributed-optimizer): 6 + 12/d bytes"
			: "bf16 weights, fp32 gradients, fp32 main weights and Adam moments: 18 bytes",
		.source = "NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py (num_bytes_per_parameter) <https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/megatron/training/theoretical_memory_usage.py>",
	};
}

/* Megatron's own count (compute_weight_and_optimizer_memory), with the
 * defaults of the arguments gen does not write: LayerNorm (a weight and
 * a bias: 2 per hidden), a router with a bias (--add-bias-linear is on),
 * the vocabulary padded to a multiple of 128 x TP (vocab_utils.py). */
static bool count(const struct fw_shape *s, struct fw_params *out)
{
	double h = s->hidden, a = s->heads, g = s->groups > 0 ? s->groups : s->heads;
	double kv = (double)(s->hidden / s->heads), q = kv * a;
	double gated = s->gated ? 1.5 : 1, norm = 2;
	double ffn = (double)fw_ffn_size(s);
	double E = s->experts > 1 ? s->experts : 0;
	double eff = s->expert_ffn > 0 ? (double)s->expert_ffn : ffn;
	double k = s->topk > 0 ? s->topk : 2; /* Megatron's default top-k */

	double multiple = 128.0 * (s->tp > 0 ? s->tp : 1);
	double V = s->vocab > 0 ? multiple * (double)((s->vocab + (long long)multiple - 1) / (long long)multiple) : 0;
	double attention = 2 * h * h * ((1 + g / a) * (q / h));
	double layernorm = 2 * h * norm, final = norm * h;
	double dense_mlp = E ? 0 : 2 * h * ffn * gated;
	double router = E ? h * E + E : 0;
	double routed = E ? 2 * h * eff * E * gated : 0;
	double active_routed = E ? 2 * h * eff * k * gated : 0;
	struct fw_layer layer = {
		.dense = attention + dense_mlp + layernorm + router, .replicated = layernorm + router,
		.experts = routed, .active_experts = active_routed,
	};
	fw_params_sum(s, &layer, final, V, out);
	out->accounting = "Megatron-LM's compute_weight_and_optimizer_memory (megatron/training/theoretical_memory_usage.py @ d98e8a6)";
	out->source = "NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py (compute_weight_and_optimizer_memory) <https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/megatron/training/theoretical_memory_usage.py>";
	return true;
}

/* num_floating_point_operations (training.py @ d98e8a6), per token: 3
 * passes x 2 FLOPs per multiply-add over the QKV and output
 * projections, the FFN (its active experts) and the logit layer, and
 * the core attention with the causal mask halving QK^T and its product
 * with V. */
static void flops(const struct fw_shape *s, const struct fw_params *p, struct fw_flops *out)
{
	double h = s->hidden, L = s->layers, a = s->heads, g = s->groups > 0 ? s->groups : s->heads;
	double kv = (double)(s->hidden / s->heads), q = kv * a;
	double factor = s->gated ? 3 : 2;
	double ffn = (double)fw_ffn_size(s);
	double eff = s->expert_ffn > 0 ? (double)s->expert_ffn : ffn;
	double k = s->topk > 0 ? s->topk : 2;
	double mlp = s->experts > 1 ? eff * k * factor : ffn * factor;
	double attn = h * (q + 2 * kv * g) + q * h;

	out->dense = 6 * (h * mlp * L + attn * L + h * p->padded_vocab);
	out->attention = 6 * q * (double)s->seq * L;
	out->per_token = out->dense + out->attention;
	out->convention = "Megatron-LM's num_floating_point_operations: 6 x the multiplies of the active weights and the logits, plus causal attention <https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/megatron/training/training.py>";
}

const struct fw_def fw_def_megatron = {
	.name = "megatron", .title = "Megatron-LM",
	.versions = versions, .nversions = FW_N(versions),
	.flags = flags, .nflags = FW_N(flags),
	.virtual_stages = true, .even_stages = true, .expert_grid = FW_GRID_EP_PP_TP,
	.cuda_max_connections = true, .refused_dp_flag = "--data-parallel-size",
	.zero_stages = 1u << 0 | 1u << 1 | 1u << 2,
	.zero_how = "its distributed optimizer (--use-distributed-optimizer) partitions the optimizer state and gradients, not the parameters",
	.platforms = {
		.on = FW_ON_CUDA,
		.cuda_only_why = "Megatron-LM runs on NVIDIA GPUs only: its kernels and its Transformer Engine and Apex dependencies are CUDA, which Neuron does not run",
	},
	.needs = needs, .nneeds = FW_N(needs),
	.defaults = defaults, .ndefaults = FW_N(defaults),
	.checkpoints = checkpoints, .ncheckpoints = FW_N(checkpoints),
	.known = &fw_megatron_known,
	.known_source = "megatron/training/arguments.py (add_megatron_arguments) @ d98e8a6",
	.count = count, .flops = flops, .bytes = bytes,
};
