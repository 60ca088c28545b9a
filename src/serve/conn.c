/*
 * conn.c - the NBD protocol engine of one connection: input, requests,
 * replies, output.  (The options of the handshake are in negotiate.c.)
 *
 * Input arrives in a staging buffer (serve_conn_rx_space/rx_done) and is
 * parsed unit by unit: the client flags, option headers with their data
 * (handed to conn_option), request headers.  A WRITE's payload is not
 * staged: after its header the engine hands out the request's own buffer
 * as the receive space, so the data is read from the socket straight into
 * the buffer the target writes from.
 *
 * Every request takes a slot: a struct rl_io, its buffer and its reply.
 * The slot is busy from its header until its reply has been sent, so a
 * connection never has more than ctx->max_inflight requests in progress;
 * with no free slot the engine asks for no more input (backpressure on the
 * socket) instead of buffering without bound.
 *
 * Validation happens before a request reaches a target: known command,
 * only the flags that command may carry, length within the maximum
 * payload, range inside the export, offset and length multiples of the
 * minimum block size, no writes on a read-only export.  A bad request gets
 * the protocol's error (EINVAL, EPERM, ENOSPC, ESHUTDOWN); a request that
 * makes the stream unparseable (bad magic, a write longer than the maximum
 * payload, option data over the limit) closes the connection after what
 * is already queued has been sent.  Replies may go out of order, as the
 * protocol allows: each completes through its rl_io callback, the single
 * completion path.
 *
 * Output is a queue of (header, data) pairs handed to the socket layer as
 * iovecs, so a READ's data is sent from the request buffer without a copy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exec.h"
#include "serve/conn_int.h"

static const uint8_t conn_zeroes[CONN_ZCHUNK] __attribute__((aligned(4096)));

/* --- output queue --- */

void conn_queue(struct serve_conn *c, struct conn_out *o)
{
	o->next = NULL;
	*c->out_tail = o;
	c->out_tail = &o->next;
}

/* A negotiation message of @len bytes; the caller fills o->hdr. */
struct conn_out *conn_msg(struct serve_conn *c, uint32_t len)
{
	struct conn_out *o = calloc(1, sizeof(*o) + (len > CONN_HDR_SIZE ? len : 0));

	if (!o) {
		c->closing = c->drop = true;
		c->err = "out of memory";
		return NULL;
	}
	o->heap = true;
	if (len > CONN_HDR_SIZE) {
		o->data = (const uint8_t *)(o + 1);
		o->dlen = len;
	} else {
		o->hlen = len;
	}
	return o;
}

uint8_t *conn_msg_bytes(struct conn_out *o)
{
	return o->dlen ? (uint8_t *)(o + 1) : o->hdr;
}

void conn_fail(struct serve_conn *c, const char *why)
{
	if (!c->err)
		c->err = why;
	c->closing = true;
	c->ctx->protocol_errors++;
}

/* --- transmission: replies --- */

static uint32_t conn_errno(int status)
{
	switch (-status) {
	case EPERM:
	case EROFS:
		return NBD_EPERM;
	case ENOMEM:
		return NBD_ENOMEM;
	case EINVAL:
		return NBD_EINVAL;
	case ENOSPC:
		return NBD_ENOSPC;
	case EOVERFLOW:
		return NBD_EOVERFLOW;
	case EOPNOTSUPP:
		return NBD_ENOTSUP;
	case ESHUTDOWN:
		return NBD_ESHUTDOWN;
	default:
		return NBD_EIO;
	}
}

static void conn_reply(struct serve_slot *s, uint32_t err, const char *msg)
{
	struct serve_conn *c = s->c;
	struct conn_out *o = &s->out;

	if (s->counted) {
		c->exp->epoch_writes[s->epoch & 1]--;
		s->counted = false;
	}
	o->slot = s;
	o->heap = false;
	o->data = NULL;
	o->dlen = 0;
	if (c->structured && (err || s->type == NBD_CMD_READ)) {
		put32(o->hdr, NBD_STRUCTURED_MAG);
		put16(o->hdr + 4, NBD_REPLY_FLAG_DONE);
		put64(o->hdr + 8, s->cookie);
		if (err) {
			uint32_t n = msg ? (uint32_t)strlen(msg) : 0;
			if (n > CONN_MSG_MAX)
				n = CONN_MSG_MAX;
			put16(o->hdr + 6, NBD_REPLY_TYPE_ERROR);
			put32(o->hdr + 16, 6 + n);
			put32(o->hdr + 20, err);
			put16(o->hdr + 24, (uint16_t)n);
			if (n)
				memcpy(o->hdr + 26, msg, n);
			o->hlen = 26 + n;
		} else if (s->len) {
			put16(o->hdr + 6, NBD_REPLY_TYPE_OFFSET_DATA);
			put32(o->hdr + 16, 8 + s->len);
			put64(o->hdr + 20, s->offset);
			o->hlen = 28;
			o->data = s->buf;
			o->dlen = s->len;
		} else {
			put16(o->hdr + 6, NBD_REPLY_TYPE_NONE);
			put32(o->hdr + 16, 0);
			o->hlen = 20;
		}
	} else {
		put32(o->hdr, NBD_SIMPLE_MAGIC);
		put32(o->hdr + 4, err);
		put64(o->hdr + 8, s->cookie);
		o->hlen = 16;
		if (!err && s->type == NBD_CMD_READ && s->len) {
			o->data = s->buf;
			o->dlen = s->len;
		}
	}
	if (err && c->exp)
		c->exp->errors++;
	conn_queue(c, o);
	if (o->dlen >= SERVE_KICK_BYTES && c->ctx->kick)
		c->ctx->kick(c->owner);
}

static void conn_slot_free(struct serve_slot *s)
{
	struct serve_conn *c = s->c;

	s->next_free = c->free_slots;
	c->free_slots = s;
	c->busy--;
}

/* --- transmission: requests --- */

static void conn_io_done(struct rl_io *io, int status);

static void conn_submit(struct serve_slot *s, uint8_t op, uint64_t off, uint32_t len, void *buf,
                        uint8_t flags)
{
	struct rl_io *io = &s->io;

	memset(io, 0, sizeof(*io));
	io->op = op;
	io->flags = flags;
	io->offset = off;
	io->len = len;
	io->buf = buf;
	io->cb = conn_io_done;
	io->cb_arg = s;
	io->ex = s->c->ctx->ex;
	s->c->ctx->inflight++;
	rl_target_submit(s->c->exp->t, io);
}

static void conn_zero_next(struct serve_slot *s)
{
	uint64_t left = s->len - s->zdone;
	uint32_t n = left > CONN_ZCHUNK ? CONN_ZCHUNK : (uint32_t)left;

	conn_submit(s, RL_OP_WRITE, s->offset + s->zdone, n, (void *)conn_zeroes,
	            s->flags & NBD_CMD_FLAG_FUA ? RL_IO_FUA : 0);
}

static void conn_count(struct serve_slot *s, enum rl_op d, uint64_t bytes, uint64_t now)
{
	struct serve_dir_stats *r = &s->c->exp->dir[d];

	r->ios++;
	r->bytes += bytes;
	st_hist_add(&r->hist, now - s->t0);
	s->c->ctx->lat_sum += now - s->t0;
	s->c->ctx->lat_count++;
}

static void conn_io_done(struct rl_io *io, int status)
{
	struct serve_slot *s = io->cb_arg;
	struct serve_conn *c = s->c;
	struct serve_export *e = c->exp;

	c->ctx->inflight--;
	if (status) {
		conn_reply(s, conn_errno(status), "the target failed the request");
		return;
	}
	if (s->type == NBD_CMD_WRITE_ZEROES) {
		s->zdone += io->len;
		e->zero_bytes += io->len;
		if (s->zdone < s->len) {
			conn_zero_next(s);
			return;
		}
	}
	if (s->fua_flush) {
		s->fua_flush = false;
		conn_submit(s, RL_OP_FLUSH, 0, 0, NULL, 0);
		return;
	}
	uint64_t now = rl_exec_now(c->ctx->ex);
	switch (s->type) {
	case NBD_CMD_READ:
		conn_count(s, RL_OP_READ, s->len, now);
		break;
	case NBD_CMD_WRITE:
	case NBD_CMD_WRITE_ZEROES:
		conn_count(s, RL_OP_WRITE, s->len, now);
		break;
	case NBD_CMD_TRIM:
		conn_count(s, RL_OP_TRIM, s->len, now);
		break;
	case NBD_CMD_FLUSH:
		e->flushes++;
		break;
	}
	conn_reply(s, 0, NULL);
}

/*
 * --record: the request as the client sent it, at the wall-clock time it was
 * accepted (the client's own pace, whatever the stack's speed).
 */
static void conn_record(struct serve_ctx *ctx, const struct serve_slot *s)
{
	static const int ops[] = {[NBD_CMD_READ] = RL_OP_READ + 1,
	                          [NBD_CMD_WRITE] = RL_OP_WRITE + 1,
	                          [NBD_CMD_FLUSH] = RL_OP_FLUSH + 1,
	                          [NBD_CMD_TRIM] = RL_OP_TRIM + 1,
	                          [NBD_CMD_WRITE_ZEROES] = RL_OP_WRITE + 1};
	struct timespec ts;
	int op = s->type < sizeof(ops) / sizeof(ops[0]) ? ops[s->type] - 1 : -1;

	if (op < 0 || (op != RL_OP_FLUSH && !s->len))
		return; /* CACHE and empty requests move no data */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!ctx->record->n)
		ctx->record_t0 = now;
	uint64_t off = op == RL_OP_FLUSH ? 0 : s->offset, left = op == RL_OP_FLUSH ? 0 : s->len;
	do { /* a request beyond a trace's largest is recorded in pieces */
		uint32_t piece = left > WL_TRACE_LEN_MAX ? WL_TRACE_LEN_MAX : (uint32_t)left;
		if (wl_trace_add(ctx->record, now - ctx->record_t0, (enum rl_op)op, off, piece))
			ctx->record_lost++;
		off += piece;
		left -= piece;
	} while (left);
}

/* Check a request against the export; 0 or an NBD error with *why set. */
static uint32_t conn_check(struct serve_conn *c, struct serve_slot *s, const char **why)
{
	const struct serve_export *e = c->exp;
	uint16_t allowed = NBD_CMD_FLAG_FUA;
	bool writes = false, ranged = true;

	switch (s->type) {
	case NBD_CMD_READ:
		if (c->structured)
			allowed |= NBD_CMD_FLAG_DF;
		break;
	case NBD_CMD_WRITE:
		writes = true;
		break;
	case NBD_CMD_WRITE_ZEROES:
		allowed |= NBD_CMD_FLAG_NO_HOLE;
		writes = true;
		break;
	case NBD_CMD_TRIM:
		writes = true;
		if (!(e->tflags & NBD_FLAG_SEND_TRIM) && !e->read_only) {
			*why = "this export does not support TRIM";
			return NBD_EINVAL;
		}
		break;
	case NBD_CMD_CACHE:
		break;
	case NBD_CMD_FLUSH:
		ranged = false;
		break;
	default:
		*why = "unknown command";
		return NBD_EINVAL;
	}
	if (s->flags & ~allowed) {
		*why = "command flag not valid for this command";
		return NBD_EINVAL;
	}
	if (c->ctx->shutting_down) {
		*why = "server is shutting down";
		return NBD_ESHUTDOWN;
	}
	if (writes && e->read_only) {
		*why = "export is read-only";
		return NBD_EPERM;
	}
	if (!ranged)
		return 0;
	if ((s->type == NBD_CMD_READ || s->type == NBD_CMD_WRITE) && s->len > e->max_payload) {
		*why = "length over the maximum payload";
		return NBD_EINVAL;
	}
	if (s->offset > e->t->size || s->len > e->t->size - s->offset) {
		*why = "range beyond the end of the export";
		return writes ? NBD_ENOSPC : NBD_EINVAL;
	}
	if ((s->offset | s->len) % e->min_bs) {
		*why = "offset or length not a multiple of the minimum block size";
		return NBD_EINVAL;
	}
	return 0;
}

static int conn_buf(struct serve_slot *s, uint32_t len)
{
	if (s->cap >= len)
		return 0;
	uint8_t *b = NULL;
	if (posix_memalign((void **)&b, 4096, len))
		return -ENOMEM;
	free(s->buf);
	s->buf = b;
	s->cap = len;
	return 0;
}

/* Start a request whose header (and payload, for WRITE) has arrived. */
static void conn_dispatch(struct serve_conn *c, struct serve_slot *s)
{
	const char *why = NULL;
	uint32_t err = conn_check(c, s, &why);

	if (err) {
		conn_reply(s, err, why);
		return;
	}
	if (c->ctx->record)
		conn_record(c->ctx, s);
	if (s->type == NBD_CMD_WRITE || s->type == NBD_CMD_WRITE_ZEROES ||
	    s->type == NBD_CMD_TRIM) {
		struct serve_export *e = c->exp;
		if (e->fence_active && s->offset < e->fence_hi &&
		    s->offset + s->len > e->fence_lo) {
			s->next_parked = NULL;
			*e->parked_tail = s;
			e->parked_tail = &s->next_parked;
			return;
		}
		s->epoch = e->epoch;
		s->counted = true;
		e->epoch_writes[e->epoch & 1]++;
	}
	s->t0 = rl_exec_now(c->ctx->ex);
	s->zdone = 0;
	s->fua_flush = false;
	if (s->len == 0 && s->type != NBD_CMD_FLUSH) {
		conn_reply(s, 0, NULL); /* nothing to do; the spec asks not to disconnect */
		return;
	}
	switch (s->type) {
	case NBD_CMD_READ:
		if (conn_buf(s, s->len)) {
			conn_reply(s, NBD_ENOMEM, "out of memory");
			return;
		}
		conn_submit(s, RL_OP_READ, s->offset, s->len, s->buf, 0);
		return;
	case NBD_CMD_WRITE:
		conn_submit(s, RL_OP_WRITE, s->offset, s->len, s->buf,
		            s->flags & NBD_CMD_FLAG_FUA ? RL_IO_FUA : 0);
		return;
	case NBD_CMD_FLUSH:
		conn_submit(s, RL_OP_FLUSH, 0, 0, NULL, 0);
		return;
	case NBD_CMD_TRIM:
		s->fua_flush = (s->flags & NBD_CMD_FLAG_FUA) != 0;
		conn_submit(s, RL_OP_TRIM, s->offset, s->len, NULL, 0);
		return;
	case NBD_CMD_WRITE_ZEROES:
		conn_zero_next(s);
		return;
	case NBD_CMD_CACHE:
		/* A hint: the stacks keep no host-side cache to warm. */
		conn_reply(s, 0, NULL);
		return;
	}
}

void serve_fence_raise(struct serve_export *e, uint64_t lo, uint64_t hi)
{
	e->fence_active = true;
	e->fence_lo = lo;
	e->fence_hi = hi;
	e->epoch++;
}

bool serve_fence_drained(const struct serve_export *e)
{
	return e->epoch_writes[(e->epoch - 1) & 1] == 0;
}

void serve_fence_lift(struct serve_export *e)
{
	struct serve_slot *s = e->parked;

	e->fence_active = false;
	e->parked = NULL;
	e->parked_tail = &e->parked;
	while (s) {
		struct serve_slot *next = s->next_parked;
		conn_dispatch(s->c, s);
		s = next;
	}
}

/* Parse one request header at @p (NBD_REQUEST_SIZE bytes). */
static void conn_request(struct serve_conn *c, const uint8_t *p)
{
	if (get32(p) != NBD_REQUEST_MAGIC) {
		conn_fail(c, "bad request magic");
		return;
	}
	struct serve_slot *s = c->free_slots;
	c->free_slots = s->next_free;
	c->busy++;
	s->flags = get16(p + 4);
	s->type = get16(p + 6);
	s->cookie = get64(p + 8);
	s->offset = get64(p + 16);
	s->len = get32(p + 24);
	if (s->type == NBD_CMD_DISC) {
		conn_slot_free(s);
		c->closing = true; /* in-flight requests finish and are answered */
		return;
	}
	if (s->type == NBD_CMD_WRITE) {
		if (s->len > c->exp->max_payload) {
			conn_slot_free(s);
			snprintf(c->errbuf, sizeof(c->errbuf),
			         "write of %u bytes is over the maximum payload %u", s->len,
			         c->exp->max_payload);
			conn_fail(c, c->errbuf);
			return;
		}
		if (conn_buf(s, s->len ? s->len : 1)) {
			conn_slot_free(s);
			c->err = "out of memory";
			c->closing = c->drop = true;
			return;
		}
		c->cur = s;
		c->cur_have = 0;
		c->state = CONN_PAYLOAD;
		return;
	}
	conn_dispatch(c, s);
}

/* --- input --- */

static void conn_process(struct serve_conn *c)
{
	uint64_t budget = 0;

	c->deferred = false;
	while (!c->closing && !c->tls_pending) {
		size_t avail = c->stage_len - c->stage_off;
		const uint8_t *p = c->stage + c->stage_off;

		switch (c->state) {
		case CONN_CFLAGS: {
			if (avail < 4)
				return;
			uint32_t f = get32(p);
			c->stage_off += 4;
			if (f & ~(NBD_FLAG_C_FIXED_NEWSTYLE | NBD_FLAG_C_NO_ZEROES)) {
				conn_fail(c, "unknown client flags");
				return;
			}
			c->no_zeroes = (f & NBD_FLAG_C_NO_ZEROES) != 0;
			c->state = CONN_OPT;
			break;
		}
		case CONN_OPT: {
			if (avail < NBD_OPT_HDR_SIZE)
				return;
			if (get64(p) != NBD_IHAVEOPT) {
				conn_fail(c, "bad option magic");
				return;
			}
			uint32_t opt = get32(p + 8), len = get32(p + 12);
			if (len > NBD_OPT_DATA_MAX) {
				conn_fail(c, "option data longer than the server accepts");
				return;
			}
			if (avail < NBD_OPT_HDR_SIZE + len)
				return;
			c->stage_off += NBD_OPT_HDR_SIZE + len;
			conn_option(c, opt, p + NBD_OPT_HDR_SIZE, len);
			break;
		}
		case CONN_REQ:
			if (avail < NBD_REQUEST_SIZE || !c->free_slots)
				return;
			/*
			 * Large transfers: dispatch about CONN_BUDGET at a time and
			 * go on when replies have been sent, so copying the next
			 * read overlaps with the client receiving the last one.
			 * Progress is certain: a paused pass has dispatched work.
			 */
			if (budget >= CONN_BUDGET) {
				c->deferred = true;
				return;
			}
			c->stage_off += NBD_REQUEST_SIZE;
			budget += get32(p + 24) + 64u;
			conn_request(c, p);
			break;
		case CONN_PAYLOAD: {
			struct serve_slot *s = c->cur;
			size_t n = s->len - c->cur_have;
			if (n > avail)
				n = avail;
			memcpy(s->buf + c->cur_have, p, n);
			c->stage_off += n;
			c->cur_have += (uint32_t)n;
			if (c->cur_have < s->len)
				return;
			c->cur = NULL;
			c->state = CONN_REQ;
			conn_dispatch(c, s);
			break;
		}
		}
	}
	if (c->tls_pending && c->stage_off < c->stage_len)
		conn_fail(c, "data after STARTTLS before the TLS handshake");
}

size_t serve_conn_rx_space(struct serve_conn *c, void **buf)
{
	if (c->closing || c->tls_pending || c->deferred)
		return 0;
	if (c->state == CONN_PAYLOAD && c->stage_off == c->stage_len) {
		*buf = c->cur->buf + c->cur_have;
		return c->cur->len - c->cur_have;
	}
	if (c->state == CONN_REQ && !c->free_slots)
		return 0;
	if (c->stage_off) {
		memmove(c->stage, c->stage + c->stage_off, c->stage_len - c->stage_off);
		c->stage_len -= c->stage_off;
		c->stage_off = 0;
	}
	*buf = c->stage + c->stage_len;
	return CONN_STAGE - c->stage_len;
}

void serve_conn_rx_done(struct serve_conn *c, size_t n)
{
	if (c->state == CONN_PAYLOAD && c->stage_off == c->stage_len) {
		struct serve_slot *s = c->cur;
		c->cur_have += (uint32_t)n;
		if (c->cur_have < s->len)
			return;
		c->cur = NULL;
		c->state = CONN_REQ;
		conn_dispatch(c, s);
	} else {
		c->stage_len += n;
	}
	conn_process(c);
}

void serve_conn_rx_eof(struct serve_conn *c)
{
	if (c->state == CONN_PAYLOAD && c->cur) {
		conn_slot_free(c->cur);
		c->cur = NULL;
	}
	if (!c->closing && c->state != CONN_REQ && !c->err)
		c->err = "client closed the connection during negotiation";
	c->closing = c->drop = true;
}

void serve_conn_abort_input(struct serve_conn *c)
{
	if (c->state == CONN_PAYLOAD && c->cur) {
		conn_slot_free(c->cur);
		c->cur = NULL;
	}
	c->closing = true;
}

void serve_conn_abort(struct serve_conn *c)
{
	serve_conn_rx_eof(c);
	c->err = NULL;
}

/* --- output --- */

int serve_conn_tx_iov(struct serve_conn *c, struct iovec *iov, int max)
{
	size_t skip = c->out_off;
	int n = 0;

	if (c->drop)
		return 0;
	for (struct conn_out *o = c->out_head; o && n + 2 <= max; o = o->next) {
		if (skip < o->hlen) {
			iov[n].iov_base = (uint8_t *)o->hdr + skip;
			iov[n++].iov_len = o->hlen - skip;
			skip = 0;
		} else {
			skip -= o->hlen;
		}
		if (o->dlen && skip < o->dlen) {
			iov[n].iov_base = (uint8_t *)o->data + skip;
			iov[n++].iov_len = o->dlen - skip;
		}
		skip = 0;
	}
	return n;
}

static void conn_out_release(struct serve_conn *c, struct conn_out *o)
{
	if (o->slot)
		conn_slot_free(o->slot);
	else if (o->heap)
		free(o);
	(void)c;
}

void serve_conn_tx_done(struct serve_conn *c, size_t n)
{
	c->out_off += n;
	while (c->out_head) {
		struct conn_out *o = c->out_head;
		size_t total = (size_t)o->hlen + o->dlen;
		if (c->out_off < total)
			break;
		c->out_off -= total;
		c->out_head = o->next;
		if (!c->out_head)
			c->out_tail = &c->out_head;
		conn_out_release(c, o);
	}
	/* Slots came free: headers already staged may now be parsed. */
	conn_process(c);
}

bool serve_conn_done(const struct serve_conn *c)
{
	if (!c->closing)
		return false;
	/* Requests still in a target hold their slots; wait for them. */
	unsigned queued = 0;
	for (const struct conn_out *o = c->out_head; o; o = o->next)
		queued += o->slot != NULL;
	if (c->busy > queued)
		return false;
	return c->drop || !c->out_head;
}

bool serve_conn_tls_pending(struct serve_conn *c)
{
	return c->tls_pending && !c->out_head;
}

void serve_conn_tls_started(struct serve_conn *c)
{
	c->tls_pending = false;
	c->tls_on = true;
	c->structured = false; /* negotiation state does not survive STARTTLS */
	c->stage_len = c->stage_off = 0;
}

void serve_conn_free(struct serve_conn *c)
{
	if (!c)
		return;
	while (c->out_head) {
		struct conn_out *o = c->out_head;
		c->out_head = o->next;
		if (o->heap)
			free(o);
	}
	for (unsigned i = 0; i < c->nslots; i++)
		free(c->slots[i].buf);
	free(c->slots);
	free(c->stage);
	free(c);
}

const char *serve_conn_error(const struct serve_conn *c)
{
	return c->err;
}
