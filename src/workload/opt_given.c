/*
 * opt_given.c - the options a job was given, as fio lists them in its JSON
 * "job options" and "global options".
 *
 * Design: fio keeps, per job, the list of options its section or command
 * line gave: the option's name (an alias becomes the name), the value as
 * typed, in the order given; a bare key such as "time_based" is not listed.
 * A job file's section is first ordered by the options' priority (fio parses
 * directory before filename).  The list lives in the job as text, one
 * "name=value\n" per option, so copies of a job (numjobs clones, results)
 * carry it without ownership; a value's newline is stored as a space.
 */
#include "workload/job.h"

#include <stdlib.h>
#include <string.h>

/* raidlab's names for fio's options where fio's name is raidlab's alias */
static const char *const given_fio_names[][2] = {
    {"blockalign", "ba"},
    {"mem_align", "iomem_align"},
    {"ss", "steadystate"},
    {"ss_dur", "steadystate_duration"},
    {"ss_ramp", "steadystate_ramp_time"},
};

/* fio's option priorities (options.c .prio): higher is parsed first */
static int given_prio(const char *entry)
{
	static const struct {
		const char *name;
		int prio;
	} prios[] = {{"filename", -1},           {"filename_format", -1}, {"lockfile", 1},
	             {"cpus_allowed_policy", 1}, {"kb_base", 1},          {"unit_base", 1}};
	size_t len = strcspn(entry, "=");

	for (size_t i = 0; i < sizeof(prios) / sizeof(prios[0]); i++)
		if (strlen(prios[i].name) == len && !strncmp(entry, prios[i].name, len))
			return prios[i].prio;
	return 0;
}

void wl_given_add(char *given, const char *name, const char *value)
{
	size_t len = strlen(given), nlen, vlen;

	if (!value)
		return;
	for (size_t i = 0; i < sizeof(given_fio_names) / sizeof(given_fio_names[0]); i++)
		if (!strcmp(name, given_fio_names[i][0]))
			name = given_fio_names[i][1];
	nlen = strlen(name);
	vlen = strlen(value);
	if (len + nlen + vlen + 3 > WL_GIVEN_MAX)
		return;
	memcpy(given + len, name, nlen);
	given[len + nlen] = '=';
	for (size_t i = 0; i < vlen; i++)
		given[len + nlen + 1 + i] = value[i] == '\n' ? ' ' : value[i];
	given[len + nlen + 1 + vlen] = '\n';
	given[len + nlen + 2 + vlen] = '\0';
}

void wl_given_sort(char *given, size_t from)
{
	size_t len = strlen(given);
	char *copy;
	size_t out = from;

	if (from >= len || !(copy = malloc(len - from + 1)))
		return;
	memcpy(copy, given + from, len - from + 1);
	/* a stable order by priority: every entry of each priority, highest first */
	for (int prio = 1; prio >= -1; prio--)
		for (char *p = copy; *p;) {
			size_t elen = strcspn(p, "\n") + 1;
			if (given_prio(p) == prio) {
				memcpy(given + out, p, elen);
				out += elen;
			}
			p += elen;
		}
	given[out] = '\0';
	free(copy);
}

bool wl_given_next(const char *given, size_t *pos, char *name, size_t namelen, char *value,
                   size_t valuelen)
{
	const char *p = given + *pos;
	size_t elen = strcspn(p, "\n"), nlen = strcspn(p, "=");

	if (!*p || !namelen || !valuelen)
		return false;
	if (nlen > elen)
		nlen = elen;
	size_t vlen = nlen < elen ? elen - nlen - 1 : 0;
	size_t n = nlen < namelen ? nlen : namelen - 1, v = vlen < valuelen ? vlen : valuelen - 1;
	memcpy(name, p, n);
	name[n] = '\0';
	memcpy(value, p + nlen + (nlen < elen), v);
	value[v] = '\0';
	*pos += elen + (p[elen] == '\n');
	return true;
}
