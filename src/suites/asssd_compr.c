/*
 * asssd_compr.c - AS SSD's compression benchmark: throughput against the
 * compressibility of the data, 0 % (random) to 100 % (fully compressible).
 *
 * AS SSD draws read and write throughput over a test file of 1 GB while the
 * data goes from incompressible to a repeated value; drives that compress
 * (SandForce) rise to the right, others stay flat.  raidlab measures 11
 * points, 0 % to 100 % in steps of 10 % [est: the tool's step count is not
 * published]: the area is cut into 11 regions, and at each point its region
 * is written sequentially in 1 MiB blocks [est] at QD 1 with
 * buffer_compress_percentage = the point (fresh buffers for every write, so
 * no block repeats another), then read back.  Each point is one test ("40 %
 * compressible") with read and write.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "suites/suite.h"

#define COMPR_POINTS 11

#define COMPR_TEST(n)                                                                              \
	{                                                                                          \
		.name = n " % compressible", .pattern = SUITE_SEQ, .bs = 1u << 20, .iodepth = 1,   \
		.threads = 1, .dirs = SUITE_DIR_RW                                                 \
	}

static const struct suite_test compr_tests[COMPR_POINTS] = {
    COMPR_TEST("0"),  COMPR_TEST("10"), COMPR_TEST("20"),  COMPR_TEST("30"),
    COMPR_TEST("40"), COMPR_TEST("50"), COMPR_TEST("60"),  COMPR_TEST("70"),
    COMPR_TEST("80"), COMPR_TEST("90"), COMPR_TEST("100"),
};

static int compr_run(struct suite_run *r)
{
	uint64_t region = r->area / COMPR_POINTS / (1u << 20) * (1u << 20);
	int rc = 0;

	if (region < (1u << 20)) {
		snprintf(r->msg, sizeof(r->msg),
		         "the test area must hold %d MiB (one block per point)", COMPR_POINTS);
		return -EINVAL;
	}
	for (unsigned i = 0; !rc && i < COMPR_POINTS; i++) {
		const struct suite_test *t = &compr_tests[i];
		struct json_object *obj = suite_test_json(r, t);
		json_object_object_add(obj, "compressible_pct", json_object_new_int((int)(i * 10)));
		json_object_array_add(r->tests, obj);
		for (int d = SUITE_WRITE; !rc && d >= SUITE_READ; d--) {
			struct suite_meas m;
			struct wl_job job;
			suite_job_build(r, t, (enum suite_dir)d, &job);
			job.offset = i * region;
			job.size = region;
			job.buffer_compress_percentage = i * 10;
			job.refill_buffers = true;
			r->cur_test = t->name;
			r->cur_phase = d == SUITE_READ ? "read" : "write";
			rc = suite_measure(r, &job, SUITE_VIEW(d), 0, 1, SUITE_AGG_SINGLE, 0, NULL,
			                   NULL, &m);
			if (rc) {
				suite_meas_free(&m);
				break;
			}
			json_object_object_add(obj, d == SUITE_READ ? "read" : "write",
			                       suite_meas_json(&m, (enum suite_dir)d));
		}
	}
	return rc;
}

static struct suite_def compr_def = {
    .name = "asssd-compr",
    .title = "AS SSD compression benchmark",
    .summary = "sequential write and read against compressibility 0-100 % (11 points)",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = compr_tests,
    .ntests = COMPR_POINTS,
    .defaults = {.size = 1024ull << 20, .passes = 1},
    .options = SUITE_OPT_SIZE,
    .run = compr_run,
};
SUITE_REGISTER(compr_def)
