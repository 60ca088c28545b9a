/*
 * test_cache.c - the controller cache with real data, checked against a
 * shadow model of what the host wrote and what it was told.
 *
 * The driver keeps `depth` requests in flight on a virtual executor:
 * random reads, writes, FUA writes, trims and flushes of random
 * block-aligned ranges (often spanning lines); requests in flight never
 * overlap, so the shadow (the contents of acknowledged writes) is the truth
 * whatever the completion order.  Under the cache sits a test target, spy,
 * that counts what reaches the members (writes with and without FUA,
 * flushes) and delays each request by a seeded random time, so member
 * writes land out of order and background destage races host writes.
 *
 * Checked, under every read/write/drive-cache policy, several line sizes,
 * cache sizes small enough to force eviction, destage and the cache-full
 * fallback, and a pool of 3 child requests:
 *   - every read returns the shadow (read-after-write, partial lines, hits
 *     on dirty lines, prefetched lines, trims);
 *   - FUA: once a FUA write completes, the member holds it;
 *   - flush ordering: once a flush completes, the member holds everything
 *     acknowledged before it was submitted;
 *   - disk-cache=off: every write reaching the members carries FUA;
 *     disk-cache=on: flushes go down, writes do not carry FUA;
 *   - after the run ends (finish: orderly shutdown) the member equals the
 *     shadow: verify after destage;
 *   - requests complete exactly once.
 * And the power-loss table (docs/cache.md): with powerloss-after=N the
 * N-th acknowledged write is the last; the reported lost ranges only name
 * blocks whose newest acknowledged data was not durable; every block whose
 * member content differs from the shadow after the cut (and the replay of a
 * protected cache) is reported as lost by the controller cache; safe
 * configurations lose nothing; write-through with the drive cache on loses
 * exactly the blocks written since the last member flush; afterwards the
 * target fails I/O with EIO.
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
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;

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

/* --- spy: counts member requests and jitters them --- */

struct drv;
static struct {
	uint64_t writes, writes_fua, flushes, reads, trims;
	struct drv *d; /* told when a flush reaches the members */
} spy_n;
static void drv_member_flush(struct drv *d);

struct spy {
	uint64_t jitter, seed;
};

/* a request's context while the spy holds it (io.h) */
struct spy_req {
	rl_io_cb cb;
	struct rl_target *t;
};
RL_IO_CTX_DEFINE(spy_req, struct spy_req)

static void spy_fire(struct rl_io *io, int status)
{
	struct rl_target *t = spy_req(io)->t;

	(void)status;
	io->cb = spy_req(io)->cb;
	rl_target_submit(t->children[0], io);
}

static void spy_submit(struct rl_target *t, struct rl_io *io)
{
	struct spy *s = t->priv;

	switch (io->op) {
	case RL_OP_WRITE:
		spy_n.writes++;
		spy_n.writes_fua += !!(io->flags & RL_IO_FUA);
		break;
	case RL_OP_FLUSH:
		spy_n.flushes++;
		if (spy_n.d)
			drv_member_flush(spy_n.d);
		break;
	case RL_OP_READ:
		spy_n.reads++;
		break;
	default:
		spy_n.trims++;
	}
	if (!s->jitter || io->ex->kind != RL_EXEC_VIRTUAL) { /* no real waiting */
		rl_target_submit(t->children[0], io);
		return;
	}
	s->seed = s->seed * 6364136223846793005ull + 1442695040888963407ull;
	*spy_req(io) = (struct spy_req){.cb = io->cb, .t = t};
	io->cb = spy_fire;
	if (rl_exec_at(io->ex, io, rl_exec_now(io->ex) + (s->seed >> 33) % s->jitter, 0))
		spy_fire(io, 0);
}

static void spy_destroy(struct rl_target *t)
{
	free(t->priv);
}

static const struct rl_target_ops spy_ops = {.name = "spy",
                                             .ctx_size = sizeof(struct spy_req),
                                             .submit = spy_submit,
                                             .destroy = spy_destroy};

static int spy_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	static const char *const known[] = {"jitter", "seed", NULL};
	struct rl_target *t, *below;
	struct spy *s;
	int rc;

	if (node->nargs != 1)
		return rl_err_set(err, node->pos, "spy takes one target");
	if ((rc = rl_target_build(node->args[0], ctx, &below, err)))
		return rc;
	t = rl_target_alloc(&spy_ops, 1);
	s = calloc(1, sizeof(*s));
	assert_non_null(t);
	assert_non_null(s);
	t->children[0] = below;
	t->priv = s;
	t->size = below->size;
	t->block_size = below->block_size;
	t->caps = below->caps & (RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA);
	if ((rc = rl_spec_get_time(node, "jitter", 0, &s->jitter, err)) ||
	    (rc = rl_spec_get_u64(node, "seed", 1, 0, UINT64_MAX, &s->seed, err)) ||
	    (rc = rl_spec_check_unused(node, known, err))) {
		rl_target_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

static struct rl_target_type spy_type = {
    .name = "spy", .summary = "test: counts and jitters", .create = spy_create};
RL_TARGET_REGISTER(spy_type)

/* --- the driver --- */

#define MAXD 32
enum { K_READ, K_WRITE, K_FUA, K_TRIM, K_FLUSH };

struct slot {
	struct rl_io io;
	struct drv *d;
	uint8_t *buf;
	int kind;
	bool busy;
	unsigned done; /* completions seen for the current request */
	uint64_t ack_at_flush;
};

struct drv {
	struct rl_target *t, *below;
	struct rl_exec *ex, *ex2;
	uint64_t size, nblk;
	uint32_t bs, maxblk;
	uint8_t *shadow, *member, *fsnap;
	uint8_t *busy, *undef, *amb, *fua, *funsure;
	uint64_t *ackidx;
	uint64_t acked, durable_upto, durable_wt, member_flush_acked;
	bool flush_inflight, cut, check_flush, pl;
	unsigned depth, inflight;
	uint64_t left;
	unsigned pr, pw, pfua, pt, pf; /* mix in percent (the rest: read) */
	bool seq_reads;                /* reads follow each other (read-ahead) */
	uint64_t seq_next;             /* next sequential read block */
	uint64_t mismatches, eio, errors, flushes_checked, fua_checked, reads_checked;
	struct slot slots[MAXD];
};

static void drv_member_flush(struct drv *d)
{
	d->member_flush_acked = d->acked;
}

/* Read the whole member directly (a second executor, so it never waits for the cache). */
static void drv_read_member(struct drv *d)
{
	assert_int_equal(
	    rl_io_sync(d->below, d->ex2, RL_OP_READ, 0, (uint32_t)d->size, d->member, 0), 0);
}

static void drv_issue(struct drv *d, struct slot *s);

static void drv_done(struct rl_io *io, int status)
{
	struct slot *s = (struct slot *)io;
	struct drv *d = s->d;
	uint64_t b0 = io->offset / d->bs, nb = io->len / d->bs;

	assert_true(s->busy);
	s->done++;
	assert_int_equal(s->done, 1);
	s->busy = false;
	d->inflight--;
	if (s->kind != K_FLUSH)
		memset(d->busy + b0, 0, nb);
	if (status == -EIO && d->pl) {
		d->eio++;
		d->cut = true;
		if (s->kind == K_WRITE || s->kind == K_FUA)
			memset(d->amb + b0, 1, nb);
	} else if (status) {
		d->errors++;
		print_error("request %s %llu+%u failed: %d\n", rl_op_name(io->op),
		            (unsigned long long)io->offset, io->len, status);
	} else {
		switch (s->kind) {
		case K_READ:
			d->reads_checked++;
			for (uint64_t b = b0; b < b0 + nb; b++) {
				if (d->undef[b] || d->amb[b])
					continue;
				if (memcmp(s->buf + (b - b0) * d->bs, d->shadow + b * d->bs,
				           d->bs)) {
					if (!d->mismatches)
						print_error("read mismatch at block %llu\n",
						            (unsigned long long)b);
					d->mismatches++;
				}
			}
			break;
		case K_WRITE:
		case K_FUA:
			assert_false(d->cut);
			memcpy(d->shadow + io->offset, s->buf, io->len);
			d->acked++;
			for (uint64_t b = b0; b < b0 + nb; b++) {
				d->ackidx[b] = d->acked;
				d->undef[b] = 0;
				d->fua[b] = s->kind == K_FUA;
			}
			if (s->kind == K_FUA && d->check_flush) {
				uint8_t *m = malloc(io->len);
				assert_int_equal(rl_io_sync(d->below, d->ex2, RL_OP_READ,
				                            io->offset, io->len, m, 0),
				                 0);
				if (memcmp(m, s->buf, io->len)) {
					print_error("FUA write %llu+%u not on the member\n",
					            (unsigned long long)io->offset, io->len);
					d->mismatches++;
				}
				free(m);
				d->fua_checked++;
			}
			break;
		case K_TRIM:
			memset(d->undef + b0, 1, nb);
			break;
		case K_FLUSH:
			/*
			 * Durable now: what was acknowledged before the flush was
			 * submitted; with the drive cache on and no dirty data (a
			 * write-through cache), also what was acknowledged before the
			 * flush reached the drives.
			 */
			d->flush_inflight = false;
			if (s->ack_at_flush > d->durable_upto)
				d->durable_upto = s->ack_at_flush;
			if (d->member_flush_acked > d->durable_wt)
				d->durable_wt = d->member_flush_acked;
			if (d->durable_upto > d->durable_wt)
				d->durable_wt = d->durable_upto;
			if (d->check_flush) {
				drv_read_member(d);
				for (uint64_t b = 0; b < d->nblk; b++)
					if (!d->funsure[b] && memcmp(d->member + b * d->bs,
					                             d->fsnap + b * d->bs, d->bs)) {
						if (!d->mismatches)
							print_error("block %llu not on the member "
							            "after a flush\n",
							            (unsigned long long)b);
						d->mismatches++;
					}
				d->flushes_checked++;
			}
			break;
		}
	}
	if (d->left && !d->cut)
		drv_issue(d, s);
}

static int drv_pick(struct drv *d)
{
	unsigned r = (unsigned)rnd(0, 99);

	if (r < d->pw)
		return K_WRITE;
	r -= d->pw;
	if (r < d->pfua)
		return K_FUA;
	r -= d->pfua;
	if (r < d->pt)
		return K_TRIM;
	r -= d->pt;
	if (r < d->pf)
		return d->flush_inflight ? K_WRITE : K_FLUSH;
	return K_READ;
}

static void drv_issue(struct drv *d, struct slot *s)
{
	int kind = drv_pick(d);
	uint64_t b0 = 0, nb = 0;

	memset(&s->io, 0, sizeof(s->io));
	if (kind != K_FLUSH) {
		int tries = 0;
		for (;;) {
			nb = rnd(1, d->maxblk);
			b0 = rnd(0, d->nblk - nb);
			if (kind == K_READ && d->seq_reads) {
				if (d->seq_next + nb > d->nblk)
					d->seq_next = 0;
				b0 = d->seq_next;
			}
			if (!memchr(d->busy + b0, 1, nb))
				break;
			if (++tries == 64)
				return; /* crowded: this slot rests */
		}
		memset(d->busy + b0, 1, nb);
		if (kind == K_READ && d->seq_reads)
			d->seq_next = b0 + nb;
	}
	s->kind = kind;
	s->io.op = kind == K_READ    ? RL_OP_READ
	           : kind == K_TRIM  ? RL_OP_TRIM
	           : kind == K_FLUSH ? RL_OP_FLUSH
	                             : RL_OP_WRITE;
	s->io.flags = kind == K_FUA ? RL_IO_FUA : 0;
	s->io.offset = b0 * d->bs;
	s->io.len = (uint32_t)(nb * d->bs);
	s->io.buf = s->buf;
	s->io.cb = drv_done;
	s->io.ex = d->ex;
	if (kind == K_WRITE || kind == K_FUA) {
		for (uint64_t i = 0; i < s->io.len; i += 8) {
			uint64_t v = rng();
			memcpy(s->buf + i, &v, 8);
		}
	}
	if ((kind == K_WRITE || kind == K_FUA || kind == K_TRIM) && d->flush_inflight)
		memset(d->funsure + b0, 1, nb);
	if (kind == K_FLUSH) {
		d->flush_inflight = true;
		s->ack_at_flush = d->acked;
		d->member_flush_acked = 0;
		memcpy(d->fsnap, d->shadow, d->size);
		for (uint64_t b = 0; b < d->nblk; b++)
			d->funsure[b] = d->busy[b] | d->undef[b];
	}
	s->busy = true;
	s->done = 0;
	d->inflight++;
	d->left--;
	rl_target_submit(d->t, &s->io);
}

static void drv_run_loop(struct drv *d)
{
	for (;;) {
		for (unsigned i = 0; i < d->depth && d->left && !d->cut; i++)
			if (!d->slots[i].busy)
				drv_issue(d, &d->slots[i]);
		if (rl_exec_idle(d->ex))
			break;
		assert_true(rl_exec_run_once(d->ex, true) >= 0);
	}
}

static void drv_init(struct drv *d, const char *spec, unsigned depth, size_t pool, uint32_t maxblk)
{
	memset(d, 0, sizeof(*d));
	d->t = ut_open(spec);
	d->below = d->t->children[0];
	d->size = d->t->size;
	d->bs = d->t->block_size;
	d->nblk = d->size / d->bs;
	d->maxblk = maxblk;
	d->depth = depth;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, pool, 0, &d->ex), 0);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 4096, 0, &d->ex2), 0);
	assert_int_equal(rl_target_attach(d->t, d->ex), 0);
	d->shadow = calloc(1, d->size);
	d->member = calloc(1, d->size);
	d->fsnap = calloc(1, d->size);
	d->busy = calloc(1, d->nblk);
	d->undef = calloc(1, d->nblk);
	d->amb = calloc(1, d->nblk);
	d->fua = calloc(1, d->nblk);
	d->funsure = calloc(1, d->nblk);
	d->ackidx = calloc(d->nblk, sizeof(uint64_t));
	for (unsigned i = 0; i < depth; i++) {
		d->slots[i].d = d;
		d->slots[i].buf = malloc((size_t)maxblk * d->bs);
	}
	memset(&spy_n, 0, sizeof(spy_n));
	spy_n.d = d;
}

static void drv_start(struct drv *d, uint64_t ops)
{
	d->left = ops;
	for (unsigned i = 0; i < d->depth && d->left; i++)
		drv_issue(d, &d->slots[i]);
	drv_run_loop(d);
	assert_int_equal(d->inflight, 0);
}

static void drv_free(struct drv *d)
{
	rl_target_close(d->t);
	rl_exec_destroy(d->ex);
	rl_exec_destroy(d->ex2);
	free(d->shadow);
	free(d->member);
	free(d->fsnap);
	free(d->busy);
	free(d->undef);
	free(d->amb);
	free(d->fua);
	free(d->funsure);
	free(d->ackidx);
	for (unsigned i = 0; i < d->depth; i++)
		free(d->slots[i].buf);
	spy_n.d = NULL;
}

static struct json_object *cache_counters(struct drv *d)
{
	return rl_target_report(d->t);
}

static int64_t jint(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("no '%s' in the report", k);
	return json_object_get_int64(v);
}

/* --- correctness under every policy --- */

struct policy_case {
	const char *member; /* spec of what sits under the spy */
	const char *opts;
	unsigned depth;
	size_t pool;
	uint32_t maxblk;
};

static void run_policy(const struct policy_case *pc, const char *write, const char *read, bool dc)
{
	char spec[512];
	struct drv d;
	struct json_object *rep;

	snprintf(spec, sizeof(spec),
	         "cache(spy(%s, jitter=40us, seed=%llu), write=%s, read=%s, "
	         "disk-cache=%s%s%s)",
	         pc->member, (unsigned long long)rnd(1, 1000), write, read, dc ? "on" : "off",
	         pc->opts[0] ? ", " : "", pc->opts);
	drv_init(&d, spec, pc->depth, pc->pool, pc->maxblk);
	d.check_flush = true;
	d.pw = 40;
	d.pfua = 5;
	d.pt = d.t->caps & RL_CAP_TRIM ? 3 : 0;
	d.pf = 2;
	drv_start(&d, 1000);
	/* A second phase after the first settles: reads hit what was written. */
	d.pw = 10;
	d.pfua = 0;
	d.pt = 0;
	d.pf = 0;
	d.seq_reads = true;
	drv_start(&d, 400);
	if (d.mismatches || d.errors)
		fail_msg("%s: %llu mismatches, %llu errors", spec, (unsigned long long)d.mismatches,
		         (unsigned long long)d.errors);
	assert_true(d.flushes_checked > 0);
	if (!dc)
		assert_int_equal(spy_n.writes_fua, spy_n.writes);
	else if (!strcmp(write, "back"))
		assert_true(spy_n.writes_fua < spy_n.writes);
	if (dc) /* host FUA still reaches the drives as FUA; flushes go down */
		assert_true(spy_n.writes_fua > 0 && spy_n.flushes > 0);
	else
		assert_int_equal(spy_n.flushes, 0);
	rep = cache_counters(&d);
	if (strcmp(read, "none"))
		assert_true(jint(rep, "ra_requests") > 0);
	else
		assert_int_equal(jint(rep, "ra_requests"), 0);
	if (strcmp(write, "through"))
		assert_true(jint(rep, "writes_back") > 0);
	else
		assert_int_equal(jint(rep, "writes_back"), 0);
	json_object_put(rep);
	/* Orderly shutdown: everything on the member. */
	rl_target_finish(d.t);
	drv_read_member(&d);
	for (uint64_t b = 0; b < d.nblk; b++)
		if (!d.undef[b] && memcmp(d.member + b * d.bs, d.shadow + b * d.bs, d.bs))
			fail_msg("%s: block %llu differs on the member after finish", spec,
			         (unsigned long long)b);
	rep = cache_counters(&d);
	assert_int_equal(jint(rep, "dirty_bytes"), 0);
	json_object_put(rep);
	drv_free(&d);
}

static const struct policy_case policy_cases[] = {
    {"mem(size=1m)", "size=128k, line=16k, dirty-high=60%, dirty-low=30%, idle-flush=2ms", 8, 4096,
     80},
    {"raid1(mem(size=1m) x2)", "size=64k, line=4k, destage-qd=4, ra-qd=4", 12, 4096, 24},
    {"raid10(mem(size=512k) x4, chunk=16k)", "size=256k, line=64k, idle-flush=0", 8, 4096, 300},
    {"mem(size=1m, bs=4k)", "size=64k, line=16k, ra=64k", 6, 3, 20},
};

static void test_policies(void **state)
{
	static const char *const writes[] = {"through", "back", "force-back"};
	static const char *const reads[] = {"none", "ahead", "adaptive"};

	(void)state;
	for (size_t c = 0; c < sizeof(policy_cases) / sizeof(policy_cases[0]); c++)
		for (int w = 0; w < 3; w++)
			for (int r = 0; r < 3; r++)
				for (int dc = 0; dc < 2; dc++)
					run_policy(&policy_cases[c], writes[w], reads[r], dc);
}

/* battery=bad: write=back falls back to write-through, but still caches data for reads. */
static void test_battery_fallback(void **state)
{
	struct drv d;
	struct json_object *rep, *tree;

	(void)state;
	drv_init(&d, "cache(spy(mem(size=1m)), write=back, battery=bad, size=256k)", 4, 4096, 16);
	d.pw = 50;
	drv_start(&d, 400);
	assert_int_equal(d.mismatches, 0);
	/* a write-through write leaves its data in the cache: read it back */
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_WRITE, 0, 4096, d.slots[0].buf, 0), 0);
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_READ, 0, 4096, d.slots[1].buf, 0), 0);
	assert_memory_equal(d.slots[0].buf, d.slots[1].buf, 4096);
	rep = cache_counters(&d);
	assert_int_equal(jint(rep, "writes_back"), 0);
	assert_true(jint(rep, "writes_through") > 0);
	assert_true(jint(rep, "read_hits") > 0);
	json_object_put(rep);
	tree = rl_target_tree(d.t);
	assert_string_equal(json_object_get_string(json_object_object_get(tree, "write_effective")),
	                    "through (write-back fallback: no good battery)");
	json_object_put(tree);
	drv_free(&d);
}

/* A dirty line is served from the cache; a write-back write costs DRAM time, not member time. */
static void test_hits_and_timing(void **state)
{
	struct rl_target *t = ut_open("cache(delay(mem(size=1m), lat=1ms), write=back, "
	                              "read=none, dram-lat=5us, dram-bw=1GB/s)");
	struct rl_exec *ex;
	uint8_t *a = malloc(65536), *b = malloc(65536);
	uint64_t t0;
	struct json_object *rep;

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	memset(a, 0x5a, 65536);
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 4096, 8192, a, 0), 0);
	/* 5 us + 8192 B at 1 GB/s = 8.192 us */
	assert_int_equal(rl_exec_now(ex) - t0, 5000 + 8192);
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 4096, 8192, b, 0), 0);
	assert_int_equal(rl_exec_now(ex) - t0, 5000 + 8192);
	assert_memory_equal(a, b, 8192);
	/* A miss pays the member. */
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 512 * 1024, 4096, b, 0), 0);
	assert_true(rl_exec_now(ex) - t0 >= 1000000);
	/* FUA goes to the member. */
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 4096, a, RL_IO_FUA), 0);
	assert_true(rl_exec_now(ex) - t0 >= 1000000);
	/* A flush destages the dirty line and waits for it. */
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	assert_true(rl_exec_now(ex) - t0 >= 2000000); /* destage, then the member flush */
	rep = rl_target_report(t);
	assert_int_equal(jint(rep, "read_hits"), 1);
	assert_int_equal(jint(rep, "read_misses"), 1);
	assert_int_equal(jint(rep, "writes_back"), 1);
	assert_int_equal(jint(rep, "writes_fua"), 1);
	assert_int_equal(jint(rep, "dirty_bytes"), 0);
	assert_true(jint(rep, "destage_bytes") >= 8192);
	assert_int_equal(jint(rep, "member_flushes"), 1);
	json_object_put(rep);
	rl_target_finish(t);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(a);
	free(b);
}

/* Read-ahead: sequential reads at QD1 wait for the prefetch and hit; random ones waste it. */
static void test_readahead_counters(void **state)
{
	static const char *const policy[] = {"none", "ahead", "adaptive"};
	uint8_t *b = malloc(16384);

	(void)state;
	for (int p = 0; p < 3; p++) {
		char spec[256];
		struct rl_target *t;
		struct rl_exec *ex;
		struct json_object *rep;
		int64_t used, issued;

		snprintf(spec, sizeof(spec),
		         "cache(delay(mem(size=4m), lat=100us), read=%s, line=16k, ra=64k, "
		         "size=1m)",
		         policy[p]);
		t = ut_open(spec);
		assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
		assert_int_equal(rl_target_attach(t, ex), 0);
		for (uint64_t off = 0; off < (1u << 20); off += 16384)
			assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, 16384, b, 0), 0);
		rep = rl_target_report(t);
		used = jint(rep, "ra_used_bytes");
		issued = jint(rep, "ra_issued_bytes");
		if (p == 0) {
			assert_int_equal(issued, 0);
		} else {
			/* all but the first read (two for adaptive) come from the prefetch */
			assert_true(used >= (1 << 20) - 3 * 16384);
			assert_true(jint(rep, "read_hits") + jint(rep, "read_misses") == 64);
			assert_true(jint(rep, "read_waits") > 0);
		}
		json_object_put(rep);
		/* random reads: read=ahead prefetches after each, adaptive does not */
		for (int i = 0; i < 64; i++)
			assert_int_equal(rl_io_sync(t, ex, RL_OP_READ,
			                            (uint64_t)rnd(64, 255) * 16384, 4096, b, 0),
			                 0);
		rep = rl_target_report(t);
		if (p == 1 && jint(rep, "ra_issued_bytes") - issued < 64 * 32768)
			fail_msg("read=ahead: %lld bytes prefetched for 64 random reads",
			         (long long)(jint(rep, "ra_issued_bytes") - issued));
		if (p == 2)
			assert_true(jint(rep, "ra_issued_bytes") - issued < 4 * 65536);
		json_object_put(rep);
		rl_target_finish(t);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	free(b);
}

static void test_spec_errors(void **state)
{
	static const char *const bad[] = {
	    "cache(mem(), line=3k)",
	    "cache(mem(), size=1k)",
	    "cache(mem(), read=sometimes)",
	    "cache(mem(), write=maybe)",
	    "cache(mem(), dirty-low=90, dirty-high=50)",
	    "cache(mem(), mem())",
	    "cache(mem(), colour=blue)",
	    "cache()",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rl_build_ctx ctx;
		struct rl_target *t = NULL;
		struct rl_err err = {0};
		rl_build_ctx_init(&ctx);
		assert_int_not_equal(rl_target_open(bad[i], &ctx, &t, &err), 0);
		assert_true(strlen(err.msg) > 0);
	}
}

/* --- the power-loss table --- */

struct pl_case {
	const char *opts;
	bool ctrl_volatile; /* acknowledged dirty data may be lost */
	bool dc;
	bool wt_like; /* no dirty data: the drive-cache loss is exact */
};

/* Returns the blocks reported lost (controller + drive). */
static uint64_t run_powerloss(const struct pl_case *pc, uint64_t n, uint64_t seed)
{
	char spec[512];
	struct drv d;
	struct json_object *rep, *power, *ranges;
	uint8_t *lost;
	uint64_t lost_ctrl = 0, lost_drive = 0;
	uint8_t buf[512];

	rng_state = seed;
	snprintf(spec, sizeof(spec),
	         "cache(spy(mem(size=1m), jitter=30us, seed=%llu), size=512k, line=8k, "
	         "read=ahead, dirty-high=95%%, dirty-low=80%%, idle-flush=0, disk-cache=%s, "
	         "powerloss-after=%llu, %s)",
	         (unsigned long long)seed, pc->dc ? "on" : "off", (unsigned long long)n, pc->opts);
	drv_init(&d, spec, 8, 4096, 24);
	d.pl = true;
	d.pw = 65;
	d.pfua = 8;
	d.pf = 3;
	drv_start(&d, 1000000);
	assert_true(d.cut);
	assert_int_equal(d.acked, n);
	assert_int_equal(d.mismatches, 0);
	assert_int_equal(d.errors, 0);
	/* powered off: fails I/O */
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_READ, 0, 512, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_WRITE, 0, 512, buf, 0), -EIO);
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_FLUSH, 0, 0, NULL, 0), -EIO);

	rep = rl_target_report(d.t);
	assert_true(json_object_object_get_ex(rep, "power", &power));
	assert_string_equal(json_object_get_string(json_object_object_get(power, "state")), "off");
	assert_int_equal(jint(power, "acknowledged_writes"), n);
	ranges = json_object_object_get(power, "lost_ranges");
	assert_false(
	    json_object_get_boolean(json_object_object_get(power, "lost_ranges_truncated")));
	lost = calloc(1, d.nblk);
	for (size_t i = 0; i < json_object_array_length(ranges); i++) {
		struct json_object *r = json_object_array_get_idx(ranges, i);
		uint64_t off = (uint64_t)jint(r, "offset"), len = (uint64_t)jint(r, "length");
		const char *cause = json_object_get_string(json_object_object_get(r, "cause"));
		uint8_t v = !strcmp(cause, "controller-cache") ? 1 : 2;
		assert_int_equal(off % d.bs, 0);
		assert_int_equal(len % d.bs, 0);
		for (uint64_t b = off / d.bs; b < (off + len) / d.bs; b++) {
			assert_int_equal(lost[b], 0); /* ranges do not overlap */
			lost[b] = v;
		}
	}
	assert_int_equal(jint(power, "lost_bytes"), jint(power, "lost_controller_cache_bytes") +
	                                                jint(power, "lost_drive_cache_bytes"));
	json_object_put(rep);

	/* Power back: a protected cache replays; then what do the members hold? */
	rl_target_finish(d.t);
	drv_read_member(&d);
	for (uint64_t b = 0; b < d.nblk; b++) {
		bool nd = d.ackidx[b] > (pc->wt_like ? d.durable_wt : d.durable_upto) && !d.fua[b];
		bool differs = memcmp(d.member + b * d.bs, d.shadow + b * d.bs, d.bs) != 0;
		if (d.amb[b])
			continue;
		lost_ctrl += lost[b] == 1;
		lost_drive += lost[b] == 2;
		if (lost[b] && !nd)
			fail_msg("%s: block %llu reported lost (%d) but its data was durable "
			         "(write %llu, durable up to %llu/%llu, fua %d)",
			         spec, (unsigned long long)b, lost[b],
			         (unsigned long long)d.ackidx[b],
			         (unsigned long long)d.durable_upto,
			         (unsigned long long)d.durable_wt, d.fua[b]);
		if (differs && lost[b] != 1)
			fail_msg("%s: block %llu differs on the member but is not reported lost",
			         spec, (unsigned long long)b);
		if (lost[b] == 1 && !pc->ctrl_volatile)
			fail_msg("%s: controller-cache loss with a protected cache", spec);
		if (lost[b] == 2 && !pc->dc)
			fail_msg("%s: drive-cache loss with disk-cache=off", spec);
		if (pc->wt_like && pc->dc && nd != (lost[b] == 2))
			fail_msg("%s: block %llu: written since the last flush %d, reported %d",
			         spec, (unsigned long long)b, nd, lost[b]);
	}
	if (!pc->ctrl_volatile && !pc->dc)
		assert_true(lost_ctrl + lost_drive == 0);
	/* Still off after the replay. */
	assert_int_equal(rl_io_sync(d.t, d.ex, RL_OP_READ, 0, 512, buf, 0), -EIO);
	free(lost);
	drv_free(&d);
	return lost_ctrl + lost_drive;
}

static void test_powerloss_table(void **state)
{
	static const struct pl_case cases[] = {
	    {"write=through", false, false, true},
	    {"write=through", false, true, true},
	    {"write=back, battery=ok", false, false, false},
	    {"write=back, battery=ok", false, true, false},
	    {"write=back, battery=bad", false, false, true},
	    {"write=back, battery=none", false, true, true},
	    {"write=back, battery=none, nv=on", false, false, false},
	    {"write=force-back, battery=none", true, false, false},
	    {"write=force-back, battery=bad", true, true, false},
	    {"write=force-back, battery=none, nv=on", false, false, false},
	    {"write=force-back, battery=ok", false, true, false},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t lost = 0;
		for (uint64_t k = 0; k < 2; k++)
			lost +=
			    run_powerloss(&cases[i], 150 + 197 * k, rng() ^ (1000 + 31 * i + k));
		/* the unsafe configurations did lose something */
		if (cases[i].ctrl_volatile || (cases[i].dc && cases[i].wt_like))
			assert_true(lost > 0);
	}
}

/* The report and the JSON tree carry the configuration and the counters. */
static void test_describe(void **state)
{
	struct rl_target *t = ut_open("cache(mem(size=1m), size=64k, line=8k, write=force-back, "
	                              "battery=none, read=adaptive, disk-cache=off, "
	                              "powerloss-after=5)");
	struct json_object *tree = rl_target_tree(t), *rep = rl_target_report(t);

	(void)state;
	assert_string_equal(json_object_get_string(json_object_object_get(tree, "type")), "cache");
	assert_string_equal(json_object_get_string(json_object_object_get(tree, "read")),
	                    "adaptive");
	assert_string_equal(json_object_get_string(json_object_object_get(tree, "write")),
	                    "force-back");
	assert_string_equal(json_object_get_string(json_object_object_get(tree, "disk_cache")),
	                    "off");
	assert_false(json_object_get_boolean(json_object_object_get(tree, "protected")));
	assert_int_equal(jint(tree, "lines"), 8);
	assert_int_equal(jint(tree, "powerloss_after"), 5);
	assert_true(json_object_object_get_ex(rep, "power", NULL));
	assert_int_equal(jint(rep, "dirty_peak_bytes"), 0);
	json_object_put(tree);
	json_object_put(rep);
	rl_target_close(t);
}

/*
 * A flush of many dirty lines over a stack where each level below takes a
 * child request of its own, the array's only after the link's latency (a
 * timer): the flush keeps at most destage-qd of its writes in flight, so
 * the levels below always find room in the executor's pool of 256.  When
 * it took a child per dirty line, 128 flush writes and their 128 link
 * requests emptied the pool before raid0 took any, every level parked for
 * it: the flush never ended (and spun deaf to signals).  The alarm turns
 * a hang into a failure.
 */
static void test_flush_deep_stack(void **state)
{
	struct rl_target *t = ut_open("cache(link(raid0(delay(mem(size=8m), lat=100us) x2, "
	                              "chunk=64k), lat=10us), write=force-back, line=64k, "
	                              "size=16m, idle-flush=0, destage-qd=8)");
	uint8_t a[4096];
	struct rl_exec *ex;
	struct json_object *rep;
	const int lines = 160; /* below dirty-high (75 % of 256): no background destage */

	(void)state;
	memset(a, 0xa5, sizeof(a));
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	for (int i = 0; i < lines; i++)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, (uint64_t)i * 65536, 4096, a, 0),
		                 0);
	rep = rl_target_report(t);
	assert_int_equal(jint(rep, "dirty_bytes"), lines * 4096);
	json_object_put(rep);
	alarm(60);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	alarm(0);
	rep = rl_target_report(t);
	assert_int_equal(jint(rep, "dirty_bytes"), 0);
	assert_int_equal(jint(rep, "destage_bytes"), lines * 4096);
	json_object_put(rep);
	rl_target_finish(t);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

int main(void)
{
	/* CACHE_TEST_SEED=N explores other random sequences (the default is fixed). */
	if (getenv("CACHE_TEST_SEED"))
		rng_state ^= strtoull(getenv("CACHE_TEST_SEED"), NULL, 0) * 0x9e3779b97f4a7c15ull;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_errors),      cmocka_unit_test(test_describe),
	    cmocka_unit_test(test_hits_and_timing),  cmocka_unit_test(test_readahead_counters),
	    cmocka_unit_test(test_battery_fallback), cmocka_unit_test(test_policies),
	    cmocka_unit_test(test_powerloss_table),  cmocka_unit_test(test_flush_deep_stack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
