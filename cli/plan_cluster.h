/* trainforge plan CLUSTER.yaml: the cost by the hour of a cluster
 * config's compute nodes at MinCount and at MaxCount (plan_cluster.c). */
#ifndef TF_PLAN_CLUSTER_H
#define TF_PLAN_CLUSTER_H

#include <stdbool.h>
#include <stdio.h>

#include "source.h"
#include "yamldoc.h"

/* A ParallelCluster config by its top-level keys. */
bool plan_cluster_is(const yamldoc *doc);
/* Prints the plan of the config in src (parsed as doc); an exit code. */
int plan_cluster(struct source *src, const yamldoc *doc, bool json);
/* The same into out. */
int plan_cluster_write(struct source *src, const yamldoc *doc, bool json, FILE *out);

#endif
