/*
 * job.h - a workload job: fio's option names and meanings, a documented subset.
 *
 * A job is filled in from command-line options (--rw=randread) or from an
 * INI job file ([global] plus one section per job), both through one option
 * table (options.c), which is also the source of `raidlab help options` and
 * docs/options.md.  An unknown or unsupported option is an error that names
 * the option and where it was found; nothing is silently ignored.
 *
 * Jobs of one file run as fio runs them: concurrently, in groups that
 * stonewall / new_group start; numjobs clones of a job run concurrently too.
 *
 * What the job runner must honour (the options only record the request):
 *   - bs / bssplit: if nbssplit > 0 the block size of each I/O is drawn from
 *     bssplit by percentage and bs is not used.  Setting bs clears bssplit
 *     and setting bssplit replaces it, so the later of the two wins.
 *     bssplit=R,W[,T] gives writes (and trims) their own split, kept in
 *     bssplit_wt; wl_job_bssplit() returns the split of a direction.
 *   - size 0 means "from offset to the end of the target".  The region is
 *     [offset, offset + size); only whole blocks of the largest block size
 *     are used, a trailing partial block is not.  offset is a multiple of
 *     512 (checked).  If the target is smaller than offset + size, or
 *     smaller than offset, the runner reports it (the options don't know
 *     the target).
 *   - runtime_ns 0 means no time limit: the job ends after covering the
 *     region loops times.  With a limit it ends at whichever comes first,
 *     unless time_based, which repeats the workload until runtime.
 *   - ramp_ns runs before runtime starts counting (wall time = ramp +
 *     runtime, as fio); nothing done during the ramp is recorded.
 *   - random offsets: with dist RANDOM each block is used once per loop,
 *     unless norandommap; zipf and pareto never use the map (as fio), so
 *     norandommap is implied for them.  Sequential patterns ignore
 *     norandommap; random_distribution other than random on a sequential
 *     pattern is rejected by wl_job_validate.
 *   - rw / randrw: each I/O is a read with probability rwmixread percent.
 *   - numjobs N: N copies of the job run concurrently (reported apart unless
 *     group_reporting, see wl_run_item.clones), each over the same
 *     region unless offset_increment is set, each with its own random
 *     sequence derived from seed and the copy's index.
 *   - offset_increment I: copy k's region starts at offset + k * I (as fio),
 *     so copies can each work on their own part of the target; with size 0
 *     each copy's region runs to the end of the target.
 *   - stonewall: the job waits for every job before it (a new wave, see
 *     wl_job_groups); the jobs of one wave run at the same time.  stonewall
 *     and new_group start a new reporting group.
 *   - filename / directory name the job's own target (the caller maps them
 *     onto file() specs, see wl_job_target_spec); empty: the run's --target.
 *   - size_pct / offset_pct (size=50%) are resolved against the target's
 *     size by the runner; they override size / offset when not 0.
 *   - fsync=N / fdatasync=N: after every N writes the worker issues a FLUSH
 *     (rl_io FLUSH) before its next request; sync=1 marks every write FUA;
 *     end_fsync=1 issues one FLUSH when the job's writes are done.
 *   - startdelay: the job's workers start this long after their group.
 *   - rate / rate_iops: a slot waits until its direction's budget allows the
 *     next request (rate_process=poisson: exponential gaps); thinktime: a
 *     slot waits that long after each completion; number_ios: each worker
 *     stops after that many requests; rate_min: the result records a
 *     direction that ended slower.
 *   - rw_skip / rw_nr (rw=read:8k, rw=randread:8) and zones (zoned,
 *     zoned_abs) are the generator's (gen.h); blockalign sets its random
 *     unit.
 *   - cpus / cpus_split pin real workers' threads; mem and mem_align place
 *     the slot buffers (run_worker.c: worker setup says where, and why it matters).
 */
#ifndef RL_WORKLOAD_JOB_H
#define RL_WORKLOAD_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* mem=: where a worker's slot buffers live */
enum wl_mem {
	WL_MEM_MALLOC, /* the allocator's alignment when nothing needs more (fio's default) */
	WL_MEM_MMAP,   /* their own pages */
	WL_MEM_HUGE,   /* mmaphuge: transparent huge pages */
};

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
	WL_DIST_ZONED,      /* zoned:A/B:...: A% of I/Os in the next B% of the region */
	WL_DIST_ZONED_ABS,  /* zoned_abs:A/SIZE:...: the same with zone sizes in bytes */
};

#define WL_ZONES_MAX 16

struct wl_zone {
	uint32_t access_pct; /* share of the I/Os that land in this zone */
	uint32_t size_pct;   /* zoned: share of the region (0 in the last: the rest) */
	uint64_t size_bytes; /* zoned_abs: bytes (0 in the last: the rest) */
};

enum wl_engine {
	WL_ENGINE_IO_URING = 0,
	WL_ENGINE_PSYNC,  /* psync, sync, pvsync, pvsync2: one synchronous call per I/O */
	WL_ENGINE_LIBAIO, /* Linux native AIO through libaio (io_submit / io_getevents) */
	WL_ENGINE_NULL,   /* no I/O: requests complete at once (a null() target) */
	/* engine.c: a system call on the file per request instead of a transfer */
	WL_ENGINE_FALLOC,    /* fallocate(2): read keeps the size, write grows it, trim punches */
	WL_ENGINE_FTRUNCATE, /* ftruncate(2) to each write's offset */
	/* engine.c: one operation on one of the job's files (or folders) per request */
	WL_ENGINE_FILECREATE,
	WL_ENGINE_FILESTAT,
	WL_ENGINE_FILEDELETE,
	WL_ENGINE_DIRCREATE,
	WL_ENGINE_DIRSTAT,
	WL_ENGINE_DIRDELETE,
	/* engine.c: no I/O, the job is something else the runner times */
	WL_ENGINE_CPUIO, /* burns cpuload percent of a CPU (a cpu() target) */
	WL_ENGINE_EXEC,  /* runs program= for the job's runtime (an exec() target) */
	/* a libpmemblk block pool in a plain file (a pmemblk() target, if built in) */
	WL_ENGINE_PMEMBLK,
	/* engine.c: a stream to or from a peer over a socket, the net() target */
	WL_ENGINE_NET,
	WL_ENGINE_MMAP,
	WL_ENGINE_POSIXAIO,
	WL_ENGINE_NBD, /* an NBD server's export through libnbd (an nbd() target, if built in) */
	WL_ENGINE_COUNT
};

enum wl_verify {
	WL_VERIFY_NONE = 0,
	WL_VERIFY_CRC32C,
	WL_VERIFY_META,    /* fio's meta: a self-describing header per verify_interval (buf.h) */
	WL_VERIFY_PATTERN, /* fio's pattern: every byte is verify_pattern's, checked on read */
};

#define WL_PATTERN_MAX 64 /* verify_pattern bytes */

/* continue_on_error: which kinds of error a job goes past */
#define WL_COE_READ   1u
#define WL_COE_WRITE  2u
#define WL_COE_VERIFY 4u
#define WL_IGNORE_MAX 16 /* errnos per type in ignore_error */

/* ss=: what steady state is judged on (fio's iops, bw, lat) */
enum wl_ss_kind { WL_SS_NONE = 0, WL_SS_IOPS, WL_SS_BW, WL_SS_LAT };

/* numa_mem_policy modes (set_mempolicy(2)) */
enum wl_mpol {
	WL_MPOL_NONE = 0, /* not set: the process's policy */
	WL_MPOL_DEFAULT,
	WL_MPOL_PREFER,
	WL_MPOL_BIND,
	WL_MPOL_INTERLEAVE,
	WL_MPOL_LOCAL,
};

#define WL_BSSPLIT_MAX 16
#define WL_NAME_MAX    64   /* including the NUL: names have 1..63 bytes */
#define WL_GIVEN_MAX   2048 /* fio's "job options" text of a job (struct wl_job) */
#define WL_BS_MIN                                                                                  \
	512u /* offsets and alignments are multiples of this; block sizes                          \
	        may be any from 1 where the target takes them ... */
#define WL_BS_MAX           (64u << 20) /* ... up to 64 MiB (bs and bssplit alike) */
#define WL_JOBFILE_LINE_MAX 4096        /* longest line of a job file, without its end */
#define WL_JOBFILE_JOBS_MAX 1024        /* most job sections in one file */
/* file_service_type=: how a job with several files picks the file of its next I/O */
enum wl_fsvc {
	WL_FSVC_ROUNDROBIN, /* each file in turn, N I/Os each */
	WL_FSVC_SEQUENTIAL, /* a file until its share is done, then the next */
	WL_FSVC_RANDOM,     /* a file at random for N I/Os (zipf, pareto, normal, gauss alike) */
};

/* fallocate=: how a new file's blocks are reserved before it is laid out (as fio);
   the names are the file target's fallocate= values, in this order */
enum wl_falloc {
	WL_FALLOC_NATIVE,
	WL_FALLOC_NONE,
	WL_FALLOC_POSIX,
	WL_FALLOC_KEEP,
	WL_FALLOC_TRUNCATE
};

#define WL_PATH_MAX    512 /* filename= / directory=, including the NUL */
#define WL_LOGNAME_MAX 128 /* write_*_log=NAME prefix, including the NUL */
#define WL_PCT_MAX     20  /* percentile_list entries, as fio */

struct wl_bssplit {
	uint32_t bs;  /* block size in bytes */
	uint32_t pct; /* share of I/Os in percent; all entries add up to 100 */
};

/* cmdprio_bssplit: this share of the requests of size bs carries prio (-1: cmdprio's) */
struct wl_cmdprio_split {
	uint32_t bs;
	uint32_t pct;
	int32_t prio; /* ioprio value (class << 13 | level), or -1 */
};

/* ioengine=net's protocol= */
enum wl_net_proto { WL_NET_TCP = 0, WL_NET_TCPV6, WL_NET_UDP, WL_NET_UDPV6, WL_NET_UNIX };

/* ioengine=net's options, as fio's net engine takes them (opt_net.c) */
struct wl_net {
	uint32_t port;               /* port=; 0: none (filename=HOST/PORT may give it) */
	uint32_t proto;              /* protocol=: enum wl_net_proto */
	bool listen;                 /* listen: a TCP receiver that accepts one connection */
	bool pingpong;               /* pingpong: each block goes back to its sender */
	bool nodelay;                /* nodelay: TCP_NODELAY */
	uint32_t ttl;                /* ttl=: outgoing multicast hops (default 1) */
	uint32_t window_size;        /* window_size=: socket buffer bytes; 0: the system's */
	uint32_t mss;                /* mss=: TCP_MAXSEG; 0: the system's */
	char interface[WL_PATH_MAX]; /* interface=: IPv4 address for multicast; "" any */
};

/* Where a net job's socket goes: host (or socket path), port and protocol. */
struct wl_net_addr {
	char host[WL_PATH_MAX]; /* "" none (a receiver) */
	uint32_t port;          /* 0 for unix */
	uint32_t proto;         /* enum wl_net_proto */
};

struct wl_job {
	char name[WL_NAME_MAX];                    /* name=, or the section name of a job file */
	enum wl_rw rw;                             /* rw= / readwrite=; default read */
	uint32_t bs;                               /* bs= / blocksize=; default 4k */
	struct wl_bssplit bssplit[WL_BSSPLIT_MAX]; /* bssplit=4k/60:64k/40 */
	unsigned nbssplit;                         /* 0: use bs */
	/* bssplit=R,W[,T]: [0] writes' and [1] trims' own split; 0 entries: reads' */
	struct wl_bssplit bssplit_wt[2][WL_BSSPLIT_MAX];
	unsigned nbssplit_wt[2];
	uint32_t iodepth;       /* default 1; a trace's replay: its recorded depth unless given */
	bool iodepth_given;     /* iodepth= was given (wl_job_init clears it) */
	uint32_t iodepth_batch; /* iodepth_batch_submit: requests handed to the kernel at once (0:
	                           iodepth) */
	/*
	 * iodepth_batch_complete_min / _max: completions waited for (0: never
	 * wait, poll) and taken at most per reap (0: as many as min, at least 1)
	 */
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;
	uint32_t numjobs; /* default 1 */
	uint64_t size;    /* bytes of the region each job covers; 0: target size - offset */
	uint64_t offset;  /* start of the region; default 0 */
	uint64_t offset_increment; /* worker k's region starts at offset + k * this; default 0 */
	uint64_t io_size;          /* io_size=: bytes each worker does per loop; 0: size */
	uint64_t runtime_ns;       /* runtime=; 0: no limit */
	bool time_based;           /* keep looping until runtime */
	uint64_t ramp_ns;          /* ramp_time=: run this long before recording */
	uint32_t rwmixread;    /* percent reads in rw/randrw; default 50 (rwmixwrite sets 100-x) */
	bool rwmix_given[2];   /* rwmixread, rwmixwrite given: both must add up to 100 */
	enum wl_dist dist;     /* random_distribution=; default random */
	double dist_param;     /* zipf theta (default 1.1), pareto h (default 0.2); 0 for random */
	bool direct;           /* direct=1 (default): O_DIRECT; direct=0 / buffered=1: page cache */
	enum wl_engine engine; /* ioengine=io_uring (default) | psync */
	bool zero_buffers;     /* zero_buffers=1: write zeros */
	bool refill_buffers;   /* refill_buffers=1: new random contents for every write */
	/* scramble_buffers (default 1): each write's 512-byte sectors carry its
	 * offset and issue time (wl_buf_scramble), when its contents are not
	 * otherwise set (wl_buf_scrambles); scramble_given: the option was given */
	bool scramble_buffers, scramble_given;
	uint32_t buffer_compress_percentage; /* 0..100: that share of each block compresses away */
	uint32_t loops;                      /* default 1 */
	enum wl_verify verify; /* verify=crc32c: write, then read back and check every block */
	uint8_t verify_csum;   /* enum wl_vcsum: verify=md5, sha256, crc64 ... (vcsum.h) */
	uint64_t seed;         /* randseed=; default 1 (fixed, so runs repeat) */
	bool norandommap;      /* random offsets without the once-per-loop map */
	bool rand_lfsr;        /* random_generator=lfsr: once per loop even with norandommap */
	bool verify_only;      /* skip the writes: check blocks an earlier identical job wrote */
	uint64_t log_avg_ns;   /* log_avg_msec=: throughput time-series interval; default 100 ms */
	char engine_name[16];  /* ioengine as given (psync, sync, pvsync2...), for reports */
	bool engine_given;     /* ioengine= was given (wl_job_init clears it) */
	/* fio's io_uring engine options (opt_engine.c), and libaio's userspace_reap */
	bool hipri;                  /* completions polled (IORING_SETUP_IOPOLL) */
	bool sqthread_poll;          /* a kernel thread takes the submissions */
	int32_t sqthread_poll_cpu;   /* its CPU; -1: any */
	bool fixedbufs;              /* buffers registered with the ring */
	bool registerfiles;          /* files registered with the ring */
	int32_t nonvectored;         /* -1 (default): read/write opcodes; 0: readv/writev */
	uint32_t uncached;           /* nonzero: RWF_DONTCACHE on buffered reads and writes */
	bool nowait;                 /* RWF_NOWAIT on reads and writes */
	uint32_t force_async;        /* IOSQE_ASYNC on every Nth request; 0: never */
	bool userspace_reap;         /* libaio: completions read from the ring in user space */
	char filename[WL_PATH_MAX];  /* filename=: path, PATH:PATH... or a spec; "" none */
	bool direct_given;           /* direct= or buffered= was given (wl_job_init clears it) */
	char directory[WL_PATH_MAX]; /* directory=: files named NAME.CLONE.0 in it; "" none */
	uint32_t size_pct;           /* size=N%: share of the target (1..100); 0 none */
	uint32_t offset_pct;         /* offset=N%: start at this share of the target; 0 none */
	bool stonewall;              /* stonewall / wait_for_previous: starts a new group */
	bool new_group;              /* new_group: starts a new reporting group */
	bool group_reporting;        /* report the jobs of a group as one */
	bool randrepeat;             /* 1 (default): the same random sequence every run */
	uint32_t fsync_n;            /* fsync=N: FLUSH after every N writes; 0 off */
	uint32_t fdatasync_n;        /* fdatasync=N: the same (a FLUSH is a data sync) */
	bool sync_writes;            /* sync=1: every write is FUA (O_SYNC / O_DSYNC) */
	bool end_fsync;              /* end_fsync=1: one FLUSH after the job's last write */
	uint64_t startdelay_ns;      /* startdelay=: start this long after the group */
	bool exitall;                /* exitall: when this job ends, the group's others stop */
	bool invalidate;             /* drop the target's host cache at the start and every pass */
	/* write_bw_log / write_lat_log / write_iops_log: fio's log files (results/fio_log.h) */
	bool bw_log, lat_log, iops_log;
	char bw_log_name[WL_LOGNAME_MAX]; /* file prefix; "" = the job's name */
	char lat_log_name[WL_LOGNAME_MAX];
	char iops_log_name[WL_LOGNAME_MAX];
	/* write_hist_log: fio's NAME_clat_hist.N.log, a histogram per log_hist_msec */
	bool hist_log;
	char hist_log_name[WL_LOGNAME_MAX];
	uint32_t log_hist_msec;       /* 0: the log stays empty, as fio's */
	uint32_t log_hist_coarseness; /* 0..6: 1856 >> it bins per line */
	int64_t rw_skip;              /* rw=read:N on a sequential pattern: bytes skipped (or, <0,
	                                 gone back) after every I/O */
	uint32_t rw_nr; /* rw=randread:N: a new random offset every N I/Os (1: always) */
	struct wl_zone zones[WL_ZONES_MAX]; /* random_distribution=zoned / zoned_abs */
	unsigned nzones;
	uint64_t rate[3];             /* rate=R[,W[,T]]: bytes per second per direction; 0 none */
	uint64_t rate_iops[3];        /* rate_iops=R[,W[,T]] */
	uint64_t rate_min[3];         /* rate_min=: the job fails if it ends slower (bytes/s) */
	bool rate_poisson;            /* rate_process=poisson: exponential gaps between requests */
	uint64_t thinktime_ns;        /* thinktime=: pause after each I/O (a plain number is us) */
	char read_iolog[WL_PATH_MAX]; /* read_iolog=: replay this trace instead of rw/bs; "" none */
	bool replay_no_stall;         /* replay_no_stall=1: as fast as possible, in order */
	uint32_t replay_time_scale;   /* replay_time_scale=: percent of the recorded rate (100) */
	char replay_redirect[WL_PATH_MAX]; /* replay_redirect=: every file of the trace here */
	char write_iolog[WL_PATH_MAX];     /* write_iolog=: append the issued requests; "" none */
	uint64_t number_ios;               /* number_ios=: stop after this many I/Os; 0 no limit */
	uint64_t filesize;          /* filesize=: size of files the job creates; 0: offset + size */
	char wait_for[WL_NAME_MAX]; /* wait_for=JOB: start when that job has finished */
	uint32_t exit_what;         /* exit_what: 0 group (default), 1 stonewall, 2 all */
	uint64_t blockalign;        /* blockalign=: random offsets aligned to this; 0 smallest bs */
	double pct_list[WL_PCT_MAX]; /* percentile_list=: reported percentiles; npct 0: fio's */
	unsigned npct;
	uint64_t cpus;      /* cpus_allowed=: CPU mask (CPUs 0..63); 0: any */
	bool cpus_split;    /* cpus_allowed_policy=split: one CPU of the set per worker */
	uint8_t mem;        /* mem=: WL_MEM_* (where the I/O buffers live) */
	uint32_t mem_align; /* mem_align=: buffers start this many bytes past a page boundary */
	/* flow=W: jobs of one flow_id issue in the ratio of their weights (control.h) */
	uint32_t flow;          /* weight; 0: no flow control */
	uint32_t flow_id;       /* flow group; default 0 */
	uint64_t flow_sleep_ns; /* flow_sleep=: wait before retrying when ahead (us unit) */
	/* latency_target: search the highest depth that keeps the latency (control.h) */
	uint64_t lat_target_ns; /* 0: off */
	uint64_t lat_window_ns; /* latency_window=: one step of the search */
	double lat_pct;         /* latency_percentile=: share of I/Os at or below target */
	bool lat_run;           /* latency_run=1: keep adjusting instead of settling */
	/* ss=KIND[_slope]:LIMIT[%]: end the job at steady state (control.h) */
	enum wl_ss_kind ss_kind; /* WL_SS_NONE: off */
	bool ss_slope;           /* least squares slope instead of the largest deviation */
	bool ss_pct;             /* limit is a percentage of the window's mean */
	double ss_limit;
	uint64_t ss_dur_ns;      /* ss_dur=: the rolling window; 0 turns detection off */
	uint64_t ss_ramp_ns;     /* ss_ramp=: run this long before collecting */
	uint64_t ss_interval_ns; /* ss_interval=: one sample per this; default 1 s */
	/* numa_cpu_nodes / numa_mem_policy (numa.h) */
	uint64_t numa_nodes;     /* CPU nodes as a mask (nodes 0..63); 0: any */
	enum wl_mpol numa_mpol;  /* memory policy of the job's threads; WL_MPOL_NONE: as is */
	uint64_t numa_mem_nodes; /* its nodes (prefer: exactly one) */
	/* dedupe_percentage: that share of written blocks repeats an earlier one (buf.h) */
	uint32_t dedupe_pct;
	bool dedupe_working_set; /* dedupe_mode=working_set (default repeat) */
	uint32_t dedupe_ws_pct;  /* dedupe_working_set_percentage: of the region; default 5 */
	bool dedupe_global;      /* the working set is shared by all jobs with this set */
	/* verify=meta (buf.h): headers every verify_interval bytes, the rest verify_pattern */
	uint64_t verify_interval;               /* 0: the block size */
	uint8_t verify_pattern[WL_PATTERN_MAX]; /* verify_pattern=0xHEX or "text" */
	uint32_t verify_pattern_len;            /* 0: random data (not checked) */
	uint64_t verify_pattern_ofs;            /* bit i: %o (8-byte block offset) at byte i */
	bool do_verify;                /* 0: write the verifiable blocks, no read-back pass */
	bool fill_device;              /* ENOSPC / EDQUOT on a write ends the job, not fails it */
	uint32_t verify_backlog;       /* check the blocks after every N writes, not at the end */
	uint32_t verify_backlog_batch; /* reads per backlog check; 0: verify_backlog's */
	uint64_t verify_offset; /* verify=meta: header swapped to this byte of each interval */
	bool verify_fatal;      /* stop the job at its first verify failure */
	bool verify_dump;       /* write failed blocks (and the expected data) to files */
	/* I/O priorities (ioprio_set(2): class << 13 | level); see wl_job_ioprio */
	uint32_t prio_level;       /* prio=0..7 */
	uint32_t prio_class;       /* prioclass=0..3 (0: none) */
	bool prio_set;             /* prio= given: without prioclass, best effort (class 2) */
	uint32_t cmdprio_pct[2];   /* cmdprio_percentage=R[,W]: share of I/Os with cmdprio */
	uint32_t cmdprio_class[2]; /* cmdprio_class=R[,W]; default 1 (real time) */
	uint32_t cmdprio_level[2]; /* cmdprio=R[,W]; default 0 */
	/* cmdprio_bssplit=R[,W]: per block size instead of cmdprio_percentage */
	struct wl_cmdprio_split cmdprio_split[2][WL_BSSPLIT_MAX];
	unsigned ncmdprio_split[2];
	bool log_prio; /* log_prio=1: lat logs show the priority value */
	/* continue_on_error / ignore_error: errors a job counts and goes past (run.c, the request
	 * path) */
	uint32_t coe;                         /* WL_COE_* bits; 0: stop at the first */
	int32_t ignore_err[3][WL_IGNORE_MAX]; /* per type (read, write, verify): errnos */
	uint32_t nignore[3];                  /* 0: fio's default, EIO and EILSEQ */
	bool error_dump;                      /* print continued errors (default 1) */
	bool verify_given; /* verify= was given (verify_pattern alone: pattern) */
	/* fio's file habits (files.c, the file target) */
	uint32_t nrfiles;                  /* files per clone named by filename_format; default 1 */
	uint8_t file_service;              /* enum wl_fsvc: file_service_type= (roundrobin) */
	uint32_t file_service_n;           /* its :N: I/Os on a file before switching (1) */
	uint8_t fallocate;                 /* enum wl_falloc: fallocate= (native) */
	char filename_format[WL_PATH_MAX]; /* default $jobname.$jobnum.$filenum */
	bool unlink_files; /* unlink=1 / unlink_each_loop=1: remove them at the end */
	bool keep_files;   /* fio's habit: files it laid out stay (wl_job_apply_fio_defaults) */
	bool create_only;  /* create_only=1: lay out the files, no I/O */
	bool disk_util;    /* disk_util=0: not in the Disk stats (default 1) */
	bool allow_file_create; /* 0: a file that does not exist is an error */
	bool create_on_open;    /* 1: a short existing file is used as it is, not laid out */
	/* buffer_pattern=: what writes carry (0 bytes: random data) */
	uint8_t buffer_pattern[WL_PATTERN_MAX];
	uint32_t buffer_pattern_len;
	/* fio's logs */
	bool log_offset;   /* log_offset=1: logs have an offset column (0 for averaged lines) */
	bool log_per_io;   /* log_avg_msec=0 (the default): fio's logs get a line per I/O */
	bool disable_bw;   /* disable_bw_measurement: the per-I/O bandwidth log stays empty */
	bool per_job_logs; /* 0: one log file for all jobs, without the job number */
	/* zonemode=strided (gen.c): zonesize bytes in a zone of zonerange, then zoneskip on */
	bool zone_strided;
	uint64_t zone_range; /* zonerange=; 0: zonesize */
	uint64_t zone_size;  /* zonesize= */
	uint64_t zone_skip;  /* zoneskip= */
	/* ioengine=cpuio (targets/cpu.c): each request burns cpuchunks, then the job idles so
	   that it is busy cpuload percent of the time */
	uint32_t cpuload;      /* cpuload=1..100; 0: not given (cpuio needs it) */
	uint32_t cpuchunks_us; /* cpuchunks=: one burn, microseconds; default 50000 */
	bool cpu_qsort;        /* cpumode=qsort (default noop: a spin) */
	bool cpu_exit_io_done; /* exit_on_io_done=1: end when the group's I/O jobs have */
	/* ioengine=exec (targets/exec.c): program= runs for the job's runtime */
	char exec_program[WL_PATH_MAX];
	char exec_args[WL_PATH_MAX]; /* arguments=: split at spaces; %r runtime (s), %n name */
	uint32_t exec_grace_s;       /* grace_time=: SIGTERM, then SIGKILL this much later */
	bool exec_redirect;          /* std_redirect=1: NAME.stdout and NAME.stderr files */
	char nbd_uri[WL_PATH_MAX];   /* ioengine=nbd: uri=, the server (targets/nbd.c) */
	/* unified_rw_reporting: 0 none, 1 mixed (one "mixed" direction), 2 both (and per direction)
	 */
	uint32_t unified_rw;
	uint32_t kb_base;  /* kb_base=1000|1024: the unit fio's normal output leads with */
	uint32_t sig_figs; /* significant_figures=: digits of fio's normal output; 0: 4 */
	/* fio's disable_lat/clat/slat: that latency left out of the outputs and logs */
	bool disable_lat, disable_clat, disable_slat;
	/* clat_percentiles= (fio's default 1), lat_percentiles=, slat_percentiles= (0):
	   which latencies fio's outputs give percentiles of */
	bool clat_pcts, lat_pcts, slat_pcts;
	struct wl_net net; /* ioengine=net: the socket's options (opt_net.c) */
	/*
	 * fio's "job options": what this job's own section (or the command line
	 * after its --name) gave, as given, in fio's names, one "name=value\n"
	 * each (a bare key is not listed, as in fio); wl_job_set adds to it.
	 */
	char given[WL_GIVEN_MAX];
};

/**
 * Split jobs as fio does.  @wave receives each job's run wave: a job with
 * stonewall waits for all jobs before it, so it starts a new wave after
 * theirs; a job with wait_for=NAME runs in a wave after that job's; jobs of
 * one wave run at the same time.  @group (may be NULL) receives the
 * reporting group (fio's groupid): stonewall or new_group start a new one.
 * Sets *nwaves; returns 0, or -EINVAL with a message when wait_for names
 * no earlier job.
 */
int wl_job_groups(const struct wl_job *jobs, size_t njobs, unsigned *wave, unsigned *group,
                  size_t *nwaves, char *msg, size_t msglen);

/**
 * The target spec a job names with filename= / directory= for its clone
 * @clone, into @buf: "file(\"PATH\")" for a path, "concat(file(..), ...)"
 * for a ':'-separated list, the value itself when it is a spec (contains
 * '('), "null(size=...)" for ioengine=null.  Returns 0, 1 when the job
 * names no target of its own (use the run's), or -EINVAL with a message.
 */
int wl_job_target_spec(const struct wl_job *job, unsigned clone, char *buf, size_t len, char *msg,
                       size_t msglen);

/**
 * How many files @job names: the names of a filename= list, nrfiles without
 * filename, 0 when filename is a target spec.
 */
unsigned wl_job_nfiles(const struct wl_job *job);

/**
 * Defaults as listed in the comments above (name "job").  They come from the
 * option table's default texts, so they always match the documentation.
 */
void wl_job_init(struct wl_job *job);
/*
 * Does the job run for its runtime rather than its size?  time_based needs a
 * runtime: without one fio notes it and runs the job's size once, and so
 * does raidlab (`run` prints the same note).
 */
bool wl_job_time_based(const struct wl_job *job);

/*
 * fio's defaults where fio's own way of naming files is used: a job whose
 * filename= names paths (not a raidlab spec), whose directory= is set, or
 * that names no file at all and has no target to fall back on (@fio_files:
 * no --target and no target= in the job file, so it runs in fio's default
 * file NAME.CLONE.0).  Such a job, unless it said otherwise, runs buffered
 * (direct=0) with ioengine=psync, and the files it lays out stay when it
 * ends (unlink=0), as the same job does under fio.  Jobs on a --target
 * keep raidlab's defaults: direct=1 and io_uring, because a target is
 * measured, not the page cache or a system call's cost.  A job replaying a
 * trace (read_iolog) keeps io_uring, as its depth is the trace's.  Returns
 * true when the engine changed (the caller then validates the job again).
 */
bool wl_job_apply_fio_defaults(struct wl_job *job, bool fio_files);

/**
 * The block size split of direction @dir (0 read, 1 write, 2 trim) and its
 * entries in *@n (0: every I/O is bs).
 */
const struct wl_bssplit *wl_job_bssplit(const struct wl_job *job, int dir, unsigned *n);

/** Can the job issue a request whose size or start is not a whole number of 512-byte sectors? */
bool wl_job_sub_sector(const struct wl_job *job);
/** The smallest and largest block size of any direction (bs or the splits). */
void wl_job_bs_bounds(const struct wl_job *job, uint32_t *min, uint32_t *max);
/**
 * Does a request of direction @dir and size @len carry a cmdprio priority
 * (cmdprio_percentage or cmdprio_bssplit)?  @r is a draw from 0..99; the
 * priority goes to *@prio.
 */
bool wl_job_cmdprio_pick(const struct wl_job *job, int dir, uint32_t len, uint32_t r,
                         uint16_t *prio);

/** The job's own I/O priority (prio, prioclass), 0 for none. */
uint16_t wl_job_ioprio(const struct wl_job *job);
/** The priority cmdprio_* give direction @dir (0 read, 1 write) when set. */
uint16_t wl_job_cmdprio(const struct wl_job *job, int dir);

/**
 * Does the job go past error @err (a positive errno) of type @type (0 read,
 * 1 write, 2 verify)?  continue_on_error must name the type and the errno
 * must be in ignore_error's list for it (default EIO and EILSEQ, as fio).
 */
bool wl_job_continues(const struct wl_job *job, int type, int err);

/**
 * verify=meta and verify=pattern: a block says by itself what it must hold,
 * so any read can be checked (a reading job checks what an earlier one wrote).
 */
static inline bool wl_verify_self_checked(enum wl_verify v)
{
	return v == WL_VERIFY_META || v == WL_VERIFY_PATTERN;
}

/**
 * fio's "job options" (wl_job.given): add @name=@value in fio's name for
 * the option (an alias becomes the name; a NULL @value adds nothing).  A
 * list that would pass WL_GIVEN_MAX - 1 bytes keeps what it has.
 */
void wl_given_add(char *given, const char *name, const char *value);
/**
 * Order the entries of @given from byte @from as fio orders a job file's
 * section before parsing it: by the options' priority (filename last,
 * kb_base first), otherwise as written.
 */
void wl_given_sort(char *given, size_t from);
/**
 * The entry of @given at *@pos: its name and value (truncated to the
 * buffers); *@pos moves past it.  Returns false at the end.
 */
bool wl_given_next(const char *given, size_t *pos, char *name, size_t namelen, char *value,
                   size_t valuelen);

/** True for the random patterns (randread, randwrite, randrw, randtrim). */
bool wl_rw_is_random(enum wl_rw rw);

/** Random offsets use each block once a loop: the random map, or random_generator=lfsr. */
static inline bool wl_job_randmap(const struct wl_job *job)
{
	return !job->norandommap || job->rand_lfsr;
}
/** The option value as fio spells it ("randread"). */
const char *wl_rw_name(enum wl_rw rw);
/**
 * True if the job writes or trims (safety checks apply): write, randwrite,
 * trim, randtrim, and rw / randrw unless rwmixread is 100; any falloc or
 * ftruncate job (its reads change the file's allocation).
 */
bool wl_job_writes(const struct wl_job *job);
/**
 * True if the job reads what is on the target: read, randread, rw / randrw
 * unless rwmixread is 0, and any job that verifies.
 */
bool wl_job_reads(const struct wl_job *job);

/**
 * Set one option by name.  @where names the source for messages
 * ("command line", "jobs.fio:12"; NULL for none).  Returns 0, or -EINVAL
 * with a message in @msg such as "jobs.fio:12: option 'iodepth': expected a
 * whole number from 1 to 65536, got 'abc'".  On error the job is unchanged.
 *
 * @value NULL means the bare key ("--time_based" or a line "time_based"):
 * booleans take it as true, other options reject it.  Names are exact
 * (lower case); aliases (readwrite, blocksize) are accepted.  An unknown name
 * gets a suggestion ("unknown option 'iodeptj' (did you mean 'iodepth'?)");
 * "target" is rejected with a pointer to --target / target=, which the
 * caller handles itself; other fio options that raidlab lacks are rejected
 * as unsupported.
 */
int wl_job_set(struct wl_job *job, const char *name, const char *value, const char *where,
               char *msg, size_t msglen);

/**
 * Cross-option checks after all options are set: every range again (for jobs
 * filled in by hand), bssplit sizes and sum, time_based needs runtime > 0,
 * verify needs a write pattern with writes (not trim, not rwmixread=100) and
 * not bssplit together with norandommap, zero_buffers excludes
 * refill_buffers and buffer_compress_percentage, zipf/pareto need a random
 * pattern, size (if not 0) holds at least one largest block, offset + size
 * does not overflow.  ramp_time without runtime is fine.  Messages start
 * with "@where: " (the job file passes "jobs.fio:3: job 'name'").
 */
int wl_job_validate(const struct wl_job *job, const char *where, char *msg, size_t msglen);

/** A parsed job file: the jobs in order, [global] already applied to each. */
struct wl_jobfile {
	struct wl_job *jobs;
	size_t njobs;
	char *target;                    /* target= from [global], or NULL */
	char global_given[WL_GIVEN_MAX]; /* fio's "global options", as wl_job.given */
};

/**
 * Parse an INI job file's text (NUL-terminated).  @fname is used in messages
 * (NULL: "job file").  Returns 0, or -EINVAL / -ENOMEM with a message naming
 * the file and line ("jobs.fio:7: ..."); on error @out is left empty.
 *
 * Lines (whitespace around everything is ignored, CRLF is fine, at most
 * WL_JOBFILE_LINE_MAX characters):
 *   [name]          starts a job named name (name= may override it); the
 *                   same name may appear twice (two jobs, as fio)
 *   [global]        starts defaults for the jobs that follow; a later
 *                   [global] continues from the earlier one and affects
 *                   only the jobs after it (as fio)
 *   key=value       an option; value may be "quoted" (quotes removed, no
 *                   escapes; needed to keep a ';' or '#' after whitespace)
 *   key             a bare boolean option, meaning true
 *   ; text, # text  a comment, at the start of a line or after whitespace
 *
 * Every job starts as a copy of @base (NULL: wl_job_init defaults) with the
 * [global] options seen so far applied on top; its own lines come last.  So
 * the CLI applies command-line job options to @base before calling this and
 * the file overrides them.  target=SPEC is only allowed in a [global] before
 * the first job and is stored in out->target (the CLI's --target, if any,
 * is the caller's to weigh against it); in a job section it is an error.
 * name= in [global] is checked but, as in fio, each job is named by its
 * section; ${VAR}, $ncpus, $pagesize and $mb_memory are substituted.  A key
 * before any section, a file without job sections, or more than
 * WL_JOBFILE_JOBS_MAX jobs are errors.  Each job is checked with
 * wl_job_validate when its section ends.
 */
int wl_jobfile_parse(const char *text, const char *fname, const struct wl_job *base,
                     struct wl_jobfile *out, char *msg, size_t msglen);
/**
 * Loads an include file: its whole text (NUL-terminated) in *@text, to free;
 * on failure -errno and a message naming the file in @why.
 */
typedef int (*wl_jobfile_reader)(const char *path, char **text, char *why, size_t whylen);
/**
 * wl_jobfile_parse with fio's `include FILE` lines (inside [global] or a
 * job section: FILE's lines are read in their place; a relative FILE is
 * beside @fname), loaded through @read; without a reader they are refused.
 */
int wl_jobfile_parse_from(const char *text, const char *fname, const struct wl_job *base,
                          wl_jobfile_reader read, struct wl_jobfile *out, char *msg, size_t msglen);
void wl_jobfile_free(struct wl_jobfile *jf);

/**
 * Describe every option (name, type, default, meaning) for help and docs, in
 * table order.  The array is static and never changes.
 */
struct wl_option_info {
	const char *name;
	const char *alias; /* another accepted name, or NULL */
	const char *type;  /* "size", "int", "bool", "time", "enum", "str", "percent",
	                      "bssplit", "dist", "msec" */
	const char *def;   /* default as text ("" if the option has none) */
	const char *help;
};
const struct wl_option_info *wl_options(size_t *count);

/**
 * The @i-th value the enumerated option @name (or its alias) accepts, from
 * the table the setter checks against (rw, ioengine, verify); NULL past the
 * last or for an option that is not enumerated.
 */
const char *wl_option_choice(const char *name, size_t i);

/** The bounds of the numeric option @name (or alias) into @min, @max; false if it has none. */
bool wl_option_range(const char *name, uint64_t *min, uint64_t *max);

/**
 * The operation of a file-operation engine (filecreate ... dirdelete) as
 * the fileops() target names it ("create", "stat", "delete"), with
 * *@dirs set for the dir* ones; NULL for the other engines (engine.c).
 */
const char *wl_engine_fileop(enum wl_engine e, bool *dirs);

/*
 * Is @e's target a stream (net)?  Its requests end with -ESHUTDOWN when the
 * peer ended the stream (the job is done), and the target is finished as
 * soon as the job's workers end, so the peer sees the end.
 */
bool wl_engine_stream(enum wl_engine e);

/*
 * ioengine=net: the job's address from filename= (HOST, HOST/PORT or
 * HOST/PORT/PROTOCOL; a socket path for protocol=unix), port= and
 * protocol=.  0, or -EINVAL with a message naming the option in @msg.
 */
int wl_job_net_addr(const struct wl_job *job, struct wl_net_addr *a, char *msg, size_t msglen);

/** The @i-th name ioengine= accepts (fio's spelling), or NULL past the last. */
const char *wl_engine_name(size_t i);

#endif
