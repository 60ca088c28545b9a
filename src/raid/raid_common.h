/*
 * raid_common.h - what every array level shares: the member state table,
 * degraded-mode counters, the lost-data record, spec parameters common to
 * all levels, describe/report, and one data-path engine.
 *
 * A level (raid0.c, raid1.c, raid10.c, concat.c) is a geometry plus a small
 * table of hooks (struct raid_level): where the copies of an array offset
 * live, which copy to read first, whether the array still holds all its
 * data.  The engine (raid_io.c) turns any request into child requests from
 * those hooks alone, so degraded reads, read retry on another copy, write
 * fan-out to the surviving copies, lost-data detection and pool exhaustion
 * are written once.  Levels without redundancy simply have one copy.
 *
 * A level's private state is a struct that begins with struct raid_array;
 * t->priv points at it, and raid_destroy() frees it.
 *
 * Parity levels (raid5, raid6) share the member table, counters and
 * describe/report (their extras through the describe and report hooks) but
 * run on their own engine, parity.c: a parity write reads before it writes.
 *
 * Members are shared by every worker thread: their state and counters are
 * atomics, read and written with relaxed ordering except the state, whose
 * change from in-sync to failed is a compare-and-swap so exactly one thread
 * counts the failure.
 */
#ifndef RL_RAID_RAID_COMMON_H
#define RL_RAID_RAID_COMMON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/registry.h"
#include "core/target.h"
#include "raid/layout.h"

struct json_object;
struct md_state;
struct raid_array;

enum raid_member_state {
	RAID_MEMBER_IN_SYNC = 0,    /* holds current data: read and written */
	RAID_MEMBER_FAILED = 1,     /* returned an error (or failed= in the spec): not used */
	RAID_MEMBER_REBUILDING = 2, /* being reconstructed: written, never read */
};

enum raid_read_policy {
	RAID_READ_LEAST_PENDING = 0, /* the live copy with the fewest requests in flight */
	RAID_READ_ROUND_ROBIN,       /* live copies in turn */
	RAID_READ_SEQUENTIAL,  /* md: stay on the copy a sequential stream is on, else least pending
	                        */
	RAID_READ_PER_REQUEST, /* a hardware controller's balance: one copy per request and
	                          mirror set (least pending), so a large read is one command per
	                          member while concurrent requests spread over the copies */
};

/* One member's shared state, on its own cache line (threads update it per I/O). */
struct raid_member {
	_Alignas(64) _Atomic int state; /* enum raid_member_state */
	_Atomic uint32_t pending;       /* child requests in flight on it */
	_Atomic uint64_t next_seq;      /* member offset just after the last read sent here */
	_Atomic uint64_t seq_req;       /* the request that read sent it (per-request policy) */
	_Atomic uint64_t errors;        /* child requests that failed */
	_Atomic uint64_t read_errors;   /* reads that failed while it stayed in the array */
};

/* md's default for max_read_errors: a member is failed after this many read errors. */
#define RAID_MAX_READ_ERRORS_DEFAULT 20
#define RAID_STR_(x)                 #x
#define RAID_STR(x)                  RAID_STR_(x) /* a macro's value as a string literal */

/*
 * Parameter table entries (params.h) the levels share: each level's table
 * lists the ones it takes, and the raid_spec_* readers below parse them.
 */
#define RAID_PARAM_FAILED                                                                          \
	{                                                                                          \
		.name = "failed", .type = RL_PARAM_STR, .form = "K[+K...]",                        \
		.help = "start with these members failed (0-based, each listed once)",             \
	}
#define RAID_PARAM_WRITES                                                                          \
	{                                                                                          \
		.name = "writes", .type = RL_PARAM_ENUM, .def = "parallel",                        \
		.choices = (const char *const[]){"parallel", "serial", NULL},                      \
		.help = "a request's member writes all at once, or one after another",             \
	}
#define RAID_PARAM_READ                                                                            \
	{                                                                                          \
		.name = "read", .type = RL_PARAM_ENUM, .def = "md",                                \
		.choices = (const char *const[]){"least-pending", "round-robin", "sequential",     \
		                                 "per-request",   "md",          NULL},            \
		.help = "which copy serves a read: md's balance (a sequential stream stays on "    \
		        "its member, else the least pending; `sequential` is the same); a "        \
		        "controller's (one copy per request); fewest requests in flight per "      \
		        "piece; members in turn (docs/raid.md)",                                   \
	}
#define RAID_PARAM_MAX_READ_ERRORS                                                                 \
	{                                                                                          \
		.name = "max-read-errors", .type = RL_PARAM_U64,                                   \
		.def = RAID_STR(RAID_MAX_READ_ERRORS_DEFAULT), .source = "md's default",           \
		.max = UINT32_MAX,                                                                 \
		.help = "read errors a member survives (each repaired from another copy); the "    \
		        "next one fails it, unless it holds the last readable copy of something",  \
	}

struct raid_level {
	const char *name;
	/**
	 * The copies of array offset @off: fills @locs (RAID_MAX_MEMBERS
	 * entries) in the level's copy order, sets *len to how many of the
	 * next @max bytes lie contiguously on every copy (never past a chunk
	 * end), and returns the copy count.  Required.
	 */
	unsigned (*locate)(const struct raid_array *a, uint64_t off, uint64_t max, uint64_t *len,
	                   struct raid_loc *locs);
	/**
	 * Which copy to read: index into @locs, or -1 when no copy is
	 * readable.  Optional: default raid_read_pick() over every copy.
	 */
	int (*read_pick)(struct raid_array *a, const struct raid_loc *locs, unsigned n,
	                 uint64_t req);
	/** True while every array byte still has a readable copy.  Required. */
	bool (*intact)(const struct raid_array *a);
	/**
	 * Optional: split a TRIM of [off, off+len) into member extents other
	 * than per chunk piece (raid0: one per member and zone, as md).  Walks
	 * with *cursor (starts at 0); returns false when done, else sets @loc,
	 * *plen and *array_off (where the extent's part of the array starts,
	 * for the lost-data record).
	 */
	bool (*trim_next)(const struct raid_array *a, uint64_t off, uint64_t len, uint64_t *cursor,
	                  struct raid_loc *loc, uint64_t *plen, uint64_t *array_off);
	/** Optional: add level properties (chunk, layout, zones...) to describe output. */
	void (*describe)(const struct raid_array *a, struct json_object *obj);
	/** Optional: add level counters to report output. */
	void (*report)(const struct raid_array *a, struct json_object *obj);
};

/*
 * Thread slots for per-thread counters: a thread claims one of the first
 * RAID_SENT_SLOTS - 1 on its first count and gives it back when it exits;
 * a slot's counters are then written by one thread only (a plain add).
 * Threads beyond those share the last slot with locked adds.
 */
#define RAID_SENT_SLOTS 16
unsigned raid_thread_slot_claim(void);
extern _Thread_local unsigned raid_thread_slot_tls; /* slot + 1, 0 before the first count */

struct raid_array {
	const struct raid_level *level;
	struct rl_target *t; /* the array target; members are t->children */
	unsigned n;          /* members */
	uint64_t chunk;      /* chunk bytes (0 for raid1 and concat: no chunk) */
	unsigned copies;     /* copies of each byte (1 for raid0/concat) */
	enum raid_read_policy read_policy;
	bool serial_writes; /* writes=serial: a piece's copies are written one after another */

	_Atomic uint64_t rr_next;         /* round-robin cursor */
	_Atomic uint64_t degraded_reads;  /* read pieces with a copy unavailable */
	_Atomic uint64_t retries;         /* reads resent to another copy after an error */
	_Atomic uint64_t member_errors;   /* child requests that failed */
	_Atomic uint64_t degraded_writes; /* write/trim pieces that skipped a failed copy */
	_Atomic uint64_t lost_ios;        /* pieces failed with -EIO: no copy left */
	_Atomic uint64_t lost_first; /* array offset of the first lost piece (UINT64_MAX: none) */
	_Atomic uint64_t lost_last;  /* array offset of the latest one */
	_Atomic uint64_t read_errors_fixed; /* bad copies rewritten from a good copy */
	_Atomic uint64_t fixes_skipped;     /* rewrites not done: writes were under way */
	_Atomic bool fail_lock;             /* serialises read-error failure decisions */
	uint64_t max_read_errors;           /* read errors a member survives (copies > 1) */
	struct md_state *md; /* md(...): member state changes go to the superblocks */

	/* Host write and trim children, one word on its own cache line: how
	 * many were ever sent (a generation, bits 24..63) and how many are in
	 * flight (bits 0..23); a read-error rewrite only happens while no write
	 * could race with it (raid_io.c). */
	_Alignas(64) _Atomic uint64_t wr_state;

	struct raid_member m[RAID_MAX_MEMBERS];

	/* Child requests sent to each member (pieces, not host I/Os), reads
	 * in [member][0], writes in [member][1], one block of counters per
	 * thread slot (raid_count_sent): a locked add to a line every thread
	 * writes cost more than the rest of a raid0 read's path. */
	struct raid_sent {
		_Alignas(64) _Atomic uint64_t c[RAID_MAX_MEMBERS][2];
	} sent[RAID_SENT_SLOTS];
};

/* --- building --- */

/**
 * Build every positional argument of @node as a member of a new target
 * with @ops (at least @min members).  Sets the array's block size (the
 * largest member block size) and caps (DATA and TRIM if every member has
 * them, FLUSH if any has).  Returns 0 or a negative errno with @err set.
 */
int raid_members_build(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       const struct rl_target_ops *ops, unsigned min, struct rl_target **out,
                       struct rl_err *err);

/**
 * Allocate a zeroed level state of @size bytes (it embeds struct raid_array,
 * whose members are cache-line aligned).  NULL when out of memory.
 */
void *raid_state_alloc(size_t size);

/** Set up @a (from raid_state_alloc) for target @t and attach it as t->priv. */
void raid_array_init(struct raid_array *a, struct rl_target *t, const struct raid_level *level,
                     uint64_t chunk, unsigned copies);

/** Member sizes of @t's children, rounded down to @t's block size, into @sizes. */
void raid_member_sizes(const struct rl_target *t, uint64_t *sizes);

/*
 * Regions of the members marked dirty by md's write-intent bitmap: bit i
 * (least significant first in each byte, as md stores them) covers member
 * bytes [i*chunk, (i+1)*chunk) counted from the data start.
 */
struct raid_regions {
	const uint8_t *bits;
	uint64_t chunk;
	uint64_t nbits;
};

/** Whether member bytes [@off, @off+@len) touch a dirty region (@r NULL: yes). */
bool raid_regions_hit(const struct raid_regions *r, uint64_t off, uint64_t len);

/** failed=K or failed=K+L+...: mark those members failed.  0 or -EINVAL. */
int raid_spec_failed(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err);

/** max-read-errors=N (default RAID_MAX_READ_ERRORS_DEFAULT) into a->max_read_errors. */
int raid_spec_max_read_errors(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err);

/**
 * read=md|sequential|per-request|least-pending|round-robin into
 * a->read_policy (md = sequential, the default).  0 or -EINVAL.
 */
int raid_spec_read_policy(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err);

/* --- state --- */

/** The array behind @t, or NULL if @t is not an array built by this module. */
struct raid_array *raid_array_of(struct rl_target *t);

static inline enum raid_member_state raid_member_state(const struct raid_array *a, unsigned i)
{
	return (enum raid_member_state)atomic_load_explicit(&a->m[i].state, memory_order_acquire);
}

/** Holds current data: reads may go there. */
static inline bool raid_member_readable(const struct raid_array *a, unsigned i)
{
	return raid_member_state(a, i) == RAID_MEMBER_IN_SYNC;
}

/** Every member holds current data: the intact() of levels without redundancy. */
bool raid_all_readable(const struct raid_array *a);

/** Writes go there (in sync or being rebuilt). */
static inline bool raid_member_writable(const struct raid_array *a, unsigned i)
{
	return raid_member_state(a, i) != RAID_MEMBER_FAILED;
}

/** Count a child request sent to @member (@write: a write, trim or flush). */
static inline void raid_count_sent(struct raid_array *a, unsigned member, bool write)
{
	unsigned slot = raid_thread_slot_tls;
	_Atomic uint64_t *c;

	if (__builtin_expect(!slot, 0))
		slot = raid_thread_slot_claim();
	c = &a->sent[slot - 1].c[member][write];
	if (slot < RAID_SENT_SLOTS) /* this thread's own: no other writer */
		atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
		                      memory_order_relaxed);
	else
		atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

/** Child requests sent to @member so far, every thread's. */
uint64_t raid_sent_total(const struct raid_array *a, unsigned member, bool write);

/** Set a member's state (spec, rebuild tool); an md array records the change. */
void raid_member_set(struct raid_array *a, unsigned i, enum raid_member_state s);

/**
 * A member returned @status (< 0) for a child request: count it and mark
 * the member failed.  Returns true if this call failed it.
 */
bool raid_member_error(struct raid_array *a, unsigned i, int status);

/**
 * Would every array byte keep a readable copy without member @i?  True
 * when @i is not in sync already.  Parity levels: fewer members down than
 * parity blocks.
 */
bool raid_member_redundant(struct raid_array *a, unsigned i);

/**
 * Fail member @i unless that would leave some array byte without a readable
 * copy (decisions are serialised).  Returns true if this call failed it.
 */
bool raid_member_fail_if_redundant(struct raid_array *a, unsigned i);

/**
 * Member @i failed a read with @status on an array with redundancy (md's
 * policy): count it, and fail the member only once it has had more than
 * a->max_read_errors read errors and only if every array byte keeps a
 * readable copy without it - the last in-sync copy of anything is never
 * failed for a read error.  Returns true if this call failed it.
 */
bool raid_member_read_error(struct raid_array *a, unsigned i, int status);

/** Record that the piece at array offset @off was lost (failed with -EIO). */
void raid_lost_note(struct raid_array *a, uint64_t off);

/** "optimal", "degraded" (a member failed, data intact) or "failed" (data lost). */
const char *raid_array_state(const struct raid_array *a);

/** Name of a member state: "in_sync", "failed", "rebuilding". */
const char *raid_member_state_name(enum raid_member_state s);

/** writes=parallel|serial into a->serial_writes.  0 or -EINVAL. */
int raid_spec_write_order(struct rl_spec_node *node, struct raid_array *a, struct rl_err *err);

/** Name of a read policy as written in specs. */
const char *raid_read_policy_name(enum raid_read_policy p);

/**
 * The default read choice: among the copies in @mask (bit i = locs[i])
 * that are readable, the one a->read_policy prefers.  @req identifies the
 * host request the piece belongs to (any value unique among requests in
 * flight; the per-request policy keeps a request's pieces on one copy).
 * Returns the index in @locs or -1 if none is readable.
 */
int raid_read_pick(struct raid_array *a, const struct raid_loc *locs, unsigned n, uint64_t mask,
                   uint64_t req);

/* --- the ops every level shares --- */

/** The data-path engine (raid_io.c). */
void raid_submit(struct rl_target *t, struct rl_io *io);
int raid_describe(struct rl_target *t, struct json_object *obj);
int raid_report(struct rl_target *t, struct json_object *obj);
void raid_destroy(struct rl_target *t);

/*
 * A host request's state while the array holds it: its context (io.h,
 * RL_IO_CTX_DEFINE), reached with raid_req() in raid_io.c.
 */
struct raid_req {
	struct raid_array *a; /* the array */
	uint64_t done;        /* bytes of the request whose pieces are fully issued */
	uint64_t next;        /* within the current piece: next copy / member / trim cursor,
	                         with RAID_NEXT_COUNTED */
	union {
		/* read: a->wr_gen when it arrived with no write in flight, or
		 * RAID_GEN_NONE: its rewrites (FIX) may race with writes */
		uint64_t gen;
		struct {                   /* write with writes=serial */
			uint16_t member;   /* the phase: the member being written */
			bool scanned;      /* the phase is fully issued */
			uint32_t inflight; /* the phase's children in flight */
		} serial;
	} u;
};

/*
 * What the array needs back when a child ends, in the child's tag (io.h,
 * RL_IO_TAG_DEFINE): the member's ctx belongs to the member meanwhile.
 */
struct raid_tag {
	uint32_t rel;   /* piece start, relative to the parent's offset */
	uint8_t first;  /* read: the copy tried first */
	uint8_t cur;    /* read: the copy in flight; write: its copy index */
	uint8_t member; /* the member it was sent to (set by raid_member_send) */
	bool split;     /* read: the piece is being read block by block */
	uint64_t bad;   /* read: copies (by index) that failed it and stay in the array */
};
_Static_assert(RAID_MAX_MEMBERS <= 64 && RAID_MAX_MEMBERS <= 256,
               "a tag's copy mask and member index cover every member");

/* The target operations of a mirror/stripe level: the shared engine under its name. */
#define RAID_TARGET_OPS(level_name)                                                                \
	{                                                                                          \
		.name = level_name, .ctx_size = sizeof(struct raid_req),                           \
		.tag_size = sizeof(struct raid_tag), .submit = raid_submit,                        \
		.describe = raid_describe, .report = raid_report, .ctl = raid_ctl,                 \
		.destroy = raid_destroy,                                                           \
	}
/** Control requests: fail, rebuild start and end, status, locate (raid_ctl.c). */
int raid_ctl(struct rl_target *t, struct rl_ctl *c);

#endif
