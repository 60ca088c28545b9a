/*
 * null.c - the null target: no data, every request succeeds at once.
 *
 *   null(size=1t)
 *
 * Used to measure raidlab itself (the engine's overhead per I/O, compared
 * with fio's null engine in bench/vs-fio.sh) and as a cheap member for
 * layout tests.  Reads leave the buffer untouched.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/registry.h"

static void null_submit(struct rl_target *t, struct rl_io *io)
{
	(void)t;
	rl_io_complete_later(io, 0);
}

static const struct rl_target_ops null_ops = {
    .name = "null",
    .submit = null_submit,
};

static const struct rl_param null_params[] = {
    {.name = "size", .type = RL_PARAM_SIZE, .def = "1t", .help = "capacity (nothing is stored)"},
    RL_GEOMETRY_PARAM_BS,
    {0},
};

static int null_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	uint64_t size;
	uint32_t bs;
	int rc;

	(void)ctx;
	if ((rc = rl_target_parse_geometry(node, null_params, &size, &bs, err)))
		return rc;
	struct rl_target *t = rl_target_alloc(&null_ops, 0);
	if (!t)
		return -ENOMEM;
	t->block_size = bs;
	t->size = size;
	t->caps = RL_CAP_TRIM | RL_CAP_FLUSH;
	*out = t;
	return 0;
}

static struct rl_target_type null_type = {
    .name = "null",
    .summary = "no storage: every request succeeds at once (measures raidlab itself)",
    .params = null_params,
    .create = null_create,
};
RL_TARGET_REGISTER(null_type)
