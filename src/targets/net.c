/*
 * net.c - a stream to or from a peer over a socket: fio's net engine.
 *
 *   net("localhost", port=8888, protocol=tcp)         a TCP sender
 *   net("", port=8888, listen=1)                      a TCP receiver
 *   net("239.0.0.1", port=10000, protocol=udp, listen=1)   a multicast receiver
 *   net("/tmp/s.sock", protocol=unix, listen=1)       a unix socket receiver
 *
 * Writes send their block, reads receive one; offsets do not matter (the
 * target is a stream of size bytes).  Requests run inside submit, so the
 * target goes with the psync executor (ioengine=net, workload/engine.c).
 *
 * What the peer sees is what fio's net engine does, so either side may be
 * fio:
 *   - a receiver (listen=1) binds its port when the target is built, so a
 *     sender of the same run always finds it; a TCP or unix receiver
 *     accepts one connection at its first request, a UDP receiver waits
 *     there for the sender's open message (fio's "link" magic, command
 *     0x98, big-endian).  It binds any address (and joins the group for a
 *     multicast host), so its pingpong replies have a valid source.
 *   - a sender connects (or, over UDP, sends the open message) at its first
 *     request, after the job's startdelay.
 *   - a UDP sender ends each datagram of 24 bytes or more with fio's
 *     sequence trailer (magic, number, length, little-endian); the receiver
 *     counts the numbers it missed as drops (reported).
 *   - pingpong=1: a sender waits for each block to come back; a receiver
 *     sends each block back (to the datagram's source over UDP).
 *   - the end: when the job's workers end the target is finished (also
 *     when the run ends): a sender sends fio's close message ("link", 0x89,
 *     little-endian) and closes.  A receiver that gets the close message
 *     or the end of the connection, or a sender whose peer went away,
 *     completes with -ESHUTDOWN, which ends the job as done (engine.c).
 * A receiver's first request waits for its peer for as long as it takes,
 * as fio's does, or until the run is stopped (SIGINT/SIGTERM): every wait
 * polls in 50 ms slices and checks rl_target_stop_requested().  After
 * that, with runtime= (the job's ramp_time + runtime), a wait past that
 * long since the first block ends the stream, so a block that never comes
 * (a pingpong reply from a receiver that has stopped, a lost datagram)
 * cannot hold the run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <json-c/json.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/registry.h"

enum net_proto { NET_TCP, NET_TCPV6, NET_UDP, NET_UDPV6, NET_UNIX };

#define NET_LINK_MAGIC 0x6c696e6bu /* "link" */
#define NET_LINK_OPEN  0x98u
#define NET_LINK_CLOSE 0x89u
#define NET_SEQ_MAGIC  0x657375716e556563ull
#define NET_SEQ_BYTES  24u

struct net_state {
	char *host, *iface, *id;
	int proto;
	bool listen, pingpong, nodelay;
	uint64_t port, ttl, window, mss;
	uint64_t runtime;            /* ns the stream lasts from its first block; 0: no limit */
	uint64_t deadline;           /* CLOCK_MONOTONIC ns: a wait past it ends the stream */
	int lfd;                     /* bound receiver socket (TCP/unix: listening) */
	int fd;                      /* the stream, -1 until the first request */
	struct sockaddr_storage dst; /* sender: where to; UDP receiver: the last source */
	socklen_t dstlen;
	bool opened, ended, unlink_path;
	uint64_t send_seq, recv_seq, drops, sent, received;
	pthread_mutex_t lock;
};

static bool net_udp(const struct net_state *s)
{
	return s->proto == NET_UDP || s->proto == NET_UDPV6;
}

static int net_family(const struct net_state *s)
{
	return s->proto == NET_UNIX                             ? AF_UNIX
	       : s->proto == NET_TCPV6 || s->proto == NET_UDPV6 ? AF_INET6
	                                                        : AF_INET;
}

static bool net_multicast(const char *host)
{
	struct in_addr in;
	return inet_pton(AF_INET, host, &in) == 1 && (ntohl(in.s_addr) >> 28) == 0xe;
}

static void net_put32(uint8_t *p, uint32_t v, bool big)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (big ? 24 - 8 * i : 8 * i));
}

static uint64_t net_get64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void net_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* fio's 8-byte link message: open is big-endian, close little-endian (as fio sends them). */
static bool net_is_link(const uint8_t *p, ssize_t n, uint32_t cmd)
{
	uint8_t want[8];
	bool big = cmd == NET_LINK_OPEN;
	net_put32(want, NET_LINK_MAGIC, big);
	net_put32(want + 4, cmd, big);
	return n == 8 && !memcmp(p, want, 8);
}

static uint64_t net_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A wait polls this long at a time, so a stop (SIGINT/SIGTERM) ends it promptly. */
#define NET_WAIT_SLICE_MS 50

/*
 * Wait until @fd is ready for @events: 0 or a negative errno.  Past the
 * deadline (if any) the stream has ended: -ESHUTDOWN, so a block that
 * never comes back (a pingpong reply, a lost datagram) cannot hold the
 * job beyond its runtime.  A stop of the run (rl_target_stop_requested)
 * ends the stream the same way, whatever the wait was for.
 */
static int net_wait(const struct net_state *s, int fd, short events)
{
	struct pollfd p = {.fd = fd, .events = events};
	for (;;) {
		int ms = NET_WAIT_SLICE_MS;
		if (rl_target_stop_requested())
			return -ESHUTDOWN;
		if (s->deadline) {
			uint64_t now = net_now();
			if (now >= s->deadline)
				return -ESHUTDOWN;
			if (s->deadline - now < (uint64_t)ms * 1000000)
				ms = (int)((s->deadline - now + 999999) / 1000000);
		}
		int n = poll(&p, 1, ms);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* A peer that went away ends the stream, as the end of data does. */
static int net_errno(int e)
{
	return e == EPIPE || e == ECONNRESET || e == ENOTCONN ? -ESHUTDOWN : -e;
}

/* All @len bytes of @buf on the stream. */
static int net_send_all(struct net_state *s, const uint8_t *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		int rc = net_wait(s, s->fd, POLLOUT);
		if (rc)
			return rc;
		ssize_t n = send(s->fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return net_errno(errno);
		done += (size_t)n;
	}
	s->sent += len;
	return 0;
}

/* @len bytes from the stream; -ESHUTDOWN at its end or at fio's close message. */
static int net_recv_all(struct net_state *s, uint8_t *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		int rc = net_wait(s, s->fd, POLLIN);
		if (rc)
			return rc;
		ssize_t n = recv(s->fd, buf + done, len - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return net_errno(errno);
		if (n == 0 || (done == 0 && net_is_link(buf, n, NET_LINK_CLOSE)))
			return -ESHUTDOWN;
		done += (size_t)n;
	}
	s->received += len;
	return 0;
}

static int net_send_datagram(struct net_state *s, uint8_t *buf, size_t len)
{
	if (len >= NET_SEQ_BYTES && !s->listen) {
		uint8_t *tail = buf + len - NET_SEQ_BYTES;
		net_put64(tail, NET_SEQ_MAGIC);
		net_put64(tail + 8, s->send_seq++);
		net_put64(tail + 16, len);
	}
	ssize_t n;
	do {
		int rc = net_wait(s, s->fd, POLLOUT);
		if (rc)
			return rc;
		n = sendto(s->fd, buf, len, 0, (struct sockaddr *)&s->dst, s->dstlen);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return net_errno(errno);
	s->sent += len;
	return 0;
}

/* One datagram; a receiver remembers its source.  -ESHUTDOWN at the close message. */
static int net_recv_datagram(struct net_state *s, uint8_t *buf, size_t len)
{
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	ssize_t n;
	do {
		int rc = net_wait(s, s->fd, POLLIN);
		if (rc)
			return rc;
		n = recvfrom(s->fd, buf, len, 0, (struct sockaddr *)&from, &fl);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return net_errno(errno);
	if (net_is_link(buf, n, NET_LINK_CLOSE))
		return -ESHUTDOWN;
	if (s->listen) {
		s->dst = from;
		s->dstlen = fl;
	}
	if ((size_t)n == len && len >= NET_SEQ_BYTES) {
		const uint8_t *tail = buf + len - NET_SEQ_BYTES;
		uint64_t seq = net_get64(tail + 8);
		if (net_get64(tail) == NET_SEQ_MAGIC && net_get64(tail + 16) == len) {
			if (seq > s->recv_seq)
				s->drops += seq - s->recv_seq;
			s->recv_seq = seq + 1;
		}
	}
	s->received += (uint64_t)n;
	return 0;
}

static int net_sockopts(struct net_state *s, int fd)
{
	int one = 1, w = (int)s->window, m = (int)s->mss;
	bool rcv = s->listen || s->pingpong, snd = !s->listen || s->pingpong;

	if (s->nodelay && !net_udp(s) && s->proto != NET_UNIX &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return -errno;
	if (w && rcv && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)))
		return -errno;
	if (w && snd && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)))
		return -errno;
	if (m && !net_udp(s) && s->proto != NET_UNIX &&
	    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m)))
		return -errno;
	return 0;
}

/* The address @s->host:@s->port (or the unix path) into @ss; 0 or a message in @err. */
static int net_resolve(struct net_state *s, bool any, struct sockaddr_storage *ss, socklen_t *len,
                       size_t pos, struct rl_err *err)
{
	memset(ss, 0, sizeof(*ss));
	if (s->proto == NET_UNIX) {
		struct sockaddr_un *un = (struct sockaddr_un *)ss;
		if (strlen(s->host) >= sizeof(un->sun_path))
			return rl_err_set(err, pos, "net: the socket path '%s' is too long",
			                  s->host);
		un->sun_family = AF_UNIX;
		strcpy(un->sun_path, s->host);
		*len = sizeof(*un);
		return 0;
	}
	int fam = net_family(s);
	if (any) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
		if (fam == AF_INET) {
			in->sin_family = AF_INET;
			in->sin_port = htons((uint16_t)s->port);
			in->sin_addr.s_addr = htonl(INADDR_ANY);
			*len = sizeof(*in);
		} else {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons((uint16_t)s->port);
			in6->sin6_addr = in6addr_any;
			*len = sizeof(*in6);
		}
		return 0;
	}
	struct addrinfo hints = {.ai_family = fam,
	                         .ai_socktype = net_udp(s) ? SOCK_DGRAM : SOCK_STREAM};
	struct addrinfo *res = NULL;
	char port[16];
	snprintf(port, sizeof(port), "%llu", (unsigned long long)s->port);
	int rc = getaddrinfo(s->host, port, &hints, &res);
	if (rc || !res)
		return rl_err_set(err, pos, "net: cannot resolve host '%s' (%s): %s", s->host,
		                  fam == AF_INET6 ? "IPv6" : "IPv4", gai_strerror(rc));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* A receiver's socket, bound now so that a sender of the same run finds it. */
static int net_bind(struct net_state *s, size_t pos, struct rl_err *err)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int one = 1, rc = net_resolve(s, s->proto != NET_UNIX, &ss, &len, pos, err);
	if (rc)
		return rc;
	s->lfd = socket(net_family(s), (net_udp(s) ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (s->lfd < 0)
		return rl_err_set(err, pos, "net: socket: %s", strerror(errno));
	if (s->proto == NET_UNIX) {
		unlink(s->host); /* a socket left by an earlier run, as fio does */
	} else if (setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	           setsockopt(s->lfd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one))) {
		return rl_err_set(err, pos, "net: setsockopt: %s", strerror(errno));
	}
	if ((rc = net_sockopts(s, s->lfd)))
		return rl_err_set(err, pos, "net: socket options: %s", strerror(-rc));
	if (bind(s->lfd, (struct sockaddr *)&ss, len)) {
		if (s->proto == NET_UNIX)
			return rl_err_set(err, pos, "net: cannot bind socket %s: %s", s->host,
			                  strerror(errno));
		return rl_err_set(err, pos, "net: cannot bind port %llu: %s",
		                  (unsigned long long)s->port, strerror(errno));
	}
	s->unlink_path = s->proto == NET_UNIX;
	if (net_udp(s) && s->host[0]) {
		struct ip_mreq mr = {.imr_interface.s_addr = htonl(INADDR_ANY)};
		inet_pton(AF_INET, s->host, &mr.imr_multiaddr);
		if (s->iface[0])
			inet_pton(AF_INET, s->iface, &mr.imr_interface);
		if (setsockopt(s->lfd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)))
			return rl_err_set(err, pos, "net: cannot join multicast group %s: %s",
			                  s->host, strerror(errno));
	}
	if (!net_udp(s) && listen(s->lfd, 10))
		return rl_err_set(err, pos, "net: listen: %s", strerror(errno));
	return 0;
}

/* A receiver's first request: accept the connection, or wait for fio's open message. */
static int net_open_receiver(struct net_state *s)
{
	if (net_udp(s)) {
		uint8_t msg[64];
		s->fd = s->lfd;
		s->lfd = -1;
		for (;;) { /* anything before the open message belongs to no stream of ours */
			struct sockaddr_storage from;
			socklen_t fl = sizeof(from);
			int rc = net_wait(s, s->fd, POLLIN);
			if (rc)
				return rc;
			ssize_t n =
			    recvfrom(s->fd, msg, sizeof(msg), 0, (struct sockaddr *)&from, &fl);
			if (n < 0 && errno != EINTR)
				return -errno;
			if (net_is_link(msg, n, NET_LINK_OPEN))
				return 0;
		}
	}
	int rc = net_wait(s, s->lfd, POLLIN);
	if (rc)
		return rc;
	s->fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	return net_sockopts(s, s->fd);
}

/* A sender's first request: connect, or send fio's open message. */
static int net_open_sender(struct net_state *s)
{
	s->fd = socket(net_family(s), (net_udp(s) ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -errno;
	int rc = net_sockopts(s, s->fd);
	if (rc)
		return rc;
	if (!net_udp(s))
		return connect(s->fd, (struct sockaddr *)&s->dst, s->dstlen) ? -errno : 0;
	if (net_multicast(s->host)) {
		int ttl = (int)s->ttl;
		struct in_addr ifa;
		if (s->iface[0] && inet_pton(AF_INET, s->iface, &ifa) == 1 &&
		    setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof(ifa)))
			return -errno;
		if (setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)))
			return -errno;
	}
	uint8_t msg[8];
	net_put32(msg, NET_LINK_MAGIC, true);
	net_put32(msg + 4, NET_LINK_OPEN, true);
	return sendto(s->fd, msg, sizeof(msg), 0, (struct sockaddr *)&s->dst, s->dstlen) < 0
	           ? -errno
	           : 0;
}

static int net_transfer(struct net_state *s, struct rl_io *io)
{
	uint8_t *buf = io->buf;
	bool udp = net_udp(s), out = io->op == RL_OP_WRITE;
	int rc;

	if (!s->opened) {
		rc = s->listen ? net_open_receiver(s) : net_open_sender(s);
		if (rc)
			return rc;
		s->opened = true;
		if (s->runtime)
			s->deadline = net_now() + s->runtime;
	}
	if (s->ended)
		return -ESHUTDOWN;
	if (out)
		rc = udp ? net_send_datagram(s, buf, io->len) : net_send_all(s, buf, io->len);
	else
		rc = udp ? net_recv_datagram(s, buf, io->len) : net_recv_all(s, buf, io->len);
	if (rc || !s->pingpong)
		return rc;
	/* pingpong: the block goes back the other way */
	if (out)
		return udp ? net_recv_datagram(s, buf, io->len) : net_recv_all(s, buf, io->len);
	return udp ? net_send_datagram(s, buf, io->len) : net_send_all(s, buf, io->len);
}

static void net_submit(struct rl_target *t, struct rl_io *io)
{
	struct net_state *s = t->priv;
	int rc = 0;

	if (io->op == RL_OP_READ || io->op == RL_OP_WRITE) {
		pthread_mutex_lock(&s->lock);
		rc = net_transfer(s, io);
		pthread_mutex_unlock(&s->lock);
	}
	rl_io_complete_later(io, rc);
}

static const char *const net_protos[] = {"tcp", "tcpv6", "udp", "udpv6", "unix", NULL};

static int net_describe(struct rl_target *t, struct json_object *obj)
{
	struct net_state *s = t->priv;

	json_object_object_add(obj, "host", json_object_new_string(s->host));
	json_object_object_add(obj, "port", json_object_new_int64((int64_t)s->port));
	json_object_object_add(obj, "protocol", json_object_new_string(net_protos[s->proto]));
	json_object_object_add(obj, "role",
	                       json_object_new_string(s->listen ? "receiver" : "sender"));
	json_object_object_add(obj, "id", json_object_new_string(s->id));
	return 0;
}

static int net_report(struct rl_target *t, struct json_object *obj)
{
	struct net_state *s = t->priv;

	json_object_object_add(obj, "bytes_sent", json_object_new_int64((int64_t)s->sent));
	json_object_object_add(obj, "bytes_received", json_object_new_int64((int64_t)s->received));
	if (net_udp(s) && s->listen)
		json_object_object_add(obj, "drops", json_object_new_int64((int64_t)s->drops));
	return 0;
}

/* The end of the stream: a sender says so as fio's does; every socket closes. */
static void net_finish(struct rl_target *t)
{
	struct net_state *s = t->priv;

	pthread_mutex_lock(&s->lock);
	if (s->opened && !s->ended && !s->listen && s->fd >= 0) {
		uint8_t msg[8];
		net_put32(msg, NET_LINK_MAGIC, false);
		net_put32(msg + 4, NET_LINK_CLOSE, false);
		if (net_udp(s))
			(void)sendto(s->fd, msg, sizeof(msg), 0, (struct sockaddr *)&s->dst,
			             s->dstlen);
		else
			(void)send(s->fd, msg, sizeof(msg), MSG_NOSIGNAL);
	}
	s->ended = true;
	if (s->fd >= 0)
		close(s->fd);
	if (s->lfd >= 0)
		close(s->lfd);
	s->fd = s->lfd = -1;
	if (s->unlink_path)
		unlink(s->host);
	s->unlink_path = false;
	pthread_mutex_unlock(&s->lock);
}

static void net_destroy(struct rl_target *t)
{
	struct net_state *s = t->priv;

	if (!s)
		return;
	net_finish(t);
	pthread_mutex_destroy(&s->lock);
	free(s->host);
	free(s->iface);
	free(s->id);
	free(s);
}

static const struct rl_target_ops net_ops = {
    .name = "net",
    .submit = net_submit,
    .describe = net_describe,
    .report = net_report,
    .finish = net_finish,
    .destroy = net_destroy,
};

static const struct rl_param net_params[] = {
    {.name = "port",
     .type = RL_PARAM_U64,
     .def = "0",
     .max = 65535,
     .help = "TCP or UDP port to connect or send to, or to listen on (none for unix)"},
    {.name = "protocol",
     .type = RL_PARAM_ENUM,
     .def = "tcp",
     .choices = net_protos,
     .help = "tcp, tcpv6, udp, udpv6, or unix (HOST is the socket's path)"},
    {.name = "listen",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "the receiver: bind port (any address; HOST may be a multicast group to join) "
             "and accept one connection or a UDP sender"},
    {.name = "pingpong",
     .type = RL_PARAM_BOOL,
     .def = "off",
     .help = "each block comes back: a sender waits for it, a receiver sends it"},
    {.name = "nodelay", .type = RL_PARAM_BOOL, .def = "off", .help = "TCP_NODELAY"},
    {.name = "ttl",
     .type = RL_PARAM_U64,
     .def = "1",
     .max = 255,
     .help = "hops of multicast datagrams sent"},
    {.name = "window_size",
     .type = RL_PARAM_U64,
     .def = "0",
     .max = 1u << 30,
     .help = "socket buffer bytes (SO_RCVBUF / SO_SNDBUF); 0: the system's"},
    {.name = "mss",
     .type = RL_PARAM_U64,
     .def = "0",
     .max = 65535,
     .help = "TCP_MAXSEG; 0: the system's"},
    {.name = "interface",
     .type = RL_PARAM_STR,
     .def_note = "none",
     .help = "IPv4 address of the interface for multicast; empty: the route's"},
    {.name = "size", .type = RL_PARAM_SIZE, .def = "1p", .help = "bytes of the stream"},
    {.name = "runtime",
     .type = RL_PARAM_TIME,
     .def = "0",
     .help = "how long the stream lasts from its first block: a wait past it ends the stream "
             "(a job's ramp_time + runtime); 0: no limit"},
    {.name = "id",
     .type = RL_PARAM_STR,
     .def_note = "none",
     .help = "a name that keeps otherwise equal sockets apart (one per job clone)"},
    {0},
};

static int net_args(struct rl_spec_node *node, struct net_state *s, uint64_t *size,
                    struct rl_err *err)
{
	const char *iface = "", *id = "";
	int rc;

	if (!node->is_call || node->nargs != 1 || node->args[0]->is_call)
		return rl_err_set(err, node->pos,
		                  "net takes a host (empty for a receiver, a path for unix), e.g. "
		                  "net(\"localhost\", port=8888)");
	if ((rc = rl_param_u64(node, net_params, "port", &s->port, err)) ||
	    (rc = rl_param_enum(node, net_params, "protocol", &s->proto, err)) ||
	    (rc = rl_param_bool(node, net_params, "listen", &s->listen, err)) ||
	    (rc = rl_param_bool(node, net_params, "pingpong", &s->pingpong, err)) ||
	    (rc = rl_param_bool(node, net_params, "nodelay", &s->nodelay, err)) ||
	    (rc = rl_param_u64(node, net_params, "ttl", &s->ttl, err)) ||
	    (rc = rl_param_u64(node, net_params, "window_size", &s->window, err)) ||
	    (rc = rl_param_u64(node, net_params, "mss", &s->mss, err)) ||
	    (rc = rl_param_str(node, net_params, "interface", &iface, err)) ||
	    (rc = rl_param_u64(node, net_params, "size", size, err)) ||
	    (rc = rl_param_u64(node, net_params, "runtime", &s->runtime, err)) ||
	    (rc = rl_param_str(node, net_params, "id", &id, err)) ||
	    (rc = rl_params_check(node, net_params, err)))
		return rc;
	s->host = strdup(node->args[0]->name);
	s->iface = strdup(iface);
	s->id = strdup(id);
	if (!s->host || !s->iface || !s->id)
		return -ENOMEM;
	if (s->proto == NET_UNIX ? !s->host[0] || s->port : !s->port)
		return rl_err_set(err, node->pos,
		                  s->proto == NET_UNIX
		                      ? "net: a unix socket needs its path as HOST, and no port"
		                      : "net: port must be from 1 to 65535");
	if (s->listen && s->host[0] && s->proto != NET_UNIX &&
	    !(net_udp(s) && net_multicast(s->host)))
		return rl_err_set(
		    err, node->pos,
		    "net: a receiver takes no host but a UDP multicast group, got '%s'", s->host);
	if (!s->listen && !s->host[0])
		return rl_err_set(err, node->pos, "net: a sender needs a host");
	return 0;
}

static int net_create(struct rl_spec_node *node, const struct rl_build_ctx *ctx,
                      struct rl_target **out, struct rl_err *err)
{
	struct net_state *s = calloc(1, sizeof(*s));
	struct rl_target *t = rl_target_alloc(&net_ops, 0);
	uint64_t size = 0;
	int rc;

	(void)ctx;
	if (!s || !t) {
		free(s);
		free(t);
		return -ENOMEM;
	}
	s->fd = s->lfd = -1;
	pthread_mutex_init(&s->lock, NULL);
	t->priv = s;
	rc = net_args(node, s, &size, err);
	if (!rc)
		rc = s->listen ? net_bind(s, node->pos, err)
		               : net_resolve(s, false, &s->dst, &s->dstlen, node->pos, err);
	if (rc) {
		rl_target_close(t);
		return rc;
	}
	t->size = size;
	t->block_size = 1; /* a stream has no sectors */
	t->caps = RL_CAP_FLUSH | RL_CAP_REAL;
	*out = t;
	return 0;
}

static struct rl_target_type net_type = {
    .name = "net",
    .summary = "a stream to or from a peer over TCP, UDP (multicast too) or a unix socket: "
               "writes send, reads receive (fio's net engine)",
    .args = "HOST",
    .params = net_params,
    .create = net_create,
};
RL_TARGET_REGISTER(net_type)
