/*
 * opt_net.c - ioengine=net's options: where the job's socket goes and how
 * it behaves, as fio's net engine takes them.
 *
 *   filename=HOST (or hostname=HOST), port=N, protocol=tcp|tcpv6|udp|udpv6|unix
 *   filename=HOST/PORT[/PROTOCOL]     the same in one value (fio's older form)
 *   filename=PATH, protocol=unix      a UNIX domain socket
 *   listen                            a TCP (or unix) receiver: accept one connection
 *   pingpong, nodelay, ttl, window_size, mss, interface
 *
 * Design: the setters are the generic ones (options.c's table names the
 * fields) except protocol, which also says why vsock is refused.  What
 * needs several options -- the address in filename=, a port for TCP and
 * UDP, who listens, the direction -- is checked once all are set, by
 * opt_check_net (wl_job_validate), with fio's rules: a receiver has no host
 * unless it joins a UDP multicast group, a sender needs one, UDP and unix
 * sockets go one way (the reader receives), network I/O is sequential.
 * wl_job_net_addr gives files.c the same parsed address for the net()
 * target it builds.
 */
#include "workload/opt_priv.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_choice opt_net_protos[] = {
    {"tcp", WL_NET_TCP},     {"tcpv6", WL_NET_TCPV6}, {"udp", WL_NET_UDP},
    {"udpv6", WL_NET_UDPV6}, {"unix", WL_NET_UNIX},   {NULL, 0},
};

bool opt_job_bs_ok(const struct wl_job *job, uint64_t bs)
{
	/* any engine: a stream has no sectors (fio's netio examples send 64-byte
	   datagrams), a buffered file none either; the target says (opt_bs_ok) */
	(void)job;
	return opt_bs_ok(bs);
}

int opt_set_net_proto(struct wl_job *job, const struct opt_def *def, const char *value,
                      const struct opt_ctx *ctx)
{
	int ret = opt_need_value(def, value, ctx);
	if (ret)
		return ret;
	const struct opt_choice *c = opt_find_choice(opt_net_protos, value);
	if (c) {
		job->net.proto = (uint32_t)c->value;
		return 0;
	}
	if (!strcmp(value, "vsock"))
		return opt_fail(ctx, true,
		                "vsock (a virtual machine's socket) is not supported by raidlab; "
		                "expected tcp, tcpv6, udp, udpv6 or unix");
	return opt_fail(ctx, true, "expected tcp, tcpv6, udp, udpv6 or unix, got '%s'", value);
}

static bool opt_net_udp(uint32_t proto)
{
	return proto == WL_NET_UDP || proto == WL_NET_UDPV6;
}

static bool opt_net_tcp(uint32_t proto)
{
	return proto == WL_NET_TCP || proto == WL_NET_TCPV6;
}

/* "HOST/PORT[/PROTOCOL]" of filename= into @a (HOST alone: port= and protocol= stay). */
static int opt_net_split(const char *name, struct wl_net_addr *a, const struct opt_ctx *ctx)
{
	const char *slash = strchr(name, '/');
	if (!slash)
		return 0;
	size_t hl = (size_t)(slash - name);
	const char *port = slash + 1, *proto = strchr(port, '/');
	size_t pl = proto ? (size_t)(proto - port) : strlen(port);
	char num[8];
	unsigned long v = 0;
	char *end = NULL;
	if (pl && pl < sizeof(num)) {
		memcpy(num, port, pl);
		num[pl] = '\0';
		v = strtoul(num, &end, 10);
	}
	if (!hl || !pl || pl >= sizeof(num) || *end || num[0] < '0' || num[0] > '9' || v < 1 ||
	    v > 65535)
		return opt_fail(ctx, false,
		                "filename='%s': expected HOST/PORT[/PROTOCOL] with PORT from 1 to "
		                "65535 for ioengine=net (or protocol=unix and a socket path)",
		                name);
	if (proto) {
		const struct opt_choice *c = opt_find_choice(opt_net_protos, proto + 1);
		if (!c || c->value == WL_NET_UNIX)
			return opt_fail(ctx, false,
			                "filename='%s': protocol '%s' is not tcp, tcpv6, udp or "
			                "udpv6",
			                name, proto + 1);
		a->proto = (uint32_t)c->value;
	}
	memcpy(a->host, name, hl);
	a->host[hl] = '\0';
	a->port = (uint32_t)v;
	return 0;
}

static int opt_net_addr(const struct wl_job *job, struct wl_net_addr *a, const struct opt_ctx *ctx)
{
	memset(a, 0, sizeof(*a));
	a->proto = job->net.proto;
	a->port = job->net.port;
	if (a->proto == WL_NET_UNIX) {
		if (!job->filename[0])
			return opt_fail(ctx, false,
			                "ioengine=net with protocol=unix needs filename= (the "
			                "socket's path)");
		if (a->port)
			return opt_fail(
			    ctx, false,
			    "port=%u: a unix socket has no port (its path is filename=)", a->port);
		snprintf(a->host, sizeof(a->host), "%s", job->filename);
		return 0;
	}
	if (job->filename[0] == '/' || strchr(job->filename, ':') || strchr(job->filename, '('))
		return opt_fail(ctx, false,
		                "filename='%s' is not a host for ioengine=net (expected HOST, "
		                "HOST/PORT or HOST/PORT/PROTOCOL)",
		                job->filename);
	int ret = opt_net_split(job->filename, a, ctx);
	if (ret)
		return ret;
	if (!strchr(job->filename, '/'))
		snprintf(a->host, sizeof(a->host), "%s", job->filename);
	if (!a->port)
		return opt_fail(ctx, false,
		                "ioengine=net over %s needs port= (1 to 65535) or "
		                "filename=HOST/PORT",
		                opt_net_protos[a->proto].text);
	return 0;
}

int wl_job_net_addr(const struct wl_job *job, struct wl_net_addr *a, char *msg, size_t msglen)
{
	struct opt_ctx ctx = {.msg = msg, .msglen = msglen};
	return opt_net_addr(job, a, &ctx);
}

static bool opt_net_multicast(const char *host)
{
	struct in_addr in;
	return inet_pton(AF_INET, host, &in) == 1 && (ntohl(in.s_addr) >> 28) == 0xe;
}

/* Who listens, in which direction: fio's rules for the net engine. */
static int opt_net_roles(const struct wl_job *job, const struct wl_net_addr *a,
                         const struct opt_ctx *ctx)
{
	bool reads = job->rw == WL_RW_READ, writes = job->rw == WL_RW_WRITE;
	if (!opt_net_tcp(a->proto)) {
		if (job->net.listen)
			return opt_fail(
			    ctx, false,
			    "listen is for TCP only; a %s job that reads is the receiver",
			    opt_net_protos[a->proto].text);
		if (!reads && !writes)
			return opt_fail(ctx, false,
			                "rw=%s: a %s socket goes one way: rw=read receives, "
			                "rw=write sends",
			                wl_rw_name(job->rw), opt_net_protos[a->proto].text);
	}
	bool receiver = opt_net_tcp(a->proto) ? job->net.listen : reads;
	if (a->proto == WL_NET_UNIX)
		return 0;
	if (receiver && a->host[0] && !(opt_net_udp(a->proto) && opt_net_multicast(a->host)))
		return opt_fail(ctx, false,
		                "a receiving job (%s) takes no host but a UDP multicast group, "
		                "got '%s'",
		                job->net.listen ? "listen" : "udp, rw=read", a->host);
	if (!receiver && !a->host[0])
		return opt_fail(ctx, false,
		                "ioengine=net: a sending job needs hostname= (or filename=HOST); "
		                "a TCP receiver says listen");
	return 0;
}

int opt_check_net(const struct wl_job *job, const struct opt_ctx *ctx)
{
	struct wl_net_addr a;
	if (job->engine != WL_ENGINE_NET)
		return 0;
	if (job->rw != WL_RW_READ && job->rw != WL_RW_WRITE && job->rw != WL_RW_RW)
		return opt_fail(ctx, false,
		                "rw=%s: ioengine=net is a stream, so it reads (receives) and "
		                "writes (sends) in order: rw=read, write or rw",
		                wl_rw_name(job->rw));
	if (job->net.ttl > 255)
		return opt_fail(ctx, false, "ttl=%u is not from 0 to 255", job->net.ttl);
	if (job->net.interface[0] && !opt_net_multicast(job->net.interface)) {
		struct in_addr in;
		if (inet_pton(AF_INET, job->net.interface, &in) != 1)
			return opt_fail(ctx, false, "interface='%s' is not an IPv4 address",
			                job->net.interface);
	}
	int ret = opt_net_addr(job, &a, ctx);
	return ret ? ret : opt_net_roles(job, &a, ctx);
}
