/*
 * fuzz_profile.c - libFuzzer target for drive profiles and controller
 * profiles (the files under profiles/).
 *
 * The input is written to a drive profile file and to a controller profile
 * file in a private directory that RAIDLAB_PROFILES points at.  The drive
 * profile goes through sim_profile_load and, when accepted, through the
 * whole ssd target (geometry, tables; data=off) as `ssd(PATH)` builds it;
 * the controller profile through rl_ctl_profile_parse and, when accepted,
 * through `controller(NAME, mem(size=16m))`, which turns its keys into a
 * cache or link spec.  Invariants: a refusal has a message naming the
 * file; an accepted controller has a kind of cache or link and as many
 * values as keys; nothing crashes, leaks or reads out of bounds (ASan).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctl_profile.h"
#include "core/registry.h"
#include "core/target.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char fz_dir[256], fz_drive[320], fz_ctl[320];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(fz_dir, sizeof(fz_dir), "%s/raidlab-fuzz-profile.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fz_dir))
		abort();
	snprintf(fz_drive, sizeof(fz_drive), "%s/fz.profile", fz_dir);
	snprintf(fz_ctl, sizeof(fz_ctl), "%s/fz.controller", fz_dir);
	setenv("RAIDLAB_PROFILES", fz_dir, 1);
	return 0;
}

static void fz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

static void fz_open_close(const char *spec)
{
	struct rl_build_ctx ctx;
	struct rl_target *t = NULL;
	struct rl_err err = {0};

	rl_build_ctx_init(&ctx);
	ctx.quiet = true;
	if (rl_target_open(spec, &ctx, &t, &err)) {
		if (!err.msg[0])
			abort();
		return;
	}
	rl_target_close(t);
}

static bool fz_plain_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_' || *s == '.'))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_params p;
	struct rl_ctl_profile c;
	char msg[512], spec[512];

	if (size > 65536)
		return 0;
	fz_write(fz_drive, data, size);
	remove(fz_ctl);
	sim_params_default(&p);
	msg[0] = 0;
	if (sim_profile_load(fz_drive, &p, msg, sizeof(msg))) {
		if (!strstr(msg, "fz.profile"))
			abort();
	} else {
		snprintf(spec, sizeof(spec), "ssd(%s, data=off)", fz_drive);
		fz_open_close(spec);
	}
	remove(fz_drive);

	fz_write(fz_ctl, data, size);
	memset(&c, 0, sizeof(c));
	msg[0] = 0;
	if (rl_ctl_profile_parse(fz_ctl, &c, msg, sizeof(msg))) {
		if (!strstr(msg, "fz.controller"))
			abort();
	} else {
		if (strcmp(c.kind, "cache") && strcmp(c.kind, "link"))
			abort();
		for (size_t i = 0; i < c.nkv; i++)
			if (!c.keys[i] || !c.values[i])
				abort();
		if (fz_plain_name(c.name)) {
			snprintf(spec, sizeof(spec), "controller(%s, mem(size=16m))", c.name);
			fz_open_close(spec);
		}
	}
	rl_ctl_profile_free(&c);
	return 0;
}
