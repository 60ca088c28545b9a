/*
 * hostio.c - host reads, writes and trims through the cache.
 *
 *   READ   per line piece: every block held -> copied from the cache (hit);
 *          the line is being prefetched on this executor -> wait for it;
 *          otherwise the piece is read from the target below into the host
 *          buffer (a line is taken for it if possible, and pinned), then
 *          the blocks the cache holds are laid over it (they are newer)
 *          and the blocks it lacks are kept in the line.  Then the read
 *          policy may prefetch what follows (readahead.c).
 *   WRITE  write-back in force (write=back with battery=ok or nv=on, or
 *          write=force-back) and no FUA: a line is pinned for every piece
 *          (none free: the write goes through, see below); the write is
 *          acknowledged after the cache's DRAM time, and only then is its
 *          data copied in and marked dirty (so what is dirty is exactly
 *          what was acknowledged).
 *          Otherwise (write-through, battery fallback, FUA, cache full):
 *          each piece waits while its line is being destaged (cache.h,
 *          "Write order"), is copied into its line (clean) and written to
 *          the target below, with RL_IO_FUA when the host asked for it or
 *          disk-cache=off; the host is acknowledged when the members are.
 *   TRIM   the blocks are forgotten, then the trim goes down.
 *
 * A piece is one line's part of a request; a request becomes one child
 * request per piece that goes to the target below.  Progress (bytes
 * issued) lives in its struct cache_req (u.rw.cur), so a request parked
 * for want of child requests resumes where it stopped.
 */
#include <errno.h>
#include <string.h>

#include "cache/cache.h"

static void cache_read_piece_resume(struct rl_io *child);
static void cache_wt_piece_resume(struct rl_io *child);

/*
 * Direct I/O passes the host request through: the run of pieces from @rel
 * on whose lines the cache does not hold at all goes down as one member
 * request, as a controller's direct path sends the host's command on (a
 * 1 MiB read stays one command per member, not one per line).  Returns the
 * run's bytes, or 0 when the policy is cached I/O or the first line is
 * held.  Lock held.
 */
static uint64_t cache_direct_run(struct cache *c, const struct rl_io *io, uint64_t rel)
    RL_REQUIRES(c)
{
	uint64_t run = 0;

	if (!c->cfg.io_direct)
		return 0;
	while (rel + run < io->len) {
		struct cache_piece pc = cache_piece_at(c, io, rel + run);
		if (cache_find(&c->tab, pc.tag))
			break;
		run += pc.len;
	}
	return run;
}

/* A line holding only clean data that nothing is using: a write may drop its copy. */
static bool cache_line_idle_clean(const struct cache_line *l)
{
	return !l->ndirty && !l->refs && !l->wt && l->busy == CACHE_BUSY_NONE && !l->waiters;
}

/*
 * The same for a write-through write: lines holding only clean data that
 * no request or background operation is using do not stop the run - their
 * copies of the written blocks are dropped (the write makes them stale), so
 * a host write goes down as one request whatever the reads left cached.
 * Lock held.
 */
static uint64_t cache_direct_run_write(struct cache *c, const struct rl_io *io, uint64_t rel)
    RL_REQUIRES(c)
{
	uint64_t run = 0;

	if (!c->cfg.io_direct)
		return 0;
	while (rel + run < io->len) {
		struct cache_piece pc = cache_piece_at(c, io, rel + run);
		struct cache_line *l = cache_find(&c->tab, pc.tag);
		if (l && !cache_line_idle_clean(l))
			break;
		run += pc.len;
	}
	if (run <= cache_piece_at(c, io, rel).len)
		return 0; /* one piece: the line path handles it */
	for (uint64_t r = 0; r < run;) {
		struct cache_piece pc = cache_piece_at(c, io, rel + r);
		struct cache_line *l = cache_find(&c->tab, pc.tag);
		if (l) {
			cache_forget(&c->tab, l, pc.b0, pc.n);
			cache_stamp(&c->tab, l);
		}
		r += pc.len;
	}
	return run;
}

/* --- reads --- */

/* A hit: copy blocks out, count read-ahead use.  Lock held. */
static void cache_hit(struct cache *c, struct cache_line *l, const struct cache_piece *p,
                      uint8_t *buf, struct rl_io *parent) RL_REQUIRES(c)
{
	uint64_t *ra = cache_bits(&c->tab, c->tab.rabits, l);
	uint32_t used = cache_bits_count(ra, p->b0, p->n);

	if (c->tab.data && buf)
		memcpy(buf, cache_buf(&c->tab, l, p->b0), p->len);
	if (used) {
		c->host.n.ra_used_bytes += (uint64_t)used * c->tab.bs;
		if (c->cfg.io_direct) {
			/* direct I/O: prefetched data goes to the host once, then the line is free
			 */
			const uint64_t *dm = cache_bits(&c->tab, c->tab.dirty, l);
			for (uint32_t b = p->b0; b < p->b0 + p->n; b++)
				if (cache_bit(ra, b) && !cache_bit(dm, b))
					cache_forget(&c->tab, l, b, 1);
		}
		cache_bits_clear(ra, p->b0, p->n);
	}
	if (l->list == CACHE_L_CLEAN)
		cache_list_move(&c->tab, l, CACHE_L_CLEAN);
	c->host.n.read_hit_bytes += p->len;
	cache_req(parent)->u.rw.hit_bytes += p->len;
}

/*
 * A miss may fill its line with what it read only if no write that took no
 * line (an uncached write) was in flight when it went down or began since:
 * such a write may land after the member read and make its data stale.
 * The read's first miss records the table's nc_epoch (bumped by each uncached
 * write) and every miss checks it, so the request as a whole fills only if
 * the epoch is unchanged when its pieces come back.  Lock held.
 */
static void cache_miss_note(struct cache *c, struct cache_req *r) RL_REQUIRES(c)
{
	if (c->tab.nc_inflight || c->cfg.io_direct) /* direct I/O: a miss populates nothing */
		r->u.rw.flags |= CACHE_R_NOFILL;
	if (!(r->u.rw.flags & CACHE_R_EPOCH)) {
		r->u.rw.epoch = (uint32_t)c->tab.nc_epoch;
		r->u.rw.flags |= CACHE_R_EPOCH;
	} else if (r->u.rw.epoch != (uint32_t)c->tab.nc_epoch) {
		r->u.rw.flags |= CACHE_R_NOFILL;
	}
}

/* A member read ended; child->cb_arg is the line it pinned, or NULL. */
static void cache_read_piece_done(struct rl_io *child, int status)
{
	struct rl_io *p = child->parent;
	struct cache *c = cache_of(p);
	struct cache_line *l = child->cb_arg;

	if (l) {
		const struct cache_req *r = cache_req(p);
		uint32_t b0 = (uint32_t)(child->offset % c->tab.line / c->tab.bs);
		cache_lock(c);
		if (!status && (!c->pw.off || c->replaying)) {
			bool ok = !(r->u.rw.flags & CACHE_R_NOFILL) &&
			          r->u.rw.epoch == (uint32_t)c->tab.nc_epoch;
			cache_merge_read(&c->tab, l, b0, child->len / c->tab.bs, child->buf, ok,
			                 false);
		}
		cache_unpin(l);
		cache_unlock(c);
	}
	rl_io_child_end(child, status);
}

/* Serve, park or send down one piece held by @child (offset/len/buf set). */
static void cache_read_piece(struct cache *c, struct rl_io *child)
{
	struct rl_io *p = child->parent;
	struct cache_piece pc = cache_piece_at(c, child, 0);
	struct cache_line *l;

	cache_lock(c);
	if (child->len > pc.len) { /* a direct run (cache_direct_run): straight to the member */
		child->cb_arg = NULL;
		c->host.n.read_miss_bytes += child->len;
		cache_req(p)->u.rw.flags |= CACHE_R_MEMBER;
		cache_unlock(c);
		child->cb = cache_read_piece_done;
		rl_target_submit(c->below, child);
		return;
	}
	l = cache_find(&c->tab, pc.tag);
	if (l && cache_bits_all(cache_bits(&c->tab, c->tab.valid, l), pc.b0, pc.n)) {
		cache_hit(c, l, &pc, child->buf, p);
		cache_unlock(c);
		rl_io_child_end(child, 0);
		return;
	}
	if (l && l->busy == CACHE_BUSY_FILL && l->busy_ex == child->ex) {
		cache_waiter_add(l, child, cache_read_piece_resume);
		c->host.n.read_waits++;
		cache_unlock(c);
		return;
	}
	if (!l && !c->cfg.io_direct) /* direct I/O: a miss takes no line */
		l = cache_alloc(&c->tab, pc.tag);
	if (l)
		cache_pin(l);
	cache_miss_note(c, cache_req(p));
	child->cb_arg = l;
	c->host.n.read_miss_bytes += pc.len;
	cache_req(p)->u.rw.flags |= CACHE_R_MEMBER;
	cache_unlock(c);
	child->cb = cache_read_piece_done;
	rl_target_submit(c->below, child);
}

static void cache_read_piece_resume(struct rl_io *child)
{
	cache_read_piece(cache_of(child->parent), child);
}

static void cache_read_issue(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	struct cache_req *r = cache_req(io);

	while (r->u.rw.cur < io->len) {
		uint64_t rel = r->u.rw.cur;
		struct cache_piece pc = cache_piece_at(c, io, rel);
		struct cache_line *l;
		struct rl_io *child;
		uint64_t run;

		cache_lock(c);
		l = cache_find(&c->tab, pc.tag);
		if (l && cache_bits_all(cache_bits(&c->tab, c->tab.valid, l), pc.b0, pc.n)) {
			cache_hit(c, l, &pc, cache_host_buf(io, rel), io);
			cache_unlock(c);
			r->u.rw.cur = (uint32_t)(rel + pc.len);
			continue;
		}
		run = cache_direct_run(c, io, rel);
		if (run > pc.len)
			pc.len = (uint32_t)run;
		cache_unlock(c);
		child = rl_io_child_get(io);
		if (!child) {
			if (cache_wait_pool(io, cache_read_issue))
				return;
			break;
		}
		child->op = RL_OP_READ;
		child->offset = pc.off;
		child->len = pc.len;
		child->buf = cache_host_buf(io, rel);
		r->u.rw.cur = (uint32_t)(rel + pc.len);
		cache_read_piece(c, child);
	}
	cache_seal(io);
}

void cache_read_start(struct cache *c, struct rl_io *io)
{
	cache_lock(c);
	c->host.n.reads++;
	cache_unlock(c);
	rl_io_children_begin(io);
	cache_read_issue(io);
	cache_readahead(c, io->ex, io->offset, io->len);
}

/* --- writes --- */

/* A member write-through write ended; child->cb_arg is the line it holds, or NULL. */
static void cache_wt_done(struct rl_io *child, int status)
{
	struct rl_io *p = child->parent;
	struct cache *c = cache_of(p);
	struct cache_line *l = child->cb_arg;

	cache_lock(c);
	if (l) {
		uint32_t b0 = (uint32_t)(child->offset % c->tab.line / c->tab.bs),
		         n = child->len / c->tab.bs;
		const uint64_t *tb = cache_bits(&c->tab, c->tab.wtouch, l);
		if (status) { /* the write failed: what the cache holds of it is no truth */
			cache_forget(&c->tab, l, b0, n);
		} else if (!(cache_req(p)->u.rw.flags & CACHE_R_UNCLEAN) &&
		           (!c->pw.off || c->replaying)) {
			/* the newest data of the blocks no later copy touched is below */
			for (uint32_t b = b0; b < b0 + n; b++)
				if (!cache_bit(tb, b))
					cache_clean(&c->tab, l, b, 1);
		}
		cache_bits_clear(cache_bits(&c->tab, c->tab.wtb, l), b0, n);
		cache_wt_end(l);
	} else {
		cache_uncached_end(&c->tab);
	}
	cache_unlock(c);
	rl_io_child_end(child, status);
}

static void cache_wt_poll(struct rl_io *child, int status)
{
	(void)status;
	cache_wt_piece_resume(child);
}

/*
 * One write-through piece (@child has offset/len/buf/flags): wait while its
 * line is being destaged, else copy it into the line and send it down.
 */
static void cache_wt_piece(struct cache *c, struct rl_io *child)
{
	struct cache_piece pc = cache_piece_at(c, child, 0);
	struct cache_line *l;
	bool clearable = true;

	cache_lock(c);
	l = child->len > pc.len ? NULL
	                        : cache_find(&c->tab, pc.tag); /* a direct run holds no line */
	if (l && l->busy == CACHE_BUSY_DESTAGE) {
		if (l->busy_ex == child->ex) {
			cache_waiter_add(l, child, cache_wt_piece_resume);
			cache_unlock(c);
			return;
		}
		child->cb = cache_wt_poll;
		if (!rl_exec_at(child->ex, child, rl_exec_now(child->ex) + CACHE_POLL_NS, 0)) {
			cache_unlock(c);
			return;
		}
		/* no timer: write now, racing the destage, and keep the blocks dirty */
		clearable = false;
		cache_req(child->parent)->u.rw.flags |= CACHE_R_UNCLEAN;
	}
	if (l && c->cfg.io_direct && clearable && cache_line_idle_clean(l)) {
		/*
		 * Direct I/O: write-through data takes no line, whatever the
		 * request's size (a multi-line run drops its lines' copies the
		 * same way); only a line in use keeps the blocks up to date.
		 */
		cache_forget(&c->tab, l, pc.b0, pc.n);
		cache_stamp(&c->tab, l);
		l = NULL;
	}
	if (!l && !c->cfg.io_direct) /* direct I/O: write-through data takes no line */
		l = cache_alloc(&c->tab, pc.tag);
	if (l) {
		cache_copy_in(&c->tab, l, pc.b0, pc.n, child->buf, false, cache_seq_next(&c->tab));
		cache_bits_clear(cache_bits(&c->tab, c->tab.wtouch, l), pc.b0, pc.n);
		cache_bits_set(cache_bits(&c->tab, c->tab.wtb, l), pc.b0, pc.n);
		cache_wt_begin(l);
	} else {
		/* Not cached: reads that start now must not keep what they find. */
		cache_uncached_begin(&c->tab);
	}
	cache_unlock(c);
	child->cb = cache_wt_done;
	child->cb_arg = l;
	rl_target_submit(c->below, child);
}

static void cache_wt_piece_resume(struct rl_io *child)
{
	cache_wt_piece(cache_of(child->parent), child);
}

/* Write-through (and FUA, fallback, cache full): one member write per line piece. */
static void cache_wt_issue(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	uint8_t flags =
	    (io->flags & RL_IO_FUA) || !c->cfg.disk_cache || (c->cfg.wt_fua && !c->cfg.wb)
	        ? RL_IO_FUA
	        : 0;
	struct cache_req *r = cache_req(io);

	while (r->u.rw.cur < io->len) {
		uint64_t rel = r->u.rw.cur;
		struct cache_piece pc = cache_piece_at(c, io, rel);
		struct rl_io *child = rl_io_child_get(io);
		uint64_t run;

		if (!child) {
			if (cache_wait_pool(io, cache_wt_issue))
				return;
			break;
		}
		cache_lock(c);
		run = cache_direct_run_write(c, io, rel);
		cache_unlock(c);
		if (run > pc.len)
			pc.len = (uint32_t)run;
		child->op = RL_OP_WRITE;
		child->flags = flags;
		child->offset = pc.off;
		child->len = pc.len;
		child->buf = cache_host_buf(io, rel);
		r->u.rw.cur = (uint32_t)(rel + pc.len);
		cache_wt_piece(c, child);
	}
	cache_seal(io);
}

/* Write-back acknowledgement: the data enters the cache now, dirty. */
static void cache_wb_ack(struct rl_io *io, int status)
{
	struct cache *c = cache_of(io);
	bool kick;

	(void)status;
	cache_lock(c);
	for (uint64_t rel = 0; rel < io->len;) {
		struct cache_piece pc = cache_piece_at(c, io, rel);
		struct cache_line *l = cache_find(&c->tab, pc.tag); /* pinned at submit */
		if (!c->pw.off)
			cache_copy_in(&c->tab, l, pc.b0, pc.n, cache_host_buf(io, rel), true,
			              cache_seq_next(&c->tab));
		cache_unpin(l);
		rel += pc.len;
	}
	cache_idle_arm(c, io->ex, rl_exec_now(io->ex));
	kick = cache_destage_due(c);
	cache_unlock(c);
	if (kick)
		cache_destage_kick(c, io->ex);
	cache_host_final(io, 0);
}

/* Pin a line for every piece; false (nothing pinned) when one cannot be had.  Lock held. */
static bool cache_wb_pin(struct cache *c, struct rl_io *io) RL_REQUIRES(c)
{
	uint32_t fresh = 0;
	uint64_t rel;

	for (rel = 0; rel < io->len;) {
		struct cache_piece pc = cache_piece_at(c, io, rel);
		struct cache_line *l = cache_find(&c->tab, pc.tag);
		if (!l && !(l = cache_alloc(&c->tab, pc.tag)))
			break;
		/* a line that is not dirty yet needs room for dirty data */
		if (l->list != CACHE_L_DIRTY &&
		    c->tab.count[CACHE_L_DIRTY] + ++fresh > c->cfg.dirty_max)
			break;
		cache_pin(l);
		rel += pc.len;
	}
	if (rel >= io->len)
		return true;
	for (uint64_t r = 0; r < rel;) {
		struct cache_piece pc = cache_piece_at(c, io, r);
		cache_unpin(cache_find(&c->tab, pc.tag));
		r += pc.len;
	}
	return false;
}

static void cache_write_go(struct cache *c, struct rl_io *io, bool counted)
{
	/* a protected write-back cache is durable: FUA is satisfied in DRAM */
	bool fua = (io->flags & RL_IO_FUA) && !cache_sync_in_dram(c), full = false;

	cache_lock(c);
	if (!counted) {
		c->host.n.writes++;
		c->host.n.write_bytes += io->len;
	}
	cache_destage_host_write(c);
	if (c->cfg.wb && !fua && c->cfg.full_wait && io->ex->kind == RL_EXEC_VIRTUAL &&
	    (c->host.wb_wait || !cache_wb_pin(c, io))) {
		/*
		 * full=wait: no room for dirty data, so the write waits for the
		 * destage to make some, as a controller's cache full of dirty
		 * data makes the host wait (behind earlier waiters: in order).
		 */
		io->next = NULL;
		*c->host.wb_wait_tail = io;
		c->host.wb_wait_tail = &io->next;
		c->host.n.writes_waited += !counted;
		cache_destage_press(c);
		cache_unlock(c);
		cache_destage_kick(c, io->ex);
		return;
	}
	if (c->cfg.wb && !fua && c->cfg.full_wait && io->ex->kind == RL_EXEC_VIRTUAL) {
		/* pinned above */
		uint64_t when = cache_dram(c, rl_exec_now(io->ex), io->len);
		c->host.n.writes_back++;
		cache_unlock(c);
		io->cb = cache_wb_ack;
		if (rl_exec_at(io->ex, io, when, 0))
			rl_io_complete_later(io, 0);
		return;
	}
	if (c->cfg.wb && !fua) {
		if (cache_wb_pin(c, io)) {
			uint64_t when = 0;
			c->host.n.writes_back++;
			if (io->ex->kind == RL_EXEC_VIRTUAL)
				when = cache_dram(c, rl_exec_now(io->ex), io->len);
			cache_unlock(c);
			io->cb = cache_wb_ack;
			if (!when || rl_exec_at(io->ex, io, when, 0))
				rl_io_complete_later(io, 0);
			return;
		}
		full = true;
		c->host.n.writes_full++;
		cache_destage_press(c);
	}
	if (fua)
		c->host.n.writes_fua++;
	else
		c->host.n.writes_through++;
	cache_unlock(c);
	if (full)
		cache_destage_kick(c, io->ex);
	cache_req(io)->u.rw.flags |= CACHE_R_THROUGH;
	rl_io_children_begin(io);
	cache_wt_issue(io);
}

void cache_write_start(struct cache *c, struct rl_io *io)
{
	cache_write_go(c, io, false);
}

void cache_wb_wake(struct cache *c)
{
	struct rl_io *list;

	cache_lock(c);
	if (!c->host.wb_wait || c->tab.count[CACHE_L_DIRTY] >= c->cfg.dirty_max) {
		cache_unlock(c);
		return;
	}
	list = c->host.wb_wait;
	c->host.wb_wait = NULL;
	c->host.wb_wait_tail = &c->host.wb_wait;
	cache_unlock(c);
	while (list) {
		struct rl_io *io = list;
		list = io->next;
		io->next = NULL;
		cache_write_go(c, io, true);
	}
}

/* --- trim --- */

static void cache_trim_done(struct rl_io *child, int status)
{
	struct cache *c = cache_of(child->parent);

	cache_lock(c);
	if (!status)
		cache_pl_member_trim(c, child->offset, child->len);
	cache_unlock(c);
	rl_io_child_end(child, status);
}

static void cache_trim_issue(struct rl_io *io)
{
	struct cache *c = cache_of(io);
	struct rl_io *child = rl_io_child_get(io);

	if (!child) {
		if (!cache_wait_pool(io, cache_trim_issue))
			cache_seal(io);
		return;
	}
	child->op = RL_OP_TRIM;
	child->offset = io->offset;
	child->len = io->len;
	child->cb = cache_trim_done;
	rl_target_submit(c->below, child);
	cache_seal(io);
}

void cache_trim_start(struct cache *c, struct rl_io *io)
{
	cache_lock(c);
	c->host.n.trims++;
	for (uint64_t rel = 0; rel < io->len;) {
		struct cache_piece pc = cache_piece_at(c, io, rel);
		struct cache_line *l = cache_find(&c->tab, pc.tag);
		if (l) {
			cache_forget(&c->tab, l, pc.b0, pc.n);
			cache_stamp(&c->tab, l);
		}
		rel += pc.len;
	}
	cache_unlock(c);
	rl_io_children_begin(io);
	cache_trim_issue(io);
}
