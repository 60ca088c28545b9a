/*
 * opt_timing.c - the option setters of rates and timing: rate, rate_iops
 * and rate_min per direction, rate_process, microsecond durations
 * (thinktime, flow_sleep, latency_*), latency_percentile, the steady-state
 * criterion (ss), and when a job stops or starts relative to others
 * (exit_what, wait_for).
 *
 * Design: fio's plain numbers keep fio's units here (microseconds for
 * thinktime, bytes per second for rate), unlike the seconds of runtime.
 */
#include "workload/opt_priv.h"

#include "core/spec.h"

#include <stddef.h>
#include <string.h>

/* rate=R[,W[,T]], rate_iops, rate_min: per direction; one value sets all (as fio). */
int opt_set_rate(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	uint64_t v[3] = {0, 0, 0};
	bool iops = def->off == offsetof(struct wl_job, rate_iops);
	char tmp[128];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	unsigned n = 0;
	for (const char *p = value;; n++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[64];
		if (n == 3 || len >= sizeof(e))
			goto bad;
		memcpy(e, p, len);
		e[len] = '\0';
		if (len && (iops ? rl_parse_u64(e, &v[n], tmp, sizeof(tmp))
		                 : rl_parse_size(e, &v[n], tmp, sizeof(tmp))))
			goto bad;
		if (!end)
			break;
		p = end + 1;
	}
	if (n == 0)
		v[1] = v[2] = v[0];
	memcpy(OPT_FIELD(job, def, uint64_t), v, sizeof(v));
	return 0;
bad:
	return opt_fail(ctx, true, "expected READ[,WRITE[,TRIM]] %s such as %s, got '%s'",
	                iops ? "I/Os per second" : "bytes per second", iops ? "500,100" : "10m,2m",
	                value);
}

/* rate_process=linear|poisson */
int opt_set_rate_process(struct wl_job *job, const struct opt_def *def, const char *value,
                         const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "linear", "poisson", &job->rate_poisson);
}

/* A duration whose plain number is microseconds (thinktime, flow_sleep, latency_*). */
int opt_set_usec(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	(void)job;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (value[0] && strspn(value, "0123456789") == strlen(value)) {
		if (rl_parse_u64(value, &v, tmp, sizeof(tmp)) || v > UINT64_MAX / 1000)
			goto bad;
		v *= 1000;
	} else if (rl_parse_time(value, &v, tmp, sizeof(tmp))) {
		goto bad;
	}
	if (v < def->min || v > def->max)
		goto bad;
	*OPT_FIELD(job, def, uint64_t) = v;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected a time such as 2000 (a plain number is microseconds, as in "
	                "fio), 2ms or 1s%s, got '%s'",
	                def->min ? ", above 0" : "", value);
}

/* latency_percentile=FLOAT: (0, 100]. */
int opt_set_lat_pct(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	double v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_double(value, &v) || !(v > 0 && v <= 100))
		return opt_fail(ctx, true,
		                "expected a percentage above 0 and at most 100, got '%s'", value);
	job->lat_pct = v;
	return 0;
}

/* ss=iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%] */
int opt_set_ss(struct wl_job *job, const struct opt_def *def, const char *value,
               const struct opt_ctx *ctx)
{
	static const struct opt_choice kinds[] = {
	    {"iops", WL_SS_IOPS}, {"bw", WL_SS_BW}, {"lat", WL_SS_LAT}, {NULL, 0}};
	char kind[16], num[32];
	double v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : 0;
	const struct opt_choice *c = NULL;
	bool slope = false, pct = false;
	if (colon && n < sizeof(kind)) {
		memcpy(kind, value, n);
		kind[n] = '\0';
		char *sl = strstr(kind, "_slope");
		if (sl && !sl[6]) {
			*sl = '\0';
			slope = true;
		}
		c = opt_find_choice(kinds, kind);
	}
	size_t len = colon ? strlen(colon + 1) : 0;
	if (len && colon[len] == '%') {
		pct = true;
		len--;
	}
	if (!c || !len || len >= sizeof(num))
		goto bad;
	memcpy(num, colon + 1, len);
	num[len] = '\0';
	if (!opt_parse_double(num, &v))
		goto bad;
	job->ss_kind = (enum wl_ss_kind)c->value;
	job->ss_slope = slope;
	job->ss_pct = pct;
	job->ss_limit = v;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a "
	                "limit (a number, or a percentage of the mean such as 0.1%%), got '%s'",
	                value);
}

/* exit_what=group|stonewall|all: what an exitall job stops. */
int opt_set_exit_what(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!strcmp(value, "group"))
		job->exit_what = 0;
	else if (!strcmp(value, "stonewall"))
		job->exit_what = 1;
	else if (!strcmp(value, "all"))
		job->exit_what = 2;
	else
		return opt_fail(ctx, true, "expected group, stonewall or all, got '%s'", value);
	return 0;
}

/* wait_for=JOB: the name of an earlier job. */
int opt_set_wait_for(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!value[0] || strlen(value) >= WL_NAME_MAX)
		return opt_fail(ctx, true, "expected a job name of 1 to %d characters, got '%s'",
		                WL_NAME_MAX - 1, value);
	memcpy(job->wait_for, value, strlen(value) + 1);
	return 0;
}
