/*
 * cmd_profile_learn.c - `raidlab profile learn TARGET -o FILE` and
 * `raidlab profile check FILE TARGET`: a drive profile from measurements,
 * and how well it predicts workloads it was not fitted to.
 *
 * learn opens TARGET as any run does (a simulated drive, a scratch file
 * it creates and removes, or a whole device: writing over data found
 * needs --force-destroy, a device in use is refused), runs the probes and
 * the sequential fill of profile_probe.c within the --time budget (on the
 * target's clock), and when the fill reached the end, sustained random
 * writes from full (pl_sustain: the spare area), fits the model
 * (profile_fit.c) and writes the profile
 * through a temporary file renamed into place, so an interrupted run
 * (Ctrl-C) leaves neither a half profile nor a candidate file behind.
 *
 * check runs the AS SSD and Anvil suites (none of their jobs is one of
 * learn's probes as run) on TARGET and on ssd(FILE) in worker processes
 * and prints, cell by cell and in summary, how far the profile's figures
 * are from the target's, with the statistics validate prints.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/profile_priv.h"
#include "core/registry.h"
#include "core/spec.h"
#include "report/validate.h"
#include "suites/runner.h"
#include "suites/suite.h"
#include "workload/run.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static const char learn_usage[] =
    "usage: raidlab profile learn TARGET -o FILE [--time T] [--name NAME] [--size SIZE]\n"
    "                             [--force-destroy] [--quiet]\n"
    "       raidlab profile check FILE TARGET [-j N] [--json OUT]\n"
    "\n"
    "learn measures TARGET through the target interface only - a simulated drive\n"
    "(ssd(850evo), used as a black box), a scratch file on a filesystem (created at\n"
    "--size, default 4g, and removed after) or a whole device (destroys its data:\n"
    "--force-destroy; a device in use is refused) - and writes a drive profile FILE\n"
    "that ssd(FILE), advise --drives 2xFILE, sweeps and validate accept.\n"
    "Probes: 4K random reads at QD1/4/16/64, 128K reads, sequential reads (the\n"
    "interface limit), 4K random writes at QD1/16/64, the write cache's rate, then a\n"
    "sequential fill that finds the write knee (cache size and the rate after it)\n"
    "and, when it reaches the end, random writes from full (the spare area).\n"
    "The fit: the simulator run on candidate profiles, least squares on log figures;\n"
    "every parameter in FILE is tagged with the probes that set it and its error.\n"
    "\n"
    "  -o FILE            the profile to write (required)\n"
    "  --time T           budget of the measurements on the target's clock (default 10m;\n"
    "                     the fill samples the start of a large drive and says so)\n"
    "  --name NAME        the profile's name (default: FILE's base name)\n"
    "  --size SIZE        size of a scratch file learn creates (default 4g)\n"
    "  --force-destroy    allow writing over data found on the target\n"
    "  --quiet            no progress line and no summary (FILE holds the figures)\n"
    "\n"
    "check runs the AS SSD and Anvil suites on TARGET and on ssd(FILE) and prints the\n"
    "ratio of every cell (MB/s), the median error and the shares within 1.25x, 1.5x\n"
    "and 2x; --json OUT writes them.  docs/simulator.md, \"Learning a profile\".\n";

static void learn_on_signal(int sig)
{
	(void)sig;
	wl_run_request_stop();
}

struct learn_prog {
	bool show;
	struct timespec t0;
	double lo, hi; /* the share of the whole run the current part covers */
};

static double wall_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void learn_note(void *arg, const char *phase, double frac)
{
	struct learn_prog *p = arg;
	double f, el;

	if (!p->show)
		return;
	if (frac > 1)
		frac = 1;
	f = p->lo + (p->hi - p->lo) * frac;
	el = wall_since(&p->t0);
	if (f > 0.02) {
		double eta = el * (1 - f) / f;
		fprintf(stderr, "\r\033[Klearn: %3.0f%%  ETA %2d:%02d  %s", f * 100, (int)eta / 60,
		        (int)eta % 60, phase);
	} else {
		fprintf(stderr, "\r\033[Klearn: %3.0f%%  %s", f * 100, phase);
	}
}

struct learn_args {
	const char *target, *out, *name;
	uint64_t budget_ns, size;
	bool force, quiet;
};

static int learn_parse(int argc, char **argv, struct learn_args *a)
{
	char why[256];

	memset(a, 0, sizeof(*a));
	a->budget_ns = 600ull * 1000000000ull;
	a->size = 4 * GIB;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--force-destroy")) {
			a->force = true;
		} else if (!strcmp(o, "--quiet")) {
			a->quiet = true;
		} else if (!strcmp(o, "-o") || !strcmp(o, "--time") || !strcmp(o, "--name") ||
		           !strcmp(o, "--size")) {
			if (!v) {
				cli_error("profile", "learn: %s needs a value", o);
				return -EINVAL;
			}
			i++;
			if (!strcmp(o, "-o")) {
				a->out = v;
			} else if (!strcmp(o, "--name")) {
				a->name = v;
			} else if (!strcmp(o, "--time")) {
				if (rl_parse_time(v, &a->budget_ns, why, sizeof(why)) ||
				    a->budget_ns < 1000000000ull) {
					cli_error(
					    "profile",
					    "learn: --time: expected a time of 1s or more, got "
					    "'%s'",
					    v);
					return -EINVAL;
				}
			} else if (rl_parse_size(v, &a->size, why, sizeof(why)) ||
			           a->size < 64 * MIB) {
				cli_error("profile",
				          "learn: --size: expected a size of 64m or more, got '%s'",
				          v);
				return -EINVAL;
			}
		} else if (o[0] == '-') {
			cli_error("profile",
			          "learn: unknown option '%s' (see raidlab help profile)", o);
			return -EINVAL;
		} else if (!a->target) {
			a->target = o;
		} else {
			cli_error("profile", "learn: one TARGET only, got '%s' too", o);
			return -EINVAL;
		}
	}
	if (!a->target || !a->out) {
		cli_error("profile", "learn: give TARGET and -o FILE (raidlab help profile)");
		return -EINVAL;
	}
	return 0;
}

/* The profile's name: --name, or FILE's base name without .profile. */
static void learn_name(const struct learn_args *a, char *buf, size_t len)
{
	const char *b = strrchr(a->out, '/');
	char *dot;

	snprintf(buf, len, "%s", a->name ? a->name : b ? b + 1 : a->out);
	dot = strstr(buf, ".profile");
	if (dot && !a->name)
		*dot = 0;
	for (char *c = buf; *c; c++)
		if (*c == ' ' || *c == '#' || *c == '=')
			*c = '-';
}

/* What learn found, in a few lines. */
static void learn_print(const struct learn_args *a, const struct pl_model *m, const double *meas,
                        const struct pl_knee *knee, const struct pl_knee *got,
                        const struct pl_sustain *sus, const struct pl_sustain *gsus)
{
	printf("learned %s from %s: %s, link %.0f MB/s, %u dies, rms log error %.3f "
	       "(%u simulations)\n",
	       a->out, a->target, m->sata ? "SATA" : "NVMe", m->par[6], m->dies, m->rms, m->evals);
	for (size_t i = 0; i < pl_nprobes; i++)
		printf("  %-12s %10.1f %-5s %s\n", pl_probes[i].id, meas[i],
		       pl_probes[i].fig == PL_LAT_US ? "us"
		       : pl_probes[i].fig == PL_IOPS ? "IOPS"
		                                     : "MB/s",
		       pl_probes[i].what);
	if (knee->knee)
		printf("  write knee after %.1f GB: %.0f MB/s before, %.0f after "
		       "(model: %.1f GB, %.0f / %.0f)\n",
		       (double)knee->knee / 1e9, knee->cache_mbs, knee->after_mbs,
		       (double)got->knee / 1e9, got->cache_mbs, got->after_mbs);
	else
		printf("  no write knee in %.1f GB written (%.0f MB/s)%s\n",
		       (double)knee->written / 1e9, knee->cache_mbs,
		       knee->sampled ? ": the fill sampled the start of the target" : "");
	if (sus->run)
		printf("  %-12s %10.1f IOPS  mean after the fill (first slice %.0f, last %.0f); "
		       "model %.0f at %.1f %% spare%s\n",
		       pl_sustain_probe.id, sus->iops, sus->first, sus->last, gsus->iops, m->op_pct,
		       m->op_fit == PL_OP_AT_HI || m->op_fit == PL_OP_AT_LO
		           ? " (the search's bound)"
		       : m->op_fit == PL_OP_LEAST ? " (at least: no slowdown seen)"
		                                  : "");
	else
		printf(
		    "  spare area not measured (the fill did not reach the end): %.0f %% assumed\n",
		    m->op_pct);
}

/* Everything learn measures on @t: the probes, the fill, random writes from full. */
static int learn_measure(struct rl_target *t, const struct learn_args *a,
                         const struct pl_plan *plan, double *meas, struct pl_knee *knee,
                         struct pl_sustain *sus, struct learn_prog *prog, char *msg, size_t msglen)
{
	int rc;

	prog->lo = 0;
	prog->hi = 0.3;
	rc = pl_run_probes(t, plan, meas, learn_note, prog, msg, msglen);
	if (!rc) {
		prog->lo = 0.3;
		prog->hi = 0.7;
		rc = pl_fill(t, plan->area, a->budget_ns * 7 / 10, knee, learn_note, prog, msg,
		             msglen);
	}
	/* the whole target written: what sustained random writes do there (the spare area) */
	memset(sus, 0, sizeof(*sus));
	sus->slices = PL_SUSTAIN_SLICES;
	sus->slice_ns = plan->runtime_ns;
	if (!rc && !knee->sampled) {
		prog->lo = 0.7;
		prog->hi = 0.75;
		rc = pl_sustain(t, sus, learn_note, prog, msg, msglen);
	}
	return rc;
}

static int learn_main(int argc, char **argv)
{
	struct learn_args a;
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err;
	struct sigaction sa = {.sa_handler = learn_on_signal};
	struct learn_prog prog;
	struct pl_plan plan, fplan;
	struct pl_knee knee, got;
	struct pl_sustain sus, gsus;
	struct pl_model m;
	double meas[64];
	char msg[512], name[128], tmp[PATH_MAX];
	char *outtmp = NULL;
	uint64_t cap;
	int rc, fd, status = 1;

	if (learn_parse(argc, argv, &a))
		return 2;
	if (cli_output_check("profile", "-o", a.out))
		return 2;
	learn_name(&a, name, sizeof(name));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	memset(&prog, 0, sizeof(prog));
	prog.show = !a.quiet && isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &prog.t0);

	rl_build_ctx_init(&ctx);
	ctx.write_intent = true;
	ctx.force_destroy = a.force;
	ctx.default_file_size = a.size;
	rc = rl_target_open(a.target, &ctx, &t, &err);
	if (rc) {
		cli_spec_error("profile", a.target, &err);
		return 1;
	}
	if (!(rl_target_leaf_caps(t) & RL_CAP_VIRTUAL) && !a.quiet)
		fprintf(stderr, "raidlab profile: learn writes over %s (%.1f GB)\n", a.target,
		        (double)t->size / 1e9);
	plan.area = t->size / 4 < GIB ? t->size / 4 / MIB * MIB : GIB;
	plan.quiet = a.quiet;
	plan.rounds = PL_ROUNDS; /* each time-based figure a median of slices (profile_probe.c) */
	plan.runtime_ns = a.budget_ns / 5 / pl_nprobes;
	if (plan.runtime_ns < 100000000ull)
		plan.runtime_ns = 100000000ull;
	if (plan.runtime_ns > 5000000000ull)
		plan.runtime_ns = 5000000000ull;
	if (plan.area < 16 * MIB) {
		cli_error("profile", "learn: %s is too small (%llu bytes; 64 MiB at least)",
		          a.target, (unsigned long long)t->size);
		goto out;
	}
	rc = learn_measure(t, &a, &plan, meas, &knee, &sus, &prog, msg, sizeof(msg));
	cap = t->size;
	rl_target_finish(t);
	rl_target_close(t);
	t = NULL;
	if (rc == -EINTR || wl_run_stop_requested()) {
		if (prog.show)
			fprintf(stderr, "\r\033[K");
		cli_error("profile", "learn: stopped; nothing was written");
		return 130;
	}
	if (rc) {
		if (prog.show)
			fprintf(stderr, "\r\033[K");
		cli_error("profile", "learn: %s: %s", a.target, msg);
		return 1;
	}

	/* the fit, on the simulator */
	fd = pl_tmpfile(tmp, sizeof(tmp));
	if (fd < 0) {
		cli_error("profile", "learn: cannot make a temporary file: %s", strerror(errno));
		return 1;
	}
	close(fd);
	fplan = plan;
	fplan.runtime_ns = 50000000ull;
	pl_model_guess(&m, meas, &knee, cap);
	prog.lo = 0.7;
	prog.hi = 0.95;
	rc = pl_model_fit(&m, meas, &fplan, tmp, 400, learn_note, &prog, msg, sizeof(msg));
	if (!rc && !wl_run_stop_requested()) {
		prog.lo = 0.95;
		prog.hi = 1;
		learn_note(&prog, "the write knee on the model", 0);
		rc = pl_model_knee(&m, &knee, &plan, tmp, &got, msg, sizeof(msg));
	}
	if (!rc && !wl_run_stop_requested() && sus.run) {
		learn_note(&prog, "the spare area on the model", 0);
		rc = pl_model_spare(&m, &sus, tmp, &gsus, msg, sizeof(msg));
	}
	if (prog.show)
		fprintf(stderr, "\r\033[K");
	if (wl_run_stop_requested()) {
		cli_error("profile", "learn: stopped; nothing was written");
		status = 130;
		goto out;
	}
	if (rc) {
		cli_error("profile", "learn: the fit failed: %s", msg);
		goto out;
	}
	if (asprintf(&outtmp, "%s.tmp%ld", a.out, (long)getpid()) < 0) {
		outtmp = NULL;
		goto out;
	}
	FILE *f = fopen(outtmp, "w");
	if (!f) {
		cli_error("profile", "learn: cannot write %s: %s", a.out, strerror(errno));
		goto out;
	}
	pl_model_write(f, &m, name, a.target, &knee, &sus, meas, &plan);
	if (fclose(f) || wl_run_stop_requested() || rename(outtmp, a.out)) {
		unlink(outtmp);
		cli_error("profile", "learn: %s was not written", a.out);
		goto out;
	}
	if (!a.quiet)
		learn_print(&a, &m, meas, &knee, &got, &sus, &gsus);
	status = 0;
out:
	if (t) {
		rl_target_finish(t);
		rl_target_close(t);
	}
	unlink(tmp);
	free(outtmp);
	return status;
}

/* ------------------------------------------------------------------ check */

static const char *const check_suites[] = {"asssd", "anvil"};
#define CHECK_NSUITES 2

struct check_cell {
	const char *suite, *test, *dir;
	double target, model;
};

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int check_main(int argc, char **argv)
{
	const char *file = NULL, *target = NULL, *json = NULL;
	char spec[4200];
	long par = 2;
	struct suite_request rq[2 * CHECK_NSUITES];
	struct suite_pool_result res[2 * CHECK_NSUITES];
	struct check_cell cells[128];
	size_t n = 0;
	int status = 1;

	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		if ((!strcmp(o, "-j") || !strcmp(o, "--json")) && i + 1 < argc) {
			if (!strcmp(o, "--json"))
				json = argv[++i];
			else if ((par = strtol(argv[++i], NULL, 10)) < 1 || par > 64) {
				cli_error("profile", "check: -j takes 1 to 64");
				return 2;
			}
		} else if (o[0] == '-') {
			cli_error("profile",
			          "check: unknown option '%s' (see raidlab help profile)", o);
			return 2;
		} else if (!file) {
			file = o;
		} else if (!target) {
			target = o;
		} else {
			cli_error("profile", "check: expected FILE TARGET, got '%s' too", o);
			return 2;
		}
	}
	if (!file || !target) {
		cli_error("profile", "check: give FILE TARGET (raidlab help profile)");
		return 2;
	}
	if (access(file, R_OK)) {
		cli_error("profile", "check: %s: %s", file, strerror(errno));
		return 1;
	}
	if (json && cli_output_check("profile", "--json", json))
		return 2;
	snprintf(spec, sizeof(spec), "ssd(%s%s)", strchr(file, '/') ? "" : "./", file);
	memset(rq, 0, sizeof(rq));
	memset(res, 0, sizeof(res));
	for (int s = 0; s < CHECK_NSUITES; s++)
		for (int k = 0; k < 2; k++) {
			struct suite_request *r = &rq[s * 2 + k];
			r->def = suite_find(check_suites[s]);
			if (!r->def) {
				cli_error("profile", "check: no suite %s", check_suites[s]);
				return 1;
			}
			r->p = r->def->defaults;
			r->spec = k ? spec : target;
			r->label = k ? "profile" : "target";
			rl_build_ctx_init(&r->ctx);
			r->ctx.quiet = true;
		}
	if (suite_pool_run(rq, 2 * CHECK_NSUITES, (unsigned)par, res, NULL, NULL)) {
		cli_error("profile", "check: the suites could not run");
		return 1;
	}
	for (int i = 0; i < 2 * CHECK_NSUITES; i++)
		if (!res[i].doc) {
			cli_error("profile", "check: %s on %s: %s", check_suites[i / 2], rq[i].spec,
			          res[i].error);
			goto out;
		}
	printf("profile check: %s against %s (AS SSD and Anvil, MB/s)\n\n", file, target);
	printf("  %-6s %-10s %-5s %10s %10s %7s\n", "suite", "test", "dir", "target", "profile",
	       "ratio");
	for (int s = 0; s < CHECK_NSUITES; s++) {
		struct json_object *tests;
		if (!json_object_object_get_ex(res[s * 2].doc, "tests", &tests))
			continue;
		for (size_t i = 0; i < json_object_array_length(tests); i++) {
			struct json_object *o = json_object_array_get_idx(tests, i), *nm;
			if (!json_object_object_get_ex(o, "name", &nm))
				continue;
			for (int d = 0; d < 2 && n < 128; d++) {
				const char *dir = d ? "write" : "read";
				const char *test = json_object_get_string(nm);
				double a = val_figure(res[s * 2].doc, test, dir, NULL);
				double b = val_figure(res[s * 2 + 1].doc, test, dir, NULL);
				if (!(a > 0) || !(b > 0))
					continue;
				cells[n++] = (struct check_cell){check_suites[s], test, dir, a, b};
				printf("  %-6s %-10s %-5s %10.2f %10.2f %6.2fx\n", check_suites[s],
				       test, dir, a, b, b / a);
			}
		}
	}
	if (!n) {
		cli_error("profile", "check: no cells to compare");
		goto out;
	}
	double logs[128], med, w125 = 0, w15 = 0, w2 = 0, worst = 1;
	for (size_t i = 0; i < n; i++) {
		double r = cells[i].model / cells[i].target;
		double x = r > 1 ? r : 1 / r;
		logs[i] = fabs(log(r));
		w125 += x <= 1.25;
		w15 += x <= 1.5;
		w2 += x <= 2;
		worst = x > worst ? x : worst;
	}
	qsort(logs, n, sizeof(*logs), dcmp);
	med = exp(n % 2 ? logs[n / 2] : (logs[n / 2 - 1] + logs[n / 2]) / 2);
	printf("\nagreement: %zu cells, median error %.3fx, worst %.2fx; within 1.25x %.0f %%, "
	       "1.5x %.0f %%, 2x %.0f %%\n",
	       n, med, worst, 100 * w125 / n, 100 * w15 / n, 100 * w2 / n);
	if (json) {
		struct json_object *doc = json_object_new_object(), *arr = json_object_new_array();
		for (size_t i = 0; i < n; i++) {
			struct json_object *c = json_object_new_object();
			json_object_object_add(c, "suite", json_object_new_string(cells[i].suite));
			json_object_object_add(c, "test", json_object_new_string(cells[i].test));
			json_object_object_add(c, "direction",
			                       json_object_new_string(cells[i].dir));
			json_object_object_add(c, "target",
			                       json_object_new_double(cells[i].target));
			json_object_object_add(c, "profile",
			                       json_object_new_double(cells[i].model));
			json_object_array_add(arr, c);
		}
		json_object_object_add(doc, "profile", json_object_new_string(file));
		json_object_object_add(doc, "target", json_object_new_string(target));
		json_object_object_add(doc, "cells", arr);
		json_object_object_add(doc, "median_ratio", json_object_new_double(med));
		json_object_object_add(doc, "worst_ratio", json_object_new_double(worst));
		json_object_object_add(doc, "share_125", json_object_new_double(w125 / n));
		json_object_object_add(doc, "share_15", json_object_new_double(w15 / n));
		json_object_object_add(doc, "share_2", json_object_new_double(w2 / n));
		if (json_object_to_file_ext(json, doc, JSON_C_TO_STRING_PRETTY)) {
			cli_error("profile", "check: cannot write %s", json);
			json_object_put(doc);
			goto out;
		}
		json_object_put(doc);
	}
	status = 0;
out:
	for (int i = 0; i < 2 * CHECK_NSUITES; i++)
		if (res[i].doc)
			json_object_put(res[i].doc);
	return status;
}

static int profile_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(learn_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "learn"))
		return learn_main(argc, argv);
	if (!strcmp(argv[1], "check"))
		return check_main(argc, argv);
	cli_error("profile", "expected learn or check, got '%s' (raidlab profiles lists drives)",
	          argv[1]);
	return 2;
}

static struct cli_command profile_cmd = {
    .name = "profile",
    .summary = "learn a drive profile from measurements, and check what it predicts",
    .usage = learn_usage,
    .main = profile_main,
};
CLI_COMMAND_REGISTER(profile_cmd)
