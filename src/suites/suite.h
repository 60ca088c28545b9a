/*
 * suite.h - named benchmark suites (CrystalDiskMark, ATTO, AS SSD, ...) and
 * the machinery they share.
 *
 * A suite is data plus one run function.  The data (struct suite_def) says
 * what the public tool does: its tests (block size, queue depth, threads,
 * pattern, directions) in the order the tool shows them, how passes become
 * the reported figure (best / mean / single), and its default parameters.
 * Unit tests pin a suite's definition through this data, and docs/suites.md
 * describes the same tables.
 *
 * The run function drives the shared machinery below:
 *   - suite_job_build() turns a test, a direction and the parameters into a
 *     fio-style job over the test area;
 *   - suite_measure() runs that job for the warm-up passes (discarded) and
 *     the measured passes, keeping each measured pass as a full direction
 *     object (st_result_dir) and aggregating them by the suite's rule;
 *   - suite_prepare() writes the test area once before the first read, as
 *     the tools create and fill their test file;
 *   - suite_pause() waits the interval between tests;
 *   - suite_zone_sweep() (zones.c) reads or writes a span zone by zone for
 *     transfer-rate curves (hdtune, steady).
 * The result is the JSON of docs/results.md, "Suite results": the core
 * document (st_result_new) plus label, suite, tests and, for AS SSD, scores.
 *
 * Suites run unchanged against real and simulated targets: the job engine
 * picks the clock, so durations are simulated time on a simulated stack.
 * Suites register from a constructor in their own file (SUITE_REGISTER).
 *
 * Files: suite.c (registry, jobs, pass runner), params.c (parameters),
 * zones.c (zone sweeps); one file per suite: cdm.c (cdm, cdm-nvme, cdm7,
 * cdm6), atto.c, asssd.c (+ asssd-compr), anvil.c, fiorand.c (fio-randrw),
 * hdtune.c, iometer.c, passmark.c, steady.c.
 * docs/suites.md describes every definition and its sources.
 */
#ifndef RL_SUITES_SUITE_H
#define RL_SUITES_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/target.h"
#include "workload/run.h"

struct json_object;
struct fleet;

/** How a test's measured passes become the reported figure. */
enum suite_agg {
	SUITE_AGG_BEST,   /* highest MB/s, lowest mean latency (CrystalDiskMark) */
	SUITE_AGG_MEAN,   /* arithmetic mean of every figure (AS SSD, KDiskMark default) */
	SUITE_AGG_SINGLE, /* exactly one pass */
};

enum suite_pattern {
	SUITE_SEQ,   /* sequential */
	SUITE_RAND,  /* random, uniform over the test area */
	SUITE_MIXED, /* reads and writes mixed by rwmixread (random unless random_pct says less) */
};

/* Directions a test measures (struct suite_test.dirs). */
#define SUITE_DIR_READ  0x1u
#define SUITE_DIR_WRITE 0x2u
#define SUITE_DIR_RW    (SUITE_DIR_READ | SUITE_DIR_WRITE)

/* What a job built by suite_job_build() does. */
enum suite_dir {
	SUITE_READ = 0,  /* the test's read direction */
	SUITE_WRITE = 1, /* the test's write direction */
	SUITE_MIX = 2,   /* reads and writes in one job (rwmixread) */
};

/** One test of a suite, as the tool defines it. */
struct suite_test {
	const char *name;           /* as the tool prints it: "SEQ1M Q8T1", "4K-64Thrd", "512B" */
	enum suite_pattern pattern; /* seq / rand / mixed */
	uint32_t bs;                /* bytes per I/O; 0 when bssplit is given */
	const char *bssplit;        /* fio bssplit text ("512/10:4k/60:..."), or NULL */
	uint32_t iodepth;           /* queue depth per thread */
	uint32_t threads;           /* concurrent workers (numjobs) */
	unsigned dirs;              /* SUITE_DIR_*: directions measured */
	uint32_t rwmixread;         /* SUITE_MIXED: percent reads */
	uint32_t random_pct;        /* SUITE_MIXED: percent random I/Os (100: all random) */
	uint32_t write_bs;          /* bytes per write if not bs (AS SSD access time); 0: bs */
	bool own_region;            /* each thread on its own 1/threads of the area */
	bool read_whole_span;       /* reads cover the whole target, writes stay in the area */
	bool timed;                 /* time-based passes (duration); else cover the area once */
};

/*
 * Parameters a suite runs with.  Each suite accepts a subset
 * (suite_def.options, SUITE_OPT_*) and gives its defaults; the CLI parses
 * --NAME=VALUE into this struct with suite_params_set().
 */
struct suite_params {
	uint64_t size;          /* --size: test area in bytes; 0: the whole target */
	unsigned passes;        /* --passes: measured passes per test */
	unsigned warmup;        /* --warmup: discarded passes before them */
	uint64_t duration_ns;   /* --duration: length of a time-based pass */
	uint64_t interval_ns;   /* --interval: pause between tests (real targets) */
	bool mix;               /* --mix: add the mixed read/write test (cdm) */
	uint32_t mix_read;      /* --mix-read: percent reads of the mix (cdm, default 70) */
	uint32_t iodepth;       /* --qd: queue depth (iometer, fio-randrw) */
	uint32_t threads;       /* --threads: concurrent workers (fio-randrw) */
	bool write;             /* --write: also write (hdtune; destroys the span) */
	unsigned zones;         /* --zones: positions of a transfer-rate curve */
	uint32_t block;         /* --block: transfer size of the zone sweep (hdtune) */
	uint64_t sample;        /* --sample: bytes read at each zone (hdtune) */
	uint32_t min_bs;        /* --min-bs: smallest transfer size (atto) */
	uint32_t max_bs;        /* --max-bs: largest transfer size (atto) */
	uint64_t round_ns;      /* --round: length of one steady-state round (steady) */
	uint64_t time_limit_ns; /* --time-limit: longest sustained phase (steady) */
	unsigned fill;          /* --fill: sequential fills of the region first (steady) */
	bool small_pages;       /* --small-pages: I/O buffers in 4 KiB pages (default: huge) */
};

/* Bits of suite_def.options: which --NAME options a suite accepts. */
#define SUITE_OPT_SIZE     0x0001u
#define SUITE_OPT_PASSES   0x0002u
#define SUITE_OPT_WARMUP   0x0004u
#define SUITE_OPT_DURATION 0x0008u
#define SUITE_OPT_INTERVAL 0x0010u
#define SUITE_OPT_MIX      0x0020u /* --mix and --mix-read */
#define SUITE_OPT_QD       0x0040u
#define SUITE_OPT_WRITE    0x0080u
#define SUITE_OPT_ZONES    0x0100u
#define SUITE_OPT_BLOCK    0x0200u
#define SUITE_OPT_SAMPLE   0x0400u
#define SUITE_OPT_BS_RANGE 0x0800u /* --min-bs and --max-bs */
#define SUITE_OPT_ROUND    0x1000u /* --round and --time-limit */
#define SUITE_OPT_FILL     0x2000u
#define SUITE_OPT_PAGES    0x4000u
#define SUITE_OPT_THREADS  0x8000u
#define SUITE_OPT_COMMON   SUITE_OPT_PAGES /* taken by every suite */
#define SUITE_PASSES_MAX   100u
#define SUITE_ZONES_MAX    10000u
#define SUITE_AREA_MIN     (1u << 20) /* smallest test area: one 1 MiB block */

struct suite_run;

struct suite_def {
	const char *name;    /* command name: "cdm" */
	const char *title;   /* what it reproduces: "CrystalDiskMark 8 (default)" */
	const char *summary; /* one line for `raidlab help suites` */
	enum suite_agg aggregate;
	const struct suite_test *tests; /* the fixed tests in display order (NULL: computed) */
	size_t ntests;
	struct suite_params defaults;
	unsigned options; /* SUITE_OPT_* accepted on the command line */
	/**
	 * How many steps (a test in one direction: one suite_measure, one zone
	 * sweep, one run of rounds) a run on @r will take, for the progress
	 * line's ETA.  NULL: one per direction of each test (a mixed test: one).
	 */
	unsigned (*steps)(const struct suite_run *r);
	/** Does a run with @p write to the target?  NULL: always. */
	bool (*writes)(const struct suite_params *p);
	/**
	 * Run the suite on r->t, appending test objects to r->tests (and
	 * "scores" to r->doc where the suite has them).  Returns 0, or a
	 * negative errno with r->msg set.  I/O errors are reported the same way
	 * (the first failed job stops the suite).
	 */
	int (*run)(struct suite_run *r);
	struct suite_def *next; /* registry link */
};

/** Register @def (from constructors); the list is kept sorted by name. */
void suite_register(struct suite_def *def);
/** The suite named @name, or NULL. */
const struct suite_def *suite_find(const char *name);
/** First suite in name order; follow ->next. */
const struct suite_def *suite_first(void);

#define SUITE_REGISTER(def)                                                                        \
	__attribute__((constructor)) static void suite_register_##def(void)                        \
	{                                                                                          \
		suite_register(&(def));                                                            \
	}

/** "best", "mean" or "single". */
const char *suite_agg_name(enum suite_agg agg);
/** "seq", "rand" or "mixed". */
const char *suite_pattern_name(enum suite_pattern p);

/**
 * Set parameter @name ("size", "passes", "mix", ...; without the dashes) from
 * @value (NULL for a bare flag) if @def accepts it.  Returns 0, -ENOENT if
 * @name is not a suite option at all, or -EINVAL with a message in @msg
 * naming the option and the expected form (also when @def does not accept it).
 */
int suite_params_set(const struct suite_def *def, struct suite_params *p, const char *name,
                     const char *value, char *msg, size_t msglen);

/** Does @def take option @name (without the dashes)? */
bool suite_params_accepts(const struct suite_def *def, const char *name);

/** Is @name a suite option that takes a value (--size 16m)?  False for flags and unknown names. */
bool suite_param_takes_value(const char *name);

/** "--size=SIZE ... (default 1.00 GiB)" lines for the options @def accepts, into @f. */
void suite_options_help(const struct suite_def *def, FILE *f);

/** A size as the shortest exact text: "1g", "1000m", "64k", "512". */
void suite_fmt_size(char *buf, size_t len, uint64_t v);

/** The parameters as JSON (suite.params): only those @def accepts; sizes in bytes, times in s. */
struct json_object *suite_params_json(const struct suite_def *def, const struct suite_params *p);

/** Bytes of target the suite needs with @p (0: it adapts to the target). */
uint64_t suite_need_bytes(const struct suite_def *def, const struct suite_params *p);

/** Does the suite write with @p? */
bool suite_writes(const struct suite_def *def, const struct suite_params *p);

/* --- aggregation (pure; unit-tested) --- */

/** The figures of one pass (or the aggregate). */
struct suite_figure {
	double mb_s;        /* decimal MB/s */
	double iops;        /* I/Os per second */
	double lat_mean_us; /* mean latency, us */
	double lat_p99_us;  /* 99th percentile, us */
};

/**
 * Aggregate @n passes by @rule into @out:
 *   best:   the highest MB/s; IOPS derived from it as CrystalDiskMark does
 *           (MB/s x 10^6 / @bs) when @bs is not 0, else the IOPS of the
 *           fastest pass; the lowest mean latency, with the p99 of that pass;
 *   mean:   the arithmetic mean of each figure;
 *   single: the first pass (n must be 1).
 * n == 0 gives zeros.
 */
void suite_aggregate(enum suite_agg rule, const struct suite_figure *passes, unsigned n,
                     uint32_t bs, struct suite_figure *out);

/* AS SSD's score (asssd.c), inputs in MB/s; see docs/suites.md. */
struct suite_asssd_input {
	double seq_read, seq_write, k4_read, k4_write, k4_64_read, k4_64_write;
};
struct suite_asssd_score {
	double read, write, total;
};
void suite_asssd_score(const struct suite_asssd_input *in, struct suite_asssd_score *out);

/* Steady-state rule (steady.c): see docs/suites.md. */
#define SUITE_STEADY_WINDOW 5
/**
 * Is the window of the last SUITE_STEADY_WINDOW values of @y (n of them)
 * steady (SNIA PTS)?  max - min of the window at most 20 % of its mean, and
 * the best linear fit's rise across the window at most 10 % of the mean.
 * Reports both (as fractions of the mean) if non-NULL; false while n is
 * below the window or the mean is not positive.
 */
bool suite_steady_check(const double *y, size_t n, double *excursion, double *slope);

/* --- running --- */

/** Progress of a suite, for the CLI's progress line. */
struct suite_progress {
	const char *test;  /* test name */
	const char *phase; /* "read", "write", "mix", "prepare", "warm-up", ... */
	unsigned pass;     /* 1-based measured pass; 0 during warm-up */
	unsigned passes;
	const struct wl_progress *job; /* the engine's progress of the running job */
	unsigned step;  /* 1-based step (a test in one direction); 0 while preparing */
	unsigned steps; /* the steps the suite will run (an estimate: see suite_steps) */
	double done;    /* the share of the suite done, 0..1 (steps as equal shares) */
};

struct suite_run {
	/* set by the caller */
	const struct suite_def *def;
	struct suite_params p;
	struct rl_target *t;
	struct json_object *doc;                                     /* the result document */
	struct json_object *tests;                                   /* its "tests" array */
	void (*progress)(void *arg, const struct suite_progress *p); /* may be NULL */
	void *progress_arg;
	struct fleet *fleet; /* under mpirun: every rank runs each job at once; else NULL */
	/* derived by suite_run_start */
	bool simulated;   /* a simulated leaf: durations are simulated time */
	uint64_t area;    /* test area in bytes (size, or the target) */
	uint32_t align;   /* offsets and sizes align to this (the target's block size, >= 512) */
	bool area_shrunk; /* --force used a target smaller than the suite's area */
	bool prepared;    /* suite_prepare ran */
	unsigned njobs;   /* jobs run so far (seeds) */
	/* state of the current measurement, for progress */
	const char *cur_test, *cur_phase;
	unsigned cur_pass, cur_passes;
	unsigned cur_job, cur_njobs; /* the job within its step (0-based) and the step's jobs */
	/* steps for the progress line's ETA (suite_steps): one test in one direction */
	unsigned steps, step;
	const char *step_test, *step_phase;
	char msg[512]; /* error message */
};

/**
 * Check @r->p against @r->t and derive area/align/simulated.  The area is
 * p.size, or the whole target when p.size is 0; if the target is smaller
 * than the suite needs, -ENOSPC with a message, unless @force, which shrinks
 * the area to the target.  -EINVAL for a size the suite cannot use.
 */
int suite_run_start(struct suite_run *r, bool force);

/** The steps of a run on @r (def->steps, else one per direction of each test). */
unsigned suite_steps(const struct suite_run *r);

/** Run the suite (def->run) and add suite/label fields to r->doc. */
int suite_run(struct suite_run *r, const char *label);

/**
 * The job for one direction of @test: name "TEST read|write|mix", the
 * pattern, bs or bssplit, iodepth, numjobs = threads, over the area (or the
 * whole span), time-based for timed tests; a fresh seed per job.
 */
void suite_job_build(struct suite_run *r, const struct suite_test *test, enum suite_dir dir,
                     struct wl_job *job);

/** Short time-based jobs get a finer series (>= 20 points) than fio's 100 ms. */
void suite_job_log_interval(struct wl_job *job);

/* Views of a pass that suite_measure collects: 1 << enum suite_dir. */
#define SUITE_VIEW(dir) (1u << (dir))
#define SUITE_VIEWS     3

/** The measured passes of one test: per view (read, write, mix = both together). */
struct suite_meas {
	unsigned n;                                             /* measured passes */
	unsigned views;                                         /* SUITE_VIEW bits collected */
	struct suite_figure fig[SUITE_VIEWS][SUITE_PASSES_MAX]; /* per view, per pass */
	struct json_object *passes[SUITE_VIEWS];                /* arrays of direction objects */
	struct suite_figure agg[SUITE_VIEWS];                   /* by the rule */
	/* over a fleet (rank 0): each rank's figure per view and pass, then each
	   view's "fleet" object (slowest, fastest, each rank's figure) */
	struct suite_figure *rank_fig;
	struct json_object *fleet[SUITE_VIEWS];
};

/** Runs one pass of @job into @res (suite_run_job, or a suite's own composite pass). */
typedef int (*suite_pass_fn)(struct suite_run *r, const struct wl_job *job, struct wl_result *res,
                             void *arg);

/**
 * Run @job for @warmup discarded passes then @passes measured ones and
 * collect the @views (SUITE_VIEW(SUITE_READ) ...; SUITE_MIX is read and
 * write together) of each measured pass into @m: the figures, and the full
 * direction object of each pass (m->passes[v], owned by @m until
 * suite_meas_json takes it).  @rule aggregates; @bs for CDM's IOPS (0:
 * none).  Each pass gets its own seed; passes run back to back.  @fn NULL
 * means suite_run_job.  Returns 0 or a negative errno with r->msg set; on
 * error call suite_meas_free.
 */
int suite_measure(struct suite_run *r, const struct wl_job *job, unsigned views, unsigned warmup,
                  unsigned passes, enum suite_agg rule, uint32_t bs, suite_pass_fn fn, void *fn_arg,
                  struct suite_meas *m);
/** {mb_s, iops, lat_us: {mean, p99}} of a figure. */
struct json_object *suite_figure_json(const struct suite_figure *f);
/** The direction object {mb_s, iops, lat_us: {mean, p99}, passes} of @view; takes its passes. */
struct json_object *suite_meas_json(struct suite_meas *m, enum suite_dir view);
/** Free what suite_measure left in @m (if suite_meas_json did not take it). */
void suite_meas_free(struct suite_meas *m);

/**
 * A pass of a mixed test that is only test->random_pct % random (@arg is
 * the struct suite_test): the random part for that share of the duration,
 * then sequential I/Os to make up the rest, summed into one pass
 * (iometer.c; used by iometer's Workstation and PassMark's workers).
 */
int suite_partial_random_pass(struct suite_run *r, const struct wl_job *job, struct wl_result *res,
                              void *arg);

/**
 * The whole run of a suite of independent tests (iometer.c; Iometer and
 * PassMark): after suite_prepare, each of @tests once, a pause between
 * them, one pass each (random_pct < 100 through suite_partial_random_pass);
 * a mixed test reports read, write and mix, any other its one direction.
 * 0 or the first test's negative errno (r->msg set).
 */
int suite_run_each_test(struct suite_run *r, const struct suite_test *tests, size_t n);

/**
 * Run @job once and return its result in @res (the caller frees it with
 * wl_result_free).  0, or a negative errno with r->msg set (also when the
 * job had an I/O error).
 */
int suite_run_job(struct suite_run *r, const struct wl_job *job, struct wl_result *res);

/** A pass's figures from one direction (or read+write) of a result. */
void suite_figure_of(const struct wl_result *res, enum suite_dir dir, struct suite_figure *f);

/** The full direction object (st_result_dir) of one direction (or read+write) of a result. */
struct json_object *suite_pass_json(const struct wl_result *res, enum suite_dir dir);

/* --- over an MPI fleet (suite_fleet.c; fleet.h) --- */

/**
 * Run @j on every rank at once: the step in lockstep, --offset-per-rank,
 * the barrier and the stonewall around wl_run_job.  As wl_run_job.
 */
int suite_fleet_run_job(struct suite_run *r, struct wl_job *j, struct wl_run_opts *opts,
                        struct wl_result *res);
/** Before suite_measure's passes: room for each rank's figures (rank 0).  0 or -ENOMEM. */
int suite_fleet_meas_start(struct suite_run *r, struct suite_meas *m, unsigned passes);
/**
 * A measured pass @res of @job on every rank: rank 0 records pass m->n of
 * each view as the aggregate (sums of MB/s and IOPS, latency from the
 * merged histograms) with each rank's figures.  0, or -ECANCELED with
 * r->msg when the fleet stops.
 */
int suite_fleet_pass(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                     struct suite_meas *m);
/**
 * The suite ended with @rc on this rank: tell the others (a failure) or
 * wait for them all to end; rank 0 adds "fleet" to r->doc.  Returns @rc,
 * or -ECANCELED with r->msg when another rank failed.
 */
int suite_fleet_end(struct suite_run *r, int rc);
/** The suite could not start on this rank (@why): the others stop too.  No-op without @f. */
void suite_fleet_fail(struct fleet *f, const char *why);
/** After the passes (rank 0): each view's "fleet" object by @rule; frees the figures. */
void suite_fleet_meas_end(struct suite_run *r, struct suite_meas *m, enum suite_agg rule,
                          uint32_t bs);

/** True on rank 0 of a fleet: it gathers the figures and writes the result. */
bool suite_fleet_reports(const struct suite_run *r);
/**
 * A measured pass @res of @job on every rank outside suite_measure (a
 * round of a steady-state run): rank 0 gets view @v's aggregate in @agg
 * (MB/s and IOPS summed, latency from the merged histograms), each rank's
 * figure in @ranks (fleet size entries), the aggregate pass object in
 * *@pass (as suite_measure's, with slowest_rank and fastest_rank) and the
 * longest rank's runtime in *@runtime_ns; the other ranks get nothing.
 * 0, or -ECANCELED with r->msg.
 */
int suite_fleet_gather(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                       enum suite_dir v, struct suite_figure *agg, struct suite_figure *ranks,
                       struct json_object **pass, uint64_t *runtime_ns);
/**
 * Rank 0: {slowest_rank, fastest_rank (by MB/s), ranks: [each rank's figure
 * @ranks[k] with rank, host, target]} (the direction's "fleet" object).
 */
struct json_object *suite_fleet_ranks_json(const struct suite_run *r,
                                           const struct suite_figure *ranks);
/**
 * A rank's step to share rank 0's decision: its @len bytes at @buf reach
 * every rank's @buf (fleet_share).  0, or -ECANCELED with r->msg.
 */
int suite_fleet_share(struct suite_run *r, const char *name, void *buf, size_t len);

/** read+write of @res merged into @out (for the mix), series included. */
void suite_dir_merge(const struct wl_result *res, struct wl_dir_result *out);

/**
 * Fill the test area once with sequential 1 MiB writes (as the tools create
 * their test file) unless already done.  Not measured.
 */
int suite_prepare(struct suite_run *r);

/** Wait the interval between tests (real targets only; simulated time has no idle gap). */
void suite_pause(struct suite_run *r);

/**
 * A test object {name, pattern, bs, iodepth, threads} for @test (bs 0 and
 * "bssplit" for mixed sizes); the caller adds read/write/....
 */
struct json_object *suite_test_json(const struct suite_run *r, const struct suite_test *test);

/** The fixed test of @def named @name, or NULL. */
const struct suite_test *suite_test_find(const struct suite_def *def, const char *name);

/* --- zone sweeps (zones.c) --- */

/** A transfer-rate curve over position. */
struct suite_curve {
	unsigned n;      /* zones */
	double *x_gb;    /* zone start, decimal GB */
	double *mb_s;    /* throughput at that zone */
	double *lat_us;  /* mean latency at that zone */
	double min, max; /* extremes of mb_s */
	double avg;      /* arithmetic mean of mb_s (HD Tune's "Average") */
	/* over a fleet (rank 0): each rank's curve and figures (suite_fleet.c); else NULL */
	struct suite_curve_fleet *fleet;
};

/**
 * Read or write (@op) [start, start + span) in @zones zones: at the start of
 * each zone @sample bytes (at most the zone) sequentially in @bs transfers at
 * queue depth @qd.  Fills @c (free with suite_curve_free) and, if @total is
 * not NULL, the zones' direction statistics summed into it (runtime in
 * *runtime_ns; series left empty).  @name prefixes the jobs' names.
 */
int suite_zone_sweep(struct suite_run *r, const char *name, enum rl_op op, uint64_t start,
                     uint64_t span, unsigned zones, uint32_t bs, uint32_t qd, uint64_t sample,
                     struct suite_curve *c, struct wl_dir_result *total, uint64_t *runtime_ns);
void suite_curve_free(struct suite_curve *c);
/** {x_label: "position_gb", x, mb_s, lat_us} */
struct json_object *suite_curve_json(const struct suite_curve *c);
/**
 * Add a sweep to a test object: @key ("read"/"write") = {mb_s: the curve's
 * average, iops and lat_us of all zones, passes: [the zones summed]}, and
 * min_mb_s, max_mb_s, curve (over a fleet: the fleet's, with each rank's).
 */
void suite_sweep_json(const struct suite_run *r, struct json_object *obj, const char *key,
                      const struct suite_curve *c, const struct wl_dir_result *total,
                      uint64_t runtime_ns);

/**
 * Zone @z of @zones measured (@res of @job, direction @op) on every rank:
 * the zone's point on rank 0 is the fleet's (MB/s summed over the ranks,
 * latency from the merged histograms), with each rank's point, the
 * slowest and fastest rank in @c->fleet, and the merged zone added to
 * @total and its longest runtime to *@runtime_ns (either may be NULL).  The
 * other ranks only send theirs (@c->fleet stays NULL).  0, -ENOMEM, or
 * -ECANCELED with r->msg.
 */
int suite_fleet_zone(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                     enum rl_op op, unsigned z, unsigned zones, struct suite_curve *c,
                     struct wl_dir_result *total, uint64_t *runtime_ns);
/** The IOPS of a fleet's sweep: the sum of each rank's own (its I/Os over its runtime). */
double suite_fleet_sweep_iops(const struct suite_curve *c);
/**
 * A fleet's sweep into the JSON suite_sweep_json made: the pass @pass gets
 * the summed MB/s and IOPS and each rank's own; the direction @dir a
 * "fleet" object (each rank's average, min, max; slowest and fastest);
 * the curve of @obj each rank's curve and the slowest and fastest rank of
 * every position.
 */
void suite_fleet_sweep_json(const struct suite_run *r, const struct suite_curve *c,
                            struct json_object *obj, struct json_object *dir,
                            struct json_object *pass);
void suite_fleet_curve_free(struct suite_curve_fleet *cf);

/** A JSON array of @n doubles. */
struct json_object *suite_json_doubles(const double *v, size_t n);

#endif
