/*
 * parity_priv.h - the parity engine's own state, shared by its two halves:
 * parity.c (the data path: stripe cache, reads, writes, degraded work) and
 * parity_build.c (building the array, reports, power restore and log
 * replay).  Nothing outside src/raid/parity*.c includes it; parity.h is
 * the engine's interface.
 */
#ifndef RL_RAID_PARITY_PRIV_H
#define RL_RAID_PARITY_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lock.h"
#include "raid/parity.h"
#include "raid/parity_log.h"
#include "raid/parity_math.h"

#define RELAXED         memory_order_relaxed
#define PARITY_RETRY_NS 5000          /* cross-thread lock retry */
#define PARITY_JOURNAL  255           /* plan member index of the journal target */
#define PARITY_BM_SLEEP 5000000000ull /* md's bitmap daemon_sleep: 5 s */
#define PARITY_BM_BLOCK 4096u

/* A host request's context while the array holds it (io.h, RL_IO_CTX_DEFINE). */
struct parity_req {
	struct parity_array *pa;
	uint64_t cursor;    /* next window key to issue (flush: next member) */
	struct rl_io *link; /* next request in an entry's wait list */
};
RL_IO_CTX_DEFINE(parity_req, struct parity_req)

/* A member child's tag: which plan step (window work) or member (flush) it is. */
struct parity_tag {
	uint32_t index;
};
RL_IO_TAG_DEFINE(parity_tag, struct parity_tag)

enum parity_phase { RD_DIRECT, RD_RECON, RD_FIXUP, WR_BITMAP, WR_READ, WR_LOG, WR_WRITE };
enum parity_mode { MODE_RMW, MODE_RCW, MODE_FULL, MODE_DATA_ONLY };

struct parity_plan {
	uint8_t member;
	uint8_t write;
	uint32_t len;
	uint64_t off;
	void *buf;
};

struct parity_slot {
	/* lock state, under pa->lock */
	bool busy;
	uint64_t owner; /* id of the executor whose requests hold it */
	struct rl_io *wait_head, *wait_tail;
	struct rl_io *grant; /* request the lock was handed to */

	struct rl_io op; /* parent of the members' child requests */
	struct parity_array *pa;
	struct rl_io *host;
	uint64_t stripe;
	uint64_t lo, hi;              /* rows of the window in use (in-chunk offsets) */
	bool bm_held;                 /* its write-intent bits are counted in flight */
	uint64_t a[RAID_MAX_MEMBERS]; /* per data chunk: touched rows [a, b) */
	uint64_t b[RAID_MAX_MEMBERS];
	struct parity_stripe ps;
	enum parity_phase phase;
	enum parity_mode mode;
	uint64_t bad;   /* members that errored during this work */
	uint64_t bad0;  /* ... as the current phase started */
	uint64_t fixup; /* members whose read error is to be corrected by a rewrite */
	uint64_t have;  /* members whose rows [lo, hi) are in old[] (RECON/FULL) */
	int status;
	struct parity_plan plan[2 * RAID_MAX_MEMBERS + 2];
	unsigned nplan, next;
	bool begun;
	uint8_t *old[RAID_MAX_MEMBERS], *nw[RAID_MAX_MEMBERS], *scratch[4];
	uint8_t *logbuf; /* this entry's log record (header and payload) */
};

struct parity_array {
	struct raid_array a; /* first: t->priv points here */
	struct parity_geom g;
	unsigned nparity;
	uint64_t height; /* stripe_size */
	uint64_t wps;    /* windows per stripe */
	unsigned nslots; /* stripe_cache */
	uint64_t max_read_errors;
	bool data;            /* members store contents: buffers and arithmetic */
	struct rl_mutex lock; /* the entries' lock state (struct parity_slot) */
	struct parity_slot *slots;
	uint8_t *zero;  /* height zero bytes */
	uint8_t *arena; /* all slot buffers */

	/* write-hole remedies (parity_log.h) and power-loss injection */
	enum parity_log_kind log;
	struct rl_target *journal; /* journal=SPEC */
	uint64_t recsize;          /* bytes per entry's record area */
	uint64_t log_base;         /* ppl: member offset of the log area */
	_Atomic uint64_t log_seq, log_writes;
	uint64_t powerloss_after; /* member writes until the power fails (0: never) */
	_Atomic uint64_t powered_writes;
	_Atomic bool off; /* the power failed: nothing more reaches the members */

	/* write-intent bitmap (bitmap-chunk=SIZE): its cost, as md pays it */
	uint64_t bm_chunk;             /* member bytes per bit (0: no bitmap) */
	uint64_t bm_bits;              /* bits in use */
	uint64_t bm_base;              /* member offset of the bitmap block */
	_Atomic uint8_t *bm_set;       /* per bit: set on disk */
	_Atomic uint32_t *bm_inflight; /* per bit: windows writing there */
	_Atomic uint64_t *bm_last;     /* per bit: time of the last write (ns) */
	_Atomic uint64_t bm_sweep;     /* next time the clear daemon runs (ns) */
	_Atomic uint64_t bm_writes;    /* bitmap block updates (each goes to every member) */
	uint8_t *bm_block;             /* the block written */
	uint32_t bm_bits_at; /* where the bits start in it (md bitmap: after its header) */
	uint64_t doff;       /* data-offset: member offset of stripe 0 */
	bool resync_pending; /* new members opened read-only: parity never computed */

	_Atomic uint64_t rmw, rcw, full_stripe, reconstruct_writes, reconstruct_reads;
	_Atomic uint64_t corrected, lock_waits;
	_Atomic uint64_t orphans; /* stripe entries taken over from gone executors */
	_Atomic uint64_t read_errors[RAID_MAX_MEMBERS];
};

/* Shared by the data path and the builder (defined in parity.c). */

/** Can the array still serve every block (at most nparity members down)? */
bool parity_intact(const struct raid_array *a);

/* Steps of an open, before the array is used (parity_replay.c). */

/**
 * Replay the journal or partial parity log, as md does at assembly, when
 * the array is opened for writing (@writable).  0, or a negative errno
 * with @msg.
 */
int parity_replay_at_open(struct parity_array *pa, bool writable, char *msg, size_t msglen);
/** An md bitmap (bitmap-offset=): start from its block as the members have it. */
int parity_bitmap_load(struct parity_array *pa, char *msg, size_t msglen);
/**
 * md's initial resync when every member was just created (RL_CAP_FRESH):
 * parity from the data.  Sets *done when it ran.  Only on a @writable
 * open: opened read-only the array is left as it is and marked
 * resync_pending.  0, or a negative errno.
 */
int parity_resync_fresh(struct parity_array *pa, bool writable, bool *done, char *msg,
                        size_t msglen);

#endif
