/*
 * main.c - the raidlab program: dispatch to a command.
 *
 *   raidlab COMMAND [ARGS]    run a command (see raidlab --help)
 *   raidlab help [COMMAND]    help on a command
 *   raidlab --version
 *
 * Whatever the command, its standard output must have reached its
 * destination: a write error there fails the exit status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/suggest.h"
#include "mpi/rank.h"
#include "workload/job.h"

#ifndef RL_VERSION
#define RL_VERSION "0.0.0"
#endif

static void main_usage(FILE *f)
{
	fprintf(f,
	        "raidlab %s - measure, build and simulate storage arrays\n\n"
	        "usage: raidlab COMMAND [ARGS...]\n\ncommands:\n",
	        RL_VERSION);
	for (const struct cli_command *c = cli_command_first(); c; c = c->next)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'raidlab help COMMAND' shows a command's options; "
	           "'raidlab help targets' and 'raidlab help options' list target types "
	           "and job options.\n");
}

/*
 * Standard output is buffered: a write that failed (a full disk, /dev/full)
 * may show only now.  What was printed is the command's answer, so losing
 * it is a failure: said on stderr, and exit 1 if the command had succeeded.
 */
static int main_close_stdout(const char *cmd, int rc)
{
	bool failed = ferror(stdout);

	errno = 0;
	if (fclose(stdout) != 0)
		failed = true;
	if (!failed)
		return rc;
	fprintf(stderr, "raidlab%s%s: cannot write standard output: %s\n", cmd ? " " : "",
	        cmd ? cmd : "", errno ? strerror(errno) : "write error");
	return rc ? rc : 1;
}

/*
 * An unknown first word: a suite or a job option belongs to `run`, so say
 * so; otherwise the nearest command, or the list of commands.
 */
/* Is @name a job option (or its alias) of `raidlab help options`? */
static bool main_is_job_option(const char *name)
{
	size_t n;
	const struct wl_option_info *o = wl_options(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[i].name, name) || (o[i].alias && !strcmp(o[i].alias, name)))
			return true;
	return false;
}

static void main_unknown(const char *word)
{
	const char *v[64], *best = NULL;
	size_t n = cli_suite_names(v, 64), score, best_score = SIZE_MAX;
	char opt[64];
	size_t len = strcspn(word + 2, "=");

	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], word)) {
			fprintf(
			    stderr,
			    "raidlab: '%s' is a suite, not a command; did you mean 'raidlab run "
			    "%s --target SPEC'?\n",
			    word, word);
			return;
		}
	if (!strncmp(word, "--", 2) && len < sizeof(opt)) {
		memcpy(opt, word + 2, len);
		opt[len] = '\0';
		if (main_is_job_option(opt)) {
			fprintf(stderr,
			        "raidlab: '%s' is a job option, not a command; did you mean "
			        "'raidlab run "
			        "%s ...'?\n",
			        word, word);
			return;
		}
	}
	for (const struct cli_command *c = cli_command_first(); c; c = c->next)
		if (rl_suggest_close(word, c->name, &score) && score < best_score) {
			best = c->name;
			best_score = score;
		}
	if (best) {
		fprintf(stderr, "raidlab: unknown command '%s' (did you mean '%s'?)\n", word, best);
		return;
	}
	fprintf(stderr, "raidlab: unknown command '%s'\n\n", word);
	main_usage(stderr);
}

static int main_dispatch(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("raidlab %s\n", RL_VERSION);
		return 0;
	}
	c = cli_command_find(argv[1]);
	if (!c) {
		main_unknown(argv[1]);
		return 2;
	}
	return c->main(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int rc;

	/* under mpirun/srun every rank runs the same command (docs/mpi.md) */
	if (rl_mpi_init(&argc, &argv)) {
		fprintf(stderr, "raidlab: MPI did not start (launched by mpirun or srun?)\n");
		return 1;
	}
	rc = main_dispatch(argc, argv);
	rl_mpi_finalize();
	return main_close_stdout(argc > 1 && argv[1][0] != '-' ? argv[1] : NULL, rc);
}
