/*
 * test_disk_util.c - fio's "Disk stats" for a device built on others (md,
 * dm): the members come after it, and its line ends with their means and
 * the busiest member's util, in the normal, terse and JSON forms.
 *
 * No md or dm device can be made on every machine, so the scan reads a
 * tree of this test's own: block/md0/slaves/{sda,sdb} and two diskstats
 * files (before and after), laid out as the kernel's.  The figures are
 * chosen so that fio's integer means (7/2 = 3) and the maximum of the
 * members' utils differ from any sum or first member.
 *
 * The report is the latest 250 ms reading, as fio's helper thread takes
 * them: what happens after it is not counted, util is over the time to it,
 * and the sampler thread does take readings and stops when told.
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/exec.h"
#include "results/disk_util.h"

static char root[64];
static char before[128], after[128], sys[96];

/* "MAJ MIN NAME" then eleven counters: rios rmerge rsect rticks wios wmerge
   wsect wticks inflight ioticks queue */
static void write_stats(const char *path, const char *lines)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(lines, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[192];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/rl-du-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(sys, sizeof(sys), "%s/sys", root);
	const char *dirs[] = {"sys",
	                      "sys/block",
	                      "sys/block/md0",
	                      "sys/block/md0/slaves",
	                      "sys/block/md0/slaves/sda",
	                      "sys/block/md0/slaves/sdb"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(before, sizeof(before), "%s/diskstats.0", root);
	snprintf(after, sizeof(after), "%s/diskstats.1", root);
	write_stats(before, "   9       0 md0 100 0 800 0 50 0 400 0 0 0 0 0 0 0 0\n"
	                    "   8       0 sda 10 1 80 5 20 2 160 6 0 7 9 0 0 0 0\n"
	                    "   8      16 sdb 10 1 80 5 20 2 160 6 0 7 9 0 0 0 0\n");
	/* md0 +200 reads; sda +3 reads, +4 writes, util 250/1000; sdb +4, +5, util 400/1000 */
	write_stats(after, "   9       0 md0 300 0 2400 0 50 0 400 0 0 0 0 0 0 0 0\n"
	                   "   8       0 sda 13 2 104 15 24 3 192 16 0 257 29 0 0 0 0\n"
	                   "   8      16 sdb 14 4 112 25 25 5 200 26 0 407 49 0 0 0 0\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void scan(struct st_disk_util *u)
{
	memset(u, 0, sizeof(*u));
	st_disk_util_add_disk(u, sys, before, "md0");
	st_disk_util_end_at(u, after, 1000.0);
}

static void test_members_follow(void **state)
{
	struct st_disk_util u;

	(void)state;
	scan(&u);
	assert_int_equal(u.n, 3);
	assert_string_equal(u.dev[0].name, "md0");
	assert_int_equal(u.dev[0].nslaves, 2);
	/* readdir's order is the file system's: both members, each once */
	assert_true((!strcmp(u.dev[1].name, "sda") && !strcmp(u.dev[2].name, "sdb")) ||
	            (!strcmp(u.dev[1].name, "sdb") && !strcmp(u.dev[2].name, "sda")));
	assert_int_equal(u.dev[1].master, 0);
	assert_int_equal(u.dev[2].master, 0);
	assert_int_equal(u.dev[0].delta[ST_DS_RIOS], 200);
	/* adding md0 again adds nothing */
	st_disk_util_add_disk(&u, sys, before, "md0");
	assert_int_equal(u.n, 3);
}

static void test_json_aggr(void **state)
{
	struct st_disk_util u;
	struct json_object *arr, *md, *v;

	(void)state;
	scan(&u);
	arr = st_disk_util_json(&u);
	assert_int_equal(json_object_array_length(arr), 3);
	md = json_object_array_get_idx(arr, 0);
	/* means with fio's integer division: reads (3+4)/2, writes (4+5)/2 ... */
	const struct {
		const char *key;
		int64_t want;
	} want[] = {{"aggr_read_ios", 3},    {"aggr_write_ios", 4},   {"aggr_read_merges", 2},
	            {"aggr_write_merge", 2}, {"aggr_read_ticks", 15}, {"aggr_write_ticks", 15},
	            {"aggr_in_queue", 30}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(json_object_object_get_ex(md, want[i].key, &v));
		assert_int_equal(json_object_get_int64(v), want[i].want);
	}
	/* ... and the busiest member's util, not a mean */
	assert_true(json_object_object_get_ex(md, "aggr_util", &v));
	assert_true(json_object_get_double(v) > 39.9 && json_object_get_double(v) < 40.1);
	/* members carry no aggregate of their own */
	assert_false(json_object_object_get_ex(json_object_array_get_idx(arr, 1), "aggr_util", &v));
	json_object_put(arr);
}

static void test_normal_and_terse(void **state)
{
	struct st_disk_util u;
	char buf[2048] = "";
	FILE *f;

	(void)state;
	scan(&u);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	st_disk_util_normal(f, &u);
	fclose(f);
	assert_non_null(strstr(buf, "\n    md0: ios=200/0, merge=0/0, ticks=0/0, in_queue=0, "
	                            "util=0.00%, aggrios=3/4, aggrmerge=2/2, aggrticks=15/15, "
	                            "aggrin_queue=30, aggrutil=40.00%\n"));
	assert_non_null(strstr(buf, "\n  sda: ios=3/4, merge=1/1, ticks=10/10, in_queue=20, "
	                            "util=25.00%\n"));
	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	st_disk_util_terse(f, &u);
	fclose(f);
	assert_non_null(strstr(buf, ";md0;200;0;0;0;0;0;0;0.00%;slaves;3;4;2;2;15;15;30;40.00%;"));
}

/* The report is the latest reading: later counters are not seen, util is over its time. */
static void test_last_tick(void **state)
{
	struct st_disk_util u;

	(void)state;
	memset(&u, 0, sizeof(u));
	st_disk_util_add_disk(&u, sys, before, "md0");
	st_disk_util_tick(&u, after, 500.0);
	/* another reading would see more: the jobs ended before it, so none is taken */
	st_disk_util_end(&u);
	assert_int_equal(u.dev[0].delta[ST_DS_RIOS], 200);
	for (size_t i = 1; i < 3; i++)
		if (!strcmp(u.dev[i].name, "sda"))
			assert_true(u.dev[i].util > 49.9 &&
			            u.dev[i].util < 50.1); /* 250 ms of 500 */
	/* no reading at all (a run shorter than a tick): zeros */
	memset(&u, 0, sizeof(u));
	st_disk_util_add_disk(&u, sys, before, "md0");
	st_disk_util_end_at(&u, after, 249.0);
	assert_int_equal(u.dev[0].delta[ST_DS_RIOS], 0);
	assert_true(u.dev[1].util == 0);
}

/* The sampler thread takes readings on its own and stops when asked. */
static void test_sampler(void **state)
{
	struct st_disk_util u;

	(void)state;
	memset(&u, 0, sizeof(u));
	st_disk_util_add_disk(&u, sys, before, "md0");
	u.t0_ns = 1; /* long ago: its first tick is due at once */
	assert_int_equal(st_disk_util_sample_start(&u), 0);
	assert_non_null(u.sampler);
	for (int i = 0; i < 10000; i++) { /* up to 10 s on a loaded machine */
		st_disk_util_end(&u);
		if (u.ticks)
			break;
		usleep(1000);
	}
	st_disk_util_sample_stop(&u);
	assert_null(u.sampler);
	assert_true(u.ticks >= 1);
	assert_true(u.tick_ms >= 250.0);
	/* a sampled run with no reading reports zeros, however late the report */
	memset(&u, 0, sizeof(u));
	st_disk_util_add_disk(&u, sys, before, "md0");
	u.t0_ns = rl_exec_wall_now() + 60000000000ull; /* its first tick a minute away */
	assert_int_equal(st_disk_util_sample_start(&u), 0);
	st_disk_util_sample_stop(&u);
	u.t0_ns = 1; /* the report comes long after the start */
	st_disk_util_end(&u);
	assert_int_equal(u.ticks, 0);
	for (size_t i = 0; i < u.n; i++)
		assert_int_equal(u.dev[i].delta[ST_DS_RIOS], 0);
	/* nothing to sample: no thread */
	memset(&u, 0, sizeof(u));
	assert_int_equal(st_disk_util_sample_start(&u), 0);
	assert_null(u.sampler);
	st_disk_util_sample_stop(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_members_follow),   cmocka_unit_test(test_json_aggr),
	    cmocka_unit_test(test_normal_and_terse), cmocka_unit_test(test_last_tick),
	    cmocka_unit_test(test_sampler),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
