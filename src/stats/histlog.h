/*
 * histlog.h - latency histograms per interval, in fio's bins, for fio's
 * write_hist_log.
 *
 * fio's histogram has 29 groups of 64 bins over nanoseconds: values below
 * 128 ns one bin each, then every power of two split into 64 (1.6 %
 * steps); ST_HISTLOG_BINS = 1856 in all.  A histlog keeps one such array of
 * counts per interval of interval_ns from start_ns, growing as the run
 * goes on, so the log's lines can be written afterwards, each the counts of
 * its own interval (as fio's, which are the differences between flushes).
 */
#ifndef RL_STATS_HISTLOG_H
#define RL_STATS_HISTLOG_H

#include <stddef.h>
#include <stdint.h>

#define ST_HISTLOG_BITS 6
#define ST_HISTLOG_BINS (29 << ST_HISTLOG_BITS)

struct st_histlog {
	uint64_t interval_ns; /* 0: off */
	uint64_t start_ns;
	uint32_t *counts; /* n x ST_HISTLOG_BINS */
	size_t n;         /* intervals used (highest index written + 1) */
	size_t cap;       /* intervals allocated */
};

/** fio's bin of a latency of @ns nanoseconds. */
unsigned st_histlog_bin(uint64_t ns);

/** Start an empty log of intervals of @interval_ns from @start_ns (0: off). */
void st_histlog_init(struct st_histlog *h, uint64_t interval_ns, uint64_t start_ns);
/** Count a completion at time @t_ns that took @lat_ns.  0 or -ENOMEM. */
int st_histlog_add(struct st_histlog *h, uint64_t t_ns, uint64_t lat_ns);
/** dst += src, interval by interval (a @dst that is off takes @src's shape).  0 or -ENOMEM. */
int st_histlog_merge(struct st_histlog *dst, const struct st_histlog *src);
/** Free the counts; safe to call twice. */
void st_histlog_free(struct st_histlog *h);

#endif
