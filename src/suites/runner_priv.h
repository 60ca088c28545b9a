/*
 * runner_priv.h - what the suite runner's local pool (runner.c) and its
 * spread over MPI ranks (farm.c) share: one worker process running one
 * request and writing its result to a pipe, and the reading of that
 * result.  Not for use outside suites/.
 */
#ifndef RL_SUITES_RUNNER_PRIV_H
#define RL_SUITES_RUNNER_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "suites/runner.h"

struct json_object;

/** One worker process and what it has written so far. */
struct pool_job {
	size_t index;
	pid_t pid;
	int fd;
	char *buf;
	size_t len, cap;
	bool orphan_dies; /* the worker is killed when its parent dies (a rank's) */
	double started;   /* when it was forked, seconds on CLOCK_MONOTONIC */
};

/** Run @rq here: {"result": DOC} or {"error": TEXT}, what a worker sends back. */
struct json_object *pool_answer(const struct suite_request *rq);

/** Write all @len bytes of @p to @fd (EINTR retried): 0, or -1 with errno set. */
int pool_write_all(int fd, const void *p, size_t len);

/** Fork a worker for @rq; its result comes on j->fd.  0 or -errno. */
int pool_start(const struct suite_request *rq, struct pool_job *j);

/** Read what the worker wrote; 1 at end of file, 0 for more, -errno on error. */
int pool_read(struct pool_job *j);

/** Close the pipe and reap the worker; its wait status. */
int pool_reap(struct pool_job *j);

/** The worker ran past rq->timeout_s: kill and reap it, "timed out after N s" in @res. */
void pool_expire(const struct suite_request *rq, struct pool_job *j, struct suite_pool_result *res);

/** Seconds on CLOCK_MONOTONIC (pool_job.started). */
double pool_now(void);

/**
 * A worker's output (@len bytes of @buf, which has room for a NUL after
 * them) into @res: the result, its error, or why there is neither
 * (@status: the worker's wait status, said when it wrote nothing).
 */
void pool_parse(char *buf, size_t len, int status, struct suite_pool_result *res);

/** The pool on this host alone (suite_pool_run without MPI). */
int pool_run_local(const struct suite_request *rq, size_t n, unsigned par,
                   struct suite_pool_result *out, suite_pool_done_fn done, void *arg);

/**
 * The pool over MPI ranks (suite_pool_run under mpirun with more than one
 * rank; farm.c).  On rank 0 it hands out the requests and returns with
 * every result; on every other rank it computes what it is given and, when
 * rank 0 says the work is done, ends the process (status 0).
 */
int suite_farm_run(const struct suite_request *rq, size_t n, struct suite_pool_result *out,
                   suite_pool_done_fn done, void *arg);

#endif
