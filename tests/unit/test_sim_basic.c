/*
 * test_sim_basic.c - the ssd target as a target: profiles and overrides,
 * errors, data=on, FTL invariants, determinism, the device queue, flush.
 *
 * The invariant check reaches into the model: the target's private state
 * starts with the model pointer (struct ssd in src/sim/ssd.c), and
 * sim_ftl_check() verifies that every mapped unit is valid where it points,
 * that each block's valid count matches, and the spare-pool counter.
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

#include <math.h>
#include <unistd.h>

#include "core/sync.h"
#include "sim/sim.h"
#include "test_sim_load.h"

static struct sim_dev *model_of(struct rl_target *t)
{
	return *(struct sim_dev **)t->priv;
}

static const char *const profiles[] = {
    "adata-su900-256",   "samsung-850evo-500", "sx8200pro-256",
    "samsung-sm951-512", "intel-x25v-40",      "ocz-vertex-120",
};

static void name_of(struct rl_target *t, char *buf, size_t len)
{
	struct json_object *tree = rl_target_tree(t), *v;

	assert_true(json_object_object_get_ex(tree, "profile", &v));
	snprintf(buf, len, "%s", json_object_get_string(v));
	json_object_put(tree);
}

static double tree_num(struct rl_target *t, const char *key)
{
	struct json_object *tree = rl_target_tree(t), *v;
	double x = NAN;

	if (json_object_object_get_ex(tree, key, &v))
		x = json_object_get_double(v);
	json_object_put(tree);
	return x;
}

/* Every profile loads at full size, with its capacity and a sane spare ratio. */
static void test_profiles_load(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		char spec[128], name[64];
		snprintf(spec, sizeof(spec), "ssd(%s)", profiles[i]);
		struct rl_target *t = sl_open(spec);
		assert_non_null(t);
		name_of(t, name, sizeof(name));
		assert_string_equal(name, profiles[i]);
		double rho = tree_num(t, "spare_ratio");
		print_message("  %-20s %7.1f GB  spare %.1f%%  tables %.0f MB\n", profiles[i],
		              t->size / 1e9, rho * 100, tree_num(t, "model_bytes") / 1e6);
		assert_true(rho > 0.04 && rho < 0.2);
		assert_true(t->caps & RL_CAP_VIRTUAL);
		/* 256 GB and up: the tables stay well under 1 GB per 256 GB */
		assert_true(tree_num(t, "model_bytes") < t->size / 256.0 * 1.2);
		rl_target_close(t);
	}
}

static void test_alias_and_overrides(void **state)
{
	struct rl_target *a, *b, *c;
	char name[64];

	(void)state;
	a = sl_open("ssd(sx8200pro)");
	b = sl_open("ssd(profile=sx8200pro-256, op=20%, trim=off, gc=fifo)");
	c = sl_open("ssd(sx8200pro, capacity=200GB)");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	name_of(a, name, sizeof(name));
	assert_string_equal(name, "sx8200pro-256");
	assert_true(fabs(tree_num(b, "spare_ratio") - 0.20) < 0.001);
	assert_true(b->size < a->size);
	assert_true(c->size <= 200000000000ull && c->size > 199990000000ull);
	struct json_object *tree = rl_target_tree(b), *v;
	assert_true(json_object_object_get_ex(tree, "trim", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(tree, "gc_policy", &v));
	assert_string_equal(json_object_get_string(v), "fifo");
	json_object_put(tree);
	rl_target_close(a);
	rl_target_close(b);
	rl_target_close(c);
}

static void expect_error(const char *spec, const char *needle, size_t pos)
{
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err = {0};

	rl_build_ctx_init(&ctx);
	assert_int_not_equal(rl_target_open(spec, &ctx, &t, &err), 0);
	print_message("  %s -> %s\n", spec, err.msg);
	assert_non_null(strstr(err.msg, needle));
	if (pos != SIZE_MAX)
		assert_int_equal(err.pos, pos);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("ssd(nosuchdrive)", "no drive profile 'nosuchdrive'", 4);
	expect_error("ssd(sx8200pro, colour=red)", "unknown parameter 'colour'", 15);
	expect_error("ssd(sx8200pro, gc=lru)", "gc must be one of greedy, fifo, random", 18);
	expect_error("ssd(sx8200pro, t_read=fast)", "t_read", 22);
	expect_error("ssd(sx8200pro, op=1%)", "not enough spare area", 0);
	expect_error("ssd(sx8200pro, map_unit=3k)", "map_unit", 0);
}

/* A profile directory from RAIDLAB_PROFILES comes first. */
static void test_profile_dir_env(void **state)
{
	char dir[] = "/tmp/raidlab-prof-XXXXXX", path[128];
	const char *old = getenv("RAIDLAB_PROFILES");
	char *saved = old ? strdup(old) : NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tiny.profile", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("# a test drive\nname = tiny\naliases = tiny-alias\ndescription = tiny test drive\n"
	      "source = none\niface = sata\ncell = mlc\nchannels = 1\ndies = 2\nplanes = 1\n"
	      "page = 4k\npages = 64\nblocks = 64\ncapacity = 28m\n",
	      f);
	fclose(f);
	setenv("RAIDLAB_PROFILES", dir, 1);
	struct rl_target *t = sl_open("ssd(tiny-alias)");
	assert_non_null(t);
	assert_int_equal(t->size, 28u << 20);
	rl_target_close(t);
	if (saved) {
		setenv("RAIDLAB_PROFILES", saved, 1);
		free(saved);
	} else {
		unsetenv("RAIDLAB_PROFILES");
	}
	unlink(path);
	rmdir(dir);
}

static void fill_pattern(uint8_t *p, size_t len, uint64_t off, unsigned gen)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)((off + i) * 131 + gen * 7 + ((off + i) >> 12));
}

/* data=on keeps contents through writes, partial-unit writes, GC and TRIM. */
static void test_data_verify(void **state)
{
	struct rl_target *t =
	    sl_open("ssd(channels=2, dies=2, planes=2, page=8k, pages=16, blocks=64, op=12%, "
	            "state=full, data=on, gc=random)");
	struct rl_exec *ex;
	uint64_t rng = 99, size;
	uint8_t *shadow, buf[65536], rd[65536];
	unsigned gen = 0;
	char msg[256];

	(void)state;
	assert_non_null(t);
	assert_true(t->caps & RL_CAP_DATA);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	size = t->size;
	shadow = calloc(1, size);
	assert_non_null(shadow);
	for (int i = 0; i < 6000; i++) {
		uint64_t len = 512 * (1 + sl_rand(&rng) % 128);
		uint64_t off = sl_rand(&rng) % ((size - len) / 512) * 512;
		int what = (int)(sl_rand(&rng) % 10);
		gen++;
		if (what < 7) {
			fill_pattern(buf, len, off, gen);
			assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, off, (uint32_t)len, buf, 0),
			                 0);
			memcpy(shadow + off, buf, len);
		} else if (what < 9) {
			assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, (uint32_t)len, rd, 0),
			                 0);
			assert_memory_equal(rd, shadow + off, len);
		} else {
			/* trim: whole units read back as zeros, the rest is kept */
			assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, off, (uint32_t)len, NULL, 0),
			                 0);
			uint64_t a = (off + 4095) / 4096 * 4096, b = (off + len) / 4096 * 4096;
			if (b > a)
				memset(shadow + a, 0, b - a);
		}
	}
	assert_true(sl_report_num(t, "gc.victims") > 0);
	for (uint64_t off = 0; off < size; off += sizeof(rd)) {
		uint32_t len = (uint32_t)(size - off < sizeof(rd) ? size - off : sizeof(rd));
		assert_int_equal(rl_io_sync(t, ex, RL_OP_READ, off, len, rd, 0), 0);
		assert_memory_equal(rd, shadow + off, len);
	}
	assert_int_equal(sim_ftl_check(model_of(t), msg, sizeof(msg)), 0);
	free(shadow);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* Mapping invariants after a long mixed workload, for every policy and SLC mode. */
static void test_invariants(void **state)
{
	static const char *const specs[] = {
	    "ssd(sx8200pro, pages=18, blocks=128, state=steady, gc=greedy)",
	    "ssd(sx8200pro, pages=18, blocks=128, state=full, gc=fifo)",
	    "ssd(samsung-850evo-500, pages=30, blocks=128, slc_size=100m, gc=random)",
	    "ssd(intel-x25v-40, blocks=128, state=full)",
	    "ssd(ocz-vertex-120, blocks=64, state=full)",
	};

	(void)state;
	for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		struct rl_target *t = sl_open(specs[s]);
		struct rl_exec *ex;
		struct sl_load l = {0};
		uint64_t rng = s + 1;
		char msg[256];

		assert_non_null(t);
		assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
		for (int round = 0; round < 6; round++) {
			l = (struct sl_load){0};
			l.t = t;
			l.ex = ex;
			l.op = round % 3 == 2 ? RL_OP_TRIM : RL_OP_WRITE;
			l.random = round != 3;
			l.bs = round % 3 == 2 ? 1 << 20 : 4096u << (round % 2 ? 5 : 0);
			l.qd = 16;
			l.len = t->size / l.bs * l.bs;
			l.count = l.op == RL_OP_TRIM ? 64 : t->size / 8 / l.bs;
			l.seed = sl_rand(&rng);
			assert_int_equal(sl_run(&l), 0);
			assert_int_equal(l.errors, 0);
			if (round == 4)
				sl_idle(ex, 10ull * 1000000000);
		}
		if (sim_ftl_check(model_of(t), msg, sizeof(msg)))
			fail_msg("%s: %s", specs[s], msg);
		print_message("  %-60s WA %.2f\n", specs[s],
		              sl_report_num(t, "write_amplification"));
		rl_target_close(t);
		rl_exec_destroy(ex);
	}
}

static char *run_report(const char *spec)
{
	struct rl_target *t = sl_open(spec);
	struct rl_exec *ex;
	struct sl_load l = {0};
	char *s;

	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	l.t = t;
	l.ex = ex;
	l.op = RL_OP_WRITE;
	l.random = true;
	l.bs = 4096;
	l.qd = 32;
	l.len = t->size;
	l.count = 50000;
	l.seed = 1;
	assert_int_equal(sl_run(&l), 0);
	l.op = RL_OP_READ;
	assert_int_equal(sl_run(&l), 0);
	struct json_object *r = rl_target_report(t);
	/* the wall time of preconditioning is the one thing allowed to differ */
	struct json_object *pre;
	if (json_object_object_get_ex(r, "precondition", &pre))
		json_object_object_del(pre, "wall_ns");
	s = strdup(json_object_to_json_string(r));
	json_object_put(r);
	rl_target_close(t);
	rl_exec_destroy(ex);
	return s;
}

/* Same spec and seed: the same numbers, to the last counter. */
static void test_deterministic(void **state)
{
	const char *spec = "ssd(sx8200pro, pages=18, blocks=128, state=steady, gc=random, seed=4)";
	char *a = run_report(spec), *b = run_report(spec);

	(void)state;
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* SATA: one queue of 32.  Beyond it requests wait: same IOPS, longer latency. */
static void test_device_queue(void **state)
{
	struct rl_target *t =
	    sl_open("ssd(samsung-850evo-500, pages=32, blocks=256, slc_size=256m, state=full)");
	struct rl_exec *ex;
	struct sl_load a = {0}, b = {0};

	(void)state;
	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	a.t = b.t = t;
	a.ex = b.ex = ex;
	a.op = b.op = RL_OP_READ;
	a.random = b.random = true;
	a.bs = b.bs = 4096;
	a.len = b.len = t->size;
	a.count = b.count = 40000;
	a.seed = b.seed = 3;
	a.qd = 32;
	b.qd = 128;
	assert_int_equal(sl_run(&a), 0);
	assert_int_equal(sl_run(&b), 0);
	print_message("  QD32 %.0f IOPS %.0f us, QD128 %.0f IOPS %.0f us, queue wait %.0f ms\n",
	              sl_iops(&a), sl_lat_us(&a), sl_iops(&b), sl_lat_us(&b),
	              sl_report_num(t, "host.queue_wait_ns") / 1e6);
	assert_true(fabs(sl_iops(&b) - sl_iops(&a)) < 0.05 * sl_iops(&a));
	assert_true(sl_lat_us(&b) > 3.5 * sl_lat_us(&a));
	assert_true(sl_report_num(t, "host.queue_wait_ns") > 0);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/* Flush waits for the buffered writes to reach flash; trim=off ignores trims. */
static void test_flush_and_trim_off(void **state)
{
	struct rl_target *t = sl_open("ssd(sx8200pro, pages=36, blocks=128, trim=off, slc=off)");
	struct rl_exec *ex;
	uint8_t buf[4096] = {0};

	(void)state;
	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &ex), 0);
	uint64_t t0 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_WRITE, 0, 4096, buf, 0), 0);
	uint64_t t1 = rl_exec_now(ex);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_FLUSH, 0, 0, NULL, 0), 0);
	uint64_t t2 = rl_exec_now(ex);
	print_message("  4K write acknowledged in %.1f us, flush took %.1f us\n", (t1 - t0) / 1e3,
	              (t2 - t1) / 1e3);
	assert_true(t1 - t0 < 50000);   /* from the buffer */
	assert_true(t2 - t1 > 1900000); /* one TLC program */
	assert_true(sl_report_num(t, "nand.padding_bytes") > 0);
	assert_int_equal(rl_io_sync(t, ex, RL_OP_TRIM, 0, 1 << 20, NULL, 0), 0);
	assert_true(sl_report_num(t, "ftl.trimmed_bytes") == 0);
	assert_true(sl_report_num(t, "ftl.valid_units") == 1);
	rl_target_close(t);
	rl_exec_destroy(ex);
}

/*
 * A runner may give every job a new executor whose clock starts at 0: the
 * drive's own time goes on, so the busy flash of the last job is not a
 * wait of seconds in the next one.
 */
static void test_new_executor(void **state)
{
	struct rl_target *t = sl_open("ssd(sx8200pro, pages=144, blocks=128)");
	struct rl_exec *a, *b;
	struct sl_load w = {0}, r = {0};

	(void)state;
	assert_non_null(t);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &a), 0);
	w.t = t;
	w.ex = a;
	w.op = RL_OP_WRITE;
	w.bs = 1 << 20;
	w.qd = 32;
	w.len = 256 << 20;
	w.count = 1500;
	assert_int_equal(sl_run(&w), 0);
	rl_exec_destroy(a);
	assert_int_equal(rl_exec_create(RL_EXEC_VIRTUAL, 64, 0, &b), 0);
	r.t = t;
	r.ex = b;
	r.op = RL_OP_READ;
	r.random = true;
	r.bs = 4096;
	r.qd = 32;
	r.len = 256 << 20;
	r.count = 5000;
	assert_int_equal(sl_run(&r), 0);
	print_message("  next job, new executor: 4K QD32 reads %.0f us\n", sl_lat_us(&r));
	assert_true(sl_lat_us(&r) < 2000);
	rl_target_close(t);
	rl_exec_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profiles_load),
	    cmocka_unit_test(test_alias_and_overrides),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_profile_dir_env),
	    cmocka_unit_test(test_data_verify),
	    cmocka_unit_test(test_invariants),
	    cmocka_unit_test(test_deterministic),
	    cmocka_unit_test(test_device_queue),
	    cmocka_unit_test(test_flush_and_trim_off),
	    cmocka_unit_test(test_new_executor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
