/*
 * cmd_cleanup.c - `raidlab cleanup [--dry-run]`: remove what file-suite runs
 * that died left behind.
 *
 * A file suite on a stack mounts it under $TMPDIR/raidlab-fs.XXXXXX; a run
 * killed with SIGKILL, or abandoned after a third Ctrl-C, leaves the
 * mount, the loop device, the FUSE mount and the serve and nbdfuse
 * processes there.  files/leftovers.c finds the directories whose owner is
 * gone and removes them in the teardown's order; directories of runs still
 * going are left alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "files/leftovers.h"

static const char cleanup_usage[] =
    "usage: raidlab cleanup [--dry-run]\n"
    "\n"
    "Removes what file-suite runs that did not finish left behind: for each runtime\n"
    "directory $TMPDIR/raidlab-fs.* (TMPDIR, or /tmp) whose raidlab is gone, it\n"
    "unmounts the filesystem, detaches the loop device, unmounts the FUSE file,\n"
    "stops the raidlab serve and nbdfuse processes, and removes the directory,\n"
    "saying each step.  Directories of runs still going are left alone.\n"
    "\n"
    "  --dry-run   only say what would be done\n"
    "\n"
    "Needs root when there are mounts or loop devices.  Exit status: 0 nothing left\n"
    "(or all removed), 1 something could not be removed, 2 bad usage.\n";

static int cleanup_main(int argc, char **argv)
{
	bool dry = false;
	const char *tmp = files_leftovers_tmpdir();

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run")) {
			dry = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(cleanup_usage, stdout);
			return 0;
		} else {
			cli_error("cleanup", "unexpected argument '%s' (raidlab help cleanup)",
			          argv[i]);
			return 2;
		}
	}
	int n = files_leftovers_remove(tmp, stdout, dry);
	if (n < 0) {
		cli_error("cleanup", "%s: %s", tmp,
		          n == -EBUSY ? "some leftovers could not be removed (see above)"
		                      : strerror(-n));
		return 1;
	}
	if (!n)
		printf("nothing left behind in %s\n", tmp);
	return 0;
}

static struct cli_command cleanup_cmd = {
    .name = "cleanup",
    .summary = "remove what file-suite runs that died left (mounts, loop devices, processes)",
    .usage = cleanup_usage,
    .main = cleanup_main,
};
CLI_COMMAND_REGISTER(cleanup_cmd)
