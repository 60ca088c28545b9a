/*
 * host.h - the host paths: what happens to a request the cache receives.
 *
 *   request.c   the way in and out every host request shares: its state in
 *               context (struct cache_req), the DRAM time of what it moved,
 *               the one completion path (cache_host_done/_final), fan-out
 *               sealing and waiting for child requests
 *   hostio.c    reads, writes (write-back, write-through) and trims
 *   flush.c     flushes: destage what was dirty, then flush the drives
 *
 * cache.c dispatches each request to its path after the firmware's time.
 * The paths use the line table (lines.h), the destager (destage.h), the
 * read-ahead path (readahead.h) and the power path (powerloss.h) through
 * their functions; the state below is theirs.
 */
#ifndef RL_CACHE_HOST_H
#define RL_CACHE_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "cache/lock.h"
#include "core/exec.h"
#include "core/io.h"
#include "core/target.h"

/* The host side's state.  Lock held for all of it. */
struct cache_host {
	uint32_t inflight;     /* host requests inside the cache */
	uint64_t dram_free;    /* the DRAM channel is busy until then (virtual clock) */
	uint64_t fw_free;      /* the firmware's command processor is busy until then */
	uint64_t vseen;        /* latest simulated time seen (virtual executors) */
	struct rl_io *wb_wait; /* full=wait: writes waiting for room, oldest first */
	struct rl_io **wb_wait_tail;
	struct {
		uint64_t reads, read_hits, read_misses, read_hit_bytes, read_miss_bytes;
		uint64_t read_waits; /* read pieces that waited for a prefetch */
		uint64_t writes, writes_back, writes_through, writes_full, writes_fua,
		    writes_waited;
		uint64_t write_bytes;
		uint64_t trims, flushes, member_flushes;
		uint64_t ra_used_bytes; /* prefetched blocks a host read used */
	} n;
};

/*
 * A host request's state while the cache holds it: its context (io.h,
 * RL_IO_CTX_DEFINE).  cache_req() is the only way to it.
 */
struct cache_req {
	rl_io_cb cb;         /* the submitter's callback, put back by cache_host_final */
	struct rl_target *t; /* this cache's target */
	union {
		struct {              /* reads, writes and trims (hostio.c) */
			uint32_t cur; /* bytes issued so far (a parked request resumes here) */
			/* bytes copied out of lines (their DRAM time is added at the end) */
			uint32_t hit_bytes;
			uint32_t
			    epoch; /* reads: the table's nc_epoch when the first miss went down */
			uint16_t flags; /* CACHE_R_* */
		} rw;
		struct {                /* flushes (flush.c) */
			uint64_t seq;   /* the write sequence at arrival; then the drive-cache flush
			                   token */
			uint32_t line;  /* the pass's cursor: this line */
			uint16_t blk;   /* and this block in it */
			uint16_t flags; /* CACHE_F_* (flush.c) */
		} fl;
	} u;
};
RL_IO_CTX_DEFINE(cache_req, struct cache_req)

#define CACHE_R_DELAYED 0x01u /* the DRAM time was added */
#define CACHE_R_MEMBER  0x02u /* some piece was read from the member */
#define CACHE_R_THROUGH 0x04u /* a write that went to the members */
#define CACHE_R_EPOCH   0x08u /* a read's epoch is set (its first miss went down) */
#define CACHE_R_NOFILL  0x10u /* a read's misses may not fill lines (see hostio.c) */
#define CACHE_R_UNCLEAN 0x20u /* a write-through piece raced a destage: its blocks stay dirty */

#define CACHE_POLL_NS 20000 /* re-check of a line busy on another thread's executor */

static inline struct cache *cache_of(const struct rl_io *io)
{
	return cache_req(io)->t->priv;
}

static inline uint8_t *cache_host_buf(const struct rl_io *io, uint64_t rel)
{
	return io->buf ? (uint8_t *)io->buf + rel : NULL;
}

/* --- request.c: in and out --- */

/** When @bytes moved through the cache's DRAM starting at @now are done.  Lock held. */
uint64_t cache_dram(struct cache *c, uint64_t now, uint64_t bytes) RL_REQUIRES(c);
/** The last step of every host request: power state, counters, the submitter's callback. */
void cache_host_final(struct rl_io *io, int status);
/** A host request's fan-out is done: add the DRAM time of its hits, then final. */
void cache_host_done(struct rl_io *io, int status);
/** End of issuing a fan-out: complete from the loop if no child is in flight. */
void cache_seal(struct rl_io *io);
/** The pool ran dry: park @io (true), or note -ENOMEM when there is no pool (false). */
bool cache_wait_pool(struct rl_io *io, rl_exec_resume_fn resume);

/* --- the paths --- */

void cache_read_start(struct cache *c, struct rl_io *io) RL_EXCLUDES(c);
void cache_write_start(struct cache *c, struct rl_io *io) RL_EXCLUDES(c);
void cache_trim_start(struct cache *c, struct rl_io *io) RL_EXCLUDES(c);
void cache_flush_start(struct cache *c, struct rl_io *io) RL_EXCLUDES(c);
/** Destage freed room: retry the write-back writes that waited for it (no lock held). */
void cache_wb_wake(struct cache *c) RL_EXCLUDES(c);

#endif
