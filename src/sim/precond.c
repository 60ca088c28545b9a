/*
 * precond.c - the drive's state at creation: fresh, full or steady.
 *
 * Preconditioning runs the FTL without timing (no resources reserved), so
 * it costs only mapping updates, and the run starts at simulated time 0 with
 * idle dies.
 *
 *   fresh   every block erased, nothing mapped (out of the box, or after a
 *           secure erase);
 *   full    every user unit written once, in order (a sequential fill);
 *   steady  set up directly by steady.c (precondition=analytic, the
 *           default); with precondition=simulated, as here: full, then
 *           uniform random overwrites until write amplification settles.
 *           Large drives would need billions of overwrites, so the
 *           overwrites start from the analytic steady state instead of a
 *           sequential fill: a unit written w host writes ago is still
 *           valid with probability e^(-w/U), so the closed blocks, oldest
 *           first, get valid fractions e^(-a k) with a chosen so that they
 *           hold exactly U units (the Lambert-W / FIFO steady state).  Then
 *           random overwrites run in windows of U/4 until two windows in a
 *           row agree within 0.5 %, at least U of them on drives of up to
 *           4M units (16 GiB), at most precond_writes (default 4U, and 4M
 *           on larger drives).  User units are scattered over the valid
 *           slots by an affine permutation, as on a drive that saw random
 *           writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "sim/sim.h"

static void precond_fill(struct sim_dev *d)
{
	for (uint64_t l = 0; l < d->g.U; l++) {
		sim_ftl_append(d, SIM_STREAM_HOST, (uint32_t)l, 0);
		d->valid_lpns++;
	}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Valid units in the closed blocks for decay rate @a (k = 0 youngest). */
static double precond_mass(double a, uint32_t nc, uint32_t b)
{
	double s = 0;

	for (uint32_t k = 0; k < nc; k++)
		s += exp(-a * (k + 0.5));
	return s * b;
}

static int precond_analytic(struct sim_dev *d, char *msg, size_t msglen)
{
	const struct sim_geo *g = &d->g;
	uint32_t nmain = g->nblocks - g->nstatic;
	uint32_t nc = nmain - g->gc_thresh - 1;
	double lo = 0, hi = 1, a, cum = 0, scale;
	uint64_t assigned = 0, next = 0, mult, add;

	if ((uint64_t)nc * g->b < g->U) {
		snprintf(msg, msglen, "steady state needs more spare area than the drive has");
		return -EINVAL;
	}
	while (precond_mass(hi, nc, g->b) > (double)g->U)
		hi *= 2;
	for (int i = 0; i < 100; i++) {
		a = (lo + hi) / 2;
		if (precond_mass(a, nc, g->b) > (double)g->U)
			lo = a;
		else
			hi = a;
	}
	a = (lo + hi) / 2;
	scale = (double)g->U / precond_mass(a, nc, g->b);
	/* an affine permutation of [0, U) */
	mult = (uint64_t)((double)g->U * 0.6180339887) | 1;
	while (gcd64(mult, g->U) != 1)
		mult += 2;
	add = sim_rng_below(&d->rng, g->U);
	for (uint32_t i = 0; i < nc; i++) {
		uint32_t blk = sim_list_pop(d, &d->free_main);
		uint32_t k = nc - 1 - i; /* oldest first */
		struct sim_blk *bk = &d->blk[blk];
		uint64_t target, want, left;

		cum += exp(-a * (k + 0.5)) * g->b * scale;
		target = i == nc - 1 ? g->U : (uint64_t)llround(cum);
		if (target > g->U)
			target = g->U;
		want = target - assigned;
		if (want > g->b)
			want = g->b;
		left = g->b;
		/* selection sampling: exactly `want` of the b slots, uniformly */
		for (uint32_t off = 0; off < g->b; off++, left--) {
			if (want && sim_rng_below(&d->rng, left) < want) {
				uint32_t lpn = (uint32_t)((next * mult + add) % g->U);
				uint32_t phys = blk * g->b + off;
				d->p2l[phys] = lpn + 1;
				sim_l2p_set(d, lpn, phys);
				next++;
				want--;
				bk->valid++;
			}
		}
		assigned += bk->valid;
		bk->wp = g->b;
		bk->state = SIM_BLK_OPEN;
		d->empty_units -= g->b;
		sim_ftl_close(d, blk);
	}
	d->valid_lpns = assigned;
	if (assigned != g->U) {
		snprintf(msg, msglen, "steady state construction placed %llu of %llu units",
		         (unsigned long long)assigned, (unsigned long long)g->U);
		return -EINVAL;
	}
	return 0;
}

static double precond_wa(const struct sim_dev *d, uint64_t prog0, uint64_t host0)
{
	uint64_t h = d->c.host_units - host0;
	return h ? (double)(d->c.nand_prog_units - prog0) / (double)h : 0;
}

static void precond_settle(struct sim_dev *d)
{
	uint64_t U = d->g.U;
	uint64_t max =
	    d->p.precond_writes ? d->p.precond_writes : (U <= (4u << 20) ? 4 * U : (4u << 20));
	uint64_t min = U <= (4u << 20) ? U : 0;
	uint64_t win = U / 4 > 1024 ? U / 4 : 1024, done = 0;
	double prev = 0;
	int agree = 0;

	if (min > max)
		min = max;
	while (done < max) {
		uint64_t p0 = d->c.nand_prog_units, h0 = d->c.host_units;
		uint64_t n = win < max - done ? win : max - done;
		for (uint64_t i = 0; i < n; i++)
			sim_ftl_host_write(d, (uint32_t)sim_rng_below(&d->rng, U), 0);
		done += n;
		double wa = precond_wa(d, p0, h0);
		if (n < win)
			break; /* the budget's short last window says little */
		agree = prev > 0 && fabs(wa - prev) < 0.005 * wa ? agree + 1 : 0;
		prev = wa;
		d->precond_wa = wa;
		if (done >= min && agree >= 2)
			break;
	}
	d->precond_host_units = done;
}

int sim_precond(struct sim_dev *d, char *msg, size_t msglen)
{
	struct timespec t0, t1;
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	d->timing = false;
	switch (d->p.state) {
	case SIM_STATE_FULL:
		if (d->p.precondition == SIM_PRECOND_SIMULATED ||
		    (rc = sim_steady_build_full(d)) == 1) {
			precond_fill(d);
			rc = 0;
		}
		break;
	case SIM_STATE_STEADY:
		if (d->p.precondition != SIM_PRECOND_SIMULATED) {
			rc = sim_steady_build(d, msg, msglen);
			break;
		}
		rc = precond_analytic(d, msg, msglen);
		if (!rc)
			precond_settle(d);
		break;
	default:
		break;
	}
	d->timing = true;
	/* nothing buffered: the write buffer starts empty */
	for (uint32_t i = 0; i < d->g.nslots; i++)
		d->buf_rel[i] = 0;
	for (int i = 0; i < SIM_NSTREAMS; i++)
		d->stream[i].npend = 0;
	sim_dev_reset_counters(d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	d->precond_ns_wall =
	    (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
	return rc;
}
