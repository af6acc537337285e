/* What interrupts a training run on EC2 and what it costs, as figures
 * with where each comes from: the notice before a spot instance is
 * reclaimed, how often spot capacity is reclaimed and how long it stays
 * away, how often a node fails on its own, and what a restart takes
 * besides loading the checkpoint. A figure no source gives is marked an
 * assumption, and the plan says so wherever it uses one
 * (docs/plan.md, "Checkpoints and interruptions"). */
#ifndef TF_INTERRUPTS_H
#define TF_INTERRUPTS_H

#include <stdbool.h>

struct interrupt_figure {
	double value;
	const char *unit;        /* "s", "per node-month", ... */
	const char *what;        /* for the plan's text */
	const char *source;      /* a document, or why it is an assumption */
	bool assumption;
};

enum interrupt_fact {
	/* EC2 gives a spot instance a two-minute notice, on a best-effort
	 * basis, and recommends polling for it every 5 seconds. */
	INT_SPOT_NOTICE,
	INT_SPOT_POLL,
	/* The fraction of spot nodes reclaimed in a month when the spec
	 * gives none (capacity.spot_interruption_rate). */
	INT_SPOT_RATE,
	/* How long reclaimed capacity stays away (capacity.spot_return_hours). */
	INT_SPOT_RETURN,
	/* Interruptions of a run by failures of its own nodes, per node-day. */
	INT_NODE_FAULTS,
	/* What a restart takes besides loading the checkpoint: processes,
	 * rendezvous, building the model (the compile cache warm). */
	INT_RESTART,
	/* The time the generated job leaves between a save on a reclaim
	 * notice and the instance's end: the unit's processes exit and
	 * Slurm ends their step. */
	INT_NOTICE_MARGIN,
	INT__COUNT
};

const struct interrupt_figure *interrupt_fact(enum interrupt_fact f);

#endif
