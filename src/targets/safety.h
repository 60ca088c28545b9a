/*
 * safety.h - the checks that stand between a write workload and someone's data.
 *
 * Before raidlab writes to a block device it asks: is it (or one of its
 * partitions) mounted or used as swap, or held by another driver (md, dm)?
 * Does it carry a partition table, a filesystem or a RAID signature
 * (libblkid)?  Before it writes to an existing regular file it asks whether
 * raidlab created that file (an extended attribute it sets on files it
 * creates).  Any "yes" refuses the write unless --force-destroy, and the
 * message says what was found.  Reads are always allowed.
 */
#ifndef RL_TARGETS_SAFETY_H
#define RL_TARGETS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

/** Name of the extended attribute marking files raidlab created. */
#define RL_SAFETY_XATTR "user.raidlab.testfile"

/**
 * Look for anything on block device @path (open as @fd) that a write would
 * destroy.  Returns 1 and describes it in @found ("it is mounted on /mnt",
 * "it holds an ext4 filesystem (UUID ...)"), 0 if nothing was found, or a
 * negative errno if the checks themselves failed.
 */
int rl_safety_check_device(const char *path, int fd, char *found, size_t len);

/** True if the regular file open as @fd carries raidlab's mark. */
bool rl_safety_file_is_ours(int fd);

/** Put raidlab's mark on a file it created (best effort). */
void rl_safety_mark_file(int fd);

#endif
