/*
 * md_state.c - md's array state on the members' superblocks (md_state.h).
 *
 * The state is a copy of every member's own superblock (its dev_number,
 * device UUID and offsets stay its own) plus the freshest superblock's
 * dev_roles table.  Every change is one md_state_write(): the event count
 * goes up, dev_roles is recomputed from the array's member states (a
 * failed member and a role nobody holds are faulty), and the superblock
 * goes to every member that is not failed, each write flushed before the
 * next step.  Writes are serialised by a mutex; they are synchronous, on
 * a throwaway executor, so they may run from a worker's completion path
 * (a member failing) before the request that failed it is acknowledged.
 *
 * The first write after opening records the array dirty (resync_offset 0)
 * before it is sent, as md_write_start() does; a clean close records
 * resync_offset MaxSector.
 * An array found dirty was stopped uncleanly: its redundancy is made to
 * agree with the data again (md's resync: mirrors copied from the first
 * in-sync copy, parity recomputed) before it is used.  A stale member is
 * rebuilt from the others, carrying the recovery-offset feature (offset 0)
 * until it is done, so an interrupted rebuild is started again.
 *
 * Stacks of simulated drives run in virtual time: their superblocks are
 * not rewritten (a synchronous write would step outside the simulation).
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raid/md.h"
#include "raid/md_state.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/rebuild.h"
#include "raid/scrub.h"

struct md_state {
	pthread_mutex_t lock;
	struct md_super fresh;   /* the freshest superblock: dev_roles, events */
	unsigned n;              /* roles */
	bool dirty;              /* recorded dirty on the members */
	_Atomic bool dirty_seen; /* dirty is on disk: writes need not wait (fast path) */
	bool quiet;
	bool resynced;    /* the open found the array unclean and resynced it */
	uint64_t rebuilt; /* roles the open rebuilt (stale members) */
	struct md_super own[RAID_MAX_MEMBERS]; /* each role's member superblock */
	bool present[RAID_MAX_MEMBERS];        /* a real member (not a stand-in) */
};

struct md_state *md_state_new(const struct md_super *fresh, unsigned nroles)
{
	struct md_state *st;

	if (nroles > RAID_MAX_MEMBERS)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	pthread_mutex_init(&st->lock, NULL);
	st->fresh = *fresh;
	st->n = nroles;
	return st;
}

void md_state_member(struct md_state *st, unsigned role, const struct md_super *sb)
{
	st->own[role] = *sb;
	st->present[role] = true;
}

void md_state_free(struct md_state *st)
{
	if (!st)
		return;
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/* The member target under role @r's slice. */
static struct rl_target *md_state_target(struct raid_array *a, unsigned r)
{
	struct rl_target *s = a->t->children[r];

	return s->nchildren == 1 ? s->children[0] : NULL;
}

/* dev_roles as the array stands: each member's role, faulty where failed or missing. */
static void md_state_roles(const struct md_state *st, struct raid_array *a, struct md_super *sb)
{
	uint32_t max_dev = st->fresh.max_dev;

	memcpy(sb->roles, st->fresh.roles, sizeof(sb->roles));
	for (unsigned r = 0; r < st->n; r++) {
		for (uint32_t d = 0; d < MD_SB_MAX_DEVS; d++)
			if (sb->roles[d] == r)
				sb->roles[d] = MD_ROLE_FAULTY; /* unless its holder is here */
	}
	for (unsigned r = 0; r < st->n; r++) {
		uint32_t d = st->own[r].dev_number;
		if (!st->present[r])
			continue;
		if (d >= max_dev)
			max_dev = d + 1;
		sb->roles[d] =
		    raid_member_state(a, r) == RAID_MEMBER_FAILED ? MD_ROLE_FAULTY : (uint16_t)r;
	}
	sb->max_dev = max_dev;
}

/*
 * What a superblock write does to the member's bitmap block.  The parity
 * engine sets its bits itself, region by region (parity.c); a mirror's
 * bits are not kept per region, so they are all set while the array is
 * dirty - md then resyncs everything after an unclean stop, never less than
 * was written.  A clean array (after its resync, or closed with nothing in
 * flight) has every bit cleared, whatever the level.
 */
enum md_bitmap_op {
	MD_BM_NONE,   /* leave the block alone (requests may be writing it) */
	MD_BM_HEADER, /* the header's event counts only */
	MD_BM_DIRTY,  /* header, and every bit set on a mirror */
	MD_BM_CLEAN,  /* header, and every bit cleared */
};

/* Keep the bitmap's event counts with the superblock's (md: older is stale). */
static int md_state_bitmap(struct rl_target *m, const struct md_super *sb, enum md_bitmap_op op,
                           bool mirror, uint8_t *buf)
{
	uint64_t at = MD_SB_OFFSET_BYTES + (uint64_t)(int64_t)sb->bitmap_offset * 512;
	struct md_bitmap_super b;
	char msg[128];
	int rc = md_member_io(m, RL_OP_READ, at, buf, MD_SB_BYTES);

	if (rc || md_bitmap_decode(buf, &b, msg, sizeof(msg)))
		return rc ? rc : -EIO;
	b.events = sb->events;
	if (sb->resync_offset == MD_RESYNC_DONE)
		b.events_cleared = sb->events;
	md_bitmap_encode(&b, buf); /* the header only: the bits after it stay */
	if (op == MD_BM_CLEAN || (op == MD_BM_DIRTY && mirror)) {
		uint64_t bits = (b.sync_size * 512 + b.chunksize - 1) / b.chunksize;
		for (uint64_t i = 0; i < bits && 256 + i / 8 < MD_SB_BYTES; i++) {
			uint8_t bit = (uint8_t)(1u << (i % 8));
			buf[256 + i / 8] = (uint8_t)(op == MD_BM_DIRTY ? buf[256 + i / 8] | bit
			                                               : buf[256 + i / 8] & ~bit);
		}
	}
	return md_member_io(m, RL_OP_WRITE, at, buf, MD_SB_BYTES);
}

/*
 * One state change: events + 1, the superblock to every live member, and
 * the bitmap block as @bm says.  Caller holds the lock.
 */
static int md_state_write(struct md_state *st, struct raid_array *a, enum md_bitmap_op bm)
{
	uint8_t *buf = aligned_alloc(4096, MD_SB_BYTES);
	bool mirror = !parity_array_of(a->t);
	struct md_super sb;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	if (rl_target_leaf_caps(a->t) & RL_CAP_VIRTUAL) {
		free(buf);
		return 0;
	}
	st->fresh.events++;
	md_state_roles(st, a, &st->fresh);
	for (unsigned r = 0; r < st->n; r++) {
		struct rl_target *m = md_state_target(a, r);
		enum raid_member_state s = raid_member_state(a, r);
		bool bitmap;
		int err;

		if (!st->present[r] || !m || s == RAID_MEMBER_FAILED)
			continue;
		sb = st->own[r];
		memcpy(sb.roles, st->fresh.roles, sizeof(sb.roles));
		sb.max_dev = st->fresh.max_dev;
		sb.events = st->fresh.events;
		sb.utime = (uint64_t)time(NULL);
		sb.resync_offset = st->dirty ? 0 : MD_RESYNC_DONE;
		sb.feature_map &= ~MD_FEATURE_RECOVERY_OFFSET;
		sb.recovery_offset = 0;
		if (s == RAID_MEMBER_REBUILDING)
			sb.feature_map |= MD_FEATURE_RECOVERY_OFFSET;
		st->own[r] = sb;
		/* bits set before the superblock says dirty; cleared after it says clean */
		bitmap = bm != MD_BM_NONE && (sb.feature_map & MD_FEATURE_BITMAP_OFFSET);
		err = bitmap && bm == MD_BM_DIRTY ? md_state_bitmap(m, &sb, bm, mirror, buf) : 0;
		md_super_encode(&sb, buf);
		if (!err)
			err = md_member_io(m, RL_OP_WRITE, MD_SB_OFFSET_BYTES, buf, MD_SB_BYTES);
		if (!err && bitmap && bm != MD_BM_DIRTY)
			err = md_state_bitmap(m, &sb, bm, mirror, buf);
		if (err && !rc)
			rc = err;
	}
	free(buf);
	return rc;
}

void md_state_changed(struct md_state *st, struct raid_array *a)
{
	pthread_mutex_lock(&st->lock);
	if (md_state_write(st, a, MD_BM_NONE) && !st->quiet)
		fprintf(stderr, "md: writing the array state to the members failed\n");
	pthread_mutex_unlock(&st->lock);
}

/* md's resync after an unclean stop: the redundancy made to agree with the data. */
static int md_state_resync(struct rl_target *array, struct rl_exec *ex, char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(array);

	if (parity_array_of(array)) {
		struct parity_check_result pr;
		for (unsigned i = 0; i < a->n; i++)
			if (!raid_member_readable(a, i)) {
				snprintf(
				    msg, msglen,
				    "the array was stopped uncleanly while degraded (member %u "
				    "missing): its parity cannot be trusted, so member %u cannot "
				    "be rebuilt from it (md refuses such an array too)",
				    i, i);
				return -EIO;
			}
		return parity_check(parity_array_of(array), ex, PARITY_RESYNC, NULL, NULL, &pr, msg,
		                    msglen);
	}
	if (a->copies > 1) {
		struct raid_scrub_opts so = {.repair = true, .source = -1};
		struct raid_scrub_result sr;
		return raid_scrub(array, ex, &so, &sr, msg, msglen);
	}
	return 0;
}

/* Does the array as opened differ from what the freshest superblock records? */
static bool md_state_differs(const struct md_state *st, struct raid_array *a)
{
	struct md_super sb;

	md_state_roles(st, a, &sb);
	return sb.max_dev != st->fresh.max_dev ||
	       memcmp(sb.roles, st->fresh.roles, sizeof(sb.roles[0]) * sb.max_dev);
}

int md_state_start(struct md_state *st, struct rl_target *array, bool unclean, uint64_t stale,
                   bool quiet, char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(array);
	struct rl_exec *ex = NULL;
	int rc = 0;

	if (!a) {
		snprintf(msg, msglen, "not an array");
		return -EINVAL;
	}
	st->quiet = quiet;
	st->dirty = unclean; /* as the superblocks say, until resynced */
	if (stale || unclean || md_state_differs(st, a)) {
		pthread_mutex_lock(&st->lock);
		rc = md_state_write(st, a, st->dirty ? MD_BM_HEADER : MD_BM_CLEAN);
		pthread_mutex_unlock(&st->lock);
	}
	if (rc) {
		snprintf(msg, msglen, "recording the array state failed: %s", strerror(-rc));
		return rc;
	}
	a->md = st; /* from here on every state change is recorded */
	if (!unclean && !stale)
		return 0;
	rc = raid_tool_exec(array, &ex);
	if (rc) {
		snprintf(msg, msglen, "cannot set up I/O: %s", strerror(-rc));
		a->md = NULL;
		return rc;
	}
	if (unclean) {
		if (!quiet)
			fprintf(stderr,
			        "md: the array is not in sync (new, or not stopped cleanly): "
			        "resyncing it\n");
		rc = md_state_resync(array, ex, msg, msglen);
		st->resynced = !rc;
		if (!rc) {
			pthread_mutex_lock(&st->lock);
			st->dirty = false;
			rc = md_state_write(st, a, st->dirty ? MD_BM_HEADER : MD_BM_CLEAN);
			pthread_mutex_unlock(&st->lock);
		}
	}
	for (unsigned r = 0; r < a->n && !rc; r++) {
		struct raid_rebuild_opts ro = {.member = r};
		struct raid_rebuild_result res;
		if (!(stale >> r & 1))
			continue;
		if (!quiet)
			fprintf(stderr,
			        "md: member %u is behind the others (stale): rebuilding it\n", r);
		rc = raid_rebuild(array, ex, &ro, &res, msg, msglen);
		if (!rc)
			st->rebuilt |= 1ull << r;
	}
	rl_exec_destroy(ex);
	if (rc)
		a->md = NULL;
	return rc;
}

void md_state_write_start(struct md_state *st, struct raid_array *a)
{
	if (atomic_load_explicit(&st->dirty_seen, memory_order_acquire))
		return;
	pthread_mutex_lock(&st->lock);
	if (!st->dirty) {
		st->dirty = true;
		/* a mirror's bits go with it (nothing else writes that block) */
		if (md_state_write(st, a, parity_array_of(a->t) ? MD_BM_NONE : MD_BM_DIRTY) &&
		    !st->quiet)
			fprintf(stderr, "md: recording the array dirty failed\n");
	}
	atomic_store_explicit(&st->dirty_seen, true, memory_order_release);
	pthread_mutex_unlock(&st->lock);
}

void md_state_report(struct md_state *st, struct json_object *obj)
{
	struct json_object *md = json_object_new_object(), *rebuilt = json_object_new_array();

	pthread_mutex_lock(&st->lock);
	json_object_object_add(md, "events", json_object_new_int64((int64_t)st->fresh.events));
	json_object_object_add(md, "dirty", json_object_new_boolean(st->dirty));
	json_object_object_add(md, "resynced", json_object_new_boolean(st->resynced));
	for (unsigned r = 0; r < st->n; r++)
		if (st->rebuilt >> r & 1)
			json_object_array_add(rebuilt, json_object_new_int((int)r));
	pthread_mutex_unlock(&st->lock);
	json_object_object_add(md, "rebuilt", rebuilt);
	json_object_object_add(obj, "md", md);
}

void md_state_close(struct md_state *st, struct raid_array *a)
{
	pthread_mutex_lock(&st->lock);
	if (st->dirty) {
		st->dirty = false;
		if (md_state_write(st, a, MD_BM_CLEAN) && !st->quiet)
			fprintf(stderr, "md: recording the array clean failed\n");
	}
	pthread_mutex_unlock(&st->lock);
	md_state_free(st);
}
