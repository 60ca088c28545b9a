/*
 * run_result.c - the job engine's hand-off to reporting: merging workers'
 * results into a job's (and clones' into a group_reporting total), and the
 * small questions reports ask of a result.
 *
 * Design: a worker fills only its own struct wl_result while it runs, so
 * nothing on the completion path is shared; once the group's threads are
 * joined, run_collect merges them in the order of the jobs and clones.
 * Histograms and series are summed; the first error and the first bad
 * block are kept; CPU time is the process's, not added up.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "workload/run_priv.h"

/*
 * slat and clat apart (run.h): kept only while every part has them; a part
 * without them (another engine) leaves the sum with none, so clat falls
 * back to the whole latency rather than counting some requests only.
 */
static void run_merge_sc(struct wl_dir_result *dst, const struct wl_dir_result *src,
                         uint64_t before)
{
	if (!src->sc) {
		if (dst->sc && src->hist.count) {
			free(dst->sc);
			dst->sc = NULL;
		}
		return;
	}
	if (!dst->sc) {
		if (before)
			return; /* a part without them came first */
		dst->sc = calloc(2, sizeof(struct st_hist));
		if (!dst->sc)
			return;
		st_hist_init(&dst->sc[0]);
		st_hist_init(&dst->sc[1]);
	}
	st_hist_merge(&dst->sc[0], &src->sc[0]);
	st_hist_merge(&dst->sc[1], &src->sc[1]);
}

void run_merge(struct wl_result *dst, const struct wl_result *src)
{
	for (int d = 0; d < WL_DIRS; d++) {
		uint64_t before = dst->dir[d].hist.count;
		dst->dir[d].ios += src->dir[d].ios;
		if (src->dir[d].runtime_ns > dst->dir[d].runtime_ns)
			dst->dir[d].runtime_ns = src->dir[d].runtime_ns;
		dst->dir[d].bytes += src->dir[d].bytes;
		st_hist_merge(&dst->dir[d].hist, &src->dir[d].hist);
		if (!dst->dir[d].series.interval_ns)
			st_series_init(&dst->dir[d].series, src->dir[d].series.interval_ns,
			               src->dir[d].series.start_ns, src->dir[d].series.n);
		/* Workers start within microseconds of each other: intervals line up. */
		st_series_merge(&dst->dir[d].series, &src->dir[d].series);
		if (src->dir[d].lat.interval_ns) {
			if (!dst->dir[d].lat.interval_ns)
				st_series_init(&dst->dir[d].lat, src->dir[d].lat.interval_ns,
				               src->dir[d].lat.start_ns, src->dir[d].lat.n);
			st_series_merge(&dst->dir[d].lat, &src->dir[d].lat);
		}
		if (src->dir[d].lat_cmd.interval_ns) {
			if (!dst->dir[d].lat_cmd.interval_ns)
				st_series_init(&dst->dir[d].lat_cmd,
				               src->dir[d].lat_cmd.interval_ns,
				               src->dir[d].lat_cmd.start_ns, src->dir[d].lat_cmd.n);
			st_series_merge(&dst->dir[d].lat_cmd, &src->dir[d].lat_cmd);
		}
		(void)st_histlog_merge(&dst->dir[d].histlog, &src->dir[d].histlog);
		if (src->dir[d].prio_hist) {
			if (!dst->dir[d].prio_hist) {
				dst->dir[d].prio_hist = calloc(2, sizeof(struct st_hist));
				if (dst->dir[d].prio_hist) {
					st_hist_init(&dst->dir[d].prio_hist[0]);
					st_hist_init(&dst->dir[d].prio_hist[1]);
				}
			}
			for (int k = 0; dst->dir[d].prio_hist && k < 2; k++)
				st_hist_merge(&dst->dir[d].prio_hist[k], &src->dir[d].prio_hist[k]);
		}
		run_merge_sc(&dst->dir[d], &src->dir[d], before);
	}
	if ((src->errors || src->cont_errors) && !dst->errors && !dst->cont_errors) {
		dst->first_error = src->first_error;
		dst->first_error_offset = src->first_error_offset;
		dst->first_error_op = src->first_error_op;
	}
	dst->errors += src->errors;
	dst->cont_errors += src->cont_errors;
	dst->flushes += src->flushes;
	dst->fsyncs += src->fsyncs;
	for (int k = 0; k < 7; k++) {
		dst->batch_submit[k] += src->batch_submit[k];
		dst->batch_complete[k] += src->batch_complete[k];
	}
	st_hist_merge(&dst->sync_hist, &src->sync_hist);
	if (src->verified)
		dst->verified = true;
	dst->verify_blocks += src->verify_blocks;
	if (src->verify_bad &&
	    (!dst->verify_bad || src->verify_first_bad < dst->verify_first_bad)) {
		dst->verify_first_bad = src->verify_first_bad;
		memcpy(dst->verify_msg, src->verify_msg, sizeof(dst->verify_msg));
	}
	dst->verify_bad += src->verify_bad;
	if (!dst->note[0] && src->note[0])
		memcpy(dst->note, src->note, sizeof(dst->note));
	if (src->lat_depth && !dst->lat_depth)
		dst->lat_depth = src->lat_depth;
	if (src->ss && !dst->ss)
		dst->ss = wl_ss_report_dup(src->ss);
}

/*
 * Each worker's CPU figures (run_group_wait's order: user s, system s,
 * context switches, major and minor faults) into its thread_cpu: its
 * thread's, plus an equal share of what the process's other threads spent
 * (@cpu, the process's less the watching main thread's, less every
 * worker's thread: io_uring's workers, and the disk statistics sampler,
 * one wake every 250 ms, which fio has in its main process) among the
 * workers that do I/O; a cpuio or exec job keeps its thread's alone.
 * fio's jobs are processes and each counts its own, io_uring's workers
 * included.  Returns false when some worker has no thread of its
 * own (the virtual executor): the figures are then the process's.
 */
static bool run_cpu_split(struct run_worker *ws, unsigned n, const double cpu[5])
{
	double rest[5];
	unsigned io = 0;

	for (unsigned k = 0; k < n; k++)
		if (!ws[k].has_thread_cpu)
			return false;
	for (int f = 0; f < 5; f++) {
		rest[f] = cpu[f];
		for (unsigned k = 0; k < n; k++)
			rest[f] -= ws[k].thread_cpu[f];
		if (rest[f] < 0)
			rest[f] = 0;
	}
	for (unsigned k = 0; k < n; k++)
		io += !ws[k].noio;
	for (unsigned k = 0; io && k < n; k++)
		for (int f = 0; f < 5 && !ws[k].noio; f++)
			ws[k].thread_cpu[f] += rest[f] / io;
	return true;
}

/*
 * @res's CPU figures: the sum over its @n workers from @w when each has its
 * own (@own), else the process's @cpu.
 */
static void run_set_cpu(struct wl_result *res, const struct run_worker *w, unsigned n, bool own,
                        const double cpu[5])
{
	double sum[5] = {0};

	res->cpu_runtime_ns = 0;
	if (own) {
		for (unsigned k = 0; k < n; k++) {
			for (int f = 0; f < 5; f++)
				sum[f] += w[k].thread_cpu[f];
			/* the wall time of the thread's CPU window, as fio divides by
			   its job's whole time (cache drop, ramp and verify included) */
			res->cpu_runtime_ns += w[k].cpu_wall_ns;
		}
	} else {
		memcpy(sum, cpu, sizeof(sum));
		res->cpu_runtime_ns = res->runtime_ns + res->verify_ns;
	}
	res->cpu_own = own;
	res->cpu_user_s = sum[0];
	res->cpu_sys_s = sum[1];
	res->ctx = (uint64_t)sum[2];
	res->majf = (uint64_t)sum[3];
	res->minf = (uint64_t)sum[4];
}

/*
 * The hand-off: each job's result from its workers' (@parts, in the order
 * of @items and their clones), with the measured runtime, latency_target's
 * depth, the steady state window, each clone's own result when asked for,
 * rate_min, each job's CPU time (run_cpu_split) and the target's report.
 */
void run_collect(struct wl_run_item *items, size_t nitems, struct run_worker *ws,
                 struct wl_result *parts, const double cpu[5])
{
	unsigned w = 0, nw = 0;

	for (size_t i = 0; i < nitems; i++)
		nw += items[i].res->job.numjobs;
	bool own = run_cpu_split(ws, nw, cpu);

	for (size_t i = 0; i < nitems; i++) {
		struct wl_result *res = items[i].res;
		uint64_t runtime = 0;
		for (unsigned k = 0; k < res->job.numjobs; k++, w++) {
			uint64_t r =
			    ws[w].t_last > ws[w].t_measure ? ws[w].t_last - ws[w].t_measure : 0;
			if (r > runtime)
				runtime = r;
			if (ws[w].v_span > res->verify_ns)
				res->verify_ns = ws[w].v_span;
			if (ws[w].lat_on && !parts[w].lat_depth)
				parts[w].lat_depth = ws[w].lat.qd;
			if (ws[w].ss && (k == 0 || !res->job.group_reporting))
				parts[w].ss = wl_ss_report(ws[w].ss);
			run_merge(res, &parts[w]);
			(void)st_unitlog_merge(&res->unitlog, &parts[w].unitlog);
		}
		res->runtime_ns = runtime;
		st_unitlog_sort(&res->unitlog); /* the clones' records, in completion order */
		for (unsigned k = 0; items[i].clones && k < res->job.numjobs; k++) {
			struct wl_result *c = &items[i].clones[k];
			struct run_worker *cw = &ws[w - res->job.numjobs + k];
			wl_result_init(c, &res->job);
			c->job.numjobs = 1;
			c->clock = res->clock;
			run_merge(c, cw->res);
			(void)st_unitlog_merge(&c->unitlog, &cw->res->unitlog);
			c->runtime_ns = cw->t_last > cw->t_measure ? cw->t_last - cw->t_measure : 0;
			c->verify_ns = cw->v_span;
			run_set_cpu(c, cw, 1, own, cpu);
		}
		for (int d = 0; d < WL_DIRS; d++)
			if (res->job.rate_min[d] && res->dir[d].ios &&
			    wl_result_bw(res, (enum rl_op)d) < (double)res->job.rate_min[d] &&
			    !res->rate_min_missed)
				res->rate_min_missed = d + 1;
		run_set_cpu(res, &ws[w - res->job.numjobs], res->job.numjobs, own, cpu);
		res->target_report = rl_target_report(items[i].targets[0]);
	}
}

void wl_result_init(struct wl_result *res, const struct wl_job *job)
{
	memset(res, 0, sizeof(*res));
	res->job = *job;
	for (int d = 0; d < WL_DIRS; d++)
		st_hist_init(&res->dir[d].hist);
	st_hist_init(&res->sync_hist);
}

void wl_result_merge(struct wl_result *dst, const struct wl_result *src)
{
	bool first = !dst->runtime_ns && !dst->dir[0].ios && !dst->dir[1].ios && !dst->dir[2].ios;

	run_merge(dst, src);
	(void)st_unitlog_merge(&dst->unitlog, &src->unitlog);
	st_unitlog_sort(&dst->unitlog);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	if (src->verify_ns > dst->verify_ns)
		dst->verify_ns = src->verify_ns;
	dst->clock = src->clock;
	if (!dst->rate_min_missed)
		dst->rate_min_missed = src->rate_min_missed;
	if (first) {
		dst->cpu_user_s = src->cpu_user_s;
		dst->cpu_sys_s = src->cpu_sys_s;
		dst->cpu_runtime_ns = src->cpu_runtime_ns;
		dst->cpu_own = src->cpu_own;
		dst->ctx = src->ctx;
		dst->majf = src->majf;
		dst->minf = src->minf;
	} else if (dst->cpu_own && src->cpu_own) { /* each job's own: they add up, as fio's */
		dst->cpu_user_s += src->cpu_user_s;
		dst->cpu_sys_s += src->cpu_sys_s;
		dst->cpu_runtime_ns += src->cpu_runtime_ns;
		dst->ctx += src->ctx;
		dst->majf += src->majf;
		dst->minf += src->minf;
	}
	if (!dst->target_report && src->target_report)
		dst->target_report = json_object_get(src->target_report);
}

bool wl_result_ok(const struct wl_result *res)
{
	return !res->errors && !res->verify_bad && !res->rate_min_missed;
}

void wl_result_free(struct wl_result *res)
{
	for (int d = 0; d < WL_DIRS; d++) {
		st_series_free(&res->dir[d].series);
		st_series_free(&res->dir[d].lat);
		st_series_free(&res->dir[d].lat_cmd);
		st_histlog_free(&res->dir[d].histlog);
		free(res->dir[d].prio_hist);
		res->dir[d].prio_hist = NULL;
		free(res->dir[d].sc);
		res->dir[d].sc = NULL;
	}
	if (res->target_report)
		json_object_put(res->target_report);
	res->target_report = NULL;
	wl_ss_report_free(res->ss);
	res->ss = NULL;
	st_unitlog_free(&res->unitlog);
}

uint64_t wl_result_runtime(const struct wl_result *res, enum rl_op d)
{
	return res->dir[d].runtime_ns ? res->dir[d].runtime_ns : res->runtime_ns;
}

double wl_result_bw(const struct wl_result *res, enum rl_op d)
{
	uint64_t rt = wl_result_runtime(res, d);
	return rt ? (double)res->dir[d].bytes * 1e9 / (double)rt : 0;
}

/* As fio: a direction that moved no bytes (cpuio, exec) has no runtime, so no IOPS. */
double wl_result_iops(const struct wl_result *res, enum rl_op d)
{
	uint64_t rt = wl_result_runtime(res, d);
	return rt && res->dir[d].bytes ? (double)res->dir[d].ios * 1e9 / (double)rt : 0;
}
