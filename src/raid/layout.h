/*
 * layout.h - where array bytes live on the members: md's formulas as pure
 * functions.
 *
 * Everything here is arithmetic on byte offsets, with no I/O and no state
 * beyond a geometry struct filled in once at creation, so the unit tests
 * (tests/unit/test_raid_layout.c) call exactly the functions the targets
 * use.  md works in 512-byte sectors; these functions work in bytes, which
 * is the same mapping because every chunk and member size is a multiple of
 * 512.  The md sources each formula follows are named at the function
 * (see also docs/sources.md#md-raid and docs/raid.md).
 *
 *   raid0   md raid0.c: create_strip_zones, find_zone, map_sector.  Members
 *           are rounded down to a chunk multiple; one zone per distinct
 *           member size; RAID0_ORIG_LAYOUT (the default, what mdadm records
 *           on new arrays) or RAID0_ALT_MULTIZONE_LAYOUT.
 *   raid10  md raid10.c: setup_geo, calc_sectors, raid10_size,
 *           __raid10_find_phys.  Near, far and offset copies, original far
 *           sets (far_set_size = raid_disks, layout bits 17-18 = 0).
 *   concat  md linear: members back to back, each rounded down to the
 *           rounding size.
 *
 * A request is walked piece by piece: each *_map call returns the location
 * of the first byte and how many bytes from there stay contiguous on that
 * location (never past a chunk end), so the caller advances by that length
 * until the request is covered.
 */
#ifndef RL_RAID_LAYOUT_H
#define RL_RAID_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Most members an array may have (md allows more; raidlab needs fewer). */
#define RAID_MAX_MEMBERS 64

/** A place on a member: member index and byte offset on that member. */
struct raid_loc {
	unsigned member;
	uint64_t offset;
};

/* --- raid0 --- */

enum raid0_layout {
	RAID0_LAYOUT_ORIG = 0, /* member of a chunk from the absolute array chunk number */
	RAID0_LAYOUT_ALT = 1,  /* ... from the zone-relative chunk number (Linux 3.14-5.3) */
};

struct raid0_zone {
	uint64_t start;     /* array offset of the zone's first byte (md: previous zone_end) */
	uint64_t end;       /* md zone_end: array offset one past the zone */
	uint64_t dev_start; /* offset on each of its members where the zone begins */
	unsigned nb_dev;    /* members in the zone */
	uint8_t dev[RAID_MAX_MEMBERS]; /* their indexes, in member order */
};

struct raid0_geom {
	uint64_t chunk;       /* bytes; any multiple of 512 (md allows non-powers of two) */
	unsigned chunk_shift; /* log2(chunk) when chunk is a power of two, else 0 */
	bool simple;          /* one zone of 2^nb_shift members, chunk a power of two */
	unsigned nb_shift;    /* log2(members) when simple */
	enum raid0_layout layout;
	unsigned nmembers;
	unsigned nzones;
	uint64_t member_size[RAID_MAX_MEMBERS]; /* used bytes: rounded down to the chunk */
	uint64_t size;                          /* array bytes: the last zone's end */
	struct raid0_zone zones[RAID_MAX_MEMBERS];
};

/**
 * Build the zones for @n members of @sizes bytes.  Returns 0, or -EINVAL
 * with a message in @msg (chunk not a positive multiple of 512, a member
 * smaller than one chunk, too many members).
 */
int raid0_geom_init(struct raid0_geom *g, const uint64_t *sizes, unsigned n, uint64_t chunk,
                    enum raid0_layout layout, char *msg, size_t msglen);

/** Index of the zone holding array offset @off (< g->size). */
unsigned raid0_geom_zone(const struct raid0_geom *g, uint64_t off);

/**
 * Map array offset @off (< g->size): sets @loc and returns how many of the
 * next @len bytes stay on that member contiguously, i.e. up to the chunk end.
 */
uint64_t raid0_geom_map_zoned(const struct raid0_geom *g, uint64_t off, uint64_t len,
                              struct raid_loc *loc);
static inline uint64_t raid0_geom_map(const struct raid0_geom *g, uint64_t off, uint64_t len,
                                      struct raid_loc *loc)
{
	/* The usual array (equal members, 2^k of them, a power-of-two chunk):
	 * map_sector() reduces to shifts and masks, with no call. */
	if (g->simple) {
		uint64_t cn = off >> g->chunk_shift, in = off & (g->chunk - 1);
		uint64_t left = g->chunk - in;

		loc->member = (unsigned)(cn & ((1u << g->nb_shift) - 1));
		loc->offset = (cn >> g->nb_shift << g->chunk_shift) + in;
		return len < left ? len : left;
	}
	return raid0_geom_map_zoned(g, off, len, loc);
}

/**
 * The part of array range [@start, @end) - which must lie inside zone @zone
 * - that falls on the zone's member number @slot (0..nb_dev-1), as one
 * contiguous member range (md raid0_handle_discard issues one discard per
 * member this way).  Returns its length (0 if the member holds none of it)
 * and sets @loc to its start.
 */
uint64_t raid0_geom_member_range(const struct raid0_geom *g, unsigned zone, uint64_t start,
                                 uint64_t end, unsigned slot, struct raid_loc *loc);

/* --- raid10 --- */

#define RAID10_MAX_COPIES 16

struct raid10_geom {
	unsigned raid_disks;
	unsigned near_copies;  /* nc: copies on consecutive members */
	unsigned far_copies;   /* fc: copies shifted by nc members, one stride apart */
	bool far_offset;       /* offset layout: stride is one chunk, rows interleave */
	unsigned far_set_size; /* members a far copy rotates within (original: all) */
	uint64_t chunk;        /* bytes, a power of two */
	unsigned chunk_shift;
	uint64_t dev_size; /* md dev_sectors: bytes used on each member */
	uint64_t stride;   /* bytes between a copy and its next far/offset copy */
	uint64_t size;     /* array bytes */
};

/**
 * Parse an mdadm layout name: "n2", "f3", "o2" (letter, then the copy
 * count 1..16).  Returns 0 or -EINVAL.
 */
int raid10_layout_parse(const char *s, unsigned *near_copies, unsigned *far_copies,
                        bool *far_offset);

/**
 * Set up a raid10 over @disks members of at least @member_size bytes
 * (md: setup_geo + calc_sectors + raid10_size).  Needs a power-of-two
 * chunk of at least 4 KiB and 2 <= nc*fc <= disks.  Returns 0 or -EINVAL
 * with a message in @msg.
 */
int raid10_geom_init(struct raid10_geom *g, unsigned disks, unsigned near_copies,
                     unsigned far_copies, bool far_offset, uint64_t chunk, uint64_t member_size,
                     char *msg, size_t msglen);

/** Copies per chunk: nc * fc. */
static inline unsigned raid10_geom_copies(const struct raid10_geom *g)
{
	return g->near_copies * g->far_copies;
}

/**
 * Every copy of array offset @off (< g->size), in md's slot order (near
 * copy 0, its far copies, near copy 1, ...): fills @locs (room for
 * RAID10_MAX_COPIES) and returns the copy count.  The returned length of
 * the piece is raid10_geom_piece().
 */
unsigned raid10_geom_map(const struct raid10_geom *g, uint64_t off, struct raid_loc *locs);

/** Bytes from @off (at most @len) before the next chunk boundary. */
static inline uint64_t raid10_geom_piece(const struct raid10_geom *g, uint64_t off, uint64_t len)
{
	uint64_t left = g->chunk - (off & (g->chunk - 1));

	return len < left ? len : left;
}

/* --- concat (md linear) --- */

struct concat_geom {
	unsigned nmembers;
	uint64_t start[RAID_MAX_MEMBERS + 1]; /* array offset of each member; [n] = size */
	uint64_t size;
};

/**
 * Members back to back, each rounded down to a multiple of @rounding (a
 * positive multiple of 512).  Returns 0 or -EINVAL with a message.
 */
int concat_geom_init(struct concat_geom *g, const uint64_t *sizes, unsigned n, uint64_t rounding,
                     char *msg, size_t msglen);

/** Map @off (< g->size); returns the bytes (at most @len) left on that member. */
uint64_t concat_geom_map(const struct concat_geom *g, uint64_t off, uint64_t len,
                         struct raid_loc *loc);

#endif
