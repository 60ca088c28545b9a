/*
 * crc32c.c - CRC-32C (Castagnoli, reflected polynomial 0x82F63B78).
 *
 * Internally everything works on the raw CRC register; rl_crc32c() adds the
 * pre- and post-inversion, so a CRC can be continued across calls by
 * passing the previous result back in.
 *
 * Two implementations, which must agree bit for bit:
 *
 *  - Software: slicing-by-8.  Table k holds the register after one byte
 *    followed by k zero bytes, so eight bytes are folded in per step with
 *    eight independent lookups.  Bytes are assembled explicitly, so the code
 *    is independent of host endianness and alignment.
 *
 *  - SSE4.2 (x86-64): the crc32 instruction, 8 bytes at a time.  It has a
 *    latency of 3 cycles but a throughput of 1 per cycle, so long buffers
 *    are cut into three adjacent blocks whose CRCs are computed in
 *    interleaved, independent streams (the 2nd and 3rd from a zero
 *    register) and then joined.  Joining uses linearity over GF(2):
 *        reg(r, A || B) = zeros(reg(r, A), |B|) ^ reg(0, B)
 *    where zeros(c, n) is the register after n zero bytes, a linear map of c
 *    that is tabulated (4 x 256 entries) for the two block sizes used.
 *
 * Tables are built once, at first use, under pthread_once(); the CPU is
 * checked at the same time and the choice stored in a function pointer.
 */
#include "core/crc32c.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#define CRC32C_POLY 0x82f63b78u

typedef uint32_t (*crc_update_fn)(uint32_t reg, const unsigned char *p, size_t len);

static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static uint32_t sw_table[8][256];
static crc_update_fn crc_update;
static bool crc_hw;

/* ---- software: slicing-by-8 ---- */

static void sw_build(void)
{
	for (unsigned b = 0; b < 256; b++) {
		uint32_t c = b;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		sw_table[0][b] = c;
	}
	for (unsigned b = 0; b < 256; b++) {
		uint32_t c = sw_table[0][b];
		for (int k = 1; k < 8; k++) {
			c = (c >> 8) ^ sw_table[0][c & 0xff];
			sw_table[k][b] = c;
		}
	}
}

static inline uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t sw_update(uint32_t reg, const unsigned char *p, size_t len)
{
	const uint32_t(*t)[256] = (const uint32_t(*)[256])sw_table;

	while (len >= 8) {
		uint32_t lo = reg ^ le32(p), hi = le32(p + 4);
		reg = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^
		      t[4][lo >> 24] ^ t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		reg = (reg >> 8) ^ t[0][(reg ^ *p++) & 0xff];
	return reg;
}

/* ---- hardware: SSE4.2 crc32, three interleaved streams ---- */

#if defined(__x86_64__)
#define HW_HAVE  1
#define HW_LONG  2048 /* bytes per stream in a long round (6 KiB in all) */
#define HW_SHORT 256  /* bytes per stream in a short round (768 bytes) */

static uint32_t hw_shift_long[4][256], hw_shift_short[4][256];

/* Tabulate c -> zeros(c, len) (see above) from the images of the 32 basis bits. */
static void hw_build_shift(uint32_t t[4][256], size_t len)
{
	uint32_t basis[32];
	for (int j = 0; j < 32; j++) {
		uint32_t c = UINT32_C(1) << j;
		for (size_t n = 0; n < len; n++)
			c = (c >> 8) ^ sw_table[0][c & 0xff];
		basis[j] = c;
	}
	for (int k = 0; k < 4; k++) {
		for (unsigned b = 0; b < 256; b++) {
			uint32_t c = 0;
			for (int bit = 0; bit < 8; bit++)
				if (b & (1u << bit))
					c ^= basis[8 * k + bit];
			t[k][b] = c;
		}
	}
}

static inline uint32_t hw_shift(const uint32_t t[4][256], uint32_t c)
{
	return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^ t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v)); /* x86 is little-endian, as crc32 expects */
	return v;
}

/* Three streams over blocks of @blk bytes each while 3 * blk bytes remain. */
#define HW_ROUNDS(blk, table)                                                                      \
	while (len >= 3 * (size_t)(blk)) {                                                         \
		unsigned long long c1 = 0, c2 = 0;                                                 \
		const unsigned char *end = p + (blk);                                              \
		do {                                                                               \
			c0 = __builtin_ia32_crc32di(c0, load64(p));                                \
			c1 = __builtin_ia32_crc32di(c1, load64(p + (blk)));                        \
			c2 = __builtin_ia32_crc32di(c2, load64(p + 2 * (blk)));                    \
			p += 8;                                                                    \
		} while (p < end);                                                                 \
		c0 = hw_shift(table, (uint32_t)c0) ^ (uint32_t)c1;                                 \
		c0 = hw_shift(table, (uint32_t)c0) ^ (uint32_t)c2;                                 \
		p += 2 * (size_t)(blk);                                                            \
		len -= 3 * (size_t)(blk);                                                          \
	}

__attribute__((target("sse4.2"))) static uint32_t hw_update(uint32_t reg, const unsigned char *p,
                                                            size_t len)
{
	while (len > 0 && ((uintptr_t)p & 7)) {
		reg = __builtin_ia32_crc32qi(reg, *p++);
		len--;
	}
	unsigned long long c0 = reg;
	HW_ROUNDS(HW_LONG, hw_shift_long)
	HW_ROUNDS(HW_SHORT, hw_shift_short)
	while (len >= 8) {
		c0 = __builtin_ia32_crc32di(c0, load64(p));
		p += 8;
		len -= 8;
	}
	reg = (uint32_t)c0;
	while (len--)
		reg = __builtin_ia32_crc32qi(reg, *p++);
	return reg;
}
#else
#define HW_HAVE 0
#endif

/* ---- dispatch ---- */

static void crc_init(void)
{
	sw_build();
	crc_update = sw_update;
#if HW_HAVE
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse4.2")) {
		hw_build_shift(hw_shift_long, HW_LONG);
		hw_build_shift(hw_shift_short, HW_SHORT);
		crc_update = hw_update;
		crc_hw = true;
	}
#endif
}

uint32_t rl_crc32c(uint32_t crc, const void *data, size_t len)
{
	pthread_once(&crc_once, crc_init);
	return ~crc_update(~crc, data, len);
}

uint32_t rl_crc32c_sw(uint32_t crc, const void *data, size_t len)
{
	pthread_once(&crc_once, crc_init);
	return ~sw_update(~crc, data, len);
}

bool rl_crc32c_hw(void)
{
	pthread_once(&crc_once, crc_init);
	return crc_hw;
}
