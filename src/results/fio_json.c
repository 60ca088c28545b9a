/*
 * fio_json.c - fio-shaped JSON and terse output (see fio_json.h).
 *
 * Mapping (docs/results.md has the table): raidlab times a request from
 * its issue to its completion (fio's lat); on io_uring and libaio that time
 * is split where the submit call returned (slat before, clat after), on
 * other engines clat is the whole of it and slat has no samples, as fio's
 * sync engines.  Percentiles come from the log-linear histogram (0.4 % bucket
 * error), json+ bins are its non-empty buckets keyed by their midpoint in
 * ns.  The bw_* and iops_* sample statistics come from the job's time
 * series, summed into fio's 500 ms sample windows (bwavgtime).
 * iodepth_level puts all I/O at the job's iodepth once the queue has
 * filled (fio_levels): the engine reissues
 * every completed slot at once, so the queue stays full while it runs.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results/fio_json.h"
#include "results/result.h"
#include "workload/control.h"

#define FIO_TERSE_PCTS 20 /* fio's FIO_IO_U_LIST_MAX_LEN: terse always has 20 slots */

static const double fio_pcts[] = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                  80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static void fio_add_i(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void fio_add_d(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(isfinite(v) ? v : 0));
}

int st_fio_error(const struct wl_result *res)
{
	if (res->errors)
		return -res->first_error;
	return res->verify_bad ? EILSEQ : 0; /* fio fails a bad block's read with EILSEQ */
}

static struct st_hist fio_none; /* no samples: what a latency fio does not measure shows */

const struct st_hist *st_fio_slat(const struct wl_dir_result *r)
{
	return r->sc ? &r->sc[0] : &fio_none;
}

const struct st_hist *st_fio_clat(const struct wl_dir_result *r)
{
	return r->sc ? &r->sc[1] : &r->hist;
}

bool st_fio_pcts_slat(const struct wl_job *j)
{
	return j->slat_pcts && !j->disable_slat;
}

bool st_fio_pcts_clat(const struct wl_job *j)
{
	return j->clat_pcts && !j->disable_clat;
}

bool st_fio_pcts_lat(const struct wl_job *j)
{
	return j->lat_pcts && !j->disable_lat;
}

/* fio's latency object: figures, percentiles when @pcts, and with them the json+ @bins */
static struct json_object *fio_lat(const struct st_hist *h, const struct wl_job *job, bool pcts,
                                   bool bins)
{
	struct json_object *o = json_object_new_object();
	bool any = h->count > 0;

	fio_add_i(o, "min", any ? (int64_t)h->min : 0);
	fio_add_i(o, "max", any ? (int64_t)h->max : 0);
	fio_add_d(o, "mean", any ? st_hist_mean(h) : 0);
	fio_add_d(o, "stddev", any ? st_hist_stddev(h) : 0);
	fio_add_i(o, "N", (int64_t)h->count);
	if (pcts && any) {
		struct json_object *p = json_object_new_object();
		char key[32];
		const double *list = job && job->npct ? job->pct_list : fio_pcts;
		size_t n = job && job->npct ? job->npct : sizeof(fio_pcts) / sizeof(fio_pcts[0]);
		for (size_t i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "%f", list[i]);
			fio_add_i(p, key, (int64_t)st_hist_percentile(h, list[i]));
		}
		json_object_object_add(o, "percentile", p);
	}
	if (pcts && bins && any) {
		struct json_object *b = json_object_new_object();
		char key[32];
		for (unsigned i = 0; i < ST_HIST_BUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			uint64_t lo = st_hist_bucket_lo(i), hi = st_hist_bucket_hi(i);
			snprintf(key, sizeof(key), "%llu",
			         (unsigned long long)(lo + (hi - lo - 1) / 2));
			fio_add_i(b, key, (int64_t)h->buckets[i]);
		}
		json_object_object_add(o, "bins", b);
	}
	return o;
}

/*
 * fio's bandwidth and IOPS samples: one per bwavgtime window (500 ms, fio's
 * default), whole windows only, each the rate over it (@per_io: IOPS, else
 * KiB/s) summed from the series' intervals; a run shorter than a window has
 * no sample, as in fio.
 */
uint64_t st_fio_runtime_ms(const struct wl_result *res, int d)
{
	uint64_t us = wl_result_runtime(res, (enum rl_op)d) / 1000;

	return (us + 999) / 1000;
}

uint64_t st_fio_bw_bytes(const struct wl_result *res, int d)
{
	uint64_t ms = st_fio_runtime_ms(res, d);

	return ms ? res->dir[d].bytes * 1000 / ms : 0;
}

double st_fio_iops(const struct wl_result *res, int d)
{
	uint64_t ms = st_fio_runtime_ms(res, d);

	return ms && res->dir[d].bytes ? 1000.0 * (double)res->dir[d].ios / (double)ms : 0;
}

uint64_t st_fio_sample_ns(const struct wl_result *res, int d)
{
	uint64_t rt = wl_result_runtime(res, (enum rl_op)d);
	uint64_t limit = res->job.runtime_ns;

	return limit && rt >= limit ? limit - 1 : rt;
}

void st_fio_samples(const struct st_series *s, uint64_t runtime_ns, bool per_io,
                    struct st_fio_stat *out)
{
	double sum = 0, sumsq = 0;
	size_t k, nwin;

	memset(out, 0, sizeof(*out));
	if (!s->interval_ns || !s->n)
		return;
	k = (size_t)((ST_FIO_SAMPLE_NS + s->interval_ns - 1) / s->interval_ns);
	nwin = s->n / k;
	if (nwin > runtime_ns / (k * s->interval_ns))
		nwin = (size_t)(runtime_ns / (k * s->interval_ns));
	for (size_t w = 0; w < nwin; w++) {
		uint64_t amount = 0;
		for (size_t i = w * k; i < (w + 1) * k; i++)
			amount += per_io ? s->ios[i] : s->bytes[i];
		double v = (double)amount * 1e9 / (double)(k * s->interval_ns);
		if (!per_io)
			v /= 1024;
		if (!out->n || v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
		sum += v;
		sumsq += v * v;
		out->n++;
	}
	if (!out->n)
		return;
	out->mean = sum / (double)out->n;
	double var = out->n > 1 ? (sumsq - sum * sum / (double)out->n) / (double)(out->n - 1) : 0;
	out->dev = var > 0 ? sqrt(var) : 0;
}

bool st_fio_group_sum(const struct st_fio_job *jobs, size_t n, unsigned gid, struct st_fio_group *g)
{
	bool any = false;

	memset(g, 0, sizeof(*g));
	for (int d = 0; d < WL_DIRS; d++)
		g->min_bw[d] = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].groupid != gid)
			continue;
		any = true;
		const struct wl_result *res = jobs[i].res;
		for (int d = 0; d < WL_DIRS; d++) {
			uint64_t rt = st_fio_runtime_ms(res, d);
			uint64_t bytes = res->dir[d].bytes, ios = res->dir[d].ios;
			if (res->job.unified_rw == 1) {
				if (d)
					continue;
				bytes += res->dir[1].bytes + res->dir[2].bytes;
				ios += res->dir[1].ios + res->dir[2].ios;
			}
			if (!ios || !rt)
				continue;
			if (!g->min_run[d] || rt < g->min_run[d])
				g->min_run[d] = rt;
			if (rt > g->max_run[d])
				g->max_run[d] = rt;
			uint64_t bw = bytes * 1000 / rt;
			g->min_bw[d] = bw < g->min_bw[d] ? bw : g->min_bw[d];
			g->max_bw[d] = bw > g->max_bw[d] ? bw : g->max_bw[d];
			g->iobytes[d] += bytes;
		}
	}
	for (int d = 0; d < WL_DIRS; d++)
		if (g->max_run[d])
			g->agg[d] = g->iobytes[d] * 1000 / g->max_run[d];
	return any;
}

double st_fio_per_agg(double mean, uint64_t agg)
{
	double per = 100.0;

	if (agg > 1024) {
		per = (double)(int)mean * 100.0 / ((double)agg / 1024.0);
		per = per > 100 ? 100 : per;
	}
	return per;
}

/* Direction @d of @res; @agg is its group's rate (bytes/s) for bw_agg. */
static struct json_object *fio_dir(const struct wl_result *res, int d, bool plus, uint64_t agg)
{
	const struct wl_dir_result *r = &res->dir[d];
	struct json_object *o = json_object_new_object();
	struct st_hist zero;
	struct st_fio_stat st;

	st_hist_init(&zero);
	fio_add_i(o, "io_bytes", (int64_t)r->bytes);
	fio_add_i(o, "io_kbytes", (int64_t)(r->bytes / 1024));
	/* as fio: from the runtime in whole ms, rounded up (a short run's rate is that coarse) */
	fio_add_i(o, "bw_bytes", (int64_t)st_fio_bw_bytes(res, d));
	fio_add_i(o, "bw", (int64_t)(st_fio_bw_bytes(res, d) / 1024));
	fio_add_d(o, "iops", st_fio_iops(res, d));
	fio_add_i(o, "runtime", r->bytes ? (int64_t)st_fio_runtime_ms(res, d) : 0);
	fio_add_i(o, "total_ios", (int64_t)r->ios);
	fio_add_i(o, "short_ios", 0);
	fio_add_i(o, "drop_ios", 0);
	/* disable_slat / disable_clat / disable_lat: that latency all zero, as fio leaves it */
	const struct wl_job *j = &res->job;
	json_object_object_add(
	    o, "slat_ns",
	    fio_lat(j->disable_slat ? &zero : st_fio_slat(r), j, st_fio_pcts_slat(j), plus));
	json_object_object_add(
	    o, "clat_ns",
	    fio_lat(j->disable_clat ? &zero : st_fio_clat(r), j, st_fio_pcts_clat(j), plus));
	json_object_object_add(
	    o, "lat_ns", fio_lat(j->disable_lat ? &zero : &r->hist, j, st_fio_pcts_lat(j), plus));
	st_fio_samples(&r->series, st_fio_sample_ns(res, d), false, &st);
	fio_add_i(o, "bw_min", (int64_t)st.min);
	fio_add_i(o, "bw_max", (int64_t)st.max);
	/* fio: the samples' mean as a share of the group's rate; 0 without samples */
	fio_add_d(o, "bw_agg", st.n ? st_fio_per_agg(st.mean, agg) : 0);
	fio_add_d(o, "bw_mean", st.mean);
	fio_add_d(o, "bw_dev", st.dev);
	fio_add_i(o, "bw_samples", (int64_t)st.n);
	st_fio_samples(&r->series, st_fio_sample_ns(res, d), true, &st);
	fio_add_i(o, "iops_min", (int64_t)st.min);
	fio_add_i(o, "iops_max", (int64_t)st.max);
	fio_add_d(o, "iops_mean", st.mean);
	fio_add_d(o, "iops_stddev", st.dev);
	fio_add_i(o, "iops_samples", (int64_t)st.n);
	if (r->prio_hist && d < RL_OP_TRIM) {
		/* fio's per-priority completion latency, one entry per priority used */
		struct json_object *prios = json_object_new_array();
		for (int k = 0; k < 2; k++) {
			unsigned v = k ? wl_job_cmdprio(&res->job, d) : wl_job_ioprio(&res->job);
			if (!r->prio_hist[k].count)
				continue;
			struct json_object *e = json_object_new_object();
			fio_add_i(e, "prioclass", v >> 13);
			fio_add_i(e, "prio", v & 7);
			/* lat_percentiles: the priorities' figures are lat's, as fio */
			json_object_object_add(e, st_fio_pcts_lat(j) ? "lat_ns" : "clat_ns",
			                       fio_lat(&r->prio_hist[k], j,
			                               st_fio_pcts_lat(j) || st_fio_pcts_clat(j),
			                               plus));
			json_object_array_add(prios, e);
		}
		json_object_object_add(o, "prios", prios);
	}
	return o;
}

/*
 * unified_rw_reporting: fio's "mixed" direction, read, write and trim summed
 * (counts, latencies, the cmdprio priorities' latencies and the
 * per-interval series for the sample figures).
 */
struct wl_result *st_fio_mixed_new(const struct wl_result *res)
{
	struct wl_result *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->job = res->job;
	m->runtime_ns = res->runtime_ns;
	m->verify_ns = res->verify_ns;
	m->cpu_user_s = res->cpu_user_s;
	m->cpu_sys_s = res->cpu_sys_s;
	m->cpu_runtime_ns = res->cpu_runtime_ns;
	m->cpu_own = res->cpu_own;
	struct wl_dir_result *all = &m->dir[0];
	st_hist_init(&all->hist);
	size_t n = 0;
	for (int d = 0; d < WL_DIRS; d++)
		if (res->dir[d].series.n > n)
			n = res->dir[d].series.n;
	all->series.bytes = calloc(n ? n : 1, sizeof(uint64_t));
	all->series.ios = calloc(n ? n : 1, sizeof(uint64_t));
	for (int d = 0; d < WL_DIRS && all->series.bytes && all->series.ios; d++) {
		const struct wl_dir_result *r = &res->dir[d];
		all->ios += r->ios;
		all->bytes += r->bytes;
		st_hist_merge(&all->hist, &r->hist);
		if (r->sc && r->hist.count) {
			if (!all->sc) {
				all->sc = calloc(2, sizeof(struct st_hist));
				if (all->sc) {
					st_hist_init(&all->sc[0]);
					st_hist_init(&all->sc[1]);
				}
			}
			if (all->sc) {
				st_hist_merge(&all->sc[0], &r->sc[0]);
				st_hist_merge(&all->sc[1], &r->sc[1]);
			}
		}
		if (r->prio_hist && d < RL_OP_TRIM) { /* cmdprio: the priorities' figures too */
			if (!all->prio_hist) {
				all->prio_hist = calloc(2, sizeof(struct st_hist));
				if (all->prio_hist) {
					st_hist_init(&all->prio_hist[0]);
					st_hist_init(&all->prio_hist[1]);
				}
			}
			for (int k = 0; all->prio_hist && k < 2; k++)
				st_hist_merge(&all->prio_hist[k], &r->prio_hist[k]);
		}
		if (r->series.interval_ns)
			all->series.interval_ns = r->series.interval_ns;
		for (size_t i = 0; i < r->series.n; i++) {
			all->series.bytes[i] += r->series.bytes[i];
			all->series.ios[i] += r->series.ios[i];
		}
	}
	all->series.n = all->series.bytes && all->series.ios ? n : 0;
	return m;
}

void st_fio_mixed_free(struct wl_result *m)
{
	if (!m)
		return;
	free(m->dir[0].series.bytes);
	free(m->dir[0].series.ios);
	free(m->dir[0].sc);
	free(m->dir[0].prio_hist);
	free(m);
}

/*
 * unified_rw_reporting: fio's "mixed" direction, read, write and trim summed
 * (counts, latencies and the per-interval series for the sample figures).
 */
static struct json_object *fio_mixed(const struct wl_result *res, bool plus, uint64_t agg)
{
	struct wl_result *m = st_fio_mixed_new(res);
	if (!m)
		return json_object_new_object();
	struct json_object *o = fio_dir(m, RL_OP_READ, plus, agg);
	st_fio_mixed_free(m);
	return o;
}

/*
 * fio's latency buckets: the share (percent) of all I/O whose latency lies
 * in (previous limit, limit]: 10 steps in ns, 10 in us, 11 in ms and the
 * rest (>=2000 ms), in that order in @out.  A histogram bucket counts where
 * its low end lies.
 */
static const uint64_t fio_lat_steps[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};

void st_fio_lat_shares(const struct wl_result *res, double out[ST_FIO_LAT_SHARES])
{
	static const uint64_t scale[3] = {1, 1000, 1000000};
	struct st_hist all;
	uint64_t cum = 0, cum_prev = 0;
	unsigned bi = 0;
	size_t k = 0;

	st_hist_init(&all);
	for (int d = 0; d < WL_DIRS && !res->job.disable_clat; d++)
		st_hist_merge(&all, st_fio_clat(&res->dir[d])); /* clat's; disable_clat: all 0 */
	for (int g = 0; g < 3; g++)
		for (size_t i = 0; i < (g == 2 ? 11u : 10u); i++, k++) {
			uint64_t limit = fio_lat_steps[i] * scale[g];
			while (bi < ST_HIST_BUCKETS && st_hist_bucket_lo(bi) < limit)
				cum += all.buckets[bi++];
			out[k] =
			    all.count ? 100.0 * (double)(cum - cum_prev) / (double)all.count : 0;
			cum_prev = cum;
		}
	out[k] = all.count ? 100.0 * (double)(all.count - cum) / (double)all.count : 0;
}

static void fio_lat_buckets(struct json_object *job, const struct wl_result *res)
{
	static const char *const names[3] = {"latency_ns", "latency_us", "latency_ms"};
	double sh[ST_FIO_LAT_SHARES];
	char key[16];
	size_t k = 0;

	st_fio_lat_shares(res, sh);
	for (int g = 0; g < 3; g++) {
		struct json_object *o = json_object_new_object();
		for (size_t i = 0; i < (g == 2 ? 11u : 10u); i++, k++) {
			snprintf(key, sizeof(key), "%llu", (unsigned long long)fio_lat_steps[i]);
			fio_add_d(o, key, sh[k]);
		}
		if (g == 2)
			fio_add_d(o, ">=2000", sh[k]);
		json_object_object_add(job, names[g], o);
	}
}

/*
 * fio's I/O depth shares: iodepth_level has 1, 2, 4 ... 32 and >=64 (a
 * depth counts under the highest key not above it); submit and complete
 * have 0, 4, 8 ... 64 and >=64 (under the lowest key not below it: 1 to 4
 * under "4").  Levels are at the job's depth (see the file comment); submit
 * and complete count the calls that submitted or reaped so many requests
 * where the engine's calls are counted (io_uring, libaio), else at the depth.
 */
#define FIO_DEPTHS 7
static const char *const fio_level_keys[FIO_DEPTHS] = {"1", "2", "4", "8", "16", "32", ">=64"};
static const char *const fio_submit_keys[FIO_DEPTHS] = {"0", "4", "8", "16", "32", "64", ">=64"};

size_t st_fio_depth_slot(unsigned depth, bool submit)
{
	size_t k = 0;
	if (submit) {
		while (k < 5 && depth > (4u << k))
			k++;
		return depth > 64 ? 6 : k + 1;
	}
	while (k < 5 && depth >= (2u << k))
		k++;
	return depth >= 64 ? 6 : k;
}

double st_fio_cpu_pct(const struct wl_result *res, bool sys)
{
	uint64_t rt = res->cpu_runtime_ns ? res->cpu_runtime_ns : res->runtime_ns;

	return rt ? 100.0 * (sys ? res->cpu_sys_s : res->cpu_user_s) / (rt / 1e9) : 0;
}

/* The depth a job's requests ran at: a synchronous engine has one at a time. */
unsigned st_fio_job_depth(const struct wl_result *res)
{
	return res->job.engine == WL_ENGINE_PSYNC ? 1 : res->job.iodepth;
}

/* a share as fio prints it: one above 0 but below 0.1 percent shows as 0.1 */
static double fio_share(uint64_t count, uint64_t total)
{
	double pct = total ? 100.0 * (double)count / (double)total : 0;
	return count && pct < 0.1 ? 0.1 : pct;
}

double st_fio_batch_pct(const uint64_t dist[7], unsigned depth, size_t i)
{
	uint64_t sum = 0;

	for (size_t k = 0; dist && k < FIO_DEPTHS; k++)
		sum += dist[k];
	if (!sum) /* an engine whose calls are not counted: all at the depth */
		return i == st_fio_depth_slot(depth, true) ? 100.0 : 0.0;
	return fio_share(dist[i], sum); /* fio's stat_calc_dist: at least 0.1 when any */
}

/* iodepth_submit / iodepth_complete from @dist */
static struct json_object *fio_batches(unsigned depth, const uint64_t *dist)
{
	struct json_object *o = json_object_new_object();
	for (size_t i = 0; i < FIO_DEPTHS; i++)
		fio_add_d(o, fio_submit_keys[i], st_fio_batch_pct(dist, depth, i));
	return o;
}

/*
 * iodepth_level as fio counts it: each request it issues (its fsyncs too)
 * at the depth it was issued at, as a share of the reads, writes and
 * trims.  The queue fills one request at a time, so the first @depth - 1
 * go out at depths 1, 2, ... and the rest at @depth.
 */
static struct json_object *fio_levels(unsigned depth, uint64_t issued, uint64_t ios)
{
	struct json_object *o = json_object_new_object();
	uint64_t count[FIO_DEPTHS] = {0};
	uint64_t ramp = depth > 1 ? depth - 1 : 0;

	if (ramp > issued)
		ramp = issued;
	for (uint64_t d = 1; d <= ramp; d++)
		count[st_fio_depth_slot((unsigned)d, false)]++;
	count[st_fio_depth_slot(depth, false)] += issued - ramp;
	for (size_t i = 0; i < FIO_DEPTHS; i++)
		fio_add_d(o, fio_level_keys[i], fio_share(count[i], ios));
	return o;
}

/* fio's elapsed: whole seconds since the process started, rounded up (at least @rt_s). */
static int64_t fio_elapsed_s(double rt_s)
{
	char buf[1024];
	unsigned long long start = 0;
	struct timespec now;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* the fields after the command's name */
	/* field 22, starttime in clock ticks since boot: the 20th after ")" */
	for (int k = 0; p && k < 20; k++)
		p = strchr(p + 1, ' ');
	long hz = sysconf(_SC_CLK_TCK);
	if (!p || sscanf(p, " %llu", &start) != 1 || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now))
		return (int64_t)ceil(rt_s);
	double up = (double)now.tv_sec + now.tv_nsec / 1e9 - (double)start / (double)hz;
	return (int64_t)ceil(up > rt_s ? up : rt_s);
}

/* fio's "steadystate" block: the criterion, whether it held, the window's samples. */
static struct json_object *fio_ss(const struct wl_result *res)
{
	const struct wl_job *j = &res->job;
	const struct wl_ss_report *r = res->ss;
	struct json_object *o = json_object_new_object();
	struct json_object *data = json_object_new_object();
	static const char *const kinds[] = {"iops", "iops", "bw", "lat"};
	char buf[64];
	double bw_sum = 0, iops_sum = 0, lat_sum = 0;

	snprintf(buf, sizeof(buf), "%s%s:%f%s", kinds[j->ss_kind <= WL_SS_LAT ? j->ss_kind : 0],
	         j->ss_slope ? "_slope" : "", j->ss_limit, j->ss_pct ? "%" : "");
	json_object_object_add(o, "ss", json_object_new_string(buf));
	fio_add_i(o, "duration", (int64_t)(j->ss_dur_ns / 1000000000ull));
	fio_add_i(o, "attained", r->attained);
	snprintf(buf, sizeof(buf), "%f%s", r->criterion, j->ss_pct ? "%" : "");
	json_object_object_add(o, "criterion", json_object_new_string(buf));
	fio_add_d(o, "max_deviation", r->deviation);
	fio_add_d(o, "slope", r->slope);
	struct json_object *iops = json_object_new_array(), *bw = json_object_new_array();
	struct json_object *lat = json_object_new_array();
	for (unsigned i = 0; i < r->n; i++) {
		json_object_array_add(iops, json_object_new_int64((int64_t)r->iops[i]));
		json_object_array_add(bw, json_object_new_int64((int64_t)r->bw[i]));
		json_object_array_add(lat, json_object_new_int64((int64_t)r->lat[i]));
		iops_sum += (double)r->iops[i];
		bw_sum += (double)r->bw[i];
		lat_sum += (double)r->lat[i];
	}
	fio_add_i(data, "bw_mean", r->n ? (int64_t)(bw_sum / r->n) : 0);
	fio_add_i(data, "iops_mean", r->n ? (int64_t)(iops_sum / r->n) : 0);
	if (j->ss_kind == WL_SS_LAT) {
		fio_add_i(data, "lat_mean", r->n ? (int64_t)(lat_sum / r->n) : 0);
		json_object_object_add(data, "lat_ns", lat);
	} else {
		json_object_put(lat);
	}
	json_object_object_add(data, "iops", iops);
	json_object_object_add(data, "bw", bw);
	json_object_object_add(o, "data", data);
	return o;
}

/* fio's "job options" and "global options": the options as given (wl_job.given), or NULL */
static struct json_object *fio_given(const char *given)
{
	struct json_object *o = NULL;
	char name[128], value[WL_GIVEN_MAX];
	size_t pos = 0;

	while (given && wl_given_next(given, &pos, name, sizeof(name), value, sizeof(value))) {
		if (!o)
			o = json_object_new_object();
		json_object_object_add(o, name, json_object_new_string(value));
	}
	return o;
}

static struct json_object *fio_job(const struct st_fio_job *fj, bool plus,
                                   const struct st_fio_group *g)
{
	const struct wl_result *res = fj->res;
	struct json_object *o = json_object_new_object();
	struct json_object *opts = fio_given(res->job.given);
	double rt_s = res->runtime_ns / 1e9;

	json_object_object_add(o, "jobname", json_object_new_string(res->job.name));
	fio_add_i(o, "groupid", fj->groupid);
	fio_add_i(o, "error", st_fio_error(res));
	/* fio: seconds since the program started, rounded up; the eta of ended jobs is
	   INT_MAX within the first 3 s (fio estimates none before), 0 after */
	int64_t elapsed = fio_elapsed_s(rt_s);
	fio_add_i(o, "eta", elapsed < 3 ? INT_MAX : 0);
	fio_add_i(o, "elapsed", elapsed);
	if (opts) /* fio leaves it out when the job's own section gave nothing */
		json_object_object_add(o, "job options", opts);
	if (res->job.unified_rw)
		/* fio sets the mixed direction against the group's read rate (with
		   unified_rw_reporting=both that caps it at 100 on any mix) */
		json_object_object_add(o, "mixed", fio_mixed(res, plus, g->agg[RL_OP_READ]));
	if (res->job.unified_rw != 1) { /* mixed alone: fio writes no directions, no sync */
		json_object_object_add(o, "read",
		                       fio_dir(res, RL_OP_READ, plus, g->agg[RL_OP_READ]));
		json_object_object_add(o, "write",
		                       fio_dir(res, RL_OP_WRITE, plus, g->agg[RL_OP_WRITE]));
		json_object_object_add(o, "trim",
		                       fio_dir(res, RL_OP_TRIM, plus, g->agg[RL_OP_TRIM]));
		/* fio: fsync= 's count, the time of every fsync= and fdatasync= sync */
		struct json_object *sync = json_object_new_object();
		fio_add_i(sync, "total_ios", (int64_t)res->fsyncs);
		json_object_object_add(
		    sync, "lat_ns",
		    fio_lat(&res->sync_hist, &res->job, st_fio_pcts_clat(&res->job), plus));
		json_object_object_add(o, "sync", sync);
	}
	fio_add_i(o, "job_runtime", (int64_t)((res->runtime_ns + res->verify_ns) / 1000000));
	fio_add_d(o, "usr_cpu", st_fio_cpu_pct(res, false));
	fio_add_d(o, "sys_cpu", st_fio_cpu_pct(res, true));
	fio_add_i(o, "ctx", (int64_t)res->ctx);
	fio_add_i(o, "majf", (int64_t)res->majf);
	fio_add_i(o, "minf", (int64_t)res->minf);
	unsigned depth = st_fio_job_depth(res);
	uint64_t ios =
	    res->dir[RL_OP_READ].ios + res->dir[RL_OP_WRITE].ios + res->dir[RL_OP_TRIM].ios;
	json_object_object_add(o, "iodepth_level", fio_levels(depth, ios + res->fsyncs, ios));
	json_object_object_add(o, "iodepth_submit", fio_batches(depth, res->batch_submit));
	json_object_object_add(o, "iodepth_complete", fio_batches(depth, res->batch_complete));
	fio_lat_buckets(o, res);
	if (res->job.coe) { /* fio adds these with continue_on_error */
		fio_add_i(o, "total_err", (int64_t)(res->errors + res->cont_errors));
		fio_add_i(o, "first_error", res->first_error ? -res->first_error : 0);
	}
	if (res->job.lat_target_ns) {
		/* fio: target in ns, window in us */
		fio_add_i(o, "latency_depth", res->lat_depth);
		fio_add_i(o, "latency_target", (int64_t)res->job.lat_target_ns);
		fio_add_i(o, "latency_target_ns", (int64_t)res->job.lat_target_ns);
		fio_add_d(o, "latency_percentile", res->job.lat_pct);
		fio_add_i(o, "latency_window", (int64_t)(res->job.lat_window_ns / 1000));
		fio_add_i(o, "latency_window_us", (int64_t)(res->job.lat_window_ns / 1000));
	} else {
		fio_add_i(o, "latency_depth", depth);
		fio_add_i(o, "latency_target", 0);
		fio_add_d(o, "latency_percentile", 100.0);
		fio_add_i(o, "latency_window", 0);
	}
	if (res->job.ss_dur_ns && res->ss)
		json_object_object_add(o, "steadystate", fio_ss(res));
	return o;
}

struct json_object *st_fio_json(const struct st_fio_job *jobs, size_t n, bool plus,
                                const struct st_disk_util *du, const char *global_given)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	struct timespec ts;
	char tbuf[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	time_t now = ts.tv_sec;
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
	json_object_object_add(doc, "fio version", json_object_new_string("raidlab-" RL_VERSION));
	fio_add_i(doc, "timestamp", (int64_t)now);
	fio_add_i(doc, "timestamp_ms", (int64_t)now * 1000 + ts.tv_nsec / 1000000);
	json_object_object_add(doc, "time", json_object_new_string(tbuf));
	struct json_object *global = fio_given(global_given);
	if (global) /* as fio: only when options were given outside the jobs */
		json_object_object_add(doc, "global options", global);
	for (size_t i = 0; i < n; i++) {
		struct st_fio_group g;
		st_fio_group_sum(jobs, n, jobs[i].groupid, &g);
		json_object_array_add(arr, fio_job(&jobs[i], plus, &g));
	}
	json_object_object_add(doc, "jobs", arr);
	json_object_object_add(doc, "disk_util", st_disk_util_json(du));
	return doc;
}

/* Terse v3 min;max;mean;stddev in usec of @h, or zeros when off or without samples. */
static void fio_terse_lat(FILE *f, const struct st_hist *h, bool off)
{
	bool on = h->count && !off;
	fprintf(f, ";%llu;%llu;%f;%f", on ? (unsigned long long)(h->min / 1000) : 0ull,
	        on ? (unsigned long long)(h->max / 1000) : 0ull, on ? st_hist_mean(h) / 1000 : 0.0,
	        on ? st_hist_stddev(h) / 1000 : 0.0);
}

static int fio_cmp_pct(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x > y ? 1 : x < y ? -1 : 0;
}

/*
 * Terse v3 direction: bytes KiB, bw KiB/s, iops, runtime ms, slat, clat, 20
 * percentile slots (lat's with lat_percentiles, else clat's, else none:
 * every slot "0%=0"), lat, bw stats.
 */
static void fio_terse_dir(FILE *f, const struct wl_result *res, int d)
{
	const struct wl_dir_result *r = &res->dir[d];
	const struct wl_job *j = &res->job;
	const struct st_hist *ph = st_fio_pcts_lat(j)    ? &r->hist
	                           : st_fio_pcts_clat(j) ? st_fio_clat(r)
	                                                 : NULL;
	double list[FIO_TERSE_PCTS];
	size_t n = 0;
	struct st_fio_stat st;

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(r->bytes / 1024),
	        (unsigned long long)(st_fio_bw_bytes(res, d) / 1024),
	        (unsigned long long)st_fio_iops(res, d),
	        (unsigned long long)(r->ios ? st_fio_runtime_ms(res, d) : 0));
	fio_terse_lat(f, st_fio_slat(r), j->disable_slat);
	fio_terse_lat(f, st_fio_clat(r), j->disable_clat);
	if (ph) {
		n = j->npct ? j->npct : sizeof(fio_pcts) / sizeof(fio_pcts[0]);
		n = n > FIO_TERSE_PCTS ? FIO_TERSE_PCTS : n;
		memcpy(list, j->npct ? j->pct_list : fio_pcts, n * sizeof(double));
		qsort(list, n, sizeof(double), fio_cmp_pct); /* fio sorts its list */
	}
	for (size_t i = 0; i < FIO_TERSE_PCTS; i++)
		if (i < n)
			fprintf(f, ";%f%%=%llu", list[i],
			        ph->count
			            ? (unsigned long long)(st_hist_percentile(ph, list[i]) / 1000)
			            : 0ull);
		else
			fputs(";0%=0", f); /* fio's empty slots */
	fio_terse_lat(f, &r->hist, j->disable_lat);
	st_fio_samples(&r->series, st_fio_sample_ns(res, d), false, &st);
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)st.min, (unsigned long long)st.max,
	        r->ios ? 100.0 : 0.0, st.mean, st.dev);
}

void st_fio_terse(FILE *f, const struct st_fio_job *job, const struct st_disk_util *du)
{
	double sh[ST_FIO_LAT_SHARES];
	const struct wl_result *res = job->res;

	fprintf(f, "3;raidlab-%s;%s;%u;%d", RL_VERSION, res->job.name, job->groupid,
	        st_fio_error(res));
	fio_terse_dir(f, res, RL_OP_READ);
	fio_terse_dir(f, res, RL_OP_WRITE);
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", st_fio_cpu_pct(res, false),
	        st_fio_cpu_pct(res, true), (unsigned long long)res->ctx,
	        (unsigned long long)res->majf, (unsigned long long)res->minf);
	size_t at = st_fio_depth_slot(st_fio_job_depth(res), false);
	for (size_t i = 0; i < FIO_DEPTHS; i++)
		fprintf(f, ";%.1f%%", i == at ? 100.0 : 0.0);
	st_fio_lat_shares(res, sh);
	for (size_t i = 10; i < ST_FIO_LAT_SHARES; i++) /* us and ms: terse has no ns buckets */
		fprintf(f, ";%.2f%%", sh[i]);
	st_disk_util_terse(f, du);
	fputc('\n', f);
}
