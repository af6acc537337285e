/* Checkpoints as a planned quantity, and what interruptions cost. The
 * checkpoint's size comes from the framework's byte convention, a
 * save's time from the shared storage's write throughput, and the
 * interval between saves from those and the interruptions expected:
 * Daly's higher-order estimate of the optimum, or the spec's own
 * interval. A reclaim notice ends in a save only when one fits in it;
 * otherwise the job relies on the last periodic save. For a mixed
 * fleet the plan answers the deadline question: how early a reclaim
 * whose capacity never comes back may happen for the run to end within
 * the time limit, and the expected finish at the interruption rates
 * (docs/plan.md, "Checkpoints and interruptions"). */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "interrupts.h"
#include "plan_out.h"
#include "slurm_time.h"
#include "storage_io.h"

#define DAY 86400.0
#define MONTH (DAY * 365 / 12)

/* Newton's square root: the program links no libm. */
static double root(double x)
{
	if (!(x > 0))
		return 0;
	double r = x > 1 ? x : 1;
	for (int i = 0; i < 200; i++) {
		double next = (r + x / r) / 2;
		if (next == r)
			break;
		r = next;
	}
	return r;
}

/* Daly's higher-order estimate of the optimum compute time between
 * checkpoints, for a save of delta seconds and a mean time between
 * interruptions of m (J. T. Daly, "A higher order estimate of the
 * optimum checkpoint interval for restart dumps", Future Generation
 * Computer Systems 22 (2006) 303-312, eq. 37; to first order Young's
 * sqrt(2 delta m), CACM 17(9), 1974). */
static double daly_interval(double delta, double m)
{
	if (delta >= 2 * m)
		return m;
	double r = delta / (2 * m);
	return root(2 * delta * m) * (1 + root(r) / 3 + r / 9) - delta;
}

static enum fs_kind fs_kind_of(enum storage s)
{
	return s == ST_EFS ? FS_EFS : s == ST_EBS ? FS_EBS : FS_FSX_LUSTRE;
}

static void write_rate(struct plan_survival *s, const struct spec_storage *st)
{
	struct fs_rate r;
	s->write_bps = -1;
	if (st->write_mb_per_s > 0) {
		s->write_bps = st->write_mb_per_s * 1e6;
		s->write_how = "storage.write_mb_per_s";
		s->write_source = "the spec";
	} else if (st->id) {
		s->write_how = "unknown: an existing file system (storage.id); give storage.write_mb_per_s";
	} else if (fs_write_rate(fs_kind_of(st->type), st->size_gib, &r)) {
		s->write_bps = r.bytes_per_s;
		s->write_how = r.how;
		s->write_source = r.source;
	}
}

/* The rates at which training stops: any node's own fault, and a
 * reclaim of a spot node (one that stops its unit in a mixed fleet, the
 * whole job when every node is spot). */
static void rates(struct plan_survival *s, const struct plan *p)
{
	const struct spec_capacity *c = p->job->capacity;
	s->fault_rate = interrupt_fact(INT_NODE_FAULTS)->value * p->nodes / DAY;
	s->spot = p->fleet.mixed || c->type == CAP_SPOT;
	s->spot_rate_given = c->spot_interruption_rate > 0;
	s->spot_rate = s->spot_rate_given ? c->spot_interruption_rate : interrupt_fact(INT_SPOT_RATE)->value;
	s->spot_return_given = c->spot_return_hours > 0;
	s->spot_return_s = (s->spot_return_given ? c->spot_return_hours : interrupt_fact(INT_SPOT_RETURN)->value) * 3600;
	int spot_nodes = p->fleet.mixed ? p->fleet.spot : c->type == CAP_SPOT ? p->nodes : 0;
	s->reclaim_rate = spot_nodes * s->spot_rate / MONTH;
	s->mtbi_s = 1 / (s->fault_rate + s->reclaim_rate);
}

/* The interval: the spec's minutes, else Daly's optimum; in steps at
 * the full fleet's step time. Without a step time or a save time it is
 * a guess, and says why. */
static void interval(struct plan_survival *s, const struct plan *p)
{
	const struct job_spec *j = p->job;
	s->interval_given = j->checkpoint && j->checkpoint->interval_minutes > 0;
	s->interval_s = -1;
	if (s->interval_given)
		s->interval_s = j->checkpoint->interval_minutes * 60;
	else if (s->save_s > 0)
		s->interval_s = daly_interval(s->save_s, s->mtbi_s);
	if (s->interval_s > 0 && s->step_s > 0) {
		double n = s->interval_s / s->step_s + 0.5;
		s->interval_steps = n < 1 ? 1 : (long long)n;
	} else if (p->model.save_interval > 0) {
		/* the model's default (gen/plan_model.c): an hour of training,
		 * or a hundredth of the run */
		s->interval_guess = s->step_s > 0 ? "no checkpoint size or write throughput to derive it from"
			: "no step time (model.parameters or active_parameters, model.seq_length and the accelerator's peak)";
		s->interval_steps = p->model.save_interval;
	}
	if (s->steps > 0 && s->interval_steps > s->steps)
		s->interval_steps = (long long)s->steps > 0 ? (long long)s->steps : 1;
	if (s->step_s > 0)
		s->interval_s = s->interval_steps * s->step_s;
	s->save_share = s->save_s > 0 && s->interval_s > 0 ? s->save_s / (s->save_s + s->interval_s) : -1;
}

/* A notice gives INT_SPOT_NOTICE seconds; the watcher sees it within a
 * poll, the framework notices the signal at the end of the step in
 * flight, saves, and the unit must be gone before the instance is. */
static void notice(struct plan_survival *s, const struct plan *p)
{
	const struct fw_checkpoint *ck = s->ckpt;
	s->signal_save = ck && ck->signal_switch && ck->signal_number > 0;
	double poll = p->job->capacity->watcher ? p->job->capacity->watcher->poll_seconds
						: interrupt_fact(INT_SPOT_POLL)->value;
	s->notice_need_s = s->step_s > 0 && s->save_s > 0
		? poll + s->step_s + s->save_s + interrupt_fact(INT_NOTICE_MARGIN)->value : -1;
	s->notice_saves = s->signal_save && s->notice_need_s > 0 &&
			  s->notice_need_s <= interrupt_fact(INT_SPOT_NOTICE)->value;
	s->restart_s = interrupt_fact(INT_RESTART)->value + (s->load_s > 0 ? s->load_s : 0);
	/* A save on the notice loses nothing; without one, the training
	 * since the last complete save, and the save in flight. */
	if (s->notice_saves)
		s->reclaim_loss_s = 0;
	else if (s->interval_s > 0)
		s->reclaim_loss_s = s->interval_s + (s->save_s > 0 ? s->save_s : 0);
	else
		s->reclaim_loss_s = -1;
}

/* The run at full size and at the reserved size alone, both with the
 * same saves (the interval is in steps); the earliest reclaim a run
 * absorbs when the unit never comes back; the expected finish. */
static void deadline(struct plan_survival *s, const struct plan *p)
{
	const struct job_spec *j = p->job;
	s->limit_s = -1;
	if (j->time_limit && !slurm_time_seconds(j->time_limit, strlen(j->time_limit), &s->limit_s))
		s->limit_s = -1;
	s->full_s = s->reserved_s = s->risk_from_s = s->risk_to_s = s->expected_s = -1;
	s->worst_at_s = s->worst_finish_s = -1;
	s->step_factor = -1;
	if (!(s->steps > 0) || !(s->step_s > 0))
		return;
	double saves = s->interval_steps > 0 && s->save_s > 0 ? s->steps / s->interval_steps * s->save_s : 0;
	double train = s->steps * s->step_s;
	s->full_s = train + saves;
	double half_interval = s->interval_s > 0 ? s->interval_s / 2 : 0;
	s->expected_faults = s->fault_rate * s->full_s;
	s->expected_reclaims = s->reclaim_rate * s->full_s;
	double fault_cost = s->restart_s + half_interval;
	if (!p->fleet.mixed) {
		s->expected_s = s->full_s + s->expected_faults * fault_cost +
				s->expected_reclaims * (s->restart_s + half_interval);
		return;
	}
	const struct plan_fleet *f = &p->fleet;
	s->step_factor = f->min_dp > 0 ? (double)p->dp / f->min_dp : -1;
	if (!(s->step_factor > 0))
		return;
	s->reserved_s = train * s->step_factor + saves;
	/* A reclaim at t loses min(t, L) of training (L: the most since a
	 * complete save) and the rest runs at the reserved size: finish(t)
	 * = t + R + (full - t + min(t, L)) x f, f = reserved / full. It
	 * rises to t = L, then falls: the reclaims that end past the limit
	 * are a window [from, to). */
	if (s->reserved_s > s->full_s) {
		/* finish(t) peaks at t = L, the reclaim that loses the most:
		 * L + R + full x f = L + R + reserved. */
		double L = s->reclaim_loss_s > 0 ? s->reclaim_loss_s : 0;
		s->worst_at_s = L < s->full_s ? L : s->full_s;
		s->worst_finish_s = s->worst_at_s + s->restart_s + s->reserved_s;
	}
	if (s->limit_s > 0 && s->reserved_s > s->full_s) {
		double f = s->reserved_s / s->full_s, L = s->reclaim_loss_s > 0 ? s->reclaim_loss_s : 0;
		double from = s->limit_s - s->restart_s - s->reserved_s;  /* rising part: t + R + reserved > limit */
		double to = ((s->full_s + L) * f + s->restart_s - s->limit_s) / (f - 1); /* falling part */
		if (from < 0)
			from = 0;
		if (to > s->full_s)
			to = s->full_s;
		if (from < L && from < to) {
			s->risk_from_s = from;
			s->risk_to_s = to;
		}
	}
	/* Each reclaim: the unit leaves (a restart, and the save on the
	 * notice or half an interval lost), trains at the reserved size
	 * while its capacity is away, and joins again (a restart once a
	 * save is made: by the signal, or the next periodic one). */
	double leave = s->restart_s + (s->notice_saves ? s->save_s : half_interval);
	double away = s->spot_return_s * (1 - 1 / s->step_factor);
	double join = s->restart_s + (s->signal_save && s->save_s > 0 ? s->save_s : 0);
	s->expected_s = s->full_s + s->expected_faults * fault_cost +
			s->expected_reclaims * (leave + away + join);
}

/* JS7001 reclaim-past-time-limit */
static void reclaim_past_time_limit(const struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct plan_survival *s = &p->survival;
	if (!p->fleet.mixed || s->risk_to_s < 0)
		return;
	const char *key = yd_get(spec->doc, yd_root(spec->doc), "time_limit") ? "time_limit" : "capacity.reserved";
	struct diag *d;
	char when[96];
	if (s->risk_from_s <= 0 && s->risk_to_s >= s->full_s)
		snprintf(when, sizeof when, "a reclaim at any time");
	else if (s->risk_to_s >= s->full_s)
		snprintf(when, sizeof when, "a reclaim after hour %.1f", s->risk_from_s / 3600);
	else if (s->risk_from_s <= 0)
		snprintf(when, sizeof when, "a reclaim before hour %.1f (day %.1f)", s->risk_to_s / 3600,
			 s->risk_to_s / DAY);
	else
		snprintf(when, sizeof when, "a reclaim between hour %.1f and hour %.1f", s->risk_from_s / 3600,
			 s->risk_to_s / 3600);
	if (s->full_s > s->limit_s)
		d = spec_report(spec, diags, R_JS7001, key,
			"the run takes %.1f h at all %d nodes with its saves, past the time limit of %.1f h: it ends in a Slurm TIMEOUT before training completes even without a reclaim, and one whose spot capacity does not come back leaves the rest to the %d reserved nodes, which alone take %.1f h",
			s->full_s / 3600, p->nodes, s->limit_s / 3600, p->fleet.reserved, s->reserved_s / 3600);
	else if (s->reserved_s + s->restart_s > s->limit_s)
		d = spec_report(spec, diags, R_JS7001, key,
			"the %d reserved nodes alone take %.1f h for the run, past the time limit of %.1f h: %s whose spot capacity does not come back ends in a Slurm TIMEOUT before training completes",
			p->fleet.reserved, s->reserved_s / 3600, s->limit_s / 3600, when);
	else
		d = spec_report(spec, diags, R_JS7001, key,
			"%s whose spot capacity does not come back ends past the time limit of %.1f h: it may lose the %.1f h of training since the last periodic save, and the rest runs at the %d reserved nodes",
			when, s->limit_s / 3600, s->reclaim_loss_s / 3600, p->fleet.reserved);
	double need = s->reserved_s + s->restart_s + (s->reclaim_loss_s > 0 ? s->reclaim_loss_s * s->reserved_s / s->full_s : 0);
	diag_set_help(d, "a time limit of %.0f h holds the run at the reserved size after any reclaim; or add reserved nodes%s; the expected finish at the interruption rate is %.1f h",
		      need / 3600 + 1, s->notice_saves ? "" : ", or save more often (checkpoint.interval_minutes)", s->expected_s / 3600);
}

/* JS7002 checkpoint-interval-guessed */
static void checkpoint_interval_guessed(const struct plan *p, const struct spec *spec,
					struct diag_list *diags)
{
	const struct plan_survival *s = &p->survival;
	if (!s->interval_guess || !s->ckpt || !s->ckpt->interval)
		return;
	struct diag *d = spec_report(spec, diags, R_JS7002,
		s->interval_given ? "checkpoint.interval_minutes" : p->job->storage->id ? "storage.id" : "model",
		"the interval between checkpoints cannot be derived (%s), so the line saves every %lld steps (%s), a guess",
		s->interval_guess, s->interval_steps, s->ckpt->interval);
	diag_set_help(d, s->step_s > 0 ? "give storage.write_mb_per_s (or checkpoint.interval_minutes)"
					: "give the model's size and tokens so the plan has a step time");
}

/* JS7003 checkpoint-interval-below-save */
static void checkpoint_interval_below_save(const struct plan *p, const struct spec *spec,
					   struct diag_list *diags)
{
	const struct plan_survival *s = &p->survival;
	if (!s->interval_given || !(s->save_s > 0) || !(s->interval_s > 0) || s->save_s <= s->interval_s)
		return;
	struct diag *d = spec_report(spec, diags, R_JS7003, "checkpoint.interval_minutes",
		"a save takes %.0f s (%.3g GB at %.0f MB/s), longer than the %.0f s of training between saves: the run spends %.0f%% of its time saving",
		s->save_s, s->bytes / 1e9, s->write_bps / 1e6, s->interval_s, 100 * s->save_share);
	double best = daly_interval(s->save_s, s->mtbi_s);
	diag_set_help(d, "leave checkpoint.interval_minutes out for the plan's %.0f minutes, the optimum for the expected interruptions",
		      best / 60);
}

/* JS7004 fleet-resize-restarts-data */
static void fleet_resize_restarts_data(const struct plan *p, const struct spec *spec,
				       struct diag_list *diags)
{
	const struct fw_checkpoint *ck = p->survival.ckpt;
	if (!p->fleet.mixed || !ck || !ck->resize_flag)
		return;
	struct diag *d = spec_report(spec, diags, R_JS7004, "capacity.spot",
		"%s cannot resume its data at another size: %s", fw_def(p->job->framework)->title, ck->resize_how);
	diag_set_help(d, "the job writes %s %s when a round starts at a size other than the last one's; a framework whose checkpoint loads at any data-parallel size (megatron) keeps its data order",
		      ck->resize_flag, ck->resize_value);
}

bool plan_survival_derive(struct plan *p, const struct spec *spec, struct diag_list *diags)
{
	const struct job_spec *j = p->job;
	struct plan_survival *s = &p->survival;
	memset(s, 0, sizeof *s);
	s->ckpt = fw_checkpoint(j->framework, p->fw_version);
	s->params = p->model.parameters;
	s->bytes_per_param = fw_checkpoint_bytes_per_param(j->framework, j->training->zero_stage);
	s->bytes = s->params > 0 ? s->params * s->bytes_per_param : -1;
	write_rate(s, j->storage);
	s->save_s = s->bytes > 0 && s->write_bps > 0 ? s->bytes / s->write_bps : -1;
	s->load_s = s->save_s;
	struct plan_est e;
	plan_estimate(p, p->it, 0, &e);
	s->step_s = e.step_seconds;
	s->steps = p->model.steps > 0 ? (double)p->model.steps : e.steps;
	rates(s, p);
	interval(s, p);
	/* the line saves at the planned interval */
	p->model.save_interval = s->interval_steps;
	notice(s, p);
	deadline(s, p);
	reclaim_past_time_limit(p, spec, diags);
	checkpoint_interval_guessed(p, spec, diags);
	checkpoint_interval_below_save(p, spec, diags);
	fleet_resize_restarts_data(p, spec, diags);
	return true;
}

int plan_trainable_sizes(const struct plan *p, int *nodes, int *dp, int cap)
{
	const struct plan_fleet *f = &p->fleet;
	int n = 0, first = f->mixed ? f->reserved : p->nodes, step = f->mixed && f->unit ? f->unit : 1;
	int top = f->mixed ? f->reserved + f->spot : p->nodes;
	for (int k = first; k <= top && n < cap; k += step) {
		struct plan_world w;
		plan_world_at(p, k, &w);
		if (plan_world_stop(&w) != LAYOUT_OK)
			continue;
		nodes[n] = k;
		dp[n] = w.dp;
		n++;
	}
	return n;
}

/* ---- text and JSON ------------------------------------------------------- */

static void hours(struct buf *b, double s)
{
	if (s < 0)
		buf_puts(b, "unknown");
	else if (s < 120)
		buf_printf(b, "%.0f s", s);
	else if (s < 3 * 3600)
		buf_printf(b, "%.1f min", s / 60);
	else
		buf_printf(b, "%.1f h", s / 3600);
}

static void text_checkpoint(const struct plan_survival *s, const struct job_spec *j, struct buf *b)
{
	buf_puts(b, "  checkpoint       ");
	if (s->bytes > 0)
		buf_printf(b, "%.3g GB (%.3g parameters x %.0f bytes: weights and optimizer state, by %s's convention)",
			   s->bytes / 1e9, s->params, s->bytes_per_param, fw_def(j->framework)->title);
	else
		buf_puts(b, "size unknown (no model.parameters)");
	buf_puts(b, "; a save ");
	hours(b, s->save_s);
	if (s->write_bps > 0)
		buf_printf(b, " at %.0f MB/s (%s)", s->write_bps / 1e6, s->write_how);
	else if (s->write_how)
		buf_printf(b, " (write throughput %s)", s->write_how);
	buf_putc(b, '\n');
	buf_printf(b, "  interruptions    every %.1f days expected (node faults %.3g/node-day",
		   s->mtbi_s / DAY, interrupt_fact(INT_NODE_FAULTS)->value);
	if (s->spot)
		buf_printf(b, "; spot reclaims %.3g/node-month%s", s->spot_rate,
			   s->spot_rate_given ? "" : ", an assumption");
	buf_puts(b, ")\n");
	buf_puts(b, "  save interval    ");
	if (s->interval_steps > 0 && s->ckpt && s->ckpt->interval)
		buf_printf(b, "%s %lld steps = ", s->ckpt->interval, s->interval_steps);
	else if (s->ckpt && s->ckpt->interval)
		buf_printf(b, "%s not written: no step count or step time (model.tokens and seq_length); the optimum is ",
			   s->ckpt->interval);
	else if (s->interval_steps > 0)
		buf_printf(b, "%lld steps for the entry point's own saves (framework plain) = ", s->interval_steps);
	else
		buf_puts(b, "the entry point's own (framework plain); the optimum is ");
	hours(b, s->interval_s);
	buf_printf(b, " of training (%s)", s->interval_given ? "checkpoint.interval_minutes"
					   : s->interval_guess ? "a guess" : "Daly's optimum for the save and the interruptions");
	if (s->save_share >= 0)
		buf_printf(b, "; saving takes %.1f%% of the run", 100 * s->save_share);
	buf_putc(b, '\n');
}

static void text_notice(const struct plan *p, const struct plan_survival *s, struct buf *b)
{
	if (!s->spot)
		return;
	const struct fw_checkpoint *ck = s->ckpt;
	buf_puts(b, "  reclaim notice   ");
	if (s->notice_saves)
		buf_printf(b, "ends in a checkpoint: the watcher sends %s, every rank saves (%.0f s with a poll, a step and the margin, of the %.0f s notice)",
			   ck->signal_written, s->notice_need_s, interrupt_fact(INT_SPOT_NOTICE)->value);
	else if (s->signal_save && s->notice_need_s > 0)
		buf_printf(b, "cannot end in a checkpoint (a poll, a step, a save and the margin take %.0f s, more than the %.0f s notice): the job relies on the last periodic save",
			   s->notice_need_s, interrupt_fact(INT_SPOT_NOTICE)->value);
	else if (s->signal_save)
		buf_printf(b, "cannot be shown to end in a checkpoint (no save or step time to fit in the %.0f s notice): the job relies on the last periodic save",
			   interrupt_fact(INT_SPOT_NOTICE)->value);
	else
		buf_printf(b, "cannot end in a checkpoint (%s saves on no signal): the job relies on the last periodic save",
			   fw_def(p->job->framework)->title);
	buf_puts(b, "; a reclaim loses ");
	if (s->notice_saves)
		buf_puts(b, "no training");
	else {
		buf_puts(b, "at most ");
		hours(b, s->reclaim_loss_s);
		buf_puts(b, " of training");
	}
	buf_puts(b, ", and a restart takes ");
	hours(b, s->restart_s);
	buf_putc(b, '\n');
}

static void text_deadline(const struct plan *p, const struct plan_survival *s, struct buf *b)
{
	if (s->full_s < 0)
		return;
	buf_puts(b, "  run time         ");
	hours(b, s->full_s);
	buf_printf(b, p->fleet.mixed ? " at %d nodes" : " at %d nodes with the saves", p->nodes);
	if (p->fleet.mixed) {
		buf_printf(b, ", ");
		hours(b, s->reserved_s);
		buf_printf(b, " at the %d reserved alone", p->fleet.reserved);
	}
	buf_puts(b, "; expected ");
	hours(b, s->expected_s);
	buf_printf(b, " with %.2g reclaims and %.2g faults", s->expected_reclaims, s->expected_faults);
	if (p->fleet.mixed)
		buf_printf(b, " (reclaimed capacity back after %.0f h%s)", s->spot_return_s / 3600,
			   s->spot_return_given ? "" : ", an assumption");
	if (s->limit_s > 0) {
		buf_puts(b, "; time limit ");
		hours(b, s->limit_s);
	}
	buf_putc(b, '\n');
	if (!p->fleet.mixed || s->limit_s <= 0)
		return;
	if (s->worst_finish_s > 0) {
		buf_puts(b, "  worst reclaim    at hour ");
		buf_printf(b, "%.1f (the most training lost), the spot capacity never back: the run ends at hour %.1f, ",
			   s->worst_at_s / 3600, s->worst_finish_s / 3600);
		if (s->worst_finish_s > s->limit_s)
			buf_printf(b, "%.1f h past", (s->worst_finish_s - s->limit_s) / 3600);
		else
			buf_printf(b, "%.1f h within", (s->limit_s - s->worst_finish_s) / 3600);
		buf_puts(b, " the time limit of ");
		hours(b, s->limit_s);
		buf_putc(b, '\n');
	}
	buf_puts(b, "  deadline         ");
	if (s->risk_to_s < 0)
		buf_puts(b, "any reclaim, even one whose spot capacity never comes back, leaves the run within the time limit\n");
	else if (s->full_s > s->limit_s)
		buf_puts(b, "the run ends past the time limit even without a reclaim, and any reclaim whose spot capacity does not come back ends it later still\n");
	else if (s->risk_from_s <= 0 && s->risk_to_s >= s->full_s)
		buf_puts(b, "any reclaim whose spot capacity does not come back ends the run past the time limit\n");
	else if (s->risk_to_s >= s->full_s)
		buf_printf(b, "a reclaim after hour %.1f whose spot capacity does not come back ends the run past the time limit\n",
			   s->risk_from_s / 3600);
	else
		buf_printf(b, "a reclaim between hour %.1f and hour %.1f (day %.1f) whose spot capacity does not come back ends the run past the time limit; one after hour %.1f still ends within it\n",
			   s->risk_from_s / 3600, s->risk_to_s / 3600, s->risk_to_s / DAY, s->risk_to_s / 3600);
}

void plan_survival_text(const struct plan *p, struct buf *b)
{
	const struct plan_survival *s = &p->survival;
	text_checkpoint(s, p->job, b);
	text_notice(p, s, b);
	text_deadline(p, s, b);
}

void plan_survival_json(const struct plan *p, struct buf *b)
{
	const struct plan_survival *s = &p->survival;
	out_jobj(b, "checkpoints");
	out_jnum(b, "bytesPerParameter", s->bytes_per_param);
	out_jnum(b, "bytes", s->bytes);
	out_jnum(b, "writeBytesPerSecond", s->write_bps);
	out_jstr(b, "writeThroughputFrom", s->write_how);
	out_jnum(b, "saveSeconds", s->save_s);
	out_jnum(b, "loadSeconds", s->load_s);
	out_jnum(b, "stepSeconds", s->step_s);
	out_jnum(b, "steps", s->steps);
	out_jint(b, "intervalSteps", s->interval_steps);
	out_jnum(b, "intervalSeconds", s->interval_s);
	out_jstr(b, "intervalFrom", s->interval_given ? "checkpoint.interval_minutes" : s->interval_guess ? "guess" : "daly");
	out_jnum(b, "saveShare", s->save_share);
	out_jstr(b, "signal", s->signal_save ? s->ckpt->signal_written : NULL);
	buf_putc(b, '}');
	out_jobj(b, "interruptions");
	out_jnum(b, "nodeFaultsPerNodeDay", interrupt_fact(INT_NODE_FAULTS)->value);
	out_jnum(b, "spotInterruptionRatePerMonth", s->spot ? s->spot_rate : -1);
	out_jbool(b, "spotInterruptionRateAssumed", s->spot && !s->spot_rate_given);
	out_jnum(b, "spotReturnSeconds", p->fleet.mixed ? s->spot_return_s : -1);
	out_jnum(b, "meanSecondsBetween", s->mtbi_s);
	out_jnum(b, "expectedReclaims", s->full_s > 0 ? s->expected_reclaims : -1);
	out_jnum(b, "expectedFaults", s->full_s > 0 ? s->expected_faults : -1);
	out_jtri(b, "noticeSaves", s->spot ? s->notice_saves : -1);
	out_jnum(b, "noticeNeedSeconds", s->notice_need_s);
	out_jnum(b, "reclaimLossSeconds", s->reclaim_loss_s);
	out_jnum(b, "restartSeconds", s->restart_s);
	buf_putc(b, '}');
	out_jobj(b, "deadline");
	out_jnum(b, "timeLimitSeconds", s->limit_s);
	out_jnum(b, "fullSeconds", s->full_s);
	out_jnum(b, "reservedSeconds", s->reserved_s);
	out_jnum(b, "reclaimRiskFromSeconds", s->risk_from_s);
	out_jnum(b, "reclaimRiskToSeconds", s->risk_to_s);
	out_jnum(b, "worstReclaimSeconds", s->worst_at_s);
	out_jnum(b, "worstFinishSeconds", s->worst_finish_s);
	out_jnum(b, "expectedSeconds", s->expected_s);
	buf_putc(b, '}');
}
