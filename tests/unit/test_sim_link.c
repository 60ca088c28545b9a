/*
 * test_sim_link.c - link(target, bw=, lat=, iops=): a shared path in front
 * of a target, on the virtual executor (simulated drives) and on a real one.
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

#include <math.h>
#include <time.h>

#include "core/sync.h"
#include "test_sim_load.h"

#define SX "ssd(sx8200pro, pages=144, blocks=128, state=full)"

static void load(struct rl_target *t, struct rl_exec *ex, struct sl_load *l, int op, bool random,
                 uint32_t bs, uint32_t qd, uint64_t count)
{
	l->t = t;
	l->ex = ex;
	l->op = op;
	l->random = random;
	l->bs = bs;
	l->qd = qd;
	l->len = t->size / bs * bs;
	l->count = count;
	l->seed = 17;
	assert_int_equal(sl_run(l), 0);
	assert_int_equal(l->errors, 0);
}

static struct rl_exec *vexec(void)
{
	struct rl_exec *ex;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	return ex;
}

/* Bandwidth caps both directions; the stack stays a simulated one. */
static void test_link_bandwidth(void **state)
{
	/* full drive for reads, an empty one for writes (into its SLC cache, 1.2 GB/s) */
	struct rl_target *t = sl_open("link(" SX ", bw=1GB/s)");
	struct rl_target *e = sl_open("link(ssd(sx8200pro, pages=144, blocks=128), bw=1GB/s)");
	struct rl_exec *ex = vexec();
	struct sl_load r = {0}, w = {0};

	(void)state;
	assert_non_null(t);
	assert_non_null(e);
	assert_true(rl_target_leaf_caps(t) & RL_CAP_VIRTUAL);
	load(t, ex, &r, RL_OP_READ, false, 1 << 20, 32, 1000);
	load(e, ex, &w, RL_OP_WRITE, false, 1 << 20, 32, 500);
	print_message("  behind 1 GB/s: read %.1f MB/s, write %.1f MB/s\n", sl_mbps(&r),
	              sl_mbps(&w));
	assert_true(sl_mbps(&r) <= 1000.5 && sl_mbps(&r) > 970);
	assert_true(sl_mbps(&w) <= 1000.5 && sl_mbps(&w) > 900);
	assert_true(sl_report_num(t, "requests") == 1000);
	rl_target_close(t);
	rl_target_close(e);
	rl_exec_destroy(ex);
}

/* Added latency shows at QD1; a command rate caps IOPS. */
static void test_link_latency_iops(void **state)
{
	struct rl_target *a = sl_open(SX), *b = sl_open("link(" SX ", lat=20us)");
	struct rl_target *c = sl_open("link(" SX ", iops=20000)");
	struct rl_exec *ex = vexec();
	struct sl_load la = {0}, lb = {0}, lc = {0};

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	load(a, ex, &la, RL_OP_READ, true, 4096, 1, 2000);
	load(b, ex, &lb, RL_OP_READ, true, 4096, 1, 2000);
	load(c, ex, &lc, RL_OP_READ, true, 4096, 32, 20000);
	print_message("  QD1 %.2f us -> %.2f us with lat=20us; QD32 %.0f IOPS with iops=20000\n",
	              sl_lat_us(&la), sl_lat_us(&lb), sl_iops(&lc));
	assert_true(fabs(sl_lat_us(&lb) - sl_lat_us(&la) - 20) < 0.01);
	assert_true(sl_iops(&lc) <= 20000 * 1.001 && sl_iops(&lc) > 19000);
	rl_target_close(a);
	rl_target_close(b);
	rl_target_close(c);
	rl_exec_destroy(ex);
}

/* A chipset uplink over an array: the members would give 3 x 3.5 GB/s. */
static void test_link_uplink_raid0(void **state)
{
	struct rl_target *t;
	struct rl_exec *ex;
	struct sl_load r = {0};

	(void)state;
	if (!rl_target_type_find("raid0")) {
		print_message("  raid0 not built: skipped\n");
		return;
	}
	t = sl_open("link(raid0(" SX " x3, chunk=128k), bw=3.93GB/s)");
	assert_non_null(t);
	ex = vexec();
	load(t, ex, &r, RL_OP_READ, false, 1 << 20, 32, 3000);
	print_message("  raid0 of 3 behind DMI 3.0: %.1f MB/s\n", sl_mbps(&r));
	assert_true(sl_mbps(&r) <= 3930.5 && sl_mbps(&r) > 3800);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* Data goes through untouched. */
static void test_link_data(void **state)
{
	struct rl_target *t = sl_open("link(ssd(sx8200pro, pages=144, blocks=128, data=on), "
	                              "bw=2GB/s, duplex=half, lat=1us)");
	struct rl_exec *ex = vexec();
	uint8_t w[65536], r[65536];

	(void)state;
	assert_non_null(t);
	assert_true(t->caps & RL_CAP_DATA);
	for (size_t i = 0; i < sizeof(w); i++)
		w[i] = (uint8_t)(i * 7 + 3);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 1 << 20, sizeof(w), w, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 1 << 20, sizeof(r), r, 0), 0);
	assert_memory_equal(w, r, sizeof(w));
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 0, 1 << 20, NULL, 0), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* On a real executor the link waits on the wall clock. */
static void test_link_real_time(void **state)
{
	struct rl_target *t = sl_open("link(mem(size=16m), bw=100MB/s, lat=1ms)");
	struct rl_exec *ex;
	struct sl_load w = {0};
	struct timespec a, b;

	(void)state;
	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, 64, 0, &ex), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	load(t, ex, &w, RL_OP_WRITE, false, 64 << 10, 4, 64); /* 4 MiB: >= 42 ms */
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	print_message("  4 MiB through 100 MB/s in %.1f ms of wall time\n", s * 1e3);
	assert_true(s > 0.041);
	assert_true(s < 2.0);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void test_link_errors(void **state)
{
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err = {0};

	(void)state;
	rl_build_ctx_init(&ctx);
	assert_int_not_equal(rl_target_open("link(bw=1GB/s)", &ctx, &t, &err), 0);
	assert_non_null(strstr(err.msg, "exactly one target"));
	assert_int_not_equal(rl_target_open("link(mem, speed=1)", &ctx, &t, &err), 0);
	assert_non_null(strstr(err.msg, "speed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_link_bandwidth),    cmocka_unit_test(test_link_latency_iops),
	    cmocka_unit_test(test_link_uplink_raid0), cmocka_unit_test(test_link_data),
	    cmocka_unit_test(test_link_real_time),    cmocka_unit_test(test_link_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
