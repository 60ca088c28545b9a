/*
 * compare.h - the comparison model: results side by side.
 *
 * Columns are the configurations (one result each) in the order given;
 * one of them is the baseline.  Rows are test x direction ("SEQ1M Q8T1
 * read"), or for job results job name x direction ("seq-write write").
 * Every renderer (terminal table, CSV, HTML) walks this one model, so they
 * agree on which numbers sit side by side.
 *
 * Matching rows across configurations: a row's key is (name, occurrence,
 * direction), where occurrence counts earlier tests of the same name in
 * the same result (two jobs both called "job" are "job" and "job (2)").
 * Configurations need not have the same tests: a cell is empty where a
 * configuration lacks the test or the direction.  Row order follows the
 * first configuration, with a test's directions together (read, write,
 * trim); a test that only later configurations have is put just before the
 * next test that its own configuration shares with the earlier ones (so
 * cdm and cdm-nvme results interleave sensibly), or at the end.
 *
 * Suite results and job results are never mixed: their rows are named
 * after different things (tests vs jobs) and their numbers mean different
 * things (a suite's aggregated passes vs one run), so rep_compare_build
 * refuses the mix.  Different suites may be compared; rows match by name.
 */
#ifndef RL_REPORT_COMPARE_H
#define RL_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/result.h"

enum rep_metric {
	REP_METRIC_MB_S, /* decimal MB/s */
	REP_METRIC_IOPS,
	REP_METRIC_LAT, /* mean latency, µs */
	REP_NMETRIC,
	/* Not a metric to choose: the access time (ms) that access-time rows show
	   whatever the metric, as AS SSD and HD Tune show no MB/s or IOPS there. */
	REP_METRIC_ACCESS,
};

struct rep_row {
	const char *name;    /* the test's or job's name */
	unsigned occurrence; /* 0 for the first test of that name in its result */
	enum rep_dir dir;
	const struct rep_test **tests; /* one per column; NULL where the column lacks it */
};

struct rep_compare {
	enum rep_kind kind;
	size_t ncols;
	struct rep_result *const *cols;
	char **labels;   /* column labels, made unique with " #N" where they repeat */
	size_t baseline; /* column index, 0-based */
	size_t nrows;
	struct rep_row *rows;
	const char *writer; /* the command the report names as its writer; NULL: raidlab compare */
};

/**
 * Build the model over @n results (kept by the caller, which must outlive
 * the model); @baseline is a column index.  Returns 0, -EINVAL when the
 * results cannot be compared (message in @err), or -ENOMEM.
 */
int rep_compare_build(struct rep_result *const *results, size_t n, size_t baseline,
                      struct rep_compare **out, char *err, size_t errlen);
void rep_compare_free(struct rep_compare *cmp);

/** The figure in a cell, NULL when the column lacks the row. */
const struct rep_figure *rep_cell(const struct rep_compare *cmp, size_t row, size_t col);

/** "SEQ1M Q8T1 read", "job (2) write". */
void rep_row_title(const struct rep_row *row, char *buf, size_t len);

/** The row's name with its occurrence: "job", "job (2)". */
void rep_row_name(const struct rep_row *row, char *buf, size_t len);

double rep_metric_value(const struct rep_figure *fig, enum rep_metric m);

/**
 * The metric row @r is shown in for the chosen @m: REP_METRIC_ACCESS for an
 * access-time row (a column's figure carries access_time_ms), else @m.
 */
enum rep_metric rep_row_metric(const struct rep_compare *cmp, size_t r, enum rep_metric m);

/**
 * Percentage of @value against @base: (value - base) / base x 100.  False
 * when there is no meaningful answer (either unknown, base zero).
 */
bool rep_percent(double value, double base, double *pct);

/** Lower is better (latency). */
bool rep_metric_lower_better(enum rep_metric m);

/** Option word: "mb_s", "iops", "lat". */
const char *rep_metric_key(enum rep_metric m);

/** Unit for headers: "MB/s", "IOPS", "µs". */
const char *rep_metric_unit(enum rep_metric m);

/** Heading: "MB/s (decimal)", "IOPS", "mean latency (µs)". */
const char *rep_metric_title(enum rep_metric m);

/** Parse an option word; -EINVAL when unknown. */
int rep_metric_parse(const char *s, enum rep_metric *m);

#endif
