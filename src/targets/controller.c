/*
 * controller.c - controller(PROFILE, TARGET, ...): a RAID controller or a
 * host RAID driver, described by a profile file, in front of a target.
 *
 *   controller(perc-h730p, raid10(ssd(850evo) x4, chunk=64k), write=through, read=none)
 *   controller(amd-raidxpert2, raid0(ssd(sx8200pro) x3, chunk=64k))
 *   controller(windows-dynamic-volume, raid0(ssd(sm951) x2, chunk=64k))
 *
 * A controller profile (profiles/NAME.controller) is data, like a drive
 * profile: "key = value" lines, '#' comments, with
 *   name, aliases       how specs name it
 *   kind                the target type it becomes: "cache" (a controller
 *                       with a cache and firmware: cache(...)) or "link"
 *                       (a host driver's path: per-command cost, latency,
 *                       bandwidth ceiling: link(...))
 *   description, source what it is and where each figure comes from
 *   LEVEL.key           how the firmware runs arrays of that level: a default
 *                       for TARGET when it is a LEVEL(...) call
 *                       (raid10.read = per-request)
 *   every other key     a parameter of that target type, used as a default
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

#include "core/datadir.h"
#include "core/registry.h"
#include "core/suggest.h"
#include "targets/controller.h"

#define CTL_MAX_KV 64

static char *ctl_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

void rl_ctl_profile_free(struct rl_ctl_profile *p)
{
	for (size_t i = 0; i < p->nkv; i++) {
		free(p->keys[i]);
		free(p->values[i]);
	}
	free(p->keys);
	free(p->values);
	for (size_t i = 0; i < p->nsources; i++)
		free(p->sources[i]);
	free(p->sources);
	memset(p, 0, sizeof(*p));
}

static int ctl_push(char ***arr, size_t *n, const char *s)
{
	char **v = realloc(*arr, (*n + 1) * sizeof(**arr));

	if (!v)
		return -ENOMEM;
	*arr = v;
	v[*n] = strdup(s);
	if (!v[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int rl_ctl_profile_parse(const char *path, struct rl_ctl_profile *p, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;
	int rc = 0;

	memset(p, 0, sizeof(*p));
	if (!f) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	snprintf(p->path, sizeof(p->path), "%s", path);
	while (!rc && fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *eq, *key, *val;
		lineno++;
		if (hash)
			*hash = 0;
		key = ctl_trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			snprintf(msg, msglen, "%s:%u: expected 'key = value'", path, lineno);
			rc = -EINVAL;
			break;
		}
		*eq = 0;
		val = ctl_trim(eq + 1);
		key = ctl_trim(key);
		if (!*key || !*val) {
			snprintf(msg, msglen, "%s:%u: empty key or value", path, lineno);
			rc = -EINVAL;
		} else if (!strcmp(key, "name")) {
			snprintf(p->name, sizeof(p->name), "%s", val);
		} else if (!strcmp(key, "aliases")) {
			snprintf(p->aliases, sizeof(p->aliases), "%s", val);
		} else if (!strcmp(key, "kind")) {
			snprintf(p->kind, sizeof(p->kind), "%s", val);
		} else if (!strcmp(key, "description")) {
			snprintf(p->description, sizeof(p->description), "%s", val);
		} else if (!strcmp(key, "source")) {
			rc = ctl_push(&p->sources, &p->nsources, val);
		} else if (p->nkv >= CTL_MAX_KV) {
			snprintf(msg, msglen, "%s:%u: more than %d parameters", path, lineno,
			         CTL_MAX_KV);
			rc = -EINVAL;
		} else {
			size_t n = p->nkv;
			rc = ctl_push(&p->keys, &n, key);
			if (!rc)
				rc = ctl_push(&p->values, &p->nkv, val);
		}
	}
	fclose(f);
	if (!rc && (!p->name[0] || (strcmp(p->kind, "cache") && strcmp(p->kind, "link")))) {
		snprintf(msg, msglen, "%s: needs a name and kind = cache or link", path);
		rc = -EINVAL;
	}
	if (rc)
		rl_ctl_profile_free(p);
	return rc;
}

int rl_ctl_profile_each(int (*fn)(const struct rl_ctl_profile *p, void *arg), void *arg)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	size_t nd = rl_data_dirs("profiles", "RAIDLAB_PROFILES", dirs);
	char seen[64][64];
	size_t nseen = 0;
	int rc = 0;

	for (size_t d = 0; d < nd && !rc; d++) {
		char **names = NULL;
		size_t n = rl_data_list(dirs[d], RL_CTL_SUFFIX, &names);
		for (size_t i = 0; i < n; i++) {
			char path[PATH_MAX + 80], msg[256];
			struct rl_ctl_profile p;
			bool dup = false;
			for (size_t k = 0; k < nseen; k++)
				dup |= !strcmp(seen[k], names[i]);
			if (!dup && !rc && nseen < 64 &&
			    (size_t)snprintf(path, sizeof(path), "%s/%s%s", dirs[d], names[i],
			                     RL_CTL_SUFFIX) < sizeof(path) &&
			    !rl_ctl_profile_parse(path, &p, msg, sizeof(msg))) {
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", names[i]);
				rc = fn(&p, arg);
				rl_ctl_profile_free(&p);
			}
			free(names[i]);
		}
		free(names);
	}
	return rc;
}

struct ctl_find {
	const char *name;
	struct rl_ctl_profile *out;
	bool found;
};

static int ctl_find_fn(const struct rl_ctl_profile *p, void *arg)
{
	struct ctl_find *f = arg;
	char msg[256];

	if (!rl_data_name_matches(p->name, p->aliases, f->name))
		return 0;
	/* a copy the caller owns: parse the file again */
	if (rl_ctl_profile_parse(p->path, f->out, msg, sizeof(msg)))
		return -EINVAL;
	f->found = true;
	return 1;
}

int rl_ctl_profile_load(const char *name, struct rl_ctl_profile *p)
{
	struct ctl_find f = {.name = name, .out = p};
	int rc = rl_ctl_profile_each(ctl_find_fn, &f);

	if (rc < 0)
		return rc;
	return f.found ? 0 : -ENOENT;
}

int rl_ctl_profile_check(struct rl_spec_node *node, const char *kind, struct rl_err *err)
{
	struct rl_spec_kv *kv = rl_spec_find(node, "profile");
	struct rl_ctl_profile p;
	int rc;

	if (!kv || !kv->value[0])
		return 0;
	rc = rl_ctl_profile_load(kv->value, &p);
	if (rc == -ENOENT)
		return rl_err_set(err, kv->value_pos,
		                  "%s: profile=%s: no controller profile of that name (raidlab "
		                  "profiles lists them)",
		                  kind, kv->value);
	if (rc)
		return rl_err_set(err, kv->value_pos, "%s: profile=%s: the profile cannot be read",
		                  kind, kv->value);
	rc = strcmp(p.kind, kind)
	         ? rl_err_set(err, kv->value_pos,
	                      "%s: profile=%s is a %s controller profile, not a %s one", kind,
	                      kv->value, p.kind, kind)
	         : 0;
	rl_ctl_profile_free(&p);
	return rc;
}

/* --- the target type --- */

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
