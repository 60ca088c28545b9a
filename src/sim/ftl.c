/*
 * ftl.c - the flash translation layer: page-level mapping and write streams.
 *
 * Mapping: l2p[] maps each user unit (map_unit bytes, 4 KiB by default) to a
 * physical unit; p2l[] records which user unit each physical unit was
 * written for, and the unit is valid while that user unit still maps to it
 * (sim_p2l), so invalidation only decrements the block's valid count.  A physical unit number is
 * superblock * b + offset; offsets stripe over the dies one program unit at
 * a time (die = offset / pu % dies), so a write stream spreads over every
 * die and channel and consecutive program units run in parallel.
 *
 * Streams: three write points, each with its own open superblock: host data
 * (native mode), host data into the SLC cache (SLC mode), and GC/fold
 * relocations (native mode).  Keeping GC apart from host data is what real
 * controllers do (it separates cold relocated data from new data); under
 * uniform random writes it changes nothing, as the analytic models assume.
 *
 * Write buffer: host units are acknowledged when they sit in the controller's
 * DRAM buffer, a ring of slots; a slot is free again when the program that
 * took its unit to flash ends.  So the host runs ahead of the flash by at
 * most write_buffer bytes, and sustained writes run at the flash's speed
 * (GC included).  A program unit is programmed when its last unit arrives.
 *
 * Spare pool: empty_units counts main-pool units not yet written (free
 * superblocks and the rest of open ones); its average over host writes is
 * what the effective spare ratio of the analytic models needs (report).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

void sim_list_init(struct sim_list *l)
{
	l->head = l->tail = SIM_NONE;
	l->n = 0;
}

void sim_list_push(struct sim_dev *d, struct sim_list *l, uint32_t b)
{
	struct sim_blk *k = &d->blk[b];

	k->prev = l->tail;
	k->next = SIM_NONE;
	if (l->tail != SIM_NONE)
		d->blk[l->tail].next = b;
	else
		l->head = b;
	l->tail = b;
	l->n++;
}

void sim_list_remove(struct sim_dev *d, struct sim_list *l, uint32_t b)
{
	struct sim_blk *k = &d->blk[b];

	if (k->prev != SIM_NONE)
		d->blk[k->prev].next = k->next;
	else
		l->head = k->next;
	if (k->next != SIM_NONE)
		d->blk[k->next].prev = k->prev;
	else
		l->tail = k->prev;
	k->prev = k->next = SIM_NONE;
	l->n--;
}

uint32_t sim_list_pop(struct sim_dev *d, struct sim_list *l)
{
	uint32_t b = l->head;

	if (b != SIM_NONE)
		sim_list_remove(d, l, b);
	return b;
}

void sim_ftl_invalidate(struct sim_dev *d, uint32_t phys)
{
	uint32_t b = sim_phys_blk(d, phys);
	struct sim_blk *k = &d->blk[b];
	uint32_t v = k->valid--;

	if (k->state != SIM_BLK_CLOSED)
		return;
	if (k->slc) {
		/* an SLC block whose data was all rewritten costs nothing to reclaim */
		if (!k->valid) {
			sim_list_remove(d, &d->slc_fifo, b);
			sim_gc_release(d, b, d->now);
		}
	} else if (d->p.gc == SIM_GC_GREEDY) {
		sim_gc_bucket_move(d, b, v);
	}
}

void sim_ftl_close(struct sim_dev *d, uint32_t b)
{
	struct sim_blk *k = &d->blk[b];

	k->state = SIM_BLK_CLOSED;
	if (k->slc) {
		if (!k->valid) {
			sim_gc_release(d, b, d->now);
			return;
		}
		sim_list_push(d, &d->slc_fifo, b);
	} else {
		sim_gc_enqueue(d, b);
	}
}

uint32_t sim_ftl_alloc(struct sim_dev *d, int stream, bool slc)
{
	struct sim_blk *k;
	uint32_t b;

	if (slc && d->p.slc == SIM_SLC_STATIC) {
		b = sim_list_pop(d, &d->free_static);
	} else {
		if (stream != SIM_STREAM_GC)
			while (d->free_main.n <= d->g.gc_hard)
				sim_gc_force(d, d->now);
		b = sim_list_pop(d, &d->free_main);
		if (b != SIM_NONE && slc) {
			d->n_slc_blocks++;
			d->empty_units -= d->g.b - d->g.b_slc;
		}
	}
	if (b == SIM_NONE) {
		/* cannot happen while user units + reserve fit the pool (profile.c checks) */
		fprintf(stderr, "raidlab: ssd model: no free superblock (stream %d)\n", stream);
		abort();
	}
	k = &d->blk[b];
	k->state = SIM_BLK_OPEN;
	k->slc = slc;
	k->wp = 0;
	k->valid = 0;
	k->prog_last = 0;
	return b;
}

/* The open program unit @pui of @stream's block is complete: program it. */
static uint64_t ftl_program(struct sim_dev *d, int stream, uint32_t b, uint32_t pui)
{
	struct sim_stream *s = &d->stream[stream];
	uint64_t end = 0;
	uint32_t die = pui % d->g.ndies;

	if (d->timing)
		end = sim_nand_program(d, die, s->ready, d->blk[b].slc, stream == SIM_STREAM_GC);
	d->prog_end[((uint64_t)b * d->g.b >> d->g.pu_shift) + pui] = end;
	if (end > d->blk[b].prog_last)
		d->blk[b].prog_last = end;
	d->c.nand_prog_units += d->g.pu;
	for (uint32_t i = 0; i < s->npend; i++)
		d->buf_rel[s->pend[i]] = end;
	s->npend = 0;
	s->ready = 0;
	if (stream != SIM_STREAM_GC && end > d->host_prog_last)
		d->host_prog_last = end;
	return end;
}

static void ftl_maybe_close(struct sim_dev *d, struct sim_stream *s, uint32_t b)
{
	if (d->blk[b].wp == sim_blk_cap(d, b)) {
		s->blk = SIM_NONE;
		sim_ftl_close(d, b);
	}
}

uint64_t sim_ftl_append(struct sim_dev *d, int stream, uint32_t lpn, uint64_t ready)
{
	return sim_ftl_append_n(d, stream, &lpn, 1, ready);
}

uint64_t sim_ftl_append_n(struct sim_dev *d, int stream, const uint32_t *lpns, uint32_t n,
                          uint64_t ready)
{
	struct sim_stream *s = &d->stream[stream];
	uint32_t pu = d->g.pu;
	uint64_t end = 0;

	while (n) {
		struct sim_blk *k;
		uint32_t b, off, phys, run;

		if (s->blk == SIM_NONE)
			s->blk = sim_ftl_alloc(d, stream, stream == SIM_STREAM_SLC);
		b = s->blk;
		k = &d->blk[b];
		off = k->wp;
		phys = b * d->g.b + off;
		/* up to the end of the open program unit */
		run = pu - (off & (pu - 1));
		if (run > n)
			run = n;
		if (!(off & (pu - 1)))
			d->prog_end[phys >> d->g.pu_shift] = SIM_PENDING;
		for (uint32_t i = 0; i < run; i++) {
			d->p2l[phys + i] = lpns[i] + 1;
			sim_l2p_set(d, lpns[i], phys + i);
		}
		k->wp += run;
		k->valid += run;
		if (!k->is_static)
			d->empty_units -= run;
		if (ready > s->ready)
			s->ready = ready;
		if (!(k->wp & (pu - 1)))
			end = ftl_program(d, stream, b, off >> d->g.pu_shift);
		ftl_maybe_close(d, s, b);
		lpns += run;
		n -= run;
	}
	return end;
}

uint64_t sim_ftl_pad(struct sim_dev *d, int stream)
{
	struct sim_stream *s = &d->stream[stream];
	uint32_t b = s->blk, off, n;
	uint64_t end;

	if (b == SIM_NONE)
		return 0;
	off = d->blk[b].wp;
	if (off % d->g.pu == 0)
		return 0;
	n = d->g.pu - off % d->g.pu;
	d->blk[b].wp += n;
	if (!d->blk[b].is_static)
		d->empty_units -= n;
	d->c.pad_units += n;
	end = ftl_program(d, stream, b, off / d->g.pu);
	ftl_maybe_close(d, s, b);
	return end;
}

uint64_t sim_ftl_host_write(struct sim_dev *d, uint32_t lpn, uint64_t ready)
{
	uint32_t slot = (uint32_t)(d->buf_head++ & (d->g.nslots - 1));
	uint64_t rel = d->buf_rel[slot];
	uint64_t ack = ready;
	uint32_t old;
	struct sim_stream *s;
	int st;

	if (rel != SIM_PENDING && rel > ack)
		ack = rel;
	d->buf_rel[slot] = SIM_PENDING;
	sim_gc_pace(d, d->now);
	old = sim_l2p(d, lpn);
	if (old != SIM_NONE)
		sim_ftl_invalidate(d, old);
	else
		d->valid_lpns++;
	st = sim_slc_route(d);
	if (st == SIM_STREAM_SLC)
		d->c.slc_hit_units++;
	else if (d->p.slc != SIM_SLC_OFF)
		d->c.slc_overflow_units++;
	s = &d->stream[st];
	s->pend[s->npend++] = slot;
	sim_ftl_append(d, st, lpn, ack);
	d->c.host_units++;
	d->c.empty_sum += d->empty_units;
	d->c.empty_samples++;
	return ack;
}

void sim_ftl_trim_unit(struct sim_dev *d, uint32_t lpn)
{
	uint32_t old = sim_l2p(d, lpn);

	if (old == SIM_NONE)
		return;
	sim_l2p_unmap(d, lpn);
	sim_ftl_invalidate(d, old);
	d->valid_lpns--;
	d->c.trimmed_units++;
}

/* sim_p2l, also for a block set up in steady state whose p2l is not built yet */
static uint32_t ftl_check_p2l(const struct sim_dev *d, uint64_t p)
{
	uint32_t l;

	if (d->blk[p / d->g.b].lazy != 1)
		return sim_p2l(d, p);
	l = sim_steady_at(d, p);
	return l != SIM_NONE && sim_l2p(d, l) == p ? l : SIM_NONE;
}

int sim_ftl_check(const struct sim_dev *d, char *msg, size_t msglen)
{
	uint64_t mapped = 0, empty = 0;
	uint32_t *cnt = calloc(d->g.nblocks, sizeof(*cnt));

	if (!cnt)
		return -ENOMEM;
	for (uint64_t l = 0; l < d->g.U; l++) {
		uint32_t p = sim_l2p(d, l);
		if (p == SIM_NONE)
			continue;
		mapped++;
		if (ftl_check_p2l(d, p) != l) {
			snprintf(msg, msglen, "l2p[%llu] = %u but p2l[%u] = %u",
			         (unsigned long long)l, p, p, ftl_check_p2l(d, p));
			free(cnt);
			return -EINVAL;
		}
	}
	for (uint64_t p = 0; p < (uint64_t)d->g.nblocks * d->g.b; p++)
		if (ftl_check_p2l(d, p) != SIM_NONE)
			cnt[p / d->g.b]++;
	for (uint32_t b = 0; b < d->g.nblocks; b++) {
		const struct sim_blk *k = &d->blk[b];
		if (cnt[b] != k->valid) {
			snprintf(msg, msglen, "block %u: valid %u but %u units map to it", b,
			         k->valid, cnt[b]);
			free(cnt);
			return -EINVAL;
		}
		if (k->is_static)
			continue;
		if (k->state == SIM_BLK_FREE)
			empty += d->g.b;
		else if (k->state == SIM_BLK_OPEN)
			empty += sim_blk_cap(d, b) - k->wp;
	}
	free(cnt);
	if (mapped != d->valid_lpns) {
		snprintf(msg, msglen, "%llu units mapped, counter says %llu",
		         (unsigned long long)mapped, (unsigned long long)d->valid_lpns);
		return -EINVAL;
	}
	if (empty != d->empty_units) {
		snprintf(msg, msglen, "%llu empty units, counter says %llu",
		         (unsigned long long)empty, (unsigned long long)d->empty_units);
		return -EINVAL;
	}
	return 0;
}
