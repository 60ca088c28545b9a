/*
 * negotiate.c - the handshake half of the NBD protocol engine: the greeting,
 * fixed newstyle option haggling and the choice of export.
 *
 * The server always sets FIXED_NEWSTYLE and NO_ZEROES and accepts only the
 * client flags that match them.  Options: GO and INFO (with INFO_EXPORT and
 * INFO_BLOCK_SIZE always sent, NAME and DESCRIPTION on request),
 * EXPORT_NAME, LIST, ABORT, STRUCTURED_REPLY (unless the server declines
 * it: ctx->no_structured) and STARTTLS; anything else
 * gets NBD_REP_ERR_UNSUP with a message.  A malformed option gets
 * NBD_REP_ERR_INVALID and negotiation goes on; only EXPORT_NAME, which has
 * no way to report an error, closes the connection.  What an export
 * advertises (flags, block sizes) is decided in serve_export_init().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "serve/conn_int.h"

/* --- exports --- */

void serve_export_init(struct serve_export *e, bool read_only)
{
	struct rl_target *t = e->t;

	e->read_only = read_only;
	e->min_bs = t->block_size;
	e->pref_bs = t->block_size > 4096 ? t->block_size : 4096;
	e->max_payload = NBD_DEFAULT_MAX;
	e->tflags = NBD_FLAG_HAS_FLAGS | NBD_FLAG_SEND_FLUSH | NBD_FLAG_SEND_FUA |
	            NBD_FLAG_CAN_MULTI_CONN | NBD_FLAG_SEND_CACHE;
	if (read_only)
		e->tflags |= NBD_FLAG_READ_ONLY;
	else
		e->tflags |= NBD_FLAG_SEND_WRITE_ZEROES;
	if ((t->caps & RL_CAP_TRIM) && !read_only)
		e->tflags |= NBD_FLAG_SEND_TRIM;
	for (int d = 0; d < SERVE_DIRS; d++)
		st_hist_init(&e->dir[d].hist);
	e->parked_tail = &e->parked;
}

static struct serve_export *conn_find_export(struct serve_ctx *ctx, const uint8_t *name,
                                             uint32_t len)
{
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_export *e = &ctx->exports[i];
		if (strlen(e->name) == len && !memcmp(e->name, name, len))
			return e;
	}
	/* The empty name is the default export: the first one. */
	if (len == 0 && ctx->nexports)
		return &ctx->exports[0];
	return NULL;
}

static void conn_opt_reply(struct serve_conn *c, uint32_t opt, uint32_t type, const void *data,
                           uint32_t len)
{
	struct conn_out *o = conn_msg(c, 20 + len);

	if (!o)
		return;
	uint8_t *p = conn_msg_bytes(o);
	put64(p, NBD_REP_MAGIC);
	put32(p + 8, opt);
	put32(p + 12, type);
	put32(p + 16, len);
	if (len)
		memcpy(p + 20, data, len);
	conn_queue(c, o);
}

static void conn_opt_error(struct serve_conn *c, uint32_t opt, uint32_t type, const char *msg)
{
	conn_opt_reply(c, opt, type, msg, (uint32_t)strlen(msg));
}

/* --- negotiation --- */

struct serve_conn *serve_conn_new(struct serve_ctx *ctx, void *owner)
{
	struct serve_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ctx = ctx;
	c->owner = owner;
	c->out_tail = &c->out_head;
	c->stage = malloc(CONN_STAGE);
	if (!c->stage) {
		free(c);
		return NULL;
	}
	struct conn_out *o = conn_msg(c, 18);
	if (!o) {
		free(c->stage);
		free(c);
		return NULL;
	}
	put64(o->hdr, NBD_MAGIC);
	put64(o->hdr + 8, NBD_IHAVEOPT);
	put16(o->hdr + 16, NBD_FLAG_FIXED_NEWSTYLE | NBD_FLAG_NO_ZEROES);
	conn_queue(c, o);
	c->state = CONN_CFLAGS;
	return c;
}

static uint16_t conn_tflags(const struct serve_conn *c, const struct serve_export *e)
{
	uint16_t f = e->tflags;

	if (c->structured)
		f |= NBD_FLAG_SEND_DF; /* a read is always one chunk */
	return f;
}

static int conn_enter_tx(struct serve_conn *c, struct serve_export *e)
{
	unsigned n = c->ctx->max_inflight ? c->ctx->max_inflight : 64;

	c->slots = calloc(n, sizeof(*c->slots));
	if (!c->slots) {
		c->err = "out of memory";
		c->closing = c->drop = true;
		return -ENOMEM;
	}
	c->nslots = n;
	for (unsigned i = n; i-- > 0;) {
		c->slots[i].c = c;
		c->slots[i].next_free = c->free_slots;
		c->free_slots = &c->slots[i];
	}
	c->exp = e;
	e->connections++;
	c->state = CONN_REQ;
	return 0;
}

static void conn_info_reply(struct serve_conn *c, uint32_t opt, uint16_t type, const void *data,
                            uint32_t len)
{
	uint8_t buf[2 + NBD_MAX_STRING + 64];

	put16(buf, type);
	memcpy(buf + 2, data, len);
	conn_opt_reply(c, opt, NBD_REP_INFO, buf, 2 + len);
}

/* NBD_OPT_INFO and NBD_OPT_GO: name length, name, request count, requests. */
static void conn_opt_info(struct serve_conn *c, uint32_t opt, const uint8_t *d, uint32_t len)
{
	bool want_name = false, want_desc = false;
	uint8_t b[14];

	if (len < 6 || get32(d) > len - 6) {
		conn_opt_error(c, opt, NBD_REP_ERR_INVALID, "option data too short for its name");
		return;
	}
	uint32_t nlen = get32(d);
	uint16_t nreq = get16(d + 4 + nlen);
	if (4 + nlen + 2 + 2u * nreq != len) {
		conn_opt_error(c, opt, NBD_REP_ERR_INVALID,
		               "option length does not match its information requests");
		return;
	}
	if (nlen > NBD_MAX_STRING) {
		conn_opt_error(c, opt, NBD_REP_ERR_TOO_BIG, "export name longer than 4096 bytes");
		return;
	}
	for (uint16_t i = 0; i < nreq; i++) {
		uint16_t r = get16(d + 4 + nlen + 2 + 2u * i);
		want_name |= r == NBD_INFO_NAME;
		want_desc |= r == NBD_INFO_DESCRIPTION;
	}
	struct serve_export *e = conn_find_export(c->ctx, d + 4, nlen);
	if (!e) {
		conn_opt_error(c, opt, NBD_REP_ERR_UNKNOWN, "no export of that name");
		return;
	}
	put64(b, e->t->size);
	put16(b + 8, conn_tflags(c, e));
	conn_info_reply(c, opt, NBD_INFO_EXPORT, b, 10);
	put32(b, e->min_bs);
	put32(b + 4, e->pref_bs);
	put32(b + 8, e->max_payload);
	conn_info_reply(c, opt, NBD_INFO_BLOCK_SIZE, b, 12);
	if (want_name)
		conn_info_reply(c, opt, NBD_INFO_NAME, e->name, (uint32_t)strlen(e->name));
	if (want_desc && e->spec) {
		size_t n = strlen(e->spec);
		conn_info_reply(c, opt, NBD_INFO_DESCRIPTION, e->spec,
		                (uint32_t)(n > NBD_MAX_STRING ? NBD_MAX_STRING : n));
	}
	conn_opt_reply(c, opt, NBD_REP_ACK, NULL, 0);
	if (opt == NBD_OPT_GO)
		conn_enter_tx(c, e);
}

void conn_option(struct serve_conn *c, uint32_t opt, const uint8_t *d, uint32_t len)
{
	struct serve_ctx *ctx = c->ctx;

	if (opt == NBD_OPT_ABORT) {
		conn_opt_reply(c, opt, NBD_REP_ACK, NULL, 0);
		c->closing = true;
		return;
	}
	if (ctx->shutting_down) {
		if (opt == NBD_OPT_EXPORT_NAME)
			conn_fail(c, "server shutting down");
		else
			conn_opt_error(c, opt, NBD_REP_ERR_SHUTDOWN, "server is shutting down");
		return;
	}
	if (ctx->tls_required && !c->tls_on && opt != NBD_OPT_STARTTLS) {
		if (opt == NBD_OPT_EXPORT_NAME)
			conn_fail(c, "EXPORT_NAME before STARTTLS on a TLS-only server");
		else
			conn_opt_error(c, opt, NBD_REP_ERR_TLS_REQD, "this server requires TLS");
		return;
	}
	switch (opt) {
	case NBD_OPT_EXPORT_NAME: {
		struct serve_export *e =
		    len <= NBD_MAX_STRING ? conn_find_export(ctx, d, len) : NULL;
		if (!e) {
			conn_fail(c, "EXPORT_NAME asked for an unknown export");
			return;
		}
		struct conn_out *o = conn_msg(c, c->no_zeroes ? 10 : 134);
		if (!o)
			return;
		uint8_t *p = conn_msg_bytes(o);
		put64(p, e->t->size);
		put16(p + 8, conn_tflags(c, e));
		conn_queue(c, o);
		conn_enter_tx(c, e);
		return;
	}
	case NBD_OPT_LIST:
		if (len) {
			conn_opt_error(c, opt, NBD_REP_ERR_INVALID, "LIST takes no data");
			return;
		}
		for (unsigned i = 0; i < ctx->nexports; i++) {
			const char *name = ctx->exports[i].name;
			uint32_t n = (uint32_t)strlen(name);
			uint8_t buf[4 + NBD_MAX_STRING];
			if (n > NBD_MAX_STRING)
				n = NBD_MAX_STRING;
			put32(buf, n);
			memcpy(buf + 4, name, n);
			conn_opt_reply(c, opt, NBD_REP_SERVER, buf, 4 + n);
		}
		conn_opt_reply(c, opt, NBD_REP_ACK, NULL, 0);
		return;
	case NBD_OPT_STARTTLS:
		if (len)
			conn_opt_error(c, opt, NBD_REP_ERR_INVALID, "STARTTLS takes no data");
		else if (c->tls_on)
			conn_opt_error(c, opt, NBD_REP_ERR_INVALID, "TLS is already on");
		else if (!ctx->tls_available)
			conn_opt_error(c, opt, NBD_REP_ERR_POLICY,
			               "TLS is not configured (serve --tls-cert/--tls-key)");
		else {
			conn_opt_reply(c, opt, NBD_REP_ACK, NULL, 0);
			c->tls_pending = true;
		}
		return;
	case NBD_OPT_INFO:
	case NBD_OPT_GO:
		conn_opt_info(c, opt, d, len);
		return;
	case NBD_OPT_STRUCTURED_REPLY:
		if (len) {
			conn_opt_error(c, opt, NBD_REP_ERR_INVALID,
			               "STRUCTURED_REPLY takes no data");
			return;
		}
		if (c->ctx->no_structured) {
			conn_opt_error(
			    c, opt, NBD_REP_ERR_UNSUP,
			    "structured replies are off (serve --no-structured-replies)");
			return;
		}
		c->structured = true;
		conn_opt_reply(c, opt, NBD_REP_ACK, NULL, 0);
		return;
	default:
		conn_opt_error(c, opt, NBD_REP_ERR_UNSUP, "option not supported by raidlab");
		return;
	}
}
