/* The sbatch option table and its lookups. The 22.05 rows were taken
 * from the option table that libslurmfull 22.05.8 builds for sbatch
 * (slurm_option_table_create), so names, short letters and argument
 * kinds are what getopt sees; value syntaxes from sbatch(1) 22.05 and
 * checked against that sbatch's own parsing. Rows with `since` are later
 * additions and `until` marks a removal, each release as
 * docs/versions.md ("slurm-options-sbatch", "slurm-options-corrections")
 * gives it from Slurm 25.11.7's source and changelogs: --export-file
 * stays, although the 23.11 changelog says it was removed, because
 * 25.11.7 still parses and uses it; --power is gone by 25.11.7, removed
 * in 24.05 (docs/versions.md, "targets-slurm"). */
#include "options.h"

#include <ctype.h>
#include <string.h>

#include "text.h"

#define N SBOPT_ARG_NONE
#define R SBOPT_ARG_REQUIRED
#define O SBOPT_ARG_OPTIONAL

/* Values later releases added are in the lists; changes.c says which
 * release. allow-task-sharing is srun's alone (values.c). */
static const char *const exclusive_v[] = { "user", "mcs", "topo", NULL };
static const char *const gres_flags_v[] = {
	"disable-binding", "enforce-binding", "one-task-per-sharing",
	"multiple-tasks-per-sharing", NULL
};
static const char *const requeue_v[] = { "expedite", NULL };
static const char *const hint_v[] = {
	"compute_bound", "memory_bound", "multithread", "nomultithread", "help", NULL
};
static const char *const yes_no_v[] = { "yes", "no", NULL };
static const char *const mail_v[] = {
	"NONE", "BEGIN", "END", "FAIL", "REQUEUE", "ALL", "INVALID_DEPEND",
	"STAGE_OUT", "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80",
	"TIME_LIMIT_50", "ARRAY_TASKS", NULL
};
static const char *const no_kill_v[] = { "off", NULL };
static const char *const open_mode_v[] = { "append", "truncate", NULL };
static const char *const oom_v[] = { "0", "1", NULL };

/* since: V0 (in 22.05) or S(23, 2), the release that added it. */
#define V0 { 0, 0, 0, false }
#define S(y, m) VERSION_AT(y, m, 0)
#define OPT(name, sh, arg, syn, ch, since, flags, alias, ex, sum) \
	{ name, sh, arg, syn, ch, since, V0, flags, alias, ex, sum, NULL }
/* An option sbatch 22.05 accepts only together with another. */
#define OPTN(name, sh, arg, syn, ch, since, flags, alias, ex, sum, needs) \
	{ name, sh, arg, syn, ch, since, V0, flags, alias, ex, sum, needs }
/* An option a release removed (until). */
#define OPTGONE(name, sh, arg, syn, ch, until, flags, alias, ex, sum) \
	{ name, sh, arg, syn, ch, V0, until, flags, alias, ex, sum, NULL }

/* Sorted by long name (strcmp order): sbopt_find_n bisects it. */
static const struct sbopt table[] = {
	OPT("account", 'A', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "research", "charge the job to this account"),
	OPT("acctg-freq", 0, R, SBV_ACCTG_FREQ, NULL, V0, 0, NULL, "task=30", "accounting and profiling sampling intervals"),
	OPT("array", 'a', R, SBV_ARRAY, NULL, V0, 0, NULL, "0-3", "submit a job array"),
	OPT("autocomplete", 0, R, SBV_TEXT, NULL, S(23, 2), SBOPT_CLIENT, NULL, "--no", "print shell completions and exit without submitting"),
	OPT("batch", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "haswell", "node features the batch step needs"),
	OPT("bb", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "capacity=1G", "burst buffer specification"),
	OPT("bbf", 0, R, SBV_TEXT, NULL, V0, SBOPT_FILE, NULL, "bb.conf", "file with a burst buffer specification"),
	OPT("begin", 'b', R, SBV_DATETIME, NULL, V0, 0, NULL, "now+1hour", "defer the job until this time"),
	OPT("chdir", 'D', R, SBV_TEXT, NULL, V0, 0, NULL, "/tmp", "working directory of the batch script"),
	OPT("cluster", 0, R, SBV_TEXT, NULL, V0, SBOPT_HIDDEN | SBOPT_SITE, "clusters", "cluster1", "alias of --clusters"),
	OPT("cluster-constraint", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "fast", "features a federated cluster must have"),
	OPT("clusters", 'M', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "cluster1", "clusters to submit to"),
	OPT("comment", 0, R, SBV_TEXT, NULL, V0, 0, NULL, "training run", "arbitrary comment"),
	OPT("consolidate-segments", 0, N, SBV_NONE, NULL, S(25, 11), SBOPT_BLOCK, NULL, NULL, "pack the segments into as few blocks as possible"),
	OPT("constraint", 'C', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "intel", "node features required"),
	OPT("container", 0, R, SBV_TEXT, NULL, V0, 0, NULL, "/srv/bundle", "path to an OCI container bundle"),
	OPT("container-id", 0, R, SBV_TEXT, NULL, S(25, 11), SBOPT_UNSURE, NULL, "c1", "OCI container ID"),
	OPT("container-type", 0, R, SBV_TEXT, NULL, S(26, 5), 0, NULL, "oci", "container type (26.05)"),
	OPT("context", 0, R, SBV_TEXT, NULL, V0, SBOPT_HIDDEN, NULL, "user_u:user_r:user_t:s0", "SELinux context"),
	OPT("contiguous", 0, N, SBV_NONE, NULL, V0, 0, NULL, NULL, "allocated nodes must be contiguous"),
	OPT("core-spec", 'S', R, SBV_COUNT0, NULL, V0, 0, NULL, "0", "specialized cores per node"),
	OPT("cores-per-socket", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "2", "minimum cores per socket"),
	OPT("cpu-freq", 0, R, SBV_CPU_FREQ, NULL, V0, 0, NULL, "high", "CPU frequency and governor for job steps"),
	OPT("cpus-per-gpu", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "4", "CPUs per allocated GPU"),
	OPT("cpus-per-task", 'c', R, SBV_COUNT, NULL, V0, 0, NULL, "4", "CPUs per task"),
	OPT("deadline", 0, R, SBV_DATETIME, NULL, V0, 0, NULL, "now+1day", "remove the job if it cannot end by then"),
	OPT("delay-boot", 0, R, SBV_TIME, NULL, V0, 0, NULL, "10", "minutes to wait before rebooting nodes for features"),
	OPT("dependency", 'd', R, SBV_DEPENDENCY, NULL, V0, 0, NULL, "singleton", "defer until dependencies are satisfied"),
	OPT("distribution", 'm', R, SBV_DISTRIBUTION, NULL, V0, 0, NULL, "block", "task distribution method"),
	OPT("error", 'e', R, SBV_PATTERN, NULL, V0, 0, NULL, "%x-%j.err", "file for the batch script's standard error"),
	OPT("exclude", 'x', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "node[1-2]", "nodes to exclude"),
	OPT("exclusive", 0, O, SBV_ENUM, exclusive_v, V0, 0, NULL, "user", "do not share nodes with other jobs"),
	OPT("export", 0, R, SBV_TEXT, NULL, V0, 0, NULL, "ALL", "environment variables to propagate"),
	OPT("export-file", 0, R, SBV_TEXT, NULL, V0, SBOPT_FILE, NULL, "env.txt", "file of NUL-separated variables to export"),
	OPT("external", 0, N, SBV_NONE, NULL, S(25, 11), SBOPT_UNSURE, NULL, NULL, "mark the job as an external job"),
	OPT("extra", 0, R, SBV_TEXT, NULL, S(23, 2), 0, NULL, "note", "arbitrary string for the job's extra field"),
	OPT("extra-node-info", 'B', R, SBV_EXTRA_NODE_INFO, NULL, V0, 0, NULL, "1:2:1", "sockets[:cores[:threads]] per node"),
	OPT("get-user-env", 0, O, SBV_GET_USER_ENV, NULL, V0, SBOPT_PRIVILEGED, NULL, "10L", "load the user's login environment"),
	OPT("gid", 0, R, SBV_TEXT, NULL, V0, SBOPT_PRIVILEGED, NULL, "0", "group to run the job as (root only)"),
	OPT("gpu-bind", 0, R, SBV_GPU_BIND, NULL, V0, 0, NULL, "closest", "task to GPU binding"),
	OPT("gpu-freq", 0, R, SBV_GPU_FREQ, NULL, V0, 0, NULL, "high", "GPU frequency"),
	OPT("gpus", 'G', R, SBV_TRES, NULL, V0, 0, NULL, "1", "GPUs for the whole job"),
	OPT("gpus-per-node", 0, R, SBV_TRES, NULL, V0, 0, NULL, "1", "GPUs per node"),
	OPTN("gpus-per-socket", 0, R, SBV_TRES, NULL, V0, 0, NULL, "1", "GPUs per socket", "--sockets-per-node=1"),
	OPTN("gpus-per-task", 0, R, SBV_TRES, NULL, V0, 0, NULL, "1", "GPUs per task", "--ntasks=1"),
	OPT("gres", 0, R, SBV_GRES, NULL, V0, SBOPT_SITE, NULL, "gpu:1", "generic resources per node"),
	OPT("gres-flags", 0, R, SBV_ENUM, gres_flags_v, V0, 0, NULL, "enforce-binding", "GRES task binding"),
	OPT("help", 'h', N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "print help and exit without submitting"),
	OPT("hint", 0, R, SBV_ENUM, hint_v, V0, 0, NULL, "nomultithread", "task binding hint"),
	OPT("hold", 'H', N, SBV_NONE, NULL, V0, 0, NULL, NULL, "submit the job held"),
	OPT("ignore-pbs", 0, N, SBV_NONE, NULL, V0, 0, NULL, NULL, "ignore #PBS and #BSUB lines"),
	OPT("input", 'i', R, SBV_PATTERN, NULL, V0, 0, NULL, "/dev/null", "file for the batch script's standard input"),
	OPT("job-name", 'J', R, SBV_TEXT, NULL, V0, 0, NULL, "train", "job name"),
	OPT("kill-on-invalid-dep", 0, R, SBV_ENUM, yes_no_v, V0, 0, NULL, "yes", "cancel the job if its dependency can never be met"),
	OPT("licenses", 'L', R, SBV_LICENSES, NULL, V0, SBOPT_SITE, NULL, "matlab:1", "licenses to allocate"),
	OPT("mail-type", 0, R, SBV_ENUM_LIST, mail_v, V0, 0, NULL, "END,FAIL", "events that send mail"),
	OPT("mail-user", 0, R, SBV_TEXT, NULL, V0, 0, NULL, "user@example.com", "who receives the mail"),
	OPT("mcs-label", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "grp", "MCS label (mcs/group plugin)"),
	OPT("mem", 0, R, SBV_MEM, NULL, V0, 0, NULL, "16G", "memory per node"),
	OPT("mem-bind", 0, R, SBV_MEM_BIND, NULL, V0, 0, NULL, "local", "task to memory binding"),
	OPT("mem-per-cpu", 0, R, SBV_MEM, NULL, V0, 0, NULL, "2G", "memory per allocated CPU"),
	OPTN("mem-per-gpu", 0, R, SBV_MEM, NULL, V0, 0, NULL, "8G", "memory per allocated GPU", "--gpus=1"),
	OPT("mem-update", 0, R, SBV_TEXT, NULL, S(26, 5), 0, NULL, "10%@60", "grow the memory limit by MARGIN after DELAY (26.05)"),
	OPT("mincpus", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "2", "minimum CPUs per node"),
	OPT("network", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "system", "switch or network information"),
	OPT("nice", 0, O, SBV_INT, NULL, V0, 0, NULL, "10", "lower the job's priority by this much"),
	OPT("no-kill", 'k', O, SBV_ENUM, no_kill_v, V0, 0, NULL, "off", "do not kill the job when a node fails"),
	OPT("no-requeue", 0, N, SBV_NONE, NULL, V0, 0, NULL, NULL, "never requeue the job"),
	OPT("nodefile", 'F', R, SBV_TEXT, NULL, V0, SBOPT_FILE, NULL, "hosts.txt", "file listing the nodes to use"),
	OPT("nodelist", 'w', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "node[1-2]", "nodes to use"),
	OPT("nodes", 'N', R, SBV_NODES, NULL, V0, 0, NULL, "2", "number of nodes (N or MIN-MAX)"),
	OPT("ntasks", 'n', R, SBV_COUNT, NULL, V0, 0, NULL, "8", "maximum number of tasks"),
	OPT("ntasks-per-core", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "tasks per core"),
	OPTN("ntasks-per-gpu", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "tasks per GPU", "--gpus=1"),
	OPT("ntasks-per-node", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "8", "tasks per node"),
	OPT("ntasks-per-socket", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "tasks per socket"),
	OPTN("ntasks-per-tres", 0, R, SBV_COUNT, NULL, V0, SBOPT_HIDDEN, "ntasks-per-gpu", "1", "tasks per GPU (internal)", "--gpus=1"),
	OPT("oom-kill-step", 0, O, SBV_ENUM, oom_v, S(24, 11), 0, NULL, "1", "kill the whole step when one task hits OOM"),
	OPT("open-mode", 0, R, SBV_ENUM, open_mode_v, V0, 0, NULL, "append", "open output files in append or truncate mode"),
	OPT("output", 'o', R, SBV_PATTERN, NULL, V0, 0, NULL, "%x-%j.out", "file for the batch script's standard output"),
	OPT("overcommit", 'O', N, SBV_NONE, NULL, V0, 0, NULL, NULL, "overcommit resources"),
	OPT("oversubscribe", 's', N, SBV_NONE, NULL, V0, 0, NULL, NULL, "share resources with other jobs"),
	OPT("parsable", 0, N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "print only the job ID"),
	OPT("partition", 'p', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "debug", "partition (queue) to use"),
	OPTGONE("power", 0, R, SBV_TEXT, NULL, S(24, 5), 0, NULL, "level", "power management flags"),
	OPT("prefer", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "intel", "node features preferred but not required"),
	OPT("priority", 0, R, SBV_PRIORITY, NULL, V0, SBOPT_PRIVILEGED, NULL, "TOP", "job priority (operators only)"),
	OPT("profile", 0, R, SBV_PROFILE, NULL, V0, 0, NULL, "task", "acct_gather_profile data to collect"),
	OPT("propagate", 0, O, SBV_PROPAGATE, NULL, V0, 0, NULL, "STACK", "resource limits to propagate"),
	OPT("qos", 'q', R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "normal", "quality of service"),
	OPT("quiet", 'Q', N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "suppress informational messages"),
	OPT("reboot", 0, N, SBV_NONE, NULL, V0, SBOPT_PRIVILEGED, NULL, NULL, "reboot nodes before the job"),
	OPT("requeue", 0, O, SBV_ENUM, requeue_v, V0, 0, NULL, "expedite", "allow the job to be requeued (=expedite: at once, 25.11)"),
	OPT("reservation", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "maint", "reservation to allocate from"),
	OPT("resources", 0, R, SBV_TEXT, NULL, S(25, 5), SBOPT_SITE, NULL, "ib:1", "hierarchical resources to allocate"),
	OPT("resv-ports", 0, O, SBV_COUNT, NULL, S(24, 5), 0, NULL, "2", "reserve MPI ports for the job (stepmgr jobs)"),
	OPT("segment", 0, R, SBV_COUNT, NULL, S(24, 5), SBOPT_BLOCK, NULL, "2", "segment size for topology/block"),
	OPT("signal", 0, R, SBV_SIGNAL, NULL, V0, 0, NULL, "B:USR1@60", "signal to send before the time limit"),
	OPT("sockets-per-node", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "minimum sockets per node"),
	OPT("spread-job", 0, N, SBV_NONE, NULL, V0, 0, NULL, NULL, "spread the job over as many nodes as possible"),
	OPT("spread-segments", 0, N, SBV_NONE, NULL, S(25, 11), SBOPT_BLOCK, NULL, NULL, "put each segment on its own base block"),
	OPT("stepmgr", 0, N, SBV_NONE, NULL, S(24, 5), 0, NULL, NULL, "manage job steps on the batch node"),
	OPT("switches", 0, R, SBV_SWITCHES, NULL, V0, 0, NULL, "1", "maximum leaf switches [@max-wait]"),
	OPT("tasks-per-node", 0, R, SBV_COUNT, NULL, V0, SBOPT_HIDDEN, "ntasks-per-node", "8", "alias of --ntasks-per-node"),
	OPT("test-only", 0, N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "estimate the start time, submit nothing"),
	OPT("thread-spec", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "specialized threads per node"),
	OPT("threads-per-core", 0, R, SBV_COUNT, NULL, V0, 0, NULL, "1", "threads per core"),
	OPT("time", 't', R, SBV_TIME, NULL, V0, 0, NULL, "1-00:00:00", "time limit"),
	OPT("time-min", 0, R, SBV_TIME, NULL, V0, 0, NULL, "60", "minimum time limit"),
	OPT("tmp", 0, R, SBV_MEM, NULL, V0, 0, NULL, "10G", "minimum temporary disk per node"),
	OPT("tres-bind", 0, R, SBV_TEXT, NULL, S(23, 11), 0, NULL, "gres/gpu:closest", "task to TRES binding"),
	OPT("tres-per-task", 0, R, SBV_TEXT, NULL, S(23, 2), 0, NULL, "cpu=2", "TRES per task"),
	OPT("uid", 0, R, SBV_TEXT, NULL, V0, SBOPT_PRIVILEGED, NULL, "0", "user to run the job as (root only)"),
	OPT("usage", 0, N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "print usage and exit without submitting"),
	OPT("use-min-nodes", 0, N, SBV_NONE, NULL, V0, 0, NULL, NULL, "prefer the smaller node count of a range"),
	OPT("verbose", 'v', N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "more sbatch messages"),
	OPT("version", 'V', N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "print the version and exit without submitting"),
	OPT("wait", 'W', N, SBV_NONE, NULL, V0, SBOPT_CLIENT, NULL, NULL, "sbatch waits for the job to end"),
	OPT("wait-all-nodes", 0, R, SBV_BOOL01, NULL, V0, 0, NULL, "1", "start only when all nodes are booted"),
	OPT("wckey", 0, R, SBV_TEXT, NULL, V0, SBOPT_SITE, NULL, "proj", "workload characterization key"),
	OPT("wrap", 0, R, SBV_TEXT, NULL, V0, SBOPT_CLIENT, NULL, "hostname", "submit a command string instead of a script"),
};

#define TABLE_LEN (sizeof table / sizeof table[0])

size_t sbopt_count(void)
{
	return TABLE_LEN;
}

const struct sbopt *sbopt_at(size_t i)
{
	return i < TABLE_LEN ? &table[i] : NULL;
}

static int name_cmp(const char *name, size_t len, const char *entry)
{
	int c = strncmp(name, entry, len);
	if (c)
		return c;
	return entry[len] ? -1 : 0;
}

static const struct sbopt *find_short(char c)
{
	for (size_t i = 0; i < TABLE_LEN; i++)
		if (table[i].short_name == c)
			return &table[i];
	return NULL;
}

static const struct sbopt *find_long(const char *name, size_t len)
{
	size_t lo = 0, hi = TABLE_LEN;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = name_cmp(name, len, table[mid].name);
		if (c == 0)
			return &table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct sbopt *sbopt_find_n(const char *name, size_t len)
{
	/* "-N" is short, "--nodes" and "nodes" are long; a lone letter
	 * without dashes is taken as short too, since no long name is one
	 * letter. */
	if (len == 2 && name[0] == '-' && name[1] != '-')
		return find_short(name[1]);
	while (len && *name == '-')
		name++, len--;
	if (len == 1)
		return find_short(name[0]);
	return find_long(name, len);
}

const struct sbopt *sbopt_find(const char *name)
{
	return name ? sbopt_find_n(name, strlen(name)) : NULL;
}

enum sbopt_release sbopt_release_of(struct version since, struct version until, bool unsure,
				    struct version slurm, struct version *when)
{
	if (version_is_set(until) && version_cmp(slurm, until) >= 0) {
		*when = until;
		return SBOPT_REMOVED;
	}
	if (version_is_set(since) && version_cmp(slurm, since) < 0) {
		*when = since;
		/* unsure: only 22.05, the baseline, is known to lack it */
		bool baseline = slurm.major < 22 || (slurm.major == 22 && slurm.minor <= 5);
		return unsure && !baseline ? SBOPT_MAYBE : SBOPT_NEWER;
	}
	return SBOPT_PRESENT;
}

enum sbopt_release sbopt_at_release(const struct sbopt *o, struct version slurm,
				    struct version *when)
{
	return sbopt_release_of(o->since, o->until, o->flags & SBOPT_UNSURE, slurm, when);
}

/* getopt_long over the options one release has (all != NULL: every
 * option no release removed): an exact name wins, else a unique prefix. */
static const struct sbopt *match(const char *name, size_t len, const struct version *at,
				 bool *ambiguous)
{
	*ambiguous = false;
	while (len && *name == '-')
		name++, len--;
	if (!len)
		return NULL;
	struct version when;
	const struct sbopt *exact = find_long(name, len);
	if (exact && (!at || sbopt_at_release(exact, *at, &when) == SBOPT_PRESENT))
		return exact;
	const struct sbopt *hit = NULL;
	for (size_t i = 0; i < TABLE_LEN; i++) {
		const struct sbopt *o = &table[i];
		bool has = at ? sbopt_at_release(o, *at, &when) == SBOPT_PRESENT
			      : !version_is_set(o->until);
		if (!has || strncmp(o->name, name, len) != 0)
			continue;
		if (hit) {
			*ambiguous = true;
			return NULL;
		}
		hit = o;
	}
	return hit;
}

const struct sbopt *sbopt_match(const char *name, size_t len, bool *ambiguous)
{
	return match(name, len, NULL, ambiguous);
}

const struct sbopt *sbopt_match_at(const char *name, size_t len, struct version slurm,
				   bool *ambiguous)
{
	return match(name, len, &slurm, ambiguous);
}

/* Distance with '_' read as '-', since scripts often carry torchrun's
 * underscore habit into sbatch options. */
static size_t option_distance(const char *a, size_t alen, const char *b, size_t limit)
{
	char buf[64];
	if (alen >= sizeof buf)
		return limit + 1;
	for (size_t i = 0; i < alen; i++)
		buf[i] = a[i] == '_' ? '-' : (char)tolower((unsigned char)a[i]);
	return text_edit_distance(buf, alen, b, strlen(b), limit);
}

const char *sbopt_suggest(const char *name)
{
	if (!name)
		return NULL;
	while (*name == '-')
		name++;
	size_t len = strcspn(name, "=");
	if (len < 2)
		return NULL;
	size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	const struct sbopt *best = NULL;
	size_t best_d = limit + 1;
	for (size_t i = 0; i < TABLE_LEN; i++) {
		const struct sbopt *o = &table[i];
		size_t d = option_distance(name, len, o->name, limit);
		/* Prefer the documented name over a hidden alias at a tie. */
		if (d < best_d || (d == best_d && best && (best->flags & SBOPT_HIDDEN) &&
				   !(o->flags & SBOPT_HIDDEN))) {
			best = o;
			best_d = d;
		}
	}
	if (best && best->alias_of)
		return best->alias_of;
	return best ? best->name : NULL;
}
