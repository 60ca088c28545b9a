/*
 * datadir.c - data directories (see datadir.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datadir.h"

#ifndef RL_DATADIR
#define RL_DATADIR "/usr/local/share/raidlab"
#endif

/* The list being built: directories and their origins, without repeats. */
struct data_dirs {
	char (*dir)[PATH_MAX];
	int origin[RL_DATA_DIRS_MAX];
	size_t n;
};

static void data_dirs_add(struct data_dirs *d, int origin, const char *a, const char *b,
                          const char *c)
{
	char path[PATH_MAX];

	if (d->n >= RL_DATA_DIRS_MAX ||
	    (size_t)snprintf(path, sizeof(path), "%s%s%s", a, b, c) >= sizeof(path))
		return;
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->dir[i], path))
			return;
	memcpy(d->dir[d->n], path, strlen(path) + 1);
	d->origin[d->n++] = origin;
}

/* "/usr/bin/raidlab" -> "/usr": the folder above the executable's. */
static bool data_exe_prefix(char *out, size_t len)
{
	ssize_t el = readlink("/proc/self/exe", out, len - 1);
	char *slash;

	if (el <= 0)
		return false;
	out[el] = 0;
	for (int i = 0; i < 2; i++) {
		slash = strrchr(out, '/');
		if (!slash)
			return false;
		*slash = 0;
	}
	return true;
}

static void data_dirs_fill(struct data_dirs *d, const char *sub, const char *env)
{
	const char *e = env ? getenv(env) : NULL;
	char pre[PATH_MAX], up[PATH_MAX];

	while (e && *e && d->n < 3) {
		const char *c = strchr(e, ':');
		size_t l = c ? (size_t)(c - e) : strlen(e);
		char one[PATH_MAX];
		if (l && l < PATH_MAX) {
			memcpy(one, e, l);
			one[l] = 0;
			data_dirs_add(d, RL_DATA_ENV, one, "", "");
		}
		e += l + (c ? 1 : 0);
	}
	if ((e = getenv("RAIDLAB_DATADIR")) && *e)
		data_dirs_add(d, RL_DATA_DATADIR, e, "/", sub);
	if ((e = getenv("RAIDLAB_TOP")) && *e)
		data_dirs_add(d, RL_DATA_TOP, e, "/", sub);
	if (data_exe_prefix(pre, sizeof(pre)))
		data_dirs_add(d, RL_DATA_INSTALLED, pre, "/share/raidlab/", sub);
	data_dirs_add(d, RL_DATA_INSTALLED, RL_DATADIR, "/", sub);
	if (data_exe_prefix(pre, sizeof(pre))) {
		data_dirs_add(d, RL_DATA_SOURCE, pre, "/", sub);
		memcpy(up, pre, sizeof(up));
		if (strrchr(up, '/')) {
			*strrchr(up, '/') = 0;
			data_dirs_add(d, RL_DATA_SOURCE, up, "/", sub);
		}
	}
	data_dirs_add(d, RL_DATA_CWD, sub, "", "");
}

size_t rl_data_dirs(const char *sub, const char *env, char out[][PATH_MAX])
{
	struct data_dirs d = {.dir = out};

	data_dirs_fill(&d, sub, env);
	return d.n;
}

int rl_data_found(const char *sub, const char *env, char *out)
{
	char dirs[RL_DATA_DIRS_MAX][PATH_MAX];
	struct data_dirs d = {.dir = dirs};
	struct stat st;

	data_dirs_fill(&d, sub, env);
	for (size_t i = 0; i < d.n; i++)
		if (!stat(dirs[i], &st) && S_ISDIR(st.st_mode)) {
			memcpy(out, dirs[i], strlen(dirs[i]) + 1);
			return d.origin[i];
		}
	out[0] = 0;
	return -1;
}

const char *rl_data_share(void)
{
	return RL_DATADIR;
}

const char *rl_data_origin_name(int origin)
{
	static const char *const names[] = {
	    [RL_DATA_ENV] = "environment",    [RL_DATA_DATADIR] = "RAIDLAB_DATADIR",
	    [RL_DATA_TOP] = "RAIDLAB_TOP",    [RL_DATA_INSTALLED] = "installed",
	    [RL_DATA_SOURCE] = "source tree", [RL_DATA_CWD] = "current directory",
	};
	return origin >= 0 && origin <= RL_DATA_CWD ? names[origin] : "not found";
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
