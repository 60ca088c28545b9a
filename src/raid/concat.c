/*
 * concat.c - members back to back (md linear).
 *
 *   concat(m0, m1, ..., rounding=SIZE, failed=K)
 *
 * Member i starts where member i-1 ends; each member is rounded down to a
 * multiple of rounding= (mdadm --rounding; default: the array's block
 * size, i.e. every whole block is used).  A request that crosses a member
 * boundary is split there, one child per member, TRIM included; FLUSH goes
 * to every member.  No redundancy: a member error fails the member and
 * every later piece on it fails with -EIO (recorded as lost).
 */
#include <errno.h>
#include <json-c/json.h>

#include "raid/raid_common.h"

struct concat_state {
	struct raid_array a; /* first: t->priv points here */
	struct concat_geom g;
	uint64_t rounding;
};

static const struct concat_state *concat_of(const struct raid_array *a)
{
	return (const struct concat_state *)a;
}

static unsigned concat_locate(const struct raid_array *a, uint64_t off, uint64_t max, uint64_t *len,
                              struct raid_loc *locs)
{
	*len = concat_geom_map(&concat_of(a)->g, off, max, &locs[0]);
	return 1;
}

static void concat_describe(const struct raid_array *a, struct json_object *obj)
{
	const struct concat_state *s = concat_of(a);
	struct json_object *starts = json_object_new_array();

	json_object_object_add(obj, "rounding_bytes", json_object_new_int64((int64_t)s->rounding));
	for (unsigned i = 0; i < s->g.nmembers; i++)
		json_object_array_add(starts, json_object_new_int64((int64_t)s->g.start[i]));
	json_object_object_add(obj, "member_starts", starts);
}

static const struct raid_level concat_level = {
    .name = "concat",
    .locate = concat_locate,
    .intact = raid_all_readable,
    .describe = concat_describe,
};

static const struct rl_target_ops concat_ops = RAID_TARGET_OPS("concat");

static const struct rl_param concat_params[] = {
    {.name = "rounding",
     .type = RL_PARAM_SIZE,
     .def_note = "the members' block size",
     .help = "rounds each member down to a multiple, like mdadm's `--rounding`"},
    RAID_PARAM_FAILED,
    {0},
};

static int concat_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                         struct rl_target **out, struct rl_err *err)
{
	uint64_t sizes[RAID_MAX_MEMBERS], rounding;
	struct concat_state *s;
	struct rl_target *t;
	char msg[256];
	int rc;

	rc = raid_members_build(node, ctx, &concat_ops, 1, &t, err);
	if (rc)
		return rc;
	rounding = t->block_size;
	if ((rc = rl_param_u64(node, concat_params, "rounding", &rounding, err)))
		goto fail;
	if (!rounding || rounding % t->block_size) {
		rc = rl_err_set(
		    err, node->pos,
		    "concat: rounding must be a multiple of the members' block size (%u)",
		    t->block_size);
		goto fail;
	}
	s = raid_state_alloc(sizeof(*s));
	if (!s) {
		rc = -ENOMEM;
		goto fail;
	}
	s->rounding = rounding;
	raid_array_init(&s->a, t, &concat_level, 0, 1);
	raid_member_sizes(t, sizes);
	rc = concat_geom_init(&s->g, sizes, t->nchildren, rounding, msg, sizeof(msg));
	if (rc) {
		rc = rl_err_set(err, node->pos, "concat: %s", msg);
		goto fail;
	}
	if ((rc = raid_spec_failed(node, &s->a, err)) ||
	    (rc = rl_params_check(node, concat_params, err)))
		goto fail;
	t->size = s->g.size;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

static struct rl_target_type concat_type = {
    .name = "concat",
    .summary = "members back to back (md linear)",
    .args = "MEMBER...",
    .params = concat_params,
    .create = concat_create,
};
RL_TARGET_REGISTER(concat_type)
