#include "plan.h"

#include <string.h>

#include "regions.h"

/* ---- the instance (JS1xxx) --------------------------------------------- */

/* The compute type must be in the catalog, since everything is derived
 * from it; the head node's need only be a name EC2 could have. */
/* JS1001 spec-unknown-instance */
static bool spec_unknown_instance(const struct spec *spec, struct diag_list *diags,
				  const char *key, const char *type)
{
	if (!strcmp(key, "instance")) {
		if (catalog_find(type, strlen(type)))
			return true;
		struct diag *d = spec_report(spec, diags, R_JS1001, key,
			"%s is not in the instance catalog; its accelerators, EFA and cost are unknown",
			type);
		char near[64];
		catalog_check_name(type, strlen(type), near, sizeof near);
		if (near[0])
			diag_set_help(d, "did you mean '%s'? (`trainforge instances` lists the catalog)", near);
		else
			diag_set_help(d, "choose a type the catalog describes (`trainforge instances` lists them), e.g. trn2.48xlarge or p5.48xlarge");
		return false;
	}
	char suggestion[64];
	if (catalog_check_name(type, strlen(type), suggestion, sizeof suggestion) != CATALOG_INVALID)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS1001, key, "%s cannot be an EC2 instance type", type);
	if (suggestion[0])
		diag_set_help(d, "did you mean %s?", suggestion);
	return false;
}

/* JS1002 spec-single-node-instance */
static bool spec_single_node_instance(const struct plan *p, const struct spec *spec,
				      struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	if (p->nodes <= 1 || p->it->efa == TRI_YES)
		return true;
	/* A type whose EFA the catalog does not know gets no EFA settings in
	 * the generated files, so they would start nodes that cannot talk. */
	spec_report(spec, diags, R_JS1002, j->nodes ? "nodes" : "parallel.data",
		    p->it->efa == TRI_NO ? "%d nodes of %s, which has no EFA: multi-node training needs it"
					 : "%d nodes of %s, whose EFA support the catalog does not know: multi-node training needs EFA",
		    p->nodes, j->instance);
	return false;
}

/* JS1003 spec-lnc-not-supported */
static bool spec_lnc_not_supported(const struct plan *p, const struct spec *spec,
				   struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	if (!j->lnc || catalog_lnc_valid(p->it, j->lnc))
		return true;
	spec_report(spec, diags, R_JS1003, "lnc", "LNC %d is not available on %s", j->lnc, j->instance);
	return false;
}

/* JS1004 spec-unsupported-region */
static bool spec_unsupported_region(const struct spec *spec, struct diag_list *diags)
{
	const char *region = spec->job->cluster->region;
	if (region_supported(region))
		return true;
	const char *near = region_nearest(region);
	struct diag *d = spec_report(spec, diags, R_JS1004, "cluster.region",
				     "region %s is not one ParallelCluster supports", region);
	if (near)
		diag_set_help(d, "did you mean %s?", near);
	return false;
}

/* One note; the plan's text says which figures are derived. */
/* JS1005 spec-provisional-instance */
static void spec_provisional_instance(const struct plan *p, const struct spec *spec,
				      struct diag_list *diags)
{
	if (!p->it->provisional)
		return;
	struct diag *d = spec_report(spec, diags, R_JS1005, "instance",
		"%s is provisional in the catalog, its name and per-instance figures not yet confirmed by EC2: %s",
		p->it->name, p->it->provisional);
	diag_set_help(d, "`trainforge plan` marks which figures are derived; check them when AWS publishes the type");
}

/* Processes per node are cores / LNC, and without a stated default
 * there is nothing to divide by. */
/* JS1006 spec-lnc-required */
static bool spec_lnc_required(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	if (spec->job->lnc || !catalog_has_lnc(p->it) || p->it->lnc_default > 0)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS1006, "instance",
		"no source states the default Logical NeuronCore config of %s, so its processes per node are unknown",
		p->it->name);
	diag_set_help(d, "set lnc: 2 (two physical NeuronCores per process, as on Trainium2) or lnc: 1");
	return false;
}

/* JS2008 processes-exceed-accelerators */
static bool processes_exceed_accelerators(const struct plan *p, const struct spec *spec,
					  struct diag_list *diags, int cores)
{
	const struct job_spec *j = spec->job;
	if (cores <= 0 || p->ppn <= cores)
		return true;
	spec_report(spec, diags, R_JS2008, "processes_per_node",
		    "%d processes per node, but %s has %d %s%s", p->ppn, j->instance, cores,
		    p->neuron ? "logical NeuronCores" : "GPUs", p->neuron ? " at this LNC" : "");
	return false;
}

/* The checks that need only the instance: facts, LNC, processes, nodes. */
static bool derive_placement(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	if (!spec_unknown_instance(spec, diags, "instance", j->instance))
		return false;
	p->it = catalog_find(j->instance, strlen(j->instance));
	p->neuron = catalog_is_neuron(p->it);
	p->gpu = p->it->accel == ACCEL_NVIDIA_GPU;
	spec_provisional_instance(p, spec, diags);
	bool ok = spec_unsupported_region(spec, diags);
	ok &= spec_unknown_instance(spec, diags, "cluster.head_node", j->cluster->head_node);
	ok &= spec_lnc_not_supported(p, spec, diags);
	if (!spec_lnc_required(p, spec, diags))
		return false;
	p->lnc = p->neuron ? (j->lnc ? j->lnc : p->it->lnc_default) : 0;
	int cores = catalog_procs_per_node(p->it, j->lnc);
	p->ppn = j->processes_per_node ? j->processes_per_node : (cores > 0 ? cores : 1);
	ok &= processes_exceed_accelerators(p, spec, diags, cores);
	return ok;
}

/* ---- the layout (JS20xx) ------------------------------------------------
 * The invariants are core/facts' (docs/frameworks.md, "Layout
 * invariants"); the wording, and the spec line each points at, are the
 * plan's. */

void plan_world_at(const struct plan *p, int nodes, struct plan_world *w)
{
	const struct job_spec *j = p->job;
	const struct spec_model *m = j->model;
	w->nodes = nodes;
	w->layout = (struct layout){
		.fw = j->framework, .world = layout_world_of(nodes, p->ppn),
		.tp = p->tp, .pp = p->pp, .vpp = p->vpp, .cp = p->cp, .ep = p->ep,
		.dp = j->parallel->data, .micro = p->micro, .global = p->global,
		.layers = m->layers, .experts = m->experts, .heads = m->attention_heads,
		.groups = m->query_groups, .seq = m->seq_length,
	};
	layout_faults_find(&w->layout, &w->faults);
	w->dp = (int)layout_dp(&w->layout);
}

/* What keeps a world from training at all, in the order a mixed fleet
 * reports it: the layout, the expert grid, the batch. */
enum layout_fault plan_world_stop(const struct plan_world *w)
{
	static const enum layout_fault stops[] = { LAYOUT_WORLD, LAYOUT_EXPERT_GRID, LAYOUT_BATCH };
	const struct layout_finding *f =
		layout_faults_first(&w->faults, stops, sizeof stops / sizeof stops[0]);
	return f ? f->fault : LAYOUT_OK;
}

/* Which world a finding is of, for its wording and position: the plan's
 * own (at the layout), the one parallel.data asks for when the spec
 * gives no node count, or a mixed fleet's smallest (at capacity.reserved,
 * whose node count is the fix). */
enum world_end { END_OWN, END_FROM_DP, END_SMALLEST };

struct world_report {
	const struct plan *p;
	const struct spec *spec;
	struct diag_list *diags;
	const struct plan_world *w;
	enum world_end end;
};

/* JS2001 world-not-divisible */
static void world_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	const struct plan *p = r->p;
	struct diag *d;
	switch (r->end) {
	case END_FROM_DP:
		spec_report(r->spec, r->diags, R_JS2001, "parallel.data",
			    "TP %d x PP %d x CP %d x DP %d = %lld processes is not a whole number of nodes of %d processes",
			    p->tp, p->pp, p->cp, p->job->parallel->data, f->value, p->ppn);
		break;
	case END_OWN:
		d = spec_report(r->spec, r->diags, R_JS2001, "parallel",
			"TP %d x PP %d x CP %d = %lld does not divide the world size %lld (%d nodes x %d processes)",
			p->tp, p->pp, p->cp, f->divisor, f->value, r->w->nodes, p->ppn);
		diag_set_help(d, "change the node count or the layout so that %lld divides nodes x processes per node",
			      f->divisor);
		break;
	case END_SMALLEST:
		d = spec_report(r->spec, r->diags, R_JS2001, "capacity.reserved",
			"at the smallest fleet (%d reserved nodes x %d processes = %lld), TP %d x PP %d x CP %d = %lld does not divide the world",
			r->w->nodes, p->ppn, f->value, p->tp, p->pp, p->cp, f->divisor);
		diag_set_help(d, "choose a reserved node count whose world %lld divides", f->divisor);
		break;
	}
}

/* JS2002 data-parallel-mismatch */
static void data_parallel_mismatch(const struct world_report *r, const struct layout_finding *f)
{
	const struct plan *p = r->p;
	spec_report(r->spec, r->diags, R_JS2002, "parallel.data",
		    "data-parallel size %lld differs from the derived %lld (world %lld / (TP %d x PP %d x CP %d))",
		    f->value, f->divisor, r->w->layout.world, p->tp, p->pp, p->cp);
}

static long long gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b, b = t;
	}
	return a;
}

/* JS2003 global-batch-not-divisible */
static void global_batch_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	const struct plan *p = r->p;
	if (r->end != END_SMALLEST) {
		spec_report(r->spec, r->diags, R_JS2003, "batch.global",
			    "global batch %lld is not a multiple of micro batch %d x DP %d = %lld",
			    f->value, p->micro, r->w->dp, f->divisor);
		return;
	}
	/* A batch that divides at both ends divides at the fleet's and
	 * the smallest's micro x DP. */
	long long full = (long long)p->micro * p->dp;
	struct diag *d = spec_report(r->spec, r->diags, R_JS2003, "batch.global",
		"at the smallest fleet (%d reserved nodes, DP %d), global batch %lld is not a multiple of micro %d x DP %d = %lld",
		r->w->nodes, r->w->dp, f->value, p->micro, r->w->dp, f->divisor);
	diag_set_help(d, "a global batch that divides at both ends is a multiple of %lld",
		      full / gcd(full, f->divisor) * f->divisor);
}

/* Megatron's even split into the stages, and of a stage into its
 * virtual stages. */
/* JS2004 layers-not-divisible */
static void layers_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	if (f->fault == LAYOUT_LAYERS_PP)
		spec_report(r->spec, r->diags, R_JS2004, "model.layers",
			    "%lld layers do not split evenly into %lld pipeline stages", f->value, f->divisor);
	else
		spec_report(r->spec, r->diags, R_JS2004, "model.layers",
			    "%lld layers per stage do not split into %lld virtual stages", f->value, f->divisor);
}

/* JS2005 virtual-stages-invalid */
static void virtual_stages_invalid(const struct world_report *r, const struct layout_finding *f)
{
	if (f->fault == LAYOUT_VPP_STAGES)
		spec_report(r->spec, r->diags, R_JS2005, "parallel.virtual_stages",
			    "virtual pipeline stages need a pipeline of more than one stage");
	else
		spec_report(r->spec, r->diags, R_JS2005, "parallel.virtual_stages",
			    "the %s framework has no interleaved pipeline schedule",
			    fw_name(r->p->job->framework));
}

/* JS2006 experts-not-divisible */
static void experts_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	if (f->fault == LAYOUT_EP_NO_EXPERTS)
		spec_report(r->spec, r->diags, R_JS2006, "parallel.expert",
			    "expert parallelism %lld without model.experts", f->divisor);
	else
		spec_report(r->spec, r->diags, R_JS2006, "model.experts",
			    "%lld experts do not divide among %lld expert-parallel ranks", f->value, f->divisor);
}

/* JS2007 heads-not-divisible */
static void heads_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	if (f->fault == LAYOUT_HEADS_TP)
		spec_report(r->spec, r->diags, R_JS2007, "model.attention_heads",
			    "%lld attention heads do not divide among %lld tensor-parallel ranks",
			    f->value, f->divisor);
	else
		spec_report(r->spec, r->diags, R_JS2007, "model.query_groups",
			    "%lld query groups and TP %lld: one must divide the other", f->value, f->divisor);
}

/* Megatron's and NxD's grid of EP x PP x TP, or torchtitan's EP inside
 * DP x CP x TP. */
/* JS2009 expert-grid-not-divisible */
static void expert_grid_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	const struct plan *p = r->p;
	if (r->end == END_SMALLEST)
		spec_report(r->spec, r->diags, R_JS2009, "capacity.reserved",
			    "at the smallest fleet (%d nodes), EP %d x PP %d x TP %d does not divide the world %lld",
			    r->w->nodes, p->ep, p->pp, p->tp, f->value);
	else if (f->fault == LAYOUT_EXPERT_GRID)
		spec_report(r->spec, r->diags, R_JS2009, "parallel.expert",
			    "EP %d x PP %d x TP %d = %lld does not divide the world size %lld",
			    p->ep, p->pp, p->tp, f->divisor, f->value);
	else
		spec_report(r->spec, r->diags, R_JS2009, "parallel.expert",
			    "EP %d must divide DP x CP x TP = %lld for %s", p->ep, f->value,
			    fw_name(p->job->framework));
}

/* JS2010 sequence-not-divisible */
static void sequence_not_divisible(const struct world_report *r, const struct layout_finding *f)
{
	spec_report(r->spec, r->diags, R_JS2010, "model.seq_length",
		    "sequence length %lld is not divisible by 2 x CP = %lld", f->value, f->divisor);
}

/* The node count, when the spec gives none, from parallel.data. */
static bool derive_nodes(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	if (j->nodes) {
		p->nodes = j->nodes;
	} else {
		long long world = (long long)p->tp * p->pp * p->cp * j->parallel->data;
		if (world % p->ppn) {
			struct world_report r = { p, spec, diags, NULL, END_FROM_DP };
			world_not_divisible(&r, &(struct layout_finding){ LAYOUT_WORLD, world, p->ppn });
			return false;
		}
		p->nodes = (int)(world / p->ppn);
	}
	p->world = p->nodes * p->ppn;
	return spec_single_node_instance(p, spec, diags);
}

/* The plan's own world: a layout that leaves no DP, or a DP other than
 * the spec's, stops the plan there. */
static bool check_world(struct plan *p, const struct world_report *r)
{
	const struct layout_finding *f = layout_faults_get(&r->w->faults, LAYOUT_WORLD);
	if (f) {
		world_not_divisible(r, f);
		return false;
	}
	if ((f = layout_faults_get(&r->w->faults, LAYOUT_DP))) {
		data_parallel_mismatch(r, f);
		return false;
	}
	p->dp = r->w->dp;
	return true;
}

static bool check_batch(struct plan *p, const struct world_report *r)
{
	p->global = (int)layout_global(&r->w->layout);
	const struct layout_finding *f = layout_faults_get(&r->w->faults, LAYOUT_BATCH);
	if (f) {
		global_batch_not_divisible(r, f);
		return false;
	}
	p->micro_batches = (int)layout_micro_batches(&r->w->layout);
	return true;
}

/* Every other fault of the plan's world, each to its rule. */
static bool report_fault(const struct world_report *r, const struct layout_finding *f)
{
	switch (f->fault) {
	case LAYOUT_EXPERT_GRID: case LAYOUT_EXPERT_DP: expert_grid_not_divisible(r, f); return true;
	case LAYOUT_VPP_STAGES: case LAYOUT_VPP_SCHEDULE: virtual_stages_invalid(r, f); return true;
	case LAYOUT_LAYERS_PP: case LAYOUT_LAYERS_VPP: layers_not_divisible(r, f); return true;
	case LAYOUT_EP_NO_EXPERTS: case LAYOUT_EXPERTS_EP: experts_not_divisible(r, f); return true;
	case LAYOUT_HEADS_TP: case LAYOUT_GROUPS_TP: heads_not_divisible(r, f); return true;
	case LAYOUT_SEQ_CP: sequence_not_divisible(r, f); return true;
	case LAYOUT_OK: case LAYOUT_WORLD: case LAYOUT_DP: case LAYOUT_BATCH: case LAYOUT__COUNT:
		break;
	}
	return false;
}

/* JS2013 tokens-without-parameters */
static bool tokens_without_parameters(const struct spec *spec, struct diag_list *diags)
{
	const struct spec_model *m = spec->job->model;
	bool counted = fw_def(spec->job->framework)->count && m->layers && m->hidden_size && m->attention_heads;
	if (!(m->tokens > 0) || m->parameters > 0 || counted)
		return true;
	struct diag *d = spec_report(spec, diags, R_JS2013, "model.tokens",
		"model.tokens asks for the run's time and cost, but model.parameters is missing (and the shape that would count them)");
	diag_set_help(d, "add model.parameters (e.g. 7e9), or layers, hidden_size and attention_heads, or remove model.tokens");
	return false;
}

static bool check_model(const struct world_report *r)
{
	bool ok = tokens_without_parameters(r->spec, r->diags);
	for (int k = LAYOUT_OK + 1; k < LAYOUT__COUNT; k++) {
		const struct layout_finding *f = layout_faults_get(&r->w->faults, k);
		if (f && report_fault(r, f))
			ok = false;
	}
	return ok;
}

bool plan_check_smallest(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			 const struct plan_world *w)
{
	struct world_report r = { p, spec, diags, w, END_SMALLEST };
	enum layout_fault why = plan_world_stop(w);
	const struct layout_finding *f = layout_faults_get(&w->faults, why);
	if (why == LAYOUT_WORLD)
		world_not_divisible(&r, f);
	else if (why == LAYOUT_EXPERT_GRID)
		expert_grid_not_divisible(&r, f);
	else if (why == LAYOUT_BATCH)
		global_batch_not_divisible(&r, f);
	return why == LAYOUT_OK;
}

/* ---- storage (JS201x) --------------------------------------------------- */

/* JS2011 fsx-size-invalid */
static bool fsx_size_invalid(const struct spec *spec, struct diag_list *diags)
{
	const struct spec_storage *s = spec->job->storage;
	if (s->type != ST_FSX_LUSTRE || s->id || s->size_gib == 1200 || s->size_gib % 2400 == 0)
		return true;
	spec_report(spec, diags, R_JS2011, "storage.size_gib",
		    "FSx for Lustre size %d GiB: it must be 1200 or a multiple of 2400", s->size_gib);
	return false;
}

/* JS2012 compile-cache-not-shared */
static bool compile_cache_not_shared(const struct plan *p, const struct spec *spec,
				     struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	const char *cache = j->paths->compile_cache, *mount = j->storage->mount;
	size_t mlen = strlen(mount);
	bool shared = strncmp(cache, "s3://", 5) == 0 ||
		      (strncmp(cache, mount, mlen) == 0 && (cache[mlen] == '/' || !cache[mlen]));
	if (!p->neuron || shared)
		return true;
	spec_report(spec, diags, R_JS2012, "paths.compile_cache",
		    "compile cache %s is not under the shared mount %s: every node would compile again",
		    cache, mount);
	return false;
}

static void estimate(struct plan *p, const struct job_spec *j)
{
	int m = p->micro_batches;
	p->bubble = p->pp > 1 ? (double)(p->pp - 1) / ((double)p->vpp * m + p->pp - 1) : 0;
	p->grad_bytes = plan_grad_bytes(p);
	/* a price counts only in the region it is for */
	struct plan_price_inputs in;
	plan_price_inputs_of(j, &in);
	plan_rates(p->it, &in, p->rate);
	p->price_hour = p->rate[PRICE_ON_DEMAND].usd >= 0 ? p->rate[PRICE_ON_DEMAND].usd * p->nodes : -1;
	p->cb_hour = p->rate[PRICE_CAPACITY_BLOCK].usd >= 0 ? p->rate[PRICE_CAPACITY_BLOCK].usd * p->nodes : -1;
}

bool plan_derive(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	memset(p, 0, sizeof *p);
	p->job = j;
	p->fw_version = target_fw_version(&spec->target, j->framework);
	p->tp = j->parallel->tensor;
	p->pp = j->parallel->pipeline;
	p->vpp = j->parallel->virtual_stages;
	p->cp = j->parallel->context;
	p->ep = j->parallel->expert;
	p->micro = j->batch->micro;
	p->global = j->batch->global;
	if (!derive_placement(p, spec, diags) || !plan_fleet_nodes(p, spec, diags) ||
	    !derive_nodes(p, spec, diags))
		return false;
	struct plan_world own;
	plan_world_at(p, p->nodes, &own);
	struct world_report r = { p, spec, diags, &own, END_OWN };
	if (!check_world(p, &r))
		return false;
	bool ok = check_batch(p, &r);
	if (ok)
		ok = plan_fleet_check(p, spec, diags);
	ok &= check_model(&r);
	plan_model_derive(p);
	ok &= plan_model_check(p, spec, diags);
	ok &= plan_framework_check(p, spec, diags);
	if (ok)
		ok = plan_survival_derive(p, spec, diags);
	ok &= fsx_size_invalid(spec, diags);
	ok &= compile_cache_not_shared(p, spec, diags);
	ok &= plan_run_check(p, spec, diags);
	p->os = j->cluster->os ? j->cluster->os : p->neuron ? "ubuntu2204" : "alinux2023";
	ok &= plan_software_check(p, spec, diags);
	if (ok)
		estimate(p, j);
	p->derived = ok;
	/* the cluster around the job, and what cannot run on it: the spec's
	 * own, not a layout plan --compare tries; `plan` still shows the
	 * layout they refuse (p->derived) */
	if (!spec->compare) {
		bool cl = plan_boot_check(p, spec, diags);
		cl &= plan_container_check(p, spec, diags);
		cl &= plan_cluster_check(p, spec, diags);
		if (ok)
			cl &= plan_runnable_check(p, spec, diags);
		if (ok)
			cl &= plan_bill_check(p, spec, diags);
		ok &= cl;
	}
	return ok;
}
