/*
 * cdm.c - CrystalDiskMark: the default test sets of versions 6, 7 and 8 and
 * the NVMe SSD preset of 8 (suites cdm5, cdm6, cdm7, cdm, cdm-nvme).
 *
 * The four are one family that differs only in its table of tests, so they
 * share one run function.  What CrystalDiskMark does (docs/sources.md#cdm,
 * from hiyohiyo/CrystalDiskMark DiskBench.cpp and
 * DiskMarkDlg.cpp, and the CDM 6.0.0 source):
 *   - it creates a test file of the chosen size (default 1 GiB; 1000 MiB in
 *     CDM 6) and fills it before the first test (suite_prepare);
 *   - each test runs a discarded "Preparing" pass, then N measured passes
 *     (default 5), each time-based (DiskSpd -d, default 5 s) over the file;
 *   - it reports the best MB/s of the N (decimal, 10^6 bytes/s) and the
 *     lowest mean latency; IOPS is derived from the MB/s and the block size;
 *   - order: every read test, then every write test, then (optional) the
 *     R70/W30 mix of each test; a pause between tests (CDM's default 5 s,
 *     raidlab's default 0, --interval=5 to match).
 * Random tests are uniform over the whole test area; threads (T16, T8) all
 * work over the same area with their own random sequences, as DiskSpd
 * threads share the test file.
 */
#include <errno.h>
#include <json-c/json.h>

#include "suites/suite.h"

#define CDM_KIB       1024u
#define CDM_MIB       (1024u * 1024u)
#define CDM_MAX_TESTS 9 /* CDM's own arrays hold 9 slots */

#define CDM_TEST(n, pat, b, q, t)                                                                  \
	{                                                                                          \
		.name = n, .pattern = pat, .bs = b, .iodepth = q, .threads = t,                    \
		.dirs = SUITE_DIR_RW, .timed = true                                                \
	}

/* CDM 8 default (DiskMarkDlg.cpp 8.0.6, slots 0-3). */
static const struct suite_test cdm8_tests[] = {
    CDM_TEST("SEQ1M Q8T1", SUITE_SEQ, CDM_MIB, 8, 1),
    CDM_TEST("SEQ1M Q1T1", SUITE_SEQ, CDM_MIB, 1, 1),
    CDM_TEST("RND4K Q32T1", SUITE_RAND, 4 * CDM_KIB, 32, 1),
    CDM_TEST("RND4K Q1T1", SUITE_RAND, 4 * CDM_KIB, 1, 1),
};

/* CDM 8 "NVMe SSD" preset (DiskMarkDlg.cpp 8.0.6 l.1240-1243). */
static const struct suite_test cdm8_nvme_tests[] = {
    CDM_TEST("SEQ1M Q8T1", SUITE_SEQ, CDM_MIB, 8, 1),
    CDM_TEST("SEQ128K Q32T1", SUITE_SEQ, 128 * CDM_KIB, 32, 1),
    CDM_TEST("RND4K Q32T16", SUITE_RAND, 4 * CDM_KIB, 32, 16),
    CDM_TEST("RND4K Q1T1", SUITE_RAND, 4 * CDM_KIB, 1, 1),
};

/* CDM 7.0.0 default (commit 8dbfdeb). */
static const struct suite_test cdm7_tests[] = {
    CDM_TEST("SEQ1M Q8T1", SUITE_SEQ, CDM_MIB, 8, 1),
    CDM_TEST("SEQ1M Q1T1", SUITE_SEQ, CDM_MIB, 1, 1),
    CDM_TEST("RND4K Q32T16", SUITE_RAND, 4 * CDM_KIB, 32, 16),
    CDM_TEST("RND4K Q1T1", SUITE_RAND, 4 * CDM_KIB, 1, 1),
};

/*
 * CDM 5.x default ("1024 MiB (x5) [Interval=5 sec]"): Seq Q32T1 (128 KiB,
 * QD32), 4KiB Q32T1, Seq (1 MiB, QD1), 4KiB Q1T1.  CDM 5.1 drives DiskSpd
 * with -b128K -o32 / -b4K -o32 -r / -b1M -o1 / -b4K -o1 -r, each -d5.
 */
static const struct suite_test cdm5_tests[] = {
    CDM_TEST("Seq Q32T1", SUITE_SEQ, 128 * CDM_KIB, 32, 1),
    CDM_TEST("4K Q32T1", SUITE_RAND, 4 * CDM_KIB, 32, 1),
    CDM_TEST("Seq", SUITE_SEQ, CDM_MIB, 1, 1),
    CDM_TEST("4K Q1T1", SUITE_RAND, 4 * CDM_KIB, 1, 1),
};

/* CDM 6.0.0 (DiskBench.cpp l.458-520): "Seq Q32T1" is 128 KiB sequential. */
static const struct suite_test cdm6_tests[] = {
    CDM_TEST("Seq Q32T1", SUITE_SEQ, 128 * CDM_KIB, 32, 1),
    CDM_TEST("4KiB Q8T8", SUITE_RAND, 4 * CDM_KIB, 8, 8),
    CDM_TEST("4KiB Q32T1", SUITE_RAND, 4 * CDM_KIB, 32, 1),
    CDM_TEST("4KiB Q1T1", SUITE_RAND, 4 * CDM_KIB, 1, 1),
};

static int cdm_measure(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                       struct json_object *obj)
{
	static const char *const keys[] = {"read", "write", "mix"};
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, test, dir, &job);
	r->cur_test = test->name;
	r->cur_phase = keys[dir];
	rc = suite_measure(r, &job, SUITE_VIEW(dir), r->p.warmup, r->p.passes, SUITE_AGG_BEST,
	                   test->bs, NULL, NULL, &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	struct json_object *d = suite_meas_json(&m, dir);
	if (dir == SUITE_MIX)
		json_object_object_add(d, "rwmixread", json_object_new_int64(r->p.mix_read));
	json_object_object_add(obj, keys[dir], d);
	return 0;
}

static int cdm_run(struct suite_run *r)
{
	const struct suite_def *def = r->def;
	struct json_object *objs[CDM_MAX_TESTS];
	bool first = true;
	int rc;

	if (def->ntests > CDM_MAX_TESTS)
		return -EINVAL;
	for (size_t i = 0; i < def->ntests; i++) {
		objs[i] = suite_test_json(r, &def->tests[i]);
		json_object_array_add(r->tests, objs[i]);
	}
	rc = suite_prepare(r);
	for (int dir = SUITE_READ; !rc && dir <= SUITE_WRITE; dir++) {
		for (size_t i = 0; !rc && i < def->ntests; i++) {
			if (!first)
				suite_pause(r);
			first = false;
			rc = cdm_measure(r, &def->tests[i], (enum suite_dir)dir, objs[i]);
		}
	}
	for (size_t i = 0; !rc && r->p.mix && i < def->ntests; i++) {
		suite_pause(r);
		rc = cdm_measure(r, &def->tests[i], SUITE_MIX, objs[i]);
	}
	return rc;
}

/* Every test read and written, and mixed with --mix. */
static unsigned cdm_steps(const struct suite_run *r)
{
	return (unsigned)r->def->ntests * (r->p.mix ? 3 : 2);
}

#define CDM_OPTIONS                                                                                \
	(SUITE_OPT_SIZE | SUITE_OPT_PASSES | SUITE_OPT_WARMUP | SUITE_OPT_DURATION |               \
	 SUITE_OPT_INTERVAL | SUITE_OPT_MIX)

#define CDM_DEFAULTS(sz)                                                                           \
	{                                                                                          \
		.size = (sz), .passes = 5, .warmup = 1, .duration_ns = 5000000000ull,              \
		.interval_ns = 0, .mix = false, .mix_read = 70                                     \
	}

static struct suite_def cdm_def = {
    .name = "cdm",
    .title = "CrystalDiskMark 8 (default)",
    .summary = "CrystalDiskMark 8: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; best of 5",
    .aggregate = SUITE_AGG_BEST,
    .tests = cdm8_tests,
    .ntests = sizeof(cdm8_tests) / sizeof(cdm8_tests[0]),
    .defaults = CDM_DEFAULTS(1024ull * CDM_MIB),
    .options = CDM_OPTIONS,
    .steps = cdm_steps,
    .run = cdm_run,
};
SUITE_REGISTER(cdm_def)

static struct suite_def cdm_nvme_def = {
    .name = "cdm-nvme",
    .title = "CrystalDiskMark 8 (NVMe SSD preset)",
    .summary = "CrystalDiskMark 8 NVMe preset: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K "
               "Q1T1",
    .aggregate = SUITE_AGG_BEST,
    .tests = cdm8_nvme_tests,
    .ntests = sizeof(cdm8_nvme_tests) / sizeof(cdm8_nvme_tests[0]),
    .defaults = CDM_DEFAULTS(1024ull * CDM_MIB),
    .options = CDM_OPTIONS,
    .steps = cdm_steps,
    .run = cdm_run,
};
SUITE_REGISTER(cdm_nvme_def)

static struct suite_def cdm7_def = {
    .name = "cdm7",
    .title = "CrystalDiskMark 7 (default)",
    .summary = "CrystalDiskMark 7: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T16, RND4K Q1T1; best of 5",
    .aggregate = SUITE_AGG_BEST,
    .tests = cdm7_tests,
    .ntests = sizeof(cdm7_tests) / sizeof(cdm7_tests[0]),
    .defaults = CDM_DEFAULTS(1024ull * CDM_MIB),
    .options = CDM_OPTIONS,
    .steps = cdm_steps,
    .run = cdm_run,
};
SUITE_REGISTER(cdm7_def)

static struct suite_def cdm6_def = {
    .name = "cdm6",
    .title = "CrystalDiskMark 6 (default)",
    .summary = "CrystalDiskMark 6: Seq Q32T1 (128 KiB), 4KiB Q8T8, 4KiB Q32T1, 4KiB Q1T1; best "
               "of 5",
    .aggregate = SUITE_AGG_BEST,
    .tests = cdm6_tests,
    .ntests = sizeof(cdm6_tests) / sizeof(cdm6_tests[0]),
    .defaults = CDM_DEFAULTS(1000ull * CDM_MIB),
    .options = CDM_OPTIONS,
    .steps = cdm_steps,
    .run = cdm_run,
};
SUITE_REGISTER(cdm6_def)

static struct suite_def cdm5_def = {
    .name = "cdm5",
    .title = "CrystalDiskMark 5 (default)",
    .summary = "CrystalDiskMark 5: Seq Q32T1 (128 KiB), 4K Q32T1, Seq (1 MiB Q1), 4K Q1T1; best "
               "of 5",
    .aggregate = SUITE_AGG_BEST,
    .tests = cdm5_tests,
    .ntests = sizeof(cdm5_tests) / sizeof(cdm5_tests[0]),
    .defaults = CDM_DEFAULTS(1024ull * CDM_MIB),
    .options = CDM_OPTIONS,
    .steps = cdm_steps,
    .run = cdm_run,
};
SUITE_REGISTER(cdm5_def)
