/*
 * probe.c - settle the emulation's speed before a file suite is timed
 * (files_probe_settle in target.h).
 *
 * A stack served with --slow auto starts in real time, and serve's
 * governor raises the slow-motion factor when this machine falls behind.
 * A raise in the middle of a timed run makes the run worthless (the suite
 * is run again), so before the first run the stack gets the same kind of
 * traffic the suites make: a large file written in 1 MiB pieces and
 * PROBE_SMALL files of 16 KiB (small requests are the hard case: a short
 * service time leaves little room for lag), synced, dropped from the page
 * cache, read back and deleted, through the filesystem, loop device, FUSE
 * and NBD, as the suites' files go.  Rounds repeat until
 * one passes without a raise.  The probe's writes age the simulated drive
 * a little, as a filesystem's own creation does; docs/suites.md says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files/files.h"
#include "files/target.h"

#define PROBE_CHUNK       (1u << 20)
#define PROBE_SMALL       256
#define PROBE_SMALL_BYTES 16384

/* One round: write, sync, drop, read back, delete.  0 or -errno. */
static int probe_round(const char *path, uint64_t bytes, uint8_t *buf,
                       const volatile sig_atomic_t *stop)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), rc = 0;

	if (fd < 0)
		return -errno;
	for (uint64_t off = 0; off < bytes && !rc; off += PROBE_CHUNK) {
		if (stop && *stop)
			rc = -EINTR;
		else if (pwrite(fd, buf, PROBE_CHUNK, (off_t)off) != PROBE_CHUNK)
			rc = -EIO;
	}
	if (!rc && fdatasync(fd))
		rc = -errno;
	if (!rc)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (uint64_t off = 0; off < bytes && !rc; off += PROBE_CHUNK) {
		if (stop && *stop)
			rc = -EINTR;
		else if (pread(fd, buf, PROBE_CHUNK, (off_t)off) != PROBE_CHUNK)
			rc = -EIO;
	}
	close(fd);
	unlink(path);
	return rc;
}

/* The small files: write each, sync the lot, drop, read back, delete.  0 or -errno. */
static int probe_small(const char *dir, const uint8_t *buf, const volatile sig_atomic_t *stop)
{
	char path[4400];
	uint8_t in[PROBE_SMALL_BYTES];
	int rc = 0;

	for (int i = 0; i < PROBE_SMALL && !rc; i++) {
		snprintf(path, sizeof(path), "%s/.raidlab-probe-%d", dir, i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (pwrite(fd, buf + i * 64, PROBE_SMALL_BYTES, 0) != PROBE_SMALL_BYTES)
			rc = -EIO;
		close(fd);
		if (stop && *stop)
			rc = -EINTR;
	}
	if (!rc)
		rc = files_syncfs(dir);
	for (int i = 0; i < PROBE_SMALL; i++) {
		snprintf(path, sizeof(path), "%s/.raidlab-probe-%d", dir, i);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (!rc && pread(fd, in, sizeof(in), 0) != (ssize_t)sizeof(in))
			rc = -EIO;
		close(fd);
		unlink(path);
	}
	return rc;
}

int files_probe_settle(struct files_target *t, uint64_t bytes, unsigned rounds,
                       const volatile sig_atomic_t *stop, unsigned *slow)
{
	char path[4300];
	uint8_t *buf;
	unsigned r0, r1;
	bool governed;
	int rc = files_target_pace(t, slow, &r0, &governed);

	if (rc || !governed) /* dir(), a real stack, a fixed factor: nothing to settle */
		return rc;
	if (!(buf = malloc(PROBE_CHUNK)))
		return -ENOMEM;
	files_target_phase(t, "settling the emulation's speed");
	for (size_t i = 0; i < PROBE_CHUNK; i++) /* incompressible, in case it matters below */
		buf[i] = (uint8_t)((i * 2654435761u) >> 13);
	snprintf(path, sizeof(path), "%s/.raidlab-probe", t->work);
	bytes = (bytes + PROBE_CHUNK - 1) / PROBE_CHUNK * PROBE_CHUNK;
	for (unsigned i = 0; i < rounds; i++) {
		if ((rc = probe_round(path, bytes, buf, stop)) ||
		    (rc = probe_small(t->work, buf, stop)) || (rc = files_syncfs(t->work)) ||
		    (rc = files_target_pace(t, slow, &r1, NULL)))
			break;
		if (r1 == r0)
			break;
		r0 = r1;
	}
	free(buf);
	return rc;
}
