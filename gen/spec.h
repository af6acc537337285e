/* The job spec: checked on the YAML document (positions for every error),
 * then bound to C structs with libcyaml, then given its defaults. */
#ifndef TF_SPEC_H
#define TF_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "frameworks.h"
#include "target.h"
#include "yamldoc.h"

enum capacity { CAP_ONDEMAND, CAP_SPOT, CAP_CAPACITY_BLOCK, CAP_RESERVATION };
enum storage { ST_FSX_LUSTRE, ST_EFS, ST_EBS };
/* RC_UNSET: not given; the planner applies (and says) its default. */
enum recompute { RC_UNSET, RC_NONE, RC_SELECTIVE, RC_FULL };

struct spec_parallel { int tensor, pipeline, virtual_stages, context, expert, data; };
struct spec_model {
	double parameters, tokens, active_parameters; /* 0 when absent */
	int layers, hidden_size, attention_heads, query_groups, experts, seq_length;
	int experts_per_token, expert_ffn_hidden_size; /* 0 when absent */
	int ffn_hidden_size, vocab_size;              /* 0 when absent */
	bool gated_ffn, gated_ffn_given;              /* true unless the spec says false */
	bool tied_embeddings;                         /* false unless the spec says true */
};
/* utilization 0 = not given; zero_stage 0 is also the default. */
/* compile_minutes: the user's figure for compiling the graphs before the
 * first step (Neuron); 0 when absent. */
struct spec_training { double utilization; enum recompute recompute; int zero_stage; bool precompile; double compile_minutes; };
struct spec_batch { int micro, global; };
struct spec_entry { char *script; char **args; unsigned args_count; };
struct spec_cluster {
	char *region, *subnet, *head_subnet, *ssh_key, *os, *ami, *head_node, *queue;
	char *name;          /* the ParallelCluster cluster name; default the job's */
	char *bootstrap;     /* s3://BUCKET[/PREFIX] of gen's scripts, or NULL */
	int root_volume_gib; /* 0: not given */
	bool head_subnet_given;
};
enum spot_strategy { SPOT_CAPACITY_OPTIMIZED, SPOT_LOWEST_PRICE, SPOT_PRICE_CAPACITY_OPTIMIZED };
struct spec_watcher { char *script_url, *imds_endpoint; int poll_seconds; };
/* Prices the user knows, USD per node-hour (0 when absent): they win over
 * the catalog's and the imported ones, for the spec's own type. */
struct spec_prices { double on_demand, reserved, spot, capacity_block; };
/* Which reserved offer the reserved nodes are bought as (docs/jobspec.md);
 * 0 members: the default, 1 year, no upfront, standard. */
enum spec_purchase { SP_PURCHASE_DEFAULT, SP_NO_UPFRONT, SP_PARTIAL_UPFRONT, SP_ALL_UPFRONT };
enum spec_offer_class { SP_CLASS_DEFAULT, SP_STANDARD, SP_CONVERTIBLE, SP_COMPUTE_SP, SP_EC2_INSTANCE_SP };
struct spec_reserved_offer { int years; enum spec_purchase purchase; enum spec_offer_class offer_class; };
/* A mixed fleet has reserved > 0 and spot > 0: `type` then says how the
 * reserved nodes are bought, and the spot nodes get a queue of their own. */
struct spec_capacity {
	enum capacity type;
	char *reservation_id;
	double spot_discount, reserved_discount; /* 0 when absent */
	char *placement_group;
	int reserved, spot;
	enum spot_strategy spot_strategy;
	int max_restarts;
	struct spec_watcher *watcher;
	struct spec_prices *prices;                 /* NULL when absent */
	struct spec_reserved_offer *reserved_offer; /* NULL when absent */
	double block_hours;                         /* the Capacity Block's length; 0 when absent */
	/* 0 when absent: the plan then uses its stated assumptions */
	double spot_interruption_rate;           /* spot nodes reclaimed per month (0..1) */
	double spot_return_hours;                /* how long reclaimed capacity stays away */
};
/* DP_DEFAULT: not given; the planner applies the storage's default. */
enum deletion_policy { DP_DEFAULT, DP_RETAIN, DP_DELETE, DP_SNAPSHOT };
struct spec_storage {
	enum storage type;
	char *mount;
	int size_gib;
	char *id;
	enum deletion_policy deletion_policy;
	double usd_per_gib_month; /* 0 when absent */
	double write_mb_per_s;    /* 0 when absent (the plan takes what gen creates) */
};
/* interval_minutes: 0 when absent (the plan derives one). */
struct spec_checkpoint { double interval_minutes; };
struct spec_paths { char *compile_cache, *checkpoints, *logs; };
/* What the nodes run; NULL members when not given. */
struct spec_python { char *venv; };
struct spec_container {
	char *image;
	char **mounts;
	unsigned mounts_count;
	char *base;               /* the image it was built from, or NULL */
	bool efa, efa_given;      /* the spec's statement of the image's EFA stack */
};
/* software.neuron_image: the pcluster build-image config gen writes. */
struct spec_neuron_image { char *parent, *instance; };
struct spec_software {
	char *neuron;
	bool neuron_script_extrapolated;        /* software.neuron_script: extrapolated */
	struct spec_neuron_image *neuron_image; /* NULL when absent */
	struct spec_python *python;       /* NULL when absent */
	struct spec_container *container; /* NULL when absent */
};

/* Absent integers read 0 (every one must be >= 1 when given) and absent
 * strings NULL until spec_apply_defaults. */
struct job_spec {
	int trainforge;
	char *name;
	char *instance;
	int nodes;
	int processes_per_node;
	int lnc;
	enum framework framework;
	struct spec_parallel *parallel;
	struct spec_model *model;
	struct spec_training *training;
	struct spec_batch *batch;
	struct spec_entry *entry;
	struct spec_cluster *cluster;
	struct spec_capacity *capacity;
	struct spec_storage *storage;
	struct spec_paths *paths;
	struct spec_checkpoint *checkpoint; /* NULL when absent */
	char **s3_buckets;
	unsigned s3_buckets_count;
	struct spec_software *software; /* NULL when absent */
	char *time_limit;
};

struct spec {
	struct job_spec *job;   /* NULL when the spec has errors */
	const yamldoc *doc;     /* for positions */
	struct source *src;
	struct target target;   /* set before spec_load; zero: the default */
	bool candidate;         /* another instance type, for plan --compare */
	bool compare;           /* a layout plan --compare tries: the cluster's
				 * own checks (gen/plan_cluster.c and the like) are
				 * the spec's, not the search's */
};

/* Checks src (already parsed into doc) against the job spec schema (its
 * release tags against spec->target's ParallelCluster),
 * adding JS findings to diags; when there is no error, binds it and
 * applies defaults. The spec keeps pointers to doc and src. */
bool spec_load(struct spec *spec, struct source *src, const yamldoc *doc,
	       struct diag_list *diags);
void spec_free(struct spec *spec);
/* The node at a dotted path ("parallel.tensor") of the spec, or the
 * nearest existing parent, for positions of plan findings. */
yd_node spec_node(const struct spec *spec, const char *path);
/* Reports rule at the node of path. */
struct diag *spec_report(const struct spec *spec, struct diag_list *diags,
			 enum rule_id rule, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Reports rule at a node of the spec. */
struct diag *spec_report_at(const struct spec *spec, struct diag_list *diags,
			    enum rule_id rule, yd_node at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The structure rules (JS0xxx) at a node (spec_node of a dotted path),
 * for what the planner finds of the spec's keys beyond the schema. */
struct diag *spec_missing_key(const struct spec *spec, struct diag_list *diags,
			      yd_node at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct diag *spec_invalid_value(const struct spec *spec, struct diag_list *diags,
				yd_node at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct diag *spec_conflicting_keys(const struct spec *spec, struct diag_list *diags,
				   yd_node at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

const char *storage_name(enum storage s);
const char *capacity_name(enum capacity c);
const char *recompute_name(enum recompute r); /* "unset" for RC_UNSET */
const char *spot_strategy_name(enum spot_strategy s);
const char *deletion_policy_name(enum deletion_policy d); /* ParallelCluster's: "Retain" */
/* Both capacity.reserved and capacity.spot were given. */
bool spec_mixed_fleet(const struct job_spec *j);
/* The reserved offer of capacity.reserved_offer, as the price data names
 * it: a Reserved Instance (TERM_RESERVED) or a Savings Plan. */
enum price_term;
struct price_offer;
void spec_reserved_offer(const struct job_spec *j, enum price_term *term, struct price_offer *o);

#endif
