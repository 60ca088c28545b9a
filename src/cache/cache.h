/*
 * cache.h - the controller cache's core (src/cache only).
 *
 * cache(TARGET, ...) is a RAID controller's cache in front of one target:
 * a fixed set of lines (line= bytes each, size= in all) holding data in RAM,
 * found by a hash of the line number, with per-block valid, dirty and
 * read-ahead bitmaps.  It is built in layers, each with its own state and
 * its own header; a layer uses the ones below it through their functions
 * and never writes their state:
 *
 *   cache.c       the target: spec, create, describe/report, attach,
 *                 finish, submit; the firmware's time; dispatch to a path
 *   host.h        the host paths: request.c (the way in and out),
 *                 hostio.c (reads, writes, trims), flush.c (flushes)
 *   destage.h     destage.c: writing dirty lines back, background and for
 *                 a flush
 *   readahead.h   readahead.c: stream detection and prefetch
 *   powerloss.h   powerloss.c: the power cut, drive-cache tracking
 *   lines.h       lines.c: the line table, lists, bitmaps, data
 *
 * Calls go down that list, never up: the destager tells the write path
 * that room was freed through the room() hook it was given, and requests
 * parked on a busy line are resumed through their own io->resume.  Two
 * things every layer reads and only their owners write: the configuration
 * (struct cache_conf, set once by cache.c) with the table's geometry, and
 * whether the power is off (c->pw.off, powerloss.c).
 *
 * Concurrency.  A target is shared by every worker thread of a real run, so
 * all state lives under one mutex (c->lock).  It is held only while looking
 * at or changing that state and copying data in or out of the cache; it is
 * never held while calling a completion callback, rl_io_child_end() or
 * anything that can resume another request, so a completion that re-enters
 * the cache cannot deadlock.  Line memory is touched only under it too: a
 * member write of a destage carries a copy of its run taken when it is
 * issued (cache_destage_data), a prefetch reads into its own staging
 * buffer.  cache/lock.h says how the lock rules are checked (RL_REQUIRES:
 * "Lock held.", RL_EXCLUDES: takes the lock itself).  A simulated run is
 * single-threaded: the mutex is then uncontended.
 *
 * Write order.  The members may apply overlapping writes in any order, so
 * a block is marked clean only when the newest data is surely below.  Every
 * copy of host data into a line marks its blocks in two "touched" bitmaps.
 * A write-through or FUA write never starts while its line is being
 * destaged (it waits, like a flush); while it is in flight its blocks are
 * marked in wtb, and at its start it clears wtouch for them: at its
 * completion it clears the dirty bits of those no later copy touched.  A
 * destage sets dtouch to wtb when it begins (a write-through in flight may
 * land after it), and at its completion clears the dirty bits of the blocks
 * it wrote that are still untouched.  Blocks left dirty are destaged again
 * from the line, whose buffer always holds the newest data.
 */
#ifndef RL_CACHE_CACHE_H
#define RL_CACHE_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "cache/destage.h"
#include "cache/host.h"
#include "cache/lines.h"
#include "cache/powerloss.h"
#include "cache/readahead.h"
#include "core/exec.h"
#include "core/lock.h"
#include "core/registry.h"
#include "core/target.h"

enum cache_read_policy { CACHE_READ_NONE = 0, CACHE_READ_AHEAD, CACHE_READ_ADAPTIVE };
enum cache_write_policy { CACHE_WRITE_THROUGH = 0, CACHE_WRITE_BACK, CACHE_WRITE_FORCE };
enum cache_battery { CACHE_BAT_OK = 0, CACHE_BAT_BAD, CACHE_BAT_NONE };

/* The configuration: set by cache_parse() (cache.c), read-only afterwards. */
struct cache_conf {
	int read, write, battery; /* enum cache_read_policy, cache_write_policy, cache_battery */
	bool nv;                  /* the cache survives a power cut by itself */
	bool disk_cache;          /* the members' volatile write caches are on */
	bool wb;                  /* writes are acknowledged from the cache (write-back in force) */
	uint64_t size;            /* bytes of cache (whole lines) */
	double high_pct, low_pct; /* dirty watermarks, percent of dirty_max */
	uint32_t dirty_max;       /* dirty lines the cache may hold: dirty-max of all lines */
	double dirty_max_pct;
	uint32_t high_lines, low_lines; /* the watermarks in lines */
	bool full_wait;    /* full=wait: a write-back write that finds no room waits for destage */
	uint64_t idle_ns;  /* idle-flush: destage everything after this long without I/O */
	uint64_t ra_bytes; /* read-ahead window */
	uint32_t destage_qd; /* destage writes in flight at most (background; each flush) */
	uint32_t ra_qd;      /* prefetches in flight at most */
	uint64_t dram_lat;   /* DRAM time of a hit or acknowledgement: lat + bytes / bw */
	uint64_t dram_bw;
	uint64_t powerloss_after; /* cut the power after this many acknowledged writes; 0: never */
	bool quiet;
	/*
	 * The controller's own firmware (docs/cache.md, "Firmware"): io=direct
	 * keeps read misses and write-through data out of the lines; every host
	 * command occupies the firmware for fw_cmd (one at a time) and waits
	 * fw_lat more, plus fw_line per line it touches; a FastPath volume
	 * (write-through, no read-ahead, direct I/O, fastpath=on) bypasses the
	 * cache firmware for fp_cmd / fp_lat.  wt_fua: write-through member
	 * writes carry FUA.  Simulated runs only.
	 */
	bool io_direct, fastpath, fastpath_on, wt_fua;
	uint64_t fw_cmd, fw_lat, fw_line, fp_cmd, fp_lat;
	bool ra_detect;   /* read=ahead prefetches only for sequential streams */
	bool ra_stripe;   /* read-ahead stops at the end of the array's stripe row */
	bool sync_dram;   /* protected-sync=dram: FLUSH and FUA complete from a protected cache */
	char profile[64]; /* the controller profile it came from ("" if none) */
};

struct cache {
	struct rl_target *t;     /* the cache target itself */
	struct rl_target *below; /* the target it caches */
	struct rl_mutex lock;

	struct cache_conf cfg;
	struct cache_table tab;   /* lines.c */
	struct cache_host host;   /* request.c, hostio.c, flush.c, cache.c */
	struct cache_destager ds; /* destage.c */
	struct cache_ra ra;       /* readahead.c */
	struct cache_power pw;    /* powerloss.c */

	/* the end of the run (cache.c) */
	bool draining;  /* the orderly shutdown flush is running */
	bool replaying; /* the preserved cache is being written back after a cut */
	bool replayed;
};

/* One line's part of [io->offset + rel, io->offset + io->len). */
struct cache_piece {
	uint64_t tag, off;
	uint32_t len, b0, n;
};

static inline struct cache_piece cache_piece_at(const struct cache *c, const struct rl_io *io,
                                                uint64_t rel)
{
	struct cache_piece p;
	uint64_t ls, end, line = c->tab.line;

	p.off = io->offset + rel;
	p.tag = p.off / line;
	ls = p.tag * line;
	end = ls + line < io->offset + io->len ? ls + line : io->offset + io->len;
	p.len = (uint32_t)(end - p.off);
	p.b0 = (uint32_t)((p.off - ls) / c->tab.bs);
	p.n = p.len / c->tab.bs;
	return p;
}

/** Is the cache protected against power loss (battery ok or NV)? */
static inline bool cache_protected(const struct cache *c)
{
	return c->cfg.nv || c->cfg.battery == CACHE_BAT_OK;
}

/** Do FLUSH and FUA complete from DRAM (protected write-back, protected-sync=dram)? */
static inline bool cache_sync_in_dram(const struct cache *c)
{
	return c->cfg.sync_dram && c->cfg.wb && cache_protected(c) && !c->replaying && !c->draining;
}

/* The cache's lock (cache/lock.h): to the analysis, the capability is the cache itself. */
static inline void cache_lock(struct cache *c) RL_ACQUIRE(c) RL_NO_TSA;
static inline void cache_lock(struct cache *c)
{
	rl_mutex_lock(&c->lock);
}
static inline void cache_unlock(struct cache *c) RL_RELEASE(c) RL_NO_TSA;
static inline void cache_unlock(struct cache *c)
{
	rl_mutex_unlock(&c->lock);
}

#endif
