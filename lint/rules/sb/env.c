/* SB21xx: environment variables per instance family: required EFA
 * settings for Neuron, settings that abort or do nothing, misspelt
 * names, the Neuron compile cache, NCCL debugging knobs, LNC agreement,
 * the port of Neuron's collectives. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "envvars.h"
#include "neuron.h"
#include "sb.h"
#include "xalloc.h"

static struct sb_span first_launch(const struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		if (sb_cmd_find(sb_cmd_at(c->m, i), SB_PROG_SRUN))
			return sb_cmd_span(sb_cmd_at(c->m, i));
	struct sb_span top = { 1, 1, 1, 2, 0, 0 };
	return top;
}

/* A name its table gives another status than read (envvars.c's notes:
 * removed, aborting, or read by no release): reported by the status,
 * not as a near miss. */
static bool noted_name(const char *name)
{
	enum env_status st = env_status(name, NULL);
	return st == ENV_NOT_READ || st == ENV_ABORTS || st == ENV_NEVER;
}

/* NCCL's own guide files these under "Debugging": settings not to be
 * kept in production scripts (docs/frameworks.md, "Environment
 * variables"). value: the one value that makes the row (NULL: any);
 * efa: only on EFA, where aws-ofi-nccl carries the traffic. */
enum knob_need { KNOB_ANY, KNOB_EFA };
static const struct {
	const char *name, *value;
	enum knob_need need;
	const char *why;
} debug_knobs[] = {
	/* SB2106 nccl-debug-knob */
	{ "NCCL_PROTO", NULL, KNOB_ANY, "forces an NCCL protocol; NCCL lists it among debugging knobs, and aws-ofi-nccl 1.6+ needs no override" },
	{ "NCCL_ALGO", NULL, KNOB_ANY, "forces an NCCL algorithm; NCCL lists it among debugging knobs" },
	{ "NCCL_DEBUG_SUBSYS", "ALL", KNOB_ANY, "logs every NCCL subsystem: with NCCL_DEBUG=INFO each rank writes its init, graph and transport logs, a bring-up setting" },
	{ "NCCL_MIN_NCHANNELS", NULL, KNOB_ANY, "forces a minimum channel count; NCCL lists it among debugging knobs, and on EFA more channels than the plugin's platform default starve the network" },
	{ "NCCL_NSOCKS_PERTHREAD", NULL, KNOB_EFA, "tunes NCCL's socket transport, which EFA does not use (aws-ofi-nccl: not applicable for EFA)" },
	{ "NCCL_SOCKET_NTHREADS", NULL, KNOB_EFA, "tunes NCCL's socket transport, which EFA does not use (aws-ofi-nccl: not applicable for EFA)" },
	{ "NCCL_NET_GDR_LEVEL", NULL, KNOB_EFA, "overrides where GPUDirect RDMA is used; aws-ofi-nccl requires GPUDirect RDMA on EFA GPU instances, and NCCL lists the variable among debugging knobs" },
};

/* EFA carries the job's traffic: the paired queue's instance has it,
 * or the script pins libfabric to it. */
static bool on_efa(const struct sbc *c)
{
	if (c->it)
		return c->it->efa == TRI_YES;
	const char *v = sbc_assign_value(sbc_assignment(c, "FI_PROVIDER"));
	return v && !strcmp(v, "efa");
}

/* SB2106 nccl-debug-knob */
static void nccl_debug_knob(struct sbc *c)
{
	for (size_t k = 0; k < sizeof debug_knobs / sizeof debug_knobs[0]; k++) {
		const struct sb_assign *a = sbc_assignment(c, debug_knobs[k].name);
		const char *v = sbc_assign_value(a);
		if (!a || (debug_knobs[k].value && (!v || strcasecmp(v, debug_knobs[k].value))))
			continue;
		if (debug_knobs[k].need == KNOB_EFA && !on_efa(c))
			continue;
		struct diag *g = sbc_report(c, R_SB2106, a->name_span, "%s%s%s %s", a->name,
					    debug_knobs[k].value ? "=" : "",
					    debug_knobs[k].value ? v : "", debug_knobs[k].why);
		diag_set_help(g, "remove it once the problem it was set for is solved");
	}
}

/* Environment knobs are written in upper case; a lower-case name is the
 * script's own variable. */
static bool upper_name(const char *name)
{
	for (const char *p = name; *p; p++)
		if (islower((unsigned char)*p))
			return false;
	return true;
}

/* A name one edit from a variable NCCL, libfabric, Neuron, CUDA,
 * PyTorch or glibc reads (two for long names), which no program reads:
 * the setting was never made. */
/* SB2103 dead-variable */
static void dead_variable(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (a->kind == SB_ASSIGN_UNSET || a->kind == SB_ASSIGN_UNKNOWN ||
		    noted_name(a->name) || !upper_name(a->name))
			continue;
		const char *near = env_near(a->name);
		const struct env_family_def *f = near ? env_family_of(near) : NULL;
		/* Slurm's names are set by Slurm: a script's own SLURM_ name
		 * is its own choice (SB2012 reads the ones it uses) */
		if (!f || f->slurm)
			continue;
		struct diag *g = sbc_report(c, R_SB2103, a->name_span,
			"%s is not a variable %s reads (%s): the setting is never made; did you mean %s?",
			a->name, f->title, f->source, near);
		diag_set_help(g, "rename it to %s", near);
		diag_set_fix(g, near);
	}
}

/* SB2102 efa-variable-aborts, SB2103 dead-variable and SB2104
 * neuron-cache-dir-variable, by the status the name's table gives it. */
/* SB2104 neuron-cache-dir-variable */
static void noted_names(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		const struct env_note *note;
		enum env_status st = a->kind == SB_ASSIGN_UNSET ? ENV_UNLISTED : env_status(a->name, &note);
		struct diag *g;
		switch (st) {
		case ENV_ABORTS:
			g = sbc_report(c, R_SB2102, a->name_span,
				"%s was removed, and %s aborts the process when it is set (%s)", a->name,
				note->version, note->source);
			diag_set_help(g, "remove it");
			break;
		case ENV_NOT_READ:
			g = sbc_report(c, R_SB2103, a->name_span,
				"%s is not read from %s on (%s): setting it has no effect", a->name,
				note->version, note->source);
			diag_set_help(g, "remove it");
			break;
		case ENV_NEVER:
			if (strcmp(a->name, "NEURON_COMPILE_CACHE_DIR"))
				break;
			g = sbc_report(c, R_SB2104, a->name_span,
				"%s is not a Neuron variable: the compiler reads NEURON_COMPILE_CACHE_URL (or --cache_dir in NEURON_CC_FLAGS)",
				a->name);
			diag_set_fix(g, "NEURON_COMPILE_CACHE_URL");
			diag_set_help(g, "rename it to NEURON_COMPILE_CACHE_URL");
			break;
		default:
			break;
		}
	}
}

/* SB2102 efa-variable-aborts: besides the removed variables of the table,
 * FI_EFA_USE_DEVICE_RDMA=1 aborts on EFA devices without RDMA (g5, g6). */
static void efa_variable_aborts(struct sbc *c)
{
	const struct sb_assign *a = sbc_assignment(c, "FI_EFA_USE_DEVICE_RDMA");
	const char *v = sbc_assign_value(a);
	if (!v || strcmp(v, "1") || !c->it || c->it->efa_device_rdma != TRI_NO)
		return;
	struct diag *g = sbc_report(c, R_SB2102, a->span,
		"FI_EFA_USE_DEVICE_RDMA=1 on %s, whose EFA has no device RDMA: libfabric aborts", c->it->name);
	diag_set_help(g, "remove it; libfabric uses RDMA by itself where the device has it");
}

/* NEURON_CC_FLAGS as written: its value, or, when it holds an
 * expansion ("--cache_dir=/fsx/$USER"), its text, in which the flags the
 * checks look for are as plain. NULL when unset; the caller frees. */
static char *cc_flags(const struct sbc *c)
{
	const struct sb_assign *a = sbc_assignment(c, "NEURON_CC_FLAGS");
	const char *v = sbc_assign_value(a);
	if (v)
		return xstrdup(v);
	size_t len;
	const char *raw = a && a->value ? sb_word_raw(a->value, &len) : NULL;
	return raw ? xstrndup(raw, len) : NULL;
}

static bool cc_flags_cache(const struct sbc *c)
{
	char *v = cc_flags(c);
	bool has = v && strstr(v, "--cache_dir");
	free(v);
	return has;
}

static bool node_local(const char *path)
{
	return path && (!strncmp(path, "/tmp", 4) || !strncmp(path, "/var/tmp", 8) ||
			!strncmp(path, "/dev/shm", 8) || !strncmp(path, "/local", 6) ||
			!strncmp(path, "/opt/dlami/nvme", 15));
}

/* SB2101 efa-variables-missing */
static void efa_variables_missing(struct sbc *c)
{
	/* a statement that did not parse may set them */
	if (c->family != FAMILY_NEURON || !sbc_multi_node(c) || !sb_complete(c->m))
		return;
	static const struct { const char *name, *value; } required[] = {
		{ "FI_PROVIDER", "efa" }, { "FI_EFA_USE_DEVICE_RDMA", "1" },
	};
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		const struct sb_assign *a = sbc_assignment(c, required[i].name);
		if (a && a->value && !sbc_assign_value(a))
			continue; /* set from an expansion: not ours to judge */
		const char *v = sbc_assign_value(a);
		if (!v || strcmp(v, required[i].value)) {
			struct diag *g = sbc_report(c, R_SB2101, a ? a->span : first_launch(c),
				"a multi-node Neuron job needs %s=%s (Neuron's multi-node setup)%s",
				required[i].name, required[i].value, v ? "" : "; it is not set");
			diag_set_help(g, "export %s=%s before srun", required[i].name, required[i].value);
		}
	}
}

/* SB2105 compile-cache-node-local */
static void compile_cache_node_local(struct sbc *c)
{
	if (c->family != FAMILY_NEURON || !sbc_multi_node(c))
		return;
	const struct sb_assign *url = sbc_assignment(c, "NEURON_COMPILE_CACHE_URL");
	const char *path = sbc_assign_value(url);
	if (!url && !cc_flags_cache(c) && !sbc_assignment(c, "NEURON_COMPILE_CACHE_DIR")) {
		if (!sb_complete(c->m))
			return; /* a statement that did not parse may set it */
		struct diag *g = sbc_report(c, R_SB2105, first_launch(c),
			"no compile cache is set: every node compiles into its own /var/tmp/neuron-compile-cache");
		diag_set_help(g, "export NEURON_COMPILE_CACHE_URL=<a directory on shared storage, or s3://...>");
	} else if (node_local(path)) {
		sbc_report(c, R_SB2105, url->value ? sb_word_span(url->value) : url->span,
			   "compile cache %s is on node-local disk: each node compiles the same graphs again", path);
	}
}

static int lnc_of_flags(const char *flags)
{
	const char *p = flags ? strstr(flags, "--logical-nc-config") : NULL;
	size_t skip = 19;
	if (!p && flags && (p = strstr(flags, "-lnc")))
		skip = 4;
	if (!p)
		return 0;
	p += skip;
	while (*p == '=' || *p == ' ')
		p++;
	return atoi(p);
}

/* The LNC the runtime uses when NEURON_LOGICAL_NC_CONFIG is not set:
 * the instance's default (the catalog's lnc_default, from Neuron's
 * Logical NeuronCore page), else that of the
 * target the compiler is told (--target=trn2: 2). 0 when unknown. */
static int runtime_default_lnc(const struct sbc *c, const char *flags, const char **on)
{
	if (c->it && c->it->lnc_default > 0) {
		*on = c->it->name;
		return c->it->lnc_default;
	}
	if (flags && (strstr(flags, "--target=trn2") || strstr(flags, "--target trn2"))) {
		*on = "trn2 (--target=trn2)";
		return 2;
	}
	return 0;
}

/* The explicit settings against each other, or the compiler's against
 * the instance's default when the runtime's is not set. */
/* SB2107 lnc-mismatch */
static void lnc_mismatch(struct sbc *c)
{
	const struct sb_assign *rt = sbc_assignment(c, "NEURON_LOGICAL_NC_CONFIG");
	const struct sb_assign *cc = sbc_assignment(c, "NEURON_CC_FLAGS");
	const char *rv = sbc_assign_value(rt);
	char *flags = cc_flags(c);
	int compiler = lnc_of_flags(flags);
	const char *on = NULL;
	int dflt = runtime_default_lnc(c, flags, &on);
	free(flags);
	if (!compiler)
		return;
	if (!rt) {
		if (!dflt || dflt == compiler)
			return;
		struct diag *g = sbc_report(c, R_SB2107, cc->span,
			"NEURON_CC_FLAGS compiles for LNC %d, but NEURON_LOGICAL_NC_CONFIG is not set and %s runs at LNC %d by default: the runtime rejects the graphs",
			compiler, on, dflt);
		diag_set_help(g, "export NEURON_LOGICAL_NC_CONFIG=%d beside NEURON_CC_FLAGS", compiler);
		return;
	}
	if (!rv || atoi(rv) == compiler)
		return;
	sbc_report(c, R_SB2107, rt->span,
		   "NEURON_LOGICAL_NC_CONFIG=%s but NEURON_CC_FLAGS compiles for LNC %d (line %u): the runtime rejects the graphs",
		   rv, compiler, cc->span.line);
}

/* Torchrun starts one worker per logical
 * NeuronCore; a count that is the core count at the other LNC leaves
 * cores idle (more than the cores is SB2207's). */
/* SB2123 lnc-processes-mismatch */
static void lnc_processes_mismatch(struct sbc *c)
{
	if (!c->it || !catalog_is_neuron(c->it) || c->it->lnc_default <= 0)
		return;
	const char *rv = sbc_env_value(c, "NEURON_LOGICAL_NC_CONFIG", NULL);
	int lnc = rv ? atoi(rv) : c->it->lnc_default;
	int other = lnc == 1 ? 2 : 1;
	int cores = catalog_procs_per_node(c->it, lnc);
	int cores_other = catalog_lnc_valid(c->it, other) ? catalog_procs_per_node(c->it, other) : -1;
	if (cores <= 0 || cores_other <= 0)
		return;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		long long ppn;
		if (!torch || !sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &ppn))
			continue;
		if (ppn >= cores || ppn != cores_other)
			continue;
		struct diag *g = sbc_report(c, R_SB2123, sb_word_span(sb_flag(torch, "nproc-per-node")),
			"%lld processes per node is the logical NeuronCore count of %s at LNC %d, but the runtime runs at LNC %d%s, with %d logical cores: %lld of them stay idle",
			ppn, c->it->name, other, lnc, rv ? "" : " (the default)", cores, cores - ppn);
		diag_set_help(g, "start %d processes per node, or set NEURON_LOGICAL_NC_CONFIG=%d (and compile for it)",
			      cores, other);
	}
}

/* The NeuronCore generation a compiler --target builds for (Neuron's
 * architecture pages: trn1 and inf2 have NeuronCore-v2, trn2 v3, trn3
 * v4), or that of an instance; 0 when unknown. */
static int nc_generation_of_target(const char *t, size_t n)
{
	static const struct { const char *name; int gen; } targets[] = {
		{ "trn1n", 2 }, { "trn1", 2 }, { "inf2", 2 }, { "trn2", 3 }, { "trn3", 4 },
	};
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strlen(targets[i].name) == n && !memcmp(t, targets[i].name, n))
			return targets[i].gen;
	return 0;
}

static int nc_generation_of(enum accel_kind a, const char **target)
{
	switch (a) {
	case ACCEL_TRAINIUM:
		*target = "trn1";
		return 2;
	case ACCEL_INFERENTIA2:
		*target = "inf2";
		return 2;
	case ACCEL_TRAINIUM2:
		*target = "trn2";
		return 3;
	case ACCEL_TRAINIUM3:
		*target = "trn3";
		return 4;
	default:
		return 0;
	}
}

/* The compiler builds each graph (a NEFF) for the instance family its
 * --target names (Neuron's "How to generate a NEFF file"), not for the
 * host it runs on; a NEFF for another NeuronCore generation is not the
 * program the job's cores run. Checked against the paired instance only. */
/* SB2126 compile-target-mismatch */
static void compile_target_mismatch(struct sbc *c)
{
	if (!c->it || !catalog_is_neuron(c->it))
		return;
	const char *own = NULL;
	int have = nc_generation_of(c->it->accel, &own);
	char *flags = cc_flags(c);
	const char *t = flags ? strstr(flags, "--target") : NULL;
	if (!have || !t || (t[8] != '=' && t[8] != ' ')) {
		free(flags);
		return;
	}
	t += 9;
	t += strspn(t, " ");
	size_t n = strcspn(t, " \t\"'");
	int want = nc_generation_of_target(t, n);
	if (want && want != have) {
		const struct sb_assign *cc = sbc_assignment(c, "NEURON_CC_FLAGS");
		struct diag *g = sbc_report(c, R_SB2126, cc->span,
			"NEURON_CC_FLAGS compiles for --target=%.*s (NeuronCore-v%d), but the cluster runs %s (NeuronCore-v%d): the graphs are built for other hardware than the job's",
			(int)n, t, want, c->it->name, have);
		diag_set_help(g, "compile for the instance's family: --target=%s", own);
	}
	free(flags);
}

static bool names_host(const char *raw, size_t len)
{
	static const char *const host[] = { "$(hostname", "`hostname", "$HOSTNAME", "${HOSTNAME",
					    "$SLURMD_NODENAME", "${SLURMD_NODENAME" };
	for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) {
		size_t n = strlen(host[i]);
		for (size_t k = 0; k + n <= len; k++)
			if (!memcmp(raw + k, host[i], n))
				return true;
	}
	return false;
}

/* A cache directory named after the host
 * holds the graphs one host compiled; the precompile job and the
 * training job share them only when they run on the same hosts
 * (docs/frameworks.md, "Environment variables"). */
/* SB2124 compile-cache-per-host */
static void compile_cache_per_host(struct sbc *c)
{
	if (c->family == FAMILY_GPU)
		return;
	static const char *const vars[] = { "NEURON_COMPILE_CACHE_URL", "NEURON_CC_FLAGS" };
	for (size_t v = 0; v < 2; v++) {
		const struct sb_assign *a = sbc_assignment(c, vars[v]);
		if (!a || !a->value)
			continue;
		size_t len;
		const char *raw = sb_word_raw(a->value, &len);
		const char *at = raw;
		if (v == 1) { /* only the --cache_dir value of the flags */
			const char *cd = memmem(raw, len, "--cache_dir", 11);
			if (!cd)
				continue;
			at = cd;
			const char *end = memmem(cd + 11, len - (size_t)(cd + 11 - raw), " -", 2);
			len = end ? (size_t)(end - cd) : len - (size_t)(cd - raw);
		}
		if (!names_host(at, len))
			continue;
		struct diag *g = sbc_report(c, R_SB2124, sb_word_span(a->value),
			"the compile cache in %s names the host: each host keeps its own graphs, so a precompile job (neuron_parallel_compile) and the training job share them only when they run on the same hosts",
			v ? "--cache_dir" : a->name);
		diag_set_help(g, "use one directory on shared storage for every host: the cache key already holds the graph and the flags");
	}
}

/* The port of host:port in a word as written ("${MASTER_ADDR}:62182"),
 * or 0. */
static long raw_port(const sb_word *w)
{
	size_t len;
	const char *raw = w ? sb_word_raw(w, &len) : NULL;
	if (!raw)
		return 0;
	while (len && (raw[len - 1] == '"' || raw[len - 1] == '\''))
		len--;
	size_t d = len;
	while (d && isdigit((unsigned char)raw[d - 1]))
		d--;
	if (d == len || !d || raw[d - 1] != ':' || len - d > 5)
		return 0;
	return strtol(raw + d, NULL, 10);
}

/* NEURON_RT_ROOT_COMM_ID is where rank 0
 * of Neuron's collectives listens (Neuron runtime configuration guide);
 * torchrun's rendezvous or torch's store on the same port of the same
 * host makes one of the two binds fail. */
/* SB2125 root-comm-port-clash */
static void root_comm_port_clash(struct sbc *c)
{
	const struct sb_assign *rc = sbc_assignment(c, "NEURON_RT_ROOT_COMM_ID");
	long port = rc ? raw_port(rc->value) : 0;
	if (!port)
		return;
	const char *mp = sbc_env_value(c, "MASTER_PORT", NULL);
	if (mp && strtol(mp, NULL, 10) == port) {
		sbc_report(c, R_SB2125, rc->span,
			   "NEURON_RT_ROOT_COMM_ID uses port %ld, which MASTER_PORT gives torch's store too: two services on one port of the first node, and the second bind fails",
			   port);
		return;
	}
	static const char *const flags[] = { "master-port", "rdzv-endpoint", "main-process-port" };
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		for (size_t p = 0; p < sb_cmd_part_count(cmd); p++)
			for (size_t k = 0; k < 3; k++) {
				const sb_part *part = sb_cmd_part(cmd, p);
				const struct sb_flag *f = sb_flag_find(part, flags[k]);
				const sb_word *w = f ? f->value : NULL;
				long long other = 0;
				if (!w)
					continue;
				if (k == 1)
					other = raw_port(w);
				else if (!sbc_word_int(c, w, cmd, &other))
					continue;
				if (other != port)
					continue;
				struct diag *g = sbc_report(c, R_SB2125, rc->span,
					"NEURON_RT_ROOT_COMM_ID uses port %ld, which %s %s (line %u) listens on too: two services on one port of the first node, and the second bind fails",
					port, sb_part_name(part), f->written, sb_word_span(w).line);
				diag_set_help(g, "give Neuron's root communicator a port of its own");
				return;
			}
	}
}

/* SB2108 nccl-socket-excludes-eth: NCCL reads an exclusion list as
 * prefixes: ^...,eth drops eth0, which is the only NIC name on Amazon
 * Linux (Ubuntu's are ens*, enp*). */
static void nccl_socket_excludes_eth(struct sbc *c)
{
	const struct sb_assign *a = sbc_assignment(c, "NCCL_SOCKET_IFNAME");
	const char *v = sbc_assign_value(a);
	if (!v || v[0] != '^')
		return;
	for (const char *p = v + 1; *p;) {
		size_t n = strcspn(p, ",");
		if (n == 3 && !strncmp(p, "eth", 3)) {
			const char *os = sbc_cluster_os(c);
			if (os && strncmp(os, "alinux", 6))
				return; /* Ubuntu and RHEL-family names start with en */
			struct diag *g = sbc_report(c, R_SB2108, a->span,
				"NCCL_SOCKET_IFNAME=%s excludes every interface starting with eth, which on Amazon Linux is all of them",
				v);
			diag_set_help(g, "exclude exact names with '^=docker0,=lo' or name the interface to use");
			return;
		}
		p += n + (p[n] == ',');
	}
}

/* SB2111 efa-fork-safe-unneeded: libfabric needs the variable only on
 * kernels older than 5.15, that is Amazon Linux 2 among ParallelCluster's
 * OSes (docs/versions.md, neuron-os). A Trainium2 or 3 node runs no
 * Neuron release that supports Amazon Linux 2, so it is not AL2 either. */
static void efa_fork_safe_unneeded(struct sbc *c)
{
	const struct sb_assign *a = sbc_assignment(c, "FI_EFA_FORK_SAFE");
	const char *os = sbc_cluster_os(c);
	struct neuron_first_release first;
	enum accel_kind accel;
	char why[160], where[64], v[16];
	if (!a || !sbc_assign_value(a))
		return;
	if (os && strcmp(os, "alinux2"))
		snprintf(why, sizeof why, "the cluster runs %s", os);
	else if (!os && sbc_neuron_accel(c, &accel, where, sizeof where) &&
		 neuron_min_sdk(accel, &first) && !neuron_runs_on_al2(first.version))
		snprintf(why, sizeof why, "%s (%s) needs Neuron %s or later, which has no Amazon Linux 2 runtime",
			 first.accel, where, neuron_version_str(first.version, v, sizeof v));
	else
		return;
	struct diag *g = sbc_report(c, R_SB2111, a->name_span,
		"FI_EFA_FORK_SAFE matters only on Amazon Linux 2 (kernels before 5.15), and %s", why);
	diag_set_help(g, "remove it: libfabric handles fork() on newer kernels by itself");
}

/* SB2113 path-replaced: a PATH whose new value does not read the old
 * one. A value that reads it only inside a command substitution
 * (PATH=$(echo "$PATH" | ...)) counts as reading it. */
static void path_replaced(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (strcmp(a->name, "PATH") || !a->value || a->append || a->array ||
		    (a->kind != SB_ASSIGN_PLAIN && a->kind != SB_ASSIGN_EXPORT &&
		     a->kind != SB_ASSIGN_DECLARE))
			continue;
		bool reads_old = false;
		for (size_t k = 0; k < sb_word_ref_count(a->value); k++)
			reads_old |= !strcmp(sb_word_ref(a->value, k), "PATH");
		if (reads_old)
			continue;
		const char *v = sb_word_value(a->value);
		struct diag *g = sbc_report(c, R_SB2113, a->span,
			"PATH is set without its old value%s%s%s: srun, hostname and the launcher are no longer found",
			v ? " (to '" : "", v ? v : "", v ? "')" : "");
		diag_set_help(g, "prepend to it: export PATH=\"/fsx/venv/bin:${PATH}\"");
	}
}

void sbc_check_env(struct sbc *c)
{
	path_replaced(c);
	efa_fork_safe_unneeded(c);
	nccl_socket_excludes_eth(c);
	noted_names(c);
	dead_variable(c);
	nccl_debug_knob(c);
	efa_variable_aborts(c);
	efa_variables_missing(c);
	compile_cache_node_local(c);
	lnc_mismatch(c);
	lnc_processes_mismatch(c);
	compile_cache_per_host(c);
	root_comm_port_clash(c);
	compile_target_mismatch(c);
}
