/*
 * test_sim_perf.c - the ssd model reproduces what drives do: interface
 * caps, queue-depth scaling, QD1 latency, the SLC-cache cliff and the GC
 * collapse of sustained random writes.
 *
 * Drives are the real profiles scaled down where the phenomenon allows
 * (fewer blocks, shorter blocks: timing per operation is unchanged), so a
 * test runs in a fraction of a second.  Expected values are computed from
 * the profile's own parameters, so a tuned profile does not break them.
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

#include "test_sim_load.h"

/* sx8200pro with 72 MiB superblocks, 9 GiB raw: same dies, channels, timing */
#define SX_SMALL "ssd(sx8200pro, pages=144, blocks=128"

static struct rl_exec *new_exec(void)
{
	struct rl_exec *ex;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	return ex;
}

static void run_load(struct rl_target *t, struct rl_exec *ex, struct sl_load *l, int op,
                     bool random, uint32_t bs, uint32_t qd, uint64_t count)
{
	l->t = t;
	l->ex = ex;
	l->op = op;
	l->random = random;
	l->bs = bs;
	l->qd = qd;
	if (!l->len)
		l->len = t->size / bs * bs;
	l->count = count;
	if (!l->seed)
		l->seed = 5;
	assert_int_equal(sl_run(l), 0);
	assert_int_equal(l->errors, 0);
}

/* A SATA drive never exceeds its link, reading or writing. */
static void test_sata_link_cap(void **state)
{
	struct rl_target *t =
	    sl_open("ssd(samsung-850evo-500, pages=32, blocks=256, slc_size=256m, "
	            "state=full)");
	struct rl_exec *ex = new_exec();
	struct sl_load r = {0}, w = {0};
	double link;

	(void)state;
	assert_non_null(t);
	link = sl_report_num(t, "utilisation.elapsed_ns") * 0 + 600e6 * 0.92 / 1e6; /* MB/s */
	run_load(t, ex, &r, RL_OP_READ, false, 1 << 20, 32, 2000);
	run_load(t, ex, &w, RL_OP_WRITE, false, 128 << 10, 32, 8000);
	print_message("  850 EVO: seq read %.1f MB/s, seq write %.1f MB/s, link %.1f MB/s\n",
	              sl_mbps(&r), sl_mbps(&w), link);
	assert_true(sl_mbps(&r) <= link * 1.001);
	assert_true(sl_mbps(&r) > 0.97 * link);
	assert_true(sl_mbps(&w) <= link * 1.001);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* NVMe sequential reads approach the rated figure (link-bound on the SX8200 Pro). */
static void test_nvme_seq_read(void **state)
{
	struct rl_target *t = sl_open(SX_SMALL ", state=full)");
	struct rl_exec *ex = new_exec();
	struct sl_load r = {0};

	(void)state;
	assert_non_null(t);
	run_load(t, ex, &r, RL_OP_READ, false, 1 << 20, 32, 3000);
	print_message("  SX8200 Pro: seq read %.1f MB/s (rated 3500)\n", sl_mbps(&r));
	assert_true(sl_mbps(&r) > 0.97 * 3500);
	assert_true(sl_mbps(&r) < 3500 * 1.01);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* QD1 latency is the NAND read time plus the path's overheads, nothing more. */
static void test_qd1_latency(void **state)
{
	struct rl_target *t = sl_open(SX_SMALL ", state=full)");
	struct rl_exec *ex = new_exec();
	struct sl_load r = {0};
	/* sx8200pro-256: cmd 3 us, tR 74 us, 4 KiB over 667 MB/s, over 3.5 GB/s, latency 8 us */
	double link = 984.6e6 * 4 * 0.89;
	double want = 3 + 74 + 4096 / 667e6 * 1e6 + 4096 / link * 1e6 + 8;

	(void)state;
	assert_non_null(t);
	run_load(t, ex, &r, RL_OP_READ, true, 4096, 1, 5000);
	print_message("  QD1 4K read: %.2f us (expected %.2f), min %.2f max %.2f\n", sl_lat_us(&r),
	              want, r.lat_min / 1e3, r.lat_max / 1e3);
	assert_true(fabs(sl_lat_us(&r) - want) < 0.01 * want);
	assert_true(fabs(r.lat_max / 1e3 - want) < 0.01 * want);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* Random 4K reads scale with queue depth up to the number of dies, then saturate. */
static void test_qd_scaling(void **state)
{
	static const uint32_t qds[] = {1, 2, 4, 8, 16, 32, 64};
	struct rl_target *t = sl_open(SX_SMALL ", state=full)");
	struct rl_exec *ex = new_exec();
	double iops[7], die_bound = 8 / 74e-6;

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < 7; i++) {
		struct sl_load r = {0};
		run_load(t, ex, &r, RL_OP_READ, true, 4096, qds[i], 20000);
		iops[i] = sl_iops(&r);
		print_message("  QD%-2u %8.0f IOPS\n", qds[i], iops[i]);
	}
	assert_true(iops[1] > 1.8 * iops[0]);
	assert_true(iops[2] > 3.2 * iops[0]);
	for (int i = 1; i < 7; i++)
		assert_true(iops[i] > iops[i - 1]);
	/* 8 dies: the die bound caps it, and QD64 is nearly there */
	assert_true(iops[6] <= die_bound);
	assert_true(iops[6] > 0.9 * die_bound);
	assert_true(iops[6] < 1.1 * iops[5]);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* Throughput of each window of completions. */
static double window_mbps(const struct sl_load *l, size_t i, uint64_t bytes)
{
	uint64_t t0 = i ? l->win_t[i - 1] : l->t0;

	return (double)bytes * 1e3 / (double)(l->win_t[i] - t0);
}

/*
 * A long sequential write on the SLC-cached drive: SLC speed until the cache
 * is full, then the native TLC rate (8 dies x 64 KiB per 1.9 ms = 276 MB/s).
 * After an idle minute the cache has been folded and is fast again.
 */
static void test_slc_cliff(void **state)
{
	struct rl_target *t = sl_open(SX_SMALL ")");
	struct rl_exec *ex = new_exec();
	struct sl_load w = {.win = 64}, w2 = {.win = 64};
	double tlc = 8 * 65536 / 1.9e-3 / 1e6, slc_bytes, first, last;

	(void)state;
	assert_non_null(t);
	slc_bytes = sl_report_num(t, "slc.limit_bytes");
	w.len = 4ull << 30;
	run_load(t, ex, &w, RL_OP_WRITE, false, 1 << 20, 32, 3000);
	first = window_mbps(&w, 1, 64 << 20);
	last = window_mbps(&w, w.nwin - 1, 64 << 20);
	print_message("  cache %.0f MB; first window %.0f MB/s, last %.0f MB/s (TLC %.0f)\n",
	              slc_bytes / 1e6, first, last, tlc);
	for (size_t i = 0; i < w.nwin; i += 4)
		print_message("    %5zu MiB %7.0f MB/s\n", (i + 1) * 64,
		              window_mbps(&w, i, 64 << 20));
	assert_true(first > 3 * last);
	assert_true(fabs(last - tlc) < 0.05 * tlc);
	/* the cliff is where the cache ends */
	double hit = sl_report_num(t, "slc.hit_bytes");
	assert_true(fabs(hit - slc_bytes) < 0.05 * slc_bytes);
	for (size_t i = 0; i < w.nwin; i++) {
		double at = (double)(i + 1) * (64 << 20);
		double mbps = window_mbps(&w, i, 64 << 20);
		if (at < 0.8 * slc_bytes)
			assert_true(mbps > 2 * tlc);
		if (at > 1.2 * slc_bytes)
			assert_true(mbps < 1.1 * tlc);
	}
	/* idle: the cache is folded into TLC and comes back */
	sl_idle(ex, 60ull * 1000000000);
	w2.off = 4ull << 30;
	w2.len = 512 << 20;
	run_load(t, ex, &w2, RL_OP_WRITE, false, 1 << 20, 32, 512);
	print_message("  after 60 s idle: %.0f MB/s, folded %.0f MB\n",
	              window_mbps(&w2, 1, 64 << 20), sl_report_num(t, "slc.folded_bytes") / 1e6);
	assert_true(window_mbps(&w2, 1, 64 << 20) > 3 * tlc);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(w.win_t);
	free(w2.win_t);
}

/*
 * Sustained 4K random writes on a full drive: fast while the buffer and the
 * free blocks last, then GC starts and throughput collapses to what the
 * flash can do divided by the write amplification.
 */
static void test_gc_collapse(void **state)
{
	struct rl_target *t = sl_open("ssd(sx8200pro, pages=36, blocks=128, slc=off, state=full)");
	struct rl_exec *ex = new_exec();
	struct sl_load w = {.win = 4096};
	double first, last, wa, tlc = 8 * 65536 / 1.9e-3 / 1e6;

	(void)state;
	assert_non_null(t);
	double U = sl_report_num(t, "ftl.user_units");
	run_load(t, ex, &w, RL_OP_WRITE, true, 4096, 32, (uint64_t)(1.5 * U));
	first = window_mbps(&w, 0, 4096 * 4096);
	last = window_mbps(&w, w.nwin - 1, 4096 * 4096);
	wa = sl_report_num(t, "write_amplification");
	print_message("  random 4K QD32: first %.1f MB/s, last %.1f MB/s, WA %.2f, victims %.0f\n",
	              first, last, wa, sl_report_num(t, "gc.victims"));
	assert_true(sl_report_num(t, "gc.victims") > 0);
	assert_true(last < 0.3 * first);
	/* steady throughput is the flash rate over the write amplification of the last part */
	assert_true(last < tlc / 2);
	assert_true(wa > 2);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(w.win_t);
}

/*
 * Static SLC (TurboWrite) on an 850 EVO with 16 dies, i.e. the 250 GB model:
 * SATA speed while the buffer lasts, then the TLC rate PCPer measured
 * (~300 MB/s: 16 dies x 32 KiB per 1.75 ms).
 */
static void test_static_slc(void **state)
{
	struct rl_target *t = sl_open("ssd(samsung-850evo-500, dies=2, pages=64, blocks=256, "
	                              "slc_size=512m)");
	struct rl_exec *ex = new_exec();
	struct sl_load w = {.win = 64};
	double tlc = 16 * 32768 / 1.75e-3 / 1e6;

	(void)state;
	assert_non_null(t);
	w.len = 2ull << 30;
	run_load(t, ex, &w, RL_OP_WRITE, false, 1 << 20, 32, 2048);
	double first = window_mbps(&w, 1, 64 << 20), last = window_mbps(&w, w.nwin - 1, 64 << 20);
	print_message("  TurboWrite 512 MB: %.0f MB/s, then %.0f MB/s (TLC %.0f)\n", first, last,
	              tlc);
	assert_true(first > 540);
	assert_true(fabs(last - tlc) < 0.05 * tlc);
	assert_true(fabs(sl_report_num(t, "slc.hit_bytes") - 512e6 * 1.048576) < 0.1 * 512e6);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(w.win_t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sata_link_cap), cmocka_unit_test(test_nvme_seq_read),
	    cmocka_unit_test(test_qd1_latency),   cmocka_unit_test(test_qd_scaling),
	    cmocka_unit_test(test_slc_cliff),     cmocka_unit_test(test_gc_collapse),
	    cmocka_unit_test(test_static_slc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
