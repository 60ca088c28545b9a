/*
 * leftovers.c - runtime directories of dead file-suite runs (leftovers.h).
 *
 * Ownership is a pid and its start time (field 22 of /proc/PID/stat), so a
 * recycled pid is not taken for the owner.  Mounts come from
 * /proc/self/mountinfo, loop devices from /sys/block/loopN/loop/backing_file,
 * processes from /proc/PID/cmdline; nothing is kept between calls, so what
 * is reported is what exists at that moment.
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
#include <sys/types.h>
#include <unistd.h>

#include "files/files.h"
#include "files/leftovers.h"

#define LO_MAX 16 /* mounts, loop devices or processes of one directory */

struct lo_dir {
	char path[4096];
	char phase[128];
	long owner;
	char mounts[LO_MAX][4200];
	size_t nmounts;
	char loops[LO_MAX][64];
	size_t nloops;
	pid_t pids[LO_MAX];
	char names[LO_MAX][32];
	bool serve[LO_MAX]; /* a raidlab serve: SIGUSR1 ends its pacing */
	size_t npids;
};

const char *files_leftovers_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

/*
 * Start time of @pid (clock ticks since boot), 0 when it does not exist or
 * has ended (a zombie: killed but not yet reaped by its parent, such as a
 * test script whose timeout killed it, holds nothing any more).
 */
static unsigned long long lo_start_time(long pid)
{
	char path[64], buf[1024];
	unsigned long long t = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	if (!p)
		return 0;
	p++;
	if (p[0] == ' ' && (p[1] == 'Z' || p[1] == 'X'))
		return 0;
	for (int field = 3; field <= 22 && p; field++) {
		p = strchr(p, ' ');
		if (p && field == 22)
			t = strtoull(p + 1, NULL, 10);
		p = p ? p + 1 : NULL;
	}
	return t;
}

int files_leftovers_own(const char *rundir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/owner", rundir);
	if (!(f = fopen(path, "we")))
		return -errno;
	fprintf(f, "%ld %llu\n", (long)getpid(), lo_start_time((long)getpid()));
	return fclose(f) ? -errno : 0;
}

void files_leftovers_phase(const char *rundir, const char *phase)
{
	char path[4200], tmp[4210];
	FILE *f;

	snprintf(path, sizeof(path), "%s/phase", rundir);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	if (!(f = fopen(tmp, "we")))
		return;
	fprintf(f, "%s\n", phase);
	if (!fclose(f))
		rename(tmp, path); /* readers see the old phase or the new one, whole */
}

static void lo_scan_procs(struct lo_dir *d);

/* Is the parent of @pid a raidlab (the run that started it) rather than init? */
static bool lo_parent_is_raidlab(pid_t pid)
{
	char path[64], buf[1024];
	long ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!(f = fopen(path, "re")))
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid <= 1)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", ppid);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "raidlab") != NULL;
}

/*
 * The owner recorded in @dir, and whether it is still running.  A directory
 * without an owner record (made by an older raidlab) counts as in use while
 * its serve or nbdfuse is still the child of a raidlab.
 */
static bool lo_owner_alive(struct lo_dir *d)
{
	char path[4200];
	unsigned long long t = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/owner", d->path);
	d->owner = 0;
	if (!(f = fopen(path, "re"))) {
		lo_scan_procs(d);
		for (size_t i = 0; i < d->npids; i++)
			if (lo_parent_is_raidlab(d->pids[i]))
				return true;
		return false;
	}
	if (fscanf(f, "%ld %llu", &d->owner, &t) != 2)
		d->owner = 0;
	fclose(f);
	return d->owner > 0 && (long)getpid() != d->owner && lo_start_time(d->owner) == t;
}

static void lo_read_phase(struct lo_dir *d)
{
	char path[4200];
	FILE *f;

	d->phase[0] = 0;
	snprintf(path, sizeof(path), "%s/phase", d->path);
	if ((f = fopen(path, "re"))) {
		if (fgets(d->phase, sizeof(d->phase), f))
			d->phase[strcspn(d->phase, "\n")] = 0;
		fclose(f);
	}
}

/* Is @path @dir itself or below it? */
static bool lo_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == 0);
}

/* mountinfo escapes spaces and the like as \ooo. */
static void lo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] && r[3]) {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
}

static void lo_scan_mounts(struct lo_dir *d)
{
	char line[8192];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	d->nmounts = 0;
	while (f && fgets(line, sizeof(line), f) && d->nmounts < LO_MAX) {
		char *save = NULL, *tok = strtok_r(line, " ", &save);
		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		if (!tok)
			continue;
		lo_unescape(tok);
		if (lo_below(tok, d->path))
			snprintf(d->mounts[d->nmounts++], sizeof(d->mounts[0]), "%s", tok);
	}
	if (f)
		fclose(f);
}

/* The suite's filesystem (DIR/mnt), as opposed to the FUSE file (DIR/fuse). */
static bool lo_is_fs(const struct lo_dir *d, const char *mount)
{
	size_t n = strlen(d->path);
	return !strncmp(mount, d->path, n) && !strcmp(mount + n, "/mnt");
}

static void lo_scan_loops(struct lo_dir *d)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;

	d->nloops = 0;
	while (dir && (e = readdir(dir)) && d->nloops < LO_MAX) {
		char path[600], back[4200] = "";
		FILE *f;
		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		if (fgets(back, sizeof(back), f))
			back[strcspn(back, "\n")] = 0;
		fclose(f);
		if (lo_below(back, d->path))
			snprintf(d->loops[d->nloops++], sizeof(d->loops[0]), "/dev/%.50s",
			         e->d_name);
	}
	if (dir)
		closedir(dir);
}

static void lo_scan_procs(struct lo_dir *d)
{
	DIR *dir = opendir("/proc");
	struct dirent *e;

	d->npids = 0;
	while (dir && (e = readdir(dir)) && d->npids < LO_MAX) {
		char path[300], buf[8192];
		long pid = strtol(e->d_name, NULL, 10);
		FILE *f;
		if (pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		if (!(f = fopen(path, "re")))
			continue;
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		if (!n)
			continue;
		buf[n] = 0;
		const char *first = buf;
		for (size_t i = 0; i < n; i++)
			buf[i] = buf[i] ? buf[i] : ' ';
		if (!strstr(buf, d->path))
			continue;
		d->serve[d->npids] = strstr(buf, " serve ") != NULL;
		const char *base = strrchr(first, '/');
		snprintf(d->names[d->npids], sizeof(d->names[0]), "%.*s",
		         (int)strcspn(base ? base + 1 : first, " "), base ? base + 1 : first);
		d->pids[d->npids++] = (pid_t)pid;
	}
	if (dir)
		closedir(dir);
}

/* Call @fn on each runtime directory under @tmpdir whose owner is gone. */
static int lo_each(const char *tmpdir, void (*fn)(struct lo_dir *d, void *arg), void *arg)
{
	DIR *dir = opendir(tmpdir);
	struct dirent *e;
	struct lo_dir *d = calloc(1, sizeof(*d));
	int n = 0;

	if (!dir || !d) {
		int rc = dir ? -ENOMEM : -errno;
		if (dir)
			closedir(dir);
		free(d);
		return rc == -ENOENT ? 0 : rc;
	}
	while ((e = readdir(dir))) {
		struct stat st;
		if (strncmp(e->d_name, "raidlab-fs.", 11))
			continue;
		snprintf(d->path, sizeof(d->path), "%s/%s", tmpdir, e->d_name);
		if (lstat(d->path, &st) || !S_ISDIR(st.st_mode) || lo_owner_alive(d))
			continue;
		lo_read_phase(d);
		lo_scan_mounts(d);
		lo_scan_loops(d);
		lo_scan_procs(d);
		fn(d, arg);
		n++;
	}
	closedir(dir);
	free(d);
	return n;
}

static void lo_describe(struct lo_dir *d, void *arg)
{
	FILE *out = arg;

	if (!out)
		return;
	fprintf(out, "%s:", d->path);
	for (size_t i = 0; i < d->nmounts; i++)
		fprintf(out, " mount %s,", d->mounts[i]);
	for (size_t i = 0; i < d->nloops; i++)
		fprintf(out, " %s,", d->loops[i]);
	for (size_t i = 0; i < d->npids; i++)
		fprintf(out, " %s pid %ld,", d->names[i], (long)d->pids[i]);
	if (!d->nmounts && !d->nloops && !d->npids)
		fprintf(out, " files only,");
	if (d->owner > 0)
		fprintf(out, " left by pid %ld (gone)", d->owner);
	else
		fprintf(out, " no owner recorded");
	fprintf(out, "%s%s\n", d->phase[0] ? " in phase " : "", d->phase);
}

size_t files_leftovers_find(const char *tmpdir, FILE *out)
{
	int n = lo_each(tmpdir, lo_describe, out);
	return n > 0 ? (size_t)n : 0;
}

struct lo_remove {
	FILE *out;
	bool dry_run;
	int failures;
};

static void lo_say(struct lo_remove *r, const char *what, const char *obj, int rc)
{
	fprintf(r->out, "%s%s %s%s%s\n", r->dry_run ? "would " : "", what, obj, rc ? ": " : "",
	        rc ? strerror(-rc) : "");
	if (rc)
		r->failures++;
}

static int lo_unmount(const char *path)
{
	if (!umount2(path, 0))
		return 0;
	if (errno == EINVAL || errno == ENOENT)
		return 0;                              /* already gone */
	return umount2(path, MNT_DETACH) ? -errno : 0; /* busy: detach now, free when unused */
}

static int lo_detach(const char *loop)
{
	int fd = open(loop, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, LOOP_CLR_FD, 0) && errno != ENXIO)
		rc = -errno;
	close(fd);
	return rc;
}

static int lo_kill(pid_t pid)
{
	if (kill(pid, SIGTERM))
		return errno == ESRCH ? 0 : -errno;
	for (int i = 0; i < 200; i++) {
		if (kill(pid, 0) && errno == ESRCH)
			return 0;
		usleep(10000);
	}
	return kill(pid, SIGKILL) && errno != ESRCH ? -errno : 0;
}

static void lo_remove_one(struct lo_dir *d, void *arg)
{
	struct lo_remove *r = arg;
	char pid[64];

	lo_describe(d, r->out);
	/* a simulated stack answers at once from now on: the unmount's writes do not wait */
	for (size_t i = 0; i < d->npids && !r->dry_run; i++)
		if (d->serve[i])
			kill(d->pids[i], SIGUSR1);
	/* the filesystem first, then its loop device, then the FUSE file below it */
	for (size_t i = 0; i < d->nmounts; i++) {
		if (!lo_is_fs(d, d->mounts[i]))
			continue;
		lo_say(r, "unmount", d->mounts[i], r->dry_run ? 0 : lo_unmount(d->mounts[i]));
	}
	for (size_t i = 0; i < d->nloops; i++)
		lo_say(r, "detach", d->loops[i], r->dry_run ? 0 : lo_detach(d->loops[i]));
	for (size_t i = 0; i < d->nmounts; i++) {
		if (lo_is_fs(d, d->mounts[i]))
			continue;
		lo_say(r, "unmount", d->mounts[i], r->dry_run ? 0 : lo_unmount(d->mounts[i]));
	}
	for (size_t i = 0; i < d->npids; i++) {
		snprintf(pid, sizeof(pid), "%s pid %ld", d->names[i], (long)d->pids[i]);
		lo_say(r, "stop", pid, r->dry_run ? 0 : lo_kill(d->pids[i]));
	}
	lo_say(r, "remove", d->path, r->dry_run ? 0 : files_rmtree(d->path));
}

int files_leftovers_detach_loops(const char *dir)
{
	struct lo_dir *d = calloc(1, sizeof(*d));
	int n = 0;

	if (!d)
		return -ENOMEM;
	snprintf(d->path, sizeof(d->path), "%s", dir);
	lo_scan_loops(d);
	for (size_t i = 0; i < d->nloops; i++)
		n += lo_detach(d->loops[i]) == 0;
	free(d);
	return n;
}

int files_leftovers_remove(const char *tmpdir, FILE *out, bool dry_run)
{
	struct lo_remove r = {.out = out, .dry_run = dry_run};
	int n = lo_each(tmpdir, lo_remove_one, &r);

	if (n < 0)
		return n;
	return r.failures ? -EBUSY : n;
}
