/* Time, memory, network and cost of a plan's layout on one instance
 * type. The formulas, with their sources, are in docs/plan.md; every
 * figure whose inputs are missing stays negative ("unknown"). */
#include "plan.h"

#include <math.h>
#include <string.h>

#define GIB 1073741824.0

/* ZeRO (Rajbhandari et al. 2020): mixed-precision Adam keeps 2 bytes of
 * fp16/bf16 weights, 2 of gradients and K = 12 of optimizer state (fp32
 * master weights, momentum, variance) per parameter; stage 1 partitions
 * the optimizer state over the N_d data-parallel ranks, stage 2 also the
 * gradients, stage 3 also the weights. */
static void model_states(struct plan_est *e, double psi, int dp, int stage)
{
	const double w = 2, g = 2, k = 12;
	e->states[0] = (w + g + k) * psi;
	e->states[1] = (w + g) * psi + k * psi / dp;
	e->states[2] = w * psi + (g + k) * psi / dp;
	e->states[3] = (w + g + k) * psi / dp;
	e->weights = w * psi / (stage >= 3 ? dp : 1);
	e->grads = g * psi / (stage >= 2 ? dp : 1);
	e->optim = k * psi / (stage >= 1 ? dp : 1);
}

/* Korthikanti et al. 2022, activation memory of one transformer layer
 * in 16-bit, with tensor and sequence parallelism over t ranks:
 * s b h (34 + 5 a s / h) / t without recomputation, 34 s b h / t with
 * selective recomputation (the attention core is recomputed) and
 * 2 s b h / t with full recomputation (only the layer input is kept).
 * Under 1F1B the first pipeline stage holds p micro-batches of L/p
 * layers: L layers' worth, the same as without a pipeline. s is the
 * sequence per context-parallel rank. */
static void activations(struct plan_est *e, const struct plan *p)
{
	const struct spec_model *m = p->job->model;
	double s = m->seq_length ? (double)m->seq_length / p->cp : -1;
	double b = p->micro, h = m->hidden_size, a = m->attention_heads, t = p->tp;
	double L = m->layers;

	for (int i = 0; i < 4; i++)
		e->act[i] = -1;
	if (s <= 0 || h <= 0 || L <= 0)
		return;
	e->act[RC_SELECTIVE] = 34 * s * b * h / t * L;
	e->act[RC_FULL] = 2 * s * b * h / t * L;
	if (a > 0)
		e->act[RC_NONE] = s * b * h * (34 + 5 * a * s / h) / t * L;
}

static void memory(struct plan_est *e, const struct plan *p, enum recompute rc, int stage)
{
	const struct instance_type *it = e->it;
	double params = p->job->model->parameters;

	e->params_rank = params > 0 ? params / ((double)p->tp * p->pp) : -1;
	for (int i = 0; i < 4; i++)
		e->states[i] = -1;
	e->weights = e->grads = e->optim = -1;
	if (e->params_rank > 0)
		model_states(e, e->params_rank, p->dp, stage);
	activations(e, p);
	e->act_used = e->act[rc];
	e->total = e->states[stage] >= 0 && e->act_used >= 0 ? e->states[stage] + e->act_used : -1;

	e->capacity = -1;
	e->capacity_source = NULL;
	if (catalog_is_neuron(it) && it->accel_memory_gib > 0) {
		int cores = catalog_procs_per_node(it, e->own ? p->lnc : 0);
		if (cores > 0) {
			e->capacity = it->accel_memory_gib * GIB / cores;
			e->capacity_source = it->accel_memory_source;
		}
	} else if (it->accel == ACCEL_NVIDIA_GPU && it->gpu_memory_mib > 0) {
		e->capacity = it->gpu_memory_mib * (GIB / 1024);
		e->capacity_source = it->gpu_memory_source;
	}
	e->fits = -1;
	if (e->capacity > 0 && e->states[stage] > e->capacity)
		e->fits = 0;
	else if (e->capacity > 0 && e->total >= 0)
		e->fits = e->total <= e->capacity;
}

/* 6 FLOPs per parameter per token (forward 2, backward 4), 8 when full
 * recomputation runs the forward pass again (Narayanan et al. 2021). */
static void timing(struct plan_est *e, const struct plan *p, double util, enum recompute rc)
{
	const struct spec_model *m = p->job->model;
	double active = m->active_parameters > 0 ? m->active_parameters : m->parameters;

	e->factor = rc == RC_FULL ? 8 : 6;
	e->peak = e->it->accel_peak_bf16_tflops > 0 ? e->it->accel_peak_bf16_tflops * 1e12 : -1;
	e->achieved = e->peak > 0 && e->accels > 0 ? e->accels * e->peak * util : -1;
	e->total_flops = active > 0 && m->tokens > 0 ? e->factor * active * m->tokens : -1;
	e->run_seconds = e->total_flops > 0 && e->achieved > 0 ? e->total_flops / e->achieved : -1;
	double step_tokens = m->seq_length ? (double)p->global * m->seq_length : -1;
	e->step_seconds = active > 0 && step_tokens > 0 && e->achieved > 0
		? e->factor * active * step_tokens / e->achieved : -1;
	e->steps = m->tokens > 0 && step_tokens > 0 ? m->tokens / step_tokens : -1;
}

/* Ring all-reduce of the bf16 gradients (plan.grad_bytes; ZeRO 3 adds
 * the parameter all-gathers: 1.5 times the traffic), and the pipeline's
 * point-to-point sends: each micro-batch passes s b h bf16 activations
 * forward and as many gradients backward per stage boundary (v times
 * when interleaved), split over TP with the scatter-gather optimisation.
 * All of it is counted on EFA at the rank's share of the instance
 * bandwidth, an upper bound where ranks talk over NVLink or NeuronLink. */
static void network(struct plan_est *e, const struct plan *p, int stage)
{
	const struct spec_model *m = p->job->model;

	e->bubble = p->bubble;
	e->net_bytes_per_s = e->it->efa_gbps > 0 && e->ppn > 0
		? e->it->efa_gbps * 1e9 / 8 / e->ppn : -1;
	e->grad_bytes = p->grad_bytes >= 0 ? p->grad_bytes * (stage == 3 ? 1.5 : 1) : -1;
	e->pp_bytes = p->pp > 1 && m->seq_length && m->hidden_size
		? 2.0 * p->micro_batches * p->vpp * ((double)m->seq_length / p->cp) * p->micro *
			  m->hidden_size * 2 / p->tp
		: (p->pp > 1 ? -1 : 0);
	e->grad_seconds = e->grad_bytes >= 0 && e->net_bytes_per_s > 0 ? e->grad_bytes / e->net_bytes_per_s : -1;
	e->pp_seconds = e->pp_bytes >= 0 && e->net_bytes_per_s > 0 ? e->pp_bytes / e->net_bytes_per_s : -1;
	if (e->nodes == 1) /* nothing crosses EFA */
		e->grad_seconds = e->pp_seconds = 0;
}

const char *plan_price_name(enum plan_price k)
{
	static const char *const names[] = { "on-demand", "spot", "reserved" };
	return names[k];
}

double plan_price_of(const struct instance_type *it, enum plan_price k, const char **source,
		     const char **date, const char **region)
{
	switch (k) {
	case PRICE_SPOT:
		*source = it->price_spot_source, *date = it->price_spot_date, *region = it->price_spot_region;
		return it->price_spot;
	case PRICE_RESERVED:
		*source = it->price_reserved_source, *date = it->price_reserved_date,
		*region = it->price_reserved_region;
		return it->price_reserved;
	default:
		*source = it->price_source, *date = it->price_date, *region = it->price_region;
		return it->price_on_demand;
	}
}

static void cost(struct plan_est *e, const struct plan *p, double hours)
{
	const char *src, *date, *region;

	e->hours_from_flag = hours > 0;
	e->run_hours = hours > 0 ? hours : e->run_seconds > 0 ? e->run_seconds / 3600 : -1;
	for (int k = 0; k < PRICE__COUNT; k++) {
		double price = plan_price_of(e->it, (enum plan_price)k, &src, &date, &region);
		e->hour[k] = price >= 0 && e->nodes > 0 ? price * e->nodes : -1;
		e->run_cost[k] = e->hour[k] >= 0 && e->run_hours > 0 ? e->hour[k] * e->run_hours : -1;
	}
	double discount = p->job->capacity->spot_discount;
	e->spot_assumed_hour = e->hour[PRICE_SPOT] < 0 && discount > 0 && e->hour[PRICE_ON_DEMAND] >= 0
		? e->hour[PRICE_ON_DEMAND] * (1 - discount) : -1;
	e->usd_per_pflop_hour = e->hour[PRICE_ON_DEMAND] >= 0 && e->achieved > 0
		? e->hour[PRICE_ON_DEMAND] / (e->achieved / 1e15) : -1;
}

void plan_estimate(const struct plan *p, const struct instance_type *it, double hours,
		   struct plan_est *e)
{
	const struct spec_training *tr = p->job->training;
	double util = tr->utilization > 0 ? tr->utilization : PLAN_DEFAULT_UTILIZATION;
	enum recompute rc = tr->recompute != RC_UNSET ? tr->recompute : PLAN_DEFAULT_RECOMPUTE;
	int stage = tr->zero_stage;

	memset(e, 0, sizeof *e);
	e->it = it;
	e->own = it == p->it;
	e->ranks = p->world;
	if (e->own) {
		e->nodes = p->nodes;
		e->ppn = p->ppn;
	} else {
		int lnc = catalog_lnc_valid(it, p->lnc) ? p->lnc : 0;
		e->ppn = catalog_procs_per_node(it, lnc);
		e->nodes = e->ppn > 0 ? (p->world + e->ppn - 1) / e->ppn : 0;
	}
	e->whole_nodes = e->ppn > 0 && p->world % e->ppn == 0;
	e->accels = it->accel_count > 0 ? e->nodes * it->accel_count : 0;
	memory(e, p, rc, stage);
	timing(e, p, util, rc);
	network(e, p, stage);
	cost(e, p, hours);
}
