/*
 * cache.h - the controller cache's private interface (src/cache only).
 *
 * cache(TARGET, ...) is a RAID controller's cache in front of one target:
 * a fixed set of lines (line= bytes each, size= in all) holding data in RAM,
 * found by a hash of the line number, with per-block valid, dirty and
 * read-ahead bitmaps.  The pieces, one file each:
 *
 *   cache.c      the target: spec, create, describe/report, attach, finish,
 *                submit, and the one completion path every host request
 *                leaves through
 *   hostio.c     host reads, writes (write-back, write-through) and trims
 *   flush.c      host flushes: destage what was dirty, then flush the drives
 *   lines.c      the line table: hash, lists (free / clean LRU / dirty by
 *                age), allocation and eviction, bitmaps, populate and copy
 *   destage.c    background write-back: watermarks, idle flush, the destage
 *                of one line (shared with flushes), orphan settling
 *   readahead.c  sequential stream detection and prefetch into lines
 *   powerloss.c  the power cut: what is lost, drive-cache tracking, replay
 *
 * Concurrency.  A target is shared by every worker thread of a real run, so
 * all line state and counters live under one mutex (c->lock).  It is held
 * only while looking at or changing that state and copying data in or out
 * of the cache; it is never held while calling a completion callback,
 * rl_io_child_end() or anything that can resume another request, so a
 * completion that re-enters the cache cannot deadlock.  A simulated run is
 * single-threaded: the mutex is then uncontended.
 *
 * Line life: FREE -> (allocated) CLEAN <-> DIRTY -> (evicted when clean
 * and unreferenced) FREE.  A line is pinned (refs > 0) while a request or
 * background operation references it; pinned lines are never evicted.  At
 * most one member operation that reads or writes the line's buffer runs per
 * line at a time (busy: a prefetch FILL or a DESTAGE), so two member writes
 * of the same line are never in flight together; requests that must wait
 * for that operation wait on the line (waiters, same executor only; other
 * threads poll with a short timer).
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

#include "core/exec.h"
#include "core/registry.h"
#include "core/target.h"

#define CACHE_NONE   UINT32_MAX /* no line */
#define CACHE_NO_TAG UINT64_MAX

enum cache_read_policy { CACHE_READ_NONE = 0, CACHE_READ_AHEAD, CACHE_READ_ADAPTIVE };
enum cache_write_policy { CACHE_WRITE_THROUGH = 0, CACHE_WRITE_BACK, CACHE_WRITE_FORCE };
enum cache_battery { CACHE_BAT_OK = 0, CACHE_BAT_BAD, CACHE_BAT_NONE };
enum cache_list { CACHE_L_FREE = 0, CACHE_L_CLEAN, CACHE_L_DIRTY, CACHE_L_COUNT };
enum cache_busy { CACHE_BUSY_NONE = 0, CACHE_BUSY_FILL, CACHE_BUSY_DESTAGE };
enum cache_bg_kind { CACHE_BG_DESTAGE = 0, CACHE_BG_FILL, CACHE_BG_TIMER };

struct cache;

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

/* A background request owned by the cache (destage run, prefetch, timer). */
struct cache_bg {
	struct rl_io io; /* the member request, or the timer carrier */
	struct cache *c;
	struct cache_bg *next_free;
	uint32_t line;    /* line index */
	uint8_t kind;     /* enum cache_bg_kind */
	bool busy;        /* in flight */
	bool populate_ok; /* FILL: no uncached write was in flight at issue */
	uint64_t epoch;   /* FILL: c->nc_epoch at issue */
	uint8_t *staging; /* FILL: line-size buffer (NULL without data) */
};

/* One read stream for sequential detection. */
struct cache_stream {
	uint64_t next;   /* offset just after the last read of the stream */
	uint64_t ra_end; /* prefetched up to here */
	uint64_t used;   /* LRU stamp */
	uint32_t count;  /* consecutive sequential reads after the first */
};
#define CACHE_STREAMS 8

#define CACHE_UNWRITTEN_MAX 64 /* ranges of data lost to destage errors that are listed */

/* One lost range, reported after a power cut. */
struct cache_lost {
	uint64_t off, len;
	uint8_t cause; /* 0: controller cache, 1: drive cache */
};

struct cache {
	struct rl_target *t;
	struct rl_target *below;
	pthread_mutex_t lock;

	/* configuration */
	int read, write, battery;
	bool nv, disk_cache, wb; /* wb: writes are acknowledged from the cache */
	uint64_t size, line;     /* bytes */
	uint32_t bs, bpl, words; /* block size, blocks per line, bitmap words per line */
	uint32_t nlines;
	uint32_t high_lines, low_lines; /* dirty-line watermarks */
	double high_pct, low_pct;
	uint64_t idle_ns, ra_bytes, dram_lat, dram_bw;
	uint32_t destage_qd, ra_qd;
	uint64_t powerloss_after; /* 0: never */
	bool quiet;
	/*
	 * The controller's own firmware (docs/cache.md, "Firmware"): io=direct
	 * keeps read misses and write-through data out of the lines; every host
	 * command occupies the firmware for fw_cmd (one at a time) and waits
	 * fw_lat more; a FastPath volume (write-through, no read-ahead, direct
	 * I/O, fastpath=on) bypasses the cache firmware for fp_cmd / fp_lat.
	 * wt_fua: write-through member writes carry FUA.  Simulated runs only.
	 */
	bool io_direct, fastpath, fastpath_on, wt_fua;
	bool ra_detect;     /* read=ahead prefetches only for sequential streams */
	bool ra_stripe;     /* read-ahead stops at the end of the array's stripe row */
	uint32_t dirty_max; /* dirty lines the cache may hold: dirty-max of nlines */
	double dirty_max_pct;
	bool full_wait; /* full=wait: a write-back write that finds no room waits for destage */
	struct rl_io *wb_wait; /* such writes, oldest first (linked by ->next; virtual executors) */
	struct rl_io **wb_wait_tail;
	uint64_t fw_line; /* cache path: latency per line a request touches */
	bool sync_dram;   /* protected-sync=dram: FLUSH and FUA complete from a protected cache */
	uint64_t fw_cmd, fw_lat, fp_cmd, fp_lat;
	uint64_t fw_free; /* the firmware is busy until then (executor clock) */
	char profile[64]; /* the controller profile it came from ("" if none) */

	/* the table */
	struct cache_line *lines;
	uint64_t *valid, *dirty, *rabits, *wtouch, *dtouch, *wtb; /* nlines * words each */
	uint32_t *hash;
	uint32_t hmask;
	uint32_t head[CACHE_L_COUNT], tail[CACHE_L_COUNT], count[CACHE_L_COUNT];
	uint8_t *data; /* nlines * line bytes, NULL when the member keeps no data */
	size_t data_len;

	/* sequence numbers and the uncached-write guard (see lines.c) */
	uint64_t wseq;
	uint64_t nc_epoch;    /* bumped when a write bypassing the cache starts */
	uint32_t nc_inflight; /* such writes in flight */

	/* background work */
	struct cache_bg *bg;
	uint32_t nbg;
	struct cache_bg *free_destage, *free_fill, *timer;
	uint32_t destage_busy, fill_busy;
	uint32_t lines_destaging; /* lines with a destage (background or flush) in flight */
	bool destage_on;          /* between the high and the low watermark */
	bool idle_mode;           /* idle flush: destage everything */
	bool idle_armed;
	uint64_t last_io; /* executor time of the latest host request */
	uint64_t vseen;   /* latest simulated time seen (virtual executors) */
	uint64_t dram_free;
	uint32_t host_inflight;

	/* read-ahead */
	struct cache_stream streams[CACHE_STREAMS];
	uint64_t stream_clock;

	/* power */
	bool off;       /* the power was cut: host I/O fails with -EIO */
	bool replaying; /* finish: the preserved cache is being written back */
	bool replayed, reported;
	bool draining; /* finish: the orderly shutdown flush is running */

	/* Destage failures (destage.c): acknowledged data still dirty when the
	 * run ended, i.e. never written to the member (first ranges kept). */
	uint64_t unwritten_bytes;
	uint32_t nunwritten;
	bool unwritten_truncated;
	struct {
		uint64_t off, len;
	} unwritten[CACHE_UNWRITTEN_MAX];
	uint64_t acked_writes;
	uint32_t *stamp; /* drive-cache tracking: per granule, flush epoch of an unflushed write */
	uint64_t ngran;
	uint32_t gran_shift;
	uint32_t fl_epoch;
	struct cache_lost *lost;
	uint32_t nlost, lost_cap;
	bool lost_truncated;
	uint64_t lost_bytes[2], preserved_bytes, replayed_bytes;

	/* counters */
	struct {
		uint64_t reads, read_hits, read_misses, read_hit_bytes, read_miss_bytes;
		uint64_t read_waits;
		uint64_t writes, writes_back, writes_through, writes_full, writes_fua,
		    writes_waited;
		uint64_t write_bytes;
		uint64_t trims, flushes, member_flushes;
		uint64_t ra_issued_bytes, ra_used_bytes, ra_wasted_bytes, ra_requests;
		uint64_t destage_ios, destage_bytes, destage_errors, idle_flushes;
		uint64_t dirty_blocks, dirty_peak_blocks;
		uint64_t evictions, orphans;
	} n;
};

/* --- host requests: cache.c (the way out), hostio.c, flush.c --- */

/*
 * A host request's state while the cache holds it, in the request's priv[]
 * (the words a target owns on the requests it receives).  cache_req() is
 * the only way to it.
 */
struct cache_req {
	rl_io_cb cb;         /* the submitter's callback, put back by cache_host_final */
	struct rl_target *t; /* this cache's target */
	union {
		struct {              /* reads, writes and trims (hostio.c) */
			uint32_t cur; /* bytes issued so far (a parked request resumes here) */
			/* bytes copied out of lines (their DRAM time is added at the end) */
			uint32_t hit_bytes;
			uint32_t epoch; /* reads: c->nc_epoch when the first miss went down */
			uint16_t flags; /* CACHE_R_* */
		} rw;
		struct {                /* flushes (flush.c) */
			uint64_t seq;   /* c->wseq at arrival; then the drive-cache flush token */
			uint32_t line;  /* the pass's cursor: this line */
			uint16_t blk;   /* and this block in it */
			uint16_t flags; /* CACHE_F_* (flush.c) */
		} fl;
	} u;
};
_Static_assert(sizeof(struct cache_req) <= sizeof(((struct rl_io *)0)->priv),
               "a host request's cache state must fit in its priv words");

#define CACHE_R_DELAYED 0x01u /* the DRAM time was added */
#define CACHE_R_MEMBER  0x02u /* some piece was read from the member */
#define CACHE_R_THROUGH 0x04u /* a write that went to the members */
#define CACHE_R_EPOCH   0x08u /* a read's epoch is set (its first miss went down) */
#define CACHE_R_NOFILL  0x10u /* a read's misses may not fill lines (see hostio.c) */
#define CACHE_R_UNCLEAN 0x20u /* a write-through piece raced a destage: its blocks stay dirty */

#define CACHE_POLL_NS 20000 /* re-check of a line busy on another thread's executor */

static inline struct cache_req *cache_req(const struct rl_io *io)
{
	return (struct cache_req *)(uintptr_t)io->priv;
}

static inline struct cache *cache_of(const struct rl_io *io)
{
	return cache_req(io)->t->priv;
}

/* One line's part of [io->offset + rel, io->offset + io->len). */
struct cache_piece {
	uint64_t tag, off;
	uint32_t len, b0, n;
};

static inline struct cache_piece cache_piece_at(const struct cache *c, const struct rl_io *io,
                                                uint64_t rel)
{
	struct cache_piece p;
	uint64_t ls, end;

	p.off = io->offset + rel;
	p.tag = p.off / c->line;
	ls = p.tag * c->line;
	end = ls + c->line < io->offset + io->len ? ls + c->line : io->offset + io->len;
	p.len = (uint32_t)(end - p.off);
	p.b0 = (uint32_t)((p.off - ls) / c->bs);
	p.n = p.len / c->bs;
	return p;
}

static inline uint8_t *cache_host_buf(const struct rl_io *io, uint64_t rel)
{
	return io->buf ? (uint8_t *)io->buf + rel : NULL;
}

/** When @bytes moved through the cache's DRAM starting at @now are done.  Lock held. */
uint64_t cache_dram(struct cache *c, uint64_t now, uint64_t bytes);
/** The last step of every host request: power state, counters, the submitter's callback. */
void cache_host_final(struct rl_io *io, int status);
/** A host request's fan-out is done: add the DRAM time of its hits, then final. */
void cache_host_done(struct rl_io *io, int status);
/** End of issuing a fan-out: complete from the loop if no child is in flight. */
void cache_seal(struct rl_io *io);
/** The pool ran dry: park @io (true), or note -ENOMEM when there is no pool (false). */
bool cache_wait_pool(struct rl_io *io, rl_exec_resume_fn resume);
/** The four host paths (hostio.c, flush.c). */
void cache_read_start(struct cache *c, struct rl_io *io);
void cache_write_start(struct cache *c, struct rl_io *io);
/** Destage freed room: retry the write-back writes that waited for it (call without the lock). */
void cache_wb_wake(struct cache *c);
void cache_trim_start(struct cache *c, struct rl_io *io);
void cache_flush_start(struct cache *c, struct rl_io *io);

/* --- lines.c --- */

int cache_lines_init(struct cache *c);
void cache_lines_free(struct cache *c);
/** The line holding line number @tag, or NULL. */
struct cache_line *cache_find(struct cache *c, uint64_t tag);
/** A line for @tag (not present): a free or evictable clean line, or NULL. */
struct cache_line *cache_alloc(struct cache *c, uint64_t tag);
static inline uint32_t cache_idx(const struct cache *c, const struct cache_line *l)
{
	return (uint32_t)(l - c->lines);
}
static inline uint8_t *cache_buf(const struct cache *c, const struct cache_line *l, uint32_t b)
{
	return c->data ? c->data + (uint64_t)cache_idx(c, l) * c->line + (uint64_t)b * c->bs : NULL;
}
static inline uint64_t *cache_bits(const struct cache *c, uint64_t *map, const struct cache_line *l)
{
	return map + (uint64_t)cache_idx(c, l) * c->words;
}
bool cache_bits_all(const uint64_t *m, uint32_t b0, uint32_t n);
uint32_t cache_bits_count(const uint64_t *m, uint32_t b0, uint32_t n);
void cache_bits_set(uint64_t *m, uint32_t b0, uint32_t n);
void cache_bits_clear(uint64_t *m, uint32_t b0, uint32_t n);
static inline bool cache_bit(const uint64_t *m, uint32_t b)
{
	return (m[b >> 6] >> (b & 63)) & 1;
}
/** Move @l to the tail (newest end) of list @list. */
void cache_list_move(struct cache *c, struct cache_line *l, int list);
/** Host data into the line: blocks [b0, b0+n) valid and (dirty) dirty. */
void cache_copy_in(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n,
                   const uint8_t *src, bool dirty, uint64_t seq);
/** Clear dirty bits [b0, b0+n) (data reached the member); keeps lists right. */
void cache_clean(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n);
/** Forget blocks [b0, b0+n) entirely (trim, failed write). */
void cache_forget(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n);
/**
 * A member read of blocks [b0, b0+n) of @l landed in @buf: overlay the
 * blocks the cache holds (newer) onto @buf, and when @populate fill the
 * blocks it does not hold from @buf.  @ra marks the filled blocks as
 * prefetched.  Returns the blocks filled.
 */
uint32_t cache_merge_read(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n,
                          uint8_t *buf, bool populate, bool ra);
/** Drop every line (after a power cut, or at the end of a replay). */
void cache_drop_all(struct cache *c);

/* --- destage.c --- */

int cache_bg_init(struct cache *c);
void cache_bg_free(struct cache *c);
/**
 * Start background destage on @ex if the watermarks or the idle flush ask
 * for it.  Call without the lock.
 */
void cache_destage_kick(struct cache *c, struct rl_exec *ex);
/** Arm the idle-flush timer on @ex if needed.  Call with the lock held. */
void cache_idle_arm(struct cache *c, struct rl_exec *ex, uint64_t now);
/**
 * The first destage run of @l at or after block @from: it starts at a dirty
 * block, spans valid blocks only and ends at a dirty block.  Returns its
 * first block and sets *len, or returns c->bpl when no dirty block is left.
 */
uint32_t cache_dirty_run(const struct cache *c, const struct cache_line *l, uint32_t from,
                         uint32_t *len);
/**
 * Bookkeeping when a destage request of line @idx covering blocks [b0,
 * b0+n) ends.  Returns the waiters to wake (or NULL).  Call with the lock.
 */
struct rl_io *cache_destage_end(struct cache *c, uint32_t idx, uint32_t b0, uint32_t n, bool fua,
                                int status);
/** Start a destage of @l on @ex (busy, pinned, guard held).  Lock held. */
void cache_destage_begin(struct cache *c, struct cache_line *l, struct rl_exec *ex);
/** Drop the issuing guard of a destage; returns waiters to wake.  Lock held. */
struct rl_io *cache_destage_unguard(struct cache *c, struct cache_line *l);
/** Wake requests that waited on a line (call without the lock). */
void cache_wake(struct cache *c, struct rl_io *list);
/** Forget background work stranded on executors that no longer run. */
void cache_settle_orphans(struct cache *c);
/**
 * End of the run, after the last write-back: record what is still dirty
 * (acknowledged data the member never received) and say so on stderr,
 * --quiet or not.  Lock held.
 */
void cache_destage_account_lost(struct cache *c);
/** Add the destage-failure state and the lost data to a report.  Lock held. */
void cache_destage_report(const struct cache *c, struct json_object *o);

/* --- readahead.c --- */

/**
 * A host read of [off, off+len) arrived on @ex: update the streams and,
 * if the policy says so, prefetch what follows.  Call without the lock.
 */
void cache_readahead(struct cache *c, struct rl_exec *ex, uint64_t off, uint32_t len);

/* --- powerloss.c --- */

int cache_pl_init(struct cache *c);
void cache_pl_free(struct cache *c);
/** A write acknowledged; cuts the power when it is the chosen one.  Lock held. */
void cache_pl_acked(struct cache *c);
/** Cut the power now: record what is lost.  Lock held. */
void cache_pl_cut(struct cache *c);
/** A member write of [off, off+len) completed (fua: durable).  Lock held. */
void cache_pl_member_write(struct cache *c, uint64_t off, uint64_t len, bool fua);
/** A member trim completed: nothing there to lose any more.  Lock held. */
void cache_pl_member_trim(struct cache *c, uint64_t off, uint64_t len);
/** A member flush begins: returns its epoch.  Lock held. */
uint32_t cache_pl_flush_begin(struct cache *c);
/** That member flush succeeded.  Lock held. */
void cache_pl_flush_done(struct cache *c, uint32_t epoch);
/** Power-loss part of the report. */
void cache_pl_report(struct cache *c, struct json_object *obj);
/** After the run: one line on stderr saying what was lost. */
void cache_pl_print(struct cache *c);

/* --- cache.c --- */

/** Is the cache protected against power loss (battery ok or NV)? */
static inline bool cache_protected(const struct cache *c)
{
	return c->nv || c->battery == CACHE_BAT_OK;
}
/** Do FLUSH and FUA complete from DRAM (protected write-back, protected-sync=dram)? */
static inline bool cache_sync_in_dram(const struct cache *c)
{
	return c->sync_dram && c->wb && cache_protected(c) && !c->replaying && !c->draining;
}
/** The line number of byte offset @off. */
static inline uint64_t cache_tag(const struct cache *c, uint64_t off)
{
	return off / c->line;
}
/** Continue a host flush (resumed after a wait). */
void cache_flush_resume(struct rl_io *io);
/** Continue a waiting read piece (a child of a host read). */
void cache_read_piece_resume(struct rl_io *child);
/** Continue a waiting write-through piece (a child of a host write). */
void cache_wt_piece_resume(struct rl_io *child);

#endif
