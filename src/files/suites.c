/*
 * suites.c - the file suites: asssd-copy, fc-test, untar, vm-clone,
 * game-load (files.h; definitions and sources in docs/suites.md).
 *
 * Every measured phase follows one recipe: build the data set (not
 * measured), sync, drop the page cache, start the clock, do the file work,
 * stop the data clock, syncfs, stop the sync clock.  The figure counts both
 * (the data is not stored until writeback is done); the data phase alone is
 * kept as cached_mb_s, which is what a tool that trusts the OS cache
 * (AS SSD copies with the OS's cached copy functions) would show for small
 * sets.  What was copied or extracted is verified against the generator
 * before the set is removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files/fops.h"

#define FS_SAMPLE 16 /* files whose full contents are verified, per set */

/* --- shared pieces --- */

static void fs_progress(struct files_run *r, const char *test, const char *phase)
{
	fops_progress(r, test, phase);
}

static bool fs_stopped(const struct files_run *r)
{
	return r->stop && *r->stop;
}

/*
 * Check what was written against the generator, from the storage: the page
 * cache is dropped first, so the sample is read back from the stack.
 */
static void fs_verify_phase(struct files_run *r)
{
	fs_progress(r, NULL, "verify");
	fops_drop(r);
}

/* Remove @path (the phase "remove"); after Ctrl-C the teardown does it. */
static void fs_remove(struct files_run *r, const char *path)
{
	if (fs_stopped(r))
		return;
	fs_progress(r, NULL, "remove");
	fops_remove(r, path);
}

static struct json_object *fs_num(double v)
{
	return json_object_new_double(v);
}

/* A direction object: bytes and files moved in data_ns, then sync_ns of writeback. */
static struct json_object *fs_dir(uint64_t bytes, uint64_t files, uint64_t data_ns,
                                  uint64_t sync_ns)
{
	struct json_object *o = json_object_new_object(), *lat = json_object_new_object();
	double t = (double)(data_ns + sync_ns) / 1e9, td = (double)data_ns / 1e9;

	json_object_object_add(o, "mb_s", fs_num(t > 0 ? (double)bytes / 1e6 / t : 0));
	json_object_object_add(o, "iops", fs_num(t > 0 ? (double)files / t : 0));
	json_object_object_add(lat, "mean", fs_num(files ? t * 1e6 / (double)files : 0));
	json_object_object_add(o, "lat_us", lat);
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(o, "files", json_object_new_int64((int64_t)files));
	json_object_object_add(o, "time_s", fs_num(t));
	json_object_object_add(o, "data_s", fs_num(td));
	json_object_object_add(o, "sync_s", fs_num((double)sync_ns / 1e9));
	json_object_object_add(o, "cached_mb_s", fs_num(td > 0 ? (double)bytes / 1e6 / td : 0));
	return o;
}

/* A test object for @s: name, pattern, set, files, folders, bytes, and @key = @dir. */
static struct json_object *fs_test(struct files_run *r, const char *name, const char *pattern,
                                   const struct fset *s, const char *key, struct json_object *dir)
{
	struct json_object *t = json_object_new_object();

	json_object_object_add(t, "name", json_object_new_string(name));
	json_object_object_add(t, "pattern", json_object_new_string(pattern));
	json_object_object_add(t, "data_set", json_object_new_string(s->shape->name));
	json_object_object_add(t, "files", json_object_new_int64((int64_t)s->nfiles));
	json_object_object_add(t, "folders", json_object_new_int64((int64_t)s->ndirs));
	json_object_object_add(t, "bytes", json_object_new_int64((int64_t)s->bytes));
	json_object_object_add(t, key, dir);
	json_object_array_add(r->tests, t);
	return t;
}

static int fs_build(struct files_run *r, const char *shape, struct fset *s)
{
	int rc = fset_build(fset_shape_find(shape), r->scale, r->seed, r->compress, s);

	if (rc)
		snprintf(r->msg, sizeof(r->msg), "cannot build data set %s: %s", shape,
		         strerror(-rc));
	return rc;
}

static int fs_mkdir(struct files_run *r, const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		int rc = -errno;
		snprintf(r->msg, sizeof(r->msg), "cannot create %.300s: %s", path, strerror(-rc));
		return rc;
	}
	return 0;
}

/* Write @s under @dir (created), sync and drop the cache: the set is on disk, cold. */
static int fs_stage(struct files_run *r, const struct fset *s, const char *dir)
{
	uint64_t ns;
	int rc = fs_mkdir(r, dir);

	if (!rc)
		rc = fops_write(r, s, dir);
	if (!rc)
		rc = fops_sync(r, dir, &ns);
	if (!rc)
		fops_drop(r);
	return rc;
}

static uint64_t fs_largest_set(const char *const *names, size_t n)
{
	uint64_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct fset_shape *sh = fset_shape_find(names[i]);
		m = sh->total > m ? sh->total : m;
	}
	return m;
}

/* Room for two copies of the largest set, plus metadata slack. */
static uint64_t fs_need_two(const char *const *names, size_t n, double scale)
{
	return (uint64_t)(2.2 * (double)fs_largest_set(names, n) * scale) + (32ull << 20);
}

/* Copy set @shape from DIR/NAME-src to DIR/NAME-copy, measured; verify; remove both. */
static int fs_copy_test(struct files_run *r, const char *name, const char *shape,
                        const char *test_name)
{
	char src[4096], dst[4096];
	struct fset s;
	uint64_t t0, t1, sync_ns = 0;
	unsigned verified = 0;
	int rc;

	if ((rc = fs_build(r, shape, &s)))
		return rc;
	snprintf(src, sizeof(src), "%s/%s-src", r->work, name);
	snprintf(dst, sizeof(dst), "%s/%s-copy", r->work, name);
	fs_progress(r, test_name, "create");
	rc = fs_stage(r, &s, src);
	if (!rc) {
		fs_progress(r, test_name, "copy");
		t0 = files_clock_ns(r);
		rc = fops_copy(r, &s, src, dst);
		t1 = files_clock_ns(r);
		if (!rc)
			rc = fops_sync(r, dst, &sync_ns);
	}
	if (!rc) {
		fs_verify_phase(r);
		rc = fops_verify(r, &s, dst, FS_SAMPLE, &verified);
	}
	if (!rc) {
		struct json_object *t = fs_test(r, test_name, "copy", &s, "write",
		                                fs_dir(s.bytes, s.nfiles, t1 - t0, sync_ns));
		json_object_object_add(t, "verified_files", json_object_new_int((int)verified));
	}
	if (!r->keep_data) {
		fs_remove(r, src);
		fs_remove(r, dst);
	}
	fset_free(&s);
	return rc;
}

/* --- asssd-copy --- */

static const char *const asssd_sets[] = {"asssd-iso", "asssd-program", "asssd-game"};

static uint64_t asssd_need(double scale)
{
	return fs_need_two(asssd_sets, 3, scale);
}

static int asssd_run(struct files_run *r)
{
	static const char *const names[] = {"ISO", "Program", "Game"};
	int rc = 0;

	for (size_t i = 0; !rc && i < 3; i++)
		rc = fs_copy_test(r, names[i], asssd_sets[i], names[i]);
	return rc;
}

/* --- fc-test --- */

static const char *const fc_sets[] = {"fc-iso", "fc-mp3", "fc-prog", "fc-win"};

static uint64_t fc_need(double scale)
{
	return fs_need_two(fc_sets, 4, scale);
}

static int fc_one(struct files_run *r, const char *tmpl, const char *shape)
{
	char src[4096], dst[4096], name[64];
	struct fset s;
	uint64_t t0, t1, sync_ns = 0;
	unsigned verified = 0;
	int rc;

	if ((rc = fs_build(r, shape, &s)))
		return rc;
	snprintf(src, sizeof(src), "%s/%s-src", r->work, tmpl);
	snprintf(dst, sizeof(dst), "%s/%s-copy", r->work, tmpl);
	/* create */
	snprintf(name, sizeof(name), "%s create", tmpl);
	fs_progress(r, name, "create");
	fops_drop(r);
	rc = fs_mkdir(r, src);
	t0 = files_clock_ns(r);
	if (!rc)
		rc = fops_write(r, &s, src);
	t1 = files_clock_ns(r);
	if (!rc)
		rc = fops_sync(r, src, &sync_ns);
	if (!rc)
		fs_test(r, name, "create", &s, "write",
		        fs_dir(s.bytes, s.nfiles, t1 - t0, sync_ns));
	/* read */
	if (!rc) {
		snprintf(name, sizeof(name), "%s read", tmpl);
		fs_progress(r, name, "read");
		fops_drop(r);
		t0 = files_clock_ns(r);
		rc = fops_read(r, &s, src, NULL, 0, s.nfiles);
		t1 = files_clock_ns(r);
		if (!rc)
			fs_test(r, name, "read", &s, "read", fs_dir(s.bytes, s.nfiles, t1 - t0, 0));
	}
	/* copy within the volume */
	if (!rc) {
		snprintf(name, sizeof(name), "%s copy", tmpl);
		fs_progress(r, name, "copy");
		fops_drop(r);
		t0 = files_clock_ns(r);
		rc = fops_copy(r, &s, src, dst);
		t1 = files_clock_ns(r);
		if (!rc)
			rc = fops_sync(r, dst, &sync_ns);
		if (!rc) {
			fs_verify_phase(r);
			rc = fops_verify(r, &s, dst, FS_SAMPLE, &verified);
		}
		if (!rc) {
			struct json_object *t =
			    fs_test(r, name, "copy", &s, "write",
			            fs_dir(s.bytes, s.nfiles, t1 - t0, sync_ns));
			json_object_object_add(t, "verified_files",
			                       json_object_new_int((int)verified));
		}
	}
	/* delete both copies */
	if (!rc) {
		snprintf(name, sizeof(name), "%s delete", tmpl);
		fs_progress(r, name, "delete");
		fops_drop(r);
		t0 = files_clock_ns(r);
		rc = fops_delete(r, &s, src);
		if (!rc)
			rc = fops_delete(r, &s, dst);
		t1 = files_clock_ns(r);
		if (!rc)
			rc = fops_sync(r, r->work, &sync_ns);
		if (!rc) {
			struct fset both = s; /* two copies deleted */
			both.nfiles *= 2;
			both.bytes *= 2;
			fs_test(r, name, "delete", &both, "write",
			        fs_dir(both.bytes, both.nfiles, t1 - t0, sync_ns));
		}
	}
	fs_remove(r, src);
	fs_remove(r, dst);
	fset_free(&s);
	return rc;
}

static int fc_run(struct files_run *r)
{
	static const char *const names[] = {"ISO", "MP3", "PROG", "WIN"};
	int rc = 0;

	for (size_t i = 0; !rc && i < 4; i++)
		rc = fc_one(r, names[i], fc_sets[i]);
	return rc;
}

/* --- untar --- */

static uint64_t untar_need(double scale)
{
	/* the archive (data + one 512-byte header per entry) and the extracted tree */
	const struct fset_shape *sh = fset_shape_find("untar");
	return (uint64_t)(2.3 * (double)sh->total * scale) + (64ull << 20);
}

/* A ustar header for @path (a folder when @dir) of @size bytes. */
static int tar_header(unsigned char h[512], const char *path, bool dir, uint64_t size)
{
	size_t len = strlen(path), cut = 0;
	unsigned sum = 0;

	memset(h, 0, 512);
	if (len > 100) {
		/* split at a '/' so that name <= 100 and prefix <= 155 */
		for (size_t i = 0; i < len && i <= 155; i++)
			if (path[i] == '/' && len - i - 1 <= 100)
				cut = i;
		if (!cut)
			return -ENAMETOOLONG;
		memcpy(h + 345, path, cut);
		memcpy(h, path + cut + 1, len - cut - 1);
	} else {
		memcpy(h, path, len);
	}
	snprintf((char *)h + 100, 8, "%07o", dir ? 0755u : 0644u);
	snprintf((char *)h + 108, 8, "%07o", 0u);
	snprintf((char *)h + 116, 8, "%07o", 0u);
	snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)size);
	snprintf((char *)h + 136, 12, "%011llo", 1700000000ull); /* a fixed mtime: deterministic */
	h[156] = dir ? '5' : '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	return 0;
}

/* Write @s as a ustar archive to @path (folders first, then files). */
static int tar_write(struct files_run *r, const struct fset *s, const char *path)
{
	unsigned char h[512], *buf = malloc(FOPS_CHUNK);
	char name[4096];
	FILE *f = fopen(path, "we");
	int rc = 0;

	if (!f || !buf) {
		rc = f ? -ENOMEM : -errno;
		snprintf(r->msg, sizeof(r->msg), "cannot create %.300s: %s", path, strerror(-rc));
		goto out;
	}
	for (size_t j = 1; !rc && j < s->ndirs; j++) {
		snprintf(name, sizeof(name), "%s/", s->dirs[j]);
		rc = tar_header(h, name, true, 0);
		if (!rc && fwrite(h, 1, 512, f) != 512)
			rc = -EIO;
	}
	for (size_t i = 0; !rc && i < s->nfiles; i++) {
		const struct fset_file *fl = &s->files[i];
		if (fs_stopped(r)) {
			rc = -EINTR;
			break;
		}
		rc = tar_header(h, fl->path, false, fl->size);
		if (!rc && fwrite(h, 1, 512, f) != 512)
			rc = -EIO;
		for (uint64_t off = 0; !rc && off < fl->size; off += FOPS_CHUNK) {
			size_t n =
			    fl->size - off < FOPS_CHUNK ? (size_t)(fl->size - off) : FOPS_CHUNK;
			if (fs_stopped(r)) {
				rc = -EINTR;
				break;
			}
			fset_fill(s, fl, off, buf, n);
			if (fwrite(buf, 1, n, f) != n)
				rc = -EIO;
		}
		size_t pad = (size_t)((512 - fl->size % 512) % 512);
		memset(h, 0, sizeof(h));
		if (!rc && pad && fwrite(h, 1, pad, f) != pad)
			rc = -EIO;
	}
	memset(h, 0, sizeof(h));
	for (int k = 0; !rc && k < 2; k++)
		if (fwrite(h, 1, 512, f) != 512)
			rc = -EIO;
	if (rc && rc != -EINTR)
		snprintf(r->msg, sizeof(r->msg), "cannot write archive %.300s: %s", path,
		         strerror(-rc));
out:
	if (f && fclose(f) && !rc) {
		rc = -errno;
		snprintf(r->msg, sizeof(r->msg), "cannot write archive %.300s: %s", path,
		         strerror(-rc));
	}
	free(buf);
	return rc;
}

static int untar_run(struct files_run *r)
{
	char tarp[4096], dst[4096];
	struct fset s;
	struct stat st;
	uint64_t t0, t1, sync_ns = 0;
	unsigned verified = 0;
	int rc;

	if ((rc = fs_build(r, "untar", &s)))
		return rc;
	snprintf(tarp, sizeof(tarp), "%s/tree.tar", r->work);
	snprintf(dst, sizeof(dst), "%s/tree", r->work);
	fs_progress(r, "Extract", "archive");
	rc = tar_write(r, &s, tarp);
	if (!rc)
		rc = fops_sync(r, r->work, &sync_ns);
	if (!rc)
		rc = fs_mkdir(r, dst);
	if (!rc) {
		char *argv[] = {"tar", "-x", "-f", tarp, "-C", dst, NULL};
		fops_drop(r);
		fs_progress(r, "Extract", "tar -x");
		t0 = files_clock_ns(r);
		rc = fops_spawn(r, argv);
		t1 = files_clock_ns(r);
		if (!rc)
			rc = fops_sync(r, dst, &sync_ns);
	}
	if (!rc) {
		fs_verify_phase(r);
		rc = fops_verify(r, &s, dst, FS_SAMPLE, &verified);
	}
	if (!rc) {
		struct json_object *t = fs_test(r, "Extract", "untar", &s, "write",
		                                fs_dir(s.bytes, s.nfiles, t1 - t0, sync_ns));
		json_object_object_add(t, "verified_files", json_object_new_int((int)verified));
		if (!stat(tarp, &st))
			json_object_object_add(t, "archive_bytes",
			                       json_object_new_int64((int64_t)st.st_size));
		json_object_object_add(t, "tool", json_object_new_string("tar -x"));
	}
	if (!r->keep_data) {
		fs_remove(r, tarp);
		fs_remove(r, dst);
	}
	fset_free(&s);
	return rc;
}

/* --- vm-clone --- */

#define VM_ALIGN (64u << 10)

struct vm_extent {
	uint64_t off, len;
};

/* Allocated extents of the image: 1-64 MiB (scaled, >= 64 KiB) with gaps of 1.5x on average. */
static size_t vm_extents(const struct fset *s, struct vm_extent **out)
{
	const struct fset_file *f = &s->files[0];
	uint64_t st = f->key, virt = f->size, off = 0;
	double sc = (double)virt / (double)s->shape->total;
	uint64_t lo = (uint64_t)((double)s->shape->cls[0].min * sc),
	         hi = (uint64_t)((double)s->shape->cls[0].max * sc);
	size_t n = 0, cap = 0;
	struct vm_extent *e = NULL;

	lo = lo < VM_ALIGN ? VM_ALIGN : lo;
	hi = hi < 2 * lo ? 2 * lo : hi;
	while (off < virt) {
		uint64_t len = lo + fset_rand(&st) % (hi - lo);
		uint64_t gap =
		    (uint64_t)((double)len * 3.0 * (double)(fset_rand(&st) % 1000) / 1000);
		len = (len + VM_ALIGN - 1) / VM_ALIGN * VM_ALIGN;
		gap = gap / VM_ALIGN * VM_ALIGN;
		if (off + len > virt)
			len = virt - off;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			struct vm_extent *ne = realloc(e, cap * sizeof(*e));
			if (!ne) {
				free(e);
				*out = NULL;
				return 0;
			}
			e = ne;
		}
		e[n++] = (struct vm_extent){off, len};
		off += len + gap;
	}
	*out = e;
	return n;
}

static int vm_write(struct files_run *r, const struct fset *s, const struct vm_extent *e, size_t n,
                    const char *path)
{
	unsigned char *buf = malloc(FOPS_CHUNK);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc = 0;

	if (fd < 0 || !buf) {
		rc = fd < 0 ? -errno : -ENOMEM;
		snprintf(r->msg, sizeof(r->msg), "cannot create %.300s: %s", path, strerror(-rc));
		goto out;
	}
	if (ftruncate(fd, (off_t)s->files[0].size)) {
		rc = -errno;
		snprintf(r->msg, sizeof(r->msg), "cannot size %.300s: %s", path, strerror(-rc));
		goto out;
	}
	for (size_t i = 0; !rc && i < n; i++)
		for (uint64_t at = e[i].off; !rc && at < e[i].off + e[i].len; at += FOPS_CHUNK) {
			uint64_t end = e[i].off + e[i].len;
			size_t k = end - at < FOPS_CHUNK ? (size_t)(end - at) : FOPS_CHUNK;
			if (fs_stopped(r)) {
				rc = -EINTR;
				break;
			}
			fset_fill(s, &s->files[0], at, buf, k);
			if (pwrite(fd, buf, k, (off_t)at) != (ssize_t)k) {
				rc = -EIO;
				snprintf(r->msg, sizeof(r->msg), "cannot write %.300s", path);
			}
		}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* Copy @src to @dst keeping holes (SEEK_DATA / SEEK_HOLE); bytes of data in *copied. */
static int vm_clone_sparse(struct files_run *r, const char *src, const char *dst, uint64_t *copied)
{
	unsigned char *buf = malloc(FOPS_CHUNK);
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = 0;
	struct stat st;
	off_t pos = 0;

	*copied = 0;
	if (in < 0 || !buf || fstat(in, &st)) {
		rc = !buf ? -ENOMEM : -errno;
		goto out;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0 || ftruncate(out, st.st_size)) {
		rc = -errno;
		goto out;
	}
	while (!rc && pos < st.st_size) {
		off_t data = lseek(in, pos, SEEK_DATA), hole;
		if (data < 0)
			break; /* ENXIO: only a hole is left */
		hole = lseek(in, data, SEEK_HOLE);
		hole = hole < 0 ? st.st_size : hole;
		for (off_t at = data; !rc && at < hole; at += FOPS_CHUNK) {
			size_t k = hole - at < FOPS_CHUNK ? (size_t)(hole - at) : FOPS_CHUNK;
			if (fs_stopped(r)) {
				rc = -EINTR;
				break;
			}
			if (pread(in, buf, k, at) != (ssize_t)k ||
			    pwrite(out, buf, k, at) != (ssize_t)k)
				rc = -EIO;
			*copied += k;
		}
		pos = hole;
	}
out:
	if (rc && rc != -EINTR)
		snprintf(r->msg, sizeof(r->msg), "cannot clone %.200s to %.200s: %s", src, dst,
		         strerror(-rc));
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) && !rc)
		rc = -errno;
	free(buf);
	return rc;
}

/* The clone's data on a sample of extents equals the generator, and a sample of gaps reads zero. */
static int vm_verify(struct files_run *r, const struct fset *s, const struct vm_extent *e, size_t n,
                     const char *path, unsigned *verified)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	unsigned char z[4096];
	struct stat st;
	size_t step = n / FS_SAMPLE ? n / FS_SAMPLE : 1;

	*verified = 0;
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(r->msg, sizeof(r->msg), "cannot open %.300s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	if ((uint64_t)st.st_size != s->files[0].size) {
		snprintf(r->msg, sizeof(r->msg), "%.300s: size %lld, the image is %llu bytes", path,
		         (long long)st.st_size, (unsigned long long)s->files[0].size);
		close(fd);
		return -EIO;
	}
	for (size_t i = 0; !rc && i < n; i += step) {
		rc = fops_compare_fd(r, s, &s->files[0], fd, e[i].off, e[i].len, path);
		uint64_t gap = e[i].off + e[i].len;
		uint64_t gap_end = i + 1 < n ? e[i + 1].off : s->files[0].size;
		if (!rc && gap_end - gap >= sizeof(z)) {
			if (pread(fd, z, sizeof(z), (off_t)gap) != (ssize_t)sizeof(z)) {
				rc = -EIO;
			} else {
				for (size_t k = 0; k < sizeof(z); k++)
					if (z[k])
						rc = -EIO;
			}
			if (rc)
				snprintf(r->msg, sizeof(r->msg),
				         "%.300s: the hole at byte %llu is not zero", path,
				         (unsigned long long)gap);
		}
		if (!rc)
			(*verified)++;
	}
	close(fd);
	return rc;
}

static uint64_t vm_need(double scale)
{
	/* source and two clones; extents cover well under the virtual size, bound it by it */
	return (uint64_t)(3.0 * (double)fset_shape_find("vm-disk")->total * scale) + (32ull << 20);
}

/* qemu-img on PATH? */
static bool vm_have_qemu_img(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/qemu-img", (int)len, path);
		if (!access(buf, X_OK))
			return true;
		path = end ? end + 1 : NULL;
	}
	return false;
}

static int vm_clone_test(struct files_run *r, const struct fset *s, const struct vm_extent *e,
                         size_t n, const char *img, const char *dst, bool qemu)
{
	const char *name = qemu ? "VM clone (qemu-img)" : "VM clone";
	uint64_t t0, t1, sync_ns = 0, copied = 0, alloc = 0;
	unsigned verified = 0;
	struct stat st;
	int rc;

	for (size_t i = 0; i < n; i++)
		alloc += e[i].len;
	fops_drop(r);
	fs_progress(r, name, "clone");
	t0 = files_clock_ns(r);
	if (qemu) {
		char *argv[] = {"qemu-img", "convert",   "-f",        "raw", "-O",
		                "raw",      (char *)img, (char *)dst, NULL};
		rc = fops_spawn(r, argv);
		copied = alloc;
	} else {
		rc = vm_clone_sparse(r, img, dst, &copied);
	}
	t1 = files_clock_ns(r);
	if (!rc)
		rc = fops_sync(r, r->work, &sync_ns);
	if (!rc) {
		fs_verify_phase(r);
		rc = vm_verify(r, s, e, n, dst, &verified);
	}
	if (!rc) {
		struct json_object *t =
		    fs_test(r, name, "clone", s, "write", fs_dir(alloc, 1, t1 - t0, sync_ns));
		json_object_object_add(t, "virtual_bytes",
		                       json_object_new_int64((int64_t)s->files[0].size));
		json_object_object_add(t, "allocated_bytes", json_object_new_int64((int64_t)alloc));
		json_object_object_add(t, "extents", json_object_new_int64((int64_t)n));
		json_object_object_add(t, "verified_extents", json_object_new_int((int)verified));
		if (!stat(dst, &st))
			json_object_object_add(t, "clone_allocated_bytes",
			                       json_object_new_int64((int64_t)st.st_blocks * 512));
		json_object_object_add(
		    t, "tool", json_object_new_string(qemu ? "qemu-img convert" : "sparse copy"));
		(void)copied;
	}
	if (!r->keep_data)
		fs_remove(r, dst);
	return rc;
}

static int vm_run(struct files_run *r)
{
	char img[4096], dst[4096];
	struct vm_extent *e = NULL;
	struct fset s;
	uint64_t ns;
	size_t n;
	int rc;

	if ((rc = fs_build(r, "vm-disk", &s)))
		return rc;
	/* a disk's size is whole sectors (qemu-img rounds it up otherwise): whole 64 KiB units */
	s.files[0].size =
	    s.files[0].size < VM_ALIGN ? VM_ALIGN : s.files[0].size / VM_ALIGN * VM_ALIGN;
	s.bytes = s.files[0].size;
	n = vm_extents(&s, &e);
	if (!n) {
		fset_free(&s);
		return -ENOMEM;
	}
	snprintf(img, sizeof(img), "%s/disk.img", r->work);
	snprintf(dst, sizeof(dst), "%s/clone.img", r->work);
	fs_progress(r, "VM clone", "image");
	rc = vm_write(r, &s, e, n, img);
	if (!rc)
		rc = fops_sync(r, r->work, &ns);
	if (!rc)
		rc = vm_clone_test(r, &s, e, n, img, dst, false);
	if (!rc && vm_have_qemu_img()) {
		snprintf(dst, sizeof(dst), "%s/clone-qemu.img", r->work);
		rc = vm_clone_test(r, &s, e, n, img, dst, true);
	}
	if (!r->keep_data) {
		fs_progress(r, "VM clone", "remove");
		fs_remove(r, img);
	}
	free(e);
	fset_free(&s);
	return rc;
}

/* --- game-load --- */

static const struct fset *game_sort_set;

static int game_cmp(const void *a, const void *b)
{
	const struct fset_file *x = &game_sort_set->files[*(const size_t *)a],
	                       *y = &game_sort_set->files[*(const size_t *)b];
	return x->size < y->size ? -1 : x->size > y->size ? 1 : strcmp(x->path, y->path);
}

static int game_path_cmp(const void *a, const void *b)
{
	return strcmp(game_sort_set->files[*(const size_t *)a].path,
	              game_sort_set->files[*(const size_t *)b].path);
}

static uint64_t game_need(double scale)
{
	return (uint64_t)(1.1 * (double)fset_shape_find("game-folder")->total * scale) +
	       (32ull << 20);
}

static int game_run(struct files_run *r)
{
	char dir[4096];
	struct fset s;
	size_t *order, nsmall;
	uint64_t t0, t1, t2, small_bytes = 0;
	int rc;

	if ((rc = fs_build(r, "game-folder", &s)))
		return rc;
	order = calloc(s.nfiles, sizeof(*order));
	if (!order) {
		fset_free(&s);
		return -ENOMEM;
	}
	/* The loader's order: the small files (all but the largest 3 %) by path, then the assets.
	 */
	for (size_t i = 0; i < s.nfiles; i++)
		order[i] = i;
	game_sort_set = &s;
	qsort(order, s.nfiles, sizeof(*order), game_cmp);
	nsmall = s.nfiles - (s.nfiles * 3 + 99) / 100;
	qsort(order, nsmall, sizeof(*order), game_path_cmp);
	qsort(order + nsmall, s.nfiles - nsmall, sizeof(*order), game_path_cmp);
	for (size_t k = 0; k < nsmall; k++)
		small_bytes += s.files[order[k]].size;
	snprintf(dir, sizeof(dir), "%s/game", r->work);
	fs_progress(r, "Game load", "install");
	rc = fs_stage(r, &s, dir);
	if (!rc) {
		fs_progress(r, "Game load", "load");
		t0 = files_clock_ns(r);
		rc = fops_read(r, &s, dir, order, 0, nsmall);
		t1 = files_clock_ns(r);
		if (!rc)
			rc = fops_read(r, &s, dir, order, nsmall, s.nfiles);
		t2 = files_clock_ns(r);
	}
	if (!rc) {
		struct json_object *t = fs_test(r, "Game load", "load", &s, "read",
		                                fs_dir(s.bytes, s.nfiles, t2 - t0, 0));
		struct json_object *ph = json_object_new_object();
		json_object_object_add(ph, "small_files", json_object_new_int64((int64_t)nsmall));
		json_object_object_add(ph, "small_bytes",
		                       json_object_new_int64((int64_t)small_bytes));
		json_object_object_add(ph, "small_s", fs_num((double)(t1 - t0) / 1e9));
		json_object_object_add(ph, "assets",
		                       json_object_new_int64((int64_t)(s.nfiles - nsmall)));
		json_object_object_add(ph, "assets_bytes",
		                       json_object_new_int64((int64_t)(s.bytes - small_bytes)));
		json_object_object_add(ph, "assets_s", fs_num((double)(t2 - t1) / 1e9));
		json_object_object_add(t, "phases", ph);
	}
	if (!r->keep_data)
		fs_remove(r, dir);
	free(order);
	fset_free(&s);
	return rc;
}

/* --- the table --- */

static const struct files_suite files_suites[] = {
    {"asssd-copy", "AS SSD copy benchmark (ISO, Program, Game)",
     "copy three folders within the volume; MB/s includes the sync", asssd_need, asssd_run},
    {"fc-test", "FC-Test (ISO, MP3, PROG, WIN templates)",
     "create, read, copy within the volume and delete each template", fc_need, fc_run},
    {"game-load", "Game load (cold read: small files, then assets)",
     "read a game folder cold in a loader's order", game_need, game_run},
    {"untar", "Extract a source-tree tarball (42,588 files, 6,246 folders)",
     "tar -x of a 2.3 GB tree, then sync", untar_need, untar_run},
    {"vm-clone", "VM disk clone (sparse image; qemu-img convert when present)",
     "clone a thin VM image, keeping its holes", vm_need, vm_run},
};

const struct files_suite *files_suite_at(size_t i)
{
	return i < sizeof(files_suites) / sizeof(files_suites[0]) ? &files_suites[i] : NULL;
}

const struct files_suite *files_suite_find(const char *name)
{
	for (size_t i = 0; files_suite_at(i); i++)
		if (!strcmp(files_suites[i].name, name))
			return &files_suites[i];
	return NULL;
}
