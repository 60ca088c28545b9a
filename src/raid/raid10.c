/*
 * raid10.c - md raid10: near, far and offset copies.
 *
 *   raid10(m0, m1, ..., layout=n2, chunk=512k, read=md, writes=parallel, failed=K)
 *
 * Layout (layout.h, raid10_geom_*), md's formulas (setup_geo, calc_sectors,
 * __raid10_find_phys) with the original far sets:
 *   nK  K copies of each chunk on consecutive members (n2 on 4 members is
 *       classic raid1+0; on an odd count the copies wrap to the next row);
 *   fK  K copies, the first laid out as raid0 in the first 1/K of every
 *       member, each further copy in the next slice, shifted one member;
 *   oK  like fK but each copy sits in the next chunk row, shifted one member.
 * Any member count with 2 <= copies <= members is valid (5 members with n2
 * hold 2.5 members' worth); the chunk is a power of two of at least 4k.
 *
 * A request is split into chunk pieces; a read piece goes to one copy and
 * is retried on the others if it fails, a write/trim piece goes to every
 * copy that is not failed (raid_io.c).  Read choice: the read policy among
 * the in-sync copies; for far layouts only the copies in the first slice
 * are candidates while one is in sync, as md reads far arrays from the
 * lowest device address (the outer tracks, raid0-like).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "raid/raid_common.h"

struct raid10_state {
	struct raid_array a; /* first: t->priv points here */
	struct raid10_geom g;
	char layout[8]; /* as written: "n2" */
};

static const struct raid10_state *raid10_of(const struct raid_array *a)
{
	return (const struct raid10_state *)a;
}

static unsigned raid10_locate(const struct raid_array *a, uint64_t off, uint64_t max, uint64_t *len,
                              struct raid_loc *locs)
{
	const struct raid10_geom *g = &raid10_of(a)->g;

	*len = raid10_geom_piece(g, off, max);
	return raid10_geom_map(g, off, locs);
}

static int raid10_read_pick(struct raid_array *a, const struct raid_loc *locs, unsigned n,
                            uint64_t req)
{
	const struct raid10_geom *g = &raid10_of(a)->g;

	/*
	 * md on rotational members keeps far-layout reads on the first slice
	 * (the fast outer tracks); on non-rotational members it takes the
	 * least-pending copy of all, which is what the md policy does here.
	 * The first-slice rule stays for read=least-pending and round-robin.
	 */
	if (g->far_copies > 1 && !g->far_offset && a->read_policy != RAID_READ_SEQUENTIAL &&
	    a->read_policy != RAID_READ_PER_REQUEST) {
		/* Slots are near-copy major: slot n*fc + f; f == 0 is the first slice. */
		uint64_t first_slice = 0;
		for (unsigned i = 0; i < n; i += g->far_copies)
			first_slice |= 1ull << i;
		int pick = raid_read_pick(a, locs, n, first_slice, req);
		if (pick >= 0)
			return pick;
	}
	return raid_read_pick(a, locs, n, ~0ull, req);
}

/*
 * Which members hold the copies of chunk c depends only on c modulo the
 * member count (the first copy is on member (c * nc) % disks, the others
 * at fixed distances), so checking that many chunks checks every set.
 */
static bool raid10_intact(const struct raid_array *a)
{
	const struct raid10_geom *g = &raid10_of(a)->g;
	uint64_t chunks = g->size / g->chunk;
	struct raid_loc locs[RAID10_MAX_COPIES];

	for (uint64_t c = 0; c < g->raid_disks && c < chunks; c++) {
		unsigned n = raid10_geom_map(g, c * g->chunk, locs);
		bool ok = false;
		for (unsigned i = 0; i < n && !ok; i++)
			ok = raid_member_readable(a, locs[i].member);
		if (!ok)
			return false;
	}
	return true;
}

static void raid10_describe(const struct raid_array *a, struct json_object *obj)
{
	const struct raid10_state *s = raid10_of(a);

	json_object_object_add(obj, "layout", json_object_new_string(s->layout));
	json_object_object_add(obj, "near_copies", json_object_new_int((int)s->g.near_copies));
	json_object_object_add(obj, "far_copies", json_object_new_int((int)s->g.far_copies));
	json_object_object_add(obj, "far_offset", json_object_new_boolean(s->g.far_offset));
	json_object_object_add(obj, "member_used_bytes",
	                       json_object_new_int64((int64_t)s->g.dev_size));
	json_object_object_add(obj, "stride_bytes", json_object_new_int64((int64_t)s->g.stride));
}

static const struct raid_level raid10_level = {
    .name = "raid10",
    .locate = raid10_locate,
    .read_pick = raid10_read_pick,
    .intact = raid10_intact,
    .describe = raid10_describe,
};

static const struct rl_target_ops raid10_ops = RAID_TARGET_OPS("raid10");

static const struct rl_param raid10_params[] = {
    {.name = "layout",
     .type = RL_PARAM_STR,
     .def = "n2",
     .form = "nK|fK|oK",
     .help = "K copies: near (consecutive members), far (copies in later slices of each "
             "member), offset (copies in the next chunk row); 2 <= K <= members"},
    {.name = "chunk", .type = RL_PARAM_SIZE, .def = "512k", .help = "power of two, at least 4k"},
    RAID_PARAM_READ,
    RAID_PARAM_WRITES,
    RAID_PARAM_FAILED,
    RAID_PARAM_MAX_READ_ERRORS,
    {0},
};

static int raid10_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                         struct rl_target **out, struct rl_err *err)
{
	uint64_t sizes[RAID_MAX_MEMBERS], chunk, size = UINT64_MAX;
	struct rl_spec_kv *kv;
	const char *layout = "n2";
	unsigned nc, fc;
	bool offset;
	struct raid10_state *s;
	struct rl_target *t;
	char msg[256];
	int rc;

	rc = raid_members_build(node, ctx, &raid10_ops, 2, &t, err);
	if (rc)
		return rc;
	if ((rc = rl_param_u64(node, raid10_params, "chunk", &chunk, err)) ||
	    (rc = rl_param_str(node, raid10_params, "layout", &layout, err)))
		goto fail;
	if (raid10_layout_parse(layout, &nc, &fc, &offset)) {
		kv = rl_spec_find(node, "layout");
		rc = rl_err_set(err, kv ? kv->value_pos : node->pos,
		                "raid10: layout must be nK, fK or oK (K copies, e.g. n2, f2, o3), "
		                "not '%s'",
		                layout);
		goto fail;
	}
	s = raid_state_alloc(sizeof(*s));
	if (!s) {
		rc = -ENOMEM;
		goto fail;
	}
	snprintf(s->layout, sizeof(s->layout), "%s", layout);
	raid_array_init(&s->a, t, &raid10_level, chunk, nc * fc);
	raid_member_sizes(t, sizes);
	for (unsigned i = 0; i < t->nchildren; i++)
		size = sizes[i] < size ? sizes[i] : size;
	if (chunk % t->block_size) {
		rc = rl_err_set(err, node->pos,
		                "raid10: chunk must be a multiple of the members' block size (%u)",
		                t->block_size);
		goto fail;
	}
	rc = raid10_geom_init(&s->g, t->nchildren, nc, fc, offset, chunk, size, msg, sizeof(msg));
	if (rc) {
		rc = rl_err_set(err, node->pos, "raid10: %s", msg);
		goto fail;
	}
	if ((rc = raid_spec_read_policy(node, &s->a, err)) ||
	    (rc = raid_spec_write_order(node, &s->a, err)) ||
	    (rc = raid_spec_failed(node, &s->a, err)) ||
	    (rc = raid_spec_max_read_errors(node, &s->a, err)) ||
	    (rc = rl_params_check(node, raid10_params, err)))
		goto fail;
	t->size = s->g.size;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

static struct rl_target_type raid10_type = {
    .name = "raid10",
    .summary = "md raid10: near, far or offset copies over any member count",
    .args = "MEMBER...",
    .params = raid10_params,
    .create = raid10_create,
};
RL_TARGET_REGISTER(raid10_type)
