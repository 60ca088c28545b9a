/*
 * jobs.c - children of `raidlab ui` and their event streams (jobs.h).
 *
 * One thread per job: it polls the child's two pipes and the page's socket.
 * A line read from a pipe goes out at once as one event; the socket is only
 * watched for the page hanging up (nothing more is read from it).  The
 * process groups of running children are kept in a small table so the
 * server can stop them all when it is stopped itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ui/http.h"
#include "ui/jobs.h"

#define JOBS_MAX        64
#define JOBS_LINE       65536
#define JOBS_RESULT_MAX (16u << 20)

static pthread_mutex_t jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t jobs_pids[JOBS_MAX];

int ui_job_arg(struct ui_job *j, const char *s)
{
	size_t n = strlen(s) + 1;

	if (j->argc >= UI_JOB_MAX_ARGS || j->used + n > sizeof(j->strings))
		return -E2BIG;
	memcpy(j->strings + j->used, s, n);
	j->argv[j->argc++] = j->strings + j->used;
	j->argv[j->argc] = NULL;
	j->used += n;
	return 0;
}

int ui_job_opt(struct ui_job *j, const char *name, const char *val)
{
	char buf[4200];

	if ((size_t)snprintf(buf, sizeof(buf), "--%s=%s", name, val) >= sizeof(buf))
		return -E2BIG;
	return ui_job_arg(j, buf);
}

/* Quote @s for a POSIX shell when it holds anything but safe characters. */
static size_t jobs_quote(const char *s, char *out, size_t outlen)
{
	size_t o = 0;
	bool plain = *s != '\0';

	for (const char *c = s; *c; c++)
		if (!strchr(
		        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%",
		        *c))
			plain = false;
	if (plain)
		return (size_t)snprintf(out, outlen, "%s", s);
	if (o + 1 < outlen)
		out[o++] = '\'';
	for (const char *c = s; *c && o + 5 < outlen; c++) {
		if (*c == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = *c;
		}
	}
	if (o + 1 < outlen)
		out[o++] = '\'';
	out[o < outlen ? o : outlen - 1] = '\0';
	return o;
}

void ui_job_cmdline(const struct ui_job *j, char *out, size_t outlen)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < j->argc && o + 1 < outlen; i++) {
		if (i)
			out[o++] = ' ';
		o += jobs_quote(j->argv[i], out + o, outlen - o);
		if (o >= outlen)
			o = outlen - 1;
	}
	out[o] = '\0';
}

/* --- the event stream --- */

/* One event: "event: NAME" and a "data:" line per line of @data. */
static int jobs_event(int sock, const char *name, const char *data, size_t n)
{
	char head[64];
	int rc = ui_send_all(sock, head, (size_t)snprintf(head, sizeof(head), "event: %s\n", name));
	size_t i = 0;

	do {
		size_t k = i;
		while (k < n && data[k] != '\n' && data[k] != '\r')
			k++;
		if (!rc)
			rc = ui_send_all(sock, "data: ", 6);
		if (!rc)
			rc = ui_send_all(sock, data + i, k - i);
		if (!rc)
			rc = ui_send_all(sock, "\n", 1);
		i = k + 1;
	} while (i < n);
	return rc ? rc : ui_send_all(sock, "\n", 1);
}

struct jobs_pipe {
	int fd;
	const char *event;
	char buf[JOBS_LINE];
	size_t n;
};

/* Read what the pipe has; send its whole lines (or a full buffer). -EPIPE: the page is gone. */
static int jobs_drain(int sock, struct jobs_pipe *p)
{
	ssize_t r = read(p->fd, p->buf + p->n, sizeof(p->buf) - p->n);

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) { /* end: what is left is the last line */
		int rc = p->n ? jobs_event(sock, p->event, p->buf, p->n) : 0;
		close(p->fd);
		p->fd = -1;
		p->n = 0;
		return rc;
	}
	p->n += (size_t)r;
	size_t start = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->buf[i] != '\n')
			continue;
		size_t len = i - start - (i > start && p->buf[i - 1] == '\r');
		if (jobs_event(sock, p->event, p->buf + start, len))
			return -EPIPE;
		start = i + 1;
	}
	if (!start && p->n == sizeof(p->buf)) { /* a line longer than the buffer */
		if (jobs_event(sock, p->event, p->buf, p->n))
			return -EPIPE;
		start = p->n;
	}
	memmove(p->buf, p->buf + start, p->n - start);
	p->n -= start;
	return 0;
}

static void jobs_table(pid_t pid, bool add)
{
	pthread_mutex_lock(&jobs_lock);
	for (size_t i = 0; i < JOBS_MAX; i++) {
		if (add && !jobs_pids[i]) {
			jobs_pids[i] = pid;
			break;
		}
		if (!add && jobs_pids[i] == pid) {
			jobs_pids[i] = 0;
			break;
		}
	}
	pthread_mutex_unlock(&jobs_lock);
}

/*
 * Wait for @pid to end without reaping it (its group id stays reserved while
 * it is a zombie), kill whatever is left in its group, then reap it.  With
 * @stop, the group first gets SIGINT and SIGKILL after the grace time.
 * The wait status.
 */
static int jobs_reap(pid_t pid, bool stop)
{
	siginfo_t si;
	int st = 0;

	if (stop) {
		kill(-pid, SIGINT);
		for (int waited = 0;; waited += 10) {
			si.si_pid = 0;
			if (!waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
			    si.si_pid)
				break;
			if (waited >= UI_JOB_GRACE_MS) {
				kill(-pid, SIGKILL);
				break;
			}
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL); /* anything the child left in its group */
	jobs_table(pid, false);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static void jobs_send_result(int sock, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;

	if (fd < 0)
		return;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && (size_t)sb.st_size < JOBS_RESULT_MAX) {
		char *b = malloc((size_t)sb.st_size + 1);
		size_t n = 0;
		ssize_t r;
		while (b && n < (size_t)sb.st_size &&
		       (r = read(fd, b + n, (size_t)sb.st_size - n)) > 0)
			n += (size_t)r;
		if (b)
			jobs_event(sock, "result", b, n);
		free(b);
	}
	close(fd);
}

static int jobs_spawn(const struct ui_job *j, int out[2], int err[2], pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int rc;

	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
	                                  POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	rc = posix_spawn(pid, "/proc/self/exe", &fa, &at, (char *const *)j->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return -rc;
}

int ui_job_stream(int sock, const struct ui_job *j)
{
	static const char head[] = "HTTP/1.1 200 OK\r\n"
	                           "Content-Type: text/event-stream; charset=utf-8\r\n"
	                           "Cache-Control: no-store\r\n"
	                           "X-Content-Type-Options: nosniff\r\n"
	                           "Connection: close\r\n\r\n";
	struct jobs_pipe *p = calloc(2, sizeof(*p));
	int out[2] = {-1, -1}, err[2] = {-1, -1}, rc = 0, st;
	char cmd[8192];
	pid_t pid = 0;

	if (!p)
		return -ENOMEM;
	ui_job_cmdline(j, cmd, sizeof(cmd));
	if (ui_send_all(sock, head, sizeof(head) - 1) || jobs_event(sock, "cmd", cmd, strlen(cmd)))
		goto out;
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		rc = -errno;
	if (!rc)
		rc = jobs_spawn(j, out, err, &pid);
	if (rc) {
		char m[128];
		snprintf(m, sizeof(m), "raidlab ui: cannot start the command: %s", strerror(-rc));
		jobs_event(sock, "err", m, strlen(m));
		jobs_event(sock, "exit", "1", 1);
		goto out;
	}
	jobs_table(pid, true);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	p[0].fd = out[0];
	p[0].event = "out";
	p[1].fd = err[0];
	p[1].event = "err";
	out[0] = err[0] = -1;
	bool gone = false;
	while (!gone && (p[0].fd >= 0 || p[1].fd >= 0)) {
		struct pollfd pf[3] = {
		    {p[0].fd, POLLIN, 0}, {p[1].fd, POLLIN, 0}, {sock, POLLIN | POLLRDHUP, 0}};
		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[2].revents) {
			char junk[256];
			if (recv(sock, junk, sizeof(junk), MSG_DONTWAIT) <= 0 ||
			    (pf[2].revents & (POLLRDHUP | POLLHUP | POLLERR)))
				gone = true;
		}
		for (int k = 0; k < 2 && !gone; k++)
			if (pf[k].revents && jobs_drain(sock, &p[k]))
				gone = true;
	}
	st = jobs_reap(pid, gone);
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (!gone && !code && j->result_file)
		jobs_send_result(sock, j->result_file);
	else if (j->result_file) /* a stopped or failed run's partial result is not kept */
		unlink(j->result_file);
	if (!gone) {
		char c[16];
		jobs_event(sock, "exit", c, (size_t)snprintf(c, sizeof(c), "%d", code));
	}
out:
	for (int k = 0; k < 2; k++) {
		if (p[k].fd >= 0)
			close(p[k].fd);
		if (out[k] >= 0)
			close(out[k]);
		if (err[k] >= 0)
			close(err[k]);
	}
	free(p);
	return rc;
}

void ui_jobs_signal_all(int sig)
{
	pthread_mutex_lock(&jobs_lock);
	for (size_t i = 0; i < JOBS_MAX; i++)
		if (jobs_pids[i])
			kill(-jobs_pids[i], sig);
	pthread_mutex_unlock(&jobs_lock);
}
