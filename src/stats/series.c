/*
 * series.c - throughput time series.
 *
 * Two parallel arrays, bytes[] and ios[], indexed by interval number
 * (t - start) / interval.  st_series_init() reserves the expected number of
 * intervals so that st_series_add(), called once per completed I/O, normally
 * does a division, a compare and two increments.  A sample beyond the
 * reservation grows both arrays to at least double their size (amortised
 * O(1)); the new room is zeroed, so intervals with no completions read as 0.
 * n is the highest interval written + 1; intervals n..cap-1 are zero.
 *
 * Merging adds interval k of src to interval k of dst: threads start their
 * series at slightly different clock values (each at its own end of
 * ramp-up), and aligning by index is what the caller wants as long as the
 * starts are less than one interval apart, which st_series_merge() checks.
 */
#include "stats/series.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SERIES_MIN_CAP 16

/* Make room for at least @need intervals; new room is zeroed. */
static int series_reserve(struct st_series *s, size_t need)
{
	if (need <= s->cap)
		return 0;
	size_t cap = s->cap > SIZE_MAX / 2 ? SIZE_MAX : s->cap * 2;
	if (cap < need)
		cap = need;
	if (cap < SERIES_MIN_CAP)
		cap = SERIES_MIN_CAP;
	if (cap > SIZE_MAX / sizeof(uint64_t))
		return -ENOMEM;

	/* Grow one array at a time; a failure leaves the series consistent
	 * (an array larger than cap is harmless). */
	uint64_t *b = realloc(s->bytes, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	memset(b + s->cap, 0, (cap - s->cap) * sizeof(*b));
	s->bytes = b;

	uint64_t *io = realloc(s->ios, cap * sizeof(*io));
	if (!io)
		return -ENOMEM;
	memset(io + s->cap, 0, (cap - s->cap) * sizeof(*io));
	s->ios = io;

	s->cap = cap;
	return 0;
}

int st_series_init(struct st_series *s, uint64_t interval_ns, uint64_t start_ns, size_t expect)
{
	memset(s, 0, sizeof(*s));
	if (interval_ns == 0)
		return -EINVAL;
	s->interval_ns = interval_ns;
	s->start_ns = start_ns;
	int err = series_reserve(s, expect);
	if (err)
		st_series_free(s);
	return err;
}

void st_series_start(struct st_series *s, uint64_t start_ns)
{
	assert(s->n == 0);
	s->start_ns = start_ns;
}

void st_series_free(struct st_series *s)
{
	free(s->bytes);
	free(s->ios);
	s->bytes = NULL;
	s->ios = NULL;
	s->n = 0;
	s->cap = 0;
}

int st_series_add(struct st_series *s, uint64_t t_ns, uint64_t bytes)
{
	if (t_ns < s->start_ns)
		return 0;
	uint64_t idx = (t_ns - s->start_ns) / s->interval_ns;
	if (idx >= s->cap) {
		if (idx >= SIZE_MAX)
			return -ENOMEM;
		int err = series_reserve(s, (size_t)idx + 1);
		if (err)
			return err;
	}
	s->bytes[idx] += bytes;
	s->ios[idx]++;
	if (idx >= s->n)
		s->n = (size_t)idx + 1;
	return 0;
}

int st_series_merge(struct st_series *dst, const struct st_series *src)
{
	if (dst->interval_ns == 0 || dst->interval_ns != src->interval_ns)
		return -EINVAL;
	uint64_t skew = dst->start_ns > src->start_ns ? dst->start_ns - src->start_ns
	                                              : src->start_ns - dst->start_ns;
	if (skew >= dst->interval_ns)
		return -EINVAL;
	if (src->n == 0)
		return 0;
	int err = series_reserve(dst, src->n);
	if (err)
		return err;
	for (size_t i = 0; i < src->n; i++) {
		dst->bytes[i] += src->bytes[i];
		dst->ios[i] += src->ios[i];
	}
	if (src->n > dst->n)
		dst->n = src->n;
	return 0;
}
