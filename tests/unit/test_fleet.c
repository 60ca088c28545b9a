/*
 * test_fleet.c - the parts of a fleet run that need no other rank
 * (suites/fleet.c): $rank, $nranks and $host in arguments and specs, and
 * --offset-per-rank.  Running over ranks is tests/integration/mpi_fleet.sh.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "suites/fleet.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct fleet fleet_of(int rank, int size, const char *host)
{
	struct fleet f;

	memset(&f, 0, sizeof(f));
	f.rank = rank;
	f.size = size;
	snprintf(f.host, sizeof(f.host), "%s", host);
	return f;
}

static void test_subst(void **state)
{
	(void)state;
	struct fleet f = fleet_of(3, 8, "node7");
	char out[64];

	assert_int_equal(fleet_subst(&f, "file(/scratch/rl.$rank, size=4g)", out, sizeof(out)), 0);
	assert_string_equal(out, "file(/scratch/rl.3, size=4g)");
	assert_int_equal(fleet_subst(&f, "$host.${rank}of$nranks", out, sizeof(out)), 0);
	assert_string_equal(out, "node7.3of8");
	/* braces join a name to what follows; without them a longer word is not a name */
	assert_int_equal(fleet_subst(&f, "${rank}g $ranks $hostname $", out, sizeof(out)), 0);
	assert_string_equal(out, "3g $ranks $hostname $");
	/* fio's own $jobname and $jobnum are left to the job options */
	assert_int_equal(fleet_subst(&f, "$jobname.$jobnum.$rank", out, sizeof(out)), 0);
	assert_string_equal(out, "$jobname.$jobnum.3");
	assert_int_equal(fleet_subst(&f, "rl.$host", out, 8), -ENAMETOOLONG);
	assert_int_equal(fleet_subst(&f, "rl.$host", out, 9), 0);
	assert_string_equal(out, "rl.node7");
}

static void test_offsets(void **state)
{
	(void)state;
	struct fleet f = fleet_of(2, 4, "h");
	struct wl_job jobs[2];
	char msg[256];

	wl_job_init(&jobs[0]);
	wl_job_init(&jobs[1]);
	jobs[1].offset = 4096;
	f.offset_per_rank = 1 << 20;
	assert_int_equal(fleet_offsets(&f, jobs, 2, msg, sizeof(msg)), 0);
	assert_int_equal(jobs[0].offset, 2 << 20);
	assert_int_equal(jobs[1].offset, (2 << 20) + 4096);
	jobs[0].offset_pct = 10;
	assert_int_equal(fleet_offsets(&f, jobs, 1, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--offset-per-rank"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_subst),
	    cmocka_unit_test(test_offsets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
