/*
 * exec_real.c - wall-clock executors: io_uring and psync.
 *
 * io_uring: one ring per executor (so per thread).  Targets take a
 * submission entry with rl_exec_get_sqe(); entries are submitted in a batch
 * at the next poll, and completions are reaped in batches; each request
 * handed over is stamped with the time its submit call returned
 * (rl_io.t_issued: fio's issue time, the end of its submission latency).  The entry's
 * user_data is the request; the result is mapped to 0 / -errno here, so the
 * file target has a single completion path whatever the backend.  A poll
 * that must block waits for one completion with a timeout at the next
 * timer, so timers (delay and link targets) keep firing on time.
 * fio's io_uring options are the executor's (struct rl_exec_opts): setup
 * flags (IOPOLL, SQPOLL), and rl_exec_uring_prep_rw turns a read or write
 * into the opcode and flags they ask for; registered files and buffers
 * live in sparse tables made at setup and filled as they are first used.
 *
 * psync: no ring.  The file target calls pread/pwrite inside submit and
 * completes through the ready queue; poll only sleeps until the next timer.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <time.h>

#include "core/exec.h"
#include "core/exec_backend.h"

uint64_t rl_exec_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t real_now(struct rl_exec *ex)
{
	(void)ex;
	return rl_exec_wall_now();
}

static void real_sleep_until(struct rl_exec *ex, uint64_t until)
{
	uint64_t now = ex->backend->now(ex);

	if (until == UINT64_MAX || until <= now)
		return;
	uint64_t d = rl_exec_wall_span(ex, until - now);
	struct timespec ts = {.tv_sec = (time_t)(d / 1000000000ull),
	                      .tv_nsec = (long)(d % 1000000000ull)};
	nanosleep(&ts, NULL);
}

/* --- io_uring --- */

/* Take what has completed, at most reap_max of it (@all: everything). */
static int uring_reap(struct rl_exec *ex, bool all)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	/*
	 * The batch is what had completed when it began.  A callback that
	 * submits can post more before the loop ends (a read of a hole or of
	 * an unwritten extent completes inside the submit); taking those too
	 * would keep the batch, and its clock, open for as long as they keep
	 * coming, and a time-based run would never see its end.
	 */
	unsigned avail = io_uring_cq_ready(ex->ring);

	/* a ring that defers its completion work posts it when asked (fio's reap
	   enters the kernel with GETEVENTS when its ring is empty) */
	if (!avail && ex->uring_defer && ex->backend_inflight &&
	    (IO_URING_READ_ONCE(*ex->ring->sq.kflags) & IORING_SQ_TASKRUN)) {
		(void)io_uring_get_events(ex->ring);
		avail = io_uring_cq_ready(ex->ring);
	}
	/* at most reap_max per call, as fio's getevents takes them (0: no limit) */
	if (ex->reap_max && avail > ex->reap_max && !all)
		avail = ex->reap_max;
	if (all)
		ex->drain_seen = 0;

	rl_exec_batch_begin(ex);
	io_uring_for_each_cqe(ex->ring, head, cqe)
	{
		if (n == avail)
			break;
		struct rl_io *io = io_uring_cqe_get_data(cqe);
		int res = cqe->res;
		int status;

		n++;
		if (res < 0)
			status = res;
		else if (io->op == RL_OP_READ || io->op == RL_OP_WRITE)
			status = (uint32_t)res == io->len ? 0 : -EIO;
		else
			status = 0;
		/* Advance before the callback: it may submit and reap again. */
		io_uring_cq_advance(ex->ring, 1);
		rl_exec_backend_done(ex, io, status);
	}
	rl_exec_batch_end(ex);
	rl_exec_note_batch(ex->batch_complete, n);
	return (int)n;
}

/*
 * The first @n prepared requests went to the kernel: stamp them with the
 * time the submit call returned (one clock reading for the batch, as fio's
 * io_uring engine stamps its issue time) and drop them from the list.
 */
static void uring_issued(struct rl_exec *ex, unsigned n, uint64_t now)
{
	if (n > ex->ring_pending)
		n = ex->ring_pending;
	rl_exec_note_batch(ex->batch_submit, n);
	for (unsigned i = 0; i < n; i++)
		if (ex->ring_ios[i])
			ex->ring_ios[i]->t_issued = now;
	for (unsigned i = n; i < ex->ring_pending; i++)
		ex->ring_ios[i - n] = ex->ring_ios[i];
	ex->ring_pending -= n;
}

static int uring_submit(struct rl_exec *ex)
{
	if (!ex->ring_pending)
		return 0;
	/* with deferred completion work the submit call also runs it, as fio's
	   (which enters with GETEVENTS): its time is in the submission latency */
	int rc =
	    ex->uring_defer ? io_uring_submit_and_get_events(ex->ring) : io_uring_submit(ex->ring);
	if (rc < 0)
		return rc;
	uring_issued(ex, (unsigned)rc, ex->backend->now(ex));
	return 0;
}

/*
 * ex->submit_with_wait: when the poll will block anyway, hand the queued
 * entries to the kernel and wait in one io_uring_enter instead of two.
 * Opt-in (the NBD server sets it: it arms a socket poll before nearly
 * every wait).
 */
static int uring_submit_and_wait(struct rl_exec *ex, uint64_t block_until)
{
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts, *tsp = NULL;
	int rc;

	if (block_until != UINT64_MAX) {
		uint64_t now = ex->backend->now(ex);
		uint64_t d = rl_exec_wall_span(ex, block_until > now ? block_until - now : 0);
		ts.tv_sec = (long long)(d / 1000000000ull);
		ts.tv_nsec = (long long)(d % 1000000000ull);
		tsp = &ts;
	}
	/* the kernel takes every queued entry before it waits: stamped with the time before */
	uint64_t t = ex->backend->now(ex);
	rc = io_uring_submit_and_wait_timeout(ex->ring, &cqe, 1, tsp, NULL);
	uring_issued(ex, ex->ring_pending, t);
	if (rc < 0 && rc != -ETIME && rc != -EINTR)
		return rc;
	return uring_reap(ex, false);
}

int rl_exec_uring_poll(struct rl_exec *ex, uint64_t block_until)
{
	int rc;

	if (ex->submit_with_wait && block_until && ex->backend_inflight) {
		rc = uring_reap(ex, false);
		if (rc > 0)
			return uring_submit(ex) < 0 ? -EIO : rc;
		return uring_submit_and_wait(ex, block_until);
	}
	rc = uring_submit(ex);
	if (rc < 0)
		return rc;
	/* the queue's end: one wait for every request left, taken as one batch */
	bool all = rl_exec_draining(ex);
	if (all && !block_until)
		return 0;
	if (!all) {
		rc = uring_reap(ex, false);
		if (rc > 0 || !block_until)
			return rc;
	}
	if (!ex->backend_inflight) {
		real_sleep_until(ex, block_until);
		return 0;
	}
	struct io_uring_cqe *cqe;
	unsigned nr = all ? (unsigned)ex->backend_inflight : 1;
	/* all there already (the usual queue's end when requests complete
	   inside their submit call): no wait.  liburing's wait would see that
	   too, but it is code the job has not run before, and its first run
	   took a page fault in liburing's pages (16-25 us in all, as the last
	   request's latency; fio takes its last batch straight from the ring) */
	if (io_uring_cq_ready(ex->ring) >= nr)
		return uring_reap(ex, all);
	if (block_until == UINT64_MAX) {
		rc = io_uring_wait_cqe_nr(ex->ring, &cqe, nr);
	} else {
		uint64_t now = ex->backend->now(ex);
		uint64_t d = rl_exec_wall_span(ex, block_until > now ? block_until - now : 0);
		struct __kernel_timespec ts = {.tv_sec = (long long)(d / 1000000000ull),
		                               .tv_nsec = (long long)(d % 1000000000ull)};
		rc = io_uring_wait_cqes(ex->ring, &cqe, nr, &ts, NULL);
	}
	if (rc < 0 && rc != -ETIME && rc != -EINTR)
		return rc;
	return uring_reap(ex, all);
}

void rl_exec_sqe_ready(struct rl_exec *ex)
{
	/* A failed submit leaves the entries queued: the next poll tries again and reports. */
	if (ex->submit_batch && ex->ring_pending >= ex->submit_batch)
		(void)uring_submit(ex);
}

struct io_uring_sqe *rl_exec_get_sqe(struct rl_exec *ex, struct rl_io *io)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ex->ring);

	if (!sqe) {
		if (uring_submit(ex) < 0)
			return NULL;
		sqe = io_uring_get_sqe(ex->ring);
		if (!sqe)
			return NULL;
	}
	io_uring_sqe_set_data(sqe, io);
	ex->ring_ios[ex->ring_pending] = io;
	ex->ring_pending++;
	ex->backend_inflight++;
	return sqe;
}

/* --- io_uring: registered files and buffers, and the options' request flags --- */

#define URING_FILES 64 /* files a ring registers (registerfiles); more go by descriptor */
#define URING_BUFS  16 /* buffer regions it registers (fixedbufs) */

struct rl_exec_uring_x {
	int fds[URING_FILES]; /* the descriptor in each registered slot, -1: free */
	struct iovec bufs[URING_BUFS];
	unsigned nbufs;
	unsigned prepped; /* requests since the last IOSQE_ASYNC (force_async) */
};

/* The registered slot of @fd, registering it on first use; -1: pass the descriptor. */
static int uring_file_slot(struct rl_exec *ex, int fd)
{
	struct rl_exec_uring_x *x = ex->uring_x;

	for (int i = 0; i < URING_FILES; i++)
		if (x->fds[i] == fd)
			return i;
	for (int i = 0; i < URING_FILES; i++)
		if (x->fds[i] < 0) {
			if (io_uring_register_files_update(ex->ring, (unsigned)i, &fd, 1) != 1)
				return -1;
			x->fds[i] = fd;
			return i;
		}
	return -1;
}

/* The registered region holding [@buf, @buf + @len), or -1. */
static int uring_buf_index(const struct rl_exec *ex, const void *buf, unsigned len)
{
	const struct rl_exec_uring_x *x = ex->uring_x;
	const char *p = buf;

	for (unsigned i = 0; i < x->nbufs; i++) {
		const char *b = x->bufs[i].iov_base;
		if (p >= b && p + len <= b + x->bufs[i].iov_len)
			return (int)i;
	}
	return -1;
}

int rl_exec_add_buffer(struct rl_exec *ex, void *base, size_t len)
{
	struct rl_exec_uring_x *x = ex->uring_x;

	if (!x || !ex->opts.fixed_bufs)
		return 0;
	if (x->nbufs == URING_BUFS)
		return -ENOSPC;
	struct iovec iov = {.iov_base = base, .iov_len = len};
	int rc = io_uring_register_buffers_update_tag(ex->ring, x->nbufs, &iov, NULL, 1);
	if (rc < 0)
		return rc;
	x->bufs[x->nbufs++] = iov;
	return 0;
}

void rl_exec_uring_prep_rw(struct rl_exec *ex, struct io_uring_sqe *sqe, bool write, int fd,
                           void *buf, unsigned len, uint64_t offset, int rw_flags,
                           struct iovec *iov)
{
	const struct rl_exec_opts *o = &ex->opts;
	struct rl_exec_uring_x *x = ex->uring_x;
	int bi = x->nbufs ? uring_buf_index(ex, buf, len) : -1;
	int slot = o->fixed_files ? uring_file_slot(ex, fd) : -1;

	if (bi >= 0) {
		if (write)
			io_uring_prep_write_fixed(sqe, fd, buf, len, offset, bi);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, len, offset, bi);
	} else if (o->vectored) {
		iov->iov_base = buf;
		iov->iov_len = len;
		if (write)
			io_uring_prep_writev(sqe, fd, iov, 1, offset);
		else
			io_uring_prep_readv(sqe, fd, iov, 1, offset);
	} else if (write) {
		io_uring_prep_write(sqe, fd, buf, len, offset);
	} else {
		io_uring_prep_read(sqe, fd, buf, len, offset);
	}
	sqe->rw_flags = rw_flags | o->rw_flags;
	if (slot >= 0) {
		sqe->fd = slot;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	if (o->async_every && ++x->prepped == o->async_every) {
		x->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

void rl_exec_uring_destroy(struct rl_exec *ex)
{
	free(ex->uring_x);
	ex->uring_x = NULL;
	if (ex->ring) {
		io_uring_queue_exit(ex->ring);
		free(ex->ring);
		ex->ring = NULL;
		free(ex->ring_ios);
		ex->ring_ios = NULL;
	}
}

static const struct rl_exec_backend uring_backend = {
    .now = real_now,
    .poll = rl_exec_uring_poll,
    .destroy = rl_exec_uring_destroy,
};

/* The options' setup flags: what was asked must hold, whatever else is dropped. */
static unsigned uring_asked_flags(const struct rl_exec_opts *o, struct io_uring_params *p)
{
	unsigned f = 0;

	if (o->iopoll)
		f |= IORING_SETUP_IOPOLL;
	if (o->sqpoll) {
		f |= IORING_SETUP_SQPOLL;
		if (o->sqpoll_cpu >= 0) {
			f |= IORING_SETUP_SQ_AFF;
			p->sq_thread_cpu = (unsigned)o->sqpoll_cpu;
		}
	}
	return f;
}

/* The ring's tables of registered files and buffers, empty (sparse). */
static int uring_register_tables(struct rl_exec *ex)
{
	struct rl_exec_uring_x *x = calloc(1, sizeof(*x));
	int rc = 0;

	if (!x)
		return -ENOMEM;
	for (int i = 0; i < URING_FILES; i++)
		x->fds[i] = -1;
	ex->uring_x = x;
	if (ex->opts.fixed_files)
		rc = io_uring_register_files_sparse(ex->ring, URING_FILES);
	if (!rc && ex->opts.fixed_bufs)
		rc = io_uring_register_buffers_sparse(ex->ring, URING_BUFS);
	return rc;
}

int rl_exec_uring_init(struct rl_exec *ex, unsigned ring_depth)
{
	struct io_uring_params p = {0};
	unsigned asked;
	int rc;

	if (!ring_depth)
		ring_depth = 64;
	ex->ring = calloc(1, sizeof(*ex->ring));
	if (!ex->ring)
		return -ENOMEM;
	/* One submitting thread per ring: let the kernel skip its locking.
	 * COOP_TASKRUN: a fired poll does not interrupt this thread while it
	 * runs: its work waits for the thread's next return from any system
	 * call; TASKRUN_FLAG: meanwhile the kernel raises IORING_SQ_TASKRUN,
	 * which liburing checks before it decides a wait need not enter. */
	asked = uring_asked_flags(&ex->opts, &p);
	p.flags = asked | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
	          IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_CQSIZE;
	p.cq_entries = ring_depth * 2;
	/* defer_taskrun (a job's ring, as fio's engine asks): completion work runs
	   only when this thread enters the kernel for events, so a submit that
	   enters with GETEVENTS pays for it, as fio's does; SQPOLL cannot have it */
	rc = -EINVAL;
	if (ex->opts.defer_taskrun && !ex->opts.sqpoll) {
		struct io_uring_params d = p;
		d.flags |= IORING_SETUP_DEFER_TASKRUN;
		rc = io_uring_queue_init_params(ring_depth, ex->ring, &d);
		ex->uring_defer = rc == 0;
	}
	if (rc == -EINVAL)
		rc = io_uring_queue_init_params(ring_depth, ex->ring, &p);
	if (rc == -EINVAL) {
		/* Older kernels: the options' flags alone. */
		struct io_uring_params q = {0};
		q.flags = uring_asked_flags(&ex->opts, &q);
		rc = io_uring_queue_init_params(ring_depth, ex->ring, &q);
	}
	if (!rc && (rc = uring_register_tables(ex)) < 0)
		io_uring_queue_exit(ex->ring);
	if (rc < 0) {
		free(ex->uring_x);
		ex->uring_x = NULL;
		free(ex->ring);
		ex->ring = NULL;
		return rc;
	}
	/* at most one pending request per submission entry */
	ex->ring_ios = calloc(ex->ring->sq.ring_entries, sizeof(*ex->ring_ios));
	if (!ex->ring_ios) {
		rl_exec_uring_destroy(ex);
		return -ENOMEM;
	}
	ex->backend = &uring_backend;
	return 0;
}

/* --- psync --- */

static int psync_poll(struct rl_exec *ex, uint64_t block_until)
{
	if (block_until)
		real_sleep_until(ex, block_until);
	return 0;
}

static const struct rl_exec_backend psync_backend = {
    .now = real_now,
    .poll = psync_poll,
};

int rl_exec_psync_init(struct rl_exec *ex)
{
	ex->backend = &psync_backend;
	return 0;
}
