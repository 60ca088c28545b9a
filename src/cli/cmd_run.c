/*
 * cmd_run.c - `raidlab run`: run fio-style jobs against a target.
 *
 *   raidlab run --target SPEC [--json FILE] [--JOBOPTION=VALUE ...]
 *   raidlab run JOBFILE [--target SPEC] [--json FILE] [--JOBOPTION=VALUE ...]
 *   raidlab run SUITE --target SPEC [--target SPEC ...] [SUITE OPTIONS]  (run_suite.c)
 *
 * Command-line job options form the base job; a job file's [global] and job
 * sections override them.  The target is opened once for all jobs, with the
 * safety checks armed when any job writes.  Each job prints a table (or the
 * whole result goes to stdout as JSON with --output-format=json); --json
 * writes the full result (docs/results.md) to a file.
 */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "core/registry.h"
#include "files/files.h"
#include "stats/result.h"
#include "suites/suite.h"
#include "workload/run.h"

static const char run_usage[] =
    "usage: raidlab run [JOBFILE] --target SPEC [OPTIONS] [--JOBOPTION=VALUE ...]\n"
    "       raidlab run SUITE --target SPEC [--target SPEC ...] [SUITE OPTIONS]\n"
    "\n"
    "Runs fio-style jobs against a target and prints throughput, IOPS and latency.\n"
    "\n"
    "  --target SPEC         what to measure: a path, file(PATH, size=1g), mem(size=1g),\n"
    "                        raid0(...), ... ('raidlab help targets')\n"
    "  --json FILE           write the full result as JSON (docs/results.md)\n"
    "  --output-format=F     normal (default) or json (the result on standard output)\n"
    "  --quiet               no progress line and no table\n"
    "  --keep                keep test files raidlab created\n"
    "  --force-destroy       allow writing over data found on the target\n"
    "  --JOBOPTION=VALUE     any job option, e.g. --rw=randread --bs=4k --iodepth=32\n"
    "                        ('raidlab help options' lists them)\n"
    "\n"
    "A JOBFILE is an fio-style INI file: [global] and one section per job; its\n"
    "options override the command line's.  [global] may name the target: target=SPEC.\n"
    "Jobs run one after another.  Exit status: 0 ok, 1 I/O error or verify failure,\n"
    "2 bad usage.\n"
    "\n"
    "SUITE is a standard benchmark reproduced from its public definition: cdm, cdm-nvme,\n"
    "cdm7, cdm6 (CrystalDiskMark), atto, asssd, anvil, hdtune, iometer, steady.  With\n"
    "several --target options it runs each and writes one JSON per configuration.\n"
    "'raidlab help suites' lists them; 'raidlab run SUITE --help' shows a suite's options\n"
    "(a job file with a suite's name needs a path: ./cdm).\n";

struct run_args {
	const char *target;
	const char *json_path;
	const char *jobfile;
	bool json_stdout;
	bool quiet;
	struct rl_build_ctx ctx;
	struct wl_job base;
};

static int run_parse_args(int argc, char **argv, struct run_args *a)
{
	char msg[512];

	rl_build_ctx_init(&a->ctx);
	wl_job_init(&a->base);
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];
		char name[128];
		const char *val = NULL;

		if (arg[0] != '-' || arg[1] != '-') {
			if (a->jobfile) {
				cli_error("run", "more than one job file given ('%s' and '%s')",
				          a->jobfile, arg);
				return -EINVAL;
			}
			a->jobfile = arg;
			continue;
		}
		const char *eq = strchr(arg, '=');
		size_t nlen = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
		if (nlen >= sizeof(name)) {
			cli_error("run", "option too long: %.40s...", arg);
			return -EINVAL;
		}
		memcpy(name, arg + 2, nlen);
		name[nlen] = 0;
		if (eq)
			val = eq + 1;
		/* raidlab's own options; the ones taking a value accept "--x v" too */
		if (!strcmp(name, "target") || !strcmp(name, "json") ||
		    !strcmp(name, "output-format")) {
			if (!val) {
				if (i + 1 >= argc) {
					cli_error("run", "--%s needs a value", name);
					return -EINVAL;
				}
				val = argv[++i];
			}
			if (!strcmp(name, "target"))
				a->target = val;
			else if (!strcmp(name, "json"))
				a->json_path = val;
			else if (!strcmp(val, "json"))
				a->json_stdout = true;
			else if (strcmp(val, "normal")) {
				cli_error("run",
				          "--output-format: expected normal or json, got '%s'",
				          val);
				return -EINVAL;
			}
		} else if (!strcmp(name, "quiet") && !val) {
			a->quiet = true;
		} else if (!strcmp(name, "keep") && !val) {
			a->ctx.keep = true;
		} else if (!strcmp(name, "force-destroy") && !val) {
			a->ctx.force_destroy = true;
		} else if (!strcmp(name, "help")) {
			fputs(run_usage, stdout);
			exit(0);
		} else if (wl_job_set(&a->base, name, val, "command line", msg, sizeof(msg))) {
			cli_error("run", "%s", msg);
			return -EINVAL;
		}
	}
	return 0;
}

static int run_load_jobs(struct run_args *a, struct wl_jobfile *jf)
{
	char msg[512];

	memset(jf, 0, sizeof(*jf));
	if (!a->jobfile) {
		if (wl_job_validate(&a->base, "command line", msg, sizeof(msg))) {
			cli_error("run", "%s", msg);
			return -EINVAL;
		}
		jf->jobs = malloc(sizeof(*jf->jobs));
		if (!jf->jobs)
			return -ENOMEM;
		jf->jobs[0] = a->base;
		jf->njobs = 1;
		return 0;
	}
	FILE *f = fopen(a->jobfile, "r");
	if (!f) {
		cli_error("run", "cannot open job file %s: %s", a->jobfile, strerror(errno));
		return -errno;
	}
	char *text = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		text = strdup("");
		if (!text)
			return -ENOMEM;
	}
	int rc = wl_jobfile_parse(text, a->jobfile, &a->base, jf, msg, sizeof(msg));
	free(text);
	if (rc) {
		cli_error("run", "%s", msg);
		return rc;
	}
	return 0;
}

static void run_progress_cb(void *arg, const struct wl_progress *p)
{
	(void)arg;
	double mbs = p->elapsed_s > 0 ? p->bytes / 1e6 / p->elapsed_s : 0;
	double iops = p->elapsed_s > 0 ? p->ios / p->elapsed_s : 0;
	double eta = p->fraction > 0.001 ? p->wall_s * (1 - p->fraction) / p->fraction : 0;

	fprintf(stderr, "\r\033[K%s: %5.1f%% %-6s %10.1f MB/s %10.0f IOPS  ETA %4.0fs%s",
	        p->job->name, 100 * p->fraction, p->phase, mbs, iops, eta,
	        p->virtual_time ? " (simulated time)" : "");
	fflush(stderr);
}

static void run_on_signal(int sig)
{
	(void)sig;
	wl_run_request_stop();
}

/* Ctrl-C ends the current job early: its figures are kept, test files removed. */
static void run_catch_signals(void)
{
	struct sigaction sa = {.sa_handler = run_on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int run_main(int argc, char **argv)
{
	struct run_args a = {0};
	struct wl_jobfile jf;
	struct rl_target *t = NULL;
	struct json_object *doc = NULL;
	struct rl_err err = {0};
	int status = 0, rc;
	char msg[512];

	if (argc > 1 && argv[1][0] != '-' && suite_find(argv[1]))
		return cli_run_suite(argc, argv);
	if (argc > 1 && argv[1][0] != '-' && files_suite_find(argv[1]))
		return cli_run_files(argc, argv);
	if (run_parse_args(argc, argv, &a))
		return 2;
	if (run_load_jobs(&a, &jf))
		return 2;
	if (!a.target)
		a.target = jf.target;
	if (!a.target) {
		cli_error("run", "no target: give --target SPEC (or target= in the job file's "
		                 "[global])");
		wl_jobfile_free(&jf);
		return 2;
	}
	a.ctx.direct = jf.jobs[0].direct;
	for (size_t i = 0; i < jf.njobs; i++) {
		const struct wl_job *j = &jf.jobs[i];
		if (j->direct != a.ctx.direct) {
			cli_error("run",
			          "jobs '%s' and '%s' disagree on direct=; the target is "
			          "opened once for all jobs",
			          jf.jobs[0].name, j->name);
			wl_jobfile_free(&jf);
			return 2;
		}
		if (wl_job_writes(j))
			a.ctx.write_intent = true;
		if (j->offset + j->size > a.ctx.default_file_size)
			a.ctx.default_file_size = j->offset + j->size;
	}
	a.ctx.quiet = a.quiet;
	rc = rl_target_open(a.target, &a.ctx, &t, &err);
	if (rc) {
		cli_spec_error("run", a.target, &err);
		wl_jobfile_free(&jf);
		return rc == -EINVAL ? 2 : 1;
	}
	doc = st_result_new(a.target, t);
	run_catch_signals();
	bool tty = isatty(STDERR_FILENO) && !a.quiet && !a.json_stdout;
	struct wl_run_opts opts = {.progress = tty ? run_progress_cb : NULL};
	for (size_t i = 0; i < jf.njobs; i++) {
		struct wl_result res;
		rc = wl_run_job(t, &jf.jobs[i], &opts, &res, msg, sizeof(msg));
		if (tty)
			fprintf(stderr, "\r\033[K");
		if (rc) {
			cli_error("run", "%s", msg);
			status = 1;
			break;
		}
		if (!a.quiet && !a.json_stdout)
			cli_print_job(stdout, &res, i == 0 ? a.target : NULL);
		if (!wl_result_ok(&res)) {
			cli_print_job_problems(stderr, &res);
			status = 1;
		}
		json_object_array_add(json_object_object_get(doc, "jobs"), st_result_job(&res));
		wl_result_free(&res);
		if (wl_run_stop_requested()) {
			cli_error("run", "interrupted: %s",
			          i + 1 < jf.njobs ? "remaining jobs skipped" : "job ended early");
			status = 1;
		}
		if (status)
			break;
	}
	rl_target_finish(t);
	if (a.json_path && (rc = st_result_write(doc, a.json_path))) {
		cli_error("run", "cannot write %s: %s", a.json_path, strerror(-rc));
		status = 1;
	}
	if (a.json_stdout)
		st_result_write(doc, "-");
	json_object_put(doc);
	rl_target_close(t);
	wl_jobfile_free(&jf);
	return status;
}

static struct cli_command run_cmd = {
    .name = "run",
    .summary = "run fio-style jobs against a target",
    .usage = run_usage,
    .main = run_main,
};
CLI_COMMAND_REGISTER(run_cmd)
