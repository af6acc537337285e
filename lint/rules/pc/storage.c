/* PC400x: shared storage: where it mounts and how many of each kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "xalloc.h"

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

/* PC4001 reserved-mount-dir; true when it reported. */
static bool reserved_mount_dir(const struct pc *pc, yd_node mount, const char *abs)
{
	for (size_t i = 0; i < sizeof reserved_dirs / sizeof reserved_dirs[0]; i++)
		if (strcmp(abs, reserved_dirs[i]) == 0) {
			pc_report(pc, R_PC4001, mount, "MountDir %s is a reserved system directory", abs);
			return true;
		}
	return false;
}

/* PC4003 relative-mount-dir */
static void relative_mount_dir(const struct pc *pc, yd_node mount, const char *dir,
			       const char *abs)
{
	if (dir[0] != '/') {
		struct diag *g = pc_report(pc, R_PC4003, mount,
			"MountDir '%s' is relative; ParallelCluster mounts it at %s", dir, abs);
		diag_set_help(g, "write the absolute path %s", abs);
	}
}

static void check_mount_dir(const struct pc *pc, yd_node mount)
{
	const char *dir = yd_str(pc->cl->doc, mount, NULL);
	if (!dir || yd_type(pc->cl->doc, mount) != YD_T_STRING)
		return;
	char abs[512];
	absolute(dir, abs, sizeof abs);
	if (!reserved_mount_dir(pc, mount, abs))
		relative_mount_dir(pc, mount, dir, abs);
}

/* A MountDir made absolute, and where it is. */
struct mount {
	char *dir;
	size_t index; /* in SharedStorage */
	yd_node node;
};

/* Two mounts that clash, reported at the later one. */
struct clash {
	const struct mount *later, *earlier;
	bool same; /* else nested */
};

static int mount_cmp(const void *pa, const void *pb)
{
	const struct mount *a = pa, *b = pb;
	int c = strcmp(a->dir, b->dir);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int clash_cmp(const void *pa, const void *pb)
{
	const struct clash *a = pa, *b = pb;
	if (a->later->index != b->later->index)
		return a->later->index < b->later->index ? -1 : 1;
	return (a->earlier->index > b->earlier->index) - (a->earlier->index < b->earlier->index);
}

/* dir against the first len bytes of s, in strcmp's order. */
static int dir_cmp(const char *dir, const char *s, size_t len)
{
	int c = strncmp(dir, s, len);
	return c ? c : dir[len] != '\0';
}

/* The first of the sorted mounts whose dir is s[0..len), or n. */
static size_t mount_find(const struct mount *v, size_t n, const char *s, size_t len)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dir_cmp(v[mid].dir, s, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && dir_cmp(v[lo].dir, s, len) == 0 ? lo : n;
}

static void clash_add(struct clash **v, size_t *n, size_t *cap, const struct mount *x,
		      const struct mount *y, bool same)
{
	*v = xgrow(*v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = x->index > y->index ? (struct clash){ x, y, same }
					   : (struct clash){ y, x, same };
}

/* Every pair of mounts that are the same directory or nested, found from
 * the sorted list: a mount's equals are beside it and each of its parent
 * directories is one lookup, so the work follows what is reported rather
 * than the square of the number of storages. */
static size_t find_clashes(const struct mount *v, size_t n, struct clash **out)
{
	size_t count = 0, cap = 0;
	*out = NULL;
	for (size_t y = 0; y < n; y++) {
		for (size_t x = y; x > 0 && strcmp(v[x - 1].dir, v[y].dir) == 0; x--)
			clash_add(out, &count, &cap, &v[x - 1], &v[y], true);
		for (size_t k = 1; v[y].dir[k]; k++) {
			if (v[y].dir[k] != '/')
				continue;
			for (size_t x = mount_find(v, n, v[y].dir, k);
			     x < n && dir_cmp(v[x].dir, v[y].dir, k) == 0; x++)
				clash_add(out, &count, &cap, &v[x], &v[y], false);
		}
	}
	if (count > 1)
		qsort(*out, count, sizeof **out, clash_cmp);
	return count;
}

/* PC4002 mount-dir-clash */
static void mount_dir_clash(const struct pc *pc, yd_node storages)
{
	const yamldoc *d = pc->cl->doc;
	size_t n = 0;
	struct mount *v = xcalloc(yd_len(d, storages) + 1, sizeof *v);
	for (size_t i = 0; i < yd_len(d, storages); i++) {
		yd_node m = yd_get(d, yd_item(d, storages, i), "MountDir");
		const char *dir = yd_str(d, m, NULL);
		if (!dir)
			continue;
		char abs[512];
		absolute(dir, abs, sizeof abs);
		v[n++] = (struct mount){ xstrdup(abs), i, m };
	}
	qsort(v, n, sizeof *v, mount_cmp);
	struct clash *c;
	size_t count = find_clashes(v, n, &c);
	for (size_t i = 0; i < count; i++) {
		uint32_t line = yd_span(d, c[i].earlier->node).line;
		if (c[i].same)
			pc_report(pc, R_PC4002, c[i].later->node, "MountDir %s is also used at line %u",
				  c[i].later->dir, line);
		else
			pc_report(pc, R_PC4002, c[i].later->node, "MountDir %s and %s (line %u) are nested",
				  c[i].later->dir, c[i].earlier->dir, line);
	}
	free(c);
	for (size_t i = 0; i < n; i++)
		free(v[i].dir);
	free(v);
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
	const yamldoc *d = pc->cl->doc;
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

/* PC4004 too-many-storages */
static void too_many_storages(const struct pc *pc, yd_node storage, int class)
{
	pc_report(pc, R_PC4004, storage, "more than %d %s; ParallelCluster allows at most %d",
		  limits[class].max, limits[class].what, limits[class].max);
}

/* The first two different subnets of the queues, in order, or NULLs. */
struct two_subnets {
	const char *first, *other;
};

static struct two_subnets find_two_subnets(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	struct two_subnets t = { NULL, NULL };
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node ids = yd_get(d, yd_get(d, yd_item(d, queues, i), "Networking"), "SubnetIds");
		for (size_t j = 0; j < yd_len(d, ids) && yd_kind(d, ids) == YD_SEQUENCE; j++) {
			const char *s = yd_str(d, yd_item(d, ids, j), NULL);
			if (!s || cluster_unknown(pc->cl, yd_item(d, ids, j)))
				continue; /* a placeholder may be any of them */
			if (!t.first) {
				t.first = s;
			} else if (strcmp(t.first, s) != 0) {
				t.other = s;
				return t;
			}
		}
	}
	return t;
}

/* A new FSx for Lustre file system lives in one subnet; queues in other
 * Availability Zones cannot reach it well, and ParallelCluster refuses.
 * The subnets are looked at once, however many file systems there are. */
/* PC4005 managed-fsx-multi-subnet */
static void managed_fsx_multi_subnet(const struct pc *pc, yd_node storage,
				     const struct two_subnets *subnets)
{
	if (subnets->other)
		pc_report(pc, R_PC4005, storage,
			  "a new FSx for Lustre file system with queues in more than one subnet (%s, %s)",
			  subnets->first, subnets->other);
}

/* FSx for Lustre sizes come in steps that depend on the deployment type
 * and, for HDD, on the throughput per TiB. */
/* PC4006 fsx-storage-capacity */
static void fsx_storage_capacity(const struct pc *pc, yd_node settings)
{
	const yamldoc *d = pc->cl->doc;
	yd_node cap_n = yd_get(d, settings, "StorageCapacity");
	long long cap, tput = 0;
	if (!cluster_int(pc->cl, cap_n, &cap) || cap <= 0)
		return;
	static const char *const deciding[] = { "DeploymentType", "StorageType", "PerUnitStorageThroughput" };
	for (size_t i = 0; i < sizeof deciding / sizeof deciding[0]; i++)
		if (yd_type(d, yd_get(d, settings, deciding[i])) == YD_T_UNKNOWN)
			return; /* a placeholder decides which sizes are valid */
	const char *type = yd_str(d, yd_get(d, settings, "DeploymentType"), NULL);
	bool hdd = yd_str_eq(d, yd_get(d, settings, "StorageType"), "HDD");
	cluster_int(pc->cl, yd_get(d, settings, "PerUnitStorageThroughput"), &tput);
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
	const yamldoc *d = pc->cl->doc;
	yd_node storages = yd_get(d, pc->cl->root, "SharedStorage");
	if (yd_kind(d, storages) != YD_SEQUENCE)
		return;
	int counts[CLASS_COUNT] = { 0 };
	struct two_subnets subnets = { NULL, NULL };
	bool subnets_found = false;
	for (size_t i = 0; i < yd_len(d, storages); i++) {
		yd_node s = yd_item(d, storages, i);
		check_mount_dir(pc, yd_get(d, s, "MountDir"));
		fsx_storage_capacity(pc, yd_get(d, s, "FsxLustreSettings"));
		int c = classify(pc, s);
		if (c < 0)
			continue;
		if (++counts[c] == limits[c].max + 1)
			too_many_storages(pc, s, c);
		if (c == FSX_NEW && !subnets_found) {
			subnets = find_two_subnets(pc);
			subnets_found = true;
		}
		if (c == FSX_NEW)
			managed_fsx_multi_subnet(pc, s, &subnets);
	}
	mount_dir_clash(pc, storages);
}
