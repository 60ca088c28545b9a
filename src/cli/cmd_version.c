/*
 * cmd_version.c - `raidlab version`: the same first line as `raidlab
 * --version`, for scripts that spell commands as words, then where the data
 * files (profiles, validation sets) were found and why (core/datadir.h):
 * an installed raidlab should say "installed", not a source tree.
 * (`raidlab run --version` answers in fio's form, "raidlab-X.Y.Z", as `fio
 * --version` does.)
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/datadir.h"
#include "mpi/rank.h"

static const char version_usage[] =
    "usage: raidlab version\n"
    "\n"
    "Prints raidlab's version (the same as raidlab --version), then the\n"
    "directories its profiles and validation sets are read from and\n"
    "why: $RAIDLAB_PROFILES / $RAIDLAB_VALIDATION, $RAIDLAB_DATADIR,\n"
    "the installed share folder, or the source tree; and whether MPI is\n"
    "built in (mpi: LIBRARY VERSION, or mpi: not built in).\n";

/* "profiles:   /usr/share/raidlab/profiles (installed)" */
static void version_data(const char *sub, const char *env)
{
	char dir[PATH_MAX];
	int origin = rl_data_found(sub, env, dir);

	printf("%-11s %s (%s)\n", sub, origin < 0 ? "-" : dir, rl_data_origin_name(origin));
}

static int version_main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(version_usage, stdout);
		return 0;
	}
	if (argc > 1) {
		cli_error("version", "takes no arguments (got '%s')", argv[1]);
		return 2;
	}
	printf("raidlab %s\n", RL_VERSION);
	version_data("profiles", "RAIDLAB_PROFILES");
	version_data("validation", "RAIDLAB_VALIDATION");
	printf("mpi: %s\n", rl_mpi_built() ? rl_mpi_library() : "not built in");
	return 0;
}

static struct cli_command version_cmd = {
    .name = "version",
    .summary = "print raidlab's version",
    .usage = version_usage,
    .main = version_main,
};
CLI_COMMAND_REGISTER(version_cmd)
