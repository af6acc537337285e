/* Time, memory, network and cost of a plan's layout on one instance
 * type. The formulas, with their sources, are in docs/plan.md; every
 * figure whose inputs are missing stays negative ("unknown"). */
#include "plan.h"

#include <math.h>
#include <string.h>

#define GIB 1073741824.0

/* Weights, gradients and optimizer state per rank at each ZeRO stage,
 * by the framework's byte convention (core/facts/frameworks: Megatron's
 * 18 bytes per parameter, 6 + 12/d with its distributed optimizer; the
 * ZeRO paper's 16 for plain): a rank's dense slice divided over DP, its
 * experts over the ranks that hold the same experts. */
static void model_states(struct plan_est *e, const struct plan *p, const struct plan_shards *s, int stage)
{
	enum framework f = p->job->framework;
	for (int z = 0; z < 4; z++) {
		struct fw_bytes b;
		fw_state_bytes(f, z, &b);
		e->states[z] = s->dense * fw_bytes_per_param(&b, s->dense_dp) +
			       s->expert * fw_bytes_per_param(&b, s->expert_dp);
		if (z != stage)
			continue;
		double dd = s->dense_dp, xd = s->expert_dp;
		e->weights = b.weights * (s->dense / (b.weights_sharded ? dd : 1) + s->expert / (b.weights_sharded ? xd : 1));
		e->grads = b.grads * (s->dense / (b.grads_sharded ? dd : 1) + s->expert / (b.grads_sharded ? xd : 1));
		e->optim = b.optim * (s->dense / (b.optim_sharded ? dd : 1) + s->expert / (b.optim_sharded ? xd : 1));
	}
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

	plan_moe_split(p, &e->moe);
	plan_moe_shards(p, &e->moe, &e->shards);
	e->params_rank = e->shards.dense >= 0 ? e->shards.dense + e->shards.expert : -1;
	for (int i = 0; i < 4; i++)
		e->states[i] = -1;
	e->weights = e->grads = e->optim = -1;
	if (e->params_rank > 0)
		model_states(e, p, &e->shards, stage);
	activations(e, p);
	e->act_used = e->act[rc];
	e->total = e->states[stage] >= 0 && e->act_used >= 0 ? e->states[stage] + e->act_used : -1;

	e->capacity = -1;
	e->capacity_source = NULL;
	if (catalog_is_neuron(it) && it->accel_memory_gib > 0) {
		int cores = catalog_procs_per_node(it, catalog_lnc_valid(it, p->lnc) ? p->lnc : 0);
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

/* The model FLOPs per token by the framework's convention (gen/plan_model.c),
 * times the hardware factor (the forward pass again under full
 * recomputation), at the plan's utilization of peak. */
static void timing(struct plan_est *e, const struct plan *p, double util)
{
	const struct spec_model *m = p->job->model;
	const struct plan_model *mm = &p->model;
	double per_token = mm->flops.per_token > 0 ? mm->flops.per_token * mm->hw_factor : -1;

	e->factor = mm->flops.per_token > 0 && e->moe.active > 0 ? per_token / e->moe.active : -1;
	e->peak = e->it->accel_peak_bf16_tflops > 0 ? e->it->accel_peak_bf16_tflops * 1e12 : -1;
	e->node_peak = e->peak > 0 && e->it->accel_count > 0 ? e->peak * e->it->accel_count : -1;
	e->achieved = e->peak > 0 && e->accels > 0 ? e->accels * e->peak * util : -1;
	e->total_flops = per_token > 0 && m->tokens > 0 ? per_token * m->tokens : -1;
	e->run_seconds = e->total_flops > 0 && e->achieved > 0 ? e->total_flops / e->achieved : -1;
	double step_tokens = m->seq_length ? (double)p->global * m->seq_length : -1;
	e->step_seconds = per_token > 0 && step_tokens > 0 && e->achieved > 0
		? per_token * step_tokens / e->achieved : -1;
	e->steps = m->tokens > 0 && step_tokens > 0 ? m->tokens / step_tokens : -1;
}

/* Members of a data-parallel group of n ranks on one node: the groups
 * of a stage are interleaved with the dimensions inside them (TP, and
 * EP for Megatron's experts: its rank order tp-cp-ep-dp-pp; torchtitan's
 * mesh pp, dp, cp, tp), so a node of ppn ranks holds n x ppn x PP /
 * world of each, at least 1 and at most n. */
static double group_on_node(double n, const struct plan *p, int ppn)
{
	double g = n * ppn * p->pp / p->world;
	return g < 1 ? 1 : g > n ? n : g;
}

/* The data-parallel traffic (plan_dp_bytes) and the pipeline's point-to-point
 * sends: each micro-batch passes s b h bf16 activations forward and as
 * many gradients backward per stage boundary (v times when
 * interleaved), split over TP with the scatter-gather optimisation.
 * Point-to-point traffic is each rank's own, timed at its share of the
 * instance's EFA bandwidth. A collective's ring crosses each node once
 * however many of its members the node holds (NCCL's and Neuron's
 * collectives order the ring by node), so the node's EFA carries a
 * group's traffic once, not once per member: a rank's EFA time is its
 * bytes / (members on its node x its share); none when the whole group
 * is on one node. */
static void network(struct plan_est *e, const struct plan *p, int stage, enum recompute rc)
{
	const struct spec_model *m = p->job->model;

	e->bubble = p->bubble;
	e->net_bytes_per_s = e->it->efa_gbps > 0 && e->ppn > 0
		? e->it->efa_gbps * 1e9 / 8 / e->ppn : -1;
	e->grad_bytes = e->grad_efa_bytes = -1;
	if (e->shards.dense >= 0) {
		const struct plan_shards *s = &e->shards;
		double d = plan_dp_bytes(p, stage, s->dense, s->dense_dp);
		double x = plan_dp_bytes(p, stage, s->expert, s->expert_dp);
		double gd = group_on_node(s->dense_dp, p, e->ppn), gx = group_on_node(s->expert_dp, p, e->ppn);
		e->grad_bytes = d + x;
		e->grad_efa_bytes = (gd < s->dense_dp ? d / gd : 0) + (gx < s->expert_dp ? x / gx : 0);
	}
	e->pp_bytes = p->pp > 1 && m->seq_length && m->hidden_size
		? 2.0 * p->micro_batches * p->vpp * ((double)m->seq_length / p->cp) * p->micro *
			  m->hidden_size * 2 / p->tp
		: (p->pp > 1 ? -1 : 0);
	e->grad_seconds = e->grad_efa_bytes >= 0 && e->net_bytes_per_s > 0 ? e->grad_efa_bytes / e->net_bytes_per_s : -1;
	e->pp_seconds = e->pp_bytes >= 0 && e->net_bytes_per_s > 0 ? e->pp_bytes / e->net_bytes_per_s : -1;
	plan_moe_all_to_all(p, e->ppn, rc, &e->a2a);
	e->a2a_seconds = e->a2a.efa_bytes == 0 ? 0
		: e->a2a.efa_bytes > 0 && e->net_bytes_per_s > 0 ? e->a2a.efa_bytes / e->net_bytes_per_s : -1;
	if (e->nodes == 1) { /* nothing crosses EFA */
		e->grad_seconds = e->pp_seconds = e->a2a_seconds = 0;
		e->grad_efa_bytes = 0;
		if (e->a2a.efa_bytes > 0)
			e->a2a.efa_bytes = 0;
	}
}

/* The step at the utilization counts the communication the framework
 * overlaps with compute; what exceeds the compute cannot overlap and
 * adds to the step: step = max(compute, communication), the run
 * steps x step. Unknown communication adds nothing, and the text says
 * the time is then the compute's alone. */
static void exposed(struct plan_est *e)
{
	e->compute_step_seconds = e->step_seconds;
	e->comm_seconds = e->grad_seconds >= 0 && e->pp_seconds >= 0 && e->a2a_seconds >= 0
		? e->grad_seconds + e->pp_seconds + e->a2a_seconds : -1;
	e->exposed_seconds = e->step_seconds > 0 && e->comm_seconds > e->step_seconds
		? e->comm_seconds - e->step_seconds : 0;
	if (e->exposed_seconds > 0) {
		e->step_seconds += e->exposed_seconds;
		if (e->run_seconds > 0 && e->steps > 0)
			e->run_seconds += e->steps * e->exposed_seconds;
	}
}

static void cost(struct plan_est *e, const struct plan *p, double hours)
{
	struct plan_price_inputs in;
	plan_price_inputs_of(p->job, &in);
	plan_rates(e->it, &in, e->rate);
	e->hours_from_flag = hours > 0;
	e->run_hours = hours > 0 ? hours : e->run_seconds > 0 ? e->run_seconds / 3600 : -1;
	for (int k = 0; k < PRICE__COUNT; k++) {
		double price = e->rate[k].usd;
		e->hour[k] = price >= 0 && e->nodes > 0 ? price * e->nodes : -1;
		e->run_cost[k] = e->hour[k] >= 0 && e->run_hours > 0 ? e->hour[k] * e->run_hours : -1;
		e->usd_per_pflop_hour[k] = e->hour[k] >= 0 && e->achieved > 0
			? e->hour[k] / (e->achieved / 1e15) : -1;
	}
}

double plan_utilization(const struct plan *p)
{
	double u = p->job->training->utilization;
	return u > 0 ? u : PLAN_DEFAULT_UTILIZATION;
}

enum recompute plan_recompute(const struct plan *p)
{
	enum recompute r = p->job->training->recompute;
	return r != RC_UNSET ? r : PLAN_DEFAULT_RECOMPUTE;
}

void plan_estimate_at(const struct plan *p, const struct instance_type *it, int nodes, int ppn,
		      double hours, struct plan_est *e)
{
	enum recompute rc = plan_recompute(p);
	int stage = p->job->training->zero_stage;

	memset(e, 0, sizeof *e);
	e->it = it;
	e->own = it == p->it && nodes == p->nodes;
	e->ranks = p->world;
	e->nodes = nodes;
	e->ppn = ppn;
	e->whole_nodes = e->ppn > 0 && p->world % e->ppn == 0;
	e->tp = p->tp, e->pp = p->pp, e->cp = p->cp, e->ep = p->ep, e->dp = p->dp;
	e->accels = it->accel_count > 0 ? e->nodes * it->accel_count : 0;
	memory(e, p, rc, stage);
	timing(e, p, plan_utilization(p));
	network(e, p, stage, rc);
	exposed(e);
	cost(e, p, hours);
}

void plan_estimate(const struct plan *p, const struct instance_type *it, double hours,
		   struct plan_est *e)
{
	int nodes = p->nodes, ppn = p->ppn;
	if (it != p->it) {
		int lnc = catalog_lnc_valid(it, p->lnc) ? p->lnc : 0;
		ppn = catalog_procs_per_node(it, lnc);
		nodes = ppn > 0 ? (p->world + ppn - 1) / ppn : 0;
	}
	plan_estimate_at(p, it, nodes, ppn, hours, e);
	e->own = it == p->it;
}
