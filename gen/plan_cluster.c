/* JS501x: the cluster gen writes around the job: its network, the place
 * of the scripts it asks the nodes to run, what its storage keeps after
 * pcluster delete-cluster, its name, and what its capacity guarantees
 * (docs/jobspec.md, "The cluster"). */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "pcluster_nodes.h"

/* ParallelCluster's SlurmSettings.ScaledownIdletime gen writes, minutes. */
#define SCALEDOWN_MINUTES 30

void plan_queue_name(const struct plan *p, bool spot, struct buf *name)
{
	const char *queue = p->job->cluster->queue;
	if (!p->fleet.mixed)
		buf_puts(name, queue);
	else
		buf_printf(name, "%s-%s", queue, spot ? "spot" : "reserved");
}

void plan_compute_resource(const struct plan *p, char *out, size_t cap)
{
	snprintf(out, cap, "%s", p->job->instance);
	for (char *s = out; *s; s++)
		if (*s == '.')
			*s = '-';
}

bool plan_bootstrap_url(const struct plan *p, const char *file, struct buf *url)
{
	const char *at = p->job->cluster->bootstrap;
	if (!at)
		return false;
	buf_printf(url, "%s/%s", at, file);
	return true;
}

bool plan_script_name(const struct plan *p, enum plan_script s, struct buf *name)
{
	static const char *const suffix[] = {
		[SCRIPT_WATCHER] = "-spot-watcher.sh", [SCRIPT_PYXIS_HEAD] = "-pyxis-head.sh",
		[SCRIPT_PYXIS_COMPUTE] = "-pyxis-compute.sh",
	};
	bool have = s == SCRIPT_WATCHER ? p->fleet.mixed : p->cl.pyxis;
	if (have)
		buf_printf(name, "%s%s", p->job->name, suffix[s]);
	return have;
}

/* ---- network ------------------------------------------------------------ */

/* The EC2 API: a public IPv4 address is assigned on launch only to an
 * instance with one network interface; ParallelCluster refuses a queue of
 * several-card instances in a subnet that assigns them
 * (MultiNetworkInterfacesInstancesValidator). The catalog counts one EFA
 * interface per network card. */
static int network_cards(const struct instance_type *it)
{
	if (it->efa == TRI_NO)
		return 1;
	if (it->efa == TRI_YES && it->max_efa_interfaces > 0)
		return it->max_efa_interfaces;
	return -1;
}

/* JS5012 head-subnet-required */
static bool head_subnet_required(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_cluster *c = p->job->cluster;
	struct diag *d = spec_report(spec, diags, R_JS5012, c->head_subnet_given ? "cluster.head_subnet" : "cluster.subnet",
		"%s launches with %d network cards, so it gets no public IPv4 address and its subnet must be "
		"private (ParallelCluster refuses a subnet that assigns them); the head node %s",
		p->it->name, p->cl.network_cards,
		c->head_subnet_given ? "is in that same subnet, where it cannot be reached from outside the VPC"
				     : "would be in that same subnet (cluster.head_subnet defaults to it)");
	diag_set_help(d, "give cluster.head_subnet: a public subnet for the head node, with cluster.subnet the "
		      "private one (with a NAT gateway) for the compute nodes, as Neuron's ParallelCluster samples do");
	return false;
}

/* JS5013 network-cards-unknown */
static void network_cards_unknown(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct diag *d = spec_report(spec, diags, R_JS5013, "cluster.subnet",
		"the catalog does not know how many network cards %s launches with; with more than one, its "
		"nodes get no public IPv4 address, and one subnet cannot serve them and a reachable head node",
		p->it->name);
	diag_set_help(d, "give cluster.head_subnet (a public subnet for the head node), or check the type's "
		      "network cards: aws ec2 describe-instance-types --instance-types %s "
		      "--query 'InstanceTypes[].NetworkInfo.MaximumNetworkCards'", p->it->name);
}

static bool check_network(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_cluster *c = p->job->cluster;
	p->cl.network_cards = network_cards(p->it);
	bool shared = !strcmp(c->head_subnet, c->subnet);
	if (!shared || p->cl.network_cards == 1)
		return true;
	if (p->cl.network_cards > 1)
		return head_subnet_required(p, spec, diags);
	network_cards_unknown(p, spec, diags);
	return true;
}

/* ---- the scripts gen asks the cluster to run ------------------------------ */

/* The bucket of an s3:// URL, its length in *len; NULL for another URL. */
static const char *s3_bucket(const char *url, size_t *len)
{
	if (!url || strncmp(url, "s3://", 5))
		return NULL;
	*len = strcspn(url + 5, "/");
	return url + 5;
}

/* Whether bucket[0..len) is one of s3_buckets, which the nodes may write. */
static bool writable_bucket(const struct job_spec *j, const char *bucket, size_t len)
{
	for (unsigned i = 0; bucket && i < j->s3_buckets_count; i++)
		if (strlen(j->s3_buckets[i]) == len && !memcmp(j->s3_buckets[i], bucket, len))
			return true;
	return false;
}

/* JS5014 bootstrap-location-missing */
static bool bootstrap_location_missing(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	bool watcher = p->fleet.mixed && !j->capacity->watcher->script_url;
	if (j->cluster->bootstrap || (!watcher && !p->cl.pyxis))
		return true;
	struct diag *d = spec_report(spec, diags, R_JS5014, "cluster",
		"gen writes %s for the cluster's nodes to run as root, and they need a place to fetch %s from",
		watcher && p->cl.pyxis ? "the spot watcher and Pyxis's set-up"
		: watcher ? "the spot watcher" : "Pyxis's set-up scripts",
		watcher && !p->cl.pyxis ? "it" : "them");
	diag_set_help(d, "give cluster.bootstrap: s3://BUCKET/PREFIX, a place the nodes only read (not one of "
		      "s3_buckets): gen grants read access to it alone, and prints the upload commands");
	return false;
}

/* JS5015 bootstrap-writable */
static bool bootstrap_writable(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	const char *where[2] = { j->cluster->bootstrap, p->fleet.mixed ? j->capacity->watcher->script_url : NULL };
	const char *keys[2] = { "cluster.bootstrap", "capacity.watcher.script_url" };
	bool ok = true;
	for (int i = 0; i < 2; i++) {
		size_t len;
		const char *bucket = s3_bucket(where[i], &len);
		if (!writable_bucket(j, bucket, len))
			continue;
		struct diag *d = spec_report(spec, diags, R_JS5015, keys[i],
			"the nodes fetch the scripts they run as root from %.*s, which s3_buckets lets every node "
			"write: any job could replace them, and every node started after it would run its code",
			(int)len, bucket);
		diag_set_help(d, "put gen's scripts in a bucket the cluster only reads, apart from the buckets "
			      "the job writes to");
		ok = false;
	}
	return ok;
}

/* ---- storage ------------------------------------------------------------ */

static enum deletion_policy storage_default(enum storage type)
{
	return type == ST_EBS ? DP_SNAPSHOT : DP_RETAIN;
}

/* JS5011 deletion-policy-not-for-storage */
static bool deletion_policy_not_for_storage(const struct spec *spec, struct diag_list *diags,
					    const char *why, const char *help)
{
	struct diag *d = spec_report(spec, diags, R_JS5011, "storage.deletion_policy", "%s", why);
	diag_set_help(d, "%s", help);
	return false;
}

/* JS5010 storage-deleted-with-cluster */
static void storage_deleted_with_cluster(const struct plan *p, const struct spec *spec,
					 struct diag_list *diags)
{
	static const char *const what[] = {
		[ST_FSX_LUSTRE] = "FSx for Lustre file system", [ST_EFS] = "EFS file system",
		[ST_EBS] = "EBS volume",
	};
	struct diag *d = spec_report(spec, diags, R_JS5010, "storage.deletion_policy",
		"pcluster delete-cluster deletes the %s at %s, with the checkpoints, logs and compiled graphs on it",
		what[p->job->storage->type], p->job->storage->mount);
	diag_set_help(d, "copy what you keep elsewhere first, or leave deletion_policy out: gen then retains it");
}

static bool check_storage(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_storage *st = p->job->storage;
	p->cl.deletion = DP_DEFAULT;
	if (st->id) {
		if (st->deletion_policy != DP_DEFAULT)
			return deletion_policy_not_for_storage(spec, diags,
				"storage.id mounts an existing file system or volume, which ParallelCluster never deletes",
				"leave deletion_policy out");
		return true;
	}
	if (st->deletion_policy == DP_SNAPSHOT && st->type != ST_EBS)
		return deletion_policy_not_for_storage(spec, diags,
			"ParallelCluster snapshots EBS volumes only; an FSx for Lustre or EFS file system is retained or deleted",
			"use retain (the default) or delete");
	p->cl.deletion = st->deletion_policy != DP_DEFAULT ? st->deletion_policy : storage_default(st->type);
	if (p->cl.deletion == DP_DELETE)
		storage_deleted_with_cluster(p, spec, diags);
	return true;
}

void plan_storage_text(const struct plan *p, struct buf *b)
{
	const struct spec_storage *st = p->job->storage;
	double rate = st->usd_per_gib_month;
	buf_puts(b, "  after the run    ");
	if (st->id) {
		buf_printf(b, "%s is an existing one: ParallelCluster neither creates nor deletes it\n", st->id);
		return;
	}
	if (p->cl.deletion == DP_DELETE) {
		buf_puts(b, "pcluster delete-cluster deletes the storage and everything on it (DeletionPolicy Delete)\n");
		return;
	}
	bool snapshot = p->cl.deletion == DP_SNAPSHOT;
	if (snapshot)
		buf_printf(b, "pcluster delete-cluster keeps a snapshot of the %d GiB volume (DeletionPolicy Snapshot, "
			   "billed for the blocks it holds)", st->size_gib);
	else if (st->type == ST_EFS)
		buf_puts(b, "pcluster delete-cluster keeps the EFS file system (DeletionPolicy Retain), billed for "
			    "what it holds");
	else
		buf_printf(b, "pcluster delete-cluster keeps the %d GiB %s (DeletionPolicy Retain)", st->size_gib,
			   st->type == ST_FSX_LUSTRE ? "FSx for Lustre file system" : "volume");
	if (rate > 0 && st->type != ST_EFS)
		buf_printf(b, ": at most $%.0f a month (%d GiB x $%.4g, storage.usd_per_gib_month) until you delete it\n",
			   st->size_gib * rate, st->size_gib, rate);
	else if (rate > 0)
		buf_printf(b, ": $%.4g per GiB a month (storage.usd_per_gib_month) until you delete it\n", rate);
	else
		buf_puts(b, ", until you delete it; its cost a month is unknown: trainforge has no storage "
			    "prices (give storage.usd_per_gib_month)\n");
}

/* ---- the cluster's name ------------------------------------------------- */

/* JS5016 cluster-name-too-long */
static bool cluster_name_too_long(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	char cr[64];
	plan_compute_resource(p, cr, sizeof cr);
	size_t longest = 0;
	for (int spot = 0; spot <= (p->fleet.mixed ? 1 : 0); spot++) {
		struct buf q = BUF_INIT;
		plan_queue_name(p, spot, &q);
		int count = !p->fleet.mixed ? p->nodes : spot ? p->fleet.spot : p->fleet.reserved;
		size_t host = pcluster_host_len(q.p, cr, count);
		longest = host > longest ? host : longest;
		buf_free(&q);
	}
	p->cl.name_max = pcluster_name_max(longest);
	size_t len = strlen(j->cluster->name);
	if (len <= p->cl.name_max)
		return true;
	bool given = yd_get(spec->doc, spec_node(spec, "cluster"), "name") != 0;
	struct diag *d = spec_report(spec, diags, R_JS5016, given ? "cluster.name" : "name",
		"cluster name %s (%zu characters) makes node names longer than %d characters "
		"(<queue>-dy-%s-<n>.%s.pcluster), which breaks Neuron's and NCCL's rendezvous",
		j->cluster->name, len, PCLUSTER_FQDN_MAX, cr, j->cluster->name);
	if (p->cl.name_max)
		diag_set_help(d, "give cluster.name of at most %zu characters", p->cl.name_max);
	else
		diag_set_help(d, "shorten cluster.queue: even a one-letter cluster name is too long with it");
	return false;
}

/* ---- capacity ----------------------------------------------------------- */

static bool reserved_by_id(const struct spec_capacity *c)
{
	return c->reservation_id && (c->type == CAP_RESERVATION || c->type == CAP_CAPACITY_BLOCK);
}

/* What a scale-down costs: the next start launches every node again
 * and waits for its bootstrap. */
static void rebuild_text(const struct plan *p, struct buf *b)
{
	buf_printf(b, "after %d idle minutes ParallelCluster scales the nodes down, and the next start waits "
		      "for EC2 capacity and for every node's bootstrap again (up to %d s, its node bootstrap "
		      "timeout%s)", SCALEDOWN_MINUTES, PCLUSTER_BOOTSTRAP_TIMEOUT_S,
		   p->cl.route == ROUTE_SCRIPT ? ", Neuron's install at boot included" : "");
}

/* JS5017 capacity-not-reserved */
static void capacity_not_reserved(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct buf why = BUF_INIT;
	rebuild_text(p, &why);
	struct diag *d = spec_report(spec, diags, R_JS5017, "capacity.reserved",
		"the %d reserved nodes are on-demand: no capacity is reserved for them (a Savings Plan or "
		"Reserved Instances discount reserves none), and %s",
		p->fleet.reserved, why.p);
	diag_set_help(d, "to hold the capacity, reserve it: capacity.type reservation (an On-Demand Capacity "
		      "Reservation) or capacity-block, with its reservation_id; gen then makes the nodes static");
	buf_free(&why);
}

void plan_capacity_text(const struct plan *p, struct buf *b)
{
	const struct spec_capacity *c = p->job->capacity;
	int reserved = p->fleet.mixed ? p->fleet.reserved : p->nodes;
	buf_puts(b, "  capacity         ");
	if (reserved_by_id(c))
		buf_printf(b, "%s %s: %d static nodes, up from the cluster's start until it is deleted or the "
			      "reservation ends (billed while idle)",
			   c->type == CAP_CAPACITY_BLOCK ? "Capacity Block" : "capacity reservation",
			   c->reservation_id, reserved);
	else {
		buf_printf(b, "%d nodes %s, no capacity reserved; ", reserved,
			   c->type == CAP_SPOT ? "spot" : "on demand");
		rebuild_text(p, b);
	}
	if (p->fleet.mixed)
		buf_printf(b, "; %d spot nodes, reclaimed with two minutes' notice", p->fleet.spot);
	buf_putc(b, '\n');
}

bool plan_cluster_check(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_capacity *c = p->job->capacity;
	p->cl.static_reserved = reserved_by_id(c);
	p->cl.scripts = p->fleet.mixed || p->cl.pyxis;
	bool ok = check_network(p, spec, diags);
	ok &= bootstrap_location_missing(p, spec, diags);
	ok &= bootstrap_writable(p, spec, diags);
	ok &= check_storage(p, spec, diags);
	ok &= cluster_name_too_long(p, spec, diags);
	if (p->fleet.mixed && c->type == CAP_ONDEMAND)
		capacity_not_reserved(p, spec, diags);
	return ok;
}
