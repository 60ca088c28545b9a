/*
 * csv.c - a comparison as CSV (RFC 4180).
 *
 * One header line, then one line per row x configuration that has the
 * row (row-major: all configurations of "SEQ1M Q8T1 read", then the next
 * row), every metric in its own column, so a spreadsheet can pivot on
 * any of them.  Columns (documented in docs/report.md):
 *
 *   config,label,file,suite,test,direction,pattern,bs,iodepth,threads,
 *   mb_s,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p99_9_us,
 *   mb_s_vs_baseline_pct,iops_vs_baseline_pct,lat_mean_vs_baseline_pct,
 *   access_time_ms,access_time_vs_baseline_pct
 *
 * An access-time row (AS SSD's Acc.time, HD Tune's Access Time) has its
 * figure in access_time_ms and no mb_s or iops, as those tools show none.
 *
 * Unknown values are empty fields.  Lines end in CRLF and fields that hold
 * a comma, a double quote, CR or LF are quoted with inner quotes doubled,
 * as RFC 4180 says.  A text field that starts with =, +, -, @, TAB or CR
 * gets a leading ' so that spreadsheets show it instead of evaluating it
 * (CSV injection).  Numbers: integers as such, others with at most three
 * decimals; percentages with two.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/fmt.h"
#include "report/render.h"

void rep_csv_field(FILE *f, const char *s)
{
	/* A spreadsheet runs a cell that starts like a formula: make it text. */
	bool formula = s && *s && strchr("=+-@\t\r", *s);

	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		if (formula)
			fputc('\'', f);
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void rep_csv_num(FILE *f, double v)
{
	char buf[64];

	fputc(',', f);
	if (isfinite(v)) {
		rep_fmt_number(buf, sizeof buf, v);
		fputs(buf, f);
	}
}

static void rep_csv_int(FILE *f, long long v)
{
	fputc(',', f);
	if (v >= 0)
		fprintf(f, "%lld", v);
}

static void rep_csv_pct(FILE *f, double v, double base)
{
	double pct;

	fputc(',', f);
	if (rep_percent(v, base, &pct))
		fprintf(f, "%.2f", pct);
}

void rep_csv_write(FILE *f, const struct rep_compare *cmp)
{
	fputs("config,label,file,suite,test,direction,pattern,bs,iodepth,threads,"
	      "mb_s,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p99_9_us,"
	      "mb_s_vs_baseline_pct,iops_vs_baseline_pct,lat_mean_vs_baseline_pct,"
	      "access_time_ms,access_time_vs_baseline_pct\r\n",
	      f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct rep_row *row = &cmp->rows[r];
		const struct rep_figure *base = rep_cell(cmp, r, cmp->baseline);
		bool access = rep_row_metric(cmp, r, REP_METRIC_MB_S) == REP_METRIC_ACCESS;
		char name[288];

		rep_row_name(row, name, sizeof name);
		for (size_t c = 0; c < cmp->ncols; c++) {
			const struct rep_test *t = row->tests[c];
			const struct rep_figure *fig = rep_cell(cmp, r, c);
			const struct rep_result *res = cmp->cols[c];

			if (!t)
				continue;
			fprintf(f, "%zu,", c + 1);
			rep_csv_field(f, cmp->labels[c]);
			fputc(',', f);
			rep_csv_field(f, res->path);
			fputc(',', f);
			rep_csv_field(f, res->suite_name);
			fputc(',', f);
			rep_csv_field(f, name);
			fprintf(f, ",%s,", rep_dir_name(row->dir));
			rep_csv_field(f, t->pattern);
			rep_csv_int(f, t->bs);
			rep_csv_int(f, t->iodepth);
			rep_csv_int(f, t->threads);
			rep_csv_num(f, access ? NAN : fig->mb_s);
			rep_csv_num(f, access ? NAN : fig->iops);
			rep_csv_num(f, fig->lat_mean_us);
			for (int p = 0; p < REP_NPCT; p++)
				rep_csv_num(f, fig->pct[p]);
			for (int m = 0; m < REP_NMETRIC; m++)
				rep_csv_pct(
				    f,
				    access && m != REP_METRIC_LAT ? NAN : rep_metric_value(fig, m),
				    rep_metric_value(base, m));
			rep_csv_num(f, rep_metric_value(fig, REP_METRIC_ACCESS));
			rep_csv_pct(f, rep_metric_value(fig, REP_METRIC_ACCESS),
			            rep_metric_value(base, REP_METRIC_ACCESS));
			fputs("\r\n", f);
		}
	}
}
