/* The model the framework builds from the spec's shape, counted with the
 * framework's own accounting (core/facts/frameworks), and what the
 * launch line needs beside the layout: the training length from
 * model.tokens, the interval between saves, NxD's KV replication.
 * docs/plan.md, "The model", has the formulas and their sources. */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static long long gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The whole number at or above x (no libm: the program links none). */
static long long up(double x)
{
	long long n = (long long)x;
	return (double)n < x ? n + 1 : n;
}

static void shape_of(const struct plan *p, struct fw_shape *s)
{
	const struct spec_model *m = p->job->model;
	*s = (struct fw_shape){
		.layers = m->layers, .hidden = m->hidden_size, .heads = m->attention_heads,
		.groups = m->query_groups, .ffn = m->ffn_hidden_size,
		.expert_ffn = m->expert_ffn_hidden_size, .experts = m->experts,
		.topk = m->experts_per_token, .vocab = m->vocab_size, .seq = m->seq_length,
		.gated = m->gated_ffn, .untied = !m->tied_embeddings, .tp = p->tp,
	};
}

/* The step's time at the plan's utilization, from the hardware FLOPs of
 * a global batch; < 0 when a figure is missing. */
static double step_seconds(const struct plan *p, const struct plan_model *mm)
{
	const struct instance_type *it = p->it;
	double peak = it->accel_peak_bf16_tflops > 0 ? it->accel_peak_bf16_tflops * 1e12 : -1;
	double accels = (double)p->nodes * (it->accel_count > 0 ? it->accel_count : 0);
	double tokens = (double)p->global * p->job->model->seq_length;
	if (!(mm->flops.per_token > 0) || !(peak > 0) || !(accels > 0) || !(tokens > 0))
		return -1;
	return mm->flops.per_token * mm->hw_factor * tokens / (accels * peak * plan_utilization(p));
}

void plan_model_derive(struct plan *p)
{
	const struct spec_model *m = p->job->model;
	struct plan_model *mm = &p->model;

	memset(mm, 0, sizeof *mm);
	shape_of(p, &mm->shape);
	mm->from_shape = fw_count_params(p->job->framework, &mm->shape, &mm->counts);
	mm->parameters = mm->from_shape ? mm->counts.total : m->parameters > 0 ? m->parameters : -1;
	mm->active = mm->from_shape ? mm->counts.active : m->active_parameters > 0 ? m->active_parameters : -1;

	/* the FLOPs: the framework's convention with attention when the
	 * sequence is given, else 6 per active parameter */
	struct plan_moe moe;
	plan_moe_split(p, &moe);
	mm->flops.per_token = -1;
	if (mm->from_shape && fw_flops_per_token(p->job->framework, &mm->shape, &mm->counts, &mm->flops)) {
		mm->flops_with_attention = true;
	} else if (moe.active > 0) {
		/* the stated count, and PaLM's attention term when the shape
		 * has it */
		mm->flops.dense = 6 * moe.active;
		if (m->layers > 0 && m->hidden_size > 0 && m->seq_length > 0) {
			mm->flops.attention = 12.0 * m->layers * m->hidden_size * m->seq_length;
			mm->flops_with_attention = true;
			mm->flops.convention = "6 x the active parameters + 12 L h s (PaLM, Chowdhery et al. 2022, appendix B) <https://arxiv.org/abs/2204.02311>";
		} else {
			mm->flops.convention = "6 x the active parameters, no attention (give layers, hidden_size and seq_length): Kaplan et al. 2020, section 2.1 <https://arxiv.org/abs/2001.08361>";
		}
		mm->flops.per_token = mm->flops.dense + mm->flops.attention;
	}
	mm->hw_factor = plan_recompute(p) == RC_FULL ? 8.0 / 6.0 : 1;

	if (m->tokens > 0 && m->seq_length > 0) {
		mm->samples = up(m->tokens / m->seq_length);
		if (p->global > 0)
			mm->steps = (mm->samples + p->global - 1) / p->global;
	}
	/* An hour of training between saves at the plan's step time; a
	 * hundredth of the run when the time is unknown; never more than
	 * the run. */
	mm->step_seconds = step_seconds(p, mm);
	if (mm->step_seconds > 0)
		mm->save_interval = up(3600 / mm->step_seconds);
	else if (mm->steps > 0)
		mm->save_interval = mm->steps / 100;
	if (mm->steps > 0 && mm->save_interval > mm->steps)
		mm->save_interval = mm->steps;
	if (mm->save_interval < 1 && (mm->step_seconds > 0 || mm->steps > 0))
		mm->save_interval = 1;

	/* modeling_llama_nxd.py divides KV heads x kv_replicator by TP */
	if (m->query_groups > 0 && p->tp > 0) {
		long long r = p->tp / gcd(p->tp, m->query_groups);
		mm->kv_replicator = r > 1 ? r : 0;
	}
}

/* JS4012 count-disagrees-with-shape: the stated count against the shape's */
static bool count_agrees(const struct plan *p, const struct spec *spec, struct diag_list *diags,
			 const char *key, double stated, double counted)
{
	if (!(stated > 0) || !(counted > 0))
		return true;
	double gap = fabs(stated - counted) / counted;
	if (gap <= PLAN_COUNT_TOLERANCE)
		return true;
	const struct plan_model *mm = &p->model;
	struct diag *d = spec_report(spec, diags, R_JS4012, key,
		"%s is %.4g, but the shape counts %.4g by %s: %.1f%% apart (more than %.0f%%)", key,
		stated, counted, mm->counts.accounting, 100 * gap, 100 * PLAN_COUNT_TOLERANCE);
	char ffn[96];
	if (mm->shape.experts > 1)
		snprintf(ffn, sizeof ffn, "%lld experts of FFN %lld, top-%lld", mm->shape.experts,
			 mm->shape.expert_ffn, mm->shape.topk);
	else
		snprintf(ffn, sizeof ffn, "FFN %lld%s", fw_ffn_size(&mm->shape),
			 mm->shape.ffn > 0 ? "" : " by default");
	diag_set_help(d, "state %.4g, or change the shape (layers %lld, hidden %lld, %s, vocabulary %lld%s) so that it counts %.4g",
		      counted, mm->shape.layers, mm->shape.hidden, ffn, mm->shape.vocab,
		      mm->shape.vocab ? "" : ": not given", stated);
	return false;
}

bool plan_model_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct spec_model *m = p->job->model;
	if (!p->model.from_shape)
		return true;
	bool ok = count_agrees(p, spec, diags, "model.parameters", m->parameters, p->model.counts.total);
	ok &= count_agrees(p, spec, diags, "model.active_parameters", m->active_parameters,
			   p->model.counts.active);
	return ok;
}
