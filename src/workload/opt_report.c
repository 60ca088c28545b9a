/*
 * opt_report.c - the option setters of logs, output and error handling:
 * log_avg_msec, write_*_log, percentile_list, continue_on_error and
 * ignore_error (errnos by name or number).
 *
 * Design: what these options change is what is recorded and reported, not
 * the I/O itself; the log names and lists are stored in the job as given.
 */
#include "workload/opt_priv.h"

#include "core/spec.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

int opt_set_log_avg(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (rl_parse_u64(value, &v, tmp, sizeof(tmp)) != 0 || v > OPT_LOG_AVG_MAX)
		return opt_fail(ctx, true,
		                "expected a whole number of milliseconds from 0 to %llu, got '%s'",
		                OPT_LOG_AVG_MAX, value);
	/* 0: fio's logs per I/O; raidlab's own time series keeps its interval */
	job->log_per_io = v == 0;
	job->log_avg_ns = (v ? v : OPT_LOG_AVG_SERIES) * OPT_NS_PER_MS;
	return 0;
}

/* write_bw_log[=NAME] and the like: on, with an optional file prefix. */
int opt_set_log(struct wl_job *job, const struct opt_def *def, const char *value,
                const struct opt_ctx *ctx)
{
	char *name = OPT_FIELD(job, def, char);
	bool *on = def->off == offsetof(struct wl_job, bw_log_name)     ? &job->bw_log
	           : def->off == offsetof(struct wl_job, lat_log_name)  ? &job->lat_log
	           : def->off == offsetof(struct wl_job, hist_log_name) ? &job->hist_log
	                                                                : &job->iops_log;
	size_t len = value ? strlen(value) : 0;
	if (len >= WL_LOGNAME_MAX || (value && strpbrk(value, "\n\r\t")))
		return opt_fail(ctx, true, "expected a file prefix of at most %d characters",
		                WL_LOGNAME_MAX - 1);
	*on = true;
	memcpy(name, value ? value : "", len + 1);
	return 0;
}

/* percentile_list=99:99.9:... (fio's ':' list), each in (0, 100]. */
int opt_set_pct_list(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	double v[WL_PCT_MAX];
	unsigned n = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	for (const char *p = value;;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[32];
		if (n == WL_PCT_MAX || len == 0 || len >= sizeof(e))
			goto bad;
		memcpy(e, p, len);
		e[len] = '\0';
		if (!opt_parse_double(e, &v[n]) || !(v[n] > 0 && v[n] <= 100))
			goto bad;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	memcpy(job->pct_list, v, n * sizeof(v[0]));
	job->npct = n;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected up to %d percentiles above 0 and at most 100 separated by ':' "
	                "(99:99.9), got '%s'",
	                WL_PCT_MAX, value);
}

/* continue_on_error=none|read|write|io|verify|all|0|1 */
int opt_set_coe(struct wl_job *job, const struct opt_def *def, const char *value,
                const struct opt_ctx *ctx)
{
	static const struct opt_choice kinds[] = {
	    {"none", 0},
	    {"0", 0},
	    {"read", WL_COE_READ},
	    {"write", WL_COE_WRITE},
	    {"io", WL_COE_READ | WL_COE_WRITE},
	    {"verify", WL_COE_VERIFY},
	    {"all", WL_COE_READ | WL_COE_WRITE | WL_COE_VERIFY},
	    {"1", WL_COE_READ | WL_COE_WRITE | WL_COE_VERIFY},
	    {NULL, 0},
	};
	char list[128];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(kinds, value);
	if (!c)
		return opt_fail(ctx, true, "expected one of %s, got '%s'",
		                opt_choice_list(kinds, list, sizeof(list)), value);
	job->coe = (uint32_t)c->value;
	return 0;
}

/* An errno by name (ENOSPC) or number (28). */
static int opt_errno(const char *s)
{
	static const struct {
		const char *name;
		int err;
	} names[] = {
	    {"EPERM", EPERM},           {"ENOENT", ENOENT},
	    {"EINTR", EINTR},           {"EIO", EIO},
	    {"ENXIO", ENXIO},           {"EBADF", EBADF},
	    {"EAGAIN", EAGAIN},         {"ENOMEM", ENOMEM},
	    {"EACCES", EACCES},         {"EBUSY", EBUSY},
	    {"EEXIST", EEXIST},         {"ENODEV", ENODEV},
	    {"EINVAL", EINVAL},         {"ENOTTY", ENOTTY},
	    {"EFBIG", EFBIG},           {"ENOSPC", ENOSPC},
	    {"EROFS", EROFS},           {"EILSEQ", EILSEQ},
	    {"EOPNOTSUPP", EOPNOTSUPP}, {"ETIMEDOUT", ETIMEDOUT},
	    {"EDQUOT", EDQUOT},         {"ENODATA", ENODATA},
	    {"EBADMSG", EBADMSG},       {"ECANCELED", ECANCELED},
	};
	char tmp[64];
	uint64_t v = 0;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name))
			return names[i].err;
	if (s[0] && rl_parse_u64(s, &v, tmp, sizeof(tmp)) == 0 && v >= 1 && v <= 4095)
		return (int)v;
	return -1;
}

/* ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each errnos separated by ':'. */
int opt_set_ignore_error(struct wl_job *job, const struct opt_def *def, const char *value,
                         const struct opt_ctx *ctx)
{
	int32_t errs[3][WL_IGNORE_MAX];
	uint32_t n[3] = {0, 0, 0};
	int type = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	for (const char *p = value;;) {
		size_t len = strcspn(p, ":,");
		char e[32];
		if (len) {
			if (len >= sizeof(e) || n[type] == WL_IGNORE_MAX)
				goto bad;
			memcpy(e, p, len);
			e[len] = '\0';
			int err = opt_errno(e);
			if (err < 0)
				return opt_fail(
				    ctx, true,
				    "'%s' is not an errno name (EIO, ENOSPC, ...) or number "
				    "from 1 to 4095, in '%s'",
				    e, value);
			errs[type][n[type]++] = err;
		}
		p += len;
		if (!*p)
			break;
		if (*p == ',' && ++type == 3)
			goto bad;
		p++;
	}
	memcpy(job->ignore_err, errs, sizeof(errs));
	memcpy(job->nignore, n, sizeof(n));
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected READ[,WRITE[,VERIFY]] lists of up to %d errnos separated by ':' "
	                "(EAGAIN,ENOSPC:122), got '%s'",
	                WL_IGNORE_MAX, value);
}

/* unified_rw_reporting=none|mixed|both, or fio's 0|1|2. */
int opt_set_unified_rw(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	static const struct opt_choice modes[] = {{"none", 0}, {"0", 0}, {"mixed", 1}, {"1", 1},
	                                          {"both", 2}, {"2", 2}, {NULL, 0}};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(modes, value);
	if (!c)
		return opt_fail(ctx, true, "expected none, mixed or both (or 0, 1, 2), got '%s'",
		                value);
	job->unified_rw = (uint32_t)c->value;
	return 0;
}

/* kb_base=1000|1024: which unit fio's normal output leads with. */
int opt_set_kb_base(struct wl_job *job, const struct opt_def *def, const char *value,
                    const struct opt_ctx *ctx)
{
	static const struct opt_choice bases[] = {{"1024", 1024}, {"1000", 1000}, {NULL, 0}};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(bases, value);
	if (!c)
		return opt_fail(ctx, true, "expected 1024 or 1000, got '%s'", value);
	job->kb_base = (uint32_t)c->value;
	return 0;
}
