/*
 * run.h - running one job against a target and collecting its statistics.
 *
 * wl_run_group() runs several jobs at the same time (the jobs of one fio
 * wave), each clone of numjobs on its own target (usually all the same);
 * wl_run_job() is the one-job case.  The clock comes from the stacks: if
 * any has a simulated leaf every worker of every job runs in one
 * virtual-time executor on one thread (so concurrent simulated jobs share
 * one clock); otherwise each worker gets its own OS thread and a real
 * executor (io_uring; libaio; psync for psync/sync/pvsync/pvsync2).  The
 * calling thread only watches and reports progress.
 *
 * Each worker keeps iodepth requests in flight.  A request's latency is
 * completion time minus issue time on the executor's clock (fio's lat).  On
 * io_uring and libaio it is split where the submit call that handed the
 * request to the kernel returned (rl_io.t_issued): slat before, clat after,
 * as fio's engines stamp their issue time; elsewhere clat is the whole
 * latency and there is no slat (fio's sync engines record none).
 * Statistics count requests submitted after ramp_time;
 * the measured runtime runs from the end of ramp-up to the last counted
 * completion.
 */
#ifndef RL_WORKLOAD_RUN_H
#define RL_WORKLOAD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/target.h"
#include "stats/hist.h"
#include "stats/histlog.h"
#include "stats/series.h"
#include "stats/unitlog.h"
#include "workload/job.h"

struct json_object;

/** Statistics of one direction (read, write or trim). */
struct wl_dir_result {
	uint64_t ios; /* completed, counted requests (a verify pass's reads among reads) */
	/* a verify pass's reads: the read direction's own runtime (fio's runtime[ddir]: the
	   pass's, plus the main phase's when it read too); 0: the result's runtime_ns */
	uint64_t runtime_ns;
	uint64_t bytes;      /* their bytes */
	struct st_hist hist; /* latency (fio's lat: issue to completion), ns */
	/* io_uring and libaio: [0] submission latency (issue to the submit call's return,
	   fio's slat; only requests the engine handed to the kernel themselves), [1]
	   completion latency (from that return, or from the issue without a slat: fio's
	   clat); NULL on other engines, where clat is hist and there is no slat */
	struct st_hist *sc;
	struct st_series series; /* bytes and I/Os per interval */
	struct st_series lat;    /* write_lat_log only: latency sum (ns, as "bytes") per interval */
	/* cmdprio_percentage: [0] requests at the job's priority, [1] at cmdprio's (fio's
	   "prios"); NULL without.  lat then holds [0]'s latencies and lat_cmd [1]'s. */
	struct st_hist *prio_hist;
	struct st_series lat_cmd;
	struct st_histlog histlog; /* write_hist_log: latency bins per log_hist_msec */
};

#define WL_DIRS 3 /* read, write, trim: indexed by enum rl_op */

struct wl_result {
	struct wl_job job;
	struct wl_dir_result dir[WL_DIRS];
	uint64_t runtime_ns;     /* measured time (ramp excluded) */
	uint64_t verify_ns;      /* the VERIFY pass after it (fio's job_runtime counts both) */
	enum rl_exec_kind clock; /* executor kind used */
	uint64_t errors;         /* failed requests that stopped the job (or would have) */
	uint64_t cont_errors;    /* failed requests continue_on_error went past */
	int first_error;         /* the first failure's status (negative errno), 0 if none */
	uint64_t first_error_offset;
	enum rl_op first_error_op;
	int rate_min_missed; /* rate_min: 1 + the first direction that ran slower, 0 if none */
	/* FLUSH requests of fsync= / fdatasync= (end_fsync's is not counted, as fio) */
	uint64_t flushes;
	uint64_t fsyncs; /* of them fsync= 's: fio's sync "total_ios" */
	/* calls that submitted / reaped 1-4, 5-8, ... requests (struct rl_exec's batch_*) */
	uint64_t batch_submit[7], batch_complete[7];
	struct st_hist sync_hist; /* their times, submit to completion (fio's sync lat_ns) */
	/* verify=crc32c */
	bool verified;                     /* a verify pass ran */
	uint64_t verify_blocks;            /* blocks checked */
	uint64_t verify_bad;               /* blocks that failed */
	uint64_t verify_first_bad;         /* absolute offset of the first wrong byte */
	char verify_msg[256];              /* description of the first failure */
	struct json_object *target_report; /* rl_target_report() after the job, or NULL */
	/*
	 * CPU time of the job during its run: its workers' threads, each with
	 * an equal share of what the process's other threads spent (io_uring's
	 * workers, the main thread).  On the virtual executor, one thread for
	 * every job, the whole process's.  cpu_runtime_ns is the summed runtime
	 * of the workers counted, so CPU / cpu_runtime_ns is the average per
	 * worker, fio's usr_cpu and sys_cpu (each fio job being a process).
	 */
	double cpu_user_s, cpu_sys_s;
	uint64_t cpu_runtime_ns;
	bool cpu_own;              /* the figures are the job's own (they add up over jobs) */
	uint64_t ctx, majf, minf;  /* context switches, major and minor faults, as the CPU */
	unsigned lat_depth;        /* latency_target: the depth the search settled on */
	struct wl_ss_report *ss;   /* ss_dur: the steady state window, or NULL */
	char note[256];            /* something the user should hear of, or "" */
	struct st_unitlog unitlog; /* log_avg_msec=0 with a bw, iops or lat log: every I/O */
};

/** Live figures for a progress line. */
/** One worker's share of a progress report (a job, or one of its numjobs clones). */
struct wl_progress_worker {
	const struct wl_job *job;
	uint64_t bytes, read_bytes; /* since the start of measurement */
	double elapsed_s;           /* on the run's clock */
};

struct wl_progress {
	const struct wl_job *job;
	double fraction;     /* 0..1 of the job done */
	uint64_t bytes, ios; /* since the start of measurement */
	uint64_t read_bytes; /* the part of bytes that was read */
	double elapsed_s;    /* on the run's clock */
	double wall_s;       /* wall-clock seconds since the start */
	bool virtual_time;
	const char *phase; /* "ramp", "run", "verify" */
	unsigned njobs;    /* workers running (all jobs and clones of the group) */
	const struct wl_progress_worker *workers; /* njobs of them, or NULL (no memory) */
	/* with wl_run_opts.snapshot_ns, every that often: each worker's figures so far (njobs
	   of them, runtime and CPU to now), else NULL */
	const struct wl_result *snaps;
};

struct wl_run_opts {
	/** Called about 4 times a second from the calling thread; may be NULL. */
	void (*progress)(void *arg, const struct wl_progress *p);
	void *progress_arg;
	/** Wall-clock ns between progress calls that carry wl_progress.snaps; 0: never. */
	uint64_t snapshot_ns;
};

/**
 * Can @job run on @t?  Its region lies inside the target, its block sizes
 * and offsets are multiples of the target's logical block size, its
 * iodepth fits the engine, trim is supported.  0, or -EINVAL/-EOPNOTSUPP
 * with a message naming the option in @msg.  wl_run_job() checks too.
 */
int wl_run_check(struct rl_target *t, const struct wl_job *job, char *msg, size_t msglen);

/**
 * Run @job on @t.  Returns 0 when the job ran (its I/O errors and verify
 * failures are in @res: check wl_result_ok), or a negative errno with a
 * message in @msg when it could not run (region too small, no io_uring...).
 */
int wl_run_job(struct rl_target *t, const struct wl_job *job, const struct wl_run_opts *opts,
               struct wl_result *res, char *msg, size_t msglen);

/** One job of a group. */
struct wl_run_item {
	const struct wl_job *job;   /* as given; size=N%, offset=N% are resolved in res->job */
	struct rl_target **targets; /* job->numjobs entries: clone k runs on targets[k] */
	struct wl_result *res;      /* filled in (free with wl_result_free, also on error) */
	struct wl_result *clones;   /* NULL, or job->numjobs results: each clone on its own
	                               (fio reports clones apart without group_reporting) */
};

/**
 * Run @n jobs at the same time.  Returns 0 when they ran, or a negative
 * errno with a message (a region beyond a target, simulated and real
 * targets together, no executor...).  Each worker's statistics go into its
 * job's result; CPU time is the process's during the group.
 */
int wl_run_group(struct wl_run_item *items, size_t n, const struct wl_run_opts *opts, char *msg,
                 size_t msglen);

/**
 * Ask running jobs to stop issuing and finish with what they measured (for
 * SIGINT/SIGTERM handlers: async-signal-safe).  Jobs started later stop at
 * once until wl_run_clear_stop().
 */
void wl_run_request_stop(void);
void wl_run_clear_stop(void);
bool wl_run_stop_requested(void);

/** True if the job had no I/O error, no verify failure and kept its rate_min. */
bool wl_result_ok(const struct wl_result *res);

/** An empty result for @job (for merging into). */
void wl_result_init(struct wl_result *res, const struct wl_job *job);

/**
 * Add @src's figures to @dst (fio's group_reporting): I/Os, bytes,
 * histograms and series are summed, the runtime is the longer, errors and
 * verify failures are kept; the process CPU time is not added twice.
 */
void wl_result_merge(struct wl_result *dst, const struct wl_result *src);

/** Free what wl_run_job allocated in @res. */
void wl_result_free(struct wl_result *res);

/** The measured time of direction @d in ns (wl_dir_result.runtime_ns, else the job's). */
uint64_t wl_result_runtime(const struct wl_result *res, enum rl_op d);

/** Throughput of direction @d in bytes per second of measured time. */
double wl_result_bw(const struct wl_result *res, enum rl_op d);
/** I/Os per second of measured time. */
double wl_result_iops(const struct wl_result *res, enum rl_op d);

#endif
