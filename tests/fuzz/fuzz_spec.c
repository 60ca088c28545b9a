/*
 * fuzz_spec.c - libFuzzer target for the spec parser and the unit parsers.
 *
 * Each input is NUL-terminated and parsed.  Errors must be well formed (a
 * position inside the text, a "position N: " prefix, a non-empty message).
 * A successful parse must survive a round trip: the canonical text from
 * rl_spec_format re-parses, the two trees are equal (compared here by an
 * independent walk, not by spec.c's own helper), and formatting the second
 * tree gives the same text again.  The parameter helpers and
 * rl_spec_check_unused run over every key of every node, and every call
 * named like a target type is read through that type's parameter table
 * (core/params.h): each getter either succeeds or gives a well-formed
 * message, never an internal error.  The raw text also
 * goes to every rl_parse_* function, with a roomy and a tiny message buffer.
 * Any broken invariant calls abort() so libFuzzer records the input.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_tree_equal(const struct rl_spec_node *a, const struct rl_spec_node *b)
{
	size_t i;

	if (a->is_call != b->is_call || strcmp(a->name, b->name) != 0 || a->nargs != b->nargs ||
	    a->nkv != b->nkv)
		return false;
	for (i = 0; i < a->nkv; i++) {
		if (strcmp(a->kv[i].key, b->kv[i].key) != 0 ||
		    strcmp(a->kv[i].value, b->kv[i].value) != 0)
			return false;
	}
	for (i = 0; i < a->nargs; i++) {
		if (!fuzz_tree_equal(a->args[i], b->args[i]))
			return false;
	}
	return true;
}

static void fuzz_check_err(const struct rl_err *err, size_t len)
{
	char prefix[48];

	if (err->msg[0] == '\0' || strlen(err->msg) >= sizeof err->msg)
		abort();
	if (err->pos == SIZE_MAX)
		return;
	if (err->pos > len)
		abort();
	snprintf(prefix, sizeof prefix, "position %zu: ", err->pos);
	if (strncmp(err->msg, prefix, strlen(prefix)) != 0)
		abort();
}

/* Every helper on every key of @node, then the unused check; recursive. */
static void fuzz_helpers(struct rl_spec_node *node, size_t len)
{
	static const char *const choices[] = {"back", "through", "n2", NULL};
	struct rl_err err;
	uint64_t u;
	double d;
	bool b;
	int e;
	const char *s;
	size_t i;

	for (i = 0; i < node->nkv; i++) {
		const char *key = node->kv[i].key;

		if (rl_spec_get_size(node, key, 0, &u, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_u64(node, key, 0, 1, 1024, &u, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_double(node, key, 0, -1e9, 1e9, &d, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_percent(node, key, 0, 0, 100, &d, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_time(node, key, 0, &u, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_rate(node, key, 0, &u, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_bool(node, key, false, &b, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_enum(node, key, choices, 0, &e, &err))
			fuzz_check_err(&err, len);
		if (rl_spec_get_str(node, key, NULL, &s, &err) || s != node->kv[i].value)
			abort();
	}
	if (rl_spec_check_unused(node, choices, &err) != 0)
		abort(); /* every key was read above */
	for (i = 0; i < node->nargs; i++)
		fuzz_helpers(node->args[i], len);
}

/* One table entry through its getter; the error, if any, must be the input's fault. */
static void fuzz_param(struct rl_spec_node *node, const struct rl_param *tab,
                       const struct rl_param *p, size_t len)
{
	struct rl_err err;
	uint64_t u = 0;
	double d = 0;
	bool b = false;
	int e = 0, rc;
	const char *s = "";

	switch (p->type) {
	case RL_PARAM_PERCENT:
		rc = rl_param_double(node, tab, p->name, &d, &err);
		break;
	case RL_PARAM_BOOL:
		rc = rl_param_bool(node, tab, p->name, &b, &err);
		break;
	case RL_PARAM_ENUM:
		rc = rl_param_enum(node, tab, p->name, &e, &err);
		break;
	case RL_PARAM_STR:
		rc = rl_param_str(node, tab, p->name, &s, &err);
		break;
	default:
		rc = rl_param_u64(node, tab, p->name, &u, &err);
		break;
	}
	if (rc) {
		fuzz_check_err(&err, len);
		if (strstr(err.msg, "internal error"))
			abort();
	}
}

/* Calls named like a target type: every key through the type's table; recursive. */
static void fuzz_tables(struct rl_spec_node *node, size_t len)
{
	const struct rl_target_type *t = node->is_call ? rl_target_type_find(node->name) : NULL;
	struct rl_err err;

	if (t && t->params) {
		for (size_t i = 0; i < node->nkv; i++)
			node->kv[i].used = false;
		for (const struct rl_param *p = t->params; p->name; p++)
			fuzz_param(node, t->params, p, len);
		if (rl_params_check(node, t->params, &err)) {
			fuzz_check_err(&err, len);
			if (!strstr(err.msg, "has no parameter"))
				abort();
		}
	}
	for (size_t i = 0; i < node->nargs; i++)
		fuzz_tables(node->args[i], len);
}

static void fuzz_units(const char *text)
{
	char msg[600], tiny[3];
	uint64_t u;
	bool b;

	rl_parse_size(text, &u, msg, sizeof msg);
	rl_parse_size(text, &u, tiny, sizeof tiny);
	rl_parse_time(text, &u, msg, sizeof msg);
	rl_parse_time(text, &u, tiny, sizeof tiny);
	rl_parse_rate(text, &u, msg, sizeof msg);
	rl_parse_rate(text, &u, NULL, 0);
	rl_parse_u64(text, &u, msg, sizeof msg);
	rl_parse_u64(text, &u, tiny, sizeof tiny);
	rl_parse_bool(text, &b, msg, sizeof msg);
	rl_parse_bool(text, &b, tiny, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rl_spec_node *a = NULL, *b = NULL;
	struct rl_err err;
	char *text, *fa, *fb;
	size_t len;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text); /* the parser sees up to the first NUL */

	fuzz_units(text);

	if (rl_spec_parse(text, &a, &err) != 0) {
		if (a)
			abort();
		fuzz_check_err(&err, len);
		free(text);
		return 0;
	}
	fa = rl_spec_format(a);
	if (!fa)
		abort();
	if (rl_spec_parse(fa, &b, &err) != 0) {
		fprintf(stderr, "re-parse of '%s' failed: %s\n", fa, err.msg);
		abort();
	}
	if (!fuzz_tree_equal(a, b)) {
		fprintf(stderr, "round trip changed the tree: '%s'\n", fa);
		abort();
	}
	fb = rl_spec_format(b);
	if (!fb || strcmp(fa, fb) != 0)
		abort();
	fuzz_helpers(a, len);
	fuzz_tables(b,
	            strlen(fa)); /* b's positions are in fa, which may be longer than the input */

	free(fa);
	free(fb);
	rl_spec_free(a);
	rl_spec_free(b);
	free(text);
	return 0;
}
