/*
 * disk_util.h - fio's "Disk stats": what the kernel counted for the block
 * devices under a run's files, from /proc/diskstats.
 *
 * st_disk_util_begin() finds the devices that hold the targets' files (the
 * whole disk when a file sits on a partition, the device itself for a
 * block-device target) and reads their counters.  While the jobs run, a
 * sampler thread reads them every 250 ms, as fio's helper thread does
 * (st_disk_util_sample_start/stop); st_disk_util_end() takes the latest of
 * those readings, and st_disk_util_json() writes fio's "disk_util" array of
 * the differences: requests, merges, ticks (ms), time in queue and util
 * (the share of the time to that reading the device was busy).  So, as in
 * fio, what the device did after the last tick before the jobs ended is not
 * counted, and a run shorter than one tick reports zeros.  Simulated
 * targets have no device, so their runs have an empty array, as fio's on a
 * file with no disk.
 */
#ifndef RL_RESULTS_DISK_UTIL_H
#define RL_RESULTS_DISK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/target.h"

struct json_object;

#define ST_DISK_UTIL_MAX 16

/* /proc/diskstats' first eleven counters, in its order */
enum {
	ST_DS_RIOS,
	ST_DS_RMERGE,
	ST_DS_RSECT,
	ST_DS_RTICKS,
	ST_DS_WIOS,
	ST_DS_WMERGE,
	ST_DS_WSECT,
	ST_DS_WTICKS,
	ST_DS_INFLIGHT,
	ST_DS_IOTICKS,
	ST_DS_QUEUE,
	ST_DS_N
};

struct st_du_sampler;

struct st_disk_util {
	size_t n;
	uint64_t t0_ns;                /* CLOCK_MONOTONIC at the start */
	unsigned ticks;                /* readings taken since (st_disk_util_tick) */
	double tick_ms;                /* the latest one's time after the start */
	struct st_du_sampler *sampler; /* the thread taking them, while the jobs run */
	bool sampled;                  /* a sampler ran: its readings alone are reported */
	struct {
		char name[64];
		uint64_t start[ST_DS_N];
		uint64_t tick[ST_DS_N]; /* the latest reading */
		uint64_t delta[ST_DS_N];
		double util;    /* percent of the run's wall time */
		size_t master;  /* the device this one is a member of (SIZE_MAX: none) */
		size_t nslaves; /* members of this one (md, dm), listed after it */
	} dev[ST_DISK_UTIL_MAX];
};

/** Find the devices under @targets' files and read their counters now. */
void st_disk_util_begin(struct st_disk_util *u, struct rl_target *const *targets, size_t n);

/**
 * Start reading the counters every 250 ms after st_disk_util_begin() in a
 * thread of their own; nothing happens without devices.  0 or -errno.
 */
int st_disk_util_sample_start(struct st_disk_util *u);

/** Stop that thread and keep its latest reading in @u (the jobs are done). */
void st_disk_util_sample_stop(struct st_disk_util *u);

/**
 * The differences since st_disk_util_begin() at the latest reading: the
 * sampler's, while it runs or after it stopped; without a sampler, one
 * taken now (none when the start was less than 250 ms ago).
 */
void st_disk_util_end(struct st_disk_util *u);

/** One reading of the counters from @diskstats, @ms after the start: the sampler's step. */
void st_disk_util_tick(struct st_disk_util *u, const char *diskstats, double ms);

/**
 * Add disk @name (and, after it, the members /sys/block/NAME/slaves lists)
 * with their counters from @diskstats, reading @sys for /sys: begin's own
 * step, open to a test with a tree of its own.
 */
void st_disk_util_add_disk(struct st_disk_util *u, const char *sys, const char *diskstats,
                           const char *name);

/** st_disk_util_end() without a sampler, @diskstats for /proc/diskstats, @ms after the start. */
void st_disk_util_end_at(struct st_disk_util *u, const char *diskstats, double ms);

/** fio's "disk_util" array of what st_disk_util_end() found. */
struct json_object *st_disk_util_json(const struct st_disk_util *u);

/** fio's terse disk fields (;name;rios;wios;rmerge;wmerge;rticks;wticks;queue;util%). */
void st_disk_util_terse(FILE *f, const struct st_disk_util *u);

/** fio's normal "Disk stats (read/write):" section (nothing without devices). */
void st_disk_util_normal(FILE *f, const struct st_disk_util *u);

#endif
