/*
 * cmd_help.c - `raidlab help [COMMAND | targets | options | suites]`.
 *
 * Target types, job options and suites are listed from their registries
 * (the same tables the parsers use), so help cannot drift from what is
 * accepted.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/registry.h"
#include "files/files.h"
#include "suites/suite.h"
#include "workload/job.h"

static int help_targets(void)
{
	printf("Target types (a plain path means file(PATH)):\n\n");
	for (const struct rl_target_type *t = rl_target_type_first(); t; t = t->next)
		printf("  %-8s %s\n           %s\n", t->name, t->summary, t->params);
	printf("\nSizes: k/m/g/t are binary (1k = 1024), kB/MB/GB/TB decimal; 'xN' repeats a "
	       "member: raid0(mem x4, chunk=64k).\n");
	return 0;
}

static int help_options(void)
{
	size_t n;
	const struct wl_option_info *o = wl_options(&n);

	printf("Job options (fio names; --NAME=VALUE on the command line, NAME=VALUE in job "
	       "files):\n\n");
	for (size_t i = 0; i < n; i++) {
		printf("  %s%s%s (%s, default %s)\n      %s\n", o[i].name, o[i].alias ? " / " : "",
		       o[i].alias ? o[i].alias : "", o[i].type,
		       o[i].def && o[i].def[0] ? o[i].def : "none", o[i].help);
	}
	return 0;
}

static int help_suites(void)
{
	printf("Suites ('raidlab run SUITE --target SPEC [--target SPEC ...] [OPTIONS]'; "
	       "docs/suites.md\ndescribes each definition, its sources and its deviations):\n");
	for (const struct suite_def *d = suite_first(); d; d = d->next) {
		printf("\n%s - %s\n  %s\n  tests:", d->name, d->title, d->summary);
		for (size_t i = 0; i < d->ntests; i++)
			printf("%s %s", i ? "," : "", d->tests[i].name);
		printf("\n  passes become the figure by the rule '%s'; options:\n",
		       suite_agg_name(d->aggregate));
		suite_options_help(d, stdout);
	}
	printf("\nFile suites ('raidlab run SUITE --target dir(PATH)|SPEC [OPTIONS]'; "
	       "'raidlab run SUITE --help'):\n");
	for (size_t i = 0; files_suite_at(i); i++)
		printf("  %-11s %s\n              %s\n", files_suite_at(i)->name,
		       files_suite_at(i)->title, files_suite_at(i)->summary);
	printf("\nMB/s is decimal (10^6 bytes per second).  On a simulated target durations "
	       "are simulated time.\n");
	return 0;
}

static int help_main(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2) {
		printf("usage: raidlab help COMMAND | targets | options | suites\n\ncommands:\n");
		for (c = cli_command_first(); c; c = c->next)
			printf("  %-10s %s\n", c->name, c->summary);
		return 0;
	}
	if (!strcmp(argv[1], "targets"))
		return help_targets();
	if (!strcmp(argv[1], "options"))
		return help_options();
	if (!strcmp(argv[1], "suites"))
		return help_suites();
	c = cli_command_find(argv[1]);
	if (!c) {
		cli_error("help", "no command, 'targets', 'options' or 'suites' named '%s'",
		          argv[1]);
		return 2;
	}
	printf("%s", c->usage);
	return 0;
}

static struct cli_command help_cmd = {
    .name = "help",
    .summary = "help on a command, the target types, the job options or the suites",
    .usage = "usage: raidlab help COMMAND | targets | options | suites\n",
    .main = help_main,
};
CLI_COMMAND_REGISTER(help_cmd)
