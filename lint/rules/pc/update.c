/* Changes: what `pcluster update-cluster` allows. Each change between
 * the old and the new version of a config (cluster_diff) is judged by its
 * key's update policy (cluster_update) and reported where it is in the
 * new file; a removed key at its parent, with the old line in the help. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cluster_cost.h"
#include "cluster_update.h"
#include "pc.h"

struct review {
	const struct pc *pc;          /* the new version, and where findings go */
	const struct cluster *old;
	const char *base;             /* the old version's name */
	const struct cupd_context *ctx;
	int version;                  /* update_policy_version of the target */
};

static const char stop_fleet[] = "stop the fleet first: `pcluster update-compute-fleet --status STOP_REQUESTED`";

/* ---- what the change is, in words ------------------------------------ */

static const yamldoc *side_doc(const struct review *rv, bool new)
{
	return new ? rv->pc->cl->doc : rv->old->doc;
}

/* Scheduling.SlurmQueues[q].ComputeResources[p5].MaxCount 16 -> 64 */
static void subject(const struct review *rv, const struct cdiff_change *ch, struct buf *b)
{
	bool added = ch->op == CDIFF_ADDED;
	buf_printf(b, "%s%s%s", ch->path, *ch->path ? "." : "", ch->key);
	if (ch->item) {
		const yamldoc *d = side_doc(rv, added);
		yd_node name = yd_get(d, added ? ch->new_value : ch->old_value, ch->entry->update_key);
		buf_putc(b, '[');
		cluster_value_text(d, name, b);
		buf_printf(b, "] %s", added ? "added" : "removed");
		return;
	}
	if (ch->op == CDIFF_MODIFIED) {
		buf_putc(b, ' ');
		cluster_value_text(rv->old->doc, ch->old_value, b);
		buf_puts(b, " -> ");
		cluster_value_text(rv->pc->cl->doc, ch->new_value, b);
	} else {
		buf_puts(b, added ? " added" : " removed");
	}
}

/* The policy and where the key was: the help of every finding. */
static void policy_help(const struct review *rv, const struct cdiff_change *ch, struct diag *g,
			const char *extra)
{
	struct buf h = BUF_INIT;
	if (extra)
		buf_printf(&h, "%s; ", extra);
	if (ch->entry) {
		int from = ch->entry->from, to = ch->entry->until ? ch->entry->until - 1 : update_policy_newest();
		buf_printf(&h, "%s's update policy is %s in ParallelCluster %d.%d to %d.%d; ", ch->key,
			   update_policy_info(ch->entry->policy)->name, from / 100, from % 100, to / 100, to % 100);
	}
	if (ch->op == CDIFF_ADDED)
		buf_printf(&h, "not in %s", rv->base);
	else
		buf_printf(&h, "was line %u of %s", yd_span(rv->old->doc, ch->old_at).line, rv->base);
	diag_set_help(g, "%s", h.p);
	buf_free(&h);
}

static struct diag *report(const struct review *rv, enum rule_id rule, const struct cdiff_change *ch,
			   const char *extra_help, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct diag *report(const struct review *rv, enum rule_id rule, const struct cdiff_change *ch,
			   const char *extra_help, const char *fmt, ...)
{
	struct buf m = BUF_INIT;
	subject(rv, ch, &m);
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&m, fmt, ap);
	va_end(ap);
	struct diag *g = pc_report(rv->pc, rule, ch->at ? ch->at : rv->pc->cl->root, "%s", m.p);
	buf_free(&m);
	policy_help(rv, ch, g, extra_help);
	return g;
}

/* ---- what the change costs ------------------------------------------- */

static void put_rate(struct buf *b, const struct cluster_rate *r, double nodes)
{
	buf_puts(b, r->at_most ? "up to " : "");
	cluster_money(b, r->usd * nodes);
	buf_puts(b, "/h");
}

/* "; ceiling $A/h -> $B/h" for MaxCount, "; idle ..." for MinCount. */
static void count_cost(const struct review *rv, const struct cdiff_change *ch, struct buf *b)
{
	bool max = !strcmp(ch->key, "MaxCount");
	yd_node oq = cdiff_scope_item(ch, "SlurmQueues", 0), ocr = cdiff_scope_item(ch, "ComputeResources", 0);
	yd_node nq = cdiff_scope_item(ch, "SlurmQueues", 1), ncr = cdiff_scope_item(ch, "ComputeResources", 1);
	if (!ncr || (!max && cluster_cr_reserved(rv->pc->cl, nq, ncr)))
		return;
	long long before = cluster_cr_count(rv->old, ocr, ch->key), after = cluster_cr_count(rv->pc->cl, ncr, ch->key);
	struct cluster_rate was, now;
	cluster_cr_rate(rv->old, oq, ocr, &was);
	cluster_cr_rate(rv->pc->cl, nq, ncr, &now);
	if (before < 0 || after < 0 || before == after)
		return;
	buf_printf(b, "; %s ", max ? "ceiling" : "idle");
	if (was.usd < 0 || now.usd < 0) {
		buf_puts(b, "cost unknown (");
		cluster_rate_unknown(was.usd < 0 ? &was : &now, b);
		buf_putc(b, ')');
		return;
	}
	put_rate(b, &was, (double)before);
	buf_puts(b, " -> ");
	put_rate(b, &now, (double)after);
	buf_puts(b, " (");
	cluster_rate_source(rv->pc->cl, &now, b);
	buf_putc(b, ')');
}

/* A compute resource's ceiling and idle cost, added to the sums. */
static bool cr_cost(const struct cluster *c, yd_node q, yd_node cr, double *ceiling, double *idle,
		    struct cluster_rate *r)
{
	long long max = cluster_cr_count(c, cr, "MaxCount"), min = cluster_cr_count(c, cr, "MinCount");
	cluster_cr_rate(c, q, cr, r);
	if (r->usd < 0 || max < 0 || min < 0)
		return false;
	*ceiling += r->usd * (double)max;
	if (!cluster_cr_reserved(c, q, cr))
		*idle += r->usd * (double)min;
	return true;
}

/* "; ceiling $A/h, idle $B/h" of a queue or compute resource added or removed. */
static void item_cost(const struct review *rv, const struct cdiff_change *ch, struct buf *b)
{
	bool added = ch->op == CDIFF_ADDED, queue = !strcmp(ch->key, "SlurmQueues");
	const struct cluster *c = added ? rv->pc->cl : rv->old;
	yd_node item = added ? ch->new_value : ch->old_value;
	yd_node q = queue ? item : cdiff_scope_item(ch, "SlurmQueues", added);
	yd_node crs = queue ? cluster_compute_resources(c, item) : 0;
	size_t n = queue ? yd_len(c->doc, crs) : 1;
	double ceiling = 0, idle = 0;
	struct cluster_rate r = { 0 };
	bool known = true;
	for (size_t i = 0; i < n && known; i++)
		known = cr_cost(c, q, queue ? yd_item(c->doc, crs, i) : item, &ceiling, &idle, &r);
	if (!known) {
		buf_puts(b, "; cost unknown (");
		if (r.usd < 0)
			cluster_rate_unknown(&r, b);
		else
			buf_puts(b, "a count is not a number");
		buf_putc(b, ')');
		return;
	}
	buf_printf(b, "; %s ceiling ", added ? "adds" : "removes");
	cluster_money(b, ceiling);
	buf_puts(b, "/h, idle ");
	cluster_money(b, idle);
	buf_puts(b, "/h");
}

static void cost(const struct review *rv, const struct cdiff_change *ch, struct buf *b)
{
	if (ch->item && (!strcmp(ch->key, "SlurmQueues") || !strcmp(ch->key, "ComputeResources")))
		item_cost(rv, ch, b);
	else if (!ch->item && (!strcmp(ch->key, "MaxCount") || !strcmp(ch->key, "MinCount")))
		count_cost(rv, ch, b);
}

/* ---- the rules -------------------------------------------------------- */

/* What stopping is not needed for: QueueUpdateStrategy values that
 * would apply the change while the fleet runs, or NULL. */
static const char *strategy_alternative(const struct review *rv, const struct cdiff_change *ch,
					struct cupd_verdict v)
{
	enum up_policy p = ch->entry->policy;
	bool in_queue = cdiff_scope_item(ch, "SlurmQueues", 1) != 0;
	if (v.why == CUPD_SHRINKS && (in_queue || !strcmp(ch->key, "SlurmQueues")))
		return "TERMINATE";
	if (v.why == CUPD_BY_POLICY && rv->ctx->strategy == CUPD_COMPUTE_FLEET_STOP &&
	    ((in_queue && (p == UP_QUEUE_UPDATE_STRATEGY || p == UP_MANAGED_PLACEMENT_GROUP ||
			   p == UP_MANAGED_FSX)) || (p == UP_SHARED_STORAGE && ch->item)))
		return "DRAIN or TERMINATE";
	return NULL;
}

/* What a resize does, for the messages: removing capacity, or changing
 * the static nodes more than MaxCount rises (ParallelCluster counts an
 * added MinCount: 0 as a change too). */
static const char *shrinking(const struct cdiff_change *ch, struct cupd_verdict v)
{
	if (v.why != CUPD_SHRINKS)
		return "";
	return !ch->item && !strcmp(ch->key, "MinCount") ? " changes the static nodes more than MaxCount rises and"
							   : " removes capacity and";
}

/* "COMPUTE_FLEET_STOP, the default" or "DRAIN at line 12": the config's
 * own QueueUpdateStrategy, as the messages that depend on it say it. */
static void strategy_now(const struct review *rv, struct buf *b)
{
	static const char *const names[] = {
		[CUPD_COMPUTE_FLEET_STOP] = "COMPUTE_FLEET_STOP", [CUPD_DRAIN_NODES] = "DRAIN",
		[CUPD_TERMINATE_NODES] = "TERMINATE",
	};
	yd_node at = rv->ctx->strategy_node;
	if (at)
		buf_printf(b, "%s at line %u", names[rv->ctx->strategy], yd_span(rv->pc->cl->doc, at).line);
	else
		buf_puts(b, "COMPUTE_FLEET_STOP, the default");
}

/* PC5001 update-needs-new-cluster */
static void update_needs_new_cluster(const struct review *rv, const struct cdiff_change *ch,
				     struct cupd_verdict v)
{
	struct buf old = BUF_INIT;
	cluster_value_text(rv->old->doc, ch->old_value, &old);
	if (v.why == CUPD_MANAGED_FSX)
		report(rv, R_PC5001, ch, "give the file system a FileSystemId (an existing one) to change queue subnets",
		       ": not updatable while the managed FSx for Lustre file system '%s' stays: the update "
		       "would replace it and lose its data; keep the subnets or create a cluster",
		       rv->ctx->managed_fsx);
	else if (v.why == CUPD_HOME || v.why == CUPD_AWSBATCH)
		report(rv, R_PC5001, ch, NULL, ": not updatable: %s; revert it or create a cluster",
		       v.why == CUPD_HOME ? "a shared storage at /home cannot change in an update"
					  : "shared storage cannot change on an awsbatch cluster");
	else if (v.why == CUPD_READ_ONLY && ch->op == CDIFF_ADDED)
		report(rv, R_PC5001, ch, NULL, ": not updatable: the bucket is read only; remove it "
		       "(a forced update keeps the old bucket)");
	else if (v.why == CUPD_READ_ONLY)
		report(rv, R_PC5001, ch, NULL, ": not updatable: the bucket is read only; restore %s "
		       "(a forced update keeps the old bucket)", old.p);
	else if (ch->op == CDIFF_MODIFIED && !ch->item)
		report(rv, R_PC5001, ch, NULL, ": not updatable: needs a new cluster; restore %s or "
		       "create a cluster", old.p);
	else
		report(rv, R_PC5001, ch, NULL, ": not updatable: needs a new cluster; %s it or create a cluster",
		       ch->op == CDIFF_ADDED ? "remove" : "restore");
	buf_free(&old);
}

/* What a removed shared storage leaves: said in every finding about it. */
static const char *storage_fate(const struct review *rv, const struct cdiff_change *ch)
{
	if (!ch->item || ch->op != CDIFF_REMOVED || strcmp(ch->key, "SharedStorage"))
		return "";
	const char *policy = cluster_storage_deletion_policy(rv->old->doc, ch->old_value);
	if (!policy)
		return "; the existing file system is only unmounted";
	return !strcmp(policy, "Snapshot") ? "; the volume is deleted after a snapshot (DeletionPolicy Snapshot)"
					   : "; it is kept with its data (DeletionPolicy Retain)";
}

/* PC5002 update-needs-fleet-stop */
static void update_needs_fleet_stop(const struct review *rv, const struct cdiff_change *ch,
				    struct cupd_verdict v)
{
	struct buf m = BUF_INIT;
	const char *alt = strategy_alternative(rv, ch, v);
	bool login = v.outcome == CUPD_FLEET_LOGIN_STOP;
	if (v.why == CUPD_PG_DELETED)
		buf_printf(&m, " deletes a managed placement group: %s (QueueUpdateStrategy does not apply)",
			   stop_fleet);
	else if (v.why == CUPD_VCPUS_DOWN)
		buf_printf(&m, ": MaxvCpus can drop only while no more vCPUs run; %s", stop_fleet);
	else
		buf_printf(&m, "%s needs the compute fleet%s stopped: %s", shrinking(ch, v),
			   login ? " and the login nodes" : "", stop_fleet);
	if (login)
		buf_puts(&m, ", and set Count: 0 in every login pool and update");
	if (alt) {
		buf_printf(&m, ", or set QueueUpdateStrategy to %s%s (it is ", alt,
			   strcmp(alt, "TERMINATE") ? "" : ", which terminates the removed nodes and their jobs");
		strategy_now(rv, &m);
		buf_putc(&m, ')');
	}
	buf_puts(&m, storage_fate(rv, ch));
	cost(rv, ch, &m);
	report(rv, R_PC5002, ch, NULL, "%s", m.p);
	buf_free(&m);
}

/* PC5003 update-drains-nodes */
static void update_drains_nodes(const struct review *rv, const struct cdiff_change *ch)
{
	struct buf m = BUF_INIT;
	buf_printf(&m, " is applied with QueueUpdateStrategy DRAIN: the affected compute nodes take no "
		   "new jobs and are replaced once their running jobs end%s", storage_fate(rv, ch));
	cost(rv, ch, &m);
	report(rv, R_PC5003, ch, NULL, "%s", m.p);
	buf_free(&m);
}

/* PC5004 update-terminates-nodes */
static void update_terminates_nodes(const struct review *rv, const struct cdiff_change *ch,
				    struct cupd_verdict v)
{
	struct buf m = BUF_INIT;
	buf_printf(&m, "%s is applied with QueueUpdateStrategy TERMINATE: the %s compute nodes are "
		   "terminated at once, with the jobs running on them%s", shrinking(ch, v),
		   v.why == CUPD_SHRINKS ? "removed" : "affected", storage_fate(rv, ch));
	cost(rv, ch, &m);
	report(rv, R_PC5004, ch, "QueueUpdateStrategy DRAIN replaces nodes after their jobs end instead "
	       "(it does not apply to removed capacity)", "%s", m.p);
	buf_free(&m);
}

/* PC5005 update-needs-login-stop */
static void update_needs_login_stop(const struct review *rv, const struct cdiff_change *ch)
{
	const yamldoc *od = rv->old->doc;
	yd_node pool = cdiff_scope_item(ch, "Pools", 0);
	struct buf where = BUF_INIT;
	if (pool && ch->entry->policy == UP_LOGIN_NODES_POOL_STOP) {
		buf_puts(&where, "pool ");
		cluster_value_text(od, yd_get(od, pool, "Name"), &where);
	} else {
		buf_puts(&where, "every login pool");
	}
	report(rv, R_PC5005, ch, NULL, " needs the login nodes stopped: set Count: 0 in %s, update, then "
	       "make this change%s", where.p, storage_fate(rv, ch));
	buf_free(&where);
}

/* PC5006 storage-removal-deletes-data */
static bool storage_removal_deletes_data(const struct review *rv, const struct cdiff_change *ch)
{
	const yamldoc *od = rv->old->doc;
	if (!ch->item || ch->op != CDIFF_REMOVED || strcmp(ch->key, "SharedStorage"))
		return false;
	yd_node s = ch->old_value;
	const char *policy = cluster_storage_deletion_policy(od, s);
	if (!policy || strcmp(policy, "Delete"))
		return false;
	static const struct { const char *type, *words; } kinds[] = {
		{ "Ebs", "EBS volume" }, { "Efs", "EFS file system" }, { "FsxLustre", "FSx for Lustre file system" },
	};
	const char *type = yd_str(od, yd_get(od, s, "StorageType"), NULL), *words = type;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(type, kinds[i].type))
			words = kinds[i].words;
	char settings[80];
	snprintf(settings, sizeof settings, "%sSettings", type);
	bool by_default = !yd_get(od, yd_get(od, s, settings), "DeletionPolicy");
	report(rv, R_PC5006, ch, "set DeletionPolicy: Retain (allowed at any time) and update before "
	       "removing it, or keep it", ": its DeletionPolicy is Delete%s, so the update deletes the %s and "
	       "its data", by_default ? " (the default)" : "", words);
	return true;
}

static bool worth_knowing(const struct cdiff_change *ch, struct cupd_verdict v)
{
	static const char *const keys[] = {
		"SlurmQueues", "ComputeResources", "Instances", "Pools", "SharedStorage",
		"MaxCount", "MinCount", "Count", "MaxvCpus", "MinvCpus",
	};
	if (v.why == CUPD_STORAGE_LIVE)
		return true;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(ch->key, keys[i]))
			return !ch->item || ch->op == CDIFF_ADDED;
	return false;
}

/* PC5007 update-applies-live */
static void update_applies_live(const struct review *rv, const struct cdiff_change *ch,
				struct cupd_verdict v)
{
	if (!worth_knowing(ch, v))
		return;
	struct buf m = BUF_INIT;
	buf_puts(&m, " is applied while the cluster runs");
	if (v.why == CUPD_STORAGE_LIVE)
		buf_printf(&m, ": the existing file system is %s without replacing nodes",
			   ch->op == CDIFF_ADDED ? "mounted" : "unmounted");
	cost(rv, ch, &m);
	report(rv, R_PC5007, ch, NULL, "%s", m.p);
	buf_free(&m);
}

/* PC5008 update-policy-unknown */
static void update_policy_unknown(const struct review *rv, const struct cdiff_change *ch)
{
	int v = rv->version;
	report(rv, R_PC5008, ch, "docs/update-policy.md lists the keys trainforge knows",
	       ": no update policy is known for %s in ParallelCluster %d.%d; `pcluster update-cluster "
	       "--dryrun true` decides", ch->key, v / 100, v % 100);
}

static void judge(const struct review *rv, const struct cdiff_change *ch)
{
	struct cupd_verdict v = cluster_update_judge(rv->ctx, ch);
	if (v.outcome != CUPD_NOT_CHECKED && v.outcome != CUPD_REFUSED && storage_removal_deletes_data(rv, ch))
		return;
	switch (v.outcome) {
	case CUPD_NOT_CHECKED: break;
	case CUPD_UNKNOWN: update_policy_unknown(rv, ch); break;
	case CUPD_LIVE: update_applies_live(rv, ch, v); break;
	case CUPD_REFUSED: update_needs_new_cluster(rv, ch, v); break;
	case CUPD_FLEET_STOP:
	case CUPD_FLEET_LOGIN_STOP: update_needs_fleet_stop(rv, ch, v); break;
	case CUPD_LOGIN_STOP: update_needs_login_stop(rv, ch); break;
	case CUPD_DRAIN: update_drains_nodes(rv, ch); break;
	case CUPD_TERMINATE: update_terminates_nodes(rv, ch, v); break;
	}
}

void pcluster_review(struct source *src, const yamldoc *doc, const struct pc_base *base,
		     const struct pc_settings *set, struct diag_list *diags)
{
	struct target t = set->target ? *set->target : target_default();
	struct cluster now = cluster_of(src, doc), old = cluster_of(NULL, base->doc);
	struct pc pc = { .cl = &now, .diags = diags, .first = diags->len, .target = &t,
			  .idle_cost_warning = set->idle_cost_warning };
	int version = update_policy_version(t.pc);
	struct cdiff changes = { 0 };
	cluster_diff(&old, &now, version, &changes);
	struct cupd_context ctx;
	cupd_context_init(&ctx, &old, &now, &changes);
	struct review rv = { &pc, &old, base->name, &ctx, version };
	for (size_t i = 0; i < changes.len; i++) {
		const struct cdiff_change *ch = &changes.v[i];
		/* a template's placeholder: whether the value changes is known
		 * once it is rendered (docs/design.md, "Real files are messy") */
		if (cluster_unknown(&old, ch->old_value) || cluster_unknown(&now, ch->new_value))
			continue;
		judge(&rv, ch);
	}
	cdiff_free(&changes);
}

/* PC5009 update-base-unreadable */
static void update_base_unreadable(struct source *src, const char *name, const char *why,
				   struct diag_list *diags)
{
	struct diag *g = diag_add(diags, src, R_PC5009, 1, 1, 1, 1,
				  "the change is not reviewed: %s %s", name, why);
	diag_set_help(g, "the update policy of each changed key is checked against the old version; "
		      "fix that version or review against another revision");
}

void pcluster_review_unusable(struct source *src, const char *name, const char *why,
			      struct diag_list *diags)
{
	update_base_unreadable(src, name, why, diags);
}
