/*
 * nand.c - flash timing: dies and channels.
 *
 * A die does one thing at a time.  It keeps two times: `busy`, the end of
 * the background work committed to it (programs, erases, GC reads), which
 * runs first-come first-served, and `rd`, the end of the last host read.
 *
 * Host reads have priority.  With suspend=on (program/erase suspend, as
 * modern controllers do) a host read on a die busy with background work
 * starts after t_suspend, runs, and pushes the background work back by its
 * own duration; reads queue behind each other.  With suspend=off a read
 * waits for everything committed before it, which is how old controllers
 * stalled reads behind writes.
 *
 * Channels are calendars (cal.c): a read's data leaves the die after tR, a
 * program's data enters the die before tPROG.  Program data is loaded into
 * the die's cache register while the previous program runs, so it is
 * transferred no earlier than one program before the die is free.
 *
 * A program unit is one page on every plane of a die (multi-plane program),
 * so t_prog is charged once per planes x page.  When the mapping unit is
 * larger than that (map_unit > planes x page), one unit takes prog_k
 * operations in a row.  SLC-mode blocks use t_read_slc / t_prog_slc.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim.h"

#define CHAN_CAL_CAP 8192

int sim_nand_init(struct sim_dev *d)
{
	int rc;

	d->die = calloc(d->g.ndies, sizeof(*d->die));
	d->chan = calloc(d->g.nch, sizeof(*d->chan));
	if (!d->die || !d->chan)
		return -ENOMEM;
	for (uint32_t i = 0; i < d->g.nch; i++)
		if ((rc = sim_cal_init(&d->chan[i], CHAN_CAL_CAP)))
			return rc;
	return 0;
}

void sim_nand_free(struct sim_dev *d)
{
	if (d->chan)
		for (uint32_t i = 0; i < d->g.nch; i++)
			sim_cal_free(&d->chan[i]);
	free(d->chan);
	free(d->die);
	d->chan = NULL;
	d->die = NULL;
}

static inline uint64_t chan_ns(const struct sim_dev *d, uint64_t bytes)
{
	return (bytes * 1000000000ull + d->p.channel_rate - 1) / d->p.channel_rate;
}

static inline void die_note(struct sim_dev *d, struct sim_die *die)
{
	if (die->busy > d->die_max_busy)
		d->die_max_busy = die->busy;
}

uint64_t sim_nand_read(struct sim_dev *d, uint32_t die_no, uint64_t ready, uint32_t units,
		       bool slc, bool host)
{
	struct sim_die *die = &d->die[die_no];
	uint64_t tr = (slc && d->p.t_read_slc ? d->p.t_read_slc : d->p.t_read) * d->g.prog_k;
	uint64_t start, end, x, dur;

	if (host && d->p.suspend) {
		start = ready > die->rd ? ready : die->rd;
		if (die->busy > start) {
			start += d->p.t_suspend;
			die->busy += tr; /* background work resumes after the read */
		}
		end = start + tr;
		if (die->busy < end)
			die->busy = end;
		die->rd = end;
	} else {
		start = ready;
		if (die->busy > start)
			start = die->busy;
		if (die->rd > start)
			start = die->rd;
		end = start + tr;
		die->busy = end;
		if (host)
			die->rd = end;
	}
	die->busy_ns += tr;
	if (!host)
		d->c.gc_ns += tr;
	die_note(d, die);
	d->c.nand_read_ops++;
	d->c.nand_read_units += units;
	dur = chan_ns(d, (uint64_t)units * d->g.unit);
	x = sim_cal_reserve(&d->chan[die_no % d->g.nch], end, dur);
	return x + dur;
}

uint64_t sim_nand_program(struct sim_dev *d, uint32_t die_no, uint64_t ready, bool slc, bool gc)
{
	struct sim_die *die = &d->die[die_no];
	uint64_t tp = (slc && d->p.t_prog_slc ? d->p.t_prog_slc : d->p.t_prog) * d->g.prog_k;
	uint64_t dur = chan_ns(d, (uint64_t)d->g.pu * d->g.unit);
	uint64_t load = ready, start, end;

	/* the cache register takes the next page while the previous one programs */
	if (die->busy > tp && die->busy - tp > load)
		load = die->busy - tp;
	load = sim_cal_reserve(&d->chan[die_no % d->g.nch], load, dur) + dur;
	start = load;
	if (die->busy > start)
		start = die->busy;
	if (die->rd > start)
		start = die->rd;
	end = start + tp;
	die->busy = end;
	die->busy_ns += tp;
	if (gc)
		d->c.gc_ns += tp;
	die_note(d, die);
	d->c.nand_prog_ops++;
	return end;
}

void sim_nand_erase(struct sim_dev *d, uint32_t blk, uint64_t ready, bool gc)
{
	(void)blk;
	for (uint32_t i = 0; i < d->g.ndies; i++) {
		struct sim_die *die = &d->die[i];
		uint64_t start = ready;
		if (die->busy > start)
			start = die->busy;
		if (die->rd > start)
			start = die->rd;
		die->busy = start + d->p.t_erase;
		die->busy_ns += d->p.t_erase;
		if (gc)
			d->c.gc_ns += d->p.t_erase;
		die_note(d, die);
	}
}
