/*
 * sweep.h - a matrix of target specs x workloads, run in parallel and kept
 * in a result store so that nothing is measured twice.
 *
 * A plan is built from target texts with alternatives (expand.h) and a
 * list of workloads; every expansion meets every workload as one point.
 * The axes of all texts are merged by name, so two texts that both vary
 * "chunk" share the axis.  Then, in order:
 *
 *   sw_plan_check   opens each spec once as the run would (no I/O) and
 *                   marks the ones that do not open as skipped, with the
 *                   reason (raid6 of 3 members, a chunk the level refuses);
 *   sw_plan_load    takes every point already in the store (and a point
 *                   that timed out before, as failed, unless the limit is
 *                   now larger: see below);
 *   sw_plan_run     runs the rest in the suite runner's worker pool
 *                   (suites/runner.h), writing each result to the store as
 *                   soon as it is collected, so Ctrl-C loses only the
 *                   points that were running.  A stop request (Ctrl-C)
 *                   starts nothing more; interrupted results are dropped.
 *
 * The store is a directory of KEY.json files.  KEY is a 64-bit FNV-1a hash
 * (16 hex digits) of everything a figure depends on: the expanded spec,
 * the workload's name and parameters, raidlab's version, and the contents
 * of every drive and controller profile raidlab can see (a profile that
 * changes invalidates every point, which is the safe side).  A sweep that
 * is extended (one more alternative) finds the old points by their keys.
 *
 * A workload is a suite with its parameters, a fio job file or a recorded
 * trace (workload.c: a file becomes a suite made at run time, whose tests
 * are its jobs), or the rebuild of a member (rebuild.c); a file's contents,
 * and the rebuild's method, are part of their points' keys.
 *
 * A point that runs past its timeout is killed and failed ("timed out after
 * N s"), and the store keeps that: a later run takes it as failed without
 * running it, unless its limit is larger than N (or none), so a hang costs
 * its time once.  The default limit (SW_TIMEOUT_AUTO) follows the points
 * of the same workload that finished, here or in the store (wall_s).
 *
 * The output document (sw_plan_json, docs/sweep.md): kind "sweep", the
 * axes, every point with its axes' values, spec, workload, usable
 * capacity, failures survived and the suite result, and the skipped and
 * failed points with their reasons.  report/sweep.h reads it back.
 */
#ifndef RL_SWEEP_SWEEP_H
#define RL_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/spec.h"
#include "suites/suite.h"

struct json_object;

enum sw_workload_kind {
	SW_WORKLOAD_SUITE,   /* a block suite: cdm5, atto ... */
	SW_WORKLOAD_JOBFILE, /* a fio job file: each job is a test */
	SW_WORKLOAD_TRACE,   /* a trace (docs/traces.md), replayed at its recorded times */
	SW_WORKLOAD_REBUILD, /* the rebuild of member 0 (rebuild.c) */
};

struct sw_file;

struct sw_workload {
	enum sw_workload_kind kind;
	char name[64];
	const struct suite_def *def;
	struct suite_params p;
	struct sw_file *file; /* job file or trace: its jobs (sw_workload_free) */
	uint64_t content;     /* job file or trace: hash of its contents, part of the key */
};

/**
 * Make @w from the job file or trace at @path (a trace if it parses as one).
 * 0, or a negative errno with @msg naming the file (and line).
 */
int sw_workload_file(struct sw_workload *w, const char *path, char *msg, size_t msglen);
void sw_workload_free(struct sw_workload *w);

/* The part of member 0 a rebuild point walks; the rest is estimated (rebuild.c). */
#define SW_REBUILD_SLICE (8ull << 30)
/**
 * Make @w the rebuild of member 0 (its spec should fail it: failed=0): one
 * test, "rebuild", with the walk's write figure and a "rebuild" object
 * holding the estimated time for the whole member (estimate_s).
 */
void sw_workload_rebuild(struct sw_workload *w);
/** The store's hash (FNV-1a, 64 bits) of @len bytes. */
uint64_t sw_content_hash(const void *data, size_t len);

enum sw_state {
	SW_PENDING, /* to run */
	SW_STORED,  /* found in the store */
	SW_RAN,     /* measured now */
	SW_SKIPPED, /* the spec is not a valid stack (reason) */
	SW_FAILED,  /* the run failed or was interrupted (reason) */
};

struct sw_point {
	char *spec;
	char *label;   /* the configuration's name: the axes' values, or the spec */
	size_t target; /* index of the target text it came from */
	size_t workload;
	char **values; /* one per plan axis, NULL where the point is not on it */
	char key[17];
	enum sw_state state;
	char reason[512];
	struct json_object *result; /* the suite result (SW_STORED, SW_RAN) */
	uint64_t capacity;          /* usable bytes (target.size_bytes) */
	int survives;               /* member failures the stack survives for sure */
	double wall_s;              /* how long its run took (0: not known) */
};

/* sw_plan.timeout_s: derived from the points finished so far (sw_timeout) */
#define SW_TIMEOUT_AUTO  (-1.0)
#define SW_TIMEOUT_FIRST 1800.0 /* auto, while no point of the workload has finished */
#define SW_TIMEOUT_MIN   30.0   /* auto, the least it gives */
#define SW_TIMEOUT_TIMES 10.0   /* auto: this many times the slowest finished point */

struct sw_plan {
	size_t naxes;
	char **axes;
	struct sw_point *pts;
	size_t n;
	const struct sw_workload *wl;
	size_t nwl;
	const char *store; /* directory; NULL: no store */
	bool simulated_only;
	uint64_t salt;    /* version and profiles, part of every key */
	double timeout_s; /* per point, wall-clock seconds; 0: none; SW_TIMEOUT_AUTO */
};

/**
 * The limit a point of a workload runs under: @pl's fixed timeout, or
 * (SW_TIMEOUT_AUTO) SW_TIMEOUT_TIMES x @slowest, the longest a point of
 * the same workload took, but at least SW_TIMEOUT_MIN; SW_TIMEOUT_FIRST
 * while @slowest is 0 (none finished).  0: no limit.
 */
double sw_timeout(const struct sw_plan *pl, double slowest);

/**
 * Build @pl from @ntargets texts with alternatives and @nwl workloads
 * (borrowed; they must outlive the plan).  0, or -EINVAL with @err set and
 * *@bad the index of the text at fault, or -ENOMEM.
 */
int sw_plan_build(struct sw_plan *pl, const char *const *targets, size_t ntargets,
                  const struct sw_workload *wl, size_t nwl, struct rl_err *err, size_t *bad);

/** Mark the points whose spec does not open as skipped (reason: the spec error). */
void sw_plan_check(struct sw_plan *pl);

/** Take every pending point found in the store; returns how many. */
size_t sw_plan_load(struct sw_plan *pl);

/** Progress of a run: points done and to do, seconds so far. */
typedef void (*sw_progress_fn)(void *arg, const struct sw_point *pt, size_t done, size_t total,
                               double elapsed_s);

/**
 * Run the pending points, @par at a time, longest first.  0 (some may have
 * failed: SW_FAILED), or a negative errno when the pool could not run.
 */
int sw_plan_run(struct sw_plan *pl, unsigned par, sw_progress_fn fn, void *arg);

/** Points in state @st. */
size_t sw_plan_count(const struct sw_plan *pl, enum sw_state st);

/** The sweep document (see above); the caller owns it. */
struct json_object *sw_plan_json(const struct sw_plan *pl);

/**
 * Every point as CSV: one row per point x test x direction with the axes'
 * values as columns, then spec, workload, capacity, failures survived,
 * MB/s, IOPS, mean and p99 latency.
 */
void sw_plan_csv(const struct sw_plan *pl, FILE *f);

void sw_plan_free(struct sw_plan *pl);

/**
 * Member failures a stack survives whatever members fail, from its result
 * tree (target.tree): a mirror of N copies N-1, raid5 1, raid6 2, a stripe
 * the least of its members; one failure more than that may lose data.
 */
int sw_tree_survives(struct json_object *tree);

#endif
