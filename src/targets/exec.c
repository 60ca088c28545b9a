/*
 * exec.c - a program as the I/O: fio's exec engine.
 *
 *   exec("/usr/bin/vmstat", args="1", name="mon", runtime=30s, grace=1s)
 *
 * The first request starts PROGRAM with ARGS split at spaces (no quoting,
 * as fio) and its standard output and error in NAME.stdout and NAME.stderr
 * of the current folder (redirect=0: raidlab's own).  Every request then
 * watches it for up to RL_EXEC_POLL, or until runtime has passed since the
 * start; the request that reaches the runtime sends SIGTERM, waits up to
 * grace for the program to exit and then sends SIGKILL, so the job's last
 * request ends with the program.  A program that exits early is reaped and
 * the job runs on to its runtime, as fio's does.  Each request completes
 * with 0 and moves no bytes (the runner counts them as fio counts the
 * engine's I/Os).  A program still running when the run ends (a signal
 * stopped the job) gets the same SIGTERM and SIGKILL in finish.
 *
 * One target per clone (copy=K makes the spec distinct): its requests come
 * from one worker thread, one at a time, so the state needs no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/registry.h"

#define RL_EXEC_POLL   50000000ull /* a request watches the program this long at most */
#define RL_EXEC_STEP   2000000ull  /* how often it looks whether the program exited */
#define RL_EXEC_SLACK  1000000ull  /* see exec_submit */
#define RL_EXEC_ARGMAX 256         /* words of program and arguments */

struct exec_state {
	char *program, *args, *name;
	uint64_t runtime_ns, grace_ns;
	bool redirect;
	pid_t pid;         /* 0: not started; -1: exited and reaped */
	uint64_t t_start;  /* when it started */
	int status;        /* its wait status, once reaped */
	bool stopped;      /* runtime reached: SIGTERM/SIGKILL sent */
	unsigned requests; /* requests seen (for describe) */
};

static uint64_t exec_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void exec_nap(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
	nanosleep(&ts, NULL);
}

/* Reap the program if it exited; true when it is no longer running. */
static bool exec_reaped(struct exec_state *s)
{
	if (s->pid <= 0)
		return true;
	pid_t r = waitpid(s->pid, &s->status, WNOHANG);
	if (r == s->pid || (r < 0 && errno == ECHILD)) {
		s->pid = -1;
		return true;
	}
	return false;
}

/* In the child: stdout and stderr to NAME.stdout / NAME.stderr, then exec. */
static void exec_child(const struct exec_state *s, char *const *argv)
{
	if (s->redirect) {
		char path[4096];
		const char *ext[2] = {"stdout", "stderr"};
		for (int k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s.%s", s->name, ext[k]);
			int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0 || dup2(fd, 1 + k) < 0)
				_exit(126);
			close(fd);
		}
	}
	execvp(argv[0], argv);
	dprintf(2, "raidlab: exec: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Start the program: 0 or a negative errno. */
static int exec_start(struct exec_state *s)
{
	char *argv[RL_EXEC_ARGMAX + 2], *words = strdup(s->args);
	size_t n = 0;

	if (!words)
		return -ENOMEM;
	argv[n++] = s->program;
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && n <= RL_EXEC_ARGMAX;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	pid_t pid = fork();
	if (pid == 0)
		exec_child(s, argv);
	free(words);
	if (pid < 0)
		return -errno;
	s->pid = pid;
	s->t_start = exec_now();
	return 0;
}

/* SIGTERM, up to grace for it to exit, then SIGKILL and reap. */
static void exec_stop(struct exec_state *s)
{
	s->stopped = true;
	if (exec_reaped(s))
		return;
	kill(s->pid, SIGTERM);
	for (uint64_t end = exec_now() + s->grace_ns; !exec_reaped(s) && exec_now() < end;)
		exec_nap(RL_EXEC_STEP);
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &s->status, 0);
		s->pid = -1;
	}
}

static void exec_submit(struct rl_target *t, struct rl_io *io)
{
	struct exec_state *s = t->priv;
	int rc = 0;

	s->requests++;
	if (io->op == RL_OP_FLUSH || s->stopped) {
		rl_io_complete_later(io, 0);
		return;
	}
	if (!s->pid) {
		rc = exec_start(s);
		rl_io_complete_later(io, rc);
		return;
	}
	/* the job's clock started a moment before the program: a request that would end
	   within RL_EXEC_SLACK of the runtime waits for it, so the job's last one stops it */
	uint64_t now = exec_now(), end = s->t_start + s->runtime_ns;
	uint64_t until =
	    now >= end || end - now < RL_EXEC_POLL + RL_EXEC_SLACK ? end : now + RL_EXEC_POLL;
	while ((now = exec_now()) < until)
		exec_nap(until - now < RL_EXEC_STEP ? until - now : RL_EXEC_STEP);
	(void)exec_reaped(s);
	if (now >= end)
		exec_stop(s);
	rl_io_complete_later(io, 0);
}

static int exec_describe(struct rl_target *t, struct json_object *obj)
{
	struct exec_state *s = t->priv;

	json_object_object_add(obj, "program", json_object_new_string(s->program));
	json_object_object_add(obj, "args", json_object_new_string(s->args));
	return 0;
}

static int exec_report(struct rl_target *t, struct json_object *obj)
{
	struct exec_state *s = t->priv;

	if (s->pid < 0 && WIFEXITED(s->status))
		json_object_object_add(obj, "exit_status",
		                       json_object_new_int(WEXITSTATUS(s->status)));
	else if (s->pid < 0 && WIFSIGNALED(s->status))
		json_object_object_add(obj, "killed_by", json_object_new_int(WTERMSIG(s->status)));
	return 0;
}

static void exec_finish(struct rl_target *t)
{
	struct exec_state *s = t->priv;

	if (s->pid > 0)
		exec_stop(s);
}

static void exec_destroy(struct rl_target *t)
{
	struct exec_state *s = t->priv;

	if (!s)
		return;
	exec_finish(t);
	free(s->program);
	free(s->args);
	free(s->name);
	free(s);
}

static const struct rl_target_ops exec_ops = {
    .name = "exec",
    .submit = exec_submit,
    .describe = exec_describe,
    .report = exec_report,
    .finish = exec_finish,
    .destroy = exec_destroy,
};

static const struct rl_param exec_params[] = {
    {.name = "args",
     .type = RL_PARAM_STR,
     .def = "",
     .help = "the program's arguments, split at spaces"},
    {.name = "name",
     .type = RL_PARAM_STR,
     .def = "exec",
     .help = "redirect=1: the output goes to NAME.stdout and NAME.stderr"},
    {.name = "copy",
     .type = RL_PARAM_U64,
     .def = "0",
     .min = 0,
     .max = 1u << 20,
     .help = "which copy of the job this is (numjobs): each runs its own program"},
    {.name = "runtime",
     .type = RL_PARAM_TIME,
     .def = "1s",
     .help = "how long the program runs before SIGTERM"},
    {.name = "grace",
     .type = RL_PARAM_TIME,
     .def = "1s",
     .help = "how long after SIGTERM it may take to exit before SIGKILL"},
    {.name = "redirect",
     .type = RL_PARAM_BOOL,
     .def = "on",
     .help = "standard output and error to NAME.stdout and NAME.stderr in the current "
             "folder; off: raidlab's own"},
    {0},
};

static int exec_args(struct rl_spec_node *node, struct exec_state *s, struct rl_err *err)
{
	const char *args = "", *name = "exec";
	uint64_t copy = 0;
	int rc;

	if (!node->is_call || node->nargs != 1 || node->args[0]->is_call || !node->args[0]->name[0])
		return rl_err_set(err, node->pos,
		                  "exec takes the program to run, e.g. exec(\"/usr/bin/vmstat\", "
		                  "args=\"1\")");
	if ((rc = rl_param_str(node, exec_params, "args", &args, err)) ||
	    (rc = rl_param_str(node, exec_params, "name", &name, err)) ||
	    (rc = rl_param_u64(node, exec_params, "copy", &copy, err)) ||
	    (rc = rl_param_u64(node, exec_params, "runtime", &s->runtime_ns, err)) ||
	    (rc = rl_param_u64(node, exec_params, "grace", &s->grace_ns, err)) ||
	    (rc = rl_param_bool(node, exec_params, "redirect", &s->redirect, err)) ||
	    (rc = rl_params_check(node, exec_params, err)))
		return rc;
	if (!s->runtime_ns)
		return rl_err_set(err, node->pos, "exec: runtime must be above 0");
	s->program = strdup(node->args[0]->name);
	s->args = strdup(args);
	s->name = strdup(name);
	return s->program && s->args && s->name ? 0 : -ENOMEM;
}

static int exec_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	struct exec_state *s = calloc(1, sizeof(*s));
	struct rl_target *t = rl_target_alloc(&exec_ops, 0);
	int rc;

	(void)ctx;
	if (!s || !t) {
		free(s);
		free(t);
		return -ENOMEM;
	}
	t->priv = s;
	rc = exec_args(node, s, err);
	if (rc) {
		rl_target_close(t);
		return rc;
	}
	t->size = 1ull << 30;
	t->block_size = 512;
	t->caps = RL_CAP_FLUSH | RL_CAP_REAL;
	*out = t;
	return 0;
}

static struct rl_target_type exec_type = {
    .name = "exec",
    .summary = "a program as the I/O: runs it for runtime, then SIGTERM and SIGKILL (fio's "
               "exec engine)",
    .args = "PROGRAM",
    .params = exec_params,
    .create = exec_create,
};
RL_TARGET_REGISTER(exec_type)
