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
 * (parity.c), its level description the table in parity_build.c: this
 * file only registers the level's name and help.
 */
#include "raid/parity.h"
#include "raid/parity_params.h"

static struct rl_target_type raid6_type = {
    .name = "raid6",
    .summary = "P+Q dual parity: survives any two members (md raid6)",
    .args = "MEMBER...",
    .params = parity_params,
    .create = parity_type_create,
};
RL_TARGET_REGISTER(raid6_type)
