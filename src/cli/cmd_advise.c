/*
 * cmd_advise.c - `raidlab advise --drives 4x850evo`: which array to build
 * from these drives, for this workload, answered by measuring.
 *
 * It writes the configurations the platform offers as sweep specs with
 * alternatives (a single drive; raid0 over 2..N members; raid1 of 2; raid10
 * over 4..N; raid5 over 3..N and raid6 over 4..N, each striped level at the
 * chunk sizes offered; under a caching controller its write policies and
 * read-ahead settings), runs them through the sweep (sweep/sweep.h:
 * checked, stored, in parallel) with a short form of the workload, then
 * ranks them (cmd_advise_rank.c).  A controller profile's offers.KEY lines
 * say what the controller lets a user choose (levels, chunks, write, read,
 * trim, rebuild-rate); advise proposes nothing beyond them.
 *
 * What is measured is what the user will live with: the test area is
 * larger than every cache in the stack (ADV_AREA_FACTOR x the largest: the
 * controller's DRAM, or a drive's SLC cache and write buffer) unless
 * --size says otherwise, and the drives start in the state they will be in
 * (--state: used where TRIM reaches the members, steady where it does not).
 *
 * Each configuration that survives a failure is measured twice more: the
 * workload again with member 0 failed (the spec's failed=0), for its
 * degraded figure, and the rebuild of that member onto a fresh drive
 * (sweep/rebuild.c), for the time the array runs without redundancy.  The
 * rebuild does not depend on the controller's policies, so it runs once per
 * array (a second plan, after the first).  An interrupted run prints what it
 * has, marked partial, no answer, and exits non-zero.
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
#include "cli/cmd_advise.h"
#include "core/ctl_profile.h"
#include "core/registry.h"
#include "core/spec.h"
#include "report/sweep.h"
#include "workload/run.h"

static const char advise_usage[] =
    "usage: raidlab advise --drives NxDRIVE [--controller PROFILE | --platform NAME]\n"
    "                      [--workload SUITE|JOBFILE|TRACE] [--goal "
    "throughput|latency|capacity|safety]\n"
    "                      [--size SIZE] [--state fresh|used|steady] [--spare PCT,...]\n"
    "                      [-j N] [--store DIR] [--timeout T] [--json FILE] [--html FILE]\n"
    "\n"
    "Measures the arrays N drives can make on this controller (single, raid0, raid1,\n"
    "raid10, raid5, raid6 as the controller offers them; its chunk sizes, write policies\n"
    "and read-ahead) on simulated stacks with a short form of the workload, and ranks\n"
    "them for the goal: usable capacity, member failures survived, MB/s, IOPS and p99\n"
    "latency (geometric means over the workload's tests, and per test group).  It names\n"
    "the trade-off in words and says which figures a validation set measured.\n"
    "\n"
    "  --drives NxDRIVE      how many drives of which profile: 4x850evo, 2xsm951\n"
    "  --controller PROFILE  a controller profile (raidlab profiles): perc-h730p\n"
    "  --platform NAME       a validated platform (raidlab validate --list):\n"
    "                        amd-nvme-raid, perc-h730p, sm951-windows-stripe,\n"
    "                        vertex-raid0-southbridge; or md\n"
    "  --workload W          the workload: a suite (default cdm5), a fio job file or\n"
    "                        a trace (docs/traces.md)\n"
    "  --goal GOAL           throughput (default), latency, capacity or safety\n"
    "  --size SIZE           the test area (default: 2x the largest cache in the stack)\n"
    "  --state STATE         the drives' state: fresh, used (written once) or steady\n"
    "                        (default: used, or steady where TRIM does not reach them)\n"
    "  --spare PCT,...       leave this share of each drive unused, one configuration\n"
    "                        per value (default: 0,7,20,28 where TRIM does not reach\n"
    "                        the members and the drives are not fresh, else 0)\n"
    "  -j N, --store DIR,    as for raidlab sweep (results are kept and reused, a\n"
    "  --timeout T           configuration that hangs is stopped)\n"
    "  --json FILE           the sweep document of every configuration measured\n"
    "  --html FILE           the report: the ranking, the per-group view and the answer,\n"
    "                        then the sweep's heatmap, series and trade-off\n"
    "\n"
    "What it cannot know: price, power, and wear limits.  docs/advise.md.\n";

#define ADV_TEXTS       48
#define ADV_TEXT_LEN    768
#define ADV_AREA_FACTOR 2 /* the test area against the largest cache in the stack */

/* The platforms: validation sets (their controller), and the names used before. */
static const struct {
	const char *name, *controller, *inner, *set;
} adv_platforms[] = {
    {"amd-nvme-raid", "amd-raidxpert2", NULL, "amd-nvme-raid"},
    {"perc-h730p", "perc-h730p", NULL, "perc-h730p"},
    {"sm951-windows-stripe", "windows-dynamic-volume", NULL, "sm951-windows-stripe"},
    {"vertex-raid0-southbridge", "intel-matrix-raid", "intel-ich10r", "vertex-raid0-southbridge"},
    {"md", "md", NULL, ""},
};

static const struct {
	const char *old, *now;
} adv_platform_aliases[] = {
    {"amd-x399", "amd-nvme-raid"},
    {"windows", "sm951-windows-stripe"},
};

#define ADV_N(a) (sizeof(a) / sizeof((a)[0]))

static const char *adv_inner; /* a host driver under the controller (ICH10R under IMSM) */

static int adv_platform(struct adv_args *a, const char *v)
{
	for (size_t k = 0; k < ADV_N(adv_platform_aliases); k++)
		if (!strcmp(adv_platform_aliases[k].old, v)) {
			fprintf(stderr, "raidlab advise: --platform %s is now called %s\n", v,
			        adv_platform_aliases[k].now);
			v = adv_platform_aliases[k].now;
		}
	for (size_t k = 0; k < ADV_N(adv_platforms); k++)
		if (!strcmp(adv_platforms[k].name, v)) {
			a->controller = adv_platforms[k].controller;
			adv_inner = adv_platforms[k].inner;
			snprintf(a->platform, sizeof(a->platform), "%s", adv_platforms[k].set);
			return 0;
		}
	cli_error("advise",
	          "--platform: '%s' is not amd-nvme-raid, perc-h730p, sm951-windows-stripe, "
	          "vertex-raid0-southbridge or md",
	          v);
	return -EINVAL;
}

/* --spare 0,7,28: per cent of each drive left unused, distinct, 0..50. */
static int adv_spare_list(struct adv_args *a, const char *v)
{
	const char *s = v;

	a->nspare = 0;
	while (*s) {
		char *end;
		unsigned long p = strtoul(s, &end, 10);
		if (end == s || p > 50 || (*end && *end != ',' && *end != '%') ||
		    a->nspare == ADV_SPARES) {
			cli_error("advise",
			          "--spare: expected up to %d per cents from 0 to 50 separated by "
			          "commas (0,7,20,28), got '%s'",
			          ADV_SPARES, v);
			return -EINVAL;
		}
		for (size_t k = 0; k < a->nspare; k++)
			if (a->spare[k] == p) {
				cli_error("advise", "--spare: %lu%% given twice in '%s'", p, v);
				return -EINVAL;
			}
		a->spare[a->nspare++] = (unsigned)p;
		s = end + (*end == '%');
		s += *s == ',';
	}
	if (!a->nspare) {
		cli_error("advise", "--spare: expected per cents (0,7,20,28), got '%s'", v);
		return -EINVAL;
	}
	a->spare_why = "as --spare says";
	return 0;
}

static int adv_option(struct adv_args *a, const char *o, const char *v, bool *platform)
{
	char msg[160];

	if (!strcmp(o, "--drives")) {
		char *x;
		unsigned long n = strtoul(v, &x, 10);
		if (x == v || *x != 'x' || !x[1] || n < 1 || n > 16) {
			cli_error("advise",
			          "--drives: expected NxDRIVE with N 1..16 (4x850evo), got '%s'",
			          v);
			return -EINVAL;
		}
		a->drives = (unsigned)n;
		snprintf(a->drive, sizeof(a->drive), "%s", x + 1);
	} else if (!strcmp(o, "--controller") || !strcmp(o, "--platform")) {
		bool plat = !strcmp(o, "--platform");
		if (a->controller) {
			cli_error("advise",
			          "%s: a controller is already given (%s); --platform names a "
			          "platform with its controller, so give one of --controller and "
			          "--platform, once",
			          o, a->controller);
			return -EINVAL;
		}
		*platform = plat;
		if (plat)
			return adv_platform(a, v);
		a->controller = v;
	} else if (!strcmp(o, "--workload")) {
		a->suite = v;
	} else if (!strcmp(o, "--goal")) {
		static const char *const goals[] = {"throughput", "latency", "capacity", "safety"};
		int g = -1;
		for (int k = 0; k < 4; k++)
			if (!strcmp(goals[k], v))
				g = k;
		if (g < 0) {
			cli_error(
			    "advise",
			    "--goal: expected throughput, latency, capacity or safety, got '%s'",
			    v);
			return -EINVAL;
		}
		a->goal = (enum adv_goal)g;
	} else if (!strcmp(o, "--state")) {
		static const char *const states[] = {"fresh", "used", "steady"};
		int s = -1;
		for (int k = 0; k < 3; k++)
			if (!strcmp(states[k], v))
				s = k;
		if (s < 0) {
			cli_error("advise", "--state: expected fresh, used or steady, got '%s'", v);
			return -EINVAL;
		}
		a->state = (enum adv_state)(s + 1);
		a->state_why = "as --state says";
	} else if (!strcmp(o, "--spare")) {
		return adv_spare_list(a, v);
	} else if (!strcmp(o, "--size")) {
		if (rl_parse_size(v, &a->size, msg, sizeof(msg)) || a->size < (1u << 20)) {
			cli_error("advise", "--size: expected a size of at least 1m (8g), got '%s'",
			          v);
			return -EINVAL;
		}
		snprintf(a->size_why, sizeof(a->size_why), "as --size says");
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
	} else if (!strcmp(o, "--html")) {
		a->html = v;
	} else {
		cli_error("advise", "unknown option '%s' (see raidlab help advise)", o);
		return -EINVAL;
	}
	return 0;
}

static int adv_parse(int argc, char **argv, struct adv_args *a)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool platform = false;

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
		if (adv_option(a, o, v, &platform))
			return -EINVAL;
	}
	if (!a->drives) {
		cli_error("advise", "give --drives NxDRIVE (4x850evo)");
		return -EINVAL;
	}
	if (!platform) {
		adv_inner = NULL;
		for (size_t k = 0; a->controller && k < ADV_N(adv_platforms); k++)
			if (!strcmp(adv_platforms[k].controller, a->controller))
				snprintf(a->platform, sizeof(a->platform), "%s",
				         adv_platforms[k].set);
	}
	return 0;
}

/* The controller profile's offers.KEY lines, and its cache size. */
static uint64_t adv_offers(struct adv_args *a)
{
	struct rl_ctl_profile p;
	uint64_t cache = 0;

	snprintf(a->levels, sizeof(a->levels), "raid0 raid1 raid10 raid5 raid6");
	snprintf(a->chunks, sizeof(a->chunks), "64k 256k");
	snprintf(a->write, sizeof(a->write), "back through");
	snprintf(a->trim, sizeof(a->trim), "on");
	if (!a->controller || rl_ctl_profile_load(a->controller, &p))
		return 0;
	for (size_t i = 0; i < p.nkv; i++) {
		const char *k = p.keys[i], *v = p.values[i];
		char msg[64];
		if (!strcmp(k, "offers.levels"))
			snprintf(a->levels, sizeof(a->levels), "%s", v);
		else if (!strcmp(k, "offers.chunks"))
			snprintf(a->chunks, sizeof(a->chunks), "%s", v);
		else if (!strcmp(k, "offers.write"))
			snprintf(a->write, sizeof(a->write), "%s", v);
		else if (!strcmp(k, "offers.read"))
			snprintf(a->read, sizeof(a->read), "%s", v);
		else if (!strcmp(k, "offers.trim"))
			snprintf(a->trim, sizeof(a->trim), "%s", v);
		else if (!strcmp(k, "offers.rebuild-rate"))
			a->rebuild_share = strtod(v, NULL) / 100;
		else if (!strcmp(k, "size") && !strcmp(p.kind, "cache") &&
		         rl_parse_size(v, &cache, msg, sizeof(msg)))
			cache = 0;
	}
	rl_ctl_profile_free(&p);
	return cache;
}

static struct json_object *adv_get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* Open @spec once: 0, or -EINVAL with the error printed (once). */
static int adv_open(const char *spec, bool quiet, struct json_object **tree)
{
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err = {0};

	rl_build_ctx_init(&ctx);
	ctx.quiet = true;
	if (rl_target_open(spec, &ctx, &t, &err)) {
		if (!quiet)
			cli_error("advise", "%s: %s", spec, err.msg);
		return -EINVAL;
	}
	if (tree)
		*tree = rl_target_tree(t);
	rl_target_close(t);
	return 0;
}

/* The drive exists (said once), the controller takes write=, and the caches size the area. */
static int adv_stack(struct adv_args *a)
{
	char spec[256];
	struct json_object *tree = NULL;
	uint64_t ctl = adv_offers(a), drv;

	snprintf(spec, sizeof(spec), "ssd(%s)", a->drive);
	if (adv_open(spec, false, &tree))
		return -EINVAL;
	drv = (uint64_t)json_object_get_int64(adv_get(tree, "slc_cache_bytes")) +
	      (uint64_t)json_object_get_int64(adv_get(tree, "write_buffer_bytes"));
	uint64_t cap = (uint64_t)json_object_get_int64(adv_get(tree, "size_bytes"));
	json_object_put(tree);
	a->drive_cap = cap;
	if (a->controller) {
		snprintf(spec, sizeof(spec), "controller(%s, ssd(%s), write=back)", a->controller,
		         a->drive);
		a->wp = !adv_open(spec, true, NULL);
		snprintf(spec, sizeof(spec), "controller(%s, ssd(%s))", a->controller, a->drive);
		if (!a->wp && adv_open(spec, false, NULL))
			return -EINVAL;
	}
	if (!a->wp)
		a->write[0] = a->read[0] = 0;
	if (!a->size) {
		uint64_t big = ctl > drv ? ctl : drv;
		a->size = ((ADV_AREA_FACTOR * big + (1ull << 30) - 1) >> 30) << 30;
		if (a->size < (1ull << 30))
			a->size = 1ull << 30;
		if (cap && a->size > cap / 10 * 9)
			a->size = cap / 10 * 9 >> 20 << 20;
		snprintf(
		    a->size_why, sizeof(a->size_why), "%dx the largest cache: %s %.1f GB%s",
		    ADV_AREA_FACTOR, ctl > drv ? "the controller's" : "a drive's SLC and buffer,",
		    (double)(ctl > drv ? ctl : drv) / 1e9,
		    cap && a->size == cap / 10 * 9 >> 20 << 20 ? ", held to 90 % of a drive" : "");
	}
	if (a->state == ADV_STATE_AUTO) {
		bool trim = strcmp(a->trim, "off") != 0;
		a->state = trim ? ADV_STATE_USED : ADV_STATE_STEADY;
		a->state_why = trim ? "written once: the array is in use, and TRIM reaches the "
		                      "members"
		                    : "steady: TRIM does not reach the members behind this "
		                      "controller, so they run without free blocks";
	}
	if (!a->nspare) {
		/* without TRIM, space never written is the drive's only reserve beyond its own */
		static const unsigned deflt[] = {0, 7, 20, 28};
		bool axis = !strcmp(a->trim, "off") && a->state != ADV_STATE_FRESH;
		a->nspare = axis ? ADV_N(deflt) : 1;
		memcpy(a->spare, deflt, a->nspare * sizeof(deflt[0]));
		a->spare_why = axis ? "TRIM does not reach the members, so space left unused is "
		                      "the drives' only reserve"
		                    : "TRIM reaches the members, or they are fresh";
	}
	return 0;
}

/* ", capacity={C93,C80,...}": each drive with part of it left unused (a partition that
   does not cover it, never written: the drive keeps it as spare area), for the spare
   values from, to (exclusive) of the list. */
static void adv_spare_opts(const struct adv_args *a, size_t from, size_t to, char *buf, size_t len)
{
	size_t n;

	buf[0] = 0;
	if (to <= from || (to - from == 1 && a->spare[from] == 0))
		return;
	n = (size_t)snprintf(buf, len, ", capacity=%s", to - from > 1 ? "{" : "");
	for (size_t k = from; k < to && n < len; k++) {
		/* whole MiB, so every member of every level keeps its chunks aligned */
		uint64_t c = a->drive_cap / 100 * (100 - a->spare[k]) >> 20 << 20;
		if (!a->spare[k])
			c = a->drive_cap;
		n += (size_t)snprintf(buf + n, len - n, "%s%llu", k > from ? "," : "",
		                      (unsigned long long)c);
	}
	if (to - from > 1 && n < len)
		snprintf(buf + n, len - n, "}");
}

/* "{64k,256k}" or "64k" from "64k 256k". */
static void adv_alternatives(const char *list, char *buf, size_t len)
{
	char tmp[128];
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), "%s", list);
	buf[0] = 0;
	for (char *s = strtok(tmp, " ,"); s; s = strtok(NULL, " ,"), n++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", n ? "," : "", s);
	if (n > 1) {
		memmove(buf + 1, buf, strlen(buf) + 1);
		buf[0] = '{';
		snprintf(buf + strlen(buf), len - strlen(buf), "}");
	}
}

static bool adv_offered(const char *list, const char *word)
{
	char tmp[128];

	snprintf(tmp, sizeof(tmp), "%s", list);
	for (char *s = strtok(tmp, " ,"); s; s = strtok(NULL, " ,"))
		if (!strcmp(s, word))
			return true;
	return false;
}

/* The sweep texts for the configurations worth measuring; returns how many. */
static size_t adv_targets(const struct adv_args *a, char (*out)[ADV_TEXT_LEN], const char **lv,
                          enum adv_kind *kind)
{
	static const struct {
		const char *level;
		bool chunk;
		unsigned min, max; /* members: min..max (0: the drives) */
	} levels[] = {
	    {"raid0", false, 1, 1}, {"raid0", true, 2, 0}, {"raid1", false, 2, 2},
	    {"raid10", true, 4, 0}, {"raid5", true, 3, 0}, {"raid6", true, 4, 0},
	};
	static const char *const state[] = {"", "", ", state=full", ", state=steady"};
	char chunks[64], pol[96] = "", dpol[96], fpol[96] = "", w[48], r[48];
	size_t n = 0;

	adv_alternatives(a->chunks, chunks, sizeof(chunks));
	if (a->write[0]) {
		adv_alternatives(a->write, w, sizeof(w));
		snprintf(pol, sizeof(pol), ", write=%s", w);
		sscanf(a->write, "%47s", w);
		snprintf(fpol, sizeof(fpol), ", write=%s", w);
	}
	snprintf(dpol, sizeof(dpol), "%s", pol);
	if (a->read[0]) {
		/* degraded: the first read setting only (read-ahead does not change what fails) */
		adv_alternatives(a->read, r, sizeof(r));
		snprintf(pol + strlen(pol), sizeof(pol) - strlen(pol), ", read=%s", r);
		sscanf(a->read, "%47s", r);
		snprintf(dpol + strlen(dpol), sizeof(dpol) - strlen(dpol), ", read=%s", r);
		snprintf(fpol + strlen(fpol), sizeof(fpol) - strlen(fpol), ", read=%s", r);
	}
	/* without TRIM, what the drives' state costs: each configuration as new too; and
	   the spare areas beyond the first.  Both are questions about the drives, not the
	   controller's policies, so they are measured at its first write and read setting
	   (its default) only: the plan grows by the levels, not by levels x policies. */
	bool fresh = !strcmp(a->trim, "off") && a->state != ADV_STATE_FRESH;
	char spare0[128], spares[256];

	adv_spare_opts(a, 0, 1, spare0, sizeof(spare0));
	adv_spare_opts(a, 1, a->nspare, spares, sizeof(spares));
	for (int k = ADV_HEALTHY; k <= ADV_SPARE; k++)
		for (size_t l = 0; l < ADV_N(levels); l++) {
			char members[32], inner[512], opts[96] = "", first[16];
			unsigned hi = levels[l].max ? levels[l].max : a->drives;
			bool redundant = strcmp(levels[l].level, "raid0") != 0;
			bool failed = k == ADV_DEGRADED || k == ADV_REBUILD;
			if (a->drives < levels[l].min || (failed && !redundant) ||
			    (k == ADV_FRESH && !fresh) || (k == ADV_SPARE && !spares[0]) ||
			    n >= ADV_TEXTS)
				continue;
			/* a single drive is always there; other levels only where offered */
			if (levels[l].max != 1 && !adv_offered(a->levels, levels[l].level))
				continue;
			if (hi == levels[l].min)
				snprintf(members, sizeof(members), "x%u", hi);
			else
				snprintf(members, sizeof(members), "x{%u..%u}", levels[l].min, hi);
			sscanf(a->chunks, "%15s", first);
			if (levels[l].chunk || levels[l].max == 1)
				snprintf(opts, sizeof(opts), ", chunk=%s",
				         levels[l].max == 1 ? first : chunks);
			/* the rebuild writes a fresh replacement drive; the spare area is an axis
			   of the configurations in the drives' state */
			bool in_state = k != ADV_REBUILD && k != ADV_FRESH;
			const char *p = k == ADV_DEGRADED                  ? dpol
			                : k == ADV_REBUILD                 ? ""
			                : k == ADV_FRESH || k == ADV_SPARE ? fpol
			                                                   : pol;
			snprintf(inner, sizeof(inner), "%s(ssd(%s%s%s) %s%s%s)", levels[l].level,
			         a->drive, in_state ? state[a->state] : "",
			         k == ADV_SPARE ? spares
			         : in_state     ? spare0
			                        : "",
			         members, opts, failed ? ", failed=0" : "");
			lv[n] = levels[l].level;
			kind[n] = (enum adv_kind)k;
			if (!a->controller)
				snprintf(out[n++], ADV_TEXT_LEN, "%s", inner);
			else if (adv_inner)
				snprintf(out[n++], ADV_TEXT_LEN,
				         "controller(%s, controller(%s, %s)%s)", a->controller,
				         adv_inner, inner, p);
			else
				snprintf(out[n++], ADV_TEXT_LEN, "controller(%s, %s%s)",
				         a->controller, inner, p);
		}
	return n;
}

/* "raid10 x4 write=back chunk=64k": the level of the point's text, then its axes. */
static int adv_relabel(const struct adv_args *a, struct sw_plan *pl, const char *const *lv,
                       const enum adv_kind *kind)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		const char *x = strstr(pt->spec, ") x");
		int count = x ? atoi(x + 3) : 1;
		char buf[256];
		size_t len = count == 1 ? (size_t)snprintf(buf, sizeof(buf), "single")
		                        : (size_t)snprintf(buf, sizeof(buf), "%s x%d",
		                                           lv[pt->target], count);
		const char *cap = NULL;
		enum adv_kind kd = kind[pt->target];
		for (size_t k = 0; k < pl->naxes && len < sizeof(buf); k++)
			if (pt->values[k] && !strcmp(pl->axes[k], "capacity"))
				cap = pt->values[k];
			else if (pt->values[k] && strcmp(pl->axes[k], "count"))
				len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s=%s",
				                        pl->axes[k], pt->values[k]);
		/* the spare area last, where it is an axis or not the drive's own */
		if ((a->nspare > 1 || a->spare[0]) && kd != ADV_FRESH && kd != ADV_REBUILD &&
		    len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " spare=%u%%",
			                        cap ? adv_spare_pct(a, cap) : a->spare[0]);
		if (kd == ADV_FRESH && len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - len, ", drives as new");
		else if (kd != ADV_HEALTHY && kd != ADV_SPARE && len < sizeof(buf))
			snprintf(buf + len, sizeof(buf) - len, ", member 0 failed");
		free(pt->label);
		if (!(pt->label = strdup(buf)))
			return -ENOMEM;
	}
	return 0;
}

/* --workload: a suite in a short form, or a job file or trace as it is written. */
static int advise_workload(const struct adv_args *a, struct sw_workload *wl)
{
	char msg[512], size[32];

	wl->def = suite_find(a->suite);
	if (!wl->def && access(a->suite, F_OK) == 0) {
		if (sw_workload_file(wl, a->suite, msg, sizeof(msg)) == 0)
			return 0;
		cli_error("advise", "--workload: %s", msg);
		return 2;
	}
	if (!wl->def) {
		cli_error("advise", "--workload: '%s' is neither a suite nor a job file or trace",
		          a->suite);
		return 2;
	}
	wl->p = wl->def->defaults;
	snprintf(wl->name, sizeof(wl->name), "%s", a->suite);
	/* a short form: one measured pass, the area past the caches, short timed tests */
	snprintf(size, sizeof(size), "%llu", (unsigned long long)a->size);
	suite_params_set(wl->def, &wl->p, "size", size, msg, sizeof(msg));
	suite_params_set(wl->def, &wl->p, "passes", "1", msg, sizeof(msg));
	suite_params_set(wl->def, &wl->p, "duration", "500ms", msg, sizeof(msg));
	return 0;
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
	if (adv_relabel(a, pl, lv, kind)) {
		cli_error("advise", "out of memory");
		return -1;
	}
	pl->store = a->store;
	pl->simulated_only = true;
	pl->timeout_s = a->timeout;
	return cli_sweep_run(pl, a->par, false);
}

/* --json and --html: the sweep document with the ranking, and the report made from it. */
static int adv_write(const struct adv_args *a, struct adv_rank *rk, const char *header)
{
	struct json_object *doc = adv_doc(rk, header);
	char err[512];
	int rc = 0;

	if (!doc) {
		cli_error("advise", "out of memory");
		return 1;
	}
	if (a->json && json_object_to_file_ext(a->json, doc, JSON_C_TO_STRING_PRETTY)) {
		cli_error("advise", "cannot write %s", a->json);
		rc = 1;
	}
	if (a->html) {
		FILE *f = fopen(a->html, "w");
		if (!f) {
			cli_error("advise", "cannot write %s: %s", a->html, strerror(errno));
			rc = 1;
		} else {
			if (rep_sweep_html_doc(f, doc, err, sizeof(err))) {
				cli_error("advise", "report: %s", err);
				rc = 1;
			}
			if (fclose(f)) {
				cli_error("advise", "cannot write %s: %s", a->html,
				          strerror(errno));
				rc = 1;
			}
		}
	}
	json_object_put(doc);
	return rc;
}

static int advise_measure(struct adv_args *a, struct sw_workload *wlp)
{
	static const char *const sname[] = {"", "fresh", "used", "steady"};
	char texts[ADV_TEXTS][ADV_TEXT_LEN], header[1024];
	const char *tp[ADV_TEXTS], *lv[ADV_TEXTS], *rtp[ADV_TEXTS], *rlv[ADV_TEXTS];
	enum adv_kind kind[ADV_TEXTS], rkind[ADV_TEXTS];
	struct sw_plan pl = {0}, rb = {0};
	struct sw_workload rebuild;
	struct adv_rank rk = {.a = a, .pl = &pl, .rb = &rb, .lv = lv, .rlv = rlv, .kind = kind};
	size_t nt, na = 0, nr = 0;
	int status, rc;

	bool made = false;
	if (cli_output_dir_new("advise", "--store", a->store, &made) ||
	    cli_output_check("advise", "--json", a->json) ||
	    cli_output_check("advise", "--html", a->html)) {
		cli_output_undo(a->store, made);
		return 2;
	}
	nt = adv_targets(a, texts, lv, kind);
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
	status = adv_plan_run(&pl, a, tp, na, lv, kind, wlp);
	rk.partial = wl_run_stop_requested();
	if (status >= 0 && nr && !rk.partial) {
		rc = adv_plan_run(&rb, a, rtp, nr, rlv, rkind, &rebuild);
		status = rc < 0 ? rc : status | rc;
		rk.partial = wl_run_stop_requested();
	}
	if (status >= 0 && !rk.partial)
		rk.sure = adv_sure(a);
	rk.partial |= wl_run_stop_requested();
	if (status >= 0 && (rk.rows = calloc(pl.n + 1, sizeof(*rk.rows))))
		adv_rows(&rk);
	if (status >= 0 && !rk.n && !rk.partial) {
		cli_error("advise", "no configuration could be measured");
		status = 1;
	}
	if (status >= 0) {
		char spares[64] = "";
		for (size_t k = 0; k < a->nspare; k++)
			snprintf(spares + strlen(spares), sizeof(spares) - strlen(spares),
			         "%s%u %%", k ? ", " : "", a->spare[k]);
		snprintf(header, sizeof(header),
		         "%d x %s%s%s, workload %s (%s)\ntest area %.1f GiB (%s); drives %s (%s)\n"
		         "spare area: %s (%s)\n\n",
		         a->drives, a->drive, a->controller ? " behind " : "",
		         a->controller ? a->controller : "", a->suite,
		         wlp->kind == SW_WORKLOAD_SUITE ? "short form: one pass, 500 ms tests"
		                                        : "as the file is written",
		         (double)a->size / (1ull << 30), a->size_why, sname[a->state], a->state_why,
		         spares, a->spare_why);
		adv_print(stdout, &rk, header);
		if (a->json || a->html)
			status |= adv_write(a, &rk, header);
	}
	free(rk.rows);
	json_object_put(rk.sure);
	sw_plan_free(&pl);
	sw_plan_free(&rb);
	if (rk.partial)
		return 130;
	return status == -2 ? 2 : status < 0 ? 1 : status;
}

static int advise_main(int argc, char **argv)
{
	struct adv_args a = {0};
	struct sw_workload wl = {0};
	int rc = adv_parse(argc, argv, &a);

	if (rc)
		return rc > 0 ? 0 : 2;
	if (adv_stack(&a))
		return 2;
	rc = advise_workload(&a, &wl);
	if (!rc)
		rc = advise_measure(&a, &wl);
	sw_workload_free(&wl);
	return rc;
}

static struct cli_command advise_cmd = {
    .name = "advise",
    .summary = "measure the arrays N drives can make and rank them for a goal",
    .usage = advise_usage,
    .main = advise_main,
};
CLI_COMMAND_REGISTER(advise_cmd)
