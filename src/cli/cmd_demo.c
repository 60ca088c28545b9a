/*
 * cmd_demo.c - `raidlab demo`: the main job, what `make run` shows.
 *
 * Creates a 256 MiB test file in a temporary directory (TMPDIR, else
 * /var/tmp), runs four classic tests on it (sequential 1 MiB read and
 * write at QD8, 4 KiB random read at QD32 and QD1), prints a table, and
 * removes the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/registry.h"
#include "workload/run.h"

static const char demo_usage[] =
    "usage: raidlab demo [--dir DIR] [--size SIZE] [--runtime SECONDS]\n"
    "\n"
    "Measures a temporary test file (default 256m in $TMPDIR or /var/tmp) with four\n"
    "classic tests and prints the table; the file is removed afterwards.\n";

struct demo_test {
	const char *label;
	const char *opts[6];
};

static int demo_main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp";
	const char *size = "256m", *runtime = "2";
	static const struct demo_test tests[] = {
	    {"SEQ1M Q8 read", {"rw=read", "bs=1m", "iodepth=8", NULL}},
	    {"SEQ1M Q8 write", {"rw=write", "bs=1m", "iodepth=8", NULL}},
	    {"RND4K Q32 read", {"rw=randread", "bs=4k", "iodepth=32", NULL}},
	    {"RND4K Q1 read", {"rw=randread", "bs=4k", "iodepth=1", NULL}},
	};
	char spec[4200], path[4096], msg[512];
	struct rl_build_ctx ctx;
	struct rl_target *t;
	struct rl_err err = {0};
	int status = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(demo_usage, stdout);
			return 0;
		} else if (i + 1 < argc && !strcmp(argv[i], "--dir")) {
			dir = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--size")) {
			size = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--runtime")) {
			runtime = argv[++i];
		} else {
			cli_error("demo", "unknown argument '%s'", argv[i]);
			return 2;
		}
	}
	snprintf(path, sizeof(path), "%s/raidlab-demo-%d.img", dir, (int)getpid());
	snprintf(spec, sizeof(spec), "file(\"%s\", size=%s)", path, size);
	rl_build_ctx_init(&ctx);
	ctx.write_intent = true;
	ctx.buffered_ok = true;
	printf("raidlab demo: %s test file %s\n", size, path);
	if (rl_target_open(spec, &ctx, &t, &err)) {
		cli_spec_error("demo", spec, &err);
		return 1;
	}
	printf("\n  %-16s %10s %10s %12s\n", "test", "MB/s", "IOPS", "lat mean us");
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]) && !status; i++) {
		struct wl_job job;
		struct wl_result res;
		wl_job_init(&job);
		snprintf(job.name, sizeof(job.name), "%s", tests[i].label);
		int rc = 0;
		for (int k = 0; tests[i].opts[k] && !rc; k++) {
			char kv[64];
			snprintf(kv, sizeof(kv), "%s", tests[i].opts[k]);
			char *eq = strchr(kv, '=');
			*eq = 0;
			rc = wl_job_set(&job, kv, eq + 1, "demo", msg, sizeof(msg));
		}
		if (rc ||
		    (rc = wl_job_set(&job, "runtime", runtime, "--runtime", msg, sizeof(msg))) ||
		    (rc = wl_job_set(&job, "time_based", "1", "demo", msg, sizeof(msg))) ||
		    (rc = wl_job_validate(&job, "demo", msg, sizeof(msg)))) {
			cli_error("demo", "%s", msg);
			status = 2;
			break;
		}
		if (wl_run_job(t, &job, NULL, &res, msg, sizeof(msg))) {
			cli_error("demo", "%s", msg);
			status = 1;
			break;
		}
		enum rl_op d = wl_job_writes(&job) ? RL_OP_WRITE : RL_OP_READ;
		printf("  %-16s %10.1f %10.0f %12.1f\n", tests[i].label,
		       wl_result_bw(&res, d) / 1e6, wl_result_iops(&res, d),
		       st_hist_mean(&res.dir[d].hist) / 1e3);
		if (!wl_result_ok(&res))
			status = 1;
		wl_result_free(&res);
	}
	printf("\nMB/s are decimal (10^6 bytes/s).  Next: 'raidlab help' and "
	       "'raidlab run --help'.\n");
	rl_target_finish(t);
	rl_target_close(t);
	return status;
}

static struct cli_command demo_cmd = {
    .name = "demo",
    .summary = "the main job: a short measurement of a temporary test file",
    .usage = demo_usage,
    .main = demo_main,
};
CLI_COMMAND_REGISTER(demo_cmd)
