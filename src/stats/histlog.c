/*
 * histlog.c - per-interval latency histograms in fio's bins (histlog.h).
 *
 * The bin of a value: below 2^(BITS+1) the value itself; above, with msb
 * the top bit's position, the group is msb - BITS and the bin within it the
 * BITS bits under the top one -- fio's plat_val_to_idx, so fio's own tools
 * (fiologparser_hist.py) read the bins as they read fio's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/histlog.h"

unsigned st_histlog_bin(uint64_t ns)
{
	unsigned msb = ns ? 63u - (unsigned)__builtin_clzll(ns) : 0;

	if (msb <= ST_HISTLOG_BITS)
		return (unsigned)ns;
	unsigned err = msb - ST_HISTLOG_BITS;
	unsigned idx = ((err + 1) << ST_HISTLOG_BITS) +
	               (unsigned)((ns >> err) & ((1u << ST_HISTLOG_BITS) - 1));
	return idx < ST_HISTLOG_BINS ? idx : ST_HISTLOG_BINS - 1;
}

void st_histlog_init(struct st_histlog *h, uint64_t interval_ns, uint64_t start_ns)
{
	memset(h, 0, sizeof(*h));
	h->interval_ns = interval_ns;
	h->start_ns = start_ns;
}

/* Room for interval @k (zeroed). */
static int histlog_reserve(struct st_histlog *h, size_t k)
{
	if (k < h->cap)
		return 0;
	size_t cap = h->cap ? h->cap : 16;
	while (cap <= k)
		cap *= 2;
	uint32_t *c = realloc(h->counts, cap * ST_HISTLOG_BINS * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c + h->cap * ST_HISTLOG_BINS, 0, (cap - h->cap) * ST_HISTLOG_BINS * sizeof(*c));
	h->counts = c;
	h->cap = cap;
	return 0;
}

int st_histlog_add(struct st_histlog *h, uint64_t t_ns, uint64_t lat_ns)
{
	if (!h->interval_ns || t_ns < h->start_ns)
		return 0;
	size_t k = (size_t)((t_ns - h->start_ns) / h->interval_ns);
	if (histlog_reserve(h, k))
		return -ENOMEM;
	h->counts[k * ST_HISTLOG_BINS + st_histlog_bin(lat_ns)]++;
	if (k + 1 > h->n)
		h->n = k + 1;
	return 0;
}

int st_histlog_merge(struct st_histlog *dst, const struct st_histlog *src)
{
	if (!src->interval_ns || !src->n)
		return 0;
	if (!dst->interval_ns)
		st_histlog_init(dst, src->interval_ns, src->start_ns);
	if (histlog_reserve(dst, src->n - 1))
		return -ENOMEM;
	for (size_t i = 0; i < src->n * ST_HISTLOG_BINS; i++)
		dst->counts[i] += src->counts[i];
	if (src->n > dst->n)
		dst->n = src->n;
	return 0;
}

void st_histlog_free(struct st_histlog *h)
{
	free(h->counts);
	h->counts = NULL;
	h->n = h->cap = 0;
}
