/*
 * profile_priv.h - `raidlab profile learn` and `profile check`, shared parts.
 *
 * learn (cmd_profile_learn.c) runs a characterization on any target through
 * the target interface only: the probes below (latency against queue depth
 * and block size, reads and writes apart, the interface limit) and a
 * sequential fill that finds the write knee.  profile_fit.c then fits the
 * simulator's parameters to those figures: it writes a candidate profile,
 * opens it as ssd(FILE), runs the same probes on it and moves the
 * parameters, one at a time in log space within bounds, to the least sum of
 * squared log errors.  The black box's own parameters are never read: a
 * simulated drive is measured exactly as a disk is.
 */
#ifndef RL_CLI_PROFILE_PRIV_H
#define RL_CLI_PROFILE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/io.h"
#include "core/target.h"

/* What a probe's figure is. */
enum pl_fig { PL_LAT_US, PL_IOPS, PL_MBS };

/** One characterization job. */
struct pl_probe {
	const char *id;   /* "rr4k-qd1" */
	const char *what; /* "4K random reads, QD1" */
	const char *job;  /* job options: "rw=randread bs=4k iodepth=1" */
	enum pl_fig fig;
	enum rl_op dir;
	bool timed;    /* time-based (runtime); else one pass over the area */
	bool span;     /* over the whole target, not the test area */
	double weight; /* in the least-squares objective (0: reported, not fitted) */
};

extern const struct pl_probe pl_probes[];
extern const size_t pl_nprobes;

/** Slices of each time-based probe, interleaved with its group's (medians). */
#define PL_ROUNDS 5

/** How the probes run. */
struct pl_plan {
	uint64_t area;       /* the test area at offset 0, bytes */
	uint64_t runtime_ns; /* each time-based probe, in all */
	unsigned rounds;     /* slices of it, interleaved with its group's (0 or 1: one) */
	bool quiet;
};

/** Progress: the caller's line (phase, done, total). */
typedef void (*pl_note_fn)(void *arg, const char *phase, double frac);

/**
 * Run every probe on @t in order; figures into @out[pl_nprobes] (NAN where a
 * probe could not run).  0, -EINTR when stopped, or a negative errno with
 * @msg.
 */
int pl_run_probes(struct rl_target *t, const struct pl_plan *plan, double *out, pl_note_fn note,
                  void *arg, char *msg, size_t msglen);

/** What the sequential fill saw. */
struct pl_knee {
	uint64_t written;          /* bytes written by the fill (the area's included) */
	double cache_mbs;          /* the rate before the knee */
	double after_mbs;          /* the rate after it (0: no knee seen) */
	uint64_t knee;             /* bytes written when the rate fell (0: none seen) */
	unsigned chunks;           /* chunks measured */
	bool sampled;              /* the fill stopped before the end of the drive */
	double cache_sd, after_sd; /* relative spread of the chunks' rates */
};

/**
 * Write sequentially (1 MiB, QD8) from offset @from in chunks until the rate
 * has fallen and stayed low, the target ends, or @budget_ns (on the target's
 * clock) is spent.  0, -EINTR when stopped, or a negative errno.
 */
int pl_fill(struct rl_target *t, uint64_t from, uint64_t budget_ns, struct pl_knee *k,
            pl_note_fn note, void *arg, char *msg, size_t msglen);

/** What sustained random writes over the whole written target showed. */
struct pl_sustain {
	bool run;        /* measured (the fill reached the end of the target) */
	unsigned slices; /* consecutive slices of slice_ns each */
	uint64_t slice_ns;
	double iops;        /* the mean rate over the slices (what the window wrote) */
	double first, last; /* the first and last slice's rates */
	double spread;      /* relative spread of the slices' rates */
};

/** Slices pl_sustain runs after the fill (each one probe's time). */
#define PL_SUSTAIN_SLICES 8

/** The probe pl_sustain runs: 4K random writes QD32 over the whole target. */
extern const struct pl_probe pl_sustain_probe;

/**
 * After the fill: @s->slices slices of @s->slice_ns each of 4K random
 * writes at QD32 over the whole of @t; the rates into @s.  0, -EINTR when
 * stopped, or a negative errno with @msg.
 */
int pl_sustain(struct rl_target *t, struct pl_sustain *s, pl_note_fn note, void *arg, char *msg,
               size_t msglen);

/** Where the spare area (op_pct) came from. */
enum pl_op_fit {
	PL_OP_GUESS,  /* the common value: the fill did not reach the end */
	PL_OP_FITTED, /* the model's rate from full is rw4k-full's */
	PL_OP_AT_HI,  /* the search's upper bound: the model is slower even there */
	PL_OP_AT_LO,  /* the search's lower bound: the model is faster even there */
	PL_OP_LEAST,  /* fitted, but the black box did not slow down: a least value */
};

/** The fitted model: the parameters learn writes and where each came from. */
#define PL_NPAR        8
#define PL_NPROBES_MAX 16
struct pl_model {
	bool sata;
	double link_mbs;
	unsigned dies;       /* in total, on 8 channels (fewer when there are fewer dies) */
	double par[PL_NPAR]; /* see pl_par_names: in their units (us, MB/s) */
	double unc[PL_NPAR]; /* relative uncertainty (0.1 = +-10 %) */
	uint64_t capacity;
	uint64_t slc_size; /* 0: no SLC cache */
	double t_prog_us;  /* after the knee */
	double op_pct;
	enum pl_op_fit op_fit;
	double sens[PL_NPAR][PL_NPROBES_MAX]; /* d ln figure / d ln parameter, per probe */
	double rms;                           /* root mean square log error of the fit */
	unsigned evals;                       /* simulations run */
};

extern const char *const pl_par_names[PL_NPAR];

/** Write @m as a profile file to @f (name, description, tagged parameters). */
void pl_model_write(FILE *f, const struct pl_model *m, const char *name, const char *target,
                    const struct pl_knee *k, const struct pl_sustain *sus, const double *meas,
                    const struct pl_plan *plan);

/**
 * Fit @m to the figures @meas (first guesses in @m from pl_model_guess).
 * Each evaluation writes a candidate to @tmp and runs the probes on
 * ssd(@tmp) with @plan.  Stops after @max_evals.  0 or a negative errno.
 */
void pl_model_guess(struct pl_model *m, const double *meas, const struct pl_knee *k,
                    uint64_t capacity);
int pl_model_fit(struct pl_model *m, const double *meas, const struct pl_plan *plan,
                 const char *tmp, unsigned max_evals, pl_note_fn note, void *arg, char *msg,
                 size_t msglen);

/**
 * The write knee: run the fill on the model and scale its SLC size and its
 * program time after the cache until its knee and rate match @meas; the
 * model's last fill in @got.  0 or a negative errno.
 */
int pl_model_knee(struct pl_model *m, const struct pl_knee *meas, const struct pl_plan *plan,
                  const char *tmp, struct pl_knee *got, char *msg, size_t msglen);

/**
 * The spare area: open the model full (every block written once, as the
 * fill leaves the black box), run @meas's sustained random writes on it and
 * search op_pct (bisection in log space) for the rate @meas saw; the
 * model's figures in @got.  Nothing when @meas was not run.  0 or a
 * negative errno.
 */
int pl_model_spare(struct pl_model *m, const struct pl_sustain *meas, const char *tmp,
                   struct pl_sustain *got, char *msg, size_t msglen);

/** A new empty candidate file in $TMPDIR (or /tmp): its descriptor, or -1. */
int pl_tmpfile(char *path, size_t len);

/** Simulate the model's probes (@out[pl_nprobes]); 0 or a negative errno. */
int pl_model_probe(const struct pl_model *m, const struct pl_plan *plan, const char *tmp,
                   double *out, char *msg, size_t msglen);

#endif
