/*
 * run_files.c - `raidlab run FILE-SUITE`: copy, extract, clone and load
 * real files on a mounted directory or on a raidlab stack.
 *
 *   raidlab run asssd-copy|fc-test|untar|vm-clone|game-load
 *       --target dir(PATH) | --target SPEC [--target ...] [--label NAME ...]
 *       [--json FILE | --out-dir DIR] [--scale F] [--seed N] [--compress PCT]
 *       [--fs ext4|xfs] [--mkfs-options 'ARGS'] [--no-drop-caches]
 *       [--slow N|auto] [--keep] [--force-destroy] [--quiet]
 *
 * cmd_run.c hands over when the first argument names a file suite.  Each
 * target is prepared (files/target.h: a scratch subdirectory, or serve +
 * nbdfuse + loop + mkfs + mount), the suite runs in it (files/files.h),
 * and the target is torn down before the next one, also when the suite
 * fails or Ctrl-C stops it.  The result is a suite result of
 * docs/results.md (suite, label, tests with read/write figures), so
 * `raidlab compare` and the HTML report put it beside block suites.
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
#include "cli/print.h"
#include "files/files.h"
#include "files/leftovers.h"
#include "files/stop.h"
#include "files/target.h"
#include "results/result.h"

struct rf_args {
	const struct files_suite *def;
	struct cli_targets t; /* --target and --label */
	const char *json_path, *out_dir, *fs, *mkfs_options;
	double scale;
	unsigned long long seed;
	unsigned compress;
	uint32_t slow; /* simulated stacks: serve in slow motion (files_clock_ns); 0: auto */
	bool drop, keep, force_destroy, quiet;
};

/* What the progress callback needs: print it (a terminal), and record it on the target. */
struct rf_prog {
	bool tty;
	struct files_target *t;
};

static void rf_usage(FILE *f)
{
	fprintf(f,
	        "usage: raidlab run FILE-SUITE --target dir(PATH)|SPEC [--target ...] [OPTIONS]\n"
	        "\n"
	        "File suites copy, extract, clone and load real files on a filesystem:\n");
	for (size_t i = 0; files_suite_at(i); i++)
		fprintf(f, "  %-11s %s\n", files_suite_at(i)->name, files_suite_at(i)->title);
	fprintf(
	    f,
	    "\n"
	    "  --target dir(PATH)    a mounted directory (empty, or holding .raidlab-scratch);\n"
	    "                        the suite works in a fresh subdirectory it removes\n"
	    "  --target SPEC         a raidlab stack: served over NBD, attached through\n"
	    "                        nbdfuse and a loop device, formatted and mounted (root)\n"
	    "  --label NAME          the configuration's name (one per --target)\n"
	    "  --json FILE           the result (one target); --out-dir DIR: DIR/SUITE-LABEL.json\n"
	    "  --scale F             data sets at F x the tool's size, 0 < F <= 1 (default 1)\n"
	    "  --seed N              data-set seed (default 1)\n"
	    "  --compress PCT        make PCT %% of every 4 KiB block zeros (default 0:\n"
	    "                        incompressible)\n"
	    "  --fs ext4|xfs         filesystem made on a stack (default ext4)\n"
	    "  --mkfs-options 'ARGS' extra arguments for mkfs\n"
	    "  --no-drop-caches      do not drop the page cache before measured phases\n"
	    "  --slow N|auto         simulated stacks: serve them in slow motion (the\n"
	    "                        simulated clock N times slower than the wall clock,\n"
	    "                        1..1000) and divide measured times by N, for hardware\n"
	    "                        faster than this machine can emulate in real time;\n"
	    "                        auto (the default) lets serve raise N whenever this\n"
	    "                        machine falls behind, and runs a suite again when a\n"
	    "                        raise cut through it\n"
	    "  --keep                dir(): keep the work subdirectory with the data sets,\n"
	    "                        copies and extracted trees (space for all of them)\n"
	    "  --force-destroy       dir(): run in a directory not proven scratch; stack:\n"
	    "                        let serve write over data on its members\n"
	    "  --quiet               no progress and no table\n"
	    "\n"
	    "MB/s is decimal and counts the sync after the data phase; docs/suites.md has the\n"
	    "definitions.  Ctrl-C stops a run within seconds and tears the stack down (a\n"
	    "second one hurries it); the result is written, marked interrupted.  'raidlab\n"
	    "cleanup' removes what a killed run left.\n"
	    "Exit status: 0 ok, 1 failed or interrupted, 2 bad usage.\n");
}

static int rf_parse(int argc, char **argv, struct rf_args *a)
{
	a->def = files_suite_find(argv[1]);
	a->scale = 1;
	a->seed = 1;
	a->drop = true;
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		char name[32];
		if (strncmp(arg, "--", 2)) {
			cli_error("run", "%s: unexpected argument '%s'", a->def->name, arg);
			return -EINVAL;
		}
		if (cli_long_opt_split("run", arg, name, sizeof(name), &val))
			return -EINVAL;
		static const char *const valued[] = {"target",       "label", "json",     "out-dir",
		                                     "scale",        "seed",  "compress", "fs",
		                                     "mkfs-options", "slow"};
		bool takes = false;
		for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			takes |= !strcmp(name, valued[k]);
		if (takes && !val) {
			if (i + 1 >= argc) {
				cli_error("run", "--%s needs a value", name);
				return -EINVAL;
			}
			val = argv[++i];
		}
		char *end = NULL;
		int taken = cli_targets_take(&a->t, name, val);
		if (taken < 0)
			return taken;
		if (taken)
			continue;
		if (!strcmp(name, "json")) {
			a->json_path = val;
		} else if (!strcmp(name, "out-dir")) {
			a->out_dir = val;
		} else if (!strcmp(name, "fs")) {
			if (strcmp(val, "ext4") && strcmp(val, "xfs")) {
				cli_error("run", "--fs: expected ext4 or xfs, got '%s'", val);
				return -EINVAL;
			}
			a->fs = val;
		} else if (!strcmp(name, "mkfs-options")) {
			a->mkfs_options = val;
		} else if (!strcmp(name, "scale")) {
			a->scale = strtod(val, &end);
			if (!end || *end || !(a->scale > 0 && a->scale <= 1)) {
				cli_error("run", "--scale: expected a number in (0, 1], got '%s'",
				          val);
				return -EINVAL;
			}
		} else if (!strcmp(name, "seed")) {
			errno = 0;
			a->seed = strtoull(val, &end, 0);
			if (errno || !end || *end || !*val || *val == '-') {
				cli_error("run", "--seed: expected a whole number, got '%s'", val);
				return -EINVAL;
			}
		} else if (!strcmp(name, "compress")) {
			long c = strtol(val, &end, 10);
			if (!end || *end || !*val || c < 0 || c > 100) {
				cli_error("run",
				          "--compress: expected a percentage 0-100, got '%s'", val);
				return -EINVAL;
			}
			a->compress = (unsigned)c;
		} else if (!strcmp(name, "slow")) {
			if (cli_parse_slow("run", val, &a->slow))
				return -EINVAL;
		} else if (!strcmp(name, "no-drop-caches") && !val) {
			a->drop = false;
		} else if (!strcmp(name, "keep") && !val) {
			a->keep = true;
		} else if (!strcmp(name, "force-destroy") && !val) {
			a->force_destroy = true;
		} else if (!strcmp(name, "quiet") && !val) {
			a->quiet = true;
		} else if (!strcmp(name, "help") && !val) {
			rf_usage(stdout);
			exit(0);
		} else {
			cli_error("run",
			          "%s: unknown option '--%s' ('raidlab run %s --help' lists them)",
			          a->def->name, name, a->def->name);
			return -EINVAL;
		}
	}
	if (cli_targets_check(&a->t, a->def->name, "--target dir(PATH) or --target SPEC"))
		return -EINVAL;
	if (a->t.n > 1 && a->json_path) {
		cli_error("run",
		          "--json writes one result; with several targets use --out-dir DIR");
		return -EINVAL;
	}
	return 0;
}

/* How often a suite runs again after serve raised its slow-motion factor. */
#define RF_PACE_RESTARTS 3
/* --slow auto: file traffic before the first run, so the factor settles. */
#define RF_PROBE_BYTES  (64ull << 20)
#define RF_PROBE_ROUNDS 8

static void rf_progress(void *arg, const char *test, const char *phase)
{
	struct rf_prog *p = arg;
	char what[128];

	if (files_stop_level())
		return; /* the phase the signal came in stays the one reported */
	snprintf(what, sizeof(what), "%s: %s", test, phase);
	files_target_phase(p->t, what);
	if (!p->tty)
		return;
	fprintf(stderr, "\r\033[K%s...", what);
	fflush(stderr);
}

/* Mark @doc interrupted: the phase the signal came in, and the signal. */
static void rf_mark_interrupted(struct json_object *doc, const char *phase)
{
	int sig = files_stop_signal();
	char name[32];

	snprintf(name, sizeof(name), "SIG%s",
	         sig == SIGINT    ? "INT"
	         : sig == SIGTERM ? "TERM"
	         : sig == SIGHUP  ? "HUP"
	                          : "?");
	json_object_object_add(doc, "interrupted", json_object_new_boolean(true));
	json_object_object_add(doc, "interrupted_phase", json_object_new_string(phase));
	json_object_object_add(doc, "interrupted_signal", json_object_new_string(name));
}

/* The result document around the tests. */
static struct json_object *rf_doc(const struct rf_args *a, const struct files_target *t,
                                  const char *spec, const char *label, struct json_object *tests,
                                  const struct files_run *r, unsigned restarts)
{
	struct json_object *doc = json_object_new_object(), *tool = json_object_new_object();
	struct json_object *tg = json_object_new_object(), *suite = json_object_new_object();
	struct json_object *params = json_object_new_object();

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(tool, "name", json_object_new_string("raidlab"));
	json_object_object_add(tool, "version", json_object_new_string(RL_VERSION));
	json_object_object_add(doc, "tool", tool);
	json_object_object_add(doc, "host", st_result_host());
	json_object_object_add(tg, "spec", json_object_new_string(spec));
	json_object_object_add(tg, "kind", json_object_new_string(t->is_dir ? "dir" : "stack"));
	if (!t->is_dir) {
		json_object_object_add(tg, "filesystem", json_object_new_string(t->fs));
		json_object_object_add(tg, "attach",
		                       json_object_new_string("raidlab serve + nbdfuse + loop"));
		if (t->emulation[0]) {
			json_object_object_add(tg, "emulation",
			                       json_object_new_string(t->emulation));
			json_object_object_add(tg, "emulation_fell_behind",
			                       json_object_new_boolean(t->fell_behind));
		}
		json_object_object_add(tg, "slow", json_object_new_int((int)r->slow));
		json_object_object_add(tg, "slow_auto", json_object_new_boolean(!a->slow));
		json_object_object_add(tg, "restarts", json_object_new_int((int)restarts));
		if (a->mkfs_options)
			json_object_object_add(tg, "mkfs_options",
			                       json_object_new_string(a->mkfs_options));
	}
	json_object_object_add(doc, "target", tg);
	json_object_object_add(doc, "jobs", json_object_new_array());
	json_object_object_add(doc, "label", json_object_new_string(label));
	json_object_object_add(suite, "name", json_object_new_string(a->def->name));
	json_object_object_add(suite, "title", json_object_new_string(a->def->title));
	json_object_object_add(suite, "kind", json_object_new_string("files"));
	json_object_object_add(suite, "aggregate", json_object_new_string("single"));
	json_object_object_add(params, "scale", json_object_new_double(a->scale));
	json_object_object_add(params, "seed", json_object_new_int64((int64_t)a->seed));
	json_object_object_add(params, "compress_pct", json_object_new_int((int)a->compress));
	json_object_object_add(params, "drop_caches", json_object_new_boolean(a->drop));
	json_object_object_add(suite, "params", params);
	json_object_object_add(suite, "cache_drops", json_object_new_int((int)r->drops));
	json_object_object_add(suite, "cache_drop_failures",
	                       json_object_new_int((int)r->drop_failures));
	json_object_object_add(doc, "suite", suite);
	json_object_object_add(doc, "tests", json_object_get(tests));
	return doc;
}

static void rf_print(FILE *f, struct json_object *doc)
{
	struct json_object *tests = cli_json_get(doc, "tests");

	fprintf(f, "%s: %s\ntarget: %s\n",
	        json_object_get_string(cli_json_get(cli_json_get(doc, "suite"), "name")),
	        json_object_get_string(cli_json_get(cli_json_get(doc, "suite"), "title")),
	        json_object_get_string(cli_json_get(cli_json_get(doc, "target"), "spec")));
	fprintf(f,
	        "MB/s = 1,000,000 bytes/s including the sync; cached = the data phase alone\n\n");
	fprintf(f, "%-20s %8s %10s %10s %9s %9s %9s %11s\n", "Test", "", "files", "MB", "MB/s",
	        "time s", "sync s", "cached MB/s");
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		const char *dir = cli_json_get(t, "read") ? "read" : "write";
		struct json_object *d = cli_json_get(t, dir);
		fprintf(f, "%-20s %8s %10lld %10.1f %9.2f %9.3f %9.3f %11.2f\n",
		        json_object_get_string(cli_json_get(t, "name")), dir,
		        (long long)json_object_get_int64(cli_json_get(d, "files")),
		        cli_json_num(d, "bytes") / 1e6, cli_json_num(d, "mb_s"),
		        cli_json_num(d, "time_s"), cli_json_num(d, "sync_s"),
		        cli_json_num(d, "cached_mb_s"));
	}
	struct json_object *s = cli_json_get(doc, "suite");
	if (json_object_get_int(cli_json_get(s, "cache_drop_failures")))
		fprintf(f, "note: the page cache could not be dropped (not root): reads may have "
		           "come from memory\n");
}

/* One configuration; *docp gets the result (also when interrupted).  Exit code. */
static int rf_run_one(const struct rf_args *a, const char *spec, const char *label,
                      struct json_object **docp)
{
	struct files_target t;
	struct files_target_opts o = {.fs = a->fs,
	                              .mkfs_options = a->mkfs_options,
	                              .force_destroy = a->force_destroy,
	                              .keep = a->keep,
	                              .need = a->def->need(a->scale),
	                              .slow = a->slow,
	                              .stop = files_stop_flag()};
	struct rf_prog prog = {.tty = isatty(STDERR_FILENO) && !a->quiet, .t = &t};
	struct files_run r = {.scale = a->scale,
	                      .seed = a->seed,
	                      .compress = a->compress,
	                      .drop_caches = a->drop,
	                      .keep_data = a->keep,
	                      .slow = a->slow,
	                      .stop = files_stop_flag(),
	                      .progress = rf_progress,
	                      .progress_arg = &prog};
	char phase[128];
	int rc;

	*docp = NULL;
	if (a->slow != CLI_SLOW_AUTO && a->slow > 1 && !strncmp(spec, "dir(", 4)) {
		cli_error("run", "%s on %s: --slow applies to simulated stacks, not to dir()",
		          a->def->name, label);
		return 2;
	}
	rc = files_target_open(&t, spec, &o);
	if (rc && !files_stop_level()) {
		cli_error("run", "%s on %s: %s", a->def->name, label, t.msg);
		files_target_close(&t);
		return rc == -EINVAL ? 2 : 1;
	}
	r.tests = json_object_new_array();
	unsigned restarts = 0;
	bool cut = false;
	if (!rc && !a->slow && !t.is_dir) {
		unsigned x = 1;
		rc = files_probe_settle(&t, RF_PROBE_BYTES, RF_PROBE_ROUNDS, files_stop_flag(), &x);
		if (rc && !files_stop_level())
			snprintf(r.msg, sizeof(r.msg), "the emulation probe failed: %s",
			         strerror(-rc));
	}
	r.work = t.work;
	while (!rc) {
		unsigned raises0, raises1, slow1;
		files_target_pace(&t, &r.slow, &raises0, NULL);
		rc = a->def->run(&r);
		files_target_pace(&t, &slow1, &raises1, NULL);
		cut = raises1 != raises0;
		if (rc || !cut || restarts == RF_PACE_RESTARTS || files_stop_level())
			break;
		/* serve slowed the emulation down in the middle: what was timed at
		 * the old factor is not the simulated hardware's; start again */
		restarts++;
		if (!a->quiet)
			fprintf(stderr,
			        "\r\033[Kraidlab run: %s on %s: this machine fell behind, the "
			        "emulation now runs at x%u: running the suite again (%u of %u)\n",
			        a->def->name, label, slow1, restarts, RF_PACE_RESTARTS);
		json_object_put(r.tests);
		r.tests = json_object_new_array();
		files_rmtree(t.work);
		if (mkdir(t.work, 0700)) {
			rc = -errno;
			snprintf(r.msg, sizeof(r.msg), "cannot create %.300s: %s", t.work,
			         strerror(errno));
		}
	}
	if (prog.tty)
		fprintf(stderr, "\r\033[K");
	if (rc && !files_stop_level())
		cli_error("run", "%s on %s: %s", a->def->name, label, r.msg);
	if (files_stop_level())
		cli_error("run", "%s on %s: interrupted during %s; tearing down", a->def->name,
		          label, t.phase[0] ? t.phase : "start");
	if (a->keep && t.is_dir && !a->quiet)
		fprintf(stderr, "raidlab run: kept %s\n", t.work);
	files_target_close(&t); /* first: serve's emulation report comes at its exit */
	if (cut && !rc)
		t.fell_behind = true; /* raised again during the last run: mixed factors */
	/* a signal during the teardown of a finished run counts too (phase "teardown") */
	bool interrupted = files_stop_level() > 0;
	snprintf(phase, sizeof(phase), "%s", t.phase[0] ? t.phase : "start");
	if (!rc || interrupted) {
		*docp = rf_doc(a, &t, spec, label, r.tests, &r, restarts);
		if (interrupted)
			rf_mark_interrupted(*docp, phase);
		if (t.fell_behind && !a->quiet && !interrupted)
			fprintf(stderr,
			        "raidlab run: warning: %s: %s; the figures are not the simulated "
			        "hardware's\n",
			        label, t.emulation);
	}
	json_object_put(r.tests);
	return rc || interrupted ? 1 : 0;
}

/* Remains of runs that died (files/leftovers.h): named, with the command that removes them. */
static void rf_warn_leftovers(const struct rf_args *a)
{
	const char *tmp = files_leftovers_tmpdir();
	bool stack = false;

	for (size_t i = 0; i < a->t.n; i++)
		stack |= strncmp(a->t.spec[i], "dir(", 4) != 0;
	if (!stack || !files_leftovers_find(tmp, NULL))
		return;
	fprintf(stderr, "raidlab run: warning: an earlier run that did not finish left:\n");
	files_leftovers_find(tmp, stderr);
	fprintf(stderr, "raidlab run: 'raidlab cleanup' removes them ('--dry-run' shows how)\n");
}

int cli_run_files(int argc, char **argv)
{
	struct rf_args a = {0};
	int status = 0;

	if (rf_parse(argc, argv, &a))
		return 2;
	files_stop_install();
	rf_warn_leftovers(&a);
	const char *dir = a.out_dir ? a.out_dir : a.t.n > 1 ? "." : NULL;
	bool made = false;
	if (cli_output_dir_new("run", "--out-dir", dir, &made) ||
	    cli_output_check("run", "--json", a.json_path)) {
		cli_output_undo(dir, made);
		files_stop_uninstall();
		return 2;
	}
	for (size_t i = 0; i < a.t.n && !files_stop_level(); i++) {
		const char *label = cli_targets_label(&a.t, i);
		struct json_object *doc = NULL;
		int rc = rf_run_one(&a, a.t.spec[i], label, &doc);
		if (rc)
			status = status ? status : rc;
		if (!doc)
			continue;
		if (!a.quiet)
			rf_print(stdout, doc);
		if (a.json_path && st_result_write(doc, a.json_path)) {
			cli_error("run", "cannot write %s", a.json_path);
			status = 1;
		}
		if (dir) {
			char base[100], *path = NULL;
			cli_file_name(label, base, sizeof(base));
			if (asprintf(&path, "%s/%s-%s.json", dir, a.def->name, base) < 0 ||
			    st_result_write(doc, path)) {
				cli_error("run", "cannot write %s", path ? path : dir);
				status = 1;
			} else if (!a.quiet) {
				fprintf(stderr, "raidlab run: %s: wrote %s\n", label, path);
			}
			free(path);
		}
		json_object_put(doc);
	}
	if (files_stop_level())
		status = 1;
	files_stop_uninstall();
	return status;
}
