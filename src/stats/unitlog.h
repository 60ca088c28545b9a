/*
 * unitlog.h - one record per completed I/O, for fio's per-I/O logs
 * (log_avg_msec=0, fio's default for write_bw_log, write_lat_log and
 * write_iops_log).
 *
 * A job's worker appends a record at each counted completion: when it
 * completed (since the job's measurement began), its total and completion
 * latencies, where and how large, which direction and whether it carried
 * the job's cmdprio priority.  Records are 40 bytes and held in memory
 * until the job ends, as fio holds its log samples; at ST_UNITLOG_MAX
 * records (2.5 GB) the log stops growing and says so (fio disables a log
 * that cannot grow).  Logs of a job's clones are merged by appending, and
 * st_unitlog_sort() puts them in completion order before they are written.
 */
#ifndef RL_STATS_UNITLOG_H
#define RL_STATS_UNITLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ST_UNITLOG_MAX (64u * 1024 * 1024)

struct st_unit {
	uint64_t t_ns;    /* completion, since start_ns */
	uint64_t lat_ns;  /* submission to completion */
	uint64_t clat_ns; /* issue to completion (lat_ns when not measured apart) */
	uint64_t offset;  /* bytes into the target */
	uint32_t bs;      /* bytes */
	uint8_t dir;      /* 0 read, 1 write, 2 trim */
	uint8_t cmdprio;  /* 1: sent with the job's cmdprio priority */
	uint8_t split;    /* 1: submission and completion timed apart (lat - clat is slat) */
};

struct st_unitlog {
	bool on;   /* records are kept */
	bool full; /* ST_UNITLOG_MAX reached, or memory ran out: later ones dropped */
	uint64_t start_ns;
	struct st_unit *v;
	size_t n, cap;
};

/** Start an empty log whose times count from @start_ns. */
void st_unitlog_init(struct st_unitlog *l, uint64_t start_ns);
/**
 * Append a completion at @t_ns (absolute, as @start_ns); nothing when the
 * log is off or full.  0, or -ENOSPC/-ENOMEM when it just became full.
 */
int st_unitlog_add(struct st_unitlog *l, uint64_t t_ns, const struct st_unit *u);
/** Append @src's records to @dst (its times shifted to @dst's start).  0 or -ENOMEM. */
int st_unitlog_merge(struct st_unitlog *dst, const struct st_unitlog *src);
/** Records in completion order (stable: equal times keep their order). */
void st_unitlog_sort(struct st_unitlog *l);
/** Free the records; safe to call twice. */
void st_unitlog_free(struct st_unitlog *l);

#endif
