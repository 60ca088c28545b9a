/*
 * steady.c - sustained random writes until a SNIA-style steady state, with
 * the picture over time and over LBA.
 *
 * Three tests, in order:
 *   1. Fill: sequential 128 KiB writes at queue depth 32 over the whole
 *      region, --fill times (default 2: SNIA PTS workload-independent
 *      preconditioning writes twice the capacity with 128 KiB sequential
 *      writes).  --fill=0 skips it.
 *   2. RND4K Q32T1: 4 KiB random writes at queue depth 32 over the region in
 *      rounds of --round (default 60 s, SNIA's one-minute rounds).  After
 *      each round the last SUITE_STEADY_WINDOW (5) rounds' IOPS are checked
 *      (suite_steady_check): steady when max - min of the window is at most
 *      20 % of its mean and the least-squares line through it rises or falls
 *      by at most 10 % of the mean across the window (SNIA PTS 1.1 steady
 *      state).  The phase ends at steady state or after --time-limit
 *      (default 25 min, SNIA's 25-round cap).  Every round is a pass; the
 *      reported figure is the mean of the window (the last 5 rounds); the
 *      curve is MB/s and mean latency per round over time; each pass keeps
 *      its own throughput series.
 *   3. Write over LBA: right after, the region is written sequentially zone
 *      by zone (--zones, default 100; 128 KiB writes, one at a time), each
 *      zone whole - the HD Tach write pass over a drive dirtied by random
 *      writes, showing where the drive has to clean up and how it recovers.
 * Everything writes: write intent is needed and the region is destroyed.
 * The region is the whole target unless --size says less.
 *
 * Under mpirun every rank runs each round at once; rank 0 gathers the
 * round (suite_fleet_gather: IOPS and MB/s summed, the slowest and
 * fastest rank), applies the steady-state rule and the time limit to the
 * fleet's figures, and hands the verdict to every rank (suite_fleet_share),
 * so the ranks run the same rounds and stop together.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "suites/fleet.h"
#include "suites/suite.h"

#define STEADY_MAX_EXCURSION 0.20
#define STEADY_MAX_SLOPE     0.10
#define STEADY_MAX_ROUNDS    100000u

static const struct suite_test steady_tests[] = {
    {.name = "Fill",
     .pattern = SUITE_SEQ,
     .bs = 128u << 10,
     .iodepth = 32,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE},
    {.name = "RND4K Q32T1",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .iodepth = 32,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE,
     .timed = true},
    {.name = "Write over LBA",
     .pattern = SUITE_SEQ,
     .bs = 128u << 10,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE},
};

bool suite_steady_check(const double *y, size_t n, double *excursion, double *slope)
{
	const size_t w = SUITE_STEADY_WINDOW;
	double mean = 0, lo, hi, sxy = 0, sxx = 0;

	if (excursion)
		*excursion = 0;
	if (slope)
		*slope = 0;
	if (n < w)
		return false;
	y += n - w;
	lo = hi = y[0];
	for (size_t i = 0; i < w; i++) {
		mean += y[i] / w;
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	if (!(mean > 0))
		return false;
	for (size_t i = 0; i < w; i++) {
		double dx = (double)i - (w - 1) / 2.0;
		sxy += dx * (y[i] - mean);
		sxx += dx * dx;
	}
	double exc = (hi - lo) / mean;
	double rise = fabs(sxy / sxx) * (double)(w - 1) / mean;
	if (excursion)
		*excursion = exc;
	if (slope)
		*slope = rise;
	return exc <= STEADY_MAX_EXCURSION && rise <= STEADY_MAX_SLOPE;
}

static int steady_fill(struct suite_run *r)
{
	const struct suite_test *t = &steady_tests[0];
	struct json_object *obj;
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, t, SUITE_WRITE, &job);
	job.loops = r->p.fill;
	r->cur_test = t->name;
	r->cur_phase = "write";
	rc = suite_measure(r, &job, SUITE_VIEW(SUITE_WRITE), 0, 1, SUITE_AGG_SINGLE, t->bs, NULL,
	                   NULL, &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	obj = suite_test_json(r, t);
	json_object_object_add(obj, "loops", json_object_new_int64(r->p.fill));
	json_object_object_add(obj, "write", suite_meas_json(&m, SUITE_WRITE));
	json_object_array_add(r->tests, obj);
	return 0;
}

/* The per-round record of the sustained phase. */
struct steady_rounds {
	size_t n, cap;
	struct suite_figure *fig;
	double *iops, *mb_s, *lat_us, *t_s;
	/* over a fleet (rank 0): each rank's figure of each round, [round * ranks + rank] */
	int ranks;
	struct suite_figure *rank_fig;
};

static int steady_rounds_add(struct steady_rounds *s, const struct suite_figure *f,
                             const struct suite_figure *ranks, double t_s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		void *a = realloc(s->fig, cap * sizeof(*s->fig));
		if (a)
			s->fig = a;
		void *b = realloc(s->iops, cap * sizeof(double));
		if (b)
			s->iops = b;
		void *c = realloc(s->mb_s, cap * sizeof(double));
		if (c)
			s->mb_s = c;
		void *d = realloc(s->lat_us, cap * sizeof(double));
		if (d)
			s->lat_us = d;
		void *e = realloc(s->t_s, cap * sizeof(double));
		if (e)
			s->t_s = e;
		void *g = s->rank_fig;
		if (s->ranks &&
		    (g = realloc(s->rank_fig, cap * (size_t)s->ranks * sizeof(*s->fig))))
			s->rank_fig = g;
		if (!a || !b || !c || !d || !e || (s->ranks && !g))
			return -ENOMEM;
		s->cap = cap;
	}
	s->fig[s->n] = *f;
	s->iops[s->n] = f->iops;
	s->mb_s[s->n] = f->mb_s;
	s->lat_us[s->n] = f->lat_mean_us;
	s->t_s[s->n] = t_s;
	if (s->ranks)
		memcpy(&s->rank_fig[s->n * (size_t)s->ranks], ranks, (size_t)s->ranks * sizeof(*f));
	s->n++;
	return 0;
}

static void steady_rounds_free(struct steady_rounds *s)
{
	free(s->fig);
	free(s->iops);
	free(s->mb_s);
	free(s->lat_us);
	free(s->t_s);
	free(s->rank_fig);
}

/*
 * One round's figure @f, pass object @pass and runtime @rt: its own alone;
 * over a fleet on rank 0 the fleet's (each rank's figure into @ranks), the
 * other ranks' own as alone (theirs are not reported).
 */
static int steady_round(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                        struct suite_figure *f, struct suite_figure *ranks,
                        struct json_object **pass, uint64_t *rt)
{
	if (r->fleet) {
		int rc = suite_fleet_gather(r, job, res, SUITE_WRITE, f, ranks, pass, rt);
		if (rc || suite_fleet_reports(r))
			return rc;
	}
	suite_figure_of(res, SUITE_WRITE, f);
	*pass = st_result_dir(&res->dir[RL_OP_WRITE], res->runtime_ns);
	*rt = res->runtime_ns;
	return 0;
}

/* What rank 0 decided after a round, on the aggregate, for every rank. */
struct steady_verdict {
	uint64_t elapsed_ns;
	uint8_t more, steady;
};

/* Over a fleet: rank 0's decision becomes every rank's, so all run the same rounds. */
static int steady_agree(struct suite_run *r, bool *more, bool *steady, uint64_t *elapsed)
{
	struct steady_verdict v;
	int rc;

	memset(&v, 0, sizeof(v));
	v.elapsed_ns = *elapsed;
	v.more = *more;
	v.steady = *steady;
	rc = suite_fleet_share(r, "steady-state verdict", &v, sizeof(v));
	*more = v.more;
	*steady = v.steady;
	*elapsed = v.elapsed_ns;
	return rc;
}

/* Over a fleet (rank 0): each rank's mean over the window rounds, slowest and fastest. */
static struct json_object *steady_fleet_json(struct suite_run *r, const struct steady_rounds *s,
                                             size_t w, uint32_t bs)
{
	struct suite_figure *win = calloc(w ? w : 1, sizeof(*win));
	struct suite_figure *own = calloc((size_t)s->ranks, sizeof(*own));
	struct json_object *o = NULL;

	if (win && own) {
		for (int k = 0; k < s->ranks; k++) {
			for (size_t i = 0; i < w; i++)
				win[i] = s->rank_fig[(s->n - w + i) * (size_t)s->ranks + (size_t)k];
			suite_aggregate(SUITE_AGG_MEAN, win, (unsigned)w, bs, &own[k]);
		}
		o = suite_fleet_ranks_json(r, own);
	}
	free(win);
	free(own);
	return o;
}

/* The sustained phase's test object from its rounds. */
static void steady_sustain_json(struct suite_run *r, const struct suite_test *t,
                                const struct steady_rounds *rounds, struct json_object *passes,
                                struct json_object *extremes[2], bool steady, double exc,
                                double slope, uint64_t elapsed)
{
	size_t w = rounds->n < SUITE_STEADY_WINDOW ? rounds->n : SUITE_STEADY_WINDOW;
	struct suite_figure agg;
	suite_aggregate(SUITE_AGG_MEAN, rounds->fig + rounds->n - w, (unsigned)w, t->bs, &agg);
	struct json_object *obj = suite_test_json(r, t);
	struct json_object *d = suite_figure_json(&agg);
	json_object_object_add(d, "passes", passes);
	if (rounds->ranks)
		json_object_object_add(d, "fleet", steady_fleet_json(r, rounds, w, t->bs));
	json_object_object_add(obj, "write", d);

	struct json_object *curve = json_object_new_object();
	json_object_object_add(curve, "x_label", json_object_new_string("time_s"));
	json_object_object_add(curve, "x", suite_json_doubles(rounds->t_s, rounds->n));
	json_object_object_add(curve, "mb_s", suite_json_doubles(rounds->mb_s, rounds->n));
	json_object_object_add(curve, "lat_us", suite_json_doubles(rounds->lat_us, rounds->n));
	if (rounds->ranks) {
		json_object_object_add(curve, "slowest_rank", extremes[0]);
		json_object_object_add(curve, "fastest_rank", extremes[1]);
		extremes[0] = extremes[1] = NULL;
	}
	json_object_object_add(obj, "curve", curve);

	struct json_object *ss = json_object_new_object();
	json_object_object_add(ss, "reached", json_object_new_boolean(steady));
	json_object_object_add(ss, "rounds", json_object_new_int64((int64_t)rounds->n));
	json_object_object_add(ss, "window_rounds", json_object_new_int64((int64_t)w));
	json_object_object_add(ss, "window_first_round",
	                       json_object_new_int64((int64_t)(rounds->n - w + 1)));
	json_object_object_add(ss, "mean_iops", json_object_new_double(agg.iops));
	json_object_object_add(ss, "excursion_pct", json_object_new_double(100 * exc));
	json_object_object_add(ss, "slope_pct", json_object_new_double(100 * slope));
	json_object_object_add(ss, "max_excursion_pct",
	                       json_object_new_double(100 * STEADY_MAX_EXCURSION));
	json_object_object_add(ss, "max_slope_pct", json_object_new_double(100 * STEADY_MAX_SLOPE));
	json_object_object_add(ss, "time_s", json_object_new_double(elapsed / 1e9));
	json_object_object_add(obj, "steady_state", ss);
	json_object_array_add(r->tests, obj);
}

/* Append the slowest and fastest rank of round pass @pass to @extremes (a fleet's rank 0). */
static void steady_extremes_add(struct json_object *extremes[2], struct json_object *pass)
{
	static const char *const keys[2] = {"slowest_rank", "fastest_rank"};
	struct json_object *v;

	for (int i = 0; i < 2; i++)
		if (extremes[i] && json_object_object_get_ex(pass, keys[i], &v))
			json_object_array_add(extremes[i], json_object_get(v));
}

static int steady_sustain(struct suite_run *r)
{
	const struct suite_test *t = &steady_tests[1];
	bool report = r->fleet && suite_fleet_reports(r);
	struct steady_rounds rounds = {.ranks = report ? r->fleet->size : 0};
	struct json_object *passes = json_object_new_array();
	struct json_object *extremes[2] = {report ? json_object_new_array() : NULL,
	                                   report ? json_object_new_array() : NULL};
	struct wl_result *res = malloc(sizeof(*res));
	struct suite_figure *ranks = calloc(report ? (size_t)r->fleet->size : 1, sizeof(*ranks));
	uint64_t elapsed = 0, max_rounds = r->p.time_limit_ns / r->p.round_ns;
	double exc = 0, slope = 0;
	bool steady = false, more = true;
	struct wl_job job;
	int rc = 0;

	if (!res || !ranks)
		rc = -ENOMEM;
	if (max_rounds < 1)
		max_rounds = 1;
	if (max_rounds > STEADY_MAX_ROUNDS)
		max_rounds = STEADY_MAX_ROUNDS;
	suite_job_build(r, t, SUITE_WRITE, &job);
	job.runtime_ns = r->p.round_ns;
	suite_job_log_interval(&job);
	r->cur_test = t->name;
	r->cur_phase = "round";
	while (!rc && more) {
		struct suite_figure f;
		struct json_object *pass = NULL;
		uint64_t rt = 0;
		r->cur_pass = (unsigned)rounds.n + 1;
		r->cur_passes = (unsigned)max_rounds;
		rc = suite_run_job(r, &job, res);
		if (rc)
			break;
		rc = steady_round(r, &job, res, &f, ranks, &pass, &rt);
		wl_result_free(res);
		if (rc)
			break;
		steady_extremes_add(extremes, pass);
		json_object_array_add(passes, pass);
		elapsed += rt;
		rc = steady_rounds_add(&rounds, &f, ranks, elapsed / 1e9);
		if (rc)
			break;
		steady = suite_steady_check(rounds.iops, rounds.n, &exc, &slope);
		more = !steady && elapsed < r->p.time_limit_ns && rounds.n < max_rounds;
		/* over a fleet rank 0 decided on the aggregate: every rank does as it says */
		if (r->fleet)
			rc = steady_agree(r, &more, &steady, &elapsed);
	}
	free(res);
	free(ranks);
	if (!rc)
		steady_sustain_json(r, t, &rounds, passes, extremes, steady, exc, slope, elapsed);
	else
		json_object_put(passes);
	json_object_put(extremes[0]);
	json_object_put(extremes[1]);
	steady_rounds_free(&rounds);
	return rc;
}

static int steady_lba(struct suite_run *r)
{
	const struct suite_test *t = &steady_tests[2];
	struct wl_dir_result *total = malloc(sizeof(*total));
	struct suite_curve c;
	uint64_t rt;
	int rc;

	if (!total)
		return -ENOMEM;
	r->cur_test = t->name;
	r->cur_phase = "zone";
	rc = suite_zone_sweep(r, t->name, RL_OP_WRITE, 0, r->area, r->p.zones, t->bs, t->iodepth,
	                      UINT64_MAX, &c, total, &rt);
	if (!rc) {
		struct json_object *obj = suite_test_json(r, t);
		suite_sweep_json(r, obj, "write", &c, total, rt);
		json_object_array_add(r->tests, obj);
		suite_curve_free(&c);
		st_series_free(&total->series);
	}
	free(total);
	return rc;
}

static int steady_run(struct suite_run *r)
{
	int rc = 0;

	if (r->p.fill)
		rc = steady_fill(r);
	if (!rc)
		rc = steady_sustain(r);
	if (!rc)
		rc = steady_lba(r);
	return rc;
}

static struct suite_def steady_def = {
    .name = "steady",
    .title = "Sustained random writes to steady state (SNIA PTS style, HD Tach write pass)",
    .summary = "fill, then 4K random writes at QD32 in rounds until a SNIA steady state, then "
               "a sequential write pass over LBA",
    .aggregate = SUITE_AGG_MEAN,
    .tests = steady_tests,
    .ntests = sizeof(steady_tests) / sizeof(steady_tests[0]),
    .defaults = {.size = 0,
                 .passes = 1,
                 .fill = 2,
                 .round_ns = 60000000000ull,
                 .time_limit_ns = 25 * 60000000000ull,
                 .zones = 100},
    .options = SUITE_OPT_SIZE | SUITE_OPT_FILL | SUITE_OPT_ROUND | SUITE_OPT_ZONES,
    .run = steady_run,
};
SUITE_REGISTER(steady_def)
