/*
 * fio_log.c - fio's per-interval logs from a job's time series (fio_log.h).
 *
 * The engine keeps, per direction, bytes and I/Os per log_avg_msec interval
 * (and, for write_lat_log, the sum of latencies in the same shape), so each
 * log line is one interval of one direction.  Lines are written in time
 * order, directions of one interval together, as fio does, none after the
 * job's runtime (fio's last sample is within it): the last interval ends
 * with the job, and completions after it are not logged.  The last column
 * is fio's priority field: 1 for the real time class, else 0, or with
 * log_prio the priority value (0x6000).  Latency logs of a cmdprio job hold
 * one line per priority for each interval (its two kinds of requests are
 * timed apart); bandwidth and IOPS lines cover all of them, priority 0.
 *
 * With log_avg_msec=0 (fio's default) the bandwidth, IOPS and latency logs
 * have a line per I/O instead, from the job's per-I/O records (unitlog.h),
 * in completion order, each with its own size, offset and priority: the
 * time in ms since the job's measurement began; lat, clat and slat in ns
 * (slat being lat - clat, no line where the two are not timed apart, as
 * fio's synchronous engines); IOPS 1;
 * bandwidth the I/O's bytes over its completion latency (fio's bytes *
 * 10^6 / ns).  disable_bw_measurement leaves the bandwidth log empty.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/fio_log.h"

enum fio_log_kind { FIO_LOG_BW, FIO_LOG_IOPS, FIO_LOG_LAT, FIO_LOG_SLAT };

/*
 * fio's name: PREFIX_SUFFIX.JOBNUM.log, the job's name when no prefix is
 * given; with per_job_logs=0, PREFIX_SUFFIX.log shared by all jobs.
 */
static void fio_log_path(char *path, size_t len, const struct wl_job *j, const char *prefix,
                         const char *suffix, unsigned jobnum)
{
	const char *p = prefix[0] ? prefix : j->name;
	if (j->per_job_logs)
		snprintf(path, len, "%s_%s.%u.log", p, suffix, jobnum);
	else
		snprintf(path, len, "%s_%s.log", p, suffix);
}

size_t st_fio_logs_files(const struct wl_job *j, unsigned jobnum,
                         struct st_fio_log_file out[ST_FIO_LOG_FILES])
{
	static const char *const lat[] = {"lat", "clat", "slat"};
	size_t n = 0;

	if (j->bw_log) {
		fio_log_path(out[n].path, sizeof(out[n].path), j, j->bw_log_name, "bw", jobnum);
		out[n++].option = "--write_bw_log";
	}
	if (j->iops_log) {
		fio_log_path(out[n].path, sizeof(out[n].path), j, j->iops_log_name, "iops", jobnum);
		out[n++].option = "--write_iops_log";
	}
	if (j->hist_log) {
		fio_log_path(out[n].path, sizeof(out[n].path), j, j->hist_log_name, "clat_hist",
		             jobnum);
		out[n++].option = "--write_hist_log";
	}
	bool off[3] = {j->disable_lat, j->disable_clat, j->disable_slat};
	for (int i = 0; j->lat_log && i < 3; i++) {
		if (off[i])
			continue; /* disable_lat/clat/slat: no such log, as fio */
		fio_log_path(out[n].path, sizeof(out[n].path), j, j->lat_log_name, lat[i], jobnum);
		out[n++].option = "--write_lat_log";
	}
	return n;
}

/* fio's priority column of a request sent at priority @prio */
static void fio_log_prio(FILE *f, const struct wl_job *j, unsigned prio)
{
	if (j->log_prio)
		fprintf(f, "0x%04x\n", prio);
	else
		fprintf(f, "%u\n", (prio >> 13) == 1); /* 1: real time */
}

/* log_avg_msec=0: a line per I/O of @kind (@clat: the clat log, not lat) */
static void fio_log_units(FILE *f, const struct wl_result *res, enum fio_log_kind kind, bool clat)
{
	const struct wl_job *j = &res->job;

	if (kind == FIO_LOG_BW && j->disable_bw)
		return;
	for (size_t i = 0; i < res->unitlog.n; i++) {
		const struct st_unit *u = &res->unitlog.v[i];
		unsigned prio =
		    u->dir < 2 && u->cmdprio ? wl_job_cmdprio(j, u->dir) : wl_job_ioprio(j);
		unsigned long long v = 1;

		if (kind == FIO_LOG_SLAT && !u->split)
			continue; /* not measured, as fio's sync engines: no line */
		switch (kind) {
		case FIO_LOG_BW:
			v = u->clat_ns ? (unsigned long long)u->bs * 1000000ull / u->clat_ns : 0;
			break;
		case FIO_LOG_IOPS:
			break;
		case FIO_LOG_LAT:
			v = clat ? u->clat_ns : u->lat_ns;
			break;
		case FIO_LOG_SLAT:
			v = u->lat_ns - u->clat_ns;
			break;
		}
		fprintf(f, "%llu, %llu, %u, %u, ", (unsigned long long)(u->t_ns / 1000000ull), v,
		        u->dir, u->bs);
		if (j->log_offset)
			fprintf(f, "%llu, ", (unsigned long long)u->offset);
		fio_log_prio(f, j, prio);
	}
}

static int fio_log_one(const struct wl_result *res, enum fio_log_kind kind, const char *prefix,
                       const char *suffix, unsigned jobnum, char *msg, size_t msglen)
{
	char path[WL_LOGNAME_MAX + WL_NAME_MAX + 32];
	size_t n = 0;
	/* the job's end: fio's last sample is within the runtime; requests still in flight at it
	 * complete in an interval that starts later, which is not logged */
	unsigned long long end_ms = res->runtime_ns ? res->runtime_ns / 1000000 : ~0ull;

	fio_log_path(path, sizeof(path), &res->job, prefix, suffix, jobnum);
	/* a shared log (per_job_logs=0) is added to, as fio does, even across runs */
	FILE *f = fopen(path, res->job.per_job_logs ? "w" : "a");
	if (!f) {
		int e = errno;
		snprintf(msg, msglen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	if (res->unitlog.on)
		fio_log_units(f, res, kind, !strcmp(suffix, "clat"));
	for (int d = 0; d < WL_DIRS && !res->unitlog.on; d++)
		if (res->dir[d].series.n > n)
			n = res->dir[d].series.n;
	for (size_t i = 0; i < n; i++) {
		for (int d = 0; d < WL_DIRS; d++) {
			const struct st_series *s = &res->dir[d].series;
			if (!res->dir[d].ios || !s->interval_ns || i >= s->n)
				continue;
			unsigned long long from =
			    (unsigned long long)(i * s->interval_ns / 1000000ull);
			unsigned long long msec =
			    (unsigned long long)((i + 1) * s->interval_ns / 1000000ull);
			if (from >= end_ms)
				continue;
			if (msec > end_ms)
				msec = end_ms; /* the last interval ends with the job */
			double secs = (double)(msec - from) / 1e3;
			/* latency logs: one line per priority the interval's requests had */
			for (int p = 0; p < 2; p++) {
				const struct st_series *l =
				    p ? &res->dir[d].lat_cmd : &res->dir[d].lat;
				unsigned prio = d < 2 && p ? wl_job_cmdprio(&res->job, d)
				                           : wl_job_ioprio(&res->job);
				unsigned long long v = 0;
				if (p && (kind == FIO_LOG_BW || kind == FIO_LOG_IOPS))
					break;
				switch (kind) {
				case FIO_LOG_BW:
					v = (unsigned long long)((double)s->bytes[i] / 1024.0 /
					                         secs);
					prio = 0; /* averaged over all priorities, as fio */
					break;
				case FIO_LOG_IOPS:
					v = (unsigned long long)((double)s->ios[i] / secs);
					prio = 0;
					break;
				case FIO_LOG_LAT:
				case FIO_LOG_SLAT:
					if (!l->interval_ns || i >= l->n || !l->ios[i])
						continue;
					/* submission latency is not measured apart: 0 */
					v = kind == FIO_LOG_LAT ? l->bytes[i] / l->ios[i] : 0;
					break;
				}
				/* bs 0: averaged, as fio (and offset 0 with log_offset); the last
				 * column is fio's priority field */
				fprintf(f, "%llu, %llu, %d, 0, %s", msec, v, d,
				        res->job.log_offset ? "0, " : "");
				fio_log_prio(f, &res->job, prio);
			}
		}
	}
	if (fclose(f)) {
		int e = errno;
		snprintf(msg, msglen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * write_hist_log: per interval, per direction with completions in it,
 * "msec, direction, bs, " and the interval's bin counts (2^coarseness bins
 * summed), as fio's NAME_clat_hist.N.log.
 */
static int fio_log_hist(const struct wl_result *res, unsigned jobnum, char *msg, size_t msglen)
{
	char path[WL_LOGNAME_MAX + WL_NAME_MAX + 32];
	const struct wl_job *j = &res->job;
	unsigned group = 1u << j->log_hist_coarseness;
	size_t n = 0;

	fio_log_path(path, sizeof(path), j, j->hist_log_name, "clat_hist", jobnum);
	FILE *f = fopen(path, j->per_job_logs ? "w" : "a");
	if (!f) {
		int e = errno;
		snprintf(msg, msglen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	for (int d = 0; d < WL_DIRS; d++)
		if (res->dir[d].histlog.n > n)
			n = res->dir[d].histlog.n;
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < WL_DIRS; d++) {
			const struct st_histlog *h = &res->dir[d].histlog;
			const uint32_t *c = h->counts + i * ST_HISTLOG_BINS;
			uint64_t any = 0;
			for (unsigned b = 0; i < h->n && b < ST_HISTLOG_BINS; b++)
				any += c[b];
			if (!any)
				continue;
			fprintf(f, "%llu, %d, %u",
			        (unsigned long long)((i + 1) * h->interval_ns / 1000000ull), d,
			        j->bs);
			for (unsigned b = 0; b < ST_HISTLOG_BINS; b += group) {
				uint64_t sum = 0;
				for (unsigned k = 0; k < group; k++)
					sum += c[b + k];
				fprintf(f, ", %llu", (unsigned long long)sum);
			}
			fputc('\n', f);
		}
	if (fclose(f)) {
		int e = errno;
		snprintf(msg, msglen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

int st_fio_logs_write(const struct wl_result *res, unsigned jobnum, char *msg, size_t msglen)
{
	const struct wl_job *j = &res->job;
	int rc = 0;

	if (!rc && j->bw_log)
		rc = fio_log_one(res, FIO_LOG_BW, j->bw_log_name, "bw", jobnum, msg, msglen);
	if (!rc && j->iops_log)
		rc = fio_log_one(res, FIO_LOG_IOPS, j->iops_log_name, "iops", jobnum, msg, msglen);
	if (!rc && j->lat_log && !j->disable_lat)
		rc = fio_log_one(res, FIO_LOG_LAT, j->lat_log_name, "lat", jobnum, msg, msglen);
	if (!rc && j->lat_log && !j->disable_clat)
		rc = fio_log_one(res, FIO_LOG_LAT, j->lat_log_name, "clat", jobnum, msg, msglen);
	if (!rc && j->lat_log && !j->disable_slat)
		rc = fio_log_one(res, FIO_LOG_SLAT, j->lat_log_name, "slat", jobnum, msg, msglen);
	if (!rc && j->hist_log)
		rc = fio_log_hist(res, jobnum, msg, msglen);
	return rc;
}
