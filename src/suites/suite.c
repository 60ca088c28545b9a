/*
 * suite.c - the suite registry and the machinery every suite shares: the
 * job a test becomes, the pass runner (warm-up, measured passes,
 * aggregation), the test-area fill, the pause between tests and the JSON of
 * a test.  Parameters are in params.c, zone sweeps in zones.c.
 *
 * The pass runner keeps every measured pass as the same direction object a
 * plain `run` writes (st_result_dir), so a suite result carries the full
 * histogram and time series of each pass, and the aggregate is computed
 * from the per-pass figures by suite_aggregate(), a pure function the unit
 * tests exercise on synthetic passes.
 *
 * Seeds: every job a suite runs gets the next seed (1, 2, 3...), so passes
 * do not repeat each other's offsets and a whole suite run repeats exactly.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/result.h"
#include "suites/suite.h"

#define SUITE_NS_PER_S  1000000000ull
#define SUITE_NS_PER_MS 1000000ull
#define SUITE_PREP_BS   (1u << 20) /* the tools fill their test file in 1 MiB writes */
#define SUITE_PREP_QD   4u

/* --- the registry --- */

static struct suite_def *suite_head;

void suite_register(struct suite_def *def)
{
	struct suite_def **p = &suite_head;

	while (*p && strcmp((*p)->name, def->name) < 0)
		p = &(*p)->next;
	def->next = *p;
	*p = def;
}

const struct suite_def *suite_find(const char *name)
{
	for (const struct suite_def *d = suite_head; d; d = d->next)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

const struct suite_def *suite_first(void)
{
	return suite_head;
}

const char *suite_agg_name(enum suite_agg agg)
{
	switch (agg) {
	case SUITE_AGG_BEST:
		return "best";
	case SUITE_AGG_MEAN:
		return "mean";
	case SUITE_AGG_SINGLE:
		return "single";
	}
	return "invalid";
}

const char *suite_pattern_name(enum suite_pattern p)
{
	switch (p) {
	case SUITE_SEQ:
		return "seq";
	case SUITE_RAND:
		return "rand";
	case SUITE_MIXED:
		return "mixed";
	}
	return "invalid";
}

const struct suite_test *suite_test_find(const struct suite_def *def, const char *name)
{
	for (size_t i = 0; i < def->ntests; i++)
		if (!strcmp(def->tests[i].name, name))
			return &def->tests[i];
	return NULL;
}

/* --- aggregation --- */

void suite_aggregate(enum suite_agg rule, const struct suite_figure *passes, unsigned n,
                     uint32_t bs, struct suite_figure *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	switch (rule) {
	case SUITE_AGG_SINGLE:
		*out = passes[0];
		return;
	case SUITE_AGG_MEAN:
		for (unsigned i = 0; i < n; i++) {
			out->mb_s += passes[i].mb_s / n;
			out->iops += passes[i].iops / n;
			out->lat_mean_us += passes[i].lat_mean_us / n;
			out->lat_p99_us += passes[i].lat_p99_us / n;
		}
		return;
	case SUITE_AGG_BEST: {
		unsigned fast = 0, low = n;
		for (unsigned i = 1; i < n; i++)
			if (passes[i].mb_s > passes[fast].mb_s)
				fast = i;
		/* The lowest mean latency among passes that did I/O. */
		for (unsigned i = 0; i < n; i++)
			if (passes[i].iops > 0 &&
			    (low == n || passes[i].lat_mean_us < passes[low].lat_mean_us))
				low = i;
		out->mb_s = passes[fast].mb_s;
		out->iops = bs ? passes[fast].mb_s * 1e6 / bs : passes[fast].iops;
		if (low < n) {
			out->lat_mean_us = passes[low].lat_mean_us;
			out->lat_p99_us = passes[low].lat_p99_us;
		}
		return;
	}
	}
}

/* --- running jobs --- */

int suite_run_start(struct suite_run *r, bool force)
{
	const struct suite_def *def = r->def;
	struct suite_params *p = &r->p;
	char have[64], want[64];
	uint64_t need = suite_need_bytes(def, p);

	r->simulated = rl_target_leaf_caps(r->t) & RL_CAP_VIRTUAL;
	r->align = r->t->block_size > WL_BS_MIN ? r->t->block_size : WL_BS_MIN;
	r->area_shrunk = false;
	if ((def->options & SUITE_OPT_BS_RANGE) && p->min_bs > p->max_bs) {
		snprintf(r->msg, sizeof(r->msg), "--min-bs (%u) is larger than --max-bs (%u)",
		         p->min_bs, p->max_bs);
		return -EINVAL;
	}
	if (need > r->t->size) {
		suite_fmt_size(have, sizeof(have), r->t->size);
		suite_fmt_size(want, sizeof(want), need);
		if (!force) {
			snprintf(
			    r->msg, sizeof(r->msg),
			    "the target has %llu bytes (%s) but suite '%s' needs %llu (%s) for "
			    "its test area: give --size=SIZE to use less, or --force to use the "
			    "whole target",
			    (unsigned long long)r->t->size, have, def->name,
			    (unsigned long long)need, want);
			return -ENOSPC;
		}
		need = r->t->size;
		r->area_shrunk = true;
	}
	r->area = (need ? need : r->t->size) / r->align * r->align;
	if (r->area < SUITE_AREA_MIN) {
		snprintf(r->msg, sizeof(r->msg),
		         "the test area (%llu bytes) is smaller than the %u bytes suites need",
		         (unsigned long long)r->area, SUITE_AREA_MIN);
		return -EINVAL;
	}
	return 0;
}

unsigned suite_steps(const struct suite_run *r)
{
	bool writes = suite_writes(r->def, &r->p); /* hdtune without --write reads only */
	unsigned n = 0;

	if (r->def->steps)
		return r->def->steps(r);
	for (size_t i = 0; i < r->def->ntests; i++) {
		const struct suite_test *t = &r->def->tests[i];
		n += t->pattern == SUITE_MIXED ? 1
		                               : (t->dirs & SUITE_DIR_READ ? 1 : 0) +
		                                     (writes && t->dirs & SUITE_DIR_WRITE ? 1 : 0);
	}
	return n;
}

static bool suite_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A job starts: a new test or direction is a new step (filling the area is none). */
static void suite_step_note(struct suite_run *r)
{
	if (r->prepared || r->cur_passes) {
		if (!suite_same(r->cur_test, r->step_test) ||
		    !suite_same(r->cur_phase, r->step_phase))
			r->step++;
		r->step_test = r->cur_test;
		r->step_phase = r->cur_phase;
	}
	if (r->step > r->steps) /* a suite that runs more than it said */
		r->steps = r->step;
}

static void suite_job_progress(void *arg, const struct wl_progress *wp)
{
	struct suite_run *r = arg;
	double in_step = r->cur_njobs ? (r->cur_job + wp->fraction) / r->cur_njobs : wp->fraction;
	struct suite_progress p = {
	    .test = r->cur_test,
	    .phase = r->cur_phase,
	    .pass = r->cur_pass,
	    .passes = r->cur_passes,
	    .job = wp,
	    .step = r->step,
	    .steps = r->steps,
	    .done = r->steps && r->step ? (r->step - 1 + in_step) / r->steps : 0,
	};

	r->progress(r->progress_arg, &p);
}

int suite_run_job(struct suite_run *r, const struct wl_job *job, struct wl_result *res)
{
	struct wl_job j = *job;
	struct wl_run_opts opts = {
	    .progress = r->progress ? suite_job_progress : NULL,
	    .progress_arg = r,
	};
	char vmsg[384];
	int rc;

	j.seed = ++r->njobs;
	/*
	 * The suites measure the device, not where the buffer's pages fell:
	 * in huge pages a 1 MiB request is one segment, where 4 KiB pages may
	 * exceed the device's segment limit and split it (docs/results.md).
	 */
	if (!r->p.small_pages)
		j.mem = WL_MEM_HUGE;
	suite_step_note(r);
	if (wl_job_validate(&j, NULL, vmsg, sizeof(vmsg))) {
		snprintf(r->msg, sizeof(r->msg), "test '%s': the job is not valid: %s", j.name,
		         vmsg);
		return -EINVAL;
	}
	if (wl_run_stop_requested()) {
		snprintf(r->msg, sizeof(r->msg), "interrupted before test '%s'", j.name);
		return -EINTR;
	}
	rc = r->fleet ? suite_fleet_run_job(r, &j, &opts, res)
	              : wl_run_job(r->t, &j, &opts, res, r->msg, sizeof(r->msg));
	if (rc)
		return rc;
	if (wl_run_stop_requested()) {
		/* Ctrl-C: the job ended early; a partial pass is no measurement. */
		snprintf(r->msg, sizeof(r->msg), "interrupted during test '%s'", j.name);
		wl_result_free(res);
		return -EINTR;
	}
	if (!wl_result_ok(res)) {
		if (res->errors) {
			snprintf(r->msg, sizeof(r->msg),
			         "test '%s': %llu I/O error(s); the first: %s at offset %llu: %s",
			         j.name, (unsigned long long)res->errors,
			         rl_op_name(res->first_error_op),
			         (unsigned long long)res->first_error_offset,
			         strerror(-res->first_error));
			rc = res->first_error ? res->first_error : -EIO;
		} else {
			snprintf(r->msg, sizeof(r->msg), "test '%s': verify failed: %s", j.name,
			         res->verify_msg);
			rc = -EIO;
		}
		wl_result_free(res);
	}
	return rc;
}

void suite_job_build(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                     struct wl_job *job)
{
	bool rnd = test->pattern != SUITE_SEQ;
	uint32_t bs = dir == SUITE_WRITE && test->write_bs ? test->write_bs : test->bs;
	uint32_t maxbs;
	char msg[256];

	wl_job_init(job);
	snprintf(job->name, sizeof(job->name), "%s %s", test->name,
	         dir == SUITE_READ    ? "read"
	         : dir == SUITE_WRITE ? "write"
	                              : "mix");
	switch (dir) {
	case SUITE_READ:
		job->rw = rnd ? WL_RW_RANDREAD : WL_RW_READ;
		break;
	case SUITE_WRITE:
		job->rw = rnd ? WL_RW_RANDWRITE : WL_RW_WRITE;
		break;
	case SUITE_MIX:
		job->rw = rnd ? WL_RW_RANDRW : WL_RW_RW;
		job->rwmixread = test->pattern == SUITE_MIXED ? test->rwmixread : r->p.mix_read;
		break;
	}
	if (test->bssplit) {
		/* The definitions are constant and pinned by the unit tests. */
		if (wl_job_set(job, "bssplit", test->bssplit, NULL, msg, sizeof(msg)))
			abort();
		maxbs = 0;
		for (unsigned i = 0; i < job->nbssplit; i++)
			if (job->bssplit[i].bs > maxbs)
				maxbs = job->bssplit[i].bs;
	} else {
		job->bs = bs < r->align ? r->align : bs; /* a 4Kn device cannot do 512 B */
		maxbs = job->bs;
	}
	job->iodepth = test->iodepth ? test->iodepth : r->p.iodepth;
	job->numjobs = test->threads ? test->threads : 1;
	job->offset = 0;
	if (dir == SUITE_READ && test->read_whole_span) {
		job->size = r->t->size / maxbs * maxbs;
	} else if (test->own_region && job->numjobs > 1) {
		uint64_t per = r->area / job->numjobs / maxbs * maxbs;
		job->size = per ? per : maxbs; /* too small an area: the run says so */
		job->offset_increment = job->size;
	} else {
		job->size = r->area;
	}
	if (test->timed) {
		job->time_based = true;
		job->runtime_ns = r->p.duration_ns;
		suite_job_log_interval(job);
	}
}

void suite_job_log_interval(struct wl_job *job)
{
	/* At least 20 points in the series of a short pass; 100 ms (fio's default) otherwise. */
	if (job->runtime_ns && job->runtime_ns < 2 * SUITE_NS_PER_S) {
		uint64_t ms = job->runtime_ns / 20 / SUITE_NS_PER_MS;
		job->log_avg_ns = (ms ? ms : 1) * SUITE_NS_PER_MS;
	}
}

void suite_dir_merge(const struct wl_result *res, struct wl_dir_result *out)
{
	const struct st_series *a = &res->dir[RL_OP_READ].series;
	const struct st_series *b = &res->dir[RL_OP_WRITE].series;
	const struct st_series *s = a->interval_ns ? a : b;

	memset(out, 0, sizeof(*out));
	st_hist_init(&out->hist);
	for (int d = RL_OP_READ; d <= RL_OP_WRITE; d++) {
		out->ios += res->dir[d].ios;
		out->bytes += res->dir[d].bytes;
		st_hist_merge(&out->hist, &res->dir[d].hist);
	}
	if (s->interval_ns &&
	    !st_series_init(&out->series, s->interval_ns, s->start_ns, a->n > b->n ? a->n : b->n)) {
		if (a->interval_ns)
			st_series_merge(&out->series, a);
		if (b->interval_ns)
			st_series_merge(&out->series, b);
	}
}

static void suite_figure_dir(const struct wl_dir_result *d, uint64_t runtime_ns,
                             struct suite_figure *f)
{
	double rt = runtime_ns / 1e9;

	f->mb_s = rt > 0 ? d->bytes / 1e6 / rt : 0;
	f->iops = rt > 0 ? d->ios / rt : 0;
	f->lat_mean_us = st_hist_mean(&d->hist) / 1e3;
	f->lat_p99_us = d->hist.count ? st_hist_percentile(&d->hist, 99) / 1e3 : 0;
}

void suite_figure_of(const struct wl_result *res, enum suite_dir dir, struct suite_figure *f)
{
	if (dir == SUITE_MIX) {
		struct wl_dir_result *m = malloc(sizeof(*m));
		if (!m) {
			memset(f, 0, sizeof(*f));
			return;
		}
		suite_dir_merge(res, m);
		suite_figure_dir(m, res->runtime_ns, f);
		st_series_free(&m->series);
		free(m);
		return;
	}
	suite_figure_dir(&res->dir[dir == SUITE_READ ? RL_OP_READ : RL_OP_WRITE], res->runtime_ns,
	                 f);
}

struct json_object *suite_pass_json(const struct wl_result *res, enum suite_dir dir)
{
	struct json_object *o;

	if (dir != SUITE_MIX)
		return st_result_dir(&res->dir[dir == SUITE_READ ? RL_OP_READ : RL_OP_WRITE],
		                     res->runtime_ns);
	struct wl_dir_result *m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	suite_dir_merge(res, m);
	o = st_result_dir(m, res->runtime_ns);
	st_series_free(&m->series);
	free(m);
	return o;
}

int suite_measure(struct suite_run *r, const struct wl_job *job, unsigned views, unsigned warmup,
                  unsigned passes, enum suite_agg rule, uint32_t bs, suite_pass_fn fn, void *fn_arg,
                  struct suite_meas *m)
{
	struct wl_result *res = malloc(sizeof(*res));
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->views = views;
	if (passes > SUITE_PASSES_MAX)
		passes = SUITE_PASSES_MAX;
	if (!res || suite_fleet_meas_start(r, m, passes)) {
		free(res);
		return -ENOMEM;
	}
	for (int v = 0; v < SUITE_VIEWS; v++)
		if (views & SUITE_VIEW(v))
			m->passes[v] = json_object_new_array();
	for (unsigned i = 0; i < warmup + passes; i++) {
		r->cur_pass = i < warmup ? 0 : i - warmup + 1;
		r->cur_passes = passes;
		r->cur_job = i;
		r->cur_njobs = warmup + passes;
		rc = fn ? fn(r, job, res, fn_arg) : suite_run_job(r, job, res);
		if (rc)
			break;
		if (i >= warmup && r->fleet) {
			/* rank 0 takes the aggregate of the ranks' passes */
			rc = suite_fleet_pass(r, job, res, m);
		} else if (i >= warmup) {
			for (int v = 0; v < SUITE_VIEWS; v++) {
				if (!(views & SUITE_VIEW(v)))
					continue;
				suite_figure_of(res, (enum suite_dir)v, &m->fig[v][m->n]);
				json_object_array_add(m->passes[v],
				                      suite_pass_json(res, (enum suite_dir)v));
			}
		}
		m->n += i >= warmup && !rc;
		wl_result_free(res);
		if (rc)
			break;
	}
	free(res);
	if (!rc)
		for (int v = 0; v < SUITE_VIEWS; v++)
			suite_aggregate(rule, m->fig[v], m->n, bs, &m->agg[v]);
	if (!rc && m->rank_fig)
		suite_fleet_meas_end(r, m, rule, bs);
	return rc;
}

struct json_object *suite_figure_json(const struct suite_figure *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lat = json_object_new_object();

	json_object_object_add(o, "mb_s", json_object_new_double(f->mb_s));
	json_object_object_add(o, "iops", json_object_new_double(f->iops));
	json_object_object_add(lat, "mean", json_object_new_double(f->lat_mean_us));
	json_object_object_add(lat, "p99", json_object_new_double(f->lat_p99_us));
	json_object_object_add(o, "lat_us", lat);
	return o;
}

struct json_object *suite_meas_json(struct suite_meas *m, enum suite_dir view)
{
	struct json_object *o = suite_figure_json(&m->agg[view]);

	json_object_object_add(o, "passes",
	                       m->passes[view] ? m->passes[view] : json_object_new_array());
	m->passes[view] = NULL;
	if (m->fleet[view])
		json_object_object_add(o, "fleet", m->fleet[view]);
	m->fleet[view] = NULL;
	return o;
}

void suite_meas_free(struct suite_meas *m)
{
	for (int v = 0; v < SUITE_VIEWS; v++) {
		json_object_put(m->passes[v]);
		json_object_put(m->fleet[v]);
		m->passes[v] = m->fleet[v] = NULL;
	}
	free(m->rank_fig);
	m->rank_fig = NULL;
}

int suite_prepare(struct suite_run *r)
{
	struct wl_job job;
	struct wl_result *res;
	int rc;

	if (r->prepared)
		return 0;
	wl_job_init(&job);
	snprintf(job.name, sizeof(job.name), "prepare");
	job.rw = WL_RW_WRITE;
	job.bs = r->area >= SUITE_PREP_BS ? SUITE_PREP_BS : (uint32_t)r->area;
	job.iodepth = SUITE_PREP_QD;
	job.size = r->area;
	res = malloc(sizeof(*res));
	if (!res)
		return -ENOMEM;
	r->cur_test = "preparing the test area";
	r->cur_phase = "write";
	r->cur_pass = 0;
	r->cur_passes = 0;
	r->cur_job = r->cur_njobs = 0;
	rc = suite_run_job(r, &job, res);
	if (!rc)
		wl_result_free(res);
	free(res);
	r->prepared = !rc;
	return rc;
}

/* The pause sleeps in slices this long, so a SIGINT/SIGTERM ends it at once. */
#define SUITE_PAUSE_SLICE_NS 50000000ull

static uint64_t suite_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SUITE_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void suite_pause(struct suite_run *r)
{
	if (!r->p.interval_ns)
		return;
	if (r->simulated) {
		/*
		 * Simulated time: the stack's clock moves on by the interval with
		 * no host I/O; simulated drives fold their idle-time work (GC,
		 * SLC-cache flushing) into the gap when the next request comes.
		 */
		r->t->vtime += r->p.interval_ns;
		return;
	}
	uint64_t end = suite_now_ns() + r->p.interval_ns, now;
	while (!wl_run_stop_requested() && (now = suite_now_ns()) < end) {
		uint64_t step = end - now < SUITE_PAUSE_SLICE_NS ? end - now : SUITE_PAUSE_SLICE_NS;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)step};
		nanosleep(&ts, NULL); /* EINTR: the stop is checked at once */
	}
}

/* --- JSON --- */

struct json_object *suite_test_json(const struct suite_run *r, const struct suite_test *test)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(test->name));
	json_object_object_add(o, "pattern",
	                       json_object_new_string(suite_pattern_name(test->pattern)));
	json_object_object_add(o, "bs", json_object_new_int64(test->bssplit ? 0 : test->bs));
	if (test->bssplit)
		json_object_object_add(o, "bssplit", json_object_new_string(test->bssplit));
	if (test->write_bs)
		json_object_object_add(o, "write_bs", json_object_new_int64(test->write_bs));
	json_object_object_add(o, "iodepth",
	                       json_object_new_int64(test->iodepth ? test->iodepth : r->p.iodepth));
	json_object_object_add(o, "threads",
	                       json_object_new_int64(test->threads ? test->threads : 1));
	if (test->pattern == SUITE_MIXED) {
		json_object_object_add(o, "rwmixread", json_object_new_int64(test->rwmixread));
		json_object_object_add(o, "random_pct", json_object_new_int64(test->random_pct));
	}
	return o;
}

struct json_object *suite_json_doubles(const double *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

int suite_run(struct suite_run *r, const char *label)
{
	const struct suite_def *def = r->def;
	struct json_object *s = json_object_new_object();
	struct json_object *params = suite_params_json(def, &r->p);

	json_object_object_add(r->doc, "label", json_object_new_string(label));
	json_object_object_add(s, "name", json_object_new_string(def->name));
	json_object_object_add(s, "title", json_object_new_string(def->title));
	json_object_object_add(s, "aggregate",
	                       json_object_new_string(suite_agg_name(def->aggregate)));
	/* The area actually used (the whole target when --size is 0, or after --force). */
	json_object_object_add(params, "size_bytes", json_object_new_int64((int64_t)r->area));
	json_object_object_add(s, "params", params);
	json_object_object_add(r->doc, "suite", s);
	r->tests = json_object_new_array();
	json_object_object_add(r->doc, "tests", r->tests);
	r->steps = suite_steps(r);
	return def->run(r);
}
