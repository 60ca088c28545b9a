/*
 * test_suites.c - the suites' definitions, pinned through the registry's
 * data (tests, block sizes, depths, threads, passes, rules, order), the
 * AS SSD score on a published result, the aggregation rules and the
 * steady-state rule on synthetic passes, the jobs a test becomes, the
 * parameter parser, and the pass runner and offset_increment on a mem
 * target.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "core/registry.h"
#include "suites/suite.h"
#include "workload/run.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define GIB (1024ull * MIB)
#define S   1000000000ull

/* Expected shape of one test. */
struct want {
	const char *name;
	enum suite_pattern pattern;
	uint32_t bs;
	uint32_t iodepth;
	uint32_t threads;
	unsigned dirs;
	bool timed;
};

static const struct suite_def *find(const char *name)
{
	const struct suite_def *d = suite_find(name);
	if (!d)
		fail_msg("suite '%s' is not registered", name);
	assert_string_equal(d->name, name);
	assert_non_null(d->run);
	assert_non_null(d->title);
	assert_non_null(d->summary);
	return d;
}

static void check_tests(const struct suite_def *d, const struct want *w, size_t n)
{
	if (d->ntests != n)
		fail_msg("%s: %zu tests, expected %zu", d->name, d->ntests, n);
	for (size_t i = 0; i < n; i++) {
		const struct suite_test *t = &d->tests[i];
		if (strcmp(t->name, w[i].name))
			fail_msg("%s: test %zu is '%s', expected '%s'", d->name, i, t->name,
			         w[i].name);
		assert_int_equal(t->pattern, w[i].pattern);
		assert_int_equal(t->bs, w[i].bs);
		assert_int_equal(t->iodepth, w[i].iodepth);
		assert_int_equal(t->threads, w[i].threads);
		assert_int_equal(t->dirs, w[i].dirs);
		assert_int_equal(t->timed, w[i].timed);
		assert_ptr_equal(suite_test_find(d, w[i].name), t);
	}
}

/* --- CrystalDiskMark --- */

static void check_cdm_defaults(const struct suite_def *d, uint64_t size)
{
	assert_int_equal(d->aggregate, SUITE_AGG_BEST);
	assert_int_equal(d->defaults.size, size);
	assert_int_equal(d->defaults.passes, 5);
	assert_int_equal(d->defaults.warmup, 1);
	assert_int_equal(d->defaults.duration_ns, 5 * S);
	assert_int_equal(d->defaults.interval_ns, 0); /* CDM's own default is 5 s */
	assert_false(d->defaults.mix);
	assert_int_equal(d->defaults.mix_read, 70);
	assert_true(suite_writes(d, &d->defaults));
}

static void test_cdm(void **state)
{
	(void)state;
	static const struct want cdm8[] = {
	    {"SEQ1M Q8T1", SUITE_SEQ, MIB, 8, 1, SUITE_DIR_RW, true},
	    {"SEQ1M Q1T1", SUITE_SEQ, MIB, 1, 1, SUITE_DIR_RW, true},
	    {"RND4K Q32T1", SUITE_RAND, 4 * KIB, 32, 1, SUITE_DIR_RW, true},
	    {"RND4K Q1T1", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	};
	static const struct want nvme[] = {
	    {"SEQ1M Q8T1", SUITE_SEQ, MIB, 8, 1, SUITE_DIR_RW, true},
	    {"SEQ128K Q32T1", SUITE_SEQ, 128 * KIB, 32, 1, SUITE_DIR_RW, true},
	    {"RND4K Q32T16", SUITE_RAND, 4 * KIB, 32, 16, SUITE_DIR_RW, true},
	    {"RND4K Q1T1", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	};
	static const struct want cdm7[] = {
	    {"SEQ1M Q8T1", SUITE_SEQ, MIB, 8, 1, SUITE_DIR_RW, true},
	    {"SEQ1M Q1T1", SUITE_SEQ, MIB, 1, 1, SUITE_DIR_RW, true},
	    {"RND4K Q32T16", SUITE_RAND, 4 * KIB, 32, 16, SUITE_DIR_RW, true},
	    {"RND4K Q1T1", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	};
	static const struct want cdm6[] = {
	    {"Seq Q32T1", SUITE_SEQ, 128 * KIB, 32, 1, SUITE_DIR_RW, true},
	    {"4KiB Q8T8", SUITE_RAND, 4 * KIB, 8, 8, SUITE_DIR_RW, true},
	    {"4KiB Q32T1", SUITE_RAND, 4 * KIB, 32, 1, SUITE_DIR_RW, true},
	    {"4KiB Q1T1", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	};
	const struct suite_def *d;

	d = find("cdm");
	check_tests(d, cdm8, 4);
	check_cdm_defaults(d, GIB);
	d = find("cdm-nvme");
	check_tests(d, nvme, 4);
	check_cdm_defaults(d, GIB);
	d = find("cdm7");
	check_tests(d, cdm7, 4);
	check_cdm_defaults(d, GIB);
	d = find("cdm6");
	check_tests(d, cdm6, 4);
	check_cdm_defaults(d, 1000ull * MIB); /* CDM 6's default is 1000 MiB */
	assert_true(d->options & SUITE_OPT_MIX);
	assert_true(d->options & SUITE_OPT_WARMUP);
}

/* --- ATTO --- */

static void test_atto(void **state)
{
	(void)state;
	static const char *const names[] = {"512B", "1K",  "2K",   "4K",   "8K",   "16K",
	                                    "32K",  "64K", "128K", "256K", "512K", "1M",
	                                    "2M",   "4M",  "8M",   "16M",  "32M",  "64M"};
	const struct suite_def *d = find("atto");

	assert_int_equal(d->ntests, 18);
	for (size_t i = 0; i < d->ntests; i++) {
		const struct suite_test *t = &d->tests[i];
		assert_string_equal(t->name, names[i]);
		assert_int_equal(t->bs, 512u << i);
		assert_int_equal(t->pattern, SUITE_SEQ);
		assert_int_equal(t->iodepth, 0); /* --qd */
		assert_int_equal(t->threads, 1);
		assert_int_equal(t->dirs, SUITE_DIR_RW);
		assert_false(t->timed); /* covers the area once per size */
	}
	assert_int_equal(d->aggregate, SUITE_AGG_SINGLE);
	assert_int_equal(d->defaults.size, 256 * MIB);
	assert_int_equal(d->defaults.iodepth, 4);
	assert_int_equal(d->defaults.min_bs, 512);
	assert_int_equal(d->defaults.max_bs, 64 * MIB);
	assert_false(d->options & SUITE_OPT_PASSES);
}

/* --- AS SSD --- */

static void test_asssd(void **state)
{
	(void)state;
	static const struct want w[] = {
	    {"Seq", SUITE_SEQ, 16 * MIB, 1, 1, SUITE_DIR_RW, false},
	    {"4K", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, false},
	    {"4K-64Thrd", SUITE_RAND, 4 * KIB, 1, 64, SUITE_DIR_RW, false},
	    {"Acc.time", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	};
	const struct suite_def *d = find("asssd");

	check_tests(d, w, 4);
	assert_true(d->tests[2].own_region);
	assert_false(d->tests[1].own_region);
	assert_int_equal(d->tests[3].write_bs, 512);
	assert_true(d->tests[3].read_whole_span);
	assert_int_equal(d->aggregate, SUITE_AGG_MEAN);
	assert_int_equal(d->defaults.size, GIB);
	assert_int_equal(d->defaults.passes, 3);
	assert_int_equal(d->defaults.warmup, 0);
}

static void test_asssd_score(void **state)
{
	(void)state;
	/* Crucial MX500, a published result (docs/sources.md#asssd). */
	struct suite_asssd_input in = {.seq_read = 520,
	                               .seq_write = 471,
	                               .k4_read = 33,
	                               .k4_write = 76,
	                               .k4_64_read = 374,
	                               .k4_64_write = 323};
	struct suite_asssd_score sc;

	suite_asssd_score(&in, &sc);
	assert_true(fabs(sc.read - 459.0) < 0.5);     /* shown 460 */
	assert_true(fabs(sc.write - 446.1) < 0.05);   /* shown 447 */
	assert_true(fabs(sc.total - 1148.65) < 0.01); /* shown 1152 */
	assert_int_equal((int)lround(sc.total), 1149);
	/* Not the alternative "Total = Read + 1.5 Write" (1128), which does not match. */
	assert_true(fabs(sc.total - (sc.read + 1.5 * sc.write)) > 10);
	/* Weights one input at a time. */
	struct suite_asssd_input one = {.k4_read = 1};
	suite_asssd_score(&one, &sc);
	assert_true(sc.read == 1 && sc.write == 0 && sc.total == 2);
	one = (struct suite_asssd_input){.seq_write = 1};
	suite_asssd_score(&one, &sc);
	assert_true(fabs(sc.write - 0.1) < 1e-12 && fabs(sc.total - 0.15) < 1e-12);
	one = (struct suite_asssd_input){.k4_64_read = 1};
	suite_asssd_score(&one, &sc);
	assert_true(sc.read == 1 && fabs(sc.total - 1.5) < 1e-12);
}

/* --- Anvil, HD Tune, Iometer, steady --- */

static void test_anvil(void **state)
{
	(void)state;
	static const struct want w[] = {
	    {"Seq 4MB", SUITE_SEQ, 4 * MIB, 1, 1, SUITE_DIR_RW, true},
	    {"4K", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_RW, true},
	    {"4K QD4", SUITE_RAND, 4 * KIB, 4, 1, SUITE_DIR_RW, true},
	    {"4K QD16", SUITE_RAND, 4 * KIB, 16, 1, SUITE_DIR_RW, true},
	    {"32K", SUITE_RAND, 32 * KIB, 1, 1, SUITE_DIR_READ, true},
	    {"128K", SUITE_RAND, 128 * KIB, 1, 1, SUITE_DIR_READ, true},
	};
	const struct suite_def *d = find("anvil");

	check_tests(d, w, 6);
	assert_int_equal(d->aggregate, SUITE_AGG_SINGLE);
	assert_int_equal(d->defaults.size, GIB);
	assert_int_equal(d->defaults.duration_ns, 5 * S);
}

static void test_hdtune(void **state)
{
	(void)state;
	static const struct want w[] = {
	    {"Transfer Rate (read)", SUITE_SEQ, 0, 1, 1, SUITE_DIR_READ, false},
	    {"Access Time (read)", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_READ, true},
	    {"Burst Rate (read)", SUITE_SEQ, 0, 1, 1, SUITE_DIR_READ, true},
	    {"Transfer Rate (write)", SUITE_SEQ, 0, 1, 1, SUITE_DIR_WRITE, false},
	    {"Access Time (write)", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_WRITE, true},
	    {"Burst Rate (write)", SUITE_SEQ, 0, 1, 1, SUITE_DIR_WRITE, true},
	    {"Random Access 512 bytes (read)", SUITE_RAND, 512, 1, 1, SUITE_DIR_READ, true},
	    {"Random Access 4 KB (read)", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_READ, true},
	    {"Random Access 64 KB (read)", SUITE_RAND, 64 * KIB, 1, 1, SUITE_DIR_READ, true},
	    {"Random Access 1 MB (read)", SUITE_RAND, MIB, 1, 1, SUITE_DIR_READ, true},
	    {"Random Access Random (read)", SUITE_RAND, 0, 1, 1, SUITE_DIR_READ, true},
	    {"4 KB random read", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_READ, true},
	    {"Random Access 512 bytes (write)", SUITE_RAND, 512, 1, 1, SUITE_DIR_WRITE, true},
	    {"Random Access 4 KB (write)", SUITE_RAND, 4 * KIB, 1, 1, SUITE_DIR_WRITE, true},
	    {"Random Access 64 KB (write)", SUITE_RAND, 64 * KIB, 1, 1, SUITE_DIR_WRITE, true},
	    {"Random Access 1 MB (write)", SUITE_RAND, MIB, 1, 1, SUITE_DIR_WRITE, true},
	    {"Random Access Random (write)", SUITE_RAND, 0, 1, 1, SUITE_DIR_WRITE, true},
	};
	const struct suite_def *d = find("hdtune");
	struct suite_params p = d->defaults;

	check_tests(d, w, 17);
	/* the Random row mixes the four sizes, equally likely */
	assert_string_equal(suite_test_find(d, "Random Access Random (read)")->bssplit,
	                    "512/25:4k/25:64k/25:1m/25");
	assert_string_equal(suite_test_find(d, "Random Access Random (write)")->bssplit,
	                    "512/25:4k/25:64k/25:1m/25");
	assert_int_equal(d->aggregate, SUITE_AGG_SINGLE);
	assert_int_equal(p.size, 0); /* the whole target */
	assert_int_equal(p.zones, 100);
	assert_int_equal(p.block, 64 * KIB);
	assert_int_equal(p.sample, 8 * MIB);
	assert_false(suite_writes(d, &p)); /* reads only, unless --write */
	p.write = true;
	assert_true(suite_writes(d, &p));
	assert_int_equal(suite_need_bytes(d, &d->defaults), 0);
}

/* fio-randrw: one randrw job built from its options (fio's defaults where
 * the job gives none), and --threads belongs to it alone. */
static void test_fio_randrw(void **state)
{
	(void)state;
	const struct suite_def *d = find("fio-randrw");
	struct suite_params p = d->defaults;
	char msg[256];

	assert_int_equal(d->defaults.block, 4096);
	assert_int_equal(d->defaults.iodepth, 1);
	assert_int_equal(d->defaults.threads, 1);
	assert_int_equal(d->defaults.mix_read, 50);
	assert_true(suite_params_accepts(d, "threads"));
	assert_true(suite_params_accepts(d, "mix-read"));
	assert_false(suite_params_accepts(find("cdm"), "threads"));
	assert_int_equal(suite_params_set(d, &p, "threads", "4", msg, sizeof(msg)), 0);
	assert_int_equal(p.threads, 4);
	assert_int_equal(suite_params_set(d, &p, "block", "16k", msg, sizeof(msg)), 0);
	assert_int_equal(p.block, 16384);
	assert_int_not_equal(suite_params_set(d, &p, "threads", "0", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "threads"));
}

static void test_iometer(void **state)
{
	(void)state;
	const struct suite_def *d = find("iometer");
	static const struct {
		const char *name;
		uint32_t bs;
		const char *bssplit;
		uint32_t rwmixread, random_pct;
		unsigned dirs;
	} w[] = {
	    {"Database", 8 * KIB, NULL, 67, 100, SUITE_DIR_RW},
	    {"File Server", 0, "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10", 80, 100,
	     SUITE_DIR_RW},
	    {"Web Server", 0, "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1", 0, 0,
	     SUITE_DIR_READ},
	    {"Workstation", 8 * KIB, NULL, 80, 80, SUITE_DIR_RW},
	};

	assert_int_equal(d->ntests, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct suite_test *t = &d->tests[i];
		assert_string_equal(t->name, w[i].name);
		assert_int_equal(t->bs, w[i].bs);
		if (w[i].bssplit) {
			struct wl_job job;
			char msg[256];
			unsigned sum = 0;
			assert_string_equal(t->bssplit, w[i].bssplit);
			wl_job_init(&job);
			assert_int_equal(
			    wl_job_set(&job, "bssplit", t->bssplit, NULL, msg, sizeof(msg)), 0);
			for (unsigned k = 0; k < job.nbssplit; k++)
				sum += job.bssplit[k].pct;
			assert_int_equal(sum, 100);
		} else {
			assert_null(t->bssplit);
		}
		assert_int_equal(t->dirs, w[i].dirs);
		assert_int_equal(t->iodepth, 0); /* --qd */
		assert_int_equal(t->threads, 1);
		assert_true(t->timed);
		if (t->pattern == SUITE_MIXED) {
			assert_int_equal(t->rwmixread, w[i].rwmixread);
			assert_int_equal(t->random_pct, w[i].random_pct);
		} else {
			assert_int_equal(t->pattern, SUITE_RAND); /* web server: random reads */
		}
	}
	assert_int_equal(d->defaults.iodepth, 64);
	assert_int_equal(d->aggregate, SUITE_AGG_SINGLE);
}

static void test_steady_def(void **state)
{
	(void)state;
	static const struct want w[] = {
	    {"Fill", SUITE_SEQ, 128 * KIB, 32, 1, SUITE_DIR_WRITE, false},
	    {"RND4K Q32T1", SUITE_RAND, 4 * KIB, 32, 1, SUITE_DIR_WRITE, true},
	    {"Write over LBA", SUITE_SEQ, 128 * KIB, 1, 1, SUITE_DIR_WRITE, false},
	};
	const struct suite_def *d = find("steady");

	check_tests(d, w, 3);
	assert_int_equal(d->aggregate, SUITE_AGG_MEAN);
	assert_int_equal(d->defaults.fill, 2);
	assert_int_equal(d->defaults.round_ns, 60 * S);
	assert_int_equal(d->defaults.time_limit_ns, 25 * 60 * S);
	assert_int_equal(d->defaults.zones, 100);
	assert_int_equal(d->defaults.size, 0);
	assert_true(suite_writes(d, &d->defaults));
}

/* PassMark: the standard tests and the advanced workers as published. */
static void test_passmark(void **state)
{
	(void)state;
	const struct suite_def *d = find("passmark");
	const struct suite_test *t;

	assert_int_equal(d->ntests, 6);
	assert_int_equal(d->defaults.size, 200u << 20);
	assert_int_equal(d->defaults.duration_ns, 20 * S);
	t = suite_test_find(d, "Sequential Read");
	assert_non_null(t);
	assert_int_equal(t->bs, 16384);
	assert_int_equal(t->iodepth, 20);
	t = suite_test_find(d, "Database");
	assert_non_null(t);
	assert_int_equal(t->bs, 2048);
	assert_int_equal(t->iodepth, 128);
	assert_int_equal(t->rwmixread, 90);
	assert_int_equal(t->random_pct, 90);
	t = suite_test_find(d, "File Server");
	assert_non_null(t);
	assert_int_equal(t->bs, 16384);
	assert_int_equal(t->rwmixread, 80);
	assert_int_equal(t->random_pct, 100);
	t = suite_test_find(d, "Workstation");
	assert_non_null(t);
	assert_int_equal(t->iodepth, 1);
	assert_int_equal(t->rwmixread, 70);
	assert_int_equal(t->random_pct, 80);
	d = find("asssd-compr");
	assert_int_equal(d->ntests, 11);
	assert_string_equal(d->tests[10].name, "100 % compressible");
}

static void test_registry(void **state)
{
	(void)state;
	static const char *const all[] = {
	    "anvil", "asssd", "asssd-compr", "atto",   "cdm",     "cdm-nvme", "cdm5",
	    "cdm6",  "cdm7",  "fio-randrw",  "hdtune", "iometer", "passmark", "steady"};
	size_t n = 0;
	const struct suite_def *prev = NULL;

	for (const struct suite_def *d = suite_first(); d; d = d->next, n++) {
		if (prev)
			assert_true(strcmp(prev->name, d->name) < 0); /* sorted, unique */
		prev = d;
	}
	assert_int_equal(n, sizeof(all) / sizeof(all[0]));
	for (size_t i = 0; i < n; i++)
		find(all[i]);
	assert_null(suite_find("crystal"));
	{
		/* CDM 5: Seq Q32T1 128 KiB, 4K Q32T1, Seq 1 MiB QD1, 4K Q1T1, 1 GiB, best of 5 */
		const struct suite_def *d = find("cdm5");
		static const uint32_t bs[] = {128 << 10, 4 << 10, 1 << 20, 4 << 10};
		static const uint32_t qd[] = {32, 32, 1, 1};
		assert_int_equal(d->ntests, 4);
		for (size_t i = 0; i < 4; i++) {
			assert_int_equal(d->tests[i].bs, bs[i]);
			assert_int_equal(d->tests[i].iodepth, qd[i]);
			assert_int_equal(d->tests[i].threads, 1);
		}
		assert_int_equal(d->defaults.size, 1ull << 30);
		assert_int_equal(d->defaults.passes, 5);
		assert_int_equal(d->aggregate, SUITE_AGG_BEST);
	}
	assert_string_equal(suite_agg_name(SUITE_AGG_BEST), "best");
	assert_string_equal(suite_agg_name(SUITE_AGG_MEAN), "mean");
	assert_string_equal(suite_agg_name(SUITE_AGG_SINGLE), "single");
	assert_string_equal(suite_pattern_name(SUITE_SEQ), "seq");
	assert_string_equal(suite_pattern_name(SUITE_RAND), "rand");
	assert_string_equal(suite_pattern_name(SUITE_MIXED), "mixed");
}

/* --- aggregation --- */

static void test_aggregate_best(void **state)
{
	(void)state;
	/* The fastest pass is not the one with the lowest latency: both are taken. */
	const struct suite_figure p[] = {
	    {.mb_s = 500, .iops = 122070, .lat_mean_us = 80, .lat_p99_us = 200},
	    {.mb_s = 520, .iops = 126953, .lat_mean_us = 85, .lat_p99_us = 210},
	    {.mb_s = 510, .iops = 124511, .lat_mean_us = 70, .lat_p99_us = 190},
	};
	struct suite_figure a;

	suite_aggregate(SUITE_AGG_BEST, p, 3, 4096, &a);
	assert_true(a.mb_s == 520);
	/* IOPS as CDM derives it: MB/s x 10^6 / block size. */
	assert_true(fabs(a.iops - 520e6 / 4096) < 1e-6);
	assert_true(a.lat_mean_us == 70);
	assert_true(a.lat_p99_us == 190); /* the p99 of the lowest-latency pass */
	/* Without a block size (bssplit), the fastest pass's own IOPS. */
	suite_aggregate(SUITE_AGG_BEST, p, 3, 0, &a);
	assert_true(a.iops == 126953);
	/* A pass without I/O does not win the latency. */
	const struct suite_figure q[] = {
	    {.mb_s = 0, .iops = 0, .lat_mean_us = 0},
	    {.mb_s = 100, .iops = 10, .lat_mean_us = 50},
	};
	suite_aggregate(SUITE_AGG_BEST, q, 2, 0, &a);
	assert_true(a.lat_mean_us == 50 && a.mb_s == 100);
	/* No passes: zeros. */
	suite_aggregate(SUITE_AGG_BEST, p, 0, 4096, &a);
	assert_true(a.mb_s == 0 && a.iops == 0 && a.lat_mean_us == 0);
}

static void test_aggregate_mean_single(void **state)
{
	(void)state;
	const struct suite_figure p[] = {
	    {.mb_s = 100, .iops = 1000, .lat_mean_us = 10, .lat_p99_us = 40},
	    {.mb_s = 200, .iops = 3000, .lat_mean_us = 30, .lat_p99_us = 80},
	    {.mb_s = 300, .iops = 2000, .lat_mean_us = 20, .lat_p99_us = 60},
	};
	struct suite_figure a;

	suite_aggregate(SUITE_AGG_MEAN, p, 3, 4096, &a);
	assert_true(fabs(a.mb_s - 200) < 1e-9);
	assert_true(fabs(a.iops - 2000) < 1e-9); /* the mean of IOPS, not derived */
	assert_true(fabs(a.lat_mean_us - 20) < 1e-9);
	assert_true(fabs(a.lat_p99_us - 60) < 1e-9);
	suite_aggregate(SUITE_AGG_SINGLE, p + 1, 1, 4096, &a);
	assert_true(a.mb_s == 200 && a.iops == 3000 && a.lat_mean_us == 30);
	/* best and mean differ on the same passes */
	struct suite_figure b;
	suite_aggregate(SUITE_AGG_BEST, p, 3, 4096, &b);
	assert_true(b.mb_s == 300 && b.lat_mean_us == 10 && a.mb_s != b.mb_s);
}

/* --- steady state --- */

static void test_steady_rule(void **state)
{
	(void)state;
	double flat[] = {900, 500, 100, 1000, 1010, 990, 1005, 995};
	double exc, slope;

	assert_true(suite_steady_check(flat, 8, &exc, &slope));
	assert_true(exc < 0.03 && slope < 0.02);
	assert_false(suite_steady_check(flat, 4, &exc, &slope)); /* fewer than 5 rounds */
	assert_true(exc == 0 && slope == 0);
	assert_false(suite_steady_check(flat, 7, NULL, NULL)); /* window holds the 100 */
	/* Within the 20 % band but drifting: 5 % per round is a 20 % rise. */
	double drift[] = {1000, 1050, 1100, 1150, 1200};
	assert_false(suite_steady_check(drift, 5, &exc, &slope));
	assert_true(exc < 0.20 && slope > 0.10);
	/* Flat fit but 25 % apart: fails the excursion. */
	double wide[] = {900, 1125, 1000, 900, 1125};
	assert_false(suite_steady_check(wide, 5, &exc, &slope));
	assert_true(exc > 0.20);
	/* Exactly at the limits. */
	double edge[] = {1000, 1000, 1100, 900, 1000}; /* excursion 20 %, slope 4 % */
	assert_true(suite_steady_check(edge, 5, &exc, NULL));
	assert_true(fabs(exc - 0.2) < 1e-12);
	double zero[] = {0, 0, 0, 0, 0};
	assert_false(suite_steady_check(zero, 5, NULL, NULL));
}

/* --- parameters --- */

static void test_params(void **state)
{
	(void)state;
	const struct suite_def *cdm = find("cdm"), *atto = find("atto");
	struct suite_params p = cdm->defaults;
	char msg[256];

	assert_int_equal(suite_params_set(cdm, &p, "size", "16m", msg, sizeof(msg)), 0);
	assert_int_equal(p.size, 16 * MIB);
	assert_int_equal(suite_params_set(cdm, &p, "passes", "2", msg, sizeof(msg)), 0);
	assert_int_equal(p.passes, 2);
	assert_int_equal(suite_params_set(cdm, &p, "duration", "0.2", msg, sizeof(msg)), 0);
	assert_int_equal(p.duration_ns, S / 5);
	assert_int_equal(suite_params_set(cdm, &p, "interval", "5s", msg, sizeof(msg)), 0);
	assert_int_equal(p.interval_ns, 5 * S);
	assert_int_equal(suite_params_set(cdm, &p, "mix", NULL, msg, sizeof(msg)), 0);
	assert_true(p.mix);
	assert_int_equal(suite_params_set(cdm, &p, "mix", "off", msg, sizeof(msg)), 0);
	assert_false(p.mix);
	assert_int_equal(suite_params_set(cdm, &p, "mix-read", "90%", msg, sizeof(msg)), 0);
	assert_int_equal(p.mix_read, 90);
	assert_int_equal(suite_params_set(cdm, &p, "warmup", "0", msg, sizeof(msg)), 0);
	assert_int_equal(p.warmup, 0);

	assert_int_equal(suite_params_set(cdm, &p, "passes", "0", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "--passes"));
	assert_int_equal(suite_params_set(cdm, &p, "passes", "101", msg, sizeof(msg)), -EINVAL);
	assert_int_equal(suite_params_set(cdm, &p, "duration", "0", msg, sizeof(msg)), -EINVAL);
	assert_int_equal(suite_params_set(cdm, &p, "size", "lots", msg, sizeof(msg)), -EINVAL);
	assert_int_equal(suite_params_set(cdm, &p, "size", NULL, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "needs a value"));
	assert_int_equal(suite_params_set(cdm, &p, "iodepth", "4", msg, sizeof(msg)), -ENOENT);
	/* An option of another suite: named, with this suite's options listed. */
	assert_int_equal(suite_params_set(cdm, &p, "zones", "4", msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "does not take --zones"));
	assert_non_null(strstr(msg, "--passes"));
	p = atto->defaults;
	assert_int_equal(suite_params_set(atto, &p, "passes", "3", msg, sizeof(msg)), -EINVAL);
	assert_int_equal(suite_params_set(atto, &p, "max-bs", "1m", msg, sizeof(msg)), 0);
	assert_int_equal(p.max_bs, MIB);
	assert_int_equal(suite_params_set(atto, &p, "min-bs", "1000", msg, sizeof(msg)), -EINVAL);
	assert_true(suite_param_takes_value("size"));
	assert_false(suite_param_takes_value("mix"));
	assert_false(suite_param_takes_value("nonsense"));

	struct json_object *j = suite_params_json(cdm, &cdm->defaults);
	struct json_object *v;
	assert_true(json_object_object_get_ex(j, "size_bytes", &v));
	assert_int_equal(json_object_get_int64(v), GIB);
	assert_true(json_object_object_get_ex(j, "duration_s", &v));
	assert_true(json_object_get_double(v) == 5.0);
	assert_true(json_object_object_get_ex(j, "warmup_passes", &v));
	assert_false(json_object_object_get_ex(j, "zones", &v)); /* not a cdm option */
	json_object_put(j);
}

/* --- jobs built from tests --- */

static void test_job_build(void **state)
{
	(void)state;
	struct rl_target fake = {.size = 8 * GIB, .block_size = 512};
	const struct suite_def *as = find("asssd"), *nvme = find("cdm-nvme"), *cdm = find("cdm");
	struct suite_run r = {.def = as, .p = as->defaults, .t = &fake};
	struct wl_job job;
	char msg[256];

	assert_int_equal(suite_run_start(&r, false), 0);
	assert_int_equal(r.area, GIB);
	assert_false(r.simulated);

	/* 4K-64Thrd: 64 workers, each on its own 16 MiB. */
	suite_job_build(&r, suite_test_find(as, "4K-64Thrd"), SUITE_READ, &job);
	assert_int_equal(job.rw, WL_RW_RANDREAD);
	assert_int_equal(job.numjobs, 64);
	assert_int_equal(job.iodepth, 1);
	assert_int_equal(job.size, 16 * MIB);
	assert_int_equal(job.offset_increment, 16 * MIB);
	assert_false(job.time_based);
	assert_int_equal(wl_job_validate(&job, NULL, msg, sizeof(msg)), 0);

	/* Seq: 16 MiB blocks over the area once. */
	suite_job_build(&r, suite_test_find(as, "Seq"), SUITE_WRITE, &job);
	assert_int_equal(job.rw, WL_RW_WRITE);
	assert_int_equal(job.bs, 16 * MIB);
	assert_int_equal(job.size, GIB);
	assert_int_equal(job.loops, 1);

	/* Acc.time: reads over the whole target, 512 B writes within the area, timed. */
	suite_job_build(&r, suite_test_find(as, "Acc.time"), SUITE_READ, &job);
	assert_int_equal(job.size, 8 * GIB);
	assert_int_equal(job.bs, 4096);
	assert_true(job.time_based);
	assert_int_equal(job.runtime_ns, 5 * S);
	suite_job_build(&r, suite_test_find(as, "Acc.time"), SUITE_WRITE, &job);
	assert_int_equal(job.size, GIB);
	assert_int_equal(job.bs, 512);
	assert_int_equal(job.rw, WL_RW_RANDWRITE);

	/* On a 4Kn target 512 B writes become 4 KiB. */
	fake.block_size = 4096;
	assert_int_equal(suite_run_start(&r, false), 0);
	suite_job_build(&r, suite_test_find(as, "Acc.time"), SUITE_WRITE, &job);
	assert_int_equal(job.bs, 4096);
	fake.block_size = 512;

	/* CDM: Q32T16 shares the area; time-based; the mix follows mix_read. */
	r = (struct suite_run){.def = nvme, .p = nvme->defaults, .t = &fake};
	assert_int_equal(suite_run_start(&r, false), 0);
	suite_job_build(&r, suite_test_find(nvme, "RND4K Q32T16"), SUITE_WRITE, &job);
	assert_int_equal(job.numjobs, 16);
	assert_int_equal(job.iodepth, 32);
	assert_int_equal(job.offset_increment, 0);
	assert_int_equal(job.size, GIB);
	assert_true(job.time_based);
	assert_int_equal(job.runtime_ns, 5 * S);
	suite_job_build(&r, suite_test_find(nvme, "SEQ128K Q32T1"), SUITE_MIX, &job);
	assert_int_equal(job.rw, WL_RW_RW);
	assert_int_equal(job.rwmixread, 70);
	assert_int_equal(job.bs, 128 * KIB);

	/* Target too small: refused, or the whole target with --force. */
	struct rl_target small = {.size = 64 * MIB, .block_size = 512};
	r = (struct suite_run){.def = cdm, .p = cdm->defaults, .t = &small};
	assert_int_equal(suite_run_start(&r, false), -ENOSPC);
	assert_non_null(strstr(r.msg, "--size"));
	assert_int_equal(suite_run_start(&r, true), 0);
	assert_true(r.area_shrunk);
	assert_int_equal(r.area, 64 * MIB);
	r.p.size = 0; /* 0: the whole target */
	assert_int_equal(suite_run_start(&r, false), 0);
	assert_int_equal(r.area, 64 * MIB);
	r.p.size = 4096; /* below the 1 MiB minimum */
	assert_int_equal(suite_run_start(&r, false), -EINVAL);
}

/* --- the pass runner and offset_increment on a mem target --- */

static void test_measure_passes(void **state)
{
	(void)state;
	const struct suite_def *cdm = find("cdm");
	struct rl_target *t = ut_open("mem(size=8m)");
	struct suite_run r = {.def = cdm, .p = cdm->defaults, .t = t};
	struct suite_meas m;
	struct wl_job job;

	r.p.size = 4 * MIB;
	r.p.duration_ns = 20000000; /* 20 ms */
	assert_int_equal(suite_run_start(&r, false), 0);
	suite_job_build(&r, suite_test_find(cdm, "RND4K Q1T1"), SUITE_READ, &job);
	assert_int_equal(job.log_avg_ns, 1000000); /* 20 points in a short pass */
	assert_int_equal(suite_measure(&r, &job, SUITE_VIEW(SUITE_READ), 1, 2, SUITE_AGG_BEST, 4096,
	                               NULL, NULL, &m),
	                 0);
	assert_int_equal(r.njobs, 3); /* one warm-up and two measured passes ran ... */
	assert_int_equal(m.n, 2);     /* ... and only the measured ones are kept */
	assert_int_equal(json_object_array_length(m.passes[SUITE_READ]), 2);
	assert_null(m.passes[SUITE_WRITE]);
	double best = m.fig[SUITE_READ][0].mb_s > m.fig[SUITE_READ][1].mb_s
	                  ? m.fig[SUITE_READ][0].mb_s
	                  : m.fig[SUITE_READ][1].mb_s;
	assert_true(m.agg[SUITE_READ].mb_s == best);
	assert_true(m.agg[SUITE_READ].mb_s > 0);
	struct json_object *d = suite_meas_json(&m, SUITE_READ), *v, *p0;
	assert_null(m.passes[SUITE_READ]);
	assert_true(json_object_object_get_ex(d, "passes", &v));
	p0 = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(p0, "histogram", &v)); /* a full direction object */
	assert_true(json_object_object_get_ex(p0, "series", &v));
	json_object_put(d);

	/* The mix: read and write of one pass together. */
	suite_job_build(&r, suite_test_find(cdm, "RND4K Q1T1"), SUITE_MIX, &job);
	assert_int_equal(
	    suite_measure(&r, &job,
	                  SUITE_VIEW(SUITE_READ) | SUITE_VIEW(SUITE_WRITE) | SUITE_VIEW(SUITE_MIX),
	                  0, 1, SUITE_AGG_SINGLE, 4096, NULL, NULL, &m),
	    0);
	assert_true(fabs(m.agg[SUITE_MIX].mb_s - m.agg[SUITE_READ].mb_s - m.agg[SUITE_WRITE].mb_s) <
	            1e-6 * m.agg[SUITE_MIX].mb_s);
	assert_true(m.agg[SUITE_READ].iops > m.agg[SUITE_WRITE].iops); /* 70 % reads */
	suite_meas_free(&m);
	rl_target_close(t);
}

static void test_offset_increment(void **state)
{
	(void)state;
	struct rl_target *t = ut_open("mem(size=4m)");
	struct wl_result res;
	struct wl_job job;
	char msg[256];

	/* 4 workers, each writes and verifies its own 1 MiB: no overlap, so verify passes. */
	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "rw", "randwrite", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "numjobs", "4", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "size", "1m", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "offset_increment", "1m", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "verify", "crc32c", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(job.offset_increment, MIB);
	assert_int_equal(wl_job_validate(&job, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), 0);
	assert_true(wl_result_ok(&res));
	assert_int_equal(res.dir[RL_OP_WRITE].bytes, 4 * MIB);
	assert_int_equal(res.verify_blocks, 4 * MIB / 4096);
	wl_result_free(&res);

	/* The last worker's region runs past the end: cut to fit, as fio does
	   (3.5 MiB in all: three whole regions and the last one's first half). */
	assert_int_equal(wl_job_set(&job, "offset", "512k", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), 0);
	assert_true(wl_result_ok(&res));
	assert_int_equal(res.dir[RL_OP_WRITE].bytes, 3 * MIB + MIB / 2);
	wl_result_free(&res);
	/* A region that starts past the end: refused, naming offset_increment. */
	assert_int_equal(wl_job_set(&job, "offset", "1m", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "offset_increment"));

	/* Overlapping regions cannot be verified. */
	assert_int_equal(wl_job_set(&job, "offset", "0", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "offset_increment", "512k", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_validate(&job, NULL, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "offset_increment"));
	/* Not a whole sector: taken as written, refused by the target (512-byte
	   blocks) when the job meets it, naming offset_increment and the block. */
	assert_int_equal(wl_job_set(&job, "verify", "none", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_set(&job, "offset_increment", "1000", NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_job_validate(&job, NULL, msg, sizeof(msg)), 0);
	assert_int_equal(wl_run_job(t, &job, NULL, &res, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "offset_increment=1000 is not a multiple of the target's"));
	rl_target_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registry),
	    cmocka_unit_test(test_passmark),
	    cmocka_unit_test(test_cdm),
	    cmocka_unit_test(test_atto),
	    cmocka_unit_test(test_asssd),
	    cmocka_unit_test(test_asssd_score),
	    cmocka_unit_test(test_anvil),
	    cmocka_unit_test(test_hdtune),
	    cmocka_unit_test(test_fio_randrw),
	    cmocka_unit_test(test_iometer),
	    cmocka_unit_test(test_steady_def),
	    cmocka_unit_test(test_aggregate_best),
	    cmocka_unit_test(test_aggregate_mean_single),
	    cmocka_unit_test(test_steady_rule),
	    cmocka_unit_test(test_params),
	    cmocka_unit_test(test_job_build),
	    cmocka_unit_test(test_measure_passes),
	    cmocka_unit_test(test_offset_increment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
