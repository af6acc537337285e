/* `trainforge plan --svg FILE`: run cost against run time, one marker per
 * instance type and price (on-demand, spot, reserved) whose time and
 * price are both known. Types without them are listed under the chart,
 * so that a missing figure is visible, not silently dropped. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define W 760
#define H 520
#define L 90   /* plot area */
#define R 200
#define T 50
#define B 70

static void xml_text(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '&': buf_puts(b, "&amp;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		default:  buf_putc(b, *s);
		}
	}
}

/* A round axis maximum: 1, 2 or 5 times a power of ten, at least v.
 * (A loop, not log10: the binary links no libm.) */
static double nice_max(double v)
{
	double p = 1;
	if (!(v > 0) || v > 1e30)
		return 1;
	while (p * 10 < v)
		p *= 10;
	while (p > v && p > 1e-30)
		p /= 10;
	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				      "#8c564b", "#e377c2", "#17becf" };

static void marker(struct buf *b, int shape, double x, double y, const char *color)
{
	if (shape == 0)
		buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\"/>\n", x, y, color);
	else if (shape == 1)
		buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"11\" height=\"11\" fill=\"%s\"/>\n",
			   x - 5.5, y - 5.5, color);
	else
		buf_printf(b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"%s\"/>\n",
			   x, y - 7, x + 7, y, x, y + 7, x - 7, y, color);
}

static void axes(struct buf *b, double xmax, double ymax)
{
	int pw = W - L - R, ph = H - T - B;
	buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n",
		   L, T, pw, ph);
	for (int i = 0; i <= 5; i++) {
		double fx = L + pw * i / 5.0, fy = T + ph - ph * i / 5.0;
		buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", fx, T, fx, T + ph);
		buf_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, fy, L + pw, fy);
		buf_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g</text>\n", fx, T + ph + 18,
			   xmax * i / 5);
		buf_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">$%.4g</text>\n", L - 6, fy + 4,
			   ymax * i / 5);
	}
	buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">run time (days)</text>\n", L + pw / 2,
		   H - B + 42);
	buf_printf(b, "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">run cost (USD)</text>\n",
		   T + ph / 2, T + ph / 2);
}

void plan_report_svg(const struct plan *p, const struct plan_request *rq, FILE *out)
{
	size_t n = rq->ntypes ? rq->ntypes : 1;
	struct plan_est *es = calloc(n, sizeof *es);
	struct buf b = BUF_INIT;
	double xmax = 0, ymax = 0;
	size_t shown = 0;

	for (size_t i = 0; i < n && es; i++) {
		plan_estimate(p, rq->ntypes ? rq->types[i] : p->it, rq->hours, &es[i]);
		double days = es[i].run_hours > 0 ? es[i].run_hours / 24 : -1;
		for (int k = 0; k < PRICE__COUNT && days > 0; k++)
			if (es[i].run_cost[k] >= 0) {
				xmax = days > xmax ? days : xmax;
				ymax = es[i].run_cost[k] > ymax ? es[i].run_cost[k] : ymax;
			}
	}
	xmax = nice_max(xmax);
	ymax = nice_max(ymax);
	buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		       "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		       "font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H);
	buf_puts(&b, "<title>");
	xml_text(&b, p->job->name);
	buf_puts(&b, ": run cost against run time per instance type</title>\n");
	buf_printf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	buf_printf(&b, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">", L);
	xml_text(&b, p->job->name);
	buf_printf(&b, ": cost against time (TP %d x PP %d x CP %d x DP %d)</text>\n", p->tp, p->pp, p->cp, p->dp);
	axes(&b, xmax, ymax);
	int pw = W - L - R, ph = H - T - B, ly = T + 10;
	for (size_t i = 0; i < n && es; i++) {
		const struct plan_est *e = &es[i];
		const char *color = colors[i % (sizeof colors / sizeof colors[0])];
		double days = e->run_hours > 0 ? e->run_hours / 24 : -1;
		bool any = false;
		for (int k = 0; k < PRICE__COUNT; k++) {
			if (days <= 0 || e->run_cost[k] < 0)
				continue;
			double x = L + pw * days / xmax, y = T + ph - ph * e->run_cost[k] / ymax;
			buf_puts(&b, "<g><title>");
			xml_text(&b, e->it->name);
			buf_printf(&b, " %s: %.1f days, $%.0f</title>\n", plan_price_name((enum plan_price)k), days,
				   e->run_cost[k]);
			marker(&b, k, x, y, color);
			buf_puts(&b, "</g>\n");
			any = true;
		}
		shown += any;
		marker(&b, 0, W - R + 18, ly - 4, any ? color : "#bbb");
		buf_printf(&b, "<text x=\"%d\" y=\"%d\">", W - R + 30, ly);
		xml_text(&b, e->it->name);
		buf_printf(&b, "%s</text>\n", any ? "" : " (unknown)");
		ly += 20;
	}
	ly += 10;
	for (int k = 0; k < PRICE__COUNT; k++, ly += 20) {
		marker(&b, k, W - R + 18, ly - 4, "#555");
		buf_printf(&b, "<text x=\"%d\" y=\"%d\">%s</text>\n", W - R + 30, ly, plan_price_name((enum plan_price)k));
	}
	if (!shown)
		buf_printf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no instance type has both a run time and a price (see trainforge plan)</text>\n",
			   W / 2, T + ph / 2);
	buf_printf(&b, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555\">run time from %s; every figure with its source: trainforge plan</text>\n",
		   L, H - 10, rq->hours > 0 ? "--hours" : "6 (8 with full recomputation) x parameters x tokens / achieved FLOP/s");
	buf_puts(&b, "</svg>\n");
	fputs(b.p, out);
	buf_free(&b);
	free(es);
}
