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
 * A pattern of verify_pattern and buffer_pattern: 0xHEX (bytes in the order
 * written) or "text" / 'text', at most WL_PATTERN_MAX bytes, into @pat;
 * its length, or -EINVAL with the message.
 */
static int opt_parse_pattern(const struct opt_def *def, const char *value,
                             uint8_t pat[WL_PATTERN_MAX], const struct opt_ctx *ctx)
{
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
	return (int)n;
bad:
	return opt_fail(ctx, true,
	                "expected 0x and hex digits or a quoted string, at most %d bytes "
	                "(0xaa555aa5, \"abcd\"), got '%s'",
	                WL_PATTERN_MAX, value);
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
	int n = opt_parse_pattern(def, value, pat, ctx);
	if (n < 0)
		return n;
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
	int n = opt_parse_pattern(def, value, pat, ctx);
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
