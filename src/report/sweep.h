/*
 * sweep.h - a sweep document (raidlab sweep --json) as the reports see it.
 *
 * A sweep document has "kind": "sweep" near its start, the axes, and a
 * points[] array: each point names its configuration (label, spec), its
 * workload, its axes' values, usable capacity, failures survived and one
 * suite result, which is read with the same loader as a result file
 * (result.h), so everything the comparison shows of a result it shows of
 * a point.  The sweep's own sections of the HTML page (sweep.c):
 *
 *   heatmap    configurations x tests, each cell shaded by its share of
 *              the best figure of its test;
 *   series     for each axis whose values are all numbers or sizes (chunk,
 *              count, spare...), a line per series (the other axes'
 *              values) along it, one chart per test;
 *   trade-off  usable capacity (x) against performance (y: the geometric
 *              mean over tests of the share of the best), one colour per
 *              number of member failures survived;
 *   points     axes, capacity, failures survived per configuration, and
 *              the skipped and failed ones with their reasons.
 */
#ifndef RL_REPORT_SWEEP_H
#define RL_REPORT_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/compare.h"
#include "report/result.h"

struct json_object;

struct rep_sweep_point {
	const char *label, *spec, *workload;
	const char **values; /* one per axis; NULL where the point is not on it */
	double capacity;     /* bytes */
	int survives;        /* member failures survived */
	struct rep_result *res;
};

struct rep_sweep_note { /* a skipped or failed point */
	const char *label, *spec, *reason;
	bool skipped;
};

struct rep_sweep {
	char *path;
	size_t naxes;
	const char **axes;
	size_t n;
	struct rep_sweep_point *pts;
	size_t nnotes;
	struct rep_sweep_note *notes;
	struct json_object *root; /* owned */
};

/**
 * Does the file at @path hold a sweep document?  Looks only at its start
 * (where raidlab writes "kind"); false when it cannot be read.
 */
bool rep_sweep_file(const char *path);

/** Read a sweep document from @root (a reference is taken).  0, or -EINVAL/-ENOMEM with @err. */
int rep_sweep_from(const char *name, struct json_object *root, struct rep_sweep **out, char *err,
                   size_t errlen);

/** rep_sweep_from() on a file. */
int rep_sweep_load(const char *path, struct rep_sweep **out, char *err, size_t errlen);

void rep_sweep_free(struct rep_sweep *sw);

/**
 * Fresh copies of the points' results into @out[0..sw->n) (the caller's:
 * a comparison may merge them), so the sweep keeps its own.
 */
int rep_sweep_results(const struct rep_sweep *sw, struct rep_result **out, char *err,
                      size_t errlen);

/** The sweep's sections of the HTML page, beside the comparison @cmp of its points. */
struct rep_sweep_page {
	const struct rep_sweep *sw;
	const struct rep_compare *cmp;
};
/* For struct rep_html_extra (render.h); @page is a struct rep_sweep_page. */
void rep_sweep_html_nav(FILE *f, const void *page);
void rep_sweep_html_body(FILE *f, const void *page);

/**
 * The whole HTML page of a sweep document: the comparison of every point
 * (one column each) with the sweep's sections.  0, or -errno with @err.
 */
int rep_sweep_html_doc(FILE *f, struct json_object *doc, char *err, size_t errlen);

#endif
