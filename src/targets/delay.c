/*
 * delay.c - add a fixed latency in front of one target.
 *
 *   delay(TARGET, lat=100us)                    every operation
 *   delay(TARGET, read-lat=80us, write-lat=1ms) per operation (default: lat)
 *
 * A request is held for its latency on the executor's timer heap
 * (rl_exec_at), then handed to the target below as it is.  Holding it
 * needs no child request: while the request is ours we park the
 * submitter's callback in its context (struct delay_req), put our own on the timer,
 * and put the submitter's back before passing the request down, so the
 * target below completes it straight to the submitter.  A run that stops
 * cuts the wait short (rl_exec_cut): the request then ends with
 * -ECANCELED without reaching the target.  A zero latency
 * passes the request through at once.  Works on every executor: on the
 * virtual one the latency is simulated time.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>

#include "core/exec.h"
#include "core/registry.h"

struct delay_state {
	uint64_t lat[RL_OP_COUNT]; /* ns per operation */
};

/* A request's context while it waits here; ours until we pass it down. */
struct delay_req {
	rl_io_cb cb;         /* the submitter's callback, put back before passing it on */
	struct rl_target *t; /* the delay target */
};
RL_IO_CTX_DEFINE(delay_req, struct delay_req)

static void delay_fire(struct rl_io *io, int status)
{
	struct rl_target *t = delay_req(io)->t;

	io->cb = delay_req(io)->cb;
	if (status) /* the wait was cut short (rl_exec_cut) */
		rl_io_complete(io, status);
	else
		rl_target_submit(t->children[0], io);
}

static void delay_submit(struct rl_target *t, struct rl_io *io)
{
	struct delay_state *d = t->priv;
	uint64_t lat = d->lat[io->op];

	if (!lat) {
		rl_target_submit(t->children[0], io);
		return;
	}
	*delay_req(io) = (struct delay_req){.cb = io->cb, .t = t};
	io->cb = delay_fire;
	if (rl_exec_at_wait(io->ex, io, rl_exec_now(io->ex) + lat, 0)) {
		io->cb = delay_req(io)->cb;
		rl_io_complete_later(io, -ENOMEM);
	}
}

static int delay_describe(struct rl_target *t, struct json_object *obj)
{
	struct delay_state *d = t->priv;

	json_object_object_add(obj, "read_lat_ns",
	                       json_object_new_int64((int64_t)d->lat[RL_OP_READ]));
	json_object_object_add(obj, "write_lat_ns",
	                       json_object_new_int64((int64_t)d->lat[RL_OP_WRITE]));
	json_object_object_add(obj, "trim_lat_ns",
	                       json_object_new_int64((int64_t)d->lat[RL_OP_TRIM]));
	json_object_object_add(obj, "flush_lat_ns",
	                       json_object_new_int64((int64_t)d->lat[RL_OP_FLUSH]));
	return 0;
}

static void delay_destroy(struct rl_target *t)
{
	free(t->priv);
	t->priv = NULL;
}

static const struct rl_target_ops delay_ops = {
    .name = "delay",
    .ctx_size = sizeof(struct delay_req),
    .submit = delay_submit,
    .describe = delay_describe,
    .destroy = delay_destroy,
};

static const struct rl_param delay_params[] = {
    {.name = "lat",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "added to every request (reads, writes, TRIM, FLUSH)"},
    {.name = "read-lat",
     .type = RL_PARAM_TIME,
     .def_note = "lat",
     .help = "replaces lat for reads"},
    {.name = "write-lat",
     .type = RL_PARAM_TIME,
     .def_note = "lat",
     .help = "replaces lat for writes"},
    {0},
};

static int delay_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                        struct rl_target **out, struct rl_err *err)
{
	struct delay_state *d;
	struct rl_target *t, *below;
	uint64_t lat = 0;
	int rc;

	if (node->nargs != 1)
		return rl_err_set(
		    err, node->pos,
		    "delay takes exactly one target, e.g. delay(mem(size=1g), lat=100us)");
	rc = rl_target_build(node->args[0], ctx, &below, err);
	if (rc)
		return rc;
	t = rl_target_alloc(&delay_ops, 1);
	d = calloc(1, sizeof(*d));
	if (!t || !d) {
		free(d);
		free(t);
		rl_target_close(below);
		return -ENOMEM;
	}
	t->children[0] = below;
	t->priv = d;
	t->size = below->size;
	t->block_size = below->block_size;
	t->caps = below->caps & (RL_CAP_TRIM | RL_CAP_FLUSH | RL_CAP_DATA);
	rc = rl_param_u64(node, delay_params, "lat", &lat, err);
	for (int op = 0; op < RL_OP_COUNT; op++)
		d->lat[op] = lat; /* read-lat and write-lat default to it */
	if (rc || (rc = rl_param_u64(node, delay_params, "read-lat", &d->lat[RL_OP_READ], err)) ||
	    (rc = rl_param_u64(node, delay_params, "write-lat", &d->lat[RL_OP_WRITE], err)) ||
	    (rc = rl_params_check(node, delay_params, err))) {
		rl_target_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

static struct rl_target_type delay_type = {
    .name = "delay",
    .summary = "adds a fixed latency to every request of one target",
    .args = "TARGET",
    .params = delay_params,
    .create = delay_create,
};
RL_TARGET_REGISTER(delay_type)
