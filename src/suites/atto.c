/*
 * atto.c - ATTO Disk Benchmark: sequential throughput over a sweep of
 * transfer sizes.
 *
 * ATTO is closed freeware; the definition comes from reviewers' settings
 * (docs/sources.md#atto): transfer sizes from 0.5 KB upward to
 * 8 MB or 64 MB, a 256 MB total length, queue depth 4 (hardware-journal.de;
 * Tom's Hardware used QD 6 for one review), direct overlapped I/O, highly
 * compressible data.  raidlab sweeps every power of two from 512 B to
 * 64 MiB (narrowed with --min-bs / --max-bs), and for each size writes the
 * whole test area sequentially and then reads it back, once, at --qd
 * outstanding I/Os.  Written blocks are zeros (fully compressible, like
 * ATTO's pattern).  Sizes larger than the test area, or smaller than the
 * target's logical block, are left out of the result.
 */
#include <json-c/json.h>

#include "suites/suite.h"

#define ATTO_TEST(n, b)                                                                            \
	{                                                                                          \
		.name = n, .pattern = SUITE_SEQ, .bs = b, .iodepth = 0, .threads = 1,              \
		.dirs = SUITE_DIR_RW, .timed = false                                               \
	}

/* iodepth 0: the --qd parameter (default 4). */
static const struct suite_test atto_tests[] = {
    ATTO_TEST("512B", 512u),       ATTO_TEST("1K", 1u << 10),     ATTO_TEST("2K", 2u << 10),
    ATTO_TEST("4K", 4u << 10),     ATTO_TEST("8K", 8u << 10),     ATTO_TEST("16K", 16u << 10),
    ATTO_TEST("32K", 32u << 10),   ATTO_TEST("64K", 64u << 10),   ATTO_TEST("128K", 128u << 10),
    ATTO_TEST("256K", 256u << 10), ATTO_TEST("512K", 512u << 10), ATTO_TEST("1M", 1u << 20),
    ATTO_TEST("2M", 2u << 20),     ATTO_TEST("4M", 4u << 20),     ATTO_TEST("8M", 8u << 20),
    ATTO_TEST("16M", 16u << 20),   ATTO_TEST("32M", 32u << 20),   ATTO_TEST("64M", 64u << 20),
};

static int atto_dir(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                    struct json_object *obj)
{
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, test, dir, &job);
	job.zero_buffers = true;
	r->cur_test = test->name;
	r->cur_phase = dir == SUITE_READ ? "read" : "write";
	rc = suite_measure(r, &job, SUITE_VIEW(dir), 0, 1, SUITE_AGG_SINGLE, test->bs, NULL, NULL,
	                   &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	json_object_object_add(obj, dir == SUITE_READ ? "read" : "write", suite_meas_json(&m, dir));
	return 0;
}

/* Is transfer size @t in the run's range (--min-bs..--max-bs, the area, the block)? */
static bool atto_in_range(const struct suite_run *r, const struct suite_test *t)
{
	return t->bs >= r->p.min_bs && t->bs <= r->p.max_bs && t->bs <= r->area &&
	       t->bs >= r->align;
}

/* A write and a read of each size in range. */
static unsigned atto_steps(const struct suite_run *r)
{
	unsigned n = 0;

	for (size_t i = 0; i < sizeof(atto_tests) / sizeof(atto_tests[0]); i++)
		n += atto_in_range(r, &atto_tests[i]) ? 2 : 0;
	return n;
}

static int atto_run(struct suite_run *r)
{
	bool first = true;
	int rc = 0;

	for (size_t i = 0; !rc && i < sizeof(atto_tests) / sizeof(atto_tests[0]); i++) {
		const struct suite_test *t = &atto_tests[i];
		if (!atto_in_range(r, t))
			continue;
		struct json_object *obj = suite_test_json(r, t);
		json_object_array_add(r->tests, obj);
		if (!first)
			suite_pause(r);
		first = false;
		rc = atto_dir(r, t, SUITE_WRITE, obj);
		if (!rc)
			rc = atto_dir(r, t, SUITE_READ, obj);
	}
	return rc;
}

static struct suite_def atto_def = {
    .name = "atto",
    .title = "ATTO Disk Benchmark (transfer-size sweep)",
    .summary = "ATTO: sequential write and read per transfer size, 512B to 64M, 256 MiB, QD4",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = atto_tests,
    .ntests = sizeof(atto_tests) / sizeof(atto_tests[0]),
    .defaults = {.size = 256ull << 20,
                 .passes = 1,
                 .iodepth = 4,
                 .min_bs = 512,
                 .max_bs = 64u << 20,
                 .interval_ns = 0},
    .options = SUITE_OPT_SIZE | SUITE_OPT_BS_RANGE | SUITE_OPT_QD | SUITE_OPT_INTERVAL,
    .steps = atto_steps,
    .run = atto_run,
};
SUITE_REGISTER(atto_def)
