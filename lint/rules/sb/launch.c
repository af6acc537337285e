/* SB20xx: how the job starts on every node: srun around the launcher,
 * one task per node, rendezvous, node-specific values, ports, and the
 * log paths sbatch opens before the script runs. The order launchers run
 * in is order.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "releases.h"
#include "sb.h"
#include "text.h"

/* A launcher that starts the other nodes' processes itself: Neuron's
 * nccom-test given --hosts, the
 * deepspeed runner given a hostfile, a host list or a multi-node
 * launcher (pdsh by default, or mpirun, or srun), and accelerate
 * handing a DeepSpeed job to that runner. */
static bool part_reaches_nodes(const sb_part *p)
{
	if (sb_part_kind(p) != SB_PROG_LAUNCHER)
		return false;
	if (!strcmp(sb_part_name(p), "nccom-test"))
		return sb_flag_find(p, "hosts") != NULL;
	const sb_word *e = sb_part_entry(p);
	const char *module = e ? sb_word_value(e) : NULL;
	if (!strcmp(sb_part_name(p), "deepspeed") ||
	    (module && !strcmp(module, "deepspeed.launcher.runner")))
		return sb_flag_find(p, "hostfile") || sb_flag_find(p, "include") ||
		       sb_flag_find(p, "launcher") || sb_flag_find(p, "force-multi");
	const sb_word *l = sb_flag(p, "deepspeed-multinode-launcher");
	const char *lv = l ? sb_word_value(l) : NULL;
	return sb_flag_find(p, "deepspeed-hostfile") && (!lv || strcmp(lv, "standard") != 0);
}

bool sbc_starts_nodes(const sb_cmd *cmd)
{
	if (sb_cmd_find(cmd, SB_PROG_SRUN) || sb_cmd_find(cmd, SB_PROG_MPIRUN) ||
	    sb_cmd_find(cmd, SB_PROG_REMOTE))
		return true;
	for (size_t i = 0; i < sb_cmd_part_count(cmd); i++)
		if (part_reaches_nodes(sb_cmd_part(cmd, i)))
			return true;
	return false;
}

static bool runs_under_srun(const sb_cmd *cmd)
{
	for (const sb_cmd *at = cmd; at; at = sb_cmd_parent(at))
		if (sbc_starts_nodes(at))
			return true;
	return false;
}

static bool any_launcher(const sb_model *m)
{
	for (size_t i = 0; i < sb_cmd_count(m); i++)
		if (sbc_starts_nodes(sb_cmd_at(m, i)))
			return true;
	return false;
}

static const struct sb_directive *nodes_directive(const struct sbc *c)
{
	return sb_directive_find(c->m, "nodes");
}

/* SB2001 multi-node-without-launcher */
static void multi_node_without_launcher(struct sbc *c)
{
	/* a launcher may stand in a statement that did not parse */
	if (!sbc_multi_node(c) || c->per_node || !sb_complete(c->m) || any_launcher(c->m))
		return;
	struct diag *g = sbc_report(c, R_SB2001, nodes_directive(c)->span,
		"%lld nodes are allocated, but nothing starts work on them: no srun or mpirun in the script",
		c->nodes);
	diag_set_help(g, "the batch script runs on the first node only; start the launcher with srun");
}

static long long part_int(const struct sbc *c, const sb_cmd *cmd, const sb_part *p,
			  const char *flag)
{
	long long v = 0;
	return sbc_word_int(c, sb_flag(p, flag), cmd, &v) ? v : 0;
}

/* The most nodes --nnodes lets the launcher wait for (MAX of an elastic
 * MIN:MAX); 0 when unknown. */
static long long nnodes_max(const struct sbc *c, const sb_cmd *cmd, const sb_part *p)
{
	long long min, max;
	return sbc_nnodes(c, p, cmd, &min, &max) ? max : 0;
}

/* A launcher in a branch of a script that starts nodes with srun in
 * another branch: the script picks the plain launch for one node
 * (if [[ $num_nodes == 1 ]]; then composer ...; else srun ...; fi). */
static bool branch_beside_srun(const struct sbc *c, const sb_cmd *cmd)
{
	if (!(sb_cmd_context(cmd) & (SB_CTX_IF | SB_CTX_CASE)))
		return false;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *other = sb_cmd_at(c->m, i);
		if (other != cmd && (sb_cmd_context(other) & (SB_CTX_IF | SB_CTX_CASE)) &&
		    !(sb_cmd_context(other) & SB_CTX_CONDITION) && sbc_starts_nodes(other))
			return true;
	}
	return false;
}

/* SB2002 launcher-without-srun */
static void launcher_without_srun(struct sbc *c, const sb_cmd *cmd, const sb_part *p)
{
	long long nnodes = nnodes_max(c, cmd, p);
	if (c->per_node || runs_under_srun(cmd) || (sb_cmd_context(cmd) & SB_CTX_FUNCTION) ||
	    branch_beside_srun(c, cmd))
		return;
	if (!sbc_multi_node(c) && nnodes <= 1)
		return;
	struct diag *g = sbc_report(c, R_SB2002, sb_word_span(sb_part_program(p)),
		"%s runs only on the first node: the batch script is not run on the others%s",
		sb_part_name(p), nnodes > 1 ? ", so it waits for peers that never come" : "");
	diag_set_help(g, "start it with 'srun --ntasks-per-node=1 %s ...'", sb_part_name(p));
	/* unsafe: the launcher then runs once on every node */
	size_t at = sb_word_span(sb_part_program(p)).off;
	diag_set_fix_bytes(g, at, at, "srun --ntasks-per-node=1 ");
}

/* SB2003 tasks-per-node-with-torchrun */
static void tasks_per_node_with_torchrun(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	/* srun bash -c '... torchrun ...': the srun of the string's command */
	const sb_part *srun = NULL;
	for (const sb_cmd *at = cmd; at && !srun; at = sb_cmd_parent(at))
		if ((srun = sb_cmd_find(at, SB_PROG_SRUN)))
			cmd = at;
	if (!srun)
		return;
	long long per_node = part_int(c, cmd, srun, "ntasks-per-node");
	if (!per_node && !sb_flag(srun, "ntasks") && !sb_flag(srun, "nodes"))
		per_node = c->tasks_per_node;
	long long procs = part_int(c, cmd, torch, "nproc-per-node");
	if (per_node > 1)
		sbc_report(c, R_SB2003, sb_word_span(sb_part_program(srun)),
			   "srun starts %lld tasks per node, each running torchrun%s: %lld launchers per node",
			   per_node, procs > 1 ? " with several workers" : "", per_node);
}

static bool is_node_var(const char *v)
{
	static const char *const vars[] = { "SLURM_NODEID", "SLURM_PROCID", "SLURM_LOCALID", NULL };
	for (const char *const *p = vars; *p; p++)
		if (!strcmp(v, *p))
			return true;
	return false;
}

/* A flag of a part that srun starts whose value the batch shell
 * computed: a node variable in it, or a rank from a command
 * substitution. Reports and returns true at the first. */
static bool batch_node_value(struct sbc *c, const sb_cmd *cmd, const sb_part *p, bool in_string)
{
	for (size_t f = 0; f < sb_part_flag_count(p); f++) {
		const struct sb_flag *fl = sb_part_flag(p, f);
		const sb_word *w = fl->value ? fl->value : fl->word;
		if (!sb_word_batch_expanded(c->m, w, cmd))
			continue;
		for (size_t r = 0; r < sb_word_ref_count(w); r++)
			if (is_node_var(sb_word_ref(w, r))) {
				struct diag *g = sbc_report(c, R_SB2004, sb_word_span(w),
					"$%s is expanded once in the batch step, so every node gets the first node's value",
					sb_word_ref(w, r));
				if (in_string)
					diag_set_help(g, "the batch shell expands a double-quoted bash -c string before srun starts it: write \\$%s there (or single-quote the string) so each task expands its own",
						      sb_word_ref(w, r));
				return true;
			}
		bool rank = fl->name && (!strcmp(fl->name, "node-rank") || !strcmp(fl->name, "rank") ||
					 !strcmp(fl->name, "machine-rank"));
		if (rank && fl->value && (sb_word_flags(fl->value) & SB_W_CMDSUB)) {
			sbc_report(c, R_SB2004, sb_word_span(fl->value),
				   "%s from a command substitution is computed once in the batch step, not per node",
				   fl->written);
			return true;
		}
	}
	return false;
}

/* SB2004 node-variable-in-batch-step: the srun command line is expanded
 * once, by the batch shell on the first node: $SLURM_NODEID there is 0
 * for every node. So is the text of a double-quoted bash -c string that
 * srun starts, and a variable the batch shell assigned from one. */
static void node_variable_in_batch_step(struct sbc *c, const sb_cmd *cmd)
{
	size_t parts = sb_cmd_part_count(cmd);
	bool in_string = sb_cmd_parent(cmd) && sb_cmd_nest_quote(cmd) && runs_under_srun(cmd);
	bool after_srun = in_string;
	if (!in_string && !sb_cmd_find(cmd, SB_PROG_SRUN))
		return;
	for (size_t i = 0; i < parts; i++) {
		const sb_part *p = sb_cmd_part(cmd, i);
		if (sb_part_kind(p) == SB_PROG_SRUN) {
			after_srun = true;
			continue;
		}
		if (after_srun && batch_node_value(c, cmd, p, in_string && sb_cmd_nest_quote(cmd) == '"'))
			return;
	}
}

/* SB2005 rendezvous-missing; true when torchrun has no --nnodes at all,
 * which leaves nothing for the other rendezvous checks to judge. */
static bool rendezvous_missing(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	if (!sb_flag_find(torch, "nnodes") && sbc_multi_node(c) && runs_under_srun(cmd)) {
		sbc_report(c, R_SB2005, sb_word_span(sb_part_program(torch)),
			   "srun starts torchrun on %lld nodes without --nnodes: each node trains alone", c->nodes);
		return true;
	}
	bool multi = nnodes_max(c, cmd, torch) > 1;
	/* --nnodes=$SLURM_JOB_NUM_NODES is written for any node count */
	struct sb_resolved nr;
	const sb_word *nnw = sb_flag(torch, "nnodes");
	if (nnw && !multi && sb_resolve_word(c->m, nnw, cmd, &nr) == SB_RES_ENV && nr.var &&
	    (!strcmp(nr.var, "SLURM_JOB_NUM_NODES") || !strcmp(nr.var, "SLURM_NNODES") ||
	     !strcmp(nr.var, "SLURM_NTASKS")))
		multi = true;
	bool endpoint = sb_flag(torch, "rdzv-endpoint") != NULL;
	/* only the static backend reads --master-addr */
	const sb_word *backend = sb_flag(torch, "rdzv-backend");
	const char *be = backend ? sb_word_value(backend) : NULL;
	bool dynamic = be && strcmp(be, "static") != 0;
	bool master = sb_flag(torch, "master-addr") != NULL;
	if (multi && !endpoint && master && dynamic)
		sbc_report(c, R_SB2005, sb_word_span(backend),
			   "--rdzv-backend=%s without --rdzv-endpoint ignores --master-addr: each node waits on its own localhost", be);
	else if (multi && !endpoint && !master && !sb_flag(torch, "standalone"))
		sbc_report(c, R_SB2005, sb_word_span(sb_part_program(torch)),
			   "torchrun on several nodes with neither --rdzv-endpoint nor --master-addr: each node waits on localhost");
	return false;
}

bool sbc_fixed_number(const sb_word *w)
{
	const char *v = w ? sb_word_value(w) : NULL;
	if (!v || !*v)
		return false;
	for (; *v; v++)
		if (*v < '0' || *v > '9')
			return false;
	return true;
}

/* SB2006 rendezvous-mixed: torchrun reads --node_rank, --master_addr
 * and --master_port only for the static backend (config_from_args sets
 * the rank for "static" alone; _get_addr_and_port gives other backends
 * none). Under c10d, ranks go by the order nodes join, the store
 * listens at --rdzv_endpoint, and the torchrun of rank 0 takes its own address
 * and a free port for the workers' MASTER_ADDR and MASTER_PORT. */
static void rendezvous_mixed(struct sbc *c, const sb_part *torch)
{
	static const char *const statics[] = { "master-addr", "master-port", "node-rank" };
	const sb_word *backend = sb_flag(torch, "rdzv-backend");
	const char *be = backend ? sb_word_value(backend) : NULL;
	if (!be || strcmp(be, "c10d") != 0 || !sb_flag(torch, "rdzv-endpoint"))
		return;
	const struct sb_flag *found[3];
	unsigned n = 0;
	/* A rank from $SLURM_NODEID is as harmless as it is unused; a
	 * fixed one says the script counts on it. */
	for (size_t i = 0; i < sizeof statics / sizeof statics[0]; i++)
		if ((found[n] = sb_flag_find(torch, statics[i])) &&
		    (i < 2 || sbc_fixed_number(found[n]->value)))
			n++;
	if (!n)
		return;
	char given[128] = "";
	for (unsigned i = 0; i < n; i++) {
		size_t len = strlen(given);
		snprintf(given + len, sizeof given - len, "%s%s",
			 i == 0 ? "" : i + 1 == n ? " and " : ", ", found[i]->written);
	}
	struct diag *g = sbc_report(c, R_SB2006, sb_word_span(backend),
		"--rdzv-backend=c10d ignores %s: node ranks go by the order the nodes join, and the store listens at --rdzv-endpoint",
		given);
	diag_set_help(g, "keep one way to rendezvous: drop %s, or use the static backend with them alone", given);
}

/* SB2007 nnodes-from-ntasks */
static void nnodes_from_ntasks(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	const sb_word *nn = sb_flag(torch, "nnodes");
	struct sb_resolved r;
	if (nn && c->tasks_per_node > 1 && sb_resolve_word(c->m, nn, cmd, &r) == SB_RES_ENV &&
	    r.var && !strcmp(r.var, "SLURM_NTASKS"))
		sbc_report(c, R_SB2007, sb_word_span(nn),
			   "--nnodes from SLURM_NTASKS counts tasks, and there are %lld per node",
			   c->tasks_per_node);
}

static void rendezvous(struct sbc *c, const sb_cmd *cmd, const sb_part *torch)
{
	if (rendezvous_missing(c, cmd, torch))
		return;
	rendezvous_mixed(c, torch);
	nnodes_from_ntasks(c, cmd, torch);
}

static bool names_port(const char *s)
{
	return s && strcasestr(s, "port") != NULL;
}

static bool refs_random(const sb_word *w)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++)
		if (!strcmp(sb_word_ref(w, r), "RANDOM"))
			return true;
	return false;
}

/* What a port from $RANDOM can be, when its arithmetic can be
 * evaluated: NULL when every value is a valid unprivileged port
 * ($((RANDOM + 10000)) is 10000 to 42767), else what goes wrong. */
static const char *random_port_fault(const struct sbc *c, const sb_word *w, const sb_cmd *at,
				     char *buf, size_t cap)
{
	long long lo, hi;
	bool random;
	if (!sbc_word_range(c, w, at, &lo, &hi, &random) || !random) {
		snprintf(buf, cap, "from $RANDOM (0 to 32767) can be privileged, zero, or out of range with an offset");
		return buf;
	}
	if (lo >= 1024 && hi <= 65535)
		return NULL;
	snprintf(buf, cap, "from $RANDOM is %lld to %lld: %s", lo, hi,
		 hi > 65535 ? "it can be above 65535, the last port"
		 : lo <= 0 ? "it can be zero or a privileged port (below 1024)"
			   : "it can be a privileged port (below 1024)");
	return buf;
}

/* SB2008 random-port */
static void random_port(struct sbc *c)
{
	char why[160];
	const char *fault;
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (names_port(a->name) && refs_random(a->value) &&
		    (fault = random_port_fault(c, a->value, a->cmd, why, sizeof why)))
			sbc_report(c, R_SB2008, a->span, "%s %s", a->name, fault);
	}
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t p = 0; p < sb_cmd_part_count(cmd); p++)
			for (size_t f = 0; f < sb_part_flag_count(sb_cmd_part(cmd, p)); f++) {
				const struct sb_flag *fl = sb_part_flag(sb_cmd_part(cmd, p), f);
				if (names_port(fl->name) && refs_random(fl->value) &&
				    (fault = random_port_fault(c, fl->value, cmd, why, sizeof why)))
					sbc_report(c, R_SB2008, sb_word_span(fl->value), "%s %s", fl->written, fault);
			}
	}
}

/* Directories every node has before any job: a log there cannot fail
 * for want of its directory. */
static bool dir_always_there(const struct sbc *c, const char *dir, size_t len)
{
	static const char *const system_dirs[] = { "/tmp", "/var/tmp", "/home", "/dev/shm" };
	for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++)
		if (strlen(system_dirs[i]) == len && !memcmp(dir, system_dirs[i], len))
			return true;
	if (!c->cluster)
		return false;
	const yamldoc *doc = c->cluster->doc;
	yd_node storages = yd_get(doc, yd_root(doc), "SharedStorage");
	for (size_t i = 0; i < yd_len(doc, storages); i++) {
		size_t n;
		const char *m = yd_str(doc, yd_get(doc, yd_item(doc, storages, i), "MountDir"), &n);
		if (m && n == len && !memcmp(m, dir, len))
			return true;
	}
	return false;
}

/* SB2009 output-directory-missing: sbatch opens --output and --error
 * before the script runs; up to Slurm 22.05 their directory must exist
 * already, relative to the submission directory or absolute alike (a
 * real 22.05 fails the job, JobLaunchFailure, for either). From 23.02
 * Slurm creates the directories itself (docs/versions.md,
 * "slurm-options-values": 23.02.0rc1, and checked on a real 25.11.7),
 * so only an older target hears of it. */
static void output_directory_missing(struct sbc *c)
{
	static const struct version creates = VERSION_AT(23, 2, 0);
	static const char *const opts[] = { "output", "error" };
	if (version_cmp(c->target->slurm, creates) >= 0)
		return;
	for (size_t i = 0; i < 2; i++) {
		const struct sb_directive *d = sb_directive_find(c->m, opts[i]);
		const char *slash = d && d->value ? strrchr(d->value, '/') : NULL;
		if (!slash || slash == d->value ||
		    dir_always_there(c, d->value, (size_t)(slash - d->value)))
			continue;
		struct diag *g = sbc_report(c, R_SB2009, d->value_span,
			"--%s=%s: sbatch opens this file before the script runs, and Slurm %s does not create %.*s/ (23.02 and later do)",
			opts[i], d->value, SLURM_TEXT(c->target->slurm),
			(int)(strrchr(d->value, '/') - d->value), d->value);
		diag_set_help(g, "write Slurm's own log to the submission directory (%%x-%%j.out), or create the directory before sbatch");
	}
}

/* How an address was found, by the text of the word that computes it. */
enum addr_source { ADDR_OTHER, ADDR_RESOLVED, ADDR_HOSTNAME };

static enum addr_source addr_source_of(const char *raw, size_t len)
{
	static const char *const resolved[] = {
		"hostname -i", "hostname --ip-address", "getent hosts $(hostname", "getent hosts `hostname",
		"getent hosts $HOSTNAME", "getent hosts ${HOSTNAME}", "getent ahosts $(hostname",
		"getent ahostsv4 $(hostname", "host $(hostname", "nslookup $(hostname",
		"gethostbyname(socket.gethostname()",
	};
	static const char *const bare[] = { "$(hostname)", "`hostname`", "$(hostname -s)", "$HOSTNAME", "${HOSTNAME}" };
	char buf[512];
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < sizeof buf; i++)
		if (raw[i] != '"' && raw[i] != '\'')
			buf[n++] = raw[i]; /* getent hosts "$(hostname)" reads as unquoted */
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof resolved / sizeof resolved[0]; i++)
		if (strstr(buf, resolved[i]))
			return ADDR_RESOLVED;
	for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
		if (strstr(buf, bare[i]))
			return ADDR_HOSTNAME;
	return ADDR_OTHER;
}

/* Where the address a word holds comes from: its own text, or that of
 * the assignments of the variables it reads (a few links deep). */
static enum addr_source addr_source(const struct sbc *c, const sb_word *w, const sb_cmd *at,
				    struct sb_span *where, unsigned depth)
{
	size_t len;
	const char *raw = w ? sb_word_raw(w, &len) : NULL;
	if (!raw)
		return ADDR_OTHER;
	enum addr_source k = addr_source_of(raw, len);
	if (k != ADDR_OTHER) {
		*where = sb_word_span(w);
		return k;
	}
	for (size_t r = 0; depth < 4 && r < sb_word_ref_count(w); r++) {
		struct sb_resolved res;
		enum sb_res kind = sb_resolve(c->m, sb_word_ref(w, r), at, &res);
		if ((kind == SB_RES_WORD || kind == SB_RES_VALUE) && res.assign && res.assign->value &&
		    (k = addr_source(c, res.assign->value, res.assign->cmd, where, depth + 1)))
			return k;
	}
	return ADDR_OTHER;
}

/* The paired cluster's OS: 'u' Ubuntu, which may map the host name to
 * 127.0.1.1 in /etc/hosts; 'o' another (Amazon Linux, RHEL and Rocky
 * resolve it through DNS); 0 unpaired. */
static char cluster_os(const struct sbc *c)
{
	if (!c->cluster)
		return 0;
	const yamldoc *d = c->cluster->doc;
	const char *os = yd_str(d, yd_get(d, yd_get(d, yd_root(d), "Image"), "Os"), NULL);
	return !os ? 0 : !strncmp(os, "ubuntu", 6) ? 'u' : 'o';
}

static void report_loopback(struct sbc *c, enum addr_source k, struct sb_span where, const char *what)
{
	char os = cluster_os(c);
	if (k == ADDR_OTHER || os == 'o' || (k == ADDR_HOSTNAME && os != 'u'))
		return;
	struct diag *g = sbc_report(c, R_SB2011, where,
		k == ADDR_RESOLVED
			? "%s from the node's own name resolution, which is a loopback address the other nodes cannot reach on a host that maps its name to 127.0.1.1 in /etc/hosts (as Debian and Ubuntu installs do)"
			: "%s from the host name, which an Ubuntu node can resolve to 127.0.1.1 for itself",
		what);
	diag_set_help(g, "use the first node's routable address: hostname -I | awk '{print $1}', or the first of scontrol show hostnames");
	if (sbc_multi_node(c))
		g->sev = SEV_WARNING; /* the nodes that cannot reach it hang the job */
}

/* ray start's --address and --node-ip-address, which ray's own flags
 * parser reads (the chain leaves ray's words as arguments). */
static void ray_loopback_address(struct sbc *c, const sb_cmd *cmd)
{
	static const char *const flags[] = { "--address", "--node-ip-address" };
	struct sb_span where;
	size_t n = sb_cmd_word_count(cmd);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *raw = sb_word_raw(sb_cmd_word(cmd, i), &len);
		for (size_t f = 0; raw && f < 2; f++) {
			size_t k = strlen(flags[f]);
			if (len < k || strncmp(raw, flags[f], k) || (len > k && raw[k] != '='))
				continue;
			const sb_word *v = len > k ? sb_cmd_word(cmd, i) : i + 1 < n ? sb_cmd_word(cmd, i + 1) : NULL;
			if (v)
				report_loopback(c, addr_source(c, v, cmd, &where, 0), where, flags[f]);
		}
	}
}

/* SB2011 rendezvous-loopback-address */
static void rendezvous_loopback_address(struct sbc *c)
{
	struct sb_span where;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t p = 0; p < sb_cmd_part_count(cmd); p++) {
			const sb_part *part = sb_cmd_part(cmd, p);
			enum sb_prog kind = sb_part_kind(part);
			if (!strcmp(sb_part_name(part), "ray"))
				ray_loopback_address(c, cmd);
			if (kind != SB_PROG_TORCHRUN && kind != SB_PROG_LAUNCHER)
				continue;
			static const char *const flags[] = { "master-addr", "rdzv-endpoint" };
			for (size_t f = 0; f < 2; f++) {
				const struct sb_flag *fl = sb_flag_find(part, flags[f]);
				if (fl && fl->value)
					report_loopback(c, addr_source(c, fl->value, cmd, &where, 0), where,
							fl->written);
			}
		}
	}
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (a->value && (!strcmp(a->name, "MASTER_ADDR") || sbc_launchers_read(c, a->name)))
			report_loopback(c, addr_source(c, a->value, a->cmd, &where, 0), where, a->name);
	}
}

/* The assigned name nearest to one never set (TP for TP_SIZE), or NULL. */
static const char *near_name(const struct sbc *c, const char *name)
{
	const char *best = NULL;
	size_t best_d = 3, n = strlen(name);
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const char *a = sb_assign_at(c->m, i)->name;
		size_t an = strlen(a);
		size_t d = text_edit_distance(name, n, a, an, 2);
		if (d > 2 && an >= 2 && n >= 2 &&
		    ((an < n && !strncmp(name, a, an) && name[an] == '_') ||
		     (n < an && !strncmp(a, name, n) && a[n] == '_')))
			d = 2; /* TP and TP_SIZE */
		if (d < best_d && strcmp(a, name) != 0)
			best = a, best_d = d;
	}
	return best;
}

/* ${NAME:-8}, ${NAME=8}, ${NAME:?...}, ${NAME+x}: the word reads NAME
 * with a default or a check of its own. */
static bool with_default(const sb_word *w, const char *name)
{
	size_t len, n = strlen(name);
	const char *raw = sb_word_raw(w, &len);
	for (size_t i = 0; i + 2 + n < len; i++)
		if (raw[i] == '$' && raw[i + 1] == '{' && !strncmp(raw + i + 2, name, n) &&
		    strchr(":-=?+", raw[i + 2 + n]))
			return true;
	return false;
}

/* SB2012 variable-never-set and SB2501 variable-from-environment: a
 * value an empty expansion breaks, from a name the script does not set.
 * Nothing can set it (a misspelling of a name the script sets, or
 * --export=NIL): an error; nothing visible sets it: a warning that names
 * what the job then relies on; anything else sets it (Slurm, a file
 * beside the script or one it sources, a comment that documents it as
 * an input): nothing (docs/design.md, "An open world"). */
/* SB2501 variable-from-environment */
static void report_never_set(struct sbc *c, const sb_cmd *cmd, const sb_word *w, const char *what,
			     bool path)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++) {
		const char *name = sb_word_ref(w, r), *file;
		if (with_default(w, name) || sbc_slurm_misspelt(name))
			continue; /* a Slurm near miss is reported wherever it stands */
		enum sbc_origin o = sbc_var_origin(c, name, cmd, &file);
		if (o < ORIGIN_SUBMITTER)
			continue;
		const char *near = near_name(c, name);
		const char *kind = path ? "path" : "value";
		const char *breaks = path ? "the job reads or writes somewhere else than meant"
					  : "the launcher's argument parser exits on every node";
		struct diag *g;
		if (near)
			g = sbc_report(c, R_SB2012, sb_word_span(w),
				"$%s is set nowhere, but the script sets $%s: the %s %s is empty, and %s",
				name, near, what, kind, breaks);
		else if (o == ORIGIN_NOTHING)
			g = sbc_report(c, R_SB2012, sb_word_span(w),
				"$%s is never set: the %s %s is %s, and %s", name, what, kind,
				sbc_origin_assumption(o), breaks);
		else
			g = sbc_report(c, R_SB2501, sb_word_span(w),
				"$%s is set nowhere the linter can see (not in the script, a file it sources or a file beside it): the %s %s is %s, in which case %s",
				name, what, kind, sbc_origin_assumption(o), breaks);
		if (near)
			diag_set_help(g, "did you mean $%s, which the script sets?", near);
		else if (o == ORIGIN_NOTHING)
			diag_set_help(g, "set %s in the script, or export it with --export=%s", name, name);
		else
			diag_set_help(g, "set %s in the script or a file it sources, or guard it: ${%s:?set %s before sbatch}",
				      name, name, name);
		return;
	}
}

/* The word after a flag's among a program's own arguments: its value,
 * for a flag the table does not know (an unset $NAME there is no
 * word at all at run time, so the chain could not give it as one). */
static const sb_word *word_after(const sb_part *p, const sb_word *flag)
{
	for (size_t i = 0; i + 1 < sb_part_arg_count(p); i++)
		if (sb_part_arg(p, i) == flag)
			return sb_part_arg(p, i + 1);
	return NULL;
}

/* SB2012 variable-never-set: the counts of srun and the launchers, the
 * layout sizes and the checkpoint paths of the program they start. */
static void variable_never_set(struct sbc *c, const sb_cmd *cmd)
{
	/* a script started on each node (by a batch script, or a launch
	 * script by a wrapper) gets its environment from its starter */
	if (c->per_node)
		return;
	static const char *const counts[] = {
		"nodes", "ntasks", "ntasks-per-node", "nnodes", "nproc-per-node", "num-processes",
	};
	for (size_t i = 0; i < sb_cmd_part_count(cmd); i++) {
		const sb_part *p = sb_cmd_part(cmd, i);
		enum sb_prog k = sb_part_kind(p);
		if (k == SB_PROG_SRUN || k == SB_PROG_TORCHRUN || k == SB_PROG_LAUNCHER)
			for (size_t f = 0; f < sizeof counts / sizeof counts[0]; f++) {
				const struct sb_flag *fl = sb_flag_find(p, counts[f]);
				if (fl && fl->value)
					report_never_set(c, cmd, fl->value, fl->written, false);
			}
	}
	/* The program's flags by every framework's table: an unquoted
	 * $NAME that nothing sets leaves the chain unsure of its words, so
	 * the layout reader (which needs the framework) would not look. */
	const sb_part *entry = sb_cmd_find(cmd, SB_PROG_PYTHON);
	if (!entry || (!sb_cmd_find(cmd, SB_PROG_TORCHRUN) && !sb_cmd_find(cmd, SB_PROG_LAUNCHER)))
		return;
	for (int fw = 0; fw < FW__COUNT; fw++) {
		const struct fw_def *d = fw_def(fw);
		for (size_t r = 0; r < d->nflags; r++) {
			const struct fw_flag *row = &d->flags[r];
			bool path = row->form == FW_DIR;
			if (!path && (!row->read || row->form != FW_INT))
				continue;
			const struct sb_flag *fl = sb_flag_find(entry, row->flag);
			const sb_word *w = !fl ? NULL : fl->value ? fl->value : word_after(entry, fl->word);
			report_never_set(c, cmd, w, fl ? fl->written : "", path);
		}
	}
}

/* A Slurm name the word reads that Slurm neither sets nor reads, and
 * the script does not set: reported once per name (seen). */
static void slurm_misspelt_in(struct sbc *c, const sb_word *w, const char **seen, size_t *n_seen)
{
	for (size_t r = 0; w && r < sb_word_ref_count(w); r++) {
		const char *name = sb_word_ref(w, r), *near = sbc_slurm_misspelt(name);
		bool told = false;
		for (size_t k = 0; k < *n_seen && !told; k++)
			told = !strcmp(seen[k], name);
		if (!near || told || *n_seen >= 32 || sbc_assignment(c, name))
			continue;
		seen[(*n_seen)++] = name;
		struct diag *g = sbc_report(c, R_SB2012, sb_word_span(w),
			"$%s is no variable Slurm sets or reads (sbatch(1) and srun(1) of Slurm 25.11), and the script does not set it: it is empty; did you mean $%s?",
			name, near);
		diag_set_help(g, "write $%s", near);
	}
}

/* SB2012 variable-never-set, for Slurm's names: wherever the script
 * reads one. */
static void slurm_name_misspelt(struct sbc *c)
{
	const char *seen[32];
	size_t n = 0;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t k = 0; k < sb_cmd_word_count(cmd); k++)
			slurm_misspelt_in(c, sb_cmd_word(cmd, k), seen, &n);
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++)
			slurm_misspelt_in(c, sb_cmd_assign(cmd, k)->value, seen, &n);
	}
}

/* Why a file srun would exec cannot run: not executable, or no #!
 * line; NULL when it can, or when it is not beside the script. */
static const char *exec_fault(const struct sbc *c, const char *prog, char *path, size_t cap)
{
	const char *dir_end = strrchr(c->src->path, '/');
	if (prog[0] == '/' || !c->src->path[0] || !strcmp(c->src->path, "-"))
		return NULL;
	snprintf(path, cap, "%.*s%s", dir_end ? (int)(dir_end - c->src->path + 1) : 0, c->src->path,
		 strncmp(prog, "./", 2) ? prog : prog + 2);
	struct stat st;
	if (!file_allowed(path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL; /* not there, or outside what the run may read (file_confine) */
	if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return "it is not executable (Permission denied)";
	char head[2] = { 0 };
	int fd = file_open_read(path, 0);
	ssize_t n = fd >= 0 ? read(fd, head, 2) : 0;
	if (fd >= 0)
		close(fd);
	if (n < 2 || head[0] != '#' || head[1] != '!')
		return "it has no #! line, so execve cannot run it (Exec format error)";
	return NULL;
}

/* SB2013 srun-program-not-executable: what srun starts directly,
 * a file beside the batch script. A program srun starts in a container
 * (pyxis's --container-image or --container-name) is the container's
 * file at that path, not the one beside the script. */
static void srun_program_not_executable(struct sbc *c, const sb_cmd *cmd)
{
	size_t n = sb_cmd_part_count(cmd), i = 0;
	while (i < n && sb_part_kind(sb_cmd_part(cmd, i)) != SB_PROG_SRUN)
		i++;
	if (i < n && (sb_flag_find(sb_cmd_part(cmd, i), "container-image") ||
		      sb_flag_find(sb_cmd_part(cmd, i), "container-name")))
		return;
	while (++i < n && sb_part_kind(sb_cmd_part(cmd, i)) == SB_PROG_WRAPPER)
		;
	if (i >= n)
		return;
	const sb_part *p = sb_cmd_part(cmd, i);
	enum sb_prog k = sb_part_kind(p);
	const char *prog = sb_word_value(sb_part_program(p));
	if ((k != SB_PROG_OTHER && k != SB_PROG_SCRIPT) || !prog || !strchr(prog, '.'))
		return;
	char path[4096];
	const char *why = exec_fault(c, prog, path, sizeof path);
	if (!why)
		return;
	struct diag *g = sbc_report(c, R_SB2013, sb_word_span(sb_part_program(p)),
		"srun execs %s on every task, and %s", prog, why);
	diag_set_help(g, "name its interpreter (srun python3 %s), or give it a #! line and chmod +x", prog);
}

void sbc_check_launch(struct sbc *c)
{
	multi_node_without_launcher(c);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		enum sb_prog l = sb_cmd_launcher(cmd);
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		if (l == SB_PROG_TORCHRUN || l == SB_PROG_NEURON_PARALLEL_COMPILE || l == SB_PROG_LAUNCHER)
			launcher_without_srun(c, cmd, sb_cmd_find(cmd, l));
		if (torch) {
			tasks_per_node_with_torchrun(c, cmd, torch);
			rendezvous(c, cmd, torch);
		}
		node_variable_in_batch_step(c, cmd);
		variable_never_set(c, cmd);
		srun_program_not_executable(c, cmd);
	}
	slurm_name_misspelt(c);
	random_port(c);
	rendezvous_loopback_address(c);
	output_directory_missing(c);
}

/* SB2020 per-node-script-by-basename: a batch script names the per-node
 * script by the path it is deployed at, and the run holds one file of
 * that name: the two are checked together (docs/design.md, "Pairing"). */
void sbatch_report_paired_by_basename(struct source *caller, struct sb_span at, const char *entry,
				      const char *path, struct diag_list *diags)
{
	struct diag *g = diag_add(diags, caller, R_SB2020, at.line, at.col, at.end_line, at.end_col,
		"srun starts %s on every node: checked as %s, the only input of that name", entry, path);
	diag_set_help(g, "name the script by a path relative to this one to pair them exactly");
}
