/*
 * cmd_rebuild.c - `raidlab rebuild SPEC --member K`: reconstruct member K
 * of a raid1/raid10 from the other members (the walk is raid_rebuild() in
 * src/raid/rebuild.c; this file parses options and prints).
 *
 * The spec names the array as it should be, with the fresh file or device
 * at position K.  Every member is opened for writing (the safety checks
 * apply; --force-destroy overrides them) and kept afterwards, whatever
 * created it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "core/exec.h"
#include "core/registry.h"
#include "raid/rebuild.h"

static const char rebuild_usage[] =
    "usage: raidlab rebuild SPEC --member K [--rate RATE] [--force-destroy] [--quiet]\n"
    "\n"
    "Reconstructs member K (0-based position in SPEC) of a raid1, raid10, raid5 or\n"
    "raid6 from the other members, chunk by chunk, exactly where md keeps its copies\n"
    "(parity levels: rebuilt from the parity, stripe by stripe).  Put the\n"
    "fresh file or device at position K of SPEC, e.g.\n"
    "  raidlab rebuild 'raid1(a.img, file(new.img, size=8m))' --member 1\n"
    "\n"
    "  --member K        the member to reconstruct\n"
    "  --rate RATE       write at most RATE to it, e.g. 50MB/s (default: no limit)\n"
    "  --force-destroy   write even where the safety checks find data\n"
    "  --quiet           no progress line and no summary\n"
    "\n"
    "A progress line is shown on a terminal.  Exit status: 0 rebuilt, 1 failed\n"
    "(an I/O error, or a chunk no surviving member could supply), 2 bad usage.\n";

struct rebuild_progress {
	unsigned member;
	uint64_t t0, last;
};

static void rebuild_show(void *arg, uint64_t done, uint64_t total)
{
	struct rebuild_progress *p = arg;
	uint64_t now = rl_exec_wall_now();
	double secs = (double)(now - p->t0) / 1e9;

	if (now - p->last < 200000000ull && done < total)
		return;
	p->last = now;
	fprintf(stderr, "\rrebuild member %u: %5.1f%%  %8.1f MB/s  ETA %4.0f s ", p->member,
	        100.0 * (double)done / (double)total, secs > 0 ? (double)done / secs / 1e6 : 0.0,
	        done && secs > 0 ? secs * (double)(total - done) / (double)done : 0.0);
	if (done >= total)
		fputc('\n', stderr);
}

static int rebuild_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"member", required_argument, NULL, 'm'},  {"rate", required_argument, NULL, 'r'},
	    {"force-destroy", no_argument, NULL, 'f'}, {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
	struct raid_rebuild_opts opts = {0};
	struct raid_rebuild_result res;
	struct rebuild_progress prog = {0};
	struct rl_build_ctx ctx;
	struct rl_target *t;
	struct rl_exec *ex;
	struct rl_err err = {0};
	bool have_member = false, quiet = false;
	char msg[512], why[256], size[64];
	int c, rc;

	rl_build_ctx_init(&ctx);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': {
			uint64_t k;
			if (rl_parse_u64(optarg, &k, why, sizeof(why)) || k >= 1024) {
				cli_error("rebuild", "--member: expected a member number, got '%s'",
				          optarg);
				return 2;
			}
			opts.member = (unsigned)k;
			have_member = true;
			break;
		}
		case 'r':
			if (rl_parse_rate(optarg, &opts.rate, why, sizeof(why))) {
				cli_error("rebuild", "--rate: %s", why);
				return 2;
			}
			break;
		default: {
			int end = cli_opt_common(c, rebuild_usage, &ctx.force_destroy, &quiet);
			if (end >= 0)
				return end;
		}
		}
	}
	if (optind != argc - 1 || !have_member) {
		cli_error("rebuild", optind == argc - 1 ? "--member K is required"
		                                        : "give exactly one target spec");
		fputs(rebuild_usage, stderr);
		return 2;
	}
	ctx.write_intent = true;
	ctx.keep = true;
	ctx.buffered_ok = true;
	ctx.quiet = quiet;
	rc = rl_target_open(argv[optind], &ctx, &t, &err);
	if (rc) {
		cli_spec_error("rebuild", argv[optind], &err);
		return rc == -EINVAL ? 2 : 1;
	}
	rc = raid_tool_exec(t, &ex);
	if (rc) {
		cli_error("rebuild", "cannot set up I/O: %s", strerror(-rc));
		cli_created_remove(t);
		rl_target_close(t);
		return 1;
	}
	prog.member = opts.member;
	prog.t0 = rl_exec_wall_now();
	if (!quiet && isatty(STDERR_FILENO)) {
		opts.progress = rebuild_show;
		opts.arg = &prog;
	}
	rc = raid_rebuild(t, ex, &opts, &res, msg, sizeof(msg));
	if (rc) {
		cli_error("rebuild", "%s", msg);
		cli_created_remove(t); /* a refused or failed rebuild leaves no new file */
	} else if (!quiet) {
		double secs = (double)res.elapsed_ns / 1e9;
		cli_format_size(size, sizeof(size), (unsigned long long)res.bytes);
		printf("rebuilt member %u: %s in %.2f s (%.1f MB/s)%s\n", opts.member, size, secs,
		       secs > 0 ? (double)res.bytes / secs / 1e6 : 0.0,
		       res.read_errors ? ", with source read errors" : "");
	}
	rl_target_finish(t);
	rl_target_close(t);
	rl_exec_destroy(ex);
	return rc == -EINVAL ? 2 : rc ? 1 : 0;
}

static struct cli_command rebuild_cmd = {
    .name = "rebuild",
    .summary = "reconstruct a member of a raid1/raid10/raid5/raid6 from the others",
    .usage = rebuild_usage,
    .main = rebuild_main,
};
CLI_COMMAND_REGISTER(rebuild_cmd)
