/*
 * parity_math.h - P and Q through ISA-L: generation, read-modify-write
 * update, reconstruction of up to two missing blocks, and raid6's
 * syndrome check that names the wrong member.
 *
 * Every function works on one row of a stripe: k data blocks given in
 * syndrome slot order (parity_layout.h), P, and for raid6 Q, all @len
 * bytes.  @len must be a multiple of 32 and every pointer 32-byte aligned
 * (ISA-L's xor_gen/pq_gen contract); the engine's buffers are 64-byte
 * aligned and its lengths whole 512-byte blocks.
 */
#ifndef RL_RAID_PARITY_MATH_H
#define RL_RAID_PARITY_MATH_H

#include <stddef.h>
#include <stdint.h>

/** Most data blocks in a row (ISA-L's pq_gen limit is far above it). */
#define PARITY_MAX_DATA 62

/**
 * P (and Q when @q is not NULL) of @k data blocks.  @data[i] may be a
 * shared zero block.
 */
void parity_gen(unsigned k, size_t len, void *const *data, void *p, void *q);

/**
 * Rebuild the missing blocks of a row in place.  @blocks holds k data
 * blocks (slot order), then P, then Q when @nparity is 2; bit i of
 * @missing marks blocks[i] as unknown (its buffer is written).  At most
 * @nparity blocks may be missing.  Returns 0 or -EINVAL when too many are.
 */
int parity_recover(unsigned k, unsigned nparity, size_t len, void *const *blocks, uint64_t missing);

/** @v[@nsrc] = XOR of @v[0..nsrc-1] (ISA-L xor_gen). */
void parity_xor(unsigned nsrc, size_t len, void **v);

/** acc ^= src over @len bytes, through @tmp (@len bytes of scratch). */
void parity_xor_into(uint8_t *acc, const uint8_t *src, uint8_t *tmp, size_t len);

/** GF(2^8) coefficient of data slot @slot in Q: 2^slot. */
uint8_t parity_q_coef(unsigned slot);

/**
 * raid6 check of one block-sized row (@len bytes): 0 when P and Q both
 * match the data; otherwise which block is wrong: 1 + data slot, or
 * -1 for P, -2 for Q, and -3 when no single block explains the mismatch.
 * @scratch needs 2 * @len bytes (32-byte aligned).
 */
int parity_syndrome_check(unsigned k, size_t len, void *const *blocks, uint8_t *scratch);

#endif
