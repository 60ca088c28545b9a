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
    "  --shared N          at most N clients at once (default 16)\n"
    "  --ctl PATH          control socket for 'raidlab ctl' (fail a member, rebuild\n"
    "                      it while clients go on, status)\n"
    "  --tls-cert FILE     offer TLS (NBD_OPT_STARTTLS) with this PEM certificate\n"
    "  --tls-key FILE      ... and its PEM key\n"
    "  --tls-require       refuse clients that do not start TLS\n"
    "  --json FILE         at the end, write the session as a result file (one job\n"
    "                      per export; docs/results.md)\n"
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
	bool read_only, force, quiet;
	int status;    /* -1 auto, 0 off, 1 on */
	uint32_t slow; /* paced executor: wall ns per simulated ns; CLI_SLOW_AUTO: governed */
	const char *pace_file;
	struct serve_opts o;
};

static int serve_parse(int argc, char **argv, struct serve_args *a)
{
	static const struct option longopts[] = {
	    {"export", required_argument, NULL, 'e'},  {"socket", required_argument, NULL, 's'},
	    {"port", required_argument, NULL, 'p'},    {"bind", required_argument, NULL, 'b'},
	    {"read-only", no_argument, NULL, 'r'},     {"shared", required_argument, NULL, 'S'},
	    {"json", required_argument, NULL, 'j'},    {"ready-file", required_argument, NULL, 'R'},
	    {"ctl", required_argument, NULL, 'C'},     {"tls-cert", required_argument, NULL, 'c'},
	    {"tls-key", required_argument, NULL, 'k'}, {"tls-require", no_argument, NULL, 'Q'},
	    {"status", no_argument, NULL, 'T'},        {"no-status", no_argument, NULL, 'N'},
	    {"force-destroy", no_argument, NULL, 'f'}, {"quiet", no_argument, NULL, 'q'},
	    {"slow", required_argument, NULL, 'w'},    {"pace-file", required_argument, NULL, 'P'},
	    {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
	char why[256];
	uint64_t v;
	int c;

	a->o.port = -1;
	a->o.shared = 16;
	a->status = -1;
	a->slow = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || memchr(optarg, '(', (size_t)(eq - optarg))) {
				cli_error("serve", "--export: expected NAME=SPEC, got '%s'",
				          optarg);
				return 2;
			}
			if (a->n == SERVE_MAX_EXPORTS) {
				cli_error("serve", "at most %d exports", SERVE_MAX_EXPORTS);
				return 2;
			}
			a->names[a->n] = strndup(optarg, (size_t)(eq - optarg));
			a->specs[a->n++] = eq + 1;
			break;
		}
		case 's':
			a->o.socket_path = optarg;
			break;
		case 'p':
			if (rl_parse_u64(optarg, &v, why, sizeof(why)) || v > 65535) {
				cli_error("serve", "--port: expected 0..65535, got '%s'", optarg);
				return 2;
			}
			a->o.port = (int)v;
			break;
		case 'b':
			a->o.bind_addr = optarg;
			break;
		case 'r':
			a->read_only = true;
			break;
		case 'S':
			if (rl_parse_u64(optarg, &v, why, sizeof(why)) || v < 1 || v > 1024) {
				cli_error("serve", "--shared: expected 1..1024 clients, got '%s'",
				          optarg);
				return 2;
			}
			a->o.shared = (unsigned)v;
			break;
		case 'j':
			a->json_path = optarg;
			break;
		case 'C':
			a->o.ctl_path = optarg;
			break;
		case 'c':
			a->o.tls_cert = optarg;
			break;
		case 'k':
			a->o.tls_key = optarg;
			break;
		case 'Q':
			a->o.tls_require = true;
			break;
		case 'R':
			a->o.ready_file = optarg;
			break;
		case 'T':
			a->status = 1;
			break;
		case 'N':
			a->status = 0;
			break;
		case 'f':
			a->force = true;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'w':
			if (cli_parse_slow("serve", optarg, &a->slow))
				return 2;
			break;
		case 'P':
			a->pace_file = optarg;
			break;
		case 'h':
			fputs(serve_usage, stdout);
			return 0;
		default:
			fputs(serve_usage, stderr);
			return 2;
		}
	}
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
	if (cli_output_check("serve", "--json", a->json_path) ||
	    cli_output_check("serve", "--ready-file", a->o.ready_file))
		return 2;
	a->o.quiet = a->quiet;
	a->o.status_line = a->status < 0 ? !a->quiet && isatty(STDERR_FILENO) : a->status == 1;
	return -1;
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

static int serve_main(int argc, char **argv)
{
	struct serve_args a = {0};
	struct serve_export *exps = NULL; /* big (latency histograms): on the heap */
	struct serve_ctx ctx = {0};
	struct serve_pace pace;
	struct rl_build_ctx bctx;
	struct rl_err err = {0};
	char msg[512];
	uint32_t caps_all = 0;
	unsigned opened = 0, finished = 0;
	uint64_t *lost = NULL, lost_all = 0;
	int rc = serve_parse(argc, argv, &a), ret = 1;

	if (rc >= 0) {
		ret = rc;
		goto out_names;
	}
	exps = calloc(a.n, sizeof(*exps));
	lost = calloc(a.n, sizeof(*lost));
	if (!exps || !lost) {
		cli_error("serve", "out of memory");
		goto out;
	}
	rl_build_ctx_init(&bctx);
	bctx.write_intent = !a.read_only;
	bctx.force_destroy = a.force;
	bctx.keep = true; /* served data outlives the server */
	bctx.buffered_ok = true;
	bctx.quiet = a.quiet;
	for (unsigned i = 0; i < a.n; i++) {
		struct rl_target *t;
		rc = rl_target_open(a.specs[i], &bctx, &t, &err);
		if (rc) {
			cli_spec_error("serve", a.specs[i], &err);
			ret = rc == -EINVAL ? 2 : 1;
			goto out;
		}
		exps[i].t = t;
		exps[i].name = (char *)a.names[i];
		exps[i].spec = (char *)a.specs[i];
		opened++;
		uint32_t caps = rl_target_leaf_caps(t);
		const struct rl_target *dl = serve_dataless_leaf(t);
		if (dl) {
			cli_error(
			    "serve",
			    "export '%s': its %s() keeps no data, so clients would read back "
			    "something else than they wrote; serve stacks whose every drive stores "
			    "data (simulated drives: data=on)",
			    a.names[i], dl->ops->name);
			ret = 2;
			goto out;
		}
		caps_all |= caps;
		serve_export_init(&exps[i], a.read_only);
		if ((caps & RL_CAP_VIRTUAL) && !a.quiet) {
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
			        a.names[i], sz);
		}
	}
	if ((caps_all & RL_CAP_VIRTUAL) && (caps_all & RL_CAP_REAL)) {
		cli_error("serve", "simulated and real stacks cannot be served together: their "
		                   "clocks differ; run two servers");
		ret = 2;
		goto out;
	}
	if (a.slow > 1 && !(caps_all & RL_CAP_VIRTUAL)) {
		cli_error("serve", "--slow applies to simulated stacks only: a real device runs "
		                   "at its own speed");
		ret = 2;
		goto out;
	}
	enum rl_exec_kind kind = RL_EXEC_URING;
	if (caps_all & RL_CAP_VIRTUAL) {
		rc = rl_exec_create_paced(8192, 512, exps[0].t->vtime,
		                          a.slow == CLI_SLOW_AUTO ? 1 : a.slow, &ctx.ex);
		kind = RL_EXEC_VIRTUAL;
	} else {
		rc = rl_exec_create(RL_EXEC_URING, 8192, 512, &ctx.ex);
	}
	if (rc) {
		cli_error("serve", "cannot set up io_uring: %s", strerror(-rc));
		goto out;
	}
	ctx.ex->submit_with_wait = true;
	for (unsigned i = 0; i < a.n; i++) {
		rc = rl_target_attach(exps[i].t, ctx.ex);
		if (rc) {
			cli_error("serve", "export '%s': %s", a.names[i], strerror(-rc));
			goto out;
		}
	}
	ctx.exports = exps;
	ctx.nexports = a.n;
	ctx.max_inflight = 64;
	if (kind == RL_EXEC_VIRTUAL) {
		rc = serve_pace_init(&pace, ctx.ex, a.slow == CLI_SLOW_AUTO, CLI_SLOW_MAX,
		                     a.pace_file);
		if (rc) {
			cli_error("serve", "--pace-file %s: %s", a.pace_file, strerror(-rc));
			goto out;
		}
		ctx.pace = &pace;
	} else if (a.pace_file && (rc = serve_pace_init(&pace, ctx.ex, false, 1, a.pace_file))) {
		/* a real stack runs at its own speed: the file says x1, never raised */
		cli_error("serve", "--pace-file %s: %s", a.pace_file, strerror(-rc));
		goto out;
	}
	uint64_t t0 = rl_exec_now(ctx.ex);
	rc = serve_run(&ctx, &a.o, msg, sizeof(msg));
	uint64_t t1 = rl_exec_now(ctx.ex);
	if (rc) {
		cli_error("serve", "%s", msg);
		goto out;
	}
	/* write-back caches destage now: what they could not write was acknowledged and is lost */
	for (; finished < a.n; finished++) {
		lost[finished] = cli_target_end("serve", exps[finished].t, NULL);
		lost_all += lost[finished];
	}
	if (kind == RL_EXEC_VIRTUAL) {
		for (unsigned i = 0; i < a.n; i++)
			exps[i].t->vtime = t1;
		if (!a.quiet)
			serve_lag_report(&pace, stderr);
	}
	if (!a.quiet)
		for (unsigned i = 0; i < a.n; i++)
			serve_print(&exps[i], t1 - t0);
	if (a.json_path) {
		rc = serve_json(a.json_path, &ctx, t1 - t0, kind, lost);
		if (rc) {
			cli_error("serve", "--json %s: %s", a.json_path, strerror(-rc));
			goto out;
		}
	}
	ret = lost_all ? 1 : 0;
out:
	for (unsigned i = 0; i < opened; i++) {
		if (i >= finished)
			rl_target_finish(exps[i].t);
		rl_target_close(exps[i].t);
	}
	rl_exec_destroy(ctx.ex);
	free(lost);
	free(exps);
out_names:
	for (unsigned i = 0; i < a.n; i++)
		free((char *)a.names[i]);
	return ret;
}

static struct cli_command serve_cmd = {
    .name = "serve",
    .summary = "serve target stacks over NBD (qemu, nbdcopy, nbdfuse, fio, nbd-client)",
    .usage = serve_usage,
    .main = serve_main,
};
CLI_COMMAND_REGISTER(serve_cmd)
