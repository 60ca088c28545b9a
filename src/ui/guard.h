/*
 * guard.h - who may talk to `raidlab ui`: the token, Host and Origin checks.
 *
 * The server listens on loopback only, but any web page the user opens can
 * make the browser send requests to 127.0.0.1, and a DNS name rebound to
 * 127.0.0.1 makes them same-origin.  So every request must carry the token
 * made at start (in the query: token=...), name the server by its loopback
 * address and port in Host (never a DNS name but "localhost"), and a request
 * that changes something (any method but GET/HEAD) must come from the
 * page itself: an Origin header, when sent, names the same host and port,
 * and Sec-Fetch-Site, when sent, is same-origin or none.
 */
#ifndef RL_UI_GUARD_H
#define RL_UI_GUARD_H

#include <stddef.h>

#include "ui/http.h"

#define UI_TOKEN_LEN 32 /* hex digits */

/* A fresh token (UI_TOKEN_LEN hex digits and a NUL) from getrandom(2); 0 or -errno. */
int ui_token_new(char out[UI_TOKEN_LEN + 1]);

/*
 * The HTTP status a request gets from the checks: 0 when it passes, 403
 * for a Host that is not this server's loopback address and @port, a
 * missing or wrong token, or a foreign Origin.  *@why says which check.
 */
int ui_guard_check(const struct ui_req *r, const char *token, unsigned port, const char **why);

#endif
