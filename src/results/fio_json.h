/*
 * fio_json.h - results in fio's own shapes, for the tools written for fio.
 *
 * st_fio_json() builds the document `fio --output-format=json` prints (and
 * json+ with the latency bins), with fio's key names and units: bytes and
 * KiB (bw is KiB/s, bw_bytes bytes/s), runtimes in ms, latencies in ns,
 * percentages for CPU, I/O depth and latency buckets.  st_fio_terse()
 * prints fio's terse (--minimal) version 3 line, fields as fio orders them.  docs/results.md maps
 * every field onto raidlab's measurements and says which ones raidlab does
 * not measure (they are 0, as fio prints them when it has no samples).
 */
#ifndef RL_RESULTS_FIO_JSON_H
#define RL_RESULTS_FIO_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "core/target.h"
#include "results/disk_util.h"
#include "workload/run.h"

struct json_object;

/** One finished job as fio reports it. */
struct st_fio_job {
	const struct wl_result *res;
	unsigned groupid;         /* fio's reporting group */
	struct rl_target *target; /* where it ran (its spec and size go into the output) */
};

/**
 * The whole document: "fio version", "timestamp", "jobs", "disk_util" (the
 * devices in @du, which may be NULL: none)...
 */
struct json_object *st_fio_json(const struct st_fio_job *jobs, size_t n, bool plus,
                                const struct st_disk_util *du, const char *global_given);

/**
 * fio's terse line (version 3, ';'-separated) for one job: 121 fields, and
 * 9 more for each device in @du (NULL: none), 130 for a file on one disk.
 */
void st_fio_terse(FILE *f, const struct st_fio_job *job, const struct st_disk_util *du);

/* --- pieces the normal output (fio_text.c) shares --- */

#define ST_FIO_SAMPLE_NS  500000000ull /* fio's bwavgtime: one bw and iops sample per 500 ms */
#define ST_FIO_LAT_SHARES 32           /* latency buckets: 10 in ns, 10 in us, 12 in ms */

/** The statistics of fio's bw or iops samples. */
struct st_fio_stat {
	double min, max, mean, dev;
	size_t n;
};

/** fio's bw (KiB/s) or iops (@per_io) samples of a direction's series over @runtime_ns. */
void st_fio_samples(const struct st_series *s, uint64_t runtime_ns, bool per_io,
                    struct st_fio_stat *out);

/* fio's runtime of direction @d in whole ms, rounded up from microseconds as
   fio's update_runtime does, and the rates fio derives from it */
uint64_t st_fio_runtime_ms(const struct wl_result *res, int d);
uint64_t st_fio_bw_bytes(const struct wl_result *res, int d);
double st_fio_iops(const struct wl_result *res, int d);

/* What fio sums over the jobs of a reporting group, per direction (runtimes in ms). */
struct st_fio_group {
	uint64_t min_run[WL_DIRS], max_run[WL_DIRS], min_bw[WL_DIRS], max_bw[WL_DIRS];
	uint64_t iobytes[WL_DIRS], agg[WL_DIRS];
};

/**
 * Sum the jobs of group @gid into @g (unified_rw_reporting=1: everything in
 * direction 0); false when none of them did any I/O.  agg is fio's group
 * rate, bytes over the longest runtime.
 */
bool st_fio_group_sum(const struct st_fio_job *jobs, size_t n, unsigned gid,
                      struct st_fio_group *g);

/**
 * fio's share of a job's mean bw sample (KiB/s) in its group's rate @agg
 * (bytes/s): percent, at most 100, and 100 when the group moved no more
 * than 1 KiB/s.  As fio's convert_agg_kbytes_percent, the mean is taken in
 * whole KiB/s.
 */
double st_fio_per_agg(double mean, uint64_t agg);

/**
 * The span direction @d's samples cover: its runtime, but short of the
 * job's runtime= limit when it ran that long (fio ends the job before it
 * takes the sample due at that moment).
 */
uint64_t st_fio_sample_ns(const struct wl_result *res, int d);

/**
 * The share (percent) of all I/O in each of fio's latency buckets: 2, 4, 10
 * ... 1000 ns, the same in us, 2 ... 2000 ms and >= 2000 ms.
 */
void st_fio_lat_shares(const struct wl_result *res, double out[ST_FIO_LAT_SHARES]);

/**
 * fio's three latencies of a direction: slat (empty when the engine did not
 * measure it), clat (the whole latency when it did not) and lat.
 */
const struct st_hist *st_fio_slat(const struct wl_dir_result *r);
const struct st_hist *st_fio_clat(const struct wl_dir_result *r);

/** fio's error of a job: its first I/O error's errno, else EILSEQ (84) after a verify failure. */
int st_fio_error(const struct wl_result *res);

/** Which latencies get percentiles (fio: disable_X turns X_percentiles off). */
bool st_fio_pcts_slat(const struct wl_job *j);
bool st_fio_pcts_clat(const struct wl_job *j);
bool st_fio_pcts_lat(const struct wl_job *j);

/** The depth a job's requests ran at (1 for a synchronous engine). */
unsigned st_fio_job_depth(const struct wl_result *res);

/**
 * fio's usr_cpu (@sys false) or sys_cpu: percent of the job's runtime, the
 * average over the jobs a result sums (each fio job being one process).
 */
double st_fio_cpu_pct(const struct wl_result *res, bool sys);

/** fio's slot of @depth: 1, 2, 4 ... >=64 (iodepth), or 0, 4, 8 ... >=64 (@submit). */
size_t st_fio_depth_slot(unsigned depth, bool submit);
/**
 * The share (percent) of fio's submit or complete bucket @i (0, 4, 8 ... 64,
 * >=64) in @dist, the calls that submitted or reaped so many requests
 * (wl_result.batch_*); with none counted, 100 at @depth's bucket.
 */
double st_fio_batch_pct(const uint64_t dist[7], unsigned depth, size_t i);

/** unified_rw_reporting's "mixed" direction: @res's directions summed into dir[0]. */
struct wl_result *st_fio_mixed_new(const struct wl_result *res);
void st_fio_mixed_free(struct wl_result *m);

#endif
