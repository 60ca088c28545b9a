/*
 * fset.h - deterministic file sets for the file-level suites.
 *
 * A data set is described by its shape (struct fset_shape): how many files
 * and folders the public tool's set has, how many bytes in all, and how the
 * file sizes are spread (a few weighted size classes, log-uniform inside a
 * class).  fset_build() turns a shape, a seed and a scale into a concrete
 * list of files (relative path, size) and folders; the same arguments
 * always give the same list.  Scaling keeps the shape: the file count is
 * multiplied by the scale (at least min(files, 2)), the folder count too
 * (at least 1), and the drawn sizes are normalised so the total is exactly
 * total x scale.  Folders form a tree: folder j hangs under a folder drawn
 * among 0..j-1 (folder 0 is the set's root), and file i goes into a drawn
 * folder.
 *
 * Contents come from fset_fill(): a keyed generator (splitmix64 per 8
 * bytes, keyed by seed, set and file index), so any byte of any file can be
 * recomputed without reading the source: copies are verified against the
 * generator, not against another copy.  By default every byte is random
 * (incompressible); with compress = P, the last P % of every 4 KiB block is
 * zeros, so a stack that compresses or deduplicates cannot flatter the
 * default figures and can be probed on request.
 *
 * docs/suites.md lists the shapes with their sources and what is estimated.
 */
#ifndef RL_FILES_FSET_H
#define RL_FILES_FSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A size class: weight (relative share of files), sizes in [min, max] bytes. */
struct fset_class {
	unsigned weight;
	uint64_t min, max;
};

#define FSET_CLASSES 4

/** The shape of a public tool's data set at full scale. */
struct fset_shape {
	const char *name;  /* "asssd-iso", "fc-mp3", "untar", ... */
	const char *title; /* "AS SSD copy: ISO (two large files)" */
	uint64_t files;    /* number of files */
	uint64_t dirs;     /* number of folders, the set's root included */
	uint64_t total;    /* bytes in all */
	struct fset_class cls[FSET_CLASSES];
	const char *source; /* where the figures come from */
	bool estimated;     /* some figure is an estimate (docs/suites.md says which) */
};

/** One file of a built set. */
struct fset_file {
	char *path;     /* relative to the set's root: "d12/d40/f000123.bin" */
	uint64_t size;  /* bytes */
	uint64_t key;   /* content key for fset_fill */
	unsigned depth; /* folders above it inside the set */
};

/** A built set. */
struct fset {
	const struct fset_shape *shape;
	struct fset_file *files;
	size_t nfiles;
	char **dirs; /* relative folder paths, parents before children; dirs[0] = "" */
	size_t ndirs;
	uint64_t bytes;    /* sum of the sizes */
	unsigned compress; /* percent of each 4 KiB block that is zeros */
};

/** The shape named @name, or NULL. */
const struct fset_shape *fset_shape_find(const char *name);
/** First shape; iterate with index until NULL. */
const struct fset_shape *fset_shape_at(size_t i);

/**
 * Build @shape at @scale (0 < scale <= 1; 1 is the tool's full size) with
 * @seed.  0, -EINVAL for a bad scale or compress, -ENOMEM.
 */
int fset_build(const struct fset_shape *shape, double scale, uint64_t seed, unsigned compress,
               struct fset *out);
void fset_free(struct fset *s);

/** Fill @buf with @len bytes of file @f's contents starting at byte @off. */
void fset_fill(const struct fset *s, const struct fset_file *f, uint64_t off, void *buf,
               size_t len);

/** The n-th output of splitmix64 from @state (advances it). */
uint64_t fset_rand(uint64_t *state);

#endif
