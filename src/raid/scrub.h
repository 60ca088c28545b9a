/*
 * scrub.h - compare the copies of every piece of a mirrored array (md
 * "check") and optionally rewrite the ones that differ (md "repair").
 *
 * The walk reads every readable copy of a piece straight from the members,
 * compares each with the source copy block by block (array block size),
 * and reports each run of differing blocks as one mismatch with its array
 * offset and both member offsets.  The source copy is the one on
 * opts.source when that member holds a copy of the piece and is in sync,
 * else the first in-sync copy in the layout's copy order (md resync copies
 * from the first device the same way).
 */
#ifndef RL_RAID_SCRUB_H
#define RL_RAID_SCRUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/target.h"

struct raid_mismatch {
	uint64_t array_offset; /* first differing block, in the array */
	uint64_t len;          /* bytes of the run of differing blocks */
	unsigned member;       /* the copy that differs */
	uint64_t member_offset;
	unsigned source; /* the copy it was compared with */
	uint64_t source_offset;
	bool repaired; /* rewritten from the source */
	/*
	 * raid5/raid6 (parity set): one per stripe.  member_offset and len
	 * span its mismatching rows (the same offsets on every member), bytes
	 * counts them; array_offset and array_len are the stripe's data.  The
	 * stripe's P is on member p_member (Q on q_member, raid6; else -1),
	 * its data on the members of data_members.  blamed: the members raid6
	 * found wrong (member is the one, when it is alone and explains every
	 * row; unexplained: some row has no single wrong member).
	 */
	bool parity;
	uint64_t stripe, array_len, bytes;
	unsigned p_member;
	int q_member;
	uint64_t data_members, blamed;
	bool unexplained;
};

struct raid_regions;

struct raid_scrub_opts {
	bool repair;   /* rewrite differing copies from the source copy */
	int source;    /* trusted member, or -1: the first in-sync copy */
	uint64_t unit; /* bytes per step (0: 1 MiB); raid10 steps are at most a chunk */
	void (*mismatch)(void *arg, const struct raid_mismatch *m); /* each mismatch (optional) */
	void (*progress)(void *arg, uint64_t done, uint64_t total); /* after each step (optional) */
	void *arg;
	/* Only the pieces with a copy in these regions (md's bitmap); NULL: all. */
	const struct raid_regions *regions;
};

struct raid_scrub_result {
	uint64_t bytes;          /* array bytes checked */
	uint64_t mismatches;     /* runs of differing blocks (parity: stripes) */
	uint64_t mismatch_bytes; /* their total length (parity: of the mismatching rows) */
	uint64_t repaired;       /* runs rewritten */
	uint64_t read_errors;    /* copy reads that failed (that copy was skipped) */
	uint64_t skipped;        /* pieces with fewer than two readable copies */
	uint64_t elapsed_ns;
};

/**
 * Scrub array @t on executor @ex (attached).  Returns 0 when the walk
 * completed (mismatches are in @res, not an error); -EINVAL with @msg when
 * @t is not a mirrored array or opts.source is not a usable member; -EIO
 * with @msg when a repair write failed.
 */
int raid_scrub(struct rl_target *t, struct rl_exec *ex, const struct raid_scrub_opts *opts,
               struct raid_scrub_result *res, char *msg, size_t msglen);

#endif
