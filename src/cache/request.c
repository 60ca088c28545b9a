/*
 * request.c - the way every host request leaves the cache.
 *
 * cache.c takes a request in (its state in its context, struct cache_req in
 * host.h, with the submitter's callback kept there, as delay.c does) and
 * hands it to its path; whichever path it took, it leaves through
 * cache_host_done() / cache_host_final():
 *   - the simulated DRAM time of the hits it collected is added (virtual
 *     executors only: lat + bytes/bw on one shared DRAM channel, the
 *     channel write-back acknowledgements and flushes use too);
 *   - a powered-off cache turns the status into -EIO;
 *   - an acknowledged write is counted (the power-loss trigger), and a
 *     write that went to the members is reported to the drive-cache
 *     tracking;
 *   - the submitter's callback is put back and called.
 * Fan-outs are sealed here too: a request never completes inside its own
 * submit call, and one that runs out of child requests parks on its
 * executor's pool.
 */
#include <errno.h>

#include "cache/cache.h"

uint64_t cache_dram(struct cache *c, uint64_t now, uint64_t bytes)
{
	uint64_t start = c->host.dram_free > now ? c->host.dram_free : now;

	c->host.dram_free = start + (c->cfg.dram_bw ? bytes * 1000000000ull / c->cfg.dram_bw : 0);
	return c->host.dram_free + c->cfg.dram_lat;
}

/* --- the one way out --- */

void cache_host_final(struct rl_io *io, int status)
{
	struct cache *c = cache_of(io);

	cache_lock(c);
	if (c->pw.off && !c->replaying)
		status = -EIO;
	else if (io->op == RL_OP_WRITE && !status) {
		/* Drive-cache tracking counts acknowledged data only. */
		if (cache_req(io)->u.rw.flags & CACHE_R_THROUGH)
			cache_pl_member_write(c, io->offset, io->len, io->flags & RL_IO_FUA);
		cache_pl_acked(c);
	}
	if (io->op == RL_OP_READ && !status) {
		if (cache_req(io)->u.rw.flags & CACHE_R_MEMBER)
			c->host.n.read_misses++;
		else
			c->host.n.read_hits++;
	}
	c->host.inflight--;
	if (io->ex->kind == RL_EXEC_VIRTUAL && rl_exec_now(io->ex) > c->host.vseen)
		c->host.vseen = rl_exec_now(io->ex);
	cache_unlock(c);
	io->cb = cache_req(io)->cb;
	rl_io_complete(io, status);
}

void cache_host_done(struct rl_io *io, int status)
{
	struct cache *c = cache_of(io);
	struct cache_req *r = cache_req(io);

	if (io->op == RL_OP_READ && r->u.rw.hit_bytes && !(r->u.rw.flags & CACHE_R_DELAYED) &&
	    io->ex->kind == RL_EXEC_VIRTUAL) {
		uint64_t when;
		r->u.rw.flags |= CACHE_R_DELAYED;
		cache_lock(c);
		when = cache_dram(c, rl_exec_now(io->ex), r->u.rw.hit_bytes);
		cache_unlock(c);
		if (!rl_exec_at(io->ex, io, when, status))
			return;
	}
	cache_host_final(io, status);
}

/* Never complete inside submit: with no child in flight, complete from the loop. */
void cache_seal(struct rl_io *io)
{
	if (io->pending == 1) {
		io->pending = 0;
		rl_io_complete_later(io, io->status);
	} else {
		rl_io_children_sealed(io);
	}
}

bool cache_wait_pool(struct rl_io *io, rl_exec_resume_fn resume)
{
	if (!io->ex->pool_size) {
		rl_io_note_error(io, -ENOMEM);
		return false;
	}
	rl_exec_wait(io->ex, io, resume);
	return true;
}
