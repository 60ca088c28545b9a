/*
 * powerloss.c - cutting the power, and what a real controller would lose.
 *
 *   cache(..., powerloss-after=N)   the power fails right after the N-th
 *                                   write the cache acknowledges
 *
 * At the cut the cache records, in its own address space, every block whose
 * newest acknowledged data is not safe:
 *   - "controller cache": dirty in the cache, and the cache is volatile
 *     (write=force-back without a good battery and without nv=on).  With a
 *     battery or NV cache the dirty blocks are preserved instead (counted
 *     as preserved, replayed to the members when the run finishes: the
 *     next boot);
 *   - "drive cache": not dirty in the cache, but written to the members
 *     without RL_IO_FUA and not covered by a completed member flush since
 *     (disk-cache=on: the drives' volatile write caches).  Tracking is per
 *     granule (the block size, coarser only for very large targets), one
 *     32-bit stamp each: the flush epoch current when the write completed;
 *     a member flush that began at epoch E clears the stamps <= E when it
 *     succeeds, a FUA write or a trim clears the granules it covers.
 * Writes that were not acknowledged when the power failed are not counted:
 * their data may or may not have reached the members, as on real hardware.
 * Blocks of the list are in address order; adjacent blocks of one cause
 * form one range; at most CACHE_LOST_MAX ranges are kept (bytes are always
 * counted in full).
 *
 * After the cut the target is a powered-off device: every request, new or
 * in flight, completes with -EIO (a job stops at its first error), the
 * cache state is frozen, background work stops.  Member contents are left
 * as they are: data in a member's volatile cache is reported lost but is
 * not removed from a mem or file member.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "cache/cache.h"
#include "cache/powerloss.h"

#define CACHE_LOST_MAX   4096
#define CACHE_STAMPS_MAX (1ull << 25)
#define CACHE_LOST_CTRL  0
#define CACHE_LOST_DRIVE 1

int cache_pl_init(struct cache *c)
{
	uint64_t gran = c->tab.bs;

	if (!c->cfg.powerloss_after)
		return 0;
	c->pw.lost_cap = CACHE_LOST_MAX;
	c->pw.lost = calloc(c->pw.lost_cap, sizeof(*c->pw.lost));
	if (!c->pw.lost)
		return -ENOMEM;
	c->pw.fl_epoch = 1;
	if (!c->cfg.disk_cache)
		return 0; /* every member write is FUA: nothing to track */
	while ((c->t->size + gran - 1) / gran > CACHE_STAMPS_MAX && gran < c->tab.line)
		gran <<= 1;
	c->pw.gran_shift = (uint32_t)__builtin_ctzll(gran);
	c->pw.ngran = (c->t->size + gran - 1) / gran;
	c->pw.stamp = calloc(c->pw.ngran, sizeof(*c->pw.stamp));
	return c->pw.stamp ? 0 : -ENOMEM;
}

void cache_pl_free(struct cache *c)
{
	free(c->pw.stamp);
	free(c->pw.lost);
}

/* Granules wholly inside [off, off+len): [*g0, *g1). */
static void cache_gran_inside(const struct cache *c, uint64_t off, uint64_t len, uint64_t *g0,
                              uint64_t *g1) RL_REQUIRES(c)
{
	uint64_t gran = 1ull << c->pw.gran_shift;

	*g0 = (off + gran - 1) >> c->pw.gran_shift;
	*g1 = (off + len) >> c->pw.gran_shift;
	if (off + len == c->t->size)
		*g1 = c->pw.ngran; /* a short last granule */
}

void cache_pl_member_write(struct cache *c, uint64_t off, uint64_t len, bool fua)
{
	uint64_t g0, g1;

	if (!c->pw.stamp || !len)
		return;
	if (fua) {
		cache_gran_inside(c, off, len, &g0, &g1);
		for (uint64_t g = g0; g < g1; g++)
			c->pw.stamp[g] = 0;
		return;
	}
	for (uint64_t g = off >> c->pw.gran_shift; g <= (off + len - 1) >> c->pw.gran_shift; g++)
		c->pw.stamp[g] = c->pw.fl_epoch;
}

void cache_pl_member_trim(struct cache *c, uint64_t off, uint64_t len)
{
	uint64_t g0, g1;

	if (!c->pw.stamp)
		return;
	cache_gran_inside(c, off, len, &g0, &g1);
	for (uint64_t g = g0; g < g1; g++)
		c->pw.stamp[g] = 0;
}

uint32_t cache_pl_flush_begin(struct cache *c)
{
	return c->pw.fl_epoch++;
}

void cache_pl_flush_done(struct cache *c, uint32_t epoch)
{
	if (!c->pw.stamp)
		return;
	for (uint64_t g = 0; g < c->pw.ngran; g++)
		if (c->pw.stamp[g] && c->pw.stamp[g] <= epoch)
			c->pw.stamp[g] = 0;
}

void cache_pl_acked(struct cache *c)
{
	c->pw.acked_writes++;
	if (c->cfg.powerloss_after && !c->pw.off && c->pw.acked_writes == c->cfg.powerloss_after)
		cache_pl_cut(c);
}

static void cache_lost_add(struct cache *c, uint64_t off, uint64_t len, uint8_t cause)
    RL_REQUIRES(c)
{
	struct cache_lost *last = c->pw.nlost ? &c->pw.lost[c->pw.nlost - 1] : NULL;

	c->pw.lost_bytes[cause] += len;
	if (last && last->cause == cause && last->off + last->len == off) {
		last->len += len;
		return;
	}
	if (c->pw.nlost == c->pw.lost_cap) {
		c->pw.lost_truncated = true;
		return;
	}
	c->pw.lost[c->pw.nlost++] = (struct cache_lost){.off = off, .len = len, .cause = cause};
}

/* Drive-cache losses in [off, end) of a range the controller holds nothing dirty in. */
static void cache_lost_stamps(struct cache *c, uint64_t off, uint64_t end) RL_REQUIRES(c)
{
	if (!c->pw.stamp)
		return;
	for (uint64_t g = off >> c->pw.gran_shift; g < c->pw.ngran && (g << c->pw.gran_shift) < end;
	     g++) {
		uint64_t s = g << c->pw.gran_shift, e = s + (1ull << c->pw.gran_shift);
		if (!c->pw.stamp[g])
			continue;
		if (e > c->t->size)
			e = c->t->size;
		cache_lost_add(c, s, e - s, CACHE_LOST_DRIVE);
	}
}

void cache_pl_cut(struct cache *c)
{
	bool prot = cache_protected(c);
	uint64_t ntags = (c->t->size + c->tab.line - 1) / c->tab.line;

	c->pw.off = true; /* background work sees it and stops */
	for (uint64_t tag = 0; tag < ntags; tag++) {
		uint64_t base = tag * c->tab.line;
		uint64_t end = base + c->tab.line < c->t->size ? base + c->tab.line : c->t->size;
		struct cache_line *l = cache_find(&c->tab, tag);
		const uint64_t *d;

		if (!l || !l->ndirty) {
			cache_lost_stamps(c, base, end);
			continue;
		}
		d = cache_bits(&c->tab, c->tab.dirty, l);
		for (uint32_t b = 0; base + (uint64_t)b * c->tab.bs < end; b++) {
			uint64_t off = base + (uint64_t)b * c->tab.bs;
			if (cache_bit(d, b)) {
				if (prot)
					c->pw.preserved_bytes += c->tab.bs;
				else
					cache_lost_add(c, off, c->tab.bs, CACHE_LOST_CTRL);
			} else if (c->pw.stamp && c->pw.stamp[off >> c->pw.gran_shift]) {
				cache_lost_add(c, off, c->tab.bs, CACHE_LOST_DRIVE);
			}
		}
	}
}

static const char *const cache_lost_cause[] = {"controller-cache", "drive-cache"};

void cache_pl_report(const struct cache *c, struct json_object *obj, uint64_t replayed)
{
	struct json_object *p = json_object_new_object(), *ranges = json_object_new_array();

	json_object_object_add(p, "state", json_object_new_string(c->pw.off ? "off" : "on"));
	json_object_object_add(p, "powerloss_after",
	                       json_object_new_int64((int64_t)c->cfg.powerloss_after));
	json_object_object_add(p, "acknowledged_writes",
	                       json_object_new_int64((int64_t)c->pw.acked_writes));
	json_object_object_add(
	    p, "lost_bytes",
	    json_object_new_int64((int64_t)(c->pw.lost_bytes[0] + c->pw.lost_bytes[1])));
	json_object_object_add(p, "lost_controller_cache_bytes",
	                       json_object_new_int64((int64_t)c->pw.lost_bytes[CACHE_LOST_CTRL]));
	json_object_object_add(p, "lost_drive_cache_bytes",
	                       json_object_new_int64((int64_t)c->pw.lost_bytes[CACHE_LOST_DRIVE]));
	for (uint32_t i = 0; i < c->pw.nlost; i++) {
		struct json_object *r = json_object_new_object();
		json_object_object_add(r, "offset",
		                       json_object_new_int64((int64_t)c->pw.lost[i].off));
		json_object_object_add(r, "length",
		                       json_object_new_int64((int64_t)c->pw.lost[i].len));
		json_object_object_add(
		    r, "cause", json_object_new_string(cache_lost_cause[c->pw.lost[i].cause]));
		json_object_array_add(ranges, r);
	}
	json_object_object_add(p, "lost_ranges", ranges);
	json_object_object_add(p, "lost_ranges_truncated",
	                       json_object_new_boolean(c->pw.lost_truncated));
	json_object_object_add(p, "preserved_bytes",
	                       json_object_new_int64((int64_t)c->pw.preserved_bytes));
	json_object_object_add(p, "replayed_bytes", json_object_new_int64((int64_t)replayed));
	json_object_object_add(obj, "power", p);
}

void cache_pl_print(struct cache *c)
{
	uint64_t lost = c->pw.lost_bytes[0] + c->pw.lost_bytes[1];
	uint32_t show = c->pw.nlost < 8 ? c->pw.nlost : 8;

	/* --quiet hides the report, never a loss of acknowledged data. */
	if (!c->pw.off || c->pw.reported || (c->cfg.quiet && !lost))
		return;
	c->pw.reported = true;
	fprintf(stderr,
	        "raidlab: cache: power cut after %llu acknowledged writes: %llu bytes of "
	        "acknowledged data lost in %u range(s)%s",
	        (unsigned long long)c->pw.acked_writes, (unsigned long long)lost, c->pw.nlost,
	        c->pw.lost_truncated ? " (list truncated)" : "");
	if (c->pw.preserved_bytes)
		fprintf(stderr, "; %llu dirty bytes preserved and replayed",
		        (unsigned long long)c->pw.preserved_bytes);
	fputc('\n', stderr);
	for (uint32_t i = 0; i < show; i++)
		fprintf(stderr, "raidlab: cache:   lost offset %llu length %llu (%s)\n",
		        (unsigned long long)c->pw.lost[i].off,
		        (unsigned long long)c->pw.lost[i].len,
		        cache_lost_cause[c->pw.lost[i].cause]);
	if (show < c->pw.nlost)
		fprintf(stderr, "raidlab: cache:   ... %u more in the JSON result\n",
		        c->pw.nlost - show);
}
