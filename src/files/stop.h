/*
 * stop.h - Ctrl-C (SIGINT, SIGTERM, SIGHUP) for the file suites.
 *
 * A suite on a stack mostly waits on others: mkfs, tar or qemu-img, and the
 * kernel writing back through nbdfuse to a child `raidlab serve` that paces
 * a simulated drive, maybe in slow motion.  A flag the suite checks between
 * files is not enough to stop that, so a signal thread acts at once:
 *
 *   1st signal  the flag is set (files_stop_level() = 1); the registered
 *               serve gets SIGUSR1 (pacing off: what the kernel still writes,
 *               syncfs and the unmount are answered at once); the running
 *               child's process group gets SIGTERM.
 *   2nd         the child's group gets SIGKILL; the teardown hurries (lazy
 *               unmounts, no waiting for children) but still undoes it all.
 *   3rd         abandon: the commands that remove what is left (kept up to
 *               date by the target code) are written to stderr, exit 1.
 */
#ifndef RL_FILES_STOP_H
#define RL_FILES_STOP_H

#include <signal.h>
#include <sys/types.h>

/** Block the signals and start the thread that takes them (before any other thread). */
void files_stop_install(void);
/** End the signal thread (at the end of the command; signals stay blocked). */
void files_stop_uninstall(void);
/** In a forked child before exec: the signals unblocked again. */
void files_stop_child_init(void);
/** The signal count, for the stop pointers of files_run and files_target_opts. */
const volatile sig_atomic_t *files_stop_flag(void);
/** Signals received so far (0: none). */
int files_stop_level(void);
/** The first signal received (0: none). */
int files_stop_signal(void);
/** The serve child to unpace on a signal (0: none). */
void files_stop_serve(pid_t pid);
/** The text written to stderr when a third signal abandons the teardown ("" : none). */
void files_stop_leftovers(const char *text);
/**
 * Wait for child @pid (its own process group), which the handler signals;
 * *status gets its wait status.  0 when it ended, -EINTR when it ended
 * after a signal, or -errno.
 */
int files_stop_wait_child(pid_t pid, int *status);

#endif
