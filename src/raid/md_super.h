/*
 * md_super.h - md's version-1.2 superblock: encode, decode, checksum.
 *
 * The layout is md's struct mdp_superblock_1 (linux include/uapi/linux/
 * raid/md_p.h), little endian, 256 bytes of fixed fields followed by two
 * bytes per device slot (dev_roles).  Version 1.2 keeps it 4 KiB from the
 * start of each member (super_offset = 8 sectors); the data starts at
 * data_offset.  Everything md counts in 512-byte sectors stays in sectors
 * here, as on disk.
 *
 *   0   magic 0xa92b4efc, major_version 1, feature_map, pad
 *   16  set_uuid[16], set_name[32]
 *   64  ctime, level, layout, size (used sectors per member)
 *   88  chunksize (sectors), raid_disks, bitmap_offset (signed, sectors from sb)
 *   100 new_level, reshape_position, delta_disks, new_layout, new_chunk, new_offset
 *   128 data_offset, data_size, super_offset, recovery_offset
 *   160 dev_number, cnt_corrected_read, device_uuid[16], devflags,
 *       bblog_shift, bblog_size, bblog_offset
 *   192 utime, events, resync_offset, sb_csum, max_dev, pad to 256
 *   256 dev_roles[max_dev]: role of each dev_number (0xffff spare, 0xfffe faulty)
 *
 * sb_csum is md's calc_sb_1_csum: the little-endian 32-bit words of the
 * first 256 + 2*max_dev bytes (sb_csum taken as 0) summed in 64 bits, then
 * the high half folded into the low half.
 */
#ifndef RL_RAID_MD_SUPER_H
#define RL_RAID_MD_SUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MD_SB_MAGIC        0xa92b4efcu
#define MD_SB_OFFSET_BYTES 4096u /* v1.2: 8 sectors from the start */
#define MD_SB_BYTES        4096u /* what raidlab reads and writes */
#define MD_SB_MAX_DEVS     384u  /* dev_roles that fit in 1 KiB (mdadm's limit) */
#define MD_ROLE_SPARE      0xffffu
#define MD_ROLE_FAULTY     0xfffeu
#define MD_RESYNC_DONE     UINT64_MAX /* resync_offset of a clean array */
/*
 * The highest event count accepted: far beyond any array's life (a change
 * a microsecond for 290,000 years), far enough below 2^64 that the counter
 * cannot wrap to 0, which would make the freshest member the stalest.
 */
#define MD_EVENTS_MAX (UINT64_MAX >> 1)

#define MD_FEATURE_BITMAP_OFFSET   1u
#define MD_FEATURE_RECOVERY_OFFSET 2u   /* recovery_offset: the member is partly rebuilt */
#define MD_FEATURE_RESHAPE_ACTIVE  4u   /* a reshape is under way */
#define MD_FEATURE_JOURNAL         512u /* a raid5/6 journal device */
#define MD_FEATURE_PPL             1024u
/* The features md(...) honours; any other bit is refused by name. */
#define MD_FEATURES_KNOWN (MD_FEATURE_BITMAP_OFFSET | MD_FEATURE_RECOVERY_OFFSET)

#define MD_LEVEL_LINEAR (-1)

struct md_super {
	uint32_t feature_map;
	uint8_t set_uuid[16];
	char set_name[33];
	uint64_t ctime, utime; /* seconds (md keeps microseconds in the top 24 bits) */
	int32_t level;         /* -1 linear, 0, 1, 4, 5, 6, 10 */
	uint32_t layout;
	uint64_t size;  /* sectors used on each member */
	uint32_t chunk; /* sectors */
	uint32_t raid_disks;
	int32_t bitmap_offset;         /* sectors from the superblock (feature bit 0) */
	uint16_t ppl_offset, ppl_size; /* sectors (feature PPL): share bitmap_offset's place */
	uint64_t data_offset, data_size, super_offset, recovery_offset;
	uint32_t dev_number;
	uint32_t cnt_corrected_read;
	uint8_t device_uuid[16];
	uint64_t events, resync_offset;
	uint32_t max_dev;
	uint16_t roles[MD_SB_MAX_DEVS];
};

/** Encode @sb into @buf (MD_SB_BYTES, zeroed first), checksum included. */
void md_super_encode(const struct md_super *sb, uint8_t *buf);

/**
 * Decode @buf (MD_SB_BYTES read at MD_SB_OFFSET_BYTES).  Returns 0, or
 * -EINVAL with the reason in @msg (no md magic, not version 1, bad
 * checksum, not a v1.2 superblock, too many devices).
 */
int md_super_decode(const uint8_t *buf, struct md_super *sb, char *msg, size_t msglen);

/**
 * Every field an array is opened from, against md's rules and a member of
 * @member_bytes: the metadata (superblock, bitmap) before data_offset, the
 * used size inside data_size and data_size inside the member, an event
 * count below MD_EVENTS_MAX, a power-of-two chunk, a member count the
 * level takes (at most RAID_MAX_MEMBERS), recovery_offset inside the size.
 * 0, or -EINVAL with the field named in @msg.
 */
int md_super_check(const struct md_super *sb, uint64_t member_bytes, char *msg, size_t msglen);

/** md's checksum of an encoded superblock (its sb_csum field ignored). */
uint32_t md_super_csum(const uint8_t *buf);

/*
 * md's bitmap superblock (md-bitmap.h bitmap_super_t, 256 bytes, then one
 * bit per bitmap chunk, little-endian bit order): magic "bitm" 0x6d746962,
 * version 4, the array UUID, events, events_cleared, sync_size (sectors
 * per member), state, chunksize (bytes), daemon_sleep (s), write_behind,
 * sectors_reserved, nodes, cluster name.
 */
#define MD_BITMAP_MAGIC   0x6d746962u
#define MD_BITMAP_VERSION 4u

struct md_bitmap_super {
	uint8_t uuid[16];
	uint64_t events, events_cleared, sync_size;
	uint32_t chunksize, daemon_sleep, sectors_reserved;
};

/** Encode @b into @buf (256 bytes; the caller zeroes what follows). */
void md_bitmap_encode(const struct md_bitmap_super *b, uint8_t *buf);

/** Decode; 0, or -EINVAL with @msg when it is not an md bitmap. */
int md_bitmap_decode(const uint8_t *buf, struct md_bitmap_super *b, char *msg, size_t msglen);

/** mdadm's name of a level: "raid5", "linear". */
const char *md_level_name(int32_t level);

#endif
