/*
 * io.c - child requests and the one place a parent completes.
 *
 * A composite begins a fan-out with rl_io_children_begin() (a guard
 * reference), takes each child with rl_io_child_get(), and seals with
 * rl_io_children_sealed().  rl_io_child_end() and the seal both go through
 * io_parent_put(), so a parent completes exactly once, with the first error
 * any child reported, whatever order children finish in.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/exec.h"
#include "core/io.h"

const char *rl_op_name(enum rl_op op)
{
	static const char *const names[RL_OP_COUNT] = {"read", "write", "trim", "flush"};

	return (unsigned)op < RL_OP_COUNT ? names[op] : "?";
}

static void io_parent_put(struct rl_io *parent)
{
	/* one put per reference taken: a second completion of the parent (or
	 * of a child) would find nothing left to put */
	assert(parent->pending > 0);
	assert(parent->pending != UINT32_MAX); /* a wrapped count: a put without a get */
	if (--parent->pending == 0)
		rl_io_complete(parent, parent->status);
}

struct rl_io *rl_io_child_get(struct rl_io *parent)
{
	struct rl_io *c;

	assert(parent && parent->ex); /* a child runs on its parent's executor */
	assert(parent->pending < UINT32_MAX);
	c = rl_exec_pool_get(parent->ex);
	if (!c)
		return NULL;
	assert(c->pool == RL_IO_POOL_BUSY && c != parent);
	/* every field but pool (the pool's own mark): nothing is left from
	 * the entry's previous user */
	c->op = parent->op;
	c->flags = 0;
	c->len = 0;
	c->offset = 0;
	c->buf = NULL;
	c->cb = rl_io_child_end;
	c->cb_arg = NULL;
	c->ioprio = parent->ioprio; /* member I/O on the host request's behalf */
	c->ex = parent->ex;
	c->parent = parent;
	c->pending = 0;
	c->status = 0;
	c->next = NULL;
	c->resume = NULL;
	c->t_issued = 0;
	memset(&c->tag, 0, sizeof(c->tag));
	memset(&c->ctx, 0, sizeof(c->ctx));
	parent->pending++;
	return c;
}

void rl_io_child_end(struct rl_io *child, int status)
{
	struct rl_io *parent = child->parent;

	/* a child ends once: a second end finds it back in the pool */
	assert(child->pool == RL_IO_POOL_BUSY);
	assert(parent && parent->ex == child->ex);
	assert(parent->pending > 0); /* the child still holds its reference */
	rl_io_note_error(parent, status);
	rl_exec_pool_put(child->ex, child);
	io_parent_put(parent);
}

void rl_io_children_sealed(struct rl_io *parent)
{
	io_parent_put(parent);
}
