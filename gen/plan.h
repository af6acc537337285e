/* The plan: every number the generated files need, derived from the job
 * spec and the instance catalog, with the invariants of the chosen
 * framework checked. Findings point at spec lines. */
#ifndef TF_PLAN_H
#define TF_PLAN_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog.h"
#include "layout.h"
#include "prices.h"
#include "spec.h"

struct buf;

/* ---- prices (gen/plan_price.c) --------------------------------------------
 * A price is used only for the region it is for: a type the catalog
 * prices elsewhere gets no figure, and the catalog's price in the
 * nearest region is kept apart, labelled, for the reader. A price is the
 * spec's own (capacity.prices, for its own instance type), else the
 * newer of the built-in catalog's and the user's imported ones
 * (core/facts/prices.h), else, for reserved and spot, on demand less the
 * user's discount; never two of them silently. */

enum plan_price { PRICE_ON_DEMAND, PRICE_CAPACITY_BLOCK, PRICE_RESERVED, PRICE_SPOT, PRICE__COUNT };

/* RATE_CATALOG: built in; RATE_IMPORTED: from the user's price store;
 * RATE_USER: a figure the user gave (capacity.prices, a TCO file). */
enum rate_from { RATE_NONE, RATE_CATALOG, RATE_DISCOUNT, RATE_USER, RATE_IMPORTED };

struct plan_rate {
	enum plan_price kind;
	double usd;                  /* one node-hour in the region; < 0 unknown */
	enum rate_from from;
	const char *region;          /* the region asked for */
	const char *source;          /* RATE_CATALOG, RATE_IMPORTED */
	struct price price;          /* RATE_CATALOG, RATE_IMPORTED: with its dates and origin */
	double discount;             /* RATE_DISCOUNT: from on demand */
	const char *assumption;      /* RATE_DISCOUNT, RATE_USER, a discount without a base: the key */
	/* The catalog's rate in the nearest region that has one (shown as
	 * its own figure, never used in costs); other_usd < 0: none. */
	double other_usd;
	const char *other_region, *other_date, *other_source;
};

/* What the user assumes: discounts in (0, 1), 0 when not given, each
 * with the key that gave it; prices the user knows. */
struct plan_price_inputs {
	const char *region;
	double reserved_discount, spot_discount;
	const char *reserved_key, *spot_key;
	double on_demand_usd;        /* the user's own on-demand rate (> 0), when the catalog has none */
	const char *on_demand_key;
	/* the spec's own prices per node-hour (> 0; 0 not given), for its own
	 * type only: another type's prices are its own */
	const char *own_type;
	double user_usd[PRICE__COUNT];
	const char *user_key[PRICE__COUNT];
	/* which reserved offer prices the reserved nodes */
	enum price_term reserved_term; /* TERM_RESERVED or TERM_SAVINGS_PLAN */
	struct price_offer reserved_offer;
};

void plan_price_inputs_of(const struct job_spec *j, struct plan_price_inputs *in);
void plan_rates(const struct instance_type *it, const struct plan_price_inputs *in,
		struct plan_rate r[PRICE__COUNT]);
const char *plan_price_name(enum plan_price k);
const char *plan_price_key(enum plan_price k); /* its JSON key: "onDemand", ... */
const char *plan_rate_from_name(enum rate_from f);
/* Where a rate came from and how old it is, or why there is none (text),
 * and its JSON members (gen/plan_report.c). */
void plan_rate_text(const struct plan_rate *r, struct buf *b);
/* "on demand" or the reserved offer: "1-year no-upfront standard Reserved Instance". */
void plan_rate_offer(const struct plan_rate *r, char *buf, size_t cap);
/* RATE_NONE: what is missing, into buf; "" otherwise. */
void plan_rate_why(const struct plan_rate *r, char *buf, size_t cap);
void plan_rate_json(const struct plan_rate *r, struct buf *b);

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
	/* The spot nodes join and leave in units of unit nodes (units of
	 * them, one hetjob component and one srun step each): the smallest
	 * divisor of spot at which reserved + k x unit trains for every k.
	 * The whole spot queue when no smaller one does (docs/jobspec.md,
	 * "Mixed fleet"). */
	int unit, units;
	int layout_unit;                          /* the same, the batch aside */
	long long batch_for_units;                /* a global batch that allows layout_unit; 0 none */
};

struct plan_fleet_cost {
	double reserved_hour, spot_hour, total_hour, blended_node_hour; /* < 0 unknown */
	const char *reserved_how, *spot_how;
	int after_loss_nodes;                     /* where training goes on after one spot unit is lost */
	double step_factor_one, step_factor_all;  /* step time over the full fleet's */
};

/* Checkpoints as a planned quantity and what interruptions cost
 * (gen/plan_survival.c): the checkpoint's size by the framework's byte
 * convention, one save's time at the shared storage's write
 * throughput, the interruptions expected (the nodes' own faults, spot
 * reclaims), the interval between saves, what a reclaim notice can save
 * and what a reclaim loses at most, and for a mixed fleet the deadline
 * question. Seconds throughout; a figure < 0 is unknown. */
struct plan_survival {
	const struct fw_checkpoint *ckpt;  /* NULL: the framework saves nothing gen knows of (plain) */
	double params, bytes_per_param, bytes;
	double write_bps;
	const char *write_how, *write_source;
	double save_s, load_s;             /* one save; one load, at the same throughput (an assumption) */
	double steps, step_s;              /* the run's steps and one step at the full size */
	double fault_rate, reclaim_rate;   /* per second: the nodes' own faults; reclaims that stop training */
	double spot_rate;                  /* spot nodes reclaimed per month, as used */
	bool spot_rate_given;
	double spot_return_s;
	bool spot_return_given;
	double mtbi_s;                     /* mean time between interruptions */
	double interval_s;                 /* training between saves */
	bool interval_given;               /* checkpoint.interval_minutes */
	const char *interval_guess;        /* why it is not derived (the line then gets interval_steps anyway); NULL */
	long long interval_steps;          /* what the line saves every; 0 none */
	double save_share;                 /* of the run's time spent saving */
	/* a reclaim notice */
	bool spot;                         /* a mixed fleet or capacity.type spot */
	bool signal_save;                  /* the framework saves on a signal (the line asks for it) */
	double notice_need_s;              /* poll + a step + a save + the margin */
	bool notice_saves;                 /* the watcher asks for a save on a notice: it fits */
	double reclaim_loss_s;             /* training a reclaim loses at most */
	double restart_s;                  /* starting again: the processes and loading the checkpoint */
	/* the run's time */
	double limit_s;                    /* time_limit; < 0 none */
	double full_s;                     /* every step at the full size, with the save pauses */
	double reserved_s;                 /* every step at the reserved size alone (mixed fleet) */
	double step_factor;                /* reserved over full step time */
	/* A reclaim whose capacity never returns, at a time in [risk_from_s,
	 * risk_to_s) of the run, ends it past the limit (the worst case:
	 * it loses all the training since the last periodic save); both
	 * < 0 when no reclaim does, or unknown. */
	double risk_from_s, risk_to_s;
	/* The reclaim that ends the run latest, capacity never back: at the
	 * time the most training is lost (worst_at_s), finishing at
	 * worst_finish_s; both < 0 when unknown. */
	double worst_at_s, worst_finish_s;
	double expected_s;                 /* the expected finish at the rates */
	double expected_reclaims, expected_faults;
};

/* The model as the framework builds it (gen/plan_model.c): its counts
 * by the framework's own accounting when the spec gives the shape, else
 * as the spec states them; its FLOPs per token; the training length and
 * the interval between saves the line is written with. */
struct plan_model {
	bool from_shape;             /* layers, hidden and heads given: counted from the shape */
	struct fw_shape shape;
	struct fw_params counts;     /* from_shape */
	double parameters, active;   /* the plan's figures; < 0 unknown */
	struct fw_flops flops;       /* model FLOPs per token; flops.per_token < 0: unknown */
	bool flops_with_attention;   /* sequence, layers and hidden given */
	double hw_factor;            /* hardware over model FLOPs: 4/3 when full recomputation runs the forward again */
	long long samples, steps;    /* the training length: model.tokens / seq_length, / global batch; 0 unknown */
	double step_seconds;         /* at the plan's utilization; < 0 unknown */
	long long save_interval;     /* steps between periodic saves; 0 none */
	long long kv_replicator;     /* NxD: TP / gcd(TP, query groups); 0 not needed */
};

/* How the Neuron SDK reaches the compute nodes (gen/plan_boot.c,
 * docs/jobspec.md, "Neuron on ParallelCluster"). The head node has no
 * Neuron device and gets none of it. */
enum neuron_route {
	ROUTE_NONE,    /* not a Neuron instance, or no route (JS3002, JS3003) */
	ROUTE_AMI,     /* cluster.ami carries it */
	ROUTE_PENDING, /* software.neuron_image without cluster.ami: the image comes first */
	ROUTE_SCRIPT,  /* Neuron's install script at every boot */
};

/* What the generated cluster is made of beyond the layout: the Neuron
 * route, the scripts gen asks it to run, its network, storage and name
 * (gen/plan_boot.c, gen/plan_cluster.c, gen/plan_container.c). */
struct plan_cluster {
	enum neuron_route route;
	bool extrapolated;           /* ROUTE_SCRIPT at a path no sample shows */
	bool image;                  /* gen writes NAME-image.yaml */
	int root_volume_gib;         /* the compute nodes' root volume; 0: ParallelCluster's default */
	bool pyxis;                  /* a container: Pyxis's set-up scripts */
	bool scripts;                /* gen writes scripts the cluster fetches (watcher, Pyxis) */
	enum deletion_policy deletion; /* of a storage gen creates; DP_DEFAULT for an existing one */
	int network_cards;           /* > 1 several, 1 one, -1 unknown (the catalog's EFA interfaces) */
	size_t name_max;             /* the longest cluster name the node names allow */
	bool static_reserved;        /* the reserved (or only) queue's nodes are static: a reservation */
	int fits;                    /* memory: 1 fits, 0 does not, -1 unknown */
};

struct plan {
	const struct job_spec *job;
	size_t fw_version;                /* the framework's version (target.h), an index of its table */
	struct plan_model model;
	const struct instance_type *it;
	bool neuron, gpu;
	int nodes, ppn, lnc, world;
	int tp, pp, vpp, cp, ep, dp;
	int micro, global, micro_batches; /* micro-batches per step per DP rank */
	double bubble;                    /* pipeline bubble fraction */
	double grad_bytes;                /* gradient all-reduce bytes per step per rank; < 0 unknown */
	double price_hour;                /* whole cluster, on demand; < 0 unknown */
	double cb_hour;                   /* whole cluster at the Capacity Block rate; < 0 unknown */
	struct plan_rate rate[PRICE__COUNT]; /* one node of the spec's type in its region */
	const char *os;
	struct plan_fleet fleet;
	struct plan_survival survival;
	struct plan_cluster cl;
	bool derived;                     /* the layout and its estimates stand, whatever the
					   * cluster's checks found */
};

/* Derives the plan; adds JS findings and returns false on any error. */
bool plan_derive(struct plan *p, const struct spec *spec, struct diag_list *diags);
/* The layout summary (gen/plan_summary.c; `gen` prints it too); hours
 * <= 0 leaves the run cost out. plan_json_fields writes the summary's
 * JSON members without the braces, for plan_report_json. */
void plan_print_text(const struct plan *p, FILE *out, double hours);
void plan_print_json(const struct plan *p, FILE *out, double hours);
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
/* Neuron's ParallelCluster install script for the spec's software.neuron
 * on the plan's OS, appended to url; false unless the route is
 * ROUTE_SCRIPT. */
struct buf;
bool plan_neuron_install(const struct plan *p, struct buf *url);

/* ---- the cluster around the job (gen/plan_boot.c, gen/plan_cluster.c,
 * gen/plan_container.c, gen/plan_runnable.c) ------------------------------
 * Each adds its JS50xx findings; false after an error. Not run for the
 * layouts plan --compare tries. */
bool plan_boot_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
bool plan_cluster_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
bool plan_container_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
bool plan_runnable_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
/* The URL the cluster fetches one of gen's scripts from (file is its
 * name, NAME-spot-watcher.sh), appended to url; false without
 * cluster.bootstrap. */
bool plan_bootstrap_url(const struct plan *p, const char *file, struct buf *url);
/* The image id and AMI name of software.neuron_image's build:
 * NAME-neuron-2-29-0. */
void plan_image_id(const struct plan *p, struct buf *id);
/* The scripts gen writes for the cluster to run, in upload order. */
enum plan_script { SCRIPT_WATCHER, SCRIPT_PYXIS_HEAD, SCRIPT_PYXIS_COMPUTE, SCRIPT__COUNT };
/* Its file name (NAME-spot-watcher.sh) into name; false when the plan
 * has no such script. */
bool plan_script_name(const struct plan *p, enum plan_script s, struct buf *name);
/* The queues' names, as the cluster config and the batch script use them. */
void plan_queue_name(const struct plan *p, bool spot, struct buf *name);
/* The compute resource's name, from the instance type (trn2-48xlarge). */
void plan_compute_resource(const struct plan *p, char *out, size_t cap);
/* What the storage keeps after pcluster delete-cluster and its cost a
 * month, for the plan's storage line. */
void plan_storage_text(const struct plan *p, struct buf *b);
void plan_capacity_text(const struct plan *p, struct buf *b);
/* Where the Neuron SDK and the container come from, and the image's EFA
 * stack: the lines gen's summary says them in. */
void plan_software_text(const struct plan *p, struct buf *b);
void plan_container_text(const struct plan *p, struct buf *b);
/* The commands that take the generated files to a running job, in order
 * (gen/plan_steps.c): dir is where gen wrote them, spec_path the spec. */
void plan_next_steps(const struct plan *p, const char *dir, const char *spec_path, struct buf *b);

/* The mixed fleet: plan_fleet_nodes before the node count is derived,
 * plan_fleet_check once the full fleet's layout and batch are known. */
bool plan_fleet_nodes(struct plan *p, const struct spec *spec, struct diag_list *diags);
bool plan_fleet_check(struct plan *p, const struct spec *spec, struct diag_list *diags);
void plan_fleet_costs(const struct plan *p, struct plan_fleet_cost *c);
void plan_fleet_text(const struct plan *p, struct buf *b);
void plan_fleet_json(const struct plan *p, struct buf *b);
struct plan_est;
void plan_fleet_loss_text(const struct plan *p, const struct plan_est *e, struct buf *b);

/* ---- the bill (gen/plan_bill.c) -----------------------------------------
 * The run's cost as lines: compute under each way of buying it (and a
 * mixed fleet's parts), storage during and after the run, the time
 * beyond the compute; and its deadlines. Seconds and USD; < 0 unknown. */
struct plan_bill {
	int nodes;
	double compute_s;            /* the estimate: steps x step, with exposed communication */
	double exposed_s;            /* of it, communication that cannot overlap */
	double compile_s;            /* training.compile_minutes; < 0 not given */
	/* survival's figures (gen/plan_survival.c): the checkpoint, its
	 * pauses, and the restarts expected at the interruption rates */
	double ckpt_bytes, save_s;   /* < 0 unknown */
	double saves;                /* periodic saves over the run; < 0 unknown */
	double pause_s;              /* saves x save_s */
	double restart_s;            /* the expected finish less the run with its saves */
	double expected_faults, expected_reclaims;
	double run_s;                /* compute + pauses + restarts + compile: the expected finish */
	double hour_usd;             /* the fleet as the spec buys it, an hour; < 0 unknown */
	double pause_usd, restart_usd;
	double spot_lost_node_h;     /* spot node-hours not billed while reclaimed capacity is away */
	double room_bytes;           /* the file system less the corpus; < 0 unknown */
	int ckpt_fit;                /* checkpoints that fit in room_bytes; < 0 unknown */
	double rate[PRICE__COUNT];   /* a node-hour */
	double compute_usd[PRICE__COUNT]; /* every node, the whole run, at each price */
	double alt_s[PRICE__COUNT];  /* that run's expected finish: spot nodes are reclaimed, the others not */
	bool mixed;
	double reserved_usd, spot_usd, mixed_usd;
	const char *reserved_how, *spot_how;
	int fs_gib;                  /* a file system gen creates; 0 none or an existing one */
	double gib_month_usd, fs_month_usd, fs_run_usd;
	bool fs_kept;                /* pcluster delete-cluster keeps it */
	double token_bytes, dataset_bytes;
	double limit_s;              /* time_limit; < 0 none */
	double block_s, block_usable_s; /* capacity.block_hours, less the end and the boot */
};
void plan_bill_derive(const struct plan *p, struct plan_bill *b);
/* JS8001, JS8002: the run against the time limit and a Capacity Block. */
bool plan_bill_check(const struct plan *p, const struct spec *spec, struct diag_list *diags);
void plan_bill_text(const struct plan *p, const struct plan_bill *b, struct buf *o);
void plan_bill_json(const struct plan *p, const struct plan_bill *b, struct buf *o);

/* Fills p->survival once the layout and the estimate are known; adds
 * the JS70xx findings (false after an error). */
bool plan_survival_derive(struct plan *p, const struct spec *spec, struct diag_list *diags);
void plan_survival_text(const struct plan *p, struct buf *b);
void plan_survival_json(const struct plan *p, struct buf *b);
/* The node counts a mixed fleet trains at, the reserved nodes and k
 * spot units (the plan's own count alone otherwise), each with its
 * data-parallel size: the generated job's table. Returns how many. */
int plan_trainable_sizes(const struct plan *p, int *nodes, int *dp, int cap);

/* ---- a mixture of experts (gen/plan_moe.c) ------------------------------
 * Which parameters are the experts' and which are dense, from the spec's
 * model; where the spec cannot tell, the split is unknown and memory is
 * the upper bound of every parameter sharded like a dense one. */

enum moe_from {
	MOE_DENSE,       /* no experts */
	MOE_UNSPLIT,     /* experts, but not enough to tell their share */
	MOE_FROM_ACTIVE, /* from active_parameters, experts and experts_per_token */
	MOE_FROM_FFN,    /* from layers, experts, hidden and expert_ffn_hidden_size */
	MOE_FROM_SHAPE,  /* from the whole shape, by the framework's accounting */
};

struct plan_moe {
	enum moe_from from;
	int experts, topk;
	double expert_params, dense_params; /* < 0 unknown; expert_params 0 when dense */
	double active;                      /* parameters per token; < 0 unknown */
	bool active_derived;                /* from the expert FFN size, not the spec */
	const char *why;                    /* MOE_UNSPLIT: what would split it */
};

/* Parameters per rank: dense ones over TP x PP, experts over EP x TP x
 * PP; and the data-parallel sizes their ZeRO shards and all-reduces use. */
struct plan_shards {
	double dense, expert;       /* < 0 unknown */
	double dense_dp, expert_dp;
};

/* The expert all-to-all of one rank per step. */
struct plan_a2a {
	double bytes, efa_bytes;    /* < 0 unknown; 0 without EP */
	int peers_in_node;          /* EP peers on the rank's node, itself included */
};

void plan_moe_split(const struct plan *p, struct plan_moe *moe);
const char *plan_moe_from_name(enum moe_from f);
void plan_moe_shards(const struct plan *p, const struct plan_moe *moe, struct plan_shards *s);
/* Data-parallel bytes per step per rank (gradients, and weights under
 * FSDP or ZeRO 3); < 0 unknown. plan_dp_bytes: for psi parameters over
 * a group of n ranks at ZeRO stage stage. */
double plan_grad_bytes(const struct plan *p);
double plan_dp_bytes(const struct plan *p, int stage, double psi, double n);
void plan_moe_all_to_all(const struct plan *p, int ppn, enum recompute rc, struct plan_a2a *a);

/* ---- the model (gen/plan_model.c) ----------------------------------------- */
/* Fills p->model once the layout and the nodes are known. */
void plan_model_derive(struct plan *p);
/* JS4012: the counts the spec states against the shape's (2%). */
bool plan_model_check(const struct plan *p, const struct spec *spec, struct diag_list *diags);
/* How far two counts may differ before the spec's is refused. */
#define PLAN_COUNT_TOLERANCE 0.02
/* The utilization the plan assumes when the spec gives none: of peak
 * dense BF16, in hardware FLOPs (the framework's model FLOPs, with the
 * forward pass again under full recomputation). An assumption
 * (docs/plan.md, "Utilization"). */
#define PLAN_DEFAULT_UTILIZATION 0.4

/* ---- what every worker runs (gen/plan_run.c) -----------------------------
 * env and entry.args against what gen writes itself (JS40xx). */
bool plan_run_check(const struct plan *p, const struct spec *spec, struct diag_list *diags);
/* The plan's value of every knob a framework's flags can carry. */
void plan_knob_values(const struct plan *p, long long v[FK__COUNT]);
/* Whether entry.args already gives row f with the value gen would write
 * (gen then does not write it twice). */
bool plan_arg_given(const struct plan *p, const struct fw_flag *f);
/* Whether entry.args gives flag ('-' and '_' alike). */
bool plan_args_have(const struct plan *p, const char *flag);
/* JS4007-JS4011 (gen/plan_framework.c): the framework on the instance,
 * its release and generation, its expert parallelism, and the arguments
 * it cannot start without. */
bool plan_framework_check(const struct plan *p, const struct spec *spec, struct diag_list *diags);
/* Megatron's CUDA_DEVICE_MAX_CONNECTIONS=1 is needed. */
bool plan_cuda_max_connections(const struct plan *p);
/* A variable the generated script sets itself: its value (NULL for the
 * script's own read-only variables) and where that comes from. */
struct plan_env_set { const char *name, *value, *why; };
const struct plan_env_set *plan_env_generated(const struct plan *p, const char *name);
/* A user NEURON_CC_FLAGS that compiles for the plan's LNC. */
bool plan_cc_flags_agree(const struct plan *p, const char *user);

/* ---- estimates (gen/plan_estimate.c) ------------------------------------
 * Time, memory, network and cost of a layout on one instance type.
 * Every figure that needs an input the spec or the catalog lacks is
 * negative (unknown) and shown as such: nothing is filled in. */

#define PLAN_DEFAULT_RECOMPUTE RC_SELECTIVE

struct plan_est {
	const struct instance_type *it;
	bool own;                 /* the spec's own type */
	int nodes, ppn, ranks, accels;
	bool whole_nodes;         /* ranks fill whole nodes */
	int tp, pp, cp, ep, dp;   /* the layout estimated */
	/* memory per rank, bytes */
	struct plan_moe moe;
	struct plan_shards shards;
	double params_rank;       /* dense + expert parameters per rank; < 0 without model.parameters */
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
	double node_peak;         /* FLOP/s of one node at peak; < 0 unknown */
	double achieved;          /* FLOP/s of the cluster at the utilization */
	double total_flops, run_seconds, step_seconds, steps;
	/* network and pipeline, per rank per step */
	double net_bytes_per_s;   /* EFA bandwidth share of one rank */
	double grad_bytes, grad_seconds, pp_bytes, pp_seconds;
	double grad_efa_bytes;    /* what of grad_bytes crosses the node's EFA, per rank */
	/* step_seconds is compute_step_seconds (at the utilization) plus
	 * the communication that exceeds it (exposed_seconds) */
	double compute_step_seconds, comm_seconds, exposed_seconds;
	struct plan_a2a a2a;
	double a2a_seconds;       /* the EFA part of the all-to-all */
	double bubble;
	/* cost */
	double run_hours;         /* --hours, else the estimate; < 0 unknown */
	bool hours_from_flag;
	struct plan_rate rate[PRICE__COUNT];
	double hour[PRICE__COUNT], run_cost[PRICE__COUNT];
	double usd_per_pflop_hour[PRICE__COUNT];
};

/* Estimates for it with the plan's layout (the spec's own type when it
 * is p->it, at the plan's nodes; another at the nodes its processes
 * need); hours > 0 is the run length of --hours. */
void plan_estimate(const struct plan *p, const struct instance_type *it, double hours,
		   struct plan_est *e);
/* The same at nodes nodes of ppn processes (the layout p already has
 * them: p->world = nodes x ppn). */
void plan_estimate_at(const struct plan *p, const struct instance_type *it, int nodes, int ppn,
		      double hours, struct plan_est *e);
/* The members of one estimate in JSON, without the braces. */
void plan_est_json(const struct plan_est *e, struct buf *b);
double plan_utilization(const struct plan *p);
enum recompute plan_recompute(const struct plan *p);

/* ---- comparisons (gen/plan_compare.c) -----------------------------------
 * Each compared type at a node count of its own: the same peak dense
 * BF16 as the spec's cluster (rounded to whole nodes), the same nodes,
 * the same ranks, or the fewest nodes that meet a deadline; at that
 * count, the layout nearest the spec's that the layout rules allow and
 * that fits in memory. */

enum plan_same { SAME_PEAK, SAME_NODES, SAME_RANKS };

/* The search looks at most this many node counts above the fewest whose
 * peak meets the deadline, and never past the spec's 4096 nodes. */
#define PLAN_DEADLINE_SPAN 512
/* Layouts derived for one row, at most: a hard bound on the work of the
 * whole search, whatever the spec's numbers. */
#define PLAN_SEARCH_BUDGET 20000

enum row_status {
	ROW_OK,
	ROW_NO_PEAK,      /* no sourced peak: cannot size */
	ROW_NO_ACCEL,     /* no accelerators: nothing to run on */
	ROW_NO_LAYOUT,    /* no layout at the node count (time and cost still shown) */
	ROW_NO_RUN,       /* --deadline without the run's FLOPs */
	ROW_NOT_IN_TIME,  /* --deadline: no layout that fits within the span */
};

struct plan_row {
	const struct instance_type *it;
	bool own;
	enum row_status status;
	const char *why;              /* ROW_NO_LAYOUT: the layout rule that failed first */
	char why_buf[200];
	double target_nodes;          /* SAME_PEAK: the exact count of equal peak; deadline: the fewest by peak */
	/* --same nodes and peak: the count taken is the nearest to the
	 * target at which the kept degrees divide the world and the spec's
	 * global batch divides by micro x DP (gen/plan_compare.c) */
	bool rounded;                 /* that rule chose nodes */
	int round_below, round_above; /* the nearest such counts either side of the target; 0 none */
	int keep_tp, keep_pp, keep_cp, keep_ep, keep_dp; /* the degrees it kept, and DP at nodes */
	const char *ep_why;           /* the spec's EP cannot run on this type: the framework's reason; NULL */
	char ep_why_buf[400];
	int nodes, ppn;
	int tp, pp, vpp, cp, ep, dp, micro, global, micro_batches;
	bool layout_changed;          /* degrees other than the spec's */
	bool global_changed;          /* a global batch other than the spec's, to divide */
	int tried;                    /* layouts derived to find this one */
	bool budget_spent;            /* the search stopped at PLAN_SEARCH_BUDGET */
	struct plan_est est;
	bool past_limit;              /* its run is longer than the spec's time limit: shown, not ranked */
	int rank;                     /* 1 the cheapest; 0 not ranked */
	enum plan_price rank_price;   /* the price the rank uses */
	double rank_cost;             /* per run, else per PFLOP-hour */
};

struct plan_compare {
	enum plan_same same;
	double deadline_days;         /* > 0: --deadline */
	bool rank_per_run;            /* ranked by run cost (else by cost per PFLOP-hour) */
	double limit_s;               /* the spec's time limit; < 0 none */
	int global, micro, ep;        /* the spec's, which --same nodes and peak keep */
	struct plan_row *rows;
	size_t n;
};

struct plan_request;
/* One row per type of rq (the spec's own first); false when out of memory. */
bool plan_compare_run(const struct plan *p, const struct plan_request *rq, struct plan_compare *c);
void plan_compare_free(struct plan_compare *c);
const char *plan_same_name(enum plan_same s);
void plan_compare_text(const struct plan *p, const struct plan_compare *c, struct buf *b);
void plan_compare_json(const struct plan_compare *c, struct buf *b);
/* "TP 8 x PP 4 (v 2) x EP 8 -> DP 128" into buf. */
void plan_row_layout(const struct plan_row *r, char *buf, size_t cap);

/* ---- the report (gen/plan_report.c, gen/plan_svg.c) -------------------- */

struct tco_spec;

struct plan_request {
	double hours;                           /* <= 0: not given */
	const struct instance_type *const *types; /* compared types; none: the spec's own */
	size_t ntypes;
	const struct spec *spec;                /* for deriving the layouts of compared types */
	enum plan_same same;
	double deadline_days;                   /* > 0: --deadline DAYS */
	const struct tco_spec *tco;             /* --tco FILE, or NULL */
	bool verbose;                           /* -v: the derivations after the summary */
};

void plan_report_text(const struct plan *p, const struct plan_request *rq, FILE *out);
/* One screen (gen/plan_brief.c): the layout, whether it fits, the days,
 * the cost and the one risk that matters most; and the same with the
 * bill as markdown tables, FULL (plan_report_text's) under them. */
void plan_brief_text(const struct plan *p, FILE *out);
void plan_brief_markdown(const struct plan *p, const char *full, FILE *out);
void plan_report_json(const struct plan *p, const struct plan_request *rq, FILE *out);
/* A chart of run cost against run time per instance type (with --tco,
 * cumulative cost over months per option); well-formed SVG even when
 * nothing has the figures. */
void plan_report_svg(const struct plan *p, const struct plan_request *rq, FILE *out);

#endif
