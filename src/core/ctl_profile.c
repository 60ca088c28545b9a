/*
 * ctl_profile.c - controller and host-driver profiles (profiles/NAME.controller):
 * parsing, finding by name, listing (see ctl_profile.h).
 *
 * A profile is data, like a drive profile: "key = value" lines, '#'
 * comments, with
 *   name, aliases       how specs name it
 *   kind                the target type it becomes: "cache" (a controller
 *                       with a cache and firmware: cache(...)) or "link"
 *                       (a host driver's path: per-command cost, latency,
 *                       bandwidth ceiling: link(...))
 *   description, source what it is and where each figure comes from
 *   LEVEL.key           how the firmware runs arrays of that level: a default
 *                       for the array when it is a LEVEL(...) call
 *                       (raid10.read = per-request)
 *   every other key     a parameter of that target type, used as a default
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctl_profile.h"
#include "core/datadir.h"
#include "core/registry.h"

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
