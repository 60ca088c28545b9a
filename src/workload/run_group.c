/*
 * run_group.c - the group runner and the public entry points: check a job
 * against its target, resolve what depends on the target, build a worker
 * for every clone of every job, start their threads together, show
 * progress, and hand the workers' results to run_result.c.
 *
 * Design: the calling thread only prepares, watches and collects; the
 * workers run on their own threads (run_worker.c).  Each step of
 * wl_run_group is one function over struct run_group, so an error at any
 * step frees the same way.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "workload/run_priv.h"

static void run_progress(struct run_worker *ws, unsigned n, const struct wl_run_opts *opts,
                         bool virtual_time, double wall, const struct wl_result *snaps)
{
	const struct wl_job *job = ws[0].job;
	struct wl_progress p = {
	    .job = job, .virtual_time = virtual_time, .wall_s = wall, .snaps = snaps};
	double frac_sum = 0;
	int phase = 2;
	struct wl_progress_worker *per = calloc(n, sizeof(*per));

	for (unsigned i = 0; i < n; i++) {
		struct run_worker *w = &ws[i];
		uint64_t b = atomic_load_explicit(&w->prog_bytes, memory_order_relaxed);
		uint64_t e = atomic_load_explicit(&w->prog_elapsed, memory_order_relaxed);
		int ph = atomic_load_explicit(&w->prog_phase, memory_order_relaxed);
		double f = 0;
		p.bytes += b;
		p.read_bytes += atomic_load_explicit(&w->prog_rbytes, memory_order_relaxed);
		p.ios += atomic_load_explicit(&w->prog_ios, memory_order_relaxed);
		if (e / 1e9 > p.elapsed_s)
			p.elapsed_s = e / 1e9;
		if (per) {
			per[i].job = w->job;
			per[i].bytes = b;
			per[i].read_bytes =
			    atomic_load_explicit(&w->prog_rbytes, memory_order_relaxed);
			per[i].elapsed_s = e / 1e9;
		}
		if (w->budget)
			f = (double)b / (double)w->budget;
		if (w->job->runtime_ns) {
			double ft = (double)e / (double)w->job->runtime_ns;
			if (ft > f)
				f = ft;
		}
		if (ph == 2 || atomic_load_explicit(&w->finished, memory_order_relaxed))
			f = 1.0;
		frac_sum += f > 1.0 ? 1.0 : f;
		if (ph < phase)
			phase = ph;
	}
	p.fraction = frac_sum / n;
	p.phase = phase == 0 ? "ramp" : phase == 1 ? "run" : "verify";
	p.njobs = n;
	p.workers = per;
	opts->progress(opts->progress_arg, &p);
	free(per);
}

/*
 * The group's CPU figures since @u0 was read (run_usage_mark): user s,
 * system s, context switches, major and minor faults of the process less
 * those of the thread that runs the group.  That thread only waits and
 * watches, as fio's main process does, whose figures are in no job's;
 * the rest (the job threads, io_uring's workers for them) is the jobs'.
 * Call both from the group's thread.
 */
struct run_usage {
	struct rusage self, main;
};

static void run_usage_mark(struct run_usage *u)
{
	getrusage(RUSAGE_SELF, &u->self);
	getrusage(RUSAGE_THREAD, &u->main);
}

static void run_usage_since(const struct run_usage *u0, double cpu[5])
{
	struct run_usage u;
	double main[5];

	run_usage_mark(&u);
	run_rusage_diff(&u0->self, &u.self, cpu);
	run_rusage_diff(&u0->main, &u.main, main);
	for (int f = 0; f < 5; f++)
		cpu[f] = cpu[f] > main[f] ? cpu[f] - main[f] : 0;
}

static double run_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* io_uring rings hold at most 32768 submission entries (IORING_MAX_ENTRIES). */
#define RUN_URING_DEPTH_MAX 32768u

int wl_run_check(struct rl_target *t, const struct wl_job *job, char *msg, size_t msglen)
{
	bool virt = rl_target_leaf_caps(t) & RL_CAP_VIRTUAL;
	enum rl_exec_kind kind = virt ? RL_EXEC_VIRTUAL : wl_engine_exec(job->engine);
	unsigned n = job->numjobs;

	/* The last worker's region lies highest (offset_increment moves each one up). */
	uint64_t last = job->offset + (uint64_t)(n - 1) * job->offset_increment;
	bool dirs;
	if (wl_engine_fileop(job->engine, &dirs))
		last = 0; /* one request per entry: size and offset do not apply (run_prepare) */
	else if (last >= t->size) { /* a size past the end is fitted in run_prepare */
		snprintf(msg, msglen,
		         "job '%s': offset %llu + size %llu is beyond the end of the target "
		         "(%llu bytes)%s",
		         job->name, (unsigned long long)last, (unsigned long long)job->size,
		         (unsigned long long)t->size,
		         job->offset_increment && n > 1
		             ? " for the last of numjobs (offset_increment)"
		             : "");
		return -EINVAL;
	}
	/* Sizes the target or the engine cannot take fail here, named, not at I/O time. */
	uint32_t blk = rl_target_block_for(t, !job->direct);
	for (int d = 0; d < WL_DIRS; d++) {
		unsigned ns;
		const struct wl_bssplit *split = wl_job_bssplit(job, d, &ns);
		for (unsigned i = 0; i < (ns ? ns : 1); i++) {
			uint32_t bs = ns ? split[i].bs : job->bs;
			if (bs % blk) {
				snprintf(
				    msg, msglen,
				    "job '%s': %s=%u is not a multiple of the target's logical "
				    "block size (%u bytes)",
				    job->name, ns ? "bssplit" : "bs", bs, blk);
				return -EINVAL;
			}
		}
	}
	if (job->offset % blk || job->offset_increment % blk) {
		snprintf(
		    msg, msglen,
		    "job '%s': %s=%llu is not a multiple of the target's logical block size "
		    "(%u bytes)",
		    job->name, job->offset % blk ? "offset" : "offset_increment",
		    (unsigned long long)(job->offset % blk ? job->offset : job->offset_increment),
		    blk);
		return -EINVAL;
	}
	if (kind == RL_EXEC_URING && job->iodepth > RUN_URING_DEPTH_MAX) {
		snprintf(msg, msglen,
		         "job '%s': iodepth=%u: ioengine=%s runs on an io_uring ring, which keeps "
		         "at most %u requests in flight per job (use numjobs for more%s)",
		         job->name, job->iodepth,
		         job->engine_name[0] ? job->engine_name : "io_uring", RUN_URING_DEPTH_MAX,
		         job->engine == WL_ENGINE_NBD ? "" : ", or ioengine=psync");
		return -EINVAL;
	}
	if (wl_engine_io_flags(job->engine) && strcmp(t->ops->name, "file")) {
		snprintf(msg, msglen,
		         "job '%s': ioengine=%s makes system calls on one file or device "
		         "(filename=, nrfiles=1), not on a %s() target",
		         job->name, job->engine_name, t->ops->name);
		return -EINVAL;
	}
	if (job->rw >= WL_RW_TRIM && !(t->caps & RL_CAP_TRIM)) {
		snprintf(msg, msglen, "job '%s': the target does not support trim", job->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

static enum rl_exec_kind run_kind(const struct wl_job *job, bool virt)
{
	return virt ? RL_EXEC_VIRTUAL : wl_engine_exec(job->engine);
}

/*
 * Resolve what depends on the target (size=N%, offset=N%, randrepeat=0)
 * into @res->job and check the region of every clone.
 */
static int run_prepare(const struct wl_run_item *it, char *msg, size_t msglen)
{
	struct wl_job *job = &it->res->job;
	struct rl_target *t0 = it->targets[0];

	*job = *it->job;
	unsigned n = job->numjobs;
	bool dirs;
	if (wl_engine_fileop(job->engine, &dirs)) {
		/* one request per entry, whatever size says (fio sizes each file to bs) */
		job->size = job->offset = job->offset_increment = 0;
		job->size_pct = job->offset_pct = 0;
	}
	if (job->offset_pct)
		job->offset = t0->size / 100 * job->offset_pct / WL_BS_MIN * WL_BS_MIN;
	if (job->size_pct) {
		uint64_t room = t0->size > job->offset ? t0->size - job->offset : 0;
		job->size = room / 100 * job->size_pct / WL_BS_MIN * WL_BS_MIN;
		if (!job->size) {
			snprintf(msg, msglen,
			         "job '%s': size=%u%% of the target is less than one block",
			         job->name, job->size_pct);
			return -EINVAL;
		}
	}
	int rc = run_trace_depth(job, msg, msglen);
	if (rc)
		return rc;
	if (!job->randrepeat) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		job->seed ^= (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	for (unsigned k = 0; k < n; k++) {
		struct rl_target *t = it->targets[k];
		/* offset_increment moves clone k up */
		uint64_t start = job->offset + (uint64_t)k * job->offset_increment;
		if (start >= t->size) {
			snprintf(
			    msg, msglen,
			    "job '%s': offset %llu + size %llu is beyond the end of the target "
			    "(%llu bytes)%s",
			    job->name, (unsigned long long)start, (unsigned long long)job->size,
			    (unsigned long long)t->size,
			    job->offset_increment && n > 1
			        ? " for the last of numjobs (offset_increment)"
			        : "");
			return -EINVAL;
		}
		/* a region running past the end of its file is cut to fit, as fio does:
		   per clone, in run_worker_setup (the job is every clone's) */
		if (job->rw >= WL_RW_TRIM && !(t->caps & RL_CAP_TRIM)) {
			snprintf(msg, msglen, "job '%s': the target does not support trim",
			         job->name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* The state of one wl_run_group call. */
struct run_group {
	unsigned n, nthreads; /* workers (every clone of every job), threads */
	bool virt;            /* simulated targets: one thread in virtual time */
	struct run_worker *ws, **wptrs;
	struct wl_result *parts; /* each worker's own result */
	struct run_thread *ths;
	pthread_t *tids;
	pthread_barrier_t barrier;
	atomic_bool group_stop;
	atomic_uint io_left; /* workers doing I/O that have not finished (exit_on_io_done) */
	int done_fd;         /* eventfd the threads write as they finish, or -1 */
	struct wl_flow_set *flows;
	struct wl_ss *sss; /* steady state: one per worker, shared with group_reporting */
};

/*
 * Resolve every job against its targets, count the workers and choose the
 * clock: simulated and real targets cannot run at the same time.
 */
static int run_group_prepare(struct run_group *g, struct wl_run_item *items, size_t nitems,
                             char *msg, size_t msglen)
{
	bool real = false;

	for (size_t i = 0; i < nitems; i++) {
		struct wl_result *res = items[i].res;
		memset(res, 0, sizeof(*res));
		for (int d = 0; d < WL_DIRS; d++)
			st_hist_init(&res->dir[d].hist);
		st_hist_init(&res->sync_hist);
	}
	for (size_t i = 0; i < nitems; i++) {
		int rc = run_prepare(&items[i], msg, msglen);
		if (rc)
			return rc;
		g->n += items[i].job->numjobs;
		for (unsigned k = 0; k < items[i].job->numjobs; k++) {
			if (rl_target_leaf_caps(items[i].targets[k]) & RL_CAP_VIRTUAL)
				g->virt = true;
			else
				real = true;
		}
	}
	if (!g->n)
		return 0;
	if (g->virt && real) {
		snprintf(msg, msglen,
		         "jobs that run at the same time cannot mix simulated and real targets "
		         "(separate them with stonewall)");
		return -EINVAL;
	}
	for (size_t i = 0; i < nitems; i++)
		items[i].res->clock = run_kind(&items[i].res->job, g->virt);
	g->nthreads = g->virt ? 1 : g->n;
	return 0;
}

static int run_group_alloc(struct run_group *g)
{
	g->ws = calloc(g->n, sizeof(*g->ws));
	g->parts = calloc(g->n, sizeof(*g->parts));
	g->ths = calloc(g->nthreads, sizeof(*g->ths));
	g->tids = calloc(g->nthreads, sizeof(*g->tids));
	g->wptrs = calloc(g->n, sizeof(*g->wptrs));
	g->flows = calloc(1, sizeof(*g->flows));
	g->sss = calloc(g->n, sizeof(*g->sss));
	if (!g->ws || !g->parts || !g->ths || !g->tids || !g->wptrs || !g->flows || !g->sss)
		return -ENOMEM;
	return 0;
}

/* Worker @w is clone @k of @job. */
static int run_group_worker(struct run_group *g, unsigned w, const struct wl_job *job, unsigned k,
                            struct rl_target *t, char *msg, size_t msglen)
{
	struct run_worker *wk = &g->ws[w];

	wk->job = job;
	wk->group_stop = &g->group_stop;
	wk->io_left = &g->io_left;
	wk->noio = wl_engine_noio(job->engine);
	if (!wk->noio)
		atomic_fetch_add(&g->io_left, 1);
	wk->t = t;
	wk->index = k;
	wk->res = &g->parts[w];
	wk->seed = job->seed + 0x9e3779b97f4a7c15ull * (k + 1);
	wk->data_seed = job->seed;
	wk->sync_every = job->fsync_n;
	for (int d = 0; d < WL_DIRS; d++)
		if (job->rate[d] || job->rate_iops[d])
			wk->paced = true;
	if (job->fdatasync_n && (!wk->sync_every || job->fdatasync_n < wk->sync_every))
		wk->sync_every = job->fdatasync_n;
	wk->sync_full = job->fsync_n && wk->sync_every == job->fsync_n;
	wk->gindex = w;
	if (job->flow) {
		wk->flow = wl_flow_join(g->flows, job->flow_id, job->flow);
		if (!wk->flow) {
			snprintf(msg, msglen,
			         "job '%s': flow_id: more than %d flow groups run at the same time",
			         job->name, WL_FLOW_MAX);
			return -EINVAL;
		}
	}
	if (job->ss_dur_ns) {
		if (k == 0 || !job->group_reporting) {
			int rc = wl_ss_init(&g->sss[w], job);
			if (rc)
				return rc;
			wk->ss = &g->sss[w];
		} else {
			wk->ss = g->ws[w - k].ss; /* judged together */
		}
	}
	g->wptrs[w] = wk;
	return 0;
}

/* A worker for every clone of every job. */
static int run_group_workers(struct run_group *g, struct wl_run_item *items, size_t nitems,
                             char *msg, size_t msglen)
{
	unsigned w = 0, ndedupe = 0;

	for (size_t i = 0; i < nitems; i++) {
		const struct wl_job *job = &items[i].res->job;
		for (unsigned k = 0; k < job->numjobs; k++, w++) {
			if (job->dedupe_pct && job->dedupe_global)
				g->ws[w].dedupe_index = ndedupe++;
			int rc = run_group_worker(g, w, job, k, items[i].targets[k], msg, msglen);
			if (rc)
				return rc;
		}
	}
	for (unsigned i = 0; i < g->n; i++)
		g->ws[i].dedupe_count = ndedupe;
	return 0;
}

static int run_group_start(struct run_group *g, char *msg, size_t msglen)
{
	pthread_barrier_init(&g->barrier, NULL, g->nthreads + 1);
	g->done_fd = eventfd(0, EFD_CLOEXEC); /* -1: the watch falls back to its naps */
	for (unsigned i = 0; i < g->nthreads; i++) {
		struct run_thread *th = &g->ths[i];
		th->done_fd = g->done_fd;
		th->ws = g->virt ? g->wptrs : &g->wptrs[i];
		th->n = g->virt ? g->n : 1;
		th->kind = g->virt ? RL_EXEC_VIRTUAL : run_kind(g->ws[i].job, false);
		th->barrier = &g->barrier;
		if (pthread_create(&g->tids[i], NULL, run_thread_main, th)) {
			/* Cannot happen with sane limits; stop cleanly if it does. */
			snprintf(msg, msglen, "cannot start worker thread %u", i);
			for (unsigned j = 0; j < i; j++)
				pthread_cancel(g->tids[j]);
			return -EAGAIN;
		}
	}
	return 0;
}

static unsigned run_group_finished(const struct run_group *g)
{
	unsigned done = 0;
	for (unsigned i = 0; i < g->n; i++)
		done += atomic_load(&g->ws[i].finished);
	return done;
}

/*
 * Every worker's figures so far, for wl_progress.snaps: each running worker
 * copies its result at its next look around (run_worker_publish), within a
 * second; a finished one's is final.  CPU is the group's since @u0.
 * The copies are the workers' again once the progress call returns.
 */
static void run_progress_snap(struct run_group *g, const struct wl_run_opts *opts, double wall,
                              const struct run_usage *u0)
{
	struct wl_result *snaps = calloc(g->n, sizeof(*snaps));
	struct timespec ts = {0, 1000 * 1000};
	double cpu[5];

	for (unsigned i = 0; i < g->n; i++)
		atomic_store(&g->ws[i].snap_state, 1);
	for (int tries = 0; tries < 1000; tries++) {
		unsigned waiting = 0;
		for (unsigned i = 0; i < g->n; i++)
			waiting += atomic_load(&g->ws[i].snap_state) == 1 &&
			           !atomic_load(&g->ws[i].finished);
		if (!waiting)
			break;
		nanosleep(&ts, NULL);
	}
	run_usage_since(u0, cpu);
	for (unsigned i = 0; snaps && i < g->n; i++) {
		struct run_worker *w = &g->ws[i];
		bool done = atomic_load(&w->finished);
		wl_result_init(&snaps[i], w->job);
		if (done || atomic_load(&w->snap_state) == 2)
			wl_result_merge(&snaps[i], done ? w->res : &w->snap);
		if (done)
			snaps[i].runtime_ns =
			    w->t_last > w->t_measure ? w->t_last - w->t_measure : 0;
		snaps[i].cpu_user_s = cpu[0];
		snaps[i].cpu_sys_s = cpu[1];
		snaps[i].ctx = (uint64_t)cpu[2];
		snaps[i].majf = (uint64_t)cpu[3];
		snaps[i].minf = (uint64_t)cpu[4];
	}
	for (unsigned i = 0; i < g->n; i++) {
		int two = 2;
		atomic_compare_exchange_strong(&g->ws[i].snap_state, &two, 0);
	}
	if (snaps)
		run_progress(g->ws, g->n, opts, g->virt, wall, snaps);
	for (unsigned i = 0; snaps && i < g->n; i++)
		wl_result_free(&snaps[i]);
	free(snaps);
}

/*
 * Wait @secs (< 0: until then), or less if a thread finishes meanwhile (its
 * write to the group's eventfd), so a short job is not held to the progress
 * line's pace: a simulated test that computes in 2 ms used to end 50 ms
 * later.  Without the eventfd, naps of at most 50 ms.
 */
static void run_group_nap(struct run_group *g, double secs)
{
	if (g->done_fd < 0) {
		struct timespec ts = {0, (long)((secs < 0 || secs > 0.05 ? 0.05 : secs) * 1e9)};
		nanosleep(&ts, NULL);
		return;
	}
	struct pollfd p = {.fd = g->done_fd, .events = POLLIN};
	uint64_t n;
	if (poll(&p, 1, secs < 0 ? -1 : (int)(secs * 1000 + 0.999)) > 0)
		(void)!read(g->done_fd, &n, sizeof(n));
}

/*
 * Until every worker has finished: the progress line about 4 times a
 * second (and at least once, however short the job), and every
 * snapshot_ns from the start a call with the workers' figures
 * (run_progress_snap), on time as fio's --status-interval.
 */
static void run_group_watch(struct run_group *g, const struct wl_run_opts *opts, bool report,
                            double t0, const struct run_usage *u0)
{
	bool on = opts && opts->progress && report;
	double every = on && opts->snapshot_ns ? opts->snapshot_ns / 1e9 : 0;
	double next_snap = every, last = -1;

	while (run_group_finished(g) != g->n) {
		double wall = run_wall_now() - t0;
		if (every && wall >= next_snap) {
			while (next_snap <= wall)
				next_snap += every;
			run_progress_snap(g, opts, wall, u0);
			last = wall;
		} else if (on && (last < 0 || wall - last >= 0.25)) {
			run_progress(g->ws, g->n, opts, g->virt, wall, NULL);
			last = wall;
		}
		/* wake only when something is due: a watcher that woke every 50 ms
		   with nothing to show preempted the jobs' threads on a small
		   machine (25-34 context switches a second in a 1 s psync job,
		   against fio's 5-11) */
		double nap = INFINITY; /* nothing due: until a thread finishes */
		if (on)
			nap = last + 0.25 - wall;
		if (every && next_snap - wall < nap)
			nap = next_snap - wall;
		run_group_nap(g, isinf(nap) ? -1 : nap > 0.001 ? nap : 0.001);
	}
	/* a job done before the first look still shows once, complete */
	if (on && last < 0)
		run_progress(g->ws, g->n, opts, g->virt, run_wall_now() - t0, NULL);
}

/*
 * Release the threads once all are set up (or report the first setup
 * error, and they stop), watch them and collect their exit status; the
 * group's CPU figures over the run (run_usage_since) go into @cpu.
 */
static int run_group_wait(struct run_group *g, const struct wl_run_opts *opts, double cpu[5],
                          char *msg, size_t msglen)
{
	struct run_usage u0;
	int rc = 0;

	pthread_barrier_wait(&g->barrier); /* all set up */
	run_usage_mark(&u0);
	for (unsigned i = 0; i < g->n; i++)
		if (g->ws[i].setup_error && !rc) {
			rc = g->ws[i].setup_error;
			snprintf(msg, msglen, "%s", g->ws[i].setup_msg);
		}
	double t0 = run_wall_now();
	pthread_barrier_wait(&g->barrier); /* go (or stop, if setup failed) */
	run_group_watch(g, opts, !rc, t0, &u0);
	for (unsigned i = 0; i < g->nthreads; i++) {
		pthread_join(g->tids[i], NULL);
		if (g->ths[i].rc && !rc) {
			rc = g->ths[i].rc;
			snprintf(msg, msglen, "job '%s' failed: %s", g->ths[i].ws[0]->job->name,
			         strerror(-rc));
		}
	}
	run_usage_since(&u0, cpu);
	pthread_barrier_destroy(&g->barrier);
	return rc;
}

static void run_group_free(struct run_group *g)
{
	if (g->done_fd >= 0)
		close(g->done_fd);
	for (unsigned i = 0; g->parts && g->ws && i < g->n; i++) {
		for (int d = 0; d < WL_DIRS; d++) {
			st_series_free(&g->parts[i].dir[d].series);
			st_series_free(&g->parts[i].dir[d].lat);
			st_series_free(&g->parts[i].dir[d].lat_cmd);
			st_histlog_free(&g->parts[i].dir[d].histlog);
			free(g->parts[i].dir[d].prio_hist);
			free(g->parts[i].dir[d].sc);
		}
		wl_ss_report_free(g->parts[i].ss);
		st_unitlog_free(&g->parts[i].unitlog);
		if (g->sss)
			wl_ss_free(&g->sss[i]);
		wl_result_free(&g->ws[i].snap);
		free(g->ws[i].bufmem);
		free(g->ws[i].slots);
		wl_trace_free(&g->ws[i].trace);
		run_files_free(&g->ws[i]);
		free(g->ws[i].bl);
	}
	free(g->wptrs);
	free(g->flows);
	free(g->sss);
	free(g->ws);
	free(g->parts);
	free(g->ths);
	free(g->tids);
}

int wl_run_group(struct wl_run_item *items, size_t nitems, const struct wl_run_opts *opts,
                 char *msg, size_t msglen)
{
	struct run_group g = {.group_stop = false, .done_fd = -1};
	double cpu[5]; /* user s, sys s, context switches, major, minor faults */
	int rc = run_group_prepare(&g, items, nitems, msg, msglen);

	if (rc || !g.n)
		return rc;
	rc = run_group_alloc(&g);
	if (!rc)
		rc = run_group_workers(&g, items, nitems, msg, msglen);
	if (!rc)
		rc = run_group_start(&g, msg, msglen);
	if (!rc) {
		rc = run_group_wait(&g, opts, cpu, msg, msglen);
		/* write_iolog: each worker's requests, also those of a run that failed */
		for (unsigned i = 0; i < g.n; i++) {
			char lmsg[320];
			int lrc = run_files_write_log(&g.ws[i], lmsg, sizeof(lmsg));
			if (lrc && !rc) {
				rc = lrc;
				snprintf(msg, msglen, "%s", lmsg);
			}
		}
		if (!rc)
			run_collect(items, nitems, g.ws, g.parts, cpu);
	}
	run_group_free(&g);
	return rc;
}

int wl_run_job(struct rl_target *t, const struct wl_job *job, const struct wl_run_opts *opts,
               struct wl_result *res, char *msg, size_t msglen)
{
	struct rl_target *stack[64];
	struct rl_target **targets = stack;
	int rc = wl_run_check(t, job, msg, msglen);

	if (rc) {
		memset(res, 0, sizeof(*res));
		res->job = *job;
		for (int d = 0; d < WL_DIRS; d++)
			st_hist_init(&res->dir[d].hist);
		st_hist_init(&res->sync_hist);
		return rc;
	}
	if (job->numjobs > 64) {
		targets = calloc(job->numjobs, sizeof(*targets));
		if (!targets) {
			memset(res, 0, sizeof(*res));
			res->job = *job;
			return -ENOMEM;
		}
	}
	for (unsigned k = 0; k < job->numjobs; k++)
		targets[k] = t;
	struct wl_run_item it = {.job = job, .targets = targets, .res = res};
	rc = wl_run_group(&it, 1, opts, msg, msglen);
	if (targets != stack)
		free(targets);
	return rc;
}
