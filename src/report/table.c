/*
 * table.c - the terminal table of a comparison (one metric).
 *
 *   configurations (baseline #1):
 *     #1  single  (cdm, ssd(sx8200pro), single.json)
 *     #2  raid0 x2  (cdm, raid0(ssd(sx8200pro) x2), raid0.json)
 *
 *   MB/s (decimal, 10^6 bytes per second); % against #1
 *
 *   test               #1 single   #2 raid0 x2
 *                           MB/s      MB/s   vs #1
 *   SEQ1M Q8T1 read      3512.44   6901.20  +96.5%
 *
 * Every cell is formatted first, then column widths are the widest cell
 * (display width: "µs" is two bytes, one column).  A column group is the
 * value plus, for every column but the baseline, its % against the
 * baseline.  Labels in headers are cut to 24 columns; the legend above
 * prints them whole.  Control characters from result files are printed as
 * '?' so a label cannot drive the terminal.  Suites with a score (AS SSD)
 * get score rows under the tests.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fmt.h"
#include "report/render.h"

#define REP_HEAD_MAX 24

struct rep_cellstr {
	char val[40];
	char pct[24];
};

static void rep_legend(FILE *f, const struct rep_compare *cmp)
{
	fprintf(f, "configurations (baseline #%zu):\n", cmp->baseline + 1);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_result *r = cmp->cols[c];

		fprintf(f, "  #%zu  ", c + 1);
		rep_term_text(f, cmp->labels[c], 0, 0, 0);
		fputs("  (", f);
		if (r->kind == REP_KIND_SUITE) {
			rep_term_text(f, r->suite_name, 0, 0, 0);
			fputs(", ", f);
		}
		if (strcmp(r->spec, r->label)) {
			rep_term_text(f, r->spec, 0, 0, 0);
			fputs(", ", f);
		}
		rep_term_text(f, r->path, 0, 0, 0);
		fputs(")\n", f);
	}
}

static bool rep_has_scores(const struct rep_compare *cmp)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		for (int k = 0; k < 3; k++) {
			if (!isnan(cmp->cols[c]->score[k]))
				return true;
		}
	}
	return false;
}

static void rep_fill(struct rep_cellstr *cs, double v, double base, bool is_base, enum rep_metric m,
                     bool score)
{
	double pct;

	if (score)
		rep_fmt_score(cs->val, sizeof cs->val, v);
	else
		rep_fmt_value(cs->val, sizeof cs->val, v, m);
	cs->pct[0] = '\0';
	if (is_base || isnan(v))
		return;
	if (rep_percent(v, base, &pct))
		rep_fmt_pct(cs->pct, sizeof cs->pct, pct);
	else
		snprintf(cs->pct, sizeof cs->pct, "-");
}

static size_t rep_max(size_t a, size_t b)
{
	return a > b ? a : b;
}

static size_t rep_min(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void rep_table_body(FILE *f, const struct rep_compare *cmp, enum rep_metric metric);

/* Rendered into memory first: cells of absent figures would leave trailing blanks. */
void rep_table_write(FILE *f, const struct rep_compare *cmp, enum rep_metric metric)
{
	char *buf = NULL;
	size_t len = 0, start = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		rep_table_body(f, cmp, metric);
		return;
	}
	rep_table_body(m, cmp, metric);
	if (fclose(m)) {
		free(buf);
		rep_table_body(f, cmp, metric);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		size_t end = i;
		while (end > start && buf[end - 1] == ' ')
			end--;
		fwrite(buf + start, 1, end - start, f);
		fputc('\n', f);
		start = i + 1;
	}
	fwrite(buf + start, 1, len - start, f);
	free(buf);
}

static void rep_table_body(FILE *f, const struct rep_compare *cmp, enum rep_metric metric)
{
	static const char *const score_names[3] = {"score read", "score write", "score total"};
	size_t nc = cmp->ncols, b = cmp->baseline;
	size_t nlines = cmp->nrows + (rep_has_scores(cmp) ? 3 : 0);
	struct rep_cellstr *cells = calloc(nlines * nc + 1, sizeof *cells);
	char(*titles)[288] = calloc(nlines + 1, sizeof *titles);
	size_t *valw = calloc(nc, sizeof *valw), *pctw = calloc(nc, sizeof *pctw);
	size_t namew;
	char vs[32], head[REP_HEAD_MAX * 4 + 32];

	if (!cells || !titles || !valw || !pctw) {
		fputs("(out of memory)\n", f);
		goto out;
	}
	for (size_t r = 0; r < nlines; r++) {
		bool score = r >= cmp->nrows;
		int k = (int)(r - cmp->nrows);
		double base;

		if (score)
			snprintf(titles[r], sizeof titles[r], "%s", score_names[k]);
		else
			rep_row_title(&cmp->rows[r], titles[r], sizeof titles[r]);
		enum rep_metric rm = score ? metric : rep_row_metric(cmp, r, metric);
		base = score ? cmp->cols[b]->score[k] : rep_metric_value(rep_cell(cmp, r, b), rm);
		for (size_t c = 0; c < nc; c++) {
			double v = score ? cmp->cols[c]->score[k]
			                 : rep_metric_value(rep_cell(cmp, r, c), rm);
			rep_fill(&cells[r * nc + c], v, base, c == b, rm, score);
		}
	}

	/* widths */
	namew = strlen(cmp->kind == REP_KIND_SUITE ? "test" : "job");
	for (size_t r = 0; r < nlines; r++)
		namew = rep_max(namew, rep_text_width(titles[r]));
	snprintf(vs, sizeof vs, "vs #%zu", b + 1);
	for (size_t c = 0; c < nc; c++) {
		size_t headw;

		valw[c] = rep_text_width(rep_metric_unit(metric));
		pctw[c] = c == b ? 0 : strlen(vs);
		for (size_t r = 0; r < nlines; r++) {
			valw[c] = rep_max(valw[c], strlen(cells[r * nc + c].val));
			if (c != b)
				pctw[c] = rep_max(pctw[c], strlen(cells[r * nc + c].pct));
		}
		/* the group header "#N label" may be wider than the numbers */
		snprintf(head, sizeof head, "#%zu ", c + 1);
		headw = strlen(head) + rep_min(rep_text_width(cmp->labels[c]), REP_HEAD_MAX);
		if (headw > valw[c] + (pctw[c] ? pctw[c] + 1 : 0))
			valw[c] = headw - (pctw[c] ? pctw[c] + 1 : 0);
	}

	rep_legend(f, cmp);
	for (size_t c = 1; c < nc && cmp->kind == REP_KIND_SUITE; c++) {
		if (strcmp(cmp->cols[c]->suite_name, cmp->cols[0]->suite_name)) {
			fputs("note: the results come from different suites; rows match by test "
			      "name\n",
			      f);
			break;
		}
	}
	fprintf(f, "\n%s; %% against #%zu\n\n", rep_metric_title(metric), b + 1);

	/* header line 1: "#N label" over each group */
	rep_term_text(f, cmp->kind == REP_KIND_SUITE ? "test" : "job", 0, namew, 0);
	for (size_t c = 0; c < nc; c++) {
		size_t groupw = valw[c] + (pctw[c] ? pctw[c] + 1 : 0);
		size_t hw;

		snprintf(head, sizeof head, "#%zu ", c + 1);
		hw = strlen(head) + rep_min(rep_text_width(cmp->labels[c]), REP_HEAD_MAX);
		fprintf(f, "  %*s%s", (int)(groupw - hw), "", head);
		rep_term_text(f, cmp->labels[c], REP_HEAD_MAX, 0, 0);
	}
	fputc('\n', f);
	/* header line 2: units */
	fprintf(f, "%*s", (int)namew, "");
	for (size_t c = 0; c < nc; c++) {
		fputs("  ", f);
		rep_term_text(f, rep_metric_unit(metric), 0, valw[c], 1);
		if (pctw[c])
			fprintf(f, " %*s", (int)pctw[c], vs);
	}
	fputc('\n', f);

	for (size_t r = 0; r < nlines; r++) {
		if (r == cmp->nrows) {
			fputc('\n', f);
		}
		rep_term_text(f, titles[r], 0, namew, 0);
		for (size_t c = 0; c < nc; c++) {
			const struct rep_cellstr *cs = &cells[r * nc + c];

			fprintf(f, "  %*s", (int)valw[c], cs->val);
			if (pctw[c])
				fprintf(f, " %*s", (int)pctw[c], cs->pct);
		}
		fputc('\n', f);
	}
	if (!nlines)
		fputs("(no test has figures to compare)\n", f);
out:
	free(cells);
	free(titles);
	free(valw);
	free(pctw);
}
