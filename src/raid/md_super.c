/*
 * md_super.c - md v1.2 superblock encoding (md_super.h).  Fields are
 * written and read one by one at their md_p.h offsets in little endian, so
 * nothing depends on this machine's struct layout or byte order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "raid/layout.h"
#include "raid/md_super.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

uint32_t md_super_csum(const uint8_t *buf)
{
	uint32_t max_dev = get32(buf + 220);
	size_t size = 256 + (size_t)(max_dev > MD_SB_MAX_DEVS ? MD_SB_MAX_DEVS : max_dev) * 2;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i + 4 <= size; i += 4)
		if (i != 216) /* sb_csum counts as zero */
			sum += get32(buf + i);
	if (size - i == 2)
		sum += get16(buf + i);
	return (uint32_t)((sum & 0xffffffffu) + (sum >> 32));
}

void md_super_encode(const struct md_super *sb, uint8_t *buf)
{
	memset(buf, 0, MD_SB_BYTES);
	put32(buf + 0, MD_SB_MAGIC);
	put32(buf + 4, 1);
	put32(buf + 8, sb->feature_map);
	memcpy(buf + 16, sb->set_uuid, 16);
	memcpy(buf + 32, sb->set_name, strnlen(sb->set_name, 32));
	put64(buf + 64, sb->ctime);
	put32(buf + 72, (uint32_t)sb->level);
	put32(buf + 76, sb->layout);
	put64(buf + 80, sb->size);
	put32(buf + 88, sb->chunk);
	put32(buf + 92, sb->raid_disks);
	if (sb->feature_map & MD_FEATURE_PPL) {
		put16(buf + 96, sb->ppl_offset);
		put16(buf + 98, sb->ppl_size);
	} else {
		put32(buf + 96, (uint32_t)sb->bitmap_offset);
	}
	put32(buf + 100, (uint32_t)sb->level); /* new_level: as level when not reshaping */
	put32(buf + 116, sb->layout);          /* new_layout */
	put32(buf + 120, sb->chunk);           /* new_chunk */
	put64(buf + 128, sb->data_offset);
	put64(buf + 136, sb->data_size);
	put64(buf + 144, sb->super_offset);
	put64(buf + 152, sb->recovery_offset);
	put32(buf + 160, sb->dev_number);
	put32(buf + 164, sb->cnt_corrected_read);
	memcpy(buf + 168, sb->device_uuid, 16);
	put64(buf + 192, sb->utime);
	put64(buf + 200, sb->events);
	put64(buf + 208, sb->resync_offset);
	put32(buf + 220, sb->max_dev);
	for (uint32_t i = 0; i < sb->max_dev && i < MD_SB_MAX_DEVS; i++)
		put16(buf + 256 + 2 * i, sb->roles[i]);
	put32(buf + 216, md_super_csum(buf));
}

int md_super_decode(const uint8_t *buf, struct md_super *sb, char *msg, size_t msglen)
{
	uint32_t csum;

	memset(sb, 0, sizeof(*sb));
	if (get32(buf) != MD_SB_MAGIC) {
		snprintf(msg, msglen,
		         "no md superblock (magic 0x%08x, expected 0x%08x at offset %u)",
		         get32(buf), MD_SB_MAGIC, MD_SB_OFFSET_BYTES);
		return -EINVAL;
	}
	if (get32(buf + 4) != 1) {
		snprintf(msg, msglen, "md superblock major version %u; only version 1 is read",
		         get32(buf + 4));
		return -EINVAL;
	}
	sb->max_dev = get32(buf + 220);
	if (sb->max_dev > MD_SB_MAX_DEVS) {
		snprintf(msg, msglen, "md superblock lists %u devices (at most %u)", sb->max_dev,
		         MD_SB_MAX_DEVS);
		return -EINVAL;
	}
	csum = md_super_csum(buf);
	if (csum != get32(buf + 216)) {
		snprintf(msg, msglen, "md superblock checksum 0x%08x is wrong (expected 0x%08x)",
		         get32(buf + 216), csum);
		return -EINVAL;
	}
	sb->super_offset = get64(buf + 144);
	if (sb->super_offset != MD_SB_OFFSET_BYTES / 512) {
		snprintf(msg, msglen, "md superblock records super_offset %llu: not version 1.2",
		         (unsigned long long)sb->super_offset);
		return -EINVAL;
	}
	sb->feature_map = get32(buf + 8);
	memcpy(sb->set_uuid, buf + 16, 16);
	memcpy(sb->set_name, buf + 32, 32);
	sb->set_name[32] = 0;
	sb->ctime = get64(buf + 64) & 0xffffffffffull;
	sb->level = (int32_t)get32(buf + 72);
	sb->layout = get32(buf + 76);
	sb->size = get64(buf + 80);
	sb->chunk = get32(buf + 88);
	sb->raid_disks = get32(buf + 92);
	sb->bitmap_offset = (int32_t)get32(buf + 96);
	sb->ppl_offset = get16(buf + 96);
	sb->ppl_size = get16(buf + 98);
	sb->data_offset = get64(buf + 128);
	sb->data_size = get64(buf + 136);
	sb->recovery_offset = get64(buf + 152);
	sb->dev_number = get32(buf + 160);
	sb->cnt_corrected_read = get32(buf + 164);
	memcpy(sb->device_uuid, buf + 168, 16);
	sb->utime = get64(buf + 192) & 0xffffffffffull;
	sb->events = get64(buf + 200);
	sb->resync_offset = get64(buf + 208);
	for (uint32_t i = 0; i < sb->max_dev; i++)
		sb->roles[i] = get16(buf + 256 + 2 * i);
	if (sb->raid_disks == 0 || sb->raid_disks > MD_SB_MAX_DEVS ||
	    sb->dev_number >= sb->max_dev) {
		snprintf(msg, msglen,
		         "md superblock is inconsistent (raid_disks %u, dev_number %u, "
		         "max_dev %u)",
		         sb->raid_disks, sb->dev_number, sb->max_dev);
		return -EINVAL;
	}
	return 0;
}

void md_bitmap_encode(const struct md_bitmap_super *b, uint8_t *buf)
{
	memset(buf, 0, 256);
	put32(buf + 0, MD_BITMAP_MAGIC);
	put32(buf + 4, MD_BITMAP_VERSION);
	memcpy(buf + 8, b->uuid, 16);
	put64(buf + 24, b->events);
	put64(buf + 32, b->events_cleared);
	put64(buf + 40, b->sync_size);
	put32(buf + 52, b->chunksize);
	put32(buf + 56, b->daemon_sleep);
	put32(buf + 64, b->sectors_reserved);
}

int md_bitmap_decode(const uint8_t *buf, struct md_bitmap_super *b, char *msg, size_t msglen)
{
	memset(b, 0, sizeof(*b));
	if (get32(buf) != MD_BITMAP_MAGIC) {
		snprintf(msg, msglen, "no md bitmap where the superblock says (magic 0x%08x)",
		         get32(buf));
		return -EINVAL;
	}
	memcpy(b->uuid, buf + 8, 16);
	b->events = get64(buf + 24);
	b->events_cleared = get64(buf + 32);
	b->sync_size = get64(buf + 40);
	b->chunksize = get32(buf + 52);
	b->daemon_sleep = get32(buf + 56);
	b->sectors_reserved = get32(buf + 64);
	if (b->chunksize < 512 || (b->chunksize & (b->chunksize - 1))) {
		snprintf(msg, msglen, "md bitmap chunk size %u is not a power of two",
		         b->chunksize);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every field md(...) uses, against md's rules and the member's size, so a
 * damaged or crafted superblock is refused with the field named instead of
 * putting data over the metadata or overflowing an offset.
 */
int md_super_check(const struct md_super *sb, uint64_t member_bytes, char *msg, size_t msglen)
{
	uint64_t sectors = member_bytes / 512, meta_end = sb->super_offset + MD_SB_BYTES / 512;
	bool striped = sb->level == 0 || sb->level == 5 || sb->level == 6 || sb->level == 10;

	if (sb->feature_map & MD_FEATURE_BITMAP_OFFSET) {
		int64_t at = (int64_t)sb->super_offset + sb->bitmap_offset;
		if (sb->bitmap_offset <= 0 || sb->data_offset > sectors ||
		    at + (int64_t)(MD_SB_BYTES / 512) > (int64_t)sb->data_offset) {
			snprintf(msg, msglen,
			         "bitmap_offset %d sectors lies outside the metadata area "
			         "(between the superblock and data_offset)",
			         sb->bitmap_offset);
			return -EINVAL;
		}
		meta_end = (uint64_t)at + MD_SB_BYTES / 512;
	}
	if (sb->data_offset < meta_end || sb->data_offset >= sectors) {
		snprintf(msg, msglen,
		         "data_offset %llu sectors: the data must start after the superblock%s "
		         "(sector %llu) and inside the member (%llu sectors)",
		         (unsigned long long)sb->data_offset,
		         meta_end > sb->super_offset + MD_SB_BYTES / 512 ? " and bitmap" : "",
		         (unsigned long long)meta_end, (unsigned long long)sectors);
		return -EINVAL;
	}
	if (!sb->size || sb->size > sectors - sb->data_offset) {
		snprintf(
		    msg, msglen,
		    "size %llu sectors does not fit the member's %llu sectors after data_offset "
		    "%llu",
		    (unsigned long long)sb->size, (unsigned long long)sectors,
		    (unsigned long long)sb->data_offset);
		return -EINVAL;
	}
	if (sb->data_size < sb->size || sb->data_size > sectors - sb->data_offset) {
		snprintf(msg, msglen,
		         "data_size %llu sectors: the member's data area must hold the used size "
		         "(%llu sectors) and fit the member's %llu sectors after data_offset %llu",
		         (unsigned long long)sb->data_size, (unsigned long long)sb->size,
		         (unsigned long long)sectors, (unsigned long long)sb->data_offset);
		return -EINVAL;
	}
	if (sb->events > MD_EVENTS_MAX) {
		snprintf(msg, msglen,
		         "events %llu: past %llu, more changes than any array makes (damaged, "
		         "or about to wrap to 0)",
		         (unsigned long long)sb->events, (unsigned long long)MD_EVENTS_MAX);
		return -EINVAL;
	}
	if (striped && (sb->chunk < 8 || (sb->chunk & (sb->chunk - 1)))) {
		snprintf(msg, msglen,
		         "chunksize %u sectors is not a power of two of at least 4 KiB", sb->chunk);
		return -EINVAL;
	}
	if (sb->raid_disks > RAID_MAX_MEMBERS || sb->raid_disks < (sb->level == 6 ? 4u : 2u) ||
	    (sb->level == 5 && sb->raid_disks < 3)) {
		snprintf(msg, msglen, "raid_disks %u: %s takes %u to %u members here",
		         sb->raid_disks, md_level_name(sb->level),
		         sb->level == 6   ? 4
		         : sb->level == 5 ? 3
		                          : 2,
		         RAID_MAX_MEMBERS);
		return -EINVAL;
	}
	if ((sb->feature_map & MD_FEATURE_RECOVERY_OFFSET) && sb->recovery_offset > sb->size) {
		snprintf(msg, msglen, "recovery_offset %llu sectors lies past the used size %llu",
		         (unsigned long long)sb->recovery_offset, (unsigned long long)sb->size);
		return -EINVAL;
	}
	return 0;
}

const char *md_level_name(int32_t level)
{
	switch (level) {
	case MD_LEVEL_LINEAR:
		return "linear";
	case 0:
		return "raid0";
	case 1:
		return "raid1";
	case 4:
		return "raid4";
	case 5:
		return "raid5";
	case 6:
		return "raid6";
	case 10:
		return "raid10";
	}
	return "?";
}
