/* The bill: what a run of the plan costs and takes, as lines a finance
 * lead can check one by one: compute under each way of buying it,
 * storage during and after the run, the time beyond the compute, and the
 * deadlines the run must meet (the spec's time limit, a Capacity Block's
 * end). A line whose price or input is unknown says "unknown" and what
 * would make it known; it is never $0 (docs/plan.md, "The bill"). */
#include "plan.h"

#include <string.h>

#include "plan_out.h"
#include "slurm_time.h"

/* AWS quotes storage by the month and bills it prorated; its pricing
 * pages' month is 730 hours (the same month plan CLUSTER.yaml uses). */
#define BILL_HOURS_PER_MONTH 730.0
/* EC2 starts terminating a Capacity Block's instances 30 minutes before
 * the block ends (Amazon EC2 User Guide, "Capacity Blocks for ML",
 * <https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-blocks.html>). */
#define BILL_BLOCK_END_S 1800.0
/* The nodes' boot into the block, at most ParallelCluster's
 * ComputeNodeBootstrapTimeout, 1800 s by default (ParallelCluster user
 * guide, DevSettings / Timeouts): the bound the check uses. */
#define BILL_BOOT_S 1800.0
/* A run within this fraction of its time limit is a finding too: the
 * utilization behind the estimate is an assumption (0.4 by default),
 * and a 10% shortfall of it, or the save pauses and restarts of a
 * 12-day run, take that much. */
#define BILL_LIMIT_MARGIN 0.10
/* A tokenized corpus on disk: Megatron-LM's indexed dataset stores
 * each token as uint16 when the vocabulary is below 65,500, else int32
 * (megatron/core/datasets/indexed_dataset.py, DType.optimal_dtype). */
#define BILL_SMALL_VOCAB 65500
/* The spot interruption rate is per month: survival's month (a year's
 * days over twelve), so both count the same reclaims. */
#define BILL_RATE_MONTH_S (86400.0 * 365 / 12)

static double limit_seconds(const struct job_spec *j)
{
	double s;
	if (j->time_limit && slurm_time_seconds(j->time_limit, strlen(j->time_limit), &s) && s > 0)
		return s;
	return -1;
}

static bool capacity_block(const struct job_spec *j)
{
	return j->capacity->type == CAP_CAPACITY_BLOCK;
}

/* The fleet an hour as the spec buys it: a mixed fleet's parts, else
 * every node at the price of capacity.type (an On-Demand Capacity
 * Reservation bills at the on-demand rate). */
static double fleet_hour(const struct plan *p)
{
	if (p->fleet.mixed) {
		struct plan_fleet_cost c;
		plan_fleet_costs(p, &c);
		return c.total_hour;
	}
	enum plan_price k = p->job->capacity->type == CAP_SPOT ? PRICE_SPOT
		: p->job->capacity->type == CAP_CAPACITY_BLOCK ? PRICE_CAPACITY_BLOCK : PRICE_ON_DEMAND;
	return p->rate[k].usd >= 0 ? p->rate[k].usd * p->nodes : -1;
}

/* The run's time from survival's figures: the compute, the save pauses
 * at the planned interval, and the expected finish at the interruption
 * rates (lost work and restarts); the compute alone when survival has
 * no step count. */
static void derive_time(const struct plan *p, struct plan_bill *b)
{
	const struct plan_survival *s = &p->survival;
	b->ckpt_bytes = s->bytes > 0 ? s->bytes : -1;
	b->save_s = s->save_s > 0 ? s->save_s : -1;
	b->saves = s->steps > 0 && s->interval_steps > 0 ? (double)(long long)(s->steps / s->interval_steps) : -1;
	b->pause_s = b->saves >= 0 && b->save_s > 0 ? b->saves * b->save_s : -1;
	b->restart_s = s->expected_s > 0 && s->full_s > 0 ? s->expected_s - s->full_s : -1;
	b->expected_faults = s->full_s > 0 ? s->expected_faults : -1;
	b->expected_reclaims = s->full_s > 0 ? s->expected_reclaims : -1;
	double base = s->expected_s > 0 ? s->expected_s : b->compute_s;
	b->run_s = base > 0 ? base + (b->compile_s > 0 ? b->compile_s : 0) : -1;
}

/* A mixed fleet: the reserved part every hour of the run, the spot part
 * for the hours its nodes run. Each expected reclaim takes its unit
 * away for spot_return_hours (ParallelCluster terminates a reclaimed
 * unit's idle nodes, and the unit's job waits for the capacity), so the
 * spot part is billed for fewer node-hours: the blend at the
 * interruption rate. */
static void derive_mixed(const struct plan *p, struct plan_bill *b, double hours)
{
	struct plan_fleet_cost c;
	plan_fleet_costs(p, &c);
	b->reserved_how = c.reserved_how;
	b->spot_how = c.spot_how;
	const struct plan_fleet *f = &p->fleet;
	double spot_node_h = f->spot * hours;
	double lost = b->expected_reclaims > 0
		? b->expected_reclaims * (f->unit ? f->unit : f->spot) * p->survival.spot_return_s / 3600 : 0;
	b->spot_lost_node_h = lost < spot_node_h ? lost : spot_node_h;
	double spot_rate = c.spot_hour >= 0 && f->spot > 0 ? c.spot_hour / f->spot : -1;
	b->reserved_usd = c.reserved_hour >= 0 && hours > 0 ? c.reserved_hour * hours : -1;
	b->spot_usd = spot_rate >= 0 && hours > 0 ? spot_rate * (spot_node_h - b->spot_lost_node_h) : -1;
	b->mixed_usd = b->reserved_usd >= 0 && b->spot_usd >= 0 ? b->reserved_usd + b->spot_usd : -1;
}

void plan_bill_derive(const struct plan *p, struct plan_bill *b)
{
	const struct job_spec *j = p->job;
	struct plan_est e;

	memset(b, 0, sizeof *b);
	plan_estimate(p, p->it, 0, &e);
	b->nodes = p->nodes;
	b->compute_s = e.run_seconds;
	b->exposed_s = e.exposed_seconds > 0 && e.steps > 0 ? e.exposed_seconds * e.steps : 0;
	b->compile_s = j->training->compile_minutes > 0 ? j->training->compile_minutes * 60 : -1;
	derive_time(p, b);
	double hours = b->run_s > 0 ? b->run_s / 3600 : -1;

	/* compute: the whole fleet under each way of buying it, each for
	 * its own expected finish: the node faults for all, the reclaims of
	 * every node at the spot rate for all spot (survival's formula for
	 * a fleet that is not mixed: a restart and half an interval each) */
	const struct plan_survival *s = &p->survival;
	double per_loss = s->restart_s + (s->interval_s > 0 ? s->interval_s / 2 : 0);
	for (int k = 0; k < PRICE__COUNT; k++) {
		double t = s->full_s > 0 ? s->full_s + s->fault_rate * s->full_s * per_loss : b->compute_s;
		if (k == PRICE_SPOT && s->full_s > 0)
			t += p->nodes * s->spot_rate / BILL_RATE_MONTH_S * s->full_s * per_loss;
		b->alt_s[k] = t > 0 ? t + (b->compile_s > 0 ? b->compile_s : 0) : -1;
		double h = b->alt_s[k] > 0 ? b->alt_s[k] / 3600 : -1;
		b->rate[k] = p->rate[k].usd;
		b->compute_usd[k] = p->rate[k].usd >= 0 && h > 0 ? p->rate[k].usd * p->nodes * h : -1;
	}
	b->mixed = p->fleet.mixed;
	b->reserved_usd = b->spot_usd = b->mixed_usd = -1;
	if (b->mixed)
		derive_mixed(p, b, hours);
	/* the overheads' own cost, at the fleet's rate as the spec buys it */
	b->hour_usd = fleet_hour(p);
	b->pause_usd = b->hour_usd >= 0 && b->pause_s >= 0 ? b->hour_usd * b->pause_s / 3600 : -1;
	b->restart_usd = b->hour_usd >= 0 && b->restart_s >= 0 ? b->hour_usd * b->restart_s / 3600 : -1;

	/* storage: a file system gen creates, billed from the cluster's
	 * creation; kept after pcluster delete-cluster unless deleted */
	const struct spec_storage *st = j->storage;
	b->fs_gib = st->id ? 0 : st->size_gib;
	b->gib_month_usd = st->usd_per_gib_month > 0 ? st->usd_per_gib_month : -1;
	b->fs_month_usd = b->fs_gib > 0 && b->gib_month_usd > 0 ? b->fs_gib * b->gib_month_usd : -1;
	b->fs_run_usd = b->fs_month_usd >= 0 && hours > 0 ? b->fs_month_usd * hours / BILL_HOURS_PER_MONTH : -1;
	b->fs_kept = b->fs_gib > 0 && p->cl.deletion != DP_DELETE;
	const struct spec_model *m = j->model;
	b->token_bytes = m->vocab_size > 0 ? (m->vocab_size < BILL_SMALL_VOCAB ? 2 : 4) : -1;
	b->dataset_bytes = b->token_bytes > 0 && m->tokens > 0 ? b->token_bytes * m->tokens : -1;
	/* what the file system holds beside the corpus, in checkpoints */
	b->room_bytes = b->fs_gib > 0 && b->dataset_bytes > 0 ? b->fs_gib * PLAN_GIB - b->dataset_bytes : -1;
	b->ckpt_fit = b->room_bytes >= 0 && b->ckpt_bytes > 0 ? (int)(b->room_bytes / b->ckpt_bytes) : -1;

	/* the deadlines */
	b->limit_s = limit_seconds(j);
	b->block_s = capacity_block(j) && j->capacity->block_hours > 0 ? j->capacity->block_hours * 3600 : -1;
	b->block_usable_s = b->block_s > 0 ? b->block_s - BILL_BLOCK_END_S - BILL_BOOT_S : -1;
}

/* JS8001 run-past-time-limit: the expected finish (the compute, the
 * save pauses, the restarts at the interruption rates, the compile).
 * A mixed fleet whose run at every node, with its saves, is past the
 * limit already has JS7001 saying so, with what a reclaim adds. */
static void run_past_limit(const struct plan *p, const struct plan_bill *b, const struct spec *spec,
			   struct diag_list *diags)
{
	if (!(b->limit_s > 0) || !(b->run_s > 0) || b->run_s <= b->limit_s * (1 - BILL_LIMIT_MARGIN))
		return;
	if (p->fleet.mixed && p->survival.full_s > b->limit_s)
		return;
	bool past = b->run_s > b->limit_s;
	struct diag *d = spec_report(spec, diags, R_JS8001, "time_limit",
		"the run is expected to take %.1f days (the compute %.1f%s%s%s), %s the time limit of %.1f days%s",
		b->run_s / 86400, b->compute_s / 86400,
		b->pause_s > 0 ? ", the checkpoint pauses" : "",
		b->restart_s > 0 ? ", the restarts at the interruption rate" : "",
		b->compile_s > 0 ? ", the compile" : "",
		past ? "past" : "within 10% of", b->limit_s / 86400,
		past ? ": Slurm ends the job before the training does" : ", with no room for what the estimate leaves out");
	diag_set_help(d, "a time limit of %.0f days or more leaves the 10%% margin; or add nodes, or train fewer tokens; "
		      "the estimate rests on training.utilization, an assumption",
		      b->run_s / (1 - BILL_LIMIT_MARGIN) / 86400 + 0.999);
}

/* JS8002 capacity-block-ends-first */
static void block_ends_first(const struct plan_bill *b, const struct spec *spec, struct diag_list *diags)
{
	if (!(b->block_usable_s > 0))
		return;
	double need = b->limit_s > 0 ? b->limit_s : b->run_s;
	if (!(need > b->block_usable_s))
		return;
	struct diag *d = spec_report(spec, diags, R_JS8002, "capacity.block_hours",
		"the Capacity Block lasts %.0f h, and EC2 starts terminating its instances 30 minutes before its end: "
		"after up to 30 minutes of boot, %.1f h are left for the job, and its %s is %.1f h; EC2, not Slurm, "
		"ends it, possibly during a save",
		b->block_s / 3600, b->block_usable_s / 3600, b->limit_s > 0 ? "time limit" : "run",
		need / 3600);
	diag_set_help(d, "set time_limit to at most the block's hours less one hour, so the job ends (and saves) "
		      "before EC2 reclaims the nodes, or buy a longer block");
}

bool plan_bill_check(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	struct plan_bill b;
	plan_bill_derive(p, &b);
	run_past_limit(p, &b, spec, diags);
	block_ends_first(&b, spec, diags);
	return true;
}

/* ---- text and JSON --------------------------------------------------- */

static void usd_or(struct buf *o, double usd, const char *unknown)
{
	out_money(o, usd, unknown);
}

static void line(struct buf *o, const char *label)
{
	buf_printf(o, "  %-22s ", label);
}

void plan_bill_text(const struct plan *p, const struct plan_bill *b, struct buf *o)
{
	double hours = b->run_s > 0 ? b->run_s / 3600 : -1;
	buf_puts(o, "bill\n");
	line(o, "run time");
	if (hours < 0) {
		buf_puts(o, "unknown: the plan has no run estimate (give model.tokens and the shape)\n");
	} else {
		buf_printf(o, "%.1f h = %.1f days expected: compute %.1f h", hours, hours / 24, b->compute_s / 3600);
		if (b->exposed_s > 0)
			buf_printf(o, " (%.1f h of it communication that cannot overlap)", b->exposed_s / 3600);
		if (b->pause_s > 0)
			buf_printf(o, " + checkpoint pauses %.1f h", b->pause_s / 3600);
		if (b->restart_s > 0)
			buf_printf(o, " + restarts %.1f h", b->restart_s / 3600);
		if (b->compile_s > 0)
			buf_printf(o, " + compile %.2f h (training.compile_minutes, your figure)", b->compile_s / 3600);
		buf_putc(o, '\n');
	}
	line(o, "checkpoint");
	if (b->ckpt_bytes > 0) {
		out_gib(o, b->ckpt_bytes);
		if (b->save_s > 0)
			buf_printf(o, ", a save %.1f min", b->save_s / 60);
		else
			buf_puts(o, ", a save's time unknown (no write throughput)");
		if (b->saves >= 0)
			buf_printf(o, "; %.0f periodic saves over the run", b->saves);
		buf_putc(o, '\n');
	} else {
		buf_puts(o, "size unknown (no parameter count)\n");
	}
	if (b->pause_s >= 0) {
		line(o, "checkpoint pauses");
		buf_printf(o, "%.0f saves x %.1f min = %.1f h: ", b->saves, b->save_s / 60, b->pause_s / 3600);
		usd_or(o, b->pause_usd, "unknown");
		buf_puts(o, " at the fleet's rate\n");
	}
	if (b->restart_s >= 0) {
		line(o, "restarts");
		buf_printf(o, "%.2g faults and %.2g reclaims expected (lost work and restart) = %.1f h: ",
			   b->expected_faults, b->expected_reclaims, b->restart_s / 3600);
		usd_or(o, b->restart_usd, "unknown");
		buf_puts(o, " at the fleet's rate\n");
	}
	if (p->neuron && !(b->compile_s > 0)) {
		line(o, "compile");
		buf_puts(o, "unknown: give training.compile_minutes (the first start compiles every graph; "
			    "later starts read the compile cache)\n");
	}
	static const enum plan_price order[] = { PRICE_RESERVED, PRICE_SPOT, PRICE_ON_DEMAND, PRICE_CAPACITY_BLOCK };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		enum plan_price k = order[i];
		char label[48];
		snprintf(label, sizeof label, "all %s", plan_price_name(k));
		line(o, label);
		if (b->compute_usd[k] >= 0) {
			buf_printf(o, "%d nodes x $%.6g/h x %.1f h = ", b->nodes, b->rate[k], b->alt_s[k] / 3600);
			usd_or(o, b->compute_usd[k], "unknown");
			buf_puts(o, " (");
			plan_rate_text(&p->rate[k], o);
			buf_puts(o, ")\n");
		} else {
			char why[200];
			plan_rate_why(&p->rate[k], why, sizeof why);
			buf_printf(o, "unknown: %s\n", hours < 0 ? "no run estimate" : why);
		}
	}
	if (b->mixed) {
		line(o, "reserved part");
		buf_printf(o, "%d nodes: ", p->fleet.reserved);
		usd_or(o, b->reserved_usd, "unknown");
		buf_printf(o, " (%s)\n", b->reserved_how);
		line(o, "spot part");
		buf_printf(o, "%d nodes, less %.0f node-hours while reclaimed capacity is away: ", p->fleet.spot,
			   b->spot_lost_node_h);
		usd_or(o, b->spot_usd, "unknown");
		buf_printf(o, " (%s)\n", b->spot_how);
		line(o, "the mixed fleet");
		usd_or(o, b->mixed_usd, "unknown");
		buf_puts(o, b->mixed_usd >= 0 ? " for the run, the blend at the interruption rate\n"
					      : " (a part is unknown)\n");
	}
	line(o, "storage");
	if (b->fs_gib <= 0) {
		buf_puts(o, "an existing file system: its cost is outside the plan\n");
	} else if (b->fs_month_usd < 0) {
		buf_printf(o, "%d GiB: unknown a month: give storage.usd_per_gib_month (trainforge has no storage "
			      "prices)\n", b->fs_gib);
	} else {
		buf_printf(o, "%d GiB x $%.4g per GiB-month (storage.usd_per_gib_month) = ", b->fs_gib, b->gib_month_usd);
		usd_or(o, b->fs_month_usd, "unknown");
		buf_puts(o, " a month; during the run ");
		usd_or(o, b->fs_run_usd, "unknown");
		buf_printf(o, " (%.1f h of 730 a month)\n", hours);
	}
	if (b->fs_kept) {
		line(o, "after the run");
		if (b->fs_month_usd >= 0) {
			usd_or(o, b->fs_month_usd, "unknown");
			buf_puts(o, " a month while pcluster delete-cluster keeps it, until you delete it\n");
		} else {
			buf_puts(o, "unknown a month, for as long as you keep it (it outlives the cluster)\n");
		}
	}
	line(o, "tokenized corpus");
	if (b->dataset_bytes > 0) {
		buf_printf(o, "%.4g tokens x %d bytes = ", p->job->model->tokens, (int)b->token_bytes);
		out_gib(o, b->dataset_bytes);
		if (b->fs_gib > 0)
			buf_printf(o, " (%.0f%% of the %d GiB file system)", 100 * b->dataset_bytes / PLAN_GIB / b->fs_gib,
				   b->fs_gib);
		buf_puts(o, "\n");
	} else {
		buf_puts(o, "unknown: give model.vocab_size and model.tokens\n");
	}
	if (b->fs_gib > 0) {
		line(o, "storage sizing");
		if (b->ckpt_fit >= 0) {
			buf_printf(o, "%d GiB less the corpus holds %d checkpoint%s", b->fs_gib, b->ckpt_fit,
				   b->ckpt_fit == 1 ? "" : "s");
			if (b->saves > b->ckpt_fit)
				buf_printf(o, "; the run writes %.0f: keep at most %d (delete older saves) or size the "
					      "file system up", b->saves, b->ckpt_fit);
		} else {
			buf_puts(o, "checkpoints that fit unknown (no corpus size or checkpoint size)");
		}
		if (p->neuron)
			buf_puts(o, "; the compile cache is not counted (trainforge has no figure for its size)");
		buf_putc(o, '\n');
	}
	line(o, "time limit");
	if (!(b->limit_s > 0))
		buf_puts(o, "none: the job runs until it ends or the partition's limit\n");
	else if (!(b->run_s > 0))
		buf_printf(o, "%.1f days against an unknown run\n", b->limit_s / 86400);
	else
		buf_printf(o, "%.1f days against the run's %.1f: %s\n", b->limit_s / 86400, b->run_s / 86400,
			   b->run_s > b->limit_s ? (p->fleet.mixed && p->survival.full_s > b->limit_s
						    ? "PAST the limit even at every node (JS7001)" : "PAST the limit (JS8001)")
			   : b->run_s > b->limit_s * (1 - BILL_LIMIT_MARGIN) ? "within 10% of it (JS8001)" : "meets it");
	if (capacity_block(p->job)) {
		line(o, "capacity block");
		if (b->block_s > 0)
			buf_printf(o, "%.0f h; EC2 terminates 30 min before its end, boot up to 30 min: %.1f h for the job\n",
				   b->block_s / 3600, b->block_usable_s / 3600);
		else
			buf_puts(o, "length unknown: give capacity.block_hours (EC2 terminates its instances 30 minutes "
				    "before the block ends)\n");
	}
}

void plan_bill_json(const struct plan *p, const struct plan_bill *b, struct buf *o)
{
	(void)p;
	out_jobj(o, "bill");
	out_jnum(o, "runSeconds", b->run_s);
	out_jnum(o, "computeSeconds", b->compute_s);
	out_jnum(o, "exposedCommunicationSeconds", b->exposed_s);
	out_jnum(o, "compileSeconds", b->compile_s);
	out_jnum(o, "checkpointBytes", b->ckpt_bytes);
	out_jnum(o, "saveSeconds", b->save_s);
	out_jnum(o, "saves", b->saves);
	out_jnum(o, "pauseSeconds", b->pause_s);
	out_jnum(o, "restartSeconds", b->restart_s);
	out_jnum(o, "expectedFaults", b->expected_faults);
	out_jnum(o, "expectedReclaims", b->expected_reclaims);
	out_jnum(o, "fleetUsdPerHour", b->hour_usd);
	out_jnum(o, "pauseUsd", b->pause_usd);
	out_jnum(o, "restartUsd", b->restart_usd);
	out_jint(o, "nodes", b->nodes);
	out_jobj(o, "compute");
	for (int k = 0; k < PRICE__COUNT; k++) {
		out_jobj(o, plan_price_key(k));
		out_jnum(o, "usdPerNodeHour", b->rate[k]);
		out_jnum(o, "usdPerRun", b->compute_usd[k]);
		out_jnum(o, "runSeconds", b->alt_s[k]);
		buf_putc(o, '}');
	}
	buf_putc(o, '}');
	if (b->mixed) {
		out_jobj(o, "mixed");
		out_jnum(o, "reservedUsd", b->reserved_usd);
		out_jnum(o, "spotUsd", b->spot_usd);
		out_jnum(o, "spotLostNodeHours", b->spot_lost_node_h);
		out_jnum(o, "usd", b->mixed_usd);
		buf_putc(o, '}');
	}
	out_jobj(o, "storage");
	out_jint(o, "gib", b->fs_gib);
	out_jnum(o, "usdPerGibMonth", b->gib_month_usd);
	out_jnum(o, "usdPerMonth", b->fs_month_usd);
	out_jnum(o, "usdDuringRun", b->fs_run_usd);
	out_jbool(o, "keptAfterRun", b->fs_kept);
	out_jnum(o, "hoursPerMonth", BILL_HOURS_PER_MONTH);
	out_jnum(o, "datasetBytes", b->dataset_bytes);
	out_jnum(o, "bytesPerToken", b->token_bytes);
	out_jnum(o, "roomBytes", b->room_bytes);
	if (b->ckpt_fit >= 0)
		out_jint(o, "checkpointsFit", b->ckpt_fit);
	else
		out_jnum(o, "checkpointsFit", -1);
	buf_putc(o, '}');
	out_jobj(o, "deadlines");
	out_jnum(o, "timeLimitSeconds", b->limit_s);
	out_jnum(o, "limitMargin", BILL_LIMIT_MARGIN);
	out_jnum(o, "blockSeconds", b->block_s);
	out_jnum(o, "blockUsableSeconds", b->block_usable_s);
	out_jnum(o, "blockEndSeconds", BILL_BLOCK_END_S);
	out_jnum(o, "bootSeconds", BILL_BOOT_S);
	buf_putc(o, '}');
	buf_putc(o, '}');
}
