/*
 * safety.c - is anything on this device?  See safety.h for the policy.
 *
 * Mount and swap use are found by device number (st_rdev) in
 * /proc/self/mountinfo and /proc/swaps, for the device itself and for its
 * partitions (listed in /sys/dev/block/MAJ:MIN/).  Holders (md, dm, ...)
 * come from /sys/dev/block/MAJ:MIN/holders.  Signatures come from libblkid's
 * safe probe with every superblock and partition prober on, which reports a
 * partition table, a filesystem, a RAID member, LUKS or swap, and refuses to
 * guess when it finds more than one (that also counts as "found").  Loop devices name their backing
 * file in /sys/block/loopN/loop/backing_file (compared by device and inode, or by device number
 * when it is a block device: a loop device on a block device registers no holder, so it is looked
 * for the same way, for the device and each of its partitions); writers are found in /proc/PID/fd
 * and the access mode in /proc/PID/fdinfo; a lock's holder in /proc/locks (flock locks carry the
 * PID of the process that took them).
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "targets/safety.h"

/* Mount point of device number @dev, or 0 if it is not mounted. */
static int safety_mounted(dev_t dev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[2048];
		/* id parent maj:min root mountpoint ... */
		if (sscanf(line, "%*d %*d %u:%u %*s %2047s", &maj, &min, mnt) == 3 &&
		    makedev(maj, min) == dev) {
			snprintf(where, len, "%s", mnt);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int safety_swap(dev_t dev)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[4096], path[2048];
	struct stat st;
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%2047s", path) == 1 && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == dev)
			found = 1;
	fclose(f);
	return found;
}

/* Is @dev held by another driver (md, dm, bcache: /sys/dev/block/MAJ:MIN/holders)? */
static int safety_held(dev_t dev, char *found, size_t len)
{
	char dir[256];
	struct dirent *e;
	DIR *d;
	int hit = 0;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders", major(dev), minor(dev));
	if (!(d = opendir(dir)))
		return 0;
	while (!hit && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(found, len, "is held by %s (md, dm or similar)", e->d_name);
			hit = 1;
		}
	closedir(d);
	return hit;
}

static int safety_loop_backed(const struct stat *st, char *found, size_t len);

/*
 * Is the block device @dev mounted, swap, held, or the backing device of a
 * loop device (a loop device registers no holder)?  Describes it in @found
 * as a predicate ("is mounted on /mnt").
 */
static int safety_dev_busy(dev_t dev, char *found, size_t len)
{
	struct stat st = {.st_mode = S_IFBLK, .st_rdev = dev};
	char where[2048];

	if (safety_mounted(dev, where, sizeof(where))) {
		snprintf(found, len, "is mounted on %s", where);
		return 1;
	}
	if (safety_swap(dev)) {
		snprintf(found, len, "is in use as swap");
		return 1;
	}
	return safety_held(dev, found, len) || safety_loop_backed(&st, found, len);
}

/* Is @dev, or a partition of it, in use (safety_dev_busy)?  Describes it in @found. */
static int safety_in_use(dev_t dev, char *found, size_t len)
{
	char what[2304], dir[256];
	DIR *d;
	struct dirent *e;
	int hit = 0;

	if (safety_dev_busy(dev, what, sizeof(what))) {
		snprintf(found, len, "it %s", what);
		return 1;
	}
	/* Partitions appear as subdirectories with a "partition" file and a "dev" file. */
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!(d = opendir(dir)))
		return 0;
	while (!hit && (e = readdir(d))) {
		char p[1024];
		unsigned maj, min;
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/partition", dir, e->d_name);
		if (access(p, F_OK) != 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s/dev", dir, e->d_name);
		if (!(f = fopen(p, "r")))
			continue;
		if (fscanf(f, "%u:%u", &maj, &min) == 2 &&
		    safety_dev_busy(makedev(maj, min), what, sizeof(what))) {
			snprintf(found, len, "its partition %s %s", e->d_name, what);
			hit = 1;
		}
		fclose(f);
	}
	closedir(d);
	return hit;
}

/*
 * libblkid gets its own buffered descriptor: the target's may be O_DIRECT,
 * and blkid's unaligned reads would fail on it and find nothing.
 */
static int safety_signature(const char *path, const char *allow_type, char *found, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *uuid = NULL, *usage = NULL;
	int rc, hit = 0;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID |
	                                          BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			snprintf(found, len, "it holds a %s partition table", type);
		} else if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && allow_type &&
		           !strcmp(type, allow_type)) {
			hit = -1; /* the signature the caller expects: not a hit */
		} else if (type) {
			blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(found, len, "it holds a%s %s signature (%s%s%s)",
			         usage && !strcmp(usage, "raid") ? " RAID" : "", type,
			         usage && !strcmp(usage, "filesystem") ? "filesystem"
			         : usage                               ? usage
			                                               : "data",
			         uuid ? ", UUID " : "", uuid ? uuid : "");
		} else {
			snprintf(found, len, "it holds a recognised signature");
		}
		hit = hit < 0 ? 0 : 1;
	} else if (rc == -2) {
		snprintf(found, len, "it holds several conflicting signatures");
		hit = 1;
	}
	blkid_free_probe(pr);
	return hit;
}

/*
 * Is a loop device backed by @st: the same block device (st_rdev) when @st
 * is one, else the regular file with the same device and inode?  @found
 * gets a predicate ("backs /dev/loop1 ...").
 */
static int safety_loop_backed(const struct stat *st, char *found, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int hit = 0;

	if (!d)
		return 0;
	while (!hit && (e = readdir(d))) {
		char p[512], back[4096];
		struct stat bs;
		FILE *f;
		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", e->d_name);
		if (!(f = fopen(p, "r")))
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = 0;
			if (stat(back, &bs) == 0 &&
			    (S_ISBLK(st->st_mode)
			         ? S_ISBLK(bs.st_mode) && bs.st_rdev == st->st_rdev
			         : bs.st_dev == st->st_dev && bs.st_ino == st->st_ino)) {
				snprintf(found, len, "backs /dev/%s (a loop device, maybe mounted)",
				         e->d_name);
				hit = 1;
			}
		}
		fclose(f);
	}
	closedir(d);
	return hit;
}

/* The command name of process @pid into @comm ("?" when it is gone). */
static void safety_comm(long pid, char *comm, size_t len)
{
	char p[64];
	FILE *f;

	snprintf(comm, len, "?");
	snprintf(p, sizeof(p), "/proc/%ld/comm", pid);
	if ((f = fopen(p, "r"))) {
		if (fgets(comm, (int)len, f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
}

/*
 * Another process with the file of @st (device and inode) open for writing?
 * With @shared, raidlab processes are not counted: they are the other ranks
 * of the same job (a raidlab run of its own would hold the exclusive lock).
 */
static int safety_writer(const struct stat *st, bool shared, char *found, size_t len)
{
	DIR *procs = opendir("/proc");
	struct dirent *pe;
	pid_t self = getpid();
	int hit = 0;

	if (!procs)
		return 0;
	while (!hit && (pe = readdir(procs))) {
		char dir[64], p[384];
		DIR *fds;
		struct dirent *fe;
		long pid = strtol(pe->d_name, NULL, 10);
		if (pid <= 0 || pid == self)
			continue;
		snprintf(dir, sizeof(dir), "/proc/%ld/fd", pid);
		if (!(fds = opendir(dir)))
			continue;
		while (!hit && (fe = readdir(fds))) {
			struct stat fs;
			char line[256];
			unsigned flags = 0;
			FILE *f;
			if (fe->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", dir, fe->d_name);
			if (stat(p, &fs) || fs.st_ino != st->st_ino ||
			    (S_ISBLK(st->st_mode)
			         ? !S_ISBLK(fs.st_mode) || fs.st_rdev != st->st_rdev
			         : fs.st_dev != st->st_dev))
				continue;
			snprintf(p, sizeof(p), "/proc/%ld/fdinfo/%s", pid, fe->d_name);
			if (!(f = fopen(p, "r")))
				continue;
			while (fgets(line, sizeof(line), f))
				if (sscanf(line, "flags: %o", &flags) == 1)
					break;
			fclose(f);
			if ((flags & O_ACCMODE) != O_RDONLY) {
				char comm[64];
				safety_comm(pid, comm, sizeof(comm));
				if (shared && !strcmp(comm, "raidlab"))
					continue;
				snprintf(found, len, "it is open for writing by PID %ld (%s)", pid,
				         comm);
				hit = 1;
			}
		}
		closedir(fds);
	}
	closedir(procs);
	return hit;
}

int rl_safety_check_in_use(const char *path, int fd, bool shared, char *found, size_t len)
{
	char what[2304];
	struct stat st;

	(void)path;
	if (fstat(fd, &st) != 0)
		return 0;
	if (S_ISBLK(st.st_mode) && safety_in_use(st.st_rdev, found, len))
		return 1;
	if (S_ISREG(st.st_mode) && safety_loop_backed(&st, what, sizeof(what))) {
		snprintf(found, len, "it %s", what);
		return 1;
	}
	return safety_writer(&st, shared, found, len);
}

int rl_safety_check_signature(const char *path, const char *allow_type, char *found, size_t len)
{
	return safety_signature(path, allow_type, found, len);
}

/* The PID holding a flock on the file of @st, from /proc/locks, or 0. */
static long safety_lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "r");
	char line[512];
	long holder = 0;

	if (!f)
		return 0;
	while (!holder && fgets(line, sizeof(line), f)) {
		char kind[16];
		long pid;
		unsigned maj, min;
		unsigned long long ino;
		/* 1: FLOCK  ADVISORY  WRITE 1234 08:02:131090 0 EOF */
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid, &maj, &min,
		           &ino) == 5 &&
		    !strcmp(kind, "FLOCK") && ino == (unsigned long long)st->st_ino &&
		    makedev(maj, min) == st->st_dev)
			holder = pid;
	}
	fclose(f);
	return holder;
}

/*
 * A lock whose holder has exited is on its way out: the kernel drops a dead
 * process's files when the last reference goes, and an io_uring instance
 * gives up the files of its requests from a work queue after the process
 * is gone, so a run killed a moment ago can still hold its members' locks.
 * Such a lock is waited for (up to SAFETY_DEAD_WAIT_MS); a live holder's is
 * refused at once.
 */
#define SAFETY_DEAD_WAIT_MS 3000

static bool safety_pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

int rl_safety_lock(int fd, bool write, char *found, size_t len)
{
	struct stat st;
	long pid = 0;

	for (int waited = 0;; waited += 10) {
		if (flock(fd, (write ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -errno;
		pid = fstat(fd, &st) == 0 ? safety_lock_holder(&st) : 0;
		if (pid == getpid() || safety_pid_alive(pid) || waited >= SAFETY_DEAD_WAIT_MS)
			break;
		usleep(10000); /* a dead holder, or the lock between holders */
	}
	if (pid == getpid())
		snprintf(found, len, "it appears twice in this target");
	else if (pid > 0)
		snprintf(found, len, "it is in use by PID %ld (another raidlab run %s it)", pid,
		         write ? "is using" : "is writing");
	else
		snprintf(found, len, "it is in use by another raidlab run (locked)");
	return 1;
}

void rl_safety_mark_file(int fd)
{
	(void)fsetxattr(fd, RL_SAFETY_XATTR, "1", 1, 0);
}
