/*
 * fio_text.h - fio's normal (human-readable) output, line for line.
 *
 * A script written against `fio` reads the same sections from `raidlab
 * run`: the job lines and "Starting N processes" before the run, then per
 * reported job the "(groupid=G, jobs=N): err=" block (IOPS/BW line, clat
 * and lat, percentiles, bw and iops samples, latency buckets, cpu, IO
 * depths, submit, complete, issued rwts, latency target), the "Run status
 * group" lines and "Disk stats".  Figures are scaled by fio's rules: its
 * significant figures with k/M or Ki/Mi prefixes (kb_base), nsec, usec or
 * msec chosen from the spread, the percentile columns' width from the
 * largest value.  What raidlab does not time (slat) is left out, as fio
 * leaves it out for an engine without it.  docs/results.md has the map.
 */
#ifndef RL_RESULTS_FIO_TEXT_H
#define RL_RESULTS_FIO_TEXT_H

#include <stdio.h>

#include "results/fio_json.h"

/**
 * What fio prints before the run: per job of @jobs (reporting group
 * @groupid[i]) the line "NAME: (g=G): rw=..., bs=(R) ..., ioengine=E,
 * iodepth=D" ("..." under it for numjobs copies), the version line and
 * "Starting N processes".
 */
void st_fio_text_start(FILE *f, const struct wl_job *jobs, size_t njobs, const unsigned *groupid);

/**
 * fio's "NAME: Laying out IO file (1 file / 16MiB)" lines, printed after
 * "Starting N processes": per clone of @jobs (in order; clone c's target
 * is @targets[@tidx[c]]) whose target holds files this run created or
 * laid out again (the "created" and "laid_out" marks of file targets), their count and size in MiB
 * ("IO files (3 files / total 48MiB)" for several).  A target an earlier clone used is not
 * announced again: fio's second job on a file finds it there.
 */
void st_fio_text_layout(FILE *f, const struct wl_job *jobs, size_t njobs,
                        struct rl_target *const *targets, const unsigned *tidx);

/**
 * fio's report of @n jobs (in the order given, groupids ascending): a blank
 * line, each job's block, each group's "Run status group" and the disks of
 * @du (may be NULL).
 */
void st_fio_text(FILE *f, const struct st_fio_job *jobs, size_t n, const struct st_disk_util *du);

/**
 * fio's way of shortening @num to @digits significant figures (the point
 * counts) with a k, M ... (or Ki, Mi ... if @pow2) prefix, then @unit:
 * 27300 -> "27.3k", 112197632 B/s -> "107MiB/s".
 */
void st_fio_num(char *buf, size_t len, uint64_t num, int digits, bool pow2, const char *unit);

#endif
