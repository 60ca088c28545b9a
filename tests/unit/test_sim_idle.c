/*
 * test_sim_idle.c - idle-time background work (slc.c) helps and never hurts.
 *
 * A drive that sat idle folds its SLC cache and collects garbage in the gap
 * (lazily, at the next command).  That work must stay inside the gap: the
 * command that ends it finds the flash free, a victim the gap was too short
 * to finish is not billed to the host writes that follow (they would pay
 * native-speed relocation for a fold nobody needs yet), and the writes after
 * an idle period are at least as fast as without it.
 *
 * The drive is the full-size SX8200 Pro, fresh (cheap to create): 1 GiB is
 * written into its dynamic SLC cache, folding it takes about 4 s of idle
 * time, so shorter gaps leave a fold half done.
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

#include "core/sync.h"
#include "sim/sim.h"
#include "test_sim_load.h"

#define REGION (1ull << 30)
#define MS     1000000ull

static struct sim_dev *model_of(struct rl_target *t)
{
	return *(struct sim_dev **)t->priv;
}

static struct rl_exec *new_exec(void)
{
	struct rl_exec *ex;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	return ex;
}

/* Sequential 1 MiB requests at QD8 over the first REGION bytes. */
static void seq(struct rl_target *t, struct rl_exec *ex, struct sl_load *l, int op, uint64_t count)
{
	l->t = t;
	l->ex = ex;
	l->op = op;
	l->bs = 1 << 20;
	l->qd = 8;
	l->len = REGION;
	l->count = count;
	l->seed = 5;
	assert_int_equal(sl_run(l), 0);
	assert_int_equal(l->errors, 0);
}

/* Latency of one 4 KiB read at @off (QD1). */
static uint64_t probe_read(struct rl_target *t, struct rl_exec *ex, uint64_t off)
{
	uint8_t buf[4096];
	uint64_t t0 = rl_exec_now(ex);

	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, sizeof(buf), buf, 0), 0);
	return rl_exec_now(ex) - t0;
}

struct result {
	double mbps, wa, relocated, folds;
	uint64_t probe_ns; /* the read that ended the idle gap */
};

/*
 * Fill REGION, stay idle for @idle_ns, read 4 KiB (the command that ends the
 * gap: the idle work is done there), then overwrite REGION three times.
 * Counters cover the overwrite only.
 */
static struct result fill_idle_write(const char *spec, uint64_t idle_ns)
{
	struct rl_target *t = sl_open(spec);
	struct rl_exec *ex = new_exec();
	struct sl_load f = {0}, w = {0};
	struct result r;
	char msg[256];

	assert_non_null(t);
	seq(t, ex, &f, RL_OP_WRITE, REGION >> 20);
	if (idle_ns)
		sl_idle(ex, idle_ns);
	/* the last data written: still in the open SLC block, never folded */
	r.probe_ns = probe_read(t, ex, REGION - 4096);
	r.folds = sl_report_num(t, "slc.folds");
	sim_dev_reset_counters(model_of(t));
	seq(t, ex, &w, RL_OP_WRITE, 3 * (REGION >> 20));
	r.mbps = sl_mbps(&w);
	r.wa = sl_report_num(t, "write_amplification");
	r.relocated = sl_report_num(t, "gc.relocated_units");
	print_message("  %-28s idle %6.3f s: folds %2.0f, probe read %6.2f us, then %6.1f MB/s, "
	              "WA %.4f, relocated %.0f units\n",
	              spec, idle_ns / 1e9, r.folds, r.probe_ns / 1e3, r.mbps, r.wa, r.relocated);
	assert_int_equal(sim_ftl_check(model_of(t), msg, sizeof(msg)), 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
	return r;
}

/*
 * Idle periods of every length, from one that fits a few relocation steps
 * to one that folds the whole cache: the writes afterwards are at least as
 * fast as with no idle period and as on a drive without idle work (idle=0),
 * the read that ends the gap is as fast as on that drive, and the host pays
 * for no relocation.
 */
static void test_idle_then_write(void **state)
{
	static const uint64_t gaps[] = {12 * MS, 20 * MS, 500 * MS, 2000 * MS, 5000 * MS};
	struct result base = fill_idle_write("ssd(sx8200pro)", 0);

	(void)state;
	assert_true(base.relocated == 0);
	for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
		struct result r = fill_idle_write("ssd(sx8200pro)", gaps[i]);
		struct result off = fill_idle_write("ssd(sx8200pro, idle=0)", gaps[i]);

		assert_true(r.folds > 0);
		assert_true(off.folds == 0);
		/* the work stayed in the gap: the flash is free for the next command */
		assert_true(r.probe_ns <= off.probe_ns);
		/* and what the gap could not finish is not billed to the host */
		assert_true(r.relocated == 0);
		assert_true(r.wa < 1.0001);
		assert_true(r.mbps >= base.mbps);
		assert_true(r.mbps >= off.mbps);
	}
}

/*
 * A long idle period folds the whole cache (the oldest fill data sits in a
 * native block afterwards) and frees the SLC blocks, with the pool at least
 * as large as before.
 */
static void test_idle_folds_all(void **state)
{
	struct rl_target *t = sl_open("ssd(sx8200pro)");
	struct rl_exec *ex = new_exec();
	struct sl_load f = {0};
	struct sim_dev *d;
	uint32_t free_before;

	(void)state;
	assert_non_null(t);
	d = model_of(t);
	seq(t, ex, &f, RL_OP_WRITE, REGION >> 20);
	free_before = d->free_main.n;
	sl_idle(ex, 30000 * MS);
	probe_read(t, ex, 0);
	print_message("  after 30 s idle: %u SLC blocks, free %u (was %u), victim %s\n",
	              d->n_slc_blocks, d->free_main.n, free_before,
	              d->gc_victim == SIM_NONE ? "none" : "open");
	assert_int_equal(d->slc_fifo.n, 0);
	assert_true(d->gc_victim == SIM_NONE);
	assert_true(d->free_main.n >= free_before);
	assert_false(d->blk[sim_phys_blk(d, sim_l2p(d, 0))].slc);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_idle_then_write),
	    cmocka_unit_test(test_idle_folds_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
