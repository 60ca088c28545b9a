/*
 * nand.c - flash timing: dies and channels.
 *
 * A die does one operation at a time; its operations live in a calendar
 * (cal.c) like the channels', so an operation takes the earliest gap at or
 * after the time its inputs are ready.  That matters because the model
 * reserves at submission: a GC relocation program whose data comes from a
 * read queued behind other work is reserved late, and the die must not sit
 * idle until then when other work is ready now.  Gap filling also gives
 * reads their natural priority over programs that wait for data.
 *
 * Host reads and suspend: with suspend=on (program/erase suspend, as modern
 * controllers do), a host read that finds the die busy suspends the running
 * program or erase: it starts after t_suspend and still charges its tR to
 * the die (reserved in the next gap), so the background work is delayed by
 * as much.  Host reads queue behind each other (rd).  With suspend=off a
 * read waits for the die like any other operation, which is how old
 * controllers stalled reads behind writes.
 *
 * Channels: a read's data leaves the die after tR, a program's data enters
 * the die before tPROG.  A program unit is one page on every plane of a die
 * (multi-plane program), so t_prog is charged once per planes x page; when
 * the mapping unit is larger (map_unit > planes x page) one unit takes
 * prog_k operations in a row.  SLC-mode blocks use t_read_slc / t_prog_slc.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim.h"

#define DIE_CAL_CAP  4096
#define CHAN_CAL_CAP 8192

static inline uint64_t chan_ns(const struct sim_dev *d, uint64_t bytes)
{
	return (bytes * 1000000000ull + d->p.channel_rate - 1) / d->p.channel_rate;
}

int sim_nand_init(struct sim_dev *d)
{
	uint64_t tmin = d->p.t_read, cmin;
	int rc;

	if (d->p.t_read_slc && d->p.t_read_slc < tmin)
		tmin = d->p.t_read_slc;
	tmin *= d->g.prog_k;
	cmin = chan_ns(d, d->g.unit);
	d->die = calloc(d->g.ndies, sizeof(*d->die));
	d->chan = calloc(d->g.nch, sizeof(*d->chan));
	if (!d->die || !d->chan)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->g.nch; i++)
		if ((rc = sim_cal_init(&d->chan[i], CHAN_CAL_CAP, cmin)))
			return rc;
	for (uint32_t i = 0; i < d->g.ndies; i++)
		if ((rc = sim_cal_init(&d->die[i].cal, DIE_CAL_CAP, tmin)))
			return rc;
	return 0;
}

void sim_nand_free(struct sim_dev *d)
{
	if (d->chan)
		for (uint32_t i = 0; i < d->g.nch; i++)
			sim_cal_free(&d->chan[i]);
	if (d->die)
		for (uint32_t i = 0; i < d->g.ndies; i++)
			sim_cal_free(&d->die[i].cal);
	free(d->chan);
	free(d->die);
	d->chan = NULL;
	d->die = NULL;
}

/* Reserve @dur on a die from @ready; returns the start. */
static inline uint64_t die_reserve(struct sim_dev *d, struct sim_die *die, uint64_t ready,
                                   uint64_t dur)
{
	uint64_t s = sim_cal_reserve(&die->cal, d->now, ready, dur);

	if (s + dur > d->die_max_busy)
		d->die_max_busy = s + dur;
	return s;
}

uint64_t sim_nand_read(struct sim_dev *d, uint32_t die_no, uint64_t ready, uint32_t units,
                       uint64_t bytes, bool slc, bool host)
{
	struct sim_die *die = &d->die[die_no];
	uint64_t tr = (slc && d->p.t_read_slc ? d->p.t_read_slc : d->p.t_read) * d->g.prog_k;
	uint64_t start, end, x, dur, pp = (uint64_t)d->p.planes * d->p.page;

	if (bytes && d->g.prog_k > 1 && pp && bytes < (uint64_t)d->g.prog_k * pp)
		tr = tr / d->g.prog_k * ((bytes + pp - 1) / pp); /* only the pages asked for */

	if (host) {
		uint64_t r = ready > die->rd ? ready : die->rd;
		start = die_reserve(d, die, r, tr);
		if (d->p.suspend && start > r + d->p.t_suspend)
			start = r + d->p.t_suspend; /* suspends what runs; tR charged above */
		end = start + tr;
		die->rd = end;
	} else {
		start = die_reserve(d, die, ready, tr);
		end = start + tr;
		d->c.gc_ns += tr;
	}
	d->c.nand_read_ops++;
	d->c.nand_read_units += units;
	if (!bytes || bytes > (uint64_t)units * d->g.unit)
		bytes = (uint64_t)units * d->g.unit;
	dur = chan_ns(d, bytes);
	x = sim_cal_reserve(&d->chan[die_no % d->g.nch], d->now, end, dur);
	return x + dur;
}

uint64_t sim_nand_program(struct sim_dev *d, uint32_t die_no, uint64_t ready, bool slc, bool gc)
{
	struct sim_die *die = &d->die[die_no];
	uint64_t tp = (slc && d->p.t_prog_slc ? d->p.t_prog_slc : d->p.t_prog) * d->g.prog_k;
	uint64_t dur = chan_ns(d, (uint64_t)d->g.pu * d->g.unit);
	uint64_t load, start;

	load = sim_cal_reserve(&d->chan[die_no % d->g.nch], d->now, ready, dur) + dur;
	start = die_reserve(d, die, load, tp);
	if (gc)
		d->c.gc_ns += tp;
	d->c.nand_prog_ops++;
	return start + tp;
}

void sim_nand_erase(struct sim_dev *d, uint32_t blk, uint64_t ready, bool gc)
{
	(void)blk;
	for (uint32_t i = 0; i < d->g.ndies; i++)
		die_reserve(d, &d->die[i], ready, d->p.t_erase);
	if (gc)
		d->c.gc_ns += d->p.t_erase * d->g.ndies;
}

uint64_t sim_nand_busy_end(const struct sim_dev *d)
{
	uint64_t end = d->die_max_busy;

	for (uint32_t i = 0; i < d->g.nch; i++) {
		const struct sim_cal *c = &d->chan[i];
		if (c->n && c->e[c->head + c->n - 1] > end)
			end = c->e[c->head + c->n - 1];
	}
	return end;
}

uint64_t sim_nand_reloc_ns(const struct sim_dev *d)
{
	uint64_t tr = d->p.t_read > d->p.t_read_slc ? d->p.t_read : d->p.t_read_slc;

	return (tr + d->p.t_prog) * d->g.prog_k + 2 * chan_ns(d, (uint64_t)d->g.pu * d->g.unit);
}
