/*
 * pool.c - the local worker pool: requests run in a few long-lived
 * worker processes, one request at a time each (suite_pool_run without
 * MPI).
 *
 * Why workers that live on: a process that has run one point still holds
 * the memory its simulated drives used (core/bigmap.h keeps the tables
 * for reuse), so the next point clears pages instead of faulting fresh
 * ones in (a virtual machine whose host takes back freed memory makes
 * fresh pages slow: advise's 146 PERC points ran about 6 % faster).  A
 * crash still costs one request only: the worker is replaced.
 *
 * Protocol, over two pipes per worker: the parent writes a request's
 * index (8 bytes) on the command pipe; the worker runs rq[index] (the
 * array as it was when the worker was forked; the caller builds it before
 * the pool starts and does not change what a request runs) and writes
 * one frame on its result pipe: the length (8 bytes), then
 * {"result": DOC} or {"error": TEXT}.  End of file on the command pipe
 * ends the worker.  The parent polls every busy worker's result pipe, so a
 * worker never blocks on a full pipe and the first to finish is the first
 * collected.  End of file before a whole frame: the worker died, and the
 * request gets "the worker died (status S)".  A request's timeout is kept
 * by the poll as before: a worker past its deadline is killed and reaped,
 * its result "timed out after N s", and the slot forks a new worker for
 * its next request.
 *
 * A worker closes the parent's ends of every other worker's pipes it
 * inherited, so that each pipe has exactly one reader and one writer and
 * end of file means what it says.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "suites/runner.h"
#include "suites/runner_priv.h"
#include "workload/run.h"

/** One worker process and the request it is running (job.index). */
struct pool_worker {
	struct pool_job job; /* pid 0: no process (not started yet, or gone) */
	int cmd;             /* command pipe, the parent's write end */
	bool busy;
};

/*
 * The index to a worker's command pipe.  A worker that died since its last
 * answer has no reader left there: the write fails with EPIPE, and the
 * SIGPIPE it raises (which would end this process) is blocked and taken.
 */
static int pool_cmd_write(int fd, uint64_t index)
{
	sigset_t pipe_set, old;
	int rc;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	rc = pool_write_all(fd, &index, sizeof(index));
	if (rc && errno == EPIPE && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = {0};
		sigset_t pending;
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* 1: read @len bytes, 0: end of file before any, -1: error or a short read */
static int pool_full_read(int fd, void *p, size_t len)
{
	char *c = p;
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, c + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 && !got ? 0 : -1;
		got += (size_t)r;
	}
	return 1;
}

static void pool_worker_main(const struct suite_request *rq, size_t n, int cmd, int res)
{
	uint64_t index;

	while (pool_full_read(cmd, &index, sizeof(index)) == 1 && index < n) {
		struct json_object *wrap = pool_answer(&rq[index]);
		const char *text = json_object_to_json_string_ext(wrap, JSON_C_TO_STRING_PLAIN);
		uint64_t len = strlen(text);

		if (pool_write_all(res, &len, sizeof(len)) || pool_write_all(res, text, len))
			_exit(3);
		json_object_put(wrap);
	}
	_exit(0);
}

/* Fork the worker of slot @w; the others' parent ends are closed in it. */
static int pool_worker_start(const struct suite_request *rq, size_t n, struct pool_worker *ws,
                             unsigned nw, struct pool_worker *w)
{
	int c[2], r[2];

	if (pipe2(c, O_CLOEXEC))
		return -errno;
	if (pipe2(r, O_CLOEXEC)) {
		int rc = -errno;
		close(c[0]);
		close(c[1]);
		return rc;
	}
	fflush(NULL);
	w->job.pid = fork();
	if (w->job.pid < 0) {
		int rc = -errno;
		close(c[0]);
		close(c[1]);
		close(r[0]);
		close(r[1]);
		w->job.pid = 0;
		return rc;
	}
	if (!w->job.pid) {
		for (unsigned i = 0; i < nw; i++) {
			if (&ws[i] == w || !ws[i].job.pid)
				continue;
			close(ws[i].cmd);
			close(ws[i].job.fd);
		}
		close(c[1]);
		close(r[0]);
		pool_worker_main(rq, n, c[0], r[1]);
	}
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->job.fd = r[0];
	return 0;
}

/* Close the pipes of slot @w and reap its process; its wait status. */
static int pool_worker_end(struct pool_worker *w, bool kill_it)
{
	int status = 0;

	if (!w->job.pid)
		return 0;
	if (kill_it)
		kill(w->job.pid, SIGKILL);
	close(w->cmd);
	status = pool_reap(&w->job);
	w->job.pid = 0;
	return status;
}

/* Hand request @index to slot @w, forking its worker first if it has none. */
static int pool_send(const struct suite_request *rq, size_t n, struct pool_worker *ws, unsigned nw,
                     struct pool_worker *w, size_t index)
{
	int rc;

	if (!w->job.pid && (rc = pool_worker_start(rq, n, ws, nw, w)))
		return rc;
	if (pool_cmd_write(w->cmd, index)) {
		/* the worker is gone (it crashed after its last answer): a new one */
		pool_worker_end(w, true);
		if ((rc = pool_worker_start(rq, n, ws, nw, w)))
			return rc;
		if (pool_cmd_write(w->cmd, index)) {
			pool_worker_end(w, true);
			return -EPIPE;
		}
	}
	w->job.index = index;
	w->job.started = pool_now();
	w->job.len = 0;
	w->busy = true;
	return 0;
}

/* The frame of slot @w is complete?  (Its length, then that many bytes.) */
static bool pool_frame_done(const struct pool_job *j, uint64_t *len)
{
	if (j->len < sizeof(*len))
		return false;
	memcpy(len, j->buf, sizeof(*len));
	return j->len - sizeof(*len) >= *len;
}

/* Collect slot @w's request after @rdrc (pool_read: 1 end of file, -errno). */
static void pool_collect(struct pool_worker *w, int rdrc, struct suite_pool_result *res)
{
	uint64_t len;

	if (pool_frame_done(&w->job, &len)) {
		pool_parse(w->job.buf + sizeof(len), (size_t)len, 0, res);
	} else if (rdrc < 0) {
		pool_worker_end(w, true);
		snprintf(res->error, sizeof(res->error), "reading the worker's result: %s",
		         strerror(-rdrc));
	} else { /* end of file before its whole answer: the worker died */
		int status = pool_worker_end(w, false);
		pool_parse(w->job.buf, 0, status, res);
	}
	res->wall_s = pool_now() - w->job.started;
	w->job.len = 0;
	w->busy = false;
}

/* Milliseconds until the nearest deadline of a busy worker; -1: none. */
static int pool_wait_ms(const struct suite_request *rq, const struct pool_worker *ws, unsigned nw)
{
	double now = pool_now(), least = -1;

	for (unsigned i = 0; i < nw; i++) {
		double lim = ws[i].busy ? rq[ws[i].job.index].timeout_s : 0, left;
		if (lim <= 0)
			continue;
		left = ws[i].job.started + lim - now;
		if (least < 0 || left < least)
			least = left > 0 ? left : 0;
	}
	return least < 0 ? -1 : least > 86400 ? 86400000 : (int)(least * 1000) + 1;
}

/* Slot @w's request ran past its timeout: its worker is killed (pool_expire). */
static void pool_timed_out(const struct suite_request *rq, struct pool_worker *w,
                           struct suite_pool_result *res)
{
	close(w->cmd);
	pool_expire(rq, &w->job, res);
	w->job.pid = 0;
	w->busy = false;
}

int pool_run_local(const struct suite_request *rq, size_t n, unsigned par,
                   struct suite_pool_result *out, suite_pool_done_fn done, void *arg)
{
	struct pool_worker *ws;
	struct pollfd *pfd;
	unsigned *slot;
	size_t next = 0, finished = 0;
	unsigned nw;
	int rc = 0;

	nw = par ? par : 1;
	if (nw > n)
		nw = n ? (unsigned)n : 1;
	ws = calloc(nw, sizeof(*ws));
	pfd = calloc(nw, sizeof(*pfd));
	slot = calloc(nw, sizeof(*slot));
	if (!ws || !pfd || !slot) {
		free(ws);
		free(pfd);
		free(slot);
		return -ENOMEM;
	}
	while (finished < n) {
		unsigned nbusy = 0;

		for (unsigned i = 0; i < nw && next < n; i++) {
			int e;
			if (ws[i].busy)
				continue;
			e = wl_run_stop_requested() ? -ECANCELED
			                            : pool_send(rq, n, ws, nw, &ws[i], next);
			if (e) { /* a stop (Ctrl-C) starts nothing more */
				snprintf(out[next].error, sizeof(out[next].error), "%s%s",
				         e == -ECANCELED ? "not started: "
				                         : "cannot start a worker: ",
				         e == -ECANCELED ? "the run was stopped" : strerror(-e));
				finished++;
				if (done)
					done(arg, next, finished, n);
				next++;
				i--; /* the slot is still free */
				continue;
			}
			next++;
		}
		for (unsigned i = 0; i < nw; i++) {
			if (!ws[i].busy)
				continue;
			slot[nbusy] = i;
			pfd[nbusy++] = (struct pollfd){.fd = ws[i].job.fd, .events = POLLIN};
		}
		if (!nbusy)
			break;
		if (poll(pfd, nbusy, pool_wait_ms(rq, ws, nw)) < 0) {
			if (errno == EINTR)
				continue;
			int e = -errno;
			for (unsigned k = 0; k < nbusy; k++) { /* cannot wait: say so for each */
				pool_collect(&ws[slot[k]], e, &out[ws[slot[k]].job.index]);
				finished++;
			}
			rc = -EIO;
			break;
		}
		for (unsigned k = 0; k < nbusy; k++) {
			struct pool_worker *w = &ws[slot[k]];
			const struct suite_request *r = &rq[w->job.index];
			size_t index = w->job.index;
			uint64_t len;
			int rd = pfd[k].revents ? pool_read(&w->job) : 0;

			if (!rd && pool_frame_done(&w->job, &len))
				rd = 1;
			if (!rd && r->timeout_s > 0 && pool_now() - w->job.started >= r->timeout_s)
				pool_timed_out(r, w, &out[index]);
			else if (!rd)
				continue;
			else
				pool_collect(w, rd, &out[index]);
			finished++;
			if (done)
				done(arg, index, finished, n);
		}
	}
	for (unsigned i = 0; i < nw; i++) {
		pool_worker_end(&ws[i], ws[i].busy);
		free(ws[i].job.buf);
	}
	free(ws);
	free(pfd);
	free(slot);
	return rc ? rc : finished == n ? 0 : -EIO;
}
