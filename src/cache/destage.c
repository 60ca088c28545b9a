/*
 * destage.c - writing dirty lines back to the target below.
 *
 * Policy (background, write-back modes only):
 *   - when the dirty lines reach dirty-high (percent of all lines) the
 *     cache destages, oldest dirty line first, until at most dirty-low are
 *     dirty and not being destaged;
 *   - after idle-flush= without a host request, it destages everything
 *     (a timer on the executor re-checks the idle time);
 *   - at most destage-qd member writes are in flight (the background
 *     requests are owned by the cache, reserved at creation).
 * A host FLUSH destages by itself (flush.c) with the same line operation:
 * cache_destage_begin() marks the line busy and pins it, one member write
 * per dirty run is issued (a run starts and ends at a dirty block and
 * spans valid blocks only, so the write carries only data the line holds),
 * and cache_destage_end() settles each one.  When the last run of a line
 * ends, the line is no longer busy: if every run succeeded, the line is
 * "covered" up to the write sequence at which the destage began (a flush
 * that arrived before that sequence needs nothing more from it), and the
 * requests that waited for the line are woken.  Writes to the members
 * carry RL_IO_FUA when the drive cache policy is off.
 *
 * A member write that fails leaves its blocks dirty and the line pinned
 * (derr): the background destage no longer picks it (so a failing member
 * is not hammered), a host FLUSH tries it again and fails if it fails
 * again, and the write-back at the end of the run tries once more.  What
 * is still dirty after that never reached the member although the host was
 * told it was written: cache_destage_account_lost() counts and lists it,
 * prints it on stderr and the report carries it (lost_acknowledged_bytes),
 * so the run fails.
 *
 * Background work runs on the executor of the request that triggered it.
 * A run's executors are destroyed when its job ends, possibly with
 * background requests still in flight whose completions will never come.
 * cache_destage_settle() forgets those (a destage that never reported
 * leaves its line dirty, to be written again: harmless, since the line
 * holds the newest data) when the next job attaches with no host request
 * in flight, and when the run finishes.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache/cache.h"
#include "cache/destage.h"

#define CACHE_DIRTY_SCAN  256  /* busy dirty lines skipped before a kick gives up */
#define CACHE_STAGE_ALIGN 4096 /* alignment of a destage's copy */

int cache_destage_init(struct cache *c, void (*room)(struct cache *c))
{
	struct cache_destager *ds = &c->ds;

	ds->room = room;
	ds->nreqs = c->cfg.destage_qd + 1;
	ds->reqs = calloc(ds->nreqs, sizeof(*ds->reqs));
	if (!ds->reqs)
		return -ENOMEM;
	if (c->tab.data) {
		ds->spare_max = c->cfg.destage_qd;
		ds->stage = calloc(c->tab.nlines, sizeof(*ds->stage));
		ds->spare = calloc(ds->spare_max, sizeof(*ds->spare));
		if (!ds->stage || !ds->spare)
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < ds->nreqs; i++) {
		struct cache_dreq *g = &ds->reqs[i];
		g->c = c;
		g->io.cb_arg = g;
		if (i < c->cfg.destage_qd) {
			g->next_free = ds->free;
			ds->free = g;
		} else {
			g->timer = true;
			ds->timer = g;
		}
	}
	return 0;
}

void cache_destage_free(struct cache *c)
{
	struct cache_destager *ds = &c->ds;

	for (uint32_t i = 0; ds->stage && i < c->tab.nlines; i++)
		free(ds->stage[i]); /* destages stranded on executors that are gone */
	while (ds->nspare)
		free(ds->spare[--ds->nspare]);
	free(ds->stage);
	free(ds->spare);
	free(ds->reqs);
	ds->stage = ds->spare = NULL;
	ds->reqs = NULL;
}

/* --- what the host paths tell us --- */

void cache_destage_host_io(struct cache *c, uint64_t now)
{
	c->ds.last_io = now;
}

void cache_destage_host_write(struct cache *c)
{
	c->ds.idle_mode = false;
}

void cache_destage_press(struct cache *c)
{
	c->ds.on = true;
}

bool cache_destage_due(const struct cache *c)
{
	return c->ds.on || c->tab.count[CACHE_L_DIRTY] >= c->cfg.high_lines;
}

/* --- one line's destage --- */

uint32_t cache_dirty_run(const struct cache *c, const struct cache_line *l, uint32_t from,
                         uint32_t *len)
{
	const uint64_t *d = cache_bits(&c->tab, c->tab.dirty, l);
	const uint64_t *v = cache_bits(&c->tab, c->tab.valid, l);
	uint32_t s = from, e, last;

	while (s < c->tab.bpl && !cache_bit(d, s)) {
		if ((s & 63) == 0 && !d[s >> 6]) {
			s += 64;
			continue;
		}
		s++;
	}
	if (s >= c->tab.bpl)
		return c->tab.bpl;
	last = s;
	for (e = s + 1; e < c->tab.bpl && cache_bit(v, e); e++)
		if (cache_bit(d, e))
			last = e;
	*len = last - s + 1;
	return s;
}

bool cache_destage_begin(struct cache *c, struct cache_line *l, struct rl_exec *ex)
{
	struct cache_destager *ds = &c->ds;

	if (ds->stage) {
		/* page-aligned like the lines, for members that do direct I/O */
		void *b = NULL;
		if (ds->nspare)
			b = ds->spare[--ds->nspare];
		else if (posix_memalign(&b, CACHE_STAGE_ALIGN, c->tab.line))
			return false;
		ds->stage[cache_idx(&c->tab, l)] = b;
	}
	cache_busy_begin(&c->tab, l, CACHE_BUSY_DESTAGE, ex);
	memcpy(cache_bits(&c->tab, c->tab.dtouch, l), cache_bits(&c->tab, c->tab.wtb, l),
	       c->tab.words * sizeof(uint64_t));
	c->ds.lines_busy++;
	return true;
}

uint8_t *cache_destage_data(struct cache *c, const struct cache_line *l, uint32_t s, uint32_t len)
{
	uint8_t *b;

	if (!c->ds.stage)
		return NULL;
	b = c->ds.stage[cache_idx(&c->tab, l)] + (uint64_t)s * c->tab.bs;
	memcpy(b, cache_buf(&c->tab, l, s), (size_t)len * c->tab.bs);
	return b;
}

/* The last request of a line's destage ended: its copy is no longer read. */
static struct rl_io *cache_destage_finish(struct cache *c, struct cache_line *l) RL_REQUIRES(c)
{
	struct cache_destager *ds = &c->ds;

	if (ds->stage) {
		uint8_t **b = &ds->stage[cache_idx(&c->tab, l)];
		if (ds->nspare < ds->spare_max)
			ds->spare[ds->nspare++] = *b;
		else
			free(*b);
		*b = NULL;
	}
	ds->lines_busy--;
	return cache_busy_end(l);
}

struct rl_io *cache_destage_unguard(struct cache *c, struct cache_line *l)
{
	return cache_busy_put(l) ? cache_destage_finish(c, l) : NULL;
}

struct rl_io *cache_destage_end(struct cache *c, uint32_t idx, uint32_t b0, uint32_t n, bool fua,
                                int status)
{
	struct cache_line *l = &c->tab.lines[idx];

	if (status) {
		cache_busy_fail(l, true);
		c->ds.errors++;
	} else if (!c->pw.off || c->replaying) {
		/* After a cut (and before the replay) the cache is frozen as it was. */
		const uint64_t *d = cache_bits(&c->tab, c->tab.dirty, l);
		uint64_t base = l->tag * c->tab.line;
		/*
		 * Drive-cache tracking: only the dirty blocks of the run carried
		 * new data; the clean ones between them rewrote what the member
		 * already held.
		 */
		for (uint32_t b = b0; b < b0 + n;) {
			uint32_t e = b;
			while (e < b0 + n && cache_bit(d, e))
				e++;
			if (e > b)
				cache_pl_member_write(c, base + (uint64_t)b * c->tab.bs,
				                      (uint64_t)(e - b) * c->tab.bs, fua);
			b = e > b ? e : b + 1;
		}
		const uint64_t *t = cache_bits(&c->tab, c->tab.dtouch, l);
		for (uint32_t b = b0; b < b0 + n; b++)
			if (!cache_bit(t, b))
				cache_clean(&c->tab, l, b, 1);
		c->ds.ios++;
		c->ds.bytes += (uint64_t)n * c->tab.bs;
		if (c->replaying)
			c->ds.replayed_bytes += (uint64_t)n * c->tab.bs;
	}
	return cache_busy_put(l) ? cache_destage_finish(c, l) : NULL;
}

/* --- background destage --- */

static void cache_destage_done(struct rl_io *io, int status)
{
	struct cache_dreq *g = io->cb_arg;
	struct cache *c = g->c;
	struct rl_exec *ex = io->ex; /* g goes back to the free list below: read it first */
	struct rl_io *w;

	cache_lock(c);
	w = cache_destage_end(c, g->line, (uint32_t)(io->offset % c->tab.line / c->tab.bs),
	                      io->len / c->tab.bs, io->flags & RL_IO_FUA, status);
	g->busy = false;
	g->next_free = c->ds.free;
	c->ds.free = g;
	c->ds.busy--;
	cache_unlock(c);
	cache_waiters_wake(w);
	c->ds.room(c);
	cache_destage_kick(c, ex);
}

/* The oldest dirty line a background destage may take, or NULL. */
static struct cache_line *cache_destage_pick(struct cache *c) RL_REQUIRES(c)
{
	uint32_t scanned = 0;

	for (uint32_t i = c->tab.head[CACHE_L_DIRTY]; i != CACHE_NONE && scanned < CACHE_DIRTY_SCAN;
	     i = c->tab.lines[i].next, scanned++) {
		struct cache_line *l = &c->tab.lines[i];
		if (l->busy == CACHE_BUSY_NONE && !l->wt && !l->derr)
			return l;
	}
	return NULL;
}

/* Should the background destage take another line?  Updates the watermark state. */
static bool cache_destage_wanted(struct cache *c) RL_REQUIRES(c)
{
	uint32_t dirty = c->tab.count[CACHE_L_DIRTY];
	uint32_t waiting = dirty > c->ds.lines_busy ? dirty - c->ds.lines_busy : 0;

	if (c->pw.off)
		return false;
	if (dirty >= c->cfg.high_lines)
		c->ds.on = true;
	if (c->ds.idle_mode) {
		if (!dirty) {
			c->ds.idle_mode = false;
			return false;
		}
		return waiting > 0;
	}
	if (waiting <= c->cfg.low_lines)
		c->ds.on = false;
	return c->ds.on;
}

void cache_destage_kick(struct cache *c, struct rl_exec *ex)
{
	struct cache_dreq *go = NULL, **tail = &go;

	cache_lock(c);
	while (c->ds.free && cache_destage_wanted(c)) {
		struct cache_line *l = cache_destage_pick(c);
		struct rl_io *w;
		uint32_t b = 0, len;

		if (!l || !cache_destage_begin(c, l, ex))
			break;
		for (;;) {
			uint32_t s = cache_dirty_run(c, l, b, &len);
			struct cache_dreq *g = c->ds.free;
			if (s >= c->tab.bpl)
				break;
			if (!g) {
				cache_busy_fail(l,
				                false); /* partial: not covered, the rest waits */
				break;
			}
			c->ds.free = g->next_free;
			c->ds.busy++;
			g->busy = true;
			g->line = cache_idx(&c->tab, l);
			cache_busy_add(l);
			memset(&g->io, 0, offsetof(struct rl_io, tag));
			g->io.op = RL_OP_WRITE;
			g->io.flags = c->cfg.disk_cache ? 0 : RL_IO_FUA;
			g->io.offset = l->tag * c->tab.line + (uint64_t)s * c->tab.bs;
			g->io.len = len * c->tab.bs;
			g->io.buf = cache_destage_data(c, l, s, len);
			g->io.cb = cache_destage_done;
			g->io.cb_arg = g;
			g->io.ex = ex;
			g->next_free = NULL;
			*tail = g;
			tail = &g->next_free;
			b = s + len;
		}
		w = cache_destage_unguard(c, l);
		(void)w; /* the line was idle: nobody waits on it */
	}
	cache_unlock(c);
	while (go) {
		struct cache_dreq *g = go;
		go = g->next_free;
		g->next_free = NULL;
		rl_target_submit(c->below, &g->io);
	}
}

/* --- idle flush --- */

static void cache_idle_fire(struct rl_io *io, int status)
{
	struct cache_dreq *g = io->cb_arg;
	struct cache *c = g->c;
	uint64_t now = rl_exec_now(io->ex);
	bool go = false;

	(void)status;
	cache_lock(c);
	c->ds.idle_armed = false;
	g->busy = false;
	if (!c->pw.off && c->tab.count[CACHE_L_DIRTY]) {
		if (now >= c->ds.last_io + c->cfg.idle_ns) {
			c->ds.idle_mode = go = true;
			c->ds.idle_flushes++;
		} else {
			cache_idle_arm(c, io->ex, c->ds.last_io);
		}
	}
	cache_unlock(c);
	if (go)
		cache_destage_kick(c, io->ex);
}

void cache_idle_arm(struct cache *c, struct rl_exec *ex, uint64_t now)
{
	struct cache_dreq *g = c->ds.timer;

	if (!c->cfg.idle_ns || c->ds.idle_armed || c->pw.off || !c->tab.count[CACHE_L_DIRTY] ||
	    g->busy)
		return;
	memset(&g->io, 0, offsetof(struct rl_io, tag));
	g->io.cb = cache_idle_fire;
	g->io.cb_arg = g;
	g->io.ex = ex;
	if (rl_exec_at(ex, &g->io, now + c->cfg.idle_ns, 0) == 0)
		c->ds.idle_armed = g->busy = true;
}

/* --- requests stranded on executors that are gone --- */

void cache_destage_settle(struct cache *c, bool new_clock)
{
	for (uint32_t i = 0; i < c->ds.nreqs; i++) {
		struct cache_dreq *g = &c->ds.reqs[i];
		struct cache_line *l;

		if (!g->busy)
			continue;
		g->busy = false;
		if (g->timer) { /* an idle timer is not work */
			c->ds.idle_armed = false;
			continue;
		}
		c->ds.orphans++;
		l = &c->tab.lines[g->line];
		cache_busy_fail(l, false);
		if (cache_busy_put(l))
			cache_destage_finish(c, l);
		g->next_free = c->ds.free;
		c->ds.free = g;
		c->ds.busy--;
	}
	c->ds.idle_mode = false;
	if (new_clock)
		c->ds.last_io = 0;
}

/* --- data the members never received --- */

void cache_destage_account_lost(struct cache *c)
{
	c->ds.unwritten_bytes = 0;
	c->ds.nunwritten = 0;
	c->ds.unwritten_truncated = false;
	for (uint32_t i = 0; i < c->tab.nlines; i++) {
		const struct cache_line *l = &c->tab.lines[i];
		const uint64_t *d = c->tab.dirty + (uint64_t)i * c->tab.words;

		if (l->list != CACHE_L_DIRTY)
			continue;
		for (uint32_t b = 0; b < c->tab.bpl;) {
			uint32_t e = b;
			uint64_t off, len;
			if (!cache_bit(d, b)) {
				b++;
				continue;
			}
			while (e < c->tab.bpl && cache_bit(d, e))
				e++;
			off = l->tag * c->tab.line + (uint64_t)b * c->tab.bs;
			len = (uint64_t)(e - b) * c->tab.bs;
			c->ds.unwritten_bytes += len;
			if (c->ds.nunwritten && c->ds.unwritten[c->ds.nunwritten - 1].off +
			                                c->ds.unwritten[c->ds.nunwritten - 1].len ==
			                            off)
				c->ds.unwritten[c->ds.nunwritten - 1].len += len;
			else if (c->ds.nunwritten < CACHE_UNWRITTEN_MAX) {
				c->ds.unwritten[c->ds.nunwritten].off = off;
				c->ds.unwritten[c->ds.nunwritten++].len = len;
			} else
				c->ds.unwritten_truncated = true;
			b = e;
		}
	}
	if (!c->ds.unwritten_bytes)
		return;
	/* Data loss is never hidden: printed whatever --quiet says. */
	fprintf(stderr,
	        "raidlab: cache: %llu bytes of acknowledged data were never written to the "
	        "member (%llu destage errors); the volume is failed\n",
	        (unsigned long long)c->ds.unwritten_bytes, (unsigned long long)c->ds.errors);
	for (uint32_t i = 0; i < c->ds.nunwritten && i < 8; i++)
		fprintf(stderr, "raidlab: cache:   lost offset %llu length %llu (destage error)\n",
		        (unsigned long long)c->ds.unwritten[i].off,
		        (unsigned long long)c->ds.unwritten[i].len);
	if (c->ds.nunwritten > 8 || c->ds.unwritten_truncated)
		fprintf(stderr, "raidlab: cache:   ... more in the JSON result\n");
}

void cache_destage_report(const struct cache *c, struct json_object *o)
{
	struct json_object *ranges = json_object_new_array();

	json_object_object_add(o, "destage_ios", json_object_new_int64((int64_t)c->ds.ios));
	json_object_object_add(o, "destage_bytes", json_object_new_int64((int64_t)c->ds.bytes));
	json_object_object_add(o, "destage_errors", json_object_new_int64((int64_t)c->ds.errors));
	json_object_object_add(o, "state",
	                       json_object_new_string(c->ds.unwritten_bytes ? "failed"
	                                              : c->ds.errors        ? "degraded"
	                                                                    : "optimal"));
	json_object_object_add(o, "lost_acknowledged_bytes",
	                       json_object_new_int64((int64_t)c->ds.unwritten_bytes));
	for (uint32_t i = 0; i < c->ds.nunwritten; i++) {
		struct json_object *r = json_object_new_object();
		json_object_object_add(r, "offset",
		                       json_object_new_int64((int64_t)c->ds.unwritten[i].off));
		json_object_object_add(r, "length",
		                       json_object_new_int64((int64_t)c->ds.unwritten[i].len));
		json_object_array_add(ranges, r);
	}
	json_object_object_add(o, "lost_acknowledged_ranges", ranges);
	json_object_object_add(o, "lost_acknowledged_ranges_truncated",
	                       json_object_new_boolean(c->ds.unwritten_truncated));
	json_object_object_add(o, "idle_flushes",
	                       json_object_new_int64((int64_t)c->ds.idle_flushes));
}
