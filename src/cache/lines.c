/*
 * lines.c - the cache's line table: where a line number lives, which line
 * to give up, and the per-block bitmaps.
 *
 * Everything is reserved when the cache is created: the line array, three
 * bitmaps of one bit per block per line (valid: the line holds the block;
 * dirty: it holds a newer copy than the member; ra: prefetched and not yet
 * read), two "touched" bitmaps and the blocks of write-throughs in flight
 * (see "Write order" in cache.h), the hash buckets and the data area (an
 * anonymous mapping of size= bytes, only when the target below keeps data; a cache over a
 * timing-only simulated drive keeps none).  Nothing here allocates later.
 *
 * Lines sit on one of three lists, oldest at the head:
 *   FREE   unused;
 *   CLEAN  holding only clean blocks, in LRU order (a hit moves a line to
 *          the tail); eviction takes the oldest unpinned, idle one;
 *   DIRTY  holding at least one dirty block, in the order they became
 *          dirty; destage takes the oldest first.
 * The hash maps a line number to its line (chained through hnext, with
 * twice as many buckets as lines).
 *
 * Every function here expects the cache lock to be held, except
 * cache_waiters_wake(), which runs the woken requests and so is called
 * without it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache/lines.h"

#define CACHE_EVICT_SCAN 64 /* pinned or busy clean lines skipped before giving up */

static inline uint32_t cache_hash(const struct cache_table *tb, uint64_t tag)
{
	uint64_t h = tag * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & tb->hmask;
}

/* --- lists --- */

static void cache_list_unlink(struct cache_table *tb, struct cache_line *l)
{
	if (l->prev != CACHE_NONE)
		tb->lines[l->prev].next = l->next;
	else
		tb->head[l->list] = l->next;
	if (l->next != CACHE_NONE)
		tb->lines[l->next].prev = l->prev;
	else
		tb->tail[l->list] = l->prev;
	tb->count[l->list]--;
	l->prev = l->next = CACHE_NONE;
}

static void cache_list_append(struct cache_table *tb, struct cache_line *l, int list)
{
	uint32_t i = cache_idx(tb, l);

	l->list = (uint8_t)list;
	l->next = CACHE_NONE;
	l->prev = tb->tail[list];
	if (tb->tail[list] != CACHE_NONE)
		tb->lines[tb->tail[list]].next = i;
	else
		tb->head[list] = i;
	tb->tail[list] = i;
	tb->count[list]++;
}

void cache_list_move(struct cache_table *tb, struct cache_line *l, int list)
{
	cache_list_unlink(tb, l);
	cache_list_append(tb, l, list);
}

/* --- bitmaps --- */

bool cache_bits_all(const uint64_t *m, uint32_t b0, uint32_t n)
{
	for (uint32_t b = b0; b < b0 + n; b++) {
		if ((b & 63) == 0 && b + 64 <= b0 + n) {
			if (m[b >> 6] != UINT64_MAX)
				return false;
			b += 63;
			continue;
		}
		if (!cache_bit(m, b))
			return false;
	}
	return true;
}

uint32_t cache_bits_count(const uint64_t *m, uint32_t b0, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t b = b0; b < b0 + n; b++) {
		if ((b & 63) == 0 && b + 64 <= b0 + n) {
			k += (uint32_t)__builtin_popcountll(m[b >> 6]);
			b += 63;
			continue;
		}
		k += cache_bit(m, b);
	}
	return k;
}

void cache_bits_set(uint64_t *m, uint32_t b0, uint32_t n)
{
	for (uint32_t b = b0; b < b0 + n; b++)
		m[b >> 6] |= 1ull << (b & 63);
}

void cache_bits_clear(uint64_t *m, uint32_t b0, uint32_t n)
{
	for (uint32_t b = b0; b < b0 + n; b++)
		m[b >> 6] &= ~(1ull << (b & 63));
}

/* --- the table --- */

int cache_lines_init(struct cache_table *tb, bool with_data)
{
	uint32_t nb = 1;

	tb->lines = calloc(tb->nlines, sizeof(*tb->lines));
	tb->valid = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	tb->dirty = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	tb->rabits = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	tb->wtouch = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	tb->dtouch = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	tb->wtb = calloc((size_t)tb->nlines * tb->words, sizeof(uint64_t));
	while (nb < tb->nlines * 2u)
		nb <<= 1;
	tb->hash = malloc((size_t)nb * sizeof(*tb->hash));
	if (!tb->lines || !tb->valid || !tb->dirty || !tb->rabits || !tb->wtouch || !tb->dtouch ||
	    !tb->wtb || !tb->hash)
		return -ENOMEM;
	tb->hmask = nb - 1;
	memset(tb->hash, 0xff, (size_t)nb * sizeof(*tb->hash));
	for (int k = 0; k < CACHE_L_COUNT; k++)
		tb->head[k] = tb->tail[k] = CACHE_NONE;
	for (uint32_t i = 0; i < tb->nlines; i++) {
		struct cache_line *l = &tb->lines[i];
		l->tag = CACHE_NO_TAG;
		l->hnext = CACHE_NONE;
		cache_list_append(tb, l, CACHE_L_FREE);
	}
	if (with_data) {
		tb->data_len = (size_t)tb->nlines * tb->line;
		tb->data = mmap(NULL, tb->data_len, PROT_READ | PROT_WRITE,
		                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (tb->data == MAP_FAILED) {
			tb->data = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void cache_lines_free(struct cache_table *tb)
{
	if (tb->data)
		munmap(tb->data, tb->data_len);
	free(tb->lines);
	free(tb->valid);
	free(tb->dirty);
	free(tb->rabits);
	free(tb->wtouch);
	free(tb->dtouch);
	free(tb->wtb);
	free(tb->hash);
}

struct cache_line *cache_find(struct cache_table *tb, uint64_t tag)
{
	for (uint32_t i = tb->hash[cache_hash(tb, tag)]; i != CACHE_NONE; i = tb->lines[i].hnext)
		if (tb->lines[i].tag == tag)
			return &tb->lines[i];
	return NULL;
}

static void cache_hash_remove(struct cache_table *tb, struct cache_line *l)
{
	uint32_t *p = &tb->hash[cache_hash(tb, l->tag)];
	uint32_t i = cache_idx(tb, l);

	while (*p != i)
		p = &tb->lines[*p].hnext;
	*p = l->hnext;
	l->hnext = CACHE_NONE;
}

/* Return @l (clean, unpinned) to the free list. */
static void cache_evict(struct cache_table *tb, struct cache_line *l)
{
	uint32_t ra = cache_bits_count(cache_bits(tb, tb->rabits, l), 0, tb->bpl);

	tb->ra_wasted_bytes += (uint64_t)ra * tb->bs;
	cache_hash_remove(tb, l);
	memset(cache_bits(tb, tb->valid, l), 0, tb->words * sizeof(uint64_t));
	memset(cache_bits(tb, tb->dirty, l), 0, tb->words * sizeof(uint64_t));
	memset(cache_bits(tb, tb->rabits, l), 0, tb->words * sizeof(uint64_t));
	memset(cache_bits(tb, tb->wtouch, l), 0, tb->words * sizeof(uint64_t));
	memset(cache_bits(tb, tb->dtouch, l), 0, tb->words * sizeof(uint64_t));
	memset(cache_bits(tb, tb->wtb, l), 0, tb->words * sizeof(uint64_t));
	l->tag = CACHE_NO_TAG;
	l->nvalid = l->ndirty = 0;
	cache_list_move(tb, l, CACHE_L_FREE);
}

struct cache_line *cache_alloc(struct cache_table *tb, uint64_t tag)
{
	struct cache_line *l = NULL;
	uint32_t i, scanned = 0;

	if (tb->head[CACHE_L_FREE] != CACHE_NONE) {
		l = &tb->lines[tb->head[CACHE_L_FREE]];
	} else {
		for (i = tb->head[CACHE_L_CLEAN]; i != CACHE_NONE && scanned < CACHE_EVICT_SCAN;
		     i = tb->lines[i].next, scanned++) {
			struct cache_line *v = &tb->lines[i];
			if (!v->refs && v->busy == CACHE_BUSY_NONE && !v->waiters && !v->wt) {
				cache_evict(tb, v);
				tb->evictions++;
				l = v;
				break;
			}
		}
		if (!l)
			return NULL;
	}
	l->tag = tag;
	l->wseq = l->dirty_since = l->covered = l->dseq = 0;
	l->refs = l->wt = l->busy_n = 0;
	l->busy = CACHE_BUSY_NONE;
	l->dfail = l->derr = 0;
	l->waiters = NULL;
	l->busy_ex = NULL;
	l->hnext = tb->hash[cache_hash(tb, tag)];
	tb->hash[cache_hash(tb, tag)] = cache_idx(tb, l);
	cache_list_move(tb, l, CACHE_L_CLEAN);
	return l;
}

/* --- data in and out --- */

void cache_copy_in(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n,
                   const uint8_t *src, bool dirty, uint64_t seq)
{
	uint64_t *v = cache_bits(tb, tb->valid, l), *d = cache_bits(tb, tb->dirty, l);

	if (tb->data && src)
		memcpy(cache_buf(tb, l, b0), src, (size_t)n * tb->bs);
	l->nvalid += n - cache_bits_count(v, b0, n);
	cache_bits_set(v, b0, n);
	cache_bits_clear(cache_bits(tb, tb->rabits, l), b0, n);
	l->wseq = seq;
	cache_bits_set(cache_bits(tb, tb->wtouch, l), b0, n);
	cache_bits_set(cache_bits(tb, tb->dtouch, l), b0, n);
	if (dirty) {
		uint32_t newly = n - cache_bits_count(d, b0, n);
		cache_bits_set(d, b0, n);
		if (!l->ndirty && newly) {
			l->dirty_since = seq;
			cache_list_move(tb, l, CACHE_L_DIRTY);
		}
		l->ndirty += newly;
		tb->dirty_blocks += newly;
		if (tb->dirty_blocks > tb->dirty_peak_blocks)
			tb->dirty_peak_blocks = tb->dirty_blocks;
	} else if (!l->ndirty) {
		cache_list_move(tb, l, CACHE_L_CLEAN);
	}
}

void cache_clean(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n)
{
	uint64_t *d = cache_bits(tb, tb->dirty, l);
	uint32_t k = cache_bits_count(d, b0, n);

	if (!k)
		return;
	cache_bits_clear(d, b0, n);
	l->ndirty -= k;
	tb->dirty_blocks -= k;
	if (!l->ndirty)
		cache_list_move(tb, l, CACHE_L_CLEAN);
}

void cache_forget(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n)
{
	uint64_t *v = cache_bits(tb, tb->valid, l);

	cache_clean(tb, l, b0, n);
	l->nvalid -= cache_bits_count(v, b0, n);
	cache_bits_clear(v, b0, n);
	cache_bits_clear(cache_bits(tb, tb->rabits, l), b0, n);
}

uint32_t cache_merge_read(struct cache_table *tb, struct cache_line *l, uint32_t b0, uint32_t n,
                          uint8_t *buf, bool populate, bool ra)
{
	uint64_t *v = cache_bits(tb, tb->valid, l);
	uint32_t filled = 0, b = b0, end = b0 + n;

	while (b < end) {
		bool have = cache_bit(v, b);
		uint32_t e = b + 1;
		while (e < end && cache_bit(v, e) == have)
			e++;
		if (have) {
			if (tb->data && buf)
				memcpy(buf + (size_t)(b - b0) * tb->bs, cache_buf(tb, l, b),
				       (size_t)(e - b) * tb->bs);
		} else if (populate) {
			if (tb->data && buf)
				memcpy(cache_buf(tb, l, b), buf + (size_t)(b - b0) * tb->bs,
				       (size_t)(e - b) * tb->bs);
			cache_bits_set(v, b, e - b);
			if (ra)
				cache_bits_set(cache_bits(tb, tb->rabits, l), b, e - b);
			filled += e - b;
		}
		b = e;
	}
	l->nvalid += filled;
	return filled;
}

void cache_waiters_wake(struct rl_io *list)
{
	while (list) {
		struct rl_io *io = list;
		list = io->next;
		io->next = NULL;
		io->resume(io);
	}
}

void cache_drop_all(struct cache_table *tb)
{
	for (uint32_t i = 0; i < tb->nlines; i++) {
		struct cache_line *l = &tb->lines[i];
		if (l->list == CACHE_L_FREE)
			continue;
		cache_clean(tb, l, 0, tb->bpl);
		l->refs = l->wt = 0;
		l->busy = CACHE_BUSY_NONE;
		l->busy_n = 0;
		l->waiters = NULL;
		cache_evict(tb, l);
	}
}

void cache_busy_begin(struct cache_table *tb, struct cache_line *l, enum cache_busy kind,
                      struct rl_exec *ex)
{
	l->busy = (uint8_t)kind;
	l->busy_ex = ex;
	l->busy_n = 1; /* the issuing guard */
	if (kind == CACHE_BUSY_DESTAGE) {
		l->dseq = tb->wseq;
		l->dfail = 0;
	}
	l->refs++;
}

struct rl_io *cache_busy_end(struct cache_line *l)
{
	struct rl_io *w = l->waiters;

	if (l->busy == CACHE_BUSY_DESTAGE && !l->dfail) {
		if (l->dseq > l->covered)
			l->covered = l->dseq;
		l->derr = 0;
	}
	l->busy = CACHE_BUSY_NONE;
	l->busy_ex = NULL;
	l->busy_n = 0;
	l->dfail = 0;
	l->waiters = NULL;
	l->refs--;
	return w;
}
