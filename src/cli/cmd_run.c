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
#include <fcntl.h>
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
#include "core/spec.h"
#include "files/files.h"
#include "mpi/rank.h"
#include "results/fio_json.h"
#include "results/fio_log.h"
#include "results/fio_text.h"
#include "results/result.h"
#include "suites/fleet.h"
#include "suites/suite.h"
#include "workload/run.h"

#define RUN_SECTIONS_MAX 32

/*
 * Exit statuses of a job run, fio's: 1 for anything that failed, a refused
 * option or job file as much as an I/O error (suites keep raidlab's 2 for bad
 * usage); 128 after SIGINT or SIGTERM, fio's exit_value on a signal, and 129
 * after SIGHUP, the status a shell sees from fio, which SIGHUP kills.
 */
#define RUN_EXIT_FAIL   1
#define RUN_EXIT_SIGNAL 128

enum run_eta { RUN_ETA_AUTO = 0, RUN_ETA_ALWAYS, RUN_ETA_NEVER };

struct run_args {
	const char *target;
	const char *json_path;
	const char *jobfile;
	const char *output;
	bool fmt_normal, fmt_json, fmt_jsonplus, fmt_terse;
	bool fmt_given, minimal; /* --output-format and --minimal (terse): one or the other */
	bool quiet, parse_only, showcmd;
	bool readonly;     /* --readonly: a job that writes or trims is refused */
	unsigned max_jobs; /* --max-jobs: 0 = no limit */
	enum run_eta eta;
	uint64_t status_ns;
	uint64_t eta_interval_ns, eta_newline_ns; /* --eta-interval, --eta-newline */
	const char *sections[RUN_SECTIONS_MAX];
	unsigned nsections;
	struct rl_build_ctx ctx;
	struct wl_job base;
	struct wl_job *cli_jobs; /* jobs started with --name (no job file) */
	size_t ncli_jobs;
	bool fleet_stonewall;     /* --fleet-stonewall (under mpirun) */
	uint64_t offset_per_rank; /* --offset-per-rank (under mpirun) */
};

/* Under mpirun: every rank runs the jobs at once (suites/fleet.h, run_fleet.c). */
static struct fleet run_fleet;
static bool run_fleet_on;
static volatile sig_atomic_t run_signalled;

/* --output-format=normal,json,json+,terse */
static int run_parse_format(struct run_args *a, const char *val)
{
	unsigned m;

	if (cli_output_formats_parse(val, &m))
		return -EINVAL;
	a->fmt_given = true;
	a->fmt_normal = m & CLI_FMT_NORMAL;
	a->fmt_json = m & CLI_FMT_JSON;
	a->fmt_jsonplus = m & CLI_FMT_JSONPLUS;
	a->fmt_terse = m & CLI_FMT_TERSE;
	return 0;
}

/* --name=X on the command line starts a job (as fio); later options go to it. */
static int run_cli_job_start(struct run_args *a, const char *name)
{
	char msg[512];
	struct wl_job *jobs = realloc(a->cli_jobs, (a->ncli_jobs + 1) * sizeof(*jobs));

	if (!jobs)
		return -ENOMEM;
	a->cli_jobs = jobs;
	jobs[a->ncli_jobs] = a->base;
	jobs[a->ncli_jobs].given[0] = '\0'; /* the options before --name are fio's global ones */
	if (wl_job_set(&jobs[a->ncli_jobs], "name", name, "command line", msg, sizeof(msg))) {
		cli_error("run", "%s", msg);
		return -EINVAL;
	}
	a->ncli_jobs++;
	return 0;
}

static bool run_takes_value(const char *name)
{
	static const char *const names[] = {
	    "target",          "json",     "output-format", "output",
	    "status-interval", "eta",      "eta-newline",   "eta-interval",
	    "max-jobs",        "aux-path", "section",       "offset-per-rank"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static int run_own_option(struct run_args *a, const char *name, const char *val)
{
	char tmp[128];

	if (!strcmp(name, "target")) {
		if (a->target) {
			cli_error("run",
			          "--target given twice ('%s' and '%s'); jobs run on one target "
			          "each (suites compare several)",
			          a->target, val);
			return -EINVAL;
		}
		a->target = val;
	} else if (!strcmp(name, "json"))
		a->json_path = val;
	else if (!strcmp(name, "output"))
		a->output = val;
	else if (!strcmp(name, "output-format"))
		return run_parse_format(a, val);
	else if (!strcmp(name, "eta")) {
		if (!strcmp(val, "auto"))
			a->eta = RUN_ETA_AUTO;
		else if (!strcmp(val, "always"))
			a->eta = RUN_ETA_ALWAYS;
		else if (!strcmp(val, "never"))
			a->eta = RUN_ETA_NEVER;
		else {
			cli_error("run", "--eta: expected auto, always or never, got '%s'", val);
			return -EINVAL;
		}
	} else if (!strcmp(name, "status-interval") || !strcmp(name, "eta-newline") ||
	           !strcmp(name, "eta-interval")) {
		uint64_t *ns = name[0] == 's'   ? &a->status_ns
		               : name[4] == 'n' ? &a->eta_newline_ns
		                                : &a->eta_interval_ns;
		if (rl_parse_time(val, ns, tmp, sizeof(tmp)) || !*ns) {
			cli_error("run",
			          "--%s: expected a duration such as 1 or 500ms (a plain number is "
			          "seconds), got '%s'",
			          name, val);
			return -EINVAL;
		}
	} else if (!strcmp(name, "max-jobs")) {
		char *end;
		unsigned long n = strtoul(val, &end, 10);
		if (*end || !*val || n < 1 || n > 65536) {
			cli_error("run",
			          "--max-jobs: expected a number of jobs from 1 to 65536, got '%s'",
			          val);
			return -EINVAL;
		}
		a->max_jobs = (unsigned)n;
	} else if (!strcmp(name, "aux-path")) {
		/* fio's place for its generated files; raidlab generates none there */
		struct stat st;
		if (stat(val, &st) || !S_ISDIR(st.st_mode)) {
			cli_error("run", "--aux-path %s: not a directory", val);
			return -EINVAL;
		}
	} else if (!strcmp(name, "section")) {
		if (a->nsections == RUN_SECTIONS_MAX) {
			cli_error("run", "--section: at most %d sections", RUN_SECTIONS_MAX);
			return -EINVAL;
		}
		a->sections[a->nsections++] = val;
	} else if (!strcmp(name, "fleet-stonewall") || !strcmp(name, "offset-per-rank")) {
		if (!run_fleet_on) {
			cli_error("run", "--%s: only under mpirun or srun (MPI %s)", name,
			          rl_mpi_built() ? "is built in, but this is no MPI rank"
			                         : "is not built in");
			return -EINVAL;
		}
		if (name[0] == 'f')
			a->fleet_stonewall = true;
		else if (rl_parse_size(val, &a->offset_per_rank, tmp, sizeof(tmp))) {
			cli_error("run", "--offset-per-rank: %s", tmp);
			return -EINVAL;
		}
	}
	return 0;
}

static int run_parse_args(int argc, char **argv, struct run_args *a)
{
	char msg[512];

	rl_build_ctx_init(&a->ctx);
	wl_job_init(&a->base);
	a->fmt_normal = true;
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
		if (cli_long_opt_split("run", arg, name, sizeof(name), &val))
			return -EINVAL;
		if (!val && !strcmp(name, "trace") && i + 1 < argc)
			val = argv[++i]; /* --trace FILE: read_iolog, spelt as raidlab's options */
		/* raidlab's own options; the ones taking a value accept "--x v" too */
		if (run_takes_value(name)) {
			if (!val) {
				if (i + 1 >= argc) {
					cli_error("run", "--%s needs a value", name);
					return -EINVAL;
				}
				val = argv[++i];
			}
			if (run_own_option(a, name, val))
				return -EINVAL;
		} else if (!strcmp(name, "quiet") && !val) {
			a->quiet = true;
		} else if (!strcmp(name, "fleet-stonewall") && !val) {
			if (run_own_option(a, name, NULL))
				return -EINVAL;
		} else if (!strcmp(name, "minimal") && !val) {
			a->minimal = true;
			a->fmt_normal = a->fmt_json = a->fmt_jsonplus = false;
			a->fmt_terse = true;
		} else if (!strcmp(name, "parse-only") && !val) {
			a->parse_only = true;
		} else if (!strcmp(name, "showcmd") && !val) {
			a->showcmd = true;
		} else if (!strcmp(name, "version") && !val) {
			printf("raidlab-%s\n", RL_VERSION); /* fio's form: fio-3.33 */
			exit(0);
		} else if (!strcmp(name, "cmdhelp")) {
			exit(cli_run_cmdhelp(val));
		} else if (!strcmp(name, "enghelp")) {
			exit(cli_run_enghelp(val));
		} else if (!strcmp(name, "readonly") && !val) {
			a->readonly = true;
		} else if (!strcmp(name, "warnings-fatal") && !val) {
			/* accepted: raidlab's parser warns of nothing, it refuses */
		} else if (!strcmp(name, "keep") && !val) {
			a->ctx.keep = true;
		} else if (!strcmp(name, "force-destroy") && !val) {
			a->ctx.force_destroy = true;
		} else if (!strcmp(name, "help")) {
			fputs(cli_command_find("run")->usage, stdout);
			exit(0);
		} else if (!strcmp(name, "name") && val && !a->jobfile) {
			if (run_cli_job_start(a, val))
				return -EINVAL;
		} else {
			struct wl_job *j = a->ncli_jobs ? &a->cli_jobs[a->ncli_jobs - 1] : &a->base;
			if (wl_job_set(j, name, val, "command line", msg, sizeof(msg))) {
				cli_error("run", "%s", msg);
				return -EINVAL;
			}
		}
	}
	if (a->jobfile && a->ncli_jobs) {
		cli_error("run", "--name starts a command-line job; with a job file, give its "
		                 "options in the file (or use --section)");
		return -EINVAL;
	}
	if (a->minimal && a->fmt_given) {
		cli_error("run", "--minimal is --output-format=terse: it contradicts "
		                 "--output-format; give one of them");
		return -EINVAL;
	}
	return 0;
}

/*
 * fio's defaults for the jobs that run where fio would (job.h); a job whose
 * engine became psync is checked again, so an option psync cannot honour
 * (cmdprio, latency_target) is refused as fio refuses it.
 */
static int run_fio_defaults(const struct run_args *a, struct wl_jobfile *jf)
{
	bool fio_files = !a->target && !jf->target;
	char msg[512], where[WL_NAME_MAX + 64];

	for (size_t i = 0; i < jf->njobs; i++) {
		struct wl_job *j = &jf->jobs[i];
		if (j->time_based && !wl_job_time_based(j))
			fprintf(
			    stderr,
			    "raidlab run: job '%s': time_based needs a runtime; it runs its size "
			    "once, as fio does\n",
			    j->name);
		if (!wl_job_apply_fio_defaults(j, fio_files))
			continue;
		snprintf(where, sizeof(where), "job '%s' (fio's default ioengine=psync)", j->name);
		if (wl_job_validate(j, where, msg, sizeof(msg))) {
			cli_error("run", "%s", msg);
			wl_jobfile_free(jf); /* a refused load leaves no jobs to the caller */
			return -EINVAL;
		}
	}
	return 0;
}

static int run_load_jobs(struct run_args *a, struct wl_jobfile *jf)
{
	char msg[512];

	memset(jf, 0, sizeof(*jf));
	if (!a->jobfile && !a->ncli_jobs && !a->target && !a->base.filename[0] &&
	    !a->base.directory[0] && !a->base.read_iolog[0]) {
		/* fio's answer: options alone, without --name or a file, define no job */
		cli_error("run", "No job(s) defined: give a job file ('-' reads it from standard "
		                 "input), --name=NAME with job options, or --target SPEC ('raidlab "
		                 "run --help')");
		return -EINVAL;
	}
	if (!a->jobfile) {
		size_t n = a->ncli_jobs ? a->ncli_jobs : 1;
		const struct wl_job *src = a->ncli_jobs ? a->cli_jobs : &a->base;
		for (size_t i = 0; i < n; i++) {
			char where[WL_NAME_MAX + 32];
			snprintf(where, sizeof(where), "command line: job '%s'", src[i].name);
			if (wl_job_validate(&src[i], where, msg, sizeof(msg))) {
				cli_error("run", "%s", msg);
				return -EINVAL;
			}
		}
		jf->jobs = malloc(n * sizeof(*jf->jobs));
		if (!jf->jobs)
			return -ENOMEM;
		memcpy(jf->jobs, src, n * sizeof(*jf->jobs));
		jf->njobs = n;
		if (a->ncli_jobs) /* without --name (--target) the options are the job's own */
			memcpy(jf->global_given, a->base.given, sizeof(jf->global_given));
		return run_fio_defaults(a, jf);
	}
	char *text = NULL;
	int rc = cli_run_read_jobfile(a->jobfile, &text);
	if (rc)
		return rc;
	rc = wl_jobfile_parse_from(text, strcmp(a->jobfile, "-") ? a->jobfile : "<stdin>", &a->base,
	                           cli_run_jobfile_reader, jf, msg, sizeof(msg));
	free(text);
	if (rc) {
		cli_error("run", "%s", msg);
		return rc;
	}
	return run_fio_defaults(a, jf);
}

/* --section: keep only the named jobs (in file order). */
static int run_pick_sections(struct run_args *a, struct wl_jobfile *jf)
{
	size_t keep = 0;

	if (!a->nsections)
		return 0;
	for (size_t i = 0; i < jf->njobs; i++) {
		bool want = false;
		for (unsigned k = 0; k < a->nsections; k++)
			if (!strcmp(jf->jobs[i].name, a->sections[k]))
				want = true;
		if (want)
			jf->jobs[keep++] = jf->jobs[i];
	}
	for (unsigned k = 0; k < a->nsections; k++) {
		bool found = false;
		for (size_t i = 0; i < keep; i++)
			if (!strcmp(jf->jobs[i].name, a->sections[k]))
				found = true;
		if (!found) {
			cli_error("run", "--section: no job section named '%s'", a->sections[k]);
			return -EINVAL;
		}
	}
	jf->njobs = keep;
	return 0;
}

/*
 * --readonly refuses a job that writes or trims (fio's read-only mode, exit
 * status 1 as fio's); --max-jobs refuses more jobs (counting numjobs copies)
 * than it allows.  Returns the exit status, 0 when the jobs may run.
 */
static int run_check_flags(const struct run_args *a, const struct wl_jobfile *jf)
{
	size_t total = 0;

	for (size_t i = 0; i < jf->njobs; i++) {
		total += jf->jobs[i].numjobs;
		if (a->readonly && wl_job_writes(&jf->jobs[i])) {
			cli_error("run",
			          "job '%s' writes or trims (rw=%s), but --readonly is given",
			          jf->jobs[i].name, wl_rw_name(jf->jobs[i].rw));
			return RUN_EXIT_FAIL;
		}
	}
	if (a->max_jobs && total > a->max_jobs) {
		cli_error("run", "%zu jobs (counting numjobs copies), more than --max-jobs=%u",
		          total, a->max_jobs);
		return RUN_EXIT_FAIL;
	}
	return 0;
}

/* The targets of the run: one per distinct spec, shared by the jobs that name it. */
struct run_target {
	char *spec;
	struct rl_target *t;
	struct rl_build_ctx ctx;
	const char *first_job; /* for messages */
	bool finished;         /* its run ended (cli_target_end) */
	bool direct_given;     /* a job on it said direct= / buffered= */
	bool read;             /* a job on it reads (or verifies) */
};

struct run_plan {
	struct run_target *tg;
	size_t ntg;
	unsigned *tidx;    /* per clone of every job: its target (flattened, job order) */
	size_t *clone0;    /* per job: index of its first clone in tidx */
	unsigned *wave;    /* per job */
	unsigned *groupid; /* per job */
	size_t nwaves;
};

static void run_plan_free(struct run_plan *p)
{
	for (size_t i = 0; i < p->ntg; i++) {
		if (p->tg[i].t) {
			if (!p->tg[i].finished)
				rl_target_finish(p->tg[i].t);
			rl_target_close(p->tg[i].t);
		}
		free(p->tg[i].spec);
	}
	free(p->tg);
	free(p->tidx);
	free(p->clone0);
	free(p->wave);
	free(p->groupid);
	memset(p, 0, sizeof(*p));
}

static int run_plan_add(struct run_plan *p, const struct run_args *a, const struct wl_job *j,
                        const char *spec, unsigned *out)
{
	size_t i;

	for (i = 0; i < p->ntg; i++)
		if (!strcmp(p->tg[i].spec, spec))
			break;
	if (i == p->ntg) {
		struct run_target *tg = realloc(p->tg, (p->ntg + 1) * sizeof(*tg));
		if (!tg)
			return -ENOMEM;
		p->tg = tg;
		memset(&tg[i], 0, sizeof(tg[i]));
		tg[i].spec = strdup(spec);
		if (!tg[i].spec)
			return -ENOMEM;
		tg[i].ctx = a->ctx;
		tg[i].ctx.direct = j->direct;
		tg[i].ctx.quiet = a->quiet;
		tg[i].first_job = j->name;
		tg[i].direct_given = j->direct_given;
		p->ntg++;
	} else if (p->tg[i].ctx.direct == j->direct) {
		p->tg[i].direct_given |= j->direct_given;
	} else if (!j->direct_given) {
		/* this job only has a default: the target is opened as the others say */
	} else if (!p->tg[i].direct_given) {
		/* the jobs before only had a default: this one says */
		p->tg[i].ctx.direct = j->direct;
		p->tg[i].direct_given = true;
		p->tg[i].first_job = j->name;
	} else {
		/*
		 * The jobs disagree: fio opens the file per job.  It is opened
		 * with O_DIRECT and once more through the page cache, and each
		 * request of a direct=0 job says so (RL_IO_BUFFERED).
		 */
		p->tg[i].ctx.direct = true;
		p->tg[i].ctx.also_buffered = true;
	}
	/* a buffered job whose requests are not whole sectors (fio's bs=4) on a
	   plain file: the file takes any byte; below a composite it would not */
	if (!j->direct && wl_job_sub_sector(j) && !strncmp(spec, "file(", 5))
		p->tg[i].ctx.byte_blocks = true;
	/* ... through the page cache, also where other jobs open it O_DIRECT */
	if (p->tg[i].ctx.byte_blocks && p->tg[i].ctx.direct)
		p->tg[i].ctx.also_buffered = true;
	if (wl_job_writes(j))
		p->tg[i].ctx.write_intent = true;
	if (wl_job_reads(j))
		p->tg[i].read = true;
	p->tg[i].ctx.write_only = p->tg[i].ctx.write_intent && !p->tg[i].read;
	/* fio's fadvise_hint: random if any job on the file is random */
	if (wl_rw_is_random(j->rw))
		p->tg[i].ctx.access_hint = POSIX_FADV_RANDOM;
	else if (p->tg[i].ctx.access_hint != POSIX_FADV_RANDOM)
		p->tg[i].ctx.access_hint = POSIX_FADV_SEQUENTIAL;
	if (j->size_pct)
		p->tg[i].ctx.size_pct = j->size_pct;
	if (!j->size_pct && j->offset + j->size > p->tg[i].ctx.default_file_size)
		p->tg[i].ctx.default_file_size = j->offset + j->size;
	*out = (unsigned)i;
	return 0;
}

static int run_plan_build(struct run_plan *p, const struct run_args *a, const struct wl_jobfile *jf)
{
	const char *deftarget = a->target ? a->target : jf->target;
	size_t nclones = 0;
	char spec[4096], msg[512];
	int rc;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < jf->njobs; i++)
		nclones += jf->jobs[i].numjobs;
	p->tidx = calloc(nclones, sizeof(*p->tidx));
	p->clone0 = calloc(jf->njobs, sizeof(*p->clone0));
	p->wave = calloc(jf->njobs, sizeof(*p->wave));
	p->groupid = calloc(jf->njobs, sizeof(*p->groupid));
	if (!p->tidx || !p->clone0 || !p->wave || !p->groupid)
		return -ENOMEM;
	if (wl_job_groups(jf->jobs, jf->njobs, p->wave, p->groupid, &p->nwaves, msg, sizeof(msg))) {
		cli_error("run", "%s", msg);
		return -EINVAL;
	}
	size_t c = 0;
	for (size_t i = 0; i < jf->njobs; i++) {
		const struct wl_job *j = &jf->jobs[i];
		p->clone0[i] = c;
		for (unsigned k = 0; k < j->numjobs; k++, c++) {
			rc = wl_job_target_spec(j, k, spec, sizeof(spec), msg, sizeof(msg));
			if (rc < 0) {
				cli_error("run", "%s", msg);
				return rc;
			}
			const char *use = spec;
			if (rc == 1 && deftarget) {
				use = deftarget;
			} else if (rc == 1) {
				/* fio's default: the file NAME.CLONE.0 in the current folder */
				struct wl_job here = *j;
				snprintf(here.directory, sizeof(here.directory), ".");
				rc = wl_job_target_spec(&here, k, spec, sizeof(spec), msg,
				                        sizeof(msg));
				if (rc) {
					cli_error("run", "%s", msg);
					return -EINVAL;
				}
			}
			char ranked[sizeof(spec)];
			if (run_fleet_on) {
				if (fleet_subst(&run_fleet, use, ranked, sizeof(ranked))) {
					cli_error("run", "target too long after $rank/$host: %s",
					          use);
					return -EINVAL;
				}
				use = ranked;
			}
			rc = run_plan_add(p, a, j, use, &p->tidx[c]);
			if (rc)
				return rc;
		}
	}
	for (size_t i = 0; i < p->ntg; i++) {
		struct rl_err err = {0};
		rc = rl_target_open(p->tg[i].spec, &p->tg[i].ctx, &p->tg[i].t, &err);
		if (rc) {
			p->tg[i].t = NULL;
			cli_spec_error("run", p->tg[i].spec, &err);
			return rc == -EINVAL ? -EINVAL : -EIO;
		}
	}
	return 0;
}

static void run_on_signal(int sig)
{
	run_signalled = sig;
	wl_run_request_stop();
}

/* Ctrl-C ends the current job early: its figures are kept, test files removed. */
static void run_catch_signals(void)
{
	struct sigaction sa = {.sa_handler = run_on_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* fio's own normal output for fio's invocations; raidlab's table with --target */
static bool run_fio_text(const struct run_args *a, const struct wl_jobfile *jf)
{
	return a->fmt_normal && !a->quiet && !a->target && !jf->target;
}

/*
 * Run the waves in order; each job's result goes to res[job], and done[job]
 * says it ran.  exitall with exit_what=all ends the run after its wave.
 */
static int run_waves(const struct run_args *a, const struct wl_jobfile *jf, struct run_plan *p,
                     struct wl_result *res, struct wl_result **clones, bool *done, FILE *out,
                     const struct st_disk_util *du)
{
	struct cli_run_progress ps = {
	    .tty = a->eta == RUN_ETA_ALWAYS ||
	           (a->eta == RUN_ETA_AUTO && isatty(STDERR_FILENO) && !a->quiet),
	    .status_ns = a->status_ns,
	    .eta_every_s = a->eta_interval_ns / 1e9,
	    .newline_every_s = a->eta_newline_ns / 1e9,
	    .out = out,
	    .status_fio = (run_fio_text(a, jf) ? CLI_STATUS_NORMAL : 0) |
	                  (a->fmt_terse ? CLI_STATUS_TERSE : 0) |
	                  (a->fmt_json || a->fmt_jsonplus ? CLI_STATUS_JSON : 0),
	    .status_plus = a->fmt_jsonplus,
	    .global_given = jf->global_given,
	    .du = du,
	};
	struct wl_run_opts opts = {.progress = ps.tty || ps.status_ns ? cli_run_progress_cb : NULL,
	                           .progress_arg = &ps,
	                           .snapshot_ns = ps.status_fio ? a->status_ns : 0};
	struct wl_run_item *items = calloc(jf->njobs, sizeof(*items));
	size_t nclones = p->clone0[jf->njobs - 1] + jf->jobs[jf->njobs - 1].numjobs;
	struct rl_target **tg = calloc(nclones, sizeof(*tg));
	char msg[512];
	int status = 0;

	if (!items || !tg) {
		free(items);
		free(tg);
		cli_error("run", "out of memory");
		return 1;
	}
	for (size_t c = 0; c < nclones; c++)
		tg[c] = p->tg[p->tidx[c]].t;
	/* a job that fails does not stop the later waves (fio's default without exitall_on_error)
	 */
	bool halt = false;
	for (size_t w = 0; w < p->nwaves && !halt; w++) {
		size_t n = 0;
		bool exit_all = false;
		for (size_t k = 0; k < jf->njobs; k++) {
			if (p->wave[k] != w)
				continue;
			items[n].job = &jf->jobs[k];
			items[n].targets = &tg[p->clone0[k]];
			items[n].res = &res[k];
			items[n].clones = clones[k];
			ps.groupid = p->groupid[k];
			if (jf->jobs[k].exitall && jf->jobs[k].exit_what == 2)
				exit_all = true;
			n++;
		}
		if (!n)
			continue;
		ps.last_s = 0;
		ps.last_bytes = ps.last_ios = ps.last_rbytes = 0;
		if (run_fleet_on && fleet_wave_begin(&run_fleet, (unsigned)w, &opts)) {
			cli_error("run", "rank %d: the ranks could not meet before wave %zu",
			          run_fleet.rank, w + 1);
			status = 1;
			break;
		}
		int rc = wl_run_group(items, n, &opts, msg, sizeof(msg));
		/* a stonewall's stop is the fleet's, not the user's: the next wave runs */
		if (run_fleet_on && fleet_wave_end(&run_fleet, &opts) && !run_signalled)
			wl_run_clear_stop();
		if (ps.tty)
			fprintf(stderr, "\r\033[K");
		if (rc) {
			cli_error("run", "%s", msg);
			status = 1;
			break;
		}
		for (size_t i = 0; i < n; i++) {
			done[items[i].res - res] = true;
			if (items[i].res->note[0])
				fprintf(stderr, "raidlab run: note: %s\n", items[i].res->note);
			if (items[i].res->cont_errors)
				fprintf(
				    stderr,
				    "raidlab run: note: job '%s': continue_on_error went past %llu "
				    "I/O error(s); the first: %s\n",
				    items[i].res->job.name,
				    (unsigned long long)items[i].res->cont_errors,
				    strerror(-items[i].res->first_error));
			if (!wl_result_ok(items[i].res)) {
				cli_print_job_problems(stderr, items[i].res);
				status = 1;
			}
		}
		if (wl_run_stop_requested()) {
			cli_error("run", "interrupted: %s",
			          w + 1 < p->nwaves ? "remaining jobs skipped" : "job ended early");
			status = 1;
			halt = true;
		}
		if (exit_all)
			break; /* exitall + exit_what=all: the later waves do not start */
	}
	free(items);
	free(tg);
	return status;
}

/*
 * What the report shows: one entry per job that ran, except that the jobs
 * of a reporting group with group_reporting become one (named after the
 * first), as in fio.  Merged results are new and freed by the caller.
 */
struct run_shown {
	struct wl_result *res;
	size_t job;  /* the (first) job's index */
	bool merged; /* res was made here */
	unsigned njobs;
};

static size_t run_collect(const struct wl_jobfile *jf, const struct run_plan *p,
                          struct wl_result *res, struct wl_result **clones, const bool *done,
                          struct run_shown *sh)
{
	size_t n = 0;

	for (size_t i = 0; i < jf->njobs; i++) {
		if (!done[i])
			continue;
		bool grouped = false;
		for (size_t k = 0; k < jf->njobs; k++)
			if (done[k] && p->groupid[k] == p->groupid[i] &&
			    jf->jobs[k].group_reporting)
				grouped = true;
		size_t first = i;
		for (size_t k = 0; grouped && k < i; k++)
			if (done[k] && p->groupid[k] == p->groupid[i]) {
				first = k;
				break;
			}
		if (grouped && first != i) {
			for (size_t m = 0; m < n; m++)
				if (sh[m].job == first) {
					wl_result_merge(sh[m].res, &res[i]);
					sh[m].njobs += res[i].job.numjobs;
				}
			continue;
		}
		if (!grouped && clones[i]) {
			/* numjobs without group_reporting: each clone on its own, as fio */
			for (unsigned k = 0; k < res[i].job.numjobs; k++, n++) {
				sh[n].job = i;
				sh[n].njobs = 1;
				sh[n].merged = false;
				sh[n].res = &clones[i][k];
			}
			continue;
		}
		sh[n].job = i;
		sh[n].njobs = res[i].job.numjobs;
		sh[n].merged = false;
		sh[n].res = &res[i];
		if (grouped) {
			struct wl_result *m = calloc(1, sizeof(*m));
			if (m) {
				wl_result_init(m, &res[i].job);
				wl_result_merge(m, &res[i]);
				sh[n].res = m;
				sh[n].merged = true;
			}
		}
		n++;
	}
	for (size_t m = 0; m < n; m++)
		if (sh[m].merged)
			sh[m].res->job.numjobs = sh[m].njobs; /* fio's "jobs=N" */
	return n;
}

static void run_report(const struct run_args *a, const struct wl_jobfile *jf,
                       const struct run_plan *p, struct wl_result *res, struct wl_result **clones,
                       const bool *done, FILE *out, time_t started, const struct st_disk_util *du)
{
	size_t nclones = p->clone0[jf->njobs - 1] + jf->jobs[jf->njobs - 1].numjobs;
	struct run_shown *sh = calloc(nclones, sizeof(*sh));
	size_t n;

	if (a->quiet || !sh) {
		free(sh);
		return;
	}
	n = run_collect(jf, p, res, clones, done, sh);
	if (a->fmt_normal && !run_fio_text(a, jf)) {
		char date[64];
		cli_format_date(date, sizeof(date), started);
		fprintf(out, "raidlab-%s: %zu job(s) in %zu wave(s), started %s\n", RL_VERSION,
		        jf->njobs, p->nwaves, date);
	}
	/* fio's order for several formats: terse lines, the JSON document, the normal report */
	struct st_fio_job *fj = calloc(n ? n : 1, sizeof(*fj));
	for (size_t i = 0; fj && i < n; i++) {
		fj[i].res = sh[i].res;
		fj[i].groupid = p->groupid[sh[i].job];
		fj[i].target = p->tg[p->tidx[p->clone0[sh[i].job]]].t;
	}
	for (size_t i = 0; fj && a->fmt_terse && i < n; i++)
		st_fio_terse(out, &fj[i], du);
	if (fj && (a->fmt_json || a->fmt_jsonplus)) {
		struct json_object *doc = st_fio_json(fj, n, a->fmt_jsonplus, du, jf->global_given);
		fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
		                                              JSON_C_TO_STRING_NOSLASHESCAPE),
		      out);
		fputc('\n', out);
		json_object_put(doc);
	}
	if (fj && a->fmt_normal && run_fio_text(a, jf))
		st_fio_text(out, fj, n, du);
	free(fj);
	if (a->fmt_normal && !run_fio_text(a, jf))
		for (size_t i = 0; i < n; i++) {
			size_t j = sh[i].job;
			bool new_target =
			    i == 0 || p->tidx[p->clone0[j]] != p->tidx[p->clone0[sh[i - 1].job]];
			cli_print_job(out, sh[i].res,
			              new_target ? p->tg[p->tidx[p->clone0[j]]].spec : NULL);
		}
	for (size_t i = 0; i < n; i++)
		if (sh[i].merged) {
			wl_result_free(sh[i].res);
			free(sh[i].res);
		}
	free(sh);
}

/* The fio logs job @j (number @jobnum) will write: each must be writable before it runs. */
static int run_check_logs(const struct wl_job *j, unsigned jobnum)
{
	struct st_fio_log_file files[ST_FIO_LOG_FILES];
	size_t n = st_fio_logs_files(j, jobnum, files);

	for (size_t i = 0; i < n; i++)
		if (cli_output_check("run", files[i].option, files[i].path))
			return -EINVAL;
	return 0;
}

/*
 * Under mpirun: each rank's own figures to rank 0, which reports the jobs
 * over all ranks; the other ranks report nothing.  The exit status of rank
 * 0 says whether every rank's jobs went well.
 */
static int run_fleet_end(const struct run_args *a, const struct run_plan *p,
                         const struct wl_jobfile *jf, const struct wl_result *res, const bool *done,
                         FILE *out, int status, time_t started)
{
	char msg[512], date[64];

	if (a->fmt_normal && !a->quiet) {
		cli_format_date(date, sizeof(date), started);
		fprintf(out, "raidlab-%s: %zu job(s) in %zu wave(s) on %d ranks, started %s\n",
		        RL_VERSION, jf->njobs, p->nwaves, run_fleet.size, date);
	}
	if (fleet_gather(&run_fleet, res, done, p->wave, jf->njobs, p->tg[p->tidx[0]].spec, msg,
	                 sizeof(msg))) {
		cli_error("run", "rank %d: %s", run_fleet.rank, msg);
		return 1;
	}
	if (run_fleet.rank > 0)
		return status;
	if (!a->quiet && (a->fmt_json || a->fmt_jsonplus))
		cli_fleet_fio_json(out, &run_fleet, p->tg[p->tidx[0]].t, a->fmt_jsonplus);
	if (!a->quiet && a->fmt_normal)
		cli_fleet_print(out, &run_fleet);
	return fleet_ok(&run_fleet) ? status : 1;
}

/*
 * fio's number of clone @k of job @i in its log names (NAME_bw.N.log): each
 * clone is a job of its own there, numbered through the file in order, so
 * [a] numjobs=2 then [b] write a_bw.1, a_bw.2 and b_bw.3.
 */
static unsigned run_log_number(const struct run_plan *plan, size_t i, unsigned k)
{
	return (unsigned)plan->clone0[i] + k + 1;
}

/* Block sizes, offsets and depths the targets and the engine cannot take; log files. */
static int run_check_jobs(const struct run_plan *plan, const struct wl_jobfile *jf)
{
	for (size_t i = 0; i < jf->njobs; i++) {
		char cmsg[512];
		if (wl_run_check(plan->tg[plan->tidx[plan->clone0[i]]].t, &jf->jobs[i], cmsg,
		                 sizeof(cmsg))) {
			cli_error("run", "%s", cmsg);
			return -EINVAL;
		}
		for (unsigned k = 0; k < jf->jobs[i].numjobs; k++)
			if (run_check_logs(&jf->jobs[i], run_log_number(plan, i, k)))
				return -EINVAL;
	}
	return 0;
}

/*
 * After the jobs: fio's log files, the end of the run on every target
 * (what it wrote back, what it lost) and the result document (--json).
 * 1 when any of it failed, else 0.
 */
static int run_save(const struct run_args *a, struct run_plan *plan, const struct wl_jobfile *jf,
                    struct wl_result *res, struct wl_result **clones, const bool *done)
{
	struct json_object *doc;
	int status = 0;

	for (size_t i = 0; i < jf->njobs; i++) {
		char lmsg[512];
		unsigned n = clones[i] ? jf->jobs[i].numjobs : 1;
		/* each clone's own logs, as each of fio's jobs writes its own */
		for (unsigned k = 0; done[i] && k < n; k++) {
			const struct wl_result *r = clones[i] ? &clones[i][k] : &res[i];
			if (st_fio_logs_write(r, run_log_number(plan, i, k), lmsg, sizeof(lmsg))) {
				cli_error("run", "job '%s': %s", res[i].job.name, lmsg);
				status = 1;
				break;
			}
		}
	}
	doc = st_result_new(plan->tg[plan->tidx[0]].spec, plan->tg[plan->tidx[0]].t);
	for (size_t i = 0; i < jf->njobs; i++)
		if (done[i])
			json_object_array_add(json_object_object_get(doc, "jobs"),
			                      st_result_job(&res[i]));
	for (size_t i = 0; i < plan->ntg; i++) {
		if (cli_target_end("run", plan->tg[i].t, i == plan->tidx[0] ? doc : NULL))
			status = 1;
		plan->tg[i].finished = true;
	}
	if (run_fleet_on && run_fleet.rank == 0)
		json_object_object_add(doc, "fleet", fleet_json(&run_fleet));
	if (a->json_path && cli_result_save("run", doc, a->json_path))
		status = 1;
	json_object_put(doc);
	return status;
}

/* create_only=1 lays out and measures nothing: a run does one or the other. */
static int run_check_create_only(const struct wl_jobfile *jf)
{
	for (size_t i = 1; i < jf->njobs; i++)
		if (jf->jobs[i].create_only != jf->jobs[0].create_only) {
			cli_error("run",
			          "job '%s' says create_only=%d but job '%s' create_only=%d: a run "
			          "either lays out files or measures; run them apart",
			          jf->jobs[i].name, jf->jobs[i].create_only, jf->jobs[0].name,
			          jf->jobs[0].create_only);
			return -EINVAL;
		}
	return 0;
}

/*
 * The targets of jobs that keep disk_util (fio's default), in @tgs; returns
 * how many.  disk_util=0 leaves a job's devices out.
 */
static size_t run_disk_util_targets(const struct run_plan *p, const struct wl_jobfile *jf,
                                    struct rl_target **tgs)
{
	size_t n = 0;
	for (size_t t = 0; t < p->ntg; t++) {
		bool keep = false;
		for (size_t i = 0; i < jf->njobs && !keep; i++)
			for (unsigned k = 0; k < jf->jobs[i].numjobs && !keep; k++)
				keep = p->tidx[p->clone0[i] + k] == t && jf->jobs[i].disk_util;
		if (keep)
			tgs[n++] = p->tg[t].t;
	}
	return n;
}

static int run_main_args(int argc, char **argv);

static int run_main(int argc, char **argv)
{
	bool suite = argc > 1 && argv[1][0] != '-' && suite_find(argv[1]);
	char **ranked = NULL;
	int rc;

	if (!fleet_active())
		return run_main_args(argc, argv);
	if (!suite && argc > 1 && argv[1][0] != '-' && files_suite_find(argv[1])) {
		if (rl_mpi_rank() > 0) /* every rank refuses; one says why */
			return 2;
		cli_error("run",
		          "%s: file suites do not run over an MPI fleet (their figures are the "
		          "times of whole file operations on one filesystem, which do not add up "
		          "over ranks): run it without mpirun (docs/mpi.md)",
		          argv[1]);
		return 2;
	}
	fleet_init(&run_fleet);
	if (cli_fleet_argv(&run_fleet, argc, argv, &ranked))
		return suite ? 2 : RUN_EXIT_FAIL;
	run_fleet_on = true;
	rc = suite ? cli_run_suite(argc, ranked, &run_fleet) : run_main_args(argc, ranked);
	run_fleet_on = false;
	fleet_free(&run_fleet);
	cli_fleet_argv_free(argc, ranked);
	return rc;
}

static int run_main_args(int argc, char **argv)
{
	struct run_args a = {0};
	struct wl_jobfile jf;
	struct run_plan plan = {0};
	struct wl_result *res = NULL, **clones = NULL;
	bool *done = NULL;
	FILE *out = stdout;
	int status = 0, rc;

	if (argc > 1 && argv[1][0] != '-' && suite_find(argv[1]))
		return cli_run_suite(argc, argv, NULL);
	if (argc > 1 && argv[1][0] != '-' && files_suite_find(argv[1]))
		return cli_run_files(argc, argv);
	if (run_parse_args(argc, argv, &a)) {
		free(a.cli_jobs);
		return RUN_EXIT_FAIL;
	}
	if (cli_output_check("run", "--json", a.json_path) ||
	    cli_output_check("run", "--output", a.output)) {
		free(a.cli_jobs);
		return RUN_EXIT_FAIL;
	}
	rc = run_load_jobs(&a, &jf);
	free(a.cli_jobs);
	if (rc)
		return RUN_EXIT_FAIL;
	if (run_pick_sections(&a, &jf)) {
		wl_jobfile_free(&jf);
		return RUN_EXIT_FAIL;
	}
	if (run_fleet_on) {
		char fmsg[512];
		run_fleet.stonewall = a.fleet_stonewall;
		run_fleet.offset_per_rank = a.offset_per_rank;
		a.ctx.shared = a.offset_per_rank > 0; /* one target, a region per rank */
		if (fleet_offsets(&run_fleet, jf.jobs, jf.njobs, fmsg, sizeof(fmsg))) {
			cli_error("run", "%s", fmsg);
			wl_jobfile_free(&jf);
			return RUN_EXIT_FAIL;
		}
		if (run_fleet.rank > 0) { /* rank 0 alone reports and writes the results */
			a.quiet = true;
			a.json_path = a.output = NULL;
			a.status_ns = 0;
		}
	}
	if ((rc = run_check_flags(&a, &jf))) {
		wl_jobfile_free(&jf);
		return rc;
	}
	if (a.showcmd || a.parse_only) {
		if (a.showcmd)
			cli_run_showcmd(&jf);
		wl_jobfile_free(&jf);
		return 0;
	}
	if (!jf.njobs) {
		wl_jobfile_free(&jf);
		return 0;
	}
	/* from before the targets open (laying out files takes a while): a signal then stops the
	 * jobs at their start */
	run_catch_signals();
	rc = run_plan_build(&plan, &a, &jf);
	if (rc) {
		run_plan_free(&plan);
		wl_jobfile_free(&jf);
		return RUN_EXIT_FAIL;
	}
	if (run_check_jobs(&plan, &jf) || run_check_create_only(&jf)) {
		run_plan_free(&plan);
		wl_jobfile_free(&jf);
		return RUN_EXIT_FAIL;
	}
	if (a.output && !(out = fopen(a.output, "w"))) {
		cli_error("run", "cannot write %s: %s", a.output, strerror(errno));
		run_plan_free(&plan);
		wl_jobfile_free(&jf);
		return 1;
	}
	res = calloc(jf.njobs, sizeof(*res));
	done = calloc(jf.njobs, sizeof(*done));
	clones = calloc(jf.njobs, sizeof(*clones));
	bool oom = false;
	for (size_t i = 0; clones && i < jf.njobs; i++)
		if (jf.jobs[i].numjobs > 1 &&
		    !(clones[i] = calloc(jf.jobs[i].numjobs, sizeof(**clones))))
			oom = true;
	if (!res || !done || !clones || oom) {
		cli_error("run", "out of memory");
		status = 1;
		goto done;
	}
	time_t started = time(NULL);
	struct st_disk_util du;
	struct rl_target **tgs = calloc(plan.ntg, sizeof(*tgs));
	struct rl_target **dus = calloc(plan.ntg, sizeof(*dus));
	for (size_t i = 0; tgs && i < plan.ntg; i++)
		tgs[i] = plan.tg[i].t;
	st_disk_util_begin(&du, dus, dus ? run_disk_util_targets(&plan, &jf, dus) : 0);
	free(dus);
	if (st_disk_util_sample_start(&du)) /* without it: one reading at the end */
		fprintf(stderr,
		        "raidlab run: note: disk stats read once at the end (no sampler thread)\n");
	if (run_fio_text(&a, &jf)) {
		st_fio_text_start(out, jf.jobs, jf.njobs, plan.groupid);
		if (tgs) /* the files the run created, announced as fio's */
			st_fio_text_layout(out, jf.jobs, jf.njobs, tgs, plan.tidx);
	}
	free(tgs);
	if (jf.jobs[0].create_only) { /* the files are laid out: that was the run */
		st_disk_util_sample_stop(&du);
		st_disk_util_end(&du);
		status = 0;
		goto done;
	}
	status = run_waves(&a, &jf, &plan, res, clones, done, out, &du);
	st_disk_util_sample_stop(&du); /* the jobs are done: fio's last tick is the report's */
	st_disk_util_end(&du);
	if (run_fleet_on)
		status = run_fleet_end(&a, &plan, &jf, res, done, out, status, started);
	else
		run_report(&a, &jf, &plan, res, clones, done, out, started, &du);
	if (run_save(&a, &plan, &jf, res, clones, done))
		status = 1;
done:
	for (size_t i = 0; res && i < jf.njobs; i++)
		wl_result_free(&res[i]);
	free(res);
	free(done);
	for (size_t i = 0; clones && i < jf.njobs; i++) {
		for (unsigned k = 0; clones[i] && k < jf.jobs[i].numjobs; k++)
			wl_result_free(&clones[i][k]);
		free(clones[i]);
	}
	free(clones);
	if (out != stdout && fclose(out)) {
		cli_error("run", "cannot write %s: %s", a.output, strerror(errno));
		status = 1;
	}
	run_plan_free(&plan);
	wl_jobfile_free(&jf);
	if (run_signalled)
		status = RUN_EXIT_SIGNAL + (run_signalled == SIGHUP ? SIGHUP : 0);
	return status;
}

static struct cli_command run_cmd = {
    .name = "run",
    .summary = "run fio-style jobs against a target",
    .usage = cli_run_usage,
    .main = run_main,
    .usage_fill = cli_run_usage_fill,
};
CLI_COMMAND_REGISTER(run_cmd)
