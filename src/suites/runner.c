/*
 * runner.c - one suite on one stack, and the one-request worker the MPI
 * farm forks (runner.h, runner_priv.h).
 *
 * The one-request worker is plain fork and a pipe: it runs one request,
 * writes {"result": DOC} or {"error": TEXT} to its pipe and exits; its
 * parent appends what arrives to the job's buffer and parses it at end of
 * file.  A worker that dies without a word gets "the worker died (status
 * S)".  The local pool (pool.c) keeps its workers for many requests.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mpi/rank.h"
#include "results/result.h"
#include "suites/fleet.h"
#include "suites/runner.h"
#include "suites/runner_priv.h"
#include "workload/run.h"

int suite_request_run(const struct suite_request *rq, struct suite_outcome *out)
{
	struct rl_build_ctx ctx = rq->ctx;
	struct suite_run r = {0};
	struct rl_target *t = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	ctx.write_intent = suite_writes(rq->def, &rq->p);
	ctx.default_file_size = suite_need_bytes(rq->def, &rq->p);
	if (rq->fleet) {
		snprintf(rq->fleet->spec, sizeof(rq->fleet->spec), "%s", rq->spec);
		ctx.shared = rq->fleet->offset_per_rank > 0; /* one target, a region per rank */
	}
	rc = rl_target_open(rq->spec, &ctx, &t, &out->spec_err);
	if (rc) {
		out->stage = SUITE_STAGE_SPEC;
		snprintf(out->msg, sizeof(out->msg), "spec: %.400s", out->spec_err.msg);
		suite_fleet_fail(rq->fleet, out->msg);
		return out->rc = rc;
	}
	if (rq->simulated_only && !(rl_target_leaf_caps(t) & RL_CAP_VIRTUAL)) {
		out->stage = SUITE_STAGE_START;
		snprintf(out->msg, sizeof(out->msg), "the spec is not a simulated stack");
		suite_fleet_fail(rq->fleet, out->msg);
		rl_target_close(t);
		return out->rc = -EINVAL;
	}
	r.def = rq->def;
	r.p = rq->p;
	r.t = t;
	r.progress = rq->progress;
	r.progress_arg = rq->progress_arg;
	r.fleet = rq->fleet;
	rc = suite_run_start(&r, rq->force);
	if (rc) {
		out->stage = SUITE_STAGE_START;
		snprintf(out->msg, sizeof(out->msg), "%s", r.msg);
		suite_fleet_fail(rq->fleet, out->msg);
		rl_target_finish(t);
		rl_target_close(t);
		return out->rc = rc;
	}
	out->area_shrunk = r.area_shrunk;
	out->area = r.area;
	if (rq->started)
		rq->started(rq->progress_arg, r.area, r.area_shrunk);
	r.doc = st_result_new(rq->spec, t);
	rc = suite_run(&r, rq->label);
	if (rq->fleet)
		rc = suite_fleet_end(&r, rc);
	out->lost = st_result_target_end(r.doc, t, wl_run_stop_requested());
	rl_target_close(t);
	if (rc) {
		out->stage = SUITE_STAGE_RUN;
		snprintf(out->msg, sizeof(out->msg), "%s", r.msg);
		/* what was lost is kept on record; an interrupted run keeps the tests it
		   finished (the document is marked "interrupted") */
		if (out->lost || (rc == -EINTR && wl_run_stop_requested())) {
			out->doc = r.doc;
		} else {
			json_object_put(r.doc);
		}
		return out->rc = rc;
	}
	out->stage = SUITE_STAGE_DONE;
	out->doc = r.doc;
	return out->rc = 0;
}

/* --- the pool --- */

struct json_object *pool_answer(const struct suite_request *rq)
{
	struct suite_outcome o;
	struct json_object *wrap = json_object_new_object();

	suite_request_run(rq, &o);
	if (o.doc && !o.rc)
		json_object_object_add(wrap, "result", o.doc);
	else {
		json_object_object_add(wrap, "error", json_object_new_string(o.msg));
		json_object_put(o.doc);
	}
	return wrap;
}

int pool_write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t w = write(fd, c, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

static void pool_child(const struct suite_request *rq, int fd)
{
	struct json_object *wrap = pool_answer(rq);
	const char *text = json_object_to_json_string_ext(wrap, JSON_C_TO_STRING_PLAIN);

	if (pool_write_all(fd, text, strlen(text)))
		_exit(3);
	json_object_put(wrap);
	close(fd);
	_exit(0);
}

double pool_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int pool_start(const struct suite_request *rq, struct pool_job *j)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0) {
		int rc = -errno;
		close(p[0]);
		close(p[1]);
		return rc;
	}
	if (!j->pid) {
		close(p[0]);
		if (j->orphan_dies)
			prctl(PR_SET_PDEATHSIG, SIGKILL);
		pool_child(rq, p[1]);
	}
	close(p[1]);
	j->fd = p[0];
	j->started = pool_now();
	/* a fresh buffer: this slot may still name the one of a job moved down
	   from it when another finished (that job owns it now) */
	j->buf = NULL;
	j->len = j->cap = 0;
	return 0;
}

/* Read what is there; 1 at end of file, 0 for more to come, -errno on error. */
int pool_read(struct pool_job *j)
{
	if (j->len + 65536 + 1 > j->cap) {
		size_t cap = j->cap ? j->cap * 2 : 1 << 20;
		char *b = realloc(j->buf, cap);
		if (!b)
			return -ENOMEM;
		j->buf = b;
		j->cap = cap;
	}
	ssize_t n = read(j->fd, j->buf + j->len, j->cap - j->len - 1);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	j->len += (size_t)n;
	return n == 0;
}

void pool_parse(char *buf, size_t len, int status, struct suite_pool_result *res)
{
	struct json_object *wrap = NULL, *v;

	if (!len) {
		snprintf(res->error, sizeof(res->error), "the worker died (status %d)", status);
		return;
	}
	buf[len] = 0;
	wrap = json_tokener_parse(buf);
	if (!wrap)
		snprintf(res->error, sizeof(res->error), "the worker's output is not JSON");
	else if (json_object_object_get_ex(wrap, "result", &v))
		res->doc = json_object_get(v);
	else if (json_object_object_get_ex(wrap, "error", &v))
		snprintf(res->error, sizeof(res->error), "%s", json_object_get_string(v));
	json_object_put(wrap);
}

int pool_reap(struct pool_job *j)
{
	int status = 0;

	close(j->fd);
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

void pool_expire(const struct suite_request *rq, struct pool_job *j, struct suite_pool_result *res)
{
	kill(j->pid, SIGKILL);
	pool_reap(j);
	free(j->buf);
	j->buf = NULL;
	j->cap = j->len = 0;
	res->timed_out = true;
	res->wall_s = pool_now() - j->started;
	snprintf(res->error, sizeof(res->error), "timed out after %g s", rq->timeout_s);
}

int suite_pool_run(const struct suite_request *rq, size_t n, unsigned par,
                   struct suite_pool_result *out, suite_pool_done_fn done, void *arg)
{
	if (rl_mpi_size() > 1)
		return suite_farm_run(rq, n, out, done, arg);
	return pool_run_local(rq, n, par, out, done, arg);
}
