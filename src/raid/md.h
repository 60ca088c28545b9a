/*
 * md.h - md metadata on raidlab's members: write v1.2 superblocks
 * (`raidlab create`) and read them back (the md target, md.c).
 */
#ifndef RL_RAID_MD_H
#define RL_RAID_MD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/target.h"
#include "raid/md_super.h"

struct md_create_opts {
	const char *level;     /* "raid5", "raid6", "raid1", "raid10", "raid0", "linear" */
	const char *layout;    /* mdadm name, NULL for the level's default */
	uint64_t chunk;        /* bytes (mdadm's default 512k) */
	uint64_t data_offset;  /* bytes from the start of each member to its data */
	const char *name;      /* set_name, e.g. "host:0" */
	bool assume_clean;     /* record the array in sync (resync_offset = MaxSector) */
	uint64_t bitmap_chunk; /* internal write-intent bitmap: bytes per bit (0: none) */
	bool uuid_set;
	uint8_t uuid[16]; /* array UUID when uuid_set, else random */
};

/**
 * Write a v1.2 superblock describing the array onto each of the @n
 * members (in role order) and flush them.  The used size is the smallest
 * member less the data offset, in whole chunks.  Fills *out (when not
 * NULL) with the superblock of member 0.  0, or a negative errno with @msg.
 */
int md_create(const struct md_create_opts *o, struct rl_target *const *members, unsigned n,
              struct md_super *out, char *msg, size_t msglen);

/** Read and decode @t's superblock.  0, or a negative errno with @msg. */
int md_member_read_super(struct rl_target *t, struct md_super *sb, char *msg, size_t msglen);

/**
 * One synchronous request on member @t (a write is flushed), on a
 * throwaway executor.  0 or a negative errno.
 */
int md_member_io(struct rl_target *t, enum rl_op op, uint64_t off, void *buf, uint32_t len);

#endif
