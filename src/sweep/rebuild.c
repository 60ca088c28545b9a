/*
 * rebuild.c - the rebuild of a member as a sweep workload: how long an
 * array takes to get its redundancy back after a member was replaced.
 *
 * Design: like a job file (workload.c), the rebuild becomes a suite made at
 * run time, so the pool, the store, the timeout and every output take it
 * unchanged.  Its run function finds the array in the point's stack (the
 * first raid node from the top: under a controller, the array behind it),
 * and rebuilds member 0 (the spec fails it: failed=0) with raidlab's own
 * walk, raid_rebuild(): read a surviving copy (mirrors) or the rest of the
 * stripe (parity), write the member, one unit at a time, no other I/O, on
 * the simulated clock.  A whole 500 GB member costs seconds of CPU per
 * point, so only the member's last slice is walked (the walk's resume point
 * skips the rest, as md's recovery offset does), and the whole member's
 * time is estimated from it: the slice's time plus the rest at the rate of
 * the slice's second half.  The replacement drive is fresh, so its first
 * writes land in its SLC cache and write buffer; the slice is
 * SW_REBUILD_CACHES times the member drive's caches (at least
 * SW_REBUILD_SLICE), so its second half runs at the rate the drive keeps
 * once they are full, and that rate carries the rest of the member.  Where the walk cannot say
 * where its half is (a layout whose member offsets jump), the estimate is
 * the slice's rate over the whole member.
 *
 * What this does not model: a controller's or md's rebuild-rate setting
 * and I/O from users during the rebuild (both make a real rebuild slower),
 * and data on the surviving members (fresh simulated drives read unwritten
 * blocks without the NAND).  The result's "rebuild" object says so.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "core/exec.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/rebuild.h"
#include "sweep/sweep.h"

#define SW_REBUILD_UNIT (1ull << 20)

static const char sw_rebuild_method[] =
    "raidlab's rebuild walk of member 0 onto a fresh drive (one request at a time, no other "
    "I/O) over the member's last slice, twice the drive's SLC cache and write buffer or 8 GiB "
    "if larger, on the simulated clock; the rest of the member at the rate of the slice's "
    "second half, past those caches.  Not modelled: rebuild-rate settings, user I/O during the "
    "rebuild, data on the survivors";

/* The array to rebuild: the first raid node from the top with redundancy. */
static struct rl_target *sw_rebuild_array(struct rl_target *t)
{
	struct raid_array *a = raid_array_of(t);

	if (parity_array_of(t) || (a && a->copies >= 2))
		return t;
	for (unsigned i = 0; i < t->nchildren; i++) {
		struct rl_target *found = sw_rebuild_array(t->children[i]);
		if (found)
			return found;
	}
	return NULL;
}

struct sw_rebuild_clock {
	struct rl_exec *ex;
	uint64_t from, half; /* member offsets: the walk's start, its middle */
	uint64_t t_half;     /* simulated ns when the walk passed its middle (0: not yet) */
};

static void sw_rebuild_checkpoint(void *arg, uint64_t in_sync)
{
	struct sw_rebuild_clock *c = arg;

	if (!c->t_half && in_sync >= c->half)
		c->t_half = c->ex->vnow;
}

/* The test object: a write figure for the walk, and the estimate. */
static struct json_object *sw_rebuild_json(const struct raid_rebuild_result *res, uint64_t member,
                                           double walk_s, double estimate_s, double tail_mb_s)
{
	struct json_object *t = json_object_new_object(), *w = json_object_new_object();
	struct json_object *rb = json_object_new_object();

	json_object_object_add(t, "name", json_object_new_string("rebuild"));
	json_object_object_add(t, "pattern", json_object_new_string("rebuild"));
	json_object_object_add(t, "bs", json_object_new_int64((int64_t)SW_REBUILD_UNIT));
	json_object_object_add(t, "iodepth", json_object_new_int(1));
	json_object_object_add(t, "threads", json_object_new_int(1));
	json_object_object_add(w, "mb_s",
	                       json_object_new_double((double)res->bytes / walk_s / 1e6));
	json_object_object_add(w, "io_bytes", json_object_new_int64((int64_t)res->bytes));
	json_object_object_add(w, "runtime_s", json_object_new_double(walk_s));
	json_object_object_add(t, "write", w);
	json_object_object_add(rb, "member", json_object_new_int(0));
	json_object_object_add(rb, "member_bytes", json_object_new_int64((int64_t)member));
	json_object_object_add(rb, "walked_bytes", json_object_new_int64((int64_t)res->bytes));
	json_object_object_add(rb, "walk_s", json_object_new_double(walk_s));
	json_object_object_add(rb, "tail_mb_s", json_object_new_double(tail_mb_s));
	json_object_object_add(rb, "estimate_s", json_object_new_double(estimate_s));
	json_object_object_add(rb, "method", json_object_new_string(sw_rebuild_method));
	json_object_object_add(t, "rebuild", rb);
	return t;
}

#define SW_REBUILD_CACHES 2

/* The first drive's SLC cache and write buffer in @o (a target tree), in bytes. */
static uint64_t sw_rebuild_drive_caches(struct json_object *o)
{
	struct json_object *v, *kids;

	if (json_object_object_get_ex(o, "slc_cache_bytes", &v)) {
		struct json_object *b = NULL;
		json_object_object_get_ex(o, "write_buffer_bytes", &b);
		return (uint64_t)json_object_get_int64(v) + (uint64_t)json_object_get_int64(b);
	}
	if (json_object_object_get_ex(o, "children", &kids))
		for (size_t i = 0; i < json_object_array_length(kids); i++) {
			uint64_t c = sw_rebuild_drive_caches(json_object_array_get_idx(kids, i));
			if (c)
				return c;
		}
	return 0;
}

/* How much of the member to walk: past the replacement drive's caches. */
static uint64_t sw_rebuild_slice(struct rl_target *a, uint64_t member)
{
	struct json_object *tree = rl_target_tree(a);
	uint64_t slice = SW_REBUILD_CACHES * sw_rebuild_drive_caches(tree);

	json_object_put(tree);
	if (slice < SW_REBUILD_SLICE)
		slice = SW_REBUILD_SLICE;
	return slice < member ? slice : member;
}

static int sw_rebuild_walk(struct suite_run *r, struct rl_target *a)
{
	uint64_t sizes[RAID_MAX_MEMBERS], member, t0;
	struct raid_rebuild_opts o = {.member = 0, .unit = SW_REBUILD_UNIT};
	struct raid_rebuild_result res;
	struct sw_rebuild_clock c = {0};
	double walk_s, tail, est;
	int rc;

	raid_member_sizes(a, sizes);
	member = sizes[0];
	uint64_t slice = sw_rebuild_slice(a, member);
	if (member > slice)
		o.resume = (member - slice) / SW_REBUILD_UNIT * SW_REBUILD_UNIT;
	if ((rc = raid_tool_exec(a, &c.ex)) != 0) {
		snprintf(r->msg, sizeof(r->msg), "rebuild: cannot set up I/O: %s", strerror(-rc));
		return rc;
	}
	c.ex->vnow = t0 = r->t->vtime; /* the stack's simulated time goes on */
	c.from = o.resume;
	c.half = o.resume + (member - o.resume) / 2;
	o.checkpoint = sw_rebuild_checkpoint;
	o.ckpt_arg = &c;
	rc = raid_rebuild(a, c.ex, &o, &res, r->msg, sizeof(r->msg));
	walk_s = (double)(c.ex->vnow - t0) / 1e9;
	r->t->vtime = c.ex->vnow;
	if (!rc && (!res.bytes || walk_s <= 0)) {
		snprintf(r->msg, sizeof(r->msg), "rebuild: the walk wrote nothing");
		rc = -EIO;
	}
	if (!rc) {
		double tail_s = (double)(c.ex->vnow - c.t_half) / 1e9;
		uint64_t tail_bytes = member - c.half;
		tail = c.t_half > t0 && tail_s > 0 ? (double)tail_bytes / tail_s
		                                   : (double)res.bytes / walk_s;
		est = walk_s + (double)o.resume / tail;
		json_object_array_add(r->tests,
		                      sw_rebuild_json(&res, member, walk_s, est, tail / 1e6));
	}
	rl_exec_destroy(c.ex);
	return rc;
}

static int sw_rebuild_run(struct suite_run *r)
{
	struct rl_target *a = sw_rebuild_array(r->t);

	r->cur_test = "rebuild";
	r->cur_phase = "rebuild";
	if (!a) {
		snprintf(r->msg, sizeof(r->msg),
		         "rebuild: the stack has no array with redundancy (raid1, raid10, raid5, "
		         "raid6)");
		return -EINVAL;
	}
	return sw_rebuild_walk(r, a);
}

static const struct suite_def sw_rebuild_def = {
    .name = "rebuild",
    .title = "the rebuild of member 0",
    .summary = "rebuild member 0 and estimate the whole member's time",
    .aggregate = SUITE_AGG_SINGLE,
    .run = sw_rebuild_run,
};

void sw_workload_rebuild(struct sw_workload *w)
{
	memset(w, 0, sizeof(*w));
	w->kind = SW_WORKLOAD_REBUILD;
	w->def = &sw_rebuild_def;
	snprintf(w->name, sizeof(w->name), "rebuild");
	/* the method is the workload's contents: a change of it is another key */
	w->content = sw_content_hash(sw_rebuild_method, sizeof(sw_rebuild_method));
	w->content ^= SW_REBUILD_SLICE ^ SW_REBUILD_CACHES;
}
