/* The training frameworks a job can name. Each has a file of its own
 * (megatron.c, nxd.c, torchtitan.c, plain.c) that holds everything known
 * of it, cited to the commit or release it was read at: its versions,
 * the platforms and Neuron releases that run it, how it spells each flag
 * gen writes, the arguments it cannot start without, the defaults of its
 * that differ from what a plan assumes, how it saves and resumes, its
 * memory convention and its FLOP convention (docs/frameworks.md). gen's
 * plan and renderer and lint's framework rules all read it through this
 * header, so the two cannot disagree on a spelling or a figure. */
#ifndef TF_FRAMEWORKS_H
#define TF_FRAMEWORKS_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "neuron.h"

enum framework { FW_PLAIN, FW_MEGATRON, FW_NXD, FW_TORCHTITAN, FW__COUNT };

/* ---- versions -------------------------------------------------------------
 * A framework's version is a target like ParallelCluster's
 * (`--target megatron=0.20`, `target: {torchtitan: "0.2"}`). Each
 * framework knows a few versions, oldest first; the last is the pinned
 * default. A fact that holds in some versions only carries them as a set
 * (bit i: the version at index i; 0: every version). */

#define FW_VERSIONS_MAX 8
#define FW_ALL_VERSIONS 0u
#define FW_V(i) (1u << (i))

struct fw_version {
	const char *name;    /* as --target takes it: "0.20" */
	const char *alias;   /* another spelling it takes (a short commit), or NULL */
	const char *title;   /* for messages: "Megatron-LM 0.20 (d98e8a6)" */
	const char *source;  /* where its facts were read */
	const char *changed; /* what changed in its command line from the version before, or NULL */
};

size_t fw_version_count(enum framework f);
const struct fw_version *fw_version_at(enum framework f, size_t i);
/* The pinned default: the newest version the facts were read at. */
size_t fw_version_default(enum framework f);
/* The index of the version s[0..len) names (its name or alias), or -1. */
int fw_version_find(enum framework f, const char *s, size_t len);
/* Whether a fact tagged with the set `versions` holds at version v. */
bool fw_in_version(unsigned versions, size_t v);
/* The framework a --target key or a spec's framework value names:
 * s[0..len) is its name; false when none. */
bool fw_from_name(const char *s, size_t len, enum framework *out);

/* ---- the numbers (and the one path) a command line carries ------------- */

enum fw_knob {
	FK_NONE,
	FK_TP, FK_PP, FK_VPP, FK_CP, FK_EP, FK_DP,
	FK_MICRO, FK_GLOBAL,
	FK_RANK_BATCH,     /* the batch of one data-parallel rank: global / DP */
	FK_MICRO_BATCHES,  /* micro-batches per step per data-parallel rank */
	FK_LAYERS, FK_HIDDEN, FK_HEADS, FK_GROUPS, FK_EXPERTS, FK_SEQ,
	FK_CHECKPOINTS,    /* the checkpoint directory */
	FK_ZERO,           /* the ZeRO stage the plan assumes, 0-3 */
	FK_RECOMPUTE,      /* the recomputation it assumes: enum fw_recompute */
	FK_FFN,            /* the dense feed-forward size */
	FK_EXPERT_FFN,     /* one expert's feed-forward size */
	FK_TOPK,           /* experts per token */
	FK_VOCAB,          /* the vocabulary, before the framework pads it */
	FK_GATED,          /* 1: a gated (SwiGLU) feed-forward block */
	FK_UNTIED,         /* 1: the output layer has weights of its own */
	FK_TRAIN_SAMPLES,  /* sequences to train on: model.tokens / seq_length */
	FK_TRAIN_STEPS,    /* optimizer steps: samples / global batch */
	FK_SAVE_INTERVAL,  /* steps between periodic saves */
	FK_KV_REPLICATOR,  /* NxD: how often each KV head is repeated so that TP divides them */
	FK__COUNT
};

/* FK_RECOMPUTE's values: the plan's activation recomputation. */
enum fw_recompute { FW_RC_NONE = 1, FW_RC_SELECTIVE, FW_RC_FULL };

/* When gen writes a flag, judged on the value of the row's gate. */
enum fw_when {
	FW_ALWAYS,     /* every run states it */
	FW_ABOVE_ONE,  /* the gate is above 1: a size of 1 is the framework's default */
	FW_GIVEN,      /* the spec gives the gate (it is not 0) */
	FW_NEVER,      /* lint reads it; gen has no setting that writes it */
	FW_IS,         /* the gate equals the row's `is` */
	FW_AT_LEAST,   /* the gate is `is` or more */
	FW_AGAINST,    /* never written: in entry.args it contradicts what the plan assumes */
};

/* FW_WORD: a fixed value, the row's `word` (a recompute mode). */
enum fw_form { FW_INT, FW_SWITCH, FW_DIR, FW_WORD };

struct fw_flag {
	const char *flag;    /* as gen writes it; lint matches '-' and '_' alike */
	enum fw_knob knob;   /* the value it carries; FK_NONE for a switch */
	enum fw_form form;
	enum fw_when when;
	enum fw_knob gate;   /* whose value `when` looks at; FK_NONE: the knob's own */
	bool read;           /* lint's layout rules take its value (one flag a knob) */
	long long is;        /* FW_IS, FW_AT_LEAST: the gate's value */
	const char *word;    /* FW_WORD: the value written */
	unsigned versions;   /* the versions that define it (FW_ALL_VERSIONS: all) */
};

/* ---- platforms ---------------------------------------------------------- */

enum fw_platform_bits { FW_ON_CUDA = 1u << 0, FW_ON_NEURON = 1u << 1 };

/* Where a framework runs, as its authors and Neuron's documents say. */
struct fw_platforms {
	unsigned on;                       /* FW_ON_* */
	const char *cuda_only_why;         /* on = FW_ON_CUDA: why not on Neuron (for JS4007) */
	/* On Neuron: the SDK releases that support it (a zero major: no
	 * bound), the accelerators (bit per enum accel_kind; 0: any), and
	 * where that comes from. */
	struct neuron_version neuron_first, neuron_last;
	unsigned neuron_accels;
	const char *neuron_first_why, *neuron_last_why;
	/* Expert parallelism on Neuron: the accelerators it runs on (0:
	 * wherever the framework does), the EP multiple it needs there, and
	 * why. */
	unsigned neuron_ep_accels;
	int neuron_ep_multiple;
	const char *neuron_ep_why;
	/* The versions of it that run on Neuron (a fork may follow one
	 * generation of its command line only); FW_ALL_VERSIONS: all. */
	unsigned neuron_versions;
	const char *neuron_versions_why;
};

/* ---- arguments it cannot start without ---------------------------------- */

/* A thing the entry point needs that gen cannot know (a learning rate, a
 * tokenizer, the data): any one of `flags` in the line gives it. */
#define FW_NEED_FLAGS 6
struct fw_need {
	const char *what;                   /* "a learning rate" */
	const char *flags[FW_NEED_FLAGS];   /* NULL-terminated when shorter */
	const char *why;                    /* what happens without it, and where that is */
	unsigned versions;
	const char *spec;                   /* the spec keys gen writes one of them from; NULL: entry.args only */
};

/* ---- its defaults that differ from what a plan assumes ------------------ */

struct fw_default {
	const char *flag;      /* the flag that sets it */
	const char *theirs;    /* the framework's default: "2" */
	const char *plan;      /* what the plan assumes instead, and whether gen writes it */
	unsigned versions;
};

/* ---- saving and resuming -----------------------------------------------
 * The spellings a line that saves periodically, saves on a signal and
 * resumes from its latest checkpoint needs. NULL: the framework has none. */
struct fw_checkpoint {
	const char *save_dir;        /* the directory it saves into */
	const char *load_dir;        /* the directory it resumes from (the same as save_dir: NULL) */
	const char *enable;          /* a switch that turns saving on at all */
	const char *interval;        /* steps between periodic saves */
	const char *resume;          /* a flag that makes it resume from the latest save */
	const char *resume_value;    /* its value */
	bool resumes_by_itself;      /* it loads the latest save in its directory with no flag */
	bool interval_required;      /* a save directory without an interval stops it at start-up */
	const char *signal_switch;   /* the switch that makes it save and exit on a signal */
	const char *signal_flag;     /* the flag that names that signal */
	int signal_default;          /* the signal it handles when signal_flag is not given; 0: none */
	const char *signal_how;      /* what it does on the signal, for messages */
	const char *source;
	unsigned versions;
	/* The signal gen asks it to save on (signal_flag's value, and what
	 * the spot watcher and the job send): a name as signal_flag takes
	 * it and its number; NULL and 0 when it saves on no signal. */
	const char *signal_written;
	int signal_number;
	const char *signal_source;   /* how the flag takes a signal */
	/* A file a save writes last, as a glob under the save directory: it
	 * is newer once a save is complete (the generated job waits for one
	 * before it restarts the workers at another size). NULL: none known. */
	const char *saved_marker;
	const char *saved_marker_source;
	/* What a line needs to resume at a data-parallel size other than the
	 * one that saved: a flag and its value, written only then; NULL when
	 * its checkpoint loads at any DP (resize_how says so and why). */
	const char *resize_flag, *resize_value;
	const char *resize_how;
	const char *resize_source;
};

/* A checkpoint holds the weights and the optimizer state, not the
 * gradients: bytes per parameter by the framework's convention
 * (weights + optimizer of fw_state_bytes), the same at every ZeRO stage
 * since sharding divides the state without changing its total. */
double fw_checkpoint_bytes_per_param(enum framework f, int zero_stage);

/* A signal by the names people write it: "SIGUSR1", "USR1" or "10"
 * (Slurm's --signal, kill, Python's signal.Signals), s[0..len); 0 when
 * none. fw_signal_name: "SIGUSR1" for 10; NULL for one it does not know. */
int fw_signal_number(const char *s, size_t len);
const char *fw_signal_name(int sig);

/* ---- memory --------------------------------------------------------------
 * Bytes per parameter for weights, gradients and optimizer state, as the
 * line gen writes for a ZeRO stage runs: each part either on every rank
 * of its data-parallel group or divided over it. */
struct fw_bytes {
	double weights, grads, optim;
	bool weights_sharded, grads_sharded, optim_sharded;
	const char *how;     /* "bf16 weights, fp32 gradients, ..." */
	const char *source;
};
void fw_state_bytes(enum framework f, int zero_stage, struct fw_bytes *out);
/* Bytes per parameter on one rank of a data-parallel group of dp ranks. */
double fw_bytes_per_param(const struct fw_bytes *b, double dp);

/* ---- the model a shape builds --------------------------------------------
 * A decoder-only transformer as the spec gives it. 0: not given. */
struct fw_shape {
	long long layers, hidden, heads, groups, ffn, expert_ffn, experts, topk, vocab, seq;
	bool gated, untied;
	long long tp;        /* the vocabulary padding depends on it (Megatron) */
};

/* The FFN size a shape means: its own, else the default every framework
 * here builds with: 4 x hidden, and for a gated block 8/3 x hidden
 * rounded down to a multiple of 64 (Megatron-LM's arguments.py). 0 when
 * the hidden size is not given either. */
long long fw_ffn_size(const struct fw_shape *s);

/* Parameters by where they live, by the framework's own accounting. */
struct fw_params {
	double total, active;        /* every parameter; those one token passes through */
	double embedding;            /* the input embedding (and the output layer when untied) */
	double output;               /* the output layer's own weights (0 when tied) */
	double dense_layers;         /* every layer's attention, norms, dense FFN and router */
	double replicated;           /* of those, what TP does not divide: norms and routers */
	double expert_layers;        /* every layer's routed experts */
	double padded_vocab;         /* the vocabulary as the framework pads it */
	const char *accounting;      /* whose formula: "Megatron-LM's theoretical_memory_usage.py" */
	const char *source;          /* the document it is from, ending in <URL> */
};
/* False (out untouched) when the shape lacks layers, hidden or heads, or
 * the framework builds no model of its own from a shape (plain). */
bool fw_count_params(enum framework f, const struct fw_shape *s, struct fw_params *out);

/* Model FLOPs per token for one training step (forward and backward),
 * by the framework's own convention: the matrix multiplies of the
 * active parameters and the attention over the sequence; recomputation
 * is not counted (it is what its logs call MFU). */
struct fw_flops {
	double per_token;
	double dense;                /* 6 x the active matmul parameters */
	double attention;            /* the sequence-dependent part */
	const char *convention;      /* for messages and docs */
};
bool fw_flops_per_token(enum framework f, const struct fw_shape *s, const struct fw_params *p,
			struct fw_flops *out);

/* The parameters and their training state on the most loaded rank of a
 * layout, by the framework's sharding: the first pipeline stage holds
 * the input embedding (and, with one stage, the output layer), dense
 * weights divide over TP, experts over EP x TP (Megatron's expert
 * tensor-parallel size is TP's), and the state divides over the
 * data-parallel group of each (experts: the ranks that hold the same
 * experts). */
struct fw_layout { long long world, tp, pp, cp, ep, dp; };
struct fw_rank_state {
	double dense, expert;        /* parameters of the rank's slice (before any data-parallel sharding) */
	double dense_dp, expert_dp;  /* the group each one's state divides over (or FSDP shards it over) */
	double weights, grads, optim; /* bytes */
	double bytes;                /* the three together */
};
void fw_rank_state(enum framework f, const struct fw_shape *s, const struct fw_params *p,
		   const struct fw_layout *l, int zero_stage, struct fw_rank_state *out);

/* ---- a framework -------------------------------------------------------- */

/* How expert parallelism carves the world. */
enum fw_expert_grid {
	FW_GRID_EP_PP_TP,       /* EP x PP x TP divides the world (Megatron, NxD) */
	FW_GRID_EP_IN_DP_CP_TP, /* EP divides DP x CP x TP (torchtitan) */
};

/* A flag lint knows the version defines, with whether it is a switch. */
struct fw_known_flag {
	const char *name;    /* "--log-interval", "--training.steps" */
	size_t len;
	bool is_switch;
	unsigned versions;
};

struct fw_known_table {
	const struct fw_known_flag *flags;
	size_t n;
};

struct fw_def {
	const char *name;             /* the job spec's framework value */
	const char *title;            /* as its authors write it, for messages */
	const struct fw_version *versions;
	size_t nversions;
	const struct fw_flag *flags;  /* in the order gen writes them */
	size_t nflags;
	bool virtual_stages;          /* takes a count of virtual pipeline stages (interleaved 1F1B) */
	bool even_stages;             /* layers must split evenly into the pipeline stages */
	enum fw_expert_grid expert_grid;
	bool batch_per_rank;          /* its batch flag is per data-parallel rank */
	bool cuda_max_connections;    /* needs CUDA_DEVICE_MAX_CONNECTIONS=1 with TP or CP > 1 before Blackwell */
	const char *refused_dp_flag;  /* a data-parallel flag people pass that it rejects; NULL */
	/* The ZeRO stages its written flags run as the plan assumes (bit
	 * N: stage N); 0: gen writes none, the entry point decides. */
	unsigned zero_stages;
	const char *zero_how;         /* what its flags do, for JS4005 */
	struct fw_platforms platforms;
	const struct fw_need *needs;
	size_t nneeds;
	const struct fw_default *defaults;
	size_t ndefaults;
	const struct fw_checkpoint *checkpoints; /* one per version set */
	size_t ncheckpoints;
	/* Every flag its command line defines (sorted by name), for lint:
	 * a flag outside it is one the version does not define. The
	 * prefixes say which part of the command line the table covers in
	 * full (torchtitan's known sections); NULL: all of it. */
	const struct fw_known_table *known;
	const char *const *known_prefixes;
	bool known_ignores_unknown;   /* the entry point drops flags it does not know (parse_known_args) */
	bool known_any_dash;          /* its parser takes '-' and '_' alike in a flag */
	const char *known_source;
	/* Its accounting: parameters by shape, model FLOPs per token, and
	 * bytes per parameter at a ZeRO stage. */
	bool (*count)(const struct fw_shape *s, struct fw_params *out);
	void (*flops)(const struct fw_shape *s, const struct fw_params *p, struct fw_flops *out);
	void (*bytes)(int zero_stage, struct fw_bytes *out);
	/* FSDP over every data-parallel and context-parallel rank of a
	 * stage, experts included (torchtitan): a rank holds a stage's
	 * parameters over TP x DP x CP. */
	bool fully_sharded;
};

const struct fw_def *fw_def(enum framework f);
const char *fw_name(enum framework f);
/* The first flag of f that carries knob k, or NULL. */
const struct fw_flag *fw_flag(enum framework f, enum fw_knob k);
/* The flag lint reads knob k from in f's scripts, or NULL. */
const struct fw_flag *fw_read_flag(enum framework f, enum fw_knob k);
/* Whether gen writes f, given the plan's value of every knob. */
bool fw_flag_written(const struct fw_flag *f, const long long value[FK__COUNT]);
/* Whether version v of the framework defines row f. */
bool fw_flag_at_version(const struct fw_flag *f, size_t v);
/* How f saves and resumes at version v (NULL: it does neither). */
const struct fw_checkpoint *fw_checkpoint(enum framework f, size_t v);
/* The flag f's version v defines under the name name[0..len) ('-' and
 * '_' alike), or NULL; fw_known_covers: whether the table covers that
 * name at all (a torchtitan section it knows in full). */
const struct fw_known_flag *fw_known_find(enum framework f, size_t v, const char *name, size_t len);
bool fw_known_covers(enum framework f, const char *name, size_t len);
/* The flag of f's version v that name (outside the table) misspells: the
 * same but for '-' and '_', or one edit away (two for names of sixteen
 * characters or more) with no other as near; NULL when none. */
const struct fw_known_flag *fw_known_near(enum framework f, size_t v, const char *name);

/* Whether version v of f runs on instance it with Neuron SDK release
 * sdk (NULL: not given); when not, why (a sentence without a final
 * stop, into why). */
enum fw_runs { FW_RUNS, FW_RUNS_NOT_ON_PLATFORM, FW_RUNS_NOT_ON_ACCEL, FW_RUNS_RELEASE_TOO_OLD,
	       FW_RUNS_RELEASE_TOO_NEW, FW_RUNS_NOT_THIS_VERSION };
enum fw_runs fw_runs_on(enum framework f, size_t v, const struct instance_type *it,
			const struct neuron_version *sdk, char *why, size_t cap);
/* Whether f's expert parallelism of size ep runs on it (Neuron only
 * restricts it); when not, why. */
bool fw_ep_runs_on(enum framework f, const struct instance_type *it, long long ep, char *why, size_t cap);
/* What does run on a Neuron instance it (for a refusal's help). */
void fw_neuron_alternatives(const struct instance_type *it, char *buf, size_t cap);

#endif
