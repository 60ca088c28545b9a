/*
 * test_sim_load.h - a small load generator for the simulator tests.
 *
 * Drives a target on a virtual executor the way a benchmark would: keeps
 * `qd` requests in flight, each completion issues the next one, offsets
 * sequential (wrapping in the region) or uniform random (block aligned, from
 * a seeded splitmix64, so runs repeat exactly).  Measures in simulated time:
 * throughput, IOPS, mean/min/max latency, and optionally the completion
 * time of every `win`-th request (for curves such as the SLC cliff).
 *
 * Header-only (static functions) so each test_sim*.c program includes it.
 */
#ifndef TEST_SIM_LOAD_H
#define TEST_SIM_LOAD_H

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "core/exec.h"
#include "core/registry.h"
#include "core/target.h"

#define SL_QD_MAX 256

struct sl_load {
	struct rl_target *t;
	struct rl_exec *ex;
	int op;
	bool random;
	uint32_t bs, qd;
	uint64_t off, len; /* region */
	uint64_t count;    /* requests to complete */
	uint64_t seed;
	uint64_t win; /* record every win-th completion time (0: none) */
	uint8_t *buf; /* optional data buffer, bs * qd bytes */

	/* results */
	uint64_t issued, done, pos, t0, t1, bytes, lat_sum, lat_min, lat_max;
	int errors;
	uint64_t *win_t;
	size_t nwin;
	struct rl_io io[SL_QD_MAX];
	uint64_t sub_t[SL_QD_MAX];
};

static inline uint64_t sl_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void sl_submit(struct sl_load *l, struct rl_io *io)
{
	uint64_t nblk = l->len / l->bs, off;
	size_t i = (size_t)(io - l->io);

	if (l->random) {
		off = l->off +
		      (uint64_t)(((unsigned __int128)sl_rand(&l->seed) * nblk) >> 64) * l->bs;
	} else {
		off = l->off + l->pos * l->bs;
		l->pos = (l->pos + 1) % nblk;
	}
	io->op = (uint8_t)l->op;
	io->flags = 0;
	io->offset = off;
	io->len = l->bs;
	io->buf = l->buf ? l->buf + i * l->bs : NULL;
	io->ex = l->ex;
	l->sub_t[i] = rl_exec_now(l->ex);
	l->issued++;
	rl_target_submit(l->t, io);
}

static inline void sl_done(struct rl_io *io, int status)
{
	struct sl_load *l = io->cb_arg;
	size_t i = (size_t)(io - l->io);
	uint64_t now = rl_exec_now(l->ex), lat = now - l->sub_t[i];

	if (status)
		l->errors++;
	l->done++;
	if (l->done > l->issued)
		l->errors++; /* completed twice */
	l->bytes += io->len;
	l->lat_sum += lat;
	if (lat > l->lat_max)
		l->lat_max = lat;
	if (lat < l->lat_min)
		l->lat_min = lat;
	l->t1 = now;
	if (l->win && l->done % l->win == 0 && l->win_t)
		l->win_t[l->nwin++] = now;
	if (l->issued < l->count)
		sl_submit(l, io);
}

/* Run the load to completion; returns 0 or -1 if the executor stalled. */
static inline int sl_run(struct sl_load *l)
{
	uint32_t qd = l->qd > SL_QD_MAX ? SL_QD_MAX : l->qd;

	l->issued = l->done = l->bytes = l->lat_sum = l->lat_max = 0;
	l->lat_min = UINT64_MAX;
	l->errors = 0;
	l->nwin = 0;
	if (l->win) {
		free(l->win_t);
		l->win_t = calloc(l->count / l->win + 1, sizeof(*l->win_t));
	}
	l->t0 = rl_exec_now(l->ex);
	for (uint32_t i = 0; i < qd && l->issued < l->count; i++) {
		memset(&l->io[i], 0, sizeof(l->io[i]));
		l->io[i].cb = sl_done;
		l->io[i].cb_arg = l;
		sl_submit(l, &l->io[i]);
	}
	while (l->done < l->count) {
		int rc = rl_exec_run_once(l->ex, true);
		if (rc < 0 || (rc == 0 && rl_exec_idle(l->ex)))
			return -1;
	}
	return 0;
}

static inline double sl_mbps(const struct sl_load *l)
{
	return l->t1 > l->t0 ? (double)l->bytes * 1e3 / (double)(l->t1 - l->t0) : 0;
}

static inline double sl_iops(const struct sl_load *l)
{
	return l->t1 > l->t0 ? (double)l->done * 1e9 / (double)(l->t1 - l->t0) : 0;
}

static inline double sl_lat_us(const struct sl_load *l)
{
	return l->done ? (double)l->lat_sum / (double)l->done / 1e3 : 0;
}

static inline void sl_idle_done(struct rl_io *io, int status)
{
	(void)status;
	*(bool *)io->cb_arg = true;
}

/* Let @ns of simulated time pass with nothing submitted (an idle drive). */
static inline void sl_idle(struct rl_exec *ex, uint64_t ns)
{
	bool fired = false;
	struct rl_io io = {.cb = sl_idle_done, .cb_arg = &fired, .ex = ex};

	rl_exec_at(ex, &io, rl_exec_now(ex) + ns, 0);
	while (!fired)
		rl_exec_run_once(ex, true);
}

static inline struct rl_target *sl_open(const char *spec)
{
	return ut_open(spec);
}

/* A number from the target's report: path like "gc.victims". */
static inline double sl_report_num(struct rl_target *t, const char *path)
{
	struct json_object *r = rl_target_report(t), *o = r, *v = NULL;
	char buf[128], *save = NULL;
	double x = NAN;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		if (!json_object_object_get_ex(o, k, &v)) {
			v = NULL;
			break;
		}
		o = v;
	}
	if (v)
		x = json_object_get_double(v);
	json_object_put(r);
	return x;
}

#endif
