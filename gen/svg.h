/* A small chart writer for the plan's SVG files: one plot area with
 * axes, ticks and labelled units, a legend on the right, and labels
 * placed where they overlap no other text. Sizes are in SVG user units
 * (pixels when rendered at 1:1). */
#ifndef TF_SVG_H
#define TF_SVG_H

#include <stdbool.h>

#include "buf.h"

#define SVG_W 960
#define SVG_H 560
#define SVG_FONT 12

struct svg_box {
	double x0, y0, x1, y1;
};

struct svg {
	struct buf b;
	double left, top, right, bottom; /* the plot area */
	double xmax, ymax;               /* axis maxima (the minima are 0) */
	struct svg_box taken[256];       /* text placed so far */
	int ntaken;
	double legend_y, note_y;
};

/* Opens the document: title (also as <title>), the schema version as
 * data-schema-version on the root, and the plot area's frame. */
void svg_begin(struct svg *s, const char *title, const char *subtitle, int schema_version);
/* The axes from 0 to round maxima at least xmax and ymax, with five
 * ticks each; ydollars puts a $ before the y tick values. */
void svg_axes(struct svg *s, double xmax, double ymax, const char *xlabel, const char *ylabel,
	      bool ydollars);
/* The same with the x axis from 0 to exactly xmax in xticks steps. */
void svg_axes_exact(struct svg *s, double xmax, int xticks, double ymax, const char *xlabel,
		    const char *ylabel, bool ydollars);
double svg_x(const struct svg *s, double v);
double svg_y(const struct svg *s, double v);
/* A marker: shape 0 circle, 1 square, 2 diamond, 3 triangle; hollow
 * draws a wider outline only, so that a filled marker under it still
 * shows. Labels placed later keep off it. */
void svg_marker(struct svg *s, int shape, double x, double y, const char *color, bool hollow);
/* Text at (x, y) (its baseline start) if it overlaps nothing placed;
 * returns false and draws nothing otherwise. */
bool svg_text(struct svg *s, double x, double y, int size, const char *anchor, const char *text);
/* A label for the point (x, y): tried right, left, above and below it,
 * then further out; false when every place is taken. */
bool svg_label(struct svg *s, double x, double y, const char *text);
/* Legend rows, from the top of the plot down. */
void svg_legend(struct svg *s, int shape, const char *color, bool hollow, bool line, const char *text);
void svg_legend_gap(struct svg *s);
/* A note under the plot (one line each, in order). */
void svg_note(struct svg *s, const char *text);
/* Closes the document and returns its text (the caller frees it). */
char *svg_end(struct svg *s);

extern const char *const svg_colors[8];

#endif
