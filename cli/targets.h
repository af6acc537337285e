/* --target as every command takes it: parallelcluster=V or slurm=V,
 * repeatable, the last of each kind winning. */
#ifndef TF_TARGETS_H
#define TF_TARGETS_H

#include <stdbool.h>

#include "target.h"

/* Adds one --target value to req. Returns false (after a message on
 * stderr that lists the known versions) when it is not one. */
bool targets_add(struct target_request *req, const char *value);

#endif
