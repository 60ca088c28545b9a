/*
 * cmd_advise.c - `raidlab advise --drives 4x850evo`: which array to build
 * from these drives, for this workload, answered by measuring.
 *
 * It writes the sensible configurations as sweep specs with alternatives
 * (a single drive; raid0 over 2..N members; raid1 of 2; raid10 over 4..N;
 * raid5 over 3..N and raid6 over 4..N, each striped level at two chunk
 * sizes; under a caching controller write-back and write-through), runs
 * them through the sweep (sweep/sweep.h: checked, stored, in parallel) with
 * a short form of the workload, then ranks the points by the goal and
 * prints the table and a few sentences that name the trade-off.  Figures
 * per point are geometric means over the workload's tests and directions,
 * so no single test decides.  It also says which validation set (the
 * validation/ folder) covers the controller and the drive, or that the
 * answer extrapolates.
 *
 * Each configuration that survives a failure is measured twice more: the
 * workload again with member 0 failed (the spec's failed=0), for its
 * degraded figure, and the rebuild of that member (sweep/rebuild.c: a
 * simulated walk of the member's last 8 GiB, the rest estimated at the
 * walk's rate), for the time the array runs without redundancy.  The
 * rebuild does not depend on the controller's write policy, so it runs
 * once per array (a second plan, after the first).
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/datadir.h"
#include "core/registry.h"
#include "sweep/sweep.h"

static const char advise_usage[] =
    "usage: raidlab advise --drives NxDRIVE [--controller PROFILE | --platform NAME]\n"
    "                      [--workload SUITE|JOBFILE|TRACE] [--goal "
    "throughput|latency|capacity|safety]\n"
    "                      [-j N] [--store DIR] [--timeout T] [--json FILE]\n"
    "\n"
    "Measures the sensible arrays of N drives (single, raid0, raid1, raid10, raid5,\n"
    "raid6; two chunk sizes; the controller's write policies) on simulated stacks with\n"
    "a short form of the workload, and ranks them for the goal: usable capacity,\n"
    "member failures survived, MB/s, IOPS and p99 latency (geometric means over the\n"
    "workload's tests).  It names the trade-off in words and says which validation\n"
    "set backs the controller and drive, or that the answer extrapolates.\n"
    "\n"
    "  --drives NxDRIVE      how many drives of which profile: 4x850evo, 2xsm951\n"
    "  --controller PROFILE  a controller profile (raidlab profiles): perc-h730p\n"
    "  --platform NAME       amd-x399 (RAIDXpert2), windows (dynamic volume), md\n"
    "  --workload W          the workload: a suite (default cdm5), a fio job file or\n"
    "                        a trace (docs/traces.md)\n"
    "  --goal GOAL           throughput (default), latency, capacity or safety\n"
    "  -j N, --store DIR,    as for raidlab sweep (results are kept and reused, a\n"
    "  --timeout T           configuration that hangs is stopped)\n"
    "  --json FILE           the sweep document of every configuration measured\n"
    "\n"
    "What it cannot know: price, power, and wear limits.  docs/advise.md.\n";

enum adv_goal { ADV_THROUGHPUT, ADV_LATENCY, ADV_CAPACITY, ADV_SAFETY };

struct adv_args {
	unsigned drives;
	char drive[64];
	const char *controller, *suite, *store, *json;
	enum adv_goal goal;
	unsigned par;
	double timeout;
};

struct adv_row {
	const struct sw_point *pt;
	double mb_s, iops, p99_us, write_mb_s;
	double degraded_mb_s; /* with member 0 failed; 0: not measured */
	double rebuild_s;     /* estimated rebuild of member 0; 0: not measured */
};

/* What a sweep text of advise measures. */
enum adv_kind {
	ADV_HEALTHY,  /* the configuration */
	ADV_DEGRADED, /* the same with member 0 failed */
	ADV_REBUILD,  /* its array (no write policy) with member 0 failed, for the rebuild */
};

#define ADV_TEXTS 48

static const struct {
	const char *platform, *controller;
} adv_platforms[] = {
    {"amd-x399", "amd-raidxpert2"},
    {"windows", "windows-dynamic-volume"},
    {"md", "md"},
};

static int adv_parse(int argc, char **argv, struct adv_args *a)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	a->par = cpus > 0 ? (unsigned)cpus : 1;
	a->timeout = SW_TIMEOUT_AUTO;
	a->suite = "cdm5";
	a->store = ".raidlab-sweep";
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			fputs(advise_usage, stdout);
			return 1;
		}
		if (!v) {
			cli_error("advise", "%s needs a value (see raidlab help advise)", o);
			return -EINVAL;
		}
		i++;
		if (!strcmp(o, "--drives")) {
			char *x;
			unsigned long n = strtoul(v, &x, 10);
			if (x == v || *x != 'x' || !x[1] || n < 1 || n > 16) {
				cli_error("advise",
				          "--drives: expected NxDRIVE with N 1..16 (4x850evo), "
				          "got '%s'",
				          v);
				return -EINVAL;
			}
			a->drives = (unsigned)n;
			snprintf(a->drive, sizeof(a->drive), "%s", x + 1);
		} else if (!strcmp(o, "--controller")) {
			a->controller = v;
		} else if (!strcmp(o, "--platform")) {
			size_t k;
			for (k = 0; k < sizeof(adv_platforms) / sizeof(adv_platforms[0]); k++)
				if (!strcmp(adv_platforms[k].platform, v))
					break;
			if (k == sizeof(adv_platforms) / sizeof(adv_platforms[0])) {
				cli_error("advise",
				          "--platform: '%s' is not amd-x399, windows or md", v);
				return -EINVAL;
			}
			a->controller = adv_platforms[k].controller;
		} else if (!strcmp(o, "--workload")) {
			a->suite = v;
		} else if (!strcmp(o, "--goal")) {
			static const char *const goals[] = {"throughput", "latency", "capacity",
			                                    "safety"};
			int g = -1;
			for (int k = 0; k < 4; k++)
				if (!strcmp(goals[k], v))
					g = k;
			if (g < 0) {
				cli_error("advise",
				          "--goal: expected throughput, latency, capacity "
				          "or safety, got '%s'",
				          v);
				return -EINVAL;
			}
			a->goal = (enum adv_goal)g;
		} else if (!strcmp(o, "-j")) {
			long n = strtol(v, NULL, 10);
			if (n < 1 || n > 64) {
				cli_error("advise", "-j takes a number from 1 to 64, got '%s'", v);
				return -EINVAL;
			}
			a->par = (unsigned)n;
		} else if (!strcmp(o, "--store")) {
			a->store = v;
		} else if (!strcmp(o, "--timeout")) {
			if (cli_sweep_timeout("advise", v, &a->timeout))
				return -EINVAL;
		} else if (!strcmp(o, "--json")) {
			a->json = v;
		} else {
			cli_error("advise", "unknown option '%s' (see raidlab help advise)", o);
			return -EINVAL;
		}
	}
	if (!a->drives) {
		cli_error("advise", "give --drives NxDRIVE (4x850evo)");
		return -EINVAL;
	}
	return 0;
}

/* Does the controller take write= (a caching controller)?  Tried on one drive. */
static bool adv_has_write_policy(const struct adv_args *a)
{
	char spec[256];
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err;

	if (!a->controller)
		return false;
	snprintf(spec, sizeof(spec), "controller(%s, ssd(%s), write=back)", a->controller,
	         a->drive);
	rl_build_ctx_init(&ctx);
	ctx.quiet = true;
	if (rl_target_open(spec, &ctx, &t, &err))
		return false;
	rl_target_close(t);
	return true;
}

/* The sweep texts for the configurations worth measuring; returns how many. */
static size_t adv_targets(const struct adv_args *a, char (*out)[512], const char **lv,
                          enum adv_kind *kind, bool wp)
{
	static const struct {
		const char *level, *opts;
		unsigned min, max; /* members: min..max (0: the drives) */
	} levels[] = {
	    {"raid0", ", chunk=64k", 1, 1},
	    {"raid0", ", chunk={64k,256k}", 2, 0},
	    {"raid1", "", 2, 2},
	    {"raid10", ", chunk={64k,256k}", 4, 0},
	    {"raid5", ", chunk={64k,256k}", 3, 0},
	    {"raid6", ", chunk={64k,256k}", 4, 0},
	};
	size_t n = 0;

	for (int k = ADV_HEALTHY; k <= ADV_REBUILD; k++)
		for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
			char members[32], inner[256];
			unsigned hi = levels[l].max ? levels[l].max : a->drives;
			bool redundant = strcmp(levels[l].level, "raid0") != 0;
			if (a->drives < levels[l].min || (k != ADV_HEALTHY && !redundant))
				continue;
			if (hi == levels[l].min)
				snprintf(members, sizeof(members), "x%u", hi);
			else
				snprintf(members, sizeof(members), "x{%u..%u}", levels[l].min, hi);
			snprintf(inner, sizeof(inner), "%s(ssd(%s) %s%s%s)", levels[l].level,
			         a->drive, members, levels[l].opts,
			         k == ADV_HEALTHY ? "" : ", failed=0");
			lv[n] = levels[l].level;
			kind[n] = (enum adv_kind)k;
			if (!a->controller)
				snprintf(out[n++], 512, "%s", inner);
			else
				snprintf(out[n++], 512, "controller(%s, %s%s)", a->controller,
				         inner,
				         wp && k != ADV_REBUILD ? ", write={back,through}" : "");
		}
	return n;
}

static struct json_object *adv_get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* Geometric means over the result's tests and directions. */
static void adv_figures(struct adv_row *r)
{
	static const char *const dirs[] = {"read", "write"};
	struct json_object *tests = adv_get(r->pt->result, "tests");
	double lm = 0, li = 0, lp = 0, lw = 0;
	size_t n = 0, np = 0, nw = 0;

	for (size_t t = 0; tests && t < json_object_array_length(tests); t++)
		for (int d = 0; d < 2; d++) {
			struct json_object *x =
			    adv_get(json_object_array_get_idx(tests, t), dirs[d]);
			double mb = json_object_get_double(adv_get(x, "mb_s"));
			double p99 = json_object_get_double(adv_get(adv_get(x, "lat_us"), "p99"));
			if (!x || mb <= 0)
				continue;
			lm += log(mb);
			li += log(json_object_get_double(adv_get(x, "iops")));
			n++;
			if (d) {
				lw += log(mb);
				nw++;
			}
			if (p99 > 0) {
				lp += log(p99);
				np++;
			}
		}
	r->mb_s = n ? exp(lm / (double)n) : 0;
	r->iops = n ? exp(li / (double)n) : 0;
	r->p99_us = np ? exp(lp / (double)np) : 0;
	r->write_mb_s = nw ? exp(lw / (double)nw) : 0;
}

static enum adv_goal adv_sort_goal;

static int adv_cmp(const void *pa, const void *pb)
{
	const struct adv_row *a = pa, *b = pb;
	double ka = a->mb_s, kb = b->mb_s;

	if (adv_sort_goal == ADV_CAPACITY && a->pt->capacity != b->pt->capacity)
		return a->pt->capacity > b->pt->capacity ? -1 : 1;
	if (adv_sort_goal == ADV_SAFETY && a->pt->survives != b->pt->survives)
		return a->pt->survives > b->pt->survives ? -1 : 1;
	if (adv_sort_goal == ADV_LATENCY) {
		ka = a->p99_us > 0 ? -a->p99_us : -INFINITY;
		kb = b->p99_us > 0 ? -b->p99_us : -INFINITY;
	}
	if (ka != kb)
		return ka > kb ? -1 : 1;
	/* a tie (a cache that hides the array): the safer, then the larger */
	if (a->pt->survives != b->pt->survives)
		return a->pt->survives > b->pt->survives ? -1 : 1;
	return a->pt->capacity > b->pt->capacity ? -1 : a->pt->capacity < b->pt->capacity;
}

/* The validation sets whose configurations use both the controller and the drive. */
static void adv_backing(FILE *f, const struct adv_args *a)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	size_t nd = rl_data_dirs("validation", "RAIDLAB_VALIDATION", dirs), found = 0;

	for (size_t d = 0; d < nd && !found; d++) {
		char **names = NULL;
		size_t n = rl_data_list(dirs[d], ".json", &names);
		for (size_t i = 0; i < n; i++) {
			char path[PATH_MAX + 128];
			snprintf(path, sizeof(path), "%s/%s.json", dirs[d], names[i]);
			struct json_object *set = json_object_from_file(path), *cfgs;
			cfgs = adv_get(set, "configs") ? adv_get(set, "configs")
			                               : adv_get(set, "configurations");
			bool covers = false;
			for (size_t c = 0; cfgs && c < json_object_array_length(cfgs) && !covers;
			     c++) {
				const char *spec = json_object_get_string(
				    adv_get(json_object_array_get_idx(cfgs, c), "spec"));
				char want[96];
				snprintf(want, sizeof(want), "ssd(%s", a->drive);
				covers = spec && strstr(spec, want) &&
				         (!a->controller || strstr(spec, a->controller));
			}
			if (covers) {
				fprintf(f,
				        "%s validation set '%s' (raidlab validate %s) measures "
				        "this controller with these drives",
				        found ? "; the" : "Backed by: the", names[i], names[i]);
				found++;
			}
			json_object_put(set);
			free(names[i]);
		}
		free(names);
	}
	if (found)
		fputs(".  Levels and settings the set never measured are extrapolated by the "
		      "model.\n",
		      f);
	else
		fprintf(f,
		        "Extrapolates: no validation set measures %s%s%s; the figures are "
		        "the model's, untested against real hardware for this pairing.\n",
		        a->drive, a->controller ? " behind " : "",
		        a->controller ? a->controller : "");
}

static const char *adv_policy(const struct sw_plan *pl, const struct sw_point *pt)
{
	for (size_t k = 0; k < pl->naxes; k++)
		if (!strcmp(pl->axes[k], "write"))
			return pt->values[k];
	return NULL;
}

/* "3.2 h", "47 min": a duration for the table. */
static void adv_hours(char *buf, size_t len, double s)
{
	if (s <= 0)
		snprintf(buf, len, "-");
	else if (s >= 5400)
		snprintf(buf, len, "%.1f h", s / 3600);
	else
		snprintf(buf, len, "%.0f min", s / 60);
}

/* The short answer: the winner, the best that survives a failure, and what moves writes. */
static void adv_answer(FILE *f, const struct adv_args *a, const struct sw_plan *pl,
                       const struct adv_row *rows, size_t n)
{
	const struct adv_row *best = &rows[0], *safe = NULL;
	double wmax[2] = {0, 0}, wlev[2] = {INFINITY, 0};

	for (size_t i = 0; i < n; i++)
		if (rows[i].pt->survives > 0 && (!safe || rows[i].mb_s > safe->mb_s))
			safe = &rows[i];
	static const char *const gname[] = {"throughput", "p99 latency", "capacity", "safety"};
	fprintf(f, "\nAnswer (%s): %s, %.0f GB usable, survives %d failure%s, %.0f MB/s.\n",
	        gname[a->goal], best->pt->label, (double)best->pt->capacity / 1e9,
	        best->pt->survives, best->pt->survives == 1 ? "" : "s", best->mb_s);
	if (safe && safe != best)
		fprintf(f,
		        "Trade-off: the best that survives a failure is %s at %.0f %% of that "
		        "throughput with %.0f GB.\n",
		        safe->pt->label, best->mb_s > 0 ? 100 * safe->mb_s / best->mb_s : 0,
		        (double)safe->pt->capacity / 1e9);
	else if (!safe)
		fputs("Trade-off: nothing here survives a failure (one drive, or striping only).\n",
		      f);
	if (safe && safe->degraded_mb_s > 0 && safe->mb_s > 0) {
		char reb[32];
		adv_hours(reb, sizeof(reb), safe->rebuild_s);
		fprintf(f,
		        "With a member failed, %s runs at %.0f MB/s (%.0f %% of healthy); "
		        "rebuilding the member takes about %s.\n",
		        safe->pt->label, safe->degraded_mb_s,
		        100 * safe->degraded_mb_s / safe->mb_s, reb);
	}
	/* writes: spread across write policies against spread across levels */
	for (size_t i = 0; i < n; i++) {
		const char *p = adv_policy(pl, rows[i].pt);
		if (p)
			wmax[strcmp(p, "back") != 0] =
			    fmax(wmax[strcmp(p, "back") != 0], rows[i].write_mb_s);
		if (rows[i].write_mb_s > 0) {
			wlev[0] = fmin(wlev[0], rows[i].write_mb_s);
			wlev[1] = fmax(wlev[1], rows[i].write_mb_s);
		}
	}
	if (wmax[0] > 0 && wmax[1] > 0)
		fprintf(f,
		        "Writes: the best write-back configuration writes %.1fx what the best "
		        "write-through one does; across all configurations writes span %.1fx.\n",
		        wmax[0] / wmax[1], wlev[1] / wlev[0]);
}

/* The value of axis @name at @pt, or "". */
static const char *adv_axis(const struct sw_plan *pl, const struct sw_point *pt, const char *name)
{
	for (size_t k = 0; k < pl->naxes; k++)
		if (!strcmp(pl->axes[k], name) && pt->values[k])
			return pt->values[k];
	return "";
}

/* "raid10 x4 chunk=64k write=back": what a configuration is, without its failed member. */
static void adv_shape(const struct sw_plan *pl, const struct sw_point *pt, const char *const *lv,
                      bool write, char *buf, size_t len)
{
	const char *x = strstr(pt->spec, ") x");

	snprintf(buf, len, "%s x%d chunk=%s write=%s", lv[pt->target], x ? atoi(x + 3) : 1,
	         adv_axis(pl, pt, "chunk"), write ? adv_axis(pl, pt, "write") : "");
}

/* "raid10 x4 write=back chunk=64k": the level of the point's text, then its axes. */
static int adv_relabel(struct sw_plan *pl, const char *const *lv, const enum adv_kind *kind)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		const char *x = strstr(pt->spec, ") x");
		char buf[256];
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%s x%d", lv[pt->target],
		                              x ? atoi(x + 3) : 1);
		for (size_t k = 0; k < pl->naxes && len < sizeof(buf); k++)
			if (pt->values[k] && strcmp(pl->axes[k], "count"))
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s=%s",
				                        pl->axes[k], pt->values[k]);
		if (kind[pt->target] != ADV_HEALTHY && len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - len, ", member 0 failed");
		free(pt->label);
		if (!(pt->label = strdup(buf)))
			return -ENOMEM;
	}
	return 0;
}

/* The rows of the healthy points, each with its degraded figure and rebuild estimate. */
static size_t adv_rows(const struct sw_plan *pl, const char *const *lv, const enum adv_kind *kind,
                       const struct sw_plan *rb, const char *const *rlv, struct adv_row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++) {
		const struct sw_point *pt = &pl->pts[i];
		char want[256], have[256];
		if (!pt->result || kind[pt->target] != ADV_HEALTHY)
			continue;
		rows[n].pt = pt;
		adv_figures(&rows[n]);
		adv_shape(pl, pt, lv, true, want, sizeof(want));
		for (size_t k = 0; k < pl->n; k++) {
			struct adv_row d = {.pt = &pl->pts[k]};
			if (!d.pt->result || kind[d.pt->target] != ADV_DEGRADED)
				continue;
			adv_shape(pl, d.pt, lv, true, have, sizeof(have));
			if (!strcmp(want, have)) {
				adv_figures(&d);
				rows[n].degraded_mb_s = d.mb_s;
			}
		}
		adv_shape(pl, pt, lv, false, want, sizeof(want));
		for (size_t k = 0; k < rb->n; k++) {
			struct json_object *tests = adv_get(rb->pts[k].result, "tests");
			adv_shape(rb, &rb->pts[k], rlv, false, have, sizeof(have));
			if (tests && !strcmp(want, have))
				rows[n].rebuild_s = json_object_get_double(
				    adv_get(adv_get(json_object_array_get_idx(tests, 0), "rebuild"),
				            "estimate_s"));
		}
		n++;
	}
	return n;
}

static int advise_measure(struct adv_args *ap, struct sw_workload *wlp);

/* --workload: a suite in a short form, or a job file or trace as it is written. */
static int advise_workload(const char *name, struct sw_workload *wl)
{
	char msg[512];

	wl->def = suite_find(name);
	if (!wl->def && access(name, F_OK) == 0) {
		if (sw_workload_file(wl, name, msg, sizeof(msg)) == 0)
			return 0;
		cli_error("advise", "--workload: %s", msg);
		return 2;
	}
	if (!wl->def) {
		cli_error("advise", "--workload: '%s' is neither a suite nor a job file or trace",
		          name);
		return 2;
	}
	wl->p = wl->def->defaults;
	snprintf(wl->name, sizeof(wl->name), "%s", name);
	/* a short form: one measured pass, a small area, short timed tests */
	suite_params_set(wl->def, &wl->p, "size", "64m", msg, sizeof(msg));
	suite_params_set(wl->def, &wl->p, "passes", "1", msg, sizeof(msg));
	suite_params_set(wl->def, &wl->p, "duration", "500ms", msg, sizeof(msg));
	return 0;
}

static int advise_main(int argc, char **argv)
{
	struct adv_args a = {0};
	struct sw_workload wl = {0};
	int rc = adv_parse(argc, argv, &a);

	if (rc)
		return rc > 0 ? 0 : 2;
	rc = advise_workload(a.suite, &wl);
	if (!rc)
		rc = advise_measure(&a, &wl);
	sw_workload_free(&wl);
	return rc;
}

/* Build, label and run one of advise's plans (texts @tp, @nt of them). */
static int adv_plan_run(struct sw_plan *pl, const struct adv_args *a, const char **tp, size_t nt,
                        const char *const *lv, const enum adv_kind *kind,
                        const struct sw_workload *wl)
{
	struct rl_err err = {0};
	size_t bad = 0;

	if (sw_plan_build(pl, tp, nt, wl, 1, &err, &bad)) {
		cli_error("advise", "%s: %s", tp[bad], err.msg);
		return -2;
	}
	if (adv_relabel(pl, lv, kind)) {
		cli_error("advise", "out of memory");
		return -1;
	}
	pl->store = a->store;
	pl->simulated_only = true;
	pl->timeout_s = a->timeout;
	return cli_sweep_run(pl, a->par, false);
}

static void adv_table(FILE *f, const struct adv_row *rows, size_t n)
{
	fprintf(f, "%4s  %-40s %10s %5s %9s %9s %9s %10s %9s %9s\n", "rank", "configuration",
	        "usable GB", "fails", "MB/s", "IOPS", "p99 us", "write MB/s", "degraded",
	        "rebuild");
	for (size_t i = 0; i < n; i++) {
		char deg[32], reb[32];
		if (rows[i].degraded_mb_s > 0)
			snprintf(deg, sizeof(deg), "%.1f", rows[i].degraded_mb_s);
		else
			snprintf(deg, sizeof(deg), "-");
		adv_hours(reb, sizeof(reb), rows[i].rebuild_s);
		fprintf(f, "%4zu  %-40.40s %10.1f %5d %9.1f %9.0f %9.1f %10.1f %9s %9s\n", i + 1,
		        rows[i].pt->label, (double)rows[i].pt->capacity / 1e9, rows[i].pt->survives,
		        rows[i].mb_s, rows[i].iops, rows[i].p99_us, rows[i].write_mb_s, deg, reb);
	}
	fprintf(f,
	        "\nMB/s, IOPS, p99: geometric means over the workload's tests and directions; "
	        "fails: member failures survived;\ndegraded: MB/s of the same workload with "
	        "member 0 failed; rebuild: member 0 rebuilt by raidlab's walk\n(one request at "
	        "a time, no other I/O) over its last %llu GiB on the simulated clock, the rest "
	        "at the rate of\nthat walk's second half; a controller's rebuild-rate setting "
	        "and user I/O during it would make it longer.\n",
	        (unsigned long long)(SW_REBUILD_SLICE >> 30));
}

/* The sweep document of both plans: the rebuild points after the others. */
static int adv_json(const char *path, const struct sw_plan *pl, const struct sw_plan *rb)
{
	struct json_object *doc = sw_plan_json(pl), *more = sw_plan_json(rb), *to, *from;
	int rc = 0;

	json_object_object_get_ex(doc, "points", &to);
	json_object_object_get_ex(more, "points", &from);
	for (size_t i = 0; i < json_object_array_length(from); i++)
		json_object_array_add(to, json_object_get(json_object_array_get_idx(from, i)));
	if (json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY)) {
		cli_error("advise", "cannot write %s", path);
		rc = 1;
	}
	json_object_put(doc);
	json_object_put(more);
	return rc;
}

static int advise_measure(struct adv_args *ap, struct sw_workload *wlp)
{
	struct adv_args a = *ap;
	char texts[ADV_TEXTS][512];
	const char *tp[ADV_TEXTS], *lv[ADV_TEXTS], *rtp[ADV_TEXTS], *rlv[ADV_TEXTS];
	enum adv_kind kind[ADV_TEXTS], rkind[ADV_TEXTS];
	struct sw_plan pl = {0}, rb = {0};
	struct sw_workload rebuild;
	size_t nt, na = 0, nr = 0, n = 0;
	struct adv_row *rows = NULL;
	int status, rc;

	bool made = false;
	if (cli_output_dir_new("advise", "--store", a.store, &made) ||
	    cli_output_check("advise", "--json", a.json)) {
		cli_output_undo(a.store, made);
		return 2;
	}
	nt = adv_targets(&a, texts, lv, kind, adv_has_write_policy(&a));
	for (size_t i = 0; i < nt; i++) /* the rebuilds are a plan of their own */
		if (kind[i] == ADV_REBUILD) {
			rtp[nr] = texts[i];
			rlv[nr] = lv[i];
			rkind[nr++] = ADV_REBUILD;
		} else {
			tp[na] = texts[i];
			lv[na] = lv[i];
			kind[na++] = kind[i];
		}
	sw_workload_rebuild(&rebuild);
	status = adv_plan_run(&pl, &a, tp, na, lv, kind, wlp);
	if (status >= 0 && nr) {
		rc = adv_plan_run(&rb, &a, rtp, nr, rlv, rkind, &rebuild);
		status = rc < 0 ? rc : status | rc;
	}
	if (status >= 0 && (rows = calloc(pl.n + 1, sizeof(*rows))))
		n = adv_rows(&pl, lv, kind, &rb, rlv, rows);
	if (status >= 0 && !n) {
		cli_error("advise", "no configuration could be measured");
		status = 1;
	}
	if (status >= 0 && n) {
		adv_sort_goal = a.goal;
		qsort(rows, n, sizeof(*rows), adv_cmp);
		printf("%d x %s%s%s, workload %s (%s)\n\n", a.drives, a.drive,
		       a.controller ? " behind " : "", a.controller ? a.controller : "", a.suite,
		       wlp->kind == SW_WORKLOAD_SUITE ? "short form: 64 MiB, one pass, 500 ms tests"
		                                      : "as the file is written");
		adv_table(stdout, rows, n);
		adv_answer(stdout, &a, &pl, rows, n);
		adv_backing(stdout, &a);
		if (a.json)
			status |= adv_json(a.json, &pl, &rb);
	}
	free(rows);
	sw_plan_free(&pl);
	sw_plan_free(&rb);
	return status == -2 ? 2 : status < 0 ? 1 : status;
}

static struct cli_command advise_cmd = {
    .name = "advise",
    .summary = "measure the arrays N drives can make and rank them for a goal",
    .usage = advise_usage,
    .main = advise_main,
};
CLI_COMMAND_REGISTER(advise_cmd)
