/* What a config's compute nodes cost by the hour, from the prices of the
 * catalog and of the user's price store (core/facts/prices.h: with their
 * region, date and where they came from), or unknown: for the idle cost
 * of static nodes, the plan of a cluster config and the cost of a change. */
#ifndef TF_CLUSTER_COST_H
#define TF_CLUSTER_COST_H

#include <stdbool.h>

#include "buf.h"
#include "cluster.h"

/* AWS bills a month as 730 hours. */
#define CLUSTER_HOURS_PER_MONTH 730.0

/* The hourly price of one node of a compute resource. */
struct cluster_rate {
	double usd;              /* < 0: unknown (see why) */
	bool at_most;            /* a ceiling: spot under the on-demand price, or the
				  * priciest of a compute resource's Instances */
	const char *kind;        /* "on-demand", "spot", "SpotPrice" */
	const char *type;        /* the instance type priced, or NULL */
	const char *region;      /* the price's region, or NULL (SpotPrice) */
	char date[11];           /* the day the price was known to hold */
	bool imported;           /* from the user's price store, not built in */
	const char *why;         /* when unknown: "the catalog has no price for" (the type) */
	bool placeholder;        /* unknown because a template's placeholder has no value */
};

void cluster_cr_rate(const struct cluster *c, yd_node queue, yd_node cr, struct cluster_rate *out);
/* MinCount or MaxCount of a compute resource with ParallelCluster's
 * default; -1 when the value is not a whole number. */
long long cluster_cr_count(const struct cluster *c, yd_node cr, const char *key);
/* Nodes that are paid whatever they do (a capacity block or a capacity
 * reservation): their MinCount adds nothing to the bill. */
bool cluster_cr_reserved(const struct cluster *c, yd_node queue, yd_node cr);
/* The config's Region, or NULL. */
const char *cluster_region(const struct cluster *c);

/* Why a rate is unknown, in words: "the catalog has no price for p5e.48xlarge". */
void cluster_rate_unknown(const struct cluster_rate *r, struct buf *b);
/* $1.34 or, from $1000, $1234. */
void cluster_money(struct buf *b, double usd);
/* Where the rate comes from: "us-east-1, price of 2026-01-19", and a note
 * when that is not the config's region. */
void cluster_rate_source(const struct cluster *c, const struct cluster_rate *r, struct buf *b);

#endif
