/*
 * options.c - the job option table: parsing, defaults, validation and help.
 *
 * Design: one static table (opt_table) describes every option once: its
 * public description (struct wl_option_info: name, alias, type, default
 * text, help) plus how to set it (a setter and, for the generic setters, the
 * field offset and bounds).  Everything else is derived from that table:
 *   - wl_job_set looks the name (or alias) up and calls the setter;
 *   - wl_job_init applies every default text through the same setters, so
 *     the defaults cannot drift from what help and docs say;
 *   - wl_options() hands out the descriptions for `raidlab help options`
 *     and docs/options.md (copied once into a plain array);
 *   - an unknown name gets a "did you mean" from the table by edit distance.
 *
 * Setters check the whole value before touching the job, so a failed
 * wl_job_set leaves the job unchanged.  Every message names the option as
 * the user spelled it, the expected form and the value given.  Numbers with
 * units go through rl_parse_size / rl_parse_time / rl_parse_u64 /
 * rl_parse_bool (core/units.c) so units mean the same as in target specs;
 * their own messages are not repeated, ours say what this option expects.
 *
 * Rules that involve more than one option live in wl_job_validate, which
 * runs after all options are set (a [global] may set time_based and a job
 * runtime).  It re-checks every range as well, for jobs built by hand.
 */
#include "workload/job.h"

#include "core/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OPT_ARRAY_SIZE(a)  (sizeof(a) / sizeof((a)[0]))
#define OPT_NS_PER_MS      1000000ull
#define OPT_LOG_AVG_MAX    3600000ull /* log_avg_msec: at most one hour */
#define OPT_LOOPS_MAX      1000000u
#define OPT_DEF_ZIPF       1.1
#define OPT_DEF_PARETO     0.2
#define OPT_SS_SAMPLES_MAX 100000u /* ss_dur / ss_interval */

/* --- messages --- */

/* Where a message goes and what it names. */
struct opt_ctx {
	const char *where; /* "jobs.fio:12", "command line" or NULL */
	const char *given; /* the option name as the user wrote it (alias or not) */
	char *msg;
	size_t msglen;
};

/* Append to @msg at *@pos, never past @msglen. */
__attribute__((format(printf, 4, 0))) static void opt_vappend(char *msg, size_t msglen, size_t *pos,
                                                              const char *fmt, va_list ap)
{
	if (!msg || *pos + 1 >= msglen)
		return;
	int n = vsnprintf(msg + *pos, msglen - *pos, fmt, ap);
	if (n > 0)
		*pos = *pos + (size_t)n < msglen ? *pos + (size_t)n : msglen - 1;
}

__attribute__((format(printf, 4, 5))) static void opt_append(char *msg, size_t msglen, size_t *pos,
                                                             const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	opt_vappend(msg, msglen, pos, fmt, ap);
	va_end(ap);
}

/*
 * Fail with "WHERE: option 'NAME': ..." (@named) or "WHERE: ..." and return
 * -EINVAL.
 */
__attribute__((format(printf, 3, 4))) static int opt_fail(const struct opt_ctx *ctx, bool named,
                                                          const char *fmt, ...)
{
	size_t pos = 0;
	if (!ctx->msg || !ctx->msglen)
		return -EINVAL;
	ctx->msg[0] = '\0';
	if (ctx->where && ctx->where[0])
		opt_append(ctx->msg, ctx->msglen, &pos, "%s: ", ctx->where);
	if (named && ctx->given)
		opt_append(ctx->msg, ctx->msglen, &pos, "option '%s': ", ctx->given);
	va_list ap;
	va_start(ap, fmt);
	opt_vappend(ctx->msg, ctx->msglen, &pos, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* --- suggestions --- */

/*
 * Edit distance (Levenshtein with adjacent transpositions), ignoring case.
 * Names are short; longer strings are not compared (SIZE_MAX).
 */
static size_t opt_distance(const char *a, const char *b)
{
	enum { N = 48 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= N || lb >= N)
		return SIZE_MAX;
	unsigned char d[N + 1][N + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned char)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned char)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1u < best)
				best = d[i - 1][j] + 1u;
			if (d[i][j - 1] + 1u < best)
				best = d[i][j - 1] + 1u;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1u < best)
				best = d[i - 2][j - 2] + 1u;
			d[i][j] = (unsigned char)best;
		}
	}
	return d[la][lb];
}

/*
 * Is @cand close enough to @typed to suggest?  Short names allow one edit,
 * medium two, long three; a typed prefix of 4+ characters also counts.
 */
static bool opt_close(const char *typed, const char *cand, size_t *score)
{
	size_t len = strlen(typed);
	size_t limit = len <= 4 ? 1 : len <= 10 ? 2 : 3;
	size_t d = opt_distance(typed, cand);
	if (len >= 4 && strncasecmp(typed, cand, len) == 0 && d > 0)
		d = d < limit ? d : limit; /* a prefix is as good as the worst allowed edit */
	*score = d;
	return d <= limit && d < len;
}

/* The closest of @names (NULL-terminated list of pointers) or NULL. */
static const char *opt_suggest_from(const char *typed, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_score = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t score;
		if (names[i] && opt_close(typed, names[i], &score) && score < best_score) {
			best = names[i];
			best_score = score;
		}
	}
	return best;
}

/* --- enumerated values --- */

struct opt_choice {
	const char *text;
	int value;
};

static const struct opt_choice opt_rw_choices[] = {
    {"read", WL_RW_READ},
    {"write", WL_RW_WRITE},
    {"randread", WL_RW_RANDREAD},
    {"randwrite", WL_RW_RANDWRITE},
    {"rw", WL_RW_RW},
    {"readwrite", WL_RW_RW},
    {"randrw", WL_RW_RANDRW},
    {"trim", WL_RW_TRIM},
    {"randtrim", WL_RW_RANDTRIM},
    {NULL, 0},
};

static const struct opt_choice opt_engine_choices[] = {
    {"io_uring", WL_ENGINE_IO_URING}, {"libaio", WL_ENGINE_LIBAIO},
    {"psync", WL_ENGINE_PSYNC},       {"sync", WL_ENGINE_PSYNC},
    {"pvsync", WL_ENGINE_PSYNC},      {"pvsync2", WL_ENGINE_PSYNC},
    {"null", WL_ENGINE_NULL},         {NULL, 0},
};

static const struct opt_choice opt_verify_choices[] = {
    {"crc32c", WL_VERIFY_CRC32C}, {"meta", WL_VERIFY_META}, {"crc32c-intel", WL_VERIFY_CRC32C},
    {"none", WL_VERIFY_NONE},     {"0", WL_VERIFY_NONE},    {NULL, 0},
};

static const struct opt_choice *opt_find_choice(const struct opt_choice *choices, const char *text)
{
	for (const struct opt_choice *c = choices; c->text; c++)
		if (strcmp(c->text, text) == 0)
			return c;
	return NULL;
}

/* "a, b, c" into @buf. */
static const char *opt_choice_list(const struct opt_choice *choices, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = '\0';
	for (const struct opt_choice *c = choices; c->text; c++)
		opt_append(buf, len, &pos, "%s%s", c == choices ? "" : ", ", c->text);
	return buf;
}

/* " (did you mean 'x'?)" or "" into @buf. */
static const char *opt_choice_hint(const struct opt_choice *choices, const char *text, char *buf,
                                   size_t len)
{
	const char *names[32];
	size_t n = 0;
	for (const struct opt_choice *c = choices; c->text && n < OPT_ARRAY_SIZE(names); c++)
		names[n++] = c->text;
	const char *s = opt_suggest_from(text, names, n);
	if (s)
		snprintf(buf, len, " (did you mean '%s'?)", s);
	else
		buf[0] = '\0';
	return buf;
}

/* --- the table's types --- */

struct opt_def;
typedef int (*opt_setter)(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* --- value parsers shared by the setters --- */

static int opt_need_value(const struct opt_def *def, const char *value, const struct opt_ctx *ctx)
{
	if (value)
		return 0;
	return opt_fail(ctx, true, "needs a value (%s=<%s>)", ctx->given, def->info.type);
}

static int opt_parse_bool(const char *value, bool *out, const struct opt_ctx *ctx)
{
	char tmp[128];
	if (!value) {
		*out = true; /* the bare key */
		return 0;
	}
	if (rl_parse_bool(value, out, tmp, sizeof(tmp)) == 0)
		return 0;
	return opt_fail(ctx, true,
	                "expected a boolean (1/0, true/false, on/off, yes/no, or the bare name), "
	                "got '%s'",
	                value);
}

/* Whole number in [min, max]. */
static int opt_parse_uint(const struct opt_def *def, const char *value, uint64_t min, uint64_t max,
                          uint64_t *out, const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (rl_parse_u64(value, &v, tmp, sizeof(tmp)) != 0 || v < min || v > max)
		return opt_fail(ctx, true, "expected a whole number from %llu to %llu, got '%s'",
		                (unsigned long long)min, (unsigned long long)max, value);
	*out = v;
	return 0;
}

/* "70" or "70%", 0..100. */
static int opt_parse_percent(const struct opt_def *def, const char *value, uint32_t *out,
                             const struct opt_ctx *ctx)
{
	char tmp[128], num[32];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	size_t len = strlen(value);
	if (len > 0 && value[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof(num))
		goto bad;
	memcpy(num, value, len);
	num[len] = '\0';
	if (rl_parse_u64(num, &v, tmp, sizeof(tmp)) != 0 || v > 100)
		goto bad;
	*out = (uint32_t)v;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected a percentage from 0 to 100 (e.g. 70 or 70%%), got '%s'", value);
}

/* A block size in bytes: multiple of WL_BS_MIN within [WL_BS_MIN, WL_BS_MAX]. */
static bool opt_bs_ok(uint64_t bs)
{
	return bs >= WL_BS_MIN && bs <= WL_BS_MAX && bs % WL_BS_MIN == 0;
}

#define OPT_BS_FORM "a block size that is a multiple of 512 from 512 to 64m (e.g. 4k)"

/* A decimal number without sign, hex or inf/nan ("1.2", "0.5", "2e-1"). */
static bool opt_parse_double(const char *s, double *out)
{
	if (!s || !(isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1]))))
		return false;
	if (strspn(s, "0123456789.eE+-") != strlen(s))
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* --- generic setters (use def->off, min, max) --- */

static int opt_set_bool(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	bool b = false;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, bool) = b;
	return 0;
}

static int opt_set_u32(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, def->min, def->max, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint32_t) = (uint32_t)v;
	return 0;
}

static int opt_set_u64(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, def->min, def->max, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint64_t) = v;
	return 0;
}

static int opt_set_percent(struct wl_job *job, const struct opt_def *def, const char *value,
                           const struct opt_ctx *ctx)
{
	uint32_t v = 0;
	int ret = opt_parse_percent(def, value, &v, ctx);
	if (ret)
		return ret;
	*OPT_FIELD(job, def, uint32_t) = v;
	return 0;
}

/* A byte count, a multiple of def->align if that is set. */
static int opt_set_size(struct wl_job *job, const struct opt_def *def, const char *value,
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
	if (rl_parse_size(value, &v, tmp, sizeof(tmp)) != 0)
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

static int opt_set_time(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* --- option-specific setters --- */

static int opt_set_name(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	size_t len = strlen(value);
	bool ok = len > 0 && len < WL_NAME_MAX;
	for (size_t i = 0; ok && i < len; i++)
		if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
			ok = false;
	if (!ok)
		return opt_fail(ctx, true,
		                "expected a name of 1 to %d characters without control characters, "
		                "got '%s'",
		                WL_NAME_MAX - 1, value);
	memcpy(job->name, value, len + 1);
	return 0;
}

static int opt_set_rw(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	char list[256], hint[80];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(def->choices, value);
	if (c) {
		job->rw = (enum wl_rw)c->value;
		job->rw_skip = 0;
		job->rw_nr = 1;
		return 0;
	}
	const char *colon = strchr(value, ':');
	if (colon) {
		char base[32], tmp[128];
		size_t n = (size_t)(colon - value);
		const struct opt_choice *b = NULL;
		if (n < sizeof(base)) {
			memcpy(base, value, n);
			base[n] = '\0';
			b = opt_find_choice(def->choices, base);
		}
		if (b && wl_rw_is_random((enum wl_rw)b->value)) {
			uint64_t nr = 0;
			if (rl_parse_u64(colon + 1, &nr, tmp, sizeof(tmp)) || nr < 1 ||
			    nr > 1u << 30)
				return opt_fail(
				    ctx, true,
				    "expected %s:N with N a whole number of I/Os from 1 "
				    "(a new random offset every N I/Os), got '%s'",
				    base, value);
			job->rw = (enum wl_rw)b->value;
			job->rw_nr = (uint32_t)nr;
			job->rw_skip = 0;
			return 0;
		}
		if (b) {
			const char *num = colon + 1;
			bool neg = num[0] == '-';
			uint64_t v = 0;
			if (rl_parse_size(num + neg, &v, tmp, sizeof(tmp)) || v % WL_BS_MIN ||
			    v > (1ull << 50))
				return opt_fail(
				    ctx, true,
				    "expected %s:SIZE with SIZE a multiple of 512 bytes to "
				    "skip after every I/O (negative: go back), got '%s'",
				    base, value);
			job->rw = (enum wl_rw)b->value;
			job->rw_skip = neg ? -(int64_t)v : (int64_t)v;
			job->rw_nr = 1;
			return 0;
		}
	}
	return opt_fail(ctx, true, "expected one of %s, got '%s'%s",
	                opt_choice_list(def->choices, list, sizeof(list)), value,
	                opt_choice_hint(def->choices, value, hint, sizeof(hint)));
}

/* ioengine and verify: "ioengine 'libaio' is not supported by raidlab (supported: ...)". */
static int opt_choice_unsupported(const struct opt_def *def, const char *value,
                                  const struct opt_ctx *ctx)
{
	char list[256];
	return opt_fail(ctx, false, "%s '%s' is not supported by raidlab (supported: %s)",
	                ctx->given, value, opt_choice_list(def->choices, list, sizeof(list)));
}

static int opt_set_engine(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(def->choices, value);
	if (!c)
		return opt_choice_unsupported(def, value, ctx);
	job->engine = (enum wl_engine)c->value;
	snprintf(job->engine_name, sizeof(job->engine_name), "%s", c->text);
	return 0;
}

static int opt_set_verify(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(def->choices, value);
	if (!c)
		return opt_choice_unsupported(def, value, ctx);
	job->verify = (enum wl_verify)c->value;
	return 0;
}

/*
 * bsrange=MIN-MAX (and bs=MIN-MAX): sizes from MIN to MAX in steps of MIN,
 * equally likely, as a bssplit (fio draws sizes in the range aligned to
 * MIN; with at most 16 steps the two agree).
 */
static int opt_set_bsrange(struct wl_job *job, const struct opt_def *def, const char *value,
                           const struct opt_ctx *ctx)
{
	char lo[64], tmp[128];
	uint64_t a = 0, b = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *dash = strchr(value, '-');
	size_t n = dash ? (size_t)(dash - value) : 0;
	if (!dash || n == 0 || n >= sizeof(lo) || strchr(value, ','))
		goto bad;
	memcpy(lo, value, n);
	lo[n] = '\0';
	if (rl_parse_size(lo, &a, tmp, sizeof(tmp)) ||
	    rl_parse_size(dash + 1, &b, tmp, sizeof(tmp)) || !opt_bs_ok(a) || !opt_bs_ok(b) ||
	    b < a)
		goto bad;
	if (b % a || b / a > WL_BSSPLIT_MAX)
		return opt_fail(ctx, true,
		                "raidlab draws range sizes in steps of MIN and needs MAX to be at "
		                "most %d x MIN and a multiple of it; got '%s'",
		                WL_BSSPLIT_MAX, value);
	if (a == b) {
		job->bs = (uint32_t)a;
		job->nbssplit = 0;
		return 0;
	}
	unsigned k = (unsigned)(b / a);
	for (unsigned i = 0; i < k; i++) {
		job->bssplit[i].bs = (uint32_t)(a * (i + 1));
		job->bssplit[i].pct = 100 / k + (i < 100 % k);
	}
	job->nbssplit = k;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected MIN-MAX block sizes such as 4k-64k (each %s), got '%s'",
	                OPT_BS_FORM, value);
}

static int opt_set_bs(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strchr(value, ','))
		return opt_fail(ctx, true,
		                "per-direction block sizes (read,write,trim) are not supported by "
		                "raidlab; expected %s, got '%s'",
		                OPT_BS_FORM, value);
	if (strchr(value, '-'))
		return opt_set_bsrange(job, def, value, ctx);
	if (rl_parse_size(value, &v, tmp, sizeof(tmp)) != 0 || !opt_bs_ok(v))
		return opt_fail(ctx, true, "expected %s, got '%s'", OPT_BS_FORM, value);
	job->bs = (uint32_t)v;
	job->nbssplit = 0; /* the later of bs and bssplit wins */
	return 0;
}

/*
 * bssplit=SIZE[/PCT]:SIZE[/PCT]...  Entries without /PCT share what the
 * others leave equally; if that does not divide evenly the first of them
 * get one percent more, so the total is exactly 100.
 */
static int opt_set_bssplit(struct wl_job *job, const struct opt_def *def, const char *value,
                           const struct opt_ctx *ctx)
{
	struct wl_bssplit split[WL_BSSPLIT_MAX];
	bool has_pct[WL_BSSPLIT_MAX];
	unsigned n = 0, nmissing = 0, sum = 0;
	char tmp[128];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strchr(value, ','))
		return opt_fail(
		    ctx, true,
		    "per-direction bssplit (separated by ',') is not supported by raidlab; "
		    "expected SIZE/PCT entries separated by ':' such as 4k/60:64k/40, "
		    "got '%s'",
		    value);
	if (!value[0])
		return opt_fail(ctx, true,
		                "expected SIZE/PCT entries separated by ':' such as 4k/60:64k/40, "
		                "got ''");
	for (const char *p = value;;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char entry[64], *slash;
		uint64_t bs, pct;
		if (n == WL_BSSPLIT_MAX)
			return opt_fail(ctx, true,
			                "at most %d entries are allowed, got more in '%s'",
			                WL_BSSPLIT_MAX, value);
		if (len == 0)
			return opt_fail(ctx, true,
			                "entry %u is empty; expected SIZE/PCT entries separated by "
			                "':' such as 4k/60:64k/40, got '%s'",
			                n + 1, value);
		if (len >= sizeof(entry))
			return opt_fail(ctx, true, "entry %u is too long in '%s'", n + 1, value);
		memcpy(entry, p, len);
		entry[len] = '\0';
		slash = strchr(entry, '/');
		if (slash)
			*slash = '\0';
		if (rl_parse_size(entry, &bs, tmp, sizeof(tmp)) != 0 || !opt_bs_ok(bs))
			return opt_fail(ctx, true, "entry %u: expected %s, got '%s'", n + 1,
			                OPT_BS_FORM, entry);
		has_pct[n] = slash != NULL;
		pct = 0;
		if (slash && (rl_parse_u64(slash + 1, &pct, tmp, sizeof(tmp)) != 0 || pct > 100))
			return opt_fail(ctx, true,
			                "entry %u: expected a percentage from 0 to 100 after '/', "
			                "got '%s'",
			                n + 1, slash + 1);
		split[n].bs = (uint32_t)bs;
		split[n].pct = (uint32_t)pct;
		if (slash)
			sum += (unsigned)pct;
		else
			nmissing++;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (sum > 100)
		return opt_fail(ctx, true, "the percentages add up to %u, more than 100, in '%s'",
		                sum, value);
	if (nmissing == 0 && sum != 100)
		return opt_fail(ctx, true, "the percentages add up to %u, expected 100, in '%s'",
		                sum, value);
	if (nmissing > 0 && sum == 100)
		return opt_fail(
		    ctx, true,
		    "the given percentages already add up to 100, leaving nothing for the "
		    "entries without one, in '%s'",
		    value);
	unsigned rest = 100 - sum;
	unsigned share = nmissing ? rest / nmissing : 0, extra = nmissing ? rest % nmissing : 0;
	for (unsigned i = 0; i < n && nmissing > 0; i++) {
		if (has_pct[i])
			continue;
		split[i].pct = share + (extra > 0);
		if (extra > 0)
			extra--;
	}
	memcpy(job->bssplit, split, n * sizeof(split[0]));
	job->nbssplit = n;
	return 0;
}

/*
 * rwmixread and rwmixwrite: one read share said two ways.  fio lets the
 * later win; when both are given they must agree (add up to 100), since
 * one of the two figures would be silently dropped.
 */
static int opt_set_rwmix(struct wl_job *job, const struct opt_def *def, const char *value,
                         const struct opt_ctx *ctx)
{
	bool write = !strcmp(def->info.name, "rwmixwrite");
	uint32_t v = 0;
	int ret = opt_parse_percent(def, value, &v, ctx);
	if (ret)
		return ret;
	uint32_t read = write ? 100 - v : v;
	if (job->rwmix_given[!write] && job->rwmixread != read)
		return opt_fail(ctx, false,
		                "rwmixread=%u and rwmixwrite=%u contradict each other (they must "
		                "add up to 100); give one of them",
		                write ? job->rwmixread : v, write ? v : 100 - job->rwmixread);
	job->rwmixread = read;
	job->rwmix_given[write] = true;
	return 0;
}

/*
 * zoned:A/B:C/D...: A% of the I/Os go to the first B% of the region, C% to
 * the next D%, ...; zoned_abs gives zone sizes in bytes.  The access shares
 * add up to 100; a zone without a size (the last, "20/") takes the rest.
 */
static int opt_set_zones(struct wl_job *job, const char *value, const char *param, bool abs,
                         const struct opt_ctx *ctx)
{
	struct wl_zone z[WL_ZONES_MAX];
	unsigned n = 0, access = 0, size = 0;
	char tmp[128];

	if (!param || !param[0] || strchr(param, ','))
		return opt_fail(ctx, true,
		                "expected %s:A/B:C/D... (one list for all directions), got '%s'",
		                abs ? "zoned_abs" : "zoned", value);
	for (const char *p = param; *p;) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[64], *slash;
		uint64_t a = 0, b = 0;
		if (n == WL_ZONES_MAX || len == 0 || len >= sizeof(e))
			goto bad;
		memcpy(e, p, len);
		e[len] = '\0';
		slash = strchr(e, '/');
		if (!slash)
			goto bad;
		*slash = '\0';
		if (rl_parse_u64(e, &a, tmp, sizeof(tmp)) || a > 100)
			goto bad;
		if (slash[1]) {
			if (abs ? rl_parse_size(slash + 1, &b, tmp, sizeof(tmp)) || !b
			        : rl_parse_u64(slash + 1, &b, tmp, sizeof(tmp)) || !b || b > 100)
				goto bad;
		} else if (end) {
			goto bad; /* only the last zone may leave its size out */
		}
		z[n].access_pct = (uint32_t)a;
		z[n].size_pct = abs ? 0 : (uint32_t)b;
		z[n].size_bytes = abs ? b : 0;
		access += (unsigned)a;
		size += abs ? 0 : (unsigned)b;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (access != 100 || size > 100)
		return opt_fail(
		    ctx, true,
		    "the access shares add up to %u%% and the zone sizes to %u%%; "
		    "expected 100%% of the I/Os in at most 100%% of the region, in '%s'",
		    access, size, value);
	memcpy(job->zones, z, n * sizeof(z[0]));
	job->nzones = n;
	job->dist = abs ? WL_DIST_ZONED_ABS : WL_DIST_ZONED;
	job->dist_param = 0;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected %s:ACCESS%%/%s:... with at most %d zones (the last may leave "
	                "its size out), got '%s'",
	                abs ? "zoned_abs" : "zoned", abs ? "SIZE" : "SIZE%", WL_ZONES_MAX, value);
}

/* random | zipf[:THETA] | pareto[:H] | zoned | zoned_abs */
static int opt_set_dist(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t klen = colon ? (size_t)(colon - value) : strlen(value);
	const char *param = colon ? colon + 1 : NULL;
	double v;
	if (klen == 6 && strncmp(value, "random", 6) == 0) {
		if (param)
			return opt_fail(ctx, true, "'random' takes no parameter, got '%s'", value);
		job->dist = WL_DIST_RANDOM;
		job->dist_param = 0;
		return 0;
	}
	if (klen == 4 && strncmp(value, "zipf", 4) == 0) {
		v = OPT_DEF_ZIPF;
		if (param && strchr(param, ':'))
			return opt_fail(
			    ctx, true,
			    "fio's ':CENTER' part is not supported by raidlab; expected "
			    "zipf:THETA, got '%s'",
			    value);
		if (param && !opt_parse_double(param, &v))
			v = NAN;
		if (!(v > 0) || v == 1.0)
			return opt_fail(ctx, true,
			                "zipf theta must be a number above 0 other than 1 (e.g. "
			                "zipf:1.2), got '%s'",
			                value);
		job->dist = WL_DIST_ZIPF;
		job->dist_param = v;
		return 0;
	}
	if (klen == 6 && strncmp(value, "pareto", 6) == 0) {
		v = OPT_DEF_PARETO;
		if (param && strchr(param, ':'))
			return opt_fail(
			    ctx, true,
			    "fio's ':CENTER' part is not supported by raidlab; expected "
			    "pareto:H, got '%s'",
			    value);
		if (param && !opt_parse_double(param, &v))
			v = NAN;
		if (!(v > 0 && v < 1))
			return opt_fail(ctx, true,
			                "pareto h must be a number between 0 and 1, both excluded "
			                "(e.g. pareto:0.2), got '%s'",
			                value);
		job->dist = WL_DIST_PARETO;
		job->dist_param = v;
		return 0;
	}
	if ((klen == 5 && strncmp(value, "zoned", 5) == 0) ||
	    (klen == 9 && strncmp(value, "zoned_abs", 9) == 0))
		return opt_set_zones(job, value, param, klen == 9, ctx);
	return opt_fail(ctx, true,
	                "expected random, zipf[:THETA], pareto[:H], zoned:A/B:... or "
	                "zoned_abs:A/SIZE:... (fio's normal distribution is not supported), "
	                "got '%s'",
	                value);
}

static int opt_set_buffered(struct wl_job *job, const struct opt_def *def, const char *value,
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

static int opt_set_direct(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	int ret = opt_set_bool(job, def, value, ctx);
	if (!ret)
		job->direct_given = true;
	return ret;
}

static int opt_set_log_avg(struct wl_job *job, const struct opt_def *def, const char *value,
                           const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (rl_parse_u64(value, &v, tmp, sizeof(tmp)) != 0 || v < 1 || v > OPT_LOG_AVG_MAX)
		return opt_fail(ctx, true,
		                "expected a whole number of milliseconds from 1 to %llu, got '%s'",
		                OPT_LOG_AVG_MAX, value);
	job->log_avg_ns = v * OPT_NS_PER_MS;
	return 0;
}

/* A path (filename=, directory=): any text without control characters. */
static int opt_set_path(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* write_bw_log[=NAME] and the like: on, with an optional file prefix. */
static int opt_set_log(struct wl_job *job, const struct opt_def *def, const char *value,
                       const struct opt_ctx *ctx)
{
	char *name = OPT_FIELD(job, def, char);
	bool *on = def->off == offsetof(struct wl_job, bw_log_name)    ? &job->bw_log
	           : def->off == offsetof(struct wl_job, lat_log_name) ? &job->lat_log
	                                                               : &job->iops_log;
	size_t len = value ? strlen(value) : 0;
	if (len >= WL_LOGNAME_MAX || (value && strpbrk(value, "\n\r\t")))
		return opt_fail(ctx, true, "expected a file prefix of at most %d characters",
		                WL_LOGNAME_MAX - 1);
	*on = true;
	memcpy(name, value ? value : "", len + 1);
	return 0;
}

/* rate=R[,W[,T]], rate_iops, rate_min: per direction; one value sets all (as fio). */
static int opt_set_rate(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	uint64_t v[3] = {0, 0, 0};
	bool iops = def->off == offsetof(struct wl_job, rate_iops);
	char tmp[128];
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	unsigned n = 0;
	for (const char *p = value;; n++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char e[64];
		if (n == 3 || len >= sizeof(e))
			goto bad;
		memcpy(e, p, len);
		e[len] = '\0';
		if (len && (iops ? rl_parse_u64(e, &v[n], tmp, sizeof(tmp))
		                 : rl_parse_size(e, &v[n], tmp, sizeof(tmp))))
			goto bad;
		if (!end)
			break;
		p = end + 1;
	}
	if (n == 0)
		v[1] = v[2] = v[0];
	memcpy(OPT_FIELD(job, def, uint64_t), v, sizeof(v));
	return 0;
bad:
	return opt_fail(ctx, true, "expected READ[,WRITE[,TRIM]] %s such as %s, got '%s'",
	                iops ? "I/Os per second" : "bytes per second", iops ? "500,100" : "10m,2m",
	                value);
}

/* A duration whose plain number is microseconds (thinktime, flow_sleep, latency_*). */
static int opt_set_usec(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	char tmp[128];
	uint64_t v = 0;
	(void)job;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (value[0] && strspn(value, "0123456789") == strlen(value)) {
		if (rl_parse_u64(value, &v, tmp, sizeof(tmp)) || v > UINT64_MAX / 1000)
			goto bad;
		v *= 1000;
	} else if (rl_parse_time(value, &v, tmp, sizeof(tmp))) {
		goto bad;
	}
	if (v < def->min || v > def->max)
		goto bad;
	*OPT_FIELD(job, def, uint64_t) = v;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected a time such as 2000 (a plain number is microseconds, as in "
	                "fio), 2ms or 1s%s, got '%s'",
	                def->min ? ", above 0" : "", value);
}

/* latency_percentile=FLOAT: (0, 100]. */
static int opt_set_lat_pct(struct wl_job *job, const struct opt_def *def, const char *value,
                           const struct opt_ctx *ctx)
{
	double v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_double(value, &v) || !(v > 0 && v <= 100))
		return opt_fail(ctx, true,
		                "expected a percentage above 0 and at most 100, got '%s'", value);
	job->lat_pct = v;
	return 0;
}

/* ss=iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%] */
static int opt_set_ss(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	static const struct opt_choice kinds[] = {
	    {"iops", WL_SS_IOPS}, {"bw", WL_SS_BW}, {"lat", WL_SS_LAT}, {NULL, 0}};
	char kind[16], num[32];
	double v = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : 0;
	const struct opt_choice *c = NULL;
	bool slope = false, pct = false;
	if (colon && n < sizeof(kind)) {
		memcpy(kind, value, n);
		kind[n] = '\0';
		char *sl = strstr(kind, "_slope");
		if (sl && !sl[6]) {
			*sl = '\0';
			slope = true;
		}
		c = opt_find_choice(kinds, kind);
	}
	size_t len = colon ? strlen(colon + 1) : 0;
	if (len && colon[len] == '%') {
		pct = true;
		len--;
	}
	if (!c || !len || len >= sizeof(num))
		goto bad;
	memcpy(num, colon + 1, len);
	num[len] = '\0';
	if (!opt_parse_double(num, &v))
		goto bad;
	job->ss_kind = (enum wl_ss_kind)c->value;
	job->ss_slope = slope;
	job->ss_pct = pct;
	job->ss_limit = v;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a "
	                "limit (a number, or a percentage of the mean such as 0.1%%), got '%s'",
	                value);
}

/* exit_what=group|stonewall|all: what an exitall job stops. */
static int opt_set_exit_what(struct wl_job *job, const struct opt_def *def, const char *value,
                             const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!strcmp(value, "group"))
		job->exit_what = 0;
	else if (!strcmp(value, "stonewall"))
		job->exit_what = 1;
	else if (!strcmp(value, "all"))
		job->exit_what = 2;
	else
		return opt_fail(ctx, true, "expected group, stonewall or all, got '%s'", value);
	return 0;
}

/* wait_for=JOB: the name of an earlier job. */
static int opt_set_wait_for(struct wl_job *job, const struct opt_def *def, const char *value,
                            const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!value[0] || strlen(value) >= WL_NAME_MAX)
		return opt_fail(ctx, true, "expected a job name of 1 to %d characters, got '%s'",
		                WL_NAME_MAX - 1, value);
	memcpy(job->wait_for, value, strlen(value) + 1);
	return 0;
}

/* random_generator: raidlab has one generator; the names are checked, not used. */
static int opt_set_generator(struct wl_job *job, const struct opt_def *def, const char *value,
                             const struct opt_ctx *ctx)
{
	(void)job;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strcmp(value, "tausworthe") && strcmp(value, "lfsr") && strcmp(value, "tausworthe64"))
		return opt_fail(ctx, true, "expected tausworthe, lfsr or tausworthe64, got '%s'",
		                value);
	return 0;
}

/* io_submit_mode=inline|offload (see the table). */
static int opt_set_submit_mode(struct wl_job *job, const struct opt_def *def, const char *value,
                               const struct opt_ctx *ctx)
{
	(void)job;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strcmp(value, "inline") && strcmp(value, "offload"))
		return opt_fail(ctx, true, "expected inline or offload, got '%s'", value);
	return 0;
}

/* An option with two words: @no sets *out false, @yes sets it true. */
static int opt_two_words(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
                         const char *no, const char *yes, bool *out)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (strcmp(value, no) && strcmp(value, yes))
		return opt_fail(ctx, true, "expected %s or %s, got '%s'", no, yes, value);
	*out = !strcmp(value, yes);
	return 0;
}

/*
 * verify_pattern=0xHEX (bytes in the order written) or "text" / 'text':
 * what fills verify=meta blocks after their header, checked on read.
 */
static int opt_set_vpattern(struct wl_job *job, const struct opt_def *def, const char *value,
                            const struct opt_ctx *ctx)
{
	uint8_t pat[WL_PATTERN_MAX];
	size_t n = 0, len;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	len = strlen(value);
	if (len > 2 && value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
		const char *h = value + 2;
		size_t digits = len - 2;
		if (strspn(h, "0123456789abcdefABCDEF") != digits ||
		    (digits + 1) / 2 > WL_PATTERN_MAX)
			goto bad;
		for (size_t i = 0; i < digits;) {
			/* an odd count: the first byte has one digit */
			size_t take = (i == 0 && digits % 2) ? 1 : 2;
			char b[3] = {h[i], take == 2 ? h[i + 1] : '\0', '\0'};
			pat[n++] = (uint8_t)strtoul(b, NULL, 16);
			i += take;
		}
	} else if (len >= 3 && (value[0] == '"' || value[0] == '\'') &&
	           value[len - 1] == value[0] && len - 2 <= WL_PATTERN_MAX) {
		n = len - 2;
		memcpy(pat, value + 1, n);
	} else {
		goto bad;
	}
	memcpy(job->verify_pattern, pat, n);
	job->verify_pattern_len = (uint32_t)n;
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected 0x and hex digits or a quoted string, at most %d bytes "
	                "(0xaa555aa5, \"abcd\"), got '%s'",
	                WL_PATTERN_MAX, value);
}

/* prio=0..7: the job's priority level (best effort unless prioclass says otherwise). */
static int opt_set_prio(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	int ret = opt_parse_uint(def, value, 0, 7, &v, ctx);
	if (ret)
		return ret;
	job->prio_level = (uint32_t)v;
	job->prio_set = true;
	return 0;
}

/* R[,W]: one value for reads and writes, or one each (cmdprio_*). */
static int opt_set_pair(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	char a[32], tmp[128];
	uint64_t v[2] = {0, 0};
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *comma = strchr(value, ',');
	size_t n = comma ? (size_t)(comma - value) : strlen(value);
	if (n == 0 || n >= sizeof(a) || (comma && strchr(comma + 1, ',')))
		goto bad;
	memcpy(a, value, n);
	a[n] = '\0';
	if (rl_parse_u64(a, &v[0], tmp, sizeof(tmp)) || v[0] < def->min || v[0] > def->max)
		goto bad;
	v[1] = v[0];
	if (comma && (rl_parse_u64(comma + 1, &v[1], tmp, sizeof(tmp)) || v[1] < def->min ||
	              v[1] > def->max))
		goto bad;
	uint32_t *f = OPT_FIELD(job, def, uint32_t);
	f[0] = (uint32_t)v[0];
	f[1] = (uint32_t)v[1];
	return 0;
bad:
	return opt_fail(ctx, true,
	                "expected READ[,WRITE] whole numbers from %llu to %llu, got '%s'",
	                (unsigned long long)def->min, (unsigned long long)def->max, value);
}

/* continue_on_error=none|read|write|io|verify|all|0|1 */
static int opt_set_coe(struct wl_job *job, const struct opt_def *def, const char *value,
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
static int opt_set_ignore_error(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* fallocate=none|native|posix|keep|truncate|0|1: checked, see the table. */
static int opt_set_fallocate(struct wl_job *job, const struct opt_def *def, const char *value,
                             const struct opt_ctx *ctx)
{
	static const char *const modes[] = {"none",     "native", "posix", "keep",
	                                    "truncate", "0",      "1"};
	(void)job;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(modes); i++)
		if (!strcmp(value, modes[i]))
			return 0;
	return opt_fail(ctx, true, "expected none, native, posix, keep, truncate, 0 or 1, got '%s'",
	                value);
}

/* dedupe_mode=repeat|working_set */
static int opt_set_dedupe_mode(struct wl_job *job, const struct opt_def *def, const char *value,
                               const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "repeat", "working_set", &job->dedupe_working_set);
}

/* rate_process=linear|poisson */
static int opt_set_rate_process(struct wl_job *job, const struct opt_def *def, const char *value,
                                const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "linear", "poisson", &job->rate_poisson);
}

/* percentile_list=99:99.9:... (fio's ':' list), each in (0, 100]. */
static int opt_set_pct_list(struct wl_job *job, const struct opt_def *def, const char *value,
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

/*
 * A list of numbers and ranges from 0 to 63 ("0-3,6"), as a mask; with
 * @all, "all" is every one.  Returns false on anything else.
 */
static bool opt_parse_idlist(const char *value, bool all, uint64_t *out)
{
	uint64_t mask = 0;
	if (all && !strcmp(value, "all")) {
		*out = UINT64_MAX;
		return true;
	}
	for (const char *p = value;;) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return false;
		errno = 0;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (errno || a > 63)
			return false;
		if (*end == '-') {
			const char *q = end + 1;
			if (!isdigit((unsigned char)*q))
				return false;
			b = strtoul(q, &end, 10);
			if (errno || b > 63 || b < a)
				return false;
		}
		for (unsigned long c = a; c <= b; c++)
			mask |= 1ull << c;
		if (*end == '\0')
			break;
		if (*end != ',')
			return false;
		p = end + 1;
	}
	*out = mask;
	return true;
}

/* cpus_allowed=0-3,6: the CPUs the job's workers may run on (0 to 63). */
static int opt_set_cpus(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_idlist(value, false, &mask))
		return opt_fail(
		    ctx, true,
		    "expected CPU numbers from 0 to 63 and ranges such as 0-3,6, got '%s'", value);
	job->cpus = mask;
	return 0;
}

/* numa_cpu_nodes=0-1,3 | all: run on the CPUs of these NUMA nodes. */
static int opt_set_numa_nodes(struct wl_job *job, const struct opt_def *def, const char *value,
                              const struct opt_ctx *ctx)
{
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (!opt_parse_idlist(value, true, &mask))
		return opt_fail(ctx, true,
		                "expected NUMA node numbers from 0 to 63, ranges such as 0-1,3, or "
		                "all, got '%s'",
		                value);
	job->numa_nodes = mask;
	return 0;
}

/* numa_mem_policy=default|local|prefer:N|bind:LIST|interleave:LIST */
static int opt_set_numa_mpol(struct wl_job *job, const struct opt_def *def, const char *value,
                             const struct opt_ctx *ctx)
{
	static const struct opt_choice modes[] = {
	    {"default", WL_MPOL_DEFAULT},       {"prefer", WL_MPOL_PREFER}, {"bind", WL_MPOL_BIND},
	    {"interleave", WL_MPOL_INTERLEAVE}, {"local", WL_MPOL_LOCAL},   {NULL, 0},
	};
	char mode[16];
	uint64_t mask = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : strlen(value);
	const struct opt_choice *c = NULL;
	if (n < sizeof(mode)) {
		memcpy(mode, value, n);
		mode[n] = '\0';
		c = opt_find_choice(modes, mode);
	}
	if (!c)
		return opt_fail(ctx, true,
		                "expected default, local, prefer:NODE, bind:NODES or "
		                "interleave:NODES, got '%s'",
		                value);
	bool nodes = c->value == WL_MPOL_PREFER || c->value == WL_MPOL_BIND ||
	             c->value == WL_MPOL_INTERLEAVE;
	if (nodes != (colon != NULL) || (colon && !opt_parse_idlist(colon + 1, true, &mask)))
		return opt_fail(ctx, true, "%s: expected %s, got '%s'", mode,
		                nodes ? "a node list after ':' (0, 0-1, all)" : "no node list",
		                value);
	if (c->value == WL_MPOL_PREFER && __builtin_popcountll(mask) != 1)
		return opt_fail(ctx, true, "prefer takes exactly one node, got '%s'", value);
	job->numa_mpol = (enum wl_mpol)c->value;
	job->numa_mem_nodes = mask;
	return 0;
}

static int opt_set_cpus_policy(struct wl_job *job, const struct opt_def *def, const char *value,
                               const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "shared", "split", &job->cpus_split);
}

/* mem=malloc|mmap|mmaphuge: where the I/O buffers live. */
static int opt_set_mem(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* gtod_reduce: a fio-internal saving of clock reads; accepted, nothing to reduce. */
static int opt_set_bool_accepted(struct wl_job *job, const struct opt_def *def, const char *value,
                                 const struct opt_ctx *ctx)
{
	bool b = false;
	(void)job;
	(void)def;
	return opt_parse_bool(value, &b, ctx);
}

/* A whole number checked against the bounds and not kept (see the table's help). */
static int opt_set_u32_accepted(struct wl_job *job, const struct opt_def *def, const char *value,
                                const struct opt_ctx *ctx)
{
	uint64_t v = 0;
	(void)job;
	return opt_parse_uint(def, value, def->min, def->max, &v, ctx);
}

/* description=TEXT: shown by nothing, kept by nothing; any text is fine (as fio). */
static int opt_set_text(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	(void)job;
	return opt_need_value(def, value, ctx);
}

/* thread: raidlab's workers are always threads of one process. */
static int opt_set_thread(struct wl_job *job, const struct opt_def *def, const char *value,
                          const struct opt_ctx *ctx)
{
	bool b = false;
	(void)job;
	(void)def;
	int ret = opt_parse_bool(value, &b, ctx);
	if (ret)
		return ret;
	if (!b)
		return opt_fail(ctx, true,
		                "raidlab's workers are always threads of one process; thread=0 "
		                "(a process per job) cannot be honoured");
	return 0;
}

/* sync=0|none|1|sync|dsync: FUA on every write (O_SYNC and O_DSYNC alike). */
static int opt_set_sync(struct wl_job *job, const struct opt_def *def, const char *value,
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

/* --- the table --- */

#define OPT_INFO(n, a, t, d, h) .info = {.name = n, .alias = a, .type = t, .def = d, .help = h}

static const struct opt_def opt_table[] = {
    {OPT_INFO("name", NULL, "str", "job",
              "Job name used in reports, 1 to 63 characters.  In a job file the section "
              "name is the job name, and name= in the section overrides it."),
     .set = opt_set_name},
    {OPT_INFO("rw", "readwrite", "enum", "read",
              "I/O pattern: read, write, randread, randwrite, rw (or readwrite: sequential "
              "mixed), randrw, trim, randtrim.  fio's ':N' suffix (rw=randread:8) is not "
              "supported."),
     .set = opt_set_rw, .choices = opt_rw_choices},
    {OPT_INFO("bs", "blocksize", "size", "4k",
              "Block size of every I/O: a multiple of 512 from 512 to 64m.  Setting bs "
              "clears bssplit (the later of the two wins).  fio's per-direction form "
              "(4k,64k) and ranges are not supported."),
     .set = opt_set_bs},
    {OPT_INFO("bsrange", "blocksize_range", "str", "",
              "MIN-MAX: block sizes from MIN to MAX in steps of MIN, equally likely (MAX at "
              "most 16 x MIN); bs=MIN-MAX is the same.  It becomes a bssplit."),
     .set = opt_set_bsrange},
    {OPT_INFO("bssplit", NULL, "bssplit", "",
              "Mix of block sizes: SIZE/PCT entries separated by ':' (4k/60:64k/40), each "
              "size as for bs, at most 16 entries, percentages adding up to 100.  Entries "
              "without /PCT share the rest equally (the first ones get 1 more if it does "
              "not divide evenly).  Replaces bs until bs is set again.  fio's "
              "per-direction form (with ',') is not supported."),
     .set = opt_set_bssplit},
    {OPT_INFO("iodepth", NULL, "int", "1",
              "I/Os kept in flight by each job: 1 to 65536 (io_uring: up to 32768)."),
     .set = opt_set_u32, .off = OPT_OFF(iodepth, uint32_t), .min = 1, .max = 65536},
    {OPT_INFO("iodepth_batch", "iodepth_batch_submit", "int", "1",
              "Requests handed to the kernel at once (io_uring, libaio): 1 submits each "
              "as soon as it is ready, as fio does; N waits until N are ready; 0 means "
              "iodepth.  Larger batches save system calls but leave the device idle "
              "while a batch fills."),
     .set = opt_set_u32, .off = OPT_OFF(iodepth_batch, uint32_t), .min = 0, .max = 65536},
    {OPT_INFO("numjobs", NULL, "int", "1",
              "Copies of the job run at the same time, 1 to 1024; each covers the same "
              "region (unless offset_increment is set) with its own random sequence."),
     .set = opt_set_u32, .off = OPT_OFF(numjobs, uint32_t), .min = 1, .max = 1024},
    {OPT_INFO("size", NULL, "size", "0",
              "Bytes of the target the job covers, starting at offset; 0 means up to the "
              "end of the target.  Only whole blocks are used.  Percentages (size=50%) are "
              "not supported."),
     .set = opt_set_size, .off = OPT_OFF(size, uint64_t)},
    {OPT_INFO("offset", NULL, "size", "0",
              "Start of the region in bytes, a multiple of 512.  Percentages are not "
              "supported."),
     .set = opt_set_size, .off = OPT_OFF(offset, uint64_t), .align = WL_BS_MIN},
    {OPT_INFO("offset_increment", NULL, "size", "0",
              "With numjobs, copy k's region starts at offset + k x offset_increment (a "
              "multiple of 512), so the copies work on separate parts of the target, as in "
              "fio; 0: every copy covers the same region."),
     .set = opt_set_size, .off = OPT_OFF(offset_increment, uint64_t), .align = WL_BS_MIN},
    {OPT_INFO("runtime", "timeout", "time", "0",
              "Stop the job after this long; a plain number is seconds, suffixes ns, us, "
              "ms, s, m, h.  0 means no limit: the job ends after covering its region "
              "loops times."),
     .set = opt_set_time, .off = OPT_OFF(runtime_ns, uint64_t)},
    {OPT_INFO("time_based", NULL, "bool", "0",
              "Repeat the workload until runtime has passed, however often the region is "
              "covered.  Needs runtime > 0."),
     .set = opt_set_bool, .off = OPT_OFF(time_based, bool)},
    {OPT_INFO("ramp_time", NULL, "time", "0",
              "Run this long before recording anything (a plain number is seconds).  The "
              "ramp comes before runtime starts counting, as in fio."),
     .set = opt_set_time, .off = OPT_OFF(ramp_ns, uint64_t)},
    {OPT_INFO("rwmixread", NULL, "percent", "50",
              "Percentage of reads in rw and randrw, 0 to 100 (70 or 70%); rwmixwrite "
              "becomes the rest."),
     .set = opt_set_rwmix, .off = OPT_OFF(rwmixread, uint32_t)},
    {OPT_INFO("rwmixwrite", NULL, "percent", "50",
              "Percentage of writes in rw and randrw, 0 to 100; sets rwmixread to 100 "
              "minus this.  Given with rwmixread, the two must add up to 100."),
     .set = opt_set_rwmix},
    {OPT_INFO("random_distribution", NULL, "dist", "random",
              "Offsets of random patterns: random (uniform), zipf[:THETA] (THETA above 0 and "
              "not 1, default 1.1) or pareto[:H] (0 < H < 1, default 0.2).  zipf and pareto "
              "imply norandommap, as in fio.  Only for random patterns."),
     .set = opt_set_dist},
    {OPT_INFO("direct", NULL, "bool", "1",
              "1: O_DIRECT, bypassing the page cache; 0: through the page cache.  A job "
              "whose filename= names paths or whose directory= is set, and that says "
              "neither direct= nor buffered=, runs buffered as in fio."),
     .set = opt_set_direct, .off = OPT_OFF(direct, bool)},
    {OPT_INFO("buffered", NULL, "bool", "0", "The inverse of direct: buffered=1 is direct=0."),
     .set = opt_set_buffered},
    {OPT_INFO("ioengine", NULL, "enum", "io_uring",
              "How I/O is issued: io_uring; libaio (Linux native AIO through libaio); psync, "
              "sync, pvsync, pvsync2 (one synchronous call per I/O, so iodepth is 1 in "
              "effect); null (no I/O at all: a null() target of the job's size)."),
     .set = opt_set_engine, .choices = opt_engine_choices},
    {OPT_INFO("zero_buffers", NULL, "bool", "0",
              "Write blocks of zeros.  Excludes refill_buffers and "
              "buffer_compress_percentage."),
     .set = opt_set_bool, .off = OPT_OFF(zero_buffers, bool)},
    {OPT_INFO("refill_buffers", NULL, "bool", "0",
              "Fill every write with new random contents instead of reusing buffers."),
     .set = opt_set_bool, .off = OPT_OFF(refill_buffers, bool)},
    {OPT_INFO("buffer_compress_percentage", NULL, "percent", "0",
              "Make this share (0 to 100) of each written block compressible (repeated "
              "bytes); the rest is random."),
     .set = opt_set_percent, .off = OPT_OFF(buffer_compress_percentage, uint32_t)},
    {OPT_INFO("loops", NULL, "int", "1",
              "Times the region is covered, 1 to 1000000 (unless runtime ends the job "
              "first)."),
     .set = opt_set_u32, .off = OPT_OFF(loops, uint32_t), .min = 1, .max = OPT_LOOPS_MAX},
    {OPT_INFO("verify", NULL, "enum", "none",
              "crc32c (or crc32c-intel): write, then read back and check every block (needs "
              "a pattern that writes: write, randwrite, rw, randrw); meta: every "
              "verify_interval of a written block starts with a header naming its offset "
              "and length (checksummed), the rest is verify_pattern; a job that writes "
              "reads its blocks back, a job that reads checks every block it reads.  none "
              "or 0: off.  fio's other methods (md5, sha256, ...) are not supported."),
     .set = opt_set_verify, .choices = opt_verify_choices},
    {OPT_INFO("verify_interval", NULL, "size", "0",
              "verify=meta: one header per this many bytes (a multiple of 512 that divides "
              "every block size); 0: one per block."),
     .set = opt_set_size, .off = OPT_OFF(verify_interval, uint64_t), .align = WL_BS_MIN},
    {OPT_INFO("verify_pattern", NULL, "str", "",
              "verify=meta: fill blocks after their header with this pattern, repeated (0x "
              "and hex digits in the order written, or a quoted string; at most 64 "
              "bytes), and check it on read; empty: random data, only the headers are "
              "checked."),
     .set = opt_set_vpattern},
    {OPT_INFO("do_verify", NULL, "bool", "1",
              "With verify: 0 writes the verifiable blocks without checking them (a later "
              "job, or run, checks them); a reading job with verify=meta checks what it "
              "reads only when this is 1."),
     .set = opt_set_bool, .off = OPT_OFF(do_verify, bool)},
    {OPT_INFO("io_size", "io_limit", "size", "0",
              "How many bytes each worker does per loop, within the region of size: less "
              "ends early, more goes round the region again (as fio); 0: the region once."),
     .set = opt_set_size, .off = OPT_OFF(io_size, uint64_t)},
    {OPT_INFO("verify_backlog", NULL, "int", "0",
              "With verify (crc32c, or meta on a writing job): after every N writes, and "
              "at the end of each loop, wait for the writes and read back and check those "
              "N blocks before writing on, so corruption is found while the job writes; "
              "no pass at the end is needed.  0: check everything at the end."),
     .set = opt_set_u32, .off = OPT_OFF(verify_backlog, uint32_t), .min = 0, .max = 1u << 20},
    {OPT_INFO("verify_fatal", NULL, "bool", "0",
              "Stop the job at its first verify failure (unless continue_on_error covers "
              "verify); 0: check every block and report them all."),
     .set = opt_set_bool, .off = OPT_OFF(verify_fatal, bool)},
    {OPT_INFO("verify_dump", NULL, "bool", "0",
              "Write each block that fails verification (up to 10 per worker) to "
              "JOB.OFFSET.received in the current directory, and for crc32c what was "
              "expected to JOB.OFFSET.expected, as fio does."),
     .set = opt_set_bool, .off = OPT_OFF(verify_dump, bool)},
    {OPT_INFO("verify_async", NULL, "int", "0",
              "Accepted for fio job files (0 to 64): fio's threads that verify apart from "
              "the submitting one.  raidlab checks a block in the completion path of its "
              "worker, which already overlaps with the worker's other requests."),
     .set = opt_set_u32_accepted, .min = 0, .max = 64},
    {OPT_INFO("fill_device", "fill_fs", "bool", "0",
              "A write that fails with ENOSPC or EDQUOT ends the job as done, not as an "
              "error (the device or file system is full); with size 0 the job writes to "
              "the end of the target."),
     .set = opt_set_bool, .off = OPT_OFF(fill_device, bool)},
    {OPT_INFO("fallocate", NULL, "enum", "native",
              "Accepted for fio job files (none, native, posix, keep, truncate, 0, 1): "
              "raidlab writes a new file in full when a job reads it and allocates it "
              "(as native) when the jobs only write; the other modes are not told "
              "apart."),
     .set = opt_set_fallocate},
    {OPT_INFO("create_on_open", NULL, "bool", "0",
              "Accepted for fio job files: raidlab creates a job's files before the run "
              "starts (and removes them at its end unless --keep), whether or not fio "
              "would have waited for the job's open()."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("create_serialize", NULL, "bool", "1",
              "Accepted for fio job files: raidlab creates and lays out every job's files "
              "one after another before any job starts, so creation is always serialized."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("verify_only", NULL, "bool", "0",
              "Do not write: replay the job's write sequence and check the blocks that an "
              "earlier run of the same job (same options and randseed) wrote.  Needs verify."),
     .set = opt_set_bool, .off = OPT_OFF(verify_only, bool)},
    {OPT_INFO("randseed", NULL, "int", "1",
              "Seed of the random generators (0 to 2^64-1, decimal or 0x hex); fixed by "
              "default so runs repeat."),
     .set = opt_set_u64, .off = OPT_OFF(seed, uint64_t), .min = 0, .max = UINT64_MAX},
    {OPT_INFO("norandommap", NULL, "bool", "0",
              "Random patterns pick offsets without remembering which blocks were done, so "
              "some repeat and others are missed in a loop.  No effect on sequential "
              "patterns."),
     .set = opt_set_bool, .off = OPT_OFF(norandommap, bool)},
    {OPT_INFO("log_avg_msec", NULL, "msec", "100",
              "Interval of the throughput time series in milliseconds, 1 to 3600000."),
     .set = opt_set_log_avg},
    {OPT_INFO("stonewall", "wait_for_previous", "bool", "0",
              "Wait for the jobs before this one to finish, then start a new group (as "
              "fio).  Without it the jobs of a file run at the same time."),
     .set = opt_set_bool, .off = OPT_OFF(stonewall, bool)},
    {OPT_INFO("new_group", NULL, "bool", "0",
              "Start a new reporting group with this job (as fio); it still runs alongside "
              "the jobs before it unless stonewall is set too."),
     .set = opt_set_bool, .off = OPT_OFF(new_group, bool)},
    {OPT_INFO("group_reporting", NULL, "bool", "0",
              "Report the jobs of a group (and the clones of numjobs) together as one."),
     .set = opt_set_bool, .off = OPT_OFF(group_reporting, bool)},
    {OPT_INFO("filename", NULL, "str", "",
              "Where the job does I/O: a file or block device, several separated by ':' "
              "(used one after another, like concat()), or a target spec such as "
              "mem(size=1g).  A missing file is created with the job's size.  Overrides "
              "--target for this job."),
     .set = opt_set_path, .off = OPT_OFF(filename, char[WL_PATH_MAX])},
    {OPT_INFO("directory", NULL, "str", "",
              "Directory of the job's files: without filename each clone k of numjobs gets "
              "its own file JOBNAME.k.0 there (as fio); with filename, the file is taken "
              "relative to it."),
     .set = opt_set_path, .off = OPT_OFF(directory, char[WL_PATH_MAX])},
    {OPT_INFO("description", NULL, "str", "",
              "Free text describing the job; accepted and not used."),
     .set = opt_set_text},
    {OPT_INFO("thread", "threads", "bool", "1",
              "Accepted for fio job files: raidlab's workers are always threads; thread=0 is "
              "an error."),
     .set = opt_set_thread},
    {OPT_INFO("randrepeat", NULL, "bool", "1",
              "1: the random sequences repeat from run to run (from randseed); 0: they are "
              "seeded from the clock."),
     .set = opt_set_bool, .off = OPT_OFF(randrepeat, bool)},
    {OPT_INFO("fsync", NULL, "int", "0",
              "After every N writes, flush the target (fsync on a file, a FLUSH down an "
              "array or simulated drive) before the next request; 0: never."),
     .set = opt_set_u32, .off = OPT_OFF(fsync_n, uint32_t), .min = 0, .max = 1u << 30},
    {OPT_INFO("fdatasync", NULL, "int", "0",
              "As fsync; raidlab's FLUSH is a data sync (fdatasync on files)."),
     .set = opt_set_u32, .off = OPT_OFF(fdatasync_n, uint32_t), .min = 0, .max = 1u << 30},
    {OPT_INFO("sync", NULL, "enum", "0",
              "1, sync or dsync: every write is durable when it completes (FUA: RWF_DSYNC on "
              "files); 0 or none: off."),
     .set = opt_set_sync},
    {OPT_INFO("end_fsync", NULL, "bool", "0",
              "Flush the target once when the job's writes are done (counted in its time)."),
     .set = opt_set_bool, .off = OPT_OFF(end_fsync, bool)},
    {OPT_INFO("startdelay", NULL, "time", "0",
              "Start the job this long after its group starts (a plain number is seconds)."),
     .set = opt_set_time, .off = OPT_OFF(startdelay_ns, uint64_t)},
    {OPT_INFO("write_bw_log", NULL, "str", "",
              "Write fio's bandwidth log NAME_bw.N.log (N: the job's number in the file, from "
              "1): one line per log_avg_msec interval and direction, 'msec, KiB/s, "
              "direction, bs, 0'.  Without a NAME the job's name is used."),
     .set = opt_set_log, .off = OPT_OFF(bw_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("write_lat_log", NULL, "str", "",
              "Write fio's latency logs NAME_lat.N.log and NAME_clat.N.log (the same here): "
              "the mean latency in ns of each interval; NAME_slat.N.log holds 0 (submission "
              "is not timed apart)."),
     .set = opt_set_log, .off = OPT_OFF(lat_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("write_iops_log", NULL, "str", "",
              "Write fio's IOPS log NAME_iops.N.log: I/Os per second of each interval."),
     .set = opt_set_log, .off = OPT_OFF(iops_log_name, char[WL_LOGNAME_MAX])},
    {OPT_INFO("rate", NULL, "str", "0",
              "Cap the job's bandwidth: READ[,WRITE[,TRIM]] bytes per second (10m,2m); one "
              "value caps every direction; 0 or empty: no cap.  Requests wait for their "
              "turn, as in fio."),
     .set = opt_set_rate, .off = OPT_OFF(rate, uint64_t[3])},
    {OPT_INFO("rate_process", NULL, "enum", "linear",
              "How rate and rate_iops space requests: linear (evenly) or poisson (random "
              "gaps with the same mean, as arrivals from many independent users)."),
     .set = opt_set_rate_process},
    {OPT_INFO("io_submit_mode", NULL, "enum", "inline",
              "Accepted for fio job files: inline or offload.  raidlab's rate pacing already "
              "issues each request at its scheduled time whenever a slot is free, which is "
              "what fio's offload mode is for."),
     .set = opt_set_submit_mode},
    {OPT_INFO("rate_iops", NULL, "str", "0",
              "Cap the job's I/Os per second, READ[,WRITE[,TRIM]] as for rate."),
     .set = opt_set_rate, .off = OPT_OFF(rate_iops, uint64_t[3])},
    {OPT_INFO("rate_min", "ratemin", "str", "0",
              "The job fails (exit status 1, naming the direction) if it ends slower than "
              "this many bytes per second, READ[,WRITE[,TRIM]] as for rate."),
     .set = opt_set_rate, .off = OPT_OFF(rate_min, uint64_t[3])},
    {OPT_INFO("thinktime", NULL, "str", "0",
              "Pause this long after each I/O completes before its slot issues the next "
              "(a plain number is microseconds, as in fio; or 2ms, 1s)."),
     .set = opt_set_usec, .off = OPT_OFF(thinktime_ns, uint64_t), .max = UINT64_MAX},
    {OPT_INFO("number_ios", NULL, "int", "0",
              "Stop the job after this many I/Os (counted over all its clones' own); 0: no "
              "limit."),
     .set = opt_set_u64, .off = OPT_OFF(number_ios, uint64_t), .min = 0, .max = UINT64_MAX},
    {OPT_INFO("filesize", NULL, "size", "0",
              "Size of the files the job creates (filename= / directory=); 0: offset + size."),
     .set = opt_set_size, .off = OPT_OFF(filesize, uint64_t)},
    {OPT_INFO("wait_for", NULL, "str", "",
              "Start this job only when the earlier job of that name has finished (it runs "
              "in the wave after that job's)."),
     .set = opt_set_wait_for},
    {OPT_INFO("exit_what", NULL, "enum", "group",
              "What an exitall job stops when it ends: group (the jobs running with it), "
              "stonewall (the same here) or all (also the jobs that have not started)."),
     .set = opt_set_exit_what},
    {OPT_INFO("random_generator", NULL, "enum", "tausworthe",
              "Accepted for fio job files (tausworthe, lfsr, tausworthe64): raidlab always "
              "uses its own generator (xoshiro256**), and its random map already gives "
              "lfsr's promise that every block is used once per loop."),
     .set = opt_set_generator},
    {OPT_INFO("percentile_list", NULL, "str", "",
              "The latency percentiles fio's JSON and terse output report, separated by ':' "
              "(99:99.9:99.99), up to 20; empty: fio's default list."),
     .set = opt_set_pct_list},
    {OPT_INFO("lat_percentiles", "clat_percentiles", "bool", "1",
              "Accepted for fio job files: raidlab reports percentiles of its one latency "
              "(clat, which here equals lat) always."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("cpus_allowed", NULL, "str", "",
              "The CPUs the job's worker threads may run on: numbers and ranges from 0 to 63 "
              "(0-3,6); empty: any."),
     .set = opt_set_cpus},
    {OPT_INFO("cpus_allowed_policy", NULL, "enum", "shared",
              "shared: every worker may use all of cpus_allowed; split: worker k runs on the "
              "k-th CPU of the set (round robin)."),
     .set = opt_set_cpus_policy},
    {OPT_INFO("mem", "iomem", "enum", "malloc",
              "Where the I/O buffers live: malloc or mmap (ordinary pages, as fio's "
              "default), or mmaphuge (transparent huge pages: a 1 MiB buffer is one "
              "physically contiguous segment, so large requests are not split at the "
              "device's segment limit).  With malloc, a job whose I/O reaches no O_DIRECT "
              "descriptor gets the allocator's alignment, as in fio (16 bytes past a page "
              "boundary for large regions), which makes copies to and from the page cache "
              "slower; see mem_align."),
     .set = opt_set_mem},
    {OPT_INFO("mem_align", "iomem_align", "int", "0",
              "Start the I/O buffers this many bytes past a page boundary (0 with O_DIRECT: "
              "page aligned).  Setting it page-aligns buffered jobs' buffers too.  With "
              "O_DIRECT it must be a multiple of the target's block alignment."),
     .set = opt_set_u32, .off = OPT_OFF(mem_align, uint32_t), .min = 0, .max = 1u << 20},
    {OPT_INFO("gtod_reduce", NULL, "bool", "0",
              "Accepted for fio job files: fio's way of reading the clock less often.  "
              "raidlab reads it once per I/O anyway, so there is nothing to reduce."),
     .set = opt_set_bool_accepted},
    {OPT_INFO("blockalign", "ba", "size", "0",
              "Align random offsets to this many bytes (a multiple of 512); 0: to the "
              "smallest block size, as in fio."),
     .set = opt_set_size, .off = OPT_OFF(blockalign, uint64_t), .align = WL_BS_MIN},
    {OPT_INFO("exitall", NULL, "bool", "0",
              "When this job finishes, stop the other jobs of its group (as fio)."),
     .set = opt_set_bool, .off = OPT_OFF(exitall, bool)},
    {OPT_INFO("invalidate", NULL, "bool", "1",
              "Drop a buffered file's page cache when the job starts and at every pass "
              "over the region (fio reopens its files each pass, invalidating them), so "
              "reads come from the device; dirty pages are queued for writeback first."),
     .set = opt_set_bool, .off = OPT_OFF(invalidate, bool)},
    {OPT_INFO("flow", NULL, "int", "0",
              "Weight in flow control (0 to 1000): jobs of one flow_id that run at the same "
              "time issue I/Os in the ratio of their weights (flow=2 against flow=1: 2:1); a "
              "job ahead of its share waits flow_sleep and tries again.  0: off."),
     .set = opt_set_u32, .off = OPT_OFF(flow, uint32_t), .min = 0, .max = 1000},
    {OPT_INFO("flow_id", NULL, "int", "0",
              "The flow group whose jobs flow= keeps in ratio; default 0 (one global flow)."),
     .set = opt_set_u32, .off = OPT_OFF(flow_id, uint32_t), .min = 0, .max = UINT32_MAX},
    {OPT_INFO("flow_sleep", NULL, "str", "0",
              "How long a job ahead of its flow share waits before it tries again (a plain "
              "number is microseconds); 0: it tries again as soon as another request of "
              "the group completes (raidlab waits 10 us)."),
     .set = opt_set_usec, .off = OPT_OFF(flow_sleep_ns, uint64_t), .max = 60000000000ull},
    {OPT_INFO("latency_target", NULL, "str", "0",
              "Search the highest queue depth (up to iodepth) at which latency_percentile "
              "of the I/Os complete within this time (a plain number is microseconds), "
              "trying one depth per latency_window as fio: start at 1, double while it "
              "holds, halve towards the last good depth when it fails; once the depth "
              "settles the statistics restart and the job ends after one more window at "
              "it.  The depth found is reported as fio's latency_depth.  0: off."),
     .set = opt_set_usec, .off = OPT_OFF(lat_target_ns, uint64_t), .max = 3600000000000ull},
    {OPT_INFO("latency_window", NULL, "str", "0",
              "With latency_target: how long each depth is tried (a plain number is "
              "microseconds)."),
     .set = opt_set_usec, .off = OPT_OFF(lat_window_ns, uint64_t), .max = 3600000000000ull},
    {OPT_INFO("latency_percentile", NULL, "float", "100",
              "With latency_target: the share of I/Os (percent) that must complete within "
              "the target; 100: every I/O (one late I/O lowers the depth at once)."),
     .set = opt_set_lat_pct},
    {OPT_INFO("latency_run", NULL, "bool", "0",
              "With latency_target: keep adjusting the depth for the whole run instead of "
              "ending once it settles."),
     .set = opt_set_bool, .off = OPT_OFF(lat_run, bool)},
    {OPT_INFO("ss", "steadystate", "str", "iops_slope:0.01%",
              "Steady state criterion: iops, bw or lat (the largest deviation from the "
              "window's mean) or iops_slope, bw_slope, lat_slope (least squares slope), "
              "':' and a limit, a percentage of the mean with '%'.  When it holds over "
              "ss_dur the job ends (with group_reporting its clones are judged and ended "
              "together) and fio's steadystate block is reported.  Needs ss_dur."),
     .set = opt_set_ss},
    {OPT_INFO("ss_dur", "steadystate_duration", "time", "0",
              "The rolling window steady state is judged over (a plain number is seconds); "
              "0: no steady state detection."),
     .set = opt_set_time, .off = OPT_OFF(ss_dur_ns, uint64_t)},
    {OPT_INFO("ss_ramp", "steadystate_ramp_time", "time", "0",
              "Run this long before collecting steady state samples (a plain number is "
              "seconds)."),
     .set = opt_set_time, .off = OPT_OFF(ss_ramp_ns, uint64_t)},
    {OPT_INFO("ss_interval", "steadystate_check_interval", "time", "1s",
              "One steady state sample per this long (a plain number is seconds); ss_dur "
              "holds ss_dur / ss_interval samples."),
     .set = opt_set_time, .off = OPT_OFF(ss_interval_ns, uint64_t)},
    {OPT_INFO("numa_cpu_nodes", NULL, "str", "",
              "Run the job's worker threads on the CPUs of these NUMA nodes (0-1,3 or all; "
              "the CPUs are read from /sys/devices/system/node).  A listed node this "
              "machine lacks is named in a warning; none present is an error."),
     .set = opt_set_numa_nodes},
    {OPT_INFO("numa_mem_policy", NULL, "str", "",
              "Memory policy of the job's worker threads, set before their buffers are "
              "allocated (set_mempolicy): default, local, prefer:NODE, bind:NODES or "
              "interleave:NODES."),
     .set = opt_set_numa_mpol},
    {OPT_INFO("prio", NULL, "int", "",
              "The job's I/O priority level, 0 (highest) to 7, on every request (and on its "
              "threads with ioprio_set); in the best effort class unless prioclass is set."),
     .set = opt_set_prio},
    {OPT_INFO("prioclass", NULL, "int", "0",
              "The job's I/O priority class: 1 real time, 2 best effort, 3 idle; 0: none "
              "(the kernel's default).  See ionice(1)."),
     .set = opt_set_u32, .off = OPT_OFF(prio_class, uint32_t), .min = 0, .max = 3},
    {OPT_INFO("cmdprio_percentage", NULL, "str", "0",
              "This share (percent, READ[,WRITE]) of the requests carry the priority of "
              "cmdprio_class and cmdprio instead of the job's (io_uring and libaio; it "
              "reaches file targets).  fio's per-priority latency (\"prios\") is reported."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_pct, uint32_t[2]), .min = 0, .max = 100},
    {OPT_INFO("cmdprio_class", NULL, "str", "1",
              "The priority class of cmdprio_percentage's requests, READ[,WRITE]: 1 real "
              "time, 2 best effort, 3 idle."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_class, uint32_t[2]), .min = 1, .max = 3},
    {OPT_INFO("cmdprio", NULL, "str", "0",
              "The priority level of cmdprio_percentage's requests, READ[,WRITE], 0 "
              "(highest) to 7."),
     .set = opt_set_pair, .off = OPT_OFF(cmdprio_level, uint32_t[2]), .min = 0, .max = 7},
    {OPT_INFO("log_prio", NULL, "bool", "0",
              "The last column of write_lat_log's logs shows each sample's priority value "
              "as fio does (0x6000: class 3, level 0) instead of 1 for the real time class "
              "and 0 for others; samples of the two priorities of cmdprio_percentage are "
              "logged apart."),
     .set = opt_set_bool, .off = OPT_OFF(log_prio, bool)},
    {OPT_INFO("continue_on_error", NULL, "enum", "none",
              "Go on past errors of these kinds instead of stopping the job at the first: "
              "none (0), read, write, io (both), verify, all (1).  Only the errnos of "
              "ignore_error go past (default EIO and EILSEQ, as fio); they are counted "
              "(fio's total_err and first_error) and do not fail the run; others stop "
              "the job as usual.  Trims and flushes count as writes."),
     .set = opt_set_coe},
    {OPT_INFO("ignore_error", NULL, "str", "",
              "The errnos continue_on_error goes past, READ[,WRITE[,VERIFY]] lists of "
              "names or numbers separated by ':' (EAGAIN,ENOSPC:122); an empty list keeps "
              "the default, EIO and EILSEQ."),
     .set = opt_set_ignore_error},
    {OPT_INFO("error_dump", NULL, "bool", "1",
              "Print each error continue_on_error goes past (the first 10 of each worker); "
              "0: only count them."),
     .set = opt_set_bool, .off = OPT_OFF(error_dump, bool)},
    {OPT_INFO("dedupe_percentage", NULL, "percent", "0",
              "This share of written blocks repeats the contents of an earlier one, so "
              "deduplicating storage can drop them; the others are unique (refill_buffers "
              "is implied).  Compression options shape both alike."),
     .set = opt_set_percent, .off = OPT_OFF(dedupe_pct, uint32_t)},
    {OPT_INFO("dedupe_mode", NULL, "enum", "repeat",
              "repeat: a duplicate repeats one of the job's earlier unique blocks; "
              "working_set: it repeats one of a working set of "
              "dedupe_working_set_percentage of the region's blocks."),
     .set = opt_set_dedupe_mode},
    {OPT_INFO("dedupe_working_set_percentage", NULL, "percent", "5",
              "dedupe_mode=working_set: the working set's size as a share of the region."),
     .set = opt_set_percent, .off = OPT_OFF(dedupe_ws_pct, uint32_t)},
    {OPT_INFO("dedupe_global", NULL, "bool", "0",
              "dedupe_mode=working_set: every job with this set draws from one working set, "
              "so their duplicates also match each other's blocks."),
     .set = opt_set_bool, .off = OPT_OFF(dedupe_global, bool)},
};

/*
 * Names that are not job options but that people will try: the message says
 * what to do instead.
 */
static const struct {
	const char *name;
	const char *why;
} opt_redirects[] = {
    {"target", "the target is not a job option; give it with --target=SPEC on the command "
               "line or target=SPEC in a job file's [global] section"},
};

/* fio options that raidlab knowingly lacks (an error, not "unknown"). */
static const char *const opt_fio_unsupported[] = {
    "bs_unaligned",  "iodepth_batch_complete",
    "iodepth_low",   "percentage_random",
    "nrfiles",       "hipri",
    "fixedbufs",     "registerfiles",
    "sqthread_poll",
};

static const struct opt_def *opt_lookup(const char *name)
{
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		const struct wl_option_info *in = &opt_table[i].info;
		if (strcmp(in->name, name) == 0 || (in->alias && strcmp(in->alias, name) == 0))
			return &opt_table[i];
	}
	return NULL;
}

/* --- public API --- */

int wl_job_set(struct wl_job *job, const char *name, const char *value, const char *where,
               char *msg, size_t msglen)
{
	struct opt_ctx ctx = {.where = where, .given = name, .msg = msg, .msglen = msglen};
	if (msg && msglen)
		msg[0] = '\0';
	if (!job || !name)
		return opt_fail(&ctx, false, "internal error: no job or no option name");
	if (!name[0])
		return opt_fail(&ctx, false, "missing option name");

	const struct opt_def *def = opt_lookup(name);
	if (def)
		return def->set(job, def, value, &ctx);

	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_redirects); i++)
		if (strcmp(name, opt_redirects[i].name) == 0)
			return opt_fail(&ctx, false, "option '%s' is not supported: %s", name,
			                opt_redirects[i].why);
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_fio_unsupported); i++)
		if (strcmp(name, opt_fio_unsupported[i]) == 0)
			return opt_fail(&ctx, false,
			                "fio option '%s' is not supported by raidlab (see "
			                "'raidlab help options')",
			                name);

	const char *names[2 * OPT_ARRAY_SIZE(opt_table)];
	size_t n = 0;
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		names[n++] = opt_table[i].info.name;
		names[n++] = opt_table[i].info.alias;
	}
	const char *s = opt_suggest_from(name, names, n);
	if (s)
		return opt_fail(&ctx, false, "unknown option '%s' (did you mean '%s'?)", name, s);
	return opt_fail(&ctx, false, "unknown option '%s' (see 'raidlab help options')", name);
}

void wl_job_init(struct wl_job *job)
{
	memset(job, 0, sizeof(*job));
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++) {
		const struct opt_def *def = &opt_table[i];
		struct opt_ctx ctx = {.given = def->info.name};
		if (def->info.def[0])
			(void)def->set(job, def, def->info.def, &ctx);
	}
	job->direct_given = false;
	job->rwmix_given[0] = job->rwmix_given[1] = false;
}

void wl_job_apply_fio_defaults(struct wl_job *job)
{
	bool paths = job->directory[0] || (job->filename[0] && !strchr(job->filename, '('));
	if (paths && !job->direct_given)
		job->direct = false;
}

static struct wl_option_info opt_infos[OPT_ARRAY_SIZE(opt_table)];
static pthread_once_t opt_infos_once = PTHREAD_ONCE_INIT;

static void opt_infos_fill(void)
{
	for (size_t i = 0; i < OPT_ARRAY_SIZE(opt_table); i++)
		opt_infos[i] = opt_table[i].info;
}

const struct wl_option_info *wl_options(size_t *count)
{
	pthread_once(&opt_infos_once, opt_infos_fill);
	if (count)
		*count = OPT_ARRAY_SIZE(opt_table);
	return opt_infos;
}

bool wl_job_continues(const struct wl_job *job, int type, int err)
{
	if (type < 0 || type > 2 || !(job->coe & (1u << type)))
		return false;
	if (!job->nignore[type])
		return err == EIO || err == EILSEQ; /* fio's non-fatal errors */
	for (uint32_t i = 0; i < job->nignore[type] && i < WL_IGNORE_MAX; i++)
		if (job->ignore_err[type][i] == err)
			return true;
	return false;
}

uint16_t wl_job_ioprio(const struct wl_job *job)
{
	uint32_t cls = job->prio_class ? job->prio_class : job->prio_set ? 2 : 0;
	return (uint16_t)(cls << 13 | job->prio_level);
}

uint16_t wl_job_cmdprio(const struct wl_job *job, int dir)
{
	return (uint16_t)(job->cmdprio_class[dir] << 13 | job->cmdprio_level[dir]);
}

bool wl_rw_is_random(enum wl_rw rw)
{
	return rw == WL_RW_RANDREAD || rw == WL_RW_RANDWRITE || rw == WL_RW_RANDRW ||
	       rw == WL_RW_RANDTRIM;
}

const char *wl_rw_name(enum wl_rw rw)
{
	switch (rw) {
	case WL_RW_READ:
		return "read";
	case WL_RW_WRITE:
		return "write";
	case WL_RW_RANDREAD:
		return "randread";
	case WL_RW_RANDWRITE:
		return "randwrite";
	case WL_RW_RW:
		return "rw";
	case WL_RW_RANDRW:
		return "randrw";
	case WL_RW_TRIM:
		return "trim";
	case WL_RW_RANDTRIM:
		return "randtrim";
	}
	return "invalid";
}

bool wl_job_writes(const struct wl_job *job)
{
	if (job->verify_only)
		return false; /* it only reads back */
	switch (job->rw) {
	case WL_RW_WRITE:
	case WL_RW_RANDWRITE:
	case WL_RW_TRIM:
	case WL_RW_RANDTRIM:
		return true;
	case WL_RW_RW:
	case WL_RW_RANDRW:
		return job->rwmixread < 100;
	case WL_RW_READ:
	case WL_RW_RANDREAD:
		break;
	}
	return false;
}

bool wl_job_reads(const struct wl_job *job)
{
	if (job->verify != WL_VERIFY_NONE || job->verify_only)
		return true;
	switch (job->rw) {
	case WL_RW_WRITE:
	case WL_RW_RANDWRITE:
	case WL_RW_TRIM:
	case WL_RW_RANDTRIM:
		return false;
	case WL_RW_RW:
	case WL_RW_RANDRW:
		return job->rwmixread > 0;
	case WL_RW_READ:
	case WL_RW_RANDREAD:
		break;
	}
	return true;
}

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

int wl_job_validate(const struct wl_job *job, const char *where, char *msg, size_t msglen)
{
	struct opt_ctx ctx = {.where = where, .msg = msg, .msglen = msglen};
	if (msg && msglen)
		msg[0] = '\0';
	if (!job)
		return opt_fail(&ctx, false, "internal error: no job");

	/* Single options, for jobs not filled in through wl_job_set. */
	if (!memchr(job->name, '\0', sizeof(job->name)) || !job->name[0])
		return opt_fail(&ctx, false, "the job has no valid name (1 to %d characters)",
		                WL_NAME_MAX - 1);
	if ((unsigned)job->rw > WL_RW_RANDTRIM)
		return opt_fail(&ctx, false, "invalid rw value %d", (int)job->rw);
	if ((unsigned)job->dist > WL_DIST_ZONED_ABS)
		return opt_fail(&ctx, false, "invalid random_distribution value %d",
		                (int)job->dist);
	if ((unsigned)job->engine > WL_ENGINE_NULL)
		return opt_fail(&ctx, false, "invalid ioengine value %d", (int)job->engine);
	if ((unsigned)job->verify > WL_VERIFY_META)
		return opt_fail(&ctx, false, "invalid verify value %d", (int)job->verify);
	if (job->nbssplit == 0 && !opt_bs_ok(job->bs))
		return opt_fail(&ctx, false, "bs=%u is not %s", job->bs, OPT_BS_FORM);
	if (job->nbssplit > WL_BSSPLIT_MAX)
		return opt_fail(&ctx, false, "bssplit has %u entries, at most %d are allowed",
		                job->nbssplit, WL_BSSPLIT_MAX);
	uint32_t maxbs = job->nbssplit ? 0 : job->bs;
	unsigned sum = 0;
	for (unsigned i = 0; i < job->nbssplit; i++) {
		if (!opt_bs_ok(job->bssplit[i].bs))
			return opt_fail(&ctx, false, "bssplit entry %u: block size %u is not %s",
			                i + 1, job->bssplit[i].bs, OPT_BS_FORM);
		if (job->bssplit[i].pct > 100)
			return opt_fail(&ctx, false, "bssplit entry %u: percentage %u is above 100",
			                i + 1, job->bssplit[i].pct);
		sum += job->bssplit[i].pct;
		if (job->bssplit[i].bs > maxbs)
			maxbs = job->bssplit[i].bs;
	}
	if (job->nbssplit && sum != 100)
		return opt_fail(&ctx, false, "bssplit percentages add up to %u, expected 100", sum);
	if (job->iodepth < 1 || job->iodepth > 65536)
		return opt_fail(&ctx, false, "iodepth=%u is not from 1 to 65536", job->iodepth);
	if (job->numjobs < 1 || job->numjobs > 1024)
		return opt_fail(&ctx, false, "numjobs=%u is not from 1 to 1024", job->numjobs);
	if (job->loops < 1 || job->loops > OPT_LOOPS_MAX)
		return opt_fail(&ctx, false, "loops=%u is not from 1 to %u", job->loops,
		                OPT_LOOPS_MAX);
	if (job->rwmixread > 100)
		return opt_fail(&ctx, false, "rwmixread=%u is above 100", job->rwmixread);
	if (job->buffer_compress_percentage > 100)
		return opt_fail(&ctx, false, "buffer_compress_percentage=%u is above 100",
		                job->buffer_compress_percentage);
	if (job->log_avg_ns < OPT_NS_PER_MS || job->log_avg_ns > OPT_LOG_AVG_MAX * OPT_NS_PER_MS)
		return opt_fail(&ctx, false, "log_avg_msec must be from 1 to %llu milliseconds",
		                OPT_LOG_AVG_MAX);
	if (job->dist == WL_DIST_ZIPF &&
	    (!(job->dist_param > 0) || job->dist_param == 1.0 || !isfinite(job->dist_param)))
		return opt_fail(&ctx, false, "zipf theta %g must be above 0 and other than 1",
		                job->dist_param);
	if (job->dist == WL_DIST_PARETO && !(job->dist_param > 0 && job->dist_param < 1))
		return opt_fail(&ctx, false, "pareto h %g must be between 0 and 1, both excluded",
		                job->dist_param);

	/* Region. */
	if (job->offset % WL_BS_MIN)
		return opt_fail(&ctx, false, "offset=%llu is not a multiple of %u",
		                (unsigned long long)job->offset, WL_BS_MIN);
	if (job->size > UINT64_MAX - job->offset)
		return opt_fail(&ctx, false, "offset + size is beyond 2^64 bytes");
	if (job->offset_increment % WL_BS_MIN)
		return opt_fail(&ctx, false, "offset_increment=%llu is not a multiple of %u",
		                (unsigned long long)job->offset_increment, WL_BS_MIN);
	if (job->offset_increment &&
	    (job->numjobs - 1) > (UINT64_MAX - job->offset - job->size) / job->offset_increment)
		return opt_fail(&ctx, false,
		                "offset + (numjobs - 1) x offset_increment + size is beyond 2^64 "
		                "bytes");
	if (job->size && job->size < maxbs)
		return opt_fail(
		    &ctx, false,
		    "size=%llu bytes is smaller than the largest block size (%u bytes); "
		    "give at least one block, or 0 for the rest of the target",
		    (unsigned long long)job->size, maxbs);

	/* Rules across options. */
	if (job->time_based && job->runtime_ns == 0)
		return opt_fail(&ctx, false, "time_based needs runtime > 0 (e.g. runtime=60)");
	if (job->dist != WL_DIST_RANDOM && !wl_rw_is_random(job->rw))
		return opt_fail(&ctx, false,
		                "random_distribution=%s applies to random patterns only, but rw=%s "
		                "is sequential",
		                opt_dist_name(job->dist), wl_rw_name(job->rw));
	/* verify=meta on a reading job checks what it reads; otherwise the job writes */
	const char *vname = job->verify == WL_VERIFY_META ? "verify=meta" : "verify=crc32c";
	bool vreads =
	    job->verify == WL_VERIFY_META && (job->rw == WL_RW_READ || job->rw == WL_RW_RANDREAD);
	bool vwrites = job->verify != WL_VERIFY_NONE && !vreads;
	if (job->verify_only && job->verify != WL_VERIFY_CRC32C)
		return opt_fail(&ctx, false, "verify_only needs verify=crc32c");
	if (vwrites && job->do_verify && (job->time_based || job->ramp_ns))
		return opt_fail(&ctx, false,
		                "%s checks what one run of the region wrote; it cannot be combined "
		                "with time_based or ramp_time (unless do_verify=0)",
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
				    &ctx, false,
				    "%s needs writes, but rwmixread=100 makes rw=%s read only",
				    vname, wl_rw_name(job->rw));
			break;
		default:
			return opt_fail(
			    &ctx, false,
			    "%s needs a pattern that %s (write, randwrite, rw or randrw%s), "
			    "got rw=%s",
			    vname, job->verify == WL_VERIFY_META ? "writes or reads" : "writes",
			    job->verify == WL_VERIFY_META ? ", read, randread" : "",
			    wl_rw_name(job->rw));
		}
		if (job->numjobs > 1 && job->offset_increment &&
		    (!job->size || job->offset_increment < job->size))
			return opt_fail(
			    &ctx, false,
			    "%s with numjobs and offset_increment needs offset_increment >= "
			    "size, so the copies' regions do not overlap",
			    vname);
		if (job->nbssplit > 1 && (job->norandommap || job->dist != WL_DIST_RANDOM))
			return opt_fail(
			    &ctx, false,
			    "%s cannot be combined with bssplit and norandommap (or "
			    "zipf/pareto): overlapping writes of different sizes cannot be "
			    "checked",
			    vname);
	}
	if (job->verify != WL_VERIFY_META && (job->verify_interval || job->verify_pattern_len))
		return opt_fail(&ctx, false, "%s applies to verify=meta (got verify=%s)",
		                job->verify_interval ? "verify_interval" : "verify_pattern",
		                job->verify == WL_VERIFY_CRC32C ? "crc32c" : "none");
	if (job->verify_interval) {
		if (job->verify_interval % WL_BS_MIN || job->verify_interval > WL_BS_MAX)
			return opt_fail(&ctx, false,
			                "verify_interval=%llu is not a multiple of %u up to 64m",
			                (unsigned long long)job->verify_interval, WL_BS_MIN);
		for (unsigned i = 0; i <= job->nbssplit; i++) {
			uint32_t b = i < job->nbssplit ? job->bssplit[i].bs : job->bs;
			if ((i < job->nbssplit || !job->nbssplit) && b % job->verify_interval)
				return opt_fail(
				    &ctx, false,
				    "verify_interval=%llu does not divide the block size %u",
				    (unsigned long long)job->verify_interval, b);
		}
	}
	if (job->verify_pattern_len > WL_PATTERN_MAX)
		return opt_fail(&ctx, false, "verify_pattern has more than %d bytes",
		                WL_PATTERN_MAX);
	if ((job->dist == WL_DIST_ZONED || job->dist == WL_DIST_ZONED_ABS) &&
	    (job->nzones < 1 || job->nzones > WL_ZONES_MAX))
		return opt_fail(&ctx, false,
		                "random_distribution=%s has %u zones, expected 1 to %d",
		                opt_dist_name(job->dist), job->nzones, WL_ZONES_MAX);
	if (job->rw_nr < 1)
		return opt_fail(&ctx, false, "rw=%s:N needs N >= 1", wl_rw_name(job->rw));
	if (job->rw_skip && wl_rw_is_random(job->rw))
		return opt_fail(&ctx, false, "rw=%s: a skip applies to sequential patterns only",
		                wl_rw_name(job->rw));
	if (vwrites && job->rw_nr > 1)
		return opt_fail(
		    &ctx, false,
		    "%s cannot be combined with rw=%s:%u: runs of sequential I/O overlap "
		    "the random map's blocks",
		    vname, wl_rw_name(job->rw), job->rw_nr);
	if (job->blockalign && job->blockalign % WL_BS_MIN)
		return opt_fail(&ctx, false, "blockalign=%llu is not a multiple of %u",
		                (unsigned long long)job->blockalign, WL_BS_MIN);
	if (job->zero_buffers && job->refill_buffers)
		return opt_fail(&ctx, false, "zero_buffers and refill_buffers exclude each other");
	if (job->zero_buffers && job->buffer_compress_percentage)
		return opt_fail(&ctx, false,
		                "zero_buffers and buffer_compress_percentage exclude each other");
	if (job->verify != WL_VERIFY_NONE && job->dedupe_pct)
		return opt_fail(&ctx, false,
		                "verify and dedupe_percentage exclude each other (verify blocks "
		                "are unique by design)");
	if (job->zero_buffers && job->dedupe_pct)
		return opt_fail(&ctx, false,
		                "zero_buffers and dedupe_percentage exclude each other (zeros are "
		                "all duplicates)");
	if (job->dedupe_pct > 100 || job->dedupe_ws_pct > 100)
		return opt_fail(&ctx, false, "dedupe percentages must be from 0 to 100");
	if (job->flow > 1000)
		return opt_fail(&ctx, false, "flow=%u is not from 0 to 1000", job->flow);
	if (job->lat_target_ns && !(job->lat_pct > 0 && job->lat_pct <= 100))
		return opt_fail(&ctx, false, "latency_percentile=%g is not above 0 and at most 100",
		                job->lat_pct);
	if (job->lat_target_ns && job->engine == WL_ENGINE_PSYNC)
		return opt_fail(
		    &ctx, false,
		    "latency_target searches the queue depth, but ioengine=%s keeps one "
		    "I/O in flight; use io_uring or libaio",
		    job->engine_name);
	if (job->ss_dur_ns) {
		if ((unsigned)job->ss_kind > WL_SS_LAT || job->ss_kind == WL_SS_NONE ||
		    !(job->ss_limit >= 0) || !isfinite(job->ss_limit))
			return opt_fail(&ctx, false, "ss: invalid criterion");
		if (!job->ss_interval_ns || job->ss_dur_ns < job->ss_interval_ns)
			return opt_fail(
			    &ctx, false,
			    "ss_dur (%llu ms) must hold at least one ss_interval (%llu ms)",
			    (unsigned long long)(job->ss_dur_ns / OPT_NS_PER_MS),
			    (unsigned long long)(job->ss_interval_ns / OPT_NS_PER_MS));
		if (job->ss_dur_ns / job->ss_interval_ns > OPT_SS_SAMPLES_MAX)
			return opt_fail(&ctx, false,
			                "ss_dur / ss_interval is %llu samples, at most %u are kept",
			                (unsigned long long)(job->ss_dur_ns / job->ss_interval_ns),
			                OPT_SS_SAMPLES_MAX);
	}
	if ((job->cmdprio_pct[0] || job->cmdprio_pct[1]) && job->engine != WL_ENGINE_IO_URING &&
	    job->engine != WL_ENGINE_LIBAIO)
		return opt_fail(&ctx, false,
		                "cmdprio_percentage needs ioengine=io_uring or libaio (as in fio), "
		                "got ioengine=%s",
		                job->engine_name);
	for (int d = 0; d < 2; d++)
		if (job->cmdprio_pct[d] > 100 || job->cmdprio_class[d] < 1 ||
		    job->cmdprio_class[d] > 3 || job->cmdprio_level[d] > 7)
			return opt_fail(&ctx, false, "cmdprio values out of range");
	if (job->prio_level > 7 || job->prio_class > 3)
		return opt_fail(&ctx, false, "prio / prioclass out of range");
	if (job->verify_backlog && !vwrites)
		return opt_fail(
		    &ctx, false,
		    "verify_backlog checks written blocks: it needs verify=crc32c or meta "
		    "on a job that writes");
	if (job->coe > (WL_COE_READ | WL_COE_WRITE | WL_COE_VERIFY) ||
	    job->nignore[0] > WL_IGNORE_MAX || job->nignore[1] > WL_IGNORE_MAX ||
	    job->nignore[2] > WL_IGNORE_MAX)
		return opt_fail(&ctx, false, "continue_on_error / ignore_error out of range");
	if ((unsigned)job->numa_mpol > WL_MPOL_LOCAL)
		return opt_fail(&ctx, false, "invalid numa_mem_policy value %d",
		                (int)job->numa_mpol);
	return 0;
}
