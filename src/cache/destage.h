/*
 * destage.h - writing dirty lines back: the destage path (destage.c).
 *
 * Two users share the line operation (cache_destage_begin / _end /
 * _unguard, cache_dirty_run): the background destage of this file and a
 * host FLUSH (flush.c).  The host paths otherwise only tell the destager
 * what happened (a request arrived: idle time starts over; a write
 * arrived: an idle flush stops; a write found no room: destage now), ask
 * whether a write-back write should kick it, and kick it or arm its idle
 * timer.  When a background destage ends the destager calls the room()
 * hook it was given at creation, so a write waiting for room is retried
 * without this file knowing the write path.
 */
#ifndef RL_CACHE_DESTAGE_H
#define RL_CACHE_DESTAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/lock.h"
#include "core/io.h"

struct cache_line;
struct json_object;

#define CACHE_UNWRITTEN_MAX 64 /* ranges of data lost to destage errors that are listed */

/* A background request of the destager: a member write, or the idle timer. */
struct cache_dreq {
	struct rl_io io; /* the member write, or the timer carrier */
	struct cache *c;
	struct cache_dreq *next_free;
	uint32_t line; /* line index (writes) */
	bool busy;     /* in flight */
	bool timer;    /* the idle-flush timer */
};

struct cache_destager {
	struct cache_dreq *reqs; /* destage-qd writes, then the timer */
	uint32_t nreqs;
	struct cache_dreq *free;  /* idle writes */
	struct cache_dreq *timer; /* the idle-flush timer */
	uint32_t busy;            /* background writes in flight */
	uint32_t lines_busy;      /* lines with a destage (background or flush) in flight */
	bool on;                  /* between the high and the low watermark */
	bool idle_mode;           /* idle flush: destage everything */
	bool idle_armed;          /* the timer is set */
	uint64_t last_io;         /* executor time of the latest host request */
	/* a background destage ended: room for dirty data may be free (no lock held) */
	void (*room)(struct cache *c);
	/*
	 * What a destage writes (NULL when the cache keeps no data): per line
	 * index, a copy of the line's runs taken under the lock as each is
	 * issued, so no member reads a line's buffer while host writes copy
	 * into it; and up to spare_max buffers kept for the next destages.
	 */
	uint8_t **stage;
	uint8_t **spare;
	uint32_t nspare, spare_max;

	/* acknowledged data still dirty when the run ended (first ranges kept) */
	uint64_t unwritten_bytes;
	uint32_t nunwritten;
	bool unwritten_truncated;
	struct {
		uint64_t off, len;
	} unwritten[CACHE_UNWRITTEN_MAX];

	/* counters */
	uint64_t ios, bytes, errors; /* member writes (background and flush) */
	uint64_t idle_flushes, orphans;
	uint64_t replayed_bytes; /* written back by the replay after a power cut */
};

/** Reserve the background requests; @room is called as struct cache_destager says. */
int cache_destage_init(struct cache *c, void (*room)(struct cache *c));
void cache_destage_free(struct cache *c);

/* --- what the host paths tell the destager --- */

/** A host request arrived at @now (the idle time starts over).  Lock held. */
void cache_destage_host_io(struct cache *c, uint64_t now) RL_REQUIRES(c);
/** A host write arrived: an idle flush in progress stops.  Lock held. */
void cache_destage_host_write(struct cache *c) RL_REQUIRES(c);
/** A write found no room for dirty data: destage from now on.  Lock held. */
void cache_destage_press(struct cache *c) RL_REQUIRES(c);
/** Should a write-back write that just made data dirty kick the destage?  Lock held. */
bool cache_destage_due(const struct cache *c) RL_REQUIRES(c);
/**
 * Start background destage on @ex if the watermarks or the idle flush ask
 * for it.  Call without the lock.
 */
void cache_destage_kick(struct cache *c, struct rl_exec *ex) RL_EXCLUDES(c);
/** Arm the idle-flush timer on @ex if needed.  Lock held. */
void cache_idle_arm(struct cache *c, struct rl_exec *ex, uint64_t now) RL_REQUIRES(c);

/* --- one line's destage (background and flush) --- */

/**
 * The first destage run of @l at or after block @from: it starts at a dirty
 * block, spans valid blocks only and ends at a dirty block.  Returns its
 * first block and sets *len, or returns the blocks per line when no dirty
 * block is left.  Lock held.
 */
uint32_t cache_dirty_run(const struct cache *c, const struct cache_line *l, uint32_t from,
                         uint32_t *len) RL_REQUIRES(c);
/**
 * Start a destage of @l on @ex (busy, pinned, guard held).  False, with
 * nothing begun, when no buffer for its copy can be had.  Lock held.
 */
bool cache_destage_begin(struct cache *c, struct cache_line *l, struct rl_exec *ex) RL_REQUIRES(c);
/**
 * The data of the run [s, s+len) of @l that a member write of the destage
 * carries: copied now from the line (NULL when the cache keeps no data).
 * Lock held.
 */
uint8_t *cache_destage_data(struct cache *c, const struct cache_line *l, uint32_t s, uint32_t len)
    RL_REQUIRES(c);
/**
 * Bookkeeping when a destage request of line @idx covering blocks [b0,
 * b0+n) ends.  Returns the waiters to wake (or NULL).  Lock held.
 */
struct rl_io *cache_destage_end(struct cache *c, uint32_t idx, uint32_t b0, uint32_t n, bool fua,
                                int status) RL_REQUIRES(c);
/** Drop the issuing guard of a destage; returns waiters to wake.  Lock held. */
struct rl_io *cache_destage_unguard(struct cache *c, struct cache_line *l) RL_REQUIRES(c);

/* --- the run's end --- */

/**
 * Forget background work stranded on executors that no longer run (no
 * host request in flight); @new_clock: a new job starts, whose clock may
 * differ from the old one.  Lock held.
 */
void cache_destage_settle(struct cache *c, bool new_clock) RL_REQUIRES(c);
/**
 * End of the run, after the last write-back: record what is still dirty
 * (acknowledged data the member never received) and say so on stderr,
 * --quiet or not.  Lock held.
 */
void cache_destage_account_lost(struct cache *c) RL_REQUIRES(c);
/** Add the destage counters, the failure state and the lost data to a report.  Lock held. */
void cache_destage_report(const struct cache *c, struct json_object *o) RL_REQUIRES(c);

#endif
