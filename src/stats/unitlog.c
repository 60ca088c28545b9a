/*
 * unitlog.c - per-I/O records for fio's per-I/O logs (unitlog.h).
 *
 * A growing array, doubled when full: appending is a copy of 40 bytes, so
 * the worker's completion path pays little for it.  Sorting a merged log
 * uses qsort with the index as the last key, which keeps it stable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/unitlog.h"

void st_unitlog_init(struct st_unitlog *l, uint64_t start_ns)
{
	memset(l, 0, sizeof(*l));
	l->on = true;
	l->start_ns = start_ns;
}

static int unitlog_grow(struct st_unitlog *l, size_t need)
{
	size_t cap = l->cap ? l->cap : 4096;

	if (need > ST_UNITLOG_MAX)
		return -ENOSPC;
	while (cap < need)
		cap *= 2;
	if (cap > ST_UNITLOG_MAX)
		cap = ST_UNITLOG_MAX;
	struct st_unit *v = realloc(l->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	l->cap = cap;
	return 0;
}

int st_unitlog_add(struct st_unitlog *l, uint64_t t_ns, const struct st_unit *u)
{
	if (!l->on || l->full)
		return 0;
	if (l->n == l->cap) {
		int rc = unitlog_grow(l, l->n + 1);
		if (rc) {
			l->full = true;
			return rc;
		}
	}
	l->v[l->n] = *u;
	l->v[l->n].t_ns = t_ns > l->start_ns ? t_ns - l->start_ns : 0;
	l->n++;
	return 0;
}

int st_unitlog_merge(struct st_unitlog *dst, const struct st_unitlog *src)
{
	if (!src->on)
		return 0;
	if (!dst->on)
		st_unitlog_init(dst, src->start_ns);
	dst->full |= src->full;
	if (!src->n)
		return 0;
	if (dst->n + src->n > dst->cap) {
		int rc = unitlog_grow(dst, dst->n + src->n);
		if (rc) {
			dst->full = true;
			return rc;
		}
	}
	for (size_t i = 0; i < src->n; i++) {
		struct st_unit u = src->v[i];
		uint64_t t = src->start_ns + u.t_ns;
		u.t_ns = t > dst->start_ns ? t - dst->start_ns : 0;
		dst->v[dst->n++] = u;
	}
	return 0;
}

struct unitlog_key {
	uint64_t t_ns;
	size_t i;
};

static int unitlog_cmp(const void *a, const void *b)
{
	const struct unitlog_key *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void st_unitlog_sort(struct st_unitlog *l)
{
	size_t i;

	for (i = 1; i < l->n && l->v[i - 1].t_ns <= l->v[i].t_ns; i++)
		;
	if (i >= l->n)
		return; /* one worker's log: already in order */
	struct unitlog_key *k = malloc(l->n * sizeof(*k));
	struct st_unit *v = malloc(l->n * sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return; /* written as recorded: each clone's records in order */
	}
	for (i = 0; i < l->n; i++)
		k[i] = (struct unitlog_key){l->v[i].t_ns, i};
	qsort(k, l->n, sizeof(*k), unitlog_cmp);
	for (i = 0; i < l->n; i++)
		v[i] = l->v[k[i].i];
	free(k);
	free(l->v);
	l->v = v;
	l->cap = l->n;
}

void st_unitlog_free(struct st_unitlog *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
