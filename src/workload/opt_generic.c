/*
 * opt_generic.c - the generic option setters: booleans, bounded whole
 * numbers, percentages, sizes and durations stored at the table row's field
 * offset (struct opt_def: off, min, max, align), and the setters of options
 * that are checked but not kept.
 *
 * Design: one setter serves many rows of the table (options.c), so adding
 * a plain option needs a row, not code.
 */
#include "workload/opt_priv.h"

#include "core/spec.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

int opt_set_bool(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	bool b = false;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, bool) = b;
	return 0;
}

int opt_set_u32(struct wl_job *job, const struct opt_def *def, const char *value,
                const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, def->min, def->max, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint32_t) = (uint32_t)v;
	return 0;
}

int opt_set_u64(struct wl_job *job, const struct opt_def *def, const char *value,
                const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, def->min, def->max, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint64_t) = v;
	return 0;
}

int opt_set_percent(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	uint32_t v = 0;
	int ret = opt_parse_percent(def, value, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint32_t) = v;
	return 0;
}

/*
 * fio reads a size's unknown suffix as "bytes" and goes on (fio's own
 * t/strided.py passes "filesize=65536)"): a size followed only by
 * punctuation is taken the same way, with a warning naming what was
 * ignored.  Letters stay an error (a mistyped unit should not pass).
 */
static int opt_size_tail(const char *value, uint64_t *v, const struct opt_ctx *ctx)
{
	char num[64], tmp[128];
	size_t n = strlen(value);

	while (n > 0 && ispunct((unsigned char)value[n - 1]) && value[n - 1] != '%')
		n--;
	if (n == strlen(value) || n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, value, n);
	num[n] = '\0';
	if (rl_parse_size(num, v, tmp, sizeof(tmp)) != 0)
		return -EINVAL;
	fprintf(stderr, "raidlab: %s%soption '%s': ignoring '%s' after the size %s (as fio)\n",
	        ctx->where ? ctx->where : "", ctx->where ? ": " : "", ctx->given ? ctx->given : "?",
	        value + n, num);
	return 0;
}

/* A byte count, a multiple of def->align if that is set. */
int opt_set_size(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strchr(value, '%')) {
		uint32_t pct = 0;
		uint32_t *pfield = def->off == offsetof(struct wl_job, size)     ? &job->size_pct
		                   : def->off == offsetof(struct wl_job, offset) ? &job->offset_pct
		                                                                 : NULL;
		if (!pfield)
			return opt_fail(
			    ctx, true,
			    "a percentage is not allowed here; expected a size in bytes "
			    "such as 10g, got '%s'",
			    value);
		ret = opt_parse_percent(def, value, &pct, ctx);
		if (ret)
			return ret;
		if (pct == 0 || (pfield == &job->offset_pct && pct == 100))
			return opt_fail(ctx, true, "expected a percentage from 1 to %d, got '%s'",
			                pfield == &job->offset_pct ? 99 : 100, value);
		*pfield = pct;
		*OPT_FIELD(job, def, uint64_t) = 0;
		return 0;
	}
	if (rl_parse_size(value, &v, tmp, sizeof(tmp)) != 0 && opt_size_tail(value, &v, ctx) != 0)
		return opt_fail(ctx, true, "expected a size such as 0, 4k, 512m or 10g, got '%s'",
		                value);
	if (def->align && v % def->align)
		return opt_fail(ctx, true,
		                "expected a multiple of %llu bytes, got '%s' (%llu bytes)",
		                (unsigned long long)def->align, value, (unsigned long long)v);
	*OPT_FIELD(job, def, uint64_t) = v;
	if (def->off == offsetof(struct wl_job, size))
		job->size_pct = 0;
	else if (def->off == offsetof(struct wl_job, offset))
		job->offset_pct = 0;
	return 0;
}

int opt_set_time(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (rl_parse_time(value, &v, tmp, sizeof(tmp)) != 0)
		return opt_fail(ctx, true,
		                "expected a duration such as 30, 30s, 500ms or 2m (a plain number "
		                "is seconds), got '%s'",
		                value);
	*OPT_FIELD(job, def, uint64_t) = v;
	return 0;
}

/* gtod_reduce: a fio-internal saving of clock reads; accepted, nothing to reduce. */
int opt_set_bool_accepted(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	bool b = false;
	(void)job;
	(void)def;
	return opt_parse_bool(value, &b, ctx);
}

/* A whole number checked against the bounds and not kept (see the table's help). */
int opt_set_u32_accepted(struct wl_job *job, const struct opt_def *def, const char *value,
                         const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	(void)job;
	return opt_parse_uint(def, value, def->min, def->max, &v, ctx);
}

/* description=TEXT: shown by nothing, kept by nothing; any text is fine (as fio). */
int opt_set_text(struct wl_job *job, const struct opt_def *def, const char *value,
                 const struct opt_ctx *ctx)
{
	(void)job;
	return opt_need_value(def, value, ctx);
}

/*
 * A boolean that only ever turns its field on: fsync_on_close=1 asks for
 * end_fsync, unlink_each_loop=1 for unlink; their =0 leaves what the other
 * option said.
 */
int opt_set_bool_on(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	bool b = false;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	if (b)
		*OPT_FIELD(job, def, bool) = true;
	return 0;
}
