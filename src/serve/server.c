/*
 * server.c - sockets, the poll loop and graceful stop of `raidlab serve`.
 *
 * One thread, one executor.  Every socket the server watches (listeners,
 * clients, the signalfd, the control socket) is polled by a one-shot
 * IORING_OP_POLL_ADD on the executor's ring, taken with rl_exec_get_sqe()
 * like any file I/O, so the loop's single blocking point is the
 * executor's wait: a socket becoming ready, a target completion and a
 * timer (status line, simulated completions) all wake the same
 * rl_exec_run_once().  After each turn the loop services the clients that
 * have work: it reads what their engine (conn.c) has room for, and sends
 * their queued replies with sendmsg() straight from the request buffers.
 * Sockets are non-blocking; a poll is armed only when a send would block,
 * or when a client has sent nothing for a while (below).
 *
 * A client whose input has drained is watched before its poll is armed:
 * for SRV_WATCH_NS after its last input the loop does not block and
 * retries the read on every turn (srv_watch).  The point is what the
 * client's send costs.  A socket with a poll armed on it makes every send
 * into it take the socket's wait-queue lock and run the poll's wake-up
 * (task work for this thread, and a scheduler wake-up with an
 * inter-processor interrupt when the thread sleeps), and every reply the
 * client consumes runs the same lock through the socket's write-space
 * callback, all on the client's CPU time.  With fio's nbd engine (one
 * thread, libnbd) at 4K QD32 the client is the bottleneck, so that cost
 * sets the rate: a server that slept after every batch was woken by
 * 0.35-0.8 of the client's sends per request, and one that watched its
 * ring with the polls armed still left the lock and the wake-up callback
 * in 4-5 % of the client's CPU.  With no poll armed the send only queues
 * the data.  The watch is per client and adaptive: a watch that sees
 * nothing arms the poll and stays off until a poll fires within
 * SRV_WATCH_NS of being armed, so an idle server, or one whose clients
 * pause longer than that between requests, does not spin.  The other
 * polls (listeners, the signalfd, clients not watched) still complete
 * during a watch: the ring defers a fired poll's work to the thread's
 * next return from a system call (COOP_TASKRUN), and each retried read is
 * one.
 *
 * A connection is closed by cancelling its armed polls and freeing it once
 * their completions are in, so no completion ever points at freed memory.
 *
 * Stop (SIGINT/SIGTERM, read through a signalfd): listeners are closed,
 * connections stop reading, their in-flight requests complete and are
 * answered, then every export's stack gets a FLUSH and the loop ends.  A
 * paced executor stops pacing first (rl_exec_unpace), so a simulated stack
 * finishes that work as fast as the machine runs the model; SIGUSR1 stops
 * the pacing alone, for a client that is tearing its side down (a file
 * suite's unmount after Ctrl-C) and wants its writes answered now.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <liburing.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "serve/live.h"
#include "serve/pace.h"
#include "serve/serve.h"
#include "serve/tls.h"

#define SRV_MAX_LISTEN 8
#define SRV_IOV        64
/* How long a client's socket is watched after its last input before its
 * poll is armed, ns: several times the ~15 us a single-threaded client
 * takes per request, far less than a scheduler tick. */
#define SRV_WATCH_NS 50000

struct srv;

/* An armed (or idle) one-shot poll and its cancel request. */
struct srv_poll {
	struct rl_io io;     /* the poll; io.cb_arg = owner */
	struct rl_io cancel; /* a cancel aimed at it */
	bool armed, cancelling;
};

struct srv_client {
	struct srv *s;
	int fd;
	unsigned id;
	struct serve_conn *c;
	struct srv_poll pin, pout;
	bool readable, writable;
	bool watch;            /* drained, no poll armed: each turn retries the read */
	bool watch_off;        /* the last watch saw nothing: arm the poll at once */
	uint64_t last_in;      /* wall clock of the last read that returned bytes */
	uint64_t armed_at;     /* wall clock the input poll was armed */
	bool closing;          /* polls being cancelled; freed when none is left */
	struct serve_tls *tls; /* after STARTTLS */
	struct srv_client *next;
};

struct srv_listener {
	struct srv *s;
	int fd;
	bool ctl; /* the control socket: one command per connection */
	struct srv_poll p;
};

struct srv {
	struct serve_ctx *ctx;
	const struct serve_opts *opts;
	struct serve_tls_ctx *tls; /* credentials when --tls-cert is given */
	struct srv_listener ls[SRV_MAX_LISTEN];
	unsigned nls;
	struct srv_client *clients;
	unsigned nclients, next_id;
	int sigfd;
	struct srv_poll psig;
	struct rl_io tick; /* status line timer */
	bool tick_armed;
	bool stop;
	uint64_t t0, last_t, last_bytes, last_ios;
	uint64_t last_lag_sum, last_lag_count;
};

/* --- polls --- */

static void srv_poll_arm(struct srv *s, struct srv_poll *p, int fd, unsigned events, rl_io_cb cb,
                         void *arg)
{
	struct io_uring_sqe *sqe;

	if (p->armed)
		return;
	memset(&p->io, 0, sizeof(p->io));
	p->io.op = RL_OP_FLUSH; /* not a transfer: the executor reports 0 or -errno */
	p->io.cb = cb;
	p->io.cb_arg = arg;
	p->io.ex = s->ctx->ex;
	sqe = rl_exec_get_sqe(s->ctx->ex, &p->io);
	if (!sqe)
		return;
	io_uring_prep_poll_add(sqe, fd, events);
	p->armed = true;
}

static void srv_cancel_done(struct rl_io *io, int status)
{
	struct srv_poll *p = io->cb_arg;

	(void)status;
	p->cancelling = false;
}

static void srv_poll_cancel(struct srv *s, struct srv_poll *p)
{
	struct io_uring_sqe *sqe;

	if (!p->armed || p->cancelling)
		return;
	memset(&p->cancel, 0, sizeof(p->cancel));
	p->cancel.op = RL_OP_FLUSH;
	p->cancel.cb = srv_cancel_done;
	p->cancel.cb_arg = p;
	p->cancel.ex = s->ctx->ex;
	sqe = rl_exec_get_sqe(s->ctx->ex, &p->cancel);
	if (!sqe)
		return;
	io_uring_prep_cancel(sqe, &p->io, 0);
	p->cancelling = true;
}

/* --- clients --- */

static void srv_client_in(struct rl_io *io, int status)
{
	struct srv_client *cl = io->cb_arg;

	cl->pin.armed = false;
	cl->readable = true; /* also on errors and hang-ups: the read says which */
	/* Input came soon after the watch gave up: the client is busy again. */
	if (cl->watch_off && rl_exec_wall_now() - cl->armed_at < SRV_WATCH_NS)
		cl->watch_off = false;
	(void)status;
}

static void srv_client_arm_in(struct srv *s, struct srv_client *cl)
{
	if (cl->pin.armed)
		return;
	cl->armed_at = rl_exec_wall_now();
	srv_poll_arm(s, &cl->pin, cl->fd, POLLIN | POLLRDHUP, srv_client_in, cl);
}

static void srv_client_out(struct rl_io *io, int status)
{
	struct srv_client *cl = io->cb_arg;

	cl->pout.armed = false;
	cl->writable = true;
	(void)status;
}

static ssize_t srv_recv(struct srv_client *cl, void *buf, size_t len)
{
	if (cl->tls)
		return serve_tls_recv(cl->tls, buf, len);
	ssize_t n = recv(cl->fd, buf, len, MSG_DONTWAIT);
	return n < 0 ? -errno : n;
}

static ssize_t srv_send(struct srv_client *cl, const struct iovec *iov, int n)
{
	if (cl->tls)
		return serve_tls_send(cl->tls, iov, n);
	struct msghdr mh = {.msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)n};
	ssize_t r = sendmsg(cl->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	return r < 0 ? -errno : r;
}

static void srv_client_close(struct srv *s, struct srv_client *cl)
{
	if (cl->closing)
		return;
	cl->closing = true;
	const char *why = serve_conn_error(cl->c);
	if (why && !s->opts->quiet)
		fprintf(stderr, "raidlab serve: client %u: %s; connection closed\n", cl->id, why);
	srv_poll_cancel(s, &cl->pin);
	srv_poll_cancel(s, &cl->pout);
}

/* Send everything queued, until the socket is full. */
static void srv_client_send(struct srv *s, struct srv_client *cl)
{
	struct iovec iov[SRV_IOV];

	if (cl->closing || cl->pout.armed)
		return;
	for (;;) {
		int k = serve_conn_tx_iov(cl->c, iov, SRV_IOV);
		if (!k)
			break;
		ssize_t n = srv_send(cl, iov, k);
		if (n > 0) {
			serve_conn_tx_done(cl->c, (size_t)n);
		} else if (n == -EAGAIN || n == -EWOULDBLOCK) {
			cl->writable = false;
			srv_poll_arm(s, &cl->pout, cl->fd, POLLOUT, srv_client_out, cl);
			break;
		} else if (n != -EINTR) {
			serve_conn_abort(cl->c);
			break;
		}
	}
}

/* ctx->kick: a large reply is queued; start sending it now. */
static void srv_kick(void *owner)
{
	struct srv_client *cl = owner;

	srv_client_send(cl->s, cl);
}

/*
 * Read and send for one client.  Returns true when input is known to be
 * waiting and the engine has room for it again (replies sent in this call
 * freed slots): the loop must come back without blocking.
 */
static bool srv_client_service(struct srv *s, struct srv_client *cl)
{
	void *room_buf;

	if (cl->closing)
		return false;
	/* Input: as much as the engine has room for. */
	while (cl->readable) {
		void *buf;
		size_t room = serve_conn_rx_space(cl->c, &buf);
		if (!room)
			break;
		ssize_t n = srv_recv(cl, buf, room);
		if (n > 0) {
			cl->last_in = rl_exec_wall_now();
			serve_conn_rx_done(cl->c, (size_t)n);
			if ((size_t)n < room)
				cl->readable =
				    false; /* drained; the poll says when there is more */
		} else if (n == -EAGAIN || n == -EWOULDBLOCK) {
			cl->readable = false;
		} else if (n != -EINTR) {
			serve_conn_rx_eof(cl->c);
			break;
		}
	}
	srv_client_send(s, cl);
	if (serve_conn_tls_pending(cl->c)) {
		char msg[256];
		if (serve_tls_accept(s->tls, cl->fd, &cl->tls, msg, sizeof(msg))) {
			if (!s->opts->quiet)
				fprintf(stderr,
				        "raidlab serve: client %u: TLS handshake failed: %s\n",
				        cl->id, msg);
			serve_conn_abort(cl->c);
		} else {
			serve_conn_tls_started(cl->c);
			cl->readable = true;
		}
	}
	if (serve_conn_done(cl->c)) {
		srv_client_close(s, cl);
		return false;
	}
	cl->watch = false;
	if (!serve_conn_rx_space(cl->c, &room_buf))
		return false; /* a completion frees room and brings the loop back */
	if (cl->readable)
		return true;
	if (!cl->watch_off && !s->stop)
		cl->watch = true; /* srv_watch() retries the read or arms the poll */
	else
		srv_client_arm_in(s, cl);
	return false;
}

/* Free clients whose polls are all in. */
static void srv_reap(struct srv *s)
{
	for (struct srv_client **pp = &s->clients; *pp;) {
		struct srv_client *cl = *pp;
		if (!cl->closing || cl->pin.armed || cl->pout.armed || cl->pin.cancelling ||
		    cl->pout.cancelling || !serve_conn_done(cl->c)) {
			pp = &cl->next;
			continue;
		}
		*pp = cl->next;
		serve_tls_free(cl->tls);
		close(cl->fd);
		serve_conn_free(cl->c);
		free(cl);
		s->nclients--;
	}
}

/* --- listeners --- */

static void srv_accept_ready(struct rl_io *io, int status);

static void srv_listen_arm(struct srv *s, struct srv_listener *l)
{
	srv_poll_arm(s, &l->p, l->fd, POLLIN, srv_accept_ready, l);
}

/*
 * A control connection: read one command line (the client sends it at
 * once; a 5 s timeout guards the loop), answer, close.  Commands are quick
 * (a rebuild only starts here), so this does not stall the clients.
 */
static void srv_ctl_handle(struct srv *s, int fd)
{
	struct timeval tv = {.tv_sec = 5};
	char line[512], out[8192];
	size_t n = 0;
	bool stop = false;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (n < sizeof(line) - 1) {
		ssize_t r = read(fd, line + n, sizeof(line) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue; /* a signal, not the end of the command */
		if (r <= 0)
			break;
		n += (size_t)r;
		if (memchr(line, '\n', n))
			break;
	}
	line[n] = '\0';
	serve_ctl_command(s->ctx, line, out, sizeof(out), &stop);
	if (send(fd, out, strlen(out), MSG_NOSIGNAL) < 0)
		out[0] = '\0';
	if (!s->opts->quiet && strncmp(line, "status", 6) && strncmp(line, "progress", 8))
		fprintf(stderr, "%sraidlab serve: ctl: %s", s->opts->status_line ? "\n" : "", out);
	if (stop && !s->stop) {
		if (!s->opts->quiet)
			fprintf(stderr, "\nraidlab serve: stop requested on the control socket\n");
		s->stop = true;
	}
}

static void srv_accept_ready(struct rl_io *io, int status)
{
	struct srv_listener *l = io->cb_arg;
	struct srv *s = l->s;

	l->p.armed = false;
	if (s->stop || status == -ECANCELED)
		return;
	for (;;) {
		int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			break;
		if (l->ctl) {
			srv_ctl_handle(s, fd);
			close(fd);
			continue;
		}
		if (s->nclients >= (s->opts->shared ? s->opts->shared : 1)) {
			if (!s->opts->quiet)
				fprintf(stderr,
				        "raidlab serve: refused a connection: %u already open "
				        "(--shared %u)\n",
				        s->nclients, s->opts->shared);
			close(fd);
			continue;
		}
		struct srv_client *cl = calloc(1, sizeof(*cl));
		if (cl)
			cl->c = serve_conn_new(s->ctx, cl);
		if (!cl || !cl->c) {
			free(cl);
			close(fd);
			continue;
		}
		/* Room for a whole maximum-size reply in the socket: a 1 MiB read
		 * goes out in one send instead of a send, a poll and a send.  The
		 * kernel caps this at net.core.wmem_max / rmem_max. */
		int one = 1, big = 8 << 20;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		cl->s = s;
		cl->fd = fd;
		cl->id = ++s->next_id;
		cl->readable = true;
		cl->writable = true;
		cl->next = s->clients;
		s->clients = cl;
		s->nclients++;
	}
	srv_listen_arm(s, l);
}

/*
 * An existing socket at @sa's path: a live one (a server accepts on it) is
 * refused, a stale one (connect: ECONNREFUSED, its server is gone) is
 * removed.  0, or a negative errno with @msg set.
 */
static int srv_unix_clear(const struct sockaddr_un *sa, const char *what, char *msg, size_t msglen)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e;

	if (fd < 0)
		return -errno;
	e = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) ? errno : 0;
	close(fd);
	if (!e) {
		snprintf(msg, msglen,
		         "%s %s: another server is listening on it; stop it or pick "
		         "another path",
		         what, sa->sun_path);
		return -EADDRINUSE;
	}
	if (e != ECONNREFUSED) {
		snprintf(msg, msglen, "%s %s: cannot tell whether a server still uses it: %s", what,
		         sa->sun_path, strerror(e));
		return -e;
	}
	if (unlink(sa->sun_path) && errno != ENOENT) {
		e = errno;
		snprintf(msg, msglen, "%s %s: cannot remove the stale socket: %s", what,
		         sa->sun_path, strerror(e));
		return -e;
	}
	return 0;
}

static int srv_listen_unix(struct srv *s, const char *path, bool ctl, const char *what, char *msg,
                           size_t msglen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct stat st;
	mode_t old;
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(msg, msglen, "%s %s: path too long for a unix socket", what, path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			snprintf(msg, msglen, "%s %s: exists and is not a socket", what, path);
			return -EEXIST;
		}
		if ((rc = srv_unix_clear(&sa, what, msg, msglen)))
			return rc;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	/* owner only from its creation (the control socket can fail members), whatever the umask */
	old = umask(0177);
	rc = fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 64);
	umask(old);
	if (rc) {
		int e = errno;
		snprintf(msg, msglen, "%s %s: %s", what, path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	s->ls[s->nls].fd = fd;
	s->ls[s->nls].s = s;
	s->ls[s->nls].ctl = ctl;
	s->nls++;
	return 0;
}

static int srv_listen_tcp(struct srv *s, const char *addr, int port, int *bound, char *msg,
                          size_t msglen)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
	                         .ai_socktype = SOCK_STREAM,
	                         .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *res, *ai;
	char ps[16];
	int rc, n = 0, last = 0;

	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(addr, ps, &hints, &res);
	if (rc) {
		snprintf(msg, msglen, "--bind %s: %s", addr ? addr : "", gai_strerror(rc));
		return -EINVAL;
	}
	for (ai = res; ai && s->nls < SRV_MAX_LISTEN; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		int one = 1;
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
			last = errno;
			close(fd);
			continue;
		}
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		if (!getsockname(fd, (struct sockaddr *)&ss, &sl))
			*bound =
			    ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
			                                   : ((struct sockaddr_in *)&ss)->sin_port);
		s->ls[s->nls].fd = fd;
		s->ls[s->nls].s = s;
		s->nls++;
		n++;
		if (port == 0)
			break; /* one ephemeral port, not one per address family */
	}
	freeaddrinfo(res);
	if (!n) {
		snprintf(msg, msglen, "--port %d: cannot listen on %s: %s", port,
		         addr ? addr : "localhost", strerror(last ? last : EADDRNOTAVAIL));
		return -(last ? last : EADDRNOTAVAIL);
	}
	return 0;
}

/* --- signals and status --- */

static void srv_signal(struct rl_io *io, int status)
{
	struct srv *s = io->cb_arg;
	struct signalfd_siginfo si;

	s->psig.armed = false;
	if (status == -ECANCELED)
		return;
	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		/* No client measures what is still in flight: finish it at once. */
		rl_exec_unpace(s->ctx->ex);
		if (si.ssi_signo == SIGUSR1)
			continue; /* pacing off, serving on (a client tearing down) */
		if (!s->stop && !s->opts->quiet)
			fprintf(stderr, "\nraidlab serve: %s: stopping\n",
			        strsignal((int)si.ssi_signo));
		s->stop = true;
	}
	if (!s->stop)
		srv_poll_arm(s, &s->psig, s->sigfd, POLLIN, srv_signal, s);
}

static void srv_totals(const struct serve_ctx *ctx, uint64_t *ios, uint64_t *bytes)
{
	*ios = *bytes = 0;
	for (unsigned i = 0; i < ctx->nexports; i++)
		for (int d = 0; d < SERVE_DIRS; d++) {
			*ios += ctx->exports[i].dir[d].ios;
			*bytes += ctx->exports[i].dir[d].bytes;
		}
}

static void srv_tick(struct rl_io *io, int status)
{
	struct srv *s = io->cb_arg;
	struct rl_exec *ex = s->ctx->ex;
	uint64_t now = rl_exec_now(ex), ios, bytes;

	(void)status;
	s->tick_armed = false;
	srv_totals(s->ctx, &ios, &bytes);
	double dt = (double)(now - s->last_t) / 1e9;
	if (dt > 0) {
		fprintf(stderr, "\rserve: %u client%s  %8.0f req/s  %8.1f MB/s  qd %3llu",
		        s->nclients, s->nclients == 1 ? " " : "s", (double)(ios - s->last_ios) / dt,
		        (double)(bytes - s->last_bytes) / dt / 1e6,
		        (unsigned long long)s->ctx->inflight);
		/* Simulated stacks: how late completions were (mean over the last second). */
		if (ex->kind == RL_EXEC_VIRTUAL) {
			uint64_t n = ex->lag_count - s->last_lag_count;
			fprintf(stderr, "  lag %6.0f us (max so far %.0f us)",
			        n ? (double)(ex->lag_sum - s->last_lag_sum) / (double)n / 1e3 : 0.0,
			        (double)ex->lag_max / 1e3);
			s->last_lag_count = ex->lag_count;
			s->last_lag_sum = ex->lag_sum;
		}
		fputs("   ", stderr);
	}
	s->last_t = now;
	s->last_ios = ios;
	s->last_bytes = bytes;
	if (!s->stop) {
		s->tick_armed = rl_exec_at(ex, &s->tick, now + 1000000000ull, 0) == 0;
	}
}

/* --- the loop --- */

/*
 * The clients being watched: while a client's last input is less than
 * SRV_WATCH_NS old, its read is retried on the next turn; after that its
 * poll is armed, and its watch stays off until the poll fires within
 * SRV_WATCH_NS of being armed.  Returns true while any client is watched
 * (the turn must not block).
 */
static bool srv_watch(struct srv *s)
{
	uint64_t now = 0;
	bool on = false;

	for (struct srv_client *cl = s->clients; cl; cl = cl->next) {
		if (!cl->watch)
			continue;
		if (!now)
			now = rl_exec_wall_now();
		if (now - cl->last_in < SRV_WATCH_NS && !cl->closing && !s->stop) {
			cl->readable = true;
			on = true;
			continue;
		}
		cl->watch = false;
		if (!cl->closing) {
			cl->watch_off = true;
			srv_client_arm_in(s, cl);
		}
	}
	return on;
}

static void srv_flush_done(struct rl_io *io, int status)
{
	int *st = io->cb_arg;
	*st = status ? status : 1;
}

/* Dirty bytes held by the controller caches in @t's stack. */
static uint64_t srv_dirty(struct rl_target *t)
{
	struct json_object *r = rl_target_report(t);
	uint64_t n = rl_report_sum(r, "dirty_bytes");

	json_object_put(r);
	return n;
}

/* FLUSH every export's stack and wait for the answers; say what it did. */
static void srv_flush_all(struct srv *s)
{
	struct serve_ctx *ctx = s->ctx;

	for (unsigned i = 0; i < ctx->nexports; i++) {
		struct serve_export *e = &ctx->exports[i];
		struct rl_io io = {0};
		int st = 0;
		if (e->read_only) {
			if (!s->opts->quiet)
				fprintf(stderr,
				        "raidlab serve: export '%s': read-only, nothing to flush\n",
				        e->name);
			continue;
		}
		uint64_t dirty = srv_dirty(e->t);
		io.op = RL_OP_FLUSH;
		io.cb = srv_flush_done;
		io.cb_arg = &st;
		io.ex = ctx->ex;
		rl_target_submit(e->t, &io);
		while (!st)
			if (rl_exec_run_once(ctx->ex, true) < 0)
				break;
		uint64_t left = srv_dirty(e->t);
		if (s->opts->quiet)
			continue;
		if (st < 0)
			fprintf(stderr, "raidlab serve: export '%s': FLUSH failed: %s\n", e->name,
			        strerror(-st));
		else if (dirty || left)
			fprintf(stderr,
			        "raidlab serve: export '%s': flushed; the cache destaged %llu "
			        "dirty bytes "
			        "(%llu left)\n",
			        e->name,
			        (unsigned long long)(dirty - (left < dirty ? left : dirty)),
			        (unsigned long long)left);
		else
			fprintf(stderr, "raidlab serve: export '%s': flushed%s\n", e->name,
			        e->t->caps & RL_CAP_FLUSH ? " (FLUSH went down to every member)"
			                                  : " (nothing held back)");
	}
}

/*
 * --ready-file: the port, written once the sockets listen (a client that
 * connects now waits in the backlog).  A script waits for this file, so
 * failing to write it fails the server instead of leaving the script
 * waiting forever.
 */
static int srv_write_ready(const struct serve_opts *o, int port, char *msg, size_t msglen)
{
	char tmp[4096];
	FILE *f;
	int rc = 0;

	if (!o->ready_file)
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", o->ready_file);
	if (!(f = fopen(tmp, "w"))) {
		rc = -errno;
	} else {
		bool bad = fprintf(f, "%d\n", port) < 0;
		if (fclose(f)) /* always closed, whatever the write did */
			bad = true;
		if (bad)
			rc = errno ? -errno : -EIO;
		else if (rename(tmp, o->ready_file))
			rc = -errno;
	}
	if (rc) {
		snprintf(msg, msglen, "--ready-file %s: %s", o->ready_file, strerror(-rc));
		unlink(tmp);
	}
	return rc;
}

int serve_run(struct serve_ctx *ctx, const struct serve_opts *opts, char *msg, size_t msglen)
{
	struct srv *s = calloc(1, sizeof(*s));
	sigset_t mask, old;
	int rc = 0, port = 0;

	if (!s)
		return -ENOMEM;
	s->ctx = ctx;
	s->opts = opts;
	s->sigfd = -1;
	ctx->kick = srv_kick;
	if (opts->tls_cert) {
		rc = serve_tls_ctx_new(opts->tls_cert, opts->tls_key, &s->tls, msg, msglen);
		if (rc)
			goto out;
		ctx->tls_available = true;
		ctx->tls_required = opts->tls_require;
	}
	if (opts->socket_path &&
	    (rc = srv_listen_unix(s, opts->socket_path, false, "--socket", msg, msglen)))
		goto out;
	if (opts->ctl_path && (rc = srv_listen_unix(s, opts->ctl_path, true, "--ctl", msg, msglen)))
		goto out;
	if (opts->port >= 0 &&
	    (rc = srv_listen_tcp(s, opts->bind_addr, opts->port, &port, msg, msglen)))
		goto out;
	if ((rc = srv_write_ready(opts, port, msg, msglen)))
		goto out;
	/* A client that vanishes mid-reply is an error on its socket (GnuTLS
	 * sends without MSG_NOSIGNAL), never a signal that ends the server. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	s->sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sigfd < 0) {
		rc = -errno;
		snprintf(msg, msglen, "signalfd: %s", strerror(-rc));
		goto unmask;
	}
	srv_poll_arm(s, &s->psig, s->sigfd, POLLIN, srv_signal, s);
	for (unsigned i = 0; i < s->nls; i++)
		srv_listen_arm(s, &s->ls[i]);
	s->t0 = s->last_t = rl_exec_now(ctx->ex);
	if (opts->status_line) {
		s->tick.cb = srv_tick;
		s->tick.cb_arg = s;
		s->tick.ex = ctx->ex;
		s->tick_armed = rl_exec_at(ctx->ex, &s->tick, s->t0 + 1000000000ull, 0) == 0;
	}
	if (!opts->quiet) {
		fprintf(stderr, "raidlab serve: %u export%s on", ctx->nexports,
		        ctx->nexports == 1 ? "" : "s");
		if (opts->socket_path)
			fprintf(stderr, " nbd+unix:///?socket=%s", opts->socket_path);
		if (opts->port >= 0)
			fprintf(stderr, " nbd://%s:%d",
			        opts->bind_addr ? opts->bind_addr : "localhost", port);
		fprintf(stderr, "%s; Ctrl-C stops\n",
		        s->tls ? (opts->tls_require ? " (TLS required)" : " (TLS offered)") : "");
	}

	bool stopping = false;
	while (!stopping || s->clients || serve_live_busy(ctx)) {
		if (s->stop && !stopping) {
			stopping = true;
			ctx->shutting_down = true;
			serve_live_stop(ctx);
			for (unsigned i = 0; i < s->nls; i++)
				srv_poll_cancel(s, &s->ls[i].p);
			for (struct srv_client *cl = s->clients; cl; cl = cl->next)
				serve_conn_abort_input(cl->c);
		}
		bool again = false;
		serve_live_poll(ctx);
		if (ctx->pace)
			serve_pace_poll(ctx->pace, ctx->lat_sum, ctx->lat_count);
		for (struct srv_client *cl = s->clients; cl; cl = cl->next)
			again |= srv_client_service(s, cl);
		srv_reap(s);
		if (stopping && !s->clients && !serve_live_busy(ctx))
			break;
		again |= srv_watch(s);
		rc = rl_exec_run_once(ctx->ex, !again);
		if (rc < 0) {
			snprintf(msg, msglen, "event loop: %s", strerror(-rc));
			goto unmask;
		}
		rc = 0;
	}
	/* Listeners, the signal poll, the timer: let cancellations come in. */
	for (unsigned i = 0; i < s->nls; i++)
		srv_poll_cancel(s, &s->ls[i].p);
	srv_poll_cancel(s, &s->psig);
	while (!rl_exec_idle(ctx->ex))
		if (rl_exec_run_once(ctx->ex, true) < 0)
			break;
	if (opts->status_line)
		fputc('\n', stderr);
	if (!opts->quiet)
		serve_live_report(ctx, stderr);
	srv_flush_all(s);
unmask:
	if (s->sigfd >= 0)
		close(s->sigfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	for (unsigned i = 0; i < s->nls; i++)
		close(s->ls[i].fd);
	for (unsigned i = 0; i < s->nls; i++)
		if (s->ls[i].ctl)
			unlink(opts->ctl_path);
	if (opts->socket_path && s->nls)
		unlink(opts->socket_path);
	serve_live_free(ctx);
	serve_tls_ctx_free(s->tls);
	free(s);
	return rc;
}
