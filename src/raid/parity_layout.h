/*
 * parity_layout.h - where raid5 and raid6 put data, P and Q: md's
 * algorithms as pure functions (md raid5.c raid5_compute_sector and
 * raid5_compute_blocknr, raid6 syndrome order from raid6_d0 and
 * raid6_idx_to_slot).
 *
 * The array is cut into chunks; chunk c of the array is data chunk
 * dd = c % k of stripe s = c / k, where k is the number of data members
 * (n - 1 for raid5, n - 2 for raid6).  Stripe s occupies bytes
 * [s*chunk, (s+1)*chunk) of every member.  The algorithm decides, per
 * stripe, which member holds P (pd), which holds Q (qd, raid6) and on
 * which member data chunk dd lives.
 *
 *   left-asymmetric (0)  P rotates from the last member down; data restarts
 *                        at member 0 in every stripe
 *   right-asymmetric (1) P rotates from member 0 up; data restarts
 *   left-symmetric (2)   P from the last member down; data continues after P
 *                        (md's default)
 *   right-symmetric (3)  P from member 0 up; data continues after P
 *   parity-first (4)     P (and Q) on the first member(s)
 *   parity-last (5)      P (and Q) on the last member(s)
 *   *-6 (16..20, raid6)  the raid5 layout over n-1 members with Q always on
 *                        the last member (md's layouts for raid5 -> raid6
 *                        conversion)
 *
 * For raid6, Q is the Reed-Solomon syndrome sum(g^i * D_i) over GF(2^8)
 * (polynomial 0x11d, g = 2), where i is the data member's slot in md's
 * syndrome order: members taken cyclically from the one after Q, skipping
 * P and Q.  ISA-L's pq_gen computes exactly this sum when its sources are
 * passed in slot order.  (DDF layouts 8..10 are not supported.)
 */
#ifndef RL_RAID_PARITY_LAYOUT_H
#define RL_RAID_PARITY_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "raid/layout.h"

enum parity_algorithm {
	PARITY_LEFT_ASYMMETRIC = 0,
	PARITY_RIGHT_ASYMMETRIC = 1,
	PARITY_LEFT_SYMMETRIC = 2,
	PARITY_RIGHT_SYMMETRIC = 3,
	PARITY_FIRST = 4,
	PARITY_LAST = 5,
	PARITY_LEFT_ASYMMETRIC_6 = 16,
	PARITY_RIGHT_ASYMMETRIC_6 = 17,
	PARITY_LEFT_SYMMETRIC_6 = 18,
	PARITY_RIGHT_SYMMETRIC_6 = 19,
	PARITY_FIRST_6 = 20,
};

struct parity_geom {
	unsigned level;     /* 5 or 6 */
	unsigned algorithm; /* enum parity_algorithm (md's number) */
	unsigned n;         /* members */
	unsigned k;         /* data members per stripe: n - 1 or n - 2 */
	uint64_t chunk;     /* bytes, a power of two of at least 4 KiB */
	uint64_t dev_size;  /* bytes used on every member: smallest member, whole chunks */
	uint64_t stripes;   /* dev_size / chunk */
	uint64_t size;      /* array bytes: stripes * k * chunk */
};

/* One stripe's roles. */
struct parity_stripe {
	unsigned pd;                    /* member holding P */
	int qd;                         /* member holding Q (raid6), else -1 */
	uint8_t data[RAID_MAX_MEMBERS]; /* member of data chunk dd (dd = 0..k-1) */
	uint8_t slot[RAID_MAX_MEMBERS]; /* syndrome slot of data chunk dd (raid6) */
	int8_t role[RAID_MAX_MEMBERS];  /* per member: dd, or -1 for P, -2 for Q */
};

/**
 * Parse an mdadm layout name for @level: the long names above or mdadm's
 * short ones (la, ra, ls, rs); "default" is left-symmetric.  Returns the
 * algorithm number or -EINVAL.
 */
int parity_layout_parse(unsigned level, const char *s);

/** mdadm's name of algorithm @alg ("left-symmetric"), or "?". */
const char *parity_layout_name(unsigned alg);

/**
 * Set up a raid5 (@level 5, at least 3 members) or raid6 (6, at least 4)
 * over @n members whose smallest holds @member_size bytes.  Returns 0 or
 * -EINVAL with a message in @msg.
 */
int parity_geom_init(struct parity_geom *g, unsigned level, unsigned algorithm, unsigned n,
                     uint64_t chunk, uint64_t member_size, char *msg, size_t msglen);

/** The roles in stripe @stripe (< g->stripes). */
void parity_geom_stripe(const struct parity_geom *g, uint64_t stripe, struct parity_stripe *ps);

/**
 * Map array offset @off (< g->size): the stripe, the data chunk index dd
 * within it and the offset inside the chunk.
 */
static inline void parity_geom_split(const struct parity_geom *g, uint64_t off, uint64_t *stripe,
                                     unsigned *dd, uint64_t *in_chunk)
{
	uint64_t c = off / g->chunk;

	*stripe = c / g->k;
	*dd = (unsigned)(c % g->k);
	*in_chunk = off % g->chunk;
}

/** Map array offset @off to its member location (md raid5_compute_sector). */
void parity_geom_map(const struct parity_geom *g, uint64_t off, struct raid_loc *loc);

/**
 * The inverse (md raid5_compute_blocknr): the array offset stored at
 * @loc, or UINT64_MAX when the place holds P or Q.
 */
uint64_t parity_geom_unmap(const struct parity_geom *g, const struct raid_loc *loc);

#endif
