#include "svg.h"

#include <stdio.h>
#include <string.h>

#include "plan_out.h"

#define LEGEND_X (SVG_W - 290)

const char *const svg_colors[8] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
				    "#8c564b", "#e377c2", "#17becf" };

/* Text is measured, not rendered: sans-serif glyphs average under 0.6
 * of the font size in width, so boxes are a little wider than the ink. */
static struct svg_box text_box(double x, double y, int size, const char *anchor, const char *text)
{
	double w = 0.6 * size * strlen(text);
	double x0 = !strcmp(anchor, "end") ? x - w : !strcmp(anchor, "middle") ? x - w / 2 : x;
	return (struct svg_box){ x0, y - size, x0 + w, y + size * 0.25 };
}

static bool overlaps(const struct svg_box *a, const struct svg_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static bool free_at(const struct svg *s, const struct svg_box *box)
{
	if (box->x0 < 0 || box->y0 < 0 || box->x1 > SVG_W || box->y1 > SVG_H)
		return false;
	for (int i = 0; i < s->ntaken; i++)
		if (overlaps(box, &s->taken[i]))
			return false;
	return true;
}

bool svg_text(struct svg *s, double x, double y, int size, const char *anchor, const char *text)
{
	struct svg_box box = text_box(x, y, size, anchor, text);
	if (!free_at(s, &box) || s->ntaken == (int)(sizeof s->taken / sizeof s->taken[0]))
		return false;
	s->taken[s->ntaken++] = box;
	buf_printf(&s->b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">", x, y, size, anchor);
	out_xml(&s->b, text);
	buf_puts(&s->b, "</text>\n");
	return true;
}

/* A 1, 2 or 5 times a power of ten, at least v. (A loop, not log10:
 * the binary links no libm.) */
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

void svg_begin(struct svg *s, const char *title, const char *subtitle, int schema_version)
{
	memset(s, 0, sizeof *s);
	s->left = 100, s->top = 70, s->right = LEGEND_X - 30, s->bottom = SVG_H - 110;
	s->legend_y = s->top + 12;
	s->note_y = s->bottom + 62;
	buf_printf(&s->b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			  "font-family=\"sans-serif\" font-size=\"%d\" data-schema-version=\"%d\">\n",
		   SVG_W, SVG_H, SVG_W, SVG_H, SVG_FONT, schema_version);
	buf_puts(&s->b, "<title>");
	out_xml(&s->b, title);
	buf_puts(&s->b, "</title>\n");
	buf_printf(&s->b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", SVG_W, SVG_H);
	svg_text(s, 20, 28, 16, "start", title);
	if (subtitle)
		svg_text(s, 20, 48, 11, "start", subtitle);
}

double svg_x(const struct svg *s, double v)
{
	return s->left + (s->right - s->left) * v / s->xmax;
}

double svg_y(const struct svg *s, double v)
{
	return s->bottom - (s->bottom - s->top) * v / s->ymax;
}

static void tick_label(char *buf, size_t cap, double v, bool dollars)
{
	const char *unit = "";
	double shown = v;
	if (v >= 1e9)
		shown = v / 1e9, unit = "B";
	else if (v >= 1e6)
		shown = v / 1e6, unit = "M";
	else if (v >= 1e4)
		shown = v / 1e3, unit = "k";
	snprintf(buf, cap, "%s%.3g%s", dollars ? "$" : "", shown, unit);
}

void svg_axes(struct svg *s, double xmax, double ymax, const char *xlabel, const char *ylabel,
	      bool ydollars)
{
	svg_axes_exact(s, nice_max(xmax), 5, ymax, xlabel, ylabel, ydollars);
}

void svg_axes_exact(struct svg *s, double xmax, int xticks, double ymax, const char *xlabel,
		    const char *ylabel, bool ydollars)
{
	s->xmax = xmax > 0 ? xmax : 1;
	s->ymax = nice_max(ymax);
	xticks = xticks > 0 && xticks <= 20 ? xticks : 5;
	buf_printf(&s->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n",
		   s->left, s->top, s->right - s->left, s->bottom - s->top);
	char label[32];
	for (int i = 0; i <= xticks; i++) {
		double fx = s->left + (s->right - s->left) * i / xticks;
		buf_printf(&s->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			   fx, s->top, fx, s->bottom);
		tick_label(label, sizeof label, s->xmax * i / xticks, false);
		svg_text(s, fx, s->bottom + 18, SVG_FONT, "middle", label);
	}
	for (int i = 0; i <= 5; i++) {
		double fy = s->bottom - (s->bottom - s->top) * i / 5.0;
		buf_printf(&s->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			   s->left, fy, s->right, fy);
		tick_label(label, sizeof label, s->ymax * i / 5, ydollars);
		svg_text(s, s->left - 8, fy + 4, SVG_FONT, "end", label);
	}
	svg_text(s, (s->left + s->right) / 2, s->bottom + 40, 13, "middle", xlabel);
	/* the y label stands rotated left of the ticks; it takes that strip */
	double cy = (s->top + s->bottom) / 2, w = 0.6 * 13 * strlen(ylabel);
	if (s->ntaken < (int)(sizeof s->taken / sizeof s->taken[0]))
		s->taken[s->ntaken++] = (struct svg_box){ 8, cy - w / 2, 26, cy + w / 2 };
	buf_printf(&s->b, "<text x=\"22\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 22 %.1f)\">",
		   cy, cy);
	out_xml(&s->b, ylabel);
	buf_puts(&s->b, "</text>\n");
}

void svg_marker(struct svg *s, int shape, double x, double y, const char *color, bool hollow)
{
	char paint[80];
	double k = hollow ? 1.35 : 1; /* a hollow marker rings a filled one at the same point */
	if (hollow)
		snprintf(paint, sizeof paint, "fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"", color);
	else
		snprintf(paint, sizeof paint, "fill=\"%s\"", color);
	if (s->ntaken < (int)(sizeof s->taken / sizeof s->taken[0]))
		s->taken[s->ntaken++] = (struct svg_box){ x - 8 * k, y - 8 * k, x + 8 * k, y + 8 * k };
	switch (shape) {
	case 0:
		buf_printf(&s->b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" %s/>\n", x, y, 6 * k, paint);
		break;
	case 1:
		buf_printf(&s->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x - 5.5 * k,
			   y - 5.5 * k, 11 * k, 11 * k, paint);
		break;
	case 2:
		buf_printf(&s->b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" %s/>\n",
			   x, y - 7 * k, x + 7 * k, y, x, y + 7 * k, x - 7 * k, y, paint);
		break;
	default:
		buf_printf(&s->b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" %s/>\n",
			   x, y - 7 * k, x + 7 * k, y + 6 * k, x - 7 * k, y + 6 * k, paint);
	}
}

bool svg_label(struct svg *s, double x, double y, const char *text)
{
	/* inside the plot area only: the legend and the axes keep theirs */
	static const double dx[] = { 14, -14, 0, 0, 14, -14, 14, -14, 0, 0 };
	static const double dy[] = { 4, 4, -14, 24, -16, -16, 24, 24, -30, 38 };
	for (size_t i = 0; i < sizeof dx / sizeof dx[0]; i++) {
		const char *anchor = dx[i] > 0 ? "start" : dx[i] < 0 ? "end" : "middle";
		struct svg_box box = text_box(x + dx[i], y + dy[i], 11, anchor, text);
		if (box.x0 < s->left || box.x1 > s->right || box.y0 < s->top || box.y1 > s->bottom)
			continue;
		if (svg_text(s, x + dx[i], y + dy[i], 11, anchor, text))
			return true;
	}
	return false;
}

void svg_legend(struct svg *s, int shape, const char *color, bool hollow, bool line, const char *text)
{
	double y = s->legend_y;
	if (line)
		buf_printf(&s->b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			   LEGEND_X, y - 4, LEGEND_X + 20, y - 4, color);
	else
		svg_marker(s, shape, LEGEND_X + 10, y - 4, color, hollow);
	/* a long entry wraps once, at a space */
	const size_t width = (size_t)((SVG_W - LEGEND_X - 34) / (0.6 * 11));
	size_t n = strlen(text), cut = n;
	char first[120];
	if (n > width) {
		for (cut = width; cut > 0 && text[cut] != ' '; cut--)
			;
		if (!cut || cut >= sizeof first)
			cut = width < sizeof first ? width : sizeof first - 1;
	}
	memcpy(first, text, cut);
	first[cut] = '\0';
	svg_text(s, LEGEND_X + 28, y, 11, "start", first);
	if (cut < n) {
		s->legend_y += 14;
		svg_text(s, LEGEND_X + 40, s->legend_y, 11, "start", text + cut + (text[cut] == ' '));
	}
	s->legend_y += 18;
}

void svg_legend_gap(struct svg *s)
{
	s->legend_y += 8;
}

/* Notes wrap at word boundaries to the width of the picture. */
void svg_note(struct svg *s, const char *text)
{
	const size_t width = (size_t)((SVG_W - 40) / (0.6 * 10));
	char line[160];
	while (*text) {
		size_t n = strlen(text), cut = n;
		if (n > width && width < sizeof line) {
			for (cut = width; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = width;
		}
		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, text, cut);
		line[cut] = '\0';
		while (!svg_text(s, 20, s->note_y, 10, "start", line) && s->note_y < SVG_H - 6)
			s->note_y += 14;
		s->note_y += 14;
		text += cut;
		while (*text == ' ')
			text++;
	}
}

char *svg_end(struct svg *s)
{
	buf_puts(&s->b, "</svg>\n");
	return buf_detach(&s->b);
}
