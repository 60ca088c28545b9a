/*
 * load.c - read a result file and check it against docs/results.md.
 *
 * The document is parsed strictly (json-c, UTF-8 validated, nothing but
 * white space after the value, nesting limited) and then walked once.
 * Every field the reports use is looked up through one helper that knows
 * the field's path ("tests[2].read.lat_us.mean"), whether it is required,
 * and its type, so every refusal reads the same way:
 *
 *   r.json: field 'tests[2].read.mb_s' is missing
 *   r.json: field 'label' must be a string, not a number
 *   r.json: schema_version 2 is not supported (raidlab reads 1)
 *
 * Required: schema_version, target.spec, jobs; for a suite result (one
 * with "suite") also label, suite.name, tests[].name; in every direction
 * object mb_s, iops and lat_us.mean, except that a suite test's iops and
 * lat_us may be absent (a rebuild's test has a rate and no requests to
 * count): the figure is then NAN and the reports show it as absent.  Everything else
 * is optional, but when
 * present it must have the contract's type; numbers must be finite and
 * plausible (MB/s, IOPS and mean latency above zero, percentiles and curve
 * points not negative, none beyond REP_*_MAX), and tests[] or jobs[] must
 * not be empty.
 * Unknown fields are ignored (the contract lets new fields appear).  A
 * file is read through strip.h's filter into an incremental parser, so the
 * job directions' histograms and series (never read) are never built as a
 * tree; text that is not a clean document is then parsed again as it is,
 * so errors name the file's own line and column.
 *
 * fio's JSON (json or json+) is recognised by "fio version" and read as a
 * job result through its own small walk (rep_fio_*), with fio's keys.
 *
 * Latency percentiles of a suite test come from its passes (the aggregated
 * figure carries only the mean and maybe p99): with aggregate "best" from
 * the pass with the highest MB/s (the pass CrystalDiskMark shows), otherwise
 * the mean over the passes.  Without passes the aggregated lat_us is used.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/result.h"
#include "report/strip.h"

#define REP_MAX_FILE  (512u << 20) /* bigger than any result raidlab writes */
#define REP_MAX_DEPTH 64

struct rep_load {
	const char *name;
	bool fio;                   /* the document is fio's JSON */
	struct json_object *global; /* fio's "global options", or NULL */
	char *err;
	size_t errlen;
};

static const char *const rep_pct_keys[REP_NPCT] = {"p50", "p90", "p99", "p99_9"};

const char *rep_dir_name(enum rep_dir dir)
{
	static const char *const names[REP_NDIR] = {"read", "write", "trim"};
	return dir < REP_NDIR ? names[dir] : "?";
}

const char *rep_pct_name(enum rep_pct pct)
{
	static const char *const names[REP_NPCT] = {"p50", "p90", "p99", "p99.9"};
	return pct < REP_NPCT ? names[pct] : "?";
}

__attribute__((format(printf, 2, 3))) static int rep_fail(struct rep_load *ld, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(ld->err, ld->errlen, "%s: ", ld->name);
	if (n >= 0 && (size_t)n < ld->errlen) {
		va_start(ap, fmt);
		vsnprintf(ld->err + n, ld->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *rep_type_word(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_int:
	case json_type_double:
		return "a number";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	case json_type_object:
		return "an object";
	}
	return "something else";
}

/* What a field must be. */
enum rep_want {
	REP_W_OBJECT,
	REP_W_ARRAY,
	REP_W_STRING,
	REP_W_NUMBER, /* finite int or double */
	REP_W_INT,
	REP_W_BOOL,
};

static const char *const rep_want_word[] = {"an object", "an array",   "a string",
                                            "a number",  "an integer", "a boolean"};

static bool rep_is(struct json_object *v, enum rep_want want)
{
	enum json_type t = json_object_get_type(v);

	switch (want) {
	case REP_W_OBJECT:
		return t == json_type_object;
	case REP_W_ARRAY:
		return t == json_type_array;
	case REP_W_STRING:
		return t == json_type_string;
	case REP_W_NUMBER:
		return (t == json_type_int || t == json_type_double) &&
		       isfinite(json_object_get_double(v));
	case REP_W_INT:
		return t == json_type_int;
	case REP_W_BOOL:
		return t == json_type_boolean;
	}
	return false;
}

/*
 * Look up @key in @obj (whose path is @path, "" for the top level) and
 * check its type.  *@out is NULL when an optional field is absent; an
 * explicit null counts as absent.
 */
static int rep_field(struct rep_load *ld, struct json_object *obj, const char *path,
                     const char *key, enum rep_want want, bool required, struct json_object **out)
{
	struct json_object *v = NULL;
	const char *dot = *path ? "." : "";

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || !v) {
		if (required)
			return rep_fail(ld, "field '%s%s%s' is missing", path, dot, key);
		return 0;
	}
	if (!rep_is(v, want)) {
		if (want == REP_W_NUMBER && json_object_is_type(v, json_type_double))
			return rep_fail(ld, "field '%s%s%s' must be a finite number", path, dot,
			                key);
		return rep_fail(ld, "field '%s%s%s' must be %s, not %s", path, dot, key,
		                rep_want_word[want], rep_type_word(v));
	}
	*out = v;
	return 0;
}

static int rep_string(struct rep_load *ld, struct json_object *obj, const char *path,
                      const char *key, bool required, const char **out)
{
	struct json_object *v;
	int rc = rep_field(ld, obj, path, key, REP_W_STRING, required, &v);

	*out = v ? json_object_get_string(v) : NULL;
	return rc;
}

static int rep_number(struct rep_load *ld, struct json_object *obj, const char *path,
                      const char *key, bool required, double *out)
{
	struct json_object *v;
	int rc = rep_field(ld, obj, path, key, REP_W_NUMBER, required, &v);

	*out = v ? json_object_get_double(v) : NAN;
	return rc;
}

/*
 * Plausibility: a figure outside [lo, hi] (or equal to lo when @lo_open)
 * is not a measurement - a hand-edited or corrupted file - and is refused
 * by name.  Absent figures (NAN) pass.
 */
#define REP_MB_S_MAX 1e8  /* 100 TB/s */
#define REP_IOPS_MAX 1e10 /* ten billion I/Os per second */
#define REP_LAT_MAX  1e10 /* µs: almost three hours */

static int rep_range(struct rep_load *ld, const char *path, const char *key, double v, double lo,
                     bool lo_open, double hi)
{
	if (isnan(v) || ((lo_open ? v > lo : v >= lo) && v <= hi))
		return 0;
	return rep_fail(ld, "field '%s%s%s' is %g, outside the plausible range %s%g, %g]", path,
	                *path ? "." : "", key, v, lo_open ? "(" : "[", lo, hi);
}

static int rep_int(struct rep_load *ld, struct json_object *obj, const char *path, const char *key,
                   long long *out)
{
	struct json_object *v;
	int rc = rep_field(ld, obj, path, key, REP_W_INT, false, &v);

	*out = v ? (long long)json_object_get_int64(v) : -1;
	return rc;
}

/*
 * Field paths ("tests[2].read.lat_us") are built in fixed buffers; a path
 * too long for one is cut (it only appears in messages).
 */
#define REP_PATH 192

static void rep_path(char *buf, size_t len, const char *parent, const char *key)
{
	if (snprintf(buf, len, "%s%s%s", parent, *parent ? "." : "", key) >= (int)len)
		buf[len - 1] = '\0';
}

static void rep_index(char *buf, size_t len, const char *parent, size_t i)
{
	if (snprintf(buf, len, "%s[%zu]", parent, i) >= (int)len)
		buf[len - 1] = '\0';
}

/* The percentiles of one lat_us object (absent ones stay NAN). */
static int rep_lat_pcts(struct rep_load *ld, struct json_object *lat, const char *path,
                        double pct[REP_NPCT])
{
	for (int p = 0; p < REP_NPCT; p++) {
		int rc = rep_number(ld, lat, path, rep_pct_keys[p], false, &pct[p]);
		if (rc ||
		    (rc = rep_range(ld, path, rep_pct_keys[p], pct[p], 0, false, REP_LAT_MAX)))
			return rc;
	}
	return 0;
}

/* Percentiles from passes[]: the best pass's, or the mean over the passes. */
static int rep_passes(struct rep_load *ld, struct json_object *passes, const char *path, bool best,
                      struct rep_figure *fig)
{
	size_t n = json_object_array_length(passes);
	double sum[REP_NPCT] = {0}, best_mb_s = -INFINITY;
	size_t cnt[REP_NPCT] = {0};
	char p[REP_PATH], lp[REP_PATH];

	for (size_t i = 0; i < n; i++) {
		struct json_object *pass = json_object_array_get_idx(passes, i), *lat;
		double mb_s, pct[REP_NPCT];
		int rc;

		rep_index(p, sizeof p, path, i);
		if (!rep_is(pass, REP_W_OBJECT))
			return rep_fail(ld, "field '%s' must be an object, not %s", p,
			                rep_type_word(pass));
		if ((rc = rep_number(ld, pass, p, "mb_s", false, &mb_s)) ||
		    (rc = rep_range(ld, p, "mb_s", mb_s, 0, false, REP_MB_S_MAX)) ||
		    (rc = rep_field(ld, pass, p, "lat_us", REP_W_OBJECT, false, &lat)))
			return rc;
		for (int k = 0; k < REP_NPCT; k++)
			pct[k] = NAN;
		rep_path(lp, sizeof lp, p, "lat_us");
		if (lat && (rc = rep_lat_pcts(ld, lat, lp, pct)))
			return rc;
		if (best) {
			if (!isnan(mb_s) && mb_s > best_mb_s) {
				best_mb_s = mb_s;
				memcpy(fig->pct, pct, sizeof pct);
			}
			continue;
		}
		for (int k = 0; k < REP_NPCT; k++) {
			if (!isnan(pct[k])) {
				sum[k] += pct[k];
				cnt[k]++;
			}
		}
	}
	if (!best) {
		for (int k = 0; k < REP_NPCT; k++)
			fig->pct[k] = cnt[k] ? sum[k] / (double)cnt[k] : NAN;
	}
	return 0;
}

/* A direction object: a job's, or a suite test's aggregated figure. */
static int rep_direction(struct rep_load *ld, struct json_object *d, const char *path, bool best,
                         bool partial, struct rep_figure *fig)
{
	struct json_object *lat, *passes;
	char lp[REP_PATH];
	int rc;

	for (int k = 0; k < REP_NPCT; k++)
		fig->pct[k] = NAN;
	if ((rc = rep_number(ld, d, path, "access_time_ms", false, &fig->access_ms)) ||
	    (!isnan(fig->access_ms) &&
	     (rc = rep_range(ld, path, "access_time_ms", fig->access_ms, 0, false, REP_LAT_MAX))) ||
	    (rc = rep_number(ld, d, path, "mb_s", true, &fig->mb_s)) ||
	    (rc = rep_range(ld, path, "mb_s", fig->mb_s, 0, true, REP_MB_S_MAX)) ||
	    (rc = rep_number(ld, d, path, "iops", !partial, &fig->iops)) ||
	    (!isnan(fig->iops) &&
	     (rc = rep_range(ld, path, "iops", fig->iops, 0, true, REP_IOPS_MAX))) ||
	    (rc = rep_field(ld, d, path, "lat_us", REP_W_OBJECT, !partial, &lat)))
		return rc;
	fig->lat_mean_us = NAN;
	rep_path(lp, sizeof lp, path, "lat_us");
	if (lat && ((rc = rep_number(ld, lat, lp, "mean", true, &fig->lat_mean_us)) ||
	            (rc = rep_range(ld, lp, "mean", fig->lat_mean_us, 0, true, REP_LAT_MAX)) ||
	            (rc = rep_lat_pcts(ld, lat, lp, fig->pct))))
		return rc;
	if ((rc = rep_field(ld, d, path, "passes", REP_W_ARRAY, false, &passes)))
		return rc;
	if (passes && json_object_array_length(passes) > 0) {
		struct rep_figure from_passes;

		for (int k = 0; k < REP_NPCT; k++)
			from_passes.pct[k] = NAN;
		rep_path(lp, sizeof lp, path, "passes");
		if ((rc = rep_passes(ld, passes, lp, best, &from_passes)))
			return rc;
		/* the passes win when they have any percentile */
		for (int k = 0; k < REP_NPCT; k++) {
			if (!isnan(from_passes.pct[k])) {
				memcpy(fig->pct, from_passes.pct, sizeof fig->pct);
				break;
			}
		}
	}
	fig->present = true;
	return 0;
}

/* @partial: a suite test's directions, where iops and lat_us may be absent (a rebuild's). */
static int rep_directions(struct rep_load *ld, struct json_object *obj, const char *path, int ndir,
                          bool best, bool partial, struct rep_test *t)
{
	char dp[REP_PATH];

	for (int d = 0; d < ndir; d++) {
		struct json_object *dobj;
		int rc = rep_field(ld, obj, path, rep_dir_name(d), REP_W_OBJECT, false, &dobj);

		if (rc)
			return rc;
		rep_path(dp, sizeof dp, path, rep_dir_name(d));
		if (dobj && (rc = rep_direction(ld, dobj, dp, best, partial, &t->dir[d])))
			return rc;
	}
	return 0;
}

/* An array of finite numbers, copied out. */
static int rep_numbers(struct rep_load *ld, struct json_object *arr, const char *path, double **out)
{
	size_t n = json_object_array_length(arr);
	double *v = calloc(n ? n : 1, sizeof *v);

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		if (!rep_is(e, REP_W_NUMBER)) {
			free(v);
			return rep_fail(ld, "field '%s[%zu]' must be a finite number, not %s", path,
			                i, rep_type_word(e));
		}
		v[i] = json_object_get_double(e);
	}
	*out = v;
	return 0;
}

static void rep_curve_free(struct rep_curve *c)
{
	if (!c)
		return;
	free(c->x);
	free(c->mb_s);
	free(c->lat_us);
	free(c);
}

static int rep_curve(struct rep_load *ld, struct json_object *cobj, const char *path,
                     struct rep_curve **out)
{
	static const char *const keys[3] = {"x", "mb_s", "lat_us"};
	struct json_object *arr[3];
	struct rep_curve *c;
	char ap[REP_PATH];
	int rc;

	if ((rc = rep_field(ld, cobj, path, "x", REP_W_ARRAY, true, &arr[0])) ||
	    (rc = rep_field(ld, cobj, path, "mb_s", REP_W_ARRAY, true, &arr[1])) ||
	    (rc = rep_field(ld, cobj, path, "lat_us", REP_W_ARRAY, false, &arr[2])))
		return rc;
	c = calloc(1, sizeof *c);
	if (!c)
		return -ENOMEM;
	if ((rc = rep_string(ld, cobj, path, "x_label", false, &c->x_label)))
		goto fail;
	if (!c->x_label)
		c->x_label = "x";
	c->n = json_object_array_length(arr[0]);
	for (int k = 0; k < 3; k++) {
		double **dst = k == 0 ? &c->x : k == 1 ? &c->mb_s : &c->lat_us;

		if (!arr[k])
			continue;
		rep_path(ap, sizeof ap, path, keys[k]);
		if (json_object_array_length(arr[k]) != c->n) {
			rc = rep_fail(ld, "field '%s' has %zu values but '%s.x' has %zu", ap,
			              json_object_array_length(arr[k]), path, c->n);
			goto fail;
		}
		if ((rc = rep_numbers(ld, arr[k], ap, dst)))
			goto fail;
		for (size_t i = 0; k > 0 && i < c->n; i++) {
			char ip[REP_PATH];
			rep_index(ip, sizeof ip, keys[k], i);
			if ((rc = rep_range(ld, path, ip, (*dst)[i], 0, false,
			                    k == 1 ? REP_MB_S_MAX : REP_LAT_MAX)))
				goto fail;
		}
	}
	*out = c;
	return 0;
fail:
	rep_curve_free(c);
	return rc;
}

static void rep_test_init(struct rep_test *t)
{
	memset(t, 0, sizeof *t);
	t->bs = t->iodepth = t->threads = -1;
	t->min_mb_s = t->max_mb_s = t->access_time_ms = t->burst_mb_s = NAN;
	for (int d = 0; d < REP_NDIR; d++)
		t->dir[d].access_ms = NAN;
}

/*
 * An access-time test (a test-level access_time_ms and no transfer rate:
 * no curve, minimum or burst beside it) is an access time in each
 * direction it measured; results written before the directions carried
 * their own access_time_ms get it from the mean latency, which is what
 * both suites report as the access time.
 */
static void rep_access_dirs(struct rep_test *t)
{
	if (isnan(t->access_time_ms) || t->curve || !isnan(t->min_mb_s) || !isnan(t->burst_mb_s))
		return;
	for (int d = 0; d < REP_NDIR; d++) {
		if (t->dir[d].present && isnan(t->dir[d].access_ms))
			t->dir[d].access_ms = t->dir[d].lat_mean_us / 1e3;
	}
}

static int rep_suite_test(struct rep_load *ld, struct json_object *tobj, const char *path,
                          bool best, struct rep_test *t)
{
	struct json_object *cobj;
	char cp[REP_PATH];
	int rc;

	if ((rc = rep_string(ld, tobj, path, "name", true, &t->name)) ||
	    (rc = rep_string(ld, tobj, path, "pattern", false, &t->pattern)) ||
	    (rc = rep_int(ld, tobj, path, "bs", &t->bs)) ||
	    (rc = rep_int(ld, tobj, path, "iodepth", &t->iodepth)) ||
	    (rc = rep_int(ld, tobj, path, "threads", &t->threads)) ||
	    (rc = rep_number(ld, tobj, path, "min_mb_s", false, &t->min_mb_s)) ||
	    (rc = rep_number(ld, tobj, path, "max_mb_s", false, &t->max_mb_s)) ||
	    (rc = rep_number(ld, tobj, path, "access_time_ms", false, &t->access_time_ms)) ||
	    (rc = rep_number(ld, tobj, path, "burst_mb_s", false, &t->burst_mb_s)) ||
	    (rc = rep_directions(ld, tobj, path, REP_TRIM, best, true, t)) ||
	    (rc = rep_field(ld, tobj, path, "curve", REP_W_OBJECT, false, &cobj)))
		return rc;
	rep_path(cp, sizeof cp, path, "curve");
	if (cobj && (rc = rep_curve(ld, cobj, cp, &t->curve)))
		return rc;
	rep_access_dirs(t);
	return 0;
}

/* A job option that is a plain decimal integer ("4096"), else -1. */
static long long rep_option_int(struct json_object *options, const char *key)
{
	struct json_object *v;
	const char *s;
	long long n = 0;

	if (!json_object_object_get_ex(options, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	if (!*s || strlen(s) > 18 || strspn(s, "0123456789") != strlen(s))
		return -1;
	for (; *s; s++)
		n = n * 10 + (*s - '0');
	return n;
}

/*
 * A job direction's counts (ios, bytes, runtime_s, mib_s) are optional (a
 * hand-made summary may leave them out), but when given they are checked:
 * an explicit null, a string, a negative or absurd value is refused by
 * name, and they must agree with the figures the reports show (mb_s =
 * bytes / runtime_s / 10^6, iops = ios / runtime_s, mib_s = mb_s / 1.048576)
 * within rounding.  A direction is written only when it did I/O, so ios and
 * bytes are at least 1.
 */
#define REP_RUNTIME_MAX 1e9  /* s: about 30 years */
#define REP_AGREE       1e-3 /* relative rounding allowed between figures */

static bool rep_agree(double a, double b)
{
	return fabs(a - b) <= REP_AGREE * fmax(fabs(a), fabs(b)) + 1e-9;
}

static int rep_count(struct rep_load *ld, struct json_object *d, const char *path, const char *key,
                     enum rep_want want, double lo, double hi, double *out)
{
	struct json_object *v = NULL;

	*out = NAN;
	if (!json_object_object_get_ex(d, key, &v))
		return 0;
	if (!v || !rep_is(v, want))
		return rep_fail(ld, "field '%s.%s' must be %s, not %s", path, key,
		                rep_want_word[want], v ? rep_type_word(v) : "null");
	*out = want == REP_W_INT ? (double)json_object_get_int64(v) : json_object_get_double(v);
	return rep_range(ld, path, key, *out, lo, false, hi);
}

static int rep_counts(struct rep_load *ld, struct json_object *d, const char *path,
                      const struct rep_figure *fig)
{
	double ios, bytes, rt, mib_s;
	int rc;

	if ((rc = rep_count(ld, d, path, "ios", REP_W_INT, 1, 1e18, &ios)) ||
	    (rc = rep_count(ld, d, path, "bytes", REP_W_INT, 1, 1e18, &bytes)) ||
	    (rc = rep_count(ld, d, path, "runtime_s", REP_W_NUMBER, 1e-9, REP_RUNTIME_MAX, &rt)) ||
	    (rc = rep_count(ld, d, path, "mib_s", REP_W_NUMBER, 1e-12, REP_MB_S_MAX, &mib_s)))
		return rc;
	if (!isnan(mib_s) && !rep_agree(mib_s * 1.048576, fig->mb_s))
		return rep_fail(ld, "field '%s.mib_s' is %g, but mb_s %g means %g", path, mib_s,
		                fig->mb_s, fig->mb_s / 1.048576);
	if (!isnan(ios) && !isnan(bytes) && bytes < ios)
		return rep_fail(ld, "field '%s.bytes' is %.0f, fewer than its %.0f ios", path,
		                bytes, ios);
	if (!isnan(bytes) && !isnan(rt) && !rep_agree(bytes / rt / 1e6, fig->mb_s))
		return rep_fail(ld,
		                "fields '%s.bytes' and 'runtime_s' (%.0f bytes in %g s) disagree "
		                "with mb_s %g",
		                path, bytes, rt, fig->mb_s);
	if (!isnan(ios) && !isnan(rt) && !rep_agree(ios / rt, fig->iops))
		return rep_fail(ld,
		                "fields '%s.ios' and 'runtime_s' (%.0f ios in %g s) disagree with "
		                "iops %g",
		                path, ios, rt, fig->iops);
	return 0;
}

static int rep_job(struct rep_load *ld, struct json_object *jobj, const char *path,
                   struct rep_test *t)
{
	struct json_object *rw;
	int rc;

	if ((rc = rep_string(ld, jobj, path, "name", true, &t->name)) ||
	    (rc = rep_field(ld, jobj, path, "options", REP_W_OBJECT, false, &t->options)) ||
	    (rc = rep_directions(ld, jobj, path, REP_NDIR, false, false, t)))
		return rc;
	for (int d = 0; d < REP_NDIR; d++) {
		struct json_object *dobj;
		char dp[REP_PATH];
		if (!t->dir[d].present || !json_object_object_get_ex(jobj, rep_dir_name(d), &dobj))
			continue;
		rep_path(dp, sizeof dp, path, rep_dir_name(d));
		if ((rc = rep_counts(ld, dobj, dp, &t->dir[d])))
			return rc;
	}
	if (t->options) {
		/* the job's pattern and shape, for the CSV columns */
		if (json_object_object_get_ex(t->options, "rw", &rw) &&
		    json_object_is_type(rw, json_type_string))
			t->pattern = json_object_get_string(rw);
		t->bs = rep_option_int(t->options, "bs");
		t->iodepth = rep_option_int(t->options, "iodepth");
		t->threads = rep_option_int(t->options, "numjobs");
	}
	return 0;
}

/*
 * fio's own JSON (--output-format=json or json+, fio's or raidlab's) is a
 * job result too: "fio version" instead of schema_version, and per job a
 * direction object with bw_bytes (B/s), iops, lat_ns and clat_ns.  A
 * direction that moved no bytes is absent, as in raidlab's results.
 * Percentiles are lat_ns's when fio was asked for them (lat_percentiles),
 * else clat_ns's; both in ns.  The label is the "fio version" string
 * ("fio-3.33"), so the column says whose run it was.
 */
static const char *const rep_fio_pct_keys[REP_NPCT] = {"50.000000", "90.000000", "99.000000",
                                                       "99.900000"};

/* The fio direction @key of job @jobj (path @path) into @fig. */
static int rep_fio_direction(struct rep_load *ld, struct json_object *jobj, const char *path,
                             const char *key, struct rep_figure *fig)
{
	struct json_object *d, *lat, *clat, *pcts = NULL;
	char dp[REP_PATH], lp[REP_PATH];
	double bytes, bw, lat_ns;
	int rc;

	fig->access_ms = NAN;
	for (int k = 0; k < REP_NPCT; k++)
		fig->pct[k] = NAN;
	rep_path(dp, sizeof dp, path, key);
	if ((rc = rep_field(ld, jobj, path, key, REP_W_OBJECT, false, &d)) || !d ||
	    (rc = rep_number(ld, d, dp, "io_bytes", true, &bytes)) || bytes <= 0)
		return rc;
	if ((rc = rep_number(ld, d, dp, "bw_bytes", true, &bw)) ||
	    (rc = rep_number(ld, d, dp, "iops", true, &fig->iops)) ||
	    (rc = rep_field(ld, d, dp, "lat_ns", REP_W_OBJECT, true, &lat)) ||
	    (rc = rep_field(ld, d, dp, "clat_ns", REP_W_OBJECT, false, &clat)))
		return rc;
	rep_path(lp, sizeof lp, dp, "lat_ns");
	if ((rc = rep_number(ld, lat, lp, "mean", true, &lat_ns)))
		return rc;
	fig->mb_s = bw / 1e6;
	fig->lat_mean_us = lat_ns / 1e3;
	if ((rc = rep_range(ld, dp, "bw_bytes", fig->mb_s, 0, true, REP_MB_S_MAX)) ||
	    (rc = rep_range(ld, dp, "iops", fig->iops, 0, true, REP_IOPS_MAX)) ||
	    (rc = rep_range(ld, lp, "mean", fig->lat_mean_us, 0, true, REP_LAT_MAX)))
		return rc;
	if (!json_object_object_get_ex(lat, "percentile", &pcts) && clat) {
		rep_path(lp, sizeof lp, dp, "clat_ns");
		json_object_object_get_ex(clat, "percentile", &pcts);
		lat = clat;
	}
	if (pcts) {
		char pp[REP_PATH];
		rep_path(pp, sizeof pp, lp, "percentile");
		if (!rep_is(pcts, REP_W_OBJECT))
			return rep_fail(ld, "field '%s' must be an object, not %s", pp,
			                rep_type_word(pcts));
		for (int k = 0; k < REP_NPCT; k++) {
			if ((rc = rep_number(ld, pcts, pp, rep_fio_pct_keys[k], false,
			                     &fig->pct[k])))
				return rc;
			fig->pct[k] /= 1e3;
			if ((rc = rep_range(ld, pp, rep_fio_pct_keys[k], fig->pct[k], 0, false,
			                    REP_LAT_MAX)))
				return rc;
		}
	}
	fig->present = true;
	return 0;
}

/* A job option as fio wrote it: the job's own, else the global one; NULL when neither. */
static const char *rep_fio_option(struct json_object *job_opts, struct json_object *global,
                                  const char *key)
{
	struct json_object *v;

	if ((job_opts && json_object_object_get_ex(job_opts, key, &v)) ||
	    (global && json_object_object_get_ex(global, key, &v)))
		return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	return NULL;
}

/* "4096", "4k", "1m" (fio's default base: 1024) as a number, else -1. */
static long long rep_fio_size(const char *s)
{
	static const char units[] = "kmgt";
	const char *u;
	char *end;
	long long n;

	if (!s || *s < '0' || *s > '9')
		return -1;
	n = strtoll(s, &end, 10);
	if (!*end)
		return n;
	u = strchr(units, end[0] | 0x20);
	if (!u || (end[1] && strcasecmp(end + 1, "b") && strcasecmp(end + 1, "ib")))
		return -1;
	for (long i = 0; i <= u - units; i++)
		n *= 1024;
	return n;
}

static int rep_fio_job(struct rep_load *ld, struct json_object *jobj, const char *path,
                       struct json_object *global, struct rep_test *t)
{
	const char *v;
	int rc;

	if ((rc = rep_string(ld, jobj, path, "jobname", true, &t->name)) ||
	    (rc = rep_field(ld, jobj, path, "job options", REP_W_OBJECT, false, &t->options)))
		return rc;
	for (int d = 0; d < REP_NDIR; d++)
		if ((rc = rep_fio_direction(ld, jobj, path, rep_dir_name(d), &t->dir[d])))
			return rc;
	t->pattern = rep_fio_option(t->options, global, "rw");
	if (!t->pattern)
		t->pattern = "read"; /* fio's default */
	t->bs = rep_fio_size(rep_fio_option(t->options, global, "bs"));
	v = rep_fio_option(t->options, global, "iodepth");
	t->iodepth = v ? rep_fio_size(v) : 1;
	v = rep_fio_option(t->options, global, "numjobs");
	t->threads = v ? rep_fio_size(v) : 1;
	return 0;
}

/* What fio ran on: the first job's filename, else its directory, else fio's default files. */
static int rep_fio_target(struct rep_result *res, struct json_object *jobs,
                          struct json_object *global)
{
	struct json_object *job = json_object_array_get_idx(jobs, 0), *opts = NULL, *target;
	const char *spec;

	if (job)
		json_object_object_get_ex(job, "job options", &opts);
	spec = rep_fio_option(opts, global, "filename");
	if (!spec)
		spec = rep_fio_option(opts, global, "directory");
	target = json_object_new_object();
	if (!target ||
	    json_object_object_add(target, "spec",
	                           json_object_new_string(spec ? spec : "fio's files")) ||
	    json_object_object_add(res->root, "target", target)) {
		json_object_put(target);
		return -ENOMEM;
	}
	res->target = target;
	res->spec = json_object_get_string(json_object_object_get(target, "spec"));
	return res->spec ? 0 : -ENOMEM;
}

/* tests[] or jobs[] into res->tests. */
static int rep_entries(struct rep_load *ld, struct rep_result *res, struct json_object *arr,
                       const char *what)
{
	size_t n = json_object_array_length(arr);
	bool best = res->aggregate && !strcmp(res->aggregate, "best");
	char p[REP_PATH];

	if (!n)
		return rep_fail(ld, "field '%s' is empty: there is nothing to compare", what);
	res->tests = calloc(n, sizeof *res->tests);
	if (!res->tests)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		struct rep_test *t = &res->tests[i];
		int rc;

		rep_test_init(t);
		res->ntests = i + 1;
		rep_index(p, sizeof p, what, i);
		if (!rep_is(e, REP_W_OBJECT))
			return rep_fail(ld, "field '%s' must be an object, not %s", p,
			                rep_type_word(e));
		rc = res->kind == REP_KIND_SUITE ? rep_suite_test(ld, e, p, best, t)
		     : ld->fio                   ? rep_fio_job(ld, e, p, ld->global, t)
		                                 : rep_job(ld, e, p, t);
		if (rc)
			return rc;
	}
	return 0;
}

static int rep_suite(struct rep_load *ld, struct rep_result *res, struct json_object *suite)
{
	struct json_object *tests, *scores;
	static const char *const score_keys[3] = {"read", "write", "total"};
	int rc;

	res->kind = REP_KIND_SUITE;
	if ((rc = rep_string(ld, res->root, "", "label", true, &res->label)) ||
	    (rc = rep_string(ld, suite, "suite", "name", true, &res->suite_name)) ||
	    (rc = rep_string(ld, suite, "suite", "title", false, &res->suite_title)) ||
	    (rc = rep_string(ld, suite, "suite", "aggregate", false, &res->aggregate)) ||
	    (rc = rep_field(ld, suite, "suite", "params", REP_W_OBJECT, false, &res->params)) ||
	    (rc = rep_field(ld, res->root, "", "tests", REP_W_ARRAY, true, &tests)) ||
	    (rc = rep_field(ld, res->root, "", "scores", REP_W_OBJECT, false, &scores)))
		return rc;
	for (int k = 0; k < 3; k++) {
		res->score[k] = NAN;
		if (scores &&
		    (rc = rep_number(ld, scores, "scores", score_keys[k], false, &res->score[k])))
			return rc;
	}
	return rep_entries(ld, res, tests, "tests");
}

static int rep_fio(struct rep_load *ld, struct rep_result *res)
{
	struct json_object *jobs;
	int rc;

	res->kind = REP_KIND_JOBS;
	ld->fio = true;
	if ((rc = rep_string(ld, res->root, "", "fio version", true, &res->label)) ||
	    (rc = rep_field(ld, res->root, "", "global options", REP_W_OBJECT, false,
	                    &ld->global)) ||
	    (rc = rep_field(ld, res->root, "", "jobs", REP_W_ARRAY, true, &jobs)) ||
	    (rc = rep_fio_target(res, jobs, ld->global)))
		return rc;
	return rep_entries(ld, res, jobs, "jobs");
}

static int rep_check(struct rep_load *ld, struct rep_result *res)
{
	struct json_object *root = res->root, *v, *jobs, *suite;
	int rc;

	for (int k = 0; k < 3; k++)
		res->score[k] = NAN;
	if (!rep_is(root, REP_W_OBJECT))
		return rep_fail(ld, "not a raidlab result: the document is %s, not an object",
		                rep_type_word(root));
	if (!json_object_object_get_ex(root, "schema_version", NULL) &&
	    json_object_object_get_ex(root, "fio version", NULL))
		return rep_fio(ld, res);
	if ((rc = rep_field(ld, root, "", "schema_version", REP_W_INT, true, &v)))
		return rc;
	if (json_object_get_int64(v) != REP_SCHEMA_VERSION)
		return rep_fail(ld, "schema_version %lld is not supported (raidlab reads %d)",
		                (long long)json_object_get_int64(v), REP_SCHEMA_VERSION);
	if ((rc = rep_field(ld, root, "", "host", REP_W_OBJECT, false, &res->host)) ||
	    (rc = rep_field(ld, root, "", "target", REP_W_OBJECT, true, &res->target)) ||
	    (rc = rep_string(ld, res->target, "target", "spec", true, &res->spec)) ||
	    (rc = rep_field(ld, res->target, "target", "tree", REP_W_OBJECT, false, &res->tree)) ||
	    (rc = rep_field(ld, root, "", "jobs", REP_W_ARRAY, true, &jobs)) ||
	    (rc = rep_field(ld, root, "", "suite", REP_W_OBJECT, false, &suite)))
		return rc;
	if (suite)
		return rep_suite(ld, res, suite);
	res->kind = REP_KIND_JOBS;
	if ((rc = rep_string(ld, root, "", "label", false, &res->label)))
		return rc;
	if (!res->label)
		res->label = res->spec;
	return rep_entries(ld, res, jobs, "jobs");
}

/* Line and column (1-based) of byte @off, for parse errors. */
static void rep_line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* A parsed document (owned from here on) checked against the contract into *@out. */
static int rep_result_from(struct rep_load *ld, struct json_object *root, struct rep_result **out)
{
	struct rep_result *res = calloc(1, sizeof *res);
	int rc;

	if (!res || !(res->path = strdup(ld->name))) {
		free(res);
		json_object_put(root);
		return -ENOMEM;
	}
	res->root = root;
	rc = rep_check(ld, res);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(ld->err, ld->errlen, "%s: out of memory", ld->name);
		rep_result_free(res);
		return rc;
	}
	*out = res;
	return 0;
}

int rep_result_parse(const char *name, const char *text, size_t len, struct rep_result **out,
                     char *err, size_t errlen)
{
	struct rep_load ld = {.name = name, .err = err, .errlen = errlen};
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;
	size_t end;

	*out = NULL;
	if (len > INT32_MAX)
		return rep_fail(&ld, "too large to be a result (%zu bytes)", len);
	tok = json_tokener_new_ex(REP_MAX_DEPTH);
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success) {
		size_t line, col;

		json_object_put(root);
		if (len == 0)
			return rep_fail(&ld, "not JSON: the file is empty");
		if (jerr == json_tokener_continue)
			return rep_fail(&ld, "not JSON: the document ends early (truncated?)");
		if (end > len)
			end = len;
		rep_line_col(text, end, &line, &col);
		return rep_fail(&ld, "not JSON: %s at line %zu, column %zu",
		                jerr == json_tokener_success ? "null document"
		                                             : json_tokener_error_desc(jerr),
		                line, col);
	}
	return rep_result_from(&ld, root, out);
}

/*
 * The file through the strip filter (strip.h) into an incremental parser,
 * 64 KiB at a time: the text is never held whole, and the tree lacks the
 * histograms and series the reports do not read.  -EAGAIN when the text is
 * not a clean document (not JSON, something after it, too large): the
 * caller then reads it whole and parses it as it is, for the exact error.
 */
static int rep_load_stream(struct rep_load *ld, FILE *f, struct rep_result **out)
{
	enum { CHUNK = 65536 };
	char *in = malloc(CHUNK), *filtered = malloc(rep_strip_room(CHUNK));
	struct json_tokener *tok = json_tokener_new_ex(REP_MAX_DEPTH);
	struct json_object *root = NULL;
	struct rep_strip st;
	size_t got, total = 0;
	bool clean = true;
	int rc = -ENOMEM;

	if (!in || !filtered || !tok)
		goto out;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	rep_strip_init(&st);
	while (clean && (got = fread(in, 1, CHUNK, f)) > 0) {
		size_t n = rep_strip_feed(&st, in, got, filtered);
		total += got;
		if (total > REP_MAX_FILE || (root && n)) {
			clean = false; /* too large, or something after the document */
		} else if (n) {
			root = json_tokener_parse_ex(tok, filtered, (int)n);
			if (root ? json_tokener_get_parse_end(tok) < n
			         : json_tokener_get_error(tok) != json_tokener_continue)
				clean = false;
		}
	}
	if (ferror(f)) {
		rc = errno ? -errno : -EIO;
		rep_fail(ld, "cannot read: %s", strerror(-rc));
		json_object_put(root);
		goto out;
	}
	if (!clean || !root || st.broken) {
		json_object_put(root);
		rc = -EAGAIN;
		goto out;
	}
	rc = rep_result_from(ld, root, out);
out:
	json_tokener_free(tok);
	free(filtered);
	free(in);
	return rc;
}

int rep_result_load(const char *path, struct rep_result **out, char *err, size_t errlen)
{
	struct rep_load ld = {.name = path, .err = err, .errlen = errlen};
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f) {
		rc = -errno;
		rep_fail(&ld, "cannot open: %s", strerror(-rc));
		return rc;
	}
	rc = rep_load_stream(&ld, f, out);
	if (rc != -EAGAIN || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return rc == -EAGAIN ? rep_fail(&ld, "not JSON, or something follows the document "
		                                     "(read from a pipe: it cannot be read again "
		                                     "to say where)")
		                     : rc;
	}
	/* not a clean document: parsed whole and unfiltered, for the exact error */
	for (;;) {
		if (len == cap) {
			char *nb;

			if (cap >= REP_MAX_FILE) {
				fclose(f);
				free(buf);
				return rep_fail(&ld, "too large to be a result (over %u MiB)",
				                REP_MAX_FILE >> 20);
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				fclose(f);
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		rc = errno ? -errno : -EIO;
		fclose(f);
		free(buf);
		rep_fail(&ld, "cannot read: %s", strerror(-rc));
		return rc;
	}
	fclose(f);
	rc = rep_result_parse(path, buf, len, out, err, errlen);
	free(buf);
	return rc;
}

void rep_result_free(struct rep_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->ntests; i++)
		rep_curve_free(res->tests[i].curve);
	free(res->tests);
	json_object_put(res->root);
	free(res->path);
	free(res);
}

/* A string owned by @root (kept in its "_merged_strings" array); NULL on failure. */
static const char *rep_root_string(struct json_object *root, const char *text)
{
	struct json_object *arr = NULL, *str;

	if (!json_object_object_get_ex(root, "_merged_strings", &arr)) {
		arr = json_object_new_array();
		if (!arr || json_object_object_add(root, "_merged_strings", arr)) {
			json_object_put(arr);
			return NULL;
		}
	}
	str = json_object_new_string(text);
	if (!str || json_object_array_add(arr, str)) {
		json_object_put(str);
		return NULL;
	}
	return json_object_get_string(str);
}

int rep_result_merge(struct rep_result *into, struct rep_result *from)
{
	struct rep_test *tests;
	struct json_object *keep = NULL;
	char buf[512];

	if (into->kind != REP_KIND_SUITE || from->kind != REP_KIND_SUITE)
		return -EINVAL;
	tests = realloc(into->tests, (into->ntests + from->ntests) * sizeof(*tests));
	if (!tests && into->ntests + from->ntests)
		return -ENOMEM;
	into->tests = tests;
	/* @from's document lives on inside @into's, so its strings stay valid */
	if (!json_object_object_get_ex(into->root, "_merged_documents", &keep)) {
		keep = json_object_new_array();
		if (!keep || json_object_object_add(into->root, "_merged_documents", keep)) {
			json_object_put(keep);
			return -ENOMEM;
		}
	}
	snprintf(buf, sizeof(buf), "%s + %s", into->suite_name, from->suite_name);
	const char *name = rep_root_string(into->root, buf);
	if (!name)
		return -ENOMEM;
	for (size_t i = 0; i < from->ntests; i++) {
		struct rep_test t = from->tests[i];
		snprintf(buf, sizeof(buf), "%s %s", from->suite_name, t.name);
		t.name = rep_root_string(into->root, buf);
		if (!t.name)
			return -ENOMEM; /* the tests copied so far are not counted yet */
		into->tests[into->ntests + i] = t;
	}
	into->ntests += from->ntests;
	into->suite_name = name;
	into->suite_title = name;
	json_object_array_add(keep, from->root);
	from->root = NULL;
	free(from->tests); /* the curves moved with the tests */
	from->tests = NULL;
	from->ntests = 0;
	rep_result_free(from);
	return 0;
}
