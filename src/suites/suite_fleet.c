/*
 * suite_fleet.c - a suite on every rank of an MPI job at once
 * (`mpirun -n N raidlab run cdm --target 'file(/scratch/rl.$rank)'`).
 *
 * Every rank runs the same suite on its own target, in lockstep
 * (fleet_step, suites/fleet.h): before each job the ranks agree they are
 * at the same job, then meet at a barrier and start together, and with
 * --fleet-stonewall the first to finish stops the others.  After each
 * measured pass every rank hands its result to rank 0, which makes the
 * pass's figure the aggregate over the ranks:
 *   - MB/s and IOPS are the sums of the ranks' own figures (each its bytes
 *     and I/Os over its own runtime), as the fleet of `raidlab run` sums;
 *   - latencies (mean, p99, the percentiles of the pass object) come from
 *     the ranks' histograms merged bucket by bucket, never averaged;
 *   - the pass object lists each rank's own pass (host, target, whether a
 *     stonewall stopped it).
 * The suite's rule then makes the test's figure from the aggregated passes
 * (CrystalDiskMark's best pass is the fleet's best pass: passes of
 * different ranks that did not run at the same time are never added), and
 * each direction gets a "fleet" object: each rank's figure by the same
 * rule over its own passes, and the slowest and fastest rank by MB/s.
 * What a suite derives from its figures (AS SSD's score and access time)
 * comes from the aggregate the same way.  Warm-up passes and the filling
 * of the test area run in lockstep but are not gathered.
 *
 * Curves (HD Tune's transfer rate, the steady suite's write over LBA):
 * each position is one job on every rank at once (a step and a barrier per
 * zone), and the fleet's point there is the sum of the ranks' MB/s, its
 * latency the merged histograms' mean (suite_fleet_zone).  Rank 0 keeps
 * each rank's curve; min, max and average are those of the fleet's curve,
 * and every position names its slowest and fastest rank.
 *
 * Runs whose length is decided on the figures (steady's rounds until a
 * steady state): each round is gathered like a pass (suite_fleet_gather),
 * rank 0 applies the rule to the aggregate and hands its decision to every
 * rank (suite_fleet_share), so all ranks run the same rounds and stop
 * together.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "suites/fleet.h"
#include "suites/suite.h"

int suite_fleet_run_job(struct suite_run *r, struct wl_job *j, struct wl_run_opts *opts,
                        struct wl_result *res)
{
	struct fleet *f = r->fleet;
	int rc = fleet_step(f, FLEET_STEP_RUN, j->name, NULL, NULL, r->msg, sizeof(r->msg));

	if (rc)
		return rc;
	if ((rc = fleet_offsets(f, j, 1, r->msg, sizeof(r->msg))))
		return rc;
	/* the wave is the step's number: it never repeats, also over several targets,
	   so a late stonewall of an earlier job cannot stop this one */
	if (fleet_wave_begin(f, f->step, opts)) {
		snprintf(r->msg, sizeof(r->msg), "rank %d: the ranks could not meet before '%s'",
		         f->rank, j->name);
		return -EIO;
	}
	rc = wl_run_job(r->t, j, opts, res, r->msg, sizeof(r->msg));
	/* a stonewall's stop is the fleet's, not the user's: the suite goes on */
	if (fleet_wave_end(f, opts) && !f->signalled)
		wl_run_clear_stop();
	return rc;
}

/* Rank 0 gathers the figures; the other ranks' documents are not written. */
bool suite_fleet_reports(const struct suite_run *r)
{
	return r->fleet && r->fleet->rank == 0;
}

int suite_fleet_meas_start(struct suite_run *r, struct suite_meas *m, unsigned passes)
{
	if (!suite_fleet_reports(r))
		return 0;
	(void)passes; /* (suite_measure caps them at SUITE_PASSES_MAX) */
	m->rank_fig = calloc((size_t)SUITE_VIEWS * (size_t)r->fleet->size * SUITE_PASSES_MAX,
	                     sizeof(*m->rank_fig));
	return m->rank_fig ? 0 : -ENOMEM;
}

/* Rank @rank's figure of pass @pass in view @v. */
static struct suite_figure *suite_fleet_fig(const struct suite_run *r, const struct suite_meas *m,
                                            int v, int rank, unsigned pass)
{
	return &m->rank_fig[((size_t)v * (size_t)r->fleet->size + (size_t)rank) * SUITE_PASSES_MAX +
	                    pass];
}

/* One rank's pass object: its own direction figures, who it is. */
static struct json_object *suite_fleet_rank_pass(const struct fleet_rank *fr, int v)
{
	struct json_object *o = suite_pass_json(&fr->res, (enum suite_dir)v);

	json_object_object_del(o, "series"); /* not gathered */
	json_object_object_add(o, "rank", json_object_new_int(fr->rank));
	json_object_object_add(o, "host", json_object_new_string(fr->host));
	json_object_object_add(o, "target", json_object_new_string(fr->spec));
	json_object_object_add(o, "stopped_by_stonewall", json_object_new_boolean(fr->stopped));
	return o;
}

/* View @v of the gathered pass: each rank's figure into @ranks (fleet size), the aggregate @agg. */
static void suite_fleet_figs(struct suite_run *r, int v, struct suite_figure *ranks,
                             struct suite_figure *agg)
{
	const struct fleet_job *j = &r->fleet->jobs[0];
	double mb_s = 0, iops = 0;

	for (int k = 0; k < r->fleet->size; k++) {
		suite_figure_of(&j->ranks[k].res, (enum suite_dir)v, &ranks[k]);
		mb_s += ranks[k].mb_s;
		iops += ranks[k].iops;
	}
	suite_figure_of(&j->merged, (enum suite_dir)v, agg); /* latency: merged histograms */
	agg->mb_s = mb_s;
	agg->iops = iops;
}

/* As suite_fleet_figs, and the aggregate pass object (each rank's pass in "ranks"). */
static struct json_object *suite_fleet_view(struct suite_run *r, int v, struct suite_figure *ranks,
                                            struct suite_figure *agg)
{
	const struct fleet_job *j = &r->fleet->jobs[0];
	struct json_object *arr = json_object_new_array(), *o;

	suite_fleet_figs(r, v, ranks, agg);
	for (int k = 0; k < r->fleet->size; k++)
		json_object_array_add(arr, suite_fleet_rank_pass(&j->ranks[k], v));
	o = suite_pass_json(&j->merged, (enum suite_dir)v);
	json_object_object_del(o, "series");
	json_object_object_add(o, "mb_s", json_object_new_double(agg->mb_s));
	json_object_object_add(o, "mib_s", json_object_new_double(agg->mb_s * 1e6 / 1048576.0));
	json_object_object_add(o, "iops", json_object_new_double(agg->iops));
	json_object_object_add(o, "ranks_stopped_by_stonewall",
	                       json_object_new_int((int)j->nstopped));
	json_object_object_add(o, "ranks", arr);
	return o;
}

/* The ranks with the lowest and highest MB/s of @n figures. */
static void suite_fleet_extremes(const struct suite_figure *f, int n, int *slow, int *fast)
{
	*slow = *fast = 0;
	for (int k = 1; k < n; k++) {
		if (f[k].mb_s < f[*slow].mb_s)
			*slow = k;
		if (f[k].mb_s > f[*fast].mb_s)
			*fast = k;
	}
}

int suite_fleet_pass(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                     struct suite_meas *m)
{
	int rc =
	    fleet_step(r->fleet, FLEET_STEP_RESULT, job->name, res, NULL, r->msg, sizeof(r->msg));

	if (rc || !suite_fleet_reports(r))
		return rc;
	struct suite_figure *ranks = calloc((size_t)r->fleet->size, sizeof(*ranks));
	if (!ranks)
		return -ENOMEM;
	for (int v = 0; v < SUITE_VIEWS; v++) {
		if (!(m->views & SUITE_VIEW(v)))
			continue;
		json_object_array_add(m->passes[v],
		                      suite_fleet_view(r, v, ranks, &m->fig[v][m->n]));
		for (int k = 0; k < r->fleet->size; k++)
			*suite_fleet_fig(r, m, v, k, m->n) = ranks[k];
	}
	free(ranks);
	return 0;
}

int suite_fleet_gather(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                       enum suite_dir v, struct suite_figure *agg, struct suite_figure *ranks,
                       struct json_object **pass, uint64_t *runtime_ns)
{
	int rc =
	    fleet_step(r->fleet, FLEET_STEP_RESULT, job->name, res, NULL, r->msg, sizeof(r->msg));
	int slow, fast;

	if (rc || !suite_fleet_reports(r))
		return rc;
	*pass = suite_fleet_view(r, (int)v, ranks, agg);
	*runtime_ns = r->fleet->jobs[0].merged.runtime_ns;
	suite_fleet_extremes(ranks, r->fleet->size, &slow, &fast);
	json_object_object_add(*pass, "slowest_rank", json_object_new_int(slow));
	json_object_object_add(*pass, "fastest_rank", json_object_new_int(fast));
	return 0;
}

int suite_fleet_share(struct suite_run *r, const char *name, void *buf, size_t len)
{
	return fleet_share(r->fleet, name, buf, len, r->msg, sizeof(r->msg));
}

/* Rank @k's identity (rank, host, target) added to @o. */
static void suite_fleet_who(const struct suite_run *r, int k, struct json_object *o)
{
	const struct fleet_rank *fr = &r->fleet->jobs[0].ranks[k];

	json_object_object_add(o, "rank", json_object_new_int(k));
	json_object_object_add(o, "host", json_object_new_string(fr->host));
	json_object_object_add(o, "target", json_object_new_string(fr->spec));
}

struct json_object *suite_fleet_ranks_json(const struct suite_run *r,
                                           const struct suite_figure *ranks)
{
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array();
	int slow, fast;

	for (int k = 0; k < r->fleet->size; k++) {
		struct json_object *fo = suite_figure_json(&ranks[k]);
		suite_fleet_who(r, k, fo);
		json_object_array_add(arr, fo);
	}
	suite_fleet_extremes(ranks, r->fleet->size, &slow, &fast);
	json_object_object_add(o, "slowest_rank", json_object_new_int(slow));
	json_object_object_add(o, "fastest_rank", json_object_new_int(fast));
	json_object_object_add(o, "ranks", arr);
	return o;
}

int suite_fleet_end(struct suite_run *r, int rc)
{
	struct fleet *f = r->fleet;
	char msg[sizeof(r->msg)];

	if (rc) { /* the others hear why (a stop that came from them: nothing more is said) */
		fleet_step(f, FLEET_STEP_FAIL, NULL, NULL, r->msg, msg, sizeof(msg));
		return rc;
	}
	rc = fleet_step(f, FLEET_STEP_END, NULL, NULL, NULL, r->msg, sizeof(r->msg));
	if (rc || f->rank > 0)
		return rc;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "ranks", json_object_new_int(f->size));
	json_object_object_add(o, "stonewall", json_object_new_boolean(f->stonewall));
	json_object_object_add(o, "offset_per_rank",
	                       json_object_new_int64((int64_t)f->offset_per_rank));
	json_object_object_add(r->doc, "fleet", o);
	return 0;
}

void suite_fleet_fail(struct fleet *f, const char *why)
{
	char msg[64];

	if (f)
		fleet_step(f, FLEET_STEP_FAIL, NULL, NULL, why, msg, sizeof(msg));
}

void suite_fleet_meas_end(struct suite_run *r, struct suite_meas *m, enum suite_agg rule,
                          uint32_t bs)
{
	struct suite_figure *ranks = calloc((size_t)r->fleet->size, sizeof(*ranks));

	for (int v = 0; ranks && v < SUITE_VIEWS && m->n; v++) {
		struct suite_figure pass[SUITE_PASSES_MAX];
		if (!(m->views & SUITE_VIEW(v)))
			continue;
		for (int k = 0; k < r->fleet->size; k++) {
			for (unsigned p = 0; p < m->n; p++)
				pass[p] = *suite_fleet_fig(r, m, v, k, p);
			suite_aggregate(rule, pass, m->n, bs, &ranks[k]);
		}
		m->fleet[v] = suite_fleet_ranks_json(r, ranks);
	}
	free(ranks);
	free(m->rank_fig);
	m->rank_fig = NULL;
}

/* --- curves over a fleet (rank 0) --- */

struct suite_curve_fleet {
	int size;
	unsigned zones;
	double *mb_s, *lat_us;       /* rank k's point at zone z: [k * zones + z] */
	int *slowest, *fastest;      /* per zone */
	struct wl_dir_result *total; /* per rank: its zones summed (no series) */
	uint64_t *runtime_ns;        /* per rank: its zones' runtimes summed */
	struct suite_figure *fig;    /* per zone, per rank (scratch) */
};

void suite_fleet_curve_free(struct suite_curve_fleet *cf)
{
	if (!cf)
		return;
	free(cf->mb_s);
	free(cf->lat_us);
	free(cf->slowest);
	free(cf->fastest);
	free(cf->total);
	free(cf->runtime_ns);
	free(cf->fig);
	free(cf);
}

static struct suite_curve_fleet *suite_fleet_curve_new(int size, unsigned zones)
{
	struct suite_curve_fleet *cf = calloc(1, sizeof(*cf));
	size_t n = (size_t)size * zones;

	if (!cf)
		return NULL;
	cf->size = size;
	cf->zones = zones;
	cf->mb_s = calloc(n, sizeof(double));
	cf->lat_us = calloc(n, sizeof(double));
	cf->slowest = calloc(zones, sizeof(int));
	cf->fastest = calloc(zones, sizeof(int));
	cf->total = calloc((size_t)size, sizeof(*cf->total));
	cf->runtime_ns = calloc((size_t)size, sizeof(uint64_t));
	cf->fig = calloc((size_t)size, sizeof(*cf->fig));
	if (!cf->mb_s || !cf->lat_us || !cf->slowest || !cf->fastest || !cf->total ||
	    !cf->runtime_ns || !cf->fig) {
		suite_fleet_curve_free(cf);
		return NULL;
	}
	for (int k = 0; k < size; k++)
		st_hist_init(&cf->total[k].hist);
	return cf;
}

int suite_fleet_zone(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                     enum rl_op op, unsigned z, unsigned zones, struct suite_curve *c,
                     struct wl_dir_result *total, uint64_t *runtime_ns)
{
	enum suite_dir v = op == RL_OP_WRITE ? SUITE_WRITE : SUITE_READ;
	struct suite_figure agg;
	int rc =
	    fleet_step(r->fleet, FLEET_STEP_RESULT, job->name, res, NULL, r->msg, sizeof(r->msg));

	if (rc || !suite_fleet_reports(r))
		return rc;
	if (!c->fleet && !(c->fleet = suite_fleet_curve_new(r->fleet->size, zones)))
		return -ENOMEM;
	struct suite_curve_fleet *cf = c->fleet;
	const struct fleet_job *j = &r->fleet->jobs[0];
	suite_fleet_figs(r, (int)v, cf->fig, &agg);
	suite_fleet_extremes(cf->fig, cf->size, &cf->slowest[z], &cf->fastest[z]);
	for (int k = 0; k < cf->size; k++) {
		const struct wl_dir_result *d = &j->ranks[k].res.dir[op];
		cf->mb_s[(size_t)k * zones + z] = cf->fig[k].mb_s;
		cf->lat_us[(size_t)k * zones + z] = cf->fig[k].lat_mean_us;
		cf->total[k].ios += d->ios;
		cf->total[k].bytes += d->bytes;
		st_hist_merge(&cf->total[k].hist, &d->hist);
		cf->runtime_ns[k] += j->ranks[k].res.runtime_ns;
	}
	c->mb_s[z] = agg.mb_s;
	c->lat_us[z] = agg.lat_mean_us;
	if (total) {
		total->ios += j->merged.dir[op].ios;
		total->bytes += j->merged.dir[op].bytes;
		st_hist_merge(&total->hist, &j->merged.dir[op].hist);
	}
	if (runtime_ns)
		*runtime_ns += j->merged.runtime_ns; /* the longest rank's */
	return 0;
}

/* Rank @k's sweep figure: its curve's average, its I/Os over its runtime, its latencies. */
static void suite_fleet_sweep_fig(const struct suite_curve_fleet *cf, int k, unsigned n,
                                  struct suite_figure *f, double *lo, double *hi)
{
	const double *y = &cf->mb_s[(size_t)k * cf->zones];
	const struct wl_dir_result *t = &cf->total[k];
	uint64_t rt = cf->runtime_ns[k];

	memset(f, 0, sizeof(*f));
	*lo = *hi = n ? y[0] : 0;
	for (unsigned z = 0; z < n; z++) {
		f->mb_s += y[z] / n;
		*lo = y[z] < *lo ? y[z] : *lo;
		*hi = y[z] > *hi ? y[z] : *hi;
	}
	f->iops = rt ? t->ios * 1e9 / (double)rt : 0;
	f->lat_mean_us = st_hist_mean(&t->hist) / 1e3;
	f->lat_p99_us = t->hist.count ? st_hist_percentile(&t->hist, 99) / 1e3 : 0;
}

double suite_fleet_sweep_iops(const struct suite_curve *c)
{
	double iops = 0, lo, hi;
	struct suite_figure f;

	for (int k = 0; c->fleet && k < c->fleet->size; k++) {
		suite_fleet_sweep_fig(c->fleet, k, c->n, &f, &lo, &hi);
		iops += f.iops;
	}
	return iops;
}

/* The "ranks" of a fleet's curve: each rank's points. */
static struct json_object *suite_fleet_curve_ranks(const struct suite_run *r,
                                                   const struct suite_curve *c)
{
	const struct suite_curve_fleet *cf = c->fleet;
	struct json_object *arr = json_object_new_array();

	for (int k = 0; k < cf->size; k++) {
		struct json_object *o = json_object_new_object();
		suite_fleet_who(r, k, o);
		json_object_object_add(o, "mb_s",
		                       suite_json_doubles(&cf->mb_s[(size_t)k * cf->zones], c->n));
		json_object_object_add(
		    o, "lat_us", suite_json_doubles(&cf->lat_us[(size_t)k * cf->zones], c->n));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *suite_fleet_ints(const int *v, unsigned n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

void suite_fleet_sweep_json(const struct suite_run *r, const struct suite_curve *c,
                            struct json_object *obj, struct json_object *dir,
                            struct json_object *pass)
{
	const struct suite_curve_fleet *cf = c->fleet;
	struct json_object *ranks = json_object_new_array(), *curve, *fo;
	struct suite_figure sum = {0};
	double lo, hi;

	for (int k = 0; k < cf->size; k++) {
		suite_fleet_sweep_fig(cf, k, c->n, &cf->fig[k], &lo, &hi);
		sum.mb_s +=
		    cf->runtime_ns[k] ? cf->total[k].bytes * 1e3 / (double)cf->runtime_ns[k] : 0;
		sum.iops += cf->fig[k].iops;
		struct json_object *o = st_result_dir(&cf->total[k], cf->runtime_ns[k]);
		json_object_object_del(o, "series");
		suite_fleet_who(r, k, o);
		json_object_array_add(ranks, o);
	}
	json_object_object_del(pass, "series");
	json_object_object_add(pass, "mb_s", json_object_new_double(sum.mb_s));
	json_object_object_add(pass, "mib_s", json_object_new_double(sum.mb_s * 1e6 / 1048576.0));
	json_object_object_add(pass, "iops", json_object_new_double(sum.iops));
	json_object_object_add(pass, "ranks", ranks);
	/* the direction: each rank's own sweep figure, min and max; slowest and fastest */
	fo = suite_fleet_ranks_json(r, cf->fig);
	for (int k = 0; k < cf->size; k++) {
		struct json_object *o =
		    json_object_array_get_idx(json_object_object_get(fo, "ranks"), (size_t)k);
		struct suite_figure f;
		suite_fleet_sweep_fig(cf, k, c->n, &f, &lo, &hi);
		json_object_object_add(o, "min_mb_s", json_object_new_double(lo));
		json_object_object_add(o, "max_mb_s", json_object_new_double(hi));
	}
	json_object_object_add(dir, "fleet", fo);
	/* the curve: each position's slowest and fastest rank, each rank's points */
	if (json_object_object_get_ex(obj, "curve", &curve)) {
		json_object_object_add(curve, "slowest_rank", suite_fleet_ints(cf->slowest, c->n));
		json_object_object_add(curve, "fastest_rank", suite_fleet_ints(cf->fastest, c->n));
		json_object_object_add(curve, "ranks", suite_fleet_curve_ranks(r, c));
	}
}
