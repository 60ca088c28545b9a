/*
 * buf.c - write buffer contents and verify blocks; see buf.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crc32c.h"
#include "workload/buf.h"

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

void wl_buf_fill(const struct wl_job *job, struct wl_rng *rng, uint8_t *buf, size_t len)
{
	if (job->zero_buffers) {
		memset(buf, 0, len);
		return;
	}
	buf_random(rng, buf, len);
	if (job->buffer_compress_percentage) {
		const size_t seg = 4096;
		for (size_t off = 0; off < len; off += seg) {
			size_t n = len - off < seg ? len - off : seg;
			size_t z = n * job->buffer_compress_percentage / 100;
			memset(buf + off + (n - z), 0, z);
		}
	}
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
