/*
 * files.h - file-level suites: copy, extract, clone and load real files on
 * a mounted filesystem (AS SSD's copy benchmark, FC-Test, untar, VM clone,
 * game load).
 *
 * Block suites (suites/) drive a raidlab target with jobs; these suites
 * drive the kernel's filesystem with ordinary file calls, because the point
 * of the reviews they reproduce is what the page cache, the filesystem and
 * writeback make of an array.  A suite runs in a work directory (struct
 * files_run.work) that the caller created and will remove; it builds its
 * data sets there from fset.h (deterministic, seeded), drops the page cache
 * before each measured phase (as root), times the data phase and the sync
 * that follows separately, verifies what it copied or extracted against
 * the generator (file count, and the full contents of a sample of files),
 * and appends one test object per measured phase to files_run.tests.
 *
 * A test object has the suite-result shape of docs/results.md, so the
 * report module reads it like a block suite's: {name, pattern, files,
 * bytes, write|read: {mb_s, iops, lat_us: {mean}, time_s, data_s, sync_s,
 * cached_mb_s, files}}.  mb_s counts the sync (bytes / (data + sync));
 * cached_mb_s is the data phase alone; iops is files per second; lat_us
 * the mean time per file.
 *
 * Where the directory comes from is target.c's business (a mounted
 * directory, or a raidlab stack served over NBD and mounted through
 * nbdfuse and a loop device); the suites only see a path.
 */
#ifndef RL_FILES_FILES_H
#define RL_FILES_FILES_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

struct files_run {
	/* set by the caller */
	const char *work;  /* the work directory (exists, empty, the suite's alone) */
	double scale;      /* data-set scale, (0, 1] */
	uint64_t seed;     /* data-set seed */
	unsigned compress; /* percent of each 4 KiB block that is zeros (0: incompressible) */
	bool drop_caches;  /* drop the page cache before measured phases (needs root) */
	bool keep_data;    /* leave sources, copies and extracted trees in place (not deletes) */
	unsigned slow;     /* the target runs in slow motion (serve --slow N): files_clock_ns() */
	const volatile sig_atomic_t *stop; /* set on Ctrl-C: the suite stops with -EINTR */
	void (*progress)(void *arg, const char *test, const char *phase); /* may be NULL */
	void *progress_arg;
	/* filled by the suite */
	struct json_object *tests; /* array the test objects go into (caller-owned) */
	unsigned drops;            /* page-cache drops done */
	unsigned drop_failures;    /* drops that failed (not root): figures include cached data */
	char test[64];             /* the test in progress (its later phases, e.g. the sync) */
	char msg[512];             /* error message */
};

/** A file suite. */
struct files_suite {
	const char *name;    /* "asssd-copy" */
	const char *title;   /* "AS SSD copy benchmark (ISO, Program, Game)" */
	const char *summary; /* one line for help */
	/** Bytes of free space the suite needs at @scale. */
	uint64_t (*need)(double scale);
	/** Run it: 0, -EINTR when stopped, or a negative errno with r->msg set. */
	int (*run)(struct files_run *r);
};

/** The suite named @name, or NULL. */
const struct files_suite *files_suite_find(const char *name);
/** The i-th suite, NULL past the end. */
const struct files_suite *files_suite_at(size_t i);

/* --- helpers shared by the suites and the target code (fops.c) --- */

/** Remove @path and everything below it (no symlink is followed).  0 or -errno. */
int files_rmtree(const char *path);
/** syncfs() on the filesystem holding @path.  0 or -errno. */
int files_syncfs(const char *path);
/**
 * The suite's clock: monotonic ns of the target's time.  Wall time, but on
 * a target served in slow motion (r->slow = N > 1) host work and storage
 * waits are told apart: the CPU time of this process and of its waited-for
 * children (tar, qemu-img) is host work and counts as measured; the rest of
 * the wall time is waiting on the emulated storage, which runs N times
 * slow, and counts 1/N.  The model is serial (the host computes, then
 * waits); docs/suites.md says what that assumes.
 */
uint64_t files_clock_ns(const struct files_run *r);

#endif
