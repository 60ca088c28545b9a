/*
 * cmd_sweep.c - `raidlab sweep SUITE... --target SPEC`: every configuration
 * a spec with alternatives names, times every workload, in parallel.
 *
 * The work is sweep/sweep.h's (plan, check, store, run in the suite
 * runner's pool); this file reads the arguments, prints the skipped
 * configurations and one progress line per point collected (done/total,
 * elapsed, ETA), and writes the outputs: the sweep document (--json), its
 * CSV (--csv) and the HTML report (--html, report/sweep.h).  Ctrl-C stops
 * the running points and starts no more; what finished is in the store,
 * and the next run with the same arguments runs only what is missing.
 *
 * Exit status: 0 every point has a result (skipped ones aside), 1 a point
 * failed or was interrupted, or an output could not be written, 2 usage.
 */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mpi/rank.h"
#include "report/sweep.h"
#include "sweep/sweep.h"
#include "workload/run.h"

#define SWC_MAX 64

static const char sweep_usage[] =
    "usage: raidlab sweep WORKLOAD... --target SPEC [--target SPEC ...] [-j N] [--store DIR]\n"
    "                     [--no-store] [--json FILE] [--csv FILE] [--html FILE] [--quiet]\n"
    "                     [SUITE OPTIONS]\n"
    "\n"
    "Runs every WORKLOAD - a suite (cdm5, atto ...), a fio job file, a recorded trace\n"
    "(docs/traces.md) or 'rebuild' (member 0 of the array rebuilt: a simulated walk of\n"
    "its last 8 GiB, the whole member's time estimated; the spec fails it with\n"
    "failed=0) - on every configuration the target specs name, in parallel, and\n"
    "keeps each result so an interrupted or extended sweep runs only what is missing.\n"
    "A spec may hold alternatives: {a,b,c} anywhere stands for each of a, b and c, and\n"
    "{2..8} for a range of whole numbers; groups multiply:\n"
    "\n"
    "  raid{0,10}(ssd(850evo) x{2,4}, chunk={64k,256k})          8 configurations\n"
    "  controller(perc-h730p, raid0(ssd(850evo) x4), write={back,through})\n"
    "\n"
    "Each group is an axis named after where it stands (level, count, chunk, write...).\n"
    "Combinations that do not make a valid stack (raid6 of 3) are skipped with the\n"
    "reason.  Only simulated stacks are swept (runs share the machine's cores).\n"
    "\n"
    "  --target SPEC  configurations (repeat for more)\n"
    "  -j N           points run in N processes at once (default: CPUs)\n"
    "  --store DIR    the result store (default .raidlab-sweep): one file per point,\n"
    "                 keyed by spec, workload, options, raidlab version and profiles\n"
    "  --no-store     measure everything, keep nothing\n"
    "  --json FILE    every point with its axes and result (raidlab compare reads it)\n"
    "  --csv FILE     one row per point x test x direction, axes as columns\n"
    "  --html FILE    the report: heatmap, series along numeric axes, trade-offs\n"
    "  --timeout T    a point still running after T (90s, 10m) is killed and failed, and\n"
    "                 the store keeps that: later runs skip it unless T is larger or 0\n"
    "                 (no limit); default auto: 10x the slowest finished point of the\n"
    "                 same workload, at least 30 s (30 min before one has finished)\n"
    "  --quiet        no progress lines and no table\n"
    "  SUITE OPTIONS  --size, --passes, --duration ... apply to every suite (a job file\n"
    "                 or trace runs as it is written; its contents key its results)\n"
    "\n"
    "docs/sweep.md describes the grammar, the store and the outputs.  Exit status: 0\n"
    "every configuration that is valid has a result, 1 one failed or was interrupted,\n"
    "2 bad usage.\n";

struct swc_args {
	struct sw_workload wl[SWC_MAX];
	size_t nwl;
	const char *targets[SWC_MAX];
	size_t ntargets;
	const char *opt_names[SWC_MAX], *opt_vals[SWC_MAX];
	size_t nopts;
	const char *store, *json, *csv, *html;
	unsigned par;
	double timeout;
	bool quiet;
};

static int swc_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *eq = strchr(argv[*i], '=');

	if (eq) {
		*val = eq + 1;
		return 0;
	}
	if (*i + 1 >= argc) {
		cli_error("sweep", "%s needs a value", name);
		return -EINVAL;
	}
	*val = argv[++*i];
	return 0;
}

/* Apply the suite options to every workload; each suite must accept each option. */
static int swc_apply_options(struct swc_args *a)
{
	char msg[512];

	for (size_t w = 0; w < a->nwl; w++)
		for (size_t o = 0; o < a->nopts && a->wl[w].kind == SW_WORKLOAD_SUITE; o++) {
			int rc = suite_params_set(a->wl[w].def, &a->wl[w].p, a->opt_names[o],
			                          a->opt_vals[o], msg, sizeof(msg));
			if (rc == -ENOENT)
				cli_error("sweep", "unknown option '--%s' (see raidlab help sweep)",
				          a->opt_names[o]);
			else if (rc)
				cli_error("sweep", "%s: %s", a->wl[w].name, msg);
			if (rc)
				return -EINVAL;
		}
	return 0;
}

static int swc_workload(struct swc_args *a, const char *name)
{
	const struct suite_def *def = suite_find(name);
	char msg[512];

	if (a->nwl == SWC_MAX) {
		cli_error("sweep", "at most %d workloads", SWC_MAX);
		return -EINVAL;
	}
	if (!def && !strcmp(name, "rebuild")) { /* the rebuild of member 0 */
		sw_workload_rebuild(&a->wl[a->nwl++]);
		return 0;
	}
	if (!def && access(name, F_OK) == 0) { /* a job file or a trace */
		int rc = sw_workload_file(&a->wl[a->nwl], name, msg, sizeof(msg));
		if (rc) {
			cli_error("sweep", "%s", msg);
			return rc;
		}
		a->nwl++;
		return 0;
	}
	if (!def) {
		cli_error("sweep",
		          "'%s' is not a suite (raidlab help suites lists them), a job file or a "
		          "trace",
		          name);
		return -EINVAL;
	}
	a->wl[a->nwl].kind = SW_WORKLOAD_SUITE;
	a->wl[a->nwl].def = def;
	a->wl[a->nwl].p = def->defaults;
	snprintf(a->wl[a->nwl].name, sizeof(a->wl[0].name), "%s", def->name);
	a->nwl++;
	return 0;
}

static int swc_parse(int argc, char **argv, struct swc_args *a)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	a->par = cpus > 0 ? (unsigned)cpus : 1;
	a->store = ".raidlab-sweep";
	a->timeout = SW_TIMEOUT_AUTO;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			fputs(sweep_usage, stdout);
			return 1;
		}
		if (arg[0] != '-') {
			if (swc_workload(a, arg))
				return -EINVAL;
			continue;
		}
		if (!strcmp(arg, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(arg, "--no-store")) {
			a->store = NULL;
		} else if (!strcmp(arg, "-j")) {
			char *end;
			long n;
			if (swc_value(argc, argv, &i, arg, &val))
				return -EINVAL;
			n = strtol(val, &end, 10);
			if (*end || n < 1 || n > 64) {
				cli_error("sweep", "-j takes a number from 1 to 64, got '%s'", val);
				return -EINVAL;
			}
			a->par = (unsigned)n;
		} else if (!strncmp(arg, "--target", 8) && (!arg[8] || arg[8] == '=')) {
			if (swc_value(argc, argv, &i, "--target", &val))
				return -EINVAL;
			if (a->ntargets == SWC_MAX) {
				cli_error("sweep", "at most %d --target options", SWC_MAX);
				return -EINVAL;
			}
			a->targets[a->ntargets++] = val;
		} else if (!strncmp(arg, "--timeout", 9) && (!arg[9] || arg[9] == '=')) {
			if (swc_value(argc, argv, &i, "--timeout", &val) ||
			    cli_sweep_timeout("sweep", val, &a->timeout))
				return -EINVAL;
		} else if (!strncmp(arg, "--store", 7) && (!arg[7] || arg[7] == '=')) {
			if (swc_value(argc, argv, &i, "--store", &a->store))
				return -EINVAL;
		} else if (!strncmp(arg, "--json", 6) && (!arg[6] || arg[6] == '=')) {
			if (swc_value(argc, argv, &i, "--json", &a->json))
				return -EINVAL;
		} else if (!strncmp(arg, "--csv", 5) && (!arg[5] || arg[5] == '=')) {
			if (swc_value(argc, argv, &i, "--csv", &a->csv))
				return -EINVAL;
		} else if (!strncmp(arg, "--html", 6) && (!arg[6] || arg[6] == '=')) {
			if (swc_value(argc, argv, &i, "--html", &a->html))
				return -EINVAL;
		} else if (arg[1] == '-' && a->nopts < SWC_MAX) { /* a suite option */
			const char *eq = strchr(arg, '=');
			char *name =
			    strndup(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
			if (!name)
				return -ENOMEM;
			a->opt_names[a->nopts] = name;
			if (eq)
				val = eq + 1;
			else if (suite_param_takes_value(name) &&
			         swc_value(argc, argv, &i, arg, &val))
				return -EINVAL;
			a->opt_vals[a->nopts++] = val;
		} else {
			cli_error("sweep", "unknown option '%s' (see raidlab help sweep)", arg);
			return -EINVAL;
		}
	}
	if (!a->nwl) {
		cli_error("sweep", "no workload: name a suite (cdm5, atto, ...)");
		return -EINVAL;
	}
	if (!a->ntargets) {
		cli_error("sweep", "no target: give --target SPEC");
		return -EINVAL;
	}
	return swc_apply_options(a);
}

int cli_sweep_timeout(const char *cmd, const char *val, double *out)
{
	uint64_t ns;
	char msg[256];

	if (!strcmp(val, "auto")) {
		*out = SW_TIMEOUT_AUTO;
		return 0;
	}
	if (rl_parse_time(val, &ns, msg, sizeof(msg))) {
		cli_error(cmd,
		          "--timeout: %s (a duration such as 90s or 10m, 0 for no limit, "
		          "or auto)",
		          msg);
		return -EINVAL;
	}
	*out = (double)ns / 1e9;
	return 0;
}

static void swc_on_signal(int sig)
{
	(void)sig;
	wl_run_request_stop();
}

static void swc_eta(char *buf, size_t len, double s)
{
	if (s < 0)
		s = 0;
	if (s >= 3600)
		snprintf(buf, len, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60,
		         (int)s % 60);
	else
		snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)s % 60);
}

static void swc_progress(void *arg, const struct sw_point *pt, size_t done, size_t total,
                         double elapsed)
{
	const struct sw_plan *pl = arg;
	char el[32], eta[32];

	swc_eta(el, sizeof(el), elapsed);
	swc_eta(eta, sizeof(eta), done ? elapsed / (double)done * (double)(total - done) : 0);
	fprintf(stderr, "sweep: %zu/%zu %s (%s): %s%s; elapsed %s, ETA %s\n", done, total,
	        pt->label, pl->wl[pt->workload].name,
	        pt->result ? "done" : "failed: ", pt->result ? "" : pt->reason, el, eta);
}

/* The configurations' figures: one line per point, MB/s of each test and direction. */
static void swc_table(FILE *f, const struct sw_plan *pl)
{
	size_t w = 5;

	for (size_t i = 0; i < pl->n; i++)
		w = strlen(pl->pts[i].label) > w ? strlen(pl->pts[i].label) : w;
	if (w > 60)
		w = 60;
	fprintf(f, "%-*s %-8s %10s %5s  MB/s read/write per test\n", (int)w, "configuration",
	        "workload", "usable GB", "fails");
	for (size_t i = 0; i < pl->n; i++) {
		const struct sw_point *pt = &pl->pts[i];
		struct json_object *tests, *t, *d;
		if (!pt->result)
			continue;
		fprintf(f, "%-*.*s %-8s %10.1f %5d ", (int)w, (int)w, pt->label,
		        pl->wl[pt->workload].name, (double)pt->capacity / 1e9, pt->survives);
		json_object_object_get_ex(pt->result, "tests", &tests);
		for (size_t k = 0; tests && k < json_object_array_length(tests); k++) {
			t = json_object_array_get_idx(tests, k);
			fprintf(f, " ");
			for (int r = 0; r < 2; r++) {
				double v =
				    json_object_object_get_ex(t, r ? "write" : "read", &d)
				        ? json_object_get_double(json_object_object_get(d, "mb_s"))
				        : -1;
				if (v < 0)
					fprintf(f, "%s-", r ? "/" : "");
				else
					fprintf(f, "%s%.0f", r ? "/" : "", v);
			}
		}
		fputc('\n', f);
	}
}

static int swc_write_file(const char *path, const struct sw_plan *pl, int what,
                          struct json_object *doc)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	char err[512];
	int rc = 0;

	if (!f) {
		cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
		return 1;
	}
	if (what == 0)
		fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY), f),
		    fputc('\n', f);
	else if (what == 1)
		sw_plan_csv(pl, f);
	else if (rep_sweep_html_doc(f, doc, err, sizeof(err))) {
		cli_error("sweep", "report: %s", err);
		rc = 1;
	}
	if (f != stdout ? fclose(f) : fflush(f)) {
		cli_error("sweep", "cannot write %s: %s", path, strerror(errno));
		rc = 1;
	}
	return rc;
}

/* Check, load and run a built plan, saying what is skipped and how it goes. */
int cli_sweep_run(struct sw_plan *pl, unsigned par, bool quiet)
{
	size_t stored, todo;
	struct sigaction sa = {.sa_handler = swc_on_signal};

	sw_plan_check(pl);
	for (size_t i = 0; i < pl->n; i++)
		if (pl->pts[i].state == SW_SKIPPED && rl_mpi_rank() == 0 &&
		    (i == 0 || strcmp(pl->pts[i - 1].spec, pl->pts[i].spec)))
			fprintf(stderr, "raidlab sweep: skipped %s: %s\n", pl->pts[i].spec,
			        pl->pts[i].reason);
	/* under MPI only rank 0 reads the store (it may be on rank 0's disk
	   alone); the other ranks are handed points by rank 0 whatever they hold */
	stored = rl_mpi_rank() == 0 ? sw_plan_load(pl) : 0;
	todo = sw_plan_count(pl, SW_PENDING);
	if (!quiet && rl_mpi_rank() == 0)
		fprintf(stderr,
		        "sweep: %zu points (%zu configurations skipped as invalid), %zu in the "
		        "store, %zu to run, %u at a time%s%s\n",
		        pl->n, sw_plan_count(pl, SW_SKIPPED), stored, todo,
		        rl_mpi_size() > 1 ? (unsigned)rl_mpi_size() : par,
		        rl_mpi_size() > 1 ? " (one per MPI rank)" : "",
		        sw_plan_count(pl, SW_FAILED) ? "; some timed out in an earlier run and are "
		                                       "not run again (--timeout)"
		                                     : "");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* under MPI every rank enters the pool, even with nothing to run: rank 0
	   tells the others when the work is done */
	if ((todo || rl_mpi_size() > 1) && sw_plan_run(pl, par, quiet ? NULL : swc_progress, pl)) {
		cli_error("sweep", "the worker pool could not run");
		return 1;
	}
	if (wl_run_stop_requested())
		cli_error("sweep",
		          "interrupted: %zu points have no result; run the same command again "
		          "to measure only those",
		          sw_plan_count(pl, SW_FAILED));
	else if (sw_plan_count(pl, SW_FAILED))
		cli_error("sweep", "%zu points failed", sw_plan_count(pl, SW_FAILED));
	return sw_plan_count(pl, SW_FAILED) ? 1 : 0;
}

static int swc_sweep(struct swc_args *a, int argc, char **argv)
{
	struct sw_plan pl;
	struct rl_err err = {0};
	size_t bad = 0;
	int rc, status;

	rc = swc_parse(argc, argv, a);
	for (size_t o = 0; o < a->nopts; o++) /* the options are in the workloads now */
		free((char *)a->opt_names[o]);
	if (rc)
		return rc > 0 ? 0 : 2;
	bool made = false;
	if (cli_output_dir_new("sweep", "--store", a->store, &made) ||
	    cli_output_check("sweep", "--json", a->json) ||
	    cli_output_check("sweep", "--csv", a->csv) ||
	    cli_output_check("sweep", "--html", a->html)) {
		cli_output_undo(a->store, made);
		return 2;
	}
	rc = sw_plan_build(&pl, a->targets, a->ntargets, a->wl, a->nwl, &err, &bad);
	if (rc) {
		if (err.pos != SIZE_MAX)
			cli_spec_error("sweep", a->targets[bad], &err);
		else
			cli_error("sweep", "%s: %s", a->targets[bad], err.msg);
		sw_plan_free(&pl);
		return rc == -EINVAL ? 2 : 1;
	}
	pl.store = a->store;
	pl.simulated_only = true;
	pl.timeout_s = a->timeout;
	status = cli_sweep_run(&pl, a->par, a->quiet);
	if (!a->quiet)
		swc_table(stdout, &pl);
	if (a->json || a->csv || a->html) {
		struct json_object *doc = sw_plan_json(&pl);
		if (a->json)
			status |= swc_write_file(a->json, &pl, 0, doc);
		if (a->csv)
			status |= swc_write_file(a->csv, &pl, 1, doc);
		if (a->html)
			status |= swc_write_file(a->html, &pl, 2, doc);
		json_object_put(doc);
	}
	sw_plan_free(&pl);
	return status;
}

static int sweep_main(int argc, char **argv)
{
	struct swc_args *a = calloc(1, sizeof(*a));

	if (!a) {
		cli_error("sweep", "out of memory");
		return 1;
	}
	int rc = swc_sweep(a, argc, argv);
	for (size_t w = 0; w < a->nwl; w++)
		sw_workload_free(&a->wl[w]);
	free(a);
	return rc;
}

static struct cli_command sweep_cmd = {
    .name = "sweep",
    .summary = "run suites over every configuration a spec with {alternatives} names",
    .usage = sweep_usage,
    .main = sweep_main,
};
CLI_COMMAND_REGISTER(sweep_cmd)
