/*
 * test_serve.c - the NBD protocol engine (src/serve/conn.c) without sockets:
 * bytes are fed in as a client would send them and the replies are parsed
 * back, with a mem target behind the export on a psync executor.  Covers
 * negotiation with GO and structured replies, a write and read round trip,
 * the write fence (overlapping writes parked, others not; the epoch drain)
 * and DISC finishing in-flight requests first.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/registry.h"
#include "serve/nbd.h"
#include "serve/serve.h"

struct fix {
	struct serve_export e;
	struct serve_ctx ctx;
	struct serve_conn *c;
	uint8_t out[1 << 20];
	size_t nout, pos;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}
static uint64_t get(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Drain the executor, then take every queued output byte. */
static void pump(struct fix *f)
{
	struct iovec iov[16];

	for (;;) {
		while (!rl_exec_idle(f->ctx.ex))
			assert_true(rl_exec_run_once(f->ctx.ex, true) >= 0);
		int k = serve_conn_tx_iov(f->c, iov, 16);
		if (!k)
			return;
		size_t n = 0;
		for (int i = 0; i < k; i++) {
			assert_true(f->nout + iov[i].iov_len <= sizeof(f->out));
			memcpy(f->out + f->nout, iov[i].iov_base, iov[i].iov_len);
			f->nout += iov[i].iov_len;
			n += iov[i].iov_len;
		}
		serve_conn_tx_done(f->c, n);
	}
}

static void feed(struct fix *f, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		void *buf;
		size_t room = serve_conn_rx_space(f->c, &buf);
		assert_true(room > 0);
		size_t n = room < len ? room : len;
		memcpy(buf, p, n);
		serve_conn_rx_done(f->c, n);
		p += n;
		len -= n;
	}
}

/* The next @n output bytes (they must be there). */
static const uint8_t *take(struct fix *f, size_t n)
{
	assert_true(f->pos + n <= f->nout);
	f->pos += n;
	return f->out + f->pos - n;
}

static void option(struct fix *f, uint32_t opt, const void *data, uint32_t len)
{
	uint8_t h[16];
	put64(h, NBD_IHAVEOPT);
	put32(h + 8, opt);
	put32(h + 12, len);
	feed(f, h, 16);
	if (len)
		feed(f, data, len);
}

static void request(struct fix *f, uint16_t type, uint64_t cookie, uint64_t off, uint32_t len,
                    const void *payload)
{
	uint8_t h[NBD_REQUEST_SIZE];
	put32(h, NBD_REQUEST_MAGIC);
	put16(h + 4, 0);
	put16(h + 6, type);
	put64(h + 8, cookie);
	put64(h + 16, off);
	put32(h + 24, len);
	feed(f, h, sizeof(h));
	if (payload)
		feed(f, payload, len);
}

/* One option reply; returns its type and sets *len. */
static uint32_t opt_reply(struct fix *f, const uint8_t **data, uint32_t *len)
{
	const uint8_t *h = take(f, 20);
	assert_int_equal(get(h, 8), NBD_REP_MAGIC);
	*len = (uint32_t)get(h + 16, 4);
	*data = take(f, *len);
	return (uint32_t)get(h + 12, 4);
}

static struct fix *setup(bool structured)
{
	struct fix *f = calloc(1, sizeof(*f));
	struct rl_build_ctx b;
	struct rl_err err;
	const uint8_t *d;
	uint32_t len;
	uint8_t go[6] = {0};

	rl_build_ctx_init(&b);
	b.write_intent = true;
	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 64, 0, &f->ctx.ex), 0);
	assert_int_equal(rl_target_open("mem(size=1m)", &b, &f->e.t, &err), 0);
	f->e.name = "";
	f->e.spec = "mem(size=1m)";
	serve_export_init(&f->e, false);
	f->ctx.exports = &f->e;
	f->ctx.nexports = 1;
	f->ctx.max_inflight = 8;
	f->c = serve_conn_new(&f->ctx, NULL);
	pump(f);
	assert_memory_equal(take(f, 16), "NBDMAGICIHAVEOPT", 16);
	assert_int_equal(get(take(f, 2), 2), NBD_FLAG_FIXED_NEWSTYLE | NBD_FLAG_NO_ZEROES);
	uint8_t cf[4] = {0, 0, 0, 3};
	feed(f, cf, 4);
	if (structured) {
		option(f, NBD_OPT_STRUCTURED_REPLY, NULL, 0);
		pump(f);
		assert_int_equal(opt_reply(f, &d, &len), NBD_REP_ACK);
	}
	option(f, NBD_OPT_GO, go, sizeof(go));
	pump(f);
	bool export_seen = false, bs_seen = false;
	for (;;) {
		uint32_t t = opt_reply(f, &d, &len);
		if (t == NBD_REP_ACK)
			break;
		assert_int_equal(t, NBD_REP_INFO);
		if (get(d, 2) == NBD_INFO_EXPORT) {
			assert_int_equal(get(d + 2, 8), 1 << 20);
			uint16_t fl = (uint16_t)get(d + 10, 2);
			assert_true(fl & NBD_FLAG_HAS_FLAGS);
			assert_true(fl & NBD_FLAG_SEND_FLUSH);
			assert_true(fl & NBD_FLAG_SEND_TRIM);
			assert_false(fl & NBD_FLAG_READ_ONLY);
			export_seen = true;
		} else if (get(d, 2) == NBD_INFO_BLOCK_SIZE) {
			assert_int_equal(get(d + 2, 4), 512);
			assert_int_equal(get(d + 6, 4), 4096);
			assert_int_equal(get(d + 10, 4), NBD_DEFAULT_MAX);
			bs_seen = true;
		}
	}
	assert_true(export_seen && bs_seen);
	return f;
}

static void teardown(struct fix *f)
{
	serve_conn_rx_eof(f->c);
	pump(f);
	assert_true(serve_conn_done(f->c));
	serve_conn_free(f->c);
	rl_target_close(f->e.t);
	rl_exec_destroy(f->ctx.ex);
	free(f);
}

/* A simple reply: returns its error, checks the cookie. */
static uint32_t simple(struct fix *f, uint64_t cookie)
{
	const uint8_t *h = take(f, 16);
	assert_int_equal(get(h, 4), NBD_SIMPLE_MAGIC);
	assert_int_equal(get(h + 8, 8), cookie);
	return (uint32_t)get(h + 4, 4);
}

static void test_structured_round_trip(void **state)
{
	struct fix *f = setup(true);
	uint8_t data[1024];

	(void)state;
	memset(data, 0xab, sizeof(data));
	request(f, NBD_CMD_WRITE, 1, 4096, sizeof(data), data);
	request(f, NBD_CMD_READ, 2, 4096, sizeof(data), NULL);
	pump(f);
	assert_int_equal(simple(f, 1), 0);
	const uint8_t *h = take(f, 20);
	assert_int_equal(get(h, 4), NBD_STRUCTURED_MAG);
	assert_int_equal(get(h + 4, 2), NBD_REPLY_FLAG_DONE);
	assert_int_equal(get(h + 6, 2), NBD_REPLY_TYPE_OFFSET_DATA);
	assert_int_equal(get(h + 8, 8), 2);
	assert_int_equal(get(h + 16, 4), 8 + sizeof(data));
	assert_int_equal(get(take(f, 8), 8), 4096);
	assert_memory_equal(take(f, sizeof(data)), data, sizeof(data));
	/* A bad read: an error chunk with EINVAL and a message. */
	request(f, NBD_CMD_READ, 3, 1 << 20, 512, NULL);
	pump(f);
	h = take(f, 20);
	assert_int_equal(get(h + 6, 2), NBD_REPLY_TYPE_ERROR);
	const uint8_t *p = take(f, (size_t)get(h + 16, 4));
	assert_int_equal(get(p, 4), NBD_EINVAL);
	assert_true(get(p + 4, 2) > 0);
	assert_int_equal(f->e.dir[RL_OP_WRITE].ios, 1);
	assert_int_equal(f->e.dir[RL_OP_READ].ios, 1);
	assert_int_equal(f->e.errors, 1);
	teardown(f);
}

static void test_fence_parks_overlapping_writes(void **state)
{
	struct fix *f = setup(false);
	uint8_t a[512], b[512];

	(void)state;
	memset(a, 0x11, sizeof(a));
	memset(b, 0x22, sizeof(b));
	serve_fence_raise(&f->e, 0, 8192);
	assert_true(serve_fence_drained(&f->e));
	request(f, NBD_CMD_WRITE, 1, 4096, sizeof(a), a);  /* inside: parked */
	request(f, NBD_CMD_WRITE, 2, 65536, sizeof(b), b); /* outside: goes on */
	request(f, NBD_CMD_READ, 3, 4096, 512, NULL);      /* reads are never fenced */
	pump(f);
	assert_int_equal(simple(f, 2), 0);
	assert_int_equal(simple(f, 3), 0);
	uint8_t zero[512] = {0};
	assert_memory_equal(take(f, 512), zero, 512); /* the parked write has not happened */
	assert_int_equal(f->pos, f->nout);            /* and has no reply yet */
	serve_fence_lift(&f->e);
	pump(f);
	assert_int_equal(simple(f, 1), 0);
	request(f, NBD_CMD_READ, 4, 4096, 512, NULL);
	pump(f);
	assert_int_equal(simple(f, 4), 0);
	assert_memory_equal(take(f, 512), a, 512);
	teardown(f);
}

static void test_fence_waits_for_earlier_writes(void **state)
{
	struct fix *f = setup(false);
	uint8_t a[512];
	void *buf;

	(void)state;
	memset(a, 0x33, sizeof(a));
	/* Feed a write without running the executor: it is in the target. */
	uint8_t h[NBD_REQUEST_SIZE];
	put32(h, NBD_REQUEST_MAGIC);
	put16(h + 4, 0);
	put16(h + 6, NBD_CMD_WRITE);
	put64(h + 8, 9);
	put64(h + 16, 100 * 512);
	put32(h + 24, sizeof(a));
	size_t room = serve_conn_rx_space(f->c, &buf);
	assert_true(room >= sizeof(h) + sizeof(a));
	memcpy(buf, h, sizeof(h));
	memcpy((uint8_t *)buf + sizeof(h), a, sizeof(a));
	serve_conn_rx_done(f->c, sizeof(h) + sizeof(a));
	serve_fence_raise(&f->e, 0, 4096); /* elsewhere, but dispatched before */
	assert_false(serve_fence_drained(&f->e));
	pump(f);
	assert_true(serve_fence_drained(&f->e));
	assert_int_equal(simple(f, 9), 0);
	serve_fence_lift(&f->e);
	teardown(f);
}

static void test_disc_after_inflight(void **state)
{
	struct fix *f = setup(false);

	(void)state;
	request(f, NBD_CMD_READ, 5, 0, 512, NULL);
	request(f, NBD_CMD_DISC, 6, 0, 0, NULL);
	assert_false(serve_conn_done(f->c)); /* the read is still in flight */
	pump(f);
	assert_int_equal(simple(f, 5), 0);
	take(f, 512);
	assert_int_equal(f->pos, f->nout); /* no reply to DISC */
	assert_true(serve_conn_done(f->c));
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_structured_round_trip),
	    cmocka_unit_test(test_fence_parks_overlapping_writes),
	    cmocka_unit_test(test_fence_waits_for_earlier_writes),
	    cmocka_unit_test(test_disc_after_inflight),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
