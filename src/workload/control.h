/*
 * control.h - controls that steer a running job by what it measures: fio's
 * flow (jobs kept in a ratio), latency_target (a queue depth search) and
 * steady state (a job ends when its rate holds).
 *
 * Each is a small state machine the job engine (run.c) feeds from its
 * completion path; none does I/O or reads a clock itself, so the same code
 * serves real and simulated time and can be driven by unit tests.
 *
 *   - flow: the jobs of one flow_id share a counter of issued I/Os and the
 *     sum of their weights.  A job whose share of the counter is above its
 *     share of the weights is "ahead" and waits; otherwise its I/O counts.
 *     A job that ends takes its I/Os and weight out again (as fio), so the
 *     others go on alone.
 *   - latency search: fio's algorithm.  The depth starts at 1; after each
 *     latency_window the share of I/Os that completed within the target
 *     decides: success doubles the depth (or bisects towards the lowest
 *     depth that failed), failure halves it towards the highest that
 *     held.  When a success leaves the depth unchanged the search is over:
 *     statistics restart and one more window runs at that depth, then the
 *     job ends (latency_run keeps searching instead).  With
 *     latency_percentile=100 a single late I/O fails the window at once.
 *   - steady state: one sample of IOPS, bandwidth and mean latency per
 *     ss_interval (after ss_ramp and one interval more, as fio), kept in a
 *     ring of ss_dur / ss_interval samples.  Once the ring is full, each
 *     sample re-judges it: the largest deviation from the mean (iops, bw,
 *     lat) or the least squares slope (*_slope), as an absolute value or a
 *     percentage of the mean, below the limit means steady state.  Several
 *     workers may share one (a job's clones with group_reporting): they add
 *     their figures with atomics, and whichever crosses a sample time first
 *     takes the sample under a lock.
 */
#ifndef RL_WORKLOAD_CONTROL_H
#define RL_WORKLOAD_CONTROL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "workload/job.h"

/* --- flow --- */

#define WL_FLOW_MAX 64 /* flow groups (distinct flow_id values) in one run */

struct wl_flow {
	uint32_t id;
	_Atomic uint64_t counter;    /* I/Os of the group's jobs, plus one (as fio) */
	_Atomic uint64_t weight;     /* sum of the weights of the jobs in the group */
	_Atomic uint64_t last_begin; /* wall clock: when the last job of the group began */
};

struct wl_flow_set {
	struct wl_flow flows[WL_FLOW_MAX];
	unsigned n;
};

/**
 * The group @id of @set for a job of weight @weight (its weight is added);
 * NULL if the set is full.  Not thread-safe: call before the workers start.
 */
struct wl_flow *wl_flow_join(struct wl_flow_set *set, uint32_t id, uint32_t weight);

/**
 * Is the job (weight @weight, *@mine I/Os so far) ahead of its share?  If
 * not, its next I/O is counted (*@mine and the group's counter go up).
 */
bool wl_flow_ahead(struct wl_flow *f, uint32_t weight, uint64_t *mine);

/** The job ends: its I/Os and weight leave the group. */
void wl_flow_leave(struct wl_flow *f, uint32_t weight, uint64_t mine);
/*
 * A job of the group began issuing at wall-clock @now.  A job that began
 * late (its thread got a core later on a busy machine) would otherwise run
 * alone after the others' deadlines, outside the group's proportions; the
 * group's jobs on real clocks end together instead: wl_flow_deadline().
 */
void wl_flow_begin(struct wl_flow *f, uint64_t now);
/** When a job of @f measuring @span after its begin ends: the latest begin plus @span. */
uint64_t wl_flow_deadline(const struct wl_flow *f, uint64_t span);

/* --- latency target --- */

enum wl_lat_step {
	WL_LAT_GO = 0, /* nothing changes */
	WL_LAT_DEPTH,  /* the depth changed (qd) */
	WL_LAT_FINAL,  /* settled: restart the statistics, run one window more */
	WL_LAT_DONE,   /* the final window is over: end the job */
	WL_LAT_FAIL,   /* the target cannot be met even at depth 1 */
};

struct wl_lat_search {
	unsigned qd, lo, hi, max; /* current depth, last good, last bad (or max), iodepth */
	unsigned stable;          /* successes in a row one below hi */
	bool end_run;             /* in the final window */
	bool keep_going;          /* latency_run */
	uint64_t target_ns, window_ns;
	double pct;
	uint64_t cycle_start; /* the window began here; I/Os submitted before do not count */
	uint64_t ios, late;   /* completions in this window, and those above the target */
};

void wl_lat_init(struct wl_lat_search *ls, const struct wl_job *job, uint64_t now);

/**
 * One completion of an I/O submitted at @submitted, taking @lat_ns, at
 * @now.  Returns what the engine must do; the depth to keep is ls->qd.
 */
enum wl_lat_step wl_lat_complete(struct wl_lat_search *ls, uint64_t submitted, uint64_t lat_ns,
                                 uint64_t now);

/* --- steady state --- */

/** What is reported (fio's "steadystate" block). */
struct wl_ss_report {
	bool attained;
	double criterion;          /* the last judged value (percent of the mean if ss_pct) */
	double deviation;          /* largest deviation from the mean (non-slope criteria) */
	double slope;              /* least squares slope (slope criteria) */
	unsigned n;                /* samples in the window */
	uint64_t *iops, *bw, *lat; /* n samples each, oldest first (bytes/s, ns) */
};

struct wl_ss {
	const struct wl_job *job;
	_Atomic uint64_t ios, bytes, lat_sum; /* counted completions so far */
	_Atomic uint64_t next;                /* time of the next sample (0: not started) */
	atomic_bool stop;                     /* attained: the workers stop issuing */
	pthread_mutex_t lock;                 /* one sampler at a time */
	uint64_t t0, prev_t, prev_ios, prev_bytes, prev_lat;
	unsigned n, head, filled; /* ring size, oldest sample, samples in it */
	uint64_t *iops, *bw, *lat;
	double criterion, deviation, slope;
	bool attained;
};

/** Set up for @job (ss_dur > 0).  0 or -ENOMEM. */
int wl_ss_init(struct wl_ss *ss, const struct wl_job *job);
void wl_ss_free(struct wl_ss *ss);

/** A worker sharing @ss starts at @now (the first one starts the clock). */
void wl_ss_start(struct wl_ss *ss, uint64_t now);

/** A counted completion at @now; takes a sample when one is due.  True when attained. */
bool wl_ss_add(struct wl_ss *ss, uint32_t bytes, uint64_t lat_ns, uint64_t now);

/** The report as it stands (arrays allocated; free with wl_ss_report_free). */
struct wl_ss_report *wl_ss_report(struct wl_ss *ss);
struct wl_ss_report *wl_ss_report_dup(const struct wl_ss_report *r);
void wl_ss_report_free(struct wl_ss_report *r);

#endif
