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
 * Whatever the open refuses (a dirty parity array missing a member,
 * stale members too few others can rebuild) is decided before the first
 * superblock write: a refused open changes no byte of the members.  The
 * event count never passes MD_EVENTS_MAX (a write there fails instead).
 *
 * The first write after opening records the array dirty (resync_offset 0)
 * before it is sent, as md_write_start() does; a clean close records
 * resync_offset MaxSector.
 * An array found dirty was stopped uncleanly: its redundancy is made to
 * agree with the data again (md's resync: mirrors copied from the first
 * in-sync copy, parity recomputed) before it is used.  A stale member is
 * rebuilt from the others, carrying the recovery-offset feature until it
 * is done; its recovery_offset follows the rebuild (a checkpoint every
 * sixteenth of the member or every second), and an open that finds it
 * with the array's event count resumes the rebuild there - the member is
 * trusted below the offset, as md trusts it.
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

#include "core/exec.h"
#include "raid/md.h"
#include "raid/md_state.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/rebuild.h"
#include "raid/scrub.h"

/* Event counts an open for writing may use up: more than it ever makes. */
#define MD_STATE_EVENTS_ROOM (1ull << 32)

struct md_state {
	pthread_mutex_t lock;
	struct md_super fresh;   /* the freshest superblock: dev_roles, events */
	unsigned n;              /* roles */
	bool dirty;              /* recorded dirty on the members */
	_Atomic bool dirty_seen; /* dirty is on disk: writes need not wait (fast path) */
	bool quiet;
	bool resynced;      /* the open found the array unclean and resynced it */
	uint64_t rebuilt;   /* roles the open rebuilt (stale members) */
	uint64_t overruled; /* roles that diverged from the survivor the user named */
	struct md_super own[RAID_MAX_MEMBERS]; /* each role's member superblock */
	bool present[RAID_MAX_MEMBERS];        /* a real member (not a stand-in) */
	uint64_t recovery[RAID_MAX_MEMBERS];   /* rebuilding: member bytes in sync */
	uint64_t resumed[RAID_MAX_MEMBERS];    /* the open resumed a rebuild from here */
	uint64_t ckpt_ns;                      /* when a checkpoint was last written */
	/* md's internal bitmap: a bit per bm_chunk member bytes (0: none) */
	uint64_t bm_chunk, bm_nbits;
	_Atomic uint8_t *bm_on;  /* mirrors: 0 clear, 1 being set, 2 set on disk */
	uint64_t resync_regions; /* the resync at open: dirty regions (0: whole array) */
	uint64_t resync_bytes;   /* bytes it went over */
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
	/*
	 * An interrupted rebuild, recorded by the array as it stands (holding
	 * its role, and the array's events - or one behind: the stop cut the
	 * last checkpoint short after the other members had it, and nothing is
	 * written to the array before a change reaches every member): md
	 * trusts the member below its recovery_offset and carries on from
	 * there.  Otherwise it starts at 0.
	 */
	if ((sb->feature_map & MD_FEATURE_RECOVERY_OFFSET) && sb->events + 1 >= st->fresh.events &&
	    sb->dev_number < MD_SB_MAX_DEVS && st->fresh.roles[sb->dev_number] == role)
		st->recovery[role] = sb->recovery_offset * 512;
}

void md_state_overruled(struct md_state *st, uint64_t roles)
{
	st->overruled = roles;
}

int md_state_bitmap_init(struct md_state *st, uint64_t chunk)
{
	st->bm_chunk = chunk;
	st->bm_nbits = (st->fresh.size * 512 + chunk - 1) / chunk;
	if (st->bm_nbits > (MD_SB_BYTES - 256) * 8) /* what one bitmap block holds */
		st->bm_nbits = (MD_SB_BYTES - 256) * 8;
	st->bm_on = calloc(st->bm_nbits, sizeof(*st->bm_on));
	return st->bm_on ? 0 : -ENOMEM;
}

void md_state_free(struct md_state *st)
{
	if (!st)
		return;
	free((void *)st->bm_on);
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
 * bits are set here, region by region, before the first write to a region
 * is sent (md_state_write_start), and stay set until the array is clean -
 * md then resyncs those regions after an unclean stop, never less than was
 * written.  A clean array (after its resync, or closed with nothing in
 * flight) has every bit cleared, whatever the level.
 */
enum md_bitmap_op {
	MD_BM_NONE,   /* leave the block alone (requests may be writing it) */
	MD_BM_HEADER, /* the header's event counts only */
	MD_BM_DIRTY,  /* header, and a mirror's bits being set (bm_on) added */
	MD_BM_CLEAN,  /* header, and every bit cleared */
};

/* Keep the bitmap's event counts with the superblock's (md: older is stale). */
static int md_state_bitmap(const struct md_state *st, struct rl_target *m,
                           const struct md_super *sb, enum md_bitmap_op op, bool mirror,
                           uint8_t *buf)
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
			bool set = op == MD_BM_DIRTY && i < st->bm_nbits &&
			           atomic_load_explicit(&st->bm_on[i], memory_order_relaxed);
			if (op == MD_BM_CLEAN || set)
				buf[256 + i / 8] = (uint8_t)(set ? buf[256 + i / 8] | bit
				                                 : buf[256 + i / 8] & ~bit);
		}
	}
	return md_member_io(m, RL_OP_WRITE, at, buf, MD_SB_BYTES);
}

/*
 * One state change: events + 1, the superblock to every live member, and
 * the bitmap block as @bm says.  Caller holds the lock.  A member whose
 * superblock cannot be written is failed, and the change is written again
 * to the others with it recorded faulty (md fails a member whose
 * superblock write fails); an error only when no member took it.
 */
static int md_state_write_once(struct md_state *st, struct raid_array *a, enum md_bitmap_op bm,
                               unsigned *written, bool *failed);

static int md_state_write(struct md_state *st, struct raid_array *a, enum md_bitmap_op bm)
{
	int rc = 0;

	for (unsigned tries = 0; tries <= st->n; tries++) {
		unsigned written = 0;
		bool failed = false;
		rc = md_state_write_once(st, a, bm, &written, &failed);
		if (!failed)
			break;
		if (!written)
			return rc ? rc : -EIO;
	}
	return rc;
}

static int md_state_write_once(struct md_state *st, struct raid_array *a, enum md_bitmap_op bm,
                               unsigned *written, bool *failed)
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
	if (st->fresh.events >= MD_EVENTS_MAX) { /* never wrap: 0 would lose to every member */
		free(buf);
		return -EOVERFLOW;
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
		if (s != RAID_MEMBER_REBUILDING)
			st->recovery[r] = 0;
		sb.recovery_offset = st->recovery[r] / 512;
		if (s == RAID_MEMBER_REBUILDING)
			sb.feature_map |= MD_FEATURE_RECOVERY_OFFSET;
		st->own[r] = sb;
		/* bits set before the superblock says dirty; cleared after it says clean */
		bitmap = bm != MD_BM_NONE && (sb.feature_map & MD_FEATURE_BITMAP_OFFSET);
		err =
		    bitmap && bm == MD_BM_DIRTY ? md_state_bitmap(st, m, &sb, bm, mirror, buf) : 0;
		md_super_encode(&sb, buf);
		if (!err)
			err = md_member_io(m, RL_OP_WRITE, MD_SB_OFFSET_BYTES, buf, MD_SB_BYTES);
		if (!err && bitmap && bm != MD_BM_DIRTY)
			err = md_state_bitmap(st, m, &sb, bm, mirror, buf);
		if (err && !rc)
			rc = err;
		if (err) { /* under the lock: no md_state_changed() from here */
			atomic_store_explicit(&a->m[r].state, RAID_MEMBER_FAILED,
			                      memory_order_release);
			*failed = true;
		} else {
			(*written)++;
		}
	}
	if (bm == MD_BM_CLEAN && st->bm_on)
		memset((void *)st->bm_on, 0, st->bm_nbits * sizeof(*st->bm_on));
	free(buf);
	return rc;
}

/* A mirror's new bits (bm_on 1) to every live member's bitmap block.  Caller holds the lock. */
static int md_state_bitmap_all(struct md_state *st, struct raid_array *a)
{
	uint8_t *buf = aligned_alloc(4096, MD_SB_BYTES);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (unsigned r = 0; r < st->n && !rc; r++) {
		struct rl_target *m = md_state_target(a, r);
		if (st->present[r] && m && raid_member_state(a, r) != RAID_MEMBER_FAILED &&
		    (st->own[r].feature_map & MD_FEATURE_BITMAP_OFFSET))
			rc = md_state_bitmap(st, m, &st->own[r], MD_BM_DIRTY, true, buf);
	}
	free(buf);
	return rc;
}

/*
 * Mark the bitmap regions that a mirror write to array bytes [@off,
 * @off+@len) touches on any member as being set (0 -> 1).  Returns whether
 * any was not set on disk yet; with @mark false it only looks.
 */
static bool md_state_bits(struct md_state *st, struct raid_array *a, uint64_t off, uint64_t len,
                          bool mark)
{
	struct raid_loc locs[RAID_MAX_MEMBERS];
	bool missing = false;
	uint64_t plen;

	for (uint64_t end = off + len; off < end; off += plen) {
		unsigned n = a->level->locate(a, off, end - off, &plen, locs);
		for (unsigned i = 0; i < n; i++)
			for (uint64_t b = locs[i].offset / st->bm_chunk;
			     b <= (locs[i].offset + plen - 1) / st->bm_chunk && b < st->bm_nbits;
			     b++) {
				uint8_t v =
				    atomic_load_explicit(&st->bm_on[b], memory_order_acquire);
				missing = missing || v != 2;
				if (mark && !v)
					atomic_store_explicit(&st->bm_on[b], 1,
					                      memory_order_relaxed);
			}
	}
	return missing;
}

void md_state_changed(struct md_state *st, struct raid_array *a)
{
	pthread_mutex_lock(&st->lock);
	if (md_state_write(st, a, MD_BM_NONE) && !st->quiet)
		fprintf(stderr, "md: writing the array state to the members failed\n");
	pthread_mutex_unlock(&st->lock);
}

/*
 * The dirty regions of md's bitmap as the first live in-sync member has
 * them, into @bits (a bit per region); their count, or 0 when there is no
 * bitmap to go by (the whole array is resynced then).
 */
static uint64_t md_state_dirty_regions(struct md_state *st, struct raid_array *a, uint8_t *bits)
{
	uint8_t *buf = aligned_alloc(4096, MD_SB_BYTES);
	uint64_t n = 0;
	int r;

	for (r = 0; buf && st->bm_chunk && r < (int)st->n; r++)
		if (st->present[r] && md_state_target(a, (unsigned)r) &&
		    raid_member_readable(a, (unsigned)r) &&
		    (st->own[r].feature_map & MD_FEATURE_BITMAP_OFFSET))
			break;
	if (buf && st->bm_chunk && r < (int)st->n &&
	    !md_member_io(md_state_target(a, (unsigned)r), RL_OP_READ,
	                  MD_SB_OFFSET_BYTES + (uint64_t)(int64_t)st->own[r].bitmap_offset * 512,
	                  buf, MD_SB_BYTES)) {
		memcpy(bits, buf + 256, (st->bm_nbits + 7) / 8);
		for (uint64_t b = 0; b < st->bm_nbits; b++)
			n += bits[b / 8] >> (b % 8) & 1;
	}
	free(buf);
	return n;
}

/*
 * md's resync after an unclean stop: the redundancy made to agree with the
 * data - in the dirty regions of the bitmap when the array has one, as md
 * does, else everywhere.
 */
static int md_state_resync(struct md_state *st, struct rl_target *array, struct rl_exec *ex,
                           char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(array);
	uint8_t bits[MD_SB_BYTES];
	struct raid_regions reg = {.bits = bits, .chunk = st->bm_chunk, .nbits = st->bm_nbits};
	const struct raid_regions *regions = NULL;
	int rc = 0;

	st->resync_regions = md_state_dirty_regions(st, a, bits);
	if (st->resync_regions)
		regions = &reg;
	if (!st->quiet)
		fprintf(stderr, "md: the array is not in sync (new, or not stopped cleanly): %s\n",
		        regions ? "resyncing the dirty regions of its bitmap" : "resyncing it");
	if (parity_array_of(array)) {
		struct parity_check_result pr;
		rc = parity_resync(parity_array_of(array), ex, regions, &pr, msg, msglen);
		st->resync_bytes = pr.bytes;
		if (!rc)
			parity_bitmap_forget(parity_array_of(array));
	} else if (a->copies > 1) {
		struct raid_scrub_opts so = {.repair = true, .source = -1, .regions = regions};
		struct raid_scrub_result sr;
		rc = raid_scrub(array, ex, &so, &sr, msg, msglen);
		st->resync_bytes = sr.bytes;
	}
	if (!rc && !st->quiet && regions)
		fprintf(stderr, "md: resynced %llu dirty region(s) of %llu, %llu bytes\n",
		        (unsigned long long)st->resync_regions, (unsigned long long)st->bm_nbits,
		        (unsigned long long)st->resync_bytes);
	return rc;
}

/* Does the array as opened differ from what the freshest superblock records? */
static bool md_state_differs(const struct md_state *st, struct raid_array *a)
{
	struct md_super sb;

	md_state_roles(st, a, &sb);
	return sb.max_dev != st->fresh.max_dev ||
	       memcmp(sb.roles, st->fresh.roles, sizeof(sb.roles[0]) * sb.max_dev);
}

/* The member a rebuild checkpoint is about. */
struct md_state_ckpt {
	struct md_state *st;
	struct raid_array *a;
	unsigned role;
};

/*
 * The rebuild has the member in sync below @in_sync: record it as the
 * member's recovery_offset every sixteenth of the member or every second,
 * whichever comes first (md checkpoints its recovery the same way), so an
 * interrupted rebuild resumes near where it stopped.
 */
static void md_state_checkpoint(void *arg, uint64_t in_sync)
{
	struct md_state_ckpt *c = arg;
	struct md_state *st = c->st;
	uint64_t now = rl_exec_wall_now(), step = st->fresh.size * 512 / 16;

	pthread_mutex_lock(&st->lock);
	if (in_sync >= st->recovery[c->role] + step || now - st->ckpt_ns >= 1000000000ull) {
		st->recovery[c->role] = in_sync;
		st->ckpt_ns = now;
		if (md_state_write(st, c->a, MD_BM_NONE) && !st->quiet)
			fprintf(stderr, "md: recording the rebuild's progress failed\n");
	}
	pthread_mutex_unlock(&st->lock);
}

/* Rebuild the stale member at role @r, from its recovery_offset when it has one. */
static int md_state_rebuild(struct md_state *st, struct rl_target *array, struct rl_exec *ex,
                            unsigned r, char *msg, size_t msglen)
{
	struct md_state_ckpt c = {.st = st, .a = raid_array_of(array), .role = r};
	struct raid_rebuild_opts ro = {.member = r,
	                               .resume = st->recovery[r],
	                               .checkpoint = md_state_checkpoint,
	                               .ckpt_arg = &c};
	struct raid_rebuild_result res;
	int rc;

	if (!st->quiet && ro.resume)
		fprintf(stderr,
		        "md: member %u was being rebuilt: resuming at its recovery offset %llu "
		        "sectors\n",
		        r, (unsigned long long)(ro.resume / 512));
	else if (!st->quiet && (st->overruled >> r & 1))
		fprintf(stderr,
		        "md: member %u was written apart from the survivor (split brain): "
		        "rebuilding it from the survivor, its own writes discarded\n",
		        r);
	else if (!st->quiet)
		fprintf(stderr, "md: member %u is behind the others (stale): rebuilding it\n", r);
	st->resumed[r] = ro.resume;
	st->ckpt_ns = rl_exec_wall_now();
	rc = raid_rebuild(array, ex, &ro, &res, msg, msglen);
	if (!rc)
		st->rebuilt |= 1ull << r;
	return rc;
}

/* Why role @r holds nothing the array can read, for a refusal message. */
static const char *md_state_absent(const struct md_state *st, unsigned r, uint64_t stale)
{
	if (stale >> r & 1)
		return st->overruled >> r & 1 ? "was written apart from the survivor (split brain)"
		                              : "is stale (behind the others)";
	if (st->present[r])
		return "is failed";
	for (uint32_t d = 0; d < st->fresh.max_dev && d < MD_SB_MAX_DEVS; d++)
		if (st->fresh.roles[d] == r)
			return "is not among the members given";
	return "is recorded failed or missing by the array";
}

/* "member 1 is not among the members given, member 2 is stale ..." into @buf. */
static void md_state_absent_list(const struct md_state *st, struct raid_array *a, uint64_t stale,
                                 char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (unsigned r = 0; r < a->n && at < len; r++)
		if (!raid_member_readable(a, r))
			at += (size_t)snprintf(buf + at, len - at, "%smember %u %s", at ? ", " : "",
			                       r, md_state_absent(st, r, stale));
}

/*
 * Everything the open would refuse, decided before a superblock is
 * written, so that a refused open leaves every byte of the members as it
 * found them (md, too, refuses an assembly without touching them): a
 * parity array stopped uncleanly with a member it cannot read (its parity
 * cannot be trusted, so it can be neither resynced nor written - md will
 * not start a dirty degraded array), stale members the others are too few
 * to rebuild, members too few to hold the data at all (raid5 of three
 * opened from one), and an event count too near its end to count the
 * open's changes.
 */
static int md_state_refuse(const struct md_state *st, struct rl_target *array, bool unclean,
                           uint64_t stale, char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(array);
	char why[384];

	md_state_absent_list(st, a, stale, why, sizeof(why));
	if (unclean && parity_array_of(array) && why[0]) {
		snprintf(msg, msglen,
		         "the array was not stopped cleanly and %s: its parity cannot be "
		         "trusted without every member, so it can be neither resynced nor "
		         "written (md refuses to start such an array too); nothing was written",
		         why);
		return -EIO;
	}
	if (st->fresh.events > MD_EVENTS_MAX - MD_STATE_EVENTS_ROOM) {
		snprintf(msg, msglen,
		         "events %llu: the event count is too near its end (%llu) to record the "
		         "changes of another open for writing; nothing was written",
		         (unsigned long long)st->fresh.events, (unsigned long long)MD_EVENTS_MAX);
		return -EOVERFLOW;
	}
	if (stale && !a->level->intact(a)) {
		snprintf(msg, msglen,
		         "%s: too few members are in sync to rebuild the stale ones from; "
		         "nothing was written",
		         why);
		return -EIO;
	}
	if (!a->level->intact(a)) {
		/* writing would record the missing members failed on the rest,
		 * and the array could not be opened whole again */
		snprintf(msg, msglen,
		         "%s: the members given are too few to hold the array's data (md will "
		         "not start it either); nothing was written",
		         why);
		return -EIO;
	}
	return 0;
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
	if ((rc = md_state_refuse(st, array, unclean, stale, msg, msglen)))
		return rc;
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
		rc = md_state_resync(st, array, ex, msg, msglen);
		st->resynced = !rc;
		if (!rc) {
			pthread_mutex_lock(&st->lock);
			st->dirty = false;
			rc = md_state_write(st, a, st->dirty ? MD_BM_HEADER : MD_BM_CLEAN);
			pthread_mutex_unlock(&st->lock);
		}
	}
	for (unsigned r = 0; r < a->n && !rc; r++)
		if (stale >> r & 1)
			rc = md_state_rebuild(st, array, ex, r, msg, msglen);
	rl_exec_destroy(ex);
	if (rc)
		a->md = NULL;
	return rc;
}

void md_state_write_start(struct md_state *st, struct raid_array *a, uint64_t off, uint64_t len)
{
	bool bits = st->bm_on && len && !parity_array_of(a->t);

	if (atomic_load_explicit(&st->dirty_seen, memory_order_acquire) &&
	    !(bits && md_state_bits(st, a, off, len, false)))
		return;
	pthread_mutex_lock(&st->lock);
	if (bits)
		bits = md_state_bits(st, a, off, len, true);
	if (!st->dirty) {
		st->dirty = true;
		/* a mirror's bits go with it (nothing else writes that block) */
		if (md_state_write(st, a, parity_array_of(a->t) ? MD_BM_NONE : MD_BM_DIRTY) &&
		    !st->quiet)
			fprintf(stderr, "md: recording the array dirty failed\n");
	} else if (bits && md_state_bitmap_all(st, a) && !st->quiet) {
		fprintf(stderr, "md: setting bits of the write-intent bitmap failed\n");
	}
	for (uint64_t b = 0; bits && b < st->bm_nbits; b++) /* on disk now */
		if (atomic_load_explicit(&st->bm_on[b], memory_order_relaxed) == 1)
			atomic_store_explicit(&st->bm_on[b], 2, memory_order_release);
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
	if (st->resynced) {
		/* what the resync went over: the bitmap's dirty regions, or all (0) */
		json_object_object_add(md, "resync_regions",
		                       json_object_new_int64((int64_t)st->resync_regions));
		json_object_object_add(md, "resync_bytes",
		                       json_object_new_int64((int64_t)st->resync_bytes));
	}
	for (unsigned r = 0; r < st->n; r++)
		if (st->rebuilt >> r & 1)
			json_object_array_add(rebuilt, json_object_new_int((int)r));
	json_object_object_add(md, "rebuilt", rebuilt);
	for (unsigned r = 0; r < st->n; r++) {
		struct json_object *res;
		char key[16];
		if (!st->resumed[r])
			continue;
		/* a rebuild resumed at the member's recovery_offset (bytes) */
		if (!(res = json_object_object_get(md, "resumed"))) {
			res = json_object_new_object();
			json_object_object_add(md, "resumed", res);
		}
		snprintf(key, sizeof(key), "%u", r);
		json_object_object_add(res, key, json_object_new_int64((int64_t)st->resumed[r]));
	}
	pthread_mutex_unlock(&st->lock);
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
