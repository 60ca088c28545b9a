/*
 * flush.c - a host FLUSH: everything acknowledged before it onto the
 * members (and, with disk-cache=on, out of their volatile caches).
 *
 * The flush remembers the write sequence at its arrival (A) and makes
 * passes over the line table.  A line needs it when it is dirty, became
 * dirty at or before A, and no destage begun at or after A has completed
 * for it (struct cache_line.covered).  A pass destages every such line
 * nobody else is destaging, one child request per dirty run (RL_IO_FUA
 * with disk-cache=off), at most destage-qd of them in flight (the end of
 * one resumes the pass), and skips busy ones.  The bound matters beyond
 * the controller's queue: each level below takes children from the same
 * executor pool, some only later (a link after its latency), so a flush
 * that took a child per dirty line could empty the pool with every level
 * parked for it.  When a pass's children are
 * done: another pass if it issued anything (lines dirtied meanwhile are not
 * needed, so this ends); if only busy lines are left, wait for one (on the
 * line when it is busy on this executor, else poll); when nothing is left,
 * with disk-cache=on a FLUSH goes down (drive-cache tracking: powerloss.c),
 * and the flush completes.  At the end of a run the same path writes
 * everything back (and, after a power cut, replays a protected cache with
 * FUA: c->replaying).
 *
 * Progress lives in the request's struct cache_req (u.fl: line, block
 * within the line, flags), so a flush parked for want of child requests
 * resumes exactly where it stopped; a line whose destage it has begun stays
 * busy meanwhile.
 */
#include <errno.h>
#include <string.h>

#include "cache/cache.h"

/* u.fl.flags of a flush */
#define CACHE_F_INPASS 0x01u /* a pass is under way (its children counted) */
#define CACHE_F_ISSUED 0x02u /* this pass issued a destage */
#define CACHE_F_BUSY   0x04u /* this pass skipped a needed line someone else is destaging */
#define CACHE_F_MEMBER 0x08u /* the members' FLUSH step has begun */
#define CACHE_F_BEGUN  0x10u /* the current line's destage is begun */
#define CACHE_F_FULL   0x20u /* parked: destage-qd of its writes are in flight */

#define CACHE_FLUSH_SCAN 1024 /* lines a pass looks at under one hold of the lock */

static void cache_flush_pass(struct rl_io *io);

/* The pass's cursor: line @idx, block @blk, CACHE_F_* @flags. */
static void cache_cur_set(struct rl_io *io, uint32_t idx, uint32_t blk, unsigned flags)
{
	struct cache_req *r = cache_req(io);

	r->u.fl.line = idx;
	r->u.fl.blk = (uint16_t)blk;
	r->u.fl.flags = (uint16_t)flags;
}

/* Does the flush that arrived at write sequence @a need line @l destaged?  Lock held. */
static bool cache_flush_needs(const struct cache *c, const struct cache_line *l, uint64_t a)
    RL_REQUIRES(c)
{
	if (l->list != CACHE_L_DIRTY)
		return false;
	if (c->replaying)
		return true;
	return l->dirty_since <= a && l->covered < a;
}

static void cache_flush_destage_done(struct rl_io *child, int status)
{
	struct rl_io *p = child->parent;
	struct cache *c = cache_of(p);
	struct rl_io *w;

	cache_lock(c);
	w = cache_destage_end(c, cache_idx(&c->tab, child->cb_arg),
	                      (uint32_t)(child->offset % c->tab.line / c->tab.bs),
	                      child->len / c->tab.bs, child->flags & RL_IO_FUA, status);
	cache_unlock(c);
	rl_io_child_end(child, status); /* p lives on: its pass holds a guard */
	cache_waiters_wake(w);
	if (cache_req(p)->u.fl.flags & CACHE_F_FULL) {
		cache_req(p)->u.fl.flags &= (uint16_t)~CACHE_F_FULL;
		cache_flush_pass(p);
	}
}

static void cache_flush_member_done(struct rl_io *child, int status)
{
	struct rl_io *p = child->parent;
	struct cache *c = cache_of(p);

	cache_lock(c);
	if (!status)
		cache_pl_flush_done(c, (uint32_t)cache_req(p)->u.fl.seq);
	cache_unlock(c);
	rl_io_child_end(child, status);
}

/* Second step: with disk-cache=on, empty the members' caches. */
static void cache_flush_members(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	struct rl_io *child;

	if (!c->cfg.disk_cache) {
		cache_host_final(io, 0);
		return;
	}
	if (!(cache_req(io)->u.fl.flags & CACHE_F_MEMBER)) {
		cache_req(io)->u.fl.flags |= CACHE_F_MEMBER;
		io->cb = cache_host_done;
		rl_io_children_begin(io);
	}
	child = rl_io_child_get(io);
	if (!child) {
		if (!cache_wait_pool(io, cache_flush_members))
			cache_seal(io);
		return;
	}
	cache_lock(c);
	cache_req(io)->u.fl.seq = cache_pl_flush_begin(c);
	c->host.n.member_flushes++;
	cache_unlock(c);
	child->op = RL_OP_FLUSH;
	child->cb = cache_flush_member_done;
	rl_target_submit(c->below, child);
	cache_seal(io);
}

static void cache_flush_poll(struct rl_io *io, int status)
{
	(void)status;
	cache_flush_pass(io);
}

/* Every destage of a pass has ended. */
static void cache_flush_pass_done(struct rl_io *io, int status)
{
	struct cache *c = cache_of(io);
	struct cache_req *r = cache_req(io);
	uint16_t flags = r->u.fl.flags;
	struct cache_line *wait = NULL;

	cache_cur_set(io, 0, 0, 0);
	if (status) {
		cache_host_final(io, status);
		return;
	}
	if (flags & CACHE_F_ISSUED) {
		cache_flush_pass(io); /* again, for the lines that were busy */
		return;
	}
	if (!(flags & CACHE_F_BUSY)) {
		cache_flush_members(io);
		return;
	}
	/* Only busy lines are left: wait on one of ours, or poll other threads'. */
	cache_lock(c);
	for (uint32_t i = 0; i < c->tab.nlines && !wait; i++) {
		struct cache_line *l = &c->tab.lines[i];
		if (l->busy != CACHE_BUSY_NONE && cache_flush_needs(c, l, r->u.fl.seq))
			wait = l;
	}
	if (wait && wait->busy_ex == io->ex) {
		cache_waiter_add(wait, io, cache_flush_pass);
		cache_unlock(c);
		return;
	}
	cache_unlock(c);
	if (wait) {
		io->cb = cache_flush_poll;
		if (!rl_exec_at(io->ex, io, rl_exec_now(io->ex) + CACHE_POLL_NS, 0))
			return;
		io->cb = cache_flush_pass_done;
	}
	cache_flush_pass(io);
}

/* Submit a list of child requests linked through ->next. */
static void cache_submit_list(struct cache *c, struct rl_io *go)
{
	while (go) {
		struct rl_io *g = go;
		go = g->next;
		g->next = NULL;
		rl_target_submit(c->below, g);
	}
}

/*
 * One pass over the lines: destage every line the flush needs that nobody
 * else is destaging.  Resumable: the cursor (line, block, whether the
 * line's destage was begun) and the pass's flags live in u.fl;
 * a line whose destage is begun stays busy (its guard held) while the
 * flush waits for the pool, and the pass resumes at the block it stopped.
 */
static void cache_flush_pass(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	struct cache_req *r = cache_req(io);
	uint64_t a = r->u.fl.seq;
	uint8_t fua = c->cfg.disk_cache && !c->replaying ? 0 : RL_IO_FUA;

	if (!(r->u.fl.flags & CACHE_F_INPASS)) {
		r->u.fl.flags |= CACHE_F_INPASS;
		io->cb = cache_flush_pass_done;
		rl_io_children_begin(io);
	}
	for (;;) {
		unsigned flags = r->u.fl.flags;
		uint32_t idx = r->u.fl.line, blk = r->u.fl.blk, len;
		struct rl_io *go = NULL, **tail = &go, *w;
		struct cache_line *l;

		if (idx >= c->tab.nlines)
			break;
		l = &c->tab.lines[idx];
		cache_lock(c);
		if (!(flags & CACHE_F_BEGUN)) {
			/*
			 * Skip the lines this flush does not need, or that someone
			 * else is destaging, under one hold of the lock for up to
			 * CACHE_FLUSH_SCAN of them (not one per line).
			 */
			uint32_t end = c->tab.nlines - idx > CACHE_FLUSH_SCAN
			                   ? idx + CACHE_FLUSH_SCAN
			                   : c->tab.nlines;
			for (; idx < end; idx++) {
				l = &c->tab.lines[idx];
				if (!cache_flush_needs(c, l, a))
					continue;
				if (l->busy == CACHE_BUSY_NONE)
					break;
				flags |= CACHE_F_BUSY;
			}
			if (idx == end) {
				cache_unlock(c);
				cache_cur_set(io, idx, 0, flags);
				continue;
			}
			if (!cache_destage_begin(c, l, io->ex)) {
				/* no memory for the destage's copy: the flush fails */
				cache_unlock(c);
				rl_io_note_error(io, -ENOMEM);
				cache_cur_set(io, c->tab.nlines, 0, flags);
				goto out;
			}
			flags |= CACHE_F_BEGUN;
		}
		for (;;) {
			uint32_t s = cache_dirty_run(c, l, blk, &len);
			struct rl_io *child;
			if (s >= c->tab.bpl)
				break;
			if (io->pending - 1 >= c->cfg.destage_qd) { /* all but the guard */
				cache_cur_set(io, idx, s, flags | CACHE_F_FULL);
				cache_unlock(c);
				cache_submit_list(c, go); /* the next one to end resumes the pass */
				return;
			}
			child = rl_io_child_get(io);
			if (!child) {
				cache_cur_set(io, idx, s, flags);
				cache_unlock(c);
				cache_submit_list(c, go);
				if (cache_wait_pool(io, cache_flush_pass))
					return;
				cache_lock(c);
				cache_busy_fail(l, false);
				w = cache_destage_unguard(c, l);
				cache_unlock(c);
				cache_waiters_wake(w);
				cache_cur_set(io, c->tab.nlines, 0, flags & ~CACHE_F_BEGUN);
				goto out;
			}
			cache_busy_add(l);
			child->op = RL_OP_WRITE;
			child->flags = fua;
			child->offset = l->tag * c->tab.line + (uint64_t)s * c->tab.bs;
			child->len = len * c->tab.bs;
			child->buf = cache_destage_data(c, l, s, len);
			child->cb = cache_flush_destage_done;
			child->cb_arg = l;
			*tail = child;
			tail = &child->next;
			blk = s + len;
		}
		w = cache_destage_unguard(c, l);
		cache_unlock(c);
		cache_cur_set(io, idx + 1, 0, (flags & ~CACHE_F_BEGUN) | CACHE_F_ISSUED);
		cache_submit_list(c, go);
		cache_waiters_wake(w);
	}
out:
	cache_seal(io);
}

void cache_flush_start(struct cache *c, struct rl_io *io)
{
	cache_lock(c);
	c->host.n.flushes++;
	if (cache_sync_in_dram(c)) {
		/*
		 * A protected write-back cache is durable: the firmware completes
		 * the flush from DRAM, and destage goes on as before.
		 */
		uint64_t when =
		    io->ex->kind == RL_EXEC_VIRTUAL ? cache_dram(c, rl_exec_now(io->ex), 0) : 0;
		cache_unlock(c);
		if (!when || rl_exec_at(io->ex, io, when, 0))
			rl_io_complete_later(io, 0);
		return;
	}
	cache_req(io)->u.fl.seq = c->tab.wseq;
	cache_unlock(c);
	cache_cur_set(io, 0, 0, 0);
	cache_flush_pass(io);
}
