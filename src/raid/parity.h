/*
 * parity.h - the parity engine that raid5.c and raid6.c run on.
 *
 * A level file only parses its spec and names its level; everything else -
 * the stripe cache, the write path, degraded operation, read-error
 * correction, rebuild and check/repair - is this engine, written once for
 * one or two parity blocks (as SPDK's raid module keeps one engine and one
 * file per level).  See parity.c for the data path and parity_build.c for
 * building, reporting and power restore.
 *
 * Spec parameters every parity level takes:
 *   layout=NAME          md algorithm (parity_layout.h), default left-symmetric
 *   chunk=SIZE           default 512k (mdadm's default)
 *   stripe_cache=N       stripe cache entries (md stripe_cache_size), default 128
 *   stripe_size=SIZE     height of one entry on each member, default 16k
 *   max-read-errors=N    corrected read errors a member may have before it is
 *                        failed (md max_read_errors), default 20
 *   failed=K[+K...]      members that start failed
 *   journal=SPEC         write journal on a separate target (parity_log.h)
 *   ppl=on               partial parity log on the members (raid5)
 *   powerloss-after=N    the power fails after N member writes: nothing more
 *                        reaches the members (for showing the write hole)
 *   bitmap-chunk=SIZE    model md's write-intent bitmap cost (parity.c)
 *   bitmap-offset=OFF    member offset of an md bitmap (superblock, then bits) to
 *                        keep up to date, instead of a block at the members' end
 *   data-offset=SIZE     the data starts this far into every member (md's
 *                        data_offset; md(...) passes it)
 */
#ifndef RL_RAID_PARITY_H
#define RL_RAID_PARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/registry.h"
#include "raid/parity_layout.h"
#include "raid/raid_common.h"

struct parity_array;

/** What a level file tells the engine. */
struct parity_level_desc {
	const char *name; /* "raid5" */
	unsigned level;   /* 5 or 6 */
	unsigned nparity; /* 1 or 2 */
	const struct rl_target_ops *ops;
};

/**
 * The create hook of the raid5 and raid6 target types: parity_create()
 * with the level @node names (the level table is in parity_build.c).
 */
int parity_type_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err);

/** Build a parity array from @node (members and the parameters above). */
int parity_create(const struct parity_level_desc *d, struct rl_spec_node *node,
                  const struct rl_build_ctx *ctx, struct rl_target **out, struct rl_err *err);

/* The ops every parity level uses. */
void parity_submit(struct rl_target *t, struct rl_io *io);
void parity_destroy(struct rl_target *t);
int parity_attach(struct rl_target *t, struct rl_exec *ex);
void parity_target_finish(struct rl_target *t);

/** The parity array behind @t, or NULL when @t is not one. */
struct parity_array *parity_array_of(struct rl_target *t);

/** Its geometry. */
const struct parity_geom *parity_geom_of(const struct parity_array *pa);

/** Its parity blocks per row: 1 (raid5) or 2 (raid6). */
unsigned parity_parity_count(const struct parity_array *pa);

/** Member offset where stripe 0 begins (data-offset=, md's data_offset). */
uint64_t parity_data_offset(const struct parity_array *pa);

/* --- power loss (tests, demonstrations) --- */

/** Fail the power after @writes more member writes (data or parity; 0 disarms). */
void parity_powerloss_arm(struct parity_array *pa, uint64_t writes);

/** True once the injected power failure happened. */
bool parity_power_failed(const struct parity_array *pa);

/**
 * Power back on, as md assembles an array after a crash: clear the failure
 * and replay the journal or the partial parity log (number of records
 * replayed in *records).  0, or a negative errno with @msg.
 */
int parity_power_restore(struct parity_array *pa, struct rl_exec *ex, uint64_t *records, char *msg,
                         size_t msglen);

/* --- tools: rebuild and check/repair (parity_tools.c) --- */

struct parity_rebuild_result {
	uint64_t bytes;         /* written to the rebuilt member */
	uint64_t read_errors;   /* source reads that failed */
	uint64_t unrecoverable; /* stripe rows that could not be rebuilt */
	uint64_t first_unrecoverable;
};

/**
 * Rebuild member @member of @pa from the others, stripe by stripe, at
 * most @rate bytes/s (0: unlimited).  The member is rebuilding during the
 * walk and in sync after it.  0, or -EIO with @msg.
 */
int parity_rebuild(struct parity_array *pa, struct rl_exec *ex, unsigned member, uint64_t rate,
                   void (*progress)(void *, uint64_t, uint64_t), void *arg,
                   struct parity_rebuild_result *res, char *msg, size_t msglen);

struct raid_rebuild_opts;

/**
 * parity_rebuild() with every option of raid_rebuild(): the member, rate,
 * progress, and md's resume point and checkpoints (rebuild.h); the
 * member's offsets there count from its data start (stripe s at s*chunk).
 */
int parity_rebuild_opts(struct parity_array *pa, struct rl_exec *ex,
                        const struct raid_rebuild_opts *opts, struct parity_rebuild_result *res,
                        char *msg, size_t msglen);

/* One stripe whose parity disagrees with its data, in one or more block rows. */
struct parity_mismatch {
	uint64_t stripe;        /* stripe number */
	uint64_t member_offset; /* first mismatching row, on every member */
	uint64_t len;           /* bytes from it to the end of the last mismatching row */
	uint64_t bytes;         /* bytes of the rows that mismatch (per member) */
	int member;             /* raid6: the one member found wrong; -1 when unknown */
	uint64_t blamed;        /* raid6: members found wrong in some row (bit per member) */
	bool unexplained;       /* raid6: some row has no single wrong member */
	bool repaired;          /* every mismatching row was rewritten */
};

struct parity_check_result {
	uint64_t bytes;          /* array bytes checked */
	uint64_t mismatches;     /* stripes with a mismatch */
	uint64_t mismatch_bytes; /* bytes of their mismatching rows (per member) */
	uint64_t repaired;       /* stripes rewritten */
	uint64_t read_errors;    /* member reads that failed */
	uint64_t skipped;        /* rows not checkable (a member missing) */
};

enum parity_check_mode {
	PARITY_CHECK = 0,  /* md "check": count mismatches */
	PARITY_REPAIR = 1, /* md "repair": rewrite what is wrong */
	PARITY_RESYNC = 2, /* md resync: parity is rewritten from the data, never the data */
};

/**
 * Recompute P (and Q) of every row from the data and compare.  raid5
 * repair rewrites P; raid6 repair names the wrong member from the
 * syndromes and rewrites that one (P and Q when no single member explains
 * it); resync rewrites P and Q from the data.  0, or -EIO with @msg when a
 * write failed.
 */
int parity_check(struct parity_array *pa, struct rl_exec *ex, enum parity_check_mode mode,
                 void (*mismatch)(void *, const struct parity_mismatch *), void *arg,
                 struct parity_check_result *res, char *msg, size_t msglen);

struct raid_regions;

/**
 * md's resync after an unclean stop: parity rewritten from the data in the
 * stripes that touch @regions (the dirty bits of md's bitmap; NULL: every
 * stripe).  0, or -EIO with @msg.
 */
int parity_resync(struct parity_array *pa, struct rl_exec *ex, const struct raid_regions *regions,
                  struct parity_check_result *res, char *msg, size_t msglen);

/* --- live rebuild under the server (raid_ctl.c's RL_CTL_ROW, RL_CTL_RECONSTRUCT) --- */

struct rl_ctl;

/** RL_CTL_ROW: where the row at c->offset of the members' data areas lies. */
int parity_ctl_row(struct parity_array *pa, struct rl_ctl *c);

/** RL_CTL_RECONSTRUCT: compute the c->missing members' blocks of the row. */
int parity_ctl_reconstruct(struct parity_array *pa, struct rl_ctl *c);

/** The array is in sync again: forget the bitmap bits found set at open. */
void parity_bitmap_forget(struct parity_array *pa);

#endif
