/*
 * io.h - the request that travels down a stack of targets.
 *
 * Every I/O in raidlab is a struct rl_io.  The submitter fills in the
 * operation, range, buffer and completion callback, then hands the request to
 * rl_target_submit().  The target starts the work and returns at once; the
 * request completes later, exactly once, through rl_io_complete(), which calls
 * the submitter's callback with 0 or a negative errno.
 *
 * Rules every target follows:
 *  - submit never calls the completion callback before it returns.  A target
 *    that can answer at once (null, mem, an argument error) completes with
 *    rl_io_complete_later(), which queues the request on the executor; this
 *    keeps stacks free of recursion however deep they are.
 *  - composites (raid, cache, link...) split a parent request into child
 *    requests taken from the executor's preallocated pool with
 *    rl_io_child_get(); the data path never calls malloc.  A child's end goes
 *    through rl_io_child_end(), which counts the parent's outstanding
 *    children, keeps the first error and completes the parent exactly once
 *    when the last child is done.
 *  - a request carries two typed areas.  ctx belongs to the target that
 *    holds the request: a target type declares its context struct and size
 *    in its ops (ctx_size) and reaches it only through RL_IO_CTX_DEFINE's
 *    accessor, which checks at compile time that it fits; the context is
 *    valid from the target's submit until it completes or hands the
 *    request on, and the target initialises it on submit.  tag belongs to
 *    the composite that took a child from the pool (ops tag_size): what it
 *    needs back when the child ends (which member, which copy), while the
 *    member uses the child's ctx.  Neither is ever packed into cb_arg.
 *  - invariants are asserted (exactly one completion per child, a parent's
 *    count never below zero, a pool entry returned once); test builds keep
 *    assert() on.
 */
#ifndef RL_CORE_IO_H
#define RL_CORE_IO_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rl_exec;
struct rl_target;
struct rl_io;

/** Operations a target may receive. */
enum rl_op {
	RL_OP_READ = 0,
	RL_OP_WRITE = 1,
	RL_OP_TRIM = 2,  /* discard: contents of the range become undefined */
	RL_OP_FLUSH = 3, /* make every completed write durable; offset/len ignored */
	RL_OP_COUNT
};

/** Request flags. */
#define RL_IO_FUA 0x1u /* write: durable before it completes */
/*
 * File targets only (fio's falloc and ftruncate engines): the request is a
 * system call on the file's space, not a data transfer.  SPACE: READ
 * allocates the range keeping the size, WRITE allocates it growing the
 * size, TRIM punches a hole (fallocate(2)).  TRUNC: WRITE sets the file's
 * size to the offset (ftruncate(2)); other operations fail with -EINVAL.
 */
#define RL_IO_SPACE 0x2u
#define RL_IO_TRUNC 0x4u
/*
 * File targets opened with also_buffered (registry.h): the request goes
 * through the page cache although the file is open with O_DIRECT, as for a
 * job with direct=0 beside direct=1 jobs on the same file (fio opens the
 * file per job).  Ignored elsewhere.
 */
#define RL_IO_BUFFERED 0x8u
/*
 * File targets only (fio's mmap engine): the request is a copy to or from
 * the file mapped into memory (MAP_SHARED); a flush is msync(2) of the
 * mapping, and on a file opened O_DIRECT each transfer is followed by
 * msync and MADV_DONTNEED of its pages, as fio's engine does.
 */
#define RL_IO_MMAP 0x20u
/*
 * FLUSH on a file target: fsync(2), the file's metadata too (fio's fsync=),
 * where a FLUSH is otherwise fdatasync(2) (fio's fdatasync=).  Ignored
 * elsewhere.
 */
#define RL_IO_FSYNC 0x10u

/**
 * Completion callback.  status is 0 on success or a negative errno (-EIO for
 * a failed transfer, -ENOSPC, ...).  The callback may submit new requests and
 * may free or reuse @io.
 */
typedef void (*rl_io_cb)(struct rl_io *io, int status);

/*
 * Bytes of the per-request areas: the largest context and tag any target
 * type declares (each type's accessor asserts its own fits, and
 * rl_target_alloc() checks the sizes its ops declare).  Storage with no type
 * of its own: a target stores into it only through its own struct type.
 */
#define RL_IO_CTX_SIZE 32
#define RL_IO_TAG_SIZE 16

union rl_io_ctx {
	uint64_t align_u64; /* the contexts hold pointers and 64-bit counters */
	void *align_ptr;
	unsigned char bytes[RL_IO_CTX_SIZE];
};

union rl_io_tag {
	uint64_t align_u64;
	void *align_ptr;
	unsigned char bytes[RL_IO_TAG_SIZE];
};

/* rl_io.pool: where a request came from (internal to the executor's pool) */
#define RL_IO_POOL_NONE 0 /* the submitter's own request */
#define RL_IO_POOL_BUSY 1 /* a pool entry handed out by rl_io_child_get() */
#define RL_IO_POOL_FREE 2 /* a pool entry on the free list */

struct rl_io {
	/* --- filled in by the submitter --- */
	uint8_t op;         /* enum rl_op */
	uint8_t flags;      /* RL_IO_* */
	uint16_t pool;      /* internal: RL_IO_POOL_* */
	uint32_t len;       /* bytes; 0 only for FLUSH */
	uint64_t offset;    /* bytes from the start of the target */
	void *buf;          /* data for READ/WRITE; may be NULL for targets without data */
	rl_io_cb cb;        /* completion callback (required) */
	void *cb_arg;       /* for the submitter's use */
	uint16_t ioprio;    /* I/O priority as ioprio_set(2) takes it (class << 13 | level);
	                       0: the submitting thread's.  File targets pass it to the
	                       kernel; slice and link pass it down. */
	struct rl_exec *ex; /* executor this request runs on; completions are delivered there */

	/* --- composite bookkeeping (rl_io_child_* maintain these) --- */
	struct rl_io *parent; /* the request this child belongs to, or NULL */
	uint32_t pending;     /* children of this request still outstanding */
	int status;           /* first error seen among children, or 0 */

	/* --- executor bookkeeping --- */
	struct rl_io *next;               /* ready queue, wait list or pool free list link */
	void (*resume)(struct rl_io *io); /* rl_exec_wait: called when children are free */
	/* io_uring and libaio: when the executor's submit call that handed this request to
	   the kernel returned (fio's issue time); the submitter clears it, other backends
	   leave it alone */
	uint64_t t_issued;

	/* --- the composite that took this child from the pool (RL_IO_TAG_DEFINE) --- */
	union rl_io_tag tag;

	/* --- owned by the receiving target (RL_IO_CTX_DEFINE) --- */
	union rl_io_ctx ctx;
};

/*
 * Define `static inline TYPE *NAME(const struct rl_io *io)`, the one way a
 * target type reaches its context in a request it holds.  Fails to compile
 * when TYPE does not fit the area or needs a stricter alignment.
 */
#define RL_IO_CTX_DEFINE(NAME, TYPE)                                                               \
	_Static_assert(sizeof(TYPE) <= RL_IO_CTX_SIZE, #TYPE " must fit a request's ctx");         \
	_Static_assert(_Alignof(TYPE) <= _Alignof(union rl_io_ctx),                                \
	               #TYPE " must not need a stricter alignment than ctx");                      \
	static inline TYPE *NAME(const struct rl_io *io)                                           \
	{                                                                                          \
		return (TYPE *)(uintptr_t)io->ctx.bytes;                                           \
	}

/* The same for a composite's tag on the children it takes from the pool. */
#define RL_IO_TAG_DEFINE(NAME, TYPE)                                                               \
	_Static_assert(sizeof(TYPE) <= RL_IO_TAG_SIZE, #TYPE " must fit a request's tag");         \
	_Static_assert(_Alignof(TYPE) <= _Alignof(union rl_io_tag),                                \
	               #TYPE " must not need a stricter alignment than tag");                      \
	static inline TYPE *NAME(const struct rl_io *io)                                           \
	{                                                                                          \
		return (TYPE *)(uintptr_t)io->tag.bytes;                                           \
	}

/** Complete @io now: call its callback with @status. */
static inline void rl_io_complete(struct rl_io *io, int status)
{
	assert(io->cb);      /* every request has somewhere to complete to */
	assert(status <= 0); /* 0 or a negative errno */
	io->cb(io, status);
}

/** Complete @io from the executor's loop, after the current call returns. */
void rl_io_complete_later(struct rl_io *io, int status);

/**
 * Take a child request for @parent from the executor's pool.  Every field
 * is set: the child inherits the executor, the operation and the I/O
 * priority, has parent set, cb set to rl_io_child_end, no flags, no range,
 * no buffer, no cb_arg and a zeroed tag; the caller sets op, offset, len,
 * buf, flags (and may override cb, as long as its own callback ends with
 * rl_io_child_end).  The ctx is the receiving target's to initialise.
 * Increments parent->pending.
 * Returns NULL when the pool is empty: the caller then parks the parent with
 * rl_exec_wait() and retries later.
 */
struct rl_io *rl_io_child_get(struct rl_io *parent);

/**
 * End a child: remember the first error in the parent, return the child to
 * the pool, and complete the parent with its first error (or 0) when this was
 * its last outstanding child and the fan-out has been sealed.
 */
void rl_io_child_end(struct rl_io *child, int status);

/**
 * Prepare @parent for a fan-out: pending = 1 (a guard reference) and status 0.
 * Call before issuing children, then rl_io_children_sealed() once all are
 * issued.  The guard keeps a parent from completing while children are still
 * being issued even if the first ones finish early.
 */
static inline void rl_io_children_begin(struct rl_io *parent)
{
	assert(parent->pending == 0); /* no fan-out of this request is open */
	parent->pending = 1;
	parent->status = 0;
}

/** Drop the guard reference; completes the parent if every child is done. */
void rl_io_children_sealed(struct rl_io *parent);

/** Record an error in @parent without a child (e.g. a member already failed). */
static inline void rl_io_note_error(struct rl_io *parent, int status)
{
	assert(status <= 0);
	if (status && !parent->status)
		parent->status = status;
}

/** Name of an operation for messages: "read", "write", "trim", "flush". */
const char *rl_op_name(enum rl_op op);

#endif
