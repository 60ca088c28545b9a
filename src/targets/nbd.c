/*
 * nbd.c - an NBD server's export as the target, through libnbd: fio's nbd
 * engine.
 *
 *   nbd("nbd://host:10809/export")
 *   nbd("nbd+unix:///?socket=/tmp/sock")
 *
 * The argument is an NBD URI as libnbd reads it (nbd_connect_uri: nbd://,
 * nbds://, nbd+unix://, nbd+vsock://).  The target connects when it is
 * built, so a bad URI or a server that is not there is an error naming the
 * URI and libnbd's reason before any job starts.  Its size is the export's
 * (rounded down to a multiple of its block size), as fio takes the export's
 * size for the job's file; its block size is the server's preferred
 * minimum, at least 512.
 *
 * One connection per executor, as each of fio's jobs connects: the first
 * executor to attach (or to submit, if it never attached) takes the
 * connection made at build time, every other one opens its own, so the
 * numjobs copies of a job, which share the target, each talk to the
 * server on their own connection.  A connection whose executor is gone
 * is closed when the next one is opened, and the rest with the target.
 * Writing needs no --force-destroy: the URI names a server the user
 * started for the job.
 *
 * On an io_uring executor (ioengine=nbd runs on one) requests are
 * asynchronous, so a job keeps its iodepth commands in flight at the
 * server, as fio's engine does: submit starts the command (nbd_aio_pread,
 * nbd_aio_pwrite with NBD's FUA flag for an RL_IO_FUA write if the server
 * offers it, nbd_aio_trim, nbd_aio_flush) and libnbd's completion
 * callback queues the request's completion with the server's answer.
 * libnbd is driven from the executor's thread by one-shot
 * IORING_OP_POLL_ADD requests on the connection's socket, taken with
 * rl_exec_get_sqe() like any file I/O: a POLLIN one while commands are in
 * flight and libnbd waits for replies, a POLLOUT one while a request it is
 * sending would block.  When the POLLIN one fires every reply that has
 * arrived is read (nbd_aio_notify_read as long as the socket holds data:
 * a notification with nothing to read would leave libnbd in its reply
 * state, holding back the commands submitted next until a reply came),
 * then the polls are armed again for what is still in flight.  So every
 * callback runs in the thread that submitted its request, and the
 * executor is idle only when no command is in flight.
 *
 * Errors are libnbd's errno, EIO when it gives none.  A server that drops
 * the connection makes libnbd fail every command in flight or queued
 * (ENOTCONN) through the same callbacks, each request once; later
 * requests fail at submit.  A poll the ring refuses turns the connection
 * synchronous: what is in flight is waited for with nbd_poll.
 *
 * On the other executors (psync, libaio, posixaio; a ring that polls for
 * completions, hipri) a request is one synchronous call on the
 * executor's connection (nbd_pread, nbd_pwrite, nbd_trim, nbd_flush),
 * completed through the ready queue: depth one at the server.  Trim and
 * flush are offered only if the server advertises them (nbd_can_trim,
 * nbd_can_flush); a flush the server lacks completes at once, as the file
 * target's.
 *
 * Without libnbd at build time (RL_LIBNBD undefined) the type exists and
 * says that it is not built in.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

#ifdef RL_LIBNBD
#include <libnbd.h>
#include <liburing.h>
#include <poll.h>
#include <stdatomic.h>

#include "core/exec.h"
#include "core/lock.h"

#define NBDT_READS_MAX 64 /* notifications per wake-up before the poll is armed again */

/* A one-shot poll on a connection's socket, as a request on its executor's ring. */
struct nbdt_poll {
	struct rl_io io;
	bool armed;
};

/* One executor's connection.  Touched only by that executor's thread, once found. */
struct nbd_conn {
	struct nbd_conn *next;
	uint64_t ex_id; /* the executor's (rl_exec_live: gone or not) */
	struct rl_exec *ex;
	struct nbd_handle *h;
	int fd;
	bool async; /* driven by polls on the executor's ring */
	struct nbdt_poll in, out;
};

struct nbd_state {
	char *uri;
	uint64_t gen;             /* unique for the process's life (the threads' cached look-ups) */
	bool fua;                 /* the server takes NBD's FUA flag on writes */
	bool flush;               /* the server takes flush commands */
	struct rl_mutex lock;     /* over the two below */
	struct nbd_handle *spare; /* the build-time connection, unclaimed */
	struct nbd_conn *conns;   /* every executor's */
};

/* A request in flight: whether libnbd has called its completion callback yet. */
struct nbdt_req {
	bool done;
};
RL_IO_CTX_DEFINE(nbdt_req, struct nbdt_req)

static _Atomic uint64_t nbdt_gens;

/* The thread's last look-up: by generation and executor id, never a stale pointer. */
static _Thread_local struct {
	uint64_t gen, ex_id;
	struct nbd_conn *c;
} nbdt_last;

/* libnbd's errno for the call that just failed, EIO when it gives none. */
static int nbdt_errno(void)
{
	int e = nbd_get_errno();
	return e > 0 ? -e : -EIO;
}

/* Close @h: an orderly disconnect unless commands are in flight (whose callbacks
   would run on an executor that is gone: closing frees them uncalled). */
static void nbdt_hangup(struct nbd_handle *h)
{
	if (!h)
		return;
	if (nbd_aio_is_ready(h) && nbd_aio_in_flight(h) == 0)
		nbd_shutdown(h, 0);
	nbd_close(h);
}

/* Open a new handle on @uri; NULL with libnbd's error set on failure. */
static struct nbd_handle *nbdt_open(const char *uri)
{
	struct nbd_handle *h = nbd_create();

	if (h && nbd_connect_uri(h, uri) == -1) {
		int e = nbd_get_errno();
		nbd_close(h);
		errno = e > 0 ? e : EIO;
		return NULL;
	}
	return h;
}

/* --- the asynchronous path: polls on the executor's ring --- */

static void nbdt_in_ready(struct rl_io *io, int status);
static void nbdt_out_ready(struct rl_io *io, int status);

/* The ring refused a poll: wait for what is in flight here, and go on synchronously. */
static void nbdt_drive_sync(struct nbd_conn *c)
{
	c->async = false;
	while (nbd_aio_in_flight(c->h) > 0)
		if (nbd_poll(c->h, -1) == -1)
			break; /* the handle is dead: libnbd failed every command in flight */
}

static int nbdt_arm(struct nbd_conn *c, struct nbdt_poll *p, unsigned events, rl_io_cb cb)
{
	struct io_uring_sqe *sqe;

	memset(&p->io, 0, sizeof(p->io));
	p->io.op = RL_OP_FLUSH; /* not a transfer: the executor reports 0 or -errno */
	p->io.cb = cb;
	p->io.cb_arg = c;
	p->io.ex = c->ex;
	sqe = rl_exec_get_sqe(c->ex, &p->io);
	if (!sqe)
		return -EIO;
	io_uring_prep_poll_add(sqe, c->fd, events);
	p->armed = true;
	rl_exec_sqe_ready(c->ex);
	return 0;
}

/* Arm the polls libnbd's state asks for: replies to wait for, a request to finish sending. */
static void nbdt_watch(struct nbd_conn *c)
{
	unsigned dir;
	int rc = 0;

	if (!c->async)
		return;
	dir = (unsigned)nbd_aio_get_direction(c->h);
	if ((dir & LIBNBD_AIO_DIRECTION_READ) && nbd_aio_in_flight(c->h) > 0 && !c->in.armed)
		rc = nbdt_arm(c, &c->in, POLLIN, nbdt_in_ready);
	if (!rc && (dir & LIBNBD_AIO_DIRECTION_WRITE) && !c->out.armed)
		rc = nbdt_arm(c, &c->out, POLLOUT, nbdt_out_ready);
	if (rc)
		nbdt_drive_sync(c);
}

/* Whether a read on @fd would not block: data, the end of the stream or an error. */
static bool nbdt_readable(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	return poll(&p, 1, 0) == 1 && p.revents;
}

/*
 * Poll @p of @c ended with @status: false when there is nothing for the
 * caller to do (the connection went synchronous, or the ring failed the
 * poll and it goes synchronous now).
 */
static bool nbdt_poll_ended(struct nbd_conn *c, struct nbdt_poll *p, int status)
{
	p->armed = false;
	if (!c->async)
		return false;
	if (status < 0) {
		nbdt_drive_sync(c);
		return false;
	}
	return true;
}

static void nbdt_in_ready(struct rl_io *io, int status)
{
	struct nbd_conn *c = io->cb_arg;

	if (!nbdt_poll_ended(c, &c->in, status))
		return;
	/* the poll saw the socket readable; after each reply, it is asked again */
	for (int i = 0; i < NBDT_READS_MAX; i++) {
		if (!(nbd_aio_get_direction(c->h) & LIBNBD_AIO_DIRECTION_READ) ||
		    (i && !nbdt_readable(c->fd)))
			break;
		if (nbd_aio_notify_read(c->h) == -1)
			break; /* dead: libnbd failed every command in flight */
	}
	nbdt_watch(c);
}

static void nbdt_out_ready(struct rl_io *io, int status)
{
	struct nbd_conn *c = io->cb_arg;

	if (!nbdt_poll_ended(c, &c->out, status))
		return;
	if (nbd_aio_get_direction(c->h) & LIBNBD_AIO_DIRECTION_WRITE)
		(void)nbd_aio_notify_write(c->h); /* a failure is a dead handle, as above */
	nbdt_watch(c);
}

/* libnbd's completion callback, in the executor's thread (a notification or a submit). */
static int nbdt_done(void *user_data, int *error)
{
	struct rl_io *io = user_data;

	nbdt_req(io)->done = true;
	rl_io_complete_later(io, *error > 0 ? -*error : 0);
	return 1; /* retire the command */
}

static void nbdt_submit_async(struct nbd_state *s, struct nbd_conn *c, struct rl_io *io)
{
	nbd_completion_callback cb = {.callback = nbdt_done, .user_data = io};
	int64_t r;

	nbdt_req(io)->done = false;
	switch (io->op) {
	case RL_OP_READ:
		r = nbd_aio_pread(c->h, io->buf, io->len, io->offset, cb, 0);
		break;
	case RL_OP_WRITE:
		r = nbd_aio_pwrite(c->h, io->buf, io->len, io->offset, cb,
		                   (io->flags & RL_IO_FUA) && s->fua ? LIBNBD_CMD_FLAG_FUA : 0);
		break;
	case RL_OP_TRIM:
		r = nbd_aio_trim(c->h, io->len, io->offset, cb, 0);
		break;
	default: /* RL_OP_FLUSH, offered by the server (nbdt_submit) */
		r = nbd_aio_flush(c->h, cb, 0);
		break;
	}
	if (r == -1) {
		/* not queued: libnbd never calls the callback of a command it refused */
		if (!nbdt_req(io)->done)
			rl_io_complete_later(io, nbdt_errno());
		return;
	}
	io->t_issued = rl_exec_now(io->ex); /* sent, or queued behind the one being sent */
	nbdt_watch(c);
}

/* --- connections --- */

/* A new connection for @ex on @h (NULL: open one). */
static struct nbd_conn *nbdt_conn_new(struct nbd_state *s, struct rl_exec *ex, struct nbd_handle *h,
                                      int *err)
{
	struct nbd_conn *c;

	if (!h && !(h = nbdt_open(s->uri))) {
		*err = -errno;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		nbdt_hangup(h);
		*err = -ENOMEM;
		return NULL;
	}
	c->ex_id = ex->id;
	c->ex = ex;
	c->h = h;
	c->fd = nbd_aio_get_fd(h);
	c->async = ex->kind == RL_EXEC_URING && ex->ring && !ex->opts.iopoll && c->fd >= 0;
	rl_mutex_lock(&s->lock);
	c->next = s->conns;
	s->conns = c;
	rl_mutex_unlock(&s->lock);
	return c;
}

/* @ex's connection, opened (or the build-time one claimed) on its first look-up. */
static struct nbd_conn *nbdt_conn(struct nbd_state *s, struct rl_exec *ex, int *err)
{
	struct nbd_conn *c, **pp, *dead = NULL;
	struct nbd_handle *h = NULL;

	if (nbdt_last.gen == s->gen && nbdt_last.ex_id == ex->id)
		return nbdt_last.c;
	rl_mutex_lock(&s->lock);
	for (c = s->conns; c && c->ex_id != ex->id; c = c->next)
		;
	if (!c) {
		/* an executor's first look-up: the connections of those gone are closed */
		for (pp = &s->conns; *pp;) {
			struct nbd_conn *d = *pp;
			if (rl_exec_live(d->ex_id)) {
				pp = &d->next;
				continue;
			}
			*pp = d->next;
			d->next = dead;
			dead = d;
		}
		h = s->spare;
		s->spare = NULL;
	}
	rl_mutex_unlock(&s->lock);
	while (dead) {
		struct nbd_conn *d = dead;
		dead = d->next;
		nbdt_hangup(d->h);
		free(d);
	}
	if (!c && !(c = nbdt_conn_new(s, ex, h, err)))
		return NULL;
	nbdt_last.gen = s->gen;
	nbdt_last.ex_id = ex->id;
	nbdt_last.c = c;
	return c;
}

/* A request as one synchronous call on @h (executors that cannot poll the socket). */
static int nbdt_sync(struct nbd_state *s, struct nbd_handle *h, struct rl_io *io)
{
	int r;

	switch (io->op) {
	case RL_OP_READ:
		r = nbd_pread(h, io->buf, io->len, io->offset, 0);
		break;
	case RL_OP_WRITE:
		r = nbd_pwrite(h, io->buf, io->len, io->offset,
		               (io->flags & RL_IO_FUA) && s->fua ? LIBNBD_CMD_FLAG_FUA : 0);
		break;
	case RL_OP_TRIM:
		r = nbd_trim(h, io->len, io->offset, 0);
		break;
	default: /* RL_OP_FLUSH */
		r = nbd_flush(h, 0);
		break;
	}
	return r == -1 ? nbdt_errno() : 0;
}

static void nbdt_submit(struct rl_target *t, struct rl_io *io)
{
	struct nbd_state *s = t->priv;
	struct nbd_conn *c;
	int err = 0;

	if (io->op >= RL_OP_COUNT) {
		rl_io_complete_later(io, -EOPNOTSUPP);
		return;
	}
	if (io->op == RL_OP_FLUSH && !s->flush) {
		rl_io_complete_later(io, 0);
		return;
	}
	c = nbdt_conn(s, io->ex, &err);
	if (!c)
		rl_io_complete_later(io, err);
	else if (c->async)
		nbdt_submit_async(s, c, io);
	else
		rl_io_complete_later(io, nbdt_sync(s, c->h, io));
}

/* Each executor connects before its first request, so a refusal is a setup error. */
static int nbdt_attach(struct rl_target *t, struct rl_exec *ex)
{
	int err = 0;

	return nbdt_conn(t->priv, ex, &err) ? 0 : err;
}

static int nbdt_describe(struct rl_target *t, struct json_object *obj)
{
	struct nbd_state *s = t->priv;

	json_object_object_add(obj, "uri", json_object_new_string(s->uri));
	return 0;
}

static void nbdt_destroy(struct rl_target *t)
{
	struct nbd_state *s = t->priv;

	if (!s)
		return;
	rl_mutex_lock(&s->lock);
	while (s->conns) {
		struct nbd_conn *c = s->conns;
		s->conns = c->next;
		nbdt_hangup(c->h);
		free(c);
	}
	nbdt_hangup(s->spare);
	s->spare = NULL;
	rl_mutex_unlock(&s->lock);
	rl_mutex_destroy(&s->lock);
	free(s->uri);
	free(s);
	t->priv = NULL;
}

static const struct rl_target_ops nbdt_ops = {
    .name = "nbd",
    .ctx_size = sizeof(struct nbdt_req),
    .submit = nbdt_submit,
    .attach = nbdt_attach,
    .describe = nbdt_describe,
    .destroy = nbdt_destroy,
};

/* Connect @s to its URI and read the export's size, block size and what it offers. */
static int nbdt_connect(struct nbd_state *s, size_t pos, uint64_t *size, uint32_t *bs, bool *trim,
                        struct rl_err *err)
{
	struct nbd_handle *h = nbd_create();

	if (!h)
		return rl_err_set(err, pos, "nbd: cannot create a libnbd handle: %s",
		                  nbd_get_error());
	rl_mutex_lock(&s->lock);
	s->spare = h;
	rl_mutex_unlock(&s->lock);
	if (nbd_connect_uri(h, s->uri) == -1) {
		int e = nbd_get_errno();
		rl_err_set(err, pos, "nbd: cannot connect to '%s': %s", s->uri, nbd_get_error());
		return e > 0 ? -e : -EINVAL;
	}
	int64_t sz = nbd_get_size(h);
	if (sz < 0)
		return rl_err_set(err, pos, "nbd: '%s': cannot read the export's size: %s", s->uri,
		                  nbd_get_error());
	int64_t min = nbd_get_block_size(h, LIBNBD_SIZE_MINIMUM);
	*bs = 512;
	while (min > 0 && *bs < (uint64_t)min && *bs < 65536)
		*bs *= 2;
	*size = (uint64_t)sz / *bs * *bs;
	if (!*size)
		return rl_err_set(err, pos,
		                  "nbd: '%s': the export holds %lld bytes, less than a block",
		                  s->uri, (long long)sz);
	s->fua = nbd_can_fua(h) == 1;
	s->flush = nbd_can_flush(h) == 1;
	*trim = nbd_can_trim(h) == 1;
	return 0;
}

static int nbdt_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	(void)ctx;
	if (!node->is_call || node->nargs != 1 || node->args[0]->is_call || !node->args[0]->name[0])
		return rl_err_set(
		    err, node->pos,
		    "nbd takes the server's URI, e.g. nbd(\"nbd://localhost/export\") or "
		    "nbd(\"nbd+unix:///?socket=/tmp/sock\")");
	int rc = rl_params_check(node, NULL, err);
	if (rc)
		return rc;
	struct nbd_state *s = calloc(1, sizeof(*s));
	if (!s || !(s->uri = strdup(node->args[0]->name))) {
		free(s);
		return -ENOMEM;
	}
	rl_mutex_init(&s->lock);
	s->gen = atomic_fetch_add(&nbdt_gens, 1) + 1; /* never 0: no thread's cache matches it */
	uint64_t size = 0;
	uint32_t bs = 512;
	bool trim = false;
	struct rl_target *t = NULL;
	rc = nbdt_connect(s, node->pos, &size, &bs, &trim, err);
	if (!rc && !(t = rl_target_alloc(&nbdt_ops, 0)))
		rc = -ENOMEM;
	if (rc) {
		struct rl_target tmp = {.priv = s};
		nbdt_destroy(&tmp);
		return rc;
	}
	t->priv = s;
	t->size = size;
	t->block_size = bs;
	t->caps =
	    RL_CAP_DATA | RL_CAP_REAL | (s->flush ? RL_CAP_FLUSH : 0) | (trim ? RL_CAP_TRIM : 0);
	*out = t;
	return 0;
}
#else
static int nbdt_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	(void)ctx;
	(void)out;
	return rl_err_set(err, node->pos,
	                  "nbd (fio's ioengine=nbd) is not built in: raidlab was built without "
	                  "libnbd (install libnbd-dev and rebuild)");
}
#endif

static struct rl_target_type nbd_type = {
    .name = "nbd",
    .summary = "an NBD server's export, reached through libnbd (fio's nbd engine; if built "
               "with libnbd)",
    .args = "URI",
    .create = nbdt_create,
};
RL_TARGET_REGISTER(nbd_type)
