/*
 * vcsum.c - verify= checksum methods; see vcsum.h.
 *
 * CRC parameters (reflected unless said): crc64 polynomial
 * 0x95AC9329AC4BC9B5 in reflected form (Jones), start 0, as fio's; crc32 the IEEE polynomial
 * 0xEDB88320 (zlib's); crc16 polynomial 0x8005 (0xA001 reflected), start 0;
 * crc7 polynomial 0x09 most significant bit first, start 0; xxhash is XXH32
 * with seed 1, stored as a number like the CRCs.  Bitwise loops:
 * verify digests are taken once per block, not on a hot path worth tables.
 */
#include <errno.h>
#include <string.h>

#include <openssl/evp.h>
#include <xxhash.h>

#include "workload/vcsum.h"

static const struct {
	const char *name;
	size_t len;
} vcsum_tab[WL_VCSUM_COUNT] = {
    /* clang-format off */
    [WL_VCSUM_NONE] = {"meta", 0},     [WL_VCSUM_MD5] = {"md5", 16},
    [WL_VCSUM_CRC64] = {"crc64", 8},       [WL_VCSUM_CRC32] = {"crc32", 4},
    [WL_VCSUM_CRC16] = {"crc16", 2},       [WL_VCSUM_CRC7] = {"crc7", 1},
    [WL_VCSUM_SHA1] = {"sha1", 20},        [WL_VCSUM_SHA256] = {"sha256", 32},
    [WL_VCSUM_SHA512] = {"sha512", 64},    [WL_VCSUM_SHA3_224] = {"sha3-224", 28},
    [WL_VCSUM_SHA3_256] = {"sha3-256", 32}, [WL_VCSUM_SHA3_384] = {"sha3-384", 48},
    [WL_VCSUM_SHA3_512] = {"sha3-512", 64}, [WL_VCSUM_XXHASH] = {"xxhash", 4},
    /* clang-format on */
};

static const char *const vcsum_opt[WL_VCSUM_COUNT] = {
    [WL_VCSUM_NONE] = "verify=meta",         [WL_VCSUM_MD5] = "verify=md5",
    [WL_VCSUM_CRC64] = "verify=crc64",       [WL_VCSUM_CRC32] = "verify=crc32",
    [WL_VCSUM_CRC16] = "verify=crc16",       [WL_VCSUM_CRC7] = "verify=crc7",
    [WL_VCSUM_SHA1] = "verify=sha1",         [WL_VCSUM_SHA256] = "verify=sha256",
    [WL_VCSUM_SHA512] = "verify=sha512",     [WL_VCSUM_SHA3_224] = "verify=sha3-224",
    [WL_VCSUM_SHA3_256] = "verify=sha3-256", [WL_VCSUM_SHA3_384] = "verify=sha3-384",
    [WL_VCSUM_SHA3_512] = "verify=sha3-512", [WL_VCSUM_XXHASH] = "verify=xxhash",
};

const char *wl_vcsum_option(enum wl_vcsum m)
{
	return (unsigned)m < WL_VCSUM_COUNT ? vcsum_opt[m] : "verify=?";
}

const char *wl_vcsum_name(enum wl_vcsum m)
{
	return (unsigned)m < WL_VCSUM_COUNT ? vcsum_tab[m].name : "?";
}

size_t wl_vcsum_len(enum wl_vcsum m)
{
	return (unsigned)m < WL_VCSUM_COUNT ? vcsum_tab[m].len : 0;
}

static uint64_t crc_reflected(const uint8_t *p, size_t n, uint64_t poly, uint64_t crc)
{
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (crc & 1 ? poly : 0);
	}
	return crc;
}

static uint8_t crc7(const uint8_t *p, size_t n)
{
	unsigned crc = 0; /* 7 bits, kept in bits 7..1 */
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = (crc & 0x80) ? ((crc << 1) ^ (0x09 << 1)) & 0xff : (crc << 1) & 0xff;
	}
	return (uint8_t)(crc >> 1);
}

static const EVP_MD *vcsum_md(enum wl_vcsum m)
{
	switch (m) {
	case WL_VCSUM_MD5:
		return EVP_md5();
	case WL_VCSUM_SHA1:
		return EVP_sha1();
	case WL_VCSUM_SHA256:
		return EVP_sha256();
	case WL_VCSUM_SHA512:
		return EVP_sha512();
	case WL_VCSUM_SHA3_224:
		return EVP_sha3_224();
	case WL_VCSUM_SHA3_256:
		return EVP_sha3_256();
	case WL_VCSUM_SHA3_384:
		return EVP_sha3_384();
	case WL_VCSUM_SHA3_512:
		return EVP_sha3_512();
	default:
		return NULL;
	}
}

int wl_vcsum(enum wl_vcsum m, const void *p, size_t n, uint8_t out[WL_VCSUM_MAX])
{
	uint64_t c;
	const EVP_MD *md = vcsum_md(m);

	memset(out, 0, WL_VCSUM_MAX);
	if (md) {
		unsigned got = 0;
		if (EVP_Digest(p, n, out, &got, md, NULL) != 1 || got != wl_vcsum_len(m))
			return -EIO;
		return 0;
	}
	switch (m) {
	case WL_VCSUM_CRC64:
		c = crc_reflected(p, n, 0x95AC9329AC4BC9B5ull, 0);
		break;
	case WL_VCSUM_CRC32:
		c = ~crc_reflected(p, n, 0xEDB88320u, 0xffffffffu) & 0xffffffffu;
		break;
	case WL_VCSUM_CRC16:
		c = crc_reflected(p, n, 0xA001u, 0);
		break;
	case WL_VCSUM_CRC7:
		c = crc7(p, n);
		break;
	case WL_VCSUM_XXHASH:
		c = XXH32(p, n, 1); /* fio's seed */
		break;
	default:
		c = 0; /* none */
		break;
	}
	for (size_t i = 0; i < wl_vcsum_len(m); i++)
		out[i] = (uint8_t)(c >> (8 * i));
	return 0;
}
