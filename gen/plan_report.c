/* `trainforge plan`: the layout summary, then for each instance type its
 * memory fit, time, network share and cost, each number with its formula
 * or its source; unknown figures are shown as unknown, with what would
 * make them known. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define GIB 1073741824.0

/* The types to report: the request's, or the spec's own. */
static size_t report_types(const struct plan *p, const struct plan_request *rq,
			   const struct instance_type *const **types)
{
	static const struct instance_type *own[1];
	if (rq->ntypes) {
		*types = rq->types;
		return rq->ntypes;
	}
	own[0] = p->it;
	*types = own;
	return 1;
}

static double utilization(const struct plan *p)
{
	double u = p->job->training->utilization;
	return u > 0 ? u : PLAN_DEFAULT_UTILIZATION;
}

static enum recompute recompute(const struct plan *p)
{
	enum recompute r = p->job->training->recompute;
	return r != RC_UNSET ? r : PLAN_DEFAULT_RECOMPUTE;
}

static void gib(struct buf *b, double bytes)
{
	if (bytes < 0)
		buf_puts(b, "unknown");
	else
		buf_printf(b, "%.2f GiB", bytes / GIB);
}

static void money(struct buf *b, double usd)
{
	if (usd < 0)
		buf_puts(b, "missing");
	else if (usd >= 1000)
		buf_printf(b, "$%.0f", usd);
	else
		buf_printf(b, "$%.2f", usd);
}

static void count(struct buf *b, double v)
{
	if (v <= 0)
		buf_puts(b, "not given");
	else
		buf_printf(b, "%.4g", v);
}

static void text_model(const struct plan *p, struct buf *b)
{
	const struct spec_model *m = p->job->model;
	const struct spec_training *tr = p->job->training;

	buf_puts(b, "  model            parameters ");
	count(b, m->parameters);
	if (m->active_parameters > 0)
		buf_printf(b, " (%.4g active per token)", m->active_parameters);
	buf_puts(b, ", tokens ");
	count(b, m->tokens);
	buf_printf(b, ", layers %d, hidden %d, heads %d, sequence %d (0: not given)\n", m->layers,
		   m->hidden_size, m->attention_heads, m->seq_length);
	buf_printf(b, "  assumptions      utilization %.3g of peak dense BF16%s; recompute %s%s; ZeRO stage %d%s\n",
		   utilization(p), tr->utilization > 0 ? "" : " (default; set training.utilization)",
		   recompute_name(recompute(p)), tr->recompute != RC_UNSET ? "" : " (default; training.recompute)",
		   tr->zero_stage, tr->zero_stage ? "" : " (training.zero_stage)");
	buf_puts(b, "  formulas         training FLOPs = 6 x active parameters x tokens (8 with full recomputation);\n"
		    "                   model states per rank (ZeRO, 16 bytes/parameter for mixed-precision Adam):\n"
		    "                   0: 16 psi, 1: 4 psi + 12 psi/DP, 2: 2 psi + 14 psi/DP, 3: 16 psi/DP, psi = P/(TP x PP);\n"
		    "                   activations per rank (Korthikanti et al. 2022, sequence parallel): L x s b h x\n"
		    "                   (34 + 5 a s/h) / TP without, 34 / TP selective, 2 / TP full recomputation\n");
}

static void text_memory(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	int stage = p->job->training->zero_stage;

	buf_puts(b, "  memory/rank      ");
	if (e->params_rank < 0) {
		buf_puts(b, "unknown: give model.parameters\n");
	} else {
		buf_printf(b, "psi %.4g parameters%s; weights ", e->params_rank,
			   p->ep > 1 ? " (experts not split by EP: an upper bound)" : "");
		gib(b, e->weights);
		buf_puts(b, " + gradients ");
		gib(b, e->grads);
		buf_puts(b, " + optimizer ");
		gib(b, e->optim);
		buf_printf(b, " = %.2f GiB at ZeRO %d (stages 0-3: %.2f, %.2f, %.2f, %.2f GiB)\n",
			   e->states[stage] / GIB, stage, e->states[0] / GIB, e->states[1] / GIB,
			   e->states[2] / GIB, e->states[3] / GIB);
		buf_puts(b, "                   ");
	}
	buf_printf(b, "activations %s ", recompute_name(recompute(p)));
	gib(b, e->act_used);
	if (e->act_used < 0)
		buf_puts(b, " (needs model.layers, hidden_size, seq_length; heads without recomputation)");
	buf_puts(b, " (none ");
	gib(b, e->act[RC_NONE]);
	buf_puts(b, ", selective ");
	gib(b, e->act[RC_SELECTIVE]);
	buf_puts(b, ", full ");
	gib(b, e->act[RC_FULL]);
	buf_puts(b, ")\n                   total ");
	gib(b, e->total);
	buf_puts(b, " of ");
	gib(b, e->capacity);
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

static void text_time(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	buf_puts(b, "  throughput       ");
	if (e->achieved < 0)
		buf_printf(b, "unknown: the catalog has no peak BF16 throughput for %s\n",
			   e->it->accel_model ? e->it->accel_model : e->it->name);
	else
		buf_printf(b, "%d x %.4g TFLOPS peak x %.3g = %.4g PFLOP/s achieved\n", e->accels,
			   e->peak / 1e12, utilization(p), e->achieved / 1e15);
	buf_puts(b, "  time             step ");
	if (e->step_seconds < 0)
		buf_puts(b, "unknown");
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
	fraction(b, e->grad_seconds, e->step_seconds);
	buf_puts(b, "; pipeline ");
	fraction(b, e->pp_seconds, e->step_seconds);
	buf_printf(b, "; bubble %.1f%% of the step\n", 100 * e->bubble);
}

static void text_cost(const struct plan_est *e, struct buf *b)
{
	buf_puts(b, "  cost             ");
	for (int k = 0; k < PRICE__COUNT; k++) {
		buf_printf(b, "%s%s ", k ? "; " : "", plan_price_name((enum plan_price)k));
		money(b, e->hour[k]);
		if (e->hour[k] >= 0)
			buf_puts(b, "/h");
	}
	if (e->spot_assumed_hour >= 0) {
		buf_puts(b, " (spot at the spec's assumed capacity.spot_discount: ");
		money(b, e->spot_assumed_hour);
		buf_puts(b, "/h)");
	}
	buf_puts(b, "\n  run cost         ");
	if (e->run_hours < 0) {
		buf_puts(b, "unknown: give --hours, or model.tokens for an estimate\n");
	} else {
		buf_printf(b, "%.0f h (%s): ", e->run_hours, e->hours_from_flag ? "--hours" : "estimate");
		for (int k = 0; k < PRICE__COUNT; k++) {
			buf_printf(b, "%s%s ", k ? "; " : "", plan_price_name((enum plan_price)k));
			money(b, e->run_cost[k]);
		}
		buf_putc(b, '\n');
	}
	buf_puts(b, "  per PFLOP-hour   ");
	money(b, e->usd_per_pflop_hour);
	buf_puts(b, e->usd_per_pflop_hour >= 0 ? " on demand, delivered at the utilization\n" : " (needs a price and a peak)\n");
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

static void text_sources(const struct plan *p, const struct plan_est *e, struct buf *b)
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
		const char *src, *date, *region;
		double price = plan_price_of(it, (enum plan_price)k, &src, &date, &region);
		if (price < 0) {
			src_line(b, plan_price_name((enum plan_price)k), NULL);
			continue;
		}
		buf_printf(b, "    %-14s $%.6g/h in %s, valid %s: %s\n", plan_price_name((enum plan_price)k),
			   price, region, date, src);
	}
	const char *region = p->job->cluster->region;
	const struct catalog_price *cb = catalog_capacity_block(it, region, NULL);
	if (cb)
		buf_printf(b, "    %-14s $%.6g/h in %s, valid %s: %s\n", "capacity block", cb->usd_per_hour,
			   cb->region, cb->date, cb->source);
	else if (it->capacity_block_count)
		buf_printf(b, "    %-14s none in %s (the catalog has rates in %d other regions)\n",
			   "capacity block", region, it->capacity_block_count);
	else
		src_line(b, "capacity block", NULL);
}

static void text_estimate(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	const struct instance_type *it = e->it;
	buf_printf(b, "%s%s: %d nodes x %d processes", it->name, e->own ? " (the spec's type)" : "",
		   e->nodes, e->ppn);
	if (e->ppn <= 0)
		buf_puts(b, " (no accelerators: the layout cannot run here)");
	else if (!e->whole_nodes)
		buf_printf(b, " (%d ranks leave the last node part-empty)", e->ranks);
	buf_printf(b, ", %d x %s\n", e->accels, it->accel_model ? it->accel_model : "accelerator");
	text_memory(p, e, b);
	text_time(p, e, b);
	if (e->own)
		plan_fleet_loss_text(p, e, b);
	text_cost(e, b);
	text_sources(p, e, b);
}

static void text_table(const struct plan_est *es, size_t n, struct buf *b)
{
	buf_puts(b, "comparison (on-demand; - unknown)\n");
	buf_printf(b, "  %-18s %6s %10s %10s %5s %9s %9s %10s %11s %10s\n", "type", "nodes", "mem GiB",
		   "cap GiB", "fits", "PFLOP/s", "run days", "$/h", "run $", "$/PFLOP-h");
	for (size_t i = 0; i < n; i++) {
		const struct plan_est *e = &es[i];
		char c[8][32];
#define CELL(k, ok, ...) do { if (ok) snprintf(c[k], sizeof c[k], __VA_ARGS__); else snprintf(c[k], sizeof c[k], "-"); } while (0)
		CELL(0, e->total >= 0, "%.1f", e->total / GIB);
		CELL(1, e->capacity >= 0, "%.1f", e->capacity / GIB);
		CELL(2, e->fits >= 0, "%s", e->fits ? "yes" : "no");
		CELL(3, e->achieved >= 0, "%.4g", e->achieved / 1e15);
		CELL(4, e->run_seconds >= 0, "%.1f", e->run_seconds / 86400);
		CELL(5, e->hour[0] >= 0, "%.2f", e->hour[0]);
		CELL(6, e->run_cost[0] >= 0, "%.0f", e->run_cost[0]);
		CELL(7, e->usd_per_pflop_hour >= 0, "%.2f", e->usd_per_pflop_hour);
#undef CELL
		buf_printf(b, "  %-18s %6d %10s %10s %5s %9s %9s %10s %11s %10s\n", e->it->name, e->nodes,
			   c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
	}
}

void plan_report_text(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	const struct instance_type *const *types;
	size_t n = report_types(p, rq, &types);
	struct plan_est *es = calloc(n, sizeof *es);
	struct buf b = BUF_INIT;

	plan_print_text(p, out, rq->hours);
	text_model(p, &b);
	for (size_t i = 0; i < n && es; i++) {
		plan_estimate(p, types[i], rq->hours, &es[i]);
		text_estimate(p, &es[i], &b);
	}
	if (n > 1 && es)
		text_table(es, n, &b);
	if (b.p)
		fputs(b.p, out);
	buf_free(&b);
	free(es);
}

/* ---- JSON --------------------------------------------------------------- */

static void jnum(struct buf *b, const char *key, double v)
{
	if (v >= 0 && isfinite(v))
		buf_printf(b, "\"%s\":%.10g", key, v);
	else
		buf_printf(b, "\"%s\":null", key);
}

static void jstr(struct buf *b, const char *key, const char *v)
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

static void json_estimate(const struct plan *p, const struct plan_est *e, struct buf *b)
{
	const struct instance_type *it = e->it;
	buf_putc(b, '{');
	jstr(b, "instance", it->name);
	buf_printf(b, ",\"own\":%s,\"nodes\":%d,\"processesPerNode\":%d,\"ranks\":%d,\"accelerators\":%d,\"wholeNodes\":%s",
		   e->own ? "true" : "false", e->nodes, e->ppn, e->ranks, e->accels,
		   e->whole_nodes ? "true" : "false");
	buf_putc(b, ',');
	jstr(b, "provisional", it->provisional);
	buf_puts(b, ",\"derivedFigures\":[");
	for (int f = 0, n = 0; f < CATALOG_FIG__COUNT; f++)
		if (catalog_fig_derived(it, (enum catalog_fig)f))
			buf_printf(b, "%s\"%s\"", n++ ? "," : "", catalog_fig_name((enum catalog_fig)f));
	buf_puts(b, "],");
	jstr(b, "derivedNote", it->derived_note);
	buf_puts(b, ",\"memory\":{");
	jnum(b, "parametersPerRank", e->params_rank);
	buf_putc(b, ',');
	jnum(b, "weightsBytes", e->weights);
	buf_putc(b, ',');
	jnum(b, "gradientsBytes", e->grads);
	buf_putc(b, ',');
	jnum(b, "optimizerBytes", e->optim);
	buf_puts(b, ",\"zeroStageBytes\":[");
	for (int i = 0; i < 4; i++) {
		if (i)
			buf_putc(b, ',');
		if (e->states[i] >= 0)
			buf_printf(b, "%.10g", e->states[i]);
		else
			buf_puts(b, "null");
	}
	buf_puts(b, "],\"activationsBytes\":{");
	jnum(b, "none", e->act[RC_NONE]);
	buf_putc(b, ',');
	jnum(b, "selective", e->act[RC_SELECTIVE]);
	buf_putc(b, ',');
	jnum(b, "full", e->act[RC_FULL]);
	buf_puts(b, "},");
	jnum(b, "totalBytes", e->total);
	buf_putc(b, ',');
	jnum(b, "capacityBytes", e->capacity);
	buf_putc(b, ',');
	jstr(b, "capacitySource", e->capacity_source);
	buf_printf(b, ",\"fits\":%s}", e->fits == 1 ? "true" : e->fits == 0 ? "false" : "null");
	buf_printf(b, ",\"time\":{\"flopsPerParameterToken\":%g,", e->factor);
	jnum(b, "peakFlopsPerAccelerator", e->peak);
	buf_putc(b, ',');
	jstr(b, "peakSource", it->peak_source);
	buf_putc(b, ',');
	jnum(b, "achievedFlops", e->achieved);
	buf_putc(b, ',');
	jnum(b, "totalFlops", e->total_flops);
	buf_putc(b, ',');
	jnum(b, "stepSeconds", e->step_seconds);
	buf_putc(b, ',');
	jnum(b, "steps", e->steps);
	buf_putc(b, ',');
	jnum(b, "runSeconds", e->run_seconds);
	buf_putc(b, ',');
	jnum(b, "runDays", e->run_seconds >= 0 ? e->run_seconds / 86400 : -1);
	buf_puts(b, "},\"network\":{");
	jnum(b, "efaGbps", it->efa_gbps >= 0 ? it->efa_gbps : -1);
	buf_putc(b, ',');
	jstr(b, "efaSource", it->efa_gbps_source);
	buf_putc(b, ',');
	jnum(b, "bytesPerSecondPerRank", e->net_bytes_per_s);
	buf_putc(b, ',');
	jnum(b, "gradientBytesPerRank", e->grad_bytes);
	buf_putc(b, ',');
	jnum(b, "gradientSeconds", e->grad_seconds);
	buf_putc(b, ',');
	jnum(b, "gradientFraction", e->grad_seconds >= 0 && e->step_seconds > 0 ? e->grad_seconds / e->step_seconds : -1);
	buf_putc(b, ',');
	jnum(b, "pipelineBytesPerRank", e->pp_bytes);
	buf_putc(b, ',');
	jnum(b, "pipelineSeconds", e->pp_seconds);
	buf_putc(b, ',');
	jnum(b, "pipelineFraction", e->pp_seconds >= 0 && e->step_seconds > 0 ? e->pp_seconds / e->step_seconds : -1);
	buf_putc(b, ',');
	jnum(b, "bubbleFraction", e->bubble);
	buf_puts(b, "},\"cost\":{");
	jnum(b, "runHours", e->run_hours);
	buf_printf(b, ",\"runHoursFrom\":%s", e->run_hours < 0 ? "null" : e->hours_from_flag ? "\"--hours\"" : "\"estimate\"");
	for (int k = 0; k < PRICE__COUNT; k++) {
		const char *src, *date, *region;
		double price = plan_price_of(it, (enum plan_price)k, &src, &date, &region);
		buf_printf(b, ",\"%s\":{", k == PRICE_ON_DEMAND ? "onDemand" : plan_price_name((enum plan_price)k));
		jnum(b, "usdPerNodeHour", price);
		buf_putc(b, ',');
		jnum(b, "usdPerHour", e->hour[k]);
		buf_putc(b, ',');
		jnum(b, "usdPerRun", e->run_cost[k]);
		buf_putc(b, ',');
		jstr(b, "source", src);
		buf_putc(b, ',');
		jstr(b, "date", date);
		buf_putc(b, ',');
		jstr(b, "region", region);
		buf_putc(b, '}');
	}
	const struct catalog_price *cb = catalog_capacity_block(it, p->job->cluster->region, NULL);
	buf_puts(b, ",\"capacityBlock\":{");
	jnum(b, "usdPerNodeHour", cb ? cb->usd_per_hour : -1);
	buf_putc(b, ',');
	jnum(b, "usdPerHour", cb && e->nodes > 0 ? cb->usd_per_hour * e->nodes : -1);
	buf_putc(b, ',');
	jnum(b, "usdPerRun", cb && e->nodes > 0 && e->run_hours > 0 ? cb->usd_per_hour * e->nodes * e->run_hours : -1);
	buf_putc(b, ',');
	jstr(b, "source", cb ? cb->source : NULL);
	buf_putc(b, ',');
	jstr(b, "date", cb ? cb->date : NULL);
	buf_putc(b, ',');
	jstr(b, "region", cb ? cb->region : NULL);
	buf_puts(b, "},");
	jnum(b, "spotAssumedUsdPerHour", e->spot_assumed_hour);
	buf_putc(b, ',');
	jnum(b, "usdPerPflopHour", e->usd_per_pflop_hour);
	buf_puts(b, "}}");
}

void plan_report_json(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	const struct spec_model *m = p->job->model;
	const struct spec_training *tr = p->job->training;
	const struct instance_type *const *types;
	size_t n = report_types(p, rq, &types);
	struct buf b = BUF_INIT;

	buf_putc(&b, '{');
	plan_json_fields(p, &b, rq->hours);
	buf_puts(&b, ",\"model\":{");
	jnum(&b, "parameters", m->parameters > 0 ? m->parameters : -1);
	buf_putc(&b, ',');
	jnum(&b, "activeParameters", m->active_parameters > 0 ? m->active_parameters : -1);
	buf_putc(&b, ',');
	jnum(&b, "tokens", m->tokens > 0 ? m->tokens : -1);
	buf_printf(&b, ",\"layers\":%d,\"hiddenSize\":%d,\"attentionHeads\":%d,\"seqLength\":%d}",
		   m->layers, m->hidden_size, m->attention_heads, m->seq_length);
	buf_printf(&b, ",\"assumptions\":{\"utilization\":%.10g,\"utilizationDefault\":%s,\"recompute\":\"%s\",\"recomputeDefault\":%s,\"zeroStage\":%d}",
		   utilization(p), tr->utilization > 0 ? "false" : "true", recompute_name(recompute(p)),
		   tr->recompute != RC_UNSET ? "false" : "true", tr->zero_stage);
	buf_puts(&b, ",\"estimates\":[");
	for (size_t i = 0; i < n; i++) {
		struct plan_est e;
		plan_estimate(p, types[i], rq->hours, &e);
		if (i)
			buf_putc(&b, ',');
		json_estimate(p, &e, &b);
	}
	buf_puts(&b, "]}\n");
	fputs(b.p, out);
	buf_free(&b);
}
