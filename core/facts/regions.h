/* The AWS Regions ParallelCluster supports (3.11's resources/supported-
 * regions), for the cluster config's Region and the job spec's region. */
#ifndef TF_REGIONS_H
#define TF_REGIONS_H

#include <stdbool.h>

bool region_supported(const char *name);
/* The supported region within two edits of name, or NULL. */
const char *region_nearest(const char *name);

#endif
