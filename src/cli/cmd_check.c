/*
 * cmd_check.c - `raidlab check SPEC [--repair]`: scrub a raid1/raid10
 * (md's check/repair).  The walk is raid_scrub() in src/raid/scrub.c; this
 * file parses options and prints one line per mismatch:
 *
 *   mismatch: array offset 1048576, 4096 bytes: member 1 offset 1048576
 *     differs from member 0 offset 1048576 [repaired]
 *
 * (on one line), then a summary.  Without --repair the members are opened
 * read-only.
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
#include "raid/parity.h"
#include "raid/rebuild.h"
#include "raid/scrub.h"

static const char check_usage[] =
    "usage: raidlab check SPEC [--repair] [--source K] [--force-destroy] [--quiet]\n"
    "\n"
    "Compares the copies of every chunk of a raid1 or raid10 and prints each run of\n"
    "differing blocks with its array offset and member offsets.  On raid5/raid6 it\n"
    "recomputes the parity of every block row instead; raid6 names the member that\n"
    "is wrong, --repair rewrites it (raid5: the parity, as md).\n"
    "\n"
    "  --repair          rewrite differing copies from the source copy\n"
    "  --source K        trust member K's copy (default: the first in-sync copy of\n"
    "                    each chunk, in md's copy order)\n"
    "  --force-destroy   with --repair: write even where the safety checks find data\n"
    "  --quiet           print only the mismatches\n"
    "\n"
    "Exit status: 0 the copies agree (or every mismatch was repaired), 1 mismatches\n"
    "remain, an I/O error occurred or some chunks could not be compared (a member\n"
    "failed or missing), 2 bad usage.\n";

struct check_state {
	uint64_t t0, last;
	bool show_progress;
};

static void check_progress(void *arg, uint64_t done, uint64_t total)
{
	struct check_state *st = arg;
	uint64_t now = rl_exec_wall_now();

	if (!st->show_progress || (now - st->last < 200000000ull && done < total))
		return;
	st->last = now;
	fprintf(stderr, "\rcheck: %5.1f%% ", 100.0 * (double)done / (double)total);
	if (done >= total)
		fputc('\n', stderr);
}

static void check_mismatch(void *arg, const struct raid_mismatch *m)
{
	struct check_state *st = arg;

	if (st->show_progress)
		fputs("\r\033[K", stderr);
	printf("mismatch: array offset %llu, %llu bytes: member %u offset %llu differs from "
	       "member %u offset %llu%s\n",
	       (unsigned long long)m->array_offset, (unsigned long long)m->len, m->member,
	       (unsigned long long)m->member_offset, m->source,
	       (unsigned long long)m->source_offset, m->repaired ? " [repaired]" : "");
	fflush(stdout);
}

static int check_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"repair", no_argument, NULL, 'r'},        {"source", required_argument, NULL, 's'},
	    {"force-destroy", no_argument, NULL, 'f'}, {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
	struct raid_scrub_opts opts = {.source = -1};
	struct raid_scrub_result res;
	struct check_state st = {0};
	struct rl_build_ctx ctx;
	struct rl_target *t;
	struct rl_exec *ex;
	struct rl_err err = {0};
	bool quiet = false;
	char msg[512], why[256], size[64];
	int c, rc;

	rl_build_ctx_init(&ctx);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opts.repair = true;
			break;
		case 's': {
			uint64_t k;
			if (rl_parse_u64(optarg, &k, why, sizeof(why)) || k >= 1024) {
				cli_error("check", "--source: expected a member number, got '%s'",
				          optarg);
				return 2;
			}
			opts.source = (int)k;
			break;
		}
		default: {
			int end = cli_opt_common(c, check_usage, &ctx.force_destroy, &quiet);
			if (end >= 0)
				return end;
		}
		}
	}
	if (optind != argc - 1) {
		cli_error("check", "give exactly one target spec");
		fputs(check_usage, stderr);
		return 2;
	}
	ctx.write_intent = opts.repair;
	ctx.keep = true;
	ctx.buffered_ok = true;
	ctx.quiet = quiet;
	rc = rl_target_open(argv[optind], &ctx, &t, &err);
	if (rc) {
		cli_spec_error("check", argv[optind], &err);
		return rc == -EINVAL ? 2 : 1;
	}
	rc = raid_tool_exec(t, &ex);
	if (rc) {
		cli_error("check", "cannot set up I/O: %s", strerror(-rc));
		rl_target_close(t);
		return 1;
	}
	st.t0 = rl_exec_wall_now();
	st.show_progress = !quiet && isatty(STDERR_FILENO);
	opts.mismatch = check_mismatch;
	opts.progress = check_progress;
	opts.arg = &st;
	rc = raid_scrub(t, ex, &opts, &res, msg, sizeof(msg));
	if (!rc && !res.bytes && res.skipped) {
		/* Nothing was compared: "no mismatches" would claim a check that never ran. */
		snprintf(msg, sizeof(msg),
		         "nothing could be compared: none of the %llu chunk(s) has two readable "
		         "copies (or a readable stripe), so no mismatch could be found",
		         (unsigned long long)res.skipped);
		rc = -EIO;
	} else if (!rc && res.skipped) {
		/* Compared in part: the rest could hold mismatches nobody looked for. */
		snprintf(msg, sizeof(msg),
		         "%llu chunk(s) not compared (%s), %llu bytes compared: the check is "
		         "incomplete",
		         (unsigned long long)res.skipped,
		         parity_array_of(t)
		             ? "a member of their stripe is failed, missing or unreadable"
		             : "fewer than two of their copies are readable",
		         (unsigned long long)res.bytes);
		rc = -EIO;
	}
	if (rc) {
		cli_error("check", "%s", msg);
	} else if (!quiet) {
		cli_format_size(size, sizeof(size), (unsigned long long)res.bytes);
		printf("checked %s in %.2f s: ", size, (double)res.elapsed_ns / 1e9);
		if (!res.mismatches)
			printf("no mismatches");
		else
			printf("%llu mismatch%s (%llu bytes), %llu repaired",
			       (unsigned long long)res.mismatches, res.mismatches == 1 ? "" : "es",
			       (unsigned long long)res.mismatch_bytes,
			       (unsigned long long)res.repaired);
		if (res.read_errors)
			printf(", %llu read error%s", (unsigned long long)res.read_errors,
			       res.read_errors == 1 ? "" : "s");
		if (res.skipped)
			printf(", %llu chunk%s with a single readable copy not compared",
			       (unsigned long long)res.skipped, res.skipped == 1 ? "" : "s");
		printf("\n");
	}
	rl_target_finish(t);
	rl_target_close(t);
	rl_exec_destroy(ex);
	if (rc)
		return rc == -EINVAL ? 2 : 1;
	return res.mismatches > res.repaired || res.read_errors ? 1 : 0;
}

static struct cli_command check_cmd = {
    .name = "check",
    .summary = "compare (and repair) the copies of a raid1/raid10, or raid5/raid6 parity",
    .usage = check_usage,
    .main = check_main,
};
CLI_COMMAND_REGISTER(check_cmd)
