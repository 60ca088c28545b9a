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
 * (parity.c), its level description the table in parity_build.c: this
 * file only registers the level's name and help.
 */
#include "raid/parity.h"
#include "raid/parity_params.h"

static struct rl_target_type raid5_type = {
    .name = "raid5",
    .summary = "block-interleaved distributed parity: one parity chunk per stripe (md raid5)",
    .args = "MEMBER...",
    .params = parity_params,
    .create = parity_type_create,
};
RL_TARGET_REGISTER(raid5_type)
