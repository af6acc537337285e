/* `trainforge plan`: the layout summary, then for each instance type its
 * memory fit, time, network share and cost, each number with its formula
 * or its source; unknown figures are shown as unknown, with what would
 * make them known. The comparison table is gen/plan_table.c's, the
 * owned-against-cloud table gen/plan_tco.c's. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan_out.h"
#include "tco.h"

static void count(struct buf *b, double v)
{
	if (v <= 0)
		buf_puts(b, "not given");
	else
		buf_printf(b, "%.4g", v);
}

static void text_experts(const struct plan *p, const struct plan_moe *moe, struct buf *b)
{
	const struct spec_model *m = p->job->model;
	if (moe->from == MOE_DENSE)
		return;
	buf_puts(b, "  experts          ");
	if (moe->from == MOE_UNSPLIT) {
		buf_printf(b, "%d per layer, split unknown (%s): memory counts every parameter as dense, an upper bound\n",
			   moe->experts, moe->why);
		return;
	}
	buf_printf(b, "%.4g parameters = %.4g dense (attention, embeddings, router: over TP x PP) + %.4g in %d experts (over EP x TP x PP), ",
		   p->model.parameters, moe->dense_params, moe->expert_params, moe->experts);
	if (moe->from == MOE_FROM_SHAPE)
		buf_printf(b, "from the shape: top-%lld of %d experts of FFN %lld\n",
			   p->model.shape.topk > 0 ? p->model.shape.topk : 0, moe->experts,
			   p->model.shape.expert_ffn > 0 ? p->model.shape.expert_ffn : p->model.shape.ffn);
	else if (moe->from == MOE_FROM_FFN)
		buf_printf(b, "from %d layers x %d experts x %d x %d x %d (%s%s)\n", m->layers, moe->experts,
			   m->gated_ffn ? 3 : 2, m->hidden_size, m->expert_ffn_hidden_size,
			   m->gated_ffn ? "gated" : "not gated", m->gated_ffn_given ? "" : ", the default; model.gated_ffn");
	else
		buf_printf(b, "from %.4g active with top-%d of %d experts\n", m->active_parameters, moe->topk,
			   moe->experts);
}

/* Where each formula comes from: a document a user can open. The
 * framework's own (its count, FLOPs and bytes) are named beside them. */
static const struct {
	const char *formula, *source;
} formula_sources[] = {
	{ "expert shards", "NVIDIA/Megatron-LM megatron/core/parallel_state.py (initialize_model_parallel) "
			   "<https://github.com/NVIDIA/Megatron-LM/blob/00caa53af30912914981c86f39db123961678bbd/megatron/core/parallel_state.py>" },
	{ "activations", "Korthikanti et al. 2022, table 2 <https://arxiv.org/abs/2205.05198>" },
	{ "full recomputation", "Narayanan et al. 2021, SC21, eq. 4 (the forward pass again: 8 FLOPs per parameter per token, not 6) <https://arxiv.org/abs/2104.04473>" },
	{ "utilization", "an assumption; for scale, PaLM reports 46.2% model FLOPs utilization at 540B (Chowdhery et al. 2022, section 4.1) <https://arxiv.org/abs/2204.02311>" },
};

static void text_formula_sources(const struct plan *p, struct buf *b)
{
	struct fw_bytes bytes;
	fw_state_bytes(p->job->framework, p->job->training->zero_stage, &bytes);
	buf_printf(b, "  formula sources  parameters: %s\n", p->model.from_shape ? p->model.counts.source
					 : "the spec's model.parameters (no shape the framework counts)");
	buf_printf(b, "                   training FLOPs: %s\n", p->model.flops.convention ? p->model.flops.convention
					 : "unknown: give model.parameters");
	buf_printf(b, "                   model states: %s\n", bytes.source);
	for (size_t i = 0; i < sizeof formula_sources / sizeof formula_sources[0]; i++)
		buf_printf(b, "  %-16s %s: %s\n", "", formula_sources[i].formula, formula_sources[i].source);
}

/* Each formula the plan used, with a document a user can open. */
static void json_formula_sources(const struct plan *p, struct buf *b)
{
	struct fw_bytes bytes;
	fw_state_bytes(p->job->framework, p->job->training->zero_stage, &bytes);
	out_jarr(b, "formulaSources");
	const char *own[][2] = {
		{ "parameters", p->model.from_shape ? p->model.counts.source : NULL },
		{ "training FLOPs", p->model.flops.convention },
		{ "model states", bytes.source },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
		if (!own[i][1])
			continue;
		buf_puts(b, n++ ? ",{" : "{");
		out_jstr(b, "formula", own[i][0]);
		out_jstr(b, "source", own[i][1]);
		buf_putc(b, '}');
	}
	for (size_t i = 0; i < sizeof formula_sources / sizeof formula_sources[0]; i++) {
		buf_puts(b, n++ ? ",{" : "{");
		out_jstr(b, "formula", formula_sources[i].formula);
		out_jstr(b, "source", formula_sources[i].source);
		buf_putc(b, '}');
	}
	buf_putc(b, ']');
}

static void text_model(const struct plan *p, struct buf *b)
{
	const struct spec_model *m = p->job->model;
	const struct spec_training *tr = p->job->training;
	const struct plan_model *mm = &p->model;
	struct plan_moe moe;
	plan_moe_split(p, &moe);
	struct fw_bytes bytes;
	fw_state_bytes(p->job->framework, tr->zero_stage, &bytes);

	buf_puts(b, "  model            parameters ");
	count(b, mm->parameters);
	if (moe.active > 0 && moe.active != mm->parameters)
		buf_printf(b, " (%.4g active per token%s)", moe.active,
			   mm->from_shape ? "" : moe.active_derived ? ", derived from the experts" : "");
	if (mm->from_shape)
		buf_printf(b, ", counted from the shape by %s's accounting", fw_def(p->job->framework)->title);
	buf_puts(b, ", tokens ");
	count(b, m->tokens);
	buf_printf(b, ", layers %d, hidden %d, heads %d, sequence %d", m->layers, m->hidden_size,
		   m->attention_heads, m->seq_length);
	if (mm->from_shape) {
		if (mm->shape.experts > 1)
			buf_printf(b, ", expert FFN %lld", mm->shape.expert_ffn);
		else if (mm->shape.ffn > 0)
			buf_printf(b, ", FFN %lld", mm->shape.ffn);
		else
			buf_printf(b, ", FFN %lld (the default for this hidden size)", fw_ffn_size(&mm->shape));
		buf_printf(b, "%s, vocabulary %lld%s", mm->shape.gated ? " gated" : "", mm->shape.vocab,
			   mm->shape.untied ? " untied" : " tied");
	}
	buf_puts(b, " (0: not given)\n");
	if (mm->steps > 0)
		buf_printf(b, "  training length  %lld samples of %d tokens = %lld steps of %d; a save every %lld steps\n",
			   mm->samples, m->seq_length, mm->steps, p->global, mm->save_interval);
	text_experts(p, &moe, b);
	buf_printf(b, "  assumptions      utilization %.3g of peak dense BF16 in hardware FLOPs%s (model FLOPs utilization %.3g%s); recompute %s%s; ZeRO stage %d%s\n",
		   plan_utilization(p), tr->utilization > 0 ? "" : " (default, an assumption; set training.utilization)",
		   plan_utilization(p) / mm->hw_factor, mm->hw_factor > 1 ? ": the forward pass runs again" : "",
		   recompute_name(plan_recompute(p)), tr->recompute != RC_UNSET ? "" : " (default; training.recompute)",
		   tr->zero_stage, tr->zero_stage ? "" : " (training.zero_stage)");
	buf_printf(b, "  formulas         training FLOPs = model FLOPs per token x tokens%s; per token ",
		   mm->hw_factor > 1 ? " x 4/3 (full recomputation)" : "");
	if (mm->flops.per_token > 0)
		buf_printf(b, "%.4g", mm->flops.per_token);
	else
		buf_puts(b, "unknown (give model.parameters, or layers, hidden_size and attention_heads)");
	if (mm->flops_with_attention)
		buf_printf(b, " (%.4g of it attention over %d tokens)", mm->flops.attention, m->seq_length);
	buf_printf(b, ";\n                   model states per rank: %s;\n", bytes.how);
	buf_puts(b, "                   psi = the rank's slice: dense/(TP x PP) with the first stage's embedding,\n"
		    "                   + experts/(EP x TP x PP), the experts' shards over DP x CP / EP ranks;\n"
		    "                   activations per rank (sequence parallel): L x s b h x\n"
		    "                   (34 + 5 a s/h) / TP without, 34 / TP selective, 2 / TP full recomputation\n");
	text_formula_sources(p, b);
}

static void text_memory(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	int stage = p->job->training->zero_stage;

	buf_puts(b, "  memory/rank      ");
	if (e->params_rank < 0) {
		buf_puts(b, "unknown: give model.parameters\n                   ");
	} else {
		buf_printf(b, "psi %.4g parameters", e->params_rank);
		if (e->moe.from == MOE_UNSPLIT)
			buf_puts(b, " (experts not split by EP: an upper bound)");
		else if (e->moe.from != MOE_DENSE)
			buf_printf(b, " (dense %.4g + experts %.4g; experts' ZeRO shards over %.4g ranks)",
				   e->shards.dense, e->shards.expert, e->shards.expert_dp);
		buf_puts(b, "; weights ");
		out_gib(b, e->weights);
		buf_puts(b, " + gradients ");
		out_gib(b, e->grads);
		buf_puts(b, " + optimizer ");
		out_gib(b, e->optim);
		buf_printf(b, " = %.2f GiB at ZeRO %d (stages 0-3: %.2f, %.2f, %.2f, %.2f GiB)\n",
			   e->states[stage] / PLAN_GIB, stage, e->states[0] / PLAN_GIB, e->states[1] / PLAN_GIB,
			   e->states[2] / PLAN_GIB, e->states[3] / PLAN_GIB);
		buf_puts(b, "                   ");
	}
	buf_printf(b, "activations %s ", recompute_name(plan_recompute(p)));
	out_gib(b, e->act_used);
	if (e->act_used < 0)
		buf_puts(b, " (needs model.layers, hidden_size, seq_length; heads without recomputation)");
	buf_puts(b, " (none ");
	out_gib(b, e->act[RC_NONE]);
	buf_puts(b, ", selective ");
	out_gib(b, e->act[RC_SELECTIVE]);
	buf_puts(b, ", full ");
	out_gib(b, e->act[RC_FULL]);
	buf_puts(b, ")\n                   total ");
	out_gib(b, e->total);
	buf_puts(b, " of ");
	out_gib(b, e->capacity);
	if (e->capacity < 0)
		buf_printf(b, " (the catalog has no accelerator memory for %s)", e->it->name);
	buf_printf(b, " per rank: %s\n", e->fits == 1 ? "fits" : e->fits == 0 ? "does NOT fit" : "fit unknown");
}

static void fraction(struct buf *b, double seconds, double step)
{
	if (seconds < 0)
		buf_puts(b, "unknown");
	else if (step > 0)
		buf_printf(b, "%.3g s = %.1f%% of the step", seconds, 100 * seconds / step);
	else
		buf_printf(b, "%.3g s", seconds);
}

static void text_all_to_all(const struct plan_est *e, struct buf *b)
{
	if (e->ep <= 1 || e->moe.experts <= 1)
		return;
	buf_puts(b, "  all-to-all       ");
	if (e->a2a.bytes < 0) {
		buf_puts(b, "unknown: give model.experts_per_token (and layers, hidden_size, seq_length)\n");
		return;
	}
	buf_printf(b, "%.4g GB per rank per step (top-%d, %d of the %d EP peers on its node); over EFA %.4g GB: ",
		   e->a2a.bytes / 1e9, e->moe.topk, e->a2a.peers_in_node, e->ep, e->a2a.efa_bytes / 1e9);
	fraction(b, e->a2a_seconds, e->step_seconds);
	buf_putc(b, '\n');
}

static void text_time(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	buf_puts(b, "  throughput       ");
	if (e->achieved < 0 && e->it->peak_note)
		buf_printf(b, "unknown: %s\n", e->it->peak_note);
	else if (e->achieved < 0)
		buf_printf(b, "unknown: the catalog has no peak BF16 throughput for %s\n",
			   e->it->accel_model ? e->it->accel_model : e->it->name);
	else
		buf_printf(b, "%d x %.4g TFLOPS peak x %.3g = %.4g PFLOP/s achieved\n", e->accels,
			   e->peak / 1e12, plan_utilization(p), e->achieved / 1e15);
	buf_puts(b, "  time             step ");
	if (e->step_seconds < 0)
		buf_puts(b, "unknown");
	else if (e->exposed_seconds > 0)
		buf_printf(b, "%.3g s (compute %.3g s + communication that cannot overlap %.3g s)", e->step_seconds,
			   e->compute_step_seconds, e->exposed_seconds);
	else
		buf_printf(b, "%.3g s", e->step_seconds);
	buf_puts(b, "; run ");
	if (e->run_seconds < 0)
		buf_puts(b, p->job->model->tokens > 0 ? "unknown" : "unknown: give model.tokens");
	else
		buf_printf(b, "%.1f days (%.4g FLOPs, %.4g steps)", e->run_seconds / 86400,
			   e->total_flops, e->steps);
	buf_puts(b, "\n  network/step     ");
	if (e->it->efa == TRI_NO && e->nodes > 1)
		buf_printf(b, "%s has no EFA: %d nodes cannot train together; ", e->it->name, e->nodes);
	else if (e->net_bytes_per_s < 0 && e->nodes > 1)
		buf_printf(b, "EFA bandwidth of %s unknown; ", e->it->name);
	else if (e->net_bytes_per_s < 0)
		buf_puts(b, "one node, no EFA traffic; ");
	else
		buf_printf(b, "%.4g GB/s per rank (%d Gbps / %d); ", e->net_bytes_per_s / 1e9,
			   e->it->efa_gbps, e->ppn);
	buf_puts(b, "gradients ");
	if (e->grad_efa_bytes >= 0)
		buf_printf(b, "%.4g GB over EFA ", e->grad_efa_bytes / 1e9);
	fraction(b, e->grad_seconds, e->step_seconds);
	buf_puts(b, "; pipeline ");
	fraction(b, e->pp_seconds, e->step_seconds);
	buf_printf(b, "; bubble %.1f%% of the step\n", 100 * e->bubble);
	text_all_to_all(e, b);
}

/* Where a rate came from, or why there is none; a rate of another
 * region is a figure of its own, never the row's. */
void plan_rate_text(const struct plan_rate *r, struct buf *b)
{
	long age;

	switch (r->from) {
	case RATE_CATALOG:
	case RATE_IMPORTED:
		age = prices_age_days(r->price.as_of);
		buf_printf(b, "%s, %s, as of %s", r->from == RATE_IMPORTED ? "imported" : "built in",
			   r->region, r->price.as_of[0] ? r->price.as_of : "an unknown date");
		if (age >= 0)
			buf_printf(b, " (%ld day%s old)", age, age == 1 ? "" : "s");
		if (r->kind == PRICE_RESERVED) {
			char offer[96];
			plan_rate_offer(r, offer, sizeof offer);
			buf_printf(b, ", %s", offer);
		}
		if (r->kind == PRICE_SPOT && r->price.zones > 1)
			buf_printf(b, ", the highest of %d zones' latest (lowest $%.6g)", r->price.zones,
				   r->price.low_usd);
		if (r->from == RATE_IMPORTED)
			buf_printf(b, "; %s, %s, imported %s", r->price.source ? r->price.source : "?",
				   r->price.format ? r->price.format : "?", r->price.imported);
		break;
	case RATE_DISCOUNT:
		buf_printf(b, "on demand less %.3g%%: the assumption %s", 100 * r->discount, r->assumption);
		break;
	case RATE_USER:
		buf_printf(b, "your own price, %s", r->assumption);
		break;
	case RATE_NONE: {
		char why[200];
		plan_rate_why(r, why, sizeof why);
		buf_puts(b, why);
		break;
	}
	}
	if (r->from == RATE_NONE && r->other_usd >= 0)
		buf_printf(b, "; nearest region with one: %s at $%.6g/node-hour, a separate figure not used here",
			   r->other_region, r->other_usd);
}

static void text_cost(const struct plan_est *e, struct buf *b)
{
	buf_puts(b, "  run length       ");
	if (e->run_hours < 0)
		buf_puts(b, "unknown: give --hours, or model.tokens for an estimate\n");
	else
		buf_printf(b, "%.0f h (%s)\n", e->run_hours, e->hours_from_flag ? "--hours" : "estimate");
	for (int k = 0; k < PRICE__COUNT; k++) {
		buf_printf(b, "  %-16s ", plan_price_name((enum plan_price)k));
		if (e->hour[k] < 0) {
			buf_puts(b, "unknown: ");
		} else {
			out_money(b, e->hour[k], "unknown");
			buf_puts(b, "/h, run ");
			out_money(b, e->run_cost[k], "unknown");
			buf_puts(b, ", ");
			out_money(b, e->usd_per_pflop_hour[k], "unknown");
			buf_puts(b, " per PFLOP-hour delivered (");
		}
		plan_rate_text(&e->rate[k], b);
		buf_puts(b, e->hour[k] < 0 ? "\n" : ")\n");
	}
}

static void src_line(struct buf *b, const char *what, const char *src)
{
	buf_printf(b, "    %-14s %s\n", what, src ? src : "unknown (not in the catalog)");
}

/* A figure's source, marked when the figure is DERIVED (computed from
 * what the source states, not stated for the instance). */
static void fig_line(struct buf *b, const char *what, const struct instance_type *it,
		     enum catalog_fig f, const char *src)
{
	if (src && catalog_fig_derived(it, f))
		buf_printf(b, "    %-14s DERIVED from %s\n", what, src);
	else
		src_line(b, what, src);
}

static void text_sources(const struct plan_est *e, struct buf *b)
{
	const struct instance_type *it = e->it;
	buf_puts(b, "  sources\n");
	fig_line(b, "peak BF16", it, CATALOG_FIG_PEAK, it->peak_source);
	fig_line(b, "memory", it, catalog_is_neuron(it) ? CATALOG_FIG_ACCEL_MEM : CATALOG_FIG_GPU_MEM,
		 e->capacity_source);
	fig_line(b, "EFA bandwidth", it, CATALOG_FIG_EFA_GBPS, it->efa_gbps_source);
	if (it->derived_note)
		buf_printf(b, "    %-14s %s\n", "derived", it->derived_note);
	for (int k = 0; k < PRICE__COUNT; k++) {
		const struct plan_rate *r = &e->rate[k];
		if (r->from == RATE_CATALOG)
			buf_printf(b, "    %-14s $%.6g/h in %s, as of %s: %s\n", plan_price_name((enum plan_price)k),
				   r->usd, r->region, r->price.as_of, r->source);
		else if (r->from == RATE_IMPORTED)
			buf_printf(b, "    %-14s $%.6g/h in %s, as of %s%s%s: imported %s from %s (%s)\n",
				   plan_price_name((enum plan_price)k), r->usd, r->region, r->price.as_of,
				   r->price.effective[0] ? ", effective " : "", r->price.effective,
				   r->price.imported, r->source, r->price.format ? r->price.format : "?");
		else if (r->from == RATE_USER)
			buf_printf(b, "    %-14s $%.6g/h: your own price (%s)\n", plan_price_name((enum plan_price)k),
				   r->usd, r->assumption);
		else if (r->other_usd >= 0)
			buf_printf(b, "    %-14s none in %s; $%.6g/h in %s, valid %s (not used): %s\n",
				   plan_price_name((enum plan_price)k), r->region, r->other_usd,
				   r->other_region, r->other_date, r->other_source);
		else if (r->from == RATE_NONE)
			src_line(b, plan_price_name((enum plan_price)k), NULL);
	}
}

static void text_row(const struct plan *p, const struct plan_row *r, struct buf *b)
{
	const struct plan_est *e = &r->est;
	const struct instance_type *it = r->it;
	char layout[96];
	buf_printf(b, "%s%s%s: ", it->name, r->own ? " (the spec's type)" : "",
		   it->provisional ? " (provisional: not yet confirmed by EC2; DERIVED figures are marked below)" : "");
	if (r->status == ROW_NOT_IN_TIME) {
		buf_printf(b, "searched from %d nodes: %s\n", r->nodes, r->why);
		return;
	}
	if (r->status == ROW_NO_PEAK || r->status == ROW_NO_ACCEL || r->status == ROW_NO_RUN) {
		buf_puts(b, r->status == ROW_NO_PEAK ? (r->why ? r->why : "no sourced peak: cannot size") : "");
		if (r->status == ROW_NO_PEAK && it->peak_note)
			buf_printf(b, " (%s)", it->peak_note);
		buf_puts(b, r->status == ROW_NO_PEAK ? "\n"
			    : r->status == ROW_NO_RUN ? "no run length to meet the deadline with: give model.tokens\n"
			    : "no accelerators: the layout cannot run here\n");
		return;
	}
	if (e->ppn > 0)
		buf_printf(b, "%d nodes x %d processes", e->nodes, e->ppn);
	else
		buf_printf(b, "%d nodes x an unknown number of processes", e->nodes);
	if (!e->whole_nodes && e->ppn > 0)
		buf_printf(b, " (%d ranks leave the last node part-empty)", e->ranks);
	buf_printf(b, ", %d x %s", e->accels, it->accel_model ? it->accel_model : "accelerator");
	plan_row_layout(r, layout, sizeof layout);
	if (r->status == ROW_NO_LAYOUT)
		buf_printf(b, "; no valid layout here: %s\n", r->why);
	else
		buf_printf(b, "; %s%s%s\n", layout, r->layout_changed ? " (not the spec's degrees)" : "",
			   r->global_changed ? ", global batch changed to divide" : "");
	if (r->status == ROW_OK)
		text_memory(p, e, b);
	text_time(p, e, b);
	if (r->own && r->nodes == p->nodes)
		plan_fleet_loss_text(p, e, b);
	text_cost(e, b);
	text_sources(e, b);
}

void plan_report_text(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	struct plan_compare c;
	struct buf b = BUF_INIT;

	plan_brief_text(p, out);
	if (rq->verbose) {
		fputc('\n', out);
		plan_print_text(p, out, rq->hours);
		struct plan_bill bill;
		plan_bill_derive(p, &bill);
		plan_bill_text(p, &bill, &b);
		text_model(p, &b);
	}
	if (plan_compare_run(p, rq, &c)) {
		for (size_t i = 0; rq->verbose && i < c.n; i++)
			text_row(p, &c.rows[i], &b);
		if (c.n > 1 || rq->deadline_days > 0)
			plan_compare_text(p, &c, &b);
		plan_compare_free(&c);
	}
	if (rq->tco)
		plan_tco_text(p, rq->tco, &b);
	if (b.p)
		fputs(b.p, out);
	buf_free(&b);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_memory(const struct plan_est *e, struct buf *b)
{
	out_jobj(b, "memory");
	out_jnum(b, "parametersPerRank", e->params_rank);
	out_jnum(b, "denseParametersPerRank", e->shards.dense);
	out_jnum(b, "expertParametersPerRank", e->moe.from == MOE_UNSPLIT ? -1 : e->shards.expert);
	out_jnum(b, "expertDataParallel", e->moe.from == MOE_DENSE ? -1 : e->shards.expert_dp);
	out_jnum(b, "weightsBytes", e->weights);
	out_jnum(b, "gradientsBytes", e->grads);
	out_jnum(b, "optimizerBytes", e->optim);
	out_jarr(b, "zeroStageBytes");
	for (int i = 0; i < 4; i++) {
		if (i)
			buf_putc(b, ',');
		if (e->states[i] >= 0)
			buf_printf(b, "%.10g", e->states[i]);
		else
			buf_puts(b, "null");
	}
	buf_putc(b, ']');
	out_jobj(b, "activationsBytes");
	out_jnum(b, "none", e->act[RC_NONE]);
	out_jnum(b, "selective", e->act[RC_SELECTIVE]);
	out_jnum(b, "full", e->act[RC_FULL]);
	buf_putc(b, '}');
	out_jnum(b, "totalBytes", e->total);
	out_jnum(b, "capacityBytes", e->capacity);
	out_jstr(b, "capacitySource", e->capacity_source);
	out_jtri(b, "fits", e->fits);
	out_jbool(b, "upperBound", e->moe.from == MOE_UNSPLIT);
	buf_putc(b, '}');
}

static void json_network(const struct plan_est *e, struct buf *b)
{
	const struct instance_type *it = e->it;
	double step = e->step_seconds;
	out_jobj(b, "network");
	out_jnum(b, "efaGbps", it->efa_gbps >= 0 ? it->efa_gbps : -1);
	out_jstr(b, "efaSource", it->efa_gbps_source);
	out_jnum(b, "bytesPerSecondPerRank", e->net_bytes_per_s);
	out_jnum(b, "gradientBytesPerRank", e->grad_bytes);
	out_jnum(b, "gradientEfaBytesPerRank", e->grad_efa_bytes);
	out_jnum(b, "gradientSeconds", e->grad_seconds);
	out_jnum(b, "computeStepSeconds", e->compute_step_seconds);
	out_jnum(b, "communicationSeconds", e->comm_seconds);
	out_jnum(b, "exposedCommunicationSeconds", e->exposed_seconds);
	out_jnum(b, "gradientFraction", e->grad_seconds >= 0 && step > 0 ? e->grad_seconds / step : -1);
	out_jnum(b, "pipelineBytesPerRank", e->pp_bytes);
	out_jnum(b, "pipelineSeconds", e->pp_seconds);
	out_jnum(b, "pipelineFraction", e->pp_seconds >= 0 && step > 0 ? e->pp_seconds / step : -1);
	out_jnum(b, "allToAllBytesPerRank", e->a2a.bytes);
	out_jnum(b, "allToAllEfaBytesPerRank", e->a2a.efa_bytes);
	out_jint(b, "allToAllPeersInNode", e->a2a.peers_in_node);
	out_jnum(b, "allToAllSeconds", e->a2a_seconds);
	out_jnum(b, "allToAllFraction", e->a2a_seconds >= 0 && step > 0 ? e->a2a_seconds / step : -1);
	out_jnum(b, "bubbleFraction", e->bubble);
	buf_putc(b, '}');
}

void plan_rate_json(const struct plan_rate *r, struct buf *b)
{
	out_jnum(b, "usdPerNodeHour", r->usd);
	out_jstr(b, "from", plan_rate_from_name(r->from));
	out_jstr(b, "region", r->region);
	bool data = r->from == RATE_CATALOG || r->from == RATE_IMPORTED;
	out_jstr(b, "source", data ? r->source : NULL);
	out_jstr(b, "date", data ? r->price.as_of : NULL);
	out_jnum(b, "ageDays", data ? (double)prices_age_days(r->price.as_of) : -1);
	out_jstr(b, "effective", data && r->price.effective[0] ? r->price.effective : NULL);
	out_jstr(b, "imported", r->from == RATE_IMPORTED ? r->price.imported : NULL);
	out_jstr(b, "format", r->from == RATE_IMPORTED ? r->price.format : NULL);
	if (data && r->kind == PRICE_RESERVED) {
		char offer[96];
		plan_rate_offer(r, offer, sizeof offer);
		out_jstr(b, "offer", offer);
	}
	if (data && r->kind == PRICE_SPOT) {
		out_jint(b, "zones", r->price.zones);
		out_jnum(b, "lowUsdPerNodeHour", r->price.zones > 0 ? r->price.low_usd : -1);
	}
	out_jnum(b, "discount", r->assumption && r->from != RATE_USER ? r->discount : -1);
	out_jstr(b, "assumption", r->assumption);
	char why[200];
	plan_rate_why(r, why, sizeof why);
	out_jstr(b, "why", r->from == RATE_NONE ? why : NULL);
	if (r->other_usd < 0) {
		out_jstr(b, "otherRegion", NULL);
		return;
	}
	out_jobj(b, "otherRegion");
	out_jstr(b, "region", r->other_region);
	out_jnum(b, "usdPerNodeHour", r->other_usd);
	out_jstr(b, "source", r->other_source);
	out_jstr(b, "date", r->other_date);
	out_jbool(b, "used", false);
	buf_putc(b, '}');
}

static void json_cost(const struct plan_est *e, struct buf *b)
{
	out_jobj(b, "cost");
	out_jnum(b, "runHours", e->run_hours);
	out_jstr(b, "runHoursFrom", e->run_hours < 0 ? NULL : e->hours_from_flag ? "--hours" : "estimate");
	for (int k = 0; k < PRICE__COUNT; k++) {
		out_jobj(b, plan_price_key((enum plan_price)k));
		plan_rate_json(&e->rate[k], b);
		out_jnum(b, "usdPerHour", e->hour[k]);
		out_jnum(b, "usdPerRun", e->run_cost[k]);
		out_jnum(b, "usdPerPflopHour", e->usd_per_pflop_hour[k]);
		buf_putc(b, '}');
	}
	buf_putc(b, '}');
}

void plan_est_json(const struct plan_est *e, struct buf *b)
{
	const struct instance_type *it = e->it;
	out_jstr(b, "instance", it->name);
	out_jstr(b, "provisional", it->provisional);
	out_jarr(b, "derivedFigures");
	for (int f = 0, n = 0; f < CATALOG_FIG__COUNT; f++)
		if (catalog_fig_derived(it, (enum catalog_fig)f))
			buf_printf(b, "%s\"%s\"", n++ ? "," : "", catalog_fig_name((enum catalog_fig)f));
	buf_putc(b, ']');
	out_jstr(b, "derivedNote", it->derived_note);
	out_jbool(b, "own", e->own);
	out_jint(b, "nodes", e->nodes);
	/* null: no source gives the type's processes per node */
	out_jnum(b, "processesPerNode", e->ppn > 0 ? e->ppn : -1);
	out_jnum(b, "ranks", e->ranks > 0 ? e->ranks : -1);
	out_jint(b, "accelerators", e->accels);
	out_jbool(b, "wholeNodes", e->whole_nodes);
	json_memory(e, b);
	out_jobj(b, "time");
	buf_printf(b, "\"flopsPerParameterToken\":%g", e->factor);
	out_jnum(b, "activeParameters", e->moe.active);
	out_jnum(b, "peakFlopsPerAccelerator", e->peak);
	out_jstr(b, "peakSource", it->peak_source);
	out_jnum(b, "achievedFlops", e->achieved);
	out_jnum(b, "totalFlops", e->total_flops);
	out_jnum(b, "stepSeconds", e->step_seconds);
	out_jnum(b, "steps", e->steps);
	out_jnum(b, "runSeconds", e->run_seconds);
	out_jnum(b, "runDays", e->run_seconds >= 0 ? e->run_seconds / 86400 : -1);
	buf_putc(b, '}');
	json_network(e, b);
	json_cost(e, b);
}

static void json_model(const struct plan *p, struct buf *b)
{
	const struct spec_model *m = p->job->model;
	const struct plan_model *mm = &p->model;
	struct plan_moe moe;
	plan_moe_split(p, &moe);
	out_jobj(b, "model");
	out_jnum(b, "parameters", mm->parameters);
	out_jnum(b, "activeParameters", moe.active);
	out_jbool(b, "activeDerived", moe.active_derived);
	out_jbool(b, "countedFromShape", mm->from_shape);
	out_jstr(b, "accounting", mm->from_shape ? mm->counts.accounting : NULL);
	out_jnum(b, "statedParameters", m->parameters > 0 ? m->parameters : -1);
	out_jnum(b, "statedActiveParameters", m->active_parameters > 0 ? m->active_parameters : -1);
	/* the dense FFN: none in a model whose every layer is an expert layer */
	out_jint(b, "ffnHiddenSize", (int)(mm->shape.experts > 1 ? mm->shape.ffn : fw_ffn_size(&mm->shape)));
	out_jint(b, "vocabSize", m->vocab_size);
	out_jnum(b, "paddedVocabSize", mm->from_shape ? mm->counts.padded_vocab : -1);
	out_jbool(b, "tiedEmbeddings", m->tied_embeddings);
	out_jnum(b, "flopsPerToken", mm->flops.per_token);
	out_jnum(b, "attentionFlopsPerToken", mm->flops_with_attention ? mm->flops.attention : -1);
	out_jstr(b, "flopsConvention", mm->flops.convention);
	out_jnum(b, "trainSamples", mm->samples > 0 ? (double)mm->samples : -1);
	out_jnum(b, "trainSteps", mm->steps > 0 ? (double)mm->steps : -1);
	out_jnum(b, "saveInterval", mm->save_interval > 0 ? (double)mm->save_interval : -1);
	out_jnum(b, "tokens", m->tokens > 0 ? m->tokens : -1);
	out_jint(b, "layers", m->layers);
	out_jint(b, "hiddenSize", m->hidden_size);
	out_jint(b, "attentionHeads", m->attention_heads);
	out_jint(b, "seqLength", m->seq_length);
	out_jint(b, "experts", m->experts);
	out_jint(b, "expertsPerToken", m->experts_per_token);
	out_jstr(b, "expertSplit", plan_moe_from_name(moe.from));
	out_jnum(b, "expertParameters", moe.from == MOE_UNSPLIT ? -1 : moe.expert_params);
	out_jnum(b, "denseParameters", moe.dense_params);
	out_jstr(b, "expertSplitNeeds", moe.why);
	buf_putc(b, '}');
}

void plan_report_json(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	const struct spec_training *tr = p->job->training;
	struct buf b = BUF_INIT;
	struct plan_compare c;

	buf_puts(&b, "{\"schemaVersion\":1,");
	plan_json_fields(p, &b, rq->hours);
	json_model(p, &b);
	out_jobj(&b, "assumptions");
	out_jnum(&b, "utilization", plan_utilization(p));
	out_jbool(&b, "utilizationDefault", !(tr->utilization > 0));
	out_jstr(&b, "utilizationConvention", "hardware FLOPs of peak dense BF16: the framework's model FLOPs, with the forward pass again under full recomputation");
	out_jnum(&b, "modelFlopsUtilization", plan_utilization(p) / p->model.hw_factor);
	out_jstr(&b, "recompute", recompute_name(plan_recompute(p)));
	out_jbool(&b, "recomputeDefault", tr->recompute == RC_UNSET);
	out_jint(&b, "zeroStage", tr->zero_stage);
	out_jbool(&b, "gatedFfn", p->job->model->gated_ffn);
	out_jbool(&b, "gatedFfnDefault", !p->job->model->gated_ffn_given);
	buf_putc(&b, '}');
	json_formula_sources(p, &b);
	struct plan_bill bill;
	plan_bill_derive(p, &bill);
	plan_bill_json(p, &bill, &b);
	if (plan_compare_run(p, rq, &c)) {
		plan_compare_json(&c, &b);
		plan_compare_free(&c);
	}
	if (rq->tco)
		plan_tco_json(p, rq->tco, &b);
	buf_puts(&b, "}\n");
	fputs(b.p, out);
	buf_free(&b);
}
