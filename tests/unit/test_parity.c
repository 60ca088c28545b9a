/*
 * test_parity.c - raid5/raid6: md's layouts, the parity arithmetic, and the
 * engine's data path on mem members.
 *
 *   - every md algorithm against a hand-drawn table of md's layout (which
 *     member holds each data chunk, P and Q for the first stripes of a
 *     small array), written out from the rules in md's raid5_compute_sector
 *     comments, not computed; the forward map and its inverse agree on
 *     every place of several geometries;
 *   - raid6's syndrome order (md: the members after Q, cyclically);
 *   - P and Q from ISA-L against a byte-at-a-time reference written here
 *     (XOR, and GF(2^8) shift-and-add multiplication by 2^slot with
 *     polynomial 0x11d); recovery of every single and every pair of lost
 *     blocks on random data;
 *   - data through raid5/raid6 arrays (several layouts, chunk and cache
 *     sizes): afterwards every member's stripe rows are checked against
 *     the reference parity, every pair (raid6) or single member (raid5)
 *     is failed in turn and the whole array read back degraded;
 *   - degraded writes and a rebuild onto a blank member; check finding and
 *     raid6 naming a corrupted member, repair fixing it;
 *   - member I/O per 4k random write (rmw penalty) and full-stripe writes
 *     without reads; read errors corrected below max-read-errors and the
 *     member failed above it.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/exec.h"
#include "core/registry.h"
#include "core/sync.h"
#include "parity_drv.h"
#include "raid/parity.h"
#include "raid/parity_math.h"

/* ------------------------------------------------------------------ */
/* layouts against hand-drawn tables                                   */
/* ------------------------------------------------------------------ */

/*
 * One row per stripe, one cell per member: the array chunk number stored
 * there, or P / Q.  Rows are separated by '|'.
 */
struct layout_case {
	unsigned level, n;
	const char *layout;
	const char *table;
};

static const struct layout_case layout_cases[] = {
    /* raid5, 4 members (3 data) */
    {5, 4, "left-asymmetric", "0 1 2 P|3 4 P 5|6 P 7 8|P 9 10 11|12 13 14 P"},
    {5, 4, "right-asymmetric", "P 0 1 2|3 P 4 5|6 7 P 8|9 10 11 P|P 12 13 14"},
    {5, 4, "left-symmetric", "0 1 2 P|4 5 P 3|8 P 6 7|P 9 10 11|12 13 14 P"},
    {5, 4, "right-symmetric", "P 0 1 2|5 P 3 4|7 8 P 6|9 10 11 P|P 12 13 14"},
    {5, 4, "parity-first", "P 0 1 2|P 3 4 5|P 6 7 8|P 9 10 11"},
    {5, 4, "parity-last", "0 1 2 P|3 4 5 P|6 7 8 P|9 10 11 P"},
    /* raid6, 5 members (3 data) */
    {6, 5, "left-asymmetric", "Q 0 1 2 P|3 4 5 P Q|6 7 P Q 8|9 P Q 10 11|P Q 12 13 14"},
    {6, 5, "right-asymmetric", "P Q 0 1 2|3 P Q 4 5|6 7 P Q 8|9 10 11 P Q|Q 12 13 14 P"},
    {6, 5, "left-symmetric", "Q 0 1 2 P|3 4 5 P Q|7 8 P Q 6|11 P Q 9 10|P Q 12 13 14"},
    {6, 5, "right-symmetric", "P Q 0 1 2|5 P Q 3 4|7 8 P Q 6|9 10 11 P Q|Q 12 13 14 P"},
    {6, 5, "parity-first", "P Q 0 1 2|P Q 3 4 5"},
    {6, 5, "parity-last", "0 1 2 P Q|3 4 5 P Q"},
    {6, 5, "left-asymmetric-6", "0 1 2 P Q|3 4 P 5 Q|6 P 7 8 Q|P 9 10 11 Q|12 13 14 P Q"},
    {6, 5, "right-asymmetric-6", "P 0 1 2 Q|3 P 4 5 Q|6 7 P 8 Q|9 10 11 P Q|P 12 13 14 Q"},
    {6, 5, "left-symmetric-6", "0 1 2 P Q|4 5 P 3 Q|8 P 6 7 Q|P 9 10 11 Q|12 13 14 P Q"},
    {6, 5, "right-symmetric-6", "P 0 1 2 Q|5 P 3 4 Q|7 8 P 6 Q|9 10 11 P Q|P 12 13 14 Q"},
    {6, 5, "parity-first-6", "P 0 1 2 Q|P 3 4 5 Q"},
    /* raid6 on 4 members (2 data), left-symmetric, the smallest raid6 */
    {6, 4, "left-symmetric", "Q 0 1 P|2 3 P Q|5 P Q 4|P Q 6 7"},
};

static void check_layout_table(const struct layout_case *c)
{
	struct parity_geom g;
	char msg[128], *copy = strdup(c->table), *row_save = NULL, *row;
	uint64_t chunk = 4096, stripe = 0;
	int alg = parity_layout_parse(c->level, c->layout);

	assert_true(alg >= 0);
	assert_int_equal(parity_geom_init(&g, c->level, (unsigned)alg, c->n, chunk, 64 * chunk, msg,
	                                  sizeof(msg)),
	                 0);
	for (row = strtok_r(copy, "|", &row_save); row; row = strtok_r(NULL, "|", &row_save)) {
		struct parity_stripe ps;
		char *cell_save = NULL, *cell;
		unsigned m = 0;

		parity_geom_stripe(&g, stripe, &ps);
		for (cell = strtok_r(row, " ", &cell_save); cell;
		     cell = strtok_r(NULL, " ", &cell_save), m++) {
			struct raid_loc loc = {.member = m, .offset = stripe * chunk + 100};
			if (!strcmp(cell, "P")) {
				if (ps.pd != m)
					fail_msg(
					    "%s raid%u n=%u stripe %llu: P expected on member %u, "
					    "code says %u",
					    c->layout, c->level, c->n, (unsigned long long)stripe,
					    m, ps.pd);
				assert_int_equal(parity_geom_unmap(&g, &loc), UINT64_MAX);
			} else if (!strcmp(cell, "Q")) {
				if (ps.qd != (int)m)
					fail_msg(
					    "%s stripe %llu: Q expected on member %u, code says %d",
					    c->layout, (unsigned long long)stripe, m, ps.qd);
			} else {
				uint64_t chunkno = strtoull(cell, NULL, 10);
				struct raid_loc got;
				parity_geom_map(&g, chunkno * chunk + 100, &got);
				if (got.member != m || got.offset != stripe * chunk + 100)
					fail_msg("%s raid%u stripe %llu: chunk %llu expected on "
					         "member %u, "
					         "code says member %u offset %llu",
					         c->layout, c->level, (unsigned long long)stripe,
					         (unsigned long long)chunkno, m, got.member,
					         (unsigned long long)got.offset);
				assert_int_equal(parity_geom_unmap(&g, &loc),
				                 chunkno * chunk + 100);
			}
		}
		assert_int_equal(m, c->n);
		stripe++;
	}
	free(copy);
}

static void test_layout_tables(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layout_cases) / sizeof(layout_cases[0]); i++)
		check_layout_table(&layout_cases[i]);
}

/* Forward and inverse maps agree everywhere; sizes follow md. */
static void test_layout_roundtrip(void **state)
{
	static const unsigned algs5[] = {0, 1, 2, 3, 4, 5};
	static const unsigned algs6[] = {0, 1, 2, 3, 4, 5, 16, 17, 18, 19, 20};
	char msg[128];

	(void)state;
	for (unsigned level = 5; level <= 6; level++) {
		const unsigned *algs = level == 5 ? algs5 : algs6;
		unsigned nalgs = level == 5 ? 6 : 11;
		for (unsigned ai = 0; ai < nalgs; ai++) {
			for (unsigned n = level == 5 ? 3 : 4; n <= 9; n++) {
				struct parity_geom g;
				uint64_t chunk = 8192;
				assert_int_equal(parity_geom_init(&g, level, algs[ai], n, chunk,
				                                  3 * n * chunk + 4096, msg,
				                                  sizeof(msg)),
				                 0);
				assert_int_equal(g.stripes, 3 * n);
				assert_int_equal(g.size, 3 * n * (n - (level - 4)) * chunk);
				for (uint64_t s = 0; s < g.stripes; s++) {
					struct parity_stripe ps;
					unsigned seen = 0;
					parity_geom_stripe(&g, s, &ps);
					for (unsigned m = 0; m < n; m++) {
						struct raid_loc loc = {.member = m,
						                       .offset = s * chunk};
						uint64_t off = parity_geom_unmap(&g, &loc);
						if (off == UINT64_MAX) {
							seen++;
							continue;
						}
						struct raid_loc back;
						parity_geom_map(&g, off, &back);
						assert_int_equal(back.member, m);
						assert_int_equal(back.offset, s * chunk);
					}
					assert_int_equal(seen, level - 4);
				}
			}
		}
	}
	/* bad geometries are refused with a message */
	{
		struct parity_geom g;
		assert_int_equal(parity_geom_init(&g, 5, 2, 2, 65536, 1 << 20, msg, sizeof(msg)),
		                 -EINVAL);
		assert_int_equal(parity_geom_init(&g, 6, 2, 3, 65536, 1 << 20, msg, sizeof(msg)),
		                 -EINVAL);
		assert_int_equal(parity_geom_init(&g, 5, 2, 4, 12288, 1 << 20, msg, sizeof(msg)),
		                 -EINVAL);
		assert_int_equal(parity_geom_init(&g, 5, 16, 4, 65536, 1 << 20, msg, sizeof(msg)),
		                 -EINVAL);
		assert_int_equal(parity_layout_parse(5, "left-symmetric-6"), -EINVAL);
		assert_int_equal(parity_layout_parse(6, "ls"), 2);
		assert_int_equal(parity_layout_parse(5, "bogus"), -EINVAL);
	}
}

/*
 * md's syndrome order: data members are numbered cyclically from the
 * member after Q (from member 0 when Q is the last).  Written out for
 * raid6 left-asymmetric on 5 members, where it differs from chunk order:
 * stripe 2 is "6 7 P Q 8": the walk from member 4 gives 8 slot 0, then
 * 6 slot 1, 7 slot 2.
 */
static void test_syndrome_order(void **state)
{
	struct parity_geom g;
	struct parity_stripe ps;
	char msg[128];

	(void)state;
	assert_int_equal(parity_geom_init(&g, 6, 0, 5, 4096, 1 << 20, msg, sizeof(msg)), 0);
	parity_geom_stripe(&g, 2, &ps);
	assert_int_equal(ps.slot[2], 0); /* chunk 8 on member 4 */
	assert_int_equal(ps.slot[0], 1); /* chunk 6 on member 0 */
	assert_int_equal(ps.slot[1], 2); /* chunk 7 on member 1 */
	/* stripe 0 "Q 0 1 2 P": Q is member 0, walk from member 1 */
	parity_geom_stripe(&g, 0, &ps);
	for (unsigned dd = 0; dd < 3; dd++)
		assert_int_equal(ps.slot[dd], dd);
	/* left-symmetric keeps chunk order: stripe 2 "7 8 P Q 6" walks 6, 7, 8 */
	assert_int_equal(parity_geom_init(&g, 6, 2, 5, 4096, 1 << 20, msg, sizeof(msg)), 0);
	parity_geom_stripe(&g, 2, &ps);
	for (unsigned dd = 0; dd < 3; dd++)
		assert_int_equal(ps.slot[dd], dd);
}

/* ------------------------------------------------------------------ */
/* arithmetic against a reference written here                         */
/* ------------------------------------------------------------------ */

static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
		b >>= 1;
	}
	return r;
}

static uint8_t ref_pow2(unsigned e)
{
	uint8_t r = 1;

	while (e--)
		r = ref_mul(r, 2);
	return r;
}

static void ref_pq(unsigned k, size_t len, uint8_t *const *d, uint8_t *p, uint8_t *q)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t x = 0, y = 0;
		for (unsigned j = 0; j < k; j++) {
			x ^= d[j][i];
			y ^= ref_mul(ref_pow2(j), d[j][i]);
		}
		p[i] = x;
		if (q)
			q[i] = y;
	}
}

#define MLEN 4096

static void test_parity_math(void **state)
{
	(void)state;
	for (unsigned k = 2; k <= 8; k++) {
		uint8_t *blk[PARITY_MAX_DATA + 2], *keep[PARITY_MAX_DATA + 2];
		uint8_t *rp = abuf(MLEN), *rq = abuf(MLEN);

		for (unsigned i = 0; i < k + 2; i++) {
			blk[i] = abuf(MLEN);
			keep[i] = abuf(MLEN);
		}
		for (unsigned i = 0; i < k; i++)
			fill_random(blk[i], MLEN);
		parity_gen(k, MLEN, (void *const *)blk, blk[k], blk[k + 1]);
		ref_pq(k, MLEN, blk, rp, rq);
		assert_memory_equal(blk[k], rp, MLEN);
		assert_memory_equal(blk[k + 1], rq, MLEN);
		parity_gen(k, MLEN, (void *const *)blk, rp, NULL);
		assert_memory_equal(blk[k], rp, MLEN);
		for (unsigned i = 0; i < k + 2; i++)
			memcpy(keep[i], blk[i], MLEN);
		/* raid6: every single and every pair; raid5: every single */
		for (unsigned x = 0; x < k + 2; x++) {
			for (unsigned y = x; y < k + 2; y++) {
				uint64_t miss = 1ull << x | 1ull << y;
				memset(blk[x], 0xa5, MLEN);
				memset(blk[y], 0x5a, MLEN);
				assert_int_equal(
				    parity_recover(k, 2, MLEN, (void *const *)blk, miss), 0);
				for (unsigned i = 0; i < k + 2; i++)
					if (memcmp(blk[i], keep[i], MLEN))
						fail_msg("k=%u lost %u+%u: block %u wrong", k, x, y,
						         i);
				if (x == y && x <= k) {
					memset(blk[x], 0x33, MLEN);
					assert_int_equal(
					    parity_recover(k, 1, MLEN, (void *const *)blk, miss),
					    0);
					assert_memory_equal(blk[x], keep[x], MLEN);
				}
			}
		}
		assert_int_equal(parity_recover(k, 1, MLEN, (void *const *)blk, 3), -EINVAL);
		/* the syndrome check names a corrupted block */
		{
			uint8_t *scratch = abuf(2 * MLEN);
			assert_int_equal(
			    parity_syndrome_check(k, MLEN, (void *const *)blk, scratch), 0);
			for (unsigned z = 0; z < k + 2; z++) {
				blk[z][100] ^= 0x41;
				blk[z][3000] ^= 0x07;
				int who =
				    parity_syndrome_check(k, MLEN, (void *const *)blk, scratch);
				int want = z < k ? (int)z + 1 : z == k ? -1 : -2;
				assert_int_equal(who, want);
				memcpy(blk[z], keep[z], MLEN);
			}
			blk[0][5] ^= 1;
			blk[1][9] ^= 1;
			assert_int_equal(
			    parity_syndrome_check(k, MLEN, (void *const *)blk, scratch), -3);
			free(scratch);
		}
		for (unsigned i = 0; i < k + 2; i++) {
			free(blk[i]);
			free(keep[i]);
		}
		free(rp);
		free(rq);
	}
}

/* ------------------------------------------------------------------ */
/* the engine on mem members                                           */
/* ------------------------------------------------------------------ */

/* Every stripe on the members: data where the layout says, P and Q as the reference. */
static void check_members(struct rl_target *t, struct rl_exec *ex, const uint8_t *shadow)
{
	const struct parity_geom *g = parity_geom_of(parity_array_of(t));
	uint8_t *mb[RAID_MAX_MEMBERS], *d[RAID_MAX_MEMBERS];
	uint8_t *rp = abuf(g->chunk), *rq = abuf(g->chunk);

	for (unsigned m = 0; m < g->n; m++)
		mb[m] = abuf(g->chunk);
	for (uint64_t s = 0; s < g->stripes; s++) {
		struct parity_stripe ps;
		parity_geom_stripe(g, s, &ps);
		for (unsigned m = 0; m < g->n; m++)
			assert_int_equal(rl_io_sync(t->children[m], ex, RL_OP_READ, s * g->chunk,
			                            (uint32_t)g->chunk, mb[m], 0),
			                 0);
		for (unsigned dd = 0; dd < g->k; dd++) {
			if (memcmp(mb[ps.data[dd]], shadow + (s * g->k + dd) * g->chunk, g->chunk))
				fail_msg("stripe %llu chunk %u: member %u does not hold the data",
				         (unsigned long long)s, dd, ps.data[dd]);
			d[ps.slot[dd]] = mb[ps.data[dd]];
		}
		ref_pq(g->k, g->chunk, d, rp, g->level == 6 ? rq : NULL);
		if (memcmp(mb[ps.pd], rp, g->chunk))
			fail_msg("stripe %llu: P on member %u is wrong", (unsigned long long)s,
			         ps.pd);
		if (g->level == 6 && memcmp(mb[ps.qd], rq, g->chunk))
			fail_msg("stripe %llu: Q on member %d is wrong", (unsigned long long)s,
			         ps.qd);
	}
	for (unsigned m = 0; m < g->n; m++)
		free(mb[m]);
	free(rp);
	free(rq);
}

static void fail_and_read(struct drv *d, unsigned a, unsigned b)
{
	struct raid_array *ra = raid_array_of(d->t);

	raid_member_set(ra, a, RAID_MEMBER_FAILED);
	raid_member_set(ra, b, RAID_MEMBER_FAILED);
	drv_read_all(d);
	raid_member_set(ra, a, RAID_MEMBER_IN_SYNC);
	raid_member_set(ra, b, RAID_MEMBER_IN_SYNC);
}

static const char *const engine_specs[] = {
    "raid5(mem(size=1m),mem(size=1m),mem(size=1m),chunk=16k)",
    "raid5(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=32k,layout=la,"
    "stripe_size=8k,stripe_cache=3)",
    "raid5(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=8k,layout=rs)",
    "raid5(mem(size=1m,bs=4k),mem(size=1m,bs=4k),mem(size=1m,bs=4k),chunk=64k,layout=parity-first)",
    "raid6(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=16k)",
    "raid6(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=16k,layout=la,"
    "stripe_size=4k,stripe_cache=2)",
    "raid6(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),"
    "chunk=8k,layout=right-asymmetric-6)",
    "raid6(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=32k,"
    "layout=parity-last)",
};

static void test_engine_write_read(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(engine_specs) / sizeof(engine_specs[0]); i++) {
		struct rl_target *t = open_spec(engine_specs[i]);
		struct rl_exec *ex = new_exec(64);
		const struct parity_geom *g = parity_geom_of(parity_array_of(t));
		struct drv d;

		drv_init(&d, t, ex, 8, 3 * g->chunk);
		drv_run(&d, 600);
		assert_int_equal(d.errors, 0);
		assert_int_equal(d.mismatches, 0);
		drv_read_all(&d);
		check_members(t, ex, d.shadow);
		/* degraded reads: every single member, and every pair on raid6 */
		for (unsigned a = 0; a < g->n; a++)
			for (unsigned b = g->level == 6 ? a : a; b < (g->level == 6 ? g->n : a + 1);
			     b++)
				fail_and_read(&d, a, b);
		drv_free(&d);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
}

/* Writes while degraded, then a rebuild onto a blank member. */
static void test_degraded_write_rebuild(void **state)
{
	(void)state;
	for (unsigned level = 0; level < 2; level++) {
		for (unsigned x = 0; x < 4; x++) {
			unsigned y = (x + 2) % 5;
			char spec[256];
			struct rl_target *t, *blank[2];
			struct rl_exec *ex = new_exec(64);
			struct parity_rebuild_result res;
			struct drv d;
			char msg[256];

			if (level)
				snprintf(
				    spec, sizeof(spec),
				    "raid6(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),"
				    "mem(size=1m),chunk=16k,failed=%u+%u)",
				    x, y);
			else
				snprintf(
				    spec, sizeof(spec),
				    "raid5(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),"
				    "chunk=16k,failed=%u)",
				    x);
			t = open_spec(spec);
			drv_init(&d, t, ex, 6, 40000 / 512 * 512);
			drv_run(&d, 400);
			assert_int_equal(d.errors, 0);
			assert_int_equal(d.mismatches, 0);
			assert_true(report_u64(t, "degraded_writes") > 0);
			drv_read_all(&d);
			/* replace the failed member(s) by blank ones and rebuild */
			for (unsigned j = 0; j <= level; j++) {
				unsigned m = j ? y : x;
				blank[j] = open_spec("mem(size=1m)");
				assert_int_equal(rl_target_attach(blank[j], ex), 0);
				rl_target_close(t->children[m]);
				t->children[m] = blank[j];
			}
			for (unsigned j = 0; j <= level; j++) {
				unsigned m = j ? y : x;
				assert_int_equal(parity_rebuild(parity_array_of(t), ex, m, 0, NULL,
				                                NULL, &res, msg, sizeof(msg)),
				                 0);
				assert_int_equal(res.unrecoverable, 0);
			}
			check_members(t, ex, d.shadow);
			drv_read_all(&d);
			drv_free(&d);
			rl_target_close(t);
			rl_exec_destroy(ex);
		}
	}
}

struct seen {
	int member[8];
	unsigned n;
};

static void note_mismatch(void *arg, const struct parity_mismatch *m)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->member[s->n] = m->member;
	s->n++;
}

/* check finds corruption; raid6 names the member; repair fixes it. */
static void test_check_repair(void **state)
{
	static const char *const specs[] = {
	    "raid5(mem(size=256k),mem(size=256k),mem(size=256k),mem(size=256k),chunk=16k)",
	    "raid6(mem(size=256k),mem(size=256k),mem(size=256k),mem(size=256k),mem(size=256k),"
	    "chunk=16k,layout=la)",
	};
	(void)state;
	for (unsigned level = 0; level < 2; level++) {
		struct rl_target *t = open_spec(specs[level]);
		struct rl_exec *ex = new_exec(64);
		const struct parity_geom *g = parity_geom_of(parity_array_of(t));
		struct parity_check_result res;
		struct seen seen = {0};
		struct drv d;
		char msg[256];
		uint8_t blk[512];

		drv_init(&d, t, ex, 4, 64 * 1024);
		d.write_pct = 100;
		drv_run(&d, 200);
		/* write everything once so the shadow covers the array */
		for (uint64_t off = 0; off < t->size; off += 65536) {
			fill_random(d.shadow + off, 65536);
			assert_int_equal(
			    rl_io_sync(t, ex, RL_OP_WRITE, off, 65536, d.shadow + off, 0), 0);
		}
		assert_int_equal(parity_check(parity_array_of(t), ex, PARITY_CHECK, NULL, NULL,
		                              &res, msg, sizeof(msg)),
		                 0);
		assert_int_equal(res.mismatches, 0);
		/* corrupt one block of member 2 in stripe 3 */
		assert_int_equal(
		    rl_io_sync(t->children[2], ex, RL_OP_READ, 3 * g->chunk + 1024, 512, blk, 0),
		    0);
		blk[17] ^= 0xff;
		assert_int_equal(
		    rl_io_sync(t->children[2], ex, RL_OP_WRITE, 3 * g->chunk + 1024, 512, blk, 0),
		    0);
		assert_int_equal(parity_check(parity_array_of(t), ex, PARITY_CHECK, note_mismatch,
		                              &seen, &res, msg, sizeof(msg)),
		                 0);
		assert_int_equal(res.mismatches, 1);
		assert_int_equal(seen.member[0], level ? 2 : -1);
		assert_int_equal(parity_check(parity_array_of(t), ex, PARITY_REPAIR, NULL, NULL,
		                              &res, msg, sizeof(msg)),
		                 0);
		assert_int_equal(res.repaired, 1);
		assert_int_equal(parity_check(parity_array_of(t), ex, PARITY_CHECK, NULL, NULL,
		                              &res, msg, sizeof(msg)),
		                 0);
		assert_int_equal(res.mismatches, 0);
		if (level) /* raid6 put the data back */
			drv_read_all(&d);
		drv_free(&d);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
}

/* Member I/O per write: 4k random writes pay the rmw penalty, full stripes read nothing. */
static void test_write_costs(void **state)
{
	static const struct {
		const char *spec;
		unsigned ios_per_write;
	} cases[] = {
	    /* raid5 x4: rmw = rcw = 2 reads; md picks rcw on a tie: 2 reads + 2 writes */
	    {"raid5(mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),chunk=64k)", 4},
	    /* raid5 x6: rmw (2 reads) beats rcw (4): read D and P, write D and P */
	    {"raid5(mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),"
	     "chunk=64k)",
	     4},
	    /* raid6 x6: rmw = rcw = 3 reads: 3 reads + 3 writes */
	    {"raid6(mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),"
	     "chunk=64k)",
	     6},
	    /* raid6 x8: rmw 3 reads (D, P, Q) beats rcw 5 */
	    {"raid6(mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),"
	     "mem(size=4m),mem(size=4m),chunk=64k)",
	     6},
	};
	uint8_t *buf = abuf(1 << 20);

	(void)state;
	fill_random(buf, 1 << 20);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rl_target *t = open_spec(cases[i].spec);
		struct rl_exec *ex = new_exec(64);
		const struct parity_geom *g;
		uint64_t r0, w0;

		assert_int_equal(rl_target_attach(t, ex), 0);
		g = parity_geom_of(parity_array_of(t));
		for (unsigned j = 0; j < 100; j++)
			assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE,
			                            (rng() % (t->size / 4096)) * 4096, 4096, buf,
			                            0),
			                 0);
		assert_int_equal(member_ios(t, "reads") + member_ios(t, "writes"),
		                 100 * cases[i].ios_per_write);
		/* full stripes: no reads at all, k data + parity writes per window */
		r0 = member_ios(t, "reads");
		w0 = member_ios(t, "writes");
		for (uint64_t off = 0; off + g->k * g->chunk <= 4 * g->k * g->chunk;
		     off += g->k * g->chunk)
			assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off,
			                            (uint32_t)(g->k * g->chunk), buf, 0),
			                 0);
		assert_int_equal(member_ios(t, "reads"), r0);
		assert_int_equal(member_ios(t, "writes") - w0, 4 * g->n);
		assert_true(report_u64(t, "full_stripe_windows") >= 4);
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
	free(buf);
}

/* Read errors: corrected and rewritten up to max-read-errors, then the member fails. */
static void test_read_error_threshold(void **state)
{
	struct rl_target *t = open_spec(
	    "raid5(faulty(mem(size=1m),ops=read,rate=100%),mem(size=1m),mem(size=1m),chunk=16k,"
	    "max-read-errors=3)");
	struct rl_exec *ex = new_exec(64);
	struct drv d;

	(void)state;
	drv_init(&d, t, ex, 1, 4096);
	for (uint64_t off = 0; off < t->size; off += 65536) {
		fill_random(d.shadow + off, 65536);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, 65536, d.shadow + off, 0), 0);
	}
	/* chunk 0 of stripe 0 lives on member 0 (left-symmetric) */
	{
		uint8_t buf[4096];
		for (unsigned i = 0; i < 3; i++) {
			assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 4096, buf, 0), 0);
			assert_memory_equal(buf, d.shadow, 4096);
			assert_int_equal(raid_member_state(raid_array_of(t), 0),
			                 RAID_MEMBER_IN_SYNC);
		}
		assert_int_equal(report_u64(t, "corrected_read_errors"), 3);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, 0, 4096, buf, 0), 0);
		assert_memory_equal(buf, d.shadow, 4096);
		assert_int_equal(raid_member_state(raid_array_of(t), 0), RAID_MEMBER_FAILED);
	}
	drv_read_all(&d);
	drv_free(&d);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/*
 * The write hole.  A degraded raid5 (member holding chunk 2 of stripe 5
 * failed); a 4k write to chunk 0 of that stripe is cut by a power failure
 * after the data reached its member and before the parity did.  After the
 * power returns, chunk 2 - never written - is rebuilt from the new data and
 * the old parity: garbage.  With journal= or ppl=on the same sequence
 * leaves chunk 2 intact (the journal also redoes the interrupted write).
 */
static void write_hole(const char *remedy, bool expect_intact)
{
	char spec[512];
	struct rl_target *t;
	struct rl_exec *ex = new_exec(64);
	struct parity_array *pa;
	const struct parity_geom *g;
	struct parity_stripe ps;
	struct drv d;
	uint8_t *buf = abuf(65536), *got = abuf(16384);
	uint64_t stripe = 5, d0, d2, records = 0;
	char msg[256];

	snprintf(spec, sizeof(spec),
	         "raid5(mem(size=1m),mem(size=1m),mem(size=1m),mem(size=1m),chunk=16k,"
	         "stripe_cache=4%s%s)",
	         remedy[0] ? "," : "", remedy);
	t = open_spec(spec);
	pa = parity_array_of(t);
	g = parity_geom_of(pa);
	drv_init(&d, t, ex, 1, 65536);
	for (uint64_t off = 0; off < t->size; off += 3 * 16384) {
		fill_random(d.shadow + off, 3 * 16384);
		assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, 3 * 16384, d.shadow + off, 0),
		                 0);
	}
	parity_geom_stripe(g, stripe, &ps);
	d0 = (stripe * g->k + 0) * g->chunk;
	d2 = (stripe * g->k + 2) * g->chunk;
	raid_member_set(raid_array_of(t), ps.data[2], RAID_MEMBER_FAILED);
	/* the crash: the data write lands, the parity write does not */
	parity_powerloss_arm(pa, 1);
	fill_random(buf, 4096);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, d0, 4096, buf, 0), -EIO);
	assert_true(parity_power_failed(pa));
	assert_int_equal(parity_power_restore(pa, ex, &records, msg, sizeof(msg)), 0);
	if (remedy[0])
		assert_true(records > 0);
	/* chunk 2 of the stripe, never written, rebuilt from the others */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, d2, 16384, got, 0), 0);
	if (!expect_intact) {
		if (!memcmp(got, d.shadow + d2, 4096))
			fail_msg("no write hole shown: chunk 2 survived without a remedy");
		assert_memory_equal(got + 4096, d.shadow + d2 + 4096, 16384 - 4096);
	} else {
		assert_memory_equal(got, d.shadow + d2, 16384);
		/* the new data reached its member before the crash: it stays */
		memcpy(d.shadow + d0, buf, 4096);
		drv_read_all(&d);
	}
	drv_free(&d);
	free(buf);
	free(got);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void test_write_hole(void **state)
{
	(void)state;
	write_hole("", false);
	write_hole("journal=\"mem(size=1m)\"", true);
	write_hole("ppl=on", true);
}

static void noop_cb(struct rl_io *io, int status)
{
	(void)io;
	(void)status;
}

/*
 * The write-intent bitmap's cost: the first write into a region sets its
 * bit and writes the bitmap block to every member first; more writes there
 * cost nothing extra; after md's daemon_sleep (5 s, simulated clock here)
 * without writes the bit is cleared by the next write elsewhere, and a new
 * write to the region pays again.
 */
static void test_bitmap_cost(void **state)
{
	struct rl_target *t =
	    open_spec("raid5(mem(size=4m),mem(size=4m),mem(size=4m),mem(size=4m),chunk=64k,"
	              "bitmap-chunk=256k)");
	struct rl_exec *ex = NULL;
	uint8_t *buf = abuf(4096);
	struct rl_io timer = {.cb = noop_cb};
	uint64_t w0;

	(void)state;
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	assert_int_equal(rl_target_attach(t, ex), 0);
	fill_random(buf, 4096);
	/* region A: member rows [0, 256k) */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 4096, buf, 0), 0);
	assert_int_equal(report_u64(t, "bitmap_writes"), 1);
	assert_int_equal(member_ios(t, "writes"), 4 + 2); /* bitmap on 4 members, data + P */
	w0 = member_ios(t, "writes");
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 3 * 65536, 4096, buf, 0), 0);
	assert_int_equal(report_u64(t, "bitmap_writes"), 1);
	assert_int_equal(member_ios(t, "writes") - w0, 2);
	/* 6 simulated seconds later, region B (member rows from 1m) */
	timer.ex = ex;
	assert_int_equal(rl_exec_at(ex, &timer, rl_exec_now(ex) + 6000000000ull, 0), 0);
	while (!rl_exec_idle(ex))
		rl_exec_run_once(ex, true);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 3 * 1048576, 4096, buf, 0), 0);
	assert_int_equal(report_u64(t, "bitmap_writes"), 2); /* B set, A cleared: one block */
	/* A's bit is clear again: writing there pays once more */
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 8192, 4096, buf, 0), 0);
	assert_int_equal(report_u64(t, "bitmap_writes"), 3);
	free(buf);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void test_spec_errors(void **state)
{
	static const char *const bad[] = {
	    "raid5(mem(),mem())",
	    "raid6(mem(),mem(),mem())",
	    "raid5(mem(),mem(),mem(),layout=left-symmetric-6)",
	    "raid5(mem(),mem(),mem(),chunk=12k)",
	    "raid5(mem(),mem(),mem(),stripe_size=3k)",
	    "raid5(mem(),mem(),mem(),stripe_cache=0)",
	    "raid5(mem(),mem(),mem(),failed=3)",
	    "raid5(mem(),mem(),mem(),bogus=1)",
	    "raid6(mem(),mem(),mem(),mem(),ppl=on)",
	    "raid5(mem(),mem(),mem(),ppl=on,journal=\"mem()\")",
	    "raid5(mem(),mem(),mem(),journal=\"mem(size=64k)\")",
	    "raid5(mem(size=1m),mem(size=1m),mem(size=1m),ppl=on)",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rl_build_ctx ctx;
		struct rl_target *t = NULL;
		struct rl_err err = {0};

		rl_build_ctx_init(&ctx);
		assert_int_not_equal(rl_target_open(bad[i], &ctx, &t, &err), 0);
		assert_null(t);
		assert_true(err.msg[0] != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_tables),
	    cmocka_unit_test(test_layout_roundtrip),
	    cmocka_unit_test(test_syndrome_order),
	    cmocka_unit_test(test_parity_math),
	    cmocka_unit_test(test_engine_write_read),
	    cmocka_unit_test(test_degraded_write_rebuild),
	    cmocka_unit_test(test_check_repair),
	    cmocka_unit_test(test_write_costs),
	    cmocka_unit_test(test_read_error_threshold),
	    cmocka_unit_test(test_write_hole),
	    cmocka_unit_test(test_bitmap_cost),
	    cmocka_unit_test(test_spec_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
