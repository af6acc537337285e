/* The plan: every number the generated files need, derived from the job
 * spec and the instance catalog, with the invariants of the chosen
 * framework checked. Findings point at spec lines. */
#ifndef TF_PLAN_H
#define TF_PLAN_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog.h"
#include "layout.h"
#include "spec.h"

/* A mixed fleet (gen/plan_fleet.c): the job is elastic between the
 * reserved nodes alone and reserved + spot; the plan's own nodes, DP and
 * micro-batches are the whole fleet's. */
struct plan_fleet {
	bool mixed;
	int reserved, spot, max_restarts;
	int min_world, min_dp, min_micro_batches; /* every spot node lost */
	int gap_total, gap_layout, gap_batch;     /* counts between that cannot train */
	int gap[8], gap_count;                    /* the first of them */
	long long batch_everywhere;               /* a global batch that divides at every count; 0 none */
};

struct plan_fleet_cost {
	double reserved_hour, spot_hour, total_hour, blended_node_hour; /* < 0 unknown */
	const char *reserved_how, *spot_how;
	int after_loss_nodes;                     /* where training goes on after one spot loss */
	double step_factor_one, step_factor_all;  /* step time over the full fleet's */
};

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
	const struct catalog_price *cb;   /* Capacity Block rate in the spec's region, or NULL */
	double cb_hour;                   /* whole cluster at that rate; < 0 unknown */
	const char *os;
	struct plan_fleet fleet;
};

/* Derives the plan; adds JS findings and returns false on any error. */
bool plan_derive(struct plan *p, const struct spec *spec, struct diag_list *diags);
/* The layout summary (`gen` prints it too); hours <= 0 leaves the run
 * cost out. plan_json_fields writes the summary's JSON members without
 * the braces, for plan_report_json. */
void plan_print_text(const struct plan *p, FILE *out, double hours);
void plan_print_json(const struct plan *p, FILE *out, double hours);
struct buf;
void plan_json_fields(const struct plan *p, struct buf *b, double hours);

/* The layout at a world of some nodes of the plan's processes, with its
 * faults: the planner checks its own world with it, and a mixed fleet
 * its smallest and every count between (gen/plan_fleet.c). */
struct plan_world {
	int nodes;
	int dp;                      /* 0 when TP x PP x CP does not divide the world */
	struct layout layout;
	struct layout_faults faults;
};
void plan_world_at(const struct plan *p, int nodes, struct plan_world *w);
/* The first fault that keeps the world from training at all (the
 * layout, the expert grid, the batch); LAYOUT_OK when it trains. */
enum layout_fault plan_world_stop(const struct plan_world *w);
/* Reports that fault at a mixed fleet's smallest world (JS2001, JS2009,
 * JS2003, at capacity.reserved); false when there is one. */
bool plan_check_smallest(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			 const struct plan_world *w);

/* The software the spec's nodes run (software:) against the instance
 * (gen/plan_software.c); false after an error finding. */
bool plan_software_check(const struct plan *p, const struct spec *spec, struct diag_list *diags);

/* The mixed fleet: plan_fleet_nodes before the node count is derived,
 * plan_fleet_check once the full fleet's layout and batch are known. */
bool plan_fleet_nodes(struct plan *p, const struct spec *spec, struct diag_list *diags);
bool plan_fleet_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
void plan_fleet_costs(const struct plan *p, struct plan_fleet_cost *c);
void plan_fleet_text(const struct plan *p, struct buf *b);
void plan_fleet_json(const struct plan *p, struct buf *b);
struct plan_est;
void plan_fleet_loss_text(const struct plan *p, const struct plan_est *e, struct buf *b);

/* ---- estimates (gen/plan_estimate.c) ------------------------------------
 * Time, memory, network and cost of the plan's layout on one instance
 * type. Every figure that needs an input the spec or the catalog lacks is
 * negative (unknown) and shown as such: nothing is filled in. */

#define PLAN_DEFAULT_UTILIZATION 0.4
#define PLAN_DEFAULT_RECOMPUTE RC_SELECTIVE

enum plan_price { PRICE_ON_DEMAND, PRICE_SPOT, PRICE_RESERVED, PRICE__COUNT };

struct plan_est {
	const struct instance_type *it;
	bool own;                 /* the spec's own type */
	int nodes, ppn, ranks, accels;
	bool whole_nodes;         /* ranks fill whole nodes */
	/* memory per rank, bytes */
	double params_rank;       /* P / (TP x PP); < 0 without model.parameters */
	double states[4];         /* weights + gradients + optimizer at ZeRO stage 0..3 */
	double weights, grads, optim; /* at the chosen stage */
	double act[4];            /* by enum recompute (act[RC_UNSET] unused); < 0 unknown */
	double act_used, total;   /* at the chosen recompute; total < 0 unknown */
	double capacity;          /* accelerator memory per rank; < 0 unknown */
	const char *capacity_source;
	int fits;                 /* 1 yes, 0 no, -1 unknown */
	/* time */
	double factor;            /* training FLOPs per parameter per token */
	double peak;              /* FLOP/s of one accelerator; < 0 unknown */
	double achieved;          /* FLOP/s of the cluster at the utilization */
	double total_flops, run_seconds, step_seconds, steps;
	/* network and pipeline, per rank per step */
	double net_bytes_per_s;   /* EFA bandwidth share of one rank */
	double grad_bytes, grad_seconds, pp_bytes, pp_seconds;
	double bubble;
	/* cost */
	double run_hours;         /* --hours, else the estimate; < 0 unknown */
	bool hours_from_flag;
	double hour[PRICE__COUNT], run_cost[PRICE__COUNT];
	double spot_assumed_hour; /* on demand x (1 - capacity.spot_discount); < 0 none */
	double usd_per_pflop_hour;
};

/* Estimates for it (the spec's own type when it is p->it); hours > 0 is
 * the run length of --hours. */
void plan_estimate(const struct plan *p, const struct instance_type *it, double hours,
		   struct plan_est *e);
const char *plan_price_name(enum plan_price k);
double plan_price_of(const struct instance_type *it, enum plan_price k, const char **source,
		     const char **date, const char **region);

/* ---- the report (gen/plan_report.c, gen/plan_svg.c) -------------------- */

struct plan_request {
	double hours;                           /* <= 0: not given */
	const struct instance_type *const *types; /* compared types; none: the spec's own */
	size_t ntypes;
};

void plan_report_text(const struct plan *p, const struct plan_request *rq, FILE *out);
void plan_report_json(const struct plan *p, const struct plan_request *rq, FILE *out);
/* A chart of run cost against run time per instance type; well-formed
 * SVG even when no type has both. */
void plan_report_svg(const struct plan *p, const struct plan_request *rq, FILE *out);

#endif
