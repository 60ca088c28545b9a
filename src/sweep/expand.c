/*
 * expand.c - alternatives inside a target spec (expand.h).
 *
 * Two steps.  The parser reads the text once into a small tree: a sequence
 * is a list of pieces, each either literal text (a span of the input, or a
 * number a range made) or a group, which is a list of alternative
 * sequences plus the axis it stands for.  The parser tracks parentheses and
 * quotes only to know which commas and braces are its own.  Then the
 * expander multiplies the tree out: a list of partial texts grows piece by
 * piece, each group turning every partial text into one per expansion of
 * each alternative, so nested groups need nothing special.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/expand.h"

struct xp_seq;

struct xp_piece {
	const char *s; /* literal text (group == NULL) */
	size_t len;
	struct xp_group *group;
};

struct xp_seq {
	struct xp_piece *p;
	size_t n;
};

struct xp_group {
	size_t axis;
	const char *prefix; /* text glued before the group that belongs to its value */
	size_t prefix_len;
	struct xp_seq *alts;
	size_t nalts;
};

struct xp {
	const char *text;
	size_t len;
	struct rl_err *err;
	char **names; /* axis names */
	size_t naxes;
	unsigned unnamed;
	char **owned; /* texts made by ranges */
	size_t nowned;
};

static bool xp_word_byte(char c)
{
	return c && !strchr("(),=\"{} \t\n\r\v\f", c);
}

static int xp_push(void **arr, size_t *n, size_t size)
{
	void *a = realloc(*arr, (*n + 1) * size);

	if (!a)
		return -ENOMEM;
	memset((char *)a + *n * size, 0, size);
	*arr = a;
	(*n)++;
	return 0;
}

static int xp_literal(struct xp_seq *q, const char *s, size_t len)
{
	if (!len)
		return 0;
	if (q->n && !q->p[q->n - 1].group && q->p[q->n - 1].s + q->p[q->n - 1].len == s) {
		q->p[q->n - 1].len += len;
		return 0;
	}
	if (xp_push((void **)&q->p, &q->n, sizeof(*q->p)))
		return -ENOMEM;
	q->p[q->n - 1].s = s;
	q->p[q->n - 1].len = len;
	return 0;
}

/* A name for the axis of the group opening at @g (see expand.h); *prefix_len set. */
static int xp_axis(struct xp *x, size_t g, struct xp_group *grp)
{
	const char *t = x->text;
	size_t k = g, j;
	char name[96];

	while (k > 0 && xp_word_byte(t[k - 1]))
		k--;
	grp->prefix = t + k;
	grp->prefix_len = g - k;
	if (g == k && k > 0 && t[k - 1] == '=') {
		j = k - 1;
		while (j > 0 && isspace((unsigned char)t[j - 1]))
			j--;
		k = j;
		while (k > 0 && xp_word_byte(t[k - 1]))
			k--;
		if (j > k)
			snprintf(name, sizeof(name), "%.*s", (int)(j - k), t + k);
		else /* '=' after no key: the spec parser will say so */
			snprintf(name, sizeof(name), "alt%u", ++x->unnamed);
	} else if (g - k == 1 && t[k] == 'x' && k > 0 && isspace((unsigned char)t[k - 1])) {
		snprintf(name, sizeof(name), "count");
		grp->prefix_len = 0; /* the x is the repetition, not part of the value */
	} else if (g - k == 4 && !strncmp(t + k, "raid", 4)) {
		snprintf(name, sizeof(name), "level");
	} else if (g > k) {
		snprintf(name, sizeof(name), "%.*s", (int)(g - k), t + k);
	} else {
		snprintf(name, sizeof(name), "alt%u", ++x->unnamed);
	}
	/* a name used twice gets #2, #3 ... */
	char base[96];
	snprintf(base, sizeof(base), "%s", name);
	for (unsigned dup = 2;; dup++) {
		bool taken = false;
		for (size_t i = 0; i < x->naxes && !taken; i++)
			taken = !strcmp(x->names[i], name);
		if (!taken)
			break;
		snprintf(name, sizeof(name), "%.80s#%u", base, dup);
	}
	if (xp_push((void **)&x->names, &x->naxes, sizeof(*x->names)))
		return -ENOMEM;
	x->names[x->naxes - 1] = strdup(name);
	if (!x->names[x->naxes - 1])
		return -ENOMEM;
	grp->axis = x->naxes - 1;
	return 0;
}

/* {A..B}: the one alternative is a whole-number range; 1 if so, 0 if not, <0 on error. */
static int xp_range(struct xp *x, struct xp_group *grp, size_t pos)
{
	const struct xp_seq *a = &grp->alts[0];
	char buf[64], *end;
	unsigned long long lo, hi;

	if (grp->nalts != 1 || a->n != 1 || a->p[0].group || a->p[0].len >= sizeof(buf))
		return 0;
	memcpy(buf, a->p[0].s, a->p[0].len);
	buf[a->p[0].len] = 0;
	char *dots = strstr(buf, "..");
	if (!dots)
		return 0;
	*dots = 0;
	if (!isdigit((unsigned char)buf[0]) || !isdigit((unsigned char)dots[2]))
		return rl_err_set(x->err, pos, "expected a range of whole numbers like {2..8}");
	lo = strtoull(buf, &end, 10);
	if (*end)
		return rl_err_set(x->err, pos, "expected a range of whole numbers like {2..8}");
	hi = strtoull(dots + 2, &end, 10);
	if (*end)
		return rl_err_set(x->err, pos, "expected a range of whole numbers like {2..8}");
	if (hi < lo || hi - lo >= SW_EXPAND_MAX)
		return rl_err_set(x->err, pos,
		                  "range {%llu..%llu}: the end must be at least the "
		                  "start and at most %d values",
		                  lo, hi, SW_EXPAND_MAX);
	free(grp->alts[0].p);
	free(grp->alts);
	grp->alts = calloc(hi - lo + 1, sizeof(*grp->alts));
	if (!grp->alts)
		return -ENOMEM;
	grp->nalts = 0;
	for (unsigned long long v = lo; v <= hi; v++) {
		char num[24], *s;
		snprintf(num, sizeof(num), "%llu", v);
		if (!(s = strdup(num)))
			return -ENOMEM;
		if (xp_push((void **)&x->owned, &x->nowned, sizeof(*x->owned))) {
			free(s);
			return -ENOMEM;
		}
		x->owned[x->nowned - 1] = s;
		if (xp_literal(&grp->alts[grp->nalts++], s, strlen(s)))
			return -ENOMEM;
	}
	return 1;
}

static void xp_seq_free(struct xp_seq *q);

static void xp_group_free(struct xp_group *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nalts; i++)
		xp_seq_free(&g->alts[i]);
	free(g->alts);
	free(g);
}

static void xp_seq_free(struct xp_seq *q)
{
	for (size_t i = 0; i < q->n; i++)
		xp_group_free(q->p[i].group);
	free(q->p);
	q->p = NULL;
	q->n = 0;
}

static int xp_seq_parse(struct xp *x, size_t *pos, unsigned depth, size_t group_at,
                        struct xp_seq *q);

/* The group whose '{' is at *pos; *pos ends after its '}'. */
static int xp_group_parse(struct xp *x, size_t *pos, unsigned depth, struct xp_seq *q)
{
	size_t g = *pos;
	struct xp_group *grp;
	int rc;

	if (depth >= SW_EXPAND_DEPTH)
		return rl_err_set(x->err, g, "alternatives nest more than %d deep",
		                  SW_EXPAND_DEPTH);
	grp = calloc(1, sizeof(*grp));
	if (!grp || xp_push((void **)&q->p, &q->n, sizeof(*q->p))) {
		free(grp);
		return -ENOMEM;
	}
	q->p[q->n - 1].group = grp;
	rc = xp_axis(x, g, grp);
	if (rc)
		return rc;
	if (grp->prefix_len) { /* the glued word moves into the value */
		struct xp_piece *lit = q->n >= 2 ? &q->p[q->n - 2] : NULL;
		if (lit && !lit->group && lit->s + lit->len == grp->prefix + grp->prefix_len) {
			lit->len -= grp->prefix_len;
			if (!lit->len) {
				q->p[q->n - 2] = q->p[q->n - 1];
				q->n--;
			}
		} else {
			grp->prefix_len = 0; /* glued to another group: keep the text where it is */
		}
	}
	(*pos)++;
	for (;;) {
		size_t start = *pos;
		if (xp_push((void **)&grp->alts, &grp->nalts, sizeof(*grp->alts)))
			return -ENOMEM;
		rc = xp_seq_parse(x, pos, depth + 1, g, &grp->alts[grp->nalts - 1]);
		if (rc)
			return rc;
		if (!grp->alts[grp->nalts - 1].n)
			return rl_err_set(x->err, start,
			                  "empty alternative in the group opened at "
			                  "position %zu",
			                  g);
		if (x->text[*pos] == '}') {
			(*pos)++;
			break;
		}
		(*pos)++; /* ',' */
	}
	rc = xp_range(x, grp, g + 1);
	return rc < 0 ? rc : 0;
}

/* Skip a quoted word starting at *pos ('"'); braces and commas inside are text. */
static void xp_skip_quoted(const struct xp *x, size_t *pos)
{
	size_t i = *pos + 1;

	while (i < x->len && x->text[i] != '"')
		i += x->text[i] == '\\' && i + 1 < x->len ? 2 : 1;
	*pos = i < x->len ? i + 1 : x->len;
}

/*
 * A sequence from *pos up to the end of the text, or - inside the group
 * opened at @group_at (SIZE_MAX: none) - up to its ',' or '}' outside
 * parentheses, which is left at *pos.
 */
static int xp_seq_parse(struct xp *x, size_t *pos, unsigned depth, size_t group_at,
                        struct xp_seq *q)
{
	bool in_group = group_at != SIZE_MAX;
	size_t lit = *pos, parens = 0, open[64];
	const size_t cap = sizeof(open) / sizeof(open[0]);
	int rc;

	while (*pos < x->len) {
		char c = x->text[*pos];
		if (c == '"') {
			xp_skip_quoted(x, pos);
			continue;
		}
		if (c == '(') {
			if (parens < cap)
				open[parens] = *pos;
			parens++;
		} else if (c == ')') {
			if (!parens && in_group)
				return rl_err_set(
				    x->err, *pos,
				    "')' closes a parenthesis opened before the '{' at "
				    "position %zu",
				    group_at);
			if (parens)
				parens--;
		} else if (c == '{') {
			if ((rc = xp_literal(q, x->text + lit, *pos - lit)))
				return rc;
			if ((rc = xp_group_parse(x, pos, depth, q)))
				return rc;
			lit = *pos;
			continue;
		} else if (c == '}' && !in_group) {
			return rl_err_set(x->err, *pos, "'}' without a '{' before it");
		} else if ((c == '}' || c == ',') && in_group && !parens) {
			return xp_literal(q, x->text + lit, *pos - lit);
		} else if (c == '}') {
			size_t p = open[parens - 1 < cap ? parens - 1 : cap - 1];
			return rl_err_set(x->err, *pos,
			                  "'}' before the ')' of the '(' at position %zu", p);
		}
		(*pos)++;
	}
	if (in_group)
		return rl_err_set(x->err, group_at, "'{' is not closed by a '}'");
	return xp_literal(q, x->text + lit, *pos - lit);
}

/* --- multiplying out --- */

struct xp_list {
	struct sw_item *items;
	size_t n;
};

static void xp_list_free(struct xp_list *l, size_t naxes)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].text);
		for (size_t a = 0; l->items[i].values && a < naxes; a++)
			free(l->items[i].values[a]);
		free(l->items[i].values);
	}
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

static char *xp_cat(const char *a, const char *b, size_t blen)
{
	size_t alen = a ? strlen(a) : 0;
	char *s = malloc(alen + blen + 1);

	if (!s)
		return NULL;
	if (alen)
		memcpy(s, a, alen);
	memcpy(s + alen, b, blen);
	s[alen + blen] = 0;
	return s;
}

/* A new item: @base's text + @add (and @base's values with @extra's set ones). */
static int xp_item_join(const struct sw_item *base, const struct sw_item *extra, size_t naxes,
                        struct sw_item *out)
{
	out->text = xp_cat(base->text, extra->text, strlen(extra->text));
	out->values = calloc(naxes ? naxes : 1, sizeof(*out->values));
	if (!out->text || !out->values)
		return -ENOMEM;
	for (size_t a = 0; a < naxes; a++) {
		const char *v = extra->values[a] ? extra->values[a] : base->values[a];
		if (v && !(out->values[a] = strdup(v)))
			return -ENOMEM;
	}
	return 0;
}

static int xp_seq_expand(const struct xp *x, const struct xp_seq *q, struct xp_list *out);

/* The expansions of @g's alternatives, each with the group's own value set, into @e. */
static int xp_group_alts(const struct xp *x, const struct xp_group *g, struct xp_list *e)
{
	int rc = 0;

	for (size_t alt = 0; alt < g->nalts && !rc; alt++) {
		struct xp_list one = {0};
		rc = xp_seq_expand(x, &g->alts[alt], &one);
		for (size_t k = 0; k < one.n && !rc; k++) {
			struct sw_item *it = &one.items[k];
			char *v = xp_cat(NULL, g->prefix, g->prefix_len);
			char *full = v ? xp_cat(v, it->text, strlen(it->text)) : NULL;
			free(v);
			free(it->values[g->axis]);
			it->values[g->axis] = full;
			if (!full) {
				rc = -ENOMEM;
			} else if (g->prefix_len) { /* the glued word goes back into the text */
				char *t = strdup(full);
				free(it->text);
				it->text = t;
				rc = t ? 0 : -ENOMEM;
			}
		}
		for (size_t k = 0; k < one.n && !rc; k++) { /* move over */
			if (xp_push((void **)&e->items, &e->n, sizeof(*e->items))) {
				rc = -ENOMEM;
				break;
			}
			e->items[e->n - 1] = one.items[k];
			one.items[k] = (struct sw_item){0};
		}
		xp_list_free(&one, x->naxes);
	}
	return rc;
}

/* Every item of @l times every expansion of @g's alternatives (@l's order varies slowest). */
static int xp_group_expand(const struct xp *x, const struct xp_group *g, struct xp_list *l)
{
	struct xp_list next = {0}, e = {0};
	int rc = xp_group_alts(x, g, &e);

	if (!rc && l->n * e.n > SW_EXPAND_MAX)
		rc = rl_err_set(x->err, SIZE_MAX, "the alternatives make more than %d specs",
		                SW_EXPAND_MAX);
	if (!rc) {
		next.items = calloc(l->n * e.n + 1, sizeof(*next.items));
		rc = next.items ? 0 : -ENOMEM;
	}
	for (size_t i = 0; i < l->n && !rc; i++)
		for (size_t k = 0; k < e.n && !rc; k++)
			rc = xp_item_join(&l->items[i], &e.items[k], x->naxes,
			                  &next.items[next.n++]);
	xp_list_free(&e, x->naxes);
	xp_list_free(l, x->naxes);
	*l = next;
	return rc;
}

static int xp_seq_expand(const struct xp *x, const struct xp_seq *q, struct xp_list *out)
{
	int rc = -ENOMEM;

	out->items = calloc(1, sizeof(*out->items));
	if (!out->items)
		return -ENOMEM;
	out->n = 1;
	out->items[0].text = strdup("");
	out->items[0].values = calloc(x->naxes ? x->naxes : 1, sizeof(char *));
	if (!out->items[0].text || !out->items[0].values)
		return -ENOMEM;
	for (size_t i = 0; i < q->n; i++) {
		const struct xp_piece *p = &q->p[i];
		if (p->group) {
			if ((rc = xp_group_expand(x, p->group, out)))
				return rc;
			continue;
		}
		for (size_t k = 0; k < out->n; k++) {
			char *t = xp_cat(out->items[k].text, p->s, p->len);
			if (!t)
				return -ENOMEM;
			free(out->items[k].text);
			out->items[k].text = t;
		}
	}
	return 0;
}

int sw_expand(const char *text, struct sw_expansion *out, struct rl_err *err)
{
	struct xp x = {.text = text, .len = strlen(text), .err = err};
	struct xp_seq top = {0};
	struct xp_list l = {0};
	size_t pos = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = xp_seq_parse(&x, &pos, 0, SIZE_MAX, &top);
	if (!rc)
		rc = xp_seq_expand(&x, &top, &l);
	if (rc == -ENOMEM)
		rl_err_set(err, SIZE_MAX, "out of memory expanding alternatives");
	xp_seq_free(&top);
	for (size_t i = 0; i < x.nowned; i++)
		free(x.owned[i]);
	free(x.owned);
	out->axes = x.names;
	out->naxes = x.naxes;
	if (rc) {
		xp_list_free(&l, x.naxes);
		return rc;
	}
	out->items = l.items;
	out->n = l.n;
	return 0;
}

void sw_expansion_free(struct sw_expansion *x)
{
	struct xp_list l = {.items = x->items, .n = x->n};

	xp_list_free(&l, x->naxes);
	for (size_t a = 0; a < x->naxes; a++)
		free(x->axes[a]);
	free(x->axes);
	memset(x, 0, sizeof(*x));
}
