/*
 * run_usage.c - the text `raidlab run --help` prints: the command's options,
 * then the suites' names as their registries list them.
 *
 * Design: the fixed text is one constant kept beside, not inside, the
 * command's code; the list of suites is appended when help is asked for,
 * so a suite added to the registry appears without editing this text.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

const char cli_run_usage[] =
    "usage: raidlab run [JOBFILE] [--target SPEC] [OPTIONS] [--JOBOPTION=VALUE ...]\n"
    "       raidlab run --name=JOB --filename=PATH [--JOBOPTION=VALUE ...] [--name=JOB2 ...]\n"
    "       raidlab run SUITE --target SPEC [--target SPEC ...] [SUITE OPTIONS]\n"
    "\n"
    "Runs fio jobs against files, devices, arrays or simulated drives and prints\n"
    "throughput, IOPS and latency.  fio's job files and command lines run unchanged.\n"
    "\n"
    "  --target SPEC         where jobs without filename=/directory= do I/O (default, as\n"
    "                        fio: ./JOBNAME.N.0): a path,\n"
    "                        file(PATH, size=1g), mem(size=1g), raid0(...), ssd(...)\n"
    "                        ('raidlab help targets')\n"
    "  --json FILE           write raidlab's full result as JSON (docs/results.md)\n"
    "  --output FILE         write the report to FILE instead of standard output\n"
    "  --output-format=F     normal (default: fio's report; raidlab's table with\n"
    "                        --target), json or json+ (fio's JSON), terse;\n"
    "                        several separated by ','\n"
    "  --minimal             the same as --output-format=terse\n"
    "  --eta=WHEN            progress line: auto (default: on a terminal), always, never\n"
    "  --eta-newline=T       keep the progress line every T; --eta-interval=T: redraw it\n"
    "                        at most every T\n"
    "  --status-interval=T   also report the figures so far every T (e.g. 1s), as fio\n"
    "                        does in each output format (with --target: a line of rates)\n"
    "  --readonly            refuse any job that writes or trims\n"
    "  --max-jobs=N          refuse more than N jobs (numjobs copies count)\n"
    "  --fleet-stonewall     under mpirun: every rank stops when the first ends a wave\n"
    "  --offset-per-rank=S   under mpirun: rank r's jobs start r*S further in (one shared\n"
    "                        target, a region per rank)\n"
    "  --version, --cmdhelp[=OPT], --enghelp[=ENGINE]: fio's answers, then exit\n"
    "  --warnings-fatal, --aux-path=DIR: accepted as in fio\n"
    "  --section=NAME        run only the job section NAME (may be repeated)\n"
    "  --parse-only          check the jobs and exit\n"
    "  --showcmd             print the jobs as command-line options and exit\n"
    "  --quiet               no progress line and no report\n"
    "  --keep                keep test files raidlab created\n"
    "  --force-destroy       allow writing over data found on the target\n"
    "  --trace FILE          replay a recorded trace (read_iolog=; docs/traces.md);\n"
    "                        --replay_no_stall=1: as fast as possible\n"
    "  --JOBOPTION=VALUE     any job option, e.g. --rw=randread --bs=4k --iodepth=32\n"
    "                        ('raidlab help options' lists them)\n"
    "\n"
    "Without a JOBFILE, --name starts a job as in fio: options before the first\n"
    "--name apply to every job.  With a JOBFILE, command-line options are defaults\n"
    "its [global] and sections override.  Jobs run at the same time unless stonewall\n"
    "separates them.  Exit status, fio's: 0 ok; 1 a bad option or job file, an I/O\n"
    "error or a verify failure; 128 after SIGINT or SIGTERM, 129 after SIGHUP (a\n"
    "suite's bad usage is 2).\n"
    "Under mpirun every rank runs the jobs at once, behind a barrier per wave, with\n"
    "$rank, $nranks and $host replaced in the arguments and specs; rank 0 reports the\n"
    "sum over the ranks and each rank (docs/mpi.md).\n"
    "\n"
    "SUITE is a standard benchmark reproduced from its public definition.  With\n"
    "several --target options it runs each and writes one JSON per configuration.\n"
    "'raidlab help suites' describes them; 'raidlab run SUITE --help' shows a suite's\n"
    "options (a job file with a suite's name needs a path: ./cdm).  The suites:\n";

/* cli_run_usage and the suites' names from their registries, wrapped at 80 columns. */
static char run_usage_full[sizeof(cli_run_usage) + 1024];

void cli_run_usage_fill(struct cli_command *self)
{
	const char *v[64];
	size_t n = cli_suite_names(v, 64), pos = strlen(cli_run_usage), col = 0;

	memcpy(run_usage_full, cli_run_usage, pos + 1);
	for (size_t i = 0; i < n && pos + 64 < sizeof(run_usage_full); i++) {
		size_t w = strlen(v[i]) + 2;
		if (col && col + w > 78) {
			run_usage_full[pos++] = '\n';
			col = 0;
		}
		pos += (size_t)snprintf(run_usage_full + pos, sizeof(run_usage_full) - pos,
		                        "%s%s%s", col ? " " : "  ", v[i], i + 1 < n ? "," : ".\n");
		col += w;
	}
	self->usage = run_usage_full;
}
