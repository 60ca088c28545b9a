/*
 * md_state.h - md's array state kept on the members' superblocks while an
 * array opened with md(...) for writing is in use (md_state.c).
 *
 * As md keeps it: the event count goes up on every change (array dirty or
 * clean, member failed, member being recovered, member back in sync);
 * every live member gets the new superblock, with dev_roles naming the
 * failed and missing devices faulty; a member being rebuilt carries the
 * recovery-offset feature; resync_offset is 0 from the first write on
 * (dirty) and MaxSector after a clean stop.  A member left behind
 * (a lower event count, marked faulty by the others, or interrupted in
 * recovery) is therefore never taken for in sync again.
 */
#ifndef RL_RAID_MD_STATE_H
#define RL_RAID_MD_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/target.h"
#include "raid/md_super.h"

struct json_object;
struct md_state;
struct raid_array;

/**
 * The state of an array of @nroles roles whose freshest superblock is
 * @fresh; NULL when out of memory.  Add the members with md_state_member().
 */
struct md_state *md_state_new(const struct md_super *fresh, unsigned nroles);

/**
 * Member at @role has superblock @sb (its own dev_number, offsets, UUID).
 * A member whose rebuild was interrupted (the recovery-offset feature, the
 * array's event count) resumes its rebuild at its recovery_offset.
 */
void md_state_member(struct md_state *st, unsigned role, const struct md_super *sb);

/**
 * The roles in @roles (a bit each) were written apart from the survivor the
 * user named (split brain): they are stale, and their rebuild says why.
 */
void md_state_overruled(struct md_state *st, uint64_t roles);

/**
 * Take over @array (opened from the superblocks): record its state on every
 * live member, resync it when the last stop was unclean (@unclean), then
 * rebuild every member in @stale (a bit per role; they are failed in the
 * array).  What it would refuse (a parity array stopped uncleanly with a
 * member it cannot read, stale members too few others can rebuild) it
 * refuses before writing anything.  On success the array owns @st (it is
 * written clean and freed when the array is closed).  0, or a negative
 * errno with @msg; on failure the caller still owns @st.  Notes go to
 * stderr unless @quiet.
 */
int md_state_start(struct md_state *st, struct rl_target *array, bool unclean, uint64_t stale,
                   bool quiet, char *msg, size_t msglen);

/**
 * A write or trim of array bytes [@off, @off+@len) is about to be sent to
 * @a: the first one records the array dirty on the members before it goes,
 * and on a mirror with a bitmap the regions it touches get their bits set
 * on disk first (later writes to set regions return at once).  The parity
 * engine sets its own bits: it passes @len 0.
 */
void md_state_write_start(struct md_state *st, struct raid_array *a, uint64_t off, uint64_t len);

/** The members carry md's internal bitmap, a bit per @chunk bytes.  0 or -ENOMEM. */
int md_state_bitmap_init(struct md_state *st, uint64_t chunk);

/** A member of @a changed state: write the new state to the live members. */
void md_state_changed(struct md_state *st, struct raid_array *a);

/**
 * Add "md": {events, dirty, resynced, rebuilt: [roles]} to @obj: what the
 * open found and did (a resync after an unclean stop, stale members rebuilt).
 */
void md_state_report(struct md_state *st, struct json_object *obj);

/** The array is closing with no request in flight: record it clean, free @st. */
void md_state_close(struct md_state *st, struct raid_array *a);

/** Free @st without writing (an array that never started). */
void md_state_free(struct md_state *st);

#endif
