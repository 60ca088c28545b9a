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
                                const struct st_disk_util *du);

/**
 * fio's terse line (version 3, ';'-separated) for one job: 121 fields, and
 * 9 more for each device in @du (NULL: none), 130 for a file on one disk.
 */
void st_fio_terse(FILE *f, const struct st_fio_job *job, const struct st_disk_util *du);

#endif
