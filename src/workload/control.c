/*
 * control.c - flow, latency target and steady state (see control.h).
 *
 * The flow counters are relaxed atomics: a job may run a request or two
 * past its share when two threads test at once, which the next test
 * corrects, as in fio.  The latency search is per worker and touched only
 * by its thread.  A steady state record may be shared by several worker
 * threads: their sums are atomics and sampling takes the lock.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload/control.h"

/* --- flow --- */

struct wl_flow *wl_flow_join(struct wl_flow_set *set, uint32_t id, uint32_t weight)
{
	struct wl_flow *f = NULL;

	for (unsigned i = 0; i < set->n && !f; i++)
		if (set->flows[i].id == id)
			f = &set->flows[i];
	if (!f) {
		if (set->n == WL_FLOW_MAX)
			return NULL;
		f = &set->flows[set->n++];
		f->id = id;
		atomic_store(&f->counter, 1); /* as fio: never divide by zero */
		atomic_store(&f->weight, 0);
	}
	atomic_fetch_add(&f->weight, weight);
	return f;
}

bool wl_flow_ahead(struct wl_flow *f, uint32_t weight, uint64_t *mine)
{
	uint64_t total = atomic_load_explicit(&f->counter, memory_order_relaxed);
	uint64_t wsum = atomic_load_explicit(&f->weight, memory_order_relaxed);

	/* mine / total > weight / wsum, without division */
	if (wsum && (double)*mine * (double)wsum > (double)weight * (double)total)
		return true;
	atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
	(*mine)++;
	return false;
}

void wl_flow_leave(struct wl_flow *f, uint32_t weight, uint64_t mine)
{
	atomic_fetch_sub(&f->counter, mine);
	atomic_fetch_sub(&f->weight, weight);
}

void wl_flow_begin(struct wl_flow *f, uint64_t now)
{
	uint64_t cur = atomic_load_explicit(&f->last_begin, memory_order_relaxed);

	while (cur < now && !atomic_compare_exchange_weak(&f->last_begin, &cur, now))
		;
}

uint64_t wl_flow_deadline(const struct wl_flow *f, uint64_t span)
{
	return atomic_load_explicit(&f->last_begin, memory_order_relaxed) + span;
}

/* --- latency target --- */

static void lat_new_cycle(struct wl_lat_search *ls, uint64_t now)
{
	ls->cycle_start = now;
	ls->ios = 0;
	ls->late = 0;
}

void wl_lat_init(struct wl_lat_search *ls, const struct wl_job *job, uint64_t now)
{
	memset(ls, 0, sizeof(*ls));
	ls->max = job->iodepth;
	ls->qd = 1;
	ls->lo = 1;
	ls->hi = job->iodepth;
	ls->keep_going = job->lat_run;
	ls->target_ns = job->lat_target_ns;
	ls->window_ns = job->lat_window_ns;
	ls->pct = job->lat_pct;
	lat_new_cycle(ls, now);
}

/* A window (or, at 100 %, one I/O) missed the target: go down. */
static enum wl_lat_step lat_failed(struct wl_lat_search *ls, uint64_t now)
{
	if (ls->qd == 1)
		return WL_LAT_FAIL;
	ls->hi = ls->qd;
	if (ls->qd == ls->lo)
		ls->lo--;
	ls->qd = (ls->qd + ls->lo) / 2;
	if (ls->qd < 1)
		ls->qd = 1;
	ls->stable = 0;
	lat_new_cycle(ls, now);
	return WL_LAT_DEPTH;
}

/* A window held: go up, or settle. */
static enum wl_lat_step lat_success(struct wl_lat_search *ls, uint64_t now)
{
	unsigned qd = ls->qd;
	enum wl_lat_step step = WL_LAT_DEPTH;

	ls->lo = ls->qd;
	if (ls->qd + 1 == ls->hi && ++ls->stable >= 3) {
		/* stuck one below a failure: try the failing depth again now and then */
		ls->hi++;
		ls->stable = 0;
	}
	if (ls->hi != ls->max)
		ls->qd = (ls->qd + ls->hi) / 2;
	else
		ls->qd *= 2;
	if (ls->qd > ls->max)
		ls->qd = ls->max;
	if (!ls->keep_going && ls->qd == qd) {
		step = ls->end_run ? WL_LAT_DONE : WL_LAT_FINAL;
		ls->end_run = true;
	}
	lat_new_cycle(ls, now);
	return step;
}

enum wl_lat_step wl_lat_complete(struct wl_lat_search *ls, uint64_t submitted, uint64_t lat_ns,
                                 uint64_t now)
{
	if (submitted < ls->cycle_start)
		return WL_LAT_GO; /* issued at the depth before: not this window's */
	ls->ios++;
	if (lat_ns > ls->target_ns) {
		ls->late++;
		if (ls->pct >= 100.0)
			return lat_failed(ls, now);
	}
	if (now - ls->cycle_start < ls->window_ns)
		return WL_LAT_GO;
	double ok = 100.0 * (double)(ls->ios - ls->late) / (double)ls->ios;
	return ok >= ls->pct ? lat_success(ls, now) : lat_failed(ls, now);
}

/* --- steady state --- */

int wl_ss_init(struct wl_ss *ss, const struct wl_job *job)
{
	memset(ss, 0, sizeof(*ss));
	ss->job = job;
	uint64_t n = job->ss_dur_ns / job->ss_interval_ns;
	ss->n = n ? (unsigned)n : 1;
	ss->iops = calloc(ss->n, sizeof(uint64_t));
	ss->bw = calloc(ss->n, sizeof(uint64_t));
	ss->lat = calloc(ss->n, sizeof(uint64_t));
	if (!ss->iops || !ss->bw || !ss->lat) {
		wl_ss_free(ss);
		return -ENOMEM;
	}
	pthread_mutex_init(&ss->lock, NULL);
	return 0;
}

void wl_ss_free(struct wl_ss *ss)
{
	if (ss->iops && ss->bw && ss->lat)
		pthread_mutex_destroy(&ss->lock);
	free(ss->iops);
	free(ss->bw);
	free(ss->lat);
	ss->iops = ss->bw = ss->lat = NULL;
}

void wl_ss_start(struct wl_ss *ss, uint64_t now)
{
	pthread_mutex_lock(&ss->lock);
	if (!ss->t0) {
		ss->t0 = now ? now : 1;
		ss->prev_t = ss->t0;
		atomic_store(&ss->next, ss->t0 + ss->job->ss_interval_ns);
	}
	pthread_mutex_unlock(&ss->lock);
}

/* The i-th sample of the window, oldest first, of the judged kind. */
static double ss_value(const struct wl_ss *ss, unsigned i)
{
	unsigned k = (ss->head + i) % ss->n;
	switch (ss->job->ss_kind) {
	case WL_SS_BW:
		return (double)ss->bw[k];
	case WL_SS_LAT:
		return (double)ss->lat[k];
	case WL_SS_IOPS:
	case WL_SS_NONE:
		break;
	}
	return (double)ss->iops[k];
}

/* Judge a full window; true if it is steady. */
static bool ss_judge(struct wl_ss *ss)
{
	const struct wl_job *job = ss->job;
	double sum = 0, mean;
	unsigned n = ss->n;

	for (unsigned i = 0; i < n; i++)
		sum += ss_value(ss, i);
	mean = sum / n;
	if (job->ss_slope) {
		/* least squares over x = 0..n-1 */
		double sx = 0, sxx = 0, sxy = 0;
		for (unsigned i = 0; i < n; i++) {
			sx += i;
			sxx += (double)i * i;
			sxy += i * ss_value(ss, i);
		}
		double den = sxx - sx * sx / n;
		ss->slope = den > 0 ? (sxy - sx * sum / n) / den : 0;
		ss->criterion =
		    job->ss_pct ? (mean > 0 ? 100.0 * ss->slope / mean : INFINITY) : ss->slope;
		return fabs(ss->criterion) < job->ss_limit;
	}
	ss->deviation = 0;
	for (unsigned i = 0; i < n; i++) {
		double d = fabs(ss_value(ss, i) - mean);
		if (d > ss->deviation)
			ss->deviation = d;
	}
	ss->criterion =
	    job->ss_pct ? (mean > 0 ? 100.0 * ss->deviation / mean : INFINITY) : ss->deviation;
	return ss->criterion < job->ss_limit;
}

/* Take the sample due at @now (under the lock). */
static void ss_sample(struct wl_ss *ss, uint64_t now)
{
	const struct wl_job *job = ss->job;
	uint64_t ios = atomic_load(&ss->ios), bytes = atomic_load(&ss->bytes);
	uint64_t lat = atomic_load(&ss->lat_sum);
	uint64_t dt = now - ss->prev_t;

	/* fio starts collecting one interval after ss_ramp */
	if (now - ss->t0 >= job->ss_ramp_ns + job->ss_interval_ns && dt) {
		unsigned k = (ss->head + ss->filled) % ss->n;
		if (ss->filled == ss->n) {
			k = ss->head;
			ss->head = (ss->head + 1) % ss->n;
		} else {
			ss->filled++;
		}
		ss->iops[k] = (uint64_t)((double)(ios - ss->prev_ios) * 1e9 / (double)dt);
		ss->bw[k] = (uint64_t)((double)(bytes - ss->prev_bytes) * 1e9 / (double)dt);
		ss->lat[k] = ios > ss->prev_ios ? (lat - ss->prev_lat) / (ios - ss->prev_ios) : 0;
		if (ss->filled == ss->n && ss_judge(ss)) {
			ss->attained = true;
			atomic_store(&ss->stop, true);
		}
	}
	ss->prev_t = now;
	ss->prev_ios = ios;
	ss->prev_bytes = bytes;
	ss->prev_lat = lat;
	uint64_t next = atomic_load(&ss->next) + job->ss_interval_ns;
	if (next <= now) /* no completion for a while: sample from now on */
		next = now + job->ss_interval_ns;
	atomic_store(&ss->next, next);
}

bool wl_ss_add(struct wl_ss *ss, uint32_t bytes, uint64_t lat_ns, uint64_t now)
{
	atomic_fetch_add_explicit(&ss->ios, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&ss->bytes, bytes, memory_order_relaxed);
	atomic_fetch_add_explicit(&ss->lat_sum, lat_ns, memory_order_relaxed);
	uint64_t next = atomic_load_explicit(&ss->next, memory_order_relaxed);
	if (next && now >= next && pthread_mutex_trylock(&ss->lock) == 0) {
		if (!ss->attained && now >= atomic_load(&ss->next))
			ss_sample(ss, now);
		pthread_mutex_unlock(&ss->lock);
	}
	return atomic_load_explicit(&ss->stop, memory_order_relaxed);
}

struct wl_ss_report *wl_ss_report(struct wl_ss *ss)
{
	struct wl_ss_report *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->n = ss->n;
	r->iops = calloc(ss->n, sizeof(uint64_t));
	r->bw = calloc(ss->n, sizeof(uint64_t));
	r->lat = calloc(ss->n, sizeof(uint64_t));
	if (!r->iops || !r->bw || !r->lat) {
		wl_ss_report_free(r);
		return NULL;
	}
	pthread_mutex_lock(&ss->lock);
	r->attained = ss->attained;
	r->criterion = ss->criterion;
	r->deviation = ss->deviation;
	r->slope = ss->slope;
	/* oldest first; a window not yet full has its zeros at the end (as fio) */
	for (unsigned i = 0; i < ss->filled; i++) {
		unsigned k = (ss->head + i) % ss->n;
		r->iops[i] = ss->iops[k];
		r->bw[i] = ss->bw[k];
		r->lat[i] = ss->lat[k];
	}
	pthread_mutex_unlock(&ss->lock);
	return r;
}

struct wl_ss_report *wl_ss_report_dup(const struct wl_ss_report *src)
{
	struct wl_ss_report *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	*r = *src;
	r->iops = calloc(src->n, sizeof(uint64_t));
	r->bw = calloc(src->n, sizeof(uint64_t));
	r->lat = calloc(src->n, sizeof(uint64_t));
	if (!r->iops || !r->bw || !r->lat) {
		wl_ss_report_free(r);
		return NULL;
	}
	memcpy(r->iops, src->iops, src->n * sizeof(uint64_t));
	memcpy(r->bw, src->bw, src->n * sizeof(uint64_t));
	memcpy(r->lat, src->lat, src->n * sizeof(uint64_t));
	return r;
}

void wl_ss_report_free(struct wl_ss_report *r)
{
	if (!r)
		return;
	free(r->iops);
	free(r->bw);
	free(r->lat);
	free(r);
}
