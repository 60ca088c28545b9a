/*
 * exec_virtual.c - the virtual-time executor.
 *
 * There is no backend I/O: simulated targets complete requests through
 * timers (rl_exec_at) at simulated instants.  The clock only moves when
 * the loop has nothing ready and must block: it then jumps to the earliest
 * timer.  Everything is deterministic: the same submissions in the same
 * order give the same completions at the same simulated times.
 *
 * Simulated time belongs to the simulated world, the target stack: targets
 * book their resources (dies, links, queues) in absolute simulated time and
 * outlive the executor of one job, so whoever runs a stack on a new virtual
 * executor starts it at the time the stack reached (struct rl_target.vtime)
 * and records the time reached afterwards.  A new stack starts at 0.
 */
#include "core/exec.h"
#include "core/exec_backend.h"

static uint64_t virtual_now(struct rl_exec *ex)
{
	return ex->vnow;
}

static int virtual_poll(struct rl_exec *ex, uint64_t block_until)
{
	if (block_until && block_until != UINT64_MAX && block_until > ex->vnow)
		ex->vnow = block_until;
	return 0;
}

static const struct rl_exec_backend virtual_backend = {
    .now = virtual_now,
    .poll = virtual_poll,
};

int rl_exec_virtual_init(struct rl_exec *ex)
{
	ex->backend = &virtual_backend;
	return 0;
}
