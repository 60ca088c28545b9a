/*
 * opt_engine.c - the option setters of how the job's I/O reaches the
 * target: ioengine, direct/buffered, file paths, fallocate, sync, the I/O
 * buffers' memory, the options of the engines that do no I/O (cpumode),
 * and fio options accepted for compatibility whose value is only checked
 * (thread, io_submit_mode, random_generator).
 *
 * Design: each setter checks the whole value before storing it; names of
 * accepted-but-unused values are listed here so a typo still fails.
 */
#include "workload/opt_priv.h"

#include <stdio.h>
#include <string.h>

const struct opt_choice opt_engine_choices[] = {
    {"io_uring", WL_ENGINE_IO_URING},
    {"libaio", WL_ENGINE_LIBAIO},
    {"psync", WL_ENGINE_PSYNC},
    {"sync", WL_ENGINE_PSYNC},
    {"pvsync", WL_ENGINE_PSYNC},
    {"pvsync2", WL_ENGINE_PSYNC},
    {"null", WL_ENGINE_NULL},
    {"falloc", WL_ENGINE_FALLOC},
    {"ftruncate", WL_ENGINE_FTRUNCATE},
    {"filecreate", WL_ENGINE_FILECREATE},
    {"filestat", WL_ENGINE_FILESTAT},
    {"filedelete", WL_ENGINE_FILEDELETE},
    {"dircreate", WL_ENGINE_DIRCREATE},
    {"dirstat", WL_ENGINE_DIRSTAT},
    {"dirdelete", WL_ENGINE_DIRDELETE},
    {"cpuio", WL_ENGINE_CPUIO},
    {"exec", WL_ENGINE_EXEC},
    {"pmemblk", WL_ENGINE_PMEMBLK},
    {"net", WL_ENGINE_NET},
    {"mmap", WL_ENGINE_MMAP},
    {"posixaio", WL_ENGINE_POSIXAIO},
    {"nbd", WL_ENGINE_NBD},
    {NULL, 0},
};

const char *wl_engine_name(size_t i)
{
	return i < sizeof(opt_engine_choices) / sizeof(opt_engine_choices[0])
	           ? opt_engine_choices[i].text
	           : NULL;
}

int opt_set_engine(struct wl_job *job, const struct opt_def *def, const char *value,
                   const struct opt_ctx *ctx)
{
	const struct opt_choice *c;
	if (value && !strcmp(value, "sg"))
		return opt_fail(
		    ctx, true,
		    "ioengine=sg (fio's SCSI generic engine: SCSI commands through "
		    "/dev/sg* or a block device's SG_IO) is not supported by raidlab: it "
		    "needs a SCSI device and the kernel's SCSI layer, which raidlab's test "
		    "machines lack, so it would run untested; use libaio, io_uring or "
		    "psync on the block device");
	int ret = opt_take_choice(def, value, ctx, &c);
	if (ret)
		return ret;
	job->engine = (enum wl_engine)c->value;
	job->engine_given = true;
	snprintf(job->engine_name, sizeof(job->engine_name), "%s", c->text);
	return 0;
}

int opt_set_buffered(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	bool b = false;
	(void)def;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	job->direct = !b;
	job->direct_given = true;
	return 0;
}

int opt_set_iodepth(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	int ret = opt_set_u32(job, def, value, ctx);
	if (!ret)
		job->iodepth_given = true;
	return ret;
}

int opt_set_direct(struct wl_job *job, const struct opt_def *def, const char *value,
                   const struct opt_ctx *ctx)
{
	int ret = opt_set_bool(job, def, value, ctx);
	if (!ret)
		job->direct_given = true;
	return ret;
}

/* A path (filename=, directory=): any text without control characters. */
int opt_set_path(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	size_t len = strlen(value);
	bool ok = len > 0 && len < WL_PATH_MAX;
	for (size_t i = 0; ok && i < len; i++)
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
			ok = false;
	if (!ok)
		return opt_fail(ctx, true,
		                "expected a path of 1 to %d characters without control characters",
		                WL_PATH_MAX - 1);
	memcpy(OPT_FIELD(job, def, char), value, len + 1);
	return 0;
}

/* fallocate=none|native|posix|keep|truncate, and fio's aliases 0 (none) and 1 (posix). */
int opt_set_fallocate(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	static const struct {
		const char *word;
		enum wl_falloc mode;
	} modes[] = {{"native", WL_FALLOC_NATIVE},
	             {"none", WL_FALLOC_NONE},
	             {"posix", WL_FALLOC_POSIX},
	             {"keep", WL_FALLOC_KEEP},
	             {"truncate", WL_FALLOC_TRUNCATE},
	             {"0", WL_FALLOC_NONE},
	             {"1", WL_FALLOC_POSIX}};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(modes); i++)
		if (!strcmp(value, modes[i].word)) {
			job->fallocate = (uint8_t)modes[i].mode;
			return 0;
		}
	return opt_fail(ctx, true, "expected none, native, posix, keep, truncate, 0 or 1, got '%s'",
	                value);
}

/* sync=0|none|1|sync|dsync: FUA on every write (O_SYNC and O_DSYNC alike). */
int opt_set_sync(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!strcmp(value, "0") || !strcmp(value, "none"))
		job->sync_writes = false;
	else if (!strcmp(value, "1") || !strcmp(value, "sync") || !strcmp(value, "dsync"))
		job->sync_writes = true;
	else
		return opt_fail(ctx, true, "expected 0, none, 1, sync or dsync, got '%s'", value);
	return 0;
}

/* mem=malloc|mmap|mmaphuge: where the I/O buffers live. */
int opt_set_mem(struct wl_job *job, const struct opt_def *def, const char *value,
                const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!strcmp(value, "malloc"))
		job->mem = WL_MEM_MALLOC;
	else if (!strcmp(value, "mmap"))
		job->mem = WL_MEM_MMAP;
	else if (!strcmp(value, "mmaphuge"))
		job->mem = WL_MEM_HUGE;
	else
		return opt_fail(ctx, true, "expected malloc, mmap or mmaphuge, got '%s'", value);
	return 0;
}

/* A bool raidlab takes only as @only: the other value is refused with @why. */
static int opt_bool_only(const char *value, const struct opt_ctx *ctx, bool only, const char *why)
{
	bool b = false;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	return b == only ? 0 : opt_fail(ctx, true, "%s", why);
}

/* thread: raidlab's workers are always threads of one process. */
int opt_set_thread(struct wl_job *job, const struct opt_def *def, const char *value,
                   const struct opt_ctx *ctx)
{
	(void)job;
	(void)def;
	return opt_bool_only(value, ctx, true,
	                     "raidlab's workers are always threads of one process; thread=0 "
	                     "(a process per job) cannot be honoured");
}

/* @value is one of @words (NULL-ended), which @expected lists in words. */
static int opt_check_word(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
                          const char *const *words, const char *expected)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	for (; *words; words++)
		if (!strcmp(value, *words))
			return 0;
	return opt_fail(ctx, true, "expected %s, got '%s'", expected, value);
}

/* io_submit_mode=inline|offload (see the table). */
int opt_set_submit_mode(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	static const char *const modes[] = {"inline", "offload", NULL};
	(void)job;
	return opt_check_word(def, value, ctx, modes, "inline or offload");
}

/*
 * random_generator: raidlab has one generator (xoshiro256**); lfsr's promise
 * (each block once a loop, norandommap or not) is kept with the random map.
 */
int opt_set_generator(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	static const char *const gens[] = {"tausworthe", "lfsr", "tausworthe64", NULL};
	int ret = opt_check_word(def, value, ctx, gens, "tausworthe, lfsr or tausworthe64");
	if (!ret)
		job->rand_lfsr = !strcmp(value, "lfsr");
	return ret;
}

/* clocksource=: checked; raidlab times everything with CLOCK_MONOTONIC */
int opt_set_clocksource(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	static const char *const srcs[] = {"gettimeofday", "clock_gettime", "cpu", NULL};
	(void)job;
	return opt_check_word(def, value, ctx, srcs, "gettimeofday, clock_gettime or cpu");
}

/*
 * allow_mounted_write=: 0 is raidlab's rule anyway.  1 would let a job file
 * write over a device in use; raidlab lifts that protection only for
 * --force-destroy given on the command line, where the person running it
 * sees it, never from a file that may have come from elsewhere.
 */
int opt_set_mounted_write(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	(void)job;
	(void)def;
	return opt_bool_only(value, ctx, false,
	                     "raidlab writes over a device in use (mounted, or holding a "
	                     "filesystem or array) only when --force-destroy is given on the "
	                     "command line, never on a job option's word");
}

/*
 * file_service_type=random|roundrobin|sequential|zipf|pareto|normal|gauss,
 * each with an optional :N.  roundrobin and random switch file after N
 * I/Os (1); sequential finishes a file before the next (N unused).  zipf,
 * pareto, normal and gauss draw the file uniformly here, like random; their
 * :N is fio's skew parameter, checked as a number.
 */
int opt_set_file_service(struct wl_job *job, const struct opt_def *def, const char *value,
                         const struct opt_ctx *ctx)
{
	static const struct {
		const char *word;
		enum wl_fsvc kind;
	} kinds[] = {{"random", WL_FSVC_RANDOM},         {"roundrobin", WL_FSVC_ROUNDROBIN},
	             {"sequential", WL_FSVC_SEQUENTIAL}, {"zipf", WL_FSVC_RANDOM},
	             {"pareto", WL_FSVC_RANDOM},         {"normal", WL_FSVC_RANDOM},
	             {"gauss", WL_FSVC_RANDOM}};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	size_t n = strcspn(value, ":");
	double arg = 1;
	if (value[n] && (!value[n + 1] || !opt_parse_double(value + n + 1, &arg)))
		goto bad;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(kinds); i++) {
		if (strlen(kinds[i].word) != n || strncmp(kinds[i].word, value, n))
			continue;
		bool counted = i < 2; /* random, roundrobin: :N counts I/Os */
		if (counted && (arg < 1 || arg > UINT32_MAX || arg != (double)(uint32_t)arg))
			return opt_fail(ctx, true,
			                "%s:N: N is the I/Os on a file before switching, a whole "
			                "number from 1, got '%s'",
			                kinds[i].word, value + n + 1);
		job->file_service = (uint8_t)kinds[i].kind;
		job->file_service_n = counted ? (uint32_t)arg : 1;
		return 0;
	}
bad:
	return opt_fail(ctx, true,
	                "expected random, roundrobin, sequential, zipf, pareto, normal or gauss, "
	                "optionally with :N, got '%s'",
	                value);
}

/* zonemode=none|strided; zbd needs a zoned device (refused with the reason). */
int opt_set_zonemode(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!strcmp(value, "zbd"))
		return opt_fail(ctx, true,
		                "zonemode=zbd needs a zoned block device, which raidlab does not "
		                "drive; none and strided are supported");
	if (strcmp(value, "none") && strcmp(value, "strided"))
		return opt_fail(ctx, true, "expected none or strided, got '%s'", value);
	job->zone_strided = !strcmp(value, "strided");
	return 0;
}

/* pre_read=1: fio reads the files into the cache first and so keeps them there (invalidate=0). */
int opt_set_pre_read(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	bool b = false;
	(void)def;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	if (b)
		job->invalidate = false;
	return 0;
}

/* scramble_buffers=: kept with whether it was given (zero_buffers turns the default off). */
int opt_set_scramble(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	(void)def;
	int ret = opt_parse_bool(value, &job->scramble_buffers, ctx);
	if (!ret)
		job->scramble_given = true;
	return ret;
}

/* cpumode=noop|qsort: how ioengine=cpuio burns its chunks. */
int opt_set_cpumode(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "noop", "qsort", &job->cpu_qsort);
}

/*
 * sqthread_poll: as fio, no submission latency is measured: a submission
 * only fills the ring, and the kernel thread's pick-up is not seen.
 */
int opt_set_sqpoll(struct wl_job *job, const struct opt_def *def, const char *value,
                   const struct opt_ctx *ctx)
{
	bool b = false;
	(void)def;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	job->sqthread_poll = b;
	if (b)
		job->disable_slat = true;
	return 0;
}

/* sqthread_poll_cpu=N: a CPU number this machine may have. */
int opt_set_sqpoll_cpu(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	uint64_t v;
	int ret = opt_parse_uint(def, value, 0, 4095, &v, ctx);
	if (ret)
		return ret;
	job->sqthread_poll_cpu = (int32_t)v;
	return 0;
}

/* nonvectored=N: as fio, -1 is its default (the kernel's read/write opcodes), 0 vectored. */
int opt_set_nonvectored(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	uint64_t v;

	if (value && !strcmp(value, "-1")) {
		job->nonvectored = -1;
		return 0;
	}
	int ret = opt_parse_uint(def, value, 0, 1u << 30, &v, ctx);
	if (ret)
		return ret;
	job->nonvectored = v ? 1 : 0;
	return 0;
}

/*
 * The io_uring engine's own options belong to it: given to a job of another
 * engine they are an error (fio does not know them there either).
 */
int opt_check_uring_opts(const struct wl_job *job, const struct opt_ctx *ctx)
{
	const char *name = job->hipri                    ? "hipri"
	                   : job->sqthread_poll          ? "sqthread_poll"
	                   : job->sqthread_poll_cpu >= 0 ? "sqthread_poll_cpu"
	                   : job->fixedbufs              ? "fixedbufs"
	                   : job->registerfiles          ? "registerfiles"
	                   : job->nonvectored >= 0       ? "nonvectored"
	                   : job->uncached               ? "uncached"
	                   : job->force_async            ? "force_async"
	                                                 : NULL;

	if (name && job->engine != WL_ENGINE_IO_URING)
		return opt_fail(
		    ctx, false,
		    "%s is an option of the io_uring engine (as in fio), and this job's "
		    "ioengine is %s",
		    name, job->engine_name);
	if (job->nowait && job->engine != WL_ENGINE_IO_URING && job->engine != WL_ENGINE_LIBAIO)
		return opt_fail(
		    ctx, false,
		    "nowait is an option of the io_uring and libaio engines (as in fio), "
		    "and this job's ioengine is %s",
		    job->engine_name);
	if (job->userspace_reap && job->engine != WL_ENGINE_LIBAIO)
		return opt_fail(ctx, false,
		                "userspace_reap is an option of the libaio engine (as in fio), and "
		                "this job's ioengine is %s",
		                job->engine_name);
	if (job->sqthread_poll_cpu >= 0 && !job->sqthread_poll)
		return opt_fail(ctx, false, "sqthread_poll_cpu needs sqthread_poll");
	return 0;
}
