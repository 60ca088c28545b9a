/*
 * opt_parse.c - what every job option setter shares: messages, "did you
 * mean" suggestions, enumerated values and the value parsers.
 *
 * Design: a setter never formats its own "WHERE: option 'NAME': " prefix;
 * opt_fail does, from the context the table lookup built (see options.c),
 * so every message names the option as the user spelled it and where it was
 * given.  The parsers check a whole value before anything is stored, so a
 * failed wl_job_set leaves the job unchanged.  Numbers with units go
 * through core/units.c so they mean the same as in target specs.
 */
#include "workload/opt_priv.h"

#include "core/spec.h"
#include "core/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- messages --- */

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
__attribute__((format(printf, 3, 4))) int opt_fail(const struct opt_ctx *ctx, bool named,
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

/* The closest of @names (NULL-terminated list of pointers) or NULL. */
const char *opt_suggest_from(const char *typed, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_score = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t score;
		if (names[i] && rl_suggest_close(typed, names[i], &score) && score < best_score) {
			best = names[i];
			best_score = score;
		}
	}
	return best;
}

/* --- enumerated values --- */

const struct opt_choice *opt_find_choice(const struct opt_choice *choices, const char *text)
{
	for (const struct opt_choice *c = choices; c->text; c++)
		if (strcmp(c->text, text) == 0)
			return c;
	return NULL;
}

/* "a, b, c" into @buf. */
const char *opt_choice_list(const struct opt_choice *choices, char *buf, size_t len)
{
	size_t pos = 0;
	buf[0] = '\0';
	for (const struct opt_choice *c = choices; c->text; c++)
		opt_append(buf, len, &pos, "%s%s", c == choices ? "" : ", ", c->text);
	return buf;
}

/* " (did you mean 'x'?)" or "" into @buf. */
const char *opt_choice_hint(const struct opt_choice *choices, const char *text, char *buf,
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

/* ioengine and verify: "ioengine 'libaio' is not supported by raidlab (supported: ...)". */
int opt_choice_unsupported(const struct opt_def *def, const char *value, const struct opt_ctx *ctx)
{
	char list[256];
	return opt_fail(ctx, false, "%s '%s' is not supported by raidlab (supported: %s)",
	                ctx->given, value, opt_choice_list(def->choices, list, sizeof(list)));
}

/* ioengine and verify: the value's choice in def->choices, or the refusal. */
int opt_take_choice(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
                    const struct opt_choice **out)
{
	int ret = opt_need_value(def, value, ctx);

	if (ret)
		return ret;
	*out = opt_find_choice(def->choices, value);
	return *out ? 0 : opt_choice_unsupported(def, value, ctx);
}

/* --- value parsers shared by the setters --- */

int opt_need_value(const struct opt_def *def, const char *value, const struct opt_ctx *ctx)
{
	if (value)
		return 0;
	return opt_fail(ctx, true, "needs a value (%s=<%s>)", ctx->given, def->info.type);
}

int opt_parse_bool(const char *value, bool *out, const struct opt_ctx *ctx)
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
int opt_parse_uint(const struct opt_def *def, const char *value, uint64_t min, uint64_t max,
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
int opt_parse_percent(const struct opt_def *def, const char *value, uint32_t *out,
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

/*
 * A block size in bytes within [1, WL_BS_MAX], as fio takes any.  Whether
 * the target takes it is the target's logical block size's to say, when
 * the job meets its target (run_group.c): a buffered regular file takes
 * any (cmd_run.c), a device or an O_DIRECT file its sector.
 */
bool opt_bs_ok(uint64_t bs)
{
	return bs >= 1 && bs <= WL_BS_MAX;
}

/* A decimal number without sign, hex or inf/nan ("1.2", "0.5", "2e-1"). */
bool opt_parse_double(const char *s, double *out)
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

/*
 * A list of numbers and ranges from 0 to 63 ("0-3,6"), as a mask; with
 * @all, "all" is every one.  Returns false on anything else.
 */
bool opt_parse_idlist(const char *value, bool all, uint64_t *out)
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

/* An option with two words: @no sets *out false, @yes sets it true. */
int opt_two_words(const struct opt_def *def, const char *value, const struct opt_ctx *ctx,
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
