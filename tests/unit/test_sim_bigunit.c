/*
 * test_sim_bigunit.c - a drive whose mapping unit is larger than a NAND
 * program (OCZ Vertex: 32 KiB units over 2 x 4 KiB planes) and whose
 * controller has a write data-path limit (ctrl_write_bw).
 *
 *  - A small read moves only the pages it asks for: the controller loads
 *    the page register and clocks out the columns it needs, so a 4 KiB read
 *    costs what it costs on the same drive with a unit of one program.
 *  - The write data path takes a command's data as its frames arrive, so
 *    one large write at queue depth 1 runs at the data-path rate, as deep
 *    queues of smaller writes do, not at the link and data-path times added.
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

#include "test_sim_load.h"

#define VERTEX "ssd(ocz-vertex-120, blocks=256"

static void load(struct rl_target *t, struct rl_exec *ex, struct sl_load *l, int op, bool random,
                 uint32_t bs, uint32_t qd, uint64_t len, uint64_t count)
{
	memset(l, 0, sizeof(*l));
	l->t = t;
	l->ex = ex;
	l->op = op;
	l->random = random;
	l->bs = bs;
	l->qd = qd;
	l->len = len / bs * bs;
	l->count = count;
	l->seed = 29;
	assert_int_equal(sl_run(l), 0);
	assert_int_equal(l->errors, 0);
}

static struct rl_exec *vexec(void)
{
	struct rl_exec *ex;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	return ex;
}

/* 4 KiB random reads of written data, QD1: mean latency in us. */
static double read4k_lat(const char *spec)
{
	struct rl_target *t = sl_open(spec);
	struct rl_exec *ex = vexec();
	struct sl_load w, r;
	double lat;

	assert_non_null(t);
	load(t, ex, &w, RL_OP_WRITE, false, 1 << 20, 4, 64 << 20, 64);
	sl_idle(ex, 2000000000ull);
	load(t, ex, &r, RL_OP_READ, true, 4096, 1, 64 << 20, 2000);
	lat = sl_lat_us(&r);
	rl_target_close(t);
	rl_exec_destroy(ex);
	return lat;
}

static void test_small_read_moves_its_pages(void **state)
{
	double big = read4k_lat(VERTEX ")");
	double one = read4k_lat(VERTEX ", map_unit=8k)");

	(void)state;
	print_message("  4K QD1 read: %.1f us with 32 KiB units, %.1f us with 8 KiB\n", big, one);
	assert_true(big < one * 1.05);
}

static void test_large_write_pipelines(void **state)
{
	struct rl_target *t = sl_open(VERTEX ")");
	struct rl_exec *ex = vexec();
	struct sl_load deep, big;

	(void)state;
	assert_non_null(t);
	load(t, ex, &deep, RL_OP_WRITE, false, 128 << 10, 32, 256 << 20, 1024);
	sl_idle(ex, 2000000000ull);
	load(t, ex, &big, RL_OP_WRITE, false, 16 << 20, 1, 256 << 20, 8);
	print_message("  writes: 128 KiB QD32 %.1f MB/s, 16 MiB QD1 %.1f MB/s\n", sl_mbps(&deep),
	              sl_mbps(&big));
	assert_true(sl_mbps(&big) > 0.9 * sl_mbps(&deep));
	rl_target_close(t);
	rl_exec_destroy(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_small_read_moves_its_pages),
	    cmocka_unit_test(test_large_write_pipelines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
