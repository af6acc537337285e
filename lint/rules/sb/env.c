/* SB21xx: environment variables per instance family: required EFA
 * settings for Neuron, settings that abort or do nothing, the Neuron
 * compile cache, NCCL debug knobs, LNC agreement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Variables that never help: removed or renamed knobs. Each row is the
 * whole of its rule's check. */
static const struct {
	const char *name;
	enum rule_id rule;
	const char *why;
	const char *fix; /* replacement name, or NULL */
} known_bad[] = {
	{ "FI_EFA_MTU_SIZE", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	{ "FI_EFA_TX_IOV_LIMIT", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	{ "FI_EFA_RX_IOV_LIMIT", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	/* SB2103 dead-variable */
	{ "FI_EFA_SET_CUDA_SYNC_MEMOPS", R_SB2103, "is a no-op in libfabric 1.20 and later", NULL },
	{ "ALLOC_ARENA_MAX", R_SB2103, "is a misspelling: glibc reads MALLOC_ARENA_MAX", "MALLOC_ARENA_MAX" },
	/* SB2104 neuron-cache-dir-variable */
	{ "NEURON_COMPILE_CACHE_DIR", R_SB2104, "is not a Neuron variable: the compiler reads NEURON_COMPILE_CACHE_URL (or --cache_dir in NEURON_CC_FLAGS)", "NEURON_COMPILE_CACHE_URL" },
	/* SB2106 nccl-debug-knob */
	{ "NCCL_PROTO", R_SB2106, "forces an NCCL protocol; NCCL lists it among debugging knobs, and aws-ofi-nccl 1.6+ needs no override", NULL },
	{ "NCCL_ALGO", R_SB2106, "forces an NCCL algorithm; NCCL lists it among debugging knobs", NULL },
};

static void known_bad_names(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		for (size_t k = 0; k < sizeof known_bad / sizeof known_bad[0]; k++) {
			if (strcmp(a->name, known_bad[k].name) || a->kind == SB_ASSIGN_UNSET)
				continue;
			struct diag *g = sbc_report(c, known_bad[k].rule, a->name_span, "%s %s",
						    a->name, known_bad[k].why);
			if (known_bad[k].fix) {
				diag_set_fix(g, known_bad[k].fix);
				diag_set_help(g, "rename it to %s", known_bad[k].fix);
			} else {
				diag_set_help(g, "remove it");
			}
		}
	}
}

/* SB2102 efa-variable-aborts: besides the removed variables above,
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

static bool cc_flags_cache(const struct sbc *c)
{
	const char *v = sbc_assign_value(sbc_assignment(c, "NEURON_CC_FLAGS"));
	return v && strstr(v, "--cache_dir");
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
	if (c->family != FAMILY_NEURON || !sbc_multi_node(c))
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

/* SB2107 lnc-mismatch */
static void lnc_mismatch(struct sbc *c)
{
	const struct sb_assign *rt = sbc_assignment(c, "NEURON_LOGICAL_NC_CONFIG");
	const struct sb_assign *cc = sbc_assignment(c, "NEURON_CC_FLAGS");
	const char *rv = sbc_assign_value(rt);
	int compiler = lnc_of_flags(sbc_assign_value(cc));
	if (!rv || !compiler || atoi(rv) == compiler)
		return;
	sbc_report(c, R_SB2107, rt->span,
		   "NEURON_LOGICAL_NC_CONFIG=%s but NEURON_CC_FLAGS compiles for LNC %d (line %u): the runtime rejects the graphs",
		   rv, compiler, cc->span.line);
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

void sbc_check_env(struct sbc *c)
{
	efa_fork_safe_unneeded(c);
	nccl_socket_excludes_eth(c);
	known_bad_names(c);
	efa_variable_aborts(c);
	efa_variables_missing(c);
	compile_cache_node_local(c);
	lnc_mismatch(c);
}
