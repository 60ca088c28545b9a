/*
 * job.h - a workload job: fio's option names and meanings, a documented subset.
 *
 * A job is filled in from command-line options (--rw=randread) or from an
 * INI job file ([global] plus one section per job), both through one option
 * table (options.c), which is also the source of `raidlab help options` and
 * docs/options.md.  An unknown or unsupported option is an error that names
 * the option and where it was found; nothing is silently ignored.
 *
 * Differences from fio are deliberate and documented: jobs of one file run
 * one after another (as if each had stonewall); numjobs gives concurrency.
 */
#ifndef RL_WORKLOAD_JOB_H
#define RL_WORKLOAD_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wl_rw {
	WL_RW_READ = 0,
	WL_RW_WRITE,
	WL_RW_RANDREAD,
	WL_RW_RANDWRITE,
	WL_RW_RW, /* rw / readwrite: sequential mixed */
	WL_RW_RANDRW,
	WL_RW_TRIM,
	WL_RW_RANDTRIM,
};

enum wl_dist {
	WL_DIST_RANDOM = 0, /* uniform; each block once per loop unless norandommap */
	WL_DIST_ZIPF,       /* zipf:theta */
	WL_DIST_PARETO,     /* pareto:h */
};

enum wl_engine {
	WL_ENGINE_IO_URING = 0,
	WL_ENGINE_PSYNC,
};

enum wl_verify {
	WL_VERIFY_NONE = 0,
	WL_VERIFY_CRC32C,
};

#define WL_BSSPLIT_MAX 16
#define WL_NAME_MAX    64

struct wl_bssplit {
	uint32_t bs;  /* block size in bytes */
	uint32_t pct; /* share of I/Os in percent; all entries add up to 100 */
};

struct wl_job {
	char name[WL_NAME_MAX]; /* name=, or the section name of a job file */
	enum wl_rw rw;          /* rw= / readwrite=; default read */
	uint32_t bs;            /* bs= / blocksize=; default 4k */
	struct wl_bssplit bssplit[WL_BSSPLIT_MAX]; /* bssplit=4k/60:64k/40 */
	unsigned nbssplit;      /* 0: use bs */
	uint32_t iodepth;       /* default 1 */
	uint32_t numjobs;       /* default 1 */
	uint64_t size;          /* bytes of the region each job covers; 0: target size - offset */
	uint64_t offset;        /* start of the region; default 0 */
	uint64_t runtime_ns;    /* runtime=; 0: no limit */
	bool time_based;        /* keep looping until runtime */
	uint64_t ramp_ns;       /* ramp_time=: run this long before recording */
	uint32_t rwmixread;     /* percent reads in rw/randrw; default 50 (rwmixwrite sets 100-x) */
	enum wl_dist dist;      /* random_distribution= */
	double dist_param;      /* theta for zipf, h for pareto */
	bool direct;            /* direct=1 (default): O_DIRECT; direct=0 / buffered=1: page cache */
	enum wl_engine engine;  /* ioengine=io_uring (default) | psync */
	bool zero_buffers;      /* zero_buffers=1: write zeros */
	bool refill_buffers;    /* refill_buffers=1: new random contents for every write */
	uint32_t buffer_compress_percentage; /* 0..100: that share of each block compresses away */
	uint32_t loops;         /* default 1 */
	enum wl_verify verify;  /* verify=crc32c: write, then read back and check every block */
	uint64_t seed;          /* randseed=; default fixed, so runs repeat */
	bool norandommap;       /* random offsets without the once-per-loop map */
	uint64_t log_avg_ns;    /* log_avg_msec=: throughput time-series interval; default 100 ms */
};

/** Defaults as listed in the comments above. */
void wl_job_init(struct wl_job *job);

/** True for the random patterns (randread, randwrite, randrw, randtrim). */
bool wl_rw_is_random(enum wl_rw rw);
/** The option value as fio spells it ("randread"). */
const char *wl_rw_name(enum wl_rw rw);
/** True if the job writes or trims (safety checks apply). */
bool wl_job_writes(const struct wl_job *job);

/**
 * Set one option by name.  @where names the source for messages
 * ("command line", "jobs.fio:12").  Returns 0, or -EINVAL with a message in
 * @msg such as "jobs.fio:12: option 'iodepth': expected a whole number
 * from 1 to 65536, got 'abc'".
 */
int wl_job_set(struct wl_job *job, const char *name, const char *value, const char *where,
	       char *msg, size_t msglen);

/** Cross-option checks after all options are set (bssplit sums to 100, ...). */
int wl_job_validate(const struct wl_job *job, const char *where, char *msg, size_t msglen);

/** A parsed job file: the jobs in order, [global] already applied to each. */
struct wl_jobfile {
	struct wl_job *jobs;
	size_t njobs;
	char *target; /* target= from [global], or NULL */
};

/**
 * Parse an INI job file's text.  @fname is used in messages.  Lines:
 * "[section]", "key=value", "key" (boolean options), comments starting
 * with ';' or '#'.  [global] options apply to the jobs that follow it.
 * Returns 0 or -EINVAL with a message naming the file and line.
 */
int wl_jobfile_parse(const char *text, const char *fname, const struct wl_job *base,
		     struct wl_jobfile *out, char *msg, size_t msglen);
void wl_jobfile_free(struct wl_jobfile *jf);

/** Describe every option (name, type, default, meaning) for help and docs. */
struct wl_option_info {
	const char *name;
	const char *alias; /* another accepted name, or NULL */
	const char *type;  /* "size", "int", "bool", "time", "enum", "str", ... */
	const char *def;   /* default as text */
	const char *help;
};
const struct wl_option_info *wl_options(size_t *count);

#endif
