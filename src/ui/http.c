/*
 * http.c - parse a request head and form-encoded fields (http.h).
 *
 * One pass over the bytes: the request line, then header lines until the
 * empty one.  Only the headers the server checks are kept (Host, Origin,
 * Sec-Fetch-Site, Content-Type, Content-Length, Transfer-Encoding); a
 * repeated Host or Content-Length is malformed, as is a chunked body (the
 * page never sends one).  Lines end with CRLF; a bare LF is accepted as
 * RFC 9112 allows, a bare CR is not.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "ui/http.h"

bool ui_str_eq(struct ui_str s, const char *lit, bool exact)
{
	size_t n = strlen(lit);

	if (s.n != n)
		return false;
	if (exact)
		return !memcmp(s.p, lit, n);
	for (size_t i = 0; i < n; i++) {
		char a = s.p[i], b = lit[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return true;
}

/* RFC 9110 tchar: the bytes a header name may hold. */
static bool http_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The end of the line starting at @i (index of its LF), or -1 when none within @len. */
static long http_line_end(const char *buf, size_t len, size_t i)
{
	const char *lf = memchr(buf + i, '\n', len - i);

	return lf ? lf - buf : -1;
}

static int http_request_line(const char *l, size_t n, struct ui_req *r)
{
	const char *sp1 = memchr(l, ' ', n), *sp2;

	if (!sp1 || sp1 == l)
		return -EINVAL;
	for (const char *c = l; c < sp1; c++)
		if (*c < 'A' || *c > 'Z')
			return -EINVAL;
	r->method = (struct ui_str){l, (size_t)(sp1 - l)};
	sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - l));
	if (!sp2 || sp2 == sp1 + 1 || sp1[1] != '/')
		return -EINVAL;
	struct ui_str target = {sp1 + 1, (size_t)(sp2 - sp1 - 1)};
	for (size_t i = 0; i < target.n; i++) {
		unsigned char c = (unsigned char)target.p[i];
		if (c <= ' ' || c >= 0x7f || c == '#')
			return -EINVAL;
	}
	const char *q = memchr(target.p, '?', target.n);
	r->path = (struct ui_str){target.p, q ? (size_t)(q - target.p) : target.n};
	r->query = q ? (struct ui_str){q + 1, target.n - r->path.n - 1} : (struct ui_str){q, 0};
	struct ui_str ver = {sp2 + 1, n - (size_t)(sp2 + 1 - l)};
	if (!ui_str_eq(ver, "HTTP/1.1", true) && !ui_str_eq(ver, "HTTP/1.0", true))
		return -EINVAL;
	return 0;
}

static int http_u64(struct ui_str v, uint64_t *out)
{
	uint64_t x = 0;

	if (!v.n || v.n > 15)
		return -EINVAL;
	for (size_t i = 0; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return -EINVAL;
		x = x * 10 + (uint64_t)(v.p[i] - '0');
	}
	*out = x;
	return 0;
}

/* One header line "Name: value" (no CR/LF in @l). */
static int http_header(const char *l, size_t n, struct ui_req *r)
{
	const char *colon = memchr(l, ':', n);

	if (!colon || colon == l)
		return -EINVAL;
	for (const char *c = l; c < colon; c++)
		if (!http_tchar((unsigned char)*c))
			return -EINVAL;
	struct ui_str name = {l, (size_t)(colon - l)};
	const char *v = colon + 1, *e = l + n;
	for (const char *c = v; c < e; c++) {
		unsigned char u = (unsigned char)*c;
		if ((u < ' ' && u != '\t') || u == 0x7f)
			return -EINVAL;
	}
	while (v < e && (*v == ' ' || *v == '\t'))
		v++;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	struct ui_str val = {v, (size_t)(e - v)};
	if (ui_str_eq(name, "host", false)) {
		if (r->host.p)
			return -EINVAL;
		r->host = val;
	} else if (ui_str_eq(name, "origin", false)) {
		if (r->origin.p)
			return -EINVAL;
		r->origin = val;
	} else if (ui_str_eq(name, "sec-fetch-site", false)) {
		r->fetch_site = val;
	} else if (ui_str_eq(name, "content-type", false)) {
		r->content_type = val;
	} else if (ui_str_eq(name, "content-length", false)) {
		if (r->has_length || http_u64(val, &r->content_length))
			return -EINVAL;
		r->has_length = true;
	} else if (ui_str_eq(name, "transfer-encoding", false)) {
		r->chunked = true;
	}
	return 0;
}

int ui_http_parse(const char *buf, size_t len, struct ui_req *r)
{
	size_t i = 0, lines = 0;
	size_t scan = len < UI_HTTP_MAX_HEAD ? len : UI_HTTP_MAX_HEAD;

	memset(r, 0, sizeof(*r));
	for (;;) {
		long lf = http_line_end(buf, scan, i);
		if (lf < 0)
			return len >= UI_HTTP_MAX_HEAD ? -E2BIG : -EAGAIN;
		size_t n = (size_t)lf - i;
		if (n && buf[i + n - 1] == '\r')
			n--;
		if (memchr(buf + i, '\r', n) || memchr(buf + i, '\0', n))
			return -EINVAL;
		if (++lines > UI_HTTP_MAX_HEADERS + 1)
			return -E2BIG;
		int rc;
		if (lines == 1)
			rc = http_request_line(buf + i, n, r);
		else if (!n) {
			r->head_len = (size_t)lf + 1;
			break;
		} else if (buf[i] == ' ' || buf[i] == '\t')
			rc = -EINVAL; /* obsolete line folding */
		else
			rc = http_header(buf + i, n, r);
		if (rc)
			return rc;
		i = (size_t)lf + 1;
	}
	return r->chunked ? -EINVAL : 0;
}

static int http_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ui_form_get(struct ui_str form, const char *key, char *out, size_t outlen)
{
	size_t klen = strlen(key), i = 0;

	while (i <= form.n && form.p) {
		const char *amp = memchr(form.p + i, '&', form.n - i);
		size_t end = amp ? (size_t)(amp - form.p) : form.n;
		const char *f = form.p + i;
		size_t fn = end - i;
		if (fn > klen && !memcmp(f, key, klen) && f[klen] == '=') {
			size_t o = 0;
			for (size_t k = klen + 1; k < fn; k++) {
				int c = (unsigned char)f[k];
				if (c == '+') {
					c = ' ';
				} else if (c == '%') {
					int h = k + 2 < fn ? http_hex(f[k + 1]) : -1;
					int l = k + 2 < fn ? http_hex(f[k + 2]) : -1;
					if (h < 0 || l < 0)
						return -EINVAL;
					c = h * 16 + l;
					k += 2;
				}
				if (c < ' ' || c == 0x7f || o + 1 >= outlen)
					return -EINVAL;
				out[o++] = (char)c;
			}
			if (!outlen)
				return -EINVAL;
			out[o] = '\0';
			return 1;
		}
		if (fn == klen && !memcmp(f, key, klen)) { /* "key" alone: empty */
			if (!outlen)
				return -EINVAL;
			out[0] = '\0';
			return 1;
		}
		i = end + 1;
	}
	return 0;
}

int ui_send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -EPIPE;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
