/*
 * farm.c - the suite runner's pool spread over MPI ranks (runner_priv.h).
 *
 * Every rank runs the same command, so every rank builds the same list of
 * requests; only an index travels, with the request's fingerprint (suite,
 * spec, label) so a rank whose list differs (another version, another
 * store) answers with an error instead of running the wrong point.
 *
 * Rank 0 hands out the requests one at a time, in the order given (the
 * callers put the longest first), to every rank that is idle, itself
 * included: it runs one request at a time in a local worker process while
 * it listens.  A rank runs its request in a worker process of its own (as
 * the local pool does: a crash in a request leaves the rank alive), sends
 * a heartbeat every second while it runs, and sends back the worker's
 * output as it came from the pipe; rank 0 reads it as the local pool does,
 * so the result is the same whoever ran it.
 *
 * A rank that is silent for RAIDLAB_MPI_TIMEOUT seconds (default 30) is
 * taken for dead: its request goes to the next idle rank.  If it speaks
 * again it was only slow, and whichever result comes first is kept.
 *
 * A request's time limit (timeout_s, read when it is checked, as the
 * local pool reads it) is kept by rank 0 for every rank: a point still
 * running at its limit since it was handed out gets the result "timed
 * out after N s", and its rank is told to abort it (FARM_ABORT with the
 * index: the rank kills its worker and takes the next point); a result
 * that comes after that is a late copy and is dropped.  With
 * Open MPI a killed rank ends the whole job unless mpirun was given
 * --enable-recovery (docs/mpi.md).  When every request has its result,
 * rank 0 tells the others to stop; they end their process (nothing of
 * the command after the pool runs on them: output is rank 0's).
 *
 * No call here blocks in MPI: waits are loops of probes with a short sleep
 * (rank.h says why).
 */
#include <errno.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/rank.h"
#include "suites/runner_priv.h"
#include "workload/run.h"

enum { FARM_TASK = 1, FARM_STOP, FARM_BEAT, FARM_RESULT, FARM_ABORT };

enum { FARM_TODO, FARM_RUNNING, FARM_DONE };

#define FARM_POLL_MS   2
#define FARM_BEAT_S    1.0
#define FARM_TIMEOUT_S 30.0

static void farm_fingerprint(const struct suite_request *rq, char *buf, size_t len)
{
	snprintf(buf, len, "%s\n%s\n%s", rq->def->name, rq->spec, rq->label ? rq->label : "");
}

/* A message from @from with @tag, or any tag (-1): its text (NUL-ended, the
   caller's), NULL when none waits. */
static char *farm_take(int from, int tag, int *src, int *tag_out, size_t *len, double wait_s)
{
	char *msg;

	if (rl_mpi_probe(from, tag, src, tag_out, len) != 1)
		return NULL;
	if (!(msg = malloc(*len + 1)))
		return NULL;
	if (rl_mpi_recv(*src, *tag_out, msg, *len, wait_s)) {
		free(msg);
		return NULL;
	}
	msg[*len] = 0;
	return msg;
}

static bool farm_stop_waiting(void)
{
	int src, tag;
	size_t len;

	return rl_mpi_probe(0, FARM_STOP, &src, &tag, &len) == 1;
}

/* Has rank 0 told this rank to abort point @index (its time limit)? */
static bool farm_abort_waiting(size_t index)
{
	int src, tag;
	size_t len;
	bool mine = false;
	char *msg;

	while (!mine && (msg = farm_take(0, FARM_ABORT, &src, &tag, &len, 60))) {
		mine = strtoull(msg, NULL, 10) == index;
		free(msg);
	}
	return mine;
}

/* --- a computing rank --- */

/* The request rank 0 means: the one at @index if its fingerprint agrees, else any that does. */
static long farm_find(const struct suite_request *rq, size_t n, size_t index, const char *fp)
{
	char mine[8192];

	for (size_t k = 0; k <= n; k++) {
		size_t i = k == 0 ? index : k - 1;
		if (i >= n)
			continue;
		farm_fingerprint(&rq[i], mine, sizeof(mine));
		if (!strcmp(mine, fp))
			return (long)i;
	}
	return -1;
}

/* Send and wait until it has gone; 1 when rank 0 said stop meanwhile. */
static int farm_send_wait(int tag, const char *buf, size_t len)
{
	struct rl_mpi_send *s;
	int rc;

	if (rl_mpi_isend(0, tag, buf, len, &s))
		return 1;
	while (!(rc = rl_mpi_test(s))) {
		if (farm_stop_waiting()) {
			rl_mpi_cancel(s);
			return 1;
		}
		poll(NULL, 0, FARM_POLL_MS);
	}
	return rc < 0;
}

/*
 * Run request @index in a worker process, beating while it runs; the
 * message for rank 0 ("INDEX STATUS\n" and the worker's output) into
 * *@text.  1 when rank 0 said stop meanwhile, 2 when it said abort this
 * point (the worker is killed).
 */
static int farm_compute(const struct suite_request *rq, size_t index, char **text, size_t *len)
{
	struct pool_job j = {.orphan_dies = true};
	struct rl_mpi_send *beat = NULL;
	double last = pool_now();
	char head[64];
	int rc = pool_start(rq, &j), status, hl;

	while (!rc) {
		struct pollfd p = {.fd = j.fd, .events = POLLIN};
		if (poll(&p, 1, 200) > 0 && (rc = pool_read(&j)))
			break;
		if (beat && rl_mpi_test(beat))
			beat = NULL;
		if (!beat && pool_now() - last >= FARM_BEAT_S) {
			hl = snprintf(head, sizeof(head), "%zu", index);
			if (!rl_mpi_isend(0, FARM_BEAT, head, (size_t)hl, &beat))
				last = pool_now();
		}
		bool stop = farm_stop_waiting();
		if (stop || farm_abort_waiting(index)) {
			kill(j.pid, SIGKILL);
			pool_reap(&j);
			free(j.buf);
			rl_mpi_cancel(beat);
			return stop ? 1 : 2;
		}
	}
	rl_mpi_cancel(beat);
	status = rc ? pool_reap(&j) : -1; /* -1: the worker never started */
	if (rc < 0)
		j.len = 0;
	hl = snprintf(head, sizeof(head), "%zu %d\n", index, status);
	*text = malloc((size_t)hl + j.len + 1);
	if (*text) {
		memcpy(*text, head, (size_t)hl);
		memcpy(*text + hl, j.buf ? j.buf : "", j.len);
		*len = (size_t)hl + j.len;
	}
	free(j.buf);
	return 0;
}

static void farm_reply_error(size_t index, const char *why)
{
	struct json_object *wrap = json_object_new_object();
	char *text = NULL;

	json_object_object_add(wrap, "error", json_object_new_string(why));
	if (asprintf(&text, "%zu 0\n%s", index,
	             json_object_to_json_string_ext(wrap, JSON_C_TO_STRING_PLAIN)) > 0)
		farm_send_wait(FARM_RESULT, text, strlen(text));
	free(text);
	json_object_put(wrap);
}

static void farm_worker(const struct suite_request *rq, size_t n)
{
	for (;;) {
		int src, tag;
		size_t len, index;
		char *msg = farm_take(0, -1, &src, &tag, &len, 3600), *fp;
		if (!msg) {
			poll(NULL, 0, FARM_POLL_MS);
			continue;
		}
		if (tag == FARM_STOP) {
			free(msg);
			break;
		}
		/* (an abort of a point that ended before it came: nothing to do) */
		index = strtoull(msg, &fp, 10);
		if (tag == FARM_TASK && *fp == '\n') {
			long k = farm_find(rq, n, index, fp + 1);
			char *text = NULL;
			size_t tlen = 0;
			int stopped = 0;
			if (k < 0)
				farm_reply_error(index,
				                 "this rank's list of points differs from "
				                 "rank 0's (another raidlab, other profiles?)");
			else if (!(stopped = farm_compute(&rq[k], index, &text, &tlen)) && text)
				stopped = farm_send_wait(FARM_RESULT, text, tlen);
			free(text);
			stopped = stopped == 1;
			if (stopped) {
				free(msg);
				break;
			}
		}
		free(msg);
	}
	rl_mpi_finalize();
	fflush(NULL);
	_exit(0);
}

/* --- rank 0 --- */

struct farm_rank {
	bool busy, lost;
	size_t index;
	double heard;
	double started; /* when its point was handed out */
	size_t aborted; /* the point it was told to abort (SIZE_MAX: none) */
	struct rl_mpi_send *task, *abort;
};

struct farm {
	const struct suite_request *rq;
	size_t n, finished;
	struct suite_pool_result *out;
	suite_pool_done_fn done;
	void *arg;
	unsigned char *st;
	struct farm_rank *rk;
	int size;
	struct pool_job local;
	bool local_busy;
	double timeout;
};

static void farm_collect(struct farm *f, size_t index, struct suite_pool_result *res)
{
	if (f->st[index] == FARM_DONE) { /* a late copy: the first result stands */
		json_object_put(res->doc);
		return;
	}
	f->out[index] = *res;
	f->st[index] = FARM_DONE;
	f->finished++;
	if (f->done)
		f->done(f->arg, index, f->finished, f->n);
}

/* The next request to hand out, or -1; after a stop, every one not started fails. */
static long farm_next(struct farm *f)
{
	for (size_t i = 0; i < f->n; i++) {
		if (f->st[i] != FARM_TODO)
			continue;
		if (!wl_run_stop_requested())
			return (long)i;
		struct suite_pool_result res = {0};
		snprintf(res.error, sizeof(res.error), "not started: the run was stopped");
		farm_collect(f, i, &res);
	}
	return -1;
}

static void farm_hand_out(struct farm *f)
{
	char fp[8192], *msg = NULL;
	long k;

	for (int r = 1; r < f->size; r++) {
		struct farm_rank *rk = &f->rk[r];
		if (rk->busy || rk->lost || (k = farm_next(f)) < 0)
			continue;
		farm_fingerprint(&f->rq[k], fp, sizeof(fp));
		if (asprintf(&msg, "%ld\n%s", k, fp) < 0)
			return;
		if (rk->task && rl_mpi_test(rk->task) == 0)
			rl_mpi_cancel(rk->task);
		rk->task = NULL;
		if (!rl_mpi_isend(r, FARM_TASK, msg, strlen(msg), &rk->task)) {
			rk->busy = true;
			rk->index = (size_t)k;
			rk->heard = rk->started = pool_now();
			f->st[k] = FARM_RUNNING;
		}
		free(msg);
	}
	if (!f->local_busy && (k = farm_next(f)) >= 0) {
		int rc = pool_start(&f->rq[k], &f->local);
		if (rc) {
			struct suite_pool_result res = {0};
			snprintf(res.error, sizeof(res.error), "cannot start a worker: %s",
			         strerror(-rc));
			farm_collect(f, (size_t)k, &res);
			return;
		}
		f->local.index = (size_t)k;
		f->local_busy = true;
		f->st[k] = FARM_RUNNING;
	}
}

/* Heartbeats and results from the ranks. */
static void farm_listen(struct farm *f)
{
	int src, tag;
	size_t len;
	char *msg, *body;

	while ((msg = farm_take(-1, -1, &src, &tag, &len, f->timeout))) {
		struct farm_rank *rk = src > 0 && src < f->size ? &f->rk[src] : NULL;
		size_t index = strtoull(msg, &body, 10);
		if (rk && index == rk->aborted) { /* still about the point it was told to drop */
			free(msg);
			continue;
		}
		if (rk && index < f->n) {
			rk->heard = pool_now();
			if (rk->lost)
				fprintf(stderr, "raidlab: rank %d is back\n", src);
			rk->lost = false;
			rk->busy = tag == FARM_BEAT;
			rk->index = index;
			if (tag == FARM_BEAT && f->st[index] == FARM_TODO)
				f->st[index] = FARM_RUNNING; /* back: its point is its own again */
		}
		if (rk && index < f->n && tag == FARM_RESULT && *body == ' ') {
			struct suite_pool_result res = {0};
			int status = (int)strtol(body + 1, &body, 10);
			if (*body == '\n')
				body++;
			pool_parse(body, len - (size_t)(body - msg), status, &res);
			res.wall_s = pool_now() - rk->started;
			farm_collect(f, index, &res);
		}
		free(msg);
	}
}

/* Is another rank (or rank 0's worker) still running point @index? */
static bool farm_held(const struct farm *f, size_t index)
{
	if (f->local_busy && f->local.index == index)
		return true;
	for (int r = 1; r < f->size; r++)
		if (f->rk[r].busy && !f->rk[r].lost && f->rk[r].index == index)
			return true;
	return false;
}

/* Rank @r's point ran past its time limit: its result says so, the rank drops it. */
static void farm_expire(struct farm *f, int r, double now)
{
	struct farm_rank *rk = &f->rk[r];
	struct suite_pool_result res = {.timed_out = true, .wall_s = now - rk->started};
	char text[32];

	snprintf(res.error, sizeof(res.error), "timed out after %g s", f->rq[rk->index].timeout_s);
	farm_collect(f, rk->index, &res);
	snprintf(text, sizeof(text), "%zu", rk->index);
	if (rk->abort && rl_mpi_test(rk->abort) == 0)
		rl_mpi_cancel(rk->abort);
	rk->abort = NULL;
	rl_mpi_isend(r, FARM_ABORT, text, strlen(text), &rk->abort);
	rk->aborted = rk->index;
	rk->busy = false;
}

/*
 * A busy rank past its point's time limit is told to drop it; one silent
 * for too long is taken for dead: its point goes back in the queue.
 */
static void farm_watch(struct farm *f)
{
	double now = pool_now();

	for (int r = 1; r < f->size; r++) {
		struct farm_rank *rk = &f->rk[r];
		double lim = rk->busy ? f->rq[rk->index].timeout_s : 0;
		if (lim > 0 && !rk->lost && now - rk->started >= lim &&
		    f->st[rk->index] != FARM_DONE) {
			farm_expire(f, r, now);
			continue;
		}
		if (!rk->busy || rk->lost || now - rk->heard < f->timeout)
			continue;
		rk->lost = true;
		rk->busy = false;
		fprintf(stderr,
		        "raidlab: rank %d has been silent for %.0f s: taken for dead, its point "
		        "goes to another rank\n",
		        r, now - rk->heard);
		if (f->st[rk->index] == FARM_RUNNING && !farm_held(f, rk->index))
			f->st[rk->index] = FARM_TODO;
	}
}

/* Rank 0's own worker: wait up to a poll interval for it, collect it when done. */
static void farm_local(struct farm *f)
{
	struct pollfd p = {.fd = f->local.fd, .events = POLLIN};
	struct suite_pool_result res = {0};
	int rc;

	if (!f->local_busy) {
		poll(NULL, 0, FARM_POLL_MS);
		return;
	}
	const struct suite_request *rq = &f->rq[f->local.index];
	if (poll(&p, 1, FARM_POLL_MS) <= 0 || !(rc = pool_read(&f->local))) {
		if (rq->timeout_s > 0 && pool_now() - f->local.started >= rq->timeout_s) {
			pool_expire(rq, &f->local, &res);
			f->local_busy = false;
			farm_collect(f, f->local.index, &res);
		}
		return;
	}
	res.wall_s = pool_now() - f->local.started;
	int status = pool_reap(&f->local);
	if (rc < 0)
		snprintf(res.error, sizeof(res.error), "reading the worker's result: %s",
		         strerror(-rc));
	else
		pool_parse(f->local.buf, f->local.len, status, &res);
	free(f->local.buf);
	f->local_busy = false;
	farm_collect(f, f->local.index, &res);
}

/* Tell every other rank to stop; give each message a moment to leave. */
static void farm_stop_all(struct farm *f)
{
	for (int r = 1; r < f->size; r++) {
		struct rl_mpi_send *s = NULL;
		rl_mpi_cancel(f->rk[r].task);
		if (f->rk[r].abort && rl_mpi_test(f->rk[r].abort) == 0)
			rl_mpi_cancel(f->rk[r].abort);
		if (rl_mpi_isend(r, FARM_STOP, "", 0, &s))
			continue;
		for (int i = 0; i < 500; i++) {
			int rc = rl_mpi_test(s);
			if (rc) {
				s = NULL;
				break;
			}
			poll(NULL, 0, FARM_POLL_MS);
		}
		rl_mpi_cancel(s); /* a dead rank's: left behind */
	}
}

int suite_farm_run(const struct suite_request *rq, size_t n, struct suite_pool_result *out,
                   suite_pool_done_fn done, void *arg)
{
	struct farm f = {.rq = rq, .n = n, .out = out, .done = done, .arg = arg};
	const char *t = getenv("RAIDLAB_MPI_TIMEOUT");

	if (rl_mpi_rank() > 0)
		farm_worker(rq, n); /* does not return */
	f.size = rl_mpi_size();
	f.local.orphan_dies = true;
	f.timeout = t && atof(t) > 0 ? atof(t) : FARM_TIMEOUT_S;
	f.st = calloc(n ? n : 1, 1);
	f.rk = calloc((size_t)f.size, sizeof(*f.rk));
	if (!f.st || !f.rk) {
		free(f.st);
		free(f.rk);
		return -ENOMEM;
	}
	for (int r = 0; r < f.size; r++)
		f.rk[r].aborted = SIZE_MAX;
	while (f.finished < n) {
		farm_hand_out(&f);
		farm_listen(&f);
		farm_local(&f);
		farm_watch(&f);
	}
	farm_stop_all(&f);
	free(f.st);
	free(f.rk);
	return 0;
}
