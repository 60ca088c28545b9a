/*
 * buf.h - what goes into write buffers, and how verify checks it.
 *
 * Plain writes use buffers filled once per slot (refill_buffers: before
 * every write): random bytes, zeros (zero_buffers), or random bytes of which
 * buffer_compress_percentage percent, in each 4 KiB segment, is a run of
 * zeros, so compressing drives and filesystems see that ratio.
 *
 * verify=crc32c writes blocks that can be recreated exactly: a 32-byte
 * header (magic, CRC-32C of the block, absolute offset, seed, generation,
 * length) followed by bytes from a generator keyed by (seed, offset,
 * generation).  Checking a block first compares the header and CRC; on any
 * mismatch the expected block is regenerated to name the first bad byte's
 * absolute offset.
 */
#ifndef RL_WORKLOAD_BUF_H
#define RL_WORKLOAD_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/gen.h"
#include "workload/job.h"

#define WL_VERIFY_MAGIC 0x726c7666u /* "rlvf" */

struct wl_vhdr {
	uint32_t magic;
	uint32_t crc;    /* CRC-32C of the whole block with this field zero */
	uint64_t offset; /* absolute target offset of the block */
	uint64_t seed;
	uint32_t gen; /* generation: which pass wrote it */
	uint32_t len; /* block length */
};

/*
 * dedupe_percentage: each write is a duplicate with that probability, else
 * unique.  Contents are a function of a 64-bit key, so a duplicate is made
 * by reusing a key: repeat reuses the last unique block's; working_set
 * draws one of nset keys (dedupe_working_set_percentage of the region's
 * smallest blocks), which are also the keys of the job's first unique
 * writes, so every duplicate matches a block written before or written by
 * another job soon.  dedupe_global: every such job uses one key set (a
 * fixed base), and job k of count writes its keys k, k + count, ..., so the
 * set is spread over them (as fio).
 */
#define WL_DEDUPE_GLOBAL_BASE 0x64656475706531ull /* "dedupe1" */

struct wl_dedupe {
	uint64_t base;      /* of the working set's keys */
	uint64_t nset;      /* keys in the working set */
	unsigned index;     /* this worker among the dedupe_global ones */
	unsigned count;     /* how many share the set (1 unless dedupe_global) */
	uint64_t uniques;   /* unique blocks so far */
	uint64_t last;      /* the last unique block's key */
	struct wl_rng pick; /* duplicate or not, and which */
	struct wl_rng keys; /* keys of unique blocks past the working set */
};

void wl_dedupe_init(struct wl_dedupe *d, const struct wl_job *job, uint64_t region_len,
                    uint64_t seed, unsigned index, unsigned count);

/** Fill @buf (@len bytes) for the next write of a dedupe_percentage job. */
void wl_dedupe_fill(const struct wl_job *job, struct wl_dedupe *d, uint8_t *buf, size_t len);

/*
 * verify=meta: every interval (verify_interval, or the whole block) of a
 * written block starts with this header, CRC-32C over the header; the rest
 * holds verify_pattern repeated from the interval's start (or random bytes
 * when there is none).  A block checks itself: the header must be intact
 * and name the offset it was read from and the interval's length, and the
 * pattern (if any) must follow, so a read job can check what an earlier
 * job or run wrote without knowing how it was written.
 */
#define WL_META_MAGIC 0x726c6d68u /* "rlmh" */

struct wl_mhdr {
	uint32_t magic;
	uint32_t len;    /* the interval's length */
	uint64_t offset; /* absolute target offset of the interval */
	uint64_t seq;    /* the writer's write number (for the reader's messages) */
	uint32_t writer; /* which worker wrote it */
	uint32_t crc;    /* CRC-32C of the header with this field zero */
};

/**
 * Bytes at the start of each interval that are not data: the header and the
 * digest of a checksum method (verify=md5 ...).  verify_offset swaps them
 * with the bytes at that offset of the interval once the interval is made,
 * and the check swaps them back first, as fio does.
 */
size_t wl_meta_head(const struct wl_job *job);

/** Fill @buf (@len bytes at target @offset) with meta intervals. */
void wl_meta_fill(const struct wl_job *job, struct wl_rng *rng, uint8_t *buf, size_t len,
                  uint64_t offset, uint64_t seq, uint32_t writer);

/**
 * Check a block read from @offset: 0, or -EILSEQ with the absolute offset
 * of the first bad byte in *@bad_offset and a description in @msg.
 */
int wl_meta_check(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                  uint64_t *bad_offset, char *msg, size_t msglen);

/**
 * verify_pattern as written into the block at @offset: %o's places hold the
 * offset (8 bytes, least significant first); into @out, its length.
 */
size_t wl_vpattern(const struct wl_job *job, uint64_t offset, uint8_t out[WL_PATTERN_MAX]);

/** Repeat @pat (@n bytes, n > 0) over @buf from its first byte. */
void wl_pattern_fill(uint8_t *buf, size_t len, const uint8_t *pat, size_t n);

/**
 * verify=pattern: check that a block read from @offset is verify_pattern
 * repeated; 0, or -EILSEQ with the first bad byte's offset and a message.
 */
int wl_pattern_check(const struct wl_job *job, const uint8_t *buf, size_t len, uint64_t offset,
                     uint64_t *bad_offset, char *msg, size_t msglen);

/** Fill @buf for a plain write according to the job's buffer options. */
void wl_buf_fill(const struct wl_job *job, struct wl_rng *rng, uint8_t *buf, size_t len);

/**
 * Whether a plain write of @job is scrambled (fio's rule): scramble_buffers
 * on, and no other option setting what writes carry (verify, refill_buffers,
 * buffer_pattern, compression, dedupe; zero_buffers unless scramble_buffers
 * was given too).
 */
bool wl_buf_scrambles(const struct wl_job *job);

/**
 * scramble_buffers: write @offset (of @buf's first byte) into one of the
 * first eight 8-byte words of a cache line of each 512-byte sector, the line
 * chosen by @now_ns and the offset, and @now_ns into bytes 48-63 of the
 * sector, so that each write differs from every other.
 */
void wl_buf_scramble(uint8_t *buf, size_t len, uint64_t offset, uint64_t now_ns);

/** Fill @buf with the verifiable block for (@offset, @seed, @gen). @len >= 32. */
void wl_verify_fill(uint8_t *buf, size_t len, uint64_t offset, uint64_t seed, uint32_t gen);

/**
 * Check a block read back from @offset.  Returns 0 if it is exactly what
 * wl_verify_fill wrote, else -EILSEQ with *bad_offset set to the absolute
 * offset of the first wrong byte and a description in @msg.
 */
int wl_verify_check(const uint8_t *buf, size_t len, uint64_t offset, uint64_t seed, uint32_t gen,
                    uint64_t *bad_offset, char *msg, size_t msglen);

#endif
