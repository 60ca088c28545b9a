/*
 * test_raid_io.c - data through every array level on mem members, healthy,
 * degraded and failing, checked against a shadow copy of the array.
 *
 * The driver keeps `depth` requests in flight on one executor: random
 * offsets and lengths (block aligned, often spanning chunks and stripes),
 * random data, mostly writes and reads plus some trims (mem zeroes what is
 * trimmed, so the shadow does too) and flushes.  Requests in flight never
 * overlap, so the shadow is the truth whatever the completion order; every
 * read is compared with it, and at the end the whole array is read back.
 * Each completion callback checks that its request was in flight and
 * counts it: every request completes exactly once.
 *
 * What is covered:
 *   - write-read-verify through raid0 (equal and unequal members, both
 *     layouts), raid1 (every read policy), raid10 (n2 n3 f2 f3 o2 o3 on
 *     several member counts) and concat;
 *   - degraded: each member position failed in turn (failed=K, and failing
 *     it after the data was written) for raid1/raid10 - every read still
 *     returns the data; raid0 with a failed member fails exactly the
 *     chunks on it with -EIO and names the first lost chunk in its report;
 *   - a faulty member that starts failing mid-run (fail-after, rate,
 *     vanish-after) under raid1/raid10: every host I/O succeeds, zero
 *     mismatches, the member ends up failed;
 *   - raid1/raid10 read retry on another copy (counted in the report);
 *   - pool exhaustion: a pool of 2 child requests under large multi-chunk
 *     requests at depth 8;
 *   - trim split per member as md (raid0), array states, the faulty
 *     target's triggers and the delay target's latency (virtual clock).
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"
#include "raid/raid_common.h"

static uint64_t rng_state = 0x452821e638d01377ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t lo, uint64_t hi)
{
	return lo + rng() % (hi - lo + 1);
}

static void fill_random(uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = rng();
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

static struct rl_exec *new_exec(size_t pool)
{
	struct rl_exec *ex = NULL;

	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, pool, 0, &ex), 0);
	return ex;
}

/* A counter from the array's report (0 when absent). */
static uint64_t report_u64(struct rl_target *t, const char *key)
{
	struct json_object *r = rl_target_report(t), *v;
	uint64_t x = 0;

	if (json_object_object_get_ex(r, key, &v))
		x = (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

static uint64_t report_lost(struct rl_target *t, const char *key)
{
	struct json_object *r = rl_target_report(t), *l, *v;
	uint64_t x = UINT64_MAX;

	if (json_object_object_get_ex(r, "lost", &l) && json_object_object_get_ex(l, key, &v))
		x = (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

static uint64_t report_member_u64(struct rl_target *t, unsigned m, const char *key)
{
	struct json_object *r = rl_target_report(t), *ms, *v;
	uint64_t x = 0;

	assert_true(json_object_object_get_ex(r, "members", &ms));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(ms, m), key, &v));
	x = (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

static const char *describe_state(struct rl_target *t)
{
	static char buf[32];
	struct json_object *d = rl_target_tree(t), *v;

	assert_true(json_object_object_get_ex(d, "state", &v));
	snprintf(buf, sizeof(buf), "%s", json_object_get_string(v));
	json_object_put(d);
	return buf;
}

/* ------------------------------------------------------------------ */
/* the driver                                                          */
/* ------------------------------------------------------------------ */

#define DRV_MAX_DEPTH 32

struct drv;

struct drv_slot {
	struct rl_io io;
	struct drv *d;
	bool busy;
	uint8_t *buf;
	uint32_t cap;
};

struct drv {
	struct rl_target *t;
	struct rl_exec *ex;
	uint8_t *shadow;
	unsigned depth;
	uint32_t maxlen, bs;
	unsigned pct_write, pct_trim, pct_flush; /* the rest are reads */
	struct drv_slot slot[DRV_MAX_DEPTH];
	uint64_t submitted, completed, errors, mismatches, reads_checked;
};

static void drv_done(struct rl_io *io, int status)
{
	struct drv_slot *s = (struct drv_slot *)io;
	struct drv *d = s->d;

	assert_true(s->busy); /* exactly once */
	s->busy = false;
	d->completed++;
	if (status) {
		d->errors++;
		return;
	}
	if (io->op == RL_OP_READ) {
		d->reads_checked++;
		if (memcmp(s->buf, d->shadow + io->offset, io->len))
			d->mismatches++;
	}
}

static void drv_init(struct drv *d, struct rl_target *t, struct rl_exec *ex, unsigned depth,
                     uint32_t maxlen)
{
	memset(d, 0, sizeof(*d));
	d->t = t;
	d->ex = ex;
	d->depth = depth;
	d->bs = t->block_size;
	d->maxlen = maxlen < t->size ? maxlen : (uint32_t)t->size;
	d->pct_write = 45;
	d->pct_trim = (t->caps & RL_CAP_TRIM) ? 3 : 0; /* mem trims cost TLB flushes */
	d->pct_flush = 2;
	d->shadow = calloc(1, t->size); /* mem members start zeroed */
	assert_non_null(d->shadow);
	for (unsigned i = 0; i < depth; i++) {
		d->slot[i].d = d;
		d->slot[i].cap = d->maxlen;
		d->slot[i].buf = malloc(d->maxlen);
		assert_non_null(d->slot[i].buf);
	}
}

static void drv_free(struct drv *d)
{
	for (unsigned i = 0; i < d->depth; i++)
		free(d->slot[i].buf);
	free(d->shadow);
}

static bool drv_overlaps(const struct drv *d, uint64_t off, uint32_t len)
{
	for (unsigned i = 0; i < d->depth; i++) {
		const struct rl_io *io = &d->slot[i].io;
		if (d->slot[i].busy && io->op != RL_OP_FLUSH && off < io->offset + io->len &&
		    io->offset < off + len)
			return true;
	}
	return false;
}

static void drv_submit(struct drv *d, struct drv_slot *s, enum rl_op op, uint64_t off, uint32_t len)
{
	memset(&s->io, 0, sizeof(s->io));
	s->io.op = (uint8_t)op;
	s->io.offset = off;
	s->io.len = len;
	s->io.buf = op == RL_OP_READ || op == RL_OP_WRITE ? s->buf : NULL;
	s->io.cb = drv_done;
	s->io.ex = d->ex;
	if (op == RL_OP_WRITE) {
		fill_random(s->buf, len);
		memcpy(d->shadow + off, s->buf, len);
	} else if (op == RL_OP_TRIM) {
		memset(d->shadow + off, 0, len);
	} else if (op == RL_OP_READ) {
		memset(s->buf, 0xa5, len);
	}
	s->busy = true;
	d->submitted++;
	rl_target_submit(d->t, &s->io);
}

/* Start a random request on slot @s (false if none fit beside those in flight). */
static bool drv_start_random(struct drv *d, struct drv_slot *s)
{
	unsigned p = (unsigned)rnd(0, 99);
	enum rl_op op = p < d->pct_write                                ? RL_OP_WRITE
	                : p < d->pct_write + d->pct_trim                ? RL_OP_TRIM
	                : p < d->pct_write + d->pct_trim + d->pct_flush ? RL_OP_FLUSH
	                                                                : RL_OP_READ;
	uint64_t nblk = d->t->size / d->bs;

	if (op == RL_OP_FLUSH) {
		drv_submit(d, s, op, 0, 0);
		return true;
	}
	for (int tries = 0; tries < 20; tries++) {
		uint64_t off = rnd(0, nblk - 1) * d->bs;
		uint32_t len = (uint32_t)(rnd(1, d->maxlen / d->bs) * d->bs);
		if (rng() % 4 == 0) /* many short requests too */
			len = (uint32_t)(rnd(1, 16) * d->bs);
		if (len > d->t->size - off)
			len = (uint32_t)(d->t->size - off);
		if (!drv_overlaps(d, off, len)) {
			drv_submit(d, s, op, off, len);
			return true;
		}
	}
	return false;
}

static void drv_run_until_idle(struct drv *d)
{
	while (d->completed < d->submitted)
		assert_true(rl_exec_run_once(d->ex, true) >= 0);
}

/* @n random requests at the driver's depth. */
static void drv_random(struct drv *d, uint64_t n)
{
	uint64_t start = d->submitted;

	while (d->submitted - start < n) {
		bool any = false;
		for (unsigned i = 0; i < d->depth && d->submitted - start < n; i++)
			if (!d->slot[i].busy)
				any |= drv_start_random(d, &d->slot[i]);
		if (d->completed < d->submitted)
			assert_true(rl_exec_run_once(d->ex, true) >= 0);
		else
			assert_true(any);
	}
	drv_run_until_idle(d);
}

/* Read the whole array back in maxlen requests at depth and compare. */
static void drv_verify_all(struct drv *d)
{
	uint64_t off = 0;

	while (off < d->t->size || d->completed < d->submitted) {
		for (unsigned i = 0; i < d->depth && off < d->t->size; i++) {
			if (d->slot[i].busy)
				continue;
			uint32_t len =
			    (uint32_t)(d->t->size - off < d->maxlen ? d->t->size - off : d->maxlen);
			drv_submit(d, &d->slot[i], RL_OP_READ, off, len);
			off += len;
		}
		if (d->completed < d->submitted)
			assert_true(rl_exec_run_once(d->ex, true) >= 0);
	}
}

/* Random workload plus a full read-back; no errors, no mismatches. */
static void check_spec(const char *spec, size_t pool, unsigned depth, uint32_t maxlen,
                       uint64_t nops)
{
	struct rl_target *t = ut_open(spec);
	struct rl_exec *ex = new_exec(pool);
	struct drv d;

	assert_int_equal(rl_target_attach(t, ex), 0);
	drv_init(&d, t, ex, depth, maxlen);
	drv_random(&d, nops);
	drv_verify_all(&d);
	if (d.errors || d.mismatches)
		fail_msg("%s: %llu errors, %llu mismatches in %llu requests", spec,
		         (unsigned long long)d.errors, (unsigned long long)d.mismatches,
		         (unsigned long long)d.submitted);
	assert_int_equal(d.completed, d.submitted);
	assert_true(d.reads_checked > 0);
	assert_true(rl_exec_idle(ex));
	drv_free(&d);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* ------------------------------------------------------------------ */
/* tests                                                               */
/* ------------------------------------------------------------------ */

static void test_write_read_verify_all_levels(void **state)
{
	static const char *const specs[] = {
	    "raid0(mem(size=2m) x4, chunk=64k)",
	    "raid0(mem(size=2m) x3, chunk=4k)",
	    "raid0(mem(size=1m), mem(size=3m), mem(size=2m), mem(size=3m), chunk=64k)",
	    "raid0(mem(size=1m), mem(size=3m), mem(size=2m), chunk=16k, layout=alt)",
	    "raid0(mem(size=2m) x2, chunk=12k)",
	    "raid0(mem(size=2m, bs=4096), mem(size=2m), chunk=8k)",
	    "raid1(mem(size=4m) x2)",
	    "raid1(mem(size=4m) x3, read=round-robin)",
	    "raid1(mem(size=4m), mem(size=5m), read=sequential)",
	    "raid10(mem(size=2m) x4, layout=n2, chunk=64k)",
	    "raid10(mem(size=2m) x5, layout=n2, chunk=16k)",
	    "raid10(mem(size=2m) x3, layout=n3, chunk=8k)",
	    "raid10(mem(size=2m) x4, layout=n3, chunk=64k, read=round-robin)",
	    "raid10(mem(size=2m) x4, layout=f2, chunk=64k)",
	    "raid10(mem(size=2m) x5, layout=f2, chunk=4k)",
	    "raid10(mem(size=3m) x3, layout=f3, chunk=32k)",
	    "raid10(mem(size=2m) x2, layout=o2, chunk=64k)",
	    "raid10(mem(size=2m) x5, layout=o2, chunk=16k, read=sequential)",
	    "raid10(mem(size=3m) x4, layout=o3, chunk=8k)",
	    "concat(mem(size=1m), mem(size=3m), mem(size=512k))",
	    "concat(mem(size=1m), mem(size=1m), rounding=64k)",
	    /* nested: arrays as members of arrays */
	    "raid0(raid1(mem(size=1m) x2), raid1(mem(size=1m) x2), chunk=16k)",
	    "raid1(raid0(mem(size=1m) x2, chunk=8k), concat(mem(size=1m), mem(size=1m)))",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		check_spec(specs[i], 4096, 16, 256 << 10, 800);
}

/* raid1/raid10 with each member position failed in turn, from the spec. */
static void test_each_member_failed(void **state)
{
	static const struct {
		const char *base; /* the spec without its closing parenthesis */
		unsigned n;
	} arrays[] = {
	    {"raid1(mem(size=2m) x3", 3},
	    {"raid10(mem(size=2m) x4, layout=n2, chunk=16k", 4},
	    {"raid10(mem(size=2m) x5, layout=n2, chunk=16k", 5},
	    {"raid10(mem(size=2m) x3, layout=f2, chunk=16k", 3},
	    {"raid10(mem(size=2m) x4, layout=o2, chunk=16k", 4},
	    {"raid10(mem(size=2m) x4, layout=n3, chunk=16k", 4},
	};
	char spec[160];

	(void)state;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		for (unsigned k = 0; k < arrays[i].n; k++) {
			snprintf(spec, sizeof(spec), "%s, failed=%u)", arrays[i].base, k);
			check_spec(spec, 1024, 8, 128 << 10, 400);
		}
	}
}

/* Data written healthy, then member K fails: every read still returns it. */
static void test_fail_after_write(void **state)
{
	static const struct {
		const char *spec;
		unsigned n;
	} arrays[] = {
	    {"raid1(mem(size=2m) x2)", 2},
	    {"raid10(mem(size=2m) x4, layout=n2, chunk=16k)", 4},
	    {"raid10(mem(size=2m) x5, layout=f2, chunk=8k)", 5},
	    {"raid10(mem(size=2m) x3, layout=o2, chunk=16k)", 3},
	    {"raid10(mem(size=3m) x3, layout=f3, chunk=16k)", 3},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		for (unsigned k = 0; k < arrays[i].n; k++) {
			struct rl_target *t = ut_open(arrays[i].spec);
			struct rl_exec *ex = new_exec(1024);
			struct raid_array *a = raid_array_of(t);
			struct drv d;

			assert_non_null(a);
			drv_init(&d, t, ex, 8, 128 << 10);
			d.pct_write = 100;
			drv_random(&d, 300);
			assert_string_equal(describe_state(t), "optimal");
			raid_member_set(a, k, RAID_MEMBER_FAILED);
			assert_string_equal(describe_state(t), "degraded");
			drv_verify_all(&d);
			assert_int_equal(d.errors, 0);
			assert_int_equal(d.mismatches, 0);
			assert_true(report_u64(t, "degraded_reads") > 0);
			drv_free(&d);
			rl_target_close(t);
			rl_exec_destroy(ex);
		}
	}
}

/* raid0 with a failed member: exactly its chunks fail, and the report names the chunk. */
static void test_raid0_lost_chunk(void **state)
{
	const uint32_t K = 64 << 10;
	uint8_t *buf = malloc(3 * K);

	(void)state;
	for (unsigned k = 0; k < 3; k++) {
		char spec[96];
		snprintf(spec, sizeof(spec), "raid0(mem(size=1m) x3, chunk=64k, failed=%u)", k);
		struct rl_target *t = ut_open(spec);
		struct rl_exec *ex = new_exec(64);

		assert_string_equal(describe_state(t), "failed");
		for (unsigned c = 0; c < 6; c++) {
			int rc =
			    rl_io_sync(t, ex, RL_OP_READ, (uint64_t)c * K + 4096, 8192, buf, 0);
			assert_int_equal(rc, c % 3 == k ? -EIO : 0);
		}
		/* first lost: chunk k (the first read that touched member k) */
		assert_int_equal(report_lost(t, "first_chunk"), k);
		assert_int_equal(report_lost(t, "first_offset"), (uint64_t)k * K + 4096);
		assert_int_equal(report_lost(t, "last_chunk"), k + 3);
		assert_int_equal(report_u64(t, "lost_ios"), 2);
		/* a request spanning all three chunks fails as a whole, writes too */
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 3 * K, buf, 0), -EIO);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 3 * K, buf, 0), -EIO);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), -EIO);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	/* A member error at run time fails the member and loses its chunks. */
	struct rl_target *t = ut_open("raid0(mem(size=1m), faulty(mem(size=1m), at=64k), "
	                              "mem(size=1m), chunk=64k)");
	struct rl_exec *ex = new_exec(64);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, K, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, K, K, buf, 0), 0); /* member 1 offset 0 */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 4 * K, K, buf, 0), -EIO); /* chunk 4 */
	assert_int_equal(report_lost(t, "first_chunk"), 4);
	assert_int_equal(report_u64(t, "member_errors"), 1);
	assert_string_equal(describe_state(t), "failed");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 7 * K, K, buf, 0),
	                 -EIO); /* chunk 7: member 1 */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 6 * K, K, buf, 0), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(buf);
}

/* A faulty member that starts failing mid-run: no host I/O fails, no mismatch. */
static void test_faulty_member_mid_run(void **state)
{
	static const struct {
		const char *spec;
		unsigned faulty[2];
		unsigned nfaulty;
	} arrays[] = {
	    {"raid1(mem(size=4m), faulty(mem(size=4m), fail-after=300))", {1}, 1},
	    {"raid1(faulty(mem(size=4m), rate=2%, seed=5), mem(size=4m), mem(size=4m))", {0}, 1},
	    {"raid1(faulty(mem(size=4m), vanish-after=500), mem(size=4m), read=round-robin)",
	     {0},
	     1},
	    {"raid10(mem(size=2m), faulty(mem(size=2m), fail-after=200), "
	     "faulty(mem(size=2m), rate=3%, seed=9), mem(size=2m), layout=n2, chunk=16k)",
	     {1, 2},
	     2},
	    {"raid10(faulty(mem(size=2m), vanish-after=400), mem(size=2m), mem(size=2m), "
	     "layout=f2, chunk=8k)",
	     {0},
	     1},
	    {"raid10(mem(size=2m), mem(size=2m), faulty(mem(size=2m), ops=read, rate=5%), "
	     "layout=o2, chunk=16k)",
	     {2},
	     1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		struct rl_target *t = ut_open(arrays[i].spec);
		struct rl_exec *ex = new_exec(2048);
		struct drv d;

		drv_init(&d, t, ex, 16, 128 << 10);
		drv_random(&d, 2000);
		drv_verify_all(&d);
		if (d.errors || d.mismatches)
			fail_msg("%s: %llu errors, %llu mismatches", arrays[i].spec,
			         (unsigned long long)d.errors, (unsigned long long)d.mismatches);
		for (unsigned f = 0; f < arrays[i].nfaulty; f++)
			assert_int_equal(report_member_u64(t, arrays[i].faulty[f], "errors") > 0,
			                 1);
		assert_true(report_u64(t, "member_errors") > 0);
		assert_string_equal(describe_state(t), "degraded");
		assert_int_equal(report_u64(t, "lost_ios"), 0);
		drv_free(&d);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
}

/* A failed read is retried on another copy; the data is right. */
static void test_read_retry(void **state)
{
	static const char *const specs[] = {
	    "raid1(faulty(mem(size=1m), ops=read, at=256k:4k), mem(size=1m))",
	    "raid1(faulty(mem(size=1m), ops=read, at=256k:4k), faulty(mem(size=1m), ops=read, "
	    "at=256k:4k), mem(size=1m))",
	    "raid10(faulty(mem(size=1m), ops=read, at=128k:4k), mem(size=1m), mem(size=1m), "
	    "mem(size=1m), layout=n2, chunk=64k)",
	};
	uint8_t *w = malloc(2 << 20), *r = malloc(2 << 20);

	(void)state;
	fill_random(w, 2 << 20);
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct rl_target *t = ut_open(specs[i]);
		struct rl_exec *ex = new_exec(64);
		/* raid1: member 0 offset 256k; raid10 n2 x4: array chunk 4 is on
		 * members 0 and 1 at 128k, i.e. array offset 256k as well */
		uint64_t off = 256 << 10;
		unsigned expect_retries = i == 1 ? 2 : 1;

		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, (uint32_t)t->size, w, 0), 0);
		/* least-pending with nothing in flight reads member 0 first */
		uint64_t writes0 = report_member_u64(t, 0, "writes");
		memset(r, 0, 8192);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, 8192, r, 0), 0);
		assert_memory_equal(r, w + off, 8192);
		assert_int_equal(report_u64(t, "retries"), expect_retries);
		assert_int_equal(report_u64(t, "member_errors"), expect_retries);
		/* md's policy: one read error keeps the member, and the good
		 * copy is written back over each copy that failed */
		assert_string_equal(describe_state(t), "optimal");
		assert_int_equal(report_u64(t, "read_errors_fixed"), expect_retries);
		assert_int_equal(report_member_u64(t, 0, "read_errors"), 1);
		assert_int_equal(report_member_u64(t, 0, "writes"), writes0 + 1);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	free(w);
	free(r);
}

/*
 * A member is failed once it has had more than max-read-errors read errors,
 * but never while it holds the last readable copy: two mirrors, each with
 * its own bad region, keep answering every read with good data.
 */
static void test_read_error_threshold(void **state)
{
	uint8_t *w = malloc(1 << 20), *r = malloc(65536);
	struct rl_target *t;
	struct rl_exec *ex = new_exec(64);

	(void)state;
	fill_random(w, 1 << 20);
	t = ut_open("raid1(faulty(mem(size=1m), ops=read, at=256k:4k), mem(size=1m), "
	            "max-read-errors=2)");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, (uint32_t)t->size, w, 0), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 256 << 10, 4096, r, 0), 0);
		assert_memory_equal(r, w + (256 << 10), 4096);
		assert_string_equal(describe_state(t), i < 2 ? "optimal" : "degraded");
	}
	/* failed: later reads avoid it without retrying */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 256 << 10, 4096, r, 0), 0);
	assert_int_equal(report_u64(t, "retries"), 3);
	rl_target_close(t);

	/* Each member has a bad region the other covers: 25 reads of each
	 * region never reach the host as errors (up to the threshold the
	 * members stay in the array), and with max-read-errors=0
	 * the first member is failed at once while the second, now the last
	 * copy, is kept through every error. */
	for (int thr = 0; thr < 2; thr++) {
		t = ut_open(thr ? "raid1(faulty(mem(size=1m), ops=read, at=64k:4k), "
		                  "faulty(mem(size=1m), ops=read, at=512k:4k), "
		                  "max-read-errors=100)"
		                : "raid1(faulty(mem(size=1m), ops=read, at=64k:4k), "
		                  "faulty(mem(size=1m), ops=read, at=512k:4k), max-read-errors=0)");
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, (uint32_t)t->size, w, 0), 0);
		for (int i = 0; i < 25; i++) {
			int rc = rl_io_sync(t, ex, RL_OP_READ, 64 << 10, 4096, r, 0);
			assert_int_equal(rc, 0);
			assert_memory_equal(r, w + (64 << 10), 4096);
			if (thr) {
				rc = rl_io_sync(t, ex, RL_OP_READ, 512 << 10, 4096, r, 0);
				assert_int_equal(rc, 0);
				assert_memory_equal(r, w + (512 << 10), 4096);
			}
		}
		if (!thr) {
			/* member 0 failed on its first error; member 1 is now the
			 * only copy of 512k and keeps its place despite errors */
			assert_string_equal(describe_state(t), "degraded");
			for (int i = 0; i < 3; i++)
				assert_int_equal(
				    rl_io_sync(t, ex, RL_OP_READ, 512 << 10, 4096, r, 0), -EIO);
			/* each read: the piece, then its 8 blocks one by one */
			assert_int_equal(report_member_u64(t, 1, "read_errors"), 27);
			assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 4096, r, 0), 0);
		}
		rl_target_close(t);
	}
	rl_exec_destroy(ex);
	free(w);
	free(r);
}

/*
 * More than 8 copies: a piece whose read fails on copies 0..8 and succeeds
 * on the last is written back over all nine failed copies (the mask of
 * failed copies covers every copy an array can have, RAID10_MAX_COPIES and
 * a mirror's members alike).
 */
static void test_read_fix_many_copies(void **state)
{
	enum { NCOPIES = 10, NBAD = 9 };
	const char *const levels[] = {"raid10", "raid1"};
	uint8_t *w = malloc(65536), *r = malloc(65536);

	(void)state;
	fill_random(w, 65536);
	for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
		char spec[1024];
		int n = snprintf(spec, sizeof(spec), "%s(", levels[l]);
		for (unsigned m = 0; m < NCOPIES; m++)
			n += snprintf(spec + n, sizeof(spec) - (size_t)n, "%s%s", m ? ", " : "",
			              m < NBAD ? "faulty(mem(size=1m), ops=read, at=64k:4k)"
			                       : "mem(size=1m)");
		snprintf(spec + n, sizeof(spec) - (size_t)n, "%s)",
		         l == 0 ? ", layout=n10, chunk=64k" : "");
		struct rl_target *t = ut_open(spec);
		struct rl_exec *ex = new_exec(64);
		uint64_t writes[NCOPIES];

		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, w, 0), 0);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 65536, 65536, w, 0), 0);
		for (unsigned m = 0; m < NCOPIES; m++)
			writes[m] = report_member_u64(t, m, "writes");
		memset(r, 0, 4096);
		/* nothing in flight: the first copy is read first, then each
		 * next one; only the last has the block */
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 65536, 4096, r, 0), 0);
		assert_memory_equal(r, w, 4096);
		assert_int_equal(report_u64(t, "retries"), NBAD);
		assert_string_equal(describe_state(t), "optimal");
		assert_int_equal(report_u64(t, "read_errors_fixed"), NBAD);
		for (unsigned m = 0; m < NCOPIES; m++)
			assert_int_equal(report_member_u64(t, m, "writes"), writes[m] + (m < NBAD));
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	free(w);
	free(r);
}

/* Every copy fails a read: the host gets -EIO, no member is failed for it. */
static void test_read_retry_lost(void **state)
{
	uint8_t *r = malloc(65536);

	(void)state;
	/* Every copy fails: -EIO, recorded as lost. */
	struct rl_target *t = ut_open("raid1(faulty(mem(size=1m), ops=read, at=0), "
	                              "faulty(mem(size=1m), ops=read, at=0))");
	struct rl_exec *ex = new_exec(64);
	/* the 4k piece fails on both copies, then block by block only the
	 * first 512-byte block (at=0 is one block) is lost */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 4096, r, 0), -EIO);
	assert_int_equal(report_u64(t, "retries"), 2);
	assert_int_equal(report_u64(t, "lost_ios"), 1);
	assert_int_equal(report_lost(t, "first_offset"), 0);
	assert_string_equal(describe_state(t), "optimal");
	assert_int_equal(
	    report_member_u64(t, 0, "read_errors") + report_member_u64(t, 1, "read_errors"), 4);
	rl_target_close(t);
	/* each copy bad in a different block of one piece: the host gets
	 * every byte (block by block); the blocks read block by block from the
	 * other copy (member 0's 8k..12k: 8 blocks) are rewritten */
	uint8_t *w = malloc(65536);
	for (int i = 0; i < 65536; i++)
		w[i] = (uint8_t)(i * 7 + 3);
	t = ut_open("raid1(faulty(mem(size=1m), ops=read, at=8k:4k), "
	            "faulty(mem(size=1m), ops=read, at=40k:4k))");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, w, 0), 0);
	memset(r, 0, 65536);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 65536, r, 0), 0);
	assert_memory_equal(r, w, 65536);
	assert_int_equal(report_u64(t, "lost_ios"), 0);
	assert_int_equal(report_u64(t, "read_errors_fixed"), 8);
	assert_string_equal(describe_state(t), "optimal");
	free(w);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(r);
}

/* A write succeeds while one copy does, fails with -EIO when none does. */
static void test_write_errors(void **state)
{
	uint8_t *buf = calloc(1, 65536);
	struct rl_target *t;
	struct rl_exec *ex = new_exec(64);

	(void)state;
	t = ut_open("raid1(faulty(mem(size=1m), ops=write, at=0), mem(size=1m))");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, buf, 0), 0);
	assert_int_equal(report_member_u64(t, 0, "errors"), 1);
	assert_int_equal(report_u64(t, "lost_ios"), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, buf, 0), 0);
	assert_int_equal(report_u64(t, "degraded_writes"), 1);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	rl_target_close(t);
	t = ut_open("raid1(faulty(mem(size=1m), ops=write, at=0), faulty(mem(size=1m), ops=write, "
	            "at=0))");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, buf, 0), -EIO);
	assert_string_equal(describe_state(t), "failed");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), -EIO);
	rl_target_close(t);
	/* raid10 n2 x4: members 0 and 1 hold the same chunks; 0 and 2 do not */
	t = ut_open("raid10(mem(size=1m) x4, layout=n2, chunk=64k, failed=0+2)");
	assert_string_equal(describe_state(t), "degraded");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, buf, 0), 0);
	rl_target_close(t);
	t = ut_open("raid10(mem(size=1m) x4, layout=n2, chunk=64k, failed=0+1)");
	assert_string_equal(describe_state(t), "failed");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 65536, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 65536, 65536, buf, 0), 0);
	assert_int_equal(report_lost(t, "first_chunk"), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(buf);
}

/* Counting children: raid0 trims go out as one extent per member and zone. */
static void test_raid0_trim_per_member(void **state)
{
	struct rl_target *t = ut_open("raid0(mem(size=1m) x4, chunk=16k)");
	struct rl_exec *ex = new_exec(64);
	uint8_t *buf = malloc(1 << 20);
	uint64_t before[4];

	(void)state;
	memset(buf, 0x5a, 1 << 20);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 1 << 20, buf, 0), 0);
	for (unsigned m = 0; m < 4; m++)
		before[m] = report_member_u64(t, m, "writes");
	/* 8k into chunk 1 up to 8k into chunk 13: 12 chunks' worth, 3 stripes */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 16384 + 8192, 12 * 16384, NULL, 0), 0);
	for (unsigned m = 0; m < 4; m++)
		assert_int_equal(report_member_u64(t, m, "writes") - before[m], 1);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 1 << 20, buf, 0), 0);
	for (uint64_t i = 0; i < (1 << 20); i++) {
		bool trimmed = i >= 16384 + 8192 && i < 16384 + 8192 + 12 * 16384;
		if (buf[i] != (trimmed ? 0 : 0x5a))
			fail_msg("byte %llu is %#x", (unsigned long long)i, buf[i]);
	}
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(buf);
}

/* A pool of two children under large multi-chunk requests at depth 8. */
static void test_pool_exhaustion(void **state)
{
	static const char *const specs[] = {
	    "raid0(mem(size=2m) x4, chunk=4k)",
	    "raid1(mem(size=2m) x3)",
	    "raid10(mem(size=2m) x4, layout=n2, chunk=4k)",
	    "raid10(mem(size=2m) x3, layout=f3, chunk=4k)",
	    "concat(mem(size=256k) x6)",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		check_spec(specs[i], 2, 8, 256 << 10, 300);
	/* one child at a time still finishes */
	check_spec("raid10(mem(size=1m) x4, layout=o2, chunk=4k)", 1, 8, 64 << 10, 200);
}

/* The faulty target's triggers, deterministic by seed. */
static void test_faulty_triggers(void **state)
{
	uint8_t buf[4096];
	struct rl_exec *ex;
	struct rl_target *t;
	int fails[2];

	(void)state;
	/* rate: the same seed fails the same requests; roughly the rate */
	for (int run = 0; run < 2; run++) {
		t = ut_open("faulty(mem(size=1m), rate=10%, seed=3)");
		ex = new_exec(16);
		fails[run] = 0;
		for (int i = 0; i < 2000; i++)
			fails[run] += rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0) == -EIO;
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	assert_int_equal(fails[0], fails[1]);
	assert_true(fails[0] > 120 && fails[0] < 280);
	/* at=: only overlapping requests, only the selected op */
	t = ut_open("faulty(mem(size=1m), at=8k:4k+64k, ops=write)");
	ex = new_exec(16);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 4096, 4096, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 8192 + 3584, 1024, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 12288, 4096, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 65536, 512, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 65536 + 512, 512, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 8192, 4096, buf, 0), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
	/* fail-after: reads/writes after the first N; flush unaffected */
	t = ut_open("faulty(mem(size=1m), fail-after=3)");
	ex = new_exec(16);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
	/* vanish-after: everything, flush included */
	t = ut_open("faulty(mem(size=1m), vanish-after=2)");
	ex = new_exec(16);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 512, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), -EIO);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), -EIO);
	assert_int_equal(report_u64(t, "errors_vanished"), 2);
	rl_target_close(t);
	rl_exec_destroy(ex);
	/* vanish-time on the virtual clock, through delay's latency */
	t = ut_open("faulty(delay(mem(size=1m), lat=1ms), vanish-time=2500us)");
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 16, 0, &ex), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), 0); /* t=0 */
	assert_int_equal(rl_exec_now(ex), 1000000);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), 0);    /* t=1ms */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), 0);    /* t=2ms */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 512, buf, 0), -EIO); /* t=3ms */
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* delay: each op waits its latency on the executor clock; data passes through. */
static void test_delay(void **state)
{
	struct rl_target *t = ut_open("delay(mem(size=1m), read-lat=50us, write-lat=2ms)");
	struct rl_exec *ex;
	uint8_t w[4096], r[4096];

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 16, 0, &ex), 0);
	fill_random(w, sizeof(w));
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 8192, 4096, w, 0), 0);
	assert_int_equal(rl_exec_now(ex), 2000000);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 8192, 4096, r, 0), 0);
	assert_int_equal(rl_exec_now(ex), 2050000);
	assert_memory_equal(w, r, sizeof(w));
	rl_target_close(t);
	rl_exec_destroy(ex);
	/* under an array, on a real clock, many requests in flight */
	check_spec("raid1(delay(mem(size=1m), lat=20us), mem(size=1m))", 256, 8, 64 << 10, 200);
}

/* Spec errors name the parameter. */
static void test_spec_errors(void **state)
{
	static const char *const bad[] = {
	    "raid0(mem(size=1m) x2, chunk=1k)",
	    "raid0(mem(size=1m) x2, layout=zig)",
	    "raid1(mem(size=1m))",
	    "raid1(mem(size=1m) x2, failed=2)",
	    "raid1(mem(size=1m) x2, failed=0+x)",
	    "raid1(mem(size=1m) x2, read=fastest)",
	    "raid10(mem(size=1m) x2, layout=n3)",
	    "raid10(mem(size=1m) x4, layout=q2)",
	    "raid10(mem(size=1m) x4, chunk=12k)",
	    "concat(mem(size=1m) x2, rounding=100)",
	    "faulty(mem(size=1m), at=1m:)",
	    "faulty(mem(size=1m), at=2m)",
	    "faulty(mem(size=1m), ops=trim)",
	    "faulty(mem(size=1m), mem(size=1m))",
	    "delay(mem(size=1m), lat=fast)",
	};
	struct rl_build_ctx ctx;

	(void)state;
	rl_build_ctx_init(&ctx);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rl_target *t = NULL;
		struct rl_err err = {0};
		if (!rl_target_open(bad[i], &ctx, &t, &err))
			fail_msg("accepted: %s", bad[i]);
		assert_true(err.msg[0] != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_write_read_verify_all_levels),
	    cmocka_unit_test(test_each_member_failed),
	    cmocka_unit_test(test_fail_after_write),
	    cmocka_unit_test(test_raid0_lost_chunk),
	    cmocka_unit_test(test_faulty_member_mid_run),
	    cmocka_unit_test(test_read_retry),
	    cmocka_unit_test(test_read_error_threshold),
	    cmocka_unit_test(test_read_retry_lost),
	    cmocka_unit_test(test_read_fix_many_copies),
	    cmocka_unit_test(test_write_errors),
	    cmocka_unit_test(test_raid0_trim_per_member),
	    cmocka_unit_test(test_pool_exhaustion),
	    cmocka_unit_test(test_faulty_triggers),
	    cmocka_unit_test(test_delay),
	    cmocka_unit_test(test_spec_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
