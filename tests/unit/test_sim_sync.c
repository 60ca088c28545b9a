/*
 * test_sim_sync.c - the drive's sync path: FUA writes and flushes wait for
 * a journal commit (sync_commit + sync_io per request), and commits are
 * shared by the requests that arrive while one is forming (group commit).
 *
 *   - a lone FUA write costs a whole commit, a plain write none;
 *   - a flush costs a commit too;
 *   - 32 FUA writes issued together share commits: their rate is many
 *     times the rate of one at a time;
 *   - a profile without sync parameters keeps FUA at the program time.
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

#define EVO "ssd(samsung-850evo-500, sync_commit=3ms, sync_io=100us)"

/* Time of one synchronous request on a fresh virtual executor (ns). */
static uint64_t one(struct rl_target *t, struct rl_exec *ex, enum rl_op op, uint64_t off,
                    uint8_t flags)
{
	uint64_t t0 = rl_exec_now(ex);

	assert_int_equal(rl_io_sync(t, ex, op, off, op == RL_OP_FLUSH ? 0 : 4096, NULL, flags), 0);
	return rl_exec_now(ex) - t0;
}

static void test_lone_requests(void **state)
{
	struct rl_target *t = ut_open(EVO);
	struct rl_exec *ex;
	uint64_t plain, fua, flush;

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	plain = one(t, ex, RL_OP_WRITE, 0, 0);
	fua = one(t, ex, RL_OP_WRITE, 1 << 20, RL_IO_FUA);
	flush = one(t, ex, RL_OP_FLUSH, 0, 0);
	print_message("4 KiB write %.1f us, FUA write %.1f us, flush %.1f us\n", plain / 1e3,
	              fua / 1e3, flush / 1e3);
	assert_true(plain < 100000);                      /* acknowledged from the buffer */
	assert_true(fua >= 3100000 && fua < 4000000);     /* program + 3 ms commit + 100 us */
	assert_true(flush >= 3100000 && flush < 4000000); /* a commit, with nothing to program */
	rl_exec_destroy(ex);
	rl_target_close(t);
}

struct batch {
	unsigned done;
	uint64_t last;
};

static void batch_cb(struct rl_io *io, int status)
{
	struct batch *b = io->cb_arg;

	assert_int_equal(status, 0);
	b->done++;
	b->last = rl_exec_now(io->ex);
}

/* @n FUA writes issued together: when the last completes (ns after the start). */
static uint64_t together(const char *spec, unsigned n)
{
	struct rl_target *t = ut_open(spec);
	struct rl_exec *ex;
	struct rl_io *ios = calloc(n, sizeof(*ios));
	struct batch b = {0};
	uint64_t t0;

	assert_non_null(ios);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	t0 = rl_exec_now(ex);
	for (unsigned i = 0; i < n; i++) {
		ios[i].op = RL_OP_WRITE;
		ios[i].flags = RL_IO_FUA;
		ios[i].offset = (uint64_t)i * 8 * 4096;
		ios[i].len = 4096;
		ios[i].ex = ex;
		ios[i].cb = batch_cb;
		ios[i].cb_arg = &b;
		rl_target_submit(t, &ios[i]);
	}
	while (b.done < n)
		assert_true(rl_exec_run_once(ex, true) >= 0);
	rl_exec_destroy(ex);
	rl_target_close(t);
	free(ios);
	return b.last - t0;
}

static void test_group_commit(void **state)
{
	uint64_t t1, t32, nosync;

	(void)state;
	t1 = together(EVO, 1);
	t32 = together(EVO, 32);
	nosync = together("ssd(samsung-850evo-500, sync_commit=0, sync_io=0)", 32);
	print_message("FUA writes: 1 in %.2f ms, 32 together in %.2f ms (%.1fx the rate); without "
	              "sync costs 32 in %.2f ms\n",
	              t1 / 1e6, t32 / 1e6, 32.0 * t1 / t32, nosync / 1e6);
	/* one commit for the group, plus 100 us per member: far from 32 commits */
	assert_true(t32 < 3 * t1);
	assert_true(32.0 * t1 / t32 > 10.0);
	/* without the journal commit FUA costs only the programs */
	assert_true(nosync < t1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lone_requests),
	    cmocka_unit_test(test_group_commit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
