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

bool wl_job_time_based(const struct wl_job *job)
{
	return job->time_based && job->runtime_ns;
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

const struct wl_bssplit *wl_job_bssplit(const struct wl_job *job, int dir, unsigned *n)
{
	for (int d = dir > 2 ? 2 : dir; d >= 1; d--)
		if (job->nbssplit_wt[d - 1]) {
			*n = job->nbssplit_wt[d - 1];
			return job->bssplit_wt[d - 1];
		}
	*n = job->nbssplit;
	return job->bssplit;
}

void wl_job_bs_bounds(const struct wl_job *job, uint32_t *min, uint32_t *max)
{
	*min = UINT32_MAX;
	*max = 0;
	for (int d = 0; d < 3; d++) {
		unsigned n;
		const struct wl_bssplit *s = wl_job_bssplit(job, d, &n);
		for (unsigned i = 0; i < (n ? n : 1) && i < WL_BSSPLIT_MAX; i++) {
			uint32_t b = n ? s[i].bs : job->bs;
			*min = b < *min ? b : *min;
			*max = b > *max ? b : *max;
		}
	}
}

bool wl_job_cmdprio_pick(const struct wl_job *job, int dir, uint32_t len, uint32_t r,
                         uint16_t *prio)
{
	if (dir < 0 || dir > 1)
		return false;
	*prio = wl_job_cmdprio(job, dir);
	if (!job->ncmdprio_split[dir])
		return r < job->cmdprio_pct[dir];
	for (unsigned i = 0; i < job->ncmdprio_split[dir] && i < WL_BSSPLIT_MAX; i++) {
		const struct wl_cmdprio_split *e = &job->cmdprio_split[dir][i];
		if (e->bs != len)
			continue;
		if (r < e->pct) {
			if (e->prio >= 0)
				*prio = (uint16_t)e->prio;
			return true;
		}
		r -= e->pct;
	}
	return false;
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
	if (job->engine == WL_ENGINE_FALLOC || job->engine == WL_ENGINE_FTRUNCATE)
		return true; /* its reads allocate too (fio opens the file read-write) */
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

bool wl_job_sub_sector(const struct wl_job *job)
{
	if (job->offset % WL_BS_MIN || job->offset_increment % WL_BS_MIN)
		return true;
	for (int d = 0; d < 3; d++) {
		unsigned n;
		const struct wl_bssplit *split = wl_job_bssplit(job, d, &n);
		if (!n && job->bs % WL_BS_MIN)
			return true;
		for (unsigned i = 0; i < n; i++)
			if (split[i].bs % WL_BS_MIN)
				return true;
	}
	return false;
}
