/*
 * test_sim_data.c - the data stores that skip what was never written (a
 * simulated drive's, data=on, and the mem target's) and the paced
 * executor's factor change.
 *
 * A read of units the FTL holds unmapped fills the buffer with zeroes
 * instead of copying from the store, and a trim hands whole pages back to
 * the kernel; neither may change what a client reads back.  The cases mix
 * written, never-written and trimmed units inside one request, with
 * offsets that are not unit-aligned, and check every byte.
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

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"
#include "core/target.h"
#include "serve/pace.h"

#include "common.h"

#define SPEC "ssd(sm951, data=on, blocks=64, capacity=1g)"
#define SPAN (1u << 20)

static void fill(uint8_t *p, size_t n, uint64_t off)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((off + i) * 7 + 3);
}

static void test_store_mixed(void **state)
{
	struct rl_target *t = ut_open(SPEC);
	struct rl_exec *ex = NULL;
	uint8_t *want = calloc(1, SPAN), *got = malloc(SPAN), *buf = malloc(SPAN);

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);

	/* never written: zeroes (and the model must not have faulted them in) */
	memset(got, 0xaa, SPAN);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, SPAN, got, 0), 0);
	assert_memory_equal(got, want, SPAN);

	/* written pieces at odd sector offsets, with holes between them */
	static const struct {
		uint64_t off;
		uint32_t len;
	} w[] = {{512, 3584}, {8192, 20480}, {65536 + 1024, 512}, {200704, 131072}};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fill(buf, w[i].len, w[i].off);
		memcpy(want + w[i].off, buf, w[i].len);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, w[i].off, w[i].len, buf, 0), 0);
	}
	/* trim a range that starts and ends inside units: only whole units go */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 204800 + 512, 65536, NULL, 0), 0);
	uint64_t ta = (204800 + 512 + 4095) / 4096 * 4096,
	         tb = (204800 + 512 + 65536) / 4096 * 4096;
	memset(want + ta, 0, tb - ta);

	/* the whole span, and pieces that cut across mapped and unmapped units */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, SPAN, got, 0), 0);
	assert_memory_equal(got, want, SPAN);
	static const struct {
		uint64_t off;
		uint32_t len;
	} r[] = {{0, 4096}, {3584, 1024}, {7680, 24576}, {65536, 4096}, {196608, 139264}};
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		memset(got, 0x55, r[i].len);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, r[i].off, r[i].len, got, 0), 0);
		assert_memory_equal(got, want + r[i].off, r[i].len);
	}
	/* rewriting a trimmed range brings data back */
	fill(buf, 65536, ta);
	memcpy(want + ta, buf, 65536);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, ta, 65536, buf, 0), 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, SPAN, got, 0), 0);
	assert_memory_equal(got, want, SPAN);

	rl_target_close(t);
	rl_exec_destroy(ex);
	free(want);
	free(got);
	free(buf);
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &pages, &rss), 2);
	fclose(f);
	return rss * 4;
}

/*
 * Memory follows what was written: reading 64 MiB that was never written
 * adds no resident memory (it used to fault in a page per 4 KiB), and
 * trimming 32 MiB that was written gives it back.
 */
static void test_store_memory(void **state)
{
	struct rl_target *t = ut_open(SPEC);
	struct rl_exec *ex = NULL;
	uint8_t *buf = malloc(SPAN);

	(void)state;
	memset(buf, 0x11, SPAN);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	long r0 = rss_kib();
	for (uint64_t off = 256u << 20; off < (320u << 20); off += SPAN)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, SPAN, buf, 0), 0);
	long r1 = rss_kib();
	print_message("  64 MiB unwritten read: resident +%ld KiB\n", r1 - r0);
	assert_true(r1 - r0 < 8192);
	for (uint64_t off = 0; off < (32u << 20); off += SPAN)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, SPAN, buf, 0), 0);
	long r2 = rss_kib();
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 0, 32u << 20, NULL, 0), 0);
	long r3 = rss_kib();
	print_message("  32 MiB written: +%ld KiB; trimmed: -%ld KiB\n", r2 - r1, r2 - r3);
	assert_true(r2 - r1 >= 28 * 1024);
	assert_true(r2 - r3 >= 28 * 1024);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(buf);
}

/*
 * The model's tables follow what was written too: 4K reads scattered over
 * the whole of a full-size drive that was never written (465 GiB, a 466 MB
 * mapping table) must not fault the table in.  They used to: the table is
 * advised for huge pages, so every read of a new 2 MiB of it cost 2 MiB.
 */
static void test_tables_memory(void **state)
{
	struct rl_target *t = ut_open("ssd(850evo)");
	struct rl_exec *ex = NULL;
	uint8_t *buf = malloc(4096);
	uint64_t x = 88172645463325252ull, nblk;

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	nblk = t->size / 4096;
	long r0 = rss_kib();
	for (int i = 0; i < 4096; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, x % nblk * 4096, 4096, buf, 0), 0);
	}
	long r1 = rss_kib();
	print_message("  4096 scattered 4K reads of a fresh 500 GB drive: resident +%ld KiB\n",
	              r1 - r0);
	assert_true(r1 - r0 < 16384);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(buf);
}

/*
 * mem(...) reads regions never written as zeroes without touching its
 * mapping: every byte of a read that mixes written and unwritten 64 KiB
 * regions, at unaligned edges, is what was written or zero, and reading
 * 64 MiB never written adds no resident memory.
 */
static void test_mem_store(void **state)
{
	struct rl_target *t = ut_open("mem(size=128m)");
	struct rl_exec *ex = NULL;
	const uint32_t span = 1u << 20;
	uint8_t *want = calloc(1, span), *got = malloc(span), *buf = malloc(span);
	static const struct {
		uint64_t off;
		uint32_t len;
	} w[] = {{512, 1024}, {65536 - 512, 1024}, {3 * 65536, 65536}, {7 * 65536 + 4096, 200704}};

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fill(buf, w[i].len, w[i].off);
		memcpy(want + w[i].off, buf, w[i].len);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, w[i].off, w[i].len, buf, 0), 0);
	}
	memset(got, 0xaa, span);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, span, got, 0), 0);
	assert_memory_equal(got, want, span);
	memset(got, 0xaa, span);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 1536, span - 4096, got, 0), 0);
	assert_memory_equal(got, want + 1536, span - 4096);

	long r0 = rss_kib();
	for (uint64_t off = 64u << 20; off < (128u << 20); off += span)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, span, got, 0), 0);
	long r1 = rss_kib();
	print_message("  mem: 64 MiB unwritten read: resident +%ld KiB\n", r1 - r0);
	assert_true(r1 - r0 < 8192);
	rl_target_close(t);
	rl_exec_destroy(ex);
	free(want);
	free(got);
	free(buf);
}

/* A factor change neither jumps the paced clock nor sends it back. */
static void test_paced_set_slow(void **state)
{
	struct rl_exec *ex = NULL, *vx = NULL;

	(void)state;
	assert_int_equal(rl_exec_create_paced(16, 8, 5000000000ull, 1, &ex), 0);
	uint64_t a = rl_exec_now(ex);
	assert_true(a >= 5000000000ull);
	uint64_t w0 = rl_exec_wall_now();
	assert_int_equal(rl_exec_paced_set_slow(ex, 1000), 0);
	uint64_t b = rl_exec_now(ex);
	assert_true(b >= a);
	assert_int_equal(ex->pace_slow, 1000);
	/* at x1000 two wall milliseconds are two simulated microseconds */
	while (rl_exec_wall_now() - w0 < 2000000)
		;
	uint64_t c = rl_exec_now(ex), w1 = rl_exec_wall_now();
	assert_true(c >= b);
	assert_true(c - b <= (w1 - w0) / 1000 + 1);
	assert_int_equal(rl_exec_wall_span(ex, 7), 7000);
	assert_int_equal(rl_exec_paced_set_slow(ex, 0), -EINVAL);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 16, 0, &vx), 0);
	assert_int_equal(rl_exec_paced_set_slow(vx, 2), -EINVAL);
	rl_exec_destroy(vx);
	rl_exec_destroy(ex);
}

static void test_pace_steps(void **state)
{
	static const uint32_t want[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
	uint32_t s = 1;

	(void)state;
	for (size_t i = 1; i < sizeof(want) / sizeof(want[0]); i++) {
		s = serve_pace_next(s);
		assert_int_equal(s, want[i]);
	}
	assert_int_equal(serve_pace_next(5), 6);
	assert_int_equal(serve_pace_next(1000), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_store_mixed),    cmocka_unit_test(test_store_memory),
	    cmocka_unit_test(test_tables_memory),  cmocka_unit_test(test_mem_store),
	    cmocka_unit_test(test_paced_set_slow), cmocka_unit_test(test_pace_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
