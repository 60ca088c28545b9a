/*
 * fio_log.h - fio's bandwidth, latency and IOPS logs (write_bw_log,
 * write_lat_log, write_iops_log), for fio2gnuplot and fio_generate_plots.
 *
 * fio's format, one sample per line: "msec, value, direction, bs, prio"
 * (direction 0 read, 1 write, 2 trim).  raidlab logs one averaged sample
 * per log_avg_msec interval and direction (fio's log_avg_msec behaviour),
 * the time being the end of the interval since the job's measurement began:
 * bw in KiB/s, iops in I/Os per second, lat/clat the mean latency in ns;
 * slat is written as fio does, with 0 (raidlab does not time submission
 * apart, as in its fio JSON).
 */
#ifndef RL_RESULTS_FIO_LOG_H
#define RL_RESULTS_FIO_LOG_H

#include <stddef.h>

#include "workload/run.h"

/** One log file a job will write, and the option that asks for it. */
struct st_fio_log_file {
	char path[WL_LOGNAME_MAX + WL_NAME_MAX + 32];
	const char *option; /* "--write_bw_log", ... */
};

/** The most log files one job writes (bw, iops, clat_hist, lat, clat, slat). */
#define ST_FIO_LOG_FILES 6

/**
 * The files job @j (numbered @jobnum) will write its logs to, so they can
 * be checked before the run: fills @out, returns how many.
 */
size_t st_fio_logs_files(const struct wl_job *j, unsigned jobnum,
                         struct st_fio_log_file out[ST_FIO_LOG_FILES]);

/**
 * Write the logs @res->job asks for, numbered @jobnum (fio numbers the jobs
 * of a run from 1).  Returns 0, or -errno with the file named in @msg.
 */
int st_fio_logs_write(const struct wl_result *res, unsigned jobnum, char *msg, size_t msglen);

#endif
