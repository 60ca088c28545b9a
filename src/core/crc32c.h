/*
 * crc32c.h - CRC-32C (Castagnoli), as used by iSCSI, ext4 and fio's verify.
 *
 * Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at
 * run time), a slicing-by-8 table otherwise.  crc32c(0, "123456789", 9) is
 * 0xE3069283.
 */
#ifndef RL_CORE_CRC32C_H
#define RL_CORE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/** Continue a CRC: pass 0 to start; the result is final (pre/post inversion included). */
uint32_t rl_crc32c(uint32_t crc, const void *data, size_t len);

#endif
