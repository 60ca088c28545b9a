/*
 * run_priv.h - what the pieces of the job engine share (private to
 * src/workload/run*.c; the public API is run.h).
 *
 * Design: a worker (struct run_worker) owns its request slots and moves
 * through the phases described in run.c.  The pieces are:
 *   run.c         the request path: issue, completion, pacing, verify;
 *   run_worker.c  one worker's setup and the loop of the thread that drives
 *                 a set of workers on one executor;
 *   run_group.c   the group runner: workers for every clone of every job,
 *                 their threads, progress and the public entry points;
 *   run_result.c  the hand-off to reporting: merging workers' results.
 * Nothing here is meant for other folders.
 */
#ifndef RL_WORKLOAD_RUN_PRIV_H
#define RL_WORKLOAD_RUN_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/exec.h"
#include "workload/buf.h"
#include "workload/control.h"
#include "workload/gen.h"
#include "workload/run.h"
#include "workload/trace.h"

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

/* The files of a worker's target (run_files.c). */
struct run_files {
	unsigned n;             /* files: the members of a concat() target, else 1 */
	uint64_t *start, *size; /* each file's bytes within the target */
	/* file_service_type: per-file generators (service set), each file's share of a loop
	   and the bytes issued on it in this one; the current file and its requests left */
	bool service;
	struct wl_gen *gens;
	uint64_t *share, *done;
	unsigned cur;
	uint32_t left;
	/* write_iolog: the requests issued (files named), the file of the last one */
	struct wl_trace log;
	unsigned last;
	bool log_failed;
};

struct run_worker {
	const struct wl_job *job;
	atomic_bool *group_stop; /* set when an exitall job of the group ends */
	atomic_uint *io_left;    /* workers of the group that do I/O and are still running */
	bool noio;               /* cpuio, exec: requests are counted but move no bytes */
	bool scramble;           /* plain writes are scrambled (wl_buf_scrambles) */
	/* its thread's user s, system s, context switches, major and minor faults
	 * over the run (real executors, where each worker has a thread) */
	double thread_cpu[5];
	bool has_thread_cpu;
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
	bool sync_full;      /* that FLUSH is fsync= 's (fsync(2)), not fdatasync= 's */
	uint64_t data_seed;  /* verify contents: the same for every worker */
	uint64_t t_start, t_measure, t_deadline, t_last;
	bool measuring;
	uint64_t budget, issued; /* bytes, MAIN phase */
	uint64_t loop_bytes;     /* bytes issued in the current loop */
	uint64_t pass_bytes;     /* bytes issued in the current pass over the region (invalidate) */
	uint32_t loop;
	uint64_t verify_issued;     /* bytes replayed in VERIFY */
	uint64_t t_vstart, v_base;  /* VERIFY began; the main phase's read time before it */
	uint64_t v_span;            /* how long VERIFY has run, to its latest completion */
	uint64_t cpu_wall_ns;       /* wall time between thread_cpu's two readings */
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
	uint8_t io_flags;                    /* the engine's RL_IO_* flags (engine.c) */
	unsigned nparked;                    /* slots parked (see run_slot.parked) */
	struct run_bl {
		uint64_t off;
		uint32_t len, gen;
	} * bl;                 /* verify_backlog: blocks written and not yet checked */
	unsigned bl_n, bl_next; /* entries, and the next to check */
	bool bl_due;            /* check them before writing on */
	bool bl_drain;          /* check them all (a loop or the job ends), batch by batch */
	unsigned vdumped;       /* verify_dump: blocks dumped */
	struct wl_rng prio_rng; /* which requests get cmdprio's priority */
	bool check_reads;       /* verify=meta on a reading job: check every read */
	bool fresh_issue;       /* slat measured: each request's issue time read afresh */
	bool cut;               /* its modelled waits were cut (run_loop_cut): -ECANCELED ends */
	uint8_t drained;        /* phases whose last request it issued (rl_exec_drain_note) */
	struct wl_trace trace;  /* read_iolog: the requests to replay (n 0: none) */
	size_t trace_pos;       /* read_iolog: the next request */
	uint64_t trace_t0;      /* read_iolog: when this pass over the trace began */
	struct run_files files; /* which file each request goes to; write_iolog */
	int setup_error;
	char setup_msg[256];
	/* read by the progress thread */
	_Atomic uint64_t prog_bytes, prog_ios, prog_elapsed, prog_rbytes;
	_Atomic int prog_phase;
	_Atomic bool finished;
	/* a snapshot for the progress thread: it sets 1, the worker fills snap and sets 2, the
	   progress thread reads snap and sets 0 (snap is the worker's own while not 2) */
	_Atomic int snap_state;
	struct wl_result snap;
};

/* A thread and the workers it drives on its executor. */
struct run_thread {
	struct run_worker **ws;
	unsigned n;
	enum rl_exec_kind kind;
	int rc;
	pthread_barrier_t *barrier;
	int done_fd; /* the group's eventfd: written once when the thread's workers finish */
};

static inline uint64_t run_now(struct run_worker *w)
{
	return rl_exec_now(w->ex);
}

/* engine.c: the executor of an engine (real clock) and its requests' RL_IO_* flags */
enum rl_exec_kind wl_engine_exec(enum wl_engine e);
uint8_t wl_engine_io_flags(enum wl_engine e);
/* engine.c: requests of @e move no bytes (cpuio, exec); the pause after one that took @lat_ns */
bool wl_engine_noio(enum wl_engine e);
uint64_t wl_engine_think_ns(const struct wl_job *job, uint64_t lat_ns);

/* run.c: the request path */
void run_issue(struct run_worker *w, struct run_slot *s, uint64_t now);
void run_slot_done(struct rl_io *io, int status);
void run_flow_leave(struct run_worker *w);
/* run_worker.c: CPU figures between two getrusage readings (user s, system s,
   context switches, major and minor faults) */
struct rusage;
void run_rusage_diff(const struct rusage *a, const struct rusage *b, double out[5]);
int run_series_reserve(struct run_worker *w);
void run_series_start(struct run_worker *w, uint64_t start);
uint64_t run_start_verify(struct run_worker *w, struct run_slot *except, uint64_t now);
/* Does a job read its written blocks back after writing them? */
bool run_reads_back(const struct wl_job *job);

/* run_trace.c: read_iolog */
/* Read the trace; *maxbs grows to its largest request. */
int run_trace_setup(struct run_worker *w, uint32_t *maxbs);
/* A replay's iodepth when iodepth= is not given: the trace's recorded depth. */
int run_trace_depth(struct wl_job *job, char *msg, size_t msglen);
/* The time the next request is due, or 0 when it may go now. */
uint64_t run_trace_due(const struct run_worker *w);
/* The next request in *op, *off, *len; false at the trace's end. */
bool run_trace_next(struct run_worker *w, uint64_t now, enum rl_op *op, uint64_t *off,
                    uint32_t *len);

/* run_files.c: a job's files (file_service_type, read_iolog per file, write_iolog) */
/* After the generator's setup: the files' ranges, per-file generators, the log's names. */
int run_files_setup(struct run_worker *w);
void run_files_free(struct run_worker *w);
/* file_service_type (files.service): the next request's file and offset; *len at most @cap
   (0: any) */
uint64_t run_files_next(struct run_worker *w, enum rl_op *op, uint32_t *len, uint64_t cap);
/* A new loop: every file's generator starts again. */
void run_files_rewind(struct run_worker *w);
/* Where trace request @io goes: its own file's range, or the whole region. */
void run_files_map_trace(const struct run_worker *w, const struct wl_trace_io *io, uint64_t *off,
                         uint32_t *len);
/* write_iolog: keep the request issued at @now. */
void run_files_log(struct run_worker *w, uint64_t now, enum rl_op op, uint64_t off, uint32_t len);
/* write_iolog: append the kept requests to the job's file; 0 or -errno with @msg. */
int run_files_write_log(struct run_worker *w, char *msg, size_t msglen);

/* run_worker.c: the body of a worker thread (struct run_thread) */
void *run_thread_main(void *arg);

/* run_result.c: add @src's figures to @dst; each job's result from its workers' */
void run_merge(struct wl_result *dst, const struct wl_result *src);
void run_collect(struct wl_run_item *items, size_t nitems, struct run_worker *ws,
                 struct wl_result *parts, const double cpu[5]);

#endif
