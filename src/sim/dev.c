/*
 * dev.c - the model as a whole: allocation, and the four host commands.
 *
 * Each command is turned into reservations at submission (see sim.h):
 *
 *   read   queue slot -> controller -> for each run of units on one die
 *          page: die read (tR) -> channel -> link; done at the last byte,
 *          plus the fixed latency.  Units whose program has not finished
 *          are served from the DRAM buffer; unmapped units read as zeros
 *          without touching flash.
 *   write  queue slot -> controller -> link -> for each unit: buffer slot,
 *          GC pacing, mapping, program when a program unit fills; done
 *          when every unit is in the buffer (FUA: when programmed).  A
 *          write smaller than the mapping unit reads the rest first.
 *   trim   controller; unmaps whole units (trim=off: acknowledged, ignored).
 *   flush  controller; programs the open program units (padding them) and
 *          waits for every host program.
 *   sync   a FUA write or a flush is durable only after the drive commits
 *          its mapping journal (sync_commit, plus sync_io per request in
 *          the commit): one commit at a time, and a request whose data is
 *          ready before the next commit starts joins it (group commit), so
 *          queued sync writes share commits and a lone one pays a whole
 *          commit.  Consumer drives without power-loss protection are
 *          slow here (about 1 MB/s of 4 KiB sync writes at QD1).
 *
 * Memory: l2p 4 B per user unit, p2l 4 B per physical unit, 8 B per program
 * unit for its completion time: about 2.1 GB per TB at 4 KiB units, on
 * sparse mappings, so only what the workload touches is resident (reads of
 * mapping regions never written skip the table: sim.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/bigmap.h"
#include "sim/sim.h"

#ifndef MADV_POPULATE_WRITE
#define DEV_POPULATE_WRITE 23 /* the kernel's value; older headers lack it */
#else
#define DEV_POPULATE_WRITE MADV_POPULATE_WRITE
#endif

/* Program units of the GC victim whose mapping is prefetched ahead (gc.c). */
#define DEV_GC_AHEAD 4

/*
 * The tables are anonymous mappings from core's reuse list (bigmap.h): a
 * worker that builds one drive after another gets its last drive's pages
 * back cleared instead of faulting fresh ones in.  Huge pages for the
 * tables read at random (not for data=on): they save most TLB misses.
 */

static size_t dev_npu(const struct sim_dev *d)
{
	return (size_t)d->g.nblocks * (d->g.b / d->g.pu);
}

/* Words of the l2p region bitmap (sim.h). */
static size_t dev_nlive(const struct sim_geo *g)
{
	return (size_t)((g->U >> SIM_L2P_REGION_SHIFT) / 64 + 1);
}

int sim_dev_create(const struct sim_params *p, const struct sim_geo *g, struct sim_dev **out,
                   char *msg, size_t msglen)
{
	struct sim_dev *d = calloc(1, sizeof(*d));
	uint64_t phys;
	int rc = -ENOMEM;

	if (!d)
		return -ENOMEM;
	d->p = *p;
	d->g = *g;
	d->timing = true;
	d->gc_victim = SIM_NONE;
	d->rng.s = p->seed * 0x9e3779b97f4a7c15ull + 0x1234567;
	phys = (uint64_t)g->nblocks * g->b;
	d->l2p = rl_bigmap_get(g->U * sizeof(*d->l2p), true);
	d->l2p_live = calloc(dev_nlive(g), sizeof(*d->l2p_live));
	d->p2l = rl_bigmap_get(phys * sizeof(*d->p2l), true);
	d->prog_end = rl_bigmap_get(dev_npu(d) * sizeof(*d->prog_end), true);
	d->blk = calloc(g->nblocks, sizeof(*d->blk));
	d->buf_rel = calloc(g->nslots, sizeof(*d->buf_rel));
	if (!d->l2p || !d->l2p_live || !d->p2l || !d->prog_end || !d->blk || !d->buf_rel)
		goto fail;
	if (p->gc == SIM_GC_GREEDY) {
		d->bucket = malloc(((size_t)g->b + 1) * sizeof(*d->bucket));
		if (!d->bucket)
			goto fail;
		for (uint32_t i = 0; i <= g->b; i++)
			sim_list_init(&d->bucket[i]);
		d->bucket_min = g->b + 1;
	} else if (p->gc == SIM_GC_RANDOM) {
		d->rand_arr = malloc(g->nblocks * sizeof(*d->rand_arr));
		if (!d->rand_arr)
			goto fail;
	}
	sim_list_init(&d->free_main);
	sim_list_init(&d->free_static);
	sim_list_init(&d->fifo);
	sim_list_init(&d->slc_fifo);
	for (uint32_t b = 0; b < g->nblocks; b++) {
		struct sim_blk *k = &d->blk[b];
		k->prev = k->next = SIM_NONE;
		if (b < g->nstatic) {
			k->is_static = 1;
			k->slc = 1;
			sim_list_push(d, &d->free_static, b);
		} else {
			sim_list_push(d, &d->free_main, b);
		}
	}
	d->empty_units = g->T;
	for (int i = 0; i < SIM_NSTREAMS; i++)
		d->stream[i].blk = SIM_NONE;
	if ((rc = sim_host_init(d)) || (rc = sim_nand_init(d)))
		goto fail;
	if (p->data) {
		d->data_len = g->U * (size_t)g->unit;
		d->data = rl_bigmap_get(d->data_len, false);
		if (!d->data) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	*out = d;
	return 0;
fail:
	snprintf(msg, msglen, "cannot allocate the model's tables (%llu physical units)",
	         (unsigned long long)phys);
	sim_dev_destroy(d);
	return rc ? rc : -ENOMEM;
}

void sim_dev_destroy(struct sim_dev *d)
{
	if (!d)
		return;
	sim_host_free(d);
	sim_nand_free(d);
	sim_steady_free(d);
	rl_bigmap_put(d->l2p, d->g.U * sizeof(*d->l2p));
	free(d->l2p_live);
	rl_bigmap_put(d->p2l, (size_t)d->g.nblocks * d->g.b * sizeof(*d->p2l));
	rl_bigmap_put(d->prog_end, dev_npu(d) * sizeof(*d->prog_end));
	rl_bigmap_put(d->data, d->data_len);
	free(d->blk);
	free(d->buf_rel);
	free(d->bucket);
	free(d->rand_arr);
	free(d);
}

void sim_dev_reset_counters(struct sim_dev *d)
{
	memset(&d->c, 0, sizeof(d->c));
	for (uint32_t i = 0; i < d->g.ndies; i++)
		d->die[i].cal.busy_ns = 0;
	for (uint32_t i = 0; i < d->g.nch; i++)
		d->chan[i].busy_ns = 0;
	for (int i = 0; i < 2; i++) {
		d->host.link[i].busy_ns = 0;
		d->host.ctrl[i].busy_ns = 0;
	}
}

/*
 * Start of every command: idle-time work first (it happened before @now),
 * then the clock moves on (calendars forget what ends before it).
 */
static void dev_begin(struct sim_dev *d, uint64_t now)
{
	sim_slc_idle(d, now);
	d->now = now;
	if (!d->c.first_ns && !d->c.last_ns)
		d->c.first_ns = now;
}

static uint64_t dev_end(struct sim_dev *d, uint64_t done)
{
	done += d->p.latency_ns;
	sim_host_finish(d, done);
	if (done > d->c.last_ns)
		d->c.last_ns = done;
	return done;
}

/*
 * One run of units of one program unit: when its data is in the controller.
 * @bytes: the host's bytes in the run (0: whole units, as a read-modify-write
 * needs); only the pages holding them cross the channel, so a 4 KiB read of a
 * drive with a larger mapping unit does not move the whole unit.
 */
static uint64_t dev_read_run(struct sim_dev *d, uint64_t pui, uint32_t n, uint64_t bytes,
                             uint64_t ready)
{
	uint32_t per_blk = d->g.b >> d->g.pu_shift;
	uint32_t blk = sim_div(pui, d->g.ppb_magic);
	const struct sim_blk *k = &d->blk[blk];

	/* the per-block check spares a cache miss on prog_end for settled blocks */
	if ((k->state == SIM_BLK_OPEN || k->prog_last > ready) && d->prog_end[pui] > ready) {
		d->c.buffer_read_units += n;
		return ready;
	}
	if (bytes && d->p.page)
		bytes = (bytes + d->p.page - 1) / d->p.page * d->p.page;
	return sim_nand_read(d, (uint32_t)(pui - (uint64_t)blk * per_blk) % d->g.ndies, ready, n,
	                     bytes, d->blk[blk].slc, true);
}

uint64_t sim_dev_read(struct sim_dev *d, uint64_t now, uint64_t off, uint32_t len)
{
	uint64_t c, done, u, uend, run_pu = UINT64_MAX, run_bytes = 0, zero_bytes = 0;
	uint32_t run_n = 0, unit = d->g.unit;

	/* the mapping entry is a cache miss: start it, do the queue work meanwhile */
	__builtin_prefetch(&d->l2p[off >> d->g.unit_shift]);
	dev_begin(d, now);
	c = sim_host_cmd(d, sim_host_admit(d, now), false);
	done = c;
	u = off >> d->g.unit_shift;
	uend = (off + len - 1) >> d->g.unit_shift;
	for (; u <= uend; u++) {
		uint64_t us = u * unit, ue = us + unit;
		uint64_t bytes = (ue < off + len ? ue : off + len) - (us > off ? us : off);
		uint32_t phys = sim_l2p(d, u);
		uint64_t pui;

		if (phys == SIM_NONE) {
			zero_bytes += bytes;
			d->c.unmapped_read_units++;
			continue;
		}
		pui = phys >> d->g.pu_shift;
		if (pui == run_pu) {
			run_n++;
			run_bytes += bytes;
			continue;
		}
		if (run_n) {
			uint64_t r = dev_read_run(d, run_pu, run_n, run_bytes, c);
			r = sim_host_xfer(d, false, r, run_bytes);
			if (r > done)
				done = r;
		}
		run_pu = pui;
		run_n = 1;
		run_bytes = bytes;
	}
	if (run_n) {
		uint64_t r = dev_read_run(d, run_pu, run_n, run_bytes, c);
		r = sim_host_xfer(d, false, r, run_bytes);
		if (r > done)
			done = r;
	}
	if (zero_bytes) {
		uint64_t r = sim_host_xfer(d, false, c, zero_bytes);
		if (r > done)
			done = r;
	}
	d->c.reads++;
	d->c.host_read_bytes += len;
	return dev_end(d, done);
}

/*
 * A sync request (FUA write or flush) that arrived at @now, whose data is
 * in the drive at @in and programmed at @prog: when its commit ends.  A
 * commit that has not begun when the request arrives takes it in (group
 * commit) and begins once the request's data is in; otherwise a new one
 * begins when both its data is in and the previous commit has ended.  A
 * commit ends after sync_commit and after the programs of what it covers,
 * plus sync_io per request.  (A request that joins a forming group may
 * start the group later than its first member was told: that member
 * completes a little early.)
 */
static uint64_t dev_sync_commit(struct sim_dev *d, uint64_t now, uint64_t in, uint64_t prog)
{
	if (!d->p.sync_commit_ns && !d->p.sync_io_ns)
		return prog;
	if (d->commits && now < d->commit_start) {
		if (in > d->commit_start) {
			d->commit_end += in - d->commit_start;
			d->commit_start = in;
		}
		if (prog > d->commit_end)
			d->commit_end = prog;
		d->commit_end += d->p.sync_io_ns;
		return d->commit_end;
	}
	d->commit_start = in > d->commit_end ? in : d->commit_end;
	d->commit_end = d->commit_start + d->p.sync_commit_ns;
	if (prog > d->commit_end)
		d->commit_end = prog;
	d->commit_end += d->p.sync_io_ns;
	d->commits++;
	return d->commit_end;
}

uint64_t sim_dev_write(struct sim_dev *d, uint64_t now, uint64_t off, uint32_t len, bool fua)
{
	uint64_t c, x, ack, u, uend, wait = 0;
	uint32_t unit = d->g.unit;

	/* the mapping entry is a cache miss: start it, with those GC will read
	   (their misses overlap), and do the queue and GC work meanwhile */
	__builtin_prefetch(&d->l2p[off >> d->g.unit_shift], 1);
	sim_gc_prefetch(d, DEV_GC_AHEAD);
	dev_begin(d, now);
	c = sim_host_cmd(d, sim_host_admit(d, now), true);
	x = sim_host_xfer(d, true, c, len);
	ack = x;
	u = off >> d->g.unit_shift;
	uend = (off + len - 1) >> d->g.unit_shift;
	for (; u <= uend; u++) {
		uint64_t us = u * unit, ready = x, a;
		/* the mapping entry only for a partial unit: the full-unit path looks
		   it up after GC pacing, by when the prefetch above has landed */
		uint32_t old = us < off || us + unit > off + len ? sim_l2p(d, u) : SIM_NONE;
		if (old != SIM_NONE) {
			/* read-modify-write of a partly written unit */
			uint64_t r = dev_read_run(d, old >> d->g.pu_shift, 1, 0, c);
			if (r > ready)
				ready = r;
			d->c.rmw_reads++;
		}
		a = sim_ftl_host_write(d, (uint32_t)u, ready);
		if (a > ack)
			ack = a;
		if (a > ready && a - ready > wait)
			wait = a - ready; /* the buffer had no room: the host waits for that */
	}
	if (d->p.merge_after && !fua) {
		/* the merge (ack) keeps the controller busy; the host sees the data taken in */
		sim_host_after_write(d, ack);
		ack = x + wait;
	} else
		sim_host_after_write(d, ack);
	if (fua) {
		sim_ftl_pad(d, SIM_STREAM_HOST);
		sim_ftl_pad(d, SIM_STREAM_SLC);
		if (d->host_prog_last > ack)
			ack = d->host_prog_last;
		ack = dev_sync_commit(d, c, x, ack);
	}
	d->c.writes++;
	d->c.host_write_bytes += len;
	return dev_end(d, ack);
}

/*
 * The data store (data=on) is an anonymous mapping as large as the drive:
 * untouched pages cost no memory, but touching one costs a page fault,
 * and under virtualisation a fault costs more than copying the page.  A
 * read of a unit that the FTL holds unmapped (never written, or trimmed)
 * therefore fills the caller's buffer with zeroes instead of copying from
 * the store, so reading an unwritten drive neither faults nor grows
 * memory; a mapped unit is copied.  Runs of units in the same state are
 * handled by one memset or memcpy.
 */
void sim_dev_data_read(const struct sim_dev *d, void *buf, uint64_t off, uint32_t len)
{
	uint8_t *dst = buf;
	uint64_t end = off + len;

	while (off < end) {
		uint64_t u = off >> d->g.unit_shift;
		bool mapped = sim_l2p(d, u) != SIM_NONE;
		uint64_t stop = (u + 1) << d->g.unit_shift;

		while (stop < end && (sim_l2p(d, stop >> d->g.unit_shift) != SIM_NONE) == mapped)
			stop += d->g.unit;
		if (stop > end)
			stop = end;
		if (mapped)
			memcpy(dst, d->data + off, stop - off);
		else
			memset(dst, 0, stop - off);
		dst += stop - off;
		off = stop;
	}
}

/*
 * A write into pages of the store that were never touched faults each 4 KiB
 * page in on its own, and under virtualisation that first touch, not the
 * copy, is most of the cost (a 1 MiB write: 256 faults).  Writes of 16 KiB
 * or more populate their pages first in one call (MADV_POPULATE_WRITE,
 * Linux 5.14; on older kernels it fails and the copy faults as before),
 * about twice as fast for fresh pages and a page-table walk for old ones.
 */
void sim_dev_data_write(struct sim_dev *d, const void *buf, uint64_t off, uint32_t len)
{
	const uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);

	if (len >= 16384) {
		uint64_t a = off / pg * pg, b = (off + len + pg - 1) / pg * pg;
		madvise(d->data + a, b - a, DEV_POPULATE_WRITE);
	}
	memcpy(d->data + off, buf, len);
}

/*
 * Trimmed units read back as zeroes.  Whole pages of the store are handed
 * back to the kernel (MADV_DONTNEED on a private anonymous mapping reads
 * as zeroes afterwards), so a discard of the whole drive, as mkfs does,
 * costs neither memory nor a pass of memset over hundreds of gigabytes;
 * the partial pages at the edges are cleared by hand.
 */
void sim_dev_data_trim(struct sim_dev *d, uint64_t a, uint64_t b)
{
	const uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pa = (a + pg - 1) / pg * pg, pb = b / pg * pg;

	if (pb <= pa || madvise(d->data + pa, pb - pa, MADV_DONTNEED)) {
		memset(d->data + a, 0, b - a);
		return;
	}
	memset(d->data + a, 0, pa - a);
	memset(d->data + pb, 0, b - pb);
}

uint64_t sim_dev_trim(struct sim_dev *d, uint64_t now, uint64_t off, uint64_t len)
{
	uint64_t c, u, uend;
	uint32_t unit = d->g.unit;

	dev_begin(d, now);
	c = sim_host_cmd(d, sim_host_admit(d, now), false);
	if (d->p.trim) {
		/* whole units only: a partial unit stays mapped */
		u = (off + unit - 1) / unit;
		uend = (off + len) / unit;
		for (; u < uend; u++)
			sim_ftl_trim_unit(d, (uint32_t)u);
	}
	d->c.trims++;
	d->c.host_trim_bytes += len;
	return dev_end(d, c);
}

uint64_t sim_dev_flush(struct sim_dev *d, uint64_t now)
{
	uint64_t c;

	dev_begin(d, now);
	c = sim_host_cmd(d, sim_host_admit(d, now), false);
	sim_ftl_pad(d, SIM_STREAM_HOST);
	sim_ftl_pad(d, SIM_STREAM_SLC);
	c = dev_sync_commit(d, now, c, d->host_prog_last > c ? d->host_prog_last : c);
	d->c.flushes++;
	return dev_end(d, c);
}
