/*
 * cmd_ctl.c - `raidlab ctl SOCKET COMMAND`: talk to a running `raidlab serve
 * --ctl SOCKET`.
 *
 * One command per connection: the line goes out, the answer comes back and
 * is printed (src/serve/live.c interprets it).  `rebuild --wait` polls the
 * server's progress until the rebuild ends.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static const char ctl_usage[] =
    "usage: raidlab ctl SOCKET COMMAND [ARGS] [--export NAME] [--rate RATE] [--wait]\n"
    "                   [--force]\n"
    "\n"
    "Controls a running 'raidlab serve --ctl SOCKET':\n"
    "  status           every export: array state, member states, rebuild progress\n"
    "  fail K           mark member K of the export's array failed (clients go on,\n"
    "                   degraded); refused when K holds the last readable copy of\n"
    "                   some data, unless --force\n"
    "  rebuild K        reconstruct member K while clients keep using the export;\n"
    "                   --rate caps it (e.g. 50MB/s), --wait waits for the end and\n"
    "                   shows progress\n"
    "  stop             stop the server as SIGTERM does\n"
    "\n"
    "  --export NAME    the export (default: the first)\n"
    "  --force          fail even the last readable copy (every request there fails)\n"
    "\n"
    "The array must be the export's top target.  Exit status: 0 ok, 1 the server\n"
    "answered with an error (or the rebuild failed), 2 bad usage.\n";

/* Send @cmd, read the whole answer into @out. */
static int ctl_call(const char *path, const char *cmd, char *out, size_t outlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t n = 0;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* send(MSG_NOSIGNAL): a server that hung up is an error message, not SIGPIPE. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, cmd, strlen(cmd), MSG_NOSIGNAL) != (ssize_t)strlen(cmd)) {
		int e = errno;
		close(fd);
		return -e;
	}
	while (n < outlen - 1) {
		ssize_t r = read(fd, out + n, outlen - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	out[n] = '\0';
	close(fd);
	return n ? 0 : -EPIPE;
}

static int ctl_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"export", required_argument, NULL, 'e'}, {"rate", required_argument, NULL, 'r'},
	    {"wait", no_argument, NULL, 'w'},         {"force", no_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
	const char *exp = NULL, *rate = NULL;
	bool wait = false, force = false;
	char cmd[512], out[8192];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			exp = optarg;
			break;
		case 'r':
			rate = optarg;
			break;
		case 'w':
			wait = true;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			fputs(ctl_usage, stdout);
			return 0;
		default:
			fputs(ctl_usage, stderr);
			return 2;
		}
	}
	if (argc - optind < 2) {
		cli_error("ctl", "give the control socket and a command");
		fputs(ctl_usage, stderr);
		return 2;
	}
	const char *path = argv[optind], *verb = argv[optind + 1];
	const char *member = argc - optind > 2 ? argv[optind + 2] : NULL;
	bool needs_member = !strcmp(verb, "fail") || !strcmp(verb, "rebuild");
	if (strcmp(verb, "status") && strcmp(verb, "stop") && !needs_member) {
		cli_error("ctl", "unknown command '%s' (status, fail, rebuild, stop)", verb);
		return 2;
	}
	if (needs_member && (!member || argc - optind > 3)) {
		cli_error("ctl", "%s needs exactly one member number", verb);
		return 2;
	}
	if ((exp && strpbrk(exp, " \t\n")) || (rate && strpbrk(rate, " \t\n"))) {
		cli_error("ctl", "--export and --rate values cannot contain spaces");
		return 2;
	}
	snprintf(cmd, sizeof(cmd), "%s%s%s%s%s%s%s%s\n", verb, member ? " member=" : "",
	         member ? member : "", exp ? " export=" : "", exp ? exp : "", rate ? " rate=" : "",
	         rate ? rate : "", force ? " force=1" : "");
	rc = ctl_call(path, cmd, out, sizeof(out));
	if (rc) {
		cli_error("ctl", "%s: %s (is 'raidlab serve --ctl %s' running?)", path,
		          strerror(-rc), path);
		return 1;
	}
	fputs(out, strncmp(out, "error: ", 7) ? stdout : stderr);
	if (!strncmp(out, "error: ", 7))
		return 1;
	if (!wait || strcmp(verb, "rebuild"))
		return 0;
	snprintf(cmd, sizeof(cmd), "progress%s%s\n", exp ? " export=" : "", exp ? exp : "");
	for (;;) {
		struct timespec ts = {.tv_nsec = 100000000};
		nanosleep(&ts, NULL);
		rc = ctl_call(path, cmd, out, sizeof(out));
		if (rc) {
			cli_error("ctl", "lost the server while waiting: %s", strerror(-rc));
			return 1;
		}
		if (!strncmp(out, "rebuilding", 10)) {
			if (isatty(STDERR_FILENO))
				fprintf(stderr, "\r%s", strtok(out, "\n"));
			continue;
		}
		if (isatty(STDERR_FILENO))
			fputc('\n', stderr);
		printf("rebuild %s", out);
		return strncmp(out, "done", 4) ? 1 : 0;
	}
}

static struct cli_command ctl_cmd = {
    .name = "ctl",
    .summary = "control a running 'raidlab serve': fail or rebuild a member, status",
    .usage = ctl_usage,
    .main = ctl_main,
};
CLI_COMMAND_REGISTER(ctl_cmd)
