/*
 * raid0.c - striping without redundancy, laid out exactly as md raid0.
 *
 *   raid0(m0, m1, ..., chunk=512k, layout=orig, failed=K)
 *
 * Layout (layout.h, raid0_geom_*): each member is rounded down to a chunk
 * multiple; members of unequal size form zones, one per distinct size
 * (md create_strip_zones); inside a zone, chunks rotate over the zone's
 * members.  layout=orig (default) is md's RAID0_ORIG_LAYOUT - the member
 * of a chunk comes from its absolute chunk number, what mdadm records on
 * new arrays and what every kernel before 3.14 did; layout=alt is
 * RAID0_ALT_MULTIZONE_LAYOUT (zone-relative).  They differ only beyond
 * zone 0, i.e. only with members of unequal size.
 *
 * Splitting: a request becomes one child per chunk piece, as md splits
 * bios at chunk boundaries (its queue limit chunk_sectors); pieces are not
 * merged even where two are contiguous on one member (only possible in a
 * one-member zone), which keeps the walk uniform.  A TRIM becomes one
 * contiguous child per member and zone (md raid0_handle_discard).  FLUSH
 * goes to every member.
 *
 * There is no redundancy: a member error fails the member, and every later
 * piece on it fails with -EIO; the array records the lost offsets and
 * chunk numbers (report/describe "lost").
 */
#include <errno.h>
#include <json-c/json.h>

#include "raid/raid_common.h"

struct raid0_state {
	struct raid_array a; /* first: t->priv points here */
	struct raid0_geom g;
};

static const struct raid0_state *raid0_of(const struct raid_array *a)
{
	return (const struct raid0_state *)a;
}

static unsigned raid0_locate(const struct raid_array *a, uint64_t off, uint64_t max, uint64_t *len,
                             struct raid_loc *locs)
{
	*len = raid0_geom_map(&raid0_of(a)->g, off, max, &locs[0]);
	return 1;
}

/*
 * TRIM extents: zone by zone, member by member; the cursor is 0 at the
 * start, else 1 + zone * RAID_MAX_MEMBERS + slot of the next member to look at.
 */
static bool raid0_trim_next(const struct raid_array *a, uint64_t off, uint64_t len,
                            uint64_t *cursor, struct raid_loc *loc, uint64_t *plen,
                            uint64_t *array_off)
{
	const struct raid0_geom *g = &raid0_of(a)->g;
	uint64_t end = off + len;
	unsigned z, slot;

	if (*cursor) {
		z = (unsigned)((*cursor - 1) / RAID_MAX_MEMBERS);
		slot = (unsigned)((*cursor - 1) % RAID_MAX_MEMBERS);
	} else {
		z = raid0_geom_zone(g, off);
		slot = 0;
	}
	for (; z < g->nzones && g->zones[z].start < end; z++, slot = 0) {
		const struct raid0_zone *zn = &g->zones[z];
		uint64_t s = off > zn->start ? off : zn->start;
		uint64_t e = end < zn->end ? end : zn->end;

		for (; slot < zn->nb_dev; slot++) {
			uint64_t l = raid0_geom_member_range(g, z, s, e, slot, loc);
			if (!l)
				continue;
			*plen = l;
			*array_off = s;
			*cursor = 1 + (uint64_t)z * RAID_MAX_MEMBERS + slot + 1;
			return true;
		}
	}
	return false;
}

static void raid0_describe(const struct raid_array *a, struct json_object *obj)
{
	const struct raid0_geom *g = &raid0_of(a)->g;
	struct json_object *zones = json_object_new_array();

	json_object_object_add(
	    obj, "layout", json_object_new_string(g->layout == RAID0_LAYOUT_ORIG ? "orig" : "alt"));
	for (unsigned z = 0; z < g->nzones; z++) {
		struct json_object *o = json_object_new_object();
		struct json_object *m = json_object_new_array();
		json_object_object_add(o, "start",
		                       json_object_new_int64((int64_t)g->zones[z].start));
		json_object_object_add(o, "end", json_object_new_int64((int64_t)g->zones[z].end));
		json_object_object_add(o, "dev_start",
		                       json_object_new_int64((int64_t)g->zones[z].dev_start));
		for (unsigned i = 0; i < g->zones[z].nb_dev; i++)
			json_object_array_add(m, json_object_new_int(g->zones[z].dev[i]));
		json_object_object_add(o, "members", m);
		json_object_array_add(zones, o);
	}
	json_object_object_add(obj, "zones", zones);
}

static const struct raid_level raid0_level = {
    .name = "raid0",
    .locate = raid0_locate,
    .intact = raid_all_readable,
    .trim_next = raid0_trim_next,
    .describe = raid0_describe,
};

static const struct rl_target_ops raid0_ops = RAID_TARGET_OPS("raid0");

static const struct rl_param raid0_params[] = {
    {.name = "chunk",
     .type = RL_PARAM_SIZE,
     .def = "512k",
     .source = "mdadm's default",
     .help = "stripe unit; at least 4k, a multiple of the members' block size; need not be a "
             "power of two"},
    {.name = "layout",
     .type = RL_PARAM_ENUM,
     .def = "orig",
     .choices = (const char *const[]){"orig", "alt", NULL},
     .help = "md's `RAID0_ORIG_LAYOUT` (what mdadm records on new arrays) or "
             "`RAID0_ALT_MULTIZONE_LAYOUT`; they differ only with members of unequal size"},
    RAID_PARAM_FAILED,
    RAID_PARAM_WRITES,
    {0},
};

static int raid0_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	uint64_t sizes[RAID_MAX_MEMBERS], chunk;
	struct raid0_state *s;
	struct rl_target *t;
	char msg[256];
	int layout = RAID0_LAYOUT_ORIG;
	int rc;

	rc = raid_members_build(node, ctx, &raid0_ops, 1, &t, err);
	if (rc)
		return rc;
	if ((rc = rl_param_u64(node, raid0_params, "chunk", &chunk, err)) ||
	    (rc = rl_param_enum(node, raid0_params, "layout", &layout, err)))
		goto fail;
	if (chunk < 4096 || chunk % t->block_size) {
		rc = rl_err_set(err, node->pos,
		                "raid0: chunk must be at least 4k and a multiple of the members' "
		                "block size (%u)",
		                t->block_size);
		goto fail;
	}
	s = raid_state_alloc(sizeof(*s));
	if (!s) {
		rc = -ENOMEM;
		goto fail;
	}
	raid_array_init(&s->a, t, &raid0_level, chunk, 1);
	raid_member_sizes(t, sizes);
	rc = raid0_geom_init(&s->g, sizes, t->nchildren, chunk, (enum raid0_layout)layout, msg,
	                     sizeof(msg));
	if (rc) {
		rc = rl_err_set(err, node->pos, "raid0: %s", msg);
		goto fail;
	}
	if ((rc = raid_spec_failed(node, &s->a, err)) ||
	    (rc = raid_spec_write_order(node, &s->a, err)) ||
	    (rc = rl_params_check(node, raid0_params, err)))
		goto fail;
	t->size = s->g.size;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

static struct rl_target_type raid0_type = {
    .name = "raid0",
    .summary = "striping over members as md raid0 (zones for unequal members)",
    .args = "MEMBER...",
    .params = raid0_params,
    .create = raid0_create,
};
RL_TARGET_REGISTER(raid0_type)
