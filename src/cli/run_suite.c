/*
 * run_suite.c - `raidlab run SUITE`: a standard benchmark suite on one or
 * more targets.
 *
 *   raidlab run SUITE --target A [--target B ...] [--label NAME ...]
 *                     [--json FILE | --out-dir DIR] [SUITE OPTIONS]
 *
 * cmd_run.c hands over when its first argument names a suite.  Each target
 * is opened on its own (with write intent when the suite writes, so the
 * usual safety refusals apply), checked against the suite's test area,
 * measured, and closed before the next, so configurations never run at the
 * same time.  One target: the suite's table, the way the tool shows it, and
 * --json FILE.  Several targets: each one's table as it finishes, then a
 * side-by-side table of MB/s (--summary: that comparison alone), and one
 * JSON per configuration (DIR/LABEL.json, DIR defaults to ".");
 * `raidlab compare` does the full comparison from those files.
 * --output-format=cdm-text prints CrystalDiskMark's own text export instead
 * of the tables (run_cdmtext.c).
 *
 * The tables are printed from the result JSON, not from engine structures,
 * so what the terminal shows is exactly what the file holds.  The
 * side-by-side table is the report module's comparison (baseline: the first
 * target) when it is built in; otherwise a plain MB/s table.
 *
 * On a terminal a progress line (stderr) shows the running test, the
 * steps done of the suite's total and an ETA (rs_progress).
 *
 * Ctrl-C ends the running job early (wl_run_request_stop); the suite then
 * stops, and the targets are finished (test files removed) and closed.
 *
 * Under mpirun (cmd_run.c hands over the fleet, $rank and the like already
 * replaced) every rank runs the suite on its own target at once and rank
 * 0 alone prints and writes: the tables and files show the aggregate over
 * the ranks (suites/suite_fleet.c) and name the slowest and fastest rank.
 */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "core/registry.h"
#include "mpi/rank.h"
#include "results/result.h"
#include "suites/fleet.h"
#include "suites/runner.h"
#include "suites/suite.h"

#include "report/render.h"

#define RS_MAX_TARGETS CLI_MAX_TARGETS

struct rs_args {
	const struct suite_def *def;
	struct suite_params p;
	struct cli_targets t; /* --target and --label */
	const char *json_path;
	const char *out_dir;
	const char *html_path; /* the comparison as an HTML report */
	const char *csv_path;  /* the comparison as CSV */
	bool json_stdout, quiet, force;
	bool progress_json; /* --progress=json: progress as JSON lines on stderr */
	bool cdm_text;      /* --output-format=cdm-text */
	bool summary;       /* several targets: the comparison alone, no per-target tables */
	struct rl_build_ctx ctx;
	struct fleet *fleet; /* under mpirun, else NULL */
	bool no_files;       /* a rank other than 0: it writes nothing */
};

/* For the signal handler: the user's stop is not a stonewall's. */
static struct fleet *rs_fleet;

static void rs_usage(FILE *f, const struct suite_def *def)
{
	fprintf(
	    f, "usage: raidlab run SUITE --target SPEC [--target SPEC ...] [OPTIONS] [SUITE "
	       "OPTIONS]\n"
	       "\n"
	       "Runs a standard benchmark suite on each target, one after another.\n"
	       "\n"
	       "  --target SPEC         a target to measure; repeat it to compare configurations\n"
	       "  --label NAME          the configuration's name in results (one per --target,\n"
	       "                        in order; default: the spec)\n"
	       "  --json FILE           write the result as JSON (one target; docs/results.md)\n"
	       "  --out-dir DIR         write DIR/SUITE-LABEL.json for every target (default '.'\n"
	       "                        when there are several targets)\n"
	       "  --html FILE           write the comparison of the targets as an HTML report\n"
	       "  --csv FILE            write the comparison as CSV (docs/report.md)\n"
	       "  --output-format=F     normal (default), json (one target: the result on\n"
	       "                        standard output) or cdm-text (cdm, cdm-nvme, cdm7:\n"
	       "                        CrystalDiskMark's own text export, one per target)\n"
	       "  --summary             several targets: the comparison alone, without each\n"
	       "                        target's table\n"
	       "  --quiet               no progress line and no table\n"
	       "  --progress=json       progress as one JSON line per update on standard error,\n"
	       "                        at most 10 a second (raidlab ui reads them)\n"
	       "  --force               run even when the target is smaller than the suite's test\n"
	       "                        area (the whole target is used instead)\n"
	       "  --keep                keep test files raidlab created\n"
	       "  --force-destroy       allow writing over data found on the target\n"
	       "  --fleet-stonewall     under mpirun: every rank stops a test when the first\n"
	       "                        ends it\n"
	       "  --offset-per-rank=S   under mpirun: rank r works r*S further into one shared\n"
	       "                        target\n"
	       "\n"
	       "Under mpirun every rank runs each test at once and rank 0 reports the sum over\n"
	       "the ranks (docs/mpi.md): a transfer-rate curve (hdtune, steady) is summed\n"
	       "position by position, and steady's rounds stop on every rank when rank 0 finds\n"
	       "the sum steady (or at the time limit).\n"
	       "\n");
	if (def) {
		fprintf(f, "%s: %s\n  %s\n  passes become the figure by the rule '%s'\n\n",
		        def->name, def->title, def->summary, suite_agg_name(def->aggregate));
		fprintf(f, "Options of %s:\n", def->name);
		suite_options_help(def, f);
	} else {
		fprintf(f, "Suites ('raidlab run SUITE --help' or 'raidlab help suites' for their "
		           "options):\n");
		for (const struct suite_def *d = suite_first(); d; d = d->next)
			fprintf(f, "  %-9s %s\n", d->name, d->title);
	}
	fprintf(f, "\nMB/s is decimal (10^6 bytes per second); latency in microseconds.  Exit "
	           "status: 0 ok,\n1 a suite failed (I/O error, target too small), 2 bad usage.\n");
}

/* --- arguments --- */

static bool rs_takes_value(const char *name)
{
	return !strcmp(name, "target") || !strcmp(name, "label") || !strcmp(name, "json") ||
	       !strcmp(name, "out-dir") || !strcmp(name, "html") || !strcmp(name, "csv") ||
	       !strcmp(name, "output-format") || !strcmp(name, "offset-per-rank") ||
	       !strcmp(name, "progress") || suite_param_takes_value(name);
}

/* --fleet-stonewall, --offset-per-rank=S: only under mpirun. */
static int rs_fleet_option(struct rs_args *a, const char *name, const char *val)
{
	char why[128];

	if (!a->fleet) {
		cli_error("run", "--%s: only under mpirun or srun (MPI %s)", name,
		          rl_mpi_built() ? "is built in, but this is no MPI rank"
		                         : "is not built in");
		return -EINVAL;
	}
	if (name[0] == 'f') {
		a->fleet->stonewall = true;
	} else if (rl_parse_size(val, &a->fleet->offset_per_rank, why, sizeof(why))) {
		cli_error("run", "--offset-per-rank: %s", why);
		return -EINVAL;
	}
	return 0;
}

/* One option, --NAME or --NAME=VAL (@val NULL when none was given). */
static int rs_option(struct rs_args *a, const char *name, const char *val)
{
	char msg[512];

	int taken = cli_targets_take(&a->t, name, val);
	if (taken)
		return taken < 0 ? taken : 0;
	if (!strcmp(name, "json")) {
		a->json_path = val;
	} else if (!strcmp(name, "out-dir")) {
		a->out_dir = val;
	} else if (!strcmp(name, "html")) {
		a->html_path = val;
	} else if (!strcmp(name, "csv")) {
		a->csv_path = val;
	} else if (!strcmp(name, "output-format")) {
		a->json_stdout = !strcmp(val, "json");
		a->cdm_text = !strcmp(val, "cdm-text");
		if (!a->json_stdout && !a->cdm_text && strcmp(val, "normal")) {
			cli_error("run",
			          "--output-format: expected normal, json or cdm-text, got '%s'",
			          val);
			return -EINVAL;
		}
	} else if (!strcmp(name, "progress")) {
		if (!val || strcmp(val, "json")) {
			cli_error("run", "--progress: expected json, got '%s'", val ? val : "");
			return -EINVAL;
		}
		a->progress_json = true;
	} else if (!strcmp(name, "summary") && !val) {
		a->summary = true;
	} else if (!strcmp(name, "quiet") && !val) {
		a->quiet = true;
	} else if (!strcmp(name, "force") && !val) {
		a->force = true;
	} else if (!strcmp(name, "keep") && !val) {
		a->ctx.keep = true;
	} else if (!strcmp(name, "force-destroy") && !val) {
		a->ctx.force_destroy = true;
	} else if ((!strcmp(name, "fleet-stonewall") && !val) || !strcmp(name, "offset-per-rank")) {
		return rs_fleet_option(a, name, val);
	} else if (!strcmp(name, "help")) {
		rs_usage(stdout, a->def);
		exit(0);
	} else {
		int rc = suite_params_set(a->def, &a->p, name, val, msg, sizeof(msg));
		if (rc == -ENOENT) {
			cli_error("run",
			          "%s: unknown option '--%s' (suites take no job options; "
			          "'raidlab run %s --help' lists its options)",
			          a->def->name, name, a->def->name);
			return -EINVAL;
		}
		if (rc) {
			cli_error("run", "%s: %s", a->def->name, msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* The options in @argv from @first on. */
static int rs_parse_options(struct rs_args *a, int argc, char **argv, int first)
{
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i];
		char name[64];
		const char *val = NULL;

		if (arg[0] != '-' || arg[1] != '-') {
			cli_error("run", "%s: unexpected argument '%s' (suites take no job file)",
			          a->def->name, arg);
			return -EINVAL;
		}
		if (cli_long_opt_split("run", arg, name, sizeof(name), &val))
			return -EINVAL;
		if (rs_takes_value(name) && !val) {
			if (i + 1 >= argc) {
				cli_error("run", "--%s needs a value", name);
				return -EINVAL;
			}
			val = argv[++i];
		}
		int rc = rs_option(a, name, val);
		if (rc)
			return rc;
	}
	return 0;
}

/* What no single option can check: the options together. */
static int rs_check(const struct rs_args *a)
{
	if (cli_targets_check(&a->t, a->def->name,
	                      "--target SPEC (repeat it to compare configurations)"))
		return -EINVAL;
	if (a->t.n > 1 && (a->json_path || a->json_stdout)) {
		cli_error("run", "--json and --output-format=json write one result; with several "
		                 "targets use --out-dir DIR (one file per configuration)");
		return -EINVAL;
	}
	if (a->cdm_text && !cli_cdm_text_supported(a->def->name)) {
		cli_error("run",
		          "--output-format=cdm-text is CrystalDiskMark 7/8's text export: suites "
		          "cdm, cdm-nvme and cdm7 have it, %s does not",
		          a->def->name);
		return -EINVAL;
	}
	if (a->json_path && a->out_dir) {
		cli_error("run", "give either --json FILE or --out-dir DIR, not both");
		return -EINVAL;
	}
	return 0;
}

static void rs_init(struct rs_args *a, const struct suite_def *def)
{
	memset(a, 0, sizeof(*a));
	a->def = def;
	a->p = def->defaults;
	rl_build_ctx_init(&a->ctx);
}

/* Is names[i] already used by one of names[0..i-1]? */
static bool rs_name_taken(char (*names)[128], size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(names[k], names[i]))
			return true;
	return false;
}

/* --- progress --- */

/* One configuration's run, for the progress line. */
struct rs_one {
	const struct rs_args *a;
	const char *label;
	size_t index;          /* which target, 0-based */
	struct timespec start; /* wall clock at its start, for the ETA */
};

static double rs_wall_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * fio-style ETA, "01m:23s": the wall time so far times what is left over
 * what is done (the suite's steps as equal shares), once a little is done.
 */
static void rs_eta(char *buf, size_t len, double elapsed, double done)
{
	if (done < 0.005 || elapsed <= 0) {
		snprintf(buf, len, "--m:--s");
		return;
	}
	double left = elapsed * (1 - done) / done;
	unsigned long s = left > 359999 ? 359999 : (unsigned long)(left + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "%luh:%02lum:%02lus", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%02lum:%02lus", s / 60, s % 60);
}

/*
 * The progress line on a terminal (stderr), rewritten in place:
 *   [2/8 tests][37.5%][eta 01m:23s] SEQ1M Q1T1 read 3/5: 45.0%  1627.0 MB/s  1551 IOPS
 * with the target's number first when there are several.
 */
static void rs_progress(void *arg, const struct suite_progress *p)
{
	const struct rs_one *one = arg;
	const struct wl_progress *j = p->job;
	double mbs = j->elapsed_s > 0 ? j->bytes / 1e6 / j->elapsed_s : 0;
	char pass[48] = "", target[48] = "", eta[32], step[48];

	if (p->passes && p->pass)
		snprintf(pass, sizeof(pass), " %u/%u", p->pass, p->passes);
	else if (p->passes)
		snprintf(pass, sizeof(pass), " warm-up");
	if (one->a->t.n > 1)
		snprintf(target, sizeof(target), "[target %zu/%zu]", one->index + 1, one->a->t.n);
	if (p->step)
		snprintf(step, sizeof(step), "[%u/%u tests]", p->step, p->steps);
	else
		snprintf(step, sizeof(step), "[0/%u tests]", p->steps);
	rs_eta(eta, sizeof(eta), rs_wall_since(&one->start), p->done);
	fprintf(stderr, "\r\033[K%s%s[%.1f%%][eta %s] %s %s%s: %5.1f%% %10.1f MB/s %10.0f IOPS%s",
	        target, step, 100 * p->done, eta, p->test, p->phase, pass, 100 * j->fraction, mbs,
	        j->elapsed_s > 0 ? j->ios / j->elapsed_s : 0,
	        j->virtual_time ? " (simulated time)" : "");
	fflush(stderr);
}

/*
 * --progress=json: the same facts as one JSON line on stderr, at most every
 * 100 ms of wall time but always when the test or its phase changes.
 */
static void rs_progress_json(void *arg, const struct suite_progress *p)
{
	static const char *last_test, *last_phase;
	static struct timespec last;
	const struct rs_one *one = arg;
	const struct wl_progress *j = p->job;
	bool changed = p->test != last_test || p->phase != last_phase;

	if (!changed && rs_wall_since(&last) < 0.1)
		return;
	last_test = p->test;
	last_phase = p->phase;
	clock_gettime(CLOCK_MONOTONIC, &last);
	struct json_object *o = json_object_new_object(), *w = json_object_new_object();
	json_object_object_add(o, "target", json_object_new_int((int)one->index));
	json_object_object_add(o, "test", json_object_new_string(p->test ? p->test : ""));
	json_object_object_add(o, "phase", json_object_new_string(p->phase ? p->phase : ""));
	json_object_object_add(o, "pass", json_object_new_int((int)p->pass));
	json_object_object_add(o, "passes", json_object_new_int((int)p->passes));
	json_object_object_add(o, "step", json_object_new_int((int)p->step));
	json_object_object_add(o, "steps", json_object_new_int((int)p->steps));
	json_object_object_add(o, "done", json_object_new_double(p->done));
	json_object_object_add(
	    o, "mb_s",
	    json_object_new_double(j->elapsed_s > 0 ? j->bytes / 1e6 / j->elapsed_s : 0));
	json_object_object_add(
	    o, "iops", json_object_new_double(j->elapsed_s > 0 ? j->ios / j->elapsed_s : 0));
	json_object_object_add(w, "progress", o);
	fprintf(stderr, "%s\n", json_object_to_json_string_ext(w, JSON_C_TO_STRING_PLAIN));
	fflush(stderr);
	json_object_put(w);
}

/* --- tables, from the result JSON --- */

/* One direction's three columns, or dashes. */
static void rs_print_dir(FILE *f, struct json_object *d)
{
	if (!d) {
		fprintf(f, " %10s %11s %10s", "-", "-", "-");
		return;
	}
	if (cli_json_get(d, "access_time_ms")) {
		/* an access time, as AS SSD and HD Tune show it: milliseconds only */
		char ms[32];
		snprintf(ms, sizeof(ms), "%.3f ms", cli_json_num(d, "access_time_ms"));
		fprintf(f, " %34s", ms);
		return;
	}
	fprintf(f, " %10.2f %11.1f %10.2f", cli_json_num(d, "mb_s"), cli_json_num(d, "iops"),
	        cli_json_num(cli_json_get(d, "lat_us"), "mean"));
}

static void rs_print_params(FILE *f, struct json_object *params)
{
	bool first = true;

	fprintf(f, "parameters:");
	json_object_object_foreach(params, key, val)
	{
		if (json_object_is_type(val, json_type_double))
			fprintf(f, "%s %s=%g", first ? "" : ",", key, json_object_get_double(val));
		else
			fprintf(f, "%s %s=%s", first ? "" : ",", key, json_object_get_string(val));
		first = false;
	}
	fputc('\n', f);
}

/* Over a fleet: the slowest and fastest rank of each direction of test @t. */
static void rs_print_fleet(FILE *f, struct json_object *t)
{
	static const char *const keys[3] = {"read", "write", "mix"};

	for (int k = 0; k < 3; k++) {
		struct json_object *fl = cli_json_get(cli_json_get(t, keys[k]), "fleet");
		struct json_object *ranks = cli_json_get(fl, "ranks");
		if (!fl)
			continue;
		struct json_object *lo = json_object_array_get_idx(
		    ranks, (size_t)json_object_get_int(cli_json_get(fl, "slowest_rank")));
		struct json_object *hi = json_object_array_get_idx(
		    ranks, (size_t)json_object_get_int(cli_json_get(fl, "fastest_rank")));
		fprintf(f,
		        "  %s %s: slowest rank %d (%s) %.2f MB/s, fastest rank %d (%s) %.2f MB/s\n",
		        json_object_get_string(cli_json_get(t, "name")), keys[k],
		        json_object_get_int(cli_json_get(lo, "rank")),
		        json_object_get_string(cli_json_get(lo, "host")), cli_json_num(lo, "mb_s"),
		        json_object_get_int(cli_json_get(hi, "rank")),
		        json_object_get_string(cli_json_get(hi, "host")), cli_json_num(hi, "mb_s"));
	}
}

static void rs_print_extras(FILE *f, struct json_object *t)
{
	const char *name = json_object_get_string(cli_json_get(t, "name"));
	struct json_object *v, *ss;

	rs_print_fleet(f, t);
	if (cli_json_get(t, "min_mb_s"))
		fprintf(f, "  %s: minimum %.2f, maximum %.2f, average %.2f MB/s over %zu zones\n",
		        name, cli_json_num(t, "min_mb_s"), cli_json_num(t, "max_mb_s"),
		        cli_json_num(cli_json_get(t, cli_json_get(t, "read") ? "read" : "write"),
		                     "mb_s"),
		        json_object_array_length(cli_json_get(cli_json_get(t, "curve"), "x")));
	if ((v = cli_json_get(t, "burst_mb_s")))
		fprintf(f, "  %s: %.2f MB/s\n", name, json_object_get_double(v));
	if (cli_json_get(cli_json_get(t, "read"), "access_time_ms") ||
	    cli_json_get(cli_json_get(t, "write"), "access_time_ms")) {
		fprintf(f, "  %s:", name);
		if ((v = cli_json_get(cli_json_get(t, "read"), "access_time_ms")))
			fprintf(f, " read %.3f ms", json_object_get_double(v));
		if ((v = cli_json_get(cli_json_get(t, "write"), "access_time_ms")))
			fprintf(f, " write %.3f ms", json_object_get_double(v));
		fputc('\n', f);
	}
	if ((ss = cli_json_get(t, "steady_state"))) {
		int rounds = json_object_get_int(cli_json_get(ss, "rounds"));
		if (json_object_get_boolean(cli_json_get(ss, "reached")))
			fprintf(f, "  %s: steady state after %d rounds", name, rounds);
		else
			fprintf(f, "  %s: NO steady state within %d rounds (%.1f s)", name, rounds,
			        cli_json_num(ss, "time_s"));
		fprintf(f,
		        ": window mean %.0f IOPS, excursion %.1f %% (max %.0f), slope %.1f %% "
		        "(max %.0f)\n",
		        cli_json_num(ss, "mean_iops"), cli_json_num(ss, "excursion_pct"),
		        cli_json_num(ss, "max_excursion_pct"), cli_json_num(ss, "slope_pct"),
		        cli_json_num(ss, "max_slope_pct"));
	}
}

/*
 * Bytes the host read (@host) and the simulated drives read from flash
 * (@nand), summed over the final counters of every simulated drive in the
 * stack (objects with "host" and "nand" counters, at any depth).
 */
static void rs_sim_reads(struct json_object *o, double *host, double *nand)
{
	struct json_object *h, *n;

	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			rs_sim_reads(json_object_array_get_idx(o, i), host, nand);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	if ((h = cli_json_get(o, "host")) && (n = cli_json_get(o, "nand"))) {
		*host += cli_json_num(h, "bytes_read");
		*nand += cli_json_num(n, "bytes_read");
		return;
	}
	json_object_object_foreach(o, key, val)
	{
		(void)key;
		rs_sim_reads(val, host, nand);
	}
}

/*
 * A suite that read a fresh simulated drive read only blocks never
 * written: the drive answers those from its mapping table without reading
 * flash (as real SSDs do), the same at every position and for every
 * repeat, so curves are flat and HD Tune's burst equals its transfer rate.
 * Say so, rather than let it pass for the drive's flash.
 */
static void rs_print_unmapped_note(FILE *f, struct json_object *doc)
{
	double host = 0, nand = 0;

	rs_sim_reads(cli_json_get(doc, "target_final_counters"), &host, &nand);
	if (host > 0 && nand == 0)
		fprintf(
		    f,
		    "note: no read reached the simulated flash: every block read had never "
		    "been written, and a drive\nanswers those from its mapping table, the same "
		    "everywhere (flat curves, burst = transfer\nrate); give the drive state=full "
		    "(or write the span first) to measure its flash reads\n");
}

static void rs_print_suite(FILE *f, struct json_object *doc)
{
	struct json_object *suite = cli_json_get(doc, "suite"), *tests = cli_json_get(doc, "tests");
	struct json_object *tg = cli_json_get(doc, "target"), *scores;
	struct json_object *fleet = cli_json_get(doc, "fleet");
	bool has[3] = {false, false, false};
	static const char *const keys[3] = {"read", "write", "mix"};
	const char *mix_title =
	    strcmp(json_object_get_string(cli_json_get(suite, "name")), "iometer") ? "Mix"
	                                                                           : "Total";
	int w = 4;
	size_t n = json_object_array_length(tests);

	fprintf(f, "%s: %s\n", json_object_get_string(cli_json_get(suite, "name")),
	        json_object_get_string(cli_json_get(suite, "title")));
	fprintf(f, "target%s: %s%s\n", fleet ? " of rank 0" : "",
	        json_object_get_string(cli_json_get(tg, "spec")),
	        json_object_get_boolean(cli_json_get(tg, "simulated"))
	            ? " (simulated drive: times are "
	              "simulated)"
	            : "");
	if (fleet)
		fprintf(
		    f,
		    "fleet: %d MPI ranks at once%s; MB/s and IOPS are the sums over the ranks, "
		    "latencies\ncome from their merged histograms (each rank's figures: --json)\n",
		    json_object_get_int(cli_json_get(fleet, "ranks")),
		    json_object_get_boolean(cli_json_get(fleet, "stonewall")) ? ", stonewalled"
		                                                              : "");
	rs_print_params(f, cli_json_get(suite, "params"));
	fprintf(f, "passes -> figure: %s; MB/s = 1,000,000 bytes/s, latency in us\n\n",
	        json_object_get_string(cli_json_get(suite, "aggregate")));
	for (size_t i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		int len = (int)strlen(json_object_get_string(cli_json_get(t, "name")));
		w = len > w ? len : w;
		for (int k = 0; k < 3; k++)
			has[k] |= cli_json_get(t, keys[k]) != NULL;
	}
	fprintf(f, "%-*s", w, "");
	for (int k = 0, last = has[2] ? 2 : has[1] ? 1 : 0; k < 3; k++)
		if (has[k])
			fprintf(f, k == last ? " %s" : " %-34s",
			        k == 0   ? "Read"
			        : k == 1 ? "Write"
			                 : mix_title);
	fprintf(f, "\n%-*s", w, "Test");
	for (int k = 0; k < 3; k++)
		if (has[k])
			fprintf(f, " %10s %11s %10s", "MB/s", "IOPS", "lat us");
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		fprintf(f, "%-*s", w, json_object_get_string(cli_json_get(t, "name")));
		for (int k = 0; k < 3; k++)
			if (has[k])
				rs_print_dir(f, cli_json_get(t, keys[k]));
		fputc('\n', f);
	}
	for (size_t i = 0; i < n; i++)
		rs_print_extras(f, json_object_array_get_idx(tests, i));
	if ((scores = cli_json_get(doc, "scores")))
		fprintf(f, "Score: read %.0f, write %.0f, total %.0f\n",
		        cli_json_num(scores, "read"), cli_json_num(scores, "write"),
		        cli_json_num(scores, "total"));
	rs_print_unmapped_note(f, doc);
}

/* The table of the @i-th target, after a blank line from the one before. */
static void rs_print_suite_sep(FILE *f, struct json_object *doc, size_t i)
{
	if (i)
		fputc('\n', f);
	rs_print_suite(f, doc);
}

/* MB/s of every test and direction, one column per configuration (without the report module). */
static void rs_print_plain(FILE *f, struct json_object **docs, const char **labels, size_t n)
{
	static const char *const keys[3] = {"read", "write", "mix"};
	struct json_object *ref = NULL;
	int w = 4;

	for (size_t i = 0; i < n && !ref; i++)
		ref = docs[i] ? cli_json_get(docs[i], "tests") : NULL;
	if (!ref)
		return;
	for (size_t i = 0; i < json_object_array_length(ref); i++) {
		int len = (int)strlen(json_object_get_string(
		    cli_json_get(json_object_array_get_idx(ref, i), "name")));
		w = len > w ? len : w;
	}
	fprintf(f, "\nMB/s (decimal) per configuration:\n%-*s %-5s", w, "Test", "");
	for (size_t c = 0; c < n; c++)
		fprintf(f, " %14.14s", labels[c]);
	fputc('\n', f);
	for (size_t i = 0; i < json_object_array_length(ref); i++) {
		struct json_object *t = json_object_array_get_idx(ref, i);
		const char *name = json_object_get_string(cli_json_get(t, "name"));
		for (int k = 0; k < 3; k++) {
			if (!cli_json_get(t, keys[k]))
				continue;
			fprintf(f, "%-*s %-5s", w, name, keys[k]);
			for (size_t c = 0; c < n; c++) {
				struct json_object *ct = NULL,
				                   *tests = docs[c] ? cli_json_get(docs[c], "tests")
				                                    : NULL;
				for (size_t j = 0; tests && j < json_object_array_length(tests);
				     j++) {
					struct json_object *x = json_object_array_get_idx(tests, j);
					if (!strcmp(json_object_get_string(cli_json_get(x, "name")),
					            name))
						ct = x;
				}
				struct json_object *d = cli_json_get(ct, keys[k]);
				if (d)
					fprintf(f, " %14.2f", cli_json_num(d, "mb_s"));
				else
					fprintf(f, " %14s", "-");
			}
			fputc('\n', f);
		}
	}
}

/* Write one rendering of @cmp to @path; 0 or 1 (the exit status). */
static int rs_write_rendering(const struct rep_compare *cmp, const char *path, bool html)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		cli_error("run", "cannot write %s: %s", path, strerror(errno));
		return 1;
	}
	if (html)
		rep_html_write(f, cmp, REP_METRIC_MB_S);
	else
		rep_csv_write(f, cmp);
	if (fclose(f)) {
		cli_error("run", "cannot write %s: %s", path, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * The configurations side by side, as `raidlab compare` shows them (MB/s
 * against the first), on @f (unless NULL) and to the --html / --csv files.
 * @paths name the results in the legend.  Returns the exit status.
 */
static int rs_compare(FILE *f, const struct rs_args *a, struct json_object **docs,
                      const char **labels, const char **paths, size_t n)
{
	struct rep_result *res[RS_MAX_TARGETS];
	struct rep_compare *cmp = NULL;
	char err[512];
	size_t m = 0;
	int rc = 0, status = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		if (!docs[i])
			continue;
		size_t len;
		const char *text = json_object_to_json_string_length(docs[i], 0, &len);
		rc = rep_result_parse(paths[i], text, len, &res[m], err, sizeof(err));
		if (!rc)
			m++;
	}
	if (!rc && m > 0)
		rc = rep_compare_build(res, m, 0, &cmp, err, sizeof(err));
	if (!rc && cmp) {
		cmp->writer = "raidlab run";
		if (f) {
			fputc('\n', f);
			rep_table_write(f, cmp, REP_METRIC_MB_S);
		}
		if (a->html_path)
			status |= rs_write_rendering(cmp, a->html_path, true);
		if (a->csv_path)
			status |= rs_write_rendering(cmp, a->csv_path, false);
	}
	rep_compare_free(cmp);
	for (size_t i = 0; i < m; i++)
		rep_result_free(res[i]);
	if (rc) {
		cli_error("run", "comparison: %s", err);
		if (f)
			rs_print_plain(f, docs, labels, n);
		return 1;
	}
	return status;
}

static void rs_on_signal(int sig)
{
	(void)sig;
	if (rs_fleet)
		rs_fleet->signalled = 1;
	wl_run_request_stop();
}

/* --- one configuration --- */

static void rs_started(void *arg, uint64_t area, bool shrunk)
{
	const struct rs_one *one = arg;

	if (shrunk && !one->a->quiet)
		fprintf(stderr,
		        "raidlab run: warning: %s: the target is smaller than %s's test area; "
		        "using the whole target (%llu bytes) (--force)\n",
		        one->label, one->a->def->name, (unsigned long long)area);
}

/* Run the suite on one target; *docp gets the result (NULL if it did not run).  Exit code. */
static int rs_run_one(struct rs_args *a, size_t index, const char *label, struct json_object **docp)
{
	const char *spec = a->t.spec[index];
	bool tty = isatty(STDERR_FILENO) && !a->quiet && !a->json_stdout && !a->progress_json;
	struct suite_request rq = {.def = a->def,
	                           .p = a->p,
	                           .spec = spec,
	                           .label = label,
	                           .ctx = a->ctx,
	                           .force = a->force,
	                           .progress = tty                ? rs_progress
	                                       : a->progress_json ? rs_progress_json
	                                                          : NULL,
	                           .started = rs_started};
	struct rs_one one = {.a = a, .label = label, .index = index};
	struct suite_outcome o;

	clock_gettime(CLOCK_MONOTONIC, &one.start);
	rq.progress_arg = &one;
	rq.ctx.quiet = a->quiet;
	rq.fleet = a->fleet;
	suite_request_run(&rq, &o);
	if (tty)
		fprintf(stderr, "\r\033[K");
	*docp = o.doc;
	if (a->no_files) /* another rank: rank 0 reports, this rank's failure included */
		return o.rc ? 1 : 0;
	switch (o.stage) {
	case SUITE_STAGE_SPEC:
		cli_spec_error("run", spec, &o.spec_err);
		return o.rc == -EINVAL ? 2 : 1;
	case SUITE_STAGE_START:
		cli_error("run", "%s on %s: %s", a->def->name, label, o.msg);
		return o.rc == -EINVAL ? 2 : 1;
	case SUITE_STAGE_RUN:
	case SUITE_STAGE_DONE:
		break;
	}
	if (o.lost)
		cli_error("run",
		          "%llu bytes of acknowledged writes never reached the target's storage "
		          "(see target_counters in the result)",
		          o.lost);
	if (o.rc) {
		cli_error("run", "%s on %s: %s", a->def->name, label, o.msg);
		return 1;
	}
	return o.lost ? 1 : 0;
}

static int rs_write(struct json_object *doc, const char *path)
{
	return cli_result_save("run", doc, path) ? 1 : 0;
}

/* Run what @a describes (checked): every target, the results, the comparison. */
static int rs_execute(struct rs_args *a)
{
	struct json_object *docs[RS_MAX_TARGETS] = {0};
	const char *labels[RS_MAX_TARGETS];
	char names[RS_MAX_TARGETS][128];
	int status = 0;

	char *pathbuf[RS_MAX_TARGETS] = {0};
	const char *paths[RS_MAX_TARGETS];
	struct sigaction sa = {.sa_handler = rs_on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	const char *dir = a->no_files ? NULL : a->out_dir ? a->out_dir : a->t.n > 1 ? "." : NULL;
	for (size_t i = 0; i < a->t.n; i++) {
		char base[100];
		labels[i] = cli_targets_label(&a->t, i);
		cli_file_name(labels[i], base, sizeof(base));
		snprintf(names[i], sizeof(names[i]), "%s", base);
		/* The same name twice: NAME-2, NAME-3, ... */
		for (unsigned dup = 2; rs_name_taken(names, i); dup++)
			snprintf(names[i], sizeof(names[i]), "%s-%u", base, dup);
		if (dir && asprintf(&pathbuf[i], "%s/%s-%s.json", dir, a->def->name, names[i]) < 0)
			pathbuf[i] = NULL;
		paths[i] = pathbuf[i] ? pathbuf[i] : labels[i];
	}
	/* before any run: a result must not be lost to a typo in a path */
	bool made = false;
	if (cli_output_dir_new("run", "--out-dir", dir, &made) ||
	    cli_output_check("run", "--json", a->json_path) ||
	    cli_output_check("run", "--html", a->html_path) ||
	    cli_output_check("run", "--csv", a->csv_path)) {
		cli_output_undo(dir, made);
		for (size_t i = 0; i < a->t.n; i++)
			free(pathbuf[i]);
		suite_fleet_fail(a->fleet, "rank 0 cannot write the results");
		return 2;
	}
	for (size_t i = 0; i < a->t.n; i++) {
		int rc = rs_run_one(a, i, labels[i], &docs[i]);
		if (rc) {
			status = status ? status : rc;
			if (!docs[i]) { /* a failed run with a result (data lost) is still written
				         */
				if (a->t.n == 1)
					break;
				continue;
			}
		}
		if (a->cdm_text && !a->quiet)
			cli_cdm_text_write(stdout, docs[i]);
		else if ((a->t.n == 1 || !a->summary) && !a->quiet && !a->json_stdout)
			rs_print_suite_sep(stdout, docs[i], i);
		if (a->json_path && rs_write(docs[i], a->json_path))
			status = 1;
		if (a->json_stdout)
			st_result_write(docs[i], "-");
		if (dir) {
			if (!pathbuf[i] || rs_write(docs[i], paths[i]))
				status = 1;
			else if (!a->quiet && a->t.n > 1)
				fprintf(stderr, "raidlab run: %s: wrote %s\n", labels[i], paths[i]);
		}
		if (wl_run_stop_requested()) {
			if (i + 1 < a->t.n)
				cli_error("run", "interrupted: remaining targets skipped");
			status = 1;
			break;
		}
	}
	bool console = a->t.n > 1 && !a->quiet && !a->cdm_text;
	if (console || a->html_path || a->csv_path) {
		int rc = rs_compare(console ? stdout : NULL, a, docs, labels, paths, a->t.n);
		if (!status)
			status = rc;
	}
	for (size_t i = 0; i < a->t.n; i++) {
		json_object_put(docs[i]);
		free(pathbuf[i]);
	}
	return status;
}

int cli_run_suite(int argc, char **argv, struct fleet *fleet)
{
	struct rs_args a;
	int rc;

	rs_init(&a, suite_find(argv[1]));
	a.fleet = fleet;
	if (rs_parse_options(&a, argc, argv, 2) || rs_check(&a))
		return 2;
	if (fleet && fleet->rank > 0) { /* rank 0 alone prints and writes */
		a.quiet = a.no_files = true;
		a.json_path = a.html_path = a.csv_path = a.out_dir = NULL;
		a.json_stdout = a.cdm_text = false;
	}
	rs_fleet = fleet;
	rc = rs_execute(&a);
	rs_fleet = NULL;
	return rc;
}

struct cli_suite {
	struct rs_args a;
	int status; /* the first error (2) */
};

struct cli_suite *cli_suite_new(const char *suite)
{
	const struct suite_def *def = suite_find(suite);
	struct cli_suite *s;

	if (!def || !(s = calloc(1, sizeof(*s))))
		return NULL;
	rs_init(&s->a, def);
	return s;
}

void cli_suite_option(struct cli_suite *s, const char *name, const char *val)
{
	if (!s->status && rs_option(&s->a, name, val))
		s->status = 2;
}

void cli_suite_options(struct cli_suite *s, int argc, char **argv)
{
	if (!s->status && rs_parse_options(&s->a, argc, argv, 0))
		s->status = 2;
}

int cli_suite_check(struct cli_suite *s)
{
	if (!s->status && rs_check(&s->a))
		s->status = 2;
	return s->status;
}

int cli_suite_execute(struct cli_suite *s)
{
	int rc = cli_suite_check(s) ? s->status : rs_execute(&s->a);

	free(s);
	return rc;
}
