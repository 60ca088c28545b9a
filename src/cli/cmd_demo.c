/*
 * cmd_demo.c - `raidlab demo`: the main job, what `make run` shows.
 *
 * The question raidlab exists for, answered in seconds without hardware:
 * is RAID over NVMe drives worth it?  It runs the CrystalDiskMark 8 suite
 * on four simulated configurations of one platform — an AMD X399 board
 * with the drives on CPU lanes, the controller in RAID mode with AMD's
 * RAIDXpert2 driver (profile amd-raidxpert2): one drive, raid0 over two
 * and over three drives, raid1 over two — prints the comparison against
 * the single drive, and writes the results and an HTML report.  Every
 * configuration goes through the same driver, so no constraint applies to
 * one and not the others; the platform and driver model are the ones the
 * validation set amd-nvme-raid checks against published measurements,
 * and the output says so.
 *
 * It is `raidlab run cdm` with a fixed set of targets, put together through
 * the suite-run interface of run_suite.c (cli_suite_*) rather than a built
 * command line; every option after the demo's own is applied after the
 * demo's defaults, so `raidlab demo --passes=5` works.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char demo_usage[] =
    "usage: raidlab demo [--drive PROFILE] [--out-dir DIR] [--html FILE] [CDM OPTIONS]\n"
    "\n"
    "Compares a simulated NVMe drive with raid0 of two and of three such drives and with\n"
    "raid1 of two, all on one platform (AMD X399, drives on CPU lanes, RAIDXpert2 driver:\n"
    "the set raidlab validate amd-nvme-raid checks), using the cdm suite (CrystalDiskMark 8,\n"
    "3 passes).  Prints the comparison, writes one result per configuration to DIR\n"
    "(default demo-results) and the report to FILE (default report.html).\n"
    "\n"
    "  --drive PROFILE   the drive (default sx8200pro; 'raidlab profiles' lists them)\n"
    "  CDM OPTIONS       passed to the suite, e.g. --passes=5 --duration=5\n"
    "                    ('raidlab run cdm --help')\n";

#define DEMO_MAX_ARGS 64

static int demo_main(int argc, char **argv)
{
	const char *drive = "sx8200pro", *out_dir = "demo-results", *html = "report.html";
	const char *passthru[DEMO_MAX_ARGS];
	int npass = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(demo_usage, stdout);
			return 0;
		} else if (i + 1 < argc && !strcmp(argv[i], "--drive")) {
			drive = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--out-dir")) {
			out_dir = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--html")) {
			html = argv[++i];
		} else if (npass < DEMO_MAX_ARGS) {
			passthru[npass++] = argv[i];
		} else {
			cli_error("demo", "too many arguments");
			return 2;
		}
	}
	if (strpbrk(drive, "(),= \"")) {
		cli_error("demo", "--drive takes a profile name, e.g. sx8200pro, got '%s'", drive);
		return 2;
	}

	char single[128], r0x2[192], r0x3[192], r1x2[128];
	snprintf(single, sizeof(single), "controller(amd-raidxpert2, ssd(%s))", drive);
	snprintf(r0x2, sizeof(r0x2), "controller(amd-raidxpert2, raid0(ssd(%s) x2, chunk=64k))",
	         drive);
	snprintf(r0x3, sizeof(r0x3), "controller(amd-raidxpert2, raid0(ssd(%s) x3, chunk=64k))",
	         drive);
	snprintf(r1x2, sizeof(r1x2), "controller(amd-raidxpert2, raid1(ssd(%s) x2))", drive);

	static const char *const labels[] = {"single", "raid0 x2", "raid0 x3", "raid1 x2"};
	const char *specs[] = {single, r0x2, r0x3, r1x2};
	struct cli_suite *run = cli_suite_new("cdm");
	if (!run) {
		cli_error("demo", "out of memory");
		return 1;
	}
	for (size_t i = 0; i < 4; i++) {
		cli_suite_option(run, "target", specs[i]);
		cli_suite_option(run, "label", labels[i]);
	}
	cli_suite_option(run, "passes", "3");
	cli_suite_option(run, "summary", NULL); /* the comparison is the demo's answer */
	cli_suite_option(run, "out-dir", out_dir);
	cli_suite_option(run, "html", html);
	cli_suite_options(run, npass, (char **)passthru);
	if (cli_suite_check(run))
		return cli_suite_execute(run); /* frees it; the error is printed */

	printf(
	    "platform: AMD X399, drives on CPU lanes, controller in RAID mode with the RAIDXpert2\n"
	    "driver (profile amd-raidxpert2), %s drives; this platform model is checked against\n"
	    "published measurements by `raidlab validate amd-nvme-raid` (docs/validation.md)\n\n",
	    drive);
	fflush(stdout);

	printf("raidlab demo: is RAID over %s drives worth it?  CrystalDiskMark 8 on four\n"
	       "simulated configurations (simulated time; every drive has its own x4 link, as\n"
	       "on the validated platform, so arrays are not capped by a shared uplink).\n",
	       drive);
	fflush(stdout);
	int rc = cli_suite_execute(run);
	if (rc == 0)
		printf("\nresults: %s/   report: %s\n", out_dir, html);
	return rc;
}

static struct cli_command demo_cmd = {
    .name = "demo",
    .summary = "the main job: single NVMe drive vs raid0 x2/x3 vs raid1, simulated",
    .usage = demo_usage,
    .main = demo_main,
};
CLI_COMMAND_REGISTER(demo_cmd)
