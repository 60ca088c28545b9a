/*
 * server.c - the listening loop of `raidlab ui` (ui.h).
 *
 * The main thread blocks SIGINT and SIGTERM, reads them from a signalfd and
 * accepts connections; each connection gets a detached thread that reads
 * one request head (and a small form body), runs guard.h's checks and
 * answers: the page's files, the list of results, or a job's event stream.
 * Every answer closes the connection.  A read that stalls ends the
 * connection after UI_READ_TIMEOUT_S; past UI_MAX_CONNS connections a new
 * one is closed at once.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ui/api.h"
#include "ui/guard.h"
#include "ui/http.h"
#include "ui/jobs.h"
#include "ui/page.h"
#include "ui/ui.h"

#define UI_READ_TIMEOUT_S 15
#define UI_MAX_CONNS      64

static struct {
	char token[UI_TOKEN_LEN + 1];
	unsigned port;
	char results[4096];
	atomic_int conns;
} srv;

static void srv_reply(int fd, int status, const char *type, const void *body, size_t len)
{
	static const char csp[] = "default-src 'none'; script-src 'self'; style-src 'self' "
	                          "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
	                          "frame-src 'self'; base-uri 'none'; form-action 'none'; "
	                          "frame-ancestors 'none'";
	const char *text = status == 200   ? "OK"
	                   : status == 400 ? "Bad Request"
	                   : status == 403 ? "Forbidden"
	                   : status == 404 ? "Not Found"
	                   : status == 405 ? "Method Not Allowed"
	                   : status == 413 ? "Content Too Large"
	                   : status == 431 ? "Request Header Fields Too Large"
	                   : status == 503 ? "Service Unavailable"
	                                   : "Internal Server Error";
	char head[1024];
	int n = snprintf(head, sizeof(head),
	                 "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	                 "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
	                 "Referrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n"
	                 "Content-Security-Policy: %s\r\nConnection: close\r\n\r\n",
	                 status, text, type, len, csp);
	if (!ui_send_all(fd, head, (size_t)n))
		ui_send_all(fd, body, len);
}

static void srv_error(int fd, int status, const char *msg)
{
	char b[512];
	int n = snprintf(b, sizeof(b), "%d: %s\n", status, msg);

	srv_reply(fd, status, "text/plain; charset=utf-8", b, (size_t)n);
}

static const struct ui_asset *srv_asset(struct ui_str path)
{
	for (size_t i = 0; i < ui_nassets; i++) {
		char want[128];
		snprintf(want, sizeof(want), "/%s", ui_assets[i].name);
		if (ui_str_eq(path, want, true))
			return &ui_assets[i];
	}
	return NULL;
}

static const char *srv_type(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (dot && !strcmp(dot, ".js"))
		return "text/javascript; charset=utf-8";
	if (dot && !strcmp(dot, ".css"))
		return "text/css; charset=utf-8";
	return "text/html; charset=utf-8";
}

/* A page file, with every "@TOKEN@" replaced by the token (the page's links carry it). */
static void srv_asset_reply(int fd, const struct ui_asset *a)
{
	char *out = malloc(a->len * 2 + 64);
	size_t o = 0;

	if (!out) {
		srv_error(fd, 500, "out of memory");
		return;
	}
	for (size_t i = 0; i < a->len;) {
		if (a->len - i >= 7 && !memcmp(a->data + i, "@TOKEN@", 7)) {
			memcpy(out + o, srv.token, UI_TOKEN_LEN);
			o += UI_TOKEN_LEN;
			i += 7;
		} else {
			out[o++] = (char)a->data[i++];
		}
	}
	srv_reply(fd, 200, srv_type(a->name), out, o);
	free(out);
}

static void srv_route(int fd, const struct ui_req *r, struct ui_str body)
{
	bool get = ui_str_eq(r->method, "GET", true), post = ui_str_eq(r->method, "POST", true);
	const struct ui_asset *a;

	if (get && ui_str_eq(r->path, "/", true))
		a = srv_asset((struct ui_str){"/index.html", 11});
	else
		a = get ? srv_asset(r->path) : NULL;
	if (a) {
		srv_asset_reply(fd, a);
	} else if (get && ui_str_eq(r->path, "/api/results", true)) {
		char *out = malloc(65536);
		if (out && !ui_api_results(srv.results, out, 65536))
			srv_reply(fd, 200, "application/json", out, strlen(out));
		else
			srv_error(fd, 500, "cannot list the results");
		free(out);
	} else if (post && ui_str_eq(r->path, "/api/job", true)) {
		struct ui_job *j = malloc(sizeof(*j));
		char why[256];
		if (!j)
			srv_error(fd, 500, "out of memory");
		else if (ui_api_job(body, srv.results, j, why, sizeof(why)))
			srv_error(fd, 400, why);
		else
			ui_job_stream(fd, j);
		free(j);
	} else if (!get && !post) {
		srv_error(fd, 405, "only GET and POST");
	} else {
		srv_error(fd, 404, "no such page");
	}
}

static void srv_serve_one(int fd)
{
	char *buf = malloc(UI_HTTP_MAX_HEAD + UI_HTTP_MAX_BODY + 1);
	size_t n = 0;
	struct ui_req r;
	int rc = -EAGAIN;

	if (!buf)
		return;
	while (rc == -EAGAIN && n < UI_HTTP_MAX_HEAD) {
		ssize_t got = recv(fd, buf + n, UI_HTTP_MAX_HEAD - n, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			goto out;
		n += (size_t)got;
		rc = ui_http_parse(buf, n, &r);
	}
	if (rc == -EAGAIN)
		rc = ui_http_parse(buf, n, &r);
	if (rc) {
		srv_error(fd, rc == -E2BIG ? 431 : 400,
		          rc == -E2BIG ? "request head too large" : "malformed request");
		goto out;
	}
	const char *why;
	int st = ui_guard_check(&r, srv.token, srv.port, &why);
	if (st) {
		srv_error(fd, st, why);
		goto out;
	}
	if (r.content_length > UI_HTTP_MAX_BODY) {
		srv_error(fd, 413, "request body too large");
		goto out;
	}
	size_t want = r.head_len + (size_t)r.content_length;
	while (n < want) {
		ssize_t got = recv(fd, buf + n, want - n, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			goto out;
		n += (size_t)got;
	}
	srv_route(fd, &r, (struct ui_str){buf + r.head_len, (size_t)r.content_length});
out:
	free(buf);
}

static void *srv_conn(void *arg)
{
	int fd = (int)(intptr_t)arg;
	struct timeval tv = {UI_READ_TIMEOUT_S, 0};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	srv_serve_one(fd);
	/* a lingering close: closing with unread input would reset the connection
	   and the client could lose the answer (a refused oversized head) */
	shutdown(fd, SHUT_WR);
	tv = (struct timeval){1, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	char junk[4096];
	for (size_t n = 0; n < (1u << 20);) {
		ssize_t r = recv(fd, junk, sizeof(junk), 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	atomic_fetch_sub(&srv.conns, 1);
	return NULL;
}

/* --- listening --- */

/* Bind @addr (numeric) at *@port (0: any; set to the port got). The socket, or -errno. */
static int srv_listen(const char *addr, unsigned *port)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int one = 1, fd;

	if (strchr(addr, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)*port);
		if (inet_pton(AF_INET6, addr, &s6->sin6_addr) != 1)
			return -EINVAL;
		len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)*port);
		if (inet_pton(AF_INET, addr, &s4->sin_addr) != 1)
			return -EINVAL;
		len = sizeof(*s4);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		int e = errno;
		close(fd);
		return -e;
	}
	*port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                                       : ((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

static bool srv_loopback(const char *addr)
{
	return !strcmp(addr, "::1") || !strcmp(addr, "127.0.0.1");
}

static int srv_write_ready(const char *path, const char *url)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	fprintf(f, "%s\n", url);
	if (fclose(f) || rename(tmp, path))
		return -errno;
	return 0;
}

static void srv_open_browser(const char *url)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = {"xdg-open", (char *)url, NULL};
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "xdg-open", &fa, NULL, argv, environ))
		fprintf(stderr, "raidlab ui: cannot start xdg-open; open the URL yourself\n");
	posix_spawn_file_actions_destroy(&fa);
}

static int srv_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void srv_loop(int *fds, size_t nfds, int sfd)
{
	struct pollfd pf[3];

	for (size_t i = 0; i < nfds; i++)
		pf[i] = (struct pollfd){fds[i], POLLIN, 0};
	pf[nfds] = (struct pollfd){sfd, POLLIN, 0};
	for (;;) {
		if (poll(pf, nfds + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (pf[nfds].revents)
			return;
		for (size_t i = 0; i < nfds; i++) {
			if (!pf[i].revents)
				continue;
			int c = accept4(fds[i], NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			if (atomic_fetch_add(&srv.conns, 1) >= UI_MAX_CONNS) {
				atomic_fetch_sub(&srv.conns, 1);
				close(c);
				continue;
			}
			pthread_t t;
			pthread_attr_t at;
			pthread_attr_init(&at);
			pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
			if (pthread_create(&t, &at, srv_conn, (void *)(intptr_t)c)) {
				atomic_fetch_sub(&srv.conns, 1);
				close(c);
			}
			pthread_attr_destroy(&at);
		}
	}
}

int ui_run(const struct ui_opts *o)
{
	const char *addr = o->listen ? o->listen : "127.0.0.1";
	int fds[2], nfds = 0, sfd, rc = 0;
	bool own_results = !o->results;
	char url[256];
	sigset_t set;

	if (!srv_loopback(addr)) {
		fprintf(stderr,
		        "raidlab ui: --listen %s: only a loopback address (127.0.0.1, ::1) "
		        "is served; another address would need TLS, which raidlab ui does "
		        "not offer\n",
		        addr);
		return 2;
	}
	if ((rc = ui_token_new(srv.token))) {
		fprintf(stderr, "raidlab ui: no random token: %s\n", strerror(-rc));
		return 1;
	}
	if (own_results) {
		const char *tmp = getenv("TMPDIR");
		snprintf(srv.results, sizeof(srv.results), "%s/raidlab-ui.XXXXXX",
		         tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(srv.results)) {
			fprintf(stderr, "raidlab ui: cannot make a results folder %s: %s\n",
			        srv.results, strerror(errno));
			return 1;
		}
	} else if (snprintf(srv.results, sizeof(srv.results), "%s", o->results) >=
	               (int)sizeof(srv.results) ||
	           mkdir(srv.results, 0700) < 0) {
		if (errno != EEXIST) {
			fprintf(stderr, "raidlab ui: --results %s: %s\n", o->results,
			        strerror(errno));
			return 1;
		}
	}
	srv.port = o->port;
	fds[0] = srv_listen(addr, &srv.port);
	if (fds[0] < 0) {
		fprintf(stderr, "raidlab ui: cannot listen on %s port %u: %s\n", addr, o->port,
		        strerror(-fds[0]));
		rc = 1;
		goto out;
	}
	nfds = 1;
	if (!o->listen) { /* ::1 too, on the same port, where the host has IPv6 */
		unsigned p6 = srv.port;
		int f6 = srv_listen("::1", &p6);
		if (f6 >= 0)
			fds[nfds++] = f6;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	snprintf(url, sizeof(url), "http://%s:%u/?token=%s", strchr(addr, ':') ? "[::1]" : addr,
	         srv.port, srv.token);
	printf("raidlab ui: %s\n", url);
	fflush(stdout);
	if (o->ready_file && (rc = srv_write_ready(o->ready_file, url))) {
		fprintf(stderr, "raidlab ui: --ready-file %s: %s\n", o->ready_file, strerror(-rc));
		rc = 1;
		goto out;
	}
	if (!o->no_browser)
		srv_open_browser(url);
	if (sfd >= 0)
		srv_loop(fds, (size_t)nfds, sfd);
	/* stopped: the children first, then what the connections were doing */
	ui_jobs_signal_all(SIGINT);
	for (int i = 0; i < 300 && atomic_load(&srv.conns) > 0; i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
		if (i == UI_JOB_GRACE_MS / 10)
			ui_jobs_signal_all(SIGKILL);
	}
	if (sfd >= 0)
		close(sfd);
out:
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	if (own_results)
		nftw(srv.results, srv_rm, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}
