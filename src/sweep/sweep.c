/*
 * sweep.c - the sweep's plan, result store and run (sweep.h).
 *
 * The plan is a flat array of points, targets outer and workloads inner,
 * so the output keeps the order the user wrote.  Checking a spec opens it
 * with the same build context a run uses but without write intent, then
 * closes it: nothing is created or written.  The pool is the suite
 * runner's; this file only builds the requests and takes each result as
 * the pool collects it (the done callback), writing it to the store
 * straight away: the store is what survives an interruption.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/datadir.h"
#include "core/registry.h"
#include "suites/runner.h"
#include "sweep/expand.h"
#include "sweep/sweep.h"
#include "workload/run.h"

#ifndef RL_VERSION
#define RL_VERSION "0.0.0"
#endif

#define SW_FNV_OFFSET 0xcbf29ce484222325ull
#define SW_FNV_PRIME  0x100000001b3ull

static uint64_t sw_fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * SW_FNV_PRIME;
	return h;
}

uint64_t sw_content_hash(const void *data, size_t len)
{
	return sw_fnv(SW_FNV_OFFSET, data, len);
}

static uint64_t sw_fnv_str(uint64_t h, const char *s)
{
	return sw_fnv(h, s, strlen(s) + 1); /* the NUL separates fields */
}

/* raidlab's version and every profile file it can see (name and contents). */
static uint64_t sw_salt(void)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	size_t nd = rl_data_dirs("profiles", "RAIDLAB_PROFILES", dirs);
	uint64_t h = sw_fnv_str(SW_FNV_OFFSET, "raidlab " RL_VERSION);

	for (size_t d = 0; d < nd; d++) {
		char **names = NULL;
		size_t n = rl_data_list(dirs[d], "", &names);
		h = sw_fnv_str(h, dirs[d]);
		for (size_t i = 0; i < n; i++) {
			char path[PATH_MAX + 256], buf[65536];
			FILE *f;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], names[i]);
			h = sw_fnv_str(h, names[i]);
			if ((f = fopen(path, "rb"))) {
				size_t got;
				while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
					h = sw_fnv(h, buf, got);
				fclose(f);
			}
			free(names[i]);
		}
		free(names);
	}
	return h;
}

static void sw_point_key(const struct sw_plan *pl, struct sw_point *pt)
{
	const struct sw_workload *w = &pl->wl[pt->workload];
	struct json_object *params = suite_params_json(w->def, &w->p);
	uint64_t h = sw_fnv(SW_FNV_OFFSET, &pl->salt, sizeof(pl->salt));

	h = sw_fnv_str(h, pt->spec);
	if (w->kind == SW_WORKLOAD_SUITE)
		h = sw_fnv_str(h, w->name);
	h = sw_fnv_str(h, json_object_to_json_string_ext(params, JSON_C_TO_STRING_PLAIN));
	if (w->kind != SW_WORKLOAD_SUITE) /* a file: what it holds, not what it is called */
		h = sw_fnv(h, &w->content, sizeof(w->content));
	json_object_put(params);
	snprintf(pt->key, sizeof(pt->key), "%016llx", (unsigned long long)h);
}

/* The plan axis named @name, added if new; its index, or SIZE_MAX when out of memory. */
static size_t sw_axis(struct sw_plan *pl, const char *name)
{
	char **a;

	for (size_t i = 0; i < pl->naxes; i++)
		if (!strcmp(pl->axes[i], name))
			return i;
	a = realloc(pl->axes, (pl->naxes + 1) * sizeof(*a));
	if (!a)
		return SIZE_MAX;
	pl->axes = a;
	if (!(a[pl->naxes] = strdup(name)))
		return SIZE_MAX;
	return pl->naxes++;
}

/* "raid0 x4 chunk=64k": the values of the axes the point is on; the spec without axes. */
static char *sw_label(const struct sw_plan *pl, const struct sw_point *pt)
{
	char buf[1024] = "";
	size_t len = 0;

	for (size_t a = 0; a < pl->naxes; a++) {
		const char *v = pt->values[a], *name = pl->axes[a];
		if (!v || len >= sizeof(buf) - 1)
			continue;
		if (!strcmp(name, "level") || !strncmp(name, "alt", 3))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
			                        len ? " " : "", v);
		else if (!strcmp(name, "count"))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%sx%s",
			                        len ? " " : "", v);
		else
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s=%s",
			                        len ? " " : "", name, v);
	}
	return strdup(len ? buf : pt->spec);
}

/* Labels must name one configuration each: a repeated one gets the spec instead. */
static int sw_labels_unique(struct sw_plan *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		for (size_t k = 0; k < i; k++) {
			if (strcmp(pl->pts[i].label, pl->pts[k].label) ||
			    !strcmp(pl->pts[i].spec, pl->pts[k].spec))
				continue;
			free(pl->pts[i].label);
			if (!(pl->pts[i].label = strdup(pl->pts[i].spec)))
				return -ENOMEM;
			break;
		}
	return 0;
}

/* The points of one expansion of target @t, one per workload. */
static int sw_plan_add(struct sw_plan *pl, size_t t, const struct sw_expansion *x,
                       const size_t *axis_of)
{
	for (size_t i = 0; i < x->n; i++)
		for (size_t w = 0; w < pl->nwl; w++) {
			struct sw_point *pt = &pl->pts[pl->n];
			pt->spec = strdup(x->items[i].text);
			pt->values = calloc(pl->naxes ? pl->naxes : 1, sizeof(char *));
			if (!pt->spec || !pt->values) {
				pl->n++;
				return -ENOMEM;
			}
			pl->n++;
			pt->target = t;
			pt->workload = w;
			for (size_t a = 0; a < x->naxes; a++)
				if (x->items[i].values[a] &&
				    !(pt->values[axis_of[a]] = strdup(x->items[i].values[a])))
					return -ENOMEM;
			sw_point_key(pl, pt);
		}
	return 0;
}

int sw_plan_build(struct sw_plan *pl, const char *const *targets, size_t ntargets,
                  const struct sw_workload *wl, size_t nwl, struct rl_err *err, size_t *bad)
{
	struct sw_expansion *x = calloc(ntargets ? ntargets : 1, sizeof(*x));
	size_t total = 0;
	int rc = 0;

	memset(pl, 0, sizeof(*pl));
	pl->timeout_s = SW_TIMEOUT_AUTO;
	pl->wl = wl;
	pl->nwl = nwl;
	pl->salt = sw_salt();
	if (!x)
		return -ENOMEM;
	for (size_t t = 0; t < ntargets && !rc; t++) {
		rc = sw_expand(targets[t], &x[t], err);
		if (rc)
			*bad = t;
		for (size_t a = 0; !rc && a < x[t].naxes; a++)
			if (sw_axis(pl, x[t].axes[a]) == SIZE_MAX)
				rc = -ENOMEM;
		total += x[t].n * nwl;
	}
	if (!rc && !(pl->pts = calloc(total ? total : 1, sizeof(*pl->pts))))
		rc = -ENOMEM;
	for (size_t t = 0; t < ntargets && !rc; t++) {
		size_t axis_of[64 * SW_EXPAND_DEPTH];
		if (x[t].naxes > sizeof(axis_of) / sizeof(axis_of[0])) {
			*bad = t;
			rc = rl_err_set(err, SIZE_MAX, "too many groups of alternatives");
			break;
		}
		for (size_t a = 0; a < x[t].naxes; a++)
			axis_of[a] = sw_axis(pl, x[t].axes[a]);
		rc = sw_plan_add(pl, t, &x[t], axis_of);
	}
	for (size_t i = 0; i < pl->n && !rc; i++)
		if (!(pl->pts[i].label = sw_label(pl, &pl->pts[i])))
			rc = -ENOMEM;
	if (!rc)
		rc = sw_labels_unique(pl);
	for (size_t t = 0; t < ntargets; t++)
		sw_expansion_free(&x[t]);
	free(x);
	if (rc == -ENOMEM)
		rl_err_set(err, SIZE_MAX, "out of memory");
	return rc;
}

void sw_plan_check(struct sw_plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		struct rl_build_ctx ctx;
		struct rl_target *t = NULL;
		struct rl_err err = {0};
		const struct sw_point *same = NULL;

		if (pt->state != SW_PENDING)
			continue;
		for (size_t k = 0; k < i && !same; k++) /* the same spec, another workload */
			if (!strcmp(pl->pts[k].spec, pt->spec))
				same = &pl->pts[k];
		if (same) {
			if (same->state == SW_SKIPPED) {
				pt->state = SW_SKIPPED;
				memcpy(pt->reason, same->reason, sizeof(pt->reason));
			}
			continue;
		}
		rl_build_ctx_init(&ctx);
		ctx.quiet = true;
		if (rl_target_open(pt->spec, &ctx, &t, &err)) {
			pt->state = SW_SKIPPED;
			snprintf(pt->reason, sizeof(pt->reason), "%s", err.msg);
			continue;
		}
		if (pl->simulated_only && !(rl_target_leaf_caps(t) & RL_CAP_VIRTUAL)) {
			pt->state = SW_SKIPPED;
			snprintf(pt->reason, sizeof(pt->reason), "not a simulated stack");
		}
		rl_target_close(t);
	}
}

/* --- the point's figures from its result --- */

static struct json_object *sw_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

int sw_tree_survives(struct json_object *tree)
{
	const char *type = json_object_get_string(sw_get(tree, "type"));
	struct json_object *kids = sw_get(tree, "children");
	size_t n = kids ? json_object_array_length(kids) : 0;
	int least = -1, own = 0;

	for (size_t i = 0; i < n; i++) {
		int s = sw_tree_survives(json_object_array_get_idx(kids, i));
		least = least < 0 || s < least ? s : least;
	}
	if (least < 0)
		least = 0;
	if (!type)
		return least;
	if (!strcmp(type, "raid1"))
		own = n ? (int)n - 1 : 0;
	else if (!strcmp(type, "raid10"))
		own = json_object_get_int(sw_get(tree, "copies")) - 1;
	else if (!strcmp(type, "raid5"))
		own = 1;
	else if (!strcmp(type, "raid6"))
		own = 2;
	return own > 0 ? own + least : least;
}

static void sw_point_take(struct sw_point *pt, struct json_object *result, enum sw_state st)
{
	struct json_object *target = sw_get(result, "target");

	pt->result = result;
	pt->state = st;
	pt->capacity = (uint64_t)json_object_get_int64(sw_get(target, "size_bytes"));
	pt->survives = sw_tree_survives(sw_get(target, "tree"));
}

/* --- the store --- */

static void sw_store_path(const struct sw_plan *pl, const struct sw_point *pt, char *buf,
                          size_t len)
{
	snprintf(buf, len, "%s/%s.json", pl->store, pt->key);
}

double sw_timeout(const struct sw_plan *pl, double slowest)
{
	if (pl->timeout_s != SW_TIMEOUT_AUTO)
		return pl->timeout_s > 0 ? pl->timeout_s : 0;
	if (slowest <= 0)
		return SW_TIMEOUT_FIRST;
	return slowest * SW_TIMEOUT_TIMES > SW_TIMEOUT_MIN ? slowest * SW_TIMEOUT_TIMES
	                                                   : SW_TIMEOUT_MIN;
}

/* A stored timeout: failed again, unless the limit now is none or larger. */
static void sw_point_timed_out(const struct sw_plan *pl, struct sw_point *pt, double was)
{
	if (pl->timeout_s == 0 || pl->timeout_s > was)
		return; /* asked for: run it again */
	pt->state = SW_FAILED;
	snprintf(pt->reason, sizeof(pt->reason),
	         "timed out after %g s in an earlier run; not run again (--timeout above %g, "
	         "or 0 for no limit, runs it)",
	         was, was);
}

size_t sw_plan_load(struct sw_plan *pl)
{
	size_t found = 0;

	for (size_t i = 0; pl->store && i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		struct json_object *doc, *res;
		char path[PATH_MAX];

		if (pt->state != SW_PENDING)
			continue;
		sw_store_path(pl, pt, path, sizeof(path));
		if (access(path, R_OK) || !(doc = json_object_from_file(path)))
			continue;
		res = sw_get(doc, "result");
		if (strcmp(json_object_get_string(sw_get(doc, "key")), pt->key)) {
			json_object_put(doc);
			continue;
		}
		if (res && !sw_get(res, "interrupted")) {
			sw_point_take(pt, json_object_get(res), SW_STORED);
			pt->wall_s = json_object_get_double(sw_get(doc, "wall_s"));
			found++;
		} else if (!res && sw_get(doc, "timed_out_after_s")) {
			sw_point_timed_out(
			    pl, pt, json_object_get_double(sw_get(doc, "timed_out_after_s")));
		}
		json_object_put(doc);
	}
	return found;
}

/*
 * Write a point's result to the store, or that it timed out after
 * @timed_out seconds (> 0): a temporary file renamed into place.
 */
static int sw_store_write(const struct sw_plan *pl, const struct sw_point *pt, double timed_out)
{
	struct json_object *doc = json_object_new_object();
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	int rc;

	json_object_object_add(doc, "key", json_object_new_string(pt->key));
	json_object_object_add(doc, "spec", json_object_new_string(pt->spec));
	json_object_object_add(doc, "workload", json_object_new_string(pl->wl[pt->workload].name));
	if (timed_out > 0)
		json_object_object_add(doc, "timed_out_after_s", json_object_new_double(timed_out));
	else
		json_object_object_add(doc, "result", json_object_get(pt->result));
	json_object_object_add(doc, "wall_s", json_object_new_double(pt->wall_s));
	sw_store_path(pl, pt, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	rc = json_object_to_file_ext(tmp, doc, JSON_C_TO_STRING_PLAIN) ? -EIO : 0;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	json_object_put(doc);
	return rc;
}

/* --- the run --- */

struct sw_run {
	struct sw_plan *pl;
	struct suite_request *rq;
	size_t n;
	double *slowest; /* per workload: its slowest finished point, seconds */
	size_t *idx;     /* request -> point */
	struct suite_pool_result *res;
	sw_progress_fn fn;
	void *arg;
	struct timespec t0;
};

static double sw_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The limits of the requests of workload @w, after one of its points finished. */
static void sw_run_limits(struct sw_run *r, size_t w)
{
	for (size_t k = 0; k < r->n; k++)
		if (r->pl->pts[r->idx[k]].workload == w)
			r->rq[k].timeout_s = sw_timeout(r->pl, r->slowest[w]);
}

static void sw_collected(void *arg, size_t index, size_t done, size_t total)
{
	struct sw_run *r = arg;
	struct sw_point *pt = &r->pl->pts[r->idx[index]];
	struct suite_pool_result *res = &r->res[index];

	pt->wall_s = res->wall_s;
	if (res->timed_out && r->pl->store && sw_store_write(r->pl, pt, r->rq[index].timeout_s))
		fprintf(stderr, "raidlab sweep: warning: cannot write %s/%s.json\n", r->pl->store,
		        pt->key);
	if (res->doc && res->wall_s > r->slowest[pt->workload]) {
		r->slowest[pt->workload] = res->wall_s;
		sw_run_limits(r, pt->workload);
	}

	if (res->doc && sw_get(res->doc, "interrupted")) {
		json_object_put(res->doc);
		res->doc = NULL;
		snprintf(res->error, sizeof(res->error), "interrupted");
	}
	if (res->doc) {
		sw_point_take(pt, res->doc, SW_RAN);
		res->doc = NULL;
		if (r->pl->store && sw_store_write(r->pl, pt, 0))
			fprintf(stderr, "raidlab sweep: warning: cannot write %s/%s.json\n",
			        r->pl->store, pt->key);
	} else {
		pt->state = SW_FAILED;
		snprintf(pt->reason, sizeof(pt->reason), "%s", res->error);
	}
	if (r->fn)
		r->fn(r->arg, pt, done, total, sw_since(&r->t0));
}

int sw_plan_run(struct sw_plan *pl, unsigned par, sw_progress_fn fn, void *arg)
{
	size_t n = sw_plan_count(pl, SW_PENDING), k = 0;
	struct suite_request *rq = calloc(n ? n : 1, sizeof(*rq));
	struct sw_run r = {.pl = pl, .fn = fn, .arg = arg};
	int rc;

	r.idx = calloc(n ? n : 1, sizeof(*r.idx));
	r.res = calloc(n ? n : 1, sizeof(*r.res));
	r.slowest = calloc(pl->nwl ? pl->nwl : 1, sizeof(*r.slowest));
	r.rq = rq;
	r.n = n;
	if (!rq || !r.idx || !r.res || !r.slowest) {
		free(rq);
		free(r.idx);
		free(r.res);
		free(r.slowest);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pl->n; i++) /* what the store says the points took */
		if (pl->pts[i].result && pl->pts[i].wall_s > r.slowest[pl->pts[i].workload])
			r.slowest[pl->pts[i].workload] = pl->pts[i].wall_s;
	for (size_t i = 0; i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		const struct sw_workload *w = &pl->wl[pt->workload];
		if (pt->state != SW_PENDING)
			continue;
		rq[k].def = w->def;
		rq[k].p = w->p;
		rq[k].spec = pt->spec;
		rq[k].label = pt->label;
		rq[k].simulated_only = pl->simulated_only;
		rl_build_ctx_init(&rq[k].ctx);
		rq[k].ctx.quiet = true;
		rq[k].timeout_s = sw_timeout(pl, r.slowest[pt->workload]);
		r.idx[k++] = i;
	}
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	rc = suite_pool_run(rq, n, par, r.res, sw_collected, &r);
	for (size_t i = 0; i < n; i++) {
		struct sw_point *pt = &pl->pts[r.idx[i]];
		json_object_put(r.res[i].doc);
		if (pt->state == SW_PENDING) { /* never collected */
			pt->state = SW_FAILED;
			snprintf(pt->reason, sizeof(pt->reason), "%s",
			         r.res[i].error[0] ? r.res[i].error : "not run");
		}
	}
	free(rq);
	free(r.idx);
	free(r.res);
	free(r.slowest);
	return rc == -EIO ? 0 : rc;
}

size_t sw_plan_count(const struct sw_plan *pl, enum sw_state st)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->n; i++)
		n += pl->pts[i].state == st;
	return n;
}

/* --- output --- */

static struct json_object *sw_axes_json(const struct sw_plan *pl, const struct sw_point *pt)
{
	struct json_object *o = json_object_new_object();

	for (size_t a = 0; a < pl->naxes; a++)
		if (pt->values[a])
			json_object_object_add(o, pl->axes[a],
			                       json_object_new_string(pt->values[a]));
	return o;
}

static struct json_object *sw_point_json(const struct sw_plan *pl, const struct sw_point *pt)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "label", json_object_new_string(pt->label));
	json_object_object_add(o, "spec", json_object_new_string(pt->spec));
	json_object_object_add(o, "workload", json_object_new_string(pl->wl[pt->workload].name));
	json_object_object_add(o, "axes", sw_axes_json(pl, pt));
	json_object_object_add(o, "key", json_object_new_string(pt->key));
	if (pt->result) {
		json_object_object_add(o, "capacity_bytes",
		                       json_object_new_int64((int64_t)pt->capacity));
		json_object_object_add(o, "failures_survived", json_object_new_int(pt->survives));
		json_object_object_add(o, "stored",
		                       json_object_new_boolean(pt->state == SW_STORED));
		json_object_object_add(o, "result", json_object_get(pt->result));
	} else {
		json_object_object_add(o, "reason", json_object_new_string(pt->reason));
	}
	return o;
}

struct json_object *sw_plan_json(const struct sw_plan *pl)
{
	struct json_object *doc = json_object_new_object(), *axes = json_object_new_array();
	struct json_object *pts = json_object_new_array(), *skipped = json_object_new_array();
	struct json_object *failed = json_object_new_array(), *wls = json_object_new_array();

	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "kind", json_object_new_string("sweep"));
	json_object_object_add(doc, "tool", json_object_new_string("raidlab " RL_VERSION));
	for (size_t a = 0; a < pl->naxes; a++)
		json_object_array_add(axes, json_object_new_string(pl->axes[a]));
	for (size_t w = 0; w < pl->nwl; w++)
		json_object_array_add(wls, json_object_new_string(pl->wl[w].name));
	for (size_t i = 0; i < pl->n; i++) {
		const struct sw_point *pt = &pl->pts[i];
		struct json_object *into = pt->result                ? pts
		                           : pt->state == SW_SKIPPED ? skipped
		                                                     : failed;
		json_object_array_add(into, sw_point_json(pl, pt));
	}
	json_object_object_add(doc, "axes", axes);
	json_object_object_add(doc, "workloads", wls);
	json_object_object_add(doc, "points", pts);
	json_object_object_add(doc, "skipped", skipped);
	json_object_object_add(doc, "failed", failed);
	return doc;
}

static void sw_csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void sw_csv_dir(FILE *f, const struct sw_plan *pl, const struct sw_point *pt,
                       const char *test, const char *dir, struct json_object *d)
{
	struct json_object *lat = sw_get(d, "lat_us");

	for (size_t a = 0; a < pl->naxes; a++) {
		sw_csv_field(f, pt->values[a]);
		fputc(',', f);
	}
	sw_csv_field(f, pt->label);
	fputc(',', f);
	sw_csv_field(f, pt->spec);
	fputc(',', f);
	sw_csv_field(f, pl->wl[pt->workload].name);
	fprintf(f, ",%llu,%d,", (unsigned long long)pt->capacity, pt->survives);
	sw_csv_field(f, test);
	fprintf(f, ",%s,%.6g,%.6g,%.6g,", dir, json_object_get_double(sw_get(d, "mb_s")),
	        json_object_get_double(sw_get(d, "iops")),
	        json_object_get_double(sw_get(lat, "mean")));
	if (sw_get(lat, "p99"))
		fprintf(f, "%.6g", json_object_get_double(sw_get(lat, "p99")));
	fputc('\n', f);
}

void sw_plan_csv(const struct sw_plan *pl, FILE *f)
{
	static const char *const dirs[] = {"read", "write", "mix"};

	for (size_t a = 0; a < pl->naxes; a++) {
		sw_csv_field(f, pl->axes[a]);
		fputc(',', f);
	}
	fputs("label,spec,workload,capacity_bytes,failures_survived,test,direction,mb_s,iops,"
	      "lat_mean_us,lat_p99_us\n",
	      f);
	for (size_t i = 0; i < pl->n; i++) {
		const struct sw_point *pt = &pl->pts[i];
		struct json_object *tests = sw_get(pt->result, "tests");
		for (size_t t = 0; tests && t < json_object_array_length(tests); t++) {
			struct json_object *test = json_object_array_get_idx(tests, t);
			for (size_t d = 0; d < 3; d++)
				if (sw_get(test, dirs[d]))
					sw_csv_dir(f, pl, pt,
					           json_object_get_string(sw_get(test, "name")),
					           dirs[d], sw_get(test, dirs[d]));
		}
	}
}

void sw_plan_free(struct sw_plan *pl)
{
	for (size_t i = 0; i < pl->n; i++) {
		struct sw_point *pt = &pl->pts[i];
		for (size_t a = 0; pt->values && a < pl->naxes; a++)
			free(pt->values[a]);
		free(pt->values);
		free(pt->spec);
		free(pt->label);
		json_object_put(pt->result);
	}
	free(pl->pts);
	for (size_t a = 0; a < pl->naxes; a++)
		free(pl->axes[a]);
	free(pl->axes);
	memset(pl, 0, sizeof(*pl));
}
