/*
 * run_trace.c - read_iolog: a worker replays a recorded trace instead of
 * generating requests.
 *
 * Design: the trace replaces only where the next request comes from; the
 * request path (slots, completions, statistics, deadlines, signals) is the
 * one of every job.  Each worker reads the trace when it is set up and
 * walks it in order: a request is due at the start of the pass plus its
 * recorded time divided by replay_time_scale (a slot waits for that on the
 * executor's clock, real or simulated), or at once with replay_no_stall.
 * iodepth bounds how many are in flight, as in fio; unless iodepth is
 * given, it is the trace's recorded in-flight depth (run_trace_depth, when
 * the job is resolved: as fio probes a blktrace's depth), so a trace keeps
 * the concurrency it was recorded with.  Offsets are mapped onto the
 * worker's region with wl_trace_map, or onto the file the request names
 * when the job runs on one file per name of an iolog (run_files.c); loops
 * repeats the trace.
 */
#include <errno.h>
#include <stdio.h>

#include "workload/run_priv.h"

int run_trace_depth(struct wl_job *job, char *msg, size_t msglen)
{
	struct wl_trace tr;
	char tmsg[256];

	if (!job->read_iolog[0] || job->iodepth_given)
		return 0;
	int rc = wl_trace_load(job->read_iolog, &tr, tmsg, sizeof(tmsg));
	if (rc) {
		snprintf(msg, msglen, "job '%.40s': read_iolog: %s", job->name, tmsg);
		return rc;
	}
	job->iodepth = wl_trace_replay_depth(&tr);
	wl_trace_free(&tr);
	return 0;
}

int run_trace_setup(struct run_worker *w, uint32_t *maxbs)
{
	char msg[sizeof(w->setup_msg)];
	int rc = wl_trace_load(w->job->read_iolog, &w->trace, msg, sizeof(msg));

	if (rc) {
		snprintf(w->setup_msg, sizeof(w->setup_msg), "job '%.40s': read_iolog: %.190s",
		         w->job->name, msg);
		return rc;
	}
	w->trace_pos = 0;
	w->trace_t0 = 0;
	/* the buffers hold the largest request, rounded up to the target's block */
	for (size_t i = 0; i < w->trace.n; i++) {
		uint64_t l = (uint64_t)w->trace.io[i].len + w->t->block_size - 1;
		l -= l % w->t->block_size;
		if (l > *maxbs)
			*maxbs = l > WL_TRACE_LEN_MAX ? WL_TRACE_LEN_MAX : (uint32_t)l;
	}
	return 0;
}

uint64_t run_trace_due(const struct run_worker *w)
{
	const struct wl_job *job = w->job;

	if (!w->trace.n || job->replay_no_stall || w->trace_pos >= w->trace.n)
		return 0;
	unsigned __int128 t = (unsigned __int128)w->trace.io[w->trace_pos].t_ns * 100;
	t /= job->replay_time_scale ? job->replay_time_scale : 100;
	return w->trace_t0 + (uint64_t)t;
}

bool run_trace_next(struct run_worker *w, uint64_t now, enum rl_op *op, uint64_t *off,
                    uint32_t *len)
{
	if (w->trace_pos >= w->trace.n) {
		if (w->loop + 1 >= w->job->loops)
			return false;
		w->loop++;
		w->trace_pos = 0;
		w->trace_t0 = now;
	}
	const struct wl_trace_io *io = &w->trace.io[w->trace_pos++];
	*op = (enum rl_op)io->op;
	if (io->op == RL_OP_FLUSH) {
		*off = 0;
		*len = 0;
		return true;
	}
	run_files_map_trace(w, io, off, len);
	return true;
}
