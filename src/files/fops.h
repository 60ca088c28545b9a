/*
 * fops.h - timed operations on file sets, for the file suites (internal).
 *
 * Every operation walks a built set (fset.h) under a root directory with
 * plain system calls: 1 MiB buffered reads and writes, as a copy tool or an
 * installer does.  Each checks the stop flag between files and returns
 * -EINTR when it is set; every failure is a negative errno with a message
 * naming the file.
 */
#ifndef RL_FILES_FOPS_H
#define RL_FILES_FOPS_H

#include "files/files.h"
#include "files/fset.h"

#define FOPS_CHUNK (1u << 20)

/** Create the set's folders and files under @root from the generator. */
int fops_write(struct files_run *r, const struct fset *s, const char *root);
/** Copy the set from @src to @dst (folders, then each file read and written in chunks). */
int fops_copy(struct files_run *r, const struct fset *s, const char *src, const char *dst);
/** Read files [from, to) of @order (indices into s->files) completely. */
int fops_read(struct files_run *r, const struct fset *s, const char *root, const size_t *order,
              size_t from, size_t to);
/** Delete the set's files, then its folders (deepest first). */
int fops_delete(struct files_run *r, const struct fset *s, const char *root);
/**
 * Check the set under @root: exactly s->nfiles regular files below it, and
 * the full contents of up to @sample files (evenly spread, the largest
 * included) equal to the generator.  *verified gets the files compared.
 */
int fops_verify(struct files_run *r, const struct fset *s, const char *root, unsigned sample,
                unsigned *verified);
/** Compare @len bytes of @fd from @off with file @f of @s from @off; 0, -EIO with message. */
int fops_compare_fd(struct files_run *r, const struct fset *s, const struct fset_file *f, int fd,
                    uint64_t off, uint64_t len, const char *path);
/** Announce @phase of @test (NULL: the current test) through r->progress. */
void fops_progress(struct files_run *r, const char *test, const char *phase);
/** Drop the page cache (sync, then drop_caches = 3) if r->drop_caches; counts in r. */
void fops_drop(struct files_run *r);
/** syncfs on @root (the phase "sync" of the current test), its time in *ns.  0 or -errno. */
int fops_sync(struct files_run *r, const char *root, uint64_t *ns);
/** "ROOT/REL" into @buf; -ENAMETOOLONG with message. */
int fops_path(struct files_run *r, char *buf, size_t len, const char *root, const char *rel);
/** files_rmtree that gives up (-EINTR) when the stop flag is set. */
int fops_remove(struct files_run *r, const char *path);
/** Run @argv (a program from PATH), waiting; on stop kill it.  0, -EINTR, or -EIO with message. */
int fops_spawn(struct files_run *r, char *const argv[]);

#endif
