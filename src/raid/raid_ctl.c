/*
 * raid_ctl.c - the arrays' answer to control requests (the target
 * interface's ctl op): fail a member, mark a rebuild's start and end,
 * report the array's and members' states, and locate the copies of a
 * range (mirrors) or the blocks of a stripe row and reconstruct its
 * missing ones (parity levels) for whoever moves rebuild data (the
 * server's live rebuild).
 *
 * Design: every level shares this one function; what differs between
 * levels (where copies lie, which state an array is in) comes from the
 * level's hooks and raid_common.c, so a control client never sees
 * struct raid_array.  Member state changes go through raid_member_set,
 * which also keeps an md array's superblocks in step.
 */
#include <errno.h>

#include "raid/parity.h"
#include "raid/raid_common.h"

_Static_assert(RL_CTL_MEMBERS_MAX >= RAID_MAX_MEMBERS, "a control request names every member");

static void raid_ctl_status(const struct raid_array *a, struct rl_ctl *c)
{
	c->level = a->level->name;
	c->state = raid_array_state(a);
	c->members = a->n;
	c->copies = a->copies;
	c->parity = parity_array_of(a->t) ? parity_parity_count(parity_array_of(a->t)) : 0;
	for (unsigned m = 0; m < a->n; m++)
		c->member_state[m] = raid_member_state_name(raid_member_state(a, m));
}

static int raid_ctl_locate(struct raid_array *a, struct rl_ctl *c)
{
	struct raid_loc locs[RAID_MAX_MEMBERS];

	if (c->offset >= a->t->size || !c->max)
		return -EINVAL;
	c->ncopies = a->level->locate(a, c->offset, c->max, &c->len, locs);
	for (unsigned i = 0; i < c->ncopies; i++) {
		c->copy[i].member = locs[i].member;
		c->copy[i].offset = locs[i].offset;
	}
	return 0;
}

int raid_ctl(struct rl_target *t, struct rl_ctl *c)
{
	struct raid_array *a = raid_array_of(t);

	if (!a)
		return -EOPNOTSUPP;
	if (c->cmd == RL_CTL_STATUS) {
		raid_ctl_status(a, c);
		return 0;
	}
	if (c->cmd == RL_CTL_LOCATE)
		return raid_ctl_locate(a, c);
	if (c->cmd == RL_CTL_ROW || c->cmd == RL_CTL_RECONSTRUCT) {
		struct parity_array *pa = parity_array_of(t);
		if (!pa)
			return -EOPNOTSUPP; /* copies, not parity: LOCATE says where they are */
		return c->cmd == RL_CTL_ROW ? parity_ctl_row(pa, c) : parity_ctl_reconstruct(pa, c);
	}
	if (c->member >= a->n)
		return -EINVAL;
	switch (c->cmd) {
	case RL_CTL_FAIL:
		/* As mdadm --fail refuses the last copy: every request would fail. */
		if (!c->force && !raid_member_redundant(a, c->member))
			return -EBUSY;
		raid_member_set(a, c->member, RAID_MEMBER_FAILED);
		return 0;
	case RL_CTL_REBUILD_BEGIN:
		raid_member_set(a, c->member, RAID_MEMBER_REBUILDING);
		return 0;
	case RL_CTL_REBUILD_END:
		raid_member_set(a, c->member, c->ok ? RAID_MEMBER_IN_SYNC : RAID_MEMBER_FAILED);
		return 0;
	case RL_CTL_READABLE:
		return raid_member_readable(a, c->member);
	default:
		return -EOPNOTSUPP;
	}
}
