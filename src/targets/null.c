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

static int null_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	static const char *const known[] = {"size", "bs", NULL};
	uint64_t size, bs;
	int rc;

	(void)ctx;
	if (node->nargs)
		return rl_err_set(err, node->args[0]->pos, "null takes no positional arguments");
	if ((rc = rl_spec_get_size(node, "size", 1ull << 40, &size, err)) ||
	    (rc = rl_spec_get_size(node, "bs", 512, &bs, err)) ||
	    (rc = rl_spec_check_unused(node, known, err)))
		return rc;
	if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
		return rl_err_set(err, node->pos,
		                  "null: bs must be a power of two from 512 to 64k");
	if (size < bs)
		return rl_err_set(err, node->pos, "null: size must be at least one block");
	struct rl_target *t = rl_target_alloc(&null_ops, 0);
	if (!t)
		return -ENOMEM;
	t->block_size = (uint32_t)bs;
	t->size = size / bs * bs;
	t->caps = RL_CAP_TRIM | RL_CAP_FLUSH;
	*out = t;
	return 0;
}

static struct rl_target_type null_type = {
    .name = "null",
    .summary = "no storage: every request succeeds at once (measures raidlab itself)",
    .params = "size=SIZE (default 1t), bs=SIZE logical block (default 512)",
    .create = null_create,
};
RL_TARGET_REGISTER(null_type)
