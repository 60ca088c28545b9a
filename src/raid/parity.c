/*
 * parity.c - the raid5/raid6 data path: a stripe cache whose entries are
 * also the per-stripe locks, read-modify-write or reconstruct-write chosen
 * per stripe, degraded reads and writes, and md's read-error correction.
 *
 * Work unit.  Every member is cut into stripes of one chunk; each stripe
 * into windows of stripe_size bytes (the height of a cache entry).  A host
 * request is walked window by window: for window w of stripe s, each data
 * chunk dd contributes the part of the request that falls in its rows
 * [w*H, (w+1)*H) - possibly nothing.  The window's work runs in one cache
 * entry (struct parity_slot), which it holds locked from start to end, so
 * two requests touching the same rows are ordered.
 *
 * Cache entries are direct mapped: window key s*wps+w picks entry key %
 * stripe_cache.  A request that finds its entry busy waits in the entry's
 * FIFO (when the holder runs on the same executor, the lock is handed
 * over on release) or, when another thread holds it, retries after a
 * short timer.  The entry's buffers hold old contents read from members
 * (old[m]) and the new contents computed (new[m]), one row each per member.
 *
 * One entry's work, a small state machine (phase):
 *
 *   READ     all touched data members readable: read straight into the host
 *            buffer (RD_DIRECT).  A member that failed (or errors now) makes
 *            it RECON: read every other readable member's rows, rebuild the
 *            missing ones (parity_recover), copy out, then FIXUP: rewrite
 *            rebuilt rows to members whose read error was corrected (md
 *            rewrites a bad block and keeps the member until more than
 *            max-read-errors errors).
 *   WRITE    choose per window, as md handle_stripe_dirtying:
 *              rmw = touched data members + live parity members to read;
 *              rcw = data members not wholly overwritten to read;
 *            rmw when it is feasible and strictly cheaper, else rcw (a full
 *            stripe write is rcw with nothing to read), else FULL: read all
 *            readable members and rebuild first.  WR_READ fetches, then the
 *            parity is computed (ISA-L) and WR_WRITE writes the touched data
 *            and P/Q.  Failed members are skipped; a data member that is
 *            down still gets its data into the parity.
 *
 * Members without contents (timing-only simulated drives): the same I/O
 * pattern with NULL buffers and no arithmetic.
 *
 * Child requests come from the executor pool with the entry's embedded
 * request as parent; a pool shortage parks that request with rl_exec_wait
 * and the issue loop resumes where it stopped.  A host request counts one
 * reference per window in flight and completes once through its seal.
 *
 * Building the array, its report, power restore and log replay live in
 * parity_build.c; the state both halves share is parity_priv.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "raid/md_state.h"
#include "raid/parity_priv.h"

static struct parity_slot *parity_slot_of(struct rl_io *op)
{
	return (struct parity_slot *)((char *)op - offsetof(struct parity_slot, op));
}

const struct parity_geom *parity_geom_of(const struct parity_array *pa)
{
	return &pa->g;
}

unsigned parity_parity_count(const struct parity_array *pa)
{
	return pa->nparity;
}

uint64_t parity_data_offset(const struct parity_array *pa)
{
	return pa->doff;
}

static void parity_issue(struct rl_io *io);
static void parity_op_issue(struct rl_io *op);

/* --- per-window geometry --- */

/*
 * The parts of [off, off+len) in window @key: fills s->a/b per data chunk
 * and s->lo/hi (their union).  False when the window holds none of it.
 */
static bool parity_window(const struct parity_array *pa, uint64_t key, uint64_t off, uint64_t len,
                          struct parity_slot *s)
{
	const struct parity_geom *g = &pa->g;
	uint64_t stripe = key / pa->wps, w = key % pa->wps;
	uint64_t r0 = w * pa->height, r1 = r0 + pa->height, end = off + len;
	bool any = false;

	s->lo = UINT64_MAX;
	s->hi = 0;
	for (unsigned dd = 0; dd < g->k; dd++) {
		uint64_t base = (stripe * g->k + dd) * g->chunk;
		uint64_t x = base + r0 > off ? base + r0 : off;
		uint64_t y = base + r1 < end ? base + r1 : end;

		if (x >= y) {
			s->a[dd] = s->b[dd] = 0;
			continue;
		}
		s->a[dd] = x - base;
		s->b[dd] = y - base;
		s->lo = s->a[dd] < s->lo ? s->a[dd] : s->lo;
		s->hi = s->b[dd] > s->hi ? s->b[dd] : s->hi;
		any = true;
	}
	s->stripe = stripe;
	return any;
}

static bool parity_touched(const struct parity_slot *s, unsigned dd)
{
	return s->b[dd] > s->a[dd];
}

/* Host buffer for data chunk dd's touched rows (NULL without contents). */
static uint8_t *parity_host_buf(const struct parity_slot *s, unsigned dd)
{
	const struct parity_geom *g = &s->pa->g;
	uint64_t aoff = (s->stripe * g->k + dd) * g->chunk + s->a[dd];

	if (!s->host->buf)
		return NULL;
	return (uint8_t *)s->host->buf + (aoff - s->host->offset);
}

static uint64_t parity_dev_off(const struct parity_slot *s, uint64_t row)
{
	return s->pa->doff + s->stripe * s->pa->g.chunk + row;
}

/* The bitmap bits the window's rows cover: more than one when the bitmap
 * chunk is smaller than the rows a window spans (a 4k chunk, 64k rows). */
static void parity_bm_bits(const struct parity_slot *s, uint64_t *first, uint64_t *last)
{
	uint64_t base = s->stripe * s->pa->g.chunk;

	*first = (base + s->lo) / s->pa->bm_chunk;
	*last = (base + (s->hi > s->lo ? s->hi - 1 : s->lo)) / s->pa->bm_chunk;
	if (*last >= s->pa->bm_bits)
		*last = s->pa->bm_bits - 1;
}

static bool parity_readable(const struct parity_slot *s, unsigned m)
{
	return raid_member_readable(&s->pa->a, m) && !(s->bad >> m & 1);
}

static bool parity_writable(const struct parity_slot *s, unsigned m)
{
	return raid_member_writable(&s->pa->a, m);
}

static void parity_plan_add(struct parity_slot *s, unsigned member, bool write, uint64_t row,
                            uint64_t len, void *buf)
{
	struct parity_plan *p = &s->plan[s->nplan++];

	p->member = (uint8_t)member;
	p->write = write;
	p->off = parity_dev_off(s, row);
	p->len = (uint32_t)len;
	p->buf = buf;
}

static uint8_t *parity_old(const struct parity_slot *s, unsigned m, uint64_t row)
{
	return s->pa->data ? s->old[m] + (row - s->lo) : NULL;
}

/* --- the cache entry lock --- */

static void parity_retry_done(struct rl_io *c, int status)
{
	struct rl_io *host = c->parent;

	(void)status;
	rl_io_child_end(c, 0); /* the host still holds its guard reference */
	parity_issue(host);
}

/*
 * An entry's lock state (busy, owner, grant, the wait list) changes only
 * under pa->lock: here, and in parity_unlock.  @host queues on @s.
 */
static void parity_wait_add(struct parity_array *pa, struct parity_slot *s, struct rl_io *host)
    RL_REQUIRES(pa->lock)
{
	parity_req(host)->link = NULL;
	if (s->wait_tail)
		parity_req(s->wait_tail)->link = host;
	else
		s->wait_head = host;
	s->wait_tail = host;
}

/* The first request queued on @s, taken off the list, or NULL. */
static struct rl_io *parity_wait_take(struct parity_array *pa, struct parity_slot *s)
    RL_REQUIRES(pa->lock)
{
	struct rl_io *w = s->wait_head;

	if (w) {
		s->wait_head = parity_req(w)->link;
		if (!s->wait_head)
			s->wait_tail = NULL;
	}
	return w;
}

/*
 * Try to lock the entry for window @key on behalf of @host.  Returns the
 * entry, or NULL when @host now waits (queued, or a retry timer is set).
 */
static struct parity_slot *parity_lock(struct parity_array *pa, struct rl_io *host, uint64_t key)
{
	struct parity_slot *s = &pa->slots[key % pa->nslots];
	struct rl_io *c;

	rl_mutex_lock(&pa->lock);
	if (!s->busy || s->grant == host) {
		s->busy = true;
		s->grant = NULL;
		s->owner = host->ex->id;
		rl_mutex_unlock(&pa->lock);
		return s;
	}
	atomic_fetch_add_explicit(&pa->lock_waits, 1, RELAXED);
	if (s->owner == host->ex->id) {
		parity_wait_add(pa, s, host);
		rl_mutex_unlock(&pa->lock);
		return NULL;
	}
	/* another executor's: asked only here, off the common same-executor wait */
	if (!rl_exec_live(s->owner)) {
		/*
		 * Held for a request whose executor is gone (background work of
		 * a cache above, left when its job ended): that request and its
		 * waiters never complete, so the entry is taken over as it is.
		 */
		s->owner = host->ex->id;
		s->grant = NULL;
		s->wait_head = s->wait_tail = NULL;
		atomic_fetch_add_explicit(&pa->orphans, 1, RELAXED);
		rl_mutex_unlock(&pa->lock);
		return s;
	}
	rl_mutex_unlock(&pa->lock);
	/* Held by another thread: look again shortly. */
	c = rl_io_child_get(host);
	if (!c) {
		rl_exec_wait(host->ex, host, parity_issue);
		return NULL;
	}
	c->op = RL_OP_FLUSH;
	c->cb = parity_retry_done;
	if (rl_exec_at(host->ex, c, rl_exec_now(host->ex) + PARITY_RETRY_NS, 0))
		rl_exec_complete_later(host->ex, c, 0);
	return NULL;
}

static void parity_grant_run(struct rl_io *op, int status)
{
	struct parity_slot *s = parity_slot_of(op);

	(void)status;
	parity_issue(s->grant);
}

/* Release @s: hand it to the first waiter, or free it. */
static void parity_unlock(struct parity_array *pa, struct parity_slot *s)
{
	struct rl_io *w;

	rl_mutex_lock(&pa->lock);
	w = parity_wait_take(pa, s);
	if (w) {
		s->grant = w;
	} else {
		s->busy = false;
	}
	rl_mutex_unlock(&pa->lock);
	if (w) {
		memset(&s->op, 0, sizeof(s->op));
		s->op.ex = w->ex;
		s->op.cb = parity_grant_run;
		rl_io_complete_later(&s->op, 0);
	}
}

/* --- member errors --- */

/*
 * A read from member @m failed: md counts it, and fails the member once it
 * has had more than max-read-errors; below that the rows are rebuilt and
 * rewritten.  Returns true when the member stays (a fixup is due).
 */
static bool parity_read_error(struct parity_array *pa, unsigned m, int status)
{
	uint64_t n = atomic_fetch_add_explicit(&pa->read_errors[m], 1, RELAXED) + 1;

	if (n > pa->max_read_errors) {
		raid_member_error(&pa->a, m, status);
		return false;
	}
	atomic_fetch_add_explicit(&pa->a.m[m].errors, 1, RELAXED);
	atomic_fetch_add_explicit(&pa->a.member_errors, 1, RELAXED);
	return raid_member_readable(&pa->a, m);
}

static unsigned parity_down_count(const struct parity_array *pa)
{
	unsigned down = 0;

	for (unsigned i = 0; i < pa->a.n; i++)
		down += !raid_member_readable(&pa->a, i);
	return down;
}

bool parity_intact(const struct raid_array *a)
{
	const struct parity_array *pa = (const struct parity_array *)a;

	return parity_down_count(pa) <= pa->nparity;
}

/* --- planning --- */

static void parity_plan_recon(struct parity_slot *s)
{
	s->nplan = 0;
	s->have = 0;
	for (unsigned m = 0; m < s->pa->g.n; m++) {
		if (!parity_readable(s, m))
			continue;
		parity_plan_add(s, m, false, s->lo, s->hi - s->lo, parity_old(s, m, s->lo));
		s->have |= 1ull << m;
	}
}

static void parity_plan_read(struct parity_slot *s)
{
	const struct parity_stripe *ps = &s->ps;
	bool direct = true;

	for (unsigned dd = 0; dd < s->pa->g.k; dd++)
		if (parity_touched(s, dd) && !parity_readable(s, ps->data[dd]))
			direct = false;
	s->nplan = 0;
	if (direct) {
		s->phase = RD_DIRECT;
		for (unsigned dd = 0; dd < s->pa->g.k; dd++)
			if (parity_touched(s, dd))
				parity_plan_add(s, ps->data[dd], false, s->a[dd],
				                s->b[dd] - s->a[dd], parity_host_buf(s, dd));
		return;
	}
	s->phase = RD_RECON;
	atomic_fetch_add_explicit(&s->pa->a.degraded_reads, 1, RELAXED);
	atomic_fetch_add_explicit(&s->pa->reconstruct_reads, 1, RELAXED);
	parity_plan_recon(s);
}

static bool parity_covered(const struct parity_slot *s, unsigned dd)
{
	return s->a[dd] <= s->lo && s->b[dd] >= s->hi;
}

static void parity_plan_write(struct parity_slot *s)
{
	struct parity_array *pa = s->pa;
	const struct parity_stripe *ps = &s->ps;
	unsigned pm[2] = {ps->pd, (unsigned)ps->qd}, k = pa->g.k;
	unsigned rmw = 0, rcw = 0, live_parity = 0;
	bool rmw_ok = true, rcw_ok = true, degraded = false;

	for (unsigned j = 0; j < pa->nparity; j++) {
		if (!parity_writable(s, pm[j])) {
			degraded = true;
			continue;
		}
		live_parity++;
		rmw++;
		if (!parity_readable(s, pm[j]))
			rmw_ok = false;
	}
	for (unsigned dd = 0; dd < k; dd++) {
		unsigned m = ps->data[dd];
		if (!parity_writable(s, m))
			degraded = true;
		if (parity_touched(s, dd)) {
			rmw++;
			if (!parity_readable(s, m))
				rmw_ok = false;
		}
		if (!parity_covered(s, dd)) {
			rcw++;
			if (!parity_readable(s, m))
				rcw_ok = false;
		}
	}
	if (degraded)
		atomic_fetch_add_explicit(&pa->a.degraded_writes, 1, RELAXED);
	s->nplan = 0;
	s->phase = WR_READ;
	if (!live_parity) {
		s->mode = MODE_DATA_ONLY;
	} else if (rmw_ok && rmw > 0 && (!rcw_ok || rmw < rcw)) {
		s->mode = MODE_RMW;
		atomic_fetch_add_explicit(&pa->rmw, 1, RELAXED);
		for (unsigned dd = 0; dd < k; dd++)
			if (parity_touched(s, dd))
				parity_plan_add(s, ps->data[dd], false, s->a[dd],
				                s->b[dd] - s->a[dd],
				                parity_old(s, ps->data[dd], s->a[dd]));
		for (unsigned j = 0; j < pa->nparity; j++)
			if (parity_writable(s, pm[j]))
				parity_plan_add(s, pm[j], false, s->lo, s->hi - s->lo,
				                parity_old(s, pm[j], s->lo));
	} else if (rcw_ok) {
		s->mode = MODE_RCW;
		atomic_fetch_add_explicit(rcw ? &pa->rcw : &pa->full_stripe, 1, RELAXED);
		for (unsigned dd = 0; dd < k; dd++)
			if (!parity_covered(s, dd))
				parity_plan_add(s, ps->data[dd], false, s->lo, s->hi - s->lo,
				                parity_old(s, ps->data[dd], s->lo));
	} else {
		s->mode = MODE_FULL;
		atomic_fetch_add_explicit(&pa->reconstruct_writes, 1, RELAXED);
		parity_plan_recon(s);
	}
}

static void parity_plan_writes(struct parity_slot *s)
{
	struct parity_array *pa = s->pa;
	const struct parity_stripe *ps = &s->ps;
	unsigned pm[2] = {ps->pd, (unsigned)ps->qd};

	s->nplan = 0;
	s->phase = WR_WRITE;
	for (unsigned dd = 0; dd < pa->g.k; dd++)
		if (parity_touched(s, dd) && parity_writable(s, ps->data[dd]))
			parity_plan_add(s, ps->data[dd], true, s->a[dd], s->b[dd] - s->a[dd],
			                parity_host_buf(s, dd));
	if (s->mode == MODE_DATA_ONLY)
		return;
	for (unsigned j = 0; j < pa->nparity; j++)
		if (parity_writable(s, pm[j]))
			parity_plan_add(s, pm[j], true, s->lo, s->hi - s->lo,
			                pa->data ? s->nw[pm[j]] : NULL);
}

/* --- arithmetic (members with contents only) --- */

/* The row's blocks in syndrome order (data by slot, then P, Q) from @bufs. */
static void parity_row(const struct parity_slot *s, uint8_t *const *bufs, void **blocks)
{
	const struct parity_stripe *ps = &s->ps;
	unsigned k = s->pa->g.k;

	for (unsigned dd = 0; dd < k; dd++)
		blocks[ps->slot[dd]] = bufs[ps->data[dd]];
	blocks[k] = bufs[ps->pd];
	if (s->pa->nparity == 2)
		blocks[k + 1] = bufs[ps->qd];
}

/* Rebuild the members missing from s->have in old[]; false when too many are. */
static bool parity_rebuild_rows(struct parity_slot *s)
{
	const struct parity_stripe *ps = &s->ps;
	unsigned k = s->pa->g.k;
	void *blocks[RAID_MAX_MEMBERS];
	uint64_t missing = 0;

	for (unsigned m = 0; m < s->pa->g.n; m++) {
		if (s->have >> m & 1)
			continue;
		if (ps->role[m] >= 0)
			missing |= 1ull << ps->slot[ps->role[m]];
		else
			missing |= 1ull << (k + (ps->role[m] == -1 ? 0 : 1));
	}
	if ((unsigned)__builtin_popcountll(missing) > s->pa->nparity)
		return false;
	if (!s->pa->data || !missing)
		return true;
	parity_row(s, s->old, blocks);
	return parity_recover(k, s->pa->nparity, s->hi - s->lo, blocks, missing) == 0;
}

/* New contents of every data chunk's rows [lo, hi) into nw[] (RCW/FULL). */
static void parity_compute_rcw(struct parity_slot *s)
{
	const struct parity_stripe *ps = &s->ps;
	unsigned k = s->pa->g.k;
	uint64_t len = s->hi - s->lo;
	uint8_t *bufs[RAID_MAX_MEMBERS];
	void *blocks[RAID_MAX_MEMBERS];

	for (unsigned dd = 0; dd < k; dd++) {
		unsigned m = ps->data[dd];
		if (!parity_touched(s, dd)) {
			bufs[m] = s->old[m];
			continue;
		}
		if (!parity_covered(s, dd))
			memcpy(s->nw[m], s->old[m], len);
		memcpy(s->nw[m] + (s->a[dd] - s->lo), parity_host_buf(s, dd), s->b[dd] - s->a[dd]);
		bufs[m] = s->nw[m];
	}
	bufs[ps->pd] = s->nw[ps->pd];
	if (ps->qd >= 0)
		bufs[ps->qd] = s->nw[ps->qd];
	parity_row(s, bufs, blocks);
	parity_gen(k, len, blocks, blocks[k], s->pa->nparity == 2 ? blocks[k + 1] : NULL);
}

/*
 * RMW: new parity = old parity + parity(old touched rows) + parity(new
 * touched rows), untouched rows counting as zero; both partial parities
 * come from the same ISA-L generator.
 */
static void parity_compute_rmw(struct parity_slot *s)
{
	const struct parity_stripe *ps = &s->ps;
	struct parity_array *pa = s->pa;
	unsigned k = pa->g.k;
	uint64_t len = s->hi - s->lo;
	void *vo[PARITY_MAX_DATA], *vn[PARITY_MAX_DATA];
	unsigned pm[2] = {ps->pd, (unsigned)ps->qd};

	for (unsigned dd = 0; dd < k; dd++) {
		unsigned m = ps->data[dd];
		uint64_t x = s->a[dd] - s->lo, y = s->b[dd] - s->lo;

		if (!parity_touched(s, dd)) {
			vo[ps->slot[dd]] = vn[ps->slot[dd]] = pa->zero;
			continue;
		}
		memset(s->old[m], 0, x);
		memset(s->old[m] + y, 0, len - y);
		memset(s->nw[m], 0, x);
		memset(s->nw[m] + y, 0, len - y);
		memcpy(s->nw[m] + x, parity_host_buf(s, dd), y - x);
		vo[ps->slot[dd]] = s->old[m];
		vn[ps->slot[dd]] = s->nw[m];
	}
	parity_gen(k, len, vo, s->scratch[0], pa->nparity == 2 ? s->scratch[1] : NULL);
	parity_gen(k, len, vn, s->scratch[2], pa->nparity == 2 ? s->scratch[3] : NULL);
	for (unsigned j = 0; j < pa->nparity; j++) {
		void *v[4] = {s->old[pm[j]], s->scratch[j], s->scratch[2 + j], s->nw[pm[j]]};
		if (!parity_writable(s, pm[j]))
			continue;
		parity_xor(3, len, v);
	}
}

/* --- running a window --- */

static void parity_finish(struct parity_slot *s, int status)
{
	struct rl_io *host = s->host;
	struct parity_array *pa = s->pa;

	if (s->bm_held) { /* the bits parity_plan_bitmap() marked in flight */
		uint64_t first, last;
		parity_bm_bits(s, &first, &last);
		for (uint64_t b = first; b <= last; b++)
			atomic_fetch_sub_explicit(&pa->bm_inflight[b], 1, RELAXED);
		s->bm_held = false;
	}
	if (status) {
		if (!atomic_load_explicit(&pa->off, RELAXED))
			raid_lost_note(&pa->a, (s->stripe * pa->g.k) * pa->g.chunk + s->lo);
		rl_io_note_error(host, status);
	}
	parity_unlock(pa, s);
	rl_io_children_sealed(host); /* drops this window's reference */
}

static void parity_child_done(struct rl_io *c, int status)
{
	struct parity_slot *s = parity_slot_of(c->parent);
	const struct parity_plan *p = &s->plan[parity_tag(c)->index];

	if (status && p->member == PARITY_JOURNAL) {
		s->status = -EIO; /* md: a failed journal stops writes */
	} else if (status) {
		if (p->write)
			raid_member_error(&s->pa->a, p->member, status);
		else if (parity_read_error(s->pa, p->member, status))
			s->fixup |= 1ull << p->member;
		s->bad |= 1ull << p->member;
	}
	rl_io_child_end(c, 0);
}

static void parity_phase_done(struct rl_io *op, int status);

static void parity_start_phase(struct parity_slot *s)
{
	s->next = 0;
	s->begun = false;
	s->bad0 = s->bad;
	parity_op_issue(&s->op);
}

static void parity_op_issue(struct rl_io *op)
{
	struct parity_slot *s = parity_slot_of(op);
	struct parity_array *pa = s->pa;

	if (!s->begun) {
		rl_io_children_begin(op);
		op->cb = parity_phase_done;
		s->begun = true;
	}
	while (s->next < s->nplan) {
		const struct parity_plan *p = &s->plan[s->next];
		struct rl_io *c;

		if (p->write && s->phase == WR_WRITE && pa->powerloss_after &&
		    atomic_fetch_add_explicit(&pa->powered_writes, 1, RELAXED) >=
		        pa->powerloss_after)
			atomic_store_explicit(&pa->off, true, RELAXED);
		if (atomic_load_explicit(&pa->off, RELAXED)) {
			/* The power is gone: this write never reaches the member. */
			s->status = -EIO;
			s->next++;
			continue;
		}
		c = rl_io_child_get(op);

		if (!c) {
			if (!op->ex->pool_size) {
				s->status = -ENOMEM;
				break;
			}
			rl_exec_wait(op->ex, op, parity_op_issue);
			return;
		}
		c->op = p->write ? RL_OP_WRITE : RL_OP_READ;
		c->offset = p->off;
		c->len = p->len;
		c->buf = p->buf;
		c->flags = p->write ? s->host->flags : 0;
		c->cb = parity_child_done;
		parity_tag(c)->index = s->next;
		s->next++;
		if (p->member == PARITY_JOURNAL) {
			c->flags |= RL_IO_FUA;
			rl_target_submit(pa->journal, c);
			continue;
		}
		if (s->phase == WR_LOG || s->phase == WR_BITMAP)
			c->flags |= RL_IO_FUA;
		raid_count_sent(&pa->a, p->member, p->write);
		rl_target_submit(pa->a.t->children[p->member], c);
	}
	rl_io_children_sealed(op);
}

/* After a read error was corrected: rewrite the rebuilt rows to the members. */
static bool parity_plan_fixup(struct parity_slot *s)
{
	s->nplan = 0;
	s->phase = RD_FIXUP;
	for (unsigned m = 0; m < s->pa->g.n; m++)
		if ((s->fixup >> m & 1) && parity_writable(s, m))
			parity_plan_add(s, m, true, s->lo, s->hi - s->lo, parity_old(s, m, s->lo));
	if (s->nplan)
		atomic_fetch_add_explicit(&s->pa->corrected, (uint64_t)s->nplan, RELAXED);
	return s->nplan > 0;
}

/* --- the write-hole remedies: one log record per window (parity_log.h) --- */

/*
 * Partial parity of the window into @pp: the XOR of the rows this write
 * leaves alone.  After RMW it is P_old + parity(old modified rows); after
 * RCW/FULL the XOR of the old chunks with their modified rows cut out.
 */
static void parity_partial(struct parity_slot *s, uint8_t *pp)
{
	const struct parity_stripe *ps = &s->ps;
	size_t len = s->hi - s->lo;

	if (s->mode == MODE_RMW) {
		void *v[3] = {s->old[ps->pd], s->scratch[0], pp};
		parity_xor(2, len, v);
		return;
	}
	memset(pp, 0, len);
	for (unsigned dd = 0; dd < s->pa->g.k; dd++) {
		unsigned m = ps->data[dd];
		const uint8_t *src = s->old[m];
		if (parity_covered(s, dd))
			continue;
		if (parity_touched(s, dd)) {
			memcpy(s->scratch[1], s->old[m], len);
			memset(s->scratch[1] + (s->a[dd] - s->lo), 0, s->b[dd] - s->a[dd]);
			src = s->scratch[1];
		}
		parity_xor_into(pp, src, s->scratch[2], len);
	}
}

/* Build this window's record and plan its write; false when nothing is to be logged. */
static bool parity_plan_log(struct parity_slot *s)
{
	struct parity_array *pa = s->pa;
	struct parity_log_hdr h = {0};
	uint8_t *payload = pa->data ? s->logbuf + PARITY_LOG_HDR : NULL;
	uint64_t slot = (uint64_t)(s - pa->slots);
	struct parity_plan *p;

	h.kind = pa->log;
	h.seq = atomic_fetch_add_explicit(&pa->log_seq, 1, RELAXED) + 1;
	h.stripe = s->stripe;
	h.lo = s->lo;
	h.hi = s->hi;
	if (pa->log == PARITY_LOG_JOURNAL) {
		parity_plan_writes(s); /* what the window will write, logged whole */
		for (unsigned i = 0; i < s->nplan; i++) {
			struct parity_log_entry *e = &h.e[h.nentries++];
			e->member = s->plan[i].member;
			e->offset = s->plan[i].off;
			e->len = s->plan[i].len;
			if (payload && s->plan[i].buf)
				memcpy(payload + h.payload, s->plan[i].buf, s->plan[i].len);
			h.payload += s->plan[i].len;
		}
	} else {
		if (!parity_writable(s, s->ps.pd))
			return false;
		for (unsigned dd = 0; dd < pa->g.k; dd++) {
			if (!parity_touched(s, dd))
				continue;
			struct parity_log_entry *e = &h.e[h.nentries++];
			e->member = s->ps.data[dd];
			e->offset = s->a[dd];
			e->end = s->b[dd];
		}
		if (payload)
			parity_partial(s, payload);
		h.payload = s->hi - s->lo;
	}
	if (pa->data)
		parity_log_encode(&h, s->logbuf, payload);
	s->nplan = 0;
	s->phase = WR_LOG;
	p = &s->plan[s->nplan++];
	p->write = true;
	p->len = (uint32_t)(PARITY_LOG_HDR + (h.payload + 511) / 512 * 512);
	p->buf = pa->data ? s->logbuf : NULL;
	if (pa->log == PARITY_LOG_JOURNAL) {
		p->member = PARITY_JOURNAL;
		p->off = slot * pa->recsize;
	} else {
		p->member = (uint8_t)s->ps.pd;
		p->off = pa->log_base + slot * pa->recsize;
	}
	atomic_fetch_add_explicit(&pa->log_writes, 1, RELAXED);
	return true;
}

static void parity_phase_done(struct rl_io *op, int status)
{
	struct parity_slot *s = parity_slot_of(op);
	struct parity_array *pa = s->pa;
	(void)status;
	if (s->status) {
		parity_finish(s, s->status);
		return;
	}
	switch (s->phase) {
	case RD_DIRECT:
		if (!s->bad) {
			parity_finish(s, 0);
			return;
		}
		/* A read failed: rebuild those rows from the other members. */
		s->lo = UINT64_MAX;
		s->hi = 0;
		for (unsigned dd = 0; dd < pa->g.k; dd++) {
			if (!parity_touched(s, dd))
				continue;
			s->lo = s->a[dd] < s->lo ? s->a[dd] : s->lo;
			s->hi = s->b[dd] > s->hi ? s->b[dd] : s->hi;
		}
		s->phase = RD_RECON;
		atomic_fetch_add_explicit(&pa->reconstruct_reads, 1, RELAXED);
		parity_plan_recon(s);
		parity_start_phase(s);
		return;
	case RD_RECON:
		s->have &= ~s->bad;
		if (!parity_rebuild_rows(s)) {
			parity_finish(s, -EIO);
			return;
		}
		if (pa->data && s->host->buf)
			for (unsigned dd = 0; dd < pa->g.k; dd++)
				if (parity_touched(s, dd))
					memcpy(parity_host_buf(s, dd),
					       s->old[s->ps.data[dd]] + (s->a[dd] - s->lo),
					       s->b[dd] - s->a[dd]);
		if (s->fixup && parity_plan_fixup(s)) {
			parity_start_phase(s);
			return;
		}
		parity_finish(s, 0);
		return;
	case RD_FIXUP:
		parity_finish(s, 0);
		return;
	case WR_READ:
		if ((s->bad & ~s->bad0) && s->mode != MODE_FULL) {
			/* A read failed: plan again without that member. */
			parity_plan_write(s);
			parity_start_phase(s);
			return;
		}
		if (s->mode == MODE_FULL) {
			s->have &= ~s->bad;
			if (!parity_rebuild_rows(s)) {
				parity_finish(s, -EIO);
				return;
			}
		}
		if (pa->data) {
			if (s->mode == MODE_RMW)
				parity_compute_rmw(s);
			else if (s->mode != MODE_DATA_ONLY)
				parity_compute_rcw(s);
		}
		if (pa->log && s->mode != MODE_DATA_ONLY && parity_plan_log(s)) {
			parity_start_phase(s);
			return;
		}
		parity_plan_writes(s);
		parity_start_phase(s);
		return;
	case WR_LOG:
		parity_plan_writes(s);
		parity_start_phase(s);
		return;
	case WR_BITMAP:
		parity_plan_write(s);
		parity_start_phase(s);
		return;
	case WR_WRITE:
		parity_finish(s, parity_down_count(pa) > pa->nparity ? -EIO : 0);
		return;
	}
}

/*
 * md's write-intent bitmap, as a cost: a write to a region whose bit is
 * clear first sets the bit and writes the bitmap block to every member
 * (and waits for it); bits of regions idle for daemon_sleep are cleared
 * by the next write that comes along, which writes the block again.
 * Returns true when this window has to write the bitmap first.
 */
static bool parity_plan_bitmap(struct parity_slot *s)
{
	struct parity_array *pa = s->pa;
	uint64_t first, last, now = rl_exec_now(s->op.ex);
	uint64_t sweep = atomic_load_explicit(&pa->bm_sweep, RELAXED);
	bool write = false;

	parity_bm_bits(s, &first, &last);
	for (uint64_t b = first; b <= last; b++) {
		uint8_t clear = 0;
		atomic_fetch_add_explicit(&pa->bm_inflight[b], 1, RELAXED);
		atomic_store_explicit(&pa->bm_last[b], now, RELAXED);
		if (atomic_compare_exchange_strong_explicit(&pa->bm_set[b], &clear, 1, RELAXED,
		                                            RELAXED)) {
			pa->bm_block[pa->bm_bits_at + b / 8] |= (uint8_t)(1u << (b % 8));
			write = true;
		}
	}
	s->bm_held = true;
	if (now >= sweep && atomic_compare_exchange_strong_explicit(
	                        &pa->bm_sweep, &sweep, now + PARITY_BM_SLEEP, RELAXED, RELAXED)) {
		for (uint64_t i = 0; i < pa->bm_bits; i++) {
			if (atomic_load_explicit(&pa->bm_set[i], RELAXED) &&
			    !atomic_load_explicit(&pa->bm_inflight[i], RELAXED) &&
			    atomic_load_explicit(&pa->bm_last[i], RELAXED) + PARITY_BM_SLEEP <=
			        now) {
				atomic_store_explicit(&pa->bm_set[i], 0, RELAXED);
				pa->bm_block[pa->bm_bits_at + i / 8] &= (uint8_t) ~(1u << (i % 8));
				write = true;
			}
		}
	}
	if (!write)
		return false;
	s->nplan = 0;
	s->phase = WR_BITMAP;
	for (unsigned m = 0; m < pa->g.n; m++) {
		struct parity_plan *p;
		if (!parity_writable(s, m))
			continue;
		p = &s->plan[s->nplan++];
		p->member = (uint8_t)m;
		p->write = true;
		p->off = pa->bm_base;
		p->len = PARITY_BM_BLOCK;
		p->buf = pa->data ? pa->bm_block : NULL;
	}
	atomic_fetch_add_explicit(&pa->bm_writes, 1, RELAXED);
	return true;
}

/* Start window @key of @host in the locked entry @s. */
static void parity_run(struct parity_slot *s, struct rl_io *host, uint64_t key)
{
	struct parity_array *pa = parity_req(host)->pa;

	parity_window(pa, key, host->offset, host->len, s);
	s->pa = pa;
	s->host = host;
	s->bad = 0;
	s->bm_held = false;
	s->fixup = 0;
	s->status = 0;
	s->have = 0;
	parity_geom_stripe(&pa->g, s->stripe, &s->ps);
	memset(&s->op, 0, sizeof(s->op));
	s->op.ex = host->ex;
	s->op.op = host->op;
	host->pending++; /* this window's reference, dropped by parity_finish */
	if (atomic_load_explicit(&pa->off, RELAXED)) {
		parity_finish(s, -EIO);
		return;
	}
	if (host->op == RL_OP_READ)
		parity_plan_read(s);
	else if (!pa->bm_chunk || !parity_plan_bitmap(s))
		parity_plan_write(s);
	parity_start_phase(s);
}

/* --- host requests --- */

static void parity_flush_done(struct rl_io *c, int status)
{
	struct rl_io *host = c->parent;
	struct parity_array *pa = parity_req(host)->pa;
	unsigned m = parity_tag(c)->index;

	if (status) {
		raid_member_error(&pa->a, m, status);
		status = parity_intact(&pa->a) ? 0 : -EIO;
	}
	rl_io_child_end(c, status);
}

/* FLUSH: one child per writable member; the cursor counts members. */
static bool parity_issue_flush(struct rl_io *io, struct parity_array *pa)
{
	for (; parity_req(io)->cursor < pa->a.n; parity_req(io)->cursor++) {
		unsigned m = (unsigned)parity_req(io)->cursor;
		struct rl_io *c;

		if (!raid_member_writable(&pa->a, m))
			continue;
		c = rl_io_child_get(io);
		if (!c)
			return false;
		c->op = RL_OP_FLUSH;
		c->cb = parity_flush_done;
		parity_tag(c)->index = m;
		rl_target_submit(pa->a.t->children[m], c);
	}
	return true;
}

/* Issue the remaining windows of @io; returns false when it had to wait. */
static bool parity_issue_windows(struct rl_io *io, struct parity_array *pa)
{
	const struct parity_geom *g = &pa->g;
	uint64_t end = ((io->offset + io->len - 1) / (g->chunk * g->k) + 1) * pa->wps;

	while (parity_req(io)->cursor < end) {
		uint64_t key = parity_req(io)->cursor;
		struct parity_slot probe, *s;

		if (!parity_window(pa, key, io->offset, io->len, &probe)) {
			parity_req(io)->cursor++;
			continue;
		}
		s = parity_lock(pa, io, key);
		if (!s)
			return false;
		parity_req(io)->cursor++;
		parity_run(s, io, key);
	}
	return true;
}

static void parity_issue(struct rl_io *io)
{
	struct parity_array *pa = parity_req(io)->pa;
	bool done;

	if (io->op == RL_OP_FLUSH) {
		done = parity_issue_flush(io, pa);
		if (!done && !io->ex->pool_size) {
			rl_io_note_error(io, -ENOMEM);
			done = true;
		}
		if (!done) {
			rl_exec_wait(io->ex, io, parity_issue);
			return;
		}
	} else if (!parity_issue_windows(io, pa)) {
		return; /* waiting for an entry: parity_issue runs again */
	}
	if (io->pending == 1) {
		io->pending = 0;
		rl_io_complete_later(io, io->status);
	} else {
		rl_io_children_sealed(io);
	}
}

void parity_submit(struct rl_target *t, struct rl_io *io)
{
	struct parity_array *pa = t->priv;

	*parity_req(io) = (struct parity_req){.pa = pa};
	if (pa->a.md && io->op == RL_OP_WRITE)
		md_state_write_start(pa->a.md, &pa->a, 0, 0); /* dirty before the data moves */
	if (io->op == RL_OP_TRIM) {
		/* md raid456 ignores discard unless devices_handle_discard_safely;
		 * raidlab does not advertise TRIM on parity arrays. */
		rl_io_complete_later(io, -EOPNOTSUPP);
		return;
	}
	parity_req(io)->cursor =
	    io->op == RL_OP_FLUSH ? 0 : io->offset / (pa->g.chunk * pa->g.k) * pa->wps;
	rl_io_children_begin(io);
	parity_issue(io);
}
