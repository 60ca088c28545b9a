/*
 * iometer.c - the classic Iometer server access specifications: Database,
 * File Server, Web Server, Workstation.
 *
 * Definitions (docs/sources.md#iometer):
 *   - Database: 8 KiB, 67 % read, 100 % random;
 *   - File Server: 80 % read, 100 % random, 512B 10 % / 1K 5 % / 2K 5 % /
 *     4K 60 % / 8K 2 % / 16K 4 % / 32K 4 % / 64K 10 % (thessdreview.com;
 *     fio's examples/iometer-file-access-server.fio encodes exactly this);
 *   - Web Server: "like File Server but 100 % read with extra 128K/512K
 *     sizes".  The sources give no percentages, so raidlab uses the widely
 *     reproduced Intel web-server distribution 512B 22 % / 1K 15 % / 2K 8 %
 *     / 4K 23 % / 8K 15 % / 16K 2 % / 32K 6 % / 64K 7 % / 128K 1 % / 512K 1 %
 *     (same sizes as File Server plus 128K and 512K, 100 % read, random) -
 *     not found in the sources, so marked unverified in docs;
 *   - Workstation: 8 KiB, 80 % read, 80 % random (Tom's Hardware).
 * All at --qd outstanding I/Os (default 64, Iometer's "moderate" load level
 * in fio's example; 1, 4, 8 and 256 are its other levels), one worker,
 * time-based (--duration), over a test area filled first.
 *
 * The engine has no percentage_random, so Workstation's 80 % random is a
 * composite pass: the random part (randrw, 80 % reads) runs for 80 % of the
 * duration, then a sequential part (rw, 80 % reads) issues a quarter as
 * many I/Os as the random part completed, so 80 % of all I/Os are random;
 * the two are summed into one pass (bytes, I/Os, latency histogram, series
 * back to back, runtimes added).  Throughput is total bytes over total
 * time, what an interleaved mix gives when each I/O's cost does not depend
 * on its neighbours.
 *
 * Each test reports read, write and the total ("mix": both directions
 * together, Iometer's Total I/Os per second and MB/s).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/suite.h"

#define IOMETER_FILESERVER "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"
#define IOMETER_WEBSERVER  "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1"

/* iodepth 0: the --qd parameter. */
static const struct suite_test iometer_tests[] = {
    {.name = "Database",
     .pattern = SUITE_MIXED,
     .bs = 8192,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 67,
     .random_pct = 100,
     .timed = true},
    {.name = "File Server",
     .pattern = SUITE_MIXED,
     .bssplit = IOMETER_FILESERVER,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 80,
     .random_pct = 100,
     .timed = true},
    {.name = "Web Server",
     .pattern = SUITE_RAND,
     .bssplit = IOMETER_WEBSERVER,
     .threads = 1,
     .dirs = SUITE_DIR_READ,
     .timed = true},
    {.name = "Workstation",
     .pattern = SUITE_MIXED,
     .bs = 8192,
     .threads = 1,
     .dirs = SUITE_DIR_RW,
     .rwmixread = 80,
     .random_pct = 80,
     .timed = true},
};

#define IOMETER_NTESTS (sizeof(iometer_tests) / sizeof(iometer_tests[0]))

/* dst follows src in time: append src's intervals after dst's. */
static int iometer_series_append(struct st_series *dst, const struct st_series *src)
{
	struct st_series s;
	int rc;

	if (!src->n)
		return 0;
	if (!dst->interval_ns) {
		rc = st_series_init(dst, src->interval_ns, src->start_ns, src->n);
		return rc ? rc : st_series_merge(dst, src);
	}
	rc = st_series_init(&s, dst->interval_ns, dst->start_ns, dst->n + src->n);
	if (rc)
		return rc;
	memcpy(s.bytes, dst->bytes, dst->n * sizeof(*s.bytes));
	memcpy(s.ios, dst->ios, dst->n * sizeof(*s.ios));
	memcpy(s.bytes + dst->n, src->bytes, src->n * sizeof(*s.bytes));
	memcpy(s.ios + dst->n, src->ios, src->n * sizeof(*s.ios));
	s.n = dst->n + src->n;
	st_series_free(dst);
	*dst = s;
	return 0;
}

/* The Workstation pass: random part, then the sequential part, summed into @res. */
int suite_partial_random_pass(struct suite_run *r, const struct wl_job *job, struct wl_result *res,
                              void *arg)
{
	const struct suite_test *t = arg;
	struct wl_job rnd = *job, seq = *job;
	struct wl_result *part;
	uint64_t ios, seq_ios, bytes;
	int rc;

	rnd.runtime_ns = job->runtime_ns / 100 * t->random_pct;
	if (!rnd.runtime_ns)
		rnd.runtime_ns = 1;
	rc = suite_run_job(r, &rnd, res);
	if (rc)
		return rc;
	ios = res->dir[RL_OP_READ].ios + res->dir[RL_OP_WRITE].ios;
	seq_ios = ios * (100 - t->random_pct) / t->random_pct;
	if (!seq_ios)
		return 0;
	bytes = seq_ios * job->bs;
	seq.rw = WL_RW_RW;
	seq.time_based = false; /* a budget of I/Os, capped by the pass's duration */
	seq.size = (bytes < r->area ? bytes : r->area) / job->bs * job->bs;
	seq.loops = (uint32_t)((bytes + seq.size - 1) / seq.size);
	if (seq.loops > 1000000)
		seq.loops = 1000000;
	part = malloc(sizeof(*part));
	if (!part) {
		wl_result_free(res);
		return -ENOMEM;
	}
	rc = suite_run_job(r, &seq, part);
	if (rc) {
		free(part);
		wl_result_free(res);
		return rc;
	}
	for (int d = 0; d < WL_DIRS; d++) {
		res->dir[d].ios += part->dir[d].ios;
		res->dir[d].bytes += part->dir[d].bytes;
		st_hist_merge(&res->dir[d].hist, &part->dir[d].hist);
		if (!rc)
			rc = iometer_series_append(&res->dir[d].series, &part->dir[d].series);
	}
	res->runtime_ns += part->runtime_ns;
	res->cpu_user_s += part->cpu_user_s;
	res->cpu_sys_s += part->cpu_sys_s;
	res->cpu_runtime_ns += part->cpu_runtime_ns;
	wl_result_free(part);
	free(part);
	if (rc) {
		snprintf(r->msg, sizeof(r->msg), "test '%s': %s", job->name, strerror(-rc));
		wl_result_free(res);
	}
	return rc;
}

int suite_run_each_test(struct suite_run *r, const struct suite_test *tests, size_t n)
{
	int rc = suite_prepare(r);

	for (size_t i = 0; !rc && i < n; i++) {
		const struct suite_test *t = &tests[i];
		bool mixed = t->pattern == SUITE_MIXED;
		enum suite_dir dir = mixed                       ? SUITE_MIX
		                     : t->dirs == SUITE_DIR_READ ? SUITE_READ
		                                                 : SUITE_WRITE;
		unsigned views =
		    mixed ? SUITE_VIEW(SUITE_READ) | SUITE_VIEW(SUITE_WRITE) | SUITE_VIEW(SUITE_MIX)
		          : SUITE_VIEW(dir);
		bool partial = mixed && t->random_pct < 100;
		struct json_object *obj = suite_test_json(r, t);
		struct suite_meas m;
		struct wl_job job;

		json_object_array_add(r->tests, obj);
		if (i)
			suite_pause(r);
		suite_job_build(r, t, dir, &job);
		r->cur_test = t->name;
		r->cur_phase = mixed ? "mix" : dir == SUITE_READ ? "read" : "write";
		rc = suite_measure(r, &job, views, r->p.warmup, 1, SUITE_AGG_SINGLE, 0,
		                   partial ? suite_partial_random_pass : NULL, (void *)t, &m);
		if (rc) {
			suite_meas_free(&m);
			break;
		}
		if (mixed) {
			json_object_object_add(obj, "read", suite_meas_json(&m, SUITE_READ));
			json_object_object_add(obj, "write", suite_meas_json(&m, SUITE_WRITE));
			json_object_object_add(obj, "mix", suite_meas_json(&m, SUITE_MIX));
		} else {
			json_object_object_add(obj, dir == SUITE_READ ? "read" : "write",
			                       suite_meas_json(&m, dir));
		}
	}
	return rc;
}

static int iometer_run(struct suite_run *r)
{
	return suite_run_each_test(r, iometer_tests, IOMETER_NTESTS);
}

static struct suite_def iometer_def = {
    .name = "iometer",
    .title = "Iometer access specifications (Database, File Server, Web Server, Workstation)",
    .summary = "Iometer profiles: Database, File Server, Web Server, Workstation at --qd "
               "(default 64)",
    .aggregate = SUITE_AGG_SINGLE,
    .tests = iometer_tests,
    .ntests = IOMETER_NTESTS,
    .defaults = {.size = 1ull << 30,
                 .passes = 1,
                 .warmup = 0,
                 .duration_ns = 30000000000ull,
                 .iodepth = 64},
    .options =
        SUITE_OPT_SIZE | SUITE_OPT_DURATION | SUITE_OPT_QD | SUITE_OPT_WARMUP | SUITE_OPT_INTERVAL,
    .run = iometer_run,
};
SUITE_REGISTER(iometer_def)
