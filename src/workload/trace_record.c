/*
 * trace_record.c - recording a real block device with the kernel's block
 * tracing (the events blktrace reads), through tracefs.
 *
 * Design: blktrace reads the kernel's block events from per-CPU relay files
 * under debugfs; where those cannot be opened (some virtual machines refuse
 * them even to root) the same events are available from tracefs's "blk"
 * tracer, which needs nothing but tracefs.  So raidlab records that way:
 * it mounts tracefs if it is not mounted, refuses when another tracer is in
 * use, selects the blk tracer, enables tracing of the one device (its
 * queue and completion events: the requests, and their completions for
 * the in-flight depth), and reads trace_pipe until the command it runs
 * exits, the duration ends or *stop is set.  Everything it changed is put
 * back, also after an error.  Lines are parsed with wl_trace_blk_line as
 * they arrive.
 *
 * Nothing is lost silently: the kernel's per-CPU buffers are enlarged for
 * the recording (REC_BUFFER_TOTAL_KB shared by the CPUs, at least
 * REC_BUFFER_MIN_KB each) so a reader that falls behind a busy device for
 * a while catches up, and the events the kernel still dropped are counted
 * twice over: the "[LOST N EVENTS]" lines trace_pipe prints and each CPU's
 * overrun and dropped counters.  Any loss fails the recording with the count.
 */
#include "core/exec.h"
#include "workload/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define REC_TRACEFS         "/sys/kernel/tracing"
#define REC_BUFFER_TOTAL_KB (512u << 10) /* all CPUs' buffers together while recording */
#define REC_BUFFER_MIN_KB   (16u << 10)  /* each CPU's, however many CPUs there are */

struct rec {
	char devdir[96];  /* /sys/dev/block/MAJ:MIN/trace */
	bool mounted;     /* tracefs was mounted here */
	bool tracer_set;  /* current_tracer is ours: put back nop */
	bool dev_enabled; /* the device's trace/enable is ours: put back 0 */
	char act_mask[128];
	char tracing_on[8];            /* its value before: put back */
	char buffer_kb[24];            /* buffer_size_kb before, if we changed it: put back */
	unsigned long long lost_lines; /* events trace_pipe said it lost */
	int pipe_fd;
	char part[4096]; /* an incomplete line read from the pipe */
	size_t plen;
	uint64_t t0;
	bool t0_set;
	unsigned long lineno;
	int error;
	char *msg;
	size_t msglen;
};

static int rec_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, value, strlen(value));
	int rc = n < 0 ? -errno : 0;
	close(fd);
	return rc;
}

static int rec_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int rc = n < 0 ? -errno : 0;
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

static int rec_fail(struct rec *r, int rc, const char *what)
{
	snprintf(r->msg, r->msglen, "%s: %s", what, strerror(-rc));
	return rc;
}

/* The device's trace directory in sysfs: whole block devices only. */
static int rec_device(struct rec *r, const char *dev)
{
	struct stat st;
	char path[160];

	if (stat(dev, &st))
		return rec_fail(r, -errno, dev);
	if (!S_ISBLK(st.st_mode)) {
		snprintf(r->msg, r->msglen,
		         "%s: not a block device (a trace records a device's requests)", dev);
		return -ENOTBLK;
	}
	snprintf(r->devdir, sizeof(r->devdir), "/sys/dev/block/%u:%u/trace", major(st.st_rdev),
	         minor(st.st_rdev));
	snprintf(path, sizeof(path), "%s/enable", r->devdir);
	if (access(path, W_OK)) {
		snprintf(r->msg, r->msglen,
		         "%s: the kernel offers no block tracing for it (%s: %s; a partition is "
		         "traced through its whole device)",
		         dev, path, strerror(errno));
		return -ENOTSUP;
	}
	return 0;
}

static int rec_tracefs(struct rec *r)
{
	char cur[64];
	if (access(REC_TRACEFS "/trace_pipe", R_OK)) {
		if (mount("nodev", REC_TRACEFS, "tracefs", 0, NULL))
			return rec_fail(r, -errno, "cannot mount tracefs on " REC_TRACEFS);
		r->mounted = true;
	}
	int rc = rec_read(REC_TRACEFS "/current_tracer", cur, sizeof(cur));
	if (rc)
		return rec_fail(r, rc, REC_TRACEFS "/current_tracer");
	if (strcmp(cur, "nop") != 0) {
		snprintf(r->msg, r->msglen,
		         "another tracer is in use (current_tracer is '%s'): not recording over it",
		         cur);
		return -EBUSY;
	}
	return 0;
}

/* Enlarge the kernel's per-CPU trace buffers for the recording. */
static int rec_buffers(struct rec *r)
{
	char cur[24], want[24];
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long kb = REC_BUFFER_TOTAL_KB / (unsigned long)(cpus > 0 ? cpus : 1);

	if (kb < REC_BUFFER_MIN_KB)
		kb = REC_BUFFER_MIN_KB;
	if (rec_read(REC_TRACEFS "/buffer_size_kb", cur, sizeof(cur)) ||
	    strtoul(cur, NULL, 10) >= kb)
		return 0; /* unreadable, or already large enough: leave it */
	snprintf(want, sizeof(want), "%lu", kb);
	int rc = rec_write(REC_TRACEFS "/buffer_size_kb", want);
	if (rc)
		return rec_fail(r, rc, REC_TRACEFS "/buffer_size_kb");
	/* an unexpanded buffer reads "7 (expanded: 1408)": the size to put back is 1408 */
	const char *exp = strstr(cur, "expanded: ");
	snprintf(r->buffer_kb, sizeof(r->buffer_kb), "%lu",
	         strtoul(exp ? exp + 10 : cur, NULL, 10));
	return 0;
}

/* The events each CPU's buffer lost since the recording began. */
static unsigned long long rec_lost_stats(void)
{
	unsigned long long lost = 0;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	for (long c = 0; c < cpus; c++) {
		char path[96], line[128];
		snprintf(path, sizeof(path), REC_TRACEFS "/per_cpu/cpu%ld/stats", c);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;
			if (sscanf(line, "overrun: %llu", &v) == 1 ||
			    sscanf(line, "dropped events: %llu", &v) == 1)
				lost += v;
		}
		fclose(f);
	}
	return lost;
}

/* Select the blk tracer for the device; *r records what to put back. */
static int rec_start(struct rec *r)
{
	char path[160];
	int rc;

	snprintf(path, sizeof(path), "%s/act_mask", r->devdir);
	rc = rec_read(path, r->act_mask, sizeof(r->act_mask));
	if (!rc)
		rc = rec_write(path, "queue,complete");
	if (rc)
		return rec_fail(r, rc, path);
	snprintf(path, sizeof(path), "%s/enable", r->devdir);
	rc = rec_write(path, "1");
	if (rc)
		return rec_fail(r, rc, path);
	r->dev_enabled = true;
	rc = rec_write(REC_TRACEFS "/current_tracer", "blk");
	if (rc)
		return rec_fail(r, rc, REC_TRACEFS "/current_tracer: blk");
	r->tracer_set = true;
	rc = rec_buffers(r);
	if (rc)
		return rc;
	(void)rec_write(REC_TRACEFS "/trace", "");
	if (rec_read(REC_TRACEFS "/tracing_on", r->tracing_on, sizeof(r->tracing_on)))
		r->tracing_on[0] = '\0';
	rc = rec_write(REC_TRACEFS "/tracing_on", "1");
	if (rc)
		return rec_fail(r, rc, REC_TRACEFS "/tracing_on");
	r->pipe_fd = open(REC_TRACEFS "/trace_pipe", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->pipe_fd < 0)
		return rec_fail(r, -errno, REC_TRACEFS "/trace_pipe");
	return 0;
}

static void rec_end(struct rec *r)
{
	char path[160];

	if (r->pipe_fd >= 0)
		close(r->pipe_fd);
	if (r->tracer_set)
		(void)rec_write(REC_TRACEFS "/current_tracer", "nop");
	if (r->tracing_on[0])
		(void)rec_write(REC_TRACEFS "/tracing_on", r->tracing_on);
	if (r->dev_enabled) {
		snprintf(path, sizeof(path), "%s/enable", r->devdir);
		(void)rec_write(path, "0");
	}
	if (r->buffer_kb[0])
		(void)rec_write(REC_TRACEFS "/buffer_size_kb", r->buffer_kb);
	if (r->act_mask[0]) {
		snprintf(path, sizeof(path), "%s/act_mask", r->devdir);
		(void)rec_write(path, r->act_mask);
	}
	if (r->mounted)
		(void)umount(REC_TRACEFS);
}

static void rec_line(struct rec *r, struct wl_trace *tr, const char *line)
{
	struct wl_trace_io io;
	char where[48];

	unsigned long long lost;
	const char *mark = strstr(line, "[LOST ");

	snprintf(where, sizeof(where), "trace_pipe line %lu", ++r->lineno);
	if (mark && sscanf(mark, "[LOST %llu EVENTS]", &lost) == 1) {
		r->lost_lines += lost;
		return;
	}
	int rc = wl_trace_blk_line(line, WL_TRACE_TRACEFS, where, &io, r->msg, r->msglen);
	if (rc <= 0) {
		if (rc && !r->error)
			r->error = rc;
		return;
	}
	wl_trace_depth_event(tr, (enum wl_trace_event)rc);
	if (rc != WL_TRACE_EV_QUEUE)
		return;
	if (!r->t0_set) {
		r->t0 = io.t_ns;
		r->t0_set = true;
	}
	rc = wl_trace_add(tr, io.t_ns > r->t0 ? io.t_ns - r->t0 : 0, (enum rl_op)io.op, io.off,
	                  io.len);
	if (rc && !r->error) {
		r->error = rc;
		snprintf(r->msg, r->msglen, "the trace is full (%u requests)", WL_TRACE_MAX_IOS);
	}
}

/* Read what the pipe holds now; false at its end or on an error. */
static bool rec_drain(struct rec *r, struct wl_trace *tr)
{
	for (;;) {
		ssize_t n = read(r->pipe_fd, r->part + r->plen, sizeof(r->part) - 1 - r->plen);
		if (n <= 0)
			return n < 0 && (errno == EAGAIN || errno == EINTR);
		r->plen += (size_t)n;
		r->part[r->plen] = '\0';
		char *start = r->part, *nl;
		while ((nl = strchr(start, '\n'))) {
			*nl = '\0';
			rec_line(r, tr, start);
			start = nl + 1;
		}
		r->plen -= (size_t)(start - r->part);
		memmove(r->part, start, r->plen);
		if (r->plen == sizeof(r->part) - 1)
			r->plen = 0; /* no line is this long: drop it */
	}
}

/* Run @argv (if any) and read the pipe until it exits, @duration_ns passes or *stop. */
static int rec_loop(struct rec *r, struct wl_trace *tr, char *const *argv, uint64_t duration_ns,
                    volatile sig_atomic_t *stop, int *status)
{
	pid_t pid = -1;
	uint64_t end = duration_ns ? rl_exec_wall_now() + duration_ns : UINT64_MAX;

	if (argv && argv[0]) {
		pid = fork();
		if (pid < 0)
			return rec_fail(r, -errno, "fork");
		if (pid == 0) {
			execvp(argv[0], argv);
			fprintf(stderr, "raidlab trace record: %s: %s\n", argv[0], strerror(errno));
			_exit(127);
		}
	}
	while (!*stop && rl_exec_wall_now() < end) {
		struct pollfd p = {.fd = r->pipe_fd, .events = POLLIN};
		(void)poll(&p, 1, 100);
		rec_drain(r, tr);
		if (pid > 0 && waitpid(pid, status, WNOHANG) == pid) {
			pid = -1;
			break;
		}
	}
	if (pid > 0) { /* stopped first: the command is ours to end */
		kill(pid, SIGTERM);
		waitpid(pid, status, 0);
	}
	/* the last events: stop the tracer, then read what it still holds */
	(void)rec_write(REC_TRACEFS "/tracing_on", "0");
	rec_drain(r, tr);
	unsigned long long lost = rec_lost_stats();
	if (r->lost_lines > lost)
		lost = r->lost_lines;
	if (lost && !r->error) {
		snprintf(r->msg, r->msglen,
		         "the kernel lost %llu block events (its trace buffer overflowed before "
		         "they were read; %zu requests were recorded): the trace is incomplete",
		         lost, tr->n);
		return -EOVERFLOW;
	}
	return 0;
}

int wl_trace_record_blk(const char *dev, char *const *argv, uint64_t duration_ns,
                        volatile sig_atomic_t *stop, struct wl_trace *tr, int *status, char *msg,
                        size_t msglen)
{
	struct rec r = {.pipe_fd = -1, .msg = msg, .msglen = msglen};
	int rc;

	wl_trace_init(tr);
	*status = 0;
	rc = rec_device(&r, dev);
	if (!rc)
		rc = rec_tracefs(&r);
	if (!rc)
		rc = rec_start(&r);
	if (!rc)
		rc = rec_loop(&r, tr, argv, duration_ns, stop, status);
	rec_end(&r);
	if (!rc && r.error)
		rc = r.error;
	snprintf(tr->format, sizeof(tr->format), "blk tracer");
	return rc;
}
