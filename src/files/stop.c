/*
 * stop.c - the file suites' signal handling (stop.h).
 *
 * Not a handler: a thread.  The main thread spends its waits in the kernel
 * (syncfs, an unmount, a write throttled by writeback), uninterruptibly,
 * and a handler would run only when the wait is over -- at simulated
 * speed.  So the signals are blocked in every thread and one thread takes
 * them with sigwait() and acts at once: it unpaces serve, which is what
 * ends those waits.  Children get the signals unblocked again before they
 * exec (files_stop_child_init).  The state the thread reads is
 * sig_atomic_t (pids, the count) and a text buffer under a mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files/stop.h"

#define STOP_TEXT 4096

static volatile sig_atomic_t stop_level, stop_first, stop_serve, stop_child;
static char stop_text[STOP_TEXT];
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;

static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static void stop_on_signal(int sig)
{

	if (!stop_first)
		stop_first = sig;
	stop_level = stop_level < 3 ? stop_level + 1 : 3;
	if (stop_serve > 0)
		kill((pid_t)stop_serve, SIGUSR1);
	if (stop_child > 0)
		kill(-(pid_t)stop_child, stop_level == 1 ? SIGTERM : SIGKILL);
	if (stop_level >= 3) {
		static const char head[] = "\nraidlab run: third signal: teardown abandoned\n";
		ssize_t w = write(STDERR_FILENO, head, sizeof(head) - 1);
		pthread_mutex_lock(&stop_lock);
		if (stop_text[0])
			w = write(STDERR_FILENO, stop_text, strlen(stop_text));
		(void)w;
		_exit(1);
	}
}

static void *stop_thread(void *arg)
{
	sigset_t set;
	int sig;

	(void)arg;
	stop_set(&set);
	for (;;)
		if (!sigwait(&set, &sig))
			stop_on_signal(sig);
	return NULL;
}

static pthread_t stop_th;
static bool stop_th_up;

void files_stop_install(void)
{
	sigset_t set;

	stop_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	stop_th_up = pthread_create(&stop_th, NULL, stop_thread, NULL) == 0;
}

void files_stop_uninstall(void)
{
	/* sigwait is a cancellation point: the thread ends there, and is joined */
	if (stop_th_up && !pthread_cancel(stop_th))
		pthread_join(stop_th, NULL);
	stop_th_up = false;
}

void files_stop_child_init(void)
{
	sigset_t set;

	stop_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

const volatile sig_atomic_t *files_stop_flag(void)
{
	return &stop_level;
}

int files_stop_level(void)
{
	return stop_level;
}

int files_stop_signal(void)
{
	return stop_first;
}

void files_stop_serve(pid_t pid)
{
	stop_serve = pid;
	if (pid > 0 && stop_level)
		kill(pid, SIGUSR1); /* a signal came before serve was up */
}

void files_stop_leftovers(const char *text)
{
	pthread_mutex_lock(&stop_lock);
	strncpy(stop_text, text ? text : "", sizeof(stop_text) - 1);
	stop_text[sizeof(stop_text) - 1] = 0;
	pthread_mutex_unlock(&stop_lock);
}

int files_stop_wait_child(pid_t pid, int *status)
{
	int rc = 0;

	setpgid(pid, pid); /* also done by the child: whichever runs first */
	stop_child = pid;
	if (stop_level)
		kill(-pid, stop_level == 1 ? SIGTERM : SIGKILL); /* a signal came first */
	for (;;) {
		pid_t w = waitpid(pid, status, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
	}
	stop_child = 0;
	return rc ? rc : stop_level ? -EINTR : 0;
}
