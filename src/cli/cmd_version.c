/*
 * cmd_version.c - `raidlab version`: the same line as `raidlab --version`,
 * for scripts that spell commands as words.  (`raidlab run --version`
 * answers in fio's form, "raidlab-X.Y.Z", as `fio --version` does.)
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mpi/rank.h"

static const char version_usage[] =
    "usage: raidlab version\n"
    "\n"
    "Prints raidlab's version (the same as raidlab --version), then whether\n"
    "MPI is built in (mpi: LIBRARY VERSION, or mpi: not built in).\n";

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
