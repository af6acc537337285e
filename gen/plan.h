/* The plan: every number the generated files need, derived from the job
 * spec and the instance catalog, with the invariants of the chosen
 * framework checked. Findings point at spec lines. */
#ifndef TF_PLAN_H
#define TF_PLAN_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog.h"
#include "spec.h"

struct plan {
	const struct job_spec *job;
	const struct instance_type *it;
	bool neuron, gpu;
	int nodes, ppn, lnc, world;
	int tp, pp, vpp, cp, ep, dp;
	int micro, global, micro_batches; /* micro-batches per step per DP rank */
	double bubble;                    /* pipeline bubble fraction */
	double grad_bytes;                /* gradient all-reduce bytes per step per rank; < 0 unknown */
	double price_hour;                /* whole cluster, on demand; < 0 unknown */
	const char *os;
};

/* Derives the plan; adds JS findings and returns false on any error. */
bool plan_derive(struct plan *p, const struct spec *spec, struct diag_list *diags);
/* `trainforge plan` output; hours <= 0 leaves the run cost out. */
void plan_print_text(const struct plan *p, FILE *out, double hours);
void plan_print_json(const struct plan *p, FILE *out, double hours);

#endif
