/*
 * host.c - the host interface: device queue, controller, link.
 *
 *  - Device queue: SATA and AHCI have one queue of 32 commands (NCQ); NVMe
 *    has queues x queue_depth.  Commands beyond that wait on the host side.
 *    Because every command's completion time is known when it is admitted,
 *    the queue is a min-heap of the completion times of the commands inside
 *    the device: a new command starts when the earliest of them ends (or at
 *    once if a slot is free).  The heap only holds commands still running,
 *    so its size is the workload's queue depth, not the device's.
 *  - Controller: the firmware processes commands one at a time, cmd_time
 *    each (cmd_write_time for writes).  This caps IOPS and adds latency.
 *    A drive may also owe work after a write is acknowledged (write_after:
 *    a drive that acknowledges once the data is in its DRAM and merges it
 *    into the flash mapping afterwards): the processor stays busy that long
 *    past the acknowledgement, so the next command waits for what is left
 *    of it, and a gap between commands absorbs it.
 *  - Link: a calendar per direction for NVMe/AHCI over PCIe (full duplex),
 *    one shared calendar for SATA (half duplex).  Optional controller data
 *    path limits (ctrl_read_bw / ctrl_write_bw) are one more calendar each.
 *    On writes the data path takes the data as its frames arrive (8 KiB
 *    DATA FISes on SATA), so a large command costs the slower of the two
 *    rates plus one frame, not their sum.
 *  - latency: a fixed per-command delay that occupies nothing (bus round
 *    trips, interrupt); dev.c adds it at completion.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim/sim.h"

#define HOST_CAL_CAP 4096
#define HOST_FRAME   8192 /* SATA's largest DATA FIS; NVMe moves data in TLPs */

static inline uint64_t xfer_ns(uint64_t bytes, uint64_t rate)
{
	return (bytes * 1000000000ull + rate - 1) / rate;
}

int sim_host_init(struct sim_dev *d)
{
	struct sim_host *h = &d->host;
	int rc;

	h->half_duplex = d->p.iface == SIM_IFACE_SATA;
	h->slots = calloc(d->g.qd + 1, sizeof(*h->slots));
	if (!h->slots)
		return -ENOMEM;
	for (int i = 0; i < 2; i++) {
		if ((rc = sim_cal_init(&h->link[i], HOST_CAL_CAP,
		                       xfer_ns(d->p.logical_block, d->g.link_bw))) ||
		    (rc = sim_cal_init(&h->ctrl[i], HOST_CAL_CAP, 0)))
			return rc;
	}
	return 0;
}

void sim_host_free(struct sim_dev *d)
{
	struct sim_host *h = &d->host;

	free(h->slots);
	h->slots = NULL;
	for (int i = 0; i < 2; i++) {
		sim_cal_free(&h->link[i]);
		sim_cal_free(&h->ctrl[i]);
	}
}

static void heap_down(uint64_t *a, uint32_t n, uint32_t i)
{
	uint64_t v = a[i];

	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && a[c + 1] < a[c])
			c++;
		if (a[c] >= v)
			break;
		a[i] = a[c];
		i = c;
	}
	a[i] = v;
}

static void heap_pop(struct sim_host *h)
{
	h->slots[0] = h->slots[--h->nslots];
	if (h->nslots)
		heap_down(h->slots, h->nslots, 0);
}

uint64_t sim_host_admit(struct sim_dev *d, uint64_t now)
{
	struct sim_host *h = &d->host;
	uint64_t start = now;

	while (h->nslots && h->slots[0] <= now)
		heap_pop(h);
	if (h->nslots >= d->g.qd) {
		start = h->slots[0];
		heap_pop(h);
		d->c.queue_wait_ns += start - now;
	}
	return start;
}

void sim_host_finish(struct sim_dev *d, uint64_t t)
{
	struct sim_host *h = &d->host;
	uint32_t i = h->nslots++;

	while (i > 0) {
		uint32_t p = (i - 1) / 2;
		if (h->slots[p] <= t)
			break;
		h->slots[i] = h->slots[p];
		i = p;
	}
	h->slots[i] = t;
}

uint64_t sim_host_cmd(struct sim_dev *d, uint64_t t, bool write)
{
	struct sim_host *h = &d->host;
	uint64_t cost = write && d->p.cmd_write_ns ? d->p.cmd_write_ns : d->p.cmd_ns;

	if (h->ctrl_free > t)
		t = h->ctrl_free;
	h->ctrl_free = t + cost;
	return h->ctrl_free;
}

void sim_host_after_write(struct sim_dev *d, uint64_t ack)
{
	struct sim_host *h = &d->host;

	if (!d->p.write_after_ns && !d->p.merge_after)
		return;
	if (h->ctrl_free < ack)
		h->ctrl_free = ack;
	h->ctrl_free += d->p.write_after_ns;
}

uint64_t sim_host_xfer(struct sim_dev *d, bool to_dev, uint64_t ready, uint64_t bytes)
{
	struct sim_host *h = &d->host;
	uint64_t cbw = to_dev ? d->p.ctrl_write_bw : d->p.ctrl_read_bw;
	struct sim_cal *link = &h->link[h->half_duplex ? 0 : to_dev];
	uint64_t t = ready, dur, start;

	if (!bytes)
		return ready;
	if (cbw && !to_dev) {
		/* controller data path before the link on reads */
		dur = xfer_ns(bytes, cbw);
		t = sim_cal_reserve(&h->ctrl[0], d->now, t, dur) + dur;
	}
	dur = xfer_ns(bytes, d->g.link_bw);
	start = sim_cal_reserve(link, d->now, t, dur);
	t = start + dur;
	if (cbw && to_dev) {
		/* the data path takes the data frame by frame as it arrives */
		uint64_t frame = bytes < HOST_FRAME ? bytes : HOST_FRAME;
		uint64_t cdur = xfer_ns(bytes, cbw);
		uint64_t cend = sim_cal_reserve(&h->ctrl[1], d->now,
		                                start + xfer_ns(frame, d->g.link_bw), cdur) +
		                cdur;
		uint64_t tail = t + xfer_ns(frame, cbw);
		t = cend > tail ? cend : tail;
	}
	return t;
}
