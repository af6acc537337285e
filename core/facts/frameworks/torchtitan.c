/* TorchTitan (framework: torchtitan), in its two generations of command
 * line: 0.2 (v0.2.2 and before), a TOML job config given with
 * --job.config_file and overridden as --section.field; and 0.3 (v0.3.0,
 * from pytorch/torchtitan #2386, commit 9810191, February 2026), a Python
 * config registry chosen with --module and --config and overridden the
 * same way. On Trainium it runs as TorchTitan Neuron (the
 * aws-neuron/torchtitan-neuron fork, 0.3's command line) on native
 * PyTorch (TorchNeuron). docs/frameworks.md, "torchtitan", has each fact
 * with its source. */
#include "frameworks_internal.h"

enum { V02, V03 };

static const struct fw_version versions[] = {
	[V02] = { "0.2", "v0.2.2", "torchtitan 0.2 (TOML job config)",
		  "pytorch/torchtitan torchtitan/config/job_config.py @ 000204a4a8bf3d0f31adc44fc29855fbb6ea13d8", NULL },
	[V03] = { "0.3", "v0.3.0", "torchtitan 0.3 (--module and --config)",
		  "pytorch/torchtitan #2386 (9810191, 2026-02): torchtitan/config/configs.py @ 0014ac2ca45ae15db6706b4f5cc3e67546c98885, "
		  "torchtitan/trainer.py (Trainer.Config) @ 003fe28042153d6b84958a3a4004987d8dc4cd53, "
		  "torchtitan/config/manager.py (ConfigManager) @ 02e5389e976043d2ba4a60947e93b76d5ef669b8",
		  "the TOML job config (--job.config_file) gave way to a Python config registry chosen with --module and --config "
		  "(pytorch/torchtitan #2386, commit 9810191, February 2026); --job.* and --checkpoint.enable_checkpoint are gone" },
};

/* Every degree stated, DP as the sharded degree. Its global batch
 * defaults to -1 (derived), so lint leaves the batch alone; the experts
 * are the model's (the config), not the command line's. */
static const struct fw_flag flags[] = {
	{ "--parallelism.tensor_parallel_degree", FK_TP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--parallelism.pipeline_parallel_degree", FK_PP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--parallelism.context_parallel_degree", FK_CP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--parallelism.expert_parallel_degree", FK_EP, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--parallelism.data_parallel_shard_degree", FK_DP, FW_INT, FW_ALWAYS, FK_NONE, true, 0, NULL, 0 },
	{ "--training.local_batch_size", FK_MICRO, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--training.global_batch_size", FK_GLOBAL, FW_INT, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--training.seq_len", FK_SEQ, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	/* the training length: its default is 10000 steps */
	{ "--training.steps", FK_TRAIN_STEPS, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
	/* the plan's recompute mode; selective as op-level (the matmuls
	 * kept), which 0.2 chooses with an option and 0.3 is */
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_NONE, "none", 0 },
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "selective", 0 },
	{ "--activation_checkpoint.selective_ac_option", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_SELECTIVE, "op", FW_V(V02) },
	{ "--activation_checkpoint.mode", FK_RECOMPUTE, FW_WORD, FW_IS, FK_NONE, false, FW_RC_FULL, "full", 0 },
	/* Saving: off unless enabled; the folder is joined to the dump
	 * folder, which an absolute path replaces (os.path.join); with the
	 * folder holding saves, it loads the latest (load_step -1). */
	{ "--checkpoint.enable_checkpoint", FK_NONE, FW_SWITCH, FW_ALWAYS, FK_NONE, false, 0, NULL, FW_V(V02) },
	{ "--checkpoint.enable", FK_NONE, FW_SWITCH, FW_ALWAYS, FK_NONE, false, 0, NULL, FW_V(V03) },
	{ "--checkpoint.folder", FK_CHECKPOINTS, FW_DIR, FW_ALWAYS, FK_NONE, false, 0, NULL, 0 },
	{ "--checkpoint.interval", FK_SAVE_INTERVAL, FW_INT, FW_GIVEN, FK_NONE, false, 0, NULL, 0 },
};

static const struct fw_need needs[] = {
	{ "a training length", { "--training.steps" },
	  "its default is 10000 steps, whatever the tokens", 0, "model.tokens and model.seq_length" },
	{ "the model's config registry", { "--module" },
	  "ConfigManager._load_config raises ValueError: --module is required", FW_V(V03), NULL },
	{ "the recipe", { "--config" },
	  "ConfigManager._load_config raises ValueError: --config is required", FW_V(V03), NULL },
	{ "the model and its settings", { "--job.config_file", "--model.flavor" },
	  "without a job config file, the defaults train the llama3 debugmodel flavor", FW_V(V02), NULL },
};

static const struct fw_default defaults[] = {
	{ "--training.steps", "10000", "gen writes model.tokens / (global batch x seq_length)", 0 },
	{ "--training.seq_len", "2048", "model.seq_length; gen writes it when given", 0 },
	{ "--parallelism.data_parallel_shard_degree", "-1 (the ranks left over)", "gen writes DP", 0 },
	{ "--activation_checkpoint.mode", "selective", "gen writes the spec's training.recompute", 0 },
	{ "--checkpoint.enable", "off", "gen turns it on (0.2: --checkpoint.enable_checkpoint)", 0 },
	{ "--checkpoint.interval", "500", "gen writes the plan's interval", 0 },
};

/* A save is complete once DCP's writer has written the step's
 * .metadata, which is also what torchtitan looks for to load a step.
 * Its data loader keeps its position per data-parallel rank and refuses
 * another DP on load, so a resumption at another size leaves it out:
 * each rank then reads its new shard of the data from the start. */
#define SAVED_MARKER_SOURCE \
	"torchtitan/components/checkpoint.py (_create_checkpoint_id: step-N under the folder; a step loads when it has .metadata), " \
	"torch/distributed/checkpoint/filesystem.py (FileSystemWriter.finish writes .metadata)"
#define RESIZE_HOW \
	"its data loader's state is per data-parallel rank and refuses another DP (\"dp_degree is inconsistent before and after checkpoint, dataloader resharding is not supported yet\"), so at another size the job leaves it out of the load: the model and optimizer resume, and each rank reads its new shard of the data from the start"
#define RESIZE_SOURCE \
	"torchtitan/components/dataloader.py (ParallelAwareDataloader.load_state_dict), " \
	"components/checkpoint.py (exclude_from_loading)"

static const struct fw_checkpoint checkpoints[] = {
	{ .enable = "--checkpoint.enable_checkpoint", .save_dir = "--checkpoint.folder",
	  .interval = "--checkpoint.interval", .resumes_by_itself = true,
	  .signal_how = "it has no signal handler: a signal ends the process without a save",
	  .source = "torchtitan/config/job_config.py (Checkpoint) @ 000204a4", .versions = FW_V(V02),
	  .saved_marker = "step-*/.metadata", .saved_marker_source = SAVED_MARKER_SOURCE,
	  .resize_flag = "--checkpoint.exclude_from_loading", .resize_value = "dataloader",
	  .resize_how = RESIZE_HOW, .resize_source = RESIZE_SOURCE },
	{ .enable = "--checkpoint.enable", .save_dir = "--checkpoint.folder",
	  .interval = "--checkpoint.interval", .resumes_by_itself = true,
	  .signal_how = "it has no signal handler: a signal ends the process without a save",
	  .source = "torchtitan/components/checkpoint.py (CheckpointManager.Config, load_step -1: the latest) after #2386",
	  .versions = FW_V(V03),
	  .saved_marker = "step-*/.metadata", .saved_marker_source = SAVED_MARKER_SOURCE,
	  .resize_flag = "--checkpoint.exclude_from_loading", .resize_value = "dataloader",
	  .resize_how = RESIZE_HOW, .resize_source = RESIZE_SOURCE },
};

/* FSDP2 as torchtitan applies it over data_parallel_shard_degree (which
 * gen always writes): fp32 sharded parameters (training.dtype float32,
 * cast to bf16 for compute: mixed_precision_param), gradients reduced
 * and kept in fp32 (mixed_precision_reduce), and Adam's two fp32
 * moments, every part divided over the shard group, whatever the ZeRO
 * stage the spec names (JS4005 says so). */
static void bytes(int zero_stage, struct fw_bytes *out)
{
	(void)zero_stage;
	*out = (struct fw_bytes){
		.weights = 4, .grads = 4, .optim = 8,
		.weights_sharded = true, .grads_sharded = true, .optim_sharded = true,
		.how = "fp32 weights, fp32 gradients and Adam moments, all divided over the FSDP shard group: 16/d bytes",
		.source = "pytorch/torchtitan torchtitan/config/configs.py (TrainingConfig: dtype, mixed_precision_param, mixed_precision_reduce) <https://github.com/pytorch/torchtitan/blob/0014ac2ca45ae15db6706b4f5cc3e67546c98885/torchtitan/config/configs.py>",
	};
}

#define F(n, sw, v) { n, sizeof n - 1, sw, v }
#define B02 FW_V(V02)
#define B03 FW_V(V03)
#define BOTH (FW_V(V02) | FW_V(V03))
static const struct fw_known_flag known_flags[] = {
	/* 0.3's ConfigManager strips these two before the rest is parsed */
	F("--module", false, B03), F("--config", false, B03),
	F("--hf_assets_path", false, B03), F("--dump_folder", false, B03),
	/* 0.2: Job, Model, Optimizer, LRScheduler */
	F("--job.config_file", false, B02), F("--job.dump_folder", false, B02),
	F("--job.description", false, B02), F("--job.use_for_integration_test", true, B02),
	F("--job.print_args", true, B02),
	F("--model.name", false, B02), F("--model.flavor", false, B02),
	F("--model.tokenizer_path", false, B02), F("--model.converters", false, B02),
	F("--model.print_after_conversion", true, B02),
	F("--optimizer.name", false, B02), F("--optimizer.lr", false, B02),
	F("--optimizer.beta1", false, B02), F("--optimizer.beta2", false, B02),
	F("--optimizer.eps", false, B02), F("--optimizer.weight_decay", false, B02),
	F("--optimizer.implementation", false, B02), F("--optimizer.early_step_in_backward", true, B02),
	F("--lr_scheduler.warmup_steps", false, B02), F("--lr_scheduler.decay_ratio", false, B02),
	F("--lr_scheduler.decay_type", false, B02), F("--lr_scheduler.lr_min", false, B02),
	/* Training */
	F("--training.dataset", false, B02), F("--training.dataset_path", false, B02),
	F("--training.local_batch_size", false, BOTH), F("--training.global_batch_size", false, BOTH),
	F("--training.seq_len", false, BOTH), F("--training.max_norm", false, BOTH),
	F("--training.steps", false, BOTH), F("--training.enable_cpu_offload", true, BOTH),
	F("--training.dtype", false, B03),
	F("--training.mixed_precision_param", false, BOTH), F("--training.mixed_precision_reduce", false, BOTH),
	F("--training.compile", true, B02), F("--training.gc_freq", false, BOTH),
	F("--training.gc_debug", true, BOTH), F("--training.seed", false, B02),
	F("--training.deterministic", true, B02),
	/* Parallelism */
	F("--parallelism.data_parallel_replicate_degree", false, BOTH),
	F("--parallelism.enable_compiled_autograd", true, B02),
	F("--parallelism.data_parallel_shard_degree", false, BOTH),
	F("--parallelism.fsdp_reshard_after_forward", false, BOTH),
	F("--parallelism.enable_fsdp_symm_mem", true, B03),
	F("--parallelism.tensor_parallel_degree", false, BOTH),
	F("--parallelism.disable_loss_parallel", true, BOTH),
	F("--parallelism.enable_async_tensor_parallel", true, BOTH),
	F("--parallelism.enable_sequence_parallel", true, B03),
	F("--parallelism.full_dtensor", true, B03),
	F("--parallelism.pipeline_parallel_degree", false, BOTH),
	F("--parallelism.pipeline_parallel_split_points", false, B02),
	F("--parallelism.module_fqns_per_model_part", false, B03),
	F("--parallelism.pipeline_parallel_first_stage_less_layers", false, B03),
	F("--parallelism.pipeline_parallel_last_stage_less_layers", false, B03),
	F("--parallelism.pipeline_parallel_layers_per_stage", false, BOTH),
	F("--parallelism.pipeline_parallel_schedule", false, BOTH),
	F("--parallelism.pipeline_parallel_schedule_csv", false, BOTH),
	F("--parallelism.pipeline_parallel_microbatch_size", false, BOTH),
	F("--parallelism.context_parallel_degree", false, BOTH),
	F("--parallelism.context_parallel_load_balancer", false, B03),
	F("--parallelism.context_parallel_rotate_method", false, BOTH),
	F("--parallelism.expert_parallel_degree", false, BOTH),
	/* Checkpoint */
	F("--checkpoint.enable_checkpoint", true, B02), F("--checkpoint.enable", true, B03),
	F("--checkpoint.folder", false, BOTH), F("--checkpoint.interval", false, BOTH),
	F("--checkpoint.initial_load_path", false, BOTH),
	F("--checkpoint.initial_load_model_only", true, BOTH),
	F("--checkpoint.initial_load_in_hf", true, B03),
	F("--checkpoint.initial_load_in_hf_quantized", true, B03),
	F("--checkpoint.last_save_model_only", true, BOTH), F("--checkpoint.last_save_in_hf", true, BOTH),
	F("--checkpoint.export_dtype", false, BOTH), F("--checkpoint.create_seed_checkpoint", true, BOTH),
	F("--checkpoint.async_mode", false, BOTH), F("--checkpoint.keep_latest_k", false, BOTH),
	F("--checkpoint.load_step", false, BOTH), F("--checkpoint.exclude_from_loading", false, BOTH),
	F("--checkpoint.enable_first_step_checkpoint", true, BOTH), F("--checkpoint.load_only", true, B03),
	/* ActivationCheckpoint */
	F("--activation_checkpoint.mode", false, BOTH),
	F("--activation_checkpoint.selective_ac_option", false, B02),
	F("--activation_checkpoint.per_op_sac_force_recompute_mm_shapes_by_fqns", false, BOTH),
	F("--activation_checkpoint.early_stop", true, B03),
	F("--activation_checkpoint.memory_budget", false, B03),
	F("--activation_checkpoint.visualize_memory_budget_pareto", true, B03),
	F("--activation_checkpoint.preserve_rng_state", true, B03),
	F("--activation_checkpoint.determinism_check", false, B03),
	F("--activation_checkpoint.debug", true, B03),
	/* Comm, and 0.3's Compile and Debug */
	F("--comm.init_timeout_seconds", false, BOTH), F("--comm.train_timeout_seconds", false, BOTH),
	F("--comm.trace_buf_size", false, BOTH), F("--comm.save_traces_folder", false, BOTH),
	F("--comm.save_traces_file_prefix", false, B03), F("--comm.mode", false, B03),
	F("--compile.enable", true, B03), F("--compile.components", false, B03),
	F("--compile.backend", false, B03),
	F("--debug.seed", false, B03), F("--debug.deterministic", true, B03),
	F("--debug.deterministic_warn_only", true, B03), F("--debug.moe_force_load_balance", true, B03),
	F("--debug.detect_anomaly", true, B03), F("--debug.batch_invariant", true, B03),
	F("--debug.print_config", true, B03), F("--debug.save_config_file", false, B03),
	F("--debug.enable_structured_logging", true, B03),
};
#undef F
static const struct fw_known_table known = { known_flags, FW_N(known_flags) };

/* The parts of the command line the table holds in full: a flag there
 * that the version lacks is one it rejects. Sections it does not hold
 * (0.3's optimizer, dataloader, metrics...) are left alone. */
static const char *const covered[] = {
	"--module", "--config", "--job.", "--training.", "--parallelism.", "--checkpoint.",
	"--activation_checkpoint.", "--comm.", "--compile.", "--debug.", NULL,
};

const struct fw_def fw_def_torchtitan = {
	.name = "torchtitan", .title = "torchtitan",
	.versions = versions, .nversions = FW_N(versions),
	.flags = flags, .nflags = FW_N(flags),
	.expert_grid = FW_GRID_EP_IN_DP_CP_TP,
	.zero_stages = 1u << 3,
	.zero_how = "FSDP over --parallelism.data_parallel_shard_degree, as gen writes it, partitions parameters, gradients and optimizer state (stage 3)",
	.platforms = {
		.on = FW_ON_CUDA | FW_ON_NEURON,
		/* One cut-off, where Neuron's announcements name 2.28, 2.30 and
		 * 2.31 for native PyTorch training (a private beta then): the
		 * first release whose TorchTitan Neuron documentation supports
		 * it, beta since 2.33, on trn2 and trn3. */
		.neuron_first = { 2, 33, -1 },
		.neuron_first_why = "TorchTitan Neuron, on native PyTorch (TorchNeuron), is in beta since Neuron 2.33 on trn2 and trn3 (training/torchtitan/index)",
		.neuron_accels = 1u << ACCEL_TRAINIUM2 | 1u << ACCEL_TRAINIUM3,
		.neuron_ep_accels = 1u << ACCEL_TRAINIUM3,
		.neuron_ep_multiple = 4,
		.neuron_ep_why = "the Neuron EP backend (neuron_ep) runs on Trn3 at LNC 2 and not on Trn2, with EP groups of complete groups of four ranks (training/torchtitan/guides/how-to-use-ep-to-train-model)",
		.neuron_versions = FW_V(V03),
		.neuron_versions_why = "TorchTitan Neuron (aws-neuron/torchtitan-neuron) takes 0.3's command line (--module torchtitan_neuron.models... --config ...), not 0.2's TOML job config",
	},
	.needs = needs, .nneeds = FW_N(needs),
	.defaults = defaults, .ndefaults = FW_N(defaults),
	.checkpoints = checkpoints, .ncheckpoints = FW_N(checkpoints),
	.known = &known, .known_prefixes = covered, .known_any_dash = true,
	.known_source = "torchtitan/config/job_config.py @ 000204a4 (0.2); configs.py @ 0014ac2c, trainer.py @ 003fe280 and components/checkpoint.py (0.3)",
	.count = fw_count_decoder, .flops = fw_flops_palm, .bytes = bytes,
	.fully_sharded = true,
};
