/*
 * result.h - a result file as the reports see it.
 *
 * Reports read the JSON documents of docs/results.md and nothing else: no
 * engine header is included anywhere under src/report/.  The loader checks
 * a document against that contract once (schema_version, required fields,
 * the type of every field it reads) and turns it into the small typed view
 * below; renderers then never meet a missing or mistyped field.  A document
 * that breaks the contract is refused with one message naming the file and
 * the field (e.g. "r.json: field 'tests[2].read.mb_s' is missing").
 *
 * Two kinds of result share the view: a suite result (top-level "suite",
 * "label", "tests") gives one rep_test per tests[] entry; a plain job result
 * gives one rep_test per jobs[] entry, named after the job; fio's own JSON
 * ("fio version", no schema_version) is read as a job result too, labelled
 * with fio's version string.  Strings and the
 * free-form objects (host, target tree, parameters) point into the parsed
 * JSON document, which the rep_result owns.
 */
#ifndef RL_REPORT_RESULT_H
#define RL_REPORT_RESULT_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* The schema_version this code reads. */
#define REP_SCHEMA_VERSION 1

enum rep_kind {
	REP_KIND_JOBS,  /* a plain job result: jobs[] */
	REP_KIND_SUITE, /* a suite result: tests[] */
};

enum rep_dir {
	REP_READ,
	REP_WRITE,
	REP_TRIM,
	REP_NDIR,
};

/* Latency percentiles shown by the reports: p50, p90, p99, p99.9. */
enum rep_pct {
	REP_P50,
	REP_P90,
	REP_P99,
	REP_P99_9,
	REP_NPCT,
};

/* One direction of a test or job.  Unknown numbers are NAN. */
struct rep_figure {
	bool present;
	double mb_s;        /* decimal MB/s */
	double iops;        /* requests per second */
	double lat_mean_us; /* mean completion latency, µs */
	double pct[REP_NPCT];
	double access_ms; /* an access time (AS SSD Acc.time, HD Tune Access Time), ms */
};

/* tests[].curve: a transfer-rate curve (HD Tune, steady state). */
struct rep_curve {
	const char *x_label; /* "position_gb", "time_s", ... ("x" when absent) */
	size_t n;
	double *x;
	double *mb_s;
	double *lat_us; /* NULL when the curve has no latency */
};

/* A suite test, or a job of a job result. */
struct rep_test {
	const char *name;
	const char *pattern; /* "seq", "rand", "mixed"; a job's rw option; NULL when absent */
	long long bs, iodepth, threads; /* -1 when absent */
	struct rep_figure dir[REP_NDIR];
	double min_mb_s, max_mb_s, access_time_ms, burst_mb_s; /* NAN when absent */
	struct rep_curve *curve;                               /* NULL when absent */
	struct json_object *options; /* a job's options; NULL for suite tests */
};

struct rep_result {
	char *path; /* the file name as given */
	enum rep_kind kind;
	const char *label;                                /* "label", else target.spec */
	const char *spec;                                 /* target.spec */
	const char *suite_name, *suite_title, *aggregate; /* suites only, else NULL */
	struct json_object *host;                         /* NULL when absent */
	struct json_object *target; /* the target object (spec, size_bytes, tree, ...) */
	struct json_object *tree;   /* target.tree, NULL when absent */
	struct json_object *params; /* suite.params, NULL when absent */
	double score[3];            /* scores.read, .write, .total; NAN when absent */
	struct rep_test *tests;
	size_t ntests;
	struct json_object *root; /* the parsed document (owned) */
};

/**
 * Parse and check one result document held in memory.  @name is used in
 * messages and stored as the result's path.  Returns 0 and sets *@out, or a
 * negative errno (-EINVAL: not JSON or not the contract, -ENOMEM) with a
 * message "NAME: ..." in @err.  Never reads past @len; @text need not be
 * NUL-terminated.
 */
int rep_result_parse(const char *name, const char *text, size_t len, struct rep_result **out,
                     char *err, size_t errlen);

/** rep_result_parse() on a file's contents; -errno when it cannot be read. */
int rep_result_load(const char *path, struct rep_result **out, char *err, size_t errlen);

void rep_result_free(struct rep_result *res);

/**
 * Fold @from, another suite's result for the same configuration (the same
 * label: a block suite and a file suite run on one stack), into @into, so
 * one column shows both: @from's tests are appended, named "SUITE TEST"
 * ("asssd-copy ISO"), and the column's suite name becomes "A + B".  Both
 * must be suite results.  @from is consumed (its document now belongs to
 * @into) on success; -EINVAL (different kinds) or -ENOMEM leave both as
 * they were.
 */
int rep_result_merge(struct rep_result *into, struct rep_result *from);

/** "read", "write", "trim". */
const char *rep_dir_name(enum rep_dir dir);

/** "p50", "p90", "p99", "p99.9". */
const char *rep_pct_name(enum rep_pct pct);

#endif
