/* `trainforge plan --svg FILE`: run cost against run time, one marker per
 * compared type and price (on-demand, Capacity Block, reserved, spot)
 * whose time and price are both known. A type that does not fit in
 * memory (or has no valid layout) is drawn hollow and labelled, and is
 * never the cheapest; types without the figures are listed in the
 * legend, so that a missing figure is visible, not silently dropped. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "tco.h"

#define SVG_SCHEMA_VERSION 1

/* Why a row is drawn hollow, or NULL when it is drawn filled. */
static const char *hollow_why(const struct plan_row *r)
{
	if (r->status == ROW_NO_LAYOUT)
		return "no layout";
	if (r->est.fits == 0)
		return "does not fit";
	if (r->est.fits < 0)
		return "fit unknown";
	return NULL;
}

static bool plotted(const struct plan_row *r, int k)
{
	return (r->status == ROW_OK || r->status == ROW_NO_LAYOUT) && r->est.run_hours > 0 &&
	       r->est.run_cost[k] >= 0;
}

static bool priced(const struct plan_row *r)
{
	for (int k = 0; k < PRICE__COUNT; k++)
		if (r->est.rate[k].from != RATE_NONE)
			return true;
	return false;
}

static bool any_plotted(const struct plan_row *r)
{
	for (int k = 0; k < PRICE__COUNT; k++)
		if (plotted(r, k))
			return true;
	return false;
}

static void legend_row(struct svg *s, const struct plan_row *r, const char *color)
{
	char line[200];
	const char *why = hollow_why(r), *st = why;
	bool any = any_plotted(r);
	if (!any)
		st = !(r->est.run_hours > 0) ? "no run time" : !priced(r) ? "no price in the region" : "unknown";
	if (r->status == ROW_NO_PEAK || r->status == ROW_NO_RUN || r->status == ROW_NO_ACCEL)
		snprintf(line, sizeof line, "%s (%s)", r->it->name,
			 r->status == ROW_NO_PEAK ? "no sourced peak: cannot size" : "cannot size");
	else
		snprintf(line, sizeof line, "%s, %d nodes%s%s%s%s", r->it->name, r->nodes, st ? " (" : "",
			 st ? st : "", st ? ")" : "", r->rank == 1 ? ": cheapest" : "");
	svg_legend(s, 0, any ? color : "#bbbbbb", why != NULL, false, line);
}

/* A hollow row's label, at the first of its markers where there is room
 * (the legend has it in any case). */
static void label_row(struct svg *s, const struct plan_row *r)
{
	const char *why = hollow_why(r);
	char line[200];
	if (!why)
		return;
	snprintf(line, sizeof line, "%s: %s", r->it->name, why);
	for (int k = 0; k < PRICE__COUNT; k++)
		if (plotted(r, k) && svg_label(s, svg_x(s, r->est.run_hours / 24), svg_y(s, r->est.run_cost[k]), line))
			return;
}

/* The row's markers, one per price it has; true when there was one. */
static bool draw_row(struct svg *s, const struct plan_row *r, const char *color)
{
	const char *why = hollow_why(r);
	bool any = false;
	char line[200];
	for (int k = 0; k < PRICE__COUNT; k++) {
		if (!plotted(r, k))
			continue;
		double x = svg_x(s, r->est.run_hours / 24), y = svg_y(s, r->est.run_cost[k]);
		snprintf(line, sizeof line, "%s, %d nodes, %s: %.1f days, $%.0f%s%s", r->it->name, r->nodes,
			 plan_price_name((enum plan_price)k), r->est.run_hours / 24, r->est.run_cost[k],
			 why ? ", " : "", why ? why : "");
		buf_puts(&s->b, "<g><title>");
		buf_puts(&s->b, line);
		buf_puts(&s->b, "</title>\n");
		svg_marker(s, k, x, y, color, why != NULL);
		buf_puts(&s->b, "</g>\n");
		any = true;
	}
	return any;
}

static void compare_chart(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	struct plan_compare c;
	struct svg s;
	char line[200];
	if (!plan_compare_run(p, rq, &c))
		return;
	double xmax = rq->deadline_days > 0 ? rq->deadline_days : 0, ymax = 0;
	size_t shown = 0;
	for (size_t i = 0; i < c.n; i++)
		for (int k = 0; k < PRICE__COUNT; k++)
			if (plotted(&c.rows[i], k)) {
				double days = c.rows[i].est.run_hours / 24;
				xmax = days > xmax ? days : xmax;
				ymax = c.rows[i].est.run_cost[k] > ymax ? c.rows[i].est.run_cost[k] : ymax;
			}
	snprintf(line, sizeof line, "%s: cost per run against run time", p->job->name);
	char sub[200];
	if (rq->deadline_days > 0)
		snprintf(sub, sizeof sub, "each type at the fewest nodes that finish within %.4g days; prices for %s",
			 rq->deadline_days, p->job->cluster->region);
	else
		snprintf(sub, sizeof sub, "each type at the same %s as %d x %s; prices for %s",
			 rq->same == SAME_PEAK ? "peak dense BF16" : rq->same == SAME_NODES ? "node count" : "rank count",
			 p->nodes, p->it->name, p->job->cluster->region);
	svg_begin(&s, line, sub, SVG_SCHEMA_VERSION);
	svg_axes(&s, xmax, ymax, "run time (days)", "cost per run (USD)", true);
	if (rq->deadline_days > 0) {
		double x = svg_x(&s, rq->deadline_days);
		buf_printf(&s.b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"5,4\"/>\n",
			   x, s.top, x, s.bottom);
		snprintf(line, sizeof line, "deadline %.4g days", rq->deadline_days);
		svg_text(&s, x - 4, s.top + 14, 11, "end", line);
	}
	/* the legend first, in row order, so that no label takes its place */
	for (size_t i = 0; i < c.n; i++)
		legend_row(&s, &c.rows[i], svg_colors[i % 8]);
	svg_legend_gap(&s);
	for (int k = 0; k < PRICE__COUNT; k++)
		svg_legend(&s, k, "#555555", false, false, plan_price_name((enum plan_price)k));
	svg_legend(&s, 0, "#555555", true, false, "hollow: does not fit, never ranked");
	/* filled markers, then hollow ones: a hollow one over the same point rings it */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c.n; i++)
			if ((hollow_why(&c.rows[i]) != NULL) == (pass == 1))
				shown += draw_row(&s, &c.rows[i], svg_colors[i % 8]);
	/* labels last, clear of every marker */
	for (size_t i = 0; i < c.n; i++)
		label_row(&s, &c.rows[i]);
	if (!shown)
		svg_text(&s, (s.left + s.right) / 2, (s.top + s.bottom) / 2, 12, "middle",
			 "no instance type has both a run time and a price");
	snprintf(line, sizeof line, "run time from %s; reserved and spot rest on the spec's discounts; every figure with its source: trainforge plan",
		 rq->hours > 0 ? "--hours" : "6 (8 with full recomputation) x active parameters x tokens / achieved FLOP/s");
	svg_note(&s, line);
	char *text = svg_end(&s);
	if (text)
		fputs(text, out);
	free(text);
	plan_compare_free(&c);
}

void plan_report_svg(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	if (rq->tco)
		plan_tco_svg(p, rq->tco, out);
	else
		compare_chart(p, rq, out);
}
