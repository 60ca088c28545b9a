/*
 * test_pool.c - the local worker pool (suites/pool.c) and the reused
 * mappings its workers keep (core/bigmap.h).
 *
 * The pool: a suite of the test's own makes each request do what its
 * label says (answer with the worker's pid, crash, or sleep past its
 * timeout), and one worker (par 1) runs them all in order, so the test
 * sees that requests share a process, that a crash costs only its own
 * request (the next one runs in a new worker), and that a request past
 * its timeout is killed and reported while the rest go on.  Two workers
 * run eight requests in at most two processes.
 *
 * bigmap: a mapping given back and asked for again at the same size comes
 * back with every byte zero, a size in the same class gets the same
 * mapping, and the idle bytes count what was written.
 *
 * tsan-skip: single-threaded (no thread to race; tests/unit/threads.c holds it to that)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <json-c/json.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bigmap.h"
#include "core/spec.h"
#include "suites/runner.h"
#include "suites/suite.h"

static int pool_test_run(struct suite_run *r)
{
	const char *what = json_object_get_string(json_object_object_get(r->doc, "label"));

	if (what && !strcmp(what, "crash"))
		abort();
	if (what && !strcmp(what, "hang"))
		sleep(60);
	json_object_object_add(r->doc, "pid", json_object_new_int(getpid()));
	return 0;
}

static struct suite_def pool_test_def = {
    .name = "pool-test",
    .title = "the pool's own test",
    .defaults = {.size = 1 << 20},
    .run = pool_test_run,
};

static void fill(struct suite_request *rq, const char *const *labels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rq[i] = (struct suite_request){
		    .def = &pool_test_def,
		    .p = pool_test_def.defaults,
		    .spec = "mem(size=4m)",
		    .label = labels[i],
		    .ctx = {.quiet = true},
		    .timeout_s = strcmp(labels[i], "hang") ? 0 : 1,
		};
	}
}

static int pid_of(const struct suite_pool_result *res)
{
	struct json_object *v;

	if (!res->doc || !json_object_object_get_ex(res->doc, "pid", &v))
		return -1;
	return json_object_get_int(v);
}

static void test_one_worker_many_requests(void **state)
{
	static const char *const labels[] = {"a", "b", "crash", "c", "hang", "d"};
	enum { N = sizeof(labels) / sizeof(labels[0]) };
	struct suite_request rq[N];
	struct suite_pool_result res[N];
	int pid[N];

	(void)state;
	fill(rq, labels, N);
	memset(res, 0, sizeof(res));
	assert_int_equal(suite_pool_run(rq, N, 1, res, NULL, NULL), 0);
	for (size_t i = 0; i < N; i++)
		pid[i] = pid_of(&res[i]);
	/* a and b in one worker, which is not this process */
	assert_true(pid[0] > 0 && pid[0] != getpid());
	assert_int_equal(pid[1], pid[0]);
	/* the crash is reported as such, and only for its own request */
	assert_null(res[2].doc);
	assert_non_null(strstr(res[2].error, "the worker died"));
	assert_false(res[2].timed_out);
	/* c ran in the worker that replaced it */
	assert_true(pid[3] > 0 && pid[3] != pid[0]);
	/* the hang was killed at its timeout; d ran after it, in a new worker */
	assert_true(res[4].timed_out);
	assert_non_null(strstr(res[4].error, "timed out after 1 s"));
	assert_true(pid[5] > 0 && pid[5] != pid[3]);
	for (size_t i = 0; i < N; i++)
		json_object_put(res[i].doc);
}

static void test_two_workers(void **state)
{
	static const char *const labels[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
	enum { N = sizeof(labels) / sizeof(labels[0]) };
	struct suite_request rq[N];
	struct suite_pool_result res[N];
	int pids[N], npids = 0;

	(void)state;
	fill(rq, labels, N);
	memset(res, 0, sizeof(res));
	assert_int_equal(suite_pool_run(rq, N, 2, res, NULL, NULL), 0);
	for (size_t i = 0; i < N; i++) {
		int p = pid_of(&res[i]), k;
		assert_true(p > 0);
		for (k = 0; k < npids && pids[k] != p; k++)
			;
		if (k == npids)
			pids[npids++] = p;
		json_object_put(res[i].doc);
	}
	assert_true(npids >= 1 && npids <= 2);
}

static void test_bigmap_reuse(void **state)
{
	size_t len = (size_t)24 << 20, half = (size_t)12 << 20;
	uint8_t *a, *b;

	(void)state;
	rl_bigmap_drop();
	a = rl_bigmap_get(len, true);
	assert_non_null(a);
	memset(a, 0x5a, half); /* half of it written */
	assert_int_equal(a[len - 1], 0);
	rl_bigmap_put(a, len);
	assert_true(rl_bigmap_idle_bytes() >= half);
	assert_true(rl_bigmap_idle_bytes() < len);
	/* 30 MiB is in the same size class (32 MiB): the same mapping, cleared */
	b = rl_bigmap_get((size_t)30 << 20, true);
	assert_ptr_equal(b, a);
	assert_int_equal(rl_bigmap_idle_bytes(), 0);
	for (size_t i = 0; i < ((size_t)30 << 20); i += 4096)
		assert_int_equal(b[i] | b[i + 4095], 0);
	rl_bigmap_put(b, (size_t)30 << 20);
	/* another class: a new mapping */
	b = rl_bigmap_get((size_t)100 << 20, false);
	assert_non_null(b);
	assert_ptr_not_equal(b, a);
	rl_bigmap_put(b, (size_t)100 << 20);
	rl_bigmap_drop();
	assert_int_equal(rl_bigmap_idle_bytes(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_worker_many_requests),
	    cmocka_unit_test(test_two_workers),
	    cmocka_unit_test(test_bigmap_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
