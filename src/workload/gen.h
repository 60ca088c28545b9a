/*
 * gen.h - where the next I/O goes: offsets, sizes and directions.
 *
 * A generator walks a job's region [offset, offset + size) for one worker:
 *  - sequential patterns keep one position per direction and wrap at the
 *    end of the region;
 *  - "random" with the random map (fio's default) visits every block of the
 *    region exactly once per loop, in a pseudo-random order: a keyed
 *    bijection on [0, 2^k) (a small Feistel network) with cycle-walking down
 *    to the block count, so no per-block memory is needed;
 *  - norandommap draws blocks uniformly with replacement;
 *  - zipf:theta and pareto:h draw skewed block numbers (rejection-inversion
 *    for Zipf, a power law for Pareto); hot blocks are scattered over the
 *    region with the same bijection so they are not all at the start;
 *  - zoned / zoned_abs pick a zone by its access share, then a block in it
 *    uniformly (zones lie in region order, as fio's);
 *  - rw=X:N: a sequential pattern skips N bytes after each I/O (negative N
 *    goes back, wrapping at the start); a random one does runs of N
 *    sequential I/Os from each random offset.
 * Block sizes come from bs or bssplit; mixed patterns choose the direction
 * by rwmixread.  Everything is driven by one seeded xoshiro256** stream, so
 * a seed reproduces the exact sequence.
 */
#ifndef RL_WORKLOAD_GEN_H
#define RL_WORKLOAD_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/io.h"
#include "workload/job.h"

#define WL_GEN_DIRS 3 /* read, write, trim: the directions with a block size */

struct wl_rng {
	uint64_t s[4];
};

void wl_rng_seed(struct wl_rng *r, uint64_t seed);

static inline uint64_t wl_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/** Next 64 random bits (xoshiro256**). */
static inline uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = wl_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = wl_rng_rotl(s[3], 45);
	return result;
}

/** Uniform in [0, n) (n > 0), without modulo bias worth mentioning for n < 2^40. */
static inline uint64_t wl_rng_below(struct wl_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)wl_rng_next(r) * n) >> 64);
}

/** Uniform double in [0, 1). */
static inline double wl_rng_unit(struct wl_rng *r)
{
	return (double)(wl_rng_next(r) >> 11) * 0x1.0p-53;
}

/**
 * A keyed bijection on [0, n): the random map.  Four Feistel rounds over a
 * domain of a x b >= n values (a = ceil(sqrt(n)), b = ceil(n / a), so at
 * most a - 1 values lie beyond n), stepping past images >= n: the cost of
 * the next offset is the same at any device size and any fill of the map.
 * When n is a power of four the domain is n itself and the rounds are the
 * binary ones (XOR on halves), which keeps the sequences that results
 * published with earlier versions were made with.
 */
struct wl_perm {
	uint64_t n;       /* domain size */
	unsigned half;    /* power of four: bits per Feistel half */
	uint64_t mask;    /* power of four: (1 << half) - 1 */
	uint64_t a, b;    /* otherwise: the two radices, a x b >= n */
	bool pow4;        /* n is a power of four (the binary rounds) */
	uint64_t keys[4]; /* round keys */
};

/* How many counter values wl_perm_next maps at once (independent chains the CPU overlaps). */
#define WL_PERM_LANES 8

/** A position in a pass over the map (wl_perm_next); zeroed to start. */
struct wl_perm_pos {
	uint64_t hi, lo;               /* the next counter value to map, as its two digits */
	uint64_t ahead[WL_PERM_LANES]; /* values mapped ahead, in pass order */
	unsigned nahead, taken;        /* how many there are; how many were returned */
};

void wl_perm_init(struct wl_perm *p, uint64_t n, uint64_t seed);
/** The image of @i (< n). */
uint64_t wl_perm_map(const struct wl_perm *p, uint64_t i);
/** The next value of a pass that visits each of [0, n) once; passes repeat. */
uint64_t wl_perm_next(const struct wl_perm *p, struct wl_perm_pos *pos);

struct wl_gen {
	const struct wl_job *job;
	struct wl_rng rng;
	uint64_t region_start;         /* bytes */
	uint64_t region_len;           /* bytes, a multiple of unit */
	uint32_t unit;                 /* smallest block size: the random map's block */
	uint64_t nunits;               /* region_len / unit */
	uint64_t seq_pos[RL_OP_COUNT]; /* sequential position per direction, relative */
	struct wl_perm_pos map_pos;    /* random map: where this loop's pass is */
	struct wl_perm perm;           /* random map and the hot-block scatter */
	/* zipf rejection-inversion constants */
	double zipf_hx0, zipf_hn, zipf_s;
	/* pareto exponent */
	double pareto_pow;
	/* zoned / zoned_abs: each zone's first map block and block count */
	uint64_t zone_start[WL_ZONES_MAX], zone_n[WL_ZONES_MAX];
	/* rw=X:N: the sequential skip (bytes, may be negative; a multiple of the
	   device block) and, for random patterns, I/Os left in the current run */
	int64_t skip;
	uint32_t run_left;
	uint64_t run_next; /* random runs: the next (relative) offset */
	/* zonemode=strided: the zone's start (relative), bytes done in it, position in it */
	uint64_t szone_base, szone_bytes, szone_pos[RL_OP_COUNT];
	/* ... and with the random map, a pass over the zone's szone_units blocks */
	uint64_t szone_units;
	struct wl_perm szone_perm;
	struct wl_perm_pos szone_ppos;
};

/**
 * Set a generator up for @job over [start, start + len) of a target whose
 * logical block size is @block; @seed is the worker's stream seed.
 * Returns 0 or -EINVAL (region smaller than one block).
 */
int wl_gen_init(struct wl_gen *g, const struct wl_job *job, uint64_t start, uint64_t len,
                uint32_t block, uint64_t seed);

/** Start a new loop over the region (resets the random map and positions). */
void wl_gen_rewind(struct wl_gen *g);

/** The direction of the next I/O. */
enum rl_op wl_gen_op(struct wl_gen *g);

/** The size of the next I/O of direction @op (bs or a draw from its bssplit). */
uint32_t wl_gen_len(struct wl_gen *g, enum rl_op op);

/**
 * The absolute offset of the next I/O of direction @op and length @len;
 * *len may be shortened at the end of the region.
 */
uint64_t wl_gen_offset(struct wl_gen *g, enum rl_op op, uint32_t *len);

#endif
