/*
 * render.h - the comparison's three renderings.
 *
 *   rep_table_write  terminal table of one metric: absolute values and %
 *                    against the baseline, aligned, units in the headers
 *                    (table.c)
 *   rep_csv_write    RFC 4180 CSV, one row per test x direction x
 *                    configuration with every metric (csv.c; columns in
 *                    docs/report.md)
 *   rep_html_write   one self-contained HTML page: charts as inline SVG,
 *                    tables, stacks, hosts, parameters; no script, no
 *                    network loads (html.c, charts in svg.c)
 *
 * They only read the model, print deterministic text (goldens compare it
 * byte for byte) and leave error checking of the stream to the caller
 * (ferror).
 */
#ifndef RL_REPORT_RENDER_H
#define RL_REPORT_RENDER_H

#include <stdio.h>

#include "report/compare.h"

void rep_table_write(FILE *f, const struct rep_compare *cmp, enum rep_metric metric);

void rep_csv_write(FILE *f, const struct rep_compare *cmp);

/** One CSV field, quoted when it holds a comma, a quote, CR or LF (RFC 4180). */
void rep_csv_field(FILE *f, const char *s);

void rep_html_write(FILE *f, const struct rep_compare *cmp, enum rep_metric metric);

/**
 * The page with sections of another module's (the sweep's): @extra->nav
 * writes links into the navigation bar, @extra->body its sections after
 * the comparison.
 */
struct rep_html_extra {
	void (*nav)(FILE *f, const void *arg);
	void (*body)(FILE *f, const void *arg);
	const void *arg;
};
void rep_html_write_extra(FILE *f, const struct rep_compare *cmp, enum rep_metric metric,
                          const struct rep_html_extra *extra);

/**
 * Text escaped for HTML element content and attribute values: & < > " '
 * become entities, control characters other than tab and newline become
 * U+FFFD.
 */
void rep_html_text(FILE *f, const char *s);

#endif
