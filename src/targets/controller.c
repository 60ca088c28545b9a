/*
 * controller.c - controller(PROFILE, TARGET, ...): a RAID controller or a
 * host RAID driver, described by a profile file, in front of a target.
 *
 *   controller(perc-h730p, raid10(ssd(850evo) x4, chunk=64k), write=through, read=none)
 *   controller(amd-raidxpert2, raid0(ssd(sx8200pro) x3, chunk=64k))
 *   controller(windows-dynamic-volume, raid0(ssd(sm951) x2, chunk=64k))
 *
 * A controller profile (profiles/NAME.controller, read by
 * core/ctl_profile.c, which describes the format) names the target type it
 * becomes (its kind: cache or link), that type's parameters and, as
 * LEVEL.key, how the firmware runs arrays of a level: a default for TARGET
 * when it is a LEVEL(...) call.
 * The parameters the spec gives after TARGET override the profile's.  So
 * this file builds nothing of its own: it turns the call into
 * KIND(TARGET, profile=NAME, profile keys..., spec keys...) and builds that
 * through the registry.  Controllers therefore meet arrays and drives only
 * through the target interface, and a profile can say nothing a spec
 * could not say itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctl_profile.h"
#include "core/registry.h"
#include "core/suggest.h"

static int ctl_kv_add(struct rl_spec_node *n, const char *key, const char *value, size_t kpos,
                      size_t vpos)
{
	struct rl_spec_kv *kv = &n->kv[n->nkv];

	kv->key = strdup(key);
	kv->value = strdup(value);
	if (!kv->key || !kv->value) {
		free(kv->key);
		free(kv->value);
		return -ENOMEM;
	}
	kv->key_pos = kpos;
	kv->value_pos = vpos;
	n->nkv++;
	return 0;
}

/*
 * A profile key "LEVEL.key" (raid10.read = per-request) is how the
 * controller's firmware runs arrays of that level: it becomes key=value of
 * the TARGET call when TARGET is a LEVEL(...) call that does not set the
 * key itself.
 */
static int ctl_array_default(struct rl_spec_node *child, const char *pkey, const char *value,
                             size_t pos)
{
	const char *dot = strchr(pkey, '.');
	struct rl_spec_kv *kv;

	if (!child->is_call || strlen(child->name) != (size_t)(dot - pkey) ||
	    strncmp(child->name, pkey, (size_t)(dot - pkey)) || rl_spec_find(child, dot + 1))
		return 0;
	kv = realloc(child->kv, (child->nkv + 1) * sizeof(*kv));
	if (!kv)
		return -ENOMEM;
	child->kv = kv;
	return ctl_kv_add(child, dot + 1, value, pos, pos);
}

/* rl_ctl_profile_each's callback: collect the names, for an error. */
static int ctl_name_add(const struct rl_ctl_profile *p, void *arg)
{
	return !rl_names_add(arg, p->name);
}

static int ctl_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	struct rl_ctl_profile p;
	struct rl_spec_node *n;
	int rc;

	if (node->nargs != 2 || node->args[0]->is_call)
		return rl_err_set(err, node->pos,
		                  "controller takes a profile name and one target: "
		                  "controller(PROFILE, TARGET, key=value...)");
	rc = rl_ctl_profile_load(node->args[0]->name, &p);
	if (rc == -ENOENT) {
		struct rl_names cn = {.n = 0};
		char list[512];
		rl_ctl_profile_each(ctl_name_add, &cn);
		return rl_err_set(
		    err, node->args[0]->pos,
		    "controller: no controller profile '%s' (profiles: %s; raidlab "
		    "profiles describes them)",
		    node->args[0]->name,
		    cn.n ? rl_suggest_list(node->args[0]->name, cn.v, cn.n, list, sizeof(list))
		         : "none found");
	}
	if (rc)
		return rl_err_set(err, node->args[0]->pos,
		                  "controller: the profile '%s' cannot be read",
		                  node->args[0]->name);
	n = calloc(1, sizeof(*n));
	if (n) {
		n->kv = calloc(p.nkv + node->nkv + 1, sizeof(*n->kv));
		n->args = calloc(1, sizeof(*n->args));
		n->name = strdup(p.kind);
	}
	if (!n || !n->kv || !n->args || !n->name) {
		rl_spec_free(n);
		rl_ctl_profile_free(&p);
		return -ENOMEM;
	}
	n->is_call = true;
	n->pos = node->pos;
	n->args[0] = node->args[1]; /* borrowed: given back below */
	n->nargs = 1;
	rc = ctl_kv_add(n, "profile", p.name, node->args[0]->pos, node->args[0]->pos);
	for (size_t i = 0; !rc && i < p.nkv; i++) {
		if (strchr(p.keys[i], '.'))
			rc = ctl_array_default(node->args[1], p.keys[i], p.values[i],
			                       node->args[0]->pos);
		else if (!rl_spec_find(node, p.keys[i])) /* the spec's own value wins */
			rc = ctl_kv_add(n, p.keys[i], p.values[i], node->args[0]->pos,
			                node->args[0]->pos);
	}
	for (size_t i = 0; !rc && i < node->nkv; i++) {
		rc = ctl_kv_add(n, node->kv[i].key, node->kv[i].value, node->kv[i].key_pos,
		                node->kv[i].value_pos);
		node->kv[i].used = true;
	}
	if (!rc)
		rc = rl_target_build(n, ctx, out, err);
	n->args[0] = NULL;
	n->nargs = 0;
	rl_spec_free(n);
	rl_ctl_profile_free(&p);
	return rc;
}

static struct rl_target_type controller_type = {
    .name = "controller",
    .summary = "a RAID controller or host RAID driver from a profile (raidlab profiles)",
    .args = "PROFILE, TARGET",
    .params_note = "it becomes the profile's kind (cache or link) with the profile's "
                   "parameters; any parameter of that kind given here overrides the profile",
    .create = ctl_create,
};
RL_TARGET_REGISTER(controller_type)
