/*
 * fuzz_md_super.c - libFuzzer target for md v1.2 superblock decoding.
 *
 * Design: the input becomes the 4 KiB read at a member's superblock offset
 * (padded with zeros, or cut).  Decoding must either fail with a
 * NUL-terminated message or succeed with consistent fields; a decoded
 * superblock must re-encode to bytes that decode again to the same fields
 * (the array state too: events, resync and recovery offsets, feature bits,
 * dev_number and every role) and carry a correct checksum.  It is then
 * checked against a member size taken from the input (md_super_check): a
 * superblock accepted there must keep its metadata before its data and its
 * data inside the member, with no sector count overflowing into bytes.  To
 * get past the checksum often, every input is also tried with its checksum
 * fixed up.
 */
#include "raid/md_super.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An accepted superblock fits a member of @bytes: metadata, then data, no overflow. */
static void fuzz_md_check(const struct md_super *sb, uint64_t bytes)
{
	char msg[256];

	msg[0] = 0;
	if (md_super_check(sb, bytes, msg, sizeof(msg))) {
		if (!msg[0] || strnlen(msg, sizeof(msg)) == sizeof(msg))
			abort();
		return;
	}
	if (sb->data_offset < 16 || sb->data_offset > bytes / 512 || !sb->size ||
	    sb->size > bytes / 512 - sb->data_offset || !sb->raid_disks || sb->raid_disks > 64)
		abort();
	if ((sb->feature_map & MD_FEATURE_BITMAP_OFFSET) &&
	    (sb->bitmap_offset <= 0 ||
	     8 + (int64_t)sb->bitmap_offset + 8 > (int64_t)sb->data_offset))
		abort();
	if ((sb->feature_map & MD_FEATURE_RECOVERY_OFFSET) && sb->recovery_offset > sb->size)
		abort();
}

static void fuzz_md_one(const uint8_t *buf, uint64_t member_bytes)
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
	    again.resync_offset != sb.resync_offset ||
	    again.recovery_offset != sb.recovery_offset || again.feature_map != sb.feature_map ||
	    again.dev_number != sb.dev_number || again.max_dev != sb.max_dev ||
	    memcmp(again.roles, sb.roles, sizeof(sb.roles[0]) * sb.max_dev))
		abort();
	fuzz_md_check(&sb, member_bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = calloc(1, MD_SB_BYTES);
	uint64_t member_bytes = 64ull << 20;
	uint32_t csum;

	if (!buf)
		return 0;
	memcpy(buf, data, size < MD_SB_BYTES ? size : MD_SB_BYTES);
	/* the member's size: the 8 bytes after the superblock, if any */
	if (size >= MD_SB_BYTES + 8)
		memcpy(&member_bytes, data + MD_SB_BYTES, 8);
	fuzz_md_one(buf, member_bytes);
	csum = md_super_csum(buf);
	for (int i = 0; i < 4; i++)
		buf[216 + i] = (uint8_t)(csum >> (8 * i));
	fuzz_md_one(buf, member_bytes);
	free(buf);
	return 0;
}
