/*
 * scrub.c - compare (and repair) the copies of a raid1/raid10 (scrub.h).
 *
 * For each piece (the level's locate hook): read every in-sync copy from
 * its member into its own buffer (a copy that cannot be read is counted and
 * left out), pick the source copy, and compare every other copy with it one
 * array block at a time.  Consecutive differing blocks form one mismatch,
 * reported through the callback with the array offset and both member
 * offsets; with repair, the source's bytes for that run are written over
 * the differing copy before the walk moves on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/sync.h"
#include "raid/parity.h"
#include "raid/raid_common.h"
#include "raid/scrub.h"

#define SCRUB_UNIT (1u << 20)

/* The source copy among those read (@ok bit i = copy i was read). */
static int scrub_source(const struct raid_loc *locs, unsigned n, uint64_t ok, int want)
{
	for (unsigned i = 0; i < n; i++)
		if ((ok >> i & 1) && want >= 0 && locs[i].member == (unsigned)want)
			return (int)i;
	for (unsigned i = 0; i < n; i++)
		if (ok >> i & 1)
			return (int)i;
	return -1;
}

/*
 * Compare copy @c with source @s over @len bytes at array offset @off;
 * report (and repair) every run of differing blocks.
 */
static int scrub_compare(struct raid_array *a, struct rl_exec *ex, const struct raid_scrub_opts *o,
                         uint64_t off, uint64_t len, const struct raid_loc *locs, unsigned c,
                         unsigned s, uint8_t *const *bufs, struct raid_scrub_result *res, char *msg,
                         size_t msglen)
{
	uint32_t bs = a->t->block_size;

	for (uint64_t b = 0; b < len;) {
		uint64_t e = b;
		struct raid_mismatch m;

		if (!memcmp(bufs[c] + b, bufs[s] + b, bs)) {
			b += bs;
			continue;
		}
		while (e < len && memcmp(bufs[c] + e, bufs[s] + e, bs))
			e += bs;
		m = (struct raid_mismatch){.array_offset = off + b,
		                           .len = e - b,
		                           .member = locs[c].member,
		                           .member_offset = locs[c].offset + b,
		                           .source = locs[s].member,
		                           .source_offset = locs[s].offset + b};
		res->mismatches++;
		res->mismatch_bytes += e - b;
		if (o->repair) {
			int rc = rl_io_sync(a->t->children[m.member], ex, RL_OP_WRITE,
			                    m.member_offset, (uint32_t)(e - b), bufs[s] + b, 0);
			if (rc) {
				snprintf(msg, msglen,
				         "repairing member %u at offset %llu failed: %s", m.member,
				         (unsigned long long)m.member_offset, strerror(-rc));
				return -EIO;
			}
			m.repaired = true;
			res->repaired++;
		}
		if (o->mismatch)
			o->mismatch(o->arg, &m);
		b = e;
	}
	return 0;
}

/* raid5/raid6: parity check (parity_tools.c), reported in scrub terms. */
struct scrub_parity_ctx {
	const struct raid_scrub_opts *opts;
	const struct parity_geom *g;
	struct raid_scrub_result *res;
};

static void scrub_parity_mismatch(void *arg, const struct parity_mismatch *pm)
{
	struct scrub_parity_ctx *c = arg;
	struct parity_stripe ps;
	struct raid_mismatch m = {0};

	parity_geom_stripe(c->g, pm->stripe, &ps);
	m.parity = true;
	m.stripe = pm->stripe;
	m.array_offset = pm->stripe * c->g->k * c->g->chunk;
	m.array_len = c->g->k * c->g->chunk;
	m.len = pm->len;
	m.bytes = pm->bytes;
	m.member = pm->member >= 0 ? (unsigned)pm->member : ps.pd;
	m.member_offset = pm->member_offset;
	m.p_member = ps.pd;
	m.q_member = ps.qd;
	for (unsigned dd = 0; dd < c->g->k; dd++)
		m.data_members |= 1ull << ps.data[dd];
	m.blamed = pm->blamed;
	m.unexplained = pm->unexplained;
	m.repaired = pm->repaired;
	if (c->opts->mismatch)
		c->opts->mismatch(c->opts->arg, &m);
}

static int scrub_parity(struct parity_array *pa, struct rl_exec *ex,
                        const struct raid_scrub_opts *opts, struct raid_scrub_result *res,
                        char *msg, size_t msglen)
{
	struct scrub_parity_ctx c = {.opts = opts, .g = parity_geom_of(pa), .res = res};
	struct parity_check_result pr;
	uint64_t start = rl_exec_wall_now();
	int rc = parity_check(pa, ex, opts->repair ? PARITY_REPAIR : PARITY_CHECK,
	                      scrub_parity_mismatch, &c, &pr, msg, msglen);

	res->bytes = pr.bytes;
	res->mismatches = pr.mismatches;
	res->mismatch_bytes = pr.mismatch_bytes;
	res->repaired = pr.repaired;
	res->read_errors = pr.read_errors;
	res->skipped = pr.skipped;
	res->elapsed_ns = rl_exec_wall_now() - start;
	return rc;
}

int raid_scrub(struct rl_target *t, struct rl_exec *ex, const struct raid_scrub_opts *opts,
               struct raid_scrub_result *res, char *msg, size_t msglen)
{
	struct raid_array *a = raid_array_of(t);
	uint64_t unit = opts->unit ? opts->unit : SCRUB_UNIT, start = rl_exec_wall_now(), len;
	struct raid_loc locs[RAID_MAX_MEMBERS];
	uint8_t *bufs[RAID_MAX_MEMBERS] = {0};
	int rc = 0;

	memset(res, 0, sizeof(*res));
	if (parity_array_of(t))
		return scrub_parity(parity_array_of(t), ex, opts, res, msg, msglen);
	if (!a || a->copies < 2) {
		snprintf(msg, msglen, "%s has no redundancy: there are no copies to compare",
		         a ? a->level->name : t->ops->name);
		return -EINVAL;
	}
	if (opts->source >= 0 &&
	    ((unsigned)opts->source >= a->n || !raid_member_readable(a, (unsigned)opts->source))) {
		snprintf(msg, msglen, "source member %d is not an in-sync member of the array",
		         opts->source);
		return -EINVAL;
	}
	if (unit % t->block_size || unit > (1u << 30)) {
		snprintf(msg, msglen, "the scrub unit must be a multiple of %u", t->block_size);
		return -EINVAL;
	}
	for (unsigned i = 0; i < a->copies; i++) {
		if (posix_memalign((void **)&bufs[i], 4096, unit)) {
			rc = -ENOMEM;
			goto out;
		}
	}
	for (uint64_t off = 0; off < t->size && !rc; off += len) {
		unsigned n = a->level->locate(a, off, t->size - off < unit ? t->size - off : unit,
		                              &len, locs);
		uint64_t ok = 0;
		bool hit = false;
		int s;

		for (unsigned i = 0; i < n; i++)
			hit = hit || raid_regions_hit(opts->regions, locs[i].offset, len);
		if (!hit) /* a clean region of md's bitmap: nothing to do */
			n = 0;
		for (unsigned i = 0; i < n; i++) {
			if (!raid_member_readable(a, locs[i].member))
				continue;
			if (rl_io_sync(t->children[locs[i].member], ex, RL_OP_READ, locs[i].offset,
			               (uint32_t)len, bufs[i], 0))
				res->read_errors++;
			else
				ok |= 1ull << i;
		}
		if (!hit) {
			/* not compared, not wanted */
		} else if (__builtin_popcountll(ok) < 2) {
			res->skipped++;
		} else {
			s = scrub_source(locs, n, ok, opts->source);
			for (unsigned i = 0; i < n && !rc; i++)
				if ((ok >> i & 1) && i != (unsigned)s)
					rc = scrub_compare(a, ex, opts, off, len, locs, i,
					                   (unsigned)s, bufs, res, msg, msglen);
			res->bytes += len;
		}
		if (opts->progress)
			opts->progress(opts->arg, off + len, t->size);
	}
	if (!rc && opts->repair && res->repaired) {
		for (unsigned i = 0; i < a->n && !rc; i++)
			if (raid_member_writable(a, i))
				rc = rl_io_sync(t->children[i], ex, RL_OP_FLUSH, 0, 0, NULL, 0);
		if (rc) {
			snprintf(msg, msglen, "flushing after the repair failed: %s",
			         strerror(-rc));
			rc = -EIO;
		}
	}
out:
	for (unsigned i = 0; i < a->copies; i++)
		free(bufs[i]);
	res->elapsed_ns = rl_exec_wall_now() - start;
	return rc;
}
