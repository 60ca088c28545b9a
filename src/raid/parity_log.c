/*
 * parity_log.c - journal / partial parity log records (parity_log.h).
 * Fields are stored little endian at fixed offsets; the CRC-32C covers the
 * header (with its CRC field zero) and then the payload.
 *
 *   0 magic, 4 kind, 8 seq, 16 stripe, 24 lo, 32 hi, 40 nentries,
 *   44 crc, 48 payload bytes, 64 entries of 24 bytes: member(4) len(4)
 *   offset(8) end(8)
 */
#include <errno.h>
#include <string.h>

#include "core/crc32c.h"
#include "raid/parity_log.h"

static void le_put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le_get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void parity_log_encode(const struct parity_log_hdr *h, uint8_t *hdr, const uint8_t *payload)
{
	uint32_t crc;

	memset(hdr, 0, PARITY_LOG_HDR);
	le_put(hdr + 0, PARITY_LOG_MAGIC, 4);
	le_put(hdr + 4, h->kind, 4);
	le_put(hdr + 8, h->seq, 8);
	le_put(hdr + 16, h->stripe, 8);
	le_put(hdr + 24, h->lo, 8);
	le_put(hdr + 32, h->hi, 8);
	le_put(hdr + 40, h->nentries, 4);
	le_put(hdr + 48, h->payload, 8);
	for (uint32_t i = 0; i < h->nentries && i < PARITY_LOG_ENTRIES; i++) {
		uint8_t *e = hdr + 64 + 24 * i;
		le_put(e, h->e[i].member, 4);
		le_put(e + 4, h->e[i].len, 4);
		le_put(e + 8, h->e[i].offset, 8);
		le_put(e + 16, h->e[i].end, 8);
	}
	crc = rl_crc32c(0, hdr, PARITY_LOG_HDR);
	if (payload && h->payload)
		crc = rl_crc32c(crc, payload, h->payload);
	le_put(hdr + 44, crc, 4);
}

int parity_log_decode(const uint8_t *hdr, const uint8_t *payload, size_t avail,
                      struct parity_log_hdr *h)
{
	uint8_t copy[PARITY_LOG_HDR];
	uint32_t crc;

	memset(h, 0, sizeof(*h));
	if (le_get(hdr, 4) != PARITY_LOG_MAGIC)
		return -EINVAL;
	h->kind = (uint32_t)le_get(hdr + 4, 4);
	h->seq = le_get(hdr + 8, 8);
	h->stripe = le_get(hdr + 16, 8);
	h->lo = le_get(hdr + 24, 8);
	h->hi = le_get(hdr + 32, 8);
	h->nentries = (uint32_t)le_get(hdr + 40, 4);
	h->payload = le_get(hdr + 48, 8);
	if (h->nentries > PARITY_LOG_ENTRIES || h->payload > avail || h->lo >= h->hi)
		return -EINVAL;
	memcpy(copy, hdr, PARITY_LOG_HDR);
	memset(copy + 44, 0, 4);
	crc = rl_crc32c(0, copy, PARITY_LOG_HDR);
	if (h->payload)
		crc = rl_crc32c(crc, payload, h->payload);
	if (crc != (uint32_t)le_get(hdr + 44, 4))
		return -EINVAL;
	for (uint32_t i = 0; i < h->nentries; i++) {
		const uint8_t *e = hdr + 64 + 24 * i;
		h->e[i].member = (uint32_t)le_get(e, 4);
		h->e[i].len = (uint32_t)le_get(e + 4, 4);
		h->e[i].offset = le_get(e + 8, 8);
		h->e[i].end = le_get(e + 16, 8);
	}
	return 0;
}
