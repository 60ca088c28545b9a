/*
 * datadir.h - where raidlab finds its data files (drive and controller
 * profiles, validation sets).
 *
 * For a data kind SUB ("profiles", "validation") the directories are, in
 * order: every directory in the environment variable ENV (colon
 * separated), then relative to the executable (../SUB,
 * ../share/raidlab/SUB, ../../SUB for build/tests), then $RAIDLAB_TOP/SUB,
 * then ./SUB.  The first directory holding a name wins.
 */
#ifndef RL_CORE_DATADIR_H
#define RL_CORE_DATADIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define RL_DATA_DIRS_MAX 8

/** Fill @out with the directories for @sub (see above); returns how many. */
size_t rl_data_dirs(const char *sub, const char *env, char out[][PATH_MAX]);

/**
 * The names (without @suffix) of the files in @dir ending in @suffix,
 * sorted; *out is a malloc'd array of malloc'd strings.  Returns the count
 * (0 when the directory cannot be read).
 */
size_t rl_data_list(const char *dir, const char *suffix, char ***out);

/**
 * Does @want name the data file called @name with @aliases (words separated
 * by spaces, tabs or commas)?
 */
bool rl_data_name_matches(const char *name, const char *aliases, const char *want);

#endif
