/* Shared storage: where it mounts and how many of each kind. */
#include <stdio.h>
#include <string.h>

#include "pcluster.h"

/* ParallelCluster refuses these as MountDir (exact match after a leading
 * slash is added; subdirectories are allowed). */
static const char *const reserved_dirs[] = {
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/media", "/mnt",
	"/opt", "/opt/parallelcluster", "/opt/parallelcluster/shared",
	"/opt/parallelcluster/shared_login_nodes", "/opt/slurm", "/opt/intel",
	"/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var",
};

static void absolute(const char *dir, char *out, size_t cap)
{
	snprintf(out, cap, "%s%s", dir[0] == '/' ? "" : "/", dir);
}

static void check_mount_dir(const struct pc *pc, yd_node mount)
{
	const char *dir = yd_str(pc->doc, mount, NULL);
	if (!dir || yd_type(pc->doc, mount) != YD_T_STRING)
		return;
	char abs[512];
	absolute(dir, abs, sizeof abs);
	for (size_t i = 0; i < sizeof reserved_dirs / sizeof reserved_dirs[0]; i++)
		if (strcmp(abs, reserved_dirs[i]) == 0) {
			pc_report(pc, R_PC4001, mount, "MountDir %s is a reserved system directory", abs);
			return;
		}
	if (dir[0] != '/') {
		struct diag *g = pc_report(pc, R_PC4003, mount,
			"MountDir '%s' is relative; ParallelCluster mounts it at %s", dir, abs);
		diag_set_help(g, "write the absolute path %s", abs);
	}
}

static bool nested(const char *outer, const char *inner)
{
	size_t n = strlen(outer);
	return strncmp(outer, inner, n) == 0 && inner[n] == '/';
}

static void check_clashes(const struct pc *pc, yd_node storages)
{
	const yamldoc *d = pc->doc;
	for (size_t i = 0; i < yd_len(d, storages); i++) {
		yd_node mi = yd_get(d, yd_item(d, storages, i), "MountDir");
		const char *a = yd_str(d, mi, NULL);
		if (!a)
			continue;
		char abs_a[512], abs_b[512];
		absolute(a, abs_a, sizeof abs_a);
		for (size_t j = 0; j < i; j++) {
			yd_node mj = yd_get(d, yd_item(d, storages, j), "MountDir");
			const char *b = yd_str(d, mj, NULL);
			if (!b)
				continue;
			absolute(b, abs_b, sizeof abs_b);
			if (strcmp(abs_a, abs_b) == 0)
				pc_report(pc, R_PC4002, mi, "MountDir %s is also used at line %u",
					  abs_a, yd_span(d, mj).line);
			else if (nested(abs_a, abs_b) || nested(abs_b, abs_a))
				pc_report(pc, R_PC4002, mi, "MountDir %s and %s (line %u) are nested",
					  abs_a, abs_b, yd_span(d, mj).line);
		}
	}
}

/* How one storage counts toward ParallelCluster's per-type limits. */
enum storage_class { EBS, EBS_RAID, EFS_NEW, EFS_EXISTING, FSX_NEW, FSX_EXISTING, CLASS_COUNT };

static const struct {
	int max;
	const char *what;
} limits[CLASS_COUNT] = {
	[EBS] = { 5, "EBS volumes" }, [EBS_RAID] = { 1, "EBS RAID arrays" },
	[EFS_NEW] = { 1, "new EFS file systems" },
	[EFS_EXISTING] = { 20, "existing EFS file systems" },
	[FSX_NEW] = { 1, "new FSx file systems" },
	[FSX_EXISTING] = { 20, "existing FSx file systems and caches" },
};

static int classify(const struct pc *pc, yd_node s)
{
	const yamldoc *d = pc->doc;
	yd_node type = yd_get(d, s, "StorageType");
	if (yd_str_eq(d, type, "Ebs"))
		return yd_get(d, yd_get(d, s, "EbsSettings"), "Raid") ? EBS_RAID : EBS;
	if (yd_str_eq(d, type, "Efs"))
		return yd_get(d, yd_get(d, s, "EfsSettings"), "FileSystemId") ? EFS_EXISTING : EFS_NEW;
	if (yd_str_eq(d, type, "FsxLustre"))
		return yd_get(d, yd_get(d, s, "FsxLustreSettings"), "FileSystemId") ? FSX_EXISTING : FSX_NEW;
	if (yd_str_eq(d, type, "FsxOntap") || yd_str_eq(d, type, "FsxOpenZfs") ||
	    yd_str_eq(d, type, "FileCache"))
		return FSX_EXISTING;
	return -1;
}

/* A new FSx for Lustre file system lives in one subnet; queues in other
 * Availability Zones cannot reach it well, and ParallelCluster refuses. */
static void check_managed_fsx(const struct pc *pc, yd_node storage)
{
	const yamldoc *d = pc->doc;
	yd_node queues = pc_queues(pc);
	const char *first = NULL;
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node ids = yd_get(d, yd_get(d, yd_item(d, queues, i), "Networking"), "SubnetIds");
		for (size_t j = 0; j < yd_len(d, ids) && yd_kind(d, ids) == YD_SEQUENCE; j++) {
			const char *s = yd_str(d, yd_item(d, ids, j), NULL);
			if (!s)
				continue;
			if (!first) {
				first = s;
			} else if (strcmp(first, s) != 0) {
				pc_report(pc, R_PC4005, storage,
					  "a new FSx for Lustre file system with queues in more than one subnet (%s, %s)",
					  first, s);
				return;
			}
		}
	}
}

/* FSx for Lustre sizes come in steps that depend on the deployment type
 * and, for HDD, on the throughput per TiB. */
static void check_fsx_capacity(const struct pc *pc, yd_node settings)
{
	const yamldoc *d = pc->doc;
	yd_node cap_n = yd_get(d, settings, "StorageCapacity");
	long long cap, tput = 0;
	if (!yd_int(d, cap_n, &cap) || cap <= 0)
		return;
	const char *type = yd_str(d, yd_get(d, settings, "DeploymentType"), NULL);
	bool hdd = yd_str_eq(d, yd_get(d, settings, "StorageType"), "HDD");
	yd_int(d, yd_get(d, settings, "PerUnitStorageThroughput"), &tput);
	bool ok;
	const char *rule;
	if (hdd && tput == 40) {
		ok = cap % 1800 == 0;
		rule = "a multiple of 1800 GiB for HDD at 40 MB/s/TiB";
	} else if (hdd) {
		ok = cap % 6000 == 0;
		rule = "a multiple of 6000 GiB for HDD at 12 MB/s/TiB";
	} else if (type && strcmp(type, "SCRATCH_1") == 0) {
		ok = cap == 1200 || cap == 2400 || cap % 3600 == 0;
		rule = "1200, 2400 or a multiple of 3600 GiB for SCRATCH_1";
	} else {
		ok = cap == 1200 || cap % 2400 == 0;
		rule = "1200 or a multiple of 2400 GiB for SCRATCH_2, PERSISTENT_1 and PERSISTENT_2 on SSD";
	}
	if (!ok)
		pc_report(pc, R_PC4006, cap_n, "StorageCapacity %lld is not valid: it must be %s", cap, rule);
}

void pc_check_storage(const struct pc *pc)
{
	const yamldoc *d = pc->doc;
	yd_node storages = yd_get(d, pc->root, "SharedStorage");
	if (yd_kind(d, storages) != YD_SEQUENCE)
		return;
	int counts[CLASS_COUNT] = { 0 };
	for (size_t i = 0; i < yd_len(d, storages); i++) {
		yd_node s = yd_item(d, storages, i);
		check_mount_dir(pc, yd_get(d, s, "MountDir"));
		check_fsx_capacity(pc, yd_get(d, s, "FsxLustreSettings"));
		int c = classify(pc, s);
		if (c < 0)
			continue;
		if (++counts[c] == limits[c].max + 1)
			pc_report(pc, R_PC4004, s, "more than %d %s; ParallelCluster allows at most %d",
				  limits[c].max, limits[c].what, limits[c].max);
		if (c == FSX_NEW)
			check_managed_fsx(pc, s);
	}
	check_clashes(pc, storages);
}
