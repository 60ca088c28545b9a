/*
 * target.c - the generic side of the target interface: allocation,
 * teardown, the checked submit entry point, and the JSON tree.
 *
 * rl_target_submit() is the contract check at every layer boundary (as
 * nbdkit's backend.c does): a request outside the target, misaligned, or
 * for an unsupported operation is completed here with -EINVAL or
 * -EOPNOTSUPP, so no target repeats these checks.
 */
#include <assert.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/exec.h"
#include "core/target.h"

struct rl_target *rl_target_alloc(const struct rl_target_ops *ops, unsigned nchildren)
{
	struct rl_target *t;

	/* the per-request areas the type declares fit every request */
	assert(ops && ops->ctx_size <= RL_IO_CTX_SIZE && ops->tag_size <= RL_IO_TAG_SIZE);
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ops = ops;
	t->block_size = 512;
	if (nchildren) {
		t->children = calloc(nchildren, sizeof(*t->children));
		if (!t->children) {
			free(t);
			return NULL;
		}
		t->nchildren = nchildren;
	}
	return t;
}

/* @x is not a multiple of @bs: a mask for the usual power-of-two block, as
 * every request at every layer passes here. */
static inline bool rl_target_misaligned(uint32_t bs, uint64_t x)
{
	return bs & (bs - 1) ? x % bs != 0 : (x & (bs - 1)) != 0;
}

void rl_target_submit(struct rl_target *t, struct rl_io *io)
{
	assert(io->cb && io->ex);            /* somewhere to complete, on some executor */
	assert(io->pool != RL_IO_POOL_FREE); /* not a pool entry already given back */
	switch (io->op) {
	case RL_OP_FLUSH:
		break;
	case RL_OP_TRIM:
		if (!(t->caps & RL_CAP_TRIM)) {
			rl_io_complete_later(io, -EOPNOTSUPP);
			return;
		}
		/* fall through */
	case RL_OP_READ:
	case RL_OP_WRITE:
		if (io->len == 0 || io->offset > t->size || io->len > t->size - io->offset ||
		    rl_target_misaligned(rl_target_block_for(t, io->flags & RL_IO_BUFFERED),
		                         io->offset | io->len)) {
			rl_io_complete_later(io, -EINVAL);
			return;
		}
		break;
	default:
		rl_io_complete_later(io, -EINVAL);
		return;
	}
	t->ops->submit(t, io);
}

int rl_target_attach(struct rl_target *t, struct rl_exec *ex)
{
	for (unsigned i = 0; i < t->nchildren; i++) {
		int rc = rl_target_attach(t->children[i], ex);
		if (rc)
			return rc;
	}
	return t->ops->attach ? t->ops->attach(t, ex) : 0;
}

void rl_target_drop_cache(struct rl_target *t, bool open)
{
	for (unsigned i = 0; i < t->nchildren; i++)
		rl_target_drop_cache(t->children[i], open);
	if (t->ops->drop_cache)
		t->ops->drop_cache(t, open);
}

void rl_target_finish(struct rl_target *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nchildren; i++)
		rl_target_finish(t->children[i]);
	if (t->ops->finish)
		t->ops->finish(t);
}

static atomic_bool target_stop;

void rl_target_stop_request(void)
{
	atomic_store_explicit(&target_stop, true, memory_order_relaxed);
}

void rl_target_stop_clear(void)
{
	atomic_store(&target_stop, false);
}

bool rl_target_stop_requested(void)
{
	return atomic_load_explicit(&target_stop, memory_order_relaxed);
}

int rl_target_ctl(struct rl_target *t, struct rl_ctl *c)
{
	if (!t || !t->ops->ctl)
		return -EOPNOTSUPP;
	return t->ops->ctl(t, c);
}

void rl_target_close(struct rl_target *t)
{
	if (!t)
		return;
	if (t->ops->destroy)
		t->ops->destroy(t);
	for (unsigned i = 0; i < t->nchildren; i++)
		rl_target_close(t->children[i]);
	free(t->children);
	free(t);
}

uint32_t rl_target_leaf_caps(const struct rl_target *t)
{
	uint32_t caps = 0;

	if (!t->nchildren)
		return t->caps;
	for (unsigned i = 0; i < t->nchildren; i++)
		if (t->children[i])
			caps |= rl_target_leaf_caps(t->children[i]);
	return caps;
}

struct json_object *rl_target_tree(struct rl_target *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kids;

	if (!o)
		return NULL;
	json_object_object_add(o, "type", json_object_new_string(t->ops->name));
	json_object_object_add(o, "size_bytes", json_object_new_int64((int64_t)t->size));
	json_object_object_add(o, "block_size", json_object_new_int64(t->block_size));
	if (t->ops->describe && t->ops->describe(t, o) < 0) {
		json_object_put(o);
		return NULL;
	}
	kids = json_object_new_array();
	for (unsigned i = 0; i < t->nchildren; i++) {
		struct json_object *c = t->children[i] ? rl_target_tree(t->children[i]) : NULL;
		if (t->children[i] && !c) {
			json_object_put(kids);
			json_object_put(o);
			return NULL;
		}
		json_object_array_add(kids, c);
	}
	json_object_object_add(o, "children", kids);
	return o;
}

uint64_t rl_report_sum(struct json_object *report, const char *key)
{
	struct json_object *v, *kids;
	uint64_t sum = 0;

	if (!report)
		return 0;
	if (json_object_object_get_ex(report, key, &v))
		sum += (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(report, "children", &kids))
		for (size_t i = 0; i < json_object_array_length(kids); i++)
			sum += rl_report_sum(json_object_array_get_idx(kids, i), key);
	return sum;
}

struct json_object *rl_target_report(struct rl_target *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kids;

	if (!o)
		return NULL;
	json_object_object_add(o, "type", json_object_new_string(t->ops->name));
	if (t->ops->report)
		t->ops->report(t, o);
	if (t->nchildren) {
		kids = json_object_new_array();
		for (unsigned i = 0; i < t->nchildren; i++)
			json_object_array_add(
			    kids, t->children[i] ? rl_target_report(t->children[i]) : NULL);
		json_object_object_add(o, "children", kids);
	}
	return o;
}
