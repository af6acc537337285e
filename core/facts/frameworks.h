/* The training frameworks a job can name, as data: how each spells the
 * parallel layout on its entry point's command line, and the traits its
 * layout rules depend on (docs/frameworks.md). gen writes a script's
 * flags from this table and lint reads them back with it, so the two
 * cannot disagree on a spelling. */
#ifndef TF_FRAMEWORKS_H
#define TF_FRAMEWORKS_H

#include <stdbool.h>
#include <stddef.h>

enum framework { FW_PLAIN, FW_MEGATRON, FW_NXD, FW_TORCHTITAN, FW__COUNT };

/* The numbers (and the one path) a command line carries. */
enum fw_knob {
	FK_NONE,
	FK_TP, FK_PP, FK_VPP, FK_CP, FK_EP, FK_DP,
	FK_MICRO, FK_GLOBAL,
	FK_RANK_BATCH,     /* the batch of one data-parallel rank: global / DP */
	FK_MICRO_BATCHES,  /* micro-batches per step per data-parallel rank */
	FK_LAYERS, FK_HIDDEN, FK_HEADS, FK_GROUPS, FK_EXPERTS, FK_SEQ,
	FK_CHECKPOINTS,    /* the checkpoint directory */
	FK__COUNT
};

/* When gen writes a flag, judged on the value of the row's gate. */
enum fw_when {
	FW_ALWAYS,     /* every run states it */
	FW_ABOVE_ONE,  /* the gate is above 1: a size of 1 is the framework's default */
	FW_GIVEN,      /* the spec gives the gate (it is not 0) */
	FW_NEVER,      /* lint reads it; gen has no setting that writes it */
};

enum fw_form { FW_INT, FW_SWITCH, FW_DIR };

struct fw_flag {
	const char *flag;    /* as gen writes it; lint matches '-' and '_' alike */
	enum fw_knob knob;   /* the value it carries; FK_NONE for a switch */
	enum fw_form form;
	enum fw_when when;
	enum fw_knob gate;   /* whose value `when` looks at; FK_NONE: the knob's own */
	bool read;           /* lint's layout rules take its value (one flag a knob) */
};

/* How expert parallelism carves the world. */
enum fw_expert_grid {
	FW_GRID_EP_PP_TP,     /* EP x PP x TP divides the world (Megatron, NxD) */
	FW_GRID_EP_IN_DP_CP_TP, /* EP divides DP x CP x TP (torchtitan) */
};

struct fw_def {
	const char *name;             /* the job spec's framework value */
	const char *title;            /* as its authors write it, for messages */
	const struct fw_flag *flags;  /* in the order gen writes them */
	size_t nflags;
	bool virtual_stages;          /* takes a count of virtual pipeline stages (interleaved 1F1B) */
	bool even_stages;             /* layers must split evenly into the pipeline stages */
	enum fw_expert_grid expert_grid;
	bool batch_per_rank;          /* its batch flag is per data-parallel rank */
	bool cuda_max_connections;    /* needs CUDA_DEVICE_MAX_CONNECTIONS=1 with TP or CP > 1 before Blackwell */
	const char *refused_dp_flag;  /* a data-parallel flag people pass that it rejects; NULL */
};

const struct fw_def *fw_def(enum framework f);
const char *fw_name(enum framework f);
/* The first flag of f that carries knob k, or NULL. */
const struct fw_flag *fw_flag(enum framework f, enum fw_knob k);
/* The flag lint reads knob k from in f's scripts, or NULL. */
const struct fw_flag *fw_read_flag(enum framework f, enum fw_knob k);
/* Whether gen writes f, given the plan's value of every knob. */
bool fw_flag_written(const struct fw_flag *f, const long long value[FK__COUNT]);

#endif
