/*
 * validate_html.c - a validation set as HTML (val_html, validate.h): the
 * verdict banner, a log-log chart of simulated against published figures,
 * the agreement statistics, the cells (each beyond 2x flagged with its
 * reason) and the findings.  Figures and verdicts come from validate.c;
 * this file only lays them out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/render.h"
#include "report/validate.h"
#include "report/validate_priv.h"

/* --- HTML --- */

/* Log-log scatter of simulated against published, with the 1x, 1.25x and 2x bands. */
static void val_html_chart(FILE *f, const struct val_set *s)
{
	const double W = 520, H = 520, M = 60, lo = 0.1, hi = 100000;
	const double span = log10(hi) - log10(lo);

#define VAL_X(v) (M + (log10(v) - log10(lo)) / span * (W - 2 * M))
#define VAL_Y(v) (H - M - (log10(v) - log10(lo)) / span * (H - 2 * M))
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" width=\"520\" role=\"img\">\n",
	        W, H);
	fprintf(f, "<title>simulated against published MB/s, log axes</title>\n");
	for (double d = lo; d <= hi * 1.0001; d *= 10) {
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        VAL_X(d), VAL_Y(lo), VAL_X(d), VAL_Y(hi));
		fprintf(f,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
		        VAL_X(lo), VAL_Y(d), VAL_X(hi), VAL_Y(d));
		fprintf(f,
		        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		        "text-anchor=\"middle\">%g</text>\n",
		        VAL_X(d), H - M + 16, d);
		fprintf(
		    f,
		    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
		    M - 4, VAL_Y(d) + 4, d);
	}
	static const double bands[] = {1.0, 1.25, 2.0};
	for (size_t b = 0; b < 3; b++)
		for (int sgn = -1; sgn <= 1; sgn += 2) {
			double k = sgn < 0 ? 1 / bands[b] : bands[b];
			double x0 = lo, x1 = hi, y0 = lo * k, y1 = hi * k;
			if (y0 < lo) {
				x0 = lo / k;
				y0 = lo;
			}
			if (y1 > hi) {
				x1 = hi / k;
				y1 = hi;
			}
			fprintf(
			    f,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-dasharray=\"%s\"/>\n",
			    VAL_X(x0), VAL_Y(y0), VAL_X(x1), VAL_Y(y1), b ? "#999" : "#333",
			    b == 1   ? "4 3"
			    : b == 2 ? "1 3"
			             : "none");
			if (!b)
				break;
		}
	for (size_t i = 0; i < s->nconfigs; i++)
		for (size_t j = 0; j < s->configs[i].ncells; j++) {
			const struct val_cell *c = &s->configs[i].cells[j];
			double sim = c->simulated;
			if (!(sim > 0))
				continue;
			sim = sim < lo ? lo : sim > hi ? hi : sim;
			const char *colour = c->anomaly                      ? "#999"
			                     : !strcmp(c->direction, "read") ? "#1f77b4"
			                                                     : "#d62728";
			/* in-sample cells hollow: a fitted cell is no check of the model */
			fprintf(f,
			        "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			        "fill-opacity=\"0.7\" stroke=\"%s\" stroke-width=\"1.5\">"
			        "<title>",
			        VAL_X(c->published), VAL_Y(sim), c->fit ? "none" : colour, colour);
			char n[2][32];
			rep_html_text(f, s->configs[i].name);
			fprintf(f, " %s %s: published %s, simulated %s%s</title></circle>\n",
			        c->test, c->direction, val_num_text(c->published, n[0]),
			        val_num_text(c->simulated, n[1]), c->fit ? " (in-sample)" : "");
		}
	fprintf(f,
	        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">published "
	        "MB/s</text>\n",
	        W / 2, H - 12);
	fprintf(f,
	        "<text x=\"14\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
	        "transform=\"rotate(-90 14 %.1f)\">simulated MB/s</text>\n",
	        H / 2, H / 2);
	fprintf(f, "</svg>\n");
#undef VAL_X
#undef VAL_Y
}

/* One part's agreement as a paragraph (the HTML twin of val_agree_print). */
static void val_html_agree(FILE *f, const char *what, const struct val_agree *a)
{
	fprintf(f, "<p class=\"agree\"><b>%s</b>: %zu cells", what, a->cells);
	if (a->counted)
		fprintf(
		    f,
		    " (%zu counted): median error &times;%.3f, worst &times;%.2f; within "
		    "1.25&times; %.0f %%, 1.5&times; %.0f %%, 2&times; %.0f %%, 4&times; %.0f %%",
		    a->counted, a->median_ratio, a->worst_ratio, 100 * a->share_125,
		    100 * a->share_15, 100 * a->share_2, 100 * a->share_4);
	if (a->orderings)
		fprintf(f, "; mode orderings %zu of %zu", a->orderings_held, a->orderings);
	fprintf(f, "; findings %zu of %zu hold</p>\n", a->relations_held, a->relations);
}

/* The cells of one part (@which) as a table; in-sample rows say what was fitted to them. */
static void val_html_cells(FILE *f, const struct val_set *s, enum val_sample which)
{
	bool in = which == VAL_IN;

	fprintf(f,
	        "<h3>%s</h3>\n<table class=\"%s\"><tr><th>configuration</th><th>test</th>"
	        "<th>direction</th><th>published</th><th>simulated</th><th>ratio</th>%s</tr>\n",
	        in ? "In-sample cells (a parameter was fitted to them)"
	           : "Out-of-sample cells (predicted)",
	        in ? "in-sample" : "out-of-sample", in ? "<th>fitted to it</th>" : "");
	for (size_t c = 0; c < s->nconfigs; c++)
		for (size_t j = 0; j < s->configs[c].ncells; j++) {
			const struct val_cell *x = &s->configs[c].cells[j];
			double r = x->simulated / x->published;
			char nb[2][32];
			if (!x->fit != !in)
				continue;
			fprintf(f, "<tr class=\"%s\"><td>",
			        fabs(log(r)) <= log(1.25) ? "ok" : "bad");
			rep_html_text(f, s->configs[c].name);
			fprintf(f, "</td><td>");
			rep_html_text(f, x->test);
			fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%.2f&times;%s",
			        x->direction, val_num_text(x->published, nb[0]),
			        val_num_text(x->simulated, nb[1]), r,
			        x->anomaly ? " (anomaly)" : "");
			if (val_cell_far(x)) {
				char *flag = NULL;
				size_t len = 0;
				FILE *m = open_memstream(&flag, &len);
				if (m) {
					val_cell_flag(m, x);
					if (!fclose(m)) {
						fprintf(f, "<br><small class=\"far\">");
						rep_html_text(f, flag);
						fprintf(f, "</small>");
					}
				}
				free(flag);
			}
			fprintf(f, "</td>");
			if (in) {
				fprintf(f, "<td>");
				rep_html_text(f, x->fit);
				fprintf(f, "</td>");
			}
			fprintf(f, "</tr>\n");
		}
	fprintf(f, "</table>\n");
}

/* The findings, in-sample ones marked with what was fitted to them. */
static void val_html_findings(FILE *f, const struct val_set *s)
{
	if (!s->nrelations)
		return;
	fprintf(f, "<h3>Findings</h3>\n<ul>\n");
	for (size_t r = 0; r < s->nrelations; r++) {
		const struct val_relation *x = &s->relations[r];
		fprintf(f, "<li class=\"%s %s\">", x->held ? "ok" : "bad",
		        x->fit ? "in-sample" : "out-of-sample");
		fprintf(f, "%s ", x->held ? "holds:" : "<b>FAILS</b>:");
		rep_html_text(f, x->finding);
		fprintf(f, ": ");
		rep_html_text(f, val_or(x->detail));
		if (x->fit) {
			fprintf(f, " <i>(in-sample: ");
			rep_html_text(f, x->fit);
			fprintf(f, ")</i>");
		}
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n");
}

void val_html(FILE *f, struct val_set *const *sets, const struct val_stats *stats, size_t n)
{
	fprintf(f,
	        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	        "<title>raidlab validate</title>\n<style>body{font-family:sans-serif;margin:2em;"
	        "max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	        "padding:2px 6px;text-align:right}td:first-child,th:first-child{text-align:left}"
	        "table.in-sample td:last-child,table.in-sample th:last-child{text-align:left}"
	        ".bad{background:#fdd}.ok{background:#dfd}.far{color:#900}</style></head><body>\n"
	        "<h1>Simulated against published measurements</h1>\n"
	        "<p>Blue: reads, red: writes, grey: anomalies (not counted); hollow: in-sample "
	        "cells, which a parameter was fitted to. Solid line: equal; dashed: "
	        "1.25&times;; dotted: 2&times;.  In-sample cells and findings are reported "
	        "apart from the out-of-sample ones, which nothing was fitted to: only the "
	        "latter check the model.</p>\n");
	for (size_t i = 0; i < n; i++) {
		const struct val_set *s = sets[i];
		const struct val_stats *st = &stats[i];
		fprintf(f, "<h2>");
		rep_html_text(f, s->name);
		fprintf(f, ": ");
		rep_html_text(f, s->title);
		fprintf(f, "</h2>\n<p class=\"%s\">%s", st->pass ? "ok" : "bad",
		        st->pass ? "PASS" : "FAIL: ");
		if (!st->pass)
			rep_html_text(f, val_or(st->why));
		if (st->cells)
			fprintf(
			    f,
			    "<br>median error &times;%.3f, worst &times;%.2f; within 1.25&times; "
			    "%.0f %%, 2&times; %.0f %%, 4&times; %.0f %%; orderings %zu/%zu; "
			    "findings %zu/%zu</p>\n",
			    st->median_ratio, st->worst_ratio, 100 * st->share_125,
			    100 * st->share_2, 100 * st->share_4, st->orderings_held, st->orderings,
			    st->relations_held, st->relations);
		else
			fprintf(f,
			        "<br>no cells: the set is checked by its findings; findings "
			        "%zu/%zu hold</p>\n",
			        st->relations_held, st->relations);
		if (s->has_targets && !st->targets_met) {
			fprintf(f, "<p class=\"targets\">Targets (aims, not enforced) not met: ");
			rep_html_text(f, val_or(st->targets_why));
			fprintf(f, "</p>\n");
		}
		val_html_agree(f, "In-sample (fitted to)", &st->sample[VAL_IN]);
		val_html_agree(f, "Out-of-sample (predicted)", &st->sample[VAL_OUT]);
		if (!st->cells) { /* no chart or tables of nothing: the findings are the set */
			val_html_findings(f, s);
			continue;
		}
		val_html_chart(f, s);
		val_html_cells(f, s, VAL_OUT);
		val_html_cells(f, s, VAL_IN);
		val_html_findings(f, s);
	}
	fprintf(f, "</body></html>\n");
}
