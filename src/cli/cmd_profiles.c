/*
 * cmd_profiles.c - `raidlab profiles [NAME]`: the simulated drives.
 *
 * Without a name: one line per profile found (see src/sim/profile.c for
 * where they are looked for) with the figures that decide how it behaves:
 * interface and link, capacity and spare area, flash and SLC cache, and the
 * model's ceilings next to the manufacturer's rated figures.  With a name:
 * every parameter of that profile and the sources it was built from.
 * Controller and host-driver profiles (profiles/NAME.controller, the
 * controller(...) target) are listed after the drives the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/ctl_profile.h"
#include "sim/sim.h"

static const char profiles_usage[] =
    "usage: raidlab profiles [NAME] [--dirs]\n"
    "\n"
    "Lists the drive profiles the ssd(...) target can simulate, with key figures:\n"
    "interface and practical link rate, user capacity, spare area (physical - user) / user,\n"
    "flash (cell, channels x dies x planes), SLC cache, and the model's ceilings for\n"
    "sequential reads, native-mode writes and SLC-mode writes next to the rated figures.\n"
    "With NAME (or an alias) it prints every parameter and the sources.  --dirs shows\n"
    "where profiles are looked for (set RAIDLAB_PROFILES=DIR[:DIR] to add your own).\n"
    "Any parameter can be overridden in a spec: ssd(sx8200pro, op=20%, trim=off).\n"
    "Then the controller and host RAID driver profiles that controller(PROFILE, TARGET)\n"
    "builds on (kind: cache = a controller with its cache, link = a driver's path);\n"
    "with a NAME, every parameter of the profile and its sources.\n";

static const char *const iface_s[] = {"SATA", "AHCI", "NVMe"};
static const char *const cell_s[] = {"?", "SLC", "MLC", "TLC", "QLC"};
static const char *const slc_s[] = {"-", "static", "dynamic"};

struct fig {
	double link, read, write_native, write_slc, cap, rho, slc;
};

static double mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 1e3 / (double)ns : 0;
}

static double dmin(double a, double b)
{
	return a < b ? a : b;
}

/* The model's ceilings, from the parameters (what a long QD32 run approaches). */
static int figures(const struct sim_params *p, struct fig *f)
{
	struct sim_geo g;
	char msg[256];
	uint64_t dies = (uint64_t)p->channels * p->dies, pp = (uint64_t)p->planes * p->page;

	if (sim_geo_derive(p, sim_params_rho(p), false, false, &g, msg, sizeof(msg)))
		return -EINVAL;
	f->link = (double)g.link_bw / 1e6;
	f->read = dmin(dmin(f->link, (double)p->channels * (double)p->channel_rate / 1e6),
	               (double)dies * mbps(pp, p->t_read));
	if (p->ctrl_read_bw)
		f->read = dmin(f->read, (double)p->ctrl_read_bw / 1e6);
	f->write_native = dmin(f->link, (double)dies * mbps(pp, p->t_prog));
	f->write_slc =
	    p->slc && p->t_prog_slc ? dmin(f->link, (double)dies * mbps(pp, p->t_prog_slc)) : 0;
	if (p->ctrl_write_bw) {
		f->write_native = dmin(f->write_native, (double)p->ctrl_write_bw / 1e6);
		f->write_slc = dmin(f->write_slc, (double)p->ctrl_write_bw / 1e6);
	}
	f->cap = (double)g.U * g.unit / 1e9;
	f->rho = g.rho * 100;
	f->slc = (double)g.slc_units * g.unit / 1e9;
	return 0;
}

static void profiles_line(const struct sim_params *p, void *arg)
{
	struct fig f;
	char slc[32], rated[32];

	(void)arg;
	if (figures(p, &f)) {
		printf("  %-20s (invalid: see raidlab profiles %s)\n", p->name, p->name);
		return;
	}
	if (p->slc)
		snprintf(slc, sizeof(slc), "%s %.0f GB", slc_s[p->slc], f.slc);
	else
		snprintf(slc, sizeof(slc), "-");
	if (p->rated_read)
		snprintf(rated, sizeof(rated), "%.0f/%.0f", p->rated_read / 1e6,
		         p->rated_write / 1e6);
	else
		snprintf(rated, sizeof(rated), "-");
	printf("  %-20s %-4s %6.0f %6.1f %5.1f%% %s %2ux%ux%u  %-15s %5.0f %5.0f %5.0f  %s\n",
	       p->name, iface_s[p->iface], f.link, f.cap, f.rho, cell_s[p->bits < 5 ? p->bits : 0],
	       p->channels, p->dies, p->planes, slc, f.read, f.write_native, f.write_slc, rated);
}

static void profiles_detail(const struct sim_params *p)
{
	const char *const *keys = sim_params_keys();
	struct fig f;

	printf("%s: %s\n", p->name, p->description);
	if (p->aliases[0])
		printf("aliases: %s\n", p->aliases);
	printf("file: %s\n", p->path);
	for (unsigned i = 0; i < p->nsources; i++)
		printf("source: %s\n", p->sources[i]);
	if (!figures(p, &f))
		printf(
		    "\nmodel: link %.0f MB/s, capacity %.1f GB, spare %.1f%%, seq read <= %.0f "
		    "MB/s, native write <= %.0f MB/s, SLC write <= %.0f MB/s, SLC cache %.1f GB\n",
		    f.link, f.cap, f.rho, f.read, f.write_native, f.write_slc, f.slc);
	printf("\nparameters (override any in a spec: ssd(%s, KEY=VALUE)):\n  ", p->name);
	for (unsigned i = 0; keys[i]; i++)
		printf("%s%s", keys[i], keys[i + 1] ? (i % 10 == 9 ? ",\n  " : ", ") : "\n");
	printf("\nthe file's values are in %s (docs/simulator.md describes each key)\n", p->path);
}

static int profiles_ctl_line(const struct rl_ctl_profile *p, void *arg)
{
	(void)arg;
	printf("  %-24s %-6s %s\n", p->name, p->kind, p->description);
	return 0;
}

static int profiles_ctl_detail(const char *name)
{
	struct rl_ctl_profile p;

	if (rl_ctl_profile_load(name, &p))
		return -ENOENT;
	printf("%s (controller profile, kind %s)\n  %s\n  file: %s\n", p.name, p.kind,
	       p.description, p.path);
	if (p.aliases[0])
		printf("  aliases: %s\n", p.aliases);
	for (size_t i = 0; i < p.nkv; i++)
		printf("  %-22s %s\n", p.keys[i], p.values[i]);
	for (size_t i = 0; i < p.nsources; i++)
		printf("  source: %s\n", p.sources[i]);
	rl_ctl_profile_free(&p);
	return 0;
}

static int profiles_main(int argc, char **argv)
{
	const char *name = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			fputs(profiles_usage, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--dirs")) {
			const char *const *d = sim_profile_dirs();
			for (unsigned k = 0; d[k]; k++)
				printf("%s\n", d[k]);
			return 0;
		} else if (argv[i][0] == '-') {
			cli_error("profiles", "unknown option '%s'", argv[i]);
			return 2;
		} else if (name) {
			cli_error("profiles", "one profile name at a time");
			return 2;
		} else {
			name = argv[i];
		}
	}
	if (name) {
		struct sim_params p;
		char msg[1024];
		sim_params_default(&p);
		if (!profiles_ctl_detail(name))
			return 0;
		if (sim_profile_load(name, &p, msg, sizeof(msg))) {
			cli_error("profiles", "%s", msg);
			return 1;
		}
		profiles_detail(&p);
		return 0;
	}
	printf("  %-20s %-4s %6s %6s %6s %-3s %-7s %-15s %5s %5s %5s  %s\n", "profile", "if",
	       "link", "GB", "spare", "NAND", "ch/d/pl", "SLC cache", "read", "write", "slc",
	       "rated R/W");
	printf("  %-20s %-4s %6s %6s %6s %-3s %-7s %-15s %5s %5s %5s  %s\n", "", "", "MB/s", "", "",
	       "", "", "", "MB/s", "MB/s", "MB/s", "MB/s");
	if (sim_profile_each(profiles_line, NULL) == 0) {
		cli_error("profiles", "no profiles found (raidlab profiles --dirs shows where it "
		                      "looks; set RAIDLAB_PROFILES)");
		return 1;
	}
	printf("\n  %-24s %-6s %s\n", "controller / driver", "kind", "what it models");
	rl_ctl_profile_each(profiles_ctl_line, NULL);
	return 0;
}

static struct cli_command profiles_cmd = {
    .name = "profiles",
    .summary = "list the simulated drive profiles (ssd) and controller profiles (controller)",
    .usage = profiles_usage,
    .main = profiles_main,
};
CLI_COMMAND_REGISTER(profiles_cmd)
