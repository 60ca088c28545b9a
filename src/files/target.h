/*
 * target.h - where a file suite runs: a mounted directory, or a raidlab
 * block stack turned into a mounted filesystem.
 *
 *   dir(PATH)   a directory on a mounted filesystem (real hardware).  The
 *               suite works in a fresh subdirectory PATH/raidlab-files.XXXXXX
 *               and removes it afterwards (unless keep).  PATH must be
 *               provably scratch -- empty, or holding a file named
 *               .raidlab-scratch -- unless force_destroy; free space is
 *               checked before anything is written.
 *   any other   a raidlab target spec.  The stack is served by a child
 *               `raidlab serve` on a Unix socket, exposed as a file by
 *               nbdfuse, attached to a loop device, formatted (mkfs.ext4 or
 *               mkfs.xfs, extra options passed through) and mounted on a
 *               private directory; the suite runs on the fresh filesystem.
 *               Needs root, /dev/fuse, loop devices, nbdfuse, fusermount3,
 *               losetup and the mkfs program; each missing piece is named.
 *
 * files_target_close() undoes whatever open did, in reverse order
 * (subdirectory, unmount, loop detach, FUSE unmount, server stop, runtime
 * directory), and is safe after a failed or partial open, so a suite that
 * fails or is interrupted leaves no mount, loop device, socket or process.
 * Child processes get their own process group, so the terminal's Ctrl-C
 * reaches raidlab alone and the teardown stays in order.  After Ctrl-C
 * (files/stop.h) the serve child no longer paces, so the unmount's writes
 * are answered at once, and a stack's subdirectory is not emptied first
 * (the filesystem goes with it); after a second signal the teardown
 * hurries: lazy unmounts, children killed instead of awaited.  The runtime
 * directory records its owner and the phase (files/leftovers.h), so the
 * remains of a run that died can be found and removed.
 */
#ifndef RL_FILES_TARGET_H
#define RL_FILES_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct files_target_opts {
	const char *fs;           /* "ext4" (default) or "xfs" */
	const char *mkfs_options; /* extra mkfs arguments, split at spaces; NULL: none */
	bool force_destroy;       /* dir(): a non-scratch directory; stack: serve --force-destroy */
	bool keep;                /* dir(): keep the work subdirectory */
	uint64_t need;            /* bytes of free space the suite needs */
	unsigned slow; /* stack: serve --slow N (slow motion; 1: real time); 0: --slow auto */
	const volatile sig_atomic_t *stop; /* set on Ctrl-C: waits give up */
};

struct files_target {
	bool is_dir;       /* dir(PATH) */
	char path[4096];   /* dir(): PATH; stack: the mount point */
	char work[4200];   /* the suite's work directory ("" until made) */
	char rundir[2048]; /* stack: runtime directory (socket, FUSE dir, mount point, logs) */
	char loop[64];     /* stack: /dev/loopN once attached */
	pid_t serve_pid;   /* stack: the raidlab serve child (0: none) */
	pid_t fuse_pid;    /* stack: the nbdfuse child (0: none) */
	bool fuse_up;      /* nbdfuse exposed its file */
	bool mounted;
	bool keep;
	char fs[16];
	const volatile sig_atomic_t *stop; /* the signal count (files/stop.h); NULL: none */
	char phase[128];     /* what open (or the suite, files_target_phase) is doing */
	char emulation[256]; /* after close: serve's emulation-lag line for simulated stacks, or ""
	                      */
	bool fell_behind;    /* after close: serve reported the machine fell behind the model */
	char msg[768];       /* why open failed */
};

/**
 * Make @spec ready for a file suite.  0, or a negative errno with t->msg set
 * (-EPERM not root, -ENOENT a missing program or device, -ENOSPC too little
 * space, -EEXIST not scratch, -EINTR stopped); call files_target_close in
 * every case.
 */
int files_target_open(struct files_target *t, const char *spec, const struct files_target_opts *o);
/**
 * The factor a served stack runs at now, how often serve's governor has
 * raised it, and whether it may (*@governed, may be NULL: a simulated stack
 * under --slow auto) from serve's pace file; dir(): 1, 0, false.  0 or -errno.
 */
int files_target_pace(const struct files_target *t, unsigned *slow, unsigned *raises,
                      bool *governed);
/**
 * A served stack with --slow auto: give it @bytes of file traffic (write,
 * sync, read back, delete) in up to @rounds rounds, until one round passes
 * without serve raising the factor; *slow gets the factor then (probe.c).
 * dir(): nothing to do.  0 or -errno (-EINTR when *@stop was set).
 */
int files_probe_settle(struct files_target *t, uint64_t bytes, unsigned rounds,
                       const volatile sig_atomic_t *stop, unsigned *slow);
/** Record @phase ("mkfs", "TEST: PHASE"): t->phase and the runtime directory's record. */
void files_target_phase(struct files_target *t, const char *phase);
/** Undo everything open did, in reverse order.  Idempotent. */
void files_target_close(struct files_target *t);

#endif
