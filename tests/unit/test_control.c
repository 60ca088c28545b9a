/*
 * test_control.c - the controls of workload/control.c (flow, latency
 * target search, steady state), dedupe buffers (workload/buf.c) and NUMA
 * placement (workload/numa.c).
 *
 * Design: each control is driven with synthetic figures whose right answer
 * is known (a device whose latency is depth x 100 us, a rate that is flat
 * or climbing), so a control that ignored its input would fail.  NUMA is
 * checked against the kernel's own lists in /sys and get_mempolicy(2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload/buf.h"
#include "workload/control.h"
#include "workload/numa.h"

/* Two jobs of weights 1 and 3 that always want to issue: counts in 1:3. */
static void test_flow_ratio(void **state)
{
	(void)state;
	struct wl_flow_set set = {0};
	struct wl_flow *a = wl_flow_join(&set, 0, 1), *b = wl_flow_join(&set, 0, 3);
	struct wl_flow *other = wl_flow_join(&set, 7, 5);
	uint64_t na = 0, nb = 0;

	assert_ptr_equal(a, b);
	assert_ptr_not_equal(a, other);
	for (int i = 0; i < 40000; i++) {
		(void)wl_flow_ahead(a, 1, &na);
		(void)wl_flow_ahead(b, 3, &nb);
	}
	double ratio = (double)nb / (double)na;
	assert_true(ratio > 2.9 && ratio < 3.1);
	/* b leaves: a alone is never ahead */
	wl_flow_leave(b, 3, nb);
	uint64_t before = na;
	for (int i = 0; i < 100; i++)
		assert_false(wl_flow_ahead(a, 1, &na));
	assert_int_equal(na, before + 100);
}

/* A device whose latency is depth x 100 us: the search settles on target / 100 us. */
static unsigned lat_settle(uint64_t target_us, unsigned iodepth, double pct, unsigned *windows)
{
	struct wl_job job;
	struct wl_lat_search ls;
	uint64_t now = 1000;
	unsigned n = 0;

	wl_job_init(&job);
	job.iodepth = iodepth;
	job.lat_target_ns = target_us * 1000;
	job.lat_window_ns = 10000000; /* 10 ms */
	job.lat_pct = pct;
	wl_lat_init(&ls, &job, now);
	for (int step = 0; step < 1000000; step++) {
		uint64_t lat = (uint64_t)ls.qd * 100000;
		now += lat / ls.qd;
		switch (wl_lat_complete(&ls, now - lat, lat, now)) {
		case WL_LAT_DONE:
			*windows = n;
			return ls.qd;
		case WL_LAT_FAIL:
			*windows = n;
			return 0;
		case WL_LAT_GO:
			break;
		default:
			n++;
		}
	}
	fail_msg("the search did not settle");
	return 0;
}

static void test_latency_search(void **state)
{
	(void)state;
	unsigned windows = 0;

	assert_int_equal(lat_settle(450, 64, 100.0, &windows), 4);
	assert_true(windows > 3);
	assert_int_equal(lat_settle(1000, 64, 99.0, &windows), 10);
	assert_int_equal(lat_settle(100000, 16, 100.0, &windows), 16); /* capped at iodepth */
	assert_int_equal(lat_settle(50, 16, 100.0, &windows), 0);      /* not even depth 1 */
}

/* Feed @ss completions at @iops for @secs seconds; returns when it was attained (or 0). */
static uint64_t ss_feed(struct wl_ss *ss, double iops0, double growth, double secs)
{
	uint64_t now = 1;
	wl_ss_start(ss, now);
	while (now < secs * 1e9) {
		double iops = iops0 * (1.0 + growth * (double)now / 1e9);
		now += (uint64_t)(1e9 / iops);
		if (wl_ss_add(ss, 4096, 50000, now))
			return now;
	}
	return 0;
}

static void test_steady_state(void **state)
{
	(void)state;
	struct wl_job job;
	struct wl_ss ss;

	/*
	 * flat rate, iops:5%: samples start one interval after the 1 s ramp
	 * (at 2 s, as fio), so the 3-sample window is full and steady at 4 s
	 */
	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "ss", "iops:5%", NULL, NULL, 0), 0);
	job.ss_dur_ns = 3000000000ull;
	job.ss_ramp_ns = 1000000000ull;
	assert_int_equal(wl_ss_init(&ss, &job), 0);
	uint64_t t = ss_feed(&ss, 2000, 0, 30);
	assert_true(t >= 3990000000ull && t < 4100000000ull);
	struct wl_ss_report *r = wl_ss_report(&ss);
	assert_non_null(r);
	assert_true(r->attained);
	assert_int_equal(r->n, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_true(r->iops[i] > 1980 && r->iops[i] < 2020 &&
		            r->bw[i] == r->iops[i] * 4096);
	wl_ss_report_free(r);
	wl_ss_free(&ss);

	/* a rate climbing 20 % a second never has a slope below 1 % of its mean */
	assert_int_equal(wl_job_set(&job, "ss", "iops_slope:1%", NULL, NULL, 0), 0);
	assert_int_equal(wl_ss_init(&ss, &job), 0);
	assert_int_equal(ss_feed(&ss, 1000, 0.2, 10), 0);
	r = wl_ss_report(&ss);
	assert_false(r->attained);
	assert_true(r->criterion > 5.0); /* slope as a percentage of the mean */
	assert_true(r->iops[2] > r->iops[0]);
	wl_ss_report_free(r);
	wl_ss_free(&ss);
}

/* Unique 4 KiB blocks among @n writes of a dedupe job. */
static unsigned dedupe_unique(struct wl_job *job, unsigned n)
{
	struct wl_dedupe d;
	uint8_t *bufs = malloc((size_t)n * 4096);
	unsigned uniq = 0;

	assert_non_null(bufs);
	wl_dedupe_init(&d, job, (uint64_t)n * 4096, 42, 0, 1);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *b = bufs + (size_t)i * 4096;
		wl_dedupe_fill(job, &d, b, 4096);
		bool seen = false;
		for (unsigned k = 0; k < i && !seen; k++)
			seen = !memcmp(bufs + (size_t)k * 4096, b, 4096);
		uniq += !seen;
	}
	free(bufs);
	return uniq;
}

static void test_dedupe(void **state)
{
	(void)state;
	struct wl_job job;

	wl_job_init(&job);
	job.dedupe_pct = 50;
	unsigned u = dedupe_unique(&job, 1000);
	assert_true(u > 440 && u < 560); /* half of them repeat the previous unique one */
	job.dedupe_pct = 0;
	assert_int_equal(dedupe_unique(&job, 200), 200);
	/* working set of 10 % of the region: duplicates come from 100 blocks */
	job.dedupe_pct = 80;
	job.dedupe_working_set = true;
	job.dedupe_ws_pct = 10;
	u = dedupe_unique(&job, 1000);
	assert_true(u > 150 && u < 350);
}

static void test_numa_cpus(void **state)
{
	(void)state;
	cpu_set_t set, want;
	char note[64], msg[256];
	FILE *f = fopen("/sys/devices/system/node/node0/cpulist", "r");

	if (!f)
		skip();
	fclose(f);
	assert_int_equal(wl_numa_cpus(1, &set, note, sizeof(note), msg, sizeof(msg)), 0);
	assert_string_equal(note, "");
	assert_true(CPU_COUNT(&set) > 0);
	/* all online nodes' CPUs: at least node 0's */
	assert_int_equal(wl_numa_cpus(UINT64_MAX, &want, note, sizeof(note), msg, sizeof(msg)), 0);
	CPU_AND(&want, &want, &set);
	assert_true(CPU_EQUAL(&want, &set));
	/* node 63 exists nowhere: named, and alone it is an error */
	assert_int_equal(wl_numa_cpus(1ull << 63 | 1, &set, note, sizeof(note), msg, sizeof(msg)),
	                 0);
	assert_string_equal(note, "63");
	assert_int_equal(wl_numa_cpus(1ull << 63, &set, note, sizeof(note), msg, sizeof(msg)),
	                 -ENODEV);
	assert_non_null(strstr(msg, "numa_cpu_nodes"));
}

static void *numa_mpol_thread(void *arg)
{
	const struct wl_job *job = arg;
	char msg[256];
	int mode = -1;
	unsigned long mask[4] = {0};

	if (wl_numa_mpol_apply(job, msg, sizeof(msg)))
		return (void *)(intptr_t)-1;
	if (syscall(SYS_get_mempolicy, &mode, mask, 64ul * 4, NULL, 0ul))
		return (void *)(intptr_t)-2;
	return (void *)(intptr_t)(mode * 1000 + (int)(mask[0] & 0xff));
}

static void test_numa_mpol(void **state)
{
	(void)state;
	struct wl_job job;
	pthread_t th;
	void *ret;

	wl_job_init(&job);
	assert_int_equal(wl_job_set(&job, "numa_mem_policy", "bind:0", NULL, NULL, 0), 0);
	assert_int_equal(pthread_create(&th, NULL, numa_mpol_thread, &job), 0);
	pthread_join(th, &ret);
	if ((intptr_t)ret == -1)
		skip(); /* no NUMA support in this kernel */
	assert_int_equal((intptr_t)ret, MPOL_BIND * 1000 + 1);
	assert_int_equal(wl_job_set(&job, "numa_mem_policy", "interleave:all", NULL, NULL, 0), 0);
	assert_int_equal(pthread_create(&th, NULL, numa_mpol_thread, &job), 0);
	pthread_join(th, &ret);
	assert_int_equal((intptr_t)ret / 1000, MPOL_INTERLEAVE);
	assert_true((intptr_t)ret % 1000 & 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_flow_ratio),   cmocka_unit_test(test_latency_search),
	    cmocka_unit_test(test_steady_state), cmocka_unit_test(test_dedupe),
	    cmocka_unit_test(test_numa_cpus),    cmocka_unit_test(test_numa_mpol),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
