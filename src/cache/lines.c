/*
 * lines.c - the cache's line table: where a line number lives, which line
 * to give up, and the per-block bitmaps.
 *
 * Everything is reserved when the cache is created: the line array, three
 * bitmaps of one bit per block per line (valid: the line holds the block;
 * dirty: it holds a newer copy than the member; ra: prefetched and not yet
 * read), two "touched" bitmaps and the blocks of write-throughs in flight
 * (see "Write order" in cache.h), the hash buckets and the data area (an anonymous mapping of
 * size= bytes, only when the target below keeps data; a cache over a
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
 * Every function here expects the cache lock to be held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cache/cache.h"

#define CACHE_EVICT_SCAN 64 /* pinned or busy clean lines skipped before giving up */

static inline uint32_t cache_hash(const struct cache *c, uint64_t tag)
{
	uint64_t h = tag * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & c->hmask;
}

/* --- lists --- */

static void cache_list_unlink(struct cache *c, struct cache_line *l)
{
	if (l->prev != CACHE_NONE)
		c->lines[l->prev].next = l->next;
	else
		c->head[l->list] = l->next;
	if (l->next != CACHE_NONE)
		c->lines[l->next].prev = l->prev;
	else
		c->tail[l->list] = l->prev;
	c->count[l->list]--;
	l->prev = l->next = CACHE_NONE;
}

static void cache_list_append(struct cache *c, struct cache_line *l, int list)
{
	uint32_t i = cache_idx(c, l);

	l->list = (uint8_t)list;
	l->next = CACHE_NONE;
	l->prev = c->tail[list];
	if (c->tail[list] != CACHE_NONE)
		c->lines[c->tail[list]].next = i;
	else
		c->head[list] = i;
	c->tail[list] = i;
	c->count[list]++;
}

void cache_list_move(struct cache *c, struct cache_line *l, int list)
{
	cache_list_unlink(c, l);
	cache_list_append(c, l, list);
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

int cache_lines_init(struct cache *c)
{
	uint32_t nb = 1;

	c->lines = calloc(c->nlines, sizeof(*c->lines));
	c->valid = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	c->dirty = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	c->rabits = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	c->wtouch = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	c->dtouch = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	c->wtb = calloc((size_t)c->nlines * c->words, sizeof(uint64_t));
	while (nb < c->nlines * 2u)
		nb <<= 1;
	c->hash = malloc((size_t)nb * sizeof(*c->hash));
	if (!c->lines || !c->valid || !c->dirty || !c->rabits || !c->wtouch || !c->dtouch ||
	    !c->wtb || !c->hash)
		return -ENOMEM;
	c->hmask = nb - 1;
	memset(c->hash, 0xff, (size_t)nb * sizeof(*c->hash));
	for (int k = 0; k < CACHE_L_COUNT; k++)
		c->head[k] = c->tail[k] = CACHE_NONE;
	for (uint32_t i = 0; i < c->nlines; i++) {
		struct cache_line *l = &c->lines[i];
		l->tag = CACHE_NO_TAG;
		l->hnext = CACHE_NONE;
		cache_list_append(c, l, CACHE_L_FREE);
	}
	if (c->below->caps & RL_CAP_DATA) {
		c->data_len = (size_t)c->nlines * c->line;
		c->data = mmap(NULL, c->data_len, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (c->data == MAP_FAILED) {
			c->data = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

void cache_lines_free(struct cache *c)
{
	if (c->data)
		munmap(c->data, c->data_len);
	free(c->lines);
	free(c->valid);
	free(c->dirty);
	free(c->rabits);
	free(c->wtouch);
	free(c->dtouch);
	free(c->wtb);
	free(c->hash);
}

struct cache_line *cache_find(struct cache *c, uint64_t tag)
{
	for (uint32_t i = c->hash[cache_hash(c, tag)]; i != CACHE_NONE; i = c->lines[i].hnext)
		if (c->lines[i].tag == tag)
			return &c->lines[i];
	return NULL;
}

static void cache_hash_remove(struct cache *c, struct cache_line *l)
{
	uint32_t *p = &c->hash[cache_hash(c, l->tag)];
	uint32_t i = cache_idx(c, l);

	while (*p != i)
		p = &c->lines[*p].hnext;
	*p = l->hnext;
	l->hnext = CACHE_NONE;
}

/* Return @l (clean, unpinned) to the free list. */
static void cache_evict(struct cache *c, struct cache_line *l)
{
	uint32_t ra = cache_bits_count(cache_bits(c, c->rabits, l), 0, c->bpl);

	c->n.ra_wasted_bytes += (uint64_t)ra * c->bs;
	cache_hash_remove(c, l);
	memset(cache_bits(c, c->valid, l), 0, c->words * sizeof(uint64_t));
	memset(cache_bits(c, c->dirty, l), 0, c->words * sizeof(uint64_t));
	memset(cache_bits(c, c->rabits, l), 0, c->words * sizeof(uint64_t));
	memset(cache_bits(c, c->wtouch, l), 0, c->words * sizeof(uint64_t));
	memset(cache_bits(c, c->dtouch, l), 0, c->words * sizeof(uint64_t));
	memset(cache_bits(c, c->wtb, l), 0, c->words * sizeof(uint64_t));
	l->tag = CACHE_NO_TAG;
	l->nvalid = l->ndirty = 0;
	cache_list_move(c, l, CACHE_L_FREE);
}

struct cache_line *cache_alloc(struct cache *c, uint64_t tag)
{
	struct cache_line *l = NULL;
	uint32_t i, scanned = 0;

	if (c->head[CACHE_L_FREE] != CACHE_NONE) {
		l = &c->lines[c->head[CACHE_L_FREE]];
	} else {
		for (i = c->head[CACHE_L_CLEAN]; i != CACHE_NONE && scanned < CACHE_EVICT_SCAN;
		     i = c->lines[i].next, scanned++) {
			struct cache_line *v = &c->lines[i];
			if (!v->refs && v->busy == CACHE_BUSY_NONE && !v->waiters && !v->wt) {
				cache_evict(c, v);
				c->n.evictions++;
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
	l->hnext = c->hash[cache_hash(c, tag)];
	c->hash[cache_hash(c, tag)] = cache_idx(c, l);
	cache_list_move(c, l, CACHE_L_CLEAN);
	return l;
}

/* --- data in and out --- */

void cache_copy_in(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n,
                   const uint8_t *src, bool dirty, uint64_t seq)
{
	uint64_t *v = cache_bits(c, c->valid, l), *d = cache_bits(c, c->dirty, l);

	if (c->data && src)
		memcpy(cache_buf(c, l, b0), src, (size_t)n * c->bs);
	l->nvalid += n - cache_bits_count(v, b0, n);
	cache_bits_set(v, b0, n);
	cache_bits_clear(cache_bits(c, c->rabits, l), b0, n);
	l->wseq = seq;
	cache_bits_set(cache_bits(c, c->wtouch, l), b0, n);
	cache_bits_set(cache_bits(c, c->dtouch, l), b0, n);
	if (dirty) {
		uint32_t newly = n - cache_bits_count(d, b0, n);
		cache_bits_set(d, b0, n);
		if (!l->ndirty && newly) {
			l->dirty_since = seq;
			cache_list_move(c, l, CACHE_L_DIRTY);
		}
		l->ndirty += newly;
		c->n.dirty_blocks += newly;
		if (c->n.dirty_blocks > c->n.dirty_peak_blocks)
			c->n.dirty_peak_blocks = c->n.dirty_blocks;
	} else if (!l->ndirty) {
		cache_list_move(c, l, CACHE_L_CLEAN);
	}
}

void cache_clean(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n)
{
	uint64_t *d = cache_bits(c, c->dirty, l);
	uint32_t k = cache_bits_count(d, b0, n);

	if (!k)
		return;
	cache_bits_clear(d, b0, n);
	l->ndirty -= k;
	c->n.dirty_blocks -= k;
	if (!l->ndirty)
		cache_list_move(c, l, CACHE_L_CLEAN);
}

void cache_forget(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n)
{
	uint64_t *v = cache_bits(c, c->valid, l);

	cache_clean(c, l, b0, n);
	l->nvalid -= cache_bits_count(v, b0, n);
	cache_bits_clear(v, b0, n);
	cache_bits_clear(cache_bits(c, c->rabits, l), b0, n);
}

uint32_t cache_merge_read(struct cache *c, struct cache_line *l, uint32_t b0, uint32_t n,
                          uint8_t *buf, bool populate, bool ra)
{
	uint64_t *v = cache_bits(c, c->valid, l);
	uint32_t filled = 0, b = b0, end = b0 + n;

	while (b < end) {
		bool have = cache_bit(v, b);
		uint32_t e = b + 1;
		while (e < end && cache_bit(v, e) == have)
			e++;
		if (have) {
			if (c->data && buf)
				memcpy(buf + (size_t)(b - b0) * c->bs, cache_buf(c, l, b),
				       (size_t)(e - b) * c->bs);
		} else if (populate) {
			if (c->data && buf)
				memcpy(cache_buf(c, l, b), buf + (size_t)(b - b0) * c->bs,
				       (size_t)(e - b) * c->bs);
			cache_bits_set(v, b, e - b);
			if (ra)
				cache_bits_set(cache_bits(c, c->rabits, l), b, e - b);
			filled += e - b;
		}
		b = e;
	}
	l->nvalid += filled;
	return filled;
}

void cache_drop_all(struct cache *c)
{
	for (uint32_t i = 0; i < c->nlines; i++) {
		struct cache_line *l = &c->lines[i];
		if (l->list == CACHE_L_FREE)
			continue;
		cache_clean(c, l, 0, c->bpl);
		l->refs = l->wt = 0;
		l->busy = CACHE_BUSY_NONE;
		l->busy_n = 0;
		l->waiters = NULL;
		cache_evict(c, l);
	}
}
