/* `trainforge plan SPEC --tco FILE --svg OUT`: the cumulative cost of each
 * option over the months of the horizon, one line per option whose
 * figures are known; unknown options are listed in the legend. */
#include "tco.h"

#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define SVG_SCHEMA_VERSION 1

/* The cost up to the end of month m (1-based): whole years, then the
 * months of the current one; a year's cost accrues evenly. */
static double cumulative(const struct tco_option *op, int m)
{
	double sum = 0;
	int y = 0;
	for (; m >= 12; m -= 12, y++)
		sum += op->year[y];
	return m ? sum + op->year[y] * m / 12.0 : sum;
}

void plan_tco_svg(const struct plan *p, const struct tco_spec *t, FILE *out)
{
	struct tco_result r;
	struct svg s;
	char line[200];
	int months = 12 * t->years;
	plan_tco_compute(p, t, &r);
	double ymax = 0;
	for (int k = 0; k < TCO__COUNT; k++)
		if (r.opt[k].known && r.opt[k].total > ymax)
			ymax = r.opt[k].total;
	snprintf(line, sizeof line, "%s: owned against cloud over %d years", p->job->name, t->years);
	char sub[200];
	snprintf(sub, sizeof sub, "%s (%d servers) at %.3g%% of the hours; cloud: %d x %s in %s", t->owned->label
		 ? t->owned->label : "owned", t->owned->servers, 100 * t->owned->utilization, p->nodes, p->it->name,
		 p->job->cluster->region);
	svg_begin(&s, line, sub, SVG_SCHEMA_VERSION);
	svg_axes_exact(&s, months, t->years, ymax, "months", "cumulative cost (USD)", true);
	for (int y = 1; y < t->years; y++) {
		double x = svg_x(&s, 12 * y);
		buf_printf(&s.b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\" stroke-dasharray=\"3,3\"/>\n",
			   x, s.top, x, s.bottom);
	}
	for (int k = 0; k < TCO__COUNT; k++) {
		const struct tco_option *op = &r.opt[k];
		const char *color = svg_colors[k % 8];
		if (op->kind == TCO_MIX && r.mix_from)
			snprintf(line, sizeof line, "%d reserved + %d spot", r.mix_reserved, r.mix_spot);
		else
			snprintf(line, sizeof line, "%s", k == TCO_OWNED ? "owned" : tco_kind_name(op->kind));
		if (!op->known) {
			if (strlen(line) < sizeof line - 12)
				strcat(line, " (unknown)");
			svg_legend(&s, 0, "#bbbbbb", false, true, line);
			continue;
		}
		buf_printf(&s.b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"%s points=\"", color,
			   op->feasible ? "" : " stroke-dasharray=\"6,3\"");
		for (int m = 0; m <= months; m++)
			buf_printf(&s.b, "%s%.1f,%.1f", m ? " " : "", svg_x(&s, m), svg_y(&s, cumulative(op, m)));
		buf_printf(&s.b, "\"><title>%s: $%.0f over %d years</title></polyline>\n", line, op->total,
			   t->years);
		if (!op->feasible && strlen(line) < sizeof line - 24)
			strcat(line, " (cannot deliver)");
		svg_legend(&s, 0, color, false, true, line);
	}
	snprintf(line, sizeof line, "every owned figure is the file's assumption (%s); the cloud delivers the owned cluster's PFLOP-hours",
		 t->path);
	svg_note(&s, line);
	char *text = svg_end(&s);
	if (text)
		fputs(text, out);
	free(text);
}
