/*
 * asssd.c - AS SSD Benchmark: Seq, 4K, 4K-64Thrd, access times and the score.
 *
 * AS SSD is closed freeware; the definition comes from secondary sources
 * (docs/sources.md#asssd: alibabacloud's description, ssd-tester.com,
 * ssd-ratgeber.de):
 *   - Seq: a 1 GB test file written, then read, in 16 MB blocks;
 *   - 4K: random 4 KiB at queue depth 1 over the 1 GB test area, writes and
 *     reads, until the area has been covered;
 *   - 4K-64Thrd: 64 threads, each on its own 16 MB file (64 x 16 MB = 1 GB),
 *     random 4 KiB; here each thread gets its own 1/64 of the test area
 *     (the engine's offset_increment);
 *   - Acc.time: random 4 KiB reads over the whole drive ("full stroke") and
 *     random 512 B writes inside the 1 GB area, one at a time; the result is
 *     the mean latency in ms.  These run for --duration per pass.
 *   - incompressible data; every figure is the mean of the passes.
 * Order: each test writes and then reads (the test file is generated before
 * it is read), tests in the order of the window.
 *
 * Score (ssd-tester.com/text_score.php, checked against a published MX500
 * result): Read = 0.1 SeqR + 4KR + 4K64R; Write = 0.1 SeqW + 4KW + 4K64W;
 * Total = 0.1 SeqR + 0.15 SeqW + 2 4KR + 4KW + 1.5 4K64R + 4K64W, all in
 * MB/s; access times are not scored.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "suites/suite.h"

#define ASSSD_MIB (1u << 20)

static const struct suite_test asssd_tests[] = {
    {.name = "Seq",
     .pattern = SUITE_SEQ,
     .bs = 16 * ASSSD_MIB,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_RW},
    {.name = "4K",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_RW},
    {.name = "4K-64Thrd",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .iodepth = 1,
     .threads = 64,
     .dirs = SUITE_DIR_RW,
     .own_region = true},
    {.name = "Acc.time",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .write_bs = 512,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .read_whole_span = true,
     .timed = true},
};

#define ASSSD_NTESTS (sizeof(asssd_tests) / sizeof(asssd_tests[0]))

void suite_asssd_score(const struct suite_asssd_input *in, struct suite_asssd_score *out)
{
	out->read = 0.1 * in->seq_read + in->k4_read + in->k4_64_read;
	out->write = 0.1 * in->seq_write + in->k4_write + in->k4_64_write;
	out->total = 0.1 * in->seq_read + 0.15 * in->seq_write + 2 * in->k4_read + in->k4_write +
	             1.5 * in->k4_64_read + in->k4_64_write;
}

static int asssd_dir(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                     struct json_object *obj, struct suite_figure *agg)
{
	const char *key = dir == SUITE_READ ? "read" : "write";
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, test, dir, &job);
	r->cur_test = test->name;
	r->cur_phase = key;
	rc = suite_measure(r, &job, SUITE_VIEW(dir), 0, r->p.passes, SUITE_AGG_MEAN, job.bs, NULL,
	                   NULL, &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	*agg = m.agg[dir];
	struct json_object *d = suite_meas_json(&m, dir);
	if (test->timed) /* the access time test: AS SSD shows the mean latency in ms */
		json_object_object_add(d, "access_time_ms",
		                       json_object_new_double(agg->lat_mean_us / 1e3));
	json_object_object_add(obj, key, d);
	return 0;
}

static int asssd_run(struct suite_run *r)
{
	struct suite_figure agg[ASSSD_NTESTS][2] = {0};
	int rc = 0;

	if (r->area < asssd_tests[0].bs) {
		snprintf(r->msg, sizeof(r->msg),
		         "asssd needs a test area of at least one 16 MiB Seq block; got %llu bytes",
		         (unsigned long long)r->area);
		return -EINVAL;
	}
	for (size_t i = 0; !rc && i < ASSSD_NTESTS; i++) {
		const struct suite_test *t = &asssd_tests[i];
		struct json_object *obj = suite_test_json(r, t);
		json_object_array_add(r->tests, obj);
		if (i)
			suite_pause(r);
		rc = asssd_dir(r, t, SUITE_WRITE, obj, &agg[i][SUITE_WRITE]);
		if (!rc)
			rc = asssd_dir(r, t, SUITE_READ, obj, &agg[i][SUITE_READ]);
		if (!rc && t->timed)
			json_object_object_add(
			    obj, "access_time_ms",
			    json_object_new_double(agg[i][SUITE_READ].lat_mean_us / 1e3));
	}
	if (rc)
		return rc;
	struct suite_asssd_input in = {
	    .seq_read = agg[0][SUITE_READ].mb_s,
	    .seq_write = agg[0][SUITE_WRITE].mb_s,
	    .k4_read = agg[1][SUITE_READ].mb_s,
	    .k4_write = agg[1][SUITE_WRITE].mb_s,
	    .k4_64_read = agg[2][SUITE_READ].mb_s,
	    .k4_64_write = agg[2][SUITE_WRITE].mb_s,
	};
	struct suite_asssd_score sc;
	suite_asssd_score(&in, &sc);
	struct json_object *s = json_object_new_object();
	json_object_object_add(s, "read", json_object_new_double(sc.read));
	json_object_object_add(s, "write", json_object_new_double(sc.write));
	json_object_object_add(s, "total", json_object_new_double(sc.total));
	json_object_object_add(r->doc, "scores", s);
	return 0;
}

static struct suite_def asssd_def = {
    .name = "asssd",
    .title = "AS SSD Benchmark",
    .summary = "AS SSD: Seq (16 MiB blocks), 4K QD1, 4K-64Thrd, access times, and its score; "
               "mean of passes",
    .aggregate = SUITE_AGG_MEAN,
    .tests = asssd_tests,
    .ntests = ASSSD_NTESTS,
    .defaults = {.size = 1024ull * ASSSD_MIB,
                 .passes = 3,
                 .duration_ns = 5000000000ull,
                 .interval_ns = 0},
    .options = SUITE_OPT_SIZE | SUITE_OPT_PASSES | SUITE_OPT_DURATION | SUITE_OPT_INTERVAL,
    .run = asssd_run,
};
SUITE_REGISTER(asssd_def)
