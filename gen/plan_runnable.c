/* JS502x: what the plan knows cannot run, refused before anything is
 * written: a layout whose memory per rank the accelerator does not
 * have, a path every node needs that is on one node only, a precompile
 * step without the Neuron compiler (docs/jobspec.md, "What the plan
 * derives and checks"). */
#include "plan.h"

#include <string.h>

#include "buf.h"

#define GIB 1073741824.0

/* ---- memory ------------------------------------------------------------- */

/* The nearest change that fits, for the help: full recomputation, then
 * ZeRO stages above the spec's. */
static void fit_help(const struct plan *p, const struct plan_est *e, struct diag *d)
{
	int stage = p->job->training->zero_stage;
	if (e->act[RC_FULL] >= 0 && e->states[stage] + e->act[RC_FULL] <= e->capacity &&
	    plan_recompute(p) != RC_FULL) {
		diag_set_help(d, "training.recompute: full fits (%.1f GiB per rank), at 8 instead of 6 FLOPs per "
			      "parameter per token; or spread the model over more ranks (parallel.pipeline, "
			      "parallel.tensor) or nodes", (e->states[stage] + e->act[RC_FULL]) / GIB);
		return;
	}
	for (int s = stage + 1; s <= 3; s++)
		if (e->act_used >= 0 && e->states[s] + e->act_used <= e->capacity) {
			diag_set_help(d, "training.zero_stage: %d fits (%.1f GiB per rank), if the framework runs it; or "
				      "spread the model over more ranks or nodes", s, (e->states[s] + e->act_used) / GIB);
			return;
		}
	diag_set_help(d, "spread the model over more ranks (parallel.pipeline, parallel.tensor) or nodes; "
		      "`trainforge plan --compare` finds layouts that fit");
}

/* JS5020 layout-does-not-fit */
static bool layout_does_not_fit(const struct plan *p, const struct spec *spec, struct diag_list *diags,
				const struct plan_est *e)
{
	struct buf act = BUF_INIT;
	if (e->act_used >= 0)
		buf_printf(&act, " + activations %.1f (%s recomputation)", e->act_used / GIB,
			   recompute_name(plan_recompute(p)));
	/* at the layout, or at the model it does not fit, when the spec
	 * leaves the layout to its defaults */
	const char *at = yd_get(spec->doc, yd_root(spec->doc), "parallel") ? "parallel" : "model.parameters";
	struct diag *d = spec_report(spec, diags, R_JS5020, at,
		"this layout needs %s%.1f GiB per rank, and %s has %.1f: weights %.1f + gradients %.1f + "
		"optimizer %.1f at ZeRO %d%s",
		e->total >= 0 ? "" : "at least ", (e->total >= 0 ? e->total : e->states[p->job->training->zero_stage]) / GIB,
		p->it->name, e->capacity / GIB, e->weights / GIB, e->grads / GIB, e->optim / GIB,
		p->job->training->zero_stage, act.p ? act.p : "");
	fit_help(p, e, d);
	buf_free(&act);
	return false;
}

/* JS5021 layout-fit-unknown */
static void layout_fit_unknown(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			       const struct plan_est *e)
{
	const struct spec_model *m = p->job->model;
	struct buf why = BUF_INIT;
	if (e->capacity < 0)
		buf_puts(&why, "the catalog has no accelerator memory for it");
	else if (e->moe.from == MOE_UNSPLIT)
		buf_printf(&why, "the %.1f GiB per rank it counts are an upper bound (every parameter sharded as "
			   "a dense one: %s)", e->total / GIB, e->moe.why);
	else if (e->states[0] < 0)
		buf_puts(&why, "the parameters per rank are unknown");
	else
	{
		const char *missing[3];
		size_t n = 0;
		if (!m->seq_length)
			missing[n++] = "model.seq_length";
		if (!m->hidden_size)
			missing[n++] = "model.hidden_size";
		if (!m->layers)
			missing[n++] = "model.layers";
		buf_puts(&why, "its activations need ");
		for (size_t i = 0; i < n; i++)
			buf_printf(&why, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", missing[i]);
	}
	struct diag *d = spec_report(spec, diags, R_JS5021, "model.parameters",
		"whether this layout fits in %s's memory is unknown: %s", p->it->name, why.p);
	buf_free(&why);
	diag_set_help(d, "`trainforge plan -v` shows the memory per rank it could derive");
}

static bool check_memory(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct plan_est e;
	plan_estimate(p, p->it, 0, &e);
	/* an upper bound that does not fit says nothing: the fit is unknown */
	p->cl.fits = e.fits == 0 && e.moe.from == MOE_UNSPLIT ? -1 : e.fits;
	if (p->cl.fits == 0)
		return layout_does_not_fit(p, spec, diags, &e);
	if (p->cl.fits < 0 && p->job->model->parameters > 0 && (p->neuron || p->gpu))
		layout_fit_unknown(p, spec, diags, &e);
	return true;
}

/* ---- paths every node needs ------------------------------------------- */

/* Under dir (or dir itself). */
static bool under(const char *path, size_t len, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return len >= n && !memcmp(path, dir, n) && (len == n || path[n] == '/' || n == 1);
}

/* The mounts every node shares: the spec's storage, and /home, which the
 * head node exports to every node (ParallelCluster's cookbook,
 * docs/jobspec.md, "What the plan derives and checks"). */
static bool shared(const struct plan *p, const char *path, size_t len)
{
	return under(path, len, p->job->storage->mount) || under(path, len, "/home");
}

/* A path the container sees through one of the spec's mounts (its
 * destination, SRC:DST, or SRC itself). */
static bool container_mount(const struct plan *p, const char *path, size_t len)
{
	const struct spec_container *c = p->job->software ? p->job->software->container : NULL;
	for (unsigned i = 0; c && i < c->mounts_count; i++) {
		const char *m = c->mounts[i], *colon = strchr(m, ':');
		const char *dst = colon ? colon + 1 : m;
		size_t dlen = strcspn(dst, ":");
		char buf[512];
		if (dlen >= sizeof buf)
			continue;
		memcpy(buf, dst, dlen);
		buf[dlen] = '\0';
		if (under(path, len, buf))
			return true;
	}
	return false;
}

enum path_kind { PATH_RUN, PATH_OUTPUT };

/* JS5022 path-not-shared */
static bool path_not_shared(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			    yd_node at, const char *path, size_t len, enum path_kind kind)
{
	struct diag *d = spec_report_at(spec, diags, R_JS5022, at,
		"%.*s is not on the cluster's shared storage (%s, or /home): %s", (int)len, path,
		p->job->storage->mount,
		kind == PATH_OUTPUT ? "each node would write its own local copy, lost when the node goes"
				    : "it exists on no node of the generated cluster");
	diag_set_help(d, "put it under %s", p->job->storage->mount);
	return false;
}

/* JS5023 path-in-image */
static void path_in_image(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			  yd_node at, const char *path, size_t len)
{
	bool container = p->job->software && p->job->software->container;
	struct diag *d = spec_report_at(spec, diags, R_JS5023, at,
		"%.*s is not on the cluster's shared storage: it must be in the %s on every node",
		(int)len, path, container ? "container image" : "AMI (cluster.ami)");
	diag_set_help(d, "make sure the %s has it, or put it under %s",
		      container ? "image" : "AMI", p->job->storage->mount);
}

static bool check_path(const struct plan *p, const struct spec *spec, struct diag_list *diags,
		       yd_node at, const char *path, size_t len, enum path_kind kind)
{
	if (!len || path[0] != '/' || shared(p, path, len))
		return true;
	bool container = p->job->software && p->job->software->container;
	if (kind == PATH_RUN && container && container_mount(p, path, len))
		return true;
	if (kind == PATH_RUN && (container || p->job->cluster->ami)) {
		path_in_image(p, spec, diags, at, path, len);
		return true;
	}
	return path_not_shared(p, spec, diags, at, path, len, kind);
}

/* An argument's path: the word itself, or what follows --flag=. */
static bool check_arg(const struct plan *p, const struct spec *spec, struct diag_list *diags, yd_node at)
{
	size_t len;
	const char *s = yd_str(spec->doc, at, &len);
	if (!s)
		return true;
	const char *eq = s[0] == '-' ? memchr(s, '=', len) : NULL;
	if (eq) {
		len -= (size_t)(eq + 1 - s);
		s = eq + 1;
	}
	/* a path, not a word that happens to start with a slash */
	if (len < 2 || s[0] != '/' || s[1] == '/')
		return true;
	return check_path(p, spec, diags, at, s, len, PATH_RUN);
}

static bool check_node(const struct plan *p, const struct spec *spec, struct diag_list *diags,
		       const char *key, enum path_kind kind)
{
	yd_node at = spec_node(spec, key);
	size_t len;
	const char *s = yd_kind(spec->doc, at) == YD_SCALAR ? yd_str(spec->doc, at, &len) : NULL;
	return !s || check_path(p, spec, diags, at, s, len, kind);
}

static bool check_paths(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const yamldoc *d = spec->doc;
	bool ok = check_node(p, spec, diags, "entry.script", PATH_RUN);
	ok &= check_node(p, spec, diags, "software.python.venv", PATH_RUN);
	yd_node args = yd_get(d, spec_node(spec, "entry"), "args");
	for (size_t i = 0; yd_kind(d, args) == YD_SEQUENCE && i < yd_len(d, args); i++)
		ok &= check_arg(p, spec, diags, yd_item(d, args, i));
	yd_node pp = yd_get(d, yd_root(d), "path_prepend");
	for (size_t i = 0; yd_kind(d, pp) == YD_MAPPING && i < yd_len(d, pp); i++) {
		yd_node dirs = yd_value(d, pp, i);
		for (size_t k = 0; yd_kind(d, dirs) == YD_SEQUENCE && k < yd_len(d, dirs); k++)
			ok &= check_arg(p, spec, diags, yd_item(d, dirs, k));
	}
	yd_node paths = yd_get(d, yd_root(d), "paths");
	if (yd_get(d, paths, "checkpoints"))
		ok &= check_node(p, spec, diags, "paths.checkpoints", PATH_OUTPUT);
	if (yd_get(d, paths, "logs"))
		ok &= check_node(p, spec, diags, "paths.logs", PATH_OUTPUT);
	return ok;
}

/* JS5024 precompile-not-neuron */
static bool precompile_not_neuron(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	if (!p->job->training->precompile || p->neuron)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS5024, "training.precompile",
		"neuron_parallel_compile is the Neuron compiler's; %s has no Neuron device", p->it->name);
	diag_set_help(d, "remove training.precompile");
	return false;
}

bool plan_runnable_check(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	bool ok = check_memory(p, spec, diags);
	ok &= check_paths(p, spec, diags);
	ok &= precompile_not_neuron(p, spec, diags);
	return ok;
}
