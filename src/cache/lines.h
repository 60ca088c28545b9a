/*
 * lines.h - the line table: the bottom layer of the cache (lines.c).
 *
 * The table knows lines, blocks and bitmaps, nothing of requests, policies
 * or members: every other part of the cache reaches line state through the
 * functions below (and the inline accessors), and the table calls nobody.
 * Every function expects the cache lock to be held.
 *
 * Line life: FREE -> (allocated) CLEAN <-> DIRTY -> (evicted when clean
 * and unreferenced) FREE.  A line is pinned (refs > 0) while a request or
 * background operation references it; pinned lines are never evicted.  At
 * most one member operation that reads or writes the line's buffer runs per
 * line at a time (busy: a prefetch FILL or a DESTAGE); requests that must
 * wait for it queue on the line (waiters) and are resumed through their
 * own io->resume when it ends (cache_waiters_wake), so the operation that
 * ends never needs to know which path parked them.
 */
#ifndef RL_CACHE_LINES_H
#define RL_CACHE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/io.h"

#define CACHE_NONE   UINT32_MAX /* no line */
#define CACHE_NO_TAG UINT64_MAX

enum cache_list { CACHE_L_FREE = 0, CACHE_L_CLEAN, CACHE_L_DIRTY, CACHE_L_COUNT };
enum cache_busy { CACHE_BUSY_NONE = 0, CACHE_BUSY_FILL, CACHE_BUSY_DESTAGE };

struct cache_line {
	uint64_t tag;         /* line number (offset / line size), CACHE_NO_TAG when free */
	uint64_t wseq;        /* write sequence of the latest copy into the line */
	uint64_t dirty_since; /* write sequence that made it dirty (clean -> dirty) */
	uint64_t covered;     /* a destage issued at this sequence has completed */
	uint64_t dseq;        /* write sequence when the destage in flight was issued */
	struct rl_exec *busy_ex;
	struct rl_io *waiters; /* requests waiting for the busy operation (linked by ->next) */
	uint32_t hnext;        /* hash chain */
	uint32_t prev, next;   /* list links */
	uint32_t refs;         /* pins: evictable only at 0 */
	uint32_t wt;           /* write-throughs of this line in flight */
	uint32_t nvalid, ndirty;
	uint32_t busy_n; /* member requests of the busy operation in flight (+1 while issuing) */
	uint8_t list;    /* enum cache_list */
	uint8_t busy;    /* enum cache_busy */
	uint8_t dfail;   /* a request of the destage in flight failed, or it was partial */
	uint8_t derr;    /* a member write of its destage failed: pinned, not retried in the
	                    background (a host flush or the end of the run tries again) */
};

/* The table.  Geometry is set before cache_lines_init(); the rest is its own. */
struct cache_table {
	/* geometry */
	uint64_t line;   /* bytes per line */
	uint32_t bs;     /* block size of the target below */
	uint32_t bpl;    /* blocks per line */
	uint32_t words;  /* bitmap words per line */
	uint32_t nlines; /* lines in all */

	struct cache_line *lines;
	/*
	 * Per-line bitmaps, nlines * words each: valid (the line holds the
	 * block), dirty (newer than the member), rabits (prefetched, not yet
	 * read), and the write-order bookkeeping of cache.h: wtouch / dtouch
	 * ("touched" since a write-through / a destage began) and wtb (blocks of
	 * write-throughs in flight).
	 */
	uint64_t *valid, *dirty, *rabits, *wtouch, *dtouch, *wtb;
	uint32_t *hash; /* bucket -> first line of its chain */
	uint32_t hmask;
	uint32_t head[CACHE_L_COUNT], tail[CACHE_L_COUNT], count[CACHE_L_COUNT];
	uint8_t *data; /* nlines * line bytes, NULL when the member keeps no data */
	size_t data_len;

	uint64_t wseq; /* write sequence: bumped by every copy of host data into a line */
	/*
	 * The uncached-write guard: a write that takes no line may land after a
	 * member read of the same blocks, so a read or prefetch may keep what
	 * it read only if no such write was in flight when it went down and
	 * none began since (nc_epoch unchanged).
	 */
	uint64_t nc_epoch;    /* bumped when an uncached write starts */
	uint32_t nc_inflight; /* uncached writes in flight */

	/* counters */
	uint64_t evictions;
	uint64_t dirty_blocks, dirty_peak_blocks;
	uint64_t ra_wasted_bytes; /* prefetched blocks evicted before anyone read them */
};

/** Reserve everything (the data area too when @with_data).  -ENOMEM on failure. */
int cache_lines_init(struct cache_table *tb, bool with_data);
void cache_lines_free(struct cache_table *tb);
/** The line holding line number @tag, or NULL. */
struct cache_line *cache_find(struct cache_table *tb, uint64_t tag);
/** A line for @tag (not present): a free or evictable clean line, or NULL. */
struct cache_line *cache_alloc(struct cache_table *tb, uint64_t tag);
/** Move @l to the tail (newest end) of list @list. */
void cache_list_move(struct cache_table *tb, struct cache_line *l, int list);
/** Host data into the line: blocks [b0, b0+n) valid and (dirty) dirty. */
void cache_copy_in(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n,
                   const uint8_t *src, bool dirty, uint64_t seq);
/** Clear dirty bits [b0, b0+n) (data reached the member); keeps lists right. */
void cache_clean(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n);
/** Forget blocks [b0, b0+n) entirely (trim, failed or uncached write). */
void cache_forget(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n);
/**
 * A member read of blocks [b0, b0+n) of @l landed in @buf: overlay the
 * blocks the cache holds (newer) onto @buf, and when @populate fill the
 * blocks it does not hold from @buf.  @ra marks the filled blocks as
 * prefetched.  Returns the blocks filled.
 */
uint32_t cache_merge_read(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n,
                          uint8_t *buf, bool populate, bool ra);
/** Drop every line (after a power cut, or at the end of a replay). */
void cache_drop_all(struct cache_table *tb);
/** Resume every request of a waiter list (call without the lock). */
void cache_waiters_wake(struct rl_io *list);
/** Park @io on @l's waiters; it continues in @resume when the busy operation ends. */
static inline void cache_waiter_add(struct cache_line *l, struct rl_io *io,
                                    void (*resume)(struct rl_io *io))
{
	io->resume = resume;
	io->next = l->waiters;
	l->waiters = io;
}

/* --- pins, busy operations, write-throughs: the only writers of these fields --- */

/** A request or operation references @l: it is not evicted until unpinned. */
static inline void cache_pin(struct cache_line *l)
{
	l->refs++;
}
static inline void cache_unpin(struct cache_line *l)
{
	l->refs--;
}
/**
 * A member operation of @kind on @l's buffer starts on @ex: @l is pinned,
 * busy, and holds one piece (the issuing guard).  A destage also records
 * the write sequence it covers and starts with no failure.
 */
void cache_busy_begin(struct cache_table *tb, struct cache_line *l, enum cache_busy kind,
                      struct rl_exec *ex);
/** One more member request of the busy operation is in flight. */
static inline void cache_busy_add(struct cache_line *l)
{
	l->busy_n++;
}
/** One member request (or the guard) of the busy operation ended: true when it was the last. */
static inline bool cache_busy_put(struct cache_line *l)
{
	return --l->busy_n == 0;
}
/** A piece of the destage failed or was partial; @member_error: a member write failed. */
static inline void cache_busy_fail(struct cache_line *l, bool member_error)
{
	l->dfail = 1;
	if (member_error)
		l->derr = 1;
}
/**
 * The busy operation on @l is over: not busy, unpinned; a destage that did
 * not fail covers the sequence it began at and clears a member error.
 * Returns the requests that waited for it, to be woken without the lock.
 */
struct rl_io *cache_busy_end(struct cache_line *l);
/** A write-through of @l goes down (pinned until it ends). */
static inline void cache_wt_begin(struct cache_line *l)
{
	l->refs++;
	l->wt++;
}
static inline void cache_wt_end(struct cache_line *l)
{
	l->wt--;
	l->refs--;
}
/** The next write sequence, stamped on @l as its latest copy. */
static inline uint64_t cache_stamp(struct cache_table *tb, struct cache_line *l)
{
	return l->wseq = ++tb->wseq;
}
/** The next write sequence (a copy that stamps the line itself, cache_copy_in). */
static inline uint64_t cache_seq_next(struct cache_table *tb)
{
	return ++tb->wseq;
}

/* --- bitmaps --- */

bool cache_bits_all(const uint64_t *m, uint32_t b0, uint32_t n);
uint32_t cache_bits_count(const uint64_t *m, uint32_t b0, uint32_t n);
void cache_bits_set(uint64_t *m, uint32_t b0, uint32_t n);
void cache_bits_clear(uint64_t *m, uint32_t b0, uint32_t n);
static inline bool cache_bit(const uint64_t *m, uint32_t b)
{
	return (m[b >> 6] >> (b & 63)) & 1;
}

/* --- accessors --- */

static inline uint32_t cache_idx(const struct cache_table *tb, const struct cache_line *l)
{
	return (uint32_t)(l - tb->lines);
}
/** The data of block @b of @l, or NULL when the cache keeps no data. */
static inline uint8_t *cache_buf(const struct cache_table *tb, const struct cache_line *l,
                                 uint32_t b)
{
	return tb->data ? tb->data + (uint64_t)cache_idx(tb, l) * tb->line + (uint64_t)b * tb->bs
	                : NULL;
}
/** @l's words of bitmap @map (one of the table's). */
static inline uint64_t *cache_bits(const struct cache_table *tb, uint64_t *map,
                                   const struct cache_line *l)
{
	return map + (uint64_t)cache_idx(tb, l) * tb->words;
}
/** The line number of byte offset @off. */
static inline uint64_t cache_tag(const struct cache_table *tb, uint64_t off)
{
	return off / tb->line;
}
/** A write goes down without a line: reads that start now may not keep what they find. */
static inline void cache_uncached_begin(struct cache_table *tb)
{
	tb->nc_inflight++;
	tb->nc_epoch++;
}
static inline void cache_uncached_end(struct cache_table *tb)
{
	tb->nc_inflight--;
}

#endif
