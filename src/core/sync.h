/*
 * sync.h - one request at a time, waiting for it: for tools (rebuild, scrub,
 * info) and tests, never for the measured data path.
 */
#ifndef RL_CORE_SYNC_H
#define RL_CORE_SYNC_H

#include <stdint.h>

#include "core/exec.h"
#include "core/target.h"

/**
 * Submit one request to @t on @ex and run the executor until it completes.
 * Returns its status: 0 or a negative errno.
 */
int rl_io_sync(struct rl_target *t, struct rl_exec *ex, enum rl_op op, uint64_t offset,
               uint32_t len, void *buf, uint8_t flags);

#endif
