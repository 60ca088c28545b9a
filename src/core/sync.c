/*
 * sync.c - wait for a single request (see sync.h).
 */
#include <errno.h>
#include <stdbool.h>

#include "core/sync.h"

struct sync_wait {
	bool done;
	int status;
};

static void sync_done(struct rl_io *io, int status)
{
	struct sync_wait *w = io->cb_arg;

	w->done = true;
	w->status = status;
}

int rl_io_sync(struct rl_target *t, struct rl_exec *ex, enum rl_op op, uint64_t offset,
               uint32_t len, void *buf, uint8_t flags)
{
	struct sync_wait w = {0};
	struct rl_io io = {
	    .op = (uint8_t)op,
	    .flags = flags,
	    .len = len,
	    .offset = offset,
	    .buf = buf,
	    .cb = sync_done,
	    .cb_arg = &w,
	    .ex = ex,
	};

	rl_target_submit(t, &io);
	while (!w.done) {
		int rc = rl_exec_run_once(ex, true);
		if (rc < 0)
			return rc;
		if (rc == 0 && !w.done && rl_exec_stalled(ex))
			return -EDEADLK; /* nothing left that could complete it */
	}
	return w.status;
}
