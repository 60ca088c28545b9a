/*
 * steady.c - the steady state of uniform random writes, set up directly.
 *
 * state=steady (precondition=analytic, the default) builds the state that
 * greedy, FIFO or random cleaning converges to under uniform random writes,
 * instead of simulating the writes that lead there (precond.c keeps that
 * path as precondition=simulated, to check this one against).
 *
 * Valid units per block (mean-field models; a unit is overwritten with
 * probability 1/U per host write, so a block with v valid units loses one
 * at rate v/U, and blocks enter full):
 *   greedy  the victim is the block with the fewest valid units, so in the
 *           limit of many blocks the population at level v is L/v for every
 *           level above the victim's, with L fixed by the number of closed
 *           blocks (WA = b / (b - victim level); b(H_b - H_x)/(b - x) = T/U,
 *           the finite-block form of the Lambert-W result);
 *   fifo    the block written k blocks ago holds b e^(-a k) (Lambert-W);
 *   random  a block leaves any level at the same rate, so the population
 *           obeys n_v (v + m) = n_(v+1) (v + 1), m fixed by the blocks.
 * The closed blocks take these levels by quantile (block i at the level
 * where the population above it reaches i + 1/2), and the counts are then
 * adjusted by single units to hold exactly the user units the main pool
 * holds.  A static SLC cache holds what its cycle leaves (st_slc), a
 * dynamic one is empty (a full drive leaves it no room), the free pool is
 * at the GC threshold.
 *
 * The mapping is implicit: nothing is written at creation.  A bijection
 * k = (lpn * mul + add) mod U orders the user units, the blocks hold
 * consecutive ranges of k (range i: [cum[i], cum[i+1])), and the j-th unit
 * of a range sits at offset (j * smul + soff_i) mod cap in its block, which
 * spreads the valid units evenly over the block's dies.  An l2p entry still
 * 0 means "at its home" (sim_steady_home); the first write of a unit stores
 * its new place as usual, and a block's p2l is written when it becomes a GC
 * victim (sim_steady_p2l).  So creation costs nothing per unit and memory
 * follows what the workload touches, as on a fresh drive.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

/*
 * Range i: its first k, its superblock, and the offset of its first unit
 * with the block's SLC mode in the top bit.  One record, so that a lookup
 * (sim_steady_home, on every first write of a unit) touches one line where
 * separate arrays cost a miss each; the next range's cum is beside it.
 */
struct st_range {
	uint64_t cum;
	uint32_t blk;
	uint32_t soff; /* offset | ST_SLC */
};
#define ST_SLC     0x80000000u
#define ST_SOFF(q) ((q)->soff & ~ST_SLC)

struct sim_steady {
	uint32_t nr;            /* ranges: blocks holding implicitly mapped units */
	struct st_range *r;     /* [nr + 1] the ranges (r[nr].cum = U) */
	uint32_t *range;        /* [nblocks] range of a superblock, SIM_NONE */
	uint32_t *idx;          /* [(U >> shift) + 1] range holding k = c << shift */
	uint32_t shift;         /* idx granularity */
	uint64_t mul, inv, add; /* k = (lpn * mul + add) mod U; inv = mul^-1 mod U */
	uint32_t smul[2];       /* slot step in a native [0] or SLC [1] block */
	uint32_t sinv[2];       /* its inverse modulo the block's units */
	uint64_t mU, mcap[2];   /* sim_magic of U and of the block's units (st_mod) */
};

/*
 * x mod d without a divide (sim_home runs on every host write of a unit
 * never written since): with m = sim_magic(d), x * m / 2^64 is floor(x / d)
 * or one more for any 64-bit x, and the remainder's sign tells which.
 */
static inline uint64_t st_mod(uint64_t x, uint64_t d, uint64_t m)
{
	uint64_t r;

	if (!m)
		return x % d;
	r = x - (uint64_t)(((unsigned __int128)x * m) >> 64) * d;
	return (int64_t)r < 0 ? r + d : r;
}

static uint64_t st_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Inverse of @a modulo @m (gcd(a, m) = 1); 0 when m is 1. */
static uint64_t st_inv(uint64_t a, uint64_t m)
{
	__int128 t = 0, nt = 1, r = (__int128)m, nr = (__int128)(a % m);

	if (m <= 1)
		return 0;
	while (nr) {
		__int128 q = r / nr, x;
		x = t - q * nt;
		t = nt;
		nt = x;
		x = r - q * nr;
		r = nr;
		nr = x;
	}
	return (uint64_t)(t < 0 ? t + (__int128)m : t);
}

/* A step near the golden section of @m, coprime with it (a well-spread sequence). */
static uint64_t st_step(uint64_t m)
{
	uint64_t s = (uint64_t)((double)m * 0.6180339887) | 1;

	if (m <= 2)
		return 1;
	while (st_gcd(s, m) != 1)
		s += 2;
	return s % m;
}

static uint32_t st_cap(const struct sim_dev *d, uint32_t b)
{
	return d->blk[b].slc ? d->g.b_slc : d->g.b;
}

uint32_t sim_steady_home(const struct sim_dev *d, uint64_t lpn)
{
	const struct sim_steady *s = d->lazy;
	uint64_t k = st_mod(lpn * s->mul + s->add, d->g.U, s->mU);
	uint32_t i = s->idx[k >> s->shift], slc, cap;
	const struct st_range *q;

	while (s->r[i + 1].cum <= k)
		i++;
	q = &s->r[i];
	slc = q->soff >> 31;
	cap = slc ? d->g.b_slc : d->g.b;
	return q->blk * d->g.b +
	       (uint32_t)st_mod((k - q->cum) * s->smul[slc] + ST_SOFF(q), cap, s->mcap[slc]);
}

uint32_t sim_steady_at(const struct sim_dev *d, uint64_t phys)
{
	const struct sim_steady *s = d->lazy;
	uint32_t b = sim_phys_blk(d, phys), i, slc, cap;
	uint64_t off, j, k;

	if (!s || !d->blk[b].lazy || (i = s->range[b]) == SIM_NONE)
		return SIM_NONE;
	slc = d->blk[b].slc;
	cap = slc ? d->g.b_slc : d->g.b;
	off = phys - (uint64_t)b * d->g.b;
	if (off >= cap)
		return SIM_NONE;
	j = (off + cap - ST_SOFF(&s->r[i])) % cap * s->sinv[slc] % cap;
	if (j >= s->r[i + 1].cum - s->r[i].cum)
		return SIM_NONE;
	k = s->r[i].cum + j;
	return (uint32_t)((k + d->g.U - s->add) % d->g.U * s->inv % d->g.U);
}

void sim_steady_p2l(struct sim_dev *d, uint32_t b)
{
	const struct sim_steady *s = d->lazy;
	uint32_t i = s->range[b], slc = d->blk[b].slc, cap = st_cap(d, b);
	uint64_t base = (uint64_t)b * d->g.b, U = d->g.U, n, off, lpn;

	d->blk[b].lazy = 2;
	for (uint32_t o = 0; o < cap; o++)
		d->p2l[base + o] = 0;
	if (i == SIM_NONE)
		return;
	n = s->r[i + 1].cum - s->r[i].cum;
	off = ST_SOFF(&s->r[i]);
	lpn = (s->r[i].cum + U - s->add) % U * s->inv % U;
	for (uint64_t j = 0; j < n; j++) {
		d->p2l[base + off] = (uint32_t)lpn + 1;
		off += s->smul[slc];
		if (off >= cap)
			off -= cap;
		lpn += s->inv;
		if (lpn >= U)
			lpn -= U;
	}
}

void sim_steady_free(struct sim_dev *d)
{
	struct sim_steady *s = d->lazy;

	if (!s)
		return;
	free(s->r);
	free(s->range);
	free(s->idx);
	free(s);
	d->lazy = NULL;
}

/* -------------------------------------------------- valid units per block */

/* Greedy: population L/v at level v; blocks, youngest first, by quantile. */
static uint64_t lv_greedy(double L, uint32_t nc, uint32_t b, uint32_t *v)
{
	double c = 0;
	uint32_t lev = b;
	uint64_t tot = 0;

	for (uint32_t i = 0; i < nc; i++) {
		while (lev > 0 && c + L / lev < i + 0.5)
			c += L / lev--;
		v[i] = lev;
		tot += lev;
	}
	return tot;
}

/* FIFO: the block written i blocks ago holds b e^(-a (i + 1/2)). */
static uint64_t lv_fifo(double a, uint32_t nc, uint32_t b, uint32_t *v)
{
	uint64_t tot = 0;

	for (uint32_t i = 0; i < nc; i++) {
		v[i] = (uint32_t)llround(b * exp(-a * (i + 0.5)));
		tot += v[i];
	}
	return tot;
}

/* Random: n_v (v + m) = n_(v+1) (v + 1), normalised to nc blocks, by quantile. */
static uint64_t lv_random(double m, uint32_t nc, uint32_t b, uint32_t *v, double *pop)
{
	double sum = 0, c = 0;
	uint32_t lev = b;
	uint64_t tot = 0;

	pop[b] = 1.0 / (b + m);
	for (uint32_t x = b; x-- > 0;)
		pop[x] = pop[x + 1] * (x + 1) / (x + m);
	for (uint32_t x = 0; x <= b; x++)
		sum += pop[x];
	for (uint32_t i = 0; i < nc; i++) {
		while (lev > 0 && c + pop[lev] * nc / sum < i + 0.5)
			c += pop[lev--] * nc / sum;
		v[i] = lev;
		tot += lev;
	}
	return tot;
}

/*
 * Valid units of the @nc closed blocks, youngest first, holding @M in all.
 * Each model has one parameter that moves the total monotonically: found by
 * bisection (in log space), then the rounding is spread by single units.
 */
static int st_levels(int policy, uint32_t nc, uint32_t b, uint64_t M, uint32_t *v)
{
	double lo = 1e-9, hi = 1e12, *pop = NULL;
	uint64_t tot = 0;
	int64_t diff;

	if (policy == SIM_GC_RANDOM && !(pop = malloc(((size_t)b + 1) * sizeof(*pop))))
		return -ENOMEM;
	for (int it = 0; it < 200; it++) {
		double x = sqrt(lo * hi);
		switch (policy) {
		case SIM_GC_FIFO:
			/* a larger decay rate holds less */
			tot = lv_fifo(1 / x, nc, b, v);
			break;
		case SIM_GC_RANDOM:
			tot = lv_random(x, nc, b, v, pop);
			break;
		default:
			tot = lv_greedy(x, nc, b, v);
			break;
		}
		if (tot < M)
			lo = x;
		else
			hi = x;
	}
	switch (policy) {
	case SIM_GC_FIFO:
		tot = lv_fifo(1 / hi, nc, b, v);
		break;
	case SIM_GC_RANDOM:
		tot = lv_random(hi, nc, b, v, pop);
		break;
	default:
		tot = lv_greedy(hi, nc, b, v);
		break;
	}
	free(pop);
	diff = (int64_t)M - (int64_t)tot;
	while (diff) {
		int64_t before = diff;
		for (uint32_t i = 0; i < nc && diff; i++) {
			if (diff > 0 && v[i] < b) {
				v[i]++;
				diff--;
			} else if (diff < 0 && v[i] > 0) {
				v[i]--;
				diff++;
			}
		}
		if (diff == before)
			return -EINVAL;
	}
	return 0;
}

/* ----------------------------------------------------------------- build */

/* An empty implicit mapping, hung on @d (sim_steady_free undoes it). */
static struct sim_steady *st_new(struct sim_dev *d)
{
	const struct sim_geo *g = &d->g;
	struct sim_steady *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	d->lazy = s;
	s->r = calloc((size_t)g->nblocks + 2, sizeof(*s->r));
	s->range = malloc((size_t)g->nblocks * sizeof(*s->range));
	if (!s->r || !s->range) {
		sim_steady_free(d);
		return NULL;
	}
	for (uint32_t b = 0; b < g->nblocks; b++)
		s->range[b] = SIM_NONE;
	return s;
}

/* Block @b holds @n implicitly mapped units from offset @soff on: range nr. */
static void st_range_add(struct sim_steady *s, struct sim_dev *d, uint32_t b, uint32_t n,
                         uint32_t soff)
{
	d->blk[b].lazy = 1;
	s->range[b] = s->nr;
	s->r[s->nr].blk = b;
	s->r[s->nr].soff = soff | (d->blk[b].slc ? ST_SLC : 0);
	s->r[s->nr + 1].cum = s->r[s->nr].cum + n;
	s->nr++;
}

/* The ranges are placed: k -> range in O(1), a table of the range at every 2^shift-th k. */
static int st_index(struct sim_dev *d, struct sim_steady *s)
{
	const struct sim_geo *g = &d->g;
	uint64_t nidx;

	s->shift = 0;
	while ((g->U >> (s->shift + 1)) >= 4ull * (s->nr + 1))
		s->shift++;
	nidx = (g->U >> s->shift) + 1;
	s->idx = malloc(nidx * sizeof(*s->idx));
	if (!s->idx)
		return -ENOMEM;
	for (uint64_t c = 0, i = 0; c < nidx; c++) {
		while (i + 1 < s->nr && s->r[i + 1].cum <= c << s->shift)
			i++;
		s->idx[c] = (uint32_t)i;
	}
	s->mU = g->U <= UINT32_MAX ? sim_magic((uint32_t)g->U) : 0;
	s->mcap[0] = sim_magic(g->b);
	s->mcap[1] = sim_magic(g->b_slc);
	return 0;
}

/* Close block @b as built: @n valid units, implicitly mapped to range n > 0. */
static void st_close(struct sim_dev *d, struct sim_steady *s, uint32_t b, uint32_t n)
{
	struct sim_blk *k = &d->blk[b];
	uint32_t cap = st_cap(d, b);

	k->wp = cap;
	k->valid = n;
	k->state = SIM_BLK_OPEN;
	if (!k->is_static)
		d->empty_units -= cap;
	if (n)
		st_range_add(s, d, b, n, (uint32_t)sim_rng_below(&d->rng, cap));
	sim_ftl_close(d, b);
}

/*
 * A static SLC cache under sustained random writes: its blocks are folded
 * only in idle time, so each one, once filled, loses its units to
 * overwrites (a unit lives e^(-t/U)) and is free again only when the last
 * one goes, after U H(b_slc) host writes on average; then the host fills
 * it again.  In the long run the blocks are spread evenly over that cycle:
 * block i of n holds b_slc e^(-H (i + 1/2) / n), oldest first.  Returns the units held;
 * with @s NULL only counts them.
 */
static uint64_t st_slc(struct sim_dev *d, struct sim_steady *s)
{
	const struct sim_geo *g = &d->g;
	double h = 0;
	uint64_t tot = 0;

	for (uint32_t x = 1; x <= g->b_slc; x++)
		h += 1.0 / x;
	for (uint32_t i = 0; i < g->nstatic; i++) {
		uint64_t n =
		    (uint64_t)llround(g->b_slc * exp(-h * (g->nstatic - i - 0.5) / g->nstatic));
		if (tot + n > g->U / 2)
			n = tot < g->U / 2 ? g->U / 2 - tot : 0;
		tot += n;
		if (s) {
			uint32_t b = sim_list_pop(d, &d->free_static);
			if (b == SIM_NONE)
				break;
			if (n)
				st_close(d, s, b, (uint32_t)n);
			else
				sim_list_push(d, &d->free_static, b);
		}
	}
	return tot;
}

int sim_steady_build(struct sim_dev *d, char *msg, size_t msglen)
{
	const struct sim_geo *g = &d->g;
	uint32_t nmain = g->nblocks - g->nstatic;
	uint32_t nc = nmain > g->gc_thresh + 1 ? nmain - g->gc_thresh - 1 : 0;
	uint64_t slc = (uint64_t)g->nstatic * g->b_slc, M;
	uint32_t *v = NULL;
	struct sim_steady *s;
	double vsum = 0;
	int rc = -ENOMEM;

	slc = st_slc(d, NULL);
	M = g->U - slc;
	if ((uint64_t)nc * g->b < M) {
		snprintf(msg, msglen, "steady state needs more spare area than the drive has");
		return -EINVAL;
	}
	if (!(s = st_new(d)))
		return -ENOMEM;
	v = malloc(((size_t)nc + 1) * sizeof(*v));
	if (!v)
		goto fail;
	if ((rc = st_levels(d->p.gc, nc, g->b, M, v))) {
		snprintf(msg, msglen, "steady state: cannot place %llu units in %u blocks",
		         (unsigned long long)M, nc);
		goto fail;
	}
	/* the static SLC cache, its blocks spread over their cycle */
	st_slc(d, s);
	/* the main pool, oldest first (the order of FIFO's list) */
	for (uint32_t i = nc; i-- > 0;) {
		st_close(d, s, sim_list_pop(d, &d->free_main), v[i]);
		vsum += v[i];
	}
	if (s->r[s->nr].cum != g->U) {
		snprintf(msg, msglen, "steady state construction placed %llu of %llu units",
		         (unsigned long long)s->r[s->nr].cum, (unsigned long long)g->U);
		rc = -EINVAL;
		goto fail;
	}
	if ((rc = st_index(d, s)))
		goto fail;
	s->mul = st_step(g->U);
	s->inv = st_inv(s->mul, g->U);
	s->add = sim_rng_below(&d->rng, g->U);
	s->smul[0] = (uint32_t)st_step(g->b);
	s->sinv[0] = (uint32_t)st_inv(s->smul[0], g->b);
	s->smul[1] = (uint32_t)st_step(g->b_slc);
	s->sinv[1] = (uint32_t)st_inv(s->smul[1], g->b_slc);
	d->valid_lpns = g->U;
	/* the model's own figure: greedy and fifo clean the least valid block, random any */
	if (nc) {
		double victim = d->p.gc == SIM_GC_RANDOM ? vsum / nc : v[nc - 1];
		d->precond_wa = victim < g->b ? g->b / (g->b - victim) : 0;
	}
	free(v);
	return 0;
fail:
	free(v);
	sim_steady_free(d);
	return rc;
}

/*
 * state=full: what a sequential fill of every user unit through the host
 * stream leaves (precond.c's fill, precondition=simulated), set up without
 * writing the tables.  The fill takes superblocks from the free pool in
 * its order and writes unit l at the l-th place of the stream, so the
 * ranges are the blocks in that order, k = lpn (mul 1, add 0) and the j-th
 * unit of a block at offset j (slot step 1).  Every block but the last is
 * closed full; the last stays the host stream's open block, its
 * incomplete program unit pending, as the fill leaves it, and its p2l is
 * written at once (one block), since the host appends to it.  Nothing is
 * drawn from the drive's random stream, as the fill draws nothing.
 * Returns 1 (and changes nothing) where the fill would have had to clean
 * on the way: the caller fills by writing.
 */
int sim_steady_build_full(struct sim_dev *d)
{
	const struct sim_geo *g = &d->g;
	struct sim_stream *hs = &d->stream[SIM_STREAM_HOST];
	uint64_t left = g->U, need = (g->U + g->b - 1) / g->b;
	struct sim_steady *s;
	int rc;

	/* each allocation must find the pool above the hard threshold */
	if (hs->blk != SIM_NONE || d->free_main.n < need ||
	    d->free_main.n - (need - 1) <= g->gc_hard)
		return 1;
	if (!(s = st_new(d)))
		return -ENOMEM;
	while (left) {
		uint32_t b = sim_ftl_alloc(d, SIM_STREAM_HOST, false);
		uint32_t n = left < g->b ? (uint32_t)left : g->b;
		struct sim_blk *k = &d->blk[b];

		k->wp = n;
		k->valid = n;
		d->empty_units -= n;
		st_range_add(s, d, b, n, 0);
		left -= n;
		if (n == g->b) {
			sim_ftl_close(d, b);
			continue;
		}
		hs->blk = b;
		if (n & (g->pu - 1))
			d->prog_end[((uint64_t)b * g->b + n) >> g->pu_shift] = SIM_PENDING;
	}
	if ((rc = st_index(d, s))) {
		sim_steady_free(d);
		return rc;
	}
	s->mul = s->inv = 1;
	s->add = 0;
	s->smul[0] = s->smul[1] = s->sinv[0] = s->sinv[1] = 1;
	d->valid_lpns = g->U;
	/* the open block takes the host's next writes with their own p2l
	   entries: its implicit ones are written now, not when it is a victim
	   (which would clear the block's p2l first) */
	if (hs->blk != SIM_NONE)
		sim_steady_p2l(d, hs->blk);
	return 0;
}
