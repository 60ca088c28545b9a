/*
 * run_files.c - the files of a job: which one each request goes to, and
 * the record of the requests (write_iolog).
 *
 * Design: a job with several files runs on concat() of them (files.c), so
 * file k is the byte range [start[k], start[k] + size[k]) of the worker's
 * target; the ranges come from the concat's members once the target is
 * open.  Three things use them:
 *   - file_service_type: as in fio, each file has its own offsets (its own
 *     generator over its range: sequential position, random map), and the
 *     service picks the file of the next request: roundrobin:N each in turn
 *     for N requests, random:N a random one for N requests, sequential one
 *     until its share of the loop is done.  A file whose share is done is
 *     passed over until every file is done, and then all start again.  Jobs
 *     whose region is not the files' whole (offset, offset_increment) or
 *     that verify (the check replays one generator) keep one region.
 *   - read_iolog: each request of the trace goes to the file it names
 *     (mapped onto that file's range) when the target has one file per name.
 *   - write_iolog: each request is kept as (time, file, offset in the file,
 *     length) and appended to the file after the run as fio's iolog v3,
 *     with the files named by their paths.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/run_priv.h"

/* The name of target @t for the iolog: a file's path (without "./"), else its type. */
static int files_target_name(struct rl_target *t, struct wl_trace *log)
{
	const char *name = t->ops->name;
	struct json_object *obj = json_object_new_object(), *path;
	int rc;

	if (obj && t->ops->describe && !t->ops->describe(t, obj) &&
	    json_object_object_get_ex(obj, "path", &path))
		name = json_object_get_string(path);
	if (!strncmp(name, "./", 2) && name[2])
		name += 2;
	rc = wl_trace_file(log, name);
	json_object_put(obj);
	return rc < 0 ? rc : 0;
}

/* Per-file generators for file_service_type over @w's files. */
static int files_service_setup(struct run_worker *w)
{
	struct run_files *fs = &w->files;
	const struct wl_job *job = w->job;

	if (fs->n < 2 || w->trace.n || job->verify || job->offset || job->offset_increment ||
	    wl_job_nfiles(job) != fs->n)
		return 0;
	fs->gens = calloc(fs->n, sizeof(*fs->gens));
	fs->done = calloc(fs->n, sizeof(*fs->done));
	fs->share = calloc(fs->n, sizeof(*fs->share));
	if (!fs->gens || !fs->done || !fs->share)
		return -ENOMEM;
	/* the region's bytes, shared as files.c sized the files (each at most its own size) */
	uint64_t each = w->gen.region_len / fs->n / w->t->block_size * w->t->block_size;
	for (unsigned k = 0; k < fs->n; k++) {
		fs->share[k] = each < fs->size[k] ? each : fs->size[k];
		if (wl_gen_init(&fs->gens[k], job, fs->start[k], fs->share[k], w->t->block_size,
		                w->seed ^ (0x9e3779b97f4a7c15ull * (k + 1))))
			return 0; /* a file smaller than a block: keep one region */
	}
	fs->service = true;
	fs->cur = 0;
	fs->left = job->file_service_n;
	return 0;
}

int run_files_setup(struct run_worker *w)
{
	struct run_files *fs = &w->files;
	struct rl_target *t = w->t;
	bool concat = t->nchildren > 1 && !strcmp(t->ops->name, "concat");

	fs->n = concat ? t->nchildren : 1;
	fs->start = calloc(fs->n, sizeof(*fs->start));
	fs->size = calloc(fs->n, sizeof(*fs->size));
	if (!fs->start || !fs->size)
		return -ENOMEM;
	if (concat) {
		uint64_t at = 0;
		for (unsigned k = 0; k < fs->n; k++) {
			uint64_t sz = t->children[k]->size / t->block_size * t->block_size;
			fs->start[k] = at;
			fs->size[k] = sz;
			at += sz;
		}
	} else {
		fs->size[0] = t->size;
	}
	wl_trace_init(&fs->log);
	if (w->job->write_iolog[0]) { /* a log that cannot be written stops the job first, as fio */
		FILE *f = fopen(w->job->write_iolog, "a");
		if (!f || fclose(f)) {
			int e = errno;
			snprintf(w->setup_msg, sizeof(w->setup_msg),
			         "job '%.40s': write_iolog: %.150s: %s", w->job->name,
			         w->job->write_iolog, strerror(e));
			return -e;
		}
	}
	if (w->job->write_iolog[0])
		for (unsigned k = 0; k < fs->n; k++) {
			int rc = files_target_name(concat ? t->children[k] : t, &fs->log);
			if (rc)
				return rc;
		}
	return files_service_setup(w);
}

void run_files_free(struct run_worker *w)
{
	struct run_files *fs = &w->files;

	free(fs->start);
	free(fs->size);
	free(fs->gens);
	free(fs->done);
	free(fs->share);
	wl_trace_free(&fs->log);
	memset(fs, 0, sizeof(*fs));
}

/* The file after @k that still has part of its share to do (@k itself last). */
static unsigned files_next_open(const struct run_files *fs, unsigned k)
{
	for (unsigned i = 1; i <= fs->n; i++) {
		unsigned c = (k + i) % fs->n;
		if (fs->done[c] < fs->share[c])
			return c;
	}
	return k;
}

/* The file of the next request, as file_service_type says. */
static unsigned files_pick(struct run_worker *w)
{
	struct run_files *fs = &w->files;
	const struct wl_job *job = w->job;
	bool all_done = true;

	for (unsigned k = 0; k < fs->n && all_done; k++)
		all_done = fs->done[k] >= fs->share[k];
	if (all_done) { /* every file had its share: the next loop (or time_based on) */
		memset(fs->done, 0, fs->n * sizeof(*fs->done));
		fs->left = job->file_service_n;
	}
	bool cur_done = fs->done[fs->cur] >= fs->share[fs->cur];
	switch ((enum wl_fsvc)job->file_service) {
	case WL_FSVC_SEQUENTIAL:
		if (cur_done)
			fs->cur = files_next_open(fs, fs->cur);
		break;
	case WL_FSVC_RANDOM:
		if (!fs->left || cur_done) {
			/* uniform among the files with work left (fio draws until one has) */
			unsigned open = 0;
			for (unsigned k = 0; k < fs->n; k++)
				open += fs->done[k] < fs->share[k];
			unsigned c = (unsigned)wl_rng_below(&w->gen.rng, open ? open : 1);
			for (unsigned k = 0; k < fs->n; k++)
				if (fs->done[k] < fs->share[k] && !c--) {
					fs->cur = k;
					break;
				}
			fs->left = job->file_service_n;
		}
		break;
	case WL_FSVC_ROUNDROBIN:
	default:
		if (!fs->left || cur_done) {
			fs->cur = files_next_open(fs, fs->cur);
			fs->left = job->file_service_n;
		}
		break;
	}
	if (fs->left)
		fs->left--;
	return fs->cur;
}

uint64_t run_files_next(struct run_worker *w, enum rl_op *op, uint32_t *len, uint64_t cap)
{
	struct run_files *fs = &w->files;
	unsigned k = files_pick(w);
	struct wl_gen *g = &fs->gens[k];

	*op = wl_gen_op(g);
	*len = wl_gen_len(g, *op);
	if (cap && *len > cap)
		*len = (uint32_t)cap;
	uint64_t off = wl_gen_offset(g, *op, len);
	fs->done[k] += *len;
	return off;
}

void run_files_rewind(struct run_worker *w)
{
	struct run_files *fs = &w->files;

	if (!fs->service)
		return;
	for (unsigned k = 0; k < fs->n; k++) {
		wl_gen_rewind(&fs->gens[k]);
		fs->done[k] = 0;
	}
}

/* The file holding byte @off of the target. */
static unsigned files_of(const struct run_files *fs, uint64_t off)
{
	unsigned k = 0;
	while (k + 1 < fs->n && off >= fs->start[k + 1])
		k++;
	return k;
}

void run_files_map_trace(const struct run_worker *w, const struct wl_trace_io *io, uint64_t *off,
                         uint32_t *len)
{
	const struct run_files *fs = &w->files;

	if (fs->n > 1 && w->trace.nfiles == fs->n && io->file < fs->n)
		wl_trace_map(io, fs->start[io->file], fs->size[io->file], w->t->block_size, off,
		             len);
	else
		wl_trace_map(io, w->gen.region_start, w->gen.region_len, w->t->block_size, off,
		             len);
}

void run_files_log(struct run_worker *w, uint64_t now, enum rl_op op, uint64_t off, uint32_t len)
{
	struct run_files *fs = &w->files;

	if (!w->job->write_iolog[0] || fs->log_failed)
		return;
	unsigned k = op == RL_OP_FLUSH ? fs->last : files_of(fs, off);
	if (op != RL_OP_FLUSH)
		off -= fs->start[k];
	else
		len = 0;
	fs->last = k;
	if (wl_trace_add(&fs->log, now > w->t_start ? now - w->t_start : 0, op, off, len)) {
		fs->log_failed = true; /* out of memory: said when the log is written */
		return;
	}
	fs->log.io[fs->log.n - 1].file = (uint16_t)k;
}

int run_files_write_log(struct run_worker *w, char *msg, size_t msglen)
{
	const struct wl_job *job = w->job;
	int rc;

	if (!job->write_iolog[0] || !w->files.start) /* not set up: nothing was issued */
		return 0;
	if (w->files.log_failed) {
		snprintf(msg, msglen, "job '%.40s': write_iolog: too many requests to keep (%zu)",
		         job->name, w->files.log.n);
		return -ENOMEM;
	}
	FILE *f = fopen(job->write_iolog, "a"); /* as fio: each log is appended */
	if (!f) {
		rc = -errno;
		snprintf(msg, msglen, "job '%.40s': write_iolog: %.200s: %s", job->name,
		         job->write_iolog, strerror(-rc));
		return rc;
	}
	rc = wl_trace_write(&w->files.log, NULL, f);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		snprintf(msg, msglen, "job '%.40s': write_iolog: %.200s: %s", job->name,
		         job->write_iolog, strerror(-rc));
	return rc;
}
