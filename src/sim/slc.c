/*
 * slc.c - the SLC cache and idle-time background work.
 *
 * Blocks of multi-bit flash can be programmed one bit per cell: a third of
 * the capacity (TLC), several times the write speed.  Drives put incoming
 * writes there and later fold them into native blocks.
 *
 *  - static (Samsung TurboWrite): a fixed set of superblocks, carved out of
 *    the raw flash, always in SLC mode; slc_size is the cache size.
 *  - dynamic (SM2262EN, SM2258...): any free superblock may be written in
 *    SLC mode, up to slc_size of data, and only while the flash can still
 *    hold all valid data at native density: every SLC block costs
 *    (b - b_slc) units of the free space, so the cache shrinks as the drive
 *    fills and is gone on a full drive.
 *
 * Host units go to the SLC stream while there is room, else straight to
 * native blocks: that is the post-cache cliff, from SLC program speed to the
 * native program speed.  When free blocks run short, GC folds SLC blocks
 * first (gc.c).  In idle time (no die busy for `idle` ns) the controller
 * folds the cache empty and collects garbage up to twice the GC threshold,
 * so the cache is back for the next burst.  Idle work is done lazily: at
 * each new command the model does the work that fits in the idle gap
 * before it, so no timer keeps the executor busy.
 */
#include "sim/sim.h"

uint64_t sim_slc_limit(const struct sim_dev *d)
{
	const struct sim_geo *g = &d->g;
	uint64_t reserve = (uint64_t)(g->gc_thresh + 2) * g->b;
	uint64_t used = d->valid_lpns + reserve;
	uint64_t room_blocks, lim;

	if (d->p.slc != SIM_SLC_DYNAMIC)
		return g->slc_units;
	if (used >= g->T)
		return 0;
	room_blocks = (g->T - used) / (g->b - g->b_slc);
	lim = room_blocks * g->b_slc;
	return lim < g->slc_units ? lim : g->slc_units;
}

int sim_slc_route(struct sim_dev *d)
{
	if (d->p.slc == SIM_SLC_OFF)
		return SIM_STREAM_HOST;
	if (d->stream[SIM_STREAM_SLC].blk != SIM_NONE)
		return SIM_STREAM_SLC;
	if (d->p.slc == SIM_SLC_STATIC)
		return d->free_static.n ? SIM_STREAM_SLC : SIM_STREAM_HOST;
	/* the pool first: a drive under GC (most writes of a full one) skips the divide */
	if (d->free_main.n > d->g.gc_thresh + 2 &&
	    (uint64_t)(d->n_slc_blocks + 1) * d->g.b_slc <= sim_slc_limit(d))
		return SIM_STREAM_SLC;
	return SIM_STREAM_HOST;
}

/*
 * Idle work happens in the gap between the end of the last flash operation
 * (plus the idle delay) and @now, the arrival of the next command, and stays
 * inside it: a relocation step is started only if it would be done by @now
 * even on the busiest die and channel, and a drained victim is erased only if
 * the erase fits as well, so the host finds the flash as free as it would
 * without idle work.  What does not fit waits for the next gap: the victim
 * stays picked, as background work (gc_bg) the host does not pay for unless
 * the free pool runs short (gc.c).  The calendars' floor (d->now) follows
 * the work through the gap, since nothing is booked before it any more, so
 * the bookings of a long gap are pruned as it goes instead of piling up.
 */
void sim_slc_idle(struct sim_dev *d, uint64_t now)
{
	uint64_t t, step;

	if (!d->p.idle_ns || !d->timing)
		return;
	t = d->die_max_busy + d->p.idle_ns;
	if (t < d->now)
		t = d->now; /* what came before the last command was settled then */
	if (t >= now)
		return;
	step = sim_nand_reloc_ns(d);
	for (;;) {
		uint64_t busy = sim_nand_busy_end(d), at = t > busy ? t : busy;

		d->now = t;
		if (d->gc_victim != SIM_NONE && sim_gc_drained(d)) {
			if (d->gc_erase_after > at)
				at = d->gc_erase_after;
			if (at + d->p.t_erase > now)
				break;
			sim_gc_finish(d, t);
			continue;
		}
		if (at + step > now)
			break;
		if (d->gc_victim == SIM_NONE) {
			if (d->slc_fifo.n)
				sim_gc_pick(d, true, true);
			else if (d->free_main.n < 2 * d->g.gc_thresh)
				sim_gc_pick(d, false, false);
			if (d->gc_victim == SIM_NONE)
				break;
			d->gc_bg = true;
			continue;
		}
		sim_gc_relocate(d, t);
		if (d->gc_last_t > t)
			t = d->gc_last_t;
	}
}
