/* A mixture of experts as the plan sees it: which parameters are the
 * experts' (sharded by EP) and which are dense (attention, embeddings,
 * router: sharded by TP and PP only), how many a token passes through,
 * and the all-to-all traffic that carries tokens to their experts.
 * docs/plan.md, "Mixture of experts", has the formulas and their sources. */
#include "plan.h"

#include <string.h>

/* Weight matrices of one expert's feed-forward block: up and down, and
 * the gate when it is gated (SwiGLU). */
static int ffn_matrices(const struct spec_model *m)
{
	return m->gated_ffn ? 3 : 2;
}

void plan_moe_split(const struct plan *p, struct plan_moe *moe)
{
	const struct spec_model *m = p->job->model;
	double P = m->parameters, A = m->active_parameters;
	double E = m->experts, k = m->experts_per_token;

	memset(moe, 0, sizeof *moe);
	moe->experts = m->experts;
	moe->topk = m->experts_per_token;
	if (p->model.from_shape) {
		/* the framework's own count of the shape */
		const struct fw_params *c = &p->model.counts;
		moe->from = m->experts > 1 ? MOE_FROM_SHAPE : MOE_DENSE;
		moe->expert_params = c->expert_layers;
		moe->dense_params = c->total - c->expert_layers;
		moe->active = c->active;
		moe->active_derived = !(A > 0);
		return;
	}
	moe->active = A > 0 ? A : P > 0 ? P : -1;
	moe->expert_params = 0;
	moe->dense_params = P > 0 ? P : -1;
	moe->from = MOE_DENSE;
	if (m->experts <= 1)
		return;
	moe->from = MOE_UNSPLIT;
	moe->expert_params = moe->dense_params = -1;
	if (!(P > 0)) {
		moe->why = "give model.parameters";
		return;
	}
	if (m->expert_ffn_hidden_size && m->layers && m->hidden_size && k > 0) {
		/* every layer holds E experts of `matrices` h x f matrices */
		double X = (double)m->layers * E * ffn_matrices(m) * m->hidden_size *
			   m->expert_ffn_hidden_size;
		if (X >= P) {
			moe->why = "the experts of expert_ffn_hidden_size alone hold more than model.parameters";
			return;
		}
		moe->from = MOE_FROM_FFN;
		moe->expert_params = X;
		if (!(A > 0)) {
			moe->active = P - X + X * k / E;
			moe->active_derived = true;
		}
	} else if (A > 0 && k > 0) {
		/* P = D + E e and A = D + k e, with e the parameters of one
		 * expert over all layers */
		if (!(k < E) || !(A < P) || A < P * k / E) {
			moe->why = "model.active_parameters, experts and experts_per_token do not fit together (active >= parameters x experts_per_token / experts is needed)";
			return;
		}
		moe->from = MOE_FROM_ACTIVE;
		moe->expert_params = E * (P - A) / (E - k);
	} else {
		moe->why = k > 0 ? "give model.active_parameters or model.expert_ffn_hidden_size"
				 : "give model.experts_per_token with model.active_parameters or model.expert_ffn_hidden_size";
		return;
	}
	moe->dense_params = P - moe->expert_params;
}

const char *plan_moe_from_name(enum moe_from f)
{
	static const char *const names[] = {
		[MOE_DENSE] = "dense", [MOE_UNSPLIT] = "unsplit",
		[MOE_FROM_ACTIVE] = "active-parameters", [MOE_FROM_FFN] = "expert-ffn",
		[MOE_FROM_SHAPE] = "shape",
	};
	return names[f];
}

/* The expert-data-parallel size: the ranks that hold the same experts,
 * world / (EP x TP x PP) with the expert tensor-parallel size equal to
 * TP (Megatron's default), i.e. DP x CP / EP. At least one. */
static double expert_dp(const struct plan *p)
{
	double n = (double)p->dp * p->cp / (p->ep > 0 ? p->ep : 1);
	return n >= 1 ? n : 1;
}

void plan_moe_shards(const struct plan *p, const struct plan_moe *moe, struct plan_shards *s)
{
	double tp_pp = (double)p->tp * p->pp;

	memset(s, 0, sizeof *s);
	s->dense_dp = p->dp;
	s->expert_dp = expert_dp(p);
	if (p->model.from_shape) {
		/* the framework's sharding: the first stage's embedding, what
		 * TP does not divide, FSDP's shards */
		struct fw_rank_state r;
		struct fw_layout l = { p->world, p->tp, p->pp, p->cp, p->ep, p->dp };
		fw_rank_state(p->job->framework, &p->model.shape, &p->model.counts, &l,
			      p->job->training->zero_stage, &r);
		s->dense = r.dense;
		s->expert = r.expert;
		s->dense_dp = r.dense_dp;
		s->expert_dp = r.expert_dp;
		return;
	}
	if (moe->from == MOE_UNSPLIT || moe->from == MOE_DENSE) {
		/* unsplit: every parameter as if dense, an upper bound */
		double P = p->job->model->parameters;
		s->dense = P > 0 ? P / tp_pp : -1;
		s->expert = 0;
		return;
	}
	s->dense = moe->dense_params / tp_pp;
	s->expert = moe->expert_params / (tp_pp * (p->ep > 0 ? p->ep : 1));
}

/* Bytes one rank moves per step for the data-parallel state of psi
 * parameters over a group of n: without sharded weights a ring
 * all-reduce of bf16 gradients, 2 (n - 1)/n x 2 bytes; with them
 * (FSDP, ZeRO 3) a reduce-scatter at the framework's gradient bytes
 * (torchtitan reduces in fp32: mixed_precision_reduce) and all-gathers
 * of the bf16 weights, once a step with a pipeline (torchtitan's
 * reshard_after_forward "default" keeps them across the micro-batches
 * when PP is on) and twice without (forward and backward), (n - 1)/n
 * each: the ZeRO paper's 3 psi for stage 3 (Rajbhandari et al. 2020,
 * section 7.2.2). */
double plan_dp_bytes(const struct plan *p, int stage, double psi, double n)
{
	struct fw_bytes fb;
	fw_state_bytes(p->job->framework, stage, &fb);
	if (n <= 1 || psi <= 0)
		return 0;
	double ring = (n - 1) / n;
	if (!fb.weights_sharded)
		return 2 * ring * 2 * psi;
	return ring * (fb.grads + 2.0 * (p->pp > 1 ? 1 : 2)) * psi;
}

/* The same for the plan's own layout: the dense shard over DP, the
 * experts' over the expert-data-parallel ranks. */
double plan_grad_bytes(const struct plan *p)
{
	struct plan_moe moe;
	struct plan_shards s;
	plan_moe_split(p, &moe);
	plan_moe_shards(p, &moe, &s);
	if (s.dense < 0)
		return -1;
	int stage = p->job->training->zero_stage;
	double bytes = plan_dp_bytes(p, stage, s.dense, s.dense_dp) + plan_dp_bytes(p, stage, s.expert, s.expert_dp);
	return bytes > 0 ? bytes : -1;
}

/* Each MoE layer sends every token of a rank (s b / (TP x CP) with
 * sequence parallelism) to k experts and back (dispatch and combine),
 * bf16 hidden states, forward and backward: 4 transfers, 6 when full
 * recomputation runs the forward again. Megatron numbers the expert
 * ranks TP first, then EP (its order tp-cp-ep-dp-pp, with no CP in the
 * expert grid), so a rank's EP peers are TP ranks apart; those on its
 * own node do not use EFA. */
void plan_moe_all_to_all(const struct plan *p, int ppn, enum recompute rc, struct plan_a2a *a)
{
	const struct spec_model *m = p->job->model;
	memset(a, 0, sizeof *a);
	a->bytes = a->efa_bytes = -1;
	if (p->ep <= 1 || m->experts <= 1) {
		a->bytes = a->efa_bytes = 0;
		return;
	}
	if (m->experts_per_token <= 0 || !m->seq_length || !m->hidden_size || !m->layers)
		return;
	double tokens = (double)m->seq_length / p->cp * p->micro / p->tp;
	double transfers = rc == RC_FULL ? 6 : 4;
	double layers = (double)m->layers / p->pp;
	a->bytes = layers * p->micro_batches * transfers * m->experts_per_token * tokens *
		   m->hidden_size * 2 * (p->ep - 1) / p->ep;
	long long block = p->tp;
	long long near = block < ppn ? ppn / block : 1;
	a->peers_in_node = (int)(near < p->ep ? near : p->ep);
	a->efa_bytes = a->bytes * (p->ep - a->peers_in_node) / (p->ep - 1);
}
