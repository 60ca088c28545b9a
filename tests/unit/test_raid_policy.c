/*
 * test_raid_policy.c - how arrays choose copies to read and order their
 * member writes, on mem members behind fixed delays (virtual time):
 *
 *   - read=md (the default): a sequential stream stays on the member it
 *     is on, so a mirror gains nothing for one sequential reader;
 *   - read=per-request: a large read takes one copy per mirror set (one
 *     command per member), concurrent requests spread over the copies;
 *   - read=least-pending spreads the pieces of one request;
 *   - writes=serial: a request is written member by member (raid0: one
 *     member's chunks after the other's), writes=parallel all at once.
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

#define M "delay(mem(size=16m), lat=1ms)"

/* Member @i's read (or write) count from the array's report. */
static int64_t member_count(struct rl_target *t, unsigned i, const char *what)
{
	struct json_object *rep = rl_target_report(t), *arr, *m, *v;
	int64_t n;

	assert_true(json_object_object_get_ex(rep, "members", &arr));
	m = json_object_array_get_idx(arr, i);
	assert_non_null(m);
	assert_true(json_object_object_get_ex(m, what, &v));
	n = json_object_get_int64(v);
	json_object_put(rep);
	return n;
}

/* @n sequential reads of @bs at QD1; returns the members' read counts in @reads. */
static void seq_reads(const char *spec, unsigned n, uint32_t bs, unsigned nm, int64_t *reads)
{
	struct rl_target *t = ut_open(spec);
	struct rl_exec *ex;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, (uint64_t)i * bs, bs, NULL, 0), 0);
	for (unsigned i = 0; i < nm; i++)
		reads[i] = member_count(t, i, "reads");
	rl_exec_destroy(ex);
	rl_target_close(t);
}

static void test_md_sequential(void **state)
{
	int64_t r[2];

	(void)state;
	seq_reads("raid1(" M " x2)", 16, 65536, 2, r);
	print_message("raid1 md policy, 16 sequential reads: member reads %lld / %lld\n",
	              (long long)r[0], (long long)r[1]);
	assert_true((r[0] == 16 && r[1] == 0) || (r[0] == 0 && r[1] == 16));
}

static void test_per_request(void **state)
{
	int64_t pr[4], lp[4];

	(void)state;
	/* one 1 MiB read over raid10 n2 x4, 64k chunks: 8 pieces per mirror pair */
	seq_reads("raid10(" M " x4, chunk=64k, read=per-request)", 1, 1 << 20, 4, pr);
	seq_reads("raid10(" M " x4, chunk=64k, read=least-pending)", 1, 1 << 20, 4, lp);
	print_message("1 MiB read, member reads: per-request %lld %lld %lld %lld, least-pending "
	              "%lld %lld %lld %lld\n",
	              (long long)pr[0], (long long)pr[1], (long long)pr[2], (long long)pr[3],
	              (long long)lp[0], (long long)lp[1], (long long)lp[2], (long long)lp[3]);
	/* per-request: each pair's 8 pieces on one member of the pair */
	assert_int_equal(pr[0] + pr[1], 8);
	assert_int_equal(pr[2] + pr[3], 8);
	assert_true(pr[0] == 0 || pr[1] == 0);
	assert_true(pr[2] == 0 || pr[3] == 0);
	/* least-pending: every member takes some */
	for (int i = 0; i < 4; i++)
		assert_true(lp[i] > 0);
}

/* Time of one 1 MiB write on @spec (ns). */
static uint64_t write_time(const char *spec)
{
	struct rl_target *t = ut_open(spec);
	struct rl_exec *ex;
	uint64_t t0, dt;

	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 1 << 20, NULL, 0), 0);
	dt = rl_exec_now(ex) - t0;
	for (unsigned i = 0; i < t->nchildren; i++)
		assert_int_equal(member_count(t, i, "writes"), 1); /* one piece per member */
	rl_exec_destroy(ex);
	rl_target_close(t);
	return dt;
}

static void test_serial_writes(void **state)
{
	uint64_t par, ser, m_par, m_ser;

	(void)state;
	par = write_time("raid0(" M " x4, chunk=256k)");
	ser = write_time("raid0(" M " x4, chunk=256k, writes=serial)");
	m_par = write_time("raid1(" M " x2)");
	m_ser = write_time("raid1(" M " x2, writes=serial)");
	print_message("1 MiB write: raid0 x4 parallel %.2f ms, serial %.2f ms; raid1 x2 parallel "
	              "%.2f ms, serial %.2f ms\n",
	              par / 1e6, ser / 1e6, m_par / 1e6, m_ser / 1e6);
	/* one member at a time: four delays instead of one, two for a mirror */
	assert_true(par >= 1000000 && par < 1100000);
	assert_true(ser >= 4000000 && ser < 4400000);
	assert_true(m_par >= 1000000 && m_par < 1100000);
	assert_true(m_ser >= 2000000 && m_ser < 2200000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_md_sequential),
	    cmocka_unit_test(test_per_request),
	    cmocka_unit_test(test_serial_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
