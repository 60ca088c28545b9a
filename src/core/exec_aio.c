/*
 * exec_aio.c - the libaio executor: Linux native AIO through libaio.
 *
 * Real clock, like io_uring, with the kernel's older asynchronous
 * interface: io_setup() makes one context per executor (so per thread),
 * the file target hands each request to rl_exec_aio_submit(), which fills
 * an iocb from a preallocated table and queues it; queued iocbs go to the
 * kernel in one io_submit() at the next poll, and completions come back in
 * batches from io_getevents().  A poll that must block waits for one event
 * with a timeout at the next timer, so timers keep firing on time.  The
 * result is mapped to 0 / -errno here (a short transfer is -EIO), so the
 * file target keeps a single completion path whatever the backend.
 *
 * Completions are taken as fio takes them: at most ex->reap_max per
 * io_getevents() (fio's iodepth_batch_complete_max; a job's default is 1,
 * so each completion costs a system call, as in fio), and a poll that
 * blocks waits for ex->reap_min of them (iodepth_batch_complete_min; 0:
 * it never blocks and the owner spins, as fio polls).  Taking every
 * finished one at once saves those calls: on buffered 4 KiB writes,
 * which the kernel finishes inside io_submit, the call per request was
 * about a third of the CPU time per request, and without it raidlab did
 * 1.2-1.45 times fio's I/O on the same job.
 *
 * Buffered I/O (@alone) is different: the kernel does it inside io_submit,
 * and a batch of buffered reads in one call goes to the device one by one
 * (measured: 16 random 4 KiB reads per call ran at a tenth of the rate of
 * one per call), so those iocbs are submitted at once, one per call.
 *
 * The iocb table is preallocated (twice the depth plus some room for the
 * children of composite targets), so the data path never allocates; when
 * it is empty rl_exec_aio_submit returns -EAGAIN and the file target does
 * that request synchronously.
 */
#include <errno.h>
#include <libaio.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <time.h>

#include "core/exec.h"
#include "core/exec_backend.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h: aio_reqprio holds an I/O priority */
#endif

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs; /* the table */
	struct iocb **free; /* free entries (a stack) */
	unsigned nfree;
	struct iocb **queued; /* prepared, not yet given to io_submit */
	unsigned nqueued;
	struct io_event *events;
	unsigned cap;
};

static uint64_t aio_now(struct rl_exec *ex)
{
	struct timespec ts;

	(void)ex;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Hand the queued iocbs to the kernel.  A request the kernel refuses is
 * failed on the completion path when @fail_refused (the poll); from a
 * target's submit it stays queued for the next poll instead, so no request
 * completes before its submit returns.
 */
static int aio_flush_queue(struct rl_exec *ex, bool fail_refused)
{
	struct aio_state *st = ex->backend_priv;
	unsigned done = 0;

	while (done < st->nqueued) {
		int rc = io_submit(st->ctx, (long)(st->nqueued - done), st->queued + done);
		if (rc == -EAGAIN || rc == -EINTR || (rc < 0 && !fail_refused))
			break; /* the kernel is full: retry at the next poll */
		if (rc < 0) {
			/* The first queued request is refused: fail it, keep the rest. */
			struct iocb *cb = st->queued[done++];
			struct rl_io *io = cb->data;
			st->free[st->nfree++] = cb;
			rl_exec_backend_done(ex, io, rc);
			continue;
		}
		/* fio's libaio engine stamps its issue time when io_submit returns */
		uint64_t now = ex->backend->now(ex);
		rl_exec_note_batch(ex->batch_submit, (unsigned)rc);
		for (int i = 0; i < rc; i++)
			((struct rl_io *)st->queued[done + (unsigned)i]->data)->t_issued = now;
		done += (unsigned)rc;
	}
	for (unsigned i = done; i < st->nqueued; i++)
		st->queued[i - done] = st->queued[i];
	st->nqueued -= done;
	return 0;
}

/*
 * The kernel's completion ring of an AIO context, mapped in user space at
 * the context's address (fs/aio.c: struct aio_ring): userspace_reap reads
 * finished events from it directly, as fio does, when nothing is waited
 * for.  The kernel moves tail; the reader moves head.
 */
#define AIO_RING_MAGIC 0xa10a10a1u

struct aio_ring_hdr {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
};

/* Up to @max events from the ring; -1 when the ring is not the layout above. */
static int aio_user_reap(struct aio_state *st, long max)
{
	struct aio_ring_hdr *r = (struct aio_ring_hdr *)(void *)st->ctx;
	const struct io_event *ev = (const struct io_event *)(r + 1);
	unsigned head;
	int n = 0;

	if (r->magic != AIO_RING_MAGIC)
		return -1;
	head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	while (n < max) {
		unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
		if (head == tail)
			break;
		st->events[n++] = ev[head];
		head = (head + 1) % r->nr;
	}
	__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

/* Take between @min and the reap limit of finished requests (@all: every one in flight). */
static int aio_reap(struct rl_exec *ex, long min, struct timespec *ts, bool all)
{
	struct aio_state *st = ex->backend_priv;
	long max = ex->reap_max && ex->reap_max < st->cap ? (long)ex->reap_max : (long)st->cap;
	if (all) {
		min = max =
		    ex->backend_inflight < st->cap ? (long)ex->backend_inflight : (long)st->cap;
		ex->drain_seen = 0;
	}
	int n = ex->opts.user_reap && min == 0 ? aio_user_reap(st, max) : -1;

	if (n < 0)
		n = io_getevents(st->ctx, min < max ? min : max, max, st->events, ts);

	if (n == -EINTR)
		return 0;
	if (n < 0)
		return n;
	rl_exec_batch_begin(ex);
	for (int i = 0; i < n; i++) {
		struct iocb *cb = st->events[i].obj;
		struct rl_io *io = cb->data;
		long res = (long)st->events[i].res;
		int status;

		if (res < 0)
			status = (int)res;
		else if (io->op == RL_OP_READ || io->op == RL_OP_WRITE)
			status = (unsigned long)res == io->len ? 0 : -EIO;
		else
			status = 0;
		st->free[st->nfree++] = cb;
		rl_exec_backend_done(ex, io, status);
	}
	rl_exec_batch_end(ex);
	rl_exec_note_batch(ex->batch_complete, (unsigned)n);
	return n;
}

static int aio_poll(struct rl_exec *ex, uint64_t block_until)
{
	struct timespec zero = {0, 0};
	int rc = aio_flush_queue(ex, true);

	if (rc < 0)
		return rc;
	if (!ex->backend_inflight) {
		if (block_until && block_until != UINT64_MAX) {
			uint64_t now = aio_now(ex);
			if (block_until > now) {
				uint64_t d = block_until - now;
				struct timespec ts = {.tv_sec = (time_t)(d / 1000000000ull),
				                      .tv_nsec = (long)(d % 1000000000ull)};
				nanosleep(&ts, NULL);
			}
		}
		return 0;
	}
	/* the queue's end: one wait for every request left, as fio's last getevents */
	bool all = rl_exec_draining(ex);
	if (all && !block_until)
		return 0;
	/* wait for reap_min of those in flight (fewer if fewer are) */
	long want =
	    ex->reap_min < ex->backend_inflight ? (long)ex->reap_min : (long)ex->backend_inflight;
	if (!all && (want <= 1 || !block_until)) {
		rc = aio_reap(ex, 0, &zero, false);
		if (rc != 0 || !block_until || !want)
			return rc;
	}
	if (block_until == UINT64_MAX)
		return aio_reap(ex, want, NULL, all);
	uint64_t now = aio_now(ex);
	uint64_t d = block_until > now ? block_until - now : 0;
	struct timespec ts = {.tv_sec = (time_t)(d / 1000000000ull),
	                      .tv_nsec = (long)(d % 1000000000ull)};
	return aio_reap(ex, want, &ts, all);
}

static void aio_destroy(struct rl_exec *ex)
{
	struct aio_state *st = ex->backend_priv;

	if (!st)
		return;
	io_destroy(st->ctx);
	free(st->iocbs);
	free(st->free);
	free(st->queued);
	free(st->events);
	free(st);
	ex->backend_priv = NULL;
}

static const struct rl_exec_backend aio_backend = {
    .now = aio_now,
    .poll = aio_poll,
    .destroy = aio_destroy,
};

int rl_exec_aio_init(struct rl_exec *ex, unsigned depth)
{
	struct aio_state *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	/*
	 * Room for the engine's slots and some children; the kernel's
	 * aio-max-nr (65536 by default) is shared by every context, so the
	 * whole child pool is not reserved: the file target does a request
	 * synchronously when the table is full.
	 */
	st->cap = (depth ? depth : 64) * 2 + 64;
	st->iocbs = calloc(st->cap, sizeof(*st->iocbs));
	st->free = calloc(st->cap, sizeof(*st->free));
	st->queued = calloc(st->cap, sizeof(*st->queued));
	st->events = calloc(st->cap, sizeof(*st->events));
	if (!st->iocbs || !st->free || !st->queued || !st->events) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = io_setup((int)st->cap, &st->ctx);
	if (rc < 0)
		goto fail;
	for (unsigned i = 0; i < st->cap; i++)
		st->free[st->nfree++] = &st->iocbs[st->cap - 1 - i];
	ex->backend_priv = st;
	ex->backend = &aio_backend;
	return 0;
fail:
	free(st->iocbs);
	free(st->free);
	free(st->queued);
	free(st->events);
	free(st);
	return rc;
}

int rl_exec_aio_submit(struct rl_exec *ex, struct rl_io *io, int fd, bool alone)
{
	struct aio_state *st = ex->backend_priv;

	if (!st->nfree)
		return -EAGAIN;
	struct iocb *cb = st->free[--st->nfree];
	switch (io->op) {
	case RL_OP_READ:
		io_prep_pread(cb, fd, io->buf, io->len, (long long)io->offset);
		cb->aio_rw_flags = ex->opts.rw_flags; /* nowait */
		break;
	case RL_OP_WRITE:
		io_prep_pwrite(cb, fd, io->buf, io->len, (long long)io->offset);
		cb->aio_rw_flags = ex->opts.rw_flags | (io->flags & RL_IO_FUA ? RWF_DSYNC : 0);
		break;
	case RL_OP_FLUSH:
		if (io->flags & RL_IO_FSYNC)
			io_prep_fsync(cb, fd);
		else
			io_prep_fdsync(cb, fd);
		break;
	default:
		st->free[st->nfree++] = cb;
		return -EOPNOTSUPP;
	}
	if (io->ioprio && io->op != RL_OP_FLUSH) {
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
		cb->aio_reqprio = (short)io->ioprio;
	}
	cb->data = io;
	ex->backend_inflight++;
	if (alone) {
		/* buffered I/O runs inside io_submit: one at a time, like fio's default batch */
		int rc = io_submit(st->ctx, 1, &cb);
		if (rc == 1) {
			io->t_issued = ex->backend->now(ex);
			rl_exec_note_batch(ex->batch_submit, 1);
			return 0;
		}
		if (rc == -EAGAIN || rc == -EINTR || rc == 0) {
			st->queued[st->nqueued++] = cb; /* retry at the next poll */
			return 0;
		}
		ex->backend_inflight--;
		st->free[st->nfree++] = cb;
		return rc;
	}
	st->queued[st->nqueued++] = cb;
	if (ex->submit_batch && st->nqueued >= ex->submit_batch)
		aio_flush_queue(ex, false); /* fio's iodepth_batch_submit: hand them over now */
	return 0;
}
