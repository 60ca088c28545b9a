/*
 * pace.c - the emulation governor (pace.h): judges windows of served
 * traffic on a paced executor and, with --slow auto, raises the factor
 * when the machine falls behind the simulated hardware.
 *
 * A window closes when it has lasted SERVE_PACE_WINDOW_NS of wall time and
 * seen SERVE_PACE_WINDOW_MIN timer completions; an idle server judges
 * nothing.  Its mean lag (how late timers fired, simulated ns) is compared
 * with the larger of SERVE_PACE_LIMIT_FLOOR and SERVE_PACE_LIMIT_PCT of the
 * mean service time of the requests completed in it.  The first window
 * (clients starting: fresh buffers fault in, queues fill) and the window
 * after a raise (timers that were already late still fire late) are not
 * judged, and a raise takes SERVE_PACE_OVER windows over the limit in a
 * row, so one scheduling hiccup of a busy machine does not ratchet the
 * factor up for the rest of a long run.  The verdict on the final factor
 * is judged on the whole: kept up when the mean lag of all judged windows
 * is within the limit of their mean service time.  What a client reports
 * (MB/s, mean latency over a run) is a whole-run figure, which lag moves
 * by its share of the whole; a stretch of a few late windows in a long
 * run (a busy moment of the machine) is within that share, so it is
 * reported (the longest stretch, the worst window) but not judged alone.
 * Raising on a stretch stays: with --slow auto a larger factor is cheap
 * insurance, a verdict of "fell behind" is not.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "core/exec.h"
#include "serve/pace.h"

uint32_t serve_pace_next(uint32_t slow)
{
	/* 1 2 3 4 6 8 12 16 24 32 ...: about x1.5 a step */
	if (slow < 4)
		return slow + 1;
	uint32_t p = 1;
	while (p * 2 <= slow)
		p *= 2;
	return slow < p + p / 2 ? p + p / 2 : p * 2;
}

static int pace_write(const struct serve_pace *p)
{
	char tmp[4200];
	FILE *f;

	if (!p->file)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", p->file);
	if (!(f = fopen(tmp, "we")))
		return -errno;
	fprintf(f, "slow %u\nraises %u\nauto %d\n", serve_pace_slow(p), p->nsteps, p->autoslow);
	if (fclose(f) || rename(tmp, p->file)) {
		int rc = -errno;
		remove(tmp);
		return rc;
	}
	return 0;
}

static void pace_window_start(struct serve_pace *p, uint64_t lat_sum, uint64_t lat_count)
{
	p->wall0 = rl_exec_wall_now();
	p->lag_sum0 = p->ex->lag_sum;
	p->lag_count0 = p->ex->lag_count;
	p->lat_sum0 = lat_sum;
	p->lat_count0 = lat_count;
}

int serve_pace_init(struct serve_pace *p, struct rl_exec *ex, bool autoslow, uint32_t max,
                    const char *file)
{
	*p = (struct serve_pace){
	    .ex = ex, .autoslow = autoslow, .max = max, .file = file, .settle = true};
	p->start_wall = rl_exec_wall_now();
	pace_window_start(p, 0, 0);
	return pace_write(p);
}

uint32_t serve_pace_slow(const struct serve_pace *p)
{
	return p->ex->pace_slow ? p->ex->pace_slow : 1;
}

void serve_pace_poll(struct serve_pace *p, uint64_t lat_sum, uint64_t lat_count)
{
	uint64_t now = rl_exec_wall_now();
	uint64_t n = p->ex->lag_count - p->lag_count0;
	uint64_t m = lat_count - p->lat_count0;

	if (now - p->wall0 < SERVE_PACE_WINDOW_NS || n < SERVE_PACE_WINDOW_MIN || !m)
		return;
	double lag = (double)(p->ex->lag_sum - p->lag_sum0) / (double)n;
	double svc = (double)(lat_sum - p->lat_sum0) / (double)m;
	double limit = svc * SERVE_PACE_LIMIT_PCT / 100.0;
	bool settle = p->settle;

	if (limit < SERVE_PACE_LIMIT_FLOOR)
		limit = SERVE_PACE_LIMIT_FLOOR;
	pace_window_start(p, lat_sum, lat_count);
	p->settle = false;
	if (settle)
		return;
	p->windows++;
	p->sum_lag += lag * (double)n;
	p->sum_lag_n += n;
	p->sum_svc += svc * (double)m;
	p->sum_svc_n += m;
	if (lag / limit > p->worst_ratio) {
		p->worst_ratio = lag / limit;
		p->worst_lag_us = lag / 1e3;
		p->worst_limit_us = limit / 1e3;
	}
	uint32_t slow = serve_pace_slow(p), next = serve_pace_next(slow);
	p->over = lag > limit ? p->over + 1 : 0;
	if (p->over > p->over_max)
		p->over_max = p->over;
	if (!p->autoslow || p->over < SERVE_PACE_OVER || next > p->max ||
	    p->nsteps == SERVE_PACE_MAX_STEPS)
		return;
	p->steps[p->nsteps++] = (struct serve_pace_step){
	    .from = slow,
	    .to = next,
	    .at_s = (double)(now - p->start_wall) / 1e9,
	    .lag_us = lag / 1e3,
	    .limit_us = limit / 1e3,
	    .completed = n,
	};
	rl_exec_paced_set_slow(p->ex, next);
	p->settle = true;
	p->over = p->over_max = 0;
	p->worst_ratio = p->worst_lag_us = p->worst_limit_us = 0;
	p->sum_lag = p->sum_svc = 0;
	p->sum_lag_n = p->sum_svc_n = 0;
	p->windows = 0;
	pace_write(p); /* a failed rewrite leaves the old file: the client sees no raise */
}

bool serve_pace_kept_up(const struct serve_pace *p, double *lag_us, double *limit_us)
{
	double lag = p->sum_lag_n ? p->sum_lag / (double)p->sum_lag_n : 0;
	double limit = p->sum_svc_n ? p->sum_svc / (double)p->sum_svc_n : 0;

	limit = limit * SERVE_PACE_LIMIT_PCT / 100.0;
	if (limit < SERVE_PACE_LIMIT_FLOOR)
		limit = SERVE_PACE_LIMIT_FLOOR;
	if (lag_us)
		*lag_us = lag / 1e3;
	if (limit_us)
		*limit_us = limit / 1e3;
	return lag <= limit;
}

void serve_pace_report(const struct serve_pace *p, FILE *f)
{
	for (unsigned i = 0; i < p->nsteps; i++) {
		const struct serve_pace_step *s = &p->steps[i];
		fprintf(f,
		        "raidlab serve: slow auto: x%u -> x%u at %.1f s (lag mean %.1f us over the "
		        "limit %.1f us, %llu completions)\n",
		        s->from, s->to, s->at_s, s->lag_us, s->limit_us,
		        (unsigned long long)s->completed);
	}
	if (p->windows) {
		double lag, limit;
		bool ok = serve_pace_kept_up(p, &lag, &limit);
		fprintf(
		    f,
		    "raidlab serve: at x%u: %u windows judged: lag mean %.1f us against a limit "
		    "of %.1f us, the worst window %.1f us against %.1f us, %u over it in a row "
		    "(%s)\n",
		    serve_pace_slow(p), p->windows, lag, limit, p->worst_lag_us, p->worst_limit_us,
		    p->over_max, ok ? "kept up" : "fell behind");
	}
}

struct json_object *serve_pace_json(const struct serve_pace *p)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "slow", json_object_new_int64(serve_pace_slow(p)));
	json_object_object_add(o, "auto", json_object_new_boolean(p->autoslow));
	json_object_object_add(o, "limit_pct", json_object_new_int(SERVE_PACE_LIMIT_PCT));
	for (unsigned i = 0; i < p->nsteps; i++) {
		const struct serve_pace_step *s = &p->steps[i];
		struct json_object *j = json_object_new_object();
		json_object_object_add(j, "from", json_object_new_int64(s->from));
		json_object_object_add(j, "to", json_object_new_int64(s->to));
		json_object_object_add(j, "at_s", json_object_new_double(s->at_s));
		json_object_object_add(j, "lag_us", json_object_new_double(s->lag_us));
		json_object_object_add(j, "limit_us", json_object_new_double(s->limit_us));
		json_object_object_add(j, "completions",
		                       json_object_new_int64((int64_t)s->completed));
		json_object_array_add(a, j);
	}
	json_object_object_add(o, "raises", a);
	json_object_object_add(o, "windows", json_object_new_int64(p->windows));
	if (p->windows) {
		json_object_object_add(o, "worst_lag_us", json_object_new_double(p->worst_lag_us));
		json_object_object_add(o, "worst_limit_us",
		                       json_object_new_double(p->worst_limit_us));
		json_object_object_add(o, "longest_over", json_object_new_int64(p->over_max));
		json_object_object_add(o, "kept_up",
		                       json_object_new_boolean(serve_pace_kept_up(p, NULL, NULL)));
	}
	return o;
}
