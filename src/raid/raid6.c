/*
 * raid6.c - md raid6: two parity chunks: P (XOR) and Q (Reed-Solomon syndrome)
 * per stripe, rotating over the members as md's layout algorithm says.
 *
 *   raid6(m0, m1, ..., layout=left-symmetric, chunk=512k, stripe_cache=256,
 *         stripe_size=64k, max-read-errors=20, failed=K)
 *
 * At least 4 members; the array holds (members - 2) x the smallest
 * member, in whole chunks.  Survives any two failed members; check names the wrong member.
 * Placement is parity_layout.c, the data path the shared parity engine
 * (parity.c): this file only names the level.
 */
#include "raid/parity.h"

static const struct rl_target_ops raid6_ops = {
    .name = "raid6",
    .submit = parity_submit,
    .describe = raid_describe,
    .report = raid_report,
    .ctl = raid_ctl,
    .attach = parity_attach,
    .finish = parity_target_finish,
    .destroy = parity_destroy,
};

static const struct parity_level_desc raid6_desc = {
    .name = "raid6",
    .level = 6,
    .nparity = 2,
    .ops = &raid6_ops,
};

static int raid6_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	return parity_create(&raid6_desc, node, ctx, out, err);
}

static struct rl_target_type raid6_type = {
    .name = "raid6",
    .summary = "P+Q dual parity: survives any two members (md raid6)",
    .params = "MEMBER..., layout=left-symmetric|right-symmetric|left-asymmetric|"
              "right-asymmetric|parity-first|parity-last|left-symmetric-6|..., chunk=SIZE (default "
              "512k), "
              "stripe_cache=N (default 256), stripe_size=SIZE (default 64k), "
              "max-read-errors=N (default 20), failed=K[+K...], journal=SPEC, powerloss-after=N, "
              "bitmap-chunk=SIZE",
    .create = raid6_create,
};
RL_TARGET_REGISTER(raid6_type)
