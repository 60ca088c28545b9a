/*
 * html.h - internals shared by the files of the HTML report.
 *
 *   html.c         the page: head and style, summary, configurations, the
 *                  comparison tables, scores; escaping
 *   html_charts.c  throughput bars per test, the transfer-size sweep
 *                  (ATTO), curves (HD Tune, steady state), latency
 *                  percentiles
 *   html_info.c    the configurations' stacks (target.tree), hosts, and the
 *                  run parameters (suite.params / job options)
 *
 * Every section starts with <section id="..."> and an <h2>; a section with
 * nothing to show is left out, and the navigation bar lists only the
 * sections written.
 */
#ifndef RL_REPORT_HTML_H
#define RL_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"

/** A number with the metric's decimals, "-" when unknown (escaped already). */
void rep_html_num(FILE *f, double v, enum rep_metric m);

/** The column's colour swatch and "#N label". */
void rep_html_col(FILE *f, const struct rep_compare *cmp, size_t col);

bool rep_html_has_bars(const struct rep_compare *cmp);
bool rep_html_has_sweep(const struct rep_compare *cmp);
bool rep_html_has_curves(const struct rep_compare *cmp);
bool rep_html_has_latency(const struct rep_compare *cmp);

void rep_html_bars(FILE *f, const struct rep_compare *cmp);
void rep_html_sweep(FILE *f, const struct rep_compare *cmp);
void rep_html_curves(FILE *f, const struct rep_compare *cmp);
void rep_html_latency(FILE *f, const struct rep_compare *cmp);

void rep_html_stacks(FILE *f, const struct rep_compare *cmp);
void rep_html_hosts(FILE *f, const struct rep_compare *cmp);
void rep_html_params(FILE *f, const struct rep_compare *cmp);

/** A transfer-size sweep (ATTO): suite "atto", or every test named like "512B", "64M". */
bool rep_is_sweep(const struct rep_result *res);

#endif
