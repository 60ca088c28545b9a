/*
 * test_sim_after.c - work a drive does after acknowledging a write.
 *
 * write_after keeps the controller busy after a write is acknowledged: the
 * write's own latency does not include it, a command that follows at once
 * waits for it, and a gap as long as it absorbs it.  merge_after moves the
 * read of a partly written unit (the merge) behind the acknowledgement:
 * one drive at QD1 gains nothing (the next write waits for it), a RAID 0
 * of two does (a member merges while the other takes the next write).
 * Both are off by default.  The drive is the Vertex (32 KiB units).
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>

#include "core/sync.h"
#include "test_sim_load.h"

#define US 1000ull

static uint64_t write4k(struct rl_target *t, struct rl_exec *ex, uint64_t off)
{
	uint8_t buf[4096] = {0};
	uint64_t t0 = rl_exec_now(ex);

	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, sizeof(buf), buf, 0), 0);
	return rl_exec_now(ex) - t0;
}

/* Latencies of: a 4 KiB write into a written unit, one right after it, one after a gap. */
struct lats {
	uint64_t first, next, gap;
};

static struct lats three_writes(const char *spec)
{
	struct rl_target *t = sl_open(spec);
	struct rl_exec *ex;
	struct lats l;

	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	/* whole units first, then let everything settle */
	for (uint64_t off = 0; off < (1 << 20); off += 4096)
		write4k(t, ex, off);
	/* more than the DRAM buffer holds, so those units are read from the flash */
	uint8_t *big = calloc(1, 1 << 20);
	assert_non_null(big);
	for (uint64_t off = 1 << 20; off < (97ull << 20); off += 1 << 20)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, 1 << 20, big, 0), 0);
	free(big);
	sl_idle(ex, 2000000000ull);
	l.first = write4k(t, ex, (40ull << 20) + 4096);
	l.next = write4k(t, ex, (50ull << 20) + 4096);
	sl_idle(ex, 5000 * US);
	l.gap = write4k(t, ex, (60ull << 20) + 4096);
	print_message("%s: first %.1f us, next %.1f us, after a gap %.1f us\n", spec, l.first / 1e3,
	              l.next / 1e3, l.gap / 1e3);
	rl_target_close(t);
	rl_exec_destroy(ex);
	return l;
}

#define BASE "ssd(ocz-vertex-120, blocks=256, merge_after=off, cmd_write_time=30us"

static void test_write_after(void **state)
{
	struct lats off = three_writes(BASE ", write_after=0)");
	struct lats on = three_writes(BASE ", write_after=1ms)");

	(void)state;
	/* the acknowledgement does not wait for the work after it */
	assert_true(on.first <= off.first + 1 * US);
	/* the next command waits for it: about 1 ms more */
	assert_true(on.next >= off.next + 500 * US);
	/* a 5 ms gap absorbs it */
	assert_true(on.gap <= off.gap + 1 * US);
}

/* Random 4 KiB writes at QD1 into data written whole: mean latency and time per write. */
static void rmw_writes(const char *spec, double *lat_us, double *per_us)
{
	struct rl_target *t = sl_open(spec);
	struct rl_exec *ex;
	struct sl_load l = {0};

	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	l.t = t, l.ex = ex, l.op = RL_OP_WRITE, l.bs = 1 << 20, l.qd = 4, l.len = 1ull << 30;
	l.count = 1024, l.seed = 3;
	assert_int_equal(sl_run(&l), 0);
	sl_idle(ex, 2000000000ull);
	memset(&l, 0, sizeof(l));
	l.t = t, l.ex = ex, l.op = RL_OP_WRITE, l.random = true, l.bs = 4096, l.qd = 1;
	l.len = 1ull << 30, l.count = 2000, l.seed = 7;
	assert_int_equal(sl_run(&l), 0);
	assert_int_equal(l.errors, 0);
	*lat_us = (double)l.lat_sum / (double)l.done / 1e3;
	*per_us = (double)(l.t1 - l.t0) / (double)l.done / 1e3;
	print_message("%s: latency %.1f us, %.1f us per write\n", spec, *lat_us, *per_us);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

#define VX "ssd(ocz-vertex-120"

static void test_merge_after(void **state)
{
	double lat[4], per[4];

	(void)state;
	rmw_writes(VX ", merge_after=off)", &lat[0], &per[0]);
	rmw_writes(VX ", merge_after=on)", &lat[1], &per[1]);
	rmw_writes("raid0(" VX ", merge_after=off) x2, chunk=128k)", &lat[2], &per[2]);
	rmw_writes("raid0(" VX ", merge_after=on) x2, chunk=128k)", &lat[3], &per[3]);
	/* one drive at QD1: the next write waits for the merge, the rate barely moves */
	assert_true(per[1] > 0.9 * per[0]);
	/* two: a member merges while the other takes the next write */
	assert_true(per[3] < 0.9 * per[2]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_write_after),
	    cmocka_unit_test(test_merge_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
