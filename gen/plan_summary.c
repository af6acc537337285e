/* The plan's summary: the layout, batch, bubble and prices of the spec's
 * own fleet, as `gen` and `plan` print it before any estimate. */
#include "plan.h"

#include <math.h>
#include <string.h>

#include "buf.h"

static void money(struct buf *b, double usd)
{
	if (usd >= 1000)
		buf_printf(b, "$%.0f", usd);
	else
		buf_printf(b, "$%.2f", usd);
}

/* One node's rate times the nodes, and where the rate came from. */
static void summary_price(struct buf *b, const struct plan *p, const char *label,
			  const struct plan_rate *r, double hours, const char *what)
{
	buf_printf(b, "  %-16s ", label);
	if (r->usd < 0) {
		char why[200];
		plan_rate_why(r, why, sizeof why);
		buf_printf(b, "unknown: %s", why);
		if (r->other_usd >= 0)
			buf_printf(b, " (%s: $%.2f/h, not used)", r->other_region, r->other_usd);
		buf_putc(b, '\n');
		return;
	}
	buf_printf(b, "%d x $%.6g/h = ", p->nodes, r->usd);
	money(b, r->usd * p->nodes);
	buf_printf(b, "/h%s", what);
	if (hours > 0) {
		buf_printf(b, "; %.0f h: ", hours);
		money(b, r->usd * p->nodes * hours);
	}
	buf_puts(b, " (");
	plan_rate_text(r, b);
	buf_puts(b, ")\n");
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
	if (it->provisional)
		buf_printf(&b, "  provisional      not yet confirmed by EC2: %s (DERIVED figures are marked below)\n",
			   it->provisional);
	buf_printf(&b, "  nodes            %d x %d processes = world %d\n", p->nodes, p->ppn, p->world);
	plan_fleet_text(p, &b);
	plan_survival_text(p, &b);
	buf_printf(&b, "  layout           %s: TP %d x PP %d", fw_name(j->framework), p->tp, p->pp);
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
	if (p->grad_bytes >= 0) {
		struct fw_bytes fb;
		fw_state_bytes(j->framework, j->training->zero_stage, &fb);
		buf_printf(&b, "  gradients        %.2f GB per step per rank over DP %d (%s)\n", p->grad_bytes / 1e9,
			   p->dp, fb.weights_sharded
			   ? (p->pp > 1 ? "sharded: gradients reduce-scattered, weights all-gathered once a step"
					: "sharded: gradients reduce-scattered, weights all-gathered forward and backward")
			   : "bf16, ring all-reduce");
	}
	summary_price(&b, p, "cost", &p->rate[PRICE_ON_DEMAND], hours, " on demand");
	if (p->rate[PRICE_CAPACITY_BLOCK].usd >= 0)
		summary_price(&b, p, "capacity block", &p->rate[PRICE_CAPACITY_BLOCK], hours, "");
	buf_printf(&b, "  storage          %s at %s", storage_name(j->storage->type), j->storage->mount);
	if (p->neuron)
		buf_printf(&b, "; compile cache %s", j->paths->compile_cache);
	buf_putc(&b, '\n');
	plan_storage_text(p, &b);
	plan_capacity_text(p, &b);
	plan_software_text(p, &b);
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
	json_str(b, "framework", fw_name(j->framework));
	buf_putc(b, ',');
	json_str(b, "provisional", p->it->provisional);
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
	const struct plan_rate *od = &p->rate[PRICE_ON_DEMAND], *cb = &p->rate[PRICE_CAPACITY_BLOCK];
	json_str(b, "priceSource", p->price_hour >= 0 ? (od->from == RATE_USER ? od->assumption : od->source) : NULL);
	buf_putc(b, ',');
	json_str(b, "priceDate", p->price_hour >= 0 && od->from != RATE_USER ? od->price.as_of : NULL);
	buf_putc(b, ',');
	json_str(b, "priceRegion", p->price_hour >= 0 ? od->region : NULL);
	buf_putc(b, ',');
	json_str(b, "priceFrom", plan_rate_from_name(od->from));
	buf_putc(b, ',');
	json_num(b, "capacityBlockPerHour", p->cb_hour, p->cb_hour >= 0);
	buf_putc(b, ',');
	json_num(b, "capacityBlockPerRun", p->cb_hour * hours, p->cb_hour >= 0 && hours > 0);
	buf_putc(b, ',');
	json_str(b, "capacityBlockSource", p->cb_hour >= 0 ? (cb->from == RATE_USER ? cb->assumption : cb->source) : NULL);
	buf_putc(b, ',');
	json_str(b, "capacityBlockDate", p->cb_hour >= 0 && cb->from != RATE_USER ? cb->price.as_of : NULL);
	buf_putc(b, ',');
	json_str(b, "capacityBlockRegion", p->cb_hour >= 0 ? cb->region : NULL);
	plan_fleet_json(p, b);
	plan_survival_json(p, b);
}
