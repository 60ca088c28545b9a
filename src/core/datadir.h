/*
 * datadir.h - where raidlab finds its data files (drive and controller
 * profiles, validation sets).
 *
 * For a data kind SUB ("profiles", "validation") the directories are, in
 * order:
 *   1. every directory in the environment variable ENV (colon separated);
 *   2. $RAIDLAB_DATADIR/SUB, then $RAIDLAB_TOP/SUB (a source tree the test
 *      runner names);
 *   3. the installed share folder: ../share/raidlab/SUB beside the
 *      executable (an installed tree moved elsewhere), then RL_DATADIR/SUB,
 *      compiled in from the build's PREFIX (/usr/local/share/raidlab);
 *   4. the source tree: ../SUB beside the executable (build/raidlab), then
 *      ../../SUB (build/tests/test_x), then ./SUB.
 * The same directory reached twice is listed once.  The first directory
 * holding a name wins.
 */
#ifndef RL_CORE_DATADIR_H
#define RL_CORE_DATADIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define RL_DATA_DIRS_MAX 12

/* Where a data directory comes from (the numbered steps above). */
enum rl_data_origin {
	RL_DATA_ENV,       /* the kind's own variable (RAIDLAB_PROFILES) */
	RL_DATA_DATADIR,   /* $RAIDLAB_DATADIR */
	RL_DATA_TOP,       /* $RAIDLAB_TOP */
	RL_DATA_INSTALLED, /* the installed share folder */
	RL_DATA_SOURCE,    /* the source tree */
	RL_DATA_CWD,       /* the current directory */
};

/** Fill @out with the directories for @sub (see above); returns how many. */
size_t rl_data_dirs(const char *sub, const char *env, char out[][PATH_MAX]);

/**
 * The first existing directory for @sub, into @out (PATH_MAX bytes), and
 * where it comes from; -1 (out empty) when none exists.
 */
int rl_data_found(const char *sub, const char *env, char *out);

/** The installed share folder compiled in (PREFIX/share/raidlab). */
const char *rl_data_share(void);

/** "installed", "source tree", ... for an origin. */
const char *rl_data_origin_name(int origin);

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
