#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "interrupts.h"
#include "neuron_pcluster.h"
#include "xalloc.h"

/* Absent values are null, not missing: templates render strictly, and a
 * key they use that the context lacks is a bug. */
static void set_str(struct tv *m, const char *key, const char *v)
{
	tv_map_set(m, key, v ? tv_str(v) : tv_null());
}

static void set_int(struct tv *m, const char *key, long long v)
{
	tv_map_set(m, key, tv_num((double)v));
}

static void flag(struct tv *list, const char *name, const char *value)
{
	struct tv *f = tv_map_new();
	tv_map_set(f, "flag", tv_str(name));
	tv_map_set(f, "value", value ? tv_str(value) : tv_null());
	tv_list_push(list, f);
}

static void flag_int(struct tv *list, const char *name, long long v)
{
	char num[32];
	snprintf(num, sizeof num, "%lld", v);
	flag(list, name, num);
}

/* The framework's own spelling of the layout, from its flag table
 * (docs/frameworks.md, "Flags"). The checkpoint directory is the
 * script's $CHECKPOINT_DIR; in a mixed fleet the data-parallel size is
 * the round's ($dp), as the fleet's size changes. Then the arguments
 * that make it save on the signal the job sends, from its checkpoint
 * facts. */
static struct tv *parallel_flags(const struct plan *p)
{
	const struct fw_def *fw = fw_def(p->job->framework);
	long long v[FK__COUNT];
	plan_knob_values(p, v);
	struct tv *l = tv_list_new();
	for (size_t i = 0; i < fw->nflags; i++) {
		const struct fw_flag *f = &fw->flags[i];
		/* entry.args with the same flag and value: not written twice */
		if (!fw_flag_at_version(f, p->fw_version) || !fw_flag_written(f, v) || plan_arg_given(p, f))
			continue;
		switch (f->form) {
		case FW_INT:
			if (f->knob == FK_DP && p->fleet.mixed)
				flag(l, f->flag, "\"$dp\"");
			else
				flag_int(l, f->flag, v[f->knob]);
			break;
		case FW_SWITCH:
			flag(l, f->flag, NULL);
			break;
		case FW_DIR:
			flag(l, f->flag, "\"$CHECKPOINT_DIR\"");
			break;
		case FW_WORD:
			flag(l, f->flag, f->word);
			break;
		}
	}
	const struct fw_checkpoint *ck = p->survival.ckpt;
	if (ck && ck->signal_switch && ck->signal_written && !plan_args_have(p, ck->signal_switch)) {
		flag(l, ck->signal_switch, NULL);
		if (ck->signal_flag && !plan_args_have(p, ck->signal_flag))
			flag(l, ck->signal_flag, ck->signal_written);
	}
	return l;
}

/* What the script says of its checkpoints: only what the line does. */
static const char *checkpoint_comment(const struct plan *p, struct buf *b)
{
	const struct plan_survival *s = &p->survival;
	const struct fw_checkpoint *ck = s->ckpt;
	const char *title = fw_def(p->job->framework)->title;
	if (!ck) {
		buf_printf(b, "# The entry point (framework plain) saves and resumes on its own; the script\n"
			      "# exports where, and the plan's interval for it is %lld steps.", s->interval_steps);
		return b->p;
	}
	buf_printf(b, "# %s saves here every %lld steps (%s)", title, s->interval_steps, ck->interval);
	if (s->signal_save)
		buf_printf(b, " and on %s\n# (%s)", ck->signal_written, ck->signal_switch);
	buf_printf(b, ", and resumes from the latest save here");
	if (ck->load_dir)
		buf_printf(b, " (%s)", ck->load_dir);
	else if (ck->resume)
		buf_printf(b, " (%s %s)", ck->resume, ck->resume_value);
	else
		buf_puts(b, " by itself");
	buf_putc(b, '.');
	return b->p;
}

static struct tv *string_list(char **v, unsigned n)
{
	struct tv *l = tv_list_new();
	for (unsigned i = 0; i < n; i++)
		tv_list_push(l, tv_str(v[i]));
	return l;
}

/* env comes from the document: a free-form mapping the binding skips.
 * A value the script sets itself to the same text is not written twice
 * (another value is JS3002's). */
static struct tv *env_list(const struct plan *p, const struct spec *spec)
{
	struct tv *l = tv_list_new();
	const yamldoc *d = spec->doc;
	yd_node env = yd_get(d, yd_root(d), "env");
	for (size_t i = 0; i < yd_len(d, env) && yd_kind(d, env) == YD_MAPPING; i++) {
		const char *name = yd_str(d, yd_key(d, env, i), NULL);
		const char *value = yd_str(d, yd_value(d, env, i), NULL);
		const struct plan_env_set *g = plan_env_generated(p, name);
		if (g && g->value && !strcmp(g->value, value))
			continue;
		struct tv *e = tv_map_new();
		tv_map_set(e, "name", tv_str(name));
		tv_map_set(e, "value", tv_str(value));
		/* NEURON_CC_FLAGS is extended, never replaced: the flags the
		 * environment carries (Neuron's launchers set some) stay */
		tv_map_set(e, "old", tv_str(!strcmp(name, "NEURON_CC_FLAGS")
						? "\"${NEURON_CC_FLAGS:+$NEURON_CC_FLAGS }\"" : ""));
		tv_list_push(l, e);
	}
	return l;
}

/* The user's NEURON_CC_FLAGS, when it carries the plan's LNC itself. */
static const char *user_cc_flags(const struct plan *p, const struct spec *spec)
{
	const yamldoc *d = spec->doc;
	const char *v = yd_str(d, yd_get(d, yd_get(d, yd_root(d), "env"), "NEURON_CC_FLAGS"), NULL);
	return plan_cc_flags_agree(p, v) ? v : NULL;
}

/* path_prepend: each variable's directories, joined, before its old
 * value; ${NAME:+:${NAME}} adds the colon only when there is one (and
 * keeps `set -u` quiet for an unset variable). */
static struct tv *path_prepend_list(const struct spec *spec)
{
	struct tv *l = tv_list_new();
	const yamldoc *d = spec->doc;
	yd_node pp = yd_get(d, yd_root(d), "path_prepend");
	for (size_t i = 0; yd_kind(d, pp) == YD_MAPPING && i < yd_len(d, pp); i++) {
		const char *name = yd_str(d, yd_key(d, pp, i), NULL);
		yd_node dirs = yd_value(d, pp, i);
		struct buf joined = BUF_INIT, old = BUF_INIT;
		for (size_t k = 0; yd_kind(d, dirs) == YD_SEQUENCE && k < yd_len(d, dirs); k++)
			buf_printf(&joined, "%s%s", k ? ":" : "", yd_str(d, yd_item(d, dirs, k), NULL));
		buf_printf(&old, "\"${%s:+:${%s}}\"", name, name);
		struct tv *e = tv_map_new();
		tv_map_set(e, "name", tv_str(name));
		tv_map_set(e, "dirs", tv_str(joined.p ? joined.p : ""));
		tv_map_set(e, "old", tv_str(old.p));
		tv_list_push(l, e);
		buf_free(&joined);
		buf_free(&old);
	}
	return l;
}

static const char *const capacity_types[] = {
	[CAP_ONDEMAND] = "ONDEMAND", [CAP_SPOT] = "SPOT",
	[CAP_CAPACITY_BLOCK] = "CAPACITY_BLOCK", [CAP_RESERVATION] = "ONDEMAND",
};
static const char *const storage_types[] = {
	[ST_FSX_LUSTRE] = "FsxLustre", [ST_EFS] = "Efs", [ST_EBS] = "Ebs",
};

/* One S3Access entry; key restricts it to a prefix (NULL: the bucket). */
static void bucket(struct tv *list, const char *name, size_t len, const char *key, bool write)
{
	struct tv *b = tv_map_new();
	tv_map_set(b, "name", tv_strn(name, len));
	tv_map_set(b, "key", key ? tv_str(key) : tv_null());
	set_str(b, "write", write ? "true" : "false");
	tv_list_push(list, b);
}

/* Read access to the place gen's scripts are fetched from: the bootstrap
 * prefix (or the watcher's own s3:// URL), apart from the buckets the
 * job writes to, so that no job can replace what the nodes run as root
 * (JS5015 refuses a writable one). */
static void script_access(struct tv *list, const char *url)
{
	if (!url || strncmp(url, "s3://", 5))
		return;
	const char *b = url + 5;
	size_t blen = strcspn(b, "/");
	struct buf key = BUF_INIT;
	if (b[blen] == '/')
		buf_printf(&key, "%s/*", b + blen + 1);
	for (size_t i = 0; i < tv_len(list); i++) { /* once per place */
		const struct tv *e = tv_item(list, i);
		size_t n;
		const char *name = tv_str_get(tv_map_get(e, "name", 4), &n);
		const char *k = tv_str_get(tv_map_get(e, "key", 3), NULL);
		if (n == blen && !memcmp(name, b, blen) && ((!k && !key.p) || (k && key.p && !strcmp(k, key.p)))) {
			buf_free(&key);
			return;
		}
	}
	bucket(list, b, blen, key.p, false);
	buf_free(&key);
}

/* The directory part of an s3:// script URL, as gen's bootstrap place. */
static void dir_access(struct tv *list, const char *url)
{
	const char *slash = url ? strrchr(url, '/') : NULL;
	if (!slash || slash < url + 5)
		return;
	struct buf dir = BUF_INIT;
	buf_printf(&dir, "%.*s", (int)(slash - url), url);
	script_access(list, dir.p);
	buf_free(&dir);
}

static struct tv *script_entry(const char *url, const struct spec_watcher *w)
{
	struct tv *m = tv_map_new();
	set_str(m, "url", url);
	struct tv *args = tv_list_new();
	if (w) {
		char n[16];
		snprintf(n, sizeof n, "%d", w->poll_seconds);
		tv_list_push(args, tv_str("--endpoint"));
		tv_list_push(args, tv_str(w->imds_endpoint));
		tv_list_push(args, tv_str("--interval"));
		tv_list_push(args, tv_str(n));
	}
	tv_map_set(m, "has_args", tv_bool(w != NULL));
	tv_map_set(m, "args", args);
	return m;
}

/* OnNodeConfigured: Neuron's install script and, on a spot queue, the
 * watcher; one Script, or a Sequence of both. */
static struct tv *on_configured(const struct plan *p, bool spot_of_mixed)
{
	struct tv *entries[2];
	size_t n = 0;
	struct buf url = BUF_INIT;
	if (plan_neuron_install(p, &url))
		entries[n++] = script_entry(url.p, NULL);
	buf_free(&url);
	if (spot_of_mixed) {
		const struct spec_watcher *w = p->job->capacity->watcher;
		entries[n++] = script_entry(w->script_url, w);
	}
	if (!n)
		return tv_null();
	struct tv *ev = tv_map_new();
	if (n == 1) {
		tv_map_set(ev, "single", entries[0]);
		tv_map_set(ev, "sequence", tv_null());
		return ev;
	}
	struct tv *seq = tv_map_new(), *scripts = tv_list_new();
	for (size_t i = 0; i < n; i++)
		tv_list_push(scripts, entries[i]);
	tv_map_set(seq, "scripts", scripts);
	tv_map_set(ev, "single", tv_null());
	tv_map_set(ev, "sequence", seq);
	return ev;
}

/* Where the cluster fetches one of gen's scripts, or NULL (none). */
static char *script_url(const struct plan *p, enum plan_script which)
{
	struct buf name = BUF_INIT, url = BUF_INIT;
	bool have = plan_script_name(p, which, &name) && plan_bootstrap_url(p, name.p, &url);
	buf_free(&name);
	if (!have) {
		buf_free(&url);
		return NULL;
	}
	return buf_detach(&url);
}

/* One queue of the cluster config. A mixed fleet has two: the reserved
 * nodes as the spec buys them, and the spot nodes with their allocation
 * strategy and the watcher. */
static struct tv *queue_map(const struct plan *p, enum capacity cap, int nodes, bool spot_of_mixed)
{
	const struct job_spec *j = p->job;
	const struct spec_capacity *c = j->capacity;
	struct tv *q = tv_map_new();
	struct buf name = BUF_INIT;
	plan_queue_name(p, spot_of_mixed, &name);
	set_str(q, "queue", name.p);
	buf_free(&name);
	set_str(q, "capacity_type", capacity_types[cap]);
	set_str(q, "reservation_id", cap == CAP_SPOT ? NULL : c->reservation_id);
	set_str(q, "spot_strategy", spot_of_mixed ? spot_strategy_name(c->spot_strategy) : NULL);
	set_str(q, "queue_ami", p->neuron ? j->cluster->ami : NULL);
	if (p->cl.root_volume_gib)
		set_int(q, "root_volume", p->cl.root_volume_gib);
	else
		tv_map_set(q, "root_volume", tv_null());
	char cr[64];
	plan_compute_resource(p, cr, sizeof cr);
	set_str(q, "compute_resource", cr);
	set_str(q, "instance", j->instance);
	/* a reservation's nodes are static: what is reserved is held */
	bool stat = cap != CAP_SPOT && p->cl.static_reserved;
	tv_map_set(q, "static", tv_bool(stat));
	set_int(q, "min_count", stat ? nodes : 0);
	set_int(q, "max_count", nodes);
	tv_map_set(q, "efa", tv_bool(p->it->efa == TRI_YES));
	/* Capacity blocks are placed by AWS; a reservation brings its own group. */
	tv_map_set(q, "placement_group", tv_bool(p->it->efa == TRI_YES && cap != CAP_CAPACITY_BLOCK));
	set_str(q, "placement_group_name", c->placement_group);
	struct buf url = BUF_INIT;
	bool install = plan_neuron_install(p, &url);
	char *pyxis = script_url(p, SCRIPT_PYXIS_COMPUTE);
	struct tv *configured = on_configured(p, spot_of_mixed);
	bool any = pyxis || tv_kind(configured) != TV_NULL;
	struct tv *actions = any ? tv_map_new() : tv_null();
	if (any) {
		tv_map_set(actions, "neuron_install", tv_bool(install));
		tv_map_set(actions, "watcher", tv_bool(spot_of_mixed));
		tv_map_set(actions, "on_start", pyxis ? tv_str(pyxis) : tv_null());
		tv_map_set(actions, "on_configured", configured);
	} else {
		tv_free(configured);
	}
	tv_map_set(q, "actions", actions);
	/* S3 access: the spec's buckets with write access, read access to
	 * Neuron's script and to gen's scripts */
	struct tv *buckets = tv_list_new();
	for (unsigned i = 0; i < j->s3_buckets_count; i++)
		bucket(buckets, j->s3_buckets[i], strlen(j->s3_buckets[i]), NULL, true);
	if (install)
		bucket(buckets, NEURON_SCRIPT_BUCKET, strlen(NEURON_SCRIPT_BUCKET), NULL, false);
	if (pyxis)
		dir_access(buckets, pyxis);
	if (spot_of_mixed)
		dir_access(buckets, c->watcher->script_url);
	tv_map_set(q, "queue_s3", tv_bool(tv_len(buckets) > 0));
	tv_map_set(q, "buckets", buckets);
	free(pyxis);
	buf_free(&url);
	return q;
}

static struct tv *queue_list(const struct plan *p)
{
	const struct job_spec *j = p->job;
	struct tv *l = tv_list_new();
	if (!p->fleet.mixed) {
		tv_list_push(l, queue_map(p, j->capacity->type, p->nodes, false));
		return l;
	}
	tv_list_push(l, queue_map(p, j->capacity->type, p->fleet.reserved, false));
	tv_list_push(l, queue_map(p, CAP_SPOT, p->fleet.spot, true));
	return l;
}

/* What the cluster config's comment says the storage keeps. */
static const char *keeps(enum deletion_policy d)
{
	switch (d) {
	case DP_RETAIN: return "Kept when the cluster is deleted: checkpoints, logs and compiled graphs stay.";
	case DP_SNAPSHOT: return "A snapshot is kept when the cluster is deleted: the data stays.";
	case DP_DELETE: return "Deleted with the cluster, and everything on it (storage.deletion_policy).";
	case DP_DEFAULT: break;
	}
	return NULL;
}

static void head_keys(struct tv *c, const struct plan *p)
{
	const struct job_spec *j = p->job;
	char *pyxis = script_url(p, SCRIPT_PYXIS_HEAD);
	set_str(c, "head_script", pyxis);
	struct tv *buckets = tv_list_new();
	for (unsigned i = 0; i < j->s3_buckets_count; i++)
		bucket(buckets, j->s3_buckets[i], strlen(j->s3_buckets[i]), NULL, true);
	if (pyxis)
		dir_access(buckets, pyxis);
	tv_map_set(c, "head_iam", tv_bool(tv_len(buckets) > 0));
	tv_map_set(c, "head_buckets", buckets);
	free(pyxis);
}

static void cluster_keys(struct tv *c, const struct plan *p)
{
	const struct job_spec *j = p->job;
	const struct spec_cluster *cl = j->cluster;
	set_str(c, "region", cl->region);
	set_str(c, "os", p->os);
	/* on Neuron, the compute queues' AMI alone (queue_map) */
	set_str(c, "ami_all", p->neuron ? NULL : cl->ami);
	set_str(c, "head_node", cl->head_node);
	set_str(c, "head_subnet", cl->head_subnet);
	set_str(c, "subnet", cl->subnet);
	set_str(c, "ssh_key", cl->ssh_key);
	head_keys(c, p);
	tv_map_set(c, "queues", queue_list(p));
	tv_map_set(c, "efa", tv_bool(p->it->efa == TRI_YES));
	tv_map_set(c, "efa_device_rdma", tv_bool(p->it->efa_device_rdma == TRI_YES));
	const struct spec_storage *st = j->storage;
	set_str(c, "storage_type", storage_types[st->type]);
	tv_map_set(c, "fsx", tv_bool(st->type == ST_FSX_LUSTRE));
	tv_map_set(c, "efs", tv_bool(st->type == ST_EFS));
	tv_map_set(c, "ebs", tv_bool(st->type == ST_EBS));
	set_str(c, "mount", st->mount);
	set_int(c, "size_gib", st->size_gib);
	set_str(c, "storage_id", st->id);
	set_str(c, "deletion_policy", p->cl.deletion != DP_DEFAULT ? deletion_policy_name(p->cl.deletion) : NULL);
	set_str(c, "keeps", keeps(p->cl.deletion));
}

/* The batch script's view of a mixed fleet: the reserved nodes are the
 * job; the spot nodes come in units, each a job of its own that holds
 * its nodes; the job trains in rounds at the sizes the layout and the
 * batch allow (docs/jobspec.md, "Mixed fleet"). */
static struct tv *fleet_map(const struct plan *p)
{
	const struct plan_fleet *f = &p->fleet;
	const struct plan_survival *s = &p->survival;
	const struct fw_checkpoint *ck = s->ckpt;
	const char *queue = p->job->cluster->queue;
	struct tv *m = tv_map_new();
	struct buf q = BUF_INIT;
	buf_printf(&q, "%s-reserved", queue);
	set_str(m, "reserved_queue", q.p);
	buf_reset(&q);
	buf_printf(&q, "%s-spot", queue);
	set_str(m, "spot_queue", q.p);
	buf_free(&q);
	set_int(m, "reserved_nodes", f->reserved);
	set_int(m, "spot_nodes", f->spot);
	set_int(m, "max_nodes", f->reserved + f->spot);
	set_int(m, "max_restarts", f->max_restarts);
	set_int(m, "unit", f->unit);
	set_int(m, "units", f->units);
	tv_map_set(m, "one_unit", tv_bool(f->units == 1));
	/* The sizes it trains at, with their DP: the job trains at one of
	 * them or stops. */
	int nodes[4097], dp[4097];
	int n = plan_trainable_sizes(p, nodes, dp, 4097);
	struct tv *l = tv_list_new();
	for (int i = 0; i < n; i++) {
		struct tv *e = tv_map_new();
		set_int(e, "n", nodes[i]);
		set_int(e, "dp", dp[i]);
		tv_list_push(l, e);
	}
	tv_map_set(m, "sizes", l);
	set_str(m, "signal", s->signal_save ? ck->signal_written : NULL);
	tv_map_set(m, "notice_saves", tv_bool(s->notice_saves));
	/* A save is waited for when no signal asks for one, and for the
	 * size a checkpoint was saved at. */
	const char *marker = ck && (!s->signal_save || ck->resize_flag) ? ck->saved_marker : NULL;
	set_str(m, "saved_marker", marker);
	int depth = 1;
	for (const char *c = marker; c && *c; c++)
		depth += *c == '/';
	set_int(m, "saved_marker_depth", depth);
	set_str(m, "resize_flag", ck ? ck->resize_flag : NULL);
	set_str(m, "resize_value", ck ? ck->resize_value : NULL);
	return m;
}

/* software.python and software.container: the batch script activates
 * the virtualenv, or every srun runs torchrun in the image with the
 * shared mount (and the spec's mounts). */
static void software_keys(struct tv *c, const struct plan *p)
{
	const struct spec_software *sw = p->job->software;
	set_str(c, "venv", sw && sw->python ? sw->python->venv : NULL);
	if (!sw || !sw->container) {
		tv_map_set(c, "container", tv_null());
		return;
	}
	struct buf m = BUF_INIT;
	const char *mount = p->job->storage->mount;
	buf_printf(&m, "%s:%s", mount, mount);
	for (unsigned i = 0; i < sw->container->mounts_count; i++)
		buf_printf(&m, ",%s", sw->container->mounts[i]);
	struct tv *k = tv_map_new();
	set_str(k, "image", sw->container->image);
	set_str(k, "mounts", m.p);
	tv_map_set(c, "container", k);
	buf_free(&m);
}

static void batch_keys(struct tv *c, const struct plan *p, const struct spec *spec)
{
	const struct job_spec *j = p->job;
	set_int(c, "nodes", p->nodes);
	set_int(c, "ppn", p->ppn);
	set_str(c, "queue", j->cluster->queue);
	tv_map_set(c, "fleet", p->fleet.mixed ? fleet_map(p) : tv_null());
	set_str(c, "time_limit", j->time_limit);
	set_str(c, "logs", j->paths->logs);
	set_str(c, "checkpoints", j->paths->checkpoints);
	struct buf comment = BUF_INIT;
	set_str(c, "checkpoint_comment", checkpoint_comment(p, &comment));
	buf_free(&comment);
	set_str(c, "compile_cache", j->paths->compile_cache);
	tv_map_set(c, "cache_dir", tv_bool(strncmp(j->paths->compile_cache, "s3://", 5) != 0));
	tv_map_set(c, "precompile", tv_bool(p->neuron && j->training->precompile));
	tv_map_set(c, "neuron", tv_bool(p->neuron));
	tv_map_set(c, "gpu", tv_bool(p->gpu));
	if (catalog_has_lnc(p->it))
		set_int(c, "lnc", p->lnc);
	else
		tv_map_set(c, "lnc", tv_null());
	tv_map_set(c, "cuda_max_connections", tv_bool(plan_cuda_max_connections(p)));
	/* a user NEURON_CC_FLAGS with the same LNC replaces the generated one */
	tv_map_set(c, "lnc_cc_flags", tv_bool(!user_cc_flags(p, spec)));
	set_int(c, "rdzv_port", 29500);
	set_str(c, "script", j->entry->script);
	tv_map_set(c, "args", string_list(j->entry->args, j->entry->args_count));
	tv_map_set(c, "parallel_flags", parallel_flags(p));
	tv_map_set(c, "env", env_list(p, spec));
	tv_map_set(c, "path_prepend", path_prepend_list(spec));
	software_keys(c, p);
}

/* software.neuron_image: the build-image config's values. */
static void image_keys(struct tv *c, const struct plan *p)
{
	const struct job_spec *j = p->job;
	const struct spec_neuron_image *im = j->software ? j->software->neuron_image : NULL;
	if (!p->cl.image || !im) {
		tv_map_set(c, "image", tv_null());
		return;
	}
	struct tv *m = tv_map_new();
	struct buf id = BUF_INIT;
	plan_image_id(p, &id);
	set_str(m, "image_name", id.p);
	buf_free(&id);
	set_str(m, "parent", im->parent);
	set_str(m, "neuron", j->software->neuron);
	const char *os = neuron_dlami_os(p->os);
	set_str(m, "os_name", os ? os : p->os);
	set_str(m, "build_instance", im->instance ? im->instance : j->cluster->head_node);
	tv_map_set(c, "image", m);
}

struct tv *context_build(const struct plan *p, const struct spec *spec,
			 const char *spec_path)
{
	struct tv *c = tv_map_new();
	set_str(c, "name", p->job->name);
	/* the file name only: the output must not depend on where gen ran */
	const char *slash = strrchr(spec_path, '/');
	set_str(c, "spec_path", slash ? slash + 1 : spec_path);
	cluster_keys(c, p);
	image_keys(c, p);
	batch_keys(c, p, spec);
	if (p->fleet.mixed) { /* the spot watcher's defaults */
		const struct spec_watcher *w = p->job->capacity->watcher;
		const struct plan_survival *s = &p->survival;
		set_str(c, "endpoint", w->imds_endpoint);
		set_int(c, "interval", w->poll_seconds);
		/* the signal only when a save fits in the notice */
		set_str(c, "save_signal", s->notice_saves ? s->ckpt->signal_written + 3 : NULL);
		set_int(c, "notice", (long long)interrupt_fact(INT_SPOT_NOTICE)->value);
		set_int(c, "stop_after", (long long)(interrupt_fact(INT_SPOT_NOTICE)->value -
						     interrupt_fact(INT_NOTICE_MARGIN)->value));
	}
	return c;
}
