/*
 * pace.h - the emulation governor: how slow a served simulated stack runs.
 *
 * A simulated stack is served on a paced executor (core/exec_paced.c),
 * whose clock runs `slow` wall nanoseconds per simulated one.  The right
 * factor depends on this machine, how busy it is, and what the clients do:
 * 1 MiB reads from a SATA drive are easy to follow in real time, 4 KiB
 * reads at queue depth 1 are not, because every wake-up of the server
 * costs tens of microseconds against a simulated 90.  With `--slow auto`
 * the governor finds the factor while clients run: it watches how late
 * the executor's timers fire (lag, in simulated time) against how long
 * the requests completed in the same window took (service time), and when
 * windows' mean lag is over SERVE_PACE_LIMIT_PCT of their mean service
 * time (SERVE_PACE_OVER in a row), it raises the factor to the next step (1, 2, 3, 4, 6, 8, 12,
 * ...), never lowering it.  Each raise is recorded with the measurement that caused it, so a report
 * can show that the factor below the chosen one did fall behind, and is announced through the pace
 * file (a whole file rewritten by rename: "slow N\nraises R\nauto A\n", A 1 when the governor
 * may raise), so a client that measures in wall
 * time (the file suites) knows to restart a phase that a raise cut through.  A fixed factor
 * (`--slow N`) is the same governor that never raises: its windows are still measured and the worst
 * one reported.
 */
#ifndef RL_SERVE_PACE_H
#define RL_SERVE_PACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rl_exec;
struct json_object;

/* A window is judged once it is this long (wall) and has this many completions. */
#define SERVE_PACE_WINDOW_NS  (250ull * 1000 * 1000)
#define SERVE_PACE_WINDOW_MIN 32
/* The emulation keeps up while mean lag <= this share of mean service time... */
#define SERVE_PACE_LIMIT_PCT 5
/* ...or under this many simulated ns, whatever the service time. */
#define SERVE_PACE_LIMIT_FLOOR 2000
/* Raise after this many judged windows over the limit in a row. */
#define SERVE_PACE_OVER      2
#define SERVE_PACE_MAX_STEPS 32

/** One raise of the factor and the window that caused it. */
struct serve_pace_step {
	uint32_t from, to;  /* the factor before and after */
	double at_s;        /* wall seconds since the server started */
	double lag_us;      /* the window's mean lag, simulated us */
	double limit_us;    /* what it was allowed (the limit of that window) */
	uint64_t completed; /* completions in that window */
};

struct serve_pace {
	struct rl_exec *ex; /* the paced executor */
	bool autoslow;      /* --slow auto: raise the factor when behind */
	uint32_t max;       /* the highest factor auto may choose */
	const char *file;   /* the pace file, or NULL */
	/* the current window: start and the counters at its start */
	uint64_t wall0, lag_sum0, lag_count0, lat_sum0, lat_count0;
	bool settle;         /* the next window is not judged (start, after a raise) */
	unsigned over;       /* judged windows over the limit in a row */
	uint64_t start_wall; /* wall clock when the governor started */
	/* at the current factor: the worst judged window (mean lag over limit),
	 * the longest run of windows over their limits, the judged totals */
	double worst_ratio, worst_lag_us, worst_limit_us;
	unsigned over_max;
	double sum_lag, sum_svc; /* simulated ns, weighted by completions */
	uint64_t sum_lag_n, sum_svc_n;
	unsigned windows; /* windows judged at the current factor */
	unsigned nsteps;
	struct serve_pace_step steps[SERVE_PACE_MAX_STEPS];
};

/**
 * Start the governor on paced executor @ex at its current factor; @autoslow
 * lets it raise up to @max; @file (may be NULL) gets the factor now and at
 * each raise.  0 or -errno (the pace file could not be written).
 */
int serve_pace_init(struct serve_pace *p, struct rl_exec *ex, bool autoslow, uint32_t max,
                    const char *file);

/**
 * Judge the window if it is complete: @lat_sum/@lat_count are the server's
 * running totals of request service time (simulated ns).  Cheap when not.
 */
void serve_pace_poll(struct serve_pace *p, uint64_t lat_sum, uint64_t lat_count);

/** The factor now. */
uint32_t serve_pace_slow(const struct serve_pace *p);

/**
 * Whether the emulation kept up at the current factor: the mean lag of the
 * judged windows within the limit of their mean service time (*lag_us and
 * *limit_us, either may be NULL).  True when nothing was judged.
 */
bool serve_pace_kept_up(const struct serve_pace *p, double *lag_us, double *limit_us);

/** One line per raise, and the verdict at the final factor, to @f. */
void serve_pace_report(const struct serve_pace *p, FILE *f);

/** The governor as JSON: slow, auto, steps[], worst window. */
struct json_object *serve_pace_json(const struct serve_pace *p);

/** The factor after @slow in the raise sequence (1, 2, 3, 4, 6, 8, 12, ...). */
uint32_t serve_pace_next(uint32_t slow);

#endif
