/*
 * target.h - the one interface every block target implements.
 *
 * A target is anything that serves I/O: a leaf that owns storage (file, mem,
 * null, a simulated SSD) or a composite that owns child targets (raid0,
 * cache, link, faulty...).  Composites hold their children in
 * struct rl_target.children and reach them only through rl_target_submit(),
 * so any target can stack on any other.
 *
 * A target is built from a parsed spec node by its type's create function
 * (see registry.h) and torn down with rl_target_close(), which closes the
 * children too.  Targets are shared by every worker thread of a run: the
 * per-thread state (io_uring ring, request pool) lives in the executor the
 * request carries (io->ex), so targets keep only shared, thread-safe state.
 *
 * rl_target_submit() is the single entry point for I/O; it checks the
 * request against the target's contract (range inside the target, length a
 * multiple of the block size, operation supported) and completes offending
 * requests with -EINVAL or -EOPNOTSUPP itself, so ops->submit only ever
 * sees valid requests.
 */
#ifndef RL_CORE_TARGET_H
#define RL_CORE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/io.h"

struct json_object;
struct rl_target;
struct rl_exec;

/** Capability bits (struct rl_target.caps). */
#define RL_CAP_TRIM    0x01u /* accepts RL_OP_TRIM */
#define RL_CAP_FLUSH   0x02u /* RL_OP_FLUSH does real work (it is always accepted) */
#define RL_CAP_DATA    0x04u /* stores data: reads return what was written */
#define RL_CAP_REAL    0x08u /* needs a wall-clock executor (file, device) */
#define RL_CAP_VIRTUAL 0x10u /* needs a virtual-time executor (simulated drive) */
#define RL_CAP_DIRECT  0x20u /* data moves through an O_DIRECT descriptor: buffers aligned */
#define RL_CAP_FRESH   0x40u /* just created and filled with arbitrary data (no array state) */
#define RL_CAP_BYTES   0x80u /* RL_IO_BUFFERED requests may start and end at any byte */

/*
 * Control requests (the ctl op, rl_target_ctl): what an operator asks of a
 * live target with members, such as an array under `raidlab serve`.  The
 * target answers in the same struct; the caller moves any data itself,
 * through t->children[member], with the offsets RL_CTL_LOCATE gives.
 */
enum rl_ctl_cmd {
	RL_CTL_STATUS,        /* out: level, state, members, copies, member_state[] */
	RL_CTL_FAIL,          /* member: fail it; -EBUSY if it holds the last readable copy
	                         of some data, unless force */
	RL_CTL_REBUILD_BEGIN, /* member: being rebuilt: written, never read */
	RL_CTL_REBUILD_END,   /* member: in sync again (ok) or failed (!ok) */
	RL_CTL_READABLE,      /* member: returns 1 when reads may go to it, else 0 */
	RL_CTL_LOCATE,        /* the copies of offset: len (at most max, contiguous on
	                         every copy), ncopies, copy[] in the target's copy order */
	RL_CTL_ROW,           /* parity arrays: the row at offset of every member's data
	                         area (offset counts from the data start): len (at most max,
	                         inside one chunk; 0 past the last stripe), ncopies (every
	                         member), copy[] (member and child offset of each block),
	                         array_lo/array_hi (the stripe: writes there change the row) */
	RL_CTL_RECONSTRUCT,   /* parity arrays: the row at offset (as ROW), len bytes, one
	                         buffer per member in bufs[]; the members in missing are
	                         computed in place from the others (-EIO: too many missing) */
};

#define RL_CTL_MEMBERS_MAX 64 /* members (and copies) a control request can name */

struct rl_ctl {
	enum rl_ctl_cmd cmd;
	unsigned member; /* FAIL, REBUILD_*, READABLE: a child index */
	bool force;      /* FAIL: even the last readable copy */
	bool ok;         /* REBUILD_END: the rebuild completed */
	/* STATUS */
	const char *level; /* type name ("raid1") */
	const char *state; /* "optimal", "degraded", "failed" */
	unsigned members;  /* children */
	unsigned copies;   /* copies of each byte (1: none spare) */
	unsigned parity;   /* parity blocks per stripe (raid5 1, raid6 2; 0: mirrors) */
	const char *member_state[RL_CTL_MEMBERS_MAX]; /* "in_sync", "failed", "rebuilding" */
	/* LOCATE: in offset and max; out len, ncopies, copy[] */
	uint64_t offset, max, len;
	unsigned ncopies;
	struct rl_ctl_copy {
		unsigned member; /* child index */
		uint64_t offset; /* on that child */
	} copy[RL_CTL_MEMBERS_MAX];
	/* ROW: out; RECONSTRUCT: in */
	uint64_t array_lo, array_hi;
	void *bufs[RL_CTL_MEMBERS_MAX];
	uint64_t missing; /* bit per member */
};

struct rl_target_ops {
	/** Type name as written in specs ("file", "raid0").  Required. */
	const char *name;

	/**
	 * Bytes of per-request context the type keeps in each request it
	 * holds (sizeof its context struct, reached with RL_IO_CTX_DEFINE's
	 * accessor; see io.h), and of the tag it keeps on each child it
	 * takes from the pool (RL_IO_TAG_DEFINE).  0: none.  At most
	 * RL_IO_CTX_SIZE and RL_IO_TAG_SIZE (rl_target_alloc checks).
	 */
	size_t ctx_size;
	size_t tag_size;

	/**
	 * Start @io.  Required.  Never completes @io before returning (use
	 * rl_io_complete_later()).  The request has already been checked by
	 * rl_target_submit().
	 */
	void (*submit)(struct rl_target *t, struct rl_io *io);

	/**
	 * Add this target's own properties (chunk size, path, state...) to
	 * @obj, a JSON object that rl_target_tree() has already given "type",
	 * "size_bytes", "block_size" and "children".  Optional.  Returns 0 or
	 * a negative errno.
	 */
	int (*describe)(struct rl_target *t, struct json_object *obj);

	/**
	 * Add the target's run counters (e.g. a simulated drive's write
	 * amplification, an array's degraded reads, a cache's hits) to @obj.
	 * Called after a run by rl_target_report().  Optional.
	 */
	int (*report)(struct rl_target *t, struct json_object *obj);

	/**
	 * Called once per executor before the first request from it, so a
	 * target can set up per-thread resources (e.g. register its file with
	 * that executor's ring).  Optional.  Returns 0 or a negative errno.
	 */
	int (*attach)(struct rl_target *t, struct rl_exec *ex);

	/**
	 * Release the target's own resources; rl_target_close() closes the
	 * children and frees the struct afterwards.  Optional.
	 */
	void (*destroy)(struct rl_target *t);

	/**
	 * Called when a run ends, before closing: e.g. the file target removes
	 * the test file it created unless asked to keep it.  Optional.
	 */
	void (*finish)(struct rl_target *t);

	/**
	 * Drop what the host caches of this target's data (dirty pages are
	 * queued for writeback first), as fio's invalidate=1 does each time a
	 * job opens its file: @open at the job's start and before a verify
	 * pass, where fio drops a direct file's pages too (a direct write over
	 * cached pages cannot go without waiting for them); !@open at every
	 * further pass over the file, where fio leaves direct files alone.
	 * Optional; synchronous, no I/O through the executor.
	 */
	void (*drop_cache)(struct rl_target *t, bool open);

	/**
	 * Answer a control request (struct rl_ctl): fail a member, mark a
	 * rebuild's start and end, report state, locate a range's copies.
	 * Optional: targets without members leave it NULL.  Returns 0 (or the
	 * answer of RL_CTL_READABLE), -EINVAL for a member out of range, or
	 * the command's own errno.  Called from one thread at a time.
	 */
	int (*ctl)(struct rl_target *t, struct rl_ctl *c);
};

struct rl_target {
	const struct rl_target_ops *ops; /* the type's operations */
	uint64_t size;                   /* usable bytes, a multiple of block_size */
	uint32_t block_size;             /* logical block size: offsets and lengths align to it */
	uint32_t caps;                   /* RL_CAP_* */
	struct rl_target **children;     /* member targets of a composite, or NULL */
	unsigned nchildren;              /* number of children */
	void *priv;                      /* the type's private state */
	uint64_t vtime;  /* simulated ns this stack has reached (root only; see exec_virtual.c) */
	uint32_t copies; /* arrays: copies of each byte on the members (0 or 1: one) */
	uint64_t stripe; /* arrays: data bytes in one full stripe row (0: not striped) */
};

/**
 * The block size a request's offset and length align to: 1 for a request
 * through the page cache (@buffered, RL_IO_BUFFERED) on a target that takes
 * any byte there (RL_CAP_BYTES), else the target's logical block size.
 */
static inline uint32_t rl_target_block_for(const struct rl_target *t, bool buffered)
{
	return buffered && (t->caps & RL_CAP_BYTES) ? 1 : t->block_size;
}

/**
 * Allocate a target with @nchildren child slots, all fields zeroed except ops.
 * Returns NULL on allocation failure.
 */
struct rl_target *rl_target_alloc(const struct rl_target_ops *ops, unsigned nchildren);

/** Submit @io to @t after checking it (see the file comment). */
void rl_target_submit(struct rl_target *t, struct rl_io *io);

/** Call ops->attach on @t and every target below it, children first. */
int rl_target_attach(struct rl_target *t, struct rl_exec *ex);

/** Call ops->drop_cache on @t and every target below it. */
void rl_target_drop_cache(struct rl_target *t, bool open);

/** Call ops->finish on @t and every target below it. */
void rl_target_finish(struct rl_target *t);

/**
 * The process-wide stop (a SIGINT/SIGTERM, or a group ending the run): the
 * workload sets it with the workers' own stop and clears it for the next
 * run.  A target whose request can wait without bound (a net receiver for
 * its peer) waits in short slices and gives up once it is set, so a signal
 * stops the run promptly.  Async-signal-safe (an atomic flag).
 */
void rl_target_stop_request(void);
void rl_target_stop_clear(void);
bool rl_target_stop_requested(void);

/** @t's ctl op on @c, or -EOPNOTSUPP when @t has none (@t itself, not below it). */
int rl_target_ctl(struct rl_target *t, struct rl_ctl *c);

/** Close @t and every target below it; NULL is accepted. */
void rl_target_close(struct rl_target *t);

/**
 * The stack as a JSON tree: {"type", "size_bytes", "block_size", ...own
 * properties..., "children": [...]}.  Returns a new object, or NULL.
 */
struct json_object *rl_target_tree(struct rl_target *t);

/**
 * Run counters of the whole stack as a JSON tree shaped like
 * rl_target_tree(): {"type", ...counters..., "children": [...]}; targets
 * without a report op contribute only their type.  Returns a new object.
 */
struct json_object *rl_target_report(struct rl_target *t);

/** Sum of the integer @key over a report tree (rl_target_report) and its children. */
uint64_t rl_report_sum(struct json_object *report, const char *key);

/** OR of the caps of every leaf below @t (and @t itself). */
uint32_t rl_target_leaf_caps(const struct rl_target *t);

#endif
