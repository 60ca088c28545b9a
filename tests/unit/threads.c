/*
 * threads.c - holds a unit test to what its source says about threads.
 *
 * ThreadSanitizer finds races between threads; a test program that never
 * starts one gives it nothing to find, only its slowdown.  Such a test says
 * so with a comment line "tsan-skip: single-threaded" in its source, and
 * tests/run.sh then leaves it out of the ThreadSanitizer build's run.  The
 * claim is checked wherever the test does run (plain and ASan builds): the
 * runner sets RL_UT_SINGLE_THREADED for it, every program here is linked
 * with pthread_create wrapped (-Wl,--wrap=pthread_create) so that each
 * thread the library or the test starts is counted, and at exit a program
 * that claimed a single thread but started one fails, naming the count.
 * Threads started inside shared libraries (glibc's POSIX AIO helpers, say)
 * do not go through the wrapper; the exit check also fails when more than
 * one thread is still alive then, which catches those that linger.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int __real_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg);

static atomic_uint ut_threads_started;

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg)
{
	atomic_fetch_add_explicit(&ut_threads_started, 1, memory_order_relaxed);
	return __real_pthread_create(thread, attr, start, arg);
}

/* Threads of this process alive now (/proc/self/status), or 0 if unknown. */
static unsigned ut_threads_alive(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %u", &n) == 1)
			break;
	fclose(f);
	return n;
}

__attribute__((destructor)) static void ut_threads_check(void)
{
	const char *claim = getenv("RL_UT_SINGLE_THREADED");
	unsigned started = atomic_load(&ut_threads_started);
	unsigned alive;

	if (!claim || strcmp(claim, "1"))
		return;
	alive = ut_threads_alive();
	if (!started && alive <= 1)
		return;
	fprintf(stderr,
	        "this test says \"tsan-skip: single-threaded\" but started %u thread(s) (%u alive "
	        "at exit): remove the line so that ThreadSanitizer runs it\n",
	        started, alive);
	_exit(1);
}
