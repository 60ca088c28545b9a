/*
 * leftovers.h - what a file-suite run that died left behind, and its
 * removal (`raidlab cleanup`).
 *
 * Every stack a file suite mounts lives under one runtime directory,
 * $TMPDIR/raidlab-fs.XXXXXX, holding a file "owner" (the pid and start time
 * of the raidlab that made it) and "phase" (what it was doing).  A
 * directory whose owner is gone is a leftover; with it go the mounts below
 * it, the loop devices whose backing file is below it, and the processes
 * (serve, nbdfuse) whose command line names it.  Removal runs the
 * teardown's order: unmount the filesystem, detach the loop devices,
 * unmount FUSE, stop the processes, remove the directory.
 */
#ifndef RL_FILES_LEFTOVERS_H
#define RL_FILES_LEFTOVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** The directory runtime directories go in: $TMPDIR, or /tmp. */
const char *files_leftovers_tmpdir(void);
/** Record this process as the owner of @rundir, and @phase; 0 or -errno. */
int files_leftovers_own(const char *rundir);
/** Record what the run in @rundir is doing (the "phase" file). */
void files_leftovers_phase(const char *rundir, const char *phase);
/**
 * Leftovers under @tmpdir: one line each ("DIR: mounted on ..., /dev/loopN,
 * nbdfuse pid N, left in phase P by pid N") into @out (may be NULL).
 * Returns how many.
 */
size_t files_leftovers_find(const char *tmpdir, FILE *out);
/** Detach every loop device whose backing file is below @dir; how many. */
int files_leftovers_detach_loops(const char *dir);
/**
 * Remove the leftovers under @tmpdir (with @dry_run: only say what would be
 * done), each action said on @out.  The number of directories handled, or
 * -errno when something could not be removed.
 */
int files_leftovers_remove(const char *tmpdir, FILE *out, bool dry_run);

#endif
