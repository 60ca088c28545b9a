/*
 * tls.h - TLS for `raidlab serve` through GnuTLS (tls.c).
 *
 * The NBD way: the connection starts in plain text and the client asks
 * for NBD_OPT_STARTTLS during negotiation; after the server's ACK both
 * sides run a TLS handshake on the same socket and everything after it,
 * the rest of negotiation included, is encrypted.  The server side needs
 * an X.509 certificate and its key (PEM files).
 */
#ifndef RL_SERVE_TLS_H
#define RL_SERVE_TLS_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

struct serve_tls_ctx; /* credentials, shared by every connection */
struct serve_tls;     /* one connection's session */

/** Load the certificate and key.  0, or a negative errno with @msg set. */
int serve_tls_ctx_new(const char *cert, const char *key, struct serve_tls_ctx **out, char *msg,
                      size_t msglen);
void serve_tls_ctx_free(struct serve_tls_ctx *ctx);

/**
 * Run the server side of the handshake on @fd (non-blocking; waits up to
 * 10 s).  0 and *out set, or a negative errno with @msg set.
 */
int serve_tls_accept(struct serve_tls_ctx *ctx, int fd, struct serve_tls **out, char *msg,
                     size_t msglen);

/** Decrypted bytes into @buf: count, 0 at end of stream, -EAGAIN, or another -errno. */
ssize_t serve_tls_recv(struct serve_tls *s, void *buf, size_t len);

/** True when decrypted bytes are waiting inside the session (the socket may be empty). */
int serve_tls_pending(struct serve_tls *s);

/** Encrypt and send: bytes taken (a prefix of @iov), -EAGAIN, or another -errno. */
ssize_t serve_tls_send(struct serve_tls *s, const struct iovec *iov, int n);

/** Say goodbye (best effort) and free the session; NULL is accepted. */
void serve_tls_free(struct serve_tls *s);

#endif
