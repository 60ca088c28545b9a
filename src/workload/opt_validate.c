/*
 * opt_validate.c - wl_job_validate: the rules that involve more than one
 * job option, checked once every option is set.
 *
 * Design: a [global] section may set time_based and a job runtime, so such
 * rules cannot be checked by the setters; they run here, by concern (single
 * values again for jobs built by hand, sizes, the region, the pattern,
 * verify, sequential runs, buffer contents, timing, priorities, limits), in
 * a fixed order so the first broken rule is the one reported.
 */
#include "workload/buf.h"
#include "workload/opt_priv.h"
#include "workload/vcsum.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const char *opt_dist_name(enum wl_dist dist)
{
	switch (dist) {
	case WL_DIST_RANDOM:
		return "random";
	case WL_DIST_ZIPF:
		return "zipf";
	case WL_DIST_PARETO:
		return "pareto";
	case WL_DIST_ZONED:
		return "zoned";
	case WL_DIST_ZONED_ABS:
		return "zoned_abs";
	}
	return "invalid";
}

/* The largest block size of the job (bs, or the largest bssplit entry). */
static uint32_t opt_max_bs(const struct wl_job *job)
{
	uint32_t minbs, maxbs;
	wl_job_bs_bounds(job, &minbs, &maxbs);
	return maxbs;
}

/* One direction's bssplit (@what names it): sizes, percentages, their sum. */
static int opt_check_split(const struct wl_bssplit *split, unsigned n, const char *what,
                           const struct opt_ctx *ctx)
{
	unsigned sum = 0;
	if (n > WL_BSSPLIT_MAX)
		return opt_fail(ctx, false, "%s has %u entries, at most %d are allowed", what, n,
		                WL_BSSPLIT_MAX);
	for (unsigned i = 0; i < n; i++) {
		if (!opt_bs_ok(split[i].bs))
			return opt_fail(ctx, false, "%s entry %u: block size %u is not %s", what,
			                i + 1, split[i].bs, OPT_BS_FORM);
		if (split[i].pct > 100)
			return opt_fail(ctx, false, "%s entry %u: percentage %u is above 100", what,
			                i + 1, split[i].pct);
		sum += split[i].pct;
	}
	if (n && sum != 100)
		return opt_fail(ctx, false, "%s percentages add up to %u, expected 100", what, sum);
	return 0;
}

/* Does the job's verify check blocks it writes (not only blocks it reads)? */
static bool opt_verify_writes(const struct wl_job *job)
{
	/* verify=meta on a reading job checks what it reads; otherwise the job writes */
	bool vreads = wl_verify_self_checked(job->verify) &&
	              (job->rw == WL_RW_READ || job->rw == WL_RW_RANDREAD);
	return job->verify != WL_VERIFY_NONE && !vreads;
}

static const char *opt_verify_name(const struct wl_job *job)
{
	return job->verify == WL_VERIFY_META      ? wl_vcsum_option(job->verify_csum)
	       : job->verify == WL_VERIFY_PATTERN ? "verify=pattern"
	                                          : "verify=crc32c";
}

/* Single options, for jobs not filled in through wl_job_set. */
static int opt_check_values(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (!memchr(job->name, '\0', sizeof(job->name)) || !job->name[0])
		return opt_fail(ctx, false, "the job has no valid name (1 to %d characters)",
		                WL_NAME_MAX - 1);
	if ((unsigned)job->rw > WL_RW_RANDTRIM)
		return opt_fail(ctx, false, "invalid rw value %d", (int)job->rw);
	if ((unsigned)job->dist > WL_DIST_ZONED_ABS)
		return opt_fail(ctx, false, "invalid random_distribution value %d", (int)job->dist);
	if ((unsigned)job->engine >= WL_ENGINE_COUNT)
		return opt_fail(ctx, false, "invalid ioengine value %d", (int)job->engine);
	if ((unsigned)job->verify > WL_VERIFY_PATTERN)
		return opt_fail(ctx, false, "invalid verify value %d", (int)job->verify);
	return 0;
}

/* Block sizes, depths, counts and shares. */
static int opt_check_sizes(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->nbssplit == 0 && !opt_job_bs_ok(job, job->bs))
		return opt_fail(ctx, false, "bs=%u is not %s", job->bs, OPT_BS_FORM);
	static const char *const what[3] = {"bssplit", "bssplit (writes)", "bssplit (trims)"};
	for (int d = 0; d < 3; d++) {
		unsigned n;
		const struct wl_bssplit *split = wl_job_bssplit(job, d, &n);
		int ret = opt_check_split(split, n, what[d], ctx);
		if (ret)
			return ret;
	}
	if (job->iodepth < 1 || job->iodepth > 65536)
		return opt_fail(ctx, false, "iodepth=%u is not from 1 to 65536", job->iodepth);
	if (job->numjobs < 1 || job->numjobs > 1024)
		return opt_fail(ctx, false, "numjobs=%u is not from 1 to 1024", job->numjobs);
	if (job->loops < 1 || job->loops > OPT_LOOPS_MAX)
		return opt_fail(ctx, false, "loops=%u is not from 1 to %u", job->loops,
		                OPT_LOOPS_MAX);
	if (job->rwmixread > 100)
		return opt_fail(ctx, false, "rwmixread=%u is above 100", job->rwmixread);
	if (job->buffer_compress_percentage > 100)
		return opt_fail(ctx, false, "buffer_compress_percentage=%u is above 100",
		                job->buffer_compress_percentage);
	if (job->log_avg_ns < OPT_NS_PER_MS || job->log_avg_ns > OPT_LOG_AVG_MAX * OPT_NS_PER_MS)
		return opt_fail(ctx, false, "log_avg_msec must be from 1 to %llu milliseconds",
		                OPT_LOG_AVG_MAX);
	if (job->dist == WL_DIST_ZIPF &&
	    (!(job->dist_param > 0) || job->dist_param == 1.0 || !isfinite(job->dist_param)))
		return opt_fail(ctx, false, "zipf theta %g must be above 0 and other than 1",
		                job->dist_param);
	if (job->dist == WL_DIST_PARETO && !(job->dist_param > 0 && job->dist_param < 1))
		return opt_fail(ctx, false, "pareto h %g must be between 0 and 1, both excluded",
		                job->dist_param);
	return 0;
}

/*
 * The region: offset, size and the clones' offset_increment.  Any byte
 * here: the target says what it takes when the job meets it (wl_run_check),
 * as for block sizes.
 */
static int opt_check_region(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->size > UINT64_MAX - job->offset)
		return opt_fail(ctx, false, "offset + size is beyond 2^64 bytes");
	if (job->offset_increment &&
	    (job->numjobs - 1) > (UINT64_MAX - job->offset - job->size) / job->offset_increment)
		return opt_fail(ctx, false,
		                "offset + (numjobs - 1) x offset_increment + size is beyond 2^64 "
		                "bytes");
	uint32_t maxbs = opt_max_bs(job);
	if (job->size && job->size < maxbs)
		return opt_fail(
		    ctx, false,
		    "size=%llu bytes is smaller than the largest block size (%u bytes); "
		    "give at least one block, or 0 for the rest of the target",
		    (unsigned long long)job->size, maxbs);
	return 0;
}

/* Rules across options: runtime and the random distribution. */
static int opt_check_pattern(const struct wl_job *job, const struct opt_ctx *ctx)
{
	return 0;
}

/* verify_offset: the header swaps with bytes of the interval that it does not overlap. */
static int opt_check_voffset(const struct wl_job *job, const struct opt_ctx *ctx)
{
	uint32_t minbs, maxbs;
	uint64_t hs = wl_meta_head(job), in;

	if (!job->verify_offset || job->verify == WL_VERIFY_PATTERN)
		return 0; /* verify=pattern has no header to move */
	if (job->verify != WL_VERIFY_META)
		return opt_fail(ctx, false, "verify_offset applies to verify=meta and its digests");
	wl_job_bs_bounds(job, &minbs, &maxbs);
	in = job->verify_interval ? job->verify_interval : minbs;
	if (job->verify_offset < hs || job->verify_offset + hs > in)
		return opt_fail(ctx, false,
		                "verify_offset=%llu: the %llu-byte header of %s must fit in each "
		                "%llu-byte interval at that offset, apart from its start",
		                (unsigned long long)job->verify_offset, (unsigned long long)hs,
		                opt_verify_name(job), (unsigned long long)in);
	return 0;
}

/* verify: the patterns, regions and block sizes it can check. */
static int opt_check_verify(const struct wl_job *job, const struct opt_ctx *ctx)
{
	const char *vname = opt_verify_name(job);
	bool vwrites = opt_verify_writes(job);
	if (job->verify_only && job->verify == WL_VERIFY_NONE)
		return opt_fail(ctx, false, "verify_only needs verify");
	if (job->read_iolog[0] && job->verify)
		return opt_fail(
		    ctx, false,
		    "read_iolog replays a trace, which verify cannot check: use verify=0");
	/* verify_backlog checks as it goes, so a self-checked job's run may end at any time */
	bool as_it_goes = job->verify_backlog && wl_verify_self_checked(job->verify);
	if (vwrites && job->do_verify && (wl_job_time_based(job) || job->ramp_ns) && !as_it_goes)
		return opt_fail(
		    ctx, false,
		    "%s checks what one run of the region wrote; it cannot be combined "
		    "with time_based or ramp_time (unless do_verify=0, or verify_backlog "
		    "with verify=meta or a digest)",
		    vname);
	if (vwrites) {
		switch (job->rw) {
		case WL_RW_WRITE:
		case WL_RW_RANDWRITE:
			break;
		case WL_RW_RW:
		case WL_RW_RANDRW:
			if (job->rwmixread == 100)
				return opt_fail(
				    ctx, false,
				    "%s needs writes, but rwmixread=100 makes rw=%s read only",
				    vname, wl_rw_name(job->rw));
			break;
		default:
			return opt_fail(
			    ctx, false,
			    "%s needs a pattern that %s (write, randwrite, rw or randrw%s), "
			    "got rw=%s",
			    vname,
			    wl_verify_self_checked(job->verify) ? "writes or reads" : "writes",
			    wl_verify_self_checked(job->verify) ? ", read, randread" : "",
			    wl_rw_name(job->rw));
		}
		if (job->numjobs > 1 && job->offset_increment &&
		    (!job->size || job->offset_increment < job->size))
			return opt_fail(
			    ctx, false,
			    "%s with numjobs and offset_increment needs offset_increment >= "
			    "size, so the copies' regions do not overlap",
			    vname);
		if (job->nbssplit > 1 && (job->norandommap || job->dist != WL_DIST_RANDOM))
			return opt_fail(
			    ctx, false,
			    "%s cannot be combined with bssplit and norandommap (or "
			    "zipf/pareto): overlapping writes of different sizes cannot be "
			    "checked",
			    vname);
	}
	/* verify=pattern checks each block whole, so any interval means the same (fio's test) */
	if (job->verify != WL_VERIFY_META && job->verify != WL_VERIFY_PATTERN &&
	    job->verify_interval)
		return opt_fail(ctx, false,
		                "verify_interval applies to verify=meta, its digests and pattern "
		                "(got %s)",
		                job->verify == WL_VERIFY_NONE ? "verify=none" : vname);
	if (job->verify != WL_VERIFY_NONE && wl_job_sub_sector(job))
		return opt_fail(ctx, false,
		                "%s checks whole 512-byte sectors: its block sizes must be "
		                "multiples of 512 (fio refuses blocks smaller than its header)",
		                vname);
	if (job->verify == WL_VERIFY_PATTERN && !job->verify_pattern_len)
		return opt_fail(ctx, false, "verify=pattern needs verify_pattern");
	if (job->verify != WL_VERIFY_META && job->verify != WL_VERIFY_PATTERN &&
	    job->verify_pattern_len)
		return opt_fail(ctx, false,
		                "verify_pattern applies to verify=meta or verify=pattern (got %s)",
		                job->verify == WL_VERIFY_NONE ? "verify=none" : vname);
	if (job->verify_interval && job->verify == WL_VERIFY_META) {
		if (job->verify_interval % WL_BS_MIN || job->verify_interval > WL_BS_MAX)
			return opt_fail(ctx, false,
			                "verify_interval=%llu is not a multiple of %u up to 64m",
			                (unsigned long long)job->verify_interval, WL_BS_MIN);
		for (unsigned i = 0; i <= job->nbssplit; i++) {
			uint32_t b = i < job->nbssplit ? job->bssplit[i].bs : job->bs;
			if ((i < job->nbssplit || !job->nbssplit) && b % job->verify_interval)
				return opt_fail(
				    ctx, false,
				    "verify_interval=%llu does not divide the block size %u",
				    (unsigned long long)job->verify_interval, b);
		}
	}
	if (job->verify_pattern_len > WL_PATTERN_MAX)
		return opt_fail(ctx, false, "verify_pattern has more than %d bytes",
		                WL_PATTERN_MAX);
	return opt_check_voffset(job, ctx);
}

/* Zones, rw's :N and :SIZE suffixes, blockalign. */
static int opt_check_sequence(const struct wl_job *job, const struct opt_ctx *ctx)
{
	const char *vname = opt_verify_name(job);
	bool vwrites = opt_verify_writes(job);
	if ((job->dist == WL_DIST_ZONED || job->dist == WL_DIST_ZONED_ABS) &&
	    (job->nzones < 1 || job->nzones > WL_ZONES_MAX))
		return opt_fail(ctx, false, "random_distribution=%s has %u zones, expected 1 to %d",
		                opt_dist_name(job->dist), job->nzones, WL_ZONES_MAX);
	if (job->rw_nr < 1)
		return opt_fail(ctx, false, "rw=%s:N needs N >= 1", wl_rw_name(job->rw));
	if (job->rw_skip && wl_rw_is_random(job->rw))
		return opt_fail(ctx, false, "rw=%s: a skip applies to sequential patterns only",
		                wl_rw_name(job->rw));
	if (vwrites && job->rw_nr > 1)
		return opt_fail(
		    ctx, false,
		    "%s cannot be combined with rw=%s:%u: runs of sequential I/O overlap "
		    "the random map's blocks",
		    vname, wl_rw_name(job->rw), job->rw_nr);
	if (job->blockalign && job->blockalign % WL_BS_MIN)
		return opt_fail(ctx, false, "blockalign=%llu is not a multiple of %u",
		                (unsigned long long)job->blockalign, WL_BS_MIN);
	return 0;
}

/* Buffer contents: zeros, refills, compression and dedupe. */
static int opt_check_buffers(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->zero_buffers && job->refill_buffers)
		return opt_fail(ctx, false, "zero_buffers and refill_buffers exclude each other");
	if (job->zero_buffers && job->buffer_compress_percentage)
		return opt_fail(ctx, false,
		                "zero_buffers and buffer_compress_percentage exclude each other");
	if (job->verify != WL_VERIFY_NONE && job->dedupe_pct)
		return opt_fail(ctx, false,
		                "verify and dedupe_percentage exclude each other (verify blocks "
		                "are unique by design)");
	if (job->zero_buffers && job->dedupe_pct)
		return opt_fail(ctx, false,
		                "zero_buffers and dedupe_percentage exclude each other (zeros are "
		                "all duplicates)");
	if (job->dedupe_pct > 100 || job->dedupe_ws_pct > 100)
		return opt_fail(ctx, false, "dedupe percentages must be from 0 to 100");
	return 0;
}

/* flow, latency_target and steady state. */
static int opt_check_timing(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->flow > 1000)
		return opt_fail(ctx, false, "flow=%u is not from 0 to 1000", job->flow);
	if (job->lat_target_ns && !(job->lat_pct > 0 && job->lat_pct <= 100))
		return opt_fail(ctx, false, "latency_percentile=%g is not above 0 and at most 100",
		                job->lat_pct);
	if (job->lat_target_ns && job->engine == WL_ENGINE_PSYNC)
		return opt_fail(
		    ctx, false,
		    "latency_target searches the queue depth, but ioengine=%s keeps one "
		    "I/O in flight; use io_uring or libaio",
		    job->engine_name);
	if (job->ss_dur_ns) {
		if ((unsigned)job->ss_kind > WL_SS_LAT || job->ss_kind == WL_SS_NONE ||
		    !(job->ss_limit >= 0) || !isfinite(job->ss_limit))
			return opt_fail(ctx, false, "ss: invalid criterion");
		if (!job->ss_interval_ns || job->ss_dur_ns < job->ss_interval_ns)
			return opt_fail(
			    ctx, false,
			    "ss_dur (%llu ms) must hold at least one ss_interval (%llu ms)",
			    (unsigned long long)(job->ss_dur_ns / OPT_NS_PER_MS),
			    (unsigned long long)(job->ss_interval_ns / OPT_NS_PER_MS));
		if (job->ss_dur_ns / job->ss_interval_ns > OPT_SS_SAMPLES_MAX)
			return opt_fail(ctx, false,
			                "ss_dur / ss_interval is %llu samples, at most %u are kept",
			                (unsigned long long)(job->ss_dur_ns / job->ss_interval_ns),
			                OPT_SS_SAMPLES_MAX);
	}
	return 0;
}

/* zonemode=strided: a zone to stay in, in whole blocks. */
static int opt_check_zones(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (!job->zone_strided)
		return 0;
	if (!job->zone_size)
		return opt_fail(ctx, false, "zonemode=strided needs zonesize (as in fio)");
	if (job->zone_size % WL_BS_MIN || job->zone_range % WL_BS_MIN || job->zone_skip % WL_BS_MIN)
		return opt_fail(ctx, false,
		                "zonerange, zonesize and zoneskip must be multiples of %u",
		                WL_BS_MIN);
	return 0;
}

/* Priorities (prio, prioclass, cmdprio) and the verify backlog. */
static int opt_check_priority(const struct wl_job *job, const struct opt_ctx *ctx)
{
	bool pct = job->cmdprio_pct[0] || job->cmdprio_pct[1];
	bool split = job->ncmdprio_split[0] || job->ncmdprio_split[1];
	if ((pct || split) && job->engine != WL_ENGINE_IO_URING && job->engine != WL_ENGINE_LIBAIO)
		return opt_fail(ctx, false,
		                "%s needs ioengine=io_uring or libaio (as in fio), got ioengine=%s",
		                pct ? "cmdprio_percentage" : "cmdprio_bssplit", job->engine_name);
	if (pct && split)
		return opt_fail(ctx, false,
		                "cmdprio_percentage and cmdprio_bssplit exclude each other (as in "
		                "fio)");
	for (int d = 0; d < 2; d++)
		if (job->cmdprio_pct[d] > 100 || job->cmdprio_class[d] < 1 ||
		    job->cmdprio_class[d] > 3 || job->cmdprio_level[d] > 7)
			return opt_fail(ctx, false, "cmdprio values out of range");
	if (job->prio_level > 7 || job->prio_class > 3)
		return opt_fail(ctx, false, "prio / prioclass out of range");
	/* a reading job checks every self-checked block it reads: there is no backlog (fio) */
	if (job->verify_backlog && !opt_verify_writes(job) && !wl_verify_self_checked(job->verify))
		return opt_fail(
		    ctx, false,
		    "verify_backlog checks written blocks: it needs verify=crc32c or meta "
		    "on a job that writes");
	return 0;
}

/* Error handling and NUMA values in range. */
static int opt_check_limits(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->coe > (WL_COE_READ | WL_COE_WRITE | WL_COE_VERIFY) ||
	    job->nignore[0] > WL_IGNORE_MAX || job->nignore[1] > WL_IGNORE_MAX ||
	    job->nignore[2] > WL_IGNORE_MAX)
		return opt_fail(ctx, false, "continue_on_error / ignore_error out of range");
	if ((unsigned)job->numa_mpol > WL_MPOL_LOCAL)
		return opt_fail(ctx, false, "invalid numa_mem_policy value %d",
		                (int)job->numa_mpol);
	return 0;
}

/* The options some engines cannot run without (cpuio, exec, nbd). */
static int opt_check_engine(const struct wl_job *job, const struct opt_ctx *ctx)
{
	if (job->engine == WL_ENGINE_CPUIO && (!job->cpuload || job->cpuload > 100))
		return opt_fail(ctx, false,
		                "ioengine=cpuio needs cpuload= (the share of a CPU to burn, 1 to "
		                "100)");
	if (job->engine == WL_ENGINE_CPUIO && !job->cpuchunks_us)
		return opt_fail(ctx, false, "cpuchunks must be at least 1 microsecond");
	if (job->engine == WL_ENGINE_NBD && !job->nbd_uri[0])
		return opt_fail(ctx, false,
		                "ioengine=nbd needs uri= (the NBD server, e.g. nbd://localhost or "
		                "nbd+unix:///?socket=PATH)");
	if (job->engine == WL_ENGINE_EXEC && !job->exec_program[0])
		return opt_fail(ctx, false, "ioengine=exec needs program= (the program to run)");
	if (job->engine == WL_ENGINE_EXEC && !job->runtime_ns)
		return opt_fail(ctx, false,
		                "ioengine=exec runs program= for the job's runtime, which must be "
		                "set (runtime=)");
	return 0;
}

int wl_job_validate(const struct wl_job *job, const char *where, char *msg, size_t msglen)
{
	struct opt_ctx ctx = {.where = where, .msg = msg, .msglen = msglen};
	static int (*const checks[])(const struct wl_job *, const struct opt_ctx *) = {
	    opt_check_values,   opt_check_sizes,      opt_check_region,  opt_check_pattern,
	    opt_check_verify,   opt_check_sequence,   opt_check_buffers, opt_check_timing,
	    opt_check_priority, opt_check_zones,      opt_check_limits,  opt_check_engine,
	    opt_check_net,      opt_check_uring_opts,
	};
	if (msg && msglen)
		msg[0] = '\0';
	if (!job)
		return opt_fail(&ctx, false, "internal error: no job");
	for (size_t i = 0; i < OPT_ARRAY_SIZE(checks); i++) {
		int ret = checks[i](job, &ctx);
		if (ret)
			return ret;
	}
	return 0;
}
