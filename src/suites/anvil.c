/*
 * anvil.c - Anvil's Storage Utilities, SSD benchmark (v1.1.0).
 *
 * UNVERIFIED DEFINITION.  The sources (docs/sources.md#anvil) hold no primary
 * or reliable secondary text for Anvil's tests; this suite follows the
 * commonly cited list: reads - Seq 4MB, 4K, 4K QD4, 4K QD16, 32K, 128K;
 * writes - Seq 4MB, 4K, 4K QD4, 4K QD16.  Choices made here, each
 * documented in docs/suites.md: 4K/32K/128K are random over a 1 GiB test
 * area (filled first), "Seq 4MB" is sequential at queue depth 1, queue
 * depths are io_uring depth on one thread, every test is time-based
 * (--duration, default 5 s) and runs once; reads run before writes, as the
 * window lists them.  Anvil's score formula is unverified, so no score is
 * computed.
 */
#include <json-c/json.h>

#include "suites/suite.h"

#define ANVIL_TEST(n, pat, b, q, d)                                                                \
	{                                                                                          \
		.name = n, .pattern = pat, .bs = b, .iodepth = q, .threads = 1, .dirs = d,         \
		.timed = true                                                                      \
	}

static const struct suite_test anvil_tests[] = {
    ANVIL_TEST("Seq 4MB", SUITE_SEQ, 4u << 20, 1, SUITE_DIR_RW),
    ANVIL_TEST("4K", SUITE_RAND, 4u << 10, 1, SUITE_DIR_RW),
    ANVIL_TEST("4K QD4", SUITE_RAND, 4u << 10, 4, SUITE_DIR_RW),
    ANVIL_TEST("4K QD16", SUITE_RAND, 4u << 10, 16, SUITE_DIR_RW),
    ANVIL_TEST("32K", SUITE_RAND, 32u << 10, 1, SUITE_DIR_READ),
    ANVIL_TEST("128K", SUITE_RAND, 128u << 10, 1, SUITE_DIR_READ),
};

#define ANVIL_NTESTS (sizeof(anvil_tests) / sizeof(anvil_tests[0]))

static int anvil_run(struct suite_run *r)
{
	struct json_object *objs[ANVIL_NTESTS];
	bool first = true;
	int rc;

	for (size_t i = 0; i < ANVIL_NTESTS; i++) {
		objs[i] = suite_test_json(r, &anvil_tests[i]);
		json_object_array_add(r->tests, objs[i]);
	}
	rc = suite_prepare(r);
	for (int dir = SUITE_READ; !rc && dir <= SUITE_WRITE; dir++) {
		unsigned bit = dir == SUITE_READ ? SUITE_DIR_READ : SUITE_DIR_WRITE;
		const char *key = dir == SUITE_READ ? "read" : "write";
		for (size_t i = 0; !rc && i < ANVIL_NTESTS; i++) {
			const struct suite_test *t = &anvil_tests[i];
			struct suite_meas m;
			struct wl_job job;
			if (!(t->dirs & bit))
				continue;
			if (!first)
				suite_pause(r);
			first = false;
			suite_job_build(r, t, (enum suite_dir)dir, &job);
			r->cur_test = t->name;
			r->cur_phase = key;
			rc = suite_measure(r, &job, SUITE_VIEW(dir), 0, 1, SUITE_AGG_SINGLE, t->bs,
			                   NULL, NULL, &m);
			if (rc)
				suite_meas_free(&m);
			else
				json_object_object_add(objs[i], key,
				                       suite_meas_json(&m, (enum suite_dir)dir));
		}
	}
	return rc;
}

static struct suite_def anvil_def = {
    .name = "anvil",
    .title = "Anvil's Storage Utilities (SSD benchmark; definition unverified)",
    .summary = "Anvil: Seq 4MB, 4K QD1/QD4/QD16 read and write, 32K and 128K read "
               "(unverified definition)",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = anvil_tests,
    .ntests = ANVIL_NTESTS,
    .defaults = {.size = 1ull << 30, .passes = 1, .duration_ns = 5000000000ull},
    .options = SUITE_OPT_SIZE | SUITE_OPT_DURATION | SUITE_OPT_INTERVAL,
    .run = anvil_run,
};
SUITE_REGISTER(anvil_def)
