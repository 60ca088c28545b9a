/*
 * exec.c - the parts of an executor every backend shares: the ready queue,
 * the timer heap, the child request pool and its wait list, and the loop
 * turn that ties them together (rl_exec_run_once).
 *
 * A loop turn delivers, in order: everything on the ready queue (including
 * what callbacks add while it runs: the queue is detached first, so a turn
 * is bounded), every timer that is due, then backend completions.  When
 * nothing was delivered and the caller asked to block, the backend waits
 * (real clock: io_uring wait with a timeout at the next timer; virtual
 * clock: the clock jumps to the next timer), never longer than wake_ns
 * when the owner set it (so it can look at a stop flag).  A timer set with
 * rl_exec_at_wait is a modelled wait (a link's bandwidth, a delay): the
 * owner can cut every such wait short (rl_exec_cut) when a run stops, so a
 * request held for hours of modelled time does not hold the run.
 *
 * The backends are in exec_real.c (io_uring and psync) and exec_virtual.c.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/exec_backend.h"

const char *rl_exec_kind_name(enum rl_exec_kind kind)
{
	switch (kind) {
	case RL_EXEC_URING:
		return "io_uring";
	case RL_EXEC_PSYNC:
		return "psync";
	case RL_EXEC_VIRTUAL:
		return "virtual";
	case RL_EXEC_LIBAIO:
		return "libaio";
	case RL_EXEC_POSIXAIO:
		return "posixaio";
	}
	return "?";
}

/* --- the executors that exist, by id --- */

static pthread_mutex_t exec_live_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t exec_last_id;
static uint64_t *exec_live_ids;
static size_t exec_nlive, exec_live_cap;

static int exec_live_add(struct rl_exec *ex)
{
	int rc = 0;

	pthread_mutex_lock(&exec_live_lock);
	if (exec_nlive == exec_live_cap) {
		size_t cap = exec_live_cap ? 2 * exec_live_cap : 16;
		uint64_t *ids = realloc(exec_live_ids, cap * sizeof(*ids));
		if (ids) {
			exec_live_ids = ids;
			exec_live_cap = cap;
		}
	}
	if (exec_nlive < exec_live_cap) {
		ex->id = ++exec_last_id;
		exec_live_ids[exec_nlive++] = ex->id;
	} else {
		rc = -ENOMEM;
	}
	pthread_mutex_unlock(&exec_live_lock);
	return rc;
}

static void exec_live_remove(uint64_t id)
{
	pthread_mutex_lock(&exec_live_lock);
	for (size_t i = 0; i < exec_nlive; i++)
		if (exec_live_ids[i] == id) {
			exec_live_ids[i] = exec_live_ids[--exec_nlive];
			break;
		}
	if (!exec_nlive) { /* the last one: nothing is left allocated */
		free(exec_live_ids);
		exec_live_ids = NULL;
		exec_live_cap = 0;
	}
	pthread_mutex_unlock(&exec_live_lock);
}

bool rl_exec_live(uint64_t id)
{
	bool live = false;

	pthread_mutex_lock(&exec_live_lock);
	for (size_t i = 0; i < exec_nlive && !live; i++)
		live = exec_live_ids[i] == id;
	pthread_mutex_unlock(&exec_live_lock);
	return live;
}

int rl_exec_create(enum rl_exec_kind kind, size_t pool_size, unsigned ring_depth,
                   struct rl_exec **out)
{
	return rl_exec_create_opts(kind, pool_size, ring_depth, NULL, out);
}

int rl_exec_create_opts(enum rl_exec_kind kind, size_t pool_size, unsigned ring_depth,
                        const struct rl_exec_opts *opts, struct rl_exec **out)
{
	struct rl_exec *ex = calloc(1, sizeof(*ex));
	int rc;

	if (!ex)
		return -ENOMEM;
	ex->kind = kind;
	ex->opts.sqpoll_cpu = -1;
	if (opts)
		ex->opts = *opts;
	ex->reap_min = 1;
	ex->ready_tail = &ex->ready_head;
	ex->wait_tail = &ex->wait_head;
	ex->timers_cap = 64;
	ex->timers = malloc(ex->timers_cap * sizeof(*ex->timers));
	if (pool_size) {
		ex->pool_mem = calloc(pool_size, sizeof(*ex->pool_mem));
		ex->pool_size = pool_size;
	}
	if (!ex->timers || (pool_size && !ex->pool_mem)) {
		rc = -ENOMEM;
		goto fail;
	}
	for (size_t i = pool_size; i-- > 0;) {
		ex->pool_mem[i].pool = RL_IO_POOL_FREE;
		ex->pool_mem[i].next = ex->pool_free;
		ex->pool_free = &ex->pool_mem[i];
	}
	switch (kind) {
	case RL_EXEC_URING:
		rc = rl_exec_uring_init(ex, ring_depth);
		break;
	case RL_EXEC_PSYNC:
		rc = rl_exec_psync_init(ex);
		break;
	case RL_EXEC_VIRTUAL:
		rc = rl_exec_virtual_init(ex);
		break;
	case RL_EXEC_LIBAIO:
		rc = rl_exec_aio_init(ex, ring_depth);
		break;
	case RL_EXEC_POSIXAIO:
		rc = rl_exec_posixaio_init(ex, ring_depth);
		break;
	default:
		rc = -EINVAL;
	}
	if (rc)
		goto fail;
	if ((rc = exec_live_add(ex))) {
		if (ex->backend && ex->backend->destroy)
			ex->backend->destroy(ex);
		goto fail;
	}
	*out = ex;
	return 0;
fail:
	free(ex->pool_mem);
	free(ex->timers);
	free(ex);
	return rc;
}

void rl_exec_destroy(struct rl_exec *ex)
{
	if (!ex)
		return;
	exec_live_remove(ex->id);
	if (ex->backend && ex->backend->destroy)
		ex->backend->destroy(ex);
	free(ex->pool_mem);
	free(ex->timers);
	free(ex);
}

void rl_exec_complete_later(struct rl_exec *ex, struct rl_io *io, int status)
{
	assert(io->cb && status <= 0);
	assert(io->ex == ex || !io->ex); /* completions are delivered where the request runs */
	io->status = status;
	io->next = NULL;
	*ex->ready_tail = io;
	ex->ready_tail = &io->next;
}

void rl_io_complete_later(struct rl_io *io, int status)
{
	rl_exec_complete_later(io->ex, io, status);
}

/* --- timer heap: a binary min-heap on (when, seq) --- */

static inline bool timer_before(const struct rl_timer *a, const struct rl_timer *b)
{
	return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static int exec_timer_push(struct rl_exec *ex, struct rl_timer nt)
{
	if (ex->ntimers == ex->timers_cap) {
		size_t cap = ex->timers_cap * 2;
		struct rl_timer *t = realloc(ex->timers, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		ex->timers = t;
		ex->timers_cap = cap;
	}
	size_t i = ex->ntimers++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!timer_before(&nt, &ex->timers[p]))
			break;
		ex->timers[i] = ex->timers[p];
		i = p;
	}
	ex->timers[i] = nt;
	return 0;
}

int rl_exec_at(struct rl_exec *ex, struct rl_io *io, uint64_t when, int status)
{
	assert(io->cb && status <= 0);
	return exec_timer_push(
	    ex,
	    (struct rl_timer){.when = when, .seq = ex->timer_seq++, .io = io, .status = status});
}

int rl_exec_at_wait(struct rl_exec *ex, struct rl_io *io, uint64_t when, int status)
{
	assert(io->cb && status <= 0);
	return exec_timer_push(
	    ex,
	    (struct rl_timer){
	        .when = when, .seq = ex->timer_seq++, .io = io, .status = status, .wait = true});
}

/* Restore the heap order of timers[i]'s subtree (its children are heaps). */
static void exec_timer_sift_down(struct rl_exec *ex, size_t i)
{
	struct rl_timer t = ex->timers[i];
	size_t n = ex->ntimers;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && timer_before(&ex->timers[c + 1], &ex->timers[c]))
			c++;
		if (!timer_before(&ex->timers[c], &t))
			break;
		ex->timers[i] = ex->timers[c];
		i = c;
	}
	ex->timers[i] = t;
}

unsigned rl_exec_cut(struct rl_exec *ex)
{
	uint64_t now = rl_exec_now(ex);
	unsigned cut = 0;

	for (size_t i = 0; i < ex->ntimers; i++) {
		struct rl_timer *t = &ex->timers[i];
		if (t->wait && t->when > now) {
			t->when = now;
			t->status = -ECANCELED;
			cut++;
		}
	}
	if (cut) /* keys went down anywhere in the heap: rebuild it */
		for (size_t i = ex->ntimers / 2; i-- > 0;)
			exec_timer_sift_down(ex, i);
	return cut;
}

uint64_t rl_exec_next_timer(const struct rl_exec *ex)
{
	return ex->ntimers ? ex->timers[0].when : UINT64_MAX;
}

static struct rl_timer exec_timer_pop(struct rl_exec *ex)
{
	struct rl_timer top = ex->timers[0];

	assert(ex->ntimers > 0);
	ex->timers[0] = ex->timers[--ex->ntimers];
	if (ex->ntimers)
		exec_timer_sift_down(ex, 0);
	return top;
}

/* Deliver every timer due at @now; returns how many. */
static int exec_fire_timers(struct rl_exec *ex, uint64_t now)
{
	int n = 0;

	while (ex->ntimers && ex->timers[0].when <= now) {
		struct rl_timer t = exec_timer_pop(ex);
		uint64_t late = now - t.when;
		if (late > ex->lag_max)
			ex->lag_max = late;
		ex->lag_sum += late;
		ex->lag_count++;
		rl_io_complete(t.io, t.status);
		n++;
	}
	return n;
}

/* --- child pool --- */

struct rl_io *rl_exec_pool_get(struct rl_exec *ex)
{
	struct rl_io *io = ex->pool_free;

	if (!io)
		return NULL;
	/* the free list holds free entries of this pool only */
	assert(io->pool == RL_IO_POOL_FREE);
	assert(io >= ex->pool_mem && io < ex->pool_mem + ex->pool_size);
	assert(ex->pool_used < ex->pool_size);
	io->pool = RL_IO_POOL_BUSY;
	ex->pool_free = io->next;
	ex->pool_used++;
	return io;
}

void rl_exec_pool_put(struct rl_exec *ex, struct rl_io *io)
{
	/* an entry of this executor's pool, handed out and returned once */
	assert(io >= ex->pool_mem && io < ex->pool_mem + ex->pool_size);
	assert(io->pool == RL_IO_POOL_BUSY);
	assert(ex->pool_used > 0);
	io->pool = RL_IO_POOL_FREE;
	io->next = ex->pool_free;
	ex->pool_free = io;
	ex->pool_used--;
	/* A parent parked for lack of children gets its turn now. */
	if (ex->wait_head) {
		struct rl_io *w = ex->wait_head;
		ex->wait_head = w->next;
		if (!ex->wait_head)
			ex->wait_tail = &ex->wait_head;
		w->resume(w);
	}
}

void rl_exec_wait(struct rl_exec *ex, struct rl_io *io, rl_exec_resume_fn resume)
{
	/* only a pool entry coming back resumes a parked request */
	assert(resume && ex->pool_size > 0);
	assert(io->pool != RL_IO_POOL_FREE);
	io->resume = resume;
	io->next = NULL;
	*ex->wait_tail = io;
	ex->wait_tail = &io->next;
}

bool rl_exec_stalled(const struct rl_exec *ex)
{
	return !ex->ready_head && !ex->ntimers && !ex->backend_inflight;
}

bool rl_exec_idle(const struct rl_exec *ex)
{
	return rl_exec_stalled(ex) && !ex->wait_head;
}

void rl_exec_backend_done(struct rl_exec *ex, struct rl_io *io, int status)
{
	assert(ex->backend_inflight > 0); /* one completion per request handed to the backend */
	ex->backend_inflight--;
	rl_io_complete(io, status);
}

static int exec_drain_ready(struct rl_exec *ex)
{
	struct rl_io *io = ex->ready_head;
	int n = 0;

	if (!io)
		return 0;
	ex->ready_head = NULL;
	ex->ready_tail = &ex->ready_head;
	rl_exec_batch_begin(ex);
	while (io) {
		struct rl_io *next = io->next;
		rl_io_complete(io, io->status);
		io = next;
		n++;
	}
	rl_exec_batch_end(ex);
	return n;
}

/* How long a blocking turn may wait: the next timer, or ex->wake_ns from now if sooner. */
static uint64_t exec_block_until(struct rl_exec *ex)
{
	uint64_t until = ex->ntimers ? rl_exec_next_timer(ex) : UINT64_MAX;

	if (ex->wake_ns) {
		uint64_t cap = rl_exec_now(ex) + ex->wake_ns;
		if (cap < until)
			until = cap;
	}
	return until;
}

int rl_exec_run_once(struct rl_exec *ex, bool block)
{
	int n = exec_drain_ready(ex);
	int rc;

	if (ex->ntimers)
		n += exec_fire_timers(ex, rl_exec_now(ex));
	if (ex->backend_inflight || ex->ring_pending) {
		uint64_t until = 0;
		if (block && n == 0 && !ex->ready_head)
			until = exec_block_until(ex);
		rc = ex->backend->poll(ex, until);
		if (rc < 0)
			return rc;
		n += rc;
	} else if (block && n == 0 && !ex->ready_head && ex->ntimers) {
		/* Only timers left: let the backend wait (or jump) to the next one. */
		rc = ex->backend->poll(ex, exec_block_until(ex));
		if (rc < 0)
			return rc;
		n += exec_fire_timers(ex, rl_exec_now(ex));
	}
	return n;
}
