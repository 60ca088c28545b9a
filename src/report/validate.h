/*
 * validate.h - published measurements against simulated ones.
 *
 * A validation set (validation/NAME.json) is what an article measured on
 * real hardware, as data: the platform and tool, and a list of
 * configurations, each one target spec replayed with one suite, with the
 * published figures of its cells (test, direction, MB/s).  A set may also
 * list relations (qualitative findings such as "RAID 1 has very little read
 * benefit"), each a comparison between cells of two configurations, and ask
 * for the orderings of its own table to be checked: within a group of
 * configurations (the same array), every pair of cells whose published
 * figures differ by at least min_ratio must keep that order in simulation.
 *
 * This module is pure: it loads sets, takes each configuration's suite
 * result (the JSON document `raidlab run SUITE` writes), pulls the cells'
 * simulated figures out of it, and computes the statistics, the relations
 * and the orderings.  Running the configurations is the CLI's job
 * (cli/cmd_validate.c); reports never see engine internals.
 *
 * Figures: a cell's test is a test name of the suite, or "peak" for the
 * highest MB/s over every test (ATTO's peak); its metric is "mb_s"
 * (default), "lat_us" (mean latency) or another key of the direction or,
 * failing that, of the test (HD Tune's "min_mb_s").  A cell with "anomaly" set is
 * reported but not counted in the statistics.  A cell's "why" is the reason
 * the set's notes give for a known disagreement; reports print it beside
 * every cell more than VAL_FLAG_RATIO off its published figure.
 *
 * Calibration apart from checking: a cell or a relation with "fit" set (the
 * parameters that were fitted to it) is in-sample; the others are
 * out-of-sample.  The statistics are given for the whole set and for each
 * part on its own; an ordering is in-sample when either of its cells is.
 */
#ifndef RL_REPORT_VALIDATE_H
#define RL_REPORT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

struct val_cell {
	const char *test, *direction, *label, *anomaly; /* borrowed from the set's JSON */
	const char *fit; /* the parameters fitted to this cell (in-sample), or NULL */
	const char *why; /* why the figures disagree, where the set's notes say (borrowed) */
	double published;
	double simulated; /* NAN until filled */
};

struct val_config {
	const char *name, *spec, *suite; /* borrowed */
	struct json_object *params;      /* suite parameters: {"interval": "5s"} (borrowed) */
	struct val_cell *cells;
	size_t ncells;
	struct json_object *result; /* the suite result (owned), NULL until run */
	char error[256];            /* why it did not run, if it did not */
};

struct val_relation {
	const char *finding;
	const char *fit;               /* the parameters fitted to this finding, or NULL */
	struct json_object *lhs, *rhs; /* borrowed */
	const char *op;                /* "<", "<=", ">", ">=", "between" */
	double f_lo, f_hi;             /* factor: lhs op factor x rhs ("between": [lo, hi]) */
	/* outcome (val_set_check) */
	bool held;
	size_t checked; /* comparisons made */
	char *detail;   /* the first failing comparison, or a summary (owned, never NULL after a
	                   check) */
};

struct val_thresholds {
	double within_125, within_2, within_4; /* shares required (0..1); <0: not checked */
	double within_10pct; /* share of counted cells within 10 % ("max_error": 0.1 = all) */
	long relations_min;  /* at least this many findings hold; <0: not checked */
	bool orderings, relations;
};

struct val_set {
	struct json_object *doc; /* owned */
	const char *name, *title, *platform, *tool, *data;
	struct val_config *configs;
	size_t nconfigs;
	struct val_relation *relations;
	size_t nrelations;
	struct val_thresholds th;      /* enforced: below them validate fails */
	struct val_thresholds targets; /* the agreement aimed at: reported met or not */
	bool has_targets;
	double order_min_ratio; /* 0: orderings not asked for */
	const char *order_group;
};

/* The two parts of a set: cells and findings no parameter was fitted to, and the fitted ones. */
enum val_sample { VAL_OUT = 0, VAL_IN = 1, VAL_SAMPLES };

/** The agreement of one part of a set (val_stats.sample). */
struct val_agree {
	size_t cells, counted; /* cells of the part; counted: neither anomalies nor missing */
	double median_ratio, worst_ratio;
	double share_125, share_15, share_2, share_4, share_10pct;
	size_t orderings, orderings_held; /* mode orderings */
	size_t relations, relations_held;
};

/** Per-set statistics over the counted cells (val_set_check). */
struct val_stats {
	size_t cells, counted, anomalies, missing;
	double median_abs_log; /* median |ln(sim/pub)| */
	double median_ratio;   /* exp of it (x) */
	double worst_ratio;    /* max(sim/pub, pub/sim) */
	double share_125, share_15, share_2, share_4, share_10pct;
	size_t orderings, orderings_held; /* mode orderings: the same on every array */
	size_t table_orderings,
	    table_orderings_held; /* every ordering of the table, for information */
	char *order_fail;         /* the first ordering that did not hold, or NULL (owned) */
	size_t relations, relations_held;
	bool pass; /* the thresholds are met and every finding holds */
	char *why; /* what failed, whole, when !pass (owned) */
	bool targets_met;
	char *targets_why;                    /* what missed the targets (owned) */
	struct val_agree sample[VAL_SAMPLES]; /* out-of-sample and in-sample, apart */
};

/** Load a set from @path.  0, or -errno with @msg set (file and what is wrong). */
int val_set_load(const char *path, struct val_set *s, char *msg, size_t msglen);
void val_set_free(struct val_set *s);

/**
 * The figure of @test/@direction in a suite result: "mb_s" or "lat_us"
 * (@metric NULL = "mb_s"); test "peak" = the highest over every test.
 * NAN when absent.
 */
double val_figure(struct json_object *result, const char *test, const char *direction,
                  const char *metric);

/** Fill every cell's simulated figure from its configuration's result. */
void val_set_fill(struct val_set *s);

/**
 * Statistics, orderings and relations.  @st->pass: the set's thresholds are
 * met and every finding holds (a finding that fails is a claim of the
 * article the simulation contradicts, whatever the thresholds allow).
 * Free @st with val_stats_free.
 */
void val_set_check(struct val_set *s, struct val_stats *st);
void val_stats_free(struct val_stats *st);

/** Set @st failed with @fmt's text (a configuration did not run, ...). */
void val_stats_fail(struct val_stats *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Beyond this factor either way a cell is flagged in reports (with its why, if any). */
#define VAL_FLAG_RATIO 2.0

/** The set as the JSON contract of docs/validation.md (new object). */
struct json_object *val_set_json(const struct val_set *s, const struct val_stats *st);

/** "beyond 2x: WHY" when @c is more than VAL_FLAG_RATIO off its published figure, else nothing. */
void val_cell_flag(FILE *f, const struct val_cell *c);

/** Plain-text report of one set. */
void val_set_print(FILE *f, const struct val_set *s, const struct val_stats *st, bool cells);

/** A self-contained HTML page: per set a log-log chart and the table. */
void val_html(FILE *f, struct val_set *const *sets, const struct val_stats *stats, size_t n);

#endif
