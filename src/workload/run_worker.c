/*
 * run_worker.c - one worker's setup and the thread that drives workers:
 * the slots and their buffers, the start (after startdelay), and the loop
 * that runs an executor until every worker on it is done.
 *
 * Design: a thread owns one executor; with a simulated target one thread
 * drives every worker of the group in virtual time, otherwise each worker
 * has its own thread (run_group.c decides).  A thread sets everything up
 * (executor, memory policy, buffers, priority, CPUs) before the common
 * start barrier, so a group either starts together or not at all; the
 * setup error and its message stay with the worker for the group runner to
 * report.  The stop flag set from signal handlers lives here too.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "workload/numa.h"
#include "workload/run_priv.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008 /* linux/fs.h */
#endif
#define RUN_RWF_DONTCACHE 0x00000080 /* linux/fs.h since 6.14: RWF_DONTCACHE */

/* Set from signal handlers: every worker stops issuing, as at its deadline. */
static atomic_bool run_stop;

void wl_run_request_stop(void)
{
	atomic_store_explicit(&run_stop, true, memory_order_relaxed);
	rl_target_stop_request(); /* a target waiting for a peer gives up too */
}

void wl_run_clear_stop(void)
{
	atomic_store(&run_stop, false);
	rl_target_stop_clear();
}

bool wl_run_stop_requested(void)
{
	return atomic_load_explicit(&run_stop, memory_order_relaxed);
}

/* --- worker setup and loop --- */

/*
 * The slots' buffers, in one region; @maxbs is the largest request.
 */
static int run_worker_buffers(struct run_worker *w, uint32_t maxbs)
{
	const struct wl_job *job = w->job;

	/*
	 * One region for every slot's buffer, placed as fio places it.  Where
	 * the buffers start matters even when nothing requires alignment: the
	 * kernel copies to and from the page cache measurably slower from a
	 * buffer 16 bytes past a page boundary, which is where malloc puts a
	 * large block and so where fio's buffered jobs have theirs.  So a job
	 * whose I/O reaches no O_DIRECT descriptor, with mem=malloc and no
	 * mem_align, takes malloc's address as fio does; otherwise the region
	 * is page aligned (plus mem_align).  With mem=mmaphuge the region
	 * (of any size) is aligned to and backed by transparent huge pages: a
	 * 1 MiB O_DIRECT request in 4 KiB pages needs up to 256 segments, more
	 * than many devices take in one request (virtio-blk: 254), so unless
	 * its pages happen to be physically contiguous it reaches the device
	 * split; in a huge page it is one segment, and sequential requests
	 * merge up to the device's largest request.
	 */
	bool dio = (rl_target_leaf_caps(w->t) & RL_CAP_DIRECT) != 0;
	if (dio && job->mem_align % w->t->block_size) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
		         "job '%s': mem_align=%u is not a multiple of %u, the O_DIRECT alignment "
		         "of its target",
		         job->name, job->mem_align, w->t->block_size);
		return -EINVAL;
	}
	size_t each, total;
	if (!dio && job->mem == WL_MEM_MALLOC && !job->mem_align) {
		each = maxbs;
		total = each * w->nslots;
		w->bufmem = malloc(total);
	} else {
		size_t align;
		each = ((size_t)maxbs + 4095) & ~(size_t)4095;
		total = each * w->nslots + job->mem_align;
		/* mmaphuge: a huge page even for one 1 MiB buffer (Q1T1) */
		align = total >= RUN_HUGE || job->mem == WL_MEM_HUGE ? RUN_HUGE : 4096;
		total = (total + align - 1) & ~(align - 1);
		if (posix_memalign((void **)&w->bufmem, align, total))
			w->bufmem = NULL;
		else if (align == RUN_HUGE && job->mem == WL_MEM_HUGE)
			(void)madvise(w->bufmem, total, MADV_HUGEPAGE);
	}
	if (!w->bufmem)
		return -ENOMEM;
	int rc = rl_exec_add_buffer(w->ex, w->bufmem, total);
	if (rc) {
		snprintf(
		    w->setup_msg, sizeof(w->setup_msg),
		    "job '%s': fixedbufs: the ring refused to register %zu bytes of buffers: %s%s",
		    job->name, total, strerror(-rc),
		    rc == -ENOMEM ? " (RLIMIT_MEMLOCK: see ulimit -l)" : "");
		return rc;
	}
	/*
	 * Scrambling keeps a real device from deduplicating the blocks.  In
	 * simulated time the host's work costs nothing, and a stack that keeps
	 * no data never looks at the bytes: there it would change no figure,
	 * only the wall time (a 1 MiB write touches its whole buffer).
	 */
	w->scramble = wl_buf_scrambles(job) && !(w->ex->kind == RL_EXEC_VIRTUAL &&
	                                         !w->ex->pace_slow && !(w->t->caps & RL_CAP_DATA));
	for (unsigned i = 0; i < w->nslots; i++) {
		struct run_slot *s = &w->slots[i];
		s->buf = w->bufmem + job->mem_align + i * each;
		wl_buf_fill(job, &w->buf_rng, s->buf, maxbs);
		s->w = w;
		s->io.buf = s->buf;
		s->io.cb = run_slot_done;
		s->io.cb_arg = s;
		s->io.ex = w->ex;
	}
	return 0;
}

static int run_worker_setup(struct run_worker *w)
{
	const struct wl_job *job = w->job;
	uint32_t minbs, maxbs;
	uint64_t start = job->offset + w->index * job->offset_increment;
	uint64_t len = job->size ? job->size : w->t->size - start;

	/* as fio: a region that starts in its file but runs past the end is cut to
	   fit (run_prepare refused one that starts past it); this clone's only */
	if (start < w->t->size && len > w->t->size - start)
		len = (w->t->size - start) / WL_BS_MIN * WL_BS_MIN;

	wl_job_bs_bounds(job, &minbs, &maxbs);
	if (job->read_iolog[0]) {
		int rc = run_trace_setup(w, &maxbs);
		if (rc)
			return rc;
	}
	if (job->verify && job->numjobs > 1 && !job->offset_increment) {
		/*
		 * Clones that verify split the region, so no block is written by
		 * two workers (their blocks could differ in size and contents).
		 */
		uint64_t share = len / job->numjobs / maxbs * maxbs;
		start += share * w->index;
		len = w->index + 1 == job->numjobs ? len - share * w->index : share;
	}
	if (wl_gen_init(&w->gen, job, start, len, rl_target_block_for(w->t, !job->direct),
	                w->seed)) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
		         "job '%s': the region (offset %llu, size %llu) holds no whole block of "
		         "%u bytes",
		         job->name, (unsigned long long)start, (unsigned long long)len,
		         w->gen.unit ? w->gen.unit : job->bs);
		return -EINVAL;
	}
	int frc = run_files_setup(w);
	if (frc)
		return frc;
	wl_rng_seed(&w->buf_rng, w->seed ^ 0xb5ad4eceda1ce2a9ull);
	if (job->dedupe_pct) /* unique blocks differ between jobs too: mix in the worker */
		wl_dedupe_init(&w->dedupe, job, w->gen.region_len,
		               w->seed ^ (uint64_t)w->gindex * 0xa0761d6478bd642full,
		               w->dedupe_index, w->dedupe_count);
	w->nslots = job->iodepth;
	w->depth = w->nslots;
	w->check_reads =
	    wl_verify_self_checked(job->verify) && job->do_verify && !wl_job_writes(job);
	w->lat_on = job->lat_target_ns > 0;
	w->slots = calloc(w->nslots, sizeof(*w->slots));
	if (!w->slots)
		return -ENOMEM;
	int rc = run_worker_buffers(w, maxbs);
	if (rc)
		return rc;
	/* io_size: that much per loop, within the region (wrapping round it if larger) */
	/* time_based without a runtime is fio's "runs its size once" (wl_job_time_based) */
	w->budget = wl_job_time_based(job)
	                ? 0
	                : (job->io_size ? job->io_size : w->gen.region_len) * job->loops;
	if (w->trace.n)
		w->budget = 0; /* the trace's end ends the job */
	for (int d = 0; d < WL_DIRS; d++)
		st_hist_init(&w->res->dir[d].hist);
	st_hist_init(&w->res->sync_hist);
	if (job->verify_backlog && run_reads_back(job)) {
		w->bl = calloc(job->verify_backlog, sizeof(*w->bl));
		if (!w->bl)
			return -ENOMEM;
	}
	w->io_flags = wl_engine_io_flags(job->engine) | (job->direct ? 0 : RL_IO_BUFFERED);
	w->cmdprio_on = job->cmdprio_pct[0] || job->cmdprio_pct[1] || job->ncmdprio_split[0] ||
	                job->ncmdprio_split[1];
	wl_rng_seed(&w->prio_rng, w->seed ^ 0x2545f4914f6cdd1dull);
	for (int d = 0; w->cmdprio_on && d < RL_OP_TRIM; d++) {
		w->res->dir[d].prio_hist = calloc(2, sizeof(struct st_hist));
		if (!w->res->dir[d].prio_hist)
			return -ENOMEM;
		st_hist_init(&w->res->dir[d].prio_hist[0]);
		st_hist_init(&w->res->dir[d].prio_hist[1]);
	}
	/* the engines that hand requests to the kernel in a submit call: slat and clat apart */
	for (int d = 0; (w->ex->kind == RL_EXEC_URING || w->ex->kind == RL_EXEC_LIBAIO ||
	                 w->ex->kind == RL_EXEC_POSIXAIO) &&
	                d < WL_DIRS;
	     d++) {
		w->res->dir[d].sc = calloc(2, sizeof(struct st_hist));
		if (!w->res->dir[d].sc)
			return -ENOMEM;
		st_hist_init(&w->res->dir[d].sc[0]);
		st_hist_init(&w->res->dir[d].sc[1]);
		w->fresh_issue = true;
	}
	return run_series_reserve(w);
}

/*
 * Start issuing: the clock of the job starts here (after startdelay, if any),
 * then the target's cache is dropped (invalidate=1, fio's default).  fio
 * reads its clock (td->start) before do_io opens the files on their first
 * request and drops their cache there, so the drop, and the write-back of
 * a dirty file's pages it waits for (milliseconds), is in the runtime but
 * in no request's latency: the first request is stamped after it.
 */
static void run_worker_begin(struct run_worker *w)
{
	const struct wl_job *job = w->job;
	uint64_t now = run_now(w);

	if (job->invalidate)
		rl_target_drop_cache(w->t, true);

	w->t_start = now;
	w->t_measure = now + job->ramp_ns;
	w->t_deadline = job->runtime_ns ? w->t_measure + job->runtime_ns : UINT64_MAX;
	if (w->flow && w->ex->kind != RL_EXEC_VIRTUAL)
		wl_flow_begin(w->flow, now);
	w->trace_t0 = now;
	w->t_last = w->t_measure;
	run_series_start(w, w->t_measure);
	if (w->ss)
		wl_ss_start(w->ss, now);
	if (w->lat_on) {
		wl_lat_init(&w->lat, job, now);
		w->depth = w->lat.qd;
	}
	w->measuring = job->ramp_ns == 0;
	atomic_store(&w->prog_phase, w->measuring ? 1 : 0);
	if (job->verify_only) {
		/* MAIN would have issued exactly its budget: replay that and check. */
		w->issued = w->budget;
		run_start_verify(w, NULL, now);
		if (!w->inflight)
			w->phase = PHASE_DONE;
		return;
	}
	uint64_t first = job->invalidate ? run_now(w) : now; /* the first requests' stamp */
	for (unsigned i = 0; i < w->nslots && w->phase == PHASE_MAIN; i++)
		run_issue(w, &w->slots[i], first);
	if (!w->inflight && w->phase == PHASE_MAIN)
		w->phase = PHASE_DONE;
}

/*
 * startdelay: slot 0 rides a timer and starts the worker when it fires, or
 * when a signal's stop cuts the wait short (run_loop_cut); a stopped worker
 * then begins and at once issues nothing, so its result is an empty one.
 */
static void run_delayed_start(struct rl_io *io, int status)
{
	struct run_slot *s = (struct run_slot *)io;
	struct run_worker *w = s->w;

	(void)status;
	w->inflight--;
	s->io.cb = run_slot_done;
	run_worker_begin(w);
}

static void run_worker_start(struct run_worker *w)
{
	if (!w->job->startdelay_ns) {
		run_worker_begin(w);
		return;
	}
	struct run_slot *s = &w->slots[0];
	s->io.cb = run_delayed_start;
	w->inflight++;
	if (rl_exec_at_wait(w->ex, &s->io, run_now(w) + w->job->startdelay_ns, 0)) {
		w->inflight--;
		s->io.cb = run_slot_done;
		run_worker_begin(w);
	}
}

static bool run_worker_active(const struct run_worker *w)
{
	return w->phase != PHASE_DONE || w->inflight;
}

static void run_worker_publish(struct run_worker *w)
{
	uint64_t now = run_now(w);

	atomic_store_explicit(&w->prog_elapsed, now > w->t_measure ? now - w->t_measure : 0,
	                      memory_order_relaxed);
	if (atomic_load_explicit(&w->snap_state, memory_order_acquire) == 1) {
		/* the figures so far, for --status-interval: a copy the progress thread may read */
		wl_result_free(&w->snap);
		wl_result_init(&w->snap, w->job);
		run_merge(&w->snap, w->res);
		w->snap.runtime_ns = w->t_last > w->t_measure ? w->t_last - w->t_measure : 0;
		atomic_store_explicit(&w->snap_state, 2, memory_order_release);
	}
}

/* Will @w issue nothing more: done, stopped, or past its deadline in MAIN? */
static bool run_worker_stopping(struct run_worker *w)
{
	if (w->phase == PHASE_DONE || wl_run_stop_requested())
		return true;
	/* t_deadline is 0 until the worker begins (in its startdelay): no deadline yet */
	return w->phase == PHASE_MAIN &&
	       (atomic_load_explicit(w->group_stop, memory_order_relaxed) ||
	        (w->t_deadline && run_now(w) >= w->t_deadline));
}

/*
 * When every worker on @ex is stopping (its deadline, a signal), requests
 * still held in a link's or delay's modelled wait (bw=1 holds a 4 KiB read
 * for an hour) are cut short instead of keeping the run alive.
 */
static void run_loop_cut(struct run_worker **ws, unsigned n, struct rl_exec *ex)
{
	for (unsigned i = 0; i < n; i++)
		if (!run_worker_stopping(ws[i]))
			return;
	for (unsigned i = 0; i < n; i++)
		ws[i]->cut = true;
	rl_exec_cut(ex);
}

/* Drive the workers sharing @ex until all are done. */
static int run_loop(struct run_worker **ws, unsigned n, struct rl_exec *ex)
{
	unsigned active = n;
	unsigned turns = 0;

	/* a real clock wakes up this often to see a deadline or a signal's stop */
	if (ex->kind != RL_EXEC_VIRTUAL)
		ex->wake_ns = RUN_WAKE_NS;
	for (unsigned i = 0; i < n; i++)
		run_worker_start(ws[i]);
	while (active) {
		int rc = rl_exec_run_once(ex, true);
		if (rc < 0)
			return rc;
		if (rc == 0 && ex->ntimers && ex->kind != RL_EXEC_VIRTUAL)
			run_loop_cut(ws, n, ex); /* virtual time jumps: a wait never holds it */
		if ((++turns & 255) == 0 || rc == 0) {
			active = 0;
			for (unsigned i = 0; i < n; i++) {
				run_worker_publish(ws[i]);
				if (run_worker_active(ws[i]))
					active++;
				else if (ws[i]->job->exitall)
					atomic_store(ws[i]->group_stop, true);
			}
			if (rc == 0 && active && rl_exec_stalled(ex))
				return -EDEADLK; /* requests lost or parked for good: a target broke
				                    its contract */
		}
	}
	return 0;
}

/*
 * The executor the thread's workers share, in *@exp (NULL if it could not
 * be created: the first worker then holds the message).
 */
static int run_thread_exec(struct run_thread *th, struct rl_exec **exp)
{
	struct rl_exec *ex = NULL;
	unsigned depth = 0;
	int rc;

	for (unsigned i = 0; i < th->n; i++)
		depth += th->ws[i]->job->iodepth;
	/* the engine's options, from the thread's first job (fio: one engine per thread) */
	const struct wl_job *j0 = th->ws[0]->job;
	struct rl_exec_opts eo = {
	    .iopoll = j0->hipri,
	    .sqpoll = j0->sqthread_poll,
	    .sqpoll_cpu = j0->sqthread_poll_cpu,
	    .fixed_files = j0->registerfiles || j0->sqthread_poll, /* as fio */
	    .fixed_bufs = j0->fixedbufs,
	    .vectored = j0->nonvectored == 0,
	    .async_every = j0->force_async,
	    .rw_flags = (j0->nowait ? RWF_NOWAIT : 0) | (j0->uncached ? RUN_RWF_DONTCACHE : 0),
	    .user_reap = j0->userspace_reap,
	    .defer_taskrun = true, /* fio 3.33's ring (docs/options.md) */
	};
	rc = rl_exec_create_opts(th->kind, (size_t)depth * 16 + 256, depth < 8 ? 8 : depth, &eo,
	                         &ex);
	*exp = ex;
	if (rc) {
		snprintf(th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg),
		         "cannot create the %s executor: %s", rl_exec_kind_name(th->kind),
		         strerror(-rc));
		th->ws[0]->setup_error = rc;
		return rc;
	}
	if (th->kind == RL_EXEC_VIRTUAL) {
		/* The stacks' simulated time goes on; jobs of a wave share one clock. */
		for (unsigned i = 0; i < th->n; i++)
			if (th->ws[i]->t->vtime > ex->vnow)
				ex->vnow = th->ws[i]->t->vtime;
	}
	/*
	 * iodepth_batch and iodepth_batch_complete_min/max: the smallest of
	 * the jobs sharing the executor.  As in fio, the most taken at once is
	 * the max, or the min when the max is smaller, and at least one.
	 */
	for (unsigned i = 0; i < th->n; i++) {
		const struct wl_job *j = th->ws[i]->job;
		unsigned b = j->iodepth_batch ? j->iodepth_batch : j->iodepth;
		unsigned cmax = j->iodepth_batch_complete_max;
		if (cmax < j->iodepth_batch_complete_min)
			cmax = j->iodepth_batch_complete_min;
		if (!cmax)
			cmax = 1;
		if (!ex->submit_batch || b < ex->submit_batch)
			ex->submit_batch = b;
		if (!ex->reap_max || cmax < ex->reap_max)
			ex->reap_max = cmax;
		if (i == 0 || j->iodepth_batch_complete_min < ex->reap_min)
			ex->reap_min = j->iodepth_batch_complete_min;
	}
	/* a job with a thread of its own ends its queue as fio's does (rl_exec_drain_note) */
	ex->drain_need = th->n == 1;
	return 0;
}

/* Attach every worker's target to @ex and set the worker up. */
static int run_thread_workers(struct run_thread *th, struct rl_exec *ex)
{
	int rc = 0;

	for (unsigned i = 0; i < th->n && !rc; i++) {
		th->ws[i]->ex = ex;
		rc = rl_target_attach(th->ws[i]->t, ex);
		if (!rc)
			rc = run_worker_setup(th->ws[i]);
		if (rc && !th->ws[i]->setup_error) {
			th->ws[i]->setup_error = rc;
			if (!th->ws[i]->setup_msg[0])
				snprintf(th->ws[i]->setup_msg, sizeof(th->ws[i]->setup_msg),
				         "worker setup failed: %s", strerror(-rc));
		}
	}
	return rc;
}

/* prio / prioclass: also the thread's own, for engines without per-request priority. */
static int run_thread_prio(struct run_thread *th)
{
	int rc = 0;

	if (th->kind != RL_EXEC_VIRTUAL && wl_job_ioprio(th->ws[0]->job) &&
	    syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, wl_job_ioprio(th->ws[0]->job))) {
		rc = -errno;
		snprintf(th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg),
		         "job '%s': prio/prioclass: ioprio_set failed: %s", th->ws[0]->job->name,
		         strerror(-rc));
		th->ws[0]->setup_error = rc;
	}
	return rc;
}

/* numa_cpu_nodes: the thread runs on the CPUs of those nodes (within cpus_allowed). */
static int run_thread_numa_cpus(struct run_thread *th)
{
	struct run_worker *w0 = th->ws[0];
	const struct wl_job *job0 = w0->job;
	cpu_set_t set;
	char missing[64];
	int rc = wl_numa_cpus(job0->numa_nodes, &set, missing, sizeof(missing), w0->setup_msg,
	                      sizeof(w0->setup_msg));

	if (!rc && job0->cpus)
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set) && (c >= 64 || !(job0->cpus >> c & 1)))
				CPU_CLR(c, &set);
	if (!rc && CPU_COUNT(&set) == 0) {
		snprintf(w0->setup_msg, sizeof(w0->setup_msg),
		         "job '%s': numa_cpu_nodes and cpus_allowed have no CPU in common",
		         job0->name);
		rc = -EINVAL;
	}
	if (!rc) {
		int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (e) {
			snprintf(w0->setup_msg, sizeof(w0->setup_msg),
			         "job '%s': numa_cpu_nodes: cannot run on those CPUs: %s",
			         job0->name, strerror(e));
			rc = -e;
		}
	}
	if (!rc && missing[0])
		snprintf(w0->res->note, sizeof(w0->res->note),
		         "job '%.40s': numa_cpu_nodes: node %s does not exist on this machine; "
		         "the job runs on the CPUs of the others",
		         job0->name, missing);
	if (rc)
		w0->setup_error = rc;
	return rc;
}

/* cpus_allowed: a real worker's thread keeps to its CPUs (numa_cpu_nodes did both). */
static int run_thread_cpus(struct run_thread *th)
{
	const struct wl_job *job0 = th->ws[0]->job;
	cpu_set_t set;
	CPU_ZERO(&set);
	unsigned ncpu = (unsigned)__builtin_popcountll(job0->cpus), pick = th->ws[0]->index % ncpu;

	for (unsigned c = 0, k = 0; c < 64; c++) {
		if (!(job0->cpus >> c & 1))
			continue;
		if (!job0->cpus_split || k == pick)
			CPU_SET(c, &set);
		k++;
	}
	int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e) {
		snprintf(th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg),
		         "job '%s': cpus_allowed: cannot run on those CPUs: %s", job0->name,
		         strerror(e));
		th->ws[0]->setup_error = -e;
		return -e;
	}
	return 0;
}

/*
 * Everything a thread sets up before the common start: the memory policy,
 * its workers, and where and at which priority it runs.
 */
static int run_thread_setup(struct run_thread *th, struct rl_exec *ex)
{
	const struct wl_job *job0 = th->ws[0]->job;
	bool real = th->kind != RL_EXEC_VIRTUAL;
	int rc = 0;

	/* numa_mem_policy: before the buffers are allocated, so they follow it */
	if (real && job0->numa_mpol != WL_MPOL_NONE) {
		rc = wl_numa_mpol_apply(job0, th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg));
		if (rc) {
			th->ws[0]->setup_error = rc;
			return rc;
		}
	}
	rc = run_thread_workers(th, ex);
	if (!rc)
		rc = run_thread_prio(th);
	if (!rc && real && job0->numa_nodes)
		rc = run_thread_numa_cpus(th);
	if (!rc && real && job0->cpus && !job0->numa_nodes)
		rc = run_thread_cpus(th);
	return rc;
}

/* The CPU figures between readings @a and @b: user s, system s, context
   switches, major and minor faults (the order of wl_result's and fio's). */
void run_rusage_diff(const struct rusage *a, const struct rusage *b, double out[5])
{
	out[0] = (double)(b->ru_utime.tv_sec - a->ru_utime.tv_sec) +
	         (double)(b->ru_utime.tv_usec - a->ru_utime.tv_usec) / 1e6;
	out[1] = (double)(b->ru_stime.tv_sec - a->ru_stime.tv_sec) +
	         (double)(b->ru_stime.tv_usec - a->ru_stime.tv_usec) / 1e6;
	out[2] = (double)(b->ru_nvcsw + b->ru_nivcsw - a->ru_nvcsw - a->ru_nivcsw);
	out[3] = (double)(b->ru_majflt - a->ru_majflt);
	out[4] = (double)(b->ru_minflt - a->ru_minflt);
}

/* @w's thread's CPU between readings @a and @b, taken @wall_ns apart. */
static void run_thread_cpu(struct run_worker *w, const struct rusage *a, const struct rusage *b,
                           uint64_t wall_ns)
{
	run_rusage_diff(a, b, w->thread_cpu);
	w->cpu_wall_ns = wall_ns;
	w->has_thread_cpu = true;
}

void *run_thread_main(void *arg)
{
	struct run_thread *th = arg;
	struct rl_exec *ex = NULL;
	int rc = run_thread_exec(th, &ex);

	if (!rc)
		rc = run_thread_setup(th, ex);
	/* Everyone starts together, or nobody starts. */
	pthread_barrier_wait(th->barrier);
	pthread_barrier_wait(th->barrier);
	for (unsigned i = 0; i < th->n; i++)
		if (th->ws[i]->setup_error)
			rc = th->ws[i]->setup_error;
	struct rusage ru0, ru1;
	getrusage(RUSAGE_THREAD, &ru0);
	uint64_t wall0 = rl_exec_wall_now();
	if (!rc && !th[0].ws[0]->res->first_error)
		rc = run_loop(th->ws, th->n, ex);
	getrusage(RUSAGE_THREAD, &ru1);
	if (th->n == 1) /* each job's CPU figures start from its thread's (run_collect) */
		run_thread_cpu(th->ws[0], &ru0, &ru1, rl_exec_wall_now() - wall0);
	for (unsigned i = 0; i < th->n; i++) {
		run_flow_leave(th->ws[i]);
		if (!th->ws[i]->noio)
			atomic_fetch_sub(th->ws[i]->io_left, 1);
		if (wl_engine_stream(th->ws[i]->job->engine))
			rl_target_finish(th->ws[i]->t); /* the peer sees the end of the stream */
	}
	th->rc = rc;
	if (ex && th->kind == RL_EXEC_VIRTUAL)
		for (unsigned i = 0; i < th->n; i++)
			th->ws[i]->t->vtime = ex->vnow;
	/* the submit and reap calls are the thread's: each of its jobs reports them */
	for (unsigned i = 0; ex && i < th->n; i++)
		for (int k = 0; k < 7; k++) {
			th->ws[i]->res->batch_submit[k] = ex->batch_submit[k];
			th->ws[i]->res->batch_complete[k] = ex->batch_complete[k];
		}
	for (unsigned i = 0; i < th->n; i++)
		atomic_store(&th->ws[i]->finished, true);
	if (th->done_fd >= 0) /* wake the watching thread (run_group_watch) at once */
		(void)!write(th->done_fd, &(uint64_t){1}, sizeof(uint64_t));
	rl_exec_destroy(ex);
	return NULL;
}
