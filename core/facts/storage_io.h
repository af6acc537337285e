/* How fast the shared file systems gen creates take a checkpoint: the
 * write throughput of each, from its settings in the generated cluster
 * config and the service's documentation (docs/plan.md, "Checkpoints
 * and interruptions"). */
#ifndef TF_STORAGE_IO_H
#define TF_STORAGE_IO_H

#include <stdbool.h>

enum fs_kind { FS_FSX_LUSTRE, FS_EFS, FS_EBS };

/* FSx for Lustre PERSISTENT_2 throughput per TiB, in MB/s: the
 * PerUnitStorageThroughput templates/cluster.yaml.mustache writes. */
#define FSX_PER_UNIT_THROUGHPUT 250

struct fs_rate {
	double bytes_per_s;
	const char *how;       /* "250 MB/s per TiB of PERSISTENT_2" */
	const char *source;
};

/* The write throughput of a new file system of kind k and size_gib,
 * as gen creates it; false (out untouched) for a size it cannot use. */
bool fs_write_rate(enum fs_kind k, double size_gib, struct fs_rate *out);

#endif
