/*
 * fio_log.c - fio's per-interval logs from a job's time series (fio_log.h).
 *
 * The engine keeps, per direction, bytes and I/Os per log_avg_msec interval
 * (and, for write_lat_log, the sum of latencies in the same shape), so each
 * log line is one interval of one direction.  Lines are written in time
 * order, directions of one interval together, as fio does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stats/fio_log.h"

enum fio_log_kind { FIO_LOG_BW, FIO_LOG_IOPS, FIO_LOG_LAT, FIO_LOG_SLAT };

static int fio_log_one(const struct wl_result *res, enum fio_log_kind kind, const char *prefix,
                       const char *suffix, unsigned jobnum, char *msg, size_t msglen)
{
	char path[WL_LOGNAME_MAX + WL_NAME_MAX + 32];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s_%s.%u.log", prefix[0] ? prefix : res->job.name, suffix,
	         jobnum);
	FILE *f = fopen(path, "w");
	if (!f) {
		int e = errno;
		snprintf(msg, msglen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	for (int d = 0; d < WL_DIRS; d++)
		if (res->dir[d].series.n > n)
			n = res->dir[d].series.n;
	for (size_t i = 0; i < n; i++) {
		for (int d = 0; d < WL_DIRS; d++) {
			const struct st_series *s = &res->dir[d].series;
			if (!res->dir[d].ios || !s->interval_ns || i >= s->n)
				continue;
			double secs = (double)s->interval_ns / 1e9;
			unsigned long long msec =
			    (unsigned long long)((i + 1) * s->interval_ns / 1000000ull);
			unsigned long long v = 0;
			switch (kind) {
			case FIO_LOG_BW:
				v = (unsigned long long)((double)s->bytes[i] / 1024.0 / secs);
				break;
			case FIO_LOG_IOPS:
				v = (unsigned long long)((double)s->ios[i] / secs);
				break;
			case FIO_LOG_LAT: {
				const struct st_series *l = &res->dir[d].lat;
				if (i >= l->n || !l->ios[i])
					continue;
				v = l->bytes[i] / l->ios[i];
				break;
			}
			case FIO_LOG_SLAT:
				v = 0; /* submission latency is not measured apart */
				break;
			}
			fprintf(f, "%llu, %llu, %d, 0, 0\n", msec, v,
			        d); /* bs 0: averaged, as fio */
		}
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
	if (!rc && j->lat_log)
		rc = fio_log_one(res, FIO_LOG_LAT, j->lat_log_name, "lat", jobnum, msg, msglen);
	if (!rc && j->lat_log)
		rc = fio_log_one(res, FIO_LOG_LAT, j->lat_log_name, "clat", jobnum, msg, msglen);
	if (!rc && j->lat_log)
		rc = fio_log_one(res, FIO_LOG_SLAT, j->lat_log_name, "slat", jobnum, msg, msglen);
	return rc;
}
