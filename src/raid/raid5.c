/*
 * raid5.c - md raid5: one parity chunk (P, the XOR of the stripe's data)
 * per stripe, rotating over the members as md's layout algorithm says.
 *
 *   raid5(m0, m1, ..., layout=left-symmetric, chunk=512k, stripe_cache=256,
 *         stripe_size=64k, max-read-errors=20, failed=K)
 *
 * At least 3 members; the array holds (members - 1) x the smallest
 * member, in whole chunks.  Survives one failed member.
 * Placement is parity_layout.c, the data path the shared parity engine
 * (parity.c): this file only names the level.
 */
#include "raid/parity.h"

static const struct rl_target_ops raid5_ops = {
    .name = "raid5",
    .submit = parity_submit,
    .describe = raid_describe,
    .report = raid_report,
    .ctl = raid_ctl,
    .attach = parity_attach,
    .finish = parity_target_finish,
    .destroy = parity_destroy,
};

static const struct parity_level_desc raid5_desc = {
    .name = "raid5",
    .level = 5,
    .nparity = 1,
    .ops = &raid5_ops,
};

static int raid5_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	return parity_create(&raid5_desc, node, ctx, out, err);
}

static struct rl_target_type raid5_type = {
    .name = "raid5",
    .summary = "block-interleaved distributed parity: one parity chunk per stripe (md raid5)",
    .params = "MEMBER..., layout=left-symmetric|right-symmetric|left-asymmetric|"
              "right-asymmetric|parity-first|parity-last, chunk=SIZE (default 512k), "
              "stripe_cache=N (default 256), stripe_size=SIZE (default 64k), "
              "max-read-errors=N (default 20), failed=K[+K...], journal=SPEC, ppl=on, "
              "powerloss-after=N, bitmap-chunk=SIZE",
    .create = raid5_create,
};
RL_TARGET_REGISTER(raid5_type)
