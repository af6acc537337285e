/* SB21xx: environment variables per instance family (research b.4):
 * required EFA settings for Neuron, settings that abort or do nothing,
 * the Neuron compile cache, NCCL debug knobs, LNC agreement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"
#include "xalloc.h"

/* The last assignment of name anywhere in the script, or NULL. */
static const struct sb_assign *assignment(const struct sbc *c, const char *name)
{
	const struct sb_assign *last = NULL;
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!strcmp(a->name, name) && a->kind != SB_ASSIGN_UNSET && a->kind != SB_ASSIGN_MARK)
			last = a;
	}
	return last;
}

static const char *value_of(const struct sb_assign *a)
{
	return a && a->value ? sb_word_value(a->value) : NULL;
}

static struct sb_span first_launch(const struct sbc *c)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++)
		if (sb_cmd_find(sb_cmd_at(c->m, i), SB_PROG_SRUN))
			return sb_cmd_span(sb_cmd_at(c->m, i));
	struct sb_span top = { 1, 1, 1, 2, 0, 0 };
	return top;
}

/* Variables that never help: removed or renamed knobs. */
static const struct {
	const char *name;
	enum rule_id rule;
	const char *why;
	const char *fix; /* replacement name, or NULL */
} known_bad[] = {
	{ "FI_EFA_MTU_SIZE", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	{ "FI_EFA_TX_IOV_LIMIT", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	{ "FI_EFA_RX_IOV_LIMIT", R_SB2102, "was removed from libfabric; setting it aborts the process", NULL },
	{ "FI_EFA_SET_CUDA_SYNC_MEMOPS", R_SB2103, "is a no-op in libfabric 1.20 and later", NULL },
	{ "ALLOC_ARENA_MAX", R_SB2103, "is a misspelling: glibc reads MALLOC_ARENA_MAX", "MALLOC_ARENA_MAX" },
	{ "NEURON_COMPILE_CACHE_DIR", R_SB2104, "is not a Neuron variable: the compiler reads NEURON_COMPILE_CACHE_URL (or --cache_dir in NEURON_CC_FLAGS)", "NEURON_COMPILE_CACHE_URL" },
	{ "NCCL_PROTO", R_SB2106, "forces an NCCL protocol; NCCL lists it among debugging knobs, and aws-ofi-nccl 1.6+ needs no override", NULL },
	{ "NCCL_ALGO", R_SB2106, "forces an NCCL algorithm; NCCL lists it among debugging knobs", NULL },
};

static void bad_names(struct sbc *c)
{
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		for (size_t k = 0; k < sizeof known_bad / sizeof known_bad[0]; k++) {
			if (strcmp(a->name, known_bad[k].name) || a->kind == SB_ASSIGN_UNSET)
				continue;
			struct diag *g = sbc_report(c, known_bad[k].rule, a->name_span, "%s %s",
						    a->name, known_bad[k].why);
			if (known_bad[k].fix) {
				diag_set_fix(g, known_bad[k].fix,
					     rule_fixability(known_bad[k].rule) == FIX_SAFE);
				diag_set_help(g, "rename it to %s", known_bad[k].fix);
			} else {
				diag_set_help(g, "remove it");
			}
		}
	}
}

/* FI_EFA_USE_DEVICE_RDMA=1 aborts on EFA devices without RDMA (g5, g6). */
static void device_rdma(struct sbc *c)
{
	const struct sb_assign *a = assignment(c, "FI_EFA_USE_DEVICE_RDMA");
	const char *v = value_of(a);
	if (!v || strcmp(v, "1") || !c->it || c->it->efa_device_rdma != TRI_NO)
		return;
	struct diag *g = sbc_report(c, R_SB2102, a->span,
		"FI_EFA_USE_DEVICE_RDMA=1 on %s, whose EFA has no device RDMA: libfabric aborts", c->it->name);
	diag_set_help(g, "remove it; libfabric uses RDMA by itself where the device has it");
}

static bool cc_flags_cache(const struct sbc *c)
{
	const char *v = value_of(assignment(c, "NEURON_CC_FLAGS"));
	return v && strstr(v, "--cache_dir");
}

static bool node_local(const char *path)
{
	return path && (!strncmp(path, "/tmp", 4) || !strncmp(path, "/var/tmp", 8) ||
			!strncmp(path, "/dev/shm", 8) || !strncmp(path, "/local", 6) ||
			!strncmp(path, "/opt/dlami/nvme", 15));
}

static void neuron(struct sbc *c)
{
	if (c->family != FAMILY_NEURON || !sbc_multi_node(c))
		return;
	static const struct { const char *name, *value; } required[] = {
		{ "FI_PROVIDER", "efa" }, { "FI_EFA_USE_DEVICE_RDMA", "1" },
	};
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		const struct sb_assign *a = assignment(c, required[i].name);
		if (a && a->value && !value_of(a))
			continue; /* set from an expansion: not ours to judge */
		const char *v = value_of(a);
		if (!v || strcmp(v, required[i].value)) {
			struct diag *g = sbc_report(c, R_SB2101, a ? a->span : first_launch(c),
				"a multi-node Neuron job needs %s=%s (Neuron's multi-node setup)%s",
				required[i].name, required[i].value, v ? "" : "; it is not set");
			diag_set_help(g, "export %s=%s before srun", required[i].name, required[i].value);
		}
	}
	const struct sb_assign *url = assignment(c, "NEURON_COMPILE_CACHE_URL");
	const char *path = value_of(url);
	if (!url && !cc_flags_cache(c) && !assignment(c, "NEURON_COMPILE_CACHE_DIR")) {
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

static void lnc(struct sbc *c)
{
	const struct sb_assign *rt = assignment(c, "NEURON_LOGICAL_NC_CONFIG");
	const struct sb_assign *cc = assignment(c, "NEURON_CC_FLAGS");
	const char *rv = value_of(rt);
	int compiler = lnc_of_flags(value_of(cc));
	if (!rv || !compiler || atoi(rv) == compiler)
		return;
	sbc_report(c, R_SB2107, rt->span,
		   "NEURON_LOGICAL_NC_CONFIG=%s but NEURON_CC_FLAGS compiles for LNC %d (line %u): the runtime rejects the graphs",
		   rv, compiler, cc->span.line);
}

static bool queue_has_efa(const yamldoc *d, yd_node queue)
{
	yd_node crs = yd_get(d, queue, "ComputeResources");
	for (size_t i = 0; i < yd_len(d, crs); i++) {
		bool on = false;
		yd_bool(d, yd_get(d, yd_get(d, yd_item(d, crs, i), "Efa"), "Enabled"), &on);
		if (on)
			return true;
	}
	return false;
}

/* EFA variables on a queue without EFA do nothing useful (SB3003); the
 * variables reach every component of a heterogeneous job. */
static void efa_without_efa(struct sbc *c)
{
	if (!c->cluster)
		return;
	const yamldoc *d = c->cluster->doc;
	yd_node queue = 0;
	for (unsigned k = 0; k < c->ncomp && !queue; k++)
		if (c->comp[k].queue && !queue_has_efa(d, c->comp[k].queue))
			queue = c->comp[k].queue;
	if (!queue)
		return;
	const struct sb_assign *a = assignment(c, "FI_PROVIDER");
	const char *v = value_of(a);
	if (v && !strcmp(v, "efa"))
		sbc_report(c, R_SB3003, a->span,
			   "FI_PROVIDER=efa, but queue %s of %s has no EFA enabled (line %u)",
			   yd_str(d, yd_get(d, queue, "Name"), NULL), c->cluster->src->path,
			   yd_span(d, queue).line);
}

/* NCCL reads an exclusion list as prefixes: ^...,eth drops eth0, which is
 * the only NIC name on Amazon Linux (Ubuntu's are ens*, enp*). */
static void socket_ifname(struct sbc *c)
{
	const struct sb_assign *a = assignment(c, "NCCL_SOCKET_IFNAME");
	const char *v = value_of(a);
	if (!v || v[0] != '^')
		return;
	for (const char *p = v + 1; *p;) {
		size_t n = strcspn(p, ",");
		if (n == 3 && !strncmp(p, "eth", 3)) {
			const char *os = NULL;
			if (c->cluster)
				os = yd_str(c->cluster->doc, yd_get(c->cluster->doc,
					yd_get(c->cluster->doc, yd_root(c->cluster->doc), "Image"), "Os"), NULL);
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

void sbc_check_env(struct sbc *c)
{
	socket_ifname(c);
	bad_names(c);
	device_rdma(c);
	neuron(c);
	lnc(c);
	efa_without_efa(c);
}
