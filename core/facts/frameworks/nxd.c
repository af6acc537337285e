/* NeuronX Distributed (framework: nxd): the Llama pretraining script of
 * aws-neuron/neuronx-distributed, examples/training/llama/
 * tp_pp_llama_hf_pretrain/run_llama_nxd.py at
 * fbac349b61a3adbb123c2983835af692840ff62f (2026-04-09), the tree
 * ../shared/vendor holds and ../shared/tools/argparse_oracle.py reads;
 * and the Neuron releases whose training stack runs it.
 * docs/frameworks.md, "NeuronX Distributed", has each with its source. */
#include "frameworks_internal.h"

static const struct fw_version versions[] = {
	{ "fbac349", NULL, "NeuronX Distributed fbac349 (run_llama_nxd.py)",
	  "aws-neuron/neuronx-distributed fbac349b61a3adbb123c2983835af692840ff62f (2026-04-09): "
	  "examples/training/llama/tp_pp_llama_hf_pretrain/run_llama_nxd.py, training_utils.py, modeling_llama_nxd.py", NULL },
};

/* Its argparse (each an integer or a string; 0 and 1 for switches). The
 * batch is a data-parallel rank's, and the micro-batches matter only to
 * a pipeline. gen has no CP for it, but a hand-written script's CP
 * counts in the world. */
static const struct fw_flag flags[] = {
	{ "--tensor_parallel_size", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--pipeline_parallel_size", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--virtual_pipeline_size", FK_VPP, FW_INT, FW_ABOVE_ONE, FK_NONE, false, 0, NULL, 0 },
	{ "--num_microbatches", FK_MICRO_BATCHES, FW_INT, FW_ABOVE_ONE, FK_PP, false, 0, NULL, 0 },
	{ "--train_batch_size", FK_RANK_BATCH, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--context_parallel_size", FK_CP, FW_INT, FW_NEVER, FK_NONE, true, 0, NULL, 0 },
	/* The shape the spec gives over the config.json of --training_config
	 * (the script's own overrides), and the sequence. */
	{ "--num_layer", FK_LAYERS, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--hidden_size", FK_HIDDEN, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--seq_len", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	/* With TP above the KV heads, every KV head is repeated so that TP
	 * divides them (modeling_llama_nxd.py divides heads x kv_replicator
	 * by TP), which only the fused GQA QKV layer does (--qkv_linear 1). */
	{ "--qkv_linear", FK_KV_REPLICATOR, FW_WORD, FW_ABOVE_ONE, FK_NONE, false, 0, "1", 0 },
	{ "--kv_replicator", FK_KV_REPLICATOR, FW_INT, FW_ABOVE_ONE, FK_NONE, false, 0, NULL, 0 },
	/* The training length: its default is 100 steps. */
	{ "--max_steps", FK_TRAIN_STEPS, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	/* Each process builds the model on the meta device: without it, a
	 * node's 32 processes each build the whole model in host memory
	 * first (run_llama3_70B_tp_pp.sh passes it). */
	{ "--use_meta_device_init", FK_NONE, FW_WORD, FW_ALWAYS, FK_NONE, false, 0, "1", 0 },
	/* What the plan assumes, each an integer 0 or 1 to the script:
	 * ZeRO-1 (it partitions the optimizer state), sequence parallelism
	 * with TP, and the checkpointing, which is full unless selective is
	 * asked for (so the plan's none has no flag that runs it). It has
	 * no precision flag: bf16 comes from its environment. */
	{ "--use_zero1_optimizer", FK_ZERO, FW_WORD, FW_IS, FK_NONE, false, 0, "0", 0 },
	{ "--use_zero1_optimizer", FK_ZERO, FW_WORD, FW_IS, FK_NONE, false, 1, "1", 0 },
	{ "--use_sequence_parallel", FK_TP, FW_WORD, FW_ABOVE_ONE, FK_NONE, false, 0, "1", 0 },
	{ "--use_selective_checkpoint", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "1", 0 },
	{ "--use_selective_checkpoint", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "0", 0 },
	/* Saving and resuming: by default it saves every 100000 steps into
	 * no directory and never loads. */
	{ "--checkpoint_dir", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--checkpoint_freq", FK_SAVE_INTERVAL, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	{ "--loading_step", FK_CHECKPOINTS, FW_WORD, FW_ALWAYS, FK_NONE, false, 0, "latest_if_exists", 0 },
};

static const struct fw_need needs[] = {
	{ "a training length", { "--max_steps" },
	  "its default is 100 steps: the job would end there, as if done", 0,
	  "model.tokens and model.seq_length" },
	{ "a learning rate", { "--lr" },
	  "--lr defaults to None, which the optimizer is built with (run_llama_nxd.py)", 0, NULL },
	{ "the model's config", { "--training_config" },
	  "LlamaConfig.from_pretrained(None) fails: the vocabulary, FFN size and KV heads come from that config.json", 0, NULL },
	{ "training data", { "--training_dir" },
	  "the dataset is loaded from --training_dir, None by default (training_utils.py, create_llama_pretraining_dataset)", 0, NULL },
};

static const struct fw_default defaults[] = {
	{ "--max_steps", "100", "gen writes model.tokens / (global batch x seq_length)", 0 },
	{ "--kv_replicator", "1", "gen writes TP / gcd(TP, query groups) with --qkv_linear 1 when that is above 1", 0 },
	{ "--use_meta_device_init", "0 (the whole model in host memory in every process)", "gen writes 1", 0 },
	{ "--seq_len", "4096", "model.seq_length; gen writes it when given", 0 },
	{ "--checkpoint_dir", "None (saves go nowhere)", "gen writes paths.checkpoints", 0 },
	{ "--loading_step", "-1 (never resumes)", "gen writes latest_if_exists", 0 },
	{ "--checkpoint_freq", "100000", "gen writes the plan's interval", 0 },
	{ "--use_sequence_parallel", "1", "gen writes 1 with TP above 1", 0 },
	{ "--use_selective_checkpoint", "0 (every layer recomputed)", "gen writes the spec's training.recompute", 0 },
};

static const struct fw_checkpoint checkpoints[] = {
	{ .save_dir = "--checkpoint_dir", .interval = "--checkpoint_freq",
	  .resume = "--loading_step", .resume_value = "latest_if_exists",
	  .signal_how = "it has no signal handler: a signal ends the process without a save",
	  .source = "run_llama_nxd.py @ fbac349 (--checkpoint_freq, --checkpoint_dir, --loading_step: \"-1 means no load, latest_if_exists ...\")",
	  .resize_how = "a batch per data-parallel rank (--train_batch_size): a mixed fleet cannot run it (JS0006)" },
};

/* With --use_gpu_compatible_precision 1 (its default) the optimizer
 * keeps fp32 master weights and accumulates gradients in fp32
 * (training_utils.py, get_mixed_precision_config); ZeRO-1
 * (--use_zero1_optimizer 1) divides the master weights and moments
 * over DP. gen writes no ZeRO flag for stages 2 and 3, which then run
 * as 0. */
static void bytes(int zero_stage, struct fw_bytes *out)
{
	bool zero1 = zero_stage == 1;
	*out = (struct fw_bytes){
		.weights = 2, .grads = 4, .optim = 12, .optim_sharded = zero1,
		.how = zero1 ? "bf16 weights and fp32 gradients on every rank, fp32 master weights and Adam moments divided over DP (ZeRO-1): 6 + 12/d bytes"
			     : "bf16 weights, fp32 gradients, fp32 master weights and Adam moments: 18 bytes",
		.source = "aws-neuron/neuronx-distributed examples/training/llama/training_utils.py (get_mixed_precision_config) <https://github.com/aws-neuron/neuronx-distributed/blob/fbac349b61a3adbb123c2983835af692840ff62f/examples/training/llama/training_utils.py>",
	};
}

static const struct fw_known_flag known_flags[] = {
#define K(n) { n, sizeof n - 1, false, FW_ALL_VERSIONS }
	K("--async_checkpoint_saving"), K("--avoid_saving_lower_precision_weights"), K("--beta1"),
	K("--beta2"), K("--checkpoint_dir"), K("--checkpoint_freq"), K("--constant_steps"),
	K("--context_parallel_size"), K("--deallocate_pipeline_outputs"), K("--fuse_microbatches"),
	K("--fuse_qkv"), K("--hidden_size"), K("--kv_replicator"), K("--loading_step"),
	K("--logging_interval"), K("--lr"), K("--max_steps"), K("--metrics_file"), K("--min_lr"),
	K("--num_kept_checkpoint"), K("--num_layer"), K("--num_microbatches"),
	K("--pipeline_parallel_size"), K("--pretrained_weight"), K("--qkv_linear"),
	K("--save_load_xser"), K("--seed"), K("--seq_len"), K("--tb_dir"),
	K("--tensor_parallel_size"), K("--trace_file_path"), K("--train_batch_size"),
	K("--training_config"), K("--training_dir"), K("--transpose_nki_inputs"), K("--use_amp"),
	K("--use_deferred_init"), K("--use_flash_attention"), K("--use_fp32_optimizer"),
	K("--use_gpu_compatible_precision"), K("--use_master_weight_in_ckpt"),
	K("--use_meta_device_init"), K("--use_selective_checkpoint"), K("--use_sequence_parallel"),
	K("--use_zero1_optimizer"), K("--virtual_pipeline_size"), K("--warmup_steps"),
	K("--weight_decay"),
#undef K
};
static const struct fw_known_table known = { known_flags, FW_N(known_flags) };

const struct fw_def fw_def_nxd = {
	.name = "nxd", .title = "NeuronX Distributed",
	.versions = versions, .nversions = FW_N(versions),
	.flags = flags, .nflags = FW_N(flags),
	.virtual_stages = true, .expert_grid = FW_GRID_EP_PP_TP, .batch_per_rank = true,
	.zero_stages = 1u << 0 | 1u << 1,
	.zero_how = "its ZeRO-1 optimizer (--use_zero1_optimizer 1) partitions the optimizer state only",
	.platforms = {
		.on = FW_ON_NEURON,
		.neuron_accels = 1u << ACCEL_TRAINIUM | 1u << ACCEL_TRAINIUM2 | 1u << ACCEL_TRAINIUM3,
		.neuron_first_why = "NxD training runs on Trainium",
		/* One cut-off, where Neuron's announcements disagree on the
		 * date: every one of them tells NxD training users to stay on
		 * 2.28 (PyTorch 2.9); 2.29 drops NxD Core training and
		 * PyTorch/XLA training (announce-eos-nxdt-nxd-core-training). */
		.neuron_last = { 2, 28, -1 },
		.neuron_last_why = "Neuron's end-of-support notice: 2.28 (PyTorch 2.9) is the last release with NxD training, and from 2.29 NxD Core training APIs and PyTorch/XLA training are not supported",
		.neuron_versions = FW_ALL_VERSIONS,
	},
	.needs = needs, .nneeds = FW_N(needs),
	.defaults = defaults, .ndefaults = FW_N(defaults),
	.checkpoints = checkpoints, .ncheckpoints = FW_N(checkpoints),
	.known = &known, .known_ignores_unknown = true,
	.known_source = "run_llama_nxd.py @ fbac349 (its argparse, read with parse_known_args)",
	.count = fw_count_decoder, .flops = fw_flops_palm, .bytes = bytes,
};
