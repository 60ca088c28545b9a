/*
 * svg.c - bar, line and percentile charts as inline SVG (see svg.h).
 *
 * Geometry is in viewBox units (the chart is 640 wide and scales with the
 * page); text is 12 units high, about 6.6 units per character, which sizes
 * the label column.  Every loop over ticks is bounded by a count, never by
 * a floating comparison, so hostile numbers (1e308, denormals) give an ugly
 * chart, not a hang.  Chart colours come from one palette, chosen to stay
 * apart for the common colour-vision deficiencies.
 *
 * The labels of bar and percentile rows (configuration labels, often whole
 * target specs) are wrapped, never cut: lines of at most LABEL_MAX code
 * points, broken after a space, comma or '(' where one falls in the second
 * half of a line, as <tspan> lines; the row grows to hold them.  Only past
 * LABEL_LINES lines is a label cut (with an ellipsis and the whole text as
 * its tooltip).  Other labels (legends, the sweep's points) are cut at
 * LABEL_MAX with a tooltip.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/fmt.h"
#include "report/render.h"
#include "report/svg.h"

#define W           640.0
#define CHAR_W      7.2 /* generous: a label column must not clip its text */
#define LABEL_MAX   30  /* code points of a label line */
#define LABEL_LINES 12  /* lines of a wrapped label before it is cut */
#define LINE_H      14  /* height of a label line */
#define MAX_TICKS   60

const char *rep_color(size_t i)
{
	static const char *const palette[] = {"#2563eb", "#ea580c", "#059669", "#9333ea",
	                                      "#dc2626", "#0891b2", "#ca8a04", "#db2777",
	                                      "#4b5563", "#65a30d"};
	return palette[i % (sizeof palette / sizeof palette[0])];
}

void rep_nice_axis(double lo, double hi, int ticks, double *out_lo, double *out_hi, double *step)
{
	double range, raw, mag, norm, s;

	if (!isfinite(lo) || !isfinite(hi) || !(hi > lo)) {
		lo = isfinite(lo) ? lo : 0.0;
		hi = lo + 1.0;
	}
	range = hi - lo;
	raw = range / (ticks > 0 ? ticks : 5);
	mag = pow(10.0, floor(log10(raw)));
	norm = raw / mag;
	s = (norm <= 1.0 ? 1.0 : norm <= 2.0 ? 2.0 : norm <= 5.0 ? 5.0 : 10.0) * mag;
	if (!isfinite(range) || !isfinite(s) || !(s > 0.0) || !isfinite(floor(lo / s) * s) ||
	    !isfinite(ceil(hi / s) * s) || (hi - lo) / s > MAX_TICKS) {
		*out_lo = 0.0;
		*out_hi = isfinite(hi) && hi > 0 ? hi : 1.0;
		*step = *out_hi - *out_lo;
		return;
	}
	*out_lo = floor(lo / s) * s;
	*out_hi = ceil(hi / s) * s;
	if (*out_hi <= *out_lo)
		*out_hi = *out_lo + s;
	*step = s;
}

static int rep_tick_count(double lo, double hi, double step)
{
	double n = (hi - lo) / step;

	if (!isfinite(n) || n < 1.0 || n > MAX_TICKS)
		return 1;
	return (int)lround(n);
}

static double rep_scale(double v, double lo, double hi, double p0, double p1)
{
	double t = (v - lo) / (hi - lo);

	if (!isfinite(t))
		t = 0.0;
	if (t < 0.0)
		t = 0.0;
	if (t > 1.0)
		t = 1.0;
	return p0 + t * (p1 - p0);
}

/* Code points of @s, for sizing the label column. */
static size_t rep_label_len(const char *s)
{
	size_t n = rep_text_width(s);
	return n > LABEL_MAX ? LABEL_MAX : n;
}

/* A label cut to LABEL_MAX code points, full text as a tooltip. */
static void rep_label(FILE *f, const char *s, double x, double y, const char *anchor)
{
	size_t n = rep_text_width(s);

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	if (n <= LABEL_MAX) {
		rep_html_text(f, s);
	} else {
		char buf[LABEL_MAX * 4 + 8];
		size_t i = 0, cp = 0;

		fputs("<title>", f);
		rep_html_text(f, s);
		fputs("</title>", f);
		while (s[i] && i < sizeof buf - 8) {
			if (((unsigned char)s[i] & 0xc0) != 0x80 && cp++ == LABEL_MAX - 1)
				break;
			buf[i] = s[i];
			i++;
		}
		buf[i] = '\0';
		rep_html_text(f, buf);
		fputs("\u2026", f);
	}
	fputs("</text>\n", f);
}

static void rep_svg_open(FILE *f, double h, const char *title, const char *kind)
{
	fprintf(f,
	        "<svg class=\"chart %s\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
	        "xmlns=\"http://www.w3.org/2000/svg\">\n<title>",
	        kind, W, h);
	rep_html_text(f, title);
	fputs("</title>\n<text class=\"ctitle\" x=\"0\" y=\"16\">", f);
	rep_html_text(f, title);
	fputs("</text>\n", f);
}

void rep_svg_begin(FILE *f, double h, const char *title, const char *kind)
{
	rep_svg_open(f, h, title, kind);
}

void rep_svg_label(FILE *f, const char *s, double x, double y, const char *anchor)
{
	rep_label(f, s, x, y, anchor);
}

/*
 * Where the lines of wrapped label @s end: @ends[i] is the byte offset
 * after line i.  Returns the number of lines (at most LABEL_LINES; *cut is
 * set when text remains after them).
 */
static size_t rep_wrap(const char *s, size_t ends[LABEL_LINES], bool *cut)
{
	size_t n = 0, i = 0;

	*cut = false;
	while (s[i] && n < LABEL_LINES) {
		size_t cp = 0, j = i, brk = 0;

		/* take up to LABEL_MAX code points; remember the last good break */
		while (s[j]) {
			if (((unsigned char)s[j] & 0xc0) != 0x80 && cp++ == LABEL_MAX)
				break;
			if ((s[j] == ' ' || s[j] == ',' || s[j] == '(') && cp > LABEL_MAX / 2)
				brk = j + 1;
			j++;
		}
		if (s[j] && brk)
			j = brk;
		ends[n++] = j;
		i = j;
		while (s[i] == ' ') /* a line does not start with the blank it broke at */
			i++;
	}
	*cut = s[i] != '\0';
	return n ? n : (ends[0] = 0, 1);
}

/* Lines of @s once wrapped. */
static size_t rep_label_lines(const char *s)
{
	size_t ends[LABEL_LINES];
	bool cut;

	return rep_wrap(s, ends, &cut);
}

/* Label @s wrapped into <tspan> lines, centred on @y (the baseline of one line). */
static void rep_label_wrapped(FILE *f, const char *s, double x, double y, const char *anchor)
{
	size_t ends[LABEL_LINES], start = 0;
	bool cut;
	size_t n = rep_wrap(s, ends, &cut);
	char buf[LABEL_MAX * 4 + 8];

	if (n == 1 && !cut) {
		rep_label(f, s, x, y, anchor);
		return;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x,
	        y - (double)(n - 1) * LINE_H / 2, anchor);
	fputs("<title>", f);
	rep_html_text(f, s);
	fputs("</title>", f);
	for (size_t k = 0; k < n; k++) {
		size_t len = ends[k] - start;
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, s + start, len);
		while (len && buf[len - 1] == ' ')
			len--;
		buf[len] = '\0';
		fprintf(f, "<tspan x=\"%.1f\" dy=\"%d\">", x, k ? LINE_H : 0);
		rep_html_text(f, buf);
		if (cut && k + 1 == n)
			fputs("\u2026", f);
		fputs("</tspan>", f);
		start = ends[k];
		while (s[start] == ' ')
			start++;
	}
	fputs("</text>\n", f);
}

/* A legend swatch and its name at (x, y); returns the x after it. */
static double rep_legend_item(FILE *f, double x, double y, const char *color, bool dashed,
                              const char *name)
{
	if (dashed)
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/>\n",
		        x, y - 4, x + 18, y - 4, color);
	else
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n",
		        x, y - 9, color);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + (dashed ? 22 : 16), y);
	rep_html_text(f, name);
	fputs("</text>\n", f);
	return x + (dashed ? 22 : 16) + (double)rep_label_len(name) * CHAR_W + 16;
}

/* Vertical grid lines and tick labels of a linear x axis. */
static void rep_x_ticks(FILE *f, double lo, double hi, double step, double x0, double x1,
                        double top, double bottom, const char *unit)
{
	int n = rep_tick_count(lo, hi, step);
	char buf[64];

	for (int i = 0; i <= n; i++) {
		double v = n == 1 ? (i ? hi : lo) : lo + step * i;
		double x = rep_scale(v, lo, hi, x0, x1);

		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		        x, top, x, bottom);
		rep_fmt_number(buf, sizeof buf, v);
		fprintf(
		    f,
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		    x, bottom + 14, buf);
	}
	if (unit) {
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x1,
		        bottom + 28);
		rep_html_text(f, unit);
		fputs("</text>\n", f);
	}
}

/* A group's height: its bars, or its wrapped label when that is taller. */
static double rep_bar_group_h(const struct rep_bar_chart *c, size_t g, double bar_h)
{
	double bars = (double)c->nseries * bar_h;
	size_t lines = rep_label_lines(c->group_labels[g]);
	double label = lines > 1 ? (double)lines * LINE_H : 0; /* one line fits any group */

	return label > bars ? label : bars;
}

void rep_svg_bars(FILE *f, const struct rep_bar_chart *c)
{
	const double bar_h = 13, gap = 12, top = 48;
	size_t lw = 4;
	double max = 0, lo, hi, step, x0, x1, y, h, body = 0;
	char buf[64];

	for (size_t g = 0; g < c->ngroups; g++)
		lw =
		    lw > rep_label_len(c->group_labels[g]) ? lw : rep_label_len(c->group_labels[g]);
	for (size_t i = 0; i < c->ngroups * c->nseries; i++) {
		if (isfinite(c->values[i]) && c->values[i] > max)
			max = c->values[i];
	}
	rep_nice_axis(0, max > 0 ? max : 1, 5, &lo, &hi, &step);
	x0 = (double)lw * CHAR_W + 16;
	x1 = W - 72;
	for (size_t g = 0; g < c->ngroups; g++)
		body += rep_bar_group_h(c, g, bar_h) + gap;
	h = top + body + 36;
	rep_svg_open(f, h, c->title, "bars");
	y = 36;
	{
		double lx = x0;
		for (size_t s = 0; s < c->nseries; s++)
			lx = rep_legend_item(f, lx, y, c->series_colors[s], false,
			                     c->series_names[s]);
	}
	y = top + body;
	rep_x_ticks(f, lo, hi, step, x0, x1, top - 4, y, c->unit);
	y = top;
	for (size_t g = 0; g < c->ngroups; g++) {
		double gh = rep_bar_group_h(c, g, bar_h);
		double by0 =
		    y + (gh - (double)c->nseries * bar_h) / 2; /* bars centred on the label */

		bool any = false;

		rep_label_wrapped(f, c->group_labels[g], x0 - 8, y + gh / 2 + 4, "end");
		for (size_t s = 0; s < c->nseries; s++)
			any |= isfinite(c->values[g * c->nseries + s]);
		if (!any)
			fprintf(f,
			        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">not measured</text>\n",
			        x0 + 6, y + gh / 2 + 4);
		for (size_t s = 0; s < c->nseries; s++) {
			double v = c->values[g * c->nseries + s];
			double by = by0 + (double)s * bar_h, bw;

			if (!isfinite(v))
				continue;
			bw = rep_scale(v, lo, hi, x0, x1) - x0;
			rep_fmt_value(buf, sizeof buf, v, REP_METRIC_MB_S);
			fprintf(f,
			        "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			        "height=\"%.1f\" fill=\"%s\"><title>",
			        x0, by + 1, bw, bar_h - 2, c->series_colors[s]);
			rep_html_text(f, c->group_labels[g]);
			fputc(' ', f);
			rep_html_text(f, c->series_names[s]);
			fprintf(f, ": %s ", buf);
			rep_html_text(f, c->unit);
			fprintf(f,
			        "</title></rect>\n<text class=\"val\" x=\"%.1f\" "
			        "y=\"%.1f\">%s</text>\n",
			        x0 + bw + 4, by + bar_h - 3, buf);
		}
		y += gh + gap;
	}
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
	        top - 4, x0, top + body);
	fputs("</svg>\n", f);
}

/* Compact transfer size for a log2 axis: 512, 4K, 1M. */
static void rep_fmt_size_tick(char *buf, size_t len, double v)
{
	static const char *const units[] = {"", "K", "M", "G", "T"};
	size_t u = 0;

	while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024.0;
		u++;
	}
	snprintf(buf, len, "%.0f%s", v, units[u]);
}

void rep_svg_lines(FILE *f, const struct rep_line_chart *c)
{
	const double left = 64, right = W - 16, top = 52, bottom = 300;
	bool logx = c->x_format == REP_AXIS_BYTES;
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, ymin = 0;
	double xlo, xhi, xstep, ylo, yhi, ystep, lx, ly, h;
	int rows = 1, n;
	char buf[64];

	for (size_t s = 0; s < c->nseries; s++) {
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];

			if (!isfinite(x) || !isfinite(y) || (logx && x <= 0))
				continue;
			xmin = x < xmin ? x : xmin;
			xmax = x > xmax ? x : xmax;
			ymax = y > ymax ? y : ymax;
			ymin = y < ymin ? y : ymin;
		}
	}
	if (!(xmin <= xmax)) {
		xmin = logx ? 1 : 0;
		xmax = logx ? 2 : 1;
	}
	if (logx) {
		xlo = floor(log2(xmin));
		xhi = ceil(log2(xmax));
		if (xhi <= xlo)
			xhi = xlo + 1;
		xstep = xhi - xlo > 12 ? 2 : 1;
	} else {
		rep_nice_axis(xmin, xmax, 6, &xlo, &xhi, &xstep);
	}
	rep_nice_axis(ymin, ymax > ymin ? ymax : ymin + 1, 5, &ylo, &yhi, &ystep);

	/* legend rows under the plot */
	lx = left;
	for (size_t s = 0; s < c->nseries; s++) {
		double wdt = 38 + (double)rep_label_len(c->series[s].name) * CHAR_W;
		if (lx + wdt > W && lx > left) {
			rows++;
			lx = left;
		}
		lx += wdt;
	}
	h = bottom + 44 + rows * 18;
	rep_svg_open(f, h, c->title, "lines");

	/* y grid */
	n = rep_tick_count(ylo, yhi, ystep);
	for (int i = 0; i <= n; i++) {
		double v = n == 1 ? (i ? yhi : ylo) : ylo + ystep * i;
		double y = rep_scale(v, ylo, yhi, bottom, top);

		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		        left, y, right, y);
		rep_fmt_number(buf, sizeof buf, v);
		fprintf(
		    f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    left - 6, y + 4, buf);
	}
	fprintf(f, "<text class=\"tick\" x=\"4\" y=\"%.1f\">", top - 14);
	rep_html_text(f, c->y_label);
	fputs("</text>\n", f);
	/* x grid */
	if (logx) {
		n = (int)(xhi - xlo);
		for (int i = 0; i <= n && i <= 64; i++) {
			double e = xlo + i, x = rep_scale(e, xlo, xhi, left, right);

			fprintf(f,
			        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			        "y2=\"%.1f\"/>\n",
			        x, top, x, bottom);
			if (fmod(e - xlo, xstep) != 0)
				continue;
			rep_fmt_size_tick(buf, sizeof buf, exp2(e));
			fprintf(f,
			        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
			        "text-anchor=\"middle\">%s</text>\n",
			        x, bottom + 14, buf);
		}
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", right,
		        bottom + 30);
		rep_html_text(f, c->x_label);
		fputs("</text>\n", f);
	} else {
		rep_x_ticks(f, xlo, xhi, xstep, left, right, top, bottom, c->x_label);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left,
	        bottom, right, bottom);

	for (size_t s = 0; s < c->nseries; s++) {
		const struct rep_series *se = &c->series[s];
		bool first = true;

		fprintf(f,
		        "<polyline class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
		        "points=\"",
		        se->color, se->dashed ? " stroke-dasharray=\"6 4\"" : "");
		for (size_t i = 0; i < se->n; i++) {
			double x = se->x[i], y = se->y[i];

			if (!isfinite(x) || !isfinite(y) || (logx && x <= 0))
				continue;
			fprintf(f, "%s%.1f,%.1f", first ? "" : " ",
			        rep_scale(logx ? log2(x) : x, xlo, xhi, left, right),
			        rep_scale(y, ylo, yhi, bottom, top));
			first = false;
		}
		fputs("\"><title>", f);
		rep_html_text(f, se->name);
		fputs("</title></polyline>\n", f);
		if (se->n > 64)
			continue;
		for (size_t i = 0; i < se->n; i++) {
			double x = se->x[i], y = se->y[i];

			if (!isfinite(x) || !isfinite(y) || (logx && x <= 0))
				continue;
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>",
			        rep_scale(logx ? log2(x) : x, xlo, xhi, left, right),
			        rep_scale(y, ylo, yhi, bottom, top), se->color);
			rep_html_text(f, se->name);
			if (logx)
				rep_fmt_bytes(buf, sizeof buf, x);
			else
				rep_fmt_number(buf, sizeof buf, x);
			fprintf(f, " at %s: ", buf);
			rep_fmt_number(buf, sizeof buf, y);
			fprintf(f, "%s</title></circle>\n", buf);
		}
	}
	/* legend */
	lx = left;
	ly = bottom + 48;
	for (size_t s = 0; s < c->nseries; s++) {
		double wdt = 38 + (double)rep_label_len(c->series[s].name) * CHAR_W;
		if (lx + wdt > W && lx > left) {
			ly += 18;
			lx = left;
		}
		rep_legend_item(f, lx, ly, c->series[s].color, c->series[s].dashed,
		                c->series[s].name);
		lx += wdt;
	}
	fputs("</svg>\n", f);
}

/* "10 µs", "1 ms", "2 s" for a latency axis (µs in). */
static void rep_fmt_us(char *buf, size_t len, double us)
{
	char num[48];

	if (us >= 1e6) {
		rep_fmt_number(num, sizeof num, us / 1e6);
		snprintf(buf, len, "%s s", num);
	} else if (us >= 1e3) {
		rep_fmt_number(num, sizeof num, us / 1e3);
		snprintf(buf, len, "%s ms", num);
	} else {
		rep_fmt_number(num, sizeof num, us);
		snprintf(buf, len, "%s \u00b5s", num);
	}
}

/* Marker @k (circle, square, triangle, diamond) at (x, y). */
static void rep_marker(FILE *f, int k, double x, double y, const char *color)
{
	switch (k % 4) {
	case 0:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\">", x, y, color);
		break;
	case 1:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\">",
		        x - 4, y - 4, color);
		break;
	case 2:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\">", x, y - 5,
		        x + 5, y + 4, x - 5, y + 4, color);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\">", x,
		        y - 5.5, x + 5.5, y, x, y + 5.5, x - 5.5, y, color);
		break;
	}
}

static const char *rep_marker_end(int k)
{
	return k % 4 == 0 ? "</circle>\n" : k % 4 == 1 ? "</rect>\n" : "</path>\n";
}

/* A row's height: the markers' row, or the wrapped label when taller. */
static double rep_dot_row_h(const char *label, double row_h)
{
	double lh = (double)rep_label_lines(label) * LINE_H + 12;

	return lh > row_h ? lh : row_h;
}

void rep_svg_dots(FILE *f, const struct rep_dot_chart *c)
{
	const double row_h = 26, top = 50;
	double vmin = INFINITY, vmax = -INFINITY, lo, hi, x0, x1, h, y, lx, body = 0, rowy = top;
	size_t lw = 4;
	char buf[64];

	for (size_t r = 0; r < c->nrows; r++)
		lw = lw > rep_label_len(c->row_labels[r]) ? lw : rep_label_len(c->row_labels[r]);
	for (size_t i = 0; i < c->nrows * c->npoints; i++) {
		double v = c->values[i];
		if (isfinite(v) && v > 0) {
			vmin = v < vmin ? v : vmin;
			vmax = v > vmax ? v : vmax;
		}
	}
	if (!(vmin <= vmax)) {
		vmin = 1;
		vmax = 10;
	}
	lo = floor(log10(vmin));
	hi = ceil(log10(vmax));
	if (hi <= lo)
		hi = lo + 1;
	x0 = (double)lw * CHAR_W + 16;
	x1 = W - 20;
	for (size_t r = 0; r < c->nrows; r++)
		body += rep_dot_row_h(c->row_labels[r], row_h);
	h = top + body + 36;
	rep_svg_open(f, h, c->title, "dots");
	lx = x0;
	for (size_t k = 0; k < c->npoints; k++) {
		rep_marker(f, (int)k, lx + 5, 32, "#374151");
		fputs(rep_marker_end((int)k), f);
		fprintf(f, "<text x=\"%.1f\" y=\"36\">", lx + 14);
		rep_html_text(f, c->point_names[k]);
		fputs("</text>\n", f);
		lx += 24 + (double)rep_label_len(c->point_names[k]) * CHAR_W;
	}
	y = top + body;
	for (int i = 0; i <= (int)(hi - lo) && i <= 64; i++) {
		double x = rep_scale(lo + i, lo, hi, x0, x1);

		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		        x, top - 6, x, y);
		rep_fmt_us(buf, sizeof buf, pow(10.0, lo + i));
		fprintf(
		    f,
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		    x, y + 14, buf);
	}
	fprintf(f,
	        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">latency, log "
	        "scale</text>\n",
	        x1, y + 30);
	for (size_t r = 0; r < c->nrows; r++) {
		double rh = rep_dot_row_h(c->row_labels[r], row_h);
		double cy = rowy + rh / 2, pmin = INFINITY, pmax = -INFINITY;

		rowy += rh;
		rep_label_wrapped(f, c->row_labels[r], x0 - 8, cy + 4, "end");
		for (size_t k = 0; k < c->npoints; k++) {
			double v = c->values[r * c->npoints + k];
			if (isfinite(v) && v > 0) {
				double x = rep_scale(log10(v), lo, hi, x0, x1);
				pmin = x < pmin ? x : pmin;
				pmax = x > pmax ? x : pmax;
			}
		}
		if (pmin <= pmax)
			fprintf(
			    f,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2\" stroke-opacity=\"0.45\"/>\n",
			    pmin, cy, pmax, cy, c->row_colors[r]);
		for (size_t k = 0; k < c->npoints; k++) {
			double v = c->values[r * c->npoints + k];

			if (!isfinite(v) || v <= 0)
				continue;
			rep_marker(f, (int)k, rep_scale(log10(v), lo, hi, x0, x1), cy,
			           c->row_colors[r]);
			fputs("<title>", f);
			rep_html_text(f, c->row_labels[r]);
			fputc(' ', f);
			rep_html_text(f, c->point_names[k]);
			fputs(": ", f);
			rep_fmt_value(buf, sizeof buf, v, REP_METRIC_LAT);
			fprintf(f, "%s \u00b5s</title>", buf);
			fputs(rep_marker_end((int)k), f);
		}
	}
	fputs("</svg>\n", f);
}
