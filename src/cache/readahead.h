/*
 * readahead.h - the read policy's prefetch path (readahead.c).
 *
 * The host read path calls cache_readahead() after each read; the rest is
 * this file's own: the streams it recognises and the prefetch requests it
 * owns (ra-qd of them, each with a line-size staging buffer when the cache
 * keeps data).  A prefetch marks its line busy (FILL); host reads that
 * wait for it are resumed through the line's waiters (lines.h).
 */
#ifndef RL_CACHE_READAHEAD_H
#define RL_CACHE_READAHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/lock.h"
#include "core/io.h"

#define CACHE_STREAMS 8

/* One read stream for sequential detection. */
struct cache_stream {
	uint64_t next;   /* offset just after the last read of the stream */
	uint64_t ra_end; /* prefetched up to here */
	uint64_t used;   /* LRU stamp */
	uint32_t count;  /* consecutive sequential reads after the first */
};

/* A prefetch: one member read into a staging buffer. */
struct cache_fill {
	struct rl_io io;
	struct cache *c;
	struct cache_fill *next_free;
	uint32_t line;    /* line index */
	bool busy;        /* in flight */
	bool populate_ok; /* no uncached write was in flight at issue */
	uint64_t epoch;   /* the table's nc_epoch at issue */
	uint8_t *staging; /* line-size buffer (NULL without data) */
};

struct cache_ra {
	struct cache_stream streams[CACHE_STREAMS];
	uint64_t stream_clock;
	struct cache_fill *fills; /* ra-qd of them (none with read=none) */
	uint32_t nfills;
	struct cache_fill *free;
	uint32_t busy;  /* prefetches in flight */
	uint8_t *stage; /* the staging buffers, nfills * line bytes */

	/* counters */
	uint64_t issued_bytes, requests;
	uint64_t orphans; /* prefetches stranded on executors that are gone */
};

int cache_ra_init(struct cache *c);
void cache_ra_free(struct cache *c);
/**
 * A host read of [off, off+len) arrived on @ex: update the streams and,
 * if the policy says so, prefetch what follows.  Call without the lock.
 */
void cache_readahead(struct cache *c, struct rl_exec *ex, uint64_t off, uint32_t len)
    RL_EXCLUDES(c);
/** Forget prefetches stranded on executors that no longer run.  Lock held. */
void cache_ra_settle(struct cache *c) RL_REQUIRES(c);

#endif
