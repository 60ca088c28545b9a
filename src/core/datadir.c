/*
 * datadir.c - data directories (see datadir.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/datadir.h"

size_t rl_data_dirs(const char *sub, const char *env, char out[][PATH_MAX])
{
	static const char *const rel[] = {"..", "../share/raidlab", "../.."};
	const char *e = env ? getenv(env) : NULL;
	char exe[PATH_MAX];
	size_t n = 0;
	ssize_t el;

	while (e && *e && n < 3) {
		const char *c = strchr(e, ':');
		size_t l = c ? (size_t)(c - e) : strlen(e);
		if (l && l < PATH_MAX) {
			memcpy(out[n], e, l);
			out[n++][l] = 0;
		}
		e += l + (c ? 1 : 0);
	}
	el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (el > 0) {
		char *slash;
		exe[el] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			for (size_t i = 0; i < 3 && n < RL_DATA_DIRS_MAX - 2; i++)
				if ((size_t)snprintf(out[n], PATH_MAX, "%s/%s/%s", exe, rel[i],
				                     sub) < PATH_MAX)
					n++;
		}
	}
	e = getenv("RAIDLAB_TOP");
	if (e && *e && (size_t)snprintf(out[n], PATH_MAX, "%s/%s", e, sub) < PATH_MAX)
		n++;
	snprintf(out[n++], PATH_MAX, "%s", sub);
	return n;
}

static int rl_data_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t rl_data_list(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, cap = 0, sl = strlen(suffix);
	char **v = NULL;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **nv;
		if (l <= sl || strcmp(de->d_name + l - sl, suffix) || de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n] = strndup(de->d_name, l - sl);
		if (v[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), rl_data_cmp);
	*out = v;
	return n;
}

bool rl_data_name_matches(const char *name, const char *aliases, const char *want)
{
	size_t wl = strlen(want);

	if (!strcmp(name, want))
		return true;
	for (const char *a = aliases; a && *a;) {
		size_t l = strcspn(a, " \t,");
		if (l == wl && !strncmp(a, want, l))
			return true;
		a += l;
		a += strspn(a, " \t,");
	}
	return false;
}
