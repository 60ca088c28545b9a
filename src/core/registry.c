/*
 * registry.c - target types by name, and building a stack from a spec.
 *
 * Types add themselves at program start (RL_TARGET_REGISTER in their own
 * file).  A plain word is a path and opens as a "file" target; a call is
 * looked up by name, and an unknown name gets an error listing what exists.
 * A stack that mixes real leaves (files, devices) with simulated ones is
 * refused here, once, for every command.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/registry.h"

static struct rl_target_type *registry_head;

void rl_target_type_register(struct rl_target_type *type)
{
	struct rl_target_type **p = &registry_head;

	/* Keep the list sorted by name so listings are stable. */
	while (*p && strcmp((*p)->name, type->name) < 0)
		p = &(*p)->next;
	type->next = *p;
	*p = type;
}

const struct rl_target_type *rl_target_type_find(const char *name)
{
	for (const struct rl_target_type *t = registry_head; t; t = t->next)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

const struct rl_target_type *rl_target_type_first(void)
{
	return registry_head;
}

int rl_target_parse_geometry(struct rl_spec_node *node, const struct rl_param *tab, uint64_t *size,
                             uint32_t *bs, struct rl_err *err)
{
	uint64_t sz, b;
	int rc;

	if (node->nargs)
		return rl_err_set(err, node->args[0]->pos, "%s takes no positional arguments",
		                  node->name);
	if ((rc = rl_param_u64(node, tab, "size", &sz, err)) ||
	    (rc = rl_param_u64(node, tab, "bs", &b, err)) || (rc = rl_params_check(node, tab, err)))
		return rc;
	if (b < 512 || b > 65536 || (b & (b - 1)))
		return rl_err_set(err, node->pos, "%s: bs must be a power of two from 512 to 64k",
		                  node->name);
	if (sz < b)
		return rl_err_set(err, node->pos, "%s: size must be at least one block",
		                  node->name);
	if (sz % b) {
		struct rl_spec_kv *kv = rl_spec_find(node, "size");
		return rl_err_set(err, kv ? kv->value_pos : node->pos,
		                  "%s: size=%llu is not a multiple of bs=%llu", node->name,
		                  (unsigned long long)sz, (unsigned long long)b);
	}
	*size = sz;
	*bs = (uint32_t)b;
	return 0;
}

void rl_build_ctx_init(struct rl_build_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->direct = true;
}

int rl_target_build(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                    struct rl_target **out, struct rl_err *err)
{
	const struct rl_target_type *type;

	if (!node->is_call) {
		type = rl_target_type_find("file");
		if (!type)
			return rl_err_set(err, node->pos, "no file target available for '%s'",
			                  node->name);
		return type->create(node, ctx, out, err);
	}
	type = rl_target_type_find(node->name);
	if (!type) {
		char known[256] = "";
		size_t len = 0;
		for (const struct rl_target_type *t = registry_head; t && len < sizeof(known) - 32;
		     t = t->next)
			len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s",
			                        len ? ", " : "", t->name);
		return rl_err_set(err, node->pos, "unknown target type '%s' (known: %s)",
		                  node->name, known);
	}
	return type->create(node, ctx, out, err);
}

/* Depth of rl_target_open calls on this thread (md(...) opens a stack inside one). */
static _Thread_local unsigned registry_opening;

bool rl_target_opening(void)
{
	return registry_opening > 0;
}

int rl_target_open(const char *text, const struct rl_build_ctx *ctx, struct rl_target **out,
                   struct rl_err *err)
{
	struct rl_spec_node *root;
	struct rl_target *t;
	int rc = rl_spec_parse(text, &root, err);

	if (rc)
		return rc;
	registry_opening++;
	rc = rl_target_build(root, ctx, &t, err);
	rl_spec_free(root);
	if (!rc) {
		uint32_t caps = rl_target_leaf_caps(t);
		if ((caps & RL_CAP_REAL) && (caps & RL_CAP_VIRTUAL)) {
			rl_target_close(t);
			rc = rl_err_set(
			    err, SIZE_MAX,
			    "the stack mixes real leaves (files, devices) with simulated "
			    "drives; a run uses either real time or simulated time, not both");
		}
	}
	registry_opening--;
	if (rc)
		return rc;
	*out = t;
	return 0;
}
