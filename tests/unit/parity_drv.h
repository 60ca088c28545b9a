/*
 * parity_drv.h - what the parity tests share: a seeded generator, aligned
 * buffers, opening specs, and a driver that keeps non-overlapping random
 * requests in flight against a shadow copy of the array and compares every
 * read (included by test_parity.c and test_parity_faults.c).
 */
#ifndef RL_TEST_PARITY_DRV_H
#define RL_TEST_PARITY_DRV_H

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

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static inline uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void fill_random(uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = rng();
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

static inline uint8_t *abuf(size_t len)
{
	uint8_t *p = aligned_alloc(64, len);

	assert_non_null(p);
	return p;
}

/* The parity tests' name for ut_open (common.h). */
static inline struct rl_target *open_spec(const char *spec)
{
	return ut_open(spec);
}

static inline struct rl_exec *new_exec(size_t pool)
{
	struct rl_exec *ex = NULL;

	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, pool, 0, &ex), 0);
	return ex;
}

static inline uint64_t report_u64(struct rl_target *t, const char *key)
{
	struct json_object *r = rl_target_report(t), *v;
	uint64_t x = 0;

	if (json_object_object_get_ex(r, key, &v))
		x = (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

/* Sum of "reads"/"writes" over the members in the report. */
static inline uint64_t member_ios(struct rl_target *t, const char *key)
{
	struct json_object *r = rl_target_report(t), *ms, *v;
	uint64_t x = 0;

	assert_true(json_object_object_get_ex(r, "members", &ms));
	for (size_t i = 0; i < json_object_array_length(ms); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(ms, i), key, &v))
			x += (uint64_t)json_object_get_int64(v);
	json_object_put(r);
	return x;
}

/* A driver: keeps @depth non-overlapping requests in flight against a shadow. */
struct drv {
	struct rl_target *t;
	struct rl_exec *ex;
	uint8_t *shadow;
	uint64_t size;
	unsigned bs;
	uint64_t max_len;
	unsigned write_pct;
	struct slotreq {
		struct rl_io io;
		uint8_t *buf;
		bool busy;
	} req[16];
	unsigned depth;
	uint64_t left;
	uint64_t mismatches, errors, completions;
};

static inline bool drv_overlaps(const struct drv *d, uint64_t off, uint64_t len)
{
	for (unsigned i = 0; i < d->depth; i++) {
		const struct slotreq *r = &d->req[i];
		if (r->busy && off < r->io.offset + r->io.len && r->io.offset < off + len)
			return true;
	}
	return false;
}

static inline void drv_start(struct drv *d, struct slotreq *r);

static inline void drv_done(struct rl_io *io, int status)
{
	struct drv *d = io->cb_arg;
	struct slotreq *r = (struct slotreq *)((char *)io - offsetof(struct slotreq, io));

	assert_true(r->busy);
	r->busy = false;
	d->completions++;
	if (status) {
		d->errors++;
	} else if (io->op == RL_OP_READ) {
		if (memcmp(r->buf, d->shadow + io->offset, io->len))
			d->mismatches++;
	}
	if (d->left)
		drv_start(d, r);
}

static inline void drv_start(struct drv *d, struct slotreq *r)
{
	uint64_t blocks = d->size / d->bs, len, off;

	for (;;) {
		len = (1 + rng() % (d->max_len / d->bs)) * d->bs;
		if (len > d->size)
			len = d->size;
		off = rng() % (blocks - len / d->bs + 1) * d->bs;
		if (!drv_overlaps(d, off, len))
			break;
	}
	d->left--;
	memset(&r->io, 0, sizeof(r->io));
	r->io.offset = off;
	r->io.len = (uint32_t)len;
	r->io.buf = r->buf;
	r->io.cb = drv_done;
	r->io.cb_arg = d;
	r->io.ex = d->ex;
	if (rng() % 100 < d->write_pct) {
		r->io.op = RL_OP_WRITE;
		fill_random(r->buf, len);
		memcpy(d->shadow + off, r->buf, len);
	} else {
		r->io.op = RL_OP_READ;
	}
	r->busy = true;
	rl_target_submit(d->t, &r->io);
}

static inline void drv_run(struct drv *d, uint64_t count)
{
	d->left = count;
	for (unsigned i = 0; i < d->depth && d->left; i++)
		drv_start(d, &d->req[i]);
	while (!rl_exec_idle(d->ex))
		rl_exec_run_once(d->ex, true);
	for (unsigned i = 0; i < d->depth; i++)
		assert_false(d->req[i].busy);
}

static inline void drv_init(struct drv *d, struct rl_target *t, struct rl_exec *ex, unsigned depth,
                            uint64_t max_len)
{
	memset(d, 0, sizeof(*d));
	d->t = t;
	d->ex = ex;
	d->size = t->size;
	d->bs = t->block_size;
	d->max_len = max_len;
	d->depth = depth;
	d->write_pct = 60;
	d->shadow = calloc(1, t->size);
	assert_non_null(d->shadow);
	for (unsigned i = 0; i < depth; i++)
		d->req[i].buf = abuf(max_len);
	assert_int_equal(rl_target_attach(t, ex), 0);
}

static inline void drv_free(struct drv *d)
{
	for (unsigned i = 0; i < d->depth; i++)
		free(d->req[i].buf);
	free(d->shadow);
}

/* Read the whole array and compare it with the shadow. */
static inline void drv_read_all(struct drv *d)
{
	uint64_t unit = 256 * 1024;
	uint8_t *buf = abuf(unit);

	for (uint64_t off = 0; off < d->size; off += unit) {
		uint32_t len = (uint32_t)(d->size - off < unit ? d->size - off : unit);
		int rc = rl_io_sync(d->t, d->ex, RL_OP_READ, off, len, buf, 0);
		if (rc)
			fail_msg("read at %llu failed: %d", (unsigned long long)off, rc);
		if (memcmp(buf, d->shadow + off, len))
			fail_msg("array differs from the shadow in [%llu, %llu)",
			         (unsigned long long)off, (unsigned long long)(off + len));
	}
	free(buf);
}

#endif
