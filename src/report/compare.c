/*
 * compare.c - build the comparison model (see compare.h for the rules).
 *
 * Rows are collected configuration by configuration, and the rows of one
 * test stay together in read, write, trim order.  For each configuration
 * its keys (name, occurrence, direction) are walked in its own order: a
 * key of a test the model already has fills that test's row for the
 * direction (adding the row if the direction is new); keys of new tests
 * wait in a pending list and go just before the rows of the next test
 * that is already known, or at the end.  Lookups are linear: results have
 * tens of tests, not thousands.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

struct rep_key {
	const struct rep_test *test;
	unsigned occurrence;
	enum rep_dir dir;
};

/* Insert @nk rows for @keys of column @col at @pos. */
static int rep_rows_insert(struct rep_compare *cmp, size_t *cap, size_t pos,
                           const struct rep_key *keys, size_t nk, size_t col)
{
	if (nk == 0)
		return 0; /* nothing to insert (and rows may still be NULL) */
	if (cmp->nrows + nk > *cap) {
		size_t ncap = (*cap ? *cap * 2 : 16) + nk;
		struct rep_row *nr = realloc(cmp->rows, ncap * sizeof *nr);

		if (!nr)
			return -ENOMEM;
		cmp->rows = nr;
		*cap = ncap;
	}
	memmove(&cmp->rows[pos + nk], &cmp->rows[pos], (cmp->nrows - pos) * sizeof *cmp->rows);
	for (size_t i = 0; i < nk; i++) {
		struct rep_row *r = &cmp->rows[pos + i];

		r->name = keys[i].test->name;
		r->occurrence = keys[i].occurrence;
		r->dir = keys[i].dir;
		r->tests = calloc(cmp->ncols, sizeof *r->tests);
		if (!r->tests) {
			/* keep the model consistent for rep_compare_free */
			memmove(&cmp->rows[pos + i], &cmp->rows[pos + nk],
			        (cmp->nrows - pos) * sizeof *cmp->rows);
			cmp->nrows += i;
			return -ENOMEM;
		}
		r->tests[col] = keys[i].test;
	}
	cmp->nrows += nk;
	return 0;
}

/* The keys of one result in its order: every test x direction it has. */
static int rep_keys(const struct rep_result *res, struct rep_key **out, size_t *nout)
{
	struct rep_key *k = calloc(res->ntests * REP_NDIR + 1, sizeof *k);
	size_t n = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < res->ntests; i++) {
		const struct rep_test *t = &res->tests[i];
		unsigned occ = 0;

		for (size_t j = 0; j < i; j++)
			occ += !strcmp(res->tests[j].name, t->name);
		for (int d = 0; d < REP_NDIR; d++) {
			if (!t->dir[d].present)
				continue;
			k[n].test = t;
			k[n].occurrence = occ;
			k[n].dir = d;
			n++;
		}
	}
	*out = k;
	*nout = n;
	return 0;
}

/* Rows [*first, *last] hold the test of @k; false when no row does. */
static bool rep_group(const struct rep_compare *cmp, const struct rep_key *k, size_t *first,
                      size_t *last)
{
	bool found = false;

	for (size_t r = 0; r < cmp->nrows; r++) {
		if (cmp->rows[r].occurrence != k->occurrence ||
		    strcmp(cmp->rows[r].name, k->test->name))
			continue;
		if (!found)
			*first = r;
		*last = r;
		found = true;
	}
	return found;
}

static int rep_add_column(struct rep_compare *cmp, size_t *cap, size_t col)
{
	struct rep_key *keys, *pending;
	size_t nkeys, npend = 0;
	int rc = rep_keys(cmp->cols[col], &keys, &nkeys);

	if (rc)
		return rc;
	pending = calloc(nkeys + 1, sizeof *pending);
	if (!pending) {
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nkeys && !rc; i++) {
		size_t first = 0, last = 0, r;

		if (!rep_group(cmp, &keys[i], &first, &last)) {
			pending[npend++] = keys[i]; /* a new test: placed with the next known one */
			continue;
		}
		/* new tests listed before this one go just before its rows */
		rc = rep_rows_insert(cmp, cap, first, pending, npend, col);
		if (rc)
			break;
		first += npend;
		last += npend;
		npend = 0;
		for (r = first; r <= last; r++) {
			if (cmp->rows[r].dir >= keys[i].dir)
				break;
		}
		if (r <= last && cmp->rows[r].dir == keys[i].dir)
			cmp->rows[r].tests[col] = keys[i].test;
		else /* a direction the test had nowhere else yet: keep read, write, trim order */
			rc = rep_rows_insert(cmp, cap, r, &keys[i], 1, col);
	}
	if (!rc)
		rc = rep_rows_insert(cmp, cap, cmp->nrows, pending, npend, col);
	free(pending);
	free(keys);
	return rc;
}

static int rep_labels(struct rep_compare *cmp)
{
	cmp->labels = calloc(cmp->ncols, sizeof *cmp->labels);
	if (!cmp->labels)
		return -ENOMEM;
	for (size_t i = 0; i < cmp->ncols; i++) {
		const char *l = cmp->cols[i]->label;
		bool dup = false;
		int n;

		for (size_t j = 0; j < cmp->ncols && !dup; j++)
			dup = j != i && !strcmp(cmp->cols[j]->label, l);
		n = dup ? asprintf(&cmp->labels[i], "%s #%zu", l, i + 1)
		        : asprintf(&cmp->labels[i], "%s", l);
		if (n < 0) {
			cmp->labels[i] = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

int rep_compare_build(struct rep_result *const *results, size_t n, size_t baseline,
                      struct rep_compare **out, char *err, size_t errlen)
{
	struct rep_compare *cmp;
	size_t cap = 0;
	int rc;

	*out = NULL;
	if (n == 0 || baseline >= n) {
		snprintf(err, errlen, "baseline %zu is not one of the %zu results", baseline + 1,
		         n);
		return -EINVAL;
	}
	for (size_t i = 1; i < n; i++) {
		const struct rep_result *a = results[0], *b = results[i];

		if (a->kind == b->kind)
			continue;
		if (a->kind == REP_KIND_JOBS) {
			const struct rep_result *t = a;
			a = b;
			b = t;
		}
		snprintf(err, errlen,
		         "cannot compare %s (a suite result: %s) with %s (a job result): compare "
		         "suite results with suite results and job results with job results",
		         a->path, a->suite_name, b->path);
		return -EINVAL;
	}
	cmp = calloc(1, sizeof *cmp);
	if (!cmp)
		return -ENOMEM;
	cmp->kind = results[0]->kind;
	cmp->ncols = n;
	cmp->cols = results;
	cmp->baseline = baseline;
	rc = rep_labels(cmp);
	for (size_t c = 0; c < n && !rc; c++)
		rc = rep_add_column(cmp, &cap, c);
	if (rc) {
		snprintf(err, errlen, "out of memory");
		rep_compare_free(cmp);
		return rc;
	}
	*out = cmp;
	return 0;
}

void rep_compare_free(struct rep_compare *cmp)
{
	if (!cmp)
		return;
	for (size_t r = 0; r < cmp->nrows; r++)
		free(cmp->rows[r].tests);
	free(cmp->rows);
	for (size_t i = 0; cmp->labels && i < cmp->ncols; i++)
		free(cmp->labels[i]);
	free(cmp->labels);
	free(cmp);
}

const struct rep_figure *rep_cell(const struct rep_compare *cmp, size_t row, size_t col)
{
	const struct rep_test *t = cmp->rows[row].tests[col];

	return t ? &t->dir[cmp->rows[row].dir] : NULL;
}

void rep_row_name(const struct rep_row *row, char *buf, size_t len)
{
	if (row->occurrence)
		snprintf(buf, len, "%s (%u)", row->name, row->occurrence + 1);
	else
		snprintf(buf, len, "%s", row->name);
}

void rep_row_title(const struct rep_row *row, char *buf, size_t len)
{
	char name[256];

	rep_row_name(row, name, sizeof name);
	snprintf(buf, len, "%s %s", name, rep_dir_name(row->dir));
}

double rep_metric_value(const struct rep_figure *fig, enum rep_metric m)
{
	if (!fig || !fig->present)
		return NAN;
	switch (m) {
	case REP_METRIC_MB_S:
		return fig->mb_s;
	case REP_METRIC_IOPS:
		return fig->iops;
	case REP_METRIC_LAT:
		return fig->lat_mean_us;
	case REP_METRIC_ACCESS:
		return fig->access_ms;
	case REP_NMETRIC:
		break;
	}
	return NAN;
}

enum rep_metric rep_row_metric(const struct rep_compare *cmp, size_t r, enum rep_metric m)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_figure *fig = rep_cell(cmp, r, c);

		if (fig && fig->present && isfinite(fig->access_ms))
			return REP_METRIC_ACCESS;
	}
	return m;
}

bool rep_percent(double value, double base, double *pct)
{
	if (!isfinite(value) || !isfinite(base) || base == 0.0)
		return false;
	*pct = (value - base) / base * 100.0;
	return isfinite(*pct);
}

bool rep_metric_lower_better(enum rep_metric m)
{
	return m == REP_METRIC_LAT || m == REP_METRIC_ACCESS;
}

static const char *const rep_metric_keys[REP_NMETRIC] = {"mb_s", "iops", "lat"};

const char *rep_metric_key(enum rep_metric m)
{
	return m < REP_NMETRIC ? rep_metric_keys[m] : "?";
}

const char *rep_metric_unit(enum rep_metric m)
{
	static const char *const units[REP_NMETRIC] = {"MB/s", "IOPS", "\u00b5s"};
	if (m == REP_METRIC_ACCESS)
		return "ms";
	return m < REP_NMETRIC ? units[m] : "?";
}

const char *rep_metric_title(enum rep_metric m)
{
	static const char *const titles[REP_NMETRIC] = {"MB/s (decimal, 10^6 bytes per second)",
	                                                "IOPS (requests per second)",
	                                                "mean latency (\u00b5s)"};
	return m < REP_NMETRIC ? titles[m] : "?";
}

int rep_metric_parse(const char *s, enum rep_metric *m)
{
	for (int i = 0; i < REP_NMETRIC; i++) {
		if (!strcmp(s, rep_metric_keys[i])) {
			*m = i;
			return 0;
		}
	}
	return -EINVAL;
}
