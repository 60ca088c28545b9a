/*
 * safety.h - the checks that stand between a write workload and someone's data.
 *
 * Two kinds of answer, checked before anything is written:
 *
 * In use - refused always, --force-destroy or not (as mkfs and mdadm do):
 *   a block device (or one of its partitions) that is mounted, used as
 *   swap, held by another driver (md, dm), backs a loop device, or that
 *   the kernel will not
 *   open exclusively (O_EXCL: someone else claimed it); a regular file
 *   that backs a loop device (so it may be mounted); any file or device
 *   another process has open for writing; and anything another raidlab
 *   run holds (every target takes an advisory lock: exclusive to write,
 *   shared to read).
 *
 * Holds data - refused unless --force-destroy: any signature libblkid's
 *   probes recognise (partition table, filesystem, RAID superblock, LUKS,
 *   swap) on a device or a regular file.  A regular file without one is
 *   written as fio writes it.  Files raidlab creates carry an extended
 *   attribute, so `getfattr` tells a left-over test file from others.
 *
 * The message always says what was found.  Reads are always allowed
 * (they only take the shared lock, so they wait for no-one but a writer).
 */
#ifndef RL_TARGETS_SAFETY_H
#define RL_TARGETS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

/** Name of the extended attribute marking files raidlab created. */
#define RL_SAFETY_XATTR "user.raidlab.testfile"

/**
 * Is the block device or regular file @path (open as @fd) in use: mounted,
 * swap, held, loop-attached, or open for writing by another process (with
 * @shared: by another process than raidlab, the ranks of one job sharing
 * it)?  Returns 1 and describes it in @found, else 0.
 */
int rl_safety_check_in_use(const char *path, int fd, bool shared, char *found, size_t len);

/**
 * Does @path hold a partition table, filesystem or RAID signature other
 * than one of type @allow_type (a blkid TYPE such as "linux_raid_member",
 * or NULL)?  Returns 1 and describes it in @found, 0 if not, or -errno.
 */
int rl_safety_check_signature(const char *path, const char *allow_type, char *found, size_t len);

/**
 * Take raidlab's advisory lock on @fd (flock: exclusive when @write, else
 * shared), without waiting.  Returns 0, 1 when another holder has it (then
 * @found says "it is in use by PID N"), or a negative errno.
 */
int rl_safety_lock(int fd, bool write, char *found, size_t len);

/** Put raidlab's mark on a file it created (best effort). */
void rl_safety_mark_file(int fd);

#endif
