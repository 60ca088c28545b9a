/*
 * parity_tools.c - rebuild and check/repair of raid5/raid6 (parity.h).
 *
 * Both walk the array one stripe at a time, one chunk-tall row per member,
 * reading the members directly with rl_io_sync (a tool, not the measured
 * data path; the array's own cache is not involved, so run them while the
 * array is otherwise idle, as raidlab's rebuild and check commands do).
 *
 *   rebuild  reads every in-sync member's chunk of the stripe, rebuilds the
 *            target member's chunk (data, P or Q) with parity_recover and
 *            writes it.
 *   check    recomputes P (and Q) from the data and compares them block by
 *            block (the array's block size), and reports each stripe with
 *            mismatching rows once.  raid5 cannot tell which chunk
 *            is wrong, so repair rewrites P, as md does; raid6 uses both
 *            syndromes to find the single wrong chunk (md's raid6check) and
 *            repair rewrites that one.
 *   row, reconstruct
 *            the same arithmetic for a rebuild someone else drives (the
 *            server's live rebuild, through the ctl op): where one row of a
 *            stripe lies on every member, and its missing blocks computed
 *            from the others.  The caller moves the data and keeps client
 *            writes off the stripe meanwhile.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/exec.h"
#include "core/sync.h"
#include "core/target.h"
#include "raid/parity.h"
#include "raid/parity_math.h"
#include "raid/rebuild.h"

struct parity_tool {
	struct parity_array *pa;
	struct raid_array *a;
	const struct parity_geom *g;
	unsigned nparity;
	uint8_t *buf[RAID_MAX_MEMBERS + 2]; /* one chunk per member, then 2 scratch */
	uint8_t *mem;
	uint64_t doff; /* where the data starts on every member */
};

static int parity_tool_init(struct parity_tool *pt, struct parity_array *pa)
{
	struct rl_target *t;
	size_t chunk;

	memset(pt, 0, sizeof(*pt));
	pt->pa = pa;
	pt->a = (struct raid_array *)pa;
	pt->g = parity_geom_of(pa);
	pt->nparity = pt->g->level == 6 ? 2 : 1;
	pt->doff = parity_data_offset(pa);
	t = pt->a->t;
	(void)t;
	chunk = pt->g->chunk;
	pt->mem = aligned_alloc(4096, chunk * (pt->g->n + 2));
	if (!pt->mem)
		return -ENOMEM;
	/* Zeroed so that memory checkers, which cannot see io_uring fill a
	 * buffer, do not report the comparisons of data read that way. */
	memset(pt->mem, 0, chunk * (pt->g->n + 2));
	for (unsigned i = 0; i < pt->g->n + 2; i++)
		pt->buf[i] = pt->mem + (size_t)i * chunk;
	return 0;
}

/* Block index in syndrome order (data by slot, P = k, Q = k+1) of member @m. */
static unsigned parity_tool_index(const struct parity_tool *pt, const struct parity_stripe *ps,
                                  unsigned m)
{
	if (ps->role[m] >= 0)
		return ps->slot[ps->role[m]];
	return pt->g->k + (ps->role[m] == -1 ? 0 : 1);
}

static void parity_tool_row(const struct parity_tool *pt, const struct parity_stripe *ps,
                            void **blocks)
{
	for (unsigned m = 0; m < pt->g->n; m++)
		blocks[parity_tool_index(pt, ps, m)] = pt->buf[m];
}

/* Read the members' chunks of @stripe into buf[]; the ones missing in *missing_members. */
static void parity_tool_read(struct parity_tool *pt, struct rl_exec *ex, uint64_t stripe, int skip,
                             uint64_t *missing_members, uint64_t *read_errors)
{
	*missing_members = 0;
	for (unsigned m = 0; m < pt->g->n; m++) {
		if ((int)m == skip || !raid_member_readable(pt->a, m) ||
		    rl_io_sync(pt->a->t->children[m], ex, RL_OP_READ,
		               pt->doff + stripe * pt->g->chunk, (uint32_t)pt->g->chunk, pt->buf[m],
		               0)) {
			if ((int)m != skip && raid_member_readable(pt->a, m))
				(*read_errors)++;
			*missing_members |= 1ull << m;
		}
	}
}

int parity_rebuild(struct parity_array *pa, struct rl_exec *ex, unsigned member, uint64_t rate,
                   void (*progress)(void *, uint64_t, uint64_t), void *arg,
                   struct parity_rebuild_result *res, char *msg, size_t msglen)
{
	struct raid_rebuild_opts o = {
	    .member = member, .rate = rate, .progress = progress, .arg = arg};

	return parity_rebuild_opts(pa, ex, &o, res, msg, msglen);
}

int parity_rebuild_opts(struct parity_array *pa, struct rl_exec *ex,
                        const struct raid_rebuild_opts *opts, struct parity_rebuild_result *res,
                        char *msg, size_t msglen)
{
	unsigned member = opts->member;
	struct parity_tool pt;
	uint64_t start = rl_exec_wall_now(), rate = opts->rate;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (member >= parity_geom_of(pa)->n) {
		snprintf(msg, msglen, "member %u does not exist (the array has members 0..%u)",
		         member, parity_geom_of(pa)->n - 1);
		return -EINVAL;
	}
	if (parity_tool_init(&pt, pa))
		return -ENOMEM;
	raid_member_set(pt.a, member, RAID_MEMBER_REBUILDING);
	/* stripes wholly below the resume point are in sync already (recovery_offset) */
	for (uint64_t s = opts->resume / pt.g->chunk; s < pt.g->stripes; s++) {
		struct parity_stripe ps;
		void *blocks[RAID_MAX_MEMBERS];
		uint64_t miss, missing = 0;

		parity_geom_stripe(pt.g, s, &ps);
		parity_tool_read(&pt, ex, s, (int)member, &miss, &res->read_errors);
		for (unsigned m = 0; m < pt.g->n; m++)
			if (miss >> m & 1)
				missing |= 1ull << parity_tool_index(&pt, &ps, m);
		parity_tool_row(&pt, &ps, blocks);
		if (parity_recover(pt.g->k, pt.nparity, pt.g->chunk, blocks, missing)) {
			if (!res->unrecoverable++)
				res->first_unrecoverable = s * pt.g->k * pt.g->chunk;
		} else {
			rc = rl_io_sync(pt.a->t->children[member], ex, RL_OP_WRITE,
			                pt.doff + s * pt.g->chunk, (uint32_t)pt.g->chunk,
			                pt.buf[member], 0);
			if (rc) {
				snprintf(msg, msglen, "writing member %u at offset %llu failed: %s",
				         member, (unsigned long long)(pt.doff + s * pt.g->chunk),
				         strerror(-rc));
				rc = -EIO;
				break;
			}
			res->bytes += pt.g->chunk;
			if (opts->checkpoint && !res->unrecoverable)
				opts->checkpoint(opts->ckpt_arg, (s + 1) * pt.g->chunk);
			if (rate) {
				uint64_t due =
				    start + (uint64_t)((double)res->bytes * 1e9 / (double)rate);
				uint64_t now = rl_exec_wall_now();
				if (due > now) {
					struct timespec ts = {
					    .tv_sec = (time_t)((due - now) / 1000000000ull),
					    .tv_nsec = (long)((due - now) % 1000000000ull)};
					nanosleep(&ts, NULL);
				}
			}
		}
		if (opts->progress)
			opts->progress(opts->arg, (s + 1) * pt.g->k * pt.g->chunk, pt.g->size);
	}
	if (!rc && (rc = rl_io_sync(pt.a->t->children[member], ex, RL_OP_FLUSH, 0, 0, NULL, 0))) {
		snprintf(msg, msglen, "flushing member %u failed: %s", member, strerror(-rc));
		rc = -EIO;
	}
	if (!rc && res->unrecoverable) {
		snprintf(
		    msg, msglen,
		    "%llu stripe(s) had too few readable members (first at array offset %llu); "
		    "the member holds garbage there",
		    (unsigned long long)res->unrecoverable,
		    (unsigned long long)res->first_unrecoverable);
		rc = -EIO;
	}
	raid_member_set(pt.a, member, rc ? RAID_MEMBER_FAILED : RAID_MEMBER_IN_SYNC);
	free(pt.mem);
	return rc;
}

/* Which member one mismatching block row points at: -1 unknown (raid5). */
static int parity_check_blame(struct parity_tool *pt, const struct parity_stripe *ps, void **blocks,
                              uint64_t off, uint64_t bs)
{
	void *rows[RAID_MAX_MEMBERS];
	int who;

	if (pt->nparity == 1)
		return -1;
	for (unsigned i = 0; i < pt->g->k + 2; i++)
		rows[i] = (uint8_t *)blocks[i] + off;
	who = parity_syndrome_check(pt->g->k, bs, rows, pt->buf[pt->g->n]);
	if (who == -1)
		return (int)ps->pd;
	if (who == -2)
		return ps->qd;
	if (who > 0)
		for (unsigned dd = 0; dd < pt->g->k; dd++)
			if (ps->slot[dd] == (unsigned)(who - 1))
				return ps->data[dd];
	return -1;
}

/* parity_check() over the stripes that touch @regions (NULL: all of them). */
static int parity_check_walk(struct parity_array *pa, struct rl_exec *ex,
                             enum parity_check_mode mode, const struct raid_regions *regions,
                             void (*mismatch)(void *, const struct parity_mismatch *), void *arg,
                             struct parity_check_result *res, char *msg, size_t msglen)
{
	struct parity_tool pt;
	uint32_t bs;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (parity_tool_init(&pt, pa))
		return -ENOMEM;
	bs = pt.a->t->block_size;
	for (uint64_t s = 0; s < pt.g->stripes && !rc; s++) {
		struct parity_stripe ps;
		void *blocks[RAID_MAX_MEMBERS];
		uint8_t *p = pt.buf[pt.g->n], *q = pt.buf[pt.g->n + 1];
		uint64_t miss;

		if (!raid_regions_hit(regions, s * pt.g->chunk, pt.g->chunk))
			continue; /* a clean region of md's bitmap */
		parity_geom_stripe(pt.g, s, &ps);
		parity_tool_read(&pt, ex, s, -1, &miss, &res->read_errors);
		if (miss) {
			res->skipped++;
			continue;
		}
		res->bytes += pt.g->k * pt.g->chunk; /* rows compared, as the mirrors count */
		parity_tool_row(&pt, &ps, blocks);
		if (mode == PARITY_RESYNC) {
			/* Parity from the data, written whole (md's initial resync). */
			parity_gen(pt.g->k, pt.g->chunk, blocks, blocks[pt.g->k],
			           pt.nparity == 2 ? blocks[pt.g->k + 1] : NULL);
			for (unsigned m = 0; m < pt.g->n && !rc; m++)
				if (ps.role[m] < 0)
					rc = rl_io_sync(pt.a->t->children[m], ex, RL_OP_WRITE,
					                pt.doff + s * pt.g->chunk,
					                (uint32_t)pt.g->chunk, pt.buf[m], 0);
			if (rc) {
				snprintf(msg, msglen, "resync write at stripe %llu failed: %s",
				         (unsigned long long)s, strerror(-rc));
				rc = -EIO;
			}
			continue;
		}
		/* Recompute parity of the data into the scratch, block by block; the
		 * stripe's mismatching rows are reported once, together. */
		struct parity_mismatch mm = {.stripe = s, .repaired = mode != PARITY_CHECK};
		for (uint64_t off = 0; off < pt.g->chunk && !rc; off += bs) {
			void *d[RAID_MAX_MEMBERS];
			bool bad;
			int who;

			for (unsigned i = 0; i < pt.g->k; i++)
				d[i] = (uint8_t *)blocks[i] + off;
			parity_gen(pt.g->k, bs, d, p, pt.nparity == 2 ? q : NULL);
			bad = memcmp(p, (uint8_t *)blocks[pt.g->k] + off, bs) ||
			      (pt.nparity == 2 &&
			       memcmp(q, (uint8_t *)blocks[pt.g->k + 1] + off, bs));
			if (!bad)
				continue;
			who = parity_check_blame(&pt, &ps, blocks, off, bs);
			if (!mm.bytes)
				mm.member_offset = pt.doff + s * pt.g->chunk + off;
			mm.len = pt.doff + s * pt.g->chunk + off + bs - mm.member_offset;
			mm.bytes += bs;
			if (who >= 0)
				mm.blamed |= 1ull << who;
			else
				mm.unexplained = true;
			if (mode != PARITY_CHECK) {
				/* raid5, or raid6 without a single culprit: rewrite the parity. */
				uint64_t missing;
				void *rows[RAID_MAX_MEMBERS];
				unsigned target = who >= 0 ? (unsigned)who : ps.pd;

				for (unsigned i = 0; i < pt.g->k + pt.nparity; i++)
					rows[i] = (uint8_t *)blocks[i] + off;
				if (who >= 0)
					missing = 1ull
					          << parity_tool_index(&pt, &ps, (unsigned)who);
				else
					missing =
					    pt.nparity == 2 ? 3ull << pt.g->k : 1ull << pt.g->k;
				parity_recover(pt.g->k, pt.nparity, bs, rows, missing);
				for (unsigned m = 0; m < pt.g->n && !rc; m++) {
					if (m != target && !(who < 0 && ps.role[m] == -2))
						continue;
					rc = rl_io_sync(pt.a->t->children[m], ex, RL_OP_WRITE,
					                pt.doff + s * pt.g->chunk + off, bs,
					                pt.buf[m] + off, 0);
				}
				if (rc) {
					snprintf(msg, msglen,
					         "repair write at stripe %llu failed: %s",
					         (unsigned long long)s, strerror(-rc));
					rc = -EIO;
					mm.repaired = false;
				}
			}
		}
		if (!mm.bytes)
			continue;
		mm.member = !mm.unexplained && __builtin_popcountll(mm.blamed) == 1
		                ? __builtin_ctzll(mm.blamed)
		                : -1;
		res->mismatches++;
		res->mismatch_bytes += mm.bytes;
		res->repaired += mm.repaired;
		if (mismatch)
			mismatch(arg, &mm);
	}
	free(pt.mem);
	return rc;
}

int parity_check(struct parity_array *pa, struct rl_exec *ex, enum parity_check_mode mode,
                 void (*mismatch)(void *, const struct parity_mismatch *), void *arg,
                 struct parity_check_result *res, char *msg, size_t msglen)
{
	return parity_check_walk(pa, ex, mode, NULL, mismatch, arg, res, msg, msglen);
}

int parity_resync(struct parity_array *pa, struct rl_exec *ex, const struct raid_regions *regions,
                  struct parity_check_result *res, char *msg, size_t msglen)
{
	return parity_check_walk(pa, ex, PARITY_RESYNC, regions, NULL, NULL, res, msg, msglen);
}

int parity_ctl_row(struct parity_array *pa, struct rl_ctl *c)
{
	const struct parity_geom *g = parity_geom_of(pa);
	uint64_t s = c->offset / g->chunk, left = g->chunk - c->offset % g->chunk;

	if (g->n > RL_CTL_MEMBERS_MAX || !c->max)
		return -EINVAL;
	c->len = 0;
	c->ncopies = g->n;
	if (s >= g->stripes)
		return 0; /* past the last stripe: the rest of the members is unused */
	c->len = c->max < left ? c->max : left;
	for (unsigned m = 0; m < g->n; m++) {
		c->copy[m].member = m;
		c->copy[m].offset = parity_data_offset(pa) + c->offset;
	}
	c->array_lo = s * g->k * g->chunk;
	c->array_hi = c->array_lo + g->k * g->chunk;
	return 0;
}

int parity_ctl_reconstruct(struct parity_array *pa, struct rl_ctl *c)
{
	const struct parity_geom *g = parity_geom_of(pa);
	unsigned nparity = g->level == 6 ? 2 : 1;
	struct parity_stripe ps;
	void *blocks[RAID_MAX_MEMBERS];
	uint64_t missing = 0;

	if (g->n > RL_CTL_MEMBERS_MAX || c->offset / g->chunk >= g->stripes ||
	    c->offset % g->chunk + c->len > g->chunk)
		return -EINVAL;
	parity_geom_stripe(g, c->offset / g->chunk, &ps);
	for (unsigned m = 0; m < g->n; m++) {
		unsigned i =
		    ps.role[m] >= 0 ? ps.slot[ps.role[m]] : g->k + (ps.role[m] == -1 ? 0 : 1);
		blocks[i] = c->bufs[m];
		if (c->missing >> m & 1)
			missing |= 1ull << i;
	}
	return parity_recover(g->k, nparity, c->len, blocks, missing) ? -EIO : 0;
}
