/*
 * exec_backend.h - what exec.c needs from each executor backend.
 * Private to src/core: targets and the engine use exec.h only.
 */
#ifndef RL_CORE_EXEC_BACKEND_H
#define RL_CORE_EXEC_BACKEND_H

#include "core/exec.h"

int rl_exec_uring_init(struct rl_exec *ex, unsigned ring_depth);
int rl_exec_psync_init(struct rl_exec *ex);
int rl_exec_virtual_init(struct rl_exec *ex);
int rl_exec_aio_init(struct rl_exec *ex, unsigned depth);
int rl_exec_posixaio_init(struct rl_exec *ex, unsigned depth);

/* io_uring machinery shared with the paced executor (exec_paced.c). */
int rl_exec_uring_poll(struct rl_exec *ex, uint64_t block_until);
void rl_exec_uring_destroy(struct rl_exec *ex);
uint64_t rl_exec_wall_now(void);

#endif
