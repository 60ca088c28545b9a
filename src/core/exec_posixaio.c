/*
 * exec_posixaio.c - the POSIX AIO executor (fio's posixaio engine).
 *
 * Real clock.  The file target hands each request to
 * rl_exec_posixaio_submit(), which fills an aiocb from a preallocated
 * table and starts it at once with aio_read/aio_write/aio_fsync (glibc
 * runs them on its own helper threads); the request is stamped issued when
 * that call returns.  A poll looks at every started request with
 * aio_error() and completes the finished ones with aio_return()'s result,
 * mapped to 0 / -errno (a short transfer is -EIO), so the file target keeps
 * a single completion path.  A poll that must block waits in aio_suspend()
 * for any of them, with a timeout at the next timer, so timers keep firing
 * on time.  The table is twice the depth plus room for the children of
 * composite targets; when it is full the submit returns -EAGAIN and the
 * file target does that request synchronously.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exec.h"
#include "core/exec_backend.h"

struct pa_slot {
	struct aiocb cb;
	struct rl_io *io;
};

struct pa_state {
	struct pa_slot *slots;
	struct pa_slot **free; /* a stack */
	unsigned nfree;
	struct pa_slot **busy;     /* started, not yet completed */
	const struct aiocb **wait; /* aio_suspend's list, built per wait */
	unsigned nbusy, cap;
};

static uint64_t pa_now(struct rl_exec *ex)
{
	(void)ex;
	return rl_exec_wall_now();
}

/* Complete every started request that has finished; returns how many. */
static int pa_reap(struct rl_exec *ex)
{
	struct pa_state *st = ex->backend_priv;
	int n = 0;

	rl_exec_batch_begin(ex);
	for (unsigned i = 0; i < st->nbusy;) {
		struct pa_slot *s = st->busy[i];
		int err = aio_error(&s->cb);
		if (err == EINPROGRESS) {
			i++;
			continue;
		}
		ssize_t res = aio_return(&s->cb);
		struct rl_io *io = s->io;
		int status =
		    err ? -err
		    : (io->op == RL_OP_READ || io->op == RL_OP_WRITE) && (size_t)res != io->len
		        ? -EIO
		        : 0;
		st->busy[i] = st->busy[--st->nbusy];
		s->io = NULL;
		st->free[st->nfree++] = s;
		rl_exec_backend_done(ex, io, status);
		n++;
	}
	rl_exec_batch_end(ex);
	return n;
}

static int pa_poll(struct rl_exec *ex, uint64_t block_until)
{
	struct pa_state *st = ex->backend_priv;
	int n = pa_reap(ex);

	if (n || !block_until)
		return n;
	uint64_t now = pa_now(ex);
	struct timespec ts, *tsp = NULL;
	if (block_until != UINT64_MAX) {
		uint64_t d = block_until > now ? block_until - now : 0;
		ts.tv_sec = (time_t)(d / 1000000000ull);
		ts.tv_nsec = (long)(d % 1000000000ull);
		tsp = &ts;
	}
	if (!st->nbusy) {
		if (tsp)
			nanosleep(tsp, NULL);
		return 0;
	}
	for (unsigned i = 0; i < st->nbusy; i++)
		st->wait[i] = &st->busy[i]->cb;
	if (aio_suspend(st->wait, (int)st->nbusy, tsp) && errno != EAGAIN && errno != EINTR)
		return -errno;
	return pa_reap(ex);
}

static void pa_destroy(struct rl_exec *ex)
{
	struct pa_state *st = ex->backend_priv;

	if (!st)
		return;
	free(st->slots);
	free(st->free);
	free(st->busy);
	free(st->wait);
	free(st);
	ex->backend_priv = NULL;
}

static const struct rl_exec_backend pa_backend = {
    .now = pa_now,
    .poll = pa_poll,
    .destroy = pa_destroy,
};

int rl_exec_posixaio_init(struct rl_exec *ex, unsigned depth)
{
	struct pa_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->cap = (depth ? depth : 64) * 2 + 64;
	st->slots = calloc(st->cap, sizeof(*st->slots));
	st->free = calloc(st->cap, sizeof(*st->free));
	st->busy = calloc(st->cap, sizeof(*st->busy));
	st->wait = calloc(st->cap, sizeof(*st->wait));
	if (!st->slots || !st->free || !st->busy || !st->wait) {
		ex->backend_priv = st;
		pa_destroy(ex);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < st->cap; i++)
		st->free[st->nfree++] = &st->slots[st->cap - 1 - i];
	ex->backend_priv = st;
	ex->backend = &pa_backend;
	return 0;
}

int rl_exec_posixaio_submit(struct rl_exec *ex, struct rl_io *io, int fd)
{
	struct pa_state *st = ex->backend_priv;
	int rc;

	if (!st->nfree)
		return -EAGAIN;
	struct pa_slot *s = st->free[st->nfree - 1];
	memset(&s->cb, 0, sizeof(s->cb));
	s->cb.aio_fildes = fd;
	s->cb.aio_buf = io->buf;
	s->cb.aio_nbytes = io->len;
	s->cb.aio_offset = (off_t)io->offset;
	s->cb.aio_sigevent.sigev_notify = SIGEV_NONE;
	switch (io->op) {
	case RL_OP_READ:
		rc = aio_read(&s->cb);
		break;
	case RL_OP_WRITE:
		if (io->flags & RL_IO_FUA)
			return -EOPNOTSUPP; /* POSIX AIO has no per-write sync: do it synchronously
			                     */
		rc = aio_write(&s->cb);
		break;
	case RL_OP_FLUSH:
		rc = aio_fsync(O_DSYNC, &s->cb);
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (rc)
		return errno == EAGAIN ? -EAGAIN : -errno;
	io->t_issued = pa_now(ex);
	st->nfree--;
	s->io = io;
	st->busy[st->nbusy++] = s;
	ex->backend_inflight++;
	return 0;
}
