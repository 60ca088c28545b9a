/*
 * campaign_blocks.h - what the seeded campaigns share: a seedable
 * splitmix64 generator, and 4 KiB blocks that prove which write they hold
 * (a header with the block number and write version, and a CRC-32C of the
 * payload, the engine's verify=crc32c idea).
 */
#ifndef RL_TEST_CAMPAIGN_BLOCKS_H
#define RL_TEST_CAMPAIGN_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/crc32c.h"

#define BS    4096u
#define MAGIC 0x52414944u /* "RAID" */

static uint64_t rng_state;

static inline uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rnd(uint64_t lo, uint64_t hi)
{
	return lo + rng() % (hi - lo + 1);
}

struct blk_hdr {
	uint32_t magic, block, version, crc;
};

static inline void blk_fill(uint8_t *p, uint32_t block, uint32_t version)
{
	struct blk_hdr h = {MAGIC, block, version, 0};
	uint64_t x = ((uint64_t)block << 32 | version) * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = sizeof(h); i < BS; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, 8);
	}
	h.crc = rl_crc32c(0, p + sizeof(h), BS - sizeof(h));
	memcpy(p, &h, sizeof(h));
}

/* Does @p hold write @version of @block, intact? */
static inline bool blk_check(const uint8_t *p, uint32_t block, uint32_t version)
{
	struct blk_hdr h;

	memcpy(&h, p, sizeof(h));
	return h.magic == MAGIC && h.block == block && h.version == version &&
	       h.crc == rl_crc32c(0, p + sizeof(h), BS - sizeof(h));
}

#endif
