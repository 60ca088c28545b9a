/*
 * raid1.c - N-way mirroring.
 *
 *   raid1(m0, m1, ..., read=md|per-request|least-pending|round-robin, writes=parallel|serial,
 *         failed=K)
 *
 * Every member holds the whole array at the same offsets; the array is as
 * large as its smallest member.  A request is one piece (there is no chunk):
 *
 *   read   goes to one in-sync member chosen by the read policy:
 *          md (default; also called sequential): md's read_balance on
 *            non-rotational members: a read starting where the previous
 *            read on a member ended stays on that member (is_sequential),
 *            so a sequential stream keeps one member and gains nothing
 *            from the mirror; otherwise the least-pending member;
 *          per-request: a hardware controller's balance: the least-pending
 *            member per request, and the rest of that request follows it;
 *          least-pending: the member with the fewest requests in flight,
 *            lowest index on a tie;
 *          round-robin: members in turn.
 *          A failed read fails the member and is retried on the next
 *          in-sync member (the state machine in raid_io.c).
 *   write  goes to every member that is not failed; it completes when all
 *   trim   of them have, and succeeds while one in-sync copy remains
 *          (a member that errors is failed).  writes=serial writes the
 *          copies one after another (some controllers' write-through
 *          mirrors), writes=parallel (default) all at once.
 *   flush  goes to every member that is not failed.
 *
 * Degraded operation, counters and describe/report are shared with the
 * other levels (raid_common.c, raid_io.c).
 */
#include <errno.h>

#include "raid/raid_common.h"

static unsigned raid1_locate(const struct raid_array *a, uint64_t off, uint64_t max, uint64_t *len,
                             struct raid_loc *locs)
{
	for (unsigned i = 0; i < a->n; i++) {
		locs[i].member = i;
		locs[i].offset = off;
	}
	*len = max;
	return a->n;
}

static bool raid1_intact(const struct raid_array *a)
{
	for (unsigned i = 0; i < a->n; i++)
		if (raid_member_readable(a, i))
			return true;
	return false;
}

static const struct raid_level raid1_level = {
    .name = "raid1",
    .locate = raid1_locate,
    .intact = raid1_intact,
};

static const struct rl_target_ops raid1_ops = RAID_TARGET_OPS("raid1");

static const struct rl_param raid1_params[] = {
    RAID_PARAM_READ, RAID_PARAM_WRITES, RAID_PARAM_FAILED, RAID_PARAM_MAX_READ_ERRORS, {0},
};

static int raid1_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	uint64_t sizes[RAID_MAX_MEMBERS], size = UINT64_MAX;
	struct raid_array *a;
	struct rl_target *t;
	int rc;

	rc = raid_members_build(node, ctx, &raid1_ops, 2, &t, err);
	if (rc)
		return rc;
	a = raid_state_alloc(sizeof(*a));
	if (!a) {
		rl_target_close(t);
		return -ENOMEM;
	}
	raid_array_init(a, t, &raid1_level, 0, t->nchildren);
	raid_member_sizes(t, sizes);
	for (unsigned i = 0; i < t->nchildren; i++)
		size = sizes[i] < size ? sizes[i] : size;
	if (!size) {
		rc = rl_err_set(err, node->pos, "raid1: a member is smaller than one block");
		goto fail;
	}
	if ((rc = raid_spec_read_policy(node, a, err)) || (rc = raid_spec_failed(node, a, err)) ||
	    (rc = raid_spec_write_order(node, a, err)) ||
	    (rc = raid_spec_max_read_errors(node, a, err)) ||
	    (rc = rl_params_check(node, raid1_params, err)))
		goto fail;
	t->size = size;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

static struct rl_target_type raid1_type = {
    .name = "raid1",
    .summary = "mirroring: every member holds a full copy (md raid1)",
    .args = "MEMBER...",
    .params = raid1_params,
    .create = raid1_create,
};
RL_TARGET_REGISTER(raid1_type)
