/*
 * test_engine.c - the core request path, executors, generators and the job
 * engine, on mem and null targets and on a small failing target defined
 * here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "core/exec.h"
#include "core/exec_backend.h"
#include "core/registry.h"
#include "core/sync.h"
#include "workload/buf.h"
#include "workload/gen.h"
#include "workload/run.h"

static void set(struct wl_job *job, const char *k, const char *v)
{
	char msg[256];

	if (wl_job_set(job, k, v, "test", msg, sizeof(msg)))
		fail_msg("%s=%s: %s", k, v ? v : "(bare)", msg);
}

/* --- generators --- */

static void test_perm_bijective(void **state)
{
	(void)state;
	for (uint64_t n = 1; n < 600; n += (n < 70 ? 1 : 37)) {
		struct wl_perm p;
		uint8_t *seen = calloc(n, 1);
		wl_perm_init(&p, n, n * 7 + 3);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = wl_perm_map(&p, i);
			assert_true(v < n);
			assert_int_equal(seen[v], 0);
			seen[v] = 1;
		}
		/* a pass visits each value once, and the next pass does again */
		struct wl_perm_pos pos = {0};
		for (int pass = 1; pass <= 2; pass++)
			for (uint64_t i = 0; i < n; i++) {
				uint64_t v = wl_perm_next(&p, &pos);
				assert_true(v < n);
				assert_int_equal(seen[v], pass);
				seen[v] = (uint8_t)(pass + 1);
			}
		free(seen);
	}
}

/*
 * The order of a pass is part of every recorded result (validate's
 * figures come from it): the values wl_perm_next returns, however it
 * computes them, stay these.  Hashes of the first 3 passes' worth
 * (at most 50,000 values) for a power-of-four domain and mixed ones.
 */
static void test_perm_sequence_fixed(void **state)
{
	static const struct {
		uint64_t n, hash;
	} want[] = {
	    {1, 0xd94d12186c0f2fb7ull},          {7, 0x2b19a99710cfc132ull},
	    {64, 0x2b0dda368167b835ull},         {1000, 0x6f9b248626bd6ab9ull},
	    {4096, 0x6afe60ef1aadd273ull},       {26214400, 0x947f0ee3b0720974ull},
	    {1ull << 30, 0x4428bc221b444fd7ull},
	};

	unsigned bad = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		struct wl_perm p;
		struct wl_perm_pos pos;
		uint64_t h = 0xcbf29ce484222325ull, count = want[k].n * 3;

		memset(&pos, 0, sizeof(pos));
		wl_perm_init(&p, want[k].n, 1234 + k);
		if (count > 50000)
			count = 50000;
		for (uint64_t i = 0; i < count; i++)
			h = (h ^ wl_perm_next(&p, &pos)) * 0x100000001b3ull;
		print_message("n=%llu hash=0x%016llx\n", (unsigned long long)want[k].n,
		              (unsigned long long)h);
		bad += h != want[k].hash;
	}
	assert_int_equal(bad, 0);
}

static void test_random_map_once_per_loop(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	const uint64_t n = 1000;
	uint8_t seen[1000];

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randwrite");
	set(&job, "bs", "4k");
	assert_int_equal(wl_gen_init(&g, &job, 8192, n * 4096, 512, 42), 0);
	for (int loop = 0; loop < 2; loop++) {
		memset(seen, 0, sizeof(seen));
		for (uint64_t i = 0; i < n; i++) {
			uint32_t len = wl_gen_len(&g, RL_OP_READ);
			uint64_t off = wl_gen_offset(&g, wl_gen_op(&g), &len);
			assert_int_equal(len, 4096);
			assert_true(off >= 8192 && (off - 8192) % 4096 == 0);
			uint64_t k = (off - 8192) / 4096;
			assert_true(k < n);
			assert_int_equal(seen[k], 0);
			seen[k] = 1;
		}
	}
}

/* zonemode=strided: zonesize bytes in each zone of zonerange, zoneskip between, as fio. */
static void test_zone_strided(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	/* 8k of each 16k zone, then 16k skipped: zones at 0, 32k, 64k, 96k, then back to 0 */
	static const uint64_t want[] = {0, 4, 32, 36, 64, 68, 96, 100, 0, 4};

	(void)state;
	wl_job_init(&job);
	set(&job, "bs", "4k");
	set(&job, "zonemode", "strided");
	set(&job, "zonerange", "16k");
	set(&job, "zonesize", "8k");
	set(&job, "zoneskip", "16k");
	assert_int_equal(wl_gen_init(&g, &job, 1 << 20, 128 << 10, 512, 1), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint32_t len = wl_gen_len(&g, RL_OP_READ);
		assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), (1 << 20) + want[i] * 1024);
		assert_int_equal(len, 4096);
	}
	/* zonesize above zonerange: the zone is gone over again before moving on */
	set(&job, "zonesize", "32k");
	set(&job, "zoneskip", "0");
	assert_int_equal(wl_gen_init(&g, &job, 0, 128 << 10, 512, 1), 0);
	for (int i = 0; i < 9; i++) {
		uint32_t len = 4096;
		uint64_t off = wl_gen_offset(&g, RL_OP_READ, &len);
		assert_int_equal(off, i < 8 ? (uint64_t)(i % 4) * 4096 : 16384);
	}
	/* random: every request inside the current zone */
	set(&job, "rw", "randread");
	set(&job, "zonesize", "8k");
	set(&job, "zoneskip", "16k");
	assert_int_equal(wl_gen_init(&g, &job, 0, 128 << 10, 512, 7), 0);
	for (int i = 0; i < 8; i++) {
		uint32_t len = 4096;
		uint64_t off = wl_gen_offset(&g, RL_OP_READ, &len);
		assert_true(off >= (uint64_t)(i / 2) * 32768 &&
		            off + len <= (uint64_t)(i / 2) * 32768 + 16384);
	}
	/* random under the map (fio's t/strided.py): each pass over a zone of 64
	 * blocks takes each block once; zonesize twice zonerange makes two passes
	 * in a zone, then the next zone; lfsr keeps it with norandommap, a plain
	 * norandommap repeats blocks within a pass */
	set(&job, "zonerange", "256k");
	set(&job, "zonesize", "512k");
	set(&job, "zoneskip", "0");
	for (int mode = 0; mode < 3; mode++) {
		set(&job, "norandommap", mode ? "1" : "0");
		set(&job, "random_generator", mode == 1 ? "lfsr" : "tausworthe");
		assert_int_equal(wl_gen_init(&g, &job, 0, 1 << 20, 512, 11), 0);
		bool repeated = false;
		for (int pass = 0; pass < 6; pass++) {
			uint8_t seen[64] = {0};
			uint64_t zone = (uint64_t)(pass / 2) * (256 << 10);
			for (int i = 0; i < 64; i++) {
				uint32_t len = 4096;
				uint64_t off = wl_gen_offset(&g, RL_OP_READ, &len);
				assert_true(off >= zone && off < zone + (256 << 10));
				repeated |= seen[(off - zone) / 4096]++ > 0;
			}
		}
		assert_int_equal(repeated, mode == 2);
	}
}

static void test_sequential_wraps(void **state)
{
	struct wl_job job;
	struct wl_gen g;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "read");
	set(&job, "bs", "64k");
	/* region of 100k: 64k, then back to the start, as fio (the next 64k does
	   not fit, and fio does not cut it short) */
	assert_int_equal(wl_gen_init(&g, &job, 0, 100 * 1024, 512, 1), 0);
	assert_int_equal(g.region_len, 65536);
	uint32_t len = 65536;
	assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), 0);
	assert_int_equal(len, 65536);
	len = 65536;
	assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), 0);
	assert_int_equal(len, 65536);
	/* with several sizes the last request of a pass is cut to fit */
	set(&job, "bssplit", "64k/50:32k/50");
	assert_int_equal(wl_gen_init(&g, &job, 0, 100 * 1024, 512, 1), 0);
	assert_int_equal(g.region_len, 100 * 1024);
	len = 65536;
	assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), 0);
	len = 65536;
	assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), 65536);
	assert_int_equal(len, 100 * 1024 - 65536);
}

static void test_zipf_is_skewed(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	enum { N = 1000, DRAWS = 200000 };
	static uint32_t hits[N];
	uint32_t sorted[N];

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randread");
	set(&job, "random_distribution", "zipf:1.2");
	assert_int_equal(wl_gen_init(&g, &job, 0, (uint64_t)N * 4096, 512, 9), 0);
	memset(hits, 0, sizeof(hits));
	for (int i = 0; i < DRAWS; i++) {
		uint32_t len = 4096;
		hits[wl_gen_offset(&g, RL_OP_READ, &len) / 4096]++;
	}
	memcpy(sorted, hits, sizeof(sorted));
	/* descending selection of the top two */
	uint32_t top1 = 0, top2 = 0;
	for (int i = 0; i < N; i++) {
		if (sorted[i] > top1) {
			top2 = top1;
			top1 = sorted[i];
		} else if (sorted[i] > top2) {
			top2 = sorted[i];
		}
	}
	/* Zipf(1.2) over 1000: P(1) = 1/H ~ 0.23, P(2)/P(1) = 2^-1.2 ~ 0.435 */
	double p1 = (double)top1 / DRAWS;
	assert_true(p1 > 0.20 && p1 < 0.26);
	double ratio = (double)top2 / top1;
	assert_true(ratio > 0.40 && ratio < 0.47);
}

/* --- executor and fan-out --- */

static int fired[8];
static int nfired;

static void timer_cb(struct rl_io *io, int status)
{
	(void)status;
	fired[nfired++] = (int)io->offset;
}

static void test_virtual_timers_in_order(void **state)
{
	struct rl_exec *ex;
	struct rl_io ios[4];
	const uint64_t when[4] = {300, 100, 200, 100};

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 4, 0, &ex), 0);
	nfired = 0;
	for (int i = 0; i < 4; i++) {
		memset(&ios[i], 0, sizeof(ios[i]));
		ios[i].offset = (uint64_t)i;
		ios[i].cb = timer_cb;
		ios[i].ex = ex;
		assert_int_equal(rl_exec_at(ex, &ios[i], when[i], 0), 0);
	}
	while (!rl_exec_idle(ex))
		assert_true(rl_exec_run_once(ex, true) >= 0);
	assert_int_equal(nfired, 4);
	/* by time, equal times first-in first-out */
	assert_int_equal(fired[0], 1);
	assert_int_equal(fired[1], 3);
	assert_int_equal(fired[2], 2);
	assert_int_equal(fired[3], 0);
	assert_int_equal(rl_exec_now(ex), 300);
	rl_exec_destroy(ex);
}

/*
 * Slow motion: on a paced executor with slow = 4, a timer 20 ms of
 * simulated time ahead fires no earlier than 80 ms of wall time later, and
 * the clock then reads at least its time (a lower bound only: a busy
 * machine may fire it late, which the lag counters record).
 */
static void test_paced_slow_motion(void **state)
{
	struct rl_exec *ex;
	struct rl_io io;
	const uint64_t d = 20000000ull;

	(void)state;
	assert_int_equal(rl_exec_create_paced(4, 8, 1000, 0, &ex), -EINVAL);
	assert_int_equal(rl_exec_create_paced(4, 8, 1000, 4, &ex), 0);
	assert_int_equal(rl_exec_wall_span(ex, 5), 20);
	assert_int_equal(rl_exec_wall_span(ex, UINT64_MAX / 2), UINT64_MAX);
	nfired = 0;
	memset(&io, 0, sizeof(io));
	io.cb = timer_cb;
	io.ex = ex;
	uint64_t w0 = rl_exec_wall_now(), v0 = rl_exec_now(ex); /* wall first: bounds below hold */
	assert_true(v0 >= 1000);
	assert_int_equal(rl_exec_at(ex, &io, v0 + d, 0), 0);
	while (!rl_exec_idle(ex))
		assert_true(rl_exec_run_once(ex, true) >= 0);
	uint64_t v1 = rl_exec_now(ex), w1 = rl_exec_wall_now();
	assert_int_equal(nfired, 1);
	assert_true(w1 - w0 >= 4 * d);
	assert_true(v1 >= v0 + d);
	/* the simulated clock advanced a quarter of the wall time, no more */
	assert_true(v1 - v0 <= (w1 - w0) / 4 + 1);
	rl_exec_destroy(ex);
}

/* Unpaced, a paced executor jumps to its timers: a simulated second at 1/1000 speed is not waited.
 */
static void test_paced_unpace(void **state)
{
	struct rl_exec *ex;
	struct rl_io io;
	const uint64_t d = 1000000000ull; /* 1 s simulated: 1000 s of wall clock when paced */

	(void)state;
	assert_int_equal(rl_exec_create_paced(4, 8, 0, 1000, &ex), 0);
	nfired = 0;
	memset(&io, 0, sizeof(io));
	io.cb = timer_cb;
	io.ex = ex;
	uint64_t w0 = rl_exec_wall_now(), v0 = rl_exec_now(ex);
	assert_int_equal(rl_exec_at(ex, &io, v0 + d, 0), 0);
	rl_exec_unpace(ex);
	while (!rl_exec_idle(ex))
		assert_true(rl_exec_run_once(ex, true) >= 0);
	uint64_t w1 = rl_exec_wall_now();
	assert_int_equal(nfired, 1);
	assert_true(rl_exec_now(ex) >= v0 + d); /* the clock went ahead of the wall clock */
	assert_true(w1 - w0 < rl_exec_wall_span(ex, d) / 10);
	rl_exec_destroy(ex);
}

static int parent_done_calls;
static int parent_status;

static void parent_cb(struct rl_io *io, int status)
{
	(void)io;
	parent_done_calls++;
	parent_status = status;
}

static void test_fanout_completes_once_with_first_error(void **state)
{
	struct rl_exec *ex;
	struct rl_io parent = {0};

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 2, 0, &ex), 0);
	parent.cb = parent_cb;
	parent.ex = ex;
	parent_done_calls = 0;
	rl_io_children_begin(&parent);
	struct rl_io *a = rl_io_child_get(&parent);
	struct rl_io *b = rl_io_child_get(&parent);
	assert_non_null(a);
	assert_non_null(b);
	assert_null(rl_io_child_get(&parent)); /* pool of 2 is empty */
	rl_exec_at(ex, a, 10, -EIO);
	rl_exec_at(ex, b, 20, -ENOSPC);
	rl_io_children_sealed(&parent);
	assert_int_equal(parent_done_calls, 0);
	while (!rl_exec_idle(ex))
		rl_exec_run_once(ex, true);
	assert_int_equal(parent_done_calls, 1);
	assert_int_equal(parent_status, -EIO);
	assert_int_equal(ex->pool_used, 0);
	rl_exec_destroy(ex);
}

/*
 * A pool too small for the stack: the link takes the only child, and after
 * its latency raid0 finds the pool empty and parks for good.  Nothing is
 * queued, timed or in flight, so a synchronous request reports the
 * deadlock instead of turning the loop forever (the alarm turns a spin
 * into a failure).
 */
static void test_sync_reports_pool_deadlock(void **state)
{
	struct rl_target *t = ut_open("link(raid0(mem(size=1m) x2, chunk=4k), lat=1us)");
	struct rl_exec *ex;
	uint8_t b[4096] = {0};

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 1, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	alarm(60);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, sizeof(b), b, 0), -EDEADLK);
	alarm(0);
	assert_true(rl_exec_stalled(ex));
	assert_false(rl_exec_idle(ex)); /* raid0's request is still parked */
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void test_submit_checks_contract(void **state)
{
	struct rl_target *t = ut_open("mem(size=1m)");
	struct rl_exec *ex;
	char buf[4096];

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 4, 0, &ex), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 1048576 - 512, 1024, buf, 0), -EINVAL);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 100, 512, buf, 0), -EINVAL);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 0, buf, 0), -EINVAL);
	memset(buf, 0xab, sizeof(buf));
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 4096, 4096, buf, 0), 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 4096, 4096, buf, 0), 0);
	assert_int_equal((unsigned char)buf[100], 0xab);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 4096, 4096, NULL, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 4096, 4096, buf, 0), 0);
	assert_int_equal(buf[100], 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	rl_exec_destroy(ex);
	rl_target_close(t);
}

/* --- the engine --- */

static void run_ok(struct rl_target *t, struct wl_job *job, struct wl_result *res)
{
	char msg[512];

	if (wl_run_job(t, job, NULL, res, msg, sizeof(msg)))
		fail_msg("run failed: %s", msg);
}

static void test_bytes_equal_asked_every_mode(void **state)
{
	static const char *const modes[] = {"read", "write",  "randread", "randwrite",
	                                    "rw",   "randrw", "trim",     "randtrim"};
	struct rl_target *t = ut_open("mem(size=8m)");

	(void)state;
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (int engine = 0; engine < 2; engine++) {
			struct wl_job job;
			struct wl_result res;
			wl_job_init(&job);
			set(&job, "rw", modes[m]);
			set(&job, "bs", "16k");
			set(&job, "size", "2m");
			set(&job, "offset", "1m");
			set(&job, "loops", "3");
			set(&job, "iodepth", "8");
			set(&job, "ioengine", engine ? "psync" : "io_uring");
			run_ok(t, &job, &res);
			uint64_t total = res.dir[0].bytes + res.dir[1].bytes + res.dir[2].bytes;
			assert_int_equal(total, 3u * 2 * 1024 * 1024);
			assert_int_equal(res.dir[0].ios + res.dir[1].ios + res.dir[2].ios,
			                 total / 16384);
			assert_true(wl_result_ok(&res));
			wl_result_free(&res);
		}
	}
	rl_target_close(t);
}

static void test_verify_on_mem_and_numjobs(void **state)
{
	struct rl_target *t = ut_open("mem(size=16m)");
	struct wl_job job;
	struct wl_result res;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randwrite");
	set(&job, "bssplit", "4k/50:32k/50");
	set(&job, "verify", "crc32c");
	set(&job, "iodepth", "16");
	set(&job, "numjobs", "2");
	run_ok(t, &job, &res);
	assert_true(res.verified);
	assert_true(res.verify_blocks > 0);
	assert_int_equal(res.verify_bad, 0);
	wl_result_free(&res);
	rl_target_close(t);
}

static void test_verify_names_flipped_byte(void **state)
{
	uint8_t block[4096];
	uint64_t bad = 0;
	char msg[256];

	(void)state;
	wl_verify_fill(block, sizeof(block), 1 << 20, 77, 0);
	assert_int_equal(
	    wl_verify_check(block, sizeof(block), 1 << 20, 77, 0, &bad, msg, sizeof(msg)), 0);
	block[1234] ^= 0x10;
	assert_int_equal(
	    wl_verify_check(block, sizeof(block), 1 << 20, 77, 0, &bad, msg, sizeof(msg)), -EILSEQ);
	assert_int_equal(bad, (1 << 20) + 1234);
	/* the same block read back from the wrong place is a misplaced write */
	block[1234] ^= 0x10;
	assert_int_equal(
	    wl_verify_check(block, sizeof(block), 2 << 20, 77, 0, &bad, msg, sizeof(msg)), -EILSEQ);
	assert_non_null(strstr(msg, "misplaced"));
}

/* A target that fails writes at one offset: the engine stops and reports it. */
static void failing_submit(struct rl_target *t, struct rl_io *io)
{
	uint64_t bad = *(uint64_t *)t->priv;

	rl_io_complete_later(
	    io,
	    io->op == RL_OP_WRITE && io->offset <= bad && bad < io->offset + io->len ? -EIO : 0);
}

static const struct rl_target_ops failing_ops = {.name = "failing", .submit = failing_submit};

static void test_io_error_stops_job(void **state)
{
	struct rl_target *t = rl_target_alloc(&failing_ops, 0);
	uint64_t bad = 123 * 4096 + 7;
	struct wl_job job;
	struct wl_result res;

	(void)state;
	t->size = 1 << 20;
	t->priv = &bad;
	wl_job_init(&job);
	set(&job, "rw", "write");
	set(&job, "iodepth", "4");
	run_ok(t, &job, &res);
	assert_false(wl_result_ok(&res));
	assert_int_equal(res.errors, 1);
	assert_int_equal(res.first_error, -EIO);
	assert_int_equal(res.first_error_offset, 123 * 4096);
	assert_true(res.dir[RL_OP_WRITE].bytes < (1u << 20));
	wl_result_free(&res);
	t->priv = NULL;
	rl_target_close(t);
}

static void test_time_based_null(void **state)
{
	struct rl_target *t = ut_open("null(size=1g)");
	struct wl_job job;
	struct wl_result res;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randread");
	set(&job, "iodepth", "32");
	set(&job, "runtime", "200ms");
	set(&job, "ramp_time", "50ms");
	set(&job, "time_based", "1");
	set(&job, "log_avg_msec", "50");
	run_ok(t, &job, &res);
	assert_true(res.runtime_ns >= 200000000ull);
	assert_true(res.runtime_ns < 400000000ull);
	assert_true(res.dir[RL_OP_READ].ios > 1000);
	assert_int_equal(res.dir[RL_OP_READ].hist.count, res.dir[RL_OP_READ].ios);
	/* the series covers the measured time in 50 ms intervals */
	print_message("series intervals: %zu\n", res.dir[RL_OP_READ].series.n);
	assert_true(res.dir[RL_OP_READ].series.n >= 4 && res.dir[RL_OP_READ].series.n <= 6);
	wl_result_free(&res);
	rl_target_close(t);
}

static void test_region_beyond_target_refused(void **state)
{
	struct rl_target *t = ut_open("mem(size=1m)");
	struct wl_job job;
	struct wl_result res;
	char msg[256];

	(void)state;
	wl_job_init(&job);
	set(&job, "size", "1m");
	set(&job, "offset", "1m");
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "beyond the end"));
	rl_target_close(t);
}

/* A region that starts inside the target but runs past its end is cut to fit (as fio). */
static void test_region_past_end_fitted(void **state)
{
	struct rl_target *t = ut_open("mem(size=1m)");
	struct wl_job job;
	struct wl_result res;
	char msg[256];

	(void)state;
	wl_job_init(&job);
	set(&job, "size", "1m");
	set(&job, "offset", "512k");
	set(&job, "rw", "read");
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), 0);
	assert_int_equal(res.dir[RL_OP_READ].bytes, 512 * 1024);
	wl_result_free(&res);
	rl_target_close(t);
}

/* --- fio's job options in the engine and the generators --- */

static void test_seq_skip_and_backwards(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	char msg[256];

	(void)state;
	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "rw", "read:-8k", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_gen_init(&g, &job, 0, 64 * 1024, 512, 1), 0);
	/* 4k forward, 8k back: 0, then wrapping backwards from the end */
	static const uint64_t want[] = {0, 60 * 1024, 56 * 1024, 52 * 1024};
	for (size_t i = 0; i < 4; i++) {
		uint32_t len = 4096;
		assert_int_equal(wl_gen_offset(&g, RL_OP_READ, &len), want[i]);
	}
	assert_int_equal(wl_job_set(&job, "rw", "write:4k", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_gen_init(&g, &job, 1 << 20, 64 * 1024, 512, 1), 0);
	for (uint64_t i = 0; i < 4; i++) {
		uint32_t len = 4096;
		assert_int_equal(wl_gen_offset(&g, RL_OP_WRITE, &len), (1 << 20) + i * 8192);
	}
}

static void test_random_runs(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	char msg[256];

	(void)state;
	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "rw", "randread:4", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_gen_init(&g, &job, 0, 64 << 20, 512, 7), 0);
	unsigned sequential = 0;
	uint64_t prev = 0;
	for (int i = 0; i < 400; i++) {
		uint32_t len = 4096;
		uint64_t off = wl_gen_offset(&g, RL_OP_READ, &len);
		if (i && off == prev + 4096)
			sequential++;
		prev = off;
	}
	/* three of every four follow the one before (a run may end at the region's end) */
	assert_in_range(sequential, 290, 300);
}

static void test_zoned_shares(void **state)
{
	struct wl_job job;
	struct wl_gen g;
	char msg[256];
	unsigned in_first = 0, in_second = 0, n = 20000;

	(void)state;
	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "rw", "randread", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(
	    wl_job_set(&job, "random_distribution", "zoned:50/5:30/15:20/", NULL, msg, sizeof(msg)),
	    0);
	assert_int_equal(wl_gen_init(&g, &job, 0, 100 << 20, 512, 3), 0);
	for (unsigned i = 0; i < n; i++) {
		uint32_t len = 4096;
		uint64_t off = wl_gen_offset(&g, RL_OP_READ, &len);
		if (off < 5ull << 20)
			in_first++;
		else if (off < 20ull << 20)
			in_second++;
	}
	assert_in_range(in_first, n / 2 - n / 50, n / 2 + n / 50);
	assert_in_range(in_second, n * 3 / 10 - n / 50, n * 3 / 10 + n / 50);
}

static void test_fsync_every_n_writes(void **state)
{
	struct rl_target *t = ut_open("mem(size=1m)");
	struct wl_job job;
	struct wl_result res;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "write");
	set(&job, "size", "1m");
	set(&job, "fsync", "4");
	set(&job, "end_fsync", "1");
	run_ok(t, &job, &res);
	assert_int_equal(res.dir[RL_OP_WRITE].ios, 256);
	assert_int_equal(res.flushes, 63); /* as fio: end_fsync's flush is not counted */
	wl_result_free(&res);
	rl_target_close(t);
}

static void test_number_ios(void **state)
{
	struct rl_target *t = ut_open("null(size=1g)");
	struct wl_job job;
	struct wl_result res;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randread");
	set(&job, "iodepth", "8");
	set(&job, "number_ios", "100");
	run_ok(t, &job, &res);
	assert_int_equal(res.dir[RL_OP_READ].ios, 100);
	wl_result_free(&res);
	rl_target_close(t);
}

/* rate_iops and startdelay in simulated time: exact, whatever the machine. */
static void test_rate_and_startdelay_virtual(void **state)
{
	struct rl_target *t = ut_open("ssd(intel-x25v-40)");
	struct wl_job job;
	struct wl_result res;

	(void)state;
	wl_job_init(&job);
	set(&job, "rw", "randread");
	set(&job, "iodepth", "4");
	set(&job, "size", "64m");
	set(&job, "rate_iops", "500");
	set(&job, "runtime", "2");
	set(&job, "time_based", NULL);
	set(&job, "startdelay", "1");
	uint64_t v0 = t->vtime;
	run_ok(t, &job, &res);
	/* 500 per second for 2 s (the first few go at once, as the slots fill) */
	assert_in_range(res.dir[RL_OP_READ].ios, 999, 1004);
	assert_in_range(res.runtime_ns, 2000000000ull, 2010000000ull);
	assert_true(t->vtime - v0 >= 3000000000ull); /* startdelay + runtime */
	wl_result_free(&res);
	rl_target_close(t);
}

/* Two jobs of one wave run at the same time on one simulated clock. */
static void test_group_runs_together(void **state)
{
	struct rl_target *t = ut_open("ssd(intel-x25v-40)");
	struct wl_job a, b;
	struct wl_result ra, rb;
	char msg[512];

	(void)state;
	wl_job_init(&a);
	set(&a, "name", "a");
	set(&a, "rw", "randread");
	set(&a, "size", "16m");
	set(&a, "runtime", "1");
	set(&a, "time_based", NULL);
	b = a;
	set(&b, "name", "b");
	set(&b, "offset", "32m");
	struct rl_target *ta[1] = {t}, *tb[1] = {t};
	struct wl_run_item items[2] = {{.job = &a, .targets = ta, .res = &ra},
	                               {.job = &b, .targets = tb, .res = &rb}};
	uint64_t v0 = t->vtime;
	if (wl_run_group(items, 2, NULL, msg, sizeof(msg)))
		fail_msg("group failed: %s", msg);
	assert_true(ra.dir[RL_OP_READ].ios > 0 && rb.dir[RL_OP_READ].ios > 0);
	/* together: the clock moved about 1 s, not 2 */
	assert_in_range(t->vtime - v0, 1000000000ull, 1100000000ull);
	wl_result_free(&ra);
	wl_result_free(&rb);
	rl_target_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_perm_bijective),
	    cmocka_unit_test(test_perm_sequence_fixed),
	    cmocka_unit_test(test_random_map_once_per_loop),
	    cmocka_unit_test(test_sequential_wraps),
	    cmocka_unit_test(test_zipf_is_skewed),
	    cmocka_unit_test(test_virtual_timers_in_order),
	    cmocka_unit_test(test_paced_slow_motion),
	    cmocka_unit_test(test_fanout_completes_once_with_first_error),
	    cmocka_unit_test(test_sync_reports_pool_deadlock),
	    cmocka_unit_test(test_submit_checks_contract),
	    cmocka_unit_test(test_bytes_equal_asked_every_mode),
	    cmocka_unit_test(test_verify_on_mem_and_numjobs),
	    cmocka_unit_test(test_verify_names_flipped_byte),
	    cmocka_unit_test(test_io_error_stops_job),
	    cmocka_unit_test(test_time_based_null),
	    cmocka_unit_test(test_region_beyond_target_refused),
	    cmocka_unit_test(test_region_past_end_fitted),
	    cmocka_unit_test(test_seq_skip_and_backwards),
	    cmocka_unit_test(test_random_runs),
	    cmocka_unit_test(test_zoned_shares),
	    cmocka_unit_test(test_fsync_every_n_writes),
	    cmocka_unit_test(test_number_ios),
	    cmocka_unit_test(test_rate_and_startdelay_virtual),
	    cmocka_unit_test(test_group_runs_together),
	    cmocka_unit_test(test_paced_unpace),
	    cmocka_unit_test(test_zone_strided),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
