/*
 * exec.h - executors: the event loop and the clock a run lives on.
 *
 * An executor owns everything per-thread that the data path needs:
 *  - the clock (rl_exec_now): wall-clock nanoseconds for real executors,
 *    simulated nanoseconds for the virtual one;
 *  - a ready queue of requests to complete on the next turn of the loop
 *    (rl_io_complete_later), so no target ever completes inside submit;
 *  - a timer heap of requests to complete at a given time (rl_exec_at),
 *    used by delay/link targets and the SSD model;
 *  - a pool of child requests for composites, reserved at creation, so the
 *    data path never calls malloc, with a wait list for parents that found
 *    the pool empty;
 *  - the backend's own machinery: an io_uring ring (RL_EXEC_URING), an AIO
 *    context (RL_EXEC_LIBAIO, exec_aio.c) or nothing (RL_EXEC_PSYNC, where
 *    file I/O is done with pread/pwrite in submit and completed through the
 *    ready queue).
 *
 * One real executor runs per OS thread.  A virtual executor runs a whole
 * simulated run on one thread: when nothing is ready, it jumps the clock to
 * the earliest timer.  The backend differences live behind struct
 * rl_exec_backend; targets and the workload engine see only this header.
 */
#ifndef RL_CORE_EXEC_H
#define RL_CORE_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/io.h"

enum rl_exec_kind {
	RL_EXEC_URING = 0, /* real clock, io_uring for file I/O */
	RL_EXEC_PSYNC,     /* real clock, pread/pwrite for file I/O */
	RL_EXEC_VIRTUAL,   /* simulated clock, timers only */
	RL_EXEC_LIBAIO,    /* real clock, Linux native AIO (libaio) for file I/O */
	RL_EXEC_POSIXAIO,  /* real clock, POSIX AIO (aio_read, aio_write) for file I/O */
};

struct rl_exec;
struct io_uring;

/**
 * How an io_uring or libaio executor talks to the kernel, beyond the
 * defaults (all zero: a plain interrupt-driven ring, requests submitted by
 * their thread, read/write opcodes, buffers and files passed each time).
 * These are fio's engine options; fio's names are in the comments.
 */
struct rl_exec_opts {
	bool iopoll;          /* io_uring: completions polled by the ring (hipri); O_DIRECT only */
	bool sqpoll;          /* io_uring: a kernel thread takes the submissions (sqthread_poll) */
	int sqpoll_cpu;       /* io_uring: that thread's CPU (sqthread_poll_cpu), -1: any */
	bool fixed_files;     /* io_uring: files registered with the ring (registerfiles) */
	bool fixed_bufs;      /* io_uring: rl_exec_add_buffer's regions registered (fixedbufs) */
	bool vectored;        /* io_uring: readv/writev of one segment (nonvectored=0) */
	unsigned async_every; /* io_uring: IOSQE_ASYNC on every Nth request (force_async) */
	int rw_flags;         /* RWF_* on every read and write (nowait; io_uring: uncached) */
	bool user_reap;       /* libaio: completions read from the ring (userspace_reap) */
	bool defer_taskrun;   /* io_uring: completion work deferred to the next wait, and each
	                         submit waits for none but takes it (fio's ring); a job's */
};

/** A timer entry: complete @io with @status at time @when. */
struct rl_timer {
	uint64_t when; /* ns on the executor's clock */
	uint64_t seq;  /* insertion order: equal times fire first-in first-out */
	struct rl_io *io;
	int status;
	bool wait; /* a modelled wait (rl_exec_at_wait): rl_exec_cut may cut it short */
};

/** A request parked until child requests are free again. */
typedef void (*rl_exec_resume_fn)(struct rl_io *io);

struct rl_exec_backend {
	/** Current time in ns.  Required. */
	uint64_t (*now)(struct rl_exec *ex);
	/**
	 * Reap backend completions (and, when @block_until is nonzero, wait
	 * until at least one arrives or the clock reaches @block_until).
	 * Returns the number of completions delivered, or a negative errno.
	 * Required.
	 */
	int (*poll)(struct rl_exec *ex, uint64_t block_until);
	/** Release backend resources.  Optional. */
	void (*destroy)(struct rl_exec *ex);
};

/* Count a call that submitted or reaped @n requests in @dist (struct rl_exec's batch_*). */
static inline void rl_exec_note_batch(uint64_t dist[7], unsigned n)
{
	unsigned k = n > 64 ? 6 : n > 32 ? 5 : n > 16 ? 4 : n > 8 ? 3 : n > 4 ? 2 : n ? 1 : 0;
	if (n)
		dist[k]++;
}

struct rl_exec {
	enum rl_exec_kind kind;
	uint64_t id; /* unique for the process's life (an address can be reused): rl_exec_live */
	const struct rl_exec_backend *backend;
	void *backend_priv;

	/* ready queue (FIFO) */
	struct rl_io *ready_head;
	struct rl_io **ready_tail;

	/* timer heap, ordered by (when, seq) */
	struct rl_timer *timers;
	size_t ntimers, timers_cap;
	uint64_t timer_seq;

	/* child request pool and the parents waiting for it */
	struct rl_io *pool_mem;
	struct rl_io *pool_free;
	size_t pool_size, pool_used;
	struct rl_io *wait_head, **wait_tail;

	/* virtual clock (RL_EXEC_VIRTUAL) */
	uint64_t vnow;

	/*
	 * Paced executor: wall-clock nanoseconds per nanosecond of its clock
	 * (1: real time; N: slow motion, the clock runs N times slower than the
	 * wall clock).  0 on every other executor, where it means 1.
	 */
	uint32_t pace_slow;

	/*
	 * Real clock: a blocking turn waits at most this long (ns), so the
	 * owner looks at its stop flags that often (0: until the next event).
	 */
	uint64_t wake_ns;

	/* requests handed to the backend and not yet completed */
	uint64_t backend_inflight;

	/*
	 * Timer lateness: how long after its time each timer fired (wall-clock
	 * and paced executors; always 0 in virtual time).  Reset by the owner.
	 */
	uint64_t lag_max, lag_sum, lag_count;

	/* the backend's options (rl_exec_create_opts) */
	struct rl_exec_opts opts;

	/* io_uring ring (RL_EXEC_URING), NULL otherwise */
	struct io_uring *ring;
	struct rl_exec_uring_x *uring_x; /* its registered files and buffers (exec_real.c) */
	unsigned ring_pending;           /* sqes prepared but not yet submitted */
	/*
	 * fio's "IO submit" and "IO complete" distributions (io_uring and libaio):
	 * calls that handed the kernel, or reaped, 1-4, 5-8, 9-16, 17-32, 33-64
	 * and more requests, at [1] to [6] ([0]: none, never counted)
	 */
	uint64_t batch_submit[7], batch_complete[7];
	struct rl_io **ring_ios; /* their requests, in order (stamped t_issued once submitted) */
	bool submit_with_wait;   /* io_uring: submit and wait in one call when blocking (opt-in) */
	/*
	 * io_uring and libaio: hand prepared requests to the kernel as soon as
	 * this many are waiting (fio's iodepth_batch_submit; 1: each at once);
	 * 0: only at the next poll, in one batch.
	 */
	unsigned submit_batch;
	/*
	 * libaio: completions taken per io_getevents() (0: every finished
	 * one; fio's iodepth_batch_complete_max, 1 in a fio job), and how many
	 * a blocking poll waits for (fio's iodepth_batch_complete_min: 1 by
	 * default; 0: a poll never waits in the kernel, the owner spins).
	 */
	unsigned reap_max;
	unsigned reap_min;
	/*
	 * The end of a job's queue (io_uring and libaio), as fio ends its
	 * loop: once each of the drain_need owners sharing the executor has
	 * said it will issue nothing more (rl_exec_drain_note), the next
	 * blocking poll waits for everything in flight and takes it in one
	 * batch, one entry in batch_complete as fio's last getevents call.
	 * 0: never (an executor whose owner does not say).
	 */
	unsigned drain_need, drain_seen;
	bool uring_defer; /* io_uring: the ring defers completion work to the next enter */

	/*
	 * The clock of a batch of completions (rl_exec_batch_now): while a
	 * batch is delivered (the ready queue, a reap of io_uring or libaio
	 * events, all finished before the delivery starts) the first reading
	 * is kept for the rest, as fio stamps one time per reaped batch.
	 */
	bool batch_open;
	uint64_t batch_now; /* 0: not read yet in this batch */
};

/* One owner of @ex issues nothing more for now (drain_need above). */
static inline void rl_exec_drain_note(struct rl_exec *ex)
{
	if (ex->drain_seen < ex->drain_need)
		ex->drain_seen++;
}

/* Is the next blocking poll of @ex the end of the queue? */
static inline bool rl_exec_draining(const struct rl_exec *ex)
{
	return ex->drain_need && ex->drain_seen >= ex->drain_need && ex->backend_inflight;
}

/**
 * Create an executor of @kind.  @pool_size child requests are reserved;
 * @ring_depth sizes the io_uring ring (ignored by other kinds).  Returns 0
 * and sets *out, or a negative errno.
 */
int rl_exec_create(enum rl_exec_kind kind, size_t pool_size, unsigned ring_depth,
                   struct rl_exec **out);

/** As rl_exec_create, with @opts (NULL: the defaults) for the backend. */
int rl_exec_create_opts(enum rl_exec_kind kind, size_t pool_size, unsigned ring_depth,
                        const struct rl_exec_opts *opts, struct rl_exec **out);

/**
 * io_uring with fixed_bufs: register [@base, @base + @len) with the ring,
 * so reads and writes whose buffer lies inside it go as READ_FIXED and
 * WRITE_FIXED.  0 elsewhere (nothing to do); a negative errno when the
 * kernel refuses (RLIMIT_MEMLOCK) or the table of regions is full.
 */
int rl_exec_add_buffer(struct rl_exec *ex, void *base, size_t len);

/**
 * Create a paced executor (exec_paced.c): a virtual-time executor for
 * simulated stacks whose clock is locked to the wall clock, starting at
 * simulated time @vstart and advancing one simulated ns per @slow wall ns
 * (1: real time; larger: slow motion, for hardware faster than this
 * machine can emulate), with an io_uring ring (@ring_depth) so the caller
 * can poll sockets on it.  Its kind is RL_EXEC_VIRTUAL: simulated targets
 * behave exactly as in a virtual run, but a timer fires when the wall
 * clock reaches it, so completions arrive in real time.  Timers that fire
 * late (the machine could not keep up) are counted in lag_*.
 */
int rl_exec_create_paced(size_t pool_size, unsigned ring_depth, uint64_t vstart, uint32_t slow,
                         struct rl_exec **out);

/**
 * Change a paced executor's factor to @slow from now on: simulated time
 * goes on from where it is (no jump), at the new rate.  -EINVAL on any
 * other executor or for 0.
 */
int rl_exec_paced_set_slow(struct rl_exec *ex, uint32_t slow);

/** Wall-clock ns now (CLOCK_MONOTONIC), whatever @ex's clock is. */
uint64_t rl_exec_wall_now(void);

/**
 * Stop pacing a paced executor: from now on, when nothing is ready, its
 * clock jumps to the next timer as a virtual executor's does, so what is
 * in flight completes as fast as the machine runs the model.  For an owner
 * that is shutting down; no effect on other executors.
 */
void rl_exec_unpace(struct rl_exec *ex);

/** Wall-clock ns that @d ns of @ex's clock take (differs on a slowed paced executor). */
static inline uint64_t rl_exec_wall_span(const struct rl_exec *ex, uint64_t d)
{
	if (ex->pace_slow <= 1)
		return d;
	return d > UINT64_MAX / ex->pace_slow ? UINT64_MAX : d * ex->pace_slow;
}

/**
 * Destroy an executor.  No request of its owner may be in flight; what
 * targets started on it in the background (a cache's destage, a retry
 * timer) is abandoned and never completes, and a target that holds state
 * for such a request (a stripe lock) learns with rl_exec_live() that its
 * executor is gone.
 */
void rl_exec_destroy(struct rl_exec *ex);

/** Whether the executor with id @id (ex->id) still exists. */
bool rl_exec_live(uint64_t id);

struct io_uring_sqe;
struct iovec;

/**
 * io_uring: prepare @sqe (from rl_exec_get_sqe) to read (@write false) or
 * write @len bytes at @buf from or to @fd at @offset, as the executor's
 * options say: a registered file and buffer where there are, readv/writev
 * through @iov (which must last until the request completes) when
 * vectored, IOSQE_ASYNC on every async_every-th, the options' RWF_* flags
 * with @rw_flags.
 */
void rl_exec_uring_prep_rw(struct rl_exec *ex, struct io_uring_sqe *sqe, bool write, int fd,
                           void *buf, unsigned len, uint64_t offset, int rw_flags,
                           struct iovec *iov);

/**
 * io_uring: the entry taken with rl_exec_get_sqe() is prepared.  Submits
 * the waiting entries when ex->submit_batch of them are there; otherwise
 * they go at the next poll.
 */
void rl_exec_sqe_ready(struct rl_exec *ex);

/** Current time in ns on this executor's clock. */
static inline uint64_t rl_exec_now(struct rl_exec *ex)
{
	return ex->backend->now(ex);
}

/** Open a batch of completions that all finished before it began (exec_backend.h users). */
static inline void rl_exec_batch_begin(struct rl_exec *ex)
{
	ex->batch_open = true;
	ex->batch_now = 0;
}

static inline void rl_exec_batch_end(struct rl_exec *ex)
{
	ex->batch_open = false;
}

/**
 * The time at which the completion being delivered is seen: on a wall
 * clock inside a batch, one reading for the whole batch (a completion
 * handler that runs 32 of them reads the clock once); elsewhere, and on
 * the virtual and paced clocks, rl_exec_now() itself.
 */
static inline uint64_t rl_exec_batch_now(struct rl_exec *ex)
{
	if (!ex->batch_open || ex->kind == RL_EXEC_VIRTUAL || ex->pace_slow)
		return rl_exec_now(ex);
	if (!ex->batch_now)
		ex->batch_now = rl_exec_now(ex);
	return ex->batch_now;
}

/** Queue @io to complete with @status on the next turn of the loop. */
void rl_exec_complete_later(struct rl_exec *ex, struct rl_io *io, int status);

/** Complete @io with @status when the clock reaches @when (ns). */
int rl_exec_at(struct rl_exec *ex, struct rl_io *io, uint64_t when, int status);

/**
 * As rl_exec_at, for a modelled wait (link, delay): rl_exec_cut may end it
 * early with -ECANCELED.  The callback must then complete its request with
 * that status instead of going on.
 */
int rl_exec_at_wait(struct rl_exec *ex, struct rl_io *io, uint64_t when, int status);

/**
 * Cut every pending modelled wait (rl_exec_at_wait) short: each fires on
 * the next turn with -ECANCELED.  For a run that stops (its deadline, a
 * signal) while requests sit in waits longer than it will last.  Returns
 * how many were cut.
 */
unsigned rl_exec_cut(struct rl_exec *ex);

/**
 * Park @io until a child request is returned to the pool, then call
 * @resume(io).  Used by composites when rl_io_child_get() returns NULL.
 */
void rl_exec_wait(struct rl_exec *ex, struct rl_io *io, rl_exec_resume_fn resume);

/**
 * Run one turn of the loop: deliver ready requests, fire due timers, reap
 * backend completions.  With @block set and nothing to deliver, waits for
 * the next event (for a virtual executor: advances the clock to the next
 * timer).  Returns the number of completions delivered (0 means the
 * executor is idle), or a negative errno.
 */
int rl_exec_run_once(struct rl_exec *ex, bool block);

/** True when nothing is queued, timed or in flight on this executor. */
bool rl_exec_idle(const struct rl_exec *ex);

/**
 * True when nothing is queued, timed or in flight, whatever is parked for
 * the pool: a parked request waits for a child's completion, so none of
 * them can ever resume (a pool deadlock, or idle).
 */
bool rl_exec_stalled(const struct rl_exec *ex);

/** Time of the earliest timer, or UINT64_MAX when there is none. */
uint64_t rl_exec_next_timer(const struct rl_exec *ex);

/** Kind name for messages and results: "io_uring", "psync", "virtual". */
const char *rl_exec_kind_name(enum rl_exec_kind kind);

/* --- for backends and the file target --- */

/** Deliver one backend completion: counts it and calls rl_io_complete(). */
void rl_exec_backend_done(struct rl_exec *ex, struct rl_io *io, int status);

/**
 * For targets that do real I/O on an io_uring executor: a free submission
 * entry whose completion will complete @io (the executor turns the result
 * into 0 or a negative errno; a short transfer is -EIO).  Submits queued
 * entries first if the ring is full.  Returns NULL only on a ring failure.
 */
struct io_uring_sqe *rl_exec_get_sqe(struct rl_exec *ex, struct rl_io *io);

/**
 * For targets that do real I/O on a libaio executor: queue @io (read,
 * write with RWF_DSYNC for FUA, or FLUSH as fdatasync) on file descriptor
 * @fd; it goes to the kernel at the next poll and completes through
 * rl_exec_backend_done.  @alone (buffered files) submits it to the kernel
 * at once, on its own.  Returns 0, -EOPNOTSUPP for other operations (do
 * them synchronously) or -EAGAIN when the executor's table is full.
 */
int rl_exec_aio_submit(struct rl_exec *ex, struct rl_io *io, int fd, bool alone);

/**
 * For targets that do real I/O on a POSIX AIO executor: start @io (read,
 * write, or FLUSH as aio_fsync(O_DSYNC)) on @fd now; it completes through
 * rl_exec_backend_done at a later poll.  Returns 0, -EOPNOTSUPP for what
 * POSIX AIO cannot do (a FUA write, a trim: do them synchronously) or
 * -EAGAIN when the executor's table is full.
 */
int rl_exec_posixaio_submit(struct rl_exec *ex, struct rl_io *io, int fd);

/** Pool internals used by io.c. */
struct rl_io *rl_exec_pool_get(struct rl_exec *ex);
void rl_exec_pool_put(struct rl_exec *ex, struct rl_io *io);

#endif
