/*
 * cmd_advise_rank.c - the second half of `raidlab advise`: from the sweep's
 * results to the ranked table, the view per test group, the answer in words,
 * how sure each row is, and the JSON document.
 *
 * Figures per configuration are geometric means over the workload's tests
 * and directions, so no single test decides; a test that reports no MB/s
 * (AS SSD's access time) stays out of them.  The same results are also
 * grouped (sequential, random at QD1, random at a higher queue depth, each
 * job of a job file) so the reader sees which group moves the ranking.
 * Simulated runs repeat exactly, but the model is no closer to a real drive
 * than a few per cent, so figures within ADV_TIE of each other rank as a tie
 * and the table says what broke it.  An interrupted run prints what it has,
 * marked partial, and no answer.
 */
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_advise.h"
#include "core/datadir.h"

#define ADV_TIE 0.02 /* figures closer than 2 % rank as a tie */

static struct json_object *adv_get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The group a test belongs to: sequential, random QD1, random QD>1, or its own name. */
static void adv_group_of(struct json_object *t, char *buf, size_t len)
{
	const char *pat = json_object_get_string(adv_get(t, "pattern"));
	long qd = json_object_get_int64(adv_get(t, "iodepth"));
	long th = json_object_get_int64(adv_get(t, "threads"));

	if (pat && !strcmp(pat, "seq"))
		snprintf(buf, len, "sequential");
	else if (pat && !strcmp(pat, "rand"))
		snprintf(buf, len, "%s",
		         qd * (th > 0 ? th : 1) <= 1 ? "random QD1" : "random QD>1");
	else
		snprintf(buf, len, "%s", json_object_get_string(adv_get(t, "name")));
}

/* Geometric means over the result's tests and directions, and per group. */
static void adv_figures(struct adv_row *r)
{
	static const char *const dirs[] = {"read", "write"};
	struct json_object *tests = adv_get(r->pt->result, "tests");
	double lm = 0, li = 0, lp = 0, lw = 0, gl[ADV_GROUPS][2] = {{0}};
	size_t n = 0, np = 0, nw = 0, gn[ADV_GROUPS][2] = {{0}};

	r->ngroups = 0;
	for (size_t t = 0; tests && t < json_object_array_length(tests); t++) {
		struct json_object *test = json_object_array_get_idx(tests, t);
		char g[48];
		size_t gi;
		adv_group_of(test, g, sizeof(g));
		for (gi = 0; gi < r->ngroups && strcmp(r->groups[gi].name, g); gi++)
			;
		for (int d = 0; d < 2; d++) {
			struct json_object *x = adv_get(test, dirs[d]);
			double mb = json_object_get_double(adv_get(x, "mb_s"));
			double p99 = json_object_get_double(adv_get(adv_get(x, "lat_us"), "p99"));
			/* an access time is not a rate: it stays out of the means */
			if (!x || mb <= 0 || adv_get(x, "access_time_ms"))
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
			if (gi == r->ngroups && gi < ADV_GROUPS)
				snprintf(r->groups[r->ngroups++].name, sizeof(r->groups[0].name),
				         "%s", g);
			if (gi < ADV_GROUPS) {
				gl[gi][d] += log(mb);
				gn[gi][d]++;
			}
		}
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		r->groups[g].read_mb_s = gn[g][0] ? exp(gl[g][0] / (double)gn[g][0]) : 0;
		r->groups[g].write_mb_s = gn[g][1] ? exp(gl[g][1] / (double)gn[g][1]) : 0;
	}
	r->mb_s = n ? exp(lm / (double)n) : 0;
	r->iops = n ? exp(li / (double)n) : 0;
	r->p99_us = np ? exp(lp / (double)np) : 0;
	r->write_mb_s = nw ? exp(lw / (double)nw) : 0;
}

/* The figure the goal ranks by (larger is better); capacity and safety rank by MB/s next. */
static double adv_key(enum adv_goal g, const struct adv_row *r)
{
	if (g == ADV_LATENCY)
		return r->p99_us > 0 ? 1e6 / r->p99_us : 0;
	return r->mb_s;
}

static bool adv_close(double a, double b)
{
	return fabs(a - b) <= ADV_TIE * fmax(fabs(a), fabs(b));
}

/* Usable capacities that differ by chunk rounding only count as equal. */
static bool adv_cap_differs(const struct sw_point *a, const struct sw_point *b)
{
	return fabs((double)a->capacity - (double)b->capacity) >
	       0.001 * fmax((double)a->capacity, (double)b->capacity);
}

static enum adv_goal adv_sort_goal;

static int adv_cmp(const void *pa, const void *pb)
{
	const struct adv_row *a = pa, *b = pb;
	double ka = adv_key(adv_sort_goal, a), kb = adv_key(adv_sort_goal, b);

	if (adv_sort_goal == ADV_CAPACITY && a->pt->capacity != b->pt->capacity)
		return a->pt->capacity > b->pt->capacity ? -1 : 1;
	if (adv_sort_goal == ADV_SAFETY && a->pt->survives != b->pt->survives)
		return a->pt->survives > b->pt->survives ? -1 : 1;
	if (!adv_close(ka, kb))
		return ka > kb ? -1 : 1;
	/* a tie within the model's reach: the safer, then the larger, then the figure */
	if (a->pt->survives != b->pt->survives)
		return a->pt->survives > b->pt->survives ? -1 : 1;
	if (adv_cap_differs(a->pt, b->pt))
		return a->pt->capacity > b->pt->capacity ? -1 : 1;
	return ka > kb ? -1 : ka < kb;
}

/* Tied with the row before it on the goal's figure (same tier of the goal). */
static bool adv_tied(const struct adv_rank *r, size_t i)
{
	const struct adv_row *p = &r->rows[i - 1], *q = &r->rows[i];
	enum adv_goal g = r->a->goal;

	if (g == ADV_CAPACITY && p->pt->capacity != q->pt->capacity)
		return false;
	if (g == ADV_SAFETY && p->pt->survives != q->pt->survives)
		return false;
	return adv_close(adv_key(g, &r->rows[0]), adv_key(g, q)) &&
	       adv_close(adv_key(g, p), adv_key(g, q));
}

/* What broke the tie between rows 0 and 1, or NULL when they do not tie. */
static const char *adv_tie_breaker(const struct adv_rank *r)
{
	const struct adv_row *p = &r->rows[0], *q = &r->rows[1];

	if (r->n < 2 || !adv_tied(r, 1))
		return NULL;
	if (p->pt->survives != q->pt->survives)
		return "failures survived";
	if (adv_cap_differs(p->pt, q->pt))
		return "usable capacity";
	return "nothing: the figures differ by less than 2 %";
}

/* The value of axis @name at @pt, or "". */
static const char *adv_axis(const struct sw_plan *pl, const struct sw_point *pt, const char *name)
{
	for (size_t k = 0; k < pl->naxes; k++)
		if (!strcmp(pl->axes[k], name) && pt->values[k])
			return pt->values[k];
	return "";
}

/* "raid10 x4 chunk=64k write=back": what a configuration is, without its failed member;
   with @spare, the share of each drive left unused too. */
static void adv_shape(const struct sw_plan *pl, const struct sw_point *pt, const char *const *lv,
                      bool write, bool spare, char *buf, size_t len)
{
	const char *x = strstr(pt->spec, ") x");

	/* not read=: the degraded runs use the first read setting offered */
	snprintf(buf, len, "%s x%d chunk=%s write=%s capacity=%s", lv[pt->target],
	         x ? atoi(x + 3) : 1, adv_axis(pl, pt, "chunk"),
	         write ? adv_axis(pl, pt, "write") : "", spare ? adv_axis(pl, pt, "capacity") : "");
}

static bool adv_same_spec_shape(const char *a, const char *b);

/* validated: the platform's validation set measured this level and member count;
   contradicted: and a finding about it fails. */
static const char *adv_basis(const struct adv_rank *r, const struct sw_point *pt)
{
	const struct adv_args *a = r->a;
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX], path[PATH_MAX + 80];
	size_t nd;
	const char *basis = "extrapolated";

	if (!a->platform[0])
		return basis;
	nd = rl_data_dirs("validation", "RAIDLAB_VALIDATION", dirs);
	for (size_t d = 0; d < nd && !strcmp(basis, "extrapolated"); d++) {
		snprintf(path, sizeof(path), "%s/%s.json", dirs[d], a->platform);
		struct json_object *set = json_object_from_file(path), *cfgs;
		cfgs = adv_get(set, "configs") ? adv_get(set, "configs")
		                               : adv_get(set, "configurations");
		for (size_t c = 0; cfgs && c < json_object_array_length(cfgs); c++) {
			const char *spec = json_object_get_string(
			    adv_get(json_object_array_get_idx(cfgs, c), "spec"));
			char drive[80];
			snprintf(drive, sizeof(drive), "ssd(%s", a->drive);
			if (spec && strstr(spec, drive) && adv_same_spec_shape(spec, pt->spec))
				basis = "validated";
		}
		json_object_put(set);
	}
	struct json_object *failing = adv_get(r->sure, "failing");
	for (size_t i = 0;
	     failing && !strcmp(basis, "validated") && i < json_object_array_length(failing); i++) {
		const char *spec =
		    json_object_get_string(adv_get(json_object_array_get_idx(failing, i), "spec"));
		if (spec && *spec && adv_same_spec_shape(spec, pt->spec))
			basis = "contradicted";
	}
	return basis;
}

/* The level and member count of a spec: "raid0(ssd(" ... ") x4"; a bare ssd is one member. */
static void adv_spec_level(const char *spec, char *lvl, size_t len, int *count)
{
	static const char *const levels[] = {"raid10(", "raid0(", "raid1(", "raid5(", "raid6("};
	const char *x = strstr(spec, ") x");

	snprintf(lvl, len, "single");
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (strstr(spec, levels[i])) {
			snprintf(lvl, len, "%.*s", (int)strlen(levels[i]) - 1, levels[i]);
			break;
		}
	*count = x ? atoi(x + 3) : 1;
	if (*count == 1)
		snprintf(lvl, len, "single");
}

static bool adv_same_spec_shape(const char *a, const char *b)
{
	char la[16], lb[16];
	int ca, cb;

	adv_spec_level(a, la, sizeof(la), &ca);
	adv_spec_level(b, lb, sizeof(lb), &cb);
	return !strcmp(la, lb) && ca == cb;
}

/* The per cent of each drive a capacity= value of the spare axis leaves unused. */
unsigned adv_spare_pct(const struct adv_args *a, const char *value)
{
	uint64_t c = strtoull(value, NULL, 10), cap = a->drive_cap;

	return c && cap && c < cap ? (unsigned)lround(100.0 * (double)(cap - c) / (double)cap) : 0;
}

size_t adv_rows(struct adv_rank *r)
{
	const struct sw_plan *pl = r->pl, *rb = r->rb;
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++) {
		const struct sw_point *pt = &pl->pts[i];
		char want[256], have[256];
		enum adv_kind pk = r->kind[pt->target];
		if (!pt->result || (pk != ADV_HEALTHY && pk != ADV_SPARE))
			continue;
		memset(&r->rows[n], 0, sizeof(r->rows[n]));
		r->rows[n].pt = pt;
		adv_figures(&r->rows[n]);
		r->rows[n].basis = adv_basis(r, pt);
		const char *cap = adv_axis(pl, pt, "capacity");
		r->rows[n].spare = *cap ? adv_spare_pct(r->a, cap) : r->a->spare[0];
		for (size_t k = 0; k < pl->n; k++) {
			struct adv_row d = {.pt = &pl->pts[k]};
			enum adv_kind dk = r->kind[d.pt->target];
			if (!d.pt->result || (dk != ADV_DEGRADED && dk != ADV_FRESH))
				continue;
			/* degraded: the same spare area; as new: the drives' own reserve only */
			adv_shape(pl, pt, r->lv, true, dk == ADV_DEGRADED, want, sizeof(want));
			adv_shape(pl, d.pt, r->lv, true, dk == ADV_DEGRADED, have, sizeof(have));
			if (strcmp(want, have))
				continue;
			adv_figures(&d);
			if (dk == ADV_DEGRADED)
				r->rows[n].degraded_mb_s = d.mb_s;
			else
				r->rows[n].fresh_write_mb_s = d.write_mb_s;
		}
		adv_shape(pl, pt, r->lv, false, false, want, sizeof(want));
		for (size_t k = 0; rb && k < rb->n; k++) {
			struct json_object *tests = adv_get(rb->pts[k].result, "tests");
			adv_shape(rb, &rb->pts[k], r->rlv, false, false, have, sizeof(have));
			if (tests && !strcmp(want, have))
				r->rows[n].rebuild_s = json_object_get_double(
				    adv_get(adv_get(json_object_array_get_idx(tests, 0), "rebuild"),
				            "estimate_s"));
		}
		n++;
	}
	r->n = n;
	adv_sort_goal = r->a->goal;
	qsort(r->rows, n, sizeof(*r->rows), adv_cmp);
	return n;
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

static void adv_table(FILE *f, const struct adv_rank *r)
{
	fprintf(f, "%5s  %-46s %10s %5s %9s %9s %9s %10s %9s %9s  %s\n", "rank", "configuration",
	        "usable GB", "fails", "MB/s", "IOPS", "p99 us", "write MB/s", "degraded", "rebuild",
	        "basis");
	for (size_t i = 0, rank = 1; i < r->n; i++) {
		const struct adv_row *w = &r->rows[i];
		char deg[32], reb[32], rk[32];
		bool tie = i > 0 && adv_tied(r, i);
		if (i > 0 && !tie)
			rank = i + 1;
		snprintf(rk, sizeof(rk), "%s%zu",
		         tie || (i + 1 < r->n && adv_tied(r, i + 1)) ? "=" : "", rank);
		if (w->degraded_mb_s > 0)
			snprintf(deg, sizeof(deg), "%.1f", w->degraded_mb_s);
		else
			snprintf(deg, sizeof(deg), "-");
		adv_hours(reb, sizeof(reb), w->rebuild_s);
		fprintf(f, "%5s  %-46.46s %10.1f %5d %9.1f %9.0f %9.1f %10.1f %9s %9s  %s\n", rk,
		        w->pt->label, (double)w->pt->capacity / 1e9, w->pt->survives, w->mb_s,
		        w->iops, w->p99_us, w->write_mb_s, deg, reb, w->basis);
	}
	fprintf(
	    f,
	    "\nMB/s, IOPS, p99: geometric means over the workload's tests and directions (access "
	    "times left out);\nfails: member failures survived; =N: within 2 %% of each other "
	    "(a tie, broken by failures survived,\nthen capacity); degraded: MB/s with member 0 "
	    "failed; rebuild: member 0 rebuilt by raidlab's walk\n(one request at a time, no "
	    "other I/O) over a slice past the drive's caches, the rest of the member at\nthe "
	    "slice's closing rate; basis: validated where the platform's validation set "
	    "measured\nthis level and member count, contradicted where a finding about it fails "
	    "on the model,\nelse extrapolated.\n");
}

/* Per test group: read and write MB/s of every configuration. */
static void adv_groups(FILE *f, const struct adv_rank *r)
{
	const struct adv_row *first = &r->rows[0];

	if (!first->ngroups)
		return;
	fprintf(f, "\nPer test group (MB/s read / write):\n%5s  %-46s", "rank", "configuration");
	for (size_t g = 0; g < first->ngroups; g++)
		fprintf(f, " %19.19s", first->groups[g].name);
	fputc('\n', f);
	for (size_t i = 0; i < r->n; i++) {
		fprintf(f, "%5zu  %-46.46s", i + 1, r->rows[i].pt->label);
		for (size_t g = 0; g < first->ngroups; g++) {
			char cell[40];
			const struct adv_group *x = NULL;
			for (size_t k = 0; k < r->rows[i].ngroups; k++)
				if (!strcmp(r->rows[i].groups[k].name, first->groups[g].name))
					x = &r->rows[i].groups[k];
			if (x)
				snprintf(cell, sizeof(cell), "%.0f / %.0f", x->read_mb_s,
				         x->write_mb_s);
			else
				snprintf(cell, sizeof(cell), "-");
			fprintf(f, " %19s", cell);
		}
		fputc('\n', f);
	}
}

/* The group whose figures move most between the winner and the runner-up. */
static const char *adv_deciding_group(const struct adv_rank *r, double *factor, size_t *other)
{
	const char *name = NULL;
	double best = 1;
	size_t o = 1;

	while (o < r->n && adv_tied(r, o))
		o++;
	if (o >= r->n)
		return NULL;
	*other = o;
	for (size_t g = 0; g < r->rows[0].ngroups; g++)
		for (size_t k = 0; k < r->rows[o].ngroups; k++) {
			const struct adv_group *a = &r->rows[0].groups[g],
			                       *b = &r->rows[o].groups[k];
			if (strcmp(a->name, b->name))
				continue;
			double ra =
			    a->read_mb_s > 0 && b->read_mb_s > 0 ? a->read_mb_s / b->read_mb_s : 1;
			double wa = a->write_mb_s > 0 && b->write_mb_s > 0
			                ? a->write_mb_s / b->write_mb_s
			                : 1;
			double m = fmax(fmax(ra, 1 / ra), fmax(wa, 1 / wa));
			if (m > best) {
				best = m;
				name = a->name;
			}
		}
	*factor = best;
	return name;
}

static const char *adv_policy(const struct sw_plan *pl, const struct sw_point *pt)
{
	const char *p = adv_axis(pl, pt, "write");

	return *p ? p : NULL;
}

/* Without TRIM: what the drives' state costs the answer's array, and what spare area gives back. */
static void adv_decay(FILE *f, const struct adv_rank *r)
{
	const struct adv_row *none = NULL, *most = NULL;
	char want[256], have[256];

	/* the best-ranked configuration measured as new, at the first spare area */
	for (size_t i = 0; i < r->n && !none; i++)
		if (r->rows[i].fresh_write_mb_s > 0 && r->rows[i].write_mb_s > 0 &&
		    r->rows[i].spare == r->a->spare[0])
			none = &r->rows[i];
	if (!none)
		return;
	adv_shape(r->pl, none->pt, r->lv, true, false, want, sizeof(want));
	for (size_t i = 0; i < r->n; i++) {
		const struct adv_row *w = &r->rows[i];
		adv_shape(r->pl, w->pt, r->lv, true, false, have, sizeof(have));
		if (!strcmp(want, have) && (!most || w->spare > most->spare))
			most = w;
	}
	fprintf(f,
	        "Without TRIM the drives decay: %s writes %.1f MB/s as new and %.1f MB/s in "
	        "their %s state (%+.0f %%)",
	        none->pt->label, none->fresh_write_mb_s, none->write_mb_s,
	        r->a->state == ADV_STATE_USED ? "used" : "steady",
	        100 * (none->write_mb_s / none->fresh_write_mb_s - 1));
	if (most && most != none)
		fprintf(
		    f,
		    "; with %u %% of each drive left unused it writes %.1f MB/s (%.0f GB usable)",
		    most->spare, most->write_mb_s, (double)most->pt->capacity / 1e9);
	fputs(".\n", f);
}

/* The short answer: the winner, the best that survives a failure, and what moves writes. */
static void adv_answer(FILE *f, const struct adv_rank *r)
{
	const struct adv_args *a = r->a;
	const struct adv_row *rows = r->rows, *best = &rows[0], *safe = NULL;
	double wmax[2] = {0, 0}, wlev[2] = {INFINITY, 0}, factor = 1;
	size_t other = 1;
	const char *tie = adv_tie_breaker(r), *grp = adv_deciding_group(r, &factor, &other);

	for (size_t i = 0; i < r->n; i++)
		if (rows[i].pt->survives > 0 && (!safe || rows[i].mb_s > safe->mb_s))
			safe = &rows[i];
	static const char *const gname[] = {"throughput", "p99 latency", "capacity", "safety"};
	fprintf(f, "\nAnswer (%s): %s, %.0f GB usable, survives %d failure%s, %.0f MB/s (%s).\n",
	        gname[a->goal], best->pt->label, (double)best->pt->capacity / 1e9,
	        best->pt->survives, best->pt->survives == 1 ? "" : "s", best->mb_s, best->basis);
	if (tie)
		fprintf(f, "It ties with %s within 2 %%; what broke the tie: %s.\n",
		        rows[1].pt->label, tie);
	if (grp)
		fprintf(f,
		        "Decided by: the %s tests, where %s and the next configuration that does "
		        "not tie with it, %s, differ most (%.2fx).\n",
		        grp, best->pt->label, rows[other].pt->label, factor);
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
		char reb[32], busy[32];
		adv_hours(reb, sizeof(reb), safe->rebuild_s);
		fprintf(f,
		        "With a member failed, %s runs at %.0f MB/s (%.0f %% of healthy); "
		        "rebuilding the member takes about %s",
		        safe->pt->label, safe->degraded_mb_s,
		        100 * safe->degraded_mb_s / safe->mb_s, reb);
		if (a->rebuild_share > 0 && safe->rebuild_s > 0) {
			adv_hours(busy, sizeof(busy), safe->rebuild_s / a->rebuild_share);
			fprintf(f,
			        ", about %s while users keep the array busy (the controller's "
			        "rebuild rate gives the rebuild %.0f %% of the members' time)",
			        busy, 100 * a->rebuild_share);
		}
		fputs(".\n", f);
	}
	adv_decay(f, r);
	/* writes: spread across write policies against spread across levels */
	for (size_t i = 0; i < r->n; i++) {
		const char *p = adv_policy(r->pl, rows[i].pt);
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

/* How sure: what the platform's validation set says of the model, and which rows it covers. */
static void adv_sureness(FILE *f, const struct adv_rank *r)
{
	const struct adv_args *a = r->a;
	struct json_object *failing = adv_get(r->sure, "failing");
	size_t v = 0, c = 0, nf = failing ? json_object_array_length(failing) : 0;

	for (size_t i = 0; i < r->n; i++) {
		v += !strcmp(r->rows[i].basis, "validated");
		c += !strcmp(r->rows[i].basis, "contradicted");
	}
	if (!v && !c) {
		fprintf(
		    f,
		    "How sure: no validation set measures %s%s%s in these configurations; every "
		    "figure is the model's extrapolation, untested against real hardware.\n",
		    a->drive, a->controller ? " behind " : "", a->controller ? a->controller : "");
		return;
	}
	if (!r->sure) {
		fprintf(
		    f,
		    "How sure: the validation set '%s' measured %zu of these configurations; its "
		    "findings were not checked ('raidlab validate %s' does).  The rest are the "
		    "model's extrapolation.\n",
		    a->platform, v + c, a->platform);
		return;
	}
	fprintf(f,
	        "How sure: the validation set '%s' measured %zu of these configurations; on "
	        "the model %lld of its %lld findings hold",
	        a->platform, v + c, (long long)json_object_get_int64(adv_get(r->sure, "held")),
	        (long long)json_object_get_int64(adv_get(r->sure, "total")));
	if (!nf && !json_object_get_boolean(adv_get(r->sure, "pass"))) {
		fprintf(f,
		        ", but the set does not pass (%s), so nothing here is backed by it; "
		        "'raidlab validate %s' gives the cells.\n",
		        json_object_get_string(adv_get(r->sure, "why")), a->platform);
		return;
	}
	if (!nf) {
		fputs(", so the rows marked validated are backed by it.  The rest are the model's "
		      "extrapolation.\n",
		      f);
		return;
	}
	fprintf(f, "; %zu fail%s (raidlab validate %s):\n", nf, nf == 1 ? "s" : "", a->platform);
	for (size_t i = 0; i < nf; i++)
		fprintf(f, "  - %s\n",
		        json_object_get_string(
		            adv_get(json_object_array_get_idx(failing, i), "finding")));
	fprintf(f,
	        "Rows of the configurations those findings are about are marked contradicted "
	        "(%zu here): the model disagrees with the published measurement there.  Rows "
	        "marked validated rest on findings that hold; the rest are extrapolated.\n",
	        c);
}

void adv_print(FILE *f, struct adv_rank *r, const char *header)
{
	fputs(header, f);
	if (r->partial)
		fputs("PARTIAL: the run was interrupted; the table holds only the configurations "
		      "measured, and there is no answer.\n\n",
		      f);
	if (!r->n)
		return;
	adv_table(f, r);
	adv_groups(f, r);
	if (r->partial)
		return;
	adv_answer(f, r);
	adv_sureness(f, r);
}

/* The answer and how sure it is, as adv_print writes them, for the documents. */
static struct json_object *adv_answer_text(struct adv_rank *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct json_object *s;

	if (!m)
		return NULL;
	if (r->n && !r->partial) {
		adv_answer(m, r);
		adv_sureness(m, r);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	s = json_object_new_string(buf[0] == '\n' ? buf + 1 : buf);
	free(buf);
	return s;
}

/* The sweep document of both plans (the rebuild points after the others), and the ranking. */
struct json_object *adv_doc(struct adv_rank *r, const char *header)
{
	struct json_object *doc = sw_plan_json(r->pl), *more = r->rb ? sw_plan_json(r->rb) : NULL;
	struct json_object *to, *from, *adv = json_object_new_object(), *ranking;

	json_object_object_get_ex(doc, "points", &to);
	if (more && json_object_object_get_ex(more, "points", &from))
		for (size_t i = 0; i < json_object_array_length(from); i++)
			json_object_array_add(to,
			                      json_object_get(json_object_array_get_idx(from, i)));
	ranking = json_object_new_array();
	for (size_t i = 0; i < r->n; i++) {
		const struct adv_row *w = &r->rows[i];
		struct json_object *o = json_object_new_object(), *g = json_object_new_array();
		json_object_object_add(o, "label", json_object_new_string(w->pt->label));
		json_object_object_add(o, "rank", json_object_new_int((int)i + 1));
		json_object_object_add(o, "tied_with_previous",
		                       json_object_new_boolean(i > 0 && adv_tied(r, i)));
		json_object_object_add(o, "mb_s", json_object_new_double(w->mb_s));
		json_object_object_add(o, "iops", json_object_new_double(w->iops));
		json_object_object_add(o, "p99_us", json_object_new_double(w->p99_us));
		json_object_object_add(o, "write_mb_s", json_object_new_double(w->write_mb_s));
		json_object_object_add(o, "degraded_mb_s",
		                       json_object_new_double(w->degraded_mb_s));
		json_object_object_add(o, "rebuild_s", json_object_new_double(w->rebuild_s));
		json_object_object_add(o, "spare_pct", json_object_new_int((int)w->spare));
		if (w->fresh_write_mb_s > 0)
			json_object_object_add(o, "fresh_write_mb_s",
			                       json_object_new_double(w->fresh_write_mb_s));
		json_object_object_add(o, "basis", json_object_new_string(w->basis));
		for (size_t k = 0; k < w->ngroups; k++) {
			struct json_object *x = json_object_new_object();
			json_object_object_add(x, "group",
			                       json_object_new_string(w->groups[k].name));
			json_object_object_add(x, "read_mb_s",
			                       json_object_new_double(w->groups[k].read_mb_s));
			json_object_object_add(x, "write_mb_s",
			                       json_object_new_double(w->groups[k].write_mb_s));
			json_object_array_add(g, x);
		}
		json_object_object_add(o, "groups", g);
		json_object_array_add(ranking, o);
	}
	json_object_object_add(adv, "partial", json_object_new_boolean(r->partial));
	json_object_object_add(adv, "state",
	                       json_object_new_string((const char *[]){"auto", "fresh", "used",
	                                                               "steady"}[r->a->state]));
	json_object_object_add(adv, "size_bytes", json_object_new_int64((int64_t)r->a->size));
	json_object_object_add(adv, "ranking", ranking);
	if (r->sure)
		json_object_object_add(adv, "validation", json_object_get(r->sure));
	json_object_object_add(adv, "header", json_object_new_string(header));
	json_object_object_add(adv, "answer", adv_answer_text(r));
	json_object_object_add(doc, "advise", adv);
	json_object_put(more);
	return doc;
}
