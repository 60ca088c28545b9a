/*
 * html.c - the HTML report: one self-contained page.
 *
 * The page carries its own style sheet, has no script and loads nothing:
 * charts are inline SVG (svg.c), so the file can be mailed, archived and
 * opened offline.  Layout: title and summary, a navigation bar, the
 * configurations, the comparison tables (the chosen metric first, then
 * the other two; % against the baseline coloured by whether it is better
 * or worse), scores, then the charts (html_charts.c) and the stacks, hosts
 * and parameters (html_info.c).  Each configuration keeps one colour from
 * rep_color() everywhere on the page.
 *
 * Escaping: every string from a result file goes through rep_html_text,
 * which is safe both in element content and in quoted attribute values.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/fmt.h"
#include "report/html.h"
#include "report/render.h"
#include "report/svg.h"

/* A difference below this many percent is shown as "same". */
#define REP_SAME_PCT 1.0

static const char rep_css[] =
    ":root{--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--accent:#2563eb}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:15px/1.5 system-ui,-apple-system,\"Segoe UI\",Roboto,"
    "\"Helvetica Neue\",Arial,sans-serif;color:var(--fg);background:#f8fafc}\n"
    "main{max-width:1200px;margin:0 auto;padding:24px 20px 48px}\n"
    "h1{font-size:26px;margin:0 0 4px}\n"
    "h2{font-size:19px;margin:36px 0 12px;padding-bottom:6px;border-bottom:1px solid "
    "var(--line)}\n"
    "h3{font-size:15px;margin:18px 0 6px}\n"
    ".sub{color:var(--muted);margin:0 0 12px}\n"
    "nav{margin:8px 0 0}\n"
    "nav a{margin-right:16px;color:var(--accent);text-decoration:none}\n"
    "nav a:hover{text-decoration:underline}\n"
    ".card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px}\n"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:16px;"
    "margin-bottom:16px}\n"
    ".scroll{overflow-x:auto;margin-bottom:16px}\n"
    "table{border-collapse:collapse;background:#fff;font-size:14px}\n"
    "th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;"
    "vertical-align:top}\n"
    "th{font-weight:600;background:#f1f5f9}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "td.name{white-space:nowrap}\n"
    "caption{text-align:left;font-weight:600;padding:4px 0}\n"
    ".up{color:#047857}.down{color:#b91c1c}.same{color:var(--muted)}\n"
    ".sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}\n"
    ".base{font-size:12px;color:var(--muted);font-weight:400}\n"
    ".badge{display:inline-block;font-size:11px;font-weight:600;padding:1px 6px;"
    "border-radius:8px;margin-left:4px;white-space:nowrap}\n"
    ".badge.sim{background:#ede9fe;color:#5b21b6}.badge.real{background:#dcfce7;color:#166534}\n"
    "svg.chart{width:100%;height:auto;display:block}\n"
    "svg.chart text{font-size:12px;fill:#374151}\n"
    "svg.chart .ctitle{font-size:14px;font-weight:600;fill:#111827}\n"
    "svg.chart .tick{fill:#6b7280;font-size:11px}\n"
    "svg.chart .grid{stroke:#e5e7eb;stroke-width:1}\n"
    "svg.chart .axis{stroke:#9ca3af;stroke-width:1}\n"
    "svg.chart .val{font-size:11px}\n"
    ".tree ul{list-style:none;margin:0;padding-left:20px;border-left:1px dashed #cbd5e1}\n"
    ".tree>ul{border-left:none;padding-left:0}\n"
    ".tree li{margin:2px 0}\n"
    ".props{color:var(--muted);font-size:13px}\n"
    "code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f1f5f9;"
    "padding:1px 4px;border-radius:4px;white-space:pre-wrap;word-break:break-all}\n"
    "td.diff{background:#fef3c7}\n"
    "details{margin:8px 0}\n"
    "summary{cursor:pointer;color:var(--accent)}\n"
    "footer{margin-top:40px;color:var(--muted);font-size:13px}\n"
    "@media (max-width:600px){.grid{grid-template-columns:1fr}main{padding:16px 10px}}\n";

void rep_html_text(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				fputs("\xef\xbf\xbd", f); /* U+FFFD */
			else
				fputc(c, f);
		}
	}
}

void rep_html_num(FILE *f, double v, enum rep_metric m)
{
	char buf[64];

	rep_fmt_value(buf, sizeof buf, v, m);
	fputs(buf, f);
}

void rep_html_col(FILE *f, const struct rep_compare *cmp, size_t col)
{
	fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>#%zu ", rep_color(col),
	        col + 1);
	rep_html_text(f, cmp->labels[col]);
}

/* The class of a % cell: better, worse or about the same. */
static const char *rep_pct_class(double pct, enum rep_metric m)
{
	if (fabs(pct) < REP_SAME_PCT)
		return "same";
	if (rep_metric_lower_better(m))
		return pct < 0 ? "up" : "down";
	return pct > 0 ? "up" : "down";
}

static void rep_html_pct(FILE *f, double v, double base, enum rep_metric m)
{
	double pct;
	char buf[32];

	if (!rep_percent(v, base, &pct)) {
		fputs("<td class=\"n same\">-</td>", f);
		return;
	}
	rep_fmt_pct(buf, sizeof buf, pct);
	fprintf(f, "<td class=\"n %s\">%s</td>", rep_pct_class(pct, m), buf);
}

/* The head of a comparison table: labels over value (+ %) columns. */
static void rep_html_thead(FILE *f, const struct rep_compare *cmp, const char *unit,
                           const char *first)
{
	fprintf(f, "<thead><tr><th rowspan=\"2\">%s</th><th rowspan=\"2\">direction</th>", first);
	for (size_t c = 0; c < cmp->ncols; c++) {
		fprintf(f, "<th class=\"n\" colspan=\"%d\">", c == cmp->baseline ? 1 : 2);
		rep_html_col(f, cmp, c);
		if (c == cmp->baseline)
			fputs(" <span class=\"base\">(baseline)</span>", f);
		fputs("</th>", f);
	}
	fputs("</tr>\n<tr>", f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		fputs("<th class=\"n\">", f);
		rep_html_text(f, unit);
		fputs("</th>", f);
		if (c != cmp->baseline)
			fprintf(f, "<th class=\"n\">vs #%zu</th>", cmp->baseline + 1);
	}
	fputs("</tr></thead>\n", f);
}

static void rep_html_metric_table(FILE *f, const struct rep_compare *cmp, enum rep_metric m)
{
	char name[288];

	fputs("<div class=\"scroll\"><table>\n<caption>", f);
	rep_html_text(f, rep_metric_title(m));
	fputs("</caption>\n", f);
	rep_html_thead(f, cmp, rep_metric_unit(m), cmp->kind == REP_KIND_SUITE ? "test" : "job");
	fputs("<tbody>\n", f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		enum rep_metric rm = rep_row_metric(cmp, r, m);
		double base = rep_metric_value(rep_cell(cmp, r, cmp->baseline), rm);

		rep_row_name(&cmp->rows[r], name, sizeof name);
		fputs("<tr><td class=\"name\">", f);
		rep_html_text(f, name);
		fprintf(f, "</td><td>%s</td>", rep_dir_name(cmp->rows[r].dir));
		for (size_t c = 0; c < cmp->ncols; c++) {
			double v = rep_metric_value(rep_cell(cmp, r, c), rm);

			fputs("<td class=\"n\">", f);
			rep_html_num(f, v, rm);
			fputs("</td>", f);
			if (c != cmp->baseline)
				rep_html_pct(f, v, base, rm);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

static bool rep_html_has_scores(const struct rep_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		for (int k = 0; k < 3; k++) {
			if (!isnan(cmp->cols[c]->score[k]))
				return true;
		}
	}
	return false;
}

static void rep_html_scores(FILE *f, const struct rep_compare *cmp)
{
	static const char *const names[3] = {"read", "write", "total"};
	char buf[64];

	fputs("<div class=\"scroll\"><table>\n<caption>scores</caption>\n", f);
	rep_html_thead(f, cmp, "score", "score");
	fputs("<tbody>\n", f);
	for (int k = 0; k < 3; k++) {
		double base = cmp->cols[cmp->baseline]->score[k];

		fprintf(f, "<tr><td class=\"name\">score</td><td>%s</td>", names[k]);
		for (size_t c = 0; c < cmp->ncols; c++) {
			double v = cmp->cols[c]->score[k];

			rep_fmt_score(buf, sizeof buf, v);
			fprintf(f, "<td class=\"n\">%s</td>", buf);
			if (c != cmp->baseline)
				rep_html_pct(f, v, base, REP_METRIC_MB_S);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/*
 * A badge that tells simulated figures from measured ones at a glance:
 * "simulated" (simulated drives, simulated time) or "real hardware".
 */
static void rep_html_badge(FILE *f, const struct rep_result *r)
{
	struct json_object *v;

	if (!json_object_object_get_ex(r->target, "simulated", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return;
	fputs(json_object_get_boolean(v)
	          ? " <span class=\"badge sim\" title=\"simulated drives, simulated time\">"
	            "simulated</span>"
	          : " <span class=\"badge real\" title=\"measured on real storage\">real "
	            "hardware</span>",
	      f);
}

static void rep_html_configs(FILE *f, const struct rep_compare *cmp)
{
	char buf[64];

	fputs("<section id=\"configs\"><h2>Configurations</h2>\n<div class=\"scroll\"><table>\n"
	      "<thead><tr><th>configuration</th><th>suite</th><th>target</th>"
	      "<th class=\"n\">size</th><th>time</th><th>file</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_result *r = cmp->cols[c];
		struct json_object *v;

		fputs("<tr><td class=\"name\">", f);
		rep_html_col(f, cmp, c);
		if (c == cmp->baseline)
			fputs(" <span class=\"base\">(baseline)</span>", f);
		rep_html_badge(f, r);
		fputs("</td><td class=\"name\">", f);
		if (r->kind == REP_KIND_SUITE) {
			rep_html_text(f, r->suite_name);
			if (r->suite_title) {
				fputs(": ", f);
				rep_html_text(f, r->suite_title);
			}
		} else {
			fputs("job result", f);
		}
		fputs("</td><td><code>", f);
		rep_html_text(f, r->spec);
		fputs("</code></td><td class=\"n\">", f);
		if (json_object_object_get_ex(r->target, "size_bytes", &v) &&
		    (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double))) {
			rep_fmt_bytes(buf, sizeof buf, json_object_get_double(v));
			fputs(buf, f);
		} else {
			fputs("-", f);
		}
		fputs("</td><td>", f);
		if (json_object_object_get_ex(r->target, "simulated", &v) &&
		    json_object_is_type(v, json_type_boolean))
			fputs(json_object_get_boolean(v) ? "simulated" : "real", f);
		else
			fputs("-", f);
		fputs("</td><td>", f);
		rep_html_text(f, r->path);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

static void rep_html_head(FILE *f, const struct rep_compare *cmp,
                          const struct rep_html_extra *extra)
{
	const struct rep_result *first = cmp->cols[0];
	bool same_suite = cmp->kind == REP_KIND_SUITE;

	for (size_t c = 1; c < cmp->ncols && same_suite; c++)
		same_suite = !strcmp(cmp->cols[c]->suite_name, first->suite_name);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"",
	      f);
	rep_html_text(f, cmp->writer ? cmp->writer : "raidlab compare");
	fputs("\">\n<title>raidlab: ", f);
	if (same_suite)
		rep_html_text(f, first->suite_title ? first->suite_title : first->suite_name);
	else
		fputs(cmp->kind == REP_KIND_SUITE ? "suite results" : "job results", f);
	fprintf(f, ", %zu configuration%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
	        cmp->ncols, cmp->ncols == 1 ? "" : "s", rep_css);
	fputs("<h1>raidlab comparison</h1>\n<p class=\"sub\">", f);
	if (same_suite) {
		rep_html_text(f, first->suite_title ? first->suite_title : first->suite_name);
		fputs(" (", f);
		rep_html_text(f, first->suite_name);
		fputs(")", f);
	} else {
		fputs(cmp->kind == REP_KIND_SUITE
		          ? "Results of different suites (rows match by test name)"
		          : "Job results",
		      f);
	}
	fprintf(f, " &middot; %zu configuration%s &middot; baseline ", cmp->ncols,
	        cmp->ncols == 1 ? "" : "s");
	rep_html_col(f, cmp, cmp->baseline);
	fputs(" &middot; MB/s are decimal (10<sup>6</sup> bytes per second), latency in "
	      "&micro;s</p>\n<nav>",
	      f);
	fputs("<a href=\"#configs\">Configurations</a><a href=\"#compare\">Comparison</a>", f);
	if (extra)
		extra->nav(f, extra->arg);
	if (rep_html_has_bars(cmp))
		fputs("<a href=\"#throughput\">Throughput</a>", f);
	if (rep_html_has_sweep(cmp))
		fputs("<a href=\"#sweep\">Transfer sizes</a>", f);
	if (rep_html_has_curves(cmp))
		fputs("<a href=\"#curves\">Curves</a>", f);
	if (rep_html_has_latency(cmp))
		fputs("<a href=\"#latency\">Latency</a>", f);
	fputs("<a href=\"#stacks\">Stacks</a><a href=\"#hosts\">Hosts</a>"
	      "<a href=\"#params\">Parameters</a></nav>\n",
	      f);
}

void rep_html_write(FILE *f, const struct rep_compare *cmp, enum rep_metric metric)
{
	rep_html_write_extra(f, cmp, metric, NULL);
}

void rep_html_write_extra(FILE *f, const struct rep_compare *cmp, enum rep_metric metric,
                          const struct rep_html_extra *extra)
{
	rep_html_head(f, cmp, extra);
	rep_html_configs(f, cmp);

	fputs("<section id=\"compare\"><h2>Comparison</h2>\n", f);
	if (!cmp->nrows)
		fputs("<p>No test has figures to compare.</p>\n", f);
	else {
		rep_html_metric_table(f, cmp, metric);
		fputs("<details><summary>The other metrics</summary>\n", f);
		for (int m = 0; m < REP_NMETRIC; m++) {
			if (m != (int)metric)
				rep_html_metric_table(f, cmp, m);
		}
		fputs("</details>\n", f);
	}
	if (rep_html_has_scores(cmp))
		rep_html_scores(f, cmp);
	fputs("</section>\n", f);

	if (extra)
		extra->body(f, extra->arg);
	rep_html_bars(f, cmp);
	rep_html_sweep(f, cmp);
	rep_html_curves(f, cmp);
	rep_html_latency(f, cmp);
	rep_html_stacks(f, cmp);
	rep_html_hosts(f, cmp);
	rep_html_params(f, cmp);
	fputs("<footer>Written by <code>", f);
	rep_html_text(f, cmp->writer ? cmp->writer : "raidlab compare");
	fputs("</code>. This page is self-contained: no scripts, nothing loaded from the "
	      "network.</footer>\n</main>\n</body>\n</html>\n",
	      f);
}
