/*
 * parity_params.c - what raid5(...) and raid6(...) accept, written once:
 * names, types, defaults (md's where md has one) and help.  parity_create
 * reads the values through it; help and docs render it.
 */
#include "raid/parity_params.h"

#include "raid/raid_common.h"

const struct rl_param parity_params[] = {
    {.name = "layout",
     .type = RL_PARAM_STR,
     .def = "left-symmetric",
     .source = "mdadm's default",
     .form = "NAME",
     .help = "md algorithm: `left-asymmetric`, `right-asymmetric`, `left-symmetric`, "
             "`right-symmetric`, `parity-first`, `parity-last` (or `la ra ls rs`); raid6 also "
             "`left-asymmetric-6`, `right-asymmetric-6`, `left-symmetric-6`, "
             "`right-symmetric-6`, `parity-first-6`"},
    {.name = "chunk", .type = RL_PARAM_SIZE, .def = "512k", .help = "power of two, at least 4k"},
    {.name = "stripe_cache",
     .type = RL_PARAM_U64,
     .def = "256",
     .source = "md's default",
     .min = 1,
     .max = 32768,
     .help = "stripe cache entries (md's `stripe_cache_size`); each is also a per-stripe lock"},
    {.name = "stripe_size",
     .type = RL_PARAM_SIZE,
     .def_note = "64k, at most the chunk",
     .help = "rows per cache entry on each member"},
    {.name = "max-read-errors",
     .type = RL_PARAM_U64,
     .def = "20",
     .source = "md's default",
     .max = 1u << 30,
     .help = "corrected read errors a member may have before it is failed (md's "
             "`max_read_errors`)"},
    RAID_PARAM_FAILED,
    {.name = "journal",
     .type = RL_PARAM_STR,
     .form = "\"SPEC\"",
     .help = "write journal on another target (quoted spec); needs `stripe_cache` x (4k + "
             "members x stripe_size) bytes"},
    {.name = "ppl",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "partial parity log on the members (raid5 only); reserves `stripe_cache` x (4k + "
             "stripe_size) at the end of each member"},
    {.name = "powerloss-after",
     .type = RL_PARAM_U64,
     .def_note = "off",
     .help = "the power fails after N member writes (to show the write hole)"},
    {.name = "bitmap-chunk",
     .type = RL_PARAM_SIZE,
     .def_note = "off",
     .help = "model md's write-intent bitmap: the first write into each SIZE region writes a "
             "bitmap block to every member first; a power of two, at least 4k"},
    {.name = "bitmap-offset",
     .type = RL_PARAM_SIZE,
     .def_note = "end of members",
     .help = "keep an md bitmap (header, then bits) at this member offset"},
    {.name = "data-offset",
     .type = RL_PARAM_SIZE,
     .def = "0",
     .help = "the data starts this far into every member (md's data_offset)"},
    {0},
};
