/*
 * opt_verify.c - the option setters of what is written and checked:
 * verify, verify_pattern, buffer_pattern and dedupe_mode.
 *
 * Design: which verify modes combine with which patterns is a rule across
 * options and lives in wl_job_validate (opt_validate.c); these setters only
 * parse their own value.
 */
#include "workload/opt_priv.h"

#include "workload/vcsum.h"

#include <stdlib.h>
#include <string.h>

/*
 * A checksum method: verify=meta's self-checked intervals with the
 * method's digest of each (vcsum.h, in bits 8 and up), so a reading job
 * checks them as fio's do.
 */
#define OPT_VCSUM(m) (WL_VERIFY_META | (m) << 8)

const struct opt_choice opt_verify_choices[] = {
    {"crc32c", WL_VERIFY_CRC32C},
    {"md5", OPT_VCSUM(WL_VCSUM_MD5)},
    {"crc64", OPT_VCSUM(WL_VCSUM_CRC64)},
    {"crc32", OPT_VCSUM(WL_VCSUM_CRC32)},
    {"crc16", OPT_VCSUM(WL_VCSUM_CRC16)},
    {"crc7", OPT_VCSUM(WL_VCSUM_CRC7)},
    {"sha1", OPT_VCSUM(WL_VCSUM_SHA1)},
    {"sha256", OPT_VCSUM(WL_VCSUM_SHA256)},
    {"sha512", OPT_VCSUM(WL_VCSUM_SHA512)},
    {"sha3-224", OPT_VCSUM(WL_VCSUM_SHA3_224)},
    {"sha3-256", OPT_VCSUM(WL_VCSUM_SHA3_256)},
    {"sha3-384", OPT_VCSUM(WL_VCSUM_SHA3_384)},
    {"sha3-512", OPT_VCSUM(WL_VCSUM_SHA3_512)},
    {"xxhash", OPT_VCSUM(WL_VCSUM_XXHASH)},
    {"meta", WL_VERIFY_META},
    {"crc32c-intel", WL_VERIFY_CRC32C},
    {"pattern", WL_VERIFY_PATTERN},
    {"none", WL_VERIFY_NONE},
    {"0", WL_VERIFY_NONE},
    {NULL, 0},
};

int opt_set_verify(struct wl_job *job, const struct opt_def *def, const char *value,
                   const struct opt_ctx *ctx)
{
	const struct opt_choice *c;
	int ret = opt_take_choice(def, value, ctx, &c);
	if (ret)
		return ret;
	job->verify = (enum wl_verify)(c->value & 0xff);
	job->verify_csum = (uint8_t)(c->value >> 8);
	job->verify_given = c->value != WL_VERIFY_NONE; /* a method was chosen */
	return 0;
}

/*
 * One element of a pattern at @v into @pat from byte @n (fio's syntax):
 * "text" or 'text'; 0xHEX (bytes in the order written; a following 0x
 * starts the next element); a decimal integer (its 32-bit value's bytes,
 * least significant first, as few as it needs; 0 is one zero byte; it
 * ends where a 0x begins: -120xff is -12 then 0xff); %o, the block's
 * offset (8 bytes, least significant first), marked in *@ofs.  The next
 * element's start, or NULL.
 */
static const char *opt_pattern_elem(const char *v, uint8_t pat[WL_PATTERN_MAX], size_t *n,
                                    uint64_t *ofs)
{
	if (*v == '"' || *v == '\'') {
		const char *e = strchr(v + 1, *v);
		if (!e || *n + (size_t)(e - v - 1) > WL_PATTERN_MAX || e == v + 1)
			return NULL;
		memcpy(pat + *n, v + 1, (size_t)(e - v - 1));
		*n += (size_t)(e - v - 1);
		return e + 1;
	}
	if (v[0] == '%' && v[1] == 'o') {
		if (!ofs || *n + 8 > WL_PATTERN_MAX)
			return NULL;
		*ofs |= 1ull << *n;
		memset(pat + *n, 0, 8);
		*n += 8;
		return v + 2;
	}
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		const char *h = v + 2;
		size_t digits = strspn(h, "0123456789abcdefABCDEF");
		/* 0xff0x14: the digits stop before the next 0x */
		if (digits >= 2 && (h[digits - 1] == '0') && (h[digits] == 'x' || h[digits] == 'X'))
			digits--;
		if (!digits || *n + (digits + 1) / 2 > WL_PATTERN_MAX)
			return NULL;
		for (size_t i = 0; i < digits;) {
			/* an odd count: the first byte has one digit */
			size_t take = (i == 0 && digits % 2) ? 1 : 2;
			char b[3] = {h[i], take == 2 ? h[i + 1] : '\0', '\0'};
			pat[(*n)++] = (uint8_t)strtoul(b, NULL, 16);
			i += take;
		}
		return h + digits;
	}
	if (*v == '-' || *v == '+' || (*v >= '0' && *v <= '9')) {
		char num[24];
		size_t len = strspn(v + 1, "0123456789") + 1;
		if (len >= 2 && v[len - 1] == '0' && (v[len] == 'x' || v[len] == 'X'))
			len--; /* -120xff: the 0 starts the hex element */
		if (len >= sizeof(num))
			return NULL;
		memcpy(num, v, len);
		num[len] = '\0';
		char *end;
		long long x = strtoll(num, &end, 10);
		if (*end || end == num || x > INT32_MAX || x < INT32_MIN)
			return NULL;
		uint32_t u = (uint32_t)x;
		do {
			if (*n >= WL_PATTERN_MAX)
				return NULL;
			pat[(*n)++] = (uint8_t)u;
			u >>= 8;
		} while (u);
		return v + len;
	}
	return NULL;
}

/*
 * A pattern of verify_pattern (@ofs non-NULL: %o allowed) or buffer_pattern:
 * elements one after another (opt_pattern_elem), at most WL_PATTERN_MAX
 * bytes, into @pat; its length, or -EINVAL with the message.
 */
static int opt_parse_pattern(const struct opt_def *def, const char *value,
                             uint8_t pat[WL_PATTERN_MAX], uint64_t *ofs, const struct opt_ctx *ctx)
{
	size_t n = 0;
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	if (ofs)
		*ofs = 0;
	for (const char *v = value; *v;) {
		v = opt_pattern_elem(v, pat, &n, ofs);
		if (!v)
			return opt_fail(
			    ctx, true,
			    "expected 0x and hex digits, quoted strings, decimal numbers%s "
			    "one after another, at most %d bytes (0xaa555aa5, \"abcd\"-12), "
			    "got '%s'",
			    ofs ? " or %o (the block's offset)" : "", WL_PATTERN_MAX, value);
	}
	return (int)n;
}

/*
 * verify_pattern: what fills verify=meta blocks after their header (all of a
 * verify=pattern block), checked on read.  Given without verify=, fio writes
 * a header and the pattern: verify=meta here.
 */
int opt_set_vpattern(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	uint8_t pat[WL_PATTERN_MAX];
	uint64_t ofs = 0;
	int n = opt_parse_pattern(def, value, pat, &ofs, ctx);
	if (n < 0)
		return n;
	job->verify_pattern_ofs = ofs;
	memcpy(job->verify_pattern, pat, (size_t)n);
	job->verify_pattern_len = (uint32_t)n;
	if (!job->verify_given)
		job->verify = WL_VERIFY_META;
	return 0;
}

/* buffer_pattern: the bytes every write carries, repeated (fio's buffer_pattern). */
int opt_set_bpattern(struct wl_job *job, const struct opt_def *def, const char *value,
                     const struct opt_ctx *ctx)
{
	uint8_t pat[WL_PATTERN_MAX];
	int n = opt_parse_pattern(def, value, pat, NULL, ctx);
	if (n < 0)
		return n;
	memcpy(job->buffer_pattern, pat, (size_t)n);
	job->buffer_pattern_len = (uint32_t)n;
	return 0;
}

/* dedupe_mode=repeat|working_set */
int opt_set_dedupe_mode(struct wl_job *job, const struct opt_def *def, const char *value,
                        const struct opt_ctx *ctx)
{
	return opt_two_words(def, value, ctx, "repeat", "working_set", &job->dedupe_working_set);
}
