/*
 * cmd_check.c - `raidlab check SPEC [--repair]`: scrub a raid1/raid10
 * (md's check/repair).  The walk is raid_scrub() in src/raid/scrub.c; this
 * file parses options and prints one line per mismatch:
 *
 *   mismatch: array offset 1048576, 4096 bytes: member 1 offset 1048576
 *     differs from member 0 offset 1048576 [repaired]
 *
 * (on one line), then a summary.  On raid5/raid6, one line per stripe
 * whose parity disagrees with its data:
 *
 *   mismatch: stripe 16 (array offset 2097152, 131072 bytes): parity on
 *     member 1 disagrees with the data on members 0, 2: 65536 bytes in
 *     rows from member offset 1048576 to 1114112 [repaired]
 *
 * (raid6 names the wrong member when the syndromes find one), and the
 * summary counts stripes.  Without --repair the members are opened
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
    "recomputes the parity of every block row instead and prints one line per stripe\n"
    "that disagrees (the parity member, the data members, the rows' member offsets);\n"
    "raid6 names the member that is wrong, --repair rewrites it (raid5: the parity,\n"
    "as md).\n"
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

/* "0, 1, 3": the members of @mask. */
static void check_members(char *out, size_t outlen, uint64_t mask)
{
	size_t used = 0;

	out[0] = 0;
	for (unsigned m = 0; m < 64 && used < outlen; m++)
		if (mask >> m & 1)
			used += (size_t)snprintf(out + used, outlen - used, "%s%u",
			                         used ? ", " : "", m);
}

/* A parity stripe's line: which stripe, which parity member, which rows. */
static void check_parity_line(const struct raid_mismatch *m)
{
	char data[200], who[200];
	const char *s = __builtin_popcountll(m->blamed) == 1 ? "" : "s";

	check_members(data, sizeof(data), m->data_members);
	printf("mismatch: stripe %llu (array offset %llu, %llu bytes): ",
	       (unsigned long long)m->stripe, (unsigned long long)m->array_offset,
	       (unsigned long long)m->array_len);
	if (m->blamed && !m->unexplained) {
		/* raid6 named the wrong block(s) from the two syndromes */
		check_members(who, sizeof(who), m->blamed);
		printf("member%s %s wrong (data on %s, P on %u, Q on %d)", s, who, data,
		       m->p_member, m->q_member);
	} else {
		if (m->q_member >= 0)
			printf("P on member %u and Q on member %d disagree", m->p_member,
			       m->q_member);
		else
			printf("parity on member %u disagrees", m->p_member);
		printf(" with the data on members %s", data);
		if (m->blamed) {
			check_members(who, sizeof(who), m->blamed);
			printf(" (member%s %s wrong in some rows, no single member in others)", s,
			       who);
		}
	}
	printf(": %llu bytes in rows from member offset %llu to %llu%s\n",
	       (unsigned long long)m->bytes, (unsigned long long)m->member_offset,
	       (unsigned long long)(m->member_offset + m->len), m->repaired ? " [repaired]" : "");
}

static void check_mismatch(void *arg, const struct raid_mismatch *m)
{
	struct check_state *st = arg;

	if (st->show_progress)
		fputs("\r\033[K", stderr);
	if (m->parity)
		check_parity_line(m);
	else
		printf("mismatch: array offset %llu, %llu bytes: member %u offset %llu differs "
		       "from member %u offset %llu%s\n",
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
	/* a file the spec creates holds nothing to check: kept only once repaired */
	ctx.keep = opts.repair;
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
		cli_created_remove(t);
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
		cli_created_remove(t); /* a failed check leaves no new file */
	} else if (!quiet) {
		cli_format_size(size, sizeof(size), (unsigned long long)res.bytes);
		printf("checked %s in %.2f s: ", size, (double)res.elapsed_ns / 1e9);
		if (!res.mismatches)
			printf("no mismatches");
		else if (parity_array_of(t))
			printf("%llu stripe%s with mismatches (%llu bytes of rows), %llu repaired",
			       (unsigned long long)res.mismatches, res.mismatches == 1 ? "" : "s",
			       (unsigned long long)res.mismatch_bytes,
			       (unsigned long long)res.repaired);
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
