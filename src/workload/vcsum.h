/*
 * vcsum.h - the checksum methods of verify= (fio's names): one table gives
 * each method's name and digest length and computes it.
 *
 * Design: the digests come from OpenSSL's libcrypto (md5, sha1, sha2, sha3
 * through EVP) and libxxhash (xxhash: XXH32 with seed 1, as fio's); the CRCs
 * fio offers (crc7, crc16, crc64) are small bitwise loops over their
 * polynomials here.  A digest is
 * at most WL_VCSUM_MAX bytes; verify=meta's block format carries it (buf.h).
 */
#ifndef RL_WORKLOAD_VCSUM_H
#define RL_WORKLOAD_VCSUM_H

#include <stddef.h>
#include <stdint.h>

#define WL_VCSUM_MAX 64 /* sha512 */

enum wl_vcsum {
	WL_VCSUM_NONE = 0, /* verify=meta: the header alone */
	WL_VCSUM_MD5,
	WL_VCSUM_CRC64,
	WL_VCSUM_CRC32,
	WL_VCSUM_CRC16,
	WL_VCSUM_CRC7,
	WL_VCSUM_SHA1,
	WL_VCSUM_SHA256,
	WL_VCSUM_SHA512,
	WL_VCSUM_SHA3_224,
	WL_VCSUM_SHA3_256,
	WL_VCSUM_SHA3_384,
	WL_VCSUM_SHA3_512,
	WL_VCSUM_XXHASH,
	WL_VCSUM_COUNT
};

/** The method's fio name ("md5"), or "?" out of range. */
const char *wl_vcsum_name(enum wl_vcsum m);

/** "verify=md5" and the like, for messages ("verify=meta" for none). */
const char *wl_vcsum_option(enum wl_vcsum m);

/** Digest bytes of method @m (0 for none, at most WL_VCSUM_MAX). */
size_t wl_vcsum_len(enum wl_vcsum m);

/**
 * Digest of @n bytes at @p into @out (wl_vcsum_len(@m) bytes, CRCs little
 * endian); 0, or -EIO when libcrypto fails.
 */
int wl_vcsum(enum wl_vcsum m, const void *p, size_t n, uint8_t out[WL_VCSUM_MAX]);

#endif
