/*
 * opt_priv.h - what the pieces of the job option parser share (private to
 * src/workload/opt_*.c and options.c; the public API is in job.h).
 *
 * Design: the option table (options.c) is one array of struct opt_def,
 * each row naming a setter.  The setters live by family in opt_generic.c
 * (plain numbers, sizes, booleans at a field offset), opt_pattern.c (rw,
 * block sizes, distributions), opt_engine.c (engine, paths, buffers),
 * opt_place.c (priorities, CPUs, NUMA), opt_timing.c (rates, waits, steady
 * state), opt_verify.c (verify, patterns, dedupe) and opt_report.c (logs,
 * percentiles, errors); opt_parse.c holds the messages and value parsers
 * they share, opt_validate.c the rules across options.  A setter is one
 * function of type opt_set_fn: adding an option is a row in the table and,
 * if no existing setter fits, one function in its family's file.
 */
#ifndef RL_WORKLOAD_OPT_PRIV_H
#define RL_WORKLOAD_OPT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job.h"

#define OPT_ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))
#define OPT_NS_PER_MS      1000000ull
#define OPT_LOG_AVG_MAX    3600000ull /* log_avg_msec: at most one hour */
#define OPT_LOG_AVG_SERIES 100ull     /* log_avg_msec=0: the time series' interval, ms */
#define OPT_LOOPS_MAX      1000000u
#define OPT_DEF_ZIPF       1.1
#define OPT_DEF_PARETO     0.2
#define OPT_SS_SAMPLES_MAX 100000u /* ss_dur / ss_interval */

#define OPT_BS_FORM "a block size from 1 byte to 64m (e.g. 4k)"

/* --- messages (opt_parse.c) --- */

/* Where a message goes and what it names. */
struct opt_ctx {
	const char *where; /* "jobs.fio:12", "command line" or NULL */
	const char *given; /* the option name as the user wrote it (alias or not) */
	char *msg;
	size_t msglen;
};

/*
 * Fail with "WHERE: option 'NAME': ..." (@named) or "WHERE: ..." and return
 * -EINVAL.
 */
__attribute__((format(printf, 3, 4))) int opt_fail(const struct opt_ctx *ctx, bool named,
                                                   const char *fmt, ...);

/* The closest of @names (entries may be NULL) to @typed, or NULL. */
const char *opt_suggest_from(const char *typed, const char *const *names, size_t n);

/* --- enumerated values (opt_parse.c) --- */

struct opt_choice {
	const char *text;
	int value;
};

const struct opt_choice *opt_find_choice(const struct opt_choice *choices, const char *text);
/* "a, b, c" into @buf. */
const char *opt_choice_list(const struct opt_choice *choices, char *buf, size_t len);
/* " (did you mean 'x'?)" or "" into @buf. */
const char *opt_choice_hint(const struct opt_choice *choices, const char *text, char *buf,
                            size_t len);

/* The choices of rw (opt_pattern.c), ioengine (opt_engine.c) and verify (opt_verify.c). */
extern const struct opt_choice opt_rw_choices[];
extern const struct opt_choice opt_engine_choices[];
extern const struct opt_choice opt_verify_choices[];

/* --- the table's types --- */

struct opt_def;
typedef int (*opt_setter)(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx);
/* The type of every setter, for declaring them. */
typedef int opt_set_fn(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx);

struct opt_def {
	struct wl_option_info info;
	opt_setter set;
	size_t off;   /* field of struct wl_job for the generic setters */
	uint64_t min; /* bounds for the generic number setters */
	uint64_t max;
	uint64_t align; /* opt_set_size: the value must be a multiple of this (0: any) */
	const struct opt_choice *choices; /* for enumerated options */
};

/* Offset of a field, checked at compile time to have type @type. */
#define OPT_OFF(field, type)                                                                       \
	(offsetof(struct wl_job, field) +                                                          \
	 0 * sizeof(                                                                               \
	         char[__builtin_types_compatible_p(__typeof__(((struct wl_job *)0)->field), type)  \
	                  ? 1                                                                      \
	                  : -1]))
#define OPT_FIELD(job, def, type) ((type *)(void *)((char *)(job) + (def)->off))

/* --- value parsers shared by the setters (opt_parse.c) --- */

int opt_need_value(const struct opt_def *def, const char *value, const struct opt_ctx *ctx);
int opt_parse_bool(const char *value, bool *out, const struct opt_ctx *ctx);
/* Whole number in [min, max]. */
int opt_parse_uint(const struct opt_def *def, const char *value, uint64_t min, uint64_t max,
                   uint64_t *out, const struct opt_ctx *ctx);
/* "70" or "70%", 0..100. */
int opt_parse_percent(const struct opt_def *def, const char *value, uint32_t *out,
                      const struct opt_ctx *ctx);
/* A block size in bytes within [1, WL_BS_MAX] (opt_parse.c). */
bool opt_bs_ok(uint64_t bs);
/* A block size of @job: opt_bs_ok, or with ioengine=net any from 1 byte (opt_net.c). */
bool opt_job_bs_ok(const struct wl_job *job, uint64_t bs);
/* A decimal number without sign, hex or inf/nan ("1.2", "0.5", "2e-1"). */
bool opt_parse_double(const char *s, double *out);
/* Numbers and ranges from 0 to 63 ("0-3,6") as a mask; with @all, "all" is every one. */
bool opt_parse_idlist(const char *value, bool all, uint64_t *out);
/* An option with two words: @no sets *out false, @yes sets it true. */
int opt_two_words(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
                  const char *no, const char *yes, bool *out);
/*
 * The ','-separated parts of a per-direction value (READ,WRITE[,TRIM]) into
 * @parts (copies, NUL-ended); their number, or 0 when one is empty or too
 * long or there are more than @max (opt_pattern.c).
 */
#define OPT_DIR_PART_MAX 512
unsigned opt_split_dirs(const char *value, char parts[][OPT_DIR_PART_MAX], unsigned max);
/* ioengine and verify: "ioengine 'x' is not supported by raidlab (supported: ...)". */
int opt_choice_unsupported(const struct opt_def *def, const char *value, const struct opt_ctx *ctx);
/* ioengine and verify: *out = the value's entry in def->choices, or the error (needs a value,
   not supported). */
int opt_take_choice(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
                    const struct opt_choice **out);

/* --- the setters, by family --- */

/* opt_generic.c */
opt_set_fn opt_set_bool, opt_set_u32, opt_set_u64, opt_set_percent, opt_set_size, opt_set_time,
    opt_set_bool_accepted, opt_set_u32_accepted, opt_set_text, opt_set_bool_on;
/* opt_pattern.c */
opt_set_fn opt_set_name, opt_set_rw, opt_set_bsrange, opt_set_bs, opt_set_bssplit, opt_set_rwmix,
    opt_set_dist;
/* opt_engine.c */
opt_set_fn opt_set_sqpoll, opt_set_sqpoll_cpu, opt_set_nonvectored;
opt_set_fn opt_set_engine, opt_set_buffered, opt_set_direct, opt_set_iodepth, opt_set_path,
    opt_set_fallocate, opt_set_sync, opt_set_mem, opt_set_thread, opt_set_submit_mode,
    opt_set_generator, opt_set_clocksource, opt_set_mounted_write, opt_set_file_service,
    opt_set_pre_read, opt_set_zonemode, opt_set_cpumode, opt_set_scramble;
/* opt_place.c */
opt_set_fn opt_set_prio, opt_set_pair, opt_set_cmdprio_bssplit, opt_set_cpus, opt_set_numa_nodes,
    opt_set_numa_mpol, opt_set_cpus_policy;
/* opt_timing.c */
opt_set_fn opt_set_rate, opt_set_rate_process, opt_set_usec, opt_set_lat_pct, opt_set_ss,
    opt_set_exit_what, opt_set_wait_for;
/* opt_verify.c */
opt_set_fn opt_set_verify, opt_set_vpattern, opt_set_bpattern, opt_set_dedupe_mode;
/* opt_net.c: ioengine=net's options, and its rules across options (validate) */
opt_set_fn opt_set_net_proto;
int opt_check_net(const struct wl_job *job, const struct opt_ctx *ctx);
/* opt_engine.c: the io_uring and libaio engines' own options belong to them */
int opt_check_uring_opts(const struct wl_job *job, const struct opt_ctx *ctx);
/* opt_report.c */
opt_set_fn opt_set_log_avg, opt_set_log, opt_set_pct_list, opt_set_coe, opt_set_ignore_error,
    opt_set_unified_rw, opt_set_kb_base;

#endif
