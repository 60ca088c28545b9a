/*
 * test_io.c - the request's contract in core: a child taken from the pool
 * starts clean, and a broken completion rule stops the program.
 *
 *   - rl_io_child_get() sets every field of the child: nothing is left
 *     from the pool entry's previous user (its I/O priority above all,
 *     which a file member hands to the kernel), and the tag is zeroed.
 *   - a child ended twice, a pool entry returned twice and a parent sealed
 *     twice each fail an assert(): checked in a forked process, which must
 *     die of SIGABRT (the library is built with assert() on in every
 *     build that runs tests; this file refuses to build with NDEBUG).
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

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/io.h"

#ifdef NDEBUG
#error "the tests check assert()s: build them without NDEBUG"
#endif

static unsigned parent_done;

static void parent_cb(struct rl_io *io, int status)
{
	(void)io;
	(void)status;
	parent_done++;
}

static struct rl_exec *new_exec(size_t pool)
{
	struct rl_exec *ex = NULL;

	assert_int_equal(rl_exec_create(RL_EXEC_PSYNC, pool, 0, &ex), 0);
	return ex;
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* A pool of one: the second child is the same entry as the first. */
static void test_child_starts_clean(void **state)
{
	struct rl_exec *ex = new_exec(1);
	struct rl_io p1 = {.op = RL_OP_WRITE, .cb = parent_cb, .ex = ex, .ioprio = (2 << 13) | 4};
	struct rl_io p2 = {.op = RL_OP_READ, .cb = parent_cb, .ex = ex}; /* ioprio 0 */
	struct rl_io *c;
	int dummy;

	(void)state;
	parent_done = 0;
	rl_io_children_begin(&p1);
	c = rl_io_child_get(&p1);
	assert_non_null(c);
	assert_int_equal(c->ioprio, p1.ioprio); /* on the host request's behalf */
	assert_null(rl_io_child_get(&p1));      /* the pool is empty */
	/* the first user leaves everything it may touch set */
	c->flags = RL_IO_FUA;
	c->len = 4096;
	c->offset = 8192;
	c->buf = &dummy;
	c->cb_arg = &dummy;
	c->ioprio = (1 << 13) | 7;
	memset(&c->tag, 0xa5, sizeof(c->tag));
	memset(&c->ctx, 0x5a, sizeof(c->ctx));
	rl_io_child_end(c, 0);
	rl_io_children_sealed(&p1);
	assert_int_equal(parent_done, 1);

	rl_io_children_begin(&p2);
	assert_ptr_equal(rl_io_child_get(&p2), c);
	assert_int_equal(c->ioprio, 0); /* not the previous user's (1 << 13) | 7 */
	assert_int_equal(c->op, RL_OP_READ);
	assert_int_equal(c->flags, 0);
	assert_int_equal(c->len, 0);
	assert_int_equal(c->offset, 0);
	assert_null(c->buf);
	assert_null(c->cb_arg);
	assert_ptr_equal(c->cb, rl_io_child_end);
	assert_ptr_equal(c->parent, &p2);
	assert_ptr_equal(c->ex, ex);
	assert_int_equal(c->pending, 0);
	assert_int_equal(c->status, 0);
	assert_true(all_zero(&c->tag, sizeof(c->tag)));
	assert_true(all_zero(&c->ctx, sizeof(c->ctx)));
	rl_io_child_end(c, -EIO);
	rl_io_children_sealed(&p2);
	assert_int_equal(parent_done, 2);
	assert_int_equal(p2.status, -EIO);
	rl_exec_destroy(ex);
}

enum misuse { END_TWICE, PUT_TWICE, SEAL_TWICE, NONE };

/* In a child process: run @m and exit 0 if nothing stopped it. */
static void misuse_run(enum misuse m)
{
	struct rl_exec *ex = new_exec(4);
	struct rl_io p = {.op = RL_OP_READ, .cb = parent_cb, .ex = ex};
	struct rl_io *c;

	rl_io_children_begin(&p); /* the guard: the parent is not done after one end */
	switch (m) {
	case END_TWICE:
		c = rl_io_child_get(&p);
		rl_io_child_end(c, 0);
		rl_io_child_end(c, 0);
		break;
	case PUT_TWICE:
		c = rl_exec_pool_get(ex);
		rl_exec_pool_put(ex, c);
		rl_exec_pool_put(ex, c);
		break;
	case SEAL_TWICE:
		rl_io_children_sealed(&p);
		rl_io_children_sealed(&p);
		break;
	case NONE:
		c = rl_io_child_get(&p);
		rl_io_child_end(c, 0);
		rl_io_children_sealed(&p);
		break;
	}
	_exit(0);
}

/* How a process running @m ended: the signal that killed it, or 0. */
static int misuse_signal(enum misuse m)
{
	int st = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2); /* the assert's message is expected */
		misuse_run(m);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		return WTERMSIG(st);
	assert_true(WIFEXITED(st));
	return 0;
}

static void test_double_completion_caught(void **state)
{
	(void)state;
	assert_int_equal(misuse_signal(NONE), 0); /* the harness itself dies of nothing */
	assert_int_equal(misuse_signal(END_TWICE), SIGABRT);
	assert_int_equal(misuse_signal(PUT_TWICE), SIGABRT);
	assert_int_equal(misuse_signal(SEAL_TWICE), SIGABRT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_child_starts_clean),
	    cmocka_unit_test(test_double_completion_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
