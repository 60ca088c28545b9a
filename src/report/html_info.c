/*
 * html_info.c - what was measured and how: stacks, hosts, parameters.
 *
 * These parts of a result are free-form JSON in the contract (target.tree
 * nodes carry each target type's own properties, hosts and parameters may
 * grow fields), so they are rendered generically:
 *
 *   Stacks      target.tree as nested lists: a node's type in bold, its
 *               size and block size, its other properties as key=value,
 *               then its children one level deeper;
 *   Hosts       one row per configuration, one column per host field (the
 *               union over the results, in order of first appearance);
 *   Parameters  one row per suite parameter (suite results) or per job
 *               option (job results, grouped by job), one column per
 *               configuration; cells that differ from the baseline are
 *               highlighted, which is how a reader spots that two runs did
 *               not use the same settings.
 *
 * Values: strings as text, numbers as numbers, fields named *_bytes as
 * binary sizes ("1 GiB"), arrays as [a, b], objects as (k=v, ...).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/fmt.h"
#include "report/html.h"
#include "report/render.h"

static bool rep_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* A JSON value as compact text; @key decides number formatting. */
static void rep_html_value(FILE *f, struct json_object *v, const char *key)
{
	char buf[64];
	size_t i = 0;

	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("null", f);
		break;
	case json_type_boolean:
		fputs(json_object_get_boolean(v) ? "true" : "false", f);
		break;
	case json_type_int:
	case json_type_double:
		if (key && rep_ends_with(key, "_bytes"))
			rep_fmt_bytes(buf, sizeof buf, json_object_get_double(v));
		else if (json_object_is_type(v, json_type_int))
			snprintf(buf, sizeof buf, "%lld", (long long)json_object_get_int64(v));
		else
			rep_fmt_number(buf, sizeof buf, json_object_get_double(v));
		fputs(buf, f);
		break;
	case json_type_string:
		rep_html_text(f, json_object_get_string(v));
		break;
	case json_type_array:
		fputc('[', f);
		for (i = 0; i < json_object_array_length(v); i++) {
			if (i)
				fputs(", ", f);
			rep_html_value(f, json_object_array_get_idx(v, i), key);
		}
		fputc(']', f);
		break;
	case json_type_object: {
		fputc('(', f);
		json_object_object_foreach(v, k, val)
		{
			if (i++)
				fputs(", ", f);
			rep_html_text(f, k);
			fputc('=', f);
			rep_html_value(f, val, k);
		}
		fputc(')', f);
		break;
	}
	}
}

static void rep_tree_node(FILE *f, struct json_object *node)
{
	struct json_object *v, *children = NULL;
	const char *sep = "";
	char buf[64];

	fputs("<li>", f);
	if (!json_object_is_type(node, json_type_object)) {
		rep_html_value(f, node, NULL);
		fputs("</li>\n", f);
		return;
	}
	fputs("<b>", f);
	if (json_object_object_get_ex(node, "type", &v) && v)
		rep_html_value(f, v, "type");
	else
		fputs("?", f);
	fputs("</b> <span class=\"props\">", f);
	if (json_object_object_get_ex(node, "size_bytes", &v) &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))) {
		rep_fmt_bytes(buf, sizeof buf, json_object_get_double(v));
		fputs(buf, f);
		sep = " &middot; ";
	}
	if (json_object_object_get_ex(node, "block_size", &v) &&
	    json_object_is_type(v, json_type_int)) {
		fprintf(f, "%sblocks of %lld B", sep, (long long)json_object_get_int64(v));
		sep = " &middot; ";
	}
	json_object_object_foreach(node, key, val)
	{
		if (!strcmp(key, "type") || !strcmp(key, "size_bytes") ||
		    !strcmp(key, "block_size"))
			continue;
		if (!strcmp(key, "children") && json_object_is_type(val, json_type_array)) {
			children = val;
			continue;
		}
		fputs(sep, f);
		rep_html_text(f, key);
		fputc('=', f);
		rep_html_value(f, val, key);
		sep = " &middot; ";
	}
	fputs("</span>", f);
	if (children && json_object_array_length(children) > 0) {
		fputs("\n<ul>\n", f);
		for (size_t i = 0; i < json_object_array_length(children); i++)
			rep_tree_node(f, json_object_array_get_idx(children, i));
		fputs("</ul>\n", f);
	}
	fputs("</li>\n", f);
}

void rep_html_stacks(FILE *f, const struct rep_compare *cmp)
{
	fputs("<section id=\"stacks\"><h2>Stacks</h2>\n<div class=\"grid\">\n", f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_result *r = cmp->cols[c];

		fputs("<div class=\"card tree\">\n<h3>", f);
		rep_html_col(f, cmp, c);
		fputs("</h3>\n<p><code>", f);
		rep_html_text(f, r->spec);
		fputs("</code></p>\n", f);
		if (r->tree) {
			fputs("<ul>\n", f);
			rep_tree_node(f, r->tree);
			fputs("</ul>\n", f);
		} else {
			fputs("<p class=\"props\">(the result has no target tree)</p>\n", f);
		}
		fputs("</div>\n", f);
	}
	fputs("</div></section>\n", f);
}

/* A growing list of distinct row keys: (group, occurrence, key). */
struct rep_keys {
	struct rep_key3 {
		const char *group;
		unsigned occ;
		const char *key;
	} * v;
	size_t n, cap;
};

static int rep_keys_add(struct rep_keys *ks, const char *group, unsigned occ, const char *key)
{
	for (size_t i = 0; i < ks->n; i++) {
		if (ks->v[i].occ == occ && !strcmp(ks->v[i].key, key) &&
		    (ks->v[i].group == group ||
		     (group && ks->v[i].group && !strcmp(ks->v[i].group, group))))
			return 0;
	}
	if (ks->n == ks->cap) {
		size_t ncap = ks->cap ? ks->cap * 2 : 16;
		struct rep_key3 *nv = realloc(ks->v, ncap * sizeof *nv);

		if (!nv)
			return -1;
		ks->v = nv;
		ks->cap = ncap;
	}
	ks->v[ks->n++] = (struct rep_key3){group, occ, key};
	return 0;
}

static const char *const rep_host_names[][2] = {
    {"hostname", "host"}, {"kernel", "kernel"}, {"machine", "machine"},
    {"cpu_model", "CPU"}, {"cores", "cores"},   {"memory_bytes", "memory"},
};

void rep_html_hosts(FILE *f, const struct rep_compare *cmp)
{
	struct rep_keys ks = {0};

	for (size_t c = 0; c < cmp->ncols; c++) {
		if (!cmp->cols[c]->host)
			continue;
		json_object_object_foreach(cmp->cols[c]->host, key, val)
		{
			(void)val;
			if (rep_keys_add(&ks, NULL, 0, key))
				goto out;
		}
	}
	fputs("<section id=\"hosts\"><h2>Hosts</h2>\n", f);
	if (!ks.n) {
		fputs("<p>The results do not describe their hosts.</p></section>\n", f);
		goto out;
	}
	fputs("<div class=\"scroll\"><table>\n<thead><tr><th>configuration</th>", f);
	for (size_t k = 0; k < ks.n; k++) {
		const char *h = ks.v[k].key;

		for (size_t i = 0; i < sizeof rep_host_names / sizeof rep_host_names[0]; i++) {
			if (!strcmp(h, rep_host_names[i][0]))
				h = rep_host_names[i][1];
		}
		fputs("<th>", f);
		rep_html_text(f, h);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		fputs("<tr><td class=\"name\">", f);
		rep_html_col(f, cmp, c);
		fputs("</td>", f);
		for (size_t k = 0; k < ks.n; k++) {
			struct json_object *v = NULL;

			fputs("<td>", f);
			if (cmp->cols[c]->host &&
			    json_object_object_get_ex(cmp->cols[c]->host, ks.v[k].key, &v))
				rep_html_value(f, v, ks.v[k].key);
			else
				fputs("-", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
out:
	free(ks.v);
}

/* The job @name (occurrence @occ) of a job result, NULL when absent. */
static const struct rep_test *rep_find_job(const struct rep_result *r, const char *name,
                                           unsigned occ)
{
	for (size_t i = 0; i < r->ntests; i++) {
		if (!strcmp(r->tests[i].name, name) && occ-- == 0)
			return &r->tests[i];
	}
	return NULL;
}

/* The parameter object holding row @k in column @c, NULL when absent. */
static struct json_object *rep_param_obj(const struct rep_compare *cmp, size_t c,
                                         const struct rep_key3 *k)
{
	const struct rep_test *t;

	if (cmp->kind == REP_KIND_SUITE)
		return cmp->cols[c]->params;
	t = rep_find_job(cmp->cols[c], k->group, k->occ);
	return t ? t->options : NULL;
}

static int rep_param_keys(const struct rep_compare *cmp, struct rep_keys *ks)
{
	for (size_t c = 0; c < cmp->ncols; c++) {
		const struct rep_result *r = cmp->cols[c];

		if (r->kind == REP_KIND_SUITE) {
			if (!r->params)
				continue;
			json_object_object_foreach(r->params, key, val)
			{
				(void)val;
				if (rep_keys_add(ks, NULL, 0, key))
					return -1;
			}
			continue;
		}
		for (size_t i = 0; i < r->ntests; i++) {
			const struct rep_test *t = &r->tests[i];
			unsigned occ = 0;

			for (size_t j = 0; j < i; j++)
				occ += !strcmp(r->tests[j].name, t->name);
			if (!t->options)
				continue;
			json_object_object_foreach(t->options, key, val)
			{
				(void)val;
				if (rep_keys_add(ks, t->name, occ, key))
					return -1;
			}
		}
	}
	return 0;
}

static const char *rep_get_suite(const struct rep_result *r)
{
	return r->suite_name;
}

static const char *rep_get_aggregate(const struct rep_result *r)
{
	return r->aggregate;
}

/* A row for a string of every result, highlighted where it differs from the baseline's. */
static void rep_param_row(FILE *f, const struct rep_compare *cmp, const char *name,
                          const char *(*get)(const struct rep_result *))
{
	const char *b = get(cmp->cols[cmp->baseline]);

	fprintf(f, "<tr><td class=\"name\">%s</td>", name);
	for (size_t c = 0; c < cmp->ncols; c++) {
		const char *a = get(cmp->cols[c]);
		bool diff = (a == NULL) != (b == NULL) || (a && b && strcmp(a, b));

		fputs(diff ? "<td class=\"diff\">" : "<td>", f);
		rep_html_text(f, a ? a : "-");
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

void rep_html_params(FILE *f, const struct rep_compare *cmp)
{
	struct rep_keys ks = {0};
	bool suite = cmp->kind == REP_KIND_SUITE;

	if (rep_param_keys(cmp, &ks))
		goto out;
	fputs("<section id=\"params\"><h2>Parameters</h2>\n", f);
	fprintf(f,
	        "<p class=\"sub\">%s; cells that differ from the baseline are "
	        "highlighted.</p>\n",
	        suite ? "The suites' parameters (sizes in bytes, times in seconds)"
	              : "The jobs' options, as fio spells them");
	fputs("<div class=\"scroll\"><table>\n<thead><tr>", f);
	if (!suite)
		fputs("<th>job</th>", f);
	fputs("<th>parameter</th>", f);
	for (size_t c = 0; c < cmp->ncols; c++) {
		fputs("<th>", f);
		rep_html_col(f, cmp, c);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	if (suite) {
		/* the suite and its aggregation rule are parameters too */
		rep_param_row(f, cmp, "suite", rep_get_suite);
		rep_param_row(f, cmp, "aggregate", rep_get_aggregate);
	}
	for (size_t k = 0; k < ks.n; k++) {
		struct json_object *bobj = rep_param_obj(cmp, cmp->baseline, &ks.v[k]), *bv = NULL;
		char occ[32] = "";

		if (bobj)
			json_object_object_get_ex(bobj, ks.v[k].key, &bv);
		fputs("<tr>", f);
		if (!suite) {
			if (ks.v[k].occ)
				snprintf(occ, sizeof occ, " (%u)", ks.v[k].occ + 1);
			fputs("<td class=\"name\">", f);
			rep_html_text(f, ks.v[k].group);
			fprintf(f, "%s</td>", occ);
		}
		fputs("<td class=\"name\">", f);
		rep_html_text(f, ks.v[k].key);
		fputs("</td>", f);
		for (size_t c = 0; c < cmp->ncols; c++) {
			struct json_object *obj = rep_param_obj(cmp, c, &ks.v[k]), *v = NULL;
			bool has = obj && json_object_object_get_ex(obj, ks.v[k].key, &v);
			bool diff = c != cmp->baseline && !json_object_equal(v, bv);

			fputs(diff ? "<td class=\"diff\">" : "<td>", f);
			if (has)
				rep_html_value(f, v, ks.v[k].key);
			else
				fputs("-", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
out:
	free(ks.v);
}
