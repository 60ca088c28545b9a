/*
 * guard.c - the token, Host and Origin checks of guard.h.
 *
 * The token is compared in constant time (every byte, whatever differs
 * first).  Host must be exactly 127.0.0.1:PORT, [::1]:PORT or
 * localhost:PORT; the Origin of a state-changing request must be the same
 * with "http://" before it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "ui/guard.h"

int ui_token_new(char out[UI_TOKEN_LEN + 1])
{
	unsigned char raw[UI_TOKEN_LEN / 2];
	size_t got = 0;

	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

static bool guard_token_ok(const struct ui_req *r, const char *token)
{
	char got[UI_TOKEN_LEN + 2];
	unsigned char diff = 0;

	if (ui_form_get(r->query, "token", got, sizeof(got)) != 1 || strlen(got) != UI_TOKEN_LEN)
		return false;
	for (size_t i = 0; i < UI_TOKEN_LEN; i++)
		diff |= (unsigned char)(got[i] ^ token[i]);
	return !diff;
}

/* @s is one of this server's names followed by ":port" (after @prefix). */
static bool guard_host_ok(struct ui_str s, const char *prefix, unsigned port)
{
	static const char *const names[] = {"127.0.0.1", "[::1]", "localhost"};
	char want[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(want, sizeof(want), "%s%s:%u", prefix, names[i], port);
		if (ui_str_eq(s, want, i < 2))
			return true;
	}
	return false;
}

int ui_guard_check(const struct ui_req *r, const char *token, unsigned port, const char **why)
{
	if (!r->host.p || !guard_host_ok(r->host, "", port)) {
		*why = "the Host header does not name this server's loopback address and port";
		return 403;
	}
	if (!guard_token_ok(r, token)) {
		*why = "missing or wrong token";
		return 403;
	}
	bool safe = ui_str_eq(r->method, "GET", true) || ui_str_eq(r->method, "HEAD", true);
	if (!safe && r->origin.p && !guard_host_ok(r->origin, "http://", port)) {
		*why = "a request from another site";
		return 403;
	}
	if (!safe && r->fetch_site.p && !ui_str_eq(r->fetch_site, "same-origin", false) &&
	    !ui_str_eq(r->fetch_site, "none", false)) {
		*why = "a request from another site";
		return 403;
	}
	return 0;
}
