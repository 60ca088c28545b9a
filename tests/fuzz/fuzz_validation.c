/*
 * fuzz_validation.c - libFuzzer target for validation sets
 * (the JSON files under validation/, report/validate.h).
 *
 * The input is written to a set file and loaded with val_set_load.  A
 * refusal must carry a message naming the file.  An accepted set goes
 * through what validate does after its runs, with no results at all (every
 * configuration missing): filled, checked, printed and rendered as JSON,
 * none of which may crash, leak or read out of bounds (ASan).
 */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char fz_path[320];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[256];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/raidlab-fuzz-validation.XXXXXX",
	         getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(fz_path, sizeof(fz_path), "%s/fz.json", dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct val_set s;
	struct val_stats st;
	char msg[512] = "";
	FILE *f;

	if (size > 262144)
		return 0;
	f = fopen(fz_path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	memset(&s, 0, sizeof(s));
	if (val_set_load(fz_path, &s, msg, sizeof(msg))) {
		if (!strstr(msg, "fz.json"))
			abort();
		val_set_free(&s);
		return 0;
	}
	val_set_fill(&s);
	memset(&st, 0, sizeof(st));
	val_set_check(&s, &st);
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		abort();
	val_set_print(null, &s, &st, true);
	fclose(null);
	json_object_put(val_set_json(&s, &st));
	val_stats_free(&st);
	val_set_free(&s);
	return 0;
}
