/*
 * fileops.c - files or folders as the I/O: fio's filecreate, filestat,
 * filedelete, dircreate, dirstat and dirdelete engines.
 *
 *   fileops("/scratch/job.0.", "", op=create, count=1000, unit=4k)
 *
 * The target is count entries of unit bytes each; a request at offset o is
 * one operation on entry o / unit, named PREFIX, the entry's number, SUFFIX
 * (the job's filename_format around $filenum, see workload/files.c):
 *   create  open(2) with O_CREAT, then close (dirs=1: mkdir(2));
 *   stat    stat(2) (fio's default stat_type);
 *   delete  unlink(2) (dirs=1: rmdir(2)).
 * The request completes with the call's result, so its latency is the
 * call's and a job's IOPS are operations per second, as fio times the same
 * calls.  The request's length does not matter: fio does one I/O of the
 * block size per file.
 *
 * stat and delete need the entries: the missing ones are made first (files
 * of filesize bytes, written as fio lays its files out).  An entry that
 * existed before is deleted only with --force-destroy.  When the run ends,
 * the entries raidlab made that are still there are removed unless kept
 * (keep=1, --keep), as file() does with the files it creates.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/registry.h"

enum fileops_op { FILEOPS_CREATE, FILEOPS_STAT, FILEOPS_DELETE };

struct fileops_state {
	char *prefix, *suffix;
	enum fileops_op op;
	bool dirs, keep;
	uint64_t count, unit, filesize;
	uint8_t *made; /* per entry: raidlab made it (removed at finish unless kept) */
};

static bool fileops_path(const struct fileops_state *s, uint64_t k, char *path, size_t len)
{
	int n = snprintf(path, len, "%s%llu%s", s->prefix, (unsigned long long)k, s->suffix);
	return n > 0 && (size_t)n < len;
}

/* The operation on entry @k: 0 or a negative errno. */
static int fileops_do(struct fileops_state *s, uint64_t k)
{
	char path[PATH_MAX];
	struct stat st;

	if (!fileops_path(s, k, path, sizeof(path)))
		return -ENAMETOOLONG;
	switch (s->op) {
	case FILEOPS_CREATE:
		if (s->dirs) {
			if (mkdir(path, 0700))
				return -errno;
			s->made[k] = 1;
			return 0;
		} else {
			int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
			if (fd >= 0)
				s->made[k] = 1;
			else if (errno == EEXIST) /* fio opens it as it is */
				fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				return -errno;
			close(fd);
			return 0;
		}
	case FILEOPS_STAT:
		return stat(path, &st) ? -errno : 0;
	case FILEOPS_DELETE:
		if (s->dirs ? rmdir(path) : unlink(path))
			return -errno;
		s->made[k] = 0;
		return 0;
	}
	return -EINVAL;
}

static void fileops_submit(struct rl_target *t, struct rl_io *io)
{
	struct fileops_state *s = t->priv;
	uint64_t k = io->offset / s->unit;

	if (io->op == RL_OP_FLUSH) {
		rl_io_complete_later(io, 0);
		return;
	}
	rl_io_complete_later(io, k < s->count ? fileops_do(s, k) : -EINVAL);
}

static int fileops_describe(struct rl_target *t, struct json_object *obj)
{
	static const char *const names[] = {"create", "stat", "delete"};
	struct fileops_state *s = t->priv;

	json_object_object_add(obj, "prefix", json_object_new_string(s->prefix));
	json_object_object_add(obj, "op", json_object_new_string(names[s->op]));
	json_object_object_add(obj, "kind", json_object_new_string(s->dirs ? "folders" : "files"));
	json_object_object_add(obj, "count", json_object_new_int64((int64_t)s->count));
	return 0;
}

static void fileops_finish(struct rl_target *t)
{
	struct fileops_state *s = t->priv;
	char path[PATH_MAX];

	for (uint64_t k = 0; s->made && !s->keep && k < s->count; k++) {
		if (!s->made[k] || !fileops_path(s, k, path, sizeof(path)))
			continue;
		(void)(s->dirs ? rmdir(path) : unlink(path));
		s->made[k] = 0;
	}
}

static void fileops_destroy(struct rl_target *t)
{
	struct fileops_state *s = t->priv;

	if (!s)
		return;
	fileops_finish(t);
	free(s->made);
	free(s->prefix);
	free(s->suffix);
	free(s);
}

static const struct rl_target_ops fileops_ops = {
    .name = "fileops",
    .submit = fileops_submit,
    .describe = fileops_describe,
    .finish = fileops_finish,
    .destroy = fileops_destroy,
};

/* A new file of filesize bytes at @path, written as fio lays files out. */
static int fileops_layout(const struct fileops_state *s, const char *path)
{
	static const uint8_t chunk[4096];
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return -errno;
	for (uint64_t off = 0; off < s->filesize && !rc; off += sizeof(chunk)) {
		size_t n =
		    s->filesize - off < sizeof(chunk) ? (size_t)(s->filesize - off) : sizeof(chunk);
		if (pwrite(fd, chunk, n, (off_t)off) != (ssize_t)n)
			rc = errno ? -errno : -EIO;
	}
	close(fd);
	return rc;
}

/* stat and delete: every entry must exist; make the missing ones. */
static int fileops_prepare(struct fileops_state *s, const struct rl_build_ctx *ctx, size_t pos,
                           struct rl_err *err)
{
	char path[PATH_MAX];
	struct stat st;

	for (uint64_t k = 0; k < s->count; k++) {
		if (!fileops_path(s, k, path, sizeof(path)))
			return rl_err_set(err, pos, "the name of entry %llu is too long",
			                  (unsigned long long)k);
		if (stat(path, &st) == 0) {
			if (s->op == FILEOPS_DELETE && !ctx->force_destroy)
				return rl_err_set(
				    err, pos,
				    "refusing to delete %s, which raidlab did not make; "
				    "pass --force-destroy to delete it",
				    path);
			continue;
		}
		int rc = s->dirs ? (mkdir(path, 0700) ? -errno : 0) : fileops_layout(s, path);
		if (rc) {
			rl_err_set(err, pos, "cannot make %s: %s", path, strerror(-rc));
			return rc;
		}
		s->made[k] = 1;
	}
	return 0;
}

static const char *const fileops_names[] = {"create", "stat", "delete", NULL};

static const struct rl_param fileops_params[] = {
    {.name = "op",
     .type = RL_PARAM_ENUM,
     .def = "create",
     .choices = fileops_names,
     .help = "what each request does to its entry: create, stat or delete"},
    {.name = "dirs",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "the entries are folders (mkdir, stat, rmdir)"},
    {.name = "count",
     .type = RL_PARAM_U64,
     .def = "1",
     .min = 1,
     .max = 1u << 24,
     .help = "entries, numbered from 0"},
    {.name = "unit", .type = RL_PARAM_SIZE, .def = "4k", .help = "bytes of target per entry"},
    {.name = "filesize",
     .type = RL_PARAM_SIZE,
     .def = "4k",
     .help = "size of the files made before stat or delete"},
    {.name = "keep",
     .type = RL_PARAM_BOOL,
     .def_note = "off (`--keep`)",
     .help = "keep the entries raidlab made when the run ends"},
    {0},
};

static int fileops_args(struct rl_spec_node *node, struct fileops_state *s, int *op,
                        struct rl_err *err)
{
	int rc;

	if (!node->is_call || node->nargs < 1 || node->nargs > 2 || node->args[0]->is_call ||
	    (node->nargs == 2 && node->args[1]->is_call))
		return rl_err_set(err, node->pos,
		                  "fileops takes a name prefix and an optional suffix, e.g. "
		                  "fileops(\"/tmp/job.0.\", op=create, count=100)");
	if ((rc = rl_param_enum(node, fileops_params, "op", op, err)) ||
	    (rc = rl_param_bool(node, fileops_params, "dirs", &s->dirs, err)) ||
	    (rc = rl_param_u64(node, fileops_params, "count", &s->count, err)) ||
	    (rc = rl_param_u64(node, fileops_params, "unit", &s->unit, err)) ||
	    (rc = rl_param_u64(node, fileops_params, "filesize", &s->filesize, err)) ||
	    (rc = rl_param_bool(node, fileops_params, "keep", &s->keep, err)) ||
	    (rc = rl_params_check(node, fileops_params, err)))
		return rc;
	if (s->unit < 512 || s->unit % 512 || s->count > UINT64_MAX / s->unit)
		return rl_err_set(err, node->pos, "fileops: unit must be a multiple of 512");
	s->prefix = strdup(node->args[0]->name);
	s->suffix = strdup(node->nargs == 2 ? node->args[1]->name : "");
	s->made = calloc(s->count, 1);
	return s->prefix && s->suffix && s->made ? 0 : -ENOMEM;
}

static int fileops_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                          struct rl_target **out, struct rl_err *err)
{
	struct fileops_state *s = calloc(1, sizeof(*s));
	struct rl_target *t = rl_target_alloc(&fileops_ops, 0);
	int op = FILEOPS_CREATE, rc;

	if (!s || !t) {
		free(s);
		free(t);
		return -ENOMEM;
	}
	t->priv = s;
	s->keep = ctx->keep;
	rc = fileops_args(node, s, &op, err);
	s->op = (enum fileops_op)op;
	if (!rc && s->op != FILEOPS_CREATE)
		rc = fileops_prepare(s, ctx, node->pos, err);
	if (rc) {
		rl_target_close(t);
		return rc;
	}
	t->size = s->count * s->unit;
	t->block_size = 512;
	t->caps = RL_CAP_FLUSH | RL_CAP_REAL;
	*out = t;
	return 0;
}

static struct rl_target_type fileops_type = {
    .name = "fileops",
    .summary = "files or folders as the I/O: each request creates, stats or deletes one "
               "(fio's filecreate ... dirdelete engines)",
    .args = "PREFIX [SUFFIX]",
    .params = fileops_params,
    .create = fileops_create,
};
RL_TARGET_REGISTER(fileops_type)
