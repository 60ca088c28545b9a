/*
 * fuzz_jobfile.c - libFuzzer target for job files and single options.
 *
 * Design: the input is copied and NUL-terminated, then used twice:
 *   1. as a whole job file, parsed on top of a default base job; a success
 *      must yield at least one job, each of which passes wl_job_validate;
 *   2. split at its first '=' into name and value (no '=': a bare key) and
 *      given to wl_job_set, then wl_job_validate.
 * Beyond the sanitizers it checks the contracts callers rely on: a failed
 * call leaves its output empty (job file) or unchanged (option), and every
 * failure writes a NUL-terminated message, also into a tiny buffer.
 */
#include "workload/job.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_check_msg(int ret, const char *msg, size_t msglen)
{
	if (ret != 0 && (msg[0] == '\0' || strnlen(msg, msglen) == msglen))
		abort();
}

static void fuzz_jobfile(const char *text)
{
	struct wl_job base;
	struct wl_jobfile jf;
	char msg[512], tiny[6];

	wl_job_init(&base);
	int ret = wl_jobfile_parse(text, "fuzz.fio", &base, &jf, msg, sizeof(msg));
	fuzz_check_msg(ret, msg, sizeof(msg));
	if (ret == 0) {
		if (jf.njobs == 0 || jf.njobs > WL_JOBFILE_JOBS_MAX)
			abort();
		for (size_t i = 0; i < jf.njobs; i++)
			if (wl_job_validate(&jf.jobs[i], "fuzz", msg, sizeof(msg)) != 0)
				abort();
		wl_jobfile_free(&jf);
	} else if (jf.jobs || jf.njobs || jf.target) {
		abort();
	}
	ret = wl_jobfile_parse(text, "fuzz.fio", NULL, &jf, tiny, sizeof(tiny));
	fuzz_check_msg(ret, tiny, sizeof(tiny));
	if (ret == 0)
		wl_jobfile_free(&jf);
}

static void fuzz_option(char *text)
{
	struct wl_job job, before;
	char msg[512];
	const char *value = NULL;
	char *eq = strchr(text, '=');

	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	wl_job_init(&job);
	memcpy(&before, &job, sizeof(job));
	int ret = wl_job_set(&job, text, value, "fuzz", msg, sizeof(msg));
	fuzz_check_msg(ret, msg, sizeof(msg));
	if (ret != 0 && memcmp(&job, &before, sizeof(job)) != 0)
		abort();
	ret = wl_job_validate(&job, "fuzz", msg, sizeof(msg));
	fuzz_check_msg(ret, msg, sizeof(msg));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_jobfile(text);
	fuzz_option(text);
	free(text);
	return 0;
}
