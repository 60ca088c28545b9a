/*
 * readahead.c - the read policy: which reads are followed by a prefetch.
 *
 *   read=none      only the requested blocks are read
 *   read=ahead     every read is followed by a prefetch of what comes next
 *                  (as a controller's "Read Ahead": a bet that pays on
 *                  sequential reads and wastes member bandwidth on random
 *                  ones)
 *   read=adaptive  a read is followed by a prefetch only when it starts
 *                  where the previous read of its stream ended, i.e. from
 *                  the second of two sequential reads on; a read that
 *                  continues no stream starts a new one and is not followed
 *                  ("Adaptive Read Ahead")
 *
 * Streams: the last CACHE_STREAMS read streams are remembered (the next
 * offset each expects, least recently used replaced), so a few interleaved
 * sequential readers are each recognised.
 *
 * A prefetch covers [end, end + window) where end is the read's end and
 * window = max(ra=, the read's length), minus what the stream has already
 * prefetched.  It is issued per line, into lines that are absent (a new
 * line is taken from the clean LRU end; when none is free the prefetch
 * stops) or present with blocks missing; busy lines are skipped.  A line
 * being prefetched is busy (FILL): the member reads into a staging buffer
 * of the background request, and on completion only blocks the line still
 * lacks are filled in, so host writes to the line meanwhile win.  Host
 * reads of the line on the same executor wait for the prefetch (that wait
 * is what makes read-ahead pay at queue depth 1); reads from other threads
 * read the member.  Filled blocks carry a prefetched bit: a host read that
 * uses one counts as read-ahead used, an eviction that drops one counts as
 * read-ahead wasted.  At most ra-qd prefetches are in flight.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache/cache.h"
#include "cache/readahead.h"

int cache_ra_init(struct cache *c)
{
	struct cache_ra *ra = &c->ra;

	if (c->cfg.read == CACHE_READ_NONE)
		return 0;
	ra->nfills = c->cfg.ra_qd;
	ra->fills = calloc(ra->nfills, sizeof(*ra->fills));
	if (!ra->fills)
		return -ENOMEM;
	if (c->tab.data) {
		ra->stage = mmap(NULL, (size_t)ra->nfills * c->tab.line, PROT_READ | PROT_WRITE,
		                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (ra->stage == MAP_FAILED) {
			ra->stage = NULL;
			return -ENOMEM;
		}
	}
	for (uint32_t i = 0; i < ra->nfills; i++) {
		struct cache_fill *g = &ra->fills[i];
		g->c = c;
		g->io.cb_arg = g;
		g->staging = ra->stage ? ra->stage + (size_t)i * c->tab.line : NULL;
		g->next_free = ra->free;
		ra->free = g;
	}
	return 0;
}

void cache_ra_free(struct cache *c)
{
	if (c->ra.stage)
		munmap(c->ra.stage, (size_t)c->ra.nfills * c->tab.line);
	free(c->ra.fills);
	c->ra.fills = NULL;
}

void cache_ra_settle(struct cache *c)
{
	for (uint32_t i = 0; i < c->ra.nfills; i++) {
		struct cache_fill *g = &c->ra.fills[i];
		struct cache_line *l;

		if (!g->busy)
			continue;
		g->busy = false;
		c->ra.orphans++;
		l = &c->tab.lines[g->line];
		cache_busy_end(l); /* its waiters were on executors that are gone too */
		g->next_free = c->ra.free;
		c->ra.free = g;
		c->ra.busy--;
	}
}

static void cache_fill_done(struct rl_io *io, int status)
{
	struct cache_fill *g = io->cb_arg;
	struct cache *c = g->c;
	struct cache_line *l = &c->tab.lines[g->line];
	struct rl_io *w;

	cache_lock(c);
	if (!status && !c->pw.off && g->populate_ok && c->tab.nc_epoch == g->epoch)
		cache_merge_read(&c->tab, l, (uint32_t)(io->offset % c->tab.line / c->tab.bs),
		                 io->len / c->tab.bs, g->staging, true, true);
	w = cache_busy_end(l);
	g->busy = false;
	g->next_free = c->ra.free;
	c->ra.free = g;
	c->ra.busy--;
	cache_unlock(c);
	cache_waiters_wake(w);
}

/* The stream @off continues, or a new one (replacing the least recently used). */
static struct cache_stream *cache_stream_get(struct cache *c, uint64_t off, bool *seq)
    RL_REQUIRES(c)
{
	struct cache_stream *s = NULL, *old = &c->ra.streams[0];

	for (int i = 0; i < CACHE_STREAMS; i++) {
		struct cache_stream *k = &c->ra.streams[i];
		if (k->used && k->next == off) {
			s = k;
			break;
		}
		if (k->used < old->used)
			old = k;
	}
	*seq = s != NULL;
	if (!s) {
		s = old;
		s->count = 0;
		s->ra_end = 0;
	} else {
		s->count++;
	}
	s->used = ++c->ra.stream_clock;
	return s;
}

void cache_readahead(struct cache *c, struct rl_exec *ex, uint64_t off, uint32_t len)
{
	struct cache_fill *go = NULL, **tail = &go;
	struct cache_stream *s;
	uint64_t end = off + len, window, from, to;
	bool seq;

	if (c->cfg.read == CACHE_READ_NONE)
		return;
	cache_lock(c);
	s = cache_stream_get(c, off, &seq);
	s->next = end;
	if (c->pw.off ||
	    ((c->cfg.read == CACHE_READ_ADAPTIVE || c->cfg.ra_detect) && s->count < 1)) {
		cache_unlock(c);
		return;
	}
	window = c->cfg.ra_bytes > len ? c->cfg.ra_bytes : len;
	to = end + window < c->t->size ? end + window : c->t->size;
	if (c->cfg.ra_stripe && c->below->stripe) { /* only the rest of the current stripe row */
		uint64_t row_end =
		    (end + c->below->stripe - 1) / c->below->stripe * c->below->stripe;
		if (row_end < to)
			to = row_end;
	}
	from = s->ra_end > end ? s->ra_end : end;
	while (from < to && c->ra.free) {
		uint64_t tag = cache_tag(&c->tab, from), ls = tag * c->tab.line;
		uint64_t le = ls + c->tab.line < c->t->size ? ls + c->tab.line : c->t->size;
		uint32_t b0 = (uint32_t)((from - ls) / c->tab.bs),
		         n = (uint32_t)((le - from) / c->tab.bs);
		struct cache_line *l = cache_find(&c->tab, tag);
		struct cache_fill *g;

		if (l && (l->busy != CACHE_BUSY_NONE ||
		          cache_bits_all(cache_bits(&c->tab, c->tab.valid, l), b0, n))) {
			from = le;
			continue;
		}
		if (!l && !(l = cache_alloc(&c->tab, tag)))
			break;
		g = c->ra.free;
		c->ra.free = g->next_free;
		c->ra.busy++;
		g->busy = true;
		g->line = cache_idx(&c->tab, l);
		g->populate_ok = c->tab.nc_inflight == 0;
		g->epoch = c->tab.nc_epoch;
		cache_busy_begin(&c->tab, l, CACHE_BUSY_FILL, ex);
		memset(&g->io, 0, offsetof(struct rl_io, tag));
		g->io.op = RL_OP_READ;
		g->io.offset = from;
		g->io.len = (uint32_t)(le - from);
		g->io.buf = g->staging;
		g->io.cb = cache_fill_done;
		g->io.cb_arg = g;
		g->io.ex = ex;
		g->next_free = NULL;
		*tail = g;
		tail = &g->next_free;
		c->ra.issued_bytes += le - from;
		c->ra.requests++;
		from = le;
	}
	if (from > s->ra_end)
		s->ra_end = from;
	cache_unlock(c);
	while (go) {
		struct cache_fill *g = go;
		go = g->next_free;
		g->next_free = NULL;
		rl_target_submit(c->below, &g->io);
	}
}
