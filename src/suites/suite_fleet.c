/*
 * suite_fleet.c - a suite on every rank of an MPI job at once
 * (`mpirun -n N raidlab run cdm --target 'file(/scratch/rl.$rank)'`).
 *
 * Every rank runs the same suite on its own target, in lockstep
 * (fleet_step, suites/fleet.h): before each job the ranks agree they are
 * at the same job, then meet at a barrier and start together, and with
 * --fleet-stonewall the first to finish stops the others.  After each
 * measured pass every rank hands its result to rank 0, which makes the
 * pass's figure the aggregate over the ranks:
 *   - MB/s and IOPS are the sums of the ranks' own figures (each its bytes
 *     and I/Os over its own runtime), as the fleet of `raidlab run` sums;
 *   - latencies (mean, p99, the percentiles of the pass object) come from
 *     the ranks' histograms merged bucket by bucket, never averaged;
 *   - the pass object lists each rank's own pass (host, target, whether a
 *     stonewall stopped it).
 * The suite's rule then makes the test's figure from the aggregated passes
 * (CrystalDiskMark's best pass is the fleet's best pass: passes of
 * different ranks that did not run at the same time are never added), and
 * each direction gets a "fleet" object: each rank's figure by the same
 * rule over its own passes, and the slowest and fastest rank by MB/s.
 * What a suite derives from its figures (AS SSD's score and access time)
 * comes from the aggregate the same way.  Warm-up passes and the filling
 * of the test area run in lockstep but are not gathered.
 *
 * Suites whose figures are one drive's own (a transfer-rate curve over
 * its LBAs, a time to steady state) say why in suite_def.no_fleet and are
 * refused by the command line.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/fleet.h"
#include "suites/suite.h"

int suite_fleet_run_job(struct suite_run *r, struct wl_job *j, struct wl_run_opts *opts,
                        struct wl_result *res)
{
	struct fleet *f = r->fleet;
	int rc = fleet_step(f, FLEET_STEP_RUN, j->name, NULL, NULL, r->msg, sizeof(r->msg));

	if (rc)
		return rc;
	if ((rc = fleet_offsets(f, j, 1, r->msg, sizeof(r->msg))))
		return rc;
	/* the wave is the step's number: it never repeats, also over several targets,
	   so a late stonewall of an earlier job cannot stop this one */
	if (fleet_wave_begin(f, f->step, opts)) {
		snprintf(r->msg, sizeof(r->msg), "rank %d: the ranks could not meet before '%s'",
		         f->rank, j->name);
		return -EIO;
	}
	rc = wl_run_job(r->t, j, opts, res, r->msg, sizeof(r->msg));
	/* a stonewall's stop is the fleet's, not the user's: the suite goes on */
	if (fleet_wave_end(f, opts) && !f->signalled)
		wl_run_clear_stop();
	return rc;
}

/* Rank 0 gathers the figures; the other ranks' documents are not written. */
static bool suite_fleet_reports(const struct suite_run *r)
{
	return r->fleet && r->fleet->rank == 0;
}

int suite_fleet_meas_start(struct suite_run *r, struct suite_meas *m, unsigned passes)
{
	if (!suite_fleet_reports(r))
		return 0;
	(void)passes; /* (suite_measure caps them at SUITE_PASSES_MAX) */
	m->rank_fig = calloc((size_t)SUITE_VIEWS * (size_t)r->fleet->size * SUITE_PASSES_MAX,
	                     sizeof(*m->rank_fig));
	return m->rank_fig ? 0 : -ENOMEM;
}

/* Rank @rank's figure of pass @pass in view @v. */
static struct suite_figure *suite_fleet_fig(const struct suite_run *r, const struct suite_meas *m,
                                            int v, int rank, unsigned pass)
{
	return &m->rank_fig[((size_t)v * (size_t)r->fleet->size + (size_t)rank) * SUITE_PASSES_MAX +
	                    pass];
}

/* One rank's pass object: its own direction figures, who it is. */
static struct json_object *suite_fleet_rank_pass(const struct fleet_rank *fr, int v)
{
	struct json_object *o = suite_pass_json(&fr->res, (enum suite_dir)v);

	json_object_object_del(o, "series"); /* not gathered */
	json_object_object_add(o, "rank", json_object_new_int(fr->rank));
	json_object_object_add(o, "host", json_object_new_string(fr->host));
	json_object_object_add(o, "target", json_object_new_string(fr->spec));
	json_object_object_add(o, "stopped_by_stonewall", json_object_new_boolean(fr->stopped));
	return o;
}

/* View @v of the gathered pass: each rank's figure, the aggregate into m (pass m->n). */
static void suite_fleet_view(struct suite_run *r, struct suite_meas *m, int v)
{
	const struct fleet_job *j = &r->fleet->jobs[0];
	struct json_object *ranks = json_object_new_array(), *o;
	struct suite_figure sum = {0}, agg;

	for (int k = 0; k < r->fleet->size; k++) {
		struct suite_figure *f = suite_fleet_fig(r, m, v, k, m->n);
		suite_figure_of(&j->ranks[k].res, (enum suite_dir)v, f);
		sum.mb_s += f->mb_s;
		sum.iops += f->iops;
		json_object_array_add(ranks, suite_fleet_rank_pass(&j->ranks[k], v));
	}
	suite_figure_of(&j->merged, (enum suite_dir)v, &agg); /* latency: merged histograms */
	agg.mb_s = sum.mb_s;
	agg.iops = sum.iops;
	m->fig[v][m->n] = agg;
	o = suite_pass_json(&j->merged, (enum suite_dir)v);
	json_object_object_del(o, "series");
	json_object_object_add(o, "mb_s", json_object_new_double(sum.mb_s));
	json_object_object_add(o, "mib_s", json_object_new_double(sum.mb_s * 1e6 / 1048576.0));
	json_object_object_add(o, "iops", json_object_new_double(sum.iops));
	json_object_object_add(o, "ranks_stopped_by_stonewall",
	                       json_object_new_int((int)j->nstopped));
	json_object_object_add(o, "ranks", ranks);
	json_object_array_add(m->passes[v], o);
}

int suite_fleet_pass(struct suite_run *r, const struct wl_job *job, const struct wl_result *res,
                     struct suite_meas *m)
{
	int rc =
	    fleet_step(r->fleet, FLEET_STEP_RESULT, job->name, res, NULL, r->msg, sizeof(r->msg));

	if (rc || !suite_fleet_reports(r))
		return rc;
	for (int v = 0; v < SUITE_VIEWS; v++)
		if (m->views & SUITE_VIEW(v))
			suite_fleet_view(r, m, v);
	return 0;
}

int suite_fleet_end(struct suite_run *r, int rc)
{
	struct fleet *f = r->fleet;
	char msg[sizeof(r->msg)];

	if (rc) { /* the others hear why (a stop that came from them: nothing more is said) */
		fleet_step(f, FLEET_STEP_FAIL, NULL, NULL, r->msg, msg, sizeof(msg));
		return rc;
	}
	rc = fleet_step(f, FLEET_STEP_END, NULL, NULL, NULL, r->msg, sizeof(r->msg));
	if (rc || f->rank > 0)
		return rc;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "ranks", json_object_new_int(f->size));
	json_object_object_add(o, "stonewall", json_object_new_boolean(f->stonewall));
	json_object_object_add(o, "offset_per_rank",
	                       json_object_new_int64((int64_t)f->offset_per_rank));
	json_object_object_add(r->doc, "fleet", o);
	return 0;
}

void suite_fleet_fail(struct fleet *f, const char *why)
{
	char msg[64];

	if (f)
		fleet_step(f, FLEET_STEP_FAIL, NULL, NULL, why, msg, sizeof(msg));
}

void suite_fleet_meas_end(struct suite_run *r, struct suite_meas *m, enum suite_agg rule,
                          uint32_t bs)
{
	const struct fleet_job *j = &r->fleet->jobs[0];

	for (int v = 0; v < SUITE_VIEWS && m->n; v++) {
		struct json_object *o, *ranks;
		struct suite_figure f, pass[SUITE_PASSES_MAX];
		int slow = 0, fast = 0;
		double lo = 0, hi = 0;
		if (!(m->views & SUITE_VIEW(v)))
			continue;
		o = json_object_new_object();
		ranks = json_object_new_array();
		for (int k = 0; k < r->fleet->size; k++) {
			for (unsigned p = 0; p < m->n; p++)
				pass[p] = *suite_fleet_fig(r, m, v, k, p);
			suite_aggregate(rule, pass, m->n, bs, &f);
			struct json_object *fo = suite_figure_json(&f);
			json_object_object_add(fo, "rank", json_object_new_int(k));
			json_object_object_add(fo, "host",
			                       json_object_new_string(j->ranks[k].host));
			json_object_object_add(fo, "target",
			                       json_object_new_string(j->ranks[k].spec));
			json_object_array_add(ranks, fo);
			if (!k || f.mb_s < lo) {
				lo = f.mb_s;
				slow = k;
			}
			if (!k || f.mb_s > hi) {
				hi = f.mb_s;
				fast = k;
			}
		}
		json_object_object_add(o, "slowest_rank", json_object_new_int(slow));
		json_object_object_add(o, "fastest_rank", json_object_new_int(fast));
		json_object_object_add(o, "ranks", ranks);
		m->fleet[v] = o;
	}
	free(m->rank_fig);
	m->rank_fig = NULL;
}
