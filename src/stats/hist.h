/*
 * hist.h - log-linear latency histogram.
 *
 * Values (nanoseconds) are binned like fio and HdrHistogram: values below
 * 2^ST_HIST_SUB_BITS get one bucket each; above that, every power-of-two
 * range [2^k, 2^(k+1)) is split into 2^ST_HIST_SUB_BITS equal buckets.  A
 * value is reported as its bucket's midpoint, so the relative error of any
 * percentile is at most 1 / 2^(ST_HIST_SUB_BITS + 1) (0.39 % with 7 bits).
 * The first power-of-two group, [2^SUB_BITS, 2^(SUB_BITS+1)), also has
 * width-1 buckets, so values below 256 are recorded exactly.
 * Values below 2^ST_HIST_MAX_BITS ns (about 73 minutes at 42 bits) are binned;
 * larger ones go to the last bucket (their percentiles are then only bounded
 * by the exact max).
 *
 * st_hist_add() is the hot path: a count-leading-zeros, a shift and an
 * increment, plus min/max/sum updates.  Histograms of threads and passes
 * are merged with st_hist_merge().
 */
#ifndef RL_STATS_HIST_H
#define RL_STATS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define ST_HIST_SUB_BITS 7
#define ST_HIST_SUB      (1u << ST_HIST_SUB_BITS)
#define ST_HIST_MAX_BITS 42
/* groups: one linear group for values < 2^SUB_BITS, then one per power of two above it */
#define ST_HIST_GROUPS  (ST_HIST_MAX_BITS - ST_HIST_SUB_BITS + 1)
#define ST_HIST_BUCKETS (ST_HIST_GROUPS * ST_HIST_SUB)

struct st_hist {
	uint64_t count;    /* samples */
	uint64_t min, max; /* exact extremes (min = UINT64_MAX when empty) */
	double sum;        /* sum of samples, for the mean */
	double sumsq;      /* sum of squares, for the standard deviation */
	uint64_t buckets[ST_HIST_BUCKETS];
};

void st_hist_init(struct st_hist *h);

/** Bucket index of @v. */
static inline unsigned st_hist_index(uint64_t v)
{
	if (v < ST_HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= ST_HIST_MAX_BITS)
		return ST_HIST_BUCKETS - 1;
	unsigned shift = msb - ST_HIST_SUB_BITS;
	/* group g = shift + 1 holds [2^msb, 2^(msb+1)) in SUB buckets */
	return (shift + 1) * ST_HIST_SUB + (unsigned)((v >> shift) - ST_HIST_SUB);
}

static inline void st_hist_add(struct st_hist *h, uint64_t v)
{
	h->buckets[st_hist_index(v)]++;
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	double d = (double)v;
	h->sum += d;
	h->sumsq += d * d;
}

/** Lowest value of bucket @i (i < ST_HIST_BUCKETS). */
uint64_t st_hist_bucket_lo(unsigned i);
/**
 * One past the highest value of bucket @i.  Buckets are contiguous:
 * hi(i) == lo(i + 1).  For the last bucket this is 2^ST_HIST_MAX_BITS, although
 * st_hist_index() also puts every larger value there.
 */
uint64_t st_hist_bucket_hi(unsigned i);

/** dst += src. */
void st_hist_merge(struct st_hist *dst, const struct st_hist *src);

/**
 * Value at percentile @p (0 < p <= 100): the midpoint of the bucket holding
 * the ceil(p/100 * count)-th smallest sample, clamped to [min, max].
 * 0 for an empty histogram.  p <= 0 gives the min bucket, p >= 100 the max.
 * A rank a few ulps above an integer counts as that integer (p = 99.9 of
 * 1000 samples is the 999th, not the 1000th).
 */
uint64_t st_hist_percentile(const struct st_hist *h, double p);

/** Exact mean of the samples (not of the buckets); 0 when empty. */
double st_hist_mean(const struct st_hist *h);
/** Population standard deviation, from the running sums; 0 when empty, never NaN. */
double st_hist_stddev(const struct st_hist *h);

#endif
