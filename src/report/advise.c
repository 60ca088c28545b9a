/*
 * advise.c - the advise section of the HTML report: what `raidlab advise`
 * measured (its header), the ranking, the figures per test group and the
 * answer in words, read from the "advise" object of its sweep document.
 *
 * The rest of the page is the sweep's (heatmap, series, trade-off, points):
 * advise writes an ordinary sweep document with this object added, so the
 * same document renders from `advise --html`, `sweep`'s report and
 * `compare`.  Everything is a pure function of the document; text goes
 * through rep_html_text.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "report/advise.h"
#include "report/render.h"

static struct json_object *rpa_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double rpa_num(struct json_object *o, const char *key)
{
	return json_object_get_double(rpa_get(o, key));
}

bool rep_advise_has(struct json_object *doc)
{
	return json_object_is_type(rpa_get(rpa_get(doc, "advise"), "ranking"), json_type_array);
}

/* A figure, or "-" where it was not measured (0). */
static void rpa_num_cell(FILE *f, double v, int digits)
{
	if (v > 0)
		fprintf(f, "<td class=\"n\">%.*f</td>", digits, v);
	else
		fputs("<td class=\"n\">-</td>", f);
}

/* The ranking: one row per configuration, in rank order. */
static void rpa_ranking(FILE *f, struct json_object *rk)
{
	size_t n = json_object_array_length(rk);

	fputs("<div class=\"scroll\"><table><thead><tr><th class=\"n\">rank</th>"
	      "<th>configuration</th><th class=\"n\">MB/s</th><th class=\"n\">IOPS</th>"
	      "<th class=\"n\">p99 µs</th><th class=\"n\">write MB/s</th>"
	      "<th class=\"n\">degraded MB/s</th><th class=\"n\">rebuild, min</th>"
	      "<th>basis</th></tr></thead><tbody>\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(rk, i);
		fprintf(f, "<tr><td class=\"n\">%s%d</td><td class=\"name\">",
		        json_object_get_boolean(rpa_get(r, "tied_with_previous")) ? "=" : "",
		        json_object_get_int(rpa_get(r, "rank")));
		rep_html_text(f, json_object_get_string(rpa_get(r, "label")));
		fputs("</td>", f);
		rpa_num_cell(f, rpa_num(r, "mb_s"), 1);
		rpa_num_cell(f, rpa_num(r, "iops"), 0);
		rpa_num_cell(f, rpa_num(r, "p99_us"), 1);
		rpa_num_cell(f, rpa_num(r, "write_mb_s"), 1);
		rpa_num_cell(f, rpa_num(r, "degraded_mb_s"), 1);
		rpa_num_cell(f, rpa_num(r, "rebuild_s") / 60, 0);
		fputs("<td>", f);
		rep_html_text(f, json_object_get_string(rpa_get(r, "basis")));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* Per test group: read / write MB/s, the groups of the first row as columns. */
static void rpa_groups(FILE *f, struct json_object *rk)
{
	struct json_object *first = rpa_get(json_object_array_get_idx(rk, 0), "groups");
	size_t ng = first ? json_object_array_length(first) : 0;

	if (!ng)
		return;
	fputs("<h3>Per test group (MB/s read / write)</h3>\n<div class=\"scroll\"><table>"
	      "<thead><tr><th>configuration</th>",
	      f);
	for (size_t g = 0; g < ng; g++) {
		fputs("<th class=\"n\">", f);
		rep_html_text(f, json_object_get_string(
		                     rpa_get(json_object_array_get_idx(first, g), "group")));
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < json_object_array_length(rk); i++) {
		struct json_object *r = json_object_array_get_idx(rk, i),
		                   *gs = rpa_get(r, "groups");
		fputs("<tr><td class=\"name\">", f);
		rep_html_text(f, json_object_get_string(rpa_get(r, "label")));
		fputs("</td>", f);
		for (size_t g = 0; g < ng; g++) {
			const char *name = json_object_get_string(
			    rpa_get(json_object_array_get_idx(first, g), "group"));
			struct json_object *x = NULL;
			for (size_t k = 0; gs && k < json_object_array_length(gs); k++) {
				struct json_object *c = json_object_array_get_idx(gs, k);
				const char *cn = json_object_get_string(rpa_get(c, "group"));
				if (cn && name && !strcmp(cn, name))
					x = c;
			}
			if (x)
				fprintf(f, "<td class=\"n\">%.0f / %.0f</td>",
				        rpa_num(x, "read_mb_s"), rpa_num(x, "write_mb_s"));
			else
				fputs("<td class=\"n\">-</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

void rep_advise_html(FILE *f, struct json_object *doc)
{
	struct json_object *adv = rpa_get(doc, "advise"), *rk = rpa_get(adv, "ranking");
	const char *header = json_object_get_string(rpa_get(adv, "header"));
	const char *answer = json_object_get_string(rpa_get(adv, "answer"));

	if (!rep_advise_has(doc))
		return;
	fputs("<section id=\"advise\"><h2>Advise</h2>\n", f);
	if (header && *header) {
		fputs("<pre class=\"advise-header\">", f);
		rep_html_text(f, header);
		fputs("</pre>\n", f);
	}
	if (json_object_get_boolean(rpa_get(adv, "partial")))
		fputs("<p class=\"warn\"><strong>PARTIAL</strong>: the run was interrupted; the "
		      "table holds only the configurations measured, and there is no answer.</p>\n",
		      f);
	if (json_object_array_length(rk)) {
		rpa_ranking(f, rk);
		rpa_groups(f, rk);
	}
	if (answer && *answer) {
		fputs("<h3>Answer</h3>\n<pre class=\"advise-answer\">", f);
		rep_html_text(f, answer);
		fputs("</pre>\n", f);
	}
	fputs("</section>\n", f);
}
