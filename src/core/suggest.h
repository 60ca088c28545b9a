/*
 * suggest.h - "did you mean" for names the user typed.
 *
 * Commands, job options, suites and drive profiles are all chosen by name;
 * when a name is not known, the error lists the ones that exist, nearest
 * first, so a typo shows its fix at the front.  Nearness is the edit
 * distance (Levenshtein with adjacent transpositions), ignoring case.
 */
#ifndef RL_CORE_SUGGEST_H
#define RL_CORE_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/** Edit distance of @a and @b ignoring case; SIZE_MAX for names of 48+ characters. */
size_t rl_edit_distance(const char *a, const char *b);

/**
 * Is @cand close enough to @typed to suggest?  Short names allow one edit,
 * medium two, long three; a typed prefix of 4+ characters also counts.
 * *@score gets the distance used (lower is better).
 */
bool rl_suggest_close(const char *typed, const char *cand, size_t *score);

/**
 * Sort @names[0..@n) in place, nearest to @typed first (a stable sort: names
 * equally near keep their order).  Names that contain @typed, or that
 * @typed contains, rank between one edit and two.
 */
void rl_suggest_sort(const char *typed, const char **names, size_t n);

/**
 * "a, b, c" of @names[0..@n) sorted nearest to @typed first, into @buf;
 * names that do not fit end with ", ...".  Returns @buf.
 */
const char *rl_suggest_list(const char *typed, const char **names, size_t n, char *buf, size_t len);

/* Names gathered from a registry walk (profiles...), for rl_suggest_list. */
#define RL_NAMES_MAX 64
struct rl_names {
	const char *v[RL_NAMES_MAX];
	char buf[RL_NAMES_MAX][64];
	size_t n;
};

/** Add a copy of @name (cut at 63 characters); past RL_NAMES_MAX names, false. */
bool rl_names_add(struct rl_names *l, const char *name);

#endif
