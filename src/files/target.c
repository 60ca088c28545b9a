/*
 * target.c - dir(PATH) and raidlab stacks as places for file suites
 * (target.h).
 *
 * The stack is assembled from real programs, each a child in its own
 * process group: `raidlab serve` (this binary, /proc/self/exe) on a socket
 * in a private runtime directory, nbdfuse exposing the export as a file,
 * losetup attaching it, mkfs formatting it; mount(2) and the loop detach
 * (LOOP_CLR_FD) are done here.  Every step records what it set up, and
 * close walks the records backwards, so it undoes exactly what exists.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files/files.h"
#include "files/leftovers.h"
#include "files/stop.h"
#include "files/target.h"

#define FT_WAIT_MS 15000 /* longest wait for a child to come up or go away */

static bool ft_stopped(const struct files_target_opts *o)
{
	return o->stop && *o->stop;
}

/* A second signal: the teardown hurries. */
static bool ft_hurry(const struct files_target *t)
{
	return t->stop && *t->stop >= 2;
}

void files_target_phase(struct files_target *t, const char *phase)
{
	if (t->stop && *t->stop)
		return; /* the phase the signal came in is the one to report */
	snprintf(t->phase, sizeof(t->phase), "%s", phase);
	if (t->rundir[0] && !t->is_dir)
		files_leftovers_phase(t->rundir, phase);
}

/* @src with every character an extended regex gives a meaning escaped (pkill's pattern). */
static void ft_ere_escape(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	for (; *src && n + 2 < size; src++) {
		if (strchr(".[]()*+?{}|^$\\", *src))
			dst[n++] = '\\';
		dst[n++] = *src;
	}
	dst[n] = 0;
}

/* The commands that remove what exists now, for a third signal (files/stop.h). */
static void ft_note(const struct files_target *t)
{
	char text[4096], re[2 * sizeof(t->rundir)];
	size_t n = 0;

#define FT_ADD(...)                                                                                \
	do {                                                                                       \
		if (n < sizeof(text))                                                              \
			n += (size_t)snprintf(text + n, sizeof(text) - n, __VA_ARGS__);            \
	} while (0)
	text[0] = 0;
	if (t->is_dir || !t->rundir[0]) {
		if (t->work[0] && !t->keep)
			FT_ADD("what is left can be removed with:\n  rm -rf '%.3000s'\n", t->work);
		files_stop_leftovers(text);
		return;
	}
	/*
	 * Each command acts only on what is still there, and only on what is
	 * ours: the teardown may have done a step after this text was written
	 * (the third signal can come between an unmount and the note that
	 * records it), and a loop device or a process number freed since may
	 * belong to someone else by the time the commands are run.
	 */
	FT_ADD("what is left can be removed with:\n");
	if (t->mounted)
		FT_ADD("  mountpoint -q '%s' && umount -l '%s'\n", t->path, t->path);
	if (t->loop[0])
		FT_ADD("  grep -qsF '%s/' /sys/block/%s/loop/backing_file && losetup -d %s\n",
		       t->rundir, t->loop + 5, t->loop);
	if (t->fuse_up)
		FT_ADD("  mountpoint -q '%s/fuse' && fusermount3 -u -z '%s/fuse'\n", t->rundir,
		       t->rundir);
	if (t->fuse_pid > 0 || t->serve_pid > 0) {
		ft_ere_escape(re, sizeof(re), t->rundir);
		FT_ADD("  pkill -9 -f -- '%s/' || true\n", re);
	}
	FT_ADD("  rm -rf '%s'\n(or run: raidlab cleanup)\n", t->rundir);
#undef FT_ADD
	files_stop_leftovers(text);
}

static bool ft_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
		if (!access(buf, X_OK))
			return true;
		path = end ? end + 1 : NULL;
	}
	return false;
}

/* Start @argv in its own process group, output to @log; the pid, or -errno. */
static pid_t ft_start(char *const argv[], const char *log, const char *exe)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		setpgid(0, 0);
		files_stop_child_init();
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		if (exe)
			execv(exe, argv);
		else
			execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", exe ? exe : argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Wait up to @ms (a second signal: no longer) for @pid to exit; its status, or -ETIMEDOUT. */
static int ft_wait(const struct files_target *t, pid_t pid, int ms)
{
	int status;

	for (int waited = 0;; waited += 10) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			return status;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (waited >= ms || ft_hurry(t))
			return -ETIMEDOUT;
		usleep(10000);
	}
}

/* Run @argv to completion (output to @log, or captured into @out); 0 or -EIO. */
static int ft_run(struct files_target *t, char *const argv[], const char *log, char *out,
                  size_t outlen)
{
	int status, rc;
	pid_t pid = ft_start(argv, log, NULL);

	if (pid < 0) {
		snprintf(t->msg, sizeof(t->msg), "cannot start %s: %s", argv[0],
		         strerror((int)-pid));
		return (int)pid;
	}
	rc = files_stop_wait_child(pid, &status); /* Ctrl-C signals it: mkfs stops at once */
	/* one that finished anyway counts: losetup's device must be recorded to be detached */
	if (rc == -EINTR && WIFEXITED(status) && !WEXITSTATUS(status))
		rc = 0;
	if (rc) {
		snprintf(t->msg, sizeof(t->msg), "%s: %s", argv[0],
		         rc == -EINTR ? "interrupted" : strerror(-rc));
		return rc;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char first[256] = ""; /* mkfs and losetup say what is wrong first */
		FILE *f = fopen(log, "re");
		while (f && fgets(first, sizeof(first), f) && first[0] == '\n')
			;
		if (f)
			fclose(f);
		first[strcspn(first, "\n")] = 0;
		snprintf(t->msg, sizeof(t->msg), "%s failed: %s", argv[0],
		         *first ? first : "no message");
		return -EIO;
	}
	if (out) {
		FILE *f = fopen(log, "re");
		out[0] = 0;
		if (f && fgets(out, (int)outlen, f))
			out[strcspn(out, "\n")] = 0;
		if (f)
			fclose(f);
	}
	return 0;
}

/* Wait until @path exists (non-empty when @nonempty) while @pid lives. */
static int ft_wait_for(struct files_target *t, const struct files_target_opts *o, const char *path,
                       bool nonempty, pid_t pid, const char *what, const char *log)
{
	struct stat st;
	int status;

	for (int waited = 0; waited < FT_WAIT_MS; waited += 10) {
		if (!stat(path, &st) && (!nonempty || st.st_size > 0))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			char last[256] = "";
			FILE *f = fopen(log, "re");
			while (f && fgets(last, sizeof(last), f))
				;
			if (f)
				fclose(f);
			last[strcspn(last, "\n")] = 0;
			snprintf(t->msg, sizeof(t->msg), "%s exited: %s", what,
			         *last ? last : "no message");
			return -EIO;
		}
		if (ft_stopped(o)) {
			snprintf(t->msg, sizeof(t->msg), "interrupted");
			return -EINTR;
		}
		usleep(10000);
	}
	snprintf(t->msg, sizeof(t->msg), "%s did not come up within %d s", what, FT_WAIT_MS / 1000);
	return -ETIMEDOUT;
}

/* Free space of the filesystem holding @path against @need. */
static int ft_space(struct files_target *t, const char *path, uint64_t need)
{
	struct statvfs sv;

	if (statvfs(path, &sv)) {
		snprintf(t->msg, sizeof(t->msg), "cannot stat %.300s: %s", path, strerror(errno));
		return -errno;
	}
	uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail < need) {
		snprintf(t->msg, sizeof(t->msg),
		         "%.300s has %llu MB free, the suite needs %llu MB at this --scale", path,
		         (unsigned long long)(avail / 1000000),
		         (unsigned long long)(need / 1000000));
		return -ENOSPC;
	}
	return 0;
}

/* Empty, or holding .raidlab-scratch. */
static bool ft_is_scratch(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true, marker = false;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = false;
		if (!strcmp(e->d_name, ".raidlab-scratch"))
			marker = true;
	}
	closedir(d);
	return empty || marker;
}

static int ft_make_work(struct files_target *t)
{
	snprintf(t->work, sizeof(t->work), "%s/raidlab-files.XXXXXX", t->path);
	if (!mkdtemp(t->work)) {
		int rc = -errno;
		snprintf(t->msg, sizeof(t->msg), "cannot create a work directory in %.300s: %s",
		         t->path, strerror(-rc));
		t->work[0] = 0;
		return rc;
	}
	return 0;
}

static int ft_open_dir(struct files_target *t, const char *spec, const struct files_target_opts *o)
{
	size_t len = strlen(spec);
	struct stat st;
	int rc;

	if (len < 6 || spec[len - 1] != ')' || len - 5 >= sizeof(t->path)) {
		snprintf(t->msg, sizeof(t->msg), "expected dir(PATH), got '%.300s'", spec);
		return -EINVAL;
	}
	memcpy(t->path, spec + 4, len - 5);
	t->path[len - 5] = 0;
	if (stat(t->path, &st)) {
		rc = -errno;
		snprintf(t->msg, sizeof(t->msg), "dir(%.300s): %s", t->path, strerror(-rc));
		return rc;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(t->msg, sizeof(t->msg), "dir(%.300s): not a directory", t->path);
		return -ENOTDIR;
	}
	if (!o->force_destroy && !ft_is_scratch(t->path)) {
		snprintf(t->msg, sizeof(t->msg),
		         "dir(%.300s) holds files and no .raidlab-scratch marker: raidlab cannot "
		         "tell it is scratch (empty it, create .raidlab-scratch in it, or pass "
		         "--force-destroy; raidlab only ever writes inside its own subdirectory)",
		         t->path);
		return -EEXIST;
	}
	if ((rc = ft_space(t, t->path, o->need)))
		return rc;
	return ft_make_work(t);
}

static int ft_need_prog(struct files_target *t, const char *prog, const char *pkg)
{
	if (ft_in_path(prog))
		return 0;
	snprintf(t->msg, sizeof(t->msg),
	         "%s is not installed (Debian package %s); it is needed to mount a raidlab stack",
	         prog, pkg);
	return -ENOENT;
}

/* What a stack needs of the machine: root, FUSE, loop devices and the programs. */
static int ft_stack_check(struct files_target *t, const char *mkfs)
{
	int rc;

	if (geteuid() != 0) {
		snprintf(t->msg, sizeof(t->msg),
		         "running a file suite on a raidlab stack needs root (loop devices, mkfs "
		         "and mount); run as root, or use dir(PATH) on a mounted filesystem");
		return -EPERM;
	}
	if (access("/dev/fuse", R_OK | W_OK)) {
		snprintf(t->msg, sizeof(t->msg),
		         "no usable /dev/fuse (FUSE): nbdfuse cannot expose the stack (modprobe "
		         "fuse, or in a container pass --device /dev/fuse)");
		return -ENOENT;
	}
	if (access("/dev/loop-control", R_OK | W_OK)) {
		snprintf(t->msg, sizeof(t->msg),
		         "no /dev/loop-control: loop devices are not available (modprobe loop, or "
		         "in a container run privileged)");
		return -ENOENT;
	}
	if ((rc = ft_need_prog(t, "nbdfuse", "nbdfuse")) ||
	    (rc = ft_need_prog(t, "fusermount3", "fuse3")) ||
	    (rc = ft_need_prog(t, "losetup", "mount")) ||
	    (rc = ft_need_prog(t, mkfs, strcmp(t->fs, "xfs") ? "e2fsprogs" : "xfsprogs")))
		return rc;
	return 0;
}

/* The runtime directory (t->rundir) with its FUSE directory and mount point (t->path). */
static int ft_stack_rundir(struct files_target *t)
{
	const char *tmp = getenv("TMPDIR");
	char fuse[4200];
	int rc;

	snprintf(t->rundir, sizeof(t->rundir), "%s/raidlab-fs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->rundir)) {
		rc = -errno;
		snprintf(t->msg, sizeof(t->msg), "cannot create a runtime directory: %s",
		         strerror(-rc));
		t->rundir[0] = 0;
		return rc;
	}
	if ((rc = files_leftovers_own(t->rundir))) {
		snprintf(t->msg, sizeof(t->msg), "cannot write in %.300s: %s", t->rundir,
		         strerror(-rc));
		return rc;
	}
	snprintf(fuse, sizeof(fuse), "%s/fuse", t->rundir);
	snprintf(t->path, sizeof(t->path), "%s/mnt", t->rundir);
	if (mkdir(fuse, 0700) || mkdir(t->path, 0700)) {
		rc = -errno;
		snprintf(t->msg, sizeof(t->msg), "cannot create %.300s: %s", t->rundir,
		         strerror(-rc));
		return rc;
	}
	return 0;
}

/* 1. raidlab serve (this binary) exports @spec on the runtime directory's socket. */
static int ft_stack_serve(struct files_target *t, const char *spec,
                          const struct files_target_opts *o)
{
	char sock[4200], ready[4200], log[4200], slow[32], pace[2100];
	int rc;

	snprintf(sock, sizeof(sock), "%s/nbd.sock", t->rundir);
	snprintf(ready, sizeof(ready), "%s/ready", t->rundir);
	files_target_phase(t, "serve");
	snprintf(log, sizeof(log), "%s/serve.log", t->rundir);
	char *sargv[14] = {"raidlab", "serve",       (char *)spec,   "--socket",
	                   sock,      "--no-status", "--ready-file", ready};
	int sargc = 8;
	if (o->slow)
		snprintf(slow, sizeof(slow), "--slow=%u", o->slow);
	else
		snprintf(slow, sizeof(slow), "--slow=auto");
	sargv[sargc++] = slow;
	snprintf(pace, sizeof(pace), "--pace-file=%s/pace", t->rundir);
	sargv[sargc++] = pace;
	if (o->force_destroy)
		sargv[sargc++] = "--force-destroy";
	sargv[sargc] = NULL;
	pid_t pid = ft_start(sargv, log, "/proc/self/exe");
	if (pid < 0) {
		snprintf(t->msg, sizeof(t->msg), "cannot start raidlab serve: %s",
		         strerror((int)-pid));
		return (int)pid;
	}
	t->serve_pid = pid;
	ft_note(t);
	if ((rc = ft_wait_for(t, o, ready, true, pid, "raidlab serve", log))) {
		if (rc == -EIO)
			t->serve_pid = 0; /* already reaped */
		return rc;
	}
	files_stop_serve(pid); /* up, SIGUSR1 handled: Ctrl-C ends its pacing */
	return 0;
}

/* 2. nbdfuse shows the export as the file fuse/nbd. */
static int ft_stack_fuse(struct files_target *t, const struct files_target_opts *o)
{
	char sock[4200], fuse[4200], file[4300], log[4200], uri[4300];
	int rc;

	snprintf(sock, sizeof(sock), "%s/nbd.sock", t->rundir);
	snprintf(fuse, sizeof(fuse), "%s/fuse", t->rundir);
	snprintf(file, sizeof(file), "%s/fuse/nbd", t->rundir);
	files_target_phase(t, "nbdfuse");
	snprintf(log, sizeof(log), "%s/nbdfuse.log", t->rundir);
	snprintf(uri, sizeof(uri), "nbd+unix:///?socket=%s", sock);
	char *fargv[] = {"nbdfuse", fuse, uri, NULL};
	pid_t pid = ft_start(fargv, log, NULL);
	if (pid < 0) {
		snprintf(t->msg, sizeof(t->msg), "cannot start nbdfuse: %s", strerror((int)-pid));
		return (int)pid;
	}
	t->fuse_pid = pid;
	if ((rc = ft_wait_for(t, o, file, false, pid, "nbdfuse", log))) {
		if (rc == -EIO)
			t->fuse_pid = 0;
		return rc;
	}
	t->fuse_up = true;
	ft_note(t);
	return 0;
}

/* 3. a loop device (t->loop) over that file. */
static int ft_stack_loop(struct files_target *t, const struct files_target_opts *o)
{
	char file[4300], log[4200];
	int rc;

	snprintf(file, sizeof(file), "%s/fuse/nbd", t->rundir);
	files_target_phase(t, "losetup");
	snprintf(log, sizeof(log), "%s/losetup.log", t->rundir);
	char *largv[] = {"losetup", "-f", "--show", "--direct-io=on", file, NULL};
	if ((rc = ft_run(t, largv, log, t->loop, sizeof(t->loop))))
		return rc;
	if (strncmp(t->loop, "/dev/loop", 9)) {
		snprintf(t->msg, sizeof(t->msg), "losetup printed '%s', not a loop device",
		         t->loop);
		t->loop[0] = 0;
		return -EIO;
	}
	ft_note(t);
	if (ft_stopped(o))
		return -EINTR;
	return 0;
}

/* 4. mkfs (@mkfs: mkfs.FS) on the loop device, with the suite's mkfs options. */
static int ft_stack_mkfs(struct files_target *t, const struct files_target_opts *o, char *mkfs)
{
	char *margv[64];
	char opts[1024] = "", log[4200];
	int n = 0, rc;

	margv[n++] = mkfs;
	margv[n++] = "-q";
	margv[n++] = strcmp(t->fs, "xfs") ? "-F" : "-f";
	if (o->mkfs_options) {
		snprintf(opts, sizeof(opts), "%s", o->mkfs_options);
		for (char *save = NULL, *w = strtok_r(opts, " \t", &save); w && n < 60;
		     w = strtok_r(NULL, " \t", &save))
			margv[n++] = w;
	}
	margv[n++] = t->loop;
	margv[n] = NULL;
	snprintf(log, sizeof(log), "%s/mkfs.log", t->rundir);
	files_target_phase(t, "mkfs");
	if ((rc = ft_run(t, margv, log, NULL, 0)))
		return rc;
	if (ft_stopped(o))
		return -EINTR;
	return 0;
}

/* 5. mount it on t->path. */
static int ft_stack_mount(struct files_target *t, const struct files_target_opts *o)
{
	int rc;

	files_target_phase(t, "mount");
	if (mount(t->loop, t->path, t->fs, 0, NULL)) {
		rc = -errno;
		snprintf(t->msg, sizeof(t->msg), "cannot mount %s (%s) on %.300s: %s", t->loop,
		         t->fs, t->path, strerror(-rc));
		return rc;
	}
	t->mounted = true;
	ft_note(t);
	if (ft_stopped(o))
		return -EINTR;
	return 0;
}

/*
 * A stack as a directory: serve -> nbdfuse -> loop -> mkfs -> mount, each
 * step noted (ft_note) as it comes up so teardown and leftovers undo
 * exactly what exists.
 */
static int ft_open_stack(struct files_target *t, const char *spec,
                         const struct files_target_opts *o)
{
	char mkfs[32];
	int rc;

	snprintf(mkfs, sizeof(mkfs), "mkfs.%s", t->fs);
	if ((rc = ft_stack_check(t, mkfs)) || (rc = ft_stack_rundir(t)) ||
	    (rc = ft_stack_serve(t, spec, o)) || (rc = ft_stack_fuse(t, o)) ||
	    (rc = ft_stack_loop(t, o)) || (rc = ft_stack_mkfs(t, o, mkfs)) ||
	    (rc = ft_stack_mount(t, o)))
		return rc;
	if ((rc = ft_space(t, t->path, o->need)))
		return rc;
	return ft_make_work(t);
}

int files_target_open(struct files_target *t, const char *spec, const struct files_target_opts *o)
{
	memset(t, 0, sizeof(*t));
	t->keep = o->keep;
	t->stop = o->stop;
	snprintf(t->fs, sizeof(t->fs), "%s", o->fs ? o->fs : "ext4");
	if (strcmp(t->fs, "ext4") && strcmp(t->fs, "xfs")) {
		snprintf(t->msg, sizeof(t->msg), "--fs: expected ext4 or xfs, got '%s'", o->fs);
		return -EINVAL;
	}
	if (!strncmp(spec, "dir(", 4)) {
		t->is_dir = true;
		return ft_open_dir(t, spec, o);
	}
	return ft_open_stack(t, spec, o);
}

/* Stop @pid: @sig, wait (not after a second signal), then SIGKILL. */
static void ft_stop_child(const struct files_target *t, pid_t pid, int sig)
{
	kill(pid, ft_hurry(t) ? SIGKILL : sig);
	if (ft_wait(t, pid, FT_WAIT_MS) == -ETIMEDOUT) {
		kill(pid, SIGKILL);
		ft_wait(t, pid, FT_WAIT_MS);
	}
}

/* serve's closing "emulation lag: ..." line (simulated stacks) into t->emulation. */
static void ft_read_lag(struct files_target *t)
{
	char path[2100], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/serve.log", t->rundir);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "emulation lag:");
		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		snprintf(t->emulation, sizeof(t->emulation), "%s", p);
		t->fell_behind = strstr(p, "fell behind") != NULL;
	}
	fclose(f);
}

int files_target_pace(const struct files_target *t, unsigned *slow, unsigned *raises,
                      bool *governed)
{
	char path[2100];
	FILE *f;
	int n, a = 0;

	*slow = 1;
	*raises = 0;
	if (governed)
		*governed = false;
	if (t->is_dir || !t->rundir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/pace", t->rundir);
	if (!(f = fopen(path, "re")))
		return -errno;
	n = fscanf(f, "slow %u raises %u auto %d", slow, raises, &a);
	fclose(f);
	if (governed)
		*governed = a == 1;
	return n == 3 && *slow >= 1 ? 0 : -EINVAL;
}

/* fusermount3 -u [-z] DIR/fuse; 0 when it worked. */
static int ft_fuse_unmount(const struct files_target *t, bool lazy)
{
	char fuse[4200], *argv[] = {"fusermount3", "-u", lazy ? "-z" : NULL, NULL, NULL};
	int st;

	snprintf(fuse, sizeof(fuse), "%s/fuse", t->rundir);
	argv[lazy ? 3 : 2] = fuse;
	pid_t p = ft_start(argv, "/dev/null", NULL);
	if (p <= 0)
		return -ECHILD;
	while (waitpid(p, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EBUSY;
}

static void ft_close_mount(struct files_target *t, bool stopped)
{
	if (!stopped)
		sync();
	/* busy (a child still exiting): retry for 5 s, unless told to hurry */
	for (int i = 0; i < 50 && !ft_hurry(t) && umount2(t->path, 0) && errno == EBUSY; i++)
		usleep(100000);
	umount2(t->path, MNT_DETACH); /* no-op (EINVAL) once unmounted */
	t->mounted = false;
	ft_note(t);
}

static void ft_close_loop(struct files_target *t)
{
	int fd = open(t->loop, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		/* still open elsewhere: the kernel detaches it at the last close */
		for (int i = 0;
		     i < 50 && !ft_hurry(t) && ioctl(fd, LOOP_CLR_FD, 0) && errno == EBUSY; i++)
			usleep(100000);
		if (ft_hurry(t))
			ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
	/*
	 * Still open (udev probing a fresh device, a killed mkfs's last close):
	 * the kernel detaches it at the last close.  Wait for that, or FUSE is
	 * still busy and nbdfuse cannot go.
	 */
	char back[128];
	snprintf(back, sizeof(back), "/sys/block/%s/loop/backing_file", t->loop + 5);
	for (int i = 0; i < 300 && !ft_hurry(t) && !access(back, F_OK); i++)
		usleep(10000);
	t->loop[0] = 0;
	ft_note(t);
}

static void ft_close_fuse(struct files_target *t)
{
	/* a lazy unmount when the plain one fails: never a FUSE mount without its server */
	if (t->fuse_up && (ft_hurry(t) || ft_fuse_unmount(t, false)))
		ft_fuse_unmount(t, true);
	if (ft_wait(t, t->fuse_pid, 3000) == -ETIMEDOUT)
		ft_stop_child(t, t->fuse_pid, SIGTERM);
	t->fuse_pid = 0;
	t->fuse_up = false;
	ft_note(t);
}

void files_target_close(struct files_target *t)
{
	bool stopped = t->stop && *t->stop;

	files_target_phase(t, "teardown"); /* kept: the phase a signal came in */
	if (stopped && t->rundir[0] && !t->is_dir)
		files_leftovers_phase(t->rundir, "teardown");
	/* a stack's filesystem goes away whole: after Ctrl-C it is not emptied first */
	if (t->work[0] && (t->is_dir ? !t->keep : !stopped))
		files_rmtree(t->work);
	t->work[0] = 0;
	if (t->mounted)
		ft_close_mount(t, stopped);
	if (t->loop[0])
		ft_close_loop(t);
	/* one attached but never reported (losetup stopped between attach and print) */
	if (t->fuse_up)
		files_leftovers_detach_loops(t->rundir);
	if (t->fuse_pid > 0)
		ft_close_fuse(t);
	if (t->serve_pid > 0) {
		files_stop_serve(0);
		ft_stop_child(t, t->serve_pid, SIGTERM);
		t->serve_pid = 0;
		ft_read_lag(t);
	}
	if (t->rundir[0]) {
		files_rmtree(t->rundir);
		t->rundir[0] = 0;
	}
	files_stop_leftovers(NULL);
}
