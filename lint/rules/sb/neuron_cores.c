/* SB2611-SB2614: the NeuronCores a job's processes get, and what of its
 * environment a Neuron node does not have. The core counts are the
 * catalog's logical NeuronCores at the LNC the runtime runs at
 * (NEURON_LOGICAL_NC_CONFIG, else the instance's default), so they need
 * the paired cluster's instance.
 *
 * NEURON_RT_NUM_CORES is the count of cores each process asks the
 * runtime for; NEURON_RT_VISIBLE_CORES the cores a process may use,
 * which the torch-xla Neuron plugin splits among the local ranks
 * (one each, in list order), so a list shorter than the processes per
 * node leaves some without a core (Neuron's runtime configuration
 * guide, NEURON_RT_VISIBLE_CORES and NEURON_RT_NUM_CORES; torch_xla's
 * _internal/neuron.py, remap_visible_cores). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"

/* The processes a node starts: torchrun's --nproc-per-node on the first
 * torchrun command; 0 unknown. */
static long long procs_per_node(const struct sbc *c, struct sb_span *at)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const sb_part *torch = sb_cmd_find(cmd, SB_PROG_TORCHRUN);
		long long ppn;
		if (torch && sbc_word_int(c, sb_flag(torch, "nproc-per-node"), cmd, &ppn) && ppn > 0) {
			*at = sb_word_span(sb_flag(torch, "nproc-per-node"));
			return ppn;
		}
	}
	return 0;
}

struct cores {
	const struct instance_type *it;
	int lnc;                  /* the runtime's */
	bool lnc_default;
	int count;                /* logical cores at lnc */
	long long ppn;
	struct sb_span ppn_at;
};

static bool read_cores(const struct sbc *c, struct cores *k)
{
	memset(k, 0, sizeof *k);
	if (!c->it || !catalog_is_neuron(c->it))
		return false;
	const char *rv = sbc_env_value(c, "NEURON_LOGICAL_NC_CONFIG", NULL);
	k->it = c->it;
	k->lnc = rv ? atoi(rv) : c->it->lnc_default;
	k->lnc_default = !rv;
	k->count = catalog_procs_per_node(c->it, rv ? k->lnc : 0);
	k->ppn = procs_per_node(c, &k->ppn_at);
	return k->count > 0 && k->ppn > 0;
}

/* "0-31", "0,1,2,3", "4": how many cores the list names; 0 when it is
 * not such a list. */
static long long core_list_count(const char *v)
{
	long long n = 0;
	while (v && *v) {
		char *end;
		long lo = strtol(v, &end, 10), hi = lo;
		if (end == v || lo < 0)
			return 0;
		if (*end == '-') {
			const char *h = end + 1;
			hi = strtol(h, &end, 10);
			if (end == h || hi < lo)
				return 0;
		}
		n += hi - lo + 1;
		if (*end == ',')
			end++;
		else if (*end)
			return 0;
		v = end;
	}
	return n;
}

/* NEURON_RT_NUM_CORES when every process of the node can have it. */
static long long cores_each(const struct cores *k, const struct sbc *c)
{
	const char *v = sbc_env_value(c, "NEURON_RT_NUM_CORES", NULL);
	long long n = v ? atoll(v) : 0;
	return n > 0 && n * k->ppn <= k->count ? n : 1;
}

/* SB2611 neuron-cores-oversubscribed */
static void neuron_cores_oversubscribed(struct sbc *c, const struct cores *k)
{
	const struct sb_assign *a;
	const char *v = sbc_env_value(c, "NEURON_RT_NUM_CORES", &a);
	long long n = v ? atoll(v) : 0;
	if (n > 0 && n * k->ppn > k->count) {
		struct diag *g = sbc_report(c, R_SB2611, a->span,
			"NEURON_RT_NUM_CORES=%lld asks %lld NeuronCores for each of the %lld processes a node starts, %lld in all, and %s has %d at LNC %d: the processes after the first %lld find no core and fail",
			n, n, k->ppn, n * k->ppn, k->it->name, k->count, k->lnc, (long long)k->count / n);
		diag_set_help(g, "each process takes one core when NEURON_RT_NUM_CORES is not set: remove it, or set it to %lld", (long long)k->count / k->ppn);
	}
	v = sbc_env_value(c, "NEURON_RT_VISIBLE_CORES", &a);
	long long listed = core_list_count(v);
	if (!listed)
		return;
	if (listed < k->ppn)
		sbc_report(c, R_SB2611, a->span,
			   "NEURON_RT_VISIBLE_CORES names %lld NeuronCores for the %lld processes a node starts, one core each: %lld processes get none and fail",
			   listed, k->ppn, k->ppn - listed);
	else if (listed > k->count)
		sbc_report(c, R_SB2611, a->span,
			   "NEURON_RT_VISIBLE_CORES names %lld NeuronCores, and %s has %d at LNC %d",
			   listed, k->it->name, k->count, k->lnc);
}

/* SB2612 neuron-cores-idle: SB2123 says it when the count is the
 * core count at the other LNC. */
static void neuron_cores_idle(struct sbc *c, const struct cores *k)
{
	int other = k->lnc == 1 ? 2 : 1;
	if (catalog_lnc_valid(k->it, other) && catalog_procs_per_node(k->it, other) == k->ppn)
		return;
	long long each = cores_each(k, c), used = each * k->ppn;
	if (used >= k->count || sbc_env_value(c, "NEURON_RT_VISIBLE_CORES", NULL))
		return;
	struct diag *g = sbc_report(c, R_SB2612, k->ppn_at,
		"%lld processes per node%s use %lld of the %d logical NeuronCores %s has at LNC %d%s: %lld stay idle on every node",
		k->ppn, each > 1 ? " of several cores each" : "", used, k->count, k->it->name, k->lnc,
		k->lnc_default ? " (its default)" : "", k->count - used);
	diag_set_help(g, "start %d processes per node, one per logical NeuronCore", k->count);
}

static bool upper_nccl(const char *name)
{
	return !strncmp(name, "NCCL_", 5);
}

/* SB2613 nccl-variable-on-neuron: Neuron's collectives are its own
 * (the Neuron runtime and its collectives library, over libfabric's
 * EFA provider); a Trainium or Inferentia node has no NCCL, and the
 * runtime's settings are NEURON_RT_* and FI_* (Neuron's runtime
 * configuration guide, docs/frameworks.md). The collectives library
 * takes its socket interface as CCOM_SOCKET_IFNAME in AWS's own samples,
 * where NCCL's is NCCL_SOCKET_IFNAME; no Neuron page lists an NCCL_
 * name it reads, so none is exempt here. */
static void nccl_variable_on_neuron(struct sbc *c)
{
	if (!c->it || !catalog_is_neuron(c->it))
		return;
	for (size_t i = 0; i < sb_assign_count(c->m); i++) {
		const struct sb_assign *a = sb_assign_at(c->m, i);
		if (!upper_nccl(a->name) || a->kind == SB_ASSIGN_UNSET || a->kind == SB_ASSIGN_UNKNOWN)
			continue;
		struct diag *g = sbc_report(c, R_SB2613, a->name_span,
			"%s is an NCCL variable, and %s runs Neuron's collectives, which do not read it: the setting does nothing",
			a->name, c->it->name);
		diag_set_help(g, "Neuron's runtime logs with NEURON_RT_LOG_LEVEL; its network settings are FI_* and NEURON_RT_*");
	}
}

/* Whether the paired cluster uses a custom AMI anywhere (Image.CustomAmi
 * at the top, or a queue's). */
static bool custom_ami(const struct sbc *c)
{
	const yamldoc *d = c->cluster->doc;
	if (yd_get(d, yd_get(d, yd_root(d), "Image"), "CustomAmi"))
		return true;
	yd_node queues = cluster_queues(c->cluster);
	for (size_t i = 0; i < yd_len(d, queues); i++)
		if (yd_get(d, yd_get(d, yd_item(d, queues, i), "Image"), "CustomAmi"))
			return true;
	return false;
}

/* The modules a ParallelCluster 3 AMI has (`module avail` on it, as the
 * ParallelCluster user guide shows it in "Enable Intel MPI":
 * /usr/share/Modules/modulefiles holds dot, libfabric-aws, module-git,
 * module-info, modules, null, openmpi, use.own; intelmpi comes from
 * /opt/intel/mpi). openmpi5 is the EFA installer's Open MPI 5: the
 * cookbook runs the full installer (aws/aws-parallelcluster-cookbook
 * cookbooks/aws-parallelcluster-environment/resources/efa/partial/_common.rb
 * @ 0caaaedf1e42328672f3a6efef3864adac4206a3: `efa_installer.sh -y`,
 * not --minimal), whose openmpi50-aws package (installer 1.30 on)
 * installs /opt/amazon/openmpi5 with a module of that name beside
 * libfabric-aws; on an AMI with an older installer the module is absent,
 * which this list does not know, so it stays silent there. Neuron is
 * installed as packages, not as a module. */
static bool ami_module(const char *name, size_t len)
{
	static const char *const modules[] = {
		"dot", "libfabric-aws", "module-git", "module-info", "modules", "null", "openmpi",
		"openmpi5", "use.own", "intelmpi",
	};
	for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++)
		if (strlen(modules[i]) == len && !strncmp(name, modules[i], len))
			return true;
	return false;
}

/* SB2614 module-not-on-ami */
static void module_not_on_ami(struct sbc *c)
{
	if (!c->cluster || custom_ami(c))
		return;
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		size_t n = sb_cmd_word_count(cmd);
		const char *w0 = n ? sb_word_value(sb_cmd_word(cmd, 0)) : NULL;
		const char *verb = n > 1 ? sb_word_value(sb_cmd_word(cmd, 1)) : NULL;
		if (!w0 || strcmp(w0, "module") || !verb)
			continue;
		if (!strcmp(verb, "use"))
			return; /* a module path of the site's own: anything may be there */
		if (strcmp(verb, "load") && strcmp(verb, "add"))
			continue;
		for (size_t k = 2; k < n; k++) {
			const char *m = sb_word_value(sb_cmd_word(cmd, k));
			if (!m || m[0] == '-')
				continue;
			size_t len = strcspn(m, "/");
			if (ami_module(m, len))
				continue;
			struct diag *g = sbc_report(c, R_SB2614, sb_word_span(sb_cmd_word(cmd, k)),
				"no ParallelCluster AMI has a module %.*s, and the paired cluster uses no custom AMI: module load fails (Unable to locate a modulefile) and what it should set is missing",
				(int)len, m);
			diag_set_help(g, "its modules are openmpi, openmpi5, intelmpi and libfabric-aws; install the software in a custom AMI or with OnNodeConfigured, and load it from there");
		}
	}
}

void sbc_check_neuron_cores(struct sbc *c)
{
	struct cores k;
	if (read_cores(c, &k)) {
		neuron_cores_oversubscribed(c, &k);
		neuron_cores_idle(c, &k);
	}
	nccl_variable_on_neuron(c);
	module_not_on_ami(c);
}
