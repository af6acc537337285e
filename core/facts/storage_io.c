#include "storage_io.h"

#define MIB (1024.0 * 1024.0)

bool fs_write_rate(enum fs_kind k, double size_gib, struct fs_rate *out)
{
	switch (k) {
	case FS_FSX_LUSTRE:
		/* Throughput scales with the storage: MB/s per TiB provisioned. */
		if (!(size_gib > 0))
			return false;
		*out = (struct fs_rate){
			.bytes_per_s = FSX_PER_UNIT_THROUGHPUT * 1e6 * size_gib / 1024,
			.how = "250 MB/s per TiB of PERSISTENT_2 storage (PerUnitStorageThroughput 250)",
			.source = "FSx for Lustre User Guide, Performance characteristics of SSD storage classes (throughput proportional to the storage) <https://docs.aws.amazon.com/fsx/latest/LustreGuide/ssd-storage.html>; Managing throughput capacity (PERSISTENT_2: 125, 250, 500 or 1000 MB/s/TiB) <https://docs.aws.amazon.com/fsx/latest/LustreGuide/managing-throughput-capacity.html>",
		};
		return true;
	case FS_EFS:
		/* A new file system in bursting mode has burst credits: a
		 * checkpoint writes at the burst floor while they last. */
		*out = (struct fs_rate){
			.bytes_per_s = 100 * MIB,
			.how = "100 MiB/s, the burst every EFS file system in bursting mode has while it has credits (its baseline is 50 KiB/s per GiB stored)",
			.source = "Amazon EFS User Guide, Amazon EFS performance specifications (bursting throughput) <https://docs.aws.amazon.com/efs/latest/ug/performance.html>",
		};
		return true;
	case FS_EBS:
		*out = (struct fs_rate){
			.bytes_per_s = 125 * MIB,
			.how = "125 MiB/s, a gp3 volume's baseline throughput (ParallelCluster's default Throughput), shared over NFS from the head node",
			.source = "Amazon EBS User Guide, General Purpose SSD volumes (gp3: 125 MiB/s baseline) <https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html>",
		};
		return true;
	}
	return false;
}
