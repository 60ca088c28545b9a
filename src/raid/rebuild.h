/*
 * rebuild.h - reconstruct one member of a mirrored array (raid1, raid10)
 * from the others, and the executor helper the array tools share.
 *
 * A rebuild can resume: opts.resume skips the member's first bytes (md's
 * recovery_offset), and opts.checkpoint hears how far the member is in
 * sync as the walk goes, so an interrupted rebuild is not started again.
 *
 * The walk goes over the array in pieces (raid10: chunk pieces; raid1:
 * units of opts.unit bytes); for every piece that has a copy on the member
 * being rebuilt, it reads a surviving copy straight from its member and
 * writes it to the rebuilt member at that copy's offset.  The array's own
 * data path is not used, so the walk sees exactly md's layout and nothing
 * else.  One request at a time (rl_io_sync): simple, and fast enough for a
 * tool; opts.rate caps the write rate.
 */
#ifndef RL_RAID_REBUILD_H
#define RL_RAID_REBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/target.h"

struct raid_rebuild_opts {
	unsigned member; /* index of the member to reconstruct */
	uint64_t rate;   /* bytes per second written to it; 0 = as fast as possible */
	uint64_t unit;   /* bytes per step (0: 1 MiB); raid10 steps are at most a chunk */
	/* Called after every step with array bytes walked so far (optional). */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *arg;
	/*
	 * md's recovery_offset: the member's first @resume bytes (from its data
	 * start) are known in sync and are not rewritten.  The walk calls
	 * @checkpoint (optional) after every step with the member offset below
	 * which everything is now in sync, for the caller to record.
	 */
	uint64_t resume;
	void (*checkpoint)(void *ckpt_arg, uint64_t in_sync);
	void *ckpt_arg;
};

struct raid_rebuild_result {
	uint64_t bytes;               /* written to the member */
	uint64_t read_errors;         /* source reads that failed (the next copy was tried) */
	uint64_t unrecoverable;       /* pieces with no readable copy left */
	uint64_t first_unrecoverable; /* array offset of the first of them */
	uint64_t elapsed_ns;
};

/**
 * Rebuild member opts->member of array @t on executor @ex (attached).  The
 * member is marked rebuilding during the walk and in sync after it.
 * Returns 0; -EINVAL with @msg when @t is not a mirrored array or the
 * member does not exist; -EIO with @msg when a write to the member failed
 * or some piece had no readable copy (see @res).
 */
int raid_rebuild(struct rl_target *t, struct rl_exec *ex, const struct raid_rebuild_opts *opts,
                 struct raid_rebuild_result *res, char *msg, size_t msglen);

/**
 * An executor for a tool working on @t: virtual if the stack has simulated
 * leaves, else io_uring, falling back to psync where io_uring is not
 * available.  Attaches @t to it.  Returns 0 or a negative errno.
 */
int raid_tool_exec(struct rl_target *t, struct rl_exec **out);

#endif
