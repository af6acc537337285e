/* The plan on one screen: the layout, whether it fits, the days, the
 * cost and the one risk that matters most, read in ten seconds. The
 * derivations, formulas and sources are `plan -v`'s; `--format
 * markdown` sets the same summary and the bill's lines as tables for a
 * design document, with the full plan under them (docs/plan.md, "One
 * screen first"). */
#include "plan.h"

#include <string.h>

#include "buf.h"
#include "plan_out.h"

/* The summary's figures, gathered once for the text and the markdown. */
struct brief {
	struct plan_est e;
	struct plan_bill bill;
	double usd;             /* the run as the spec buys it; < 0 unknown */
	const char *usd_how;
	char why[200];          /* why usd is unknown */
	char risk[320];
};

/* The run's cost as the spec buys it: a mixed fleet's blend, else every
 * node at the price of capacity.type for the expected finish. */
static void brief_cost(const struct plan *p, struct brief *r)
{
	const struct plan_bill *b = &r->bill;
	enum plan_price k = p->job->capacity->type == CAP_SPOT ? PRICE_SPOT
		: p->job->capacity->type == CAP_CAPACITY_BLOCK ? PRICE_CAPACITY_BLOCK : PRICE_ON_DEMAND;
	if (b->mixed) {
		r->usd = b->mixed_usd;
		r->usd_how = "the reserved part and the spot part at the interruption rate";
		snprintf(r->why, sizeof r->why, "%s", b->reserved_usd < 0 ? b->reserved_how : b->spot_how);
	} else {
		r->usd = b->compute_usd[k];
		r->usd_how = plan_price_name(k);
		plan_rate_why(&p->rate[k], r->why, sizeof r->why);
	}
}

/* The one risk that matters most, in this order: the layout does not
 * fit; the run ends past its time limit; a reclaim whose capacity never
 * returns ends it past the limit; the checkpoints fill the file system;
 * the run is within the limit's margin; the cost is unknown; else the
 * assumption the estimate rests on. */
static void brief_risk(const struct plan *p, struct brief *r)
{
	const struct plan_bill *b = &r->bill;
	const struct plan_survival *s = &p->survival;
	size_t n = sizeof r->risk;
	if (r->e.fits == 0)
		snprintf(r->risk, n, "the layout does NOT fit in memory: %.1f of %.1f GiB per rank",
			 r->e.total / PLAN_GIB, r->e.capacity / PLAN_GIB);
	else if (b->limit_s > 0 && b->run_s > b->limit_s)
		snprintf(r->risk, n, "the run ends past its time limit (%.1f days expected, %.1f allowed): Slurm ends it "
			 "before the training does", b->run_s / 86400, b->limit_s / 86400);
	else if (p->fleet.mixed && s->worst_finish_s > 0 && s->limit_s > 0 && s->worst_finish_s > s->limit_s)
		snprintf(r->risk, n, "a spot reclaim whose capacity never returns ends the run at day %.1f, past its "
			 "%.1f-day limit", s->worst_finish_s / 86400, s->limit_s / 86400);
	else if (b->ckpt_fit >= 0 && b->saves > b->ckpt_fit)
		snprintf(r->risk, n, "the file system holds %d checkpoint%s beside the corpus and the run writes %.0f: "
			 "delete older saves or size it up", b->ckpt_fit, b->ckpt_fit == 1 ? "" : "s", b->saves);
	else if (b->limit_s > 0 && b->run_s > b->limit_s * 0.9)
		snprintf(r->risk, n, "the run is within 10%% of its time limit (%.1f of %.1f days)", b->run_s / 86400,
			 b->limit_s / 86400);
	else if (r->usd < 0)
		snprintf(r->risk, n, "the cost is unknown: %s", r->why);
	else
		snprintf(r->risk, n, "the estimate rests on utilization %.2g of peak%s", plan_utilization(p),
			 p->job->training->utilization > 0 ? " (training.utilization)"
							     : " (the default, an assumption: set training.utilization)");
}

static void brief_derive(const struct plan *p, struct brief *r)
{
	memset(r, 0, sizeof *r);
	plan_estimate(p, p->it, 0, &r->e);
	plan_bill_derive(p, &r->bill);
	brief_cost(p, r);
	brief_risk(p, r);
}

static void layout(const struct plan *p, struct buf *o)
{
	buf_printf(o, "%d x %s", p->nodes, p->it->name);
	if (p->fleet.mixed)
		buf_printf(o, " (%d reserved + %d spot)", p->fleet.reserved, p->fleet.spot);
	buf_printf(o, ", %s TP %d x PP %d x CP %d", fw_name(p->job->framework), p->tp, p->pp, p->cp);
	if (p->ep > 1)
		buf_printf(o, " x EP %d", p->ep);
	buf_printf(o, " -> DP %d, global batch %d", p->dp, p->global);
}

static void fits(const struct brief *r, struct buf *o)
{
	if (r->e.fits < 0) {
		buf_puts(o, "unknown (no model size or accelerator memory)");
		return;
	}
	buf_printf(o, "%s: %.1f of %.1f GiB per rank", r->e.fits ? "yes" : "NO", r->e.total / PLAN_GIB,
		   r->e.capacity / PLAN_GIB);
}

static void days(const struct brief *r, struct buf *o)
{
	const struct plan_bill *b = &r->bill;
	if (!(b->run_s > 0)) {
		buf_puts(o, "unknown (give model.tokens and the model's size)");
		return;
	}
	buf_printf(o, "%.1f expected (compute %.1f", b->run_s / 86400, b->compute_s / 86400);
	if (b->pause_s > 0 || b->restart_s > 0)
		buf_puts(o, ", saves and restarts");
	if (b->compile_s > 0)
		buf_puts(o, ", compile");
	buf_putc(o, ')');
	if (b->limit_s > 0)
		buf_printf(o, "; time limit %.1f", b->limit_s / 86400);
}

static void cost(const struct brief *r, struct buf *o)
{
	if (r->usd >= 0) {
		out_money(o, r->usd, "unknown");
		buf_printf(o, " for the run (%s)", r->usd_how);
	} else {
		buf_puts(o, "unknown");
	}
	double cb = r->bill.compute_usd[PRICE_CAPACITY_BLOCK];
	if (cb >= 0 && strcmp(r->usd_how, plan_price_name(PRICE_CAPACITY_BLOCK))) {
		buf_puts(o, "; as a Capacity Block ");
		out_money(o, cb, "unknown");
	}
}

void plan_brief_text(const struct plan *p, FILE *out)
{
	struct brief r;
	struct buf o = BUF_INIT;
	brief_derive(p, &r);
	buf_printf(&o, "plan for %s\n  layout  ", p->job->name);
	layout(p, &o);
	buf_puts(&o, "\n  fits    ");
	fits(&r, &o);
	buf_puts(&o, "\n  days    ");
	days(&r, &o);
	buf_puts(&o, "\n  cost    ");
	cost(&r, &o);
	buf_printf(&o, "\n  risk    %s\n", r.risk);
	buf_puts(&o, "(trainforge plan -v: the bill's lines, the derivations, formulas and sources)\n");
	fputs(o.p, out);
	buf_free(&o);
}

/* A cell of a markdown table: a pipe in it would end the cell. */
static void cell(struct buf *o, const char *s, size_t n)
{
	while (n > 0 && (*s == ' '))
		s++, n--;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '|')
			buf_putc(o, '\\');
		buf_putc(o, s[i]);
	}
}

/* The bill's text lines ("  LABEL<pad to 25>FIGURE") as table rows. */
static void bill_rows(const char *text, struct buf *o)
{
	const char *l = strchr(text, '\n');
	for (l = l ? l + 1 : text + strlen(text); *l;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		size_t split = len > 25 ? 25 : len;
		buf_puts(o, "| ");
		cell(o, l, split);
		buf_puts(o, " | ");
		cell(o, l + split, len - split);
		buf_puts(o, " |\n");
		l += len + (end ? 1 : 0);
	}
}

void plan_brief_markdown(const struct plan *p, const char *full, FILE *out)
{
	struct brief r;
	struct buf o = BUF_INIT, t = BUF_INIT, bill = BUF_INIT;
	brief_derive(p, &r);
	buf_printf(&o, "# Plan for %s\n\n| | |\n|---|---|\n", p->job->name);
	static const char *const rows[] = { "layout", "fits", "days", "cost" };
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		buf_reset(&t);
		if (i == 0)
			layout(p, &t);
		else if (i == 1)
			fits(&r, &t);
		else if (i == 2)
			days(&r, &t);
		else
			cost(&r, &t);
		buf_printf(&o, "| %s | ", rows[i]);
		cell(&o, t.p ? t.p : "", t.len);
		buf_puts(&o, " |\n");
	}
	buf_puts(&o, "| risk | ");
	cell(&o, r.risk, strlen(r.risk));
	buf_puts(&o, " |\n\n## The bill\n\n| line | figure |\n|---|---|\n");
	plan_bill_text(p, &r.bill, &bill);
	bill_rows(bill.p ? bill.p : "", &o);
	buf_puts(&o, "\n## Derivations, formulas and sources\n\n```text\n");
	buf_puts(&o, full);
	buf_puts(&o, "```\n");
	fputs(o.p, out);
	buf_free(&o);
	buf_free(&t);
	buf_free(&bill);
}
