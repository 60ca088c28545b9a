/*
 * jobs.h - run one of raidlab's commands for the page and stream it.
 *
 * The child is /proc/self/exe with an argv built by api.c, started with
 * posix_spawn in a process group of its own, standard input from
 * /dev/null.  Its standard output and error come to the page as
 * server-sent events, line by line: "out" and "err"; first "cmd" (the
 * command line to type for the same thing), at the end "result" (the file
 * the command wrote, when it names one) and "exit" (its exit status).  When
 * the page closes the connection (its Stop button) or the server stops,
 * the group gets SIGINT, as Ctrl-C on the command line, and SIGKILL if it
 * is still there after UI_JOB_GRACE_MS.
 */
#ifndef RL_UI_JOBS_H
#define RL_UI_JOBS_H

#include <stddef.h>

#define UI_JOB_GRACE_MS 800
#define UI_JOB_MAX_ARGS 40

struct ui_job {
	const char *argv[UI_JOB_MAX_ARGS + 1]; /* argv[0] is "raidlab"; NULL-terminated */
	size_t argc;
	const char *result_file; /* NULL or a file to send as "result" after a 0 exit */
	char strings[8192];      /* the argv's text */
	size_t used;
};

/* Append @s (copied) to @j's argv; -E2BIG when full. */
int ui_job_arg(struct ui_job *j, const char *s);
/* Append "--@name=@val" to @j's argv; -E2BIG when full. */
int ui_job_opt(struct ui_job *j, const char *name, const char *val);

/*
 * Answer the request on @sock with the event stream of @j; returns when the
 * child has ended and been reaped.  0, or -errno when it could not start
 * (the page then got an "err" and "exit" event anyway).
 */
int ui_job_stream(int sock, const struct ui_job *j);

/* Send @sig to every running child's group, for the server's exit. */
void ui_jobs_signal_all(int sig);

/* The shell-quoted command line of @j into @out. */
void ui_job_cmdline(const struct ui_job *j, char *out, size_t outlen);

#endif
