/*
 * flush.c - a host FLUSH: everything acknowledged before it onto the
 * members (and, with disk-cache=on, out of their volatile caches).
 *
 * The flush remembers the write sequence at its arrival (A) and makes
 * passes over the line table.  A line needs it when it is dirty, became
 * dirty at or before A, and no destage begun at or after A has completed
 * for it (struct cache_line.covered).  A pass destages every such line
 * nobody else is destaging, one child request per dirty run (RL_IO_FUA
 * with disk-cache=off), and skips busy ones.  When a pass's children are
 * done: another pass if it issued anything (lines dirtied meanwhile are not
 * needed, so this ends); if only busy lines are left, wait for one (on the
 * line when it is busy on this executor, else poll); when nothing is left,
 * with disk-cache=on a FLUSH goes down (drive-cache tracking: powerloss.c),
 * and the flush completes.  At the end of a run the same path writes
 * everything back (and, after a power cut, replays a protected cache with
 * FUA: c->replaying).
 *
 * Progress lives in priv[CACHE_P_CUR] (line, block within the line, flags),
 * so a flush parked for want of child requests resumes exactly where it
 * stopped; a line whose destage it has begun stays busy meanwhile.
 */
#include <errno.h>
#include <string.h>

#include "cache/cache.h"

/* CACHE_P_CUR of a flush: line index, block in line, flags. */
#define CACHE_F_LINE(v) ((uint32_t)(v))
#define CACHE_F_BLK(v)  ((uint32_t)((v) >> 32) & 0xffff)
#define CACHE_F_INPASS  (1ull << 48)
#define CACHE_F_ISSUED  (1ull << 49)
#define CACHE_F_BUSY    (1ull << 50)
#define CACHE_F_MEMBER  (1ull << 51)
#define CACHE_F_BEGUN   (1ull << 52) /* the current line's destage is begun */
#define CACHE_F_FLAGS                                                                              \
	(CACHE_F_INPASS | CACHE_F_ISSUED | CACHE_F_BUSY | CACHE_F_MEMBER | CACHE_F_BEGUN)

static void cache_flush_pass(struct rl_io *io);

/* Does the flush that arrived at write sequence @a need line @l destaged?  Lock held. */
static bool cache_flush_needs(const struct cache *c, const struct cache_line *l, uint64_t a)
{
	if (l->list != CACHE_L_DIRTY)
		return false;
	if (c->replaying)
		return true;
	return l->dirty_since <= a && l->covered < a;
}

static void cache_flush_destage_done(struct rl_io *child, int status)
{
	struct cache *c = cache_of(child->parent);
	struct rl_io *w;

	pthread_mutex_lock(&c->lock);
	w = cache_destage_end(c, (uint32_t)(uintptr_t)child->cb_arg,
	                      (uint32_t)(child->offset % c->line / c->bs), child->len / c->bs,
	                      child->flags & RL_IO_FUA, status);
	pthread_mutex_unlock(&c->lock);
	rl_io_child_end(child, status);
	cache_wake(c, w);
}

static void cache_flush_member_done(struct rl_io *child, int status)
{
	struct rl_io *p = child->parent;
	struct cache *c = cache_of(p);

	pthread_mutex_lock(&c->lock);
	if (!status)
		cache_pl_flush_done(c, (uint32_t)p->priv[CACHE_P_AUX]);
	pthread_mutex_unlock(&c->lock);
	rl_io_child_end(child, status);
}

/* Second step: with disk-cache=on, empty the members' caches. */
static void cache_flush_members(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	struct rl_io *child;

	if (!c->disk_cache) {
		cache_host_final(io, 0);
		return;
	}
	if (!(io->priv[CACHE_P_CUR] & CACHE_F_MEMBER)) {
		io->priv[CACHE_P_CUR] |= CACHE_F_MEMBER;
		io->cb = cache_host_done;
		rl_io_children_begin(io);
	}
	child = rl_io_child_get(io);
	if (!child) {
		if (!cache_wait_pool(io, cache_flush_members))
			cache_seal(io);
		return;
	}
	pthread_mutex_lock(&c->lock);
	io->priv[CACHE_P_AUX] = cache_pl_flush_begin(c);
	c->n.member_flushes++;
	pthread_mutex_unlock(&c->lock);
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
	uint64_t cur = io->priv[CACHE_P_CUR];
	struct cache_line *wait = NULL;

	io->priv[CACHE_P_CUR] = 0;
	if (status) {
		cache_host_final(io, status);
		return;
	}
	if (cur & CACHE_F_ISSUED) {
		cache_flush_pass(io); /* again, for the lines that were busy */
		return;
	}
	if (!(cur & CACHE_F_BUSY)) {
		cache_flush_members(io);
		return;
	}
	/* Only busy lines are left: wait on one of ours, or poll other threads'. */
	pthread_mutex_lock(&c->lock);
	for (uint32_t i = 0; i < c->nlines && !wait; i++) {
		struct cache_line *l = &c->lines[i];
		if (l->busy != CACHE_BUSY_NONE && cache_flush_needs(c, l, io->priv[CACHE_P_AUX]))
			wait = l;
	}
	if (wait && wait->busy_ex == io->ex) {
		io->next = wait->waiters;
		wait->waiters = io;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	pthread_mutex_unlock(&c->lock);
	if (wait) {
		io->cb = cache_flush_poll;
		if (!rl_exec_at(io->ex, io, rl_exec_now(io->ex) + CACHE_POLL_NS, 0))
			return;
		io->cb = cache_flush_pass_done;
	}
	cache_flush_pass(io);
}

void cache_flush_resume(struct rl_io *io)
{
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

static void cache_cur_set(struct rl_io *io, uint32_t idx, uint32_t blk, uint64_t flags)
{
	io->priv[CACHE_P_CUR] = (uint64_t)idx | (uint64_t)blk << 32 | (flags & CACHE_F_FLAGS);
}

/*
 * One pass over the lines: destage every line the flush needs that nobody
 * else is destaging.  Resumable: the cursor (line, block, whether the
 * line's destage was begun) and the pass's flags live in priv[CACHE_P_CUR];
 * a line whose destage is begun stays busy (its guard held) while the
 * flush waits for the pool, and the pass resumes at the block it stopped.
 */
static void cache_flush_pass(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	uint64_t a = io->priv[CACHE_P_AUX];
	uint8_t fua = c->disk_cache && !c->replaying ? 0 : RL_IO_FUA;

	if (!(io->priv[CACHE_P_CUR] & CACHE_F_INPASS)) {
		io->priv[CACHE_P_CUR] |= CACHE_F_INPASS;
		io->cb = cache_flush_pass_done;
		rl_io_children_begin(io);
	}
	for (;;) {
		uint64_t cur = io->priv[CACHE_P_CUR], flags = cur & CACHE_F_FLAGS;
		uint32_t idx = CACHE_F_LINE(cur), blk = CACHE_F_BLK(cur), len;
		struct rl_io *go = NULL, **tail = &go, *w;
		struct cache_line *l;

		if (idx >= c->nlines)
			break;
		l = &c->lines[idx];
		pthread_mutex_lock(&c->lock);
		if (!(flags & CACHE_F_BEGUN)) {
			if (!cache_flush_needs(c, l, a) || l->busy != CACHE_BUSY_NONE) {
				if (cache_flush_needs(c, l, a))
					flags |= CACHE_F_BUSY;
				pthread_mutex_unlock(&c->lock);
				cache_cur_set(io, idx + 1, 0, flags);
				continue;
			}
			cache_destage_begin(c, l, io->ex);
			flags |= CACHE_F_BEGUN;
		}
		for (;;) {
			uint32_t s = cache_dirty_run(c, l, blk, &len);
			struct rl_io *child;
			if (s >= c->bpl)
				break;
			child = rl_io_child_get(io);
			if (!child) {
				cache_cur_set(io, idx, s, flags);
				pthread_mutex_unlock(&c->lock);
				cache_submit_list(c, go);
				if (cache_wait_pool(io, cache_flush_pass))
					return;
				pthread_mutex_lock(&c->lock);
				l->dfail = 1;
				w = cache_destage_unguard(c, l);
				pthread_mutex_unlock(&c->lock);
				cache_wake(c, w);
				cache_cur_set(io, c->nlines, 0, flags & ~CACHE_F_BEGUN);
				goto out;
			}
			l->busy_n++;
			child->op = RL_OP_WRITE;
			child->flags = fua;
			child->offset = l->tag * c->line + (uint64_t)s * c->bs;
			child->len = len * c->bs;
			child->buf = cache_buf(c, l, s);
			child->cb = cache_flush_destage_done;
			child->cb_arg = (void *)(uintptr_t)idx;
			*tail = child;
			tail = &child->next;
			blk = s + len;
		}
		w = cache_destage_unguard(c, l);
		pthread_mutex_unlock(&c->lock);
		cache_cur_set(io, idx + 1, 0, (flags & ~CACHE_F_BEGUN) | CACHE_F_ISSUED);
		cache_submit_list(c, go);
		cache_wake(c, w);
	}
out:
	cache_seal(io);
}

void cache_flush_start(struct cache *c, struct rl_io *io)
{
	pthread_mutex_lock(&c->lock);
	c->n.flushes++;
	if (cache_sync_in_dram(c)) {
		/*
		 * A protected write-back cache is durable: the firmware completes
		 * the flush from DRAM, and destage goes on as before.
		 */
		uint64_t when =
		    io->ex->kind == RL_EXEC_VIRTUAL ? cache_dram(c, rl_exec_now(io->ex), 0) : 0;
		pthread_mutex_unlock(&c->lock);
		if (!when || rl_exec_at(io->ex, io, when, 0))
			rl_io_complete_later(io, 0);
		return;
	}
	io->priv[CACHE_P_AUX] = c->wseq;
	pthread_mutex_unlock(&c->lock);
	io->priv[CACHE_P_CUR] = 0;
	cache_flush_pass(io);
}
