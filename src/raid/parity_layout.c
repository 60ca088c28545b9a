/*
 * parity_layout.c - md's raid5/raid6 placement (see parity_layout.h).
 *
 * parity_geom_stripe() derives a whole stripe's roles at once: where P and
 * Q sit, then where each data chunk goes, following the case analysis of
 * md's raid5_compute_sector for the chosen algorithm; the syndrome slots
 * follow md's walk from the member after Q.  Mapping and unmapping are
 * lookups in that table, so both directions agree by construction; the
 * unit tests check the table against hand-drawn md layouts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "raid/parity_layout.h"

static const struct {
	const char *name, *short_name;
	unsigned alg;
	unsigned levels; /* bit 5 / bit 6 */
} parity_names[] = {
    {"left-asymmetric", "la", PARITY_LEFT_ASYMMETRIC, 1u << 5 | 1u << 6},
    {"right-asymmetric", "ra", PARITY_RIGHT_ASYMMETRIC, 1u << 5 | 1u << 6},
    {"left-symmetric", "ls", PARITY_LEFT_SYMMETRIC, 1u << 5 | 1u << 6},
    {"right-symmetric", "rs", PARITY_RIGHT_SYMMETRIC, 1u << 5 | 1u << 6},
    {"parity-first", NULL, PARITY_FIRST, 1u << 5 | 1u << 6},
    {"parity-last", NULL, PARITY_LAST, 1u << 5 | 1u << 6},
    {"left-asymmetric-6", NULL, PARITY_LEFT_ASYMMETRIC_6, 1u << 6},
    {"right-asymmetric-6", NULL, PARITY_RIGHT_ASYMMETRIC_6, 1u << 6},
    {"left-symmetric-6", NULL, PARITY_LEFT_SYMMETRIC_6, 1u << 6},
    {"right-symmetric-6", NULL, PARITY_RIGHT_SYMMETRIC_6, 1u << 6},
    {"parity-first-6", NULL, PARITY_FIRST_6, 1u << 6},
};

int parity_layout_parse(unsigned level, const char *s)
{
	if (!strcmp(s, "default"))
		return PARITY_LEFT_SYMMETRIC;
	for (size_t i = 0; i < sizeof(parity_names) / sizeof(parity_names[0]); i++) {
		if (!(parity_names[i].levels >> level & 1))
			continue;
		if (!strcmp(s, parity_names[i].name) ||
		    (parity_names[i].short_name && !strcmp(s, parity_names[i].short_name)))
			return (int)parity_names[i].alg;
	}
	return -EINVAL;
}

const char *parity_layout_name(unsigned alg)
{
	for (size_t i = 0; i < sizeof(parity_names) / sizeof(parity_names[0]); i++)
		if (parity_names[i].alg == alg)
			return parity_names[i].name;
	return "?";
}

int parity_geom_init(struct parity_geom *g, unsigned level, unsigned algorithm, unsigned n,
                     uint64_t chunk, uint64_t member_size, char *msg, size_t msglen)
{
	unsigned min = level == 6 ? 4 : 3;

	memset(g, 0, sizeof(*g));
	if (level != 5 && level != 6) {
		snprintf(msg, msglen, "parity level must be 5 or 6");
		return -EINVAL;
	}
	if (n < min || n > RAID_MAX_MEMBERS) {
		snprintf(msg, msglen, "raid%u needs %u to %d members, got %u", level, min,
		         RAID_MAX_MEMBERS, n);
		return -EINVAL;
	}
	if (!strcmp(parity_layout_name(algorithm), "?") ||
	    (level == 5 && algorithm > PARITY_LAST)) {
		snprintf(msg, msglen, "raid%u has no layout %u", level, algorithm);
		return -EINVAL;
	}
	if (chunk < 4096 || (chunk & (chunk - 1))) {
		snprintf(msg, msglen, "chunk must be a power of two of at least 4k");
		return -EINVAL;
	}
	if (member_size < chunk) {
		snprintf(msg, msglen, "members must hold at least one chunk (%llu bytes)",
		         (unsigned long long)chunk);
		return -EINVAL;
	}
	g->level = level;
	g->algorithm = algorithm;
	g->n = n;
	g->k = n - (level == 6 ? 2 : 1);
	g->chunk = chunk;
	g->stripes = member_size / chunk;
	g->dev_size = g->stripes * chunk;
	g->size = g->stripes * g->k * chunk;
	return 0;
}

/* raid5-style placement over @disks members with k data chunks (the *_6
 * layouts use it over n - 1 members).  Fills pd and data[]. */
static void parity_place5(unsigned alg, unsigned disks, unsigned k, uint64_t stripe,
                          struct parity_stripe *ps)
{
	unsigned r = (unsigned)(stripe % disks);

	for (unsigned dd = 0; dd < k; dd++) {
		unsigned m = dd;
		switch (alg) {
		case PARITY_LEFT_ASYMMETRIC:
			ps->pd = k - r;
			m = dd >= ps->pd ? dd + 1 : dd;
			break;
		case PARITY_RIGHT_ASYMMETRIC:
			ps->pd = r;
			m = dd >= ps->pd ? dd + 1 : dd;
			break;
		case PARITY_LEFT_SYMMETRIC:
			ps->pd = k - r;
			m = (ps->pd + 1 + dd) % disks;
			break;
		case PARITY_RIGHT_SYMMETRIC:
			ps->pd = r;
			m = (ps->pd + 1 + dd) % disks;
			break;
		case PARITY_FIRST:
			ps->pd = 0;
			m = dd + 1;
			break;
		default: /* PARITY_LAST */
			ps->pd = k;
			break;
		}
		ps->data[dd] = (uint8_t)m;
	}
}

/* md raid6 placement for the native layouts 0..5. */
static void parity_place6(unsigned alg, unsigned n, unsigned k, uint64_t stripe,
                          struct parity_stripe *ps)
{
	unsigned r = (unsigned)(stripe % n);

	for (unsigned dd = 0; dd < k; dd++) {
		unsigned m = dd;
		switch (alg) {
		case PARITY_LEFT_ASYMMETRIC:
		case PARITY_RIGHT_ASYMMETRIC:
			ps->pd = alg == PARITY_LEFT_ASYMMETRIC ? n - 1 - r : r;
			if (ps->pd == n - 1) { /* Q wraps to member 0: data starts at 1 */
				ps->qd = 0;
				m = dd + 1;
			} else {
				ps->qd = (int)ps->pd + 1;
				m = dd >= ps->pd ? dd + 2 : dd;
			}
			break;
		case PARITY_LEFT_SYMMETRIC:
		case PARITY_RIGHT_SYMMETRIC:
			ps->pd = alg == PARITY_LEFT_SYMMETRIC ? n - 1 - r : r;
			ps->qd = (int)((ps->pd + 1) % n);
			m = (ps->pd + 2 + dd) % n;
			break;
		case PARITY_FIRST:
			ps->pd = 0;
			ps->qd = 1;
			m = dd + 2;
			break;
		default: /* PARITY_LAST */
			ps->pd = k;
			ps->qd = (int)k + 1;
			break;
		}
		ps->data[dd] = (uint8_t)m;
	}
}

void parity_geom_stripe(const struct parity_geom *g, uint64_t stripe, struct parity_stripe *ps)
{
	unsigned n = g->n, k = g->k;

	memset(ps->role, 0, sizeof(ps->role));
	ps->qd = -1;
	if (g->level == 5) {
		parity_place5(g->algorithm, n, k, stripe, ps);
	} else if (g->algorithm >= PARITY_LEFT_ASYMMETRIC_6) {
		/* The raid5 layout on the first n-1 members, Q on the last. */
		unsigned alg5 = g->algorithm == PARITY_FIRST_6
		                    ? PARITY_FIRST
		                    : g->algorithm - PARITY_LEFT_ASYMMETRIC_6;
		parity_place5(alg5, n - 1, k, stripe, ps);
		ps->qd = (int)n - 1;
	} else {
		parity_place6(g->algorithm, n, k, stripe, ps);
	}
	ps->role[ps->pd] = -1;
	if (ps->qd >= 0)
		ps->role[ps->qd] = -2;
	for (unsigned dd = 0; dd < k; dd++)
		ps->role[ps->data[dd]] = (int8_t)dd;
	if (ps->qd >= 0) {
		/* md raid6_d0 / raid6_idx_to_slot: from the member after Q. */
		unsigned start = (unsigned)ps->qd == n - 1 ? 0 : (unsigned)ps->qd + 1, slot = 0;
		for (unsigned j = 0; j < n; j++) {
			unsigned m = (start + j) % n;
			if (ps->role[m] >= 0)
				ps->slot[ps->role[m]] = (uint8_t)slot++;
		}
	} else {
		for (unsigned dd = 0; dd < k; dd++)
			ps->slot[dd] = (uint8_t)dd;
	}
}

void parity_geom_map(const struct parity_geom *g, uint64_t off, struct raid_loc *loc)
{
	struct parity_stripe ps;
	uint64_t stripe, in;
	unsigned dd;

	parity_geom_split(g, off, &stripe, &dd, &in);
	parity_geom_stripe(g, stripe, &ps);
	loc->member = ps.data[dd];
	loc->offset = stripe * g->chunk + in;
}

uint64_t parity_geom_unmap(const struct parity_geom *g, const struct raid_loc *loc)
{
	struct parity_stripe ps;
	uint64_t stripe = loc->offset / g->chunk;

	if (loc->member >= g->n || stripe >= g->stripes)
		return UINT64_MAX;
	parity_geom_stripe(g, stripe, &ps);
	if (ps.role[loc->member] < 0)
		return UINT64_MAX;
	return (stripe * g->k + (uint64_t)ps.role[loc->member]) * g->chunk + loc->offset % g->chunk;
}
