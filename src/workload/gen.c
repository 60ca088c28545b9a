/*
 * gen.c - offsets, sizes and directions for a worker; see gen.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "workload/gen.h"

static uint64_t gen_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = gen_splitmix(&x);
}

/* --- the random map: a keyed Feistel bijection (gen.h) --- */

void wl_perm_init(struct wl_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;
	uint64_t x = seed ^ 0x5851f42d4c957f2dull, a;

	while (bits < 64 && (1ull << bits) < n)
		bits++;
	memset(p, 0, sizeof(*p));
	p->n = n;
	p->half = (bits + 1) / 2;
	p->mask = (1ull << p->half) - 1;
	p->pow4 = n == 1ull << (2 * p->half);
	for (int i = 0; i < 4; i++)
		p->keys[i] = gen_splitmix(&x);
	a = (uint64_t)sqrtl((long double)n);
	while (a * a < n)
		a++;
	while (a > 1 && (a - 1) * (a - 1) >= n)
		a--;
	p->a = a ? a : 1;
	p->b = (n + p->a - 1) / p->a;
	if (!p->b)
		p->b = 1;
}

static inline uint64_t perm_round(uint64_t v, uint64_t key)
{
	v ^= key;
	v *= 0xd6e8feb86659fd93ull;
	v ^= v >> 32;
	v *= 0xd6e8feb86659fd93ull;
	return v ^ (v >> 29);
}

/* The binary rounds on a domain of exactly n = 4^half values. */
static uint64_t perm_binary(const struct wl_perm *p, uint64_t x)
{
	uint64_t l = x >> p->half, r = x & p->mask;

	for (int k = 0; k < 4; k++) {
		uint64_t t = l ^ (perm_round(r, p->keys[k]) & p->mask);
		l = r;
		r = t;
	}
	return (l << p->half) | r;
}

/*
 * The mixed-radix rounds on (hi, lo) in [0, a) x [0, b): each adds a keyed
 * function of one digit to the other modulo that digit's radix and swaps
 * them, so the radices alternate and come back after an even number of
 * rounds.  The keyed value is brought into range by a multiply, not a
 * division.
 */
static uint64_t perm_mixed(const struct wl_perm *p, uint64_t hi, uint64_t lo)
{
	uint64_t l = hi, r = lo;

	for (int k = 0; k < 4; k++) {
		uint64_t m = k & 1 ? p->b : p->a;
		uint64_t f = (uint64_t)(((unsigned __int128)perm_round(r, p->keys[k]) * m) >> 64);
		uint64_t t = l + f;
		if (t >= m)
			t -= m;
		l = r;
		r = t;
	}
	return l * p->b + r;
}

uint64_t wl_perm_map(const struct wl_perm *p, uint64_t i)
{
	uint64_t x = i;

	if (p->pow4)
		return perm_binary(p, x);
	do /* cycle-walking: at most a - 1 of the a x b images lie past n */
		x = perm_mixed(p, x / p->b, x % p->b);
	while (x >= p->n);
	return x;
}

/*
 * The next WL_PERM_LANES counter values of the pass, mapped side by side:
 * each value's rounds are a chain of dependent multiplies, and eight
 * independent chains keep the multiplier busy where one would wait on
 * each result.  The values and their order are those of mapping the
 * counter one value at a time; images past n (mixed radices) are dropped.
 */
static void perm_fill(const struct wl_perm *p, struct wl_perm_pos *pos)
{
	uint64_t l[WL_PERM_LANES], r[WL_PERM_LANES];
	unsigned n = 0;

	for (unsigned j = 0; j < WL_PERM_LANES; j++) {
		if (p->pow4) {
			if (pos->lo >= p->n)
				pos->lo = 0; /* a new pass */
			l[j] = pos->lo >> p->half;
			r[j] = pos->lo++ & p->mask;
			continue;
		}
		if (pos->lo >= p->b) {
			pos->lo = 0;
			if (++pos->hi >= p->a)
				pos->hi = 0; /* a new pass */
		}
		l[j] = pos->hi;
		r[j] = pos->lo++;
	}
	for (int k = 0; k < 4; k++) {
		uint64_t m = k & 1 ? p->b : p->a;
		for (unsigned j = 0; j < WL_PERM_LANES; j++) {
			uint64_t t;
			if (p->pow4) {
				t = l[j] ^ (perm_round(r[j], p->keys[k]) & p->mask);
			} else {
				uint64_t v = perm_round(r[j], p->keys[k]);
				t = l[j] + (uint64_t)(((unsigned __int128)v * m) >> 64);
				t -= t >= m ? m : 0;
			}
			l[j] = r[j];
			r[j] = t;
		}
	}
	for (unsigned j = 0; j < WL_PERM_LANES; j++) {
		uint64_t x = p->pow4 ? (l[j] << p->half) | r[j] : l[j] * p->b + r[j];
		if (x < p->n)
			pos->ahead[n++] = x;
	}
	pos->nahead = n;
	pos->taken = 0;
}

uint64_t wl_perm_next(const struct wl_perm *p, struct wl_perm_pos *pos)
{
	while (pos->taken >= pos->nahead)
		perm_fill(p, pos);
	return pos->ahead[pos->taken++];
}

/* --- Zipf by rejection-inversion (Hoermann and Derflinger) on k = 1..n --- */

static double zipf_h(double x, double s)
{
	/* integral of t^-s: (x^(1-s) - 1) / (1 - s), log(x) at s = 1 */
	double lx = log(x);
	double a = (1.0 - s) * lx;

	return fabs(a) > 1e-8 ? expm1(a) / (1.0 - s) : lx * (1.0 + a / 2.0);
}

static double zipf_h_inv(double x, double s)
{
	double t = x * (1.0 - s);

	if (t < -1.0)
		t = -1.0;
	return fabs(t) > 1e-8 ? exp(log1p(t) / (1.0 - s)) : exp(x * (1.0 - t / 2.0));
}

static void gen_zipf_init(struct wl_gen *g, double s)
{
	double n = (double)g->nunits;

	g->zipf_hx0 = zipf_h(1.5, s) - 1.0;
	g->zipf_hn = zipf_h(n + 0.5, s);
	g->zipf_s = 2.0 - zipf_h_inv(zipf_h(2.5, s) - pow(2.0, -s), s);
}

static uint64_t gen_zipf_next(struct wl_gen *g)
{
	double s = g->job->dist_param;

	for (;;) {
		double u = g->zipf_hn + wl_rng_unit(&g->rng) * (g->zipf_hx0 - g->zipf_hn);
		double x = zipf_h_inv(u, s);
		double kd = floor(x + 0.5);
		if (kd < 1.0)
			kd = 1.0;
		if (kd > (double)g->nunits)
			kd = (double)g->nunits;
		if (kd - x <= g->zipf_s || u >= zipf_h(kd + 0.5, s) - pow(kd, -s))
			return (uint64_t)kd - 1;
	}
}

/* --- setup --- */

int wl_gen_init(struct wl_gen *g, const struct wl_job *job, uint64_t start, uint64_t len,
                uint32_t block, uint64_t seed)
{
	uint32_t minbs, maxbs;

	memset(g, 0, sizeof(*g));
	g->job = job;
	/*
	 * The map's block is the smallest size, except under verify: then the
	 * largest, so requests of mixed sizes never overlap and every written
	 * block can be checked.
	 */
	wl_job_bs_bounds(job, &minbs, &maxbs);
	uint32_t unit = job->verify ? maxbs : minbs;
	if (job->blockalign && wl_rw_is_random(job->rw))
		unit = (uint32_t)(job->blockalign < UINT32_MAX ? job->blockalign : UINT32_MAX);
	if (unit < block)
		unit = block;
	unit = unit / block * block;
	g->unit = unit;
	g->region_start = start;
	/*
	 * Random patterns work in whole map blocks; sequential ones in device
	 * blocks, and with one block size in whole requests: fio ends a pass
	 * where the next request no longer fits rather than cutting it short
	 * (size=1m, bs=3k: 341 requests, 1047552 bytes).
	 */
	uint32_t seq = minbs == maxbs && minbs % block == 0 ? minbs : block;
	g->region_len = wl_rw_is_random(job->rw) ? len / unit * unit : len / seq * seq;
	g->nunits = g->region_len / unit;
	if (!g->nunits)
		return -EINVAL;
	wl_rng_seed(&g->rng, seed);
	wl_perm_init(&g->perm, g->nunits, seed * 0x2545f4914f6cdd1dull + 1);
	g->skip = job->rw_skip / (int64_t)block * (int64_t)block;
	if (job->dist == WL_DIST_ZONED || job->dist == WL_DIST_ZONED_ABS) {
		uint64_t at = 0;
		for (unsigned i = 0; i < job->nzones; i++) {
			uint64_t n;
			if (job->dist == WL_DIST_ZONED)
				n = job->zones[i].size_pct
				        ? g->nunits * job->zones[i].size_pct / 100
				        : g->nunits - at;
			else
				n = job->zones[i].size_bytes ? job->zones[i].size_bytes / unit
				                             : g->nunits - at;
			if (n > g->nunits - at)
				n = g->nunits - at;
			g->zone_start[i] = at;
			g->zone_n[i] = n;
			at += n;
		}
	}
	if (job->dist == WL_DIST_ZIPF)
		gen_zipf_init(g, job->dist_param);
	else if (job->dist == WL_DIST_PARETO)
		g->pareto_pow = log(job->dist_param) / log(1.0 - job->dist_param);
	return 0;
}

void wl_gen_rewind(struct wl_gen *g)
{
	memset(g->seq_pos, 0, sizeof(g->seq_pos));
	memset(&g->map_pos, 0, sizeof(g->map_pos));
	memset(g->szone_pos, 0, sizeof(g->szone_pos));
	g->szone_base = g->szone_bytes = 0;
	g->run_left = 0;
}

enum rl_op wl_gen_op(struct wl_gen *g)
{
	switch (g->job->rw) {
	case WL_RW_READ:
	case WL_RW_RANDREAD:
		return RL_OP_READ;
	case WL_RW_WRITE:
	case WL_RW_RANDWRITE:
		return RL_OP_WRITE;
	case WL_RW_TRIM:
	case WL_RW_RANDTRIM:
		return RL_OP_TRIM;
	case WL_RW_RW:
	case WL_RW_RANDRW:
		return wl_rng_below(&g->rng, 100) < g->job->rwmixread ? RL_OP_READ : RL_OP_WRITE;
	}
	return RL_OP_READ;
}

uint32_t wl_gen_len(struct wl_gen *g, enum rl_op op)
{
	unsigned n;
	const struct wl_bssplit *split = wl_job_bssplit(g->job, op < WL_GEN_DIRS ? op : 0, &n);

	if (!n)
		return g->job->bs;
	uint64_t r = wl_rng_below(&g->rng, 100);
	for (unsigned i = 0; i < n; i++) {
		if (r < split[i].pct)
			return split[i].bs;
		r -= split[i].pct;
	}
	return split[n - 1].bs;
}

/* Block number for a random pattern. */
static uint64_t gen_random_unit(struct wl_gen *g)
{
	const struct wl_job *job = g->job;

	switch (job->dist) {
	case WL_DIST_ZIPF:
		return wl_perm_map(&g->perm, gen_zipf_next(g));
	case WL_DIST_PARETO: {
		uint64_t k =
		    (uint64_t)((double)(g->nunits - 1) * pow(wl_rng_unit(&g->rng), g->pareto_pow));
		return wl_perm_map(&g->perm, k < g->nunits ? k : g->nunits - 1);
	}
	case WL_DIST_ZONED:
	case WL_DIST_ZONED_ABS: {
		uint64_t r = wl_rng_below(&g->rng, 100);
		for (unsigned i = 0; i < job->nzones; i++) {
			if (r < job->zones[i].access_pct) {
				if (!g->zone_n[i])
					break; /* an empty zone (tiny region): anywhere */
				return g->zone_start[i] + wl_rng_below(&g->rng, g->zone_n[i]);
			}
			r -= job->zones[i].access_pct;
		}
		return wl_rng_below(&g->rng, g->nunits);
	}
	case WL_DIST_RANDOM:
		break;
	}
	if (!wl_job_randmap(job))
		return wl_rng_below(&g->rng, g->nunits);
	return wl_perm_next(&g->perm, &g->map_pos);
}

/*
 * zonemode=strided (fio's): requests stay in the zone [base, base + zonerange)
 * until zonesize bytes went there, then the zone moves on by zonerange +
 * zoneskip, back to the region's start past its end.  In the zone, a
 * sequential pattern goes on from where it was (back to the zone's start
 * at its end).  A random one, under the random map (or lfsr), visits each
 * block of the zone once before any twice, as fio's map does: a pass of a
 * permutation of the zone's blocks, keyed anew for each zone; with
 * norandommap it picks any block.
 */
static uint64_t gen_strided(struct wl_gen *g, enum rl_op op, uint32_t *len)
{
	const struct wl_job *job = g->job;
	uint64_t range = job->zone_range ? job->zone_range : job->zone_size;

	if (g->szone_bytes >= job->zone_size) {
		g->szone_bytes = 0;
		g->szone_base += range + job->zone_skip;
		if (g->szone_base >= g->region_len)
			g->szone_base = 0;
		memset(g->szone_pos, 0, sizeof(g->szone_pos));
		g->szone_units = 0; /* a new zone: a new pass */
	}
	uint64_t zlen =
	    g->region_len - g->szone_base < range ? g->region_len - g->szone_base : range;
	uint64_t pos;
	if (wl_rw_is_random(job->rw)) {
		uint64_t units = zlen / g->unit ? zlen / g->unit : 1;
		if (!wl_job_randmap(job)) {
			pos = wl_rng_below(&g->rng, units) * g->unit;
		} else {
			if (g->szone_units != units) {
				wl_perm_init(&g->szone_perm, units, wl_rng_next(&g->rng) | 1);
				memset(&g->szone_ppos, 0, sizeof(g->szone_ppos));
				g->szone_units = units;
			}
			pos = wl_perm_next(&g->szone_perm, &g->szone_ppos) * g->unit;
		}
	} else {
		if (g->szone_pos[op] >= zlen)
			g->szone_pos[op] = 0;
		pos = g->szone_pos[op];
	}
	if (*len > zlen - pos)
		*len = (uint32_t)(zlen - pos);
	g->szone_pos[op] = pos + *len;
	g->szone_bytes += *len;
	return g->szone_base + pos;
}

uint64_t wl_gen_offset(struct wl_gen *g, enum rl_op op, uint32_t *len)
{
	uint64_t rel;

	if (g->job->zone_strided && g->job->zone_size)
		return g->region_start + gen_strided(g, op, len);

	bool random = wl_rw_is_random(g->job->rw);

	if (random && g->run_left && g->run_next < g->region_len) {
		rel = g->run_next; /* rw=randread:N: the run goes on */
		g->run_left--;
	} else if (random) {
		rel = gen_random_unit(g) * g->unit;
		g->run_left = g->job->rw_nr > 1 ? g->job->rw_nr - 1 : 0;
	} else {
		if (g->seq_pos[op] >= g->region_len)
			g->seq_pos[op] = 0;
		rel = g->seq_pos[op];
	}
	if (*len > g->region_len - rel)
		*len = (uint32_t)(g->region_len - rel);
	if (random) {
		g->run_next = rel + *len;
	} else {
		int64_t next = (int64_t)(rel + *len) + g->skip;
		while (next < 0)
			next += (int64_t)g->region_len; /* going back wraps to the end */
		g->seq_pos[op] = (uint64_t)next;
	}
	return g->region_start + rel;
}
