/*
 * job.c - questions about a job that the engine and the reports ask: does
 * it read, does it write, is its pattern random, which errors does it go
 * past, at which I/O priority does it run, and the names of its rw values.
 *
 * Design: small pure functions of struct wl_job, kept apart from the
 * option table so the engine's needs do not grow the parser.
 */
#include "workload/job.h"

#include <errno.h>

bool wl_job_continues(const struct wl_job *job, int type, int err)
{
	if (type < 0 || type > 2 || !(job->coe & (1u << type)))
		return false;
	if (!job->nignore[type])
		return err == EIO || err == EILSEQ; /* fio's non-fatal errors */
	for (uint32_t i = 0; i < job->nignore[type] && i < WL_IGNORE_MAX; i++)
		if (job->ignore_err[type][i] == err)
			return true;
	return false;
}

uint16_t wl_job_ioprio(const struct wl_job *job)
{
	uint32_t cls = job->prio_class ? job->prio_class : job->prio_set ? 2 : 0;
	return (uint16_t)(cls << 13 | job->prio_level);
}

uint16_t wl_job_cmdprio(const struct wl_job *job, int dir)
{
	return (uint16_t)(job->cmdprio_class[dir] << 13 | job->cmdprio_level[dir]);
}

bool wl_rw_is_random(enum wl_rw rw)
{
	return rw == WL_RW_RANDREAD || rw == WL_RW_RANDWRITE || rw == WL_RW_RANDRW ||
	       rw == WL_RW_RANDTRIM;
}

const char *wl_rw_name(enum wl_rw rw)
{
	switch (rw) {
	case WL_RW_READ:
		return "read";
	case WL_RW_WRITE:
		return "write";
	case WL_RW_RANDREAD:
		return "randread";
	case WL_RW_RANDWRITE:
		return "randwrite";
	case WL_RW_RW:
		return "rw";
	case WL_RW_RANDRW:
		return "randrw";
	case WL_RW_TRIM:
		return "trim";
	case WL_RW_RANDTRIM:
		return "randtrim";
	}
	return "invalid";
}

bool wl_job_writes(const struct wl_job *job)
{
	if (job->verify_only)
		return false; /* it only reads back */
	if (job->read_iolog[0])
		return true; /* a trace may write: armed as a writer, whatever it holds */
	switch (job->rw) {
	case WL_RW_WRITE:
	case WL_RW_RANDWRITE:
	case WL_RW_TRIM:
	case WL_RW_RANDTRIM:
		return true;
	case WL_RW_RW:
	case WL_RW_RANDRW:
		return job->rwmixread < 100;
	case WL_RW_READ:
	case WL_RW_RANDREAD:
		break;
	}
	return false;
}

bool wl_job_reads(const struct wl_job *job)
{
	if (job->verify != WL_VERIFY_NONE || job->verify_only)
		return true;
	switch (job->rw) {
	case WL_RW_WRITE:
	case WL_RW_RANDWRITE:
	case WL_RW_TRIM:
	case WL_RW_RANDTRIM:
		return false;
	case WL_RW_RW:
	case WL_RW_RANDRW:
		return job->rwmixread > 0;
	case WL_RW_READ:
	case WL_RW_RANDREAD:
		break;
	}
	return true;
}
