/*
 * cmd_trace.c - `raidlab trace`: record what a machine does to a block
 * device, bring traces from other tools in, and say what a trace holds.
 *
 *   raidlab trace record DEV -o FILE [--duration T] [-- COMMAND ...]
 *   raidlab trace import FILE -o OUT
 *   raidlab trace summary FILE
 *
 * Every trace is written as fio iolog v3 (docs/traces.md), which fio
 * replays with read_iolog= and raidlab with `run --trace FILE`.  The work
 * is in src/workload/trace*.c; this file parses arguments and prints.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/spec.h"
#include "workload/trace.h"

static const char trace_usage[] =
    "usage: raidlab trace record DEVICE -o FILE [--duration T] [-- COMMAND [ARGS...]]\n"
    "       raidlab trace import FILE -o OUT\n"
    "       raidlab trace summary FILE\n"
    "\n"
    "record   traces the requests the kernel queues on block device DEVICE (as root,\n"
    "         with the kernel's block tracing, the events blktrace reads) while\n"
    "         COMMAND runs, for --duration, or until Ctrl-C, and writes them to FILE\n"
    "import   reads a fio iolog (v2 or v3), blkparse's text output or the kernel blk\n"
    "         tracer's text and writes it to OUT\n"
    "summary  prints what a trace holds: read/write mix, sizes, sequentiality,\n"
    "         requests per millisecond, footprint\n"
    "\n"
    "Traces are written as fio iolog v3: 'fio --read_iolog=FILE' replays them, and\n"
    "'raidlab run --trace FILE --target SPEC' replays them on any target (with\n"
    "--replay_no_stall=1 as fast as possible).  docs/traces.md has the format.\n"
    "Exit status: 0 ok, 1 failure (or COMMAND failed), 2 bad usage.\n";

static volatile sig_atomic_t trace_stop;

static void trace_on_signal(int sig)
{
	(void)sig;
	trace_stop = 1;
}

static void trace_summary_print(const struct wl_trace *tr, FILE *f)
{
	static const char *const names[RL_OP_COUNT] = {"read", "write", "trim", "flush"};
	static const char *const sizes[8] = {"<=4k",   "<=8k",   "<=16k", "<=64k",
	                                     "<=128k", "<=512k", "<=1m",  ">1m"};
	struct wl_trace_summary s;
	uint64_t data = 0;

	wl_trace_summarize(tr, &s);
	fprintf(f, "trace: %zu requests (%s), %.3f s, footprint %.1f MiB of a %.1f MiB span\n",
	        tr->n, tr->format, (double)s.duration_ns / 1e9, (double)s.footprint / 1048576.0,
	        (double)tr->end / 1048576.0);
	for (int d = 0; d < RL_OP_COUNT; d++) {
		if (!s.n[d])
			continue;
		fprintf(f, "  %-6s %10llu requests", names[d], (unsigned long long)s.n[d]);
		if (d != RL_OP_FLUSH)
			fprintf(f, ", %.1f MiB, %.1f KiB mean", (double)s.bytes[d] / 1048576.0,
			        (double)s.bytes[d] / 1024.0 / (double)s.n[d]);
		fputc('\n', f);
		if (d != RL_OP_FLUSH)
			data += s.n[d];
	}
	fprintf(f, "  sizes:");
	for (int b = 0; b < 8; b++)
		if (s.size_count[b])
			fprintf(f, " %s %.1f%%", sizes[b],
			        100.0 * (double)s.size_count[b] / (double)data);
	fprintf(f,
	        "\n  sequential: %.1f%% of requests start where the previous of their "
	        "direction ended\n",
	        data ? 100.0 * (double)s.sequential / (double)data : 0.0);
	fprintf(f, "  issued per millisecond: mean %.1f, most %u (of the milliseconds with any)\n",
	        s.depth_mean, s.depth_max);
	if (tr->depth)
		fprintf(
		    f,
		    "  in flight: at most %u (the depth a replay uses unless iodepth is given)\n",
		    tr->depth);
	else
		fprintf(
		    f,
		    "  in flight: not recorded (a replay uses up to %u unless iodepth is given)\n",
		    WL_TRACE_DEPTH_UNKNOWN);
}

static int trace_save(const struct wl_trace *tr, const char *path, const char *file)
{
	FILE *f = fopen(path, "w");
	int rc = f ? wl_trace_write(tr, file, f) : -errno;

	if (f && fclose(f) && !rc)
		rc = -errno;
	if (rc)
		cli_error("trace", "%s: %s", path, strerror(-rc));
	return rc;
}

static int trace_record(int argc, char **argv)
{
	const char *dev = NULL, *out = NULL;
	uint64_t duration = 0;
	char **cmd = NULL, msg[512];

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			break;
		} else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) &&
		           i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			if (rl_parse_time(argv[++i], &duration, msg, sizeof(msg)) || !duration) {
				cli_error("trace",
				          "--duration: expected a time such as 10s, got '%s'",
				          argv[i]);
				return 2;
			}
		} else if (argv[i][0] != '-' && !dev) {
			dev = argv[i];
		} else {
			cli_error("trace", "record: unexpected '%s' (see raidlab trace --help)",
			          argv[i]);
			return 2;
		}
	}
	if (!dev || !out) {
		cli_error("trace", "record needs a DEVICE and -o FILE (see raidlab trace --help)");
		return 2;
	}
	if (cli_output_check("trace", "-o", out))
		return 2;
	struct sigaction sa = {.sa_handler = trace_on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct wl_trace tr;
	int status = 0;
	int rc = wl_trace_record_blk(dev, cmd && cmd[0] ? cmd : NULL, duration, &trace_stop, &tr,
	                             &status, msg, sizeof(msg));
	if (rc) {
		cli_error("trace", "record %s: %s", dev, msg);
		wl_trace_free(&tr);
		return 1;
	}
	rc = tr.n ? trace_save(&tr, out, dev) : 0;
	if (!tr.n)
		cli_error("trace", "record %s: no requests reached the device; %s not written", dev,
		          out);
	else if (!rc)
		trace_summary_print(&tr, stderr);
	bool ok = !rc && tr.n && !(cmd && cmd[0] && (!WIFEXITED(status) || WEXITSTATUS(status)));
	if (!rc && tr.n && !ok)
		cli_error("trace", "record: the command failed (status %d); the trace is kept",
		          status);
	wl_trace_free(&tr);
	return ok ? 0 : 1;
}

static int trace_import(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	char msg[512];

	for (int i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] != '-' && !in)
			in = argv[i];
		else {
			cli_error("trace", "import: unexpected '%s' (see raidlab trace --help)",
			          argv[i]);
			return 2;
		}
	}
	if (!in || !out) {
		cli_error("trace", "import needs a FILE and -o OUT (see raidlab trace --help)");
		return 2;
	}
	if (cli_output_check("trace", "-o", out))
		return 2;
	struct wl_trace tr;
	if (wl_trace_load(in, &tr, msg, sizeof(msg))) {
		cli_error("trace", "%s", msg);
		return 1;
	}
	int rc = trace_save(&tr, out, in);
	if (!rc)
		trace_summary_print(&tr, stderr);
	wl_trace_free(&tr);
	return rc ? 1 : 0;
}

static int trace_summary(int argc, char **argv)
{
	struct wl_trace tr;
	char msg[512];

	if (argc != 3) {
		cli_error("trace", "summary takes one FILE (see raidlab trace --help)");
		return 2;
	}
	if (wl_trace_load(argv[2], &tr, msg, sizeof(msg))) {
		cli_error("trace", "%s", msg);
		return 1;
	}
	trace_summary_print(&tr, stdout);
	wl_trace_free(&tr);
	return 0;
}

static int trace_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(trace_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "record"))
		return trace_record(argc, argv);
	if (!strcmp(argv[1], "import"))
		return trace_import(argc, argv);
	if (!strcmp(argv[1], "summary"))
		return trace_summary(argc, argv);
	cli_error("trace", "unknown action '%s': record, import or summary", argv[1]);
	return 2;
}

static struct cli_command trace_cmd = {
    .name = "trace",
    .summary = "record a block device's requests, import and summarise traces",
    .usage = trace_usage,
    .main = trace_main,
};
CLI_COMMAND_REGISTER(trace_cmd)
