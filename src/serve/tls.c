/*
 * tls.c - the GnuTLS side of `raidlab serve` (see tls.h).
 *
 * Sessions run on the server's non-blocking sockets.  The handshake is the
 * one blocking step: it waits for the socket with poll() (at most 10 s),
 * which stalls the server loop for one round trip per client at STARTTLS;
 * every later read and write is non-blocking and maps GnuTLS's
 * GNUTLS_E_AGAIN to -EAGAIN, so the poll loop treats a TLS client like a
 * plain one.  A send that GnuTLS could not finish is retried by the
 * caller with the same data, as GnuTLS requires: the output queue only
 * advances by what was taken.
 */
#include <errno.h>
#include <gnutls/gnutls.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "serve/tls.h"

struct serve_tls_ctx {
	gnutls_certificate_credentials_t cred;
};

struct serve_tls {
	gnutls_session_t s;
};

int serve_tls_ctx_new(const char *cert, const char *key, struct serve_tls_ctx **out, char *msg,
                      size_t msglen)
{
	struct serve_tls_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	if (!key) {
		snprintf(msg, msglen, "--tls-cert needs --tls-key");
		free(c);
		return -EINVAL;
	}
	rc = gnutls_certificate_allocate_credentials(&c->cred);
	if (rc >= 0)
		rc = gnutls_certificate_set_x509_key_file(c->cred, cert, key, GNUTLS_X509_FMT_PEM);
	if (rc < 0) {
		snprintf(msg, msglen, "--tls-cert %s / --tls-key %s: %s", cert, key,
		         gnutls_strerror(rc));
		if (c->cred)
			gnutls_certificate_free_credentials(c->cred);
		free(c);
		return -EINVAL;
	}
	*out = c;
	return 0;
}

void serve_tls_ctx_free(struct serve_tls_ctx *c)
{
	if (!c)
		return;
	gnutls_certificate_free_credentials(c->cred);
	free(c);
}

int serve_tls_accept(struct serve_tls_ctx *ctx, int fd, struct serve_tls **out, char *msg,
                     size_t msglen)
{
	struct serve_tls *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return -ENOMEM;
	rc = gnutls_init(&t->s, GNUTLS_SERVER | GNUTLS_NONBLOCK);
	if (rc >= 0)
		rc = gnutls_set_default_priority(t->s);
	if (rc >= 0)
		rc = gnutls_credentials_set(t->s, GNUTLS_CRD_CERTIFICATE, ctx->cred);
	if (rc < 0)
		goto fail;
	gnutls_certificate_server_set_request(t->s, GNUTLS_CERT_IGNORE);
	gnutls_transport_set_int(t->s, fd);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = gnutls_handshake(t->s);
		if (rc >= 0)
			break;
		if (rc != GNUTLS_E_AGAIN && rc != GNUTLS_E_INTERRUPTED)
			goto fail;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 10) {
			snprintf(msg, msglen, "handshake timed out");
			gnutls_deinit(t->s);
			free(t);
			return -ETIMEDOUT;
		}
		struct pollfd p = {.fd = fd,
		                   .events = gnutls_record_get_direction(t->s) ? POLLOUT : POLLIN};
		poll(&p, 1, 1000);
	}
	*out = t;
	return 0;
fail:
	snprintf(msg, msglen, "%s", gnutls_strerror(rc));
	if (t->s)
		gnutls_deinit(t->s);
	free(t);
	return -EPROTO;
}

ssize_t serve_tls_recv(struct serve_tls *t, void *buf, size_t len)
{
	ssize_t n = gnutls_record_recv(t->s, buf, len);

	if (n >= 0)
		return n;
	if (n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED)
		return -EAGAIN;
	if (n == GNUTLS_E_PREMATURE_TERMINATION)
		return 0;
	return -EIO;
}

int serve_tls_pending(struct serve_tls *t)
{
	return gnutls_record_check_pending(t->s) > 0;
}

ssize_t serve_tls_send(struct serve_tls *t, const struct iovec *iov, int n)
{
	size_t total = 0;

	for (int i = 0; i < n; i++) {
		ssize_t r = gnutls_record_send(t->s, iov[i].iov_base, iov[i].iov_len);
		if (r < 0) {
			if (total)
				return (ssize_t)total;
			return r == GNUTLS_E_AGAIN || r == GNUTLS_E_INTERRUPTED ? -EAGAIN : -EIO;
		}
		total += (size_t)r;
		if ((size_t)r < iov[i].iov_len)
			break;
	}
	return (ssize_t)total;
}

void serve_tls_free(struct serve_tls *t)
{
	if (!t)
		return;
	gnutls_bye(t->s, GNUTLS_SHUT_WR);
	gnutls_deinit(t->s);
	free(t);
}
