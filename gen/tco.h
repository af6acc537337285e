/* Owned cluster against cloud, over some years: the inputs file of
 * `trainforge plan SPEC --tco FILE` (gen/tco_spec.c, schema
 * schemas/tco.schema.json) and the model over it (gen/plan_tco.c). */
#ifndef TF_TCO_H
#define TF_TCO_H

#include <stdbool.h>

#include "plan.h"

struct trouble;

/* Numbers absent from the file read 0 (every given one is checked by the
 * schema first). */
struct tco_owned {
	char *label;
	int servers;
	char *like_instance;
	int accelerators_per_server; /* 0: like_instance's count */
	double purchase_usd_per_server;
	int depreciation_years;
	double power_kw_per_server, idle_power_kw_per_server;
	bool idle_given;
	double pue, usd_per_kwh;
	double networking_storage_usd, operations_usd_per_year;
	double utilization, training_utilization;
};

/* Spot is the job spec's alone (capacity.spot_discount or
 * capacity.prices.spot, capacity.spot_interruption_rate): one spot
 * assumption for the plan's bill and the comparison. */
struct tco_cloud {
	double on_demand_usd_per_node_hour;
	double reserved_discount;
	int reserved, spot;
	double utilization; /* of the committed hours, the fleet's own; 0: not given (1) */
};

struct tco_spec {
	int trainforge_tco;
	int years;
	struct tco_owned *owned;
	struct tco_cloud *cloud;  /* never NULL once loaded */
	char *path;               /* as given, for the output */
};

#define TCO_MAX_YEARS 10
#define TCO_MAX_BYTES (1u << 20)

/* Reads and checks path. On any problem, messages with positions
 * ("path:line:col: error: ...") go to trouble and the result is NULL. */
struct tco_spec *tco_load(const char *path, struct trouble *trouble);
/* The same over text already read (len bytes); path names it. */
struct tco_spec *tco_parse(const char *path, const char *text, size_t len, struct trouble *trouble);
void tco_free(struct tco_spec *t);

/* ---- the model (gen/plan_tco.c) ----------------------------------------- */

enum tco_kind { TCO_OWNED, TCO_ON_DEMAND, TCO_CAPACITY_BLOCK, TCO_RESERVED, TCO_SPOT, TCO_MIX, TCO__COUNT };

/* Each option's yearly cost is fixed[y] + per_u x u: what it pays
 * whatever the use, and what grows with the fraction u of the hours the
 * work needs; the break-even utilization is where owning meets it. */
struct tco_option {
	enum tco_kind kind;
	bool known;
	const char *why;            /* !known: what is missing, unless bad_rate says */
	int bad_rate;               /* !known: the index in rate of the unknown rate; -1 none */
	int nodes, reserved, spot;  /* the cloud fleet */
	double fixed[TCO_MAX_YEARS], per_u;
	double year[TCO_MAX_YEARS], total;
	double hours_needed;        /* cloud hours a year for the owned cluster's work; < 0 owned */
	bool feasible;              /* those hours fit in a year */
	double usd_per_pflop_hour, usd_per_run;
	double run_hours;           /* cloud: the run's expected finish on this fleet (the bill's); < 0 unknown */
	double runs_per_year;       /* cloud: runs the fleet's own utilization holds in a year; < 0 unknown */
	double breakeven;           /* owning's cost equals this option's; < 0 or > 1 outside */
	int owning_cheaper;         /* +1 above breakeven, -1 below, 2 always, -2 never */
	struct plan_rate rate[2];   /* the rates used (the mix: reserved, spot) */
};

struct tco_result {
	const struct tco_spec *in;
	const struct instance_type *owned_it, *cloud_it;
	int owned_accelerators;                /* per server; 0 unknown */
	double cloud_utilization;              /* of the committed hours: the file's, else 1 */
	double owned_mfu, cloud_mfu;
	double owned_flops, cloud_flops;       /* achieved FLOP/s; < 0 unknown */
	double busy_hours, pflop_hours_year;   /* the owned cluster's work */
	double run_pflop_hours;                /* one training run; < 0 unknown */
	double capex_year, energy_busy_year, energy_idle_year; /* owned, at the file's utilization */
	int mix_reserved, mix_spot;
	const char *mix_from;                  /* "the file", "the spec" or NULL */
	struct tco_option opt[TCO__COUNT];
};

void plan_tco_compute(const struct plan *p, const struct tco_spec *t, struct tco_result *r);
const char *tco_kind_name(enum tco_kind k);
void plan_tco_text(const struct plan *p, const struct tco_spec *t, struct buf *b);
void plan_tco_json(const struct plan *p, const struct tco_spec *t, struct buf *b);
/* Cumulative cost over months, one line per known option. */
void plan_tco_svg(const struct plan *p, const struct tco_spec *t, FILE *out);

#endif
