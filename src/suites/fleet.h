/*
 * fleet.h - one set of jobs measured on every rank of an MPI job at once
 * (`mpirun -n N raidlab run JOB --target SPEC`), as IOR measures a
 * cluster: the figure that matters is the aggregate and the slowest host.
 *
 * Every rank runs the same command on its own target: $rank, $nranks and
 * $host (or ${rank}, ...) in the command line and in the specs of a job
 * file are replaced by the rank's values, so file(/scratch/rl.$rank) is a
 * file per rank; or the ranks share one target and each works on its own
 * region (--offset-per-rank: rank r's jobs start r times that far in, as
 * fio's offset_increment does for numjobs clones).
 *
 * Each wave of jobs (each test) starts behind a barrier, so all ranks
 * start together.  With stonewalling, the first rank whose wave ends
 * tells the others, which stop at once (their progress poll, about 4 times
 * a second, sees the message and asks the engine to stop); each rank keeps
 * what it measured until then.  At the end every rank sends its results
 * (the job, the counts and the latency histograms per direction) to rank
 * 0, which builds the aggregate: I/Os, bytes, bandwidth and IOPS are the
 * sums of the ranks', latency percentiles come from the ranks' histograms
 * merged bucket by bucket (never averaged), and the slowest and fastest
 * rank are named.  The ranks run the same binary on the same kind of
 * machine: results travel as raw structs.
 *
 * A suite over a fleet (`mpirun -n N raidlab run cdm --target SPEC`) runs
 * its steps in lockstep: before each job and after each measured pass
 * every rank calls fleet_step(), which rank 0 answers once it has heard
 * every rank; so a rank that fails (a target too small, an I/O error) or
 * runs another test than the others (a different test area) stops every
 * rank with its reason instead of leaving them waiting, and rank 0 holds
 * every rank's figures of each pass (f->jobs[0]) to report the aggregate.
 * Where the ranks must act on a decision taken on the aggregate (how many
 * rounds a steady-state run takes), rank 0 takes it and fleet_share()
 * hands it to every rank in the answer of one more step.
 *
 * All MPI goes through mpi/rank.h; without MPI (or outside mpirun) the
 * fleet is off and nothing here is called.
 */
#ifndef RL_SUITES_FLEET_H
#define RL_SUITES_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job.h"
#include "workload/run.h"

struct json_object;

#define FLEET_HOST_MAX 64
#define FLEET_SPEC_MAX 512

/** One rank's figures of one job. */
struct fleet_rank {
	int rank;
	char host[FLEET_HOST_MAX];
	char spec[FLEET_SPEC_MAX]; /* the target it ran on, after substitution */
	bool stopped;              /* ended early by another rank's stonewall */
	bool ok;                   /* wl_result_ok on that rank */
	struct wl_result res;      /* counts and histograms (no time series) */
};

/** One job over all ranks (rank 0 after fleet_gather). */
struct fleet_job {
	struct fleet_rank *ranks; /* fleet.size entries, by rank */
	struct wl_result merged;  /* histograms merged, I/Os and bytes summed, longest runtime */
	double bw[WL_DIRS];       /* sum of the ranks' bandwidths, bytes/s */
	double iops[WL_DIRS];     /* sum of the ranks' IOPS */
	int slowest, fastest;     /* ranks with the lowest and highest total bandwidth */
	unsigned nstopped;        /* ranks a stonewall ended early */
};

struct fleet {
	int rank, size;
	char host[FLEET_HOST_MAX];
	bool stonewall;           /* --fleet-stonewall */
	uint64_t offset_per_rank; /* --offset-per-rank */
	/* the wave running now */
	unsigned wave;
	bool *wave_stopped; /* per wave: a stonewall ended it on this rank */
	size_t nwaves;
	struct wl_run_opts inner; /* the caller's progress callback */
	struct rl_mpi_send **sends;
	size_t nsends;
	/* suites: the steps in lockstep (fleet_step) */
	char spec[FLEET_SPEC_MAX];       /* this rank's target, after substitution */
	unsigned step;                   /* steps taken */
	bool halted;                     /* a step said stop: no more steps */
	char halt_why[768];              /* and why */
	volatile sig_atomic_t signalled; /* the user asked to stop (not a stonewall) */
	/* rank 0, after fleet_gather */
	struct fleet_job *jobs;
	size_t njobs;
};

/** True when this process is one of an MPI job's ranks (the fleet is on). */
bool fleet_active(void);

/** Set up @f: this rank, the number of ranks, the host name. */
void fleet_init(struct fleet *f);

/** Free @f (and the gathered results). */
void fleet_free(struct fleet *f);

/**
 * @in with $rank, $nranks, $host (and ${rank}, ${nranks}, ${host}) replaced
 * by @f's values, into @out.  0, or -ENAMETOOLONG when it does not fit.
 */
int fleet_subst(const struct fleet *f, const char *in, char *out, size_t len);

/**
 * --offset-per-rank: move each of @n jobs @f->rank times that far in.  0,
 * or -EINVAL with a message when a job's offset is a percentage.
 */
int fleet_offsets(const struct fleet *f, struct wl_job *jobs, size_t n, char *msg, size_t msglen);

/**
 * Before wave @wave: wait for every rank, and with stonewalling hook @opts's
 * progress callback (kept and still called) to stop this rank when another
 * finishes first.  0, -ENOMEM or -EIO.
 */
int fleet_wave_begin(struct fleet *f, unsigned wave, struct wl_run_opts *opts);

/**
 * After the wave: restore @opts; a rank whose wave ended by itself tells
 * the others to stop.  True when a stonewall ended this rank's wave (the
 * engine's stop request is then the fleet's, which the caller clears).
 */
bool fleet_wave_end(struct fleet *f, struct wl_run_opts *opts);

/**
 * Send this rank's results of @n jobs (@res, @done, the wave of each in
 * @wave, the target spec) to rank 0, which collects every rank's into
 * @f->jobs and computes the aggregates.  0, or a negative errno with a
 * message.
 */
int fleet_gather(struct fleet *f, const struct wl_result *res, const bool *done,
                 const unsigned *wave, size_t n, const char *spec, char *msg, size_t msglen);

/** What a rank is at when it calls fleet_step(). */
enum fleet_step_kind {
	FLEET_STEP_RUN = 1, /* about to run the job @name */
	FLEET_STEP_RESULT,  /* measured @name: its result */
	FLEET_STEP_END,     /* the suite ended well */
	FLEET_STEP_FAIL,    /* the suite failed on this rank (@why) */
	FLEET_STEP_SHARE,   /* rank 0 hands its bytes to every rank (fleet_share) */
};

/* The most bytes fleet_share() hands over. */
#define FLEET_SHARE_MAX 256

/**
 * One step of a suite in lockstep over the ranks (every rank calls it at
 * the same point): rank 0 hears every rank and answers go or stop.  Stop
 * when a rank failed (its message, naming it) or the ranks are not at the
 * same step.  With FLEET_STEP_RESULT each rank gives its result @res of
 * the pass, and rank 0 has them all in f->jobs[0] (merged in .merged) when
 * it returns.  0: go on; -ECANCELED with the reason in @msg: stop (every
 * later call says the same without a message).
 */
int fleet_step(struct fleet *f, enum fleet_step_kind kind, const char *name,
               const struct wl_result *res, const char *why, char *msg, size_t msglen);

/**
 * A step in lockstep (as fleet_step, named @name) whose answer carries
 * rank 0's @len bytes at @buf into every other rank's @buf: what rank 0
 * decided from the aggregate (a suite's stopping rule), so every rank
 * acts on the same decision.  Every rank calls it with the same @name and
 * @len (at most FLEET_SHARE_MAX).  A rank that failed instead (suite_fleet_end's
 * FLEET_STEP_FAIL, rank 0 included) stops the others here, as any step.
 * 0, or -ECANCELED with the reason in @msg; -EINVAL when @len is too long.
 */
int fleet_share(struct fleet *f, const char *name, void *buf, size_t len, char *msg, size_t msglen);

/** True when every rank's jobs were ok (rank 0, after fleet_gather). */
bool fleet_ok(const struct fleet *f);

/** The "fleet" member of raidlab's JSON result (rank 0, after fleet_gather). */
struct json_object *fleet_json(const struct fleet *f);

#endif
