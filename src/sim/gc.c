/*
 * gc.c - garbage collection: victim policies, pacing, relocation, erase.
 *
 * Victims are closed superblocks of the main pool.  SLC-mode blocks are
 * folded first (they hold a third of what their flash could), oldest first;
 * then the policy chooses among native blocks:
 *   greedy  fewest valid units (buckets by valid count, O(1) per update);
 *   fifo    oldest closed block (the Lambert-W model of Desnoyers/Xiang);
 *   random  uniform among closed blocks ((1+rho)/rho in the limit).
 *
 * Pacing: GC starts when fewer than gc_free superblocks are free.  It then
 * cleans one victim at a time, interleaved with host writes: when a victim
 * with v valid units of b is picked, every host unit pays v / (b - v)
 * relocated units, so the victim is empty exactly when the host has used
 * the b - v units it frees, and the free pool stays level.  This is how
 * controllers spread GC over host writes instead of stalling; the flash
 * time it costs is what makes random-write throughput collapse.  If the pool
 * still falls to its floor (gc_hard), the host waits for a whole victim.
 *
 * Idle-time work (slc.c) uses the same victim slot.  A victim it picked
 * (gc_bg) and could not finish in its gap stays picked and is continued in
 * the next gap; host writes do not pay for it while the pool is above the
 * GC threshold (a fold in progress is no reason to relocate at native speed
 * on the host's time), and take it over, at the ratio of what is left, once
 * the pool does need it.
 *
 * Relocation goes one program unit at a time: one (multi-plane) read of the
 * victim's valid units on that die, then their append to the GC stream.
 */
#include "sim/sim.h"

#define GC_RATIO_MAX 64.0

void sim_gc_enqueue(struct sim_dev *d, uint32_t b)
{
	switch (d->p.gc) {
	case SIM_GC_GREEDY: {
		uint32_t v = d->blk[b].valid;
		sim_list_push(d, &d->bucket[v], b);
		if (v < d->bucket_min)
			d->bucket_min = v;
		break;
	}
	case SIM_GC_FIFO:
		sim_list_push(d, &d->fifo, b);
		break;
	default:
		d->blk[b].pos = d->rand_n;
		d->rand_arr[d->rand_n++] = b;
		break;
	}
}

void sim_gc_bucket_move(struct sim_dev *d, uint32_t b, uint32_t from)
{
	sim_list_remove(d, &d->bucket[from], b);
	sim_list_push(d, &d->bucket[from - 1], b);
	if (from - 1 < d->bucket_min)
		d->bucket_min = from - 1;
}

static uint32_t gc_take(struct sim_dev *d)
{
	uint32_t b, i;

	switch (d->p.gc) {
	case SIM_GC_GREEDY:
		while (d->bucket_min <= d->g.b && !d->bucket[d->bucket_min].n)
			d->bucket_min++;
		if (d->bucket_min > d->g.b)
			return SIM_NONE;
		return sim_list_pop(d, &d->bucket[d->bucket_min]);
	case SIM_GC_FIFO:
		return sim_list_pop(d, &d->fifo);
	default:
		if (!d->rand_n)
			return SIM_NONE;
		i = (uint32_t)sim_rng_below(&d->rng, d->rand_n);
		b = d->rand_arr[i];
		d->rand_arr[i] = d->rand_arr[--d->rand_n];
		d->blk[d->rand_arr[i]].pos = i;
		return b;
	}
}

bool sim_gc_pick(struct sim_dev *d, bool slc_first, bool static_too)
{
	uint32_t b = SIM_NONE;
	struct sim_blk *k;

	if (slc_first)
		for (uint32_t x = d->slc_fifo.head; x != SIM_NONE; x = d->blk[x].next)
			if (static_too || !d->blk[x].is_static) {
				b = x;
				sim_list_remove(d, &d->slc_fifo, b);
				break;
			}
	if (b == SIM_NONE)
		b = gc_take(d);
	if (b == SIM_NONE)
		return false;
	k = &d->blk[b];
	if (k->lazy == 1)
		sim_steady_p2l(d, b); /* relocation reads the block's p2l */
	k->state = SIM_BLK_VICTIM;
	d->gc_victim = b;
	d->gc_scan = 0;
	d->gc_pf = 0;
	d->gc_credit = 0;
	d->gc_bg = false;
	if (k->valid >= d->g.b)
		d->gc_ratio = GC_RATIO_MAX;
	else {
		d->gc_ratio = (double)k->valid / (double)(d->g.b - k->valid);
		if (d->gc_ratio > GC_RATIO_MAX)
			d->gc_ratio = GC_RATIO_MAX;
	}
	d->c.gc_victims++;
	if (k->slc)
		d->c.fold_victims++;
	return true;
}

void sim_gc_release(struct sim_dev *d, uint32_t b, uint64_t ready)
{
	struct sim_blk *k = &d->blk[b];

	if (d->timing)
		sim_nand_erase(d, b, ready, true);
	k->erases++;
	d->c.erases++;
	k->state = SIM_BLK_FREE;
	k->wp = 0;
	k->lazy = 0;
	if (k->is_static) {
		sim_list_push(d, &d->free_static, b);
		return;
	}
	if (k->slc)
		d->n_slc_blocks--;
	k->slc = 0;
	d->empty_units += d->g.b;
	sim_list_push(d, &d->free_main, b);
}

/*
 * Relocation reads l2p at random, once per unit of the victim (sim_p2l), and
 * a random read of a table this size is a cache and TLB miss whose latency
 * the core cannot hide behind a few hundred instructions; misses issued
 * together overlap, though.  So the entries are prefetched a few program
 * units ahead of the scan, in a batch issued next to the host write's own
 * lookup (dev.c), so that their misses overlap with each other and with
 * that one.  gc_pf remembers how far that went: no entry is fetched twice.
 */
void sim_gc_prefetch(struct sim_dev *d, uint32_t ahead)
{
	uint32_t b = d->gc_victim, upto, base;
	const uint32_t *p2l;

	if (b == SIM_NONE)
		return;
	upto = (d->gc_scan + ahead) << d->g.pu_shift;
	if (upto > sim_blk_cap(d, b))
		upto = sim_blk_cap(d, b);
	base = b * d->g.b;
	p2l = d->p2l + base;
	for (uint32_t u = d->gc_pf; u < upto; u++)
		if (p2l[u])
			__builtin_prefetch(&d->l2p[p2l[u] - 1], 1);
	if (upto > d->gc_pf)
		d->gc_pf = upto;
}

/* The valid units of [base, base + pu) into @lpns (validity: sim_p2l). */
static bool gc_collect(struct sim_dev *d, uint32_t base, uint32_t pu, uint32_t *lpns, uint32_t *n)
{
	*n = 0;
	for (uint32_t i = 0; i < pu; i++) {
		uint32_t l = sim_p2l(d, base + i);
		if (l != SIM_NONE)
			lpns[(*n)++] = l;
	}
	return *n != 0;
}

uint32_t sim_gc_relocate(struct sim_dev *d, uint64_t ready)
{
	uint32_t b = d->gc_victim;
	struct sim_blk *k = &d->blk[b];
	uint32_t pu = d->g.pu, npu = sim_blk_cap(d, b) / pu;

	while (d->gc_scan < npu && k->valid) {
		uint32_t pui = d->gc_scan++;
		uint32_t base = b * d->g.b + pui * pu;
		uint32_t lpns[SIM_PU_MAX];
		uint32_t n = 0;
		uint64_t t = ready;

		/* idle-time and forced GC have no host write to prefetch beside */
		sim_gc_prefetch(d, 2);
		if (!gc_collect(d, base, pu, lpns, &n))
			continue;
		k->valid -= n;
		if (d->timing)
			t = sim_nand_read(d, pui % d->g.ndies, ready, n, 0, k->slc, false);
		d->gc_last_t = t;
		if (t > d->gc_erase_after)
			d->gc_erase_after = t;
		sim_ftl_append_n(d, SIM_STREAM_GC, lpns, n, t);
		d->c.gc_relocated += n;
		if (k->slc)
			d->c.folded_units += n;
		return n;
	}
	return 0;
}

bool sim_gc_drained(const struct sim_dev *d)
{
	uint32_t b = d->gc_victim;

	return !d->blk[b].valid || d->gc_scan >= sim_blk_cap(d, b) / d->g.pu;
}

void sim_gc_finish(struct sim_dev *d, uint64_t ready)
{
	uint32_t b = d->gc_victim;

	/* erase once the last relocation read is done */
	d->gc_victim = SIM_NONE;
	d->gc_bg = false;
	sim_gc_release(d, b, ready > d->gc_erase_after ? ready : d->gc_erase_after);
	d->gc_erase_after = 0;
}

uint32_t sim_gc_step(struct sim_dev *d, uint64_t ready)
{
	uint32_t moved = sim_gc_relocate(d, ready);

	if (sim_gc_drained(d))
		sim_gc_finish(d, ready);
	return moved;
}

/*
 * The host takes over a victim that idle-time work left half done, because
 * the pool now needs it: it pays for what is left, at the ratio of what is
 * left (nothing, and the victim is freed at once, if it was all overwritten).
 */
static void gc_adopt(struct sim_dev *d, uint64_t ready)
{
	uint32_t v = d->blk[d->gc_victim].valid;

	d->gc_bg = false;
	if (sim_gc_drained(d)) {
		sim_gc_finish(d, ready);
		return;
	}
	d->gc_credit = 0;
	d->gc_ratio = v >= d->g.b ? GC_RATIO_MAX : (double)v / (double)(d->g.b - v);
	if (d->gc_ratio > GC_RATIO_MAX)
		d->gc_ratio = GC_RATIO_MAX;
}

void sim_gc_pace(struct sim_dev *d, uint64_t ready)
{
	if (d->gc_victim != SIM_NONE && d->gc_bg) {
		/* background work waits for the next idle gap while the pool is fine */
		if (d->free_main.n >= d->g.gc_thresh)
			return;
		gc_adopt(d, ready);
	}
	if (d->gc_victim == SIM_NONE) {
		if (d->free_main.n >= d->g.gc_thresh)
			return;
		if (!sim_gc_pick(d, true, false))
			return;
	}
	d->gc_credit += d->gc_ratio;
	while (d->gc_credit > 0 && d->gc_victim != SIM_NONE)
		d->gc_credit -= sim_gc_step(d, ready);
}

void sim_gc_force(struct sim_dev *d, uint64_t ready)
{
	while (d->free_main.n <= d->g.gc_hard) {
		if (d->gc_victim == SIM_NONE && !sim_gc_pick(d, true, false))
			return;
		d->gc_bg = false;
		sim_gc_step(d, ready);
	}
}
