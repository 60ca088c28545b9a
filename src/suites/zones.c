/*
 * zones.c - transfer rate over position: the HD Tune / HD Tach curve.
 *
 * A span is cut into equal zones (aligned to the target's block size).  At
 * the start of each zone one short job transfers a sample sequentially -
 * the whole zone when the sample is at least the zone - and its throughput
 * becomes the curve's point at that position.  Zones run one after another,
 * so each point is the target's speed at that place alone, as the tools
 * measure it.  hdtune reads (or writes) samples; steady writes every zone
 * whole after its sustained random writes (the HD Tach write pass).
 *
 * The zones' statistics are also summed into one direction (ios, bytes,
 * latency histogram, summed runtime), so a sweep can stand as one pass in
 * the result; its series is left empty, the curve is the picture over
 * position.
 *
 * Over an MPI fleet every zone runs on all ranks at once and rank 0's curve
 * is the fleet's: the sum of the ranks' MB/s at each position
 * (suite_fleet_zone, suite_fleet.c).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "suites/suite.h"

void suite_curve_free(struct suite_curve *c)
{
	free(c->x_gb);
	free(c->mb_s);
	free(c->lat_us);
	suite_fleet_curve_free(c->fleet);
	memset(c, 0, sizeof(*c));
}

int suite_zone_sweep(struct suite_run *r, const char *name, enum rl_op op, uint64_t start,
                     uint64_t span, unsigned zones, uint32_t bs, uint32_t qd, uint64_t sample,
                     struct suite_curve *c, struct wl_dir_result *total, uint64_t *runtime_ns)
{
	uint64_t units = span / r->align;
	struct wl_result *res;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (total) {
		memset(total, 0, sizeof(*total));
		st_hist_init(&total->hist);
	}
	if (runtime_ns)
		*runtime_ns = 0;
	if (bs < r->align)
		bs = r->align;
	c->x_gb = calloc(zones, sizeof(double));
	c->mb_s = calloc(zones, sizeof(double));
	c->lat_us = calloc(zones, sizeof(double));
	res = malloc(sizeof(*res));
	if (!c->x_gb || !c->mb_s || !c->lat_us || !res) {
		free(res);
		suite_curve_free(c);
		return -ENOMEM;
	}
	for (unsigned z = 0; z < zones; z++) {
		uint64_t zs = start + units * z / zones * r->align;
		uint64_t ze = start + units * (z + 1) / zones * r->align;
		uint64_t n = (sample < ze - zs ? sample : ze - zs) / bs * bs;
		struct wl_job job;

		if (!n) {
			snprintf(r->msg, sizeof(r->msg),
			         "%s: zone %u of %u is %llu bytes, less than one %u-byte transfer: "
			         "use fewer --zones, a smaller --block or a larger span",
			         name, z + 1, zones, (unsigned long long)(ze - zs), bs);
			rc = -EINVAL;
			break;
		}
		wl_job_init(&job);
		snprintf(job.name, sizeof(job.name), "%s zone %u", name, z + 1);
		job.rw = op == RL_OP_WRITE ? WL_RW_WRITE : WL_RW_READ;
		job.bs = bs;
		job.iodepth = qd;
		job.offset = zs;
		job.size = n;
		r->cur_pass = z + 1;
		r->cur_passes = zones;
		r->cur_job = z;
		r->cur_njobs = zones;
		rc = suite_run_job(r, &job, res);
		if (rc)
			break;
		/* over a fleet rank 0's point is the fleet's (suite_fleet.c) */
		if (r->fleet)
			rc = suite_fleet_zone(r, &job, res, op, z, zones, c, total, runtime_ns);
		c->x_gb[z] = zs / 1e9;
		if (!rc && !c->fleet) {
			const struct wl_dir_result *d = &res->dir[op];
			c->mb_s[z] = res->runtime_ns ? d->bytes * 1e3 / (double)res->runtime_ns : 0;
			c->lat_us[z] = st_hist_mean(&d->hist) / 1e3;
			if (total) {
				total->ios += d->ios;
				total->bytes += d->bytes;
				st_hist_merge(&total->hist, &d->hist);
			}
			if (runtime_ns)
				*runtime_ns += res->runtime_ns;
		}
		wl_result_free(res);
		if (rc)
			break;
		c->n = z + 1;
	}
	free(res);
	if (rc) {
		suite_curve_free(c);
		return rc;
	}
	c->min = c->max = c->mb_s[0];
	c->avg = 0;
	for (unsigned z = 0; z < c->n; z++) {
		if (c->mb_s[z] < c->min)
			c->min = c->mb_s[z];
		if (c->mb_s[z] > c->max)
			c->max = c->mb_s[z];
		c->avg += c->mb_s[z] / c->n;
	}
	return 0;
}

struct json_object *suite_curve_json(const struct suite_curve *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "x_label", json_object_new_string("position_gb"));
	json_object_object_add(o, "x", suite_json_doubles(c->x_gb, c->n));
	json_object_object_add(o, "mb_s", suite_json_doubles(c->mb_s, c->n));
	json_object_object_add(o, "lat_us", suite_json_doubles(c->lat_us, c->n));
	return o;
}

void suite_sweep_json(const struct suite_run *r, struct json_object *obj, const char *key,
                      const struct suite_curve *c, const struct wl_dir_result *total,
                      uint64_t runtime_ns)
{
	struct suite_figure f = {
	    .mb_s = c->avg,
	    .iops = c->fleet     ? suite_fleet_sweep_iops(c)
	            : runtime_ns ? total->ios * 1e9 / (double)runtime_ns
	                         : 0,
	    .lat_mean_us = st_hist_mean(&total->hist) / 1e3,
	    .lat_p99_us = total->hist.count ? st_hist_percentile(&total->hist, 99) / 1e3 : 0,
	};
	struct json_object *d = suite_figure_json(&f);
	struct json_object *passes = json_object_new_array();
	struct json_object *pass = st_result_dir(total, runtime_ns);

	json_object_array_add(passes, pass);
	json_object_object_add(d, "passes", passes);
	json_object_object_add(obj, key, d);
	json_object_object_add(obj, "min_mb_s", json_object_new_double(c->min));
	json_object_object_add(obj, "max_mb_s", json_object_new_double(c->max));
	json_object_object_add(obj, "curve", suite_curve_json(c));
	if (c->fleet)
		suite_fleet_sweep_json(r, c, obj, d, pass);
}
