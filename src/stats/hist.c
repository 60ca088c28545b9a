/*
 * hist.c - log-linear latency histogram: everything off the hot path.
 *
 * Bucket layout (see hist.h): group 0 holds the values 0..SUB-1, one per
 * bucket; group g >= 1 holds [SUB << (g-1), SUB << g) in SUB buckets of width
 * 2^(g-1).  Group 1 therefore still has width-1 buckets, so every value below
 * 2 * SUB is recorded exactly.  The last bucket also absorbs every value of
 * 2^ST_HIST_MAX_BITS and above; its nominal upper bound stays 2^MAX_BITS.
 *
 * A bucket is reported as lo + width / 2.  Since lo >= SUB * width in every
 * group above 0, the reported value is within width / 2 <= lo / (2 * SUB) of
 * any value in the bucket: a relative error of at most 1 / 256 with 7 bits.
 * Clamping to the exact [min, max] never moves the answer away from the true
 * sample (which lies in [min, max] too) and makes one-sample histograms
 * exact.  Note p = 100 is the midpoint of max's bucket, not max itself; use
 * h->max for the exact maximum.
 *
 * Percentile ranks come from p given as a double, so p = 99.9 of 1000
 * samples is 999.0000000000001 in floating point; a rank within a few ulps
 * above an integer is taken as that integer, which is what the caller meant.
 *
 * Mean and standard deviation come from the running sums, not the buckets,
 * so they are exact up to double rounding.  The variance uses the one-pass
 * formula sumsq/n - mean^2, whose cancellation costs about n * 2^-52 of
 * mean^2; it is clamped at 0 so identical samples never give NaN.
 */
#include "stats/hist.h"

#include <float.h>
#include <math.h>
#include <string.h>

_Static_assert(ST_HIST_BUCKETS == (ST_HIST_MAX_BITS - ST_HIST_SUB_BITS + 1) * ST_HIST_SUB,
               "bucket count");
_Static_assert(ST_HIST_MAX_BITS < 63, "bucket bounds must fit in uint64_t");

void st_hist_init(struct st_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

uint64_t st_hist_bucket_lo(unsigned i)
{
	if (i >= ST_HIST_BUCKETS)
		return UINT64_C(1) << ST_HIST_MAX_BITS;
	if (i < ST_HIST_SUB)
		return i;
	unsigned group = i / ST_HIST_SUB;
	uint64_t sub = i % ST_HIST_SUB;
	return (ST_HIST_SUB + sub) << (group - 1);
}

uint64_t st_hist_bucket_hi(unsigned i)
{
	if (i >= ST_HIST_BUCKETS)
		return UINT64_C(1) << ST_HIST_MAX_BITS;
	if (i < ST_HIST_SUB)
		return (uint64_t)i + 1;
	unsigned group = i / ST_HIST_SUB;
	uint64_t sub = i % ST_HIST_SUB;
	return (ST_HIST_SUB + sub + 1) << (group - 1);
}

void st_hist_merge(struct st_hist *dst, const struct st_hist *src)
{
	if (src->count == 0)
		return;
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
}

/* 1-based rank of the sample at percentile p: ceil(p/100 * count) in [1, count]. */
static uint64_t percentile_rank(uint64_t count, double p)
{
	if (!(p > 0.0)) /* also NaN */
		return 1;
	if (p >= 100.0)
		return count;
	double x = p * (double)count / 100.0;
	/* forgive the few ulps by which a decimal p lands above an integer */
	double r = ceil(x - x * (8 * DBL_EPSILON));
	if (r < 1.0)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

uint64_t st_hist_percentile(const struct st_hist *h, double p)
{
	if (h->count == 0)
		return 0;
	uint64_t rank = percentile_rank(h->count, p);

	/* every sample lies in the buckets of min..max */
	unsigned first = st_hist_index(h->min), last = st_hist_index(h->max);
	unsigned i = first;
	uint64_t seen = 0;
	for (; i < last; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}

	uint64_t lo = st_hist_bucket_lo(i), hi = st_hist_bucket_hi(i);
	uint64_t v = lo + (hi - lo) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double st_hist_mean(const struct st_hist *h)
{
	if (h->count == 0)
		return 0.0;
	return h->sum / (double)h->count;
}

double st_hist_stddev(const struct st_hist *h)
{
	if (h->count == 0)
		return 0.0;
	double n = (double)h->count;
	double mean = h->sum / n;
	double var = h->sumsq / n - mean * mean;
	if (!(var > 0.0)) /* rounding, or a NaN from overflowed sums */
		return 0.0;
	return sqrt(var);
}
