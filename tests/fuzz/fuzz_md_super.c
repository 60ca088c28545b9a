/*
 * fuzz_md_super.c - libFuzzer target for md v1.2 superblock decoding.
 *
 * Design: the input becomes the 4 KiB read at a member's superblock offset
 * (padded with zeros, or cut).  Decoding must either fail with a
 * NUL-terminated message or succeed with consistent fields; a decoded
 * superblock must re-encode to bytes that decode again to the same fields
 * and carry a correct checksum.  To get past the checksum often, every
 * input is also tried with its checksum fixed up.
 */
#include "raid/md_super.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_md_one(const uint8_t *buf)
{
	struct md_super sb, again;
	uint8_t out[MD_SB_BYTES];
	char msg[128];

	msg[0] = 0;
	if (md_super_decode(buf, &sb, msg, sizeof(msg))) {
		if (!msg[0] || strnlen(msg, sizeof(msg)) == sizeof(msg))
			abort();
		return;
	}
	if (sb.max_dev > MD_SB_MAX_DEVS || sb.dev_number >= sb.max_dev || !sb.raid_disks)
		abort();
	md_super_encode(&sb, out);
	if (md_super_decode(out, &again, msg, sizeof(msg)))
		abort();
	if (again.level != sb.level || again.layout != sb.layout || again.size != sb.size ||
	    again.chunk != sb.chunk || again.raid_disks != sb.raid_disks ||
	    again.data_offset != sb.data_offset || again.events != sb.events ||
	    memcmp(again.roles, sb.roles, sizeof(sb.roles[0]) * sb.max_dev))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = calloc(1, MD_SB_BYTES);
	uint32_t csum;

	if (!buf)
		return 0;
	memcpy(buf, data, size < MD_SB_BYTES ? size : MD_SB_BYTES);
	fuzz_md_one(buf);
	csum = md_super_csum(buf);
	for (int i = 0; i < 4; i++)
		buf[216 + i] = (uint8_t)(csum >> (8 * i));
	fuzz_md_one(buf);
	free(buf);
	return 0;
}
