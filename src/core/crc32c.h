/*
 * crc32c.h - CRC-32C (Castagnoli), as used by iSCSI, ext4 and fio's verify.
 *
 * Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at
 * run time), a slicing-by-8 table otherwise.  crc32c(0, "123456789", 9) is
 * 0xE3069283.
 */
#ifndef RL_CORE_CRC32C_H
#define RL_CORE_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Continue a CRC: pass 0 to start; the result is final (pre/post inversion
 * included), so rl_crc32c(rl_crc32c(0, a, n), b, m) == CRC of a || b.
 * Thread-safe; the first call builds the tables.
 */
uint32_t rl_crc32c(uint32_t crc, const void *data, size_t len);

/** For tests: the portable slicing-by-8 path, same contract as rl_crc32c(). */
uint32_t rl_crc32c_sw(uint32_t crc, const void *data, size_t len);

/** For tests and reports: true when rl_crc32c() uses the SSE4.2 instruction. */
bool rl_crc32c_hw(void);

#endif
