/*
 * test_hist.c - the latency histogram and the throughput series.
 *
 * Histogram: the bucket layout is checked exhaustively (every bucket's
 * bounds map back to it, buckets are contiguous, every power-of-two edge),
 * the error bound is checked on every bucket, and percentiles are compared
 * with exact percentiles of sorted random samples from several
 * distributions and sizes: the answer must lie in the same bucket as the
 * exact value and within 1/256 of it (exact below 256).  Mean and standard
 * deviation are compared with a two-pass long double computation; merging
 * must equal adding every sample to one histogram.
 *
 * Series: interval assignment at the edges, growth past the reservation,
 * samples before the start, merge and its argument checks.
 *
 * Per-I/O log: times relative to the start, growth, a merge of two clones'
 * logs with different starts put in completion order (stable on ties), and
 * an off log that keeps nothing.
 *
 * All randomness is a fixed-seed splitmix64, so failures reproduce.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "stats/series.h"
#include "stats/unitlog.h"

#define LAST_BUCKET (ST_HIST_BUCKETS - 1)
#define TOP         (UINT64_C(1) << ST_HIST_MAX_BITS)

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static double rng_unit(void)
{
	return ((double)(rng() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)
{
	return sqrt(-2.0 * log(rng_unit())) * cos(2.0 * M_PI * rng_unit());
}

static struct st_hist *hist_new(void)
{
	struct st_hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	st_hist_init(h);
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Assert that @got is an acceptable report of the exact value @want. */
static void check_estimate(uint64_t got, uint64_t want)
{
	if (want < 2 * ST_HIST_SUB) {
		assert_int_equal(got, want);
		return;
	}
	assert_int_equal(st_hist_index(got), st_hist_index(want));
	uint64_t err = got > want ? got - want : want - got;
	if (err * (2 * ST_HIST_SUB) > want)
		fail_msg("estimate %llu of %llu is off by more than 1/%u", (unsigned long long)got,
		         (unsigned long long)want, 2 * ST_HIST_SUB);
}

/* ---- bucket layout ---- */

static void test_bucket_layout(void **state)
{
	(void)state;
	assert_int_equal(st_hist_bucket_lo(0), 0);
	assert_int_equal(st_hist_bucket_hi(LAST_BUCKET), TOP);
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++) {
		uint64_t lo = st_hist_bucket_lo(i), hi = st_hist_bucket_hi(i);
		assert_true(lo < hi);
		if (i > 0)
			assert_int_equal(lo, st_hist_bucket_hi(i - 1));
		uint64_t w = hi - lo;
		assert_int_equal(w & (w - 1), 0); /* a power of two */
		if (i < 2 * ST_HIST_SUB)
			assert_int_equal(w, 1);
		else
			assert_true(lo >= ST_HIST_SUB * w); /* the error bound rests on this */
		assert_int_equal(st_hist_index(lo), i);
		assert_int_equal(st_hist_index(hi - 1), i);
		assert_int_equal(st_hist_index(lo + w / 2), i);
		assert_int_equal(st_hist_index(lo + rng() % w), i);
		if (i < LAST_BUCKET)
			assert_int_equal(st_hist_index(hi), i + 1);
	}
}

static void test_index_small_exact(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 2 * ST_HIST_SUB; v++) {
		assert_int_equal(st_hist_index(v), v);
		assert_int_equal(st_hist_bucket_lo((unsigned)v), v);
		assert_int_equal(st_hist_bucket_hi((unsigned)v), v + 1);

		struct st_hist *h = hist_new();
		st_hist_add(h, v);
		assert_int_equal(st_hist_percentile(h, 50), v);
		assert_int_equal(h->buckets[v], 1);
		free(h);
	}
}

static void test_index_powers_of_two(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;
		uint64_t vals[] = {p - 1, p, p + 1};
		for (unsigned j = 0; j < 3; j++) {
			uint64_t v = vals[j];
			unsigned i = st_hist_index(v);
			assert_true(i < ST_HIST_BUCKETS);
			if (v < TOP) {
				assert_true(st_hist_bucket_lo(i) <= v);
				assert_true(v < st_hist_bucket_hi(i));
			} else {
				assert_int_equal(i, LAST_BUCKET);
			}
		}
		/* 2^k starts a bucket (and a group from 2^SUB_BITS up) */
		if (p < TOP)
			assert_int_equal(st_hist_bucket_lo(st_hist_index(p)), p);
		if (k >= ST_HIST_SUB_BITS && p < TOP)
			assert_int_equal(st_hist_index(p) % ST_HIST_SUB, 0);
	}
	assert_int_equal(st_hist_index(TOP - 1), LAST_BUCKET);
	assert_int_equal(st_hist_index(TOP), LAST_BUCKET);
	assert_int_equal(st_hist_index(UINT64_MAX), LAST_BUCKET);
}

/* Every bucket's reported value is inside it and within 1/256 of both ends. */
static void test_relative_error_bound(void **state)
{
	(void)state;
	struct st_hist *h = hist_new();
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++) {
		uint64_t lo = st_hist_bucket_lo(i), hi = st_hist_bucket_hi(i);
		st_hist_init(h);
		st_hist_add(h, lo);
		st_hist_add(h, hi - 1);
		uint64_t mid = st_hist_percentile(h, 50);
		assert_true(mid >= lo && mid < hi);
		check_estimate(mid, lo);
		check_estimate(mid, hi - 1);
		check_estimate(st_hist_percentile(h, 100), hi - 1);
	}
	free(h);
}

static void test_empty(void **state)
{
	(void)state;
	struct st_hist *h = hist_new();
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	for (unsigned i = 0; i < ST_HIST_BUCKETS; i++)
		assert_int_equal(h->buckets[i], 0);
	assert_int_equal(st_hist_percentile(h, 50), 0);
	assert_int_equal(st_hist_percentile(h, 100), 0);
	assert_int_equal(st_hist_percentile(h, 0.001), 0);
	assert_true(st_hist_mean(h) == 0.0);
	assert_true(st_hist_stddev(h) == 0.0);

	/* empty + empty stays empty */
	struct st_hist *e = hist_new();
	st_hist_merge(h, e);
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(st_hist_percentile(h, 99), 0);

	/* empty into non-empty changes nothing, and vice versa */
	st_hist_add(h, 1000);
	st_hist_merge(h, e);
	assert_int_equal(h->count, 1);
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, 1000);
	st_hist_merge(e, h);
	assert_int_equal(e->count, 1);
	assert_int_equal(e->min, 1000);
	assert_int_equal(e->max, 1000);
	assert_int_equal(st_hist_percentile(e, 50), 1000);
	assert_true(st_hist_stddev(e) == 0.0);
	assert_true(st_hist_mean(e) == 1000.0);
	free(h);
	free(e);
}

/* Values at and beyond 2^MAX_BITS land in the last bucket; reports stay in [min, max]. */
static void test_overflow(void **state)
{
	(void)state;
	struct st_hist *h = hist_new();
	st_hist_add(h, TOP);
	st_hist_add(h, UINT64_MAX);
	assert_int_equal(h->buckets[LAST_BUCKET], 2);
	assert_int_equal(h->min, TOP);
	assert_int_equal(h->max, UINT64_MAX);
	uint64_t v = st_hist_percentile(h, 100);
	assert_true(v >= TOP && v <= UINT64_MAX);
	assert_int_equal(st_hist_percentile(h, 50), TOP); /* clamped up to min */
	free(h);
}

/* p outside (0, 100] is clamped; NaN counts as the bottom. */
static void test_percentile_args(void **state)
{
	(void)state;
	struct st_hist *h = hist_new();
	for (uint64_t v = 10; v <= 200; v += 10)
		st_hist_add(h, v);
	assert_int_equal(st_hist_percentile(h, 0), 10);
	assert_int_equal(st_hist_percentile(h, -5), 10);
	assert_int_equal(st_hist_percentile(h, NAN), 10);
	assert_int_equal(st_hist_percentile(h, 1e-9), 10);
	assert_int_equal(st_hist_percentile(h, 5), 10);
	assert_int_equal(st_hist_percentile(h, 5.0001), 20);
	assert_int_equal(st_hist_percentile(h, 50), 100);
	assert_int_equal(st_hist_percentile(h, 100), 200);
	assert_int_equal(st_hist_percentile(h, 1000), 200);
	assert_int_equal(st_hist_percentile(h, INFINITY), 200);
	free(h);
}

/*
 * Decimal percentiles land on the intended rank: with n distinct exact
 * values, p = k / scale must give rank ceil(k * n / (100 * scale)), computed
 * here in integers (e.g. p = 0.57 * 100 is 56.99999999999999 in doubles and
 * p = 99.9 of 1000 is 999.0000000000001).
 */
static void test_percentile_decimal_ranks(void **state)
{
	(void)state;
	static const struct {
		uint64_t n, scale;
	} cases[] = {{100, 1}, {200, 10}, {250, 100}, {255, 1000}, {7, 100}};
	struct st_hist *h = hist_new();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t n = cases[c].n, scale = cases[c].scale;
		st_hist_init(h);
		for (uint64_t v = 0; v < n; v++)
			st_hist_add(h, v); /* values 0..n-1, all exact */
		for (uint64_t k = 1; k <= 100 * scale; k++) {
			uint64_t rank = (k * n + 100 * scale - 1) / (100 * scale);
			if (rank < 1)
				rank = 1;
			uint64_t got = st_hist_percentile(h, (double)k / (double)scale);
			if (got != rank - 1)
				fail_msg("n=%llu p=%llu/%llu: got %llu, want %llu",
				         (unsigned long long)n, (unsigned long long)k,
				         (unsigned long long)scale, (unsigned long long)got,
				         (unsigned long long)(rank - 1));
		}
	}
	free(h);
}

/* ---- random samples against exact statistics ---- */

enum dist { D_UNIFORM, D_UNIFORM_SMALL, D_EXP, D_LOGNORMAL, D_BIMODAL, D_LOGUNIFORM, D_COUNT };

static const char *const dist_name[D_COUNT] = {"uniform",   "uniform-small", "exponential",
                                               "lognormal", "bimodal",       "log-uniform"};

static uint64_t sample(enum dist d)
{
	switch (d) {
	case D_UNIFORM:
		return rng() % 1000001;
	case D_UNIFORM_SMALL:
		return rng() % 400;
	case D_EXP:
		return (uint64_t)(-100000.0 * log(rng_unit()));
	case D_LOGNORMAL:
		return (uint64_t)exp(log(50000.0) + 1.5 * rng_normal());
	case D_BIMODAL:
		if (rng() % 10 == 0)
			return (uint64_t)(5e6 + 5e5 * rng_normal() + 0.5);
		return (uint64_t)(20000.0 + 2000.0 * rng_normal() + 0.5);
	case D_LOGUNIFORM:
		return rng() >> (64 - ST_HIST_MAX_BITS + rng() % ST_HIST_MAX_BITS);
	default:
		return 0;
	}
}

/* p in thousandths of a percent, so the exact rank is integer arithmetic */
static const uint64_t pct_milli[] = {1,     1000,  5000,  10000, 25000, 50000, 75000, 90000,
                                     95000, 99000, 99500, 99900, 99990, 99999, 100000};

static void check_against_exact(const struct st_hist *h, uint64_t *v, size_t n, const char *what)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);

	for (size_t j = 0; j < sizeof(pct_milli) / sizeof(pct_milli[0]); j++) {
		uint64_t rank = (pct_milli[j] * n + 99999) / 100000;
		if (rank < 1)
			rank = 1;
		uint64_t want = v[rank - 1];
		uint64_t got = st_hist_percentile(h, (double)pct_milli[j] / 1000.0);
		assert_true(got >= h->min && got <= h->max);
		uint64_t err = got > want ? got - want : want - got;
		if ((want < 2 * ST_HIST_SUB && err != 0) || err * (2 * ST_HIST_SUB) > want ||
		    st_hist_index(got) != st_hist_index(want))
			fail_msg("%s n=%zu p=%.3f: got %llu, exact %llu", what, n,
			         (double)pct_milli[j] / 1000.0, (unsigned long long)got,
			         (unsigned long long)want);
	}

	long double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	long double var = sq / n;

	double m = st_hist_mean(h), sd = st_hist_stddev(h);
	if (fabsl(m - mean) > 1e-12L * mean)
		fail_msg("%s n=%zu: mean %.6f, exact %.6Lf", what, n, m, mean);
	/* the one-pass variance loses about n * eps of mean^2 */
	long double var_tol = 1e-9L * (mean * mean + var);
	if (fabsl((long double)sd * sd - var) > var_tol)
		fail_msg("%s n=%zu: stddev %.6f, exact %.6Lf", what, n, sd, sqrtl(var));
	assert_false(isnan(sd));
}

static void test_random_percentiles(void **state)
{
	(void)state;
	static const size_t sizes[] = {1, 2, 10, 1000, 100000};
	uint64_t *v = malloc(100000 * sizeof(*v));
	assert_non_null(v);
	struct st_hist *h = hist_new();

	for (int d = 0; d < D_COUNT; d++) {
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			size_t n = sizes[s];
			st_hist_init(h);
			for (size_t i = 0; i < n; i++) {
				v[i] = sample((enum dist)d);
				st_hist_add(h, v[i]);
			}
			check_against_exact(h, v, n, dist_name[d]);
		}
	}
	free(h);
	free(v);
}

static void test_stddev_constant(void **state)
{
	(void)state;
	struct st_hist *h = hist_new();
	const uint64_t vals[] = {0, 1, 1000, 123456789, 999999937, TOP - 1};
	for (size_t j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
		st_hist_init(h);
		for (int i = 0; i < 100000; i++)
			st_hist_add(h, vals[j]);
		double sd = st_hist_stddev(h);
		assert_false(isnan(sd));
		assert_true(sd >= 0.0);
		assert_true(sd <= 1e-6 * (double)vals[j]);
		assert_true(fabs(st_hist_mean(h) - (double)vals[j]) <= 1e-12 * (double)vals[j]);
		assert_int_equal(st_hist_percentile(h, 50), vals[j]); /* clamped */
	}
	/* two values: population stddev is half the distance */
	st_hist_init(h);
	st_hist_add(h, 100);
	st_hist_add(h, 300);
	assert_true(fabs(st_hist_stddev(h) - 100.0) < 1e-9);
	assert_true(fabs(st_hist_mean(h) - 200.0) < 1e-9);
	free(h);
}

static void test_merge(void **state)
{
	(void)state;
	struct st_hist *all = hist_new();
	struct st_hist *part[3] = {hist_new(), hist_new(), hist_new()};
	for (int i = 0; i < 200000; i++) {
		uint64_t x = sample((enum dist)(rng() % D_COUNT));
		st_hist_add(all, x);
		st_hist_add(part[rng() % 3], x);
	}
	struct st_hist *m = hist_new();
	for (int k = 0; k < 3; k++)
		st_hist_merge(m, part[k]);

	assert_int_equal(m->count, all->count);
	assert_int_equal(m->min, all->min);
	assert_int_equal(m->max, all->max);
	assert_memory_equal(m->buckets, all->buckets, sizeof(all->buckets));
	assert_true(fabs(m->sum - all->sum) <= 1e-12 * all->sum);
	assert_true(fabs(m->sumsq - all->sumsq) <= 1e-12 * all->sumsq);
	for (size_t j = 0; j < sizeof(pct_milli) / sizeof(pct_milli[0]); j++) {
		double p = (double)pct_milli[j] / 1000.0;
		assert_int_equal(st_hist_percentile(m, p), st_hist_percentile(all, p));
	}
	assert_true(fabs(st_hist_mean(m) - st_hist_mean(all)) <= 1e-9 * st_hist_mean(all));
	assert_true(fabs(st_hist_stddev(m) - st_hist_stddev(all)) <= 1e-6 * st_hist_stddev(all));

	for (int k = 0; k < 3; k++)
		free(part[k]);
	free(m);
	free(all);
}

/* ---- series ---- */

static void test_series_init(void **state)
{
	(void)state;
	struct st_series s;
	assert_int_equal(st_series_init(&s, 0, 0, 10), -EINVAL);
	st_series_free(&s);

	assert_int_equal(st_series_init(&s, 1000, 5, 10), 0);
	assert_int_equal(s.interval_ns, 1000);
	assert_int_equal(s.start_ns, 5);
	assert_int_equal(s.n, 0);
	assert_true(s.cap >= 10);
	for (size_t i = 0; i < s.cap; i++)
		assert_true(s.bytes[i] == 0 && s.ios[i] == 0);
	st_series_free(&s);
	st_series_free(&s); /* twice is fine */

	/* no reservation: the first sample allocates */
	assert_int_equal(st_series_init(&s, 1000, 0, 0), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(st_series_add(&s, 2500, 4096), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bytes[2], 4096);
	assert_int_equal(s.ios[2], 1);
	assert_int_equal(s.bytes[0] + s.bytes[1] + s.ios[0] + s.ios[1], 0);
	st_series_free(&s);

	/* reserved before its start is known, dated later: no allocation then */
	assert_int_equal(st_series_init(&s, 1000, 0, 8), 0);
	uint64_t *room = s.bytes;
	st_series_start(&s, 50000);
	assert_int_equal(s.start_ns, 50000);
	assert_int_equal(st_series_add(&s, 51500, 512), 0);
	assert_ptr_equal(s.bytes, room);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.bytes[1], 512);
	assert_int_equal(s.bytes[0], 0);
	st_series_free(&s);
}

static void test_series_intervals(void **state)
{
	(void)state;
	struct st_series s;
	assert_int_equal(st_series_init(&s, 100, 1000, 16), 0);

	assert_int_equal(st_series_add(&s, 1000, 1), 0); /* first ns of interval 0 */
	assert_int_equal(st_series_add(&s, 1099, 2), 0); /* last ns of interval 0 */
	assert_int_equal(s.n, 1);
	assert_int_equal(st_series_add(&s, 1100, 4), 0); /* interval 1 */
	assert_int_equal(st_series_add(&s, 1999, 8), 0); /* interval 9 */
	assert_int_equal(st_series_add(&s, 1150, 16), 0);
	assert_int_equal(s.n, 10);

	assert_int_equal(s.bytes[0], 3);
	assert_int_equal(s.ios[0], 2);
	assert_int_equal(s.bytes[1], 20);
	assert_int_equal(s.ios[1], 2);
	assert_int_equal(s.bytes[9], 8);
	assert_int_equal(s.ios[9], 1);
	for (size_t i = 2; i < 9; i++)
		assert_true(s.bytes[i] == 0 && s.ios[i] == 0);

	/* before the start: ignored, not an error */
	assert_int_equal(st_series_add(&s, 999, 1 << 20), 0);
	assert_int_equal(st_series_add(&s, 0, 1 << 20), 0);
	assert_int_equal(s.n, 10);
	uint64_t tb = 0, ti = 0;
	for (size_t i = 0; i < s.cap; i++) {
		tb += s.bytes[i];
		ti += s.ios[i];
	}
	assert_int_equal(tb, 31);
	assert_int_equal(ti, 5);
	st_series_free(&s);
}

static void test_series_growth(void **state)
{
	(void)state;
	struct st_series s;
	assert_int_equal(st_series_init(&s, 10, 0, 4), 0);
	size_t cap0 = s.cap;
	for (uint64_t i = 0; i < 4; i++)
		assert_int_equal(st_series_add(&s, i * 10 + 3, 100 + i), 0);
	assert_int_equal(s.cap, cap0);

	assert_int_equal(st_series_add(&s, 1000 * 10, 7), 0); /* far past the reservation */
	assert_int_equal(s.n, 1001);
	assert_true(s.cap >= 1001);
	assert_int_equal(st_series_add(&s, 5000 * 10 + 9, 9), 0);
	assert_int_equal(s.n, 5001);
	assert_true(s.cap >= 5001);

	for (uint64_t i = 0; i < 4; i++) {
		assert_int_equal(s.bytes[i], 100 + i);
		assert_int_equal(s.ios[i], 1);
	}
	for (size_t i = 4; i < s.cap; i++) {
		uint64_t want_b = i == 1000 ? 7 : i == 5000 ? 9 : 0;
		assert_int_equal(s.bytes[i], want_b);
		assert_int_equal(s.ios[i], want_b ? 1 : 0);
	}
	st_series_free(&s);

	/* one interval at a time, from a tiny reservation: doubling keeps it cheap */
	assert_int_equal(st_series_init(&s, 1, 0, 1), 0);
	for (uint64_t t = 0; t < 1000000; t++)
		assert_int_equal(st_series_add(&s, t, t & 0xff), 0);
	assert_int_equal(s.n, 1000000);
	for (size_t i = 0; i < s.n; i++)
		assert_true(s.bytes[i] == (i & 0xff) && s.ios[i] == 1);
	st_series_free(&s);
}

static void test_series_merge(void **state)
{
	(void)state;
	struct st_series a, b;
	assert_int_equal(st_series_init(&a, 100, 1000, 2), 0);
	assert_int_equal(st_series_init(&b, 100, 1050, 2), 0); /* starts 50 ns later */

	assert_int_equal(st_series_add(&a, 1000, 1), 0);
	assert_int_equal(st_series_add(&a, 1250, 2), 0);
	assert_int_equal(st_series_add(&b, 1050, 10), 0);
	assert_int_equal(st_series_add(&b, 1060, 10), 0);
	assert_int_equal(st_series_add(&b, 1050 + 100 * 40, 30), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(b.n, 41);

	assert_int_equal(st_series_merge(&a, &b), 0);
	assert_int_equal(a.n, 41);
	assert_true(a.cap >= 41);
	assert_int_equal(a.bytes[0], 21);
	assert_int_equal(a.ios[0], 3);
	assert_int_equal(a.bytes[2], 2);
	assert_int_equal(a.ios[2], 1);
	assert_int_equal(a.bytes[40], 30);
	assert_int_equal(a.ios[40], 1);
	for (size_t i = 3; i < 40; i++)
		assert_true(a.bytes[i] == 0 && a.ios[i] == 0);
	assert_int_equal(a.bytes[1], 0);
	/* src unchanged */
	assert_int_equal(b.n, 41);
	assert_int_equal(b.bytes[0], 20);

	/* a longer dst keeps its tail */
	assert_int_equal(st_series_add(&a, 1000 + 100 * 60, 5), 0);
	assert_int_equal(st_series_merge(&a, &b), 0);
	assert_int_equal(a.n, 61);
	assert_int_equal(a.bytes[0], 41);
	assert_int_equal(a.bytes[40], 60);
	assert_int_equal(a.bytes[60], 5);

	/* empty src: nothing changes */
	struct st_series e;
	assert_int_equal(st_series_init(&e, 100, 1000, 0), 0);
	assert_int_equal(st_series_merge(&a, &e), 0);
	assert_int_equal(a.n, 61);
	/* empty dst takes src */
	assert_int_equal(st_series_merge(&e, &b), 0);
	assert_int_equal(e.n, 41);
	assert_int_equal(e.bytes[0], 20);
	assert_int_equal(e.bytes[40], 30);
	st_series_free(&e);

	/* mismatched intervals or starts too far apart */
	struct st_series c;
	assert_int_equal(st_series_init(&c, 200, 1000, 4), 0);
	assert_int_equal(st_series_merge(&a, &c), -EINVAL);
	st_series_free(&c);
	assert_int_equal(st_series_init(&c, 100, 1100, 4), 0);
	assert_int_equal(st_series_merge(&a, &c), -EINVAL);
	st_series_free(&c);
	assert_int_equal(st_series_init(&c, 100, 901, 4), 0);
	assert_int_equal(st_series_merge(&a, &c), 0);
	st_series_free(&c);
	assert_int_equal(a.n, 61);
	assert_int_equal(a.bytes[0], 41);

	st_series_free(&a);
	st_series_free(&b);
}

static void test_unitlog(void **state)
{
	struct st_unitlog a, b, off = {0};
	struct st_unit u = {.lat_ns = 10, .clat_ns = 7, .bs = 4096, .dir = 1};

	(void)state;
	st_unitlog_init(&a, 1000);
	st_unitlog_init(&b, 1500);
	for (uint64_t i = 0; i < 10000; i++) { /* past the first allocation */
		u.offset = i;
		assert_int_equal(st_unitlog_add(&a, 1000 + 2 * i, &u), 0);
	}
	u.offset = 77;
	assert_int_equal(st_unitlog_add(&b, 1500 + 1, &u), 0); /* at 501 since a's start */
	u.offset = 78;
	assert_int_equal(st_unitlog_add(&b, 1500 + 2, &u), 0); /* ties a's record 251 at 502 */
	assert_int_equal(st_unitlog_add(&off, 5, &u), 0);      /* off: nothing kept */
	assert_int_equal(off.n, 0);
	assert_int_equal(a.n, 10000);
	assert_int_equal(a.v[9999].t_ns, 19998);
	assert_int_equal(st_unitlog_merge(&a, &b), 0);
	assert_int_equal(a.n, 10002);
	st_unitlog_sort(&a);
	for (size_t i = 1; i < a.n; i++)
		assert_true(a.v[i - 1].t_ns <= a.v[i].t_ns);
	assert_int_equal(a.v[251].t_ns, 501);
	assert_int_equal(a.v[251].offset, 77);
	assert_int_equal(a.v[252].offset, 251); /* a's own record first on the tie */
	assert_int_equal(a.v[253].offset, 78);
	assert_int_equal(a.v[253].bs, 4096);
	st_unitlog_free(&a);
	st_unitlog_free(&b);
	st_unitlog_free(&a); /* twice is safe */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unitlog),
	    cmocka_unit_test(test_bucket_layout),
	    cmocka_unit_test(test_index_small_exact),
	    cmocka_unit_test(test_index_powers_of_two),
	    cmocka_unit_test(test_relative_error_bound),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_overflow),
	    cmocka_unit_test(test_percentile_args),
	    cmocka_unit_test(test_percentile_decimal_ranks),
	    cmocka_unit_test(test_random_percentiles),
	    cmocka_unit_test(test_stddev_constant),
	    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_series_init),
	    cmocka_unit_test(test_series_intervals),
	    cmocka_unit_test(test_series_growth),
	    cmocka_unit_test(test_series_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
