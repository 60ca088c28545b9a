/*
 * layout.c - md's address arithmetic for raid0, raid10 and linear, in bytes.
 *
 * Each function transliterates the md function named in its comment; the
 * only change is the unit (bytes instead of 512-byte sectors), which does
 * not change any result because chunks and member sizes are multiples of
 * 512.  Nothing here allocates or touches shared state, so the data path
 * calls these directly from any thread.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spec.h"
#include "raid/layout.h"

static uint64_t layout_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* --- raid0 --- */

/*
 * md create_strip_zones(): members rounded down to a chunk multiple; zone 0
 * spans every member up to the smallest size; each next zone starts on the
 * members at the previous zone's smallest size and spans the members that
 * are larger, up to the smallest of those.
 */
int raid0_geom_init(struct raid0_geom *g, const uint64_t *sizes, unsigned n, uint64_t chunk,
                    enum raid0_layout layout, char *msg, size_t msglen)
{
	uint64_t prev_small = 0, end = 0;

	memset(g, 0, sizeof(*g));
	if (n < 1 || n > RAID_MAX_MEMBERS)
		return rl_msg_set(msg, msglen, "raid0 takes 1 to %d members, not %u",
		                  RAID_MAX_MEMBERS, n);
	if (!chunk || chunk % 512)
		return rl_msg_set(msg, msglen, "chunk must be a positive multiple of 512 bytes");
	g->chunk = chunk;
	g->chunk_shift = chunk & (chunk - 1) ? 0 : (unsigned)__builtin_ctzll(chunk);
	g->layout = layout;
	g->nmembers = n;
	for (unsigned i = 0; i < n; i++) {
		g->member_size[i] = sizes[i] / chunk * chunk;
		if (!g->member_size[i])
			return rl_msg_set(
			    msg, msglen, "member %u holds %llu bytes, less than one chunk (%llu)",
			    i, (unsigned long long)sizes[i], (unsigned long long)chunk);
	}
	for (;;) {
		struct raid0_zone *z = &g->zones[g->nzones];
		uint64_t small = UINT64_MAX;

		for (unsigned i = 0; i < n; i++) {
			if (g->member_size[i] <= prev_small)
				continue;
			z->dev[z->nb_dev++] = (uint8_t)i;
			small = layout_min(small, g->member_size[i]);
		}
		if (!z->nb_dev)
			break;
		z->start = end;
		z->dev_start = prev_small;
		end += (small - prev_small) * z->nb_dev;
		z->end = end;
		prev_small = small;
		g->nzones++;
	}
	g->size = end;
	g->simple = g->nzones == 1 && g->chunk_shift && !(n & (n - 1));
	g->nb_shift = g->simple ? (unsigned)__builtin_ctz(n) : 0;
	return 0;
}

/* md find_zone(): the first zone whose end lies beyond the offset. */
unsigned raid0_geom_zone(const struct raid0_geom *g, uint64_t off)
{
	unsigned i = 0;

	while (i + 1 < g->nzones && off >= g->zones[i].end)
		i++;
	return i;
}

/* @a / @b and @a % @b, the division skipped when @b is a power of two and
 * narrowed to 32 bits when both fit (the data path maps every piece). */
static inline uint64_t layout_divmod(uint64_t a, uint64_t b, uint64_t *rem)
{
	uint64_t q;

	if (!(b & (b - 1))) {
		*rem = a & (b - 1);
		return a >> __builtin_ctzll(b);
	}
	q = (a | b) >> 32 ? a / b : (uint32_t)a / (uint32_t)b;
	*rem = a - q * b;
	return q;
}

/*
 * md map_sector(): the member is (X / chunk) % nb_dev of the zone, X being
 * the absolute offset (ORIG) or the zone-relative one (ALT); the member
 * offset is the zone-relative stripe row times the chunk, plus the offset
 * inside the chunk, plus the zone's dev_start.  Zones start on a chunk
 * boundary, so the zone-relative chunk number is the absolute one less the
 * zone's first, and the row is that divided by nb_dev.
 */
uint64_t raid0_geom_map_zoned(const struct raid0_geom *g, uint64_t off, uint64_t len,
                              struct raid_loc *loc)
{
	const struct raid0_zone *z = &g->zones[raid0_geom_zone(g, off)];
	uint64_t in_chunk, zc, cn, rc, row, slot;

	if (g->chunk_shift) {
		cn = off >> g->chunk_shift;
		in_chunk = off & (g->chunk - 1);
		zc = z->start >> g->chunk_shift;
	} else {
		cn = layout_divmod(off, g->chunk, &in_chunk);
		zc = z->start / g->chunk;
	}
	rc = cn - zc;
	row = layout_divmod(rc, z->nb_dev, &slot);
	if (g->layout == RAID0_LAYOUT_ORIG && zc)
		layout_divmod(cn, z->nb_dev, &slot);
	loc->member = z->dev[slot];
	loc->offset = z->dev_start + row * g->chunk + in_chunk;
	return layout_min(len, g->chunk - in_chunk);
}

/*
 * Bytes of zone position @pos (0..nb_dev-1 within a stripe row) that lie
 * before zone-relative offset @x: whole chunks of the full rows, plus the
 * covered part of this row's chunk.
 */
static uint64_t raid0_bytes_before(const struct raid0_geom *g, unsigned nb, unsigned pos,
                                   uint64_t x)
{
	uint64_t width = g->chunk * nb;
	uint64_t in_row = x % width, lo = (uint64_t)pos * g->chunk;
	uint64_t part = in_row <= lo ? 0 : layout_min(in_row - lo, g->chunk);

	return x / width * g->chunk + part;
}

uint64_t raid0_geom_member_range(const struct raid0_geom *g, unsigned zone, uint64_t start,
                                 uint64_t end, unsigned slot, struct raid_loc *loc)
{
	const struct raid0_zone *z = &g->zones[zone];
	unsigned nb = z->nb_dev;
	/* Row positions rotate in ORIG layout: chunk c of the zone goes to slot
	 * (start/chunk + c) % nb, so slot @slot sits at position (slot - shift). */
	unsigned shift =
	    g->layout == RAID0_LAYOUT_ORIG ? (unsigned)((z->start / g->chunk) % nb) : 0;
	unsigned pos = (slot + nb - shift) % nb;
	uint64_t a = raid0_bytes_before(g, nb, pos, start - z->start);
	uint64_t b = raid0_bytes_before(g, nb, pos, end - z->start);

	loc->member = z->dev[slot];
	loc->offset = z->dev_start + a;
	return b - a;
}

/* --- raid10 --- */

int raid10_layout_parse(const char *s, unsigned *near_copies, unsigned *far_copies,
                        bool *far_offset)
{
	char *end;
	unsigned long c;

	if (!s || (s[0] != 'n' && s[0] != 'f' && s[0] != 'o') || s[1] < '0' || s[1] > '9')
		return -EINVAL;
	c = strtoul(s + 1, &end, 10);
	if (*end || c < 1 || c > RAID10_MAX_COPIES)
		return -EINVAL;
	*near_copies = s[0] == 'n' ? (unsigned)c : 1;
	*far_copies = s[0] == 'n' ? 1 : (unsigned)c;
	*far_offset = s[0] == 'o';
	return 0;
}

/*
 * md setup_geo() (original far sets), calc_sectors() and raid10_size():
 * chunks per member divided among the far copies give the array chunks;
 * the member area actually used (dev_size) is those chunks times the copy
 * count spread over the members, rounded up; far copies sit dev_size/fc
 * apart, offset copies one chunk apart.
 */
int raid10_geom_init(struct raid10_geom *g, unsigned disks, unsigned near_copies,
                     unsigned far_copies, bool far_offset, uint64_t chunk, uint64_t member_size,
                     char *msg, size_t msglen)
{
	unsigned copies = near_copies * far_copies;
	uint64_t size;

	memset(g, 0, sizeof(*g));
	if (chunk < 4096 || (chunk & (chunk - 1)))
		return rl_msg_set(msg, msglen,
		                  "raid10 needs a power-of-two chunk of at least 4k, not %llu",
		                  (unsigned long long)chunk);
	if (disks < 2 || disks > RAID_MAX_MEMBERS)
		return rl_msg_set(msg, msglen, "raid10 takes 2 to %d members, not %u",
		                  RAID_MAX_MEMBERS, disks);
	if (!near_copies || !far_copies || copies < 2 || copies > RAID10_MAX_COPIES ||
	    copies > disks)
		return rl_msg_set(msg, msglen,
		                  "raid10 with %u copies needs 2 <= copies <= members (%u)", copies,
		                  disks);
	g->raid_disks = disks;
	g->near_copies = near_copies;
	g->far_copies = far_copies;
	g->far_offset = far_offset;
	g->far_set_size = disks;
	g->chunk = chunk;
	g->chunk_shift = (unsigned)__builtin_ctzll(chunk);

	size = member_size >> g->chunk_shift;
	size /= far_copies;
	size *= disks;
	size /= near_copies; /* chunks in the array */
	size *= copies;
	size = (size + disks - 1) / disks; /* chunks used per member, rounded up */
	g->dev_size = size << g->chunk_shift;
	g->stride = far_offset ? chunk : (size / far_copies) << g->chunk_shift;

	size = (g->dev_size >> g->chunk_shift) / far_copies * disks / near_copies;
	g->size = size << g->chunk_shift;
	if (!g->size)
		return rl_msg_set(msg, msglen, "raid10 members of %llu bytes hold no chunk",
		                  (unsigned long long)member_size);
	return 0;
}

/*
 * md __raid10_find_phys(): the near copies of a chunk sit on consecutive
 * members (wrapping to the next row), and each has fc - 1 far copies, each
 * nc members further on within its far set, one stride lower down.
 */
unsigned raid10_geom_map(const struct raid10_geom *g, uint64_t off, struct raid_loc *locs)
{
	unsigned disks = g->raid_disks, fss = g->far_set_size;
	unsigned last_set_start = (disks / fss - 1) * fss;
	unsigned last_set_size = fss + disks % fss;
	uint64_t chunk = (off >> g->chunk_shift) * g->near_copies;
	uint64_t stripe = chunk / disks;
	unsigned dev = (unsigned)(chunk % disks);
	uint64_t sector;
	unsigned slot = 0;

	if (g->far_offset)
		stripe *= g->far_copies;
	sector = (stripe << g->chunk_shift) + (off & (g->chunk - 1));
	for (unsigned n = 0; n < g->near_copies; n++) {
		unsigned d = dev;
		uint64_t s = sector;

		locs[slot].member = d;
		locs[slot++].offset = s;
		for (unsigned f = 1; f < g->far_copies; f++) {
			unsigned set = d / fss;

			d += g->near_copies;
			if ((disks % fss) && d > last_set_start) {
				d -= last_set_start;
				d %= last_set_size;
				d += last_set_start;
			} else {
				d %= fss;
				d += fss * set;
			}
			s += g->stride;
			locs[slot].member = d;
			locs[slot++].offset = s;
		}
		if (++dev >= disks) {
			dev = 0;
			sector += g->chunk;
		}
	}
	return slot;
}

/* --- concat --- */

int concat_geom_init(struct concat_geom *g, const uint64_t *sizes, unsigned n, uint64_t rounding,
                     char *msg, size_t msglen)
{
	memset(g, 0, sizeof(*g));
	if (n < 1 || n > RAID_MAX_MEMBERS)
		return rl_msg_set(msg, msglen, "concat takes 1 to %d members, not %u",
		                  RAID_MAX_MEMBERS, n);
	if (!rounding || rounding % 512)
		return rl_msg_set(msg, msglen, "rounding must be a positive multiple of 512");
	g->nmembers = n;
	for (unsigned i = 0; i < n; i++) {
		uint64_t s = sizes[i] / rounding * rounding;
		if (!s)
			return rl_msg_set(msg, msglen,
			                  "member %u holds %llu bytes, less than the rounding "
			                  "(%llu)",
			                  i, (unsigned long long)sizes[i],
			                  (unsigned long long)rounding);
		g->start[i + 1] = g->start[i] + s;
	}
	g->size = g->start[n];
	return 0;
}

uint64_t concat_geom_map(const struct concat_geom *g, uint64_t off, uint64_t len,
                         struct raid_loc *loc)
{
	unsigned lo = 0, hi = g->nmembers - 1;

	/* The last member whose start is <= off. */
	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;
		if (g->start[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	loc->member = lo;
	loc->offset = off - g->start[lo];
	return layout_min(len, g->start[lo + 1] - off);
}
