/*
 * fops.c - timed operations on file sets (fops.h) and the helpers of
 * files.h.
 *
 * The copy is the simplest faithful one: open, read 1 MiB, write 1 MiB,
 * close, folder by folder, as cp(1) or Explorer's copy engine does without
 * tricks (no copy_file_range, no reflink: a filesystem that shares extents
 * would turn a copy into a metadata operation and flatter the array).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/exec.h"
#include "files/fops.h"
#include "files/stop.h"

/* CPU time of this process and of its terminated, waited-for children. */
static uint64_t fops_cpu_ns(void)
{
	struct timespec ts;
	struct rusage ru;
	uint64_t ns = 0;

	if (!clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!getrusage(RUSAGE_CHILDREN, &ru))
		ns +=
		    ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
		    ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
	return ns;
}

uint64_t files_clock_ns(const struct files_run *r)
{
	uint64_t wall = rl_exec_wall_now();

	if (r->slow <= 1)
		return wall;
	/*
	 * cpu + (wall - cpu) / N.  Its increments are dcpu (1 - 1/N) + dwall / N,
	 * never negative, so it is monotonic; children running on several CPUs
	 * at once can make cpu exceed wall, hence the signed arithmetic.
	 */
	int64_t cpu = (int64_t)fops_cpu_ns();
	return (uint64_t)(cpu + ((int64_t)wall - cpu) / (int64_t)r->slow);
}

static int fops_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -errno : 0;
	return unlink(path) ? -errno : 0;
}

int files_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return nftw(path, fops_rm_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static const volatile sig_atomic_t *fops_rm_stop;

static int fops_rm_stoppable(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (fops_rm_stop && *fops_rm_stop)
		return -EINTR;
	return fops_rm_one(path, st, flag, ftw);
}

int fops_remove(struct files_run *r, const char *path)
{
	struct stat st;
	int rc;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	fops_rm_stop = r->stop;
	rc = nftw(path, fops_rm_stoppable, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	fops_rm_stop = NULL;
	return rc;
}

int files_syncfs(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (syncfs(fd))
		rc = -errno;
	close(fd);
	return rc;
}

static bool fops_stopped(const struct files_run *r)
{
	return r->stop && *r->stop;
}

static int fops_fail(struct files_run *r, int rc, const char *what, const char *path)
{
	snprintf(r->msg, sizeof(r->msg), "%s %.300s: %s", what, path, strerror(-rc));
	return rc;
}

int fops_path(struct files_run *r, char *buf, size_t len, const char *root, const char *rel)
{
	int n = snprintf(buf, len, "%s%s%s", root, *rel ? "/" : "", rel);

	if (n < 0 || (size_t)n >= len) {
		snprintf(r->msg, sizeof(r->msg), "path too long under %.300s", root);
		return -ENAMETOOLONG;
	}
	return 0;
}

static int fops_mkdirs(struct files_run *r, const struct fset *s, const char *root)
{
	char p[4096];
	int rc;

	for (size_t j = 0; j < s->ndirs; j++) {
		if ((rc = fops_path(r, p, sizeof(p), root, s->dirs[j])))
			return rc;
		if (mkdir(p, 0755) && errno != EEXIST)
			return fops_fail(r, -errno, "cannot create folder", p);
	}
	return 0;
}

static int fops_write_all(int fd, const unsigned char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int fops_write(struct files_run *r, const struct fset *s, const char *root)
{
	unsigned char *buf = malloc(FOPS_CHUNK);
	char p[4096];
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = fops_mkdirs(r, s, root);
	for (size_t i = 0; !rc && i < s->nfiles; i++) {
		const struct fset_file *f = &s->files[i];
		if (fops_stopped(r)) {
			rc = -EINTR;
			break;
		}
		if ((rc = fops_path(r, p, sizeof(p), root, f->path)))
			break;
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			rc = fops_fail(r, -errno, "cannot create", p);
			break;
		}
		for (uint64_t off = 0; !rc && off < f->size; off += FOPS_CHUNK) {
			size_t n =
			    f->size - off < FOPS_CHUNK ? (size_t)(f->size - off) : FOPS_CHUNK;
			if (fops_stopped(r)) {
				rc = -EINTR; /* a large file ends early on Ctrl-C */
				break;
			}
			fset_fill(s, f, off, buf, n);
			if ((rc = fops_write_all(fd, buf, n)))
				fops_fail(r, rc, "cannot write", p);
		}
		if (close(fd) && !rc)
			rc = fops_fail(r, -errno, "cannot close", p);
	}
	free(buf);
	return rc;
}

int fops_copy(struct files_run *r, const struct fset *s, const char *src, const char *dst)
{
	unsigned char *buf = malloc(FOPS_CHUNK);
	char ps[4096], pd[4096];
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = fops_mkdirs(r, s, dst);
	for (size_t i = 0; !rc && i < s->nfiles; i++) {
		if (fops_stopped(r)) {
			rc = -EINTR;
			break;
		}
		if ((rc = fops_path(r, ps, sizeof(ps), src, s->files[i].path)) ||
		    (rc = fops_path(r, pd, sizeof(pd), dst, s->files[i].path)))
			break;
		int in = open(ps, O_RDONLY | O_CLOEXEC), out;
		if (in < 0) {
			rc = fops_fail(r, -errno, "cannot open", ps);
			break;
		}
		out = open(pd, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (out < 0) {
			rc = fops_fail(r, -errno, "cannot create", pd);
			close(in);
			break;
		}
		for (;;) {
			if (fops_stopped(r)) {
				rc = -EINTR;
				break;
			}
			ssize_t n = read(in, buf, FOPS_CHUNK);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				rc = fops_fail(r, -errno, "cannot read", ps);
				break;
			}
			if (n == 0)
				break;
			if ((rc = fops_write_all(out, buf, (size_t)n))) {
				fops_fail(r, rc, "cannot write", pd);
				break;
			}
		}
		close(in);
		if (close(out) && !rc)
			rc = fops_fail(r, -errno, "cannot close", pd);
	}
	free(buf);
	return rc;
}

int fops_read(struct files_run *r, const struct fset *s, const char *root, const size_t *order,
              size_t from, size_t to)
{
	unsigned char *buf = malloc(FOPS_CHUNK);
	char p[4096];
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (size_t k = from; !rc && k < to; k++) {
		const struct fset_file *f = &s->files[order ? order[k] : k];
		uint64_t got = 0;
		if (fops_stopped(r)) {
			rc = -EINTR;
			break;
		}
		if ((rc = fops_path(r, p, sizeof(p), root, f->path)))
			break;
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			rc = fops_fail(r, -errno, "cannot open", p);
			break;
		}
		for (;;) {
			if (fops_stopped(r)) {
				rc = -EINTR;
				break;
			}
			ssize_t n = read(fd, buf, FOPS_CHUNK);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				rc = fops_fail(r, -errno, "cannot read", p);
				break;
			}
			if (n == 0)
				break;
			got += (uint64_t)n;
		}
		close(fd);
		if (!rc && got != f->size) {
			snprintf(r->msg, sizeof(r->msg), "%.300s: read %llu bytes, expected %llu",
			         p, (unsigned long long)got, (unsigned long long)f->size);
			rc = -EIO;
		}
	}
	free(buf);
	return rc;
}

int fops_delete(struct files_run *r, const struct fset *s, const char *root)
{
	char p[4096];
	int rc;

	for (size_t i = 0; i < s->nfiles; i++) {
		if (fops_stopped(r))
			return -EINTR;
		if ((rc = fops_path(r, p, sizeof(p), root, s->files[i].path)))
			return rc;
		if (unlink(p))
			return fops_fail(r, -errno, "cannot delete", p);
	}
	for (size_t j = s->ndirs; j-- > 0;) {
		if ((rc = fops_path(r, p, sizeof(p), root, s->dirs[j])))
			return rc;
		if (rmdir(p))
			return fops_fail(r, -errno, "cannot remove folder", p);
	}
	return 0;
}

int fops_compare_fd(struct files_run *r, const struct fset *s, const struct fset_file *f, int fd,
                    uint64_t off, uint64_t len, const char *path)
{
	unsigned char *got = malloc(FOPS_CHUNK), *want = malloc(FOPS_CHUNK);
	int rc = 0;

	if (!got || !want) {
		free(got);
		free(want);
		return -ENOMEM;
	}
	for (uint64_t at = off; !rc && at < off + len; at += FOPS_CHUNK) {
		size_t n = off + len - at < FOPS_CHUNK ? (size_t)(off + len - at) : FOPS_CHUNK;
		if (fops_stopped(r)) {
			rc = -EINTR;
			break;
		}
		ssize_t k = pread(fd, got, n, (off_t)at);
		if (k != (ssize_t)n) {
			snprintf(r->msg, sizeof(r->msg),
			         "%.300s: short read at byte %llu while verifying", path,
			         (unsigned long long)at);
			rc = -EIO;
			break;
		}
		fset_fill(s, f, at, want, n);
		if (memcmp(got, want, n)) {
			size_t b = 0;
			while (got[b] == want[b])
				b++;
			snprintf(r->msg, sizeof(r->msg),
			         "%.300s: contents differ from the data set at byte %llu", path,
			         (unsigned long long)(at + b));
			rc = -EIO;
		}
	}
	free(got);
	free(want);
	return rc;
}

static size_t fops_count;

static int fops_count_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode))
		fops_count++;
	return 0;
}

int fops_verify(struct files_run *r, const struct fset *s, const char *root, unsigned sample,
                unsigned *verified)
{
	char p[4096];
	size_t largest = 0;
	int rc;

	*verified = 0;
	fops_count = 0;
	if (nftw(root, fops_count_one, 32, FTW_PHYS | FTW_MOUNT))
		return fops_fail(r, -errno, "cannot walk", root);
	if (fops_count != s->nfiles) {
		snprintf(r->msg, sizeof(r->msg), "%.300s holds %zu files, the data set has %zu",
		         root, fops_count, s->nfiles);
		return -EIO;
	}
	for (size_t i = 1; i < s->nfiles; i++)
		if (s->files[i].size > s->files[largest].size)
			largest = i;
	size_t step = s->nfiles / (sample ? sample : 1);
	step = step ? step : 1;
	for (size_t i = 0; i < s->nfiles + 1 && *verified < sample + 1; i += step) {
		size_t idx = i < s->nfiles ? i : largest; /* the last pick: the largest file */
		const struct fset_file *f = &s->files[idx];
		struct stat st;
		if (i >= s->nfiles)
			i = s->nfiles; /* ends the loop after this pick */
		if (fops_stopped(r))
			return -EINTR;
		if ((rc = fops_path(r, p, sizeof(p), root, f->path)))
			return rc;
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fops_fail(r, -errno, "cannot open", p);
		if (fstat(fd, &st) || (uint64_t)st.st_size != f->size) {
			snprintf(r->msg, sizeof(r->msg),
			         "%.300s: size %lld, the data set says %llu", p,
			         (long long)st.st_size, (unsigned long long)f->size);
			close(fd);
			return -EIO;
		}
		rc = fops_compare_fd(r, s, f, fd, 0, f->size, p);
		close(fd);
		if (rc)
			return rc;
		(*verified)++;
	}
	return 0;
}

void fops_drop(struct files_run *r)
{
	int fd;

	if (!r->drop_caches)
		return;
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "3\n", 2) == 2)
		r->drops++;
	else
		r->drop_failures++;
	if (fd >= 0)
		close(fd);
}

void fops_progress(struct files_run *r, const char *test, const char *phase)
{
	if (test && test != r->test)
		snprintf(r->test, sizeof(r->test), "%s", test);
	if (r->progress)
		r->progress(r->progress_arg, r->test, phase);
}

int fops_sync(struct files_run *r, const char *root, uint64_t *ns)
{
	fops_progress(r, NULL, "sync");
	uint64_t t0 = files_clock_ns(r);
	int rc = files_syncfs(root);

	*ns = files_clock_ns(r) - t0;
	return rc ? fops_fail(r, rc, "sync failed on", root) : 0;
}

int fops_spawn(struct files_run *r, char *const argv[])
{
	int status, rc;
	pid_t pid = fork();

	if (pid < 0)
		return fops_fail(r, -errno, "cannot start", argv[0]);
	if (pid == 0) {
		setpgid(0, 0); /* the terminal's Ctrl-C reaches raidlab, which ends this */
		files_stop_child_init();
		execvp(argv[0], argv);
		fprintf(stderr, "raidlab: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	rc = files_stop_wait_child(pid, &status);
	if (rc == -EINTR || fops_stopped(r))
		return -EINTR;
	if (rc)
		return fops_fail(r, rc, "lost", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(r->msg, sizeof(r->msg), "%.100s failed (%s %d)", argv[0],
		         WIFEXITED(status) ? "exit status" : "signal",
		         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -EIO;
	}
	return 0;
}
