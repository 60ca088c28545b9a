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
#include <stddef.h>
#include <string.h>

#include "cache/cache.h"

static void cache_fill_done(struct rl_io *io, int status)
{
	struct cache_bg *g = io->cb_arg;
	struct cache *c = g->c;
	struct cache_line *l = &c->lines[g->line];
	struct rl_io *w;

	pthread_mutex_lock(&c->lock);
	if (!status && !c->off && g->populate_ok && c->nc_epoch == g->epoch)
		cache_merge_read(c, l, (uint32_t)(io->offset % c->line / c->bs), io->len / c->bs,
		                 g->staging, true, true);
	w = l->waiters;
	l->waiters = NULL;
	l->busy = CACHE_BUSY_NONE;
	l->busy_ex = NULL;
	l->busy_n = 0;
	l->refs--;
	g->busy = false;
	g->next_free = c->free_fill;
	c->free_fill = g;
	c->fill_busy--;
	pthread_mutex_unlock(&c->lock);
	cache_wake(c, w);
}

/* The stream @off continues, or a new one (replacing the least recently used). */
static struct cache_stream *cache_stream_get(struct cache *c, uint64_t off, bool *seq)
{
	struct cache_stream *s = NULL, *old = &c->streams[0];

	for (int i = 0; i < CACHE_STREAMS; i++) {
		struct cache_stream *k = &c->streams[i];
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
	s->used = ++c->stream_clock;
	return s;
}

void cache_readahead(struct cache *c, struct rl_exec *ex, uint64_t off, uint32_t len)
{
	struct cache_bg *go = NULL, **tail = &go;
	struct cache_stream *s;
	uint64_t end = off + len, window, from, to;
	bool seq;

	if (c->read == CACHE_READ_NONE)
		return;
	pthread_mutex_lock(&c->lock);
	s = cache_stream_get(c, off, &seq);
	s->next = end;
	if (c->off || ((c->read == CACHE_READ_ADAPTIVE || c->ra_detect) && s->count < 1)) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	window = c->ra_bytes > len ? c->ra_bytes : len;
	to = end + window < c->t->size ? end + window : c->t->size;
	if (c->ra_stripe && c->below->stripe) { /* only the rest of the current stripe row */
		uint64_t row_end =
		    (end + c->below->stripe - 1) / c->below->stripe * c->below->stripe;
		if (row_end < to)
			to = row_end;
	}
	from = s->ra_end > end ? s->ra_end : end;
	while (from < to && c->free_fill) {
		uint64_t tag = cache_tag(c, from), ls = tag * c->line;
		uint64_t le = ls + c->line < c->t->size ? ls + c->line : c->t->size;
		uint32_t b0 = (uint32_t)((from - ls) / c->bs), n = (uint32_t)((le - from) / c->bs);
		struct cache_line *l = cache_find(c, tag);
		struct cache_bg *g;

		if (l && (l->busy != CACHE_BUSY_NONE ||
		          cache_bits_all(cache_bits(c, c->valid, l), b0, n))) {
			from = le;
			continue;
		}
		if (!l && !(l = cache_alloc(c, tag)))
			break;
		g = c->free_fill;
		c->free_fill = g->next_free;
		c->fill_busy++;
		g->busy = true;
		g->line = cache_idx(c, l);
		g->populate_ok = c->nc_inflight == 0;
		g->epoch = c->nc_epoch;
		l->busy = CACHE_BUSY_FILL;
		l->busy_ex = ex;
		l->busy_n = 1;
		l->refs++;
		memset(&g->io, 0, offsetof(struct rl_io, priv));
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
		c->n.ra_issued_bytes += le - from;
		c->n.ra_requests++;
		from = le;
	}
	if (from > s->ra_end)
		s->ra_end = from;
	pthread_mutex_unlock(&c->lock);
	while (go) {
		struct cache_bg *g = go;
		go = g->next_free;
		g->next_free = NULL;
		rl_target_submit(c->below, &g->io);
	}
}
