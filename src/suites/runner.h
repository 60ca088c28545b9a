/*
 * runner.h - the one way to run a suite on a stack, and a pool of worker
 * processes that runs many such requests at once.
 *
 * suite_request_run() is what `raidlab run SUITE --target SPEC` does for
 * one target: open the stack with the suite's write intent and test-file
 * size, check the test area, run the suite, finish the stack (created test
 * files removed) and record its final counters, an interruption and any
 * acknowledged data it lost in the result, close it.  Every command that
 * runs suites (run, validate, demo; sweep and MPI later) goes through it,
 * so they cannot disagree about what a run is.
 *
 * suite_pool_run() runs a list of requests in up to @par worker processes
 * at once (fork; one request per process, so a crash or a leak in one
 * cannot touch the others or the caller).  A worker sends its result (or
 * its error) back over a pipe as JSON; the pool reads every pipe as data
 * arrives (poll), so a large result never blocks its worker and whichever
 * finishes first is collected first.  Requests are started in the order
 * given: put the longest first.  Results land in the slot of their request,
 * so the outcome does not depend on @par or on timing.  Once a stop is
 * requested (wl_run_request_stop, Ctrl-C) no further request is started:
 * those get the error "not started: the run was stopped".  A request with a
 * timeout_s that is still running at that age is killed (SIGKILL) and
 * gets the error "timed out after N s"; the others go on.
 */
#ifndef RL_SUITES_RUNNER_H
#define RL_SUITES_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/spec.h"
#include "suites/suite.h"

struct json_object;

/** One suite on one stack. */
struct suite_request {
	const struct suite_def *def; /* the suite */
	struct suite_params p;       /* its parameters (def->defaults, then options) */
	const char *spec;            /* the target spec */
	const char *label;           /* the configuration's name in the result */
	struct rl_build_ctx ctx;     /* how to open it (force-destroy, keep, quiet); the
	                                runner sets write intent and the test-file size */
	bool force;                  /* a target smaller than the test area: use all of it */
	bool simulated_only;         /* refuse a stack that is not simulated */
	void (*progress)(void *arg, const struct suite_progress *p); /* may be NULL */
	/** Called once the test area is settled, before the first test; may be NULL. */
	void (*started)(void *arg, uint64_t area, bool area_shrunk);
	void *progress_arg; /* for both */
	/** The pool kills the worker after this many wall-clock seconds (0: no
	    limit).  Read while the request runs, so a done callback may change
	    it for requests still running. */
	double timeout_s;
	/** Under mpirun: run in lockstep with every rank (suite_fleet.c); NULL: alone. */
	struct fleet *fleet;
};

/** Where a request stopped. */
enum suite_stage {
	SUITE_STAGE_DONE,  /* it ran (doc holds the result; lost may be set) */
	SUITE_STAGE_SPEC,  /* the spec did not open (spec_err) */
	SUITE_STAGE_START, /* the suite refused the stack (size, area, not simulated) */
	SUITE_STAGE_RUN,   /* the suite failed while running (msg) */
};

/** What became of a request. */
struct suite_outcome {
	enum suite_stage stage;
	int rc;                  /* 0, or the negative errno of the failure */
	struct json_object *doc; /* the result: set when the suite ran to its end, and
	                            also for a run that lost acknowledged data */
	struct rl_err spec_err;  /* SUITE_STAGE_SPEC: position and message */
	unsigned long long lost; /* bytes of acknowledged writes the stack lost */
	bool area_shrunk;        /* force used a target smaller than the area */
	uint64_t area;           /* the test area used, bytes */
	char msg[512];           /* SUITE_STAGE_START/RUN: why */
};

/**
 * Run @rq; @out says how it went (out->doc is the caller's).  Returns
 * out->rc: 0 when the suite ran (even if the stack lost data: out->lost).
 */
int suite_request_run(const struct suite_request *rq, struct suite_outcome *out);

/** One request's result from the pool. */
struct suite_pool_result {
	struct json_object *doc; /* the result, or NULL (error says why) */
	char error[512];
	bool timed_out; /* killed at its timeout_s ("timed out after N s") */
	double wall_s;  /* seconds from its start to its collection */
};

/** Called after each request is collected: its index, and how many are done. */
typedef void (*suite_pool_done_fn)(void *arg, size_t index, size_t done, size_t total);

/**
 * Run @n requests, at most @par at a time, in @par worker processes that
 * run one request after another (pool.c; a worker that dies is replaced
 * and costs only its request); results
 * into @out[i] (zeroed by the caller).  0, or a negative errno when the pool
 * itself could not run (a request's failure is in its result, not here).
 * Requests run with stdout and stderr of the caller; a progress callback in
 * a request is not called across the process boundary.
 */
int suite_pool_run(const struct suite_request *rq, size_t n, unsigned par,
                   struct suite_pool_result *out, suite_pool_done_fn done, void *arg);

#endif
