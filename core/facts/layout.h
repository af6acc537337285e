/* The parallel layout of a training job and the invariants the
 * frameworks hold it to at start-up (docs/frameworks.md, "Layout
 * invariants"): one check for the plan (JS20xx) and the batch-script
 * rules (SB22xx). The check finds the faults and hands each, with the
 * numbers involved, to the caller, who words it and says where it is. */
#ifndef TF_LAYOUT_H
#define TF_LAYOUT_H

#include "frameworks.h"

/* 0 is unknown (a script that does not say), except where noted. */
struct layout {
	enum framework fw;
	long long world;                /* processes; 0: the checks that need it are skipped */
	long long tp, pp, vpp, cp, ep;  /* degrees; 0 reads as 1 */
	long long dp;                   /* an explicit data-parallel degree; <= 0: derived */
	long long micro, global;        /* global 0: micro x DP, every framework's default */
	long long layers, experts, heads, groups, seq;
};

enum layout_fault {
	LAYOUT_OK,
	/* the world's */
	LAYOUT_WORLD,          /* TP x PP x CP does not divide the world */
	LAYOUT_EXPERT_GRID,    /* EP x PP x TP does not divide the world */
	LAYOUT_DP,             /* an explicit DP that is not world / (TP x PP x CP) */
	LAYOUT_BATCH,          /* the global batch is not a multiple of micro x DP */
	LAYOUT_EXPERT_DP,      /* EP does not divide DP x CP x TP */
	/* the model's, whatever the world */
	LAYOUT_VPP_STAGES,     /* virtual stages without a pipeline of two stages or more */
	LAYOUT_VPP_SCHEDULE,   /* virtual stages in a framework that takes none */
	LAYOUT_LAYERS_PP,      /* layers do not split evenly into the stages */
	LAYOUT_LAYERS_VPP,     /* a stage's layers do not split into its virtual stages */
	LAYOUT_EP_NO_EXPERTS,  /* EP > 1 and no experts */
	LAYOUT_EXPERTS_EP,     /* experts do not divide among EP */
	LAYOUT_HEADS_TP,       /* attention heads do not divide among TP */
	LAYOUT_GROUPS_TP,      /* neither of query groups and TP divides the other */
	LAYOUT_SEQ_CP,         /* the sequence is not a multiple of 2 x CP */
	LAYOUT__COUNT
};

/* value is not a multiple of divisor (for LAYOUT_DP: value is the
 * explicit DP, divisor the derived one; for LAYOUT_EP_NO_EXPERTS: value
 * is 0 experts, divisor EP; for the virtual stages: value is VPP,
 * divisor PP). */
struct layout_finding {
	enum layout_fault fault;
	long long value, divisor;
};

typedef void layout_report_fn(void *ctx, const struct layout *l, const struct layout_finding *f);

/* Reports each fault of l, in the order of enum layout_fault; returns
 * how many. A world that TP x PP x CP does not divide has no DP, so the
 * faults that need one are not looked for. */
int layout_check(const struct layout *l, layout_report_fn *report, void *ctx);

/* Every fault of l, by kind, for callers whose rules look at several. */
struct layout_faults {
	unsigned set;                                /* bit per enum layout_fault */
	struct layout_finding at[LAYOUT__COUNT];
};
void layout_faults_find(const struct layout *l, struct layout_faults *out);
/* The finding of fault f, or NULL when l does not have it. */
const struct layout_finding *layout_faults_get(const struct layout_faults *fs,
					       enum layout_fault f);
/* The finding of the first of among (in that order) in fs, or NULL:
 * each caller has its own list of the faults that stop a world. */
const struct layout_finding *layout_faults_first(const struct layout_faults *fs,
						 const enum layout_fault *among, size_t n);

/* The derived sizes, 0 when unknown. */
long long layout_world_of(long long nodes, long long per_node);
long long layout_model(const struct layout *l);   /* TP x PP x CP */
long long layout_dp(const struct layout *l);      /* world / (TP x PP x CP) when whole */
long long layout_global(const struct layout *l);  /* the global batch, or micro x DP */
long long layout_micro_batches(const struct layout *l); /* global / (micro x DP) when whole */

#endif
