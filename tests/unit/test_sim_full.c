/*
 * test_sim_full.c - state=full set up without writing (steady.c's
 * sim_steady_build_full) against the sequential fill it stands for
 * (precondition=simulated).
 *
 * For each drive, one target of each kind: right after creation every user
 * unit maps to the same physical unit, every superblock has the same write
 * point, valid count, state and place in its list, the streams' open
 * blocks and every program unit's end are the same; then the same mixed
 * workload (random and sequential writes, trims, reads, an idle spell) runs
 * on both, and their reports and simulated clocks must be identical.  The
 * drives cover every cleaning policy and SLC mode, and a last block the
 * fill leaves open (the user capacity not a whole number of superblocks).
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <string.h>

#include "core/sync.h"
#include "sim/sim.h"
#include "test_sim_load.h"

/* the target's private state starts with the model pointer (src/sim/ssd.c) */
static struct sim_dev *model_of(struct rl_target *t)
{
	return *(struct sim_dev **)t->priv;
}

static const char *const drives[] = {
    "ssd(sx8200pro, pages=18, blocks=128, gc=greedy",
    "ssd(samsung-850evo-500, pages=30, blocks=128, slc_size=100m, gc=fifo",
    "ssd(intel-x25v-40, blocks=128, gc=random, seed=5",
    "ssd(ocz-vertex-120, blocks=64",
    "ssd(adata-su900-256, pages=20, blocks=96, capacity=300m",
    "ssd(samsung-sm951-512, pages=24, blocks=100, slc=off",
};

/* The two models hold the same state, unit for unit and block for block. */
static void same_state(const char *spec, struct sim_dev *a, struct sim_dev *b)
{
	const struct sim_geo *g = &a->g;

	assert_int_equal(g->U, b->g.U);
	assert_int_equal(g->nblocks, b->g.nblocks);
	for (uint64_t l = 0; l < g->U; l++)
		if (sim_l2p(a, l) != sim_l2p(b, l))
			fail_msg("%s: unit %llu at %u, filled at %u", spec, (unsigned long long)l,
			         sim_l2p(a, l), sim_l2p(b, l));
	for (uint32_t i = 0; i < g->nblocks; i++) {
		const struct sim_blk *x = &a->blk[i], *y = &b->blk[i];
		if (x->valid != y->valid || x->wp != y->wp || x->state != y->state ||
		    x->prev != y->prev || x->next != y->next || x->pos != y->pos ||
		    x->slc != y->slc || x->erases != y->erases)
			fail_msg("%s: block %u: valid %u/%u wp %u/%u state %u/%u list %u,%u/%u,%u",
			         spec, i, x->valid, y->valid, x->wp, y->wp, x->state, y->state,
			         x->prev, x->next, y->prev, y->next);
	}
	for (uint64_t p = 0; p < (uint64_t)g->nblocks * g->b >> g->pu_shift; p++)
		if (a->prog_end[p] != b->prog_end[p])
			fail_msg("%s: program unit %llu ends at %llu, filled %llu", spec,
			         (unsigned long long)p, (unsigned long long)a->prog_end[p],
			         (unsigned long long)b->prog_end[p]);
	for (int s = 0; s < SIM_NSTREAMS; s++)
		assert_int_equal(a->stream[s].blk, b->stream[s].blk);
	assert_int_equal(a->empty_units, b->empty_units);
	assert_int_equal(a->valid_lpns, b->valid_lpns);
	assert_int_equal(a->free_main.n, b->free_main.n);
	assert_int_equal(a->free_main.head, b->free_main.head);
	assert_int_equal(a->free_static.n, b->free_static.n);
}

/* One step of the workload on @t. */
static void load(struct rl_target *t, struct rl_exec *ex, int op, bool random, uint32_t bs,
                 uint64_t count, uint64_t seed)
{
	struct sl_load l = {0};

	l.t = t;
	l.ex = ex;
	l.op = op;
	l.random = random;
	l.bs = bs;
	l.qd = 32;
	l.len = t->size / bs * bs;
	l.count = count;
	l.seed = seed;
	assert_int_equal(sl_run(&l), 0);
	assert_int_equal(l.errors, 0);
}

/* The report of @t, the wall time of preconditioning aside. */
static char *report(struct rl_target *t)
{
	struct json_object *r = rl_target_report(t), *pre;
	char *s;

	if (json_object_object_get_ex(r, "precondition", &pre))
		json_object_object_del(pre, "wall_ns");
	s = strdup(json_object_to_json_string(r));
	json_object_put(r);
	return s;
}

/* The mixed workload on both, in step: after each part the states agree. */
static void workload(const char *spec, struct rl_target *a, struct rl_exec *ea, struct rl_target *b,
                     struct rl_exec *eb)
{
	static const struct {
		int op;
		bool random;
		uint32_t bs;
		unsigned div; /* count: the drive's blocks of bs over div, or count */
		uint64_t count;
	} steps[] = {
	    {RL_OP_READ, false, 128 << 10, 1, 0},
	    {RL_OP_WRITE, true, 4096, 2, 0},
	    {RL_OP_READ, true, 4096, 0, 20000},
	    {RL_OP_TRIM, true, 1 << 20, 0, 32},
	    {-1, false, 0, 0, 0},
	    {RL_OP_WRITE, false, 64 << 10, 3, 0},
	    {RL_OP_WRITE, true, 16384, 0, 20000},
	};
	char what[320];

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].op < 0) {
			sl_idle(ea, 2ull * 1000000000);
			sl_idle(eb, 2ull * 1000000000);
		} else {
			uint64_t n =
			    steps[i].div ? a->size / steps[i].bs / steps[i].div : steps[i].count;
			load(a, ea, steps[i].op, steps[i].random, steps[i].bs, n, i + 1);
			load(b, eb, steps[i].op, steps[i].random, steps[i].bs, n, i + 1);
		}
		snprintf(what, sizeof(what), "%s, after step %zu", spec, i + 1);
		if (rl_exec_now(ea) != rl_exec_now(eb))
			fail_msg("%s: simulated clock at %llu ns, filled at %llu", what,
			         (unsigned long long)rl_exec_now(ea),
			         (unsigned long long)rl_exec_now(eb));
		same_state(what, model_of(a), model_of(b));
	}
}

/* The first key path whose values differ in JSON texts @a and @b, into @out. */
static bool diff_obj(struct json_object *a, struct json_object *b, char *out, size_t len)
{
	if (json_object_get_type(a) != json_type_object ||
	    json_object_get_type(b) != json_type_object) {
		if (strcmp(json_object_to_json_string(a), json_object_to_json_string(b)) == 0)
			return false;
		snprintf(out + strlen(out), len - strlen(out), ": %s against %s (filled)",
		         json_object_to_json_string(a), json_object_to_json_string(b));
		return true;
	}
	json_object_object_foreach(a, k, va)
	{
		struct json_object *vb = NULL;
		size_t at = strlen(out);
		snprintf(out + at, len - at, ".%s", k);
		if (!json_object_object_get_ex(b, k, &vb) || diff_obj(va, vb, out, len))
			return true;
		out[at] = 0;
	}
	return false;
}

static void first_diff(const char *a, const char *b, char *out, size_t len)
{
	struct json_object *ja = json_tokener_parse(a), *jb = json_tokener_parse(b);

	if (!diff_obj(ja, jb, out, len))
		snprintf(out, len, "(key order)");
	json_object_put(ja);
	json_object_put(jb);
}

static void test_full_as_filled(void **state)
{
	unsigned open_last = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		char sa[256], sb[256], msg[256];
		struct rl_target *a, *b;
		struct rl_exec *ea, *eb;

		snprintf(sa, sizeof(sa), "%s, state=full)", drives[i]);
		snprintf(sb, sizeof(sb), "%s, state=full, precondition=simulated)", drives[i]);
		a = sl_open(sa);
		b = sl_open(sb);
		assert_non_null(a);
		assert_non_null(b);
		/* the direct one is set up without writing, the other by its fill */
		assert_non_null(model_of(a)->lazy);
		assert_null(model_of(b)->lazy);
		same_state(sa, model_of(a), model_of(b));
		if (model_of(a)->stream[SIM_STREAM_HOST].blk != SIM_NONE)
			open_last++;
		assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ea), 0);
		assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &eb), 0);
		workload(sa, a, ea, b, eb);
		char *ra = report(a), *rb = report(b);
		print_message("  %s: %.1f simulated s, WA %.3f\n", sa, rl_exec_now(ea) / 1e9,
		              sl_report_num(a, "write_amplification"));
		assert_true(sl_report_num(a, "gc.victims") > 0);
		if (strcmp(ra, rb)) {
			char where[256] = "";
			first_diff(ra, rb, where, sizeof(where));
			fail_msg("%s: the reports differ at %s", sa, where);
		}
		if (sim_ftl_check(model_of(a), msg, sizeof(msg)))
			fail_msg("%s: %s", sa, msg);
		free(ra);
		free(rb);
		rl_target_close(a);
		rl_target_close(b);
		rl_exec_destroy(ea);
		rl_exec_destroy(eb);
	}
	/* at least one drive's fill ends inside a superblock */
	assert_true(open_last > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_as_filled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
