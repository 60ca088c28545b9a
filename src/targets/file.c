/*
 * file.c - a regular file or a block device.
 *
 *   /dev/nvme0n1                          a plain path is a file target
 *   file(/mnt/scratch/test.img, size=8g)  created and laid out if missing
 *   file(disk.img, direct=off)            through the page cache
 *
 * Opening: a block device is opened as it is (size from BLKGETSIZE64,
 * logical block size from BLKSSZGET).  A missing regular file is created
 * with size= (or the run's default), its blocks reserved as fallocate=
 * says (fio's modes: fallocate(2) by default, posix_fallocate, keep-size,
 * ftruncate, or nothing), filled with incompressible data (as fio lays out
 * its files, so reads hit real blocks rather than holes) or, when nothing
 * reads it, only sized, marked as raidlab's own, and removed when the run
 * finishes unless kept.
 * An existing file is used as it is; size= may shrink the region used.  An
 * existing regular file shorter than size= is laid out again at size=, as
 * fio does (its old content is replaced, as if it were new, and it is kept
 * at the end), but only when the rules for writing to it allow it: the
 * checks below run as for a job that writes, even when the jobs only read.
 * create=0 (fio's allow_file_create=0) or extend=0 (create_on_open=1)
 * leave such a file alone and the run is refused.
 *
 * Safety (safety.h): a device opened for writing is opened O_EXCL; every
 * target takes raidlab's advisory lock (exclusive to write, shared to
 * read); writes are refused, --force-destroy or not, to what is in use, and
 * refused unless --force-destroy to what holds data.  Reads are always
 * allowed; a run that only reads opens the path read-only.
 *
 * I/O: on an io_uring executor each request becomes one submission entry
 * (read, write with RWF_DSYNC for FUA, fsync/fdatasync for FLUSH, fallocate
 * punch-hole for TRIM on files); on a psync executor the same operations
 * run synchronously in submit and complete through the ready queue; on a
 * libaio executor reads, writes and flushes become iocbs (TRIM stays
 * synchronous).  TRIM
 * on a block device is the BLKDISCARD ioctl in both cases.  The executor
 * maps results to 0 / -errno, short transfers included.  A request marked
 * RL_IO_SPACE or RL_IO_TRUNC (io.h: fio's falloc and ftruncate engines) is
 * that system call instead, always synchronous (file_space_io).
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/registry.h"
#include "targets/safety.h"

struct file_state {
	int fd;
	int fd_buffered; /* also_buffered: the same file without O_DIRECT, or -1 */
	char *path;
	bool blockdev;
	bool created;  /* raidlab made this file: remove it at finish unless keep */
	bool laid_out; /* an existing, shorter file raidlab laid out again at size= */
	bool extend;   /* a shorter existing file may be laid out again (default on) */
	bool keep;
	bool unlink; /* remove it at finish even if it existed (fio's unlink=1) */
	bool create; /* a missing file may be created (fio's allow_file_create) */
	bool direct;
	bool writable;
	int access_hint;        /* POSIX_FADV_* given to a buffered file before each job */
	int falloc;             /* enum file_falloc: how a new file's blocks are reserved */
	_Atomic(uint8_t *) map; /* RL_IO_MMAP: the whole file mapped, at the first such request */
};

/* fallocate=: fio's modes of reserving a new file's blocks before it is laid out */
enum file_falloc {
	FILE_FALLOC_NATIVE,
	FILE_FALLOC_NONE,
	FILE_FALLOC_POSIX,
	FILE_FALLOC_KEEP,
	FILE_FALLOC_TRUNCATE
};
static const char *const file_falloc_names[] = {"native", "none",     "posix",
                                                "keep",   "truncate", NULL};

/* The file mapped whole (fio's mmap engine maps it in windows; one is enough here). */
static uint8_t *file_map(struct rl_target *t, struct file_state *f)
{
	uint8_t *m = atomic_load(&f->map), *none = NULL;
	size_t len = (size_t)t->size;

	if (m)
		return m;
	m = mmap(NULL, len, PROT_READ | (f->writable ? PROT_WRITE : 0), MAP_SHARED, f->fd, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* as fio: the job's access hint (random: no read-around on a fault; the
	   POSIX_FADV_ and POSIX_MADV_ values are the same), and no pages yet */
	if (f->access_hint)
		(void)posix_madvise(m, len, f->access_hint);
	(void)posix_madvise(m, len, POSIX_MADV_DONTNEED);
	if (!atomic_compare_exchange_strong(&f->map, &none, m)) {
		munmap(m, len); /* another thread of the job mapped it first */
		return none;
	}
	return m;
}

/* fio's mmap engine: a transfer is a copy to or from the mapping (RL_IO_MMAP). */
static int file_mmap_io(struct rl_target *t, struct file_state *f, struct rl_io *io)
{
	uint8_t *m = file_map(t, f);
	long pg = sysconf(_SC_PAGESIZE);

	if (!m)
		return -errno;
	switch (io->op) {
	case RL_OP_READ:
		memcpy(io->buf, m + io->offset, io->len);
		break;
	case RL_OP_WRITE:
		memcpy(m + io->offset, io->buf, io->len);
		break;
	case RL_OP_FLUSH:
		return msync(m, (size_t)t->size, MS_SYNC) ? -errno : 0;
	default:
		return -EINVAL; /* a trim is the file's, not the mapping's (file_submit) */
	}
	if (f->direct || (io->flags & RL_IO_FUA)) {
		/* not O_DIRECT, but the pages written back and dropped, as fio does */
		uint64_t start = io->offset & ~(uint64_t)(pg - 1);
		size_t len = (size_t)(io->offset + io->len - start);
		if (msync(m + start, len, MS_SYNC))
			return -errno;
		if (f->direct && posix_madvise(m + start, len, POSIX_MADV_DONTNEED))
			return -EIO;
	}
	return 0;
}

static int file_sync_io(struct file_state *f, int fd, struct rl_io *io)
{
	uint8_t *p = io->buf;
	uint64_t off = io->offset;
	size_t left = io->len;

	switch (io->op) {
	case RL_OP_READ:
	case RL_OP_WRITE:
		while (left) {
			ssize_t n;
			if (io->op == RL_OP_READ)
				n = pread(fd, p, left, (off_t)off);
			else if (io->flags & RL_IO_FUA) {
				struct iovec iov = {.iov_base = p, .iov_len = left};
				n = pwritev2(fd, &iov, 1, (off_t)off, RWF_DSYNC);
			} else
				n = pwrite(fd, p, left, (off_t)off);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			if (n == 0)
				return -EIO;
			p += n;
			off += (uint64_t)n;
			left -= (size_t)n;
		}
		return 0;
	case RL_OP_FLUSH:
		if (io->flags & RL_IO_FSYNC)
			return fsync(fd) ? -errno : 0;
		return fdatasync(fd) ? -errno : 0;
	case RL_OP_TRIM:
		if (f->blockdev) {
			uint64_t range[2] = {io->offset, io->len};
			return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
		}
		return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)io->offset,
		                 (off_t)io->len)
		           ? -errno
		           : 0;
	}
	return -EINVAL;
}

/* fio's falloc and ftruncate engines: the request's system call on the file's space. */
static int file_space_io(struct file_state *f, const struct rl_io *io)
{
	static const int modes[] = {
	    [RL_OP_READ] = FALLOC_FL_KEEP_SIZE,
	    [RL_OP_WRITE] = 0,
	    [RL_OP_TRIM] = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
	};
	if (io->op == RL_OP_FLUSH)
		return ((io->flags & RL_IO_FSYNC) ? fsync(f->fd) : fdatasync(f->fd)) ? -errno : 0;
	if (io->flags & RL_IO_TRUNC)
		return io->op != RL_OP_WRITE                 ? -EINVAL
		       : ftruncate(f->fd, (off_t)io->offset) ? -errno
		                                             : 0;
	if (io->op > RL_OP_TRIM)
		return -EINVAL;
	return fallocate(f->fd, modes[io->op], (off_t)io->offset, (off_t)io->len) ? -errno : 0;
}

/* a request's one segment, for an executor that reads and writes vectored */
RL_IO_CTX_DEFINE(file_iov, struct iovec)

static void file_submit(struct rl_target *t, struct rl_io *io)
{
	struct file_state *f = t->priv;
	struct io_uring_sqe *sqe;
	bool buffered = (io->flags & RL_IO_BUFFERED) && f->fd_buffered >= 0;
	int fd = buffered ? f->fd_buffered : f->fd;

	if (io->flags & (RL_IO_SPACE | RL_IO_TRUNC)) {
		rl_io_complete_later(io, file_space_io(f, io));
		return;
	}
	if ((io->flags & RL_IO_MMAP) && io->op != RL_OP_TRIM) {
		rl_io_complete_later(io, file_mmap_io(t, f, io));
		return;
	}

	if (io->ex->kind == RL_EXEC_POSIXAIO) {
		int rc = rl_exec_posixaio_submit(io->ex, io, fd);
		if (rc == -EAGAIN || rc == -EOPNOTSUPP) /* table full, or not an AIO operation */
			rl_io_complete_later(io, file_sync_io(f, fd, io));
		else if (rc)
			rl_io_complete_later(io, rc);
		return;
	}
	if (io->ex->kind == RL_EXEC_LIBAIO && io->op != RL_OP_TRIM) {
		int rc = rl_exec_aio_submit(io->ex, io, fd, buffered || !f->direct);
		if (rc == -EAGAIN) /* the executor's iocb table is full: do it now */
			rl_io_complete_later(io, file_sync_io(f, fd, io));
		else if (rc)
			rl_io_complete_later(io, rc);
		return;
	}
	if (io->ex->kind != RL_EXEC_URING || (io->op == RL_OP_TRIM && f->blockdev)) {
		rl_io_complete_later(io, file_sync_io(f, fd, io));
		return;
	}
	sqe = rl_exec_get_sqe(io->ex, io);
	if (!sqe) {
		rl_io_complete_later(io, -EAGAIN);
		return;
	}
	switch (io->op) {
	case RL_OP_READ:
	case RL_OP_WRITE:
		rl_exec_uring_prep_rw(io->ex, sqe, io->op == RL_OP_WRITE, fd, io->buf, io->len,
		                      io->offset, io->flags & RL_IO_FUA ? RWF_DSYNC : 0,
		                      file_iov(io));
		sqe->ioprio = io->ioprio;
		break;
	case RL_OP_FLUSH:
		io_uring_prep_fsync(sqe, fd, (io->flags & RL_IO_FSYNC) ? 0 : IORING_FSYNC_DATASYNC);
		break;
	case RL_OP_TRIM:
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		                        io->offset, io->len);
		break;
	}
	rl_exec_sqe_ready(io->ex);
}

static int file_describe(struct rl_target *t, struct json_object *obj)
{
	struct file_state *f = t->priv;

	json_object_object_add(obj, "path", json_object_new_string(f->path));
	json_object_object_add(
	    obj, "kind", json_object_new_string(f->blockdev ? "block device" : "regular file"));
	json_object_object_add(obj, "direct", json_object_new_boolean(f->direct));
	if (f->created)
		json_object_object_add(obj, "created", json_object_new_boolean(true));
	if (f->laid_out)
		json_object_object_add(obj, "laid_out", json_object_new_boolean(true));
	return 0;
}

static void file_finish(struct rl_target *t)
{
	struct file_state *f = t->priv;

	if ((f->created && !f->keep) || (f->unlink && !f->blockdev && f->path)) {
		unlink(f->path);
		f->created = false;
		f->unlink = false;
	}
}

static void file_destroy(struct rl_target *t)
{
	struct file_state *f = t->priv;

	if (!f)
		return;
	if (f->created && rl_target_opening())
		f->keep = false; /* the stack did not open: the new file holds nothing */
	file_finish(t);
	if (atomic_load(&f->map))
		munmap(atomic_load(&f->map), (size_t)t->size);
	if (f->fd >= 0)
		close(f->fd);
	if (f->fd_buffered >= 0)
		close(f->fd_buffered);
	free(f->path);
	free(f);
}

/*
 * Before each job (every worker attaches when its job starts) the run's
 * access hint (random or sequential, fio's fadvise_hint) is given to a
 * buffered file, so random reads do not drag read-ahead along.
 */
static int file_attach(struct rl_target *t, struct rl_exec *ex)
{
	struct file_state *f = t->priv;

	(void)ex;
	if (!f->direct && !f->blockdev && f->access_hint)
		(void)posix_fadvise(f->fd, 0, 0, f->access_hint);
	return 0;
}

/*
 * fio's invalidate=1: a file drops its cached pages when a job starts and
 * at each pass over the file, so a job reads from the device rather than
 * from what the layout, an earlier job or an earlier pass left in the page
 * cache.  Dirty pages are only queued for writeback, as in fio.  At the
 * start fio drops them for direct I/O too (td_io_open_file), and that
 * matters: a direct write over a range with cached pages cannot be done
 * without waiting (io_uring's non-blocking try fails and the write goes to
 * a kernel worker), so pages the layout left would make every write of a
 * direct job slower than fio's.  At later passes (loop_cache_invalidate)
 * fio leaves direct files alone.
 */
static void file_drop_cache(struct rl_target *t, bool open)
{
	struct file_state *f = t->priv;

	if ((open || !f->direct) && !f->blockdev)
		(void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
}

static const struct rl_target_ops file_ops = {
    .name = "file",
    .ctx_size = sizeof(struct iovec),
    .submit = file_submit,
    .attach = file_attach,
    .drop_cache = file_drop_cache,
    .describe = file_describe,
    .finish = file_finish,
    .destroy = file_destroy,
};

/* Fill a new file with incompressible data so reads touch real blocks. */
static int file_layout(int fd, uint64_t size)
{
	const size_t chunk = 1u << 20;
	uint64_t *buf = malloc(chunk);
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t off = 0; off < size && !rc; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;
		for (size_t i = 0; i < chunk / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		for (size_t done = 0; done < n;) {
			ssize_t w =
			    pwrite(fd, (uint8_t *)buf + done, n - done, (off_t)(off + done));
			if (w <= 0) {
				rc = w < 0 ? -errno : -EIO;
				break;
			}
			done += (size_t)w;
		}
	}
	free(buf);
	if (!rc && fsync(fd))
		rc = -errno;
	return rc;
}

static uint32_t file_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align >= 512)
		return sx.stx_dio_offset_align;
#endif
	(void)fd;
	return 512;
}

/*
 * Reserve @size bytes of a new (or emptied) file as fio's fallocate= says:
 * native is fallocate(2) mode 0, posix posix_fallocate(3), keep
 * fallocate(2) keeping the size, truncate an ftruncate(2), none nothing.
 * Where the filesystem cannot allocate, the file stays sparse (fio goes on
 * too).
 */
static int file_reserve(int fd, int mode, uint64_t size)
{
	int rc = 0;

	if (mode == FILE_FALLOC_NATIVE || mode == FILE_FALLOC_KEEP)
		rc = fallocate(fd, mode == FILE_FALLOC_KEEP ? FALLOC_FL_KEEP_SIZE : 0, 0,
		               (off_t)size)
		         ? errno
		         : 0;
	else if (mode == FILE_FALLOC_POSIX)
		rc = posix_fallocate(fd, 0, (off_t)size);
	else if (mode == FILE_FALLOC_TRUNCATE)
		rc = ftruncate(fd, (off_t)size) ? errno : 0;
	return rc == EOPNOTSUPP || rc == EINVAL ? 0 : -rc;
}

/*
 * The content of a new (or emptied) file of @size bytes on @fd: its blocks
 * reserved (fallocate=), then sized and written when a job reads it, only
 * sized when the jobs only write, as fio lays out a file.
 */
static int file_fill(int fd, struct rl_target *t, uint64_t size, int falloc,
                     const struct rl_build_ctx *ctx)
{
	int rc = file_reserve(fd, falloc, size);

	if (rc)
		return rc;
	if (!ctx->write_only) {
		t->caps |= RL_CAP_FRESH; /* an array over it has to resync */
		return ftruncate(fd, (off_t)size) ? -errno : file_layout(fd, size);
	}
	/* Nothing will read it: the file only needs its size (sparse where not reserved). */
	return ftruncate(fd, (off_t)size) ? -errno : 0;
}

/*
 * An existing regular file shorter than @want_size, already open, locked and
 * checked as one a job writes to: emptied and filled again at @want_size,
 * as fio lays out such a file (it removes it and makes a new one; here the
 * same file is emptied, so its owner, mode and links stay).  Sets *st to it.
 */
static int file_regrow(struct file_state *f, struct rl_target *t, uint64_t want_size,
                       const struct rl_build_ctx *ctx, struct stat *st, size_t pos,
                       struct rl_err *err)
{
	int wfd = open(f->path, O_WRONLY | O_CLOEXEC), rc;

	if (wfd < 0) {
		int e = errno;
		rl_err_set(err, pos, "cannot open %s to lay it out: %s", f->path, strerror(e));
		return -e;
	}
	rc = ftruncate(wfd, 0) ? -errno : file_fill(wfd, t, want_size, f->falloc, ctx);
	(void)posix_fadvise(wfd, 0, 0, POSIX_FADV_DONTNEED); /* as fio after a layout */
	close(wfd);
	if (rc) {
		rl_err_set(err, pos, "cannot lay out %s at %llu bytes: %s", f->path,
		           (unsigned long long)want_size, strerror(-rc));
		return rc;
	}
	f->laid_out = true;
	if (fstat(f->fd, st)) {
		int e = errno;
		rl_err_set(err, pos, "cannot stat %s: %s", f->path, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * A missing file: created with @want_size, marked as raidlab's, and laid out
 * (or only allocated when nothing will read it).  Sets *st to the new file.
 */
static int file_make(struct file_state *f, struct rl_target *t, uint64_t want_size,
                     const struct rl_build_ctx *ctx, struct stat *st, size_t pos,
                     struct rl_err *err)
{
	int rc;

	if (!want_size && ctx->size_pct)
		return rl_err_set(
		    err, pos,
		    "%s does not exist, and size=%u%% is a share of an existing file; "
		    "give the new file a size in bytes, e.g. --size=1g or "
		    "file(%s, size=1g)",
		    f->path, (unsigned)ctx->size_pct, f->path);
	if (!want_size)
		return rl_err_set(err, pos,
		                  "%s does not exist; give a size to create it, e.g. "
		                  "file(%s, size=1g)",
		                  f->path, f->path);
	int cfd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (cfd < 0) {
		int e = errno;
		rl_err_set(err, pos, "cannot create %s: %s", f->path, strerror(e));
		return -e;
	}
	f->created = true;
	rl_safety_mark_file(cfd);
	rc = file_fill(cfd, t, want_size, f->falloc, ctx);
	/* fio drops the new file's pages once laid out, whatever invalidate says */
	(void)posix_fadvise(cfd, 0, 0, POSIX_FADV_DONTNEED);
	close(cfd);
	if (rc) {
		rl_err_set(err, pos, "cannot lay out %s: %s", f->path, strerror(-rc));
		return rc;
	}
	if (stat(f->path, st)) {
		int e = errno;
		rl_err_set(err, pos, "cannot stat %s: %s", f->path, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * Open the path.  A device we write is claimed (O_EXCL): the kernel refuses
 * if it is mounted or held, and nobody else can claim it while we run.
 */
static int file_open_fd(struct file_state *f, const struct rl_build_ctx *ctx, size_t pos,
                        struct rl_err *err)
{
	int flags = (ctx->write_intent ? O_RDWR : O_RDONLY) | (f->direct ? O_DIRECT : 0);
	char found[512];

	if (f->blockdev && ctx->write_intent)
		flags |= O_EXCL;
	f->fd = open(f->path, flags | O_CLOEXEC);
	if (f->fd < 0 && errno == EBUSY && (flags & O_EXCL)) {
		int probe = open(f->path, O_RDONLY | O_CLOEXEC);
		if (probe < 0 ||
		    rl_safety_check_in_use(f->path, probe, false, found, sizeof(found)) <= 0)
			snprintf(found, sizeof(found),
			         "the kernel refused an exclusive open (it is mounted, or claimed "
			         "by md, dm or another program)");
		if (probe >= 0)
			close(probe);
		rl_err_set(err, pos,
		           "refusing to write to %s: %s; --force-destroy does not override this",
		           f->path, found);
		return -EBUSY;
	}
	if (f->fd < 0 && errno == EINVAL && f->direct && ctx->buffered_ok) {
		f->direct = false;
		f->fd = open(f->path, (flags & ~O_DIRECT) | O_CLOEXEC);
	}
	if (f->fd < 0) {
		if (errno == EINVAL && f->direct)
			return rl_err_set(err, pos,
			                  "cannot open %s with O_DIRECT (the filesystem does not "
			                  "support it); use direct=0",
			                  f->path);
		int e = errno;
		rl_err_set(err, pos, "cannot open %s: %s", f->path, strerror(e));
		return -e;
	}
	return 0;
}

/*
 * Size and logical block size of the open file or device, limited to
 * @want_size.  A regular file read through the page cache takes 512-byte
 * blocks, or any byte with @any_byte (rl_build_ctx.byte_blocks).
 */
static int file_measure(struct file_state *f, struct rl_target *t, const struct stat *st,
                        uint64_t want_size, bool any_byte, size_t pos, struct rl_err *err)
{
	if (f->blockdev) {
		uint64_t bytes = 0;
		int ss = 512;
		if (ioctl(f->fd, BLKGETSIZE64, &bytes) || ioctl(f->fd, BLKSSZGET, &ss))
			return rl_err_set(err, pos, "cannot read the size of %s: %s", f->path,
			                  strerror(errno));
		t->size = bytes;
		t->block_size = (uint32_t)ss;
	} else {
		t->size = (uint64_t)st->st_size;
		t->block_size = f->direct ? file_dio_align(f->fd) : any_byte ? 1 : 512;
	}
	t->caps |= RL_CAP_TRIM;
	if (f->direct)
		t->caps |= RL_CAP_DIRECT;
	if (want_size) {
		if (want_size > t->size)
			return rl_err_set(
			    err, pos, "%s holds %llu bytes, less than the size=%llu asked for",
			    f->path, (unsigned long long)t->size, (unsigned long long)want_size);
		t->size = want_size;
	}
	t->size = t->size / t->block_size * t->block_size;
	if (!t->size)
		return rl_err_set(err, pos, "%s is empty", f->path);
	return 0;
}

/* Holds data: writing is refused unless --force-destroy. */
static int file_check_data(struct file_state *f, const struct rl_build_ctx *ctx, size_t pos,
                           struct rl_err *err)
{
	char found[512];
	int rc = rl_safety_check_signature(f->path, ctx->md_members ? "linux_raid_member" : NULL,
	                                   found, sizeof(found));

	if (rc < 0) {
		rl_err_set(err, pos,
		           "cannot check %s for existing data (%s); refusing to write "
		           "without --force-destroy",
		           f->path, strerror(-rc));
		return -EPERM;
	}
	if (rc > 0) {
		rl_err_set(err, pos,
		           "refusing to write to %s: %s; pass --force-destroy to "
		           "overwrite it",
		           f->path, found);
		return -EPERM;
	}
	return 0;
}

static int file_open(struct file_state *f, struct rl_target *t, uint64_t want_size,
                     const struct rl_build_ctx *ctx, size_t pos, struct rl_err *err)
{
	struct stat st;
	bool exists = stat(f->path, &st) == 0;
	char found[512];
	int rc;

	if (exists && S_ISDIR(st.st_mode))
		return rl_err_set(err, pos,
		                  "%s is a folder, not a file or device: jobs take --directory=%s "
		                  "(or a file in it: file(%s/test.img, size=1g)); file suites take "
		                  "dir(%s)",
		                  f->path, f->path, f->path, f->path);
	if (exists && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return rl_err_set(err, pos, "%s is neither a regular file nor a block device",
		                  f->path);
	if (!exists && !f->create)
		return rl_err_set(err, pos, "%s does not exist, and create=0 (allow_file_create=0)",
		                  f->path);
	if (!exists && (rc = file_make(f, t, want_size, ctx, &st, pos, err)))
		return rc;
	f->blockdev = S_ISBLK(st.st_mode);
	bool grow = exists && S_ISREG(st.st_mode) && want_size > (uint64_t)st.st_size;
	if (grow && (!f->create || !f->extend))
		return rl_err_set(
		    err, pos,
		    "%s holds %llu bytes, less than the size=%llu asked for, and %s "
		    "keeps it from being laid out again",
		    f->path, (unsigned long long)st.st_size, (unsigned long long)want_size,
		    !f->create ? "create=0 (allow_file_create=0)" : "extend=0 (create_on_open=1)");
	/* laying it out again writes it: the checks for writing apply */
	struct rl_build_ctx wctx = *ctx;
	wctx.write_intent |= grow;
	ctx = &wctx;
	if ((rc = file_open_fd(f, ctx, pos, err)) ||
	    (!grow && (rc = file_measure(f, t, &st, want_size, ctx->byte_blocks, pos, err))))
		return rc;
	/* In use: refused whatever --force-destroy says. */
	rc = rl_safety_lock(f->fd, ctx->write_intent && !ctx->shared, found, sizeof(found));
	if (rc < 0 && rc != -ENOLCK && rc != -EOPNOTSUPP) {
		rl_err_set(err, pos, "cannot lock %s: %s", f->path, strerror(-rc));
		return rc;
	}
	if (rc > 0) {
		rl_err_set(err, pos, "refusing to %s %s: %s",
		           ctx->write_intent ? "write to" : "read", f->path, found);
		return -EBUSY;
	}
	if (ctx->write_intent && !f->created &&
	    rl_safety_check_in_use(f->path, f->fd, ctx->shared, found, sizeof(found)) > 0) {
		rl_err_set(err, pos,
		           "refusing to write to %s: %s; --force-destroy does not override this",
		           f->path, found);
		return -EBUSY;
	}
	if (ctx->write_intent && !f->created && !ctx->force_destroy &&
	    (rc = file_check_data(f, ctx, pos, err)))
		return rc;
	if (grow && ((rc = file_regrow(f, t, want_size, ctx, &st, pos, err)) ||
	             (rc = file_measure(f, t, &st, want_size, ctx->byte_blocks, pos, err))))
		return rc;
	f->writable = ctx->write_intent;
	if (f->direct && ctx->also_buffered) {
		/* the checks above hold for it too: the same file, already locked */
		f->fd_buffered = open(f->path, (ctx->write_intent ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (f->fd_buffered < 0) {
			int e = errno;
			rl_err_set(err, pos, "cannot open %s: %s", f->path, strerror(e));
			return -e;
		}
		/* through the page cache a regular file takes any byte */
		if (ctx->byte_blocks && !f->blockdev)
			t->caps |= RL_CAP_BYTES;
	}
	return 0;
}

static const struct rl_param file_params[] = {
    {.name = "size",
     .type = RL_PARAM_SIZE,
     .def_note = "the whole file, or the size the run needs to create one",
     .help = "a missing file is created this large; an existing file or device is used up to "
             "this size"},
    {.name = "direct",
     .type = RL_PARAM_BOOL,
     .def_note = "on (the job's `direct`)",
     .help = "open with `O_DIRECT`, bypassing the page cache"},
    {.name = "keep",
     .type = RL_PARAM_BOOL,
     .def_note = "off (`--keep`)",
     .help = "keep a file raidlab created when the run ends"},
    {.name = "unlink",
     .type = RL_PARAM_BOOL,
     .def_note = "off (fio's `unlink`)",
     .help = "remove the regular file when the run ends, even one that existed before"},
    {.name = "create",
     .type = RL_PARAM_BOOL,
     .def_note = "on (fio's `allow_file_create`)",
     .help = "create the file if it does not exist; off: a missing file is an error"},
    {.name = "extend",
     .type = RL_PARAM_BOOL,
     .def_note = "on (off: fio's `create_on_open=1`)",
     .help = "lay out again, at size=, an existing regular file shorter than size= (its "
             "content is replaced), when it may be written to; off: such a file is an error"},
    {.name = "fallocate",
     .type = RL_PARAM_ENUM,
     .choices = file_falloc_names,
     .def_note = "native (fio's `fallocate`)",
     .help = "how a file raidlab creates or lays out again reserves its blocks first: "
             "`native` fallocate(2), `posix` posix_fallocate(3), `keep` fallocate(2) keeping "
             "the size, `truncate` ftruncate(2), `none` nothing"},
    {0},
};

static int file_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	const char *path;
	uint64_t size = 0;
	bool direct = ctx->direct, keep = ctx->keep, unl = false, create = true, extend = true;
	int rc, falloc = FILE_FALLOC_NATIVE;

	if (node->is_call) {
		if (node->nargs != 1 || node->args[0]->is_call)
			return rl_err_set(
			    err, node->pos,
			    "file takes exactly one path, e.g. file(/tmp/t.img, size=1g)");
		path = node->args[0]->name;
		if ((rc = rl_param_u64(node, file_params, "size", &size, err)) ||
		    (rc = rl_param_bool(node, file_params, "direct", &direct, err)) ||
		    (rc = rl_param_bool(node, file_params, "keep", &keep, err)) ||
		    (rc = rl_param_bool(node, file_params, "unlink", &unl, err)) ||
		    (rc = rl_param_bool(node, file_params, "create", &create, err)) ||
		    (rc = rl_param_bool(node, file_params, "extend", &extend, err)) ||
		    (rc = rl_param_enum(node, file_params, "fallocate", &falloc, err)) ||
		    (rc = rl_params_check(node, file_params, err)))
			return rc;
	} else {
		path = node->name;
	}
	if (!size && ctx->default_file_size && access(path, F_OK) != 0)
		size = ctx->default_file_size;

	struct file_state *f = calloc(1, sizeof(*f));
	struct rl_target *t = rl_target_alloc(&file_ops, 0);
	if (!f || !t || !(f->path = strdup(path))) {
		if (f)
			free(f->path);
		free(f);
		free(t);
		return -ENOMEM;
	}
	f->fd = -1;
	f->fd_buffered = -1;
	f->direct = direct;
	f->keep = keep;
	f->create = create;
	f->extend = extend;
	f->falloc = falloc;
	t->priv = f;
	t->caps = RL_CAP_FLUSH | RL_CAP_DATA | RL_CAP_REAL;
	f->access_hint = ctx->access_hint;
	rc = file_open(f, t, size, ctx, node->is_call ? node->args[0]->pos : node->pos, err);
	if (rc) {
		rl_target_close(t);
		return rc;
	}
	f->unlink = unl; /* only a file that passed every check may be removed */
	*out = t;
	return 0;
}

static struct rl_target_type file_type = {
    .name = "file",
    .summary = "a regular file or block device (a plain path means the same)",
    .args = "PATH",
    .params = file_params,
    .create = file_create,
};
RL_TARGET_REGISTER(file_type)
