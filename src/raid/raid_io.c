/*
 * raid_io.c - the data-path engine every array level runs on.
 *
 * A host request is walked piece by piece with the level's locate hook (a
 * piece is the part of the request that lies contiguously on every copy:
 * at most one chunk).  Each piece becomes child requests from the
 * executor's pool:
 *
 *   READ         one child per piece, sent to the copy the level picks; a
 *                failed read moves on to the next copy (state machine below).
 *                A read of one piece skips the walk (raid_read_direct)
 *   WRITE, TRIM  one child per piece per writable copy (TRIM: per member
 *                extent instead when the level has trim_next, as raid0)
 *   FLUSH        one child per writable member
 *
 * Progress lives in the parent's context (struct raid_req, ours while we
 * hold the request), so when rl_io_child_get() finds the pool empty the parent
 * is parked with rl_exec_wait() and raid_issue() later continues exactly where it stopped.  Every
 * child ends through rl_io_child_end(), and the parent is sealed once, so it completes exactly once
 * whatever the order.
 *
 * A child's own context belongs to the member while the member holds it;
 * what we need back at completion (where in the parent the piece starts,
 * which copy it went to, which copies failed a read) travels in the
 * child's tag (struct raid_tag), the area the submitter of a child owns.
 *
 * Errors: a member that fails a child is marked failed (raid_member_error).
 * A write or trim piece succeeds while some copy of it is still readable; a
 * piece with no readable copy left is lost: it fails with -EIO and the
 * array records its offset (raid_lost_note).  For levels with one copy
 * (raid0, concat) any member error therefore loses the piece.
 *
 * Read of one piece, an explicit state machine carried by its child:
 *
 *        pick the copy the level prefers (none readable: LOST)
 *                  |
 *                  v
 *   +------> ISSUED: child in flight on copy `cur`
 *   |              |
 *   |     ok ------+------ error: fail the member
 *   |     |                     |
 *   |     v                     v
 *   |   DONE          next readable copy after `cur` in the order that
 *   |                 started at `first`?  none: LOST (-EIO, recorded)
 *   +-------- yes (retries++) --+
 *
 * A read error on an array with redundancy follows md: the member stays in
 * the array (raid_member_read_error fails it only past max-read-errors, and
 * never when it holds the last readable copy of anything), the copy is
 * remembered in the tag, and once another copy has been read (DONE) the
 * data is written back over each remembered copy (FIX; a copy that fails
 * that write is stale and is failed).  Levels with one copy fail the member.
 *
 * When every copy failed a piece longer than a block (each copy may have
 * its bad sectors elsewhere), the piece is read again block by block
 * (SPLIT: the same machine per block, with FIX per block); only blocks
 * with no readable copy are lost.
 *
 * Every step is a function call from raid_read_done(); the child request
 * is reused for the retry and the rewrites, so they never need the pool.
 * md orders a rewrite against host writes with a barrier; here a read
 * notes the array's write generation when it arrives with no host write in
 * flight (raid_req.u.gen), and FIX happens only while the generation has not
 * moved: the data read cannot be older than a write then.  Under a mixed
 * load the rewrite is skipped (fixes_skipped) - the bad copy keeps failing
 * reads, which keep being retried - and a rewrite overtaken by a write sent
 * meanwhile leaves that copy in doubt: it is failed (if redundant).
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/exec.h"
#include "raid/md_state.h"
#include "raid/raid_common.h"

#define RELAXED memory_order_relaxed

#define RAID_GEN_NONE     UINT64_MAX
#define RAID_WR_GEN1      (1ull << 24) /* one generation in raid_array.wr_state */
#define RAID_NEXT_COUNTED (1ull << 63) /* in next: the piece's degraded/lost check is done */

RL_IO_CTX_DEFINE(raid_req, struct raid_req)
RL_IO_TAG_DEFINE(raid_tag_of, struct raid_tag)

static struct raid_array *raid_io_array(const struct rl_io *parent)
{
	return raid_req(parent)->a;
}

static void raid_fix_done(struct rl_io *c, int status);

/*
 * Send child @c to the member at @loc, tagged with @g (the member is added
 * to the tag, so the usual completion needs no second locate).  In-flight
 * counts feed read balancing only: levels with one copy skip them.
 */
static void raid_member_send(struct raid_array *a, struct rl_io *c, const struct raid_loc *loc,
                             struct raid_tag g)
{
	uint64_t req = (uint64_t)(uintptr_t)c->parent;
	struct raid_member *m = &a->m[loc->member];

	assert(loc->member < a->n);
	g.member = (uint8_t)loc->member;
	*raid_tag_of(c) = g;
	c->offset = loc->offset;
	if (a->copies > 1)
		atomic_fetch_add_explicit(&m->pending, 1, RELAXED);
	if (c->op == RL_OP_READ) {
		raid_count_sent(a, loc->member, false);
		/* Only the sequential policy looks at it: spare the other
		 * policies (and levels with one copy, which never choose) a
		 * store to a line every thread writes. */
		if (a->copies < 2)
			;
		else if (a->read_policy == RAID_READ_SEQUENTIAL ||
		         a->read_policy == RAID_READ_PER_REQUEST)
			atomic_store_explicit(&m->next_seq, loc->offset + c->len, RELAXED);
		if (a->read_policy == RAID_READ_PER_REQUEST)
			atomic_store_explicit(&m->seq_req, req, RELAXED);
	} else {
		raid_count_sent(a, loc->member, true);
		if (a->copies > 1 && c->op != RL_OP_FLUSH && c->cb != raid_fix_done) {
			/* one more in flight, and a new generation */
			atomic_fetch_add(&a->wr_state, RAID_WR_GEN1 + 1);
		}
	}
	rl_target_submit(a->t->children[loc->member], c);
}

static void raid_member_done(struct raid_array *a, unsigned member)
{
	if (a->copies > 1)
		atomic_fetch_sub_explicit(&a->m[member].pending, 1, RELAXED);
}

/* A host write or trim child ended (mirrors count them for FIX). */
static void raid_write_child_done(struct raid_array *a)
{
	if (a->copies > 1)
		atomic_fetch_sub(&a->wr_state, 1);
}

/* No host write was sent since read @p arrived (nor in flight then)? */
static bool raid_fix_safe(const struct raid_array *a, const struct rl_io *p)
{
	return raid_req(p)->u.gen != RAID_GEN_NONE &&
	       atomic_load(&a->wr_state) / RAID_WR_GEN1 == raid_req(p)->u.gen;
}

static void *raid_child_buf(const struct rl_io *parent, uint64_t rel)
{
	return parent->buf ? (uint8_t *)parent->buf + rel : NULL;
}

static int raid_pick(struct raid_array *a, const struct raid_loc *locs, unsigned n, uint64_t req)
{
	if (a->level->read_pick)
		return a->level->read_pick(a, locs, n, req);
	return raid_read_pick(a, locs, n, ~0ull, req);
}

static bool raid_any_readable(const struct raid_array *a, const struct raid_loc *locs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (raid_member_readable(a, locs[i].member))
			return true;
	return false;
}

/* --- reads --- */

/* The next readable copy after @cur in the order that started at @first, or -1. */
static int raid_read_next(const struct raid_array *a, const struct raid_loc *locs, unsigned n,
                          unsigned first, unsigned cur)
{
	for (unsigned k = (cur + n - first) % n + 1; k < n; k++) {
		unsigned i = (first + k) % n;
		if (raid_member_readable(a, locs[i].member))
			return (int)i;
	}
	return -1;
}

static void raid_read_done(struct rl_io *c, int status);
static void raid_fix_next(struct rl_io *c, struct raid_tag g);

/*
 * SPLIT, from block @g.rel on: read the next block of the piece (one block
 * of the parent's buffer, with the same child) from its first readable
 * copy, or end the child after the piece's last block.  A block with no
 * readable copy left is lost: recorded, the parent fails, the walk goes on.
 */
static void raid_split_block(struct rl_io *c, struct raid_tag g)
{
	struct rl_io *p = c->parent;
	struct raid_array *a = raid_io_array(p);
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint32_t bs = a->t->block_size;
	uint64_t left;
	unsigned n;
	int pick;

	for (;;) {
		if (g.rel >= p->len) {
			rl_io_child_end(c, 0);
			return;
		}
		n = a->level->locate(a, p->offset + g.rel, bs, &left, locs);
		pick = -1;
		for (unsigned i = 0; i < n && pick < 0; i++)
			if (raid_member_readable(a, locs[i].member))
				pick = (int)i;
		if (pick >= 0)
			break;
		raid_lost_note(a, p->offset + g.rel);
		rl_io_note_error(p, -EIO);
		g.rel += bs;
		/* the piece ends where the next piece begins: at a chunk end */
		if (a->chunk && (p->offset + g.rel) % a->chunk == 0) {
			rl_io_child_end(c, 0);
			return;
		}
	}
	g.split = true;
	g.first = (uint8_t)pick;
	g.cur = (uint8_t)pick;
	g.bad = 0;
	c->op = RL_OP_READ;
	c->flags = 0;
	c->len = bs;
	c->buf = raid_child_buf(p, g.rel);
	c->cb = raid_read_done;
	raid_member_send(a, c, &locs[pick], g);
}

/* The current piece (or block, when split) is settled: go on or end. */
static void raid_read_settled(struct rl_io *c, struct raid_tag g)
{
	struct raid_array *a = raid_io_array(c->parent);

	if (!(g.split)) {
		rl_io_child_end(c, 0);
		return;
	}
	g.rel += a->t->block_size;
	if (a->chunk && (c->parent->offset + g.rel) % a->chunk == 0) {
		rl_io_child_end(c, 0);
		return;
	}
	raid_split_block(c, g);
}

/* A rewrite of a bad copy ended: a copy that cannot take a write is stale. */
static void raid_fix_done(struct rl_io *c, int status)
{
	struct raid_array *a = raid_io_array(c->parent);
	struct raid_tag g = *raid_tag_of(c);

	raid_member_done(a, g.member);
	if (status) {
		raid_member_error(a, g.member, status);
	} else if (!raid_fix_safe(a, c->parent)) {
		/* A host write was sent while the rewrite was in flight: the
		 * rewrite may have landed over it, so this copy is in doubt. */
		atomic_fetch_add_explicit(&a->fixes_skipped, 1, RELAXED);
		raid_member_fail_if_redundant(a, g.member);
	} else {
		atomic_fetch_add_explicit(&a->read_errors_fixed, 1, RELAXED);
	}
	raid_fix_next(c, g);
}

/*
 * FIX: the piece was read from a good copy into the parent's buffer; write
 * it over each copy that failed the read and is still in the array (as md
 * does: a rewrite lets the drive remap the sector), one at a time with the
 * same child, then settle.
 */
static void raid_fix_next(struct rl_io *c, struct raid_tag g)
{
	struct rl_io *p = c->parent;
	struct raid_array *a = raid_io_array(p);
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint64_t len;
	unsigned n = a->level->locate(a, p->offset + g.rel, c->len, &len, locs);

	if (g.bad && !raid_fix_safe(a, p)) {
		/* Writes are under way: the data read may already be older than
		 * what a write is putting on the members; leave the bad copy (it
		 * keeps failing reads, which keep being retried). */
		atomic_fetch_add_explicit(&a->fixes_skipped, 1, RELAXED);
		g.bad = 0;
	}
	while (g.bad) {
		unsigned k = (unsigned)__builtin_ctzll(g.bad);
		g.bad &= g.bad - 1;
		if (k < n && raid_member_readable(a, locs[k].member)) {
			c->op = RL_OP_WRITE;
			c->flags = 0;
			c->cb = raid_fix_done;
			raid_member_send(a, c, &locs[k], g);
			return;
		}
	}
	raid_read_settled(c, g);
}

static void raid_read_done(struct rl_io *c, int status)
{
	struct rl_io *p = c->parent;
	struct raid_array *a = raid_io_array(p);
	struct raid_tag g = *raid_tag_of(c);
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint64_t len;
	unsigned n;
	int next;

	raid_member_done(a, g.member);
	if (!status) { /* DONE, then FIX if a copy failed on the way */
		if (g.bad && c->buf)
			raid_fix_next(c, g);
		else
			raid_read_settled(c, g);
		return;
	}
	if (a->copies < 2) {
		raid_member_error(a, g.member, status);
	} else if (!raid_member_read_error(a, g.member, status)) {
		assert(g.cur < 64);
		g.bad |= 1ull << g.cur;
	}
	n = a->level->locate(a, p->offset + g.rel, c->len, &len, locs);
	next = raid_read_next(a, locs, n, g.first, g.cur);
	if (next < 0 && a->copies > 1 && !(g.split) && c->len > a->t->block_size) {
		/* Every copy failed somewhere in the piece, maybe each in a
		 * different place: read it block by block (SPLIT), as md does. */
		raid_split_block(c, g);
		return;
	}
	if (next < 0) { /* LOST (the piece, or in SPLIT one block) */
		raid_lost_note(a, p->offset + g.rel);
		if (g.split) {
			rl_io_note_error(p, -EIO);
			raid_read_settled(c, g);
		} else {
			rl_io_child_end(c, -EIO);
		}
		return;
	}
	/* Back to ISSUED on the next copy, with the same child. */
	atomic_fetch_add_explicit(&a->retries, 1, RELAXED);
	g.cur = (uint8_t)next;
	raid_member_send(a, c, &locs[next], g);
}

/* Issue the read pieces; false when the pool ran dry (progress is saved). */
static bool raid_issue_reads(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);
	struct raid_loc locs[RAID_MAX_MEMBERS];

	while (raid_req(io)->done < io->len) {
		uint64_t rel = raid_req(io)->done, len;
		unsigned n = a->level->locate(a, io->offset + rel, io->len - rel, &len, locs);
		/* one copy (raid0, concat, a lone mirror copy): nothing to choose */
		int pick = n == 1 ? (raid_member_readable(a, locs[0].member) ? 0 : -1)
		                  : raid_pick(a, locs, n, (uint64_t)(uintptr_t)io);
		struct rl_io *c;

		if (pick < 0) { /* no readable copy: LOST without a child */
			raid_lost_note(a, io->offset + rel);
			rl_io_note_error(io, -EIO);
			raid_req(io)->done = rel + len;
			continue;
		}
		c = rl_io_child_get(io);
		if (!c)
			return false;
		for (unsigned i = 0; n > 1 && i < n; i++) {
			if (!raid_member_readable(a, locs[i].member)) {
				atomic_fetch_add_explicit(&a->degraded_reads, 1, RELAXED);
				break;
			}
		}
		c->op = RL_OP_READ;
		c->len = (uint32_t)len;
		c->buf = raid_child_buf(io, rel);
		c->cb = raid_read_done;
		raid_req(io)->done = rel + len;
		raid_member_send(a, c, &locs[pick],
		                 (struct raid_tag){.rel = (uint32_t)rel,
		                                   .first = (uint8_t)pick,
		                                   .cur = (uint8_t)pick});
	}
	return true;
}

/*
 * A read that lies in one piece (a 4K read inside a chunk, the common case)
 * goes straight to its copy: one child, the parent's count set to it with
 * no guard reference, so neither the walk nor the seal runs.  The child is
 * the one raid_issue_reads() would have sent (same tag, same callback), so
 * errors take the same state machine.  False, with nothing sent, when the
 * read needs the walk: several pieces, no readable copy, or no free child.
 */
static bool raid_read_direct(struct raid_array *a, struct rl_io *io)
{
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint64_t len;
	unsigned n = a->level->locate(a, io->offset, io->len, &len, locs);
	int pick;
	struct rl_io *c;

	if (len != io->len)
		return false;
	pick = n == 1 ? (raid_member_readable(a, locs[0].member) ? 0 : -1)
	              : raid_pick(a, locs, n, (uint64_t)(uintptr_t)io);
	if (pick < 0 || !io->ex->pool_free)
		return false;
	io->pending = 0;
	io->status = 0;
	c = rl_io_child_get(io); /* the parent's only reference: pending is 1 */
	for (unsigned i = 0; n > 1 && i < n; i++) {
		if (!raid_member_readable(a, locs[i].member)) {
			atomic_fetch_add_explicit(&a->degraded_reads, 1, RELAXED);
			break;
		}
	}
	c->len = io->len;
	c->buf = io->buf;
	c->cb = raid_read_done;
	raid_req(io)->done = io->len;
	raid_member_send(a, c, &locs[pick],
	                 (struct raid_tag){.first = (uint8_t)pick, .cur = (uint8_t)pick});
	return true;
}

/* --- writes and trims, per piece and copy --- */

static void raid_serial_child_done(struct rl_io *p);

static void raid_write_done(struct rl_io *c, int status)
{
	struct rl_io *p = c->parent;
	struct raid_array *a = raid_io_array(p);
	struct raid_tag g = *raid_tag_of(c);
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint64_t len;

	raid_member_done(a, g.member);
	raid_write_child_done(a);
	if (status) {
		raid_member_error(a, g.member, status);
		if (!raid_any_readable(
		        a, locs, a->level->locate(a, p->offset + g.rel, c->len, &len, locs))) {
			raid_lost_note(a, p->offset + g.rel);
			status = -EIO;
		} else {
			status = 0;
		}
	}
	if (a->serial_writes && c->op == RL_OP_WRITE)
		raid_serial_child_done(p);
	rl_io_child_end(c, status);
}

static bool raid_issue_writes(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);
	struct raid_loc locs[RAID_MAX_MEMBERS];
	bool serial = a->serial_writes && io->op == RL_OP_WRITE;

	while (raid_req(io)->done < io->len) {
		uint64_t rel = raid_req(io)->done, len;
		unsigned n = a->level->locate(a, io->offset + rel, io->len - rel, &len, locs);
		uint64_t next = raid_req(io)->next;

		if (!(next & RAID_NEXT_COUNTED) && serial && raid_req(io)->u.serial.member) {
			next = RAID_NEXT_COUNTED; /* checked and counted in the first phase */
		} else if (!(next & RAID_NEXT_COUNTED)) {
			unsigned writable = 0;
			for (unsigned i = 0; i < n; i++)
				writable += raid_member_writable(a, locs[i].member);
			if (!raid_any_readable(a, locs, n) || !writable) {
				raid_lost_note(a, io->offset + rel);
				rl_io_note_error(io, -EIO);
				raid_req(io)->done = rel + len;
				continue;
			}
			if (writable < n)
				atomic_fetch_add_explicit(&a->degraded_writes, 1, RELAXED);
			next = RAID_NEXT_COUNTED;
		}
		for (unsigned k = (unsigned)(next & ~RAID_NEXT_COUNTED); k < n; k++) {
			struct rl_io *c;

			if (!raid_member_writable(a, locs[k].member) ||
			    (serial && locs[k].member != raid_req(io)->u.serial.member))
				continue;
			c = rl_io_child_get(io);
			if (!c) {
				raid_req(io)->next = RAID_NEXT_COUNTED | k;
				return false;
			}
			c->op = io->op;
			c->flags = io->flags;
			c->len = (uint32_t)len;
			c->buf = raid_child_buf(io, rel);
			c->cb = raid_write_done;
			raid_member_send(
			    a, c, &locs[k],
			    (struct raid_tag){.rel = (uint32_t)rel, .cur = (uint8_t)k});
			if (serial)
				raid_req(io)->u.serial.inflight++;
		}
		raid_req(io)->next = 0;
		raid_req(io)->done = rel + len;
	}
	return true;
}

/* --- trims split per member extent (levels with trim_next) --- */

static void raid_trim_done(struct rl_io *c, int status)
{
	struct rl_io *p = c->parent;
	struct raid_array *a = raid_io_array(p);
	struct raid_tag g = *raid_tag_of(c);

	raid_member_done(a, g.member);
	raid_write_child_done(a);
	if (status) {
		raid_member_error(a, g.member, status);
		raid_lost_note(a, p->offset + g.rel);
		status = -EIO;
	}
	rl_io_child_end(c, status);
}

static bool raid_issue_trim_extents(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);

	for (;;) {
		uint64_t cursor = raid_req(io)->next, plen, aoff;
		struct raid_loc loc;
		struct rl_io *c;

		if (!a->level->trim_next(a, io->offset, io->len, &cursor, &loc, &plen, &aoff))
			return true;
		if (!raid_member_writable(a, loc.member)) {
			raid_lost_note(a, aoff);
			rl_io_note_error(io, -EIO);
			raid_req(io)->next = cursor;
			continue;
		}
		c = rl_io_child_get(io);
		if (!c)
			return false; /* the cursor still points at this extent */
		raid_req(io)->next = cursor;
		c->op = RL_OP_TRIM;
		c->len = (uint32_t)plen;
		c->cb = raid_trim_done;
		raid_member_send(a, c, &loc,
		                 (struct raid_tag){.rel = (uint32_t)(aoff - io->offset)});
	}
}

/* --- flush: every writable member --- */

static void raid_flush_done(struct rl_io *c, int status)
{
	struct raid_array *a = raid_io_array(c->parent);
	unsigned member = raid_tag_of(c)->member;

	raid_member_done(a, member);
	if (status) {
		raid_member_error(a, member, status);
		status = a->level->intact(a) ? 0 : -EIO;
	}
	rl_io_child_end(c, status);
}

static bool raid_issue_flush(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);

	if (!(raid_req(io)->next & RAID_NEXT_COUNTED)) {
		if (!a->level->intact(a))
			rl_io_note_error(io, -EIO);
		raid_req(io)->next = RAID_NEXT_COUNTED;
	}
	for (unsigned i = (unsigned)(raid_req(io)->next & ~RAID_NEXT_COUNTED); i < a->n; i++) {
		struct raid_loc loc = {.member = i, .offset = 0};
		struct rl_io *c;

		if (!raid_member_writable(a, i))
			continue;
		c = rl_io_child_get(io);
		if (!c) {
			raid_req(io)->next = RAID_NEXT_COUNTED | i;
			return false;
		}
		c->op = RL_OP_FLUSH;
		c->cb = raid_flush_done;
		raid_member_send(a, c, &loc, (struct raid_tag){0});
	}
	return true;
}

/* --- the entry point and the resume path --- */

static void raid_issue(struct rl_io *io);

/* The end of issuing: wait for the pool, or seal (complete from the loop if nothing is in flight).
 */
static void raid_issue_end(struct rl_io *io, bool done)
{
	if (!done && !io->ex->pool_size) {
		/* No pool at all: waiting would never end. */
		rl_io_note_error(io, -ENOMEM);
		done = true;
	}
	if (!done) {
		rl_exec_wait(io->ex, io, raid_issue);
	} else if (io->pending == 1) {
		/* No child in flight (every piece was lost, or a flush found no
		 * member): complete from the loop, never inside submit. */
		io->pending = 0;
		rl_io_complete_later(io, io->status);
	} else {
		rl_io_children_sealed(io);
	}
}

/*
 * writes=serial: the request is written one member at a time, in member
 * order: every piece for member m goes out together, and member m+1's
 * pieces only when they have all completed (a controller that writes
 * through arm by arm; for mirrors, the copies one after another).  The
 * issuing guard is held across the phases, so the parent cannot complete
 * between them.
 */
static void raid_issue_serial(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);

	for (;;) {
		struct raid_req *r = raid_req(io);
		if (!raid_issue_writes(io)) {
			raid_issue_end(io, false);
			return;
		}
		if (r->u.serial.inflight) { /* the phase's children end in raid_serial_child_done */
			r->u.serial.scanned = true;
			return;
		}
		if (r->u.serial.member + 1u >= a->n) {
			raid_issue_end(io, true);
			return;
		}
		r->u.serial.member++;
		r->u.serial.scanned = false;
		r->done = 0;
		r->next = 0;
	}
}

static void raid_serial_child_done(struct rl_io *p)
{
	struct raid_req *r = raid_req(p);

	if (--r->u.serial.inflight || !r->u.serial.scanned)
		return;
	/* the phase is complete: on to the next member (before this child ends) */
	r->u.serial.member++;
	r->u.serial.scanned = false;
	r->done = 0;
	r->next = 0;
	if (r->u.serial.member >= raid_io_array(p)->n) {
		raid_issue_end(p, true);
		return;
	}
	raid_issue_serial(p);
}

static void raid_issue(struct rl_io *io)
{
	struct raid_array *a = raid_io_array(io);
	bool done;

	if (a->serial_writes && io->op == RL_OP_WRITE) {
		raid_issue_serial(io);
		return;
	}
	switch (io->op) {
	case RL_OP_READ:
		done = raid_issue_reads(io);
		break;
	case RL_OP_FLUSH:
		done = raid_issue_flush(io);
		break;
	case RL_OP_TRIM:
		done = a->level->trim_next ? raid_issue_trim_extents(io) : raid_issue_writes(io);
		break;
	default:
		done = raid_issue_writes(io);
		break;
	}
	raid_issue_end(io, done);
}

void raid_submit(struct rl_target *t, struct rl_io *io)
{
	struct raid_array *a = t->priv;

	/* the array is dirty (and a mirror's bitmap regions set) before the data moves */
	if (a->md && (io->op == RL_OP_WRITE || io->op == RL_OP_TRIM))
		md_state_write_start(a->md, a, io->offset, io->len);
	*raid_req(io) = (struct raid_req){.a = a};
	if (io->op != RL_OP_WRITE)
		raid_req(io)->u.gen = RAID_GEN_NONE; /* a write's serial phase starts at 0 */
	if (io->op == RL_OP_READ && a->copies > 1) {
		/* No write in flight now: remember the generation; one sent
		 * later changes it, which the FIX checks. */
		uint64_t w = atomic_load(&a->wr_state);
		if (!(w % RAID_WR_GEN1))
			raid_req(io)->u.gen = w / RAID_WR_GEN1;
	}
	if (io->op == RL_OP_READ && raid_read_direct(a, io))
		return;
	rl_io_children_begin(io);
	raid_issue(io);
}
