/*
 * parity_replay.c - what happens to a raid5/raid6 array's members between
 * building it and using it, and when its power is cut and restored: the
 * power-loss injection, md's journal and partial parity log replay (the
 * records are parity_log.c's), loading an md write-intent bitmap, and the
 * initial resync of members that were just created.  Each step runs on a
 * throwaway synchronous executor; parity_build.c calls them at open.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/sync.h"
#include "raid/parity_priv.h"

/* A throwaway synchronous executor with the array attached, for one step. */
static int parity_step_exec(struct parity_array *pa, struct rl_exec **out)
{
	int rc = rl_exec_create(RL_EXEC_PSYNC, 16, 0, out);

	if (rc)
		return rc;
	rc = rl_target_attach(pa->a.t, *out);
	if (rc) {
		rl_exec_destroy(*out);
		*out = NULL;
	}
	return rc;
}

/* --- power loss and log replay --- */

void parity_powerloss_arm(struct parity_array *pa, uint64_t writes)
{
	atomic_store_explicit(&pa->powered_writes, 0, RELAXED);
	pa->powerloss_after = writes;
}

bool parity_power_failed(const struct parity_array *pa)
{
	return atomic_load_explicit(&pa->off, RELAXED);
}

/* Journal: rewrite every member write of every valid record. */
static int parity_replay_journal(struct parity_array *pa, struct rl_exec *ex, uint8_t *buf,
                                 uint64_t *records)
{
	struct parity_log_hdr h;
	int rc;

	for (unsigned i = 0; i < pa->nslots; i++) {
		uint64_t at = PARITY_LOG_HDR;
		rc = rl_io_sync(pa->journal, ex, RL_OP_READ, i * pa->recsize, (uint32_t)pa->recsize,
		                buf, 0);
		if (rc)
			return rc;
		if (parity_log_decode(buf, buf + PARITY_LOG_HDR, pa->recsize - PARITY_LOG_HDR,
		                      &h) ||
		    h.kind != PARITY_LOG_JOURNAL)
			continue;
		for (uint32_t e = 0; e < h.nentries; e++) {
			unsigned m = h.e[e].member;
			if (m < pa->a.n && raid_member_writable(&pa->a, m) &&
			    rl_io_sync(pa->a.t->children[m], ex, RL_OP_WRITE, h.e[e].offset,
			               h.e[e].len, buf + at, 0))
				raid_member_error(&pa->a, m, -EIO);
			at += h.e[e].len;
		}
		(*records)++;
	}
	return 0;
}

/* PPL: parity = partial parity + the modified chunks as they are now. */
static int parity_replay_ppl(struct parity_array *pa, struct rl_exec *ex, uint8_t *buf,
                             uint8_t *rows, uint64_t *records)
{
	struct parity_log_hdr h;
	int rc;

	for (unsigned m = 0; m < pa->a.n; m++) {
		if (!raid_member_readable(&pa->a, m))
			continue;
		for (unsigned i = 0; i < pa->nslots; i++) {
			struct parity_stripe ps;
			bool ok = true;
			uint64_t len;
			/* A member that cannot be read or written here is failed, as md
			 * would; its records are of no use then. */
			rc = rl_io_sync(pa->a.t->children[m], ex, RL_OP_READ,
			                pa->log_base + i * pa->recsize, (uint32_t)pa->recsize, buf,
			                0);
			if (rc) {
				raid_member_error(&pa->a, m, rc);
				break;
			}
			if (parity_log_decode(buf, buf + PARITY_LOG_HDR,
			                      pa->recsize - PARITY_LOG_HDR, &h) ||
			    h.kind != PARITY_LOG_PPL || h.stripe >= pa->g.stripes ||
			    h.hi > pa->g.chunk)
				continue;
			parity_geom_stripe(&pa->g, h.stripe, &ps);
			if (ps.pd != m)
				continue;
			len = h.hi - h.lo;
			for (uint32_t e = 0; e < h.nentries && ok; e++) {
				const struct parity_log_entry *x = &h.e[e];
				uint64_t n = x->end - x->offset;
				if (x->member >= pa->a.n || x->offset < h.lo || x->end > h.hi ||
				    x->end <= x->offset ||
				    !raid_member_readable(&pa->a, x->member)) {
					ok = false;
					break;
				}
				memset(rows, 0, len);
				rc = rl_io_sync(pa->a.t->children[x->member], ex, RL_OP_READ,
				                pa->doff + h.stripe * pa->g.chunk + x->offset,
				                (uint32_t)n, rows + (x->offset - h.lo), 0);
				if (rc) {
					raid_member_error(&pa->a, x->member, rc);
					ok = false;
					break;
				}
				parity_xor_into(buf + PARITY_LOG_HDR, rows, rows + pa->height, len);
			}
			if (!ok)
				continue;
			rc = rl_io_sync(pa->a.t->children[m], ex, RL_OP_WRITE,
			                pa->doff + h.stripe * pa->g.chunk + h.lo, (uint32_t)len,
			                buf + PARITY_LOG_HDR, 0);
			if (rc) {
				raid_member_error(&pa->a, m, rc);
				break;
			}
			(*records)++;
		}
	}
	return 0;
}

int parity_power_restore(struct parity_array *pa, struct rl_exec *ex, uint64_t *records, char *msg,
                         size_t msglen)
{
	uint8_t *buf = NULL, *rows = NULL;
	uint64_t n = 0;
	int rc = 0;

	atomic_store_explicit(&pa->off, false, RELAXED);
	pa->powerloss_after = 0;
	if (pa->log && pa->data) {
		buf = aligned_alloc(4096, pa->recsize);
		rows = aligned_alloc(4096, 2 * pa->height);
		if (!buf || !rows) {
			rc = -ENOMEM;
		} else {
			rc = pa->log == PARITY_LOG_JOURNAL
			         ? parity_replay_journal(pa, ex, buf, &n)
			         : parity_replay_ppl(pa, ex, buf, rows, &n);
			if (rc)
				snprintf(msg, msglen, "replaying the %s failed: %s",
				         pa->log == PARITY_LOG_JOURNAL ? "journal"
				                                       : "partial parity log",
				         strerror(-rc));
		}
	}
	free(buf);
	free(rows);
	if (records)
		*records = n;
	return rc;
}

void parity_bitmap_forget(struct parity_array *pa)
{
	if (!pa->bm_chunk)
		return;
	for (uint64_t i = 0; i < pa->bm_bits; i++) {
		atomic_store_explicit(&pa->bm_set[i], 0, RELAXED);
		pa->bm_block[pa->bm_bits_at + i / 8] &= (uint8_t) ~(1u << (i % 8));
	}
}

/* An md bitmap: start from its block as it is (header and bits) and keep it. */
int parity_bitmap_load(struct parity_array *pa, char *msg, size_t msglen)
{
	struct rl_exec *ex = NULL;
	int rc = parity_step_exec(pa, &ex);

	if (rc)
		return rc;
	for (unsigned m = 0; !rc && m < pa->a.n; m++) {
		if (!raid_member_readable(&pa->a, m))
			continue;
		rc = rl_io_sync(pa->a.t->children[m], ex, RL_OP_READ, pa->bm_base, PARITY_BM_BLOCK,
		                pa->bm_block, 0);
		if (rc)
			snprintf(msg, msglen, "reading the bitmap of member %u failed: %s", m,
			         strerror(-rc));
		break;
	}
	rl_exec_destroy(ex);
	if (rc)
		return rc;
	for (uint64_t i = 0; i < pa->bm_bits; i++)
		if (pa->bm_block[pa->bm_bits_at + i / 8] >> (i % 8) & 1)
			atomic_store_explicit(&pa->bm_set[i], 1, RELAXED);
	return 0;
}

/*
 * md's initial resync for an array whose members were all just created
 * and filled with arbitrary data: its parity was never computed, so a
 * read-modify-write would carry the garbage into every parity it updates
 * and a failed member would be rebuilt from it.  The parity is rewritten
 * from the data before the array is used.  Sets *done.
 *
 * Not on a read-only open (info, check without --repair, a job that only
 * reads): writing there would fail on members opened for reading, and
 * would change what the command was asked only to look at.  The array is
 * then marked resync_pending, and says so: its data reads back as the
 * members hold it, but its parity means nothing yet (check counts every
 * stripe a mismatch; a writable open resyncs first).
 */
int parity_resync_fresh(struct parity_array *pa, bool writable, bool *done, char *msg,
                        size_t msglen)
{
	struct parity_check_result pr;
	struct rl_exec *ex = NULL;
	int rc;

	*done = false;
	if (!pa->data || (rl_target_leaf_caps(pa->a.t) & RL_CAP_VIRTUAL))
		return 0;
	for (unsigned m = 0; m < pa->a.n; m++)
		if (!(rl_target_leaf_caps(pa->a.t->children[m]) & RL_CAP_FRESH) ||
		    !raid_member_readable(&pa->a, m))
			return 0;
	if (!writable) {
		pa->resync_pending = true;
		return 0;
	}
	rc = parity_step_exec(pa, &ex);
	if (rc)
		return rc;
	rc = parity_check(pa, ex, PARITY_RESYNC, NULL, NULL, &pr, msg, msglen);
	rl_exec_destroy(ex);
	*done = !rc;
	return rc;
}

/*
 * Replay at open, as md does at assembly, with a throwaway executor.  Only
 * when the array is opened for writing: a read-only open cannot write the
 * members (every replayed write would fail its member).  The power-loss
 * injection armed by the spec stays armed (the replay is not a power cut).
 */
int parity_replay_at_open(struct parity_array *pa, bool writable, char *msg, size_t msglen)
{
	uint64_t armed = pa->powerloss_after;
	struct rl_exec *ex = NULL;
	int rc;

	if (!writable || !pa->log || !pa->data || (rl_target_leaf_caps(pa->a.t) & RL_CAP_VIRTUAL))
		return 0;
	rc = parity_step_exec(pa, &ex);
	if (rc)
		return rc;
	rc = parity_power_restore(pa, ex, NULL, msg, msglen);
	rl_exec_destroy(ex);
	pa->powerloss_after = armed;
	return rc;
}
