/*
 * powerloss.h - the power cut and what it would lose (powerloss.c).
 *
 * The power path keeps two things: whether the power is on (off: every
 * path reads it, only this file writes it), and, from the moment the cache
 * is created, what a cut would lose in the members' volatile caches
 * (drive-cache tracking).  The other paths report to it what reached the
 * members (member writes, trims, flushes) and each acknowledged write; it
 * cuts the power by itself at the chosen write.  Every function expects
 * the cache lock to be held.
 */
#ifndef RL_CACHE_POWERLOSS_H
#define RL_CACHE_POWERLOSS_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/lock.h"

struct json_object;

/* One lost range, reported after a power cut. */
struct cache_lost {
	uint64_t off, len;
	uint8_t cause; /* 0: controller cache, 1: drive cache */
};

struct cache_power {
	bool off;              /* the power was cut: host I/O fails with -EIO */
	bool reported;         /* the loss was printed */
	uint64_t acked_writes; /* writes acknowledged to the host so far */
	/*
	 * Drive-cache tracking (disk-cache=on with powerloss-after=): one stamp
	 * per granule of 2^gran_shift bytes, the flush epoch current when an
	 * unforced member write of it completed; 0 when nothing is pending.
	 */
	uint32_t *stamp;
	uint64_t ngran;
	uint32_t gran_shift;
	uint32_t fl_epoch; /* the epoch the next member flush takes */
	/* what the cut lost, in address order */
	struct cache_lost *lost;
	uint32_t nlost, lost_cap;
	bool lost_truncated;
	uint64_t lost_bytes[2];   /* per cause */
	uint64_t preserved_bytes; /* dirty data a protected cache kept through the cut */
};

int cache_pl_init(struct cache *c);
void cache_pl_free(struct cache *c);
/* Lock held for the calls below, but cache_pl_print (the run is over). */
/** A write acknowledged; cuts the power when it is the chosen one. */
void cache_pl_acked(struct cache *c) RL_REQUIRES(c);
/** Cut the power now: record what is lost. */
void cache_pl_cut(struct cache *c) RL_REQUIRES(c);
/** A member write of [off, off+len) completed (fua: durable). */
void cache_pl_member_write(struct cache *c, uint64_t off, uint64_t len, bool fua) RL_REQUIRES(c);
/** A member trim completed: nothing there to lose any more. */
void cache_pl_member_trim(struct cache *c, uint64_t off, uint64_t len) RL_REQUIRES(c);
/** A member flush begins: returns its epoch. */
uint32_t cache_pl_flush_begin(struct cache *c) RL_REQUIRES(c);
/** That member flush succeeded. */
void cache_pl_flush_done(struct cache *c, uint32_t epoch) RL_REQUIRES(c);
/** Power-loss part of the report (@replayed: bytes the replay wrote back). */
void cache_pl_report(const struct cache *c, struct json_object *obj, uint64_t replayed)
    RL_REQUIRES(c);
/** After the run: one line on stderr saying what was lost. */
void cache_pl_print(struct cache *c);

#endif
