/*
 * test_sim_trim.c - TRIM, spare area and recovery, the way a desktop drive
 * lives: it is filled, half of the files are deleted, then the rest is
 * rewritten at random for a long time.
 *
 * With trim=on the deletions reach the drive, the deleted half is free to
 * the FTL and acts as extra spare area: random writes stay fast.  With
 * trim=off the drive still holds the deleted data as valid, so GC copies
 * it around: throughput falls sooner and further.  More spare area (op=28%)
 * softens the fall.  Finally one sequential pass over the whole drive
 * invalidates every block in order, GC gets cheap blocks again and random
 * writes are fast at first, as on a fresh full drive.
 *
 * The drive is small (1 GiB raw, 4 dies, 4 MiB superblocks) and has no SLC
 * cache and no idle work, so only the FTL effects show.
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

#define GEOM                                                                                       \
	"channels=2, dies=2, planes=2, page=8k, pages=64, blocks=256, idle=0, gc_free=4, "         \
	"write_buffer=64k"
#define WIN 4096

struct life {
	double first, last; /* MB/s of the first and last window */
	size_t drop;        /* first window below half the first one (nwin if none) */
	double wa;
};

static double win_mbps(const struct sl_load *l, size_t i)
{
	uint64_t t0 = i ? l->win_t[i - 1] : l->t0;

	return (double)WIN * 4096 * 1e3 / (double)(l->win_t[i] - t0);
}

/* Trim [off, off+len) in 64 MiB requests. */
static void trim_range(struct rl_target *t, struct rl_exec *ex, uint64_t off, uint64_t len)
{
	struct sl_load l = {0};

	l.t = t;
	l.ex = ex;
	l.op = RL_OP_TRIM;
	l.bs = 64 << 20;
	l.qd = 4;
	l.off = off;
	l.len = len / l.bs * l.bs;
	l.count = l.len / l.bs;
	assert_int_equal(sl_run(&l), 0);
	assert_int_equal(l.errors, 0);
}

static void random_writes(struct rl_target *t, struct rl_exec *ex, uint64_t len, uint64_t count,
                          struct life *out, uint64_t seed)
{
	struct sl_load l = {.win = WIN};
	double wa0 = sl_report_num(t, "nand.bytes_written");
	double h0 = sl_report_num(t, "host.bytes_written");

	l.t = t;
	l.ex = ex;
	l.op = RL_OP_WRITE;
	l.random = true;
	l.bs = 4096;
	l.qd = 32;
	l.len = len;
	l.count = count;
	l.seed = seed;
	assert_int_equal(sl_run(&l), 0);
	assert_int_equal(l.errors, 0);
	out->first = win_mbps(&l, 0);
	out->last = win_mbps(&l, l.nwin - 1);
	out->drop = l.nwin;
	for (size_t i = 0; i < l.nwin; i++)
		if (win_mbps(&l, i) < out->first / 2) {
			out->drop = i;
			break;
		}
	out->wa = (sl_report_num(t, "nand.bytes_written") - wa0) /
	          (sl_report_num(t, "host.bytes_written") - h0);
	free(l.win_t);
}

/* Fill, delete the second half, rewrite the first half at random. */
static void desktop_life(const char *opts, struct life *out, struct rl_target **keep,
                         struct rl_exec **keep_ex)
{
	char spec[256];
	struct rl_target *t;
	struct rl_exec *ex;

	snprintf(spec, sizeof(spec), "ssd(" GEOM ", state=full, %s)", opts);
	t = sl_open(spec);
	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	uint64_t half = t->size / 2 / (64 << 20) * (64 << 20);
	trim_range(t, ex, half, t->size - half);
	random_writes(t, ex, half, 2 * (half / 4096), out, 9);
	print_message("  %-18s first %7.1f MB/s  last %6.1f MB/s  halved at window %zu  WA %.2f\n",
	              opts, out->first, out->last, out->drop, out->wa);
	if (keep) {
		*keep = t;
		*keep_ex = ex;
		return;
	}
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void test_trim_spare_recovery(void **state)
{
	struct life on, off, off_op, after;
	struct rl_target *t;
	struct rl_exec *ex;

	(void)state;
	desktop_life("trim=on, op=7%", &on, NULL, NULL);
	desktop_life("trim=off, op=28%", &off_op, NULL, NULL);
	desktop_life("trim=off, op=7%", &off, &t, &ex);

	/* without TRIM: sooner and deeper */
	assert_true(off.drop < on.drop);
	assert_true(off.last < 0.5 * on.last);
	assert_true(off.wa > 2 * on.wa);
	/* more spare area softens it */
	assert_true(off_op.last > 1.5 * off.last);
	assert_true(off_op.wa < off.wa);
	assert_true(off_op.drop >= off.drop);

	/* a sequential pass over the whole drive recovers */
	struct sl_load seq = {0};
	seq.t = t;
	seq.ex = ex;
	seq.op = RL_OP_WRITE;
	seq.bs = 128 << 10;
	seq.qd = 32;
	seq.len = t->size / seq.bs * seq.bs;
	seq.count = seq.len / seq.bs;
	assert_int_equal(sl_run(&seq), 0);
	random_writes(t, ex, t->size / 2, 8 * WIN, &after, 10);
	print_message("  after a sequential pass: %.1f MB/s (degraded %.1f MB/s)\n", after.first,
	              off.last);
	assert_true(after.first > 2 * off.last);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_trim_spare_recovery),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
