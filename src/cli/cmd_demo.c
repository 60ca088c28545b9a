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
 * and the output says so.  Tests are 5 s apart, CrystalDiskMark's default
 * and the validated set's: the drives' idle-time work (SLC folding) then
 * happens alike on every configuration.
 *
 * It is `raidlab run cdm` with a fixed set of targets, put together through
 * the suite-run interface of run_suite.c (cli_suite_*) rather than a built
 * command line; every option after the demo's own is applied after the
 * demo's defaults, so `raidlab demo --passes=5` works.
 *
 * `raidlab demo --platform SET` tells the story of one validated platform
 * instead: the seed system's own configurations, each with the suite the
 * published article ran, every figure the suite gives with the published
 * one beside it where the article has it, and the article's findings.  It
 * is `raidlab validate SET` seen from the other side: the set is loaded,
 * run and checked by the validate machinery (cli_validate_*, report/
 * validate.h); only the telling is here.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/validate.h"
#include "suites/suite.h"

static const char demo_usage[] =
    "usage: raidlab demo [--drive PROFILE] [--out-dir DIR] [--html FILE] [CDM OPTIONS]\n"
    "       raidlab demo --platform SET [--html FILE] [SUITE OPTIONS]\n"
    "\n"
    "Compares a simulated NVMe drive with raid0 of two and of three such drives and with\n"
    "raid1 of two, all on one platform (AMD X399, drives on CPU lanes, RAIDXpert2 driver:\n"
    "the set raidlab validate amd-nvme-raid checks), using the cdm suite (CrystalDiskMark 8,\n"
    "3 passes, CDM's default 5 s between tests).  Prints the comparison, writes one result\n"
    "per configuration to DIR (default demo-results) and the report to FILE (default\n"
    "report.html).\n"
    "\n"
    "  --drive PROFILE   the drive (default sx8200pro; 'raidlab profiles' lists them)\n"
    "  CDM OPTIONS       passed to the suite, e.g. --passes=5 --duration=5\n"
    "                    ('raidlab run cdm --help')\n"
    "\n"
    "With --platform, the story of a validated platform (raidlab validate --list: e.g.\n"
    "perc-h730p, amd-nvme-raid, sm951-windows-stripe, vertex-raid0-southbridge): the\n"
    "seed system's configurations, each run with the suite the published article used,\n"
    "every simulated figure with the published one beside it where the article gives\n"
    "one (a cell more than 2x off is flagged with the set's reason for it), the article's\n"
    "findings, held or not, and validate's verdict (exit status 0 when every\n"
    "configuration ran).\n"
    "  --html FILE       also write validate's report of the set (chart and tables)\n"
    "  SUITE OPTIONS     --NAME=VALUE, applied to every configuration whose suite takes\n"
    "                    it, e.g. --duration=1 --passes=1 for a quicker, rougher story\n";

#define DEMO_MAX_ARGS 64

/* Under a cell's row, when it is more than 2x off: "    ^ beyond 2x: why". */
static void demo_flag(const struct val_cell *c)
{
	double r = c->simulated / c->published;

	if (!(r > 0) || fabs(log(r)) <= log(VAL_FLAG_RATIO) + 1e-12)
		return;
	printf("    ^ ");
	val_cell_flag(stdout, c);
	printf("\n");
}

/* One configuration: every figure of its suite, the published one beside it. */
static void demo_platform_config(const struct val_config *c)
{
	struct json_object *tests;

	printf("\n%s: %s on %s\n", c->name, c->suite, c->spec);
	if (c->error[0] || !c->result) {
		printf("  did not run: %s\n", c->error);
		return;
	}
	printf("  %-16s %-5s %10s %10s %7s\n", "test", "dir", "simulated", "published", "ratio");
	if (!json_object_object_get_ex(c->result, "tests", &tests))
		tests = NULL;
	for (size_t i = 0; tests && i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i), *nm;
		static const char *const dirs[] = {"read", "write"};
		if (!json_object_object_get_ex(t, "name", &nm))
			continue;
		const char *name = json_object_get_string(nm);
		for (size_t d = 0; d < 2; d++) {
			double sim = val_figure(c->result, name, dirs[d], NULL);
			const struct val_cell *cell = NULL;
			if (isnan(sim))
				continue;
			for (size_t k = 0; k < c->ncells && !cell; k++)
				if (!strcmp(c->cells[k].test, name) &&
				    !strcmp(c->cells[k].direction, dirs[d]))
					cell = &c->cells[k];
			printf("  %-16s %-5s %10.1f", name, dirs[d], sim);
			if (cell)
				printf(" %10g %6.2fx\n", cell->published, sim / cell->published);
			else
				printf(" %10s\n", "-");
			if (cell)
				demo_flag(cell);
		}
	}
	for (size_t k = 0; k < c->ncells; k++) /* figures over every test: ATTO's peak */
		if (!strcmp(c->cells[k].test, "peak")) {
			printf("  %-16s %-5s %10.1f %10g %6.2fx\n", "peak (all sizes)",
			       c->cells[k].direction, c->cells[k].simulated, c->cells[k].published,
			       c->cells[k].simulated / c->cells[k].published);
			demo_flag(&c->cells[k]);
		}
}

/* Every option in @over must be a suite option some configuration's suite takes. */
static int demo_platform_overrides(const struct val_set *s, const char **over, size_t nover)
{
	for (size_t k = 0; k < nover; k++) {
		char name[64];
		const char *a = over[k];
		size_t len;
		bool taken = false;
		if (strncmp(a, "--", 2) || !a[2]) {
			cli_error("demo",
			          "--platform takes suite options as --NAME=VALUE, got '%s'", a);
			return 2;
		}
		len = strcspn(a + 2, "=");
		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), a + 2);
		for (size_t c = 0; c < s->nconfigs && !taken; c++) {
			const struct suite_def *def = suite_find(s->configs[c].suite);
			taken = def && suite_params_accepts(def, name);
		}
		if (!taken) {
			cli_error("demo", "no suite of platform %s takes --%s", s->name, name);
			return 2;
		}
		over[k] = a + 2; /* NAME=VALUE, as cli_validate_run takes them */
	}
	return 0;
}

static int demo_platform(const char *name, const char *html, const char **over, size_t nover)
{
	char path[PATH_MAX], msg[512];
	struct val_set set;
	struct val_stats st;
	struct val_set *ptr = &set;
	long par = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	if (cli_validate_find(name, path, sizeof(path))) {
		cli_error("demo", "no validated platform '%s' (raidlab validate --list names them)",
		          name);
		return 2;
	}
	if (val_set_load(path, &set, msg, sizeof(msg))) {
		cli_error("demo", "%s", msg);
		val_set_free(&set);
		return 1;
	}
	rc = demo_platform_overrides(&set, over, nover);
	if (!rc && cli_output_check("demo", "--html", html))
		rc = 2;
	if (rc) {
		val_set_free(&set);
		return rc;
	}
	printf("raidlab demo --platform %s: %s\n", set.name, set.title);
	printf("system:    %s\n", set.platform ? set.platform : "-");
	printf("tool:      %s\n", set.tool ? set.tool : "-");
	printf("published: validation/%s; simulated time, MB/s = 10^6 bytes/s\n",
	       set.data ? set.data : "-");
	fflush(stdout);
	if (cli_validate_run(&set, 1, par < 1 ? 1 : (unsigned)par, false, over, nover)) {
		val_set_free(&set);
		return 1;
	}
	val_set_fill(&set);
	val_set_check(&set, &st);
	rc = 0;
	for (size_t c = 0; c < set.nconfigs; c++) {
		demo_platform_config(&set.configs[c]);
		if (set.configs[c].error[0])
			rc = 1;
	}
	if (set.nrelations)
		printf("\nthe article's findings:\n");
	for (size_t i = 0; i < set.nrelations; i++)
		printf("  %s %s (%s)\n",
		       set.relations[i].held ? "holds:" : "FAILS:", set.relations[i].finding,
		       set.relations[i].detail ? set.relations[i].detail : "");
	if (st.pass)
		printf("\nverdict: PASS (raidlab validate %s)\n", set.name);
	else
		printf("\nverdict: FAIL: %s (raidlab validate %s)\n", st.why ? st.why : "",
		       set.name);
	printf("agreement over the published cells: raidlab validate %s (docs/validation.md)\n",
	       set.name);
	if (html) {
		FILE *f = fopen(html, "w");
		if (!f || (val_html(f, &ptr, &st, 1), fclose(f))) {
			cli_error("demo", "cannot write %s: %s", html, strerror(errno));
			rc = 1;
		} else {
			printf("report: %s\n", html);
		}
	}
	val_stats_free(&st);
	val_set_free(&set);
	return rc;
}

static int demo_main(int argc, char **argv)
{
	const char *drive = "sx8200pro", *out_dir = "demo-results", *html = "report.html";
	const char *platform = NULL;
	const char *passthru[DEMO_MAX_ARGS];
	int npass = 0;
	bool drive_set = false, out_set = false, html_set = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(demo_usage, stdout);
			return 0;
		} else if (i + 1 < argc && !strcmp(argv[i], "--drive")) {
			drive = argv[++i];
			drive_set = true;
		} else if (i + 1 < argc && !strcmp(argv[i], "--out-dir")) {
			out_dir = argv[++i];
			out_set = true;
		} else if (i + 1 < argc && !strcmp(argv[i], "--html")) {
			html = argv[++i];
			html_set = true;
		} else if (i + 1 < argc && !strcmp(argv[i], "--platform")) {
			platform = argv[++i];
		} else if (npass < DEMO_MAX_ARGS) {
			passthru[npass++] = argv[i];
		} else {
			cli_error("demo", "too many arguments");
			return 2;
		}
	}
	if (platform) {
		if (drive_set || out_set) {
			cli_error("demo", "--platform runs the seed system's own configurations: "
			                  "--drive and --out-dir do not apply");
			return 2;
		}
		return demo_platform(platform, html_set ? html : NULL, passthru, (size_t)npass);
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
	/* CrystalDiskMark's default pause between tests, as the validated set runs it: without
	 * it a drive kept busy never folds its SLC cache while a mirror member md leaves idle
	 * does, and raid1 read 4K at QD1 26 % slower than one drive (validation/README.md) */
	cli_suite_option(run, "interval", "5s");
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
    .summary = "the main job: one NVMe drive vs raid0 x2/x3 vs raid1, or a validated platform",
    .usage = demo_usage,
    .main = demo_main,
};
CLI_COMMAND_REGISTER(demo_cmd)
