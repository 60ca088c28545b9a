/*
 * link.c - a shared path in front of a target: limited bandwidth, added
 * latency, a per-command cost.
 *
 *   link(raid0(ssd(sx8200pro) x3), bw=3.9GB/s)          chipset uplink (DMI 3.0)
 *   link(ssd(samsung-850evo-500) x1, bw=1.6GB/s, lat=5us, iops=400000)   an HBA
 *
 * Everything below the link shares it: put one link around an array to
 * model an uplink that all members sit behind.
 *
 *   bw=RATE     bytes per second per direction (0: unlimited)
 *   duplex=full|half  full: reads and writes have a direction each (PCIe,
 *               DMI); half: they share one (SATA, a parallel bus)
 *   lat=TIME    added once per request, on its way down
 *   iops=N      the path's command processor: 1/N s per request, one at a
 *               time (a controller or HBA command rate)
 *   setup-bw=RATE  the host's preparation of a request's buffer before it
 *               is issued (pinning and mapping its pages): len / RATE of
 *               latency per request, paid in parallel by the host's CPUs,
 *               so it shows at queue depth 1 with large transfers only
 *   profile=NAME  the controller profile it came from (controller(...))
 *
 * Timing: a request pays the host's setup, the command cost, then the
 * latency, and then reaches the target below.  Its data streams across the
 * link while the target works on it (cut-through, as PCIe and DMI move a
 * large transfer in packets): a write's data crosses from the moment the
 * command is through, a read's from the moment it reached the target, and
 * the request completes when both the target and the transfer are done.
 * Each direction is a single "free at" time, so the link's bandwidth is
 * shared in the order transfers are booked.  Waiting is
 * done with the executor's timers (rl_exec_at_wait), so the link works on a
 * virtual executor (simulated drives) and on a real one (wall clock) alike;
 * a run that stops cuts the waits short (rl_exec_cut) and the requests in
 * them end with -ECANCELED.
 *
 * The request below is a child taken from the executor's pool (no malloc);
 * when the pool is empty the request waits (rl_exec_wait) and retries.
 *
 * Worker threads share the link: its bookings (the free-at times) and
 * counters change under its mutex, held only for the arithmetic, never
 * across a submit or a completion.
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctl_profile.h"
#include "core/exec.h"
#include "core/registry.h"

struct link_state {
	uint64_t bw;       /* bytes/s, 0: unlimited */
	uint64_t setup_bw; /* host preparation (page pinning, mapping) in bytes/s, 0: free */
	uint64_t lat_ns;
	uint64_t cmd_ns; /* 1e9 / iops, 0: free */
	bool half;
	char profile[64]; /* the controller profile it came from ("" if none) */
	uint64_t
	    free[2]; /* when each direction is free: 0 towards the host, 1 towards the target */
	uint64_t cmd_free;
	/* counters */
	uint64_t requests, bytes[2], busy_ns[2], wait_ns;
	uint64_t first_ns, last_ns;
	pthread_mutex_t lock; /* the bookings and counters above */
};

/* A host request's context while the link holds it (io.h). */
struct link_req {
	struct rl_target *t; /* the link: a request parked for the pool resumes here */
	uint64_t at;         /* a write: when its data has crossed; a read: when its data may
	                        start streaming back */
};
RL_IO_CTX_DEFINE(link_req, struct link_req)

static uint64_t link_xfer(struct link_state *l, int dir, uint64_t now, uint64_t bytes)
{
	uint64_t *f = &l->free[l->half ? 0 : dir];
	uint64_t start = *f > now ? *f : now, dur;

	if (!l->bw || !bytes)
		return now;
	dur = (bytes * 1000000000ull + l->bw - 1) / l->bw;
	l->wait_ns += start - now;
	l->busy_ns[dir] += dur;
	l->bytes[dir] += bytes;
	*f = start + dur;
	return *f;
}

/* The child's data came back from the target below: cross the link to the host. */
static void link_child_done(struct rl_io *child, int status)
{
	struct rl_target *t = child->cb_arg;
	struct link_state *l = t->priv;
	struct rl_exec *ex = child->ex;
	uint64_t now = rl_exec_now(ex), end = now;

	pthread_mutex_lock(&l->lock);
	if (!status && child->op == RL_OP_READ) /* streamed since it reached the target */
		end = link_xfer(l, 0, link_req(child->parent)->at, child->len);
	else if (child->op == RL_OP_WRITE) /* its data has been crossing since submission */
		end = link_req(child->parent)->at;
	if (end < now)
		end = now;
	if (end > l->last_ns)
		l->last_ns = end;
	pthread_mutex_unlock(&l->lock);
	child->cb = rl_io_child_end;
	if (end <= now || rl_exec_at_wait(ex, child, end, status))
		rl_io_child_end(child, status);
}

/* The request has crossed the link: hand it to the target below. */
static void link_child_start(struct rl_io *child, int status)
{
	struct rl_target *t = child->cb_arg;

	if (status) { /* the wait was cut short (rl_exec_cut): it never reaches the target */
		rl_io_child_end(child, status);
		return;
	}
	child->cb = link_child_done;
	rl_target_submit(t->children[0], child);
}

static void link_resume(struct rl_io *io);

static void link_submit(struct rl_target *t, struct rl_io *io)
{
	struct link_state *l = t->priv;
	struct rl_io *child;
	uint64_t now, at;

	*link_req(io) = (struct link_req){.t = t};
	rl_io_children_begin(io);
	child = rl_io_child_get(io);
	if (!child) {
		io->pending = 0;
		if (!io->ex->pool_size) /* no pool at all: waiting would never end */
			rl_io_complete_later(io, -ENOMEM);
		else
			rl_exec_wait(io->ex, io, link_resume);
		return;
	}
	child->op = io->op;
	child->flags = io->flags;
	child->ioprio = io->ioprio;
	child->offset = io->offset;
	child->len = io->len;
	child->buf = io->buf;
	child->cb = link_child_start;
	child->cb_arg = t;

	now = rl_exec_now(io->ex);
	pthread_mutex_lock(&l->lock);
	if (!l->requests && !l->first_ns)
		l->first_ns = now;
	l->requests++;
	at = now;
	if (l->setup_bw && io->len)
		at += (uint64_t)io->len * 1000000000ull / l->setup_bw;
	if (l->cmd_ns) {
		uint64_t c = l->cmd_free > at ? l->cmd_free : at;
		l->wait_ns += c - at;
		l->cmd_free = c + l->cmd_ns;
		at = l->cmd_free;
	}
	link_req(io)->at = io->op == RL_OP_WRITE ? link_xfer(l, 1, at, io->len) : 0;
	at += l->lat_ns;
	if (io->op != RL_OP_WRITE)
		link_req(io)->at = at; /* a read's data can stream from here on */
	pthread_mutex_unlock(&l->lock);
	if (rl_exec_at_wait(io->ex, child, at, 0)) {
		child->cb = rl_io_child_end;
		rl_io_complete_later(child, -ENOMEM);
	}
	rl_io_children_sealed(io);
}

static void link_resume(struct rl_io *io)
{
	link_submit(link_req(io)->t, io);
}

static double link_ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static int link_describe(struct rl_target *t, struct json_object *o)
{
	struct link_state *l = t->priv;

	json_object_object_add(o, "bw_bytes_per_s", json_object_new_int64((int64_t)l->bw));
	json_object_object_add(o, "latency_ns", json_object_new_int64((int64_t)l->lat_ns));
	json_object_object_add(
	    o, "iops", json_object_new_int64(l->cmd_ns ? (int64_t)(1000000000ull / l->cmd_ns) : 0));
	json_object_object_add(o, "duplex", json_object_new_string(l->half ? "half" : "full"));
	json_object_object_add(o, "setup_bytes_per_s", json_object_new_int64((int64_t)l->setup_bw));
	if (l->profile[0])
		json_object_object_add(o, "profile", json_object_new_string(l->profile));
	return 0;
}

static int link_report(struct rl_target *t, struct json_object *o)
{
	struct link_state *l = t->priv;
	uint64_t el = l->last_ns > l->first_ns ? l->last_ns - l->first_ns : 0;

	json_object_object_add(o, "requests", json_object_new_int64((int64_t)l->requests));
	json_object_object_add(o, "bytes_to_host", json_object_new_int64((int64_t)l->bytes[0]));
	json_object_object_add(o, "bytes_to_target", json_object_new_int64((int64_t)l->bytes[1]));
	json_object_object_add(o, "wait_ns", json_object_new_int64((int64_t)l->wait_ns));
	json_object_object_add(o, "utilisation_to_host",
	                       json_object_new_double(link_ratio(l->busy_ns[0], el)));
	json_object_object_add(o, "utilisation_to_target",
	                       json_object_new_double(link_ratio(l->busy_ns[1], el)));
	return 0;
}

static void link_destroy(struct rl_target *t)
{
	struct link_state *l = t->priv;

	pthread_mutex_destroy(&l->lock);
	free(l);
}

static const struct rl_target_ops link_ops = {
    .name = "link",
    .ctx_size = sizeof(struct link_req),
    .submit = link_submit,
    .describe = link_describe,
    .report = link_report,
    .destroy = link_destroy,
};

static const struct rl_param link_params[] = {
    {.name = "bw",
     .type = RL_PARAM_RATE,
     .def_note = "unlimited",
     .help = "bytes per second per direction"},
    {.name = "duplex",
     .type = RL_PARAM_ENUM,
     .def = "full",
     .choices = (const char *const[]){"full", "half", NULL},
     .help = "full: reads and writes each have a direction (PCIe, DMI); half: they share one"},
    {.name = "lat",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "added once per request, on its way down"},
    {.name = "iops",
     .type = RL_PARAM_U64,
     .max = 1000000000,
     .def_note = "unlimited",
     .help = "the path's command rate: 1/N s per request, one at a time"},
    {.name = "setup-bw",
     .type = RL_PARAM_RATE,
     .def_note = "free",
     .help = "the host's preparation of a request's buffer (pinning, mapping): len / RATE of "
             "latency per request, in parallel"},
    RL_CTL_PARAM_PROFILE,
    {0},
};

static int link_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                       struct rl_target **out, struct rl_err *err)
{
	const char *profile = "";
	uint64_t bw = 0, lat, iops = 0, setup_bw = 0;
	int half, rc;
	struct rl_target *child, *t;
	struct link_state *l;

	if (node->nargs != 1)
		return rl_err_set(err, node->pos, "link takes exactly one target");
	if ((rc = rl_param_u64(node, link_params, "bw", &bw, err)) ||
	    (rc = rl_param_u64(node, link_params, "lat", &lat, err)) ||
	    (rc = rl_param_u64(node, link_params, "iops", &iops, err)) ||
	    (rc = rl_param_enum(node, link_params, "duplex", &half, err)) ||
	    (rc = rl_param_str(node, link_params, "profile", &profile, err)) ||
	    (rc = rl_ctl_profile_check(node, "link", err)) ||
	    (rc = rl_param_u64(node, link_params, "setup-bw", &setup_bw, err)) ||
	    (rc = rl_params_check(node, link_params, err)))
		return rc;
	/* 0 would mean "no limit", which is what leaving the parameter out says */
	for (const char *const *k = (const char *const[]){"bw", "iops", NULL}; *k; k++) {
		struct rl_spec_kv *kv = rl_spec_find(node, *k);
		if (kv && (!strcmp(*k, "bw") ? !bw : !iops))
			return rl_err_set(err, kv->value_pos,
			                  "link: %s=0 is not a limit; leave %s out for none", *k,
			                  *k);
	}
	if ((rc = rl_target_build(node->args[0], ctx, &child, err)))
		return rc;
	l = calloc(1, sizeof(*l));
	t = rl_target_alloc(&link_ops, 1);
	if (!l || !t) {
		free(l);
		free(t);
		rl_target_close(child);
		return -ENOMEM;
	}
	pthread_mutex_init(&l->lock, NULL);
	l->bw = bw;
	l->lat_ns = lat;
	l->setup_bw = setup_bw;
	l->cmd_ns = iops ? 1000000000ull / iops : 0;
	l->half = half == 1;
	snprintf(l->profile, sizeof(l->profile), "%s", profile);
	t->priv = l;
	t->children[0] = child;
	t->size = child->size;
	t->block_size = child->block_size;
	t->caps = child->caps & (RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA);
	*out = t;
	return 0;
}

static struct rl_target_type link_type = {
    .name = "link",
    .summary = "shared path: bandwidth, latency and command rate limits (uplink, HBA)",
    .args = "TARGET",
    .params = link_params,
    .create = link_create,
};
RL_TARGET_REGISTER(link_type)
