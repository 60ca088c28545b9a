/*
 * suggest.c - nearest names first, for errors about an unknown name.
 *
 * The distance is computed on a small fixed table (names are short), so no
 * allocation; sorting is an insertion sort on the distance, stable, since
 * the lists (profiles, suites, commands) hold tens of names.
 */
#include "core/suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

size_t rl_edit_distance(const char *a, const char *b)
{
	enum { N = 48 };
	size_t la = strlen(a), lb = strlen(b);
	if (la >= N || lb >= N)
		return SIZE_MAX;
	unsigned char d[N + 1][N + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned char)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned char)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1u < best)
				best = d[i - 1][j] + 1u;
			if (d[i][j - 1] + 1u < best)
				best = d[i][j - 1] + 1u;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1u < best)
				best = d[i - 2][j - 2] + 1u;
			d[i][j] = (unsigned char)best;
		}
	}
	return d[la][lb];
}

bool rl_suggest_close(const char *typed, const char *cand, size_t *score)
{
	size_t len = strlen(typed);
	size_t limit = len <= 4 ? 1 : len <= 10 ? 2 : 3;
	size_t d = rl_edit_distance(typed, cand);
	if (len >= 4 && strncasecmp(typed, cand, len) == 0 && d > 0)
		d = d < limit ? d : limit; /* a prefix is as good as the worst allowed edit */
	*score = d;
	return d <= limit && d < len;
}

/*
 * The sort key: twice the edit distance, so that containment can rank
 * between one edit and two (sx8200 is near sx8200pro-256).
 */
static size_t suggest_key(const char *typed, const char *name)
{
	size_t d = rl_edit_distance(typed, name);
	size_t key = d == SIZE_MAX ? SIZE_MAX : 2 * d;
	if (key > 3 && typed[0] && (strcasestr(name, typed) || strcasestr(typed, name)))
		key = 3;
	return key;
}

void rl_suggest_sort(const char *typed, const char **names, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const char *cur = names[i];
		size_t key = suggest_key(typed, cur), j = i;
		while (j > 0 && suggest_key(typed, names[j - 1]) > key) {
			names[j] = names[j - 1];
			j--;
		}
		names[j] = cur;
	}
}

const char *rl_suggest_list(const char *typed, const char **names, size_t n, char *buf, size_t len)
{
	size_t pos = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	rl_suggest_sort(typed, names, n);
	for (size_t i = 0; i < n; i++) {
		size_t need = strlen(names[i]) + 2;
		if (pos + need + 5 >= len) {
			snprintf(buf + pos, len - pos, "%s...", i ? ", " : "");
			break;
		}
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", names[i]);
	}
	return buf;
}

bool rl_names_add(struct rl_names *l, const char *name)
{
	if (l->n == RL_NAMES_MAX)
		return false;
	snprintf(l->buf[l->n], sizeof(l->buf[0]), "%s", name);
	l->v[l->n] = l->buf[l->n];
	l->n++;
	return true;
}
