/*
 * trace.h - recorded block I/O: what a machine did, to replay as a workload.
 *
 * A trace is an ordered list of requests, each with the time it was issued
 * (nanoseconds from the start of the recording), its direction, offset and
 * length in bytes.  raidlab stores traces as fio's iolog version 3 (fio
 * replays them with read_iolog=), and reads:
 *   - fio iolog v2 ("fio version 2 iolog"; time from its wait lines) and v3
 *     ("fio version 3 iolog"; a timestamp in microseconds per line);
 *   - blkparse's default text output (blktrace -d DEV -o - | blkparse -i -),
 *     taking the Q (queued) events: the requests as their submitter issued
 *     them, before the scheduler merged or split them;
 *   - the kernel's block tracer as tracefs prints it (current_tracer=blk),
 *     the same events in ftrace's line layout.
 * An iolog names the files its requests went to; each request keeps the
 * index of its file in the trace's list of names (in order of first
 * mention), so a replay can send each file's requests to that file.
 * Parsers reject malformed input with "NAME:LINE: field F (WHAT): ..." and
 * never read past the buffer they are given.  See docs/traces.md.
 */
#ifndef RL_WORKLOAD_TRACE_H
#define RL_WORKLOAD_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/io.h"

#define WL_TRACE_MAX_IOS       (64u << 20) /* requests in one trace */
#define WL_TRACE_LEN_MAX       (1u << 30)  /* bytes in one request */
#define WL_TRACE_DEPTH_MAX     (1024u)     /* the most in flight a trace's depth says (fio's cap) */
#define WL_TRACE_DEPTH_UNKNOWN (64u)       /* replay depth of a trace that does not say its own */
#define WL_TRACE_FILES_MAX     (256u)      /* distinct file names in one iolog */

struct wl_trace_io {
	uint64_t t_ns; /* issue time since the start of the trace */
	uint64_t off;  /* bytes */
	uint32_t len;  /* bytes; 0 for a flush */
	uint8_t op;    /* enum rl_op */
	uint16_t file; /* index into wl_trace.files (0 when the trace names none) */
};

struct wl_trace {
	struct wl_trace_io *io;
	size_t n, cap;
	uint64_t end;   /* footprint: the largest offset + length */
	unsigned depth; /* recorded in-flight depth: the most requests queued and not yet
	                   complete (block traces with completions, or the iolog's
	                   "# in-flight depth N" comment); 0: not known */
	/* block-trace parsing: queued and not yet complete now, the most so far, and
	   whether any completion was seen (without any, the depth is not known) */
	unsigned inflight, inflight_max;
	bool completions;
	char format[24]; /* what it was read from: "iolog v3", "blkparse", ... */
	char **files;    /* iologs: the file names, in order of first mention */
	unsigned nfiles; /* 0: the trace names no file (a block trace) */
};

/** The line shapes a block-trace text comes in. */
enum wl_trace_blk { WL_TRACE_BLKPARSE, WL_TRACE_TRACEFS };

/** What a block-trace line is (wl_trace_blk_line's positive results). */
enum wl_trace_event {
	WL_TRACE_EV_QUEUE = 1,    /* Q: a request, in *io */
	WL_TRACE_EV_MERGE = 2,    /* M, F: a queued request merged into another */
	WL_TRACE_EV_COMPLETE = 3, /* C: a request completed */
};

/** What a trace does, for `raidlab trace summary`. */
struct wl_trace_summary {
	uint64_t n[RL_OP_COUNT];     /* requests per direction */
	uint64_t bytes[RL_OP_COUNT]; /* bytes per direction */
	uint64_t duration_ns;        /* last issue time */
	uint64_t footprint;          /* distinct bytes touched (reads, writes, trims) */
	uint64_t sequential;         /* requests starting where the previous one of its
	                                direction ended */
	uint64_t size_count[8];      /* requests <=4k, <=8k, <=16k, <=64k, <=128k, <=512k,
	                                <=1m, larger */
	unsigned depth_max;          /* most requests issued within one 1 ms window */
	double depth_mean;           /* mean requests per non-empty 1 ms window */
};

void wl_trace_init(struct wl_trace *tr);
void wl_trace_free(struct wl_trace *tr);

/** Append one request; -ENOMEM, or -E2BIG past WL_TRACE_MAX_IOS. */
int wl_trace_add(struct wl_trace *tr, uint64_t t_ns, enum rl_op op, uint64_t off, uint32_t len);

/**
 * The index of file @name in @tr's list, added if new: >= 0, -ENOMEM, or
 * -E2BIG past WL_TRACE_FILES_MAX names.
 */
int wl_trace_file(struct wl_trace *tr, const char *name);

/** The footprint of file @file in @tr: the largest offset + length of its requests. */
uint64_t wl_trace_file_end(const struct wl_trace *tr, unsigned file);

/**
 * Parse @len bytes of @text (need not be NUL-terminated) named @name in
 * messages into @tr (initialised here; freed on failure).  The format is
 * recognised from the first line.  Returns 0, or -EINVAL/-ENOMEM/-E2BIG with
 * a message naming the line and field.
 */
int wl_trace_parse(const char *text, size_t len, const char *name, struct wl_trace *tr, char *msg,
                   size_t msglen);

/** Read the file @path and parse it (wl_trace_parse). */
int wl_trace_load(const char *path, struct wl_trace *tr, char *msg, size_t msglen);

/**
 * One line of block-trace text in layout @kind: WL_TRACE_EV_QUEUE with a
 * request in *@io (its time absolute, as the line gives it),
 * WL_TRACE_EV_MERGE or WL_TRACE_EV_COMPLETE for the events that end a
 * queued request, 0 for any other line (another event, a header, a PC
 * request), or -EINVAL with the field named in @msg (prefixed by @where).
 */
int wl_trace_blk_line(const char *line, enum wl_trace_blk kind, const char *where,
                      struct wl_trace_io *io, char *msg, size_t msglen);

/**
 * Record the block device @dev with the kernel's block tracing (tracefs's
 * blk tracer; trace_record.c): run @argv (NULL or empty: none) and record
 * until it exits (its wait status in *@status), @duration_ns passes (0: no
 * limit) or *@stop is set.  Needs root.  Returns 0, or -errno with @msg;
 * -EOVERFLOW when the kernel lost events (its trace buffer overflowed),
 * with the count in @msg and what was recorded still in @tr.
 */
int wl_trace_record_blk(const char *dev, char *const *argv, uint64_t duration_ns,
                        volatile sig_atomic_t *stop, struct wl_trace *tr, int *status, char *msg,
                        size_t msglen);

/**
 * Count a block-trace event into @tr's in-flight depth: a queued request
 * adds one, a merge or completion takes one; once a completion was seen
 * tr->depth is the most in flight (as fio probes a blktrace's depth), up
 * to WL_TRACE_DEPTH_MAX.
 */
void wl_trace_depth_event(struct wl_trace *tr, enum wl_trace_event ev);

/** The iodepth a replay of @tr uses unless iodepth is given: its recorded depth, else
 * WL_TRACE_DEPTH_UNKNOWN. */
unsigned wl_trace_replay_depth(const struct wl_trace *tr);

/**
 * Write @tr as fio iolog v3, as fio's write_iolog does: the version line,
 * "add" for every file, each file's "open" before its first request, the
 * requests (TIMESTAMP FILE ACTION OFFSET LENGTH) and "close" for every file
 * at the end.  @file non-NULL: every request on that one file, with the
 * recorded depth (if known) in a "# in-flight depth N" comment after the
 * version line (fio warns about the line and replays the rest); NULL: each
 * request on its own file of tr->files ("trace" when there are none).
 * Returns 0 or -errno.
 */
int wl_trace_write(const struct wl_trace *tr, const char *file, FILE *f);

void wl_trace_summarize(const struct wl_trace *tr, struct wl_trace_summary *s);

/**
 * Where request @io of a trace lands on a region of @region bytes starting
 * at @start, in blocks of @block bytes: offsets wrap round the region when
 * the trace's footprint is larger (so sequential runs stay sequential),
 * a request that would cross the end moves back to end there, and offset
 * and length are aligned to @block.  Sets *off and *len.
 */
void wl_trace_map(const struct wl_trace_io *io, uint64_t start, uint64_t region, uint32_t block,
                  uint64_t *off, uint32_t *len);

#endif
