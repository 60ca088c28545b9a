/*
 * passmark.c - PassMark PerformanceTest's disk tests and advanced disk
 * workers, block level on a test area, as the reviews run them.
 *
 * Standard tests (harddrivebenchmark.net, PassMark's own description): a
 * test file (200 MB), uncached asynchronous I/O with a queue of 20, 16 KB
 * per operation, each test at least 20 s:
 *   - Sequential Read, Sequential Write: the file front to back, again and
 *     again for the duration;
 *   - Random Seek + RW: seek to a random position, read or write 16 KB,
 *     repeat.  The read/write split is not published; raidlab uses 50 %
 *     [est].
 * Advanced workers (the presets of the Advanced Disk Test):
 *   - Database: 2 KB, 90 % read, 10 % sequential, asynchronous QD 128;
 *   - File Server: 16 KB, 80 % read, 100 % random, asynchronous QD 128;
 *   - Workstation: 16 KB, 70 % read, 20 % sequential, synchronous (QD 1).
 * Partly sequential workers use the composite pass of iometer.c
 * (suite_partial_random_pass).  A 2 KB block on a 4Kn device becomes 4 KB
 * (suite_job_build clamps to the block size).  Each test reports read,
 * write and, for mixes, the total.
 */
#include <json-c/json.h>

#include "suites/suite.h"

static const struct suite_test passmark_tests[] = {
    {.name = "Sequential Read",
     .pattern = SUITE_SEQ,
     .bs = 16384,
     .iodepth = 20,
     .threads = 1,
     .dirs = SUITE_DIR_READ,
     .timed = true},
    {.name = "Sequential Write",
     .pattern = SUITE_SEQ,
     .bs = 16384,
     .iodepth = 20,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE,
     .timed = true},
    {.name = "Random Seek + RW",
     .pattern = SUITE_MIXED,
     .bs = 16384,
     .iodepth = 20,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 50,
     .random_pct = 100,
     .timed = true},
    {.name = "Database",
     .pattern = SUITE_MIXED,
     .bs = 2048,
     .iodepth = 128,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 90,
     .random_pct = 90,
     .timed = true},
    {.name = "File Server",
     .pattern = SUITE_MIXED,
     .bs = 16384,
     .iodepth = 128,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 80,
     .random_pct = 100,
     .timed = true},
    {.name = "Workstation",
     .pattern = SUITE_MIXED,
     .bs = 16384,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 70,
     .random_pct = 80,
     .timed = true},
};

#define PASSMARK_NTESTS (sizeof(passmark_tests) / sizeof(passmark_tests[0]))

static int passmark_run(struct suite_run *r)
{
	return suite_run_each_test(r, passmark_tests, PASSMARK_NTESTS);
}

static struct suite_def passmark_def = {
    .name = "passmark",
    .title = "PassMark PerformanceTest disk tests and advanced workers",
    .summary = "Sequential Read/Write and Random Seek + RW (16 KB, QD 20), workers Database, "
               "File Server, Workstation",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = passmark_tests,
    .ntests = PASSMARK_NTESTS,
    .defaults = {.size = 200ull << 20, .passes = 1, .warmup = 0, .duration_ns = 20000000000ull},
    .options = SUITE_OPT_SIZE | SUITE_OPT_DURATION | SUITE_OPT_WARMUP | SUITE_OPT_INTERVAL,
    .run = passmark_run,
};
SUITE_REGISTER(passmark_def)
