/*
 * hdtune.c - HD Tune's benchmark tab: transfer rate across the whole LBA
 * range, access time and burst rate.
 *
 * HD Tune Pro (EFD Software, closed) reads - or, on request, writes - the
 * whole drive and reports the minimum, maximum and average transfer rate,
 * the curve over position, the access time and the burst rate (docs/sources.md#hdtune,
 * secondary sources).  raidlab's version:
 *   - Transfer Rate: the span (the whole target, or the first --size bytes:
 *     HD Tune's "short stroke") is cut into --zones zones (default 100); at
 *     the start of each a sequential sample (--sample, default 8 MiB) is
 *     transferred in --block transfers (default 64 KiB) one at a time.  The
 *     curve is MB/s over position (GB); min, max and average (the mean of
 *     the curve, HD Tune's "Average") are reported.
 *   - Access Time: random 4 KiB transfers over the whole span, one at a
 *     time, for --duration; the mean latency in ms.
 *   - Burst Rate: the same --block at the start of the span transferred
 *     again and again for --duration, so it is served from the drive's (or
 *     the stack's) cache; its MB/s.
 * Then HD Tune's Random Access tab:
 *   - Random Access 512 bytes / 4 KB / 64 KB / 1 MB / Random: transfers of
 *     that size (Random: the four sizes mixed, equally likely) at random
 *     offsets over the whole span, one at a time, for --duration each; IOPS,
 *     average access time (the mean latency, ms) and MB/s;
 *   - 4 KB random read: the figure reviews quote from HD Tune, which is the
 *     4 KB row of the reads (the same measurement under its own name).
 * Reads by default.  --write runs the benchmark tab's three as writes
 * after the reads, and the Random Access writes last; it OVERWRITES the
 * span, so it needs write intent (the usual safety refusals apply).  Each
 * test runs once.  docs/suites.md gives the sources and the choices made.
 *
 * Under mpirun every rank runs each zone and each test at once; the curve
 * is then the fleet's, position by position (zones.c, suite_fleet.c), and
 * the other tests' figures are the fleet's passes (docs/mpi.md).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "suites/suite.h"

enum { HDTUNE_RATE, HDTUNE_ACCESS, HDTUNE_BURST, HDTUNE_KINDS };

/* The Random Access rows (after the benchmark tab's six tests in hdtune_tests). */
enum { HDTUNE_RA_512, HDTUNE_RA_4K, HDTUNE_RA_64K, HDTUNE_RA_1M, HDTUNE_RA_MIXED, HDTUNE_RA_ROWS };
#define HDTUNE_RA_READ  (2 * HDTUNE_KINDS)                /* first Random Access read row */
#define HDTUNE_K4_READ  (HDTUNE_RA_READ + HDTUNE_RA_ROWS) /* "4 KB random read" */
#define HDTUNE_RA_WRITE (HDTUNE_K4_READ + 1)              /* first Random Access write row */
#define HDTUNE_RA_SIZES "512/25:4k/25:64k/25:1m/25"       /* the Random row's sizes */

/* A random test at QD1 for --duration (bs, or bssplit when bs is 0). */
#define HDTUNE_RAND(label, size, split, dir)                                                       \
	{                                                                                          \
		.name = (label), .pattern = SUITE_RAND, .bs = (size), .bssplit = (split),          \
		.iodepth = 1, .threads = 1, .dirs = (dir), .timed = true                           \
	}
#define HDTUNE_RA(label, size, split, dir) HDTUNE_RAND("Random Access " label, size, split, dir)

/* bs 0: the --block parameter (default 64 KiB). */
static const struct suite_test hdtune_tests[] = {
    {.name = "Transfer Rate (read)",
     .pattern = SUITE_SEQ,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_READ},
    {.name = "Access Time (read)",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_READ,
     .timed = true},
    {.name = "Burst Rate (read)",
     .pattern = SUITE_SEQ,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_READ,
     .timed = true},
    {.name = "Transfer Rate (write)",
     .pattern = SUITE_SEQ,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE},
    {.name = "Access Time (write)",
     .pattern = SUITE_RAND,
     .bs = 4096,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE,
     .timed = true},
    {.name = "Burst Rate (write)",
     .pattern = SUITE_SEQ,
     .iodepth = 1,
     .threads = 1,
     .dirs = SUITE_DIR_WRITE,
     .timed = true},
    HDTUNE_RA("512 bytes (read)", 512, NULL, SUITE_DIR_READ),
    HDTUNE_RA("4 KB (read)", 4096, NULL, SUITE_DIR_READ),
    HDTUNE_RA("64 KB (read)", 64u << 10, NULL, SUITE_DIR_READ),
    HDTUNE_RA("1 MB (read)", 1u << 20, NULL, SUITE_DIR_READ),
    HDTUNE_RA("Random (read)", 0, HDTUNE_RA_SIZES, SUITE_DIR_READ),
    HDTUNE_RAND("4 KB random read", 4096, NULL, SUITE_DIR_READ),
    HDTUNE_RA("512 bytes (write)", 512, NULL, SUITE_DIR_WRITE),
    HDTUNE_RA("4 KB (write)", 4096, NULL, SUITE_DIR_WRITE),
    HDTUNE_RA("64 KB (write)", 64u << 10, NULL, SUITE_DIR_WRITE),
    HDTUNE_RA("1 MB (write)", 1u << 20, NULL, SUITE_DIR_WRITE),
    HDTUNE_RA("Random (write)", 0, HDTUNE_RA_SIZES, SUITE_DIR_WRITE),
};

static struct json_object *hdtune_test_json(struct suite_run *r, const struct suite_test *t)
{
	struct json_object *obj = suite_test_json(r, t);

	json_object_object_add(obj, "bs", json_object_new_int64(t->bs ? t->bs : r->p.block));
	json_object_array_add(r->tests, obj);
	return obj;
}

static int hdtune_rate(struct suite_run *r, const struct suite_test *t, enum suite_dir dir)
{
	const char *key = dir == SUITE_READ ? "read" : "write";
	struct wl_dir_result *total = malloc(sizeof(*total));
	struct suite_curve c;
	uint64_t rt;
	int rc;

	if (!total)
		return -ENOMEM;
	r->cur_test = t->name;
	r->cur_phase = "zone";
	rc = suite_zone_sweep(r, t->name, dir == SUITE_READ ? RL_OP_READ : RL_OP_WRITE, 0, r->area,
	                      r->p.zones, r->p.block, 1, r->p.sample, &c, total, &rt);
	if (rc) {
		free(total);
		return rc;
	}
	suite_sweep_json(r, hdtune_test_json(r, t), key, &c, total, rt);
	suite_curve_free(&c);
	st_series_free(&total->series);
	free(total);
	return 0;
}

/* Access time (random small transfers over the span) or burst rate (one block again and again). */
static int hdtune_timed(struct suite_run *r, const struct suite_test *t, enum suite_dir dir,
                        int kind)
{
	const char *key = dir == SUITE_READ ? "read" : "write";
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, t, dir, &job);
	if (kind == HDTUNE_BURST) {
		job.bs = r->p.block < r->align ? r->align : r->p.block;
		job.size = job.bs;
	}
	r->cur_test = t->name;
	r->cur_phase = key;
	rc =
	    suite_measure(r, &job, SUITE_VIEW(dir), 0, 1, SUITE_AGG_SINGLE, job.bs, NULL, NULL, &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	struct json_object *obj = hdtune_test_json(r, t);
	struct json_object *d = suite_meas_json(&m, dir);
	if (kind == HDTUNE_ACCESS) {
		double ms = m.agg[dir].lat_mean_us / 1e3;
		json_object_object_add(d, "access_time_ms", json_object_new_double(ms));
		json_object_object_add(obj, "access_time_ms", json_object_new_double(ms));
	} else {
		json_object_object_add(obj, "burst_mb_s", json_object_new_double(m.agg[dir].mb_s));
	}
	json_object_object_add(obj, key, d);
	return 0;
}

/*
 * One Random Access row: random transfers over the whole span at QD1 for
 * --duration.  Its direction object is returned (owned by the test object)
 * for the 4 KB random read figure.
 */
static int hdtune_ra_row(struct suite_run *r, const struct suite_test *t, enum suite_dir dir,
                         struct json_object **dir_obj)
{
	const char *key = dir == SUITE_READ ? "read" : "write";
	struct suite_meas m;
	struct wl_job job;
	int rc;

	suite_job_build(r, t, dir, &job);
	r->cur_test = t->name;
	r->cur_phase = key;
	rc = suite_measure(r, &job, SUITE_VIEW(dir), 0, 1, SUITE_AGG_SINGLE, 0, NULL, NULL, &m);
	if (rc) {
		suite_meas_free(&m);
		return rc;
	}
	struct json_object *obj = suite_test_json(r, t);
	double ms = m.agg[dir].lat_mean_us / 1e3;
	json_object_object_add(obj, "access_time_ms", json_object_new_double(ms));
	*dir_obj = suite_meas_json(&m, dir);
	json_object_object_add(obj, key, *dir_obj);
	json_object_array_add(r->tests, obj);
	return 0;
}

/* The Random Access rows of @dir; after the reads, the 4 KB random read figure. */
static int hdtune_random_access(struct suite_run *r, enum suite_dir dir)
{
	const struct suite_test *t =
	    &hdtune_tests[dir == SUITE_READ ? HDTUNE_RA_READ : HDTUNE_RA_WRITE];
	struct json_object *d, *k4 = NULL;
	int rc = 0;

	for (int i = 0; !rc && i < HDTUNE_RA_ROWS; i++) {
		rc = hdtune_ra_row(r, &t[i], dir, &d);
		if (!rc && i == HDTUNE_RA_4K)
			k4 = d;
	}
	if (rc || dir != SUITE_READ)
		return rc;
	/* The same measurement under the name reviews give it. */
	struct json_object *obj = suite_test_json(r, &hdtune_tests[HDTUNE_K4_READ]), *copy = NULL;
	if (json_object_deep_copy(k4, &copy, NULL)) {
		json_object_put(obj);
		snprintf(r->msg, sizeof(r->msg), "out of memory");
		return -ENOMEM;
	}
	json_object_object_add(obj, "same_as", json_object_new_string(t[HDTUNE_RA_4K].name));
	json_object_object_add(obj, "read", copy);
	json_object_array_add(r->tests, obj);
	return 0;
}

static int hdtune_run(struct suite_run *r)
{
	int rc = 0;

	for (int dir = SUITE_READ; !rc && dir <= SUITE_WRITE; dir++) {
		if (dir == SUITE_WRITE && !r->p.write)
			break;
		const struct suite_test *t = &hdtune_tests[dir * HDTUNE_KINDS];
		rc = hdtune_rate(r, &t[HDTUNE_RATE], (enum suite_dir)dir);
		if (!rc)
			rc = hdtune_timed(r, &t[HDTUNE_ACCESS], (enum suite_dir)dir, HDTUNE_ACCESS);
		if (!rc)
			rc = hdtune_timed(r, &t[HDTUNE_BURST], (enum suite_dir)dir, HDTUNE_BURST);
	}
	/* The Random Access tab after the benchmark tab, so its figures stay as they were. */
	if (!rc)
		rc = hdtune_random_access(r, SUITE_READ);
	if (!rc && r->p.write)
		rc = hdtune_random_access(r, SUITE_WRITE);
	return rc;
}

static bool hdtune_writes(const struct suite_params *p)
{
	return p->write;
}

static struct suite_def hdtune_def = {
    .name = "hdtune",
    .title = "HD Tune (benchmark: transfer rate, access time, burst rate; random access)",
    .summary = "HD Tune: transfer rate over the whole LBA range (min/max/avg, curve), access "
               "time, burst rate; random access at 512 B / 4 KB / 64 KB / 1 MB / mixed sizes "
               "(IOPS, access time, MB/s) and the 4 KB random read; --write also writes",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = hdtune_tests,
    .ntests = sizeof(hdtune_tests) / sizeof(hdtune_tests[0]),
    .defaults = {.size = 0,
                 .passes = 1,
                 .duration_ns = 2000000000ull,
                 .zones = 100,
                 .block = 64u << 10,
                 .sample = 8ull << 20,
                 .write = false},
    .options = SUITE_OPT_SIZE | SUITE_OPT_ZONES | SUITE_OPT_BLOCK | SUITE_OPT_SAMPLE |
               SUITE_OPT_DURATION | SUITE_OPT_WRITE,
    .writes = hdtune_writes,
    .run = hdtune_run,
};
SUITE_REGISTER(hdtune_def)
