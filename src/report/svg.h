/*
 * svg.h - charts as inline SVG, written by C.
 *
 * The HTML report has no script: every chart is an <svg class="chart">
 * element with a viewBox, so it scales to the page width, prints, and works
 * offline.  Three kinds, all with a title, axes with "nice" ticks (1, 2, 5
 * x 10^n), and a legend:
 *
 *   bars   horizontal grouped bars: one group per configuration, one bar
 *          per series (read / write), value printed at the bar's end;
 *   lines  x/y lines, x linear or log2 (transfer sizes), one per series,
 *          solid or dashed;
 *   dots   latency percentiles: one row per configuration, a marker per
 *          percentile on a log10 µs axis, joined by a line.
 *
 * All text goes through rep_html_text; labels longer than the label column
 * are cut with an ellipsis and keep the full text in a <title> tooltip.
 * Output is a pure function of the input (fixed decimals), so goldens can
 * compare it byte for byte.
 */
#ifndef RL_REPORT_SVG_H
#define RL_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct rep_bar_chart {
	const char *title;
	const char *unit; /* after values and on the axis: "MB/s" */
	size_t ngroups;
	const char *const *group_labels;
	size_t nseries;
	const char *const *series_names;
	const char *const *series_colors;
	const double *values; /* ngroups x nseries, row-major; NAN: no bar */
};

enum rep_axis_format {
	REP_AXIS_PLAIN, /* numbers */
	REP_AXIS_BYTES, /* log2 transfer sizes: 512, 4K, 1M */
};

struct rep_series {
	const char *name;
	const char *color;
	bool dashed;
	size_t n;
	const double *x, *y; /* non-finite points are skipped */
};

struct rep_line_chart {
	const char *title;
	const char *x_label, *y_label;
	enum rep_axis_format x_format; /* REP_AXIS_BYTES: log2 x axis */
	size_t nseries;
	const struct rep_series *series;
};

struct rep_dot_chart {
	const char *title;
	size_t nrows;
	const char *const *row_labels;
	const char *const *row_colors;
	size_t npoints;
	const char *const *point_names; /* "p50", ... */
	const double *values;           /* nrows x npoints, µs; NAN: unknown */
};

void rep_svg_bars(FILE *f, const struct rep_bar_chart *c);
void rep_svg_lines(FILE *f, const struct rep_line_chart *c);
void rep_svg_dots(FILE *f, const struct rep_dot_chart *c);

/** Nice axis: 0 (or @lo) .. a round number above @hi, with the tick step. */
void rep_nice_axis(double lo, double hi, int ticks, double *out_lo, double *out_hi, double *step);

/*
 * For charts drawn elsewhere (sweep.c): open an <svg class="chart KIND">
 * of height @h (width REP_SVG_W) with its title; close it with "</svg>".
 * A label as the charts here write them (cut with a tooltip).
 */
#define REP_SVG_W 640.0
void rep_svg_begin(FILE *f, double h, const char *title, const char *kind);
void rep_svg_label(FILE *f, const char *s, double x, double y, const char *anchor);

/** Configuration colour @i of the palette (cycles). */
const char *rep_color(size_t i);

#endif
