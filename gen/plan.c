#include "plan.h"

#include <math.h>
#include <string.h>

#include "buf.h"
#include "regions.h"

/* The checks that need only the instance: facts, LNC, processes, nodes. */
static bool derive_placement(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	p->it = catalog_find(j->instance, strlen(j->instance));
	if (!p->it) {
		struct diag *d = spec_report(spec, diags, R_JS1001, "instance",
			"%s is not in the instance catalog; its accelerators, EFA and cost are unknown",
			j->instance);
		diag_set_help(d, "choose a type the catalog describes (`trainforge instances` lists them), e.g. trn2.48xlarge or p5.48xlarge");
		return false;
	}
	p->neuron = catalog_is_neuron(p->it);
	p->gpu = p->it->accel == ACCEL_NVIDIA_GPU;
	bool ok = true;
	if (!region_supported(j->cluster->region)) {
		const char *near = region_nearest(j->cluster->region);
		struct diag *d = spec_report(spec, diags, R_JS1004, "cluster.region",
					     "region %s is not one ParallelCluster supports", j->cluster->region);
		if (near)
			diag_set_help(d, "did you mean %s?", near);
		ok = false;
	}
	char suggestion[64];
	const char *head = j->cluster->head_node;
	if (catalog_check_name(head, strlen(head), suggestion, sizeof suggestion) == CATALOG_INVALID) {
		struct diag *d = spec_report(spec, diags, R_JS1001, "cluster.head_node",
					     "%s cannot be an EC2 instance type", head);
		if (suggestion[0])
			diag_set_help(d, "did you mean %s?", suggestion);
		ok = false;
	}
	if (j->lnc && !catalog_lnc_valid(p->it, j->lnc)) {
		spec_report(spec, diags, R_JS1003, "lnc", "LNC %d is not available on %s", j->lnc, j->instance);
		ok = false;
	}
	p->lnc = p->neuron ? (j->lnc ? j->lnc : p->it->lnc_default) : 0;
	int cores = catalog_procs_per_node(p->it, j->lnc);
	p->ppn = j->processes_per_node ? j->processes_per_node : (cores > 0 ? cores : 1);
	if (cores > 0 && p->ppn > cores) {
		spec_report(spec, diags, R_JS2008, "processes_per_node",
			    "%d processes per node, but %s has %d %s%s", p->ppn, j->instance, cores,
			    p->neuron ? "logical NeuronCores" : "GPUs",
			    p->neuron ? " at this LNC" : "");
		ok = false;
	}
	return ok;
}

static bool derive_nodes(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	int model = p->tp * p->pp * p->cp;
	if (j->nodes) {
		p->nodes = j->nodes;
	} else {
		long long world = (long long)model * j->parallel->data;
		if (world % p->ppn) {
			spec_report(spec, diags, R_JS2001, "parallel.data",
				    "TP %d x PP %d x CP %d x DP %d = %lld processes is not a whole number of nodes of %d processes",
				    p->tp, p->pp, p->cp, j->parallel->data, world, p->ppn);
			return false;
		}
		p->nodes = (int)(world / p->ppn);
	}
	p->world = p->nodes * p->ppn;
	if (p->nodes > 1 && p->it->efa == TRI_NO) {
		spec_report(spec, diags, R_JS1002, j->nodes ? "nodes" : "parallel.data",
			    "%d nodes of %s, which has no EFA: multi-node training needs it",
			    p->nodes, j->instance);
		return false;
	}
	if (p->world % model) {
		struct diag *d = spec_report(spec, diags, R_JS2001, "parallel",
			"TP %d x PP %d x CP %d = %d does not divide the world size %d (%d nodes x %d processes)",
			p->tp, p->pp, p->cp, model, p->world, p->nodes, p->ppn);
		diag_set_help(d, "change the node count or the layout so that %d divides nodes x processes per node", model);
		return false;
	}
	p->dp = p->world / model;
	if (j->parallel->data && j->parallel->data != p->dp) {
		spec_report(spec, diags, R_JS2002, "parallel.data",
			    "data-parallel size %d differs from the derived %d (world %d / (TP %d x PP %d x CP %d))",
			    j->parallel->data, p->dp, p->world, p->tp, p->pp, p->cp);
		return false;
	}
	return true;
}

static bool check_batch(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	p->micro = j->batch->micro;
	p->global = j->batch->global ? j->batch->global : p->micro * p->dp;
	if (p->global % (p->micro * p->dp)) {
		spec_report(spec, diags, R_JS2003, "batch.global",
			    "global batch %d is not a multiple of micro batch %d x DP %d = %d",
			    p->global, p->micro, p->dp, p->micro * p->dp);
		return false;
	}
	p->micro_batches = p->global / (p->micro * p->dp);
	return true;
}

/* Megatron's and NxD's divisibility rules that the spec's fields can
 * express (research (e): Megatron 3, 5, 6, 7, 9, 10; NxD's expert grid). */
static bool check_model(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	const struct spec_model *m = j->model;
	bool ok = true, megatron = j->framework == FW_MEGATRON;
	if (p->vpp > 1 && (p->pp <= 1 || j->framework == FW_TORCHTITAN || j->framework == FW_PLAIN)) {
		spec_report(spec, diags, R_JS2005, "parallel.virtual_stages",
			    p->pp <= 1 ? "virtual pipeline stages need a pipeline of more than one stage"
				       : "the %s framework has no interleaved pipeline schedule",
			    framework_name(j->framework));
		ok = false;
	}
	if (m->layers && p->pp > 1 && megatron && m->layers % p->pp) {
		spec_report(spec, diags, R_JS2004, "model.layers",
			    "%d layers do not split evenly into %d pipeline stages", m->layers, p->pp);
		ok = false;
	} else if (m->layers && p->vpp > 1 && megatron && (m->layers / p->pp) % p->vpp) {
		spec_report(spec, diags, R_JS2004, "model.layers",
			    "%d layers per stage do not split into %d virtual stages",
			    m->layers / p->pp, p->vpp);
		ok = false;
	}
	if (p->ep > 1 && (!m->experts || m->experts % p->ep)) {
		spec_report(spec, diags, R_JS2006, m->experts ? "model.experts" : "parallel.expert",
			    m->experts ? "%d experts do not divide among %d expert-parallel ranks"
				       : "expert parallelism %d without model.experts", m->experts ? m->experts : p->ep, p->ep);
		ok = false;
	}
	long long grid = j->framework == FW_TORCHTITAN ? 0 : (long long)p->ep * p->pp * p->tp;
	if (p->ep > 1 && grid && p->world % grid) {
		spec_report(spec, diags, R_JS2009, "parallel.expert",
			    "EP %d x PP %d x TP %d = %lld does not divide the world size %d",
			    p->ep, p->pp, p->tp, grid, p->world);
		ok = false;
	} else if (p->ep > 1 && !grid && ((long long)p->dp * p->cp * p->tp) % p->ep) {
		spec_report(spec, diags, R_JS2009, "parallel.expert",
			    "EP %d must divide DP x CP x TP = %d for torchtitan", p->ep, p->dp * p->cp * p->tp);
		ok = false;
	}
	if (m->attention_heads && m->attention_heads % p->tp) {
		spec_report(spec, diags, R_JS2007, "model.attention_heads",
			    "%d attention heads do not divide among %d tensor-parallel ranks",
			    m->attention_heads, p->tp);
		ok = false;
	}
	if (m->query_groups && m->query_groups % p->tp && p->tp % m->query_groups) {
		spec_report(spec, diags, R_JS2007, "model.query_groups",
			    "%d query groups and TP %d: one must divide the other", m->query_groups, p->tp);
		ok = false;
	}
	if (m->tokens > 0 && !(m->parameters > 0)) {
		struct diag *d = spec_report(spec, diags, R_JS2013, "model.tokens",
			"model.tokens asks for the run's time and cost, but model.parameters is missing");
		diag_set_help(d, "add model.parameters (e.g. 7e9), or remove model.tokens");
		ok = false;
	}
	if (p->cp > 1 && m->seq_length && m->seq_length % (2 * p->cp)) {
		spec_report(spec, diags, R_JS2010, "model.seq_length",
			    "sequence length %d is not divisible by 2 x CP = %d", m->seq_length, 2 * p->cp);
		ok = false;
	}
	return ok;
}

static bool check_storage(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	const struct spec_storage *s = j->storage;
	bool ok = true;
	if (s->type == ST_FSX_LUSTRE && !s->id && s->size_gib != 1200 && s->size_gib % 2400) {
		spec_report(spec, diags, R_JS2011, "storage.size_gib",
			    "FSx for Lustre size %d GiB: it must be 1200 or a multiple of 2400", s->size_gib);
		ok = false;
	}
	const char *cache = j->paths->compile_cache;
	size_t mlen = strlen(s->mount);
	bool shared = strncmp(cache, "s3://", 5) == 0 ||
		      (strncmp(cache, s->mount, mlen) == 0 && (cache[mlen] == '/' || !cache[mlen]));
	if (p->neuron && !shared) {
		spec_report(spec, diags, R_JS2012, "paths.compile_cache",
			    "compile cache %s is not under the shared mount %s: every node would compile again",
			    cache, s->mount);
		ok = false;
	}
	return ok;
}

static void estimate(struct plan *p, const struct job_spec *j)
{
	int m = p->micro_batches;
	p->bubble = p->pp > 1 ? (double)(p->pp - 1) / ((double)p->vpp * m + p->pp - 1) : 0;
	/* ring all-reduce moves 2(n-1)/n of the bf16 gradients of a rank's
	 * shard of the model */
	p->grad_bytes = j->model->parameters > 0 && p->dp > 1
		? 2.0 * (p->dp - 1) / p->dp * (j->model->parameters / ((double)p->tp * p->pp)) * 2
		: -1;
	p->price_hour = catalog_cost(p->it, p->nodes, 1);
}

bool plan_derive(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = spec->job;
	memset(p, 0, sizeof *p);
	p->job = j;
	p->tp = j->parallel->tensor;
	p->pp = j->parallel->pipeline;
	p->vpp = j->parallel->virtual_stages;
	p->cp = j->parallel->context;
	p->ep = j->parallel->expert;
	if (!derive_placement(p, spec, diags) || !plan_fleet_nodes(p, spec, diags) ||
	    !derive_nodes(p, spec, diags))
		return false;
	bool ok = check_batch(p, spec, diags);
	if (ok)
		ok = plan_fleet_check(p, spec, diags);
	ok &= check_model(p, spec, diags);
	ok &= check_storage(p, spec, diags);
	p->os = j->cluster->os ? j->cluster->os : p->neuron ? "ubuntu2204" : "alinux2023";
	if (ok)
		estimate(p, j);
	return ok;
}

/* ---- output ---------------------------------------------------------- */

static void money(struct buf *b, double usd)
{
	if (usd >= 1000)
		buf_printf(b, "$%.0f", usd);
	else
		buf_printf(b, "$%.2f", usd);
}

void plan_print_text(const struct plan *p, FILE *out, double hours)
{
	const struct job_spec *j = p->job;
	const struct instance_type *it = p->it;
	struct buf b = BUF_INIT;
	buf_printf(&b, "plan for %s\n", j->name);
	buf_printf(&b, "  instance         %s: ", it->name);
	if (p->neuron)
		buf_printf(&b, "%d x %s, %d logical NeuronCores at LNC %d",
			   it->accel_count, it->accel_model ? it->accel_model : "Neuron",
			   catalog_procs_per_node(it, p->lnc), p->lnc);
	else if (p->gpu)
		buf_printf(&b, "%d x %s", it->accel_count, it->accel_model ? it->accel_model : "GPU");
	else
		buf_puts(&b, "no accelerators");
	buf_printf(&b, ", EFA %s\n", catalog_tri_name(it->efa));
	buf_printf(&b, "  nodes            %d x %d processes = world %d\n", p->nodes, p->ppn, p->world);
	plan_fleet_text(p, &b);
	buf_printf(&b, "  layout           %s: TP %d x PP %d", framework_name(j->framework), p->tp, p->pp);
	if (p->vpp > 1)
		buf_printf(&b, " (interleaved, %d virtual stages)", p->vpp);
	buf_printf(&b, " x CP %d -> DP %d", p->cp, p->dp);
	if (p->ep > 1)
		buf_printf(&b, "; EP %d", p->ep);
	buf_printf(&b, "\n  batch            micro %d x DP %d x %d micro-batches = global %d\n",
		   p->micro, p->dp, p->micro_batches, p->global);
	if (p->pp > 1)
		buf_printf(&b, "  pipeline bubble  %.1f%% = (p-1)/(v*m+p-1) with p=%d v=%d m=%d\n",
			   100 * p->bubble, p->pp, p->vpp, p->micro_batches);
	else
		buf_puts(&b, "  pipeline bubble  none (one stage)\n");
	if (p->grad_bytes >= 0)
		buf_printf(&b, "  gradients        %.2f GB all-reduced per step per rank (bf16, ring, DP %d)\n",
			   p->grad_bytes / 1e9, p->dp);
	buf_puts(&b, "  cost             ");
	if (p->price_hour >= 0) {
		buf_printf(&b, "%d x $%.2f/h = ", p->nodes, it->price_on_demand);
		money(&b, p->price_hour);
		buf_puts(&b, "/h on demand");
		if (hours > 0) {
			buf_printf(&b, "; %.0f h: ", hours);
			money(&b, p->price_hour * hours);
		}
		buf_printf(&b, " (%s, %s, %s)\n", it->price_region ? it->price_region : "?",
			   it->price_source ? it->price_source : "?", it->price_date ? it->price_date : "?");
	} else {
		buf_printf(&b, "unknown: the catalog has no price for %s\n", it->name);
	}
	buf_printf(&b, "  storage          %s at %s; compile cache %s\n",
		   storage_name(j->storage->type), j->storage->mount, j->paths->compile_cache);
	fputs(b.p, out);
	buf_free(&b);
}

static void json_str(struct buf *b, const char *key, const char *v)
{
	buf_printf(b, "\"%s\":", key);
	if (!v) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	buf_put_json(b, v, strlen(v));
	buf_putc(b, '"');
}

static void json_num(struct buf *b, const char *key, double v, bool known)
{
	if (known && isfinite(v))
		buf_printf(b, "\"%s\":%.10g", key, v);
	else
		buf_printf(b, "\"%s\":null", key);
}

void plan_print_json(const struct plan *p, FILE *out, double hours)
{
	struct buf b = BUF_INIT;
	buf_putc(&b, '{');
	plan_json_fields(p, &b, hours);
	buf_puts(&b, "}\n");
	fputs(b.p, out);
	buf_free(&b);
}

void plan_json_fields(const struct plan *p, struct buf *b, double hours)
{
	const struct job_spec *j = p->job;
	json_str(b, "name", j->name);
	buf_putc(b, ',');
	json_str(b, "instance", p->it->name);
	buf_putc(b, ',');
	json_str(b, "framework", framework_name(j->framework));
	buf_printf(b, ",\"nodes\":%d,\"processesPerNode\":%d,\"world\":%d,\"lnc\":%d", p->nodes,
		   p->ppn, p->world, p->lnc);
	buf_printf(b, ",\"tensor\":%d,\"pipeline\":%d,\"virtualStages\":%d,\"context\":%d,\"expert\":%d,\"data\":%d",
		   p->tp, p->pp, p->vpp, p->cp, p->ep, p->dp);
	buf_printf(b, ",\"microBatch\":%d,\"globalBatch\":%d,\"microBatchesPerStep\":%d,",
		   p->micro, p->global, p->micro_batches);
	json_num(b, "pipelineBubble", p->bubble, true);
	buf_putc(b, ',');
	json_num(b, "gradientBytesPerStep", p->grad_bytes, p->grad_bytes >= 0);
	buf_putc(b, ',');
	json_num(b, "costPerHour", p->price_hour, p->price_hour >= 0);
	buf_putc(b, ',');
	json_num(b, "costPerRun", p->price_hour * hours, p->price_hour >= 0 && hours > 0);
	buf_putc(b, ',');
	json_str(b, "priceSource", p->it->price_source);
	buf_putc(b, ',');
	json_str(b, "priceDate", p->it->price_date);
	buf_putc(b, ',');
	json_str(b, "priceRegion", p->it->price_region);
	plan_fleet_json(p, b);
}
