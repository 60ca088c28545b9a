/*
 * rebuild.c - reconstruct one member of a raid1/raid10 from the others
 * (see rebuild.h), plus the executor helper the array tools share.
 *
 * The walk: for each piece of the array (the level's locate hook), find the
 * copy that lives on the member being rebuilt; read another copy from an
 * in-sync member (on a read error, count it and try the next copy), write
 * it to the rebuilt member at its own offset.  Pieces with no copy on that
 * member are skipped, so raid10 with more members than copies only touches
 * the member's share.  The rate limit sleeps after a step until the bytes
 * written so far fit in rate * elapsed (wall clock).  The member is
 * flushed at the end.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exec.h"
#include "core/sync.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/rebuild.h"

#define REBUILD_UNIT (1u << 20)

/* Sleep until @bytes at @rate B/s since @start fit (no-op without a rate). */
static void rebuild_throttle(uint64_t start, uint64_t bytes, uint64_t rate)
{
	uint64_t due, now;

	if (!rate)
		return;
	due = start + (uint64_t)((double)bytes * 1e9 / (double)rate);
	now = rl_exec_wall_now();
	if (due > now) {
		struct timespec ts = {.tv_sec = (time_t)((due - now) / 1000000000ull),
		                      .tv_nsec = (long)((due - now) % 1000000000ull)};
		nanosleep(&ts, NULL);
	}
}

int raid_tool_exec(struct rl_target *t, struct rl_exec **out)
{
	struct rl_exec *ex = NULL;
	int rc;

	if (rl_target_leaf_caps(t) & RL_CAP_VIRTUAL) {
		rc = rl_exec_create(RL_EXEC_VIRTUAL, 256, 0, &ex);
		if (!rc)
			ex->vnow = t->vtime; /* the stack's simulated time goes on */
	} else {
		rc = rl_exec_create(RL_EXEC_URING, 256, 64, &ex);
		if (rc)
			rc = rl_exec_create(RL_EXEC_PSYNC, 256, 0, &ex);
	}
	if (rc)
		return rc;
	rc = rl_target_attach(t, ex);
	if (rc) {
		rl_exec_destroy(ex);
		return rc;
	}
	*out = ex;
	return 0;
}

/*
 * Read a good copy of the piece into @buf: the in-sync copies other than
 * @skip, in copy order.  Returns 0, or -EIO when none could be read.
 */
static int rebuild_read_source(struct raid_array *a, struct rl_exec *ex,
                               const struct raid_loc *locs, unsigned n, unsigned skip, uint64_t len,
                               void *buf, struct raid_rebuild_result *res)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned m = locs[i].member;
		if (i == skip || !raid_member_readable(a, m))
			continue;
		if (!rl_io_sync(a->t->children[m], ex, RL_OP_READ, locs[i].offset, (uint32_t)len,
		                buf, 0))
			return 0;
		res->read_errors++;
	}
	return -EIO;
}

/* A replacement smaller than the others would shrink the array (any level). */
static int raid_rebuild_smaller(struct rl_target *t, const struct raid_array *a, unsigned member,
                                char *msg, size_t msglen)
{
	uint64_t sizes[RAID_MAX_MEMBERS], others = UINT64_MAX;

	raid_member_sizes(t, sizes);
	for (unsigned i = 0; i < a->n; i++)
		if (i != member && sizes[i] < others)
			others = sizes[i];
	if (sizes[member] >= others)
		return 0;
	snprintf(msg, msglen,
	         "member %u holds %llu bytes, less than the %llu bytes of the other members: a "
	         "smaller replacement would shrink the array",
	         member, (unsigned long long)sizes[member], (unsigned long long)others);
	return -EINVAL;
}

/*
 * How far the member is in sync during a mirrored walk: the member offsets
 * written so far form one run from the resume point (raid1, raid10 near
 * copies) until a piece lands elsewhere (far and offset copies jump ahead)
 * or cannot be rebuilt; from then on the checkpoint stays where it is.
 */
struct rebuild_run {
	uint64_t end; /* member bytes below this are in sync */
	bool ordered; /* still one run */
};

static void rebuild_run_add(struct rebuild_run *run, const struct raid_rebuild_opts *opts,
                            uint64_t at, uint64_t len, bool ok)
{
	if (!run->ordered || !ok || at > run->end) {
		run->ordered = false;
		return;
	}
	if (at + len > run->end)
		run->end = at + len;
	if (opts->checkpoint)
		opts->checkpoint(opts->ckpt_arg, run->end);
}

/* Copy one piece to the member (@k is its copy there).  0, or -EIO with @msg. */
static int rebuild_piece(struct raid_array *a, struct rl_exec *ex,
                         const struct raid_rebuild_opts *opts, const struct raid_loc *locs,
                         unsigned n, unsigned k, uint64_t off, uint64_t len, void *buf,
                         struct rebuild_run *run, struct raid_rebuild_result *res, char *msg,
                         size_t msglen)
{
	int rc;

	if (locs[k].offset + len <= opts->resume)
		return 0; /* below md's recovery_offset: in sync already */
	if (rebuild_read_source(a, ex, locs, n, k, len, buf, res)) {
		if (!res->unrecoverable++)
			res->first_unrecoverable = off;
		rebuild_run_add(run, opts, locs[k].offset, len, false);
		return 0;
	}
	rc = rl_io_sync(a->t->children[opts->member], ex, RL_OP_WRITE, locs[k].offset,
	                (uint32_t)len, buf, 0);
	if (rc) {
		snprintf(msg, msglen, "writing member %u at offset %llu failed: %s", opts->member,
		         (unsigned long long)locs[k].offset, strerror(-rc));
		return -EIO;
	}
	res->bytes += len;
	rebuild_run_add(run, opts, locs[k].offset, len, true);
	return 0;
}

/* Checks before a mirrored walk.  0, or -EINVAL with @msg. */
static int rebuild_mirror_check(struct rl_target *t, const struct raid_array *a,
                                const struct raid_rebuild_opts *opts, uint64_t unit, char *msg,
                                size_t msglen)
{
	if (!a || a->copies < 2) {
		snprintf(msg, msglen, "%s has no redundancy: there is nothing to rebuild from",
		         a ? a->level->name : t->ops->name);
		return -EINVAL;
	}
	if (opts->member >= a->n) {
		snprintf(msg, msglen, "member %u does not exist (the array has members 0..%u)",
		         opts->member, a->n - 1);
		return -EINVAL;
	}
	if (unit % t->block_size || unit > (1u << 30)) {
		snprintf(msg, msglen, "the rebuild unit must be a multiple of %u", t->block_size);
		return -EINVAL;
	}
	return 0;
}

/* raid5/raid6: rebuilt from parity, stripe by stripe (parity_tools.c). */
static int rebuild_parity(struct rl_target *t, struct rl_exec *ex,
                          const struct raid_rebuild_opts *opts, struct raid_rebuild_result *res,
                          char *msg, size_t msglen)
{
	struct parity_rebuild_result pr;
	uint64_t start = rl_exec_wall_now();
	int rc = parity_rebuild_opts(parity_array_of(t), ex, opts, &pr, msg, msglen);

	res->bytes = pr.bytes;
	res->read_errors = pr.read_errors;
	res->unrecoverable = pr.unrecoverable;
	res->first_unrecoverable = pr.first_unrecoverable;
	res->elapsed_ns = rl_exec_wall_now() - start;
	return rc;
}

int raid_rebuild(struct rl_target *t, struct rl_exec *ex, const struct raid_rebuild_opts *opts,
                 struct raid_rebuild_result *res, char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(t);
	uint64_t unit = opts->unit ? opts->unit : REBUILD_UNIT, start, len;
	struct rebuild_run run = {.end = opts->resume, .ordered = true};
	struct raid_loc locs[RAID_MAX_MEMBERS];
	struct rl_target *dst;
	void *buf = NULL;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (a && opts->member < a->n && raid_rebuild_smaller(t, a, opts->member, msg, msglen))
		return -EINVAL;
	if (parity_array_of(t))
		return rebuild_parity(t, ex, opts, res, msg, msglen);
	if ((rc = rebuild_mirror_check(t, a, opts, unit, msg, msglen)))
		return rc;
	if (posix_memalign(&buf, 4096, unit))
		return -ENOMEM;
	dst = t->children[opts->member];
	raid_member_set(a, opts->member, RAID_MEMBER_REBUILDING);
	start = rl_exec_wall_now();
	for (uint64_t off = 0; off < t->size && !rc; off += len) {
		unsigned n = a->level->locate(a, off, t->size - off < unit ? t->size - off : unit,
		                              &len, locs);

		for (unsigned k = 0; k < n && !rc; k++)
			if (locs[k].member == opts->member) {
				rc = rebuild_piece(a, ex, opts, locs, n, k, off, len, buf, &run,
				                   res, msg, msglen);
				rebuild_throttle(start, res->bytes, opts->rate);
				break;
			}
		if (opts->progress)
			opts->progress(opts->arg, off + len, t->size);
	}
	if (!rc && (rc = rl_io_sync(dst, ex, RL_OP_FLUSH, 0, 0, NULL, 0))) {
		snprintf(msg, msglen, "flushing member %u failed: %s", opts->member, strerror(-rc));
		rc = -EIO;
	}
	if (!rc && res->unrecoverable) {
		snprintf(msg, msglen,
		         "%llu piece(s) had no readable copy (first at array offset %llu); the "
		         "member holds garbage there",
		         (unsigned long long)res->unrecoverable,
		         (unsigned long long)res->first_unrecoverable);
		rc = -EIO;
	}
	raid_member_set(a, opts->member, rc ? RAID_MEMBER_FAILED : RAID_MEMBER_IN_SYNC);
	res->elapsed_ns = rl_exec_wall_now() - start;
	free(buf);
	return rc;
}
