/*
 * buf.c - write buffer contents and verify blocks; see buf.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crc32c.h"
#include "workload/buf.h"
#include "workload/vcsum.h"

static void buf_random(struct wl_rng *rng, uint8_t *buf, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t v = wl_rng_next(rng);
		memcpy(buf + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = wl_rng_next(rng);
		memcpy(buf + i, &v, len - i);
	}
}

/* buffer_compress_percentage: that share of each 4 KiB segment becomes zeros. */
static void buf_shape(const struct wl_job *job, uint8_t *buf, size_t len)
{
	if (!job->buffer_compress_percentage)
		return;
	const size_t seg = 4096;
	for (size_t off = 0; off < len; off += seg) {
		size_t n = len - off < seg ? len - off : seg;
		size_t z = n * job->buffer_compress_percentage / 100;
		memset(buf + off + (n - z), 0, z);
	}
}

void wl_pattern_fill(uint8_t *buf, size_t len, const uint8_t *pat, size_t n)
{
	size_t have = n < len ? n : len;
	memcpy(buf, pat, have);
	/* double the filled part (a whole number of patterns) until the block is full */
	while (have < len) {
		size_t take = have < len - have ? have : len - have;
		memcpy(buf + have, buf, take);
		have += take;
	}
}

size_t wl_vpattern(const struct wl_job *job, uint64_t offset, uint8_t out[WL_PATTERN_MAX])
{
	memcpy(out, job->verify_pattern, job->verify_pattern_len);
	for (unsigned i = 0; i + 8 <= job->verify_pattern_len; i++)
		if (job->verify_pattern_ofs >> i & 1)
			for (unsigned b = 0; b < 8; b++)
				out[i + b] = (uint8_t)(offset >> (8 * b));
	return job->verify_pattern_len;
}

int wl_pattern_check(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                     uint64_t *bad_offset, char *msg, size_t msglen)
{
	uint8_t pat[WL_PATTERN_MAX];
	size_t np = wl_vpattern(job, offset, pat);
	for (size_t i = 0; i < len; i++) {
		uint8_t want = pat[i % np];
		if (buf[i] != want) {
			*bad_offset = offset + i;
			snprintf(
			    msg, msglen,
			    "pattern mismatch at offset %llu (block at %llu): 0x%02x, expected "
			    "0x%02x",
			    (unsigned long long)(offset + i), (unsigned long long)offset, buf[i],
			    want);
			return -EILSEQ;
		}
	}
	return 0;
}

void wl_buf_fill(const struct wl_job *job, struct wl_rng *rng, uint8_t *buf, size_t len)
{
	if (job->buffer_pattern_len) {
		wl_pattern_fill(buf, len, job->buffer_pattern, job->buffer_pattern_len);
		return;
	}
	if (job->zero_buffers) {
		memset(buf, 0, len);
		return;
	}
	buf_random(rng, buf, len);
	buf_shape(job, buf, len);
}

bool wl_buf_scrambles(const struct wl_job *job)
{
	if (!job->scramble_buffers || job->verify != WL_VERIFY_NONE || job->refill_buffers ||
	    job->buffer_pattern_len || job->buffer_compress_percentage || job->dedupe_pct)
		return false;
	return !job->zero_buffers || job->scramble_given;
}

void wl_buf_scramble(uint8_t *buf, size_t len, uint64_t offset, uint64_t now_ns)
{
	unsigned line = (unsigned)((now_ns ^ offset) & 7);
	uint64_t sec = now_ns / 1000000000ull, nsec = now_ns % 1000000000ull;

	for (size_t at = 0; at + 512 <= len; at += 512) {
		uint64_t off = offset + at;
		memcpy(buf + at + line * 64, &off, sizeof(off));
		memcpy(buf + at + 48, &sec, sizeof(sec));
		memcpy(buf + at + 56, &nsec, sizeof(nsec));
	}
}

/* A key of the working set: keyed by its index, so every holder of @base agrees. */
static uint64_t dedupe_set_key(const struct wl_dedupe *d, uint64_t i)
{
	uint64_t x = d->base ^ (i + 1) * 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void wl_dedupe_init(struct wl_dedupe *d, const struct wl_job *job, uint64_t region_len,
                    uint64_t seed, unsigned index, unsigned count)
{
	uint32_t minbs, maxbs;
	wl_job_bs_bounds(job, &minbs, &maxbs);
	memset(d, 0, sizeof(*d));
	/* dedupe_global: one working set for every such job, so a fixed base */
	d->base = job->dedupe_global ? WL_DEDUPE_GLOBAL_BASE : seed ^ 0x5deece66dull;
	d->index = job->dedupe_global ? index : 0;
	d->count = job->dedupe_global && count ? count : 1;
	d->nset = region_len / 100 * job->dedupe_ws_pct / minbs;
	if (d->nset < 1)
		d->nset = 1;
	wl_rng_seed(&d->pick, seed ^ 0xd1b54a32d192ed03ull);
	wl_rng_seed(&d->keys, seed ^ 0x8cb92ba72f3d8dd7ull);
}

void wl_dedupe_fill(const struct wl_job *job, struct wl_dedupe *d, uint8_t *buf, size_t len)
{
	uint64_t key;
	bool dup = d->uniques && wl_rng_below(&d->pick, 100) < job->dedupe_pct;

	if (dup && job->dedupe_working_set) {
		key = dedupe_set_key(d, wl_rng_below(&d->pick, d->nset));
	} else if (dup) {
		key = d->last; /* repeat: the previous unique block */
	} else {
		/* working_set: the first unique blocks are the set (spread over global jobs) */
		uint64_t i = d->index + d->uniques * d->count;
		key = job->dedupe_working_set && i < d->nset ? dedupe_set_key(d, i)
		                                             : wl_rng_next(&d->keys);
		d->uniques++;
		d->last = key;
	}
	struct wl_rng r;
	wl_rng_seed(&r, key);
	buf_random(&r, buf, len);
	buf_shape(job, buf, len);
}

static void verify_body(uint8_t *buf, size_t len, uint64_t offset, uint64_t seed, uint32_t gen)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed ^ (offset * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)gen << 48));
	buf_random(&r, buf + sizeof(struct wl_vhdr), len - sizeof(struct wl_vhdr));
}

void wl_verify_fill(uint8_t *buf, size_t len, uint64_t offset, uint64_t seed, uint32_t gen)
{
	struct wl_vhdr h = {
	    .magic = WL_VERIFY_MAGIC,
	    .crc = 0,
	    .offset = offset,
	    .seed = seed,
	    .gen = gen,
	    .len = (uint32_t)len,
	};

	verify_body(buf, len, offset, seed, gen);
	memcpy(buf, &h, sizeof(h));
	h.crc = rl_crc32c(0, buf, len);
	memcpy(buf, &h, sizeof(h));
}

int wl_verify_check(const uint8_t *buf, size_t len, uint64_t offset, uint64_t seed, uint32_t gen,
                    uint64_t *bad_offset, char *msg, size_t msglen)
{
	struct wl_vhdr h;
	uint8_t *want;
	uint32_t crc;
	size_t i;

	memcpy(&h, buf, sizeof(h));
	if (h.magic == WL_VERIFY_MAGIC && h.offset == offset && h.seed == seed && h.gen == gen &&
	    h.len == len) {
		uint32_t zero = 0;
		crc = rl_crc32c(0, buf, offsetof(struct wl_vhdr, crc));
		crc = rl_crc32c(crc, &zero, sizeof(zero));
		crc = rl_crc32c(crc, buf + offsetof(struct wl_vhdr, offset),
		                len - offsetof(struct wl_vhdr, offset));
		if (crc == h.crc)
			return 0;
	}
	/* Something is wrong: rebuild the expected block to name the first bad byte. */
	want = malloc(len);
	if (!want) {
		*bad_offset = offset;
		snprintf(msg, msglen, "verify failed in the block at offset %llu",
		         (unsigned long long)offset);
		return -EILSEQ;
	}
	wl_verify_fill(want, len, offset, seed, gen);
	for (i = 0; i < len && buf[i] == want[i]; i++)
		;
	*bad_offset = offset + (i < len ? i : 0);
	if (h.magic != WL_VERIFY_MAGIC)
		snprintf(msg, msglen,
		         "block at offset %llu has no verify header (never written, or "
		         "overwritten); first wrong byte at offset %llu",
		         (unsigned long long)offset, (unsigned long long)*bad_offset);
	else if (h.offset != offset)
		snprintf(msg, msglen,
		         "block at offset %llu holds the block written for offset %llu "
		         "(misplaced write)",
		         (unsigned long long)offset, (unsigned long long)h.offset);
	else
		snprintf(msg, msglen,
		         "data mismatch at offset %llu (block at %llu: byte %zu of %zu is 0x%02x, "
		         "expected 0x%02x)",
		         (unsigned long long)*bad_offset, (unsigned long long)offset, i, len,
		         i < len ? buf[i] : 0, i < len ? want[i] : 0);
	free(want);
	return -EILSEQ;
}

/* --- verify=meta --- */

static size_t meta_interval(const struct wl_job *job, size_t len)
{
	return job->verify_interval && job->verify_interval < len ? (size_t)job->verify_interval
	                                                          : len;
}

static uint32_t meta_crc(const struct wl_mhdr *h)
{
	struct wl_mhdr c = *h;
	c.crc = 0;
	return rl_crc32c(0, &c, sizeof(c));
}

/*
 * A checksum method (verify=md5 ...): its digest follows the header and
 * covers the rest of the interval; into @out (none: nothing written).
 */
size_t wl_meta_head(const struct wl_job *job)
{
	return sizeof(struct wl_mhdr) + wl_vcsum_len(job->verify_csum);
}

/* verify_offset: swap the head of the interval at @p with the bytes at the offset. */
static void meta_swap(const struct wl_job *job, uint8_t *p)
{
	size_t hs = wl_meta_head(job);
	uint8_t t[sizeof(struct wl_mhdr) + WL_VCSUM_MAX];

	if (!job->verify_offset)
		return;
	memcpy(t, p, hs);
	memcpy(p, p + job->verify_offset, hs);
	memcpy(p + job->verify_offset, t, hs);
}

static void meta_digest(const struct wl_job *job, const uint8_t *p, size_t n, uint8_t *out)
{
	size_t at = sizeof(struct wl_mhdr) + wl_vcsum_len(job->verify_csum);
	uint8_t d[WL_VCSUM_MAX];

	if (!job->verify_csum || at > n)
		return;
	if (wl_vcsum(job->verify_csum, p + at, n - at, d) != 0)
		memset(d, 0, sizeof(d)); /* libcrypto failed: the check fails the same way */
	memcpy(out, d, wl_vcsum_len(job->verify_csum));
}

void wl_meta_fill(const struct wl_job *job, struct wl_rng *rng, uint8_t *buf, size_t len,
                  uint64_t offset, uint64_t seq, uint32_t writer)
{
	size_t step = meta_interval(job, len);
	uint8_t pat[WL_PATTERN_MAX];
	wl_vpattern(job, offset, pat);

	for (size_t at = 0; at < len; at += step) {
		size_t n = len - at < step ? len - at : step;
		uint8_t *p = buf + at;
		if (job->verify_pattern_len)
			for (size_t i = 0; i < n; i++)
				p[i] = pat[i % job->verify_pattern_len];
		else
			buf_random(rng, p, n);
		struct wl_mhdr h = {
		    .magic = WL_META_MAGIC,
		    .len = (uint32_t)n,
		    .offset = offset + at,
		    .seq = seq,
		    .writer = writer,
		};
		h.crc = meta_crc(&h);
		memcpy(p, &h, sizeof(h));
		meta_digest(job, p, n, p + sizeof(h));
		meta_swap(job, p);
	}
}

static int meta_check_all(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                          size_t step, uint8_t *copy, uint64_t *bad_offset, char *msg,
                          size_t msglen);

int wl_meta_check(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                  uint64_t *bad_offset, char *msg, size_t msglen)
{
	size_t step = meta_interval(job, len);
	uint8_t *copy = NULL;

	if (job->verify_offset && !(copy = malloc(step))) {
		*bad_offset = offset;
		snprintf(msg, msglen, "out of memory checking the block at offset %llu",
		         (unsigned long long)offset);
		return -ENOMEM;
	}
	int rc = meta_check_all(job, buf, len, offset, step, copy, bad_offset, msg, msglen);
	free(copy);
	return rc;
}

static int meta_check_all(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                          size_t step, uint8_t *copy, uint64_t *bad_offset, char *msg,
                          size_t msglen)
{
	uint8_t pat[WL_PATTERN_MAX];
	wl_vpattern(job, offset, pat);
	for (size_t at = 0; at < len; at += step) {
		size_t n = len - at < step ? len - at : step;
		const uint8_t *p = buf + at;
		struct wl_mhdr h;
		if (copy) { /* verify_offset: the header back in its place */
			memcpy(copy, p, n);
			meta_swap(job, copy);
			p = copy;
		}
		memcpy(&h, p, sizeof(h));
		*bad_offset = offset + at;
		if (h.magic != WL_META_MAGIC) {
			snprintf(msg, msglen,
			         "no verify header at offset %llu (never written, or overwritten)",
			         (unsigned long long)(offset + at));
			return -EILSEQ;
		}
		if (h.crc != meta_crc(&h)) {
			snprintf(msg, msglen,
			         "the verify header at offset %llu is corrupt (bad CRC)",
			         (unsigned long long)(offset + at));
			return -EILSEQ;
		}
		if (h.offset != offset + at || h.len != n) {
			snprintf(msg, msglen,
			         "offset %llu holds the %u-byte interval written for offset %llu "
			         "(misplaced write)",
			         (unsigned long long)(offset + at), h.len,
			         (unsigned long long)h.offset);
			return -EILSEQ;
		}
		size_t dlen = wl_vcsum_len(job->verify_csum);
		if (dlen) {
			uint8_t d[WL_VCSUM_MAX];
			meta_digest(job, p, n, d);
			if (memcmp(d, p + sizeof(h), dlen) != 0) {
				snprintf(msg, msglen,
				         "%s checksum mismatch in the %zu-byte interval at "
				         "offset %llu (write %llu of worker %u)",
				         wl_vcsum_name(job->verify_csum), n,
				         (unsigned long long)(offset + at),
				         (unsigned long long)h.seq, h.writer);
				return -EILSEQ;
			}
		}
		for (size_t i = sizeof(h) + dlen; job->verify_pattern_len && i < n; i++) {
			uint8_t want = pat[i % job->verify_pattern_len];
			if (p[i] != want) {
				*bad_offset = offset + at + i;
				snprintf(msg, msglen,
				         "pattern mismatch at offset %llu: 0x%02x, expected 0x%02x "
				         "(write %llu of worker %u)",
				         (unsigned long long)*bad_offset, p[i], want,
				         (unsigned long long)h.seq, h.writer);
				return -EILSEQ;
			}
		}
	}
	return 0;
}
