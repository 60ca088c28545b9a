/*
 * run.c - the job engine: workers, their request slots, and the phases of a
 * job; see run.h for the model.
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
#include <json-c/json.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/exec.h"
#include "workload/buf.h"
#include "workload/control.h"
#include "workload/gen.h"
#include "workload/numa.h"
#include "workload/run.h"

enum run_phase { PHASE_MAIN, PHASE_BACKLOG, PHASE_VERIFY, PHASE_DONE };

#define RUN_HUGE            (2u << 20) /* huge page size: buffer regions this large are aligned to it */
#define RUN_ERROR_DUMP_MAX  10         /* error_dump: continued errors printed per worker */
#define RUN_VERIFY_DUMP_MAX 10         /* verify_dump: failed blocks written per worker */
/* rate / rate_iops: how far behind its schedule a job may catch up */
#define RUN_RATE_CATCHUP_NS 100000000ull
/* flow_sleep=0 in simulated time: a job ahead of its share looks again after this long */
#define RUN_FLOW_RETRY_VIRTUAL_NS 1000u
/* real clock: the longest a worker thread sleeps before it looks at its deadline and stop flag */
#define RUN_WAKE_NS 50000000ull

struct run_worker;

struct run_slot {
	struct rl_io io;
	struct run_worker *w;
	uint64_t t_submit;
	uint8_t *buf;
	bool counted;   /* submitted after ramp-up: goes into the statistics */
	bool parked;    /* idle: latency_target's depth, or verify_backlog waiting for writes */
	bool cmdprio;   /* issued with cmdprio_percentage's priority */
	bool verifying; /* a VERIFY read: check the block on completion */
	bool end_sync;  /* end_fsync's FLUSH (timed, but not counted among fsync= syncs, as fio) */
	uint32_t gen;   /* the loop (generation) whose block this request writes or checks */
};

struct run_worker {
	const struct wl_job *job;
	atomic_bool *group_stop; /* set when an exitall job of the group ends */
	struct rl_target *t;
	struct rl_exec *ex;
	unsigned index;
	struct wl_gen gen;
	struct run_slot *slots;
	/* every slot's buffer, in one region (the first starts mem_align past bufmem) */
	uint8_t *bufmem;
	unsigned nslots, inflight;
	enum run_phase phase;
	uint64_t seed;       /* this worker's offset stream */
	uint32_t sync_every; /* fsync / fdatasync: FLUSH after this many writes; 0 never */
	uint64_t data_seed;  /* verify contents: the same for every worker */
	uint64_t t_start, t_measure, t_deadline, t_last;
	bool measuring;
	uint64_t budget, issued; /* bytes, MAIN phase */
	uint64_t loop_bytes;     /* bytes issued in the current loop */
	uint64_t pass_bytes;     /* bytes issued in the current pass over the region (invalidate) */
	uint32_t loop;
	uint64_t verify_issued;     /* bytes replayed in VERIFY */
	uint32_t writes_since_sync; /* fsync=N / fdatasync=N: writes since the last FLUSH */
	bool wrote;                 /* a write was issued (end_fsync has work) */
	bool paced;                 /* rate, rate_iops or thinktime: slots may wait */
	uint64_t pace_next;         /* rate / rate_iops: no request before this time */
	uint64_t ios_issued;        /* number_ios */
	bool end_synced;            /* end_fsync's FLUSH was issued */
	struct wl_gen vgen;         /* replay of MAIN's sequence */
	struct wl_rng buf_rng;      /* buffer contents: apart from gen's stream, so replays match */
	struct wl_result *res;      /* this worker's own partial result */
	struct wl_flow *flow;       /* flow=: the flow group, or NULL */
	uint64_t flow_mine;         /* this worker's I/Os counted in it */
	bool flow_left;             /* its weight and I/Os have left the group */
	unsigned depth;             /* slots allowed in flight (latency_target lowers it) */
	bool lat_on, lat_done;      /* latency_target: searching; the final window is over */
	struct wl_lat_search lat;
	struct wl_ss *ss;        /* steady state record (shared by clones with group_reporting) */
	struct wl_dedupe dedupe; /* dedupe_percentage: contents of the writes */
	unsigned dedupe_index, dedupe_count; /* dedupe_global: this worker among those */
	unsigned gindex;                     /* this worker among all of the group */
	bool full;                           /* fill_device: a write found no space */
	unsigned dumped;                     /* error_dump: continued errors printed */
	bool cmdprio_on;                     /* cmdprio_percentage is set */
	unsigned nparked;                    /* slots parked (see run_slot.parked) */
	struct run_bl {
		uint64_t off;
		uint32_t len, gen;
	} * bl;                 /* verify_backlog: blocks written and not yet checked */
	unsigned bl_n, bl_next; /* entries, and the next to check */
	bool bl_due;            /* check them before writing on */
	unsigned vdumped;       /* verify_dump: blocks dumped */
	struct wl_rng prio_rng; /* which requests get cmdprio's priority */
	bool check_reads;       /* verify=meta on a reading job: check every read */
	bool cut;               /* its modelled waits were cut (run_loop_cut): -ECANCELED ends */
	int setup_error;
	char setup_msg[256];
	/* read by the progress thread */
	_Atomic uint64_t prog_bytes, prog_ios, prog_elapsed, prog_rbytes;
	_Atomic int prog_phase;
	_Atomic bool finished;
};

/* Set from signal handlers: every worker stops issuing, as at its deadline. */
static atomic_bool run_stop;

void wl_run_request_stop(void)
{
	atomic_store_explicit(&run_stop, true, memory_order_relaxed);
}

void wl_run_clear_stop(void)
{
	atomic_store(&run_stop, false);
}

bool wl_run_stop_requested(void)
{
	return atomic_load_explicit(&run_stop, memory_order_relaxed);
}

/* --- the completion path --- */

static void run_issue(struct run_worker *w, struct run_slot *s, uint64_t now);
static void run_flow_leave(struct run_worker *w);
static void run_record_error(struct run_worker *w, struct run_slot *s, int status);
static void run_slot_done(struct rl_io *io, int status);

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
	if (when > w->t_deadline)
		when = w->t_deadline;
	s->io.cb = run_pace_resume;
	w->inflight++;
	if (rl_exec_at(w->ex, &s->io, when, 0)) {
		w->inflight--;
		s->io.cb = run_slot_done;
		return false;
	}
	return true;
}

static inline uint64_t run_now(struct run_worker *w)
{
	return rl_exec_now(w->ex);
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
static void run_flow_leave(struct run_worker *w)
{
	if (w->flow && !w->flow_left) {
		w->flow_left = true;
		wl_flow_leave(w->flow, w->job->flow, w->flow_mine);
	}
}

/* Per-interval series of the job, starting at @start. */
static void run_series_init(struct run_worker *w, uint64_t start)
{
	const struct wl_job *job = w->job;
	uint64_t expect = job->runtime_ns ? job->runtime_ns / job->log_avg_ns + 2 : 64;

	if (expect > 1000000)
		expect = 1000000;
	for (int d = 0; d < WL_DIRS; d++) {
		st_series_init(&w->res->dir[d].series, job->log_avg_ns, start, expect);
		if (job->lat_log)
			st_series_init(&w->res->dir[d].lat, job->log_avg_ns, start, expect);
		if (job->lat_log && w->cmdprio_on)
			st_series_init(&w->res->dir[d].lat_cmd, job->log_avg_ns, start, expect);
	}
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
		if (r->prio_hist) {
			st_hist_init(&r->prio_hist[0]);
			st_hist_init(&r->prio_hist[1]);
		}
	}
	run_series_init(w, now);
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
static bool run_reads_back(const struct wl_job *job)
{
	return job->do_verify && (job->verify == WL_VERIFY_CRC32C ||
	                          (job->verify == WL_VERIFY_META && wl_job_writes(job)));
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

static void run_slot_done(struct rl_io *io, int status)
{
	struct run_slot *s = (struct run_slot *)io;
	struct run_worker *w = s->w;
	uint64_t now = run_now(w);

	w->inflight--;
	if (status == -ECANCELED && w->cut) {
		/* cut short as the job stopped: neither counted nor an error */
	} else if (status && w->job->fill_device && io->op == RL_OP_WRITE &&
	           (status == -ENOSPC || status == -EDQUOT)) {
		w->full = true; /* fill_device: the device is full, the job is done */
	} else if (status && wl_job_continues(w->job, io->op == RL_OP_READ ? 0 : 1, -status)) {
		run_error_continue(w, s, status);
	} else if (status) {
		run_record_error(w, s, status);
	} else if (io->op == RL_OP_FLUSH) {
		if (!s->end_sync)
			w->res->flushes++;
		if (w->measuring)
			w->t_last = now;
	} else if (s->verifying) {
		run_check(w, s);
	} else if (s->counted) {
		if (io->op == RL_OP_READ && w->check_reads)
			run_check(w, s);
		struct wl_dir_result *d = &w->res->dir[io->op];
		d->ios++;
		d->bytes += io->len;
		st_hist_add(&d->hist, now - s->t_submit);
		st_series_add(&d->series, now, io->len);
		if (w->job->lat_log)
			st_series_add(s->cmdprio ? &d->lat_cmd : &d->lat, now, now - s->t_submit);
		if (d->prio_hist)
			st_hist_add(&d->prio_hist[s->cmdprio], now - s->t_submit);
		if (w->ss)
			(void)wl_ss_add(w->ss, io->len, now - s->t_submit, now);
		w->t_last = now;
		atomic_store_explicit(&w->prog_bytes,
		                      atomic_load_explicit(&w->prog_bytes, memory_order_relaxed) +
		                          io->len,
		                      memory_order_relaxed);
		if (io->op == RL_OP_READ)
			atomic_store_explicit(
			    &w->prog_rbytes,
			    atomic_load_explicit(&w->prog_rbytes, memory_order_relaxed) + io->len,
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
	if (!(w->job->thinktime_ns && w->phase == PHASE_MAIN && io->op != RL_OP_FLUSH &&
	      run_pace_wait(w, s, now + w->job->thinktime_ns)))
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
	if (wl_rw_is_random(g->job->rw) && g->job->dist == WL_DIST_RANDOM && !g->job->norandommap &&
	    len < g->unit)
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
	if (now >= w->t_deadline) {
		/* the job ran until its deadline, also while it waited (rate, thinktime) */
		if (w->measuring && w->t_deadline > w->t_last)
			w->t_last = w->t_deadline;
		return false;
	}
	if (atomic_load_explicit(&run_stop, memory_order_relaxed) ||
	    atomic_load_explicit(w->group_stop, memory_order_relaxed))
		return false;
	if (w->measuring && w->budget && w->issued >= w->budget)
		return false;
	if (w->lat_done || w->full ||
	    (w->ss && atomic_load_explicit(&w->ss->stop, memory_order_relaxed)))
		return false;
	if (job->number_ios && w->ios_issued >= job->number_ios)
		return false;
	s->end_sync = false;
	if (w->sync_every && w->writes_since_sync >= w->sync_every) {
		/* fsync=N: this slot flushes instead of its next I/O (as fio) */
		w->writes_since_sync = 0;
		s->io.op = RL_OP_FLUSH;
		s->io.offset = 0;
		s->io.len = 0;
		s->io.flags = 0;
		s->io.ioprio = 0;
		s->cmdprio = false;
		s->verifying = false;
		s->counted = false;
		return true;
	}
	enum rl_op op = wl_gen_op(&w->gen);
	uint32_t len = wl_gen_len(&w->gen);
	if (w->measuring && w->budget && len > w->budget - w->issued)
		len = (uint32_t)(w->budget - w->issued);
	uint64_t off = wl_gen_offset(&w->gen, op, &len);
	s->io.op = (uint8_t)op;
	s->io.offset = off;
	s->io.len = len;
	s->gen = w->loop;
	s->cmdprio = w->cmdprio_on && op < RL_OP_TRIM && w->job->cmdprio_pct[op] &&
	             wl_rng_below(&w->prio_rng, 100) < w->job->cmdprio_pct[op];
	s->io.ioprio = s->cmdprio ? wl_job_cmdprio(w->job, op) : wl_job_ioprio(w->job);
	s->verifying = false;
	s->io.flags = 0;
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
			s->io.flags = RL_IO_FUA;
		if (job->verify == WL_VERIFY_CRC32C)
			wl_verify_fill(s->buf, len, off, w->data_seed, w->loop);
		else if (job->verify == WL_VERIFY_META)
			wl_meta_fill(job, &w->buf_rng, s->buf, len, off, w->ios_issued, w->gindex);
		else if (job->dedupe_pct)
			wl_dedupe_fill(job, &w->dedupe, s->buf, len);
		else if (job->refill_buffers)
			wl_buf_fill(job, &w->buf_rng, s->buf, len);
	}
	s->counted = w->measuring;
	if (job->invalidate) {
		/* fio reopens its file at every pass over it, dropping its cache */
		w->pass_bytes += run_account(&w->gen, len);
		if (w->pass_bytes >= w->gen.region_len) {
			w->pass_bytes = 0;
			rl_target_drop_cache(w->t);
		}
	}
	if (w->measuring && w->budget) {
		w->issued += run_account(&w->gen, len);
		w->loop_bytes += run_account(&w->gen, len);
		if (w->loop_bytes >= w->gen.region_len) {
			w->loop_bytes = 0;
			w->loop++;
			if (w->bl_n) /* the next loop overwrites them: check them first */
				w->bl_due = true;
			wl_gen_rewind(&w->gen);
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
	if (atomic_load_explicit(&run_stop, memory_order_relaxed))
		return false;
	uint64_t last_loop = w->issued ? (w->issued - 1) / w->gen.region_len : 0;

	while (w->verify_issued < w->issued) {
		uint64_t at = w->verify_issued;
		enum rl_op op = wl_gen_op(&w->vgen);
		uint32_t len = wl_gen_len(&w->vgen);
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
	s->t_submit = now;
	rl_target_submit(w->t, &s->io);
}

/* VERIFY begins once every MAIN request is back: replay from the same seed. */
static void run_start_verify(struct run_worker *w, struct run_slot *except, uint64_t now)
{
	w->phase = PHASE_VERIFY;
	atomic_store_explicit(&w->prog_phase, 2, memory_order_relaxed);
	w->res->verified = true;
	wl_gen_init(&w->vgen, w->job, w->gen.region_start, w->gen.region_len, w->t->block_size,
	            w->seed);
	for (unsigned i = 0; i < w->nslots; i++) {
		struct run_slot *o = &w->slots[i];
		o->parked = false;
		if (o != except && run_next_verify(w, o))
			run_submit(w, o, now);
	}
	w->nparked = 0;
}

static void run_issue(struct run_worker *w, struct run_slot *s, uint64_t now)
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
			if (w->flow && !w->flow_left && now < w->t_deadline &&
			    wl_flow_ahead(w->flow, w->job->flow, &w->flow_mine) &&
			    run_pace_wait(w, s, now + run_flow_sleep(w)))
				return;
			if (run_next_main(w, s, now)) {
				run_submit(w, s, now);
				return;
			}
			run_flow_leave(w);
			if (w->job->end_fsync && w->wrote && !w->end_synced && !w->res->errors) {
				if (w->inflight)
					return; /* the last request back issues the FLUSH */
				w->end_synced = true;
				s->end_sync = true;
				s->io.op = RL_OP_FLUSH;
				s->io.offset = 0;
				s->io.len = 0;
				s->io.flags = 0;
				s->verifying = false;
				s->counted = false;
				run_submit(w, s, now);
				return;
			}
			if (w->bl_n && !w->res->errors) {
				w->bl_due = true; /* the last blocks written */
				break;
			}
			if (!run_reads_back(w->job) || w->res->errors || w->bl) {
				w->phase = PHASE_DONE;
				return;
			}
			if (w->inflight)
				return; /* this slot idles; the last one back starts VERIFY */
			run_start_verify(w, s, now);
			break;
		case PHASE_BACKLOG:
			if (w->bl_next < w->bl_n) {
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
			w->bl_n = 0; /* all checked: write on */
			w->phase = PHASE_MAIN;
			break;
		case PHASE_VERIFY:
			if (run_next_verify(w, s))
				run_submit(w, s, now);
			else if (!w->inflight)
				w->phase = PHASE_DONE;
			return;
		case PHASE_DONE:
			return;
		}
	}
}

/* --- worker setup and loop --- */

static int run_worker_setup(struct run_worker *w)
{
	const struct wl_job *job = w->job;
	uint32_t maxbs = job->bs;
	uint64_t start = job->offset + w->index * job->offset_increment;
	uint64_t len = job->size ? job->size : w->t->size - start;

	for (unsigned i = 0; i < job->nbssplit; i++)
		if (job->bssplit[i].bs > maxbs)
			maxbs = job->bssplit[i].bs;
	if (job->verify && job->numjobs > 1 && !job->offset_increment) {
		/*
		 * Clones that verify split the region, so no block is written by
		 * two workers (their blocks could differ in size and contents).
		 */
		uint64_t share = len / job->numjobs / maxbs * maxbs;
		start += share * w->index;
		len = w->index + 1 == job->numjobs ? len - share * w->index : share;
	}
	if (wl_gen_init(&w->gen, job, start, len, w->t->block_size, w->seed)) {
		snprintf(w->setup_msg, sizeof(w->setup_msg),
		         "job '%s': the region (offset %llu, size %llu) holds no whole block of "
		         "%u bytes",
		         job->name, (unsigned long long)start, (unsigned long long)len,
		         w->gen.unit ? w->gen.unit : job->bs);
		return -EINVAL;
	}
	wl_rng_seed(&w->buf_rng, w->seed ^ 0xb5ad4eceda1ce2a9ull);
	if (job->dedupe_pct) /* unique blocks differ between jobs too: mix in the worker */
		wl_dedupe_init(&w->dedupe, job, w->gen.region_len,
		               w->seed ^ (uint64_t)w->gindex * 0xa0761d6478bd642full,
		               w->dedupe_index, w->dedupe_count);
	w->nslots = job->iodepth;
	w->depth = w->nslots;
	w->check_reads = job->verify == WL_VERIFY_META && job->do_verify && !wl_job_writes(job);
	w->lat_on = job->lat_target_ns > 0;
	w->slots = calloc(w->nslots, sizeof(*w->slots));
	if (!w->slots)
		return -ENOMEM;
	/*
	 * One region for every slot's buffer, placed as fio places it.  Where
	 * the buffers start matters even when nothing requires alignment: the
	 * kernel copies to and from the page cache measurably slower from a
	 * buffer 16 bytes past a page boundary, which is where malloc puts a
	 * large block and so where fio's buffered jobs have theirs.  So a job
	 * whose I/O reaches no O_DIRECT descriptor, with mem=malloc and no
	 * mem_align, takes malloc's address as fio does; otherwise the region
	 * is page aligned (plus mem_align).  With mem=mmaphuge a large region
	 * is aligned to and backed by transparent huge pages: a 1 MiB O_DIRECT
	 * request in 4 KiB pages needs up to 256 segments, more than many
	 * devices take in one request (virtio-blk: 254), so unless its pages
	 * happen to be physically contiguous it reaches the device split; in
	 * a huge page it is one segment, and sequential requests merge up to
	 * the device's largest request.
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
		align = total >= RUN_HUGE ? RUN_HUGE : 4096;
		total = (total + align - 1) & ~(align - 1);
		if (posix_memalign((void **)&w->bufmem, align, total))
			w->bufmem = NULL;
		else if (align == RUN_HUGE && job->mem == WL_MEM_HUGE)
			(void)madvise(w->bufmem, total, MADV_HUGEPAGE);
	}
	if (!w->bufmem)
		return -ENOMEM;
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
	/* io_size: that much per loop, within the region (wrapping round it if larger) */
	w->budget =
	    job->time_based ? 0 : (job->io_size ? job->io_size : w->gen.region_len) * job->loops;
	for (int d = 0; d < WL_DIRS; d++)
		st_hist_init(&w->res->dir[d].hist);
	if (job->verify_backlog && run_reads_back(job)) {
		w->bl = calloc(job->verify_backlog, sizeof(*w->bl));
		if (!w->bl)
			return -ENOMEM;
	}
	w->cmdprio_on = job->cmdprio_pct[0] || job->cmdprio_pct[1];
	wl_rng_seed(&w->prio_rng, w->seed ^ 0x2545f4914f6cdd1dull);
	for (int d = 0; w->cmdprio_on && d < RL_OP_TRIM; d++) {
		w->res->dir[d].prio_hist = calloc(2, sizeof(struct st_hist));
		if (!w->res->dir[d].prio_hist)
			return -ENOMEM;
		st_hist_init(&w->res->dir[d].prio_hist[0]);
		st_hist_init(&w->res->dir[d].prio_hist[1]);
	}
	return 0;
}

/* Start issuing: the clock of the job starts here (after startdelay, if any). */
static void run_worker_begin(struct run_worker *w)
{
	const struct wl_job *job = w->job;
	uint64_t now = run_now(w);

	w->t_start = now;
	w->t_measure = now + job->ramp_ns;
	w->t_deadline = job->runtime_ns ? w->t_measure + job->runtime_ns : UINT64_MAX;
	w->t_last = w->t_measure;
	run_series_init(w, w->t_measure);
	if (w->ss)
		wl_ss_start(w->ss, now);
	if (w->lat_on) {
		wl_lat_init(&w->lat, job, now);
		w->depth = w->lat.qd;
	}
	w->measuring = job->ramp_ns == 0;
	atomic_store(&w->prog_phase, w->measuring ? 1 : 0);
	if (job->invalidate)
		rl_target_drop_cache(w->t);
	if (job->verify_only) {
		/* MAIN would have issued exactly its budget: replay that and check. */
		w->issued = w->budget;
		run_start_verify(w, NULL, now);
		if (!w->inflight)
			w->phase = PHASE_DONE;
		return;
	}
	for (unsigned i = 0; i < w->nslots && w->phase == PHASE_MAIN; i++)
		run_issue(w, &w->slots[i], now);
	if (!w->inflight && w->phase == PHASE_MAIN)
		w->phase = PHASE_DONE;
}

/* startdelay: slot 0 rides a timer and starts the worker when it fires. */
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
	if (rl_exec_at(w->ex, &s->io, run_now(w) + w->job->startdelay_ns, 0)) {
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
}

/* Will @w issue nothing more: done, stopped, or past its deadline in MAIN? */
static bool run_worker_stopping(struct run_worker *w)
{
	if (w->phase == PHASE_DONE || atomic_load_explicit(&run_stop, memory_order_relaxed))
		return true;
	return w->phase == PHASE_MAIN &&
	       (atomic_load_explicit(w->group_stop, memory_order_relaxed) ||
	        run_now(w) >= w->t_deadline);
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
			if (rc == 0 && active && rl_exec_idle(ex))
				return -EDEADLK; /* requests lost: a target broke its contract */
		}
	}
	return 0;
}

struct run_thread {
	struct run_worker **ws;
	unsigned n;
	enum rl_exec_kind kind;
	int rc;
	pthread_barrier_t *barrier;
};

static void *run_thread_main(void *arg)
{
	struct run_thread *th = arg;
	struct rl_exec *ex = NULL;
	unsigned depth = 0;
	int rc;

	for (unsigned i = 0; i < th->n; i++)
		depth += th->ws[i]->job->iodepth;
	rc = rl_exec_create(th->kind, (size_t)depth * 16 + 256, depth < 8 ? 8 : depth, &ex);
	if (!rc && th->kind == RL_EXEC_VIRTUAL) {
		/* The stacks' simulated time goes on; jobs of a wave share one clock. */
		for (unsigned i = 0; i < th->n; i++)
			if (th->ws[i]->t->vtime > ex->vnow)
				ex->vnow = th->ws[i]->t->vtime;
	}
	if (!rc) {
		/* iodepth_batch: the smallest batch of the jobs sharing the executor */
		for (unsigned i = 0; i < th->n; i++) {
			const struct wl_job *j = th->ws[i]->job;
			unsigned b = j->iodepth_batch ? j->iodepth_batch : j->iodepth;
			if (!ex->submit_batch || b < ex->submit_batch)
				ex->submit_batch = b;
		}
	}
	if (rc) {
		snprintf(th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg),
		         "cannot create the %s executor: %s", rl_exec_kind_name(th->kind),
		         strerror(-rc));
		th->ws[0]->setup_error = rc;
	}
	/* numa_mem_policy: before the buffers are allocated, so they follow it */
	if (!rc && th->kind != RL_EXEC_VIRTUAL && th->ws[0]->job->numa_mpol != WL_MPOL_NONE) {
		rc = wl_numa_mpol_apply(th->ws[0]->job, th->ws[0]->setup_msg,
		                        sizeof(th->ws[0]->setup_msg));
		if (rc)
			th->ws[0]->setup_error = rc;
	}
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
	/* prio / prioclass: also the thread's own, for engines without per-request priority */
	if (!rc && th->kind != RL_EXEC_VIRTUAL && wl_job_ioprio(th->ws[0]->job) &&
	    syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, wl_job_ioprio(th->ws[0]->job))) {
		rc = -errno;
		snprintf(th->ws[0]->setup_msg, sizeof(th->ws[0]->setup_msg),
		         "job '%s': prio/prioclass: ioprio_set failed: %s", th->ws[0]->job->name,
		         strerror(-rc));
		th->ws[0]->setup_error = rc;
	}
	/* numa_cpu_nodes: the thread runs on the CPUs of those nodes */
	const struct wl_job *job0 = th->ws[0]->job;
	if (!rc && th->kind != RL_EXEC_VIRTUAL && job0->numa_nodes) {
		struct run_worker *w0 = th->ws[0];
		cpu_set_t set;
		char missing[64];
		rc = wl_numa_cpus(job0->numa_nodes, &set, missing, sizeof(missing), w0->setup_msg,
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
			snprintf(
			    w0->res->note, sizeof(w0->res->note),
			    "job '%.40s': numa_cpu_nodes: node %s does not exist on this machine; "
			    "the job runs on the CPUs of the others",
			    job0->name, missing);
		if (rc)
			w0->setup_error = rc;
	}
	/* cpus_allowed: a real worker's thread keeps to its CPUs (numa_cpu_nodes did both) */
	if (!rc && th->kind != RL_EXEC_VIRTUAL && job0->cpus && !job0->numa_nodes) {
		cpu_set_t set;
		CPU_ZERO(&set);
		unsigned ncpu = (unsigned)__builtin_popcountll(job0->cpus),
		         pick = th->ws[0]->index % ncpu;
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
			th->ws[0]->setup_error = rc = -e;
		}
	}
	/* Everyone starts together, or nobody starts. */
	pthread_barrier_wait(th->barrier);
	pthread_barrier_wait(th->barrier);
	for (unsigned i = 0; i < th->n; i++)
		if (th->ws[i]->setup_error)
			rc = th->ws[i]->setup_error;
	if (!rc && !th[0].ws[0]->res->first_error)
		rc = run_loop(th->ws, th->n, ex);
	for (unsigned i = 0; i < th->n; i++)
		run_flow_leave(th->ws[i]);
	th->rc = rc;
	if (ex && th->kind == RL_EXEC_VIRTUAL)
		for (unsigned i = 0; i < th->n; i++)
			th->ws[i]->t->vtime = ex->vnow;
	for (unsigned i = 0; i < th->n; i++)
		atomic_store(&th->ws[i]->finished, true);
	rl_exec_destroy(ex);
	return NULL;
}

/* --- merging and the public entry --- */

static void run_merge(struct wl_result *dst, const struct wl_result *src)
{
	for (int d = 0; d < WL_DIRS; d++) {
		dst->dir[d].ios += src->dir[d].ios;
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
	}
	if ((src->errors || src->cont_errors) && !dst->errors && !dst->cont_errors) {
		dst->first_error = src->first_error;
		dst->first_error_offset = src->first_error_offset;
		dst->first_error_op = src->first_error_op;
	}
	dst->errors += src->errors;
	dst->cont_errors += src->cont_errors;
	dst->flushes += src->flushes;
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

static void run_progress(struct run_worker *ws, unsigned n, const struct wl_run_opts *opts,
                         bool virtual_time, double wall)
{
	const struct wl_job *job = ws[0].job;
	struct wl_progress p = {.job = job, .virtual_time = virtual_time, .wall_s = wall};
	double frac_sum = 0;
	int phase = 2;

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
	opts->progress(opts->progress_arg, &p);
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
	enum rl_exec_kind kind = virt                             ? RL_EXEC_VIRTUAL
	                         : job->engine == WL_ENGINE_PSYNC ? RL_EXEC_PSYNC
	                                                          : RL_EXEC_URING;
	unsigned n = job->numjobs;

	/* The last worker's region lies highest (offset_increment moves each one up). */
	uint64_t last = job->offset + (uint64_t)(n - 1) * job->offset_increment;
	if (last >= t->size || (job->size && job->size > t->size - last)) {
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
	for (unsigned i = 0; i <= job->nbssplit; i++) {
		uint32_t bs = i < job->nbssplit ? job->bssplit[i].bs : job->bs;
		if ((i < job->nbssplit || !job->nbssplit) && bs % t->block_size) {
			snprintf(msg, msglen,
			         "job '%s': %s=%u is not a multiple of the target's logical block "
			         "size (%u bytes)",
			         job->name, job->nbssplit ? "bssplit" : "bs", bs, t->block_size);
			return -EINVAL;
		}
	}
	if (job->offset % t->block_size || job->offset_increment % t->block_size) {
		snprintf(msg, msglen,
		         "job '%s': %s=%llu is not a multiple of the target's logical block size "
		         "(%u bytes)",
		         job->name, job->offset % t->block_size ? "offset" : "offset_increment",
		         (unsigned long long)(job->offset % t->block_size ? job->offset
		                                                          : job->offset_increment),
		         t->block_size);
		return -EINVAL;
	}
	if (kind == RL_EXEC_URING && job->iodepth > RUN_URING_DEPTH_MAX) {
		snprintf(msg, msglen,
		         "job '%s': iodepth=%u: the io_uring engine keeps at most %u requests in "
		         "flight per job (use numjobs for more, or ioengine=psync)",
		         job->name, job->iodepth, RUN_URING_DEPTH_MAX);
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
	if (virt)
		return RL_EXEC_VIRTUAL;
	switch (job->engine) {
	case WL_ENGINE_PSYNC:
		return RL_EXEC_PSYNC;
	case WL_ENGINE_LIBAIO:
		return RL_EXEC_LIBAIO;
	case WL_ENGINE_IO_URING:
	case WL_ENGINE_NULL:
		break;
	}
	return RL_EXEC_URING;
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
	if (!job->randrepeat) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		job->seed ^= (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	for (unsigned k = 0; k < n; k++) {
		struct rl_target *t = it->targets[k];
		/* offset_increment moves clone k up */
		uint64_t start = job->offset + (uint64_t)k * job->offset_increment;
		if (start >= t->size || (job->size && job->size > t->size - start)) {
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
		if (job->rw >= WL_RW_TRIM && !(t->caps & RL_CAP_TRIM)) {
			snprintf(msg, msglen, "job '%s': the target does not support trim",
			         job->name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

int wl_run_group(struct wl_run_item *items, size_t nitems, const struct wl_run_opts *opts,
                 char *msg, size_t msglen)
{
	unsigned n = 0, nthreads;
	bool virt = false, real = false;
	struct run_worker *ws = NULL, **wptrs = NULL;
	struct wl_result *parts = NULL;
	struct run_thread *ths = NULL;
	pthread_t *tids = NULL;
	pthread_barrier_t barrier;
	atomic_bool group_stop = false;
	struct wl_flow_set *flows = NULL;
	struct wl_ss *sss = NULL; /* steady state: one per worker, shared with group_reporting */
	int rc = 0;

	for (size_t i = 0; i < nitems; i++) {
		struct wl_result *res = items[i].res;
		memset(res, 0, sizeof(*res));
		for (int d = 0; d < WL_DIRS; d++)
			st_hist_init(&res->dir[d].hist);
	}
	for (size_t i = 0; i < nitems; i++) {
		rc = run_prepare(&items[i], msg, msglen);
		if (rc)
			return rc;
		n += items[i].job->numjobs;
		for (unsigned k = 0; k < items[i].job->numjobs; k++) {
			if (rl_target_leaf_caps(items[i].targets[k]) & RL_CAP_VIRTUAL)
				virt = true;
			else
				real = true;
		}
	}
	if (!n)
		return 0;
	if (virt && real) {
		snprintf(msg, msglen,
		         "jobs that run at the same time cannot mix simulated and real targets "
		         "(separate them with stonewall)");
		return -EINVAL;
	}
	for (size_t i = 0; i < nitems; i++)
		items[i].res->clock = run_kind(&items[i].res->job, virt);
	nthreads = virt ? 1 : n;
	ws = calloc(n, sizeof(*ws));
	parts = calloc(n, sizeof(*parts));
	ths = calloc(nthreads, sizeof(*ths));
	tids = calloc(nthreads, sizeof(*tids));
	wptrs = calloc(n, sizeof(*wptrs));
	flows = calloc(1, sizeof(*flows));
	sss = calloc(n, sizeof(*sss));
	if (!ws || !parts || !ths || !tids || !wptrs || !flows || !sss) {
		rc = -ENOMEM;
		goto out;
	}
	unsigned w = 0, ndedupe = 0;
	for (size_t i = 0; i < nitems; i++) {
		const struct wl_job *job = &items[i].res->job;
		for (unsigned k = 0; k < job->numjobs; k++, w++) {
			ws[w].job = job;
			ws[w].group_stop = &group_stop;
			ws[w].t = items[i].targets[k];
			ws[w].index = k;
			ws[w].res = &parts[w];
			ws[w].seed = job->seed + 0x9e3779b97f4a7c15ull * (k + 1);
			ws[w].data_seed = job->seed;
			ws[w].sync_every = job->fsync_n;
			for (int d = 0; d < WL_DIRS; d++)
				if (job->rate[d] || job->rate_iops[d])
					ws[w].paced = true;
			if (job->fdatasync_n &&
			    (!ws[w].sync_every || job->fdatasync_n < ws[w].sync_every))
				ws[w].sync_every = job->fdatasync_n;
			ws[w].gindex = w;
			if (job->dedupe_pct && job->dedupe_global)
				ws[w].dedupe_index = ndedupe++;
			if (job->flow) {
				ws[w].flow = wl_flow_join(flows, job->flow_id, job->flow);
				if (!ws[w].flow) {
					snprintf(
					    msg, msglen,
					    "job '%s': flow_id: more than %d flow groups run at "
					    "the same time",
					    job->name, WL_FLOW_MAX);
					rc = -EINVAL;
					goto out;
				}
			}
			if (job->ss_dur_ns) {
				if (k == 0 || !job->group_reporting) {
					rc = wl_ss_init(&sss[w], job);
					if (rc)
						goto out;
					ws[w].ss = &sss[w];
				} else {
					ws[w].ss = ws[w - k].ss; /* judged together */
				}
			}
			wptrs[w] = &ws[w];
		}
	}
	for (unsigned i = 0; i < n; i++)
		ws[i].dedupe_count = ndedupe;
	pthread_barrier_init(&barrier, NULL, nthreads + 1);
	for (unsigned i = 0; i < nthreads; i++) {
		ths[i].ws = virt ? wptrs : &wptrs[i];
		ths[i].n = virt ? n : 1;
		ths[i].kind = virt ? RL_EXEC_VIRTUAL : run_kind(ws[i].job, false);
		ths[i].barrier = &barrier;
		if (pthread_create(&tids[i], NULL, run_thread_main, &ths[i])) {
			/* Cannot happen with sane limits; stop cleanly if it does. */
			snprintf(msg, msglen, "cannot start worker thread %u", i);
			for (unsigned j = 0; j < i; j++)
				pthread_cancel(tids[j]);
			rc = -EAGAIN;
			goto out;
		}
	}
	pthread_barrier_wait(&barrier); /* all set up */
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	for (unsigned i = 0; i < n; i++)
		if (ws[i].setup_error && !rc) {
			rc = ws[i].setup_error;
			snprintf(msg, msglen, "%s", ws[i].setup_msg);
		}
	double t0 = run_wall_now();
	pthread_barrier_wait(&barrier); /* go (or stop, if setup failed) */
	for (;;) {
		unsigned done = 0;
		for (unsigned i = 0; i < n; i++)
			done += atomic_load(&ws[i].finished);
		if (done == n)
			break;
		if (opts && opts->progress && !rc)
			run_progress(ws, n, opts, virt, run_wall_now() - t0);
		struct timespec ts = {0, 50 * 1000 * 1000};
		for (int k = 0; k < 5; k++) {
			nanosleep(&ts, NULL);
			done = 0;
			for (unsigned i = 0; i < n; i++)
				done += atomic_load(&ws[i].finished);
			if (done == n)
				break;
		}
	}
	for (unsigned i = 0; i < nthreads; i++) {
		pthread_join(tids[i], NULL);
		if (ths[i].rc && !rc) {
			rc = ths[i].rc;
			snprintf(msg, msglen, "job '%s' failed: %s", ths[i].ws[0]->job->name,
			         strerror(-rc));
		}
	}
	getrusage(RUSAGE_SELF, &ru1);
	double cpu_user = (ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
	                  (ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6;
	double cpu_sys = (ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
	                 (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
	pthread_barrier_destroy(&barrier);
	if (!rc) {
		w = 0;
		for (size_t i = 0; i < nitems; i++) {
			struct wl_result *res = items[i].res;
			uint64_t runtime = 0;
			for (unsigned k = 0; k < res->job.numjobs; k++, w++) {
				uint64_t r = ws[w].t_last > ws[w].t_measure
				                 ? ws[w].t_last - ws[w].t_measure
				                 : 0;
				if (r > runtime)
					runtime = r;
				if (ws[w].lat_on && !parts[w].lat_depth)
					parts[w].lat_depth = ws[w].lat.qd;
				if (ws[w].ss && (k == 0 || !res->job.group_reporting))
					parts[w].ss = wl_ss_report(ws[w].ss);
				run_merge(res, &parts[w]);
			}
			res->runtime_ns = runtime;
			for (unsigned k = 0; items[i].clones && k < res->job.numjobs; k++) {
				struct wl_result *c = &items[i].clones[k];
				struct run_worker *cw = &ws[w - res->job.numjobs + k];
				wl_result_init(c, &res->job);
				c->job.numjobs = 1;
				c->clock = res->clock;
				run_merge(c, cw->res);
				c->runtime_ns =
				    cw->t_last > cw->t_measure ? cw->t_last - cw->t_measure : 0;
				c->cpu_user_s = cpu_user;
				c->cpu_sys_s = cpu_sys;
			}
			for (int d = 0; d < WL_DIRS; d++)
				if (res->job.rate_min[d] && res->dir[d].ios &&
				    wl_result_bw(res, (enum rl_op)d) <
				        (double)res->job.rate_min[d] &&
				    !res->rate_min_missed)
					res->rate_min_missed = d + 1;
			res->cpu_user_s = cpu_user;
			res->cpu_sys_s = cpu_sys;
			res->target_report = rl_target_report(items[i].targets[0]);
		}
	}
out:
	for (unsigned i = 0; parts && ws && i < n; i++) {
		for (int d = 0; d < WL_DIRS; d++) {
			st_series_free(&parts[i].dir[d].series);
			st_series_free(&parts[i].dir[d].lat);
			st_series_free(&parts[i].dir[d].lat_cmd);
			free(parts[i].dir[d].prio_hist);
		}
		wl_ss_report_free(parts[i].ss);
		if (sss)
			wl_ss_free(&sss[i]);
		free(ws[i].bufmem);
		free(ws[i].slots);
		free(ws[i].bl);
	}
	free(wptrs);
	free(flows);
	free(sss);
	free(ws);
	free(parts);
	free(ths);
	free(tids);
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

void wl_result_init(struct wl_result *res, const struct wl_job *job)
{
	memset(res, 0, sizeof(*res));
	res->job = *job;
	for (int d = 0; d < WL_DIRS; d++)
		st_hist_init(&res->dir[d].hist);
}

void wl_result_merge(struct wl_result *dst, const struct wl_result *src)
{
	bool first = !dst->runtime_ns && !dst->dir[0].ios && !dst->dir[1].ios && !dst->dir[2].ios;

	run_merge(dst, src);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->clock = src->clock;
	if (!dst->rate_min_missed)
		dst->rate_min_missed = src->rate_min_missed;
	if (first) {
		dst->cpu_user_s = src->cpu_user_s;
		dst->cpu_sys_s = src->cpu_sys_s;
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
		free(res->dir[d].prio_hist);
		res->dir[d].prio_hist = NULL;
	}
	if (res->target_report)
		json_object_put(res->target_report);
	res->target_report = NULL;
	wl_ss_report_free(res->ss);
	res->ss = NULL;
}

double wl_result_bw(const struct wl_result *res, enum rl_op d)
{
	return res->runtime_ns ? (double)res->dir[d].bytes * 1e9 / (double)res->runtime_ns : 0;
}

double wl_result_iops(const struct wl_result *res, enum rl_op d)
{
	return res->runtime_ns ? (double)res->dir[d].ios * 1e9 / (double)res->runtime_ns : 0;
}
