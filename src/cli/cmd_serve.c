/*
 * cmd_serve.c - `raidlab serve`: target stacks as NBD exports.
 *
 *   raidlab serve SPEC [--export NAME=SPEC ...] [--socket PATH] [--port N]
 *                 [--bind ADDR] [--read-only] [--shared N] [--json FILE] ...
 *
 * Opens every stack, checks that each keeps data (a client that reads back
 * garbage is worse than a refusal), picks the executor (io_uring on the
 * wall clock; the paced executor for simulated stacks), hands the exports
 * to serve_run() (src/serve/) and prints each export's counters at the end.
 * Then each stack ends as a run's does (cli_target_end): acknowledged data
 * a write-back cache could not write is said on stderr, recorded in the
 * JSON, and fails the exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/print.h"
#include "core/registry.h"
#include "results/result.h"
#include "serve/pace.h"
#include "serve/serve.h"

static const char serve_usage[] =
    "usage: raidlab serve [SPEC] [--export NAME=SPEC ...] [OPTIONS]\n"
    "\n"
    "Serves target stacks over NBD, so qemu, nbdcopy, nbdfuse, fio's nbd engine or\n"
    "the kernel's nbd client can use them as block devices.  SPEC is the default\n"
    "export (name \"\"); --export adds named ones (the first export also answers \"\").\n"
    "\n"
    "  --export NAME=SPEC  serve SPEC under NAME (repeatable)\n"
    "  --socket PATH       listen on a unix socket\n"
    "  --port N            listen on TCP port N (0: any free port; default 10809\n"
    "                      when no --socket is given)\n"
    "  --bind ADDR         TCP address to listen on (default: loopback only)\n"
    "  --read-only         refuse writes, trims and zeroing on every export\n"
    "  --shared N          at most N connections open at once (default 16; a client\n"
    "                      may open several)\n"
    "  --ctl PATH          control socket for 'raidlab ctl' (fail a member, rebuild\n"
    "                      it while clients go on, status)\n"
    "  --tls-cert FILE     offer TLS (NBD_OPT_STARTTLS) with this PEM certificate\n"
    "  --tls-key FILE      ... and its PEM key\n"
    "  --tls-require       refuse clients that do not start TLS\n"
    "  --no-structured-replies  decline structured replies: a read's reply is one\n"
    "                      16-byte header before the data, which a libnbd client\n"
    "                      takes in 2 reads instead of 4 (less client CPU per\n"
    "                      request); errors then carry no message\n"
    "  --json FILE         at the end, write the session as a result file (one job\n"
    "                      per export; docs/results.md)\n"
    "  --record FILE       at the end, write every request the clients sent as a\n"
    "                      trace (fio iolog v3; 'raidlab run --trace FILE' replays it,\n"
    "                      docs/traces.md)\n"
    "  --ready-file FILE   write the TCP port (or 0) to FILE once listening\n"
    "  --status / --no-status  a one-line status on stderr (default: on a terminal)\n"
    "  --force-destroy     write even where the safety checks find data\n"
    "  --slow N|auto       simulated stacks: run the simulated clock N times slower\n"
    "                      than the wall clock (slow motion, 1..1000; default 1);\n"
    "                      auto starts at 1 and raises the factor whenever this\n"
    "                      machine falls behind the simulated hardware (on a real\n"
    "                      stack auto is real time)\n"
    "  --pace-file FILE    simulated stacks: keep FILE holding the factor now and\n"
    "                      how often auto raised it and whether it may\n"
    "                      (\"slow N\\nraises R\\nauto 0|1\\n\")\n"
    "  --quiet             only errors\n"
    "\n"
    "Stacks with a simulated drive run on a paced executor: simulated time is\n"
    "locked to the wall clock, so a request completes when the simulated hardware\n"
    "would have completed it.  With --slow N every simulated duration takes N times\n"
    "as long: hardware faster than this machine can follow is emulated at 1/N of its\n"
    "speed, and a client's wall-clock figures read N times slow.  Simulated drives\n"
    "must keep data (data=on).  SIGINT or SIGTERM stops: in-flight requests finish\n"
    "(a simulated stack no longer paced), every stack is flushed.  SIGUSR1 stops\n"
    "the pacing alone: the server goes on, answering as fast as the model runs.\n"
    "docs/serve.md has the details.  Exit status: 0 ok, 1 failure, 2 bad usage.\n";

#define SERVE_MAX_EXPORTS 32

struct serve_args {
	const char *names[SERVE_MAX_EXPORTS];
	const char *specs[SERVE_MAX_EXPORTS];
	unsigned n;
	const char *json_path;
	const char *record_path; /* --record FILE, or NULL */
	bool read_only, force, quiet;
	bool no_structured; /* --no-structured-replies */
	int status;         /* -1 auto, 0 off, 1 on */
	uint32_t slow;      /* paced executor: wall ns per simulated ns; CLI_SLOW_AUTO: governed */
	const char *pace_file;
	struct serve_opts o;
};

/* One option (getopt_long's @c): -1 to go on, or the exit status. */
static int serve_parse_option(struct serve_args *a, int c)
{
	char why[256];
	uint64_t v;

	switch (c) {
	case 'e': {
		const char *eq = strchr(optarg, '=');
		if (!eq || eq == optarg || memchr(optarg, '(', (size_t)(eq - optarg))) {
			cli_error("serve", "--export: expected NAME=SPEC, got '%s'", optarg);
			return 2;
		}
		if (a->n == SERVE_MAX_EXPORTS) {
			cli_error("serve", "at most %d exports", SERVE_MAX_EXPORTS);
			return 2;
		}
		a->names[a->n] = strndup(optarg, (size_t)(eq - optarg));
		a->specs[a->n++] = eq + 1;
		return -1;
	}
	case 's':
		a->o.socket_path = optarg;
		return -1;
	case 'p':
		if (rl_parse_u64(optarg, &v, why, sizeof(why)) || v > 65535) {
			cli_error("serve", "--port: expected 0..65535, got '%s'", optarg);
			return 2;
		}
		a->o.port = (int)v;
		return -1;
	case 'b':
		a->o.bind_addr = optarg;
		return -1;
	case 'r':
		a->read_only = true;
		return -1;
	case 'S':
		if (rl_parse_u64(optarg, &v, why, sizeof(why)) || v < 1 || v > 1024) {
			cli_error("serve", "--shared: expected 1..1024 connections, got '%s'",
			          optarg);
			return 2;
		}
		a->o.shared = (unsigned)v;
		return -1;
	case 'O':
		a->record_path = optarg;
		return -1;
	case 'j':
		a->json_path = optarg;
		return -1;
	case 'C':
		a->o.ctl_path = optarg;
		return -1;
	case 'c':
		a->o.tls_cert = optarg;
		return -1;
	case 'k':
		a->o.tls_key = optarg;
		return -1;
	case 'Q':
		a->o.tls_require = true;
		return -1;
	case 'U':
		a->no_structured = true;
		return -1;
	case 'R':
		a->o.ready_file = optarg;
		return -1;
	case 'T':
		a->status = 1;
		return -1;
	case 'N':
		a->status = 0;
		return -1;
	case 'f':
		a->force = true;
		return -1;
	case 'q':
		a->quiet = true;
		return -1;
	case 'w':
		if (cli_parse_slow("serve", optarg, &a->slow))
			return 2;
		return -1;
	case 'P':
		a->pace_file = optarg;
		return -1;
	case 'h':
		fputs(serve_usage, stdout);
		return 0;
	default:
		fputs(serve_usage, stderr);
		return 2;
	}
}

/* After the options: the positional spec, then the rules across options.  -1 or the exit status. */
static int serve_parse_check(int argc, char **argv, struct serve_args *a)
{
	if (optind < argc) {
		if (optind + 1 < argc) {
			cli_error("serve",
			          "give at most one positional SPEC (use --export NAME=SPEC)");
			return 2;
		}
		if (a->n == SERVE_MAX_EXPORTS) {
			cli_error("serve", "at most %d exports", SERVE_MAX_EXPORTS);
			return 2;
		}
		/* The positional spec is the default export: put it first. */
		memmove(a->names + 1, a->names, a->n * sizeof(a->names[0]));
		memmove(a->specs + 1, a->specs, a->n * sizeof(a->specs[0]));
		a->names[0] = strdup("");
		a->specs[0] = argv[optind];
		a->n++;
	}
	if (!a->n) {
		cli_error("serve", "nothing to serve: give a SPEC or --export NAME=SPEC");
		fputs(serve_usage, stderr);
		return 2;
	}
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(a->names[i], a->names[j])) {
				cli_error("serve", "export name '%s' given twice", a->names[i]);
				return 2;
			}
	if (!a->o.socket_path && a->o.port < 0)
		a->o.port = 10809;
	if (a->o.bind_addr && a->o.port < 0) {
		cli_error("serve", "--bind needs --port");
		return 2;
	}
	if (!a->o.bind_addr)
		a->o.bind_addr = "localhost";
	if (!a->o.tls_cert != !a->o.tls_key) {
		cli_error("serve", "--tls-cert and --tls-key go together");
		return 2;
	}
	if (a->o.tls_require && !a->o.tls_cert) {
		cli_error("serve", "--tls-require needs --tls-cert and --tls-key");
		return 2;
	}
	/* before serving: a session's result, or the file a script waits for, must be writable */
	if (cli_output_check("serve", "--socket", a->o.socket_path) ||
	    cli_output_check("serve", "--ctl", a->o.ctl_path) ||
	    cli_output_check("serve", "--json", a->json_path) ||
	    cli_output_check("serve", "--record", a->record_path) ||
	    cli_output_check("serve", "--ready-file", a->o.ready_file))
		return 2;
	a->o.quiet = a->quiet;
	a->o.status_line = a->status < 0 ? !a->quiet && isatty(STDERR_FILENO) : a->status == 1;
	return -1;
}

static int serve_parse(int argc, char **argv, struct serve_args *a)
{
	static const struct option longopts[] = {{"export", required_argument, NULL, 'e'},
	                                         {"socket", required_argument, NULL, 's'},
	                                         {"port", required_argument, NULL, 'p'},
	                                         {"bind", required_argument, NULL, 'b'},
	                                         {"read-only", no_argument, NULL, 'r'},
	                                         {"shared", required_argument, NULL, 'S'},
	                                         {"json", required_argument, NULL, 'j'},
	                                         {"ready-file", required_argument, NULL, 'R'},
	                                         {"ctl", required_argument, NULL, 'C'},
	                                         {"tls-cert", required_argument, NULL, 'c'},
	                                         {"tls-key", required_argument, NULL, 'k'},
	                                         {"tls-require", no_argument, NULL, 'Q'},
	                                         {"no-structured-replies", no_argument, NULL, 'U'},
	                                         {"status", no_argument, NULL, 'T'},
	                                         {"no-status", no_argument, NULL, 'N'},
	                                         {"force-destroy", no_argument, NULL, 'f'},
	                                         {"quiet", no_argument, NULL, 'q'},
	                                         {"slow", required_argument, NULL, 'w'},
	                                         {"pace-file", required_argument, NULL, 'P'},
	                                         {"help", no_argument, NULL, 'h'},
	                                         {"record", required_argument, NULL, 'O'},
	                                         {NULL, 0, NULL, 0}};
	int c;

	a->o.port = -1;
	a->o.shared = 16;
	a->status = -1;
	a->slow = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		int rc = serve_parse_option(a, c);
		if (rc >= 0)
			return rc;
	}
	return serve_parse_check(argc, argv, a);
}

/* Counters of one export, in the same columns as a job. */
static void serve_print(const struct serve_export *e, uint64_t secs_ns)
{
	static const char *const dirs[SERVE_DIRS] = {"read", "write", "trim"};
	double s = (double)secs_ns / 1e9;

	printf("export '%s' (%s): %llu connection%s, %llu flush%s, %llu error%s\n", e->name,
	       e->spec, (unsigned long long)e->connections, e->connections == 1 ? "" : "s",
	       (unsigned long long)e->flushes, e->flushes == 1 ? "" : "es",
	       (unsigned long long)e->errors, e->errors == 1 ? "" : "s");
	for (int d = 0; d < SERVE_DIRS; d++) {
		const struct serve_dir_stats *r = &e->dir[d];
		if (!r->ios)
			continue;
		printf("  %-5s %12llu ios %10.1f MB  %8.1f MB/s avg  lat mean %9.1f us  p99 %9.1f "
		       "us\n",
		       dirs[d], (unsigned long long)r->ios, (double)r->bytes / 1e6,
		       s > 0 ? (double)r->bytes / s / 1e6 : 0.0, st_hist_mean(&r->hist) / 1e3,
		       st_hist_percentile(&r->hist, 99) / 1e3);
	}
}

/* The first leaf of @t that keeps no data, or NULL when every leaf does. */
static const struct rl_target *serve_dataless_leaf(const struct rl_target *t)
{
	if (!t->nchildren)
		return t->caps & RL_CAP_DATA ? NULL : t;
	for (unsigned i = 0; i < t->nchildren; i++) {
		const struct rl_target *l = serve_dataless_leaf(t->children[i]);
		if (l)
			return l;
	}
	return NULL;
}

/*
 * The closing lag line: how late simulated completions were over the whole
 * session, and whether this machine fell behind.  With the governor's
 * windows that is judged at the final factor (the windows before a raise
 * are what caused it); with too little traffic for a window, by the worst
 * lateness (over 1 ms).  The governor's own lines follow.
 */
static void serve_lag_report(const struct serve_pace *p, FILE *f)
{
	const struct rl_exec *ex = p->ex;
	char note[96] = "";
	uint32_t slow = serve_pace_slow(p);
	bool behind = p->windows ? !serve_pace_kept_up(p, NULL, NULL) : ex->lag_max > 1000000;

	if (p->autoslow)
		snprintf(note, sizeof(note), ", slow motion x%u (auto, raised %u time%s)", slow,
		         p->nsteps, p->nsteps == 1 ? "" : "s");
	else if (slow > 1)
		snprintf(note, sizeof(note), ", slow motion x%u", slow);
	if (ex->lag_count)
		fprintf(
		    f,
		    "raidlab serve: emulation lag: mean %.1f us, max %.1f us over %llu simulated "
		    "completions%s%s\n",
		    (double)ex->lag_sum / (double)ex->lag_count / 1e3, (double)ex->lag_max / 1e3,
		    (unsigned long long)ex->lag_count,
		    behind ? " (this machine fell behind the simulated hardware)" : "", note);
	serve_pace_report(p, f);
}

static int serve_json(const char *path, struct serve_ctx *ctx, uint64_t runtime_ns,
                      enum rl_exec_kind clock, const uint64_t *lost)
{
	uint64_t lost_all = 0;

	struct json_object *doc = st_result_new(ctx->exports[0].spec, ctx->exports[0].t);
	struct json_object *jobs = NULL;

	if (!doc)
		return -ENOMEM;
	json_object_object_get_ex(doc, "jobs", &jobs);
	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_export *e = &ctx->exports[i];
		struct wl_result *res = calloc(1, sizeof(*res));
		if (!res) {
			json_object_put(doc);
			return -ENOMEM;
		}
		wl_job_init(&res->job);
		snprintf(res->job.name, sizeof(res->job.name), "%s",
		         e->name[0] ? e->name : "default");
		for (int d = 0; d < SERVE_DIRS; d++) {
			res->dir[d].ios = e->dir[d].ios;
			res->dir[d].bytes = e->dir[d].bytes;
			res->dir[d].hist = e->dir[d].hist;
		}
		res->runtime_ns = runtime_ns;
		res->clock = clock;
		res->errors = e->errors;
		res->target_report = rl_target_report(e->t);
		struct json_object *j = st_result_job(res);
		if (j) {
			json_object_object_add(j, "serve",
			                       json_object_new_string(e->spec ? e->spec : ""));
			json_object_object_add(j, "connections",
			                       json_object_new_int64((int64_t)e->connections));
			json_object_object_add(j, "flushes",
			                       json_object_new_int64((int64_t)e->flushes));
			if (clock == RL_EXEC_VIRTUAL) {
				json_object_object_add(
				    j, "slow", json_object_new_int64(serve_pace_slow(ctx->pace)));
				json_object_object_add(j, "pace", serve_pace_json(ctx->pace));
			}
			if (lost[i])
				json_object_object_add(j, "lost_acknowledged_bytes",
				                       json_object_new_int64((int64_t)lost[i]));
			json_object_array_add(jobs, j);
		}
		wl_result_free(res); /* drops our reference to target_report */
		free(res);
		lost_all += lost[i];
	}
	if (lost_all)
		json_object_object_add(doc, "lost_acknowledged_bytes",
		                       json_object_new_int64((int64_t)lost_all));
	int rc = st_result_write(doc, path);
	json_object_put(doc);
	return rc;
}

/* One serving session: the parsed command line and what it opened. */
struct serve_session {
	struct serve_args a;
	struct serve_export *exps; /* big (latency histograms): on the heap */
	struct serve_ctx ctx;
	struct serve_pace pace;
	enum rl_exec_kind kind;
	uint32_t caps_all;         /* leaf caps of every export */
	unsigned opened, finished; /* exports opened; exports whose end was taken */
	uint64_t *lost, lost_all;  /* acknowledged bytes lost, per export and in all */
};

/* Open every export's stack; refuse one that keeps no data.  -1 or the exit status. */
static int serve_open(struct serve_session *ss)
{
	struct serve_args *a = &ss->a;
	struct rl_build_ctx bctx;
	struct rl_err err = {0};

	rl_build_ctx_init(&bctx);
	bctx.write_intent = !a->read_only;
	bctx.force_destroy = a->force;
	bctx.keep = true; /* served data outlives the server */
	bctx.buffered_ok = true;
	bctx.quiet = a->quiet;
	for (unsigned i = 0; i < a->n; i++) {
		struct serve_export *e = &ss->exps[i];
		struct rl_target *t;
		int rc = rl_target_open(a->specs[i], &bctx, &t, &err);
		if (rc) {
			cli_spec_error("serve", a->specs[i], &err);
			return rc == -EINVAL ? 2 : 1;
		}
		e->t = t;
		e->name = (char *)a->names[i];
		e->spec = (char *)a->specs[i];
		ss->opened++;
		uint32_t caps = rl_target_leaf_caps(t);
		const struct rl_target *dl = serve_dataless_leaf(t);
		if (dl) {
			cli_error(
			    "serve",
			    "export '%s': its %s() keeps no data, so clients would read back "
			    "something else than they wrote; serve stacks whose every drive stores "
			    "data (simulated drives: data=on)",
			    a->names[i], dl->ops->name);
			return 2;
		}
		ss->caps_all |= caps;
		serve_export_init(e, a->read_only);
		if ((caps & RL_CAP_VIRTUAL) && !a->quiet) {
			struct json_object *tree = rl_target_tree(t);
			char sz[64];
			cli_format_size(sz, sizeof(sz),
			                (unsigned long long)rl_report_sum(tree, "model_bytes"));
			json_object_put(tree);
			fprintf(stderr,
			        "raidlab serve: export '%s': the simulated drives reserve %s of "
			        "address "
			        "space for their tables and data; memory grows with what clients "
			        "write\n",
			        a->names[i], sz);
		}
	}
	return -1;
}

/*
 * The executor (paced for simulated stacks), the exports attached to it,
 * and the pace governor.  -1 or the exit status.
 */
static int serve_setup(struct serve_session *ss)
{
	struct serve_args *a = &ss->a;
	struct serve_ctx *ctx = &ss->ctx;
	int rc;

	if ((ss->caps_all & RL_CAP_VIRTUAL) && (ss->caps_all & RL_CAP_REAL)) {
		cli_error("serve", "simulated and real stacks cannot be served together: their "
		                   "clocks differ; run two servers");
		return 2;
	}
	if (a->slow > 1 && !(ss->caps_all & RL_CAP_VIRTUAL)) {
		cli_error("serve", "--slow applies to simulated stacks only: a real device runs "
		                   "at its own speed");
		return 2;
	}
	ss->kind = RL_EXEC_URING;
	if (ss->caps_all & RL_CAP_VIRTUAL) {
		rc = rl_exec_create_paced(8192, 512, ss->exps[0].t->vtime,
		                          a->slow == CLI_SLOW_AUTO ? 1 : a->slow, &ctx->ex);
		ss->kind = RL_EXEC_VIRTUAL;
	} else {
		rc = rl_exec_create(RL_EXEC_URING, 8192, 512, &ctx->ex);
	}
	if (rc) {
		cli_error("serve", "cannot set up io_uring: %s", strerror(-rc));
		return 1;
	}
	ctx->ex->submit_with_wait = true;
	for (unsigned i = 0; i < a->n; i++) {
		rc = rl_target_attach(ss->exps[i].t, ctx->ex);
		if (rc) {
			cli_error("serve", "export '%s': %s", a->names[i], strerror(-rc));
			return 1;
		}
	}
	ctx->exports = ss->exps;
	ctx->nexports = a->n;
	ctx->max_inflight = 64;
	ctx->no_structured = a->no_structured;
	if (ss->kind == RL_EXEC_VIRTUAL) {
		rc = serve_pace_init(&ss->pace, ctx->ex, a->slow == CLI_SLOW_AUTO, CLI_SLOW_MAX,
		                     a->pace_file);
		if (rc) {
			cli_error("serve", "--pace-file %s: %s", a->pace_file, strerror(-rc));
			return 1;
		}
		ctx->pace = &ss->pace;
	} else if (a->pace_file &&
	           (rc = serve_pace_init(&ss->pace, ctx->ex, false, 1, a->pace_file))) {
		/* a real stack runs at its own speed: the file says x1, never raised */
		cli_error("serve", "--pace-file %s: %s", a->pace_file, strerror(-rc));
		return 1;
	}
	return -1;
}

/* After serving from @t0 to @t1: the stacks' end, the reports and --json.  The exit status. */
static int serve_end(struct serve_session *ss, uint64_t t0, uint64_t t1)
{
	struct serve_args *a = &ss->a;

	/* write-back caches destage now: what they could not write was acknowledged and is lost */
	for (; ss->finished < a->n; ss->finished++) {
		ss->lost[ss->finished] = cli_target_end("serve", ss->exps[ss->finished].t, NULL);
		ss->lost_all += ss->lost[ss->finished];
	}
	if (ss->kind == RL_EXEC_VIRTUAL) {
		for (unsigned i = 0; i < a->n; i++)
			ss->exps[i].t->vtime = t1;
		if (!a->quiet)
			serve_lag_report(&ss->pace, stderr);
	}
	if (!a->quiet)
		for (unsigned i = 0; i < a->n; i++)
			serve_print(&ss->exps[i], t1 - t0);
	if (a->json_path) {
		int rc = serve_json(a->json_path, &ss->ctx, t1 - t0, ss->kind, ss->lost);
		if (rc) {
			cli_error("serve", "--json %s: %s", a->json_path, strerror(-rc));
			return 1;
		}
	}
	return ss->lost_all ? 1 : 0;
}

/* --record: the requests the clients sent, written even after a failure. */
static int serve_record_write(struct serve_session *ss, const struct wl_trace *tr)
{
	FILE *f = fopen(ss->a.record_path, "w");
	int rc =
	    f ? wl_trace_write(tr, ss->a.n == 1 && ss->a.names[0][0] ? ss->a.names[0] : "nbd", f)
	      : -errno;

	if (f && fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		cli_error("serve", "--record %s: %s", ss->a.record_path, strerror(-rc));
		return rc;
	}
	if (ss->ctx.record_lost)
		cli_error(
		    "serve", "--record %s: %llu requests did not fit in the trace (at most %u)",
		    ss->a.record_path, (unsigned long long)ss->ctx.record_lost, WL_TRACE_MAX_IOS);
	else if (!ss->a.quiet)
		fprintf(stderr, "raidlab serve: recorded %zu requests in %s\n", tr->n,
		        ss->a.record_path);
	return ss->ctx.record_lost ? -E2BIG : 0;
}

static int serve_main(int argc, char **argv)
{
	struct serve_session *ss = calloc(1, sizeof(*ss));
	char msg[512];
	int ret;

	if (!ss) {
		cli_error("serve", "out of memory");
		return 1;
	}
	ret = serve_parse(argc, argv, &ss->a);
	if (ret >= 0)
		goto out_names;
	ret = 1;
	ss->exps = calloc(ss->a.n, sizeof(*ss->exps));
	ss->lost = calloc(ss->a.n, sizeof(*ss->lost));
	if (!ss->exps || !ss->lost) {
		cli_error("serve", "out of memory");
		goto out;
	}
	ret = serve_open(ss);
	if (ret < 0)
		ret = serve_setup(ss);
	if (ret >= 0)
		goto out;
	struct wl_trace record;
	wl_trace_init(&record);
	if (ss->a.record_path)
		ss->ctx.record = &record;
	uint64_t t0 = rl_exec_now(ss->ctx.ex);
	int rc = serve_run(&ss->ctx, &ss->a.o, msg, sizeof(msg));
	uint64_t t1 = rl_exec_now(ss->ctx.ex);
	if (rc) {
		cli_error("serve", "%s", msg);
		ret = 1;
	} else {
		ret = serve_end(ss, t0, t1);
	}
	if (ss->a.record_path && serve_record_write(ss, &record))
		ret = 1;
	wl_trace_free(&record);
out:
	for (unsigned i = 0; i < ss->opened; i++) {
		if (i >= ss->finished)
			rl_target_finish(ss->exps[i].t);
		rl_target_close(ss->exps[i].t);
	}
	rl_exec_destroy(ss->ctx.ex);
	free(ss->lost);
	free(ss->exps);
out_names:
	for (unsigned i = 0; i < ss->a.n; i++)
		free((char *)ss->a.names[i]);
	free(ss);
	return ret;
}

static struct cli_command serve_cmd = {
    .name = "serve",
    .summary = "serve target stacks over NBD (qemu, nbdcopy, nbdfuse, fio, nbd-client)",
    .usage = serve_usage,
    .main = serve_main,
};
CLI_COMMAND_REGISTER(serve_cmd)
