/*
 * test_parity_faults.c - seeded fault schedules against raid5 and raid6.
 *
 * 200 schedules per level.  Each seed draws an array (member count, md
 * layout, chunk, stripe cache size and height, queue depth) and up to as
 * many victim members as the level has parity blocks.  A victim is a mem
 * member behind a faulty target with one of:
 *   - fail-after=N   every read and write after its N-th request fails
 *                    (the member is failed on its first error);
 *   - vanish-after=N the device disappears;
 *   - ops=write rate errors (md fails a member on a write error);
 *   - ops=read rate errors: corrected from parity and rewritten while the
 *     member has had at most max-read-errors (drawn small, so some
 *     schedules cross it and the member is failed).
 * Phase 1 runs random reads and writes (sizes up to three chunks, so
 * full-stripe, rmw, rcw and degraded paths all occur) and requires no host
 * error and no read that differs from the shadow: redundancy suffices by
 * construction.  Then every victim is replaced by a blank member and
 * rebuilt, phase 2 runs on the repaired array, and at the end the whole
 * array matches the shadow and check finds no parity mismatch.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include "parity_drv.h"
#include "raid/parity.h"

#define SCHEDULES 200

/* What phase 1 of all schedules exercised, so the test shows it did. */
static const char *const tallies[] = {
    "member_errors",   "corrected_read_errors", "degraded_reads",
    "degraded_writes", "reconstruct_writes",    "rmw_windows",
    "rcw_windows",     "full_stripe_windows",   "stripe_lock_waits"};
static uint64_t tally[sizeof(tallies) / sizeof(tallies[0])];
static unsigned failed_members;

struct schedule {
	unsigned level, n, depth;
	char spec[2048];
	unsigned victims[2], nvictims;
	char what[2][64];
	const char *msize;
};

static const char *const layouts5[] = {"left-symmetric",   "right-symmetric", "left-asymmetric",
                                       "right-asymmetric", "parity-first",    "parity-last"};
static const char *const layouts6[] = {
    "left-symmetric",   "right-symmetric",   "left-asymmetric",   "right-asymmetric",
    "parity-first",     "parity-last",       "left-asymmetric-6", "right-asymmetric-6",
    "left-symmetric-6", "right-symmetric-6", "parity-first-6"};

static void schedule_draw(struct schedule *s, unsigned level, uint64_t seed)
{
	static const unsigned chunks[] = {4, 8, 16, 32};
	unsigned chunk_k, height_k, nlayouts = level == 5 ? 6 : 11, log, nslots;
	const char *layout, *msize;
	size_t p = 0;

	rng_state = seed * 0x9e3779b97f4a7c15ull + level;
	memset(s, 0, sizeof(*s));
	s->level = level;
	s->n = (level == 5 ? 3 : 4) + (unsigned)(rng() % 4);
	s->depth = 1 + (unsigned)(rng() % 8);
	chunk_k = chunks[rng() % 4];
	height_k = 4u << (rng() % 4);
	if (height_k > chunk_k)
		height_k = chunk_k;
	layout = (level == 5 ? layouts5 : layouts6)[rng() % nlayouts];
	/* a quarter of the schedules run with a journal, a quarter (raid5) with PPL */
	log = (unsigned)(rng() % 4);
	if (log == 2 && level == 6)
		log = 0;
	nslots = 1 + (unsigned)(rng() % (log == 2 ? 8 : 16));
	msize = log == 2 ? "512k" : "256k";
	s->nvictims = (unsigned)(rng() % (level == 5 ? 2 : 3));
	for (unsigned v = 0; v < s->nvictims; v++) {
		do
			s->victims[v] = (unsigned)(rng() % s->n);
		while (v && s->victims[v] == s->victims[0]);
	}
	p += (size_t)snprintf(s->spec + p, sizeof(s->spec) - p, "raid%u(", level);
	for (unsigned m = 0; m < s->n; m++) {
		int v = -1;
		for (unsigned j = 0; j < s->nvictims; j++)
			if (s->victims[j] == m)
				v = (int)j;
		if (v < 0) {
			p += (size_t)snprintf(s->spec + p, sizeof(s->spec) - p, "mem(size=%s),",
			                      msize);
			continue;
		}
		switch (rng() % 4) {
		case 0:
			snprintf(s->what[v], sizeof(s->what[v]), "fail-after=%u",
			         (unsigned)(rng() % 200));
			break;
		case 1:
			snprintf(s->what[v], sizeof(s->what[v]), "vanish-after=%u",
			         (unsigned)(rng() % 200));
			break;
		case 2:
			snprintf(s->what[v], sizeof(s->what[v]), "ops=write,rate=%u%%",
			         1 + (unsigned)(rng() % 20));
			break;
		default:
			snprintf(s->what[v], sizeof(s->what[v]), "ops=read,rate=%u%%",
			         1 + (unsigned)(rng() % 30));
			break;
		}
		p += (size_t)snprintf(s->spec + p, sizeof(s->spec) - p,
		                      "faulty(mem(size=%s),%s,seed=%llu),", msize, s->what[v],
		                      (unsigned long long)seed + m);
	}
	snprintf(s->spec + p, sizeof(s->spec) - p,
	         "layout=%s,chunk=%uk,stripe_size=%uk,stripe_cache=%u,max-read-errors=%u%s)",
	         layout, chunk_k, height_k, nslots, (unsigned)(rng() % 12),
	         log == 1   ? ",journal=\"mem(size=4m)\""
	         : log == 2 ? ",ppl=on"
	                    : "");
	s->msize = msize;
}

static void schedule_run(unsigned level, uint64_t seed)
{
	struct schedule s;
	struct rl_target *t;
	struct rl_exec *ex;
	struct parity_array *pa;
	struct parity_rebuild_result rres;
	struct parity_check_result cres;
	struct drv d;
	char msg[256];

	schedule_draw(&s, level, seed);
	t = open_spec(s.spec);
	ex = new_exec(1 + seed % 64);
	pa = parity_array_of(t);
	drv_init(&d, t, ex, s.depth, 3 * parity_geom_of(pa)->chunk);
	drv_run(&d, 150);
	if (d.errors || d.mismatches)
		fail_msg("seed %llu %s: phase 1: %llu host errors, %llu mismatches",
		         (unsigned long long)seed, s.spec, (unsigned long long)d.errors,
		         (unsigned long long)d.mismatches);
	for (size_t i = 0; i < sizeof(tallies) / sizeof(tallies[0]); i++)
		tally[i] += report_u64(t, tallies[i]);
	for (unsigned m = 0; m < s.n; m++)
		failed_members += raid_member_state(raid_array_of(t), m) == RAID_MEMBER_FAILED;
	/* replace the victims by blank members and rebuild them */
	for (unsigned v = 0; v < s.nvictims; v++) {
		unsigned m = s.victims[v];
		char bspec[64];
		snprintf(bspec, sizeof(bspec), "mem(size=%s)", s.msize);
		struct rl_target *blank = open_spec(bspec);
		assert_int_equal(rl_target_attach(blank, ex), 0);
		rl_target_close(t->children[m]);
		t->children[m] = blank;
		raid_member_set(raid_array_of(t), m, RAID_MEMBER_FAILED);
	}
	for (unsigned v = 0; v < s.nvictims; v++)
		if (parity_rebuild(pa, ex, s.victims[v], 0, NULL, NULL, &rres, msg, sizeof(msg)))
			fail_msg("seed %llu %s: rebuild of member %u: %s", (unsigned long long)seed,
			         s.spec, s.victims[v], msg);
	drv_run(&d, 100);
	if (d.errors || d.mismatches)
		fail_msg("seed %llu %s: phase 2: %llu host errors, %llu mismatches",
		         (unsigned long long)seed, s.spec, (unsigned long long)d.errors,
		         (unsigned long long)d.mismatches);
	drv_read_all(&d);
	assert_int_equal(parity_check(pa, ex, PARITY_CHECK, NULL, NULL, &cres, msg, sizeof(msg)),
	                 0);
	if (cres.mismatches || cres.skipped)
		fail_msg("seed %llu %s: check found %llu mismatches, %llu rows skipped",
		         (unsigned long long)seed, s.spec, (unsigned long long)cres.mismatches,
		         (unsigned long long)cres.skipped);
	drv_free(&d);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

static void schedules(unsigned level)
{
	memset(tally, 0, sizeof(tally));
	failed_members = 0;
	for (uint64_t seed = 1; seed <= SCHEDULES; seed++)
		schedule_run(level, seed);
	printf("raid%u, %d schedules: %u members failed;", level, SCHEDULES, failed_members);
	for (size_t i = 0; i < sizeof(tallies) / sizeof(tallies[0]); i++) {
		printf(" %s %llu", tallies[i], (unsigned long long)tally[i]);
		if (!tally[i])
			fail_msg("no schedule exercised %s", tallies[i]);
	}
	printf("\n");
	assert_true(failed_members > SCHEDULES / 4);
}

static void test_raid5_schedules(void **state)
{
	(void)state;
	schedules(5);
}

static void test_raid6_schedules(void **state)
{
	(void)state;
	schedules(6);
}

/* Beyond redundancy the array says so: host errors and a lost-data record. */
static void test_beyond_redundancy(void **state)
{
	struct rl_target *t = open_spec("raid5(mem(size=256k),faulty(mem(size=256k),fail-after=0),"
	                                "faulty(mem(size=256k),fail-after=0),chunk=16k)");
	struct rl_exec *ex = new_exec(32);
	struct drv d;

	(void)state;
	drv_init(&d, t, ex, 4, 32768);
	drv_run(&d, 50);
	assert_true(d.errors > 0);
	assert_true(report_u64(t, "lost_ios") > 0);
	drv_free(&d);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_raid5_schedules),
	    cmocka_unit_test(test_raid6_schedules),
	    cmocka_unit_test(test_beyond_redundancy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
