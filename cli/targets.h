/* --target as every command takes it: parallelcluster=V or slurm=V,
 * repeatable, the last of each kind winning. */
#ifndef TF_TARGETS_H
#define TF_TARGETS_H

#include <stdbool.h>

#include "target.h"

/* The help line the commands' usage shares. */
#define TARGETS_USAGE \
	"      --target T         the versions to check against: parallelcluster=V (3.11 to 3.16;\n" \
	"                         brings its Slurm) or slurm=V (22.05 to 26.05); repeatable\n" \
	"                         (default: ParallelCluster 3.16 and the Slurm it ships, 25.11)\n"

/* Adds one --target value to req. Returns false (after a message on
 * stderr that lists the known versions) when it is not one. */
bool targets_add(struct target_request *req, const char *value);

#endif
