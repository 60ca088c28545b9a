/*
 * exec_paced.c - the paced executor: simulated time locked to the wall clock.
 *
 * A virtual executor jumps its clock to the next timer as soon as nothing
 * else is ready, which runs a simulation as fast as the CPU allows.  The
 * paced executor keeps everything else of the virtual executor (its kind
 * is RL_EXEC_VIRTUAL, so simulated targets book their dies, links and
 * queues exactly as in a virtual run) but its clock is
 *
 *     now = vstart + (wall clock - wall clock at creation) / slow
 *
 * and its poll is the io_uring backend's, which waits for the next timer
 * with a timeout instead of jumping to it.  A simulated completion due at
 * simulated time T is therefore delivered when the wall clock reaches T:
 * a client outside the process sees the simulated hardware's latency and
 * throughput.  When the machine cannot keep up, timers fire late; the
 * lateness is recorded in the executor's lag_* counters (exec.c), so the
 * owner can say it fell behind instead of silently running slow.
 *
 * slow is 1 for real time.  Slow motion (slow = N > 1) runs the simulated
 * clock N times slower than the wall clock: hardware faster than this
 * machine, its clients and the kernel can follow in real time is emulated
 * faithfully at 1/N of its speed, and every time a client measures in wall
 * time is N times the simulated one.  The host side (client, kernel,
 * NBD round trips) then costs 1/N of what it costs here, in simulated
 * terms.  Timed waits are converted with rl_exec_wall_span().
 *
 * The ring is there for the owner: `raidlab serve` polls its sockets on it.
 * The factor may change while the executor runs (rl_exec_paced_set_slow,
 * used by serve's governor): the clock is re-anchored at the present, so
 * simulated time goes on without a jump, at the new rate.
 *
 * Creating a paced executor sets the calling thread's timer slack to 1 ns:
 * Linux lets timed waits end up to 50 us late by default, which would be
 * lag added to every simulated completion.  It also raises the thread's
 * priority to nice PACED_NICE when it may (root, CAP_SYS_NICE): on a busy
 * machine a timer's wake-up otherwise waits for the scheduler to take the
 * CPU from the clients it is timing, and that wait is lag.  Measured with
 * two CPU hogs beside a file suite on raid0 of two sm951 at a fixed x24,
 * the mean lag went from 47.8 to 14.8 us (simulated).  Not real-time
 * scheduling: a server that cannot keep up must not starve the machine.
 *
 * rl_exec_unpace() ends the pacing for an owner that is shutting down: a
 * wait for a timer then moves the clock's origin forward to the timer
 * instead of sleeping, so the clock runs ahead of the wall clock and the
 * remaining simulated work completes at once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "core/exec.h"
#include "core/exec_backend.h"

#define PACED_NICE (-10)

struct paced_clock {
	uint64_t wall0; /* wall clock at creation, ns */
	uint64_t v0;    /* simulated time at creation, ns (plus the jumps once unpaced) */
	bool unpaced;   /* rl_exec_unpace(): jump to timers instead of waiting */
};

static uint64_t paced_now(struct rl_exec *ex)
{
	const struct paced_clock *pc = ex->backend_priv;

	return pc->v0 + (rl_exec_wall_now() - pc->wall0) / ex->pace_slow;
}

static int paced_poll(struct rl_exec *ex, uint64_t block_until)
{
	struct paced_clock *pc = ex->backend_priv;

	if (pc->unpaced && block_until && block_until != UINT64_MAX) {
		uint64_t now = paced_now(ex);
		if (block_until > now)
			pc->v0 += block_until - now;
		block_until = 0; /* only collect what is already there */
	}
	return rl_exec_uring_poll(ex, block_until);
}

static void paced_destroy(struct rl_exec *ex)
{
	rl_exec_uring_destroy(ex);
	free(ex->backend_priv);
	ex->backend_priv = NULL;
}

static const struct rl_exec_backend paced_backend = {
    .now = paced_now,
    .poll = paced_poll,
    .destroy = paced_destroy,
};

int rl_exec_paced_set_slow(struct rl_exec *ex, uint32_t slow)
{
	struct paced_clock *pc;

	if (!ex || ex->backend != &paced_backend || slow < 1)
		return -EINVAL;
	pc = ex->backend_priv;
	uint64_t w = rl_exec_wall_now(); /* one reading: the clock neither jumps nor steps back */
	pc->v0 += (w - pc->wall0) / ex->pace_slow;
	pc->wall0 = w;
	ex->pace_slow = slow;
	return 0;
}

void rl_exec_unpace(struct rl_exec *ex)
{
	if (ex->backend == &paced_backend)
		((struct paced_clock *)ex->backend_priv)->unpaced = true;
}

int rl_exec_create_paced(size_t pool_size, unsigned ring_depth, uint64_t vstart, uint32_t slow,
                         struct rl_exec **out)
{
	struct paced_clock *pc;
	struct rl_exec *ex;
	int rc;

	if (slow < 1)
		return -EINVAL;
	pc = malloc(sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	rc = rl_exec_create(RL_EXEC_URING, pool_size, ring_depth, &ex);
	if (rc) {
		free(pc);
		return rc;
	}
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	/* best effort: without CAP_SYS_NICE the thread keeps its priority */
	if (getpriority(PRIO_PROCESS, 0) > PACED_NICE)
		(void)!setpriority(PRIO_PROCESS, 0, PACED_NICE);
	pc->wall0 = rl_exec_wall_now();
	pc->v0 = vstart;
	pc->unpaced = false;
	ex->pace_slow = slow; /* wall ns per simulated ns; rl_exec_wall_span() reads it too */
	ex->kind = RL_EXEC_VIRTUAL;
	ex->backend_priv = pc;
	ex->backend = &paced_backend;
	*out = ex;
	return 0;
}
