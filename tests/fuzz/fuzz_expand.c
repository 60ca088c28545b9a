/*
 * fuzz_expand.c - libFuzzer target for spec alternatives (sweep/expand.h).
 *
 * Each input is NUL-terminated and expanded.  An error must be well formed
 * (a non-empty message; with a position, one inside the text and the
 * "position N: " prefix).  A success must hold the invariants: at least
 * one and at most SW_EXPAND_MAX expansions; a text without '{' gives
 * itself; every value names an axis that exists; and no expansion keeps a
 * brace that stood outside quotes (each was a group).  Any broken
 * invariant calls abort() so libFuzzer records the input.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/expand.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Does @s hold a brace outside a quoted word? */
static bool fuzz_bare_brace(const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '"') {
			for (i++; s[i] && s[i] != '"'; i++)
				if (s[i] == '\\' && s[i + 1])
					i++;
			if (!s[i])
				return false;
		} else if (s[i] == '{' || s[i] == '}') {
			return true;
		}
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_expansion x;
	struct rl_err err = {0};
	char *text, prefix[48];
	size_t len;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text);
	if (sw_expand(text, &x, &err)) {
		if (!err.msg[0] || x.n)
			abort();
		if (err.pos != SIZE_MAX) {
			if (err.pos > len)
				abort();
			snprintf(prefix, sizeof prefix, "position %zu: ", err.pos);
			if (strncmp(err.msg, prefix, strlen(prefix)))
				abort();
		}
	} else {
		if (!x.n || x.n > SW_EXPAND_MAX)
			abort();
		if (!strchr(text, '{') && (x.n != 1 || strcmp(x.items[0].text, text)))
			abort();
		for (size_t i = 0; i < x.n; i++) {
			if (fuzz_bare_brace(x.items[i].text))
				abort();
			for (size_t a = 0; a < x.naxes; a++)
				if (!x.axes[a] || !x.axes[a][0])
					abort();
		}
	}
	sw_expansion_free(&x);
	free(text);
	return 0;
}
