/*
 * params.c - target parameters from one table (see params.h).
 *
 * The getters look the name up in the type's table, check that the caller's
 * C type fits the table's type, turn the table's default text into a value
 * with the same parser that reads the spec, and hand over to the
 * rl_spec_get_* helpers (spec.c), whose messages name key, value and
 * expected form.  The renderers walk the same table for terminal help and
 * for the markdown tables of docs/targets.md.
 */
#include "core/params.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PARAMS_MAX 64 /* entries per table (the largest, cache, has about 30) */

const struct rl_param *rl_param_find(const struct rl_param *tab, const char *name)
{
	for (; tab && tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

/* Is @type stored in the C type the getter @getter hands out? */
static bool param_type_fits(enum rl_param_type type, enum rl_param_type getter)
{
	switch (getter) {
	case RL_PARAM_U64:
		return type == RL_PARAM_SIZE || type == RL_PARAM_U64 || type == RL_PARAM_TIME ||
		       type == RL_PARAM_RATE;
	case RL_PARAM_STR:
		return true; /* any value has a text */
	default:
		return type == getter;
	}
}

/* The entry for @name, or NULL with an internal error set. */
static const struct rl_param *param_entry(const struct rl_spec_node *node,
                                          const struct rl_param *tab, const char *name,
                                          enum rl_param_type getter, struct rl_err *err)
{
	const struct rl_param *p = rl_param_find(tab, name);

	if (!p || !param_type_fits(p->type, getter)) {
		rl_err_set(err, node->pos,
		           "internal error: %s reads parameter '%s', which its table %s",
		           node->name, name, p ? "gives another type" : "lacks");
		return NULL;
	}
	return p;
}

static uint64_t param_max(const struct rl_param *p)
{
	return p->max ? p->max : UINT64_MAX;
}

/*
 * The defaults of the entries: the table's text parsed, or *@keep when the
 * table has none (@keep is read only then: the caller's variable may be
 * unset when the table gives the default).
 */
static int param_def_u64(const struct rl_param *p, const uint64_t *keep, uint64_t *out)
{
	if (!p->def) {
		*out = *keep;
		return 0;
	}
	switch (p->type) {
	case RL_PARAM_SIZE:
		return rl_parse_size(p->def, out, NULL, 0);
	case RL_PARAM_TIME:
		return rl_parse_time(p->def, out, NULL, 0);
	case RL_PARAM_RATE:
		return rl_parse_rate(p->def, out, NULL, 0);
	default:
		return rl_parse_u64(p->def, out, NULL, 0);
	}
}

static int param_def_double(const struct rl_param *p, const double *keep, double *out)
{
	char *end;

	if (!p->def) {
		*out = *keep;
		return 0;
	}
	*out = strtod(p->def, &end);
	return end != p->def && (!*end || !strcmp(end, "%")) ? 0 : -EINVAL;
}

static int param_def_enum(const struct rl_param *p, const int *keep, int *out)
{
	if (!p->def) {
		*out = *keep;
		return 0;
	}
	for (int i = 0; p->choices && p->choices[i]; i++) {
		if (!strcmp(p->choices[i], p->def)) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int param_bad_default(const struct rl_spec_node *node, const struct rl_param *p,
                             struct rl_err *err)
{
	return rl_err_set(err, node->pos, "internal error: %s: the default '%s' of %s is invalid",
	                  node->name, p->def, p->name);
}

int rl_param_u64(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                 uint64_t *out, struct rl_err *err)
{
	const struct rl_param *p = param_entry(node, tab, name, RL_PARAM_U64, err);
	uint64_t def;

	if (!p)
		return -EINVAL;
	if (param_def_u64(p, out, &def))
		return param_bad_default(node, p, err);
	switch (p->type) {
	case RL_PARAM_SIZE:
		return rl_spec_get_size(node, name, def, out, err);
	case RL_PARAM_TIME:
		return rl_spec_get_time(node, name, def, out, err);
	case RL_PARAM_RATE:
		return rl_spec_get_rate(node, name, def, out, err);
	default:
		return rl_spec_get_u64(node, name, def, p->min, param_max(p), out, err);
	}
}

int rl_param_double(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                    double *out, struct rl_err *err)
{
	const struct rl_param *p = param_entry(node, tab, name, RL_PARAM_PERCENT, err);
	double def;

	if (!p)
		return -EINVAL;
	if (param_def_double(p, out, &def))
		return param_bad_default(node, p, err);
	return rl_spec_get_percent(node, name, def, p->fmin, p->fmax, out, err);
}

int rl_param_bool(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                  bool *out, struct rl_err *err)
{
	const struct rl_param *p = param_entry(node, tab, name, RL_PARAM_BOOL, err);
	bool def = false;

	if (!p)
		return -EINVAL;
	if (!p->def)
		def = *out;
	else if (rl_parse_bool(p->def, &def, NULL, 0))
		return param_bad_default(node, p, err);
	return rl_spec_get_bool(node, name, def, out, err);
}

int rl_param_enum(struct rl_spec_node *node, const struct rl_param *tab, const char *name, int *out,
                  struct rl_err *err)
{
	const struct rl_param *p = param_entry(node, tab, name, RL_PARAM_ENUM, err);
	int def;

	if (!p)
		return -EINVAL;
	if (param_def_enum(p, out, &def))
		return param_bad_default(node, p, err);
	return rl_spec_get_enum(node, name, p->choices, def, out, err);
}

int rl_param_str(struct rl_spec_node *node, const struct rl_param *tab, const char *name,
                 const char **out, struct rl_err *err)
{
	const struct rl_param *p = param_entry(node, tab, name, RL_PARAM_STR, err);

	if (!p)
		return -EINVAL;
	return rl_spec_get_str(node, name, p->def ? p->def : *out, out, err);
}

int rl_params_check(const struct rl_spec_node *node, const struct rl_param *tab, struct rl_err *err)
{
	const char *known[PARAMS_MAX + 1];
	size_t n = 0;

	for (; tab && tab->name && n < PARAMS_MAX; tab++)
		known[n++] = tab->name;
	known[n] = NULL;
	return rl_spec_check_unused(node, known, err);
}

/* Does the default of @p parse as its type and lie in range? */
static bool param_default_ok(const struct rl_param *p)
{
	uint64_t u, zero = 0;
	double d, dzero = 0;
	bool b;
	int e, izero = 0;

	if (!p->def)
		return true;
	switch (p->type) {
	case RL_PARAM_U64:
		return !param_def_u64(p, &zero, &u) && u >= p->min && u <= param_max(p);
	case RL_PARAM_SIZE:
	case RL_PARAM_TIME:
	case RL_PARAM_RATE:
		return !param_def_u64(p, &zero, &u);
	case RL_PARAM_PERCENT:
		return !param_def_double(p, &dzero, &d) && d >= p->fmin && d <= p->fmax;
	case RL_PARAM_BOOL:
		return !rl_parse_bool(p->def, &b, NULL, 0);
	case RL_PARAM_ENUM:
		return !param_def_enum(p, &izero, &e);
	case RL_PARAM_STR:
		return true;
	}
	return false;
}

int rl_params_validate(const struct rl_param *tab, char *msg, size_t msglen)
{
	size_t n = 0;

	for (const struct rl_param *p = tab; p && p->name; p++, n++) {
		const char *why = NULL;
		if (!p->name[0] || rl_param_find(tab, p->name) != p)
			why = "is named twice (or has no name)";
		else if (p->type == RL_PARAM_ENUM && (!p->choices || !p->choices[0]))
			why = "is an enum without choices";
		else if (!param_default_ok(p))
			why = "has a default that its type does not accept";
		else if (!p->help || !p->help[0])
			why = "has no help";
		else if (p->type == RL_PARAM_PERCENT && p->fmin > p->fmax)
			why = "has an empty range";
		if (why) {
			snprintf(msg, msglen, "parameter '%s' %s", p->name, why);
			return -EINVAL;
		}
	}
	if (n > PARAMS_MAX) {
		snprintf(msg, msglen, "more than %d parameters", PARAMS_MAX);
		return -EINVAL;
	}
	return 0;
}

/* --- rendering --- */

/* How a value is written: the entry's form, the choices, or the type's word. */
static void param_form(FILE *f, const struct rl_param *p, bool markdown)
{
	static const char *const words[] = {
	    [RL_PARAM_SIZE] = "SIZE", [RL_PARAM_U64] = "N",       [RL_PARAM_TIME] = "TIME",
	    [RL_PARAM_RATE] = "RATE", [RL_PARAM_PERCENT] = "PCT", [RL_PARAM_BOOL] = "on|off",
	    [RL_PARAM_ENUM] = NULL,   [RL_PARAM_STR] = "NAME",
	};
	const char *bar = markdown ? "\\|" : "|";

	if (p->form || p->type != RL_PARAM_ENUM) {
		for (const char *s = p->form ? p->form : words[p->type]; *s; s++)
			fputs(*s == '|' ? bar : (char[]){*s, 0}, f);
		return;
	}
	for (int i = 0; p->choices[i]; i++)
		fprintf(f, "%s%s", i ? bar : "", p->choices[i]);
}

void rl_params_print_line(FILE *f, const struct rl_param *tab)
{
	for (const struct rl_param *p = tab; p && p->name; p++) {
		fprintf(f, "%s%s=", p == tab ? "" : ", ", p->name);
		param_form(f, p, false);
		if (p->def || p->def_note)
			fprintf(f, " (default%s%s)", p->def ? " " : ": ",
			        p->def ? p->def : p->def_note);
	}
}

/* @text in lines of at most @width characters after @indent spaces. */
static void params_wrap(FILE *f, const char *text, int indent, int width)
{
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");
		if (col && col + 1 + len > width) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%*s%.*s", col ? 1 : indent, "", len, text);
		col += (col ? 1 : 0) + len;
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void rl_params_print_help(FILE *f, const struct rl_param *tab)
{
	for (const struct rl_param *p = tab; p && p->name; p++) {
		fprintf(f, "  %s=", p->name);
		param_form(f, p, false);
		if (p->def)
			fprintf(f, "  default %s%s%s%s", p->def, p->source ? " (" : "",
			        p->source ? p->source : "", p->source ? ")" : "");
		else if (p->def_note)
			fprintf(f, "  default: %s", p->def_note);
		fputc('\n', f);
		params_wrap(f, p->help, 6, 72);
	}
}

/* @s with '|' escaped, for a markdown table cell. */
static void params_md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void rl_params_print_markdown(FILE *f, const struct rl_param *tab)
{
	fprintf(f, "| parameter | default | meaning |\n|---|---|---|\n");
	for (const struct rl_param *p = tab; p && p->name; p++) {
		fprintf(f, "| `%s=", p->name);
		param_form(f, p, true);
		fputs("` | ", f);
		if (p->def) {
			fprintf(f, "`%s`", p->def);
			if (p->source)
				fprintf(f, " (%s)", p->source);
		} else {
			params_md_text(f, p->def_note ? p->def_note : "none");
		}
		fputs(" | ", f);
		params_md_text(f, p->help);
		fputs(" |\n", f);
	}
}
