/*
 * slice.c - a window onto part of another target.
 *
 *   slice(TARGET, offset=1m, size=100m)
 *
 * Byte 0 of the slice is byte `offset` of TARGET; the slice holds `size`
 * bytes (default: the rest of TARGET).  md members are read through
 * slices: an md v1.2 member keeps its superblock at 4 KiB and its data
 * from data_offset on, so md(...) opens each member as
 * slice(MEMBER, offset=data_offset, size=used size).  Each request becomes
 * one child request shifted by the offset (the submitter's request is not
 * modified); flush passes through.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>

#include "core/exec.h"
#include "core/registry.h"

struct slice_state {
	uint64_t offset;
};

/* A request's context while the slice holds it (io.h). */
struct slice_req {
	struct rl_target *t; /* the slice: a request parked for the pool resumes here */
};
RL_IO_CTX_DEFINE(slice_req, struct slice_req)

static void slice_issue(struct rl_io *io)
{
	struct rl_target *t = slice_req(io)->t;
	struct slice_state *s = t->priv;
	struct rl_io *c = rl_io_child_get(io);

	if (!c) {
		if (!io->ex->pool_size) { /* no pool at all: fail, from the loop */
			io->pending = 0;
			rl_io_complete_later(io, -ENOMEM);
			return;
		}
		rl_exec_wait(io->ex, io, slice_issue);
		return;
	}
	c->op = io->op;
	c->flags = io->flags;
	c->ioprio = io->ioprio;
	c->len = io->len;
	c->buf = io->buf;
	c->offset = io->op == RL_OP_FLUSH ? 0 : io->offset + s->offset;
	rl_target_submit(t->children[0], c);
	rl_io_children_sealed(io);
}

static void slice_submit(struct rl_target *t, struct rl_io *io)
{
	slice_req(io)->t = t;
	rl_io_children_begin(io);
	slice_issue(io);
}

static int slice_describe(struct rl_target *t, struct json_object *obj)
{
	struct slice_state *s = t->priv;

	json_object_object_add(obj, "offset_bytes", json_object_new_int64((int64_t)s->offset));
	return 0;
}

static void slice_destroy(struct rl_target *t)
{
	free(t->priv);
	t->priv = NULL;
}

static const struct rl_target_ops slice_ops = {
    .name = "slice",
    .ctx_size = sizeof(struct slice_req),
    .submit = slice_submit,
    .describe = slice_describe,
    .destroy = slice_destroy,
};

static const struct rl_param slice_params[] = {
    {.name = "offset",
     .type = RL_PARAM_SIZE,
     .def = "0",
     .help = "byte 0 of the slice is this byte of TARGET: a multiple of its block size"},
    {.name = "size",
     .type = RL_PARAM_SIZE,
     .def_note = "the rest of TARGET",
     .help = "length: a positive multiple of the block size that fits after the offset"},
    {0},
};

static int slice_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	struct slice_state *s;
	struct rl_target *t, *below;
	uint64_t offset = 0, size;
	int rc;

	if (node->nargs != 1)
		return rl_err_set(
		    err, node->pos,
		    "slice takes exactly one target, e.g. slice(disk.img, offset=1m)");
	rc = rl_target_build(node->args[0], ctx, &below, err);
	if (rc)
		return rc;
	t = rl_target_alloc(&slice_ops, 1);
	s = calloc(1, sizeof(*s));
	if (!t || !s) {
		free(s);
		free(t);
		rl_target_close(below);
		return -ENOMEM;
	}
	t->children[0] = below;
	t->priv = s;
	t->block_size = below->block_size;
	t->caps = below->caps & (RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA);
	if ((rc = rl_param_u64(node, slice_params, "offset", &offset, err)))
		goto fail;
	if (offset % below->block_size || offset >= below->size) {
		rc =
		    rl_err_set(err, node->pos,
		               "slice: offset must be a multiple of the block size (%u) inside the "
		               "target (%llu bytes)",
		               below->block_size, (unsigned long long)below->size);
		goto fail;
	}
	size = below->size - offset;
	if ((rc = rl_param_u64(node, slice_params, "size", &size, err)))
		goto fail;
	if (!size || size % below->block_size || size > below->size - offset) {
		rc = rl_err_set(
		    err, node->pos,
		    "slice: size must be a positive multiple of the block size (%u) that "
		    "fits after the offset (%llu bytes left)",
		    below->block_size, (unsigned long long)(below->size - offset));
		goto fail;
	}
	if ((rc = rl_params_check(node, slice_params, err)))
		goto fail;
	s->offset = offset;
	t->size = size;
	*out = t;
	return 0;
fail:
	rl_target_close(t);
	return rc;
}

static struct rl_target_type slice_type = {
    .name = "slice",
    .summary = "a window onto part of a target (md members: the data after data_offset)",
    .args = "TARGET",
    .params = slice_params,
    .create = slice_create,
};
RL_TARGET_REGISTER(slice_type)
