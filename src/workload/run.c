/*
 * run.c - the job engine's request path: how a worker's slots are issued,
 * complete and are issued again through the phases of a job; see run.h for
 * the model and run_priv.h for the other pieces.
 *
 * A worker owns iodepth slots, each a request plus an aligned buffer.  The
 * loop is completion-driven: a slot's completion records its latency and
 * immediately reissues the slot, so the depth stays full without a separate
 * submission pass.  A worker moves through phases:
 *
 *   MAIN    the job's pattern, until its byte budget (size x loops) is issued
 *           or its deadline (ramp + runtime) passes;
 *   BACKLOG (verify_backlog=N) MAIN pauses after every N writes (and at
 *           the end of each loop): once its writes are back, those N blocks
 *           are read and checked, then MAIN goes on; the job then needs no
 *           VERIFY phase;
 *   VERIFY  (verify=crc32c or meta) the write sequence of MAIN is replayed
 *           from the same seed, and every written block is read back and
 *           checked;
 *   DONE    no more issuing; the worker ends when its slots are all back.
 *
 * A real clock's loop wakes at least every RUN_WAKE_NS, so a deadline or a
 * signal's stop is seen while requests are out; once every worker of a
 * thread is stopping, requests held in a link's or delay's modelled wait
 * are cut short (rl_exec_cut) and end uncounted, so bw=1 does not hold a
 * one-second run for an hour.
 *
 * Nothing on the completion path allocates or locks; the only shared state
 * is a handful of relaxed atomics the progress line reads.
 */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/run_priv.h"

/* --- the completion path --- */

static void run_record_error(struct run_worker *w, struct run_slot *s, int status);

/* A slot that waited (rate, rate_iops, thinktime) goes on. */
static void run_pace_resume(struct rl_io *io, int status)
{
	struct run_slot *s = (struct run_slot *)io;
	struct run_worker *w = s->w;

	(void)status;
	w->inflight--;
	s->io.cb = run_slot_done;
	run_issue(w, s, rl_exec_now(w->ex));
}

/* Park @s until @when (never past the job's deadline); false if it cannot wait. */
static bool run_pace_wait(struct run_worker *w, struct run_slot *s, uint64_t when)
{
	/* stopping: no new wait (a cut one would otherwise be queued again at once) */
	if (wl_run_stop_requested() || atomic_load_explicit(w->group_stop, memory_order_relaxed))
		return false;
	if (when > w->t_deadline)
		when = w->t_deadline;
	s->io.cb = run_pace_resume;
	w->inflight++;
	/* a wait a signal's stop may cut short (run_loop_cut): rate, thinktime, flow */
	if (rl_exec_at_wait(w->ex, &s->io, when, 0)) {
		w->inflight--;
		s->io.cb = run_slot_done;
		return false;
	}
	return true;
}

/*
 * How long a job ahead of its flow share waits: flow_sleep, or with 0 (as
 * fio, which retries at once) until the next turn of its loop; simulated
 * time must move on, so there it waits a microsecond.
 */
static uint64_t run_flow_sleep(const struct run_worker *w)
{
	if (w->job->flow_sleep_ns)
		return w->job->flow_sleep_ns;
	return w->ex->kind == RL_EXEC_VIRTUAL ? RUN_FLOW_RETRY_VIRTUAL_NS : 0;
}

/* The worker issues no more: the other jobs of its flow go on without it. */
void run_flow_leave(struct run_worker *w)
{
	if (w->flow && !w->flow_left) {
		w->flow_left = true;
		wl_flow_leave(w->flow, w->job->flow, w->flow_mine);
	}
}

/*
 * The job's per-interval series: their room is reserved when the worker is
 * set up (run_series_reserve), before the jobs' clocks start, and dated at
 * its start (run_series_start), so a job's first requests do not wait on
 * the allocator: a thread's first allocations grow its malloc arena with
 * mprotect, and two job threads doing that at once contend for the
 * process's memory map (a context switch each, and an RCU callback that
 * wakes a kernel thread on a job's CPU).
 */
int run_series_reserve(struct run_worker *w)
{
	const struct wl_job *job = w->job;
	uint64_t expect = job->runtime_ns ? job->runtime_ns / job->log_avg_ns + 2 : 64;
	int rc = 0;

	if (expect > 1000000)
		expect = 1000000;
	for (int d = 0; d < WL_DIRS && !rc; d++) {
		rc = st_series_init(&w->res->dir[d].series, job->log_avg_ns, 0, expect);
		if (!rc && job->lat_log)
			rc = st_series_init(&w->res->dir[d].lat, job->log_avg_ns, 0, expect);
		if (!rc && job->lat_log && w->cmdprio_on)
			rc = st_series_init(&w->res->dir[d].lat_cmd, job->log_avg_ns, 0, expect);
	}
	return rc;
}

void run_series_start(struct run_worker *w, uint64_t start)
{
	const struct wl_job *job = w->job;

	for (int d = 0; d < WL_DIRS; d++) {
		st_series_start(&w->res->dir[d].series, start);
		if (job->lat_log)
			st_series_start(&w->res->dir[d].lat, start);
		if (job->lat_log && w->cmdprio_on)
			st_series_start(&w->res->dir[d].lat_cmd, start);
		st_histlog_init(&w->res->dir[d].histlog,
		                job->hist_log ? job->log_hist_msec * 1000000ull : 0, start);
	}
	if (job->log_per_io && (job->bw_log || job->iops_log || job->lat_log))
		st_unitlog_init(&w->res->unitlog, start);
}

/* latency_target settled: measure again from @now, at the depth found (as fio). */
static void run_stats_restart(struct run_worker *w, uint64_t now)
{
	for (int d = 0; d < WL_DIRS; d++) {
		struct wl_dir_result *r = &w->res->dir[d];
		r->ios = 0;
		r->bytes = 0;
		st_hist_init(&r->hist);
		st_series_free(&r->series);
		st_series_free(&r->lat);
		st_series_free(&r->lat_cmd);
		st_histlog_free(&r->histlog);
		if (r->prio_hist) {
			st_hist_init(&r->prio_hist[0]);
			st_hist_init(&r->prio_hist[1]);
		}
		if (r->sc) {
			st_hist_init(&r->sc[0]);
			st_hist_init(&r->sc[1]);
		}
	}
	st_unitlog_free(&w->res->unitlog);
	(void)run_series_reserve(w); /* short of memory: the series grow when written */
	run_series_start(w, now);
	w->t_measure = now;
	w->t_last = now;
	w->measuring = true;
}

/* latency_target: a completion feeds the search, which may move the depth. */
static void run_lat_step(struct run_worker *w, struct run_slot *s, uint64_t now)
{
	switch (wl_lat_complete(&w->lat, s->t_submit, now - s->t_submit, now)) {
	case WL_LAT_GO:
		break;
	case WL_LAT_DEPTH:
		w->depth = w->lat.qd;
		break;
	case WL_LAT_FINAL:
		w->depth = w->lat.qd;
		run_stats_restart(w, now);
		break;
	case WL_LAT_DONE:
		w->lat_done = true;
		break;
	case WL_LAT_FAIL:
		run_record_error(w, s, -ETIMEDOUT);
		if (!w->res->note[0])
			snprintf(w->res->note, sizeof(w->res->note),
			         "job '%s': latency_target: an I/O took %llu ns at depth 1, above "
			         "the target of %llu ns",
			         w->job->name, (unsigned long long)(now - s->t_submit),
			         (unsigned long long)w->job->lat_target_ns);
		break;
	}
}

/* Slots the depth kept idle go on while there is room. */
static void run_unpark(struct run_worker *w, uint64_t now)
{
	for (unsigned i = 0; i < w->nslots && w->nparked; i++) {
		struct run_slot *o = &w->slots[i];
		if ((w->phase != PHASE_MAIN && w->phase != PHASE_BACKLOG) ||
		    (w->phase == PHASE_MAIN && w->inflight >= w->depth))
			break;
		if (o->parked) {
			o->parked = false;
			w->nparked--;
			run_issue(w, o, now);
		}
	}
}

/* Keep @s idle until a completion wakes it (run_unpark). */
static void run_park(struct run_worker *w, struct run_slot *s)
{
	if (!s->parked) {
		s->parked = true;
		w->nparked++;
	}
}

static void run_record_error(struct run_worker *w, struct run_slot *s, int status)
{
	struct wl_result *r = w->res;

	if (!r->errors++ && !r->cont_errors) {
		r->first_error = status;
		r->first_error_offset = s->io.offset;
		r->first_error_op = s->io.op;
	}
	/* fio stops a job at its first error (continue_on_error=none): so do we. */
	w->phase = PHASE_DONE;
	run_flow_leave(w);
}

/* continue_on_error: count the failure and go on (error_dump prints the first few). */
static void run_error_continue(struct run_worker *w, struct run_slot *s, int status)
{
	struct wl_result *r = w->res;

	if (!r->errors && !r->cont_errors) {
		r->first_error = status;
		r->first_error_offset = s->io.offset;
		r->first_error_op = s->io.op;
	}
	r->cont_errors++;
	if (w->job->error_dump && w->dumped < RUN_ERROR_DUMP_MAX) {
		w->dumped++;
		fprintf(stderr, "raidlab run: job '%s': %s at offset %llu: %s (continued)%s\n",
		        w->job->name, rl_op_name((enum rl_op)s->io.op),
		        (unsigned long long)s->io.offset, strerror(-status),
		        w->dumped == RUN_ERROR_DUMP_MAX ? "; further errors are only counted" : "");
	}
}

/* Does a job read its written blocks back after writing them? */
bool run_reads_back(const struct wl_job *job)
{
	return job->do_verify && (job->verify == WL_VERIFY_CRC32C ||
	                          (wl_verify_self_checked(job->verify) && wl_job_writes(job)));
}

/* verify_dump: one block into JOB.OFFSET.KIND in the current directory. */
static void run_dump(struct run_worker *w, const struct run_slot *s, const char *kind,
                     const uint8_t *data)
{
	char path[WL_NAME_MAX + 64];
	snprintf(path, sizeof(path), "%s.%llu.%s", w->job->name, (unsigned long long)s->io.offset,
	         kind);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, s->io.len, f) != s->io.len)
		fprintf(stderr, "raidlab run: verify_dump: cannot write %s\n", path);
	if (f)
		fclose(f);
}

/* Check the block @s read: the replayed one of a VERIFY pass, or any read under meta. */
static void run_check(struct run_worker *w, struct run_slot *s)
{
	struct wl_result *r = w->res;
	uint64_t bad;
	char msg[256];
	int rc =
	    w->job->verify == WL_VERIFY_META
	        ? wl_meta_check(w->job, s->buf, s->io.len, s->io.offset, &bad, msg, sizeof(msg))
	    : w->job->verify == WL_VERIFY_PATTERN
	        ? wl_pattern_check(w->job, s->buf, s->io.len, s->io.offset, &bad, msg, sizeof(msg))
	        : wl_verify_check(s->buf, s->io.len, s->io.offset, w->data_seed, s->gen, &bad, msg,
	                          sizeof(msg));

	r->verified = true;
	r->verify_blocks++;
	if (!rc)
		return;
	if (!r->verify_bad++ || bad < r->verify_first_bad) {
		r->verify_first_bad = bad;
		snprintf(r->verify_msg, sizeof(r->verify_msg), "%s", msg);
	}
	if (w->job->verify_dump && w->vdumped < RUN_VERIFY_DUMP_MAX) {
		w->vdumped++;
		run_dump(w, s, "received", s->buf);
		uint8_t *want = w->job->verify == WL_VERIFY_CRC32C ? malloc(s->io.len) : NULL;
		if (want) {
			wl_verify_fill(want, s->io.len, s->io.offset, w->data_seed, s->gen);
			run_dump(w, s, "expected", want);
			free(want);
		}
	}
	if (w->job->verify_fatal && !wl_job_continues(w->job, 2, EILSEQ))
		w->phase = PHASE_DONE; /* the other requests in flight still complete */
}

/*
 * fio's slat and clat of a counted request: split at the time the engine's
 * submit call returned, when it handed this very request to the kernel
 * (a stack's children are its own: then clat is the whole latency).
 */
static uint64_t run_split(const struct run_worker *w, const struct run_slot *s, struct st_hist *sc,
                          uint64_t now)
{
	uint64_t t = s->io.t_issued;

	if (!sc)
		return now - s->t_submit;
	if (t < s->t_submit || t > now) {
		st_hist_add(&sc[1], now - s->t_submit);
		return now - s->t_submit;
	}
	if (!w->job->disable_slat)
		st_hist_add(&sc[0], t - s->t_submit);
	st_hist_add(&sc[1], now - t);
	return now - t;
}

/*
 * A verify read counts among the reads, as fio counts it: I/Os, bytes,
 * latencies and the series; in a VERIFY pass the read direction's runtime
 * is the pass's (plus the main phase's if that read too), and the job's
 * runtime stays the main phase's (fio's write runtime); the pass's own
 * length goes to wl_result.verify_ns (fio's job_runtime and CPU shares
 * count it).
 */
static void run_count_verify(struct run_worker *w, struct run_slot *s, uint64_t now)
{
	struct wl_dir_result *d = &w->res->dir[RL_OP_READ];

	d->ios++;
	d->bytes += s->io.len;
	st_hist_add(&d->hist, now - s->t_submit);
	(void)run_split(w, s, d->sc, now);
	st_series_add(&d->series, now, s->io.len);
	if (w->t_vstart) { /* a VERIFY pass (not verify_backlog's reads among the writes) */
		w->v_span = now - w->t_vstart;
		uint64_t span = w->v_base + w->v_span;
		d->runtime_ns = span ? span : 1;
	}
}

/* log_avg_msec=0: the completion's record for fio's per-I/O logs */
static void run_unitlog_add(struct run_worker *w, const struct run_slot *s, uint64_t now,
                            uint64_t clat)
{
	const struct rl_io *io = &s->io;
	struct st_unit u = {.lat_ns = now - s->t_submit,
	                    .clat_ns = clat,
	                    .offset = io->offset,
	                    .bs = io->len,
	                    .dir = io->op,
	                    .cmdprio = s->cmdprio,
	                    .split = w->res->dir[io->op].sc && !w->job->disable_slat};

	if (st_unitlog_add(&w->res->unitlog, now, &u) && !w->res->note[0])
		snprintf(w->res->note, sizeof(w->res->note),
		         "the per-I/O log is full after %zu I/Os: later ones are not logged",
		         w->res->unitlog.n);
}

void run_slot_done(struct rl_io *io, int status)
{
	struct run_slot *s = (struct run_slot *)io;
	struct run_worker *w = s->w;
	uint64_t now = rl_exec_batch_now(w->ex);

	w->inflight--;
	if (status == -ECANCELED && w->cut) {
		/* cut short as the job stopped: neither counted nor an error */
	} else if (status && w->job->fill_device && io->op == RL_OP_WRITE &&
	           (status == -ENOSPC || status == -EDQUOT)) {
		w->full = true; /* fill_device: the device is full, the job is done */
	} else if (status == -ESHUTDOWN && wl_engine_stream(w->job->engine)) {
		w->full = true; /* the peer ended the stream: the job is done */
	} else if (status && wl_job_continues(w->job, io->op == RL_OP_READ ? 0 : 1, -status)) {
		run_error_continue(w, s, status);
	} else if (status) {
		run_record_error(w, s, status);
	} else if (io->op == RL_OP_FLUSH) {
		if (!s->end_sync) { /* fio times fsync= and fdatasync= syncs, counts fsync= 's */
			w->res->flushes++;
			w->res->fsyncs += (io->flags & RL_IO_FSYNC) != 0;
			st_hist_add(&w->res->sync_hist, now - s->t_submit);
		}
		if (w->measuring)
			w->t_last = now;
	} else if (s->verifying) {
		run_check(w, s);
		if (w->measuring)
			run_count_verify(w, s, now);
	} else if (s->counted) {
		if (io->op == RL_OP_READ && w->check_reads)
			run_check(w, s);
		struct wl_dir_result *d = &w->res->dir[io->op];
		uint32_t moved = w->noio ? 0 : io->len; /* cpuio, exec: counted, no bytes */
		d->ios++;
		d->bytes += moved;
		st_hist_add(&d->hist, now - s->t_submit);
		uint64_t clat = run_split(w, s, d->sc, now);
		st_series_add(&d->series, now, moved);
		if (w->job->lat_log)
			st_series_add(s->cmdprio ? &d->lat_cmd : &d->lat, now, now - s->t_submit);
		if (d->histlog.interval_ns)
			(void)st_histlog_add(&d->histlog, now, now - s->t_submit);
		if (w->res->unitlog.on)
			run_unitlog_add(w, s, now, clat);
		if (d->prio_hist) /* fio's per-priority figures: lat's with lat_percentiles */
			st_hist_add(&d->prio_hist[s->cmdprio],
			            w->job->lat_pcts ? now - s->t_submit : clat);
		if (w->ss)
			(void)wl_ss_add(w->ss, moved, now - s->t_submit, now);
		w->t_last = now;
		atomic_store_explicit(&w->prog_bytes,
		                      atomic_load_explicit(&w->prog_bytes, memory_order_relaxed) +
		                          moved,
		                      memory_order_relaxed);
		if (io->op == RL_OP_READ)
			atomic_store_explicit(
			    &w->prog_rbytes,
			    atomic_load_explicit(&w->prog_rbytes, memory_order_relaxed) + moved,
			    memory_order_relaxed);
		atomic_store_explicit(&w->prog_ios,
		                      atomic_load_explicit(&w->prog_ios, memory_order_relaxed) + 1,
		                      memory_order_relaxed);
	}
	if (w->lat_on && !status && !s->verifying && io->op != RL_OP_FLUSH &&
	    w->phase == PHASE_MAIN)
		run_lat_step(w, s, now);
	if (w->phase == PHASE_DONE)
		return;
	uint64_t think = wl_engine_think_ns(w->job, now - s->t_submit);
	if (!(think && w->phase == PHASE_MAIN && io->op != RL_OP_FLUSH &&
	      run_pace_wait(w, s, now + think)))
		run_issue(w, s, now);
	if (w->nparked)
		run_unpark(w, now);
}

/*
 * How much of the byte budget a request uses.  Under the random map every
 * request takes one map block, so a request smaller than the block (verify
 * maps with the largest bssplit size) still uses a whole block: a loop is
 * then exactly one pass over the map.
 */
static inline uint32_t run_account(const struct wl_gen *g, uint32_t len)
{
	if (wl_rw_is_random(g->job->rw) && g->job->dist == WL_DIST_RANDOM &&
	    wl_job_randmap(g->job) && len < g->unit)
		return g->unit;
	return len;
}

/* MAIN: pick the next request, or move on when the budget or time is spent. */
static bool run_next_main(struct run_worker *w, struct run_slot *s, uint64_t now)
{
	const struct wl_job *job = w->job;

	if (!w->measuring && now >= w->t_measure) {
		w->measuring = true;
		atomic_store_explicit(&w->prog_phase, 1, memory_order_relaxed);
	}
	if (now >= w->t_deadline && w->flow && !w->flow_left && job->runtime_ns &&
	    w->ex->kind != RL_EXEC_VIRTUAL) {
		/* a flow group on real clocks ends together: at its latest begin's deadline */
		uint64_t d = wl_flow_deadline(w->flow, job->ramp_ns + job->runtime_ns);
		if (d > w->t_deadline)
			w->t_deadline = d;
	}
	if (now >= w->t_deadline) {
		/* the job ran until its deadline, also while it waited (rate, thinktime) */
		if (w->measuring && w->t_deadline > w->t_last)
			w->t_last = w->t_deadline;
		return false;
	}
	if (wl_run_stop_requested() || atomic_load_explicit(w->group_stop, memory_order_relaxed))
		return false;
	if (w->measuring && w->budget && w->issued >= w->budget)
		return false;
	if (w->lat_done || w->full ||
	    (w->ss && atomic_load_explicit(&w->ss->stop, memory_order_relaxed)))
		return false;
	if (job->number_ios && w->ios_issued >= job->number_ios)
		return false;
	if (job->cpu_exit_io_done && !atomic_load_explicit(w->io_left, memory_order_relaxed))
		return false; /* exit_on_io_done: the group's I/O jobs are over */
	s->end_sync = false;
	if (w->sync_every && w->writes_since_sync >= w->sync_every) {
		/* fsync=N: this slot flushes instead of its next I/O (as fio) */
		w->writes_since_sync = 0;
		s->io.op = RL_OP_FLUSH;
		s->io.offset = 0;
		s->io.len = 0;
		s->io.flags =
		    (w->sync_full ? RL_IO_FSYNC : 0) | (w->io_flags & RL_IO_MMAP); /* mmap: msync */
		s->io.ioprio = 0;
		s->cmdprio = false;
		s->verifying = false;
		s->counted = false;
		run_files_log(w, now, RL_OP_FLUSH, 0, 0);
		return true;
	}
	enum rl_op op;
	uint32_t len;
	uint64_t off;
	if (w->trace.n) {
		if (!run_trace_next(w, now, &op, &off, &len))
			return false;
	} else if (w->files.service) {
		off = run_files_next(w, &op, &len,
		                     w->measuring && w->budget ? w->budget - w->issued : 0);
	} else {
		op = wl_gen_op(&w->gen);
		len = wl_gen_len(&w->gen, op);
		if (w->measuring && w->budget && len > w->budget - w->issued)
			len = (uint32_t)(w->budget - w->issued);
		off = wl_gen_offset(&w->gen, op, &len);
	}
	run_files_log(w, now, op, off, len);
	s->io.op = (uint8_t)op;
	s->io.offset = off;
	s->io.len = len;
	s->gen = w->loop;
	uint16_t cprio = 0;
	s->cmdprio =
	    w->cmdprio_on &&
	    wl_job_cmdprio_pick(w->job, op, len, (uint32_t)wl_rng_below(&w->prio_rng, 100), &cprio);
	s->io.ioprio = s->cmdprio ? cprio : wl_job_ioprio(w->job);
	s->verifying = false;
	s->io.flags = w->io_flags; /* the engine's (falloc, ftruncate) */
	w->ios_issued++;
	if (w->paced && op < WL_DIRS) {
		uint64_t cost = 0, c2 = 0;
		if (job->rate[op])
			cost = (uint64_t)len * 1000000000ull / job->rate[op];
		if (job->rate_iops[op])
			c2 = 1000000000ull / job->rate_iops[op];
		uint64_t gap = cost > c2 ? cost : c2;
		if (job->rate_poisson && gap) /* exponential gaps with the same mean */
			gap = (uint64_t)((double)gap * -log1p(-wl_rng_unit(&w->buf_rng)));
		/*
		 * The schedule runs from the last slot time, not from when the
		 * timer fired, so timer lateness does not add up (rate_iops=2000
		 * gave 1710); after a stall longer than RUN_RATE_CATCHUP_NS it
		 * starts from now instead of bursting to catch up.
		 */
		if (w->pace_next + RUN_RATE_CATCHUP_NS < now)
			w->pace_next = now;
		w->pace_next += gap;
	}
	if (op == RL_OP_WRITE && w->bl) {
		w->bl[w->bl_n++] = (struct run_bl){.off = off, .len = len, .gen = w->loop};
		if (w->bl_n == w->job->verify_backlog)
			w->bl_due = true;
	}
	if (op == RL_OP_WRITE) {
		w->wrote = true;
		w->writes_since_sync++;
		if (job->sync_writes)
			s->io.flags |= RL_IO_FUA;
		if (job->verify == WL_VERIFY_CRC32C)
			wl_verify_fill(s->buf, len, off, w->data_seed, w->loop);
		else if (job->verify == WL_VERIFY_META)
			wl_meta_fill(job, &w->buf_rng, s->buf, len, off, w->ios_issued, w->gindex);
		else if (job->verify == WL_VERIFY_PATTERN) {
			uint8_t pat[WL_PATTERN_MAX];
			wl_pattern_fill(s->buf, len, pat, wl_vpattern(job, off, pat));
		} else if (job->dedupe_pct)
			wl_dedupe_fill(job, &w->dedupe, s->buf, len);
		else if (job->refill_buffers)
			wl_buf_fill(job, &w->buf_rng, s->buf, len);
		if (w->scramble)
			wl_buf_scramble(s->buf, len, off, now);
	}
	s->counted = w->measuring;
	if (job->invalidate) {
		/* fio drops its file's cache at every pass over it: at the next
		   pass's first request, so the last pass leaves it cached (the first
		   pass's drop is the job's own, run_worker.c).  Each of loops= passes
		   reopens the file (td_io_open_file: direct files too); a time-based
		   job wraps around inside one opening (loop_cache_invalidate:
		   buffered files only) */
		if (w->pass_bytes >= w->gen.region_len) {
			w->pass_bytes = 0;
			rl_target_drop_cache(w->t, job->loops > 1 && !wl_job_time_based(job));
		}
		w->pass_bytes += run_account(&w->gen, len);
	}
	if (w->measuring && w->budget) {
		w->issued += run_account(&w->gen, len);
		w->loop_bytes += run_account(&w->gen, len);
		if (w->loop_bytes >= w->gen.region_len) {
			w->loop_bytes = 0;
			w->loop++;
			if (w->bl_n) /* the next loop overwrites them: check them first */
				w->bl_due = w->bl_drain = true;
			wl_gen_rewind(&w->gen);
			run_files_rewind(w);
		}
	}
	return true;
}

/*
 * VERIFY: replay MAIN's sequence and read back what its last loop wrote
 * (every loop covers the whole region, so earlier loops' blocks were
 * overwritten by the last one).
 */
static bool run_next_verify(struct run_worker *w, struct run_slot *s)
{
	if (wl_run_stop_requested())
		return false;
	uint64_t last_loop = w->issued ? (w->issued - 1) / w->gen.region_len : 0;

	while (w->verify_issued < w->issued) {
		uint64_t at = w->verify_issued;
		enum rl_op op = wl_gen_op(&w->vgen);
		uint32_t len = wl_gen_len(&w->vgen, op);
		if (len > w->issued - at)
			len = (uint32_t)(w->issued - at);
		uint64_t off = wl_gen_offset(&w->vgen, op, &len);
		w->verify_issued += run_account(&w->vgen, len);
		if (w->verify_issued / w->gen.region_len != at / w->gen.region_len)
			wl_gen_rewind(&w->vgen);
		if (op != RL_OP_WRITE || at / w->gen.region_len != last_loop)
			continue;
		s->io.op = RL_OP_READ;
		s->io.offset = off;
		s->io.len = len;
		s->io.flags = 0;
		s->gen = (uint32_t)last_loop; /* the generation that wrote it */
		s->io.ioprio = wl_job_ioprio(w->job);
		s->cmdprio = false;
		s->verifying = true;
		s->counted = false;
		return true;
	}
	return false;
}

static void run_submit(struct run_worker *w, struct run_slot *s, uint64_t now)
{
	w->inflight++;
	/*
	 * Where slat is measured (io_uring, libaio) the issue time is read
	 * afresh, as fio reads it for each request it prepares: a completion
	 * batch's one clock reading would count the other completions the
	 * batch went through before this one in its slat.
	 */
	s->t_submit = w->fresh_issue ? rl_exec_now(w->ex) : now;
	s->io.t_issued = 0; /* the executor stamps it when it hands the request over */
	rl_target_submit(w->t, &s->io);
}

/*
 * VERIFY begins once every MAIN request is back: replay from the same seed.
 * Returns the time after the cache drop, when the reads are sent (a drop
 * that writes back what the writes left takes milliseconds, which are the
 * pass's but no read's latency).
 */
uint64_t run_start_verify(struct run_worker *w, struct run_slot *except, uint64_t now)
{
	w->phase = PHASE_VERIFY;
	atomic_store_explicit(&w->prog_phase, 2, memory_order_relaxed);
	w->t_vstart = now ? now : 1;
	/* fio reopens the files to verify them, dropping their cache (invalidate=1)
	   inside the pass's time: what the writes left cached is written back first */
	if (w->job->invalidate) {
		rl_target_drop_cache(w->t, true);
		now = run_now(w);
	}
	w->v_base =
	    w->res->dir[RL_OP_READ].ios && w->t_last > w->t_measure ? w->t_last - w->t_measure : 0;
	w->res->verified = true;
	wl_gen_init(&w->vgen, w->job, w->gen.region_start, w->gen.region_len,
	            rl_target_block_for(w->t, !w->job->direct), w->seed);
	for (unsigned i = 0; i < w->nslots; i++) {
		struct run_slot *o = &w->slots[i];
		o->parked = false;
		if (o != except && run_next_verify(w, o))
			run_submit(w, o, now);
	}
	w->nparked = 0;
	return now;
}

/*
 * A backlog check is back.  verify_backlog_batch below the backlog: the
 * oldest batch was checked, the rest wait for the next check (which comes
 * once the list is full again, or at once while draining); otherwise all
 * were checked.  So every written block is read back once, as in fio.
 */
/* How many of the waiting blocks this backlog check reads. */
static unsigned run_backlog_batch(const struct run_worker *w)
{
	uint32_t batch = w->job->verify_backlog_batch;
	return batch && batch < w->bl_n ? batch : w->bl_n;
}

static void run_backlog_done(struct run_worker *w)
{
	uint32_t batch = w->job->verify_backlog_batch;

	if (batch && batch < w->bl_n) {
		memmove(w->bl, w->bl + batch, (w->bl_n - batch) * sizeof(*w->bl));
		w->bl_n -= batch;
		w->bl_due = w->bl_drain;
		return;
	}
	w->bl_n = 0; /* all checked: write on */
	w->bl_drain = false;
}

/*
 * @w issues nothing more in @phase: once per phase, tell the executor, whose
 * next wait then takes everything left in one call, as fio ends its loop
 * (its do_io and do_verify reap cur_depth events at once).
 */
static void run_drain_note(struct run_worker *w, enum run_phase phase)
{
	if ((w->drained & (1u << phase)) || !w->inflight)
		return; /* nothing left to take: the next wait is an ordinary one */
	w->drained |= (uint8_t)(1u << phase);
	rl_exec_drain_note(w->ex);
}

void run_issue(struct run_worker *w, struct run_slot *s, uint64_t now)
{
	for (;;) {
		switch (w->phase) {
		case PHASE_MAIN:
			if (w->bl_due && !w->res->errors) {
				/* verify_backlog: the writes must be back before they are read */
				if (w->inflight) {
					run_park(w, s);
					return;
				}
				w->bl_due = false;
				w->bl_next = 0;
				w->phase = PHASE_BACKLOG;
				break;
			}
			if (w->inflight >= w->depth) {
				run_park(w, s); /* latency_target: a completion wakes it */
				return;
			}
			if (w->paced && now < w->pace_next && now < w->t_deadline &&
			    run_pace_wait(w, s, w->pace_next))
				return;
			if (w->trace.n && now < run_trace_due(w) && now < w->t_deadline &&
			    run_pace_wait(w, s, run_trace_due(w)))
				return;
			if (w->flow && !w->flow_left && now < w->t_deadline &&
			    wl_flow_ahead(w->flow, w->job->flow, &w->flow_mine) &&
			    run_pace_wait(w, s, now + run_flow_sleep(w)))
				return;
			if (run_next_main(w, s, now)) {
				run_submit(w, s, now);
				return;
			}
			run_flow_leave(w);
			run_drain_note(w, PHASE_MAIN);
			if (w->job->end_fsync && w->wrote && !w->end_synced && !w->res->errors) {
				if (w->inflight)
					return; /* the last request back issues the FLUSH */
				w->end_synced = true;
				s->end_sync = true;
				s->io.op = RL_OP_FLUSH;
				s->io.offset = 0;
				s->io.len = 0;
				s->io.flags = w->io_flags & RL_IO_MMAP;
				s->verifying = false;
				s->counted = false;
				run_submit(w, s, now);
				return;
			}
			if (w->bl_n && !w->res->errors) {
				w->bl_due = w->bl_drain = true; /* the last blocks written */
				break;
			}
			if (!run_reads_back(w->job) || w->res->errors || w->bl) {
				w->phase = PHASE_DONE;
				return;
			}
			if (w->inflight)
				return; /* this slot idles; the last one back starts VERIFY */
			now = run_start_verify(w, s, now);
			break;
		case PHASE_BACKLOG:
			/* verify_backlog_batch: the oldest that many (run_backlog_done) */
			if (w->bl_next < run_backlog_batch(w)) {
				const struct run_bl *b = &w->bl[w->bl_next++];
				s->io.op = RL_OP_READ;
				s->io.offset = b->off;
				s->io.len = b->len;
				s->io.flags = 0;
				s->io.ioprio = wl_job_ioprio(w->job);
				s->gen = b->gen;
				s->verifying = true;
				s->counted = false;
				s->cmdprio = false;
				run_submit(w, s, now);
				return;
			}
			if (w->inflight) {
				run_park(w, s);
				return;
			}
			run_backlog_done(w);
			w->phase = PHASE_MAIN;
			break;
		case PHASE_VERIFY:
			if (run_next_verify(w, s)) {
				run_submit(w, s, now);
				return;
			}
			run_drain_note(w, PHASE_VERIFY);
			if (!w->inflight)
				w->phase = PHASE_DONE;
			return;
		case PHASE_DONE:
			return;
		}
	}
}
