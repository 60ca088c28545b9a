/*
 * html_charts.c - the chart sections of the HTML report.
 *
 *   Throughput  one bar chart per test (job): a group of bars per
 *               configuration, one bar per direction, MB/s.  Tests of a
 *               transfer-size sweep are left to the next section, which
 *               shows them better than thirty bar charts would.
 *   Sweep       results that are transfer-size sweeps (ATTO): MB/s against
 *               transfer size on a log2 axis, one chart per direction, one
 *               line per configuration.
 *   Curves      every test with tests[].curve (HD Tune over the LBA range,
 *               steady state over time): one chart per test name, one line
 *               per configuration, plus latency when the curve has it; and
 *               the drive figures (min/max/access time/burst) as a table.
 *   Latency     per test x direction, the percentiles p50/p90/p99/p99.9 of
 *               each configuration on a log axis, and all numbers in a
 *               collapsed table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fmt.h"
#include "report/html.h"
#include "report/render.h"
#include "report/svg.h"

static const char *const rep_dir_colors[REP_NDIR] = {"#2563eb", "#ea580c", "#6b7280"};

/* "512B", "4K", "64M", "1KB", "2MiB": a transfer size used as a test name. */
static bool rep_size_name(const char *s)
{
	static const char *const units[] = {"B",  "K",   "KB", "KiB", "M",
	                                    "MB", "MiB", "G",  "GB",  "GiB"};
	size_t digits = strspn(s, "0123456789");

	if (!digits)
		return false;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (!strcmp(s + digits, units[i]))
			return true;
	}
	return false;
}

bool rep_is_sweep(const struct rep_result *res)
{
	if (res->kind != REP_KIND_SUITE)
		return false;
	if (!strcmp(res->suite_name, "atto"))
		return true;
	if (res->ntests < 3)
		return false;
	for (size_t i = 0; i < res->ntests; i++) {
		if (!rep_size_name(res->tests[i].name) || res->tests[i].bs <= 0)
			return false;
	}
	return true;
}

/* Is row @r the first row of its test (name, occurrence)? */
static bool rep_first_of_test(const struct rep_compare *cmp, size_t r)
{
	for (size_t i = 0; i < r; i++) {
		if (cmp->rows[i].occurrence == cmp->rows[r].occurrence &&
		    !strcmp(cmp->rows[i].name, cmp->rows[r].name))
			return false;
	}
	return true;
}

/* The rows of the test of row @r, by direction (SIZE_MAX: none). */
static void rep_test_rows(const struct rep_compare *cmp, size_t r, size_t rows[REP_NDIR])
{
	for (int d = 0; d < REP_NDIR; d++)
		rows[d] = SIZE_MAX;
	for (size_t i = 0; i < cmp->nrows; i++) {
		if (cmp->rows[i].occurrence == cmp->rows[r].occurrence &&
		    !strcmp(cmp->rows[i].name, cmp->rows[r].name) &&
		    rows[cmp->rows[i].dir] == SIZE_MAX)
			rows[cmp->rows[i].dir] = i;
	}
}

/* Every column that has row @r is a sweep. */
static bool rep_row_in_sweep(const struct rep_compare *cmp, size_t r)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		if (cmp->rows[r].tests[c] && !rep_is_sweep(cmp->cols[c]))
			return false;
	}
	return true;
}

bool rep_html_has_bars(const struct rep_compare *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		if (!rep_row_in_sweep(cmp, r))
			return true;
	}
	return false;
}

void rep_html_bars(FILE *f, const struct rep_compare *cmp)
{
	const char **labels = calloc(cmp->ncols + 1, sizeof *labels);
	double *values = calloc(cmp->ncols * REP_NDIR + 1, sizeof *values);
	char title[288];

	if (!labels || !values || !rep_html_has_bars(cmp))
		goto out;
	for (size_t c = 0; c < cmp->ncols; c++)
		labels[c] = cmp->labels[c];
	fputs("<section id=\"throughput\"><h2>Throughput per test (MB/s)</h2>\n<div "
	      "class=\"grid\">\n",
	      f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		size_t rows[REP_NDIR];
		const char *names[REP_NDIR], *colors[REP_NDIR];
		size_t ns = 0;

		if (!rep_first_of_test(cmp, r) || rep_row_in_sweep(cmp, r))
			continue;
		rep_test_rows(cmp, r, rows);
		for (int d = 0; d < REP_NDIR; d++) {
			/* an access time has no throughput to chart (its table shows ms) */
			if (rows[d] == SIZE_MAX ||
			    rep_row_metric(cmp, rows[d], REP_METRIC_MB_S) == REP_METRIC_ACCESS)
				continue;
			names[ns] = rep_dir_name(d);
			colors[ns] = rep_dir_colors[d];
			for (size_t c = 0; c < cmp->ncols; c++) {
				const struct rep_figure *fig = rep_cell(cmp, rows[d], c);
				values[c * REP_NDIR + ns] = fig ? fig->mb_s : NAN;
			}
			ns++;
		}
		if (!ns)
			continue;
		/* compact the values to ncols x ns */
		for (size_t c = 0; c < cmp->ncols; c++) {
			for (size_t s = 0; s < ns; s++)
				values[c * ns + s] = values[c * REP_NDIR + s];
		}
		rep_row_name(&cmp->rows[r], title, sizeof title);
		struct rep_bar_chart chart = {
		    .title = title,
		    .unit = "MB/s",
		    .ngroups = cmp->ncols,
		    .group_labels = labels,
		    .nseries = ns,
		    .series_names = names,
		    .series_colors = colors,
		    .values = values,
		};
		fputs("<div class=\"card\">\n", f);
		rep_svg_bars(f, &chart);
		fputs("</div>\n", f);
	}
	fputs("</div></section>\n", f);
out:
	free(labels);
	free(values);
}

bool rep_html_has_sweep(const struct rep_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		if (rep_is_sweep(cmp->cols[c]))
			return true;
	}
	return false;
}

void rep_html_sweep(FILE *f, const struct rep_compare *cmp)
{
	struct rep_series *series = calloc(cmp->ncols + 1, sizeof *series);
	double **xs = calloc(cmp->ncols + 1, sizeof *xs), **ys = calloc(cmp->ncols + 1, sizeof *ys);
	char title[64];

	if (!series || !xs || !ys || !rep_html_has_sweep(cmp))
		goto out;
	fputs("<section id=\"sweep\"><h2>Transfer-size sweep</h2>\n<p class=\"sub\">MB/s "
	      "against transfer size (log scale), one line per configuration.</p>\n"
	      "<div class=\"grid\">\n",
	      f);
	for (int d = 0; d < REP_NDIR; d++) {
		size_t ns = 0;
		bool any = false;

		for (size_t c = 0; c < cmp->ncols; c++) {
			const struct rep_result *res = cmp->cols[c];
			size_t n = 0;

			if (!rep_is_sweep(res))
				continue;
			free(xs[ns]);
			free(ys[ns]);
			xs[ns] = calloc(res->ntests + 1, sizeof **xs);
			ys[ns] = calloc(res->ntests + 1, sizeof **ys);
			if (!xs[ns] || !ys[ns])
				break;
			for (size_t i = 0; i < res->ntests; i++) {
				const struct rep_test *t = &res->tests[i];

				if (!t->dir[d].present || t->bs <= 0)
					continue;
				xs[ns][n] = (double)t->bs;
				ys[ns][n] = t->dir[d].mb_s;
				n++;
			}
			any |= n > 0;
			series[ns] = (struct rep_series){.name = cmp->labels[c],
			                                 .color = rep_color(c),
			                                 .n = n,
			                                 .x = xs[ns],
			                                 .y = ys[ns]};
			ns++;
		}
		if (!any)
			continue;
		snprintf(title, sizeof title, "Transfer-size sweep: %s", rep_dir_name(d));
		struct rep_line_chart chart = {
		    .title = title,
		    .x_label = "transfer size (bytes, log scale)",
		    .y_label = "MB/s",
		    .x_format = REP_AXIS_BYTES,
		    .nseries = ns,
		    .series = series,
		};
		fputs("<div class=\"card\">\n", f);
		rep_svg_lines(f, &chart);
		fputs("</div>\n", f);
	}
	fputs("</div></section>\n", f);
out:
	for (size_t i = 0; xs && ys && i < cmp->ncols; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(xs);
	free(ys);
	free(series);
}

static bool rep_has_extras(const struct rep_test *t)
{
	return !isnan(t->min_mb_s) || !isnan(t->max_mb_s) || !isnan(t->access_time_ms) ||
	       !isnan(t->burst_mb_s);
}

bool rep_html_has_curves(const struct rep_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		for (size_t i = 0; i < cmp->cols[c]->ntests; i++) {
			if (cmp->cols[c]->tests[i].curve || rep_has_extras(&cmp->cols[c]->tests[i]))
				return true;
		}
	}
	return false;
}

/* The first test named @name with a curve in column @c, or NULL. */
static const struct rep_test *rep_curve_test(const struct rep_result *res, const char *name)
{
	for (size_t i = 0; i < res->ntests; i++) {
		if (res->tests[i].curve && !strcmp(res->tests[i].name, name))
			return &res->tests[i];
	}
	return NULL;
}

/* "position_gb" -> "position (GB)", "time_s" -> "time (s)". */
static void rep_axis_label(char *buf, size_t len, const char *key)
{
	static const char *const units[][2] = {
	    {"_gb", " (GB)"}, {"_gib", " (GiB)"}, {"_mb", " (MB)"},      {"_s", " (s)"},
	    {"_ms", " (ms)"}, {"_pct", " (%)"},   {"_bytes", " (bytes)"}};
	size_t n = strlen(key);

	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t u = strlen(units[i][0]);

		if (n > u && !strcmp(key + n - u, units[i][0])) {
			snprintf(buf, len, "%.*s%s", (int)(n - u), key, units[i][1]);
			goto spaces;
		}
	}
	snprintf(buf, len, "%s", key);
spaces:
	for (char *p = buf; *p; p++) {
		if (*p == '_')
			*p = ' ';
	}
}

static void rep_curve_chart(FILE *f, const struct rep_compare *cmp, const char *name, bool lat,
                            struct rep_series *series)
{
	char title[320], xl[128] = "x";
	size_t ns = 0;

	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_test *t = rep_curve_test(cmp->cols[c], name);

		if (!t || (lat && !t->curve->lat_us))
			continue;
		if (!ns)
			rep_axis_label(xl, sizeof xl, t->curve->x_label);
		series[ns++] = (struct rep_series){.name = cmp->labels[c],
		                                   .color = rep_color(c),
		                                   .n = t->curve->n,
		                                   .x = t->curve->x,
		                                   .y = lat ? t->curve->lat_us : t->curve->mb_s};
	}
	if (!ns)
		return;
	snprintf(title, sizeof title, "%s: %s", name, lat ? "latency" : "transfer rate");
	struct rep_line_chart chart = {
	    .title = title,
	    .x_label = xl,
	    .y_label = lat ? "\u00b5s" : "MB/s",
	    .x_format = REP_AXIS_PLAIN,
	    .nseries = ns,
	    .series = series,
	};
	fputs("<div class=\"card\">\n", f);
	rep_svg_lines(f, &chart);
	fputs("</div>\n", f);
}

static void rep_extras_table(FILE *f, const struct rep_compare *cmp)
{
	static const char *const heads[] = {"min MB/s",          "max MB/s",
	                                    "average read MB/s", "average write MB/s",
	                                    "access time ms",    "burst MB/s"};

	fputs("<div class=\"scroll\"><table>\n<caption>drive figures</caption>\n<thead><tr>"
	      "<th>test</th><th>configuration</th>",
	      f);
	for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
		fprintf(f, "<th class=\"n\">%s</th>", heads[k]);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t c0 = 0; c0 < cmp->ncols; c0++) {
		for (size_t i = 0; i < cmp->cols[c0]->ntests; i++) {
			const char *name = cmp->cols[c0]->tests[i].name;
			bool seen = false;

			if (!rep_has_extras(&cmp->cols[c0]->tests[i]))
				continue;
			/* a test name once, at its first column */
			for (size_t p = 0; p <= c0 && !seen; p++) {
				for (size_t j = 0; j < cmp->cols[p]->ntests; j++) {
					const struct rep_test *t = &cmp->cols[p]->tests[j];
					if ((p < c0 || j < i) && rep_has_extras(t) &&
					    !strcmp(t->name, name)) {
						seen = true;
						break;
					}
				}
			}
			if (seen)
				continue;
			for (size_t c = 0; c < cmp->ncols; c++) {
				const struct rep_test *t = NULL;
				double v[6];

				for (size_t j = 0; j < cmp->cols[c]->ntests && !t; j++) {
					if (!strcmp(cmp->cols[c]->tests[j].name, name))
						t = &cmp->cols[c]->tests[j];
				}
				if (!t)
					continue;
				v[0] = t->min_mb_s;
				v[1] = t->max_mb_s;
				v[2] = t->dir[REP_READ].present ? t->dir[REP_READ].mb_s : NAN;
				v[3] = t->dir[REP_WRITE].present ? t->dir[REP_WRITE].mb_s : NAN;
				v[4] = t->access_time_ms;
				v[5] = t->burst_mb_s;
				fputs("<tr><td class=\"name\">", f);
				rep_html_text(f, name);
				fputs("</td><td class=\"name\">", f);
				rep_html_col(f, cmp, c);
				fputs("</td>", f);
				for (int k = 0; k < 6; k++) {
					char buf[64];

					/* access times are small: up to three decimals */
					if (k == 4)
						rep_fmt_number(buf, sizeof buf, v[k]);
					else
						rep_fmt_value(buf, sizeof buf, v[k],
						              REP_METRIC_MB_S);
					fprintf(f, "<td class=\"n\">%s</td>", buf);
				}
				fputs("</tr>\n", f);
			}
		}
	}
	fputs("</tbody></table></div>\n", f);
}

void rep_html_curves(FILE *f, const struct rep_compare *cmp)
{
	struct rep_series *series = calloc(cmp->ncols + 1, sizeof *series);
	bool extras = false;

	if (!series || !rep_html_has_curves(cmp))
		goto out;
	fputs("<section id=\"curves\"><h2>Curves</h2>\n<div class=\"grid\">\n", f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_result *res = cmp->cols[c];

		for (size_t i = 0; i < res->ntests; i++) {
			const struct rep_test *t = &res->tests[i];
			bool seen = false, lat = false;

			extras |= rep_has_extras(t);
			if (!t->curve || rep_curve_test(res, t->name) != t)
				continue;
			for (size_t p = 0; p < c && !seen; p++)
				seen = rep_curve_test(cmp->cols[p], t->name) != NULL;
			if (seen)
				continue;
			rep_curve_chart(f, cmp, t->name, false, series);
			for (size_t p = 0; p < cmp->ncols; p++) {
				const struct rep_test *pt = rep_curve_test(cmp->cols[p], t->name);
				lat |= pt && pt->curve->lat_us;
			}
			if (lat)
				rep_curve_chart(f, cmp, t->name, true, series);
		}
	}
	fputs("</div>\n", f);
	if (extras)
		rep_extras_table(f, cmp);
	fputs("</section>\n", f);
out:
	free(series);
}

static bool rep_row_has_pct(const struct rep_compare *cmp, size_t r)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_figure *fig = rep_cell(cmp, r, c);

		for (int p = 0; fig && p < REP_NPCT; p++) {
			if (isfinite(fig->pct[p]))
				return true;
		}
	}
	return false;
}

bool rep_html_has_latency(const struct rep_compare *cmp)
{
	for (size_t r = 0; r < cmp->nrows; r++) {
		if (rep_row_has_pct(cmp, r))
			return true;
	}
	return false;
}

static void rep_latency_table(FILE *f, const struct rep_compare *cmp)
{
	char name[288];

	fputs("<details><summary>All latency figures (&micro;s)</summary>\n<div "
	      "class=\"scroll\"><table>\n<thead><tr><th>test</th><th>direction</th>"
	      "<th>configuration</th><th class=\"n\">mean</th>",
	      f);
	for (int p = 0; p < REP_NPCT; p++)
		fprintf(f, "<th class=\"n\">%s</th>", rep_pct_name(p));
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		rep_row_name(&cmp->rows[r], name, sizeof name);
		for (size_t c = 0; c < cmp->ncols; c++) {
			const struct rep_figure *fig = rep_cell(cmp, r, c);

			if (!fig)
				continue;
			fputs("<tr><td class=\"name\">", f);
			rep_html_text(f, name);
			fprintf(f, "</td><td>%s</td><td class=\"name\">",
			        rep_dir_name(cmp->rows[r].dir));
			rep_html_col(f, cmp, c);
			fputs("</td><td class=\"n\">", f);
			rep_html_num(f, fig->lat_mean_us, REP_METRIC_LAT);
			fputs("</td>", f);
			for (int p = 0; p < REP_NPCT; p++) {
				fputs("<td class=\"n\">", f);
				rep_html_num(f, fig->pct[p], REP_METRIC_LAT);
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table></div></details>\n", f);
}

void rep_html_latency(FILE *f, const struct rep_compare *cmp)
{
	const char **labels = calloc(cmp->ncols + 1, sizeof *labels);
	const char **colors = calloc(cmp->ncols + 1, sizeof *colors);
	double *values = calloc(cmp->ncols * REP_NPCT + 1, sizeof *values);
	const char *names[REP_NPCT];
	char title[320];
	bool charts = false;

	if (!labels || !colors || !values || !rep_html_has_latency(cmp))
		goto out;
	for (int p = 0; p < REP_NPCT; p++)
		names[p] = rep_pct_name(p);
	fputs("<section id=\"latency\"><h2>Latency percentiles</h2>\n<p class=\"sub\">p50, p90, "
	      "p99 and p99.9 of each configuration, log scale.</p>\n<div class=\"grid\">\n",
	      f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		size_t n = 0;

		if (!rep_row_has_pct(cmp, r) || rep_row_in_sweep(cmp, r))
			continue;
		for (size_t c = 0; c < cmp->ncols; c++) {
			const struct rep_figure *fig = rep_cell(cmp, r, c);

			if (!fig)
				continue;
			labels[n] = cmp->labels[c];
			colors[n] = rep_color(c);
			memcpy(&values[n * REP_NPCT], fig->pct, sizeof fig->pct);
			n++;
		}
		rep_row_title(&cmp->rows[r], title, sizeof title);
		struct rep_dot_chart chart = {
		    .title = title,
		    .nrows = n,
		    .row_labels = labels,
		    .row_colors = colors,
		    .npoints = REP_NPCT,
		    .point_names = names,
		    .values = values,
		};
		fputs("<div class=\"card\">\n", f);
		rep_svg_dots(f, &chart);
		fputs("</div>\n", f);
		charts = true;
	}
	fputs("</div>\n", f);
	if (!charts)
		fputs("<p>Transfer-size sweeps get no chart per size; their figures are in the "
		      "table.</p>\n",
		      f);
	rep_latency_table(f, cmp);
	fputs("</section>\n", f);
out:
	free(labels);
	free(colors);
	free(values);
}
