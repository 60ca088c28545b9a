/*
 * http.h - the small HTTP/1.1 request parser of `raidlab ui`.
 *
 * The server reads a request's head (request line and headers) into one
 * buffer and hands it here; nothing is allocated and every field points into
 * that buffer, so a request is parsed, checked and answered without a copy.
 * The parser takes only what a browser on the same machine sends: a method
 * of letters, an origin-form target ("/path?query"), HTTP/1.0 or 1.1,
 * header lines "Name: value" with no folding, no NUL or control bytes, at
 * most UI_HTTP_MAX_HEAD bytes and UI_HTTP_MAX_HEADERS lines.  Anything else
 * is malformed (the server answers 400) or too large (431).
 */
#ifndef RL_UI_HTTP_H
#define RL_UI_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UI_HTTP_MAX_HEAD    8192
#define UI_HTTP_MAX_HEADERS 64
#define UI_HTTP_MAX_BODY    16384

/* A slice of the request buffer (not NUL-terminated). */
struct ui_str {
	const char *p;
	size_t n;
};

struct ui_req {
	struct ui_str method, path, query; /* query: after '?', may be empty */
	struct ui_str host, origin, fetch_site, content_type;
	uint64_t content_length;
	bool has_length, chunked;
	size_t head_len; /* bytes of the head, the blank line included */
};

/*
 * Parse the head at the start of @buf (@len bytes read so far) into @r.
 * 0: complete (r->head_len says where the body starts); -EAGAIN: the blank
 * line has not come yet and more may; -E2BIG: the head is longer than
 * UI_HTTP_MAX_HEAD or has too many lines; -EINVAL: malformed.
 */
int ui_http_parse(const char *buf, size_t len, struct ui_req *r);

/* @s equals the C string @lit (case-sensitively when @exact, else ASCII case-insensitively). */
bool ui_str_eq(struct ui_str s, const char *lit, bool exact);

/*
 * The value of @key in the form-encoded @form ("a=1&b=x%20y"), decoded
 * ('+' is a space, %XX a byte) into @out (@outlen bytes, NUL-terminated).
 * 1 when found, 0 when absent, -EINVAL for a bad escape, a NUL or control
 * byte in the value, or a value that does not fit.
 */
int ui_form_get(struct ui_str form, const char *key, char *out, size_t outlen);

/* Send all @n bytes of @p on socket @fd (EINTR retried, no SIGPIPE): 0, or -EPIPE. */
int ui_send_all(int fd, const char *p, size_t n);

#endif
