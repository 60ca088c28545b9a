/*
 * series.h - throughput over time, in fixed intervals.
 *
 * A series counts bytes and I/Os completed in each interval of
 * interval_ns, counted from start_ns (the end of ramp-up).  Storage is
 * reserved up front for the expected run length and grows (rarely) if the
 * run is longer; series of threads are added interval by interval.
 */
#ifndef RL_STATS_SERIES_H
#define RL_STATS_SERIES_H

#include <stddef.h>
#include <stdint.h>

struct st_series {
	uint64_t interval_ns; /* width of one interval */
	uint64_t start_ns;    /* clock value where interval 0 starts */
	uint64_t *bytes;      /* bytes completed in each interval */
	uint64_t *ios;        /* I/Os completed in each interval */
	size_t n;             /* intervals used (highest index written + 1) */
	size_t cap;           /* intervals allocated */
};

/**
 * Reserve room for @expect intervals (0: allocate on first use).
 * Returns 0, -EINVAL if @interval_ns is 0, or -ENOMEM.
 */
int st_series_init(struct st_series *s, uint64_t interval_ns, uint64_t start_ns, size_t expect);

/** Date an empty series' interval 0 from @start_ns (its room reserved earlier). */
void st_series_start(struct st_series *s, uint64_t start_ns);
/** Free the arrays; safe to call twice and after a failed init. */
void st_series_free(struct st_series *s);

/** Count one completion of @bytes at time @t_ns (ignored if before start). Returns 0 or -ENOMEM. */
int st_series_add(struct st_series *s, uint64_t t_ns, uint64_t bytes);

/**
 * dst += src, interval by interval (index k of src goes to index k of dst).
 * Returns 0, -EINVAL if the intervals differ or the starts differ by one
 * interval or more, or -ENOMEM.
 */
int st_series_merge(struct st_series *dst, const struct st_series *src);

#endif
