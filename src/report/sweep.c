/*
 * sweep.c - sweep documents: loading and the sweep's sections of the HTML
 * report (sweep.h).
 *
 * Each point's result goes through rep_result_parse, so a point is held to
 * the same contract as a result file and named "FILE: point LABEL" in
 * messages.  The charts are plain inline SVG like svg.c's (whose frame and
 * labels they use): the heatmap and the trade-off are drawn here, the
 * series are svg.c's line charts.  Everything is a pure function of the
 * document.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/advise.h"
#include "report/render.h"
#include "report/svg.h"
#include "report/sweep.h"

#define SWR_SERIES_MAX 16 /* lines in one series chart */
#define SWR_ROWS_MAX   8  /* series charts per axis */

static struct json_object *swr_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

bool rep_sweep_file(const char *path)
{
	char buf[512], flat[512];
	size_t n, k = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	for (size_t i = 0; i < n; i++)
		if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t' && buf[i] != '\r')
			flat[k++] = buf[i];
	flat[k] = 0;
	return strstr(flat, "\"kind\":\"sweep\"") != NULL;
}

static const char *swr_str(struct json_object *o, const char *key)
{
	struct json_object *v = swr_get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static int swr_point(struct rep_sweep *sw, struct json_object *p, size_t i, char *err,
                     size_t errlen)
{
	struct rep_sweep_point *pt = &sw->pts[i];
	struct json_object *axes = swr_get(p, "axes"), *res = swr_get(p, "result");
	char name[600];
	const char *text;
	size_t len;

	pt->label = swr_str(p, "label");
	pt->spec = swr_str(p, "spec");
	pt->workload = swr_str(p, "workload");
	if (!pt->label || !pt->spec || !pt->workload || !res) {
		snprintf(err, errlen, "%s: points[%zu] lacks label, spec, workload or result",
		         sw->path, i);
		return -EINVAL;
	}
	pt->values = calloc(sw->naxes ? sw->naxes : 1, sizeof(*pt->values));
	if (!pt->values)
		return -ENOMEM;
	for (size_t a = 0; a < sw->naxes; a++)
		pt->values[a] = swr_str(axes, sw->axes[a]);
	pt->capacity = json_object_get_double(swr_get(p, "capacity_bytes"));
	pt->survives = json_object_get_int(swr_get(p, "failures_survived"));
	snprintf(name, sizeof(name), "%s: point %.400s", sw->path, pt->label);
	text = json_object_to_json_string_length(res, JSON_C_TO_STRING_PLAIN, &len);
	return rep_result_parse(name, text, len, &pt->res, err, errlen);
}

int rep_sweep_from(const char *name, struct json_object *root, struct rep_sweep **out, char *err,
                   size_t errlen)
{
	struct rep_sweep *sw = calloc(1, sizeof(*sw));
	struct json_object *axes = swr_get(root, "axes"), *pts = swr_get(root, "points");
	int rc = 0;

	*out = NULL;
	if (!sw || !(sw->path = strdup(name))) {
		free(sw);
		return -ENOMEM;
	}
	sw->root = json_object_get(root);
	if (!swr_str(root, "kind") || strcmp(swr_str(root, "kind"), "sweep") ||
	    !json_object_is_type(axes, json_type_array) ||
	    !json_object_is_type(pts, json_type_array)) {
		snprintf(err, errlen, "%s: not a sweep document (kind, axes, points)", name);
		rep_sweep_free(sw);
		return -EINVAL;
	}
	sw->naxes = json_object_array_length(axes);
	sw->n = json_object_array_length(pts);
	sw->axes = calloc(sw->naxes + 1, sizeof(*sw->axes));
	sw->pts = calloc(sw->n + 1, sizeof(*sw->pts));
	if (!sw->axes || !sw->pts)
		rc = -ENOMEM;
	for (size_t a = 0; !rc && a < sw->naxes; a++)
		if (!(sw->axes[a] = json_object_get_string(json_object_array_get_idx(axes, a))))
			rc = -EINVAL;
	for (size_t i = 0; !rc && i < sw->n; i++)
		rc = swr_point(sw, json_object_array_get_idx(pts, i), i, err, errlen);
	for (int k = 0; !rc && k < 2; k++) {
		struct json_object *arr = swr_get(root, k ? "failed" : "skipped");
		size_t m = arr ? json_object_array_length(arr) : 0;
		struct rep_sweep_note *nn =
		    realloc(sw->notes, (sw->nnotes + m + 1) * sizeof(*sw->notes));
		if (!nn) {
			rc = -ENOMEM;
			break;
		}
		sw->notes = nn;
		for (size_t i = 0; i < m; i++) {
			struct json_object *o = json_object_array_get_idx(arr, i);
			sw->notes[sw->nnotes++] = (struct rep_sweep_note){
			    .label = swr_str(o, "label"),
			    .spec = swr_str(o, "spec"),
			    .reason = swr_str(o, "reason"),
			    .skipped = !k,
			};
		}
	}
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", name);
		rep_sweep_free(sw);
		return rc;
	}
	*out = sw;
	return 0;
}

int rep_sweep_load(const char *path, struct rep_sweep **out, char *err, size_t errlen)
{
	struct json_object *root = json_object_from_file(path);
	int rc;

	if (!root) {
		snprintf(err, errlen, "%s: %s", path, json_util_get_last_err());
		return -EINVAL;
	}
	rc = rep_sweep_from(path, root, out, err, errlen);
	json_object_put(root);
	return rc;
}

void rep_sweep_free(struct rep_sweep *sw)
{
	if (!sw)
		return;
	for (size_t i = 0; sw->pts && i < sw->n; i++) {
		free(sw->pts[i].values);
		rep_result_free(sw->pts[i].res);
	}
	free(sw->pts);
	free(sw->axes);
	free(sw->notes);
	free(sw->path);
	json_object_put(sw->root);
	free(sw);
}

int rep_sweep_results(const struct rep_sweep *sw, struct rep_result **out, char *err, size_t errlen)
{
	struct json_object *pts = swr_get(sw->root, "points");

	for (size_t i = 0; i < sw->n; i++) {
		struct json_object *res = swr_get(json_object_array_get_idx(pts, i), "result");
		char name[600];
		size_t len;
		const char *text =
		    json_object_to_json_string_length(res, JSON_C_TO_STRING_PLAIN, &len);
		int rc;
		snprintf(name, sizeof(name), "%s: point %.400s", sw->path, sw->pts[i].label);
		rc = rep_result_parse(name, text, len, &out[i], err, errlen);
		if (rc) {
			while (i--)
				rep_result_free(out[i]);
			return rc;
		}
	}
	return 0;
}

/* --- figures --- */

/* The MB/s of @pt for row @r of @cmp (matched by test name and direction); NAN if none. */
static double swr_value(const struct rep_sweep_point *pt, const struct rep_row *row)
{
	for (size_t t = 0; pt->res && t < pt->res->ntests; t++) {
		const struct rep_test *test = &pt->res->tests[t];
		if (!strcmp(test->name, row->name) && test->dir[row->dir].present)
			return test->dir[row->dir].mb_s;
	}
	return NAN;
}

static double swr_row_max(const struct rep_sweep *sw, const struct rep_row *row)
{
	double m = 0;

	for (size_t i = 0; i < sw->n; i++) {
		double v = swr_value(&sw->pts[i], row);
		if (isfinite(v) && v > m)
			m = v;
	}
	return m;
}

/* Geometric mean over the rows of the share of each row's best (0..1); NAN if none. */
static double swr_score(const struct rep_sweep *sw, const struct rep_compare *cmp, size_t p)
{
	double logsum = 0;
	size_t n = 0;

	for (size_t r = 0; r < cmp->nrows; r++) {
		double v = swr_value(&sw->pts[p], &cmp->rows[r]),
		       m = swr_row_max(sw, &cmp->rows[r]);
		if (isfinite(v) && v > 0 && m > 0) {
			logsum += log(v / m);
			n++;
		}
	}
	return n ? exp(logsum / (double)n) : NAN;
}

/* A number or a size ("64k", "1m", "7%") as a number; false if it is not one. */
static bool swr_numeric(const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return false;
	v = strtod(s, &end);
	if (end == s)
		return false;
	switch (*end) {
	case 'k':
	case 'K':
		v *= 1024;
		end++;
		break;
	case 'm':
	case 'M':
		v *= 1024 * 1024;
		end++;
		break;
	case 'g':
	case 'G':
		v *= 1024.0 * 1024 * 1024;
		end++;
		break;
	case '%':
		end++;
		break;
	default:
		break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	*out = v;
	return !*end && isfinite(v);
}

/* Is axis @a numeric: every point on it has a number, and there are two values at least? */
static bool swr_axis_numeric(const struct rep_sweep *sw, size_t a, bool *sizes)
{
	double first = NAN, v;
	bool two = false;

	*sizes = false;
	for (size_t i = 0; i < sw->n; i++) {
		const char *s = sw->pts[i].values[a];
		if (!s)
			continue;
		if (!swr_numeric(s, &v))
			return false;
		*sizes |= strpbrk(s, "kKmMgG") != NULL;
		if (isnan(first))
			first = v;
		else if (v != first)
			two = true;
	}
	return two;
}

/* The series of point @p along axis @a: the other axes' values and the workload. */
static void swr_series_name(const struct rep_sweep *sw, size_t p, size_t a, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t k = 0; k < sw->naxes && n < len; k++)
		if (k != a && sw->pts[p].values[k])
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "",
			                      sw->axes[k], sw->pts[p].values[k]);
	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", sw->pts[p].workload);
}

/* --- sections --- */

void rep_sweep_html_nav(FILE *f, const void *arg)
{
	const struct rep_sweep_page *pg = arg;

	if (pg && rep_advise_has(pg->sw->root))
		fputs("<a href=\"#advise\">Advise</a>", f);
	fputs("<a href=\"#sweep-heatmap\">Heatmap</a><a href=\"#sweep-series\">Series</a>"
	      "<a href=\"#sweep-tradeoff\">Trade-off</a><a href=\"#sweep-points\">Points</a>",
	      f);
}

static void swr_heatmap(FILE *f, const struct rep_sweep *sw, const struct rep_compare *cmp)
{
	const double lw = 200, top = 70, ch = 22;
	double cw = cmp->nrows ? (REP_SVG_W - lw) / (double)cmp->nrows : 0;
	char title[128];

	fputs("<section id=\"sweep-heatmap\"><h2>Heatmap</h2>\n<div class=\"card\">\n", f);
	rep_svg_begin(f, top + ch * (double)sw->n + 10,
	              "MB/s of each configuration and test (shade: share of the test's best)",
	              "heatmap");
	for (size_t r = 0; r < cmp->nrows; r++) {
		double x = lw + cw * ((double)r + 0.5);
		rep_row_title(&cmp->rows[r], title, sizeof(title));
		fprintf(f, "<g transform=\"translate(%.1f %.1f) rotate(-30)\">", x, top - 6);
		rep_svg_label(f, title, 0, 0, "start");
		fputs("</g>\n", f);
	}
	for (size_t i = 0; i < sw->n; i++) {
		double y = top + ch * (double)i;
		rep_svg_label(f, sw->pts[i].label, lw - 6, y + ch * 0.7, "end");
		for (size_t r = 0; r < cmp->nrows; r++) {
			double v = swr_value(&sw->pts[i], &cmp->rows[r]);
			double m = swr_row_max(sw, &cmp->rows[r]);
			double share = isfinite(v) && m > 0 ? v / m : 0;
			int light = (int)(95 - 55 * share);
			fprintf(f,
			        "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			        "height=\"%.1f\" fill=\"hsl(217,70%%,%d%%)\"/>\n",
			        lw + cw * (double)r, y, cw - 1, ch - 1, light);
			if (isfinite(v))
				fprintf(f,
				        "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" "
				        "text-anchor=\"middle\"%s>%.0f</text>\n",
				        lw + cw * ((double)r + 0.5), y + ch * 0.7,
				        light < 60 ? " style=\"fill:#fff\"" : "", v);
		}
	}
	fputs("</svg>\n</div></section>\n", f);
}

/* One line chart: row @r along axis @a, a line per series. */
static void swr_series_chart(FILE *f, const struct rep_sweep *sw, const struct rep_row *row,
                             size_t a, bool sizes)
{
	char names[SWR_SERIES_MAX][256], title[256], rt[128];
	struct rep_series series[SWR_SERIES_MAX];
	double xs[SWR_SERIES_MAX][64], ys[SWR_SERIES_MAX][64];
	size_t ns = 0;

	memset(series, 0, sizeof(series));
	for (size_t p = 0; p < sw->n; p++) {
		char name[256];
		double x, y = swr_value(&sw->pts[p], row);
		size_t s;
		if (!swr_numeric(sw->pts[p].values[a], &x) || !isfinite(y))
			continue;
		swr_series_name(sw, p, a, name, sizeof(name));
		for (s = 0; s < ns && strcmp(names[s], name); s++)
			;
		if (s == ns) {
			if (ns == SWR_SERIES_MAX)
				continue;
			snprintf(names[ns], sizeof(names[0]), "%s", name);
			series[ns].name = names[ns];
			series[ns].color = rep_color(ns);
			series[ns].x = xs[ns];
			series[ns].y = ys[ns];
			ns++;
		}
		if (series[s].n == 64)
			continue;
		size_t k = series[s].n++; /* keep x in order */
		while (k > 0 && xs[s][k - 1] > x) {
			xs[s][k] = xs[s][k - 1];
			ys[s][k] = ys[s][k - 1];
			k--;
		}
		xs[s][k] = x;
		ys[s][k] = y;
	}
	rep_row_title(row, rt, sizeof(rt));
	snprintf(title, sizeof(title), "%s along %s", rt, sw->axes[a]);
	struct rep_line_chart c = {
	    .title = title,
	    .x_label = sw->axes[a],
	    .y_label = "MB/s",
	    .x_format = sizes ? REP_AXIS_BYTES : REP_AXIS_PLAIN,
	    .nseries = ns,
	    .series = series,
	};
	fputs("<div class=\"card\">\n", f);
	rep_svg_lines(f, &c);
	fputs("</div>\n", f);
}

static void swr_series(FILE *f, const struct rep_sweep *sw, const struct rep_compare *cmp)
{
	bool any = false;

	fputs("<section id=\"sweep-series\"><h2>Series</h2>\n", f);
	for (size_t a = 0; a < sw->naxes; a++) {
		bool sizes;
		if (!swr_axis_numeric(sw, a, &sizes))
			continue;
		any = true;
		fputs("<h3>Along ", f);
		rep_html_text(f, sw->axes[a]);
		fputs("</h3>\n<div class=\"grid\">\n", f);
		for (size_t r = 0; r < cmp->nrows && r < SWR_ROWS_MAX; r++)
			swr_series_chart(f, sw, &cmp->rows[r], a, sizes);
		fputs("</div>\n", f);
	}
	if (!any)
		fputs("<p>No axis has numeric values (chunk sizes, member counts...) to draw "
		      "along.</p>\n",
		      f);
	fputs("</section>\n", f);
}

static void swr_tradeoff(FILE *f, const struct rep_sweep *sw, const struct rep_compare *cmp)
{
	const double x0 = 60, x1 = REP_SVG_W - 20, y0 = 300, y1 = 40;
	double cmax = 0, lo, hi, step;
	int smax = 0;

	for (size_t i = 0; i < sw->n; i++) {
		cmax = sw->pts[i].capacity > cmax ? sw->pts[i].capacity : cmax;
		smax = sw->pts[i].survives > smax ? sw->pts[i].survives : smax;
	}
	rep_nice_axis(0, cmax > 0 ? cmax / 1e9 : 1, 5, &lo, &hi, &step);
	fputs("<section id=\"sweep-tradeoff\"><h2>Trade-off</h2>\n<div class=\"card\">\n", f);
	rep_svg_begin(f, 370,
	              "Usable capacity against performance; colour: member failures survived",
	              "tradeoff");
	for (double t = lo; t <= hi + step / 2; t += step) {
		double x = x0 + (t - lo) / (hi - lo) * (x1 - x0);
		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g"
		        "</text>\n",
		        x, y1, x, y0, x, y0 + 14, t);
	}
	for (int k = 0; k <= 4; k++) {
		double y = y0 - (y0 - y1) * k / 4.0;
		fprintf(
		    f,
		    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n",
		    x0, y, x1, y, x0 - 4, y + 4, k * 25);
	}
	fprintf(f,
	        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">usable capacity (GB)</text>\n"
	        "<text x=\"12\" y=\"%.1f\" transform=\"rotate(-90 12 %.1f)\" "
	        "text-anchor=\"middle\">performance (share of the best, geometric mean)</text>\n",
	        (x0 + x1) / 2, y0 + 32, (y0 + y1) / 2, (y0 + y1) / 2);
	for (size_t i = 0; i < sw->n; i++) {
		double s = swr_score(sw, cmp, i);
		if (!isfinite(s))
			continue;
		double x = x0 + (sw->pts[i].capacity / 1e9 - lo) / (hi - lo) * (x1 - x0);
		double y = y0 - s * (y0 - y1);
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\">",
		        x, y, rep_color((size_t)sw->pts[i].survives));
		fputs("<title>", f);
		rep_html_text(f, sw->pts[i].label);
		fprintf(f, ": %.0f GB, %.0f %%, survives %d</title></circle>\n",
		        sw->pts[i].capacity / 1e9, s * 100, sw->pts[i].survives);
		fprintf(f, "<g class=\"val\">");
		rep_svg_label(f, sw->pts[i].label, x + 8, y - 6, "start");
		fputs("</g>\n", f);
	}
	for (int k = 0; k <= smax; k++)
		fprintf(f,
		        "<circle cx=\"%.1f\" cy=\"356\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" "
		        "y=\"360\">survives %d</text>\n",
		        x0 + 110.0 * k, rep_color((size_t)k), x0 + 110.0 * k + 9, k);
	fputs("</svg>\n</div></section>\n", f);
}

/* A rebuild point's estimated time for the whole member (tests[].rebuild.estimate_s), else NAN. */
static double swr_rebuild_s(const struct rep_sweep_point *pt)
{
	struct json_object *tests = swr_get(pt->res->root, "tests");
	size_t n = tests && json_object_is_type(tests, json_type_array)
	               ? json_object_array_length(tests)
	               : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *e =
		    swr_get(swr_get(json_object_array_get_idx(tests, i), "rebuild"), "estimate_s");
		if (e && (json_object_is_type(e, json_type_double) ||
		          json_object_is_type(e, json_type_int)))
			return json_object_get_double(e);
	}
	return NAN;
}

static void swr_points(FILE *f, const struct rep_sweep *sw, const struct rep_compare *cmp)
{
	bool rebuilds = false;

	for (size_t i = 0; i < sw->n; i++)
		rebuilds |= !isnan(swr_rebuild_s(&sw->pts[i]));
	fputs("<section id=\"sweep-points\"><h2>Points</h2>\n<div class=\"scroll\"><table>"
	      "<thead><tr><th>configuration</th>",
	      f);
	for (size_t a = 0; a < sw->naxes; a++) {
		fputs("<th>", f);
		rep_html_text(f, sw->axes[a]);
		fputs("</th>", f);
	}
	fputs("<th>workload</th><th class=\"n\">usable GB</th><th class=\"n\">failures "
	      "survived</th><th class=\"n\">performance</th>",
	      f);
	if (rebuilds)
		fputs("<th class=\"n\">rebuild of a member, estimated</th>", f);
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < sw->n; i++) {
		fputs("<tr><td class=\"name\">", f);
		rep_html_text(f, sw->pts[i].label);
		fputs("</td>", f);
		for (size_t a = 0; a < sw->naxes; a++) {
			fputs("<td>", f);
			rep_html_text(f, sw->pts[i].values[a] ? sw->pts[i].values[a] : "");
			fputs("</td>", f);
		}
		fputs("<td>", f);
		rep_html_text(f, sw->pts[i].workload);
		fprintf(f, "</td><td class=\"n\">%.1f</td><td class=\"n\">%d</td>",
		        sw->pts[i].capacity / 1e9, sw->pts[i].survives);
		fprintf(f, "<td class=\"n\">%.0f %%</td>", swr_score(sw, cmp, i) * 100);
		if (rebuilds) {
			double t = swr_rebuild_s(&sw->pts[i]);
			if (isnan(t))
				fputs("<td class=\"n\">-</td>", f);
			else
				fprintf(f, "<td class=\"n\">%.1f min</td>", t / 60);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	if (sw->nnotes) {
		fputs("<h3>Not measured</h3><ul>\n", f);
		for (size_t i = 0; i < sw->nnotes; i++) {
			fputs(sw->notes[i].skipped ? "<li>skipped <code>" : "<li>failed <code>", f);
			rep_html_text(f, sw->notes[i].spec);
			fputs("</code>: ", f);
			rep_html_text(f, sw->notes[i].reason);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</section>\n", f);
}

void rep_sweep_html_body(FILE *f, const void *arg)
{
	const struct rep_sweep_page *pg = arg;

	rep_advise_html(f, pg->sw->root);
	swr_heatmap(f, pg->sw, pg->cmp);
	swr_series(f, pg->sw, pg->cmp);
	swr_tradeoff(f, pg->sw, pg->cmp);
	swr_points(f, pg->sw, pg->cmp);
}

int rep_sweep_html_doc(FILE *f, struct json_object *doc, char *err, size_t errlen)
{
	struct rep_sweep *sw;
	struct rep_compare *cmp = NULL;
	struct rep_result **res;
	int rc = rep_sweep_from("sweep", doc, &sw, err, errlen);

	if (rc)
		return rc;
	if (!sw->n) {
		snprintf(err, errlen, "no point has a result to report");
		rep_sweep_free(sw);
		return -EINVAL;
	}
	res = calloc(sw->n, sizeof(*res));
	if (!res) {
		rep_sweep_free(sw);
		return -ENOMEM;
	}
	for (size_t i = 0; i < sw->n; i++)
		res[i] = sw->pts[i].res;
	rc = rep_compare_build(res, sw->n, 0, &cmp, err, errlen);
	if (!rc) {
		struct rep_sweep_page pg = {.sw = sw, .cmp = cmp};
		struct rep_html_extra extra = {
		    .nav = rep_sweep_html_nav, .body = rep_sweep_html_body, .arg = &pg};
		rep_html_write_extra(f, cmp, REP_METRIC_MB_S, &extra);
	}
	rep_compare_free(cmp);
	free(res);
	rep_sweep_free(sw);
	return rc;
}
